"""``proof_evidence``: a prover answer as C evidence carrying its ProofRecord, in a user's claim.

proved -> passed with a "proved" record; refuted -> failed with the exact counterexample and
both sides' values there; unknown -> passed, the reason in the summary, never a proof.
"""

from __future__ import annotations

import sympy
from sympy import Interval, log, oo

from proofs_check import (
    CheckContext,
    Evidence,
    Registry,
    RunOptions,
    check,
    proof_evidence,
    run_checks,
)
from proofs_check.record import ProofRecord

x, p, q = sympy.symbols("x p q")
proof_registry = Registry()


@check(
    "mylab.log_bound",
    source="my lab notes",
    result="Lemma 2",
    statement="log(1 + x) <= x for every x > -1",
    kinds="C",
    mutants={"tighter": "log(1 + x) <= x - x**2/4"},
    registry=proof_registry,
)
def log_bound(ctx: CheckContext) -> list[Evidence]:
    """Proved over the whole domain (x > -1), not sampled."""
    rhs = x - x**2 / 4 if ctx.mutant == "tighter" else x
    return [proof_evidence("log(1 + x) <= x", log(1 + x), rhs, {x: Interval.open(-1, oo)},
                           domain_text="every x > -1")]


def test_a_proved_statement_gives_passed_evidence_with_a_proved_record():
    evidence = proof_evidence("x**2 <= x", x**2, x, {x: Interval(0, 1)})
    assert evidence.kind == "C" and evidence.passed is True
    assert isinstance(evidence.proof, ProofRecord)
    assert evidence.proof.status == "proved" and evidence.proof.proved
    assert evidence.proof.part == "x**2 <= x"
    assert evidence.proof.domain == "every x in [0, 1]"
    assert evidence.proof.engine == "z3 nlsat"
    assert evidence.summary.startswith("proved for every x in [0, 1]: x**2 <= x")


def test_a_refuted_statement_fails_with_the_exact_counterexample_and_both_sides():
    evidence = proof_evidence("x**2 <= x", x**2, x, {x: Interval(0, 2)})
    assert evidence.passed is False and evidence.proof.status == "refuted"
    assert evidence.counterexample == "x = 3/2: lhs = 9/4 > rhs = 3/2"
    assert [(value.name, value.text) for value in evidence.values] == [("x", "3/2")]
    assert "counterexample x = 3/2" in evidence.proof.detail


def test_a_strict_statement_refuted_at_a_tie_says_lhs_is_at_least_rhs():
    evidence = proof_evidence("x**2 < x", x**2, x, {x: Interval.Ropen(0, 1)}, strict=True)
    assert evidence.passed is False
    assert evidence.counterexample == "x = 0: lhs = 0 >= rhs = 0"


def test_unknown_is_passed_evidence_that_is_never_a_proof():
    evidence = proof_evidence("-1/e <= x log x", -1 / sympy.E, x * log(x),
                              {x: Interval.open(0, oo)}, timeout=0.5)
    assert evidence.passed is True
    assert evidence.proof.status == "unknown" and not evidence.proof.proved
    assert evidence.summary.startswith("not proved (unknown) for every x in (0, oo)")


def test_options_and_the_domain_text_reach_the_prover_and_the_record():
    evidence = proof_evidence("pq <= 1/4", p * q, sympy.Rational(1, 4),
                              {p: Interval(0, 1), q: Interval(0, 1)},
                              domain_text="every prior (p, q)",
                              assuming=[sympy.Eq(p + q, 1)])
    assert evidence.passed is True
    assert evidence.proof.domain == "every prior (p, q)"


def test_a_users_claim_proved_with_proof_evidence_runs_in_the_checker():
    report = run_checks(["mylab.log_bound"], registry=proof_registry,
                        options=RunOptions(workers=1, profile="quick"))
    (result,) = report.results
    (evidence,) = result.evidence
    assert evidence.passed is True and evidence.proof.status == "proved"
    assert evidence.proof.domain == "every x > -1"
    mutant = log_bound(CheckContext("mylab.log_bound", mutant="tighter"))
    assert mutant[0].passed is False and mutant[0].proof.status == "refuted"
