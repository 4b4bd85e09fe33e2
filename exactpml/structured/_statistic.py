"""The reachable values of a query's statistic, and neighbouring pairs of them.

For ``q(x) = h(g_1(d_1) ⊕ … ⊕ g_n(d_n))`` (:mod:`exactpml.structured._query`):

* when every entry has the same g (counting queries, means, equal weights), a database
  matters only through its histogram over the distinct values of g, so answers, pairs of
  neighbouring answers and neighbourhoods are enumerated on histograms (n + 1 of them for a
  counting query), each with a representative database built on demand;
* otherwise (linear queries with distinct weights) through the reachable statistics of
  every prefix and suffix of the entries (layered, with one representative each).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.decisions import exact_compare as compare_scalars
from exactpml.core.exact import Scalar, exact_product, exact_sum
from exactpml.database import Database, DatabaseSpace
from exactpml.errors import InvalidArgument
from exactpml.structured._query import Query

__all__ = ["StatisticIndex"]

Label = Hashable
Witness = Callable[[], tuple[Database, Database]]


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every tuple of ``parts`` non-negative ints summing to ``total``."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def _join_witness(index: int, before: Database, after: Database) -> tuple[int, Database]:
    return index, (*before, *after)


class StatisticIndex:
    """The statistic of ``query`` on the databases of ``space``, enumerated structurally."""

    __slots__ = ("_cache", "query", "space")

    def __init__(self, space: DatabaseSpace, query: Query) -> None:
        self.space = space
        self.query = query
        self._cache: dict[str, Any] = {"tables": query.statistics(space)}

    @property
    def tables(self) -> tuple[dict[Label, Scalar], ...]:
        return self._cache["tables"]

    @property
    def identical(self) -> bool:
        return len(self.tables) == 1

    def _classes(self) -> list[tuple[Scalar, list[Label]]]:
        """The distinct statistic values g(d) with the entries having them (alphabet order)."""
        if "classes" not in self._cache:
            grouped: dict[Scalar, list[Label]] = {}
            for d, g in self.tables[0].items():
                grouped.setdefault(g, []).append(d)
            self._cache["classes"] = list(grouped.items())
        return self._cache["classes"]

    def _integer_classes(self) -> tuple[list[int], int] | None:
        """Class values as integers over a common denominator (sum of rationals), else None."""
        if "integer_classes" not in self._cache:
            values = [g for g, _ in self._classes()]
            result = None
            if self.query.combine == "sum" and all(type(g) is Fraction for g in values):
                denominator = math.lcm(*(g.denominator for g in values))
                result = (
                    [g.numerator * (denominator // g.denominator) for g in values],
                    denominator,
                )
            self._cache["integer_classes"] = result
        return self._cache["integer_classes"]

    def _statistic_of_histogram(self, counts: Sequence[int]) -> Scalar:
        integer = self._integer_classes()
        if integer is not None:  # fast path: Σ_j c_j g_j with one common denominator
            numerators, denominator = integer
            return Fraction(
                sum(c * g for c, g in zip(counts, numerators, strict=True)), denominator
            )
        total = self.query.unit
        for (g, _), c in zip(self._classes(), counts, strict=True):
            if c == 0:
                continue
            if self.query.combine == "sum":
                total = exact_sum([total, exact_product(Fraction(c), g)])
            else:
                power = g**c if type(g) is Fraction else sympy.Pow(g, c)
                total = exact_product(total, power)
        return total

    def answer(self, statistic: Scalar) -> Scalar:
        return self.query.answer(statistic, self.space.size)

    def _representative(self, counts: Sequence[int]) -> Database:
        entries: list[Label] = []
        for (_, members), c in zip(self._classes(), counts, strict=True):
            entries.extend([members[0]] * c)
        return tuple(entries)

    def _histograms(self, size: int) -> Iterator[tuple[tuple[int, ...], Scalar]]:
        for counts in _compositions(size, len(self._classes())):
            yield counts, self._statistic_of_histogram(counts)

    def _layers(self) -> tuple[list[dict[Scalar, Database]], list[dict[Scalar, Database]]]:
        """Prefix and suffix reachable statistics with a representative (non-identical g)."""
        if "layers" not in self._cache:
            tables, join, n = self.tables, self.query.join, self.space.size
            prefix: list[dict[Scalar, Database]] = [{self.query.unit: ()}]
            for i in range(n):
                layer: dict[Scalar, Database] = {}
                for t, rep in prefix[-1].items():
                    for d, g in tables[i].items():
                        layer.setdefault(join(t, g), (*rep, d))
                prefix.append(layer)
            suffix: list[dict[Scalar, Database]] = [{self.query.unit: ()}]
            for i in range(n - 1, -1, -1):
                layer = {}
                for t, rep in suffix[-1].items():
                    for d, g in tables[i].items():
                        layer.setdefault(join(g, t), (d, *rep))
                suffix.append(layer)
            suffix.reverse()  # suffix[i]: statistics of positions i..n-1
            self._cache["layers"] = (prefix, suffix)
        return self._cache["layers"]

    def _answer_index(self) -> dict[Scalar, Any]:
        """Each reachable answer with a histogram (identical g) or database giving it."""
        if "answers" not in self._cache:
            found: dict[Scalar, Any] = {}
            statistic: dict[Scalar, Scalar] = {}
            if self.identical:
                for counts, t in self._histograms(self.space.size):
                    q = self.answer(t)
                    if q not in found:
                        found[q] = counts  # the representative database is built on demand
                        statistic[q] = t
            else:
                for t, rep in self._layers()[0][-1].items():
                    q = self.answer(t)
                    if q not in found:
                        found[q] = rep
                        statistic[q] = t
            self._cache["answers"] = found
            self._cache["statistic"] = statistic
        return self._cache["answers"]

    @property
    def answers(self) -> tuple[Scalar, ...]:
        """The reachable answers q(x), in increasing order.

        Sorted through the statistic t (h is monotone: increasing, or decreasing for the
        harmonic mean), so irrational answers such as sqrt(2) are ordered exactly.
        """
        if "sorted" not in self._cache:
            index = self._answer_index()
            statistic = self._cache["statistic"]
            ordered = sorted(
                index,
                key=functools.cmp_to_key(lambda a, b: compare_scalars(statistic[a], statistic[b])),
                reverse=not self.query.increasing,
            )
            self._cache["sorted"] = tuple(ordered)
        return self._cache["sorted"]

    def database(self, answer: Scalar) -> Database:
        """A database whose answer is ``answer``."""
        index = self._answer_index()
        if answer not in index:
            raise InvalidArgument(f"answer={answer!r} is not a reachable answer of the query")
        found = index[answer]
        return self._representative(found) if self.identical else found

    def answer_pairs(self) -> Iterator[tuple[Scalar, Scalar, Witness]]:
        """(q(x), q(x'), witness) for neighbouring x ~ x' (every distinct pair of answers)."""
        if self.identical:
            yield from self._identical_pairs()
        else:
            yield from self._layered_pairs()

    def _identical_pairs(self) -> Iterator[tuple[Scalar, Scalar, Witness]]:
        classes = self._classes()
        for counts, t in self._histograms(self.space.size):
            q = self.answer(t)
            for j, (_g, members) in enumerate(classes):
                if counts[j] == 0:
                    continue
                for j2, (_g2, _members2) in enumerate(classes):
                    if j2 == j and len(members) < 2:
                        continue
                    after = list(counts)
                    after[j] -= 1
                    after[j2] += 1
                    q2 = q if j2 == j else self.answer(self._statistic_of_histogram(after))

                    def witness(
                        counts: tuple[int, ...] = counts, j: int = j, j2: int = j2
                    ) -> tuple[Database, Database]:
                        x = self._representative(counts)
                        position = sum(counts[:j])
                        members_to = classes[j2][1]
                        entry = members_to[1] if j2 == j else members_to[0]
                        return x, (*x[:position], entry, *x[position + 1 :])

                    yield q, q2, witness

    def _layered_pairs(self) -> Iterator[tuple[Scalar, Scalar, Witness]]:
        prefix, suffix = self._layers()
        tables, join = self.tables, self.query.join
        for i in range(self.space.size):
            bases: dict[Scalar, tuple[Database, Database]] = {}
            for t1, rep1 in prefix[i].items():
                for t2, rep2 in suffix[i + 1].items():
                    bases.setdefault(join(t1, t2), (rep1, rep2))
            for base, (rep1, rep2) in bases.items():
                for d, g in tables[i].items():
                    for d2, g2 in tables[i].items():
                        if d == d2:
                            continue

                        def witness(
                            rep1: Database = rep1, rep2: Database = rep2, d: Any = d, d2: Any = d2
                        ) -> tuple[Database, Database]:
                            return (*rep1, d, *rep2), (*rep1, d2, *rep2)

                        yield (
                            self.answer(join(base, g)),
                            self.answer(join(base, g2)),
                            witness,
                        )

    def neighbourhoods(
        self,
    ) -> Iterator[tuple[tuple[Scalar, ...], Callable[[], tuple[int, Database]]]]:
        if self.identical:
            classes = self._classes()
            for counts, t in self._histograms(self.space.size - 1):
                values = tuple(self.answer(self.query.join(t, g)) for g, _ in classes)
                yield values, functools.partial(self._neighbourhood_witness, 0, counts)
            return
        prefix, suffix = self._layers()
        tables, join = self.tables, self.query.join
        for i in range(self.space.size):
            for t1, rep1 in prefix[i].items():
                for t2, rep2 in suffix[i + 1].items():
                    base = join(t1, t2)
                    values = tuple(self.answer(join(base, g)) for g in tables[i].values())
                    yield values, functools.partial(_join_witness, i, rep1, rep2)

    def _neighbourhood_witness(self, index: int, counts: Sequence[int]) -> tuple[int, Database]:
        return index, self._representative(counts)

    def database_pair(self, answer: Scalar, other: Scalar) -> tuple[Database, Database]:
        return self.database(answer), self.database(other)
