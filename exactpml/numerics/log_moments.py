"""Certified log-moments log Σ_i m_i r_i^t at any order t, without forming the powers r_i^t.

Every Rényi-type quantity of order α of finite laws is a *log-moment*: for weights m_i > 0 and
ratios r_i > 0,

    K(t) = log Σ_i m_i r_i^t,

the Rényi divergence D_α(P || Q) = K(α - 1)/(α - 1) with m = p, r = p/q (van Erven and
Harremoës 2014, eq. (1); Mironov 2017, Def 3), the Rényi entropy H_α(P) = -K(α - 1)/(α - 1)
with m = r = p (Rényi 1961), and the inner sums of Sibson's I_α (Verdú 2015, eq. (26)).  An
exact value holds r^t, a number of about t · log2(r) bits (10^6 bits at t = 10^6); the balls
here cost O(log t) bits, so t = 10^999 is as cheap as t = 2.

**The enclosure.**  With R = max_i r_i (for t > 0; min for t < 0, where r^t = (1/r)^{|t|}),

    K(t) = t log R + log S(t),   S(t) = Σ_i m_i (r_i/R)^t,

and every term of S is m_i e^{-x_i} with x_i = |t| log(R/r_i) >= 0.  A term with
x_i > precision · log 2 is below m_i 2^-precision: it is enclosed by the ball
[0, m_i 2^-precision] instead of being evaluated (e^{-x} of a huge x is never formed), the
others are evaluated in Arb.  Hence, with M the mass at the top ratio,
t log R + log M <= K(t) <= t log R + log Σ m for t > 0, and K(t)/t is enclosed to about
``precision`` bits whatever t.

>>> from fractions import Fraction
>>> from flint import ctx
>>> with ctx.workprec(64):
...     ball = log_moment([Fraction(1, 2), Fraction(1, 2)], [Fraction(2), Fraction(1)], 10**999)
...     bool(ball / 10**999 > 0.693) and bool(ball / 10**999 < 0.6932)  # K(t)/t -> log 2
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from flint import arb, fmpq

from exactpml.core.parameters import short_number, tolerance_digits, within_bound

__all__ = ["PRECISION", "RenyiBounds", "ball_ends", "log_moment", "order_precision"]

PRECISION = 128
"""Working precision (bits) of the enclosures, before the cancellation near α = 1 is added."""


@dataclass(frozen=True, slots=True)
class RenyiBounds:
    """A Rényi-type quantity known to lie in [lower, upper] (certified by ball arithmetic).

    Attributes:
        lower: a rational lower bound.
        upper: a rational upper bound; ``None`` when the quantity is +∞ (``lower`` is then 0).
        order: the order α the bounds are for.
    """

    lower: Fraction
    upper: Fraction | None
    order: object

    @property
    def width(self) -> Fraction | None:
        """``upper - lower`` (``None`` for an infinite quantity)."""
        return None if self.upper is None else self.upper - self.lower

    def __str__(self) -> str:
        if self.upper is None:
            return f"RenyiBounds(oo, order={self.order})"
        return f"RenyiBounds({self.lower} <= value <= {self.upper}, order={self.order})"


def _arb(value: Fraction | int) -> arb:
    value = Fraction(value)
    return arb(fmpq(value.numerator, value.denominator))


def ball_ends(ball: arb) -> tuple[Fraction, Fraction]:
    """The exact rational ends (mid - rad, mid + rad) of a finite ball.

    >>> ball_ends(arb(fmpq(1, 4)))
    (Fraction(1, 4), Fraction(1, 4))
    """
    if not ball.is_finite():
        raise ArithmeticError("the ball is not finite")
    mid_man, mid_exp = ball.mid().man_exp()
    rad_man, rad_exp = ball.rad().man_exp()
    mid = Fraction(int(mid_man)) * Fraction(2) ** int(mid_exp)
    rad = Fraction(int(rad_man)) * Fraction(2) ** int(rad_exp)
    return mid - rad, mid + rad


def log_moment(
    masses: Sequence[Fraction], ratios: Sequence[Fraction], order: Fraction | int
) -> arb:
    """K(t) = log Σ_i m_i r_i^t as a ball, at the working precision of the caller's context.

    ``masses`` positive, ``ratios`` positive, ``order`` = t a non-zero rational (any size).
    Run inside ``flint.ctx.workprec(p)``: terms below m_i 2^-p are enclosed, not evaluated
    (module docstring).

    >>> from flint import ctx
    >>> with ctx.workprec(64):
    ...     ball = log_moment([Fraction(1, 4), Fraction(3, 4)], [Fraction(1, 3), Fraction(3)], 1)
    ...     ball.overlaps(arb(fmpq(7, 3)).log())  # log(1/4 · 1/3 + 3/4 · 3) = log(7/3)
    True
    """
    from flint import ctx

    t = Fraction(order)
    if t == 0 or not masses or len(masses) != len(ratios):
        raise ValueError("log_moment needs a non-zero order and as many masses as ratios")
    oriented = list(ratios) if t > 0 else [1 / r for r in ratios]
    size = abs(t)
    top = max(oriented)
    threshold = _arb(ctx.prec) * arb(2).log()  # e^{-x} < 2^-prec beyond it
    total = arb(0)
    negligible = Fraction(0)
    for mass, ratio in zip(masses, oriented, strict=True):
        if ratio == top:
            total += _arb(mass)
            continue
        exponent = _arb(size) * _arb(top / ratio).log()
        if exponent > threshold:  # certainly: the term is in [0, mass · 2^-prec]
            negligible += mass
        else:
            total += _arb(mass) * (-exponent).exp()
    if negligible:
        half = _arb(negligible) * arb(2) ** (-ctx.prec - 1)
        total += arb(half.mid(), half.mid() + half.rad())
    return _arb(size) * _arb(top).log() + total.log()


def order_precision(step: Fraction, *, where: str, shown: str, base: int = PRECISION) -> int:
    """The working precision for K(t)/t at t = ``step``: ``base`` plus log2(1/|t|) bits.

    Near α = 1 the log-moment K(t) ≈ t·K'(0) is found with absolute error 2^-p, so dividing
    by t loses log2(1/|t|) bits; the total is checked against ``Bounds.certified_precision``
    (``shown`` names the parameter, e.g. ``"order=1+1e-30"``).
    """
    extra = tolerance_digits(abs(Fraction(step)))
    precision = base + extra
    within_bound(
        precision,
        "certified_precision",
        where=where,
        what=f"{shown} (α - 1 = {short_number(Fraction(step))}) needs about {precision} bits "
        "of working precision",
    )
    return precision
