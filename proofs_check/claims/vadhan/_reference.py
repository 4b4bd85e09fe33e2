"""Reference computations for the ``vadhan.*`` checks, straight from the definitions.

Independent of :mod:`exactpml.notions` (which the checks also call and compare with):

* explicit database mechanisms as plain exact tables (:class:`Table`), so that a shrunk
  counterexample prints every probability;
* the max-divergence as a maximum over every event T, the statistical difference as a
  maximum over every event, the DP ratio e^ε as a maximum over neighbourhoods;
* the optimal simulator of Vadhan's Def 2 re-derived in exact arithmetic of Q(√c)
  (:class:`Surd`): a lower bound from three necessary conditions and a simulator that meets
  it, each constraint verified from the definition;
* the distances of Prop 2 and its Remark (total variation, Hellinger, KL) between a prior
  on a neighbourhood and its posterior, as unevaluated sympy expressions that
  :mod:`exactpml.certify` encloses (evaluating them symbolically costs far more).

A ratio ``None`` means +∞ throughout.  Rational inputs only; every decision is exact or
certified.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy
from hypothesis import strategies as st

from exactpml import strategies as xst
from exactpml.core.mechanism import Mechanism
from exactpml.database import DatabaseMechanism

__all__ = [
    "Ratio",
    "Surd",
    "Table",
    "box_simulator",
    "column_ratio",
    "dp_ratio",
    "events",
    "half_l1",
    "law_of_column",
    "max_ratio_over_events",
    "max_ratio_over_points",
    "neighbour_pairs",
    "neighbourhoods",
    "prior_posterior_distances",
    "ratio_at_most",
    "rational",
    "simulation_lower_bound_squared",
    "sqrt_surd",
    "statistical_difference_by_events",
    "surd",
    "tables",
    "total_variation_surd",
    "verify_simulator",
]

Ratio = Fraction | None
"""An exact ratio e^D in [0, +∞]; ``None`` is +∞."""

Row = tuple[Fraction, ...]


def ratio_at_most(value: Ratio, bound: Ratio) -> bool:
    """``value <= bound`` for ratios in [0, +∞] (``None`` = +∞)."""
    if bound is None:
        return True
    return value is not None and value <= bound


def rational(value: Fraction) -> sympy.Rational:
    """The sympy rational of a Fraction."""
    return sympy.Rational(value.numerator, value.denominator)


# --- explicit mechanisms as plain data -----------------------------------------------------
@dataclass(frozen=True, slots=True)
class Table:
    """An explicit database mechanism on D^n, D = {0, …, k-1}: p(y | x) for every x in D^n.

    Attributes:
        letters: k = |D|.
        size: n.
        rows: ``(x, (p(0|x), p(1|x), …))`` for every database x, in lexicographic order.
    """

    letters: int
    size: int
    rows: tuple[tuple[tuple[int, ...], Row], ...]

    def __repr__(self) -> str:
        shown = "; ".join(f"{x}: [{', '.join(str(p) for p in row)}]" for x, row in self.rows)
        return f"p(y|x) on D^n, D={{0..{self.letters - 1}}}, n={self.size}, y=0,1,..: {shown}"

    @property
    def outputs(self) -> int:
        """The number of outputs."""
        return len(self.rows[0][1])

    def row(self, x: tuple[int, ...]) -> Row:
        """p(· | x)."""
        return self.rows[_index(x, self.letters)][1]

    def mechanism(self) -> DatabaseMechanism:
        """The same mechanism as an exactpml DatabaseMechanism."""
        kernel = Mechanism.from_matrix(
            [row for _, row in self.rows], inputs=[x for x, _ in self.rows]
        )
        return DatabaseMechanism(kernel, alphabet=range(self.letters), size=self.size)


def _index(x: tuple[int, ...], letters: int) -> int:
    position = 0
    for entry in x:
        position = position * letters + entry
    return position


def _table(mechanism: DatabaseMechanism) -> Table:
    kernel = mechanism.mechanism
    rows = tuple(
        (tuple(x), tuple(Fraction(p) for p in kernel.rows[kernel.input_position(x)]))
        for x in mechanism.space.databases()
    )
    return Table(len(mechanism.space.alphabet), mechanism.space.size, rows)


def tables(*, zeros: bool | None = None, max_databases: int = 27) -> st.SearchStrategy[Table]:
    """Random explicit mechanisms (n <= 3, |D| <= 3, 1 to 4 outputs) as :class:`Table`.

    ``zeros``: True allows zero probabilities (infinite ratios), False forbids them, None
    draws either.
    """

    @st.composite
    def draw_table(draw: st.DrawFn) -> Table:
        allow = draw(st.booleans()) if zeros is None else zeros
        return _table(draw(xst.database_mechanisms(zeros=allow, max_databases=max_databases)))

    return draw_table()


def neighbourhoods(table: Table) -> Iterator[tuple[int, tuple[int, ...], list[Row]]]:
    """``(i, x_{-i}, [p(·|(d, x_{-i})) for d in D])`` for every i and x_{-i}."""
    letters = range(table.letters)
    for i in range(table.size):
        for others in itertools.product(letters, repeat=table.size - 1):
            members = [(*others[:i], d, *others[i:]) for d in letters]
            yield i, others, [table.row(x) for x in members]


def neighbour_pairs(table: Table) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every ordered pair (x, x') of databases differing in exactly one entry."""
    for x, _ in table.rows:
        for i in range(table.size):
            for d in range(table.letters):
                if d != x[i]:
                    yield x, (*x[:i], d, *x[i + 1 :])


# --- divergences and distances from the definitions ----------------------------------------
def events(size: int) -> Iterator[tuple[int, ...]]:
    """Every non-empty event T ⊆ {0, …, size-1}."""
    for count in range(1, size + 1):
        yield from itertools.combinations(range(size), count)


def max_ratio_over_events(p: Sequence[Fraction], q: Sequence[Fraction]) -> Ratio:
    """``max_T P(T)/Q(T)`` over events with P(T) > 0 (+∞ if Q(T) = 0 < P(T))."""
    best: Fraction = Fraction(0)
    for event in events(len(p)):
        mass_p = sum((p[y] for y in event), Fraction(0))
        if mass_p == 0:
            continue
        mass_q = sum((q[y] for y in event), Fraction(0))
        if mass_q == 0:
            return None
        best = max(best, mass_p / mass_q)
    return best


def max_ratio_over_points(
    p: Sequence[Fraction], q: Sequence[Fraction], *, skip_infinite: bool = False
) -> Ratio:
    """``max_y P(y)/Q(y)`` over y with P(y) > 0 (+∞ if Q(y) = 0 < P(y)).

    ``skip_infinite`` ignores the points with Q(y) = 0 (a mutant).
    """
    best = Fraction(0)
    for a, b in zip(p, q, strict=True):
        if a == 0:
            continue
        if b == 0:
            if skip_infinite:
                continue
            return None
        best = max(best, a / b)
    return best


def statistical_difference_by_events(p: Sequence[Fraction], q: Sequence[Fraction]) -> Fraction:
    """``max_T |P(T) - Q(T)|`` over every event T (Vadhan §1.1, as written)."""
    best = Fraction(0)
    for event in events(len(p)):
        best = max(best, abs(sum((p[y] - q[y] for y in event), Fraction(0))))
    return best


def half_l1(p: Sequence[Fraction], q: Sequence[Fraction]) -> Fraction:
    """``½ Σ_y |p(y) - q(y)|`` (equal to the statistical difference)."""
    return sum((abs(a - b) for a, b in zip(p, q, strict=True)), Fraction(0)) / 2


def column_ratio(column: Sequence[Fraction]) -> Ratio:
    """``max/min`` of a column of a neighbourhood; 1 for an all-zero column, +∞ if min = 0."""
    high, low = max(column), min(column)
    if high == 0:
        return Fraction(1)
    if low == 0:
        return None
    return high / low


def dp_ratio(table: Table) -> Ratio:
    """e^ε of ε-DP: the largest column ratio over every neighbourhood (1 if |D| = 1)."""
    best = Fraction(1)
    for _, _, rows in neighbourhoods(table):
        for column in zip(*rows, strict=True):
            ratio = column_ratio(column)
            if ratio is None:
                return None
            best = max(best, ratio)
    return best


# --- exact arithmetic in Q(√c) for the optimal simulator -----------------------------------
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
        return rational(self.a) + rational(self.b) * sympy.sqrt(rational(self.c))


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


# --- prior vs posterior on a neighbourhood (Prop 2 and its Remark) -------------------------
def law_of_column(
    column: Sequence[Fraction], prior: Sequence[Fraction]
) -> dict[Fraction, Fraction]:
    """The law of p_d = Pr[M(d, x_{-i}) = y] under the prior (positive weights only).

    Prior and posterior depend on the prior only through this law (Bayes' rule multiplies
    π_d by p_d / Σ π p), and so does every distance between them.
    """
    law: dict[Fraction, Fraction] = {}
    for value, weight in zip(column, prior, strict=True):
        if weight:
            law[value] = law.get(value, Fraction(0)) + weight
    return law


def total_variation_surd(column: Sequence[Fraction], prior: Sequence[Surd]) -> Surd:
    """½ Σ |π_d - π'_d| between a prior in Q(√c) and its posterior, exactly."""
    c = prior[0].c
    values = [surd(value, c) for value in column]
    mass = _total([w * v for w, v in zip(prior, values, strict=True)])
    differences = [w - w * v / mass for w, v in zip(prior, values, strict=True)]
    return _total([d if d.sign() >= 0 else surd(Fraction(0), c) - d for d in differences]) / surd(
        Fraction(2), c
    )


def _total(values: Sequence[Surd]) -> Surd:
    return sum(values[1:], values[0])


def prior_posterior_distances(column: Sequence[Any], prior: Sequence[Any]) -> dict[str, sympy.Expr]:
    """Squared Hellinger distance and KL(prior || posterior) for a prior on a neighbourhood.

    ``column[d]`` = Pr[M(d, x_{-i}) = y] > 0 and ``prior[d]`` = Pr[X_i = d] (rationals or
    sympy numbers, Σ prior = 1).  The posterior is Bayes' rule ``π_d·p_d / Σ π p``.
    Definitions: H² = 1 - Σ sqrt(π_d π'_d) (the Hellinger distance is H), KL = Σ_{π_d > 0}
    π_d log(π_d / π'_d).  Built unevaluated (fast); :mod:`exactpml.certify` encloses them.
    """
    with sympy.evaluate(False):
        weights = [sympy.sympify(w) for w in prior]
        values = [sympy.sympify(v) for v in column]
        mass = sympy.Add(*[w * v for w, v in zip(weights, values, strict=True)])
        posterior = [w * v / mass for w, v in zip(weights, values, strict=True)]
        pairs = [(w, q) for w, q, raw in zip(weights, posterior, prior, strict=True) if raw != 0]
        hellinger_squared = 1 - sympy.Add(*[sympy.sqrt(w * q) for w, q in pairs])
        kl = sympy.Add(*[w * sympy.log(w / q) for w, q in pairs])
    return {"Hellinger²": hellinger_squared, "KL": kl}
