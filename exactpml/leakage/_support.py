"""Shared validation and small exact helpers of the leakage measures (private to the package)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.abbreviate import abbreviated_repr
from exactpml.core.decisions import (
    prove_positive,
    prove_zero,
    shows_both_outcomes,
    unproven_condition,
)
from exactpml.core.distribution import Distribution, require_full_support
from exactpml.core.exact import (
    Scalar,
    as_scalar,
    to_sympy,
)
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument

__all__ = ["as_attribute", "require_full_support_prior"]

Label = Hashable
AttributeLike = Mechanism | Callable[[Any], Hashable]


def _max(values: Sequence[Scalar]) -> Scalar:
    """Exact maximum; a sympy ``Max`` (simplified under the symbols' assumptions) if symbolic."""
    if all(type(v) is Fraction for v in values):
        return max(values)
    return as_scalar(sympy.Max(*(to_sympy(v) for v in values)))


def _min(values: Sequence[Scalar]) -> Scalar:
    if all(type(v) is Fraction for v in values):
        return min(values)
    return as_scalar(sympy.Min(*(to_sympy(v) for v in values)))


def _positive_condition(value: Scalar, conditions: list[sympy.Basic]) -> bool:
    """Three-valued ``value > 0``: False when provably zero; records the condition if unknown."""
    zero = prove_zero(value)
    if zero:
        return False
    if zero is None:
        proved = prove_positive(value)
        if proved is not True:  # proved: no condition (and sympy's relation would be true)
            conditions.extend(
                unproven_condition(
                    _greater_than_zero(value, proved),
                    proved,
                    where="",
                    statement=f"{value} > 0",
                )
            )
    return True


def _greater_than_zero(value: Scalar, proved: bool | None) -> sympy.Basic:
    """``value > 0`` as sympy evaluates it (``true``, ``false`` or the relation itself).

    When exact values show ``value > 0`` for some values of the symbols and ``<= 0`` for
    others, sympy's (sound) evaluation can only leave the relation as it is, so it is built
    unevaluated: evaluating asks the assumptions again (2.4 ms for ``1 - 84 alpha/97 > 0``,
    a mass of ``alpha_range``'s mechanism, against 0 for the same relation unevaluated).
    """
    expr = to_sympy(value)
    if proved is None and shows_both_outcomes(expr, "positive"):
        return sympy.StrictGreaterThan(expr, 0, evaluate=False)
    return sympy.StrictGreaterThan(expr, 0)


def _require_distribution(value: object, name: str) -> Distribution:
    if not isinstance(value, Distribution):
        raise InvalidArgument(f"{name} must be a Distribution, got {type(value).__name__}")
    return value


def _require_mechanism(value: object, name: str) -> Mechanism:
    if not isinstance(value, Mechanism):
        raise InvalidArgument(f"{name} must be a Mechanism, got {type(value).__name__}")
    return value


def as_attribute(
    attribute: AttributeLike, mechanism: Mechanism, *, name: str = "attribute"
) -> Mechanism:
    """An attribute kernel P_{U|X} on the mechanism's inputs (a callable becomes deterministic)."""
    if isinstance(attribute, Mechanism):
        if set(attribute.inputs) != set(mechanism.inputs):
            raise InvalidArgument(
                f"{name} must be a kernel on the mechanism's inputs "
                f"{abbreviated_repr(list(mechanism.inputs))}, "
                f"but it is defined on {abbreviated_repr(list(attribute.inputs))}"
            )
        return attribute
    if callable(attribute):
        return Mechanism.deterministic(attribute, mechanism.inputs, name=name)
    raise InvalidArgument(f"{name} must be a Mechanism or a function of the input")


def _attribute_distribution(attribute: Mechanism, over_inputs: Distribution) -> list[Scalar]:
    """``[p_U(u) for u in attribute.outputs]`` for a distribution on X (P_U = P_{U|X} ∘ P_X)."""
    return attribute.output_masses(over_inputs)


def _check(mechanism: Mechanism, prior: Distribution) -> None:
    _require_mechanism(mechanism, "mechanism")
    _require_distribution(prior, "prior")
    mechanism.check_prior(prior)


def require_full_support_prior(prior: Distribution, *, name: str = "prior") -> Distribution:
    """Validate that ``prior`` is a Distribution with full support (Q_X in the set P_X)."""
    _require_distribution(prior, name)
    require_full_support(prior, name=name)
    return prior


def _max_log(values: Sequence[LogValue]) -> LogValue:
    """The largest of log values (``log 1 = 0`` for none), keeping every condition."""
    if not values:
        return LogValue(1)
    conditions = tuple(dict.fromkeys(c for v in values for c in v.conditions))
    if any(v.is_infinite for v in values):
        return LogValue(sympy.oo, conditions=conditions)
    return LogValue(_max([v.ratio for v in values]), conditions=conditions)
