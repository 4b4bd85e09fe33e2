"""exactpml.strategies._draws: the primitive strategies built once draw what Hypothesis' own do."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from exactpml.strategies._draws import BOOLEANS, integers_between


def test_one_object_per_bounds_and_bool_bounds_are_not_ints():
    assert integers_between(0, 9) is integers_between(0, 9)
    assert integers_between(True, 9) is not integers_between(1, 9)


@settings(max_examples=50, deadline=None, database=None)
@given(st.data())
def test_the_same_choices_give_the_same_values(data):
    # drawn from one choice sequence: both report the value of st.integers / st.booleans
    value = data.draw(integers_between(-3, 7))
    assert -3 <= value <= 7
    assert isinstance(data.draw(BOOLEANS), bool)


def test_the_memoised_strategies_are_hypothesis_own():
    assert repr(integers_between(2, 5)) == repr(st.integers(2, 5))
    assert repr(BOOLEANS) == repr(st.booleans())
