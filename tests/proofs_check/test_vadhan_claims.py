"""The vadhan.* checks beyond the generic mutant harness: their reference code and findings.

The harness (test_mutants.py) already runs every check un-mutated and every mutant.  Here:
the exact Q(√c) arithmetic and the simulator certificate can fail when they should, the
least ε of Prop 2's hypothesis has the closed forms derived in the docstrings, and the
reports carry the notes about the source's slips.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactpml.core import certify
from exactpml.database import DatabaseMechanism
from exactpml.notions import simulation_epsilon
from proofs_check import ClaimResult, RunOptions, Verdict, run_checks
from proofs_check.claims.vadhan import bayesian, divergences, simulation
from proofs_check.reference.divergences import divergence_ratio_by_points as max_ratio_over_points
from proofs_check.reference.divergences import divergence_ratio_by_sets as max_ratio_over_events
from proofs_check.reference.divergences import (
    statistical_distance_by_sets as statistical_difference_by_events,
)
from proofs_check.reference.simulation import (
    Surd,
    box_simulator,
    simulation_lower_bound_squared,
    sqrt_surd,
    surd,
    verify_simulator,
)

RATIONALS = st.fractions(min_value=-20, max_value=20, max_denominator=50)
POSITIVE = st.fractions(min_value=0, max_value=20, max_denominator=50).filter(lambda v: v > 0)
RATIOS = st.fractions(min_value=1, max_value=50, max_denominator=40).filter(lambda v: v > 1)


@given(RATIONALS, RATIONALS, POSITIVE)
def test_the_sign_of_a_surd_agrees_with_certified_arithmetic(
    a: Fraction, b: Fraction, c: Fraction
) -> None:
    value = Surd(a, b, c)
    expected = certify.sign(value.to_sympy())
    assert value.sign() == expected


@given(RATIONALS, RATIONALS, RATIONALS, RATIONALS, POSITIVE)
def test_surd_division_inverts_multiplication(
    a: Fraction, b: Fraction, x: Fraction, y: Fraction, c: Fraction
) -> None:
    divisor = Surd(x, y, c)
    if x * x == y * y * c:  # zero norm: only when the divisor is 0 or c is a square
        return
    product = Surd(a, b, c) * divisor
    quotient = product / divisor
    assert (quotient - Surd(a, b, c)).sign() == 0


def test_sqrt_surd_is_rational_exactly_for_squares() -> None:
    assert sqrt_surd(Fraction(9, 4)) == Surd(Fraction(3, 2), Fraction(0), Fraction(9, 4))
    assert sqrt_surd(Fraction(2)) == Surd(Fraction(0), Fraction(1), Fraction(2))


@given(RATIOS, st.integers(1, 1000))
def test_ceil_sqrt_is_the_least_fraction_above_the_root(value: Fraction, denominator: int) -> None:
    q = bayesian._ceil_sqrt(value, denominator)
    assert q.denominator == denominator or denominator % q.denominator == 0
    assert q * q >= value
    below = q - Fraction(1, denominator)
    assert below < 0 or below * below < value


def test_events_and_points_on_known_pairs() -> None:
    p, q = (Fraction(1), Fraction(0)), (Fraction(1, 2), Fraction(1, 2))
    assert max_ratio_over_events(p, q) == 2
    assert max_ratio_over_events(q, p) is None  # Pr[B ∈ {1}] = 1/2 > 0 = Pr[A ∈ {1}]
    assert max_ratio_over_points(q, p) is None
    assert max_ratio_over_points(q, p, skip_infinite=True) == Fraction(1, 2)
    assert statistical_difference_by_events(p, q) == Fraction(1, 2)


RANDOMIZED_RESPONSE = [
    (Fraction(3, 4), Fraction(1, 4)),
    (Fraction(1, 4), Fraction(3, 4)),
]


def test_the_simulator_certificate_fails_below_the_optimum() -> None:
    assert simulation_lower_bound_squared(RANDOMIZED_RESPONSE) == 4
    assert verify_simulator(RANDOMIZED_RESPONSE, box_simulator(RANDOMIZED_RESPONSE, Fraction(4)), 4)
    below = Fraction(3)
    assert not verify_simulator(
        RANDOMIZED_RESPONSE, box_simulator(RANDOMIZED_RESPONSE, below), below
    )


def test_the_lower_bound_matches_exactpml_on_randomized_response() -> None:
    mechanism = DatabaseMechanism({(0,): {0: "3/4", 1: "1/4"}, (1,): {0: "1/4", 1: "3/4"}})
    assert simulation_epsilon(mechanism).value.ratio == 2  # E² = 4


@pytest.mark.parametrize("r", [Fraction(3, 2), Fraction(4), Fraction(7), Fraction(50)])
def test_the_least_tv_epsilon_is_tanh_of_a_quarter_of_epsilon_dp(r: Fraction) -> None:
    least = bayesian._least_tv(r)
    root = sqrt_surd(r)
    one = surd(Fraction(1), r)
    assert (least - (root - one) / (root + one)).sign() == 0
    sharp = (one + least) / (one - least)
    assert (sharp * sharp - surd(r, r)).sign() == 0  # r = ((1+ε)/(1-ε))², any ε < 1


@pytest.mark.parametrize("r", [Fraction(3, 2), Fraction(3), Fraction(10)])
def test_the_least_kl_epsilon_has_the_logarithmic_mean_closed_form(r: Fraction) -> None:
    value = bayesian._least_epsilons(r)["KL"]
    rho = sympy.Rational(r.numerator, r.denominator)
    closed = sympy.log((rho - 1) / sympy.log(rho)) - 1 + sympy.log(rho) / (rho - 1)
    assert certify.decimal(value, 40) == certify.decimal(closed, 40)


@pytest.mark.parametrize("r", [Fraction(3, 2), Fraction(3), Fraction(10)])
def test_the_least_hellinger_epsilon_has_its_closed_form(r: Fraction) -> None:
    value = bayesian._least_epsilons(r)["Hellinger²"]
    rho = sympy.Rational(r.numerator, r.denominator)
    s = sympy.sqrt(rho)
    closed = 1 - 2 * sympy.sqrt(s) / (1 + s)
    assert certify.decimal(value, 40) == certify.decimal(closed, 40)


def test_the_remark_bound_is_vacuous_when_hellinger_allows_every_gamma() -> None:
    large = sympy.Rational(1, 2)  # H² = 1/2: c = 1/2, 2c² - 1 < 0, so g = 1
    assert bayesian._remark_bound("Hellinger²", large, kl_halved=False) is None
    bound = bayesian._remark_bound("KL", -sympy.log(sympy.Rational(8, 9)) / 2, kl_halved=False)
    assert bound is not None and certify.compare(bound, 2) == 0  # KL of γ = 1/3: ratio 2


def _result(claim: str) -> ClaimResult:
    (result,) = run_checks([claim], options=RunOptions(workers=1, profile="quick")).results
    return result


def test_the_reports_carry_the_notes_about_the_source() -> None:
    case_1 = _result("vadhan.case_1")
    assert case_1.verdict is Verdict.PROVED
    assert any("at most 0.1" in item.summary for item in case_1.evidence)
    prop_2 = _result("vadhan.prop_2")
    assert prop_2.verdict is Verdict.PROVED
    assert any("(1-γ)/(1+γ), not (1+γ)/(1-γ)" in item.summary for item in prop_2.evidence)


def test_the_statistical_difference_check_uses_irrational_epsilons() -> None:
    result = _result("vadhan.statistical_difference")
    assert any("irrational" in item.summary and item.passed for item in result.evidence)


def test_the_anti_randomized_response_attains_the_sharp_part_1_of_claim_1() -> None:
    # |D| = 3, e^ε = 2: p_x = (1/5, 2/5, 2/5) rotated; Σ u = 3/5, so E = 5/3 = (1 + 2·2)/3.
    table = simulation._anti_randomized_response(3, Fraction(2))
    assert table.row((0,)) == (Fraction(1, 5), Fraction(2, 5), Fraction(2, 5))
    assert simulation_epsilon(table.mechanism()).value.ratio == Fraction(5, 3)
    assert simulation._sharp_part_1(Fraction(2), 3) == Fraction(5, 3)
    # |D| = 2: randomized response e^ε = 3 needs E = 2 = (1 + 3)/2 (E² = 4 > 3)
    assert simulation._sharp_part_1(Fraction(3), 2) == 2


def test_the_factor_two_of_claim_1_is_attained() -> None:
    name, table, squared = simulation._witnesses()[0]
    assert squared == 4 and simulation._simulation_ratio_squared(table) == 4
    assert name.startswith("p = (1/5, 1/20, 3/4)")


def test_prop_1_supremum_is_approached_but_not_attained() -> None:
    evidence = bayesian._prop_1_supremum()
    assert evidence.passed
    values = {value.name: value.text for value in evidence.values}
    assert values["t = 1/1000: e^D∞(posterior||prior)"] == "500/167"  # 3/(1 + 2/1000)


def test_the_tanh_third_mutant_bound_is_exact() -> None:
    # r = 8: tanh(ε/3) = (2 - 1)/(2 + 1) = 1/3 exactly
    assert divergences._tanh_third(Fraction(1, 3), Fraction(8))
    assert not divergences._tanh_third(Fraction(1, 3) + Fraction(1, 10**9), Fraction(8))
    assert divergences._tanh_half(Fraction(7, 9), Fraction(8))
