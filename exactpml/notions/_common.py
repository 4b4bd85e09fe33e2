"""Shared pieces of the privacy notions: results with witnesses, ε parsing, exact signs.

Every decision here is exact (rational arithmetic, or sympy assumptions for symbolic
entries) or certified (:mod:`exactpml.certify` for closed transcendental numbers such as
``exp(1/2)``); nothing is decided by a float.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.errors import InvalidArgument
from exactpml.exact import Scalar, as_scalar, exact, to_sympy
from exactpml.exact import exact_compare as compare_scalars
from exactpml.exact import exact_sign as sign_of
from exactpml.logvalue import LogValue

__all__ = ["WorstCase", "compare_scalars", "exp_epsilon_value", "sign_of"]

Label = Hashable


@dataclass(frozen=True, slots=True)
class WorstCase:
    """A privacy parameter's exact value and the inputs and output that attain it.

    Attributes:
        value: the parameter: a :class:`LogValue` for ε-type notions (ε-DP, free lunch,
            local DP), an exact scalar for δ and statistical distances.
        database: x of the worst pair (None when there is no pair, e.g. |D| = 1).
        neighbour: x' of the worst pair (for local DP: the entries d and d').
        output: the worst output y (ε-type notions), else None.
        event: the worst event S (δ(ε): {y : p(y|x) > e^ε p(y|x')}; statistical distance:
            {y : p(y|x) > p(y|x')}), else None.
        attained: False when the value is a supremum that no output attains (continuous
            outputs); the witness then approaches it.
    """

    value: Any
    database: Any = None
    neighbour: Any = None
    output: Any = None
    event: frozenset[Label] | None = None
    attained: bool = True

    @property
    def epsilon(self) -> LogValue:
        """The value, for ε-type results."""
        if not isinstance(self.value, LogValue):
            raise InvalidArgument("this result is not an epsilon (its value is not a LogValue)")
        return self.value

    def __str__(self) -> str:
        parts = [f"value={self.value}"]
        if self.database is not None:
            parts.append(f"database={_short(self.database)}")
            parts.append(f"neighbour={_short(self.neighbour)}")
        if self.output is not None:
            parts.append(f"output={self.output}")
        if self.event is not None:
            parts.append(f"event={sorted(map(str, self.event))}")
        if not self.attained:
            parts.append("not attained")
        return "WorstCase(" + ", ".join(parts) + ")"


def _short(database: object) -> str:
    text = repr(database)
    return text if len(text) <= 80 else text[:77] + "..."


def _check_real(value: object, name: str) -> None:
    if isinstance(value, complex):
        raise InvalidArgument(f"{name}={value!r} must be a real number")
    if isinstance(value, sympy.Basic) and (value.has(sympy.I) or value.is_extended_real is False):
        raise InvalidArgument(f"{name}={value} must be a real number")


def _closed(value: object, name: str) -> Scalar:
    _check_real(value, name)
    result = exact(value, where=name)
    if type(result) is not Fraction:
        expr = to_sympy(result)
        if expr.free_symbols:
            raise InvalidArgument(
                f"{name}={expr} must be a number; symbolic privacy parameters are not supported"
            )
        if expr.is_extended_real is False or expr.has(sympy.I):
            raise InvalidArgument(f"{name}={expr} must be a real number")
        if expr.has(sympy.oo, sympy.S.NegativeInfinity, sympy.zoo):
            raise InvalidArgument(f"{name}={expr} must be finite")
    return result


def exp_epsilon_value(
    epsilon: object = None, exp_epsilon: object = None, *, name: str = "epsilon"
) -> Scalar:
    """e^ε exactly, from ``epsilon`` (a number or a LogValue) or from ``exp_epsilon``.

    ε must be real and non-negative (``exp_epsilon >= 1``).  A rational ``exp_epsilon`` (or
    a LogValue with a rational ratio, or ε = 0) keeps every later step rational; otherwise
    e^ε is the closed sympy number ``exp(ε)`` and comparisons are certified.

    >>> exp_epsilon_value(exp_epsilon="3")
    Fraction(3, 1)
    >>> exp_epsilon_value(LogValue(3))
    Fraction(3, 1)
    >>> exp_epsilon_value("1/2")
    exp(1/2)
    """
    if epsilon is None and exp_epsilon is None:
        raise InvalidArgument(f"give {name} (a real number or a LogValue) or exp_epsilon")
    if epsilon is not None and exp_epsilon is not None:
        raise InvalidArgument(f"give either {name} or exp_epsilon, not both")
    if epsilon is not None:
        if isinstance(epsilon, LogValue):
            if epsilon.is_infinite:
                raise InvalidArgument(f"{name}={epsilon} must be finite")
            ratio = epsilon.ratio
            if compare_scalars(ratio, Fraction(1)) < 0:
                raise InvalidArgument(f"{name}={epsilon} must not be negative")
            return ratio
        value = _closed(epsilon, name)
        if sign_of(value) < 0:
            raise InvalidArgument(f"{name}={value} must not be negative")
        if type(value) is Fraction and value == 0:
            return Fraction(1)
        return as_scalar(sympy.exp(to_sympy(value)))
    ratio_value = _closed(exp_epsilon, "exp_epsilon")
    if compare_scalars(ratio_value, Fraction(1)) < 0:
        raise InvalidArgument(f"exp_epsilon={ratio_value} must be at least 1 (epsilon >= 0)")
    return ratio_value


def epsilon_bound(epsilon: object = None, exp_epsilon: object = None) -> LogValue:
    """ε as a LogValue (its ratio e^ε exact), for the ``is_…_private`` predicates."""
    if isinstance(epsilon, LogValue) and exp_epsilon is None and epsilon.is_infinite:
        return epsilon
    return LogValue(exp_epsilon_value(epsilon, exp_epsilon))
