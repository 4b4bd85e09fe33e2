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
