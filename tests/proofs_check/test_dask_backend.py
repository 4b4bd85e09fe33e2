"""The same tasks run on a Dask distributed cluster (a local one here) give the same report."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterator

import pytest

from proofs_check import Registry, RunOptions, Verdict, run_checks
from proofs_check.cli import main
from proofs_check.formats import report_to_json

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(
        processes=False, n_workers=1, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def test_a_dask_cluster_gives_the_same_report_as_the_current_process(
    demo: Registry, scheduler: str
) -> None:
    serial = run_checks(options=RunOptions(workers=1, profile="quick"), registry=demo)
    on_dask = run_checks(options=RunOptions(profile="quick", scheduler=scheduler), registry=demo)
    assert report_to_json(on_dask) == report_to_json(serial)
    assert [dataclasses.replace(r, seconds=0) for r in on_dask.results] == [
        dataclasses.replace(r, seconds=0) for r in serial.results
    ]


def test_shards_and_mutants_travel_to_dask_as_plain_data(demo: Registry, scheduler: str) -> None:
    options = RunOptions(profile="quick", scheduler=scheduler, shards=2, mutant="strict")
    (result,) = run_checks(["demo.square_nonnegative"], options=options, registry=demo).results
    assert result.verdict is Verdict.FAILED
    assert result.counterexample == "0; x = 0, x*x = 0"


def test_errors_in_checks_are_reported_not_raised_on_dask(odd: Registry, scheduler: str) -> None:
    options = RunOptions(profile="quick", scheduler=scheduler)
    (result,) = run_checks(["odd.raises"], options=options, registry=odd).results
    assert result.verdict is Verdict.ERROR
    assert result.note.startswith("ZeroDivisionError")


def test_the_command_line_runs_on_a_scheduler_address(
    demo: Registry, scheduler: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["--scheduler", scheduler, "--quick", "--format", "json"], registry=demo)
    assert status == 0
    assert json.loads(capsys.readouterr().out)["summary"]["passed"] == 5


def test_losing_the_scheduler_mid_run_reports_errors_instead_of_crashing(
    demo: Registry, scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = distributed.as_completed

    def dies_after_one(futures, **kwargs):  # type: ignore[no-untyped-def]
        for future in original(futures, **kwargs):
            yield future
            raise OSError("connection to the scheduler closed")

    monkeypatch.setattr(distributed, "as_completed", dies_after_one)
    options = RunOptions(profile="quick", scheduler=scheduler)
    report = run_checks(options=options, registry=demo)
    verdicts = [result.verdict for result in report.results]
    assert verdicts.count(Verdict.PASSED) == 1
    assert verdicts.count(Verdict.ERROR) == 4
    errors = [r.note for r in report.results if r.verdict is Verdict.ERROR]
    assert all(note.startswith("lost the Dask scheduler: OSError") for note in errors)


def test_a_check_that_kills_its_process_on_dask_is_an_error_and_the_worker_runs_on(
    odd: Registry, demo: Registry, scheduler: str
) -> None:
    # Checks run in check processes of the Dask worker, never in its threads: os._exit in a
    # check ends only its check process, which is replaced for the next task.
    options = RunOptions(profile="quick", scheduler=scheduler)
    (result,) = run_checks(["odd.worker_dies"], options=options, registry=odd).results
    assert result.verdict is Verdict.ERROR
    assert result.note == "check process failed: RuntimeError: exit code 3"
    (after,) = run_checks(["demo.square_nonnegative"], options=options, registry=demo).results
    assert after.verdict is Verdict.PASSED


def test_two_threads_per_worker_import_the_claim_modules_without_deadlock() -> None:
    # Issue 15: a fresh `dask worker` runs two threads; importing the claim modules in both
    # at once gave "deadlock detected by _ModuleLock" as a false ERROR (checks now run in
    # check processes of the worker, one per thread).  Workers here are separate processes
    # (fresh imports), two threads each, running real built-in claims.
    with distributed.LocalCluster(
        processes=True, n_workers=1, threads_per_worker=2, dashboard_address=None
    ) as cluster:
        options = RunOptions(profile="quick", scheduler=cluster.scheduler_address)
        report = run_checks(
            ["pml.thm_2_4", "pml.thm_3_5", "pml.ex_3_1", "pml.def_2_6"], options=options
        )
    # thm_2_4, thm_3_5 and def_2_6 carry proofs (PROVED); ex_3_1 is PASSED
    expected = {"pml.thm_2_4": Verdict.PROVED, "pml.thm_3_5": Verdict.PROVED,
                "pml.ex_3_1": Verdict.PASSED, "pml.def_2_6": Verdict.PROVED}
    assert {result.claim.id: result.verdict for result in report.results} == expected, [
        result.note for result in report.results
    ]


#: Property claims of every source, among the fastest of the main job under --quick (about
#: 2.5 s of checks together, against ~40 s for the whole main job, too long to repeat 10
#: times in CI).  Each uses Hypothesis, so two of them on two threads overlap.
CONCURRENT_CLAIMS = [
    "bldp.leak_release",
    "pk.prop_26",
    "pml.cor_3_10",
    "pml.pre_processing",
    "pml.thm_2_8",
    "vadhan.case_1",
    "vadhan.claim_1",
    "vadhan.max_divergence",
]


def _say_on_stderr(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


@pytest.mark.slow
def test_ten_runs_on_fresh_two_thread_workers_pass_every_claim_without_sharing_hypothesis(
    capfd: pytest.CaptureFixture[str],
) -> None:
    # Issue 21, item 7: with two threads per worker, two checks ran at once in one process
    # and shared Hypothesis' global state (the seeding of the global random module), which
    # warned "Do not use the `random` module inside strategies" and made 1 run in 10 of the
    # main job report 36/37.  Each run starts a fresh cluster (fresh worker processes import
    # everything, as on a fresh install).  The workers' stderr is this process's (inherited
    # file descriptor), which the marker line proves.
    outcomes = []
    for run in range(10):
        with distributed.LocalCluster(
            processes=True, n_workers=1, threads_per_worker=2, dashboard_address=None
        ) as cluster:
            options = RunOptions(profile="quick", scheduler=cluster.scheduler_address)
            report = run_checks(CONCURRENT_CLAIMS, options=options)
            with distributed.Client(cluster, set_as_default=False) as client:
                client.run(_say_on_stderr, f"worker of run {run} says hello")
        worker_stderr = capfd.readouterr().err
        assert f"worker of run {run} says hello" in worker_stderr
        failed = {r.claim.id: r.note for r in report.results if r.verdict is not Verdict.PASSED}
        warned = "random` module inside strategies" in worker_stderr
        outcomes.append((len(report.results), failed, warned))
    assert outcomes == [(len(CONCURRENT_CLAIMS), {}, False)] * 10
