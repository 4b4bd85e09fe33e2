"""The set D^n of databases: entries, neighbours (Def 4.1), pairs at distance k, ⊥.

Saeidian et al., §4; Vadhan, Def 1 ("differing only on a single row").
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.display import abbreviated_fields_repr
from exactpml.errors import InvalidArgument

__all__ = ["BOTTOM", "Database", "DatabaseSpace", "Label"]

Label = Hashable
Database = tuple[Any, ...]


class _Bottom(enum.Enum):
    """The "no answer" output of thresholded and sampling mechanisms (written ⊥)."""

    BOTTOM = "⊥"

    def __repr__(self) -> str:
        return "BOTTOM"

    def __str__(self) -> str:
        return "⊥"


BOTTOM = _Bottom.BOTTOM
"""The output ⊥ ("nothing released") of thresholded and sampling mechanisms."""


def check_index(index: object, size: int, *, name: str = "index") -> int:
    """``index`` as an entry position of a database of ``size`` entries, or a clear error."""
    if isinstance(index, bool) or not isinstance(index, int):
        raise InvalidArgument(
            f"{name}={abbreviated_repr(index)} must be an int (an entry position)"
        )
    if not 0 <= index < size:
        raise InvalidArgument(
            f"{name}={abbreviated(index)} must lie in [0, {abbreviated(size - 1)}] "
            f"(n={abbreviated(size)} entries)"
        )
    return index


@abbreviated_fields_repr  # a size of any size prints by its ends
@dataclass(frozen=True, slots=True, init=False)
class DatabaseSpace:
    """The set D^n of databases with n entries from the finite alphabet D.

    Args:
        alphabet: the entries' alphabet D (hashable, distinct, at least one).
        size: the number n >= 1 of entries.
    """

    alphabet: tuple[Label, ...]
    size: int

    def __init__(self, alphabet: Iterable[Label], size: int) -> None:
        if isinstance(alphabet, (str, bytes)):
            letters: tuple[Label, ...] = tuple(alphabet)
        else:
            try:
                letters = tuple(alphabet)
            except TypeError:
                raise InvalidArgument(
                    f"alphabet={abbreviated_repr(alphabet)} must be an iterable of entries"
                ) from None
        if not letters:
            raise InvalidArgument("alphabet: the entry alphabet D is empty")
        seen: set[Label] = set()
        for letter in letters:
            try:
                if letter in seen:
                    raise InvalidArgument(
                        f"alphabet: entry {abbreviated_repr(letter)} appears twice"
                    )
            except TypeError:
                raise InvalidArgument(
                    f"alphabet: entry {abbreviated_repr(letter)} is not hashable"
                ) from None
            seen.add(letter)
        if isinstance(size, bool) or not isinstance(size, int):
            raise InvalidArgument(
                f"size={abbreviated_repr(size)} must be an int (the number n of entries)"
            )
        if size < 1:
            raise InvalidArgument(f"size={abbreviated(size)} must be at least 1")
        object.__setattr__(self, "alphabet", letters)
        object.__setattr__(self, "size", size)

    # --- databases --------------------------------------------------------------------
    @property
    def count(self) -> int:
        """``|D|^n``, the number of databases."""
        return len(self.alphabet) ** self.size

    def databases(self) -> Iterator[Database]:
        """Every database of D^n, in lexicographic order of the alphabet's order."""
        return itertools.product(self.alphabet, repeat=self.size)

    def check(self, database: object, *, name: str = "database") -> Database:
        """Return ``database`` as a tuple, or raise naming what is wrong with it."""
        if not isinstance(database, (tuple, list)):
            raise InvalidArgument(
                f"{name}={abbreviated_repr(database)} must be a tuple of "
                f"n={abbreviated(self.size)} entries from "
                f"{abbreviated_repr(list(self.alphabet))}"
            )
        if len(database) != self.size:
            raise InvalidArgument(
                f"{name}={abbreviated_repr(tuple(database))} has {len(database)} entries, but "
                "databases have "
                f"n={abbreviated(self.size)}"
            )
        for position, entry in enumerate(database):
            try:
                known = entry in self.alphabet
            except TypeError:
                known = False
            if not known:
                raise InvalidArgument(
                    f"{name}={abbreviated_repr(tuple(database))}: entry {entry!r} at position "
                    f"{abbreviated(position)} is not "
                    f"in the alphabet {abbreviated_repr(list(self.alphabet))}"
                )
        return tuple(database)

    def check_entry(self, entry: object, *, name: str = "entry") -> Label:
        """Return ``entry`` if it is in D, else raise naming it."""
        try:
            known = entry in self.alphabet
        except TypeError:
            known = False
        if not known:
            raise InvalidArgument(
                f"{name}={entry!r} is not in the alphabet {abbreviated_repr(list(self.alphabet))}"
            )
        return entry

    def check_others(self, others: object, index: int, *, name: str = "others") -> Database:
        """Validate d_{-i}: a tuple of n - 1 entries of D."""
        check_index(index, self.size)
        if not isinstance(others, (tuple, list)) or len(others) != self.size - 1:
            raise InvalidArgument(
                f"{name}={abbreviated_repr(others)} must be a tuple of "
                f"n-1={abbreviated(self.size - 1)} entries (the "
                "database without entry i)"
            )
        for position, entry in enumerate(others):
            self.check_entry(entry, name=f"{name}[{position}]")
        return tuple(others)

    @staticmethod
    def distance(database: Database, other: Database) -> int:
        """The Hamming distance: the number of positions where the two databases differ."""
        return sum(1 for a, b in zip(database, other, strict=True) if a != b)

    @staticmethod
    def others(database: Database, index: int) -> Database:
        """d_{-i}: the database with entry ``index`` removed."""
        return database[:index] + database[index + 1 :]

    @staticmethod
    def insert(others: Database, index: int, entry: Label) -> Database:
        """The database (d_1, …, d_{i-1}, entry, d_{i+1}, …) built from d_{-i}."""
        return (*others[:index], entry, *others[index:])

    # --- neighbours -------------------------------------------------------------------
    def neighbours(self, database: object) -> Iterator[tuple[int, Database]]:
        """Pairs (i, x') for every neighbour x' of ``database`` (Def 4.1: replace entry i)."""
        x = self.check(database)
        for index, current in enumerate(x):
            for entry in self.alphabet:
                if entry != current:
                    yield index, (*x[:index], entry, *x[index + 1 :])

    def neighbouring_pairs(self) -> Iterator[tuple[int, Database, Database]]:
        """Every ordered neighbouring pair (i, x, x'): x and x' differ exactly in entry i."""
        for index, _others, members in self.neighbourhoods():
            for x in members:
                for x2 in members:
                    if x is not x2 and x != x2:
                        yield index, x, x2

    def neighbourhoods(self) -> Iterator[tuple[int, Database, tuple[Database, ...]]]:
        """Triples (i, d_{-i}, ((d, d_{-i}) for d in D)): the sets DP compares within.

        Def 4.1's max over (i, d_i, d'_i, d_{-i}) is a max over pairs inside these sets, and
        Vadhan's simulator S(x_{-i}) must imitate every member of one of them.
        """
        for index in range(self.size):
            for others in itertools.product(self.alphabet, repeat=self.size - 1):
                yield (
                    index,
                    others,
                    tuple((*others[:index], d, *others[index:]) for d in self.alphabet),
                )

    def pairs_at_distance(self, distance: int) -> Iterator[tuple[Database, Database]]:
        """Every ordered pair (x, x') at Hamming distance exactly ``distance`` (group privacy)."""
        if isinstance(distance, bool) or not isinstance(distance, int):
            raise InvalidArgument(f"distance={abbreviated_repr(distance)} must be an int")
        if not 1 <= distance <= self.size:
            raise InvalidArgument(
                f"distance={abbreviated(distance)} must lie in [1, n={abbreviated(self.size)}]"
            )
        for x in self.databases():
            for positions in itertools.combinations(range(self.size), distance):
                choices = [[d for d in self.alphabet if d != x[p]] for p in positions]
                for replacement in itertools.product(*choices):
                    other = list(x)
                    for p, d in zip(positions, replacement, strict=True):
                        other[p] = d
                    yield x, tuple(other)
