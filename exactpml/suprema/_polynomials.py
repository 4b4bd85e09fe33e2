"""Polynomials in the construction parameter t with rational coefficients (private).

The priors of Saeidian et al.'s constructions (Thm 2.8; App. B.1-B.2, eqs. (B.3), (B.5))
are polynomials in t: every factor is ``1 - t`` or ``t/(m - 1)`` (or a constant).  For a
mechanism with rational probabilities, exp of the leakage along a construction is then a
maximum of ratios P(t)/Q(t) of such polynomials, and its limit as t -> 0+ is read off the
lowest-order nonzero coefficients -- exactly, with no sympy expression built for it:

    P(t)/Q(t) = (P_p t^p + ...)/(Q_q t^q + ...)  ->  0 if p > q,  P_p/Q_q if p = q,
                                                   sign(P_p/Q_q) * oo if p < q,

for P_p and Q_q the coefficients of the lowest powers where P and Q are nonzero (P = 0
gives 0).  A polynomial is a tuple of ``Fraction`` coefficients, lowest power first, with
no trailing zeros (the zero polynomial is ``()``).

>>> one_minus_t, two_t, t = (Fraction(1), Fraction(-1)), (Fraction(0), Fraction(2)), (0, 1)
>>> limit_at_zero(polynomial_product(one_minus_t, two_t), tuple(map(Fraction, t)))
Fraction(2, 1)
>>> limit_at_zero(one_minus_t, two_t)
oo
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from fractions import Fraction

import sympy

from exactpml.core.exact import Scalar
from exactpml.errors import InvalidArgument

__all__ = [
    "Polynomial",
    "concentrating_factor",
    "constant",
    "limit_at_zero",
    "polynomial_expression",
    "polynomial_product",
    "polynomial_sum",
    "scaled",
]

Polynomial = tuple[Fraction, ...]
"""Coefficients c_0, c_1, ... of c_0 + c_1 t + ..., without trailing zeros."""

_ZERO: Polynomial = ()


def _trimmed(coefficients: list[Fraction]) -> Polynomial:
    while coefficients and coefficients[-1] == 0:
        coefficients.pop()
    return tuple(coefficients)


def constant(value: Fraction) -> Polynomial:
    """The constant polynomial ``value``."""
    return _trimmed([value])


def concentrating_factor(favoured: bool, others: int) -> Polynomial:
    """One factor of the concentrating priors: ``1 - t`` on the favoured value, ``t/others``
    on each of the ``others`` other values (Thm 2.8; eq. (B.3))."""
    if favoured:
        return (Fraction(1), Fraction(-1))
    return (Fraction(0), Fraction(1, others))


def polynomial_sum(polynomials: Iterable[Polynomial]) -> Polynomial:
    total: list[Fraction] = []
    for polynomial in polynomials:
        if len(polynomial) > len(total):
            total.extend([Fraction(0)] * (len(polynomial) - len(total)))
        for power, coefficient in enumerate(polynomial):
            total[power] += coefficient
    return _trimmed(total)


def polynomial_product(*polynomials: Polynomial) -> Polynomial:
    result: Polynomial = (Fraction(1),)
    for polynomial in polynomials:
        if not polynomial or not result:
            return _ZERO
        product = [Fraction(0)] * (len(result) + len(polynomial) - 1)
        for i, a in enumerate(result):
            if a:
                for j, b in enumerate(polynomial):
                    product[i + j] += a * b
        result = _trimmed(product)
    return result


def scaled(polynomial: Polynomial, factor: Fraction) -> Polynomial:
    if not factor:
        return _ZERO
    return tuple(coefficient * factor for coefficient in polynomial)


def _lowest(polynomial: Polynomial) -> tuple[int, Fraction]:
    """(p, P_p): the lowest power with a nonzero coefficient, and that coefficient."""
    for power, coefficient in enumerate(polynomial):
        if coefficient:
            return power, coefficient
    raise InvalidArgument("the zero polynomial has no lowest-order coefficient")


def limit_at_zero(numerator: Polynomial, denominator: Polynomial) -> Scalar:
    """The exact limit of numerator(t)/denominator(t) as t -> 0+ (see the module docstring):
    a ``Fraction``, or ``sympy.oo`` / ``-sympy.oo``.  The denominator must not be zero."""
    if not denominator:
        raise InvalidArgument("limit_at_zero: the denominator is the zero polynomial")
    if not numerator:
        return Fraction(0)
    p, top = _lowest(numerator)
    q, bottom = _lowest(denominator)
    if p > q:
        return Fraction(0)
    if p == q:
        return top / bottom
    return sympy.oo if (top > 0) == (bottom > 0) else -sympy.oo


@functools.lru_cache(maxsize=4096)
def polynomial_expression(polynomial: Polynomial, t: sympy.Symbol) -> sympy.Expr:
    """The polynomial as a sympy expression in ``t`` (what ``sympy.Poly(...).as_expr()``
    gives for it: the canonical sum of c_k t^k).  Cached: the same weights and masses recur
    across outputs and entries."""
    return sympy.Add(
        *(
            sympy.Rational(c.numerator, c.denominator) * t**power
            for power, c in enumerate(polynomial)
            if c
        )
    )
