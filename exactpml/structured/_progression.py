"""Sorted answers that form an arithmetic progression, held by three numbers instead of n + 1.

A counting query on n entries answers 0, 1, …, n; a linear query with one weight w on
entries of two values v_0 < v_1 answers n w v_0 + k w (v_1 - v_0), k = 0, …, n.  In both
cases the reachable answers (and the statistics of the other n - 1 entries) are an
arithmetic progression, so membership, position and the i-th value are O(1) exact integer
arithmetic, and nothing of size n is built until someone iterates.

>>> answers = Progression(Fraction(0), Fraction(1), 4)
>>> list(answers), answers[-1], Fraction(2) in answers, Fraction(5, 2) in answers
([Fraction(0, 1), Fraction(1, 1), Fraction(2, 1), Fraction(3, 1)], Fraction(3, 1), True, False)
>>> answers.index_at_most(Fraction(5, 2)), answers.index_at_least(Fraction(5, 2))
(2, 3)
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any, overload

from exactpml.core.abbreviate import abbreviated
from exactpml.core.exact import Scalar

__all__ = ["Progression", "index_at_least", "index_at_most"]


class Progression(Sequence[Fraction]):
    """``start + i·step`` for i = 0, …, size - 1 (step > 0; any step when size = 1)."""

    __slots__ = ("size", "start", "step")

    def __init__(self, start: Fraction, step: Fraction, size: int) -> None:
        if size < 1 or (size > 1 and step <= 0):
            raise ValueError(
                f"Progression needs size >= 1 and step > 0, got {abbreviated(size)}, "
                f"{abbreviated(step)}"
            )
        self.start = start
        self.step = step if size > 1 else Fraction(1)
        self.size = size

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, index: int) -> Fraction: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Fraction, ...]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self.size)))
        position = index + self.size if index < 0 else index
        if not 0 <= position < self.size:
            raise IndexError(
                f"index {abbreviated(index)} out of range for {abbreviated(self.size)} answers"
            )
        return self.start + position * self.step

    def __iter__(self) -> Iterator[Fraction]:
        value, step = self.start, self.step
        for _ in range(self.size):
            yield value
            value += step

    def position(self, value: object) -> int | None:
        """i with ``self[i] == value``, or None (exact arithmetic, O(1))."""
        if type(value) is not Fraction and not (isinstance(value, int) and value is not True):
            return None
        offset = (Fraction(value) - self.start) / self.step
        if offset.denominator != 1 or not 0 <= offset < self.size:
            return None
        return int(offset)

    def __contains__(self, value: object) -> bool:
        return self.position(value) is not None

    def index_at_most(self, value: Fraction) -> int:
        """The largest i with ``self[i] <= value`` (-1 when there is none)."""
        return max(-1, min(self.size - 1, math.floor((value - self.start) / self.step)))

    def index_at_least(self, value: Fraction) -> int:
        """The smallest i with ``self[i] >= value`` (``size`` when there is none)."""
        return min(self.size, max(0, math.ceil((value - self.start) / self.step)))

    def is_integral(self) -> bool:
        """True when every value is an integer (start and, unless size = 1, step are)."""
        return self.start.denominator == 1 and (self.size == 1 or self.step.denominator == 1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Progression):
            return (self.start, self.step, self.size) == (other.start, other.step, other.size)
        if isinstance(other, Sequence):
            return len(other) == self.size and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.start, self.step, self.size))

    def __repr__(self) -> str:
        return f"Progression(start={self.start}, step={self.step}, size={self.size})"


def index_at_most(values: Sequence[Scalar], value: Fraction) -> int:
    """The largest i with ``values[i] <= value`` in sorted rational ``values`` (-1: none)."""
    if isinstance(values, Progression):
        return values.index_at_most(value)
    return bisect.bisect_right(values, value) - 1


def index_at_least(values: Sequence[Scalar], value: Fraction) -> int:
    """The smallest i with ``values[i] >= value`` in sorted rational ``values`` (len: none)."""
    if isinstance(values, Progression):
        return values.index_at_least(value)
    return bisect.bisect_left(values, value)
