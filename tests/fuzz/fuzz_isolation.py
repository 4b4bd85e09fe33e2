"""One call in a forked child under a CPU-time limit and a memory cap, and what came of it.

Issue 21, item 6: every call of a public function with hostile arguments must end, within
2 s, in a value (whose ``repr`` and ``str`` work) or an :class:`~exactpml.errors.ExactPMLError`
(whose message is printable and at most ~300 characters).  :func:`run_isolated` runs the
call in a child made by ``os.fork`` (cheap: the parent's imports are shared), so a hang, a
runaway allocation or a crash in C code costs the child only, and nothing the call changes
(caches, global settings) reaches the caller.

The limits, set in the child:

- **CPU time** ``CPU_SECONDS`` = 2 (``RLIMIT_CPU``: the kernel stops the child at 2 s of
  CPU).  CPU time, not wall-clock time, so that the verdict does not depend on how busy the
  (shared) machine is; a wall-clock backstop of ``WALL_SECONDS`` catches a child that blocks
  without computing (a FIFO's ``open``).
- **Memory** ``RLIMIT_AS`` of ``MEMORY_BYTES`` = 1 GiB (or the parent's address space plus
  512 MiB if that is larger): an allocation beyond it fails in the child.  No core files.

The child reports on a pipe one of the :data:`OUTCOME_KINDS`; only ``"value"`` and
``"exactpml error"`` are acceptable (:attr:`Outcome.acceptable`).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import resource
import select
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from exactpml import errors
from exactpml.core.bounds import big_integer_printing
from exactpml.errors import ExactPMLError

CPU_SECONDS = 2
WALL_SECONDS = 30.0
MEMORY_BYTES = 1 << 30

#: The longest acceptable message of an exactpml error (the bound the errors module declares,
#: once it declares one).
MAX_MESSAGE_CHARACTERS: int = getattr(errors, "MESSAGE_CHARACTERS", 300)

#: What a call can come to.  Only the first two are acceptable.
OUTCOME_KINDS = (
    "value",  # returned; repr() and str() of the value work
    "exactpml error",  # raised an ExactPMLError with a short printable message
    "documented exception",  # raised what the function documents (assert_exact_equal)
    "foreign exception",  # raised anything else (TypeError from sympy, ValueError ...)
    "hang",  # over CPU_SECONDS of CPU, or over WALL_SECONDS of wall clock
    "memory",  # MemoryError, or killed while allocating beyond the cap
    "long message",  # an ExactPMLError whose message is too long
    "unprintable",  # repr()/str() of the value or the message failed, or control characters
    "crash",  # the child died without reporting (a signal, os._exit)
)
ACCEPTABLE = frozenset({"value", "exactpml error", "documented exception"})

_DETAIL_CHARACTERS = 240


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one isolated call came to: one of :data:`OUTCOME_KINDS` and a short detail."""

    kind: str
    detail: str
    cpu_seconds: float = field(default=0.0, compare=False)

    @property
    def acceptable(self) -> bool:
        """A value or an exactpml error (with a short printable message)."""
        return self.kind in ACCEPTABLE

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


def _short(text: str) -> str:
    return text if len(text) <= _DETAIL_CHARACTERS else text[:_DETAIL_CHARACTERS] + "..."


def _text_of(value: object) -> str:
    """``str(value)``, shortened, or a note that it failed (describing must not raise)."""
    try:
        return _short(str(value))
    except BaseException as error:
        return f"<str() failed: {type(error).__name__}>"


def _printable(message: str) -> bool:
    return all(character.isprintable() or character == "\n" for character in message)


def _realize(value: Any) -> Any:
    """Do the work a lazy value defers: list an iterator, enter and leave a context manager,
    draw an example from a Hypothesis strategy."""
    if isinstance(value, Iterator):
        return list(value)
    if hasattr(value, "__enter__") and hasattr(value, "__exit__"):
        with value as entered:
            return entered
    module = type(value).__module__ or ""
    if module.startswith("hypothesis.") and hasattr(value, "validate"):
        from hypothesis import HealthCheck, Phase, given, settings

        drawn: list[Any] = []

        @settings(
            max_examples=1,
            database=None,
            deadline=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(value)
        def draw(example: Any) -> None:
            drawn.append(example)

        draw()
        return drawn[0]
    return value


def classify(
    call: Callable[[], Any], documented: tuple[type[BaseException], ...] = ()
) -> tuple[str, str]:
    """Run ``call`` here and now and classify it (the child's half of :func:`run_isolated`).

    ``documented``: exception classes the function raises by contract (``AssertionError``
    for an assertion helper).
    """
    try:
        value = _realize(call())
    except documented as error:
        return "documented exception", f"{type(error).__name__}: {_text_of(error)}"
    except ExactPMLError as error:
        name = type(error).__name__
        try:
            message = str(error)
        except BaseException as inner:
            return "unprintable", f"str() of {name} raised {type(inner).__name__}"
        if len(message) > MAX_MESSAGE_CHARACTERS:
            return "long message", f"{name} of {len(message)} characters: {_short(message)}"
        if not _printable(message):
            return "unprintable", f"{name} with control characters: {message[:200]!r}"
        return "exactpml error", f"{name}: {message}"
    except MemoryError:
        return "memory", "MemoryError"
    except BaseException as error:
        text = _text_of(error)
        return "foreign exception", f"{type(error).__module__}.{type(error).__name__}: {text}"
    try:
        shown = _shown(value)
    except MemoryError:
        return "memory", f"MemoryError in repr()/str() of {type(value).__name__}"
    except BaseException as error:
        text = _text_of(error)
        return "unprintable", (
            f"repr()/str() of {type(value).__name__} raised {type(error).__name__}: {text}"
        )
    return "value", f"{type(value).__name__}: {_short(shown)}"


def _ours(value: object) -> bool:
    """Whether ``value``'s class is exactpml's (or proofs_check's)."""
    module = type(value).__module__ or ""
    return module.split(".")[0] in ("exactpml", "proofs_check")


def _shown(value: object) -> str:
    """``repr(value)`` (``str`` is called too).  A plain exact value -- an ``int``, a
    ``Fraction``, a sympy expression, a tuple or dict of them -- past Python's 4300-digit
    limit on int -> str conversion is printed as exactpml prints exact results, inside
    :func:`~exactpml.core.bounds.big_integer_printing`: the limit is Python's, the value is
    correct.  An exactpml record must print without it (``printable_record``); the CPU
    limit still catches a print that does not end."""
    try:
        shown = repr(value)
        str(value)
        return shown
    except ValueError as error:
        if _ours(value) or "integer string conversion" not in _text_of(error):
            raise
    with big_integer_printing():
        shown = repr(value)
        str(value)
    return shown


def _address_space() -> int:
    """This process's virtual memory size in bytes (0 where /proc is missing)."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    return 0


def _child(
    call: Callable[[], Any],
    documented: tuple[type[BaseException], ...],
    report: int,
    memory: int,
    cpu_seconds: int,
) -> None:
    """The forked child: limits, quiet output, the call, the report; never returns."""
    kind, detail = "crash", "the harness failed in the child"
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM, signal.SIGXCPU):
            signal.signal(number, signal.SIG_DFL)
        signal.alarm(0)
        quiet = open(os.devnull, "w", encoding="utf-8")
        os.dup2(quiet.fileno(), 1)
        sys.stdout = sys.stderr = quiet  # not the parent's capture buffers
        kind, detail = classify(call, documented)
    except MemoryError:
        kind, detail = "memory", "MemoryError while classifying"
    except BaseException as error:
        detail = f"the harness failed in the child: {type(error).__name__}"
    finally:
        with contextlib.suppress(BaseException):
            os.write(report, pickle.dumps((kind, detail)))
        os._exit(0)


def _signal_outcome(number: int, cpu: float, limit: int, error_tail: bytes) -> Outcome:
    if number == signal.SIGXCPU or (number == signal.SIGKILL and cpu >= limit):
        return Outcome("hang", f"over {limit} s of CPU")
    text = error_tail.decode("utf-8", "replace")
    if "alloc" in text.lower() or "memory" in text.lower():
        return Outcome("memory", _short(f"killed by {signal.Signals(number).name}: {text.strip()}"))
    return Outcome("crash", _short(f"killed by {signal.Signals(number).name}: {text.strip()}"))


def run_isolated(
    call: Callable[[], Any],
    *,
    documented: tuple[type[BaseException], ...] = (),
    cpu_seconds: int = CPU_SECONDS,
    wall_seconds: float = WALL_SECONDS,
    memory_bytes: int = MEMORY_BYTES,
) -> Outcome:
    """Run ``call()`` in a forked child under the limits and return its :class:`Outcome`.

    The child's stderr is kept (its last 4 KiB) to tell a C library's failed allocation
    from another crash; its stdout is discarded.  ``documented``: exception classes that
    the function raises by contract (classified ``"documented exception"``).
    """
    memory = max(memory_bytes, _address_space() + (512 << 20))
    report_read, report_write = os.pipe()
    error_read, error_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        os.close(report_read)
        os.close(error_read)
        os.dup2(error_write, 2)
        _child(call, documented, report_write, memory, cpu_seconds)
    os.close(report_write)
    os.close(error_write)
    report, error_tail = b"", b""
    deadline = time.monotonic() + wall_seconds
    pending = {report_read, error_read}
    timed_out = False
    try:
        while pending:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = True
                os.kill(pid, signal.SIGKILL)
                break
            ready, _, _ = select.select(list(pending), [], [], remaining)
            for descriptor in ready:
                data = os.read(descriptor, 1 << 16)
                if not data:
                    pending.discard(descriptor)
                elif descriptor == report_read:
                    report += data
                else:
                    error_tail = (error_tail + data)[-4096:]
    finally:
        os.close(report_read)
        os.close(error_read)
    _, status, usage = os.wait4(pid, 0)
    cpu = usage.ru_utime + usage.ru_stime
    if timed_out:
        outcome = Outcome("hang", f"no answer within {wall_seconds:g} s ({cpu:.1f} s of CPU)")
    elif report:
        outcome = Outcome(*pickle.loads(report))
    elif os.WIFSIGNALED(status):
        outcome = _signal_outcome(os.WTERMSIG(status), cpu, cpu_seconds, error_tail)
    else:
        tail = error_tail.decode("utf-8", "replace").strip()
        outcome = Outcome("crash", _short(f"exit status {os.WEXITSTATUS(status)}: {tail}"))
    return Outcome(outcome.kind, outcome.detail, cpu)
