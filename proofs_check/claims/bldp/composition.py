"""``bldp.composition``: composition of BLDP releases and the assumptions it needs.

Ligett, Peale, Reingold, *Bounded-Leakage Differential Privacy*, Properties (composability,
"analogous to DP"): the pair is (ε1+ε2, δ1+δ2)-BLDP when the randomness is independent given
the leakage; a counterexample where the assumption is dropped.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any, cast

import sympy
from hypothesis import strategies as st

from exactpml import Distribution, LogValue
from exactpml import strategies as xst
from exactpml.bldp import (
    BoundedLeakageModel,
    bldp_delta,
    bldp_epsilon,
    component,
    compose,
    composition_precondition,
    shared_randomness_composition,
    single_leakage_composition,
)
from proofs_check import (
    CheckContext,
    Evidence,
    check,
    exact_repr,
    proof_evidence,
    property_holds,
    sharpness_evidence,
    strengthening_evidence,
    witness_evidence,
)
from proofs_check.claims.bldp._common import MODELS, RATIOS, explain, models, pinned
from proofs_check.claims.bldp._proofs import TIMEOUT, UNIT, hockey_stick_sum
from proofs_check.evidence import searched_proof_evidence
from proofs_check.reference.bldp import (
    Conditional,
    conditionals,
    model_delta,
    model_epsilon,
    neighbour_pairs,
)

__all__ = ["canonical_model", "composition"]


_ONE_BIT = [(0,), (1,)]


@st.composite
def _randomized_responses(draw: st.DrawFn) -> BoundedLeakageModel:
    """M(x, r) = x with probability k/N (r uniform on N values, r < k), else 1 - x, on one bit,
    with a constant leakage: finite ε = log max(k, N-k)/min(k, N-k).  The tables of
    ``MODELS`` are deterministic in r, so their ε is almost always infinite and an ε-part of
    a composition bound is rarely tested on them."""
    size = draw(st.integers(2, 6))
    keep = draw(st.integers(1, size - 1))
    randomness = Distribution({r: Fraction(1, size) for r in range(size)})
    return BoundedLeakageModel(
        randomness,
        lambda x, r: x[0] if r < keep else 1 - x[0],
        lambda x, r: 0,
        databases=_ONE_BIT,
    )


_LEAKAGES = st.sampled_from(["joint", "first", "second"])


@st.composite
def _composition_instances(draw: st.DrawFn, *, everything_shared: bool) -> tuple[Any, ...]:
    if not everything_shared and draw(st.integers(0, 3)) == 0:  # finite ε on both sides
        first, second = draw(_randomized_responses()), draw(_randomized_responses())
        leakage = draw(_LEAKAGES)
        return first, second, "independent", leakage, draw(RATIOS), draw(RATIOS)
    first = draw(MODELS)
    shared = True if everything_shared else draw(st.booleans())
    if shared and draw(st.booleans()):
        # M2 publishes the shared r (ignoring x: (0,0)-BLDP), like the one-time pad's key.
        second = BoundedLeakageModel(
            first.randomness, lambda x, r: r, lambda x, r: 0, databases=first.databases
        )
    else:
        second = draw(
            xst.bounded_leakage_models(databases=first.databases, randomness=first.randomness)
            if shared
            else models(list(first.databases))
        )
    leakage = draw(_LEAKAGES)
    return first, second, "shared" if shared else "independent", leakage, draw(RATIOS), draw(RATIOS)


def _independent_given_leakage(laws: Conditional) -> bool:
    """M1 ⊥ M2 given P = o, for every x and o (reference, from pair-valued outputs)."""
    for by_leakage in laws.values():
        for law in by_leakage.values():
            first: dict[Hashable, Fraction] = {}
            second: dict[Hashable, Fraction] = {}
            for pair, p in law.items():
                a, b = cast(tuple[Hashable, Hashable], pair)
                first[a] = first.get(a, Fraction(0)) + p
                second[b] = second.get(b, Fraction(0)) + p
            if any(
                law.get((a, b), Fraction(0)) != pa * pb
                for a, pa in first.items()
                for b, pb in second.items()
            ):
                return False
    return True


@check(
    "bldp.composition",
    mutants={
        "precondition_dropped": "(ε1+ε2, δ1+δ2) also when M1 and M2 share their randomness "
        "(conditional independence given the leakage dropped)",
        "max_instead_of_sum": "the pair is (ε1+ε2, max(δ1, δ2))-BLDP",
        "parallel_epsilon": "the pair is (max(ε1, ε2), δ1+δ2)-BLDP (parallel composition's "
        "max for sequential composition's sum)",
    },
    strengthenings={
        "delta_strict": "at ε1 = ε2 = 0 the pair's δ is < δ1 + δ2 whenever δ1, δ2 > 0 (<= made "
        "strict)",
    },
)
def composition(ctx: CheckContext) -> list[Evidence]:
    """bldp.composition — poster, "Properties": composability "analogous to DP".

    Statement checked (the DP-analogous one, with the precondition found): let C = (M1, M2)
    run on one randomness space with leakage L.  If M1(x,·) and M2(x,·) are independent
    conditionally on L(x,·) = o for every x and possible o, then C is (ε1+ε2, δ1+δ2)-BLDP
    w.r.t. L, where (εj, δj) are Mj's parameters w.r.t. L.  The precondition holds for
    independent randomness R1 × R2 with the joint leakage (P1, P2); Mj's parameters w.r.t.
    (P1, P2) are then at most its parameters w.r.t. Pj alone.

    P: on random pairs of models (independent or shared randomness; leakage (P1, P2), P1 or
    P2; a quarter of them two one-bit randomized responses, whose ε is finite) and e^ε1,
    e^ε2: whenever the precondition holds (reference check, which exactpml's
    ``composition_precondition`` must match), δ_C(ε1+ε2) ≤ δ_1(ε1) + δ_2(ε2) and
    ε_C ≤ ε_1 + ε_2 (definition on the raw tables); with independent randomness and the
    joint leakage the precondition holds and each component's parameters are at most its
    own w.r.t. its own leakage.
    W: where the precondition is dropped: the one-time pad (M1 = x XOR r, M2 = r, shared r,
    constant leakage) has two (0,0)-BLDP components whose pair has ε = oo and δ(ε) = 1;
    judged against P1 alone, M1 = r (constant P1) and M2 = x (P2 = x, vacuously (0,0)-BLDP)
    compose to ε = oo, while against (P1, P2) the pair is (0,0)-BLDP.
    C (proved, z3, two named parts over sub-domains; :func:`_composition_proofs`): given o,
    the precondition makes the pair's law the product of M1's and M2's.  Pure part (δ1 =
    δ2 = 0), any output spaces: at every point (m1, m2), p1 <= e^{ε1} q1 and p2 <= e^{ε2} q2
    give p1 p2 <= e^{ε1+ε2} q1 q2, so (ε1+ε2, 0); every ε1, ε2 >= 0.  δ part at ε1 = ε2 = 0,
    components on 2 outputs: δ of the product <= δ1 + δ2.  The general (ε1+ε2, δ1+δ2) on
    2 × 2 outputs is beyond z3 in seconds (unknown after 8 s) and stays tested (P above).
    Strengthening: at ε = 0 the strict form is proved (not sharp: 1 - (1-δ1)(1-δ2) < δ1 + δ2).
    """
    proofs = _composition_proofs(ctx.mutant, ctx)

    mutant = ctx.mutant

    def holds(instance: tuple[Any, ...]) -> bool:
        return _holds(instance, mutant)

    regime = pinned(
        _pinned_pairs(),
        holds,
        describe="M1 ⊥ M2 given the leakage ⇒ (ε1+ε2, δ1+δ2), on Kairouz-Oh-Viswanath's "
        "canonical (ε, δ) pairs and randomized responses, where the bounds are attained",
        explain=explain,
    )
    if regime.passed is False and not ctx.search_only:  # a search-alone run needs the search
        return [regime, *proofs]  # the random instances would only repeat it, more slowly
    return [
        regime,
        property_holds(
            ctx,
            _composition_instances(everything_shared=mutant == "precondition_dropped"),
            holds,
            describe="M1 ⊥ M2 given the leakage ⇒ (M1, M2) is (ε1+ε2, 1-(1-δ1)(1-δ2))-BLDP, "
            "hence (ε1+ε2, δ1+δ2)-BLDP",
            explain=explain,
        ),
        _composition_witness(),
        *_sharpness(),
        *proofs,
        *(_composition_strengthenings() if mutant is None else ()),
    ]


_PURE_DOMAIN = (
    "every pair of neighbours x, x' and leakage value o with M1, M2 independent given o, on "
    "any output spaces: every point (m1, m2) (p_j = Pr[M_j(x) = m_j | o], q_j = "
    "Pr[M_j(x') = m_j | o] in [0, 1]) and every ε1, ε2 >= 0; δ1 = δ2 = 0"
)
_DELTA_DOMAIN = (
    "every pair of neighbours x, x' and leakage value o with M1, M2 independent given o, "
    "every conditional law of M1 and of M2 on 2 outputs (P_j = M_j(x) | o, Q_j = M_j(x') | o); "
    "ε1 = ε2 = 0"
)


def _two_point(name: str) -> tuple[sympy.Symbol, tuple[Any, Any]]:
    value = sympy.Symbol(name, real=True)
    return value, (value, 1 - value)


def _composition_proofs(mutant: str | None, search: CheckContext | None = None
                        ) -> list[Evidence]:
    """The pure part and the δ part at ε = 0 (see the check's docstring)."""
    proofs = []
    if mutant in (None, "parallel_epsilon"):
        e1, e2 = (sympy.Symbol(name, real=True) for name in ("epsilon_1", "epsilon_2"))
        p1, q1, p2, q2 = (sympy.Symbol(name, real=True) for name in ("p1", "q1", "p2", "q2"))
        factor = (
            sympy.Max(sympy.exp(e1), sympy.exp(e2)) if mutant else sympy.exp(e1) * sympy.exp(e2)
        )
        proofs.extend(
            searched_proof_evidence(
                search,
                "pure part with max(ε1, ε2): p1 p2 <= e^{max(ε1, ε2)} q1 q2 (mutant)" if mutant
                else "pure part: (ε1, 0) and (ε2, 0) ⇒ (ε1+ε2, 0): p1 p2 <= e^{ε1+ε2} q1 q2 at "
                "every point",
                p1 * p2, factor * q1 * q2,
                {p1: UNIT, q1: UNIT, p2: UNIT, q2: UNIT, e1: sympy.Interval(0, sympy.oo),
                 e2: sympy.Interval(0, sympy.oo)},
                domain_text=_PURE_DOMAIN,
                assuming=(sympy.Le(p1, sympy.exp(e1) * q1), sympy.Le(p2, sympy.exp(e2) * q2)),
                timeout=TIMEOUT,
            )
        )
    if mutant in (None, "max_instead_of_sum", "precondition_dropped"):
        (a, first), (b, other), (c, second), (d, last) = (
            _two_point(name) for name in ("p1", "q1", "p2", "q2")
        )
        one, two = hockey_stick_sum(first, other, 1), hockey_stick_sum(second, last, 1)
        variables: dict[Any, Any] = {a: UNIT, b: UNIT, c: UNIT, d: UNIT}
        if mutant == "precondition_dropped":
            joint, coupled, variables, laws = _couplings()
            proofs.append(
                proof_evidence(
                    "shared randomness (any coupling of M1, M2 given o): δ <= δ1 + δ2 at "
                    "ε = 0 (mutant)",
                    hockey_stick_sum(joint, coupled, 1), _coupling_bound(joint, coupled),
                    variables,
                    domain_text="every pair of joint laws of (M1, M2) given o on 2 × 2 outputs "
                    "(M1, M2 not independent); ε1 = ε2 = 0", assuming=laws, timeout=TIMEOUT,
                )
            )
            return proofs
        product = hockey_stick_sum(
            tuple(x * y for x in first for y in second),
            tuple(x * y for x in other for y in last), 1,
        )
        bound, part = (
            (sympy.Max(one, two), "δ part at ε = 0: δ <= max(δ1, δ2) (mutant)")
            if mutant
            else (one + two, "δ part: (0, δ1) and (0, δ2) ⇒ (0, δ1 + δ2): δ of the product "
                  "<= δ1 + δ2")
        )
        proofs.append(
            proof_evidence(part, product, bound, variables, domain_text=_DELTA_DOMAIN,
                           timeout=TIMEOUT)
        )
    return proofs


def _couplings() -> tuple[Any, ...]:
    """Joint laws J (under x) and K (under x') of (M1, M2) given o on 2 × 2 outputs."""
    cells = [(i, j) for i in (0, 1) for j in (0, 1)]
    joint = tuple(sympy.Symbol(f"J_{i}{j}", real=True) for i, j in cells)
    coupled = tuple(sympy.Symbol(f"K_{i}{j}", real=True) for i, j in cells)
    variables = {value: UNIT for value in (*joint, *coupled)}
    laws = (sympy.Eq(sympy.Add(*joint), 1), sympy.Eq(sympy.Add(*coupled), 1))
    return joint, coupled, variables, laws


def _coupling_bound(joint: tuple[Any, ...], coupled: tuple[Any, ...]) -> Any:
    """δ1 + δ2 at ε = 0 from the marginals of the joint laws (cells ordered (0,0), (0,1),
    (1,0), (1,1))."""
    def first(law: tuple[Any, ...]) -> tuple[Any, Any]:
        return law[0] + law[1], law[2] + law[3]

    def second(law: tuple[Any, ...]) -> tuple[Any, Any]:
        return law[0] + law[2], law[1] + law[3]

    return hockey_stick_sum(first(joint), first(coupled), 1) + hockey_stick_sum(
        second(joint), second(coupled), 1
    )


def _composition_strengthenings() -> list[Evidence]:
    (a, first), (b, other), (c, second), (d, last) = (
        _two_point(name) for name in ("p1", "q1", "p2", "q2")
    )
    one, two = hockey_stick_sum(first, other, 1), hockey_stick_sum(second, last, 1)
    product = hockey_stick_sum(
        tuple(x * y for x in first for y in second), tuple(x * y for x in other for y in last), 1
    )
    return [
        strengthening_evidence(
            "delta_strict", "at ε = 0, δ of the product < δ1 + δ2 when δ1, δ2 > 0", product,
            one + two, {a: UNIT, b: UNIT, c: UNIT, d: UNIT}, domain_text=_DELTA_DOMAIN,
            assuming=(sympy.Gt(one, 0), sympy.Gt(two, 0)), strict=True, timeout=TIMEOUT,
        )
    ]


def _product_laws(first: Conditional, second: Conditional) -> Conditional:
    """The reference's laws of (M1, M2) given (P1, P2) = (o1, o2) for independent randomness:
    the product of the conditional laws (R1 × R2, from the definitions)."""
    result: Conditional = {}
    for x in first:
        result[x] = {
            (o1, o2): {(m1, m2): p1 * p2 for m1, p1 in law1.items() for m2, p2 in law2.items()}
            for o1, law1 in first[x].items()
            for o2, law2 in second[x].items()
        }
    return result


def _holds(instance: tuple[Any, ...], mutant: str | None) -> bool:
    first, second, randomness, leakage, r1, r2 = instance
    composed = compose(first, second, randomness=randomness, leakage=leakage)
    pairs = neighbour_pairs(composed)
    laws = conditionals(composed)
    precondition = _independent_given_leakage(laws)
    if composition_precondition(composed).holds != precondition:
        return False
    if randomness == "independent" and leakage == "joint":
        if not precondition or laws != _product_laws(conditionals(first), conditionals(second)):
            return False
        for index, own in enumerate((first, second)):
            part = conditionals(component(composed, index))
            mine = conditionals(own)
            ratio = (r1, r2)[index]
            if model_delta(part, pairs, ratio) > model_delta(mine, pairs, ratio):
                return False
            if model_epsilon(part, pairs) > model_epsilon(mine, pairs):
                return False
    if not precondition and mutant != "precondition_dropped":
        return True
    parts = [conditionals(component(composed, index)) for index in (0, 1)]
    d1, d2 = model_delta(parts[0], pairs, r1), model_delta(parts[1], pairs, r2)
    e1, e2 = model_epsilon(parts[0], pairs), model_epsilon(parts[1], pairs)
    if mutant == "parallel_epsilon":
        return bool(
            model_delta(laws, pairs, max(r1, r2)) <= d1 + d2
            and model_epsilon(laws, pairs) <= max(e1, e2)
        )
    delta = model_delta(laws, pairs, r1 * r2)
    if delta > 1 - (1 - d1) * (1 - d2) and mutant != "precondition_dropped":
        return False  # the sharp form (canonical pairs), at most δ1 + δ2
    bound = max(d1, d2) if mutant == "max_instead_of_sum" else d1 + d2
    return bool(delta <= bound and model_epsilon(laws, pairs) <= e1 + e2)


def canonical_model(ratio: Fraction, delta: Fraction) -> BoundedLeakageModel:
    """Kairouz-Oh-Viswanath's canonical (ε, δ) pair on one bit, constant leakage: x = 0 gives
    (δ, (1-δ)e^ε/(1+e^ε), (1-δ)/(1+e^ε), 0) on outputs 0..3, x = 1 the reverse."""
    laws = {
        0: delta,
        1: (1 - delta) * ratio / (1 + ratio),
        2: (1 - delta) / (1 + ratio),
        3: Fraction(0),
    }
    return BoundedLeakageModel(
        Distribution({r: p for r, p in laws.items() if p}),
        lambda x, r: r if x == (0,) else 3 - r,
        lambda x, r: 0,
        databases=[(0,), (1,)],
    )


def _pinned_pairs() -> list[tuple[str, tuple[Any, ...]]]:
    pairs = []
    for (a, da), (b, db) in (
        ((Fraction(2), Fraction(1, 10)), (Fraction(3, 2), Fraction(1, 5))),
        ((Fraction(3), Fraction(0)), (Fraction(2), Fraction(0))),
    ):
        pairs.append(
            (
                f"canonical pairs (e^ε1, δ1) = ({a}, {da}), (e^ε2, δ2) = ({b}, {db})",
                (canonical_model(a, da), canonical_model(b, db), "independent", "joint", a, b),
            )
        )
    return pairs


def _sharpness() -> list[Evidence]:
    """1 - (1-δ1)(1-δ2) and ε1 + ε2 attained by canonical pairs, from the reference."""
    (_, first), (_, pure) = _pinned_pairs()
    values: dict[str, object] = {}
    attained = True
    for name, (m1, m2, _, _, r1, r2) in (("canonical", first), ("randomized response", pure)):
        composed = compose(m1, m2, randomness="independent", leakage="joint")
        pairs = neighbour_pairs(composed)
        d1 = model_delta(conditionals(m1), pairs, r1)
        d2 = model_delta(conditionals(m2), pairs, r2)
        delta = model_delta(conditionals(composed), pairs, r1 * r2)
        values[f"{name}: δ1, δ2, δ_C, δ1+δ2"] = exact_repr((d1, d2, delta, d1 + d2))
        attained = attained and delta == 1 - (1 - d1) * (1 - d2)
        if name == "randomized response":
            epsilon = model_epsilon(conditionals(composed), pairs)
            values[f"{name}: e^ε_C"] = epsilon.ratio
            attained = attained and epsilon == LogValue(r1 * r2)
    return [
        witness_evidence(
            "canonical pairs attain δ_C = 1-(1-δ1)(1-δ2) < δ1 + δ2 (δ1 = 1/10, δ2 = 1/5), "
            "randomized responses attain ε_C = ε1 + ε2",
            attained,
            values=values,
            counterexample=None if attained else str(values),
        ),
        sharpness_evidence(
            "(ε1+ε2, δ1+δ2) (composition)",
            attained=False,
            on="the canonical pairs (e^ε = 2, δ = 1/10 and e^ε = 3/2, δ = 1/5) and every "
            "random instance: ε1+ε2 is attained (randomized responses), δ1+δ2 only when "
            "δ1δ2 = 0",
            sharpest="(ε1+ε2, 1-(1-δ1)(1-δ2)) = (ε1+ε2, δ1+δ2-δ1δ2), attained exactly by the "
            "canonical pairs (Kairouz-Oh-Viswanath)",
            values=values,
        ),
    ]


def _composition_witness() -> Evidence:
    pad1, pad2 = shared_randomness_composition()
    pad = compose(pad1, pad2, randomness="shared", leakage="joint")
    noise, reveal = single_leakage_composition()
    against_first = compose(noise, reveal, randomness="independent", leakage="first")
    against_both = compose(noise, reveal, randomness="independent", leakage="joint")
    zero = LogValue(1)
    infinite = LogValue.infinity()
    facts = {
        "pad: components ε": (bldp_epsilon(pad1).epsilon, bldp_epsilon(pad2).epsilon),
        "pad: pair ε": bldp_epsilon(pad).epsilon,
        "pad: pair δ(ε = 0)": bldp_delta(pad, zero).delta,
        "pad: precondition": composition_precondition(pad),
        "single leakage: M1 ε w.r.t. P1, M2 ε w.r.t. P2": (
            bldp_epsilon(noise).epsilon,
            bldp_epsilon(reveal).epsilon,
        ),
        "single leakage: pair ε w.r.t. P1": bldp_epsilon(against_first).epsilon,
        "single leakage: pair ε w.r.t. (P1, P2)": bldp_epsilon(against_both).epsilon,
    }
    verified = (
        facts["pad: components ε"] == (zero, zero)
        and facts["pad: pair ε"] == infinite
        and facts["pad: pair δ(ε = 0)"] == 1
        and not composition_precondition(pad).holds
        and facts["single leakage: M1 ε w.r.t. P1, M2 ε w.r.t. P2"] == (zero, zero)
        and facts["single leakage: pair ε w.r.t. P1"] == infinite
        and facts["single leakage: pair ε w.r.t. (P1, P2)"] == zero
    )
    shown = {
        name: ", ".join(map(str, value)) if isinstance(value, tuple) else str(value)
        for name, value in facts.items()
    }
    return witness_evidence(
        "dropping the precondition breaks composition: a one-time pad on shared randomness "
        "((0,0) + (0,0) gives ε = oo), and judging the pair against P1 alone",
        verified,
        values=shown,
        counterexample=None if verified else str(shown),
    )
