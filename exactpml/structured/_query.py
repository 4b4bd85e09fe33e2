"""Queries answered through a sufficient statistic: counts, linear queries and means.

Every query here has the form ``q(x) = h(t(x))`` with an additive (or multiplicative)
statistic ``t(x) = g_1(d_1) ⊕ … ⊕ g_n(d_n)`` and an injective ``h``, so the answer (and any
noise added to it) depends on the database only through t:

============================  ==================  ======  ===================
query                         g_i(d)              ⊕       h(t)
============================  ==================  ======  ===================
counting query (predicate f)  f(d) in {0, 1}      \\+      t
linear query (weights w)      w_i v(d)            \\+      t
arithmetic mean               v(d)                \\+      t / n
geometric mean                v(d) > 0            ×       t^(1/n)
harmonic mean                 1 / v(d), v(d) > 0  \\+      n / t
quadratic mean                v(d)^2              \\+      sqrt(t / n)
============================  ==================  ======  ===================

(thesis, Prop 26).  ``v`` maps an entry to a number (the entry itself by default).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import exact_sign as sign_of
from exactpml.core.display import number_text, pretty
from exactpml.core.exact import (
    Scalar,
    as_scalar,
    exact,
    exact_product,
    exact_quotient,
    exact_sum,
    to_sympy,
)
from exactpml.database import DatabaseSpace
from exactpml.errors import InvalidArgument

__all__ = ["CountingQuery", "LinearQuery", "MeanQuery", "Query", "query_text"]

Label = Hashable
EntryMap = Callable[[Any], object] | Mapping[Any, object] | None


def _apply(mapping: EntryMap, entry: Label, name: str) -> object:
    if mapping is None:
        return entry
    if isinstance(mapping, Mapping):
        if entry not in mapping:
            raise InvalidArgument(f"{name} has no value for entry {entry!r}")
        return mapping[entry]
    if callable(mapping):
        return mapping(entry)
    raise InvalidArgument(f"{name} must be a function or a mapping of the entries")


def _number(value: object, where: str) -> Scalar:
    if isinstance(value, complex):
        raise InvalidArgument(f"{where}: {abbreviated_repr(value)} must be a real number")
    result = exact(value, where=where)
    if type(result) is not Fraction and to_sympy(result).free_symbols:
        raise InvalidArgument(
            f"{where}: {abbreviated(result)} must be a number, not a symbolic expression"
        )
    return result


class Query(ABC):
    """q(x) = h(g_1(d_1) ⊕ … ⊕ g_n(d_n)); subclasses define g, ⊕ and h."""

    #: ``"sum"`` or ``"product"``, the operation ⊕ combining the entries' statistics.
    combine: str = "sum"

    @property
    def increasing(self) -> bool:
        """True when h is increasing in t (False when decreasing, the harmonic mean)."""
        return True

    @abstractmethod
    def statistics(self, space: DatabaseSpace) -> tuple[dict[Label, Scalar], ...]:
        """``(g_i(d) for d in D)`` for each entry i (validated against ``space``).

        Returns one mapping when every entry has the same g (an exchangeable query).
        """

    @abstractmethod
    def answer(self, statistic: Scalar, size: int) -> Scalar:
        """h(t): the query's answer from the statistic (injective in t)."""

    @property
    def unit(self) -> Scalar:
        """The neutral element of ⊕."""
        return Fraction(0) if self.combine == "sum" else Fraction(1)

    def join(self, a: Scalar, b: Scalar) -> Scalar:
        """a ⊕ b."""
        if type(a) is Fraction and type(b) is Fraction:  # 4x faster than exact_sum's lcm
            return a + b if self.combine == "sum" else a * b
        return exact_sum([a, b]) if self.combine == "sum" else exact_product(a, b)

    def evaluate(self, database: Sequence[Label], space: DatabaseSpace) -> Scalar:
        """q(x) computed from its definition, entry by entry."""
        return self.evaluate_with(self.statistics(space), database, space.size)

    def evaluate_with(
        self, tables: tuple[dict[Label, Scalar], ...], database: Sequence[Label], size: int
    ) -> Scalar:
        """q(x) entry by entry from ``tables = self.statistics(space)``, computed once by a
        caller evaluating many databases (``QueryMechanism.explicit``)."""
        statistic = self.unit
        for i, entry in enumerate(database):
            statistic = self.join(statistic, tables[i if len(tables) > 1 else 0][entry])
        return self.answer(statistic, size)

    def answer_range(self, space: DatabaseSpace) -> tuple[Scalar, Scalar] | None:
        """The nominal range of the answer when the query fixes it (counting: [0, n])."""
        return None

    def linear_factor(self, size: int) -> Fraction | None:
        """a > 0 when ⊕ is + and h(t) = a·t (counts, linear queries, the arithmetic mean).

        Then the answer of a database is a·(base + g_i(d_i)), base the statistic of the
        other entries, which the closed forms of geometric noise rely on.  None otherwise.
        """
        return None


@dataclass(frozen=True, slots=True, init=False)
class CountingQuery(Query):
    """The counting query Σ_i f(d_i) for a predicate f: D -> {0, 1}.

    Args:
        predicate: a function or a mapping of the entries, with values exactly 0 or 1
            (``True``/``False`` are accepted).
    """

    predicate: Any

    def __init__(self, predicate: EntryMap) -> None:
        if predicate is None or not (callable(predicate) or isinstance(predicate, Mapping)):
            raise InvalidArgument(
                "predicate must be a function or a mapping from entries to 0 or 1"
            )
        object.__setattr__(self, "predicate", predicate)

    def statistics(self, space: DatabaseSpace) -> tuple[dict[Label, Scalar], ...]:
        table: dict[Label, Scalar] = {}
        for entry in space.alphabet:
            value = _apply(self.predicate, entry, "predicate")
            exact_types = (bool, int, Fraction, sympy.Integer, sympy.Rational)
            if not isinstance(value, exact_types) or value not in (0, 1):
                raise InvalidArgument(
                    f"predicate({entry!r}) = {abbreviated_repr(value)}, but a predicate must be 0 "
                    "or 1"
                )
            table[entry] = Fraction(int(value))
        return (table,)

    def answer(self, statistic: Scalar, size: int) -> Scalar:
        return statistic

    def linear_factor(self, size: int) -> Fraction | None:
        return Fraction(1)

    def answer_range(self, space: DatabaseSpace) -> tuple[Scalar, Scalar] | None:
        return Fraction(0), Fraction(space.size)

    def __repr__(self) -> str:
        """``CountingQuery({0: 0, 1: 1})``; a predicate given as a function shows as such."""
        if isinstance(self.predicate, Mapping):
            table = ", ".join(
                f"{d!r}: {v!r}" if isinstance(v, bool | int) else f"{d!r}: {number_text(exact(v))}"
                for d, v in self.predicate.items()
            )
            return f"CountingQuery({{{table}}})"
        return f"CountingQuery({self.predicate!r})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)

    def count(self, database: Sequence[Label], space: DatabaseSpace) -> int:
        """Σ_i f(d_i) for a database (validated)."""
        table = self.statistics(space)[0]
        return int(sum(table[entry] for entry in space.check(database)))


@dataclass(frozen=True, slots=True, init=False)
class LinearQuery(Query):
    """The linear query Σ_i w_i v(d_i) (thesis, Prop 26 (2)).

    Args:
        weights: one exact weight per entry (length n).
        values: v, a function or mapping from entries to numbers (default: the entry).
    """

    weights: tuple[Scalar, ...]
    values: Any

    def __init__(self, weights: Sequence[object], *, values: EntryMap = None) -> None:
        if isinstance(weights, (str, bytes)) or not isinstance(weights, Sequence):
            raise InvalidArgument("weights must be a sequence of numbers, one per entry")
        checked = tuple(_number(w, f"weights[{i}]") for i, w in enumerate(weights))
        object.__setattr__(self, "weights", checked)
        object.__setattr__(self, "values", values)

    def statistics(self, space: DatabaseSpace) -> tuple[dict[Label, Scalar], ...]:
        if len(self.weights) != space.size:
            raise InvalidArgument(
                f"weights has {len(self.weights)} entries, but databases have "
                f"n={abbreviated(space.size)}"
            )
        base = {
            d: _number(_apply(self.values, d, "values"), f"values({d!r})") for d in space.alphabet
        }
        if all(w == self.weights[0] for w in self.weights):
            return ({d: exact_product(self.weights[0], v) for d, v in base.items()},)
        return tuple({d: exact_product(w, v) for d, v in base.items()} for w in self.weights)

    def answer(self, statistic: Scalar, size: int) -> Scalar:
        return statistic

    def __repr__(self) -> str:
        weights = "[" + ", ".join(number_text(w) for w in self.weights) + "]"
        values = "" if self.values is None else f", values={self.values!r}"
        return f"LinearQuery({weights}{values})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)

    def linear_factor(self, size: int) -> Fraction | None:
        return Fraction(1)


_MEANS = ("arithmetic", "geometric", "harmonic", "quadratic")


@dataclass(frozen=True, slots=True, init=False)
class MeanQuery(Query):
    """The arithmetic, geometric, harmonic or quadratic mean of v(d_1), …, v(d_n).

    Thesis, Prop 26 (3).  The geometric and harmonic means need v(d) > 0.

    Args:
        kind: ``"arithmetic"``, ``"geometric"``, ``"harmonic"`` or ``"quadratic"``.
        values: v, a function or mapping from entries to numbers (default: the entry).
    """

    kind: str
    values: Any

    def __init__(self, kind: str, *, values: EntryMap = None) -> None:
        if kind not in _MEANS:
            raise InvalidArgument(f"kind={kind!r} must be one of {abbreviated_repr(list(_MEANS))}")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "combine", "product" if kind == "geometric" else "sum")

    def statistics(self, space: DatabaseSpace) -> tuple[dict[Label, Scalar], ...]:
        table: dict[Label, Scalar] = {}
        for d in space.alphabet:
            v = _number(_apply(self.values, d, "values"), f"values({d!r})")
            if self.kind in ("geometric", "harmonic") and sign_of(v) <= 0:
                raise InvalidArgument(
                    f"values({abbreviated_repr(d)}) = {abbreviated(v)}: the "
                    f"{abbreviated(self.kind)} mean needs positive values"
                )
            if self.kind == "harmonic":
                table[d] = exact_quotient(Fraction(1), v)
            elif self.kind == "quadratic":
                table[d] = exact_product(v, v)
            else:
                table[d] = v
        return (table,)

    @property
    def increasing(self) -> bool:
        return self.kind != "harmonic"

    def __repr__(self) -> str:
        values = "" if self.values is None else f", values={self.values!r}"
        return f"MeanQuery({self.kind!r}{values})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)

    def linear_factor(self, size: int) -> Fraction | None:
        return Fraction(1, size) if self.kind == "arithmetic" else None

    def answer(self, statistic: Scalar, size: int) -> Scalar:
        n = Fraction(size)
        if self.kind == "arithmetic":
            return exact_quotient(statistic, n)
        if self.kind == "harmonic":
            return exact_quotient(n, statistic)
        if self.kind == "quadratic":
            return as_scalar(sympy.sqrt(to_sympy(exact_quotient(statistic, n))))
        return as_scalar(sympy.root(to_sympy(statistic), size))


def _table_text(mapping: EntryMap, space: DatabaseSpace, name: str) -> str:
    """The entry map on the alphabet of ``space`` as a dict literal of exact numbers."""
    items = (
        f"{d!r}: {number_text(_number(_apply(mapping, d, name), f'{name}({d!r})'))}"
        for d in space.alphabet
    )
    return "{" + ", ".join(items) + "}"


def query_text(query: Query, space: DatabaseSpace, *, prefix: str = "") -> str:
    """Python that rebuilds ``query`` on the entries of ``space`` (functions as tables).

    ``prefix`` is put before the names that ``from exactpml import *`` does not bring
    (``"structured."`` for ``LinearQuery`` and ``MeanQuery``).
    """
    if isinstance(query, CountingQuery):
        return f"CountingQuery({_table_text(query.predicate, space, 'predicate')})"
    if isinstance(query, LinearQuery):
        weights = "[" + ", ".join(number_text(w) for w in query.weights) + "]"
        values = _table_text(query.values, space, "values")
        return f"{prefix}LinearQuery({weights}, values={values})"
    if isinstance(query, MeanQuery):
        values = _table_text(query.values, space, "values")
        return f"{prefix}MeanQuery({query.kind!r}, values={values})"
    return repr(query)
