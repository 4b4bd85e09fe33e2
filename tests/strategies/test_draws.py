"""Strategy objects built once: the primitives of exactpml.strategies._draws, and one object per
argument values from every exactpml strategy function (the same objects, so the same examples)."""

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


def test_a_strategy_function_returns_one_object_per_argument_values():
    from exactpml import strategies as xst

    assert xst.mechanisms(outputs=[0, 1]) is xst.mechanisms(outputs=[0, 1])
    assert xst.mechanisms(outputs=[0, 1]) is not xst.mechanisms(outputs=(0, 1))
    assert xst.mechanisms(outputs=[True, False]) is not xst.mechanisms(outputs=[1, 0])
    assert xst.distributions(max_size=3) is not xst.distributions(max_size=4)


def test_a_list_mutated_after_the_call_is_not_mistaken_for_its_old_value():
    from exactpml import strategies as xst
    from exactpml.strategies._enumerable import strategy_origin

    outputs = ["p", "q"]
    first = xst.mechanisms(outputs=outputs)
    outputs.append("r")  # the stored strategy now reads ["p", "q", "r"]
    second = xst.mechanisms(outputs=["p", "q"])
    assert second is not first
    assert list(strategy_origin(second).arguments["outputs"]) == ["p", "q"]


def test_bad_arguments_are_refused_on_every_call():
    import pytest

    from exactpml import strategies as xst
    from exactpml.errors import InvalidArgument

    for _ in range(2):
        with pytest.raises(InvalidArgument):
            xst.mechanisms(max_inputs="3")


def test_sampled_values_are_keyed_by_their_nested_types():
    from exactpml.strategies._draws import sampled_from_values, unique_samples

    # databases are tuples of labels: ((1,),) and ((True,),) are equal and hash alike
    assert sampled_from_values(((1,),)) is sampled_from_values(((1,),))
    assert sampled_from_values(((True,),)) is not sampled_from_values(((1,),))
    assert unique_samples(((True, 0),), 1, 1) is not unique_samples(((1, 0),), 1, 1)
