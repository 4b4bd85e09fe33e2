"""Longest tasks first: the order in which worker processes take the checks.

With a few workers, a run ends when its last task does.  Handing out the tasks in claim
order left the slowest checks of the last sources (``bldp.non_participation``,
``pk.ex_7``) to start when the other worker was already idle: in a timeline of a ``--quick``
run with 2 workers, ``bldp.non_participation`` ran its last second alone.
Taking them longest first (Graham's LPT rule, within 4/3 of the best schedule) needs an
estimate of each task's time: :data:`MEASURED_SECONDS` holds the per-claim times of a
one-worker run of each profile, written by ``python benchmarks/bench_proofs_check.py
--record-costs``.

The order changes nothing but when a task starts: every check runs with its own seed, the
report lists the claims in catalogue order, and a stale or missing estimate (a user's
claim, a claim added since the last recording) only costs idle time.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from proofs_check._task_costs import MEASURED_SECONDS
from proofs_check.task import CheckTask

__all__ = ["estimated_seconds", "longest_first"]


_MEDIANS = {
    profile: statistics.median(times.values())
    for profile, times in MEASURED_SECONDS.items()
    if times
}
"""Each profile's median recorded time: the estimate for a claim never recorded."""


def estimated_seconds(task: CheckTask) -> float:
    """The recorded time of the task's claim at its profile; for a claim never recorded,
    the median recorded time of that profile (a mutant counts as its claim)."""
    seconds = MEASURED_SECONDS.get(task.profile, {}).get(task.claim_id)
    return seconds if seconds is not None else _MEDIANS.get(task.profile, 1.0)


def longest_first(tasks: Sequence[CheckTask]) -> tuple[CheckTask, ...]:
    """``tasks`` by decreasing estimated time; equal estimates keep their order (stable)."""
    return tuple(sorted(tasks, key=estimated_seconds, reverse=True))
