"""Privacy-loss measures on the lattice ΔZ, rounded one way, composed by FLINT integer products.

A :class:`LatticeMeasure` is a finite non-negative measure on the losses ``iΔ`` (plus an atom at
``+∞``) whose masses are dyadic rationals ``N_i / 2^bits`` kept as one :class:`flint.fmpz_poly`.
It is *pessimistic* (every rounding makes it larger: masses rounded up, losses moved up, mass cut
from the top moved to ``+∞``) or *optimistic* (masses rounded down, losses moved down, mass cut
from the bottom dropped).  The hockey-stick value of a measure μ at ε is

    δ_μ(ε) = μ({+∞}) + Σ_i μ_i (1 - e^{ε - iΔ})_+ ,

the privacy-loss form of the hockey-stick divergence (thesis, Prop 8; Sommer, Meiser, Mohammadi
2019, Def 2).  Two facts make each side a bound through any number of compositions:

* ``(1 - e^{ε - s})_+`` is non-negative and non-decreasing in ``s`` (and 1 at ``s = +∞``), so
  δ_μ(ε) grows when mass is added or moved up;
* convolution of non-negative measures preserves "larger after moving mass up and adding mass"
  (couple the two factors' transports), and the law of a sum of independent losses is the
  convolution (Sommer et al., Thm 1) -- here one polynomial product.

So if ``μ_low ⪯ ω ⪯ μ_up`` for the privacy-loss distribution ω of a pair, then
``δ_{μ_low^{*k}} <= δ_{ω^{*k}} <= δ_{μ_up^{*k}}`` at every ε, whatever roundings are applied in
the right direction between the products.  Everything here is exact integer arithmetic or Arb
balls read at the side's end; the float arithmetic elsewhere only proposes where to cut.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from fractions import Fraction

import sympy
from flint import arb, arb_poly, ctx, fmpq, fmpz, fmpz_poly

from exactpml.core import certify
from exactpml.core.exact import Scalar, to_sympy
from exactpml.errors import InvalidArgument, Undecided

__all__ = ["LatticeMeasure", "ball", "ball_fraction", "rounded_mass", "working_precision"]

_MAX_PRECISION = 1 << 14


def working_precision(bits: int) -> AbstractContextManager[None]:
    """Arb's working precision (bits) inside a ``with`` block (python-flint's ``workprec``)."""
    return ctx.workprec(bits)


def ball(value: Scalar | int, precision: int) -> arb:
    """An Arb enclosure of an exact value (a Fraction, an int or a closed sympy number)."""
    if isinstance(value, int):
        return arb(value)
    if type(value) is Fraction:
        return arb(fmpq(value.numerator, value.denominator))
    return certify.enclosure(to_sympy(value), precision)


def ball_fraction(value: arb, *, upper: bool) -> Fraction:
    """The upper (or lower) end of a finite ball, exactly, as a dyadic Fraction."""
    end = value.upper() if upper else value.lower()
    if not end.is_finite():
        raise Undecided(f"a certified enclosure is not finite ({value})")
    pair = end.man_exp()
    mantissa, exponent = int(pair[0]), int(pair[1])
    return Fraction(mantissa * 2**exponent) if exponent >= 0 else Fraction(mantissa, 2**-exponent)


def rounded_mass(value: arb, bits: int, *, up: bool) -> int:
    """``⌈upper(value)·2^bits⌉`` (up) or ``⌊lower(value)·2^bits⌋``, at least 0."""
    end = value.upper() if up else value.lower()
    if not end.is_finite():
        raise Undecided(f"a certified enclosure is not finite ({value})")
    scaled = end * (fmpz(1) << bits)  # exact: a power of two
    integer = (scaled.ceil() if up else scaled.floor()).unique_fmpz()
    assert integer is not None  # the end of a ball is exact, so is its floor
    return max(int(integer), 0)


def _ones(length: int) -> fmpz_poly:
    """1 + x + ... + x^(length-1)."""
    return (fmpz_poly([1]).left_shift(length) - 1) // fmpz_poly([-1, 1])


def _top_sum(poly: fmpz_poly, count: int) -> int:
    """The sum of the ``count`` highest coefficients (of ``poly.length()``)."""
    return int(poly.right_shift(poly.length() - count)(1))


def _bottom_sum(poly: fmpz_poly, count: int) -> int:
    return int(poly.truncate(count)(1))


def _largest_cut(total: Callable[[int], int], length: int, budget: int) -> tuple[int, int]:
    """(m, s): the largest m < length with total(m) <= budget (total non-decreasing), s = total(m).

    Exponential then binary search, so the work is proportional to the part cut off.
    """
    if budget < 0 or length <= 1:
        return 0, 0
    low, low_sum, high = 0, 0, 1
    while high < length:
        value = total(high)
        if value > budget:
            break
        low, low_sum = high, value
        high *= 2
    high = min(high, length)
    while high - low > 1:
        middle = (low + high) // 2
        value = total(middle)
        if value <= budget:
            low, low_sum = middle, value
        else:
            high = middle
    return low, low_sum


@dataclass(frozen=True, slots=True)
class LatticeMeasure:
    """A measure on ``{iΔ} ∪ {+∞}`` with masses ``numerators[i - lowest] / 2^bits``.

    Attributes:
        pessimistic: True when every rounding made the measure larger (an upper bound), False
            when every rounding made it smaller (a lower bound).
        resolution: the lattice step Δ (a positive rational).
        bits: the masses are integer multiples of ``2^-bits``.
        lowest: the lattice index of the polynomial's constant term.
        numerators: the masses times ``2^bits`` (non-negative coefficients).
        infinity: the mass at ``+∞`` times ``2^bits``.
    """

    pessimistic: bool
    resolution: Fraction
    bits: int
    lowest: int
    numerators: fmpz_poly
    infinity: int

    def __hash__(self) -> int:
        """From the shape and the total mass (``fmpz_poly`` itself is unhashable)."""
        total = int(self.numerators(1)) if self.numerators.length() else 0
        return hash((self.pessimistic, self.resolution, self.bits, self.lowest, self.length, total))

    # --- building ------------------------------------------------------------------------
    @classmethod
    def unit(cls, pessimistic: bool, resolution: Fraction, bits: int) -> LatticeMeasure:
        """The measure of zero loss (mass 1 at 0): the identity of composition."""
        return cls(pessimistic, resolution, bits, 0, fmpz_poly([1 << bits]), 0)

    @classmethod
    def from_numerators(
        cls,
        pessimistic: bool,
        resolution: Fraction,
        bits: int,
        numerators: dict[int, int],
        infinity: int,
    ) -> LatticeMeasure:
        """The measure with ``numerators[i] / 2^bits`` at ``iΔ`` (non-negative ints)."""
        kept = {i: n for i, n in numerators.items() if n}
        if any(n < 0 for n in kept.values()) or infinity < 0:
            raise InvalidArgument("lattice masses must be non-negative")
        if not kept:
            return cls(pessimistic, resolution, bits, 0, fmpz_poly([]), infinity)
        lowest = min(kept)
        coefficients = [0] * (max(kept) - lowest + 1)
        for index, numerator in kept.items():
            coefficients[index - lowest] = numerator
        return cls(pessimistic, resolution, bits, lowest, fmpz_poly(coefficients), infinity)

    @property
    def length(self) -> int:
        """The number of lattice points from the lowest to the highest mass."""
        return int(self.numerators.length())

    def total(self) -> int:
        """The finite mass times ``2^bits``."""
        return int(self.numerators(1)) if self.length else 0

    # --- composition ---------------------------------------------------------------------
    def _check_compatible(self, other: LatticeMeasure) -> None:
        if (self.pessimistic, self.resolution, self.bits) != (
            other.pessimistic,
            other.resolution,
            other.bits,
        ):
            raise InvalidArgument(
                "lattice measures compose only on one lattice, one side and one precision "
                f"(resolution {self.resolution} vs {other.resolution}, bits {self.bits} vs "
                f"{other.bits}, pessimistic {self.pessimistic} vs {other.pessimistic})"
            )

    def compose(self, other: LatticeMeasure, *, tail: int = 0) -> LatticeMeasure:
        """The law of the sum of independent losses, rounded and cut back in the side's direction.

        The exact product has masses over ``2^(2 bits)``; each is rounded to ``2^-bits`` (up:
        ``⌊c/2^bits⌋ + 1``, down: ``⌊c/2^bits⌋``), then at most ``tail / 2^bits`` of mass is cut
        from each end (:meth:`truncated`).
        """
        self._check_compatible(other)
        scale = self.bits
        if not self.length or not other.length:
            product = fmpz_poly([])
        else:
            product = self.numerators * other.numerators
        total_self, total_other = self.total(), other.total()
        infinity = self.infinity * (total_other + other.infinity) + total_self * other.infinity
        divisor = fmpz(1) << scale
        rounded = product // divisor if product.length() else product
        if self.pessimistic:
            if product.length():
                rounded += _ones(int(product.length()))
            infinity = -((-infinity) >> scale)  # ceiling
        else:
            infinity >>= scale
        measure = LatticeMeasure(
            self.pessimistic,
            self.resolution,
            self.bits,
            self.lowest + other.lowest,
            rounded,
            infinity,
        )
        return measure.truncated(tail)

    def truncated(self, tail: int) -> LatticeMeasure:
        """Cut at most ``tail / 2^bits`` of mass from each end, in the side's direction.

        Pessimistic: the top part goes to ``+∞``, the bottom part up to the lowest kept
        point.  Optimistic: the top part down to the highest kept point, the bottom part is
        dropped.  Leading zero masses are removed either way.
        """
        poly = self.numerators
        length = int(poly.length())
        if not length:
            return self
        top, top_mass = _largest_cut(lambda m: _top_sum(poly, m), length, tail)
        kept = length - top
        bottom, bottom_mass = _largest_cut(lambda m: _bottom_sum(poly, m), kept, tail)
        if not top and not bottom:
            return self
        body = poly.truncate(kept).right_shift(bottom)
        infinity = self.infinity
        if self.pessimistic:
            infinity += top_mass
            body[0] = int(body[0]) + bottom_mass
        else:
            last = int(body.length()) - 1
            body[last] = int(body[last]) + top_mass
        return LatticeMeasure(
            self.pessimistic, self.resolution, self.bits, self.lowest + bottom, body, infinity
        )

    def power(self, k: int, *, tail: int = 0) -> LatticeMeasure:
        """The k-fold self-composition by repeated squaring (each product rounded and cut)."""
        result: LatticeMeasure | None = None
        base = self
        while True:
            if k & 1:
                result = base if result is None else result.compose(base, tail=tail)
            k >>= 1
            if not k:
                break
            base = base.compose(base, tail=tail)
        assert result is not None
        return result

    # --- δ(ε) and ε(δ) -------------------------------------------------------------------
    def _suffix(self, start: int, precision: int) -> tuple[int, arb]:
        """(A, W): A = infinity + Σ_{i >= start} N_i, W = Σ_{i >= start} N_i e^{-(lowest+i)Δ}.

        ``start`` is a coefficient index (0 = the lowest lattice point).
        """
        length = self.length
        start = max(start, 0)
        if start >= length:
            return self.infinity, arb(0)
        suffix = self.numerators.right_shift(start)
        step = arb(fmpq(self.resolution.numerator, self.resolution.denominator))
        weighted = arb_poly(suffix)((-step).exp()) * (-step * (self.lowest + start)).exp()
        return self.infinity + int(suffix(1)), weighted

    def _index_above(self, value: Fraction) -> int:
        """The coefficient index of the first lattice point strictly above ``value``."""
        return (value // self.resolution) + 1 - self.lowest

    def delta(self, epsilon: Scalar) -> Fraction:
        """δ_μ(ε) certified in the side's direction: an upper bound if pessimistic, else lower."""
        precision = self.bits + 64 + self.length.bit_length()
        while True:
            with working_precision(precision):
                value = self._delta_ball(epsilon, precision)
                if value is not None and (
                    value.rad() <= max(abs(value.mid()) * arb(2) ** -48, arb(2) ** -16)
                    or precision >= _MAX_PRECISION
                ):
                    end = ball_fraction(value, upper=self.pessimistic)
                    return max(end, Fraction(0)) / 2**self.bits
            precision *= 2

    def _delta_ball(self, epsilon: Scalar, precision: int) -> arb | None:
        """2^bits δ_μ(ε) as a ball (None when ε's enclosure is too wide to place on the lattice)."""
        if type(epsilon) is Fraction:
            start = self._index_above(epsilon)
            total, weighted = self._suffix(start, precision)
            return arb(total) - ball(epsilon, precision).exp() * weighted
        where = ball(epsilon, precision)
        low = self._index_above(ball_fraction(where, upper=False))
        high = self._index_above(ball_fraction(where, upper=True))
        if high - low > 4:
            return None
        total, weighted = self._suffix(high, precision)
        value = arb(total) - where.exp() * weighted
        step = arb(fmpq(self.resolution.numerator, self.resolution.denominator))
        for index in range(max(low, 0), min(high, self.length)):
            mass = int(self.numerators[index])
            if mass:
                term = 1 - (where - step * (self.lowest + index)).exp()
                value += mass * term.nonnegative_part()
        return value

    def epsilon(self, delta: Fraction) -> Fraction | sympy.Expr:
        """A certified bound on the least ε with δ_μ(ε) <= ``delta``, in the side's direction.

        Pessimistic: an ε with δ_μ(ε) <= delta, so the least ε is at most it.  Optimistic: an ε
        with δ_μ > delta at every smaller ε, so the least ε is at least it.  Either may be
        ``sympy.oo`` or ``-sympy.oo``; the result is not clamped at 0.
        """
        target = delta * 2**self.bits  # compared with 2^bits δ
        precision = self.bits + 64 + self.length.bit_length()
        with working_precision(precision):
            if self.pessimistic:
                return self._epsilon_above(target, precision)
            return self._epsilon_below(target, precision)

    def _lattice_delta(self, index: int, precision: int) -> arb:
        """2^bits δ at the loss of coefficient ``index`` (the terms strictly above it)."""
        total, weighted = self._suffix(index + 1, precision)
        step = arb(fmpq(self.resolution.numerator, self.resolution.denominator))
        return arb(total) - (step * (self.lowest + index)).exp() * weighted

    def _epsilon_above(self, target: Fraction, precision: int) -> Fraction | sympy.Expr:
        """Pessimistic side: on the piece between lattice points where δ crosses ``target``,
        δ(ε) = A - e^ε W exactly, so ε = log((A - target)/W) rounded up (and clipped to the
        piece) has δ(ε) <= target."""
        if self.infinity > target:
            return sympy.oo
        length = self.length
        if not length:
            return -sympy.oo
        goal = arb(fmpq(target.numerator, target.denominator))
        low, high = -1, length - 1  # δ at the top lattice point is the mass at +∞: meets
        while high - low > 1:
            middle = (low + high) // 2
            if self._lattice_delta(middle, precision) <= goal:
                high = middle
            else:
                low = middle
        total, weighted = self._suffix(high, precision)
        point = (self.lowest + high) * self.resolution
        below = point - self.resolution if high > 0 else None
        surplus = arb(total) - goal
        if not surplus > 0:  # δ <= A <= target on the whole piece
            return below if below is not None else -sympy.oo
        solved = (surplus / weighted).log()
        if not solved.is_finite():
            return point
        value = min(ball_fraction(solved, upper=True), point)
        return value if below is None else max(value, below)

    def _epsilon_below(self, target: Fraction, precision: int) -> Fraction | sympy.Expr:
        """Optimistic side: δ(ε) >= A_s - e^ε W_s for every suffix s and every ε (the dropped
        terms are non-negative, the kept ones at most their positive parts), so δ > target
        below the root of A_s - e^ε W_s = target; s is the piece where δ crosses ``target``."""
        if self.infinity > target:
            return sympy.oo
        goal = arb(fmpq(target.numerator, target.denominator))
        low, high = -1, self.length  # the largest index where δ > target is certified
        while high - low > 1:
            middle = (low + high) // 2
            if self._lattice_delta(middle, precision) > goal:
                low = middle
            else:
                high = middle
        point: Fraction | None = (self.lowest + low) * self.resolution if low >= 0 else None
        total, weighted = self._suffix(low + 1, precision)
        surplus = arb(total) - goal
        if surplus > 0 and weighted > 0:
            solved = (surplus / weighted).log()
            if solved.is_finite():
                value = ball_fraction(solved, upper=False)
                return value if point is None else max(value, point)
        return point if point is not None else -sympy.oo
