"""What proofs share to save time, and that sharing changes no answer.

The working symbols are the same for the same caller's symbol and facts in every problem (so a
claim's proofs rename, print and list definedness conditions once); a witness that the
hypotheses hold somewhere is the central point of the ranges when that point certifies,
z3's otherwise.
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from sympy import Interval, oo

import proofs_check.prover.prove as prove_module
from proofs_check import prove_inequality
from proofs_check.prover import build_problem
from proofs_check.prover.conditions import definedness_conditions
from proofs_check.prover.points import in_domain

x, y = sympy.symbols("x y")
p0, p1, p2 = sympy.symbols("p_0 p_1 p_2")


def test_the_same_symbol_and_facts_get_the_same_working_symbol_in_every_problem():
    first = build_problem(x**2, x, {x: Interval(0, 1)})
    second = build_problem(x, 1, {x: Interval.Lopen(0, 2), y: Interval(-1, 1)})
    negative = build_problem(x, 1, {x: Interval(-2, -1)})
    nonnegative_x = first.ranges[0].working
    assert nonnegative_x is not x and nonnegative_x != x
    assert nonnegative_x.is_nonnegative and not nonnegative_x.is_positive
    assert second.ranges[0].working != nonnegative_x  # positive there
    assert second.ranges[0].working.is_positive
    assert build_problem(x, 2, {x: Interval(0, 3)}).ranges[0].working is nonnegative_x
    assert negative.ranges[0].working != nonnegative_x
    assert negative.ranges[0].working.is_negative
    assert str(nonnegative_x) == "_x"


def test_renamed_expressions_and_their_conditions_match_a_fresh_renaming():
    """The remembered renaming equals ``xreplace`` (Max kept unevaluated both times)."""
    lhs = sympy.log(1 + 1 / x) + sympy.Max(x, y, evaluate=False)
    variables = {x: Interval.Lopen(0, 1), y: Interval(0, 1)}
    first = build_problem(lhs, 1, variables)
    again = build_problem(lhs, 1, variables)
    mapping = {v.symbol: v.working for v in first.ranges}
    assert again.lhs == first.lhs
    assert first.lhs == sympy.log(1 + 1 / mapping[x]) + sympy.Max(mapping[x], mapping[y],
                                                                   evaluate=False)
    assert again.conditions == first.conditions
    assert definedness_conditions(sympy.Tuple(first.lhs, first.rhs)) == first.conditions
    assert [c.kind for c in first.conditions] == ["nonzero", "positive"]


def test_a_probability_row_is_witnessed_at_its_central_point_without_z3(monkeypatch):
    """p_0 + p_1 + p_2 = 1 holds at (1/3, 1/3, 1/3): z3 is not asked for a witness."""

    def no_z3(*args, **kwargs):
        raise AssertionError("z3 asked for a witness")

    monkeypatch.setattr(prove_module, "domain_witness", no_z3)
    variables = {p: Interval.Lopen(0, 1) for p in (p0, p1, p2)}
    result = prove_inequality(p0 * p1, 1, variables, assuming=[sympy.Eq(p0 + p1 + p2, 1)])
    assert result.status == "proved", result
    assert "the hypotheses hold at a point of the domain" in result.detail
    problem = build_problem(p0 * p1, 1, variables, assuming=[sympy.Eq(p0 + p1 + p2, 1)])
    point = prove_module._central_point(problem)
    assert set(point.values()) == {Fraction(1, 3)}
    assert in_domain(problem, point)


def test_when_the_central_point_fails_z3_finds_the_witness(monkeypatch):
    """x != 1/2 and y >= 7 exclude the central point (1/2, 1): z3's witness is used."""
    asked = []
    real = prove_module.domain_witness

    def counted(*args, **kwargs):
        asked.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(prove_module, "domain_witness", counted)
    result = prove_inequality(x, y, {x: Interval(0, 1), y: Interval(0, oo)},
                              assuming=[sympy.Ne(x, sympy.Rational(1, 2)), sympy.Ge(y, 7)])
    assert result.status == "proved", result
    assert asked == [1]


def test_vacuous_hypotheses_are_still_never_a_proof():
    """No point has x > 1 on [0, 1]: the central point fails and z3 finds none."""
    result = prove_inequality(x, 0, {x: Interval(0, 1)}, assuming=[sympy.Gt(x, 1)])
    assert result.status == "unknown", result
    assert "vacuously" in result.detail


def test_branch_and_bound_functions_share_derivatives_and_factors_by_expression():
    """A new ``Function`` of an expression met before reuses sympy's derivative and
    factorisation (prop_4_6's proof: 98 derivatives of 40 expressions), with the values
    sympy gives afresh; each Function keeps its own objects (the search's memo is by
    identity)."""
    from proofs_check.prover import functions

    c = sympy.Symbol("c", positive=True)
    expr = x - sympy.log(c * sympy.exp(x) - c + 1)
    first, second = functions.Function(expr, (x, c)), functions.Function(expr, (x, c))
    before = functions._derived.cache_info().hits
    assert first.derivative(0) is not second.derivative(0)
    assert first.derivative(0).expr == second.derivative(0).expr == sympy.diff(expr, x)
    assert functions._derived.cache_info().hits == before + 1
    product = functions.Function((x - 1) * (x + c) ** 2 / (c + 1), (x, c))
    pieces = product.factors()
    assert pieces is not None
    assert sympy.Mul(*(piece.expr**power for piece, power in pieces)) == sympy.factor(
        sympy.together(product.expr)
    )
    assert functions.Function(product.expr, (x, c)).factors() is not pieces


def test_a_negation_takes_minus_its_partners_derivative_and_factorisation():
    """``-f`` linked to ``f`` (``negated``) takes -(df) and -factor(f) once ``f`` has them,
    equal to what sympy gives for ``-f`` afresh (prop_4_6's simplified bound, its first and
    second derivatives), as new Function objects (the search's memo is by identity)."""
    from proofs_check.prover import functions

    c = sympy.Symbol("c", positive=True)
    gap = c**2 * x**2 / 2 + x * (1 - c) - x + sympy.log(c * sympy.exp(x) - c + 1)
    original = functions.Function(gap, (x, c))
    pending = [original]
    checked = 0
    while pending:
        function = pending.pop()
        for index, variable in enumerate((x, c)):
            derivative = function.derivative(index)
            assert derivative is not None
            negation = function.negated()
            asked = functions._derived.cache_info()
            taken = negation.derivative(index)
            assert functions._derived.cache_info() == asked  # no sympy, not even the cache
            assert taken is not None and taken is not derivative
            assert taken.expr == sympy.diff(-function.expr, variable)
            checked += 1
            if len(pending) + checked < 6:
                pending.append(derivative)
        factored = function._factorisation()
        asked = functions._factored.cache_info()
        assert function.negated()._factorisation() == sympy.factor(
            sympy.together(-function.expr)
        )
        assert functions._factored.cache_info() == asked
        assert factored == sympy.factor(sympy.together(function.expr))
    assert checked >= 6
