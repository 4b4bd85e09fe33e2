"""Fast exact arithmetic for rational kernels: an integer matrix with one denominator per row.

Row x of a rational kernel is stored as integers ``numerators[x]`` over the row's least
common denominator ``denominators[x]``; the numerators of a row are non-negative and sum to
its denominator (checked on construction).  When every denominator is below ``2**31`` the
kernel is held as numpy int64 arrays (the *small* form); otherwise as Python integers.

What the leakage measures need, exactly:

* :meth:`IntegerKernel.column_extremes`: for each column, rows holding its largest and
  smallest entry.  When the common denominator of all rows is below ``2**62`` every entry
  is an integer over it and the extremes are integer argmax/argmin (no float at all).
  Otherwise a float64 pass proposes candidates, and each candidate is *verified* by exact
  int64 cross-multiplication against every row (``n_x d_c <= n_c d_x``; all factors are
  below ``2**31``); any column whose candidate fails is recomputed with Python integers.
* :meth:`IntegerKernel.pml_ratios`: ``max_{x in supp} p(y|x) / p_Y(y)`` for every column
  (Saeidian et al., Thm 2.4), from p_Y's numerators over one common denominator T
  (:func:`~exactpml.core._integer_arithmetic.vector_matrix_product`) and one gcd per column
  (vectorised int64 gcd when T < 2**63).
* :meth:`IntegerKernel.capacity_ratio`: ``max_y max_x p(y|x) / min_x p(y|x)`` (Def 2.7).

Measured on this machine: ``benchmarks/README.md`` (from ``benchmarks/bench_channel.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from itertools import chain
from operator import attrgetter
from typing import Any

import numpy as np

from exactpml.core._integer_arithmetic import (
    coprime_fraction,
    lcm_of,
    reduced_fraction,
    vector_matrix_product,
)

__all__ = ["IntegerKernel", "integer_rows"]

_SMALL = 2**31  # numerators and denominators below this: n1 * d2 fits in int64
_COMMON = 2**62  # a common denominator below this: scaled numerators fit in int64
_INT64_BOUND = 2**63

# Fraction keeps its value in the slots ``_numerator`` / ``_denominator`` (CPython 3.11 to
# 3.13); reading them directly is several times faster than the ``numerator`` property.
_FRACTION_SLOTS = getattr(Fraction, "__slots__", ()) == ("_numerator", "_denominator")
_numerator_of = attrgetter("_numerator" if _FRACTION_SLOTS else "numerator")
_denominator_of = attrgetter("_denominator" if _FRACTION_SLOTS else "denominator")


def integer_rows(values: Sequence[Fraction]) -> tuple[tuple[int, ...], int]:
    """Numerators over the row's least common denominator, and that denominator."""
    denominator = math.lcm(*(v.denominator for v in values)) if values else 1
    return tuple(v.numerator * (denominator // v.denominator) for v in values), denominator


class IntegerKernel:
    """Rows ``p(y|x) = numerators[x][y] / denominators[x]`` with exact integers.

    Args:
        numerators: one tuple of non-negative integers per row.
        denominators: one positive integer per row, the sum of that row's numerators.

    Use :meth:`from_fractions` to build one (with the rows as Fractions) from user data.
    """

    __slots__ = ("_cache", "_denominators", "_numerators", "_small", "shape")

    def __init__(self, numerators: Sequence[Sequence[int]], denominators: Sequence[int]) -> None:
        rows = tuple(tuple(row) for row in numerators)
        dens = tuple(denominators)
        if len(rows) != len(dens) or not rows or len({len(row) for row in rows}) != 1:
            raise ValueError("IntegerKernel needs one non-empty row per denominator")
        for row, denominator in zip(rows, dens, strict=True):
            if denominator <= 0 or min(row) < 0 or sum(row) != denominator:
                raise ValueError(f"row {row} is not a distribution over {denominator}")
        self._numerators: tuple[tuple[int, ...], ...] | None = rows
        self._denominators: tuple[int, ...] | None = dens
        self._small: tuple[np.ndarray, np.ndarray] | None = None
        if max(dens) < _SMALL:
            self._small = (np.array(rows, dtype=np.int64), np.array(dens, dtype=np.int64))
        self._cache: dict[str, Any] = {}
        self.shape = (len(rows), len(rows[0]))

    @classmethod
    def _from_arrays(cls, numerators: np.ndarray, denominators: np.ndarray) -> IntegerKernel:
        """Trusted: int64 arrays already checked (entries < 2**31, rows sum to denominators)."""
        self = object.__new__(cls)
        self._numerators = None
        self._denominators = None
        self._small = (numerators, denominators)
        self._cache = {}
        self.shape = numerators.shape
        return self

    @classmethod
    def from_fractions(
        cls, matrix: Sequence[Sequence[object]]
    ) -> tuple[tuple[tuple[Fraction, ...], ...], IntegerKernel] | None:
        """``(rows as Fractions, kernel)`` when every entry is an int or a Fraction and every
        row is a probability distribution; ``None`` otherwise (the caller then validates
        entry by entry, which names the offending entry).
        """
        if not matrix or not matrix[0]:
            return None
        width = len(matrix[0])
        if any(len(row) != width for row in matrix):
            return None
        flat: list[Any] = list(chain.from_iterable(matrix))
        types = set(map(type, flat))
        if not types <= {Fraction, int}:
            return None
        if int in types:
            flat = [v if type(v) is Fraction else Fraction(v) for v in flat]
            rows = tuple(tuple(flat[i : i + width]) for i in range(0, len(flat), width))
        else:
            rows = tuple(map(tuple, matrix))
        try:
            numerators = np.fromiter(map(_numerator_of, flat), dtype=np.int64, count=len(flat))
            denominators = np.fromiter(map(_denominator_of, flat), dtype=np.int64, count=len(flat))
        except OverflowError:
            return cls._from_fractions_python(rows)
        numerators = numerators.reshape(len(rows), width)
        denominators = denominators.reshape(len(rows), width)
        # A valid row has entries in [0, 1]; anything else goes to the entry-by-entry path.
        if (numerators < 0).any() or (numerators > denominators).any():
            return None
        common = denominators.max(axis=1)
        uneven = np.nonzero((common[:, None] % denominators != 0).any(axis=1))[0]
        if uneven.size:
            common = common.astype(object)
            for x in uneven.tolist():
                common[x] = math.lcm(*denominators[x].tolist())
            if max(common) >= _SMALL:
                return cls._from_fractions_python(rows)
            common = common.astype(np.int64)
        if int(common.max()) >= _SMALL:
            return cls._from_fractions_python(rows)
        scaled = numerators * (common[:, None] // denominators)  # each <= common < 2**31
        if (scaled.sum(axis=1) != common).any():  # sums < width * 2**31: exact
            return None
        return rows, cls._from_arrays(scaled, common)

    @classmethod
    def _from_fractions_python(
        cls, rows: tuple[tuple[Fraction, ...], ...]
    ) -> tuple[tuple[tuple[Fraction, ...], ...], IntegerKernel] | None:
        numerators, denominators = [], []
        for row in rows:
            scaled, denominator = integer_rows(row)
            if min(scaled) < 0 or sum(scaled) != denominator:
                return None
            numerators.append(scaled)
            denominators.append(denominator)
        return rows, cls(numerators, denominators)

    # --- plain access -----------------------------------------------------------------
    @property
    def numerators(self) -> tuple[tuple[int, ...], ...]:
        if self._numerators is None:
            assert self._small is not None
            self._numerators = tuple(map(tuple, self._small[0].tolist()))
        return self._numerators

    @property
    def denominators(self) -> tuple[int, ...]:
        if self._denominators is None:
            assert self._small is not None
            self._denominators = tuple(self._small[1].tolist())
        return self._denominators

    @property
    def is_small(self) -> bool:
        """True when held as int64 arrays (every denominator below 2**31)."""
        return self._small is not None

    def entry(self, row: int, column: int) -> Fraction:
        if self._small is not None:
            numerators, denominators = self._small
            return Fraction(int(numerators[row, column]), int(denominators[row]))
        return Fraction(self.numerators[row][column], self.denominators[row])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, IntegerKernel):
            return NotImplemented
        return (self.numerators, self.denominators) == (other.numerators, other.denominators)

    def __hash__(self) -> int:
        return hash((self.numerators, self.denominators))

    def __repr__(self) -> str:
        return f"IntegerKernel({self.numerators!r}, {self.denominators!r})"

    # --- column extremes --------------------------------------------------------------
    def column_extremes(self, rows: Sequence[int] | None = None) -> tuple[list[int], list[int]]:
        """For each column, the index of a row with the largest entry and one with the smallest.

        Only rows in ``rows`` (default: all) are considered.  Exact: decided by integer
        comparisons only.  The all-rows result is computed once per kernel.
        """
        if rows is not None and len(rows) == self.shape[0] and list(rows) == list(range(len(rows))):
            rows = None
        if rows is None and "extremes" in self._cache:
            best_rows, worst_rows = self._cache["extremes"]
            return list(best_rows), list(worst_rows)
        selected = list(range(self.shape[0])) if rows is None else list(rows)
        if not selected:
            raise ValueError("column_extremes needs at least one row")
        if self._small is None:
            result = self._column_extremes_python(selected, range(self.shape[1]))
        else:
            index = None if rows is None else np.asarray(selected)
            common = self._common_numerators()
            if common is not None:
                sub = common if index is None else common[index]
                best, worst = sub.argmax(axis=0), sub.argmin(axis=0)
                result = (
                    [selected[i] for i in best.tolist()],
                    [selected[i] for i in worst.tolist()],
                )
            else:
                result = self._column_extremes_verified(selected, index)
        if rows is None:
            self._cache["extremes"] = (tuple(result[0]), tuple(result[1]))
        return result

    def _common_numerators(self) -> np.ndarray | None:
        """Numerators over the lcm of all denominators, when that lcm is below 2**62."""
        if "common" not in self._cache:
            assert self._small is not None
            numerators, denominators = self._small
            lcm = 1
            for denominator in set(denominators.tolist()):
                lcm = math.lcm(lcm, denominator)
                if lcm >= _COMMON:
                    break
            self._cache["common"] = (
                numerators * (lcm // denominators)[:, None] if lcm < _COMMON else None
            )
        return self._cache["common"]

    def _column_extremes_verified(
        self, selected: list[int], index: np.ndarray | None
    ) -> tuple[list[int], list[int]]:
        assert self._small is not None
        numerators, denominators = self._small
        sub_n = numerators if index is None else numerators[index]
        sub_d = denominators if index is None else denominators[index]
        columns = np.arange(sub_n.shape[1])
        proposal = sub_n / sub_d[:, None]  # candidates only; verified exactly below
        best = proposal.argmax(axis=0)
        worst = proposal.argmin(axis=0)
        # Exact: n[x, y] * d[best_y] <= n[best_y, y] * d[x] for every x (factors < 2**31).
        best_ok = (
            sub_n * sub_d[best][None, :] <= sub_n[best, columns][None, :] * sub_d[:, None]
        ).all(axis=0)
        worst_ok = (
            sub_n * sub_d[worst][None, :] >= sub_n[worst, columns][None, :] * sub_d[:, None]
        ).all(axis=0)
        best_list = [selected[i] for i in best.tolist()]
        worst_list = [selected[i] for i in worst.tolist()]
        failed = np.nonzero(~(best_ok & worst_ok))[0].tolist()
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
                value = numerators[row][column]
                if value * denominators[best] > numerators[best][column] * denominators[row]:
                    best = row
                if value * denominators[worst] < numerators[worst][column] * denominators[row]:
                    worst = row
            best_list.append(best)
            worst_list.append(worst)
        return best_list, worst_list

    # --- output distribution and PML --------------------------------------------------
    def _output_numerators(self, weights: Sequence[Fraction]) -> tuple[list[int], Any, int]:
        """``(support, s, T)`` with ``sum_x weights[x] p(y|x) = s[y] / T`` for every y.

        ``T = lcm(weight denominators) * lcm(row denominators)`` over the support (the rows
        with non-zero weight); ``s`` is an int64 array when T < 2**63, else a list of ints.
        """
        support = [x for x, w in enumerate(weights) if w]
        columns = self.shape[1]
        if not support:
            return support, [0] * columns, 1
        weight_lcm = lcm_of(weights[x].denominator for x in support)
        denominators = self.denominators
        row_lcm = lcm_of(denominators[x] for x in support)
        total = weight_lcm * row_lcm
        coefficients = [
            weights[x].numerator
            * (weight_lcm // weights[x].denominator)
            * (row_lcm // denominators[x])
            for x in support
        ]
        if self._small is None:
            return support, self._python_product(coefficients, support), total
        numerators = self._small[0]
        if len(support) != self.shape[0]:
            numerators = numerators[np.asarray(support)]
        if (
            total < _INT64_BOUND
            and max(map(abs, coefficients)) * int(numerators.sum(axis=0).max()) < _INT64_BOUND
        ):
            sums = np.array(coefficients, dtype=np.int64) @ numerators
            return support, sums, total
        return support, vector_matrix_product(coefficients, numerators), total

    def _python_product(self, coefficients: list[int], support: list[int]) -> list[int]:
        numerators = self.numerators
        if len(support) * self.shape[1] >= 256:
            import flint

            matrix = flint.fmpz_mat([list(numerators[x]) for x in support])
            product = flint.fmpz_mat(1, len(coefficients), coefficients) * matrix
            return [int(v) for v in product.entries()]
        return [
            sum(c * numerators[x][y] for c, x in zip(coefficients, support, strict=True))
            for y in range(self.shape[1])
        ]

    def weighted_column_sums(self, weights: Sequence[Fraction]) -> list[Fraction]:
        """``[sum_x weights[x] * p(y|x) for y]`` exactly (weights are Fractions, one per row)."""
        _, sums, total = self._output_numerators(weights)
        values = sums.tolist() if isinstance(sums, np.ndarray) else sums
        return [reduced_fraction(s, total) for s in values]

    def _pml_pairs(self, weights: Sequence[Fraction]) -> tuple[Any, Any, int]:
        """``(tops, masses, T)`` as int64 arrays when ``T < 2**63``, else lists of ints."""
        support, sums, total = self._output_numerators(weights)
        columns = self.shape[1]
        if not support:
            return [1] * columns, [0] * columns, 1
        best, _ = self.column_extremes(support)
        if isinstance(sums, np.ndarray):  # T < 2**63: everything below stays in int64
            numerators, denominators = self._small  # type: ignore[misc]
            high = numerators[best, np.arange(columns)]
            # high / d_best = high * (T / d_best) / T with high <= d_best, so <= T < 2**63.
            return high * (np.int64(total) // denominators[best]), sums, total
        if self._small is not None:
            highest = self._small[0][best, np.arange(columns)].tolist()
        else:
            highest = [self.numerators[row][column] for column, row in enumerate(best)]
        denominators_of = self.denominators
        quotients: dict[int, int] = {}  # T / d_row, an integer: d_row divides T
        tops = []
        for row, high in zip(best, highest, strict=True):
            if row not in quotients:
                quotients[row] = total // denominators_of[row]
            tops.append(high * quotients[row])
        return tops, list(sums), total

    def pml_ratio_pairs(self, weights: Sequence[Fraction]) -> tuple[list[int], list[int], int]:
        """Unreduced ``(tops, masses, T)``: the PML ratio of column y is ``tops[y] / masses[y]``
        and ``p_Y(y) = masses[y] / T`` (``masses[y] = 0`` where p_Y(y) = 0).

        No gcd is taken: with per-row denominators the ratios have thousands of bits and their
        reduction costs more than everything else (``benchmarks/README.md``), so callers
        reduce only the ratios they read (:class:`exactpml.leakage.LeakageProfile`).
        """
        tops, masses, total = self._pml_pairs(weights)
        if isinstance(tops, np.ndarray):
            return tops.tolist(), masses.tolist(), total
        return tops, masses, total

    def pml_ratios(self, weights: Sequence[Fraction]) -> list[Fraction]:
        """``max_{x: w_x > 0} p(y|x) / p_Y(y)`` for each column y, 1 where p_Y(y) = 0.

        ``weights`` is the prior (non-negative Fractions summing to 1): this is the ratio of
        l(X->y) in the closed form of Saeidian et al., Thm 2.4, with footnote 5.
        """
        tops, sums, _ = self._pml_pairs(weights)
        if isinstance(tops, np.ndarray):  # vectorised int64 gcds
            empty = sums == 0
            if empty.any():
                tops, sums = np.where(empty, 1, tops), np.where(empty, 1, sums)
            divisors = np.gcd(tops, sums)
            return list(
                map(coprime_fraction, (tops // divisors).tolist(), (sums // divisors).tolist())
            )
        return [
            reduced_fraction(top, mass) if mass else Fraction(1)
            for top, mass in zip(tops, sums, strict=True)
        ]

    # --- capacity ---------------------------------------------------------------------
    def capacity_ratio(self) -> Fraction | None:
        """``max_y max_x p(y|x) / min_x p(y|x)`` over columns that are not all zero.

        ``None`` (an infinite capacity) when some column mixes zero and non-zero entries.
        """
        best, worst = self.column_extremes()
        if self._small is not None:
            numerators, denominators = self._small
            columns = np.arange(self.shape[1])
            high, low = numerators[best, columns], numerators[worst, columns]
            used = high > 0
            if (low[used] == 0).any():
                return None
            # high / d_b over low / d_w = (high d_w) / (d_b low); each factor < 2**31.
            tops = (high * denominators[worst])[used].tolist()
            bottoms = (denominators[best] * low)[used].tolist()
        else:
            tops, bottoms = [], []
            for column, (b, w) in enumerate(zip(best, worst, strict=True)):
                largest, smallest = self.numerators[b][column], self.numerators[w][column]
                if largest == 0:
                    continue
                if smallest == 0:
                    return None
                tops.append(largest * self.denominators[w])
                bottoms.append(self.denominators[b] * smallest)
        top, bottom = 1, 1
        for t, b in zip(tops, bottoms, strict=True):
            if t * bottom > top * b:
                top, bottom = t, b
        return reduced_fraction(top, bottom)
