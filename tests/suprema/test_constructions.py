"""Tests of the proofs' constructions: Thm 2.4 (shattering attribute), App. A.5 (Prop 3.8's
alpha-mechanism and its exact alpha-range), App. A.3 (Prop 3.6's W and its exact lambda
threshold), and the limit of the shattering attribute with u0 among its K values."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest
import sympy
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from exactpml import Distribution, Mechanism, discloses, guessing_gain, min_entropy, pml
from exactpml import strategies as xst
from exactpml.core.exact import as_scalar, to_sympy
from exactpml.errors import InvalidArgument
from exactpml.leakage import max_pointwise_maximal_leakage
from exactpml.numerics.univariate import RationalFunction, real_roots_between
from exactpml.suprema import shattering_construction, sup_guessing_gain
from exactpml.suprema.constructions import (
    _difference,
    alpha_mechanism,
    alpha_range,
    concentrating_kernel_prior,
    concentrating_product_prior,
    least_shattering_size,
    lower_entropy_attribute,
    lower_entropy_threshold,
    shattering_attribute,
    shattering_gain,
)
from exactpml.suprema.families import ProductPriors

PRIOR = Distribution({"a": "1/2", "b": "1/3", "c": "1/6"})
CHANNEL = Mechanism(
    {"a": {0: "1/2", 1: "1/2"}, "b": {0: "1/4", 1: "3/4"}, "c": {0: "1/10", 1: "9/10"}}
)


# --- Thm 2.4 -----------------------------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(
    st.fractions(0, 1).filter(lambda v: v > 0),
    st.fractions(0, 1),
    st.integers(1, 40),
    st.booleans(),
)
def test_the_rational_shattering_gain_is_the_symbolic_formula(p_star, q_star, size, among):
    """Rationals skip sympy in shattering_gain; the value is the same as sympy's Max form."""
    fast = shattering_gain(p_star, q_star, size, among=among)
    slow = shattering_gain(sympy.Rational(p_star), sympy.Rational(q_star), size, among=among)
    assert type(fast) is Fraction
    assert type(slow) is Fraction and fast == slow




def _p_q(mechanism, prior, y):
    star = max(prior.support, key=lambda x: (mechanism.probability(x, y), prior[x]))
    return prior[star], mechanism.posterior(prior, y)[star]


@st.composite
def channels_with_prior(draw):
    mechanism = draw(xst.mechanisms(max_inputs=5, max_outputs=4))
    prior = draw(xst.distributions(outcomes=mechanism.inputs, skewed=False))
    return mechanism, prior


@settings(max_examples=60, deadline=None)
@given(channels_with_prior(), st.data())
@example((CHANNEL, PRIOR), None)
def test_the_shattering_attribute_attains_pml_exactly_from_the_least_k(pair, data):
    mechanism, prior = pair
    y = mechanism.outputs[0] if data is None else data.draw(st.sampled_from(mechanism.outputs))
    target = pml(mechanism, prior, y)
    size = least_shattering_size(mechanism, prior, y)
    p_star, q_star = _p_q(mechanism, prior, y)
    if target != 0:  # q* > p*: the bound of CLAIMS pml.thm_2_4 is the least K
        bound = max(math.ceil((1 - p_star) / p_star), math.ceil((1 - q_star) / q_star), 1)
        assert size == bound
        assert shattering_gain(p_star, q_star, size) == target.ratio
        if size > 1:
            assert shattering_gain(p_star, q_star, size - 1) < target.ratio
    else:
        assert size == 1
    if size > 300:
        return  # the witness attribute would have more values than is worth building here
    result = sup_guessing_gain(mechanism, prior, y)
    assert result.attained and result.value == target
    assert result.witness.leakage() == target
    for k in (size, size + 1, size + 5):
        gain = guessing_gain(mechanism, prior, y, shattering_attribute(mechanism, prior, y, k))
        assert gain == target
    if size > 1:
        smaller = shattering_attribute(mechanism, prior, y, size - 1)
        assert guessing_gain(mechanism, prior, y, smaller) < target


@settings(max_examples=30, deadline=None)
@given(channels_with_prior(), st.data(), st.integers(1, 8), st.booleans())
def test_the_closed_form_gain_is_the_gain_of_the_built_attribute(pair, data, size, among):
    mechanism, prior = pair
    y = data.draw(st.sampled_from(mechanism.outputs))
    p_star, q_star = _p_q(mechanism, prior, y)
    attribute = shattering_attribute(mechanism, prior, y, size, among=among)
    expected = shattering_gain(p_star, q_star, size, among=among)
    assert guessing_gain(mechanism, prior, y, attribute).ratio == expected


def test_every_attribute_gain_is_at_most_pml():
    attribute = Mechanism({"a": {0: 1}, "b": {0: "1/2", 1: "1/2"}, "c": {1: 1}})
    for y in (0, 1):
        assert guessing_gain(CHANNEL, PRIOR, y, attribute) <= pml(CHANNEL, PRIOR, y)


def test_u0_among_the_k_values_only_converges_as_k_grows():
    construction = shattering_construction(CHANNEL, PRIOR, 1)
    p_star, q_star = _p_q(CHANNEL, PRIOR, 1)
    assert construction.limit == q_star / p_star == pml(CHANNEL, PRIOR, 1).ratio
    for k in (1, 2, 10, 1000):
        member = construction.at(k)
        gain = member.leakage()
        assert gain < pml(CHANNEL, PRIOR, 1)
        assert gain.ratio == construction.expression.subs(construction.parameter, k)
    with pytest.raises(Exception, match="integer"):
        construction.at("5/2")


# --- App. A.5 (Prop 3.8) -------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(xst.distributions(min_size=2, max_size=5, full_support=True))
@example(Distribution({0: "1/2", 1: "1/2"}))
@example(Distribution({0: "1/3", 1: "1/3", 2: "1/3"}))
def test_alpha_range_is_derived_exactly(prior):
    p_min = min(prior.probabilities)
    bound = min(Fraction(1), p_min / (1 - p_min))
    found = alpha_range(prior)
    assert (found.lower, found.upper, found.lower_open, found.upper_open) == (0, bound, True, False)
    limit = 1 / (1 - p_min)
    at_bound = alpha_mechanism(prior, bound)
    assert pml(at_bound, prior, 0).ratio == limit
    assert pml(at_bound, prior, 1).ratio == 1 / (1 - bound * (1 - p_min))
    assert max_pointwise_maximal_leakage(at_bound, prior).ratio == limit
    if bound < 1:  # just above the range the guarantee fails
        above = alpha_mechanism(prior, bound + Fraction(1, 10**6) * (1 - bound))
        assert max_pointwise_maximal_leakage(above, prior).ratio > limit
    x_min = min(prior.outcomes, key=prior.__getitem__)
    assert discloses(at_bound, lambda x: x != x_min, prior)


_ALPHA = sympy.Symbol("alpha", positive=True)
_COEFFICIENTS = st.fractions(-5, 5, max_denominator=12)


@st.composite
def _rational_values(draw):
    """A Fraction, or P/Q in alpha (Q not 0) as sympy writes it, cancelled or not."""
    if draw(st.booleans()):
        return draw(_COEFFICIENTS)
    top = sum(c * _ALPHA**k for k, c in enumerate(draw(st.lists(_COEFFICIENTS, max_size=3))))
    bottom = sum(c * _ALPHA**k for k, c in enumerate(draw(st.lists(_COEFFICIENTS, max_size=3))))
    if sympy.expand(bottom) == 0:
        bottom = sympy.Integer(1)
    value = sympy.Rational(1) * top / bottom
    return as_scalar(sympy.cancel(value) if draw(st.booleans()) else value)


@settings(max_examples=150, deadline=None)
@given(_rational_values(), _rational_values())
@example(Fraction(97, 84), as_scalar(-97 / (84 * _ALPHA - 97)))  # alpha_range's leakages
@example(as_scalar(_ALPHA / 2 + Fraction(1, 3)), Fraction(1, 2))  # a p_W of Prop 3.6
def test_the_difference_by_polynomials_is_rational_function_of(a, b):
    """Coprime numerator, monic denominator: one form, whichever way it is computed."""
    expected = RationalFunction.of(to_sympy(a) - to_sympy(b), _ALPHA, where="a - b")
    assert _difference(a, b, _ALPHA, where="a - b") == expected


@pytest.mark.parametrize(
    "value", [sympy.exp(_ALPHA), 1 / (1 + 1 / _ALPHA), sympy.sqrt(2) * _ALPHA, _ALPHA / 0]
)
def test_what_is_not_two_polynomials_goes_to_rational_function_of(value):
    try:
        expected = RationalFunction.of(value - 1, _ALPHA, where="w")
    except InvalidArgument as error:
        with pytest.raises(InvalidArgument, match=re.escape(str(error))):
            _difference(as_scalar(value), Fraction(1), _ALPHA, where="w")
    else:
        assert _difference(as_scalar(value), Fraction(1), _ALPHA, where="w") == expected


@settings(max_examples=100, deadline=None)
@given(
    st.lists(_COEFFICIENTS, min_size=1, max_size=4),
    st.sampled_from([sympy.S.NegativeInfinity, Fraction(-1), Fraction(0), Fraction(1, 3)]),
    st.sampled_from([sympy.oo, Fraction(1), Fraction(1, 3), Fraction(2)]),
    st.booleans(),
)
def test_a_linear_root_read_off_the_coefficients_is_the_isolated_one(
    coefficients, low, high, closed
):
    poly = sympy.Poly(
        sum(c * _ALPHA**k for k, c in enumerate(coefficients)), _ALPHA, domain=sympy.QQ
    )
    if poly.is_zero or (
        low is not sympy.S.NegativeInfinity and high is not sympy.oo and low >= high
    ):
        return
    isolated = [  # the general path, sympy's root isolation, as the independent oracle
        as_scalar(root)
        for root in dict.fromkeys(poly.real_roots())
        if (low is sympy.S.NegativeInfinity or as_scalar(root) > low or (closed and root == low))
        and (high is sympy.oo or as_scalar(root) < high or (closed and root == high))
    ]
    assert real_roots_between(poly, low, high, closed=closed) == isolated


# --- App. A.3 (Prop 3.6) -------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(xst.distributions(min_size=2, max_size=5, full_support=True), st.data())
def test_lower_entropy_threshold_is_exact_and_strict(prior, data):
    u_star = data.draw(st.sampled_from(prior.outcomes))
    identity = Mechanism.identity(prior.outcomes)
    threshold = lower_entropy_threshold(identity, prior, u_star)
    largest = max(prior.probabilities)
    assert threshold == (largest - prior[u_star]) / (1 - prior[u_star])
    entropy_u = min_entropy(prior)
    if threshold > 0:
        at = lower_entropy_attribute(identity, prior, u_star, threshold)
        masses = Distribution(dict(zip(at.outputs, at.output_masses(prior), strict=True)))
        assert min_entropy(masses) == entropy_u  # fails the strict inequality
    above = lower_entropy_attribute(identity, prior, u_star, (threshold + 1) / 2)
    masses = Distribution(dict(zip(above.outputs, above.output_masses(prior), strict=True)))
    assert min_entropy(masses) < entropy_u


@settings(max_examples=40, deadline=None)
@given(xst.distributions(min_size=2, max_size=5, full_support=True), st.data())
def test_the_threshold_of_a_randomised_attribute_is_a3s(prior, data):
    """P_W is formed as P_{W|U} ∘ P_U: the threshold of A.3, and W (P_{W|U} ∘ P_{U|X}) has
    equal min-entropy there."""
    attribute = data.draw(xst.attributes(prior.outcomes, min_values=2))
    masses = dict(zip(attribute.outputs, attribute.output_masses(prior), strict=True))
    largest = max(masses.values())
    assume(largest < 1)
    u_star = data.draw(st.sampled_from(attribute.outputs))
    threshold = lower_entropy_threshold(attribute, prior, u_star)
    assert threshold == (largest - masses[u_star]) / (1 - masses[u_star])
    at = lower_entropy_attribute(attribute, prior, u_star, threshold) if threshold else None
    if at is not None:
        law = Distribution(dict(zip(at.outputs, at.output_masses(prior), strict=True)))
        assert max(law.probabilities) == largest


def test_w_is_disclosed_when_u_is():
    """y = 1 reveals X = c (U = X, u* = c, p_U(c) = 1/6 < max p_U = 1/2)."""
    mechanism = Mechanism({"a": {0: 1}, "b": {0: 1}, "c": {1: 1}})
    u = Mechanism.identity(PRIOR.outcomes)
    assert discloses(mechanism, u, PRIOR)
    threshold = lower_entropy_threshold(u, PRIOR, "c")
    assert threshold == Fraction(2, 5)
    w = lower_entropy_attribute(u, PRIOR, "c", (threshold + 1) / 2)
    assert discloses(mechanism, w, PRIOR)
    masses = Distribution(dict(zip(w.outputs, w.output_masses(PRIOR), strict=True)))
    assert min_entropy(masses) < min_entropy(PRIOR)


# --- constructions of App. B ---------------------------------------------------------------------


def test_concentrating_product_prior_matches_b3():
    prior = concentrating_product_prior((0, 1, 2), (2, 0), "1/10")
    assert prior[(2, 0)] == Fraction(81, 100)
    assert prior[(0, 0)] == Fraction(1, 20) * Fraction(9, 10)
    assert sum(prior.probabilities) == 1


def test_concentrating_kernel_prior_is_a_distribution_with_the_b5_kernel():
    t = sympy.Symbol("t", positive=True)
    prior = concentrating_kernel_prior((0, 1), 3, 1, 1, 0, (0, 0), (1, 1), t)
    assert sympy.simplify(sum(sympy.sympify(p) for p in prior.probabilities)) == 1
    numeric = concentrating_kernel_prior((0, 1), 3, 1, 1, 0, (0, 0), (1, 1), "1/10")
    # D_1 = 0 (= d'_i) has probability 1 - t; given it, d_-1 = (1, 1) has probability 1 - t
    assert numeric[(1, 0, 1)] == Fraction(81, 100)
    assert numeric[(0, 1, 0)] == Fraction(1, 10) * Fraction(9, 10)


@settings(max_examples=30, deadline=None)
@given(st.fractions(min_value=Fraction(1, 1000), max_value=Fraction(999, 1000)))
def test_constructions_stay_in_their_families(value):
    member = concentrating_product_prior((0, 1, 2), (2, 0), value)
    assert ProductPriors((0, 1, 2), 2).contains(member)


@settings(max_examples=40, deadline=None)
@given(channels_with_prior(), st.data())
def test_the_u0_among_k_limit_is_the_posterior_to_prior_ratio_on_random_kernels(pair, data):
    mechanism, prior = pair
    y = data.draw(st.sampled_from(mechanism.outputs))
    construction = shattering_construction(mechanism, prior, y)
    p_star, q_star = _p_q(mechanism, prior, y)
    assert construction.limit == q_star / p_star == pml(mechanism, prior, y).ratio
    gain = construction.at(3).leakage()
    assert gain <= pml(mechanism, prior, y)
    assert (gain < pml(mechanism, prior, y)) == (q_star > p_star and p_star < 1)
