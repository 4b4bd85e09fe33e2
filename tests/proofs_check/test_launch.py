"""proofs_check._launch: ``python -m proofs_check`` starts the fork server from the package's
first lines (its imports overlap the main process's: the first check starts ~0.7 s earlier,
measured on two cores); any other import of the package starts nothing."""

from __future__ import annotations

import gc
import json
import subprocess
import sys

import pytest

from proofs_check import _launch, backends


@pytest.mark.parametrize(
    ("original", "expected"),
    [
        (["python", "-m", "proofs_check"], []),
        (["python", "-X", "importtime", "-m", "proofs_check", "--quick"], ["--quick"]),
        (["python", "-m", "proofs_check.mutation"], None),
        (["python", "-m", "pytest", "-m", "proofs_check"], None),
        (["python", "-c", "import proofs_check", "-m", "proofs_check"], None),
        (["python", "script.py", "-m", "proofs_check"], None),
        ([], None),
    ],
)
def test_only_the_main_job_is_recognised(original, expected):
    assert _launch._main_job_arguments(original) == expected


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["--workers", "1"], False),
        (["--workers=1"], False),
        (["--workers", "1", "--timeout", "30"], True),
        (["--workers", "2"], True),
        (["--list"], False),
        (["--help"], False),
        (["--scheduler", "tcp://127.0.0.1:8786"], False),
    ],
)
def test_the_guess_of_workers_follows_the_arguments(arguments, expected):
    assert _launch._may_use_workers(arguments) is expected


def test_importing_the_package_starts_no_process():
    code = (
        "import multiprocessing.forkserver as f, proofs_check; "
        "print(f._forkserver._forkserver_pid)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "None"


def test_a_fork_server_that_cannot_start_early_is_left_to_the_command_line(monkeypatch):
    def refuse() -> None:
        raise OSError("no semaphores here")

    monkeypatch.setattr(_launch, "start_fork_server", refuse)
    monkeypatch.setattr(_launch.sys, "orig_argv", ["python", "-m", "proofs_check"])
    monkeypatch.setattr(_launch, "_may_use_workers", lambda arguments: True)
    _launch.start_for_main_job()  # no exception: the command line starts it and reports


def test_the_command_line_ends_after_its_exit_handlers_and_a_flush():
    """``python -m proofs_check`` ends with ``os._exit`` (the interpreter's teardown cost
    0.25-0.5 s after the report): exit handlers still run, output is complete, the status
    is kept."""
    code = (
        "import atexit; from proofs_check.cli import exit_without_teardown; "
        "atexit.register(print, 'handler ran'); print('report', end=' '); "
        "exit_without_teardown(3)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (out.returncode, out.stdout, out.stderr) == (3, "report handler ran\n", "")


def test_the_main_job_report_reaches_a_pipe_whole():
    out = subprocess.run(
        [sys.executable, "-m", "proofs_check", "pml.ex_3_1", "--quick", "--format", "json"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert [claim["id"] for claim in json.loads(out.stdout)["claims"]] == ["pml.ex_3_1"]


def test_a_worker_freezes_what_it_inherited_from_the_fork_server(monkeypatch):
    """Workers move the fork server's imports to the permanent generation, so that full
    collections walk only what the checks made (5-8% of the workers' CPU at --quick)."""

    class ClosedPipe:
        def recv(self) -> None:
            raise EOFError

    monkeypatch.setattr(backends.signal, "signal", lambda *arguments: None)
    assert gc.get_freeze_count() == 0
    try:
        backends._worker_loop(ClosedPipe())  # type: ignore[arg-type]
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
