"""The PROVED claims of the vadhan., pk. and bldp. sources (issue 22, items 4-5).

Each claim below is run in-process at the quick profile: un-mutated it must be PROVED, with
exactly the proved parts' domains listed here (written from the sources' statements, so a
domain that silently shrinks fails), and its strengthenings must end as listed (sharp: the
engine refuted the stronger statement; not sharp: it proved it).  Under every declared
mutant the claim must FAIL, and every proof record it carries must be "refuted" (a mutant
changes the proved statement, so the prover refutes it with a certified counterexample;
none may be "proved").
"""

from __future__ import annotations

import pytest

from proofs_check import RunOptions, Verdict, run_checks
from proofs_check.registry import default_registry, load_claim_modules

load_claim_modules()

_EVENT = (
    "every pair of distributions A, B on any output space, every event T (a = Pr[A ∈ T], "
    "b = Pr[B ∈ T] in [0, 1]) and every ε >= 0"
)
_ROW = (
    "every n >= 1 and every neighbour pair (the changed row's old value held by c >= 1 rows, "
    "its new value by d >= 0 other rows, c + d <= n)"
)
_HYBRID = (
    "every mechanism on any output space, every database x of n rows, every event T (a_j = "
    "Pr[M(x^(j)) ∈ T] in [0, 1] along the hybrid path from x^(0) = 0^n to x^(n) = x) and "
    "every ε >= 0"
)
_PAIR = (
    "every pair p = Pr[M(x) = y], p' = Pr[M(x') = y] in [0, 1] with p + p' > 0 (neighbours "
    "x, x', either order)"
)
_PRIOR = (
    "every prior π on D with |D| = 3 (zeros allowed), every column p_d = Pr[M(d, x_{-i}) = y] "
    "in [0, 1] and every ε >= 0"
)

_PATH = (
    "every path x_0 ~ x_1 ~ ... ~ x_k of neighbours under which the leakage value o is "
    "possible, every event S (a_j = Pr[M(x_j) ∈ S | o] in [0, 1]), every ε >= 0 and every "
    "δ in [0, 1]"
)

PROVED = {
    "vadhan.max_divergence": [
        "every pair of distributions A, B on 3 outcomes (zeros allowed, so on at most 3) and "
        "every r >= 0"
    ] * 2,
    "vadhan.statistical_difference": [_EVENT, _EVENT, _ROW, _ROW],
    "vadhan.case_1": [
        _HYBRID + "; n = 1 (the induction's base)",
        _HYBRID + "; every n >= 1 (the induction's step n → n + 1, for every real n >= 1)",
        _HYBRID + "; every real n >= 1",
    ],
    "vadhan.claim_1": [
        "every mechanism and simulator on any output space, every pair of neighbours x, x' "
        "(row i changed), every event T (a = Pr[M(x) ∈ T], a' = Pr[M(x') ∈ T], s = "
        "Pr[S(x_{-i}) ∈ T] in [0, 1]) and every ε >= 0"
    ],
    "vadhan.prop_1": [_PRIOR, _PRIOR],
    "vadhan.prop_2": [
        _PAIR + " and every ε in [0, 1/2)",
        "every ε in [0, 1/2)",
        _PAIR + ", γ = 2·Pr[X_i = x_i | y] - 1 at the uniform prior",
        _PAIR + ", γ = 2·Pr[X_i = x_i | y] - 1 at the uniform prior",
        _PAIR + " and every g in [0, 1)",
        "every γ in (-1, 1)",
        "every γ in (-1, 1)",
    ],
    "pk.prop_8": [
        "every pair of output laws P = M(D1), Q = M(D2) of neighbours on 3 outputs, P of full "
        "support (L(O) = ln(P(O)/Q(O)) on P's support, +∞ where Q(O) = 0), and every ε ≥ 0"
    ] * 2,
    "pk.thm_1": [
        "every law β of a knowledge B with 2 values (each possible: β_b > 0), every pair of "
        "conditional output laws A_b = P[O | D(i) = t, B = b] (full support) and C_b = "
        "P[O | D(i) = t′, B = b] on 2 outputs for each b, and every ε ≥ 0"
    ] * 4,
    "pk.prop_25": [
        "every pair of conditional output laws given (t, b) and (t′, b) on 3 outputs, every "
        "kernel f to 2 outputs and every ε ≥ 0",
        *[
            "every two pairs of conditional output laws given (t, b) and (t′, b) on 2 outputs "
            "(of M1 and of M2), every λ in [0, 1] and every ε ≥ 0"
        ] * 2,
    ],
    "bldp.post_processing": [
        "every pair of conditional laws M(x) | o, M(x') | o on 3 outputs (neighbours x, x', a "
        "leakage value o possible under both), every kernel f to 2 outputs and every ε >= 0"
    ],
    "bldp.leak_release": [
        "every pair of joint laws of (M, P) under neighbours x, x' on 2 outputs × 2 leakage "
        "values, the leakage value 0 possible under both, and every ε >= 0"
    ] * 2,
    "bldp.composition": [
        "every pair of neighbours x, x' and leakage value o with M1, M2 independent given o, "
        "on any output spaces: every point (m1, m2) (p_j = Pr[M_j(x) = m_j | o], q_j = "
        "Pr[M_j(x') = m_j | o] in [0, 1]) and every ε1, ε2 >= 0; δ1 = δ2 = 0",
        "every pair of neighbours x, x' and leakage value o with M1, M2 independent given o, "
        "every conditional law of M1 and of M2 on 2 outputs (P_j = M_j(x) | o, Q_j = "
        "M_j(x') | o); ε1 = ε2 = 0",
    ],
    "bldp.group_privacy": [
        _PATH + "; every k >= 1 (the induction's step, u = e^{kε} >= 1 and G = Σ_{j<k} e^{jε} "
        ">= 0 as variables; the base k = 1 is the definition)",
        "every k >= 1 (the induction's step, u = e^{(k-1)ε} >= 1, every real k >= 1; the base "
        "k = 1 is 1 <= 1) and every ε >= 0",
        _PATH + "; k = 2",
        _PATH + "; k = 3",
        _PATH + "; k = 4",
    ],
}
"""Claim id -> the domain of each proved part, in the order the check reports them."""

STRENGTHENINGS = {
    "vadhan.statistical_difference": {
        "tanh_shrunk": "sharp", "tanh_strict": "sharp", "one_sided_strict": "sharp",
    },
    "vadhan.case_1": {"hybrid_strict": "sharp", "hybrid_shrunk": "sharp"},
    "vadhan.claim_1": {"factor_shrunk": "sharp", "one_direction": "sharp"},
    "vadhan.prop_1": {"strict": "not sharp", "shrunk": "sharp"},
    "vadhan.prop_2": {
        "sharp_constant_uniform_prior": "sharp",
        "sharp_constant_every_prior": "not sharp",
        "strict": "sharp",
    },
    "pk.thm_1": {"strict": "sharp", "possible_b_dropped": "sharp"},
    "pk.prop_25": {"post_processing_strict": "sharp", "convexity_strict": "sharp"},
    "pk.ex_7": {"apk_nine_tenths": "not sharp", "apk_23_25": "sharp"},
    "bldp.post_processing": {"strict": "sharp"},
    "bldp.composition": {"delta_strict": "not sharp"},
    "bldp.group_privacy": {"chain_sum": "not sharp", "chain_sum_shrunk": "sharp"},
    "bldp.independent_leakage": {"strictly_below_dp": "sharp"},
    "bldp.non_participation": {"loss_shrunk": "sharp"},
}
"""Claim id -> {strengthening: its status}; every declared strengthening is listed."""

MUTANTS = [
    (claim_id, mutant)
    for claim_id in PROVED
    for mutant in default_registry.get(claim_id).mutant_names  # type: ignore[union-attr]
]


def _run(claim_id: str, mutant: str | None = None):
    options = RunOptions(workers=1, profile="quick", mutant=mutant)
    (result,) = run_checks([claim_id], options=options).results
    return result


@pytest.mark.parametrize("claim_id", list(PROVED))
def test_the_claim_is_proved_over_the_stated_domains(claim_id: str) -> None:
    result = _run(claim_id)
    assert result.verdict is Verdict.PROVED, (result.verdict, result.note)
    assert [record.domain for record in result.proofs] == PROVED[claim_id]
    records = [item.proof for item in result.evidence if item.proof is not None]
    assert all(record.status == "proved" for record in records), records
    for record in result.proofs:
        assert record.engine and record.part.strip()


def test_the_share_has_at_least_seven_proved_claims_and_no_undeclared_strengthening() -> None:
    assert len(PROVED) >= 7
    for registered in default_registry.checks():
        if registered.claim.id.startswith(("vadhan.", "pk.", "bldp.")):
            declared = {name for name, _ in registered.strengthenings}
            assert declared == set(STRENGTHENINGS.get(registered.claim.id, {}))


@pytest.mark.parametrize("claim_id", list(STRENGTHENINGS))
def test_every_declared_strengthening_runs_with_the_expected_result(claim_id: str) -> None:
    registered = default_registry.get(claim_id)
    assert registered is not None
    declared = {name for name, _ in registered.strengthenings}
    assert declared == set(STRENGTHENINGS.get(claim_id, {}))
    result = _run(claim_id)
    shown = {
        item.strengthening.name: item.strengthening.status
        for item in result.evidence
        if item.strengthening is not None
    }
    assert shown == STRENGTHENINGS.get(claim_id, {})
    for item in result.evidence:
        if item.strengthening is not None and item.strengthening.status == "sharp":
            assert item.strengthening.witness.strip()
            assert not item.finding
        if item.strengthening is not None and item.strengthening.status == "not sharp":
            assert item.finding


@pytest.mark.slow
@pytest.mark.parametrize(("claim_id", "mutant"), MUTANTS, ids=[f"{c}-{m}" for c, m in MUTANTS])
def test_every_mutant_of_a_proved_claim_is_refuted_by_the_prover(
    claim_id: str, mutant: str
) -> None:
    result = _run(claim_id, mutant)
    assert result.verdict is Verdict.FAILED, (result.verdict, result.note)
    records = [item.proof for item in result.evidence if item.proof is not None]
    assert records, f"{claim_id} under {mutant} carries no proof record"
    assert all(record.status == "refuted" for record in records), [
        (record.part, record.status) for record in records
    ]
    refuted = [item for item in result.evidence if item.proof is not None]
    assert all(item.passed is False and item.counterexample for item in refuted)
    assert not any(item.strengthening is not None for item in result.evidence)
