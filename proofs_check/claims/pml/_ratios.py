"""The reference ratios with +∞ written ``sympy.oo``, the form the ``pml.*`` checks compare,
order and print (:mod:`proofs_check.reference` writes +∞ as ``None``)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from fractions import Fraction
from typing import Any

import sympy

from exactpml import Mechanism
from proofs_check import reference

__all__ = ["Ratio", "capacity_ratio", "column_ratio", "dp_ratio", "free_lunch_ratio", "infinite"]

Ratio = Fraction | Any
"""A ratio: a ``Fraction``, or ``sympy.oo`` when a zero meets a positive probability."""


def infinite(ratio: reference.Ratio) -> Ratio:
    """The reference's ratio with +∞ as ``sympy.oo``."""
    return sympy.oo if ratio is None else ratio


def column_ratio(column: Iterable[Fraction]) -> Ratio:
    """max/min of one column (Def 2.7); 1 for an all-zero column, ``oo`` if it mixes zeros."""
    return infinite(reference.column_ratio(column))


def capacity_ratio(mechanism: Mechanism) -> Ratio:
    """exp C(P_{Y|X}) (Def 2.7, Thm 2.8)."""
    return infinite(reference.capacity_ratio(mechanism))


def dp_ratio(mechanism: Mechanism, output: Hashable) -> Ratio:
    """max over neighbouring databases of p(y|x)/p(y|x') at one output (Def 4.1)."""
    return infinite(reference.dp_ratio(mechanism, output))


def free_lunch_ratio(mechanism: Mechanism, output: Hashable) -> Ratio:
    """max over all pairs of databases of p(y|x)/p(y|x') at one output (Def 4.4)."""
    return infinite(reference.free_lunch_ratio(mechanism, output))
