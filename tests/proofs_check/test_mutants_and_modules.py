"""``--mutants`` runs every declared mutant (KILLED or SURVIVED; a surviving mutant makes a
passed claim WEAK and the exit status 1), ``--module`` takes a file path, and the verdicts
PROVED and WEAK follow from the evidence exactly as documented in ``proofs_check.verdict``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from exactpml.errors import InvalidArgument
from proofs_check import RunOptions, run_checks
from proofs_check.record import Evidence, ProofRecord
from proofs_check.runner import plan
from proofs_check.statement import Claim, Source
from proofs_check.user_modules import import_claim_module
from proofs_check.verdict import ClaimResult, MutantResult, Verdict, decide, with_mutants

HERE = Path(__file__).parent
VACUOUS = HERE / "user_files" / "vacuous_lemmas.py"
CLAIM = Claim("demo.c", Source("demo", "notes", "notes"), "Lemma 1", "x >= 0", ("P",))
HELD = Evidence("P", True, "held on 50 instances")


def _proof(status: str) -> Evidence:
    record = ProofRecord("x >= 0", "every x in [0, 1]", status, "z3 nlsat")
    if status == "refuted":
        return Evidence("C", False, "refuted", counterexample="x = -1", proof=record)
    return Evidence("C", True, f"proof {status}", proof=record)


def _python(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "proofs_check", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "100"},
        timeout=300,
        check=False,
        cwd=cwd,
    )


def test_a_proved_record_makes_a_passed_claim_proved() -> None:
    assert decide(CLAIM, [HELD, _proof("proved")], None) == (Verdict.PROVED, "")


def test_unknown_is_never_proved_and_never_counts_as_evidence_of_its_kind() -> None:
    assert decide(CLAIM, [HELD, _proof("unknown")], None) == (Verdict.PASSED, "")
    needs_c = Claim("demo.d", CLAIM.source, "Lemma 2", "x >= 0", ("P", "C"))
    verdict, note = decide(needs_c, [HELD, _proof("unknown")], None)
    assert verdict is Verdict.NOT_CHECKABLE and "C" in note


def test_a_refuted_proof_fails_the_claim() -> None:
    assert decide(CLAIM, [HELD, _proof("refuted")], None)[0] is Verdict.FAILED


def test_a_proof_never_hides_an_undecided_or_failed_piece() -> None:
    undecided = Evidence("P", None, "could not settle")
    assert decide(CLAIM, [undecided, _proof("proved")], None)[0] is Verdict.UNDECIDED
    failed = Evidence("P", False, "failed", counterexample="x = -1")
    assert decide(CLAIM, [failed, _proof("proved")], None)[0] is Verdict.FAILED


def test_a_surviving_mutant_makes_passed_and_proved_weak() -> None:
    killed = MutantResult("m1", "x > 0", Verdict.FAILED, "x = 0", "x > 0: failed")
    survived = MutantResult("m2", "x >= 1", Verdict.PASSED)
    errored = MutantResult("m3", "x >= 2", Verdict.ERROR, note="ValueError: boom")
    assert killed.killed and not survived.killed and not errored.killed
    for verdict in (Verdict.PASSED, Verdict.PROVED):
        result = with_mutants(ClaimResult(CLAIM, verdict), [killed, survived, errored])
        assert result.verdict is Verdict.WEAK
        assert "m2 (PASSED)" in result.note and "m3 (ERROR: ValueError: boom)" in result.note
        assert [item.name for item in result.survivors] == ["m2", "m3"]
    every_killed = with_mutants(ClaimResult(CLAIM, Verdict.PASSED), [killed])
    assert every_killed.verdict is Verdict.PASSED and every_killed.survivors == ()
    failed = with_mutants(ClaimResult(CLAIM, Verdict.FAILED), [survived])
    assert failed.verdict is Verdict.FAILED


def test_one_mutant_or_every_mutant_not_both() -> None:
    with pytest.raises(InvalidArgument, match="not both"):
        RunOptions(mutant="strict", mutants=True)


def test_a_file_module_selects_its_claims_and_plans_every_mutant() -> None:
    chosen = plan(options=RunOptions(modules=(str(VACUOUS),), mutants=True))
    assert [claim.id for claim in chosen.claims] == ["userfile.square", "userfile.vacuous"]
    assert [(t.claim_id, t.mutant) for t in chosen.tasks] == [
        ("userfile.square", None),
        ("userfile.square", "strict"),
        ("userfile.vacuous", None),
        ("userfile.vacuous", "reversed"),
    ]
    assert chosen.declared_mutants == 2


def test_mutants_run_in_process_report_killed_and_survived() -> None:
    options = RunOptions(modules=(str(VACUOUS),), mutants=True, profile="quick", workers=1)
    report = run_checks(options=options)
    square, vacuous = report.results
    assert square.verdict is Verdict.PASSED
    assert [(m.name, m.status) for m in square.mutants or ()] == [("strict", "KILLED")]
    killed = (square.mutants or ())[0]
    assert killed.description == "x*x > 0 for every rational x"
    assert killed.counterexample == "0; x*x = 0"  # the minimal one, through the check's explain
    assert vacuous.verdict is Verdict.WEAK
    assert [(m.name, m.status) for m in vacuous.mutants or ()] == [("reversed", "SURVIVED")]
    assert not report.passed
    assert report.mutant_counts() == (1, 2)
    assert "SURVIVED: userfile.vacuous:reversed" in report.mutants_line()


def test_the_command_line_exits_1_naming_the_survivor_and_ends_with_the_summary() -> None:
    done = _python("--module", str(VACUOUS), "--mutants", "--quick", "--workers", "2")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.rstrip("\n").splitlines()
    assert lines[-1] == "2 claims: 1 passed, 1 weak"
    assert lines[-2] == "mutants: 1 of 2 killed; SURVIVED: userfile.vacuous:reversed"
    assert "SURVIVED reversed: x + 1 < x for every rational x" in done.stdout.replace("\n│", "")


def test_mutant_all_is_mutants_and_the_json_names_each_mutant() -> None:
    done = _python("--module", str(VACUOUS), "--mutant", "all", "--quick", "--format", "json")
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    assert data["options"]["mutants"] is True
    assert data["summary"]["mutants"] == {"declared": 2, "run": 2, "killed": 1}
    assert data["summary"]["weak"] == 1 and data["summary"]["passed"] == 1
    square, vacuous = data["claims"]
    assert square["mutants"][0]["verdict"] == "KILLED"
    assert square["mutants"][0]["statement"] == "x*x > 0 for every rational x"
    assert square["mutants"][0]["counterexample"] == "0; x*x = 0"
    assert vacuous["verdict"] == "WEAK"
    assert vacuous["mutants"] == [
        {
            "name": "reversed",
            "statement": "x + 1 < x for every rational x",
            "verdict": "SURVIVED",
            "run_verdict": "PASSED",
            "counterexample": None,
            "refuted_by": None,
            "note": "",
        }
    ]


def test_the_default_run_says_how_many_mutants_exist_and_how_to_run_them() -> None:
    done = _python("--module", str(VACUOUS), "--quick", "--workers", "1")
    assert done.returncode == 0, done.stderr
    assert "2 mutants declared for these claims" in done.stdout
    assert "run them with --mutants" in done.stdout
    assert done.stdout.rstrip("\n").splitlines()[-1] == "2 claims: 2 passed"


def test_a_single_mutant_run_shows_the_mutated_statement() -> None:
    done = _python(
        "userfile.square", "--module", str(VACUOUS), "--mutant", "strict", "--format", "markdown"
    )
    assert done.returncode == 1
    assert "mutant strict: x*x > 0 for every rational x" in done.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("x = (\n", "cannot load it: SyntaxError at line 1: '(' was never closed"),
        ("raise RuntimeError('no database')\n", "cannot load it: RuntimeError: no database"),
    ],
)
def test_a_file_that_cannot_be_loaded_is_one_line(
    tmp_path: Path, content: str | None, message: str
) -> None:
    path = tmp_path / "my_claims.py"
    if content is not None:
        path.write_text(content)
    done = _python("--module", str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


def test_a_file_named_like_another_module_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "statistics.py"
    path.write_text("x = 1\n")
    with pytest.raises(InvalidArgument, match="already the module"):
        import_claim_module(str(path))


def test_a_relative_path_works_from_its_directory() -> None:
    done = _python("--module", "user_files/vacuous_lemmas.py", "--quick", cwd=HERE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip("\n").splitlines()[-1] == "2 claims: 2 passed"
