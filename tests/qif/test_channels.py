"""Channel algebra against the definitions: cascades and marginals by explicit sums,
refinement either by a map R checked by multiplication (D = C R, R a channel) or by a Farkas
certificate checked by exact sums (proofs_check.reference.qif)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactpml import Distribution, Mechanism
from exactpml import strategies as xst
from exactpml.errors import InvalidArgument
from exactpml.qif import (
    cascade,
    output_marginal,
    parallel,
    refinement_certificate,
    refinement_map,
    refines,
)
from proofs_check.reference import qif as ref


def table(mechanism):
    return {
        x: dict(zip(mechanism.outputs, row, strict=True))
        for x, row in zip(mechanism.inputs, mechanism.rows, strict=True)
    }


@given(xst.composed_kernels())
def test_cascade_is_the_matrix_product(pair):
    channel, post = pair
    assert table(cascade(channel, post)) == ref.cascade_table(channel, post)


@given(st.data())
def test_parallel_multiplies_and_its_marginals_give_back_the_factors(data):
    inputs = list(range(data.draw(st.integers(1, 4))))
    left = data.draw(xst.mechanisms(inputs=inputs, max_outputs=3))
    right = data.draw(xst.mechanisms(inputs=inputs, max_outputs=3))
    both = parallel(left, right)
    for x in inputs:
        for a in left.outputs:
            for b in right.outputs:
                assert both.probability(x, (a, b)) == left.probability(x, a) * right.probability(
                    x, b
                )
    assert output_marginal(both, 0) == left
    assert output_marginal(both, -1) == right


@given(xst.product_output_mechanisms(), st.integers(0, 1))
def test_output_marginal_sums_the_other_coordinate(mechanism, index):
    assert table(output_marginal(mechanism, index)) == ref.marginal_table(mechanism, index)


def check_map(channel, other, found):
    assert set(found.inputs) == set(channel.outputs)
    assert all(v >= 0 for row in found.rows for v in row)  # a Mechanism: rows sum to 1
    assert ref.cascade_table(channel, found) == {
        x: {z: other.probability(x, z) for z in other.outputs} for x in other.inputs
    }


@given(xst.composed_kernels(max_inputs=4, max_outputs=4))
def test_post_processing_refines(pair):
    channel, post = pair
    other = cascade(channel, post)
    assert refines(channel, other)
    check_map(channel, other, refinement_map(channel, other))
    assert refinement_certificate(channel, other) is None


@given(st.data())
def test_refinement_is_decided_with_a_checkable_proof_either_way(data):
    inputs = list(range(data.draw(st.integers(1, 4))))
    channel = data.draw(xst.mechanisms(inputs=inputs, max_outputs=4))
    other = data.draw(xst.mechanisms(inputs=inputs, max_outputs=4))
    found = refinement_map(channel, other)
    certificate = refinement_certificate(channel, other)
    assert (found is None) != (certificate is None)
    if found is not None:
        check_map(channel, other, found)
        # Coriaceous, the easy direction: post-processing never raises Bayes vulnerability
        prior = data.draw(xst.distributions(outcomes=inputs))
        assert ref.posterior_bayes_vulnerability(other, prior) <= ref.posterior_bayes_vulnerability(
            channel, prior
        )
    else:
        assert ref.is_farkas_certificate(
            channel, other, certificate.equation_weights, certificate.row_weights
        )


def test_known_refinements():
    identity = Mechanism.identity("abc")
    coarse = Mechanism({"a": {"ab": 1}, "b": {"ab": 1}, "c": {"c": 1}})
    constant = Mechanism({"a": {0: 1}, "b": {0: 1}, "c": {0: 1}})
    assert refines(identity, coarse) and refines(coarse, constant) and refines(identity, constant)
    assert not refines(coarse, identity) and not refines(constant, coarse)
    noisy = Mechanism({"a": {0: "1/2", 1: "1/2"}, "b": {0: "1/2", 1: "1/2"}, "c": {0: 1}})
    assert refines(coarse, noisy) and not refines(noisy, coarse)
    assert refines(identity, identity)
    prior = Distribution.uniform("abc")
    assert ref.posterior_bayes_vulnerability(noisy, prior) == Fraction(1, 2)


UNIFORM_17 = Mechanism.from_matrix([[Fraction(1, 17)] * 17] * 17)
NOISY_2 = Mechanism.from_matrix([["1/2", "1/2"], ["1/3", "2/3"]])


def test_zeros_of_the_target_prune_the_simplex():
    # R(y, z) = 0 wherever C(x, y) > 0 = D(x, z): deterministic channels stay small
    secrets = range(30)
    identity = Mechanism.identity(secrets)
    parity = Mechanism.deterministic(lambda x: x % 2, secrets)
    assert refines(identity, parity) and refines(identity, identity)
    assert not refines(parity, identity)
    certificate = refinement_certificate(parity, identity)
    assert ref.is_farkas_certificate(
        parity, identity, certificate.equation_weights, certificate.row_weights
    )


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: cascade(Mechanism.identity("ab"), Mechanism.identity("a")), "no row"),
        (lambda: cascade("c", Mechanism.identity("a")), "channel"),
        (lambda: parallel(Mechanism.identity("ab"), Mechanism.identity("abc")), "different inputs"),
        (lambda: output_marginal(Mechanism.identity("ab"), 0), "no coordinate"),
        (lambda: output_marginal(Mechanism.identity([(1, 2)]), 2), "no coordinate"),
        (lambda: output_marginal(Mechanism.identity([(1, 2)]), True), "index"),
        (lambda: refines(Mechanism.identity("ab"), Mechanism.identity("abc")), "different inputs"),
        (lambda: refines(Mechanism.identity("ab"), None), "other"),
        (lambda: refines(UNIFORM_17, UNIFORM_17), "max_unknowns=144"),
        (lambda: refinement_map(NOISY_2, NOISY_2, max_unknowns=3), "max_unknowns=3"),
    ],
)
def test_bad_input_is_refused_naming_it(call, match):
    with pytest.raises(InvalidArgument, match=match):
        call()
