"""Bounded work in exactpml's core (issue 21): no hang, no foreign exception, big numbers print.

Every case runs in a forked child limited to 4 s of CPU time and 1 GB of memory beyond what
the test process already holds (the issue's limits): a hang or a memory blow-up fails the
test instead of stalling the suite.  This is a hang guard, not a timing assertion: the cases
either end in an exactpml error naming the entry or in a value checked against an
independent computation written here.
"""

from __future__ import annotations

import os
import pickle
import resource
import select
import signal
import sys
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactpml import (
    BoundExceeded,
    Distribution,
    ExactPMLError,
    InexactInput,
    InvalidArgument,
    LogValue,
    Mechanism,
    Undecided,
    exact,
    use_bounds,
)
from exactpml.core import certify
from exactpml.core.abbreviate import abbreviated, abbreviated_integer, digit_count
from exactpml.errors import MESSAGE_CHARACTERS

CPU_SECONDS = 4
MEMORY_BYTES = 2**30
INTEGER_STRING_LIMIT = "integer string conversion"


def _address_space() -> int:
    """The test process's current virtual memory size in bytes (Linux), 0 when unknown."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def in_child(call: Callable[[], Any], *, send_value: bool = False) -> tuple[str, Any]:
    """Run ``call`` in a forked child under the issue's limits.

    Returns ``("value", value)`` (with ``send_value``; else the value's abbreviated text: an
    unpickled sympy object may evaluate itself in the parent, e.g. a factorial) or ``("error", (class names of the MRO, module, message))``;
    a child that
    runs out of CPU time or memory, or dies, fails the calling test.
    """
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: limits, the call, one pickled answer, exit
        os.close(reader)
        try:
            resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 1))
            limit = _address_space() + MEMORY_BYTES
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            try:
                value = call()
                answer: tuple[str, Any] = ("value", value if send_value else abbreviated(value))
            except BaseException as error:
                try:
                    message = str(error)
                except BaseException as failure:
                    message = f"<str() failed: {type(failure).__name__}: {failure}>"
                classes = [cls.__name__ for cls in type(error).__mro__]
                answer = ("error", (classes, type(error).__module__, message))
            try:
                data = pickle.dumps(answer)
            except BaseException as failure:
                data = pickle.dumps(("error", ([type(failure).__name__], "pickle", str(failure))))
            with os.fdopen(writer, "wb") as stream:
                stream.write(data)
        finally:
            os._exit(0)
    os.close(writer)
    chunks = []
    with os.fdopen(reader, "rb") as stream:
        while True:  # a wall-clock guard too (a child blocked without using CPU)
            ready, _, _ = select.select([stream], [], [], 120)
            if not ready:
                os.kill(pid, signal.SIGKILL)
                break
            chunk = stream.read1(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    if not chunks:
        killed = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        pytest.fail(
            f"no answer within {CPU_SECONDS} s of CPU and {MEMORY_BYTES >> 20} MB "
            f"(child status {status}, signal {killed}): the work was not bounded"
        )
    return pickle.loads(b"".join(chunks))


def expect_error(call: Callable[[], Any], error: type[BaseException], *fragments: str) -> str:
    """The message of the exactpml error ``call`` raises in a child; checks class and text."""
    kind, outcome = in_child(call)
    assert kind == "error", f"expected {error.__name__}, got the value {outcome!r}"
    classes, module, message = outcome
    assert module.startswith("exactpml"), f"a foreign exception: {module}.{classes[0]}: {message}"
    assert error.__name__ in classes, f"{module}.{classes[0]}: {message}"
    assert len(message) <= MESSAGE_CHARACTERS, message
    assert INTEGER_STRING_LIMIT not in message, message
    for fragment in fragments:
        assert fragment in message, message
    return message


def expect_value(call: Callable[[], bool | int | str]) -> Any:
    """What ``call`` returns in a child (a plain value: compare sympy results in the child)."""
    kind, outcome = in_child(call, send_value=True)
    assert kind == "value", f"expected a value, got the error {outcome!r}"
    return outcome


# --- the helper: big numbers shown by their ends and digit count ---------------------------
INTEGERS = [0, 7, -(10**49), 10**50 - 1, 10**50, -(10**50) - 3, 2**1000, 3**20000 + 1, -(7**9000)]


@pytest.mark.parametrize("value", INTEGERS, ids=[f"{n.bit_length()}_bits" for n in INTEGERS])
def test_an_abbreviated_integer_shows_its_ends_and_its_exact_digit_count(value):
    """Expected text from Python's own ``str`` (the limit lifted here, in the test only)."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        full = str(value)
    finally:
        sys.set_int_max_str_digits(limit)
    digits = full.lstrip("-")
    assert digit_count(value) == len(digits)
    sign = "-" if value < 0 else ""
    if len(digits) <= 50:
        assert abbreviated_integer(value) == full
    else:
        assert abbreviated_integer(value) == (
            f"{sign}{digits[:10]}…{digits[-10:]} ({len(digits)} digits)"
        )


def test_an_integer_of_millions_of_digits_is_abbreviated_without_printing_it():
    value = expect_value(lambda: abbreviated_integer(2**10_000_000 - 1))
    # 2^10^7 - 1 has floor(10^7 log10 2) + 1 = 3010300 digits and ends in ...09375 - 1
    assert value.endswith(" (3010300 digits)")
    assert value.split("…")[1].startswith(str((pow(2, 10_000_000, 10**10) - 1) % 10**10))


def test_fractions_and_sympy_expressions_are_abbreviated_inside():
    huge = sympy.Integer(10) ** 5000
    assert abbreviated(Fraction(1, 10**5000)) == "1/1000000000…0000000000 (5001 digits)"
    assert abbreviated(sympy.exp(huge) - 1) == "-1 + exp(1000000000…0000000000 (5001 digits))"
    assert abbreviated(sympy.Pow(2, huge, evaluate=False)) == (
        "2**1000000000…0000000000 (5001 digits)"
    )
    long_sum = sympy.Add(*(sympy.log(sympy.Integer(k)) for k in range(2, 2000)))
    text = abbreviated(long_sum)
    assert "more terms" in text and len(text) <= 160


def test_every_exactpml_message_is_cut_to_the_cap_keeping_both_ends():
    message = "row 'a': " + "9" * 10_000 + " exceeds the bound integer_bits"
    text = str(InvalidArgument(message))
    assert len(text) == MESSAGE_CHARACTERS
    assert text.startswith("row 'a': 999") and text.endswith("the bound integer_bits")
    assert str(InvalidArgument("short")) == "short"


# --- hangs ---------------------------------------------------------------------------------
TOWER = {"a": "exp(-exp(exp(100)))", "b": "1-exp(-exp(exp(100)))"}


def test_a_distribution_whose_entries_sympy_cannot_evaluate_is_undecided_at_once():
    """sympy.Ge(value, 0) evaluated would try to evaluate exp(exp(100)) numerically."""
    expect_error(lambda: Distribution(TOWER), Undecided, "distribution, outcome 'a'", ">= 0")


def test_a_mechanism_row_whose_entries_sympy_cannot_evaluate_is_undecided_at_once():
    expect_error(lambda: Mechanism({"x": TOWER}), Undecided, "row 'x', output 'a'")


def test_a_symbolic_condition_is_still_kept_unevaluated():
    t = sympy.Symbol("t", positive=True)
    distribution = Distribution({"a": t, "b": 1 - t})
    assert distribution.conditions == (sympy.Ge(1 - t, 0, evaluate=False),)


THREE_PRIMES = [sympy.exp(sympy.Rational(1, q)) for q in (99991, 99989, 99971)]


def test_an_exponential_polynomial_with_a_huge_common_denominator_is_proved_zero():
    """e^{1/q} over the sum of the three, summed: identically 1 (the sum over itself)."""
    total = sum(THREE_PRIMES)
    zero = sum(e / total for e in THREE_PRIMES) - 1
    assert expect_value(lambda: certify.sign(zero)) == 0


def test_an_exponential_polynomial_past_the_degree_bound_is_undecided_not_expanded():
    """(e^{1/2}+1)(e^{1/2}-1) = e - 1 needs the relation e^{1/2}² = e (the test in W): past
    the degree bound it is not proved, so the sign is Undecided rather than guessed."""
    half = sympy.exp(sympy.Rational(1, 2))
    zero = (half + 1) * (half - 1) - (sympy.E - 1)
    assert certify.sign(zero) == 0  # degree 2 in W = e^{1/2}

    def refused() -> int:
        with use_bounds(zero_test_degree=1):
            return certify.sign(zero)

    expect_error(refused, Undecided, "cannot decide the sign")


@pytest.mark.parametrize("repeats", [150, 2_000])
def test_a_chain_of_big_gcds_within_every_other_bound_is_refused_by_the_work_bound(repeats):
    """7 703 and 100 003 characters; each literal and value is within integer_bits."""
    text = "(1000003/1000033)**5000" + "*(1000037/1000039)**2500/(1000037/1000039)**2500" * repeats
    expect_error(lambda: exact(text, where="entry"), BoundExceeded, "entry: ", "parse_work")


def test_a_short_chain_of_big_gcds_is_read_exactly():
    """Independent value: the two quotients cancel; Fraction arithmetic in the test."""
    text = "(1000003/1000033)**5000" + "*(1000037/1000039)**2500/(1000037/1000039)**2500" * 3
    assert expect_value(lambda: exact(text) == Fraction(1000003, 1000033) ** 5000)


def test_a_long_sum_of_distinct_exponentials_is_read_in_linear_time():
    """sympy flattening a growing sum at every '+' took 35 s for these 3 000 terms."""
    text = "+".join(f"exp({k})" for k in range(1, 3000))
    expected = sympy.Add(*(sympy.exp(sympy.Integer(k)) for k in range(1, 3000)))
    assert expect_value(lambda: exact(text) == expected)


# --- Python's 4300-digit limit never leaks ---------------------------------------------------
BIG = sympy.Integer(10) ** 5000

LIMIT_CASES = [
    (
        "decimal_in_distribution",
        lambda: Distribution({"a": "0." + "1" * 5000, "b": "1/2"}),
        InvalidArgument,
        ["distribution: probabilities sum to 6111111111…", "(5001 digits)"],
    ),
    (
        "factorial_text",
        lambda: exact("factorial(10**5000)", where="e"),
        BoundExceeded,
        ["e: factorial of 1000000000…0000000000 (5001 digits)", "factorial_argument"],
    ),
    (
        "power_text",
        lambda: exact("2**(10**5000)", where="e"),
        BoundExceeded,
        ["(5001 digits)", "integer_bits"],
    ),
    (
        "log_text",
        lambda: exact("log(-10**5000)", where="e"),
        InvalidArgument,
        ["e: 'log(-10**5000)': log of -1000000000…0000000000 (5001 digits)"],
    ),
    (
        "exponent_text",
        lambda: exact("1e-" + "9" * 50_000, where="e"),
        BoundExceeded,
        ["(50000 digits)", "decimal_exponent"],
    ),
    (
        "factorial_value",
        lambda: exact(sympy.factorial(BIG, evaluate=False), where="e"),
        BoundExceeded,
        ["e: ", "(5001 digits)", "factorial_argument"],
    ),
    (
        "power_value",
        lambda: exact(sympy.Pow(2, BIG, evaluate=False), where="e"),
        BoundExceeded,
        ["e: ", "(5001 digits)", "integer_bits"],
    ),
    (
        "log_value",
        lambda: exact(sympy.log(-BIG), where="e"),
        InvalidArgument,
        ["e: ", "(5001 digits)", "complex"],
    ),
    (
        "exponent_value",
        lambda: exact(Decimal("1e-999999999999999999"), where="e"),
        BoundExceeded,
        ["e: the number's exponent -999999999999999999", "decimal_exponent"],
    ),
    (
        "float_exponent",
        lambda: exact(sympy.Float._new((0, 1, -(10**5000), 1), 53), where="e"),
        InexactInput,
        ["e: Float(1*2**-1000000000…0000000000 (5001 digits)) is a float"],
    ),
    (
        "float_exponent_allowed",
        lambda: exact(sympy.Float._new((0, 1, -(10**5000), 1), 53), where="e", allow_float=True),
        BoundExceeded,
        ["e: the float's exact binary value has 1000000000…", "integer_bits"],
    ),
    (
        "sign_of_exp",
        lambda: certify.sign(sympy.exp(BIG) - 1),
        Undecided,
        ["exp(1000000000…0000000000 (5001 digits))", "exponential_argument"],
    ),
]


@pytest.mark.parametrize(
    ("call", "error", "fragments"),
    [case[1:] for case in LIMIT_CASES],
    ids=[case[0] for case in LIMIT_CASES],
)
def test_huge_numbers_in_messages_are_abbreviated(call, error, fragments):
    expect_error(call, error, *fragments)


# --- ε and tolerances far out of range ----------------------------------------------------
CHANNEL = {(0,): {0: "3/4", 1: "1/4"}, (1,): {0: "1/4", 1: "3/4"}}


def test_a_huge_epsilon_decides_differential_privacy_through_logs():
    """e^ε for ε = 10^9999 cannot be enclosed; ε itself can.  By definition every finite
    ratio (here at most 3) is below e^ε, so the mechanism is ε-DP and δ(ε) = 0."""
    from exactpml import DatabaseMechanism, delta_for_epsilon, is_differentially_private

    mechanism = DatabaseMechanism(Mechanism(CHANNEL))
    assert expect_value(lambda: is_differentially_private(mechanism, "1e9999")) is True
    assert (
        expect_value(lambda: is_differentially_private(mechanism, "1e9999", delta="1/10")) is True
    )
    assert expect_value(lambda: delta_for_epsilon(mechanism, "1e9999").value == 0) is True


@pytest.mark.parametrize("measure", ["shannon_capacity", "maximal_alpha_leakage"])
def test_a_tiny_tolerance_is_shown_abbreviated_when_the_bracket_is_too_wide(measure):
    """A tolerance of 10^-9999 (admitted by raised bounds) that two iterations cannot reach:
    the Undecided message shows it by its size, within the message cap."""
    from exactpml import qif

    channel = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/5", 1: "4/5"}})
    arguments = () if measure == "shannon_capacity" else (2,)
    function = getattr(qif, measure)

    def call() -> object:
        with use_bounds(tolerance_bits=40_000, certified_precision=70_000):
            return function(channel, *arguments, tolerance="1e-9999", max_steps=2)

    expect_error(
        call,
        Undecided,
        f"{measure}: after 2 iterations",
        "tolerance=a rational of about 2^-33215",
    )


# --- printing results of any size ---------------------------------------------------------
def test_a_failed_exact_assertion_on_5000_digit_values_reads_in_one_line():
    from exactpml.testing import assert_exact_equal

    def compare() -> None:
        assert_exact_equal(Fraction(10**5000 + 1), Fraction(10**5000))

    kind, (classes, _, message) = in_child(compare)
    assert kind == "error" and classes[0] == "AssertionError"
    assert len(message) <= MESSAGE_CHARACTERS
    assert message == (
        "not exactly equal: 1000000000…0000000001 (5001 digits) (1.000000000e+5000) != "
        "1000000000…0000000000 (5001 digits) (1.000000000e+5000); difference 1"
    )


def test_a_renyi_entropy_of_a_high_order_prints_through_the_renderers():
    """sympy's own str raises on its 4772-digit denominators; to_plain prints it in full,
    and the text reads back to the same expression."""
    from exactpml.qif import renyi_entropy
    from exactpml.render import to_latex, to_plain

    prior = Distribution({"a": "1/3", "b": "2/3"})

    def printed() -> bool:
        value = renyi_entropy(prior, Fraction(20001, 2))
        text = to_plain(value)
        with use_bounds(integer_bits=20_000):
            return len(text) > 9000 and len(to_latex(value)) > 9000 and exact(text) == value

    assert expect_value(printed) is True


def test_a_huge_decimal_read_by_exact_prints_through_the_renderers():
    """exact() returns a Fraction (the public rational type), whose repr Python refuses past
    4300 digits; the renderers print it in full."""
    from exactpml.render import to_plain

    assert expect_value(lambda: to_plain(exact("1e10000")) == "1" + "0" * 10_000) is True


def test_a_sum_whose_terms_sympy_would_order_by_evaluating_exp_of_a_huge_number_prints():
    """sympy orders a sum's numeric terms by complex(term): exp(10**5000) never finishes."""
    from exactpml.render import to_latex, to_plain

    value = sympy.exp(BIG) - 1

    def printed() -> bool:
        return to_plain(value).startswith("-1 + exp(1000") and "e^{1000" in to_latex(value)

    assert expect_value(printed) is True


# --- the grammar's digits, foreign exceptions, labels -------------------------------------
@pytest.mark.parametrize(
    "text", ["١٢", "１", "1٫5", "३"], ids=["arabic", "fullwidth", "sep", "devanagari"]
)
def test_unicode_digits_are_refused_naming_the_entry(text):
    message = expect_error(lambda: exact(text, where="row 'a'"), InvalidArgument, "row 'a': ")
    assert "unexpected character" in message


FOREIGN_CASES = [
    (
        "not_pairs",
        lambda: Distribution(5),
        InvalidArgument,
        ["Distribution: probabilities must be an iterable or a mapping, got int"],
    ),
    (
        "unhashable_output",
        lambda: Mechanism.from_matrix([["1/2", "1/2"]], outputs=[[0], [1]]),
        InvalidArgument,
        ["mechanism: TypeError", "unhashable"],
    ),
    ("row_not_a_list", lambda: Mechanism.from_matrix([5]), InvalidArgument, ["mechanism: "]),
    (
        "json_of_an_object",
        lambda: __import__("exactpml.io").io.dump_json({"a": object()}),
        InvalidArgument,
        ["dump_json: <object object at", "is not a value JSON can hold"],
    ),
    (
        "huge_label",
        lambda: Distribution({10**5000: "1/2", 1: "1/3"}),
        InvalidArgument,
        ["probabilities sum to 5/6"],
    ),
    (
        "huge_label_missing",
        lambda: Distribution({10**5000: "1/2", 1: "1/2"})[2],
        InvalidArgument,
        ["outcome 2 is not in the alphabet [1000000000…0000000000 (5001 digits), 1]"],
    ),
    (
        "long_entry_text",
        lambda: exact("1+" * 40_000 + "x", where="row 'a'"),
        InvalidArgument,
        ["row 'a': ", "'x'"],
    ),
]


@pytest.mark.parametrize(
    ("call", "error", "fragments"),
    [case[1:] for case in FOREIGN_CASES],
    ids=[case[0] for case in FOREIGN_CASES],
)
def test_foreign_exceptions_and_huge_labels_become_short_exactpml_errors(call, error, fragments):
    expect_error(call, error, *fragments)


def test_a_huge_label_still_prints_a_rebuildable_repr():
    distribution = Distribution({10**5000: "1/2", 1: "1/2"})
    text = expect_value(lambda: repr(distribution))
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        assert text == "Distribution({" + str(10**5000) + ": '1/2', 1: '1/2'})"
    finally:
        sys.set_int_max_str_digits(limit)


def _results_holding_a_5000_digit_number() -> list[object]:
    from exactpml import Bounds, DatabaseSpace
    from exactpml.notions import WorstCase
    from exactpml.notions.composition import PrivacyParameters
    from exactpml.qif import CapacityBounds
    from exactpml.render import CertifiedDecimal

    tiny = Fraction(1, 10**5000)
    prior = Distribution({"a": tiny, "b": 1 - tiny})
    return [
        Bounds(integer_bits=10**5000),
        DatabaseSpace([0, 1], 10**5000),
        WorstCase(tiny, (0,), (1,), output=10**5000),
        PrivacyParameters(LogValue(1 / tiny), tiny),
        CapacityBounds(tiny, 2 * tiny, prior, 3),
        CertifiedDecimal(tiny),
    ]


def test_results_holding_huge_numbers_have_a_short_repr_and_str():
    """The repr dataclasses would print, numbers of more than 50 digits by their ends (a
    value object inside, here the prior of CapacityBounds, keeps its rebuildable repr)."""

    def texts() -> list[str]:
        return [
            text
            for result in _results_holding_a_5000_digit_number()
            for text in (repr(result), str(result))
        ]

    for text in expect_value(texts):
        assert "1000000000…0000000000 (5001 digits)" in text, text
        if "Distribution(" not in text:  # a value object inside keeps its rebuildable repr
            assert len(text) < 2000, text
    small = __import__("exactpml.notions", fromlist=["WorstCase"]).WorstCase(Fraction(1, 3), (0,))
    assert repr(small) == (
        "WorstCase(value=Fraction(1, 3), database=(0,), neighbour=None, output=None, "
        "event=None, attained=True)"
    )


def test_the_work_bound_admits_products_of_powers_at_the_integer_bound():
    """Independent value: Fraction arithmetic in the test (each factor about 95 000 bits)."""
    text = "(1/3)**60000 * (2/3)**60000 + 0.5"
    expected = Fraction(1, 3) ** 60000 * Fraction(2, 3) ** 60000 + Fraction(1, 2)
    assert expect_value(lambda: exact(text) == expected) is True


@given(st.text(min_size=200, max_size=3000))
def test_the_message_of_any_refused_text_is_within_the_cap(text):
    try:
        exact(text + "(", where="fuzz")  # an unclosed parenthesis: never a number
    except ExactPMLError as error:
        assert str(error).startswith("fuzz: ")
        assert len(str(error)) <= MESSAGE_CHARACTERS
