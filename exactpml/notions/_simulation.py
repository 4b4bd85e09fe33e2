"""Simulation differential privacy (Vadhan, Def 2) with the optimal simulator, exactly.

M is ε-simulation-DP when a simulator S exists with, for every x, i,
``D_inf(M(x) || S(x_{-i})) <= ε`` and ``D_inf(S(x_{-i}) || M(x)) <= ε``.  S sees x with row
i removed (and knows i), so for each neighbourhood N = {(d, d_{-i}) : d in D} one
distribution s on the outputs must satisfy, with E = e^ε and p_x = M(x),

    p_x(y) / E  <=  s(y)  <=  E p_x(y)      for every x in N and every output y.

**The optimum.**  Let ``U(y) = max_{x in N} p_x(y)`` and ``u(y) = min_{x in N} p_x(y)``.  The
constraints say ``U(y)/E <= s(y) <= E u(y)``: a box.  A box meets the simplex
``{s >= 0, Σ s = 1}`` iff it is non-empty and its corner sums bracket 1, i.e. iff

    E² >= U(y)/u(y) for all y,   Σ_y U(y) <= E,   E Σ_y u(y) >= 1

(an output with ``u(y) = 0 < U(y)`` makes the box empty for every E: ε = ∞).  Hence

    E*(N) = max( sqrt(max_y U(y)/u(y)),  Σ_y U(y),  1 / Σ_y u(y) ),

attained by ``s = U/E* + λ (E* u - U/E*)`` with λ chosen so that Σ s = 1, and the
simulation ε of M is ``log max_N E*(N)``.  All three terms are compared through E*², which
is rational for a rational mechanism, so the optimum is exact (a square root appears only
in the final value).  Claim 1 of Vadhan (ε-DP ⇒ ε-simulation-DP ⇒ 2ε-DP) brackets it.

>>> from exactpml.database import DatabaseMechanism
>>> rr = DatabaseMechanism({(0,): {0: "3/4", 1: "1/4"}, (1,): {0: "1/4", 1: "3/4"}})
>>> print(simulation_epsilon(rr).value)
log(2)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy

from exactpml.core.decisions import prove_zero
from exactpml.core.display import abbreviated_fields_repr
from exactpml.core.distribution import Distribution
from exactpml.core.exact import (
    Scalar,
    as_scalar,
    exact_difference,
    exact_product,
    exact_quotient,
    exact_sum,
    to_sympy,
)
from exactpml.core.logvalue import LogValue
from exactpml.database import Database, as_database_mechanism
from exactpml.notions._common import bounded_explicit, compare_scalars

__all__ = ["OptimalSimulation", "optimal_simulator", "simulation_epsilon"]

Label = Hashable


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class OptimalSimulation:
    """The optimal simulator's ε and where it is attained.

    Attributes:
        value: ε as a LogValue (``log E*``; ``oo`` when no simulator exists).
        index: i of the worst neighbourhood (None when there are no entries to remove).
        others: d_{-i} of the worst neighbourhood.
        simulator: an optimal S(d_{-i}) (a Distribution on the outputs), None if ε = ∞.
    """

    value: LogValue
    index: int | None
    others: Database | None
    simulator: Distribution | None


def _max(a: Scalar, b: Scalar) -> Scalar:
    return a if compare_scalars(a, b) >= 0 else b


def _optimum_squared(
    rows: Sequence[Sequence[Scalar]],
) -> tuple[Scalar | None, list[Scalar], list[Scalar]]:
    """(E*², U, u) for one neighbourhood; E*² is None when no simulator exists."""
    columns = list(zip(*rows, strict=True))
    upper: list[Scalar] = []
    lower: list[Scalar] = []
    ratio_squared: Scalar = Fraction(1)
    for column in columns:
        high = column[0]
        low = column[0]
        for value in column[1:]:
            if compare_scalars(value, high) > 0:
                high = value
            if compare_scalars(value, low) < 0:
                low = value
        upper.append(high)
        lower.append(low)
        if prove_zero(high):
            continue
        if prove_zero(low):
            return None, upper, lower
        ratio_squared = _max(ratio_squared, exact_quotient(high, low))
    total_upper = exact_sum(upper)
    total_lower = exact_sum(lower)
    squared = _max(ratio_squared, exact_product(total_upper, total_upper))
    inverse = exact_quotient(Fraction(1), total_lower)
    squared = _max(squared, exact_product(inverse, inverse))
    return squared, upper, lower


def _sqrt(value: Scalar) -> Scalar:
    if type(value) is Fraction:
        root_n, root_d = _isqrt(value.numerator), _isqrt(value.denominator)
        if root_n is not None and root_d is not None:
            return Fraction(root_n, root_d)
    return as_scalar(sympy.sqrt(to_sympy(value)))


def _isqrt(value: int) -> int | None:
    root = math.isqrt(value)
    return root if root * root == value else None


def _simulator(upper: list[Scalar], lower: list[Scalar], ratio: Scalar) -> list[Scalar]:
    """s = U/E + λ (E u - U/E), Σ s = 1 (exists because Σ U/E <= 1 <= E Σ u)."""
    low = [exact_quotient(value, ratio) for value in upper]
    high = [exact_product(ratio, value) for value in lower]
    low_total, high_total = exact_sum(low), exact_sum(high)
    gap = exact_difference(high_total, low_total)
    if prove_zero(gap):
        return low
    weight = exact_quotient(exact_difference(Fraction(1), low_total), gap)
    return [
        exact_sum([a, exact_product(weight, exact_difference(b, a))])
        for a, b in zip(low, high, strict=True)
    ]


def optimal_simulator(
    mechanism: object, index: int, others: Database
) -> tuple[LogValue, Distribution | None]:
    """(log E*, an optimal simulator) for the neighbourhood {(d, d_{-i}) : d in D}."""
    checked = as_database_mechanism(mechanism)
    space = checked.space
    others = space.check_others(others, index)
    explicit = bounded_explicit(checked, where="optimal_simulator")
    rows = [
        explicit.mechanism.rows[explicit.mechanism.input_position(x)]
        for x in (space.insert(others, index, d) for d in space.alphabet)
    ]
    return _solve(rows, explicit.mechanism.outputs)


def _solve(
    rows: Sequence[Sequence[Scalar]], outputs: Sequence[Label]
) -> tuple[LogValue, Distribution | None]:
    squared, upper, lower = _optimum_squared(rows)
    if squared is None:
        return LogValue.infinity(), None
    ratio = _sqrt(squared)
    simulator = _simulator(upper, lower, ratio)
    return LogValue(ratio), Distribution._trusted(outputs, simulator)


def simulation_epsilon(mechanism: object) -> OptimalSimulation:
    """The ε of the optimal simulator (Vadhan, Def 2), exactly, with the worst d_{-i}.

    See the module docstring for the closed form of the optimum.  Structured mechanisms
    compute through their sufficient statistic (one neighbourhood per distinct set of
    statistic values).
    """
    checked = as_database_mechanism(mechanism)
    reduction = checked.reduction()
    best: Scalar | None = None
    where: tuple[Callable[[], tuple[int, Database]], list[Scalar], list[Scalar]] | None = None
    seen: set[frozenset[Label]] = set()
    for values, witness in reduction.neighbourhoods():
        key = frozenset(values)
        if key in seen:
            continue
        seen.add(key)
        rows = [reduction.row(v) for v in dict.fromkeys(values)]
        squared, upper, lower = _optimum_squared(rows)
        if squared is None:
            index, others = witness()
            return OptimalSimulation(LogValue.infinity(), index, tuple(others), None)
        if best is None or compare_scalars(squared, best) > 0:
            best, where = squared, (witness, upper, lower)
    if best is None or where is None:
        return OptimalSimulation(LogValue(1), None, None, None)
    ratio = _sqrt(best)
    simulator = Distribution._trusted(reduction.outputs, _simulator(where[1], where[2], ratio))
    index, others = where[0]()
    return OptimalSimulation(LogValue(ratio), index, tuple(others), simulator)
