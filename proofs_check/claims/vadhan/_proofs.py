"""Statements of Vadhan's notes in sympy, for the proof engines (``proofs_check.prover``).

Each statement is written from the notes' definitions, never from exactpml's output:
probabilities are real variables, distributions are variables in [0, 1] summing to 1, and
ε-closeness of A and B is the notes' §1.2 condition Pr[A ∈ T] <= e^ε Pr[B ∈ T].  Distances
that are maxima over events (statistical difference, §1.1; D∞, §2) are decided *one event at
a time*: a statement about the numbers a = Pr[A ∈ T], b = Pr[B ∈ T] for every a, b in [0, 1]
holds for every event of every output space, so it proves the notes' statement on any output
space, not only on the small ones a brute force can enumerate.

The helpers return ``(lhs, rhs, variables, assuming)`` for
:func:`proofs_check.proof_evidence`; the checks pick the statement (or its mutant).
"""

from __future__ import annotations

import itertools
from typing import Any

import sympy
from sympy import Add, Eq, Interval, exp

__all__ = [
    "EPSILON",
    "TIMEOUT",
    "UNIT",
    "Statement",
    "events",
    "law_symbols",
    "probability_of",
    "tanh_half",
]

TIMEOUT = 5
"""Seconds for one proof attempt (most take 0.05-0.5 s; unknown after this, never a proof)."""

EPSILON = sympy.Symbol("epsilon", real=True)
"""ε, the privacy parameter (e^ε is translated exactly as w = e^ε by the z3 route)."""

UNIT = Interval(0, 1)

Statement = tuple[sympy.Expr, sympy.Expr, dict[sympy.Symbol, Any], tuple[Any, ...]]
"""(lhs, rhs, variables, assuming): "lhs <= rhs at every point of the domain"."""


def law_symbols(name: str, size: int, *, full_support: bool = False) -> tuple[
    tuple[sympy.Symbol, ...], dict[sympy.Symbol, Interval], sympy.Rel
]:
    """Every distribution on ``size`` outcomes: ``name_0, ...`` in [0, 1] (or (0, 1]) summing
    to 1; returns (symbols, their intervals, the hypothesis that they sum to 1)."""
    symbols = tuple(sympy.Symbol(f"{name}_{index}", real=True) for index in range(size))
    interval = Interval.Lopen(0, 1) if full_support else UNIT
    return symbols, {symbol: interval for symbol in symbols}, Eq(Add(*symbols), 1)


def events(size: int, *, empty: bool = False) -> list[tuple[int, ...]]:
    """Every event T of {0, ..., size-1} (non-empty unless ``empty``)."""
    start = 0 if empty else 1
    return [
        event
        for count in range(start, size + 1)
        for event in itertools.combinations(range(size), count)
    ]


def probability_of(law: tuple[sympy.Expr, ...], event: tuple[int, ...]) -> sympy.Expr:
    """Pr[law ∈ event] = the sum of the event's point masses."""
    return Add(*(law[y] for y in event))


def tanh_half(epsilon: sympy.Expr) -> sympy.Expr:
    """tanh(ε/2) from its definition, (e^ε - 1)/(e^ε + 1)."""
    return (exp(epsilon) - 1) / (exp(epsilon) + 1)
