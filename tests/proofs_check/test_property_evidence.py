"""Property evidence: deterministic from the seed, shrunk exact counterexamples, no database."""

from __future__ import annotations

import importlib
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import strategies as st

from exactpml.errors import InvalidArgument, Undecided
from proofs_check.context import CheckContext
from proofs_check.evidence import property_holds
from proofs_check.properties import PropertyError

RATIONALS = st.fractions(min_value=-100, max_value=100, max_denominator=1000)


def ctx(seed: int = 0, examples: int = 100) -> CheckContext:
    return CheckContext("demo.x", seed=seed, examples=examples, profile="quick")


def test_a_true_property_holds_on_the_requested_number_of_instances() -> None:
    evidence = property_holds(ctx(), RATIONALS, lambda x: x * x >= 0, describe="x*x >= 0")
    assert evidence.passed is True
    assert evidence.summary == (
        "x*x >= 0: held on 100 random exact instances (seed 0); no small scope: the strategy "
        "is not one exactpml can enumerate (it uses no exactpml strategy)"
    )
    assert evidence.stats is not None and evidence.stats.tried == 100


def test_a_false_property_fails_with_the_shrunk_counterexample_zero() -> None:
    evidence = property_holds(
        ctx(),
        RATIONALS,
        lambda x: x * x > 0,
        describe="x*x > 0",
        explain=lambda x: f"x*x = {x * x}",
    )
    assert evidence.passed is False
    assert evidence.counterexample == "0; x*x = 0"


def test_a_rare_failure_is_shrunk_to_the_minimal_instance() -> None:
    evidence = property_holds(ctx(examples=500), RATIONALS, lambda x: x < 7, describe="x < 7")
    assert evidence.passed is False
    assert evidence.counterexample == "7"


def test_the_same_seed_gives_the_same_instances() -> None:
    seen: list[list[Fraction]] = [[], []]
    for run in seen:
        property_holds(
            ctx(seed=42), RATIONALS, lambda x, run=run: run.append(x) or True, describe="record"
        )
    assert seen[0] == seen[1]
    assert len(seen[0]) == 100


def test_different_seeds_give_different_instances() -> None:
    seen: list[list[Fraction]] = [[], []]
    for seed, run in enumerate(seen):
        property_holds(
            ctx(seed=seed), RATIONALS, lambda x, run=run: run.append(x) or True, describe="record"
        )
    assert seen[0] != seen[1]


def test_instances_do_not_depend_on_which_local_modules_are_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def instances() -> list[Fraction]:
        seen: list[Fraction] = []
        property_holds(
            ctx(seed=7, examples=300),
            RATIONALS,
            lambda x: seen.append(x) or True,
            describe="record",
        )
        return seen

    before = instances()
    module = tmp_path / "pc_many_constants.py"
    module.write_text("CONSTANTS = [" + ", ".join(str(n) for n in range(101, 999, 7)) + "]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("pc_many_constants")
    try:
        assert instances() == before
    finally:
        sys.modules.pop("pc_many_constants", None)


def test_a_small_strategy_reports_the_instances_actually_tried() -> None:
    evidence = property_holds(ctx(), st.integers(0, 4), lambda n: n < 5, describe="n < 5")
    assert evidence.passed is True
    assert evidence.stats is not None and evidence.stats.tried == 5
    assert "ran out of distinct instances before 100" in evidence.summary


def test_undecided_instances_make_the_property_undecided() -> None:
    def holds(n: int) -> bool | None:
        if n == 3:
            raise Undecided("cannot settle the sign")
        return None if n == 4 else True

    evidence = property_holds(ctx(), st.integers(0, 9), holds, describe="p")
    assert evidence.passed is None
    assert evidence.stats is not None and evidence.stats.undecided == 2
    assert "undecided on 2" in evidence.summary


def test_an_exception_in_holds_names_the_shrunk_instance() -> None:
    def holds(n: int) -> bool:
        return 1 // (n - 13) is not None

    with pytest.raises(PropertyError, match=r"ZeroDivisionError.*on instance 13"):
        property_holds(ctx(examples=300), st.integers(0, 20), holds, describe="p")


def test_holds_must_return_a_bool_not_a_number() -> None:
    with pytest.raises(PropertyError, match="holds must return True, False or None"):
        property_holds(ctx(), RATIONALS, lambda x: x * x, describe="p")  # type: ignore[arg-type, return-value]


def test_a_float_counterexample_is_refused() -> None:
    with pytest.raises(Exception, match="inexact"):
        property_holds(ctx(), st.floats(0, 1), lambda x: x > 2, describe="p")


def test_properties_write_no_hypothesis_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    property_holds(ctx(), RATIONALS, lambda x: x * x > 0, describe="x*x > 0")
    property_holds(ctx(), RATIONALS, lambda x: x * x >= 0, describe="x*x >= 0")
    assert list(tmp_path.iterdir()) == []


def test_describe_is_required() -> None:
    with pytest.raises(InvalidArgument):
        property_holds(ctx(), RATIONALS, lambda x: True, describe="")


# --- beyond the first 100 instances: four instances per Hypothesis test case ---------------


def test_beyond_the_first_hundred_every_instance_is_drawn_and_counted() -> None:
    from proofs_check.properties import (
        INSTANCES_PER_TEST_CASE,
        SINGLE_INSTANCE_TEST_CASES,
        instances_per_test_case,
    )

    assert (SINGLE_INSTANCE_TEST_CASES, INSTANCES_PER_TEST_CASE) == (100, 4)
    assert [instances_per_test_case(n) for n in (1, 150, 999, 1000, 1900)] == [4, 4, 4, 8, 8]
    seen: list[Fraction] = []
    evidence = property_holds(
        ctx(examples=250), RATIONALS, lambda x: seen.append(x) or True, describe="record"
    )
    assert evidence.passed is True and evidence.stats is not None
    assert evidence.stats.tried == 250 == len(seen)  # 100 single, then 150 in 38 tuples
    assert "held on 250 random exact instances (seed 0)" in evidence.summary


def test_a_failure_in_the_batched_stage_is_shrunk_and_placed_in_the_sequence() -> None:
    calls = [0]

    def holds(x: Fraction) -> bool:  # the first 130 instances hold; after them, x >= 3 fails
        calls[0] += 1
        return calls[0] <= 130 or x < 3

    evidence = property_holds(ctx(examples=400), RATIONALS, holds, describe="x < 3 later")
    assert evidence.passed is False
    assert evidence.counterexample == "3"  # shrunk within its tuple to the minimal instance
    assert evidence.stats is not None and evidence.stats.found_by == "hypothesis"
    assert evidence.stats.tried >= 130
    assert f"random exact instance {evidence.stats.tried + 1} (seed 0)" in evidence.summary


def test_an_instance_skipped_in_a_tuple_is_replaced_so_the_count_is_kept() -> None:
    from hypothesis import assume

    def holds(n: int) -> bool:
        assume(n % 3 != 0)
        return True

    evidence = property_holds(ctx(examples=300), st.integers(0, 10**6), holds, describe="p")
    assert evidence.passed is True and evidence.stats is not None
    assert evidence.stats.tried == 300 and evidence.stats.skipped > 0
    assert f"{evidence.stats.skipped} skipped by assume" in evidence.summary


def test_a_small_strategy_runs_out_before_the_batched_stage() -> None:
    evidence = property_holds(
        ctx(examples=2000), st.integers(0, 40), lambda n: n < 41, describe="p"
    )
    assert evidence.stats is not None and evidence.stats.tried == 41
    assert "ran out of distinct instances before 2000" in evidence.summary


def test_a_thorough_sized_property_checks_every_instance_eight_per_test_case() -> None:
    seen: list[int] = []
    evidence = property_holds(
        ctx(examples=2000), st.integers(0, 10**9), lambda n: seen.append(n) or True, describe="p"
    )
    assert evidence.stats is not None and evidence.stats.tried == 2000 == len(seen)
    calls = [0]

    def holds(x: Fraction) -> bool:
        calls[0] += 1
        return calls[0] <= 1500 or x < 3

    failed = property_holds(ctx(examples=2000), RATIONALS, holds, describe="x < 3 later")
    assert failed.passed is False and failed.counterexample == "3"


def test_an_exception_in_the_batched_stage_names_the_shrunk_instance() -> None:
    calls = [0]

    def holds(n: int) -> bool:
        calls[0] += 1
        if calls[0] > 120 and n >= 17:
            raise ZeroDivisionError("division by zero")
        return True

    with pytest.raises(PropertyError, match=r"holds raised ZeroDivisionError.*on instance 17"):
        property_holds(ctx(examples=400), st.integers(0, 10**6), holds, describe="p")
