"""The unit of work and its outcome, as plain picklable data, and the worker entry point.

A :class:`CheckTask` names a check by ``"module:qualname"`` and carries the seed, the
examples per property, the profile, the mutant and the shard: nothing else.  Any
executor (a local process pool, a Dask ``distributed`` cluster, the current process)
runs it with :func:`run_task` and gets back a :class:`CheckOutcome` holding the evidence
or the error, never an exception.
"""

from __future__ import annotations

import importlib
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass

from proofs_check.context import CheckContext, Profile
from proofs_check.record import Evidence
from proofs_check.user_modules import import_claim_module

__all__ = [
    "CheckOutcome",
    "CheckTask",
    "execute",
    "resolve_target",
    "run_task",
]


@dataclass(frozen=True, slots=True)
class CheckTask:
    """One run of one check.

    Attributes:
        claim_id: The claim.
        target: ``"module:qualname"`` of the check function.
        seed: Seed of this run (the run's seed plus the shard number).
        examples: Random instances per property.
        profile: ``"quick"``, ``"default"`` or ``"thorough"``.
        mutant: ``None`` or the name of a declared mutant.
        shard: Index of this run within the claim's seed range.
        modules: Modules to import before resolving ``target`` (user claim modules).
        search_only: Given instances left out (:attr:`CheckContext.search_only`).
    """

    claim_id: str
    target: str
    seed: int
    examples: int
    profile: Profile
    mutant: str | None = None
    shard: int = 0
    modules: tuple[str, ...] = ()
    search_only: bool = False

    def context(self) -> CheckContext:
        """The context the check function receives."""
        return CheckContext(
            claim_id=self.claim_id,
            seed=self.seed,
            examples=self.examples,
            profile=self.profile,
            mutant=self.mutant,
            shard=self.shard,
            search_only=self.search_only,
        )


@dataclass(frozen=True, slots=True)
class CheckOutcome:
    """What one task produced: evidence, or the error that stopped it, and its duration.

    ``timed_out`` is true when the backend stopped the task at the run's ``--timeout``
    (``error`` then says after how long); such a claim's verdict is TIMEOUT.  ``mutant``
    is the task's mutant (``None`` for the claim as stated).
    """

    claim_id: str
    shard: int
    evidence: tuple[Evidence, ...]
    error: str | None
    seconds: float
    timed_out: bool = False
    mutant: str | None = None


def resolve_target(target: str) -> object:
    """Import ``"module:qualname"`` and return the object it names."""
    module_name, _, qualname = target.partition(":")
    obj: object = importlib.import_module(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def _describe_error(exc: BaseException) -> str:
    message = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        last = frames[-1]
        file_name = last.filename.rsplit("/", 1)[-1]
        message += f" (at {file_name}:{last.lineno} in {last.name})"
    return message


def execute(task: CheckTask, function: object) -> CheckOutcome:
    """Run ``function`` as the check of ``task``; exceptions become the outcome's error."""
    start = time.perf_counter()
    try:
        if not callable(function):
            raise TypeError(f"{task.target} is not callable")
        result = function(task.context())
        if isinstance(result, Evidence):
            result = [result]
        if not isinstance(result, Sequence) or isinstance(result, str):
            raise TypeError(f"the check returned {type(result).__name__}, not a list of Evidence")
        evidence = tuple(result)
        for item in evidence:
            if not isinstance(item, Evidence):
                raise TypeError(
                    f"the check returned {type(item).__name__} among its evidence, not Evidence"
                )
    except (Exception, SystemExit) as exc:  # a check's failure must not crash the run
        return CheckOutcome(
            task.claim_id,
            task.shard,
            (),
            _describe_error(exc),
            time.perf_counter() - start,
            mutant=task.mutant,
        )
    return CheckOutcome(
        task.claim_id,
        task.shard,
        evidence,
        None,
        time.perf_counter() - start,
        mutant=task.mutant,
    )


def _not_loaded(task: CheckTask, exc: BaseException, start: float) -> CheckOutcome:
    """The outcome of a task whose check could not be imported."""
    return CheckOutcome(
        task.claim_id,
        task.shard,
        (),
        f"cannot load the check {task.target}: {_describe_error(exc)}",
        time.perf_counter() - start,
        mutant=task.mutant,
    )


def run_task(task: CheckTask) -> CheckOutcome:
    """Worker entry point (one task at a time per process): import the check and run it.

    Every worker runs it in a process of its own, one task at a time: a local worker
    process, or a check process of a Dask worker (never in a Dask worker's threads, which
    would share Hypothesis' global state).
    """
    start = time.perf_counter()
    try:
        for module in task.modules:
            import_claim_module(module)
        function = resolve_target(task.target)
    except (Exception, SystemExit) as exc:
        return _not_loaded(task, exc, start)
    return execute(task, function)
