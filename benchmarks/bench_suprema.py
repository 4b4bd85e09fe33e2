"""Thm 4.2 (3) as exact suprema: sup over product priors of l(D_i -> y), for every y and i.

Saeidian et al., Thm 4.2 (3) and App. B.1: for an explicit random rational mechanism on
databases of n = 3 entries over |D| = 3 (27 inputs) with 10 outputs, computes each of the
30 suprema sup_{P_X in Q_X} l(D_i -> y) exactly -- the DP ratio of (y, i), reached by the
product prior of eq. (B.3) as t -> 0+, the limit taken by the limit engine and checked equal
to the closed form -- and checks each against a brute-force DP ratio over neighbour pairs.
Prints the time.  Speed is reported, never asserted.

``--iid`` instead times Prop 4.6 (Saeidian et al.): ``sup_entry_leakage_over_iid(n, 1,
"1/4")`` for n = 2..20 through the exact polynomials in (p, w) (``method="polynomial"``) and,
in the same run, through the sympy prover (``method="sympy"``, the reference) for n up to
``--baseline-max``; the two Suprema must agree (value, not attained, the same limit)
before a time is printed.  Each curve gets its growth exponent (time ∝ n^a, least squares
on log-log over ≥ 3 sizes); the sympy prover's growth is exponential, so its exponent over
n = 2..5 only summarises the sizes measured.

Run: ``python benchmarks/bench_suprema.py [--seed 0] [--entries 3] [--alphabet 3] [--outputs 10]``
or ``python benchmarks/bench_suprema.py --iid [--baseline-max 5]``
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from fractions import Fraction

from _growth import machine, report, timed
from sympy.core.cache import clear_cache

from exactpml import Mechanism
from exactpml.core import certify
from exactpml.instances.laplace_counting import sup_entry_leakage_over_iid
from exactpml.suprema import sup_conditional_pml, sup_entry_leakage, sup_pml
from exactpml.suprema.families import FullSupportPriors, ProductPriors


def random_mechanism(n: int, size: int, outputs: int, rng: random.Random) -> Mechanism:
    rows = {}
    for x in itertools.product(range(size), repeat=n):
        weights = [rng.randint(1, 20) for _ in range(outputs)]
        total = sum(weights)
        rows[x] = {y: Fraction(w, total) for y, w in enumerate(weights)}
    return Mechanism(rows)


def brute_dp_ratio(mechanism: Mechanism, y: int, i: int) -> Fraction:
    best = Fraction(1)
    for x in mechanism.inputs:
        for x2 in mechanism.inputs:
            if x[i] != x2[i] and x[:i] + x[i + 1 :] == x2[:i] + x2[i + 1 :]:
                best = max(best, mechanism.probability(x, y) / mechanism.probability(x2, y))
    return best


def iid_scaling(baseline_max: int) -> int:
    """Prop 4.6 at n = 2..20: the polynomial prover, and the sympy prover as the baseline."""
    print(f"Prop 4.6, sup over the i.i.d. family, b = 1, c = 1/4 ({machine()})")
    print("| n | polynomial (s) | sympy (s) | sympy / polynomial |")
    print("|---|---|---|---|")
    sizes, times, base_sizes, base_times = [], [], [], []
    sup_entry_leakage_over_iid(3, 1, "1/4", method="polynomial")  # warm-up (imports, caches)
    for n in [*range(2, 11), 12, 14, 16, 18, 20]:
        clear_cache()
        seconds, fast = timed(
            lambda n=n: sup_entry_leakage_over_iid(n, 1, "1/4", method="polynomial")
        )
        base, ratio = "not run", ""
        if n <= baseline_max:
            clear_cache()
            base_seconds, slow = timed(
                lambda n=n: sup_entry_leakage_over_iid(n, 1, "1/4", method="sympy")
            )
            assert fast.value == slow.value and not fast.attained and not slow.attained
            assert certify.compare(fast.witness.limit, slow.witness.limit) == 0  # type: ignore[union-attr]
            base_sizes.append(n)
            base_times.append(base_seconds)
            base, ratio = f"{base_seconds:.3f}", f"{base_seconds / seconds:.0f}×"
        sizes.append(n)
        times.append(seconds)
        print(f"| {n} | {seconds:.3f} | {base} | {ratio} |")
    print(report("polynomial prover", sizes, times))
    tail = [k for k, n in enumerate(sizes) if n >= 8]
    print(report("polynomial prover, n >= 8", [sizes[k] for k in tail], [times[k] for k in tail]))
    print(report("sympy prover", base_sizes, base_times))
    print("(identical Suprema wherever both ran)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--entries", type=int, default=3)
    parser.add_argument("--alphabet", type=int, default=3)
    parser.add_argument("--outputs", type=int, default=10)
    parser.add_argument("--iid", action="store_true")
    parser.add_argument("--baseline-max", type=int, default=5)
    args = parser.parse_args(argv)
    if args.iid:
        return iid_scaling(args.baseline_max)
    rng = random.Random(args.seed)
    mechanism = random_mechanism(args.entries, args.alphabet, args.outputs, rng)
    family = ProductPriors(range(args.alphabet), args.entries)
    clear_cache()
    start = time.perf_counter()
    result = sup_entry_leakage(mechanism, family)
    elapsed = time.perf_counter() - start
    failures = 0
    exact_count = 0
    for part in result.parts:
        y = part.witness.builder(Fraction(1, 2)).output  # type: ignore[union-attr]
        i = part.witness.builder(Fraction(1, 2)).entry  # type: ignore[union-attr]
        expected = brute_dp_ratio(mechanism, y, i)
        limit = getattr(part.witness, "limit", None)
        ok = part.value.ratio == expected and (part.attained or limit == expected)
        exact_count += isinstance(part.value.ratio, Fraction)
        failures += not ok
    print(
        f"Thm 4.2 (3): n = {args.entries}, |D| = {args.alphabet}, {args.outputs} outputs: "
        f"{len(result.parts)} suprema (y, i), {exact_count} exact rationals, all limits equal "
        f"to the DP ratio: {failures == 0}"
    )
    print(
        f"sup over product priors, outputs and entries = {result.value} "
        f"(attained: {result.attained})"
    )
    print(f"time: {elapsed:.3f} s ({elapsed / len(result.parts) * 1e3:.1f} ms per supremum)")
    every = FullSupportPriors(mechanism.inputs)
    dp = max(
        brute_dp_ratio(mechanism, y, i) for y in mechanism.outputs for i in range(args.entries)
    )
    free_lunch = max(max(mechanism.column(y)) / min(mechanism.column(y)) for y in mechanism.outputs)
    for label, run, expected in (
        ("Thm 4.2 (1)", lambda: sup_conditional_pml(mechanism, every), dp),
        ("Thm 4.2 (2)", lambda: sup_conditional_pml(mechanism, family), dp),
        ("Thm 4.5 (1)", lambda: sup_pml(mechanism, every), free_lunch),
        ("Thm 4.5 (2)", lambda: sup_pml(mechanism, family), free_lunch),
        ("Thm 4.5 (3)", lambda: sup_entry_leakage(mechanism, every), free_lunch),
    ):
        clear_cache()
        start = time.perf_counter()
        other = run()
        seconds = time.perf_counter() - start
        ok = other.value.ratio == expected and not other.attained
        failures += not ok
        print(f"{label}: {other.value} equals the closed form: {ok}; {seconds:.3f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
