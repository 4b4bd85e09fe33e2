"""Tests of exactpml.continuous: densities and countable pmfs, PML in closed form, suprema
over outputs, leakage capacity, and disclosure in the limit y -> oo (Thm 3.4)."""

from __future__ import annotations

from fractions import Fraction

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpml import Distribution
from exactpml.continuous import (
    ContinuousMechanism,
    disclosure,
    leakage_capacity_of,
    pml_closed_form,
    pointwise_maximal_leakage_at,
    sup_pml_over_outputs,
)
from exactpml.core import certify
from exactpml.numerics import limits
from exactpml.suprema.witnesses import Construction, Instance, SupremumBounds

y_int = sympy.Symbol("y", integer=True, nonnegative=True)
HALF = Distribution({0: "1/2", 1: "1/2"})


def claims_example() -> ContinuousMechanism:
    """CLAIMS pml.thm_3_4: p(y|0) = 2^-(y+1), p(y|1) = (1/3)(2/3)^y on N."""
    return ContinuousMechanism(
        {0: 2 ** (-(y_int + 1)), 1: sympy.Rational(1, 3) * sympy.Rational(2, 3) ** y_int},
        y_int,
        support="naturals",
    )


# --- Laplace ---------------------------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(
    st.fractions(min_value=Fraction(1, 10), max_value=Fraction(9, 10), max_denominator=20),
    st.sampled_from([Fraction(1, 10), Fraction(1, 2), Fraction(1), Fraction(3)]),
)
def test_two_point_laplace_sup_is_the_closed_form(q1, scale):
    mechanism = ContinuousMechanism.laplace({0: 0, 1: 1}, scale)
    prior = Distribution({0: 1 - q1, 1: q1})
    result = sup_pml_over_outputs(mechanism, prior)
    w = sympy.exp(-1 / sympy.Rational(scale.numerator, scale.denominator))
    q = sympy.Rational(q1.numerator, q1.denominator)
    expected = sympy.Max(1 / (q + (1 - q) * w), 1 / ((1 - q) + q * w))
    assert result.value.compare(sympy.log(expected)) == 0
    assert result.attained  # at y = 0 or y = 1 (and on the whole half-line beyond)
    assert result.witness.leakage() == result.value


@st.composite
def laplace_cases(draw):
    size = draw(st.integers(1, 3))
    centers = draw(
        st.lists(
            st.fractions(min_value=-2, max_value=2, max_denominator=4), min_size=size, max_size=size
        )
    )
    scale = draw(st.sampled_from([Fraction(1, 4), Fraction(1), Fraction(2)]))
    weights = draw(st.lists(st.integers(1, 5), min_size=size, max_size=size))
    prior = Distribution({i: Fraction(w, sum(weights)) for i, w in enumerate(weights)})
    return ContinuousMechanism.laplace(dict(enumerate(centers)), scale), prior


@settings(max_examples=15, deadline=None)
@given(
    laplace_cases(),
    st.lists(st.fractions(min_value=-3, max_value=3, max_denominator=8), min_size=3, max_size=3),
)
def test_laplace_sup_dominates_every_output_and_is_reached(case, outputs):
    mechanism, prior = case
    result = sup_pml_over_outputs(mechanism, prior)
    assert not isinstance(result, SupremumBounds)
    for output in outputs:
        assert pointwise_maximal_leakage_at(mechanism, prior, output) <= result.value
    if result.attained:
        assert result.witness.leakage() == result.value
    else:
        construction = result.witness
        assert isinstance(construction, Construction)
        reached = limits.limit(construction.expression, construction.parameter, construction.to)
        assert certify.compare(reached, result.value.ratio) == 0


def test_the_closed_form_agrees_with_the_pointwise_value():
    mechanism = ContinuousMechanism.laplace({0: 0, 1: "1/2", 2: 1}, "1/3")
    prior = Distribution({0: "1/2", 1: "1/3", 2: "1/6"})
    form = pml_closed_form(mechanism, prior)
    for output in (Fraction(-1), Fraction(1, 4), Fraction(1, 2), Fraction(2)):
        value = form.subs(mechanism.variable, sympy.Rational(output.numerator, output.denominator))
        assert (
            certify.compare(
                value, pointwise_maximal_leakage_at(mechanism, prior, output).to_sympy()
            )
            == 0
        )


def test_laplace_capacity_is_e_to_the_spread_over_the_scale():
    result = leakage_capacity_of(ContinuousMechanism.laplace({0: 0, 1: "1/2", 2: 1}, "1/10"))
    assert result.value.compare(10) == 0 and result.attained


# --- Gaussian and geometric ------------------------------------------------------------------------


def test_gaussian_two_centers_is_approached_at_infinity():
    mechanism = ContinuousMechanism.gaussian({0: 0, 1: 1}, 1)
    result = sup_pml_over_outputs(mechanism, Distribution({0: "1/3", 1: "2/3"}))
    assert result.value.ratio == 3 and not result.attained  # the posterior on 0 tends to 1
    assert result.witness.to == "-oo"


def test_gaussian_three_centers_has_a_closed_form_interior_maximum():
    mechanism = ContinuousMechanism.gaussian({0: 0, 1: 1, 2: 2}, "1/4")
    prior = Distribution({0: "9/20", 1: "1/10", 2: "9/20"})
    result = sup_pml_over_outputs(mechanism, prior)
    assert result.attained and result.witness.output == 1
    assert (
        result.value.compare(
            sympy.log(1 / (sympy.Rational(1, 10) + sympy.Rational(9, 10) * sympy.exp(-2)))
        )
        == 0
    )


def test_gaussian_four_centers_is_bounded_and_says_so():
    mechanism = ContinuousMechanism.gaussian({0: 0, 1: 1, 2: 2, 3: 3}, "1/4")
    prior = Distribution({0: "3/10", 1: "1/10", 2: "3/10", 3: "3/10"})
    result = sup_pml_over_outputs(mechanism, prior)
    assert isinstance(result, SupremumBounds)
    assert result.lower <= result.upper
    assert result.witness is not None and result.witness.leakage() == result.lower
    for output in (Fraction(9, 10), Fraction(1), Fraction(11, 10), Fraction(21, 10)):
        assert pointwise_maximal_leakage_at(mechanism, prior, output) <= result.upper
    assert certify.compare(result.upper.ratio, result.lower.ratio * sympy.Rational(1001, 1000)) < 0


def test_geometric_noise_on_the_integers():
    mechanism = ContinuousMechanism.geometric({0: 0, 1: 1, 2: 3}, "1/2")
    assert leakage_capacity_of(mechanism).value.ratio == 8
    prior = Distribution({0: "1/2", 1: "1/3", 2: "1/6"})
    result = sup_pml_over_outputs(mechanism, prior)
    values = [pointwise_maximal_leakage_at(mechanism, prior, k) for k in range(-4, 8)]
    assert result.attained and result.value == max(values, key=lambda v: v.ratio)


# --- countable outputs: disclosure only in the limit -------------------------------------------


def test_disclosure_happens_only_in_the_limit():
    mechanism = claims_example()
    found = disclosure(mechanism, None, HALF)
    assert found.disclosed and found.infimum == 0
    assert not found.certainty.attained
    construction = found.certainty.witness
    assert isinstance(construction, Construction) and construction.to == "oo"
    assert limits.limit(construction.expression, construction.parameter, "oo") == 1
    for k in (0, 1, 10, 100):
        certainty = construction.at(k).leakage().ratio  # max_u q(u | y = k)
        assert certify.compare(certainty, 1) < 0


def test_disclosure_to_one_adversary_is_disclosure_to_all():
    mechanism = claims_example()
    for adversary in (
        HALF,
        Distribution({0: "99/100", 1: "1/100"}),
        Distribution({0: "1/100", 1: "99/100"}),
    ):
        assert disclosure(mechanism, lambda x: x, adversary).disclosed


def test_capacity_is_infinite_although_no_probability_is_zero():
    mechanism = claims_example()
    for k in range(6):
        assert all(certify.sign(mechanism.density(x, k)) > 0 for x in (0, 1))
    result = leakage_capacity_of(mechanism)
    assert result.value.is_infinite and not result.attained


def test_a_finite_support_discloses_at_an_output():
    y = sympy.Symbol("y", integer=True)
    mechanism = ContinuousMechanism(
        {
            0: sympy.Piecewise((sympy.Rational(1, 2), (y >= 0) & (y <= 1)), (0, True)),
            1: sympy.Piecewise((sympy.Rational(1, 2), (y >= 1) & (y <= 2)), (0, True)),
        },
        y,
        support="integers",
    )
    found = disclosure(mechanism, None, HALF)
    assert found.disclosed and found.certainty.attained
    assert isinstance(found.certainty.witness, Instance) and found.certainty.witness.output in (
        0,
        2,
    )


_RATIONALS = st.builds(sympy.Rational, st.integers(-50, 50), st.integers(1, 12))


@settings(max_examples=200, deadline=None)
@given(_RATIONALS, _RATIONALS, st.sampled_from(["rational", "exp", "product", "E", "sum"]))
def test_the_expansion_skipped_for_rational_exponentials_is_sympys(
    factor: sympy.Rational, exponent: sympy.Rational, shape: str
) -> None:
    """``expsums._expand`` skips ``sympy.expand`` only for a rational, exp of a rational, E,
    or their product, which sympy leaves unchanged; anything else is expanded."""
    from exactpml.continuous.expsums import _expand, _is_rational_exponential, _normal_rate

    value = {
        "rational": factor,
        "exp": sympy.exp(exponent),
        "product": factor * sympy.exp(exponent),
        "E": factor * sympy.E,
        "sum": factor * (1 + sympy.exp(exponent)) ** 2,
    }[shape]
    assert _expand(value) == sympy.expand(value)
    assert _normal_rate(factor) == sympy.expand(sympy.expand_log(factor, force=True))
    if _is_rational_exponential(value):
        assert sympy.expand(value) == value  # structurally: nothing to expand
    else:
        assert shape == "sum"
