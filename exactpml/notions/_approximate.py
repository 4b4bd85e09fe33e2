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

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import prove_zero
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, exact_quotient, to_sympy
from exactpml.core.parameters import probability
from exactpml.database import StructuredDatabaseMechanism, as_database_mechanism
from exactpml.errors import InvalidArgument, Undecided
from exactpml.leakage.hockey_stick import hockey_stick
from exactpml.notions._common import (
    WorstCase,
    check_distribution_pair,
    compare_scalars,
    exp_epsilon_value,
)
from exactpml.notions.privacy_loss import privacy_loss_distribution, privacy_loss_of_rows

__all__ = ["delta_for_epsilon", "hockey_stick_divergence", "hockey_stick_event"]

Label = Hashable
_FORMS = ("set", "plrv")


def _check_form(form: object) -> str:
    if form not in _FORMS:
        raise InvalidArgument(f"form={form!r} must be one of {abbreviated_repr(list(_FORMS))}")
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
            f"cannot decide which outputs have p(y) > {abbreviated(ratio)} q(y) (terms of unknown "
            "sign)",
            expression=to_sympy(value),
        )
    return value, sorted(event)


def hockey_stick_event(
    p: Distribution, q: Distribution, *, epsilon: object = None, exp_epsilon: object = None
) -> frozenset[Label]:
    """The event S* = {y : p(y) > e^ε q(y)} that attains max_S P(S) - e^ε Q(S)."""
    p, q = check_distribution_pair(p, q)
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
    p, q = check_distribution_pair(p, q)
    ratio = exp_epsilon_value(epsilon, exp_epsilon, negative_allowed=True)
    if _check_form(form) == "plrv":
        return privacy_loss_distribution(p, q).delta_for_epsilon(exp_epsilon=ratio)
    value, _ = _set_form(p.probabilities, [q[o] for o in p.outcomes], ratio)
    return value


def _loss_event(row: Sequence[Scalar], other: Sequence[Scalar], ratio: Scalar) -> list[int]:
    """The outputs whose privacy loss exceeds ε: p(y) > 0 and (q(y) = 0 or p(y)/q(y) > e^ε)."""
    return [
        c
        for c, (a, b) in enumerate(zip(row, other, strict=True))
        if not prove_zero(a) and (prove_zero(b) or compare_scalars(exact_quotient(a, b), ratio) > 0)
    ]


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
    sufficient statistic; Laplace noise (continuous outputs) through its closed form
    (:func:`exactpml.notions.laplace_delta_for_epsilon`).
    """
    checked = as_database_mechanism(mechanism)
    ratio = exp_epsilon_value(epsilon, exp_epsilon, negative_allowed=True)
    chosen = _check_form(form)
    if isinstance(checked, StructuredDatabaseMechanism):
        closed = checked.delta_closed_form(ratio)
        if closed is not None:  # continuous outputs (Laplace noise): both forms are this value
            return closed
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
            value, event = privacy_loss_of_rows(row, other).delta_for_epsilon(exp_epsilon=ratio), []
        if best is None or compare_scalars(value, best) > 0:
            best, witness = value, (databases, event, v, v2)
    if best is None or witness is None:
        return WorstCase(Fraction(0))
    x, x2 = witness[0]()
    if chosen == "plrv":  # the event {y : L(y) > ε}, for the worst pair only
        row, other = reduction.row(witness[2]), reduction.row(witness[3])
        witness = (witness[0], _loss_event(row, other, ratio), witness[2], witness[3])
    return WorstCase(best, x, x2, event=frozenset(reduction.outputs[c] for c in witness[1]))
