"""Bayes capacities: the largest Bayes leakage of a channel over all priors, with a maximiser.

Source: Alvim, Chatzikokolakis, McIver, Morgan, Palamidessi, Smith, *The Science of
Quantitative Information Flow* (2020), Chapter 7 ("Capacity"):

* the multiplicative Bayes capacity ML_1^×(D, C) = max_π V_1[π▷C] / V_1(π) equals
  Σ_y max_x C(x, y) and is realised on the uniform prior (Chapter 7); its log is the maximal
  leakage of Issa, Wagner and Kamath (2020, Thm 1);
* the additive Bayes capacity ML_1^+(D, C) = max_π V_1[π▷C] - V_1(π) is realised on a
  *sub-uniform* prior (uniform on a subset S of the secrets), where it equals
  (Σ_y max_{x∈S} C(x, y) - 1) / |S|; computing it is NP-hard in general (Chapter 7), so it is
  found here by enumerating every subset, for at most ``max_secrets`` secrets.

The sub-uniform theorem is tested against an independent maximisation over every vertex of
the arrangement on which the leakage is linear (:mod:`proofs_check.reference.qif`).

>>> from exactpml import Mechanism
>>> channel = Mechanism({0: {"y": "1/2", "n": "1/2"}, 1: {"y": 1}, 2: {"n": 1}})
>>> print(multiplicative_bayes_capacity(channel).value)
log(2)
>>> additive_bayes_capacity(channel).value
Fraction(1, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from exactpml.core.display import abbreviated_fields_repr
from exactpml.core.distribution import Distribution
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.core.parameters import positive_integer, within_bound
from exactpml.errors import InvalidArgument
from exactpml.qif._support import rational_kernel

__all__ = [
    "MAX_SECRETS",
    "Capacity",
    "additive_bayes_capacity",
    "multiplicative_bayes_capacity",
]

MAX_SECRETS = 16
"""Default bound on the number of secrets of :func:`additive_bayes_capacity` (2^n subsets)."""


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class Capacity:
    """A capacity and a prior that attains it.

    Attributes:
        value: the capacity (a ``LogValue`` for a multiplicative one, a ``Fraction`` for an
            additive one).
        prior: a prior on the channel's inputs at which the leakage equals ``value``.
    """

    value: LogValue | Fraction
    prior: Distribution


def multiplicative_bayes_capacity(mechanism: Mechanism) -> Capacity:
    """ML_1^×(D, C) = log Σ_y max_x C(x, y), attained at the uniform prior (book Chapter 7).

    >>> capacity = multiplicative_bayes_capacity(Mechanism.identity("abc"))
    >>> print(capacity.value)
    log(3)
    >>> capacity.prior["a"]
    Fraction(1, 3)
    """
    rows = rational_kernel(mechanism)
    total = sum((max(column) for column in zip(*rows, strict=True)), Fraction(0))
    return Capacity(LogValue._of_fraction(total), Distribution.uniform(mechanism.inputs))


def additive_bayes_capacity(mechanism: Mechanism, *, max_secrets: int = MAX_SECRETS) -> Capacity:
    """ML_1^+(D, C) = max_π V_1[π▷C] - V_1(π), over sub-uniform priors (book Ch. 7).

    The maximum is realised on a prior uniform on some non-empty S ⊆ X, where the leakage is
    ``(Σ_y max_{x∈S} C(x, y) - 1) / |S|``; every S is tried (the smallest maximiser first, in
    input order).  More than ``max_secrets`` inputs raises ``InvalidArgument``, and the
    enumeration's n·2^(n-1)·m comparisons (m outputs) are checked against ``Bounds.iteration_work``.

    >>> capacity = additive_bayes_capacity(Mechanism.identity("abc"))
    >>> capacity.value, capacity.prior["a"]
    (Fraction(2, 3), Fraction(1, 3))
    """
    rows = rational_kernel(mechanism)
    bound = positive_integer(max_secrets, name="max_secrets")
    if len(rows) > bound:
        raise InvalidArgument(
            f"additive_bayes_capacity: the mechanism has {len(rows)} inputs, more than "
            f"max_secrets={bound} (the capacity is NP-hard; raise max_secrets to enumerate "
            f"2^{len(rows)} subsets)"
        )
    width = len(mechanism.outputs)
    work = len(rows) * 2 ** max(len(rows) - 1, 0) * width  # Σ_S |S| · |Y| = n 2^(n-1) |Y|
    within_bound(
        work,
        "iteration_work",
        where="additive_bayes_capacity",
        what=f"the {2 ** len(rows)} subsets of {len(rows)} inputs × {width} outputs ask for "
        f"{work} comparisons",
    )
    best = Fraction(0)
    best_subset: tuple[int, ...] = (0,)
    for size in range(2, len(rows) + 1):
        for subset in combinations(range(len(rows)), size):
            total = sum((max(rows[i][j] for i in subset) for j in range(width)), Fraction(0))
            value = (total - 1) / size
            if value > best:
                best, best_subset = value, subset
    chosen = {mechanism.inputs[i] for i in best_subset}
    share = Fraction(1, len(best_subset))
    prior = Distribution(
        {x: share if x in chosen else Fraction(0) for x in mechanism.inputs}, name="prior"
    )
    return Capacity(best, prior)
