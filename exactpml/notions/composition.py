"""Composition of database mechanisms, exactly, and the composition theorems as statements.

The k-fold composition of a mechanism M runs M k times on the same database with
independent randomness: its output law on x is M(x)^{⊗k}.  For every neighbouring pair the
privacy-loss distribution of the product is the k-fold self-composition of the pair's PLD
(Sommer, Meiser, Mohammadi 2019, Thm 1), so

* :func:`composition_delta_for_epsilon` -- δ(ε) of the k-fold composition, the maximum over
  neighbouring pairs of the composed PLDs' δ(ε), exact (every real ε);
* :func:`composition_epsilon_for_delta` -- the least ε for which the composition is
  (ε, δ)-DP, the maximum over pairs of each composed PLD's ε(δ).

The theorems that papers state, as exact functions of (ε, δ, k) to check against those
values (:mod:`proofs_check.accounting_claims` does):

* :func:`basic_composition` -- (kε, kδ) (Dwork, Roth 2014, Thm 3.16);
* :func:`advanced_composition` -- (√(2k log(1/δ')) ε + kε(e^ε - 1), kδ + δ') (Dwork,
  Rothblum, Vadhan 2010, Thm III.3; Dwork, Roth 2014, Thm 3.20);
* :func:`optimal_composition` -- Kairouz, Oh, Viswanath 2015, Thm 3.3: the k-fold
  composition of (ε, δ)-DP mechanisms is ((k - 2i)ε, 1 - (1 - δ)^k (1 - δ_i))-DP with
  ``δ_i = Σ_{l<i} C(k, l) (e^{(k-l)ε} - e^{(k-2i+l)ε}) / (1 + e^ε)^k``, and no smaller δ is
  possible (binary randomized response attains it).

>>> from exactpml import DatabaseMechanism
>>> rr = DatabaseMechanism({(0,): {0: "3/4", 1: "1/4"}, (1,): {0: "1/4", 1: "3/4"}})
>>> composition_delta_for_epsilon(rr, 3, exp_epsilon=3).value
Fraction(3, 8)
>>> optimal_composition(exp_epsilon=3, k=3, i=1).delta
Fraction(3, 8)
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.bounds import current_bounds
from exactpml.core.decisions import exact_compare
from exactpml.core.display import abbreviated_fields_repr
from exactpml.core.exact import (
    Scalar,
    as_scalar,
    exact_difference,
    exact_product,
    exact_quotient,
    exact_sum,
    to_sympy,
)
from exactpml.core.logvalue import LogValue
from exactpml.core.parameters import (
    exp_epsilon_of,
    positive_integer,
    power_bits,
    probability,
    short_count,
    within_bound,
)
from exactpml.database import as_database_mechanism
from exactpml.errors import InvalidArgument
from exactpml.notions._common import UnexpandedExp, WorstCase
from exactpml.notions.continuous_noise import _exp
from exactpml.notions.privacy_loss import PrivacyLossDistribution, _size, privacy_loss_of_rows

__all__ = [
    "NeighbourLoss",
    "PrivacyParameters",
    "advanced_composition",
    "basic_composition",
    "composition_delta_for_epsilon",
    "composition_epsilon_for_delta",
    "neighbour_privacy_loss_distributions",
    "optimal_composition",
]

Label = Hashable


@dataclass(frozen=True, slots=True)
class NeighbourLoss:
    """The privacy-loss distribution of one ordered neighbouring pair (x, x').

    Attributes:
        database: x (its output law is P).
        neighbour: x' (its output law is Q).
        distribution: the PLD of (M(x), M(x')).
    """

    database: Any
    neighbour: Any
    distribution: PrivacyLossDistribution


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class PrivacyParameters:
    """A guarantee (ε, δ): ε as a LogValue (its ratio e^ε exact), δ exact."""

    epsilon: LogValue
    delta: Scalar

    def __str__(self) -> str:
        return f"({abbreviated(self.epsilon, None)}, {abbreviated(self.delta, None)})"


def neighbour_privacy_loss_distributions(mechanism: object) -> tuple[NeighbourLoss, ...]:
    """One PLD per distinct ordered pair of neighbouring output laws (through the reduction).

    >>> from exactpml import DatabaseMechanism
    >>> rr = DatabaseMechanism({(0,): {0: "3/4", 1: "1/4"}, (1,): {0: "1/4", 1: "3/4"}})
    >>> [str(n.distribution) for n in neighbour_privacy_loss_distributions(rr)]
    ['PrivacyLossDistribution({-log(3): 1/4, log(3): 3/4})', \
'PrivacyLossDistribution({-log(3): 1/4, log(3): 3/4})']
    """
    checked = as_database_mechanism(mechanism)
    reduction = checked.reduction()
    seen: set[tuple[Label, Label]] = set()
    found: list[NeighbourLoss] = []
    for v, v2, databases in reduction.pairs():
        if (v, v2) in seen:
            continue
        seen.add((v, v2))
        x, x2 = databases()
        found.append(
            NeighbourLoss(x, x2, privacy_loss_of_rows(reduction.row(v), reduction.row(v2)))
        )
    return tuple(found)


def composition_delta_for_epsilon(
    mechanism: object, k: int, epsilon: object = None, *, exp_epsilon: object = None
) -> WorstCase:
    """δ(ε) of the k-fold composition of ``mechanism``: max over pairs of H_{e^ε}(P^k || Q^k).

    Exact for every real ε (negative included), with the worst neighbouring pair.
    """
    count = positive_integer(k, name="k")
    ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
    best: tuple[Scalar, NeighbourLoss] | None = None
    for pair in neighbour_privacy_loss_distributions(mechanism):
        value = pair.distribution.self_compose(count).delta_for_epsilon(exp_epsilon=ratio)
        if best is None or exact_compare(value, best[0]) > 0:
            best = (value, pair)
    if best is None:
        return WorstCase(Fraction(0))
    return WorstCase(best[0], best[1].database, best[1].neighbour)


def composition_epsilon_for_delta(mechanism: object, k: int, delta: object) -> WorstCase:
    """The least ε for which the k-fold composition is (ε, δ)-DP (a LogValue; may be < 0).

    The maximum over neighbouring pairs of each composed PLD's ε(δ).
    """
    count = positive_integer(k, name="k")
    target = probability(delta, name="delta")
    best: tuple[LogValue, NeighbourLoss] | None = None
    for pair in neighbour_privacy_loss_distributions(mechanism):
        value = pair.distribution.self_compose(count).epsilon_for_delta(target)
        if best is None or value.compare(best[0]) > 0:
            best = (value, pair)
    if best is None:
        return WorstCase(LogValue(0))
    return WorstCase(best[0], best[1].database, best[1].neighbour)


# --- the theorems -----------------------------------------------------------------------
def _ratio(epsilon: object, exp_epsilon: object) -> Scalar:
    ratio = exp_epsilon_of(epsilon, exp_epsilon, enclosed=True)
    if ratio is sympy.oo:
        raise InvalidArgument("epsilon must be finite for a composition theorem")
    return ratio


def _power(ratio: Scalar, exponent: int) -> Scalar:
    if type(ratio) is Fraction:
        return ratio**exponent
    return as_scalar(to_sympy(ratio) ** exponent)


def _epsilon_power(ratio: Scalar, exponent: int) -> LogValue:
    """``LogValue(ratio^exponent)``: e^{kε} itself when it has at most ``Bounds.exact_bits``
    bits (k · log2(r)), else the same number kept in the log domain, exp(k log r)."""
    if power_bits(_size(ratio), exponent) <= current_bounds().exact_bits:
        return LogValue(_power(ratio, exponent))
    return LogValue(UnexpandedExp(exponent * sympy.log(to_sympy(ratio))))


def basic_composition(
    epsilon: object = None, *, exp_epsilon: object = None, delta: object = 0, k: int
) -> PrivacyParameters:
    """(kε, kδ): the k-fold composition of (ε, δ)-DP mechanisms (Dwork, Roth 2014, Thm 3.16).

    e^{kε} is rational for a rational e^ε; past ``Bounds.exact_bits`` bits it is kept as
    exp(k log e^ε) instead of being expanded (k = 10^12 answers at once).

    >>> print(basic_composition(exp_epsilon=3, delta="1/100", k=4))
    (log(81), 1/25)
    >>> print(basic_composition(exp_epsilon=3, k=10**12))
    (1000000000000*log(3), 0)
    """
    ratio = _ratio(epsilon, exp_epsilon)
    count = positive_integer(k, name="k")
    bound = probability(delta, name="delta")
    total = exact_product(Fraction(count), bound)
    if exact_compare(total, Fraction(1)) > 0:
        total = Fraction(1)
    return PrivacyParameters(_epsilon_power(ratio, count), total)


def advanced_composition(
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    delta: object = 0,
    k: int,
    slack: object,
) -> PrivacyParameters:
    """(√(2k log(1/δ')) ε + kε(e^ε - 1), kδ + δ') for δ' = ``slack`` in (0, 1).

    Dwork, Rothblum, Vadhan 2010, Thm III.3, as stated by Dwork, Roth 2014, Thm 3.20.  The
    ε is an exact closed form (a LogValue whose ratio is its exponential; e^{kε(e^ε - 1)} is
    not expanded when its exponent is large).

    >>> result = advanced_composition(exp_epsilon=2, k=10, slack="1/1000")
    >>> result.delta, result.epsilon.decimal(6)
    (Fraction(1, 1000), '15.0787')
    """
    ratio = _ratio(epsilon, exp_epsilon)
    count = positive_integer(k, name="k")
    bound = probability(delta, name="delta")
    extra = probability(slack, name="slack", open_interval=True)
    e = sympy.log(to_sympy(ratio))
    value = sympy.sqrt(2 * count * sympy.log(1 / to_sympy(extra))) * e + count * e * (
        to_sympy(ratio) - 1
    )
    total = exact_sum([exact_product(Fraction(count), bound), extra])
    if exact_compare(total, Fraction(1)) > 0:
        total = Fraction(1)
    return PrivacyParameters(LogValue(as_scalar(_exp(value))), total)


def optimal_composition(
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    delta: object = 0,
    k: int,
    i: int,
) -> PrivacyParameters:
    """((k - 2i)ε, 1 - (1 - δ)^k (1 - δ_i)) (Kairouz, Oh, Viswanath 2015, Thm 3.3).

    ``δ_i = Σ_{l=0}^{i-1} C(k, l) (e^{(k-l)ε} - e^{(k-2i+l)ε}) / (1 + e^ε)^k`` for
    ``0 <= i <= k/2``: the smallest δ for which every k-fold composition of (ε, δ)-DP
    mechanisms is ((k - 2i)ε, δ)-DP.  δ is a rational of about k·log2(1 + e^ε) bits, checked
    against ``Bounds.exact_bits`` (and its i terms together against ``Bounds.loss_bits``)
    before it is formed.

    >>> print(optimal_composition(exp_epsilon=3, k=2, i=1))
    (0, 1/2)
    """
    ratio = _ratio(epsilon, exp_epsilon)
    count = positive_integer(k, name="k")
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i <= count // 2:
        raise InvalidArgument(
            f"i={abbreviated_repr(i)} must be an int in [0, k/2] = [0, {abbreviated(count // 2)}]"
        )
    bound = probability(delta, name="delta")
    # δ has the denominator (1 + e^ε)^k and (1 - δ)^k: k·log2 bits, which no log-domain form
    # helps (δ is a difference of such numbers); the i terms form i numbers that size
    bits = power_bits(_size(exact_sum([Fraction(1), ratio])) + _size(bound), count)
    within_bound(
        bits,
        "exact_bits",
        where="optimal_composition",
        what=f"k={count} makes δ a rational of about {short_count(bits)} bits",
    )
    within_bound(
        max(i, 1) * bits,
        "loss_bits",
        where="optimal_composition",
        what=f"k={count}, i={i}: δ_i sums {i} terms of about {short_count(bits)} bits",
    )
    terms = [
        exact_product(
            Fraction(math.comb(count, low)),
            exact_difference(_power(ratio, count - low), _power(ratio, count - 2 * i + low)),
        )
        for low in range(i)
    ]
    inner = exact_quotient(exact_sum(terms), _power(exact_sum([Fraction(1), ratio]), count))
    kept = exact_product(
        _power(exact_difference(Fraction(1), bound), count), exact_difference(Fraction(1), inner)
    )
    return PrivacyParameters(
        _epsilon_power(ratio, count - 2 * i), exact_difference(Fraction(1), kept)
    )
