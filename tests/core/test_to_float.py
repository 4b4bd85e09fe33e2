"""float() on exact values: the correctly rounded double, certified (issue 23, item 4).

The reference is independent of Arb: mpmath at 400 bits, rounded once to a double (a
double-rounding error would need the value within 2^-400 of a tie between two doubles).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactpml import LogValue
from exactpml.certify import to_float
from exactpml.errors import InvalidArgument, Undecided
from exactpml.render import CertifiedDecimal

POSITIVE = st.fractions(min_value=Fraction(1, 10**12), max_value=10**30, max_denominator=10**12)


def _reference_log(ratio: Fraction) -> float:
    with mpmath.workprec(400):
        return float(mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator))


@given(POSITIVE)
def test_float_of_a_log_value_is_the_nearest_double(ratio: Fraction) -> None:
    assert float(LogValue(ratio)) == _reference_log(ratio)


@given(POSITIVE, st.integers(min_value=-40, max_value=40))
def test_to_float_of_closed_forms(ratio: Fraction, power: int) -> None:
    expression = sympy.sqrt(sympy.Rational(ratio.numerator, ratio.denominator)) * sympy.E**power
    with mpmath.workprec(400):
        expected = float(mpmath.sqrt(mpmath.mpf(ratio.numerator) / ratio.denominator) * mpmath.e**power)
    assert to_float(expression) == expected


@given(st.fractions())
def test_rationals_round_as_python_does(value: Fraction) -> None:
    assert to_float(value) == float(value)


def test_edges() -> None:
    assert float(LogValue.log(1)) == 0.0
    assert float(LogValue.infinity()) == math.inf
    assert to_float(-sympy.oo) == -math.inf
    assert to_float(sympy.exp(-800)) == 0.0  # below the smallest subnormal (4.9e-324)
    with mpmath.workprec(400):
        assert to_float(sympy.exp(-740)) == float(mpmath.exp(-740))  # a subnormal
    assert float(CertifiedDecimal(LogValue.log(2), 3)) == math.log(2)  # the value, not "0.693"
    assert float(CertifiedDecimal(Fraction(1, 3), 2)) == 1 / 3


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        (sympy.exp(1000), InvalidArgument, "beyond the largest float"),
        (sympy.Symbol("t", positive=True), InvalidArgument, "free symbol"),
        (sympy.exp(10**7), Undecided, "exponential_argument"),
    ],
)
def test_refusals_are_exactpml_errors(value: object, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        to_float(value)
