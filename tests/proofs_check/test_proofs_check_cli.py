"""The command line: reports, exit status, and one clear line for every bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from proofs_check import Registry
from proofs_check.cli import main
from proofs_check.output import check_writable, write_atomically

HERE = Path(__file__).resolve().parent


def run(argv: list[str], registry: Registry | None, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    status = main(argv, registry=registry)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_exit_status_is_zero_when_every_claim_passed(
    demo: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["--quick", "--workers", "1"], demo, capsys)
    assert status == 0
    assert "5 claims: 5 passed" in out
    assert err == ""


def test_exit_status_is_one_when_a_claim_failed(
    demo: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["demo.square_nonnegative", "--mutant", "strict", "--quick", "--workers", "1"]
    status, out, _ = run(argv, demo, capsys)
    assert status == 1
    assert "FAILED" in out and "counterexample: 0; x = 0, x*x = 0" in out


def test_a_claim_over_its_timeout_is_reported_timeout_with_exit_status_one(
    odd: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["odd.runs_forever", "--timeout", "1", "--workers", "1", "--format", "json"]
    status, out, _ = run(argv, odd, capsys)
    assert status == 1
    report = json.loads(out)
    assert report["options"]["timeout"] == 1
    assert report["summary"]["timeout"] == 1 and report["summary"]["all_passed"] is False
    (claim,) = report["claims"]
    assert claim["verdict"] == "TIMEOUT"
    assert "exceeded --timeout 1 s" in claim["note"]


def test_exit_status_is_one_when_claims_are_not_yet_checkable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(["pml.ex_3_2"], Registry(include_catalog=True), capsys)
    assert status == 1
    assert "NOT_CHECKABLE" in out


@pytest.mark.parametrize(
    ("suffix", "format_name", "marker"),
    [
        (".json", None, '"schema"'),
        (".md", None, "# proofs_check report"),
        (".tex", None, "\\toprule"),
        (".out", "json", '"schema"'),
        (".txt", None, "Verdict"),
    ],
    ids=[
        "json by suffix",
        "markdown by suffix",
        "latex by suffix",
        "explicit format",
        "table by suffix",
    ],
)
def test_the_report_is_written_to_the_output_file_in_the_right_format(
    demo: Registry,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    suffix: str,
    format_name: str | None,
    marker: str,
) -> None:
    output = tmp_path / f"report{suffix}"
    argv = ["--quick", "--workers", "1", "--output", str(output)]
    if format_name:
        argv += ["--format", format_name]
    status, out, err = run(argv, demo, capsys)
    assert status == 0
    assert out == ""
    assert f"report written to {output}" in err
    assert marker in output.read_text(encoding="utf-8")
    assert [path.name for path in tmp_path.iterdir()] == [output.name]


def test_json_goes_to_stdout_without_an_output_file(
    demo: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(["demo.limit_half", "--format", "json", "--workers", "1"], demo, capsys)
    assert status == 0
    assert json.loads(out)["claims"][0]["verdict"] == "PASSED"


def test_list_shows_claims_checks_and_mutants(
    demo: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(["--list"], demo, capsys)
    assert status == 0
    assert "demo.limit_half" in out and "wrong_value" in out
    assert "pc_demo_claims:limit_half" in out


BAD_INPUTS: list[tuple[str, list[str], str]] = [
    ("unknown claim", ["pml.thm_35"], "unknown claim 'pml.thm_35'; did you mean pml.thm_3_5"),
    ("glob matching nothing", ["pml.thm_9_*"], "unknown claim 'pml.thm_9_*'"),
    ("negative seed", ["--seed", "-1"], "--seed must be an integer from 0 to"),
    ("seed not a number", ["--seed", "abc"], "--seed must be an integer from 0 to"),
    ("zero examples", ["--examples", "0"], "--examples must be an integer from 1 to"),
    ("examples not a number", ["--examples", "1.5"], "--examples must be an integer"),
    ("zero workers", ["--workers", "0"], "--workers must be an integer from 1"),
    ("zero shards", ["--shards", "0"], "--shards must be an integer from 1"),
    ("unknown format", ["--format", "html"], "argument --format: invalid choice: 'html'"),
    ("unknown option", ["--bogus"], "unrecognized arguments: --bogus"),
    ("both profiles", ["--quick", "--thorough"], "not allowed with argument"),
    ("zero scheduler timeout", ["--scheduler-timeout", "0"], "--scheduler-timeout must be"),
    (
        "output in a missing directory",
        ["--output", "{tmp}/missing/report.json"],
        "directory {tmp}/missing does not exist",
    ),
    ("output is a directory", ["--output", "{tmp}"], "it is a directory"),
    (
        "module that cannot be imported",
        ["--module", "no_such_module_xyz"],
        "--module no_such_module_xyz: cannot load it: ModuleNotFoundError",
    ),
    (
        "undeclared mutant",
        ["demo.limit_half", "--mutant", "nope"],
        "has no mutant 'nope'; its mutants: wrong_value, wrong_attainment",
    ),
    (
        "unreachable scheduler",
        ["--scheduler", "tcp://127.0.0.1:9", "--scheduler-timeout", "1"],
        "cannot reach the Dask scheduler at tcp://127.0.0.1:9 within 1 s",
    ),
    ("zero timeout", ["--timeout", "0"], "--timeout must be a number of seconds in (0, 86400]"),
    ("timeout not a number", ["--timeout", "nan"], "--timeout must be a number of seconds"),
    (
        "timeout with a scheduler",
        ["--timeout", "5", "--scheduler", "tcp://127.0.0.1:9"],
        "--timeout needs local worker processes",
    ),
    (
        "malformed scheduler address",
        ["--scheduler", "not a scheduler", "--scheduler-timeout", "1"],
        "malformed scheduler address 'not a scheduler'; expected [tcp://]host:port",
    ),
]


@pytest.mark.parametrize(
    ("argv", "message"),
    [case[1:] for case in BAD_INPUTS],
    ids=[case[0] for case in BAD_INPUTS],
)
def test_bad_input_is_one_clear_line_and_exit_status_two(
    demo: Registry,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    argv = [arg.replace("{tmp}", str(tmp_path)) for arg in argv]
    message = message.replace("{tmp}", str(tmp_path))
    registry = demo if "demo" in " ".join(argv) else Registry(include_catalog=True)
    try:
        status = main(
            [*argv, "--workers", "1"] if "--workers" not in argv else argv, registry=registry
        )
    except SystemExit as exit_:  # argparse errors exit directly
        status = exit_.code  # type: ignore[assignment]
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(("proofs_check: error: ", "python -m proofs_check: error: "))
    assert message in lines[0]
    assert "Traceback" not in captured.err
    assert list(tmp_path.iterdir()) == []


def test_bad_input_leaves_an_existing_report_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "report.json"
    output.write_text("previous report\n")
    status, _, _ = run(
        ["pml.thm_35", "--output", str(output)], Registry(include_catalog=True), capsys
    )
    assert status == 2
    assert output.read_text() == "previous report\n"
    assert [path.name for path in tmp_path.iterdir()] == ["report.json"]


def test_an_output_file_is_checked_before_anything_runs(tmp_path: Path) -> None:
    ran: list[str] = []
    registry = Registry()

    @registry.check("mylab.x", source="s", result="r", statement="s", kinds="E", mutants={"m": "m"})
    def record(ctx):  # type: ignore[no-untyped-def]
        ran.append(ctx.claim_id)
        return []

    status = main(
        ["--output", str(tmp_path / "no" / "r.json"), "--workers", "1"], registry=registry
    )
    assert status == 2 and ran == []


def test_a_failed_write_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "report.json"
    target.write_text("old")

    def broken_replace(source: str, destination: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        write_atomically(target, "new report")
    assert target.read_text() == "old"
    assert [path.name for path in tmp_path.iterdir()] == ["report.json"]


def test_check_writable_accepts_a_new_file_in_an_existing_directory(tmp_path: Path) -> None:
    assert check_writable(tmp_path / "r.json") == tmp_path / "r.json"
    assert list(tmp_path.iterdir()) == []


def _python(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(HERE), "COLUMNS": "120"}
    return subprocess.run(
        [sys.executable, "-m", "proofs_check", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def test_a_user_claim_module_runs_end_to_end_in_worker_processes(tmp_path: Path) -> None:
    output = tmp_path / "report.json"
    done = _python(
        "--module", "pc_user_claims", "mylab.", "--workers", "2", "--quick", "--output", str(output)
    )
    assert done.returncode == 0, done.stderr
    (claim,) = json.loads(output.read_text())["claims"]
    assert (claim["id"], claim["result"], claim["verdict"]) == ("mylab.am_gm", "Lemma 1", "PASSED")
    assert claim["evidence"][1]["summary"] == (
        "(a+b)^2 >= 4ab: held on 50 random exact instances (seed 0); no small scope: the "
        "strategy is not one exactpml can enumerate (it uses no exactpml strategy)"
    )


def test_a_user_claims_mutant_fails_end_to_end_with_its_counterexample() -> None:
    done = _python(
        "--module",
        "pc_user_claims",
        "mylab.am_gm",
        "--mutant",
        "strict",
        "--quick",
        "--format",
        "json",
    )
    assert done.returncode == 1, done.stderr
    (claim,) = json.loads(done.stdout)["claims"]
    assert claim["verdict"] == "FAILED"
    assert claim["counterexample"] == "(0, 0); (a+b)^2 = 0, 4ab = 0"


def test_bad_input_in_a_real_process_prints_no_traceback() -> None:
    done = _python("pml.thm_35")
    assert done.returncode == 2
    assert done.stderr == (
        "proofs_check: error: unknown claim 'pml.thm_35'; "
        "did you mean pml.thm_3_5 or pml.thm_4_5 or pml.thm_4_3?\n"
    )


def test_a_broken_claim_module_stops_the_run_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken() -> tuple[str, ...]:
        raise ImportError("proofs_check.claims.pml: No module named 'exactpml.limits'")

    monkeypatch.setattr("proofs_check.runner.load_claim_modules", broken)
    status, out, err = run(["pml.thm_3_5"], None, capsys)
    assert status == 2 and out == ""
    assert err == (
        "proofs_check: error: a claim module of proofs_check.claims cannot be imported: "
        "ImportError: proofs_check.claims.pml: No module named 'exactpml.limits'\n"
    )
