"""Example 3.11's threshold query: exact leakages against enumeration, and the Chernoff bounds."""

from fractions import Fraction
from math import comb

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpml import Distribution, InexactInput, InvalidArgument, LogValue, Mechanism, pml
from exactpml.core import certify
from exactpml.instances.threshold_query import (
    bernoulli_kl,
    binomial_lower_tail,
    binomial_tail_numerator,
    chernoff_bound,
    threshold_query_leakage,
)

SMALL_P = [Fraction(1, 10), Fraction(3, 10), Fraction(1, 2), Fraction(7, 10)]


def _enumerated(n: int, m: int, p: Fraction) -> dict[int, LogValue]:
    """l(X->y) of Y = 1{S > m} by building the query on all 2^n databases (Thm 2.4)."""
    entry = Distribution([(0, 1 - p), (1, p)])
    prior = Distribution.product([entry] * n)
    query = Mechanism.deterministic(lambda x: int(sum(x) > m), prior.outcomes, outputs=[0, 1])
    return {y: pml(query, prior, y) for y in (0, 1)}


@pytest.mark.parametrize("p", SMALL_P, ids=str)
@pytest.mark.parametrize("n", range(1, 8))
def test_leakage_of_both_answers_equals_enumeration(n, p):
    for m in range(n):
        enumerated = _enumerated(n, m, p)
        assert threshold_query_leakage(n, m, p) == enumerated[1]
        assert threshold_query_leakage(n, m, p, output=0) == enumerated[0]


def test_leakage_keeps_the_exact_ratio():
    # n = 3, m = 1, p = 3/10: F = 0.343 + 3 * 0.147 = 0.784, so 1/(1-F) = 125/27.
    assert threshold_query_leakage(3, 1, "3/10").ratio == Fraction(125, 27)
    assert threshold_query_leakage(3, 1, "3/10", output=0).ratio == Fraction(125, 98)


def test_tail_sums_agree_whichever_side_is_summed():
    p = Fraction(3, 10)
    for n in (9, 10, 41):
        pmf = [
            sympy.binomial(n, k) * sympy.Rational(3, 10) ** k * sympy.Rational(7, 10) ** (n - k)
            for k in range(n + 1)
        ]
        for m in range(-1, n + 1):
            assert binomial_lower_tail(n, m, p) == Fraction(
                str(sum(pmf[: m + 1], sympy.Integer(0)))
            )


def _term_by_term_tail(n: int, m: int, p: Fraction) -> Fraction:
    """The sum before binary splitting: each term C(n,k) a^k (d-a)^(n-k) with Python ints."""
    a, d = p.numerator, p.denominator
    if m < 0:
        return Fraction(0)
    return Fraction(sum(comb(n, k) * a**k * (d - a) ** (n - k) for k in range(min(m, n) + 1)), d**n)


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(1, 120),
    data=st.data(),
    d=st.integers(1, 10**6),
)
def test_binary_splitting_equals_the_term_by_term_sum(n, data, d):
    m = data.draw(st.integers(-2, n + 2), label="m")
    a = data.draw(st.integers(0, d), label="a")
    p = Fraction(a, d)
    assert binomial_lower_tail(n, m, p) == _term_by_term_tail(n, m, p)
    if 0 <= m <= n and a < d:
        assert binomial_tail_numerator(n, m, a, d - a) == sum(
            comb(n, k) * a**k * (d - a) ** (n - k) for k in range(m + 1)
        )


def test_binary_splitting_at_a_thousand_entries_both_sides():
    p = Fraction(3, 10)
    for m in (0, 1, 15, 16, 17, 99, 500, 501, 998, 999):
        assert binomial_lower_tail(1000, m, p) == _term_by_term_tail(1000, m, p)


def test_tail_numerator_rejects_bad_ranges():
    for args in ((3, 4, 1, 1), (3, -1, 1, 1), (3, 1, -1, 1), (3, 1, 1, 0)):
        with pytest.raises(InvalidArgument):
            binomial_tail_numerator(*args)


def test_leakage_at_thousands_of_entries_agrees_with_a_multiprecision_reference():
    import mpmath

    value = threshold_query_leakage(2000, 200, "1/2")
    assert value.is_rational_ratio and value.ratio > 1
    with mpmath.workdps(60):
        tail = mpmath.fsum(mpmath.binomial(2000, k) for k in range(201)) / mpmath.mpf(2) ** 2000
        reference = mpmath.nstr(-mpmath.log1p(-tail), 12, min_fixed=1, max_fixed=0)
    assert value.decimal(12) == reference == "6.72461376351e-322"


def test_chernoff_bound_is_tight_at_the_extreme_thresholds():
    # m = 0: exp(-n D(0 || p)) = (1-p)^n = F; m = n-1 (y = 0): exp(-n D(0 || 1-p)) = p^n = 1-F.
    assert chernoff_bound(200, 0, "3/10") == -sympy.log(1 - sympy.Rational(7, 10) ** 200)
    assert threshold_query_leakage(200, 0, "3/10").ratio == 1 / (1 - Fraction(7, 10) ** 200)
    assert chernoff_bound(50, 49, "3/10", output=0) == -sympy.log(1 - sympy.Rational(3, 10) ** 50)
    assert threshold_query_leakage(50, 49, "3/10", output=0).ratio == 1 / (
        1 - Fraction(3, 10) ** 50
    )


@pytest.mark.parametrize("p", SMALL_P, ids=str)
def test_exact_leakage_never_exceeds_the_chernoff_bound(p):
    for n in (1, 2, 5, 12, 40):
        for m in range(n):
            if Fraction(m, n) <= p:
                assert certify.is_less_equal(
                    threshold_query_leakage(n, m, p).to_sympy(), chernoff_bound(n, m, p)
                )
            if Fraction(m + 1, n) >= p:
                assert certify.is_less_equal(
                    threshold_query_leakage(n, m, p, output=0).to_sympy(),
                    chernoff_bound(n, m, p, output=0),
                )


def test_chernoff_bound_is_infinite_where_the_divergence_vanishes():
    assert chernoff_bound(10, 3, "3/10") is sympy.oo
    assert chernoff_bound(10, 2, "3/10", output=0) is sympy.oo


def test_bernoulli_kl_is_the_two_term_divergence():
    q, r = sympy.Rational(1, 10), sympy.Rational(3, 10)
    expected = q * sympy.log(q / r) + (1 - q) * sympy.log((1 - q) / (1 - r))
    assert certify.is_equal(bernoulli_kl("1/10", "3/10"), expected)
    assert bernoulli_kl("3/10", "3/10") == 0
    assert bernoulli_kl(1, "1/2") == sympy.log(2)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: threshold_query_leakage(0, 0, "1/2"), InvalidArgument, "n=0"),
        (lambda: threshold_query_leakage(True, 0, "1/2"), InvalidArgument, "n=True"),
        (lambda: threshold_query_leakage(5, 5, "1/2"), InvalidArgument, "m=5"),
        (lambda: threshold_query_leakage(5, -1, "1/2"), InvalidArgument, "m=-1"),
        (lambda: threshold_query_leakage(5, 1, 0), InvalidArgument, "p=0"),
        (lambda: threshold_query_leakage(5, 1, 0.3), InexactInput, "float"),
        (lambda: threshold_query_leakage(5, 1, sympy.sqrt(2) / 2), InvalidArgument, "rational"),
        (lambda: threshold_query_leakage(5, 1, "1/2", output=2), InvalidArgument, "output=2"),
        (lambda: chernoff_bound(10, 4, "3/10"), InvalidArgument, "m/n <= p"),
        (lambda: chernoff_bound(10, 1, "3/10", output=0), InvalidArgument, r"\(m\+1\)/n >= p"),
        (lambda: chernoff_bound(10, 1, "3/10", output="1"), InvalidArgument, "output='1'"),
        (lambda: bernoulli_kl("1/2", 1), InvalidArgument, "r=1"),
        (lambda: bernoulli_kl("3/2", "1/2"), InvalidArgument, "q=3/2"),
    ],
    ids=[
        "no entries",
        "bool size",
        "threshold at n",
        "negative threshold",
        "p = 0",
        "float p",
        "irrational p",
        "unknown output",
        "y = 1 bound above p",
        "y = 0 bound below p",
        "output as a string",
        "r = 1",
        "q above 1",
    ],
)
def test_invalid_arguments_are_refused_with_the_bad_value_named(call, error, match):
    with pytest.raises(error, match=match):
        call()
