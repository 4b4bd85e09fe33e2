"""Exact finite probability distributions (priors P_X, adversary beliefs Q_X, posteriors).

A :class:`Distribution` maps hashable outcomes to exact probabilities.  It is validated on
construction: every entry exact and non-negative, and the entries summing to exactly 1.
Symbolic entries are validated with three-valued logic (as sympy.stats does): an error
only when a condition is provably false; a condition that cannot be decided is kept in
``conditions`` and reported.

>>> prior = Distribution({"a": "1/2", "b": "1/3", "c": "1/6"})
>>> prior["b"]
Fraction(1, 3)
>>> prior.support
('a', 'b', 'c')
>>> Distribution({"a": "1/2", "b": "1/3"})
Traceback (most recent call last):
...
exactpml.errors.InvalidArgument: distribution: probabilities sum to 5/6, not 1
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.bounds import big_integer_printing
from exactpml.core.decisions import (
    prove_nonnegative,
    prove_positive,
    prove_zero,
    unproven_condition,
)
from exactpml.core.display import html_table, pretty, quoted, symbols_argument
from exactpml.core.exact import (
    Scalar,
    as_scalar,
    exact,
    exact_difference,
    exact_product,
    exact_quotient,
    exact_sum,
    is_rational,
    to_sympy,
)
from exactpml.core.foreign import exactpml_errors
from exactpml.errors import InvalidArgument

__all__ = ["Distribution", "require_full_support", "require_same_alphabet"]


def _label(outcome: Hashable) -> str:
    return abbreviated_repr(outcome)


def _rational_probabilities(raw: list[object]) -> tuple[Fraction, ...] | None:
    """The entries as Fractions when all are ints or Fractions, non-negative and summing to 1.

    ``None`` otherwise: the caller then checks entry by entry and names the problem.
    """
    types = set(map(type, raw))
    if not raw or not types <= {Fraction, int}:
        return None
    values: list[Any] = [v if type(v) is Fraction else Fraction(v) for v in raw]  # type: ignore[call-overload]
    numerators = [v.numerator for v in values]
    denominators = [v.denominator for v in values]
    if min(numerators) < 0:
        return None
    common = math.lcm(*denominators)
    total = sum(n * (common // d) for n, d in zip(numerators, denominators, strict=True))
    return tuple(values) if total == common else None


def validate_probabilities(
    entries: Sequence[tuple[Hashable, object]],
    *,
    name: str,
    allow_float: bool,
    symbols: Mapping[str, sympy.Symbol] | None,
    entry_name: Callable[[Hashable], str] | None = None,
) -> tuple[tuple[Scalar, ...], tuple[sympy.Basic, ...]]:
    """Convert and validate one probability vector; return the values and unproven conditions.

    Shared by :class:`Distribution` and by each row of a mechanism.
    """
    rational = _rational_probabilities([raw for _, raw in entries])
    if rational is not None:
        return rational, ()
    describe = entry_name or (lambda outcome: f"{name}, outcome {_label(outcome)}")
    values: list[Scalar] = []
    conditions: list[sympy.Basic] = []
    for outcome, raw in entries:
        where = describe(outcome)
        value = exact(raw, where=where, allow_float=allow_float, symbols=symbols)
        if type(value) is not Fraction:
            if to_sympy(value).has(sympy.oo, sympy.S.NegativeInfinity):
                raise InvalidArgument(f"{where}: {abbreviated(value)} is not a finite probability")
            nonnegative = prove_nonnegative(value)
            if nonnegative is False:
                raise InvalidArgument(f"{where}: {abbreviated(value)} is negative")
            if nonnegative is None:  # built unevaluated: sympy would evaluate it numerically
                conditions.extend(
                    unproven_condition(
                        sympy.Ge(to_sympy(value), 0, evaluate=False),
                        nonnegative,
                        where=where,
                        statement=f"{abbreviated(value)} >= 0",
                    )
                )
        elif value < 0:
            raise InvalidArgument(f"{where}: {abbreviated(value)} is negative")
        values.append(value)
    total = exact_sum(values)
    if type(total) is Fraction:
        if total != 1:
            raise InvalidArgument(f"{name}: probabilities sum to {abbreviated(total)}, not 1")
    else:
        is_one = prove_zero(as_scalar(to_sympy(total) - 1))
        if is_one is False:
            raise InvalidArgument(
                f"{name}: probabilities sum to {abbreviated(total)}, which is not 1"
            )
        if is_one is None:
            conditions.extend(
                unproven_condition(
                    sympy.Eq(to_sympy(total), 1, evaluate=False),
                    is_one,
                    where=name,
                    statement=f"the probabilities sum to 1 ({abbreviated(total)} = 1)",
                )
            )
    return tuple(values), tuple(conditions)


@dataclass(frozen=True, slots=True, init=False, eq=False)
class Distribution:
    """A probability distribution on a finite set of hashable outcomes, with exact entries.

    Args:
        probabilities: a mapping outcome -> probability, or an iterable of pairs.  Entries
            may be ints, Fractions, strings (``"1/3"``, ``"0.3"``), Decimals or sympy
            expressions; floats raise ``InexactInput`` unless ``allow_float=True``.
        name: how error messages refer to this distribution (``"prior"``, ...).
        allow_float: convert floats to the exact value of their binary representation.
        symbols: names usable inside string entries, mapped to sympy symbols.

    Zero entries are kept: they are part of the alphabet but not of the support.
    """

    outcomes: tuple[Hashable, ...]
    probabilities: tuple[Scalar, ...]
    conditions: tuple[sympy.Basic, ...]
    _index: dict[Hashable, int]

    def __init__(
        self,
        probabilities: Mapping[Any, Any] | Iterable[tuple[Any, Any]],
        *,
        name: str = "distribution",
        allow_float: bool = False,
        symbols: Mapping[str, sympy.Symbol] | None = None,
    ) -> None:
        with exactpml_errors(name):  # a foreign error (unhashable, not pairs, ...) names it
            self._setup(probabilities, name, allow_float, symbols)

    def _setup(
        self,
        probabilities: Mapping[Any, Any] | Iterable[tuple[Any, Any]],
        name: str,
        allow_float: bool,
        symbols: Mapping[str, sympy.Symbol] | None,
    ) -> None:
        pairs = (
            list(probabilities.items())
            if isinstance(probabilities, Mapping)
            else list(probabilities)
        )
        if not pairs:
            raise InvalidArgument(f"{name}: the alphabet is empty")
        outcomes = tuple(outcome for outcome, _ in pairs)
        index: dict[Hashable, int] = {}
        for position, outcome in enumerate(outcomes):
            try:
                if outcome in index:
                    raise InvalidArgument(f"{name}: outcome {_label(outcome)} appears twice")
            except TypeError as error:
                raise InvalidArgument(
                    f"{name}: outcome {abbreviated_repr(outcome)} is not hashable"
                ) from error
            index[outcome] = position
        values, conditions = validate_probabilities(
            pairs, name=name, allow_float=allow_float, symbols=symbols
        )
        object.__setattr__(self, "outcomes", outcomes)
        object.__setattr__(self, "probabilities", values)
        object.__setattr__(self, "conditions", conditions)
        object.__setattr__(self, "_index", index)

    @classmethod
    def _trusted(
        cls,
        outcomes: Sequence[Hashable],
        probabilities: Sequence[Scalar],
        conditions: tuple[sympy.Basic, ...] = (),
    ) -> Distribution:
        """Build without re-validation (for values computed exactly by exactpml itself)."""
        self = object.__new__(cls)
        object.__setattr__(self, "outcomes", tuple(outcomes))
        object.__setattr__(self, "probabilities", tuple(probabilities))
        object.__setattr__(self, "conditions", conditions)
        object.__setattr__(self, "_index", {o: i for i, o in enumerate(outcomes)})
        return self

    # --- constructors -----------------------------------------------------------------
    @classmethod
    def uniform(cls, outcomes: Iterable[Hashable]) -> Distribution:
        """The uniform distribution on ``outcomes``.

        >>> Distribution.uniform("abc")["a"]
        Fraction(1, 3)
        """
        items = list(outcomes)
        if not items:
            raise InvalidArgument("uniform: the alphabet is empty")
        if len(set(items)) != len(items):
            raise InvalidArgument("uniform: the alphabet has repeated outcomes")
        return cls._trusted(items, [Fraction(1, len(items))] * len(items))

    @classmethod
    def point_mass(cls, outcome: Hashable, outcomes: Iterable[Hashable]) -> Distribution:
        """The distribution putting probability 1 on ``outcome`` (0 on the rest of ``outcomes``)."""
        items = list(outcomes)
        if outcome not in items:
            raise InvalidArgument(
                f"point_mass: outcome {abbreviated_repr(outcome)} is not in the alphabet"
            )
        return cls._trusted(items, [Fraction(int(o == outcome)) for o in items])

    @classmethod
    def product(cls, distributions: Sequence[Distribution]) -> Distribution:
        """The product distribution; its outcomes are tuples (one coordinate per factor).

        >>> coin = Distribution({0: "1/4", 1: "3/4"})
        >>> Distribution.product([coin, coin])[(1, 1)]
        Fraction(9, 16)
        """
        if not distributions:
            raise InvalidArgument("product: no distributions given")
        outcomes: list[tuple[Hashable, ...]] = [()]
        probabilities: list[Scalar] = [Fraction(1)]
        conditions: tuple[sympy.Basic, ...] = ()
        for factor in distributions:
            if not isinstance(factor, Distribution):
                raise InvalidArgument(f"product: {abbreviated_repr(factor)} is not a Distribution")
            outcomes = [(*o, x) for o in outcomes for x in factor.outcomes]
            probabilities = [
                exact_product(p, q) for p in probabilities for q in factor.probabilities
            ]
            conditions += factor.conditions
        return cls._trusted(outcomes, probabilities, conditions)

    # --- mapping protocol -------------------------------------------------------------
    def __getitem__(self, outcome: Hashable) -> Scalar:
        try:
            return self.probabilities[self._index[outcome]]
        except KeyError:
            raise InvalidArgument(
                f"outcome {abbreviated_repr(outcome)} is not in the alphabet "
                f"{abbreviated_repr(list(self.outcomes))}"
            ) from None

    def get(self, outcome: Hashable, default: Scalar = Fraction(0)) -> Scalar:
        """The probability of ``outcome``, or ``default`` when it is not in the alphabet."""
        position = self._index.get(outcome)
        return default if position is None else self.probabilities[position]

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._index

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.outcomes)

    def __len__(self) -> int:
        return len(self.outcomes)

    def items(self) -> Iterator[tuple[Hashable, Scalar]]:
        """Pairs (outcome, probability), zero entries included, in alphabet order."""
        return zip(self.outcomes, self.probabilities, strict=True)

    def as_dict(self) -> dict[Hashable, Scalar]:
        """A plain dict outcome -> probability."""
        return dict(self.items())

    # --- properties -------------------------------------------------------------------
    @property
    def is_rational(self) -> bool:
        """True when every probability is a rational number."""
        return all(is_rational(p) for p in self.probabilities)

    @property
    def support(self) -> tuple[Hashable, ...]:
        """Outcomes whose probability is not provably zero, in alphabet order."""
        return tuple(o for o, p in self.items() if not prove_zero(p))

    @property
    def has_full_support(self) -> bool:
        """True when every probability is provably positive."""
        return all(prove_positive(p) is True for p in self.probabilities)

    # --- operations -------------------------------------------------------------------
    def map(self, function: Callable[[Any], Hashable]) -> Distribution:
        """The push-forward of this distribution through ``function`` (outcome order kept)."""
        totals: dict[Hashable, list[Scalar]] = {}
        for outcome, probability in self.items():
            totals.setdefault(function(outcome), []).append(probability)
        return Distribution._trusted(
            list(totals), [exact_sum(v) for v in totals.values()], self.conditions
        )

    def marginal(self, index: int) -> Distribution:
        """The marginal of coordinate ``index`` of tuple-valued outcomes."""
        for outcome in self.outcomes:
            if not isinstance(outcome, tuple) or not -len(outcome) <= index < len(outcome):
                raise InvalidArgument(
                    f"marginal: outcome {abbreviated_repr(outcome)} has no coordinate {index}"
                )
        return self.map(lambda outcome: outcome[index])

    def condition_on(self, event: Callable[[Any], bool], *, name: str = "event") -> Distribution:
        """The conditional distribution given ``event`` (a predicate on outcomes).

        Raises ``InvalidArgument`` when the event has probability zero.
        """
        mass = exact_sum(p for o, p in self.items() if event(o))
        if prove_zero(mass):
            raise InvalidArgument(f"condition_on: the {name} has probability zero")
        return Distribution._trusted(
            self.outcomes,
            [exact_quotient(p, mass) if event(o) else Fraction(0) for o, p in self.items()],
            self.conditions,
        )

    # --- equality and display ---------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        if set(self.outcomes) != set(other.outcomes):
            return False
        return all(prove_zero(exact_difference(p, other[o])) for o, p in self.items())

    def __hash__(self) -> int:
        return hash(frozenset(self.items()))

    def __repr__(self) -> str:
        """Python that rebuilds this distribution: ``Distribution({'a': '1/3', 'b': '2/3'})``.

        Probabilities are strings of exactpml's grammar (zeros included), so the text pastes
        after ``from exactpml import *``; free symbols add a ``symbols=`` declaration.
        """
        with big_integer_printing():  # labels may be integers of any size
            body = ", ".join(f"{o!r}: {quoted(p)}" for o, p in self.items())
        return f"Distribution({{{body}}}{symbols_argument(self.probabilities)})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)

    def _repr_html_(self) -> str:
        """Jupyter: a table of outcomes and their exact probabilities."""
        return html_table("Distribution", ["outcome", "probability"], self.items())


def require_full_support(distribution: Distribution, *, name: str = "prior") -> None:
    """Raise ``InvalidArgument`` naming the outcome when some probability is provably zero."""
    for outcome, probability in distribution.items():
        if prove_zero(probability):
            raise InvalidArgument(
                f"{name} must have full support, but outcome {abbreviated_repr(outcome)} has "
                "probability 0"
            )


def require_same_alphabet(
    distribution: Distribution, alphabet: Sequence[Hashable], *, name: str, against: str
) -> None:
    """Raise ``InvalidArgument`` listing missing and extra outcomes when alphabets differ."""
    if not isinstance(distribution, Distribution):
        raise InvalidArgument(f"{name} must be a Distribution, got {type(distribution).__name__}")
    mine, theirs = set(distribution.outcomes), set(alphabet)
    if mine == theirs:
        return
    missing = [a for a in alphabet if a not in mine]
    extra = [o for o in distribution.outcomes if o not in theirs]
    parts = []
    if missing:
        parts.append(f"missing {abbreviated_repr(missing)}")
    if extra:
        parts.append(f"has outcomes not in the {against} {abbreviated_repr(extra)}")
    raise InvalidArgument(
        f"{name} is over a different alphabet than the {against}: " + "; ".join(parts)
    )
