"""Exact analysis of rational functions of one variable on an interval (private helpers).

Serves :mod:`exactpml.families` (is a parametric prior a distribution on its whole domain?)
and :mod:`exactpml.suprema` (the supremum of a leakage ratio over a one-parameter family).
A rational function here is ``P(t) / Q(t)`` with ``P, Q`` in QQ[t], coprime.  Real roots are
exact: rationals, square roots (sympy writes quadratic roots in radicals) or ``CRootOf``;
their order is decided by exact comparison or by :mod:`exactpml.certify`, never by floats.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import sympy

from exactpml.core import certify
from exactpml.core.abbreviate import abbreviated
from exactpml.core.bounds import current_bounds
from exactpml.core.exact import Scalar, as_scalar, to_sympy
from exactpml.errors import InvalidArgument, Undecided

__all__ = [
    "RationalFunction",
    "compare_points",
    "rational_between",
    "rational_bounds",
    "real_roots_between",
]


def _short(expr: object, limit: int = 120) -> str:
    text = str(expr)
    return text if len(text) <= limit else f"{text[: limit // 2]} ... {text[-limit // 2 :]}"


@dataclass(frozen=True, slots=True)
class RationalFunction:
    """``numerator / denominator`` in QQ[parameter], coprime, denominator monic-normalised."""

    parameter: sympy.Symbol
    numerator: sympy.Poly
    denominator: sympy.Poly

    @classmethod
    def of(cls, expr: object, parameter: sympy.Symbol, *, where: str) -> RationalFunction:
        """Read ``expr`` as a rational function of ``parameter`` with rational coefficients.

        Raises ``InvalidArgument`` naming ``where`` when it is not one (e.g. ``exp(t)``, or a
        coefficient that is irrational or symbolic).
        """
        value = to_sympy(as_scalar(expr)) if not isinstance(expr, sympy.Basic) else expr
        together = sympy.cancel(sympy.together(value))
        top, bottom = sympy.fraction(together)
        try:
            numerator = sympy.Poly(top, parameter, domain=sympy.QQ)
            denominator = sympy.Poly(bottom, parameter, domain=sympy.QQ)
        except (sympy.PolynomialError, sympy.CoercionFailed, sympy.GeneratorsError) as error:
            raise InvalidArgument(
                f"{where}: {_short(value)} is not a rational function of {parameter} with "
                "rational coefficients"
            ) from error
        if denominator.is_zero:
            raise InvalidArgument(f"{where}: {_short(value)} divides by zero")
        lead = denominator.LC()
        return cls(parameter, numerator.quo_ground(lead), denominator.quo_ground(lead))

    def as_expr(self) -> sympy.Expr:
        return self.numerator.as_expr() / self.denominator.as_expr()

    def derivative_numerator(self) -> sympy.Poly:
        """``P' Q - P Q'``: its sign is the sign of the derivative where ``Q != 0``."""
        p, q = self.numerator, self.denominator
        return p.diff(self.parameter) * q - p * q.diff(self.parameter)

    def value_at(self, point: Scalar) -> Scalar:
        """The exact value at ``point`` (the denominator must not vanish there)."""
        if isinstance(point, Fraction):
            x = sympy.Rational(point.numerator, point.denominator)
            bottom = self.denominator.eval(x)
            if bottom == 0:
                raise InvalidArgument(
                    f"{abbreviated(self.as_expr())} has a pole at {abbreviated(point)}"
                )
            return as_scalar(self.numerator.eval(x) / bottom)
        x_expr = to_sympy(point)
        top = _poly_at(self.numerator, x_expr)
        bottom = _poly_at(self.denominator, x_expr)
        if certify.sign(bottom) == 0:
            raise InvalidArgument(
                f"{abbreviated(self.as_expr())} has a pole at {abbreviated(point)}"
            )
        if top.has(sympy.CRootOf) or bottom.has(sympy.CRootOf):
            return as_scalar(top / bottom)
        return as_scalar(sympy.radsimp(sympy.cancel(top / bottom)))

    def denominator_vanishes_at(self, point: Scalar) -> bool:
        if isinstance(point, Fraction):
            return bool(
                self.denominator.eval(sympy.Rational(point.numerator, point.denominator)) == 0
            )
        return certify.sign(_poly_at(self.denominator, to_sympy(point))) == 0


def _poly_at(poly: sympy.Poly, point: sympy.Expr) -> sympy.Expr:
    """``poly(point)`` for an algebraic ``point``, reduced modulo its minimal polynomial when it
    is a ``CRootOf`` (so that an exact zero stays visibly zero)."""
    if isinstance(point, sympy.CRootOf):
        own = point.poly
        minimal = sympy.Poly(own.as_expr().subs(own.gen, poly.gen), poly.gen, domain=sympy.QQ)
        reduced = poly.rem(minimal)
        if reduced.is_zero:
            return sympy.S.Zero
        return reduced.as_expr().subs(poly.gen, point)
    return sympy.expand(poly.as_expr().subs(poly.gen, point))


def compare_points(a: Scalar, b: Scalar) -> int:
    """Exact or certified comparison of two points (``Fraction``, algebraic numbers, ``±oo``)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return (a > b) - (a < b)
    return certify.compare(a, b)


def real_roots_between(
    poly: sympy.Poly, lower: Scalar, upper: Scalar, *, closed: bool = False
) -> list[Scalar]:
    """The distinct real roots of ``poly`` in ``(lower, upper)`` (``[lower, upper]`` when
    ``closed``), sorted; ``lower``/``upper`` may be ``±oo``.  Rational roots are ``Fraction``s."""
    if poly.is_zero:
        raise InvalidArgument("real_roots_between: the zero polynomial has every point as a root")
    if poly.degree() <= 0:
        return []

    def inside(value: Scalar) -> bool:
        low = compare_points(value, lower) if lower is not sympy.S.NegativeInfinity else 1
        high = compare_points(value, upper) if upper is not sympy.oo else -1
        return (low > 0 or (closed and low == 0)) and (high < 0 or (closed and high == 0))

    slope_offset = poly.all_coeffs() if poly.degree() == 1 else []
    if slope_offset and all(isinstance(c, sympy.Rational) for c in slope_offset):
        # a rational linear poly's one root -c0/c1, read off its coefficients (sympy's root
        # isolation took 2 ms a call of alpha_range's solution_set)
        slope, offset = slope_offset
        root = Fraction(-int(offset.p) * int(slope.q), int(offset.q) * int(slope.p))
        return [root] if inside(root) else []
    roots = dict.fromkeys(sympy.Poly(poly.as_expr(), poly.gen).real_roots())
    return [value for value in map(as_scalar, roots) if inside(value)]


def rational_between(a: Scalar, b: Scalar) -> Fraction:
    """A rational strictly between ``a < b`` (either may be ``±oo``)."""
    if a is sympy.S.NegativeInfinity and b is sympy.oo:
        return Fraction(0)
    if a is sympy.S.NegativeInfinity:
        return Fraction(math.floor(rational_bounds(b, 64)[0]) - 1)
    if b is sympy.oo:
        return Fraction(math.ceil(rational_bounds(a, 64)[1]) + 1)
    precision = 64
    while precision <= current_bounds().certified_precision:
        left = rational_bounds(a, precision)[1]
        right = rational_bounds(b, precision)[0]
        if left < right:
            return _simplest_between(left, right)
        precision *= 2
    raise Undecided(f"cannot separate {_short(a)} from {_short(b)}", expression=to_sympy(b))


def _simplest_between(low: Fraction, high: Fraction) -> Fraction:
    """The rational with the smallest denominator in the open interval ``(low, high)``."""
    floor = math.floor(low)
    if floor + 1 < high:
        return Fraction(floor + 1)
    # (low, high) lies in [floor, floor + 1]: recurse on the reciprocals of the offsets
    offset_low, offset_high = low - floor, high - floor
    if offset_low == 0:
        return floor + Fraction(1, math.floor(1 / offset_high) + 1)
    return floor + 1 / _simplest_between(1 / offset_high, 1 / offset_low)


def rational_bounds(value: Scalar, precision: int) -> tuple[Fraction, Fraction]:
    """Exact rationals ``lo <= value <= hi`` from a certified enclosure."""
    if isinstance(value, Fraction):
        return value, value
    ball = certify.enclosure(value, precision)
    return _exact(ball.lower()), _exact(ball.upper())


def _exact(value: object) -> Fraction:
    mantissa, exponent = value.mid().man_exp()  # type: ignore[attr-defined]
    power = int(exponent)
    scale = Fraction(2) ** power if power >= 0 else Fraction(1, 2**-power)
    return int(mantissa) * scale
