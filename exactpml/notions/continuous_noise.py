"""δ(ε) of Laplace and Gaussian noise in closed form, and the least noise meeting (ε, δ).

For an answer of sensitivity Δ (neighbouring answers q, q' with |q - q'| <= Δ; δ(ε) grows
with |q - q'|, so the worst pair is |q - q'| = Δ):

* **Laplace** noise of scale b, ``t = Δ/b``: the privacy loss of an output y is
  ``(|y - q'| - |y - q|)/b``, equal to t left of both answers, -t right of them and linear
  in between, so the event {loss > ε} is a half-line and the hockey-stick divergence
  integrates in closed form (derived here from the densities):

      δ(ε) = 1 - e^ε                  for ε <= -t,
      δ(ε) = 1 - e^{(ε - t)/2}        for -t <= ε <= t,
      δ(ε) = 0                        for ε >= t;

  exact (a closed form in e^ε and e^{t/2}), for every real ε.
* **Gaussian** noise N(0, σ²): ``δ(ε) = Φ(Δ/(2σ) - εσ/Δ) - e^ε Φ(-Δ/(2σ) - εσ/Δ)`` (Balle,
  Wang 2018, Thm 8) with ``Φ(x) = erfc(-x/√2)/2``; an exact expression in erfc whose value
  is *certified* by Arb's rigorous erfc (:mod:`exactpml.core.certify`), for every real ε.
* **Calibration** -- the smallest noise meeting (ε, δ): for Laplace exactly
  ``b = Δ/(ε - 2 log(1 - δ))`` (solving the middle piece); for Gaussian a certified bracket
  ``lower < σ* <= upper`` of rationals (δ is decreasing in σ; bisection with certified
  comparisons), where ``upper`` provably meets (ε, δ) and ``lower`` provably does not.

>>> laplace_delta_for_epsilon(1, exp_epsilon=1)
1 - exp(-1/2)
>>> from exactpml.core import certify
>>> certify.decimal(gaussian_delta_for_epsilon(1, exp_epsilon=1), 10)
'0.3829249225'
>>> laplace_calibration(exp_epsilon=3, delta="1/10")
1/(-2*log(9/10) + log(3))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy
from flint import arb, ctx, fmpq

from exactpml.core import certify
from exactpml.core.bounds import current_bounds, exceeded
from exactpml.core.decisions import exact_compare
from exactpml.core.display import abbreviated_fields_repr
from exactpml.core.exact import Scalar, as_scalar, to_sympy
from exactpml.core.parameters import exp_epsilon_of, positive_scale, probability, short_number
from exactpml.core.parameters import tolerance as checked_tolerance
from exactpml.errors import InvalidArgument, Undecided
from exactpml.notions._common import UnexpandedExp

__all__ = [
    "Calibration",
    "gaussian_calibration",
    "gaussian_delta_for_epsilon",
    "laplace_calibration",
    "laplace_delta_for_epsilon",
]


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class Calibration:
    """The least noise parameter meeting (ε, δ).

    Attributes:
        value: a parameter that provably meets (ε, δ): the exact least one when ``exact``.
        lower: a parameter that provably does not (equal to ``value`` when ``exact``).
        exact: True when ``value`` is the exact least parameter.
    """

    value: Scalar
    lower: Scalar
    exact: bool


def _exp(x: sympy.Expr) -> sympy.Expr:
    """exp(x), simplified by sympy only when that is cheap.

    ``exp(c log r)`` becomes ``r^c``; for a rational c with a large numerator sympy would
    form ``r^numerator`` first (a million-digit integer for ``(10^5/99999)^(2·10^6/999999)``),
    so such exponentials stay unevaluated (certified arithmetic encloses them directly), as
    an :class:`~exactpml.notions._common.UnexpandedExp`, which no later rebuilding expands.
    """
    for term in sympy.Add.make_args(sympy.expand(x)):
        coefficient, rest = term.as_coeff_Mul()
        if rest is sympy.S.One or not isinstance(rest, sympy.log):
            continue
        if not isinstance(coefficient, sympy.Rational) or abs(coefficient.p) > 64:
            return UnexpandedExp(x)
    return sympy.exp(x)


def _phi(x: sympy.Expr) -> sympy.Expr:
    return sympy.erfc(-x / sympy.sqrt(2)) / 2


def _ball(value: Scalar) -> arb:
    """A 64-bit ball around an exact number (the cost model's estimate; never a verdict)."""
    if type(value) is Fraction:
        return arb(fmpq(value.numerator, value.denominator))
    return certify.enclosure(value, 64)


def _log_ball(ratio: Scalar) -> arb:
    """ε = log e^ε as a 64-bit ball."""
    if type(ratio) is Fraction:
        return arb(fmpq(ratio.numerator, ratio.denominator)).log()
    return certify.enclosure(sympy.log(to_sympy(ratio)), 64)


def _gaussian_arguments(sigma: Scalar, width: Scalar, ratio: Scalar) -> tuple[arb, arb]:
    """(a, b) = (Δ/(2σ) - εσ/Δ, -Δ/(2σ) - εσ/Δ): δ(ε) = Φ(a) - e^ε Φ(b), as 64-bit balls."""
    with ctx.workprec(64):
        s, w, e = _ball(sigma), _ball(width), _log_ball(ratio)
        return w / (2 * s) - e * s / w, -w / (2 * s) - e * s / w


def _check_tails(sigma: Scalar, width: Scalar, ratio: Scalar, *, where: str) -> None:
    """Refuse a σ whose Gaussian tails Φ(x) ~ e^{-x²/2} have x²/2 above
    ``Bounds.exponential_argument`` (certified arithmetic could not enclose them; sympy's
    printer overflows on erfc(10^9999))."""
    a, b = _gaussian_arguments(sigma, width, ratio)
    with ctx.workprec(64):
        largest = max(abs(a).upper(), abs(b).upper())
        exponent = largest * largest / 2
    limit = current_bounds().exponential_argument
    if exponent > limit:
        size = f"2^{_bits(exponent)}" if exponent.is_finite() else "oo"
        raise exceeded(
            where,
            f"sigma={_shown(sigma)} (sensitivity={_shown(width)}) puts the Gaussian tails at "
            f"Φ(x) ~ e^(-x²/2) with x²/2 about {size}",
            "exponential_argument",
        )


def _bits(ball: arb) -> int:
    """The binary exponent of a positive ball's midpoint: about log2 of the value."""
    mantissa, exponent = ball.mid().man_exp()
    return int(exponent) + int(mantissa).bit_length()


def _shown(value: Scalar) -> str:
    return short_number(value) if type(value) is Fraction else str(value)[:80]


def laplace_delta_for_epsilon(
    scale: object,
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    sensitivity: object = 1,
) -> Scalar:
    """δ(ε) of Laplace noise of scale b at sensitivity Δ, in closed form, every real ε.

    In the middle piece the exponent (ε - Δ/b)/2 of e is checked against
    ``Bounds.exponential_argument`` (a scale of 10^-9999 is refused naming it).

    >>> laplace_delta_for_epsilon(2, exp_epsilon="1/2", sensitivity=1)
    Fraction(1, 2)
    """
    b = positive_scale(scale, name="scale")
    width = positive_scale(sensitivity, name="sensitivity")
    ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
    t = to_sympy(width) / to_sympy(b)
    if ratio is sympy.oo:
        return Fraction(0)
    if type(ratio) is Fraction and ratio == 0:
        return Fraction(1)
    # compare ε = log e^ε with ±t: exp of a sum of logs would make sympy raise rationals to
    # huge rational powers (e.g. (10^5/99999)^(2·10^6/999999)) while building it
    e = sympy.log(to_sympy(ratio))
    if exact_compare(as_scalar(e), as_scalar(t)) >= 0:
        return Fraction(0)
    if exact_compare(as_scalar(e), as_scalar(-t)) <= 0:
        return as_scalar(1 - to_sympy(ratio))
    # the exponent (ε - t)/2 lies in (-t, 0): t is checked (exactly when it is rational)
    ratio_t = as_scalar(t)
    if type(ratio_t) is Fraction:
        above = ratio_t > current_bounds().exponential_argument
        exponent = arb(fmpq(ratio_t.numerator, ratio_t.denominator))
    else:
        with ctx.workprec(64):
            exponent = (_ball(width) / _ball(b)).upper()
        above = bool(exponent > current_bounds().exponential_argument)
    if above:
        raise exceeded(
            "laplace_delta_for_epsilon",
            f"scale={_shown(b)} (sensitivity={_shown(width)}) puts δ = 1 - e^((ε - Δ/b)/2) "
            f"with Δ/b about 2^{_bits(exponent)}",
            "exponential_argument",
        )
    return as_scalar(1 - _exp((e - t) / 2))


def gaussian_delta_for_epsilon(
    sigma: object,
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    sensitivity: object = 1,
) -> Scalar:
    """δ(ε) of Gaussian noise N(0, σ²) at sensitivity Δ (Balle, Wang 2018, Thm 8), every real ε.

    An exact expression in erfc; :func:`exactpml.certify.decimal` gives certified digits.
    The tails Φ(x) ~ e^{-x²/2} at x = ±Δ/(2σ) - εσ/Δ are checked first: x²/2 above
    ``Bounds.exponential_argument`` (σ = 10^-9999 or 10^9999) is refused naming sigma.

    >>> gaussian_delta_for_epsilon(1, 0)
    1 - erfc(sqrt(2)/4)
    """
    checked_sigma = positive_scale(sigma, name="sigma")
    checked_width = positive_scale(sensitivity, name="sensitivity")
    s, width = to_sympy(checked_sigma), to_sympy(checked_width)
    ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
    if ratio is sympy.oo:
        return Fraction(0)
    if ratio == 0:
        return Fraction(1)
    if not (s.free_symbols or width.free_symbols or to_sympy(ratio).free_symbols):
        _check_tails(checked_sigma, checked_width, ratio, where="gaussian_delta_for_epsilon")
    e = sympy.log(to_sympy(ratio))
    return as_scalar(
        _phi(width / (2 * s) - e * s / width)
        - to_sympy(ratio) * _phi(-width / (2 * s) - e * s / width)
    )


def laplace_calibration(
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    delta: object = 0,
    sensitivity: object = 1,
) -> Scalar:
    """The least Laplace scale b with δ(ε) <= δ: ``Δ/(ε - 2 log(1 - δ))``, exactly.

    δ in [0, 1); ε = δ = 0 asks for infinite noise and is refused.

    >>> laplace_calibration(exp_epsilon=2)
    1/log(2)
    """
    ratio = exp_epsilon_of(epsilon, exp_epsilon)
    target = probability(delta, name="delta")
    width = to_sympy(positive_scale(sensitivity, name="sensitivity"))
    if exact_compare(target, Fraction(1)) >= 0:
        raise InvalidArgument("delta=1 is met by every scale: there is no least one")
    if ratio is sympy.oo:
        raise InvalidArgument("epsilon=oo is met by every scale: there is no least one")
    margin = sympy.log(to_sympy(ratio)) - 2 * sympy.log(1 - to_sympy(target))
    if exact_compare(as_scalar(margin), Fraction(0)) <= 0:
        raise InvalidArgument("epsilon = delta = 0 needs infinite noise")
    return as_scalar(width / margin)


def gaussian_calibration(
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    delta: object,
    sensitivity: object = 1,
    tolerance: object = "1/1000000",
) -> Calibration:
    """A certified bracket of the least σ with Gaussian δ(ε) <= δ (δ in (0, 1)).

    Bisection on rationals: ``value`` provably meets (ε, δ), ``lower`` provably does not,
    and ``value - lower <= tolerance · value``.  (Balle, Wang 2018, Alg 1 solves the same
    equation in floating point.)  δ(ε) decreases in σ; the search first finds the power of
    two 2^j above σ* by doubling and halving the exponent j (O(log j) evaluations, so
    δ = 10^-9999 is not 33 000 doublings), then bisects; log2(1/tolerance) is checked against
    ``Bounds.tolerance_bits``.  Where a tail is far out, δ(ε) is decided by
    Φ(x) <= e^{-x²/2}/2 (x <= 0) without evaluating erfc.

    >>> bracket = gaussian_calibration(exp_epsilon=3, delta="1/100000")
    >>> float(bracket.lower) < float(bracket.value) < 3.6
    True
    """
    ratio = exp_epsilon_of(epsilon, exp_epsilon)
    target = probability(delta, name="delta", open_interval=True)
    width = positive_scale(sensitivity, name="sensitivity")
    relative = checked_tolerance(tolerance, where="gaussian_calibration", relative=True)
    if ratio is sympy.oo:
        raise InvalidArgument("epsilon=oo is met by every sigma: there is no least one")
    if to_sympy(ratio).free_symbols or to_sympy(width).free_symbols:
        raise Undecided(
            "a certified bisection needs numbers: epsilon and sensitivity must not be symbolic",
            expression=to_sympy(ratio),
        )
    with ctx.workprec(64):
        log_target = _ball(target).log()

    def tail_verdict(sigma: Fraction) -> bool | None:
        """δ(ε) <= δ decided from the tails alone, when one is far out (else None).

        Φ(x) <= e^{-x²/2}/2 for x <= 0, so δ(ε) <= Φ(a) <= e^{-a²/2}/2 when a <= 0, and
        δ(ε) >= Φ(a) - e^ε Φ(b) >= 1 - e^{-a²/2}/2 - e^ε e^{-b²/2}/2 when b <= 0 <= a.
        """
        a, b = _gaussian_arguments(sigma, width, ratio)
        with ctx.workprec(64):
            if a < 0 and -(a * a) / 2 - arb(2).log() < log_target:
                return True
            if b < 0 and a > 0:
                low = 1 - (-(a * a) / 2).exp() / 2 - (_log_ball(ratio) - (b * b) / 2).exp() / 2
                if low > _ball(target):
                    return False
        return None

    def meets(sigma: Fraction) -> bool:
        verdict = tail_verdict(sigma)
        if verdict is not None:
            return verdict
        value = gaussian_delta_for_epsilon(sigma, exp_epsilon=ratio, sensitivity=width)
        # Undecided (a comparison past Bounds.certified_precision, e.g. δ(0) - 10^-9999,
        # which cancels 33 000 bits) propagates: treating it as "does not meet" would make
        # ``lower`` a claim without a proof
        return certify.compare(value, target) <= 0

    def power(j: int) -> Fraction:
        return Fraction(2) ** j

    # exponents: meets(2^high) and not meets(2^low), found by doubling the step
    if meets(Fraction(1)):
        high, step = 0, 1
        while meets(power(-step)):
            high, step = -step, 2 * step
        low = -step
    else:
        low, step = 0, 1
        while not meets(power(step)):
            low, step = step, 2 * step
        high = step
    while high - low > 1:  # meets is monotone in the exponent
        halfway = (low + high) // 2
        if meets(power(halfway)):
            high = halfway
        else:
            low = halfway
    upper, lower = power(high), power(low)
    while upper - lower > relative * upper:
        middle = (lower + upper) / 2
        if meets(middle):
            upper = middle
        else:
            lower = middle
    return Calibration(upper, lower, False)
