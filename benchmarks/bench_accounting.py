"""Benchmark: exact k-fold self-composition of randomized response (issue 14: k = 1000 in <= 1 s).

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

from exactpml import DatabaseMechanism, Distribution, LogValue
from exactpml.notions import (
    PrivacyLossDistribution,
    composition_delta_for_epsilon,
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
    """The exact δ(ε' = at·ε) of the k-fold self-composition (PLD, FLINT power)."""
    pld = privacy_loss_distribution(*randomized_response(ratio))
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
    args = parser.parse_args(argv)
    ratio = Fraction(args.ratio)
    if args.scaling:
        return scaling(args, ratio)

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
