"""Exhaustion of finite integer domains, with binomial tails written as sympy Sums.

Saeidian et al., Example 3.11 (the deterministic threshold query): with F = P(Bin(n, p) <= m),
l(X->1) = -log(1 - F) <= -log(1 - exp(-n D(m/n || p))) for m/n < p, by the Chernoff bound
F <= exp(-n D) (Hoeffding 1963, Thm 1; Hagerup and Rüb 1990).  The test range is small (the
figure's n up to 300 takes about 15 s; see docs/proving.md); the false variants halve the bound
or break an identity by one, and their counterexamples are re-verified by the Fraction
reference.
"""

from __future__ import annotations

import sympy
from prover_reference import independently_violated
from sympy import Interval, Rational, Sum, binomial, exp, log

from proofs_check import prove_inequality

n, m = sympy.symbols("n m", integer=True)
k = sympy.Symbol("k", integer=True, nonnegative=True)
p = Rational(3, 10)
TAIL = Sum(binomial(n, k) * p**k * (1 - p) ** (n - k), (k, 0, m))
RATE = (m / n) * log((m / n) / p) + (1 - m / n) * log((1 - m / n) / (1 - p))
DOMAIN = {n: Interval(1, 40), m: Interval(1, 40)}
BELOW_P = [sympy.Lt(m, p * n)]


def test_example_3_11_chernoff_bound_is_proved_at_every_point_of_the_range():
    result = prove_inequality(-log(1 - TAIL), -log(1 - exp(-n * RATE)), DOMAIN,
                              assuming=BELOW_P)
    assert result.status == "proved", result
    assert result.engine == "integer exhaustion"
    assert result.domain.startswith("every n in {1, ..., 40}, every m in {1, ..., 40} with")


def test_a_halved_chernoff_bound_is_refuted_at_a_verified_point():
    lhs, rhs = -log(1 - TAIL), -log(1 - exp(-n * RATE) / 2)
    result = prove_inequality(lhs, rhs, DOMAIN, assuming=BELOW_P)
    assert result.status == "refuted", result
    assert independently_violated(lhs, rhs, result.counterexample, DOMAIN, assuming=BELOW_P)


def test_the_tail_at_m_0_ties_with_its_bound_exactly_at_every_n():
    result = prove_inequality(TAIL.subs(m, 0), (1 - p) ** n, {n: Interval(1, 60)})
    assert result.status == "proved", result
    assert "60 exact ties" in result.detail


def test_binomial_sums_identity_holds_and_its_off_by_one_version_is_refuted():
    total = Sum(binomial(n, k), (k, 0, n))
    assert prove_inequality(total, 2**n, {n: Interval(0, 50)}).status == "proved"
    assert prove_inequality(2**n, total, {n: Interval(0, 50)}).status == "proved"
    result = prove_inequality(total, 2**n - 1, {n: Interval(0, 50)})
    assert result.status == "refuted" and result.counterexample == {n: 0}


def test_closed_sums_are_added_term_by_term_to_the_value_doit_gives() -> None:
    """``points.summed`` adds a plain closed Sum's terms itself (Ex 3.11's binomial tails);
    the value is sympy's ``doit`` value, for a sum inside other terms too, and the sums it
    leaves to ``doit`` (high < low: Karr's convention; nested; past 10^4 terms) keep it."""
    import sympy

    from proofs_check.prover.points import summed

    k, j = sympy.symbols("k j", integer=True)
    binomial_tail = sympy.Sum(
        sympy.binomial(9, k) * sympy.Rational(2, 7) ** k * sympy.Rational(5, 7) ** (9 - k),
        (k, 0, 3),
    )
    cases = [
        binomial_tail,
        1 - binomial_tail,
        sympy.log(2 - binomial_tail),
        sympy.Sum(k**2, (k, 5, 5)),
        sympy.Sum(k, (k, 3, 1)),  # Karr: -Sum(k, (k, 2, 2)) = -2, left to doit
    ]
    for case in cases:
        assert sympy.simplify(summed(case) - case.doit()) == 0, case
        assert not summed(case).has(sympy.Sum)
    assert summed(sympy.Sum(k, (k, 3, 1))) == -2
    # nested sums (and sums past 10^4 terms) are doit's, as before: the same value
    nested = sympy.Sum(sympy.Sum(j * k, (j, 1, 10**4)), (k, 1, 10**4))
    assert summed(nested) == nested.doit() == (10**4 * (10**4 + 1) // 2) ** 2
    long_sum = sympy.Sum(k, (k, 1, 10**6))
    assert summed(long_sum) == long_sum.doit() == 10**6 * (10**6 + 1) // 2
