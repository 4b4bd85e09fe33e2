"""The README's main job, end to end: ``python -m proofs_check`` checks every claim.

Runs the real command in a subprocess (``--quick``, so it fits in CI) and requires every
claim of the catalog to be PASSED or PROVED (a proof engine certified a named part over a
stated domain) and the JSON report to be complete and deterministic.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from proofs_check import CLAIMS


@pytest.mark.slow
def test_main_job_checks_every_claim_and_all_pass(tmp_path):
    report_path = tmp_path / "report.json"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "proofs_check",
            "--quick",
            "--workers",
            "1",
            "--format",
            "json",
            "--output",
            str(report_path),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    report = json.loads(report_path.read_text())
    verdicts = {claim["id"]: claim["verdict"] for claim in report["claims"]}
    assert set(verdicts) == {claim.id for claim in CLAIMS}
    assert set(verdicts.values()) <= {"PASSED", "PROVED"}, {
        k: v for k, v in verdicts.items() if v not in ("PASSED", "PROVED")
    }
    # issue 22: at least 12 claims PROVED, each with a proof record of its domain, and the
    # README's summary line counts them as the run does
    proved = sorted(k for k, v in verdicts.items() if v == "PROVED")
    assert len(proved) >= 12, proved
    for claim in report["claims"]:
        if claim["verdict"] == "PROVED":
            records = claim["proofs"]
            assert records and all(p["domain"].strip() for p in records), claim["id"]
    counts = f"{len(verdicts)} claims: {len(proved)} proved, {len(verdicts) - len(proved)} passed"
    assert counts in result.stdout + result.stderr
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert f"The main job ends with its summary line: {counts}." in readme
