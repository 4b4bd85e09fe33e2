"""An exact privacy-loss distribution lifted onto the lattice ΔZ, as a pessimistic and an
optimistic lattice measure (the order of :mod:`exactpml.notions._certified_lattice`).

An atom of loss ``ℓ = log r`` and P-mass ``m`` (Q-mass ``m/r``) lies between the lattice points
``jΔ <= ℓ < (j+1)Δ``:

* pessimistic -- split it between the two points keeping both masses,
  ``b = (m - (m/r) e^{jΔ}) / (1 - e^{-Δ})`` at ``(j+1)Δ`` and ``m - b`` at ``jΔ``: connect-the-dots
  on the atom's own cell (Doroshenko et al. 2022, Algorithm 1), a pair of which the atom is a
  post-processing, so its products dominate the exact products (Blackwell); masses rounded up;
* optimistic -- move it down to ``jΔ`` (masses rounded down).

``ℓ`` is placed by Arb; a loss exactly on the lattice (``r = e^{jΔ}``, only ``r = 1`` for a
rational ``r``) is decided exactly by :func:`exactpml.core.decisions.exact_compare`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy
from flint import arb, fmpq

from exactpml.core.decisions import exact_compare
from exactpml.core.exact import Scalar, as_scalar, to_sympy
from exactpml.errors import Undecided
from exactpml.notions._certified_lattice import (
    LatticeMeasure,
    ball,
    ball_fraction,
    rounded_mass,
    working_precision,
)
from exactpml.notions.privacy_loss import PrivacyLossDistribution

__all__ = ["discrete_bounds"]


def _place(ratio: Scalar, resolution: Fraction) -> tuple[int, bool]:
    """(j, on_lattice): ``jΔ <= log(ratio) < (j+1)Δ``; on_lattice when ``log(ratio) = jΔ``."""
    if type(ratio) is Fraction and ratio == 1:
        return 0, True
    precision = 128
    while precision <= 1 << 12:
        with working_precision(precision):
            loss = ball(ratio, precision).log()
            low = math.floor(ball_fraction(loss, upper=False) / resolution)
            high = math.floor(ball_fraction(loss, upper=True) / resolution)
        if low == high:
            return low, False
        precision *= 2
    # the loss is within 2^-4096 of the lattice point high·Δ: decide it exactly
    point = as_scalar(sympy.exp(to_sympy(high * resolution)))
    order = exact_compare(ratio, point)
    if order == 0:
        return high, True
    if order < 0:
        return high - 1, False
    if high == low:  # pragma: no cover - covered by the loop
        return high, False
    raise Undecided(f"log({ratio}) cannot be placed on the lattice of step {resolution}")


def discrete_bounds(
    pld: PrivacyLossDistribution, resolution: Fraction, bits: int
) -> tuple[LatticeMeasure, LatticeMeasure]:
    """(pessimistic, optimistic) lattice measures bracketing ``pld`` (see the module docstring)."""
    upper: dict[int, int] = {}
    lower: dict[int, int] = {}
    precision = bits + 48
    with working_precision(precision):
        step = arb(fmpq(resolution.numerator, resolution.denominator))
        for loss, mass in zip(pld.losses, pld.masses, strict=True):
            index, on_lattice = _place(loss.ratio, resolution)
            p = ball(mass, precision)
            lower[index] = lower.get(index, 0) + rounded_mass(p, bits, up=False)
            if on_lattice:
                upper[index] = upper.get(index, 0) + rounded_mass(p, bits, up=True)
                continue
            q = p / ball(loss.ratio, precision)
            share = (p - q * (step * index).exp()) / -((-step).expm1())
            upper[index + 1] = upper.get(index + 1, 0) + rounded_mass(share, bits, up=True)
            upper[index] = upper.get(index, 0) + rounded_mass(p - share, bits, up=True)
        infinity = ball(pld.mass_at_infinity, precision)
        return (
            LatticeMeasure.from_numerators(
                True, resolution, bits, upper, rounded_mass(infinity, bits, up=True)
            ),
            LatticeMeasure.from_numerators(
                False, resolution, bits, lower, rounded_mass(infinity, bits, up=False)
            ),
        )
