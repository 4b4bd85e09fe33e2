r"""The deterministic threshold query of Saeidian et al., Example 3.11, exactly.

The database X = (D_1, ..., D_n) has i.i.d. entries and S_i ∈ {0, 1} is a binary feature of
entry i with P(S_i = 1) = p (the text: "individual i identifies as female").  The query
"are there more than m such individuals?" is answered deterministically, Y = 1{S > m} with
S = S_1 + ... + S_n ~ Bin(n, p).  With F = P(S ≤ m) (Saeidian et al., Example 3.11):

* l(X->1) = log max_x P(Y=1|x) / P(Y=1) = -log(1 - F)
  ≤ -log(1 - exp(-n D_KL(m/n ‖ p)))  for m/n ≤ p;
* the y = 0 twin, l(X->0) = -log F
  ≤ -log(1 - exp(-n D_KL(1 - (m+1)/n ‖ 1 - p)))  for (m+1)/n ≥ p,

where D_KL(q ‖ r) = q log(q/r) + (1-q) log((1-q)/(1-r)) between Bernoullis and the bounds
are Chernoff bounds on the binomial tail (Hagerup and Rüb, 1990).  Figure 1 of the paper
plots the first bound for p ∈ {0.3, 0.5} and n ∈ {200, 500, 1000, 2000}.

The leakages are :class:`~exactpml.core.logvalue.LogValue`\ s of exact rationals: F is summed with
Python integers over the common denominator d^n (p = a/d), so n in the thousands takes
milliseconds.  The bounds are exact sympy expressions, compared and printed through
:mod:`exactpml.certify`.

>>> from fractions import Fraction
>>> print(threshold_query_leakage(3, 1, "3/10"))
log(125/27)
>>> print(threshold_query_leakage(3, 1, "3/10", output=0))
log(125/98)
>>> chernoff_bound(200, 0, "3/10") == -sympy.log(1 - sympy.Rational(7, 10) ** 200)
True
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from exactpml.core import boundary as _boundary
from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.bounds import current_bounds, exceeded
from exactpml.core.exact import lowest_terms, to_sympy
from exactpml.core.logvalue import LogValue
from exactpml.core.parameters import probability
from exactpml.errors import InvalidArgument
from exactpml.structured.count_law import binomial_tail_numerator

__all__ = [
    "bernoulli_kl",
    "binomial_lower_tail",
    "binomial_tail_numerator",
    "chernoff_bound",
    "threshold_query_leakage",
]


def _size(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidArgument(
            f"n={abbreviated_repr(n)} must be a positive integer (the number of entries)"
        )
    return n


def _threshold(m: object, n: int) -> int:
    if isinstance(m, bool) or not isinstance(m, int) or not 0 <= m < n:
        raise InvalidArgument(
            f"m={abbreviated_repr(m)} must be an integer with 0 <= m < n = {abbreviated(n)} "
            "(otherwise the answer is constant)"
        )
    return m


def _probability(p: object, *, name: str = "p", open_interval: bool = True) -> Fraction:
    value = probability(p, name=name, open_interval=open_interval, rational=True)
    assert type(value) is Fraction
    return value


def binomial_lower_tail(n: int, m: int, p: Fraction) -> Fraction:
    """F = P(Bin(n, p) ≤ m) = Σ_{k≤m} C(n,k) p^k (1-p)^(n-k), exactly (integers only).

    Any integer m is accepted (F = 0 for m < 0, F = 1 for m ≥ n).  The shorter of the two
    sums is taken (the upper tail when m > n/2), each by binary splitting
    (:func:`binomial_tail_numerator`) over the common denominator d^n (p = a/d), reduced by
    one FLINT gcd.

    >>> binomial_lower_tail(3, 1, Fraction(1, 2))
    Fraction(1, 2)
    """
    numerator, denominator = _lower_tail_numerator(n, m, p)
    return lowest_terms(numerator, denominator)


def _lower_tail_numerator(n: int, m: int, p: Fraction) -> tuple[int, int]:
    """(N, d^n) with F = P(Bin(n, p) ≤ m) = N / d^n, not reduced."""
    a, d = p.numerator, p.denominator
    b = d - a
    if m < 0:
        return 0, 1
    if m >= n or a == 0:
        return 1, 1
    if b == 0:  # a point mass at n > m
        return 0, 1
    if n * d.bit_length() > current_bounds().exact_bits:  # the common denominator d^n
        raise exceeded(
            "binomial_lower_tail",
            f"n={abbreviated(n)} makes the denominator d^n of p = a/d about "
            f"{abbreviated(n * d.bit_length())} bits",
            "exact_bits",
        )
    total = d**n
    if m <= n // 2:
        return binomial_tail_numerator(n, m, a, b), total
    return total - binomial_tail_numerator(n, n - m - 1, b, a), total  # Σ_{k>m} over j = n - k


def bernoulli_kl(q: object, r: object) -> sympy.Expr:
    """D_KL(q ‖ r) = q log(q/r) + (1-q) log((1-q)/(1-r)) between Bernoullis, exactly.

    ``q`` ∈ [0, 1] (with 0 log 0 = 0) and ``r`` ∈ (0, 1) rational.

    >>> bernoulli_kl(0, "3/10")
    log(10/7)
    """
    q_ = _probability(q, name="q", open_interval=False)
    r_ = _probability(r, name="r")
    qs, rs = to_sympy(q_), to_sympy(r_)
    terms = []
    if qs != 0:
        terms.append(qs * sympy.log(qs / rs))
    if qs != 1:
        terms.append((1 - qs) * sympy.log((1 - qs) / (1 - rs)))
    return sympy.Add(*terms)


def threshold_query_leakage(n: int, m: int, p: object, *, output: int = 1) -> LogValue:
    """l(X->y) of the deterministic query Y = 1{S > m}, S ~ Bin(n, p) (Example 3.11).

    ``output=1``: -log(1 - F); ``output=0``: -log F, with F = P(S ≤ m) (exact ratios
    1/(1-F) and 1/F).  Requires 0 ≤ m < n and 0 < p < 1, so both answers have positive
    probability.
    """
    size = _size(n)
    threshold = _threshold(m, size)
    probability = _probability(p)
    tail, total = _lower_tail_numerator(size, threshold, probability)  # F = tail / total
    if output == 1:  # 1 / (1 - F) = total / (total - tail), one gcd (FLINT) for huge n
        return LogValue(lowest_terms(total, total - tail))
    if output == 0:
        return LogValue(lowest_terms(total, tail))
    raise InvalidArgument(f"output={abbreviated_repr(output)} must be 0 or 1 (the query's answers)")


def chernoff_bound(n: int, m: int, p: object, *, output: int = 1) -> sympy.Expr:
    """Example 3.11's Chernoff upper bound on l(X->output), as an exact sympy expression.

    ``output=1`` (needs m/n ≤ p): -log(1 - exp(-n D_KL(m/n ‖ p)));
    ``output=0`` (needs (m+1)/n ≥ p): -log(1 - exp(-n D_KL(1 - (m+1)/n ‖ 1 - p))).
    At m/n = p (respectively (m+1)/n = p) the bound is ``oo``.
    """
    size = _size(n)
    threshold = _threshold(m, size)
    probability = _probability(p)
    if output == 1:
        q, r = Fraction(threshold, size), probability
        if q > r:
            raise InvalidArgument(
                f"the y = 1 bound needs m/n <= p; got m/n = {abbreviated(q)} > p = {abbreviated(r)}"
            )
    elif output == 0:
        q, r = 1 - Fraction(threshold + 1, size), 1 - probability
        if q > r:
            raise InvalidArgument(
                f"the y = 0 bound needs (m+1)/n >= p; got (m+1)/n = {abbreviated(1 - q)} < p = "
                f"{abbreviated(probability)}"
            )
    else:
        raise InvalidArgument(
            f"output={abbreviated_repr(output)} must be 0 or 1 (the query's answers)"
        )
    if q == r:
        return sympy.oo
    bits = size * (_height(q) + _height(r))
    if bits > current_bounds().exact_bits:  # sympy writes e^{-n D} as powers of q and r
        raise exceeded(
            "chernoff_bound",
            f"n={abbreviated(size)} makes e^(-n D(m/n || p)) powers of about "
            f"{abbreviated(bits)} bits",
            "exact_bits",
        )
    return -sympy.log(1 - sympy.exp(-size * bernoulli_kl(q, r)))


def _height(value: Fraction) -> int:
    return value.numerator.bit_length() + value.denominator.bit_length()


_boundary.guard_public_names(globals())  # every public name behind its boundary
