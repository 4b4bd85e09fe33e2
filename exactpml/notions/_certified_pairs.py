"""Certified lattice bounds for a pair of continuous laws: connect-the-dots above, garbling below.

A *loss pair* is a pair (P, Q) of laws on R whose privacy loss ``L = log dP/dQ`` is a monotone
function of the output, so the set of outputs with ``L in (a, b]`` is an interval and its P- and
Q-masses are differences of CDFs.  Two lattice measures bracket its privacy-loss distribution ω
in the order of :mod:`exactpml.notions._certified_lattice`:

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

from flint import arb, fmpq

from exactpml.notions._certified_lattice import (
    LatticeMeasure,
    ball_fraction,
    rounded_mass,
    working_precision,
)

__all__ = [
    "LaplacePair",
    "LossPair",
    "SubsampledGaussianPair",
    "connect_the_dots",
    "garbled",
]

_SQRT2 = math.sqrt(2.0)
_MARGIN = 2.0**-20  # the garbling aims at θ + margin·Δ, so that ℓ >= θ is certifiable
_COARSEST = 64  # cells are at most this many lattice steps wide


def _q(value: Fraction) -> arb:
    return arb(fmpq(value.numerator, value.denominator))


class LossPair:
    """A pair (P, Q) whose privacy loss is monotone in the output (see the module docstring).

    Subclasses give the masses of ``{a < L <= b}`` of the continuous part, in floats (to
    propose) and in Arb balls (to certify), and the atoms.  Loss bounds ``None`` / ``±inf``
    stand for ``∓∞``.
    """

    bottom: float = -math.inf  # the continuous part's losses lie in (bottom, top)
    top: float = math.inf
    heavy_top: bool = False  # the garbling is solved from this end (where mass piles up)

    def float_atoms(self) -> list[tuple[float, float]]:
        """(loss, P-mass) of the output sets of constant loss, in floats."""
        return []

    def ball_atoms(self, precision: int) -> list[tuple[Fraction, arb, arb]]:
        """(loss, P-mass, Q-mass) of the output sets of constant loss (loss exact)."""
        return []

    def float_mass(self, a: float, b: float) -> tuple[float, float]:  # pragma: no cover
        raise NotImplementedError

    def ball_mass(
        self, a: Fraction | None, b: Fraction | None, precision: int
    ) -> tuple[arb, arb]:  # pragma: no cover
        raise NotImplementedError

    def float_moments(self) -> tuple[float, float]:  # pragma: no cover
        """(E_P[L], Var_P[L]), in floats (for cost predictions only)."""
        raise NotImplementedError

    # --- shared float helpers --------------------------------------------------------
    def float_below(self, t: float) -> float:
        """P(L <= t), atoms included (float)."""
        mass = self.float_mass(-math.inf, t)[0] if t > self.bottom else 0.0
        return mass + sum(p for loss, p in self.float_atoms() if loss <= t)

    def float_above(self, t: float) -> float:
        """P(L > t), atoms included (float)."""
        mass = self.float_mass(t, math.inf)[0] if t < self.top else 0.0
        return mass + sum(p for loss, p in self.float_atoms() if loss > t)

    def float_range(self, tail: float) -> tuple[float, float]:
        """(lo, hi) with P(L <= lo) <= tail and P(L > hi) <= tail (bisection in floats)."""
        lo = self.bottom
        if math.isinf(lo):
            lo = -1.0
            while self.float_below(lo) > tail:
                lo *= 2
            high = lo / 2 if self.float_below(lo / 2) > tail else 0.0
            for _ in range(80):
                middle = (lo + high) / 2
                if self.float_below(middle) > tail:
                    high = middle
                else:
                    lo = middle
        hi = self.top
        if math.isinf(hi):
            hi = 1.0
            while self.float_above(hi) > tail:
                hi *= 2
            low = hi / 2 if self.float_above(hi / 2) > tail else max(lo, 0.0)
            for _ in range(80):
                middle = (low + hi) / 2
                if self.float_above(middle) > tail:
                    low = middle
                else:
                    hi = middle
        for loss, _ in self.float_atoms():
            lo, hi = min(lo, loss), max(hi, loss)
        return lo, hi

    def ball_mass_with_atoms(
        self, a: Fraction | None, b: Fraction | None, precision: int
    ) -> tuple[arb, arb]:
        """P- and Q-mass of ``{a < L <= b}`` (continuous part and atoms)."""
        p, q = self.ball_mass(a, b, precision)
        for loss, p_atom, q_atom in self.ball_atoms(precision):
            if (a is None or loss > a) and (b is None or loss <= b):
                p += p_atom
                q += q_atom
        return p, q


# --- the Gaussian family ---------------------------------------------------------------------
def _float_normal_mass(u: float, v: float) -> float:
    """P(u < Z <= v) for Z standard normal, from the smaller tail."""
    if u >= v:
        return 0.0
    if u >= 0:
        return 0.5 * (math.erfc(u / _SQRT2) - math.erfc(v / _SQRT2))
    if v <= 0:
        return 0.5 * (math.erfc(-v / _SQRT2) - math.erfc(-u / _SQRT2))
    return 1.0 - 0.5 * (math.erfc(-u / _SQRT2) + math.erfc(v / _SQRT2))


class _NormalValue:
    """Φ at one point as an Arb pair (Φ(z), 1 - Φ(z)), the smaller one computed directly.

    Built from ``scaled = z/√2``; ``None`` with ``infinite = ±1`` is z = ±∞.
    """

    __slots__ = ("above", "below", "positive")

    def __init__(self, scaled: arb | None, infinite: int = 0) -> None:
        if scaled is None:  # ±∞
            self.positive = infinite > 0
            self.below = arb(1) if infinite > 0 else arb(0)
            self.above = arb(0) if infinite > 0 else arb(1)
            return
        self.positive = bool(scaled.mid() >= 0)
        if self.positive:
            self.above = scaled.erfc() / 2
            self.below = 1 - self.above
        else:
            self.below = (-scaled).erfc() / 2
            self.above = 1 - self.below


def _ball_normal_mass(u: _NormalValue, v: _NormalValue) -> arb:
    """P(u < Z <= v) from the values at both ends, using the tails that were computed."""
    if u.positive:
        return (u.above - v.above).nonnegative_part()
    if not v.positive:
        return (v.below - u.below).nonnegative_part()
    return (1 - u.below - v.above).nonnegative_part()


class SubsampledGaussianPair(LossPair):
    """The Poisson-subsampled Gaussian pair at sensitivity 1.

    ``remove``: P = (1-q) N(0, σ²) + q N(1, σ²), Q = N(0, σ²), with loss
    ``L(x) = log(1 - q + q e^{(2x-1)/(2σ²)})`` increasing in x, so ``L <= t`` iff
    ``x <= x(t) = σ² log(1 + (e^t - 1)/q) + 1/2`` (all x when t <= log(1-q)).  ``add``: the
    reverse pair (P = N(0, σ²), Q the mixture), loss ``-L(x)``.  q = 1 is the Gaussian
    mechanism, whose two directions have one privacy-loss distribution.
    """

    def __init__(self, sigma: Fraction, rate: Fraction, *, remove: bool) -> None:
        self.sigma, self.rate, self.remove = sigma, rate, remove
        self._s, self._q = float(sigma), float(rate)
        edge = math.log1p(-self._q) if self._q < 1 else -math.inf
        if remove:
            self.bottom, self.top, self.heavy_top = edge, math.inf, False
        else:
            self.bottom, self.top, self.heavy_top = -math.inf, -edge, True
        self._cache: dict[tuple[Fraction, int], tuple[_NormalValue, _NormalValue]] = {}
        self._constant_cache: dict[int, tuple[arb, arb, arb]] = {}

    # x(t) of the remove pair's loss, in floats and balls
    def _float_x(self, t: float) -> float:
        s, q = self._s, self._q
        if math.isinf(t):
            return t
        if q == 1:
            return s * s * t + 0.5
        if t <= math.log1p(-q):
            return -math.inf
        if t > 30:
            return s * s * (t - math.log(q) + math.log1p(-(1 - q) * math.exp(-t))) + 0.5
        return s * s * math.log1p(math.expm1(t) / q) + 0.5

    def _float_components(self, x: float) -> tuple[float, float]:
        return x / self._s, (x - 1) / self._s

    def float_mass(self, a: float, b: float) -> tuple[float, float]:
        if self.remove:
            u, v = self._float_x(a), self._float_x(b)
        else:  # -L in (a, b]  iff  L in [-b, -a)
            u, v = self._float_x(-b), self._float_x(-a)
        if not u < v:
            return 0.0, 0.0
        zu0, zu1 = self._float_components(u) if u > -math.inf else (-math.inf, -math.inf)
        zv0, zv1 = self._float_components(v) if v < math.inf else (math.inf, math.inf)
        m0, m1 = _float_normal_mass(zu0, zv0), _float_normal_mass(zu1, zv1)
        mixture = (1 - self._q) * m0 + self._q * m1
        return (mixture, m0) if self.remove else (m0, mixture)

    def _values(self, t: Fraction | None, sign: int, precision: int) -> tuple[_NormalValue, ...]:
        """Φ of both components at x(t) (t None: x = sign·∞)."""
        if t is None:
            return _NormalValue(None, sign), _NormalValue(None, sign)
        key = (t, precision)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        s, q, scale = self._constants(precision)
        inner = _q(t).expm1() + q
        if self.rate < 1 and not inner > 0:
            if inner < 0:
                values = (_NormalValue(None, -1), _NormalValue(None, -1))
                self._cache[key] = values
                return values
            raise ArithmeticError("undecided edge")  # pragma: no cover - t = log(1-q)
        x = s * s * (inner / q).log() + arb(1) / 2
        values = (_NormalValue(x * scale), _NormalValue((x - 1) * scale))
        self._cache[key] = values
        return values

    def _constants(self, precision: int) -> tuple[arb, arb, arb]:
        """(σ, q, 1/(σ√2)) as balls at ``precision`` (cached)."""
        found = self._constant_cache.get(precision)
        if found is None:
            s = _q(self.sigma)
            found = (s, _q(self.rate), 1 / (s * arb(2).sqrt()))
            self._constant_cache[precision] = found
        return found

    def ball_mass(self, a: Fraction | None, b: Fraction | None, precision: int) -> tuple[arb, arb]:
        for _ in range(6):
            try:
                with working_precision(precision):
                    if self.remove:
                        low, high = self._values(a, -1, precision), self._values(b, 1, precision)
                    else:
                        low = self._values(None if b is None else -b, -1, precision)
                        high = self._values(None if a is None else -a, 1, precision)
                    m0 = _ball_normal_mass(low[0], high[0])
                    m1 = _ball_normal_mass(low[1], high[1])
                    q = _q(self.rate)
                    mixture = (1 - q) * m0 + q * m1
                    return (mixture, m0) if self.remove else (m0, mixture)
            except ArithmeticError:  # pragma: no cover - a boundary within the ball of the edge
                precision *= 2
        raise ArithmeticError("a cell boundary cannot be placed against log(1-q)")

    def float_moments(self) -> tuple[float, float]:
        s, q = self._s, self._q
        lo, hi = -14 * s, 1 + 14 * s
        count = 4000
        step = (hi - lo) / count
        first = second = 0.0
        for i in range(count + 1):
            x = lo + i * step
            weight = (1 if i in (0, count) else (4 if i % 2 else 2)) * step / 3
            exponent = (2 * x - 1) / (2 * s * s)
            loss = (
                exponent + math.log(q) + math.log1p((1 - q) / q * math.exp(-exponent))
                if exponent > 0
                else math.log1p(q * math.expm1(exponent))
            )
            d0 = math.exp(-x * x / (2 * s * s)) / (s * math.sqrt(2 * math.pi))
            d1 = math.exp(-((x - 1) ** 2) / (2 * s * s)) / (s * math.sqrt(2 * math.pi))
            density = (1 - q) * d0 + q * d1 if self.remove else d0
            value = loss if self.remove else -loss
            first += weight * density * value
            second += weight * density * value * value
        return first, max(second - first * first, 0.0)


# --- Laplace -----------------------------------------------------------------------------
class LaplacePair(LossPair):
    """Laplace noise of scale b at sensitivity 1: P = Lap(0, b), Q = Lap(1, b).

    The loss ``(|x-1| - |x|)/b`` is ``1/b`` for x <= 0 (P-mass 1/2, Q-mass e^{-1/b}/2),
    ``-1/b`` for x >= 1 (P-mass e^{-1/b}/2, Q-mass 1/2) and ``(1 - 2x)/b`` in between, so
    ``a < L <= c`` (inside (-1/b, 1/b)) iff ``ξ(c) <= x < ξ(a)`` with ``ξ(t) = (1 - bt)/2``.
    The pair is symmetric: both directions have this privacy-loss distribution.
    """

    def __init__(self, scale: Fraction) -> None:
        self.scale = scale
        self._b = float(scale)
        self.bottom, self.top = -1 / self._b, 1 / self._b
        self.heavy_top = False

    def _float_xi(self, t: float) -> float:
        return min(max((1 - self._b * t) / 2, 0.0), 1.0)

    def float_mass(self, a: float, b: float) -> tuple[float, float]:
        u, v = self._float_xi(b), self._float_xi(a)  # x in [u, v)
        if not u < v:
            return 0.0, 0.0
        scale = self._b
        p = 0.5 * (math.exp(-u / scale) - math.exp(-v / scale))
        q = 0.5 * (math.exp((v - 1) / scale) - math.exp((u - 1) / scale))
        return p, q

    def float_atoms(self) -> list[tuple[float, float]]:
        small = 0.5 * math.exp(-1 / self._b)
        return [(1 / self._b, 0.5), (-1 / self._b, small)]

    def _xi(self, t: Fraction | None, default: Fraction) -> Fraction:
        if t is None:
            return default
        return min(max((1 - self.scale * t) / 2, Fraction(0)), Fraction(1))

    def ball_mass(self, a: Fraction | None, b: Fraction | None, precision: int) -> tuple[arb, arb]:
        with working_precision(precision):
            u, v = self._xi(b, Fraction(0)), self._xi(a, Fraction(1))
            if not u < v:
                return arb(0), arb(0)
            scale = _q(self.scale)
            p = ((-_q(u) / scale).exp() - (-_q(v) / scale).exp()) / 2
            q = (((_q(v) - 1) / scale).exp() - ((_q(u) - 1) / scale).exp()) / 2
            return p, q

    def ball_atoms(self, precision: int) -> list[tuple[Fraction, arb, arb]]:
        """The two atoms (loss, P-mass, Q-mass) as balls."""
        with working_precision(precision):
            small = (-1 / _q(self.scale)).exp() / 2
            half = arb(1) / 2
            return [(1 / self.scale, half, small), (-1 / self.scale, small, half)]

    def float_moments(self) -> tuple[float, float]:
        b = self._b
        count = 2000
        first = second = 0.0
        for i in range(count):
            x = (i + 0.5) / count
            loss = (1 - 2 * x) / b
            density = math.exp(-x / b) / (2 * b) / count
            first += density * loss
            second += density * loss * loss
        small = 0.5 * math.exp(-1 / b)
        first += 0.5 / b - small / b
        second += (0.5 + small) / (b * b)
        return first, max(second - first * first, 0.0)


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
    its width in steps squared under 2^-10: the variance it could add or lose is negligible)
    over which the loss density changes by less than a factor e^(1/4) (so the second-order
    error of merging or splitting it is a fraction of a percent of its own small part)."""
    first, second = (end, end + width), (end + width, end + 2 * width)
    if not forward:
        first, second = (end - width, end), (end - 2 * width, end - width)
    near, far = pair.float_mass(*first)[0], pair.float_mass(*second)[0]
    total = near + far
    if total <= coarse_mass:
        return True
    if near <= 0 or far <= 0 or total * (2 * width / step) ** 2 > 2.0**-10:
        return False
    return abs(math.log(far / near)) <= 0.25


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
