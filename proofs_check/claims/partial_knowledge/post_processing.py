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

import sympy
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
    proof_evidence,
    property_holds,
    sharpness_evidence,
    strengthening_evidence,
)
from proofs_check.claims.partial_knowledge._common import (
    RATIOS,
    every_pair_settings,
    pinned,
    thresholded_kernel,
    votes,
)
from proofs_check.claims.partial_knowledge._proofs import (
    EPSILON,
    TIMEOUT,
    UNIT,
    epsilon_factor,
    hockey_stick_sum,
    law_symbols,
)
from proofs_check.reference import (
    apkdp_by_definition,
    counting_kernel,
    describe_mechanism,
    describe_setting,
    laws_by_order,
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
    weight = draw(xst.fractions(0, 1, max_denominator=6))
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
    # one enumeration of each value of D(i), shared by both orders and Defs 57 and 58
    by_order = laws_by_order(setting, reference)
    active = apkdp_by_definition(setting, reference, ratio, laws=by_order)
    passive = ppkdp_by_definition(setting, reference, ratio, laws=by_order)
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
    strengthenings={
        "post_processing_strict": "δ_A(b) of f∘M < δ_A(b) of M whenever the latter is > 0 "
        "(<= made strict)",
        "convexity_strict": "δ_A(b) of λM1 + (1-λ)M2 < λ δ_A(b)(M1) + (1-λ) δ_A(b)(M2) whenever "
        "the right side is > 0 (<= made strict)",
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
    C (proved, z3; :func:`_prop_25_proofs`), for each knowledge value b, on the conditional
    output laws A = P[O | D(i) = t, B = b], C = P[O | D(i) = t′, B = b] and δ_A(b) =
    Σ_o max(0, A(o) - e^ε C(o)) (Def 57's expectation term by term), every ε ≥ 0:
    post-processing, δ_A(b) of f∘M ≤ δ_A(b) of M for every pair of laws on 3 outputs and
    every kernel f to 2 outputs (f∘M's laws given (t, b) are f applied to M's: f sees only
    the output); convexity, δ_A(b) of λM1 + (1-λ)M2 ≤ λ δ_A(b)(M1) + (1-λ) δ_A(b)(M2) ≤
    max(δ_A(b)(M1), δ_A(b)(M2)) for every two pairs of laws on 2 outputs and λ in [0, 1].
    APKDP takes the max over b; PPKDP's Σ_b P[b] δ_A(b) (Theorem 1) inherits each bound.
    Strengthenings: the strict forms are refuted (sharp).
    """
    mutant = ctx.mutant
    proofs = _prop_25_proofs(mutant)

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
    if regime.passed is False and not ctx.search_only:  # a search-alone run needs the search
        return [regime, *proofs]  # the random instances would only repeat it, more slowly
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
            examples=ctx.fewer_examples(2),
        ),
        sharpness_evidence(
            "δ(f∘M) ≤ δ(M) and δ(λM1 + (1-λ)M2) ≤ λδ(M1) + (1-λ)δ(M2) ≤ max(δ(M1), δ(M2))",
            attained=attained,
            on="Remark 2's thresholded count at e^ε = 3 (δ_APK = δ_PPK = 1/2): f the identity, "
            "and M2 = M1 (any λ)",
            sharpest=None if attained else "not attained on the pinned instance",
            values={"δ_APK": active, "δ_PPK": passive},
        ),
        *proofs,
        *(_prop_25_strengthenings() if mutant is None else ()),
    ]


def _kernel_symbols(name: str, inputs: int) -> tuple[tuple[Any, Any], ...]:
    """A kernel from ``inputs`` outputs to 2: row m is (f_m, 1 - f_m), f_m in [0, 1]."""
    values = tuple(sympy.Symbol(f"{name}_{m}", real=True) for m in range(inputs))
    return tuple((value, 1 - value) for value in values)


def _apply(law: tuple[Any, ...], kernel: tuple[tuple[Any, Any], ...]) -> tuple[Any, Any]:
    """The law of f(O): Σ_m law(m) f(z | m)."""
    return tuple(
        sympy.Add(*(law[m] * kernel[m][z] for m in range(len(law)))) for z in range(2)
    )


def _post_processing_setting(*, peeking: bool = False) -> tuple[Any, ...]:
    first, first_ranges, first_sum = law_symbols("A", 3)
    second, second_ranges, second_sum = law_symbols("C", 3)
    kernel = _kernel_symbols("f", 3)
    other = _kernel_symbols("g", 3) if peeking else kernel
    variables = {**first_ranges, **second_ranges,
                 **{row[0]: UNIT for row in (*kernel, *other)},
                 EPSILON: sympy.Interval(0, sympy.oo)}
    w = epsilon_factor()
    before = hockey_stick_sum(first, second, w)
    after = hockey_stick_sum(_apply(first, kernel), _apply(second, other), w)
    return before, after, variables, (first_sum, second_sum)


def _mixture_setting() -> tuple[Any, ...]:
    laws = [law_symbols(name, 2) for name in ("A", "C", "A2", "C2")]
    weight = sympy.Symbol("lambda", real=True)
    variables: dict[Any, Any] = {weight: UNIT, EPSILON: sympy.Interval(0, sympy.oo)}
    for _, ranges, _ in laws:
        variables.update(ranges)
    (a1, _, _), (c1, _, _), (a2, _, _), (c2, _, _) = laws
    w = epsilon_factor()
    mixed_first = tuple(weight * x + (1 - weight) * y for x, y in zip(a1, a2, strict=True))
    mixed_second = tuple(weight * x + (1 - weight) * y for x, y in zip(c1, c2, strict=True))
    one, two = hockey_stick_sum(a1, c1, w), hockey_stick_sum(a2, c2, w)
    mixture = hockey_stick_sum(mixed_first, mixed_second, w)
    return weight, one, two, mixture, variables, tuple(total for _, _, total in laws)


_POST_DOMAIN = (
    "every pair of conditional output laws given (t, b) and (t′, b) on 3 outputs, every "
    "kernel f to 2 outputs and every ε ≥ 0"
)
_MIX_DOMAIN = (
    "every two pairs of conditional output laws given (t, b) and (t′, b) on 2 outputs (of "
    "M1 and of M2), every λ in [0, 1] and every ε ≥ 0"
)


def _prop_25_proofs(mutant: str | None) -> list[Evidence]:
    """Post-processing and convexity of δ_A(b) (see the check's docstring)."""
    proofs = []
    if mutant in (None, "peeking_post_processing"):
        before, after, variables, laws = _post_processing_setting(peeking=mutant is not None)
        proofs.append(
            proof_evidence(
                "f reading D(i) (g under t′): δ_A(b) of f∘M ≤ δ_A(b) of M (mutant)" if mutant
                else "post-processing: δ_A(b) of f∘M ≤ δ_A(b) of M",
                after, before, variables, domain_text=_POST_DOMAIN, assuming=laws,
                timeout=TIMEOUT,
            )
        )
    if mutant in (None, "mixture_min", "mixture_max_weight"):
        weight, one, two, mixture, variables, laws = _mixture_setting()
        bounds = {
            None: [
                (weight * one + (1 - weight) * two,
                 "convexity: δ_A(b) of λM1 + (1-λ)M2 ≤ λ δ_A(b)(M1) + (1-λ) δ_A(b)(M2)"),
                (sympy.Max(one, two),
                 "convexity: δ_A(b) of λM1 + (1-λ)M2 ≤ max(δ_A(b)(M1), δ_A(b)(M2))"),
            ],
            "mixture_min": [
                (sympy.Min(one, two), "δ_A(b) of the mixture ≤ min(δ1, δ2) (mutant)"),
            ],
            "mixture_max_weight": [
                (sympy.Max(weight, 1 - weight) * sympy.Max(one, two),
                 "δ_A(b) of the mixture ≤ max(λ, 1-λ)·max(δ1, δ2) (mutant)"),
            ],
        }[mutant]
        proofs += [
            proof_evidence(part, mixture, bound, variables, domain_text=_MIX_DOMAIN,
                           assuming=laws, timeout=TIMEOUT)
            for bound, part in bounds
        ]
    return proofs


def _prop_25_strengthenings() -> list[Evidence]:
    before, after, variables, laws = _post_processing_setting()
    weight, one, two, mixture, mix_variables, mix_laws = _mixture_setting()
    convex = weight * one + (1 - weight) * two
    return [
        strengthening_evidence(
            "post_processing_strict", "δ_A(b) of f∘M < δ_A(b) of M when the latter is > 0",
            after, before, variables, domain_text=_POST_DOMAIN,
            assuming=(*laws, sympy.Gt(before, 0)), strict=True, timeout=TIMEOUT,
        ),
        strengthening_evidence(
            "convexity_strict", "δ_A(b) of the mixture < λδ1 + (1-λ)δ2 when the latter is > 0",
            mixture, convex, mix_variables, domain_text=_MIX_DOMAIN,
            assuming=(*mix_laws, sympy.Gt(convex, 0)), strict=True, timeout=TIMEOUT,
        ),
    ]
