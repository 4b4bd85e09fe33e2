"""The exact supremum of a leakage ratio over a one-parameter family of priors (private).

Let f(t) be exp of a leakage (PML, of an attribute, an entry, or conditional) under the
member of a :class:`~exactpml.families.ParametricPriors` family at t.  Where every prior
entry is positive, f is the same maximum of rational functions r_1, ..., r_m of t (the
measure computed on the symbolic prior); the support changes only at the *vanishing
points* where an entry is 0, and there f is evaluated on the member itself (the t = 0 trap:
the leakage at such a point is generally not the limit of the leakage next to it).

sup f = max over the candidates:

* f at each vanishing point and at each closed end of the domain (attained);
* on each open gap between those points, and for each r_k: r_k at the real roots of
  r_k' inside the gap (attained), and the one-sided limits of r_k at both ends of the gap,
  taken by :func:`exactpml.limits.limit` (not attained unless another candidate attains the
  same value).

Values at irrational critical points are exact algebraic numbers (radicals or ``CRootOf``),
compared by :mod:`exactpml.certify`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.abbreviate import abbreviated
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, to_sympy
from exactpml.core.logvalue import LogValue
from exactpml.errors import Undecided
from exactpml.numerics import limits
from exactpml.numerics.univariate import RationalFunction, compare_points, real_roots_between
from exactpml.suprema.families import ParametricPriors
from exactpml.suprema.witnesses import Construction, Instance, Supremum

__all__ = ["parametric_supremum"]


@dataclass(frozen=True, slots=True)
class _Candidate:
    value: LogValue
    attained: bool
    point: Scalar | None = None  # where it is attained
    term: sympy.Expr | None = None  # the r_k whose limit it is
    to: str | None = None  # the limit point, as limits.limit reads it


def _terms(expr: sympy.Expr) -> list[sympy.Expr]:
    if isinstance(expr, sympy.Max):
        found: list[sympy.Expr] = []
        for arg in expr.args:
            found.extend(_terms(arg))
        return found
    return [expr]


def _to(point: Scalar, side: str) -> str:
    if point is sympy.oo:
        return "oo"
    if point is sympy.S.NegativeInfinity:
        return "-oo"
    return f"{point}{side}"


def _one_sided(
    function: RationalFunction, term: sympy.Expr, point: Scalar, side: str, family: ParametricPriors
) -> Scalar:
    """lim r_k(t) as t -> point from ``side``, by the limit engine (continuity only at an
    irrational point where the denominator does not vanish)."""
    parameter = family.parameter
    domain = (family.domain.lower, family.domain.upper)
    if point == 0:  # the limit engine wants the sign of the approach in the symbol
        local = (
            sympy.Symbol(parameter.name, positive=True)
            if side == "+"
            else sympy.Symbol(parameter.name, negative=True)
        )
        term, parameter = term.xreplace({parameter: local}), local
        domain = (Fraction(0), domain[1]) if side == "+" else (domain[0], Fraction(0))
    if point is sympy.oo or point is sympy.S.NegativeInfinity:
        return limits.limit(term, parameter, _to(point, side), domain=domain)
    if isinstance(point, Fraction):
        return limits.limit(term, parameter, (point, side), domain=domain)
    if not function.denominator_vanishes_at(point):
        return function.value_at(point)
    raise Undecided(
        f"cannot take the limit of {abbreviated(term)} as {parameter} -> "
        f"{abbreviated(point)}{side}: the point is "
        "irrational and the denominator vanishes there",
        expression=term,
    )


def parametric_supremum(
    family: ParametricPriors,
    measure: Callable[[Distribution], LogValue],
    make: Callable[[Distribution, Scalar | None], Instance],
    quantity: str,
    source: str,
) -> Supremum:
    """sup over the family of ``measure(prior)``, exact; see the module docstring."""
    parameter = family.parameter
    domain = family.domain
    generic = measure(family.prior)
    if generic.is_infinite:
        raise Undecided(f"{quantity}: the leakage is infinite for the generic member")
    terms = _terms(to_sympy(generic.ratio))
    functions = [RationalFunction.of(term, parameter, where=quantity) for term in terms]
    vanishing = family.vanishing_points()
    inner = [
        p
        for p in vanishing
        if (domain.lower is sympy.S.NegativeInfinity or compare_points(p, domain.lower) > 0)
        and (domain.upper is sympy.oo or compare_points(p, domain.upper) < 0)
    ]
    evaluate_at = list(vanishing)
    for end, is_open in ((domain.lower, domain.lower_open), (domain.upper, domain.upper_open)):
        if not is_open and all(compare_points(end, p) != 0 for p in evaluate_at):
            evaluate_at.append(end)
    candidates: list[_Candidate] = []
    for point in evaluate_at:
        candidates.append(_Candidate(measure(family.at(point)), True, point=point))
    cuts: list[Scalar] = [domain.lower, *inner, domain.upper]
    for left, right in itertools.pairwise(cuts):
        for function, term in zip(functions, terms, strict=True):
            for end, side in ((left, "+"), (right, "-")):
                reached = _one_sided(function, term, end, side, family)
                value = LogValue.infinity() if reached is sympy.oo else LogValue(reached)
                candidates.append(_Candidate(value, False, term=term, to=_to(end, side)))
            slope = function.derivative_numerator()
            if slope.is_zero:  # constant on the gap: attained anywhere inside
                inside = _inside(left, right)
                candidates.append(_Candidate(LogValue(function.value_at(inside)), True, inside))
                continue
            for root in real_roots_between(slope, left, right):
                candidates.append(_Candidate(LogValue(function.value_at(root)), True, point=root))
    best = candidates[0]
    for candidate in candidates[1:]:
        if candidate.value.compare(best.value) > 0:
            best = candidate
    attaining = next(
        (c for c in candidates if c.attained and c.value.compare(best.value) == 0), None
    )
    if attaining is not None:
        assert attaining.point is not None
        prior = family.at(attaining.point)
        return Supremum(best.value, True, make(prior, attaining.point), quantity, source)
    assert best.term is not None and best.to is not None

    def builder(value: Any) -> Instance:
        if value == parameter:
            return make(family.prior, None)
        return make(family.at(value), value)

    construction = Construction(
        family.name,
        f"the family {family.describe()}",
        parameter,
        best.to,
        domain,
        builder,
        best.term,
        best.value.ratio,
    )
    return Supremum(best.value, False, construction, quantity, source)


def _inside(left: Scalar, right: Scalar) -> Fraction:
    from exactpml.numerics.univariate import rational_between

    return rational_between(left, right)
