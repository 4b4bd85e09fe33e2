"""Per-claim times of a proofs_check run, slowest first (no assertions: speed lives here).

Usage::

    python benchmarks/bench_proofs_check.py [CLAIM ...] [--quick | --thorough]
        [--workers N] [--seed S] [--module M]

    python benchmarks/bench_proofs_check.py --main-job [--workers 2] [--markdown]

    python benchmarks/bench_proofs_check.py --record-costs

Times are measured inside the worker that ran each check; ``--workers 1`` (the default)
runs the checks one after another in this process, so the times do not compete for cores.

``--main-job`` times the main job as a user runs it: ``python -m proofs_check`` in a fresh
process (imports, planning, worker start-up and the report included) at ``--quick``, the
default profile and ``--thorough``, with ``--workers 2``, and compares the wall times with
issue 12's targets (8 s, 20 s, 90 s on a 2-core machine).  Every run must pass all claims.

``--record-costs`` runs every built-in claim at each profile in this process (one worker)
and writes the per-claim times to ``proofs_check/_task_costs.py``, the estimates by which
worker processes take the longest tasks first (:mod:`proofs_check.task_order`).
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys
import time

from exactpml.errors import ExactPMLError
from proofs_check.runner import RunOptions, run_checks

MAIN_JOB_TARGETS = (("--quick", 8.0), ("", 20.0), ("--thorough", 90.0))
"""(profile flag, target wall time in seconds) of issue 12, target 5."""


def main_job(workers: int, markdown: bool) -> int:
    """Time ``python -m proofs_check`` per profile in a fresh process; print a table."""
    rows = []
    for flag, target in MAIN_JOB_TARGETS:
        command = [sys.executable, "-m", "proofs_check", "--workers", str(workers)]
        command += [flag] if flag else []
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
        summary = next(
            (line.strip() for line in done.stdout.splitlines() if " claims: " in line), "?"
        )
        if done.returncode != 0:
            print(f"bench_proofs_check: {flag or 'default'} did not pass: {summary}")
            return 1
        rows.append((flag.lstrip("-") or "default", wall, target, summary))
    if markdown:
        print("| profile | wall time (s) | target (s) | ratio to target | report |")
        print("|---|---|---|---|---|")
        for name, wall, target, summary in rows:
            mark = "✓" if wall <= target else "✗"
            print(f"| {name} | {wall:.1f} | {target:g} | {wall / target:.2f} {mark} | {summary} |")
    else:
        for name, wall, target, summary in rows:
            print(
                f"{name:<9} {wall:7.1f} s  target {target:g} s  ({wall / target:.2f}×)  {summary}"
            )
    return 0


COSTS_MODULE = pathlib.Path(__file__).resolve().parents[1] / "proofs_check" / "_task_costs.py"


def record_costs() -> int:
    """Time every built-in claim at each profile (one worker) and write :data:`COSTS_MODULE`."""
    measured: dict[str, dict[str, float]] = {}
    for profile in ("quick", "default", "thorough"):
        report = run_checks(options=RunOptions(profile=profile, workers=1))
        measured[profile] = {
            result.claim.id: round(result.seconds, 2)
            for result in report.results
            if result.evidence or result.note
        }
        total = sum(measured[profile].values())
        print(f"{profile}: {len(measured[profile])} claims, {total:.1f} s")
    lines = ["MEASURED_SECONDS: dict[str, dict[str, float]] = {"]
    for profile, seconds in measured.items():
        lines.append(f'    "{profile}": {{')
        lines += [f'        "{claim_id}": {value},' for claim_id, value in sorted(seconds.items())]
        lines.append("    },")
    lines.append("}")
    COSTS_MODULE.write_text(
        '"""Per-claim seconds of a one-worker run of each profile, the estimates by which\n'
        "worker processes take the longest tasks first (:mod:`proofs_check.task_order`).\n\n"
        "Written by ``python benchmarks/bench_proofs_check.py --record-costs``; do not edit.\n"
        '"""\n\n' + "\n".join(lines) + "\n"
    )
    print(f"wrote {COSTS_MODULE}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the selected claims and print their times, slowest first."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("patterns", nargs="*", metavar="CLAIM")
    profile = parser.add_mutually_exclusive_group()
    profile.add_argument("--quick", dest="profile", action="store_const", const="quick")
    profile.add_argument("--thorough", dest="profile", action="store_const", const="thorough")
    parser.set_defaults(profile="default")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--module", action="append", default=[], dest="modules")
    parser.add_argument("--main-job", action="store_true", help="time python -m proofs_check")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument(
        "--record-costs", action="store_true", help="write the task-order estimates"
    )
    args = parser.parse_args(argv)
    if args.record_costs:
        return record_costs()
    if args.main_job:
        return main_job(args.workers if args.workers > 1 else 2, args.markdown)
    try:
        options = RunOptions(
            seed=args.seed,
            profile=args.profile,
            workers=args.workers,
            modules=tuple(args.modules),
        )
        start = time.perf_counter()
        report = run_checks(args.patterns, options=options)
        wall = time.perf_counter() - start
    except ExactPMLError as exc:
        print(f"bench_proofs_check: error: {exc}", file=sys.stderr)
        return 2
    ran = [result for result in report.results if result.evidence or result.note]
    width = max((len(result.claim.id) for result in ran), default=5)
    print(f"{'claim':<{width}}  {'seconds':>8}  verdict")
    for result in sorted(ran, key=lambda result: result.seconds, reverse=True):
        print(f"{result.claim.id:<{width}}  {result.seconds:8.3f}  {result.verdict.value}")
    total = sum(result.seconds for result in report.results)
    print(f"{'sum of check times':<{width}}  {total:8.3f}")
    print(f"{'wall time':<{width}}  {wall:8.3f}  ({args.profile}, {args.workers} worker(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
