"""Accounting from the definitions (shared by tests and checks): explicit product laws, every event.

Nothing here calls exactpml's accounting code: laws are plain dicts outcome -> Fraction (or
sympy numbers), products are enumerated, the hockey-stick divergence is a maximum over
*every* event when the outcomes are few (else the pointwise sum that the maximising event
gives, which is the same number), and Rényi moments are plain sums.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import mpmath
import sympy


def law(distribution) -> dict:
    """A Distribution (or a dict) as a plain dict outcome -> probability."""
    return dict(distribution.items()) if hasattr(distribution, "items") else dict(distribution)


def product(*laws: dict) -> dict:
    """The product law on tuples of outcomes."""
    result: dict[tuple[Any, ...], Any] = {(): Fraction(1)}
    for factor in laws:
        result = {
            (*outcome, o): mass * f for outcome, mass in result.items() for o, f in factor.items()
        }
    return result


def power(one: dict, k: int) -> dict:
    return product(*([one] * k))


def subsets(items):
    items = list(items)
    return itertools.chain.from_iterable(
        itertools.combinations(items, r) for r in range(len(items) + 1)
    )


def _rational(value) -> sympy.Expr:
    return sympy.Rational(value.numerator, value.denominator)


def hockey_stick(p: dict, q: dict, ratio) -> object:
    """max over events S of P(S) - ratio·Q(S).

    Rational ratio: the maximum over *every* event when there are at most 12 outcomes, else
    the sum of the positive terms p(o) - ratio·q(o) (the maximising event).  Irrational ratio
    (a sympy number): the sum of the positive terms, signs decided at 60 digits (test side).
    """
    outcomes = list(p)
    if isinstance(ratio, Fraction):
        if len(outcomes) <= 12:
            return max(
                sum((p[o] - ratio * q[o] for o in event), Fraction(0))
                for event in subsets(outcomes)
            )
        return sum((max(Fraction(0), p[o] - ratio * q[o]) for o in outcomes), Fraction(0))
    total = sympy.Integer(0)
    for o in outcomes:
        term = _rational(p[o]) - ratio * _rational(q[o])
        if sympy.N(term, 60) > 0:
            total += term
    return total


def q_mass_where_p_vanishes(p: dict, q: dict) -> Fraction:
    return sum((q[o] for o in q if p[o] == 0), Fraction(0))


def renyi_moment(p: dict, q: dict, alpha: Fraction):
    """Σ_{p > 0} p^α q^{1-α} (None when some q = 0 < p: the divergence is infinite)."""
    total = sympy.Integer(0)
    for o in p:
        if p[o] == 0:
            continue
        if q[o] == 0:
            return None
        a = sympy.Rational(alpha.numerator, alpha.denominator)
        total += sympy.Rational(p[o].numerator, p[o].denominator) ** a * sympy.Rational(
            q[o].numerator, q[o].denominator
        ) ** (1 - a)
    return total


def randomized_response_pair(ratio: Fraction) -> tuple[dict, dict]:
    """Binary randomized response with e^ε = ratio: P = M(0), Q = M(1)."""
    keep = ratio / (1 + ratio)
    return {0: keep, 1: 1 - keep}, {0: 1 - keep, 1: keep}


def kairouz_delta(ratio: Fraction, k: int, i: int) -> Fraction:
    """δ of the k-fold composition of ε-DP at ε' = (k - 2i)ε, written from the definition
    of the binary RR pair: Σ over outcomes with loss > ε' of p - e^{ε'} q, with the
    outcomes grouped by the number j of "1" answers (binomial counts)."""
    keep = ratio / (1 + ratio)
    target = ratio ** (k - 2 * i)
    total = Fraction(0)
    for j in range(k + 1):  # j coordinates say "1" under P = M(0)^k
        p = math.comb(k, j) * keep ** (k - j) * (1 - keep) ** j
        q = math.comb(k, j) * (1 - keep) ** (k - j) * keep**j
        total += max(Fraction(0), p - target * q)
    return total


# --- continuous noise, written from the densities (mpmath at 60 digits; test side) -----------
def _mp_fraction(value) -> mpmath.mpf:
    """An mpf from a rational (or an mpf, returned as is)."""
    if isinstance(value, mpmath.mpf):
        return value
    value = Fraction(value)
    return mpmath.mpf(value.numerator) / value.denominator


def gaussian_mixture_delta(sigma, rate, epsilon, *, remove: bool = True):
    """δ(ε) = ∫ (p - e^ε q)_+ of the subsampled Gaussian pair at sensitivity 1, as an mpf.

    remove: p = (1-q) φ_σ(x) + q φ_σ(x - 1), q = φ_σ(x); add: the two swapped.  p/q is
    monotone in x (increasing for remove, decreasing for add), so {p > e^ε q} is the half-line
    beyond the root x* of p(x) = e^ε q(x), found here by mpmath's root finder; the integral is
    then a difference of normal tails (rate 1: the Gaussian mechanism, Balle & Wang 2018).
    """
    with mpmath.workdps(60):
        s, q, e = _mp_fraction(sigma), _mp_fraction(rate), _mp_fraction(epsilon)

        def tail(x, mean):  # P(N(mean, s²) > x)
            return mpmath.erfc((x - mean) / (s * mpmath.sqrt(2))) / 2

        def ratio_minus(x):  # (p - e^ε q)/q as a function of x (remove pair)
            mix = (1 - q) + q * mpmath.exp((2 * x - 1) / (2 * s * s))
            return (mix - mpmath.exp(e)) if remove else (1 - mpmath.exp(e) * mix)

        # the sign change of ratio_minus: (1-q) + q e^{(2x-1)/(2s²)} = c  <=>  x = ...
        target = mpmath.exp(e) if remove else mpmath.exp(-e)
        inner = (target - (1 - q)) / q
        if inner <= 0:  # p - e^ε q keeps one sign on the whole line
            whole = ratio_minus(mpmath.mpf(0)) > 0
            return (1 - mpmath.exp(e)) if whole else mpmath.mpf(0)
        x_star = s * s * mpmath.log(inner) + mpmath.mpf(1) / 2
        p_beyond = (1 - q) * tail(x_star, 0) + q * tail(x_star, 1)
        q_beyond = tail(x_star, 0)
        if remove:  # p > e^ε q for x > x*
            return p_beyond - mpmath.exp(e) * q_beyond
        # add: P = N(0), Q = mixture, p > e^ε q for x < x*
        return (1 - q_beyond) - mpmath.exp(e) * (1 - p_beyond)


def analytic_gaussian_epsilon(sigma, delta, *, digits: int = 40) -> tuple[Fraction, Fraction]:
    """(lo, hi), rationals within 10^-digits, with δ(lo) > δ >= δ(hi) for the Gaussian mechanism
    N(0, σ²) at sensitivity 1: δ(ε) = Φ(1/(2σ) - εσ) - e^ε Φ(-1/(2σ) - εσ) (Balle & Wang 2018,
    Thm 8), by bisection on exact rationals with signs read at 60 digits (test side)."""
    with mpmath.workdps(60):
        s, d = _mp_fraction(sigma), _mp_fraction(delta)

        def phi(x):
            return mpmath.erfc(-x / mpmath.sqrt(2)) / 2

        def value(e: Fraction):
            x = _mp_fraction(e)
            return phi(1 / (2 * s) - x * s) - mpmath.exp(x) * phi(-1 / (2 * s) - x * s)

        lo, hi = Fraction(0), Fraction(1)
        while value(hi) > d:
            lo, hi = hi, 2 * hi
        while hi - lo > Fraction(1, 10**digits):
            middle = (lo + hi) / 2
            if value(middle) > d:
                lo = middle
            else:
                hi = middle
        return lo, hi


def discrete_delta_with_gaussian(p: dict, q: dict, sigma, epsilon):
    """δ(ε) of the product pair (P × N(1, σ²), Q × N(0, σ²)) for a discrete pair (P, Q), as an
    mpf: conditioning on the discrete outcome o, H_{e^ε}(P×G1 || Q×G0) = Σ_o H over the
    Gaussian part at ε - log(p(o)/q(o)) weighted by p(o) (Σ_o q(o) (1 - e^ε) where p(o) = 0)."""
    with mpmath.workdps(60):
        total = mpmath.mpf(0)
        for o in p:
            po, qo = Fraction(p[o]), Fraction(q.get(o, 0))
            if po == 0:
                continue
            if qo == 0:
                total += _mp_fraction(po)
                continue
            shifted = _mp_fraction(epsilon) - mpmath.log(_mp_fraction(po / qo))
            total += _mp_fraction(po) * _gaussian_delta_mp(_mp_fraction(sigma), shifted)
        return total


def _gaussian_delta_mp(s, e):
    def phi(x):
        return mpmath.erfc(-x / mpmath.sqrt(2)) / 2

    return phi(1 / (2 * s) - e * s) - mpmath.exp(e) * phi(-1 / (2 * s) - e * s)
