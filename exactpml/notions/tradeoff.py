"""f-differential privacy: the exact trade-off curve of two finite laws (Dong, Roth, Su 2019).

For laws P, Q on a finite set, the trade-off function (Dong, Roth, Su 2019, Def 2.1) is

    T(P, Q)(α) = inf { β_φ : α_φ <= α },  α_φ = E_P[φ],  β_φ = 1 - E_Q[φ],

the least type-II error of a test of P against Q at type-I error α.  By Neyman–Pearson the
optimal tests reject the outputs of largest likelihood ratio q/p first (randomising on one
level set), so T(P, Q) is the convex, piecewise-linear curve through the points obtained by
adding the level sets of q/p in decreasing order: starting from ``(0, 1 - Q(p = 0))`` (the
outputs P never produces are rejected for free), each level set {q/p = r} moves the point
by ``(P(level), -Q(level))``, ending at ``(1, 0)``.  :func:`tradeoff_curve` returns those
breakpoints exactly.

The convex conjugate ``f*(y) = sup_α (yα - f(α))`` links f-DP to (ε, δ)-DP (Dong, Roth, Su
2019, Prop 2.12): ``1 + f*(-e^ε) = sup_S Q(S) - e^ε P(S) = H_{e^ε}(Q || P)`` for every real
ε (:meth:`TradeoffCurve.delta_for_epsilon`); the supremum of a piecewise-linear function is
attained at a breakpoint, so it is a maximum over finitely many exact values.

>>> from exactpml import Distribution
>>> curve = tradeoff_curve(Distribution({0: "3/4", 1: "1/4"}), Distribution({0: "1/4", 1: "3/4"}))
>>> print(curve)
TradeoffCurve((0, 1), (1/4, 1/4), (1, 0))
>>> curve("1/8"), curve.delta_for_epsilon(0)
(Fraction(5, 8), Fraction(1, 2))
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import exact_compare, prove_zero
from exactpml.core.distribution import Distribution
from exactpml.core.exact import (
    Scalar,
    exact_difference,
    exact_product,
    exact_quotient,
    exact_sum,
)
from exactpml.core.parameters import exp_epsilon_of, probability, real_number
from exactpml.errors import InvalidArgument
from exactpml.notions._common import check_distribution_pair

__all__ = ["TradeoffCurve", "dp_tradeoff_curve", "tradeoff_curve"]

Point = tuple[Scalar, Scalar]


@dataclass(frozen=True, slots=True)
class TradeoffCurve:
    """A convex, non-increasing, piecewise-linear trade-off function on [0, 1].

    Attributes:
        breakpoints: the points (α_i, β_i), α strictly increasing from 0 to 1; the curve is
            the linear interpolation between consecutive points.
    """

    breakpoints: tuple[Point, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "breakpoints", _checked_breakpoints(self.breakpoints))

    def __call__(self, alpha: object) -> Scalar:
        """f(α) by exact linear interpolation (α in [0, 1])."""
        level = probability(alpha, name="alpha")
        points = self.breakpoints
        for (a0, b0), (a1, b1) in itertools.pairwise(points):
            if exact_compare(level, a1) <= 0:
                share = exact_quotient(exact_difference(level, a0), exact_difference(a1, a0))
                return exact_sum([b0, exact_product(share, exact_difference(b1, b0))])
        return points[-1][1]

    def conjugate(self, y: object) -> Scalar:
        """f*(y) = sup_{α in [0,1]} (yα - f(α)): a maximum over the breakpoints (exact)."""
        slope = _number(y)
        return _maximum([exact_difference(exact_product(slope, a), b) for a, b in self.breakpoints])

    def delta_for_epsilon(self, epsilon: object = None, *, exp_epsilon: object = None) -> Scalar:
        """1 + f*(-e^ε) (Dong, Roth, Su 2019, Prop 2.12): H_{e^ε}(Q || P) for every real ε."""
        ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
        if ratio is sympy.oo:  # the limit: 1 - f(0)... minus nothing: Q-mass where P vanishes
            return exact_difference(Fraction(1), self.breakpoints[0][1])
        return exact_sum([Fraction(1), self.conjugate(exact_difference(Fraction(0), ratio))])

    def dominates(self, other: TradeoffCurve) -> bool:
        """True when this curve is >= ``other`` everywhere on [0, 1] (self is "more private").

        Both are piecewise linear, so their difference is linear between the union of
        their breakpoints: comparing there decides it exactly.
        """
        alphas = sorted(
            {a for a, _ in self.breakpoints} | {a for a, _ in other.breakpoints},
            key=functools.cmp_to_key(exact_compare),
        )
        return all(exact_compare(self(a), other(a)) >= 0 for a in alphas)

    def __str__(self) -> str:
        points = (f"({abbreviated(a, None)}, {abbreviated(b, None)})" for a, b in self.breakpoints)
        return "TradeoffCurve(" + ", ".join(points) + ")"


def _checked_breakpoints(points: object) -> tuple[Point, ...]:
    """The breakpoints of a trade-off function (Dong, Roth, Su 2019, Prop 2.2: convex,
    continuous, non-increasing, f(α) <= 1 - α), parsed exactly; anything else is refused
    naming the entry."""
    if isinstance(points, str | bytes) or not isinstance(points, Sequence):
        raise InvalidArgument(
            f"TradeoffCurve: breakpoints={abbreviated_repr(points)} must be a sequence of "
            "(alpha, beta) pairs"
        )
    if len(points) < 2:
        raise InvalidArgument(
            f"TradeoffCurve: breakpoints={abbreviated_repr(points)} needs at least the points "
            "at alpha = 0 and alpha = 1"
        )
    parsed: list[Point] = []
    for index, point in enumerate(points):
        where = f"TradeoffCurve: breakpoints[{index}]"
        if isinstance(point, str | bytes) or not isinstance(point, Sequence) or len(point) != 2:
            raise InvalidArgument(
                f"{where}={abbreviated_repr(point)} must be an (alpha, beta) pair"
            )
        alpha = probability(point[0], name=f"{where} alpha")
        beta = probability(point[1], name=f"{where} beta")
        if exact_compare(beta, exact_difference(Fraction(1), alpha)) > 0:
            raise InvalidArgument(
                f"{where}=({abbreviated(alpha, None)}, {abbreviated(beta, None)}) is above "
                "1 - alpha (no trade-off function is: the test that ignores the output has "
                "beta = 1 - alpha)"
            )
        if parsed:
            (a0, b0) = parsed[-1]
            if exact_compare(alpha, a0) <= 0:
                raise InvalidArgument(f"{where}: alpha must increase strictly along the curve")
            if exact_compare(beta, b0) > 0:
                raise InvalidArgument(f"{where}: beta must not increase along the curve")
            if len(parsed) >= 2:  # slopes non-decreasing: (b0-bm)(alpha-a0) <= (beta-b0)(a0-am)
                (am, bm) = parsed[-2]
                left = exact_product(exact_difference(b0, bm), exact_difference(alpha, a0))
                right = exact_product(exact_difference(beta, b0), exact_difference(a0, am))
                if exact_compare(left, right) > 0:
                    raise InvalidArgument(
                        f"{where}: the curve must be convex (its slope decreases at "
                        f"breakpoints[{index - 1}])"
                    )
        parsed.append((alpha, beta))
    if exact_compare(parsed[0][0], Fraction(0)) != 0 or exact_compare(parsed[-1][0], Fraction(1)):
        raise InvalidArgument(
            "TradeoffCurve: breakpoints must run from alpha = 0 to alpha = 1 (got "
            f"{abbreviated(parsed[0][0], None)} to {abbreviated(parsed[-1][0], None)})"
        )
    return tuple(parsed)


def _number(value: object) -> Scalar:
    return real_number(value, name="y")


def _maximum(values: Sequence[Scalar]) -> Scalar:
    best = values[0]
    for value in values[1:]:
        if exact_compare(value, best) > 0:
            best = value
    return best


def tradeoff_curve(p: Distribution, q: Distribution) -> TradeoffCurve:
    """T(P, Q) of Dong, Roth, Su 2019, Def 2.1, as exact breakpoints (module docstring).

    >>> from exactpml import Distribution
    >>> print(tradeoff_curve(Distribution({0: 1, 1: 0}), Distribution({0: "1/2", 1: "1/2"})))
    TradeoffCurve((0, 1/2), (1, 0))
    """
    p, q = check_distribution_pair(p, q)
    free: Scalar = Fraction(0)  # Q-mass where P vanishes: rejected at no type-I cost
    levels: dict[Any, list[tuple[Scalar, Scalar]]] = {}
    for outcome, a in p.items():
        b = q[outcome]
        if prove_zero(a):
            free = exact_sum([free, b])
            continue
        key = exact_quotient(b, a)
        levels.setdefault(key, []).append((a, b))
    keys = list(levels)
    if all(type(k) is Fraction for k in keys):
        keys.sort(reverse=True)
    else:
        keys.sort(key=functools.cmp_to_key(exact_compare), reverse=True)
    alpha: Scalar = Fraction(0)
    beta: Scalar = exact_difference(Fraction(1), free)
    points: list[Point] = [(alpha, beta)]
    for key in keys:
        alpha = exact_sum([alpha, *(a for a, _ in levels[key])])
        beta = exact_difference(beta, exact_sum([b for _, b in levels[key]]))
        if exact_compare(alpha, points[-1][0]) == 0:  # pragma: no cover - masses are positive
            points[-1] = (alpha, beta)
        else:
            points.append((alpha, beta))
    return TradeoffCurve(tuple(points))


def dp_tradeoff_curve(
    epsilon: object = None, *, exp_epsilon: object = None, delta: object = 0
) -> TradeoffCurve:
    """f_{ε,δ}(α) = max(0, 1 - δ - e^ε α, e^{-ε}(1 - δ - α)) (Dong, Roth, Su 2019, eq. (5)).

    A mechanism is (ε, δ)-DP exactly when it is f_{ε,δ}-DP (ibid., Prop 2.5, after
    Wasserman, Zhou 2010 and Kairouz, Oh, Viswanath 2015).

    >>> print(dp_tradeoff_curve(exp_epsilon=3))
    TradeoffCurve((0, 1), (1/4, 1/4), (1, 0))
    """
    ratio = exp_epsilon_of(epsilon, exp_epsilon, enclosed=True)
    if ratio is sympy.oo:
        raise InvalidArgument("epsilon must be finite")
    rest = exact_difference(Fraction(1), probability(delta, name="delta"))
    corner = exact_quotient(rest, exact_sum([Fraction(1), ratio]))  # where the pieces meet
    points: list[Point] = []
    for point in ((Fraction(0), rest), (corner, corner), (rest, Fraction(0))):
        if not points or exact_compare(point[0], points[-1][0]) > 0:
            points.append(point)
    if exact_compare(rest, Fraction(1)) < 0:
        points.append((Fraction(1), Fraction(0)))
    return TradeoffCurve(tuple(points))
