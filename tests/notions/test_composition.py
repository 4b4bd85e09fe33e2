"""Composition of mechanisms against the k-fold product laws, and the composition theorems.

The reference composes the output laws of every neighbouring pair as explicit product
distributions and takes the hockey-stick divergence over every event
(``proofs_check.reference.accounting``); the theorems of Dwork–Roth and Kairouz–Oh–Viswanath are
checked against those exact values.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpml import DatabaseMechanism, LogValue
from exactpml import strategies as xst
from exactpml.core import certify
from exactpml.errors import InvalidArgument
from exactpml.notions import (
    PrivacyLossDistribution,
    advanced_composition,
    basic_composition,
    composition_delta_for_epsilon,
    composition_epsilon_for_delta,
    delta_for_epsilon,
    neighbour_privacy_loss_distributions,
    optimal_composition,
)
from proofs_check.reference import accounting as bf

MECHANISMS = xst.database_mechanisms(max_outputs=3, max_databases=4)
RATIOS = st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(4)])


def _rows(mechanism, x):
    return {y: mechanism.probability(x, y) for y in mechanism.outputs}


def _reference(mechanism, k, ratio):
    best = Fraction(0)
    for _, x, x2 in mechanism.space.neighbouring_pairs():
        p, q = bf.power(_rows(mechanism, x), k), bf.power(_rows(mechanism, x2), k)
        best = max(best, bf.hockey_stick(p, q, ratio))
    return best


@given(MECHANISMS, st.integers(1, 3), RATIOS)
def test_composition_delta_is_the_largest_divergence_of_the_product_laws(mechanism, k, ratio):
    result = composition_delta_for_epsilon(mechanism, k, exp_epsilon=ratio)
    assert result.value == _reference(mechanism, k, ratio)
    if k == 1:
        assert result.value == delta_for_epsilon(mechanism, exp_epsilon=ratio).value


@given(MECHANISMS, st.integers(1, 3), st.fractions(0, 1))
def test_composition_epsilon_is_the_least_epsilon_meeting_delta(mechanism, k, target):
    epsilon = composition_epsilon_for_delta(mechanism, k, target).value
    if epsilon.is_infinite:
        assert _reference(mechanism, k, Fraction(10**12)) > target
        return
    ratio = epsilon.ratio
    assert _reference(mechanism, k, ratio) <= target
    if ratio > 0:
        assert _reference(mechanism, k, ratio * Fraction(999_999, 10**6)) > target


@pytest.mark.parametrize("ratio", [Fraction(2), Fraction(3), Fraction(5, 4)])
@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6])
def test_optimal_composition_is_attained_by_randomized_response(ratio, k):
    keep = ratio / (1 + ratio)
    rr = DatabaseMechanism({(0,): {0: keep, 1: 1 - keep}, (1,): {0: 1 - keep, 1: keep}})
    for i in range(k // 2 + 1):
        theorem = optimal_composition(exp_epsilon=ratio, k=k, i=i)
        assert theorem.epsilon == LogValue(ratio ** (k - 2 * i))
        assert theorem.delta == bf.kairouz_delta(ratio, k, i)
        assert theorem.delta == composition_delta_for_epsilon(rr, k, theorem.epsilon).value


@given(
    st.sampled_from([Fraction(2), Fraction(3, 2)]),
    st.fractions(0, Fraction(1, 4)),
    st.integers(1, 5),
    st.data(),
)
def test_optimal_composition_with_delta_is_the_dominating_pair_composed(ratio, delta, k, data):
    i = data.draw(st.integers(0, k // 2))
    theorem = optimal_composition(exp_epsilon=ratio, delta=delta, k=k, i=i)
    pair = PrivacyLossDistribution.from_privacy_parameters(exp_epsilon=ratio, delta=delta)
    assert theorem.delta == pair.self_compose(k).delta_for_epsilon(theorem.epsilon)


@settings(max_examples=40)
@given(MECHANISMS, st.integers(1, 3), st.sampled_from([Fraction(3, 2), Fraction(2), Fraction(4)]))
def test_basic_and_optimal_composition_bound_every_composed_mechanism(mechanism, k, ratio):
    delta = delta_for_epsilon(mechanism, exp_epsilon=ratio).value
    basic = basic_composition(exp_epsilon=ratio, delta=delta, k=k)
    assert composition_delta_for_epsilon(mechanism, k, basic.epsilon).value <= basic.delta
    for i in range(k // 2 + 1):
        optimal = optimal_composition(exp_epsilon=ratio, delta=delta, k=k, i=i)
        assert composition_delta_for_epsilon(mechanism, k, optimal.epsilon).value <= optimal.delta


@pytest.mark.parametrize(("ratio", "k", "slack"), [(Fraction(11, 10), 20, "1/100"), (2, 5, "1/10")])
def test_advanced_composition_bounds_randomized_response_certified(ratio, k, slack):
    keep = Fraction(ratio) / (1 + Fraction(ratio))
    rr = DatabaseMechanism({(0,): {0: keep, 1: 1 - keep}, (1,): {0: 1 - keep, 1: keep}})
    theorem = advanced_composition(exp_epsilon=ratio, k=k, slack=slack)
    composed = composition_delta_for_epsilon(rr, k, theorem.epsilon).value
    assert certify.compare(sympy.sympify(composed), sympy.Rational(slack)) <= 0
    e = sympy.log(ratio)
    expected = sympy.sqrt(2 * k * sympy.log(1 / sympy.Rational(slack))) * e + k * e * (ratio - 1)
    assert certify.compare(theorem.epsilon.to_sympy(), expected) == 0


def test_neighbour_plds_are_one_per_distinct_pair_of_rows():
    mechanism = DatabaseMechanism(
        {(0,): {0: "1/2", 1: "1/2"}, (1,): {0: "1/3", 1: "2/3"}, (2,): {0: "1/2", 1: "1/2"}}
    )
    pairs = neighbour_privacy_loss_distributions(mechanism)
    assert len(pairs) == 6
    for pair in pairs:
        p, q = _rows(mechanism, pair.database), _rows(mechanism, pair.neighbour)
        assert pair.distribution.delta_for_epsilon(0) == bf.hockey_stick(p, q, Fraction(1))


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: basic_composition(1, k=0), "k=0"),
        (lambda: basic_composition(-1, k=2), "epsilon=-1"),
        (lambda: advanced_composition(1, k=2, slack=0), "slack=0"),
        (lambda: optimal_composition(1, k=3, i=2), "i=2"),
        (lambda: optimal_composition("oo", k=3, i=1), "finite"),
        (lambda: composition_delta_for_epsilon(_rr(), 0, 1), "k=0"),
        (lambda: composition_epsilon_for_delta(_rr(), 2, "2"), "delta=2"),
    ],
)
def test_bad_input_is_refused_naming_the_argument(call, fragment):
    with pytest.raises(InvalidArgument, match=fragment.replace("(", r"\(")):
        call()


def _rr():
    return DatabaseMechanism({(0,): {0: "3/4", 1: "1/4"}, (1,): {0: "1/4", 1: "3/4"}})
