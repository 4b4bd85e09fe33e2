"""``bldp.group_privacy``: group privacy of BLDP and when it holds.

Ligett, Peale, Reingold, *Bounded-Leakage Differential Privacy*, Properties (group privacy,
"analogous to DP"): (kε, k·e^{(k-1)ε}·δ) for databases at distance k when a path of
neighbours keeps the leakage value possible; a counterexample where it does not.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from exactpml import Distribution, LogValue
from exactpml.bldp import (
    BoundedLeakageModel,
    bldp_delta,
    bldp_epsilon,
    group_privacy_bound,
    group_privacy_violations,
    parity_leakage_group_privacy,
)
from proofs_check import CheckContext, Evidence, check, exact_repr, property_holds, witness_evidence
from proofs_check.claims.bldp._common import RATIOS, explain, models
from proofs_check.reference.bldp import (
    Conditional,
    conditionals,
    model_delta,
    model_epsilon,
    neighbour_pairs,
    pairs_within,
    path_within,
)

__all__ = ["group_privacy"]


@st.composite
def _group_instances(draw: st.DrawFn) -> tuple[Any, ...]:
    records = draw(st.sampled_from([2, 3]))
    databases = list(itertools.product((0, 1), repeat=records))
    if draw(st.booleans()):
        model = draw(models(databases))
    else:  # a noisy count: M(x, r) = Σx + g(r), leakage h(r); DP-like, so k matters
        size = draw(st.integers(2, 4))
        noise = draw(st.lists(st.integers(0, 1), min_size=size, max_size=size))
        leaks = draw(st.lists(st.integers(0, 1), min_size=size, max_size=size))
        model = BoundedLeakageModel(
            Distribution({r: Fraction(1, size) for r in range(size)}),
            lambda x, r: sum(x) + noise[r],
            lambda x, r: leaks[r],
            databases=databases,
        )
    k = draw(st.integers(2, records))
    return model, k, draw(RATIOS)


def _path_precondition(model: BoundedLeakageModel, laws: Conditional, k: int) -> bool:
    """Every x, x' within distance k sharing a possible o are joined by ≤ k steps through
    databases under which o is possible."""
    return all(
        path_within(model, laws, x, y, o, k)
        for x, y in pairs_within(model, k)
        for o in laws[x]
        if o in laws[y]
    )


@check(
    "bldp.group_privacy",
    mutants={
        "without_path_precondition": "group privacy holds without the path precondition",
        "no_group_factor": "databases at distance k are (kε, δ)-close (the factor "
        "k·e^{(k-1)ε} dropped)",
    },
)
def group_privacy(ctx: CheckContext) -> list[Evidence]:
    """bldp.group_privacy — poster, "Properties": group privacy "analogous to DP".

    Statement checked (the DP-analogous one, with the precondition found): if M is
    (ε,δ)-BLDP w.r.t. P and, for all x, x' at graph distance ≤ k and every leakage value o
    possible under both, x and x' are joined by a path of at most k neighbour steps through
    databases under which o has positive probability, then for every such pair and o
    Pr[M(x) ∈ S | o] ≤ e^{kε} Pr[M(x') ∈ S | o] + k·e^{(k-1)ε}·δ.  (The chain argument of DP
    gives Σ_{j<k} e^{jε} δ, at most the stated bound.)

    P: on random models on 2 or 3 one-bit records, k from 2 to the number of records, and
    e^ε: whenever the precondition holds (reference search, matching exactpml's
    ``group_privacy_violations``), the definition at distance ≤ k gives
    δ_k(kε) ≤ k e^{(k-1)ε} δ_1(ε) and ε_k ≤ k ε_1; exactpml's distance-k δ equals the
    definition's.
    W: without the precondition it fails completely: two bits, M(x) = x, P = parity; every
    neighbouring pair has different leakage (vacuously (0,0)-BLDP), but (0,0) and (1,1) at
    distance 2 share the leakage 0 and are told apart: δ_2 = 1 > 2·e^ε·0 at every ε.
    """

    def holds(instance: tuple[BoundedLeakageModel, int, Fraction]) -> bool:
        model, k, ratio = instance
        laws = conditionals(model)
        precondition = _path_precondition(model, laws, k)
        if (not group_privacy_violations(model, k)) != precondition:
            return False
        near, far = neighbour_pairs(model), pairs_within(model, k)
        group = model_delta(laws, far, ratio**k)
        if bldp_delta(model, LogValue(ratio**k), distance=k).delta != group:
            return False
        if not precondition and ctx.mutant != "without_path_precondition":
            return True
        delta = model_delta(laws, near, ratio)
        _, bound = group_privacy_bound(LogValue(ratio), delta, k)
        if ctx.mutant == "no_group_factor":
            bound = delta
        return bool(group <= bound and model_epsilon(laws, far) <= model_epsilon(laws, near) * k)

    return [
        property_holds(
            ctx,
            _group_instances(),
            holds,
            describe="path precondition ⇒ distance-k pairs are (kε, k e^{(k-1)ε} δ)-close",
            explain=explain,
        ),
        _group_witness(),
    ]


def _group_witness() -> Evidence:
    model = parity_leakage_group_privacy()
    ratios = (Fraction(1), Fraction(2), Fraction(5))
    single = [bldp_delta(model, LogValue(r)).delta for r in ratios]
    pairs = [bldp_delta(model, LogValue(r * r), distance=2).delta for r in ratios]
    violations = group_privacy_violations(model, 2)
    verified = (
        bldp_epsilon(model).epsilon == LogValue(1)
        and all(d == 0 for d in single)
        and all(d == 1 for d in pairs)
        and any(
            set(v.databases) == {(0, 0), (1, 1)} and v.leakage_distance is None for v in violations
        )
    )
    return witness_evidence(
        "the path precondition is needed: two bits, M(x) = x, P = parity: (0,0)-BLDP, yet "
        "(0,0) and (1,1) (distance 2, same leakage 0, no path through leakage 0) have δ = 1",
        verified,
        values={
            "ε (neighbours)": bldp_epsilon(model).epsilon,
            "δ (neighbours) at e^ε = 1, 2, 5": exact_repr(single),
            "δ (distance 2) at e^{2ε} = 1, 4, 25": exact_repr(pairs),
            "violations": str([(v.databases, v.leakage) for v in violations]),
        },
        counterexample=None if verified else f"δ1 = {single}, δ2 = {pairs}, {violations}",
    )
