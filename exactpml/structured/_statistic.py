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
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.abbreviate import abbreviated_repr
from exactpml.core.decisions import exact_compare as compare_scalars
from exactpml.core.exact import Scalar, exact_product, exact_sum
from exactpml.database import Database, DatabaseSpace
from exactpml.errors import InvalidArgument
from exactpml.structured._progression import Progression
from exactpml.structured._query import Query

__all__ = ["PairFamily", "StatisticIndex"]

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


@dataclass(frozen=True, slots=True)
class PairFamily:
    """Neighbouring answers (base + g, base + g2) for every base and every move (g, g2, key).

    Attributes:
        bases: the answers a·t of the unchanged n - 1 entries, sorted (exact rationals).
        moves: (a·g(d), a·g(d'), key) for the changed entry's values d ≠ d' (or two entries
            with the same g).
        witness: ``witness(base, key)`` = (x, x'), neighbouring databases with those answers.
    """

    bases: Sequence[Fraction]
    moves: tuple[tuple[Fraction, Fraction, Any], ...]
    witness: Callable[[Fraction, Any], tuple[Database, Database]]


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

    def _linear_factor(self) -> Fraction | None:
        """a when every answer is a·t for the sum statistic t (see Query.linear_factor)."""
        if self.query.combine != "sum":
            return None
        return self.query.linear_factor(self.space.size)

    def progression(self) -> Progression | None:
        """The sorted answers as a Progression when they form one (one g, at most 2 classes).

        With classes g_0, g_1 (alphabet order) and k entries in class 1 the answer is
        a·((n - k) g_0 + k g_1), affine in k; sorted, it starts at a·n·min(g) with step
        a·|g_1 - g_0|.  None for other queries.
        """
        if "progression" not in self._cache:
            self._cache["progression"] = self._class_progression(self.space.size)
        return self._cache["progression"]

    def _class_progression(self, size: int) -> Progression | None:
        a = self._linear_factor()
        classes = self._classes()
        if a is None or not self.identical or len(classes) > 2:
            return None
        values = [g for g, _ in classes]
        if not all(type(g) is Fraction for g in values):
            return None
        low, high = min(values), max(values)
        return Progression(a * size * low, a * (high - low), size + 1 if high > low else 1)

    def _progression_histogram(self, answer: Scalar, size: int) -> tuple[int, ...] | None:
        """The histogram (by class) of ``size`` entries whose answer is ``answer``, or None."""
        a = self._linear_factor()
        assert a is not None
        values = [g for g, _ in self._classes()]
        if isinstance(answer, int) and not isinstance(answer, bool):
            answer = Fraction(answer)
        if type(answer) is not Fraction:
            return None
        if len(values) == 1:
            return (size,) if answer == a * size * values[0] else None
        ones = (answer / a - size * values[0]) / (values[1] - values[0])
        if ones.denominator != 1 or not 0 <= ones <= size:
            return None
        return (size - int(ones), int(ones))

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
    def answers(self) -> Sequence[Scalar]:
        """The reachable answers q(x), in increasing order (a lazy Progression when possible).

        Sorted through the statistic t (h is monotone: increasing, or decreasing for the
        harmonic mean), so irrational answers such as sqrt(2) are ordered exactly.
        """
        if "sorted" not in self._cache:
            progression = self.progression()
            if progression is not None:
                self._cache["sorted"] = progression
                return progression
            index = self._answer_index()
            statistic = self._cache["statistic"]
            ordered = sorted(
                index,
                key=functools.cmp_to_key(lambda a, b: compare_scalars(statistic[a], statistic[b])),
                reverse=not self.query.increasing,
            )
            self._cache["sorted"] = tuple(ordered)
        return self._cache["sorted"]

    def reachable(self, answer: Scalar) -> bool:
        """True when some database has this answer."""
        if self.progression() is not None:
            return answer in self.progression()  # type: ignore[operator]
        return answer in self._answer_index()

    def database(self, answer: Scalar) -> Database:
        """A database whose answer is ``answer``."""
        if self.progression() is not None:
            counts = self._progression_histogram(answer, self.space.size)
            if counts is None:
                raise InvalidArgument(
                    f"answer={abbreviated_repr(answer)} is not a reachable answer of the query"
                )
            return self._representative(counts)
        index = self._answer_index()
        if answer not in index:
            raise InvalidArgument(
                f"answer={abbreviated_repr(answer)} is not a reachable answer of the query"
            )
        found = index[answer]
        return self._representative(found) if self.identical else found

    def largest_gap(self) -> Fraction | None:
        """The largest |q(x) - q(x')| over neighbours x ~ x', when every entry has the same
        rational g and the answer is a·t (then it is a·(max g - min g): neighbours' answers
        are a·(base + g(d)) and a·(base + g(d'))); None for other queries."""
        a = self._linear_factor()
        if a is None or not self.identical:
            return None
        values = [g for g, _ in self._classes()]
        if not all(type(g) is Fraction for g in values):
            return None
        return a * (max(values) - min(values))

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

    def pair_families(self) -> list[PairFamily] | None:
        """Every neighbouring pair of answers, grouped by the entry changed (None: not linear).

        For an answer a·t with a sum statistic t (``Query.linear_factor``), neighbours x ~ x'
        that differ in entry i have answers a·(base + g_i(d)) and a·(base + g_i(d')), where
        base is the statistic of the other n - 1 entries.  A family lists the reachable
        bases (sorted, as answers a·base) once, and the moves (a·g(d), a·g(d')): for
        identical g the bases of any n - 1 entries (a Progression for at most two classes),
        otherwise per position i from the prefix and suffix statistics.  Every (family,
        base, move) is a neighbouring pair, and every neighbouring pair is one of them.
        """
        a = self._linear_factor()
        if a is None or not all(
            type(g) is Fraction for table in self.tables for g in table.values()
        ):
            return None
        if self.identical:
            return [self._identical_family(a)]
        return self._layered_families(a)

    def _identical_family(self, a: Fraction) -> PairFamily:
        classes = self._classes()
        size = self.space.size - 1  # the other entries
        moves = tuple(
            (a * g, a * g2, (j, j2))
            for j, (g, members) in enumerate(classes)
            for j2, (g2, _) in enumerate(classes)
            if j != j2 or len(members) >= 2
        )
        bases: Sequence[Fraction]
        found: dict[Fraction, tuple[int, ...]] = {}
        progression = self._class_progression(size)
        if progression is not None:
            bases = progression
        else:
            for counts, t in self._histograms(size):
                found.setdefault(a * t, counts)
            bases = tuple(sorted(found))

        def histogram(base: Fraction) -> tuple[int, ...]:
            if progression is None:
                return found[base]
            counts = self._progression_histogram(base, size)
            assert counts is not None
            return counts

        def witness(base: Fraction, key: Any) -> tuple[Database, Database]:
            j, j2 = key
            counts = list(histogram(base))
            counts[j] += 1
            x = self._representative(counts)
            position = sum(counts[:j])
            members_to = classes[j2][1]
            entry = members_to[1] if j2 == j else members_to[0]
            return x, (*x[:position], entry, *x[position + 1 :])

        return PairFamily(bases, moves, witness)

    def _layered_families(self, a: Fraction) -> list[PairFamily]:
        prefix, suffix = self._layers()
        families = []
        for i in range(self.space.size):
            found: dict[Fraction, tuple[Database, Database]] = {}
            for t1, rep1 in prefix[i].items():
                for t2, rep2 in suffix[i + 1].items():
                    found.setdefault(a * (t1 + t2), (rep1, rep2))
            moves: dict[tuple[Fraction, Fraction], tuple[Label, Label]] = {}
            for d, g in self.tables[i].items():
                for d2, g2 in self.tables[i].items():
                    if d != d2:
                        moves.setdefault((a * g, a * g2), (d, d2))

            def witness(
                base: Fraction, key: Any, found: dict[Fraction, Any] = found
            ) -> tuple[Database, Database]:
                (rep1, rep2), (d, d2) = found[base], key
                return (*rep1, d, *rep2), (*rep1, d2, *rep2)

            families.append(
                PairFamily(
                    tuple(sorted(found)),
                    tuple((g, g2, key) for (g, g2), key in moves.items()),
                    witness,
                )
            )
        return families

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
