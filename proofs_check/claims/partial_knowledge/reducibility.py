"""``pk.thm_2``: Θ-reducibility makes APKDP and PPKDP coincide (thesis Theorem 2).

Thesis *Lowering the cost of anonymization*, §3.1.3, Theorem 2 with Definition 59 (as
restated in ``CLAIMS.md``): for reducible settings δ_A(b) is the same for every b; the thesis
calls reducibility necessary, and a counterexample shows it is only sufficient.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from fractions import Fraction
from functools import partial
from typing import Any

import sympy
from hypothesis import strategies as st

from exactpml import Distribution, LogValue, Mechanism
from exactpml import strategies as xst
from exactpml.partial_knowledge import (
    PartialKnowledge,
    apkdp_delta,
    is_apkdp,
    is_ppkdp,
    knowledge_deltas,
    ppkdp_delta,
    reducibility_not_necessary,
    theta_reducibility,
)
from proofs_check import CheckContext, Evidence, check, exact_repr, property_holds, witness_evidence
from proofs_check.claims._draws import permutations
from proofs_check.claims.partial_knowledge._common import (
    DELTAS,
    RATIOS,
    every_pair_settings,
    explain_setting,
    phi_verified,
    pinned,
    reference_deltas,
    settings_with_mechanism,
)
from proofs_check.reference import (
    ConditionalLaws,
    apkdp_by_definition,
    conditional_laws,
    describe_mechanism,
    has_injective_map,
    ppkdp_by_definition,
)
from proofs_check.small_scope import Layer, SmallScope
from proofs_check.small_scope import mechanisms as kernel_scope

__all__ = ["thm_2"]


@st.composite
def _reducible_by_construction(draw: st.DrawFn) -> tuple[PartialKnowledge, Mechanism, Fraction]:
    """M(d) = π_{B(d)}(M0(d outside K)): a base kernel on the unknown records and the target,
    relabelled by a permutation π_b of the outputs chosen per knowledge value b.  Θ-reducible
    by design: φ_{b1,b2} = π_{b2} ∘ π_{b1}^{-1}."""
    setting = draw(xst.partial_knowledge_settings(max_records=3, knowledge=("known",)))
    assert setting.known is not None
    known = setting.known
    rest = [j for j in range(setting.size) if j not in known]
    outputs = list(range(draw(st.integers(1, 3))))
    keys = list(itertools.product(*(setting.records[j].outcomes for j in rest)))
    base = draw(xst.mechanisms(inputs=keys, outputs=outputs))
    values = list(itertools.product(*(setting.records[j].outcomes for j in known)))
    perms = {b: draw(permutations(outputs)) for b in values}
    kernel: dict[Hashable, dict[int, Fraction]] = {}
    for database in itertools.product(*(r.outcomes for r in setting.records)):
        b = tuple(database[j] for j in known)
        row = base.row(tuple(database[j] for j in rest))
        kernel[database] = {perms[b][int(y)]: Fraction(p) for y, p in row.items()}  # type: ignore[call-overload]
    return setting, Mechanism(kernel, outputs=outputs), draw(RATIOS)


@st.composite
def _reducible_under_t_only(draw: st.DrawFn) -> tuple[PartialKnowledge, Mechanism, Fraction]:
    """The near miss of Def 59: :func:`_reducible_by_construction` on the databases whose
    target is t, an unconstrained kernel on the others.  The laws under t agree across the
    knowledge values (up to relabelling) and those under t′ need not, so δ_A(b) may vary with
    b although a φ matching the laws under t alone exists (what ``value_laws_only`` accepts)."""
    setting, relabelled, ratio = draw(_reducible_by_construction())
    outputs = list(relabelled.outputs)
    other = draw(xst.mechanisms(inputs=list(relabelled.inputs), outputs=outputs))
    databases = list(itertools.product(*(r.outcomes for r in setting.records)))
    kernel = {
        database: (relabelled if database[setting.target] == setting.value else other)
        .row(database)
        .as_dict()
        for database in databases
    }
    return setting, Mechanism(kernel, outputs=outputs), ratio


@check(
    "pk.thm_2",
    mutants={
        "without_reducibility": "δ_A(b) is the same for all b for every mechanism (Θ-reducibility "
        "dropped)",
        "necessary": "Θ-reducibility is necessary: APKDP ⇔ PPKDP for all (ε,δ) ⇒ Θ-reducible",
        "value_laws_only": "Def 59 with φ matching only the laws under t (P[o | t, b1] = "
        "P[φ(o) | t, b2], the laws under t′ dropped) already makes δ_A(b) constant",
    },
)
def thm_2(ctx: CheckContext) -> list[Evidence]:
    """pk.thm_2 — thesis Theorem 2 with Definition 59 (as restated in CLAIMS.md).

    Statement: if M is Θ-reducible (for all b1, b2 an injective φ, independent of t, on the
    union of the output supports, with P[o|t,b1] = P[φ(o)|t,b2] for all o and t) then
    δ_A(b) is the same for all b, so (ε,δ)-APKDP ⇔ (ε,δ)-PPKDP.  The thesis calls the
    condition "necessary"; it is only sufficient.

    P: on random settings with known records and kernels that are reducible by construction
    (relabelling a kernel of the unknown records by a permutation per knowledge value), mixed
    with unconstrained random kernels and with near misses (reducible on the databases whose
    target is t only), for every pair {t, t′} of values of D(i): exactpml's
    decision finds the constructed ones reducible; within every class of knowledge values it
    reports as mutually reducible, its φ passes Def 59 against the reference laws and the
    reference δ_A(b) are equal, for both orders (t, t′) and (t′, t); when the mechanism is
    reducible, δ_APK = δ_PPK and APKDP ⇔ PPKDP at a random δ.  Pinned: a mechanism whose
    laws under t agree for both b but not under t′ (δ_A(0) = 0 ≠ δ_A(1) = 1/2).
    W: the not-necessary counterexample (B a fair bit, M a coin flip when B = 0 and a
    constant when B = 1, ignoring D(i)): δ_A(b) = 0 for every b at e^ε = 1, 2 and ε = 1, so
    APKDP ⇔ PPKDP for every (ε, δ); yet no map from either knowledge value's outputs to the
    outputs {heads, tails, c} satisfies Def 59 (all 9 + 3 maps tried against the reference
    laws), and exactpml's decision agrees.
    P: on the family of that counterexample, mechanisms ignoring D(i) (a known bit B of law
    1/2, then random laws, and every kernel K from B to at most two outputs on the grid, then
    random ones: M(x, b) = K(b)): δ_A(b) = 0 for every b (the reference's laws and exactpml,
    at ε = 0, hence at every ε), and exactpml's Θ-reducibility decision equals a search over
    every map φ against Def 59.
    """

    def holds(
        instance: tuple[tuple[PartialKnowledge, Mechanism, Fraction], bool, Fraction],
    ) -> bool:
        (first, mechanism, ratio), constructed, delta = instance
        return all(
            _reducible_holds(setting, mechanism, ratio, constructed, delta, ctx.mutant)
            for setting in every_pair_settings(first)  # every t ≠ t′ of D(i)
        )

    instances = st.tuples(
        st.one_of(
            st.tuples(_reducible_by_construction(), st.just(True)),
            st.tuples(settings_with_mechanism(), st.just(False)),
            st.tuples(_reducible_under_t_only(), st.just(False)),
        ),
        DELTAS,
    ).map(lambda pair: (pair[0][0], pair[0][1], pair[1]))

    def explain(instance: Any) -> str:
        return explain_setting(instance[0]) + f"; constructed reducible: {instance[1]}"

    regime = pinned(
        _pinned_instances(),
        holds,
        describe="Θ-reducible ⇒ δ_A(b) constant in b (a mechanism whose laws under t agree "
        "for both b but not under t′)",
        explain=explain,
    )
    if regime.passed is False and not ctx.search_only:  # a search-alone run needs the search
        return [regime]  # the random instances would only repeat it, more slowly
    property_evidence = property_holds(
        ctx,
        instances,
        holds,
        describe="Θ-reducible ⇒ δ_A(b) constant in b ⇒ APKDP ⇔ PPKDP (φ checked against Def 59)",
        explain=explain,
        examples=ctx.fewer_examples(2),
    )
    target_blind = property_holds(
        ctx,
        st.tuples(
            KNOWN_LAWS,
            st.integers(1, 3).flatmap(
                lambda size: xst.mechanisms(inputs=[0, 1], outputs=list(range(size)))
            ),
        ),
        lambda instance: not _blind_failures(*instance, ctx.mutant),
        describe="mechanisms ignoring D(i) (a fair target bit, B a known bit, M = K(B)): "
        "δ_A ≡ 0 (the reference, at ε = 0), and exactpml's Θ-reducibility = a search over "
        "every map φ",
        explain=lambda instance: "; ".join(_blind_failures(*instance, ctx.mutant)),
        examples=ctx.fewer_examples(40, at_least=3, at_most=20),
        small_scope=BLIND_SCOPE,
    )
    return [regime, property_evidence, _not_necessary_witness(ctx), target_blind]


KNOWN_LAWS = xst.fractions(min_value=0, max_value=1, max_denominator=6).filter(lambda q: 0 < q < 1)
"""P[B = 1] of the known bit, strictly between 0 and 1."""

BLIND_SCOPE = SmallScope(
    "mechanisms ignoring D(i): B a fair known bit, every kernel K from {0, 1} to <= 2 outputs "
    "on the grid 1/2, 1/3, 1/4",
    [
        Layer(
            layer.description,
            layer.size,
            partial(lambda built: [(Fraction(1, 2), kernel) for kernel in built()], layer.build),
        )
        for layer in kernel_scope(inputs=[0, 1], max_outputs=2).layers
    ],
)
"""The counterexample after Thm 2 is one member of a family: its smallest members."""


def _blind_setting(known: Fraction, kernel: Mechanism) -> tuple[PartialKnowledge, Mechanism]:
    """Target D(0) a fair bit (t = 0, t′ = 1), B = D(1) known with P[B = 1] = ``known``,
    and M(x, b) = K(b): a mechanism that ignores the target."""
    bit = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})
    setting = PartialKnowledge(
        [bit, Distribution({0: 1 - known, 1: known})], target=0, value=0, alternative=1, known=[1]
    )
    rows = {(x, b): kernel.row(b).as_dict() for x in (0, 1) for b in (0, 1)}
    return setting, Mechanism(rows, outputs=list(kernel.outputs))


def _maps_by_brute_force(
    reference: ConditionalLaws, outputs: list[Hashable], first: Hashable, second: Hashable
) -> list[dict[Hashable, Hashable]]:
    """Every map φ from the outputs the laws given ``first`` can produce into ``outputs``
    that passes Def 59 against the reference laws."""
    laws = (reference.value[first], reference.alternative[first])
    support = sorted({o for law in laws for o, p in law.items() if p}, key=repr)
    found = []
    for images in itertools.product(outputs, repeat=len(support)):
        phi = dict(zip(support, images, strict=True))
        if phi_verified(reference, first, second, phi):
            found.append(phi)
    return found


def _blind_failures(known: Fraction, kernel: Mechanism, mutant: str | None) -> list[str]:
    """On one mechanism ignoring the target: the reference's δ_A(b) at e^ε = 1 (the total
    variation, 0 iff the laws under t and t′ agree, so 0 at every ε) and exactpml's are 0
    for every b, and exactpml's decision equals the search over every map φ (under
    ``necessary``: δ_A ≡ 0 must make it reducible)."""
    setting, mechanism = _blind_setting(known, kernel)
    reference = conditional_laws(setting, mechanism)
    shown = f"P[B = 1] = {known}, K = {describe_mechanism(kernel)}"
    failures = []
    deltas = reference_deltas(reference, Fraction(1))
    mine = knowledge_deltas(setting, mechanism, LogValue(1))
    if set(deltas.values()) != {0} or set(mine.values()) != {0}:
        failures.append(f"{shown}: δ_A at ε = 0: reference {deltas}, exactpml {mine}")
    decision = theta_reducibility(setting, mechanism)
    outputs = list(mechanism.outputs)
    by_search = all(
        _maps_by_brute_force(reference, outputs, first, second)
        for first, second in itertools.permutations(reference.weights, 2)
    )
    if mutant == "necessary":
        if not decision.holds:
            failures.append(f"{shown}: δ_A ≡ 0 but not Θ-reducible: {decision.counterexample}")
    elif decision.holds != by_search:
        failures.append(
            f"{shown}: exactpml decides reducible = {decision.holds}, the search over every φ "
            f"{by_search}"
        )
    return failures


def _pinned_instances() -> list[tuple[str, Any]]:
    """D(0) (the target, t = 0, t′ = 1) and a known fair bit B = D(1); M = "a" w.p. 1/2 when
    D(0) = 0, and when D(0) = 1 w.p. 1/2 if B = 0 and 1 if B = 1: the laws under t are the
    same for both b, those under t′ differ, and δ_A(0) = 0 ≠ δ_A(1) = 1/2 at e^ε = 1."""
    bit = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})
    setting = PartialKnowledge([bit, bit], target=0, value=0, alternative=1, known=[1])
    half = {"a": Fraction(1, 2), "b": Fraction(1, 2)}
    mechanism = Mechanism({(0, 0): half, (0, 1): half, (1, 0): half, (1, 1): {"a": 1, "b": 0}})
    return [
        (f"target bit, known fair bit, e^ε = {r}", ((setting, mechanism, r), False, Fraction(1, 4)))
        for r in (Fraction(1), Fraction(3, 2))
    ]


def _reducible_holds(
    setting: PartialKnowledge,
    mechanism: Mechanism,
    ratio: Fraction,
    constructed: bool,
    delta: Fraction,
    mutant: str | None,
) -> bool:
    epsilon = LogValue(ratio)
    reference = conditional_laws(setting, mechanism)
    deltas = reference_deltas(reference, ratio)
    backward = reference_deltas(
        conditional_laws(setting, mechanism, order=(setting.alternative, setting.value)),
        ratio,
    )
    decision = theta_reducibility(setting, mechanism)
    if constructed and not decision.holds:
        return False
    if mutant == "without_reducibility":
        classes = [list(deltas)]
    elif mutant == "value_laws_only":
        classes = _value_classes(reference)
    else:
        classes = [list(c) for c in decision.classes]
    for members in classes:
        # δ_A(b) constant within a class, for both orders (t, t') and (t', t)
        if len({deltas[b] for b in members}) != 1 or len({backward[b] for b in members}) != 1:
            return False
        if mutant is None and any(
            not phi_verified(reference, members[0], b, decision.output_map(members[0], b))
            for b in members[1:]
        ):
            return False
    if decision.holds:
        laws = decision.laws
        active = apkdp_by_definition(setting, mechanism, ratio)
        if not (
            apkdp_delta(setting, laws, epsilon).delta
            == ppkdp_delta(setting, laws, epsilon)
            == active
            == ppkdp_by_definition(setting, mechanism, ratio)
        ):
            return False
        return is_apkdp(setting, laws, epsilon, delta) == is_ppkdp(setting, laws, epsilon, delta)
    return True


def _value_classes(laws: ConditionalLaws) -> list[list[Hashable]]:
    """Classes of knowledge values related by an injective φ that matches the laws under t
    only (brute force, for the mutant ``value_laws_only``)."""
    classes: list[list[Hashable]] = []
    for b in laws.weights:
        for members in classes:
            first = laws.value[members[0]]
            if has_injective_map(
                _full(first, laws),
                _full(first, laws),
                _full(laws.value[b], laws),
                _full(laws.value[b], laws),
            ):
                members.append(b)
                break
        else:
            classes.append([b])
    return classes


def _full(law: dict[Hashable, Fraction], laws: ConditionalLaws) -> dict[Hashable, Fraction]:
    """The law with every output of the laws present (zeros included)."""
    outputs = {
        o for family in (laws.value, laws.alternative) for row in family.values() for o in row
    }
    return {o: law.get(o, Fraction(0)) for o in outputs}


def _not_necessary_witness(ctx: CheckContext) -> Evidence:
    setting, mechanism = reducibility_not_necessary()
    reference = conditional_laws(setting, mechanism)
    epsilons: list[object] = [LogValue(1), LogValue(2), sympy.Integer(1)]
    deltas = {f"δ_A at ε = {e}": knowledge_deltas(setting, mechanism, e) for e in epsilons}
    all_zero = all(v == 0 for d in deltas.values() for v in d.values())
    equivalent = all(
        apkdp_delta(setting, mechanism, e).delta == ppkdp_delta(setting, mechanism, e) == 0
        for e in epsilons
    )
    outputs = list(mechanism.outputs)
    found: list[str] = []
    for first, second in itertools.permutations(reference.weights, 2):
        support = sorted(
            {
                o
                for law in (reference.value[first], reference.alternative[first])
                for o, p in law.items()
                if p
            },
            key=repr,
        )
        for images in itertools.product(outputs, repeat=len(support)):
            phi = dict(zip(support, images, strict=True))
            if phi_verified(reference, first, second, phi):
                found.append(f"φ_{first},{second} = {phi}")
    decision = theta_reducibility(setting, mechanism)
    reducible = bool(found) or decision.holds
    if ctx.mutant == "necessary":
        return witness_evidence(
            "APKDP ⇔ PPKDP for all (ε, δ) (δ_A ≡ 0) ⇒ Θ-reducible, on B a fair bit, M a coin "
            "flip when B = 0 and a constant when B = 1",
            all_zero and equivalent and reducible,
            counterexample=f"δ_A ≡ 0 but not Θ-reducible: {decision.counterexample}",
        )
    verified = all_zero and equivalent and not reducible
    return witness_evidence(
        "reducibility is not necessary: B a fair bit, M a fair coin when B = 0 and the constant "
        "'c' when B = 1, ignoring D(i): δ_A ≡ 0 (APKDP ⇔ PPKDP) but no φ exists",
        verified,
        values={
            **{name: exact_repr(d) for name, d in deltas.items()},
            "why not reducible": str(decision.counterexample),
        },
        counterexample=None
        if verified
        else (f"δ_A: {deltas}; maps found: {found}; exactpml says reducible: {decision.holds}"),
    )
