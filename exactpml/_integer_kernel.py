"""Fast exact arithmetic for rational kernels: an integer matrix with one denominator per row.

Row x of a rational kernel is stored as integers ``numerators[x]`` over the row's common
denominator ``denominators[x]`` (so the numerators of a row sum to its denominator).  The
two operations every leakage measure needs are done here, exactly:

* :meth:`IntegerKernel.column_extremes`: for each column, the rows holding its largest and
  smallest entry.  A float64 pass proposes candidates; each candidate is then *verified* by
  exact integer cross-multiplication against every row (``n_x d_c <= n_c d_x``), and any
  column whose candidate fails verification is recomputed with Python integers.  The float
  pass only saves time; no decision rests on it.
* :meth:`IntegerKernel.weighted_column_sums`: ``sum_x w_x p(y|x)`` for exact weights (e.g.
  the output distribution p_Y under a prior), as one integer matrix-vector product: numpy
  int64 when a bound computed beforehand rules out overflow, FLINT ``fmpz_mat`` otherwise.

Measured on this machine (benchmarks/bench_channel.py): see the README's table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["IntegerKernel"]

_INT64_SAFE = 2**62  # products/sums below this bound cannot overflow int64
_CROSS_SAFE = 2**31  # numerators and denominators below this: n1 * d2 fits in int64


@dataclass(frozen=True, slots=True)
class IntegerKernel:
    """Rows ``p(y|x) = numerators[x][y] / denominators[x]`` with exact integers."""

    numerators: tuple[tuple[int, ...], ...]
    denominators: tuple[int, ...]
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.numerators), len(self.numerators[0]) if self.numerators else 0

    def entry(self, row: int, column: int) -> Fraction:
        return Fraction(self.numerators[row][column], self.denominators[row])

    # --- cached array forms -----------------------------------------------------------
    def _small_arrays(self) -> tuple[np.ndarray, np.ndarray] | None:
        """int64 numerator matrix and denominator vector, when all entries are < 2**31."""
        if "small" not in self._cache:
            if max(self.denominators) < _CROSS_SAFE:
                self._cache["small"] = (
                    np.array(self.numerators, dtype=np.int64),
                    np.array(self.denominators, dtype=np.int64),
                )
            else:
                self._cache["small"] = None
        return self._cache["small"]

    def _flint_matrix(self) -> Any:
        if "flint" not in self._cache:
            import flint

            self._cache["flint"] = flint.fmpz_mat([list(row) for row in self.numerators])
        return self._cache["flint"]

    # --- column extremes --------------------------------------------------------------
    def column_extremes(self, rows: Sequence[int] | None = None) -> tuple[list[int], list[int]]:
        """For each column, the index of a row with the largest entry and one with the smallest.

        Only rows in ``rows`` (default: all) are considered.  Exact: every returned index is
        verified against all considered rows with integer arithmetic.
        """
        selected = list(range(len(self.numerators))) if rows is None else list(rows)
        if not selected:
            raise ValueError("column_extremes needs at least one row")
        arrays = self._small_arrays()
        if arrays is not None:
            return self._column_extremes_int64(arrays, selected)
        return self._column_extremes_python(selected, range(self.shape[1]))

    def _column_extremes_int64(
        self, arrays: tuple[np.ndarray, np.ndarray], selected: list[int]
    ) -> tuple[list[int], list[int]]:
        numerators, denominators = arrays
        index = np.asarray(selected)
        sub_n, sub_d = numerators[index], denominators[index]
        columns = np.arange(sub_n.shape[1])
        proposal = sub_n / sub_d[:, None]  # candidates only; verified exactly below
        best = proposal.argmax(axis=0)
        worst = proposal.argmin(axis=0)
        # Exact check: n[x, y] * d[best_y] <= n[best_y, y] * d[x] for every x (int64-safe).
        best_ok = (
            sub_n * sub_d[best][None, :] <= sub_n[best, columns][None, :] * sub_d[:, None]
        ).all(axis=0)
        worst_ok = (
            sub_n * sub_d[worst][None, :] >= sub_n[worst, columns][None, :] * sub_d[:, None]
        ).all(axis=0)
        best_list = [selected[int(i)] for i in best]
        worst_list = [selected[int(i)] for i in worst]
        failed = [int(c) for c in np.nonzero(~(best_ok & worst_ok))[0]]
        if failed:
            fixed_best, fixed_worst = self._column_extremes_python(selected, failed)
            for position, column in enumerate(failed):
                best_list[column] = fixed_best[position]
                worst_list[column] = fixed_worst[position]
        return best_list, worst_list

    def _column_extremes_python(
        self, selected: list[int], columns: Sequence[int]
    ) -> tuple[list[int], list[int]]:
        numerators, denominators = self.numerators, self.denominators
        best_list, worst_list = [], []
        for column in columns:
            best = worst = selected[0]
            for row in selected[1:]:
                value = numerators[row][column] * denominators[best]
                if value > numerators[best][column] * denominators[row]:
                    best = row
                if numerators[row][column] * denominators[worst] < (
                    numerators[worst][column] * denominators[row]
                ):
                    worst = row
            best_list.append(best)
            worst_list.append(worst)
        return best_list, worst_list

    # --- weighted sums ----------------------------------------------------------------
    def weighted_column_sums(self, weights: Sequence[Fraction]) -> list[Fraction]:
        """``[sum_x weights[x] * p(y|x) for y]`` exactly (weights are Fractions, one per row)."""
        rows = [x for x, w in enumerate(weights) if w != 0]
        columns = self.shape[1]
        if not rows:
            return [Fraction(0)] * columns
        weight_denominator = math.lcm(*(weights[x].denominator for x in rows))
        row_lcm = math.lcm(*(self.denominators[x] for x in rows))
        scaled = [
            weights[x].numerator
            * (weight_denominator // weights[x].denominator)
            * (row_lcm // self.denominators[x])
            for x in rows
        ]
        total_denominator = weight_denominator * row_lcm
        arrays = self._small_arrays()
        bound = max(abs(s) for s in scaled) * max(self.denominators[x] for x in rows) * len(rows)
        sums: list[int]
        if arrays is not None and bound < _INT64_SAFE:
            numerators = arrays[0]
            vector = np.array(scaled, dtype=np.int64)
            sums = [int(v) for v in vector @ numerators[np.asarray(rows)]]
        elif len(rows) * columns >= 256:
            import flint

            matrix = self._flint_matrix()
            if len(rows) != len(self.numerators):
                full = [0] * len(self.numerators)
                for position, x in enumerate(rows):
                    full[x] = scaled[position]
                scaled_full = full
            else:
                scaled_full = scaled
            product = flint.fmpz_mat(1, len(scaled_full), scaled_full) * matrix
            sums = [int(v) for v in product.entries()]
        else:
            sums = [
                sum(s * self.numerators[x][y] for s, x in zip(scaled, rows, strict=True))
                for y in range(columns)
            ]
        return [Fraction(s, total_denominator) for s in sums]


def integer_rows(values: Sequence[Fraction]) -> tuple[tuple[int, ...], int]:
    """Numerators over the row's least common denominator, and that denominator."""
    denominator = math.lcm(*(v.denominator for v in values)) if values else 1
    return tuple(v.numerator * (denominator // v.denominator) for v in values), denominator
