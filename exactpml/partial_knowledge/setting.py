"""The partial-knowledge setting: θ, the target record, the two values and the knowledge B.

Thesis *Lowering the cost of anonymization*, §3.1.3 (restated in CLAIMS.md, section ``pk.``):
θ is a distribution on databases with independent records (``records[j]`` is the law of
``D(j)``, possibly different per record), ``target`` the index i, ``value``/``alternative``
the values t ≠ t' the attacker wants to tell apart, and B the attacker's partial knowledge,
a deterministic function of the database: by default the values of a fixed set K of records
(``known=K``, i ∉ K), or any function given as ``knowledge=``.

Standing assumption of the thesis: B is independent of D(i) ("any value of the partial
knowledge is compatible with any value of the sensitive record").  A ``known`` set not
containing i satisfies it because records are independent; a general ``knowledge`` function
is checked exactly, by enumeration of the databases, and refused when it fails.

>>> from exactpml import Distribution
>>> coin = Distribution({0: "1/2", 1: "1/2"})
>>> setting = PartialKnowledge([coin, coin, coin], target=0, value=0, alternative=1, known=[1])
>>> setting.knowledge_of((0, 1, 0))
(1,)
>>> PartialKnowledge([coin, coin], target=0, value=0, alternative=1, knowledge=lambda d: d[0])
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
exactpml.errors.InvalidArgument: knowledge must be independent of D(0) ... P[B=0 | D(0)=0] = 1 ...
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import prove_zero
from exactpml.core.display import pretty
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, exact_difference, exact_product, exact_sum
from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument, Undecided

__all__ = ["PartialKnowledge"]

Database = tuple[Hashable, ...]
KnowledgeFunction = Callable[[Database], Hashable]

MAX_ENUMERATED_DATABASES = 2**20
"""A general knowledge function is checked on every database; refuse settings beyond this."""


def _product_size(records: Sequence[Distribution]) -> int:
    size = 1
    for record in records:
        size *= len(record.support)
    return size


@dataclass(frozen=True, slots=True, init=False, eq=False)
class PartialKnowledge:
    """θ (independent records), target index i, values t ≠ t' and the attacker's knowledge B.

    Args:
        records: ``records[j]`` is the exact law of record ``D(j)`` (a ``Distribution``).
        target: the index i of the sensitive record.
        value: t, a value of record i with positive probability.
        alternative: t' ≠ t, a value of record i with positive probability.
        known: the fixed set K of record indices whose values the attacker knows
            (B = (D(j))_{j ∈ K}, in increasing j); i ∉ K.  Default: no knowledge.
        knowledge: instead of ``known``, any deterministic function of the database
            (a callable on database tuples, a mapping database -> value, or a deterministic
            ``Mechanism`` on database tuples).  It is evaluated on every database with
            positive probability and must be independent of D(i).
    """

    records: tuple[Distribution, ...]
    target: int
    value: Hashable
    alternative: Hashable
    known: tuple[int, ...] | None
    _table: Mapping[Database, Hashable] | None

    def __init__(
        self,
        records: Sequence[Distribution],
        *,
        target: int,
        value: Hashable,
        alternative: Hashable,
        known: Iterable[int] | None = None,
        knowledge: KnowledgeFunction | Mapping[Database, Hashable] | Mechanism | None = None,
    ) -> None:
        if isinstance(records, Distribution) or not isinstance(records, Sequence):
            raise InvalidArgument(
                "records must be a sequence of Distributions (one law per record), "
                f"got {type(records).__name__}"
            )
        records = tuple(records)
        if not records:
            raise InvalidArgument("records: the database has no records")
        for position, record in enumerate(records):
            if not isinstance(record, Distribution):
                raise InvalidArgument(
                    f"records[{abbreviated(position)}] must be a Distribution, got "
                    f"{type(record).__name__}"
                )
        if isinstance(target, bool) or not isinstance(target, int):
            raise InvalidArgument(
                f"target={abbreviated_repr(target)} must be an integer record index"
            )
        if not 0 <= target < len(records):
            raise InvalidArgument(
                f"target={abbreviated(target)} is outside the database (records "
                f"0..{abbreviated(len(records) - 1)})"
            )
        law = records[target]
        for name, candidate in (("value", value), ("alternative", alternative)):
            try:
                present = candidate in law
            except TypeError:
                present = False
            if not present:
                raise InvalidArgument(
                    f"{name}={abbreviated_repr(candidate)} is not a value of record "
                    f"{abbreviated(target)} "
                    f"(its values are {abbreviated_repr(list(law.outcomes))})"
                )
            if prove_zero(law[candidate]):
                raise InvalidArgument(
                    f"{name}={abbreviated_repr(candidate)} has probability 0 under "
                    f"records[{abbreviated(target)}], so "
                    f"conditioning on D({abbreviated(target)})={abbreviated_repr(candidate)} is "
                    "undefined"
                )
        if value == alternative:
            raise InvalidArgument(
                f"alternative={abbreviated_repr(alternative)} must differ from "
                f"value={abbreviated_repr(value)} (t ≠ t')"
            )
        object.__setattr__(self, "records", records)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "alternative", alternative)
        if known is not None and knowledge is not None:
            raise InvalidArgument("give either known= or knowledge=, not both")
        if knowledge is None:
            object.__setattr__(self, "known", self._validate_known(known))
            object.__setattr__(self, "_table", None)
        else:
            object.__setattr__(self, "known", None)
            object.__setattr__(self, "_table", self._tabulate(knowledge))
            self._check_independence()

    # --- constructors -----------------------------------------------------------------
    @classmethod
    def iid(
        cls,
        record: Distribution,
        size: int,
        *,
        target: int,
        value: Hashable,
        alternative: Hashable,
        known: Iterable[int] | None = None,
    ) -> PartialKnowledge:
        """``size`` i.i.d. records with law ``record`` (the referendum of Example 7)."""
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise InvalidArgument(f"size={abbreviated_repr(size)} must be a positive integer")
        return cls(
            [record] * size, target=target, value=value, alternative=alternative, known=known
        )

    @classmethod
    def full_knowledge(
        cls,
        records: Sequence[Distribution],
        *,
        target: int,
        value: Hashable,
        alternative: Hashable,
    ) -> PartialKnowledge:
        """B = D_{-i}: the attacker knows every other record (``pk.full_knowledge``)."""
        count = len(records) if isinstance(records, Sequence) else 0
        return cls(
            records,
            target=target,
            value=value,
            alternative=alternative,
            known=[j for j in range(count) if j != target],
        )

    # --- validation -------------------------------------------------------------------
    def _validate_known(self, known: Iterable[int] | None) -> tuple[int, ...]:
        if known is None:
            return ()
        if isinstance(known, (str, bytes)) or not isinstance(known, Iterable):
            raise InvalidArgument(f"known={known!r} must be an iterable of record indices")
        indices = list(known)
        for index in indices:
            if isinstance(index, bool) or not isinstance(index, int):
                raise InvalidArgument(
                    f"known: {abbreviated_repr(index)} is not an integer record index"
                )
            if not 0 <= index < len(self.records):
                raise InvalidArgument(
                    f"known: index {abbreviated(index)} is outside the database "
                    f"(records 0..{abbreviated(len(self.records) - 1)})"
                )
        if len(set(indices)) != len(indices):
            raise InvalidArgument(f"known={abbreviated_repr(indices)} repeats an index")
        if self.target in indices:
            raise InvalidArgument(
                f"known={abbreviated_repr(indices)} contains the target "
                f"{abbreviated(self.target)}: the knowledge would "
                "not be independent of D(i) (the thesis's standing assumption)"
            )
        return tuple(sorted(indices))

    def _tabulate(
        self, knowledge: KnowledgeFunction | Mapping[Database, Hashable] | Mechanism
    ) -> dict[Database, Hashable]:
        size = _product_size(self.records)
        if size > MAX_ENUMERATED_DATABASES:
            raise InvalidArgument(
                f"knowledge: a general knowledge function must be checked on all "
                f"{abbreviated(size)} "
                f"databases, more than {abbreviated(MAX_ENUMERATED_DATABASES)}; give known= instead"
            )
        databases = list(itertools.product(*(record.support for record in self.records)))
        table: dict[Database, Hashable] = {}
        if isinstance(knowledge, Mechanism):
            for database in databases:
                row = [
                    y
                    for y, p in zip(
                        knowledge.outputs,
                        knowledge.rows[knowledge.input_position(database)],
                        strict=True,
                    )
                    if not prove_zero(p)
                ]
                if len(row) != 1:
                    raise InvalidArgument(
                        "knowledge must be a function of the database, but the kernel given "
                        f"is randomized: database {abbreviated_repr(database)} has outputs "
                        f"{abbreviated_repr(row)}"
                    )
                table[database] = row[0]
            return table
        if isinstance(knowledge, Mapping):
            for database in databases:
                if database not in knowledge:
                    raise InvalidArgument(
                        f"knowledge: the mapping has no value for database "
                        f"{abbreviated_repr(database)}"
                    )
                table[database] = knowledge[database]
            return table
        if not callable(knowledge):
            raise InvalidArgument(
                "knowledge must be a function of the database (a callable, a mapping or a "
                f"deterministic Mechanism), got {type(knowledge).__name__}"
            )
        for database in databases:
            try:
                first, second = knowledge(database), knowledge(database)
            except Exception as error:
                raise InvalidArgument(
                    f"knowledge raised {type(error).__name__}: {abbreviated(error)} on database "
                    f"{abbreviated_repr(database)}"
                ) from error
            try:
                hash(first)
            except TypeError:
                raise InvalidArgument(
                    f"knowledge returned the unhashable {abbreviated_repr(first)} on database "
                    f"{abbreviated_repr(database)}"
                ) from None
            if first != second:
                raise InvalidArgument(
                    "knowledge must be a function of the database, but it returned "
                    f"{abbreviated_repr(first)} and then {abbreviated_repr(second)} on database "
                    f"{abbreviated_repr(database)}"
                )
            table[database] = first
        return table

    def _check_independence(self) -> None:
        laws = {
            x: self.knowledge_distribution(given=x).as_dict()
            for x in self.records[self.target].support
        }
        reference_value, reference = next(iter(laws.items()))
        for x, law in laws.items():
            for b in dict.fromkeys([*reference, *law]):
                difference = exact_difference(
                    reference.get(b, Fraction(0)), law.get(b, Fraction(0))
                )
                same = prove_zero(difference)
                if same is None:
                    raise Undecided(
                        f"knowledge: cannot decide whether B is independent of "
                        f"D({abbreviated(self.target)})",
                        expression=difference,
                    )
                if not same:
                    i = self.target
                    raise InvalidArgument(
                        f"knowledge must be independent of D({abbreviated(i)}) (the thesis's "
                        "standing "
                        f"assumption), but P[B={abbreviated_repr(b)} | "
                        f"D({abbreviated(i)})={abbreviated_repr(reference_value)}] = "
                        f"{abbreviated(reference.get(b, 0))} while P[B={abbreviated_repr(b)} | "
                        f"D({abbreviated(i)})={abbreviated_repr(x)}] = {abbreviated(law.get(b, 0))}"
                    )

    # --- access -----------------------------------------------------------------------
    @property
    def size(self) -> int:
        """n, the number of records."""
        return len(self.records)

    @property
    def unknown(self) -> tuple[int, ...]:
        """The records neither known nor the target (only for ``known=`` settings)."""
        if self.known is None:
            raise InvalidArgument("unknown: only defined when the knowledge is known= records")
        skip = {*self.known, self.target}
        return tuple(j for j in range(self.size) if j not in skip)

    def knowledge_of(self, database: Sequence[Hashable]) -> Hashable:
        """B(d), the attacker's knowledge on database ``d``."""
        database = tuple(database)
        if len(database) != self.size:
            raise InvalidArgument(
                f"database {abbreviated_repr(database)} has {len(database)} records, the setting "
                f"has {abbreviated(self.size)}"
            )
        if self.known is not None:
            return tuple(database[j] for j in self.known)
        assert self._table is not None
        try:
            return self._table[database]
        except KeyError:
            raise InvalidArgument(
                f"database {abbreviated_repr(database)} has probability 0 under the records' laws"
            ) from None

    def databases(self, given: Hashable) -> Iterator[tuple[Database, Scalar]]:
        """Pairs ``(d, P[D = d | D(i) = given])`` over databases of positive probability."""
        others = [
            record.support if j != self.target else (given,)
            for j, record in enumerate(self.records)
        ]
        for database in itertools.product(*others):
            weight: Scalar = Fraction(1)
            for j, x in enumerate(database):
                if j != self.target:
                    weight = exact_product(weight, self.records[j][x])
            yield database, weight

    def knowledge_distribution(self, *, given: Hashable | None = None) -> Distribution:
        """The law of B given D(i) = ``given`` (default t; the same for every value of D(i))."""
        condition = self.value if given is None else given
        if condition not in self.records[self.target]:
            raise InvalidArgument(
                f"given={abbreviated_repr(condition)} is not a value of record "
                f"{abbreviated(self.target)}"
            )
        if self.known is not None:
            if not self.known:
                return Distribution._trusted([()], [Fraction(1)])
            return Distribution.product([self.records[j] for j in self.known])
        masses: dict[Hashable, list[Scalar]] = {}
        for database, weight in self.databases(condition):
            masses.setdefault(self.knowledge_of(database), []).append(weight)
        return Distribution._trusted(list(masses), [exact_sum(v) for v in masses.values()])

    def __repr__(self) -> str:
        """Python that rebuilds this setting: the records' laws, i, t, t' and B (the known
        records, or a general knowledge function as its table on every possible database)."""
        if self.known is not None:
            how = f"known={list(self.known)!r}"
        else:
            how = f"knowledge={dict(self._table or {})!r}"
        return (
            f"PartialKnowledge({list(self.records)!r}, target={self.target}, "
            f"value={self.value!r}, alternative={self.alternative!r}, {how})"
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)
