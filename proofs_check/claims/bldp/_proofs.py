"""The poster's quantities in sympy, for the proof engines (``proofs_check.prover``).

Written from the BLDP definition, never from exactpml's output: given a leakage value o
possible under both neighbours, the conditional laws of M are real variables in [0, 1]
summing to 1 (or, for one event S, the numbers Pr[M(x) ∈ S | o] in [0, 1]), e^ε is
``exp(epsilon)`` (translated exactly as w = e^ε by the z3 route), and the smallest δ at ε is
the hockey-stick sum Σ_m max(0, P(m) - e^ε Q(m)) = max_S P(S) - e^ε Q(S) (the set form of
the definition; the two are equal, proved for the thesis's Prop 8 in ``pk.prop_8``).
"""

from __future__ import annotations

from typing import Any

import sympy
from sympy import Add, Eq, Interval, Max, exp

__all__ = [
    "DELTA",
    "EPSILON",
    "TIMEOUT",
    "UNIT",
    "epsilon_factor",
    "hockey_stick_sum",
    "law_symbols",
]

TIMEOUT = 5
"""Seconds for one proof attempt (most take 0.05-0.4 s; unknown after this, never a proof)."""

EPSILON = sympy.Symbol("epsilon", real=True)
DELTA = sympy.Symbol("delta", real=True)
UNIT = Interval(0, 1)


def law_symbols(
    name: str, size: int
) -> tuple[tuple[sympy.Symbol, ...], dict[sympy.Symbol, Interval], sympy.Rel]:
    """Every law on ``size`` outputs: (symbols ``name_0, ...``, their intervals [0, 1], the
    hypothesis that they sum to 1)."""
    symbols = tuple(sympy.Symbol(f"{name}_{index}", real=True) for index in range(size))
    return symbols, {symbol: UNIT for symbol in symbols}, Eq(Add(*symbols), 1)


def hockey_stick_sum(first: tuple[Any, ...], second: tuple[Any, ...], factor: Any) -> Any:
    """Σ_m max(0, first(m) - e^ε second(m)): the smallest δ at e^ε = ``factor``."""
    return Add(*(Max(0, p - factor * q) for p, q in zip(first, second, strict=True)))


def epsilon_factor() -> sympy.Expr:
    """e^ε."""
    return exp(EPSILON)
