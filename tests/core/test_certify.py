"""Tests of exactpml.certify: enclosures, certified signs, comparisons and decimals."""

from __future__ import annotations

import decimal as pydecimal
import math
import time
from collections.abc import Callable
from fractions import Fraction
from math import comb

import mpmath
import pytest
import sympy
from flint import arb, ctx, fmpq
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exactpml.core import certify
from exactpml.core.bounds import use_bounds
from exactpml.core.certify import (
    compare,
    decimal,
    enclosure,
    is_equal,
    is_greater,
    is_greater_equal,
    is_less,
    is_less_equal,
    sign,
)
from exactpml.errors import InexactInput, InvalidArgument, Undecided

# F = P[Bin(2000, 1/2) <= 200], about 1.3e-321: the tail probability of the known trap.
F = sympy.Rational(sum(comb(2000, k) for k in range(201)), 2**2000)
TRAP = -sympy.log(1 - F)  # sympy 1.14 N(TRAP, 50) gives 2.71e-166; the value is 6.72e-322

positive_rationals = st.fractions(min_value=Fraction(1, 10**6), max_value=10**6).filter(
    lambda q: q > 0
)


def _mpmath_trap(digits: int) -> str:
    """The trap's value from an independent computation: mpmath at 3x the digits, computing
    F from its exact integer numerator and then -log1p(-F) (log1p has no cancellation)."""
    numerator = sum(comb(2000, k) for k in range(201))
    with mpmath.workdps(3 * digits + 20):
        tail = mpmath.mpf(numerator) / mpmath.mpf(2) ** 2000
        return mpmath.nstr(-mpmath.log1p(-tail), digits, min_fixed=1, max_fixed=0)


# --- the known trap -------------------------------------------------------------------------


def test_decimal_of_the_binomial_tail_trap_is_6_72e_322():
    assert decimal(TRAP, 3) == "6.72e-322"


def test_decimal_of_the_trap_matches_mpmath_log1p_to_40_digits():
    ours = decimal(TRAP, 40)
    mantissa, exponent = _mpmath_trap(40).split("e")
    assert ours == f"{mantissa}e{int(exponent)}"


def test_decimal_of_the_trap_matches_its_series_to_100_digits():
    # -log(1-F) = F + F^2/2 + ...: since F < 1e-320 the terms after F change the value by a
    # relative 1e-321, so its first 100 digits are F's (rounded exactly, as a rational).
    assert decimal(TRAP, 100) == decimal(F, 100)


def test_enclosure_of_log_near_one_is_accurate_at_low_precision():
    ball = enclosure(TRAP, 64)
    assert ball.rel_accuracy_bits() > 50
    assert ball > 0


def test_enclosure_of_exp_minus_one_keeps_the_small_part():
    tiny = sympy.Rational(1, 10**30)
    for expr in (sympy.exp(tiny) - 1, 1 - sympy.exp(-tiny), 3 * sympy.exp(tiny) - 3):
        ball = enclosure(expr, 64)
        assert ball.rel_accuracy_bits() > 50, expr
    assert decimal(sympy.exp(tiny) - 1, 5) == "1.0000e-30"
    assert decimal(1 - sympy.exp(-tiny), 5) == "1.0000e-30"


def test_enclosure_of_log_of_a_sum_near_one_uses_log1p():
    expr = sympy.log(1 + sympy.exp(-1000))
    assert enclosure(expr, 64).rel_accuracy_bits() > 50
    assert decimal(expr, 3) == "5.08e-435"


# --- signs ----------------------------------------------------------------------------------


def test_sign_of_rationals_is_exact():
    assert sign(Fraction(-1, 3)) == -1
    assert sign(0) == 0
    assert sign(sympy.Rational(1, 10**400)) == 1


def test_sign_is_right_where_sympy_is_positive_contradicts_itself():
    # sympy 1.14 answers is_positive == True for both of these (a 2-digit evalf decides).
    difference = sympy.log(1 - F) - sympy.log(1 - F / 2)
    assert sign(difference) == -1
    assert sign(-difference) == 1


def test_sign_proves_an_exact_zero_that_sympy_calls_nonzero():
    # sympy 1.14 answers is_zero == False here.
    zero = sympy.log((1 - F) * (1 - F / 2)) - sympy.log(1 - F) - sympy.log(1 - F / 2)
    assert sign(zero) == 0
    assert sign(sympy.log(6) - sympy.log(2) - sympy.log(3)) == 0


def test_sign_of_infinities():
    assert sign(sympy.oo) == 1
    assert sign(-sympy.oo) == -1


def test_sign_raises_undecided_with_the_expression_and_precision():
    close = sympy.pi - sympy.Rational(314159265358979323846264338327950288, 10**35)
    assert sign(close) == 1  # decided at a higher precision
    with pytest.raises(Undecided) as raised:
        sign(close, max_precision=64)
    assert raised.value.precision == 64
    assert raised.value.expression == close
    assert "cannot decide the sign" in str(raised.value)


@settings(max_examples=60, deadline=None)
@given(positive_rationals, positive_rationals)
@example(Fraction(1), Fraction(1))
@example(Fraction(10**6), Fraction(10**6 - 1, 1))
def test_sign_of_log_difference_agrees_with_the_exact_order(a, b):
    log_a = sympy.log(sympy.Rational(a.numerator, a.denominator))
    log_b = sympy.log(sympy.Rational(b.numerator, b.denominator))
    assert compare(log_a, log_b) == (a > b) - (a < b)


@settings(max_examples=60, deadline=None)
@given(positive_rationals, positive_rationals)
def test_enclosure_contains_zero_for_the_log_product_identity(a, b):
    qa = sympy.Rational(a.numerator, a.denominator)
    qb = sympy.Rational(b.numerator, b.denominator)
    identity = sympy.log(qa) + sympy.log(qb) - sympy.log(qa * qb)
    assert enclosure(identity, 80).contains(0)


# --- supported expressions ------------------------------------------------------------------

REFERENCE_DIGITS = 30


def _reference(expr: sympy.Expr) -> str:
    """An independent value: mpmath at 100 digits via lambdify (not used in the module)."""
    with mpmath.workdps(100):
        value = sympy.lambdify((), expr, modules="mpmath")()
        return mpmath.nstr(value, REFERENCE_DIGITS, min_fixed=-5, max_fixed=REFERENCE_DIGITS)


@pytest.mark.parametrize(
    "expr",
    [
        sympy.sqrt(2),
        sympy.Rational(3, 2) ** sympy.Rational(1, 3),
        2 ** sympy.sqrt(2),
        sympy.pi * sympy.E,
        sympy.Abs(sympy.log(sympy.Rational(1, 3))),
        sympy.Max(sympy.log(3), sympy.Rational(11, 10), evaluate=False),
        sympy.Min(sympy.log(3), sympy.Rational(11, 10), evaluate=False),
        sympy.exp(sympy.Rational(1, 7)) / (1 + sympy.exp(sympy.Rational(1, 7))),
        sympy.Rational(1, 3) - sympy.log(sympy.Rational(7, 10) + sympy.Rational(3, 10) * sympy.E),
        sympy.log(2, 3),
    ],
    ids=str,
)
def test_decimal_matches_an_independent_mpmath_value(expr):
    ours = decimal(expr, REFERENCE_DIGITS)
    assert pydecimal.Decimal(ours) == pydecimal.Decimal(_reference(expr))


def test_binomial_and_factorial_of_integers_are_exact():
    assert decimal(sympy.binomial(50, 25, evaluate=False), 15) == "126410606437752"
    assert sign(sympy.factorial(20, evaluate=False) - 2432902008176640000) == 0


def test_enclosure_of_a_rational_is_a_ball_around_it():
    ball = enclosure(Fraction(1, 3), 100)
    with ctx.workprec(400):  # compare with 1/3 at a precision where fmpq(1, 3) is tight
        assert ball.contains(fmpq(1, 3))
    assert ball.rad() < arb(2) ** -99


# --- compare --------------------------------------------------------------------------------


def test_compare_and_its_boolean_forms():
    sqrt2, bound = sympy.sqrt(2), sympy.Rational(99, 70)
    assert compare(sqrt2, bound) == -1
    assert compare(bound, sqrt2) == 1
    assert compare(Fraction(1, 2), "1/2") == 0
    assert is_less(sqrt2, bound) and is_less_equal(sqrt2, bound)
    assert is_greater(bound, sqrt2) and is_greater_equal(bound, bound)
    assert is_equal(sympy.log(4), 2 * sympy.log(2))
    assert not is_equal(sqrt2, bound)


def test_compare_with_infinities():
    assert compare(sympy.oo, 10**100) == 1
    assert compare(-sympy.oo, sympy.oo) == -1
    assert compare(sympy.oo, sympy.oo) == 0
    assert compare(sympy.log(2), -sympy.oo) == 1


def test_compare_passes_the_precision_cap_on():
    close = sympy.pi - sympy.Rational(314159265358979323846264338327950288, 10**35)
    with pytest.raises(Undecided):
        compare(close, 0, max_precision=64)


# --- decimal --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "digits", "expected"),
    [
        (Fraction(1, 3), 5, "0.33333"),
        (Fraction(2, 3), 3, "0.667"),
        (Fraction(-1, 7), 3, "-0.143"),
        (1, 3, "1.00"),
        (100, 3, "100"),
        (100, 5, "100.00"),
        (1000, 3, "1.00e+3"),
        (123456, 3, "1.23e+5"),
        (Fraction(12345, 10**8), 3, "0.000123"),
        (Fraction(12345, 10**9), 3, "1.23e-5"),
        (Fraction(999, 1000), 2, "1.0"),
        (Fraction(9995, 1000), 3, "10.0"),
        (Fraction(5, 2), 1, "2"),
        (Fraction(7, 2), 1, "4"),
        (Fraction(1, 8), 2, "0.12"),
        (Fraction(3, 8), 2, "0.38"),
        (Fraction(-5, 2), 1, "-2"),
        (0, 4, "0"),
        (sympy.oo, 3, "oo"),
        (-sympy.oo, 3, "-oo"),
    ],
    ids=lambda x: str(x),
)
def test_decimal_format_and_rounding_of_exact_values(value, digits, expected):
    assert decimal(value, digits) == expected


def test_decimal_of_an_irrational_expression_that_equals_a_tie_is_rounded_to_even():
    # (sqrt(2)+1)(sqrt(2)-1)/8 is exactly 1/8 = 0.125: no ball excludes the tie, the proof does.
    one_eighth = (sympy.sqrt(2) + 1) * (sympy.sqrt(2) - 1) / 8
    assert not isinstance(one_eighth, sympy.Rational)
    assert decimal(one_eighth, 2, max_precision=256) == "0.12"


def test_decimal_of_an_unsimplified_zero_is_0():
    assert decimal(sympy.log(6) - sympy.log(2) - sympy.log(3), 5) == "0"


def test_decimal_raises_undecided_when_a_boundary_cannot_be_settled():
    near_tie = sympy.Rational(1, 8) + sympy.exp(-(sympy.Integer(10) ** 4))
    with pytest.raises(Undecided) as raised:
        decimal(near_tie, 2, max_precision=128)
    assert raised.value.precision == 128
    assert decimal(near_tie, 2, max_precision=2**15) == "0.13"


@settings(max_examples=200, deadline=None)
@given(st.fractions(max_denominator=10**12), st.integers(min_value=1, max_value=25))
@example(Fraction(1, 8), 2)
@example(Fraction(25, 10**7), 1)
@example(Fraction(-95, 10), 1)
def test_decimal_of_a_rational_equals_decimal_module_correct_rounding(value, digits):
    context = pydecimal.Context(prec=digits, rounding=pydecimal.ROUND_HALF_EVEN)
    expected = context.divide(
        pydecimal.Decimal(value.numerator), pydecimal.Decimal(value.denominator)
    )
    assert pydecimal.Decimal(decimal(value, digits)) == expected


@settings(max_examples=40, deadline=None)
@given(positive_rationals, st.integers(min_value=1, max_value=30))
def test_decimal_of_a_square_root_is_within_half_a_unit_of_mpmath(value, digits):
    root = sympy.sqrt(sympy.Rational(value.numerator, value.denominator))
    ours = pydecimal.Decimal(decimal(root, digits))
    with mpmath.workdps(digits + 40):
        reference = mpmath.sqrt(mpmath.mpf(value.numerator) / value.denominator)
        error = abs(mpmath.mpf(str(ours)) - reference)
        unit = mpmath.mpf(10) ** (ours.adjusted() - digits + 1)
        assert error <= unit / 2


# --- bad input ------------------------------------------------------------------------------

t = sympy.Symbol("t", positive=True)

BAD_INPUT = [
    pytest.param(lambda: sign(sympy.log(t)), InvalidArgument, "free symbol", id="free-symbol"),
    pytest.param(lambda: sign(0.5), InexactInput, "float", id="python-float"),
    pytest.param(
        lambda: sign(sympy.Float("0.5") + sympy.log(2)), InexactInput, "floating", id="sympy-float"
    ),
    pytest.param(lambda: sign(sympy.nan), InvalidArgument, "not a number", id="nan"),
    pytest.param(lambda: sign(sympy.zoo), InvalidArgument, "not a number", id="zoo"),
    pytest.param(lambda: sign(sympy.log(-2)), InvalidArgument, "complex", id="log-negative-rat"),
    pytest.param(
        lambda: sign(sympy.log(sympy.E - sympy.pi)), InvalidArgument, "complex", id="log-negative"
    ),
    pytest.param(
        lambda: sign(sympy.sqrt(sympy.log(2) - 1)),
        InvalidArgument,
        "negative base",
        id="sqrt-negative",
    ),
    pytest.param(
        lambda: sign((1 - sympy.sqrt(3)) ** sympy.pi),
        InvalidArgument,
        "negative base",
        id="negative-base",
    ),
    pytest.param(
        lambda: sign(sympy.gamma(sympy.Rational(1, 3))),
        Undecided,
        "not supported",
        id="unsupported-gamma",
    ),
    pytest.param(
        lambda: sign(sympy.binomial(sympy.Rational(1, 2), 2, evaluate=False)),
        Undecided,
        "integer arguments",
        id="binomial-non-integer",
    ),
    pytest.param(lambda: sign(1, max_precision=1), InvalidArgument, "at least", id="cap-small"),
    pytest.param(lambda: sign(1, max_precision=True), InvalidArgument, "int", id="cap-bool"),
    pytest.param(lambda: enclosure(sympy.pi, 10.0), InvalidArgument, "int", id="precision-float"),
    pytest.param(lambda: enclosure(sympy.oo, 64), InvalidArgument, "infinite", id="enclose-oo"),
    pytest.param(lambda: decimal(sympy.pi, 0), InvalidArgument, "positive", id="digits-zero"),
    pytest.param(lambda: decimal(sympy.pi, "3"), InvalidArgument, "positive", id="digits-str"),
    pytest.param(lambda: decimal("abc", 3), InvalidArgument, "abc", id="unreadable-string"),
    pytest.param(lambda: compare(t, 1), InvalidArgument, "first argument", id="compare-symbol"),
]


@pytest.mark.parametrize(("call", "error", "message"), BAD_INPUT)
def test_bad_input_raises_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_real_algebraic_roots_are_enclosed_rigorously():
    x = sympy.Symbol("x")
    root = sympy.CRootOf(x**3 - x - 1, 0)  # the plastic number 1.3247179572...
    assert decimal(root, 20) == "1.3247179572447460260"
    assert sign(root - sympy.Rational(13247179572447460, 10**16)) == 1
    assert compare(root**3, root + 1) == 0  # proved zero: x^3 - x - 1 divides x^3 - x - 1


def test_ties_between_exponential_polynomials_are_proved_fast():
    """exp(a) of rationals become powers of the transcendental e^{1/L}: exact zero test."""
    half = sympy.exp(sympy.Rational(1, 2))
    left = (1 + half) ** 2 / 3
    right = (1 + 2 * half + sympy.E) / 3
    assert compare(left, right) == 0
    assert compare(left, right + sympy.exp(-sympy.Integer(400))) < 0


def test_cancellation_inside_exp_raises_the_precision_instead_of_giving_up() -> None:
    # vadhan.prop_2's Remark (KL form) at e^ε_DP = r = 1 + 2e-11 (a near-tie instance drawn
    # at --thorough): the two-point prior's weight w suffers cancellation, so at 64 bits the
    # ball of exp's argument is wide; the sign is settled at a higher precision (it was
    # Undecided: "the argument of exp exceeds the bound exponential_argument").
    r = sympy.Rational(50000000000, 49999999999)
    with sympy.evaluate(False):
        w = (-1 + (-1 + r) / sympy.log(r / 1)) / (-1 + r)
        mass = (1 - w) * 1 + w * r
        kl = w * sympy.log(w / ((w * r) / mass)) + (1 - w) * sympy.log((1 - w) / ((1 - w) / mass))
        g = sympy.sqrt(1 - sympy.exp(-2 * kl))
        bound_minus_r = -r + (1 + g) / (1 - g)
    assert sign(bound_minus_r) == 1


def test_a_truly_huge_exp_argument_is_still_refused() -> None:
    with pytest.raises(Undecided, match="exponential_argument"):
        sign(sympy.exp(sympy.exp(100)) - 1)


def test_an_integer_power_of_a_ball_around_zero_is_finite() -> None:
    """python-flint 0.9's ``arb(0, r)**2`` is nan: the ball of an exact zero raised to an
    integer power was never finite, so its sign could only come from an exact proof.  The
    encloser multiplies such balls instead (powers of balls away from 0 are unchanged)."""
    with sympy.evaluate(False):
        zero = sympy.sqrt(2) * sympy.sqrt(2) - 2
        squared = sympy.Pow(zero, 2) + sympy.Pow(zero, 1) + sympy.Pow(zero, 0) - 1
        inverse = sympy.Pow(zero, -3)
    ball = enclosure(squared, 128)
    assert ball.is_finite() and ball.contains(0) and ball.rad() < 2**-100
    assert not enclosure(inverse, 128).is_finite()  # 1/0: no value, no finite ball
    assert sign(squared) == 0


def test_radical_ties_are_settled_by_the_certified_eliminant() -> None:
    with sympy.evaluate(False):
        zero = sympy.sqrt(2) + sympy.sqrt(3) - sympy.sqrt(5 + 2 * sympy.sqrt(6))
        near = (
            sympy.sqrt(2)
            + sympy.sqrt(3)
            - sympy.sqrt(5 + 2 * sympy.sqrt(6))
            - sympy.Rational(1, 10**40)
        )
        nested = (1 + sympy.sqrt(1 - sympy.Rational(9, 25))) / sympy.Rational(
            4, 5
        ) - sympy.Rational(9, 4)
    assert sign(zero) == 0 and is_equal(zero, 0)
    assert sign(near) == -1
    assert sign(nested) == 0  # (1 + 4/5)/(4/5) = 9/4
    with sympy.evaluate(False):
        not_radical = sympy.sqrt(2) - sympy.log(sympy.exp(sympy.sqrt(2)))
    assert sign(not_radical) == 0  # rebuilt with sympy's evaluation: sqrt(2) - sqrt(2) = 0


def test_radicals_of_perfect_powers_are_folded_exactly_as_sympy_evaluates_them() -> None:
    from exactpml.core.certify import _radical_is_zero, _rational_value

    with sympy.evaluate(False):
        folded = {
            sympy.sqrt(sympy.Rational(81, 16)) - sympy.Rational(9, 4): Fraction(0),
            sympy.Pow(sympy.Rational(-8, 27), sympy.Rational(2, 1)): Fraction(64, 729),
            sympy.Pow(sympy.Rational(32, 243), sympy.Rational(-3, 5)): Fraction(27, 8),
            sympy.Pow(0, sympy.Rational(1, 2)) + 1: Fraction(1),
            (1 + sympy.sqrt(1 - sympy.Rational(9, 25))) / sympy.Rational(4, 5): Fraction(9, 4),
        }
        unfolded = [
            sympy.sqrt(2) - sympy.sqrt(2),  # a zero, but not through rationals only
            sympy.Pow(sympy.Rational(-8, 27), sympy.Rational(1, 3)),  # complex principal root
            sympy.Pow(0, -1),
            sympy.Pow(0, 0),
        ]
    for expression, value in folded.items():
        assert _rational_value(expression) == value
        assert expression.doit() == sympy.Rational(value.numerator, value.denominator)
        assert _radical_is_zero(expression) is (value == 0)
    for expression in unfolded:
        assert _rational_value(expression) is None
    assert _radical_is_zero(unfolded[0]) is True  # the eliminant still decides it


_DUMMIES = [sympy.Dummy(f"v{index}") for index in range(3)]


@st.composite
def _rational_functions(draw: st.DrawFn, depth: int = 3) -> sympy.Basic:
    """Random rational functions of three dummies (rationals, + * /, integer powers), built
    unevaluated so that cancellations are left for the zero test to find."""
    if depth == 0 or draw(st.booleans()):
        if draw(st.booleans()):
            return draw(st.sampled_from(_DUMMIES))
        return sympy.Rational(draw(st.integers(-3, 3)), draw(st.integers(1, 3)))
    kind = draw(st.sampled_from(["add", "mul", "pow", "cancel"]))
    left = draw(_rational_functions(depth - 1))
    right = draw(_rational_functions(depth - 1))
    if kind == "add":
        return sympy.Add(left, right, evaluate=False)
    if kind == "mul":
        return sympy.Mul(left, right, evaluate=False)
    if kind == "pow":
        return sympy.Pow(left, draw(st.integers(-2, 3)), evaluate=False)

    # an identity that vanishes where it is defined: (l + r)^2 - l^2 - 2 l r - r^2, or
    # l/r - l/r (every node unevaluated: sympy's own evaluation may divide by an unevaluated 0)
    def times(*factors: sympy.Basic) -> sympy.Basic:
        return sympy.Mul(*factors, evaluate=False)

    def square(value: sympy.Basic) -> sympy.Basic:
        return sympy.Pow(value, 2, evaluate=False)

    minus = sympy.Integer(-1)
    if draw(st.booleans()):
        return sympy.Add(
            square(sympy.Add(left, right, evaluate=False)),
            times(minus, square(left)),
            times(sympy.Integer(-2), left, right),
            times(minus, square(right)),
            evaluate=False,
        )
    quotient = times(left, sympy.Pow(right, -1, evaluate=False))
    return sympy.Add(quotient, times(minus, quotient), evaluate=False)


def _sympy_vanishes(replaced: sympy.Basic) -> bool:
    """The zero test as sympy states it (the oracle of the FLINT one): the expanded numerator
    of ``together`` is 0, for an expression that is defined: no base raised to a negative
    power is identically 0 (``x/D - x/D`` with ``D = (2x + 1)^2 - 4x^2 - 4x - 1`` has no
    value; sympy's ``together`` calls it 0, the FLINT test "not proved")."""
    for node in sympy.preorder_traversal(replaced):
        if isinstance(node, sympy.Pow) and node.exp.is_negative:
            if sympy.expand(sympy.fraction(sympy.together(node.base))[0]) == 0:
                return False
    numerator, _ = sympy.fraction(sympy.together(replaced))
    return bool(sympy.expand(numerator) == 0)


@settings(max_examples=300, deadline=None)
@given(_rational_functions())
def test_the_flint_zero_test_of_a_rational_function_is_sympys(expr: sympy.Basic) -> None:
    """``certify._vanishes`` forms the numerator in FLINT's fmpq_mpoly (14× faster than
    sympy on the 98 zero tests of a --quick run, the same answers); the oracle is sympy's
    ``together``/``expand`` where the expression is defined; where a denominator is
    identically 0 (zoo or nan in sympy, or a base that expands to 0) nothing is proved.
    Hypothesis found the second kind: the old sympy test called such a 0/0 zero."""
    from exactpml.core.certify import _vanishes

    if expr.has(sympy.zoo, sympy.nan) or sympy.together(expr).has(sympy.zoo, sympy.nan):
        assert _vanishes(expr) is False
        return
    assert _vanishes(expr) == _sympy_vanishes(expr)


def test_the_flint_zero_test_refuses_what_is_not_a_rational_function() -> None:
    from exactpml.core.certify import _vanishes

    v = _DUMMIES[0]
    assert _vanishes(sympy.sqrt(v) - v) is False  # not a rational function: not proved
    assert _vanishes(sympy.exp(v) - v) is False
    assert (
        _vanishes(
            sympy.Mul(
                v, sympy.Pow(sympy.Add(v, -v, evaluate=False), -1, evaluate=False), evaluate=False
            )
        )
        is False
    )
    assert _vanishes(sympy.Add(sympy.Rational(1, 3), sympy.Rational(-1, 3), evaluate=False))


def _exp_polynomial_is_zero_by_substitution(expr: sympy.Basic) -> bool | None:
    """The zero test of exp-polynomials as it was written first (the oracle of the current
    one): every exp(a) replaced by a sympy dummy with ``xreplace`` (sympy rebuilds and
    evaluates the tree), then :func:`certify._vanishes`; the same size bounds."""
    from exactpml.core.bounds import current_bounds
    from exactpml.core.certify import _exp_polynomial_is_zero, _rational_size, _vanishes

    if _exp_polynomial_is_zero(expr) is None:  # the same traversal decides applicability
        return None
    exponents = {
        node.args[0] for node in sympy.preorder_traversal(expr) if isinstance(node, sympy.exp)
    }
    if any(node is sympy.E for node in sympy.preorder_traversal(expr)):
        exponents.add(sympy.S.One)
    bounds = current_bounds()
    independent = _rational_size(expr, lambda a: (1, 1))
    if max(independent.degree, independent.terms) <= bounds.zero_test_degree and (
        independent.bits <= bounds.integer_bits
    ):
        variables = {a: sympy.Dummy(f"X{index}") for index, a in enumerate(sorted(exponents))}
        mapping = {sympy.exp(a): variables[a] for a in exponents}
        if sympy.S.One in variables:
            mapping[sympy.E] = variables[sympy.S.One]
        if _vanishes(expr.xreplace(mapping)):
            return True
    scale = math.lcm(*(int(a.q) for a in exponents))
    powers = {a: int(a * scale) for a in exponents}
    size = _rational_size(expr, lambda a: (powers[a], 1))
    if size.degree > bounds.zero_test_degree or size.bits > bounds.integer_bits:
        return False
    base = sympy.Dummy("W", positive=True)
    mapping = {sympy.exp(a): base ** powers[a] for a in exponents}
    mapping[sympy.E] = base**scale
    return _vanishes(expr.xreplace(mapping))


_EXPONENTS = st.builds(sympy.Rational, st.integers(-4, 4), st.sampled_from([1, 2, 3, 6]))


@settings(max_examples=300, deadline=None)
@given(_rational_functions(), st.lists(_EXPONENTS, min_size=3, max_size=3))
def test_the_exp_polynomial_zero_test_reads_exponentials_straight_into_flint(
    shape: sympy.Basic, exponents: list[sympy.Rational]
) -> None:
    """``_exp_polynomial_is_zero`` maps each exp(a) to its FLINT image while it walks the
    tree, without sympy's ``xreplace`` (0.138 -> 0.019 s on prop_4_6's 44 ties): the same
    answers as the substitution it replaces, on rational functions of exponentials of
    rationals (equal, opposite and integer exponents included, so E and ties occur)."""
    from exactpml.core.certify import _exp_polynomial_is_zero

    expr = shape.xreplace(dict(zip(_DUMMIES, (sympy.exp(a) for a in exponents), strict=True)))
    assert _exp_polynomial_is_zero(expr) == _exp_polynomial_is_zero_by_substitution(expr)


def test_the_exp_polynomial_zero_test_on_laplace_ties() -> None:
    """The ties prop_4_6 meets: B.3's closed form against sympy's cancelled form, exponents
    of both signs; and a difference that is not zero."""
    from exactpml.core.certify import _exp_polynomial_is_zero

    w = sympy.exp(sympy.Rational(1, 2))
    p = sympy.Rational(1, 3)
    text = w / ((1 - p) + p * w)
    library = sympy.cancel(w / ((1 - p) + p * w))
    mixed = (
        (sympy.exp(-sympy.Rational(1, 3)) + sympy.E) ** 2
        - sympy.exp(-sympy.Rational(2, 3))
        - 2 * sympy.exp(sympy.Rational(2, 3))
        - sympy.exp(2)
    )
    for expr, expected in ((text - library, True), (mixed, True), (text - library + w, False)):
        assert _exp_polynomial_is_zero(expr) is expected
        assert _exp_polynomial_is_zero_by_substitution(expr) is expected


# --- the certified zero test of radical expressions (resultants, Cauchy's bound, Arb) -----


def _unevaluated(build: Callable[[], sympy.Basic]) -> sympy.Basic:
    with sympy.evaluate(False):
        return build()


def _cbrt(value: int) -> sympy.Basic:
    return sympy.Pow(value, sympy.Rational(1, 3), evaluate=False)


@pytest.mark.parametrize(
    "expr",
    [
        _unevaluated(lambda: sympy.sqrt(2) * sympy.sqrt(3) - sympy.sqrt(6)),
        _unevaluated(lambda: sympy.sqrt(3 + 2 * sympy.sqrt(2)) - 1 - sympy.sqrt(2)),
        _unevaluated(lambda: _cbrt(2) * _cbrt(4) - 2),
        _unevaluated(lambda: sympy.sqrt(2) + sympy.sqrt(3) - sympy.sqrt(5 + 2 * sympy.sqrt(6))),
        # sqrt(sqrt 2 + sqrt 3) sqrt(sqrt 3 - sqrt 2) = sqrt(3 - 2) = 1: roots of roots
        _unevaluated(
            lambda: (
                sympy.sqrt(sympy.sqrt(2) + sympy.sqrt(3))
                * sympy.sqrt(sympy.sqrt(3) - sympy.sqrt(2))
                - 1
            )
        ),
        # (3 + 2 sqrt 2)^(3/2) = (1 + sqrt 2)^3, and its inverse: p/q powers, p != 1
        _unevaluated(
            lambda: (
                sympy.Pow(3 + 2 * sympy.sqrt(2), sympy.Rational(3, 2))
                - sympy.Pow(1 + sympy.sqrt(2), 3)
            )
        ),
        _unevaluated(
            lambda: (
                sympy.Pow(3 + 2 * sympy.sqrt(2), sympy.Rational(-3, 2))
                - sympy.Pow(1 + sympy.sqrt(2), -3)
            )
        ),
        # (cbrt 2 + 1)(cbrt 4 - cbrt 2 + 1) = 3, a quotient
        _unevaluated(lambda: 3 / (_cbrt(4) - _cbrt(2) + 1) - _cbrt(2) - 1),
        # the square of a sum of five square roots of primes, degree 32
        _unevaluated(
            lambda: (
                sympy.Pow(sympy.Add(*[sympy.sqrt(p) for p in (2, 3, 5, 7, 11)]), 2)
                - sympy.Add(
                    28,
                    *[
                        2 * sympy.sqrt(p) * sympy.sqrt(q)
                        for i, p in enumerate((2, 3, 5, 7, 11))
                        for q in (2, 3, 5, 7, 11)[i + 1 :]
                    ],
                )
            )
        ),
    ],
)
def test_radical_zeros_are_certified(expr: sympy.Basic) -> None:
    from exactpml.core.certify import _algebraic_is_zero, _radical_is_zero, _rational_value

    assert _rational_value(expr) is None  # not folded: the eliminant decides
    assert _radical_is_zero(expr) is True
    assert _algebraic_is_zero(expr) is True
    assert sign(expr) == 0


def test_a_radical_number_below_sympys_evaluation_is_not_called_zero() -> None:
    """The regression test of the defect: alpha = sqrt(1 + e sqrt 2) - sqrt(1 - e sqrt 2)
    with e = 10^-420 is about 1.41e-420, not 0.  sympy 1.14's ``minimal_polynomial`` answers
    ``x`` (its ``_choose_factor`` evaluates the candidate factors at 200 digits, where alpha
    is lost), and ``sign`` used to return 0 from it (measured before the fix).  The
    eliminant's constant term is nonzero, so alpha != 0 is certified and the sign comes
    from the enclosure at a higher precision."""
    from exactpml.core.certify import _radical_is_zero

    small = sympy.Rational(1, 10**420)
    alpha = _unevaluated(
        lambda: sympy.sqrt(1 + small * sympy.sqrt(2)) - sympy.sqrt(1 - small * sympy.sqrt(2))
    )
    if sympy.__version__.startswith("1.14"):  # sympy's actual wrong answer, not a guard
        assert sympy.minimal_polynomial(alpha, sympy.Symbol("x")) == sympy.Symbol("x")
    assert _radical_is_zero(alpha) is False
    assert sign(alpha) == 1
    assert decimal(alpha, 5) == "1.4142e-420"
    assert sign(-alpha) == -1


def test_tiny_nonzero_radical_numbers_are_never_called_zero() -> None:
    """Guards (sympy's minimal polynomial is right on these): (sqrt 2 - 1)^400, about
    5.7e-154, as an unexpanded power and as A - B sqrt 2 expanded; and two nearly equal
    nested radical expressions, 10^-60 apart."""
    from exactpml.core.certify import _radical_is_zero

    power = _unevaluated(lambda: sympy.Pow(sympy.sqrt(2) - 1, 400))
    expanded = sympy.expand((sympy.sqrt(2) - 1) ** 400)  # A - B sqrt(2), evaluated
    near = _unevaluated(
        lambda: (
            sympy.sqrt(2)
            + sympy.sqrt(3)
            - sympy.sqrt(5 + 2 * sympy.sqrt(6) + sympy.Rational(1, 10**60))
        )
    )
    for expr, expected in ((power, 1), (expanded, 1), (near, -1)):
        assert _radical_is_zero(expr) is False
        assert sign(expr) == expected


def test_complex_principal_roots_and_undefined_radicals_are_not_proved() -> None:
    """sympy's (-8)^(1/3) is the complex 1 + sqrt(3) i: the eliminant of (-8)^(1/3) + 2
    vanishes at 0 (it is y^3 + 8 shifted), but no real ball exists, so nothing is proved;
    1/(sqrt 2 sqrt 2 - 2) has no value."""
    from exactpml.core.certify import _radical_is_zero

    complex_root = _unevaluated(lambda: sympy.Pow(-8, sympy.Rational(1, 3)) + 2)
    undefined = _unevaluated(lambda: 1 / (sympy.sqrt(2) * sympy.sqrt(2) - 2))
    zero_over_zero = _unevaluated(
        lambda: (sympy.sqrt(2) * sympy.sqrt(2) - 2) / (sympy.sqrt(2) * sympy.sqrt(2) - 2)
    )
    for expr in (complex_root, undefined, zero_over_zero):
        assert _radical_is_zero(expr) is False


def test_radicals_past_the_budgets_are_refused_before_any_resultant() -> None:
    """Four square and four cube roots (eliminant degree 1296 > 64): False at once, as
    before; and the size predictions refuse under small bounds ``zero_test_degree`` and
    ``integer_bits`` (a known zero is then "not proved")."""
    import time

    from exactpml.core.bounds import use_bounds
    from exactpml.core.certify import _radical_is_zero

    many = _unevaluated(
        lambda: (
            sympy.Add(*[sympy.sqrt(p) for p in (2, 3, 5, 7)])
            + sympy.Add(*[_cbrt(p) for p in (2, 3, 5, 7)])
        )
    )
    start = time.process_time()
    assert _radical_is_zero(many) is False
    assert time.process_time() - start < 0.5
    zero = _unevaluated(lambda: sympy.sqrt(3 + 2 * sympy.sqrt(2)) - 1 - sympy.sqrt(2))
    assert _radical_is_zero(zero) is True
    with use_bounds(zero_test_degree=4):
        assert _radical_is_zero(zero) is False
    with use_bounds(integer_bits=4):
        assert _radical_is_zero(zero) is False
    power = _unevaluated(lambda: sympy.Pow(sympy.sqrt(2) - 1, 10**6) - 1)
    start = time.process_time()
    assert _radical_is_zero(power) is False  # 10^6-th power: predicted, not formed
    assert time.process_time() - start < 0.5


_RADICAL_ATOMS = st.sampled_from(
    [
        sympy.sqrt(2),
        sympy.sqrt(3),
        sympy.sqrt(6),
        sympy.sqrt(sympy.Rational(3, 2)),
        sympy.Pow(2, sympy.Rational(1, 3), evaluate=False),
        sympy.Pow(4, sympy.Rational(1, 3), evaluate=False),
        sympy.Pow(sympy.Rational(5, 4), sympy.Rational(2, 3), evaluate=False),
        _unevaluated(lambda: sympy.sqrt(1 + sympy.sqrt(2))),
        _unevaluated(lambda: sympy.sqrt(3 + 2 * sympy.sqrt(2))),
        sympy.Rational(7, 3),
    ]
)


@settings(max_examples=200, deadline=None)
@given(_rational_functions(), st.lists(_RADICAL_ATOMS, min_size=3, max_size=3))
def test_the_radical_zero_test_never_contradicts_an_independent_oracle(
    shape: sympy.Basic, atoms: list[sympy.Basic]
) -> None:
    """Random radical expressions (rational functions of three radicals, with identities
    that vanish; related radicals such as sqrt 2, sqrt 3, sqrt 6): True only where the
    oracle says 0.  Oracles: an Arb ball excluding 0 (nonzero certified), else sympy's
    ``minimal_polynomial``, reliable on numbers that are not tiny (a ball of width 2^-200
    around 0 here means an exact zero or an undefined value).  Where the oracle says 0 and
    the value is defined and real, the certified test finds it too (complete on these)."""
    from exactpml.core.certify import _enclose, _radical_is_zero

    expr = _unevaluated(lambda: shape.xreplace(dict(zip(_DUMMIES, atoms, strict=True))))
    answer = _radical_is_zero(expr)
    if answer is None:  # folded to a non-radical, or not a radical expression
        return
    try:
        ball = _enclose(expr, 256)
    except Exception:
        ball = None
    if ball is None or not ball.is_finite():  # undefined (an unevaluated 0 divides)
        assert answer is False
        return
    if ball > 0 or ball < 0:
        assert answer is False
        return
    variable = sympy.Symbol("x")
    try:
        oracle_zero = sympy.minimal_polynomial(expr, variable) == variable
    except Exception:
        return  # sympy cannot say
    assert answer is oracle_zero


# --- rational combinations of logs of rationals (certify._log_linear_is_zero) -------------


def _log(value: int | tuple[int, int]) -> sympy.Expr:
    return sympy.log(sympy.Rational(*value) if isinstance(value, tuple) else sympy.Integer(value))


@pytest.mark.parametrize(
    "expr",
    [
        _log(6) - _log(2) - _log(3),
        _log((3, 4)) + _log((4, 3)),
        2 * _log(2) - _log(4),
        _log(8) / 3 - _log(2),
        sympy.Rational(3, 2) * _log((4, 9)) - 3 * _log((2, 3)),
    ],
)
def test_log_identities_of_rationals_are_proved_zero(expr: sympy.Expr) -> None:
    assert certify._log_linear_is_zero(expr) is True
    assert certify.proves_zero(expr)
    assert certify.sign(expr) == 0


@pytest.mark.parametrize(
    "expr",
    [
        _log(2) / 2 - _log(3) / 3,  # 2**3 = 8 against 3**2 = 9
        _log(6) - _log(2) - _log(3) + sympy.Rational(1, 10**30),  # Baker: nonzero
        _log(3) - _log(2),
    ],
)
def test_log_combinations_that_are_not_zero_are_never_called_zero(expr: sympy.Expr) -> None:
    assert certify._log_linear_is_zero(expr) is False
    assert not certify.proves_zero(expr)


def test_log_combinations_of_other_shapes_are_left_to_the_other_routes() -> None:
    x = sympy.Symbol("x", positive=True)
    assert certify._log_linear_is_zero(sympy.Rational(1, 2)) is None  # no log
    assert certify._log_linear_is_zero(_log(2) + sympy.log(x)) is None
    assert certify._log_linear_is_zero(_log(2) * _log(3)) is None
    assert certify._log_linear_is_zero(sympy.log(sympy.sqrt(2)) - _log(2) / 2) is None


def test_a_log_product_past_the_integer_bound_is_refused_before_any_power() -> None:
    # log(2)*10**30 - log(4)*5*10**29 is 0, but 2**(10**30) cannot be formed: "not proved"
    expr = _log(2) * 10**30 - _log(4) * 5 * 10**29
    start = time.perf_counter()
    assert certify._log_linear_is_zero(expr) is False
    assert time.perf_counter() - start < 1.0
    with use_bounds(integer_bits=64):  # a small bound refuses a small identity too
        assert certify._log_linear_is_zero(_log(2**40) - 40 * _log(2)) is False
    assert certify._log_linear_is_zero(_log(2**40) - 40 * _log(2)) is True


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    st.lists(
        st.tuples(
            st.fractions(min_value=-4, max_value=4, max_denominator=6),
            st.lists(st.integers(-3, 3), min_size=4, max_size=4),
        ),
        min_size=1,
        max_size=4,
    ),
    st.booleans(),
)
def test_log_linear_zero_test_agrees_with_prime_exponents(
    terms: list[tuple[Fraction, list[int]]], close: bool
) -> None:
    # independent oracle: sum_i c_i log(q_i) = sum_p (sum_i c_i v_p(q_i)) log p, and the logs
    # of distinct primes are linearly independent over Q (unique factorisation)
    primes = (2, 3, 5, 7)
    pairs = [(c, vector) for c, vector in terms if c != 0 and any(vector)]
    if close and pairs:  # add the terms that cancel every prime's exponent: a zero
        for k in range(4):
            total = sum((c * v[k] for c, v in pairs), Fraction(0))
            if total:
                pairs.append((-total, [int(j == k) for j in range(4)]))
    if not pairs:
        return
    expr = sympy.Add(
        *(
            sympy.Rational(c.numerator, c.denominator)
            * sympy.log(
                sympy.Rational(
                    math.prod(p**e for p, e in zip(primes, v, strict=True) if e > 0),
                    math.prod(p**-e for p, e in zip(primes, v, strict=True) if e < 0),
                )
            )
            for c, v in pairs
        )
    )
    exponents = [sum((c * v[k] for c, v in pairs), Fraction(0)) for k in range(4)]
    oracle = all(e == 0 for e in exponents)
    answer = certify._log_linear_is_zero(expr)
    if answer is None:  # sympy folded the sum to a rational or a single log
        assert expr.is_Rational or isinstance(expr, sympy.log) or expr.is_Mul
        return
    assert answer is oracle


# --- zero proofs of other closed shapes: folding, CRootOf, construction-time evaluation --------


def test_factorials_and_binomials_are_folded_within_the_integer_bound() -> None:
    assert certify.proves_zero(sympy.factorial(20, evaluate=False) - 2432902008176640000)
    assert certify.proves_zero(sympy.binomial(-3, 2, evaluate=False) - 6)  # sympy's value
    assert not certify.proves_zero(sympy.binomial(50, 25, evaluate=False) - 126410606437751)
    huge = sympy.factorial(10**6, evaluate=False)  # 5.5 million digits: not formed
    start = time.process_time()
    assert certify._rational_value(huge - 1) is None
    assert decimal(huge, 5) == "8.2639e+5565708"  # Arb's n!, not the exact integer (7 s)
    power = sympy.Pow(sympy.Integer(3), 10**9, evaluate=False)  # (power - 1 evaluates it)
    assert certify._rational_value(sympy.Add(power, -1, evaluate=False)) is None  # not formed
    assert time.process_time() - start < 2


def test_binomials_are_enclosed_with_sympys_values_for_every_integer_pair() -> None:
    for n in range(-6, 7):
        for k in range(-6, 8):
            ball = enclosure(sympy.binomial(sympy.Integer(n), sympy.Integer(k), evaluate=False), 64)
            assert ball.contains(int(sympy.binomial(n, k))) and ball.rad() == 0, (n, k)


def test_a_rational_function_of_a_crootof_is_zero_exactly_when_its_minimal_polynomial_divides() -> (
    None
):
    x = sympy.Symbol("x")
    plastic = sympy.CRootOf(x**3 - x - 1, 0)
    assert certify._algebraic_root_is_zero(plastic**3 - plastic - 1) is True
    assert certify._algebraic_root_is_zero(1 / plastic - (plastic**2 - 1)) is True  # r(r^2-1) = 1
    assert (
        certify._algebraic_root_is_zero(plastic**3 - plastic - 1 - sympy.Rational(1, 10**50))
        is False
    )
    # sympy keeps CRootOf on an irreducible factor ((x^3 - x - 1)(x - 3) gives the same root)
    product = sympy.CRootOf(sympy.expand((x**3 - x - 1) * (x - 3)), 0)
    assert product == plastic
    undefined = sympy.Pow(plastic**3 - plastic - 1, -1, evaluate=False)
    assert certify._algebraic_root_is_zero(undefined) is False  # 1/0: not proved
    assert certify._algebraic_root_is_zero(plastic + sympy.sqrt(2)) is None  # other shapes


def test_the_exact_routes_settle_their_shapes_before_simplify() -> None:
    one = sympy.Integer(1)
    identity = sympy.tan(one) - sympy.sin(one) / sympy.cos(one)
    assert certify.proves_zero(identity) is True  # no exact route's shape: simplify, the last
    tiny = sympy.Rational(1, 10**420) * sympy.sqrt(2)
    trap = sympy.Add(sympy.sqrt(1 + tiny), -sympy.sqrt(1 - tiny), evaluate=False)
    assert sympy.simplify(trap) == 0  # simplify is wrong here: trap is about 1.4e-420
    assert certify.proves_zero(trap) is False  # the radical route's answer, final
    # an unevaluated tree is rebuilt with sympy's construction-time rules, then certified
    with sympy.evaluate(False):
        rebuilt = sympy.exp(sympy.log(sympy.Rational(3, 2))) - sympy.Rational(3, 2)
    assert certify.proves_zero(rebuilt) is True
    # with free symbols (a limit's germ), an identity by simplify in the symbols
    y = sympy.Symbol("y", positive=True)
    assert certify.proves_zero(sympy.log(2 * y) - sympy.log(2) - sympy.log(y)) is True


def test_the_factor_holding_a_crootof_is_singled_out_by_balls() -> None:
    from flint import fmpz_poly

    x = sympy.Symbol("x")
    plastic = sympy.CRootOf(x**3 - x - 1, 0)
    cubic, quadratic, linear = fmpz_poly([-1, -1, 0, 1]), fmpz_poly([-2, 0, 1]), fmpz_poly([-3, 1])
    assert certify._factor_with_root(plastic, [quadratic, cubic, linear]) == cubic
    assert certify._factor_with_root(plastic, [quadratic, linear]) is None  # no factor vanishes
