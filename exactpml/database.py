"""Databases X = (D_1, …, D_n) over a finite alphabet D: neighbours, mechanisms and priors.

Saeidian et al., §4.  A database is an n-tuple ``x = (d_1, …, d_n)`` of entries of the
alphabet D, so a database mechanism is a :class:`~exactpml.mechanism.Mechanism` whose inputs
are exactly the tuples of D^n (:class:`DatabaseMechanism`, validated).  This module gives

* :class:`DatabaseSpace` (D and n): the databases, neighbours in the sense of Def 4.1
  (replace one entry), pairs at Hamming distance k (group privacy) and the neighbourhoods
  ``{(d, d_{-i}) : d in D}`` that the DP and simulation-DP definitions range over;
* priors on D^n: explicit joint (correlated) priors (:func:`joint_prior`), product and
  i.i.d. priors (:class:`ProductPrior`, which never materialises D^n unless asked);
* the marginal P_{D_i} and the conditional P_{D_i | D_{-i} = d_{-i}}, and the entry
  leakages l(D_i -> y) and l(D_i -> y | d_{-i}) of Thm 4.2.

Structured mechanisms (per-record randomizers, queries with noise) live in
:mod:`exactpml.structured`; they subclass :class:`StructuredDatabaseMechanism` and produce
an explicit :class:`DatabaseMechanism` for small n.

>>> space = DatabaseSpace([0, 1], 2)
>>> list(space.databases())
[(0, 0), (0, 1), (1, 0), (1, 1)]
>>> list(space.neighbours((0, 0)))
[(0, (1, 0)), (1, (0, 1))]
>>> prior = ProductPrior.iid(Distribution({0: "3/4", 1: "1/4"}), 2)
>>> prior.probability((1, 1))
Fraction(1, 16)
"""

from __future__ import annotations

import enum
import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactpml.distribution import Distribution
from exactpml.errors import InvalidArgument
from exactpml.exact import (
    Scalar,
    exact,
    exact_difference,
    exact_product,
    exact_quotient,
    exact_sum,
    prove_zero,
)
from exactpml.logvalue import LogValue
from exactpml.measures import conditional_pointwise_maximal_leakage, pointwise_maximal_leakage
from exactpml.mechanism import Mechanism

__all__ = [
    "BOTTOM",
    "DatabaseMechanism",
    "DatabaseSpace",
    "ProductPrior",
    "Reduction",
    "StructuredDatabaseMechanism",
    "as_database_mechanism",
    "check_database_prior",
    "conditional_entry_leakage",
    "entry_conditional",
    "entry_leakage",
    "entry_marginal",
    "explicit_reduction",
    "joint_prior",
    "random_row_mechanism",
]

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


def _check_index(index: object, size: int, *, name: str = "index") -> int:
    if isinstance(index, bool) or not isinstance(index, int):
        raise InvalidArgument(f"{name}={index!r} must be an int (an entry position)")
    if not 0 <= index < size:
        raise InvalidArgument(f"{name}={index} must lie in [0, {size - 1}] (n={size} entries)")
    return index


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
                    f"alphabet={alphabet!r} must be an iterable of entries"
                ) from None
        if not letters:
            raise InvalidArgument("alphabet: the entry alphabet D is empty")
        seen: set[Label] = set()
        for letter in letters:
            try:
                if letter in seen:
                    raise InvalidArgument(f"alphabet: entry {letter!r} appears twice")
            except TypeError:
                raise InvalidArgument(f"alphabet: entry {letter!r} is not hashable") from None
            seen.add(letter)
        if isinstance(size, bool) or not isinstance(size, int):
            raise InvalidArgument(f"size={size!r} must be an int (the number n of entries)")
        if size < 1:
            raise InvalidArgument(f"size={size} must be at least 1")
        object.__setattr__(self, "alphabet", letters)
        object.__setattr__(self, "size", size)

    # --- databases --------------------------------------------------------------------
    @property
    def count(self) -> int:
        """|D|^n, the number of databases."""
        return len(self.alphabet) ** self.size

    def databases(self) -> Iterator[Database]:
        """Every database of D^n, in lexicographic order of the alphabet's order."""
        return itertools.product(self.alphabet, repeat=self.size)

    def check(self, database: object, *, name: str = "database") -> Database:
        """Return ``database`` as a tuple, or raise naming what is wrong with it."""
        if not isinstance(database, (tuple, list)):
            raise InvalidArgument(
                f"{name}={database!r} must be a tuple of n={self.size} entries from "
                f"{list(self.alphabet)!r}"
            )
        if len(database) != self.size:
            raise InvalidArgument(
                f"{name}={tuple(database)!r} has {len(database)} entries, but databases have "
                f"n={self.size}"
            )
        for position, entry in enumerate(database):
            try:
                known = entry in self.alphabet
            except TypeError:
                known = False
            if not known:
                raise InvalidArgument(
                    f"{name}={tuple(database)!r}: entry {entry!r} at position {position} is not "
                    f"in the alphabet {list(self.alphabet)!r}"
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
                f"{name}={entry!r} is not in the alphabet {list(self.alphabet)!r}"
            )
        return entry

    def check_others(self, others: object, index: int, *, name: str = "others") -> Database:
        """Validate d_{-i}: a tuple of n - 1 entries of D."""
        _check_index(index, self.size)
        if not isinstance(others, (tuple, list)) or len(others) != self.size - 1:
            raise InvalidArgument(
                f"{name}={others!r} must be a tuple of n-1={self.size - 1} entries (the "
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
            raise InvalidArgument(f"distance={distance!r} must be an int")
        if not 1 <= distance <= self.size:
            raise InvalidArgument(f"distance={distance} must lie in [1, n={self.size}]")
        for x in self.databases():
            for positions in itertools.combinations(range(self.size), distance):
                choices = [[d for d in self.alphabet if d != x[p]] for p in positions]
                for replacement in itertools.product(*choices):
                    other = list(x)
                    for p, d in zip(positions, replacement, strict=True):
                        other[p] = d
                    yield x, tuple(other)


# --- explicit database mechanisms ------------------------------------------------------
@dataclass(frozen=True, slots=True, init=False, eq=False)
class DatabaseMechanism:
    """A mechanism P_{Y|X} whose inputs are exactly the databases of D^n (validated).

    Args:
        mechanism: a :class:`Mechanism` on n-tuples, or a mapping database -> row (as
            accepted by ``Mechanism``).
        alphabet: D; by default the entries found in the inputs (in order of appearance).
        size: n; by default the length of the inputs.
        name: how error messages refer to the mechanism.
    """

    mechanism: Mechanism
    space: DatabaseSpace

    def __init__(
        self,
        mechanism: Mechanism | Mapping[Database, Mapping[Label, object]],
        *,
        alphabet: Iterable[Label] | None = None,
        size: int | None = None,
        name: str = "mechanism",
    ) -> None:
        kernel = (
            mechanism if isinstance(mechanism, Mechanism) else Mechanism(mechanism, name=name)  # type: ignore[arg-type]
        )
        inputs: list[Database] = []
        for x in kernel.inputs:
            if not isinstance(x, tuple):
                raise InvalidArgument(
                    f"{name}: input {x!r} is not a tuple; a database mechanism's inputs are "
                    "the n-tuples of D^n"
                )
            inputs.append(x)
        if size is None:
            size = len(inputs[0])
        if alphabet is None:
            alphabet = dict.fromkeys(entry for x in inputs for entry in x)
        space = DatabaseSpace(alphabet, size)
        for x in inputs:
            space.check(x, name=f"{name}: input")
        present = set(inputs)
        if len(present) != space.count:
            missing = next(x for x in space.databases() if x not in present)
            raise InvalidArgument(
                f"{name}: database {missing!r} of D^n has no row ({len(present)} of "
                f"{space.count} databases given)"
            )
        object.__setattr__(self, "mechanism", kernel)
        object.__setattr__(self, "space", space)

    @classmethod
    def from_function(
        cls,
        function: Callable[[Database], Mapping[Label, object] | Distribution],
        alphabet: Iterable[Label],
        size: int,
        *,
        outputs: Sequence[Label] | None = None,
        name: str = "mechanism",
    ) -> DatabaseMechanism:
        """Build from ``function(x)``, the row of database x, for every x in D^n."""
        space = DatabaseSpace(alphabet, size)
        kernel = Mechanism.from_function(function, space.databases(), outputs=outputs, name=name)
        return cls(kernel, alphabet=space.alphabet, size=space.size, name=name)

    @classmethod
    def _trusted(cls, mechanism: Mechanism, space: DatabaseSpace) -> DatabaseMechanism:
        self = object.__new__(cls)
        object.__setattr__(self, "mechanism", mechanism)
        object.__setattr__(self, "space", space)
        return self

    @property
    def outputs(self) -> tuple[Label, ...]:
        """The output alphabet."""
        return self.mechanism.outputs

    def probability(self, database: Database, output: Label) -> Scalar:
        """p(y | x)."""
        return self.mechanism.probability(self.space.check(database), output)

    def row(self, database: Database) -> Distribution:
        """P_{Y | X = x}."""
        return self.mechanism.row(self.space.check(database))

    def explicit(self) -> DatabaseMechanism:
        """This mechanism (the explicit form every database mechanism can produce)."""
        return self

    def reduction(self) -> Reduction:
        """The trivial reduction (the statistic is the database itself)."""
        return explicit_reduction(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, StructuredDatabaseMechanism):
            other = other.explicit()
        if not isinstance(other, DatabaseMechanism):
            return NotImplemented
        return self.space == other.space and self.mechanism == other.mechanism

    def __hash__(self) -> int:
        return hash((self.space, self.mechanism))

    def __repr__(self) -> str:
        return (
            f"DatabaseMechanism(alphabet={list(self.space.alphabet)!r}, size={self.space.size}, "
            f"outputs={len(self.outputs)})"
        )


@dataclass(frozen=True, slots=True)
class Reduction:
    """A database mechanism seen through a sufficient statistic v = v(x) of the database.

    The output law depends on x only through v, so every notion of :mod:`exactpml.notions`
    can be computed on statistic values instead of databases.  For an explicit mechanism
    the statistic is the database itself (:func:`explicit_reduction`).

    Attributes:
        outputs: the finite output alphabet (labels of ``row``'s entries).
        row: ``row(v)`` = (P(Y = y | V = v) for y in outputs).
        values: ``values()`` iterates over every reachable statistic value.
        pairs: ``pairs()`` yields ``(v, v', witness)`` for ordered neighbouring pairs, at
            least one per distinct ``(v, v')``; ``witness()`` returns databases (x, x').
        neighbourhoods: ``neighbourhoods()`` yields ``(values, witness)``: the statistic
            values of a neighbourhood {(d, d_{-i}) : d in D} (at least one per distinct
            value set) and ``witness()`` = (i, d_{-i}).
        database: ``database(v)`` is a database with statistic v.
        kernel: ``kernel()`` is the Mechanism P_{Y|V} on all reachable values.
    """

    outputs: tuple[Label, ...]
    row: Callable[[Label], Sequence[Scalar]]
    values: Callable[[], Iterable[Label]]
    pairs: Callable[[], Iterator[tuple[Label, Label, Callable[[], tuple[Database, Database]]]]]
    neighbourhoods: Callable[
        [], Iterator[tuple[tuple[Label, ...], Callable[[], tuple[int, Database]]]]
    ]
    database: Callable[[Label], Database]
    kernel: Callable[[], Mechanism]


class StructuredDatabaseMechanism(ABC):
    """A database mechanism that keeps its structure (see :mod:`exactpml.structured`).

    Subclasses give ``space``, ``explicit()`` and ``reduction()``; the notions of
    :mod:`exactpml.notions` compute through ``reduction()`` (a sufficient statistic) and
    use the closed forms of ``_differential_privacy`` / ``_free_lunch_privacy`` when a
    subclass provides them (``None`` means "no closed form").
    """

    space: DatabaseSpace

    @abstractmethod
    def explicit(self) -> DatabaseMechanism:
        """The explicit kernel on D^n (exponential in n: for small n and for tests)."""

    @abstractmethod
    def reduction(self) -> Reduction:
        """The mechanism through its sufficient statistic."""

    def _differential_privacy(self) -> Any:
        return None

    def _free_lunch_privacy(self) -> Any:
        return None


def explicit_reduction(mechanism: DatabaseMechanism) -> Reduction:
    """The trivial reduction of an explicit mechanism: the statistic is the database."""
    space = mechanism.space
    kernel = mechanism.mechanism

    def pairs() -> Iterator[tuple[Label, Label, Callable[[], tuple[Database, Database]]]]:
        for _, x, x2 in space.neighbouring_pairs():
            yield x, x2, lambda x=x, x2=x2: (x, x2)  # type: ignore[misc]

    def neighbourhoods() -> Iterator[tuple[tuple[Label, ...], Callable[[], tuple[int, Database]]]]:
        for index, others, members in space.neighbourhoods():
            yield members, lambda index=index, others=others: (index, others)  # type: ignore[misc]

    return Reduction(
        outputs=kernel.outputs,
        row=lambda x: kernel.rows[kernel.input_position(x)],
        values=lambda: kernel.inputs,
        pairs=pairs,
        neighbourhoods=neighbourhoods,
        database=lambda x: x,  # type: ignore[arg-type,return-value]
        kernel=lambda: kernel,
    )


def as_database_mechanism(
    mechanism: object, *, name: str = "mechanism"
) -> DatabaseMechanism | StructuredDatabaseMechanism:
    """Accept a database mechanism in any form; a plain tuple-input Mechanism is wrapped."""
    if isinstance(mechanism, (DatabaseMechanism, StructuredDatabaseMechanism)):
        return mechanism
    if isinstance(mechanism, Mechanism):
        return DatabaseMechanism(mechanism, name=name)
    raise InvalidArgument(
        f"{name} must be a DatabaseMechanism, a structured database mechanism or a Mechanism "
        f"whose inputs are n-tuples, got {type(mechanism).__name__}"
    )


# --- priors on D^n --------------------------------------------------------------------
def joint_prior(
    space: DatabaseSpace,
    probabilities: Mapping[Database, object],
    *,
    name: str = "prior",
) -> Distribution:
    """An explicit (possibly correlated) prior on D^n; databases not named get probability 0.

    Every key must be a database of ``space`` and the probabilities must sum to 1.

    >>> space = DatabaseSpace([0, 1], 2)
    >>> prior = joint_prior(space, {(0, 0): "1/2", (1, 1): "1/2"})
    >>> entry_marginal(prior, 0)[1]
    Fraction(1, 2)
    """
    if not isinstance(space, DatabaseSpace):
        raise InvalidArgument(f"space must be a DatabaseSpace, got {type(space).__name__}")
    if not isinstance(probabilities, Mapping):
        raise InvalidArgument(
            f"{name} must be a mapping database -> probability, got {type(probabilities).__name__}"
        )
    checked: dict[Database, object] = {}
    for key, value in probabilities.items():
        checked[space.check(key, name=f"{name}: database")] = value
    entries = [(x, checked.get(x, 0)) for x in space.databases()]
    return Distribution(entries, name=name)


def check_database_prior(
    space: DatabaseSpace, prior: object, *, name: str = "prior"
) -> Distribution | ProductPrior:
    """Raise unless ``prior`` is a Distribution on exactly D^n or a ProductPrior on ``space``."""
    if isinstance(prior, ProductPrior):
        if prior.space != space:
            raise InvalidArgument(
                f"{name} is a product prior on {prior.space.size} entries over "
                f"{list(prior.space.alphabet)!r}, but the databases have n={space.size} entries "
                f"over {list(space.alphabet)!r}"
            )
        return prior
    if not isinstance(prior, Distribution):
        raise InvalidArgument(
            f"{name} must be a Distribution on D^n or a ProductPrior, got {type(prior).__name__}"
        )
    for outcome in prior.outcomes:
        space.check(outcome, name=f"{name} is not a distribution on D^n: outcome")
    if len(prior) != space.count:
        missing = next(x for x in space.databases() if x not in prior)
        raise InvalidArgument(
            f"{name} is not a distribution on D^n: database {missing!r} is missing (build it "
            "with joint_prior, which fills in zeros)"
        )
    return prior


@dataclass(frozen=True, slots=True, init=False, eq=False)
class ProductPrior:
    """A product prior P_X = Π_i P_{D_i} on D^n (the set Q_X of Saeidian et al., §4).

    Kept as its n marginals, so n in the thousands costs nothing until :meth:`joint` is
    called.  Build i.i.d. priors with :meth:`iid`.

    Args:
        marginals: one distribution on D per entry (Distributions or mappings).
        alphabet: D, in order; by default the first marginal's outcomes.
    """

    space: DatabaseSpace
    marginals: tuple[Distribution, ...]

    def __init__(
        self,
        marginals: Sequence[Distribution | Mapping[Label, object]],
        *,
        alphabet: Iterable[Label] | None = None,
    ) -> None:
        if isinstance(marginals, (Distribution, Mapping)) or not isinstance(marginals, Sequence):
            raise InvalidArgument(
                "marginals must be a sequence of distributions on D, one per entry "
                "(use ProductPrior.iid for identical entries)"
            )
        if not marginals:
            raise InvalidArgument("marginals: a product prior needs at least one entry")
        factors = [
            m if isinstance(m, Distribution) else Distribution(m, name=f"marginals[{i}]")
            for i, m in enumerate(marginals)
        ]
        letters = tuple(factors[0].outcomes) if alphabet is None else tuple(alphabet)
        space = DatabaseSpace(letters, len(factors))
        for i, factor in enumerate(factors):
            if set(factor.outcomes) != set(space.alphabet) or len(factor) != len(space.alphabet):
                raise InvalidArgument(
                    f"marginals[{i}] is over {list(factor.outcomes)!r}, not over the alphabet "
                    f"{list(space.alphabet)!r}"
                )
        ordered = tuple(
            f
            if f.outcomes == space.alphabet
            else Distribution._trusted(space.alphabet, [f[d] for d in space.alphabet], f.conditions)
            for f in factors
        )
        object.__setattr__(self, "space", space)
        object.__setattr__(self, "marginals", ordered)

    @classmethod
    def iid(cls, marginal: Distribution | Mapping[Label, object], size: int) -> ProductPrior:
        """The i.i.d. prior: every entry has law ``marginal``.

        >>> ProductPrior.iid({"a": "1/3", "b": "2/3"}, 1000).space.size
        1000
        """
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise InvalidArgument(f"size={size!r} must be an int of at least 1")
        factor = marginal if isinstance(marginal, Distribution) else Distribution(marginal)
        self = object.__new__(cls)
        object.__setattr__(self, "space", DatabaseSpace(factor.outcomes, size))
        object.__setattr__(self, "marginals", (factor,) * size)
        return self

    @property
    def is_identical(self) -> bool:
        """True when every entry has the same law (an i.i.d. prior)."""
        first = self.marginals[0]
        return all(m is first or m == first for m in self.marginals[1:])

    @property
    def has_full_support(self) -> bool:
        """True when every marginal has full support (so P_X is in the set P_X of §4)."""
        return all(m.has_full_support for m in self.marginals)

    def marginal(self, index: int) -> Distribution:
        """P_{D_i}."""
        return self.marginals[_check_index(index, self.space.size)]

    def probability(self, database: Database) -> Scalar:
        """p_X(x) = Π_i p_{D_i}(d_i)."""
        x = self.space.check(database)
        value: Scalar = Fraction(1)
        for factor, entry in zip(self.marginals, x, strict=True):
            value = exact_product(value, factor[entry])
        return value

    def joint(self) -> Distribution:
        """The prior as a Distribution on D^n (|D|^n outcomes: small n only)."""
        return Distribution.product(list(self.marginals))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ProductPrior):
            return NotImplemented
        return self.space == other.space and all(
            a == b for a, b in zip(self.marginals, other.marginals, strict=True)
        )

    def __hash__(self) -> int:
        return hash((self.space, self.marginals))

    def __repr__(self) -> str:
        if self.is_identical:
            return f"ProductPrior.iid({self.marginals[0]!r}, {self.space.size})"
        return f"ProductPrior({list(self.marginals)!r})"


def _prior_space(prior: object, name: str = "prior") -> DatabaseSpace:
    if isinstance(prior, ProductPrior):
        return prior.space
    if not isinstance(prior, Distribution):
        raise InvalidArgument(
            f"{name} must be a Distribution on D^n or a ProductPrior, got {type(prior).__name__}"
        )
    first = prior.outcomes[0]
    if not isinstance(first, tuple) or not first:
        raise InvalidArgument(f"{name} is not a distribution on D^n: outcome {first!r}")
    alphabet = dict.fromkeys(entry for x in prior.outcomes if isinstance(x, tuple) for entry in x)
    space = DatabaseSpace(alphabet, len(first))
    check_database_prior(space, prior, name=name)
    return space


def entry_marginal(prior: Distribution | ProductPrior, index: int) -> Distribution:
    """P_{D_i}, the law of entry ``index`` (over the whole alphabet D, zeros included)."""
    space = _prior_space(prior)
    _check_index(index, space.size)
    if isinstance(prior, ProductPrior):
        return prior.marginal(index)
    totals: dict[Label, list[Scalar]] = {d: [] for d in space.alphabet}
    for x, p in prior.items():
        totals[x[index]].append(p)  # type: ignore[index]
    return Distribution._trusted(
        space.alphabet, [exact_sum(v) for v in totals.values()], prior.conditions
    )


def entry_conditional(
    prior: Distribution | ProductPrior, index: int, others: Database
) -> Distribution:
    """P_{D_i | D_{-i} = d_{-i}} over D (raises if P(D_{-i} = d_{-i}) is zero).

    For a product prior this is P_{D_i}, whatever d_{-i} is.
    """
    space = _prior_space(prior)
    others = space.check_others(others, index)
    if isinstance(prior, ProductPrior):
        for position, (factor, entry) in enumerate(
            zip(prior.marginals[:index] + prior.marginals[index + 1 :], others, strict=True)
        ):
            if prove_zero(factor[entry]):
                raise InvalidArgument(
                    f"others={others!r} has probability zero under the prior (entry "
                    f"{entry!r} at position {position})"
                )
        return prior.marginal(index)
    masses = [prior[space.insert(others, index, d)] for d in space.alphabet]
    total = exact_sum(masses)
    if prove_zero(total):
        raise InvalidArgument(f"others={others!r} has probability zero under the prior")
    return Distribution._trusted(
        space.alphabet, [exact_quotient(m, total) for m in masses], prior.conditions
    )


def _explicit_with_prior(
    mechanism: object, prior: object
) -> tuple[DatabaseMechanism, Distribution]:
    database_mechanism = as_database_mechanism(mechanism)
    explicit = database_mechanism.explicit()
    checked = check_database_prior(explicit.space, prior)
    joint = checked.joint() if isinstance(checked, ProductPrior) else checked
    return explicit, joint


def entry_leakage(
    mechanism: DatabaseMechanism | StructuredDatabaseMechanism | Mechanism,
    prior: Distribution | ProductPrior,
    index: int,
    output: Label,
) -> LogValue:
    """l(D_i -> y): the PML about entry i (Saeidian et al., Thm 4.2 (3), Thm 4.5 (3)).

    ``l(D_i -> y) = log max_{d in supp P_{D_i}} p(y | D_i = d) / p_Y(y)``.  Structured
    mechanisms with a product prior are computed through their sufficient statistic.
    """
    if isinstance(mechanism, StructuredDatabaseMechanism) and isinstance(prior, ProductPrior):
        fast = getattr(mechanism, "entry_leakage", None)
        if fast is not None:
            return fast(prior, index, output)  # type: ignore[no-any-return,unused-ignore]
    explicit, joint = _explicit_with_prior(mechanism, prior)
    _check_index(index, explicit.space.size)
    return pointwise_maximal_leakage(
        explicit.mechanism, joint, output, attribute=lambda x: x[index]
    )


def conditional_entry_leakage(
    mechanism: DatabaseMechanism | StructuredDatabaseMechanism | Mechanism,
    prior: Distribution | ProductPrior,
    index: int,
    output: Label,
    others: Database,
) -> LogValue:
    """l(D_i -> y | d_{-i}) = D_inf(P_{D_i|Y=y, D_{-i}=d_{-i}} || P_{D_i|D_{-i}=d_{-i}}).

    Saeidian et al., Def 2.5 as used in Thm 4.2 (1)-(2); d_{-i} must have positive
    probability.
    """
    if isinstance(mechanism, StructuredDatabaseMechanism) and isinstance(prior, ProductPrior):
        fast = getattr(mechanism, "conditional_entry_leakage", None)
        if fast is not None:
            return fast(prior, index, output, others)  # type: ignore[no-any-return,unused-ignore]
    explicit, joint = _explicit_with_prior(mechanism, prior)
    space = explicit.space
    _check_index(index, space.size)
    others = space.check_others(others, index)
    if prove_zero(exact_sum(joint[space.insert(others, index, d)] for d in space.alphabet)):
        raise InvalidArgument(f"others={others!r} has probability zero under the prior")
    return conditional_pointwise_maximal_leakage(
        explicit.mechanism,
        joint,
        output,
        given=lambda x: space.others(x, index),
        value=others,
        attribute=lambda x: x[index],
    )


# --- Vadhan's example ------------------------------------------------------------------
def random_row_mechanism(
    alphabet: Iterable[Label],
    size: int,
    *,
    probability: object = "1/10",
    with_index: bool = False,
) -> DatabaseMechanism:
    """Vadhan §1.1, case 2: with probability ``probability`` release a uniformly random row.

    Otherwise release :data:`BOTTOM`.  The released row is its value d (default) or the pair
    (i, d_i) with ``with_index=True``.  Neighbours are at statistical distance
    ``probability / n`` (1/(10n)), yet the max-divergence is infinite for a pair whose
    changed value appears in no other row.

    >>> mechanism = random_row_mechanism([0, 1], 3)
    >>> mechanism.probability((0, 0, 1), 1)
    Fraction(1, 30)
    """
    space = DatabaseSpace(alphabet, size)
    rate = exact(probability, where="probability")
    if type(rate) is Fraction and not 0 <= rate <= 1:
        raise InvalidArgument(f"probability={rate} must lie in [0, 1]")
    rest = exact_difference(Fraction(1), rate)
    share = exact_quotient(rate, Fraction(space.size))
    if with_index:
        outputs: list[Label] = [BOTTOM] + [
            (i, d) for i in range(space.size) for d in space.alphabet
        ]
    else:
        outputs = [BOTTOM, *space.alphabet]

    def row(x: Database) -> dict[Label, Scalar]:
        released: dict[Label, Scalar] = {BOTTOM: rest}
        for i, d in enumerate(x):
            key = (i, d) if with_index else d
            released[key] = exact_sum([released.get(key, Fraction(0)), share])
        return released

    kernel = Mechanism.from_function(row, space.databases(), outputs=outputs, name="random row")
    return DatabaseMechanism._trusted(kernel, space)
