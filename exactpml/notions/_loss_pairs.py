"""Pairs of laws on R whose privacy loss is monotone in the output: the masses of loss cells.

For such a pair (P, Q) the outputs with ``L = log dP/dQ`` in ``(a, b]`` form an interval, so
the cell's P- and Q-masses are differences of CDFs.  :class:`LossPair` gives them in floats
(to *propose* cells) and as Arb balls (to *certify*):

* :class:`SubsampledGaussianPair` -- the Poisson-subsampled Gaussian at sensitivity 1, remove
  pair ``(1-q) N(0, σ²) + q N(1, σ²)`` vs ``N(0, σ²)`` and the reversed add pair (q = 1: the
  Gaussian mechanism); normal tails by ``erfc``, each from its smaller side;
* :class:`LaplacePair` -- Laplace noise, whose losses ±1/b are atoms (output sets of constant
  loss) beside a continuous part.

Used by :mod:`exactpml.notions._certified_pairs` (the lattice bounds) and by the cost
predictions of :mod:`exactpml.notions.dpsgd` (``float_moments``, ``float_range``).
"""

from __future__ import annotations

import math
from fractions import Fraction

from flint import arb, fmpq

from exactpml.notions._certified_lattice import working_precision

__all__ = ["LaplacePair", "LossPair", "SubsampledGaussianPair", "ball_rational"]

_SQRT2 = math.sqrt(2.0)


def ball_rational(value: Fraction) -> arb:
    """An exact Arb ball of a rational."""
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
        inner = ball_rational(t).expm1() + q
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
            s = ball_rational(self.sigma)
            found = (s, ball_rational(self.rate), 1 / (s * arb(2).sqrt()))
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
                    q = ball_rational(self.rate)
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
            scale = ball_rational(self.scale)
            start, end = ball_rational(u), ball_rational(v)
            p = ((-start / scale).exp() - (-end / scale).exp()) / 2
            q = (((end - 1) / scale).exp() - ((start - 1) / scale).exp()) / 2
            return p, q

    def ball_atoms(self, precision: int) -> list[tuple[Fraction, arb, arb]]:
        """The two atoms (loss, P-mass, Q-mass) as balls."""
        with working_precision(precision):
            small = (-1 / ball_rational(self.scale)).exp() / 2
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
