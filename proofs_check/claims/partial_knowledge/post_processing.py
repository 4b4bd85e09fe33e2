"""``pk.prop_25``: post-processing and convexity of APKDP and PPKDP (thesis Proposition 25).

Thesis *Lowering the cost of anonymization*, §3.1.3, Proposition 25, checked on random
settings, mechanisms and post-processing kernels, with mixtures of mechanisms for convexity.
The independent route: f∘M and λM1 + (1-λ)M2 rebuilt from their definitions
(:func:`proofs_check.reference.post_processed`, :func:`~proofs_check.reference.mixed`), and
the δ's of Defs 57/58 evaluated by the reference over every t ≠ t′
(:func:`~proofs_check.reference.apkdp_by_definition`,
:func:`~proofs_check.reference.ppkdp_by_definition`).
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
from proofs_check import (
    CheckContext,
    Evidence,
    check,
    property_holds,
    sharpness_evidence,
)
from proofs_check.claims.partial_knowledge._common import (
    RATIOS,
    every_pair_settings,
    pinned,
    smaller,
    thresholded_kernel,
    votes,
)
from proofs_check.reference import (
    apkdp_by_definition,
    counting_kernel,
    describe_mechanism,
    describe_setting,
    mixed,
    post_processed,
    ppkdp_by_definition,
)

__all__ = ["prop_25"]

Instance = tuple[PartialKnowledge, Any, Any, Mechanism, Mechanism, Fraction, Fraction]
"""(setting, M1, M2, f on M1's outputs, f reading (output, D(i)), λ, e^ε)."""


@st.composite
def _prop_25_instances(draw: st.DrawFn) -> Instance:
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
        outputs = list(counting_kernel(first, setting.records).outputs)
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


def _kernel(setting: PartialKnowledge, mechanism: Any) -> Mechanism:
    """The explicit kernel on databases (a counting mechanism by its definition)."""
    if isinstance(mechanism, CountingMechanism):
        return counting_kernel(mechanism, setting.records)
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


def _both(
    setting: PartialKnowledge, mechanism: Any, reference: Mechanism, ratio: Fraction
) -> tuple[Fraction, Fraction] | None:
    """(δ_APK, δ_PPK) of the reference kernel; None if exactpml's values of ``mechanism``
    differ from them."""
    active = apkdp_by_definition(setting, reference, ratio)
    passive = ppkdp_by_definition(setting, reference, ratio)
    laws = knowledge_laws(setting, mechanism)
    epsilon = LogValue(ratio)
    mine = (apkdp_delta(setting, laws, epsilon).delta, ppkdp_delta(setting, laws, epsilon))
    return (active, passive) if mine == (active, passive) else None


def _holds(instance: Instance, mutant: str | None) -> bool:
    setting, first, second, kernel, peeking, weight, ratio = instance
    one, two = _kernel(setting, first), _kernel(setting, second)
    processed_reference = post_processed(one, kernel)
    mixed_reference = mixed(one, two, weight)
    processed: Any = first.post_process(kernel)  # exactpml's operations under test
    mixture: Any = first.mixture(second, weight)
    if mutant == "peeking_post_processing":
        processed = processed_reference = _peek(setting, one, peeking)
    for each in every_pair_settings(setting):
        values = [
            _both(each, first, one, ratio),
            _both(each, second, two, ratio),
            _both(each, processed, processed_reference, ratio),
            _both(each, mixture, mixed_reference, ratio),
        ]
        if any(value is None for value in values):
            return False
        (a1, p1), (a2, p2), (a_post, p_post), (a_mix, p_mix) = values  # type: ignore[misc]
        if not (a_post <= a1 and p_post <= p1):
            return False
        if mutant == "mixture_min":
            bounds = (min(a1, a2), min(p1, p2))
        elif mutant == "mixture_max_weight":
            bounds = (max(weight, 1 - weight) * max(a1, a2), max(weight, 1 - weight) * max(p1, p2))
        else:
            bounds = (max(a1, a2), max(p1, p2))
        if not (a_mix <= bounds[0] and p_mix <= bounds[1]):
            return False
        # joint convexity, the proof's argument: the mixture's δ is at most λ δ1 + (1-λ) δ2
        if not (
            a_mix <= weight * a1 + (1 - weight) * a2 and p_mix <= weight * p1 + (1 - weight) * p2
        ):
            return False
    return True


def _explain(instance: Instance) -> str:
    setting, first, second, kernel, peeking, weight, ratio = instance
    shown = [describe_mechanism(_kernel(setting, m)) for m in (first, second)]
    return (
        f"{describe_setting(setting)}; M1 = {shown[0]}; M2 = {shown[1]}; f = {kernel!r}; "
        f"f reading D(i) = {peeking!r}; λ = {weight}; e^ε = {ratio}"
    )


def _pinned_instances() -> list[tuple[str, Instance]]:
    """Remark 2's thresholded count (3 fair votes, one known, release iff > 1) with M2 = M1
    and f the identity, where every bound is attained; f reading D(i) reveals it."""
    coin = votes(Fraction(1, 2))
    setting = PartialKnowledge([coin] * 3, target=0, value="No", alternative="Yes", known=[1])
    kernel = thresholded_kernel(3, 1)
    identity = Mechanism({y: {y: 1} for y in kernel.outputs})
    reveal = Mechanism({(y, x): {x: 1} for y in kernel.outputs for x in ("No", "Yes")})
    constant = Mechanism({d: {"c": 1} for d in kernel.inputs})
    return [
        (
            f"Remark 2's count, M2 = M1, f = identity, λ = 1/2, e^ε = {r}",
            (setting, kernel, kernel, identity, reveal, Fraction(1, 2), r),
        )
        for r in (Fraction(1), Fraction(3))
    ] + [
        (
            "Remark 2's count and a constant mechanism, λ = 1/3, e^ε = 2",
            (setting, kernel, constant, identity, reveal, Fraction(1, 3), Fraction(2)),
        )
    ]


@check(
    "pk.prop_25",
    mutants={
        "peeking_post_processing": "post-processing by a map that also reads D(i) (the "
        "hypothesis that f sees only the output dropped)",
        "mixture_min": "the mixture is (ε, min(δ1, δ2))-APKDP/PPKDP",
        "mixture_max_weight": "the mixture's δ is at most max(λ, 1-λ)·max(δ1, δ2) (convexity "
        "with a plausible-looking contraction factor)",
    },
)
def prop_25(ctx: CheckContext) -> list[Evidence]:
    """pk.prop_25 — thesis Proposition 25.

    Statement: APKDP and PPKDP satisfy post-processing (M (ε,δ)-private ⇒ f∘M is) and
    convexity (M1, M2 (ε,δ)-private ⇒ the mixture λM1 + (1-λ)M2 is).

    P: on random settings with two random kernels M1, M2 (or two counting mechanisms, then
    combined by exactpml's ``CountingMechanism.post_process`` / ``mixture``), a random
    post-processing kernel f, λ ∈ [0, 1] and e^ε, for every pair {t, t′} of values of D(i):
    exactpml's δ's (both orders) of M1, M2, f∘M1 and the mixture equal the reference's δ's of
    the kernels rebuilt from the definitions (f∘M: Σ_o M(o|d) f(z|o); mixture: λM1 + (1-λ)M2;
    counting mechanisms: the release law of each database's count); and, on the reference
    values, the smallest δ of f∘M1 is at most that of M1, that of the mixture at most
    max(δ(M1), δ(M2)) and even at most λ δ(M1) + (1-λ) δ(M2) (joint convexity), for APKDP
    (max over the orders and b of δ_A(b)) and PPKDP (max over the orders of Σ_b P[b] δ_A(b)).
    W: the same on pinned instances (Remark 2's thresholded count, M2 = M1, f the identity),
    where every bound is attained exactly (sharpness).
    """
    mutant = ctx.mutant

    def holds(instance: Instance) -> bool:
        return _holds(instance, mutant)

    regime = pinned(
        _pinned_instances(),
        holds,
        describe="post-processing and convexity, exactpml = reference, on Remark 2's "
        "thresholded count",
        explain=_explain,
        kind="W",
    )
    if regime.passed is False:
        return [regime]  # the random instances would only repeat it, more slowly
    setting, kernel, _, identity, _, half, three = _pinned_instances()[1][1]
    active = apkdp_by_definition(setting, kernel, three)
    passive = ppkdp_by_definition(setting, kernel, three)
    identity_active = apkdp_by_definition(setting, post_processed(kernel, identity), three)
    same = mixed(kernel, kernel, half)
    attained = (
        identity_active == active
        and apkdp_by_definition(setting, same, three) == active
        and ppkdp_by_definition(setting, same, three) == passive
    )
    return [
        regime,
        property_holds(
            ctx,
            _prop_25_instances(),
            holds,
            describe="post-processing and convexity of APKDP and PPKDP (smallest δ at e^ε, "
            "every t ≠ t′), exactpml = reference",
            explain=_explain,
            examples=smaller(ctx, 2),
        ),
        sharpness_evidence(
            "δ(f∘M) ≤ δ(M) and δ(λM1 + (1-λ)M2) ≤ λδ(M1) + (1-λ)δ(M2) ≤ max(δ(M1), δ(M2))",
            attained=attained,
            on="Remark 2's thresholded count at e^ε = 3 (δ_APK = δ_PPK = 1/2): f the identity, "
            "and M2 = M1 (any λ)",
            sharpest=None if attained else "not attained on the pinned instance",
            values={"δ_APK": active, "δ_PPK": passive},
        ),
    ]
