"""What every report format says about proofs and mutants, worded once.

A PROVED claim prints each certified part with its whole domain and the engine; a claim
whose mutants were run prints each mutant as KILLED (the mutated statement and the exact
counterexample that refuted it) or SURVIVED (and how it ended).
"""

from __future__ import annotations

from proofs_check.record import ProofRecord
from proofs_check.verdict import ClaimResult, MutantResult

__all__ = ["mutant_line", "proof_line", "proofs_of"]


def proof_line(record: ProofRecord) -> str:
    """``"proved for every x in (0, 1]: x**2 <= x (z3 nlsat)"``."""
    return f"proved for {record.domain}: {record.part} ({record.engine})"


def mutant_line(item: MutantResult) -> str:
    """One mutant's outcome in words, with the mutated statement and its counterexample."""
    if item.killed:
        return (
            f"KILLED {item.name}: {item.description} -- refuted: {item.failed_evidence}; "
            f"counterexample: {item.counterexample}"
        )
    how = item.verdict.value + (f": {item.note}" if item.note else "")
    return f"SURVIVED {item.name}: {item.description} -- {how}"


def proofs_of(result: ClaimResult) -> list[str]:
    """The proof lines of a claim's result that its evidence does not already print: every
    "proved" record whose evidence summary does not state the record's domain."""
    return [
        proof_line(item.proof)
        for item in result.evidence
        if item.proof is not None and item.proof.proved and item.proof.domain not in item.summary
    ]
