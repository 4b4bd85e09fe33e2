"""Issue 15, newcomer basics of ``python -m proofs_check``: --version, --module runs only the
module's claims (unless --all), --list shows every statement in full, and every scheduler
failure (closed port, a port that speaks HTTP, a malformed address) ends within the timeout
with one line and no traceback."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from exactpml import __version__
from proofs_check import RunOptions
from proofs_check.cli import main
from proofs_check.registry import Registry
from proofs_check.runner import plan

HERE = Path(__file__).parent


def _python(*args: str, module: str = "proofs_check") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(HERE), "COLUMNS": "80"}
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def test_both_command_lines_print_the_version() -> None:
    assert _python("--version").stdout == f"proofs_check (exactpml {__version__})\n"
    assert _python("--version", module="exactpml.cli").stdout == f"exactpml {__version__}\n"


def test_the_version_is_the_installed_distributions() -> None:
    from importlib.metadata import version

    assert version("exactpml") == __version__


def test_a_module_alone_selects_only_its_claims() -> None:
    chosen = plan(options=RunOptions(modules=("pc_user_claims",)))
    assert [claim.id for claim in chosen.claims] == ["mylab.am_gm"]
    everything = plan(options=RunOptions(modules=("pc_user_claims",), all_claims=True))
    ids = [claim.id for claim in everything.claims]
    assert "mylab.am_gm" in ids and "pml.thm_3_5" in ids and len(ids) > 30


@pytest.fixture
def user_module_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(HERE))


def test_the_command_line_runs_only_the_modules_claims(
    user_module_on_path: None, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["--module", "pc_user_claims", "--quick", "--workers", "1", "--format", "json"])
    assert status == 0
    report = json.loads(capsys.readouterr().out)
    assert [claim["id"] for claim in report["claims"]] == ["mylab.am_gm"]
    assert report["exactpml_version"] == __version__


def test_a_module_with_no_check_is_refused_naming_it(
    user_module_on_path: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--module", "json", "--workers", "1"]) == 2
    assert "module(s) json register no check" in capsys.readouterr().err


def test_list_shows_each_statement_in_full_however_narrow_the_terminal() -> None:
    done = _python("--list", "pml.thm_3_5", "bldp.group_privacy")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())  # wrapped lines joined
    assert "proofs_check.claims.bldp.group_privacy:group_privacy" in text
    assert "(kε, k·e^{(k-1)ε}·δ) for databases at distance k" in text
    assert "…" not in done.stdout


@pytest.fixture
def http_port() -> Iterator[int]:
    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()


@pytest.mark.parametrize(
    "address",
    ["tcp://127.0.0.1:9", "http_port", "not a scheduler", "tcp://127.0.0.1:99999"],
    ids=["closed port", "an HTTP server", "malformed", "port out of range"],
)
def test_scheduler_failures_end_within_the_timeout_in_one_line(
    address: str, http_port: int
) -> None:
    pytest.importorskip("distributed")
    if address == "http_port":
        address = f"tcp://127.0.0.1:{http_port}"
    start = time.monotonic()
    done = _python("pml.thm_3_5", "--scheduler", address, "--scheduler-timeout", "2")
    assert time.monotonic() - start < 30
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("proofs_check: error: ")
    assert "Traceback" not in done.stderr


def test_a_registry_built_in_a_test_is_unaffected_by_modules() -> None:
    registry = Registry()
    with pytest.raises(Exception, match="register no check"):
        plan(options=RunOptions(modules=("json",)), registry=registry)
