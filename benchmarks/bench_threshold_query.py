"""Example 3.11 (the deterministic threshold query) at n = 10^4..10^6 entries, exactly.

Saeidian et al., Example 3.11: l(X->1) = -log(1 - F) with F = P(Bin(n, p) ≤ m), an exact
rational over d^n (p = a/d).  Times ``threshold_query_leakage(n, m, p)`` (binary splitting
of the binomial tail with FLINT, :func:`exactpml.structured.count_law.binomial_tail_numerator`,
and one FLINT gcd) for p = 3/10 (Figure 1's regime) and two thresholds, m = n/10 and
m = np/2 = 3n/20, and in the same run the term-by-term sum that preceded it (each term
C(n,k) a^k (d-a)^(n-k) with Python integers, then ``Fraction``) at the sizes up to
``--baseline-max``.  The two must give the identical exact value before a time is printed;
each curve gets its growth exponent (time ∝ n^a, least squares on log-log over ≥ 3 sizes).
Speed is reported, never asserted.

Run: ``python benchmarks/bench_threshold_query.py [--repeat 1] [--baseline-max 40000]``
"""

from __future__ import annotations

import argparse
import math
from fractions import Fraction

from _growth import machine, report, timed

from exactpml.core.logvalue import LogValue
from exactpml.instances.threshold_query import threshold_query_leakage

SIZES = [10**4, 2 * 10**4, 4 * 10**4, 10**5, 3 * 10**5, 10**6]
P = Fraction(3, 10)


def term_by_term(n: int, m: int, p: Fraction) -> LogValue:
    """l(X->1) as computed before binary splitting: the shorter tail term by term, Fraction."""
    a, d = p.numerator, p.denominator
    b = d - a
    if m <= n // 2:
        tail = Fraction(sum(math.comb(n, k) * a**k * b ** (n - k) for k in range(m + 1)), d**n)
    else:
        upper = sum(math.comb(n, k) * a**k * b ** (n - k) for k in range(m + 1, n + 1))
        tail = 1 - Fraction(upper, d**n)
    return LogValue(1 / (1 - tail))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--baseline-max", type=int, default=4 * 10**4)
    args = parser.parse_args()
    print(f"Example 3.11 scaling ({machine()}), p = 3/10")
    for label, threshold in (("m = n/10", lambda n: n // 10), ("m = np/2", lambda n: 3 * n // 20)):
        print(f"\n{label}")
        print("| n | binary splitting (s) | term by term (s) | term / split |")
        print("|---|---|---|---|")
        sizes, times, base_sizes, base_times = [], [], [], []
        for n in SIZES:
            m = threshold(n)
            seconds, value = timed(lambda n=n, m=m: threshold_query_leakage(n, m, P), args.repeat)
            base, ratio = "not run", ""
            if n <= args.baseline_max:
                base_seconds, expected = timed(lambda n=n, m=m: term_by_term(n, m, P), 1)
                assert value.ratio == expected.ratio, (n, m)
                base_sizes.append(n)
                base_times.append(base_seconds)
                base, ratio = f"{base_seconds:.3f}", f"{base_seconds / seconds:.0f}×"
            sizes.append(n)
            times.append(seconds)
            print(f"| {n} | {seconds:.3f} | {base} | {ratio} |")
        print(report("binary splitting", sizes, times))
        print(report("term by term", base_sizes, base_times))
    print("(identical exact values wherever both ran)")


if __name__ == "__main__":
    main()
