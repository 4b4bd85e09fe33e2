"""Limit engine vs ``sympy.limit`` on the product-prior construction of eq. (B.3).

Saeidian et al., "Pointwise maximal leakage and differential privacy", App. B.1, proof of
Thm 4.2 (3): for a fixed entry ``i``, output ``y`` and pair ``(d_i, d'_i)``, the product prior
putting ``1 - t`` on ``d_j*`` and ``t/(|D|-1)`` elsewhere (eq. (B.3)), together with ``1 - t`` on
``d'_i``, drives ``exp l(D_i -> y)`` to the DP ratio
``max_{d_-i} p(y|d_i, d_-i) / p(y|d'_i, d_-i)`` as ``t -> 0+``.

For binary databases with n = 1..4 entries and a random rational mechanism with 4 outputs
(written directly as sympy expressions, no dependency on the core classes), this takes each
output's PML-ratio limit with the rational fast path and with ``sympy.limit``, checks that
both equal the DP ratio exactly, and prints the times.  Speed is reported, never asserted.

Run: ``python benchmarks/bench_limits.py [--seed 0] [--repeat 3] [--max-n 4]``
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction

import sympy
from sympy.core.cache import clear_cache

from exactpml.numerics.limits import limit

OUTPUTS = 4


def random_mechanism(n: int, rng: random.Random) -> dict[tuple[int, ...], list[Fraction]]:
    """p(y|x) for x in {0,1}^n: rows of random positive integer weights, normalised."""
    mechanism = {}
    for x in itertools.product((0, 1), repeat=n):
        weights = [rng.randint(1, 12) for _ in range(OUTPUTS)]
        total = sum(weights)
        mechanism[x] = [Fraction(w, total) for w in weights]
    return mechanism


def dp_ratio(mechanism: dict[tuple[int, ...], list[Fraction]]) -> Fraction:
    """exp(epsilon): the largest p(y|x)/p(y|x') over neighbours x ~ x' and outputs y."""
    best = Fraction(1)
    for x, row in mechanism.items():
        for j in range(len(x)):
            neighbour = (*x[:j], 1 - x[j], *x[j + 1 :])
            best = max(best, *(a / b for a, b in zip(row, mechanism[neighbour], strict=True)))
    return best


def b3_construction(
    mechanism: dict[tuple[int, ...], list[Fraction]], y: int, t: sympy.Symbol, i: int = 0
) -> tuple[sympy.Expr, Fraction]:
    """The PML ratio exp l(D_i -> y) under the (B.3) prior, and its claimed limit."""
    n = len(next(iter(mechanism)))
    others = list(itertools.product((0, 1), repeat=n - 1))

    def with_entry(d: int, rest: tuple[int, ...]) -> tuple[int, ...]:
        return (*rest[:i], d, *rest[i:])

    ratio, d_i, d_prime, star = max(
        (mechanism[with_entry(a, r)][y] / mechanism[with_entry(b, r)][y], a, b, r)
        for a in (0, 1)
        for b in (0, 1)
        for r in others
    )

    def q_entry(value: int, favoured: int) -> sympy.Expr:
        return 1 - t if value == favoured else t  # t/(|D|-1) with |D| = 2

    def q_rest(rest: tuple[int, ...]) -> sympy.Expr:
        return sympy.Mul(*(q_entry(v, s) for v, s in zip(rest, star, strict=True)))

    def p_given_entry(d: int) -> sympy.Expr:
        return sympy.Add(
            *(sympy.Rational(*_pq(mechanism[with_entry(d, r)][y])) * q_rest(r) for r in others)
        )

    given = {d: p_given_entry(d) for d in (0, 1)}
    p_y = sympy.Add(*(q_entry(d, d_prime) * given[d] for d in (0, 1)))
    del d_i
    return sympy.Max(given[0], given[1]) / p_y, ratio


def _pq(value: Fraction) -> tuple[int, int]:
    return value.numerator, value.denominator


def timed(function: Callable[[], object], repeat: int) -> tuple[object, float]:
    times = []
    result: object = None
    for _ in range(repeat):
        clear_cache()  # sympy caches limits and assumptions: time cold calls only
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return result, statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-n", type=int, default=4)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    t = sympy.Symbol("t", positive=True)
    print(f"{'n':>2} {'y':>2} {'limit':>12} {'fast ms':>9} {'sympy ms':>9} {'ratio':>7}")
    failures = 0
    total_fast = total_sympy = 0.0
    for n in range(1, args.max_n + 1):
        mechanism = random_mechanism(n, rng)
        ratios = []
        for y in range(OUTPUTS):
            expr, expected = b3_construction(mechanism, y, t)
            fast, fast_s = timed(lambda e=expr: limit(e, t, "0+", method="rational"), args.repeat)
            slow, slow_s = timed(lambda e=expr: limit(e, t, "0+", method="sympy"), args.repeat)
            agree = fast == slow == expected
            failures += not agree
            total_fast += fast_s
            total_sympy += slow_s
            ratios.append(slow_s / fast_s)
            flag = "" if agree else f"  MISMATCH fast={fast} sympy={slow} expected={expected}"
            print(
                f"{n:>2} {y:>2} {expected!s:>12} {fast_s * 1e3:9.2f} {slow_s * 1e3:9.2f} "
                f"{slow_s / fast_s:7.1f}{flag}"
            )
        print(
            f"   n={n}: exp(epsilon) = {dp_ratio(mechanism)}, median ratio "
            f"{statistics.median(ratios):.1f}"
        )
    print(
        f"total: fast {total_fast * 1e3:.1f} ms, sympy.limit {total_sympy * 1e3:.1f} ms, "
        f"ratio {total_sympy / total_fast:.1f}x; mismatches: {failures}"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
