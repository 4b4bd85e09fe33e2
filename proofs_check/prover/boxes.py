"""Boxes for branch-and-bound: regions with open or closed ends, and where to split them.

A :class:`Region` is a product of intervals whose ends are rationals or infinite, each end
marked excluded (open) or included; equal ends pin a variable.  Boxes are split at the
simplest rational of their middle half (:func:`simplest_between`, the Stern-Brocot search),
so that a tie at a simple rational such as 0, 1/2 or 1/3 becomes a corner, and unbounded
intervals geometrically (:func:`split_point`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction

from exactpml.core.bounds import current_bounds

__all__ = ["Region", "simplest_between", "split_point"]


def simplest_between(low: Fraction, high: Fraction) -> Fraction:
    """The rational with the smallest denominator in ``[low, high]`` (then the smallest size).

    >>> simplest_between(Fraction(1, 6), Fraction(1, 3))
    Fraction(1, 3)
    >>> simplest_between(Fraction(-1, 3), Fraction(1, 3))
    Fraction(0, 1)
    """
    if low > high:
        raise ValueError("empty interval")
    if low <= 0 <= high:
        return Fraction(0)
    if high < 0:
        return -simplest_between(-high, -low)
    parts: list[int] = []
    a, b = low, high
    while True:
        whole = math.floor(a)
        if whole == a:
            parts.append(whole)
            break
        if whole + 1 <= b:
            parts.append(whole + 1)
            break
        parts.append(whole)
        a, b = 1 / (b - whole), 1 / (a - whole)
    value = Fraction(parts[-1])
    for part in reversed(parts[:-1]):
        value = part + 1 / value
    return value


@dataclass(frozen=True, slots=True)
class Region:
    """A box with each end marked open (excluded) or closed; equal ends pin a variable."""

    box: tuple[tuple[Fraction | None, Fraction | None], ...]
    lower_open: tuple[bool, ...]
    upper_open: tuple[bool, ...]

    def free(self) -> list[int]:
        return [i for i, (lo, hi) in enumerate(self.box) if lo is None or lo != hi]

    def pin(self, index: int, value: Fraction) -> Region:
        box = list(self.box)
        box[index] = (value, value)
        lower = list(self.lower_open)
        upper = list(self.upper_open)
        lower[index] = upper[index] = False
        return Region(tuple(box), tuple(lower), tuple(upper))

    def opened(self, index: int) -> Region:
        lower = list(self.lower_open)
        upper = list(self.upper_open)
        lower[index] = upper[index] = True
        return replace(self, lower_open=tuple(lower), upper_open=tuple(upper))

    def split(self, index: int, at: Fraction) -> tuple[Region, Region]:
        low, high = self.box[index]
        left = list(self.box)
        right = list(self.box)
        left[index] = (low, at)
        right[index] = (at, high)
        left_upper = list(self.upper_open)
        right_lower = list(self.lower_open)
        left_upper[index] = False
        right_lower[index] = False
        return (
            Region(tuple(left), self.lower_open, tuple(left_upper)),
            Region(tuple(right), tuple(right_lower), self.upper_open),
        )

    def precision(self) -> int:
        bits = 0
        for low, high in self.box:
            for end in (low, high):
                if end is not None:
                    bits = max(bits, end.numerator.bit_length(), end.denominator.bit_length())
        return min(max(64, 2 * bits + 32), current_bounds().certified_precision)


def split_point(low: Fraction | None, high: Fraction | None) -> Fraction:
    """Where to split an interval: the simplest rational of its middle half; for an unbounded
    one, 0 or a point as far again from the finite end."""
    if low is None and high is None:
        return Fraction(0)
    if high is None:
        assert low is not None
        return low + max(Fraction(1), abs(low))
    if low is None:
        return high - max(Fraction(1), abs(high))
    quarter = (high - low) / 4
    return simplest_between(low + quarter, high - quarter)
