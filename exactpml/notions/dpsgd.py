"""Certified (ε, δ) accounting of DP-SGD: the Poisson-subsampled Gaussian composed k times.

DP-SGD (Abadi, Chu, Goodfellow, McMahan, Mironov, Talwar, Zhang 2016, Algorithm 1) clips each
per-example gradient to norm C, adds N(0, σ²C²) noise to the sum of a Poisson sample (each
record kept with probability q) and repeats for k steps.  Per step, for add/remove neighbours,
the mechanism is dominated by the pairs ``(1-q) N(0, σ²) + q N(1, σ²)`` vs ``N(0, σ²)`` and the
reverse (remove and add; Zhu, Dong, Wang 2022, arXiv:2106.08567, Thm 11); the k steps compose,
so δ(ε) is the larger of the two k-fold compositions (Koskela, Jälkö, Honkela 2020,
arXiv:1906.03049, account the same pairs by FFT; the moments accountant of Abadi et al.,
Thm 2, bounds the same quantity by Rényi moments).

The float accountants disagree on this workload (σ = 1, q = 0.01, k = 10^4, δ = 10^-5:
dp_accounting's pessimistic PLD 6.188, its optimistic PLD 5.688, its RDP accountant 6.713).
:func:`dpsgd_epsilon` returns a **certified bracket** instead: the lattice PLDs of
:mod:`exactpml.notions.certified_pld` -- connect-the-dots above (Doroshenko et al. 2022,
Algorithm 1), a certified post-processing rounded down below (Meiser, Mohammadi 2018 round the
losses the same two ways, at first order) -- composed by exact FLINT products, read by Arb.
The lattice is refined until ``upper <= (1 + width) lower`` or a bound of
:class:`~exactpml.core.bounds.Bounds` would be exceeded, which is refused before the work
(:class:`~exactpml.core.bounds.BoundExceeded` naming the parameter).  With q = 1 and k = 1 the
bracket contains the exact ε of the Gaussian mechanism (Balle, Wang 2018, Thm 8).

>>> from fractions import Fraction
>>> bounds = dpsgd_epsilon(1, Fraction(1, 100), 1000, Fraction(1, 10**5))
>>> print(bounds)
[1.8258, 1.8290]
>>> bounds.upper <= Fraction(101, 100) * bounds.lower
True
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy

from exactpml.core.bounds import BoundExceeded, current_bounds, exceeded
from exactpml.core.parameters import (
    exp_epsilon_of,
    positive_integer,
    positive_scale,
    probability,
)
from exactpml.errors import InvalidArgument
from exactpml.notions._loss_pairs import LossPair, SubsampledGaussianPair
from exactpml.notions.certified_pld import AccountingBounds, CertifiedPLD, from_loss_pairs

__all__ = ["DEFAULT_WIDTH", "dpsgd_delta", "dpsgd_epsilon"]

DEFAULT_WIDTH = Fraction(1, 100)
"""Default relative width of the bracket: ``upper <= (1 + width) lower``."""

_FIRST_SHIFT = 8  # the first lattice step is about (per-step loss deviation) / 2^3
_COARSEST_STEP = Fraction(1, 8)


def _parameters(
    noise_multiplier: object, sampling_rate: object, steps: object, width: object
) -> tuple[Fraction, Fraction, int, Fraction]:
    sigma = positive_scale(noise_multiplier, name="noise_multiplier", rational=True)
    rate = probability(sampling_rate, name="sampling_rate", rational=True)
    k = positive_integer(steps, name="steps")
    relative = positive_scale(width, name="width", rational=True)
    assert type(sigma) is Fraction and type(rate) is Fraction and type(relative) is Fraction
    if rate == 0:
        raise InvalidArgument("sampling_rate=0 releases nothing; give a rate in (0, 1]")
    limit = current_bounds().accounting_steps
    if k > limit:
        raise exceeded("dpsgd", f"steps={k} compositions", "accounting_steps")
    return sigma, rate, k, relative


def _pairs(sigma: Fraction, rate: Fraction) -> list[tuple[str, LossPair]]:
    if rate == 1:
        return [("symmetric", SubsampledGaussianPair(sigma, rate, remove=True))]
    return [
        ("remove", SubsampledGaussianPair(sigma, rate, remove=True)),
        ("add", SubsampledGaussianPair(sigma, rate, remove=False)),
    ]


def _dyadic_below(value: float) -> Fraction:
    """The largest 2^-m <= value (at most 1/8)."""
    if value >= float(_COARSEST_STEP):
        return _COARSEST_STEP
    return Fraction(1, 2 ** max(3, math.ceil(-math.log2(value))))


class _Plan:
    """The predicted cost of one accounting at one resolution (floats only predict)."""

    def __init__(
        self,
        pairs: list[tuple[str, LossPair]],
        steps: int,
        resolution: Fraction,
        accuracy: float,
    ) -> None:
        self.resolution = resolution
        span = 0.0
        for _, pair in pairs:
            _, variance = pair.float_moments()
            lo, hi = pair.float_range(accuracy / (8 * steps))
            spread = 20 * math.sqrt(steps * variance)
            span = max(span, spread + 2 * (hi - lo))
        self.points = int(span / float(resolution)) + 2
        self.bits = max(64, math.ceil(math.log2(8 * steps * self.points / accuracy)) + 8)

    def check(self, where: str, parameter: str, note: str = "") -> None:
        """Refuse before the work when a bound would be exceeded (naming ``parameter``)."""
        bounds = current_bounds()
        if self.points > bounds.lattice_points:
            raise BoundExceeded(
                f"{where}: {parameter} needs resolution {self.resolution}, where the composed "
                f"lattice would have about {self.points} points, above the bound "
                f"lattice_points={bounds.lattice_points}{note} "
                "(raise it with exactpml.use_bounds(lattice_points=...))",
                bound="lattice_points",
                limit=bounds.lattice_points,
            )
        if self.bits > bounds.lattice_bits:
            raise BoundExceeded(
                f"{where}: {parameter} needs masses of {self.bits} bits, above the bound "
                f"lattice_bits={bounds.lattice_bits}{note} "
                "(raise it with exactpml.use_bounds(lattice_bits=...))",
                bound="lattice_bits",
                limit=bounds.lattice_bits,
            )


def _first_resolution(pairs: list[tuple[str, LossPair]], given: object) -> Fraction:
    if given is not None:
        step = positive_scale(given, name="resolution", rational=True)
        assert type(step) is Fraction
        return step
    deviation = min(math.sqrt(pair.float_moments()[1]) for _, pair in pairs)
    return _dyadic_below(deviation / _FIRST_SHIFT)


def _next_resolution(resolution: Fraction, gap: float | None, width: Fraction) -> Fraction:
    """A finer step: the error is second order in Δ, so aim at 2/3 of the width."""
    if gap is None or gap <= 0:
        return resolution / 4
    factor = math.sqrt(float(width) / gap) / 1.5
    halvings = max(1, math.ceil(-math.log2(min(factor, 0.5))))
    return resolution / 2 ** min(halvings, 4)


def _within(bounds: AccountingBounds, width: Fraction) -> bool:
    if bounds.upper is None:
        return False
    if bounds.lower == 0:
        return bounds.upper == 0
    return bounds.upper <= (1 + width) * bounds.lower


def _gap(bounds: AccountingBounds) -> float | None:
    if bounds.upper is None or bounds.lower <= 0:
        return None
    return float(bounds.upper / bounds.lower - 1)


def _composed(
    pairs: list[tuple[str, LossPair]], steps: int, plan: _Plan, accuracy: float
) -> CertifiedPLD:
    mass = Fraction(accuracy).limit_denominator(2**plan.bits) or Fraction(1, 2**plan.bits)
    single = from_loss_pairs(pairs, plan.resolution, plan.bits, mass, steps=steps)
    return single.self_compose(steps)


def _with_meta(bounds: AccountingBounds, within: bool) -> AccountingBounds:
    return AccountingBounds(
        bounds.lower,
        bounds.upper,
        bounds.resolution,
        bounds.bits,
        bounds.lattice_points,
        within,
    )


def dpsgd_epsilon(
    noise_multiplier: object,
    sampling_rate: object,
    steps: object,
    delta: object,
    *,
    width: object = DEFAULT_WIDTH,
    resolution: object = None,
) -> AccountingBounds:
    """A certified bracket of the least ε >= 0 with δ(ε) <= δ after ``steps`` steps of DP-SGD.

    Args:
        noise_multiplier: σ, the noise's standard deviation over the clipping norm (rational).
        sampling_rate: q, the Poisson sampling probability, in (0, 1] (rational).
        steps: k, the number of steps.
        delta: δ in (0, 1) (rational).
        width: the bracket is refined until ``upper <= (1 + width) lower``.
        resolution: a fixed lattice step Δ (rational): one pass, no refinement; the result's
            ``within_width`` says whether the width was met.

    Returns:
        :class:`~exactpml.notions.certified_pld.AccountingBounds` (``lower``, ``upper``
        rational; ``upper`` None would mean +∞).

    Raises:
        BoundExceeded: the width needs a lattice or a mass precision above ``Bounds``
            (``lattice_points``, ``lattice_bits``), or ``steps`` is above ``accounting_steps``;
            decided from a prediction before the work at each resolution.
    """
    sigma, rate, k, relative = _parameters(noise_multiplier, sampling_rate, steps, width)
    target = probability(delta, name="delta", rational=True, open_interval=True)
    assert type(target) is Fraction
    pairs = _pairs(sigma, rate)
    accuracy = float(target * relative) / 64
    step = _first_resolution(pairs, resolution)
    parameter = "resolution" if resolution is not None else f"width={relative}"
    note = ""
    while True:
        plan = _Plan(pairs, k, step, accuracy)
        plan.check("dpsgd_epsilon", parameter, note)
        bounds = _composed(pairs, k, plan, accuracy).epsilon_for_delta(target)
        within = _within(bounds, relative)
        if within or resolution is not None:
            return _with_meta(bounds, within)
        step = _next_resolution(step, _gap(bounds), relative)
        note = f" (the bracket at resolution {plan.resolution} was {bounds})"


def dpsgd_delta(
    noise_multiplier: object,
    sampling_rate: object,
    steps: object,
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    width: object = DEFAULT_WIDTH,
    resolution: object = None,
) -> AccountingBounds:
    """A certified bracket of δ(ε) after ``steps`` steps of DP-SGD (the larger direction).

    ε is given as ``epsilon`` (a number, a LogValue; negative allowed) or ``exp_epsilon``.
    The other arguments are those of :func:`dpsgd_epsilon`; the width is relative to δ.
    """
    sigma, rate, k, relative = _parameters(noise_multiplier, sampling_rate, steps, width)
    ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True, enclosed=True)
    pairs = _pairs(sigma, rate)
    step = _first_resolution(pairs, resolution)
    parameter = "resolution" if resolution is not None else f"width={relative}"
    accuracy = 2.0**-70
    note = ""
    while True:
        plan = _Plan(pairs, k, step, accuracy)
        plan.check("dpsgd_delta", parameter, note)
        bounds = _composed(pairs, k, plan, accuracy).delta_for_epsilon(exp_epsilon=ratio)
        within = _within(bounds, relative)
        if within or resolution is not None or ratio is sympy.oo:
            return _with_meta(bounds, within)
        if bounds.lower > 0:
            accuracy = max(float(bounds.lower * relative) / 64, 2.0**-900)
        step = _next_resolution(step, _gap(bounds), relative)
        note = f" (the bracket at resolution {plan.resolution} was {bounds})"
