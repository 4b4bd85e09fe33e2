"""The fuzz harness itself: every outcome kind is recognised (a harness that could only say
"value" would make every fuzz test pass), and nothing a call does reaches the caller."""

import os
import signal
import sys
import time
from fractions import Fraction

import pytest
from fuzz_isolation import MAX_MESSAGE_CHARACTERS, Outcome, run_isolated

from exactpml.errors import InvalidArgument, Undecided

_STATE = {"touched": False}


def _loop_forever() -> None:
    count = 0
    while True:
        count += 1


def _raise(error: BaseException):
    def call() -> None:
        raise error

    return call


def _unprintable_value() -> object:
    class Shy:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    return Shy()


def _lazy_failure():
    yield 1
    raise KeyError("late")


def _touch_and_return() -> int:
    _STATE["touched"] = True
    return 7


CASES = [
    ("a value", lambda: Fraction(1, 3), Outcome("value", "Fraction: Fraction(1, 3)")),
    (
        "an exactpml error",
        _raise(InvalidArgument("epsilon='x' cannot be read")),
        Outcome("exactpml error", "InvalidArgument: epsilon='x' cannot be read"),
    ),
    ("an undecided", _raise(Undecided("tie")), Outcome("exactpml error", "Undecided: tie")),
    (
        "a foreign exception",
        _raise(TypeError("unhashable type: 'list'")),
        Outcome("foreign exception", "builtins.TypeError: unhashable type: 'list'"),
    ),
    (
        "a SystemExit",
        _raise(SystemExit(2)),
        Outcome("foreign exception", "builtins.SystemExit: 2"),
    ),
    ("a MemoryError", _raise(MemoryError()), Outcome("memory", "MemoryError")),
    (
        "an iterator that fails when consumed",
        _lazy_failure,
        Outcome("foreign exception", "builtins.KeyError: 'late'"),
    ),
    (
        "a value whose repr fails",
        _unprintable_value,
        Outcome("unprintable", "repr()/str() of Shy raised RuntimeError: no repr"),
    ),
]


@pytest.mark.parametrize(("call", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_outcome_is_recognised(call, expected):
    assert run_isolated(call) == expected


class _HugeRecord:
    """A record of exactpml's whose repr shows a 5000-digit field in full."""

    __module__ = "exactpml.records"

    def __repr__(self) -> str:
        return f"_HugeRecord({10**5000})"


def test_an_exactpml_record_too_big_to_print_is_unprintable():
    outcome = run_isolated(_HugeRecord)
    assert outcome.kind == "unprintable" and "ValueError" in outcome.detail
    assert not outcome.acceptable


def test_a_plain_exact_value_past_the_4300_digit_limit_is_a_value():
    # Python's limit, not exactpml's: printed as exactpml prints (big_integer_printing)
    outcome = run_isolated(lambda: (Fraction(1, 10**5000), 10**5000))
    assert outcome.kind == "value" and outcome.acceptable
    assert "1000000000" in outcome.detail


class _RawMessage(InvalidArgument):
    """An exactpml error whose text bypasses the escaping of control characters."""

    def __str__(self) -> str:
        return str(self.raw)

    def __init__(self, raw: str) -> None:
        super().__init__("raw")
        self.raw = raw


def test_control_characters_of_a_message_are_shown_escaped():
    outcome = run_isolated(_raise(InvalidArgument("entry '\x1b[31mred'")))
    assert outcome == Outcome("exactpml error", "InvalidArgument: entry '\\x1b[31mred'")


def test_a_long_or_unprintable_message_is_not_acceptable():
    long = run_isolated(_raise(InvalidArgument("x" * (MAX_MESSAGE_CHARACTERS + 50))))
    control = run_isolated(_raise(_RawMessage("entry '\x1b[31mred'")))
    if long.kind != "exactpml error":  # once messages are capped, a long one is cut
        assert long.kind == "long message" and not long.acceptable
    assert control.kind == "unprintable" and not control.acceptable


def test_a_busy_loop_is_stopped_at_the_cpu_limit():
    outcome = run_isolated(_loop_forever, cpu_seconds=1)
    assert outcome == Outcome("hang", "over 1 s of CPU")
    assert not outcome.acceptable


def test_a_blocked_call_is_stopped_at_the_wall_clock_backstop():
    started = time.monotonic()
    outcome = run_isolated(lambda: time.sleep(60), wall_seconds=1.0)
    assert outcome.kind == "hang" and outcome.detail.startswith("no answer within 1 s")
    assert time.monotonic() - started < 30  # the child was killed, not waited for


def test_an_allocation_beyond_the_cap_is_memory():
    outcome = run_isolated(lambda: bytearray(4 << 30))
    assert outcome == Outcome("memory", "MemoryError")


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: os._exit(3), "exit status 3"),
        (lambda: os.kill(os.getpid(), signal.SIGSEGV), "killed by SIGSEGV"),
    ],
    ids=["os._exit", "a segmentation fault"],
)
def test_a_child_that_dies_without_a_report_is_a_crash(call, fragment):
    outcome = run_isolated(call)
    assert outcome.kind == "crash" and fragment in outcome.detail


def test_nothing_the_call_changes_reaches_the_caller(capfd):
    def noisy() -> int:
        print("to stdout")
        sys.stderr.write("to stderr\n")
        return _touch_and_return()

    assert run_isolated(noisy).kind == "value"
    assert _STATE["touched"] is False
    captured = capfd.readouterr()
    assert "to stdout" not in captured.out and "to stderr" not in captured.err
