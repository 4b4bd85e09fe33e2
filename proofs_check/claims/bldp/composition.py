"""``bldp.composition``: composition of BLDP releases and the assumptions it needs.

Ligett, Peale, Reingold, *Bounded-Leakage Differential Privacy*, Properties (composability,
"analogous to DP"): the pair is (ε1+ε2, δ1+δ2)-BLDP when the randomness is independent given
the leakage; a counterexample where the assumption is dropped.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any, cast

from hypothesis import strategies as st

from exactpml import LogValue
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
from proofs_check import CheckContext, Evidence, check, property_holds, witness_evidence
from proofs_check.claims.bldp._common import MODELS, RATIOS, explain, models
from proofs_check.reference.bldp import (
    Conditional,
    conditionals,
    model_delta,
    model_epsilon,
    neighbour_pairs,
)

__all__ = ["composition"]


@st.composite
def _composition_instances(draw: st.DrawFn, *, everything_shared: bool) -> tuple[Any, ...]:
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
    leakage = draw(st.sampled_from(["joint", "first", "second"]))
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
    P2) and e^ε1, e^ε2: whenever the precondition holds (reference check, which exactpml's
    ``composition_precondition`` must match), δ_C(ε1+ε2) ≤ δ_1(ε1) + δ_2(ε2) and
    ε_C ≤ ε_1 + ε_2 (definition on the raw tables); with independent randomness and the
    joint leakage the precondition holds and each component's parameters are at most its
    own w.r.t. its own leakage.
    W: where the precondition is dropped: the one-time pad (M1 = x XOR r, M2 = r, shared r,
    constant leakage) has two (0,0)-BLDP components whose pair has ε = oo and δ(ε) = 1;
    judged against P1 alone, M1 = r (constant P1) and M2 = x (P2 = x, vacuously (0,0)-BLDP)
    compose to ε = oo, while against (P1, P2) the pair is (0,0)-BLDP.
    """

    def holds(instance: tuple[Any, ...]) -> bool:
        first, second, randomness, leakage, r1, r2 = instance
        composed = compose(first, second, randomness=randomness, leakage=leakage)
        pairs = neighbour_pairs(composed)
        laws = conditionals(composed)
        precondition = _independent_given_leakage(laws)
        if composition_precondition(composed).holds != precondition:
            return False
        if randomness == "independent" and leakage == "joint":
            if not precondition:
                return False
            for index, own in enumerate((first, second)):
                part = conditionals(component(composed, index))
                mine = conditionals(own)
                ratio = (r1, r2)[index]
                if model_delta(part, pairs, ratio) > model_delta(mine, pairs, ratio):
                    return False
                if model_epsilon(part, pairs) > model_epsilon(mine, pairs):
                    return False
        if not precondition and ctx.mutant != "precondition_dropped":
            return True
        parts = [conditionals(component(composed, index)) for index in (0, 1)]
        d1, d2 = model_delta(parts[0], pairs, r1), model_delta(parts[1], pairs, r2)
        bound = max(d1, d2) if ctx.mutant == "max_instead_of_sum" else d1 + d2
        if model_delta(laws, pairs, r1 * r2) > bound:
            return False
        e1, e2 = model_epsilon(parts[0], pairs), model_epsilon(parts[1], pairs)
        return bool(model_epsilon(laws, pairs) <= e1 + e2)

    return [
        property_holds(
            ctx,
            _composition_instances(everything_shared=ctx.mutant == "precondition_dropped"),
            holds,
            describe="M1 ⊥ M2 given the leakage ⇒ (M1, M2) is (ε1+ε2, δ1+δ2)-BLDP",
            explain=explain,
        ),
        _composition_witness(),
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
