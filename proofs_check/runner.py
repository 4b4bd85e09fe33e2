"""The runner: select claims, turn them into tasks, run them, and collect a report.

:func:`plan` validates everything that can be validated before running (claim ids,
mutant names, options, user modules) and builds the plain-data tasks: one per claim and
shard (a shard is one seed of the seed range ``seed, seed + 1, ...``).  :func:`execute`
hands them to a backend (this process, local worker processes or a Dask cluster) and
turns the outcomes into verdicts.  :func:`run_checks` does both.

Same seed and options give the same report, whatever the backend and worker count.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from exactpml.errors import InvalidArgument
from proofs_check._launch import default_workers
from proofs_check.backends import Backend, DaskBackend, ProcessBackend, SerialBackend
from proofs_check.context import (
    PROFILE_EXAMPLES,
    Profile,
    validate_examples,
    validate_profile,
    validate_seed,
)
from proofs_check.record import Evidence
from proofs_check.registry import Registry, default_registry, load_claim_modules
from proofs_check.selection import select
from proofs_check.statement import Claim, ListedItem
from proofs_check.task import CheckOutcome, CheckTask
from proofs_check.task_order import longest_first
from proofs_check.user_modules import absolute_spec, import_claim_module, module_name
from proofs_check.verdict import (
    ClaimResult,
    MutantResult,
    Verdict,
    decide,
    merge_shards,
    with_mutants,
)

__all__ = [
    "Plan",
    "Report",
    "RunOptions",
    "default_workers",
    "execute",
    "make_backend",
    "plan",
    "run_checks",
    "uses_worker_processes",
]

MAX_SHARDS = 10_000
MAX_TIMEOUT_SECONDS = 86_400


@dataclass(frozen=True, slots=True)
class RunOptions:
    """Options of a run; validated on construction.

    Attributes:
        seed: First seed of the seed range.
        examples: Random instances per property (default: the profile's).
        profile: ``"quick"``, ``"default"`` or ``"thorough"``.
        shards: Seeds per claim: shard ``k`` runs with seed ``seed + k``.
        workers: Local worker processes (default: the core count; 1 runs in this process).
        scheduler: Address of a Dask scheduler to run on instead of local processes.
        scheduler_timeout: Seconds to wait for the scheduler.
        mutant: Run every selected claim with this mutant (they must all declare it).
        mutants: Also run every declared mutant of every selected claim: a mutant that
            does not make its claim FAIL survives, and a PASSED or PROVED claim with a
            survivor is reported WEAK (never passed).
        modules: Modules to import first (user claims register themselves on import).
            With modules and no claim pattern, only the claims those modules register run,
            unless ``all_claims`` is true.
        all_claims: With ``modules``, run the built-in claims too.
        timeout: Seconds each check (each claim and shard) may run before it is stopped and
            its claim marked TIMEOUT; ``None``: no limit.  With a limit every check runs
            in a worker process (even with one worker), since only a process can be
            stopped; not available with a Dask scheduler (its workers run each check in a
            process of their own, but do not stop it).
    """

    seed: int = 0
    examples: int | None = None
    profile: Profile = "default"
    shards: int = 1
    workers: int | None = None
    scheduler: str | None = None
    scheduler_timeout: float = 5.0
    mutant: str | None = None
    modules: tuple[str, ...] = ()
    all_claims: bool = False
    timeout: float | None = None
    mutants: bool = False
    search_only: bool = False

    def __post_init__(self) -> None:
        validate_seed(self.seed)
        if not isinstance(self.search_only, bool):
            raise InvalidArgument(f"search_only={self.search_only!r} must be True or False.")
        if not isinstance(self.mutants, bool):
            raise InvalidArgument(f"mutants={self.mutants!r} must be True or False.")
        if self.mutants and self.mutant is not None:
            raise InvalidArgument(
                f"run one mutant (mutant={self.mutant!r}) or every mutant (mutants=True), "
                "not both."
            )
        if self.examples is not None:
            validate_examples(self.examples)
        validate_profile(self.profile)
        if (
            isinstance(self.shards, bool)
            or not isinstance(self.shards, int)
            or not (1 <= self.shards <= MAX_SHARDS)
        ):
            raise InvalidArgument(
                f"shards={self.shards!r} must be an integer from 1 to {MAX_SHARDS}."
            )
        if self.seed + self.shards - 1 > 2**63 - 1:
            raise InvalidArgument(
                f"seed={self.seed} plus shards={self.shards} leaves the seed range."
            )
        if self.workers is not None and (
            isinstance(self.workers, bool) or not isinstance(self.workers, int) or self.workers < 1
        ):
            raise InvalidArgument(f"workers={self.workers!r} must be a positive integer.")
        if self.scheduler is not None and (
            not isinstance(self.scheduler, str) or not self.scheduler.strip()
        ):
            raise InvalidArgument(
                f"scheduler={self.scheduler!r} must be an address such as tcp://host:8786."
            )
        if (
            isinstance(self.scheduler_timeout, bool)
            or not isinstance(self.scheduler_timeout, int | float)
            or not self.scheduler_timeout > 0
        ):
            raise InvalidArgument(
                f"scheduler_timeout={self.scheduler_timeout!r} must be a "
                "positive number of seconds."
            )

        if self.timeout is not None:
            if (
                isinstance(self.timeout, bool)
                or not isinstance(self.timeout, int | float)
                or not 0 < self.timeout <= MAX_TIMEOUT_SECONDS
            ):
                raise InvalidArgument(
                    f"timeout={self.timeout!r} must be a number of seconds in "
                    f"(0, {MAX_TIMEOUT_SECONDS}]."
                )
            if self.scheduler is not None:
                raise InvalidArgument(
                    "--timeout needs local worker processes (only proofs_check's own pool "
                    "stops a check at the limit; a Dask worker does not): drop --timeout or "
                    "--scheduler."
                )

    @property
    def examples_per_property(self) -> int:
        """Random instances per property, ``examples`` or the profile's default."""
        return self.examples if self.examples is not None else PROFILE_EXAMPLES[self.profile]


@dataclass(frozen=True, slots=True)
class Plan:
    """What a run will do: the tasks, and the rows that need no task.

    Attributes:
        options: The run's options.
        claims: Every selected claim, in report order.
        tasks: One task per registered check and shard.
        fixed: Results known without running (no check registered, listed as not checkable).
        listed: Listed-not-checkable items to mention in the report's notes.
        functions: Check functions by claim id (for in-process execution).
        non_importable: Checks that worker processes cannot import (defined in a function).
        known_false: Why the source's statement is false, for checks that say so.
        mutants: The declared ``(name, description)`` mutants of each checked claim.
    """

    options: RunOptions
    claims: tuple[Claim, ...]
    tasks: tuple[CheckTask, ...]
    fixed: tuple[ClaimResult, ...]
    listed: tuple[ListedItem, ...]
    functions: dict[str, Callable[..., object]] = field(default_factory=dict)
    non_importable: tuple[str, ...] = ()
    known_false: dict[str, str] = field(default_factory=dict)
    mutants: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)

    @property
    def declared_mutants(self) -> int:
        """How many mutants the selected checks declare."""
        return sum(len(pairs) for pairs in self.mutants.values())


@dataclass(frozen=True, slots=True)
class Report:
    """The outcome of a run: one result per selected claim, in catalog order."""

    options: RunOptions
    results: tuple[ClaimResult, ...]
    listed: tuple[ListedItem, ...] = ()
    seconds: float = 0.0
    declared_mutants: int = 0

    @property
    def passed(self) -> bool:
        """True when at least one claim was selected and every one PROVED or PASSED."""
        return bool(self.results) and all(r.verdict.passed for r in self.results)

    def mutant_counts(self) -> tuple[int, int] | None:
        """``(killed, run)`` over every claim's mutants, or ``None`` when none were run."""
        runs = [item for result in self.results for item in result.mutants or ()]
        if not any(result.mutants is not None for result in self.results):
            return None
        return sum(item.killed for item in runs), len(runs)

    def mutants_line(self) -> str:
        """What the run says about mutants: the kill count, or how many exist and how to
        run them."""
        counts = self.mutant_counts()
        if counts is not None:
            killed, run = counts
            survivors = [
                f"{result.claim.id}:{item.name}"
                for result in self.results
                for item in result.survivors
            ]
            line = f"mutants: {killed} of {run} killed"
            if survivors:
                line += f"; SURVIVED: {', '.join(survivors)}"
            return line
        if self.options.mutant is not None:
            return f"mutant {self.options.mutant} run in place of each selected statement"
        if self.declared_mutants:
            count = self.declared_mutants
            return (
                f"{count} {'mutant' if count == 1 else 'mutants'} declared for "
                f"{'this claim' if len(self.results) == 1 else 'these claims'} (each a false "
                "variant that must FAIL); run them with --mutants"
            )
        return ""

    def counts(self) -> dict[Verdict, int]:
        """How many claims got each verdict (every verdict present, possibly 0)."""
        counter = Counter(result.verdict for result in self.results)
        return {verdict: counter.get(verdict, 0) for verdict in Verdict}

    def summary_line(self) -> str:
        """E.g. ``"37 claims: 12 proved, 18 passed, 1 failed, 6 not checkable"``."""
        parts = [
            f"{count} {verdict.value.lower().replace('_', ' ')}"
            for verdict, count in self.counts().items()
            if count
        ]
        noun = "claim" if len(self.results) == 1 else "claims"
        return f"{len(self.results)} {noun}: " + (", ".join(parts) if parts else "none run")


def import_modules(modules: Sequence[str]) -> None:
    """Import user claim modules (dotted names or ``.py`` paths); a one-line
    InvalidArgument if one cannot be loaded."""
    for module in modules:
        import_claim_module(module)


def _claims_of_modules(registry: Registry, modules: Sequence[str]) -> list[str]:
    """The ids of the checks defined in ``modules`` (or their submodules)."""
    names = [module_name(module) for module in modules]
    ids = [
        check.claim.id
        for check in registry.checks()
        if any(
            check.function.__module__ == name or check.function.__module__.startswith(name + ".")
            for name in names
        )
    ]
    if not ids:
        raise InvalidArgument(
            f"module(s) {', '.join(modules)} register no check; name claims to run, or pass "
            "--all to run the built-in claims"
        )
    return ids


def plan(
    patterns: Sequence[str] = (),
    *,
    options: RunOptions | None = None,
    registry: Registry | None = None,
) -> Plan:
    """Validate the selection and options and build the tasks; nothing runs yet.

    Raises:
        InvalidArgument: an unknown claim (with a suggestion), a mutant that a selected
            claim does not declare, or a module that cannot be imported.
    """
    options = options or RunOptions()
    import_modules(options.modules)
    if options.modules:
        options = replace(options, modules=tuple(absolute_spec(m) for m in options.modules))
    if registry is None:
        registry = default_registry
    if registry is default_registry:
        try:
            load_claim_modules()
        except Exception as exc:
            raise InvalidArgument(
                f"a claim module of proofs_check.claims cannot be imported: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
    if options.modules and not patterns and not options.all_claims:
        patterns = _claims_of_modules(registry, options.modules)
    claims = registry.claims()
    listed_items = registry.listed()
    chosen_ids, listed_ids = select(
        list(patterns), [c.id for c in claims], [item.id for item in listed_items]
    )
    by_id = {claim.id: claim for claim in claims}
    exact = set(patterns)
    listed_rows = [item for item in listed_items if item.id in listed_ids and item.id in exact]
    notes = (
        [item for item in listed_items if item.id in listed_ids and item.id not in exact]
        if patterns
        else list(listed_items)
    )

    tasks: list[CheckTask] = []
    fixed: list[ClaimResult] = []
    functions: dict[str, Callable[..., object]] = {}
    non_importable: list[str] = []
    known_false: dict[str, str] = {}
    mutants: dict[str, tuple[tuple[str, str], ...]] = {}
    selected: list[Claim] = []
    for claim_id in chosen_ids:
        claim = by_id[claim_id]
        selected.append(claim)
        registered = registry.get(claim_id)
        if registered is None:
            if options.mutant is not None:
                raise InvalidArgument(
                    f"claim {claim_id} has no check yet, so it has no mutant {options.mutant!r}."
                )
            fixed.append(
                ClaimResult(
                    claim, Verdict.NOT_CHECKABLE, note="no check registered yet (not yet checkable)"
                )
            )
            continue
        if options.mutant is not None and options.mutant not in registered.mutant_names:
            raise InvalidArgument(
                f"claim {claim_id} has no mutant {options.mutant!r}; its mutants: "
                f"{', '.join(registered.mutant_names)}"
            )
        functions[claim_id] = registered.function
        mutants[claim_id] = registered.mutants
        if registered.known_false is not None:
            known_false[claim_id] = registered.known_false
        if not registered.importable:
            non_importable.append(f"{claim_id} ({registered.target})")
        runs = [options.mutant]
        if options.mutants:
            runs += list(registered.mutant_names)
        for mutant in runs:
            for shard in range(options.shards):
                tasks.append(
                    CheckTask(
                        claim_id=claim_id,
                        target=registered.target,
                        seed=options.seed + shard,
                        examples=options.examples_per_property,
                        profile=options.profile,
                        mutant=mutant,
                        shard=shard,
                        modules=options.modules,
                        search_only=options.search_only,
                    )
                )
    for item in listed_rows:
        claim = Claim(item.id, item.source, item.result, item.reason, ())
        selected.append(claim)
        fixed.append(
            ClaimResult(
                claim, Verdict.NOT_CHECKABLE, note=f"listed as not checkable: {item.reason}"
            )
        )
    return Plan(
        options,
        tuple(selected),
        tuple(tasks),
        tuple(fixed),
        tuple(notes),
        functions,
        tuple(non_importable),
        known_false,
        mutants,
    )


def uses_worker_processes(options: RunOptions) -> bool:
    """Whether the run uses local worker processes: no Dask scheduler, and more than one
    worker or a ``timeout`` (only a process can be stopped)."""
    if options.scheduler is not None:
        return False
    workers = options.workers if options.workers is not None else default_workers()
    return workers > 1 or options.timeout is not None


def make_backend(options: RunOptions) -> Backend:
    """The backend the options ask for: Dask if a scheduler is given, else processes.

    Raises:
        SchedulerUnreachable: the scheduler does not answer within the timeout.
        DaskUnavailable: Dask is not installed.
    """
    if options.scheduler is not None:
        return DaskBackend(options.scheduler, timeout=options.scheduler_timeout)
    if not uses_worker_processes(options):
        return SerialBackend()
    workers = options.workers if options.workers is not None else default_workers()
    return ProcessBackend(workers, timeout=options.timeout)


def execute(
    the_plan: Plan,
    backend: Backend,
    *,
    on_result: Callable[[ClaimResult], None] | None = None,
) -> Report:
    """Run a plan's tasks on ``backend`` and collect the report.

    ``on_result`` is called with each claim's result as soon as all its shards are done
    (for progress displays).
    """
    if not backend.in_process and the_plan.non_importable:
        raise InvalidArgument(
            "these checks are defined inside a function, so worker processes cannot import "
            f"them; define them at module level or run with one worker"
            f"{' and no --timeout' if the_plan.options.timeout is not None else ''}: "
            f"{', '.join(the_plan.non_importable)}"
        )
    start = time.perf_counter()
    by_id = {claim.id: claim for claim in the_plan.claims}
    results: dict[str, ClaimResult] = {}
    for result in the_plan.fixed:
        results[result.claim.id] = result
        if on_result is not None:
            on_result(result)
    expected = Counter(task.claim_id for task in the_plan.tasks)
    pending: dict[str, list[CheckOutcome]] = {}
    # worker processes take the longest tasks first (the run ends when its last task does)
    tasks = the_plan.tasks if backend.in_process else longest_first(the_plan.tasks)
    for outcome in backend.run(tasks, the_plan.functions):
        done = pending.setdefault(outcome.claim_id, [])
        done.append(outcome)
        if len(done) < expected[outcome.claim_id]:
            continue
        claim = by_id[outcome.claim_id]
        result = _claim_result(the_plan, claim, done)
        results[claim.id] = result
        if on_result is not None:
            on_result(result)
    ordered = tuple(results[claim.id] for claim in the_plan.claims if claim.id in results)
    return Report(
        the_plan.options,
        ordered,
        the_plan.listed,
        time.perf_counter() - start,
        the_plan.declared_mutants,
    )


def _verdict_of(
    claim: Claim, outcomes: Sequence[CheckOutcome]
) -> tuple[tuple[Evidence, ...], Verdict, str]:
    """The evidence, verdict and note of one run (every shard) of a claim's check."""
    stopped = [item for item in sorted(outcomes, key=lambda o: o.shard) if item.timed_out]
    if stopped:
        shard = f" (shard {stopped[0].shard})" if len(outcomes) > 1 else ""
        return (), Verdict.TIMEOUT, f"{stopped[0].error}{shard}"
    evidence, error = merge_shards(outcomes)
    verdict, note = decide(claim, evidence, error)
    return evidence, verdict, note


def _claim_result(the_plan: Plan, claim: Claim, outcomes: Sequence[CheckOutcome]) -> ClaimResult:
    """A claim's result from the outcomes of all its tasks (as stated, and each mutant)."""
    options = the_plan.options
    descriptions = dict(the_plan.mutants.get(claim.id, ()))
    stated = [item for item in outcomes if item.mutant == options.mutant]
    evidence, verdict, note = _verdict_of(claim, stated)
    reason = the_plan.known_false.get(claim.id)
    if reason is not None and options.mutant is None and not note:
        if verdict is Verdict.FAILED:
            note = f"the source's statement is false as written: {reason}"
        elif verdict.passed:
            note = f"passed although the check says the source is false ({reason})"
    result = ClaimResult(
        claim,
        verdict,
        evidence,
        note,
        sum(item.seconds for item in stated),
        options.mutant,
        descriptions.get(options.mutant) if options.mutant is not None else None,
    )
    if not options.mutants:
        return result
    runs: list[MutantResult] = []
    for name, description in the_plan.mutants.get(claim.id, ()):
        mutated = [item for item in outcomes if item.mutant == name]
        mutant_evidence, mutant_verdict, mutant_note = _verdict_of(claim, mutated)
        failed = next((item for item in mutant_evidence if item.passed is False), None)
        runs.append(
            MutantResult(
                name,
                description,
                mutant_verdict,
                failed.counterexample if failed is not None else None,
                failed.summary if failed is not None else None,
                mutant_note,
                sum(item.seconds for item in mutated),
            )
        )
    return with_mutants(result, runs)


def run_checks(
    patterns: Sequence[str] = (),
    *,
    options: RunOptions | None = None,
    registry: Registry | None = None,
    backend: Backend | None = None,
    on_result: Callable[[ClaimResult], None] | None = None,
) -> Report:
    """Select claims, run their checks and return the report.

    Args:
        patterns: Claim ids, prefixes (``"pml."``) or globs (``"pml.thm_4_*"``); empty
            selects every claim.
        options: Seed, examples, profile, shards, workers, scheduler, mutant, modules.
        registry: Where the checks are registered (default: the default registry, with
            every module of ``proofs_check.claims`` loaded).
        backend: Run on this backend instead of the one ``options`` ask for.
        on_result: Called with each claim's result as it completes.
    """
    the_plan = plan(patterns, options=options, registry=registry)
    owned = backend is None
    runner = make_backend(the_plan.options) if backend is None else backend
    try:
        return execute(the_plan, runner, on_result=on_result)
    finally:
        if owned:
            runner.close()
