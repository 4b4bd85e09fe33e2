"""Vadhan's simulation-based definition, in exact arithmetic, from the definition.

Vadhan, *Notes on the Definition of Differential Privacy*, Def 2 and Claim 1: a mechanism is
ε-simulation-DP if for every i and x_{-i} some simulator S has D∞(M(x) ‖ S) ≤ ε and
D∞(S ‖ M(x)) ≤ ε for every member x of the neighbourhood.  The optimal simulator is
re-derived here in exact arithmetic of Q(√c) (:class:`Surd`): a lower bound from three
necessary conditions and a simulator that meets it, each constraint verified from the
definition; :func:`simulator_ratio` reads the least E of a given simulator.  No code shared
with :mod:`exactpml.notions`.  A ratio ``None`` stands for +∞.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.exact import to_sympy
from proofs_check.reference.divergences import Ratio

__all__ = [
    "Surd",
    "box_simulator",
    "simulation_lower_bound_squared",
    "simulator_ratio",
    "sqrt_surd",
    "surd",
    "verify_simulator",
]

Row = tuple[Fraction, ...]


@dataclass(frozen=True, slots=True)
class Surd:
    """``a + b√c`` with rationals a, b and a fixed positive rational c (not a square)."""

    a: Fraction
    b: Fraction
    c: Fraction

    def __add__(self, other: Surd) -> Surd:
        return Surd(self.a + other.a, self.b + other.b, self.c)

    def __sub__(self, other: Surd) -> Surd:
        return Surd(self.a - other.a, self.b - other.b, self.c)

    def __mul__(self, other: Surd) -> Surd:
        return Surd(
            self.a * other.a + self.b * other.b * self.c,
            self.a * other.b + self.b * other.a,
            self.c,
        )

    def __truediv__(self, other: Surd) -> Surd:
        norm = other.a * other.a - other.b * other.b * self.c
        if norm == 0:
            raise ZeroDivisionError("division by zero in Q(√c)")
        conjugate = Surd(other.a / norm, -other.b / norm, self.c)
        return self * conjugate

    def sign(self) -> int:
        """The exact sign of a + b√c."""
        sa, sb = (self.a > 0) - (self.a < 0), (self.b > 0) - (self.b < 0)
        if sb == 0 or sa == sb:
            return sa or sb
        if sa == 0:
            return sb
        square_a, square_b = self.a * self.a, self.b * self.b * self.c
        return sa if square_a > square_b else (sb if square_b > square_a else 0)

    def to_sympy(self) -> sympy.Expr:
        """The number as a sympy expression."""
        return to_sympy(self.a) + to_sympy(self.b) * sympy.sqrt(to_sympy(self.c))


def surd(value: Fraction, c: Fraction) -> Surd:
    """The rational ``value`` as an element of Q(√c)."""
    return Surd(value, Fraction(0), c)


def sqrt_surd(c: Fraction) -> Surd:
    """√c in Q(√c) (a rational when c is a square of a rational)."""
    top, bottom = math.isqrt(c.numerator), math.isqrt(c.denominator)
    if top * top == c.numerator and bottom * bottom == c.denominator:
        return Surd(Fraction(top, bottom), Fraction(0), c)
    return Surd(Fraction(0), Fraction(1), c)


def simulation_lower_bound_squared(rows: Sequence[Row]) -> Ratio:
    """The least E² that Def 2's constraints allow for one neighbourhood (None: none does).

    A simulator s with ``p_x/E <= s <= E p_x`` for every member x needs, with U = max_x p_x
    and u = min_x p_x per output: ``U(y)/E <= E u(y)`` (so E² >= U/u), ``Σ U/E <= Σ s = 1``
    and ``1 <= E Σ u``.  An output with u(y) = 0 < U(y) admits no E.
    """
    squared = Fraction(1)
    upper: list[Fraction] = []
    lower: list[Fraction] = []
    for column in zip(*rows, strict=True):
        high, low = max(column), min(column)
        upper.append(high)
        lower.append(low)
        if high == 0:
            continue
        if low == 0:
            return None
        squared = max(squared, high / low)
    total_upper, total_lower = sum(upper, Fraction(0)), sum(lower, Fraction(0))
    return max(squared, total_upper * total_upper, 1 / (total_lower * total_lower))


def box_simulator(rows: Sequence[Row], squared: Fraction) -> list[Surd]:
    """A simulator s for one neighbourhood at E = √squared: s = U/E + λ(E u - U/E), Σ s = 1."""
    root = sqrt_surd(squared)
    one = surd(Fraction(1), squared)
    columns = list(zip(*rows, strict=True))
    low = [surd(max(column), squared) / root for column in columns]
    high = [root * surd(min(column), squared) for column in columns]
    low_total = sum(low[1:], low[0])
    high_total = sum(high[1:], high[0])
    gap = high_total - low_total
    if gap.sign() == 0:
        return low
    weight = (one - low_total) / gap
    return [a + weight * (b - a) for a, b in zip(low, high, strict=True)]


def verify_simulator(rows: Sequence[Row], simulator: Sequence[Surd], squared: Fraction) -> bool:
    """Def 2 for one neighbourhood at E = √squared, from the definition and exactly.

    s is a distribution (s >= 0, Σ s = 1), and for every member x and output y:
    ``p_x(y) <= E s(y)`` (D∞(M(x) || S) <= log E) and ``s(y) <= E p_x(y)`` (D∞(S || M(x)) <=
    log E).
    """
    root = sqrt_surd(squared)
    total = sum(simulator[1:], simulator[0])
    if (total - surd(Fraction(1), squared)).sign() != 0:
        return False
    if any(s.sign() < 0 for s in simulator):
        return False
    for row in rows:
        for p, s in zip(row, simulator, strict=True):
            mass = surd(p, squared)
            if (root * s - mass).sign() < 0 or (root * mass - s).sign() < 0:
                return False
    return True


def simulator_ratio(
    members_rows: Sequence[Mapping[Any, Fraction]], simulator: Mapping[Any, Fraction]
) -> Ratio:
    """The smallest E with p_x/E <= s <= E p_x for every member x (``None``: no finite E)."""
    best = Fraction(1)
    for row in members_rows:
        for y, p in row.items():
            s = simulator[y]
            if p == 0 and s == 0:
                continue
            if p == 0 or s == 0:
                return None
            best = max(best, p / s, s / p)
    return best
