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
  an optional dependency, imported only here.
"""

from __future__ import annotations

import multiprocessing
import re
import signal
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from typing import Any, Protocol

from exactpml.errors import InvalidArgument
from proofs_check.task import CheckOutcome, CheckTask, execute, run_task, run_task_threaded

__all__ = [
    "Backend",
    "DaskBackend",
    "DaskUnavailable",
    "ProcessBackend",
    "SchedulerUnreachable",
    "SerialBackend",
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
    return CheckOutcome(task.claim_id, task.shard, (), f"{where}: {type(exc).__name__}: {exc}", 0.0)


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


def _ignore_interrupts() -> None:
    """Worker initializer: leave SIGINT to the main process, which stops the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Terminate the workers of ``pool`` now (running tasks are abandoned) and shut it down.

    Each worker gets SIGTERM, then SIGKILL if it has not exited within
    :data:`STOP_GRACE_SECONDS`; every worker is waited for, so none outlives this call.
    Calling it again, or on a pool that is already shut down, does nothing harmful.
    """
    # ProcessPoolExecutor has no public way to stop busy workers before Python 3.14
    # (terminate_workers); its process table is a dict pid -> multiprocessing.Process.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        if process.exitcode is None:
            process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(STOP_GRACE_SECONDS)
        if process.exitcode is None:
            process.kill()
            process.join()
    pool.shutdown(wait=True)


class ProcessBackend:
    """Runs checks in ``workers`` local processes."""

    name = "processes"
    in_process = False

    def __init__(self, workers: int) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise InvalidArgument(f"workers={workers!r} must be a positive integer.")
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def run(
        self, tasks: Sequence[CheckTask], functions: Mapping[str, Callable[..., Any]]
    ) -> Iterator[CheckOutcome]:
        """Submit every task to a process pool and yield outcomes as they complete.

        When the run ends early (an exception in the caller, such as an interrupt, or the
        caller stops iterating), the workers are terminated at once.
        """
        if not tasks:
            return
        methods = multiprocessing.get_all_start_methods()
        method = "forkserver" if "forkserver" in methods else "spawn"
        context = multiprocessing.get_context(method)
        if method == "forkserver":
            context.set_forkserver_preload(["proofs_check.task", "hypothesis", "sympy"])
        pool = ProcessPoolExecutor(
            max_workers=min(self.workers, len(tasks)),
            mp_context=context,
            initializer=_ignore_interrupts,
        )
        self._pool = pool
        finished = False
        try:
            futures: dict[Future[CheckOutcome], CheckTask] = {
                pool.submit(run_task, task): task for task in tasks
            }
            for future in as_completed(futures):
                task = futures[future]
                try:
                    yield future.result()
                except Exception as exc:  # a worker died (BrokenProcessPool) or similar
                    yield _failed(task, exc, "worker process failed")
            finished = True
        finally:
            if finished:
                pool.shutdown(wait=True)
            else:
                stop_pool(pool)
            self._pool = None

    def close(self) -> None:
        """Terminate the workers of a run that has not finished (one that was interrupted)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            stop_pool(pool)


class DaskBackend:
    """Submits checks to a Dask ``distributed`` scheduler at ``address``."""

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

        futures = {self.client.submit(run_task_threaded, task, pure=False): task for task in tasks}
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
