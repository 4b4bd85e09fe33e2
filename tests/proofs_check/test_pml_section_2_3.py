"""What the generic mutant harness does not cover for the checks of Saeidian et al. §2–3.

The harness (test_mutants.py) runs every check un-mutated and with every mutant.  Here:
the exact numbers that the E, L and C evidence report, the helpers' closed forms against
brute force, and the shared strategies' promises (finite capacity, non-constant V).
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import pairwise, product

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpml import Distribution, LogValue, Mechanism, leakage_capacity
from proofs_check import CheckContext, Evidence
from proofs_check.claims.pml import disclosure_prevention, example_3_1, example_3_11, section_2_3
from proofs_check.claims.pml._instances import (
    edge_cases,
    finite_capacity_mechanisms,
    non_constant_deterministic_attributes,
    private_leaning_mechanisms,
)


def run(check, claim_id: str, mutant: str | None = None) -> list[Evidence]:
    return list(check(CheckContext(claim_id, examples=5, profile="quick", mutant=mutant)))


def values_of(evidence: Evidence) -> dict[str, str]:
    return {value.name: value.text for value in evidence.values}


# --- def_2_6 ----------------------------------------------------------------------------
def test_the_identity_mechanism_attains_log_one_over_p_min_on_each_text_prior() -> None:
    evidence = run(section_2_3.def_2_6, "pml.def_2_6")
    exact = next(item for item in evidence if item.kind == "E" and not item.finding)
    shown = values_of(exact)
    for route in ("exactpml", "reference"):
        assert shown[f"identity, prior (1/2, 1/3, 1/6): max_y l(X->y) ({route})"] == "log(6)"
        assert shown[f"identity, prior uniform on 4: D_inf(P_XY || P_X x P_Y) ({route})"] == (
            "log(4)"
        )
        assert shown[f"identity, prior (7/10, 3/10): max_y l(X->y) ({route})"] == "log(10/3)"
        assert shown[f"identity, prior (1/10, 1/5, 3/10, 2/5): max_y l(X->y) ({route})"] == (
            "log(10)"
        )
    sharp = next(item for item in evidence if item.finding)
    assert "is attained exactly on the identity mechanism" in sharp.summary


# --- thm_3_4 ----------------------------------------------------------------------------
@pytest.mark.parametrize("reversed_", [False, True])
def test_the_unevaluated_joint_divergence_max_is_the_evaluated_one(reversed_: bool) -> None:
    """sympy's evaluation of the Maxes (built unevaluated for speed) drops no ratio."""
    from proofs_check.claims.pml._proofs import finite, pml_ratio

    s = finite(3, 2)
    terms = section_2_3._joint_divergence_terms(s, reversed_=reversed_)
    unevaluated = section_2_3._joint_divergence_ratio(s, reversed_=reversed_)
    assert unevaluated == sympy.Max(*terms) and unevaluated.args == sympy.Max(*terms).args
    ratios = [pml_ratio(s.prior, s.channel, y) for y in range(2)]
    largest = section_2_3._largest_leakage_ratio(s)
    assert largest == sympy.Max(*ratios) and largest.args == sympy.Max(*ratios).args


def test_the_complement_identity_of_the_countable_posterior_is_proved() -> None:
    """Bayes' rule for the countable mechanism: 1 - q(X=1|y) = q p(y|0)/(q p(y|0) + p(y|1)),
    by together (cheap) and by simplify (its fallback) alike."""
    y, q = section_2_3._Y, section_2_3._Q
    given_zero, given_one = section_2_3._countable_mechanism()
    prior_zero = q / (1 + q)
    posterior = (
        (1 - prior_zero) * given_one / (prior_zero * given_zero + (1 - prior_zero) * given_one)
    )
    difference = 1 - posterior - q * given_zero / (q * given_zero + given_one)
    assert sympy.together(difference) == 0 and sympy.simplify(difference) == 0
    assert section_2_3._proved_zero(difference)
    assert not section_2_3._proved_zero(difference + 2**-y)


def test_the_countable_mechanism_discloses_only_in_the_limit() -> None:
    limit, finite = [item for item in run(section_2_3.thm_3_4, "pml.thm_3_4") if item.kind == "L"]
    assert limit.passed and "equals 1 exactly; not attained" in limit.summary
    assert values_of(finite)["lim_{y->oo} p(y|1)/p(y|0)"] == "oo"


def test_the_countable_posterior_is_below_one_and_tends_to_one() -> None:
    values = [section_2_3._countable_posterior_of_one(y, Fraction(1, 2)) for y in range(60)]
    assert all(value < 1 for value in values)
    assert all(a < b for a, b in pairwise(values))
    assert 1 - values[-1] < Fraction(1, 10**7)


# --- thm_3_5 ----------------------------------------------------------------------------
def test_the_pinned_edge_cases_hold_and_reveal_the_full_support_hypothesis() -> None:
    evidence = run(disclosure_prevention.thm_3_5, "pml.thm_3_5")
    pinned = next(item for item in evidence if "pinned" in item.summary)
    assert pinned.passed and "held on 2 pinned edge cases" in pinned.summary
    sharp = next(item for item in evidence if item.finding)
    assert "is attained exactly on the identity on a uniform bit" in sharp.summary
    dropped = run(disclosure_prevention.thm_3_5, "pml.thm_3_5", mutant="prior_with_zeros")
    failed = next(item for item in dropped if "pinned" in item.summary)
    assert failed.passed is False
    assert "Distribution({0: '1/2', 1: '1/2', 2: '0'})" in (failed.counterexample or "")


def test_edge_cases_report_the_first_failing_instance_exactly() -> None:
    evidence = edge_cases([1, 2, 3], lambda n: n < 2, describe="n < 2", explain=str)
    assert evidence.passed is False and evidence.kind == "P"
    assert evidence.counterexample == "2; 2"
    assert "failed on pinned edge case 2 of 3" in evidence.summary


# --- thm_3_7 ----------------------------------------------------------------------------
def test_the_missing_non_constant_hypothesis_is_reported_with_its_witness() -> None:
    evidence = run(disclosure_prevention.thm_3_7, "pml.thm_3_7")
    witness = next(item for item in evidence if "needs H_inf(Q_U) > 0" in item.summary)
    assert witness.passed
    assert values_of(witness) == {"C": "log(2)", "H_inf(Q_U)": "0"}
    sharp = next(item for item in evidence if item.finding)
    assert "is attained exactly on randomized response" in sharp.summary
    assert set(values_of(sharp).values()) == {"3/2"}


def test_the_entropy_bound_is_tight_for_randomized_response() -> None:
    # Q uniform, V = X: H_inf(Q_{V|Y=0}) = log(3/2) = log(1 + (1/2)/(1/2) · 1/2).
    adversary = Distribution.uniform([0, 1])
    capacity = leakage_capacity(disclosure_prevention._RANDOMIZED_RESPONSE)
    bound = disclosure_prevention._entropy_bound(adversary, capacity, flipped=False)
    assert bound == LogValue(Fraction(3, 2))


# --- strategies -------------------------------------------------------------------------
@settings(max_examples=40, deadline=None, database=None)
@given(finite_capacity_mechanisms(min_inputs=2))
def test_finite_capacity_mechanisms_have_finite_capacity(mechanism: Mechanism) -> None:
    assert not leakage_capacity(mechanism).is_infinite


@settings(max_examples=40, deadline=None, database=None)
@given(st.integers(2, 5).flatmap(lambda n: non_constant_deterministic_attributes(tuple(range(n)))))
def test_non_constant_attributes_take_two_values(attribute: Mechanism) -> None:
    assert attribute.is_deterministic
    assert len({row.index(Fraction(1)) for row in attribute.rows}) >= 2


@settings(max_examples=40, deadline=None, database=None)
@given(private_leaning_mechanisms())
def test_private_leaning_mechanisms_are_exact_kernels(mechanism: Mechanism) -> None:
    assert mechanism.is_rational
    assert all(sum(row) == 1 for row in mechanism.rows)


# --- ex_3_11 ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("n", "p"), [(1, Fraction(3, 10)), (5, Fraction(1, 2)), (7, Fraction(7, 10))]
)
def test_the_binomial_tail_equals_brute_force(n: int, p: Fraction) -> None:
    for m in range(-1, n + 1):
        brute = sum(
            (
                p ** sum(bits) * (1 - p) ** (n - sum(bits))
                for bits in product((0, 1), repeat=n)
                if sum(bits) <= m
            ),
            Fraction(0),
        )
        assert example_3_11.binomial_lower_tail(n, m, p) == brute


def test_the_chernoff_bound_is_tight_at_m_zero() -> None:
    # exp(-n D(0 || p)) = (1-p)^n = P(S <= 0): the bound equals l(X->1) there.
    bound = example_3_11.chernoff_exponent(200, Fraction(0), Fraction(3, 10))
    assert bound == -sympy.log(1 - sympy.Rational(7, 10) ** 200)


def test_the_bound_comparison_is_certify_compare() -> None:
    """``_compare_with_bound`` (exact ratios when exp(bound) is rational) decides as
    certify.compare on both grids, the twin's ties at (m+1)/n = 1 and the doubled exponent
    included, and on bounds whose exp is irrational (n q not an integer)."""
    from exactpml.core import certify

    cases = []
    for p in example_3_11.FIGURE_P:
        for n in (200, 500):
            for ratio in example_3_11.FIGURE_RATIOS[1:]:
                cases.append((n, int(ratio * n), p, 1, ratio, p))
            for ratio in example_3_11.TWIN_RATIOS:
                cases.append((n, int(ratio * n) - 1, p, 0, 1 - ratio, 1 - p))
    cases += [(7, 2, Fraction(3, 10), 1, Fraction(1, 3), Fraction(3, 10)),
              (9, 2, Fraction(1, 2), 1, Fraction(2, 7), Fraction(1, 2))]
    signs = set()
    for n, m, p, output, q, r in cases:
        exact, ratio, problem = example_3_11._exact_leakage(n, m, p, output)
        assert problem is None
        for factor in (1, 2):
            bound = example_3_11.chernoff_exponent(n, q, r, factor=factor)
            sign = example_3_11._compare_with_bound(exact, ratio, bound)
            assert sign == certify.compare(exact, bound), (n, m, p, output, factor)
            signs.add(sign)
    assert signs == {-1, 0, 1}


def test_example_3_11_reports_the_text_values() -> None:
    evidence = run(example_3_11.ex_3_11, "pml.ex_3_11")
    small = values_of(evidence[0])
    for route in (
        "exactpml closed form",
        "exactpml PML of the explicit query",
        "reference PML of the explicit query (Bayes' rule)",
    ):
        name = f"n = 2, p = 3/10: (exp l(X->1), exp l(X->0)) for m = 0..1, {route}"
        assert small[name] == "((100/51, 100/9), (100/49, 100/91))"
    assert values_of(evidence[1])["min_p H_inf(P_{S_i}) (sympy maximum of max(p, 1-p))"] == (
        "log(10/7)"
    )
    figure = values_of(evidence[2])
    assert len(figure) == 48
    assert figure["p = 1/2, n = 200, m = 20"] == "l(X->1) = 1.12793e-33 <= bound 1.07238e-32"
    assert "0.3566749439" in evidence[4].summary
    sharp = evidence[5]
    assert sharp.finding and "attained exactly at the 8 points with m = 0" in sharp.summary
    assert "strictly above the exact value at the other 40" in sharp.summary


def test_figure_values_agree_with_a_multiprecision_reference() -> None:
    import mpmath

    with mpmath.workdps(60):
        tail = mpmath.fsum(mpmath.binomial(200, k) * mpmath.mpf(1) / 2**200 for k in range(21))
        reference = -mpmath.log1p(-tail)
        assert mpmath.nstr(reference, 6, min_fixed=1, max_fixed=0) == "1.12793e-33"


# --- ex_3_1 -----------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 3, 50, 400])
def test_cell_probabilities_sum_to_one_and_match_the_definition(n: int) -> None:
    for entry in (example_3_1.INTERIOR, example_3_1.BOUNDARY):
        cells = example_3_1.cell_probabilities(entry, n)
        assert sum(cells) == 1
    if n <= 3:
        brute = [Fraction(0)] * 4
        for values in product(example_3_1.INTERIOR, repeat=n):
            brute[math.floor(Fraction(sum(values), n))] += Fraction(1, 4**n)
        assert list(example_3_1.cell_probabilities(example_3_1.INTERIOR, n)) == brute


def test_example_3_1_reports_the_exact_small_n_entropies() -> None:
    evidence = run(example_3_1.ex_3_1, "pml.ex_3_1")
    shown = values_of(evidence[0])
    assert shown["interior, n = 2: H_inf(μ̂_1)"] == "log(16/7)"
    assert shown["boundary, n = 2: H_inf(μ̂_1)"] == "log(9/5)"
    assert set(values_of(evidence[1]).values()) == {"log(4)", "log(3)"}
    assert values_of(evidence[3])["boundary, n = 1024: H_inf(μ̂_1) ≈"] == "0.677997"
