"""Partial-knowledge DP (thesis §3.1.3) against its definitions, exactly.

Expected values come from (a) the brute-force references of ``proofs_check/reference/partial_knowledge.py``
(enumeration of the full joint law, set form of Prop 8), (b) hand computations written out
in the test, or (c) CLAIMS.md's restatement (``pk.remark_2``).  The thesis itself gives no
numbers for Example 7 (its p was lost in extraction), so those tests check the claim's
inequalities and an independent closed form derived in the test.
"""

import itertools
import random
from fractions import Fraction
from math import comb

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactpml import Distribution, InexactInput, InvalidArgument, LogValue, Mechanism, Undecided
from exactpml import strategies as xst
from exactpml.partial_knowledge import (
    BOTTOM,
    CountingMechanism,
    KnownCount,
    PartialKnowledge,
    apkdp_delta,
    apkdp_epsilon,
    arithmetic_mean,
    check_reducibility_map,
    count_numerators,
    counting_query,
    example_7,
    fixed_versus_other_records,
    geometric_mean,
    harmonic_mean,
    is_apkdp,
    is_ppkdp,
    knowledge_delta,
    knowledge_deltas,
    knowledge_laws,
    linear_query,
    partial_knowledge_plrv,
    ppkdp_delta,
    ppkdp_epsilon,
    quadratic_mean,
    reducibility_not_necessary,
    referendum,
    remark_2,
    theta_reducibility,
    thresholded_counting,
)
from proofs_check.reference import partial_knowledge as bf

RATIOS = st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3), Fraction(10)])
COIN = Distribution({0: "1/2", 1: "1/2"})


def _knowledge_function(setting):
    return (
        setting.knowledge_of
        if setting.known is None
        else (lambda d: tuple(d[j] for j in setting.known))
    )


# --- Defs 56–58 against the definitions ----------------------------------------------------


@st.composite
def settings_with_mechanisms(draw, **kwargs):
    setting = draw(xst.partial_knowledge_settings(**kwargs))
    return setting, draw(xst.setting_mechanisms(setting))


@given(settings_with_mechanisms(), RATIOS)
def test_knowledge_deltas_match_the_set_form_and_the_plrv_form(pair, ratio):
    setting, mechanism = pair
    knowledge = _knowledge_function(setting)
    kernel = bf.Kernel(mechanism)
    deltas = knowledge_deltas(setting, mechanism, LogValue(ratio))
    reference = bf.active_and_passive(
        setting.records,
        kernel,
        knowledge,
        setting.target,
        setting.value,
        setting.alternative,
        ratio,
    )[2]
    assert deltas == reference
    for b, delta in deltas.items():
        p = bf.conditional_output(
            setting.records, kernel, knowledge, setting.target, setting.value, b
        )
        q = bf.conditional_output(
            setting.records, kernel, knowledge, setting.target, setting.alternative, b
        )
        assert delta == bf.delta_by_plrv(p, q, ratio)


@given(settings_with_mechanisms(), RATIOS)
def test_reversed_knowledge_deltas_are_the_order_t_prime_t(pair, ratio):
    setting, mechanism = pair
    kernel = bf.Kernel(mechanism)
    reversed_deltas = knowledge_deltas(setting, mechanism, LogValue(ratio), reverse=True)
    reference = bf.active_and_passive(
        setting.records,
        kernel,
        _knowledge_function(setting),
        setting.target,
        setting.alternative,
        setting.value,
        ratio,
    )[2]
    assert reversed_deltas == reference
    for b, delta in reversed_deltas.items():
        assert knowledge_delta(setting, mechanism, LogValue(ratio), b, reverse=True) == delta


@given(settings_with_mechanisms(), RATIOS)
def test_apkdp_and_ppkdp_deltas_match_the_definitions(pair, ratio):
    # Defs 57/58 quantify over every t ≠ t': the δ's are maxima over (t, t') and (t', t).
    setting, mechanism = pair
    kernel = bf.Kernel(mechanism)
    per_order = {
        order: bf.active_and_passive(
            setting.records,
            kernel,
            _knowledge_function(setting),
            setting.target,
            *order,
            ratio,
        )
        for order in bf.ordered_values(setting)
    }
    active = max(values[0] for values in per_order.values())
    passive = max(values[1] for values in per_order.values())
    assert active == bf.apkdp_by_definition(setting, mechanism, ratio)
    assert passive == bf.ppkdp_by_definition(setting, mechanism, ratio)
    result = apkdp_delta(setting, mechanism, LogValue(ratio))
    assert result.delta == active
    assert result.order is not None and result.by_order is not None
    assert per_order[result.order][2][result.knowledge] == active
    assert {order: dict(deltas) for order, deltas in result.by_order.items()} == {
        order: values[2] for order, values in per_order.items()
    }
    laws = knowledge_laws(setting, mechanism)
    p, q = laws.pair(result.knowledge).laws()
    if result.order != (setting.value, setting.alternative):
        p, q = q, p
    assert result.event is not None
    event_value = sum((p[o] - ratio * q[o] for o in result.event), Fraction(0))
    assert event_value == active
    assert ppkdp_delta(setting, mechanism, LogValue(ratio)) == passive
    for orders, order in (("given", (setting.value, setting.alternative)), ("reversed", None)):
        order = order or (setting.alternative, setting.value)
        one = apkdp_delta(setting, mechanism, LogValue(ratio), orders=orders)
        assert one.delta == per_order[order][0] and one.order == order
        assert (
            ppkdp_delta(setting, mechanism, LogValue(ratio), orders=orders) == per_order[order][1]
        )
    # Thm 1: APKDP => PPKDP with the same (ε, δ).
    assert passive <= active
    assert is_apkdp(setting, mechanism, LogValue(ratio), active)
    assert is_ppkdp(setting, mechanism, LogValue(ratio), passive)
    if active > 0:
        assert not is_apkdp(setting, mechanism, LogValue(ratio), active / 2)
    if passive > 0:
        assert not is_ppkdp(setting, mechanism, LogValue(ratio), passive / 2)


def test_one_order_can_hide_the_privacy_loss():
    # Remark 2's instance at e^ε = 3: the order (No, Yes) alone gives δ_PPK = 1/4, the order
    # (Yes, No) gives 1/2 (δ_A(b) = 1/2 for both b): PPKDP's δ is 1/2.  With the Yes count
    # released iff > 1, knowing No: the target's Yes gives ⊥ or 2 (1/2 each), its No always ⊥.
    setting, mechanism = remark_2()
    three = LogValue(3)
    assert ppkdp_delta(setting, mechanism, three, orders="given") == Fraction(1, 4)
    assert ppkdp_delta(setting, mechanism, three, orders="reversed") == Fraction(1, 2)
    assert ppkdp_delta(setting, mechanism, three) == Fraction(1, 2)
    assert not is_ppkdp(setting, mechanism, three, Fraction(1, 4))
    assert is_ppkdp(setting, mechanism, three, Fraction(1, 4), orders="given")
    with pytest.raises(InvalidArgument, match="orders="):
        apkdp_delta(setting, mechanism, three, orders="forward")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="reverse="):
        knowledge_deltas(setting, mechanism, three, reverse=1)  # type: ignore[arg-type]


@given(settings_with_mechanisms())
def test_plrv_matches_the_ratio_of_conditional_laws(pair):
    setting, mechanism = pair
    knowledge = _knowledge_function(setting)
    kernel = bf.Kernel(mechanism)
    for b in knowledge_laws(setting, mechanism).knowledge_values:
        p = bf.conditional_output(
            setting.records, kernel, knowledge, setting.target, setting.value, b
        )
        q = bf.conditional_output(
            setting.records, kernel, knowledge, setting.target, setting.alternative, b
        )
        for o in mechanism.outputs:
            if p[o] == 0 and q[o] == 0:
                with pytest.raises(InvalidArgument, match="PLRV is undefined"):
                    partial_knowledge_plrv(setting, mechanism, o, b)
            elif q[o] == 0:
                assert partial_knowledge_plrv(setting, mechanism, o, b).is_infinite
            else:
                assert partial_knowledge_plrv(setting, mechanism, o, b).ratio == p[o] / q[o]


@given(settings_with_mechanisms())
def test_minimal_epsilon_for_delta_zero_is_tight_for_both_notions(pair):
    # Thm 1: for δ = 0 APKDP and PPKDP coincide; the smallest ε is max_{b,o} L(o, b).
    setting, mechanism = pair
    result = apkdp_epsilon(setting, mechanism)
    assert ppkdp_epsilon(setting, mechanism) == result.epsilon
    reference = bf.epsilon_by_definition(setting, mechanism)
    assert result.epsilon == (LogValue.infinity() if reference is None else LogValue(reference))
    if result.epsilon.is_infinite:
        big = LogValue(10**9)
        assert apkdp_delta(setting, mechanism, big).delta > 0
        assert ppkdp_delta(setting, mechanism, big) > 0
        return
    ratio = result.epsilon.ratio
    assert apkdp_delta(setting, mechanism, LogValue(ratio)).delta == 0
    assert ppkdp_delta(setting, mechanism, LogValue(ratio)) == 0
    if ratio > 1:
        below = LogValue((1 + ratio) / 2)
        assert apkdp_delta(setting, mechanism, below).delta > 0
        assert ppkdp_delta(setting, mechanism, below) > 0


@given(xst.partial_knowledge_settings(knowledge=("known",)), st.data(), RATIOS)
def test_full_knowledge_is_classical_dp(setting, data, ratio):
    # pk.full_knowledge: with B = D_{-i}, δ_APK is classical DP's δ over the neighbours
    # (t, d_{-i}) ~ (t', d_{-i}) with d_{-i} possible.
    full = PartialKnowledge.full_knowledge(
        setting.records, target=setting.target, value=setting.value, alternative=setting.alternative
    )
    mechanism = data.draw(xst.setting_mechanisms(full))
    others = list(
        itertools.product(*(r.support for j, r in enumerate(full.records) if j != full.target))
    )
    expected = max(
        bf.classical_delta(mechanism, ratio, full.target, t, t_prime, others)
        for t, t_prime in bf.ordered_values(full)
    )
    assert apkdp_delta(full, mechanism, LogValue(ratio)).delta == expected
    for rest in others:
        b = rest
        d = (*rest[: full.target], full.value, *rest[full.target :])
        d2 = (*rest[: full.target], full.alternative, *rest[full.target :])
        for o in mechanism.outputs:
            p, q = mechanism.probability(d, o), mechanism.probability(d2, o)
            if q:
                # The PLRV with full knowledge is the classical PLRV.
                assert partial_knowledge_plrv(full, mechanism, o, b).ratio == p / q


# --- the sufficient-statistic path against enumeration -------------------------------------


@st.composite
def counting_instances(draw):
    setting = draw(
        xst.partial_knowledge_settings(
            min_records=1, max_records=4, binary=True, knowledge=("known",)
        )
    )
    return setting, draw(xst.count_release_mechanisms(setting.size))


@given(counting_instances(), RATIOS)
def test_count_path_equals_enumeration(instance, ratio):
    setting, mechanism = instance
    by_count = knowledge_laws(setting, mechanism, method="count")
    by_enumeration = knowledge_laws(setting, mechanism, method="enumerate")
    epsilon = LogValue(ratio)
    enumerated = knowledge_deltas(setting, by_enumeration, epsilon)
    for b, delta in enumerated.items():
        assert knowledge_delta(setting, by_count, epsilon, b) == delta
        assert by_count.weight(KnownCount(sum(b))) == sum(
            (by_enumeration.weight(c) for c in enumerated if sum(c) == sum(b)), Fraction(0)
        )
    assert (
        apkdp_delta(setting, by_count, epsilon).delta
        == apkdp_delta(setting, by_enumeration, epsilon).delta
    )
    assert ppkdp_delta(setting, by_count, epsilon) == ppkdp_delta(setting, by_enumeration, epsilon)
    assert (
        apkdp_epsilon(setting, by_count).epsilon == apkdp_epsilon(setting, by_enumeration).epsilon
    )


@given(st.lists(st.fractions(0, 1, max_denominator=12), max_size=8))
def test_count_numerators_are_the_poisson_binomial_law(probabilities):
    numerators, denominator = count_numerators(probabilities)
    expected = [Fraction(0)] * (len(probabilities) + 1)
    for outcome in itertools.product((0, 1), repeat=len(probabilities)):
        weight = Fraction(1)
        for p, x in zip(probabilities, outcome, strict=True):
            weight *= p if x else 1 - p
        expected[sum(outcome)] += weight
    assert [Fraction(n, denominator) for n in numerators] == expected


# --- Prop 25: post-processing and convexity ------------------------------------------------


@given(settings_with_mechanisms(), st.data(), RATIOS)
def test_post_processing_never_increases_the_deltas(pair, data, ratio):
    setting, mechanism = pair
    kernel = data.draw(xst.mechanisms(inputs=mechanism.outputs, max_outputs=3))
    processed = mechanism.post_process(kernel)
    epsilon = LogValue(ratio)
    before, after = (
        knowledge_deltas(setting, mechanism, epsilon),
        knowledge_deltas(setting, processed, epsilon),
    )
    assert all(after[b] <= before[b] for b in before)
    assert (
        apkdp_delta(setting, processed, epsilon).delta
        <= apkdp_delta(setting, mechanism, epsilon).delta
    )
    assert ppkdp_delta(setting, processed, epsilon) <= ppkdp_delta(setting, mechanism, epsilon)


@given(settings_with_mechanisms(), st.data(), RATIOS, st.fractions(0, 1, max_denominator=7))
def test_mixtures_are_convex_in_the_deltas(pair, data, ratio, weight):
    setting, first = pair
    second = data.draw(xst.setting_mechanisms(setting))
    mixed = first.mixture(second, weight)
    epsilon = LogValue(ratio)
    d1, d2, dm = (knowledge_deltas(setting, m, epsilon) for m in (first, second, mixed))
    assert all(dm[b] <= weight * d1[b] + (1 - weight) * d2[b] for b in dm)
    assert ppkdp_delta(setting, mixed, epsilon) <= weight * ppkdp_delta(setting, first, epsilon) + (
        1 - weight
    ) * ppkdp_delta(setting, second, epsilon)
    assert (
        apkdp_delta(setting, mixed, epsilon).delta
        <= weight * apkdp_delta(setting, first, epsilon).delta
        + (1 - weight) * apkdp_delta(setting, second, epsilon).delta
    )


@given(counting_instances(), st.data(), st.fractions(0, 1, max_denominator=5))
def test_counting_post_processing_and_mixture_match_their_kernels(instance, data, weight):
    setting, mechanism = instance
    outputs = mechanism.as_mechanism(setting.records).outputs
    kernel = data.draw(xst.mechanisms(inputs=outputs, max_outputs=3))
    explicit = mechanism.as_mechanism(setting.records)
    assert mechanism.post_process(kernel).as_mechanism(setting.records) == explicit.post_process(
        kernel
    )
    other = data.draw(xst.count_release_mechanisms(setting.size))
    other_explicit = other.as_mechanism(setting.records)
    assert mechanism.mixture(other, weight).as_mechanism(setting.records) == explicit.mixture(
        other_explicit, weight
    )


# --- Θ-reducibility (Def 59, Thm 2, Prop 26) -----------------------------------------------


@given(settings_with_mechanisms(max_records=3))
def test_reducibility_decision_matches_brute_force_and_returns_checked_maps(pair):
    setting, mechanism = pair
    result = theta_reducibility(setting, mechanism)
    laws = result.laws
    values = laws.knowledge_values
    for b1, b2 in itertools.product(values, repeat=2):
        p1, q1 = (d.as_dict() for d in laws.pair(b1).laws())
        p2, q2 = (d.as_dict() for d in laws.pair(b2).laws())
        exists = bf.has_injective_map(p1, q1, p2, q2)
        same_class = any(b1 in c and b2 in c for c in result.classes)
        assert exists == same_class
        if exists:
            phi = result.output_map(b1, b2)
            assert check_reducibility_map(setting, laws, b1, b2, phi)
    assert result.holds == (len(result.classes) == 1)
    if result.holds:
        # Thm 2: δ_A(b) is the same for every b, so APKDP ⇔ PPKDP.
        for ratio in (Fraction(1), Fraction(2)):
            deltas = set(knowledge_deltas(setting, mechanism, LogValue(ratio)).values())
            assert len(deltas) == 1
            assert apkdp_delta(setting, mechanism, LogValue(ratio)).delta == ppkdp_delta(
                setting, mechanism, LogValue(ratio)
            )
    else:
        example = result.counterexample
        assert example is not None
        p1, q1 = (d.as_dict() for d in laws.pair(example.first).laws())
        p2, q2 = (d.as_dict() for d in laws.pair(example.second).laws())
        assert not bf.has_injective_map(p1, q1, p2, q2)


POSITIVE = st.sampled_from([1, 2, 3, 4, Fraction(1, 2)])


@st.composite
def numeric_settings(draw):
    size = draw(st.integers(2, 4))
    records = []
    for _ in range(size):
        values = draw(st.lists(POSITIVE, min_size=2, max_size=3, unique=True))
        records.append(draw(xst.distributions(outcomes=values, full_support=True)))
    target = draw(st.integers(0, size - 1))
    t, t_prime = draw(
        st.lists(st.sampled_from(records[target].outcomes), min_size=2, max_size=2, unique=True)
    )
    others = [j for j in range(size) if j != target]
    known = draw(st.lists(st.sampled_from(others), min_size=1, unique=True))
    return PartialKnowledge(records, target=target, value=t, alternative=t_prime, known=known)


QUERIES = {
    "count": lambda n: counting_query(lambda v: v >= 2),
    "linear": lambda n: linear_query([Fraction(k + 1, 3) * (-1) ** k for k in range(n)]),
    "arithmetic_mean": lambda n: arithmetic_mean(),
    "geometric_mean": lambda n: geometric_mean(),
    "harmonic_mean": lambda n: harmonic_mean(),
    "quadratic_mean": lambda n: quadratic_mean(),
}


@pytest.mark.parametrize("kind", sorted(QUERIES))
@given(setting=numeric_settings())
def test_prop_26_maps_are_checked_bijections(kind, setting):
    # pk.prop_26: the query is Θ-reducible and the thesis's φ is a valid map for every pair.
    query = QUERIES[kind](setting.size)
    mechanism = query.mechanism(setting.records)
    result = theta_reducibility(setting, mechanism)
    assert result.holds
    values = result.laws.knowledge_values
    for b1, b2 in itertools.product(values, repeat=2):
        phi = query.output_map(setting, b1, b2)
        check = check_reducibility_map(setting, result.laws, b1, b2, phi)
        assert check, check.defect


def test_a_wrong_map_is_refused_with_the_reason():
    setting = PartialKnowledge([COIN] * 3, target=0, value=0, alternative=1, known=[1])
    mechanism = counting_query().mechanism(setting.records)
    check = check_reducibility_map(setting, mechanism, (0,), (1,), lambda o: o)
    assert not check
    assert "P[" in check.defect
    noninjective = check_reducibility_map(setting, mechanism, (0,), (1,), lambda o: 1)
    assert "not injective" in noninjective.defect


def test_thresholded_counting_is_not_reducible_with_a_counterexample():
    # pk.remark_2: under b = No the law (P[⊥|No], P[⊥|Yes]) = (1, 1/2) has no partner under
    # b = Yes, where ⊥ has law (1/2, 0) (hand computation: one unknown fair vote).
    setting, mechanism = remark_2()
    result = theta_reducibility(setting, mechanism)
    assert not result.holds
    example = result.counterexample
    assert example.law == (Fraction(1), Fraction(1, 2))
    assert example.output == BOTTOM
    assert (example.count_first, example.count_second) == (1, 0)
    with pytest.raises(InvalidArgument, match="no injective φ"):
        result.output_map(("No",), ("Yes",))
    enumerated = theta_reducibility(setting, knowledge_laws(setting, mechanism, method="enumerate"))
    assert not enumerated.holds


def test_reducibility_is_sufficient_but_not_necessary():
    # pk.thm_2: δ_A ≡ 0 (M ignores D(i)) for every ε, yet the laws under b = 0 (two outputs
    # of mass 1/2) and b = 1 (one output of mass 1) admit no φ.
    setting, mechanism = reducibility_not_necessary()
    for epsilon in (LogValue(1), LogValue(2), LogValue(Fraction(1, 1))):
        assert set(knowledge_deltas(setting, mechanism, epsilon).values()) == {0}
    result = theta_reducibility(setting, mechanism)
    assert not result.holds
    assert result.counterexample.law == (Fraction(1, 2), Fraction(1, 2))
    assert apkdp_epsilon(setting, mechanism).epsilon == 0


def test_knowing_one_fixed_record_depends_on_which_record():
    # pk.prop_26 (last paragraph): hand computation.  Exact count, t = No, t' = Yes; the
    # unknown record is Yes w.p. q.  Outputs k + c under t and k + 1 + c under t', so
    # δ_A = (1 − q) + max(0, q − e^ε (1 − q)): 9/10 for q = 1/10 (record 2 unknown) and
    # 1/2 for q = 1/2 (record 1 unknown), for every e^ε ≥ 1.
    first, second, count = fixed_versus_other_records()
    for ratio in (Fraction(1), Fraction(3)):
        assert set(knowledge_deltas(first, count, LogValue(ratio)).values()) == {Fraction(9, 10)}
        assert set(knowledge_deltas(second, count, LogValue(ratio)).values()) == {Fraction(1, 2)}
    assert theta_reducibility(first, count).holds and theta_reducibility(second, count).holds


# --- Remark 2 and Example 7 ----------------------------------------------------------------


def test_remark_2_deltas_match_claims():
    # CLAIMS.md pk.remark_2: δ_A(No) = max(0, 1 − e^ε/2), δ_A(Yes) = 1/2.
    setting, mechanism = remark_2()
    epsilon = sympy.Symbol("epsilon", nonnegative=True)
    deltas = knowledge_deltas(setting, mechanism, epsilon)
    assert deltas[KnownCount(1)] == Fraction(1, 2)
    assert sympy.simplify(deltas[KnownCount(0)] - sympy.Max(0, 1 - sympy.exp(epsilon) / 2)) == 0
    for ratio in (Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3)):
        assert knowledge_delta(setting, mechanism, LogValue(ratio), ("No",)) == max(
            0, 1 - ratio / 2
        )
        assert knowledge_delta(setting, mechanism, LogValue(ratio), ("Yes",)) == Fraction(1, 2)
        enumerated = knowledge_deltas(
            setting, knowledge_laws(setting, mechanism, method="enumerate"), LogValue(ratio)
        )
        assert enumerated == {("No",): max(0, 1 - ratio / 2), ("Yes",): Fraction(1, 2)}


def test_irrational_epsilon_is_certified_or_undecided():
    # ε = 1: δ_A(No) = max(0, 1 − e/2) = 0 since e > 2; δ_A(Yes) = 1/2 needs no comparison.
    setting, mechanism = remark_2()
    assert knowledge_delta(setting, mechanism, 1, ("Yes",)) == Fraction(1, 2)
    try:
        import exactpml.core.certify  # noqa: F401
    except ImportError:
        with pytest.raises(Undecided, match="certify"):
            knowledge_delta(setting, mechanism, 1, ("No",))
    else:
        assert knowledge_delta(setting, mechanism, 1, ("No",)) == 0
        # ε = 1/2: δ_A(No) = 1 − e^{1/2}/2 ≈ 0.18 stays exact; the maximum over b is the
        # rational 1/2 (certified comparison), and δ_PPK = (1 − e^{1/2}/2)/2 + 1/4.
        half = sympy.Rational(1, 2)
        deltas = knowledge_deltas(setting, mechanism, half)
        assert sympy.simplify(sympy.sympify(deltas[KnownCount(0)]) - (1 - sympy.exp(half) / 2)) == 0
        active = apkdp_delta(setting, mechanism, half, orders="given")
        assert active.delta == Fraction(1, 2) and active.knowledge == KnownCount(1)
        passive = sympy.sympify(ppkdp_delta(setting, mechanism, half, orders="given"))
        assert sympy.simplify(passive - (sympy.Rational(3, 4) - sympy.exp(half) / 4)) == 0
        assert is_ppkdp(setting, mechanism, half, "34/100", orders="given")
        assert not is_ppkdp(setting, mechanism, half, "33/100", orders="given")
        # Both orders (Defs 57/58): (Yes, No) has δ_A ≡ 1/2, so the maximum 1/2 (certified
        # comparison with 3/4 - e^{1/2}/4 ≈ 0.338).
        assert ppkdp_delta(setting, mechanism, half) == Fraction(1, 2)
        assert not is_ppkdp(setting, mechanism, half, "34/100")
    # ε = log(3/2) written as a sympy log: e^ε = 3/2 exactly, so δ_A(No) = 1/4, no numerics.
    assert knowledge_delta(
        setting, mechanism, sympy.log(sympy.Rational(3, 2)), ("No",)
    ) == Fraction(1, 4)


def test_example_7_small_scale_enumeration_equals_count_and_hand_values():
    # 12 voters, 4 known, threshold 3, p = 1/10, e^ε = 3, C ~ Bin(7, 1/10) the unknown votes.
    # Order (No, Yes): with k known Yes the target's No/Yes shifts the count by one; for
    # c ≥ 1, P[C=c]/P[C=c−1] ≤ 7/9 < 3, so only ⊥ (k = 3) or the smallest count (k = 4)
    # contributes, each (9/10)^7; k ≤ 2 contributes nothing.  Order (Yes, No): the count k+1+C
    # under Yes against k+C under No: δ_A(k) = Σ_{j ≥ m} max(0, b(j) − 3 b(j+1)), m = max(0,
    # 3 − k) (⊥ contributes nothing: it is likelier under No).
    enumerated = example_7(12, 4, 3, "1/10", method="enumerate")
    counted = example_7(12, 4, 3, "1/10")
    p = Fraction(1, 10)
    b = [comb(7, j) * p**j * (1 - p) ** (7 - j) for j in range(8)] + [Fraction(0)]
    forward = {k: ((1 - p) ** 7 if k >= 3 else Fraction(0)) for k in range(5)}
    backward = {
        k: sum(
            (max(Fraction(0), b[j] - 3 * b[j + 1]) for j in range(max(0, 3 - k), 8)), Fraction(0)
        )
        for k in range(5)
    }
    known = [comb(4, k) * p**k * (1 - p) ** (4 - k) for k in range(5)]
    for order, hand in ((("No", "Yes"), forward), (("Yes", "No"), backward)):
        for result in (enumerated, counted):
            one = result.orders[order]
            for key, value in one.by_known_count.items():
                k = key.count if isinstance(key, KnownCount) else key.count("Yes")
                assert value == hand[k]
            assert one.delta_apk == max(hand.values())
            assert one.delta_ppk == sum((known[k] * hand[k] for k in hand), Fraction(0))
    assert counted.delta_apk == enumerated.delta_apk == (1 - p) ** 7
    assert counted.worst == KnownCount(3) and counted.worst_order == ("No", "Yes")
    passive = sum((known[k] * backward[k] for k in backward), Fraction(0))
    assert counted.delta_ppk == enumerated.delta_ppk == passive
    assert counted.ppk_order == ("Yes", "No")
    assert counted.by_known_count == {KnownCount(k): max(forward[k], backward[k]) for k in range(5)}
    assert counted.delta_apk >= Fraction(1, 2) * Fraction(9, 10)  # APKDP ≫ PPKDP here too
    assert counted.delta_ppk < counted.delta_apk / 10


def test_example_7_at_the_thesis_scale():
    # pk.ex_7 (CLAIMS.md: p = 10^-4, e^ε = 3): max_b δ_A(b) ≥ 1/2 while δ_PPK < 10^-100, both
    # maxima over the orders (No, Yes) and (Yes, No).  Closed forms, ρ = 899p/(1−p) < 1/3:
    # (No, Yes): only k = 100 known Yes contributes, through ⊥, with b(0) = (1 − p)^899;
    # (Yes, No): δ_A(k) = P[C ≥ m] − 3 P[C ≥ m+1], m = max(0, 100 − k), every term positive;
    # at k = 100, 3 b(0) − 2 ≈ 0.742; averaged, ≈ 5.24e-261 (k = 0 dominates).
    result = example_7()
    p = Fraction(1, 10**4)
    b0 = (1 - p) ** 899
    assert result.orders["No", "Yes"].delta_apk == b0
    assert result.orders["No", "Yes"].delta_ppk == p**100 * b0
    assert result.orders["Yes", "No"].delta_apk == 3 * b0 - 2
    assert result.delta_apk == b0
    assert result.worst == KnownCount(100) and result.worst_order == ("No", "Yes")
    assert result.ppk_order == ("Yes", "No")
    assert result.delta_ppk == result.orders["Yes", "No"].delta_ppk
    assert Fraction(524, 10**263) < result.delta_ppk < Fraction(525, 10**263)
    assert result.delta_apk >= Fraction(1, 2)
    assert Fraction(1, 10**300) < result.delta_ppk < Fraction(1, 10**100)
    assert "δ_PPK = 5.24309e-261" in result.report()


def test_referendum_knowledge_values_may_be_given_as_tuples():
    setting, mechanism = referendum(12, 4, "1/10", threshold=3)
    laws = knowledge_laws(setting, mechanism)
    assert laws.resolve(("Yes", "No", "Yes", "Yes")) == KnownCount(3)
    assert (
        knowledge_delta(setting, laws, LogValue(3), ("Yes", "No", "Yes", "Yes"))
        == Fraction(9, 10) ** 7
    )


def test_symbolic_record_probabilities_work_by_enumeration():
    p = sympy.Symbol("p", positive=True)
    vote = Distribution({0: 1 - p, 1: p})
    setting = PartialKnowledge([vote] * 3, target=0, value=0, alternative=1, known=[1])
    count = thresholded_counting(1)
    deltas = knowledge_deltas(
        setting, knowledge_laws(setting, count, method="enumerate"), LogValue(3)
    )
    # Hand computation: with b = 1, ⊥ has law (1 − p, 0), so δ_A(1) ≥ 1 − p.
    assert sympy.simplify(sympy.sympify(deltas[(1,)]).subs(p, sympy.Rational(1, 2))) == Fraction(
        1, 2
    )


# --- bad input -------------------------------------------------------------------------------

VOTE = Distribution({"No": "9/10", "Yes": "1/10"})


def _random_knowledge(d):
    return random.random()


BAD = [
    (
        "records_not_a_sequence",
        lambda: PartialKnowledge(VOTE, target=0, value="No", alternative="Yes"),
        InvalidArgument,
        ["records"],
    ),
    (
        "records_empty",
        lambda: PartialKnowledge([], target=0, value="No", alternative="Yes"),
        InvalidArgument,
        ["records", "no records"],
    ),
    (
        "record_not_a_distribution",
        lambda: PartialKnowledge([VOTE, {"No": 1}], target=0, value="No", alternative="Yes"),
        InvalidArgument,
        ["records[1]"],
    ),
    (
        "target_outside",
        lambda: PartialKnowledge([VOTE] * 3, target=3, value="No", alternative="Yes"),
        InvalidArgument,
        ["target=3", "outside"],
    ),
    (
        "target_not_int",
        lambda: PartialKnowledge([VOTE] * 3, target="0", value="No", alternative="Yes"),
        InvalidArgument,
        ["target="],
    ),
    (
        "t_equals_t_prime",
        lambda: PartialKnowledge([VOTE] * 3, target=0, value="No", alternative="No"),
        InvalidArgument,
        ["alternative='No'", "differ"],
    ),
    (
        "value_not_in_alphabet",
        lambda: PartialKnowledge([VOTE] * 3, target=0, value="Maybe", alternative="Yes"),
        InvalidArgument,
        ["value='Maybe'"],
    ),
    (
        "value_with_probability_zero",
        lambda: PartialKnowledge(
            [Distribution({"No": 1, "Yes": 0})] * 2, target=0, value="No", alternative="Yes"
        ),
        InvalidArgument,
        ["alternative='Yes'", "probability 0"],
    ),
    (
        "known_contains_target",
        lambda: PartialKnowledge([VOTE] * 3, target=0, value="No", alternative="Yes", known=[0, 1]),
        InvalidArgument,
        ["known", "contains the target"],
    ),
    (
        "known_outside",
        lambda: PartialKnowledge([VOTE] * 3, target=0, value="No", alternative="Yes", known=[5]),
        InvalidArgument,
        ["known", "index 5"],
    ),
    (
        "known_repeated",
        lambda: PartialKnowledge([VOTE] * 3, target=0, value="No", alternative="Yes", known=[1, 1]),
        InvalidArgument,
        ["known", "repeats"],
    ),
    (
        "known_and_knowledge",
        lambda: PartialKnowledge(
            [VOTE] * 3, target=0, value="No", alternative="Yes", known=[1], knowledge=lambda d: 0
        ),
        InvalidArgument,
        ["known=", "knowledge="],
    ),
    (
        "knowledge_not_a_function",
        lambda: PartialKnowledge(
            [VOTE] * 3, target=0, value="No", alternative="Yes", knowledge=_random_knowledge
        ),
        InvalidArgument,
        ["knowledge must be a function of the database"],
    ),
    (
        "knowledge_not_callable",
        lambda: PartialKnowledge([VOTE] * 3, target=0, value="No", alternative="Yes", knowledge=42),
        InvalidArgument,
        ["knowledge must be a Mechanism or a callable", "knowledge=42"],
    ),
    (
        "knowledge_raises",
        lambda: PartialKnowledge(
            [VOTE] * 3, target=0, value="No", alternative="Yes", knowledge=lambda d: d[7]
        ),
        InvalidArgument,
        ["knowledge raised IndexError"],
    ),
    (
        "knowledge_mapping_incomplete",
        lambda: PartialKnowledge(
            [VOTE] * 2, target=0, value="No", alternative="Yes", knowledge={("No", "No"): 0}
        ),
        InvalidArgument,
        ["knowledge", "no value for database"],
    ),
    (
        "knowledge_randomized_kernel",
        lambda: PartialKnowledge(
            [VOTE] * 2,
            target=0,
            value="No",
            alternative="Yes",
            knowledge=Mechanism(
                {d: {0: "1/2", 1: "1/2"} for d in itertools.product(["No", "Yes"], repeat=2)}
            ),
        ),
        InvalidArgument,
        ["knowledge must be a function", "randomized"],
    ),
    (
        "knowledge_dependent_on_target",
        lambda: PartialKnowledge(
            [VOTE] * 3, target=1, value="No", alternative="Yes", knowledge=lambda d: d[1] == d[2]
        ),
        InvalidArgument,
        ["independent of D(1)", "standing assumption"],
    ),
    (
        "epsilon_float",
        lambda: knowledge_deltas(*remark_2(), 0.5),
        InexactInput,
        ["epsilon", "float"],
    ),
    (
        # δ_A(b) is a divergence and accepts ε < 0; the predicates require ε ≥ 0
        "epsilon_negative",
        lambda: is_apkdp(*remark_2(), -1, 0),
        InvalidArgument,
        ["epsilon=-1", "negative"],
    ),
    (
        "epsilon_ratio_below_one",
        lambda: is_ppkdp(*remark_2(), LogValue(Fraction(1, 2)), 0),
        InvalidArgument,
        ["epsilon", "below 1"],
    ),
    (
        "delta_negative",
        lambda: is_apkdp(*remark_2(), LogValue(2), "-1/2"),
        InvalidArgument,
        ["delta=-1/2"],
    ),
    (
        "knowledge_value_impossible",
        lambda: knowledge_delta(*remark_2(), LogValue(2), ("Maybe",)),
        InvalidArgument,
        ["knowledge=('Maybe',)"],
    ),
    (
        "knowledge_value_wrong_length",
        lambda: knowledge_delta(*remark_2(), LogValue(2), ("No", "No")),
        InvalidArgument,
        ["knowledge=('No', 'No')", "1 known"],
    ),
    (
        "mechanism_missing_rows",
        lambda: knowledge_deltas(
            PartialKnowledge([COIN] * 2, target=0, value=0, alternative=1),
            Mechanism({(0, 0): {"a": 1}}),
            LogValue(2),
        ),
        InvalidArgument,
        ["mechanism has no row for database"],
    ),
    (
        "mechanism_wrong_type",
        lambda: knowledge_deltas(remark_2()[0], {"a": 1}, LogValue(2)),
        InvalidArgument,
        ["mechanism must be"],
    ),
    (
        "count_method_with_mechanism",
        lambda: knowledge_laws(remark_2()[0], Mechanism.identity([0]), method="count"),
        InvalidArgument,
        ["method='count'", "CountingMechanism"],
    ),
    (
        "count_method_with_function_knowledge",
        lambda: knowledge_laws(
            PartialKnowledge(
                [COIN] * 2, target=0, value=0, alternative=1, knowledge=lambda d: d[1]
            ),
            thresholded_counting(0),
            method="count",
        ),
        InvalidArgument,
        ["known= records"],
    ),
    (
        "unknown_method",
        lambda: knowledge_laws(*remark_2(), method="fast"),
        InvalidArgument,
        ["method='fast'"],
    ),
    (
        "plrv_of_impossible_output",
        lambda: partial_knowledge_plrv(*remark_2(), 7, ("No",)),
        InvalidArgument,
        ["output=7", "undefined"],
    ),
    (
        "release_returns_garbage",
        lambda: knowledge_deltas(
            PartialKnowledge([COIN] * 2, target=0, value=0, alternative=1),
            CountingMechanism(lambda c: 3),
            LogValue(2),
        ),
        InvalidArgument,
        ["release(0) returned int"],
    ),
    (
        "release_not_a_law",
        lambda: knowledge_deltas(
            PartialKnowledge([COIN] * 2, target=0, value=0, alternative=1),
            CountingMechanism(lambda c: {"a": "1/2"}),
            LogValue(2),
        ),
        InvalidArgument,
        ["count 0", "1/2"],
    ),
    (
        "predicate_needed",
        lambda: knowledge_deltas(*remark_2()[:1], CountingMechanism(lambda c: {c: 1}), LogValue(2)),
        InvalidArgument,
        ["predicate", "'No'"],
    ),
    (
        "predicate_not_bool",
        lambda: knowledge_deltas(
            PartialKnowledge([COIN] * 2, target=0, value=0, alternative=1, known=[1]),
            CountingMechanism(lambda c: {c: 1}, predicate=lambda v: v),
            LogValue(2),
        ),
        InvalidArgument,
        ["predicate returned 0"],
    ),
    ("threshold_not_int", lambda: thresholded_counting("3"), InvalidArgument, ["threshold='3'"]),
    (
        "referendum_all_known",
        lambda: referendum(3, 3, "1/2", threshold=1),
        InvalidArgument,
        ["known=3"],
    ),
    (
        "referendum_p_float",
        lambda: referendum(3, 1, 0.5, threshold=1),
        InexactInput,
        ["p", "float"],
    ),
    (
        "symbolic_records_on_count_path",
        lambda: knowledge_laws(
            PartialKnowledge(
                [
                    Distribution(
                        {
                            0: 1 - sympy.Symbol("p", positive=True),
                            1: sympy.Symbol("p", positive=True),
                        }
                    )
                ]
                * 2,
                target=0,
                value=0,
                alternative=1,
                known=[1],
            ),
            thresholded_counting(0),
            method="count",
        ),
        InvalidArgument,
        ["records[0]", "symbolic"],
    ),
    ("linear_weights_float", lambda: linear_query([0.5, 1]), InexactInput, ["weights[0]"]),
    (
        "geometric_mean_of_zero",
        lambda: geometric_mean().evaluate((0, 1)),
        InvalidArgument,
        ["record 0", "positive"],
    ),
    (
        "prop_26_map_needs_known_records",
        lambda: arithmetic_mean().output_map(
            PartialKnowledge(
                [COIN] * 2, target=0, value=0, alternative=1, knowledge=lambda d: d[1]
            ),
            (0,),
            (1,),
        ),
        InvalidArgument,
        ["known= records"],
    ),
]


@pytest.mark.parametrize(
    ("action", "error", "fragments"), [c[1:] for c in BAD], ids=[c[0] for c in BAD]
)
def test_bad_input_gets_a_clear_error(action, error, fragments):
    with pytest.raises(error) as info:
        action()
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
