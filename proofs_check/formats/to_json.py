"""The JSON report: a stable, versioned schema with exact values as strings.

Schema ``exactpml.proofs_check/1``::

    {"schema": "exactpml.proofs_check/1",
     "exactpml_version": "0.1.0",
     "options": {"seed", "examples", "profile", "shards", "mutant", "mutants", "timeout"},
     "summary": {"claims", "all_passed", "proved", "passed", "weak", "failed", "undecided",
                 "not_checkable", "error", "timeout",
                 "mutants": null | {"declared", "run", "killed"}},
     "claims": [{"id", "source": {"file", "title"}, "result", "statement", "kinds",
                 "verdict", "note", "mutant", "mutant_statement", "counterexample",
                 "proofs": [{"part", "domain", "engine", "detail"}],
                 "mutants": null | [{"name", "statement", "verdict", "run_verdict",
                                     "counterexample", "refuted_by", "note"}],
                 "evidence": [{"kind", "passed", "summary", "counterexample", "finding",
                               "proof": null | {"part", "domain", "status", "engine",
                                                "detail"},
                               "strengthening": null | {"name", "statement", "status",
                                                        "domain", "engine", "witness",
                                                        "detail"},
                               "values": [{"name", "value", "latex"}],
                               "instances": null | {"tried", "requested", "undecided",
                                                    "seed", "seeds", "skipped",
                                                    "found_by", "found_at",
                                                    "small_scope": null | {
                                                        "description", "tried", "skipped",
                                                        "undecided", "size", "budget",
                                                        "complete", "covered", "filtered"},
                                                    "small_scope_note"}}],
                 "seconds" (only with timings)}],
     "not_checkable": [{"id", "result", "reason"}]}

``verdict`` is PROVED (certified over the domains in ``proofs``), PASSED (tested), WEAK
(passed or proved, but a mutant SURVIVED), FAILED, UNDECIDED, NOT_CHECKABLE, ERROR or
TIMEOUT.  A strengthening's ``status`` is "sharp" (refuted: ``witness`` is where the
stronger statement fails), "not sharp" (proved: a finding) or "open".  A mutant's
``verdict`` is KILLED or SURVIVED, ``run_verdict`` the claim's verdict under it;
``mutants`` is null when the mutants were not run (``--mutants``).

Fields are only ever added within a schema version; renaming or removing one bumps it.
"""

from __future__ import annotations

import json
from typing import Any

from exactpml import __version__
from proofs_check.record import Evidence, ProofRecord, ScopeStats, StrengtheningRecord
from proofs_check.runner import Report
from proofs_check.verdict import ClaimResult, MutantResult

__all__ = ["SCHEMA", "report_to_dict", "report_to_json"]

SCHEMA = "exactpml.proofs_check/1"


def _scope(scope: ScopeStats | None) -> dict[str, Any] | None:
    if scope is None:
        return None
    return {
        "description": scope.description,
        "tried": scope.tried,
        "skipped": scope.skipped,
        "undecided": scope.undecided,
        "size": scope.size,
        "budget": scope.budget,
        "complete": scope.complete,
        "covered": scope.coverage,
        "filtered": scope.filtered,
    }


def _proof(record: ProofRecord | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {
        "part": record.part,
        "domain": record.domain,
        "status": record.status,
        "engine": record.engine,
        "detail": record.detail,
    }


def _strengthening(record: StrengtheningRecord | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {
        "name": record.name,
        "statement": record.statement,
        "status": record.status,
        "domain": record.domain,
        "engine": record.engine,
        "witness": record.witness,
        "detail": record.detail,
    }


def _mutant(item: MutantResult) -> dict[str, Any]:
    return {
        "name": item.name,
        "statement": item.description,
        "verdict": item.status,
        "run_verdict": item.verdict.value,
        "counterexample": item.counterexample,
        "refuted_by": item.failed_evidence,
        "note": item.note,
    }


def _evidence(item: Evidence) -> dict[str, Any]:
    stats = item.stats
    return {
        "kind": item.kind,
        "passed": item.passed,
        "summary": item.summary,
        "counterexample": item.counterexample,
        "finding": item.finding,
        "proof": _proof(item.proof),
        "strengthening": _strengthening(item.strengthening),
        "values": [{"name": v.name, "value": v.text, "latex": v.latex} for v in item.values],
        "instances": None
        if stats is None
        else {
            "tried": stats.tried,
            "requested": stats.requested,
            "undecided": stats.undecided,
            "seed": stats.seed,
            "seeds": stats.seeds,
            "skipped": stats.skipped,
            "found_by": stats.found_by,
            "found_at": stats.found_at or None,
            "small_scope": _scope(stats.scope),
            "small_scope_note": stats.scope_note or None,
        },
    }


def _claim(result: ClaimResult, timings: bool) -> dict[str, Any]:
    claim = result.claim
    data: dict[str, Any] = {
        "id": claim.id,
        "source": {"file": claim.source.file, "title": claim.source.title},
        "result": claim.result,
        "statement": claim.statement,
        "kinds": list(claim.kinds),
        "verdict": result.verdict.value,
        "note": result.note,
        "mutant": result.mutant,
        "mutant_statement": result.mutant_description,
        "counterexample": result.counterexample,
        "proofs": [
            {key: value for key, value in (_proof(record) or {}).items() if key != "status"}
            for record in result.proofs
        ],
        "mutants": None
        if result.mutants is None
        else [_mutant(item) for item in result.mutants],
        "evidence": [_evidence(item) for item in result.evidence],
    }
    if timings:
        data["seconds"] = round(result.seconds, 3)
    return data


def report_to_dict(report: Report, *, timings: bool = False) -> dict[str, Any]:
    """The report as JSON-ready data (see the module docstring for the schema)."""
    options = report.options
    counts = report.counts()
    mutants = report.mutant_counts()
    return {
        "schema": SCHEMA,
        "exactpml_version": __version__,
        "options": {
            "seed": options.seed,
            "examples": options.examples_per_property,
            "profile": options.profile,
            "shards": options.shards,
            "mutant": options.mutant,
            "mutants": options.mutants,
            "timeout": options.timeout,
        },
        "summary": {
            "claims": len(report.results),
            "all_passed": report.passed,
            **{verdict.value.lower(): count for verdict, count in counts.items()},
            "mutants": None
            if mutants is None
            else {"declared": report.declared_mutants, "run": mutants[1], "killed": mutants[0]},
        },
        "claims": [_claim(result, timings) for result in report.results],
        "not_checkable": [
            {"id": item.id, "result": item.result, "reason": item.reason} for item in report.listed
        ],
    }


def report_to_json(report: Report, *, timings: bool = False) -> str:
    """The report as JSON text (UTF-8, indented, ending in a newline)."""
    return json.dumps(report_to_dict(report, timings=timings), indent=2, ensure_ascii=False) + "\n"
