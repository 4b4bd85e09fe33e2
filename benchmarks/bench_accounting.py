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
"""

from __future__ import annotations

import argparse
import gc
import math
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=1000, help="compositions (default 1000)")
    parser.add_argument("--ratio", default="3", help="e^ε of randomized response (default 3)")
    parser.add_argument("--at", type=int, default=600, help="δ at ε' = at·ε (default 600)")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (median reported)")
    args = parser.parse_args(argv)
    ratio = Fraction(args.ratio)

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
