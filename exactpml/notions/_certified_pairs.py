"""Certified lattice bounds for a pair of continuous laws: connect-the-dots above, garbling below.

For a *loss pair* (P, Q) (:mod:`exactpml.notions._loss_pairs`: the privacy loss
``L = log dP/dQ`` is monotone in the output, so loss cells are intervals with masses from
CDF differences), two lattice measures bracket its privacy-loss distribution ω in the order
of :mod:`exactpml.notions._certified_lattice`:

* **above: connect the dots** (Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022, Algorithm 1;
  dp_accounting's default).  Split the losses at lattice points ``t_0 < ... < t_n`` into cells;
  the P/Q-masses ``(p, q)`` of the cell ``(t_i, t_{i+1}]`` go to its two ends with both masses
  kept: ``b = (p - q e^{t_i}) / (1 - e^{t_i - t_{i+1}})`` at ``t_{i+1}`` and ``p - b`` at ``t_i``
  (both >= 0 because every loss in the cell lies between the ends).  The resulting pair has
  hockey-stick curve ``α -> H_α`` equal to the true one at every ``α = e^{t_i}`` and linear in
  between (and the chord from ``(0, 1)`` below ``t_0``, ``δ(t_n)`` above ``t_n``), so it lies
  above the true curve, which is convex in α: the pair dominates (P, Q) at every α >= 0, hence
  (P, Q) is a post-processing of it (Blackwell's theorem for dichotomies), hence so are all
  their k-fold products.  Below ``t_0`` all P-mass moves up to ``t_0``, above ``t_n`` the
  surplus goes to ``+∞``.
* **below: a garbling, rounded down.**  Merge the outputs of each loss cell ``(a, b]`` into one
  output: a post-processing, so its product pairs are dominated by the true ones.  The merged
  output has loss ``ℓ = log(p/q)`` somewhere inside the cell; it is moved *down* to the lattice
  (``⌊ℓ/Δ⌋Δ``).  The cell ends are *proposed* in floating point so that ``ℓ`` lands just above a
  lattice point (a root of ``p - e^θ q = 0`` in the free end): the rounding then costs almost
  nothing and the error is the garbling's, second order in the cell width.  The placement of
  every cell is certified by Arb (``p - e^θ q >= 0``), else the cell goes one lattice point
  lower (still a bound, looser).

Masses are Arb balls of CDF differences (Gaussian tails by ``erfc``), rounded outward to
``2^-bits``.  Floats only choose the cells.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from fractions import Fraction

from flint import arb

from exactpml.notions._certified_lattice import (
    LatticeMeasure,
    ball_fraction,
    rounded_mass,
    working_precision,
)
from exactpml.notions._loss_pairs import LossPair
from exactpml.notions._loss_pairs import ball_rational as _q

__all__ = ["connect_the_dots", "garbled"]

_MARGIN = 2.0**-20  # the garbling aims at θ + margin·Δ, so that ℓ >= θ is certifiable
_COARSEST = 64  # cells are at most this many lattice steps wide


# --- the two discretisations ---------------------------------------------------------------------
def _fine_cells(pair: LossPair, resolution: Fraction, tail: float) -> tuple[int, int]:
    """Lattice indices (first, last) spanning the losses that carry more than ``tail``."""
    lo, hi = pair.float_range(tail)
    step = float(resolution)
    return math.floor(lo / step), math.ceil(hi / step)


def _grouped(
    pair: LossPair, resolution: Fraction, first: int, last: int, coarse_mass: float
) -> Iterator[int]:
    """Dots from ``first`` to ``last``: every lattice point, except where :func:`_may_widen`
    lets cells merge (up to ``_COARSEST`` steps; never across an atom)."""
    step = float(resolution)
    pinned = sorted(
        {
            i
            for loss, _ in pair.float_atoms()
            for i in (math.floor(loss / step), math.ceil(loss / step))
        }
    )
    index = first
    yield index
    while index < last:
        stop = next((i for i in pinned if i > index), last)
        width = 1
        while (
            width < _COARSEST
            and index + 2 * width <= min(last, stop)
            and _may_widen(pair, index * step, width * step, step, coarse_mass, True)
        ):
            width *= 2
        index = min(index + width, last)
        yield index


def connect_the_dots(
    pair: LossPair,
    resolution: Fraction,
    bits: int,
    *,
    tail: float,
    coarse_mass: float,
) -> LatticeMeasure:
    """The pessimistic lattice measure of ``pair``: connect-the-dots, masses rounded up."""
    first, last = _fine_cells(pair, resolution, tail)
    dots = list(_grouped(pair, resolution, first, last, coarse_mass))
    precision = bits + 48
    masses: dict[int, int] = {}

    def add(index: int, value: arb) -> None:
        masses[index] = masses.get(index, 0) + rounded_mass(value, bits, up=True)

    with working_precision(precision):
        bottom = dots[0] * resolution
        add(dots[0], pair.ball_mass_with_atoms(None, bottom, precision)[0])
        for left, right in itertools.pairwise(dots):
            a, b = left * resolution, right * resolution
            p, q = pair.ball_mass_with_atoms(a, b, precision)
            lower_end = _q(a).exp()
            share = (p - q * lower_end) / -((_q(a - b)).expm1())
            add(right, share)
            add(left, p - share)
        top = dots[-1] * resolution
        p, q = pair.ball_mass_with_atoms(top, None, precision)
        at_top = q * _q(top).exp()
        add(dots[-1], at_top)
        infinity = rounded_mass(p - at_top, bits, up=True)
    return LatticeMeasure.from_numerators(True, resolution, bits, masses, infinity)


def _solve_end(
    pair: LossPair, fixed: float, theta: float, guess: float, *, forward: bool, tolerance: float
) -> float | None:
    """The free end of a cell whose other end is ``fixed`` and whose merged loss is ``theta``.

    Forward: b > theta with P(fixed, b] = e^θ Q(fixed, b]; backward: a < theta with
    P(a, fixed] = e^θ Q(a, fixed] (floats; ``guess`` is a first far end), to within
    ``tolerance``.  The root is kept on the side where ``p - e^θ q >= 0`` (merged loss at
    least θ).  None when the support ends first.
    """
    ratio = math.exp(theta)

    def excess(end: float) -> float:
        p, q = pair.float_mass(fixed, end) if forward else pair.float_mass(end, fixed)
        return p - ratio * q

    # Forward, excess <= 0 at theta and grows with b; backward, excess >= 0 at theta and
    # falls as a decreases.  Expand towards the support's end until the sign changes.
    limit = pair.top if forward else pair.bottom
    inner, outer = theta, guess
    value_outer = excess(outer)
    for _ in range(60):
        if (value_outer >= 0) == forward:
            break
        if outer == limit:
            return None
        distance = 2 * abs(outer - theta)
        inner, outer = outer, theta + distance if forward else theta - distance
        if (forward and outer > limit) or (not forward and outer < limit):
            outer = limit
        value_outer = excess(outer)
    else:
        return None
    value_inner = excess(inner)
    # Illinois on the bracket; ``good`` is the end with excess >= 0 (merged loss >= theta)
    good, bad = (outer, inner) if forward else (inner, outer)
    value_good, value_bad = (value_outer, value_inner) if forward else (value_inner, value_outer)
    side = 0  # the end replaced last (+1 good, -1 bad): Illinois halves a stale end
    for _ in range(100):
        if value_good == value_bad or not math.isfinite(bad):
            break
        guessed = good - value_good * (good - bad) / (value_good - value_bad)
        if not min(good, bad) < guessed < max(good, bad):
            guessed = (good + bad) / 2
        value = excess(guessed)
        if value >= 0:
            good, value_good = guessed, value
            if side == 1:
                value_bad /= 2
            side = 1
        else:
            bad, value_bad = guessed, value
            if side == -1:
                value_good /= 2
            side = -1
        if abs(good - bad) <= max(tolerance, 1e-15 * abs(good)):
            break
    return good


def _may_widen(
    pair: LossPair, end: float, width: float, step: float, coarse_mass: float, forward: bool
) -> bool:
    """Whether a cell of ``2 width`` from ``end`` may replace two of ``width`` (floats; tightness
    only).  Yes when it carries under ``coarse_mass``, or when it is a tail cell (its mass times
    its width in steps squared under 2^-16: the variance it could add or lose is negligible)
    over which the loss density changes by less than a factor e^(1/8) (so the second-order
    error of merging or splitting it is about 0.1% of its own small part; 2^-10 and e^(1/4)
    made one Gaussian step's bracket 30 times wider at Δ = 1/16, where ε sits in the tail)."""
    first, second = (end, end + width), (end + width, end + 2 * width)
    if not forward:
        first, second = (end - width, end), (end - 2 * width, end - width)
    near, far = pair.float_mass(*first)[0], pair.float_mass(*second)[0]
    total = near + far
    if total <= coarse_mass:
        return True
    if near <= 0 or far <= 0 or total * (2 * width / step) ** 2 > 2.0**-16:
        return False
    return abs(math.log(far / near)) <= 0.125


def _cell_width(
    pair: LossPair, end: float, step: float, coarse_mass: float, forward: bool
) -> float:
    """Δ, doubled (up to ``_COARSEST`` Δ) while :func:`_may_widen` allows."""
    width = step
    while width < _COARSEST * step and _may_widen(pair, end, width, step, coarse_mass, forward):
        width *= 2
    return width


def _float_cells(
    pair: LossPair, resolution: Fraction, tail: float, coarse_mass: float
) -> list[tuple[float, float, int]]:
    """Cells (a, b, target index) of the continuous part, each proposed so that its merged loss
    is just above ``target·Δ``; they are solved from the end where the mass piles up.

    A finite end of the support is the open end of the first cell (``-inf``/``inf``); past an
    infinite end the losses beyond the ``tail`` quantile are dropped; the last cell runs to the
    far end and its target is a lattice point below all its losses.
    """
    step = float(resolution)
    lo, hi = pair.float_range(tail)
    lo, hi = max(lo, pair.bottom), min(hi, pair.top)
    cells: list[tuple[float, float, int]] = []
    if not pair.heavy_top:
        start = pair.bottom if math.isfinite(pair.bottom) else lo
        a, open_end = start, -math.inf if math.isfinite(pair.bottom) else start
        while True:
            width = _cell_width(pair, a, step, coarse_mass, True)
            target = math.ceil((a + width / 2) / step)
            theta = (target + _MARGIN) * step
            end = None
            if theta < hi:
                end = _solve_end(
                    pair, open_end, theta, 2 * theta - a, forward=True, tolerance=step * 2.0**-24
                )
            if end is None or end >= hi:
                last = math.inf if math.isfinite(pair.top) or hi >= pair.top else hi
                cells.append((open_end, last, math.floor(a / step)))
                return cells
            cells.append((open_end, end, target))
            a = open_end = end
    start = pair.top if math.isfinite(pair.top) else hi
    b, open_end = start, math.inf if math.isfinite(pair.top) else start
    while True:
        width = _cell_width(pair, b, step, coarse_mass, False)
        target = math.floor((b - width / 2) / step)
        theta = (target + _MARGIN) * step
        found = None
        if theta > lo:
            found = _solve_end(
                pair, open_end, theta, 2 * theta - b, forward=False, tolerance=step * 2.0**-24
            )
        if found is None or found <= lo:
            first = -math.inf if math.isfinite(pair.bottom) or lo <= pair.bottom else lo
            cells.append(
                (first, open_end, math.floor(first / step) if first > -math.inf else target)
            )
            cells.reverse()
            return cells
        cells.append((found, open_end, target))
        b = open_end = found


def _fraction_or_none(value: float) -> Fraction | None:
    return Fraction(value) if math.isfinite(value) else None


def garbled(
    pair: LossPair,
    resolution: Fraction,
    bits: int,
    *,
    tail: float,
    coarse_mass: float,
) -> LatticeMeasure:
    """The optimistic lattice measure of ``pair``: a garbling into loss cells, moved down."""
    cells = _float_cells(pair, resolution, tail, coarse_mass)
    for (_, end, _), (start, _, _) in itertools.pairwise(cells):
        if end != start:  # pragma: no cover - the proposal chains its cells
            raise AssertionError("garbling cells must be contiguous (a partition of the outputs)")
    masses: dict[int, int] = {}
    precision = bits + 48
    with working_precision(precision):
        step = _q(resolution)
        for a, b, target in cells:
            low, high = _fraction_or_none(a), _fraction_or_none(b)
            p, q = pair.ball_mass(low, high, precision)
            numerator = rounded_mass(p, bits, up=False)
            if not numerator:
                continue
            index = _certified_index(p, q, target, step, resolution)
            if index is None:
                continue  # no certified lower loss (an empty or unbounded cell): dropped
            masses[index] = masses.get(index, 0) + numerator
        for loss, p_atom, _ in pair.ball_atoms(precision):
            index = math.floor(loss / resolution)
            masses[index] = masses.get(index, 0) + rounded_mass(p_atom, bits, up=False)
    return LatticeMeasure.from_numerators(False, resolution, bits, masses, 0)


def _certified_index(p: arb, q: arb, target: int, step: arb, resolution: Fraction) -> int | None:
    """The largest lattice index ``i <= target`` with ``p - e^{iΔ} q >= 0`` certified: the
    merged output's loss log(p/q) is at least iΔ."""
    if (p - (step * target).exp() * q).lower() >= 0:
        return target
    if not p.lower() > 0 or not q.upper() > 0:
        return None
    loss = (p.lower() / q.upper()).log()
    if not loss.is_finite():
        return None
    return min(math.floor(ball_fraction(loss, upper=False) / resolution), target)
