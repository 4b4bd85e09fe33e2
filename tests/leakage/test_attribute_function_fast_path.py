"""l(U->y) for an attribute given as a function of x: the rational fast path of
:func:`~exactpml.leakage.pml.pointwise_maximal_leakage` (Fraction sums per value of U, no
kernel built) against the general path through the deterministic kernel P_{U|X}."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpml import Distribution, Mechanism, pml
from exactpml import strategies as xst


@settings(max_examples=150, deadline=None)
@given(xst.mechanisms_with_prior(max_inputs=6, max_outputs=3), st.data())
def test_a_function_attribute_equals_its_deterministic_kernel(pair, data):
    mechanism, prior = pair
    values = data.draw(
        st.lists(st.integers(0, 2), min_size=len(mechanism.inputs), max_size=len(mechanism.inputs))
    )
    table = dict(zip(mechanism.inputs, values, strict=True))
    kernel = Mechanism.deterministic(table.__getitem__, mechanism.inputs)
    for y in mechanism.outputs:
        fast = pml(mechanism, prior, y, attribute=table.__getitem__)
        general = pml(mechanism, prior, y, attribute=kernel)
        assert fast == general
        assert type(fast.ratio) is Fraction and fast.ratio == general.ratio
        assert fast.conditions == general.conditions == ()


def test_zero_output_mass_is_no_leakage_and_a_symbolic_prior_takes_the_general_path():
    mechanism = Mechanism({"a": {0: 1}, "b": {0: "1/2", 1: "1/2"}})
    assert pml(mechanism, Distribution({"a": 1, "b": 0}), 1, attribute=lambda x: x) == 0
    t = sympy.Symbol("t", positive=True)
    prior = Distribution({"a": 1 - t, "b": t})
    fast = pml(mechanism, prior, 0, attribute=lambda x: x)
    general = pml(mechanism, prior, 0, attribute=Mechanism.identity(mechanism.inputs))
    assert fast == general


def test_an_unhashable_attribute_value_is_still_refused():
    mechanism = Mechanism({"a": {0: 1}, "b": {0: "1/2", 1: "1/2"}})
    prior = Distribution({"a": "1/2", "b": "1/2"})
    with pytest.raises(TypeError):
        pml(mechanism, prior, 0, attribute=lambda x: [x])
