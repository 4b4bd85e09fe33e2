"""proofs_check._launch: ``python -m proofs_check`` starts the fork server from the package's
first lines (its imports overlap the main process's: the first check starts ~0.7 s earlier,
measured on two cores); any other import of the package starts nothing."""

from __future__ import annotations

import subprocess
import sys

import pytest

from proofs_check import _launch


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
