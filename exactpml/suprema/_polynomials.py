"""Polynomials in the construction parameter t with rational coefficients (private).

The priors of Saeidian et al.'s constructions (Thm 2.8; App. B.1-B.2, eqs. (B.3), (B.5))
are polynomials in t: every factor is ``1 - t`` or ``t/(m - 1)`` (or a constant), so the
weight of each input is c t^b (1 - t)^a (a :data:`Weight`), and sums of weights are
expanded by the binomial theorem (:func:`weighted_sum`).  For a
mechanism with rational probabilities, exp of the leakage along a construction is then a
maximum of ratios P(t)/Q(t) of such polynomials, and its limit as t -> 0+ is read off the
lowest-order nonzero coefficients -- exactly, with no sympy expression built for it:

    P(t)/Q(t) = (P_p t^p + ...)/(Q_q t^q + ...)  ->  0 if p > q,  P_p/Q_q if p = q,
                                                   sign(P_p/Q_q) * oo if p < q,

for P_p and Q_q the coefficients of the lowest powers where P and Q are nonzero (P = 0
gives 0).  A polynomial is a tuple of ``Fraction`` coefficients, lowest power first, with
no trailing zeros (the zero polynomial is ``()``).

>>> one_minus_t = weighted_sum([(Fraction(1), concentrating_factor(True, 1))])
>>> two_t, t = (Fraction(0), Fraction(2)), (Fraction(0), Fraction(1))
>>> one_minus_t
(Fraction(1, 1), Fraction(-1, 1))
>>> limit_at_zero(polynomial_product(one_minus_t, two_t), t)
Fraction(2, 1)
>>> limit_at_zero(one_minus_t, two_t)
oo
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from fractions import Fraction

import sympy

from exactpml.core.exact import Scalar
from exactpml.errors import InvalidArgument

__all__ = [
    "Polynomial",
    "Weight",
    "concentrating_factor",
    "constant",
    "limit_at_zero",
    "polynomial_expression",
    "polynomial_product",
    "polynomial_sum",
    "scaled",
    "weight_product",
    "weighted_sum",
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


Weight = tuple[Fraction, int, int]
"""``(c, b, a)``: the prior weight c t^b (1 - t)^a of one input along a construction."""


def concentrating_factor(favoured: bool, others: int) -> Weight:
    """One factor of the concentrating priors: ``1 - t`` on the favoured value, ``t/others``
    on each of the ``others`` other values (Thm 2.8; eq. (B.3))."""
    if favoured:
        return (Fraction(1), 0, 1)
    return (Fraction(1, others), 1, 0)


def weight_product(*factors: Weight) -> Weight:
    """The product of weights c t^b (1 - t)^a."""
    coefficient, t_power, rest_power = Fraction(1), 0, 0
    for c, b, a in factors:
        coefficient *= c
        t_power += b
        rest_power += a
    return coefficient, t_power, rest_power


def weighted_sum(terms: Iterable[tuple[Fraction, Weight]]) -> Polynomial:
    """sum of s * c t^b (1 - t)^a over the terms (s, (c, b, a)), expanded: the weights are
    grouped by (b, a) first, so each power t^b (1 - t)^a is expanded once."""
    grouped: dict[tuple[int, int], Fraction] = {}
    for scale, (c, b, a) in terms:
        if scale:
            grouped[b, a] = grouped.get((b, a), Fraction(0)) + scale * c
    if not grouped:
        return _ZERO
    coefficients = [Fraction(0)] * (1 + max(b + a for b, a in grouped))
    for (b, a), total in grouped.items():
        for k in range(a + 1):
            term = total * math.comb(a, k)
            coefficients[b + k] += -term if k % 2 else term
    return _trimmed(coefficients)


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
