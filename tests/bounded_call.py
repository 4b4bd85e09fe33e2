"""Run one call in a forked child with a CPU-time and a memory limit, and report how it ended.

A guard for the "bounded work" tests (issue 21): a call that the library should answer at
once, or refuse with an exactpml error, must not instead run for minutes or fill the
memory.  The child gets ``RLIMIT_CPU`` (CPU seconds, so a loaded machine does not make a
correct call fail) and ``RLIMIT_AS`` (its address space as forked plus ``memory`` bytes);
the parent also stops waiting after ``wall`` seconds (a hang guard, not a timing
assertion) and kills the child.

>>> import exactpml
>>> run_bounded(lambda: exactpml.Distribution.uniform("ab")["a"]).value
Fraction(1, 2)
>>> outcome = run_bounded(lambda: exactpml.Distribution({"a": 0.5}))
>>> outcome.error_type, outcome.is_exactpml_error
('InexactInput', True)
"""

from __future__ import annotations

import multiprocessing
import pickle
import resource
import signal
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["CPU_SECONDS", "MEMORY_BYTES", "Outcome", "run_bounded"]

CPU_SECONDS = 4
"""CPU seconds a bounded call may use."""

MEMORY_BYTES = 2**30
"""Bytes a bounded call may allocate beyond the address space it was forked with."""


@dataclass(frozen=True)
class Outcome:
    """How a bounded call ended.

    Attributes:
        value: the returned value (unpickled), when it returned.
        error_type: the class name of the exception it raised, else ``None``.
        error_message: its message.
        is_exactpml_error: whether that exception is an ``ExactPMLError``.
        killed: ``None``, or why the child was stopped ("cpu", "memory", "wall", "signal N").
        details: the child's traceback of an unexpected exception (for failure messages).
    """

    value: Any = None
    error_type: str | None = None
    error_message: str = ""
    is_exactpml_error: bool = False
    killed: str | None = None
    details: str = ""

    @property
    def returned(self) -> bool:
        return self.killed is None and self.error_type is None

    def __str__(self) -> str:
        if self.killed:
            return f"killed ({self.killed})"
        if self.error_type:
            return f"{self.error_type}: {self.error_message}\n{self.details}"
        return f"returned {self.value!r}"


def _address_space() -> int:
    with open("/proc/self/statm") as status:
        pages = int(status.read().split()[0])
    return pages * resource.getpagesize()


def _child(call: Callable[[], Any], connection: Any, cpu: int, memory: int) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    limit = _address_space() + memory
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        value = call()
        try:
            payload = ("value", pickle.dumps(value))
        except Exception:  # an unpicklable result: its repr is enough for a message
            payload = ("value", pickle.dumps(repr(value)))
    except MemoryError:
        payload = ("killed", "memory")
    except BaseException as error:  # the parent classifies it
        from exactpml.errors import ExactPMLError

        payload = (
            "error",
            (
                type(error).__name__,
                str(error)[:2000],
                isinstance(error, ExactPMLError),
                traceback.format_exc()[-3000:],
            ),
        )
    connection.send(payload)
    connection.close()


def run_bounded(
    call: Callable[[], Any],
    *,
    cpu: int = CPU_SECONDS,
    memory: int = MEMORY_BYTES,
    wall: float = 60,
) -> Outcome:
    """Run ``call()`` in a forked child within ``cpu`` CPU seconds and ``memory`` extra bytes."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(call, sender, cpu, memory), daemon=True)
    process.start()
    sender.close()
    try:
        if not receiver.poll(wall):
            process.kill()
            process.join()
            return Outcome(killed="wall")
        try:
            kind, payload = receiver.recv()
        except EOFError:  # the child died without a word: a limit's signal
            process.join()
            code = process.exitcode or 0
            if -code in (signal.SIGXCPU, signal.SIGKILL):
                return Outcome(killed="cpu")
            return Outcome(killed=f"signal {-code}" if code < 0 else f"exit {code}")
    finally:
        receiver.close()
    process.join()
    if kind == "value":
        return Outcome(value=pickle.loads(payload))
    if kind == "killed":
        return Outcome(killed=payload)
    name, message, ours, details = payload
    return Outcome(error_type=name, error_message=message, is_exactpml_error=ours, details=details)
