"""Tests of the exact suprema over one-parameter families and over 𝒫_c^f (Saeidian et al.,
§4.1): critical points, one-sided limits at open ends, and the t = 0 trap at a closed end
where the support changes."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpml import Mechanism, pml
from exactpml.suprema import (
    Construction,
    Instance,
    sup_conditional_pml,
    sup_entry_leakage,
    sup_pml,
)
from exactpml.suprema.families import IIDPriors, ParameterDomain, ParametricPriors

t = sympy.Symbol("t", positive=True)
s = sympy.Symbol("s", nonnegative=True)
BINARY = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})


# --- suprema over one-parameter families -------------------------------------------------------


def test_a_one_parameter_family_with_an_open_end_is_not_attained():
    family = ParametricPriors({"a": 1 - t, "b": t}, t, (0, 1))
    result = sup_pml(BINARY, family, output=1)
    assert result.value.ratio == 3 and not result.attained
    assert isinstance(result.witness, Construction) and result.witness.to == "0+"


def test_a_closed_end_where_the_support_changes_is_the_t_zero_trap():
    """s = 0 is in the family, but there the prior is a point mass and l(X->1) = 0; the
    supremum log 3 is only the limit s -> 0+."""
    family = ParametricPriors({"a": 1 - s, "b": s}, s, ParameterDomain(0, 1, lower_open=False))
    assert pml(BINARY, family.at(0), 1) == 0
    result = sup_pml(BINARY, family, output=1)
    assert result.value.ratio == 3 and not result.attained


def test_an_interior_maximum_is_found_exactly_and_attained():
    family = ParametricPriors(
        {"a": (1 - t) ** 2, "b": 2 * t * (1 - t), "c": t**2}, t, ParameterDomain("1/10", "9/10")
    )
    mechanism = Mechanism(
        {"a": {0: "1/2", 1: "1/2"}, "b": {0: "1/10", 1: "9/10"}, "c": {0: "1/2", 1: "1/2"}}
    )
    result = sup_pml(mechanism, family, output=0)
    assert result.attained and result.value.ratio == Fraction(5, 3)
    assert isinstance(result.witness, Instance) and result.witness.parameter_value == Fraction(1, 2)
    assert result.witness.leakage() == result.value


def test_an_irrational_critical_point_gives_an_exact_algebraic_supremum():
    """p_Y(0)(t) = 1/2 - t + t^3 on (0, 1): its minimum is at t = 1/sqrt(3)."""
    family = ParametricPriors(
        {"a": sympy.Rational(1, 2) - t + t**3, "b": sympy.Rational(1, 2) + t - t**3}, t, (0, 1)
    )
    mechanism = Mechanism({"a": {0: 1}, "b": {1: 1}})
    result = sup_pml(mechanism, family, output=0)
    assert result.attained
    critical = 1 / sympy.sqrt(3)
    expected = 1 / (sympy.Rational(1, 2) - critical + critical**3)
    assert result.value.compare(sympy.log(expected)) == 0
    samples = [Fraction(k, 20) for k in range(1, 20)]
    assert all(pml(mechanism, family.at(v), 0) <= result.value for v in samples)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(1, 9), min_size=2, max_size=2),
    st.lists(st.integers(1, 9), min_size=2, max_size=2),
    st.sampled_from([0, 1]),
)
def test_one_parameter_sup_dominates_every_member(top, bottom, y):
    mechanism = Mechanism.from_matrix(
        [[Fraction(w, sum(top)) for w in top], [Fraction(w, sum(bottom)) for w in bottom]]
    )
    family = ParametricPriors({0: (1 - t) / 2, 1: (1 + t) / 2}, t, (0, 1))
    result = sup_pml(mechanism, family, output=y)
    for value in (Fraction(1, 100), Fraction(1, 3), Fraction(99, 100)):
        assert pml(mechanism, family.at(value), y) <= result.value


# --- 𝒫_c^f ------------------------------------------------------------------------------------


def _counting_mechanism(alphabet, n, predicate):
    inputs = list(itertools.product(alphabet, repeat=n))

    def row(x):
        k = sum(1 for d in x if predicate(d))
        return {0: Fraction(1 + k, n + 3), 1: Fraction(n + 2 - k, n + 3)}

    return Mechanism({x: row(x) for x in inputs})


def test_iid_sup_is_approached_at_the_ends_of_c_1_minus_c():
    alphabet, n = ("a", "b", "c"), 2
    predicate = lambda d: d == "a"  # noqa: E731
    mechanism = _counting_mechanism(alphabet, n, predicate)
    family = IIDPriors(alphabet, n, predicate=predicate, c="1/10")
    result = sup_pml(mechanism, family, output=0)
    # l(X->0) = log (3/5) / E[(1 + S)/5] with S ~ Bin(2, p): largest as p -> c = 1/10
    assert result.value.ratio == Fraction(3, 5) / (Fraction(1, 5) * (1 + 2 * Fraction(1, 10)))
    assert not result.attained and result.witness.to == "1/10+"
    entry = sup_entry_leakage(mechanism, family, output=0)
    conditional = sup_conditional_pml(mechanism, family, output=0)
    assert entry.value <= result.value and conditional.value <= result.value


def test_iid_family_needs_a_mechanism_that_factors_through_the_predicate():
    alphabet = ("a", "b", "c")
    inputs = list(itertools.product(alphabet, repeat=1))
    mechanism = Mechanism({("a",): {0: 1}, ("b",): {0: "1/2", 1: "1/2"}, ("c",): {1: 1}})
    family = IIDPriors(alphabet, 1, predicate=lambda d: d == "a", c=0)
    assert len(inputs) == 3
    with pytest.raises(Exception, match="only through the predicate"):
        sup_pml(mechanism, family)


def test_a_parameter_of_unknown_sign_is_bounded_by_its_domain():
    r = sympy.Symbol("r", real=True)
    family = ParametricPriors({"a": (1 + r) / 2, "b": (1 - r) / 2}, r, (-1, 1))
    result = sup_pml(BINARY, family, output=1)
    assert result.value.ratio == 3 and not result.attained
    assert result.witness.to == "1-"  # the prior concentrates on a, argmin_x p(1|x)
    family_with_zero = ParametricPriors({"a": 1 - r**2, "b": r**2}, r, ("-1/2", "1/2"))
    inside = sup_pml(BINARY, family_with_zero, output=1)  # r = 0 is a vanishing point inside
    values = [
        pml(BINARY, family_with_zero.at(v), 1) for v in ("-1/3", "-1/100", "0", "1/100", "1/3")
    ]
    assert all(v <= inside.value for v in values)
    assert inside.value.ratio == 3 and not inside.attained  # -> log 3 as r -> 0, 0 at r = 0
    assert pml(BINARY, family_with_zero.at(0), 1) == 0
