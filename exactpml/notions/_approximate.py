"""(ε, δ)-DP exactly: the hockey-stick divergence in set form and through the PLRV.

For distributions P, Q on a finite set and E = e^ε,

* set form: ``H_E(P || Q) = max_S P(S) - E·Q(S)``, attained at ``S* = {y : p(y) > E q(y)}``
  (each y adds ``p(y) - E q(y)``, so S* keeps exactly the positive terms);
* PLRV form (thesis, Prop 8): ``H_E(P || Q) = E_{O~P}[max(0, 1 - e^{ε - L(O)})]`` with the
  privacy loss ``L(o) = log p(o)/q(o)`` (``+∞`` when ``q(o) = 0 < p(o)``), computed from the
  exact :class:`PrivacyLossDistribution` (the law of L(O) for O ~ P).

The two forms are computed by separate code paths (a sum over outputs; a sum over the atoms
of the privacy-loss distribution) and agree exactly.  A mechanism is (ε, δ)-DP when
``δ(ε) = max_{x ~ x'} H_E(M(x) || M(x')) <= δ`` (:func:`delta_for_epsilon`).  Everything is
rational when E is; for E = exp(ε) with rational ε ≠ 0 the signs of ``p(y) - E q(y)`` are
certified (:mod:`exactpml.certify`) and δ is a closed expression in ``exp(ε)``.

>>> from exactpml import Distribution
>>> p = Distribution({0: "3/4", 1: "1/4"})
>>> q = Distribution({0: "1/4", 1: "3/4"})
>>> hockey_stick_divergence(p, q, exp_epsilon=2)
Fraction(1, 4)
>>> privacy_loss_distribution(p, q).delta(exp_epsilon=2)
Fraction(1, 4)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.decisions import prove_zero
from exactpml.core.distribution import Distribution
from exactpml.core.exact import (
    Scalar,
    as_scalar,
    exact_difference,
    exact_product,
    exact_quotient,
    exact_sum,
    to_sympy,
)
from exactpml.core.logvalue import LogValue
from exactpml.core.parameters import probability
from exactpml.database import StructuredDatabaseMechanism, as_database_mechanism
from exactpml.errors import InvalidArgument, Undecided
from exactpml.leakage.hockey_stick import hockey_stick
from exactpml.notions._common import WorstCase, compare_scalars, exp_epsilon_value

__all__ = [
    "PrivacyLossDistribution",
    "delta_for_epsilon",
    "hockey_stick_divergence",
    "hockey_stick_event",
    "privacy_loss_distribution",
]

Label = Hashable
_FORMS = ("set", "plrv")


def _check_pair(p: object, q: object) -> tuple[Distribution, Distribution]:
    for name, value in (("p", p), ("q", q)):
        if not isinstance(value, Distribution):
            raise InvalidArgument(f"{name} must be a Distribution, got {type(value).__name__}")
    assert isinstance(p, Distribution) and isinstance(q, Distribution)
    if set(p.outcomes) != set(q.outcomes):
        raise InvalidArgument("p and q must be distributions on the same outcomes")
    return p, q


def _check_form(form: object) -> str:
    if form not in _FORMS:
        raise InvalidArgument(f"form={form!r} must be one of {list(_FORMS)!r}")
    return str(form)


def _check_delta(delta: object) -> Scalar:
    return probability(delta, name="delta")


# --- set form ----------------------------------------------------------------------------
def _set_form(
    row: Sequence[Scalar], other: Sequence[Scalar], ratio: Scalar
) -> tuple[Scalar, list[int]]:
    """(max_S P(S) - E Q(S), the positions of S* = {y : p(y) > E q(y)}).

    Delegates to the one hockey-stick implementation,
    :func:`exactpml.leakage.hockey_stick.hockey_stick`; an event that cannot be decided
    (symbolic terms of unknown sign) raises ``Undecided``.
    """
    value, event = hockey_stick(row, other, ratio)
    if event is None:
        raise Undecided(
            f"cannot decide which outputs have p(y) > {ratio} q(y) (terms of unknown sign)",
            expression=to_sympy(value),
        )
    return value, sorted(event)


def hockey_stick_event(
    p: Distribution, q: Distribution, *, epsilon: object = None, exp_epsilon: object = None
) -> frozenset[Label]:
    """The event S* = {y : p(y) > e^ε q(y)} that attains max_S P(S) - e^ε Q(S)."""
    p, q = _check_pair(p, q)
    ratio = exp_epsilon_value(epsilon, exp_epsilon, negative_allowed=True)
    _, event = _set_form(p.probabilities, [q[o] for o in p.outcomes], ratio)
    return frozenset(p.outcomes[c] for c in event)


def hockey_stick_divergence(
    p: Distribution,
    q: Distribution,
    *,
    epsilon: object = None,
    exp_epsilon: object = None,
    form: str = "set",
) -> Scalar:
    """H_{e^ε}(P || Q) = max_S P(S) - e^ε Q(S), exactly (``form="set"`` or ``"plrv"``).

    ``form="plrv"`` computes E_{O~P}[max(0, 1 - e^{ε - L(O)})] from the privacy-loss
    distribution instead (thesis, Prop 8); both give the same exact value.
    """
    p, q = _check_pair(p, q)
    ratio = exp_epsilon_value(epsilon, exp_epsilon, negative_allowed=True)
    if _check_form(form) == "plrv":
        return privacy_loss_distribution(p, q).delta(exp_epsilon=ratio)
    value, _ = _set_form(p.probabilities, [q[o] for o in p.outcomes], ratio)
    return value


# --- the privacy-loss distribution -------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PrivacyLossDistribution:
    """The exact law of the privacy loss L(O) = log p(O)/q(O) for O ~ P (thesis, Def 13).

    Attributes:
        losses: the distinct finite losses, as LogValues (the ratio p/q is kept exactly).
        masses: their probabilities under P (positive), in the same order.
        mass_at_infinity: P(q(O) = 0), the probability of an infinite loss.
    """

    losses: tuple[LogValue, ...]
    masses: tuple[Scalar, ...]
    mass_at_infinity: Scalar

    def __iter__(self) -> Iterator[tuple[LogValue, Scalar]]:
        """Pairs (loss, mass); the infinite loss comes last when it has positive mass."""
        yield from zip(self.losses, self.masses, strict=True)
        if not prove_zero(self.mass_at_infinity):
            yield LogValue.infinity(), self.mass_at_infinity

    def delta(self, epsilon: object = None, *, exp_epsilon: object = None) -> Scalar:
        """E_{O~P}[max(0, 1 - e^{ε - L(O)})] (thesis, Prop 8): the PLRV form of δ(ε)."""
        ratio = exp_epsilon_value(epsilon, exp_epsilon, negative_allowed=True)
        terms: list[Scalar] = [self.mass_at_infinity]
        for loss, mass in zip(self.losses, self.masses, strict=True):
            if compare_scalars(loss.ratio, ratio) > 0:
                # mass · (1 - e^ε / e^L)
                terms.append(
                    exact_difference(mass, exact_quotient(exact_product(ratio, mass), loss.ratio))
                )
        return exact_sum(terms)

    def expectation(self) -> Scalar:
        """E[L(O)] = D_KL(P || Q) (``oo`` when the infinite loss has positive mass)."""
        if not prove_zero(self.mass_at_infinity):
            return sympy.oo
        return as_scalar(
            sympy.Add(
                *(
                    to_sympy(mass) * sympy.log(to_sympy(loss.ratio))
                    for loss, mass in zip(self.losses, self.masses, strict=True)
                )
            )
        )

    def __str__(self) -> str:
        atoms = ", ".join(f"{loss}: {mass}" for loss, mass in self)
        return f"PrivacyLossDistribution({{{atoms}}})"


def _loss_event(row: Sequence[Scalar], other: Sequence[Scalar], ratio: Scalar) -> list[int]:
    """The outputs whose privacy loss exceeds ε: p(y) > 0 and (q(y) = 0 or p(y)/q(y) > e^ε)."""
    return [
        c
        for c, (a, b) in enumerate(zip(row, other, strict=True))
        if not prove_zero(a) and (prove_zero(b) or compare_scalars(exact_quotient(a, b), ratio) > 0)
    ]


def _privacy_loss(row: Sequence[Scalar], other: Sequence[Scalar]) -> PrivacyLossDistribution:
    grouped: dict[Any, list[Scalar]] = {}
    infinite: list[Scalar] = []
    for a, b in zip(row, other, strict=True):
        if type(a) is Fraction and type(b) is Fraction:
            if not a:
                continue
            if not b:
                infinite.append(a)
                continue
            grouped.setdefault(a / b, []).append(a)
            continue
        if prove_zero(a):
            continue
        if prove_zero(b):
            infinite.append(a)
            continue
        ratio = exact_quotient(a, b)
        key = ratio
        if type(ratio) is not Fraction:
            key = next((k for k in grouped if prove_zero(exact_difference(k, ratio))), ratio)
        grouped.setdefault(key, []).append(a)
    keys = list(grouped)
    if all(type(k) is Fraction for k in keys):
        keys.sort()
    return PrivacyLossDistribution(
        tuple(LogValue(k) for k in keys),
        tuple(exact_sum(grouped[k]) for k in keys),
        exact_sum(infinite),
    )


def privacy_loss_distribution(p: Distribution, q: Distribution) -> PrivacyLossDistribution:
    """The law of L(O) = log p(O)/q(O) for O ~ P, exactly (losses sorted when rational).

    >>> pld = privacy_loss_distribution(Distribution({0: "3/4", 1: "1/4"}),
    ...                                 Distribution({0: "1/4", 1: "3/4"}))
    >>> [(str(loss), mass) for loss, mass in pld]
    [('-log(3)', Fraction(1, 4)), ('log(3)', Fraction(3, 4))]
    """
    p, q = _check_pair(p, q)
    return _privacy_loss(p.probabilities, [q[o] for o in p.outcomes])


# --- δ(ε) of a mechanism -----------------------------------------------------------------
def delta_for_epsilon(
    mechanism: object,
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    form: str = "set",
) -> WorstCase:
    """δ(ε) = max over neighbours x ~ x' of H_{e^ε}(M(x) || M(x')), with the worst pair.

    The smallest δ such that the mechanism is (ε, δ)-DP.  ``form`` selects the set form or
    the PLRV form (thesis, Prop 8); the values agree exactly.  The witness event is
    ``{y : p(y|x) > e^ε p(y|x')}``.  Structured mechanisms compute through their
    sufficient statistic.
    """
    checked = as_database_mechanism(mechanism)
    ratio = exp_epsilon_value(epsilon, exp_epsilon, negative_allowed=True)
    chosen = _check_form(form)
    if chosen == "set" and isinstance(checked, StructuredDatabaseMechanism):
        fast = checked.delta_for_epsilon_closed_form(ratio)
        if fast is not None:  # a structured closed form (the PLRV form stays generic)
            return fast
    reduction = checked.reduction()
    best: Scalar | None = None
    witness: tuple[Callable[[], tuple[Any, Any]], list[int], Label, Label] | None = None
    seen: set[tuple[Label, Label]] = set()
    for v, v2, databases in reduction.pairs():
        if (v, v2) in seen:
            continue
        seen.add((v, v2))
        row, other = reduction.row(v), reduction.row(v2)
        if chosen == "set":
            value, event = _set_form(row, other, ratio)
        else:
            value, event = _privacy_loss(row, other).delta(exp_epsilon=ratio), []
        if best is None or compare_scalars(value, best) > 0:
            best, witness = value, (databases, event, v, v2)
    if best is None or witness is None:
        return WorstCase(Fraction(0))
    x, x2 = witness[0]()
    if chosen == "plrv":  # the event {y : L(y) > ε}, for the worst pair only
        row, other = reduction.row(witness[2]), reduction.row(witness[3])
        witness = (witness[0], _loss_event(row, other, ratio), witness[2], witness[3])
    return WorstCase(best, x, x2, event=frozenset(reduction.outputs[c] for c in witness[1]))
