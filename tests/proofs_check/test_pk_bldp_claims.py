"""The pk.* and bldp.* checks: the exact numbers they report and their reference helpers.

The generic harness (test_mutants.py) already runs every check un-mutated and every mutant;
these tests pin what it does not: the exact values the E and W evidence reports, the
hand-derived closed forms behind them, and the reference computations the checks trust.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactpml import Distribution, LogValue, Mechanism
from exactpml import strategies as xst
from exactpml.bldp import compose, parity_leakage_group_privacy
from exactpml.partial_knowledge import (
    CountingMechanism,
    KnownCount,
    PartialKnowledge,
    example_7,
    remark_2,
)
from proofs_check import CheckContext, Evidence
from proofs_check.claims.bldp import composition as bldp_composition
from proofs_check.claims.bldp import definition as bldp_definition
from proofs_check.claims.bldp import group_privacy as bldp_group_privacy
from proofs_check.claims.bldp import scenarios as bldp_scenarios
from proofs_check.claims.partial_knowledge import _common as pk_common
from proofs_check.claims.partial_knowledge import example_7 as pk_example_7
from proofs_check.claims.partial_knowledge import queries as pk_queries
from proofs_check.claims.partial_knowledge import reducibility as pk_reducibility
from proofs_check.claims.partial_knowledge import thresholded_counting as pk_thresholded
from proofs_check.reference.bldp import (
    conditionals,
    constraint_delta,
    constraint_ratio,
    distances,
    dp_conditionals,
    model_delta,
    model_epsilon,
    neighbour_pairs,
    pairs_within,
    path_within,
)
from proofs_check.reference.divergences import hockey_stick_by_plrv as plrv_form
from proofs_check.reference.divergences import hockey_stick_by_sets as set_form
from proofs_check.reference.partial_knowledge import (
    apkdp_by_definition,
    conditional_laws,
    counting_kernel,
    def_58_quantity,
    describe_setting,
    epsilon_by_definition,
    laws_by_order,
    mixed,
    ordered_values,
    post_processed,
    ppkdp_by_definition,
)

P = Fraction(1, 10_000)


def _values(evidence: Evidence) -> dict[str, str]:
    return {value.name: value.text for value in evidence.values}


def test_example_7_at_the_thesis_scale_equals_the_hand_closed_forms() -> None:
    result = example_7(epsilon=LogValue(3))
    no_yes, yes_no = ("No", "Yes"), ("Yes", "No")
    assert result.orders[no_yes].delta_apk == result.delta_apk == (1 - P) ** 899
    assert result.orders[no_yes].delta_ppk == P**100 * (1 - P) ** 899
    assert result.orders[yes_no].delta_apk == 3 * (1 - P) ** 899 - 2
    assert result.worst == KnownCount(100) and result.worst_order == no_yes
    hand = pk_example_7.hand_deltas(pk_example_7.THESIS_SCALE, Fraction(3))
    assert result.delta_ppk == hand[yes_no].passive
    assert hand == pk_example_7.simplified_closed_forms(pk_example_7.THESIS_SCALE, Fraction(3))


def test_example_7_hand_sums_give_the_small_scale_numbers() -> None:
    hand = pk_example_7.hand_deltas(pk_example_7.SMALL_SCALE, Fraction(3))
    forward, backward = hand["No", "Yes"], hand["Yes", "No"]
    b0 = Fraction(9, 10) ** 7
    assert forward.by_count == {0: 0, 1: 0, 2: 0, 3: b0, 4: b0}
    assert forward.active == b0
    assert forward.passive == Fraction(37, 10_000) * b0
    # (Yes, No), C ~ Bin(7, 1/10): δ_A(k) = Σ_{j ≥ m} max(0, b(j) - 3 b(j+1)), m = max(0, 3 - k).
    assert backward.by_count[0] == Fraction(7003, 400_000)
    assert backward.by_count[1] == backward.active == Fraction(726_199, 10_000_000)
    assert backward.passive == Fraction(911_516_359, 25_000_000_000)


def _hand_deltas_term_by_term(
    scale: pk_example_7.Scale, ratio: Fraction
) -> dict[tuple[str, str], tuple[dict[int, Fraction], Fraction, Fraction]]:
    """hand_deltas' derivation summed term by term: one Fraction per released count c > T."""
    p, unknown = scale.p, scale.voters - scale.known - 1

    def b(j: int) -> Fraction:
        return comb(unknown, j) * p**j * (1 - p) ** (unknown - j) if 0 <= j <= unknown else 0 * p

    def cdf(j: int) -> Fraction:
        return sum((b(i) for i in range(min(j, unknown) + 1)), Fraction(0))

    def plus(value: Fraction) -> Fraction:
        return max(Fraction(0), value)

    counts, t = range(scale.known + 1), scale.threshold
    released = range(t + 1, scale.voters + 1)
    tables = {
        ("No", "Yes"): {
            k: plus(cdf(t - k) - ratio * cdf(t - k - 1))
            + sum((plus(b(c - k) - ratio * b(c - k - 1)) for c in released), Fraction(0))
            for k in counts
        },
        ("Yes", "No"): {
            k: plus(cdf(t - k - 1) - ratio * cdf(t - k))
            + sum((plus(b(c - k - 1) - ratio * b(c - k)) for c in released), Fraction(0))
            for k in counts
        },
    }
    weight = {k: comb(scale.known, k) * p**k * (1 - p) ** (scale.known - k) for k in counts}
    return {
        order: (table, max(table.values()), sum((weight[k] * table[k] for k in counts), Fraction(0)))
        for order, table in tables.items()
    }


@given(
    voters=st.integers(2, 9),
    data=st.data(),
    p=st.fractions(min_value=0, max_value=1, max_denominator=12),
    ratio=st.fractions(min_value=1, max_value=4, max_denominator=6),
)
def test_example_7_hand_sums_equal_the_derivation_summed_term_by_term(
    voters: int, data: st.DataObject, p: Fraction, ratio: Fraction
) -> None:
    known = data.draw(st.integers(0, voters - 1))
    threshold = data.draw(st.integers(0, voters + 1))
    scale = pk_example_7.Scale(voters, known, threshold, p)
    hand = pk_example_7.hand_deltas(scale, ratio)
    expected = _hand_deltas_term_by_term(scale, ratio)
    assert {order: tuple(deltas) for order, deltas in hand.items()} == expected


@pytest.mark.parametrize("p", [Fraction(0), Fraction(1), Fraction(1, 2)])
def test_example_7_hand_sums_at_the_ends_of_p(p: Fraction) -> None:
    # p = 0 and p = 1 end hand_sums' recurrence b(j+1) = b(j)(U-j)a/((j+1)(d-a)) (d = a at p = 1)
    for voters, known, threshold in [(1, 0, 0), (6, 2, 3), (7, 0, 1), (5, 4, 6)]:
        scale = pk_example_7.Scale(voters, known, threshold, p)
        hand = pk_example_7.hand_deltas(scale, Fraction(2))
        expected = _hand_deltas_term_by_term(scale, Fraction(2))
        assert {order: tuple(deltas) for order, deltas in hand.items()} == expected


def test_example_7_simplified_forms_refuse_a_p_outside_their_derivation() -> None:
    scale = pk_example_7.Scale(12, 4, 3, Fraction(1, 2))
    with pytest.raises(ValueError, match="needs Up/"):
        pk_example_7.simplified_closed_forms(scale, Fraction(3))
    with pytest.raises(ValueError, match="needs b"):
        pk_example_7.simplified_closed_forms(pk_example_7.SMALL_SCALE, Fraction(3))


def test_example_7_evidence_reports_correctly_rounded_decimals() -> None:
    context = CheckContext("pk.ex_7", examples=5)
    witness, exact, apk, ppk, *strengthenings, searched = pk_example_7.ex_7(context)
    # δ_A at 100 known Yes votes is (1-p)^899 ≈ 0.914 >= 9/10 (proved), not >= 23/25 (refuted)
    assert [(item.strengthening.name, item.strengthening.status) for item in strengthenings] == [
        ("apk_nine_tenths", "not sharp"), ("apk_23_25", "sharp")
    ]
    assert witness.passed and exact.passed and searched.passed
    values = _values(witness)
    assert values["δ_APK = (9999/10000)^899 (order (No, Yes), 100 known Yes) ≈"] == "0.914018"
    assert values["δ_PPK (order (Yes, No)) ≈"] == "5.24309e-261"
    assert values["order (No, Yes) alone: δ_PPK = (1/10000)^100 (9999/10000)^899 ≈"] == (
        "9.14018e-401"
    )
    assert values["order (Yes, No): δ_APK = 3(9999/10000)^899 - 2 ≈"] == "0.742055"
    assert _values(exact)["small δ_APK = (9/10)^7 (No, Yes)"] == "4782969/10000000"
    assert apk.finding and "0.914018" in apk.summary
    assert ppk.finding and "5.24309e-261" in ppk.summary


def test_remark_2_irrational_epsilon_gives_the_closed_form() -> None:
    evidence, *searched = pk_thresholded.remark_2_check(CheckContext("pk.remark_2", examples=5))
    assert [item.kind for item in searched] == ["P", "P"] and all(i.passed for i in searched)
    values = _values(evidence)
    assert evidence.passed
    assert values["thresholded (No, Yes), ε = 1/2: δ_A(No)"] == "1 - exp(1/2)/2"
    assert values["thresholded (No, Yes), e^ε = 3: δ_A(Yes)"] == "1/2"
    # the order (Yes, No): δ_A is 1/2 for both knowledge values
    assert values["thresholded (Yes, No), ε = 1/2: δ_A(No)"] == "1/2"
    assert values["thresholded (Yes, No), e^ε = 3: δ_A(Yes)"] == "1/2"
    assert values["thresholded counting is Θ-reducible"] == "False"


def test_prop_26_reports_the_hand_computed_maps() -> None:
    exact, _, exhibits, other, searched = pk_queries.prop_26(
        CheckContext("pk.prop_26", examples=10)
    )
    assert searched.passed
    values = _values(exact)
    assert values["harmonic_mean: φ_(1),(4)(6/5)"] == "12/7"
    assert values["quadratic_mean: φ_(1),(4)(sqrt(2))"] == "sqrt(7)"
    assert values["geometric_mean: φ_(1),(4)(2**(1/3))"] == "2"
    assert exhibits.passed and other.passed


def test_the_not_necessary_counterexample_names_why_no_map_exists() -> None:
    witness = pk_reducibility._not_necessary_witness(CheckContext("pk.thm_2"))
    assert witness.passed
    assert "no injective φ" in _values(witness)["why not reducible"]


def test_plrv_form_and_set_form_agree_on_a_hand_example() -> None:
    p = {"a": Fraction(1, 2), "b": Fraction(1, 2)}
    q = {"a": Fraction(1, 4), "c": Fraction(3, 4)}
    # e^ε = 3/2: a gives 1/2 - 3/8 = 1/8, b gives 1/2 (L = +oo), c nothing.
    assert plrv_form(p, q, Fraction(3, 2)) == set_form(p, q, Fraction(3, 2)) == Fraction(5, 8)
    assert set_form(p, q, Fraction(3, 2), largest=1) == Fraction(1, 2)


def test_reference_laws_of_remark_2_are_the_hand_laws() -> None:
    setting, release = remark_2()
    kernel = release.as_mechanism(setting.records)
    laws = conditional_laws(setting, kernel)
    assert laws.weights == {("No",): Fraction(1, 2), ("Yes",): Fraction(1, 2)}
    # Known Yes: count 1 + C (t = No) vs 2 + C (t' = Yes), C ~ Bern(1/2), released iff > 1.
    assert laws.value[("Yes",)] == {"⊥": Fraction(1, 2), 2: Fraction(1, 2)}
    assert laws.alternative[("Yes",)] == {2: Fraction(1, 2), 3: Fraction(1, 2)}
    assert def_58_quantity(laws, kernel, Fraction(3)) == Fraction(1, 4)


def test_setting_description_is_exact() -> None:
    coin = Distribution({0: "1/3", 1: "2/3"})
    setting = PartialKnowledge([coin, coin], target=0, value=0, alternative=1, known=[1])
    assert describe_setting(setting) == (
        "D(0) ~ {0: 1/3, 1: 2/3}; D(1) ~ {0: 1/3, 1: 2/3}; i = 0, t = 0, t' = 1; B = records [1]"
    )


def test_bldp_definition_instances_are_the_hand_values() -> None:
    cases = {name: (got, want) for name, got, want in bldp_definition._definition_instances()}
    assert cases["half-leak: ε"][0] == LogValue(2)
    assert cases["half-leak: δ(e^ε = 3/2)"][0] == Fraction(1, 6)
    assert cases["flip-revealing: ε"][0] == LogValue.infinity()
    assert all(got == want for got, want in cases.values())


def test_reference_conditionals_of_a_one_time_pad() -> None:
    bit = Distribution({0: "1/2", 1: "1/2"})
    pad = bldp_definition.BoundedLeakageModel(
        bit, lambda x, r: x[0] ^ r, lambda x, r: r, databases=[(0,), (1,)]
    )
    laws = conditionals(pad)
    assert laws[(0,)] == {0: {0: Fraction(1)}, 1: {1: Fraction(1)}}
    assert laws[(1,)] == {0: {1: Fraction(1)}, 1: {0: Fraction(1)}}
    assert model_epsilon(laws, neighbour_pairs(pad)) == LogValue.infinity()


def test_constraint_forms_agree_with_sets() -> None:
    p = {0: Fraction(2, 3), 1: Fraction(1, 3)}
    q = {0: Fraction(1, 3), 1: Fraction(2, 3)}
    for ratio in (Fraction(1), Fraction(3, 2), Fraction(2)):
        assert constraint_delta(p, q, ratio) == constraint_delta(p, q, ratio, sets=True)
    assert constraint_ratio(p, q) == constraint_ratio(p, q, sets=True) == LogValue(2)


def test_parity_leakage_has_no_path_through_its_leakage_value() -> None:
    model = parity_leakage_group_privacy()
    laws = conditionals(model)
    assert distances(model)[(0, 0)][(1, 1)] == 2
    assert not path_within(model, laws, (0, 0), (1, 1), 0, 2)
    assert not bldp_group_privacy._path_precondition(model, laws, 2)


def test_non_participation_reports_m_times_log_2_for_both_study_counts() -> None:
    random_scenarios, sharpness, witness, shrunk = bldp_scenarios.non_participation_check(
        CheckContext("bldp.non_participation")
    )
    assert random_scenarios.kind == "P" and random_scenarios.passed
    assert shrunk.strengthening is not None and shrunk.strengthening.status == "sharp"
    assert sharpness.finding and "attained exactly" in sharpness.summary
    values = _values(witness)
    assert witness.passed
    two, three = "population 2, k = 2, α = 1/2", "population 2, k = 3, α = 1/2"
    both = "(exactpml, reference)"
    four, eight = "log(4), log(4)", "log(8), log(8)"
    assert values[f"{two}: ε given m = 2 {both}"] == values[f"{three}: ε given m = 2 {both}"] == four
    assert values[f"{three}: ε given m = 3 {both}"] == values[f"{three}: DP ε {both}"] == eight
    assert values[f"{two}: DP ε {both}"] == four
    assert values[f"{three}: exactpml's model has the definition's laws"] == "True"


def test_independence_given_the_leakage_detects_a_shared_key() -> None:
    joint = {(0,): {None: {(0, 0): Fraction(1, 2), (1, 1): Fraction(1, 2)}}}
    product = {(0,): {None: {(a, b): Fraction(1, 4) for a in (0, 1) for b in (0, 1)}}}
    assert not bldp_composition._independent_given_leakage(joint)  # type: ignore[arg-type]
    assert bldp_composition._independent_given_leakage(product)  # type: ignore[arg-type]


def test_the_reducible_construction_relabels_outputs_per_knowledge_value() -> None:
    kernel = Mechanism({(0, 0): {0: 1}, (0, 1): {1: 1}, (1, 0): {1: 1}, (1, 1): {0: 1}})
    coin = Distribution({0: "1/2", 1: "1/2"})
    setting = PartialKnowledge([coin, coin], target=0, value=0, alternative=1, known=[1])
    laws = conditional_laws(setting, kernel)
    # B = 1 swaps the outputs: φ_{0,1} = swap satisfies Def 59, the identity does not.
    assert pk_common.phi_verified(laws, (0,), (1,), {0: 1, 1: 0})
    assert not pk_common.phi_verified(laws, (0,), (1,), {0: 0, 1: 1})


def test_reference_post_processing_mixture_and_counting_kernel_by_hand() -> None:
    m = Mechanism({(0,): {"a": Fraction(1, 4), "b": Fraction(3, 4)}, (1,): {"a": 1}})
    f = Mechanism({"a": {0: Fraction(1, 2), 1: Fraction(1, 2)}, "b": {1: 1}})
    processed = post_processed(m, f)
    assert processed.probability((0,), 0) == Fraction(1, 8)
    assert processed.probability((0,), 1) == Fraction(7, 8)
    assert processed.probability((1,), 0) == Fraction(1, 2)
    both = mixed(m, Mechanism({(0,): {"c": 1}, (1,): {"c": 1}}), Fraction(1, 3))
    assert both.probability((1,), "a") == Fraction(1, 3)
    assert both.probability((1,), "c") == Fraction(2, 3)
    coin = Distribution({"No": "1/2", "Yes": "1/2"})
    count = CountingMechanism(lambda c: {c: 1}, predicate=lambda v: v == "Yes")
    kernel = counting_kernel(count, [coin, coin])
    assert kernel.probability(("Yes", "No"), 1) == 1
    assert kernel.probability(("Yes", "Yes"), 2) == 1


def test_reference_deltas_over_both_orders_on_remark_2() -> None:
    # 3 fair votes, record 1 known, release iff count > 1, e^ε = 3: (No, Yes) gives
    # δ_A(No) = 0, δ_A(Yes) = 1/2 (PPK 1/4); (Yes, No) gives δ_A ≡ 1/2 (PPK 1/2).
    coin = Distribution({"No": "1/2", "Yes": "1/2"})
    setting = PartialKnowledge([coin] * 3, target=0, value="No", alternative="Yes", known=[1])
    kernel = pk_common.thresholded_kernel(3, 1)
    three = Fraction(3)
    assert ordered_values(setting) == [("No", "Yes"), ("Yes", "No")]
    assert ppkdp_by_definition(setting, kernel, three, orders=[("No", "Yes")]) == Fraction(1, 4)
    assert ppkdp_by_definition(setting, kernel, three) == Fraction(1, 2)
    assert apkdp_by_definition(setting, kernel, three) == Fraction(1, 2)
    assert epsilon_by_definition(setting, kernel) is None  # ⊥ is impossible under Yes, known Yes


def test_count_chains_attain_the_sharp_group_privacy_bound() -> None:
    # 3 records, e^ε = 2, δ = 1/20: P[a | c] = δ Σ_{j<3-c} 2^j = 7/20, 3/20, 1/20, 0; the
    # pair at distance 2 has 7/20 - 4·1/20 = 3/20 = (1 + 2)δ, at distance 3 7/20 = (1+2+4)δ.
    model = bldp_group_privacy.chain_model(3, Fraction(2), Fraction(1, 20), leak=True)
    laws = conditionals(model)
    assert laws[(0, 0, 0)][0] == {"a": Fraction(7, 20), "b": Fraction(13, 20)}
    assert laws[(1, 1, 0)][1] == {"a": Fraction(1, 20), "b": Fraction(19, 20)}
    assert model_delta(laws, neighbour_pairs(model), Fraction(2)) == Fraction(1, 20)
    assert model_delta(laws, pairs_within(model, 2), Fraction(4)) == Fraction(3, 20)
    assert model_delta(laws, pairs_within(model, 3), Fraction(8)) == Fraction(7, 20)
    assert bldp_group_privacy.chain_delta_bound(3, Fraction(2)) == Fraction(1, 10)


def test_canonical_pairs_compose_to_one_minus_the_product() -> None:
    # Kairouz-Oh-Viswanath: (e^ε, δ) = (2, 1/10) and (3/2, 1/5) compose at e^ε = 3 to
    # 1 - (9/10)(4/5) = 7/25 < 3/10 = δ1 + δ2.
    first = bldp_composition.canonical_model(Fraction(2), Fraction(1, 10))
    second = bldp_composition.canonical_model(Fraction(3, 2), Fraction(1, 5))
    pairs = neighbour_pairs(first)
    assert model_delta(conditionals(first), pairs, Fraction(2)) == Fraction(1, 10)
    assert model_delta(conditionals(second), pairs, Fraction(3, 2)) == Fraction(1, 5)
    composed = compose(first, second, randomness="independent", leakage="joint")
    assert model_delta(conditionals(composed), pairs, Fraction(3)) == Fraction(7, 25)



def _laws_one_product_per_database(
    setting: PartialKnowledge, mechanism: Mechanism, order: tuple[Any, Any]
) -> tuple[dict[Any, Fraction], dict[Any, Any], dict[Any, Any], list[Any]]:
    """conditional_laws as written before its prefix products (the weights, the laws given t
    and t', the rows by database): each database's weight a product of fresh Fractions."""
    i = setting.target
    laws, masses, rows = {}, {}, []
    for x in order:
        joint: dict[Any, dict[Any, Fraction]] = {}
        mass: dict[Any, Fraction] = {}
        supports = [(x,) if j == i else r.support for j, r in enumerate(setting.records)]
        for database in itertools.product(*supports):
            weight = Fraction(1)
            for j, v in enumerate(database):
                if j != i:
                    weight *= Fraction(setting.records[j][v])
            b = setting.knowledge_of(database)
            mass[b] = mass.get(b, Fraction(0)) + weight
            row = joint.setdefault(b, {})
            for o, p in mechanism.row(database).items():
                if p:
                    row[o] = row.get(o, Fraction(0)) + weight * Fraction(p)
            if x == order[0]:
                rows.append((database, weight, b))
        laws[x] = {b: {o: v / mass[b] for o, v in joint[b].items()} for b in joint}
        masses[x] = mass
    return masses[order[0]], laws[order[0]], laws[order[1]], rows


def _items(laws: dict[Any, dict[Any, Fraction]]) -> list[Any]:
    return [(b, list(law.items())) for b, law in laws.items()]


@given(pk_common.settings_with_mechanism())
def test_reference_conditional_laws_equal_one_product_per_database(
    instance: tuple[PartialKnowledge, Mechanism, Fraction],
) -> None:
    setting, mechanism, ratio = instance
    # (t, t) too, where both passes list their databases
    for order in [*ordered_values(setting), (setting.value, setting.value)]:
        laws = conditional_laws(setting, mechanism, order=order)
        weights, value, alternative, rows = _laws_one_product_per_database(
            setting, mechanism, order
        )
        # the same values in the same order (by_database and every dict's keys)
        assert list(laws.weights.items()) == list(weights.items())
        assert _items(laws.value) == _items(value)
        assert _items(laws.alternative) == _items(alternative)
        assert list(laws.by_database) == rows
        # Def 58 term by term, max(0, 1 - e^ε/e^L) recomputed for every database
        expected = Fraction(0)
        for database, weight, b in rows:
            for o, m in mechanism.row(database).items():
                if m:
                    q_o = alternative[b].get(o, Fraction(0))
                    ratio_term = ratio * q_o / value[b][o] if q_o else None
                    inner = Fraction(1) if ratio_term is None else max(Fraction(0), 1 - ratio_term)
                    expected += weight * Fraction(m) * inner
        assert def_58_quantity(laws, mechanism, ratio) == expected


def _conditionals_in_fractions(model: Any, leakage: Any = None) -> dict[Any, Any]:
    """reference.bldp.conditionals as written before its integer sums: Fraction additions."""
    result = {}
    weights = [Fraction(p) for p in model.randomness.probabilities]
    for x in model.databases:
        joint: dict[Any, dict[Any, Fraction]] = {}
        for k, (weight, m, o) in enumerate(
            zip(weights, model.outputs[x], model.leakages[x], strict=True)
        ):
            if not weight:
                continue
            if leakage is not None:
                o = leakage(x, k)
            row = joint.setdefault(o, {})
            row[m] = row.get(m, Fraction(0)) + weight
        totals = {o: sum(row.values()) for o, row in joint.items()}
        result[x] = {o: {m: p / totals[o] for m, p in row.items()} for o, row in joint.items()}
    return result


def _nested_items(laws: dict[Any, Any]) -> list[Any]:
    return [(x, [(o, list(law.items())) for o, law in by_o.items()]) for x, by_o in laws.items()]


@given(xst.bounded_leakage_models())
def test_reference_bldp_conditionals_equal_the_fraction_sums(model: Any) -> None:
    # the same values in the same order, given the leakage and with it made constant
    assert _nested_items(conditionals(model)) == _nested_items(_conditionals_in_fractions(model))
    assert _nested_items(dp_conditionals(model)) == _nested_items(
        _conditionals_in_fractions(model, leakage=lambda x, k: None)
    )


@given(pk_common.settings_with_mechanism())
def test_reference_definitions_reuse_the_callers_conditional_laws(
    instance: tuple[PartialKnowledge, Mechanism, Fraction],
) -> None:
    setting, mechanism, ratio = instance
    orders = ordered_values(setting)
    computed = {order: conditional_laws(setting, mechanism, order=order) for order in orders}
    for laws in (computed, {orders[0]: computed[orders[0]]}):  # every order, or one
        assert apkdp_by_definition(setting, mechanism, ratio, laws=laws) == apkdp_by_definition(
            setting, mechanism, ratio
        )
        assert ppkdp_by_definition(setting, mechanism, ratio, laws=laws) == ppkdp_by_definition(
            setting, mechanism, ratio
        )
        assert epsilon_by_definition(setting, mechanism, laws=laws) == epsilon_by_definition(
            setting, mechanism
        )
        one = orders[1:]
        assert apkdp_by_definition(
            setting, mechanism, ratio, orders=one, laws=laws
        ) == apkdp_by_definition(setting, mechanism, ratio, orders=one)


@given(pk_common.settings_with_mechanism())
def test_reference_conditional_laws_share_each_values_enumeration(
    instance: tuple[PartialKnowledge, Mechanism, Fraction],
) -> None:
    setting, mechanism, _ = instance
    passes: dict[Any, Any] = {}
    t, other = setting.value, setting.alternative
    for order in [*ordered_values(setting), (t, t)]:  # (t, t): each database listed twice
        shared = conditional_laws(setting, mechanism, order=order, passes=passes)
        alone = conditional_laws(setting, mechanism, order=order)
        assert shared == alone
        assert [list(law.items()) for law in shared.value.values()] == [
            list(law.items()) for law in alone.value.values()
        ]
    assert set(passes) == {t, other}


@given(pk_common.settings_with_mechanism())
def test_reference_laws_by_order_are_each_orders_conditional_laws(
    instance: tuple[PartialKnowledge, Mechanism, Fraction],
) -> None:
    """laws_by_order (each value of D(i) enumerated once for every order) gives, order by
    order, what conditional_laws computes alone, in the same order of the knowledge values."""
    setting, mechanism, _ = instance
    every = [*ordered_values(setting), (setting.value, setting.value)]
    for orders in (None, every):
        by_order = laws_by_order(setting, mechanism, orders)
        assert list(by_order) == (ordered_values(setting) if orders is None else every)
        for order, laws in by_order.items():
            alone = conditional_laws(setting, mechanism, order=order)
            assert laws == alone
            assert list(laws.by_database) == list(alone.by_database)
