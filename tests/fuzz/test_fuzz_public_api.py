"""Fuzz every public function: hostile values in place of one or two arguments of a valid
call give a value or an exactpml error, within 2 s of CPU and 1 GiB (issue 21, item 6).

For each baseline call of the API table (``fuzz_api_table``), Hypothesis draws the bits
from which one or two of its parameters and a named hostile value for each
(``fuzz_hostile_values``) are chosen; the call runs in a forked child (``fuzz_isolation``).
Acceptable: a value whose ``repr``/``str`` work, an exactpml error with a printable message
of at most ~300 characters, or what the function raises by contract.  Anything else -- a
foreign exception, a hang, running out of memory, a long or unprintable message, a value
that does not print -- is a failure.

Every drawn case must pass: there is no list of known failures (``fuzz_sweep.py record``
sweeps every parameter with representative hostile values, a hunt for what the draws miss).
All draws of a baseline run before its verdict, which reports every failure at once.

Every public function is drawn on every run, ``DRAWS_PER_BASELINE`` times, seeded by its
name: the same draws every time, unchanged when another baseline is added.  With
``HYPOTHESIS_PROFILE=thorough`` the draws are fresh and more: a hunt for new failures.
"""

from __future__ import annotations

import json
import os
import random
import signal
import zlib
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fuzz_api_table import BASELINES, NOT_FUZZED, Baseline, public_callables
from fuzz_hostile_values import NAMES, hostile_value
from fuzz_isolation import classify, run_isolated
from fuzz_sweep import case_key, outcome_label
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
THOROUGH = PROFILE == "thorough"
#: Draws per baseline and run.  Each baseline's draws are seeded by its name (not in the
#: thorough profile, which draws afresh and more), so they are the same on every run and do
#: not change when another baseline is added.
DRAWS_PER_BASELINE = 6 if THOROUGH else 1

FUZZABLE = sorted(name for name, baseline in BASELINES.items() if baseline.parameters())


@contextmanager
def _hang_guard(seconds: int) -> Iterator[None]:
    def alarm(signum: int, frame: object) -> None:
        raise AssertionError(f"the baselines did not finish within {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_every_public_callable_has_a_baseline_or_a_reason() -> None:
    public = public_callables()
    covered = {id(baseline.function) for baseline in BASELINES.values()}
    missing = sorted(
        name
        for name, value in public.items()
        if name not in BASELINES and id(value) not in covered and name not in NOT_FUZZED
    )
    assert missing == [], f"public callables without a baseline (or a reason): {missing}"
    assert sorted(set(NOT_FUZZED) - set(public)) == [], "NOT_FUZZED names no public callable"
    assert sorted(set(NOT_FUZZED) & set(BASELINES)) == []


def test_every_baseline_gives_a_value() -> None:
    # In this process (a baseline is a valid call, cheap by construction), under one guard.
    outcomes = {}
    with _hang_guard(300):
        for name, baseline in BASELINES.items():
            kind, detail = classify(baseline.call_with({}), baseline.documented)
            outcomes[name] = f"{kind}: {detail}"
    assert {name: text for name, text in outcomes.items() if not text.startswith("value:")} == {}


def _case(name: str, bits: list[bool]) -> dict[str, str]:
    """One or two parameters of the baseline ``name`` and a hostile value for each, chosen
    uniformly by a generator seeded with the baseline's name and 64 bits Hypothesis drew.

    Not ``sampled_from``: its first names came up several times as often as the rest (half
    of 300 draws were 10**5000).  Bits, not an integer: Hypothesis sometimes replaces a
    drawn integer by a constant found in the source of the modules loaded so far, so the
    draws would change with what earlier tests imported; it never does so for a boolean.
    """
    number = sum(1 << index for index, bit in enumerate(bits) if bit)
    chooser = random.Random(f"{name}:{number}")  # a str seed: the same in every process
    parameters = BASELINES[name].parameters()
    chosen = chooser.sample(parameters, min(len(parameters), chooser.choice((1, 2))))
    return {parameter: chooser.choice(NAMES) for parameter in chosen}


@pytest.mark.parametrize("name", FUZZABLE)
def test_hostile_arguments_give_a_value_or_an_exactpml_error(name: str) -> None:
    baseline = BASELINES[name]
    failures: dict[str, str] = {}

    @settings(
        max_examples=DRAWS_PER_BASELINE,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(st.booleans(), min_size=64, max_size=64))
    def draw_and_run(bits: list[bool]) -> None:
        hostile = _case(name, bits)
        replacements = {parameter: hostile_value(value) for parameter, value in hostile.items()}
        outcome = run_isolated(baseline.call_with(replacements), documented=baseline.documented)
        if not outcome.acceptable:
            keys = [
                case_key(name, parameter, value) for parameter, value in sorted(hostile.items())
            ]
            failures[" & ".join(keys)] = f"{outcome_label(outcome.kind, outcome.detail)}: {outcome}"

    (draw_and_run if THOROUGH else seed(zlib.crc32(name.encode()))(draw_and_run))()
    assert failures == {}, "failures:\n" + json.dumps(failures, indent=1, ensure_ascii=False)


def _recorder(a: object, b: object = 0, *, c: object = 3) -> tuple[object, object, object]:
    return a, b, c


def test_a_replacement_changes_only_the_named_argument() -> None:
    baseline = Baseline("recorder", _recorder, (1,), {"b": 2})
    assert baseline.parameters() == ("a", "b", "c")
    assert baseline.call_with({})() == (1, 2, 3)
    assert baseline.call_with({"b": 9})() == (1, 9, 3)
    assert baseline.call_with({"a": None, "c": [5]})() == (None, 2, [5])
    assert baseline.args == (1,) and baseline.kwargs == {"b": 2}  # the baseline is unchanged
