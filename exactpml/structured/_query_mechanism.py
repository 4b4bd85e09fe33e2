"""A query answered with noise and an optional threshold, computed through its statistic.

:class:`QueryMechanism` keeps its structure: the output law depends on the database only
through the query's statistic t(x) (the count, for a counting query), so

* the reachable answers, neighbouring pairs of answers and neighbourhoods are enumerated
  on histograms of the entries' statistic values (n + 1 of them for a counting query), not
  on D^n;
* ε-DP and free-lunch ε use the closed forms of :mod:`exactpml.structured._noise` (the
  outputs where each supremum is attained), so n = 10^4 is exact and fast;
* δ(ε), statistical distances and simulators run on the kernel P_{Y|answer} (its finite,
  exactly lumped outputs);
* entry leakages under product priors use the law of the other records' statistic
  (:func:`~exactpml.structured.count_distribution` for counts).

``explicit()`` builds the kernel on D^n by evaluating the query on every database; the
tests check that every structured path equals explicit enumeration for small n.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import sympy

from exactpml.database import (
    Database,
    DatabaseMechanism,
    DatabaseSpace,
    ProductPrior,
    Reduction,
    StructuredDatabaseMechanism,
    _check_index,
)
from exactpml.distribution import Distribution
from exactpml.errors import InvalidArgument
from exactpml.exact import (
    Scalar,
    exact,
    exact_product,
    exact_quotient,
    exact_sum,
    prove_zero,
)
from exactpml.logvalue import LogValue
from exactpml.mechanism import Mechanism
from exactpml.notions._common import WorstCase, compare_scalars
from exactpml.structured._count import count_distribution, statistic_distribution
from exactpml.structured._noise import (
    GeometricNoise,
    LaplaceNoise,
    Noise,
    NoNoise,
    Window,
    check_threshold,
)
from exactpml.structured._query import CountingQuery, Query

__all__ = ["QueryMechanism"]

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


class QueryMechanism(StructuredDatabaseMechanism):
    """Answer ``query`` on databases of ``space`` with ``noise``, then threshold.

    Args:
        space: the databases D^n.
        query: a :class:`CountingQuery`, :class:`LinearQuery` or :class:`MeanQuery`.
        noise: :class:`NoNoise` (default), :class:`GeometricNoise` or :class:`LaplaceNoise`.
        threshold: m: release the noisy answer only when it is > m, else :data:`BOTTOM`
            (for a counting query m must lie in [0, n]; otherwise between the smallest and
            largest answer).

    >>> from exactpml.structured import CountingQuery, GeometricNoise
    >>> mechanism = QueryMechanism(
    ...     DatabaseSpace([0, 1], 10_000), CountingQuery(lambda d: d), noise=GeometricNoise("1/2")
    ... )
    >>> from exactpml.notions import differential_privacy_epsilon, free_lunch_epsilon
    >>> print(differential_privacy_epsilon(mechanism).value)
    log(2)
    >>> free_lunch_epsilon(mechanism).value == LogValue(2**10_000)
    True
    """

    __slots__ = ("_cache", "noise", "query", "space", "window")

    def __init__(
        self,
        space: DatabaseSpace,
        query: Query,
        *,
        noise: Noise | None = None,
        threshold: object = None,
    ) -> None:
        if not isinstance(space, DatabaseSpace):
            raise InvalidArgument(f"space must be a DatabaseSpace, got {type(space).__name__}")
        if not isinstance(query, Query):
            raise InvalidArgument(
                f"query must be a CountingQuery, LinearQuery or MeanQuery, got "
                f"{type(query).__name__}"
            )
        chosen = NoNoise() if noise is None else noise
        if not isinstance(chosen, Noise):
            raise InvalidArgument(
                f"noise must be NoNoise(), GeometricNoise(alpha) or LaplaceNoise(scale), got "
                f"{type(noise).__name__}"
            )
        self.space = space
        self.query = query
        self.noise = chosen
        self._cache: dict[str, Any] = {}
        self._cache["tables"] = query.statistics(space)
        answers = self.answers
        allowed = query.answer_range(space) or (answers[0], answers[-1])
        self.window = Window(answers, check_threshold(threshold, allowed))
        chosen.check(self.window)

    # --- the statistic ----------------------------------------------------------------
    @property
    def _tables(self) -> tuple[dict[Label, Scalar], ...]:
        return self._cache["tables"]

    @property
    def _identical(self) -> bool:
        return len(self._tables) == 1

    def _classes(self) -> list[tuple[Scalar, list[Label]]]:
        """The distinct statistic values g(d) with the entries having them (alphabet order)."""
        if "classes" not in self._cache:
            grouped: dict[Scalar, list[Label]] = {}
            for d, g in self._tables[0].items():
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

    def _answer(self, statistic: Scalar) -> Scalar:
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
            tables, join, n = self._tables, self.query.join, self.space.size
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
            if self._identical:
                for counts, t in self._histograms(self.space.size):
                    q = self._answer(t)
                    if q not in found:
                        found[q] = counts  # the representative database is built on demand
                        statistic[q] = t
            else:
                for t, rep in self._layers()[0][-1].items():
                    q = self._answer(t)
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
        return self._representative(found) if self._identical else found

    # --- pairs and neighbourhoods of answers ------------------------------------------
    def answer_pairs(self) -> Iterator[tuple[Scalar, Scalar, Witness]]:
        """(q(x), q(x'), witness) for neighbouring x ~ x' (every distinct pair of answers)."""
        if self._identical:
            yield from self._identical_pairs()
        else:
            yield from self._layered_pairs()

    def _identical_pairs(self) -> Iterator[tuple[Scalar, Scalar, Witness]]:
        classes = self._classes()
        for counts, t in self._histograms(self.space.size):
            q = self._answer(t)
            for j, (_g, members) in enumerate(classes):
                if counts[j] == 0:
                    continue
                for j2, (_g2, _members2) in enumerate(classes):
                    if j2 == j and len(members) < 2:
                        continue
                    after = list(counts)
                    after[j] -= 1
                    after[j2] += 1
                    q2 = q if j2 == j else self._answer(self._statistic_of_histogram(after))

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
        tables, join = self._tables, self.query.join
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
                            self._answer(join(base, g)),
                            self._answer(join(base, g2)),
                            witness,
                        )

    def _neighbourhoods(
        self,
    ) -> Iterator[tuple[tuple[Scalar, ...], Callable[[], tuple[int, Database]]]]:
        if self._identical:
            classes = self._classes()
            for counts, t in self._histograms(self.space.size - 1):
                values = tuple(self._answer(self.query.join(t, g)) for g, _ in classes)
                yield values, functools.partial(self._neighbourhood_witness, 0, counts)
            return
        prefix, suffix = self._layers()
        tables, join = self._tables, self.query.join
        for i in range(self.space.size):
            for t1, rep1 in prefix[i].items():
                for t2, rep2 in suffix[i + 1].items():
                    base = join(t1, t2)
                    values = tuple(self._answer(join(base, g)) for g in tables[i].values())
                    yield values, functools.partial(_join_witness, i, rep1, rep2)

    def _neighbourhood_witness(self, index: int, counts: Sequence[int]) -> tuple[int, Database]:
        return index, self._representative(counts)

    def _database_pair(self, answer: Scalar, other: Scalar) -> tuple[Database, Database]:
        return self.database(answer), self.database(other)

    # --- outputs ----------------------------------------------------------------------
    @property
    def is_continuous(self) -> bool:
        """True for Laplace noise (outputs described by a density)."""
        return self.noise.continuous

    @property
    def outputs(self) -> tuple[Label, ...]:
        """The finite output alphabet (exactly lumped tails for geometric noise)."""
        if "outputs" not in self._cache:
            self._cache["outputs"] = self.noise.outputs(self.window)
        return self._cache["outputs"]

    def output_event(self, y: object) -> Label:
        """The output (event) that contains the raw output value y (e.g. 17 -> ``≥11``)."""
        if isinstance(self.noise, GeometricNoise):
            if isinstance(y, bool) or not isinstance(y, int):
                raise InvalidArgument(f"y={y!r} must be an int (an output of geometric noise)")
            return self.noise.event(y, self.window)
        if y in self.outputs:
            return y
        raise InvalidArgument(f"y={y!r} is not an output of the mechanism")

    def _row(self, answer: Scalar) -> tuple[Scalar, ...]:
        rows: dict[Scalar, tuple[Scalar, ...]] = self._cache.setdefault("rows", {})
        if answer not in rows:
            rows[answer] = tuple(
                self.noise.probability(o, answer, self.window) for o in self.outputs
            )
        return rows[answer]

    def output_given_value(self, answer: object) -> Distribution:
        """P_{Y | q(X) = answer}: the output law as a function of the answer (the count)."""
        value = exact(answer, where="answer")
        if value not in self._answer_index():
            raise InvalidArgument(f"answer={answer!r} is not a reachable answer of the query")
        return Distribution._trusted(self.outputs, self._row(value))

    def output_given_count(self, count: int) -> Distribution:
        """P_{Y | S = count} for a counting query (see :meth:`output_given_value`)."""
        if not isinstance(self.query, CountingQuery):
            raise InvalidArgument("output_given_count needs a counting query")
        return self.output_given_value(count)

    def value_kernel(self) -> Mechanism:
        """The kernel P_{Y | answer} on the reachable answers (the count kernel)."""
        if "kernel" not in self._cache:
            self._cache["kernel"] = Mechanism._trusted(
                self.answers, self.outputs, [self._row(q) for q in self.answers]
            )
        return self._cache["kernel"]

    def density(self, database: Sequence[Label]) -> sympy.Expr:
        """The density of Y given the database, as a sympy expression in ``y`` (Laplace)."""
        if not isinstance(self.noise, LaplaceNoise):
            raise InvalidArgument("density() is for Laplace noise; use row() for finite outputs")
        x = self.space.check(database)
        return self.noise.density(self.query.evaluate(x, self.space))

    def row(self, database: Sequence[Label]) -> Distribution:
        """P_{Y | X = x} over the finite outputs."""
        x = self.space.check(database)
        return Distribution._trusted(self.outputs, self._row(self.query.evaluate(x, self.space)))

    # --- the structured-mechanism protocol --------------------------------------------
    def explicit(self) -> DatabaseMechanism:
        """The kernel on D^n, evaluating the query on every database (small n only)."""
        kernel = Mechanism._trusted(
            list(self.space.databases()),
            self.outputs,
            [self._row(self.query.evaluate(x, self.space)) for x in self.space.databases()],
        )
        return DatabaseMechanism._trusted(kernel, self.space)

    def reduction(self) -> Reduction:
        outputs = self.outputs
        return Reduction(
            outputs=outputs,
            row=self._row,
            values=lambda: self.answers,
            pairs=self.answer_pairs,
            neighbourhoods=self._neighbourhoods,
            database=self.database,
            kernel=self.value_kernel,
        )

    def _pair_supremum(self, answer: Scalar, other: Scalar) -> tuple[Scalar, Label, bool]:
        """sup_y P(y|answer) / P(y|other) with an output attaining (or approaching) it."""
        if isinstance(self.noise, LaplaceNoise):
            return self.noise.pair_supremum(answer, other, self.window)
        best: tuple[Scalar, Label, bool] | None = None
        for output in self.noise.candidates(answer, other, self.window):
            top = self.noise.probability(output, answer, self.window)
            if prove_zero(top):
                continue
            bottom = self.noise.probability(output, other, self.window)
            ratio = sympy.oo if prove_zero(bottom) else exact_quotient(top, bottom)
            if best is None or compare_scalars(ratio, best[0]) > 0:
                best = (ratio, output, True)
        assert best is not None
        return best

    def _worst(self, pairs: Iterator[tuple[Scalar, Scalar, Witness]]) -> WorstCase:
        seen: set[tuple[Scalar, Scalar]] = set()
        best: tuple[Scalar, Label, bool, Witness] | None = None
        for q, q2, witness in pairs:
            if (q, q2) in seen:
                continue
            seen.add((q, q2))
            ratio, output, attained = self._pair_supremum(q, q2)
            if best is None or compare_scalars(ratio, best[0]) > 0:
                best = (ratio, output, attained, witness)
                if ratio is sympy.oo:
                    break
        if best is None:
            return WorstCase(LogValue(1))
        x, x2 = best[3]()
        return WorstCase(LogValue(best[0]), x, x2, best[1], attained=best[2])

    def _differential_privacy(self) -> WorstCase:
        return self._worst(self.answer_pairs())

    def _free_lunch_privacy(self) -> WorstCase:
        low, high = self.window.low, self.window.high

        def extreme_pairs() -> Iterator[tuple[Scalar, Scalar, Witness]]:
            for a, b in ((high, low), (low, high)):
                yield a, b, functools.partial(self._database_pair, a, b)

        return self._worst(extreme_pairs())

    # --- leakages under product priors -------------------------------------------------
    def _check_prior(self, prior: object) -> ProductPrior:
        if not isinstance(prior, ProductPrior) or prior.space != self.space:
            raise InvalidArgument("prior must be a ProductPrior on the mechanism's databases")
        if self.is_continuous:
            raise InvalidArgument(
                "entry leakage of Laplace (continuous) outputs is not computed here"
            )
        return prior

    def _check_output(self, output: Label) -> int:
        try:
            return self.outputs.index(output)
        except ValueError:
            raise InvalidArgument(
                f"output {output!r} is not an output of the mechanism; map a raw value with "
                "output_event(y)"
            ) from None

    def _others_law(self, prior: ProductPrior, index: int) -> dict[Scalar, Scalar]:
        """The law of the statistic of every entry but ``index``."""
        others = [m for j, m in enumerate(prior.marginals) if j != index]
        tables = self._tables
        if isinstance(self.query, CountingQuery):
            table = tables[0]
            law = count_distribution(
                [exact_sum(m[d] for d in m.outcomes if table[d] == 1) for m in others]
            )
            return {Fraction(k): p for k, p in enumerate(law.probabilities)}
        laws = [
            m.map(tables[j if len(tables) > 1 else 0].__getitem__)
            for j, m in enumerate(prior.marginals)
            if j != index
        ]
        return statistic_distribution(laws, combine=self.query.join, unit=self.query.unit)

    def output_distribution(self, prior: ProductPrior) -> Distribution:
        """P_Y under a product prior, through the law of the statistic."""
        checked = self._check_prior(prior)
        law = statistic_distribution(
            [
                m.map(self._tables[j if len(self._tables) > 1 else 0].__getitem__)
                for j, m in enumerate(checked.marginals)
            ],
            combine=self.query.join,
            unit=self.query.unit,
        )
        columns: list[list[Scalar]] = [[] for _ in self.outputs]
        for t, mass in law.items():
            for c, p in enumerate(self._row(self._answer(t))):
                columns[c].append(exact_product(mass, p))
        return Distribution._trusted(self.outputs, [exact_sum(col) for col in columns])

    def entry_leakage(self, prior: ProductPrior, index: int, output: Label) -> LogValue:
        """l(D_i -> y) under a product prior, through the others' statistic law."""
        checked = self._check_prior(prior)
        _check_index(index, self.space.size)
        column = self._check_output(output)
        law = self._others_law(checked, index)
        table = self._tables[index if len(self._tables) > 1 else 0]
        marginal = checked.marginal(index)
        given: dict[Label, Scalar] = {}
        for d in self.space.alphabet:
            given[d] = exact_sum(
                exact_product(mass, self._row(self._answer(self.query.join(t, table[d])))[column])
                for t, mass in law.items()
            )
        total = exact_sum(exact_product(marginal[d], given[d]) for d in self.space.alphabet)
        if prove_zero(total):
            return LogValue(1)
        best = max(
            (given[d] for d in self.space.alphabet if not prove_zero(marginal[d])),
            key=functools.cmp_to_key(compare_scalars),
        )
        return LogValue(exact_quotient(best, total))

    def conditional_entry_leakage(
        self, prior: ProductPrior, index: int, output: Label, others: Database
    ) -> LogValue:
        """l(D_i -> y | d_{-i}) under a product prior (the others' statistic is known)."""
        checked = self._check_prior(prior)
        others = self.space.check_others(others, index)
        column = self._check_output(output)
        for j, (m, d) in enumerate(
            zip(checked.marginals[:index] + checked.marginals[index + 1 :], others, strict=True)
        ):
            if prove_zero(m[d]):
                raise InvalidArgument(
                    f"others={others!r} has probability zero under the prior (position {j})"
                )
        tables = self._tables
        t = self.query.unit
        for j, d in enumerate(others):
            position = j if j < index else j + 1
            t = self.query.join(t, tables[position if len(tables) > 1 else 0][d])
        table = tables[index if len(tables) > 1 else 0]
        marginal = checked.marginal(index)
        given = {
            d: self._row(self._answer(self.query.join(t, table[d])))[column]
            for d in self.space.alphabet
        }
        total = exact_sum(exact_product(marginal[d], given[d]) for d in self.space.alphabet)
        if prove_zero(total):
            return LogValue(1)
        best = max(
            (given[d] for d in self.space.alphabet if not prove_zero(marginal[d])),
            key=functools.cmp_to_key(compare_scalars),
        )
        return LogValue(exact_quotient(best, total))

    def __repr__(self) -> str:
        return (
            f"QueryMechanism(n={self.space.size}, alphabet={list(self.space.alphabet)!r}, "
            f"query={type(self.query).__name__}, noise={self.noise!r}, "
            f"threshold={self.window.threshold})"
        )
