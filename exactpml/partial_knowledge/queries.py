"""The queries of Proposition 26 and their reducibility maps φ, as exact functions.

Thesis §3.1.3, Prop 26: with independent records and fixed known records K (i ∉ K), these
deterministic queries are Θ-reducible, with φ_{b1,b2} (CLAIMS.md ``pk.prop_26``):

* counting, ``#{j : pred(x_j)}``:  o ↦ o + Σ_{j∈K} (pred(b2_j) − pred(b1_j));
* linear, ``Σ_j w_j x_j``:  o ↦ o + Σ_{j∈K} w_j (b2_j − b1_j);
* arithmetic mean:  o ↦ o + (1/n) Σ_{j∈K} (b2_j − b1_j);
* geometric mean ``(Π_j x_j)^{1/n}``:  o ↦ o · Π_{j∈K} (b2_j/b1_j)^{1/n};
* harmonic mean ``n / Σ_j 1/x_j``:  o ↦ n / (n/o + Σ_{j∈K} (1/b2_j − 1/b1_j));
* quadratic mean ``(Σ_j x_j² / n)^{1/2}``:  o ↦ (o² + (1/n) Σ_{j∈K} (b2_j² − b1_j²))^{1/2}.

Outputs are exact: rationals as ``Fraction``, roots as sympy radicals in a canonical form
(``root(r, n)`` of the rational ``r = o^n``), so equal values are equal labels.  The
geometric and quadratic maps are computed through that canonical form: the same map.
Means need positive records.

>>> from exactpml import Distribution
>>> from exactpml.partial_knowledge import PartialKnowledge
>>> record = Distribution({1: "1/2", 4: "1/2"})
>>> setting = PartialKnowledge([record] * 3, target=0, value=1, alternative=4, known=[2])
>>> query = geometric_mean()
>>> query.evaluate((1, 4, 4))
2*2**(1/3)
>>> query.output_map(setting, (1,), (4,))(1)
2**(2/3)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, as_scalar, exact, to_sympy
from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument
from exactpml.partial_knowledge.setting import PartialKnowledge

__all__ = [
    "ReducibleQuery",
    "arithmetic_mean",
    "counting_query",
    "geometric_mean",
    "harmonic_mean",
    "linear_query",
    "quadratic_mean",
]

KINDS = (
    "count",
    "linear",
    "arithmetic_mean",
    "geometric_mean",
    "harmonic_mean",
    "quadratic_mean",
)


def _canonical_root(value: Fraction, degree: int) -> Scalar:
    """The positive real ``value^(1/degree)`` in sympy's canonical radical form."""
    return as_scalar(sympy.root(sympy.Rational(value.numerator, value.denominator), degree))


def _rational_power(output: Scalar, degree: int, *, where: str) -> Fraction:
    """``output^degree``, which must be rational (outputs of the root-type means)."""
    power = as_scalar(sympy.expand(to_sympy(output) ** degree))
    if type(power) is not Fraction:
        raise InvalidArgument(
            f"{where}: {abbreviated(output)}^{abbreviated(degree)} = {abbreviated(power)} is not "
            "rational"
        )
    return power


@dataclass(frozen=True, slots=True)
class ReducibleQuery:
    """A deterministic query of Prop 26 (build with the functions of this module)."""

    kind: str
    weights: tuple[Fraction, ...] | None = None
    predicate: Callable[[Hashable], bool] | None = None

    def _number(self, value: Hashable, *, where: str) -> Fraction:
        number = exact(value, where=where, allow_symbolic=False)
        assert type(number) is Fraction
        if self.kind.endswith("_mean") and self.kind != "arithmetic_mean" and number <= 0:
            raise InvalidArgument(
                f"{where}: the {abbreviated(self.kind)} needs positive records, got "
                f"{abbreviated(number)}"
            )
        return number

    def evaluate(self, database: Sequence[Hashable]) -> Scalar:
        """The query's exact value on one database."""
        n = len(database)
        if self.kind == "count":
            assert self.predicate is not None
            return Fraction(sum(bool(self.predicate(v)) for v in database))
        values = [self._number(v, where=f"record {j}") for j, v in enumerate(database)]
        if self.kind == "linear":
            assert self.weights is not None
            if len(self.weights) != n:
                raise InvalidArgument(
                    f"linear query: {len(self.weights)} weights for a database of {abbreviated(n)} "
                    "records"
                )
            return sum((w * x for w, x in zip(self.weights, values, strict=True)), Fraction(0))
        if self.kind == "arithmetic_mean":
            return sum(values, Fraction(0)) / n
        if self.kind == "geometric_mean":
            product = Fraction(1)
            for x in values:
                product *= x
            return _canonical_root(product, n)
        if self.kind == "harmonic_mean":
            return n / sum((1 / x for x in values), Fraction(0))
        return _canonical_root(sum((x * x for x in values), Fraction(0)) / n, 2)

    def mechanism(self, records: Sequence[Distribution]) -> Mechanism:
        """The query as a deterministic Mechanism on every database tuple of the records."""
        databases = list(itertools.product(*(r.support for r in records)))
        return Mechanism.deterministic(self.evaluate, databases, name=f"{self.kind} query")

    def output_map(
        self, setting: PartialKnowledge, first: Sequence[Hashable], second: Sequence[Hashable]
    ) -> Callable[[Any], Scalar]:
        """Prop 26's φ_{first,second} for this query (knowledge values: known records' values)."""
        if setting.known is None:
            raise InvalidArgument("Prop 26's maps need knowledge given as fixed known= records")
        known, n = setting.known, setting.size
        b1, b2 = tuple(first), tuple(second)
        for name, b in (("first", b1), ("second", b2)):
            if len(b) != len(known):
                raise InvalidArgument(
                    f"{name}={abbreviated_repr(b)} must hold the values of the {len(known)} known "
                    "records"
                )
        if self.kind == "count":
            assert self.predicate is not None
            predicate = self.predicate
            shift = Fraction(
                sum(bool(predicate(v)) for v in b2) - sum(bool(predicate(v)) for v in b1)
            )
            return lambda o: as_scalar(o) + shift
        x1 = [self._number(v, where=f"first[{k}]") for k, v in enumerate(b1)]
        x2 = [self._number(v, where=f"second[{k}]") for k, v in enumerate(b2)]
        if self.kind == "linear":
            assert self.weights is not None
            w = [self.weights[j] for j in known]
            shift = sum((wj * (c - a) for wj, a, c in zip(w, x1, x2, strict=True)), Fraction(0))
            return lambda o: as_scalar(o) + shift
        if self.kind == "arithmetic_mean":
            shift = sum((c - a for a, c in zip(x1, x2, strict=True)), Fraction(0)) / n
            return lambda o: as_scalar(o) + shift
        if self.kind == "geometric_mean":
            factor = Fraction(1)
            for a, c in zip(x1, x2, strict=True):
                factor *= c / a
            # o · factor^{1/n}, canonically: the n-th root of o^n · factor.
            return lambda o: _canonical_root(
                _rational_power(o, n, where="geometric mean output") * factor, n
            )
        if self.kind == "harmonic_mean":
            shift = sum((1 / c - 1 / a for a, c in zip(x1, x2, strict=True)), Fraction(0))
            return lambda o: n / (n / as_scalar(o) + shift)
        shift = sum((c * c - a * a for a, c in zip(x1, x2, strict=True)), Fraction(0)) / n
        return lambda o: _canonical_root(
            _rational_power(o, 2, where="quadratic mean output") + shift, 2
        )


def counting_query(predicate: Callable[[Hashable], bool] | None = None) -> ReducibleQuery:
    """``#{j : predicate(x_j)}`` (default predicate: the record is 1 or True)."""
    if predicate is not None and not callable(predicate):
        raise InvalidArgument(f"predicate must be callable, got {type(predicate).__name__}")
    return ReducibleQuery("count", predicate=predicate or (lambda v: v is True or v == 1))


def linear_query(weights: Sequence[object]) -> ReducibleQuery:
    """``Σ_j w_j x_j`` with exact rational weights, one per record."""
    if isinstance(weights, (str, bytes)) or not isinstance(weights, Sequence) or not weights:
        raise InvalidArgument(
            f"weights={abbreviated_repr(weights)} must be a non-empty sequence of numbers"
        )
    exact_weights = []
    for k, w in enumerate(weights):
        value = exact(w, where=f"weights[{k}]", allow_symbolic=False)
        assert type(value) is Fraction
        exact_weights.append(value)
    return ReducibleQuery("linear", weights=tuple(exact_weights))


def arithmetic_mean() -> ReducibleQuery:
    """``(1/n) Σ_j x_j``."""
    return ReducibleQuery("arithmetic_mean")


def geometric_mean() -> ReducibleQuery:
    """``(Π_j x_j)^{1/n}`` (positive records)."""
    return ReducibleQuery("geometric_mean")


def harmonic_mean() -> ReducibleQuery:
    """``n / Σ_j 1/x_j`` (positive records)."""
    return ReducibleQuery("harmonic_mean")


def quadratic_mean() -> ReducibleQuery:
    """``((1/n) Σ_j x_j²)^{1/2}``."""
    return ReducibleQuery("quadratic_mean")
