"""Certified log-moments against exact sums: K(t) = log Σ m r^t enclosed at every order.

For integer t the sum Σ m r^t is an exact rational (computed here with ``Fraction``), whose
log the ball must contain; for huge t the ball must sit in the bracket
t log R + log M <= K(t) <= t log R + log Σ m (M the mass at the top ratio), which the terms
far below the top are enclosed in without being evaluated.
"""

from fractions import Fraction

import pytest
import sympy
from flint import ctx
from hypothesis import given
from hypothesis import strategies as st

from exactpml import certify
from exactpml.numerics.log_moments import ball_ends, log_moment

positive = st.fractions(Fraction(1, 50), Fraction(50)).filter(lambda value: value > 0)


@given(
    st.lists(st.tuples(positive, positive), min_size=1, max_size=5),
    st.integers(-6, 6).filter(bool),
)
def test_the_ball_holds_the_log_of_the_exact_sum(atoms, order):
    exact = sum((m * r**order for m, r in atoms), Fraction(0))
    with ctx.workprec(96):
        lower, upper = ball_ends(log_moment([m for m, _ in atoms], [r for _, r in atoms], order))
    value = sympy.log(sympy.Rational(exact.numerator, exact.denominator))
    assert certify.compare(lower, value) <= 0 <= certify.compare(upper, value)
    assert upper - lower < Fraction(1, 2**60) * max(1, abs(upper))


@pytest.mark.parametrize("order", [10**40, 10**999, -(10**999)])
def test_at_huge_orders_the_ball_is_in_the_top_ratios_bracket(order):
    masses = [Fraction(1, 5), Fraction(3, 10), Fraction(1, 2)]
    ratios = [Fraction(3), Fraction(1, 2), Fraction(2)]
    top = max(ratios) if order > 0 else min(ratios)
    at_top = sum((m for m, r in zip(masses, ratios, strict=True) if r == top), Fraction(0))
    with ctx.workprec(96):
        lower, upper = ball_ends(log_moment(masses, ratios, order) / order)
    log_top = sympy.log(sympy.Rational(top.numerator, top.denominator))
    low_end = log_top + sympy.log(sympy.Rational(at_top.numerator, at_top.denominator)) / order
    # K(t)/t lies between log R + log(M)/t and log R (Σ m = 1), up to the ball's width:
    # log(M)/t <= 0 for t > 0 and >= 0 for t < 0
    smaller, larger = (low_end, log_top) if order > 0 else (log_top, low_end)
    slack = Fraction(1, 2**80)
    for value in (lower, upper):
        assert certify.compare(value + slack, smaller) >= 0
        assert certify.compare(value - slack, larger) <= 0


def test_bad_input_is_a_value_error():
    with pytest.raises(ValueError, match="order"):
        log_moment([Fraction(1)], [Fraction(2)], 0)
