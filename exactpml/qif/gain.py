"""Gain functions g: W × X -> R of the g-leakage framework, with exact rational entries.

Source: Alvim, Chatzikokolakis, McIver, Morgan, Palamidessi, Smith, *The Science of
Quantitative Information Flow* (Springer, 2020), Chapter 3 ("Priors and vulnerabilities"):
gain functions and g-vulnerability (the identity gain g_id, whose vulnerability is Bayes
vulnerability; guessing a property of the secret; k tries; distance-based gains).

A :class:`GainFunction` is a frozen, validated value, like :class:`~exactpml.Distribution`
and :class:`~exactpml.Mechanism`: it is built from ``{guess w: {secret x: g(w, x)}}``, every
entry read by :func:`exactpml.core.exact.exact` (strings in exactpml's grammar, ints,
Fractions, Decimals; floats refused naming the entry) and required rational.  Secrets a
guess's row omits have gain 0.  Gains may be negative (the book's class GX); the
multiplicative g-leakage needs positive vulnerabilities and says so when they are not.
Every constructor checks the size of its table (guesses × secrets) against
``Bounds.table_entries`` before building it (``GainFunction.identity(range(10**6))`` would
hold 10^12 gains).

>>> g = GainFunction({"a": {"a": 1}, "b": {"b": 1}, "skip": {"a": "1/3", "b": "1/3"}})
>>> g.gain("skip", "b")
Fraction(1, 3)
>>> g.secrets
('a', 'b')
>>> GainFunction({"w": {"x": 0.5}})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
exactpml.errors.InexactInput: gain function, guess 'w', secret 'x': 0.5 is a float, ...
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.exact import exact
from exactpml.core.parameters import count_within, positive_integer, within_bound
from exactpml.errors import InvalidArgument

__all__ = ["MAX_GUESSES", "GainFunction"]

Label = Hashable

MAX_GUESSES = 100_000
"""The largest number of guesses a constructor builds (``k_tries`` has C(n, k) guesses)."""


def _labels(values: Iterable[Label], *, name: str, what: str) -> tuple[Label, ...]:
    count_within(values, "table_entries", where=name, what=what)  # before tuple() reads them
    items = tuple(values)
    if not items:
        raise InvalidArgument(f"{name}: the set of {what} is empty")
    seen: set[Label] = set()
    for item in items:
        try:
            if item in seen:
                raise InvalidArgument(
                    f"{name}: {abbreviated(what[:-1])} {abbreviated_repr(item)} appears twice"
                )
        except TypeError as error:
            raise InvalidArgument(
                f"{name}: {abbreviated(what[:-1])} {abbreviated_repr(item)} is not hashable"
            ) from error
        seen.add(item)
    return items


_ZERO, _ONE = Fraction(0), Fraction(1)  # shared by the 0/1 tables (Fractions are immutable)


def _check_table(guesses: int, secrets: int, where: str) -> None:
    """Refuse a table of guesses × secrets entries above ``Bounds.table_entries``."""
    entries = guesses * secrets
    within_bound(
        entries,
        "table_entries",
        where=where,
        what=f"{guesses} guesses × {secrets} secrets make a table of {entries} gains",
    )


@dataclass(frozen=True, slots=True, init=False, eq=False)
class GainFunction:
    """A gain function g(w, x): the adversary's gain for guess w when the secret is x.

    Args:
        gains: a mapping guess -> (mapping secret -> gain).  Missing secrets have gain 0.
        secrets: the secret alphabet in order; by default every secret named in some row,
            in order of first appearance.  A row naming a secret outside it is an error.
        name: how error messages refer to this gain function.

    Attributes:
        guesses: the guesses W, in order.
        secrets: the secrets X, in order.
        rows: ``rows[i][j] = g(guesses[i], secrets[j])`` as ``Fraction``.
    """

    guesses: tuple[Label, ...]
    secrets: tuple[Label, ...]
    rows: tuple[tuple[Fraction, ...], ...]
    _guess_index: dict[Label, int]
    _secret_index: dict[Label, int]

    def __init__(
        self,
        gains: Mapping[Any, Mapping[Any, Any]],
        *,
        secrets: Sequence[Label] | None = None,
        name: str = "gain function",
    ) -> None:
        if not isinstance(gains, Mapping):
            raise InvalidArgument(
                f"{name}: expected a mapping guess -> {{secret: gain}}, got {type(gains).__name__}"
            )
        guesses = _labels(gains, name=name, what="guesses")
        for w in guesses:
            if not isinstance(gains[w], Mapping):
                raise InvalidArgument(
                    f"{name}: guess {abbreviated_repr(w)} must map secrets to gains, got "
                    f"{type(gains[w]).__name__}"
                )
        if secrets is None:
            seen: dict[Label, None] = {}
            for w in guesses:
                for x in gains[w]:
                    try:
                        seen.setdefault(x, None)
                    except TypeError as error:
                        raise InvalidArgument(
                            f"{name}: secret {abbreviated_repr(x)} is not hashable"
                        ) from error
            secret_labels = _labels(seen, name=name, what="secrets")
        else:
            secret_labels = _labels(secrets, name=name, what="secrets")
        _check_table(len(guesses), len(secret_labels), name)
        known = set(secret_labels)
        rows = []
        for w in guesses:
            row = gains[w]
            for x in row:
                if x not in known:
                    raise InvalidArgument(
                        f"{name}: guess {abbreviated_repr(w)} names secret {abbreviated_repr(x)}, "
                        "which is not among the "
                        f"secrets {abbreviated_repr(list(secret_labels))}"
                    )
            values = []
            for x in secret_labels:
                where = f"{name}, guess {w!r}, secret {x!r}"
                value = exact(row.get(x, 0), where=where, allow_symbolic=False)
                if type(value) is not Fraction:  # exact() with allow_symbolic=False
                    raise InvalidArgument(
                        f"{where}: {abbreviated(value)} must be a rational number"
                    )
                values.append(value)
            rows.append(tuple(values))
        self._set(guesses, secret_labels, tuple(rows))

    def _set(
        self,
        guesses: tuple[Label, ...],
        secrets: tuple[Label, ...],
        rows: tuple[tuple[Fraction, ...], ...],
    ) -> None:
        object.__setattr__(self, "guesses", guesses)
        object.__setattr__(self, "secrets", secrets)
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "_guess_index", {w: i for i, w in enumerate(guesses)})
        object.__setattr__(self, "_secret_index", {x: j for j, x in enumerate(secrets)})

    @classmethod
    def _trusted(
        cls,
        guesses: Sequence[Label],
        secrets: Sequence[Label],
        rows: Sequence[Sequence[Fraction]],
    ) -> GainFunction:
        self = object.__new__(cls)
        self._set(tuple(guesses), tuple(secrets), tuple(tuple(r) for r in rows))
        return self

    # --- constructors (the book's Chapter 3) -------------------------------------------------
    @classmethod
    def identity(cls, secrets: Iterable[Label]) -> GainFunction:
        """g_id(w, x) = 1 if w = x else 0 (W = X); its vulnerability is Bayes vulnerability.

        >>> GainFunction.identity("ab").gain("a", "b")
        Fraction(0, 1)
        """
        items = _labels(secrets, name="identity", what="secrets")
        _check_table(len(items), len(items), "GainFunction.identity")
        rows = []
        for position in range(len(items)):
            row = [_ZERO] * len(items)
            row[position] = _ONE
            rows.append(row)
        return cls._trusted(items, items, rows)

    @classmethod
    def k_tries(cls, secrets: Iterable[Label], k: int) -> GainFunction:
        """g_k(W, x) = 1 if x ∈ W else 0, W a set of k secrets (guesses are k-tuples in order).

        At most :data:`MAX_GUESSES` guesses (C(n, k) of them).

        >>> g = GainFunction.k_tries("abc", 2)
        >>> g.guesses
        (('a', 'b'), ('a', 'c'), ('b', 'c'))
        """
        items = _labels(secrets, name="k_tries", what="secrets")
        size = positive_integer(k, name="k")
        if size > len(items):
            raise InvalidArgument(
                f"k={abbreviated(size)} must not exceed the number of secrets {len(items)}"
            )
        if math.comb(len(items), size) > MAX_GUESSES:
            raise InvalidArgument(
                f"k_tries: C({len(items)}, {abbreviated(size)}) guesses exceed "
                f"MAX_GUESSES={abbreviated(MAX_GUESSES)}"
            )
        _check_table(math.comb(len(items), size), len(items), "GainFunction.k_tries")
        guesses = list(combinations(items, size))
        return cls._trusted(
            guesses, items, [[_ONE if x in w else _ZERO for x in items] for w in guesses]
        )

    @classmethod
    def from_metric(
        cls,
        secrets: Iterable[Label],
        distance: Callable[[Any, Any], object] | Mapping[tuple[Any, Any], object],
    ) -> GainFunction:
        """The distance-based gain g_d(w, x) = 1 - d(w, x) with W = X (book Chapter 3).

        ``distance`` is a callable ``d(w, x)`` or a mapping ``{(w, x): d}``; its values are
        read exactly (floats refused) and must be non-negative with d(x, x) = 0.  Gains
        are negative where d > 1 (allowed: g-vulnerability is then still defined).

        >>> g = GainFunction.from_metric([0, 1, 2], lambda w, x: abs(w - x) * Fraction(1, 2))
        >>> g.gain(0, 2), g.gain(1, 2)
        (Fraction(0, 1), Fraction(1, 2))
        """
        items = _labels(secrets, name="from_metric", what="secrets")
        _check_table(len(items), len(items), "GainFunction.from_metric")
        rows = []
        for w in items:
            row = []
            for x in items:
                where = f"distance({w!r}, {x!r})"
                if isinstance(distance, Mapping):
                    if (w, x) not in distance:
                        raise InvalidArgument(f"{where} is missing from the distance mapping")
                    raw = distance[(w, x)]
                else:
                    raw = distance(w, x)
                value = exact(raw, where=where, allow_symbolic=False)
                if type(value) is not Fraction:
                    raise InvalidArgument(
                        f"{where}: {abbreviated(value)} must be a rational number"
                    )
                if value < 0:
                    raise InvalidArgument(f"{where}={abbreviated(value)} must not be negative")
                if w == x and value != 0:
                    raise InvalidArgument(f"{where}={abbreviated(value)} must be 0")
                row.append(1 - value)
            rows.append(row)
        return cls._trusted(items, items, rows)

    @classmethod
    def property(cls, secrets: Iterable[Label], blocks: Iterable[Iterable[Label]]) -> GainFunction:
        """Guess which block of a partition of X holds the secret: g(B, x) = 1 if x ∈ B.

        The guesses are the blocks as tuples (book Chapter 3: guessing a property of X).

        >>> g = GainFunction.property([1, 2, 3, 4], [[1, 3], [2, 4]])
        >>> g.guesses, g.gain((1, 3), 3)
        (((1, 3), (2, 4)), Fraction(1, 1))
        """
        items = _labels(secrets, name="property", what="secrets")
        known = set(items)
        position_of = {x: j for j, x in enumerate(items)}
        guesses: list[tuple[Label, ...]] = []
        owner: dict[Label, int] = {}
        for position, block in enumerate(blocks):
            members = tuple(block)
            if not members:
                raise InvalidArgument(f"property: block {abbreviated(position)} is empty")
            for x in members:
                if x not in known:
                    raise InvalidArgument(
                        f"property: block {abbreviated(position)} names unknown secret "
                        f"{abbreviated_repr(x)}"
                    )
                if x in owner:
                    raise InvalidArgument(
                        f"property: secret {abbreviated_repr(x)} is in blocks "
                        f"{abbreviated(owner[x])} and {abbreviated(position)}"
                    )
                owner[x] = position
            guesses.append(members)
        missing = [x for x in items if x not in owner]
        if missing:
            raise InvalidArgument(
                f"property: the blocks do not cover secrets {abbreviated_repr(missing)}"
            )
        _check_table(len(guesses), len(items), "GainFunction.property")
        rows = []
        for w in guesses:
            row = [_ZERO] * len(items)
            for x in w:
                row[position_of[x]] = _ONE
            rows.append(row)
        return cls._trusted(guesses, items, rows)

    # --- access ---------------------------------------------------------------------------
    def gain(self, guess: Label, secret: Label) -> Fraction:
        """g(guess, secret)."""
        try:
            i = self._guess_index[guess]
        except (KeyError, TypeError):
            raise InvalidArgument(
                f"guess {abbreviated_repr(guess)} is not among the guesses"
            ) from None
        try:
            j = self._secret_index[secret]
        except (KeyError, TypeError):
            raise InvalidArgument(
                f"secret {abbreviated_repr(secret)} is not among the secrets"
            ) from None
        return self.rows[i][j]

    def as_dict(self) -> dict[Label, dict[Label, Fraction]]:
        """``{w: {x: g(w, x)}}`` with every entry, zeros included."""
        return {
            w: dict(zip(self.secrets, row, strict=True))
            for w, row in zip(self.guesses, self.rows, strict=True)
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GainFunction):
            return NotImplemented
        return self.as_dict() == other.as_dict() and set(self.secrets) == set(other.secrets)

    def __hash__(self) -> int:
        return hash(frozenset((w, frozenset(r.items())) for w, r in self.as_dict().items()))

    def __repr__(self) -> str:
        """Python that rebuilds this gain function (entries as exact strings)."""
        body = ", ".join(
            f"{w!r}: {{" + ", ".join(f"{x!r}: '{v}'" for x, v in row.items() if v) + "}"
            for w, row in self.as_dict().items()
        )
        return f"GainFunction({{{body}}}, secrets={list(self.secrets)!r})"
