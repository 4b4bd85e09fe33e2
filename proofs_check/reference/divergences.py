"""Divergences between two finite laws, by enumeration from their definitions.

Plain ``Fraction`` arithmetic over every event (every subset of the outputs), the form the
sources write; no code shared with :mod:`exactpml.leakage` or :mod:`exactpml.notions`.
A law is a mapping ``output -> probability`` (a dict, an exactpml ``Distribution``) or a
sequence of probabilities indexed by position.  A ratio ``None`` stands for +∞.

* the max-divergence D∞(P‖Q) = log max_T P(T)/Q(T) (Vadhan, *Notes on the Definition of
  Differential Privacy*, §2; Saeidian et al., *Rethinking Disclosure Prevention with
  Pointwise Maximal Leakage*, Def 2.2), and its pointwise form;
* the statistical difference max_T |P(T) - Q(T)| (Vadhan §1.1) and ½‖P - Q‖₁;
* the hockey-stick divergence max_S P(S) - e^ε Q(S), which decides (ε, δ)-DP, in the set
  form, the PLRV form E_{O~P}[max(0, 1 - e^{ε - L(O)})] (thesis *Lowering the cost of
  anonymization*, Prop 8 and Def 57) and the pointwise form Σ_o max(0, p_o - e^ε q_o).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

__all__ = [
    "Law",
    "Ratio",
    "divergence_ratio_by_points",
    "divergence_ratio_by_sets",
    "half_l1",
    "hockey_stick_by_plrv",
    "hockey_stick_by_sets",
    "hockey_stick_pointwise",
    "law",
    "ratio_at_most",
    "statistical_distance_by_sets",
    "subsets",
]

Ratio = Fraction | None
"""An exact ratio e^D in [0, +∞]; ``None`` is +∞."""

Law = Mapping[Hashable, Any] | Sequence[Any]
"""A finite law: ``{output: probability}`` or probabilities by position."""

_ZERO = Fraction(0)


def law(value: Law) -> dict[Hashable, Any]:
    """The law as a dict ``output -> probability`` (a sequence is indexed by position)."""
    if isinstance(value, Mapping):
        return dict(value)
    items = getattr(value, "items", None)
    if callable(items):  # an exactpml Distribution
        return dict(items())
    return dict(enumerate(value))


def subsets(items: Iterable[Any]) -> Iterator[tuple[Any, ...]]:
    """Every subset of ``items`` (the empty one first), as tuples."""
    pool = list(items)
    return itertools.chain.from_iterable(
        itertools.combinations(pool, k) for k in range(len(pool) + 1)
    )


def ratio_at_most(value: Ratio, bound: Ratio) -> bool:
    """``value <= bound`` for ratios in [0, +∞] (``None`` = +∞)."""
    if bound is None:
        return True
    return value is not None and value <= bound


def divergence_ratio_by_sets(p: Law, q: Law) -> Ratio:
    """``max_T P(T)/Q(T)`` over events T with P(T) > 0 (+∞ if Q(T) = 0 < P(T))."""
    first, second = law(p), law(q)
    best = _ZERO
    for event in subsets(first):
        mass_p = sum((first[o] for o in event), _ZERO)
        if mass_p == 0:
            continue
        mass_q = sum((second.get(o, _ZERO) for o in event), _ZERO)
        if mass_q == 0:
            return None
        best = max(best, mass_p / mass_q)
    return best


def divergence_ratio_by_points(p: Law, q: Law, *, skip_infinite: bool = False) -> Ratio:
    """``max_y P(y)/Q(y)`` over y with P(y) > 0 (+∞ if Q(y) = 0 < P(y)).

    ``skip_infinite`` ignores the points with Q(y) = 0 (a mutant).
    """
    first, second = law(p), law(q)
    best = _ZERO
    for o, a in first.items():
        if a == 0:
            continue
        b = second.get(o, _ZERO)
        if b == 0:
            if skip_infinite:
                continue
            return None
        best = max(best, a / b)
    return best


def statistical_distance_by_sets(p: Law, q: Law) -> Fraction:
    """``max_T |P(T) - Q(T)|`` over every event T (Vadhan §1.1, as written)."""
    first, second = law(p), law(q)
    return max(
        abs(sum((first[o] - second.get(o, _ZERO) for o in event), _ZERO))
        for event in subsets(first)
    )


def half_l1(p: Law, q: Law) -> Fraction:
    """``½ Σ_y |p(y) - q(y)|`` (equal to the statistical difference)."""
    first, second = law(p), law(q)
    outputs = dict.fromkeys([*first, *second])
    return sum((abs(first.get(o, _ZERO) - second.get(o, _ZERO)) for o in outputs), _ZERO) / 2


def hockey_stick_by_sets(
    p: Law, q: Law, ratio: Fraction, *, largest: int | None = None
) -> Fraction:
    """``max_S P(S) - ratio·Q(S)`` over every set S of outputs (of size ≤ ``largest``).

    With ``ratio = e^ε`` this is the least δ of (ε, δ)-DP for one ordered pair (the set
    form of the thesis's Prop 8); the empty set gives 0.
    """
    first, second = law(p), law(q)
    outputs = list(dict.fromkeys([*first, *second]))
    top = len(outputs) if largest is None else min(largest, len(outputs))
    best = _ZERO
    for size in range(1, top + 1):
        for event in itertools.combinations(outputs, size):
            value = sum((first.get(o, _ZERO) - ratio * second.get(o, _ZERO) for o in event), _ZERO)
            best = max(best, value)
    return best


def hockey_stick_by_plrv(p: Law, q: Law, ratio: Fraction) -> Fraction:
    """``E_{O~P}[max(0, 1 - ratio / e^{L(O)})]`` with ``e^{L(o)} = p(o)/q(o)`` and L = +∞
    (the term counting 1) where q(o) = 0 < p(o): the thesis's Def 57, first form."""
    first, second = law(p), law(q)
    total = _ZERO
    for o, p_o in first.items():
        if p_o == 0:
            continue
        q_o = second.get(o, _ZERO)
        inner = Fraction(1) if q_o == 0 else max(_ZERO, 1 - ratio * q_o / p_o)
        total += p_o * inner
    return total


def hockey_stick_pointwise(p: Law, q: Law, ratio: Fraction) -> Fraction:
    """``Σ_o max(0, p(o) - ratio·q(o))`` (equal to the set form: S = {o : p(o) > ratio·q(o)})."""
    first, second = law(p), law(q)
    outputs = dict.fromkeys([*first, *second])
    return sum(
        (max(_ZERO, first.get(o, _ZERO) - ratio * second.get(o, _ZERO)) for o in outputs), _ZERO
    )
