"""Entropies and divergences on finite alphabets, exactly (Saeidian et al., §2).

* min-entropy (Def 2.1): ``H_inf(P_X) = -log max_x p_X(x)``;
* Rényi divergence of order ∞ (Def 2.2): ``D_inf(P||Q) = log max_{z in supp P} p(z)/q(z)``
  (``oo`` when some ``q(z) = 0 < p(z)``);
* Kullback-Leibler divergence and total variation (statistical distance, Vadhan §1.1).

The hockey-stick divergence is in :mod:`exactpml.leakage.hockey_stick`.

>>> from exactpml import Distribution
>>> print(min_entropy(Distribution({"a": "7/10", "b": "3/10"})))
log(10/7)
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from exactpml.core.abbreviate import abbreviated_repr
from exactpml.core.decisions import prove_zero
from exactpml.core.distribution import Distribution
from exactpml.core.exact import (
    Scalar,
    as_scalar,
    exact_difference,
    exact_quotient,
    to_sympy,
)
from exactpml.core.logvalue import LogValue
from exactpml.errors import InvalidArgument
from exactpml.leakage._support import _max, _positive_condition, _require_distribution

__all__ = ["kl_divergence", "min_entropy", "renyi_divergence_inf", "total_variation"]


def min_entropy(distribution: Distribution) -> LogValue:
    """H_inf(P) = -log max p (Saeidian et al., Def 2.1), as ``LogValue(1 / max p)``.

    >>> print(min_entropy(Distribution({"a": "7/10", "b": "3/10"})))
    log(10/7)
    """
    _require_distribution(distribution, "distribution")
    largest = _max(distribution.probabilities)
    return LogValue(exact_quotient(Fraction(1), largest), conditions=distribution.conditions)


def _same_alphabet(p: Distribution, q: Distribution) -> None:
    if set(p.outcomes) != set(q.outcomes):
        only_p = [o for o in p.outcomes if o not in q]
        only_q = [o for o in q.outcomes if o not in p]
        raise InvalidArgument(
            "the two distributions have different alphabets: "
            f"only in the first {abbreviated_repr(only_p)}, only in the second "
            f"{abbreviated_repr(only_q)}"
        )


def renyi_divergence_inf(p: Distribution, q: Distribution) -> LogValue:
    """D_inf(P||Q) = log ess sup_P p/q = log max_{z in supp P} p(z)/q(z) (Def 2.2).

    Infinite (``LogValue(oo)``) when ``q(z) = 0 < p(z)`` for some z.

    >>> p = Distribution({0: "1/2", 1: "1/2"}); q = Distribution({0: "1/4", 1: "3/4"})
    >>> print(renyi_divergence_inf(p, q))
    log(2)
    """
    _require_distribution(p, "p")
    _require_distribution(q, "q")
    _same_alphabet(p, q)
    conditions: list[sympy.Basic] = [*p.conditions, *q.conditions]
    ratios: list[Scalar] = []
    for outcome, mass in p.items():
        if not _positive_condition(mass, conditions):
            continue
        other = q[outcome]
        if prove_zero(other):
            return LogValue(sympy.oo, conditions=tuple(conditions))
        ratios.append(exact_quotient(mass, other))
    return LogValue(_max(ratios), conditions=tuple(conditions))


def kl_divergence(p: Distribution, q: Distribution) -> Scalar:
    """D(P||Q) = Σ_{z in supp P} p(z) log(p(z)/q(z)), exact (a sympy expression, or ``oo``).

    >>> kl_divergence(Distribution({0: "1/2", 1: "1/2"}), Distribution({0: "1/4", 1: "3/4"}))
    -log(3)/2 + log(2)
    """
    _require_distribution(p, "p")
    _require_distribution(q, "q")
    _same_alphabet(p, q)
    terms = []
    for outcome, mass in p.items():
        if prove_zero(mass):
            continue
        other = q[outcome]
        if prove_zero(other):
            return sympy.oo
        terms.append(to_sympy(mass) * sympy.log(to_sympy(exact_quotient(mass, other))))
    total = sympy.Add(*terms)
    if p.is_rational and q.is_rational:  # expand_log can take minutes on closed-form masses
        total = sympy.expand_log(total, force=True)
    return as_scalar(total)


def total_variation(p: Distribution, q: Distribution) -> Scalar:
    """Statistical distance ``max_T |P(T) - Q(T)| = ½ Σ_z |p(z) - q(z)|``, exact."""
    _require_distribution(p, "p")
    _require_distribution(q, "q")
    _same_alphabet(p, q)
    differences = [exact_difference(mass, q[o]) for o, mass in p.items()]
    if all(type(d) is Fraction for d in differences):
        return sum((abs(d) for d in differences), Fraction(0)) / 2
    return as_scalar(sympy.Add(*(sympy.Abs(to_sympy(d)) for d in differences)) / 2)
