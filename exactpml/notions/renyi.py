"""Rényi differential privacy, zero-concentrated DP, and the conversions between notions.

* :func:`renyi_divergence` -- ``D_α(P || Q) = (1/(α-1)) log Σ_{p>0} p^α q^{1-α}`` for a
  rational order α > 1 (Mironov 2017, Def 3; van Erven, Harremoës 2014), as
  ``LogValue((Σ p^α q^{1-α})^{1/(α-1)})``: rational for α = 2 and rational laws, an exact
  algebraic number otherwise (its decimals certified by :meth:`LogValue.decimal`);
  ``∞`` when some ``q = 0 < p``; α = ∞ is D_∞.
* :func:`renyi_dp_epsilon` -- the (α, ε)-RDP ε of a mechanism (Mironov 2017, Def 4): the
  largest D_α over neighbouring pairs, with the worst pair.
* :func:`zcdp_rho` -- the least ρ of ρ-zCDP (Bun, Steinke 2016, Def 1.1):
  ``ρ = max_{pairs} sup_{α>1} D_α / α``.  A supremum over a real α, so it is *certified*:
  rational bounds ``lower <= ρ <= upper`` from interval arithmetic, and the exact value
  ``D_KL`` when the supremum is proved to be the limit α → 1 (see :func:`zcdp_rho`).
* conversions, each an exact function of its inputs:
  :func:`rdp_to_dp_epsilon` (Mironov 2017, Prop 3; Canonne, Kamath, Steinke 2020, Prop 12),
  :func:`zcdp_to_rdp_epsilon` (ρ-zCDP means (α, ρα)-RDP for every α, Bun–Steinke Def 1.1),
  :func:`zcdp_to_dp_epsilon` (Bun, Steinke 2016, Prop 1.3),
  :func:`dp_to_zcdp_rho` (ε-DP implies ε²/2-zCDP, Bun, Steinke 2016, Prop 1.4).

>>> from exactpml import Distribution
>>> p, q = Distribution({0: "3/4", 1: "1/4"}), Distribution({0: "1/4", 1: "3/4"})
>>> print(renyi_divergence(p, q, 2))
log(7/3)
>>> print(renyi_divergence(p, q, "3/2"), renyi_divergence(p, q, 3).decimal(6))
log(25/12) 0.956825
>>> print(rdp_to_dp_epsilon(exp_epsilon="7/3", order=2, delta="1/100"))
log(700/3)
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy
from flint import arb, ctx, fmpq

from exactpml.core import certify
from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.bounds import current_bounds
from exactpml.core.decisions import exact_compare, exact_sign, prove_zero
from exactpml.core.display import abbreviated_fields_repr
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, as_scalar, exact_quotient, to_sympy
from exactpml.core.logvalue import LogValue
from exactpml.core.parameters import (
    exp_epsilon_of,
    power_bits,
    probability,
    real_number,
    renyi_order,
    tolerance_digits,
)
from exactpml.core.parameters import tolerance as checked_tolerance
from exactpml.database import as_database_mechanism
from exactpml.errors import InvalidArgument, Undecided
from exactpml.leakage.hockey_stick import max_ratio
from exactpml.notions._common import UnexpandedExp, WorstCase, check_distribution_pair
from exactpml.notions.continuous_noise import _exp
from exactpml.notions.privacy_loss import (
    PrivacyLossDistribution,
    _size,
    divergence_bounds,
    privacy_loss_of_rows,
    renyi_of_atoms,
)
from exactpml.numerics.log_moments import RenyiBounds

__all__ = [
    "ZCDPBounds",
    "dp_to_zcdp_rho",
    "rdp_to_dp_epsilon",
    "renyi_divergence",
    "renyi_divergence_bounds",
    "renyi_dp_epsilon",
    "zcdp_rho",
    "zcdp_to_dp_epsilon",
    "zcdp_to_rdp_epsilon",
]

Label = Hashable


def _rational(value: Fraction) -> sympy.Rational:
    return sympy.Rational(value.numerator, value.denominator)


def _divergence(row: Sequence[Scalar], other: Sequence[Scalar], alpha: Scalar) -> LogValue:
    """D_α from two aligned vectors: the atoms (p, p/q) of the sum Σ p^α q^{1-α}."""
    if alpha is sympy.oo:
        return max_ratio(row, other)[0]
    assert type(alpha) is Fraction
    masses: list[Scalar] = []
    ratios: list[Scalar] = []
    for a, b in zip(row, other, strict=True):
        if prove_zero(a):
            continue
        if prove_zero(b):
            return LogValue.infinity()
        masses.append(a)
        ratios.append(
            a / b if type(a) is Fraction and type(b) is Fraction else exact_quotient(a, b)
        )
    return renyi_of_atoms(
        masses, ratios, alpha, where="renyi_divergence", bounds="renyi_divergence_bounds"
    )


def renyi_divergence(p: Distribution, q: Distribution, order: object) -> LogValue:
    """D_α(P || Q) = (1/(α-1)) log Σ_{p>0} p^α q^{1-α} (Mironov 2017, Def 3), α > 1 or ∞.

    A constant ratio p/q = r on supp P gives log r at every α; otherwise the powers are
    checked against ``Bounds.exact_bits`` and ``Bounds.root_bits`` before they are formed
    (:class:`~exactpml.core.bounds.BoundExceeded` names the order), and
    :func:`renyi_divergence_bounds` gives certified bounds at every order.

    >>> from exactpml import Distribution
    >>> p, q = Distribution({0: "1/2", 1: "1/2"}), Distribution({0: "1/4", 1: "3/4"})
    >>> print(renyi_divergence(p, q, 3))
    log(2*sqrt(5)/3)
    >>> print(renyi_divergence(p, q, "oo"))
    log(2)
    """
    p, q = check_distribution_pair(p, q)
    alpha = renyi_order(order)
    return _divergence(p.probabilities, [q[o] for o in p.outcomes], alpha)


def renyi_divergence_bounds(p: Distribution, q: Distribution, order: object) -> RenyiBounds:
    """Certified rational bounds on D_α(P || Q), at every order α > 1 or ∞ (rational laws).

    With t = α - 1, D_α = K(t)/t for the log-moment K(t) = log Σ_{p>0} p (p/q)^t, enclosed
    without forming (p/q)^t (:mod:`exactpml.numerics.log_moments`): ``order=10**999`` costs
    what ``order=2`` does.  With r* = max p/q (= e^{D_∞}) and p* the P-mass where it is
    attained, p* r*^t <= Σ p (p/q)^t <= r*^t (Σ p = 1), so

        D_∞ - log(1/p*)/(α - 1)  <=  D_α  <=  D_∞,

    which the enclosure sharpens to about 2^-120 of the value.  ``upper`` is ``None`` when
    D_α = ∞ (some q = 0 < p).

    >>> from exactpml import Distribution
    >>> p, q = Distribution({0: "3/4", 1: "1/4"}), Distribution({0: "1/4", 1: "3/4"})
    >>> bounds = renyi_divergence_bounds(p, q, "1e999")
    >>> float(bounds.lower) <= 1.0986122886681098 <= float(bounds.upper)  # D_∞ = log 3
    True
    """
    p, q = check_distribution_pair(p, q)
    alpha = renyi_order(order)
    masses: list[Scalar] = []
    ratios: list[Scalar] = []
    for outcome, a in p.items():
        b = q[outcome]
        if prove_zero(a):
            continue
        if prove_zero(b):
            return RenyiBounds(Fraction(0), None, alpha)
        masses.append(a)
        ratios.append(exact_quotient(a, b))
    return divergence_bounds(masses, ratios, alpha, where="renyi_divergence_bounds")


def renyi_dp_epsilon(mechanism: object, order: object) -> WorstCase:
    """The (α, ε)-RDP ε (Mironov 2017, Def 4): max over neighbours x ~ x' of D_α(M(x) || M(x')).

    >>> from exactpml import DatabaseMechanism
    >>> rr = DatabaseMechanism({(0,): {0: "3/4", 1: "1/4"}, (1,): {0: "1/4", 1: "3/4"}})
    >>> print(renyi_dp_epsilon(rr, 2).value)
    log(7/3)
    """
    alpha = renyi_order(order)
    checked = as_database_mechanism(mechanism)
    reduction = checked.reduction()
    best: tuple[LogValue, Any] | None = None
    seen: set[tuple[Label, Label]] = set()
    for v, v2, databases in reduction.pairs():
        if (v, v2) in seen:
            continue
        seen.add((v, v2))
        value = _divergence(reduction.row(v), reduction.row(v2), alpha)
        if best is None or value.compare(best[0]) > 0:
            best = (value, databases)
            if value.is_infinite:
                break
    if best is None:
        return WorstCase(LogValue(1))
    x, x2 = best[1]()
    return WorstCase(best[0], x, x2)


# --- zCDP ------------------------------------------------------------------------------------
@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class ZCDPBounds:
    """ρ of ρ-zCDP: certified rational bounds, and the exact value when it is proved.

    Attributes:
        lower: a rational with ``lower <= ρ`` (certified).
        upper: a rational with ``ρ <= upper`` (certified); ``None`` when ρ = ∞.
        value: the exact ρ when proved (``D_KL`` of the worst pair, a closed form, when the
            supremum over α is the limit α → 1; ``0``; ``oo``), else ``None``.
        order: an order α with ``D_α/α >= lower`` (``None`` for the limit α → 1).
        database: x of the worst pair found.
        neighbour: x' of the worst pair found.
        within_tolerance: whether ``upper - lower <= tolerance * lower``; ``False`` when the
            refinement budget ran out first (the bounds are certified all the same, only
            wider: near-ties, whose objective is flat over a long range of orders, can do
            this).
    """

    lower: Fraction
    upper: Fraction | None
    value: Scalar | None
    order: Fraction | None = None
    database: Any = None
    neighbour: Any = None
    within_tolerance: bool = True

    def __str__(self) -> str:
        if self.value is not None:
            return f"ρ = {abbreviated(self.value, None)}"
        wider = "" if self.within_tolerance else " (wider than the tolerance asked for)"
        return f"{abbreviated(self.lower, None)} <= ρ <= {abbreviated(self.upper, None)}{wider}"


_PRECISION = 128
_STEPS = 5_000


def _fraction(point: arb) -> Fraction:
    """An exact arb point (a ball's end) as a Fraction."""
    mantissa, exponent = point.mid().man_exp()
    return Fraction(int(mantissa)) * Fraction(2) ** int(exponent)


def _simple_point(low: Fraction, high: Fraction) -> Fraction:
    """A rational of small denominator strictly inside (low, high), near its middle.

    Lower bounds are evaluated there, so that the reported order α stays a short rational
    (a dyadic midpoint after thousands of bisections makes D_α a root of huge degree).
    """
    middle, limit = (low + high) / 2, 1
    while True:
        candidate = middle.limit_denominator(limit)
        if low < candidate < high:
            return candidate
        limit *= 2


def _ball(value: Fraction, radius: Fraction = Fraction(0)) -> arb:
    return arb(fmpq(value.numerator, value.denominator), fmpq(radius.numerator, radius.denominator))


class _Objective:
    """f(t) = K(t) / (t (1 + t)) with K(t) = log E_P[e^{tL}] (t = α - 1), in balls."""

    def __init__(self, pld: PrivacyLossDistribution, precision: int = _PRECISION) -> None:
        self.weights = [certify.enclosure(m, precision) for m in pld.masses]
        self.logs = [
            certify.enclosure(sympy.log(to_sympy(loss.ratio)), precision) for loss in pld.losses
        ]
        self.kl = sum((w * x for w, x in zip(self.weights, self.logs, strict=True)), arb(0))

    def cumulant(self, t: arb) -> arb:
        total = sum(
            (w * (x * t).exp() for w, x in zip(self.weights, self.logs, strict=True)), arb(0)
        )
        return total.log()

    def curvature(self, t: arb) -> arb:
        """K''(t): the variance of L under the law tilted by e^{tL} (t may be a wide ball)."""
        tilted = [w * (x * t).exp() for w, x in zip(self.weights, self.logs, strict=True)]
        total = sum(tilted, arb(0))
        mean = sum((w * x for w, x in zip(tilted, self.logs, strict=True)), arb(0)) / total
        square = sum((w * x * x for w, x in zip(tilted, self.logs, strict=True)), arb(0)) / total
        return square - mean * mean

    def slope(self, t: arb) -> arb:
        """f'(t) = (K'(t) t(1+t) - K(t)(1+2t)) / (t(1+t))² on a ball t (K' = tilted mean)."""
        tilted = [w * (x * t).exp() for w, x in zip(self.weights, self.logs, strict=True)]
        total = sum(tilted, arb(0))
        mean = sum((w * x for w, x in zip(tilted, self.logs, strict=True)), arb(0)) / total
        scale = t * (1 + t)
        return (mean * scale - total.log() * (1 + 2 * t)) / (scale * scale)

    def value(self, t: Fraction) -> arb:
        ball = _ball(t)
        return self.cumulant(ball) / (ball * (1 + ball))

    def upper(self, low: Fraction, high: Fraction) -> Fraction:
        """A certified upper bound of f on [low, high] (module docstring of _pair_zcdp)."""
        t2 = _ball(high)
        bound = _fraction((self.cumulant(t2) / t2 / (1 + _ball(low))).upper())
        if low == 0:
            taylor = (self.kl + t2 * self.curvature(_ball(high / 2, high / 2)) / 2) / (1 + t2)
            if taylor.is_finite():  # K'' over a wide ball can be unbounded
                return min(bound, max(_fraction(taylor.upper()), _fraction(self.kl.upper())))
            return bound
        middle, half = (low + high) / 2, (high - low) / 2  # centred form: f(m) + f'(I)·[-h, h]
        centred = self.value(middle) + self.slope(_ball(middle, half)) * _ball(Fraction(0), half)
        if centred.is_finite():
            bound = min(bound, _fraction(centred.upper()))
        return bound

    def near_zero_at_most_kl(self, high: Fraction) -> bool:
        """sup_{(0, high]} f <= D_KL, proved by K'' <= 2 D_KL on [0, high]."""
        curvature = self.curvature(_ball(high / 2, high / 2))
        return curvature.is_finite() and _fraction(curvature.upper()) <= 2 * _fraction(
            self.kl.lower()
        )


def _pair_zcdp(
    pld: PrivacyLossDistribution, tolerance: Fraction, precision: int = _PRECISION
) -> ZCDPBounds:
    """sup_{α>1} D_α(P || Q)/α for one pair, certified (Bun, Steinke 2016, Def 1.1).

    With t = α - 1 the objective is f(t) = K(t)/(t(1+t)), K(t) = log E_P[e^{tL}] convex with
    K(0) = 0, so K(t)/t increases from K'(0) = D_KL and on [t1, t2]
    ``f <= K(t2)/t2 / (1 + t1)`` and ``f <= f(m) + max|f'| (t2 - t1)/2`` (the centred form,
    second order near the maximum); for t >= T, ``f <= D_∞/(1 + T)``; near 0,
    ``K(t) <= t D_KL + t²/2 max_{[0,t]} K''`` so ``sup_{(0,t2]} f <= max(D_KL,
    (D_KL + t2 M/2)/(1 + t2))`` and ``<= D_KL`` when ``M = max K'' <= 2 D_KL``.  Branch and
    bound refines the piece of largest bound; midpoints give certified lower bounds, and
    f → D_KL as t → 0.  When no point beats D_KL and every piece is certified at most
    D_KL, ρ = D_KL exactly (not attained).
    """
    if not prove_zero(pld.mass_at_infinity):
        return ZCDPBounds(Fraction(0), None, sympy.oo)
    if all(exact_compare(loss.ratio, Fraction(1)) == 0 for loss in pld.losses):
        return ZCDPBounds(Fraction(0), Fraction(0), Fraction(0))
    with ctx.workprec(precision):
        objective = _Objective(pld, precision)
        kl_low = _fraction(objective.kl.lower())
        if kl_low <= 0:  # D_KL > 0 (the laws differ) but below the working precision
            raise Undecided(
                f"zCDP ρ of a pair: D_KL is positive but not separated from 0 at "
                f"{abbreviated(precision)} bits"
            )
        largest = certify.enclosure(sympy.log(to_sympy(pld.losses[-1].ratio)), precision)
        span = Fraction(1)
        while _fraction(largest.upper()) / (1 + span) > kl_low:  # the tail is below D_KL
            span *= 2
        tail = _fraction(largest.upper()) / (1 + span)
        edges = [Fraction(0)] + [span / 2**j for j in range(12, -1, -1)]
        bounds = {(a, b): objective.upper(a, b) for a, b in itertools.pairwise(edges)}
        lower, order = kl_low, None
        for a, b in bounds:
            t = _simple_point(a, b)
            point = _fraction(objective.value(t).lower())
            if point > lower:
                lower, order = point, t + 1
        heap = [(-u, a, b) for (a, b), u in bounds.items()]  # the piece of largest bound first
        heapq.heapify(heap)
        upper = max(-heap[0][0], tail)
        for _ in range(_STEPS):
            upper = max(-heap[0][0], tail)
            if upper - lower <= tolerance * lower:
                break
            _, a, b = heapq.heappop(heap)
            middle = (a + b) / 2
            for piece in ((a, middle), (middle, b)):
                heapq.heappush(heap, (-objective.upper(*piece), *piece))
                t = _simple_point(*piece)
                point = _fraction(objective.value(t).lower())
                if point > lower:
                    lower, order = point, t + 1
        upper = max(-heap[0][0], tail)
        bounds = {(a, b): -negated for negated, a, b in heap}
        proved = order is None and all(
            u <= kl_low or (a == 0 and objective.near_zero_at_most_kl(b))
            for (a, b), u in bounds.items()
        )
    return ZCDPBounds(
        lower,
        upper,
        pld.expectation() if proved else None,
        order,
        within_tolerance=upper - lower <= tolerance * lower,
    )


def zcdp_rho(mechanism: object, *, tolerance: object = "1/1000000") -> ZCDPBounds:
    """The least ρ of ρ-zCDP: ``max_{x ~ x'} sup_{α>1} D_α(M(x) || M(x'))/α`` (certified).

    Bun, Steinke 2016, Def 1.1.  Returns rational bounds within the relative ``tolerance``
    (``within_tolerance`` is ``False``, the bounds still certified, if branch and bound does
    not reach it within its step budget of 5000 refinements per pair); log2(1/tolerance) is
    checked against ``Bounds.tolerance_bits`` and the balls' precision follows it
    and, when proved, the exact value: ``D_KL(M(x) || M(x'))`` of the worst pair when the
    supremum is the limit α → 1 (randomized response, for instance), ``0`` or ``oo``.

    >>> from exactpml import DatabaseMechanism
    >>> rr = DatabaseMechanism({(0,): {0: "3/4", 1: "1/4"}, (1,): {0: "1/4", 1: "3/4"}})
    >>> print(zcdp_rho(rr).value)
    log(3)/2
    """
    relative = checked_tolerance(tolerance, where="zcdp_rho", relative=True)
    precision = max(_PRECISION, tolerance_digits(relative) + 28)  # the balls follow it
    checked = as_database_mechanism(mechanism)
    reduction = checked.reduction()
    results: list[tuple[ZCDPBounds, Any]] = []
    seen: set[tuple[Label, Label]] = set()
    for v, v2, databases in reduction.pairs():
        if (v, v2) in seen:
            continue
        seen.add((v, v2))
        bounds = _pair_zcdp(
            privacy_loss_of_rows(reduction.row(v), reduction.row(v2)), relative, precision
        )
        results.append((bounds, databases))
        if bounds.value is sympy.oo:
            break
    if not results:
        return ZCDPBounds(Fraction(0), Fraction(0), Fraction(0))
    worst, databases = max(results, key=lambda item: item[0].lower)
    x, x2 = databases()
    if any(bounds.upper is None for bounds, _ in results):
        return ZCDPBounds(Fraction(0), None, sympy.oo, None, x, x2)
    upper = max(bounds.upper for bounds, _ in results if bounds.upper is not None)
    value = None
    if all(bounds.value is not None for bounds, _ in results):
        value = worst.value
        for bounds, _ in results:
            assert bounds.value is not None and value is not None
            if exact_compare(bounds.value, value) > 0:
                value = bounds.value
    within = all(bounds.within_tolerance for bounds, _ in results)  # then so is the max
    return ZCDPBounds(worst.lower, upper, value, worst.order, x, x2, within)


# --- conversions -------------------------------------------------------------------------
def rdp_to_dp_epsilon(
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    order: object,
    delta: object,
    conversion: str = "mironov",
) -> LogValue:
    """ε of (ε, δ)-DP implied by (α, ε_R)-RDP, as an exact LogValue.

    ``conversion="mironov"``: ``ε_R + log(1/δ)/(α-1)`` (Mironov 2017, Prop 3);
    ``conversion="cks"``: ``ε_R + log(1 - 1/α) - (log δ + log α)/(α-1)`` (Canonne, Kamath,
    Steinke 2020, Prop 12), never larger.  δ in (0, 1); ε_R given as ε (a number or
    LogValue) or as exp_epsilon = e^{ε_R}.

    The ratio e^ε holds δ^{-1/(α-1)}, about log2(1/δ)/(α-1) bits: when that is above
    ``Bounds.exact_bits`` (α near 1) the same exact value is kept in the log domain,
    ``LogValue(exp(ε_R + log(1/δ)/(α-1)))``, instead of being expanded.

    >>> print(rdp_to_dp_epsilon(exp_epsilon=2, order=3, delta="1/4"))
    log(4)
    >>> print(rdp_to_dp_epsilon(exp_epsilon=2, order=3, delta="1/4", conversion="cks"))
    log(8*sqrt(3)/9)
    >>> print(rdp_to_dp_epsilon(exp_epsilon=2, order="1+1e-8", delta="1/10"))
    log(2) + 100000000*log(10)
    """
    ratio = exp_epsilon_of(epsilon, exp_epsilon)
    alpha = renyi_order(order)
    if alpha is sympy.oo:
        raise InvalidArgument("order=oo: use the ε-DP of D_∞ itself (δ = 0)")
    assert type(alpha) is Fraction
    bound = probability(delta, name="delta", open_interval=True)
    if conversion not in ("mironov", "cks"):
        raise InvalidArgument(
            f"conversion={abbreviated_repr(conversion)} must be 'mironov' or 'cks'"
        )
    if ratio is sympy.oo:
        return LogValue.infinity()
    inverse = 1 / (alpha - 1)
    size = _size(bound) + (_size(alpha) if conversion == "cks" else 0)
    if power_bits(size, inverse) > current_bounds().exact_bits:
        # δ^{-1/(α-1)} would have too many digits (10^8 · log2(1/δ) bits at α = 1 + 10^-8):
        # the same number in the log domain, e^{ε_R + log(1/δ)/(α-1) [+ CKS terms]}
        logarithm = sympy.log(to_sympy(ratio)) - _rational(inverse) * sympy.log(to_sympy(bound))
        if conversion == "cks":
            a = _rational(alpha)
            logarithm += sympy.log(1 - 1 / a) - _rational(inverse) * sympy.log(a)
        return LogValue(UnexpandedExp(logarithm))
    exponent = -_rational(inverse)
    value = to_sympy(ratio) * to_sympy(bound) ** exponent
    if conversion == "cks":
        a = _rational(alpha)
        value = value * (1 - 1 / a) * a**exponent
    return LogValue(as_scalar(value))


def _nonnegative(value: object, name: str) -> Scalar:
    number = real_number(value, name=name, symbolic=False)
    if exact_sign(number) < 0:
        raise InvalidArgument(f"{name}={abbreviated(number)} must not be negative")
    return number


def zcdp_to_rdp_epsilon(rho: object, order: object) -> LogValue:
    """ρ-zCDP gives (α, ρα)-RDP for every α > 1 (Bun, Steinke 2016, Def 1.1): ``LogValue(e^{ρα})``.

    >>> print(zcdp_to_rdp_epsilon("1/2", 4))
    2
    """
    value = _nonnegative(rho, "rho")
    alpha = renyi_order(order)
    if alpha is sympy.oo:
        return LogValue(1) if exact_sign(value) == 0 else LogValue.infinity()
    return LogValue(as_scalar(_exp(to_sympy(value) * to_sympy(alpha))))


def zcdp_to_dp_epsilon(rho: object, delta: object) -> LogValue:
    """ρ-zCDP gives (ρ + 2√(ρ log(1/δ)), δ)-DP for δ in (0, 1) (Bun, Steinke 2016, Prop 1.3).

    >>> print(zcdp_to_dp_epsilon("1/2", "1/100"))
    1/2 + sqrt(2)*sqrt(log(100))
    """
    value = to_sympy(_nonnegative(rho, "rho"))
    bound = to_sympy(probability(delta, name="delta", open_interval=True))
    return LogValue(as_scalar(_exp(value + 2 * sympy.sqrt(value * sympy.log(1 / bound)))))


def dp_to_zcdp_rho(epsilon: object = None, *, exp_epsilon: object = None) -> Scalar:
    """ε-DP gives (ε²/2)-zCDP (Bun, Steinke 2016, Prop 1.4): returns ε²/2 exactly.

    >>> dp_to_zcdp_rho(exp_epsilon=3)
    log(3)**2/2
    """
    ratio = exp_epsilon_of(epsilon, exp_epsilon)
    if ratio is sympy.oo:
        return sympy.oo
    return as_scalar(sympy.log(to_sympy(ratio)) ** 2 / 2)
