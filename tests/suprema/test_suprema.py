"""Tests of exactpml.suprema: the suprema of Thm 2.8, Thm 4.2, Thm 4.5 and Remark B.1.

Every supremum is compared with a brute-force closed form computed here from the
definitions (proofs_check/reference/), and every construction's limit, taken by the limit
engine, must equal that closed form exactly.  The expressions the suprema feed to the
limit engine are checked against the measures recomputed on the construction's members.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
import sympy
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exactpml import Distribution, Mechanism, leakage_capacity, pml
from exactpml import strategies as xst
from exactpml.suprema import (
    Construction,
    Instance,
    sup_conditional_pml,
    sup_entry_leakage,
    sup_pml,
)
from exactpml.suprema.families import FinitePriors, FullSupportPriors, ProductPriors
from proofs_check import reference as brute_force

t = sympy.Symbol("t", positive=True)


def ratio_of(value):
    """The supremum's ratio with None for infinity (the brute-force convention)."""
    return None if value.is_infinite else value.ratio


def independent(mechanism: Mechanism) -> bool:
    return all(row == mechanism.rows[0] for row in mechanism.rows)


# --- Thm 2.8 -----------------------------------------------------------------------------------

CHANNEL = Mechanism.from_matrix(
    [["1/2", "1/4", "1/4"], ["1/10", "3/5", "3/10"], ["1/5", "1/5", "3/5"]]
)


@pytest.mark.parametrize("y", range(3))
def test_sup_over_all_priors_is_the_column_ratio_and_not_attained(y):
    result = sup_pml(CHANNEL, FullSupportPriors(CHANNEL.inputs), output=y)
    column = CHANNEL.column(y)
    assert result.value.ratio == max(column) / min(column)
    assert not result.attained
    assert isinstance(result.witness, Construction)
    assert result.witness.to == "0+"
    assert result.witness.limit == max(column) / min(column)


def test_sup_over_all_priors_and_outputs_is_the_leakage_capacity():
    result = sup_pml(CHANNEL, FullSupportPriors(CHANNEL.inputs))
    assert result.value == leakage_capacity(CHANNEL)
    assert len(result.parts) == 3


def test_thm_2_8_prior_puts_one_minus_t_on_the_argmin():
    result = sup_pml(CHANNEL, FullSupportPriors(CHANNEL.inputs), output=0)
    member = result.witness.at("1/10")
    assert member.prior[1] == Fraction(9, 10)  # argmin_x p(0|x) is x = 1
    assert member.prior[0] == member.prior[2] == Fraction(1, 20)


@settings(max_examples=40, deadline=None)
@given(xst.mechanisms(min_inputs=1, max_inputs=4, max_outputs=4))
@example(Mechanism.from_matrix([[0, 1], ["1/2", "1/2"]]))
@example(Mechanism.from_matrix([["1/2", "1/2"], ["1/2", "1/2"]]))
def test_thm_2_8_on_random_kernels(mechanism):
    result = sup_pml(mechanism, FullSupportPriors(mechanism.inputs))
    assert result.value == leakage_capacity(mechanism)
    assert ratio_of(result.value) == brute_force.capacity_ratio(mechanism)
    for part in result.parts or (result,):
        if isinstance(part.witness, Construction):
            assert part.witness.limit == (
                part.value.ratio if not part.value.is_infinite else sympy.oo
            )
    # Remark B.1 for Thm 2.8: attained exactly when every column is constant
    assert result.attained == (result.value == 0)


# --- the two t = 0 traps, at the level of the supremum ---------------------------------------


def test_the_leakage_at_t_zero_is_not_the_supremum():
    """At t = 0 the concentrating prior is a point mass: l(X->y) = 0 there (the support
    changed), while the supremum -- the limit t -> 0+ -- is the column ratio."""
    result = sup_pml(CHANNEL, FullSupportPriors(CHANNEL.inputs), output=0)
    assert result.value.ratio == 5
    point_mass = Distribution({0: 0, 1: 1, 2: 0})
    assert pml(CHANNEL, point_mass, 0) == 0
    with pytest.raises(Exception, match="outside its domain"):
        result.witness.at(0)


def test_substituting_t_zero_into_the_construction_gives_nan_but_the_limit_is_exact():
    result = sup_pml(CHANNEL, FullSupportPriors(CHANNEL.inputs), output=0)
    expression = result.witness.expression
    uncancelled = sympy.Mul(t, sympy.Pow(t, -1), expression, evaluate=False)
    assert uncancelled.subs(t, 0) is sympy.nan
    assert result.witness.limit == 5


# --- the construction's expression is the leakage of its members -----------------------------


def _members_agree(construction: Construction, points=("1/3", "1/100")) -> None:
    """The expression the limit is taken of equals the leakage of the members (exactly, at
    rational parameter values)."""
    for point in points:
        member = construction.at(point)
        assert member.leakage().ratio == construction.expression.subs(
            construction.parameter, sympy.Rational(point)
        )


@settings(max_examples=25, deadline=None)
@given(xst.tuple_mechanisms(max_entries=2, max_alphabet=3, max_outputs=3), st.data())
def test_construction_expressions_equal_the_measures_on_the_members(mechanism, data):
    y = data.draw(st.sampled_from(mechanism.outputs))
    letters = sorted({v for x in mechanism.inputs for v in x})
    n = len(mechanism.inputs[0])
    families = [FullSupportPriors(mechanism.inputs), ProductPriors(letters, n)]
    for family in families:
        for result in (
            sup_pml(mechanism, family, output=y),
            sup_entry_leakage(mechanism, family, output=y, entry=0),
            sup_conditional_pml(mechanism, family, output=y, entry=0),
        ):
            if isinstance(result.witness, Construction):
                _members_agree(result.witness)
                assert family.contains(result.witness.at("1/5").prior)
            else:
                assert result.witness.leakage() == result.value


# --- Thm 4.2 and Thm 4.5 on explicit database mechanisms ---------------------------------------

RANDOMISED_RESPONSE_2 = Mechanism(
    {
        x: {
            y: Fraction(3 ** sum(a == b for a, b in zip(x, y, strict=True)), 16)
            for y in itertools.product((0, 1), repeat=2)
        }
        for x in itertools.product((0, 1), repeat=2)
    }
)


def test_randomised_response_sups_equal_the_dp_and_free_lunch_ratios():
    m = RANDOMISED_RESPONSE_2
    product, every = ProductPriors((0, 1), 2), FullSupportPriors(m.inputs)
    assert sup_entry_leakage(m, product).value.ratio == 3  # Thm 4.2 (3)
    assert sup_conditional_pml(m, product).value.ratio == 3  # Thm 4.2 (2)
    assert sup_conditional_pml(m, every).value.ratio == 3  # Thm 4.2 (1)
    assert sup_pml(m, every).value.ratio == 9  # Thm 4.5 (1)
    assert sup_pml(m, product).value.ratio == 9  # Thm 4.5 (2)
    assert sup_entry_leakage(m, every).value.ratio == 9  # Thm 4.5 (3)


@settings(max_examples=40, deadline=None)
@given(xst.tuple_mechanisms(max_entries=3, max_alphabet=3, max_outputs=3))
@example(RANDOMISED_RESPONSE_2)
def test_thm_4_2_all_three_suprema_equal_the_dp_ratio(mechanism):
    letters = sorted({v for x in mechanism.inputs for v in x})
    n = len(mechanism.inputs[0])
    expected = brute_force.dp_ratio(mechanism)
    product, every = ProductPriors(letters, n), FullSupportPriors(mechanism.inputs)
    first = sup_conditional_pml(mechanism, every)
    second = sup_conditional_pml(mechanism, product)
    third = sup_entry_leakage(mechanism, product)
    for result in (first, second, third):
        assert ratio_of(result.value) == expected
        assert result.attained == independent(mechanism)  # Remark B.1


@settings(max_examples=40, deadline=None)
@given(xst.tuple_mechanisms(max_entries=3, max_alphabet=3, max_outputs=3))
def test_thm_4_5_all_three_suprema_equal_the_free_lunch_ratio(mechanism):
    letters = sorted({v for x in mechanism.inputs for v in x})
    n = len(mechanism.inputs[0])
    expected = brute_force.free_lunch_ratio(mechanism)
    product, every = ProductPriors(letters, n), FullSupportPriors(mechanism.inputs)
    for result in (
        sup_pml(mechanism, every),
        sup_pml(mechanism, product),
        sup_entry_leakage(mechanism, every),
    ):
        assert ratio_of(result.value) == expected
        assert result.attained == independent(mechanism)  # Remark B.1


@settings(max_examples=30, deadline=None)
@given(xst.tuple_mechanisms(min_entries=2, max_entries=3, max_alphabet=3, max_outputs=3), st.data())
def test_per_output_and_entry_sups_are_the_per_output_ratios(mechanism, data):
    y = data.draw(st.sampled_from(mechanism.outputs))
    n = len(mechanism.inputs[0])
    i = data.draw(st.integers(0, n - 1))
    letters = sorted({v for x in mechanism.inputs for v in x})
    result = sup_entry_leakage(mechanism, ProductPriors(letters, n), output=y, entry=i)
    expected = brute_force.entry_dp_ratio(mechanism, y, i)
    assert ratio_of(result.value) == expected
    if isinstance(result.witness, Construction):
        assert result.witness.limit == (sympy.oo if expected is None else expected)


def test_a_finite_family_is_a_maximum_and_attained():
    priors = [
        Distribution({0: "1/2", 1: "1/4", 2: "1/4"}),
        Distribution({0: "1/10", 1: "4/5", 2: "1/10"}),
    ]
    result = sup_pml(CHANNEL, FinitePriors(priors), output=0)
    assert result.attained
    assert isinstance(result.witness, Instance)
    assert result.value == max(pml(CHANNEL, p, 0) for p in priors)
    assert result.witness.leakage() == result.value
