"""f-DP trade-off curves against every deterministic test (every event), and the conjugate.

The curve must lie on or below the point (P(S), 1 - Q(S)) of every rejection region S, each
breakpoint must be such a point, and the curve must be convex: then it is the lower convex
hull of the deterministic tests, which is T(P, Q) (randomised tests fill the hull).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactpml import Distribution
from exactpml import strategies as xst
from exactpml.errors import InvalidArgument
from exactpml.notions import (
    TradeoffCurve,
    dp_tradeoff_curve,
    hockey_stick_divergence,
    tradeoff_curve,
)
from proofs_check.reference import accounting as bf

PAIRS = xst.distribution_pairs(max_outcomes=4)


@given(PAIRS)
def test_the_curve_is_the_lower_hull_of_every_deterministic_test(pair):
    p, q = pair
    curve = tradeoff_curve(p, q)
    tests = {
        (sum((p[o] for o in s), Fraction(0)), 1 - sum((q[o] for o in s), Fraction(0)))
        for s in bf.subsets(p.outcomes)
    }
    for alpha, beta in tests:
        assert curve(alpha) <= beta
    for point in curve.breakpoints:
        assert point in tests
    points = curve.breakpoints
    assert points[0][0] == 0 and points[-1] == (1, 0)
    for (a0, b0), (a1, b1), (a2, b2) in zip(points, points[1:], points[2:], strict=False):
        assert (b1 - b0) * (a2 - a1) <= (b2 - b1) * (a1 - a0)  # slopes increase: convex


RATIOS = st.sampled_from([Fraction(0), Fraction(1, 3), Fraction(1), Fraction(2), Fraction(7)])


@given(PAIRS, RATIOS)
def test_one_plus_the_conjugate_at_minus_e_eps_is_the_hockey_stick_of_q_over_p(pair, ratio):
    p, q = pair
    curve = tradeoff_curve(p, q)
    assert curve.delta_for_epsilon(exp_epsilon=ratio) == hockey_stick_divergence(
        q, p, exp_epsilon=ratio
    )
    assert curve.delta_for_epsilon("oo") == hockey_stick_divergence(q, p, epsilon="oo")


@given(PAIRS, st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(3)]))
def test_an_eps_delta_dp_pair_is_f_eps_delta_dp(pair, ratio):
    p, q = pair
    delta = max(
        hockey_stick_divergence(p, q, exp_epsilon=ratio),
        hockey_stick_divergence(q, p, exp_epsilon=ratio),
    )
    bound = dp_tradeoff_curve(exp_epsilon=ratio, delta=delta)
    assert tradeoff_curve(p, q).dominates(bound)
    for alpha in (Fraction(0), Fraction(1, 7), Fraction(1, 2), Fraction(1)):
        expected = max(Fraction(0), 1 - delta - ratio * alpha, (1 - delta - alpha) / ratio)
        assert bound(alpha) == expected


def test_randomized_response_is_exactly_the_dp_curve():
    p, q = Distribution({0: "3/4", 1: "1/4"}), Distribution({0: "1/4", 1: "3/4"})
    curve = tradeoff_curve(p, q)
    assert curve.breakpoints == dp_tradeoff_curve(exp_epsilon=3).breakpoints


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: tradeoff_curve(Distribution({0: 1}), Distribution({1: 1})), "same outcomes"),
        (lambda: tradeoff_curve({0: 1}, Distribution({0: 1})), "p must be a Distribution"),
        (lambda: dp_tradeoff_curve(-1), "epsilon=-1"),
        (lambda: dp_tradeoff_curve(1, delta=2), "delta=2"),
        (lambda: dp_tradeoff_curve(exp_epsilon=3)("3/2"), "alpha=3/2"),
        (lambda: dp_tradeoff_curve(exp_epsilon=3).conjugate(0.5), "y"),
    ],
)
def test_bad_input_is_refused_naming_the_argument(call, fragment):
    with pytest.raises(InvalidArgument) as caught:
        call()
    assert fragment in str(caught.value)


@pytest.mark.parametrize(
    ("breakpoints", "fragment"),
    [
        ("ab", "sequence of (alpha, beta) pairs"),
        (((0, 1),), "alpha = 0 and alpha = 1"),
        ((("1/4", "1/2"), (1, 0)), "from alpha = 0 to alpha = 1"),
        (((0, 1, 2), (1, 0)), "breakpoints[0]"),
        (((0, 1), (1, 0.0)), "breakpoints[1] beta"),
        (((0, 1), (1, "1/2")), "above 1 - alpha"),
        (((0, "1/2"), ("1/2", "1/2"), (1, 0)), "convex"),
        (((0, 1), ("1/2", "1/4"), ("1/2", "1/8"), (1, 0)), "increase strictly"),
        (((0, 1), ("1/2", "3/4"), (1, 0)), "above 1 - alpha"),
        (((0, 1), (2**4000, 0)), "breakpoints[1] alpha"),
    ],
)
def test_a_hand_built_curve_that_is_no_tradeoff_function_is_refused(breakpoints, fragment):
    """Dong, Roth, Su 2019, Prop 2.2: convex, non-increasing, f(α) <= 1 - α on [0, 1]."""
    with pytest.raises(InvalidArgument) as caught:
        TradeoffCurve(breakpoints)
    assert fragment in str(caught.value)
    assert len(str(caught.value)) < 400


def test_a_hand_built_tradeoff_function_is_kept_exactly():
    curve = TradeoffCurve(((0, 1), ("1/4", "1/4"), ("1/2", "1/8"), (1, 0)))
    assert curve.breakpoints[1] == (Fraction(1, 4), Fraction(1, 4))
    assert curve("3/8") == Fraction(3, 16)
