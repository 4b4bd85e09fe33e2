"""Executors for check tasks: the current process, local worker processes, or Dask.

All three take the same plain :class:`~proofs_check.task.CheckTask` records and yield
:class:`~proofs_check.task.CheckOutcome` records as they complete.  A task that crashes
its worker becomes an outcome with an error; it never stops the run.

- :class:`SerialBackend` runs checks in this process (one at a time).
- :class:`ProcessBackend` uses ``concurrent.futures.ProcessPoolExecutor`` with the
  ``forkserver`` start method where available (safe with threads, such as the progress
  display's), so workers import checks by name.  Workers ignore SIGINT (a Ctrl-C in a
  terminal reaches the whole process group; the main process decides); a run that stops
  early (an exception such as an interrupt, or :meth:`ProcessBackend.close`) terminates
  them, so no worker outlives the run.
- :class:`DaskBackend` submits the same tasks to a Dask ``distributed`` scheduler; Dask is
  an optional dependency, imported only here.  On a Dask worker each check runs in a *check
  process* of that worker (:func:`run_task_in_check_process`), never in the worker's own
  threads: two checks in threads of one process shared Hypothesis' global state, and Dask's
  own threads draw from the global ``random`` module while a check runs (issue 21).
"""

from __future__ import annotations

import atexit
import gc
import json
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as connection_wait
from typing import Any, Protocol

from exactpml.errors import InvalidArgument
from proofs_check._launch import worker_context
from proofs_check.task import CheckOutcome, CheckTask, execute, run_task

__all__ = [
    "Backend",
    "DaskBackend",
    "DaskUnavailable",
    "ProcessBackend",
    "SchedulerUnreachable",
    "SerialBackend",
    "run_task_in_check_process",
]


class SchedulerUnreachable(InvalidArgument):
    """The Dask scheduler could not be reached within the timeout."""


class DaskUnavailable(InvalidArgument):
    """``--scheduler`` was given but ``dask[distributed]`` is not installed."""


_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
_HOST_PORT = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$")


def check_scheduler_address(address: str) -> None:
    """Refuse an address that is not ``[scheme://]host:port`` (or ``inproc://...``).

    Checked before Dask sees it: a malformed address used to end in a traceback from
    ``Client.__del__`` after the error.

    >>> check_scheduler_address("tcp://127.0.0.1:8786")
    >>> check_scheduler_address("not a scheduler")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactpml.errors.InvalidArgument: malformed scheduler address 'not a scheduler'; ...
    """
    scheme, separator, rest = address.partition("://")
    if not separator:
        scheme, rest = "tcp", address
    if scheme == "inproc" and rest and not any(char.isspace() for char in rest):
        return
    match = _HOST_PORT.match(rest)
    if scheme not in _SCHEMES or match is None or not 0 < int(match.group(2)) < 65536:
        raise InvalidArgument(
            f"malformed scheduler address {address!r}; expected [tcp://]host:port, "
            "e.g. tcp://127.0.0.1:8786"
        )


def _connect(address: str, timeout: float) -> Any:
    """A Dask client for ``address``, or SchedulerUnreachable within about ``timeout`` s.

    The client is created in a daemon thread that is abandoned at the deadline: a port that
    accepts the connection but never speaks Dask's protocol (an HTTP server) made
    ``Client(timeout=...)`` wait forever.
    """
    from distributed import Client

    outcome: dict[str, Any] = {}

    def connect() -> None:
        try:
            outcome["client"] = Client(address, timeout=f"{timeout}s", set_as_default=False)
        except BaseException as exc:  # reported below, in the caller's thread
            outcome["error"] = exc

    thread = threading.Thread(target=connect, name="proofs_check-dask-connect", daemon=True)
    thread.start()
    thread.join(timeout + 1)
    if "client" in outcome:
        return outcome["client"]
    error = outcome.get("error")
    detail = "no answer" if error is None else (str(error).splitlines() or [""])[0]
    detail = detail or type(error).__name__
    raise SchedulerUnreachable(
        f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({detail})"
    )


class Backend(Protocol):
    """Runs tasks and yields their outcomes in completion order."""

    name: str
    in_process: bool

    def run(
        self, tasks: Sequence[CheckTask], functions: Mapping[str, Callable[..., Any]]
    ) -> Iterator[CheckOutcome]:
        """Yield one outcome per task (``functions`` maps claim ids to check functions)."""
        ...

    def close(self) -> None:
        """Release resources (connections, processes)."""
        ...


def _failed(task: CheckTask, exc: BaseException, where: str) -> CheckOutcome:
    return CheckOutcome(
        task.claim_id,
        task.shard,
        (),
        f"{where}: {type(exc).__name__}: {exc}",
        0.0,
        mutant=task.mutant,
    )


class SerialBackend:
    """Runs every check in the current process, one after another."""

    name = "serial"
    in_process = True

    def run(
        self, tasks: Sequence[CheckTask], functions: Mapping[str, Callable[..., Any]]
    ) -> Iterator[CheckOutcome]:
        """Run each task with the registered function object (no import by name)."""
        for task in tasks:
            yield execute(task, functions[task.claim_id])

    def close(self) -> None:
        """Nothing to release."""


#: Seconds a terminated worker gets to exit before it is killed.
STOP_GRACE_SECONDS = 5.0


def _worker_loop(connection: Connection) -> None:
    """A worker process: run the tasks received on ``connection`` until ``None`` or EOF.

    SIGINT is ignored (a Ctrl-C in a terminal reaches the whole process group; the main
    process decides and terminates the workers).

    Everything the worker inherited (the fork server's imports: sympy, Hypothesis,
    exactpml) is moved to the collector's permanent generation (:func:`gc.freeze`): the full
    collections of a check then walk only the objects the checks made.  The workers' CPU at
    ``--quick`` fell by 5-8% (16.7-17.7 s to 15.4-16.9 s over both workers, paired runs);
    raising the collection thresholds on top of it gained nothing.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.freeze()
    while True:
        try:
            task = connection.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        connection.send(run_task(task))


class _Worker:
    """One worker process, its end of the pipe, and the task it is running."""

    def __init__(self, context: Any) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(
            target=_worker_loop, args=(child,), name="proofs_check-worker", daemon=True
        )
        self.process.start()
        child.close()  # only the worker holds that end: its exit shows here as EOF
        self.task: CheckTask | None = None
        self.started = 0.0

    def give(self, task: CheckTask) -> None:
        self.task, self.started = task, time.monotonic()
        self.connection.send(task)

    def stop(self, *, now: bool) -> None:
        """Ask an idle worker to exit, or terminate a busy one (``now``); never wait long."""
        if not now and self.process.exitcode is None:
            try:
                self.connection.send(None)
            except OSError:
                now = True
        if now and self.process.exitcode is None:
            self.process.terminate()
        self.connection.close()


def _stop_workers(workers: Sequence[_Worker], *, now: bool) -> None:
    """Stop every worker and wait for each (SIGKILL after :data:`STOP_GRACE_SECONDS`)."""
    for worker in workers:
        worker.stop(now=now)
    for worker in workers:
        worker.process.join(STOP_GRACE_SECONDS)
        if worker.process.exitcode is None:
            worker.process.kill()
            worker.process.join()


def _timed_out(task: CheckTask, timeout: float, seconds: float) -> CheckOutcome:
    return CheckOutcome(
        task.claim_id,
        task.shard,
        (),
        f"stopped after {seconds:.1f} s: the check exceeded --timeout {timeout:g} s",
        seconds,
        timed_out=True,
        mutant=task.mutant,
    )


class ProcessBackend:
    """Runs checks in ``workers`` local processes, each task with an optional time limit.

    The processes are started with ``forkserver`` where available (safe with threads, such
    as the progress display's) and import checks by name.  A task that exceeds ``timeout``
    seconds (counted from when its worker receives it) has its worker terminated and
    becomes a timed-out outcome; a new worker takes the next task, the others run on.
    """

    name = "processes"
    in_process = False

    def __init__(self, workers: int, *, timeout: float | None = None) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise InvalidArgument(f"workers={workers!r} must be a positive integer.")
        if timeout is not None and (
            isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0
        ):
            raise InvalidArgument(f"timeout={timeout!r} must be a positive number of seconds.")
        self.workers = workers
        self.timeout = timeout
        self._workers: list[_Worker] = []  # alive; busy exactly when ``task`` is set

    def run(
        self, tasks: Sequence[CheckTask], functions: Mapping[str, Callable[..., Any]]
    ) -> Iterator[CheckOutcome]:
        """Run every task in the worker processes and yield outcomes as they complete.

        When the run ends early (an exception in the caller, such as an interrupt, or the
        caller stops iterating), the workers are terminated at once.
        """
        if not tasks:
            return
        context = worker_context()
        queue = deque(tasks)
        workers = self._workers = []
        finished = False

        def busy() -> list[_Worker]:
            return [worker for worker in workers if worker.task is not None]

        def retire(worker: _Worker) -> None:
            workers.remove(worker)
            _stop_workers([worker], now=True)

        try:
            while queue or busy():
                while queue and len(busy()) < self.workers:
                    idle = [worker for worker in workers if worker.task is None]
                    worker = idle[0] if idle else _Worker(context)
                    if not idle:
                        workers.append(worker)
                    task = queue.popleft()
                    try:
                        worker.give(task)
                    except OSError as exc:  # the worker died while idle
                        retire(worker)
                        yield _failed(task, exc, "worker process failed")
                running = busy()
                wait: float | None = None
                if self.timeout is not None:
                    first = min(worker.started for worker in running)
                    wait = max(0.0, first + self.timeout - time.monotonic())
                handles: dict[Any, _Worker] = {}
                for worker in running:
                    handles[worker.connection] = worker
                    handles[worker.process.sentinel] = worker
                ready = {
                    id(handles[handle]): handles[handle]
                    for handle in connection_wait(list(handles), timeout=wait)
                }
                for worker in ready.values():
                    current = worker.task
                    assert current is not None
                    try:
                        if not worker.connection.poll():
                            raise EOFError("the worker exited")
                        outcome = worker.connection.recv()
                    except (EOFError, OSError) as exc:
                        retire(worker)  # joins it
                        code = worker.process.exitcode
                        detail = f"exit code {code}" if code is not None else str(exc)
                        yield _failed(current, RuntimeError(detail), "worker process failed")
                        continue
                    worker.task = None
                    yield outcome
                if self.timeout is not None:
                    now = time.monotonic()
                    for worker in [w for w in busy() if now - w.started >= self.timeout]:
                        late = worker.task
                        assert late is not None
                        retire(worker)
                        yield _timed_out(late, self.timeout, now - worker.started)
            finished = True
        finally:
            alive = list(workers)
            workers.clear()
            _stop_workers(alive, now=not finished)

    def close(self) -> None:
        """Terminate the workers of a run that has not finished (one that was interrupted)."""
        alive = list(self._workers)
        self._workers.clear()  # the run's own list: its ``finally`` then has none left
        _stop_workers(alive, now=True)


#: The program of a check process: take ``sys.path`` from the argument (the Dask worker's,
#: so the same modules are found), then serve tasks on the inherited socket.
_CHECK_PROCESS_PROGRAM = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[2]); "
    "from proofs_check.backends import serve_checks; serve_checks(int(sys.argv[1]))"
)


def serve_checks(descriptor: int) -> None:
    """The main loop of a check process: run the tasks received on the socket
    ``descriptor`` (inherited from the Dask worker) until ``None`` or EOF."""
    _worker_loop(Connection(descriptor))


class _CheckProcess:
    """A child of a Dask worker that runs one check at a time (:func:`run_task`).

    Started with ``subprocess``, not ``multiprocessing``: Dask's worker processes are
    daemonic, and multiprocessing refuses to give a daemonic process children.  It exits
    when its socket closes (the Dask worker exited) or on :meth:`stop`.
    """

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        with theirs:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    *(f"-W{option}" for option in sys.warnoptions),
                    "-c",
                    _CHECK_PROCESS_PROGRAM,
                    str(theirs.fileno()),
                    json.dumps([entry for entry in sys.path if isinstance(entry, str)]),
                ],
                stdin=subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),),
            )
        self.connection = Connection(ours.detach())

    def run(self, task: CheckTask) -> CheckOutcome:
        """Run ``task`` and return its outcome (EOFError or OSError if the process died)."""
        self.connection.send(task)
        outcome: CheckOutcome = self.connection.recv()
        return outcome

    def stop(self) -> None:
        """Close the socket (an idle process exits), terminate, and reap the process."""
        self.connection.close()
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(STOP_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


#: The check processes of this (Dask worker) process: idle ones wait in ``_IDLE``; there are
#: never more than the worker has threads running checks.
_IDLE: list[_CheckProcess] = []
_ALL: set[_CheckProcess] = set()
_POOL_LOCK = threading.Lock()


@atexit.register
def _stop_check_processes() -> None:
    with _POOL_LOCK:
        every = list(_ALL)
        _ALL.clear()
        _IDLE.clear()
    for child in every:
        child.stop()


def run_task_in_check_process(task: CheckTask) -> CheckOutcome:
    """Dask's entry point: run ``task`` in a check process of this worker.

    Each thread of the worker that runs a task takes an idle check process (or starts
    one), so checks never share a process: not Hypothesis' global state (it seeds the
    global ``random`` module for each test and restores it afterwards), not the integer
    printing limit that ``big_integer_printing`` sets, and not the global ``random``
    module that Dask's own threads draw from.  Two threads per worker thus run two checks
    in parallel.  A check that kills its process becomes an error outcome and the process
    is replaced on the next task.
    """
    with _POOL_LOCK:
        child = _IDLE.pop() if _IDLE else None
    if child is None:
        child = _CheckProcess()
        with _POOL_LOCK:
            _ALL.add(child)
    try:
        outcome = child.run(task)
    except (EOFError, OSError) as exc:
        with _POOL_LOCK:
            _ALL.discard(child)
        child.stop()
        code = child.process.returncode
        detail = f"exit code {code}" if code is not None and code >= 0 else str(exc)
        if code is not None and code < 0:
            detail = f"killed by signal {-code}"
        return _failed(task, RuntimeError(detail), "check process failed")
    with _POOL_LOCK:
        _IDLE.append(child)
    return outcome


class DaskBackend:
    """Submits checks to a Dask ``distributed`` scheduler at ``address``.

    Each check runs in a check process of the worker that takes it
    (:func:`run_task_in_check_process`), so several threads per worker run checks in
    parallel without sharing a process.
    """

    name = "dask"
    in_process = False

    def __init__(self, address: str, *, timeout: float = 5.0) -> None:
        try:
            import distributed  # noqa: F401  (only whether it is installed)
        except ImportError as exc:
            raise DaskUnavailable(
                "--scheduler needs Dask: pip install 'exactpml[dask]' (dask[distributed])"
            ) from exc
        if not isinstance(address, str) or not address.strip():
            raise InvalidArgument(f"scheduler address {address!r} must be a non-empty string.")
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
            raise InvalidArgument(f"scheduler timeout {timeout!r} must be a positive number.")
        check_scheduler_address(address)
        self.address = address
        self.client: Any = _connect(address, timeout)

    def run(
        self, tasks: Sequence[CheckTask], functions: Mapping[str, Callable[..., Any]]
    ) -> Iterator[CheckOutcome]:
        """Submit every task to the cluster and yield outcomes as they complete."""
        from distributed import as_completed as dask_completed

        futures = {
            self.client.submit(run_task_in_check_process, task, pure=False): task for task in tasks
        }
        done: set[CheckTask] = set()
        try:
            for future in dask_completed(list(futures), loop=self.client.loop):
                task = futures[future]
                done.add(task)
                try:
                    yield future.result()
                except Exception as exc:
                    yield _failed(task, exc, "Dask worker failed")
        except Exception as exc:  # the scheduler went away mid-run: report, do not crash
            for task in futures.values():
                if task not in done:
                    yield _failed(task, exc, "lost the Dask scheduler")

    def close(self) -> None:
        """Close the connection to the scheduler."""
        self.client.close()
