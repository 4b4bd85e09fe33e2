"""Tests of exactpml.families: domains, validation and membership of the prior families."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
import sympy

from exactpml import Distribution, Mechanism
from exactpml.suprema.families import (
    FinitePriors,
    FullSupportPriors,
    IIDPriors,
    ParameterDomain,
    ParametricPriors,
    ProductPriors,
)

t = sympy.Symbol("t", positive=True)
s = sympy.Symbol("s", nonnegative=True)
BINARY = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})


# --- domains and membership --------------------------------------------------------------------


def test_domains_know_their_ends():
    closed = ParameterDomain(0, 1, lower_open=False)
    assert closed.contains(Fraction(0)) and not closed.contains(Fraction(1))
    assert str(closed) == "[0, 1)"
    assert ParameterDomain("-oo", 0).contains(Fraction(-(10**9)))
    assert ParameterDomain(0, 1).interior_point() == Fraction(1, 2)
    assert ParameterDomain(sympy.sqrt(2), 2).contains(sympy.Rational(3, 2))


def test_membership_of_the_structured_families():
    inputs = list(itertools.product((0, 1), repeat=2))
    product = Distribution.product([Distribution({0: "1/3", 1: "2/3"})] * 2)
    correlated = Distribution({(0, 0): "1/2", (0, 1): "1/6", (1, 0): "1/6", (1, 1): "1/6"})
    point_mass = Distribution({x: int(x == (0, 0)) for x in inputs})
    assert FullSupportPriors(inputs).contains(correlated)
    assert not FullSupportPriors(inputs).contains(point_mass)
    assert ProductPriors((0, 1), 2).contains(product)
    assert not ProductPriors((0, 1), 2).contains(correlated)
    iid = IIDPriors((0, 1), 2, predicate=lambda d: d, c="1/10")
    assert iid.contains(product)
    assert not IIDPriors((0, 1), 2, predicate=lambda d: d, c="2/5").contains(product)
    mixed = Distribution.product(
        [Distribution({0: "1/3", 1: "2/3"}), Distribution({0: "1/2", 1: "1/2"})]
    )
    assert not iid.contains(mixed)


def test_parametric_family_members_and_solutions():
    family = ParametricPriors({"a": 1 - t, "b": t}, t, (0, 1))
    assert family.at("1/4")["b"] == Fraction(1, 4)
    assert family.contains(Distribution({"a": "3/4", "b": "1/4"}))
    assert not FinitePriors([family.at("1/4")]).contains(family.at("1/3"))
    with pytest.raises(Exception, match="outside its domain"):
        family.at(1)
    quadratic = ParametricPriors(
        {"a": t**2, "b": 1 - t**2}, t, ParameterDomain(0, 1, upper_open=False)
    )
    assert quadratic.vanishing_points() == [Fraction(1)]
    with pytest.raises(Exception, match="negative at t = "):  # 1 - 2 t^2 < 0 beyond 1/sqrt(2)
        ParametricPriors({"a": 2 * t**2, "b": 1 - 2 * t**2}, t, (0, 1))
    edge = ParametricPriors({"a": 2 * t**2, "b": 1 - 2 * t**2}, t, (0, 1 / sympy.sqrt(2)))
    assert edge.contains(edge.at("1/2"))
