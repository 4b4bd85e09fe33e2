"""The public strategies reach the edge cases that break claims (issue: strategies defaults)."""

from fractions import Fraction

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from exactpml import Distribution, InvalidArgument, Mechanism
from exactpml import strategies as xst

SEARCH = settings(max_examples=2000, database=None, deadline=None)


def _reachable(strategy, condition):
    return find(strategy, condition, settings=SEARCH)


@pytest.mark.parametrize(
    ("name", "strategy", "condition"),
    [
        ("zero_entries", xst.distributions(), lambda d: 0 in d.probabilities),
        ("ties", xst.distributions(min_size=2), lambda d: len(set(d.probabilities)) < len(d)),
        ("size_one_alphabet", xst.distributions(), lambda d: len(d) == 1),
        ("size_six_alphabet", xst.distributions(), lambda d: len(d) == 6),
        (
            "very_skewed_prior",
            xst.distributions(),
            lambda d: max(d.probabilities) > 10**5 * min(p for p in d.probabilities if p > 0),
        ),
        (
            "deterministic_row",
            xst.mechanisms(min_outputs=2),
            lambda m: any(Fraction(1) in row for row in m.rows),
        ),
        (
            "deterministic_mechanism",
            xst.mechanisms(min_inputs=2, min_outputs=2),
            lambda m: m.is_deterministic,
        ),
        (
            "output_never_produced",
            xst.mechanisms(),
            lambda m: any(all(r[j] == 0 for r in m.rows) for j in range(len(m.outputs))),
        ),
        (
            "output_of_zero_probability_under_prior",
            xst.mechanisms_with_prior(),
            lambda mp: 0 in mp[0].output_masses(mp[1]),
        ),
        (
            "constant_attribute",
            xst.attributes(["a", "b", "c"]),
            lambda u: (
                u.is_deterministic
                and len({next(y for y, p in zip(u.outputs, r, strict=True) if p) for r in u.rows})
                == 1
            ),
        ),
        ("randomised_attribute", xst.attributes(["a", "b"]), lambda u: not u.is_deterministic),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_default_strategies_reach_the_edge_case(name, strategy, condition):
    assert _reachable(strategy, condition) is not None


@given(xst.distributions(full_support=True))
def test_full_support_option_gives_positive_entries(distribution):
    assert all(p > 0 for p in distribution.probabilities)


@given(xst.mechanisms(zeros=False))
def test_zero_free_mechanisms_have_positive_entries(mechanism):
    assert all(p > 0 for row in mechanism.rows for p in row)


@given(st.data())
def test_strategies_respect_a_given_alphabet(data):
    mechanism = data.draw(xst.mechanisms(inputs=["x", "y"], outputs=["u", "v", "w"]))
    assert mechanism.inputs == ("x", "y") and mechanism.outputs == ("u", "v", "w")
    prior = data.draw(xst.distributions(outcomes=mechanism.inputs))
    assert isinstance(prior, Distribution) and isinstance(mechanism, Mechanism)


@pytest.mark.parametrize(
    "make",
    [
        lambda: xst.distributions(min_size=0),
        lambda: xst.distributions(min_size=4, max_size=2),
        lambda: xst.attributes([]),
        lambda: xst.probability_vectors(0),
    ],
    ids=["zero_minimum", "reversed_sizes", "empty_alphabet", "empty_vector"],
)
def test_strategy_options_are_validated(make):
    with pytest.raises(InvalidArgument):
        find(make(), lambda _: True, settings=SEARCH)
