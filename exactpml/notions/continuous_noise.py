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

from exactpml.core import certify
from exactpml.core.decisions import exact_compare
from exactpml.core.display import abbreviated_fields_repr
from exactpml.core.exact import Scalar, as_scalar, to_sympy
from exactpml.core.parameters import exp_epsilon_of, positive_scale, probability
from exactpml.errors import InvalidArgument, Undecided

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
    so such exponentials stay unevaluated (certified arithmetic encloses them directly).
    """
    for term in sympy.Add.make_args(sympy.expand(x)):
        coefficient, rest = term.as_coeff_Mul()
        if rest is sympy.S.One or not isinstance(rest, sympy.log):
            continue
        if not isinstance(coefficient, sympy.Rational) or abs(coefficient.p) > 64:
            return sympy.exp(x, evaluate=False)
    return sympy.exp(x)


def _phi(x: sympy.Expr) -> sympy.Expr:
    return sympy.erfc(-x / sympy.sqrt(2)) / 2


def laplace_delta_for_epsilon(
    scale: object,
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    sensitivity: object = 1,
) -> Scalar:
    """δ(ε) of Laplace noise of scale b at sensitivity Δ, in closed form, every real ε.

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

    >>> gaussian_delta_for_epsilon(1, 0)
    1 - erfc(sqrt(2)/4)
    """
    s = to_sympy(positive_scale(sigma, name="sigma"))
    width = to_sympy(positive_scale(sensitivity, name="sensitivity"))
    ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
    if ratio is sympy.oo:
        return Fraction(0)
    if ratio == 0:
        return Fraction(1)
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
    equation in floating point.)

    >>> bracket = gaussian_calibration(exp_epsilon=3, delta="1/100000")
    >>> float(bracket.lower) < float(bracket.value) < 3.6
    True
    """
    ratio = exp_epsilon_of(epsilon, exp_epsilon)
    target = probability(delta, name="delta", open_interval=True)
    width = positive_scale(sensitivity, name="sensitivity")
    relative = probability(tolerance, name="tolerance", open_interval=True, rational=True)
    assert type(relative) is Fraction
    if ratio is sympy.oo:
        raise InvalidArgument("epsilon=oo is met by every sigma: there is no least one")
    if to_sympy(ratio).free_symbols or to_sympy(width).free_symbols:
        raise Undecided(
            "a certified bisection needs numbers: epsilon and sensitivity must not be symbolic",
            expression=to_sympy(ratio),
        )

    def meets(sigma: Fraction) -> bool:
        value = gaussian_delta_for_epsilon(sigma, exp_epsilon=ratio, sensitivity=width)
        try:
            return certify.compare(value, target) <= 0
        except Undecided:  # pragma: no cover - an exact tie of erfc with a rational
            return False

    upper = Fraction(1)
    while not meets(upper):
        upper *= 2
    lower = upper / 2
    while meets(lower):
        upper, lower = lower, lower / 2
    while upper - lower > relative * upper:
        middle = (lower + upper) / 2
        if meets(middle):
            upper = middle
        else:
            lower = middle
    return Calibration(upper, lower, False)
