"""Certified privacy-loss distributions: continuous and subsampled mechanisms between two lattices.

The Gaussian mechanism has no exact finite privacy-loss distribution (PLD), so it cannot be
composed by :class:`~exactpml.notions.PrivacyLossDistribution`.  A :class:`CertifiedPLD`
keeps, for each neighbouring pair (remove and add, or one symmetric pair), two measures on the
lattice ``ΔZ ∪ {+∞}`` with dyadic masses (:mod:`exactpml.notions._certified_lattice`):

* a **pessimistic** one: connect-the-dots (Doroshenko, Ghazi, Kamath, Kumar, Manurangsi, PETS
  2022, Algorithm 1), a pair that dominates the true pair at every α = e^ε, masses rounded up,
  truncated mass moved to ``+∞``;
* an **optimistic** one: a post-processing of the mechanism (its outputs merged into loss
  cells, proposed in floating point so that each merged loss sits just above a lattice
  point, the placement certified by Arb), moved down to the lattice, masses rounded down,
  truncated mass dropped (Meiser, Mohammadi 2018 bucket the losses the same two ways, with
  first-order error; Koskela, Jälkö, Honkela 2020 bound the discretisation error of the
  FFT accountant).

Composition is a product of FLINT integer polynomials per side, rounded back to ``bits`` bits in
the side's direction (Sommer, Meiser, Mohammadi 2019, Thm 1: the PLD of a product pair is the
convolution).  δ(ε) and ε(δ) are then read from the two sides with Arb, each rounded outward:
the results are *certified* brackets, never estimates.  For add/remove neighbours δ(ε) is the
larger of the two directions (as in dp_accounting and Opacus), and ε(δ) the larger ε.

>>> pld = certified_gaussian_pld(1, resolution=Fraction(1, 256))
>>> bounds = pld.epsilon_for_delta(Fraction(1, 10**5))
>>> print(bounds)
[4.3771, 4.3773]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import sympy

from exactpml.core.abbreviate import abbreviated
from exactpml.core.bounds import current_bounds, exceeded
from exactpml.core.decisions import exact_compare
from exactpml.core.exact import Scalar, exact, to_sympy
from exactpml.core.parameters import (
    exp_epsilon_of,
    positive_integer,
    positive_scale,
    probability,
)
from exactpml.errors import InvalidArgument
from exactpml.notions._certified_discrete import discrete_bounds
from exactpml.notions._certified_lattice import LatticeMeasure
from exactpml.notions._certified_pairs import connect_the_dots, garbled
from exactpml.notions._loss_pairs import LaplacePair, LossPair, SubsampledGaussianPair
from exactpml.notions.privacy_loss import PrivacyLossDistribution

__all__ = [
    "AccountingBounds",
    "CertifiedPLD",
    "certified_gaussian_pld",
    "certified_laplace_pld",
    "certified_pld",
]

DEFAULT_BITS = 96
"""Default precision of the lattice masses (multiples of 2^-96)."""

DEFAULT_ACCURACY = Fraction(1, 2**64)
"""Default mass each composition may cut from each end of a lattice (in the side's direction)."""


def outward_decimal(value: Fraction, *, up: bool, digits: int = 5) -> str:
    """``value`` to ``digits`` significant digits, rounded up (or down): printable bound ends.

    >>> outward_decimal(Fraction(2, 3), up=True), outward_decimal(Fraction(-2, 3), up=True)
    ('0.66667', '-0.66666')
    >>> outward_decimal(Fraction(1, 3 * 10**6), up=False)
    '3.3333e-7'
    """
    if value == 0:
        return "0"
    size = abs(value)
    exponent = math.floor(math.log10(size.numerator) - math.log10(size.denominator))
    while Fraction(10) ** exponent > size:
        exponent -= 1
    while Fraction(10) ** (exponent + 1) <= size:
        exponent += 1
    shift = exponent - digits + 1
    scaled = value / Fraction(10) ** shift
    integer = (
        -((-scaled.numerator) // scaled.denominator)
        if up
        else scaled.numerator // scaled.denominator
    )
    number = Decimal(integer).scaleb(shift)
    if -4 <= exponent < 7:
        return format(number, "f")
    mantissa, _, power = format(number, f".{digits - 1}e").partition("e")
    return f"{mantissa}e{int(power)}"


@dataclass(frozen=True, slots=True)
class AccountingBounds:
    """A certified bracket ``lower <= value <= upper`` of an ε or a δ.

    Attributes:
        lower: a rational lower bound (certified).
        upper: a rational upper bound (certified); ``None`` stands for ``+∞``.
        resolution: the lattice step Δ the bounds were read from.
        bits: the precision of the lattice masses (multiples of ``2^-bits``).
        lattice_points: the largest number of lattice points of a composed measure.
        within_width: whether ``upper <= (1 + width) lower`` for the requested width
            (always True when no width was requested).

    ``str`` prints both ends to five significant digits rounded outward (the printed
    interval contains the certified one).
    """

    lower: Fraction
    upper: Fraction | None
    resolution: Fraction
    bits: int
    lattice_points: int
    within_width: bool = True

    @property
    def ratio(self) -> Fraction | None:
        """``upper / lower`` (None when unbounded or ``lower = 0``)."""
        if self.upper is None or self.lower <= 0:
            return None
        return self.upper / self.lower

    def __contains__(self, value: object) -> bool:
        """Whether the bracket contains an exact number (decided exactly or by Arb)."""
        number = exact(value, where="value")
        above = exact_compare(number, self.lower) >= 0
        if self.upper is None:
            return above
        return above and exact_compare(number, self.upper) <= 0

    def __str__(self) -> str:
        upper = "oo" if self.upper is None else outward_decimal(self.upper, up=True)
        return f"[{outward_decimal(self.lower, up=False)}, {upper}]"


def _clamp(value: Fraction | sympy.Expr, floor: Fraction) -> Fraction | None:
    """A lattice result as an ε >= 0: ``-oo`` and values below 0 become 0, ``oo`` None."""
    if value is sympy.oo:
        return None
    if value == -sympy.oo:
        return floor
    assert isinstance(value, Fraction)
    return max(value, floor)


@dataclass(frozen=True, slots=True)
class CertifiedPLD:
    """Pessimistic and optimistic lattice PLDs of one or two neighbouring pairs.

    Attributes:
        directions: the names of the pairs (``("remove", "add")`` or ``("symmetric",)``).
        upper: the pessimistic lattice measure of each pair.
        lower: the optimistic lattice measure of each pair.
        accuracy: the mass one composition may cut from each end of a lattice (in the side's
            direction; :meth:`self_compose` divides it among its products).
    """

    directions: tuple[str, ...]
    upper: tuple[LatticeMeasure, ...]
    lower: tuple[LatticeMeasure, ...]
    accuracy: Fraction = DEFAULT_ACCURACY

    @property
    def resolution(self) -> Fraction:
        """The lattice step Δ."""
        return self.upper[0].resolution

    @property
    def bits(self) -> int:
        """The precision of the masses (multiples of ``2^-bits``)."""
        return self.upper[0].bits

    @property
    def lattice_points(self) -> int:
        """The largest number of lattice points of one of the measures."""
        return max(m.length for m in (*self.upper, *self.lower))

    def _tail(self, products: int) -> int:
        return int(self.accuracy * 2**self.bits / (4 * products))

    def compose(self, other: CertifiedPLD) -> CertifiedPLD:
        """The certified PLD of the two mechanisms run together (same neighbouring pairs).

        A one-pair (symmetric) operand is used for both directions of a two-pair one.
        """
        if not isinstance(other, CertifiedPLD):
            raise InvalidArgument(f"other must be a CertifiedPLD, got {type(other).__name__}")
        if (self.resolution, self.bits) != (other.resolution, other.bits):
            raise InvalidArgument(
                f"certified PLDs compose on one lattice: resolution {self.resolution} vs "
                f"{other.resolution}, bits {self.bits} vs {other.bits}"
            )
        directions = max(self.directions, other.directions, key=len)
        count = len(directions)

        def take(measures: tuple[LatticeMeasure, ...], i: int) -> LatticeMeasure:
            return measures[i if len(measures) == count else 0]

        tail = self._tail(1)
        upper = [take(self.upper, i).compose(take(other.upper, i), tail=tail) for i in range(count)]
        lower = [take(self.lower, i).compose(take(other.lower, i), tail=tail) for i in range(count)]
        return CertifiedPLD(directions, tuple(upper), tuple(lower), self.accuracy)

    def self_compose(self, steps: int) -> CertifiedPLD:
        """The k-fold composition (repeated squaring; about ``2 log2 k`` products per side)."""
        k = positive_integer(steps, name="steps")
        if k > current_bounds().accounting_steps:  # as dpsgd_epsilon: refused before squaring
            raise exceeded(
                "self_compose", f"steps={abbreviated(k)} compositions", "accounting_steps"
            )
        tail = self._tail(k)
        return CertifiedPLD(
            self.directions,
            tuple(m.power(k, tail=tail) for m in self.upper),
            tuple(m.power(k, tail=tail) for m in self.lower),
            self.accuracy,
        )

    def delta_for_epsilon(
        self, epsilon: object = None, *, exp_epsilon: object = None
    ) -> AccountingBounds:
        """A certified bracket of δ(ε) = max over the pairs of the hockey-stick divergence."""
        ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
        if ratio is sympy.oo:
            lower = max(Fraction(m.infinity, 2**m.bits) for m in self.lower)
            upper = max(Fraction(m.infinity, 2**m.bits) for m in self.upper)
            return AccountingBounds(lower, upper, self.resolution, self.bits, self.lattice_points)
        if type(ratio) is Fraction and ratio == 0:
            one = Fraction(1)
            return AccountingBounds(one, one, self.resolution, self.bits, self.lattice_points)
        loss = _log(ratio)
        return AccountingBounds(
            max(m.delta(loss) for m in self.lower),
            max(m.delta(loss) for m in self.upper),
            self.resolution,
            self.bits,
            self.lattice_points,
        )

    def epsilon_for_delta(self, delta: object) -> AccountingBounds:
        """A certified bracket of the least ε >= 0 with δ(ε) <= ``delta`` (rational δ).

        The upper end is ``None`` (``+∞``) when the pessimistic mass at ``+∞`` exceeds δ.
        """
        target = probability(delta, name="delta", rational=True)
        assert type(target) is Fraction
        zero = Fraction(0)
        uppers = [_clamp(m.epsilon(target), zero) for m in self.upper]
        lowers = [_clamp(m.epsilon(target), zero) for m in self.lower]
        upper = None if any(u is None for u in uppers) else max(u for u in uppers if u is not None)
        lower = zero
        for value in lowers:
            if value is None:  # the least ε is +∞ for this pair
                return AccountingBounds(
                    Fraction(0) if upper is None else upper,
                    None,
                    self.resolution,
                    self.bits,
                    self.lattice_points,
                )
            lower = max(lower, value)
        return AccountingBounds(lower, upper, self.resolution, self.bits, self.lattice_points)


def _log(ratio: Scalar) -> Scalar:
    """ε = log(e^ε), exact: a Fraction for e^ε = 1, else a closed sympy number."""
    if type(ratio) is Fraction and ratio == 1:
        return Fraction(0)
    return sympy.log(to_sympy(ratio))


def _resolution(value: object) -> Fraction:
    step = positive_scale(value, name="resolution", rational=True)
    assert type(step) is Fraction
    return step


def _bits(value: object) -> int:
    bits = positive_integer(value, name="bits", minimum=8)
    limit = current_bounds().lattice_bits
    if bits > limit:
        raise exceeded("bits", f"bits={bits} asks for masses of {bits} bits", "lattice_bits")
    return bits


def from_loss_pairs(
    pairs: list[tuple[str, LossPair]],
    resolution: Fraction,
    bits: int,
    accuracy: Fraction,
    *,
    steps: int = 1,
) -> CertifiedPLD:
    """Both sides of every pair on one lattice (``steps``: the compositions planned, which
    share ``accuracy``: each pair's losses beyond its ``accuracy/(8 steps)`` quantiles are cut,
    and cells carrying less than ``accuracy/(64 steps)`` may be up to 64 steps wide)."""
    tail = float(accuracy) / (8 * steps)
    coarse = float(accuracy) / (64 * steps)
    uppers, lowers = [], []
    for _, pair in pairs:
        uppers.append(connect_the_dots(pair, resolution, bits, tail=tail, coarse_mass=coarse))
        lowers.append(garbled(pair, resolution, bits, tail=tail, coarse_mass=coarse))
    return CertifiedPLD(tuple(name for name, _ in pairs), tuple(uppers), tuple(lowers), accuracy)


def _accuracy(value: object) -> Fraction:
    mass = probability(value, name="accuracy", rational=True, open_interval=True)
    assert type(mass) is Fraction
    return mass


def certified_gaussian_pld(
    sigma: object,
    *,
    sensitivity: object = 1,
    sampling_rate: object = 1,
    resolution: object = Fraction(1, 1024),
    bits: object = DEFAULT_BITS,
    accuracy: object = DEFAULT_ACCURACY,
) -> CertifiedPLD:
    """The certified PLD of Gaussian noise N(0, σ²) at sensitivity Δf, Poisson-subsampled at q.

    Remove pair: P = (1-q) N(0, σ²) + q N(Δf, σ²), Q = N(0, σ²); add pair: reversed (the
    dominating pairs of the Poisson-subsampled Gaussian for add/remove neighbours; Zhu, Dong,
    Wang 2022, arXiv:2106.08567, Thm 11).  ``sampling_rate = 1`` is the Gaussian mechanism, one
    symmetric pair.  σ/Δf and q must be rational.

    Args:
        sigma: the noise's standard deviation (rational, positive).
        sensitivity: Δf (rational, positive).
        sampling_rate: q in (0, 1] (rational).
        resolution: the lattice step Δ (rational, positive).
        bits: the precision of the masses.
        accuracy: the mass one composition may cut from each end (tightness only).
    """
    s = positive_scale(sigma, name="sigma", rational=True)
    width = positive_scale(sensitivity, name="sensitivity", rational=True)
    rate = probability(sampling_rate, name="sampling_rate", rational=True)
    assert type(s) is Fraction and type(width) is Fraction and type(rate) is Fraction
    if rate == 0:
        raise InvalidArgument("sampling_rate=0 releases nothing; give a rate in (0, 1]")
    step, precision, mass = _resolution(resolution), _bits(bits), _accuracy(accuracy)
    noise = s / width
    if rate == 1:
        pairs: list[tuple[str, LossPair]] = [
            ("symmetric", SubsampledGaussianPair(noise, rate, remove=True))
        ]
    else:
        pairs = [
            ("remove", SubsampledGaussianPair(noise, rate, remove=True)),
            ("add", SubsampledGaussianPair(noise, rate, remove=False)),
        ]
    return from_loss_pairs(pairs, step, precision, mass)


def certified_laplace_pld(
    scale: object,
    *,
    sensitivity: object = 1,
    resolution: object = Fraction(1, 1024),
    bits: object = DEFAULT_BITS,
    accuracy: object = DEFAULT_ACCURACY,
) -> CertifiedPLD:
    """The certified PLD of Laplace noise of scale b at sensitivity Δf (one symmetric pair).

    Its losses ±Δf/b are atoms: with a resolution dividing Δf/b they sit on the lattice and
    the optimistic side loses nothing there.
    """
    b = positive_scale(scale, name="scale", rational=True)
    width = positive_scale(sensitivity, name="sensitivity", rational=True)
    assert type(b) is Fraction and type(width) is Fraction
    step, precision, mass = _resolution(resolution), _bits(bits), _accuracy(accuracy)
    return from_loss_pairs([("symmetric", LaplacePair(b / width))], step, precision, mass)


def certified_pld(
    pld: PrivacyLossDistribution,
    *,
    reverse: PrivacyLossDistribution | None = None,
    resolution: object = Fraction(1, 1024),
    bits: object = DEFAULT_BITS,
    accuracy: object = DEFAULT_ACCURACY,
) -> CertifiedPLD:
    """An exact PLD lifted onto the lattice, both sides, to compose with continuous mechanisms.

    ``pld`` is the PLD of the pair (P, Q); ``reverse``, when given, that of (Q, P) or of the
    other direction of neighbours (then the result has two pairs, remove and add).
    """
    step, precision, mass = _resolution(resolution), _bits(bits), _accuracy(accuracy)
    given = [pld] if reverse is None else [pld, reverse]
    for index, item in enumerate(given):
        if not isinstance(item, PrivacyLossDistribution):
            name = "pld" if index == 0 else "reverse"
            raise InvalidArgument(
                f"{name} must be a PrivacyLossDistribution, got {type(item).__name__}"
            )
    sides = [discrete_bounds(item, step, precision) for item in given]
    directions = ("symmetric",) if reverse is None else ("remove", "add")
    return CertifiedPLD(directions, tuple(u for u, _ in sides), tuple(lo for _, lo in sides), mass)
