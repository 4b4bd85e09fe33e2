r"""APKDP and PPKDP: the privacy loss under active and passive partial knowledge, exactly.

Thesis *Lowering the cost of anonymization*, §3.1.3 (definitions restated in CLAIMS.md,
section ``pk.``).  For output o and knowledge value b ∈ supp(B):

* PLRV with partial knowledge (Def 56):
  ``L(o, b) = ln P[M(D)=o | D(i)=t, B=b] / P[M(D)=o | D(i)=t', B=b]``, ``+oo`` when the
  denominator is 0 < numerator;
* APKDP quantity (Def 57), for the ordered pair (t, t'):
  ``δ_A(b) = E_{O~P[·|t,b]}[max(0, 1 − e^{ε−L(O,b)})] = Σ_o max(0, P[o|t,b] − e^ε P[o|t',b])``;
* PPKDP quantity (Def 58, Thm 1), for (t, t'): ``Σ_b P[B=b | D(i)=t] δ_A(b)``.

Defs 57 and 58 quantify over every t ≠ t', so for a setting (which names the two values t
and t') the δ of APKDP and of PPKDP are maxima over **both orders** (t, t') and (t', t):
``apkdp_delta`` is ``max over the orders and b of δ_A(b)``, ``ppkdp_delta`` is
``max over the orders of Σ_b P[b] δ_A(b)`` (``orders="given"`` or ``"reversed"`` gives one
order; :func:`knowledge_delta` and :func:`knowledge_deltas` are Def 57's per-b quantity for
one order, (t, t') unless ``reverse=True``).  B is independent of D(i), so the weights
P[B = b | D(i)] are the same for both orders.  The definitions also quantify over all θ of a
family, all i and all pairs of values of D(i): take the maximum over the settings of
interest.  For δ = 0 both notions coincide (Thm 1): the smallest ε is ``max L(o, b)`` over
b, o and both orders.

ε is a :class:`~exactpml.core.logvalue.LogValue` (``LogValue(3)`` is ε = log 3, so e^ε = 3 and
everything stays rational) or an exact number ≥ 0 (e^ε irrational: each comparison is
certified, never a float comparison; a symbolic ε gives ``Max(0, …)`` terms).

>>> from exactpml import Distribution, LogValue
>>> from exactpml.partial_knowledge import PartialKnowledge, thresholded_counting
>>> coin = Distribution({"No": "1/2", "Yes": "1/2"})
>>> setting = PartialKnowledge([coin] * 3, target=0, value="No", alternative="Yes", known=[1])
>>> release = thresholded_counting(1, predicate=lambda v: v == "Yes")
>>> knowledge_deltas(setting, release, LogValue(1))
{KnownCount(0): Fraction(1, 2), KnownCount(1): Fraction(1, 2)}
>>> knowledge_deltas(setting, release, LogValue(3))
{KnownCount(0): Fraction(0, 1), KnownCount(1): Fraction(1, 2)}
>>> knowledge_deltas(setting, release, LogValue(3), reverse=True)  # t = Yes, t' = No
{KnownCount(0): Fraction(1, 2), KnownCount(1): Fraction(1, 2)}
>>> ppkdp_delta(setting, release, LogValue(3), orders="given")
Fraction(1, 4)
>>> apkdp_delta(setting, release, LogValue(3)).delta, ppkdp_delta(setting, release, LogValue(3))
(Fraction(1, 2), Fraction(1, 2))
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from math import lcm
from typing import Literal, get_args

import sympy

from exactpml.core.abbreviate import abbreviated_repr
from exactpml.core.decisions import prove_zero
from exactpml.core.display import abbreviated_fields_repr
from exactpml.core.exact import (
    Scalar,
    as_scalar,
    exact_product,
    exact_sum,
    lowest_terms,
    to_sympy,
)
from exactpml.core.logvalue import LogValue
from exactpml.core.parameters import exp_epsilon_of
from exactpml.errors import InvalidArgument
from exactpml.leakage.hockey_stick import at_most, exact_max
from exactpml.partial_knowledge.laws import (
    KnowledgeLaws,
    LawPair,
    MechanismLike,
    knowledge_laws,
)
from exactpml.partial_knowledge.setting import PartialKnowledge

__all__ = [
    "ORDERS",
    "ActiveDelta",
    "ActiveEpsilon",
    "DeltaCell",
    "Orders",
    "active_delta",
    "apkdp_delta",
    "apkdp_epsilon",
    "delta_table",
    "is_apkdp",
    "is_ppkdp",
    "knowledge_delta",
    "knowledge_deltas",
    "largest_delta",
    "partial_knowledge_plrv",
    "ppkdp_delta",
    "ppkdp_epsilon",
    "weighted_delta",
]


Orders = Literal["both", "given", "reversed"]
"""Which orders of the setting's two values the δ's and ε's range over: ``"both"`` (Defs 57
and 58: every t ≠ t'), ``"given"`` ((t, t') as the setting names them) or ``"reversed"``
((t', t))."""

ORDERS: tuple[Orders, ...] = get_args(Orders)


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class ActiveDelta:
    """max_b δ_A(b) over the orders (the smallest δ for (ε,δ)-APKDP), with its witness.

    Attributes:
        delta: the exact maximum over the orders and the knowledge values.
        knowledge: a knowledge value b attaining it (``None`` if undecided: symbolic input).
        event: the output set S with δ_A(b) = P[S|t,b] − e^ε P[S|t',b] for that order.
        by_knowledge: for every knowledge value b of positive probability, δ_A(b) maximised
            over the orders considered.
        order: the ordered pair (t, t') attaining the maximum (``None`` if undecided).
        by_order: δ_A(b) for every order considered and every b: ``{(t, t'): {b: δ}}``.
    """

    delta: Scalar
    knowledge: Hashable | None
    event: frozenset[Hashable] | None
    by_knowledge: Mapping[Hashable, Scalar]
    order: tuple[Hashable, Hashable] | None = None
    by_order: Mapping[tuple[Hashable, Hashable], Mapping[Hashable, Scalar]] | None = None


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class ActiveEpsilon:
    """The smallest ε with δ = 0 (APKDP and PPKDP alike, Thm 1), with its witness: the
    knowledge value b, the output o and the order (t, t') with L(o, b) = ε."""

    epsilon: LogValue
    knowledge: Hashable | None
    output: Hashable | None
    order: tuple[Hashable, Hashable] | None = None


def _selected(orders: object) -> list[bool]:
    """The orders to range over, as ``reverse`` flags: (t, t') is False, (t', t) is True."""
    if orders == "both":
        return [False, True]
    if orders == "given":
        return [False]
    if orders == "reversed":
        return [True]
    raise InvalidArgument(
        f"orders={abbreviated_repr(orders)} must be one of {', '.join(map(repr, ORDERS))}"
    )


def _order(setting: PartialKnowledge, reverse: bool) -> tuple[Hashable, Hashable]:
    if reverse:
        return setting.alternative, setting.value
    return setting.value, setting.alternative


def _pair(laws: KnowledgeLaws, knowledge: Hashable, reverse: bool) -> LawPair:
    pair = laws.pair(knowledge)
    return pair.reversed() if reverse else pair


def _laws(setting: PartialKnowledge, mechanism: MechanismLike | KnowledgeLaws) -> KnowledgeLaws:
    if isinstance(mechanism, KnowledgeLaws):
        if mechanism.setting is not setting:
            raise InvalidArgument("the KnowledgeLaws given were computed for another setting")
        return mechanism
    return knowledge_laws(setting, mechanism)


def partial_knowledge_plrv(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    output: Hashable,
    knowledge: Hashable,
    *,
    reverse: bool = False,
) -> LogValue:
    """L(o, b) of Def 56 as a LogValue (ratio P[o|t,b]/P[o|t',b]; ``oo`` if only the
    denominator is 0; ``log 0`` if only the numerator is); for (t', t) if ``reverse``.

    An output impossible under both t and t' has no PLRV: ``InvalidArgument``.
    """
    laws = _laws(setting, mechanism)
    numerator, denominator = _pair(laws, knowledge, _flag(reverse)).probabilities(output)
    if prove_zero(denominator):
        if prove_zero(numerator):
            raise InvalidArgument(
                f"output={abbreviated_repr(output)} has probability 0 given both D(i)=t and "
                "D(i)=t' "
                f"(knowledge {abbreviated_repr(knowledge)}), so its PLRV is undefined"
            )
        return LogValue.infinity()
    if type(numerator) is Fraction and type(denominator) is Fraction:
        return LogValue(numerator / denominator)
    return LogValue(as_scalar(sympy.cancel(to_sympy(numerator) / to_sympy(denominator))))


_REQUIRED: Hashable = object()


def _flag(reverse: object) -> bool:
    if not isinstance(reverse, bool):
        raise InvalidArgument(f"reverse={abbreviated_repr(reverse)} must be True or False")
    return reverse


def knowledge_delta(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    epsilon: object = None,
    knowledge: Hashable = _REQUIRED,
    *,
    exp_epsilon: object = None,
    reverse: bool = False,
) -> Scalar:
    """δ_A(b) = Σ_o max(0, P[o|t,b] − e^ε P[o|t',b]) for one knowledge value b (Def 57).

    ``knowledge`` (b) is required; ε may also be given as ``exp_epsilon``.  The order is the
    setting's (t, t'); ``reverse=True`` gives (t', t).
    """
    if knowledge is _REQUIRED:
        raise InvalidArgument("knowledge_delta: give the knowledge value b (knowledge=...)")
    ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
    laws = _laws(setting, mechanism)
    return _cell(laws, laws.resolve(knowledge), ratio, _flag(reverse)).value


def knowledge_deltas(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    reverse: bool = False,
) -> dict[Hashable, Scalar]:
    """δ_A(b) for every knowledge value b of positive probability, for the setting's order
    (t, t') (``reverse=True``: (t', t))."""
    ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
    laws = _laws(setting, mechanism)
    table = delta_table(laws, exp_epsilon=ratio, orders="reversed" if _flag(reverse) else "given")
    return {b: cell.value for b, cell in next(iter(table.values())).items()}


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class DeltaCell:
    """δ_A(b) for one knowledge value b and one order (Def 57).

    Attributes:
        value: δ_A(b), exact (a reduced ``Fraction`` on the rational paths).
        numerator, denominator: on the integer paths, δ_A(b) = numerator / denominator with
            one denominator shared by every b and order of the table (``None`` otherwise):
            maxima and P[b]-weighted sums are then taken on integers.
        event: returns the output set S attaining δ_A(b) (computed on demand; ``None``
            when some sign is undecided).
    """

    value: Scalar
    numerator: int | None
    denominator: int | None
    event: Callable[[], frozenset[Hashable] | None] = field(compare=False, repr=False)


def _cell(laws: KnowledgeLaws, b: Hashable, ratio: Scalar, reverse: bool) -> DeltaCell:
    parts = laws.delta_parts(b, ratio, reverse=reverse)
    if parts is not None:  # the closed form of a thresholded count (no laws built)
        return DeltaCell(parts.value(), parts.numerator, parts.denominator, parts.event)
    return _pair_cell(_pair(laws, b, reverse), ratio)


def _pair_cell(pair: LawPair, ratio: Scalar) -> DeltaCell:
    integer = pair.delta_numerator(ratio)
    if integer is not None:
        assert type(ratio) is Fraction
        return DeltaCell(lowest_terms(*integer), *integer, partial(pair.event, ratio))
    value, event = pair.delta(ratio)
    return DeltaCell(value, None, None, lambda: event)


def delta_table(
    laws: KnowledgeLaws,
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    orders: Orders = "both",
) -> dict[tuple[Hashable, Hashable], dict[Hashable, DeltaCell]]:
    """δ_A(b) for every order considered and every knowledge value b (Def 57), each law
    pair computed once for both orders: ``{(t, t'): {b: DeltaCell}}``."""
    if not isinstance(laws, KnowledgeLaws):
        raise InvalidArgument(f"laws must be a KnowledgeLaws, got {type(laws).__name__}")
    ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
    setting = laws.setting
    selected = _selected(orders)
    table: dict[tuple[Hashable, Hashable], dict[Hashable, DeltaCell]] = {
        _order(setting, reverse): {} for reverse in selected
    }
    for b in laws.knowledge_values:
        closed = [laws.delta_parts(b, ratio, reverse=reverse) for reverse in selected]
        pair = None if all(c is not None for c in closed) else laws.pair(b)
        for reverse in selected:
            if pair is None:
                cell = _cell(laws, b, ratio, reverse)
            else:
                cell = _pair_cell(pair.reversed() if reverse else pair, ratio)
            table[_order(setting, reverse)][b] = cell
    return table


def _shared_numerators(cells: Sequence[DeltaCell]) -> list[int] | None:
    """The cells' numerators when they all hold one over the same denominator."""
    if not cells or len({cell.denominator for cell in cells}) != 1:
        return None
    numerators = [cell.numerator for cell in cells]
    if cells[0].denominator is None or any(n is None for n in numerators):
        return None
    return [n for n in numerators if n is not None]


def largest_delta(cells: Sequence[DeltaCell]) -> tuple[Scalar, int | None]:
    """The largest δ among ``cells`` and the index of the first cell attaining it (``None``
    if undecidable): integer comparison of numerators over a shared denominator, else
    :func:`~exactpml.leakage.hockey_stick.exact_max`."""
    numerators = _shared_numerators(cells)
    if numerators is not None:
        best = max(range(len(cells)), key=numerators.__getitem__)
        return cells[best].value, best
    return exact_max([cell.value for cell in cells])


def weighted_delta(weights: Sequence[Scalar], cells: Sequence[DeltaCell]) -> Scalar:
    """Σ_b P[B=b] δ_A(b) (Thm 1): on integers over one denominator when the weights are
    rational and the cells share a denominator (one gcd at the end), else exactly term by
    term."""
    numerators = _shared_numerators(cells)
    rational = [w for w in weights if type(w) is Fraction]
    if numerators is not None and len(rational) == len(weights) and cells:
        shared = cells[0].denominator
        assert shared is not None
        common = lcm(*(w.denominator for w in rational))
        total = sum(
            w.numerator * (common // w.denominator) * numerator
            for w, numerator in zip(rational, numerators, strict=True)
        )
        return lowest_terms(total, common * shared)
    return exact_sum(exact_product(w, cell.value) for w, cell in zip(weights, cells, strict=True))


def apkdp_delta(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    orders: Orders = "both",
) -> ActiveDelta:
    """max over the orders and b of δ_A(b): the smallest δ such that the mechanism is
    (ε,δ)-APKDP here (Def 57, which quantifies over every t ≠ t': ``orders="both"``)."""
    ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
    laws = _laws(setting, mechanism)
    return active_delta(laws, delta_table(laws, exp_epsilon=ratio, orders=orders))


def active_delta(
    laws: KnowledgeLaws, table: Mapping[tuple[Hashable, Hashable], Mapping[Hashable, DeltaCell]]
) -> ActiveDelta:
    """:func:`apkdp_delta` from a :func:`delta_table` already computed."""
    by_order = {order: {b: cell.value for b, cell in row.items()} for order, row in table.items()}
    by_knowledge: dict[Hashable, Scalar] = {}
    for b in laws.knowledge_values:
        per_b = [row[b] for row in table.values()]
        by_knowledge[b] = per_b[0].value if len(per_b) == 1 else largest_delta(per_b)[0]
    cells = [(order, b) for b in laws.knowledge_values for order in table]
    best, position = largest_delta([table[order][b] for order, b in cells])
    if position is None:
        return ActiveDelta(best, None, None, by_knowledge, None, by_order)
    order, witness = cells[position]
    event = table[order][witness].event()
    return ActiveDelta(best, witness, event, by_knowledge, order, by_order)


def ppkdp_delta(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    orders: Orders = "both",
) -> Scalar:
    """max over the orders of Σ_b P[B=b | D(i)=t] δ_A(b): the smallest δ for (ε,δ)-PPKDP
    here (Def 58 quantifies over every t ≠ t': ``orders="both"``; Thm 1 for each order)."""
    ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
    laws = _laws(setting, mechanism)
    table = delta_table(laws, exp_epsilon=ratio, orders=orders)
    totals = [
        weighted_delta(laws.weights, [row[b] for b in laws.knowledge_values])
        for row in table.values()
    ]
    return totals[0] if len(totals) == 1 else exact_max(totals)[0]


def apkdp_epsilon(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    *,
    orders: Orders = "both",
) -> ActiveEpsilon:
    """The smallest ε with δ_A(b) = 0 for every b and order: ``max L(o, b)`` (``oo`` possible)."""
    laws = _laws(setting, mechanism)
    best: LogValue | None = None
    witness: tuple[Hashable | None, Hashable | None, tuple[Hashable, Hashable] | None] = (
        None,
        None,
        None,
    )
    for reverse in _selected(orders):
        for b in laws.knowledge_values:
            value, output = _pair(laws, b, reverse).max_ratio()
            if best is None or value > best:
                best, witness = value, (b, output, _order(setting, reverse))
    assert best is not None
    return ActiveEpsilon(best, *witness)


def ppkdp_epsilon(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    *,
    orders: Orders = "both",
) -> LogValue:
    """The smallest ε with PPKDP δ = 0.

    Every b in supp(B) has positive weight, so Σ_b P[B=b] δ_A(b) = 0 iff every δ_A(b) = 0
    (Thm 1): the value is :func:`apkdp_epsilon`'s.
    """
    return apkdp_epsilon(setting, mechanism, orders=orders).epsilon


def is_apkdp(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    epsilon: object = None,
    delta: object = 0,
    *,
    exp_epsilon: object = None,
    orders: Orders = "both",
) -> bool:
    """(ε,δ)-APKDP for this setting: δ_A(b) ≤ δ for every b and order (Def 57); ε ≥ 0."""
    ratio = exp_epsilon_of(epsilon, exp_epsilon)
    value = apkdp_delta(setting, mechanism, exp_epsilon=ratio, orders=orders).delta
    return at_most(value, delta, name="delta")


def is_ppkdp(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    epsilon: object = None,
    delta: object = 0,
    *,
    exp_epsilon: object = None,
    orders: Orders = "both",
) -> bool:
    """(ε,δ)-PPKDP for this setting: Σ_b P[B=b] δ_A(b) ≤ δ for every order (Def 58); ε ≥ 0."""
    ratio = exp_epsilon_of(epsilon, exp_epsilon)
    value = ppkdp_delta(setting, mechanism, exp_epsilon=ratio, orders=orders)
    return at_most(value, delta, name="delta")
