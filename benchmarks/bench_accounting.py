"""Benchmark: exact k-fold composition (issue 14) and certified DP-SGD accounting (issue 25).

Run ``python benchmarks/bench_accounting.py`` (``--help`` for options).  Timed, with fresh
objects in every repetition (medians; garbage collector off while timing):

* **exact PLD**: the privacy-loss distribution of binary randomized response with
  e^ε = ``--ratio`` (default 3), its k-fold self-composition (one FLINT ``fmpz_poly`` power:
  1001 exact rational masses for k = 1000), then δ(ε') at ε' = ``--at`` · ε and ε(δ) at
  δ = 10^-6, all exact;
* **exact, through the mechanism**: the same from the explicit 1-record mechanism,
  ``composition_delta_for_epsilon(rr, k, ε')`` (neighbouring pairs, PLDs, composition);
* **dp_accounting PLD** (if installed; ``pip install -e '.[peers]'``): its randomized-response
  PLD (pessimistic, discretisation 10^-4), ``self_compose(k)``, ``get_delta_for_epsilon``
  and ``get_epsilon_for_delta`` -- floating point, for the ratio of times.

The exact values are checked against the closed form of Kairouz, Oh, Viswanath 2015
(binomial sums); the run fails on a mismatch.  Speed is reported, never asserted.

``--scaling`` (issue 12, target 7): for k in 10, 100, 1000, 10^4 (``--ks``), time the k-fold
self-composition and δ(ε') -- exact (``self_compose(k)`` + ``delta_for_epsilon``) and
dp-accounting's PLD (``from_randomized_response`` + ``self_compose(k)`` +
``get_delta_for_epsilon``, pessimistic, discretisation 10^-4) -- at ε' = a_k·ε with
a_k = round(k/2 + √k) (about one standard deviation above the mean privacy loss k·ε/2, so
δ is between 0.05 and 0.15 at every k), and fit time ∝ k^a per curve.  Before timing, at
every k: the exact δ equals the KOV closed form, and dp-accounting's optimistic and
pessimistic δ bracket it (the pessimistic estimate rounds each step's loss up to the grid,
so its error grows with k; bracketing is what it documents).

``--dpsgd`` (issue 25): the certified DP-SGD bracket ``dpsgd_epsilon`` (width 1/100) on the
issue's targets -- σ = 1, q = 0.01, k = 10^4, δ = 10^-5 and σ = 2, q = 0.1, k = 1000,
δ = 10^-6: upper/lower <= 1.02 (goal 1.01) within 60 s -- with the float accountants'
values beside it when importable (dp-accounting's PLD both sides at 10^-4, its RDP
accountant); and q = 1, k = 1 for σ in {1/2, 1, 2}: the bracket must contain the Gaussian
mechanism's exact ε (Balle & Wang 2018, Thm 8), computed here independently: bisection on
rationals with :func:`exactpml.certify.compare` on the closed form Φ(1/(2σ) - εσ) -
e^ε Φ(-1/(2σ) - εσ) written in this file.  A bracket missing it, or a peer's "upper bound"
below the certified lower end, is printed as MISMATCH / VIOLATION and the run fails.

``--dpsgd-scaling``: time ∝ k^a at a fixed resolution 2^-10 (k in ``--dpsgd-ks``) and
time ∝ (1/Δ)^b at k = 10^4 (Δ in ``--dpsgd-resolutions``), with the bracket's relative width
at each Δ (its exponent in Δ: the error is second order).
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

import sympy

from exactpml import DatabaseMechanism, Distribution, LogValue, certify, use_bounds
from exactpml.notions import (
    PrivacyLossDistribution,
    composition_delta_for_epsilon,
    dpsgd_epsilon,
    privacy_loss_distribution,
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


def randomized_response(ratio: Fraction) -> tuple[Distribution, Distribution]:
    keep = ratio / (1 + ratio)
    return Distribution({0: keep, 1: 1 - keep}), Distribution({0: 1 - keep, 1: keep})


def exact_run(ratio: Fraction, k: int, at: int) -> tuple[Any, LogValue]:
    pld = privacy_loss_distribution(*randomized_response(ratio))
    composed = pld.self_compose(k)
    return composed.delta_for_epsilon(exp_epsilon=ratio**at), composed.epsilon_for_delta(
        Fraction(1, 10**6)
    )


def closed_form_delta(ratio: Fraction, k: int, at: int) -> Fraction:
    """Kairouz–Oh–Viswanath: Σ_j C(k, j) max(0, p^{k-j} q^j - E' q^{k-j} p^j)."""
    target = ratio**at
    total = 0
    scale = (ratio + 1) ** k  # p^{k-j} q^j = ratio^{k-j} / (1 + ratio)^k
    for j in range(k + 1):
        term = ratio ** (k - j) - target * ratio**j
        if term > 0:
            total += math.comb(k, j) * term
    return Fraction(total) / scale


def peer_run(ratio: Fraction, k: int, at: int) -> tuple[float, float] | None:
    try:
        from dp_accounting.pld import privacy_loss_distribution as peer
    except ImportError:
        return None
    keep = ratio / (1 + ratio)
    noise = float(2 * (1 - keep))  # keep = (1 - p) + p/2
    pld = peer.from_randomized_response(noise, 2).self_compose(k)
    epsilon = at * math.log(float(ratio))
    return pld.get_delta_for_epsilon(epsilon), pld.get_epsilon_for_delta(1e-6)


def exact_delta(ratio: Fraction, k: int, at: int) -> Any:
    """The exact δ(ε' = at·ε) of the k-fold self-composition (PLD, FLINT power).

    k = 10^4 predicts more bits of exact loss law than the default ``Bounds.loss_bits``
    (2^26) allows: the benchmark raises the bound explicitly, as a user would.
    """
    pld = privacy_loss_distribution(*randomized_response(ratio))
    with use_bounds(loss_bits=2**30):
        return pld.self_compose(k).delta_for_epsilon(exp_epsilon=ratio**at)


def peer_delta(ratio: Fraction, k: int, at: int, pessimistic: bool = True) -> float | None:
    """dp-accounting's δ(ε' = at·ε) after k self-compositions (None: not importable)."""
    try:
        from dp_accounting.pld import privacy_loss_distribution as peer
    except ImportError:
        return None
    keep = ratio / (1 + ratio)
    pld = peer.from_randomized_response(
        float(2 * (1 - keep)), 2, pessimistic_estimate=pessimistic
    ).self_compose(k)
    return float(pld.get_delta_for_epsilon(at * math.log(float(ratio))))


def scaling(args: argparse.Namespace, ratio: Fraction) -> int:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _growth import machine, report

    print(f"{machine()}; {os.cpu_count()} cores (shared with other jobs: times are loaded)")
    print(
        f"Randomized response e^ε = {ratio}, k-fold self-composition, δ(ε' = a_k·ε), "
        f"a_k = round(k/2 + √k); medians of {args.repeat} (1 from k = {args.large_k})\n"
    )
    rows = []
    for k in args.ks:
        at = round(k / 2 + math.sqrt(k))
        delta = exact_delta(ratio, k, at)
        expected = closed_form_delta(ratio, k, at)
        if delta != expected:
            print(f"MISMATCH at k = {k}: exact δ {delta} != KOV closed form {expected}")
            return 1
        repeat = 1 if k >= args.large_k else args.repeat
        ours, _ = timed(lambda k=k, at=at: exact_delta(ratio, k, at), repeat)
        peer: float | None = None
        note = "dp-accounting not importable (pip install -e '.[peers]')"
        pessimistic = peer_delta(ratio, k, at)
        if pessimistic is not None:
            optimistic = peer_delta(ratio, k, at, pessimistic=False)
            assert optimistic is not None
            exact = float(delta)
            if not optimistic <= exact <= pessimistic:
                print(
                    f"MISMATCH at k = {k}: dp-accounting {optimistic!r} .. {pessimistic!r} "
                    f"does not bracket the exact δ {exact!r}"
                )
                return 1
            peer, _ = timed(lambda k=k, at=at: peer_delta(ratio, k, at), repeat)
            note = (
                f"dp-accounting optimistic {optimistic:.6g} ≤ exact ≤ pessimistic "
                f"{pessimistic:.6g} (relative error {(pessimistic - exact) / exact:.1e})"
            )
        rows.append((k, at, delta, ours, peer))
        print(f"  k = {k}: δ = {float(delta):.6g} (exact, = KOV); {note}", flush=True)
    print()
    have_peer = all(row[4] is not None for row in rows)
    head = "| k | a_k | δ(ε') (exact, rounded) | exact compose + δ (s) |"
    if have_peer:
        head += " dp-accounting PLD compose + δ (s) | exact / dp-accounting |"
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    for k, at, delta, ours, peer in rows:
        line = f"| {k} | {at} | {float(delta):.6g} | {ours:.4f} |"
        if have_peer and peer is not None:
            line += f" {peer:.4f} | {ours / peer:.3g}× |"
        print(line)
    print()
    ks = [row[0] for row in rows]
    print("- " + report("exact", ks, [row[3] for row in rows]).replace("n^", "k^"))
    if have_peer:
        seconds = [row[4] or 0.0 for row in rows]
        print("- " + report("dp-accounting", ks, seconds).replace("n^", "k^"))
    return 0


# --- issue 25: certified DP-SGD accounting -------------------------------------------------
DPSGD_TARGETS = (
    ("σ=1, q=0.01, k=10^4, δ=1e-5", Fraction(1), Fraction(1, 100), 10**4, Fraction(1, 10**5)),
    ("σ=2, q=0.1, k=1000, δ=1e-6", Fraction(2), Fraction(1, 10), 1000, Fraction(1, 10**6)),
)


def analytic_gaussian_epsilon(sigma: Fraction, delta: Fraction, digits: int = 30):
    """(lo, hi) rationals, hi - lo <= 10^-digits, certified δ(lo) > δ >= δ(hi) for the Gaussian
    mechanism: δ(ε) = Φ(1/(2σ) - εσ) - e^ε Φ(-1/(2σ) - εσ) (Balle & Wang 2018, Thm 8),
    compared with δ by :func:`exactpml.certify.compare` (Arb) -- independent of exactpml's
    lattice code and of its continuous_noise module."""
    s = sympy.Rational(sigma.numerator, sigma.denominator)

    def phi(x: sympy.Expr) -> sympy.Expr:
        return sympy.erfc(-x / sympy.sqrt(2)) / 2

    def above(epsilon: Fraction) -> bool:  # δ(ε) > δ, certified
        e = sympy.Rational(epsilon.numerator, epsilon.denominator)
        value = phi(1 / (2 * s) - e * s) - sympy.exp(e) * phi(-1 / (2 * s) - e * s)
        return certify.compare(value, delta) > 0

    lo, hi = Fraction(0), Fraction(1)
    while above(hi):
        lo, hi = hi, 2 * hi
    while hi - lo > Fraction(1, 10**digits):
        middle = (lo + hi) / 2
        if above(middle):
            lo = middle
        else:
            hi = middle
    return lo, hi


def dpsgd_peers(sigma: Fraction, rate: Fraction, k: int, delta: Fraction) -> dict[str, float]:
    """dp-accounting's ε: PLD pessimistic (connect-the-dots) and optimistic at 10^-4, RDP."""
    try:
        from dp_accounting import dp_event, rdp
        from dp_accounting.pld import privacy_loss_distribution as peer
    except ImportError:
        return {}
    found = {}
    for name, pessimistic in (("PLD pessimistic", True), ("PLD optimistic", False)):
        pld = peer.from_gaussian_mechanism(
            float(sigma),
            sampling_prob=float(rate),
            value_discretization_interval=1e-4,
            pessimistic_estimate=pessimistic,
            use_connect_dots=pessimistic,
        )
        found[name] = pld.self_compose(k).get_epsilon_for_delta(float(delta))
    accountant = rdp.RdpAccountant()
    event = dp_event.PoissonSampledDpEvent(float(rate), dp_event.GaussianDpEvent(float(sigma)))
    accountant.compose(event, k)
    found["RDP"] = accountant.get_epsilon(float(delta))
    return found


def dpsgd_targets(args: argparse.Namespace) -> int:
    failed = 0
    print("Certified DP-SGD accounting (dpsgd_epsilon, width 1/100); the issue's targets")
    for label, sigma, rate, k, delta in DPSGD_TARGETS:
        if k > args.dpsgd_max_k:
            continue
        seconds, bounds = timed(lambda s=sigma, r=rate, k=k, d=delta: dpsgd_epsilon(s, r, k, d), 1)
        ratio = float(bounds.ratio) if bounds.ratio is not None else math.inf
        print(
            f"  {label}: ε in {bounds} (upper/lower = {ratio:.5f}; target <= 1.02, goal 1.01) "
            f"in {seconds:.1f} s; resolution {bounds.resolution}, {bounds.bits}-bit masses, "
            f"{bounds.lattice_points} lattice points"
        )
        for name, value in dpsgd_peers(sigma, rate, k, delta).items():
            exact = Fraction(value)  # the float read as an exact dyadic rational
            where = (
                "inside"
                if bounds.lower <= exact <= bounds.upper
                else ("below" if exact < bounds.lower else "above")
            )
            print(f"    dp-accounting {name}: {value:.6f} ({where} the bracket)")
            if name != "PLD optimistic" and exact < bounds.lower:
                print(f"    VIOLATION: dp-accounting {name} {value!r} < certified lower end")
                failed = 1
    print("  q = 1, k = 1 (the Gaussian mechanism), δ = 1e-5: contains Balle-Wang's exact ε?")
    for sigma in (Fraction(1, 2), Fraction(1), Fraction(2)):
        delta = Fraction(1, 10**5)
        lo, hi = analytic_gaussian_epsilon(sigma, delta)
        seconds, bounds = timed(lambda s=sigma, d=delta: dpsgd_epsilon(s, 1, 1, d), 1)
        inside = bounds.lower <= lo and hi <= bounds.upper
        print(
            f"    σ = {sigma}: exact ε = {float(lo):.12f}..., bracket {bounds} "
            f"({'contains it' if inside else 'MISMATCH'}; {seconds:.2f} s)"
        )
        failed |= not inside
    return failed


def dpsgd_scaling(args: argparse.Namespace) -> int:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _growth import exponent, machine, report

    print(f"{machine()}; {os.cpu_count()} cores (shared with other jobs: times are loaded)")
    sigma, rate, delta = Fraction(1), Fraction(1, 100), Fraction(1, 10**5)
    fixed = Fraction(1, 1024)
    print(f"Growth in k: σ = 1, q = 0.01, δ = 1e-5, resolution {fixed} (one pass)")
    print("| k | ε bracket | upper/lower | lattice points | bits | seconds |")
    print("|---|---|---|---|---|---|")
    ks, seconds_k = [], []
    for k in args.dpsgd_ks:
        seconds, bounds = timed(
            lambda k=k: dpsgd_epsilon(sigma, rate, k, delta, resolution=fixed), 1
        )
        ks.append(k)
        seconds_k.append(seconds)
        ratio = f"{float(bounds.ratio):.5f}" if bounds.ratio is not None else "-"
        print(
            f"| {k} | {bounds} | {ratio} | {bounds.lattice_points} | {bounds.bits} | "
            f"{seconds:.2f} |"
        )
    print("- " + report("certified DP-SGD", ks, seconds_k).replace("n^", "k^"))
    k = args.dpsgd_k
    print(f"\nGrowth in 1/Δ: σ = 1, q = 0.01, k = {k}, δ = 1e-5")
    print("| Δ | ε bracket | upper/lower - 1 | lattice points | bits | seconds |")
    print("|---|---|---|---|---|---|")
    inverse, seconds_d, gaps = [], [], []
    for denominator in args.dpsgd_resolutions:
        step = Fraction(1, denominator)
        seconds, bounds = timed(
            lambda s=step: dpsgd_epsilon(sigma, rate, k, delta, resolution=s), 1
        )
        gap = float(bounds.ratio) - 1 if bounds.ratio is not None else math.inf
        inverse.append(denominator)
        seconds_d.append(seconds)
        gaps.append(gap)
        print(
            f"| 1/{denominator} | {bounds} | {gap:.3e} | {bounds.lattice_points} | "
            f"{bounds.bits} | {seconds:.2f} |"
        )
    print("- " + report("certified DP-SGD", inverse, seconds_d).replace("n^", "(1/Δ)^"))
    if len(inverse) >= 3 and all(math.isfinite(g) and g > 0 for g in gaps):
        print(f"- bracket width: upper/lower - 1 ∝ Δ^{-exponent(inverse, gaps):.2f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=1000, help="compositions (default 1000)")
    parser.add_argument("--ratio", default="3", help="e^ε of randomized response (default 3)")
    parser.add_argument("--at", type=int, default=600, help="δ at ε' = at·ε (default 600)")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (median reported)")
    parser.add_argument("--scaling", action="store_true", help="growth in k, with the ratio")
    parser.add_argument(
        "--ks", type=int, nargs="+", default=[10, 100, 1000, 10_000], help="k for --scaling"
    )
    parser.add_argument(
        "--large-k", type=int, default=10_000, help="from this k, one repetition (--scaling)"
    )
    parser.add_argument("--dpsgd", action="store_true", help="issue 25: certified DP-SGD")
    parser.add_argument("--dpsgd-scaling", action="store_true", help="DP-SGD growth in k, 1/Δ")
    parser.add_argument(
        "--dpsgd-max-k", type=int, default=10**4, help="skip --dpsgd targets with larger k"
    )
    parser.add_argument(
        "--dpsgd-ks", type=int, nargs="+", default=[100, 1000, 10_000, 100_000], help="k"
    )
    parser.add_argument("--dpsgd-k", type=int, default=10_000, help="k for the 1/Δ growth")
    parser.add_argument(
        "--dpsgd-resolutions",
        type=int,
        nargs="+",
        default=[256, 512, 1024, 2048, 4096],
        help="1/Δ for the growth in 1/Δ",
    )
    args = parser.parse_args(argv)
    ratio = Fraction(args.ratio)
    if args.scaling:
        return scaling(args, ratio)
    if args.dpsgd:
        return dpsgd_targets(args)
    if args.dpsgd_scaling:
        return dpsgd_scaling(args)

    seconds, (delta, epsilon) = timed(lambda: exact_run(ratio, args.k, args.at), args.repeat)
    expected = closed_form_delta(ratio, args.k, args.at)
    if delta != expected:
        print(f"MISMATCH: exact δ {delta} differs from the closed form {expected}")
        return 1
    print(f"Randomized response, e^ε = {ratio}, k = {args.k} self-compositions")
    print(f"  exact PLD (compose + δ(ε') + ε(δ)): {seconds:.3f} s")
    print(
        f"    δ(ε' = {args.at}·ε) = {float(delta):.10g} (exact rational, "
        f"{delta.denominator.bit_length()}-bit denominator; equals the KOV closed form)"
    )
    print(f"    ε(δ = 1e-6) = {epsilon.decimal(12)} (exact: log of a rational)")
    rr = DatabaseMechanism(
        {
            (0,): {0: ratio / (1 + ratio), 1: 1 / (1 + ratio)},
            (1,): {0: 1 / (1 + ratio), 1: ratio / (1 + ratio)},
        }
    )
    through, value = timed(
        lambda: composition_delta_for_epsilon(rr, args.k, exp_epsilon=ratio**args.at).value,
        args.repeat,
    )
    assert value == delta
    print(f"  exact, through the mechanism (composition_delta_for_epsilon): {through:.3f} s")
    dominating = PrivacyLossDistribution.from_privacy_parameters(exp_epsilon=ratio)
    power, _ = timed(lambda: dominating.self_compose(args.k), args.repeat)
    print(f"  the FLINT power alone: {power * 1000:.1f} ms")
    peer_seconds, peer_values = timed(lambda: peer_run(ratio, args.k, args.at), args.repeat)
    if peer_values is None:
        print("  dp_accounting: not installed (pip install -e '.[peers]'); no ratio")
    else:
        peer_delta, peer_epsilon = peer_values
        print(
            f"  dp_accounting PLD (pessimistic, 1e-4): {peer_seconds:.3f} s "
            f"(exact / dp_accounting = {seconds / peer_seconds:.2f}×)"
        )
        print(
            f"    δ = {peer_delta:.10g} (relative error "
            f"{abs(peer_delta - float(delta)) / float(delta):.2e}), ε(1e-6) = {peer_epsilon:.10g}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
