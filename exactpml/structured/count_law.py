"""The law of a count (or of any additive statistic) of independent records, exactly.

For independent records with ``P(f(D_j) = 1) = p_j`` the count ``S = Σ_j f(D_j)`` has the
Poisson-binomial law whose probability generating function is ``Π_j (1 - p_j + p_j z)``.
With ``p_j = a_j / b_j`` this is ``Π_j (b_j - a_j + a_j z) / Π_j b_j``: an integer
polynomial, multiplied with FLINT (``fmpz_poly``, a product tree; one power for i.i.d.
records), so n = 1000 records cost milliseconds and every probability is exact.
:func:`binomial_tail_numerator` sums one tail of the i.i.d. (binomial) law by binary
splitting, without the law: n = 10^6 records in under a second.

>>> count_distribution(["1/2", "1/2"])[1]
Fraction(1, 2)
>>> count_distribution(["1/10000"] * 1000)[0] == Fraction(9999, 10000) ** 1000
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction

import flint
import sympy

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import exact_compare as compare_scalars
from exactpml.core.decisions import prove_nonnegative, prove_zero, unproven_condition
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, as_scalar, exact, exact_product, exact_sum, to_sympy
from exactpml.errors import InvalidArgument

__all__ = [
    "binomial_tail_numerator",
    "count_distribution",
    "count_numerators",
    "statistic_distribution",
]


def _check_probability(value: object, where: str, conditions: list[sympy.Basic]) -> Scalar:
    """Validate p in [0, 1]: exactly for numbers; for symbols, refuse only what is provably
    outside and record the undecided conditions (three-valued, as sympy.stats does)."""
    if isinstance(value, complex):
        raise InvalidArgument(f"{where}={abbreviated_repr(value)} must be a real probability")
    probability = exact(value, where=where)
    if type(probability) is Fraction or not to_sympy(probability).free_symbols:
        if (
            compare_scalars(probability, Fraction(0)) < 0
            or compare_scalars(probability, Fraction(1)) > 0
        ):
            raise InvalidArgument(f"{where}={abbreviated(probability)} must lie in [0, 1]")
        return probability
    expr = to_sympy(probability)
    checks = (
        (expr >= 0, prove_nonnegative(probability)),
        (expr <= 1, prove_nonnegative(as_scalar(1 - expr))),
    )
    for condition, holds in checks:
        if holds is False:
            raise InvalidArgument(f"{where}={abbreviated(probability)} must lie in [0, 1]")
        conditions.extend(
            unproven_condition(condition, holds, where=where, statement=f"{condition}")
        )
    return probability


def _product_tree(polynomials: list[flint.fmpz_poly]) -> flint.fmpz_poly:
    while len(polynomials) > 1:
        paired = [a * b for a, b in zip(polynomials[::2], polynomials[1::2], strict=False)]
        if len(polynomials) % 2:
            paired.append(polynomials[-1])
        polynomials = paired
    return polynomials[0]


def count_numerators(probabilities: Sequence[Fraction]) -> tuple[list[int], int]:
    """The law of a sum of independent Bernoulli(p_j), as integer numerators over one denominator.

    Returns ``(numerators, denominator)`` with ``P[C = c] = numerators[c] / denominator`` for
    ``c = 0..len(probabilities)`` (not reduced).  Equal probabilities are grouped and raised to
    their multiplicity; distinct factors are multiplied as a balanced product tree (FLINT).
    """
    factors = []
    denominator = 1
    for p, multiplicity in Counter(probabilities).items():
        if type(p) is not Fraction or not 0 <= p <= 1:
            raise InvalidArgument(
                f"count_numerators: {abbreviated_repr(p)} is not a rational probability"
            )
        a, d = p.numerator, p.denominator
        factors.append(flint.fmpz_poly([d - a, a]) ** multiplicity)
        denominator *= d**multiplicity
    polynomial = _product_tree(factors) if factors else flint.fmpz_poly([1])
    coefficients = [int(c) for c in polynomial.coeffs()]
    coefficients += [0] * (len(probabilities) + 1 - len(coefficients))
    return coefficients, denominator


def binomial_tail_numerator(n: int, m: int, a: int, b: int) -> int:
    """Σ_{k=0}^{m} C(n,k) a^k b^(n-k), exactly, for 0 ≤ m ≤ n and integers a ≥ 0, b > 0.

    The terms form a hypergeometric sequence, t_{k+1}/t_k = (n-k) a / ((k+1) b), so the sum is
    computed by binary splitting (FLINT ``fmpz``): with p(i) = (n-i) a and q(i) = (i+1) b,
    ``S = Σ_{k≤m} Π_{i<k} p(i)/q(i) = T/Q`` where P, Q, T over an index range [l, r) combine
    as ``P = P_l P_r``, ``Q = Q_l Q_r``, ``T = T_l Q_r + P_l T_r`` (leaves: ``T = Q = q(l)``,
    ``P = p(l)``).  Then Q = (m+1)! b^(m+1) and the sum is ``b^(n-m-1) · T/(m+1)!`` (an exact
    division: ``T/(m+1)! = Σ_{k≤m} C(n,k) a^k b^(m+1-k)``).  The cost is O(M(m log n) log m)
    instead of the m multiplications of (n log d)-bit integers of the term-by-term sum.

    >>> binomial_tail_numerator(3, 1, 1, 1)
    4
    >>> from math import comb
    >>> terms = [comb(5, k) * 3**k * 7 ** (5 - k) for k in range(3)]
    >>> binomial_tail_numerator(5, 2, 3, 7) == sum(terms)
    True
    """
    if not (0 <= m <= n and a >= 0 and b > 0):
        raise InvalidArgument("binomial_tail_numerator needs 0 <= m <= n, a >= 0, b > 0")
    fa, fb = flint.fmpz(a), flint.fmpz(b)

    def split(low: int, high: int) -> tuple[flint.fmpz, flint.fmpz, flint.fmpz]:
        if high - low <= 16:  # a short run: the combination rule, one leaf at a time
            p_total, q_total, t_total = flint.fmpz(1), flint.fmpz(1), flint.fmpz(0)
            for i in range(low, high):
                p_i, q_i = (n - i) * fa, (i + 1) * fb
                t_total = t_total * q_i + p_total * q_i
                p_total *= p_i
                q_total *= q_i
            return p_total, q_total, t_total
        middle = (low + high) // 2
        p_left, q_left, t_left = split(low, middle)
        p_right, q_right, t_right = split(middle, high)
        return p_left * p_right, q_left * q_right, t_left * q_right + p_left * t_right

    _, _, total = split(0, m + 1)
    inner = total // flint.fmpz.fac_ui(flint.fmpz(m + 1))  # exact: Σ_{k≤m} C(n,k) a^k b^(m+1-k)
    return int(inner * fb ** (n - m - 1)) if m < n else int(inner // fb)


def count_distribution(
    probabilities: Sequence[object], *, name: str = "probabilities"
) -> Distribution:
    """The law of the number of successes of independent Bernoulli(p_j) records, on 0..n.

    Args:
        probabilities: ``p_j = P(f(D_j) = 1)`` for each record j (exact; not necessarily
            equal).  Rationals use FLINT integer polynomials; symbolic p_j use sympy.
        name: how error messages refer to the argument.
    """
    if isinstance(probabilities, (str, bytes)) or not isinstance(probabilities, Sequence):
        raise InvalidArgument(f"{name} must be a sequence of probabilities, one per record")
    conditions: list[sympy.Basic] = []
    values = [
        _check_probability(p, f"{name}[{j}]", conditions) for j, p in enumerate(probabilities)
    ]
    size = len(values)
    if size == 0:
        return Distribution._trusted([0], [Fraction(1)])
    if all(type(p) is Fraction for p in values):
        numerators, denominator = count_numerators(values)
        return Distribution._trusted(
            list(range(size + 1)), [Fraction(c, denominator) for c in numerators]
        )
    law: list[Scalar] = [Fraction(1)]
    for p in values:
        q = exact_sum([Fraction(1), exact_product(Fraction(-1), p)])
        law = [
            exact_sum(
                [
                    exact_product(q, law[k]) if k < len(law) else Fraction(0),
                    exact_product(p, law[k - 1]) if k >= 1 else Fraction(0),
                ]
            )
            for k in range(len(law) + 1)
        ]
    return Distribution._trusted(list(range(size + 1)), law, tuple(dict.fromkeys(conditions)))


def statistic_distribution(
    laws: Iterable[Distribution], *, combine: Callable[[Scalar, Scalar], Scalar], unit: Scalar
) -> dict[Hashable, Scalar]:
    """The law of ``unit ⊕ g_1 ⊕ … ⊕ g_k`` for independent g_j with the given laws.

    ``combine`` is ⊕ (exact addition or multiplication); outcomes of probability zero are
    dropped.  Used for linear queries and means of independent records.
    """
    current: dict[Hashable, Scalar] = {unit: Fraction(1)}
    for law in laws:
        following: dict[Hashable, list[Scalar]] = {}
        for value, mass in current.items():
            for outcome, probability in law.items():
                if prove_zero(probability):
                    continue
                key = combine(value, outcome)
                following.setdefault(key, []).append(exact_product(mass, probability))
        current = {key: exact_sum(masses) for key, masses in following.items()}
    return current
