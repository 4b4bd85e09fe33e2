"""The runner: selection, verdicts, shards and worker processes, all from plain tasks."""

from __future__ import annotations

import dataclasses

import pytest

from exactpml.errors import InvalidArgument
from proofs_check import Registry, RunOptions, Verdict, run_checks
from proofs_check.context import CheckContext
from proofs_check.evidence import exact_instances
from proofs_check.record import Evidence
from proofs_check.runner import plan
from proofs_check.selection import UnknownClaim


def verdicts(report) -> dict[str, Verdict]:  # type: ignore[no-untyped-def]
    return {result.claim.id: result.verdict for result in report.results}


def test_every_demo_claim_passes_in_process(demo: Registry, quick: RunOptions) -> None:
    report = run_checks(options=quick, registry=demo)
    assert set(verdicts(report).values()) == {Verdict.PASSED}
    assert report.passed


def test_misbehaving_checks_get_the_right_verdicts(odd: Registry, quick: RunOptions) -> None:
    in_workers_only = {"odd.worker_dies", "odd.runs_forever"}  # kills its process; never ends
    safe = [claim.id for claim in odd.claims() if claim.id not in in_workers_only]
    report = run_checks(safe, options=quick, registry=odd)
    found = verdicts(report)
    assert found == {
        "odd.raises": Verdict.ERROR,
        "odd.undecided": Verdict.UNDECIDED,
        "odd.missing_kind": Verdict.NOT_CHECKABLE,
        "odd.extra_kind": Verdict.ERROR,
        "odd.not_checkable": Verdict.NOT_CHECKABLE,
        "odd.wrong_return": Verdict.ERROR,
    }
    assert not report.passed


def test_an_error_names_the_exception_and_where_it_happened(
    odd: Registry, quick: RunOptions
) -> None:
    (result,) = run_checks(["odd.raises"], options=quick, registry=odd).results
    assert result.note.startswith("ZeroDivisionError: integer division or modulo by zero (at ")
    assert "in raises)" in result.note


def test_catalog_claims_without_a_check_are_not_yet_checkable(quick: RunOptions) -> None:
    registry = Registry(include_catalog=True)
    report = run_checks(["vadhan."], options=quick, registry=registry)
    assert len(report.results) == 6
    for result in report.results:
        assert result.verdict is Verdict.NOT_CHECKABLE
        assert result.note == "no check registered yet (not yet checkable)"
    assert not report.passed


def test_listed_items_appear_as_notes_or_as_rows_when_named_exactly(quick: RunOptions) -> None:
    registry = Registry(include_catalog=True)
    by_prefix = run_checks(["pml."], options=quick, registry=registry)
    assert [item.id for item in by_prefix.listed] == ["pml.ex_3_2"]
    assert "pml.ex_3_2" not in verdicts(by_prefix)
    by_id = run_checks(["pml.ex_3_2"], options=quick, registry=registry)
    assert verdicts(by_id) == {"pml.ex_3_2": Verdict.NOT_CHECKABLE}
    assert by_id.results[0].note.startswith("listed as not checkable: conceptual")


@pytest.mark.parametrize(
    ("patterns", "selected"),
    [
        (["pml.thm_4_*"], ["pml.thm_4_2", "pml.thm_4_3", "pml.thm_4_5"]),
        (
            ["bldp."],
            [
                "bldp.definition",
                "bldp.post_processing",
                "bldp.composition",
                "bldp.group_privacy",
                "bldp.leak_release",
                "bldp.independent_leakage",
                "bldp.non_participation",
            ],
        ),
        (
            ["pk"],
            [
                "pk.prop_8",
                "pk.thm_1",
                "pk.ex_7",
                "pk.thm_2",
                "pk.prop_26",
                "pk.prop_25",
                "pk.remark_2",
                "pk.full_knowledge",
            ],
        ),
        (["vadhan.prop_2", "pml.thm_3_5"], ["pml.thm_3_5", "vadhan.prop_2"]),
    ],
    ids=["glob", "prefix with dot", "source prefix", "exact ids in catalog order"],
)
def test_claims_are_selected_by_id_prefix_or_glob(patterns: list[str], selected: list[str]) -> None:
    the_plan = plan(
        patterns, options=RunOptions(workers=1), registry=Registry(include_catalog=True)
    )
    assert [claim.id for claim in the_plan.claims] == selected


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("pml.thm_35", "unknown claim 'pml.thm_35'; did you mean pml.thm_3_5"),
        ("pml.thm_9_*", "unknown claim 'pml.thm_9_*'"),
        ("nonsense", "unknown claim 'nonsense'; known prefixes: bldp., pk., pml., vadhan."),
        ("", "must be a non-empty string"),
    ],
    ids=["typo", "glob matching nothing", "unknown prefix", "empty pattern"],
)
def test_an_unknown_claim_is_refused_with_a_suggestion(pattern: str, message: str) -> None:
    with pytest.raises(UnknownClaim, match=message.replace("*", r"\*")):
        plan([pattern], registry=Registry(include_catalog=True))


def test_a_mutant_run_fails_with_the_exact_counterexample(demo: Registry) -> None:
    options = RunOptions(workers=1, profile="quick", mutant="strict")
    (result,) = run_checks(["demo.square_nonnegative"], options=options, registry=demo).results
    assert result.verdict is Verdict.FAILED
    assert result.mutant == "strict"
    assert result.counterexample == "0; x = 0, x*x = 0"


def test_a_mutant_that_a_selected_claim_does_not_declare_is_refused(demo: Registry) -> None:
    with pytest.raises(InvalidArgument, match="has no mutant 'nope'; its mutants: strict"):
        plan(["demo.square_nonnegative"], options=RunOptions(mutant="nope"), registry=demo)


def test_shards_run_each_claim_on_a_range_of_seeds(demo: Registry) -> None:
    options = RunOptions(workers=1, profile="quick", shards=3, seed=10)
    (result,) = run_checks(["demo.square_nonnegative"], options=options, registry=demo).results
    assert result.verdict is Verdict.PASSED
    assert result.evidence[1].summary == (
        "x*x >= 0: held on 150 random exact instances (seeds 10–12); no small scope: the "
        "strategy is not one exactpml can enumerate (it uses no exactpml strategy)"
    )


def test_examples_override_the_profile(demo: Registry) -> None:
    options = RunOptions(workers=1, profile="thorough", examples=7)
    (result,) = run_checks(["demo.square_nonnegative"], options=options, registry=demo).results
    assert result.evidence[1].stats is not None
    assert result.evidence[1].stats.requested == 7


def test_the_context_carries_seed_examples_profile_and_mutant() -> None:
    seen: list[CheckContext] = []
    registry = Registry()

    @registry.check(
        "mylab.ctx", source="s", result="r", statement="s", kinds="E", mutants={"m": "m"}
    )
    def record(ctx: CheckContext) -> list[Evidence]:
        seen.append(ctx)
        return [exact_instances({"x": (1, 1)})]

    options = RunOptions(workers=1, seed=3, examples=9, profile="thorough", mutant="m")
    run_checks(options=options, registry=registry)
    assert seen == [CheckContext("mylab.ctx", seed=3, examples=9, profile="thorough", mutant="m")]


def test_worker_processes_give_the_same_results_as_the_current_process(
    demo: Registry,
) -> None:
    serial = run_checks(options=RunOptions(workers=1, profile="quick"), registry=demo)
    parallel = run_checks(options=RunOptions(workers=2, profile="quick"), registry=demo)
    strip = [dataclasses.replace(result, seconds=0.0) for result in serial.results]
    assert [dataclasses.replace(r, seconds=0.0) for r in parallel.results] == strip


def test_a_worker_that_dies_is_an_error_not_a_crash(odd: Registry) -> None:
    report = run_checks(["odd.worker_dies"], options=RunOptions(workers=2), registry=odd)
    (result,) = report.results
    assert result.verdict is Verdict.ERROR
    assert result.note.startswith("worker process failed: RuntimeError: exit code 3")


def test_a_check_defined_in_a_function_runs_in_process_but_not_in_workers() -> None:
    registry = Registry()

    @registry.check(
        "mylab.local", source="s", result="r", statement="s", kinds="E", mutants={"m": "m"}
    )
    def local(ctx: CheckContext) -> list[Evidence]:
        return [exact_instances({"x": (1, 1)})]

    assert run_checks(options=RunOptions(workers=1), registry=registry).passed
    with pytest.raises(InvalidArgument, match="worker processes cannot import"):
        run_checks(options=RunOptions(workers=2), registry=registry)


BAD_OPTIONS = [
    ("negative seed", {"seed": -1}, "seed=-1"),
    ("seed too large", {"seed": 2**63}, "seed="),
    ("seed not an integer", {"seed": "0"}, "seed='0'"),
    ("zero examples", {"examples": 0}, "examples=0"),
    ("boolean examples", {"examples": True}, "examples=True"),
    ("unknown profile", {"profile": "fast"}, "profile='fast'"),
    ("zero shards", {"shards": 0}, "shards=0"),
    ("zero workers", {"workers": 0}, "workers=0"),
    ("empty scheduler", {"scheduler": " "}, "scheduler=' '"),
    ("negative timeout", {"scheduler_timeout": -1}, "scheduler_timeout=-1"),
    ("zero check timeout", {"timeout": 0}, "timeout=0 must be a number of seconds"),
    ("nan check timeout", {"timeout": float("nan")}, "timeout=nan"),
    ("boolean check timeout", {"timeout": True}, "timeout=True"),
    (
        "check timeout on Dask",
        {"timeout": 5, "scheduler": "tcp://127.0.0.1:8786"},
        "--timeout needs local worker processes",
    ),
]


@pytest.mark.parametrize(
    "arguments", [case[1] for case in BAD_OPTIONS], ids=[case[0] for case in BAD_OPTIONS]
)
def test_bad_options_are_refused_before_anything_runs(arguments: dict[str, object]) -> None:
    message = next(case[2] for case in BAD_OPTIONS if case[1] is arguments)
    with pytest.raises(InvalidArgument, match=message.replace("(", r"\(")):
        RunOptions(**arguments)  # type: ignore[arg-type]


def test_a_user_module_that_cannot_be_imported_is_refused() -> None:
    with pytest.raises(
        InvalidArgument,
        match="--module no_such_module_xyz: cannot load it: ModuleNotFoundError: No module named",
    ):
        plan(options=RunOptions(modules=("no_such_module_xyz",)), registry=Registry())


@pytest.mark.parametrize("workers", [1, 2])
def test_a_check_over_its_timeout_is_stopped_marked_timeout_and_the_run_goes_on(
    odd: Registry, workers: int
) -> None:
    # with one worker the check still runs in a process (only a process can be stopped)
    options = RunOptions(workers=workers, timeout=1.5)
    report = run_checks(["odd.runs_forever", "odd.undecided"], options=options, registry=odd)
    verdicts = {result.claim.id: result for result in report.results}
    stopped = verdicts["odd.runs_forever"]
    assert stopped.verdict is Verdict.TIMEOUT
    assert "exceeded --timeout 1.5 s" in stopped.note
    assert stopped.evidence == ()
    assert verdicts["odd.undecided"].verdict is Verdict.UNDECIDED
    assert not report.passed
    assert report.counts()[Verdict.TIMEOUT] == 1
    assert "1 timeout" in report.summary_line()


def test_a_timeout_in_one_shard_makes_the_claim_timeout(odd: Registry) -> None:
    options = RunOptions(workers=2, timeout=1, shards=2)
    (result,) = run_checks(["odd.runs_forever"], options=options, registry=odd).results
    assert result.verdict is Verdict.TIMEOUT
    assert result.note.endswith("(shard 0)")


def test_checks_within_their_timeout_give_the_usual_verdicts(demo: Registry) -> None:
    plain = run_checks(options=RunOptions(workers=1, profile="quick"), registry=demo)
    limited = run_checks(options=RunOptions(workers=2, profile="quick", timeout=600), registry=demo)
    assert [(r.claim.id, r.verdict, r.evidence) for r in limited.results] == [
        (r.claim.id, r.verdict, r.evidence) for r in plain.results
    ]


def test_a_timeout_needs_checks_that_worker_processes_can_import() -> None:
    registry = Registry()

    @registry.check(
        "mylab.local2", source="s", result="r", statement="s", kinds="E", mutants={"m": "m"}
    )
    def local(ctx: CheckContext) -> list[Evidence]:
        return [exact_instances({"x": (1, 1)})]

    with pytest.raises(InvalidArgument, match="one worker and no --timeout"):
        run_checks(options=RunOptions(workers=1, timeout=10), registry=registry)
