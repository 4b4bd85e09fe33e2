"""Verdicts: how a claim's evidence becomes PROVED, PASSED, WEAK, FAILED, UNDECIDED,
NOT_CHECKABLE, ERROR or TIMEOUT.

A claim passes only if its check produced evidence of every kind the claim lists and
all of it held.  It is PROVED when, in addition, a proof engine certified its statement (or
a named part of it) at every point of a stated domain (evidence carrying a "proved"
:class:`~proofs_check.record.ProofRecord`); an engine's "unknown" never proves anything.
When the claim's mutants are run (``--mutants``), a PASSED or PROVED claim with a mutant
that did not FAIL is WEAK: its check could not tell the statement from a false one.

Any failed evidence makes it FAILED (with the exact counterexample).  Missing kinds or a
"not checkable" note make it NOT_CHECKABLE: never passed.  Evidence that could not be
settled makes it UNDECIDED.  An exception in the check, or evidence of a kind the claim
does not list, is an ERROR.  A check stopped at the run's per-claim ``--timeout`` is
TIMEOUT, whatever its other shards produced: never passed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from proofs_check.properties import property_summary
from proofs_check.record import DOMAIN_SEARCH_LABEL, Evidence, ProofRecord, PropertyStats
from proofs_check.statement import Claim
from proofs_check.task import CheckOutcome

__all__ = ["ClaimResult", "MutantResult", "Verdict", "decide", "merge_shards", "with_mutants"]


class Verdict(StrEnum):
    """The verdict on one claim.

    ``PROVED``: every listed kind of evidence held, and a proof engine certified the
    statement (or the named part) over the whole domain the report prints.  ``PASSED``:
    tested, no counterexample among the instances tried.  ``WEAK``: passed or proved, but a
    declared mutant survived (did not FAIL).  The others are never passed.
    """

    PROVED = "PROVED"
    PASSED = "PASSED"
    WEAK = "WEAK"
    FAILED = "FAILED"
    UNDECIDED = "UNDECIDED"
    NOT_CHECKABLE = "NOT_CHECKABLE"
    ERROR = "ERROR"
    TIMEOUT = "TIMEOUT"

    def __str__(self) -> str:
        return self.value

    @property
    def passed(self) -> bool:
        """True for PROVED and PASSED: the verdicts a run may end on with exit status 0."""
        return self in (Verdict.PROVED, Verdict.PASSED)


@dataclass(frozen=True, slots=True)
class MutantResult:
    """One mutant of a claim, run: KILLED when the claim FAILED under it.

    Attributes:
        name: The mutant's name.
        description: The mutated statement (the mutant's declared description).
        verdict: The claim's verdict under the mutant (FAILED when killed).
        counterexample: The exact counterexample that killed it, if killed.
        failed_evidence: The summary of the evidence that failed under it, if killed.
        note: Why it survived (its error, or the verdict's note), else ``""``.
        seconds: Time spent (summed over shards).
    """

    name: str
    description: str
    verdict: Verdict
    counterexample: str | None = None
    failed_evidence: str | None = None
    note: str = ""
    seconds: float = 0.0

    @property
    def killed(self) -> bool:
        """True when the mutated claim FAILED with a counterexample."""
        return self.verdict is Verdict.FAILED and self.counterexample is not None

    @property
    def status(self) -> str:
        """``"KILLED"`` or ``"SURVIVED"``."""
        return "KILLED" if self.killed else "SURVIVED"


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """The verdict on one claim with the evidence behind it.

    Attributes:
        claim: The claim.
        verdict: The verdict.
        evidence: The evidence the check produced (merged over shards).
        note: Why the verdict is not PASSED when the evidence alone does not say it
            (missing kinds, no check registered, the error message), else ``""``.
        seconds: Time spent in the check (summed over shards).
        mutant: The mutant that was run, or ``None``.
        mutant_description: The mutated statement, when ``mutant`` is set.
        mutants: With ``--mutants``, every declared mutant's run, in declaration order;
            ``None`` when the mutants were not run.
    """

    claim: Claim
    verdict: Verdict
    evidence: tuple[Evidence, ...] = ()
    note: str = ""
    seconds: float = 0.0
    mutant: str | None = None
    mutant_description: str | None = None
    mutants: tuple[MutantResult, ...] | None = None

    @property
    def statement(self) -> str:
        """The statement that was checked: the mutated one under a mutant."""
        if self.mutant is not None and self.mutant_description:
            return f"mutant {self.mutant}: {self.mutant_description}"
        return self.claim.statement

    @property
    def proofs(self) -> tuple[ProofRecord, ...]:
        """What the proof engines established: every "proved" record of the evidence."""
        return tuple(
            item.proof for item in self.evidence if item.proof is not None and item.proof.proved
        )

    @property
    def survivors(self) -> tuple[MutantResult, ...]:
        """The mutants that were run and did not FAIL."""
        return tuple(item for item in self.mutants or () if not item.killed)

    @property
    def counterexample(self) -> str | None:
        """The counterexample of the first failed evidence, if any."""
        for item in self.evidence:
            if item.passed is False:
                return item.counterexample
        return None


def decide(claim: Claim, evidence: Sequence[Evidence], error: str | None) -> tuple[Verdict, str]:
    """The verdict on ``claim`` from its evidence (or error), and a note explaining it."""
    if error is not None:
        return Verdict.ERROR, error
    undeclared = sorted(
        {
            item.kind
            for item in evidence
            if item.kind is not None
            and item.proof is None
            and item.strengthening is None
            and not item.label.startswith(DOMAIN_SEARCH_LABEL)  # a proof part's companion
        }
        - set(claim.kinds)
    )
    if undeclared:
        return Verdict.ERROR, (
            f"the check returned evidence of kind {', '.join(undeclared)}, which "
            f"{claim.id} does not list (kinds {claim.kinds_text})"
        )
    if any(item.passed is False for item in evidence):
        return Verdict.FAILED, ""
    if not evidence:
        return Verdict.NOT_CHECKABLE, "the check returned no evidence"
    if any(not item.checkable for item in evidence):
        return Verdict.NOT_CHECKABLE, ""
    produced = {
        item.kind
        for item in evidence
        if item.strengthening is None and (item.proof is None or item.proof.proved)
    }
    missing = [kind for kind in claim.kinds if kind not in produced]
    if missing:
        return Verdict.NOT_CHECKABLE, f"no evidence of kind {', '.join(missing)} yet"
    if any(item.passed is None for item in evidence):
        return Verdict.UNDECIDED, ""
    if any(item.proof is not None and item.proof.proved for item in evidence):
        return Verdict.PROVED, ""
    return Verdict.PASSED, ""


def with_mutants(result: ClaimResult, mutants: Sequence[MutantResult]) -> ClaimResult:
    """``result`` with its mutants' runs attached; PASSED or PROVED becomes WEAK when one
    survived (the note names every survivor and how it ended)."""
    mutants = tuple(mutants)
    verdict, note = result.verdict, result.note
    survivors = [item for item in mutants if not item.killed]
    if verdict.passed and survivors:
        named = "; ".join(
            f"{item.name} ({item.verdict.value}{': ' + item.note if item.note else ''})"
            for item in survivors
        )
        was = verdict.value
        verdict = Verdict.WEAK
        note = (
            f"{was} as stated, but {len(survivors)} of {len(mutants)} mutants survived "
            f"(did not FAIL), so the check cannot tell the statement from a false one: {named}"
        )
    return replace(result, verdict=verdict, note=note, mutants=mutants)


def _merge_group(group: list[Evidence]) -> Evidence:
    failed = [item for item in group if item.passed is False]
    if failed:
        return failed[0]
    stats = [item.stats for item in group]
    if len(group) == 1 or any(item is None for item in stats):
        undecided = [item for item in group if item.passed is None]
        return undecided[0] if undecided else group[0]
    first = group[0]
    assert first.stats is not None
    scopes = [item.scope for item in stats if item is not None and item.scope is not None]
    merged = PropertyStats(
        tried=sum(item.tried for item in stats if item is not None),
        requested=sum(item.requested for item in stats if item is not None),
        undecided=sum(item.undecided for item in stats if item is not None),
        seed=first.stats.seed,
        seeds=sum(item.seeds for item in stats if item is not None),
        skipped=sum(item.skipped for item in stats if item is not None),
        scope=scopes[0] if scopes else None,
        scope_note=first.stats.scope_note,
        describe=first.stats.describe,
    )
    passed = None if any(item.passed is None for item in group) else True
    describe = merged.describe or first.label  # a domain search's label is not its wording
    return replace(
        first, passed=passed, stats=merged, summary=property_summary(describe, passed, merged)
    )


def merge_shards(outcomes: Sequence[CheckOutcome]) -> tuple[tuple[Evidence, ...], str | None]:
    """Merge the evidence of one claim's shards (in shard order) into one list.

    Property evidence with the same label is combined (random instances summed over the
    seed range; the small-scope phase, which only the first shard runs, taken as is); a
    failure in any shard is kept with its counterexample; other evidence is taken from the
    first shard that produced it.  The first error wins.
    """
    ordered = sorted(outcomes, key=lambda outcome: outcome.shard)
    for outcome in ordered:
        if outcome.error is not None:
            shard = f" (shard {outcome.shard})" if len(ordered) > 1 else ""
            return (), outcome.error + shard
    if len(ordered) == 1:
        return ordered[0].evidence, None
    groups: dict[tuple[str | None, str, int], list[Evidence]] = {}
    for outcome in ordered:
        seen: dict[tuple[str | None, str], int] = {}
        for item in outcome.evidence:
            base = (item.kind, item.label)
            index = seen.get(base, 0)
            seen[base] = index + 1
            groups.setdefault((item.kind, item.label, index), []).append(item)
    return tuple(_merge_group(group) for group in groups.values()), None
