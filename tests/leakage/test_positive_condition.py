"""``_positive_condition`` (p_Y(y) > 0 for symbolic kernels) builds the relation it keeps
unevaluated only where exact values show both outcomes: the same conditions, return values
and errors as evaluating ``value > 0`` with sympy each time (the code before)."""

from fractions import Fraction

import pytest
import sympy

from exactpml.core.decisions import prove_positive, prove_zero, unproven_condition
from exactpml.core.exact import as_scalar, to_sympy
from exactpml.errors import ExactPMLError
from exactpml.leakage._support import _greater_than_zero, _positive_condition

alpha = sympy.Symbol("alpha", positive=True)
a, b = sympy.symbols("a b", positive=True)
x = sympy.Symbol("x")  # no assumptions
n = sympy.Symbol("n", integer=True, positive=True)

VALUES = [
    1 - sympy.Rational(84, 97) * alpha,  # alpha_range's p_Y(1): both signs
    sympy.Rational(84, 97) * alpha,  # its p_Y(0): positive
    alpha + 1,
    a - b,
    sympy.sqrt(alpha) - 1,
    sympy.Max(alpha, 1 - alpha),
    alpha**2 - alpha + 1,  # positive, undecided by sympy
    x,
    x**2,
    2 * n - 1,
    -alpha,  # provably negative: an error
    alpha - alpha + 1,
    sympy.exp(alpha) - 3,
]


def _before(value, conditions):
    """The code before: the relation evaluated by sympy first, then the proof."""
    zero = prove_zero(value)
    if zero:
        return False
    if zero is None:
        conditions.extend(
            unproven_condition(
                sympy.StrictGreaterThan(to_sympy(value), 0),
                prove_positive(value),
                where="",
                statement=f"{value} > 0",
            )
        )
    return True


def _outcome(function, value):
    conditions: list[sympy.Basic] = []
    try:
        return function(value, conditions), tuple(conditions)
    except (ExactPMLError, TypeError) as error:
        return type(error), str(error)


@pytest.mark.parametrize("value", VALUES, ids=str)
def test_the_conditions_are_those_of_the_evaluated_relation(value):
    scalar = as_scalar(value)
    assert _outcome(_positive_condition, scalar) == _outcome(_before, scalar)


@pytest.mark.parametrize("value", VALUES, ids=str)
def test_an_unevaluated_relation_is_built_only_where_sympy_leaves_it(value):
    proved = prove_positive(as_scalar(value))
    if proved is True:
        return
    expected = sympy.StrictGreaterThan(value, 0)
    built = _greater_than_zero(as_scalar(value), proved)
    assert built == expected and type(built) is type(expected)


def test_a_rational_mass_needs_no_relation():
    assert _outcome(_positive_condition, Fraction(1, 3)) == (True, ())
    assert _outcome(_positive_condition, Fraction(0)) == (False, ())
