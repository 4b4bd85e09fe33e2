"""Explicit database mechanisms as tuple-input kernels (private helpers for the suprema).

A database of ``n`` entries over an alphabet ``D`` is an ``n``-tuple; a mechanism on
databases is a :class:`~exactpml.core.mechanism.Mechanism` whose inputs are exactly ``D^n``.
This module reads that structure off the inputs and computes, by brute force over
neighbouring pairs, the two log-ratios the suprema of Saeidian et al., §4, equal:

* the DP ratio of output y and entry i (Def 4.1):
  ``max_{d_-i} max_{d_i, d'_i} p(y|d_i, d_-i) / p(y|d'_i, d_-i)``;
* the free-lunch ratio of output y (Def 4.4): ``max_x p(y|x) / min_x p(y|x)``.

Both are ``oo`` when a positive entry faces a zero one, and 1 when every entry involved is
zero (PML is then 0 for every prior, footnote 5).  Entries may be rationals or closed
numbers (compared by :mod:`exactpml.certify`).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import exact_compare, prove_zero
from exactpml.core.exact import Scalar, exact_quotient
from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument

__all__ = [
    "DatabaseShape",
    "SliceRatio",
    "compare",
    "database_shape",
    "dp_ratio",
    "entry_ratio_over_all_priors",
    "free_lunch_ratio",
    "is_zero",
    "max_entry",
    "min_entry",
]

Label = Hashable


compare = exact_compare  # kept as a name: the suprema modules import it


def is_zero(value: Scalar) -> bool:
    if isinstance(value, Fraction):
        return value == 0
    known = prove_zero(value)
    if known is None:
        raise InvalidArgument(f"cannot decide whether the entry {abbreviated(value)} is zero")
    return known


@dataclass(frozen=True, slots=True)
class DatabaseShape:
    """``n`` entries, the alphabet ``D`` (in order of first appearance) and the inputs D^n."""

    alphabet: tuple[Label, ...]
    n: int

    def drop(self, x: tuple[Label, ...], entry: int) -> tuple[Label, ...]:
        return x[:entry] + x[entry + 1 :]

    def put(self, rest: tuple[Label, ...], entry: int, value: Label) -> tuple[Label, ...]:
        return (*rest[:entry], value, *rest[entry:])

    def rests(self) -> list[tuple[Label, ...]]:
        """Every ``d_-i`` in D^{n-1}."""
        return list(itertools.product(self.alphabet, repeat=self.n - 1))

    def inputs(self) -> list[tuple[Label, ...]]:
        return list(itertools.product(self.alphabet, repeat=self.n))

    def check_entry(self, entry: object) -> int:
        if isinstance(entry, bool) or not isinstance(entry, int):
            raise InvalidArgument(
                f"entry={entry!r} must be an int index in range({abbreviated(self.n)})"
            )
        if not 0 <= entry < self.n:
            raise InvalidArgument(
                f"entry={entry} is out of range for databases of {abbreviated(self.n)} entries"
            )
        return entry


def database_shape(
    inputs: Sequence[Label], *, alphabet: Sequence[Label] | None = None
) -> DatabaseShape:
    """The shape of ``inputs``, which must be every n-tuple over one alphabet D (n >= 1)."""
    items: list[Any] = list(inputs)
    if not items or not all(isinstance(x, tuple) for x in items):
        raise InvalidArgument(
            "the mechanism's inputs must be databases: n-tuples over an alphabet D "
            f"(got {abbreviated_repr(items[:3])}{' ...' if len(items) > 3 else ''})"
        )
    lengths = {len(x) for x in items}
    if len(lengths) != 1 or 0 in lengths:
        raise InvalidArgument(
            "the mechanism's inputs must all be tuples of one length n >= 1 "
            f"(lengths {sorted(lengths)})"
        )
    n = lengths.pop()
    if alphabet is None:
        seen: dict[Label, None] = {}
        for x in items:
            for value in x:
                seen.setdefault(value, None)
        letters = tuple(seen)
    else:
        letters = tuple(alphabet)
        if len(set(letters)) != len(letters):
            raise InvalidArgument("the alphabet has repeated values")
    expected = set(itertools.product(letters, repeat=n))
    present = set(items)
    if present != expected:
        missing = sorted(expected - present, key=repr)[:3]
        extra = sorted(present - expected, key=repr)[:3]
        raise InvalidArgument(
            f"the mechanism's inputs must be exactly D^{abbreviated(n)} for D = "
            f"{abbreviated_repr(list(letters))}: "
            + (f"missing {abbreviated_repr(missing)}" if missing else "")
            + ("; " if missing and extra else "")
            + (f"not in D^{abbreviated(n)}: {abbreviated_repr(extra)}" if extra else "")
        )
    return DatabaseShape(letters, n)


def _ratio(high: Scalar, low: Scalar) -> Scalar | None:
    """high / low, ``oo`` when low = 0 < high, None when high = 0 (no constraint)."""
    if is_zero(high):
        return None
    if is_zero(low):
        return sympy.oo
    return exact_quotient(high, low)


@dataclass(frozen=True, slots=True)
class SliceRatio:
    """The largest ratio within one slice ``d_-i`` and where it is reached."""

    ratio: Scalar
    rest: tuple[Label, ...]
    high: Label  # d_i with the largest p(y | d_i, d_-i)
    low: Label  # d'_i with the smallest


def dp_ratio(mechanism: Mechanism, shape: DatabaseShape, output: Label, entry: int) -> SliceRatio:
    """``max_{d_-i} max_{d, d'} p(y|d, d_-i) / p(y|d', d_-i)`` and a maximising slice (Def 4.1)."""
    best: SliceRatio | None = None
    for rest in shape.rests():
        column = [
            (d, mechanism.probability(shape.put(rest, entry, d), output)) for d in shape.alphabet
        ]
        high = max_entry(column)
        low = min_entry(column)
        ratio = _ratio(high[1], low[1])
        if ratio is None:
            continue
        if best is None or compare(ratio, best.ratio) > 0:
            best = SliceRatio(ratio, rest, high[0], low[0])
    if best is None:  # every p(y | .) is zero: PML is 0 for every prior (footnote 5)
        rest = shape.rests()[0]
        return SliceRatio(Fraction(1), rest, shape.alphabet[0], shape.alphabet[0])
    return best


def max_entry(column: list[tuple[Label, Scalar]]) -> tuple[Label, Scalar]:
    best = column[0]
    for item in column[1:]:
        if compare(item[1], best[1]) > 0:
            best = item
    return best


def min_entry(column: list[tuple[Label, Scalar]]) -> tuple[Label, Scalar]:
    best = column[0]
    for item in column[1:]:
        if compare(item[1], best[1]) < 0:
            best = item
    return best


def free_lunch_ratio(mechanism: Mechanism, output: Label) -> tuple[Scalar, Label, Label]:
    """``(max_x p(y|x) / min_x p(y|x), argmax, argmin)`` (Def 4.4; Def 2.7's column ratio)."""
    column = list(zip(mechanism.inputs, mechanism.column(output), strict=True))
    high = max_entry(column)
    low = min_entry(column)
    ratio = _ratio(high[1], low[1])
    return (Fraction(1) if ratio is None else ratio), high[0], low[0]


def entry_ratio_over_all_priors(
    mechanism: Mechanism, shape: DatabaseShape, output: Label, entry: int
) -> tuple[Scalar, Label, Label]:
    """``max(1, max_{d != d'} max_{d_-i} p(y|d, .) / min_{d'_-i} p(y|d', .))`` (eq. (B.6a)):
    the supremum of l(D_i -> y) over all full-support priors, with the maximising (d, d')."""
    rows = {
        d: [mechanism.probability(shape.put(rest, entry, d), output) for rest in shape.rests()]
        for d in shape.alphabet
    }
    highs = {d: max_entry(list(enumerate(values)))[1] for d, values in rows.items()}
    lows = {d: min_entry(list(enumerate(values)))[1] for d, values in rows.items()}
    best: Scalar = Fraction(1)
    pair = (shape.alphabet[0], shape.alphabet[0])
    for d in shape.alphabet:
        for d2 in shape.alphabet:
            if d == d2:
                continue
            ratio = _ratio(highs[d], lows[d2])
            if ratio is not None and compare(ratio, best) > 0:
                best, pair = ratio, (d, d2)
    return best, pair[0], pair[1]
