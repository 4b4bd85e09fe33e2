"""Slow reference implementations written straight from the definitions (for tests only).

Each function recomputes a measure from its definition in Saeidian et al. with plain
``Fraction`` arithmetic and enumeration, sharing no code with exactpml's fast paths.
"""

from fractions import Fraction
from itertools import chain, combinations

from exactpml import Distribution, Mechanism


def subsets(items):
    items = list(items)
    return chain.from_iterable(combinations(items, k) for k in range(len(items) + 1))


def output_mass(mechanism: Mechanism, prior: Distribution, y) -> Fraction:
    return sum((prior[x] * mechanism.probability(x, y) for x in mechanism.inputs), Fraction(0))


def pml_ratio(mechanism: Mechanism, prior: Distribution, y) -> Fraction:
    """exp l(X->y) = D_inf(P_{X|Y=y} || P_X) straight from Def 2.2 applied to the posterior."""
    mass = output_mass(mechanism, prior, y)
    if mass == 0:
        return Fraction(1)
    best = Fraction(0)
    for x in mechanism.inputs:
        if prior[x] == 0:
            continue
        posterior = prior[x] * mechanism.probability(x, y) / mass
        best = max(best, posterior / prior[x])
    return best


def divergence_ratio_by_sets(p: Distribution, q: Distribution):
    """max over events T with P(T) > 0 of P(T)/Q(T) (None stands for infinity)."""
    best = Fraction(0)
    for event in subsets(p.outcomes):
        p_mass = sum((p[o] for o in event), Fraction(0))
        q_mass = sum((q[o] for o in event), Fraction(0))
        if p_mass == 0:
            continue
        if q_mass == 0:
            return None
        best = max(best, p_mass / q_mass)
    return best


def capacity_ratio(mechanism: Mechanism):
    """exp C (None stands for infinity) from Def 2.7 by enumerating (y, x, x')."""
    best = Fraction(1)
    for y in mechanism.outputs:
        for x in mechanism.inputs:
            for x2 in mechanism.inputs:
                high, low = mechanism.probability(x, y), mechanism.probability(x2, y)
                if high == 0:
                    continue
                if low == 0:
                    return None
                best = max(best, high / low)
    return best


def attribute_pml_ratio(mechanism: Mechanism, prior: Distribution, attribute: Mechanism, y):
    """exp l(U->y) from the joint law of (U, Y) built by enumeration."""
    mass = output_mass(mechanism, prior, y)
    if mass == 0:
        return Fraction(1)
    best = Fraction(0)
    for u in attribute.outputs:
        p_u = sum((prior[x] * attribute.probability(x, u) for x in mechanism.inputs), Fraction(0))
        if p_u == 0:
            continue
        joint = sum(
            (
                prior[x] * attribute.probability(x, u) * mechanism.probability(x, y)
                for x in mechanism.inputs
            ),
            Fraction(0),
        )
        best = max(best, joint / mass / p_u)
    return best


def _pair_ratio(high: Fraction, low: Fraction):
    """high/low with the conventions of the DP / free-lunch ratios (None = infinity,
    Fraction(0) = no constraint when high = 0)."""
    if high == 0:
        return Fraction(0)
    if low == 0:
        return None
    return high / low


def _max_ratio(ratios):
    best = Fraction(1)
    for ratio in ratios:
        if ratio is None:
            return None
        best = max(best, ratio)
    return best


def dp_ratio(mechanism: Mechanism, y=None):
    """exp(epsilon) of Def 4.1 by brute force over all neighbouring pairs (None = infinity)."""
    outputs = mechanism.outputs if y is None else [y]
    return _max_ratio(
        _pair_ratio(mechanism.probability(x, out), mechanism.probability(x2, out))
        for out in outputs
        for x in mechanism.inputs
        for x2 in mechanism.inputs
        if sum(a != b for a, b in zip(x, x2, strict=True)) == 1
    )


def entry_dp_ratio(mechanism: Mechanism, y, i: int):
    """The DP ratio restricted to output y and neighbours differing in entry i."""
    return _max_ratio(
        _pair_ratio(mechanism.probability(x, y), mechanism.probability(x2, y))
        for x in mechanism.inputs
        for x2 in mechanism.inputs
        if x[:i] + x[i + 1 :] == x2[:i] + x2[i + 1 :] and x[i] != x2[i]
    )


def free_lunch_ratio(mechanism: Mechanism, y=None):
    """exp(epsilon) of Def 4.4 (free-lunch privacy) by brute force over all pairs."""
    outputs = mechanism.outputs if y is None else [y]
    return _max_ratio(
        _pair_ratio(mechanism.probability(x, out), mechanism.probability(x2, out))
        for out in outputs
        for x in mechanism.inputs
        for x2 in mechanism.inputs
    )
