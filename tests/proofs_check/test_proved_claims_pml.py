"""The PROVED claims of the ``pml.`` source, their mutants and every declared strengthening.

Each claim below is run in-process at the quick profile (``run_checks``): un-mutated it must
be PROVED, its proof records exactly the named parts over the stated domains (a change of a
part or a domain text is a change of what the report claims, made here on purpose); under
each of its mutants it must FAIL, and every proof record must be "refuted" (none "proved",
none "unknown"): the prover, not only the sampled evidence, tells each mutant from the claim.
Every pml check that declares strengthenings runs each of them exactly once, un-mutated
only, with the result recorded here (sharp with a witness, or a proved finding).

The expected statuses come from the mathematics, not from a run: a refuted strengthening
is sharp where a witness attains the bound (the identity, randomized response, c = 0); the
proved ones are stated in the checks' docstrings with the reason (e.g. log is concave, so
log((1-c) + c e^x) >= c x and Prop 4.6's c^2 term can be dropped).
"""

from __future__ import annotations

from functools import cache

import pytest

from proofs_check import RunOptions, Verdict, run_checks
from proofs_check.registry import default_registry, load_claim_modules
from proofs_check.verdict import ClaimResult

load_claim_modules()

pytestmark = pytest.mark.slow

_KERNELS_2 = ("every kernel P_{Y|X} with 2 inputs and any number of outputs (the column of y "
              "ranges over [0, 1]^2) at every output y with p_Y(y) > 0")
_KERNELS_3 = _KERNELS_2.replace("2 inputs", "3 inputs").replace("[0, 1]^2", "[0, 1]^3")
_SHATTERING = ("every 0 < p* <= q* <= 1 (p* = p_X(x*), q* = P_{X|Y=y}(x*) for x* maximising "
               "p(y|x) on supp P_X, so that q*/p* = exp l(X->y); every such pair occurs) and "
               "every integer K >= 1 with K >= max((1-p*)/p*, (1-q*)/q*)")
_CHAIN = (_KERNELS_2 + ", every attribute kernel P_{U|X} with 2 values both of positive "
          "probability, and every full-support prior on 2 inputs")
_FORMS = ("every 3×2 kernel P_{Y|X} whose outputs both have positive probability, every "
          "full-support prior on 3 inputs and every ε (e^ε = r > 0)")
_ALPHA = "every full-support prior on 3 inputs with x_min = 0 (every prior, by relabelling)"
_Y1 = ("l(X->1) = -log(1 - Σ_{k<=m} C(n,k)p^k(1-p)^{n-k}) <= -log(1 - exp(-n D_KL(m/n || p))) "
       "for m/n <= p")
_Y0 = ("the y = 0 twin: l(X->0) = -log Σ_{k<=m} C(n,k)p^k(1-p)^{n-k} <= -log(1 - exp(-n "
       "D_KL(1-(m+1)/n || 1-p))) for (m+1)/n >= p")
_Y1_DOMAIN = "every n <= 40 and every 1 <= m < pn (m = 0: the bound is the exact value; m = pn: it is +oo)"
_Y0_DOMAIN = ("every n <= 40 and every m with p < (m+1)/n < 1 ((m+1)/n = p: the bound is +oo; "
              "(m+1)/n = 1: 0 log 0, on the grid of the C evidence)")

PROVED: dict[str, list[tuple[str, str]]] = {
    "pml.thm_2_4": [
        ("every attribute kernel gives a ratio max_u p(u|y)/max_u p_U(u) <= exp l(X->y)",
         _KERNELS_2 + ", every attribute kernel P_{U|X} with 2 values and every full-support "
         "prior on 2 inputs"),
        ("the shattering attribute attains exp l(X->y) = q*/p* exactly once K >= "
         "max((1-p*)/p*, (1-q*)/q*): |gain - q*/p*| <= 0", _SHATTERING),
        ("when P_X lacks full support, the shattering attribute around a maximiser x* of "
         "p(y|x) on supp P_X has a ratio >= max_{x in supp P_X} p(y|x)/p_Y(y) (the supremum "
         "over attributes reaches the maximum over the support)",
         _KERNELS_3 + ", every prior (p_0, p_1, 0) with p_0, p_1 > 0, x* = 0 maximising p(y|x) "
         "on {0, 1}, every integer K >= 1 with K >= max((1-p*)/p*, (1-q*)/q*)"),
    ],
    "pml.pre_processing": [
        ("Z - X - Y implies l(Z->y) <= l(X->y)",
         _KERNELS_2 + ", every attribute kernel P_{Z|X} with 2 values both of positive "
         "probability, and every full-support prior on 2 inputs"),
        ("0 <= l(X->y)", _KERNELS_3 + " and every full-support prior on 3 inputs"),
        ("l(X->y) <= -log min_x p_X(x)", _KERNELS_3 + " and every full-support prior on 3 inputs"),
    ],
    "pml.def_2_6": [
        ("form (ii) D_inf(P_XY ‖ P_X×P_Y) <= ε implies form (iii) max_y l(X->y) <= ε", _FORMS),
        ("form (iii) max_y l(X->y) <= ε implies form (ii) D_inf(P_XY ‖ P_X×P_Y) <= ε", _FORMS),
        ("the identity mechanism attains max_y l(X->y) = log 1/p_min: |exp max_y l(X->y) - "
         "exp(log 1/p_min)| <= 0", "every full-support prior on 4 inputs"),
    ],
    "pml.thm_3_5": [
        ("(A.2) H_inf(P_{U|Y=y}) >= H_inf(P_U) - l(U->y)", _CHAIN),
        ("(A.2) H_inf(P_U) - l(U->y) >= H_inf(P_U) - l(X->y)", _CHAIN),
        ("(ε, P_X)-PML and H_inf(P_U) > ε imply U not disclosed to any full-support Q_X: "
         "max_u Q_{U|Y=y}(u) < 1",
         "every 2×2 kernel P_{Y|X} whose outputs both have positive P-probability, every "
         "attribute kernel P_{U|X} with 2 values, every full-support P_X and Q_X on 2 inputs, "
         "every ε, at every output y with q_Y(y) > 0 (y = 0; the other by relabelling)"),
    ],
    "pml.thm_3_7": [
        ("C < oo: no attribute with H_inf(Q_U) > 0 is disclosed to a full-support Q_X: "
         "max_u Q_{U|Y=y}(u) < 1",
         "every kernel P_{Y|X} with 2 inputs, positive entries (C < oo) and any number of "
         "outputs (the column of y ranges over (0, 1)^2) at every output y with q_Y(y) > 0, "
         "every attribute kernel P_{U|X} with 2 values and H_inf(Q_U) > 0, and every "
         "full-support Q_X on 2 inputs"),
        ("H_inf(Q_{V|Y=y}) >= log(1 + q_min/(1-q_min) e^{-C}) for non-constant deterministic V",
         "every 2×2 kernel P_{Y|X} with positive entries (C < oo) and every full-support Q_X "
         "on 2 inputs, V = X (the non-constant function of a binary X, up to relabelling), at "
         "y = 0 (the other output by relabelling)"),
    ],
    "pml.prop_3_8": [
        ("C = oo implies max_y l(X->y) >= log 1/(1 - p_min)",
         "every 2×2 kernel with C = oo (relabelled so that p(0|0) = 0 < p(0|1)) and every "
         "full-support prior on 2 inputs"),
        ("the α-mechanism has l(X->0) = log 1/(1 - p_min) and l(X->1) = log 1/(1 - α(1 - "
         "p_min)): |exp l(X->0) - 1/(1 - p_min)| + |exp l(X->1) - 1/(1 - α(1 - p_min))| <= 0",
         _ALPHA + " and every α in (0, 1]"),
        ("the α-mechanism meets (log 1/(1 - p_min), P_X)-PML for α in (0, min(1, p_min/(1 - "
         "p_min))]: max_y l(X->y) <= log 1/(1 - p_min)",
         _ALPHA + " and every α in (0, min(1, p_min/(1 - p_min))]"),
        ("the α-range is exactly (0, min(1, p_min/(1 - p_min))]: above it max_y l(X->y) > "
         "log 1/(1 - p_min)", _ALPHA + " and every α in (min(1, p_min/(1 - p_min)), 1]"),
    ],
    "pml.cor_3_10": [
        ("(ε, P_X)-PML with ε < H_inf(P_X) implies no singling out: max_x P_{X|Y=y}(x) < 1",
         "every 3×2 kernel P_{Y|X} whose outputs both have positive probability, every "
         "full-support prior on 3 inputs and every ε, at y = 0 (the other output by "
         "relabelling)"),
    ],
    "pml.ex_3_11": [
        (_Y1, "p = 3/10, " + _Y1_DOMAIN),
        (_Y0, "p = 3/10, " + _Y0_DOMAIN),
        (_Y1, "p = 1/2, " + _Y1_DOMAIN),
        (_Y0, "p = 1/2, " + _Y0_DOMAIN),
        ("the closed form l(X->1) = -log(1 - Σ_{k<=m} C(n,k)p^k(1-p)^{n-k}) equals the "
         "definition log max_x p(1|x)/p_Y(1) = -log P(S > m): |exp l(X->1) - 1/(1 - Σ)| <= 0",
         "p = 3/10, every n <= 3 and every 0 <= m < n"),
        ("min over p in [0.3, 0.7] of H_inf(P_{S_i}) = -log max(p, 1-p) is at least -log 0.7 "
         "(its value at p = 0.7): max(p, 1-p) <= 7/10", "every p in [3/10, 7/10]"),
    ],
    "pml.prop_4_6": [
        ("for y >= 1 and y <= 0, l(D_i->y) (B.3's closed forms log(w/((1-p) + p w)) and "
         "log(w/(p + (1-p) w)), w = e^{1/(nb)}) <= 1/(nb) - log((1-c) + c e^{1/(nb)})",
         "every nb > 0 (x = 1/(nb) in (0, oo)), every c in [0, 1/2) and every p in (c, 1-c)"),
        ("the simplified bound: 1/(nb) - log((1-c) + c e^{1/(nb)}) <= (1-c)/(nb) + "
         "c^2/(2 n^2 b^2)",
         "every nb >= 1 (x = 1/(nb) in (0, 1]) and every c in [0, 1/2) (--thorough: nb >= 1/4)"),
    ],
}
"""Every PROVED pml claim: its proof records (part, domain), in order."""

STRENGTHENINGS: dict[str, dict[str, str]] = {
    "pml.thm_2_4": {"strict_ratio": "sharp", "drop_posterior_term": "not sharp",
                    "smaller_size": "sharp"},
    "pml.pre_processing": {"strict_upper_bound": "sharp", "lowered_upper_bound": "sharp"},
    "pml.thm_2_8": {"strict_capacity_bound": "not sharp", "approach_rate": "not sharp"},
    "pml.def_2_6": {"strict_largest_leakage": "sharp"},
    "pml.thm_3_5": {"strict_chain": "sharp", "entropy_margin": "sharp"},
    "pml.prop_3_6": {"lower_threshold": "sharp"},
    "pml.thm_3_7": {"strict_entropy_bound": "sharp", "raised_entropy_bound": "sharp"},
    "pml.prop_3_8": {"strict_lower_bound": "sharp", "raised_lower_bound": "sharp"},
    "pml.cor_3_10": {"entropy_margin": "sharp"},
    "pml.ex_3_11": {"strict_chernoff": "not sharp", "raised_exponent": "not sharp"},
    "pml.thm_4_2": {"halved_bound": "sharp"},
    "pml.thm_4_3": {"zero_delta": "sharp"},
    "pml.thm_4_5": {"strict_free_lunch": "not sharp", "halved_entry_bound": "sharp"},
    "pml.prop_4_6": {"drop_square_term": "not sharp", "shrink_linear_term": "sharp",
                     "strict_simplified": "sharp"},
}
"""Every pml check declaring strengthenings: each one's result un-mutated."""

MUTANTS = [
    pytest.param(claim_id, mutant, id=f"{claim_id}[{mutant}]")
    for claim_id in PROVED
    for mutant in default_registry.get(claim_id).mutant_names  # type: ignore[union-attr]
]


@cache
def _run(claim_id: str, mutant: str | None = None) -> ClaimResult:
    options = RunOptions(workers=1, profile="quick", mutant=mutant)
    (result,) = run_checks([claim_id], options=options).results
    return result


@pytest.mark.parametrize("claim_id", list(PROVED))
def test_a_proved_claim_is_proved_over_its_stated_domains(claim_id: str) -> None:
    result = _run(claim_id)
    assert result.verdict is Verdict.PROVED, f"{claim_id}: {result.verdict} {result.note}"
    records = [item.proof for item in result.evidence if item.proof is not None]
    assert [(record.part, record.domain) for record in records] == PROVED[claim_id]
    assert all(record.status == "proved" for record in records), records


@pytest.mark.parametrize(("claim_id", "mutant"), MUTANTS)
def test_every_mutant_of_a_proved_claim_is_refuted_by_the_prover(
    claim_id: str, mutant: str
) -> None:
    result = _run(claim_id, mutant)
    assert result.verdict is Verdict.FAILED, f"{claim_id}[{mutant}]: {result.verdict}"
    records = [item.proof for item in result.evidence if item.proof is not None]
    assert records, f"{claim_id}[{mutant}]: the mutant changes no proved part"
    assert all(record.status == "refuted" for record in records), [
        (record.part, record.status, record.detail) for record in records
    ]
    refuted = [item for item in result.evidence if item.proof is not None]
    assert all(item.passed is False and item.counterexample for item in refuted)
    assert not [item for item in result.evidence if item.strengthening is not None]


def test_the_mutants_cover_every_proved_claim() -> None:
    assert {claim_id for claim_id, _ in (param.values for param in MUTANTS)} == set(PROVED)
    assert len(PROVED) >= 7


@pytest.mark.parametrize("claim_id", list(STRENGTHENINGS))
def test_every_declared_strengthening_is_run_once_with_its_result(claim_id: str) -> None:
    registered = default_registry.get(claim_id)
    assert registered is not None
    declared = [name for name, _ in registered.strengthenings]
    assert declared == list(STRENGTHENINGS[claim_id])
    result = _run(claim_id)
    records = [item.strengthening for item in result.evidence if item.strengthening is not None]
    assert {record.name: record.status for record in records} == STRENGTHENINGS[claim_id]
    assert len(records) == len(declared)
    for record in records:
        assert (record.status == "sharp") == bool(record.witness), record


def test_every_pml_check_with_an_inequality_declares_strengthenings() -> None:
    """The pml checks without strengthenings state no inequality: Thm 3.4 (disclosure to one
    prior iff to all) and Example 3.1 (limits of entropies)."""
    without = {
        registered.claim.id
        for registered in default_registry.checks()
        if registered.claim.id.startswith("pml.") and not registered.strengthenings
    }
    assert without == {"pml.thm_3_4", "pml.ex_3_1"}
