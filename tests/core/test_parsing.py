"""Reading numbers from text: exactpml's own grammar never executes code, is exact, is bounded.

Expected values come from independent ``Fraction`` computations written here (the fuzz test
evaluates the same random expression tree with plain ``Fraction`` arithmetic).
"""

import os
import signal
from contextlib import contextmanager
from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactpml import (
    BoundExceeded,
    Bounds,
    Distribution,
    ExactPMLError,
    InvalidArgument,
    LogValue,
    Mechanism,
    ParameterDomain,
    Undecided,
    exact,
    use_bounds,
)
from exactpml.core import certify
from exactpml.core.exact import to_sympy
from exactpml.core.parsing import parse_exact
from exactpml.structured import LaplaceNoise

PAYLOAD = "__import__('os').system('touch M')"
NUMERIC_PAYLOAD = "__import__('os').system('touch M')*0 + 3/4"
BINARY = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})


@contextmanager
def hang_guard(seconds: int = 10):
    """Fail instead of hanging (a guard against unbounded work, not a timing assertion)."""

    def alarm(signum, frame):
        raise AssertionError(f"no answer within {seconds} s: the input was not bounded")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# Every string path of the library (the CLI's file paths are in tests/test_bad_files.py).
STRING_PATHS = [
    ("exact", lambda s: exact(s, where="entry")),
    ("distribution", lambda s: Distribution({"a": s, "b": "1/4"})),
    ("mechanism_row", lambda s: Mechanism({"a": {0: s, 1: "1/4"}})),
    ("from_matrix", lambda s: Mechanism.from_matrix([[s, "1/4"]])),
    ("mixture_weight", lambda s: BINARY.mixture(BINARY, s)),
    ("parameter_domain", lambda s: ParameterDomain(s, 1)),
    ("log_value", lambda s: LogValue(s)),
    ("laplace_scale", lambda s: LaplaceNoise(s)),
    ("epsilon", lambda s: exact(s, where="epsilon")),
]


@pytest.mark.parametrize(("path", "build"), STRING_PATHS, ids=[p for p, _ in STRING_PATHS])
@pytest.mark.parametrize("payload", [PAYLOAD, NUMERIC_PAYLOAD, "().__class__", "lambda: 1"])
def test_no_string_path_executes_code(path, build, payload, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidArgument, match="cannot read"):
        build(payload)
    assert not os.path.exists("M")


def test_decimals_mixed_with_operations_are_exact():
    # independent: Fraction arithmetic on the same literals
    assert exact("0.5 + 1/123456789") == Fraction(1, 2) + Fraction(1, 123456789)
    assert exact("1e-30 + 1/3") == Fraction(1, 10**30) + Fraction(1, 3)
    long_decimal = "0." + "3" * 5000
    assert exact(long_decimal) == Fraction((10**5000 - 1) // 3, 10**5000) != Fraction(1, 3)
    assert exact("2.5e3 * 1E-2") == Fraction(25)
    assert exact("(1 - 0.1)^2") == Fraction(81, 100)


# (id, text, error, fragments naming the entry / bound)
HOSTILE = [
    ("tower", "10**10**10", BoundExceeded, ["integer_bits"]),
    ("factorial", "factorial(10**9)", BoundExceeded, ["factorial_argument"]),
    ("huge_exponent", "1e999999999", BoundExceeded, ["decimal_exponent"]),
    ("tiny_exponent", "1e-999999999", BoundExceeded, ["decimal_exponent"]),
    ("power_of_power", "2**(2**64)", BoundExceeded, ["integer_bits"]),
    ("long_literal", "1" * 20_000, BoundExceeded, ["decimal_digits"]),
    ("long_text", "1+" * 60_000 + "1", BoundExceeded, ["entry_characters"]),
    ("deep_parentheses", "(" * 500 + "1" + ")" * 500, BoundExceeded, ["expression_depth"]),
    ("deep_signs", "-" * 500 + "1", BoundExceeded, ["expression_depth"]),
    ("costly_root", "(2**20000 + 1)**(1/3)", BoundExceeded, ["root_bits"]),
    ("symbolic_power", "t**100000", BoundExceeded, ["symbolic_exponent"]),
    ("sin", "sin(22)", InvalidArgument, ["sin(...) is not a supported function"]),
    ("attribute", "(1).__class__", InvalidArgument, ["cannot read"]),
    ("undeclared", "x + 1", InvalidArgument, ["'x'", "unknown sign"]),
    ("division_by_zero", "1/(1 - 1)", InvalidArgument, ["divides by zero"]),
    ("log_of_zero", "log(0)", InvalidArgument, ["log of 0"]),
    ("negative_root", "sqrt(-2)", InvalidArgument, ["not real"]),
    ("nan", "nan", InvalidArgument, ["not a finite number"]),
    ("empty", "  ", InvalidArgument, ["empty"]),
    ("juxtaposition", "2 3", InvalidArgument, ["unexpected '3'"]),
    ("unclosed", "(1 + 2", InvalidArgument, ["expected ')'"]),
]


@pytest.mark.parametrize(
    ("text", "error", "fragments"), [c[1:] for c in HOSTILE], ids=[c[0] for c in HOSTILE]
)
def test_hostile_text_is_refused_quickly_naming_the_entry_and_the_bound(text, error, fragments):
    symbols = {"t": sympy.Symbol("t", positive=True)}
    with hang_guard(), pytest.raises(error) as caught:
        exact(text, where="row 'a', output 0", symbols=symbols)
    message = str(caught.value)
    assert message.startswith("row 'a', output 0: "), message
    for fragment in fragments:
        assert fragment in message, message


def test_bounds_can_be_raised_for_a_block_and_are_restored():
    text = "2**300000"
    with pytest.raises(BoundExceeded, match="integer_bits=200000"):
        exact(text)
    with use_bounds(integer_bits=400_000):
        assert exact(text) == Fraction(2**300000)
    with pytest.raises(BoundExceeded):
        exact(text)
    with pytest.raises(InvalidArgument, match="unknown bound"):
        with use_bounds(no_such_bound=1):
            pass
    with pytest.raises(InvalidArgument, match="positive int"):
        with use_bounds(decimal_digits=0):
            pass


def test_a_closed_condition_is_decided_or_refused_never_stored():
    # sin(22) ≈ -0.0089: certified negative, so the entry is refused (was stored as False)
    with pytest.raises(InvalidArgument, match="negative"):
        Distribution({"a": sympy.sin(22), "b": 1 - sympy.sin(22)})
    # a closed value certify cannot enclose is Undecided, not an open condition
    weird = sympy.gamma(sympy.Rational(1, 3)) / 10
    with pytest.raises(Undecided, match="cannot decide"):
        Distribution({"a": weird, "b": 1 - weird})
    # a genuinely symbolic condition stays three-valued
    t = sympy.Symbol("t", positive=True)
    assert Distribution({"a": t, "b": 1 - t}).conditions == (sympy.Ge(1 - t, 0),)


def test_an_infinite_noise_scale_is_refused():
    with pytest.raises(InvalidArgument, match="scale=oo must be finite"):
        LaplaceNoise(scale="oo")


def test_a_certified_sign_of_a_tower_of_exponentials_is_refused_quickly():
    tower = sympy.exp(sympy.exp(sympy.exp(100))) - 1
    with hang_guard(), pytest.raises(Undecided, match="exponential_argument"):
        certify.sign(tower)


def test_the_certified_precision_bound_is_configurable():
    # log(1 + x) - x = -x²/2 + ...: its sign needs about 5000 bits at x = 2^-5000
    close = sympy.log(1 + sympy.Rational(1, 2**5000)) - sympy.Rational(1, 2**5000)
    assert certify.sign(close) == -1
    with use_bounds(certified_precision=128), pytest.raises(Undecided, match="128 bits"):
        certify.sign(close)


# --- fuzz: structured expression strings against an independent Fraction evaluation ---------
class _Unrepresentable(Exception):
    """The independent evaluation refuses (division by zero or a bound): expect an error."""


def _leaf():
    integers = st.integers(0, 10**6).map(lambda n: (str(n), Fraction(n)))
    decimals = st.tuples(st.integers(0, 10**6), st.integers(0, 8), st.integers(-30, 30)).map(
        lambda t: (
            f"{t[0] // 10 ** t[1]}.{str(t[0] % 10 ** t[1]).zfill(t[1])}e{t[2]}"
            if t[1]
            else f"{t[0]}e{t[2]}",
            Fraction(t[0], 10 ** t[1]) * Fraction(10) ** t[2],
        )
    )
    return st.one_of(integers, decimals)


def _combine(children):
    def binary(pair_and_op):
        (left, left_value), (right, right_value), op = pair_and_op
        text = f"({left}) {op} ({right})"
        if op == "+":
            return text, left_value + right_value
        if op == "-":
            return text, left_value - right_value
        if op == "*":
            return text, left_value * right_value
        if right_value == 0:
            return text, None
        return text, left_value / right_value

    def power(pair):
        (base, base_value), exponent = pair
        text = f"({base})**({exponent})"
        if base_value is None or (base_value == 0 and exponent < 0):
            return text, None
        return text, base_value**exponent

    def negate(child):
        text, value = child
        return f"-({text})", None if value is None else -value

    ops = st.sampled_from(["+", "-", "*", "/"])
    return st.one_of(
        st.tuples(children, children, ops).map(
            lambda t: (
                binary(t)
                if t[0][1] is not None and t[1][1] is not None
                else (
                    f"({t[0][0]}) {t[2]} ({t[1][0]})",
                    None,
                )
            )
        ),
        st.tuples(children, st.integers(-4, 4)).map(power),
        children.map(negate),
    )


EXPRESSIONS = st.recursive(_leaf(), _combine, max_leaves=12)


@given(EXPRESSIONS)
def test_expression_strings_evaluate_to_the_independent_fraction_value(case):
    text, expected = case
    with hang_guard(5):
        if expected is None:
            with pytest.raises(InvalidArgument, match="divides by zero"):
                exact(text)
        else:
            try:
                assert exact(text) == expected
            except BoundExceeded:  # the independent value is astronomically large: refused
                bits = max(expected.numerator.bit_length(), expected.denominator.bit_length())
                assert bits > 10_000


@given(st.text(max_size=60))
def test_arbitrary_text_gives_an_exact_value_or_an_exactpml_error(text):
    with hang_guard(5):
        try:
            value = exact(text, where="fuzz")
        except ExactPMLError as error:
            assert str(error).startswith("fuzz: "), error
        else:
            assert type(value) is Fraction or isinstance(value, sympy.Basic)


@given(st.text(alphabet="0123456789.eE+-*/^()lgoexpsqrtinE, ", max_size=40))
def test_grammar_shaped_text_gives_an_exact_value_or_an_exactpml_error(text):
    with hang_guard(5):
        try:
            exact(text, where="fuzz")
        except ExactPMLError as error:
            assert str(error).startswith("fuzz: "), error


# --- round trip: what the library prints, it reads back ----------------------------------------
@given(st.fractions())
def test_every_fraction_printed_parses_back_to_itself(value):
    assert exact(str(value)) == value


T = sympy.Symbol("t", positive=True)
RATIONALS = st.fractions(max_denominator=10**6).map(
    lambda f: sympy.Rational(f.numerator, f.denominator)
)
POSITIVE = st.fractions(min_value=Fraction(1, 10**6), max_value=10**6).map(
    lambda f: sympy.Rational(f.numerator, f.denominator)
)
ATOMS = st.one_of(
    RATIONALS,
    POSITIVE.map(sympy.log),
    RATIONALS.filter(lambda r: abs(r) <= Bounds().exponential_argument).map(sympy.exp),
    POSITIVE.map(sympy.sqrt),
    POSITIVE.map(lambda r: r ** sympy.Rational(1, 3)),
    st.just(T),
    st.just(sympy.pi),
)
SYMPY_EXPRESSIONS = st.recursive(
    ATOMS,
    lambda children: st.one_of(
        st.tuples(children, children).map(lambda p: p[0] + p[1]),
        st.tuples(children, children).map(lambda p: p[0] * p[1]),
        st.tuples(children, st.integers(-3, 3)).map(lambda p: p[0] ** p[1] if p[1] else p[0]),
    ),
    max_leaves=5,
)


@given(SYMPY_EXPRESSIONS)
def test_every_rational_sympy_expression_printed_parses_back_to_itself(expr):
    bound = Bounds().exponential_argument  # powers of exp(r) multiply r: exp(r)**9 = exp(9r)
    if any(abs(power.exp) > bound for power in expr.atoms(sympy.exp) if power.exp.is_Rational):
        return  # refused by design (test_exp_of_a_rational_beyond_the_exponential_argument...)
    if expr.has(sympy.zoo, sympy.nan) or expr.has(sympy.I):
        return
    with hang_guard(5):
        parsed = to_sympy(parse_exact(str(expr), symbols={"t": T}))
    assert parsed == expr or sympy.simplify(parsed - expr) == 0, (str(expr), parsed)


def test_exp_of_a_rational_beyond_the_exponential_argument_bound_is_refused_naming_it():
    # no certified ball encloses exp(2**20 + 1), and sympy's printer evaluates
    # exp(10**5000) - 1 for minutes: the entry is refused when it is read
    assert exact("exp(1048576)") == sympy.exp(1048576)
    for text in ("exp(1048577)", "exp(-1048577)", "exp(1" + "0" * 5000 + ") - 1"):
        with hang_guard(), pytest.raises(BoundExceeded, match="exponential_argument"):
            exact(text, where="e")
    with use_bounds(exponential_argument=2**21):
        assert exact("exp(1048577)") == sympy.exp(1048577)


def test_log_values_printed_by_the_library_parse_back():
    for value in (LogValue(Fraction(9, 5)), LogValue(3), LogValue(sympy.sqrt(2))):
        assert exact(str(value)) == value.to_sympy()
