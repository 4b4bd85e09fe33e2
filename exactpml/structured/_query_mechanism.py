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
from collections.abc import Hashable, Iterator, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

import sympy

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import exact_compare as compare_scalars
from exactpml.core.decisions import prove_zero
from exactpml.core.display import number_text, pretty
from exactpml.core.distribution import Distribution
from exactpml.core.exact import (
    Scalar,
    as_scalar,
    exact,
    exact_product,
    exact_quotient,
    exact_sum,
    lowest_terms,
    to_sympy,
)
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.database import (
    Database,
    DatabaseMechanism,
    DatabaseSpace,
    ProductPrior,
    Reduction,
    StructuredDatabaseMechanism,
    check_index,
)
from exactpml.errors import InvalidArgument
from exactpml.notions import WorstCase, laplace_delta_for_epsilon
from exactpml.structured._geometric_pairs import (
    Event,
    candidate_pairs,
    event_labels,
    pair_hockey_stick,
)
from exactpml.structured._noise import (
    GeometricNoise,
    LaplaceNoise,
    Noise,
    NoNoise,
    Window,
    check_threshold,
)
from exactpml.structured._query import CountingQuery, Query, query_text
from exactpml.structured._statistic import StatisticIndex, Witness
from exactpml.structured.count_law import count_distribution, statistic_distribution

__all__ = ["QueryMechanism"]

Label = Hashable


class _Ratio(NamedTuple):
    """p/q with integers p >= 0, q > 0, not reduced (a gcd of Θ(n)-bit integers is costly)."""

    numerator: int
    denominator: int


def _ratio(top: Scalar, bottom: Scalar) -> Any:
    """top / bottom: an unreduced _Ratio for rationals, else an exact quotient."""
    if type(top) is Fraction and type(bottom) is Fraction:
        return _Ratio(top.numerator * bottom.denominator, top.denominator * bottom.numerator)
    return exact_quotient(top, bottom)


def _scalar(ratio: Any) -> Scalar:
    """The exact scalar of a ratio (one gcd, FLINT's for large integers)."""
    if isinstance(ratio, _Ratio):
        return lowest_terms(ratio.numerator, ratio.denominator)
    return ratio


def _greater(ratio: Any, other: Any) -> bool:
    """ratio > other, exactly (integer cross-multiplication for two _Ratios)."""
    if isinstance(ratio, _Ratio) and isinstance(other, _Ratio):
        return ratio.numerator * other.denominator > other.numerator * ratio.denominator
    return compare_scalars(_scalar(ratio), _scalar(other)) > 0


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

    __slots__ = ("_cache", "_statistic", "noise", "query", "space", "window")

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
        self._statistic = StatisticIndex(space, query)
        answers = self.answers
        allowed = query.answer_range(space) or (answers[0], answers[-1])
        self.window = Window(answers, check_threshold(threshold, allowed))
        chosen.check(self.window)

    # --- the statistic (see _statistic.py) ------------------------------------------
    @property
    def _tables(self) -> tuple[dict[Label, Scalar], ...]:
        return self._statistic.tables

    def _answer(self, statistic: Scalar) -> Scalar:
        return self._statistic.answer(statistic)

    @property
    def answers(self) -> Sequence[Scalar]:
        """The reachable answers q(x), in increasing order (lazy for counting queries)."""
        return self._statistic.answers

    def database(self, answer: Scalar) -> Database:
        """A database whose answer is ``answer``."""
        return self._statistic.database(answer)

    def answer_pairs(self) -> Iterator[tuple[Scalar, Scalar, Witness]]:
        """(q(x), q(x'), witness) for neighbouring x ~ x' (every distinct pair of answers)."""
        return self._statistic.answer_pairs()

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
                raise InvalidArgument(
                    f"y={abbreviated_repr(y)} must be an int (an output of geometric noise)"
                )
            return self.noise.event(y, self.window)
        if y in self.outputs:
            return y
        raise InvalidArgument(f"y={abbreviated_repr(y)} is not an output of the mechanism")

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
        if not self._statistic.reachable(value):
            raise InvalidArgument(
                f"answer={abbreviated_repr(answer)} is not a reachable answer of the query"
            )
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
                tuple(self.answers), self.outputs, [self._row(q) for q in self.answers]
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
        tables, size = self.query.statistics(self.space), self.space.size
        kernel = Mechanism._trusted(
            list(self.space.databases()),
            self.outputs,
            [self._row(self.query.evaluate_with(tables, x, size)) for x in self.space.databases()],
        )
        return DatabaseMechanism._trusted(kernel, self.space)

    def reduction(self) -> Reduction:
        outputs = self.outputs
        return Reduction(
            outputs=outputs,
            row=self._row,
            values=lambda: self.answers,
            pairs=self.answer_pairs,
            neighbourhoods=self._statistic.neighbourhoods,
            database=self.database,
            kernel=self.value_kernel,
        )

    def _pair_supremum(self, answer: Scalar, other: Scalar) -> tuple[Any, Label, bool]:
        """sup_y P(y|answer) / P(y|other) with an output attaining (or approaching) it.

        Finite-output noises give rational probabilities: the ratio is kept as an unreduced
        integer pair (:class:`_Ratio`) and reduced once, for the worst pair only.
        """
        if isinstance(self.noise, LaplaceNoise):
            return self.noise.pair_supremum(answer, other, self.window)
        best: tuple[Any, Label, bool] | None = None
        for output in self.noise.candidates(answer, other, self.window):
            top = self.noise.probability(output, answer, self.window)
            if prove_zero(top):
                continue
            bottom = self.noise.probability(output, other, self.window)
            ratio = sympy.oo if prove_zero(bottom) else _ratio(top, bottom)
            if best is None or _greater(ratio, best[0]):
                best = (ratio, output, True)
        assert best is not None
        return best

    def _worst(self, pairs: Iterator[tuple[Scalar, Scalar, Witness]]) -> WorstCase:
        seen: set[tuple[Scalar, Scalar]] = set()
        best: tuple[Any, Label, bool, Witness] | None = None
        for q, q2, witness in pairs:
            if (q, q2) in seen:
                continue
            seen.add((q, q2))
            ratio, output, attained = self._pair_supremum(q, q2)
            if best is None or _greater(ratio, best[0]):
                best = (ratio, output, attained, witness)
                if ratio is sympy.oo:
                    break
        if best is None:
            return WorstCase(LogValue(1))
        x, x2 = best[3]()
        return WorstCase(LogValue(_scalar(best[0])), x, x2, best[1], attained=best[2])

    def _candidate_pairs(self) -> Iterator[tuple[Scalar, Scalar, Witness]] | None:
        """The few pairs where geometric noise's worst case lies (_geometric_pairs), or None."""
        if not isinstance(self.noise, GeometricNoise):
            return None
        families = self._statistic.pair_families()
        if families is None:
            return None
        return candidate_pairs(families, self.window.threshold)

    def _widening_pairs(
        self, pairs: Iterator[tuple[Scalar, Scalar, Witness]]
    ) -> Iterator[tuple[Scalar, Scalar, Witness]]:
        """The pairs whose gap |q - q'| exceeds every earlier pair's (and the first pair).

        Without a threshold, Laplace noise's sup_y f(y|q)/f(y|q') is e^{|q - q'|/b}, strictly
        increasing in the gap, so :meth:`_worst` keeps exactly the pair it would keep on all
        pairs, and computes no exponential for the others (the count with n = 6908 entries of
        pml.thm_4_3 has 13 816 pairs: 0.65 s of sympy before).  Once a pair reaches the
        largest possible gap (:meth:`StatisticIndex.largest_gap`, when known) no later pair can
        exceed it, and the enumeration stops (iterating the other pairs took 60 ms more).
        """
        largest = self._statistic.largest_gap()
        bound = None if largest is None else _Ratio(largest.numerator, largest.denominator)
        widest: Any = None
        for q, q2, witness in pairs:
            if type(q) is Fraction and type(q2) is Fraction:  # integers: no Fraction arithmetic
                gap: Any = _Ratio(
                    abs(q.numerator * q2.denominator - q2.numerator * q.denominator),
                    q.denominator * q2.denominator,
                )
            else:
                gap = as_scalar(abs(to_sympy(q) - to_sympy(q2)))
            if widest is None or _greater(gap, widest):
                widest = gap
                yield q, q2, witness
                if bound is not None and not _greater(bound, widest):
                    return

    def differential_privacy_closed_form(self) -> WorstCase:
        candidates = self._candidate_pairs()
        if candidates is not None:
            return self._worst(candidates)
        if isinstance(self.noise, LaplaceNoise) and self.window.threshold is None:
            return self._worst(self._widening_pairs(self.answer_pairs()))
        return self._worst(self.answer_pairs())

    def delta_for_epsilon_closed_form(self, exp_epsilon: Scalar) -> WorstCase | None:
        """δ(ε) with geometric noise from a few pairs and closed-form tails (else None).

        See :mod:`exactpml.structured._geometric_pairs` (Lemmas 1-2 and the Theorem) for why
        the worst neighbouring pair is among :func:`candidate_pairs`.
        """
        if type(exp_epsilon) is not Fraction and to_sympy(exp_epsilon).free_symbols:
            return None
        candidates = self._candidate_pairs()
        if candidates is None:
            return None
        assert isinstance(self.noise, GeometricNoise)
        m = self.window.threshold
        threshold = None if m is None else int(m)
        seen: set[tuple[Scalar, Scalar]] = set()
        best: tuple[Scalar, Event, Witness] | None = None
        for q, q2, witness in candidates:
            if (q, q2) in seen:
                continue
            seen.add((q, q2))
            value, event = pair_hockey_stick(self.noise, int(q), int(q2), exp_epsilon, threshold)
            if best is None or compare_scalars(value, best[0]) > 0:
                best = (value, event, witness)
        if best is None:
            return WorstCase(Fraction(0))
        x, x2 = best[2]()
        return WorstCase(best[0], x, x2, event=event_labels(self.outputs, best[1]))

    def delta_closed_form(self, exp_epsilon: Scalar) -> WorstCase | None:
        """δ(ε) of Laplace noise: the closed form at the widest neighbouring pair of answers.

        δ grows with ``|q - q'|`` (:mod:`exactpml.notions.continuous_noise`), so the worst pair
        has the largest gap; finite-output noises return None (computed on the outputs).
        """
        if not isinstance(self.noise, LaplaceNoise):
            return None
        if self.window.threshold is not None:
            raise InvalidArgument(
                "δ(ε) of thresholded Laplace noise is not computed in closed form (the output "
                "mixes an atom ⊥ with a density); use GeometricNoise for exact δ(ε) with a "
                "threshold"
            )
        widest: tuple[Scalar, Witness] | None = None
        for q, q2, witness in self.answer_pairs():
            gap = abs(to_sympy(q) - to_sympy(q2))
            if widest is None or compare_scalars(as_scalar(gap), widest[0]) > 0:
                widest = (as_scalar(gap), witness)
        if widest is None:
            return WorstCase(Fraction(0))
        gap, witness = widest
        if prove_zero(gap):
            value: Scalar = (
                Fraction(0)
                if compare_scalars(exp_epsilon, Fraction(1)) >= 0
                else as_scalar(1 - to_sympy(exp_epsilon))
            )
        else:
            value = laplace_delta_for_epsilon(
                self.noise.scale, exp_epsilon=exp_epsilon, sensitivity=gap
            )
        x, x2 = witness()
        return WorstCase(value, x, x2)

    def free_lunch_closed_form(self) -> WorstCase:
        low, high = self.window.low, self.window.high

        def extreme_pairs() -> Iterator[tuple[Scalar, Scalar, Witness]]:
            for a, b in ((high, low), (low, high)):
                yield a, b, functools.partial(self._statistic.database_pair, a, b)

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
                f"output {abbreviated_repr(output)} is not an output of the mechanism; map a raw "
                "value with "
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

    def entry_leakage(self, prior: ProductPrior, index: int, output: Label) -> LogValue | None:
        """l(D_i -> y) under a product prior, through the others' statistic law."""
        checked = self._check_prior(prior)
        check_index(index, self.space.size)
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
                    f"others={abbreviated_repr(others)} has probability zero under the prior "
                    f"(position {abbreviated(j)})"
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
        """Python that rebuilds this mechanism after ``from exactpml import *``: the space,
        the query as a table on the alphabet, the noise and the threshold."""
        query = query_text(self.query, self.space, prefix="structured.")
        text = f"QueryMechanism({self.space!r}, {query}"
        if not isinstance(self.noise, NoNoise):
            text += f", noise=structured.{self.noise!r}"
        if self.window.threshold is not None:
            text += f", threshold={number_text(self.window.threshold)}"
        return text + ")"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)
