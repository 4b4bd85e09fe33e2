"""Shannon and Rényi entropy, conditional entropy and mutual information, in exact closed form.

Source: Cover & Thomas, *Elements of Information Theory* (2nd ed., 2006), Chapter 2 (§§2.1-2.3):
H(X) = -Σ_x p(x) log p(x), H(X|Y) = -Σ_{x,y} p(x, y) log p(x|y),
I(X; Y) = Σ_{x,y} p(x, y) log(p(x, y) / (p(x) p(y))); Rényi, "On measures of
entropy and information" (1961): H_α(X) = log(Σ_x p(x)^α) / (1 - α), with the limits
H_0 = log |supp p|, H_1 = H and H_∞ = -log max_x p(x) (the book's min-entropy, Alvim et al.
2020, Chapter 2).  Natural logarithms (nats).

For rational input each value is an exact sympy expression: a rational combination of logs of
integers (Σ c log n), or for a non-integer α the log of an algebraic number.  Zero is the
``Fraction`` 0.  Certified decimals: :func:`exactpml.certify.decimal`.

>>> from exactpml import Distribution, Mechanism, certify
>>> shannon_entropy(Distribution({"a": "1/2", "b": "1/4", "c": "1/4"}))
3*log(2)/2
>>> channel = Mechanism({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}})
>>> information = mutual_information(channel, Distribution.uniform([0, 1]))
>>> certify.decimal(information, 10)
'0.1308120359'
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy
from flint import arb, ctx, fmpq

from exactpml.core import certify
from exactpml.core.abbreviate import abbreviated
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, as_scalar
from exactpml.core.mechanism import Mechanism
from exactpml.core.parameters import (
    power_bits,
    real_number,
    short_count,
    short_number,
    within_bound,
)
from exactpml.errors import InvalidArgument
from exactpml.numerics.log_moments import (
    PRECISION,
    RenyiBounds,
    ball_ends,
    log_moment,
    order_precision,
)
from exactpml.qif._support import (
    log_combination,
    rational_kernel,
    rational_prior,
    rational_vector,
)

__all__ = [
    "conditional_entropy",
    "mutual_information",
    "renyi_entropy",
    "renyi_entropy_bounds",
    "shannon_entropy",
]


def shannon_entropy(distribution: Distribution) -> Scalar:
    """H(P) = Σ_{p(x) > 0} p(x) log(1 / p(x)) in nats (Cover & Thomas, §2.1).

    >>> shannon_entropy(Distribution.uniform("abc"))
    log(3)
    """
    probabilities = rational_vector(distribution, "distribution")
    return log_combination((p, 1 / p) for p in probabilities if p)


def _joint(
    mechanism: Mechanism, prior: Distribution
) -> tuple[list[list[Fraction]], list[Fraction]]:
    """The joint p(x, y) (rows = inputs) and the output law p(y)."""
    kernel = rational_kernel(mechanism)
    weights = rational_prior(mechanism, prior)
    joint = [[w * c for c in row] for w, row in zip(weights, kernel, strict=True)]
    output = [sum(column, Fraction(0)) for column in zip(*joint, strict=True)]
    return joint, output


def conditional_entropy(mechanism: Mechanism, prior: Distribution) -> Scalar:
    """H(X|Y) = Σ_{p(x,y) > 0} p(x, y) log(p(y) / p(x, y)) in nats (Cover & Thomas, §2.2).

    X ~ ``prior`` is the secret, Y the mechanism's output.

    >>> conditional_entropy(Mechanism.identity("ab"), Distribution.uniform("ab"))
    Fraction(0, 1)
    """
    joint, output = _joint(mechanism, prior)
    return log_combination(
        (value, output[j] / value) for row in joint for j, value in enumerate(row) if value
    )


def mutual_information(mechanism: Mechanism, prior: Distribution) -> Scalar:
    """I(X; Y) = Σ_{p(x,y) > 0} p(x, y) log(C(x, y) / p(y)) in nats (Cover & Thomas, §2.3).

    >>> mutual_information(Mechanism.identity("ab"), Distribution.uniform("ab"))
    log(2)
    """
    joint, output = _joint(mechanism, prior)
    kernel = rational_kernel(mechanism)
    return log_combination(
        (value, kernel[i][j] / output[j])
        for i, row in enumerate(joint)
        for j, value in enumerate(row)
        if value
    )


def _order(order: object) -> Scalar:
    """A rational α >= 0 or ∞ (Rényi's orders)."""
    alpha = real_number(order, name="order", symbolic=False, infinite=True)
    if alpha is sympy.oo:
        return alpha
    if type(alpha) is not Fraction:
        raise InvalidArgument(f"order={alpha} must be a rational number >= 0 or oo")
    if alpha < 0:
        raise InvalidArgument(f"order={alpha} must not be negative")
    return alpha


def renyi_entropy(distribution: Distribution, order: object) -> Scalar:
    """H_α(P) = log(Σ_x p(x)^α) / (1 - α) in nats, for a rational α >= 0 or α = ∞ (Rényi 1961).

    α = 0 gives ``log |supp P|`` (Hartley), α = 1 the Shannon entropy (the limit), α = ∞ the
    min-entropy -log max p.  For a non-integer α the sum is an algebraic number.

    A law uniform on its support has ``H_α = log |supp P|`` at every order (Σ p^α = m^{1-α}),
    which is returned without forming p^α.  Otherwise Σ p^α has about α·log2(L) bits (L the
    common denominator of the p), checked against ``Bounds.exact_bits``: above it
    :class:`~exactpml.core.bounds.BoundExceeded` names the order, and
    :func:`renyi_entropy_bounds` gives certified bounds at every order.

    >>> renyi_entropy(Distribution({"a": "1/2", "b": "1/4", "c": "1/4"}), 2)
    -log(3) + 3*log(2)
    >>> renyi_entropy(Distribution({"a": "1/2", "b": "1/2"}), "oo")
    log(2)
    >>> renyi_entropy(Distribution.uniform("abc"), 10**100)
    log(3)
    """
    probabilities = [p for p in rational_vector(distribution, "distribution") if p]
    alpha = _order(order)
    if len(set(probabilities)) == 1:  # uniform on its support: log m at every order
        return log_combination([(Fraction(1), Fraction(len(probabilities)))])
    if alpha is sympy.oo:
        return log_combination([(Fraction(1), 1 / max(probabilities))])
    if type(alpha) is not Fraction:
        raise InvalidArgument(f"order={abbreviated(alpha)} must be a rational number >= 0 or oo")
    if alpha < 0:
        raise InvalidArgument(f"order={abbreviated(alpha)} must not be negative")
    if alpha == 1:
        return log_combination((p, 1 / p) for p in probabilities)
    common = math.lcm(*(p.denominator for p in probabilities))
    bits = power_bits(common.bit_length(), alpha)
    within_bound(
        bits,
        "exact_bits",
        where="renyi_entropy",
        what=f"order={short_number(alpha)} would form Σ p^α of about {short_count(bits)} bits "
        "(certified bounds at every order: exactpml.qif.renyi_entropy_bounds)",
    )
    if alpha.denominator == 1:  # one normalisation: Σ (p L)^α over L^α
        power = int(alpha)
        numerators = (p.numerator * (common // p.denominator) for p in probabilities)
        total = Fraction(sum(n**power for n in numerators), common**power)
        return log_combination([(1 / (1 - alpha), total)])
    power_ = sympy.Rational(alpha.numerator, alpha.denominator)
    algebraic = sympy.Add(
        *(sympy.Rational(p.numerator, p.denominator) ** power_ for p in probabilities)
    )
    return as_scalar(sympy.log(algebraic) / (1 - power_))


def renyi_entropy_bounds(distribution: Distribution, order: object) -> RenyiBounds:
    """Certified rational bounds on H_α(P), at every order α >= 0 (ball arithmetic).

    With t = α - 1 and p* = max p, H_α(P) = -K(t)/t for the log-moment
    K(t) = log Σ p · p^t (:mod:`exactpml.numerics.log_moments`), computed without forming
    p^α: ``order=10**999`` costs what ``order=2`` does.  For α > 1 the value lies in
    [-log p*, -log p* · α/(α - 1)] (K(t) = t log p* + log S with p* <= S = Σ p (p/p*)^t <= 1),
    which closes on the min-entropy as α → ∞.  Exact orders (0, 1, ∞) and uniform laws
    enclose the exact value.

    >>> bounds = renyi_entropy_bounds(Distribution({"a": "1/2", "b": "1/4", "c": "1/4"}), 10**999)
    >>> float(bounds.lower) <= 0.6931471805599453 <= float(bounds.upper)  # -log(1/2) = log 2
    True
    """
    probabilities = [p for p in rational_vector(distribution, "distribution") if p]
    alpha = _order(order)
    if (
        alpha is sympy.oo
        or len(set(probabilities)) == 1
        or (type(alpha) is Fraction and alpha in (0, 1))
    ):
        lower, upper = ball_ends(certify.enclosure(renyi_entropy(distribution, alpha), PRECISION))
        return RenyiBounds(lower, upper, alpha)
    assert type(alpha) is Fraction
    step = alpha - 1
    precision = order_precision(
        step, where="renyi_entropy_bounds", shown=f"order={short_number(alpha)}"
    )
    with ctx.workprec(precision):
        ball = -log_moment(probabilities, probabilities, step) / arb(
            fmpq(step.numerator, step.denominator)
        )
        lower, upper = ball_ends(ball)
    return RenyiBounds(lower, upper, alpha)
