"""Command line: ``python -m proofs_check [PATTERN ...] [options]``.

Exit status: 0 when every selected claim PROVED or PASSED (and, with ``--mutants``, every
mutant was KILLED), 1 when some did not, 2 for bad input
(unknown claim, bad seed or example count, unwritable output, unreachable scheduler,
a user module that cannot be imported), 130 when interrupted by SIGINT (Ctrl-C) and 143
by SIGTERM.  Bad input is reported as one line on stderr, before anything runs; no report
file is written unless the run completes.

``--output`` only ever replaces a regular file, atomically (a temporary file in the same
directory, then a rename); a device, FIFO, socket or directory is refused, and a symbolic
link is written through (see :mod:`proofs_check.output`).  SIGINT and SIGTERM stop the
run: the worker processes are terminated, the file at ``--output`` is left as it was, and
one line on stderr says so.
"""

from __future__ import annotations

import argparse
import atexit
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any, NoReturn

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from exactpml import __version__
from exactpml.errors import ExactPMLError
from proofs_check._launch import start_fork_server
from proofs_check.backends import Backend
from proofs_check.context import MAX_EXAMPLES, MAX_SEED, PROFILE_EXAMPLES
from proofs_check.formats import FORMATS, SUFFIXES, render
from proofs_check.formats.to_table import print_report
from proofs_check.output import check_writable, write_atomically
from proofs_check.registry import Registry, default_registry
from proofs_check.runner import (
    MAX_SHARDS,
    MAX_TIMEOUT_SECONDS,
    Plan,
    Report,
    RunOptions,
    execute,
    make_backend,
    plan,
    uses_worker_processes,
)
from proofs_check.verdict import ClaimResult

__all__ = ["Interrupted", "build_parser", "exit_without_teardown", "main"]

EXIT_PASSED = 0
EXIT_NOT_PASSED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 128 + signal.SIGINT  # 130; SIGTERM gives 128 + 15 = 143

_Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None

#: The signals that stop a run.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM stopped the run.

    A :class:`KeyboardInterrupt` (not an :class:`Exception`), so that no ``except
    Exception`` in a check or a backend turns it into a claim's error.

    Attributes:
        signum: The signal that was received.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        """``128 + signum``, as a shell reports a process that a signal stopped."""
        return 128 + self.signum


class _StopOnSignals:
    """While active (in the main thread), SIGINT and SIGTERM raise :class:`Interrupted`.

    Only the first signal raises; later ones are recorded and ignored, so the cleanup it
    starts (terminating the worker processes) is not cut short.  After :meth:`disarm` a
    signal is only recorded, so the final rename of the report is never abandoned halfway.
    A signal that the process ignores (``SIG_IGN``, as in a background job) stays ignored.
    """

    def __init__(self) -> None:
        self.received: int | None = None
        self.armed = True
        self._previous: dict[int, _Handler] = {}

    def __enter__(self) -> _StopOnSignals:
        if threading.current_thread() is threading.main_thread():
            for signum in STOP_SIGNALS:
                if signal.getsignal(signum) is not signal.SIG_IGN:
                    self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        self._previous.clear()

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.received is not None:
            return
        self.received = signum
        if self.armed:
            raise Interrupted(signum)

    def disarm(self) -> None:
        """From now on a signal is recorded, not raised (the run is being committed)."""
        self.armed = False


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def _integer(name: str, low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text.strip().replace("_", ""), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{name} must be an integer from {low} to {high}, got {text!r}"
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{name} must be an integer from {low} to {high}, got {text!r}"
            )
        return value

    return parse


def _seconds(name: str, high: float) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text)  # a time limit, not a mathematical quantity
        except ValueError:
            value = -1.0
        if not 0 < value <= high:  # also refuses nan
            raise argparse.ArgumentTypeError(
                f"{name} must be a number of seconds in (0, {high:g}], got {text!r}"
            )
        return value

    return parse


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m proofs_check``."""
    parser = _Parser(
        prog="python -m proofs_check",
        description=(
            "Check the claims of CLAIMS.md (at the repository's root) exactly and print a report."
        ),
        epilog="Exit status: 0 all selected claims passed, 1 some did not, 2 bad input.",
    )
    parser.add_argument(
        "--version", action="version", version=f"proofs_check (exactpml {__version__})"
    )
    parser.add_argument(
        "patterns",
        nargs="*",
        metavar="CLAIM",
        help="claim ids, prefixes (pml.) or globs (pml.thm_4_*); default: every claim",
    )
    profile = parser.add_mutually_exclusive_group()
    profile.add_argument(
        "--quick",
        dest="profile",
        action="store_const",
        const="quick",
        help=f"CI profile ({PROFILE_EXAMPLES['quick']} examples per property)",
    )
    profile.add_argument(
        "--thorough",
        dest="profile",
        action="store_const",
        const="thorough",
        help=f"thorough profile ({PROFILE_EXAMPLES['thorough']} examples per property)",
    )
    parser.set_defaults(profile="default")
    parser.add_argument(
        "--examples",
        type=_integer("--examples", 1, MAX_EXAMPLES),
        metavar="N",
        help="random exact instances per property",
    )
    parser.add_argument(
        "--seed",
        type=_integer("--seed", 0, MAX_SEED),
        default=0,
        metavar="S",
        help="seed of the random instances (default 0)",
    )
    parser.add_argument(
        "--shards",
        type=_integer("--shards", 1, MAX_SHARDS),
        default=1,
        metavar="K",
        help="run each claim with the K seeds S, S+1, ... (default 1)",
    )
    parser.add_argument(
        "--workers",
        type=_integer("--workers", 1, 4096),
        metavar="N",
        help="worker processes (default: the core count; 1 runs in-process)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on a Dask distributed scheduler, e.g. tcp://host:8786",
    )
    parser.add_argument(
        "--scheduler-timeout",
        type=_seconds("--scheduler-timeout", 3600),
        default=5.0,
        metavar="SECONDS",
        help="how long to wait for the scheduler (default 5)",
    )
    parser.add_argument(
        "--timeout",
        type=_seconds("--timeout", MAX_TIMEOUT_SECONDS),
        metavar="SECONDS",
        help="stop a claim's check after SECONDS and mark it TIMEOUT (never passed); "
        "checks then run in worker processes",
    )
    parser.add_argument(
        "--format",
        choices=sorted(FORMATS),
        dest="format_name",
        help="report format (default: table, or implied by --output's suffix)",
    )
    parser.add_argument(
        "--output",
        metavar="FILE",
        help="write the report to FILE (atomically, when the run completes)",
    )
    parser.add_argument(
        "--module",
        action="append",
        default=[],
        metavar="MODULE",
        dest="modules",
        help="load MODULE (a dotted name, or a file path such as mine/lemmas.py) first and "
        "run only its claims (user claims); repeatable",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        dest="all_claims",
        help="with --module, run the built-in claims too",
    )
    parser.add_argument(
        "--mutant",
        metavar="NAME",
        help="run the selected claims with this mutant (they should FAIL); "
        "--mutant all is --mutants",
    )
    parser.add_argument(
        "--mutants",
        action="store_true",
        help="also run every declared mutant of the selected claims: each must FAIL "
        "(KILLED); a claim with a surviving mutant is WEAK and the exit status is 1",
    )
    parser.add_argument(
        "--standalone",
        action="store_true",
        help="with --format latex: a whole document (pdflatex compiles it as it is)",
    )
    parser.add_argument(
        "--timings",
        action="store_true",
        help="include per-claim times in json/markdown/latex output",
    )
    parser.add_argument(
        "--list",
        action="store_true",
        help="list the claims, their kinds, checks and mutants, and exit",
    )
    return parser


def _format_name(args: argparse.Namespace) -> str:
    if args.format_name:
        return str(args.format_name)
    if args.output:
        return SUFFIXES.get(Path(args.output).suffix.lower(), "table")
    return "table"


def _stdout_console() -> Console:
    console = Console()
    if not console.is_terminal:
        console = Console(width=120)
    return console


def _list_claims(the_plan: Plan, registry: Registry, console: Console) -> None:
    """Every selected claim in full: id, number, kinds, statement, check and mutants.

    Plain text, one block per claim, never truncated (long lines wrap, nothing is cut).
    """
    for claim in the_plan.claims:
        registered = registry.get(claim.id)
        if not claim.kinds:
            check, mutants = "listed, not checkable", "-"
        elif registered is None:
            check, mutants = "not yet checkable", "-"
        else:
            check = registered.target
            if registered.known_false is not None:
                check += f" (source false as written: {registered.known_false})"
            mutants = ", ".join(registered.mutant_names)
        console.print(
            Text(
                f"{claim.id}  ({claim.result}; kinds {claim.kinds_text or '-'})\n"
                f"    {claim.statement}\n"
                f"    check: {check}\n"
                f"    mutants: {mutants}"
            ),
            soft_wrap=True,
        )
    for item in the_plan.listed:
        console.print(
            Text(f"{item.id}  ({item.result}; listed, not checkable)\n    {item.reason}"),
            soft_wrap=True,
        )


def _pending_text(pending: Sequence[str]) -> str:
    shown = ", ".join(pending[:3]) + (f" and {len(pending) - 3} more" if len(pending) > 3 else "")
    return f"running or queued: {shown}" if pending else ""


def _run_with_progress(the_plan: Plan, backend: Backend) -> Report:
    """Run with a progress line on a terminal: done/total, elapsed, ETA, the claims not done."""
    stderr = Console(stderr=True)
    total = len(the_plan.claims)
    if not stderr.is_terminal or total < 2:
        return execute(the_plan, backend)
    progress = Progress(
        TextColumn("[bold]checking"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        TextColumn("{task.description}", markup=False),
        console=stderr,
        transient=True,
    )
    pending = [claim.id for claim in the_plan.claims]
    with progress:
        task = progress.add_task(_pending_text(pending), total=total)

        def advance(result: ClaimResult) -> None:
            if result.claim.id in pending:
                pending.remove(result.claim.id)
            progress.update(task, advance=1, description=_pending_text(pending))

        return execute(the_plan, backend, on_result=advance)


def _fail(message: str) -> int:
    print(f"proofs_check: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def main(argv: Sequence[str] | None = None, *, registry: Registry | None = None) -> int:
    """Run the command line; return the exit status.

    SIGINT and SIGTERM (in the main thread) stop the run: the worker processes are
    terminated, the file at ``--output`` is left as it was, one line goes to stderr, and
    the status is 130 or 143.

    Args:
        argv: The arguments (default: ``sys.argv[1:]``).
        registry: Run this registry instead of the default one (for tests and embedding).
    """
    args = build_parser().parse_args(argv)
    with _StopOnSignals() as signals:
        try:
            return _main(args, registry, signals)
        except KeyboardInterrupt as exc:  # Interrupted, or a KeyboardInterrupt of Python's
            stop = exc if isinstance(exc, Interrupted) else Interrupted(signal.SIGINT)
            kept = f", {args.output} is unchanged" if args.output else ""
            print(f"proofs_check: interrupted by {stop}; no report written{kept}", file=sys.stderr)
            return stop.exit_status


#: The status of a process whose standard output could not be flushed at exit (Python's own).
EXIT_UNFLUSHED = 120


def exit_without_teardown(status: int) -> NoReturn:
    """End ``python -m proofs_check`` once its report is out, without tearing down the
    interpreter: the exit handlers run (multiprocessing's stops the fork server), standard
    output and error are flushed, then :func:`os._exit`.

    Freeing sympy's caches and every module object took 0.25-0.5 s of the main job's wall
    time after the report was printed, for nothing (mypy ends the same way,
    ``mypy.util.hard_exit``).  Only the command line does this; :func:`main` returns.
    A standard output that cannot be flushed (a closed pipe) gives status 120, as Python's
    own exit does.
    """
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        status = status or EXIT_UNFLUSHED
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(status)


def _main(args: argparse.Namespace, registry: Registry | None, signals: _StopOnSignals) -> int:
    if args.mutant == "all":
        args.mutant, args.mutants = None, True
    try:
        options = RunOptions(
            seed=args.seed,
            examples=args.examples,
            profile=args.profile,
            shards=args.shards,
            workers=args.workers,
            scheduler=args.scheduler,
            scheduler_timeout=args.scheduler_timeout,
            mutant=args.mutant,
            modules=tuple(args.modules),
            all_claims=args.all_claims,
            timeout=args.timeout,
            mutants=args.mutants,
        )
        if not args.list and uses_worker_processes(options):
            start_fork_server()  # its imports overlap with the planning below
        the_plan = plan(args.patterns, options=options, registry=registry)
        if args.list:
            _list_claims(the_plan, registry or default_registry, _stdout_console())
            return EXIT_PASSED
        format_name = _format_name(args)
        if args.output is not None:
            check_writable(args.output)
        backend = make_backend(options)
    except ExactPMLError as exc:
        return _fail(str(exc))
    try:
        report = _run_with_progress(the_plan, backend)
    except ExactPMLError as exc:
        return _fail(str(exc))
    finally:
        backend.close()
    if args.output is not None:
        text = render(
            report,
            format_name,
            timings=args.timings or format_name == "table",
            standalone=args.standalone,
        )
        try:
            written = write_atomically(args.output, text, before_replace=signals.disarm)
        except ExactPMLError as exc:  # it passed check_writable, so it changed during the run
            return _fail(
                f"{str(exc).rstrip('.')}; it changed during the run, so nothing was written."
            )
        except OSError as exc:
            return _fail(f"cannot write the report to {args.output}: {exc.strerror or exc}")
        through = "" if written == Path(args.output) else f" (through the link, to {written})"
        print(
            f"proofs_check: {report.summary_line()}; report written to {args.output}{through}",
            file=sys.stderr,
        )
        if signals.received is not None:  # arrived during the final rename
            name = signal.Signals(signals.received).name
            print(f"proofs_check: {name} received after the report was written", file=sys.stderr)
            return 128 + signals.received
    elif format_name == "table":
        print_report(report, _stdout_console())
    else:
        sys.stdout.write(
            render(report, format_name, timings=args.timings, standalone=args.standalone)
        )
    return EXIT_PASSED if report.passed else EXIT_NOT_PASSED
