r"""δ_A(b) of a thresholded count over i.i.d. unknown records, from a few values of one CDF.

Thesis *Lowering the cost of anonymization*, §3.1.3, Def 57 and Example 7 (the thresholded
referendum): the mechanism releases the count C of predicate-true records when C > T, else
⊥.  With N unknown records i.i.d. Bernoulli(p) (p = a/d, c = d − a), the attacker's known
records holding k true values, and the target contributing σ (under t) or σ' (under t'), the
unknown count is U ~ Bin(N, p) with pmf π and CDF F, and

* P[⊥ | t, b] = F(T − k − σ),  P[count x | t, b] = π(x − k − σ) for x > T.

So δ_A(b) = Σ_o max(0, P[o|t,b] − r P[o|t',b]) (r = e^ε > 0) has the ⊥ term
``max(0, F(T−k−σ) − r F(T−k−σ'))`` and a sum over the released counts, which the likelihood
ratio order of the binomial settles without visiting them:

* (σ, σ') = (0, 1): the term at x = j + k is π(j) − r π(j−1); for 1 ≤ j ≤ N the ratio
  π(j)/π(j−1) = (N−j+1) a / (j c) is strictly decreasing in j, so the positive terms are
  exactly j ∈ [0, j*] with j* the largest j such that j (a + r c) < (N+1) a (and j = 0,
  where π(−1) = 0).  Their sum over j ∈ [j₀, j*], j₀ = max(T−k+1, 0), telescopes to
  ``F(j*) − F(j₀−1) − r (F(j*−1) − F(j₀−2))``.
* (σ, σ') = (1, 0): the term at x = i + k + 1 is π(i) − r π(i+1); π(i+1)/π(i) =
  (N−i) a / ((i+1) c) is strictly decreasing, so the positive terms are exactly i ∈ [i*, N]
  with i* the smallest i ≥ 0 such that i (c + r a) > r N a − c (and i = N, where
  π(N+1) = 0).  Over i ∈ [L, N], L = max(T−k, i*), the sum is
  ``1 − F(L−1) − r (1 − F(L))``.

(The degenerate p ∈ {0, 1}, where π is a point mass, follows the same formulas: the extra
terms in the ranges are 0.)  Every F(x) is an integer numerator over d^N summed by binary
splitting (:func:`exactpml.structured.count_law.binomial_tail_numerator`) and cached, so
δ_A(b) costs a few big-integer operations instead of a pass over every output; the result is
the same exact rational as the generic path of :mod:`exactpml.partial_knowledge.laws`
(``tests/partial_knowledge/test_thresholded.py`` compares them, and with enumeration).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import flint

from exactpml.core.exact import coprime_fraction, lowest_terms
from exactpml.structured.count_law import binomial_tail_numerator

__all__ = ["DeltaParts", "ThresholdedBinomialDeltas", "reduce_over_known_primes"]


@dataclass(frozen=True, slots=True)
class DeltaParts:
    """δ_A(b) = ``numerator / denominator`` (not reduced; the denominator is shared by every
    b and both orders of one setting) and its event S = {o : P[o|t,b] > r P[o|t',b]}: ⊥ if
    ``with_bottom``, and the released counts ``low..high`` (none if low > high)."""

    numerator: int
    denominator: int
    with_bottom: bool
    low: int
    high: int
    bottom: Hashable
    denominator_base: int

    def value(self) -> Fraction:
        """δ_A(b) in lowest terms."""
        return reduce_over_known_primes(self.numerator, self.denominator, self.denominator_base)

    def event(self) -> frozenset[Hashable]:
        """The output set S attaining δ_A(b) (Def 57's maximising event)."""
        counts: set[Hashable] = set(range(self.low, self.high + 1))
        if self.with_bottom:
            counts.add(self.bottom)
        return frozenset(counts)


class ThresholdedBinomialDeltas:
    """δ_A(b) for the count released iff > ``threshold``, over ``unknown`` i.i.d. records.

    Args:
        unknown: N, the number of unknown records (the target excluded).
        probability: p = P(a record is counted), the same for every unknown record.
        threshold: T (the count is released iff > T, else ``bottom``).
        bottom: the output below the threshold.
        value_counted, alternative_counted: σ and σ', whether t and t' are counted
            (different: otherwise the two laws coincide and the generic path applies).
    """

    __slots__ = ("_c", "_cdf", "_power", "a", "bottom", "d", "shifts", "threshold", "unknown")

    def __init__(
        self,
        unknown: int,
        probability: Fraction,
        threshold: int,
        bottom: Hashable,
        value_counted: bool,
        alternative_counted: bool,
    ) -> None:
        if value_counted == alternative_counted:
            raise ValueError("the closed form needs t and t' counted differently")
        self.unknown = unknown
        self.a, self.d = probability.numerator, probability.denominator
        self._c = self.d - self.a
        self.threshold = threshold
        self.bottom = bottom
        self.shifts = (int(value_counted), int(alternative_counted))
        self._power = self.d**unknown
        self._cdf: dict[int, int] = {}

    @property
    def denominator(self) -> int:
        """d^N: every F(x) is an integer over it."""
        return self._power

    def cdf(self, x: int) -> int:
        """F(x) · d^N = Σ_{j≤x} C(N,j) a^j c^(N−j) (0 below 0, d^N from N on), cached."""
        n = self.unknown
        if x < 0:
            return 0
        if x >= n:
            return self._power
        cached = self._cdf.get(x)
        if cached is None:
            if self._c == 0:  # p = 1: all the mass at N > x
                cached = 0
            elif self.a == 0:  # p = 0: all the mass at 0 <= x
                cached = self._power
            elif x <= n // 2:
                cached = binomial_tail_numerator(n, x, self.a, self._c)
            else:  # Σ_{j>x} summed over N − j, the shorter side
                cached = self._power - binomial_tail_numerator(n, n - x - 1, self._c, self.a)
            self._cdf[x] = cached
        return cached

    def parts(self, known_count: int, ratio: Fraction, *, reverse: bool = False) -> DeltaParts:
        """δ_A(b) for the knowledge classes with ``known_count`` counted known records, for
        r = e^ε = ``ratio`` > 0, for (t, t') (``reverse``: (t', t)), over ``rd · d^N``."""
        if not ratio > 0:
            raise ValueError("the closed form needs e^ε > 0")
        rn, rd = ratio.numerator, ratio.denominator
        sigma, sigma_alt = self.shifts[::-1] if reverse else self.shifts
        n, a, c, k, t = self.unknown, self.a, self._c, known_count, self.threshold
        cdf = self.cdf
        bottom_term = rd * cdf(t - k - sigma) - rn * cdf(t - k - sigma_alt)
        total = max(bottom_term, 0)
        if sigma == 0:  # terms π(j) − r π(j−1) at the count j + k, j >= j0
            last = min(max((rd * (n + 1) * a - 1) // (rd * a + rn * c), 0), n)
            first = max(t - k + 1, 0)
            if a == 0:  # only π(0) > 0
                last = 0
            elif c == 0:  # only π(N) > 0: the terms below N vanish
                first = max(first, n)
            if first <= last:
                total += rd * (cdf(last) - cdf(first - 1)) - rn * (cdf(last - 1) - cdf(first - 2))
            low, high = first + k, last + k
        else:  # terms π(i) − r π(i+1) at the count i + k + 1, i >= T − k
            start = min(max((rn * n * a - rd * c) // (rd * c + rn * a) + 1, 0), n)
            first, last = max(t - k, start), n
            if a == 0:  # only π(0) > 0: the terms above 0 vanish
                last = 0
            if first <= last:
                whole = self._power
                total += rd * (whole - cdf(first - 1)) - rn * (whole - cdf(first))
            low, high = first + k + 1, last + k + 1
        return DeltaParts(
            total, rd * self._power, bottom_term > 0, low, high, self.bottom, rd * self.d
        )


def reduce_over_known_primes(numerator: int, denominator: int, base: int) -> Fraction:
    """``Fraction(numerator, denominator)`` for a denominator whose prime factors all divide
    ``base`` (here rd · d): each such prime is divided out of both as often as it divides
    both, so the result is in lowest terms without a gcd of million-bit integers (the
    primes of ``base`` are found by FLINT; a base above 64 bits, or a valuation above 64,
    falls back to one FLINT gcd)."""
    if numerator == 0:
        return Fraction(0)
    primes = _primes_of(base)
    if primes is None:
        return lowest_terms(numerator, denominator)
    top, bottom = flint.fmpz(numerator), flint.fmpz(denominator)
    for prime in primes:
        for _ in range(64):
            if top % prime or bottom % prime:
                break
            top //= prime
            bottom //= prime
        else:
            return lowest_terms(int(top), int(bottom))
    return coprime_fraction(int(top), int(bottom))  # no prime of base divides both


@lru_cache(maxsize=64)
def _primes_of(base: int) -> tuple[flint.fmpz, ...] | None:
    """The prime factors of ``base`` (FLINT), or ``None`` above 64 bits (not worth factoring)."""
    if base.bit_length() > 64:
        return None
    return tuple(prime for prime, _ in flint.fmpz(base).factor())
