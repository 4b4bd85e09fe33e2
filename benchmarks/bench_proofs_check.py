"""Per-claim times of a proofs_check run, slowest first (no assertions: speed lives here).

Usage::

    python benchmarks/bench_proofs_check.py [CLAIM ...] [--quick | --thorough]
        [--workers N] [--seed S] [--module M]

Times are measured inside the worker that ran each check; ``--workers 1`` (the default)
runs the checks one after another in this process, so the times do not compete for cores.
The issue's budget: the default full run within 60 s and ``--quick`` within 20 s on a
2-core machine (compare the wall time printed at the end).
"""

from __future__ import annotations

import argparse
import sys
import time

from exactpml.errors import ExactPMLError
from proofs_check.runner import RunOptions, run_checks


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
    args = parser.parse_args(argv)
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
