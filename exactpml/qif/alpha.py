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

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.abbreviate import abbreviated_repr
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, as_scalar
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.core.parameters import positive_integer, real_number, renyi_order
from exactpml.errors import InvalidArgument
from exactpml.qif._support import rational_kernel, rational_prior, require_mechanism
from exactpml.qif.shannon_capacity import DEFAULT_TOLERANCE, CapacityBounds, certified_capacity

__all__ = ["guessing_ratio", "maximal_alpha_leakage", "sibson_mutual_information"]


def _rational(value: Fraction) -> sympy.Rational:
    return sympy.Rational(value.numerator, value.denominator)


def sibson_mutual_information(
    mechanism: Mechanism, prior: Distribution, order: object
) -> Scalar | LogValue:
    """Sibson's I_α(X; Y) in nats for a rational α > 1, or α = ∞ (Verdú 2015, eq. (26)).

    Finite α: the exact closed form α/(α-1) log Σ_y (Σ_x π(x) C(x, y)^α)^{1/α} (a sympy
    expression; decimals by :func:`exactpml.certify.decimal`).  α = ∞: the
    :class:`~exactpml.LogValue` log Σ_y max_{x ∈ supp π} C(x, y) (the maximal leakage).

    >>> channel = Mechanism({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}})
    >>> sibson_mutual_information(channel, Distribution.uniform([0, 1]), 2)
    -2*log(2) + log(5)
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
    power, inverse = _rational(alpha), _rational(1 / alpha)
    total = []
    for j in range(len(mechanism.outputs)):
        inner = sympy.Add(
            *(
                _rational(p) * _rational(row[j]) ** power
                for p, row in zip(weights, rows, strict=True)
                if p and row[j]
            )
        )
        if inner != 0:
            total.append(inner**inverse)
    value = _rational(alpha / (alpha - 1)) * sympy.log(sympy.Add(*total))
    return as_scalar(sympy.expand_log(value, force=True))


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
    positive_integer(max_steps, name="max_steps", minimum=0)
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
        kernel = Mechanism.deterministic(attribute, mechanism.inputs)
    else:
        raise InvalidArgument(
            f"attribute must be a Mechanism or a function of x, got {type(attribute).__name__}"
        )
    attribute_rows = rational_kernel(kernel, "attribute")
    order = [kernel.input_position(x) for x in mechanism.inputs]
    values = range(len(kernel.outputs))
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
