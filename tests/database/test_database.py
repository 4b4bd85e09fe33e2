"""Databases, neighbours, priors on D^n and entry leakages agree with enumeration (§4)."""

from fractions import Fraction
from itertools import product

from hypothesis import given
from hypothesis import strategies as st

from exactpml import Distribution, Mechanism
from exactpml import strategies as xst
from exactpml.database import (
    DatabaseMechanism,
    DatabaseSpace,
    ProductPrior,
    as_database_mechanism,
    conditional_entry_leakage,
    entry_conditional,
    entry_leakage,
    entry_marginal,
    joint_prior,
)
from proofs_check.reference import all_databases, hamming

SPACES = xst.database_spaces()


@given(SPACES)
def test_databases_are_every_tuple_of_the_alphabet(space):
    databases = list(space.databases())
    assert len(databases) == space.count == len(space.alphabet) ** space.size
    assert set(databases) == set(all_databases(space.alphabet, space.size))


@given(SPACES, st.data())
def test_neighbours_replace_exactly_one_entry(space, data):
    x = data.draw(st.sampled_from(list(space.databases())))
    found = list(space.neighbours(x))
    expected = {x2 for x2 in space.databases() if hamming(x, x2) == 1}
    assert {x2 for _, x2 in found} == expected
    assert len(found) == len(expected) == space.size * (len(space.alphabet) - 1)
    for index, x2 in found:
        assert x[index] != x2[index]
        assert space.others(x, index) == space.others(x2, index)


@given(SPACES, st.data())
def test_pairs_at_distance_are_every_pair_at_that_hamming_distance(space, data):
    k = data.draw(st.integers(1, space.size))
    found = list(space.pairs_at_distance(k))
    expected = [
        (x, x2) for x in space.databases() for x2 in space.databases() if hamming(x, x2) == k
    ]
    assert len(found) == len(set(found))
    assert set(found) == set(expected)


@given(SPACES)
def test_neighbourhoods_partition_the_neighbouring_pairs(space):
    pairs = list(space.neighbouring_pairs())
    assert {(x, x2) for _, x, x2 in pairs} == {
        (x, x2) for x in space.databases() for x2 in space.databases() if hamming(x, x2) == 1
    }
    for index, others, members in space.neighbourhoods():
        assert [m[index] for m in members] == list(space.alphabet)
        assert all(space.others(m, index) == others for m in members)
        assert all(space.insert(others, index, m[index]) == m for m in members)


def test_a_mechanism_on_tuples_is_wrapped_with_its_alphabet_and_size():
    kernel = Mechanism({(a, b): {a + b: 1} for a in (0, 1) for b in (0, 1)})
    wrapped = as_database_mechanism(kernel)
    assert wrapped.space == DatabaseSpace([0, 1], 2)
    assert wrapped.probability((1, 1), 2) == 1


def test_from_function_enumerates_every_database():
    mechanism = DatabaseMechanism.from_function(lambda x: {sum(x): 1}, [0, 1], 3)
    assert mechanism.space.count == 8
    assert mechanism.probability((1, 0, 1), 2) == 1


def test_joint_prior_fills_the_unnamed_databases_with_zero():
    space = DatabaseSpace("ab", 2)
    prior = joint_prior(space, {("a", "a"): "1/2", ("b", "b"): "1/2"})
    assert len(prior) == 4
    assert prior[("a", "b")] == 0
    assert entry_marginal(prior, 1) == Distribution({"a": "1/2", "b": "1/2"})


def _brute_marginal(joint, index, alphabet):
    return {d: sum((p for x, p in joint.items() if x[index] == d), Fraction(0)) for d in alphabet}


@given(SPACES.flatmap(lambda s: st.tuples(st.just(s), xst.database_priors(s))), st.data())
def test_entry_marginal_and_conditional_agree_with_enumeration(pair, data):
    space, prior = pair
    index = data.draw(st.integers(0, space.size - 1))
    marginal = entry_marginal(prior, index)
    assert marginal.as_dict() == _brute_marginal(prior, index, space.alphabet)
    others = data.draw(st.sampled_from(list(product(space.alphabet, repeat=space.size - 1))))
    members = {d: space.insert(others, index, d) for d in space.alphabet}
    mass = sum((prior[x] for x in members.values()), Fraction(0))
    if mass == 0:
        return
    conditional = entry_conditional(prior, index, others)
    assert conditional.as_dict() == {d: prior[x] / mass for d, x in members.items()}


@given(SPACES.flatmap(lambda s: st.tuples(st.just(s), xst.product_priors(s))))
def test_product_prior_is_the_product_of_its_marginals(pair):
    space, prior = pair
    joint = prior.joint()
    for x in space.databases():
        expected = Fraction(1)
        for i, d in enumerate(x):
            expected *= prior.marginal(i)[d]
        assert joint[x] == prior.probability(x) == expected
    for i in range(space.size):
        assert entry_marginal(joint, i) == prior.marginal(i)


def test_an_iid_prior_on_a_thousand_entries_is_not_materialised():
    prior = ProductPrior.iid({0: "9999/10000", 1: "1/10000"}, 1000)
    assert prior.is_identical
    assert prior.probability((1,) + (0,) * 999) == Fraction(1, 10000) * Fraction(9999, 10000) ** 999


def _brute_entry_ratio(mechanism, joint, index, y, condition=lambda x: True):
    """exp l(D_i -> y [| condition]) from Def 2.3 applied to (D_i, Y) by enumeration."""
    rows = [(x, p) for x, p in joint.items() if condition(x)]
    total = sum((p for _, p in rows), Fraction(0))
    rows = [(x, p / total) for x, p in rows]
    p_y = sum((p * mechanism.probability(x, y) for x, p in rows), Fraction(0))
    if p_y == 0:
        return Fraction(1)
    best = Fraction(0)
    for d in mechanism.space.alphabet:
        p_d = sum((p for x, p in rows if x[index] == d), Fraction(0))
        if p_d == 0:
            continue
        joint_dy = sum((p * mechanism.probability(x, y) for x, p in rows if x[index] == d), 0)
        best = max(best, joint_dy / p_y / p_d)
    return best


@given(
    xst.database_mechanisms().flatmap(
        lambda m: st.tuples(st.just(m), xst.database_priors(m.space))
    ),
    st.data(),
)
def test_entry_leakages_agree_with_their_definition(pair, data):
    mechanism, prior = pair
    space = mechanism.space
    index = data.draw(st.integers(0, space.size - 1))
    y = data.draw(st.sampled_from(mechanism.outputs))
    assert entry_leakage(mechanism, prior, index, y).ratio == _brute_entry_ratio(
        mechanism, prior, index, y
    )
    others = data.draw(st.sampled_from(list(product(space.alphabet, repeat=space.size - 1))))
    if all(prior[space.insert(others, index, d)] == 0 for d in space.alphabet):
        return
    expected = _brute_entry_ratio(
        mechanism, prior, index, y, lambda x: space.others(x, index) == others
    )
    assert conditional_entry_leakage(mechanism, prior, index, y, others).ratio == expected
