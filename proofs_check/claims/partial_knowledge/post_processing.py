"""``pk.prop_25``: post-processing and convexity of APKDP and PPKDP (thesis Proposition 25).

Thesis *Lowering the cost of anonymization*, §3.1.3, Proposition 25, checked on random
settings, mechanisms and post-processing kernels, with mixtures of mechanisms for convexity.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from exactpml import LogValue, Mechanism
from exactpml import strategies as xst
from exactpml.partial_knowledge import (
    CountingMechanism,
    PartialKnowledge,
    apkdp_delta,
    knowledge_laws,
    ppkdp_delta,
)
from proofs_check import CheckContext, Evidence, check, property_holds
from proofs_check.claims.partial_knowledge._common import RATIOS, smaller
from proofs_check.reference import describe_mechanism, describe_setting

__all__ = ["prop_25"]


@st.composite
def _prop_25_instances(draw: st.DrawFn) -> tuple[Any, ...]:
    """A setting, two kernels M1, M2 on its databases, a post-processing kernel on M1's
    outputs, a kernel reading (M1's output, D(i)) for the mutant, λ and e^ε.  Half of the
    time the mechanisms are CountingMechanisms combined by exactpml's own operations."""
    counting = draw(st.booleans())
    if counting:
        setting = draw(
            xst.partial_knowledge_settings(max_records=3, binary=True, knowledge=("known",))
        )
        first: Any = draw(xst.count_release_mechanisms(setting.size, max_outputs=3))
        second: Any = draw(xst.count_release_mechanisms(setting.size, max_outputs=3))
        outputs = list(first.as_mechanism(setting.records).outputs)
    else:
        setting = draw(xst.partial_knowledge_settings(max_records=3))
        first = draw(xst.setting_mechanisms(setting, max_outputs=3))
        second = draw(xst.setting_mechanisms(setting, max_outputs=3))
        outputs = list(first.outputs)
    results = list(range(draw(st.integers(1, 3))))
    kernel = draw(xst.mechanisms(inputs=outputs, outputs=results))
    targets = setting.records[setting.target].outcomes
    peeking = draw(
        xst.mechanisms(inputs=[(y, x) for y in outputs for x in targets], outputs=results)
    )
    weight = draw(st.fractions(0, 1, max_denominator=6))
    return setting, first, second, kernel, peeking, weight, draw(RATIOS)


def _as_kernel(setting: PartialKnowledge, mechanism: Any) -> Mechanism:
    if isinstance(mechanism, CountingMechanism):
        return mechanism.as_mechanism(setting.records)
    assert isinstance(mechanism, Mechanism)
    return mechanism


def _peek(setting: PartialKnowledge, mechanism: Mechanism, peeking: Mechanism) -> Mechanism:
    """(y, D(i)) ↦ z applied after M: a map that also reads the target record."""
    kernel: dict[Hashable, dict[Hashable, Fraction]] = {}
    for database in mechanism.inputs:
        row: dict[Hashable, Fraction] = {}
        for y, p in mechanism.row(database).items():
            for z, q in peeking.row((y, database[setting.target])).items():  # type: ignore[index]
                row[z] = row.get(z, Fraction(0)) + Fraction(p) * Fraction(q)
        kernel[database] = row
    return Mechanism(kernel, outputs=peeking.outputs)


@check(
    "pk.prop_25",
    mutants={
        "peeking_post_processing": "post-processing by a map that also reads D(i) (the "
        "hypothesis that f sees only the output dropped)",
        "mixture_min": "the mixture is (ε, min(δ1, δ2))-APKDP/PPKDP",
    },
)
def prop_25(ctx: CheckContext) -> list[Evidence]:
    """pk.prop_25 — thesis Proposition 25.

    Statement: APKDP and PPKDP satisfy post-processing (M (ε,δ)-private ⇒ f∘M is) and
    convexity (M1, M2 (ε,δ)-private ⇒ the mixture λM1 + (1-λ)M2 is).

    P: on random settings with two random kernels M1, M2 (or two counting mechanisms, then
    combined by exactpml's ``CountingMechanism.post_process`` / ``mixture``), a random
    post-processing kernel f, λ ∈ [0, 1] and e^ε: the smallest δ of f∘M1 is at most that of
    M1, and the smallest δ of the mixture at most max(δ(M1), δ(M2)), for both APKDP
    (max_b δ_A(b)) and PPKDP (Σ_b P[b] δ_A(b)); the PPKDP δ of the mixture is even at most
    λ δ(M1) + (1-λ) δ(M2) (joint convexity, the proof's argument).
    """

    def holds(instance: tuple[Any, ...]) -> bool:
        setting, first, second, kernel, peeking, weight, ratio = instance
        epsilon = LogValue(ratio)
        if isinstance(first, CountingMechanism):
            processed: Any = first.post_process(kernel)
            mixed: Any = first.mixture(second, weight)
        else:
            processed = first.post_process(kernel)
            mixed = first.mixture(second, weight)
        if ctx.mutant == "peeking_post_processing":
            processed = _peek(setting, _as_kernel(setting, first), peeking)

        def both(mechanism: Any) -> tuple[Fraction, Fraction]:
            laws = knowledge_laws(setting, mechanism)
            return (
                Fraction(apkdp_delta(setting, laws, epsilon).delta),
                Fraction(ppkdp_delta(setting, laws, epsilon)),
            )

        a1, p1 = both(first)
        a2, p2 = both(second)
        a_post, p_post = both(processed)
        a_mix, p_mix = both(mixed)
        if not (a_post <= a1 and p_post <= p1):
            return False
        combine = min if ctx.mutant == "mixture_min" else max
        if not (a_mix <= combine(a1, a2) and p_mix <= combine(p1, p2)):
            return False
        return p_mix <= weight * p1 + (1 - weight) * p2

    def explain(instance: tuple[Any, ...]) -> str:
        setting, first, second, kernel, peeking, weight, ratio = instance
        shown = [describe_mechanism(_as_kernel(setting, m)) for m in (first, second)]
        return (
            f"{describe_setting(setting)}; M1 = {shown[0]}; M2 = {shown[1]}; f = {kernel!r}; "
            f"f reading D(i) = {peeking!r}; λ = {weight}; e^ε = {ratio}"
        )

    return [
        property_holds(
            ctx,
            _prop_25_instances(),
            holds,
            describe="post-processing and convexity of APKDP and PPKDP (smallest δ at e^ε)",
            explain=explain,
            examples=smaller(ctx, 2),
        )
    ]
