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

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, get_args

import sympy

from exactpml.core.decisions import prove_zero
from exactpml.core.exact import Scalar, as_scalar, exact_product, exact_sum, to_sympy
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
    "Orders",
    "apkdp_delta",
    "apkdp_epsilon",
    "is_apkdp",
    "is_ppkdp",
    "knowledge_delta",
    "knowledge_deltas",
    "partial_knowledge_plrv",
    "ppkdp_delta",
    "ppkdp_epsilon",
]


Orders = Literal["both", "given", "reversed"]
"""Which orders of the setting's two values the δ's and ε's range over: ``"both"`` (Defs 57
and 58: every t ≠ t'), ``"given"`` ((t, t') as the setting names them) or ``"reversed"``
((t', t))."""

ORDERS: tuple[Orders, ...] = get_args(Orders)


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
    raise InvalidArgument(f"orders={orders!r} must be one of {', '.join(map(repr, ORDERS))}")


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
                f"output={output!r} has probability 0 given both D(i)=t and D(i)=t' "
                f"(knowledge {knowledge!r}), so its PLRV is undefined"
            )
        return LogValue.infinity()
    if type(numerator) is Fraction and type(denominator) is Fraction:
        return LogValue(numerator / denominator)
    return LogValue(as_scalar(sympy.cancel(to_sympy(numerator) / to_sympy(denominator))))


_REQUIRED: Hashable = object()


def _flag(reverse: object) -> bool:
    if not isinstance(reverse, bool):
        raise InvalidArgument(f"reverse={reverse!r} must be True or False")
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
    return _pair(_laws(setting, mechanism), knowledge, _flag(reverse)).delta(ratio)[0]


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
    flag = _flag(reverse)
    return {b: _pair(laws, b, flag).delta(ratio)[0] for b in laws.knowledge_values}


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
    cells: list[tuple[tuple[Hashable, Hashable], Hashable]] = []
    values: list[Scalar] = []
    events: list[frozenset[Hashable] | None] = []
    by_order: dict[tuple[Hashable, Hashable], dict[Hashable, Scalar]] = {}
    selected = _selected(orders)
    for reverse in selected:
        by_order[_order(setting, reverse)] = {}
    for b in laws.knowledge_values:
        pair = laws.pair(b)  # computed once for both orders
        for reverse in selected:
            order = _order(setting, reverse)
            value, event = (pair.reversed() if reverse else pair).delta(ratio)
            by_order[order][b] = value
            cells.append((order, b))
            values.append(value)
            events.append(event)
    by_knowledge: dict[Hashable, Scalar] = {}
    for b in laws.knowledge_values:
        per_b = [row[b] for row in by_order.values()]
        by_knowledge[b] = per_b[0] if len(per_b) == 1 else exact_max(per_b)[0]
    best, position = exact_max(values)
    if position is None:
        return ActiveDelta(best, None, None, by_knowledge, None, by_order)
    order, witness = cells[position]
    return ActiveDelta(best, witness, events[position], by_knowledge, order, by_order)


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
    selected = _selected(orders)
    terms: list[list[Scalar]] = [[] for _ in selected]
    for b, weight in zip(laws.knowledge_values, laws.weights, strict=True):
        pair = laws.pair(b)  # computed once for both orders
        for column, reverse in zip(terms, selected, strict=True):
            column.append(
                exact_product(weight, (pair.reversed() if reverse else pair).delta(ratio)[0])
            )
    totals = [exact_sum(column) for column in terms]
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
