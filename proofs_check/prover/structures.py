"""Every prior and every channel of a fixed size, as variables and hypotheses for the prover.

A finite-structure claim quantifies over *every real* prior and kernel of given sizes, not a
grid of them: the entries become real variables in ``[0, 1]`` and the rows summing to 1 become
hypotheses, which z3's nlsat handles exactly (``Max`` through its ``If``).  Proved for
``|X|, |Y| <= 2`` is then a statement about every 2x2 channel and every prior, a strict step up
from the small scope's grid 1/2, 1/3, 1/4.

>>> import sympy
>>> from proofs_check.prover import prove_inequality
>>> prior, channel = every_prior(2), every_channel(2, 2)
>>> variables, assuming = structure_domain(prior, channel)
>>> (p0, p1), ((a, b), (c, d)) = prior.rows[0], channel.rows
>>> leakage = (sympy.Max(p0 * a, p1 * c) + sympy.Max(p0 * b, p1 * d)) / sympy.Max(p0, p1)
>>> prove_inequality(leakage, 2, variables, assuming=assuming).status
'proved'
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from exactpml.errors import InvalidArgument

__all__ = ["FiniteStructure", "every_channel", "every_prior", "structure_domain"]


@dataclass(frozen=True)
class FiniteStructure:
    """Entries (rows of symbols), their intervals and the hypotheses tying them together."""

    rows: tuple[tuple[sympy.Symbol, ...], ...]
    variables: dict[sympy.Symbol, sympy.Interval]
    assuming: tuple[sympy.Rel, ...]


def _size(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 12:
        raise InvalidArgument(f"{name}={value!r} must be an int from 1 to 12")
    return value


def _distributions(rows: int, columns: int, name: str) -> FiniteStructure:
    if not isinstance(name, str) or not name.isidentifier():
        raise InvalidArgument(f"name={name!r} must be an identifier")
    symbols = tuple(
        tuple(sympy.Symbol(f"{name}_{i}{j}" if rows > 1 else f"{name}_{j}")
              for j in range(columns))
        for i in range(rows)
    )
    variables = {symbol: sympy.Interval(0, 1) for row in symbols for symbol in row}
    assuming = tuple(sympy.Eq(sympy.Add(*row), 1) for row in symbols)
    return FiniteStructure(symbols, variables, assuming)


def every_prior(size: int, *, name: str = "pi") -> FiniteStructure:
    """Every distribution on ``size`` letters: ``pi_0, ..., pi_{size-1}`` in [0, 1], sum 1."""
    return _distributions(1, _size("size", size), name)


def every_channel(inputs: int, outputs: int, *, name: str = "C") -> FiniteStructure:
    """Every kernel P_{Y|X} with ``inputs`` rows and ``outputs`` columns: ``C_xy`` in [0, 1],
    each row summing to 1."""
    return _distributions(_size("inputs", inputs), _size("outputs", outputs), name)


def structure_domain(
    *structures: FiniteStructure,
) -> tuple[dict[sympy.Symbol, sympy.Interval], tuple[sympy.Rel, ...]]:
    """``(variables, assuming)`` for :func:`~proofs_check.prover.prove_inequality`."""
    variables: dict[sympy.Symbol, sympy.Interval] = {}
    assuming: list[sympy.Rel] = []
    for structure in structures:
        if not isinstance(structure, FiniteStructure):
            raise InvalidArgument(f"{structure!r} is not a FiniteStructure")
        clash = set(variables) & set(structure.variables)
        if clash:
            names = ", ".join(sorted(str(symbol) for symbol in clash))
            raise InvalidArgument(f"two structures share the symbols {names}; name them apart")
        variables.update(structure.variables)
        assuming.extend(structure.assuming)
    return variables, tuple(assuming)
