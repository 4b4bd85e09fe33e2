"""Worker processes take the longest tasks first (proofs_check.task_order): the order is by
the recorded one-worker times, and it changes when a task starts, never a result."""

from __future__ import annotations

import statistics

from proofs_check import RunOptions, run_checks
from proofs_check._task_costs import MEASURED_SECONDS
from proofs_check.registry import default_registry, load_claim_modules
from proofs_check.task import CheckTask
from proofs_check.task_order import estimated_seconds, longest_first

load_claim_modules()


def _task(claim_id: str, profile: str = "default", mutant: str | None = None) -> CheckTask:
    return CheckTask(claim_id, "m:f", 0, 200, profile, mutant)  # type: ignore[arg-type]


def test_every_built_in_claim_has_a_recorded_time_at_each_profile() -> None:
    built_in = {
        check.claim.id
        for check in default_registry.checks()
        if check.claim.id.split(".")[0] in {"pml", "vadhan", "pk", "bldp"}
    }
    for profile in ("quick", "default", "thorough"):
        missing = built_in - set(MEASURED_SECONDS[profile])
        assert not missing, f"run benchmarks/bench_proofs_check.py --record-costs ({missing})"


def test_tasks_are_taken_by_decreasing_recorded_time() -> None:
    recorded = MEASURED_SECONDS["default"]
    ids = sorted(recorded)
    ordered = longest_first([_task(claim_id) for claim_id in ids])
    times = [recorded[task.claim_id] for task in ordered]
    assert times == sorted(times, reverse=True)
    assert sorted(task.claim_id for task in ordered) == ids


def test_an_unrecorded_claim_counts_as_the_median_and_a_mutant_as_its_claim() -> None:
    median = statistics.median(MEASURED_SECONDS["quick"].values())
    assert estimated_seconds(_task("mylab.new", "quick")) == median
    slowest = max(MEASURED_SECONDS["quick"], key=MEASURED_SECONDS["quick"].__getitem__)
    assert (
        estimated_seconds(_task(slowest, "quick", mutant="m")) == MEASURED_SECONDS["quick"][slowest]
    )


def test_equal_estimates_keep_their_order() -> None:
    tasks = [_task(f"mylab.claim_{index}") for index in range(5)]
    assert longest_first(tasks) == tuple(tasks)


def test_the_report_lists_claims_in_catalogue_order_whatever_the_task_order() -> None:
    claims = ["vadhan.case_1", "pml.thm_2_8", "bldp.definition"]
    report = run_checks(claims, options=RunOptions(workers=2, profile="quick"))
    assert [result.claim.id for result in report.results] == [
        "pml.thm_2_8",
        "vadhan.case_1",
        "bldp.definition",
    ]
    assert all(result.verdict.passed for result in report.results)
