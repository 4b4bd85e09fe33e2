"""Results of a supremum: the value, whether it is attained, and what reaches it.

* :class:`Instance` -- one explicit instance (mechanism, prior, output, and the attribute,
  entry or side information the measure is about); ``leakage()`` recomputes its value;
* :class:`Construction` -- a named parametric family from a proof (e.g. the concentrating
  prior of eq. (B.3)), with its parameter, the direction of the limit, a builder for any
  parameter value, the leakage along the family as an expression, and its exact limit
  (taken by :func:`exactpml.limits.limit`, or read off the lowest-order coefficients of
  polynomials in the parameter; never by substituting the limit point);
* :class:`Supremum` -- the exact value (a :class:`~exactpml.core.logvalue.LogValue`, possibly
  ``oo``), ``attained``, and the witness (an ``Instance`` when attained, else the
  ``Construction`` whose limit reaches it);
* :class:`SupremumBounds` -- when no exact value is available: certified lower and upper
  bounds, stated as bounds.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

import sympy

from exactpml.core.abbreviate import abbreviated
from exactpml.core.display import abbreviated_fields_repr
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar
from exactpml.core.logvalue import LogValue
from exactpml.errors import InvalidArgument
from exactpml.suprema.families import ParameterDomain

__all__ = [
    "Construction",
    "Instance",
    "Measure",
    "Supremum",
    "SupremumBounds",
    "entry_attribute",
    "register_measure_evaluator",
    "rest_attribute",
]

Label = Hashable
Measure = Literal["pml", "attribute", "entry", "conditional", "gain", "certainty", "capacity"]
"""What an instance's value measures: l(X->y), l(U->y), l(D_i->y), l(D_i->y | d_-i), the
guessing gain max_u p(u|y) / max_u p_U(u) of one attribute (the ratio inside Def 2.3), the
posterior certainty max_u q(u|y) (as log of it), or max_{x,x'} p(y|x)/p(y|x') (Def 2.7)."""


_EVALUATORS: dict[type, Callable[[Instance], LogValue]] = {}


def register_measure_evaluator(
    mechanism_type: type, evaluate: Callable[[Instance], LogValue]
) -> None:
    """Declare how :meth:`Instance.leakage` evaluates instances whose mechanism is a
    ``mechanism_type`` (the measure table: the algorithms register here, so this value
    object needs no import of them).  ``evaluate`` reads ``instance.measure`` and the other
    fields and returns the exact value."""
    _EVALUATORS[mechanism_type] = evaluate


def entry_attribute(entry: int) -> Callable[[tuple[Any, ...]], Any]:
    """The attribute D_i of a database x = (d_0, ..., d_{n-1}): x -> x[i]."""
    return lambda x: x[entry]


def rest_attribute(entry: int) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """The side information d_{-i}: x -> x without its entry i."""
    return lambda x: x[:entry] + x[entry + 1 :]


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class Instance:
    """One explicit instance at which a leakage value is computed.

    Attributes:
        mechanism: the mechanism (a ``Mechanism``, or a ``ContinuousMechanism``).
        prior: the prior P_X.
        output: the output y.
        measure: see :data:`Measure`.
        attribute: the attribute kernel P_{U|X} (measures ``"attribute"`` and ``"gain"``).
        entry: the entry index i (measures ``"entry"`` and ``"conditional"``).
        side_information: ``d_-i`` (measure ``"conditional"``).
        parameter_value: the family's parameter value, when the instance is a family member.
    """

    mechanism: Any
    prior: Distribution
    output: Label
    measure: Measure = "pml"
    attribute: Any = None
    entry: int | None = None
    side_information: tuple[Label, ...] | None = None
    parameter_value: Scalar | None = None

    def leakage(self) -> LogValue:
        """The value of the measure at this instance, recomputed from the definitions.

        Computed by the evaluator registered for the mechanism's type in the measure table
        (:func:`register_measure_evaluator`): finite mechanisms by
        :mod:`exactpml.suprema.measure_table`, continuous ones by :mod:`exactpml.continuous`.
        This value object imports no algorithm.
        """
        for kind in type(self.mechanism).__mro__:
            evaluate = _EVALUATORS.get(kind)
            if evaluate is not None:
                return evaluate(self)
        raise InvalidArgument(
            f"no measure evaluator is registered for {type(self.mechanism).__name__} "
            "(see exactpml.suprema.witnesses.register_measure_evaluator)"
        )

    def describe(self) -> str:
        what = {
            "pml": "l(X -> y)",
            "attribute": "l(U -> y)",
            "entry": f"l(D_{self.entry} -> y)",
            "conditional": f"l(D_{self.entry} -> y | d_-{self.entry} = {self.side_information!r})",
            "gain": "the guessing gain of the attribute",
            "certainty": "max_u q(u | y)",
            "capacity": "max_{x,x'} p(y|x)/p(y|x')",
        }[self.measure]
        at = "" if self.parameter_value is None else f" (parameter = {self.parameter_value})"
        return f"{what} at y = {self.output!r}{at}"


@dataclass(frozen=True, slots=True)
class Construction:
    """A named parametric family from a proof, and the limit of the leakage along it.

    Attributes:
        name: e.g. ``"concentrating product prior"``.
        source: the citation, e.g. ``"Saeidian et al., App. B.1, eq. (B.3)"``.
        parameter: the sympy symbol (positive for a limit ``0+``).
        to: the limit point, as :func:`exactpml.limits.limit` reads it (``"0+"``, ``"oo"``).
        domain: the parameter values for which the builder gives a member.
        builder: parameter value (exact, or the symbol itself) -> :class:`Instance`.
        expression: exp of the leakage along the family, as an expression in ``parameter``.
        limit: the exact limit of ``expression`` (a ``Fraction``, closed expression or ``oo``).
        integer: True when the parameter ranges over the integers of ``domain`` (K).
    """

    name: str
    source: str
    parameter: sympy.Symbol
    to: str
    domain: ParameterDomain
    builder: Callable[[Any], Instance] = field(repr=False)
    expression: sympy.Expr = field(repr=False)
    limit: Scalar
    integer: bool = False

    def at(self, value: object) -> Instance:
        """The member at ``value``; a value outside the domain is an error."""
        point = self.domain.require(value, name=str(self.parameter))
        if self.integer and not (isinstance(point, Fraction) and point.denominator == 1):
            raise InvalidArgument(
                f"{abbreviated(self.parameter)}={abbreviated(point)} must be an integer"
            )
        return self.builder(int(point) if self.integer else point)

    def symbolic(self) -> Instance:
        """The member with the parameter left as a symbol (not for integer parameters)."""
        if self.integer:
            raise InvalidArgument(
                f"{self.name}: {abbreviated(self.parameter)} must be a concrete integer"
            )
        return self.builder(self.parameter)

    def describe(self) -> str:
        return f"{self.name} ({self.source}) as {self.parameter} -> {self.to}"


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class Supremum:
    """An exact supremum.

    Attributes:
        value: the supremum, as the log of an exact ratio (``LogValue``; ``oo`` allowed).
        attained: whether some member of the family (and some output) reaches it.
        witness: an :class:`Instance` reaching it when attained, otherwise the
            :class:`Construction` whose limit equals it.
        quantity: what was maximised, e.g. ``"sup over product priors of l(D_0 -> y), y = 1"``.
        source: the result this supremum realises, e.g. ``"Saeidian et al., Thm 4.2 (3)"``.
        parts: for a supremum over outputs (and entries), the suprema it is the maximum of.
    """

    value: LogValue
    attained: bool
    witness: Instance | Construction
    quantity: str
    source: str = ""
    parts: tuple[Supremum, ...] = field(default=(), repr=False)

    def __str__(self) -> str:
        how = (
            f"attained at {self.witness.describe()}"
            if self.attained
            else f"not attained: the limit of {self.witness.describe()}"
        )
        return f"{self.quantity} = {self.value} ({how})"

    def _repr_markdown_(self) -> str:
        """Jupyter: the supremum, whether it is attained, and its witness."""
        state = "attained" if self.attained else "not attained (a limit)"
        return f"**{self.quantity}** = `{self.value}`, {state}; witness: {self.witness.describe()}"


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class SupremumBounds:
    """Certified bounds on a supremum that could not be computed exactly.

    ``lower`` is a value the quantity actually takes (at ``witness``); ``upper`` is a
    certified upper bound.  Nothing here is an exact supremum: ``reason`` says why.
    """

    lower: LogValue
    upper: LogValue
    witness: Instance | None
    quantity: str
    reason: str

    def __str__(self) -> str:
        return f"{self.lower} <= {self.quantity} <= {self.upper} (bounds only: {self.reason})"
