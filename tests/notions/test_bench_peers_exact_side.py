"""The exact side of ``benchmarks/bench_peers.py`` against values written from the definitions.

Only exactpml is needed (the peers are never imported): δ(ε) = Σ_o max(0, P(o) - e^ε Q(o))
by enumeration (randomized response composed twice: 4 outcome pairs), by geometric series
(discrete Laplace), and by the Kairouz–Oh–Viswanath binomial sum (pure ε0-DP).
"""

from __future__ import annotations

import importlib.util
import math
import sys
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
import sympy

from exactpml import LogValue, certify

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_peers.py"
_SPEC = importlib.util.spec_from_file_location("bench_peers", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
bench = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = bench  # dataclasses look their module up while the file runs
_SPEC.loader.exec_module(bench)


def rr_twice_delta(ratio: Fraction) -> Fraction:
    """Randomized response, keep 3/4, composed twice: the 4 outcome pairs enumerated."""
    p = {0: Fraction(3, 4), 1: Fraction(1, 4)}  # input 0
    q = {0: Fraction(1, 4), 1: Fraction(3, 4)}  # input 1
    return sum(
        (max(Fraction(0), p[a] * p[b] - ratio * q[a] * q[b]) for a, b in product((0, 1), repeat=2)),
        Fraction(0),
    )


@pytest.mark.parametrize("ratio", [Fraction(1, 9), Fraction(1, 2), 1, 2, 3, Fraction(9, 2), 9])
def test_randomized_response_composed_twice(ratio):
    assert bench.exact_delta("rr", 2, Fraction(ratio)) == rr_twice_delta(Fraction(ratio))


@pytest.mark.parametrize("delta", [Fraction(1, 100), Fraction(1, 4), Fraction(1, 2)])
def test_randomized_response_epsilon_solves_delta(delta):
    epsilon = bench.exact_epsilon("rr", 2, delta)
    assert epsilon.is_rational_ratio
    assert rr_twice_delta(epsilon.ratio) == delta  # δ(ε) is strictly decreasing where > 0


def discrete_laplace_delta(ratio: Fraction, alpha: Fraction = Fraction(1, 2)) -> Fraction:
    """P(y) = c α^|y|, Q(y) = c α^|y-1|: P/Q = 1/α for y <= 0 and α for y >= 1."""
    c = (1 - alpha) / (1 + alpha)
    p_low, q_low = c / (1 - alpha), c * alpha / (1 - alpha)  # Σ_{y<=0} of α^-y, α^(1-y)
    p_high, q_high = c * alpha / (1 - alpha), c / (1 - alpha)  # Σ_{y>=1} of α^y, α^(y-1)
    total = Fraction(0)
    if ratio < 1 / alpha:
        total += p_low - ratio * q_low
    if ratio < alpha:
        total += p_high - ratio * q_high
    return total


@pytest.mark.parametrize(
    "ratio", [Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), 1, Fraction(3, 2), 2]
)
def test_discrete_laplace_single_count(ratio):
    assert bench.exact_delta("dlap", 1, Fraction(ratio)) == discrete_laplace_delta(Fraction(ratio))


def test_discrete_laplace_pure_epsilon_composes_additively():
    assert bench.exact_epsilon("dlap", 3, 0) == LogValue(Fraction(8))  # 3 log 2


@pytest.mark.parametrize("k, power", [(3, 1), (5, 2), (10, 0)])
def test_pure_dominating_pair_matches_kairouz_oh_viswanath(k, power):
    r = Fraction(11, 10)
    target = r**power
    expected = (
        sum(
            (
                math.comb(k, j) * max(Fraction(0), r ** (k - j) - target * r**j)
                for j in range(k + 1)
            ),
            Fraction(0),
        )
        / (1 + r) ** k
    )
    assert bench.exact_delta("pure", k, target) == expected


def test_parameters_given_to_peers_are_rounded_up():
    for case in bench.CASES:
        value = bench.peer_parameter(case)
        exact = sympy.log(sympy.Rational(bench.RATIOS[case]))
        assert certify.compare(Fraction(value), exact) >= 0
        assert certify.compare(Fraction(math.nextafter(value, 0)), exact) < 0


def test_certified_order_reads_the_float_exactly():
    third = LogValue(Fraction(3))
    below = float(certify.decimal(third.to_sympy(), 17))
    while certify.compare(Fraction(below), third.to_sympy()) >= 0:
        below = math.nextafter(below, 0)
    assert bench.certified_order(below, third) == -1
    assert bench.certified_order(math.nextafter(below, math.inf), third) == 1
    assert bench.certified_order(0.25, Fraction(1, 4)) == 0
    assert bench.certified_order(0.1, Fraction(1, 10)) == 1  # the float 0.1 is above 1/10
