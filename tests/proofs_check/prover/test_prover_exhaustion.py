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
