"""§3 of Vadhan's notes: simulation-based DP (Def 2) and Claim 1 (check ``vadhan.claim_1``)."""

from __future__ import annotations

from fractions import Fraction

import sympy

from exactpml.errors import Undecided
from exactpml.notions import simulation_epsilon
from proofs_check import CheckContext, Evidence, check, property_holds
from proofs_check.claims.vadhan._common import fewer, infinite, library_ratio, tables
from proofs_check.reference import (
    Ratio,
    Table,
    box_simulator,
    neighbourhoods,
    simulation_lower_bound_squared,
    table_dp_ratio,
    verify_simulator,
)

__all__ = ["claim_1"]


# --- vadhan.claim_1 ------------------------------------------------------------------------
def _simulation_ratio_squared(table: Table) -> Ratio:
    """(e^ε)² of exactpml's simulation_epsilon (None when infinite)."""
    value = simulation_epsilon(table.mechanism()).value
    if value.is_infinite:
        return None
    ratio = value.ratio
    if isinstance(ratio, Fraction):
        return ratio * ratio
    square = sympy.expand(ratio**2)
    if not isinstance(square, sympy.Rational):
        raise Undecided(f"the square of the simulation ratio {ratio} is not rational")
    return Fraction(int(square.p), int(square.q))


@check(
    "vadhan.claim_1",
    mutants={
        "same_epsilon": "ε-simulation-DP ⇒ ε-DP (instead of 2ε-DP)",
        "strict_factor_two": "ε-simulation-DP ⇒ ε'-DP with ε' < 2ε whenever ε > 0 (2 never "
        "attained)",
    },
)
def claim_1(ctx: CheckContext) -> list[Evidence]:
    """vadhan.claim_1 — Vadhan §3, Claim 1 (simulation-based definition, Def 2).

    Statement: ε-DP ⇒ ε-simulation-DP, and ε-simulation-DP ⇒ 2ε-DP; the optimal
    simulator's ε is computed exactly (``simulation_epsilon``).

    P: on random database mechanisms (n <= 3, |D| <= 3, zeros allowed): with r = e^{ε_DP}
    (exactpml, checked against the maximum column ratio over every neighbourhood) and
    E = e^{ε_sim} of exactpml's optimal simulator: E <= r (part 1) and r <= E² (part 2),
    compared through E², which is rational.  The optimum is certified independently: E² is
    the least value that the three necessary conditions of Def 2 allow (E² >= U/u per
    output, Σ U <= E, E Σ u >= 1, with U, u the largest and smallest p_x(y) in a
    neighbourhood), and for every neighbourhood a simulator meeting Def 2 at E is built and
    verified from the definition in exact Q(√E²) arithmetic.  Both sides are +∞ together.
    Simulators are not required to run in polynomial time (finite mechanisms).
    """
    mutant = ctx.mutant

    def holds(table: Table) -> bool:
        r = table_dp_ratio(table)
        if library_ratio(table) != r:
            return False
        squared = _simulation_ratio_squared(table)
        rows_by_neighbourhood = [rows for _, _, rows in neighbourhoods(table)]
        bounds = [simulation_lower_bound_squared(rows) for rows in rows_by_neighbourhood]
        if any(bound is None for bound in bounds):
            return squared is None and r is None
        lower = max((bound for bound in bounds if bound is not None), default=Fraction(1))
        if squared is None or r is None or squared != lower:
            return False
        for rows in rows_by_neighbourhood:
            if not verify_simulator(rows, box_simulator(rows, squared), squared):
                return False
        if mutant == "same_epsilon":
            return r * r <= squared
        if mutant == "strict_factor_two":
            return r < squared or squared == 1
        return squared <= r * r and r <= squared

    def explain(table: Table) -> str:
        return (
            f"e^ε_DP = {infinite(table_dp_ratio(table))}, "
            f"e^(2ε_sim) = {infinite(_simulation_ratio_squared(table))}"
        )

    describe = {
        "same_epsilon": "ε_DP <= ε_sim (mutant)",
        "strict_factor_two": "ε_DP < 2ε_sim when ε_sim > 0 (mutant)",
    }.get(
        mutant or "",
        "ε_sim <= ε_DP <= 2ε_sim, ε_sim of the optimal simulator (certified optimal)",
    )
    return [
        property_holds(
            ctx, tables(), holds, describe=describe, explain=explain, examples=fewer(ctx, 2)
        )
    ]
