"""Bayes capacities against the definitions: the multiplicative one against the
hyper-distribution leakage at its witness and at random priors, the additive one (found by
sub-uniform enumeration, the book's Chapter 7 theorem) against a maximisation over every vertex
of the hyperplane arrangement (proofs_check.reference.qif)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings

from exactpml import Distribution, Mechanism
from exactpml import strategies as xst
from exactpml.errors import InvalidArgument
from exactpml.qif import additive_bayes_capacity, multiplicative_bayes_capacity
from proofs_check.reference import qif as ref


def leakage_ratio(mechanism, prior):
    return ref.posterior_bayes_vulnerability(mechanism, prior) / ref.bayes_vulnerability(prior)


@given(xst.mechanisms(max_inputs=5, max_outputs=5))
def test_multiplicative_capacity_is_attained_at_its_witness(mechanism):
    capacity = multiplicative_bayes_capacity(mechanism)
    assert capacity.value.ratio == leakage_ratio(mechanism, capacity.prior)
    assert capacity.prior == Distribution.uniform(mechanism.inputs)


@given(xst.mechanisms_with_prior(max_inputs=5, max_outputs=5))
def test_multiplicative_capacity_bounds_every_prior(pair):
    mechanism, prior = pair
    assert leakage_ratio(mechanism, prior) <= multiplicative_bayes_capacity(mechanism).value.ratio


@given(xst.mechanisms(max_inputs=3, max_outputs=3))
def test_additive_capacity_is_the_vertex_maximum(mechanism):
    capacity = additive_bayes_capacity(mechanism)
    assert capacity.value == ref.additive_bayes_capacity_by_vertices(mechanism)
    prior = capacity.prior
    assert capacity.value == ref.posterior_bayes_vulnerability(
        mechanism, prior
    ) - ref.bayes_vulnerability(prior)


@settings(max_examples=25)
@given(xst.mechanisms(min_inputs=4, max_inputs=4, max_outputs=3))
def test_additive_capacity_is_the_vertex_maximum_on_four_secrets(mechanism):
    assert additive_bayes_capacity(mechanism).value == ref.additive_bayes_capacity_by_vertices(
        mechanism
    )


@given(xst.mechanisms_with_prior(max_inputs=5, max_outputs=4))
def test_additive_capacity_bounds_every_prior(pair):
    mechanism, prior = pair
    leakage = ref.posterior_bayes_vulnerability(mechanism, prior) - ref.bayes_vulnerability(prior)
    assert leakage <= additive_bayes_capacity(mechanism).value


def test_known_values():
    channel = Mechanism({0: {"y": "1/2", "n": "1/2"}, 1: {"y": 1}, 2: {"n": 1}})
    capacity = additive_bayes_capacity(channel)
    assert capacity.value == Fraction(1, 2)
    assert capacity.prior == Distribution({0: 0, 1: "1/2", 2: "1/2"})


def test_additive_capacity_refuses_large_alphabets():
    with pytest.raises(InvalidArgument, match="max_secrets=16"):
        additive_bayes_capacity(Mechanism.identity(range(17)))
    assert additive_bayes_capacity(Mechanism.identity(range(5)), max_secrets=5).value == Fraction(
        4, 5
    )
    with pytest.raises(InvalidArgument, match="max_secrets=4"):
        additive_bayes_capacity(Mechanism.identity(range(5)), max_secrets=4)
    with pytest.raises(InvalidArgument, match="mechanism"):
        multiplicative_bayes_capacity("not a mechanism")
