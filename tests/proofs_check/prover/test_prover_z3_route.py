"""The z3 route's edge cases: algebraic counterexamples, enlarged domains, rewritings.

A model is reported only when exactpml re-verifies it; a point that exists only in an enlarged
domain (a rational outer bound of e, say) is ``unknown``, never ``refuted``.
"""

from __future__ import annotations

import sympy
from sympy import Interval, exp, log, oo

from proofs_check import prove_inequality

x, y = sympy.symbols("x y")


def test_a_violation_only_at_an_irrational_algebraic_point_is_refuted_exactly():
    """x <= 1 fails only at x = sqrt(2) when x^2 = 2 is assumed: no rational point works."""
    result = prove_inequality(x, 1, {x: Interval(0, 2)}, assuming=[sympy.Eq(x**2, 2)],
                              engine="z3")
    assert result.status == "refuted", result
    assert result.counterexample == {x: sympy.sqrt(2)}


def test_a_model_of_the_enlarged_problem_that_does_not_reverify_is_unknown_for_z3():
    """e^x <= e on [0, 1] ties at x = 1; z3 sees w = e^x and the constant e each in a rational
    enclosure, so it finds w above "e" -- a point that is outside the domain or satisfies the
    statement once e is exact: ``unknown``; branch-and-bound then proves it (the tie at the
    closed end is decided exactly)."""
    result = prove_inequality(exp(x), sympy.E, {x: Interval(0, 1)}, engine="z3")
    assert result.status == "unknown", result
    assert "does not re-verify" in result.detail
    assert prove_inequality(exp(x), sympy.E, {x: Interval(0, 1)}).status == "proved"


def test_exp_only_variables_become_w_and_a_counterexample_is_a_log():
    """e^{2x} - 3e^x + 2 <= 0 on [0, log 2] is w^2 - 3w + 2 = (w-1)(w-2) <= 0 for w in [1, 2];
    on [0, 1] it fails (w = e^x up to e > 2), at x = log(w) for a rational w."""
    result = prove_inequality(exp(2 * x) - 3 * exp(x) + 2, 0, {x: Interval(0, 1)}, engine="z3")
    assert result.status == "refuted", result
    point = result.counterexample[x]
    assert isinstance(point, sympy.Basic) and point.has(log)
    assert "w = exp(x)" in result.detail


def test_sums_of_logs_are_compared_through_products():
    result = prove_inequality(log(x) + log(y), 2 * log((x + y) / 2),
                              {x: Interval.open(0, oo), y: Interval.open(0, oo)}, engine="z3")
    assert result.status == "proved"
    assert "product of their arguments" in result.detail


def test_the_definedness_query_keeps_an_undefined_statement_from_being_proved():
    result = prove_inequality(1 / x - 1 / x, 1, {x: Interval(-1, 1)}, engine="z3")
    assert result.status == "proved"  # sympy cancelled 1/x - 1/x to 0: nothing is undefined
    result = prove_inequality(1 / x, 1 / x + 1, {x: Interval(-1, 1)}, engine="z3")
    assert result.status == "unknown" and "undefined" in result.detail
