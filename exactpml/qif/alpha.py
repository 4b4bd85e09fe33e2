"""Sibson's α-mutual information, maximal α-leakage, and the guessing ratio behind maximal leakage.

Sources:

* Sibson, "Information radius" (1969), and Verdú, "α-mutual information" (ITA 2015), eq. (26):
  I_α^S(X; Y) = α/(α-1) log Σ_y (Σ_x P_X(x) P_{Y|X}(y|x)^α)^{1/α} for α ∈ (1, ∞), with the
  limit α -> ∞ equal to log Σ_y max_{x ∈ supp P_X} P_{Y|X}(y|x) (the maximal leakage);
* Liao, Kosut, Sankar, Calmon, "Tunable measures for information leakage and applications to
  privacy-utility tradeoffs" (IEEE Trans. IT 2019, arXiv:1809.09231): the maximal α-leakage
  equals, for α ∈ (1, ∞), the Arimoto channel capacity of order α (their main theorem on
  maximal α-leakage; its theorem number is not checked here), i.e. the supremum of Sibson's
  I_α over priors supported in supp P_X (Arimoto's and Sibson's capacities coincide,
  Csiszár 1995); it is Shannon capacity at α = 1 and maximal leakage at α = ∞;
* Issa, Wagner, Kamath, "An operational approach to information leakage" (IEEE Trans. IT
  2020): Def 1 defines the maximal leakage as the supremum over attributes U (U - X - Y) of
  log P[Û(Y) = U] / max_u P_U(u), the best guess of U with and without Y; Thm 1 evaluates it
  as log Σ_y max_{x ∈ supp P_X} P_{Y|X}(y|x).  :func:`guessing_ratio` is that log-ratio for
  one given attribute U.

>>> from exactpml import Distribution, Mechanism
>>> channel = Mechanism({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}})
>>> print(sibson_mutual_information(channel, Distribution.uniform([0, 1]), "oo"))
log(3/2)
>>> print(guessing_ratio(channel, Distribution.uniform([0, 1]), lambda x: x))
log(3/2)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core import certify
from exactpml.core.abbreviate import abbreviated_repr
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, as_scalar
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.core.parameters import (
    power_bits,
    real_number,
    renyi_order,
    short_count,
    short_number,
    within_bound,
)
from exactpml.errors import InvalidArgument
from exactpml.numerics.log_moments import PRECISION, RenyiBounds, ball_ends, order_precision
from exactpml.qif import _bounds
from exactpml.qif._support import (
    expanded_log,
    log_combination,
    rational_kernel,
    rational_prior,
    require_mechanism,
)
from exactpml.qif.shannon_capacity import DEFAULT_TOLERANCE, CapacityBounds, certified_capacity

__all__ = [
    "guessing_ratio",
    "maximal_alpha_leakage",
    "sibson_mutual_information",
    "sibson_mutual_information_bounds",
]


def _rational(value: Fraction) -> sympy.Rational:
    return sympy.Rational(value.numerator, value.denominator)


def _constant_columns(
    rows: list[list[Fraction]], weights: list[Fraction], alpha: Fraction
) -> Scalar | None:
    """I_α in closed form when every column is constant on its support, of one π-mass.

    If C(x, y) = c_y for every x in S_y = {x ∈ supp π : C(x, y) > 0} and π(S_y) = s for every
    output y with S_y non-empty, then Σ_x π(x) C(x, y)^α = s c_y^α, so
    Σ_y (Σ_x π C^α)^{1/α} = s^{1/α} Σ_y c_y and
    I_α = α/(α-1) log Σ_y c_y + log(s)/(α-1): no power is formed, at any α (identity and
    deterministic channels under uniform priors, for instance).  None otherwise.
    """
    total = Fraction(0)
    mass: Fraction | None = None
    for j in range(len(rows[0])):
        entries = {row[j] for p, row in zip(weights, rows, strict=True) if p and row[j]}
        if not entries:
            continue
        if len(entries) > 1:
            return None
        column_mass = sum(
            (p for p, row in zip(weights, rows, strict=True) if p and row[j]), Fraction(0)
        )
        if mass is not None and column_mass != mass:
            return None
        mass = column_mass
        total += entries.pop()
    assert mass is not None  # the rows of supp π sum to 1
    return log_combination([(alpha / (alpha - 1), total), (1 / (alpha - 1), mass)])


def _sibson_closed_form(
    rows: list[list[Fraction]], weights: list[Fraction], alpha: Fraction
) -> Scalar:
    """α/(α-1) log Σ_y (Σ_x π(x) C(x, y)^α)^{1/α}, with the powers formed exactly."""
    power, inverse = _rational(alpha), _rational(1 / alpha)
    total = []
    for j in range(len(rows[0])):
        terms = [(p, row[j]) for p, row in zip(weights, rows, strict=True) if p and row[j]]
        if not terms:
            continue
        if alpha.denominator == 1:  # one normalisation: Σ π (c L)^α over L^α
            common = math.lcm(*(c.denominator for _, c in terms))
            prior = math.lcm(*(p.denominator for p, _ in terms))
            k = int(alpha)
            numerator = sum(
                p.numerator
                * (prior // p.denominator)
                * (c.numerator * (common // c.denominator)) ** k
                for p, c in terms
            )
            inner = Fraction(numerator, prior * common**k)
            total.append(_rational(inner) ** inverse)
        else:
            inner_sum = sympy.Add(*(_rational(p) * _rational(c) ** power for p, c in terms))
            total.append(inner_sum**inverse)
    value = _rational(alpha / (alpha - 1)) * sympy.log(sympy.Add(*total))
    return as_scalar(expanded_log(value))


def _predicted_bits(rows: list[list[Fraction]], weights: list[Fraction], alpha: Fraction) -> int:
    """Bits of the sums Σ_x π(x) C(x, y)^α over every output y together: ⌈α⌉ times the bits
    of a column's common denominator, plus the prior's."""
    prior = math.lcm(*(p.denominator for p in weights if p)).bit_length()
    total = 0
    for j in range(len(rows[0])):
        dens = [row[j].denominator for p, row in zip(weights, rows, strict=True) if p and row[j]]
        if dens:
            total += prior + power_bits(math.lcm(*dens).bit_length(), alpha)
    return total


def sibson_mutual_information(
    mechanism: Mechanism, prior: Distribution, order: object
) -> Scalar | LogValue:
    """Sibson's I_α(X; Y) in nats for a rational α > 1, or α = ∞ (Verdú 2015, eq. (26)).

    Finite α: the exact closed form α/(α-1) log Σ_y (Σ_x π(x) C(x, y)^α)^{1/α} (a sympy
    expression; decimals by :func:`exactpml.certify.decimal`).  α = ∞: the
    :class:`~exactpml.LogValue` log Σ_y max_{x ∈ supp π} C(x, y) (the maximal leakage).

    Columns constant on their supports (of one π-mass) give a closed form with no power at
    any α (:func:`_constant_columns`); otherwise the powers C^α have about α·log2(L) bits
    (L a column's common denominator), checked before they are formed against
    ``Bounds.exact_bits``, or ``Bounds.root_bits`` for an integer α (sympy then searches a
    1/α-th root of each rational sum): above it
    :class:`~exactpml.core.bounds.BoundExceeded` names the order, and
    :func:`sibson_mutual_information_bounds` gives certified bounds at every order.

    >>> channel = Mechanism({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}})
    >>> sibson_mutual_information(channel, Distribution.uniform([0, 1]), 2)
    -2*log(2) + log(5)
    >>> sibson_mutual_information(Mechanism.identity("ab"), Distribution.uniform("ab"), 10**99)
    log(2)
    """
    rows = rational_kernel(mechanism)
    weights = rational_prior(mechanism, prior)
    alpha = renyi_order(order, name="order")
    if alpha is sympy.oo:
        support = [row for p, row in zip(weights, rows, strict=True) if p]
        return LogValue._of_fraction(
            sum((max(column) for column in zip(*support, strict=True)), Fraction(0))
        )
    assert type(alpha) is Fraction
    closed = _constant_columns(rows, weights, alpha)
    if closed is not None:
        return closed
    bits = _predicted_bits(rows, weights, alpha)
    # an integer α makes each sum a rational whose 1/α-th root sympy searches (root_bits);
    # otherwise the sums are algebraic and only the powers' integer parts are formed
    within_bound(
        bits,
        "root_bits" if alpha.denominator == 1 else "exact_bits",
        where="sibson_mutual_information",
        what=f"order={short_number(alpha)} would form Σ_x π(x) C(x, y)^α of about "
        f"{short_count(bits)} bits (certified bounds at every order: "
        "exactpml.qif.sibson_mutual_information_bounds)",
    )
    return _sibson_closed_form(rows, weights, alpha)


def sibson_mutual_information_bounds(
    mechanism: Mechanism, prior: Distribution, order: object
) -> RenyiBounds:
    """Certified rational bounds on Sibson's I_α(X; Y), at every order α > 1 or ∞.

    Each inner sum Σ_x π(x) C(x, y)^α is the log-moment exp K_y(α) with masses π and ratios
    C(·, y) (:mod:`exactpml.numerics.log_moments`), enclosed without forming C^α, so
    ``order=10**999`` costs what ``order=2`` does; I_α = α/(α-1) log Σ_y e^{K_y(α)/α}.  As
    α → ∞ the value tends to the maximal leakage log Σ_y max_{x ∈ supp π} C(x, y).

    >>> channel = Mechanism({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}})
    >>> bounds = sibson_mutual_information_bounds(channel, Distribution.uniform([0, 1]), 10**99)
    >>> float(bounds.lower) <= 0.4054651081081644 <= float(bounds.upper)  # log(3/2)
    True
    """
    rows = rational_kernel(mechanism)
    weights = rational_prior(mechanism, prior)
    alpha = renyi_order(order, name="order")
    if alpha is sympy.oo:
        value = sibson_mutual_information(mechanism, prior, alpha)
        assert isinstance(value, LogValue)
        lower, upper = ball_ends(certify.enclosure(value.to_sympy(), PRECISION))
        return RenyiBounds(lower, upper, alpha)
    assert type(alpha) is Fraction
    precision = order_precision(
        alpha - 1, where="sibson_mutual_information_bounds", shown=f"order={short_number(alpha)}"
    )
    lower, upper = ball_ends(_bounds.sibson_value_ball(rows, weights, alpha, precision))
    return RenyiBounds(lower, upper, alpha)


def maximal_alpha_leakage(
    mechanism: Mechanism,
    order: object,
    *,
    tolerance: object = DEFAULT_TOLERANCE,
    max_steps: int = 20_000,
) -> LogValue | CapacityBounds:
    """Maximal α-leakage (Liao et al. 2019): the order-α capacity, sup over priors of Sibson's I_α.

    * α = ∞: the maximal leakage log Σ_y max_x C(x, y), exactly (a ``LogValue``);
    * α ∈ (1, ∞): the Sibson capacity, which has no closed form in general: returned as
      :class:`~exactpml.qif.CapacityBounds`, certified bounds at most ``tolerance`` apart
      (lower: I_α at a rational prior; upper: the Rényi radius max_x D_α(C_x || Q) at a
      rational Q, Csiszár 1995), ``Undecided`` after ``max_steps`` iterations;
    * α = 1 is Shannon capacity: use :func:`exactpml.qif.shannon_capacity`.

    Every order costs the same: the bounds are log-moments enclosed without forming C^α,
    and far out log R - log(m)/(α - 1) <= C_α <= log R (R = Σ_y max_x C(x, y), m inputs
    holding every column maximum; proved in :mod:`exactpml.qif._bounds`) is returned as soon
    as it is narrower than ``tolerance`` (``order="1e999"`` answers at once).  Near α = 1
    the priors are proposed by Blahut-Arimoto and the precision grows with log2(1/(α - 1))
    (checked against ``Bounds.certified_precision``).  ``tolerance`` and ``max_steps`` are
    checked against ``Bounds.tolerance_bits`` and ``Bounds.iteration_work``.

    The supremum is over every prior on the mechanism's inputs (for a P_X without full
    support restrict the mechanism to its support first: ``mechanism.restrict(...)``).

    >>> print(maximal_alpha_leakage(Mechanism.identity("abc"), "oo"))
    log(3)
    >>> from exactpml import certify
    >>> bounds = maximal_alpha_leakage(Mechanism.identity("ab"), 2, tolerance="1/1000")
    >>> log2 = sympy.log(2)  # the identity channel's capacity of every order
    >>> certify.compare(bounds.lower, log2) <= 0 <= certify.compare(bounds.upper, log2)
    True
    """
    require_mechanism(mechanism)
    number = real_number(order, name="order", symbolic=False, infinite=True)
    if type(number) is Fraction and number == 1:
        raise InvalidArgument(
            "order=1: the maximal 1-leakage is the Shannon capacity; use "
            "exactpml.qif.shannon_capacity(mechanism)"
        )
    alpha = renyi_order(number, name="order")
    rows = rational_kernel(mechanism)
    if alpha is sympy.oo:
        return LogValue._of_fraction(
            sum((max(column) for column in zip(*rows, strict=True)), Fraction(0))
        )
    assert type(alpha) is Fraction
    return certified_capacity(mechanism, alpha, tolerance, max_steps, what="maximal_alpha_leakage")


def guessing_ratio(
    mechanism: Mechanism,
    prior: Distribution,
    attribute: Mechanism | Callable[[Any], Hashable],
) -> LogValue:
    """log P[Û(Y) = U] / max_u P_U(u) for one attribute U (Issa-Wagner-Kamath 2020, Def 1).

    U - X - Y with ``attribute`` the kernel P_{U|X} (or a function of x); the numerator is
    the best guess of U from Y, Σ_y max_u Σ_x π(x) P(u|x) C(x, y), the denominator the best
    blind guess.  Its supremum over all U is the maximal leakage (Thm 1); it is attained by
    a U that splits each x into π(x)·K equally likely labels (π rational with denominator K).

    >>> channel = Mechanism({0: {"y": 1}, 1: {"y": "1/2", "n": "1/2"}})
    >>> print(guessing_ratio(channel, Distribution.uniform([0, 1]), lambda x: 0))
    0
    """
    rows = rational_kernel(mechanism)
    weights = rational_prior(mechanism, prior)
    if isinstance(attribute, Mechanism):
        kernel = attribute
        if set(kernel.inputs) != set(mechanism.inputs):
            raise InvalidArgument(
                f"attribute must be a kernel on the mechanism's inputs "
                f"{abbreviated_repr(list(mechanism.inputs))}"
            )
    elif callable(attribute):
        labels = {}
        for x in mechanism.inputs:
            label = attribute(x)
            try:
                hash(label)
            except TypeError:
                raise InvalidArgument(
                    f"attribute({x!r}) = {label!r} is not hashable: the values of an attribute "
                    "label the outputs of U (use a tuple instead of a list)"
                ) from None
            labels[x] = label
        kernel = Mechanism.deterministic(labels.__getitem__, mechanism.inputs)
    else:
        raise InvalidArgument(
            f"attribute must be a Mechanism or a function of x, got {type(attribute).__name__}"
        )
    attribute_rows = rational_kernel(kernel, "attribute")
    order = [kernel.input_position(x) for x in mechanism.inputs]
    values = range(len(kernel.outputs))
    work = len(values) * len(rows) * len(mechanism.outputs)
    within_bound(
        work,
        "iteration_work",
        where="guessing_ratio",
        what=f"the attribute's {len(values)} values × {len(rows)} inputs × "
        f"{len(mechanism.outputs)} outputs ask for {work} products",
    )
    blind = max(
        sum((p * attribute_rows[k][u] for p, k in zip(weights, order, strict=True)), Fraction(0))
        for u in values
    )
    informed = sum(
        (
            max(
                sum(
                    (
                        p * attribute_rows[k][u] * row[j]
                        for p, k, row in zip(weights, order, rows, strict=True)
                    ),
                    Fraction(0),
                )
                for u in values
            )
            for j in range(len(mechanism.outputs))
        ),
        Fraction(0),
    )
    return LogValue._of_fraction(informed / blind)
