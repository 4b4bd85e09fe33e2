r"""APKDP and PPKDP: the privacy loss under active and passive partial knowledge, exactly.

Thesis *Lowering the cost of anonymization*, §3.1.3 (definitions restated in CLAIMS.md,
section ``pk.``).  For output o and knowledge value b ∈ supp(B):

* PLRV with partial knowledge (Def 56):
  ``L(o, b) = ln P[M(D)=o | D(i)=t, B=b] / P[M(D)=o | D(i)=t', B=b]``, ``+oo`` when the
  denominator is 0 < numerator;
* APKDP quantity (Def 57):
  ``δ_A(b) = E_{O~P[·|t,b]}[max(0, 1 − e^{ε−L(O,b)})] = Σ_o max(0, P[o|t,b] − e^ε P[o|t',b])``;
  M is (ε,δ)-APKDP (for this θ, i, t, t') iff ``max_b δ_A(b) ≤ δ``;
* PPKDP quantity (Def 58, Thm 1): ``Σ_b P[B=b | D(i)=t] δ_A(b)``; (ε,δ)-PPKDP iff ``≤ δ``.

The definitions quantify over all θ of a family, all i and all t ≠ t': take the maximum of
these quantities over the settings of interest.  For δ = 0 both notions coincide (Thm 1):
the smallest ε is ``max_{b, o} L(o, b)``.

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
>>> apkdp_delta(setting, release, LogValue(3)).delta, ppkdp_delta(setting, release, LogValue(3))
(Fraction(1, 2), Fraction(1, 4))
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import sympy

from exactpml.core.decisions import prove_zero
from exactpml.core.exact import Scalar, as_scalar, exact_product, exact_sum, to_sympy
from exactpml.core.logvalue import LogValue
from exactpml.core.parameters import exp_epsilon_of
from exactpml.errors import InvalidArgument
from exactpml.leakage.hockey_stick import at_most, exact_max
from exactpml.partial_knowledge.laws import KnowledgeLaws, MechanismLike, knowledge_laws
from exactpml.partial_knowledge.setting import PartialKnowledge

__all__ = [
    "ActiveDelta",
    "ActiveEpsilon",
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


@dataclass(frozen=True, slots=True)
class ActiveDelta:
    """max_b δ_A(b) (the smallest δ for (ε,δ)-APKDP), with its witness.

    Attributes:
        delta: the exact maximum.
        knowledge: a knowledge value b attaining it (``None`` if undecided: symbolic input).
        event: the output set S with δ_A(b) = P[S|t,b] − e^ε P[S|t',b].
        by_knowledge: δ_A(b) for every knowledge value b of positive probability.
    """

    delta: Scalar
    knowledge: Hashable | None
    event: frozenset[Hashable] | None
    by_knowledge: Mapping[Hashable, Scalar]


@dataclass(frozen=True, slots=True)
class ActiveEpsilon:
    """The smallest ε with δ = 0 (APKDP and PPKDP alike, Thm 1), with its witness (b, o)."""

    epsilon: LogValue
    knowledge: Hashable | None
    output: Hashable | None


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
) -> LogValue:
    """L(o, b) of Def 56 as a LogValue (ratio P[o|t,b]/P[o|t',b]; ``oo`` if only the
    denominator is 0; ``log 0`` if only the numerator is).

    An output impossible under both t and t' has no PLRV: ``InvalidArgument``.
    """
    laws = _laws(setting, mechanism)
    numerator, denominator = laws.pair(knowledge).probabilities(output)
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


def knowledge_delta(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    epsilon: object = None,
    knowledge: Hashable = _REQUIRED,
    *,
    exp_epsilon: object = None,
) -> Scalar:
    """δ_A(b) = Σ_o max(0, P[o|t,b] − e^ε P[o|t',b]) for one knowledge value b (Def 57).

    ``knowledge`` (b) is required; ε may also be given as ``exp_epsilon``.
    """
    if knowledge is _REQUIRED:
        raise InvalidArgument("knowledge_delta: give the knowledge value b (knowledge=...)")
    ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
    return _laws(setting, mechanism).pair(knowledge).delta(ratio)[0]


def knowledge_deltas(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
) -> dict[Hashable, Scalar]:
    """δ_A(b) for every knowledge value b of positive probability."""
    ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
    laws = _laws(setting, mechanism)
    return {b: laws.pair(b).delta(ratio)[0] for b in laws.knowledge_values}


def apkdp_delta(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
) -> ActiveDelta:
    """max_b δ_A(b): the smallest δ such that the mechanism is (ε,δ)-APKDP here (Def 57)."""
    ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
    laws = _laws(setting, mechanism)
    by_knowledge: dict[Hashable, Scalar] = {}
    events: dict[Hashable, frozenset[Hashable] | None] = {}
    for b in laws.knowledge_values:
        by_knowledge[b], events[b] = laws.pair(b).delta(ratio)
    keys = list(by_knowledge)
    best, position = exact_max([by_knowledge[b] for b in keys])
    witness = None if position is None else keys[position]
    return ActiveDelta(best, witness, None if witness is None else events[witness], by_knowledge)


def ppkdp_delta(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
) -> Scalar:
    """Σ_b P[B=b | D(i)=t] δ_A(b): the smallest δ for (ε,δ)-PPKDP here (Def 58, Thm 1)."""
    ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
    laws = _laws(setting, mechanism)
    return exact_sum(
        exact_product(weight, laws.pair(b).delta(ratio)[0])
        for b, weight in zip(laws.knowledge_values, laws.weights, strict=True)
    )


def apkdp_epsilon(
    setting: PartialKnowledge, mechanism: MechanismLike | KnowledgeLaws
) -> ActiveEpsilon:
    """The smallest ε with δ_A(b) = 0 for every b: ``max_{b,o} L(o, b)`` (``oo`` possible)."""
    laws = _laws(setting, mechanism)
    best: LogValue | None = None
    witness: tuple[Hashable | None, Hashable | None] = (None, None)
    for b in laws.knowledge_values:
        value, output = laws.pair(b).max_ratio()
        if best is None or value > best:
            best, witness = value, (b, output)
    assert best is not None
    return ActiveEpsilon(best, *witness)


def ppkdp_epsilon(setting: PartialKnowledge, mechanism: MechanismLike | KnowledgeLaws) -> LogValue:
    """The smallest ε with PPKDP δ = 0.

    Every b in supp(B) has positive weight, so Σ_b P[B=b] δ_A(b) = 0 iff every δ_A(b) = 0
    (Thm 1): the value is :func:`apkdp_epsilon`'s.
    """
    return apkdp_epsilon(setting, mechanism).epsilon


def is_apkdp(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    epsilon: object = None,
    delta: object = 0,
    *,
    exp_epsilon: object = None,
) -> bool:
    """(ε,δ)-APKDP for this setting: δ_A(b) ≤ δ for every b (Def 57); ε ≥ 0."""
    ratio = exp_epsilon_of(epsilon, exp_epsilon)
    return at_most(apkdp_delta(setting, mechanism, exp_epsilon=ratio).delta, delta, name="delta")


def is_ppkdp(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    epsilon: object = None,
    delta: object = 0,
    *,
    exp_epsilon: object = None,
) -> bool:
    """(ε,δ)-PPKDP for this setting: Σ_b P[B=b] δ_A(b) ≤ δ (Def 58); ε ≥ 0."""
    ratio = exp_epsilon_of(epsilon, exp_epsilon)
    return at_most(ppkdp_delta(setting, mechanism, exp_epsilon=ratio), delta, name="delta")
