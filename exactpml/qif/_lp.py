"""Exact feasibility of {x >= 0 : A x = b} by the simplex method over exact rationals (private).

Phase 1 of the simplex method with one artificial variable per row, minimising their sum,
with Bland's rule (smallest index enters; ties in the ratio test leave by smallest basic
index), which cannot cycle.  Every pivot is exact, so the answer is exact:

* feasible: a point x (checked again by exact substitution before it is returned);
* infeasible: a Farkas certificate y with y^T A <= 0 componentwise and y^T b > 0 (read off
  the reduced costs of the artificial columns at the phase-1 optimum), which proves that no
  x >= 0 solves A x = b (then 0 >= y^T A x = y^T b > 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from flint import fmpq

from exactpml.errors import ExactPMLError

__all__ = ["feasible_point"]


def feasible_point(
    matrix: Sequence[Sequence[Fraction]], right: Sequence[Fraction]
) -> tuple[list[Fraction] | None, list[Fraction] | None]:
    """``(x, None)`` with x >= 0 and A x = b, or ``(None, y)`` with a Farkas certificate y.

    The pivots run on FLINT rationals (``fmpq``, exact and several times faster than
    ``Fraction``); the answer is returned as ``Fraction``.
    """
    point, certificate = _phase_one(
        [[fmpq(v.numerator, v.denominator) for v in row] for row in matrix],
        [fmpq(b.numerator, b.denominator) for b in right],
    )
    as_fraction = _fraction
    if point is not None:
        result = [as_fraction(v) for v in point]
        for row, b in zip(matrix, right, strict=True):
            if sum((a * x for a, x in zip(row, result, strict=True)), Fraction(0)) != b:
                raise ExactPMLError("simplex: the feasible point fails A x = b (internal error)")
        return result, None
    assert certificate is not None
    return None, [as_fraction(v) for v in certificate]


def _fraction(value: Any) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def _phase_one(
    matrix: list[list[Any]], right: list[Any]
) -> tuple[list[Any] | None, list[Any] | None]:
    """The simplex itself, on ``fmpq`` entries (see :func:`feasible_point`)."""
    rows = len(matrix)
    columns = len(matrix[0]) if rows else 0
    one, zero = fmpq(1), fmpq(0)
    signs = [-one if b < 0 else one for b in right]
    # tableau: original columns, then one artificial per row, then the right-hand side
    tableau = [
        [s * v for v in row] + [one if k == i else zero for k in range(rows)] + [s * b]
        for i, (row, b, s) in enumerate(zip(matrix, right, signs, strict=True))
    ]
    basis = [columns + i for i in range(rows)]
    total = columns + rows
    # reduced costs of the phase-1 objective (sum of artificials): c_j - c_B B^-1 A_j
    cost = [zero] * columns + [one] * rows
    reduced = [cost[j] - sum((tableau[i][j] for i in range(rows)), zero) for j in range(total)]
    value = -sum((tableau[i][-1] for i in range(rows)), zero)  # -(objective)
    while True:
        entering = next((j for j in range(total) if reduced[j] < 0), None)
        if entering is None:
            break
        best: tuple[Any, int, int] | None = None
        for i in range(rows):
            coefficient = tableau[i][entering]
            if coefficient > 0:
                candidate = (tableau[i][-1] / coefficient, basis[i], i)
                if best is None or candidate[:2] < best[:2]:
                    best = candidate
        if best is None:  # cannot happen: the phase-1 objective is bounded below by 0
            raise ExactPMLError("simplex: unbounded phase-1 problem (internal error)")
        pivot_row = best[2]
        head = tableau[pivot_row][entering]
        tableau[pivot_row] = [v / head for v in tableau[pivot_row]]
        pivot = tableau[pivot_row]
        for i in range(rows):
            factor = tableau[i][entering]
            if i != pivot_row and factor:
                tableau[i] = [a - factor * b for a, b in zip(tableau[i], pivot, strict=True)]
        factor = reduced[entering]
        reduced = [a - factor * b for a, b in zip(reduced, pivot[:-1], strict=True)]
        value -= factor * pivot[-1]
        basis[pivot_row] = entering
    objective = -value
    if objective > 0:
        # y_i = c_i - reduced_i on the artificial columns (c_i = 1), undoing the row signs
        certificate = [(1 - reduced[columns + i]) * signs[i] for i in range(rows)]
        return None, certificate
    point = [zero] * columns
    for i, j in enumerate(basis):
        if j < columns:
            point[j] = tableau[i][-1]
    return point, None
