"""proofs_check: every claim of the sources checked exactly, with a citable report.

A claim of ``CLAIMS.md`` (the repository's root) has a stable id (``pml.thm_3_5``); its
check is a function that returns evidence of the kinds the claim lists (E exact instance,
P property on random exact instances, L limit, W witness, C certified), and declares at
least one mutant (the statement made slightly false) that the tests require to fail::

    from hypothesis import strategies as st
    from proofs_check import CheckContext, Evidence, check, exact_instances, property_holds

    @check("mylab.square", source="my notes", result="Lemma 1",
           statement="x*x >= 0 for every rational x", kinds="PE",
           mutants={"strict": "x*x > 0 instead of x*x >= 0"})
    def square(ctx: CheckContext) -> list[Evidence]:
        holds = (lambda x: x * x > 0) if ctx.mutant == "strict" else (lambda x: x * x >= 0)
        return [
            exact_instances({"x = 3": (3 * 3, 9)}),
            property_holds(ctx, st.fractions(), holds, describe="x*x >= 0"),
        ]

A claim can also be *proved* over a whole domain: :func:`prove_inequality` decides
"``lhs <= rhs`` at every point" with exact engines (z3's nlsat, Arb branch-and-bound,
integer exhaustion), and :func:`proof_evidence` turns the answer into C evidence carrying a
:class:`ProofRecord` (see ``docs/proving.md``).

A property is checked first on every small instance (``property_holds(...,
small_scope=small_scope.mechanisms())``: every kernel on two or three letters with entries
on the grid 1/2, 1/3, 1/4), then on random ones; see :mod:`proofs_check.small_scope`.

Run with ``python -m proofs_check [CLAIM ...] [--quick|--thorough] [--seed S]
[--examples N] [--workers N] [--scheduler ADDRESS] [--format table|json|markdown|latex]
[--output FILE] [--module M]``, or from Python with :func:`run_checks`.
"""

from __future__ import annotations

from proofs_check import _launch

_launch.start_for_main_job()  # python -m proofs_check: the fork server's imports overlap ours
# ruff: noqa: E402  (the imports below follow that call on purpose)

from exactpml.core import boundary as _boundary
from proofs_check import small_scope
from proofs_check.catalog import CLAIMS, NOT_CHECKABLE, Claim, Kind, ListedItem, Source
from proofs_check.context import PROFILE_EXAMPLES, SMALL_SCOPE_BUDGET, CheckContext, Profile
from proofs_check.evidence import (
    Evidence,
    ExactValue,
    certified_evidence,
    exact_instances,
    exact_values,
    limit_evidence,
    not_checkable,
    proof_evidence,
    property_holds,
    sharpness_evidence,
    strengthening_evidence,
    witness_evidence,
)
from proofs_check.exactness import exact_latex, exact_repr, exact_text, exactly_equal
from proofs_check.prover import ProofResult, prove_inequality
from proofs_check.record import ProofRecord
from proofs_check.registry import RegisteredCheck, Registry, check, default_registry
from proofs_check.runner import Report, RunOptions, run_checks
from proofs_check.verdict import ClaimResult, Verdict

__all__ = [
    "CLAIMS",
    "NOT_CHECKABLE",
    "PROFILE_EXAMPLES",
    "SMALL_SCOPE_BUDGET",
    "CheckContext",
    "Claim",
    "ClaimResult",
    "Evidence",
    "ExactValue",
    "Kind",
    "ListedItem",
    "Profile",
    "ProofRecord",
    "ProofResult",
    "RegisteredCheck",
    "Registry",
    "Report",
    "RunOptions",
    "Source",
    "Verdict",
    "certified_evidence",
    "check",
    "default_registry",
    "exact_instances",
    "exact_latex",
    "exact_repr",
    "exact_text",
    "exact_values",
    "exactly_equal",
    "limit_evidence",
    "not_checkable",
    "proof_evidence",
    "property_holds",
    "prove_inequality",
    "run_checks",
    "sharpness_evidence",
    "small_scope",
    "strengthening_evidence",
    "witness_evidence",
]


_boundary.guard_public_names(globals())  # every public name behind its boundary
