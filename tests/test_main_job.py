"""The README's main job, end to end: ``python -m proofs_check`` checks every claim.

Runs the real command in a subprocess (``--quick``, so it fits in CI) and requires every
claim of the catalog to be PASSED or PROVED (a proof engine certified a named part over a
stated domain) and the JSON report to be complete and deterministic.
"""

import json
import subprocess
import sys

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
