"""Every measure against its definition, on random exact instances (Saeidian et al., §2–3)."""

from fractions import Fraction

import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactpml import (
    Distribution,
    LogValue,
    Mechanism,
    conditional_pointwise_maximal_leakage,
    guessing_gain,
    is_pml_private,
    kl_divergence,
    leakage_capacity,
    max_pointwise_maximal_leakage,
    maximal_leakage,
    min_entropy,
    pml,
    pml_joint_divergence,
    pointwise_maximal_leakage,
    pointwise_maximal_leakage_by_output,
    posterior_min_entropy,
    probability_leakage_at_most,
    renyi_divergence_inf,
    total_variation,
)
from exactpml import strategies as xst
from exactpml.core import certify
from proofs_check import reference as brute_force

# --- exact values from the text or from hand computation (each says which) ------------


def test_pml_of_a_binary_channel_matches_hand_computation():
    # Hand computation: p_Y(1) = 2/3 * 1/4 + 1/3 * 3/4 = 5/12; max_x p(1|x) = 3/4; ratio 9/5.
    mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
    prior = Distribution({"a": "2/3", "b": "1/3"})
    assert pml(mechanism, prior, 1).ratio == Fraction(9, 5)
    assert str(pml(mechanism, prior, 1)) == "log(9/5)"
    assert leakage_capacity(mechanism).ratio == 3


def test_identity_mechanism_leaks_log_one_over_p_min():
    # Saeidian et al. §2.3: PML is bounded by -log min p_X, attained by releasing X.
    prior = Distribution({"a": "1/2", "b": "1/3", "c": "1/6"})
    identity = Mechanism.identity(prior.outcomes)
    assert max_pointwise_maximal_leakage(identity, prior).ratio == 6
    assert leakage_capacity(identity).is_infinite


def test_alpha_mechanism_leakages_match_appendix_a5():
    # Saeidian et al., proof of Prop 3.8 (A.5): l(X->0) = log 1/(1-p_min),
    # l(X->1) = log 1/(1 - alpha (1 - p_min)).
    prior = Distribution({"x_min": "1/5", "b": "2/5", "c": "2/5"})
    alpha = Fraction(1, 10)
    kernel = {
        x: ({0: 0, 1: 1} if x == "x_min" else {0: alpha, 1: 1 - alpha}) for x in prior.outcomes
    }
    mechanism = Mechanism(kernel)
    assert pml(mechanism, prior, 0).ratio == 1 / (1 - Fraction(1, 5))
    assert pml(mechanism, prior, 1).ratio == 1 / (1 - alpha * (1 - Fraction(1, 5)))


def test_output_never_produced_leaks_nothing_by_footnote_5():
    mechanism = Mechanism({"a": {0: 1}, "b": {0: 1}}, outputs=[0, 1])
    prior = Distribution({"a": "1/2", "b": "1/2"})
    assert pml(mechanism, prior, 1) == 0
    assert mechanism.posterior(prior, 1) == prior


def test_min_entropy_is_log_of_inverse_largest_mass():
    assert min_entropy(Distribution({"a": "7/10", "b": "3/10"})).ratio == Fraction(10, 7)
    assert min_entropy(Distribution({"a": 1})) == 0


def test_kl_divergence_of_bernoullis_is_exact():
    # Hand computation: 1/2 log(2) + 1/2 log(2/3) = log 2 - log(3)/2.
    value = kl_divergence(Distribution({0: "1/2", 1: "1/2"}), Distribution({0: "1/4", 1: "3/4"}))
    assert sympy.simplify(value - (sympy.log(2) - sympy.log(3) / 2)) == 0
    assert kl_divergence(Distribution({0: 1, 1: 0}), Distribution({0: 0, 1: 1})) is sympy.oo


def test_kl_divergence_of_closed_form_masses_returns_quickly():
    # Masses built from log(5/2) (the KL-optimal prior of Vadhan Prop 2's Remark):
    # expand_log(force=True) used to run for minutes on such sums; the value is
    # log((r-1)/log r) - 1 + log(r)/(r-1) at r = 5/2 (hand computation), about 0.1037.
    big, small = sympy.Rational(5, 7), sympy.Rational(2, 7)
    mean = (big - small) / sympy.log(big / small)
    t = (mean - small) / (big - small)
    total = t * big + (1 - t) * small
    prior = Distribution._trusted(("a", "b"), [t, 1 - t])
    posterior = Distribution._trusted(("a", "b"), [t * big / total, (1 - t) * small / total])
    r = sympy.Rational(5, 2)
    closed = sympy.log((r - 1) / sympy.log(r)) - 1 + sympy.log(r) / (r - 1)
    value = kl_divergence(prior, posterior)
    assert certify.decimal(value, 30) == certify.decimal(closed, 30)


def test_symbolic_mechanism_keeps_unproved_conditions():
    t = sympy.Symbol("t", positive=True)
    mechanism = Mechanism(
        {"a": {0: 1 - t, 1: t}, "b": {0: sympy.Rational(1, 2), 1: sympy.Rational(1, 2)}}
    )
    assert sympy.Ge(1 - t, 0) in mechanism.conditions
    value = pml(mechanism, Distribution({"a": "1/2", "b": "1/2"}), 1)
    # at t = 1/4: p_Y(1) = 3/8, max p(1|x) = 1/2, ratio 4/3
    assert sympy.nsimplify(value.ratio.subs(t, sympy.Rational(1, 4))) == sympy.Rational(4, 3)


# --- properties against brute force -------------------------------------------------


@given(xst.mechanisms_with_prior())
def test_pml_equals_divergence_of_posterior_from_prior(pair):
    mechanism, prior = pair
    for y in mechanism.outputs:
        expected = brute_force.pml_ratio(mechanism, prior, y)
        assert pml(mechanism, prior, y).ratio == expected
        if brute_force.output_mass(mechanism, prior, y) > 0:
            posterior = mechanism.posterior(prior, y)
            assert renyi_divergence_inf(posterior, prior).ratio == expected


@given(xst.mechanisms_with_prior())
def test_fast_all_outputs_path_equals_single_output_path(pair):
    mechanism, prior = pair
    fast = pointwise_maximal_leakage_by_output(mechanism, prior)
    for y in mechanism.outputs:
        assert fast[y] == pointwise_maximal_leakage(mechanism, prior, y)
    masses = mechanism.output_masses(prior)
    assert masses == [brute_force.output_mass(mechanism, prior, y) for y in mechanism.outputs]


@given(xst.mechanisms_with_prior())
def test_pml_is_between_zero_and_log_one_over_smallest_mass(pair):
    mechanism, prior = pair
    smallest = min(p for p in prior.probabilities if p > 0)
    for y in mechanism.outputs:
        value = pml(mechanism, prior, y)
        assert LogValue(1) <= value <= LogValue(1 / smallest)


@given(xst.distributions(), st.data())
def test_divergence_by_events_equals_divergence_by_points(p, data):
    q = data.draw(xst.distributions(outcomes=p.outcomes))
    by_sets = brute_force.divergence_ratio_by_sets(p, q)
    value = renyi_divergence_inf(p, q)
    if by_sets is None:
        assert value.is_infinite
    else:
        assert value.ratio == by_sets


@given(xst.distributions(), st.data())
def test_total_variation_is_the_largest_event_difference(p, data):
    q = data.draw(xst.distributions(outcomes=p.outcomes))
    largest = max(
        abs(sum((p[o] for o in event), Fraction(0)) - sum((q[o] for o in event), Fraction(0)))
        for event in brute_force.subsets(p.outcomes)
    )
    assert total_variation(p, q) == largest


@given(xst.mechanisms())
def test_capacity_matches_enumeration_of_ratios(mechanism):
    expected = brute_force.capacity_ratio(mechanism)
    value = leakage_capacity(mechanism)
    if expected is None:
        assert value.is_infinite
    else:
        assert value.ratio == expected


@given(xst.mechanisms_with_prior())
def test_maximal_leakage_is_sum_of_column_maxima_over_the_support(pair):
    mechanism, prior = pair
    support = [x for x in mechanism.inputs if prior[x] > 0]
    expected = sum(
        (max(mechanism.probability(x, y) for x in support) for y in mechanism.outputs), Fraction(0)
    )
    assert maximal_leakage(mechanism, prior).ratio == expected


@given(xst.mechanisms_with_prior(), st.data())
def test_attribute_leakage_matches_joint_enumeration_and_pre_processing(pair, data):
    mechanism, prior = pair
    attribute = data.draw(xst.attributes(mechanism.inputs))
    for y in mechanism.outputs:
        value = pml(mechanism, prior, y, attribute=attribute)
        assert value.ratio == brute_force.attribute_pml_ratio(mechanism, prior, attribute, y)
        # pre-processing (Saeidian et al. 2023b, Lemma 1): l(U->y) <= l(X->y)
        assert value <= pml(mechanism, prior, y)


@given(xst.mechanisms_with_prior(), st.data())
def test_guessing_gain_never_exceeds_pml(pair, data):
    # Def 2.3 is a supremum over attributes; Thm 2.4 says it equals the closed form.
    mechanism, prior = pair
    attribute = data.draw(xst.attributes(mechanism.inputs))
    for y in mechanism.outputs:
        assert guessing_gain(mechanism, prior, y, attribute) <= pml(mechanism, prior, y)


@given(xst.mechanisms_with_prior())
def test_three_forms_of_pml_guarantee_agree_at_the_exact_epsilon(pair):
    # Def 2.6: P_Y(l <= eps) = 1  <=>  D_inf(P_XY || P_X x P_Y) <= eps  <=>  max_y l <= eps.
    mechanism, prior = pair
    epsilon = max_pointwise_maximal_leakage(mechanism, prior)
    assert pml_joint_divergence(mechanism, prior) == epsilon
    assert probability_leakage_at_most(mechanism, prior, epsilon) == 1
    assert is_pml_private(mechanism, prior, epsilon)
    if epsilon.ratio > 1:
        # strictly between 1 and e^ε (with near-ties e^ε may be 1 + 10^-12)
        below = LogValue((1 + epsilon.ratio) / 2)
        assert probability_leakage_at_most(mechanism, prior, below) < 1
        assert not is_pml_private(mechanism, prior, below)


@given(xst.mechanisms_with_prior(full_support=True))
def test_posterior_min_entropy_bounded_by_prior_entropy_minus_leakage(pair):
    # (A.2) of Saeidian et al. with U = X: H(P_{X|y}) >= H(P_X) - l(X->y).
    mechanism, prior = pair
    for y in mechanism.outputs:
        lower = min_entropy(prior) - pml(mechanism, prior, y)
        assert posterior_min_entropy(mechanism, prior, y) >= lower


@given(xst.mechanisms(min_inputs=2), st.data())
def test_conditional_pml_equals_pml_under_the_conditioned_prior(mechanism, data):
    prior = data.draw(xst.distributions(outcomes=mechanism.inputs, full_support=True))
    pivot = mechanism.inputs[0]
    given_ = lambda x: x == pivot  # noqa: E731
    for y in mechanism.outputs:
        conditioned = prior.condition_on(lambda x: not given_(x))
        value = conditional_pointwise_maximal_leakage(
            mechanism, prior, y, given=given_, value=False
        )
        assert value.ratio == brute_force.pml_ratio(mechanism, conditioned, y)


@given(xst.mechanisms(), st.data())
def test_post_processing_matches_matrix_product_and_cannot_raise_capacity(mechanism, data):
    post = data.draw(xst.mechanisms(inputs=mechanism.outputs))
    composed = mechanism.post_process(post)
    for x in mechanism.inputs:
        for z in post.outputs:
            expected = sum(
                (mechanism.probability(x, y) * post.probability(y, z) for y in mechanism.outputs),
                Fraction(0),
            )
            assert composed.probability(x, z) == expected
    assert leakage_capacity(composed) <= leakage_capacity(mechanism)


@given(xst.mechanisms(), st.data(), st.fractions(0, 1))
def test_mixture_is_the_convex_combination_of_rows(mechanism, data, weight):
    other = data.draw(xst.mechanisms(inputs=mechanism.inputs))
    mixed = mechanism.mixture(other, weight)
    for x in mechanism.inputs:
        for y in mixed.outputs:
            first = mechanism.probability(x, y) if y in mechanism.outputs else 0
            second = other.probability(x, y) if y in other.outputs else 0
            assert mixed.probability(x, y) == weight * first + (1 - weight) * second


@given(xst.mechanisms(max_inputs=3, max_outputs=3), st.data())
def test_parallel_composition_multiplies_capacity_ratios_at_most(mechanism, data):
    other = data.draw(xst.mechanisms(inputs=mechanism.inputs, max_outputs=3))
    both = mechanism.parallel(other)
    bound = leakage_capacity(mechanism) + leakage_capacity(other)
    assert leakage_capacity(both) <= bound
