"""``exactpml.strategies.fractions``: st.fractions' values and shrinking, drawn cheaply.

The reference is Hypothesis' own ``st.fractions`` (same bounds and denominator bound): the
minimal example for a condition must be the same, and the values reachable must be exactly
the rationals in the interval whose denominators are at most the bound (enumerated here from
the definition).
"""

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from exactpml import strategies as xst
from exactpml.strategies._errors import StrategyArgumentError

SEARCH = settings(max_examples=2000, database=None, deadline=None)

INTERVALS = [
    (0, 1, 12),
    (Fraction(3, 2), 4, 8),
    (Fraction(11, 10), 2, 10),
    (-3, 3, 3),
    (1, 4, 6),
    (Fraction(-7, 4), Fraction(-1, 4), 4),
]

CONDITIONS = {
    "anything": lambda v: True,
    "above 1/3": lambda v: v > Fraction(1, 3),
    "a denominator above 2": lambda v: v.denominator > 2,
    "negative": lambda v: v < 0,
    "a numerator of at least 3": lambda v: abs(v.numerator) >= 3,
}


def _minimal(strategy, condition):
    try:
        return find(strategy, condition, settings=SEARCH)
    except Exception as error:  # NoSuchExample: the condition is never met
        return type(error).__name__


@pytest.mark.parametrize(("low", "high", "bound"), INTERVALS)
@pytest.mark.parametrize("condition", list(CONDITIONS))
def test_shrinks_to_the_example_st_fractions_shrinks_to(low, high, bound, condition) -> None:
    """Reference: Hypothesis' st.fractions with the same arguments."""
    ours = _minimal(xst.fractions(low, high, max_denominator=bound), CONDITIONS[condition])
    theirs = _minimal(st.fractions(low, high, max_denominator=bound), CONDITIONS[condition])
    assert ours == theirs


@pytest.mark.parametrize(
    ("low", "high", "bound"), [(0, 1, 4), (Fraction(-3, 2), Fraction(1, 2), 3), (2, 2, 5)]
)
def test_reaches_exactly_the_rationals_of_the_interval_with_small_denominators(
    low, high, bound
) -> None:
    """Reference: the rationals p/q in [low, high] with q <= bound, listed from the definition."""
    expected = {
        Fraction(p, q)
        for q in range(1, bound + 1)
        for p in range(-10 * q, 10 * q + 1)
        if low <= Fraction(p, q) <= high
    }
    strategy = xst.fractions(low, high, max_denominator=bound)
    for value in expected:
        assert find(strategy, lambda v, value=value: v == value, settings=SEARCH) == value

    @settings(max_examples=300, database=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def within(value: Fraction) -> None:
        assert type(value) is Fraction and value in expected

    within()


def test_is_built_once_per_arguments() -> None:
    assert xst.fractions(0, 1, max_denominator=12) is xst.fractions(0, 1, max_denominator=12)
    assert xst.fractions(0, 1, max_denominator=12) is not xst.fractions(0, 1, max_denominator=6)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((0.5, 1, 3), "fractions: min_value: 0.5 is a float"),
        ((0, 1.0, 3), "fractions: max_value: 1.0 is a float"),
        ((1, 0, 3), "fractions: max_value=0 is below min_value=1"),
        ((Fraction(1, 7), 1, 3), "fractions: min_value=1/7 has a denominator above"),
        ((0, 1, 0), "fractions: max_denominator=0 must be an int >= 1"),
        ((0, 1, True), "fractions: max_denominator=True must be an int >= 1"),
        ((0, "x", 3), "fractions: max_value"),
        ((0, 10**70000, 3), "above the bound integer_bits"),
    ],
)
def test_bad_arguments_are_refused_naming_the_entry(arguments, message) -> None:
    low, high, bound = arguments
    strategy = xst.fractions(low, high, max_denominator=bound)
    with pytest.raises(StrategyArgumentError) as caught:
        find(strategy, lambda v: True, settings=settings(database=None))
    assert message in str(caught.value)
