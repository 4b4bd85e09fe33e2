"""Example 7 (thresholded referendum) at both scales, exactly, and how long it takes.

Thesis §3.1.3, Example 7 with CLAIMS.md ``pk.ex_7``'s parameters: 1000 voters, 100 known,
threshold 100, p = 10^-4, e^ε = 3; and a small scale (12 voters, 4 known, threshold 3,
p = 1/10) computed both by enumerating all 2^11 databases per target value and through the
count's sufficient statistic.  Prints δ_APK = max_b δ_A(b) and δ_PPK = Σ_b P[b] δ_A(b) as
correctly rounded decimals of the exact rationals, and the median wall-clock time.

The thesis-scale computation uses FLINT integer polynomials for the Poisson-binomial law and
one common integer denominator for every conditional law (``exactpml.partial_knowledge.laws``).
``--baseline`` also times a plain ``Fraction`` loop (binomial terms as Fractions, one
conditional law per known count) on ``--baseline-counts`` of the 101 known counts and
extrapolates linearly: labelled as an extrapolation.  Speed is reported, never asserted.

``--scaling`` times Example 7 at 1000, 2000, 4000, 10^4 and 10^5 voters (100 known,
threshold 100, p = 10^-4, e^ε = 3) through the closed form of
``exactpml.partial_knowledge.thresholded`` (a few binomial CDF values per knowledge value),
and, in the same run, through the generic count path (every conditional law built over
d^N and summed output by output, as on main before the closed form) at the sizes up to
``--baseline-max``; both must give identical δ_APK, δ_PPK and per-order values before any
time is printed.  Each curve gets its growth exponent (time ∝ n^a, least squares on
log-log over ≥ 3 sizes).

Run: ``python benchmarks/bench_partial_knowledge.py [--repeat 3] [--baseline] [--scaling]``
"""

from __future__ import annotations

import argparse
import statistics
import time
from fractions import Fraction
from math import comb

from _growth import machine, report, timed

from exactpml.core.logvalue import LogValue
from exactpml.leakage.hockey_stick import short_decimal
from exactpml.partial_knowledge import example_7, knowledge_laws, referendum
from exactpml.partial_knowledge.notions import (
    active_delta,
    delta_table,
    largest_delta,
    weighted_delta,
)

SCALING_VOTERS = [1000, 2000, 4000, 10**4, 10**5]


def generic_example_7(voters: int) -> tuple[object, object, dict[object, tuple[object, object]]]:
    """Example 7 through the generic count path (laws built and summed, no closed form):
    (δ_APK, δ_PPK, {order: (max_b δ_A(b), Σ_b P[b] δ_A(b))})."""
    setting, mechanism = referendum(voters, 100, "1/10000", threshold=100)
    laws = knowledge_laws(setting, mechanism, method="count", closed_form=False)
    table = delta_table(laws, exp_epsilon=Fraction(3))
    orders = {
        order: (
            largest_delta([row[b] for b in laws.knowledge_values])[0],
            weighted_delta(laws.weights, [row[b] for b in laws.knowledge_values]),
        )
        for order, row in table.items()
    }
    return active_delta(laws, table).delta, max(v[1] for v in orders.values()), orders


def scaling(repeat: int, baseline_max: int) -> None:
    print(f"Example 7 scaling ({machine()}); 100 known, threshold 100, p = 10^-4, e^eps = 3")
    print("| voters | closed form (s) | generic count path (s) | generic / closed |")
    print("|---|---|---|---|")
    sizes, closed_times, base_sizes, base_times = [], [], [], []
    for voters in SCALING_VOTERS:
        seconds, result = timed(lambda v=voters: example_7(voters=v, epsilon=LogValue(3)), repeat)
        base = "not run"
        ratio = ""
        if voters <= baseline_max:
            base_seconds, (apk, ppk, orders) = timed(lambda v=voters: generic_example_7(v), 1)
            assert apk == result.delta_apk and ppk == result.delta_ppk, voters
            for order, one in result.orders.items():
                assert orders[order] == (one.delta_apk, one.delta_ppk), (voters, order)
            base_sizes.append(voters)
            base_times.append(base_seconds)
            base = f"{base_seconds:.3f}"
            ratio = f"{base_seconds / seconds:.0f}×"
        sizes.append(voters)
        closed_times.append(seconds)
        print(f"| {voters} | {seconds:.3f} | {base} | {ratio} |")
    print(report("closed form", sizes, closed_times))
    print(report("generic count path", base_sizes, base_times))
    print("(identical δ_APK, δ_PPK and per-order values wherever both ran)")


def plain_fraction_delta(known_count: int, voters: int, known: int, threshold: int, p: Fraction):
    """δ_A for one known count, with Fractions throughout (the slow reference)."""
    unknown = voters - known - 1
    pmf = [comb(unknown, c) * p**c * (1 - p) ** (unknown - c) for c in range(unknown + 1)]

    def law(shift: int) -> dict[object, Fraction]:
        out: dict[object, Fraction] = {}
        for c, weight in enumerate(pmf):
            total = c + known_count + shift
            key: object = total if total > threshold else "⊥"
            out[key] = out.get(key, Fraction(0)) + weight
        return out

    under_no, under_yes = law(0), law(1)
    return sum(
        (max(Fraction(0), v - 3 * under_yes.get(o, Fraction(0))) for o, v in under_no.items()),
        Fraction(0),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", action="store_true")
    parser.add_argument("--baseline-counts", type=int, default=3)
    parser.add_argument("--scaling", action="store_true")
    parser.add_argument("--baseline-max", type=int, default=4000)
    args = parser.parse_args()
    if args.scaling:
        scaling(args.repeat, args.baseline_max)
        return

    small_enumerated = example_7(12, 4, 3, "1/10", method="enumerate")
    small_counted = example_7(12, 4, 3, "1/10")
    assert small_enumerated.delta_apk == small_counted.delta_apk
    assert small_enumerated.delta_ppk == small_counted.delta_ppk
    print("small scale (12 voters, 4 known, threshold 3, p = 1/10, e^eps = 3)")
    print(f"  delta_APK = {short_decimal(small_counted.delta_apk)} = {small_counted.delta_apk}")
    print(f"  delta_PPK = {short_decimal(small_counted.delta_ppk)} = {small_counted.delta_ppk}")
    print(
        f"  enumeration {small_enumerated.seconds:.3f} s, "
        f"sufficient statistic {small_counted.seconds:.4f} s (equal results)"
    )

    times = []
    result = None
    for _ in range(args.repeat):
        start = time.perf_counter()
        result = example_7()
        times.append(time.perf_counter() - start)
    assert result is not None
    print("thesis scale (1000 voters, 100 known, threshold 100, p = 10^-4, e^eps = 3)")
    print(f"  delta_APK = {short_decimal(result.delta_apk)} (at {result.worst!r})")
    print(f"  delta_PPK = {short_decimal(result.delta_ppk)}")
    print(
        f"  exact sizes: delta_PPK numerator {result.delta_ppk.numerator.bit_length()} bits, "
        f"denominator {result.delta_ppk.denominator.bit_length()} bits"
    )
    print(f"  median of {args.repeat}: {statistics.median(times):.3f} s")

    if args.baseline:
        p = Fraction(1, 10**4)
        counts = list(range(100, 100 - args.baseline_counts, -1))
        start = time.perf_counter()
        for k in counts:
            plain_fraction_delta(k, 1000, 100, 100, p)
        elapsed = time.perf_counter() - start
        print(
            f"  plain Fraction loop: {elapsed:.2f} s for {len(counts)} known counts, "
            f"extrapolated to all 101: {elapsed / len(counts) * 101:.0f} s"
        )


if __name__ == "__main__":
    main()
