"""The local workers' fork server, started as early as ``python -m proofs_check`` allows.

Workers are forked from a fork server that imports :data:`FORKSERVER_PRELOAD` once (about a
second: sympy, Hypothesis, exactpml).  Started by the command line after the main process's
own imports, those two seconds ran one after the other; ``python -m proofs_check`` now starts
it from the package's first line (:func:`start_for_main_job`), so that both imports run at
once on two cores and the first check starts about a second earlier.  This module imports
nothing heavy: only ``multiprocessing``.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Sequence
from typing import Any

__all__ = [
    "FORKSERVER_PRELOAD",
    "default_workers",
    "start_for_main_job",
    "start_fork_server",
    "worker_context",
]

#: Imported once by the fork server, so every worker (and each one that replaces a worker
#: stopped at ``--timeout``) starts with them; the claim modules themselves are imported by
#: the worker that runs them.
FORKSERVER_PRELOAD = (
    "proofs_check.task",
    "hypothesis",
    "sympy",
    "exactpml",
    "exactpml.strategies",
    "proofs_check.evidence",
    "proofs_check.properties",
    "proofs_check.reference",
)


def default_workers() -> int:
    """The number of cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def worker_context() -> Any:
    """The multiprocessing context of local workers: ``forkserver`` (preloading
    :data:`FORKSERVER_PRELOAD`) where available, else ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    method = "forkserver" if "forkserver" in methods else "spawn"
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(list(FORKSERVER_PRELOAD))
    return context


def start_fork_server() -> None:
    """Start the fork server now (it returns at once; the first worker waits for the
    server's imports to finish).  Starting it twice is harmless."""
    if worker_context().get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def _main_job_arguments(original: Sequence[str]) -> list[str] | None:
    """The arguments after ``-m proofs_check`` when this interpreter runs the main job."""
    index = 1
    while index < len(original):
        item = original[index]
        if item == "-m":
            following = list(original[index + 1 :])
            return following[1:] if following[:1] == ["proofs_check"] else None
        if item in ("-c", "-") or not item.startswith("-"):  # a command or a script
            return None
        index += 2 if item in ("-X", "-W", "--check-hash-based-pycs") else 1  # with a value
    return None


def _may_use_workers(arguments: Sequence[str]) -> bool:
    """Whether the command line may use local worker processes (a guess made before the
    arguments are parsed: a wrong guess only costs an idle fork server, since the command
    line decides again with :func:`proofs_check.runner.uses_worker_processes`)."""
    workers: str | None = None
    for index, item in enumerate(arguments):
        if item in ("-h", "--help", "--list", "--version") or item.startswith("--scheduler"):
            return False
        if item == "--workers" and index + 1 < len(arguments):
            workers = arguments[index + 1]
        elif item.startswith("--workers="):
            workers = item.partition("=")[2]
    if any(item == "--timeout" or item.startswith("--timeout=") for item in arguments):
        return True
    if workers is not None:
        return workers.strip() != "1"
    return default_workers() > 1


def start_for_main_job() -> None:
    """Start the fork server when this interpreter runs ``python -m proofs_check`` with
    workers (called from the package's first lines; does nothing on any other import)."""
    arguments = _main_job_arguments(getattr(sys, "orig_argv", ()))
    if arguments is not None and _may_use_workers(arguments):
        try:
            start_fork_server()
        except Exception:  # the command line starts it again and reports why
            return
