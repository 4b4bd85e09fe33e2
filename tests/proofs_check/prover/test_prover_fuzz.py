"""Random transcendental statements: a proof is never contradicted, a refutation always holds.

``c <= f(x)`` on ``[a, b]`` for random ``f`` built from polynomials, ``exp``, ``log(1 + u^2)``,
``sqrt(u^2 + 1/4)``, ``sin``; ``c`` is ``f`` at a random point of the interval, nudged by a
random amount down to 10^-20, so that many statements are near-ties.  Whenever the prover says
``proved``, :mod:`prover_reference` must find no violation at 65 points of the interval (its
ends, a grid, the point that defined ``c``); whenever it says ``refuted``, the reference must
confirm the counterexample.  Truth is not known in advance here: this is a net for wrong
proofs that the statement tables might have missed.
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from hypothesis import event, given
from hypothesis import strategies as st
from prover_reference import Undecided, Undefined, independently_violated, sign_at

from proofs_check import prove_inequality

x = sympy.Symbol("x")
small = st.fractions(min_value=-2, max_value=2, max_denominator=4)


@st.composite
def functions(draw, depth=2):
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        if draw(st.booleans()):
            return x
        value = draw(small)
        return sympy.Rational(value.numerator, value.denominator)
    kind = draw(st.sampled_from(["add", "mul", "exp", "log", "sqrt", "sin", "square"]))
    a = draw(functions(depth=depth - 1))
    if kind == "add":
        return a + draw(functions(depth=depth - 1))
    if kind == "mul":
        return a * draw(functions(depth=depth - 1))
    if kind == "square":
        return a**2
    if kind == "exp":
        return sympy.exp(a)
    if kind == "log":
        return sympy.log(1 + a**2)
    if kind == "sqrt":
        return sympy.sqrt(a**2 + sympy.Rational(1, 4))
    return sympy.sin(a)


def _value_bounds(f, point):
    """A rational within 2^-70 below f(point), bisected on the reference's signs (None when
    the reference cannot decide)."""
    low = Fraction(-(10**6))
    high = Fraction(10**6)
    for _ in range(90):  # bisection on the reference's signs
        middle = (low + high) / 2
        try:
            side = sign_at(f - sympy.Rational(middle.numerator, middle.denominator),
                           {x: point})
        except (Undefined, Undecided):
            return None
        if side is None:
            return None
        if side >= 0:
            low = middle
        else:
            high = middle
    return low


@given(functions(), small, st.fractions(min_value=0, max_value=4, max_denominator=4),
       st.fractions(min_value=0, max_value=1, max_denominator=8),
       st.sampled_from([Fraction(0), Fraction(1, 10**20), Fraction(-1, 10**20),
                        Fraction(1, 1000), Fraction(-1, 1000)]))
def test_random_statements_proofs_hold_at_many_points_and_refutations_reverify(
        f, start, width, where, nudge):
    if not f.has(x) or width == 0:
        return
    a, b = start, start + width
    touch = a + where * width
    value = _value_bounds(f, touch)
    if value is None:
        return
    c = value + nudge
    lhs = sympy.Rational(c.numerator, c.denominator)
    interval = sympy.Interval(sympy.Rational(a.numerator, a.denominator),
                              sympy.Rational(b.numerator, b.denominator))
    result = prove_inequality(lhs, f, {x: interval}, timeout=5)
    event(result.status)
    if result.status == "refuted":
        assert independently_violated(lhs, f, result.counterexample, {x: interval}), result
    if result.status == "proved":
        points = [a + width * Fraction(i, 63) for i in range(64)] + [touch]
        for point in points:
            try:
                side = sign_at(f - lhs, {x: point})
            except Undefined:
                raise AssertionError(f"proved, but undefined at {point}: {result}") from None
            assert side is None or side >= 0, (point, result)
