"""A bounded-leakage model: finite randomness R, mechanism M(x, r) and leakage P(x, r).

Ligett, Peale, Reingold, *Bounded-Leakage Differential Privacy* (poster; definition restated
in CLAIMS.md, section ``bldp.``).  A :class:`BoundedLeakageModel` holds

* ``randomness``: an exact distribution on a finite set R;
* ``databases``: the finite set of databases x, with a symmetric ``neighbours`` relation
  (default: tuples of equal length differing in exactly one position);
* the tables of M(x, r) and P(x, r) for every database and every r ∈ R (both deterministic
  given r: all randomness is in R, as in the poster's M: X^n × R → O_M).

For each x the model yields the exact joint law of (M(x, r), P(x, r)) under r ~ R, and the
conditional law of M(x, r) given P(x, r) = o, which is all the definition uses.

>>> from exactpml import Distribution
>>> coin = Distribution({0: "1/2", 1: "1/2"})
>>> model = BoundedLeakageModel(coin, lambda x, r: x[0] ^ r, lambda x, r: r, databases=[(0,), (1,)])
>>> model.conditional((1,), 0).as_dict()
{1: Fraction(1, 1)}
>>> BoundedLeakageModel({0: "1/2"}, lambda x, r: 0, lambda x, r: 0, databases=[(0,)])
Traceback (most recent call last):
...
exactpml.errors.InvalidArgument: randomness: probabilities sum to 1/2, not 1
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import prove_zero
from exactpml.core.display import pretty
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, exact_quotient, exact_sum, lowest_terms
from exactpml.errors import InvalidArgument, Undecided

__all__ = ["BoundedLeakageModel"]

Table = Callable[[Any, Any], Hashable] | Mapping[Any, Any]
Neighbours = Callable[[Any, Any], bool] | Iterable[tuple[Hashable, Hashable]] | None


def hamming_neighbours(databases: Sequence[Hashable]) -> list[tuple[Hashable, Hashable]]:
    """Pairs of equal-length tuples differing in exactly one position (both orders)."""
    if not all(isinstance(x, tuple) for x in databases):
        raise InvalidArgument(
            "neighbours: the default relation (differ in one record) needs databases that are "
            "tuples; pass neighbours= explicitly"
        )
    pairs: list[tuple[Hashable, Hashable]] = []
    for x in databases:
        for y in databases:
            if (
                isinstance(x, tuple)
                and isinstance(y, tuple)
                and len(x) == len(y)
                and sum(a != b for a, b in zip(x, y, strict=True)) == 1
            ):
                pairs.append((x, y))
    return pairs


def check_distinct_databases(databases: Sequence[Hashable]) -> None:
    """Refuse a repeated or unhashable database (a model's databases are distinct keys)."""
    try:
        if len(set(databases)) != len(databases):
            raise InvalidArgument("databases: a database appears twice")
    except TypeError:
        raise InvalidArgument("databases: every database must be hashable") from None


@dataclass(frozen=True, slots=True, init=False, eq=False)
class BoundedLeakageModel:
    """R with an exact distribution, and the tables of M(x, r) and P(x, r).

    Args:
        randomness: a ``Distribution`` on R (or a mapping r -> probability).
        mechanism: M, as a callable ``(x, r) -> output``, a mapping ``{x: {r: output}}`` or a
            mapping ``{(x, r): output}``.
        leakage: P, in the same forms (on the same randomness space R).
        databases: the databases x (hashable, no repeats).
        neighbours: the neighbour relation: a callable ``(x, x') -> bool``, an iterable of
            pairs, or None for "tuples differing in exactly one position".  It is made
            symmetric; a database is never its own neighbour.
    """

    randomness: Distribution
    databases: tuple[Hashable, ...]
    neighbours: tuple[tuple[Hashable, Hashable], ...]
    outputs: Mapping[Hashable, tuple[Hashable, ...]]
    leakages: Mapping[Hashable, tuple[Hashable, ...]]
    _cache: dict[Any, Any] = field(default_factory=dict, repr=False)

    def __init__(
        self,
        randomness: Distribution | Mapping[Hashable, object],
        mechanism: Table,
        leakage: Table,
        *,
        databases: Iterable[Hashable],
        neighbours: Neighbours = None,
    ) -> None:
        if isinstance(randomness, Mapping):
            randomness = Distribution(randomness, name="randomness")
        if not isinstance(randomness, Distribution):
            raise InvalidArgument(
                "randomness must be a Distribution (or a mapping r -> probability), "
                f"got {type(randomness).__name__}"
            )
        if isinstance(databases, (str, bytes)) or not isinstance(databases, Iterable):
            raise InvalidArgument(
                f"databases={abbreviated_repr(databases)} must be an iterable of databases"
            )
        items = list(databases)
        if not items:
            raise InvalidArgument("databases: there are no databases")
        check_distinct_databases(items)
        object.__setattr__(self, "randomness", randomness)
        object.__setattr__(self, "databases", tuple(items))
        object.__setattr__(self, "outputs", self._tabulate(mechanism, "mechanism"))
        object.__setattr__(self, "leakages", self._tabulate(leakage, "leakage"))
        object.__setattr__(self, "neighbours", self._relation(neighbours))
        object.__setattr__(self, "_cache", {})

    @classmethod
    def _trusted(
        cls,
        randomness: Distribution,
        databases: Sequence[Hashable],
        neighbours: Sequence[tuple[Hashable, Hashable]],
        outputs: Mapping[Hashable, tuple[Hashable, ...]],
        leakages: Mapping[Hashable, tuple[Hashable, ...]],
    ) -> BoundedLeakageModel:
        """Build from tables computed by exactpml itself (no re-validation)."""
        self = object.__new__(cls)
        object.__setattr__(self, "randomness", randomness)
        object.__setattr__(self, "databases", tuple(databases))
        object.__setattr__(self, "neighbours", tuple(neighbours))
        object.__setattr__(self, "outputs", dict(outputs))
        object.__setattr__(self, "leakages", dict(leakages))
        object.__setattr__(self, "_cache", {})
        return self

    # --- validation -------------------------------------------------------------------
    def _tabulate(self, table: Table, name: str) -> dict[Hashable, tuple[Hashable, ...]]:
        space = self.randomness.outcomes
        result: dict[Hashable, tuple[Hashable, ...]] = {}
        if isinstance(table, Mapping):
            nested = all(x in table for x in self.databases) and all(
                isinstance(table[x], Mapping) for x in self.databases
            )
            for x in self.databases:
                if nested:
                    row = table[x]
                    if set(row) != set(space):
                        missing = [r for r in space if r not in row]
                        extra = [r for r in row if r not in self.randomness]
                        raise InvalidArgument(
                            f"{name} and randomness are on different randomness spaces: for "
                            f"database {abbreviated_repr(x)}, {name} lacks r = "
                            f"{abbreviated_repr(missing[:5])} and has extra "
                            f"r = {abbreviated_repr(extra[:5])}"
                        )
                    values = [row[r] for r in space]
                else:
                    values = []
                    for r in space:
                        if (x, r) not in table:
                            raise InvalidArgument(
                                f"{name} has no value for (x, r) = ({abbreviated_repr(x)}, "
                                f"{abbreviated_repr(r)}); it must be "
                                "defined on every database and every r of the randomness space"
                            )
                        values.append(table[(x, r)])
                result[x] = tuple(values)
        elif callable(table):
            for x in self.databases:
                values = []
                for r in space:
                    try:
                        values.append(table(x, r))
                    except Exception as error:
                        raise InvalidArgument(
                            f"{name} raised {type(error).__name__}: {abbreviated(error)} at (x, r) "
                            "= "
                            f"({abbreviated_repr(x)}, {abbreviated_repr(r)})"
                        ) from error
                result[x] = tuple(values)
        else:
            raise InvalidArgument(
                f"{name} must be a function (x, r) -> value or a mapping, "
                f"got {type(table).__name__}"
            )
        for x, cells in result.items():
            for r, value in zip(space, cells, strict=True):
                try:
                    hash(value)
                except TypeError:
                    raise InvalidArgument(
                        f"{name}({abbreviated_repr(x)}, {abbreviated_repr(r)}) = "
                        f"{abbreviated_repr(value)} is not hashable"
                    ) from None
        return result

    def _relation(self, neighbours: Neighbours) -> tuple[tuple[Hashable, Hashable], ...]:
        if neighbours is None:
            pairs = hamming_neighbours(self.databases)
        elif callable(neighbours):
            pairs = []
            for x in self.databases:
                for y in self.databases:
                    if x == y:
                        continue
                    try:
                        related = neighbours(x, y)
                    except Exception as error:
                        raise InvalidArgument(
                            f"neighbours raised {type(error).__name__}: {abbreviated(error)} on "
                            f"({abbreviated_repr(x)}, {abbreviated_repr(y)})"
                        ) from error
                    if not isinstance(related, bool):
                        raise InvalidArgument(
                            f"neighbours({abbreviated_repr(x)}, {abbreviated_repr(y)}) returned "
                            f"{abbreviated_repr(related)}, not a bool"
                        )
                    if related:
                        pairs.append((x, y))
        elif isinstance(neighbours, Iterable):
            pairs = []
            known = set(self.databases)
            for pair in neighbours:
                if not isinstance(pair, tuple) or len(pair) != 2:
                    raise InvalidArgument(
                        f"neighbours: {abbreviated_repr(pair)} is not a pair (x, x')"
                    )
                x, y = pair
                for member in (x, y):
                    if member not in known:
                        raise InvalidArgument(
                            f"neighbours: {abbreviated_repr(member)} is not one of the databases"
                        )
                if x == y:
                    raise InvalidArgument(
                        f"neighbours: {abbreviated_repr(x)} cannot be its own neighbour"
                    )
                pairs.append((x, y))
        else:
            raise InvalidArgument(
                "neighbours must be a callable (x, x') -> bool, an iterable of pairs or None, "
                f"got {type(neighbours).__name__}"
            )
        symmetric = dict.fromkeys([*pairs, *((y, x) for x, y in pairs)])
        return tuple(symmetric)

    # --- laws -------------------------------------------------------------------------
    def joint(self, database: Hashable) -> dict[Hashable, dict[Hashable, Scalar]]:
        """``{o: {m: Pr_r[P(x,r) = o, M(x,r) = m]}}`` for database x (positive entries)."""
        key = ("joint", database)
        if key not in self._cache:
            if database not in self.outputs:
                raise InvalidArgument(
                    f"database {abbreviated_repr(database)} is not one of the model's databases"
                )
            sums = self._integer_joint(database)
            if sums is not None:
                denominator = sums[0]
                self._cache[key] = {
                    o: {m: lowest_terms(n, denominator) for m, n in row.items()}
                    for o, row in sums[1].items()
                }
                return self._cache[key]
            terms: dict[Hashable, dict[Hashable, list[Scalar]]] = {}
            outputs, leakages = self.outputs[database], self.leakages[database]
            for k, weight in self._possible_randomness():
                terms.setdefault(leakages[k], {}).setdefault(outputs[k], []).append(weight)
            self._cache[key] = {
                o: {m: exact_sum(w) for m, w in row.items()} for o, row in terms.items()
            }
        return self._cache[key]

    def _integer_joint(
        self, database: Hashable
    ) -> tuple[int, dict[Hashable, dict[Hashable, int]]] | None:
        """The cached joint law of :meth:`joint` as integer numerators over one denominator,
        ``(D, {o: {m: D · Pr_r[P(x,r) = o, M(x,r) = m]}})``, when R's law is rational (else
        ``None``): the joint, leakage and conditional laws are then each entry's one gcd
        (Scenario 2 at population 2, k = 3: 0.2 s of Fraction sums and quotients otherwise)."""
        key = ("integer joint", database)
        if key not in self._cache:
            weights = self._integer_randomness()
            if weights is None:
                self._cache[key] = None
            else:
                denominator, numerators = weights
                sums: dict[Hashable, dict[Hashable, int]] = {}
                outputs, leakages = self.outputs[database], self.leakages[database]
                for k, numerator in numerators:
                    row = sums.setdefault(leakages[k], {})
                    row[outputs[k]] = row.get(outputs[k], 0) + numerator
                self._cache[key] = (denominator, sums)
        return self._cache[key]

    def _integer_randomness(self) -> tuple[int, list[tuple[int, int]]] | None:
        """The cached ``(D, [(k, D · Pr[R = r_k])])`` over the possible r, D the common
        denominator of R's law, when every probability is a ``Fraction`` (else ``None``)."""
        key = ("integer randomness",)
        if key not in self._cache:
            possible = self._possible_randomness()
            if not all(type(weight) is Fraction for _, weight in possible):
                self._cache[key] = None
            else:
                denominator = math.lcm(*(weight.denominator for _, weight in possible))
                self._cache[key] = (
                    denominator,
                    [
                        (k, weight.numerator * (denominator // weight.denominator))
                        for k, weight in possible
                    ],
                )
        return self._cache[key]

    def _possible_randomness(self) -> list[tuple[int, Scalar]]:
        """The cached ``(k, Pr[R = r_k])`` over the r not provably of probability 0, which
        every database's joint law sums over (deciding it once per model, not once per
        database: 32 000 decisions for Scenario 2 at population 2 and k = 3)."""
        key = ("possible randomness",)
        if key not in self._cache:
            self._cache[key] = [
                (k, weight)
                for k, weight in enumerate(self.randomness.probabilities)
                if not prove_zero(weight)
            ]
        return self._cache[key]

    def _leakage_masses(self, database: Hashable) -> dict[Hashable, Scalar]:
        """The cached ``{o: Pr_r[P(x, r) = o]}`` (group privacy asks it for every path)."""
        key = ("leakage", database)
        if key not in self._cache:
            joint = self.joint(database)
            sums = self._integer_joint(database)
            if sums is not None:
                self._cache[key] = {
                    o: lowest_terms(sum(row.values()), sums[0]) for o, row in sums[1].items()
                }
            else:
                self._cache[key] = {o: exact_sum(row.values()) for o, row in joint.items()}
        return self._cache[key]

    def leakage_distribution(self, database: Hashable) -> dict[Hashable, Scalar]:
        """``{o: Pr_r[P(x, r) = o]}`` over leakage values of positive probability."""
        return dict(self._leakage_masses(database))

    def leakage_possible(self, database: Hashable, leakage: Hashable) -> bool:
        """Whether ``Pr_r[P(x, r) = o] > 0`` (exact; ``Undecided`` if symbolic and unknown)."""
        key = ("possible", database, leakage)
        if key in self._cache:  # each database is in many constraints (x, x', o)
            return self._cache[key]
        mass = self._leakage_masses(database).get(leakage, Fraction(0))
        zero = prove_zero(mass)
        if zero is None:
            raise Undecided(
                f"cannot decide whether Pr[P({abbreviated_repr(database)}, r) = "
                f"{abbreviated_repr(leakage)}] is zero",
                expression=mass,
            )
        self._cache[key] = not zero
        return not zero

    def conditional(self, database: Hashable, leakage: Hashable) -> Distribution:
        """The law of M(x, r) given P(x, r) = o (which must have positive probability)."""
        key = ("conditional", database, leakage)
        if key in self._cache:
            return self._cache[key]
        row = self.joint(database).get(leakage)
        if row is None or not self.leakage_possible(database, leakage):
            raise InvalidArgument(
                f"leakage={abbreviated_repr(leakage)} has probability 0 under database "
                f"{abbreviated_repr(database)}"
            )
        sums = self._integer_joint(database)
        if sums is not None:  # Pr[m | o] = (D · Pr[o, m]) / (D · Pr[o]), one gcd each
            numerators = sums[1][leakage]
            total = sum(numerators.values())
            law = Distribution._trusted(
                list(numerators), [lowest_terms(n, total) for n in numerators.values()]
            )
        else:
            mass = exact_sum(row.values())
            law = Distribution._trusted(
                list(row), [exact_quotient(p, mass) for p in row.values()]
            )
        self._cache[key] = law
        return law

    def output_law(self, database: Hashable) -> Distribution:
        """The law of M(x, r) (the leakage ignored)."""
        totals: dict[Hashable, list[Scalar]] = {}
        for row in self.joint(database).values():
            for m, p in row.items():
                totals.setdefault(m, []).append(p)
        return Distribution._trusted(list(totals), [exact_sum(v) for v in totals.values()])

    # --- derived models ---------------------------------------------------------------
    def without_leakage(self) -> BoundedLeakageModel:
        """The same mechanism with a constant leakage: BLDP is then ordinary (ε,δ)-DP."""
        return BoundedLeakageModel._trusted(
            self.randomness,
            self.databases,
            self.neighbours,
            self.outputs,
            {x: (None,) * len(self.randomness) for x in self.databases},
        )

    def __repr__(self) -> str:
        """Python that rebuilds this model: R's law, the tables ``{x: {r: M(x, r)}}`` and
        ``{x: {r: P(x, r)}}``, the databases, and the neighbour pairs unless they are the
        default ("differ in one record")."""
        outcomes = self.randomness.outcomes

        def table(values: Mapping[Hashable, tuple[Hashable, ...]]) -> str:
            rows = (
                f"{x!r}: {{"
                + ", ".join(f"{r!r}: {v!r}" for r, v in zip(outcomes, values[x], strict=True))
                + "}"
                for x in self.databases
            )
            return "{" + ", ".join(rows) + "}"

        text = (
            f"BoundedLeakageModel({self.randomness!r}, {table(self.outputs)}, "
            f"{table(self.leakages)}, databases={list(self.databases)!r}"
        )
        position = {x: i for i, x in enumerate(self.databases)}
        pairs = sorted(
            ((x, y) for x, y in self.neighbours if position[x] < position[y]),
            key=lambda pair: (position[pair[0]], position[pair[1]]),
        )
        if not _default_neighbours(self.databases, self.neighbours):
            text += f", neighbours={pairs!r}"
        return text + ")"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)


def _default_neighbours(
    databases: Sequence[Hashable], neighbours: Sequence[tuple[Hashable, Hashable]]
) -> bool:
    """True when ``neighbours`` is the default relation (tuples differing in one record)."""
    if not all(isinstance(x, tuple) for x in databases):
        return False
    return set(hamming_neighbours(databases)) == set(neighbours)
