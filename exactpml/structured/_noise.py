"""Noise added to a query's answer, and the optional threshold ("release only above m").

* :class:`NoNoise`: the answer itself;
* :class:`GeometricNoise`: ``Y = q + Z`` with the two-sided geometric law
  ``P(Z = z) = (1 - α)/(1 + α) α^{|z|}`` (α in (0, 1) rational; ε-DP with e^ε = 1/α for a
  sensitivity-1 integer query);
* :class:`LaplaceNoise`: ``Y = q + Lap(b)`` with density ``exp(-|y - q|/b) / (2b)`` (a
  continuous output, described by its density as a sympy expression in y).

With a threshold m the mechanism releases Y when ``Y > m`` and :data:`BOTTOM` otherwise.

**Finitely many outputs, exactly.**  Geometric noise has infinitely many outputs, but for
answers in ``[low, high]`` the likelihood ``P(Y = y | q) = c α^{|y - q|}`` factors as
``(c α^{y - high}) · α^{high - q}`` for every ``y >= high`` (and symmetrically below ``low``):
the columns of the tail are proportional, so releasing the tail event ``Y >= high + 1``
instead of y loses nothing about the database (a sufficient statistic).  PML, DP ratios,
hockey-stick divergences and simulators are unchanged by this lumping (each depends on
the columns only through ratios that are constant on a tail, or through sums over it).  The
finite outputs are therefore :class:`AtMost`\\ (low - 1), low, …, high,
:class:`AtLeast`\\ (high + 1), or with a threshold m: ``BOTTOM`` (the event Y <= m),
m + 1, …, high, ``AtLeast(max(high, m) + 1)``.

**Where the DP supremum is attained** (used by the closed forms of
:class:`~exactpml.structured.QueryMechanism`).  For answers q, q' and
``g(y) = |y - q| - |y - q'|`` the likelihood ratio of released outputs is ``α^{g(y)}``
(``e^{-g(y)/b}`` for Laplace).  g is non-increasing in y when q >= q' and non-decreasing when
q < q', and ``|g| <= |q - q'|``.  So ``sup_y p(y|q)/p(y|q')`` over released outputs is
attained at ``y = max(q, m + 1)`` when q >= q' and at ``y = m + 1`` when q < q' (at y = q
without threshold), and the only other candidate is ⊥, whose probability ``P(Z <= m - q)``
decreases in q.  Consequently, over all pairs of answers the largest ratio (free-lunch
privacy) is attained by the extreme pair (high, low) or (low, high).
"""

from __future__ import annotations

import functools
import math
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import exact_compare as compare_scalars
from exactpml.core.decisions import exact_sign as sign_of
from exactpml.core.display import number_text, pretty
from exactpml.core.exact import Scalar, as_scalar, coprime_fraction, exact, to_sympy
from exactpml.core.parameters import positive_scale, probability
from exactpml.database import BOTTOM
from exactpml.errors import InvalidArgument
from exactpml.structured._progression import Progression

__all__ = ["AtLeast", "AtMost", "GeometricNoise", "LaplaceNoise", "NoNoise", "Noise", "Window"]

Label = Hashable


@dataclass(frozen=True, slots=True)
class AtLeast:
    """The output event ``Y >= bound`` (a tail of proportional likelihoods, lumped)."""

    bound: int

    def __str__(self) -> str:
        return f"≥{self.bound}"


@dataclass(frozen=True, slots=True)
class AtMost:
    """The output event ``Y <= bound`` (a tail of proportional likelihoods, lumped)."""

    bound: int

    def __str__(self) -> str:
        return f"≤{self.bound}"


@dataclass(frozen=True, slots=True)
class Window:
    """The reachable answers (sorted; a lazy Progression or a tuple) and the threshold m
    (None: release everything)."""

    values: Sequence[Scalar]
    threshold: Scalar | None

    @property
    def low(self) -> Scalar:
        return self.values[0]

    @property
    def high(self) -> Scalar:
        return self.values[-1]

    def released(self, y: Scalar) -> bool:
        """True when an output y is released (no threshold, or y > m)."""
        return self.threshold is None or compare_scalars(y, self.threshold) > 0


class Noise(ABC):
    """Noise on the answer; finite-output noises describe their outputs exactly."""

    continuous: bool = False

    def check(self, window: Window) -> None:  # noqa: B027 - optional hook
        """Raise unless this noise can be added to these answers (e.g. integers only)."""

    @abstractmethod
    def outputs(self, window: Window) -> tuple[Label, ...]:
        """The finite output alphabet (events) for these answers."""

    @abstractmethod
    def probability(self, output: Label, answer: Scalar, window: Window) -> Scalar:
        """P(output | answer), exactly."""

    @abstractmethod
    def candidates(self, answer: Scalar, other: Scalar, window: Window) -> tuple[Label, ...]:
        """Outputs among which sup_y P(y|answer)/P(y|other) is attained (module docstring)."""


@dataclass(frozen=True, slots=True)
class NoNoise(Noise):
    """Release the answer itself (above the threshold, else ⊥)."""

    def release(self, answer: Scalar, window: Window) -> Label:
        return answer if window.released(answer) else BOTTOM

    def outputs(self, window: Window) -> tuple[Label, ...]:
        released = [v for v in window.values if window.released(v)]
        censored = len(released) < len(window.values)
        return (*released, BOTTOM) if censored else tuple(released)

    def probability(self, output: Label, answer: Scalar, window: Window) -> Scalar:
        return Fraction(int(self.release(answer, window) == output))

    def candidates(self, answer: Scalar, other: Scalar, window: Window) -> tuple[Label, ...]:
        return (self.release(answer, window),)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)


def _integer(value: Scalar, what: str) -> int:
    if type(value) is not Fraction or value.denominator != 1:
        raise InvalidArgument(
            f"geometric noise needs integer {what}, got {abbreviated(value)}; use LaplaceNoise for "
            "non-integer answers"
        )
    return int(value)


@dataclass(frozen=True, slots=True, init=False)
class GeometricNoise(Noise):
    """Two-sided geometric noise ``P(Z = z) = (1 - α)/(1 + α) α^{|z|}``, α in (0, 1) rational.

    >>> noise = GeometricNoise("1/2")
    >>> window = Window((Fraction(0), Fraction(1)), None)
    >>> [noise.probability(y, Fraction(0), window) for y in noise.outputs(window)]
    [Fraction(1, 3), Fraction(1, 3), Fraction(1, 6), Fraction(1, 6)]
    """

    alpha: Fraction

    def __init__(self, alpha: object) -> None:
        value = probability(alpha, name="alpha", open_interval=True, rational=True)
        assert type(value) is Fraction
        object.__setattr__(self, "alpha", value)

    def __repr__(self) -> str:
        return f"GeometricNoise({number_text(self.alpha)})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)

    def check(self, window: Window) -> None:
        values = window.values
        if isinstance(values, Progression) and values.is_integral():
            values = ()  # every value is an integer: start and step are
        for value in values:
            _integer(value, "answers")
        if window.threshold is not None:
            _integer(window.threshold, "threshold")

    # P(Z >= k) and P(Z <= j) in closed form (memoised: pairs of answers share them).
    def upper_tail(self, k: int) -> Fraction:
        """P(Z >= k) = α^k/(1 + α) for k >= 1, 1 - α^{1-k}/(1 + α) for k <= 0."""
        return _upper_tail(self.alpha, k)

    def lower_tail(self, j: int) -> Fraction:
        """P(Z <= j) = P(Z >= -j) by symmetry."""
        return self.upper_tail(-j)

    def point(self, z: int) -> Fraction:
        """P(Z = z)."""
        return _point(self.alpha, abs(z))

    def _bounds(self, window: Window) -> tuple[int, int, int | None]:
        low, high = int(window.low), int(window.high)
        threshold = None if window.threshold is None else int(window.threshold)
        return low, high, threshold

    def outputs(self, window: Window) -> tuple[Label, ...]:
        low, high, m = self._bounds(window)
        if m is None:
            return (AtMost(low - 1), *range(low, high + 1), AtLeast(high + 1))
        return (BOTTOM, *range(m + 1, high + 1), AtLeast(max(high, m) + 1))

    def event(self, y: int, window: Window) -> Label:
        """The output (event) containing the real output Y = y."""
        low, high, m = self._bounds(window)
        if m is not None:
            if y <= m:
                return BOTTOM
            return y if y <= high else AtLeast(max(high, m) + 1)
        if y < low:
            return AtMost(low - 1)
        return y if y <= high else AtLeast(high + 1)

    def probability(self, output: Label, answer: Scalar, window: Window) -> Scalar:
        q = _integer(answer, "answers")
        if output is BOTTOM:
            _, _, m = self._bounds(window)
            assert m is not None
            return self.lower_tail(m - q)
        if isinstance(output, AtLeast):
            return self.upper_tail(output.bound - q)
        if isinstance(output, AtMost):
            return self.lower_tail(output.bound - q)
        return self.point(int(output) - q)  # type: ignore[call-overload]

    def candidates(self, answer: Scalar, other: Scalar, window: Window) -> tuple[Label, ...]:
        q, q2 = _integer(answer, "answers"), _integer(other, "answers")
        _, _, m = self._bounds(window)
        if m is None:
            return (self.event(q, window),)
        y = max(q, m + 1) if q >= q2 else m + 1
        return (BOTTOM, self.event(y, window))


@dataclass(frozen=True, slots=True, init=False)
class LaplaceNoise(Noise):
    """Laplace noise of scale b > 0: density ``exp(-|y - q|/b) / (2b)``, a continuous output."""

    scale: Scalar
    continuous = True

    def __init__(self, scale: object) -> None:
        object.__setattr__(self, "scale", positive_scale(scale, name="scale"))

    def __repr__(self) -> str:
        return f"LaplaceNoise({number_text(self.scale)})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)

    def density(self, answer: Scalar) -> sympy.Expr:
        """The density of Y given the answer q, as a sympy expression in ``y``."""
        y = sympy.Symbol("y", real=True)
        b = to_sympy(self.scale)
        return sympy.exp(-sympy.Abs(y - to_sympy(answer)) / b) / (2 * b)

    def cdf(self, point: Scalar) -> Scalar:
        """P(Z <= t) = e^{t/b}/2 for t <= 0, 1 - e^{-t/b}/2 for t > 0."""
        t, b = to_sympy(point), to_sympy(self.scale)
        if sign_of(point) <= 0:
            return as_scalar(sympy.exp(t / b) / 2)
        return as_scalar(1 - sympy.exp(-t / b) / 2)

    def outputs(self, window: Window) -> tuple[Label, ...]:
        raise InvalidArgument(
            "Laplace noise has continuous outputs: use the mechanism's density(), or "
            "GeometricNoise for a finite (exactly lumped) output alphabet"
        )

    def probability(self, output: Label, answer: Scalar, window: Window) -> Scalar:
        return self.outputs(window)  # raises

    def candidates(self, answer: Scalar, other: Scalar, window: Window) -> tuple[Label, ...]:
        return self.outputs(window)  # raises

    def pair_supremum(
        self, answer: Scalar, other: Scalar, window: Window
    ) -> tuple[Scalar, Label, bool]:
        """(sup_y f(y|q)/f(y|q'), a point y (or ⊥) where it is attained or approached, attained)."""
        q, q2, b = to_sympy(answer), to_sympy(other), to_sympy(self.scale)
        m = window.threshold
        options: list[tuple[Scalar, Label, bool]] = []
        if compare_scalars(answer, other) >= 0:
            exponent = (q - q2) / b
            if m is None or compare_scalars(answer, m) > 0:
                options.append((as_scalar(sympy.exp(exponent)), answer, True))
            else:  # every released y > m >= q gives the same ratio
                options.append((as_scalar(sympy.exp(exponent)), as_scalar(to_sympy(m) + 1), True))
        elif m is None:
            options.append((as_scalar(sympy.exp((q2 - q) / b)), answer, True))
        else:  # q < q': g(y) is non-decreasing, so the infimum over y > m is g(m+)
            mm = to_sympy(m)
            g = sympy.Abs(mm - q) - sympy.Abs(mm - q2)
            ratio = as_scalar(sympy.exp(-g / b))
            if compare_scalars(m, answer) < 0:  # g is constant (= q - q') on (m, q]
                options.append((ratio, answer, True))
            elif compare_scalars(m, other) >= 0:  # g is constant (= q' - q) on [q', oo)
                options.append((ratio, as_scalar(mm + 1), True))
            else:  # q <= m < q': approached as y -> m+, never attained
                options.append((ratio, m, False))
        if m is not None:
            ratio = as_scalar(
                to_sympy(self.cdf(as_scalar(to_sympy(m) - q)))
                / to_sympy(self.cdf(as_scalar(to_sympy(m) - q2)))
            )
            options.append((ratio, BOTTOM, True))
        best = options[0]
        for option in options[1:]:
            if compare_scalars(option[0], best[0]) > 0:
                best = option
        return best


@functools.lru_cache(maxsize=65536)
def _upper_tail(a: Fraction, k: int) -> Fraction:
    """P(Z >= k) for α = u/d in lowest terms, with no gcd.

    k >= 1: α^k/(1 + α) = u^k / (d^{k-1} (d + u)).  Coprime: a prime dividing u^k and
    d^{k-1}(d + u) divides u and d, or u and d + u, hence u and d (gcd(u, d) = 1).
    k <= 0, j = 1 - k >= 1: 1 - u^j / D with D = d^{j-1} (d + u) gives (D - u^j) / D; a prime
    dividing D and D - u^j divides u^j, which was just excluded.
    """
    u, d = a.numerator, a.denominator
    if k >= 1:
        return coprime_fraction(u**k, d ** (k - 1) * (d + u))
    j = 1 - k
    denominator = d ** (j - 1) * (d + u)
    return coprime_fraction(denominator - u**j, denominator)


@functools.lru_cache(maxsize=65536)
def _point(a: Fraction, z: int) -> Fraction:
    """P(Z = ±z) = (1 - α)/(1 + α) α^z = (d - u) u^z / (d^z (d + u)), z >= 0, with one small gcd.

    g = gcd(d - u, d + u); (d - u)/g and (d + u)/g are coprime, u^z shares no prime with
    d^z (d + u) (as in :func:`_upper_tail`), and a prime dividing d - u and d divides u.
    """
    u, d = a.numerator, a.denominator
    g = math.gcd(d - u, d + u)
    return coprime_fraction((d - u) // g * u**z, d**z * ((d + u) // g))


def check_threshold(threshold: object, allowed: tuple[Scalar, Scalar]) -> Scalar | None:
    """Validate a threshold m: a real number inside ``allowed`` (counting: [0, n])."""
    if threshold is None:
        return None
    if isinstance(threshold, complex):
        raise InvalidArgument(f"threshold={abbreviated_repr(threshold)} must be a real number")
    value = exact(threshold, where="threshold")
    if compare_scalars(value, allowed[0]) < 0 or compare_scalars(value, allowed[1]) > 0:
        raise InvalidArgument(
            f"threshold={abbreviated(value)} must lie in [{abbreviated(allowed[0])}, "
            f"{abbreviated(allowed[1])}] (the range of the "
            "query's answers)"
        )
    return value
