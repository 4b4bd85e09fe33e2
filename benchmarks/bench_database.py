"""Benchmark: exact ε-DP and free-lunch ε of a counting query with geometric noise.

Run ``python benchmarks/bench_database.py`` (``--help`` for options).  Two parts:

1. **Through the count, large n.**  The counting query ``Σ_i d_i`` on binary databases with
   two-sided geometric noise ``P(Z = z) ∝ α^{|z|}`` (issue 4: n = 10^4, target under a
   second).  Timed: building the :class:`~exactpml.structured.QueryMechanism`, then
   ``differential_privacy_epsilon`` and ``free_lunch_epsilon`` (their exact LogValues are
   read).  Also shown with a threshold (release only above m), and δ(ε) through the count at
   a smaller n (it compares whole output rows, O(n^2)).
2. **Structured against explicit enumeration, n = 8, 10, 12.**  The same quantities computed
   through the count and from ``mechanism.explicit()`` (the kernel on D^n, 2^n rows, which
   is built inside the timed region), with their values checked equal.  The ratio grows like
   2^n (times a polynomial).

Each repetition builds fresh objects; times are medians; the garbage collector is off while
timing.  Speed is reported, never asserted.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from exactpml.database import DatabaseSpace
from exactpml.notions import delta_for_epsilon, differential_privacy_epsilon, free_lunch_epsilon
from exactpml.structured import CountingQuery, GeometricNoise, QueryMechanism


def counting(n: int, alpha: Fraction, threshold: int | None = None) -> QueryMechanism:
    return QueryMechanism(
        DatabaseSpace([0, 1], n),
        CountingQuery({0: 0, 1: 1}),
        noise=GeometricNoise(alpha),
        threshold=threshold,
    )


def timed(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times = []
    result = None
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
        gc.enable()
    return statistics.median(times), result


def structured_epsilons(n: int, alpha: Fraction, threshold: int | None) -> tuple[Any, Any]:
    mechanism = counting(n, alpha, threshold)
    return differential_privacy_epsilon(mechanism).value, free_lunch_epsilon(mechanism).value


def explicit_epsilons(n: int, alpha: Fraction, threshold: int | None) -> tuple[Any, Any]:
    explicit = counting(n, alpha, threshold).explicit()
    return differential_privacy_epsilon(explicit).value, free_lunch_epsilon(explicit).value


def describe(value: Any) -> str:
    ratio = value.ratio
    if isinstance(ratio, Fraction) and ratio.denominator == 1 and ratio.numerator > 10**12:
        return f"log(<{ratio.numerator.bit_length()}-bit integer>)"
    if isinstance(ratio, Fraction) and max(ratio.numerator, ratio.denominator) > 10**12:
        return f"log(<{ratio.numerator.bit_length()}-bit / {ratio.denominator.bit_length()}-bit>)"
    return str(value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000, help="n for part 1 (default 10000)")
    parser.add_argument("--alpha", default="2/3", help="geometric parameter α (default 2/3)")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (median reported)")
    parser.add_argument(
        "--explicit-n", type=int, nargs="+", default=[8, 10, 12], help="n for part 2"
    )
    args = parser.parse_args(argv)
    alpha = Fraction(args.alpha)

    print(f"Part 1: counting query, two-sided geometric noise α = {alpha}, through the count")
    for threshold in (None, args.n // 10):
        label = "no threshold" if threshold is None else f"threshold m = {threshold}"
        build, _ = timed(lambda t=threshold: counting(args.n, alpha, t), args.repeat)
        total, (dp, lunch) = timed(
            lambda t=threshold: structured_epsilons(args.n, alpha, t), args.repeat
        )
        print(
            f"  n = {args.n}, {label}: build {build:.3f} s; build + ε-DP + free-lunch ε "
            f"{total:.3f} s"
        )
        print(f"    ε-DP = {describe(dp)}; free-lunch ε = {describe(lunch)}")
    small = min(args.n, 300)
    seconds, delta = timed(
        lambda: delta_for_epsilon(counting(small, alpha, small // 10), exp_epsilon="5/4").value,
        max(1, args.repeat // 2),
    )
    print(f"  δ(ε = log 5/4) through the count, n = {small}, m = {small // 10}: {seconds:.3f} s")
    print(f"    δ = {float(delta):.6g} (exact rational, shown rounded)")

    print("\nPart 2: through the count vs explicit enumeration of D^n (2^n databases)")
    print(f"  {'n':>3}  {'structured (s)':>15}  {'explicit (s)':>13}  {'ratio':>9}")
    for n in args.explicit_n:
        fast, fast_values = timed(lambda n=n: structured_epsilons(n, alpha, None), args.repeat)
        slow, slow_values = timed(
            lambda n=n: explicit_epsilons(n, alpha, None), max(1, args.repeat // 2)
        )
        if fast_values != slow_values:
            print(f"  MISMATCH at n = {n}: {fast_values} != {slow_values}")
            return 1
        print(f"  {n:>3}  {fast:>15.4f}  {slow:>13.3f}  {slow / fast:>9.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
