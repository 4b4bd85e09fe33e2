"""Claims of the thesis *Lowering the cost of anonymization*, §3.1.3 (ids ``pk.*``).

Active vs passive partial knowledge (seed ``001_89322ec27b787c78.txt``; formulas lost in
extraction are restated in CLAIMS.md, section ``pk.``, which these checks follow).  The
library under test is :mod:`exactpml.partial_knowledge`; the reference values come from
:mod:`proofs_check.claims._pk_reference` (enumeration straight from the definitions) or from
closed forms derived by hand in the docstrings, never from the library itself.  Every value
is exact; ε is given as ``LogValue(r)`` (e^ε = r rational) unless an irrational ε is named.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from fractions import Fraction
from math import comb, prod
from typing import Any, NamedTuple, cast

import sympy
from hypothesis import strategies as st

from exactpml import Distribution, LogValue, Mechanism
from exactpml import strategies as xst
from exactpml.leakage.hockey_stick import hockey_stick, short_decimal
from exactpml.partial_knowledge import (
    CountingMechanism,
    KnownCount,
    PartialKnowledge,
    apkdp_delta,
    apkdp_epsilon,
    arithmetic_mean,
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
    quadratic_mean,
    reducibility_not_necessary,
    remark_2,
    theta_reducibility,
)
from exactpml.partial_knowledge.queries import ReducibleQuery
from proofs_check import (
    CheckContext,
    Evidence,
    check,
    exact_instances,
    exact_repr,
    exact_values,
    property_holds,
    witness_evidence,
)
from proofs_check.claims._pk_reference import (
    ConditionalLaws,
    conditional_laws,
    def_58_quantity,
    describe_mechanism,
    describe_setting,
    plrv_form,
    set_form,
)

RATIOS = st.one_of(st.just(Fraction(1)), st.fractions(min_value=1, max_value=4, max_denominator=6))
"""e^ε for the properties: ε = 0 often, else e^ε a rational in [1, 4]."""

DELTAS = st.fractions(min_value=0, max_value=1, max_denominator=12)


def _smaller(ctx: CheckContext, divisor: int) -> int:
    """Fewer instances for the heavier properties (sympy radicals, many settings)."""
    return max(10, ctx.examples // divisor)


# --- pk.prop_8 --------------------------------------------------------------------------------


@st.composite
def _dp_instances(draw: st.DrawFn) -> tuple[Mechanism, Fraction, Fraction]:
    widths = draw(
        st.lists(st.integers(2, 3), min_size=1, max_size=3).filter(lambda w: prod(w) <= 12)
    )
    databases = list(itertools.product(*(range(w) for w in widths)))
    outputs = list(range(draw(st.integers(1, 4))))
    mechanism = draw(xst.mechanisms(inputs=databases, outputs=outputs))
    return mechanism, draw(RATIOS), draw(DELTAS)


def _neighbours(databases: Sequence[Any]) -> list[tuple[Any, Any]]:
    """Ordered pairs of database tuples differing in exactly one record."""
    return [
        (x, y)
        for x in databases
        for y in databases
        if len(x) == len(y) and sum(a != b for a, b in zip(x, y, strict=True)) == 1
    ]


def _row(mechanism: Mechanism, x: Hashable) -> dict[Hashable, Fraction]:
    return {o: Fraction(p) for o, p in mechanism.row(x).items()}


@check(
    "pk.prop_8",
    mutants={
        "no_positive_part": "the PLRV form without max(0, ·): E[1 - e^{ε - L(O)}]",
        "singletons": "the set form maximised over single outputs only",
    },
)
def prop_8(ctx: CheckContext) -> list[Evidence]:
    """pk.prop_8 — thesis Proposition 8 (as used in §3.1.3).

    Statement: M is (ε,δ)-DP iff E_{O~M(D1)}[max(0, 1 - e^{ε-L(O)})] ≤ δ for all neighbours
    D1, D2, and that expectation equals the set form max_S P[M(D1) ∈ S] - e^ε P[M(D2) ∈ S].

    P: on random exact kernels over databases of 1 to 3 records (alphabets of 2 or 3 values,
    at most 12 databases, Hamming neighbours, 1 to 4 outputs, zeros allowed) and e^ε rational
    in [1, 4]: for every
    ordered neighbour pair the PLRV form (evaluated term by term, L = +oo counting 1), the set
    form (maximum over every subset of outputs) and exactpml's hockey-stick divergence agree
    exactly, and "DP at (ε, δ) by sets" ⇔ "max PLRV form ≤ δ" at a random δ.
    """
    plain = ctx.mutant != "no_positive_part"
    largest = 1 if ctx.mutant == "singletons" else None

    def form(p: dict[Hashable, Fraction], q: dict[Hashable, Fraction], r: Fraction) -> Fraction:
        if plain:
            return plrv_form(p, q, r)
        return sum(
            (p_o * (1 if q.get(o, 0) == 0 else 1 - r * q[o] / p_o) for o, p_o in p.items() if p_o),
            Fraction(0),
        )

    def holds(instance: tuple[Mechanism, Fraction, Fraction]) -> bool:
        mechanism, ratio, delta = instance
        worst = Fraction(0)
        by_sets = True
        for x, y in _neighbours(mechanism.inputs):
            p, q = _row(mechanism, x), _row(mechanism, y)
            outputs = list(mechanism.outputs)
            library = hockey_stick(
                [p.get(o, Fraction(0)) for o in outputs],
                [q.get(o, Fraction(0)) for o in outputs],
                ratio,
            )[0]
            value, by_events = form(p, q, ratio), set_form(p, q, ratio, largest=largest)
            if not value == by_events == library:
                return False
            worst = max(worst, value)
            by_sets = by_sets and by_events <= delta
        return by_sets == (worst <= delta)

    def explain(instance: tuple[Mechanism, Fraction, Fraction]) -> str:
        mechanism, ratio, delta = instance
        for x, y in _neighbours(mechanism.inputs):
            p, q = _row(mechanism, x), _row(mechanism, y)
            a, b = form(p, q, ratio), set_form(p, q, ratio, largest=largest)
            if a != b:
                return f"D1 = {x}, D2 = {y}, e^ε = {ratio}: PLRV form {a}, set form {b}"
        return f"e^ε = {ratio}, δ = {delta}"

    return [
        property_holds(
            ctx,
            _dp_instances(),
            holds,
            describe="PLRV form = set form = hockey-stick for all neighbours; DP ⇔ PLRV form ≤ δ",
            explain=explain,
        )
    ]


# --- pk.thm_1 ---------------------------------------------------------------------------------


@st.composite
def _settings_with_mechanism(
    draw: st.DrawFn, *, max_records: int = 3
) -> tuple[PartialKnowledge, Mechanism, Fraction]:
    setting = draw(xst.partial_knowledge_settings(max_records=max_records))
    mechanism = draw(xst.setting_mechanisms(setting))
    return setting, mechanism, draw(RATIOS)


def _explain_setting(instance: tuple[Any, ...]) -> str:
    setting, mechanism, *rest = instance
    extra = ", ".join(str(v) for v in rest)
    return f"{describe_setting(setting)}; M = {describe_mechanism(mechanism)}; {extra}"


def _reference_deltas(laws: ConditionalLaws, ratio: Fraction) -> dict[Hashable, Fraction]:
    return {b: plrv_form(laws.value[b], laws.alternative[b], ratio) for b in laws.weights}


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
        deltas = _reference_deltas(reference, ratio)
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
            _settings_with_mechanism(),
            holds,
            describe=(
                "Def 58 = Σ_b P[b] δ_A(b); APKDP ⇒ PPKDP; (ε,0)-APKDP ⇔ (ε,0)-PPKDP"
                if ctx.mutant != "ppk_implies_apk"
                else "PPKDP ⇒ APKDP at δ = δ_PPK"
            ),
            explain=_explain_setting,
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


# --- pk.ex_7 ----------------------------------------------------------------------------------


class Scale(NamedTuple):
    """Example 7's parameters."""

    voters: int
    known: int
    threshold: int
    p: Fraction


THESIS_SCALE = Scale(voters=1000, known=100, threshold=100, p=Fraction(1, 10_000))
"""CLAIMS.md pk.ex_7: the thesis's scale; p = 10^-4 (lost in extraction, "very small")."""
SMALL_SCALE = Scale(voters=12, known=4, threshold=3, p=Fraction(1, 10))
"""Issue 5's enumerable scale (2^11 databases per target value)."""
RATIO_7 = Fraction(3)


def _closed_form_7(
    voters: int, known: int, threshold: int, p: Fraction, ratio: Fraction
) -> tuple[dict[int, Fraction], Fraction, Fraction]:
    """Example 7 by hand: δ_A(k) for each number k of known Yes votes, δ_APK, δ_PPK.

    Derivation (t = No, t' = Yes, U = voters - known - 1 unknown votes, C ~ Bin(U, p),
    b(j) = P[C = j], F(j) = P[C ≤ j]).  Given k known Yes, the count is k + C under t and
    k + 1 + C under t'.  Since b(j)/b(j-1) = (U-j+1)p / (j(1-p)) ≤ ρ = Up/(1-p):
    if ρ ≤ e^ε - 1 (checked below, exactly), every released count c contributes
    max(0, b(c-k) - e^ε b(c-k-1)) = 0 except c = k (possible only under t, when k > T:
    contributes b(0)), and ⊥ contributes max(0, F(T-k) - e^ε F(T-k-1)) = 0 for k < T
    (F(j) - e^ε F(j-1) ≤ b(j) - (e^ε-1) b(j-1) ≤ 0) and F(0) = b(0) for k = T.  So
    δ_A(k) = (1-p)^U if k ≥ T else 0, δ_APK = (1-p)^U (when k = T is possible) and
    δ_PPK = P[Bin(known, p) ≥ T] (1-p)^U.
    """
    unknown = voters - known - 1
    rho = unknown * p / (1 - p)
    if not rho <= ratio - 1:
        raise ValueError(f"the closed form needs Up/(1-p) = {rho} ≤ e^ε - 1 = {ratio - 1}")
    top = (1 - p) ** unknown
    by_count = {k: (top if k >= threshold else Fraction(0)) for k in range(known + 1)}
    tail = sum(
        (comb(known, k) * p**k * (1 - p) ** (known - k) for k in range(threshold, known + 1)),
        Fraction(0),
    )
    return by_count, max(by_count.values()), tail * top


def _count(key: Hashable) -> int:
    """The number of known Yes votes of a KnownCount class."""
    assert isinstance(key, KnownCount)
    return key.count


def _big(value: Fraction) -> str:
    """A short, correctly rounded decimal of a long exact rational (for the report)."""
    return f"{short_decimal(value)} (exact rational, correctly rounded)"


@check(
    "pk.ex_7",
    mutants={
        "ppk_not_tiny": "δ_PPK ≥ 10^-100 at the thesis's scale (direction flipped)",
        "apk_below_half": "max_b δ_A(b) < 1/2 at the thesis's scale (direction flipped)",
    },
)
def ex_7(ctx: CheckContext) -> list[Evidence]:
    """pk.ex_7 — thesis Example 7 (thresholded referendum).

    Statement (CLAIMS.md; the thesis's p was lost, its text needs p "very small"): 1000
    voters, each Yes w.p. p = 10^-4, the count released iff > 100 (else ⊥), the attacker
    knows 100 votes, t = No vs t' = Yes, e^ε = 3: max_b δ_A(b) ≥ 1/2 while δ_PPK < 10^-100.

    The seed gives no numbers, so this is a witness and a self-consistency check:

    W: exactpml's thesis-scale δ_APK and δ_PPK (through the count's sufficient statistic)
    satisfy δ_APK ≥ 1/2 > 10^-100 > δ_PPK, exactly.
    E: (i) at 12 voters, 4 known, threshold 3, p = 1/10, the sufficient-statistic path equals
    the enumeration of every database (δ_A per knowledge value, δ_APK, δ_PPK); (ii) at both
    scales exactpml's δ_A(k), δ_APK and δ_PPK equal the closed forms derived by hand in
    :func:`_closed_form_7` (δ_APK = (1-p)^U, δ_PPK = P[Bin(K,p) ≥ T] (1-p)^U), an independent
    computation, not a value from the text.
    """
    thesis = example_7(*THESIS_SCALE, epsilon=LogValue(RATIO_7))
    small_count = example_7(*SMALL_SCALE, epsilon=LogValue(RATIO_7), method="count")
    small_enum = example_7(*SMALL_SCALE, epsilon=LogValue(RATIO_7), method="enumerate")
    bound = Fraction(1, 10**100)
    half = Fraction(1, 2)
    apk_ok = thesis.delta_apk < half if ctx.mutant == "apk_below_half" else thesis.delta_apk >= half
    ppk_ok = thesis.delta_ppk >= bound if ctx.mutant == "ppk_not_tiny" else thesis.delta_ppk < bound
    failures = []
    if not apk_ok:
        failures.append(f"δ_APK = {_big(thesis.delta_apk)} (at {thesis.worst!r})")
    if not ppk_ok:
        failures.append(f"δ_PPK = {_big(thesis.delta_ppk)} vs 10^-100")
    witness = witness_evidence(
        "1000 voters, 100 known, threshold 100, p = 10^-4, e^ε = 3: δ_APK = max_b δ_A(b) ≥ 1/2 "
        "and δ_PPK < 10^-100 (APKDP ≫ PPKDP, strict for δ > 0)"
        if ctx.mutant is None
        else f"the mutant {ctx.mutant!r} at the thesis's scale",
        not failures,
        values={
            "δ_APK": "(9999/10000)^899",
            "δ_APK ≈": short_decimal(thesis.delta_apk),
            "δ_PPK": "(1/10000)^100 · (9999/10000)^899",
            "δ_PPK ≈": short_decimal(thesis.delta_ppk),
            "worst knowledge": f"{_count(thesis.worst)} known Yes votes",
        },
        counterexample="; ".join(failures) or None,
    )

    # (i) sufficient statistic = enumeration at the small scale.
    enumerated: dict[int, Fraction] = {}
    for b, value in small_enum.by_known_count.items():
        k = sum(v == "Yes" for v in b)  # type: ignore[attr-defined]
        if enumerated.setdefault(k, value) != value:
            enumerated[k] = Fraction(-1)  # two knowledge values of one class disagree
    counted = {_count(key): value for key, value in small_count.by_known_count.items()}
    cases: list[tuple[str, object, object]] = [
        ("small: δ_A by known count, count path vs enumeration", counted, enumerated),
        ("small: δ_APK, count path vs enumeration", small_count.delta_apk, small_enum.delta_apk),
        ("small: δ_PPK, count path vs enumeration", small_count.delta_ppk, small_enum.delta_ppk),
    ]
    # (ii) closed forms at both scales.
    for name, scale, result in (
        ("small", SMALL_SCALE, small_count),
        ("thesis", THESIS_SCALE, thesis),
    ):
        by_count, apk, ppk = _closed_form_7(*scale, ratio=RATIO_7)
        got = {_count(key): value for key, value in result.by_known_count.items()}
        cases.append((f"{name}: δ_A(k) = (1-p)^U·[k ≥ T]", got == by_count, True))
        cases.append((f"{name}: δ_APK = (1-p)^U", result.delta_apk == apk, True))
        cases.append((f"{name}: δ_PPK = P[Bin(K,p) ≥ T]·(1-p)^U", result.delta_ppk == ppk, True))
    exact = exact_instances(
        cases, origin="from enumeration and hand-derived closed forms (the seed has no numbers)"
    )
    shown = exact_values(
        {
            "small δ_APK = (9/10)^7": small_count.delta_apk,
            "small δ_PPK = (37/10^4)(9/10)^7": small_count.delta_ppk,
            "thesis δ_APK ≈": short_decimal(thesis.delta_apk),
            "thesis δ_PPK ≈": short_decimal(thesis.delta_ppk),
        }
    )
    exact = Evidence(
        exact.kind,
        exact.passed,
        exact.summary,
        shown,
        counterexample=exact.counterexample,
        label=exact.label,
    )
    return [witness, exact]


# --- pk.thm_2 ---------------------------------------------------------------------------------


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
    perms = {b: draw(st.permutations(outputs)) for b in values}
    kernel: dict[Hashable, dict[int, Fraction]] = {}
    for database in itertools.product(*(r.outcomes for r in setting.records)):
        b = tuple(database[j] for j in known)
        row = base.row(tuple(database[j] for j in rest))
        kernel[database] = {perms[b][int(y)]: Fraction(p) for y, p in row.items()}  # type: ignore[call-overload]
    return setting, Mechanism(kernel, outputs=outputs), draw(RATIOS)


def _phi_verified(
    laws: ConditionalLaws, first: Hashable, second: Hashable, phi: dict[Hashable, Hashable]
) -> bool:
    """Def 59 for one pair, against the reference laws: φ injective on the union support U1
    of the laws given ``first``, P[o|x, first] = P[φ(o)|x, second] for x = t, t'."""
    support = {
        o for law in (laws.value[first], laws.alternative[first]) for o, p in law.items() if p
    }
    if len({phi[o] for o in support}) != len(support):
        return False
    zero = Fraction(0)
    return all(
        law[first].get(o, zero) == law[second].get(phi[o], zero)
        for law in (laws.value, laws.alternative)
        for o in support
    )


@check(
    "pk.thm_2",
    mutants={
        "without_reducibility": "δ_A(b) is the same for all b for every mechanism (Θ-reducibility "
        "dropped)",
        "necessary": "Θ-reducibility is necessary: APKDP ⇔ PPKDP for all (ε,δ) ⇒ Θ-reducible",
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
    with unconstrained random kernels: exactpml's decision finds the constructed ones
    reducible; within every class of knowledge values it reports as mutually reducible, its
    φ passes Def 59 against the reference laws and the reference δ_A(b) are equal; when the
    mechanism is reducible, δ_APK = δ_PPK and APKDP ⇔ PPKDP at a random δ.
    W: the not-necessary counterexample (B a fair bit, M a coin flip when B = 0 and a
    constant when B = 1, ignoring D(i)): δ_A(b) = 0 for every b at e^ε = 1, 2 and ε = 1, so
    APKDP ⇔ PPKDP for every (ε, δ); yet no map from either knowledge value's outputs to the
    outputs {heads, tails, c} satisfies Def 59 (all 9 + 3 maps tried against the reference
    laws), and exactpml's decision agrees.
    """

    def holds(
        instance: tuple[tuple[PartialKnowledge, Mechanism, Fraction], bool, Fraction],
    ) -> bool:
        (setting, mechanism, ratio), constructed, delta = instance
        epsilon = LogValue(ratio)
        reference = conditional_laws(setting, mechanism)
        deltas = _reference_deltas(reference, ratio)
        decision = theta_reducibility(setting, mechanism)
        if constructed and not decision.holds:
            return False
        classes = (
            [list(deltas)]
            if ctx.mutant == "without_reducibility"
            else [list(c) for c in decision.classes]
        )
        for members in classes:
            if len({deltas[b] for b in members}) != 1:
                return False
            if ctx.mutant is None and any(
                not _phi_verified(reference, members[0], b, decision.output_map(members[0], b))
                for b in members[1:]
            ):
                return False
        if decision.holds:
            laws = decision.laws
            if apkdp_delta(setting, laws, epsilon).delta != ppkdp_delta(setting, laws, epsilon):
                return False
            return is_apkdp(setting, laws, epsilon, delta) == is_ppkdp(
                setting, laws, epsilon, delta
            )
        return True

    instances = st.tuples(
        st.one_of(
            st.tuples(_reducible_by_construction(), st.just(True)),
            st.tuples(_settings_with_mechanism(), st.just(False)),
        ),
        DELTAS,
    ).map(lambda pair: (pair[0][0], pair[0][1], pair[1]))

    def explain(instance: Any) -> str:
        return _explain_setting(instance[0]) + f"; constructed reducible: {instance[1]}"

    property_evidence = property_holds(
        ctx,
        instances,
        holds,
        describe="Θ-reducible ⇒ δ_A(b) constant in b ⇒ APKDP ⇔ PPKDP (φ checked against Def 59)",
        explain=explain,
        examples=_smaller(ctx, 2),
    )
    return [property_evidence, _not_necessary_witness(ctx)]


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
            if _phi_verified(reference, first, second, phi):
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


# --- pk.prop_26 -------------------------------------------------------------------------------

POSITIVE_VALUES = (Fraction(1), Fraction(2), Fraction(3), Fraction(1, 2), Fraction(4))


def _at_least_two(value: Hashable) -> bool:
    """The counting predicate of the pk.prop_26 instances."""
    return bool(value >= 2)  # type: ignore[operator]


def _queries(weights: Sequence[Fraction]) -> list[ReducibleQuery]:
    return [
        counting_query(_at_least_two),
        linear_query(list(weights)),
        arithmetic_mean(),
        geometric_mean(),
        harmonic_mean(),
        quadratic_mean(),
    ]


def _key(query: ReducibleQuery, n: int, value: object) -> Fraction:
    """A rational that identifies a positive output exactly: o^n (geometric), o² (quadratic),
    o itself otherwise."""
    power = {"geometric_mean": n, "quadratic_mean": 2}.get(query.kind, 1)
    expanded = sympy.expand(sympy.sympify(value) ** power)
    if not expanded.is_Rational:
        raise ValueError(f"{query.kind}: {value}^{power} = {expanded} is not rational")
    return Fraction(int(expanded.p), int(expanded.q))


def _claims_map(
    query: ReducibleQuery,
    setting: PartialKnowledge,
    first: Sequence[Fraction],
    second: Sequence[Fraction],
    mutant: str | None,
) -> Any:
    """φ_{first,second} written from CLAIMS.md pk.prop_26's formulas (sympy, exact)."""
    assert setting.known is not None
    n, known = setting.size, setting.known
    # Exact: knowledge values may be ints, and 1/3 on ints would be a float.
    pairs = [(Fraction(a), Fraction(c)) for a, c in zip(first, second, strict=True)]
    if query.kind == "count":
        count = sum(int(_at_least_two(c)) - int(_at_least_two(a)) for a, c in pairs)
        return lambda o: sympy.sympify(o) + count
    if query.kind == "linear":
        assert query.weights is not None
        shift = sum(query.weights[j] * (c - a) for j, (a, c) in zip(known, pairs, strict=True))
        return lambda o: sympy.sympify(o) + sympy.Rational(shift)
    if query.kind == "arithmetic_mean":
        total = sum((c - a for a, c in pairs), Fraction(0))
        shift = total if mutant == "mean_without_1_over_n" else total / n
        return lambda o: sympy.sympify(o) + sympy.Rational(shift)
    if query.kind == "geometric_mean":
        factor = sympy.Integer(1)
        for a, c in pairs:
            factor *= sympy.Rational(c / a) ** sympy.Rational(1, n)
        return lambda o: sympy.sympify(o) * factor
    if query.kind == "harmonic_mean":
        signed = [
            (1 / a - 1 / c) if mutant == "harmonic_sign" else (1 / c - 1 / a) for a, c in pairs
        ]
        shift = sympy.Rational(sum(signed, Fraction(0)))
        return lambda o: n / (n / sympy.sympify(o) + shift)
    shift = sympy.Rational(sum((c * c - a * a for a, c in pairs), Fraction(0)) / n)
    return lambda o: sympy.sqrt(sympy.sympify(o) ** 2 + shift)


Prop26Instance = tuple[PartialKnowledge, tuple[Any, ...], tuple[Any, ...], tuple[Fraction, ...]]
"""A setting with fixed known records, two knowledge values b1, b2 and linear weights."""


@st.composite
def _prop_26_instances(draw: st.DrawFn) -> Prop26Instance:
    size = draw(st.integers(1, 3))
    target = draw(st.integers(0, size - 1))
    records = []
    for j in range(size):
        width = draw(st.integers(2 if j == target else 1, 2))
        values = draw(
            st.lists(st.sampled_from(POSITIVE_VALUES), min_size=width, max_size=width, unique=True)
        )
        records.append(draw(xst.distributions(outcomes=values, full_support=True)))
    value, alternative = records[target].outcomes[:2]
    others = [j for j in range(size) if j != target]
    known = draw(st.lists(st.sampled_from(others), min_size=1, unique=True)) if others else []
    setting = PartialKnowledge(
        records, target=target, value=value, alternative=alternative, known=known
    )
    first = tuple(draw(st.sampled_from(records[j].support)) for j in setting.known or ())
    second = tuple(draw(st.sampled_from(records[j].support)) for j in setting.known or ())
    weights = draw(st.lists(st.fractions(-3, 3, max_denominator=3), min_size=size, max_size=size))
    return setting, first, second, tuple(weights)


def _prop_26_defect(instance: Prop26Instance, mutant: str | None) -> str | None:
    """The first query whose CLAIMS.md map fails Def 59 against the reference laws, or whose
    exactpml map differs from it; None when every query passes."""
    setting, first, second, weights = instance
    n = setting.size
    for query in _queries(weights):
        mechanism = query.mechanism(setting.records)
        laws = conditional_laws(setting, mechanism)
        mine = _claims_map(query, setting, first, second, mutant)
        theirs = query.output_map(setting, first, second)
        keyed = {
            name: {b: {_key(query, n, o): p for o, p in law[b].items()} for b in law}
            for name, law in (("t", laws.value), ("t'", laws.alternative))
        }
        support = {o for law in (laws.value[first], laws.alternative[first]) for o in law}
        images = set()
        for o in support:
            image = _key(query, n, mine(o))
            if image != _key(query, n, theirs(o)):
                return f"{query.kind}: φ({o}) = {mine(o)} by CLAIMS.md but {theirs(o)} by exactpml"
            images.add(image)
            for name, law in keyed.items():
                here = law[first].get(_key(query, n, o), Fraction(0))
                there = law[second].get(image, Fraction(0))
                if here != there:
                    return (
                        f"{query.kind}: P[{o} | {name}, b1={first}] = {here} but "
                        f"P[φ(o) = {mine(o)} | {name}, b2={second}] = {there}"
                    )
        if len(images) != len(support):
            return f"{query.kind}: φ is not injective on {sorted(map(str, support))}"
    return None


PROP_26_RECORDS = (
    Distribution({1: "1/3", 2: "2/3"}),
    Distribution({1: "1/2", 3: "1/4", 4: "1/4"}),
    Distribution({2: "1/5", 3: "4/5"}),
)
"""The fixed instance of pk.prop_26's E and W evidence: non-identical independent records."""


@check(
    "pk.prop_26",
    mutants={
        "harmonic_sign": "the harmonic mean's map with Σ_K (1/b1_j - 1/b2_j) (sign flipped)",
        "mean_without_1_over_n": "the arithmetic mean's shift without the factor 1/n",
        "other_records": "knowing record 1 is the same as knowing record 2 (the fixed-records "
        "hypothesis dropped)",
    },
)
def prop_26(ctx: CheckContext) -> list[Evidence]:
    """pk.prop_26 — thesis Proposition 26 and the note after it.

    Statement: with independent records and a fixed set K of known records (i ∉ K), counting
    and linear queries (φ: o ↦ o + Σ_K w_j(b2_j - b1_j)), the arithmetic mean (that shift / n),
    the geometric mean (o ↦ o·Π_K(b2_j/b1_j)^{1/n}), the harmonic mean
    (o ↦ n/(n/o + Σ_K(1/b2_j - 1/b1_j))) and the quadratic mean
    (o ↦ √(o² + (1/n)Σ_K(b2_j² - b1_j²))) are Θ-reducible.  Knowing k fixed records is not
    the same as knowing k other records when records are not identically distributed.

    E: on records D(0) ∈ {1, 2}, D(1) ∈ {1, 3, 4}, D(2) ∈ {2, 3} (non-uniform laws), target 0,
    K = {1}, b1 = 1, b2 = 4, exactpml's φ maps the smallest output of each query to the value
    computed by hand from the formulas (2, 15, 7/3, 2, 12/7, √7; count predicate "≥ 2", linear
    weights 1, 2, 3); and the counterexample's δ_A are 9/10 and 1/2, derived by hand (exact
    count; knowing record 1 leaves the Bern(1/10) record unknown: δ_A = P[it is No] = 9/10;
    knowing record 2 leaves a Bern(1/2) record: 1/2; for every e^ε ≥ 1).
    P: on random instances (1 to 3 records on positive values, random K, weights and pair
    b1, b2): for all six queries the map written from the formulas above satisfies Def 59
    against the reference laws and equals exactpml's map on the union support.
    W: exactpml decides all six queries Θ-reducible on the fixed instance and its φ passes
    Def 59 (reference laws) for every ordered pair of knowledge values; and the
    fixed-vs-other counterexample (records Yes w.p. 1/2, 1/2, 1/10, target 0): δ_A = 9/10 for
    every b when record 1 is known, 1/2 when record 2 is.
    """
    weights = (Fraction(1), Fraction(2), Fraction(3))
    setting = PartialKnowledge(PROP_26_RECORDS, target=0, value=1, alternative=2, known=[1])
    first, second = (Fraction(1),), (Fraction(4),)
    expected: dict[str, object] = {
        "count": 2,
        "linear": 15,
        "arithmetic_mean": Fraction(7, 3),
        "geometric_mean": 2,
        "harmonic_mean": Fraction(12, 7),
        "quadratic_mean": sympy.sqrt(7),
    }
    cases: list[tuple[str, object, object]] = []
    exhibited: list[str] = []
    failures: list[str] = []
    for query in _queries(weights):
        mechanism = query.mechanism(setting.records)
        laws = conditional_laws(setting, mechanism)
        support = sorted((o for o in laws.value[first]), key=lambda o: _key(query, setting.size, o))
        phi = query.output_map(setting, first, second)
        cases.append(
            (f"{query.kind}: φ_(1),(4)({support[0]})", phi(support[0]), expected[query.kind])
        )
        decision = theta_reducibility(setting, mechanism)
        pairs = list(itertools.permutations(laws.weights, 2))
        good = decision.holds and all(
            _phi_verified(laws, b1, b2, decision.output_map(b1, b2)) for b1, b2 in pairs
        )
        (exhibited if good else failures).append(f"{query.kind} ({len(pairs)} pairs)")
    for b1, b2 in itertools.permutations(conditional_laws(setting, mechanism).weights, 2):
        pair = (setting, cast(tuple[Any, ...], b1), cast(tuple[Any, ...], b2), weights)
        defect = _prop_26_defect(pair, ctx.mutant)
        if defect is not None:
            failures.append(f"CLAIMS.md's map for b1 = {b1}, b2 = {b2}: {defect}")
    with_first, with_second, count = fixed_versus_other_records()
    one = knowledge_deltas(with_first, count, LogValue(2))
    two = knowledge_deltas(with_second, count, LogValue(2))
    cases += [
        *(
            (f"counterexample, record 1 known: δ_A({b})", v, Fraction(9, 10))
            for b, v in one.items()
        ),
        *((f"counterexample, record 2 known: δ_A({b})", v, Fraction(1, 2)) for b, v in two.items()),
    ]
    exact = exact_instances(cases, origin="hand-derived from CLAIMS.md's formulas")

    prop = property_holds(
        ctx,
        _prop_26_instances(),
        lambda inst: _prop_26_defect(inst, ctx.mutant) is None,
        describe="all six queries: CLAIMS.md's φ satisfies Def 59 and equals exactpml's φ",
        explain=lambda inst: (
            f"{describe_setting(inst[0])}; b1 = {inst[1]}, b2 = {inst[2]}, weights = {inst[3]}: "
            f"{_prop_26_defect(inst, ctx.mutant)}"
        ),
        examples=_smaller(ctx, 4),
    )
    exhibits = witness_evidence(
        "exactpml exhibits φ for all six queries and every pair of knowledge values, each "
        "verified against Def 59, and equal to the map written from CLAIMS.md's formulas",
        not failures,
        values={"verified": ", ".join(exhibited)},
        counterexample=f"not verified: {', '.join(failures)}" if failures else None,
    )
    same = set(one.values()) == set(two.values())
    differs = not same if ctx.mutant != "other_records" else same
    other = witness_evidence(
        "knowing record 1 ≠ knowing record 2 (records Yes w.p. 1/2, 1/2, 1/10; exact count, "
        "e^ε = 2): δ_A = 9/10 vs 1/2"
        if ctx.mutant != "other_records"
        else "knowing record 1 ≡ knowing record 2 (mutant)",
        differs,
        values={"δ_A, record 1 known": exact_repr(one), "δ_A, record 2 known": exact_repr(two)},
        counterexample=None
        if differs
        else (f"δ_A with record 1 known {one}, with record 2 known {two}"),
    )
    return [exact, prop, exhibits, other]


# --- pk.prop_25 -------------------------------------------------------------------------------


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
            examples=_smaller(ctx, 2),
        )
    ]


# --- pk.remark_2 ------------------------------------------------------------------------------


def _binomial_delta(unknown: int, p: Fraction, ratio: Fraction) -> Fraction:
    """δ_A for the exact count by hand: Σ_j max(0, b(j) - e^ε b(j-1)), C ~ Bin(unknown, p).

    Given k known Yes, the count is k + C under t = No and k + 1 + C under t' = Yes, so the
    output k + j has probabilities b(j) and b(j-1), whatever k: the same value for every
    knowledge value and for no knowledge with the known records removed.
    """
    b = [comb(unknown, j) * p**j * (1 - p) ** (unknown - j) for j in range(unknown + 1)]
    b.append(Fraction(0))
    return (
        sum((max(Fraction(0), b[j] - ratio * b[j - 1]) for j in range(unknown + 2)), Fraction(0))
        if unknown >= 0
        else Fraction(0)
    )


@check(
    "pk.remark_2",
    mutants={
        "thresholded_like_counting": "thresholded counting also satisfies the observation: "
        "δ_A(Yes known) = δ_A(No known) = max(0, 1 - e^ε/2)",
    },
)
def remark_2_check(ctx: CheckContext) -> list[Evidence]:
    """pk.remark_2 — thesis Remark 2.

    Statement: for counting queries, knowing k of n records is the same as no knowledge with
    n - k records; false for thresholded counting, which is not Θ-reducible (CLAIMS.md: n = 3,
    one known record, release iff count > 1, p = 1/2, t = No vs t' = Yes:
    δ_A(No) = max(0, 1 - e^ε/2), δ_A(Yes) = 1/2).

    E: (i) exact count, votes Yes w.p. 1/3, n = 4 with 2 known records vs no knowledge and 2
    records: δ_A(b) for every b (exactpml, through enumeration) equals the no-knowledge δ
    (exactpml) and the hand formula Σ_j max(0, b(j) - e^ε b(j-1)) with C ~ Bin(1, 1/3), at
    e^ε = 1, 3/2, 3; (ii) CLAIMS.md's instance: δ_A(No) and δ_A(Yes) equal the stated values
    at e^ε = 1, 3/2, 2, 3 and at the irrational ε = 1/2 (δ_A(No) = 1 - e^{1/2}/2, positive
    since e < 4), while no knowledge with n - k = 2 records gives max(0, 1 - e^ε/2) for both
    (the same law as B = No); exactpml decides it not Θ-reducible.
    """
    cases: list[tuple[str, object, object]] = []
    third = Fraction(1, 3)
    vote = Distribution({"No": 1 - third, "Yes": third})
    count = CountingMechanism(lambda c: {c: 1}, predicate=lambda v: v == "Yes", name="count")
    knowing = PartialKnowledge([vote] * 4, target=0, value="No", alternative="Yes", known=[1, 2])
    nothing = PartialKnowledge([vote] * 2, target=0, value="No", alternative="Yes")
    for ratio in (Fraction(1), Fraction(3, 2), Fraction(3)):
        by_b = knowledge_deltas(knowing, count.as_mechanism(knowing.records), LogValue(ratio))
        none = knowledge_delta(nothing, count, LogValue(ratio), ())
        hand = _binomial_delta(1, third, ratio)
        shown = f"count, 2 of 4 known, e^ε = {ratio}"
        cases.append((f"{shown}: max_b δ_A(b)", max(by_b.values()), hand))
        cases.append((f"{shown}: min_b δ_A(b)", min(by_b.values()), hand))
        cases.append((f"count, no knowledge, 2 records, e^ε = {ratio}", none, hand))

    setting, release = remark_2()
    fewer = PartialKnowledge(setting.records[:2], target=0, value="No", alternative="Yes")
    half = Fraction(1, 2)
    epsilons: list[tuple[object, object]] = [
        (LogValue(r), max(Fraction(0), 1 - r / 2))
        for r in (Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3))
    ]
    epsilons.append((sympy.Rational(1, 2), 1 - sympy.exp(sympy.Rational(1, 2)) / 2))
    for epsilon, stated in epsilons:
        shown = f"e^ε = {epsilon.ratio}" if isinstance(epsilon, LogValue) else f"ε = {epsilon}"
        yes_expected = stated if ctx.mutant == "thresholded_like_counting" else half
        cases.append(
            (
                f"thresholded, {shown}: δ_A(No)",
                knowledge_delta(setting, release, epsilon, ("No",)),
                stated,
            )
        )
        cases.append(
            (
                f"thresholded, {shown}: δ_A(Yes)",
                knowledge_delta(setting, release, epsilon, ("Yes",)),
                yes_expected,
            )
        )
        cases.append(
            (
                f"thresholded, no knowledge, 2 records, {shown}",
                knowledge_delta(fewer, release, epsilon, ()),
                stated,
            )
        )
    cases.append(
        ("thresholded counting is Θ-reducible", theta_reducibility(setting, release).holds, False)
    )
    return [exact_instances(cases, origin="from CLAIMS.md and hand-derived binomial sums")]


# --- pk.full_knowledge ------------------------------------------------------------------------


@st.composite
def _full_knowledge_instances(draw: st.DrawFn, *, zeros: bool) -> tuple[Any, ...]:
    widths = draw(
        st.lists(st.integers(2, 3), min_size=1, max_size=3).filter(lambda w: prod(w) <= 12)
    )
    records = [
        draw(xst.distributions(outcomes=list(range(w)), full_support=not zeros)) for w in widths
    ]
    databases = list(itertools.product(*(range(w) for w in widths)))
    mechanism = draw(xst.mechanisms(inputs=databases, outputs=list(range(draw(st.integers(1, 3))))))
    return tuple(records), mechanism, draw(RATIOS), draw(DELTAS)


@check(
    "pk.full_knowledge",
    mutants={
        "zero_probability_records": "the same with records that may take values of probability "
        "0 (the hypothesis 'each d_{-i} possible' dropped)",
        "all_but_one": "the attacker knows every other record but one",
    },
)
def full_knowledge(ctx: CheckContext) -> list[Evidence]:
    """pk.full_knowledge — thesis, text after Definition 57 (full knowledge).

    Statement: when the attacker knows every other record (B = D_{-i}, each d_{-i} possible),
    the PLRV with partial knowledge is the classical PLRV and APKDP coincides with (ε,δ)-DP.

    P: on random full-support record laws (1 to 3 records, alphabets of 2 or 3 values) and
    random exact kernels on every database: for every target i, t ≠ t' and b = d_{-i},
    exactpml's L(o, b) equals ln P[M(d_{i←t}) = o] / P[M(d_{i←t'}) = o] for every output o
    possible under one of them; the largest APKDP δ over all (i, t, t') equals the (ε,δ)-DP δ
    computed by the set form over all Hamming neighbours, and APKDP ⇔ DP at a random δ.
    """
    zeros = ctx.mutant == "zero_probability_records"

    def holds(instance: tuple[Any, ...]) -> bool:
        records, mechanism, ratio, delta = instance
        epsilon = LogValue(ratio)
        n = len(records)
        dp = Fraction(0)
        for x, y in _neighbours(mechanism.inputs):
            dp = max(dp, set_form(_row(mechanism, x), _row(mechanism, y), ratio))
        active = Fraction(0)
        for i in range(n):
            for t, t2 in itertools.permutations(records[i].support, 2):
                others = [j for j in range(n) if j != i]
                if ctx.mutant == "all_but_one" and others:
                    others = others[1:]
                setting = PartialKnowledge(records, target=i, value=t, alternative=t2, known=others)
                laws = knowledge_laws(setting, mechanism)
                for b in laws.knowledge_values:
                    if ctx.mutant is None and not _classical_plrv(setting, laws, mechanism, b):
                        return False
                active = max(active, Fraction(apkdp_delta(setting, laws, epsilon).delta))
        return active == dp and (active <= delta) == (dp <= delta)

    def explain(instance: tuple[Any, ...]) -> str:
        records, mechanism, ratio, delta = instance
        laws = "; ".join(f"D({j}) ~ {r!r}" for j, r in enumerate(records))
        return f"{laws}; M = {mechanism!r}; e^ε = {ratio}, δ = {delta}"

    return [
        property_holds(
            ctx,
            _full_knowledge_instances(zeros=zeros),
            holds,
            describe="B = D_{-i}: L(o, b) is the classical PLRV; max APKDP δ = DP δ",
            explain=explain,
            examples=_smaller(ctx, 2),
        )
    ]


def _classical_plrv(
    setting: PartialKnowledge, laws: Any, mechanism: Mechanism, b: Hashable
) -> bool:
    assert setting.known is not None
    i = setting.target

    def database(x: Hashable) -> tuple[Hashable, ...]:
        values = dict(zip(setting.known or (), b, strict=True))  # type: ignore[call-overload]
        values[i] = x
        return tuple(values[j] for j in range(setting.size))

    p = _row(mechanism, database(setting.value))
    q = _row(mechanism, database(setting.alternative))
    for o in set(p) | set(q):
        if not p.get(o) and not q.get(o):
            continue
        library = partial_knowledge_plrv(setting, laws, o, b)
        classical = LogValue.infinity() if not q.get(o) else LogValue(p.get(o, Fraction(0)) / q[o])
        if library != classical:
            return False
    return True
