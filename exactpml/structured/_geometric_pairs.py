r"""Where ε-DP and δ(ε) of a query with two-sided geometric noise are attained, in closed form.

Setting (:class:`~exactpml.structured.GeometricNoise`; Ghosh, Roughgarden and Sundararajan,
*Universally utility-maximizing privacy mechanisms*, 2012, for the noise): integer answers q,
``Y = q + Z`` with ``P(Z = z) = c α^{|z|}``, ``c = (1 - α)/(1 + α)``; with a threshold m the
output is Y when ``Y > m`` and ⊥ otherwise.  For answers q, q' write ``Δ = q - q'`` and
``g(y) = |y - q| - |y - q'|``, so ``p(y|q) / p(y|q') = α^{g(y)}`` for every released y;
g is monotone (non-increasing when Δ > 0, non-decreasing when Δ < 0) with ``|g| <= |Δ|``.

**Lemma 1 (translation invariance).**  Without threshold, or when ``m <= min(q, q')``,
``H_E(P_q ‖ P_q')`` and ``sup_o p(o|q)/p(o|q')`` depend on Δ only.
*Proof.*  For ``y <= min(q, q')``, ``g(y) = (q - y) - (q' - y) = Δ``: the outputs ``y <= m``
that ⊥ lumps together have one likelihood ratio.  Lumping outputs of equal ratio changes
neither the set of ratios nor H_E (on such a set the terms ``p(y) - E p'(y)`` all have the
sign of ``α^Δ - E``, so the sum of their positive parts is the positive part of their sum).
Unlumped, ``y ↦ y - q'`` maps (P_q, P_q') to the laws of (Δ + Z, Z).  The lumped tails
``≤ low - 1`` and ``≥ high + 1`` of :mod:`exactpml.structured._noise` are such sets too.  □

**Lemma 2 (below the threshold).**  If ``max(q, q') <= m``, let
``A = P(Z >= m + 1 - q) = α^{m+1-q}/(1 + α)``.  Every released y exceeds both answers, so
``g(y) = -Δ`` there, ``P(released | q') = A α^Δ``, and

    H_E(P_q ‖ P_q') = max(0, A (1 - E α^Δ)) + max(0, (1 - A) - E (1 - A α^Δ)),
    sup_o p(o|q)/p(o|q') = max(α^{-Δ}, (1 - A)/(1 - A α^Δ)).

For fixed Δ the first is convex in A (a sum of positive parts of affine functions) and the
second is the maximum of a constant and a Möbius function of A, monotone because its
derivative ``(α^Δ - 1)/(1 - A α^Δ)^2`` has one sign.  Both are largest over a set of A at
its least or greatest element, and A increases with q.  □

**Theorem.**  Group the neighbouring pairs as ``(base + g, base + g')`` over the bases of a
:class:`~exactpml.structured._statistic.PairFamily` and its moves (g, g').  For each move the
largest δ(ε) and the largest ratio are attained among: one base with
``base + min(g, g') >= m`` (Lemma 1: all such pairs are equal), the least and the greatest
base with ``base + max(g, g') <= m`` (Lemma 2), and every base strictly between
``m - max(g, g')`` and ``m - min(g, g')`` (at most ``|g - g'| - 1`` of them, evaluated one by
one).  So a counting query needs at most six pairs instead of 2n, and each pair's value is
O(1) exact operations (:func:`pair_hockey_stick`) instead of a comparison of two rows of
length n + 2.  The tests check the result against every pair and against D^n.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from fractions import Fraction
from typing import Any

from exactpml.core.decisions import exact_compare
from exactpml.core.exact import Scalar, exact_difference, exact_product, exact_sum
from exactpml.database import BOTTOM
from exactpml.structured._noise import AtLeast, AtMost, GeometricNoise
from exactpml.structured._progression import index_at_least, index_at_most
from exactpml.structured._statistic import PairFamily, Witness

__all__ = ["Event", "candidate_pairs", "event_labels", "pair_hockey_stick"]

Label = Hashable
Event = tuple[int | None, int | None, bool]
"""Released raw outputs ``lo <= y <= hi`` (None: unbounded) and whether ⊥ is in the event."""


def candidate_pairs(
    families: Sequence[PairFamily], threshold: Scalar | None
) -> Iterator[tuple[Scalar, Scalar, Witness]]:
    """The neighbouring pairs (q, q', witness) among which the worst one lies (Theorem)."""
    for family in families:
        bases = family.bases
        if not bases:
            continue
        for g, g2, key in family.moves:
            chosen: list[int] = []
            if g == g2 or threshold is None:
                chosen.append(len(bases) - 1)
            else:
                assert type(threshold) is Fraction
                low, high = min(g, g2), max(g, g2)
                if bases[-1] + low >= threshold:  # Lemma 1
                    chosen.append(len(bases) - 1)
                below = index_at_most(bases, threshold - high)
                if below >= 0:  # Lemma 2
                    chosen += [0, below]
                start = index_at_most(bases, threshold - high) + 1
                stop = index_at_least(bases, threshold - low)
                chosen += range(start, stop)  # straddling the threshold
            for position in dict.fromkeys(chosen):
                base = bases[position]
                yield base + g, base + g2, _witness(family, base, key)


def _witness(family: PairFamily, base: Fraction, key: Any) -> Witness:
    return lambda: family.witness(base, key)


def _exceeds(alpha: Fraction, exponent: int, ratio: Scalar) -> bool:
    """α^exponent > E, decided exactly (rational E) or by certified comparison."""
    power = alpha**exponent
    if type(ratio) is Fraction:
        return power > ratio
    return exact_compare(power, ratio) > 0


def pair_hockey_stick(
    noise: GeometricNoise, answer: int, other: int, ratio: Scalar, threshold: int | None
) -> tuple[Scalar, Event]:
    """(H_E(P_q ‖ P_q'), the event {o : p(o|q) > E p(o|q')}) for answers q, q', E = ratio.

    The released part of the event is an interval of raw outputs, because the ratio
    ``α^{g(y)}`` is monotone in y; its end is found by bisection on the exponent (O(log Δ)
    exact comparisons), and its masses are tails of Z in closed form.  ⊥ is compared
    directly.  H_E is then ``P_q(S) - E P_q'(S)``, exactly.
    """
    alpha = noise.alpha
    q, q2, m = answer, other, threshold
    delta = q - q2
    lo: int | None
    hi: int | None
    if delta == 0:  # equal laws: the ratio is 1 on every output
        lo, hi = (None, None) if _exceeds(alpha, 0, ratio) else (1, 0)
    elif delta > 0:  # the ratio α^{g(y)} is non-decreasing in y: S = {y >= y0}
        if _exceeds(alpha, delta, ratio):
            lo, hi = None, None
        elif not _exceeds(alpha, -delta, ratio):
            lo, hi = 1, 0  # empty
        else:  # α^{q + q' - 2y} > E fails at y = q' and holds at y = q
            fails, holds = q2, q
            while holds - fails > 1:
                middle = (fails + holds) // 2
                if _exceeds(alpha, q + q2 - 2 * middle, ratio):
                    holds = middle
                else:
                    fails = middle
            lo, hi = holds, None
    else:  # non-increasing: S = {y <= y1}
        if _exceeds(alpha, -delta, ratio):
            lo, hi = None, None
        elif not _exceeds(alpha, delta, ratio):
            lo, hi = 1, 0
        else:  # α^{2y - q - q'} > E holds at y = q and fails at y = q'
            holds, fails = q, q2
            while fails - holds > 1:
                middle = (fails + holds) // 2
                if _exceeds(alpha, 2 * middle - q - q2, ratio):
                    holds = middle
                else:
                    fails = middle
            lo, hi = None, holds
    if m is not None and (lo is None or lo <= m):
        lo = m + 1  # released outputs only
    mass = _interval_mass(noise, q, lo, hi)
    mass_other = _interval_mass(noise, q2, lo, hi)
    terms = [exact_difference(mass, exact_product(ratio, mass_other))]
    bottom = False
    if m is not None:
        at, at_other = noise.lower_tail(m - q), noise.lower_tail(m - q2)
        scaled = exact_product(ratio, at_other)
        if exact_compare(at, scaled) > 0:
            bottom = True
            terms.append(exact_difference(at, scaled))
    return exact_sum(terms), (lo, hi, bottom)


def _interval_mass(noise: GeometricNoise, answer: int, lo: int | None, hi: int | None) -> Scalar:
    """P(lo <= answer + Z <= hi) (None: unbounded), from the closed-form tails."""
    if lo is not None and hi is not None and lo > hi:
        return Fraction(0)
    upper = Fraction(1) if lo is None else noise.upper_tail(lo - answer)  # P(Y >= lo)
    if hi is None:
        return upper
    return upper - (Fraction(1) - noise.lower_tail(hi - answer))  # minus P(Y > hi)


def event_labels(outputs: Sequence[Label], event: Event) -> frozenset[Label]:
    """The (lumped) outputs of an event, for the worst pair only.

    ``outputs`` is GeometricNoise's alphabet: a lower tail (``AtMost`` or ⊥), consecutive
    integers, an ``AtLeast`` tail.  Each lumped output has one likelihood ratio, so its
    bound decides whether it lies in the event; the integers are one range.
    """
    lo, hi, bottom = event

    def inside(y: int) -> bool:
        return (lo is None or lo <= y) and (hi is None or y <= hi)

    first, last = outputs[0], outputs[-1]
    assert isinstance(last, AtLeast)
    chosen: set[Label] = set()
    if first is BOTTOM:
        if bottom:
            chosen.add(first)
    elif isinstance(first, AtMost) and inside(first.bound):
        chosen.add(first)
    if inside(last.bound):
        chosen.add(last)
    if len(outputs) > 2:
        begin, end = int(outputs[1]), int(outputs[-2])  # type: ignore[call-overload]
        begin = begin if lo is None else max(begin, lo)
        end = end if hi is None else min(end, hi)
        chosen.update(range(begin, end + 1))
    return frozenset(chosen)
