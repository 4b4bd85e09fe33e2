"""The conditional output laws P[M(D) = o | D(i) = t, B = b] and P[· | D(i) = t', B = b].

Every partial-knowledge quantity (thesis §3.1.3, Defs 56–59) is a function of these two laws
for each knowledge value b, and of the weights P[B = b | D(i) = t].  :func:`knowledge_laws`
builds them two ways:

* **enumeration** (a ``Mechanism`` on database tuples, any knowledge function): sum over the
  databases of positive probability with D(i) fixed; the reference for small n;
* **sufficient statistic** (a :class:`~exactpml.partial_knowledge.counting.CountingMechanism`
  and ``known=`` records): the Poisson-binomial law of the unknown records' count, in exact
  integer arithmetic with one common denominator; knowledge values are
  :class:`~exactpml.partial_knowledge.counting.KnownCount` classes.  n in the thousands.

A law pair is computed on demand (``laws.pair(b)``), so the thesis-scale Example 7 never holds
more than one pair of 900-entry integer vectors at a time.  For a count released iff above a
threshold, with i.i.d. unknown records, ``laws.delta_parts(b, e^ε)`` gives δ_A(b) without
building the laws (:mod:`~exactpml.partial_knowledge.thresholded`); the laws themselves
(and the unknown count's law) are then built only if a pair is asked for.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Any

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import prove_zero
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, exact_product, exact_quotient, exact_sum, lowest_terms
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument
from exactpml.leakage.hockey_stick import hockey_stick, hockey_stick_integers, max_ratio
from exactpml.partial_knowledge.counting import CountingMechanism, KnownCount, count_numerators
from exactpml.partial_knowledge.setting import PartialKnowledge
from exactpml.partial_knowledge.thresholded import DeltaParts, ThresholdedBinomialDeltas

__all__ = ["KnowledgeLaws", "LawPair", "knowledge_laws"]

MechanismLike = Mechanism | CountingMechanism


@dataclass(frozen=True, slots=True)
class LawPair:
    """The two conditional output laws for one knowledge value b.

    ``under_value[k]`` is P[o_k | D(i)=t, B=b] and ``under_alternative[k]`` is
    P[o_k | D(i)=t', B=b].  When ``denominator`` is set the entries are integer numerators over
    that common denominator (the fast path); otherwise they are exact scalars.
    """

    outputs: tuple[Hashable, ...]
    under_value: tuple[Any, ...]
    under_alternative: tuple[Any, ...]
    denominator: int | None = None

    def probabilities(self, output: Hashable) -> tuple[Scalar, Scalar]:
        """(P[o | t, b], P[o | t', b]) for one output (zero for outputs never produced)."""
        try:
            k = self.outputs.index(output)
        except ValueError:
            return Fraction(0), Fraction(0)
        if self.denominator is None:
            return self.under_value[k], self.under_alternative[k]
        return (
            Fraction(self.under_value[k], self.denominator),
            Fraction(self.under_alternative[k], self.denominator),
        )

    def reversed(self) -> LawPair:
        """The same laws for the order (t', t): P[o | t', b] first, P[o | t, b] second.

        B is independent of D(i) (the standing assumption), so the weights P[B = b | D(i)]
        and the knowledge values are the same for both orders: only the roles swap.
        """
        return LawPair(self.outputs, self.under_alternative, self.under_value, self.denominator)

    def laws(self) -> tuple[Distribution, Distribution]:
        """The two laws as Distributions over ``outputs``."""
        first = [self.probabilities(o)[0] for o in self.outputs]
        second = [self.probabilities(o)[1] for o in self.outputs]
        return Distribution._trusted(self.outputs, first), Distribution._trusted(
            self.outputs, second
        )

    def delta(self, ratio: Scalar) -> tuple[Scalar, frozenset[Hashable] | None]:
        """δ_A(b) = Σ_o max(0, P[o|t,b] − ratio·P[o|t',b]) and its event S (Def 57)."""
        parts = self.delta_numerator(ratio)
        if parts is not None:
            assert type(ratio) is Fraction
            return lowest_terms(*parts), self.event(ratio)
        p, q = self._scalars()
        value, indices = hockey_stick(p, q, ratio)
        return value, (None if indices is None else frozenset(self.outputs[k] for k in indices))

    def delta_numerator(self, ratio: Scalar) -> tuple[int, int] | None:
        """δ_A(b) as (numerator, ratio's denominator · ``denominator``), not reduced, on the
        integer path (``denominator`` set and a rational ratio); else ``None``."""
        if self.denominator is None or type(ratio) is not Fraction:
            return None
        numerator = hockey_stick_integers(self.under_value, self.under_alternative, ratio)
        return numerator, ratio.denominator * self.denominator

    def event(self, ratio: Fraction) -> frozenset[Hashable]:
        """The event S = {o : P[o|t,b] > ratio·P[o|t',b]} attaining δ_A(b), on the integer
        path (``denominator`` set)."""
        return frozenset(
            o
            for o, a, b in zip(self.outputs, self.under_value, self.under_alternative, strict=True)
            if ratio.denominator * a > ratio.numerator * b
        )

    def max_ratio(self) -> tuple[LogValue, Hashable | None]:
        """max_o L(o, b) over outputs with P[o|t,b] > 0, and the output attaining it."""
        if self.denominator is not None:
            best: tuple[int, int] | None = None
            best_output: Hashable | None = None
            for o, a, b in zip(self.outputs, self.under_value, self.under_alternative, strict=True):
                if a == 0:
                    continue
                if b == 0:
                    return LogValue.infinity(), o
                if best is None or a * best[1] > best[0] * b:
                    best, best_output = (a, b), o
            if best is None:
                return LogValue(1), None
            return LogValue(Fraction(*best)), best_output
        p, q = self._scalars()
        value, index = max_ratio(p, q)
        return value, (None if index is None else self.outputs[index])

    def _scalars(self) -> tuple[list[Scalar], list[Scalar]]:
        if self.denominator is None:
            return list(self.under_value), list(self.under_alternative)
        return (
            [Fraction(a, self.denominator) for a in self.under_value],
            [Fraction(b, self.denominator) for b in self.under_alternative],
        )

    def support_pairs(self) -> list[tuple[Hashable, Any, Any]]:
        """(o, P[o|t,b], P[o|t',b]) over the union support, in the representation held."""
        return [
            (o, a, b)
            for o, a, b in zip(self.outputs, self.under_value, self.under_alternative, strict=True)
            if not (prove_zero(a) and prove_zero(b))
        ]

    def signature(self) -> tuple[int | None, frozenset[tuple[Any, int]]]:
        """The multiset of (P[o|t,b], P[o|t',b]) over the union support (Def 59's invariant).

        Comparable between pairs of one :class:`KnowledgeLaws` (same denominator); exact
        for rational entries only (symbolic entries are compared by the caller).
        """
        return self.denominator, _counter([(a, b) for _, a, b in self.support_pairs()])


def _counter(pairs: Sequence[tuple[Any, Any]]) -> frozenset[tuple[Any, int]]:
    counts: dict[Any, int] = {}
    for pair in pairs:
        counts[pair] = counts.get(pair, 0) + 1
    return frozenset(counts.items())


@dataclass(frozen=True, slots=True, eq=False)
class KnowledgeLaws:
    """Conditional output laws for every knowledge value b, and the weights P[B = b | D(i)=t].

    ``knowledge_values`` lists the values of B with positive probability (tuples of known
    values, values of the knowledge function, or ``KnownCount`` classes on the
    sufficient-statistic path).  ``pair(b)`` gives the :class:`LawPair` of b.
    """

    setting: PartialKnowledge
    knowledge_values: tuple[Hashable, ...]
    weights: tuple[Scalar, ...]
    _pair: Any = field(repr=False)
    _normalise: Any = field(repr=False, default=None)
    _closed: ThresholdedBinomialDeltas | None = field(repr=False, default=None)
    _members: frozenset[Hashable] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # resolve() is asked for every b and order (4 x 101 times for Example 7): a set
        # lookup, where a scan of the tuple compared KnownCount dataclasses (12% of example_7)
        object.__setattr__(self, "_members", frozenset(self.knowledge_values))

    def weight(self, knowledge: Hashable) -> Scalar:
        """P[B = b | D(i) = t] (equal to P[B = b] under the standing assumption)."""
        key = self.resolve(knowledge)
        return self.weights[self.knowledge_values.index(key)]

    def resolve(self, knowledge: Hashable) -> Hashable:
        """The knowledge value (or its KnownCount class) as listed in ``knowledge_values``."""
        key = self._normalise(knowledge) if self._normalise is not None else knowledge
        try:
            present = key in self._members
        except TypeError:
            present = False
        if not present:
            shown = self.knowledge_values[:5]
            raise InvalidArgument(
                f"knowledge={abbreviated_repr(knowledge)} is not a value of B with positive "
                f"probability (values: {abbreviated_repr(list(shown))}"
                f"{', ...' if len(self.knowledge_values) > 5 else ''})"
            )
        return key

    def pair(self, knowledge: Hashable) -> LawPair:
        """The conditional output laws given B = ``knowledge``."""
        return self._pair(self.resolve(knowledge))

    def delta_parts(
        self, knowledge: Hashable, ratio: Scalar, *, reverse: bool = False
    ) -> DeltaParts | None:
        """δ_A(b) without the laws, when a closed form applies (a thresholded count over
        i.i.d. unknown records, e^ε rational and positive: see
        :mod:`~exactpml.partial_knowledge.thresholded`); else ``None``."""
        if self._closed is None or type(ratio) is not Fraction or not ratio > 0:
            return None
        key = self.resolve(knowledge)
        assert isinstance(key, KnownCount)
        return self._closed.parts(key.count, ratio, reverse=reverse)


def knowledge_laws(
    setting: PartialKnowledge,
    mechanism: MechanismLike,
    *,
    method: str = "auto",
    closed_form: bool = True,
) -> KnowledgeLaws:
    """The conditional output laws of ``mechanism`` in ``setting``.

    Args:
        setting: the partial-knowledge setting.
        mechanism: a ``Mechanism`` on database tuples, or a ``CountingMechanism``.
        method: ``"enumerate"`` (every database), ``"count"`` (sufficient statistic; needs a
            CountingMechanism, ``known=`` records and rational record laws) or ``"auto"``
            (``"count"`` when it applies, else ``"enumerate"``).
        closed_form: on the count path, give δ_A(b) of a thresholded count over i.i.d.
            unknown records in closed form (:mod:`~exactpml.partial_knowledge.thresholded`);
            ``False`` builds and sums every law (the reference the closed form is tested
            and benchmarked against).
    """
    if not isinstance(closed_form, bool):
        raise InvalidArgument(f"closed_form={abbreviated_repr(closed_form)} must be True or False")
    if not isinstance(setting, PartialKnowledge):
        raise InvalidArgument(f"setting must be a PartialKnowledge, got {type(setting).__name__}")
    if method not in ("auto", "enumerate", "count"):
        raise InvalidArgument(f"method={method!r} must be 'auto', 'enumerate' or 'count'")
    if isinstance(mechanism, CountingMechanism):
        countable = setting.known is not None and all(r.is_rational for r in setting.records)
        if method == "count" or (method == "auto" and countable):
            if setting.known is None:
                raise InvalidArgument(
                    "method='count' needs knowledge given as known= records; for a general "
                    "knowledge function use method='enumerate'"
                )
            return _counting_laws(setting, mechanism, closed_form=closed_form)
        return _enumerated_laws(setting, mechanism.as_mechanism(setting.records))
    if isinstance(mechanism, Mechanism):
        if method == "count":
            raise InvalidArgument("method='count' needs a CountingMechanism, got a Mechanism")
        return _enumerated_laws(setting, mechanism)
    raise InvalidArgument(
        f"mechanism must be a Mechanism on database tuples or a CountingMechanism, "
        f"got {type(mechanism).__name__}"
    )


# --- enumeration ----------------------------------------------------------------------------
def _enumerated_laws(setting: PartialKnowledge, mechanism: Mechanism) -> KnowledgeLaws:
    outputs = mechanism.outputs
    joint: dict[Hashable, dict[Hashable, list[list[Scalar]]]] = {}
    masses: dict[Hashable, dict[Hashable, list[Scalar]]] = {}
    for which in (setting.value, setting.alternative):
        joint[which], masses[which] = {}, {}
        for database, weight in setting.databases(which):
            try:
                row = mechanism.rows[mechanism.input_position(database)]
            except InvalidArgument:
                raise InvalidArgument(
                    f"mechanism has no row for database {abbreviated_repr(database)}; its inputs "
                    "must be every "
                    "database tuple of positive probability"
                ) from None
            b = setting.knowledge_of(database)
            sums = joint[which].setdefault(b, [[] for _ in outputs])
            for k, p in enumerate(row):
                if not prove_zero(p):
                    sums[k].append(exact_product(weight, p))
            masses[which].setdefault(b, []).append(weight)
    values = [
        b for b in masses[setting.value] if not prove_zero(exact_sum(masses[setting.value][b]))
    ]
    pairs: dict[Hashable, LawPair] = {}
    weights = []
    for b in values:
        rows = []
        for which in (setting.value, setting.alternative):
            mass = exact_sum(masses[which][b])
            rows.append(tuple(exact_quotient(exact_sum(s), mass) for s in joint[which][b]))
        weights.append(exact_sum(masses[setting.value][b]))
        pairs[b] = LawPair(tuple(outputs), rows[0], rows[1])
    return KnowledgeLaws(setting, tuple(values), tuple(weights), pairs.__getitem__)


# --- sufficient statistic ---------------------------------------------------------------------
def _counting_laws(
    setting: PartialKnowledge, mechanism: CountingMechanism, *, closed_form: bool
) -> KnowledgeLaws:
    assert setting.known is not None
    for j, record in enumerate(setting.records):
        if not record.is_rational:
            raise InvalidArgument(
                f"records[{abbreviated(j)}] has symbolic probabilities; the counting path needs "
                "rational "
                "ones (use method='enumerate' at small n)"
            )

    # P(record j counted), once per distinct record object: Example 7's 999 voters share one
    # law, which was summed for each (a fifth of example_7's time at the thesis scale)
    successes: dict[int, Fraction] = {}

    def success(j: int) -> Fraction:
        record = setting.records[j]
        total = successes.get(id(record))
        if total is None:
            total = sum((p for v, p in record.items() if mechanism.counts(v)), Fraction(0))
            successes[id(record)] = total
        return total

    unknown = setting.unknown
    known = setting.known
    n = setting.size
    known_numerators, known_denominator = count_numerators([success(j) for j in known])
    shift_value = int(mechanism.counts(setting.value))
    shift_alternative = int(mechanism.counts(setting.alternative))

    def table() -> tuple[list[int], tuple[Hashable, ...], list[list[tuple[int, int]]], int]:
        """The unknown count's law, and the release table for counts 0..n as sparse integer
        rows over one denominator (the outputs' labels, the rows, that denominator)."""
        unknown_numerators, _ = count_numerators([success(j) for j in unknown])
        rows = [mechanism.row(count) for count in range(n + 1)]
        for count, row in enumerate(rows):
            if not row.is_rational:
                raise InvalidArgument(
                    f"{mechanism.name}: the output law for count {abbreviated(count)} is symbolic; "
                    "the "
                    "counting path needs rational laws (use method='enumerate' at small n)"
                )
        release_denominator = lcm(*(p.denominator for row in rows for p in row.probabilities))
        outputs: dict[Hashable, int] = {}
        sparse: list[list[tuple[int, int]]] = []
        for row in rows:
            entries = []
            for y, p in row.items():
                if p == 0:
                    continue
                index = outputs.setdefault(y, len(outputs))
                entries.append((index, p.numerator * (release_denominator // p.denominator)))
            sparse.append(entries)
        return unknown_numerators, tuple(outputs), sparse, release_denominator

    built: list[Any] = []

    def pair(key: KnownCount) -> LawPair:
        if not built:
            built.extend(table())
        unknown_numerators, output_labels, sparse, release_denominator = built

        def law(shift: int) -> tuple[int, ...]:
            totals = [0] * len(output_labels)
            for c, weight in enumerate(unknown_numerators):
                if weight:
                    for index, numerator in sparse[c + key.count + shift]:
                        totals[index] += weight * numerator
            return tuple(totals)

        return LawPair(
            output_labels,
            law(shift_value),
            law(shift_alternative),
            sum(unknown_numerators) * release_denominator,
        )

    unknown_probabilities = {success(j) for j in unknown}
    closed = None
    if (
        closed_form
        and mechanism.thresholded is not None
        and len(unknown_probabilities) <= 1
        and shift_value != shift_alternative
    ):
        threshold, bottom = mechanism.thresholded
        closed = ThresholdedBinomialDeltas(
            len(unknown),
            next(iter(unknown_probabilities), Fraction(0)),
            threshold,
            bottom,
            bool(shift_value),
            bool(shift_alternative),
        )
    else:
        built.extend(table())  # validated up front (the release rows must be rational)

    def normalise(knowledge: Hashable) -> Hashable:
        if isinstance(knowledge, KnownCount):
            return knowledge
        values = tuple(knowledge) if isinstance(knowledge, (tuple, list)) else None
        if values is None or len(values) != len(known):
            raise InvalidArgument(
                f"knowledge={abbreviated_repr(knowledge)} must be a KnownCount or a tuple of the "
                f"{len(known)} "
                f"known records' values (records {abbreviated_repr(list(known))})"
            )
        for j, v in zip(known, values, strict=True):
            if v not in setting.records[j] or prove_zero(setting.records[j][v]):
                raise InvalidArgument(
                    f"knowledge={abbreviated_repr(knowledge)}: {abbreviated_repr(v)} is not a "
                    f"possible value of record {abbreviated(j)}"
                )
        return KnownCount(sum(mechanism.counts(v) for v in values))

    counts = [KnownCount(k) for k, v in enumerate(known_numerators) if v]
    weights = tuple(Fraction(known_numerators[k.count], known_denominator) for k in counts)
    return KnowledgeLaws(setting, tuple(counts), weights, pair, normalise, closed)
