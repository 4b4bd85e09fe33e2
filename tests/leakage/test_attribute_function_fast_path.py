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


def test_the_fast_path_is_taken_exactly_for_rational_unconditioned_inputs():
    # the optimisation's contract, tested on the private helper itself: it answers (a
    # Fraction, equal to the definition's ratio computed by hand) for rational inputs with a
    # plain function, and steps aside (None) otherwise, leaving the general path to answer
    from exactpml.leakage.pml import _rational_ratio_of_function

    mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}, "c": {1: 1}})
    prior = Distribution({"a": "1/2", "b": "1/4", "c": "1/4"})
    parity = {"a": 0, "b": 1, "c": 1}.__getitem__
    # p_Y(0) = 1/2·3/4 + 1/4·1/4 = 7/16; U = 0: (3/8)/(7/16)/(1/2) = 12/7; U = 1: (1/16)/(7/16)/(1/2)
    assert _rational_ratio_of_function(mechanism, prior, 0, parity) == Fraction(12, 7)
    # p_Y(1) = 1/8 + 3/16 + 1/4 = 9/16; U = 1: (7/16)/(9/16)/(1/2) = 14/9
    assert _rational_ratio_of_function(mechanism, prior, 1, parity) == Fraction(14, 9)
    silent = Distribution({"a": 0, "b": 0, "c": 1})
    assert _rational_ratio_of_function(mechanism, silent, 0, parity) == Fraction(1)
    assert _rational_ratio_of_function(mechanism, prior, 0, lambda x: [x]) is None  # unhashable
    t = sympy.Symbol("t", positive=True)
    symbolic_prior = Distribution({"a": 1 - t, "b": t / 2, "c": t / 2})
    assert _rational_ratio_of_function(mechanism, symbolic_prior, 0, parity) is None
    root = sympy.sqrt(2) / 2
    irrational = Mechanism({"a": {0: root, 1: 1 - root}, "b": {0: "1/4", 1: "3/4"}, "c": {1: 1}})
    assert _rational_ratio_of_function(irrational, prior, 0, parity) is None
    mixed_column = Mechanism({"a": {0: root, 1: 1 - root}, "b": {0: 1}, "c": {1: 1}})
    assert _rational_ratio_of_function(mixed_column, prior, 0, parity) is None


def test_a_kernel_attribute_or_a_table_never_goes_through_the_function_path(monkeypatch):
    import sys

    module = sys.modules["exactpml.leakage.pml"]  # the name pml is also the function

    def refuse(*args, **kwargs):
        raise AssertionError("the function fast path was used for a non-function attribute")

    mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
    prior = Distribution({"a": "1/3", "b": "2/3"})
    kernel = Mechanism.deterministic({"a": 0, "b": 1}.__getitem__, mechanism.inputs)
    monkeypatch.setattr(module, "_rational_ratio_of_function", refuse)
    assert pml(mechanism, prior, 0, attribute=kernel) == pml(mechanism, prior, 0)


def test_mixed_weights_conditions_and_the_function_route():
    import sys

    from exactpml.leakage.pml import _rational_ratio_of_function

    module = sys.modules["exactpml.leakage.pml"]
    parity = {"a": 0, "b": 1, "c": 1}.__getitem__
    mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}, "c": {1: 1}})
    root = sympy.sqrt(2) / 4
    mixed_prior = Distribution({"a": root, "b": "1/4", "c": Fraction(3, 4) - root})
    assert _rational_ratio_of_function(mechanism, mixed_prior, 0, parity) is None
    # a rational column of y = 0 in a mechanism whose other entries carry a condition on t:
    # the answer must carry the mechanism's conditions, as the general path does
    t = sympy.Symbol("t", positive=True)
    conditioned = Mechanism({"a": {0: "1/2", 1: t, 2: sympy.Rational(1, 2) - t}, "b": {0: 1}})
    assert conditioned.conditions
    prior = Distribution({"a": "1/3", "b": "2/3"})
    kernel = Mechanism.deterministic({"a": 0, "b": 1}.__getitem__, conditioned.inputs)
    fast = pml(conditioned, prior, 0, attribute={"a": 0, "b": 1}.__getitem__)
    general = pml(conditioned, prior, 0, attribute=kernel)
    assert fast == general and fast.conditions == general.conditions != ()
    calls = []
    original = module._rational_ratio_of_function

    def spy(*args):
        calls.append(args)
        return original(*args)

    module._rational_ratio_of_function = spy
    try:
        pml(mechanism, Distribution({"a": "1/2", "b": "1/4", "c": "1/4"}), 0, attribute=parity)
    finally:
        module._rational_ratio_of_function = original
    assert len(calls) == 1  # a function attribute on rational inputs takes the fast path
