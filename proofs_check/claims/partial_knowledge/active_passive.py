"""``pk.thm_1``: active against passive partial knowledge (thesis Theorem 1).

Thesis *Lowering the cost of anonymization*, §3.1.3, Theorem 1 with Definitions 57-58: the
PPKDP quantity is E_b[δ_A(b)], APKDP implies PPKDP with the same (ε, δ), and for δ = 0 they
are equivalent.  Def 58 is summed database by database by
:func:`proofs_check.reference.partial_knowledge.def_58_quantity`, so the check does not
presuppose the theorem's decomposition.
"""

from __future__ import annotations

from fractions import Fraction

from exactpml import LogValue, Mechanism
from exactpml.partial_knowledge import (
    PartialKnowledge,
    apkdp_delta,
    apkdp_epsilon,
    is_apkdp,
    is_ppkdp,
    knowledge_deltas,
    knowledge_laws,
    ppkdp_delta,
)
from proofs_check import CheckContext, Evidence, check, property_holds
from proofs_check.claims.partial_knowledge._common import (
    explain_setting,
    reference_deltas,
    settings_with_mechanism,
)
from proofs_check.reference import ConditionalLaws, conditional_laws, def_58_quantity

__all__ = ["thm_1"]


@check(
    "pk.thm_1",
    mutants={
        "ppk_implies_apk": "(ε,δ)-PPKDP ⇒ (ε,δ)-APKDP also for δ > 0",
        "uniform_weights": "the PPKDP quantity is the unweighted mean of δ_A(b) over supp(B)",
    },
)
def thm_1(ctx: CheckContext) -> list[Evidence]:
    """pk.thm_1 — thesis Theorem 1.

    Statement: the PPKDP quantity (Def 58) equals E_{b~B}[δ_A(b)] with δ_A of Def 57; hence
    (ε,δ)-APKDP ⇒ (ε,δ)-PPKDP, and for δ = 0 the two are equivalent.

    P: on random settings (1 to 3 independent records, known records or an arbitrary
    knowledge function independent of D(i)) with random exact kernels on the databases:
    Def 58 evaluated database by database (reference enumeration) equals exactpml's
    ``ppkdp_delta`` and Σ_b P[B=b] δ_A(b) of the reference δ_A; exactpml's δ_A(b) equal the
    reference; ``ppkdp_delta`` ≤ ``apkdp_delta`` and the mechanism is (ε, δ_APK)-PPKDP;
    (ε,0)-APKDP ⇔ (ε,0)-PPKDP; the smallest ε at δ = 0 is max_{b,o} L(o, b) (reference).
    """

    def holds(instance: tuple[PartialKnowledge, Mechanism, Fraction]) -> bool:
        setting, mechanism, ratio = instance
        epsilon = LogValue(ratio)
        reference = conditional_laws(setting, mechanism)
        deltas = reference_deltas(reference, ratio)
        laws = knowledge_laws(setting, mechanism)
        library = knowledge_deltas(setting, laws, epsilon)
        if library != deltas:
            return False
        passive = ppkdp_delta(setting, laws, epsilon)
        active = apkdp_delta(setting, laws, epsilon).delta
        if ctx.mutant == "uniform_weights":
            expected = sum(deltas.values(), Fraction(0)) / len(deltas)
        else:
            expected = sum((reference.weights[b] * deltas[b] for b in deltas), Fraction(0))
        if not def_58_quantity(reference, mechanism, ratio) == passive == expected:
            return False
        if ctx.mutant == "ppk_implies_apk" and not is_apkdp(setting, laws, epsilon, passive):
            return False
        if not (passive <= active and is_ppkdp(setting, laws, epsilon, active)):
            return False
        if is_apkdp(setting, laws, epsilon, 0) != is_ppkdp(setting, laws, epsilon, 0):
            return False
        return apkdp_epsilon(setting, laws).epsilon == _max_plrv(reference)

    return [
        property_holds(
            ctx,
            settings_with_mechanism(),
            holds,
            describe=(
                "Def 58 = Σ_b P[b] δ_A(b); APKDP ⇒ PPKDP; (ε,0)-APKDP ⇔ (ε,0)-PPKDP"
                if ctx.mutant != "ppk_implies_apk"
                else "PPKDP ⇒ APKDP at δ = δ_PPK"
            ),
            explain=explain_setting,
        )
    ]


def _max_plrv(laws: ConditionalLaws) -> LogValue:
    best = LogValue(1)
    for b in laws.weights:
        for o, p in laws.value[b].items():
            q = laws.alternative[b].get(o, Fraction(0))
            if p and not q:
                return LogValue.infinity()
            if p and LogValue(p / q) > best:
                best = LogValue(p / q)
    return best
