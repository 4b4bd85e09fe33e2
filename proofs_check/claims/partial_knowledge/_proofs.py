"""The thesis's quantities in sympy, for the proof engines (``proofs_check.prover``).

Written from §3.1.3's definitions, never from exactpml's output: output laws are real
variables in [0, 1] summing to 1, e^ε is ``exp(epsilon)`` (the z3 route translates it exactly
as w = e^ε), and

* the PLRV form of Prop 8 / Defs 57-58, E_{O~P}[max(0, 1 - e^{ε - L(O)})] with
  L(O) = ln(P(O)/Q(O)), written term by term as P(o)·max(0, 1 - e^ε Q(o)/P(o)) on a law P of
  full support (L is defined on P's support; +∞ where Q(o) = 0 gives the term P(o));
* the set form max_S P(S) - e^ε Q(S) over every event S (the empty one included);
* the hockey-stick sum Σ_o max(0, P(o) - e^ε Q(o)), the PLRV form with P(o) multiplied in
  (equal to it term by term, and 0 where P(o) = 0), used where a post-processed law may
  lose its full support.
"""

from __future__ import annotations

import itertools
from typing import Any

import sympy
from sympy import Add, Eq, Interval, Max, exp

__all__ = [
    "EPSILON",
    "TIMEOUT",
    "UNIT",
    "epsilon_factor",
    "hockey_stick_sum",
    "law_symbols",
    "plrv_form",
    "set_form",
]

TIMEOUT = 5
"""Seconds for one proof attempt (most take 0.05-0.7 s; unknown after this, never a proof)."""

EPSILON = sympy.Symbol("epsilon", real=True)

UNIT = Interval(0, 1)

Law = tuple[Any, ...]


def law_symbols(
    name: str, size: int, *, full_support: bool = False
) -> tuple[tuple[sympy.Symbol, ...], dict[sympy.Symbol, Interval], sympy.Rel]:
    """Every law on ``size`` outputs: (symbols ``name_0, ...``, their intervals [0, 1] or
    (0, 1], the hypothesis that they sum to 1)."""
    symbols = tuple(sympy.Symbol(f"{name}_{index}", real=True) for index in range(size))
    interval = Interval.Lopen(0, 1) if full_support else UNIT
    return symbols, {symbol: interval for symbol in symbols}, Eq(Add(*symbols), 1)


def plrv_form(first: Law, second: Law, factor: sympy.Expr) -> sympy.Expr:
    """E_{O~first}[max(0, 1 - e^{ε - L(O)})], L(O) = ln(first(O)/second(O)), e^ε = factor:
    the expectation term by term (``first`` of full support)."""
    return Add(
        *(p * Max(0, 1 - factor * q / p) for p, q in zip(first, second, strict=True))
    )


def set_form(first: Law, second: Law, factor: sympy.Expr, *, largest: int | None = None
             ) -> sympy.Expr:
    """max over events S of first(S) - e^ε second(S) (the empty event gives 0); ``largest``
    keeps the events of at most that many outputs (a mutant)."""
    size = len(first)
    top = size if largest is None else largest
    differences = [
        Add(*(first[o] - factor * second[o] for o in event))
        for count in range(0, top + 1)
        for event in itertools.combinations(range(size), count)
    ]
    return Max(*differences)


def hockey_stick_sum(first: Law, second: Law, factor: sympy.Expr) -> sympy.Expr:
    """Σ_o max(0, first(o) - e^ε second(o))."""
    return Add(*(Max(0, p - factor * q) for p, q in zip(first, second, strict=True)))


def epsilon_factor() -> sympy.Expr:
    """e^ε."""
    return exp(EPSILON)
