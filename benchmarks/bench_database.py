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

3. **``--scaling``: growth in n (issue 12, target 3).**  For n in 10^3, 3·10^3, 10^4,
   3·10^4, 10^5 (``--sizes``), without and with the threshold m = n/10, time (a) building the
   mechanism + ε-DP + free-lunch ε and (b) building it + δ(ε) at e^ε = ``--at`` (default
   5/4, half-way between 1 and e^{ε-DP} = 1/α = 3/2, where δ is nontrivial), each exactly,
   and fit time ∝ n^a per curve (``benchmarks/_growth.py``).  Baseline in the same run:
   dp-accounting's PLD of the same mechanism without threshold,
   ``from_discrete_laplace_mechanism(log(1/α), sensitivity=1)`` (two-sided geometric noise
   is the discrete Laplace law with parameter log(1/α)), pessimistic, discretisation 10^-4,
   then ``get_delta_for_epsilon``.  Checked before any timing: the structured values equal
   the explicit kernel on D^n (n = 8), the all-pairs PLRV form (``--check-n``, default 100)
   and, at every size without threshold, the closed forms ε-DP = log(1/α), free-lunch
   ε = n log(1/α) and δ = max(0, 1 - e^ε α)/(1 + α); dp-accounting's optimistic and
   pessimistic δ must bracket the exact δ, within relative 10^-3.  dp-accounting has no
   constructor for a thresholded release, so the threshold table has no baseline column.

Each repetition builds fresh objects and starts with the noise's memo caches cleared
(outside the timed region); times are medians; the garbage collector is off while timing.
Speed is reported, never asserted.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from exactpml.database import DatabaseSpace
from exactpml.notions import delta_for_epsilon, differential_privacy_epsilon, free_lunch_epsilon
from exactpml.structured import CountingQuery, GeometricNoise, QueryMechanism, _noise

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _growth import exponent, machine, report

SIZES = [1_000, 3_000, 10_000, 30_000, 100_000]


def counting(n: int, alpha: Fraction, threshold: int | None = None) -> QueryMechanism:
    return QueryMechanism(
        DatabaseSpace([0, 1], n),
        CountingQuery({0: 0, 1: 1}),
        noise=GeometricNoise(alpha),
        threshold=threshold,
    )


def clear_caches() -> None:
    """Forget the memoised tails and points of the noise (so no repetition helps the next)."""
    _noise._upper_tail.cache_clear()
    _noise._point.cache_clear()


def timed(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times = []
    result = None
    for _ in range(repeat):
        clear_caches()
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


def structured_delta(n: int, alpha: Fraction, threshold: int | None, at: Fraction) -> Any:
    return delta_for_epsilon(counting(n, alpha, threshold), exp_epsilon=at).value


def peer_delta(alpha: Fraction, at: Fraction, pessimistic: bool = True) -> float | None:
    """dp-accounting's δ(ε) of the count with two-sided geometric noise (None: not installed).

    Geometric noise P(Z = z) ∝ α^{|z|} is dp-accounting's discrete Laplace with parameter
    a = log(1/α); sensitivity 1; its default discretisation 10^-4.
    """
    try:
        from dp_accounting.pld import privacy_loss_distribution as peer
    except ImportError:
        return None
    pld = peer.from_discrete_laplace_mechanism(
        math.log(1 / alpha), sensitivity=1, pessimistic_estimate=pessimistic
    )
    return float(pld.get_delta_for_epsilon(math.log(at)))


def closed_delta(alpha: Fraction, at: Fraction) -> Fraction:
    """δ(ε) without threshold: the loss is ±log(1/α), with P-masses 1/(1+α) and α/(1+α)."""
    return max(Fraction(0), 1 - at * alpha) / (1 + alpha)


def scaling_checks(args: argparse.Namespace, alpha: Fraction, at: Fraction) -> str | None:
    """Exact agreement before any timing; returns a failure message or None."""
    for threshold in (None, 3):
        n = 8
        fast = (
            *structured_epsilons(n, alpha, threshold),
            structured_delta(n, alpha, threshold, at),
        )
        explicit = counting(n, alpha, threshold).explicit()
        slow = (
            differential_privacy_epsilon(explicit).value,
            free_lunch_epsilon(explicit).value,
            delta_for_epsilon(explicit, exp_epsilon=at).value,
        )
        if fast != slow:
            return f"n = {n}, threshold {threshold}: structured {fast} != explicit {slow}"
    n = args.check_n
    for threshold in (None, n // 10):
        fast = structured_delta(n, alpha, threshold, at)
        generic = delta_for_epsilon(counting(n, alpha, threshold), exp_epsilon=at, form="plrv")
        if fast != generic.value:
            return f"n = {n}, threshold {threshold}: δ {fast} != all-pairs PLRV {generic.value}"
    print(
        f"  checked: structured = explicit D^n (n = 8, m = none and 3) for ε-DP, free-lunch ε "
        f"and δ; structured δ = all-pairs PLRV form (n = {n}, m = none and {n // 10})"
    )
    return None


def scaling(args: argparse.Namespace, alpha: Fraction) -> int:
    at = Fraction(args.at)
    sizes = args.sizes
    print(f"{machine()}; {os.cpu_count()} cores (shared with other jobs: times are loaded)")
    print(
        f"Counting query Σ d_i on {{0,1}}^n, two-sided geometric noise α = {alpha} "
        f"(ε-DP = log {1 / alpha}); δ(ε) at e^ε = {at}; medians of {args.repeat}\n"
    )
    failure = scaling_checks(args, alpha, at)
    if failure:
        print(f"MISMATCH: {failure}")
        return 1
    expected_delta = closed_delta(alpha, at)
    peer_seconds: float | None = None
    peer_value = peer_delta(alpha, at)
    if peer_value is None:
        print("  dp-accounting: not importable (pip install -e '.[peers]'); no baseline column")
    else:
        optimistic = peer_delta(alpha, at, pessimistic=False)
        assert optimistic is not None
        exact = float(expected_delta)
        relative = abs(peer_value - exact) / exact
        if not (optimistic <= exact <= peer_value) or relative > 1e-3:
            print(
                f"MISMATCH: dp-accounting δ {optimistic!r} (optimistic) .. {peer_value!r} "
                f"(pessimistic) does not bracket the exact {expected_delta} within 1e-3"
            )
            return 1
        peer_seconds, _ = timed(lambda: peer_delta(alpha, at), args.repeat)
        print(
            f"  dp-accounting δ: optimistic {optimistic:.10g} <= exact {expected_delta} <= "
            f"pessimistic {peer_value:.10g} (relative error {relative:.1e}); its time "
            f"{peer_seconds * 1e3:.2f} ms (build the PLD + get_delta_for_epsilon)"
        )
    print(
        "  Without threshold δ(ε) does not depend on n (translation invariance: only the "
        "difference of neighbouring counts matters); with the threshold the pairs near m "
        f"are examined too (here the maximum is still {expected_delta}).\n"
    )
    results = {}
    for threshold_label in ("none", "n/10"):
        rows = []
        for n in sizes:
            threshold = None if threshold_label == "none" else n // 10
            first, (dp, lunch) = timed(
                lambda n=n, t=threshold: structured_epsilons(n, alpha, t), args.repeat
            )
            second, delta = timed(
                lambda n=n, t=threshold: structured_delta(n, alpha, t, at), args.repeat
            )
            if dp.ratio != 1 / alpha or delta != expected_delta:
                print(f"MISMATCH at n = {n}, m = {threshold}: ε-DP {dp}, δ {delta}")
                return 1
            if threshold is None and lunch.ratio != (1 / alpha) ** n:
                print(f"MISMATCH at n = {n}: free-lunch ε {describe(lunch)} != n log(1/α)")
                return 1
            rows.append((n, first, second))
        results[threshold_label] = rows
    for label, rows in results.items():
        baseline = peer_seconds if label == "none" else None
        title = "no threshold" if label == "none" else "threshold m = n/10 (release iff Y > m)"
        print(f"### {title}\n")
        head = "| n | (a) ε-DP + free-lunch ε (s) | (b) δ(ε) (s) | (a)+(b) (s) |"
        if baseline is not None:
            head += " dp-accounting δ(ε) (s) | (b) / dp-accounting |"
        print(head)
        print("|---" * (head.count("|") - 1) + "|")
        for n, first, second in rows:
            line = f"| {n} | {first:.4f} | {second:.4f} | {first + second:.4f} |"
            if baseline is not None:
                line += f" {baseline:.4f} | {second / baseline:.1f}× |"
            print(line)
        print()
        ns = [n for n, _, _ in rows]
        print("- " + report("(a) ε-DP + free-lunch ε", ns, [r[1] for r in rows]))
        print("- " + report("(b) δ(ε)", ns, [r[2] for r in rows]))
        print("- " + report("(a)+(b)", ns, [r[1] + r[2] for r in rows]))
        if len(rows) >= 2:
            (n1, a1, b1), (n2, a2, b2) = rows[-2], rows[-1]
            local = math.log((a2 + b2) / (a1 + b1)) / math.log(n2 / n1)
            print(f"- (a)+(b), local slope between n = {n1} and {n2}: n^{local:.2f}")
        limit = 1.0 if label == "none" else 5.0
        at_largest = [r for r in rows if r[0] == 100_000]
        if at_largest:
            total = at_largest[0][1] + at_largest[0][2]
            verdict = "met" if total <= limit else "MISSED"
            print(f"- target n = 10^5, (a)+(b) ≤ {limit:g} s: {total:.3f} s, {verdict}")
        at_ten = [r for r in rows if r[0] == 10_000]
        if baseline is not None and at_ten:
            ratio = at_ten[0][2] / baseline
            verdict = "met" if ratio <= 20 else "MISSED"
            print(f"- target δ(ε) at n = 10^4 within 20× of dp-accounting: {ratio:.1f}×, {verdict}")
        linear = (
            all(exponent(ns, [r[k] for r in rows]) <= 1.15 for k in (1, 2))
            if len(ns) >= 3
            else None
        )
        if linear is not None:
            verdict = "met" if linear else "MISSED"
            print(f"- target linear in n or better (every a ≤ 1.15, timer noise): {verdict}")
        print()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000, help="n for part 1 (default 10000)")
    parser.add_argument("--alpha", default="2/3", help="geometric parameter α (default 2/3)")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (median reported)")
    parser.add_argument(
        "--explicit-n", type=int, nargs="+", default=[8, 10, 12], help="n for part 2"
    )
    parser.add_argument("--scaling", action="store_true", help="growth in n (part 3)")
    parser.add_argument("--sizes", type=int, nargs="+", default=SIZES, help="n for --scaling")
    parser.add_argument("--at", default="5/4", help="e^ε at which δ(ε) is timed (--scaling)")
    parser.add_argument(
        "--check-n", type=int, default=100, help="n of the all-pairs check (--scaling)"
    )
    args = parser.parse_args(argv)
    alpha = Fraction(args.alpha)
    if args.scaling:
        return scaling(args, alpha)

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
