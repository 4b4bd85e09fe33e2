"""Pointwise maximal leakage of a continuous output, from the densities, in ball arithmetic.

Saeidian et al., *Rethinking Disclosure Prevention with PML*, §2.1 and Thm 2.4 with
densities (Lebesgue measure on R): exp l(X->y) = max_x p_{Y|X=x}(y) / p_Y(y) with
p_Y(y) = Σ_x p_X(x) p_{Y|X=x}(y), and for an entry D_i of X = (D_1, ..., D_n) (the first
line of App. B.3) exp l(D_i->y) = max_d p_{Y|D_i=d}(y) / p_Y(y) with
p_{Y|D_i=d}(y) = Σ_{x : x_i = d} p_X(x) p_{Y|X=x}(y) / P(D_i = d).

Used for Prop 4.6 (§4.1): the Laplace mechanism Lap(S/n, b) on binary databases,
p_{Y|X=x}(y) = e^{-|y - S(x)/n|/b} / (2b) with S(x) the number of ones, and the i.i.d.
prior Bern(p)^n.  Every database of {0, 1}^n is enumerated (no binomial grouping, no
closed form of B.3, no piece of exactpml's analysis between the atoms k/n); each density
is exp of an exact rational, evaluated as a python-flint ``arb`` ball, so the result is a
rigorous enclosure of the true value.  Nothing of :mod:`exactpml` is imported.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from flint import arb, ctx, fmpq

__all__ = ["laplace_counting_entry_ratios", "laplace_density"]


def _ball(value: Fraction) -> arb:
    return arb(fmpq(value.numerator, value.denominator))


def laplace_density(mean: Fraction, scale: Fraction, y: Fraction) -> arb:
    """The density of Lap(``mean``, ``scale``) at y: e^{-|y - mean|/b} / (2b), a ball at the
    current working precision."""
    return (_ball(-abs(y - mean) / scale)).exp() / _ball(2 * scale)


def laplace_counting_entry_ratios(
    n: int, scale: Fraction, p: Fraction, y: Fraction, *, entry: int = 0, bits: int = 128
) -> tuple[arb, arb, arb]:
    """(p_{Y|D_i=0}(y) / p_Y(y), p_{Y|D_i=1}(y) / p_Y(y), their maximum = exp l(D_i->y)) for
    Lap(S/n, b) on {0, 1}^n with X ~ Bern(p)^n, as ``arb`` balls computed at ``bits`` bits.

    Every database x is enumerated with its prior mass p^{S(x)} (1-p)^{n-S(x)} (exact) and
    its density at y; p_Y(y) > 0 for the Laplace density, so no convention is needed.

    One record, b = 1, p = 1/2, y = 1: p(1|x=1)/p_Y(1) = (1/2)/((1 + e^{-1})/4) = 2e/(e + 1).

    >>> low, high, best = laplace_counting_entry_ratios(1, Fraction(1), Fraction(1, 2), Fraction(1))
    >>> best.str(12, radius=False)
    '1.46211715726'
    >>> best.overlaps(2 * arb(1).exp() / (1 + arb(1).exp()))
    True
    """
    if not 0 < p < 1 or scale <= 0 or n < 1 or not 0 <= entry < n:
        raise ValueError(f"need n >= 1, 0 <= entry < n, b > 0, 0 < p < 1: {n, entry, scale, p}")
    with ctx.workprec(bits):
        joint = {0: arb(0), 1: arb(0)}
        for x in itertools.product((0, 1), repeat=n):
            ones = sum(x)
            mass = p**ones * (1 - p) ** (n - ones)
            joint[x[entry]] += _ball(mass) * laplace_density(Fraction(ones, n), scale, y)
        total = joint[0] + joint[1]
        ratios = (joint[0] / _ball(1 - p) / total, joint[1] / _ball(p) / total)
        return ratios[0], ratios[1], ratios[0].max(ratios[1])
