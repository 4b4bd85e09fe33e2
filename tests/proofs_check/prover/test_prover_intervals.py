"""The interval extension behind branch-and-bound and every point decision encloses the truth.

Random expressions (``+ - * /``, integer and fractional powers, ``exp``, ``log``, ``sin``,
``cos``, ``Abs``, ``Max``) on random boxes, unbounded ones included: at random points of the
box, the value computed by :mod:`prover_reference` (Fraction intervals with Taylor bounds) must
meet the box's enclosure; where the strict enclosure succeeds the expression must be defined at
every sampled point.  Endpoint arithmetic must keep exact ties exact (``exp(0) - 1 = 0``).
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from hypothesis import assume, given
from hypothesis import strategies as st
from prover_reference import Q, Undecided, Undefined, evaluate

from proofs_check.prover.intervals import Program, UndefinedOnBox, arb_fraction

x, y = sympy.symbols("x y", real=True)
small = st.fractions(min_value=-3, max_value=3, max_denominator=6)


@st.composite
def expressions(draw, depth=3):
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        leaf = draw(st.sampled_from(["x", "y", "c"]))
        if leaf == "c":
            value = draw(small)
            return sympy.Rational(value.numerator, value.denominator)
        return x if leaf == "x" else y
    kind = draw(st.sampled_from(["add", "mul", "sub", "div", "pow", "root", "exp", "log",
                                 "log_raw", "sin", "cos", "abs", "max"]))
    a = draw(expressions(depth=depth - 1))
    if kind in ("add", "mul", "sub", "div", "max"):
        b = draw(expressions(depth=depth - 1))
        if kind == "max":
            try:
                return sympy.Max(a, b)
            except (TypeError, ValueError):  # a complex constant: not comparable
                return a + b
        return {"add": a + b, "mul": a * b, "sub": a - b, "div": a / (b**2 + 1)}[kind]
    if kind == "pow":
        k = draw(st.integers(-2, 4))
        return a if (k < 0 and a.is_zero) else a**k
    if kind == "root":
        return sympy.sqrt(a**2 + sympy.Rational(1, 4))
    if kind == "exp":
        return sympy.exp(a / 4)
    if kind == "log":
        return sympy.log(1 + a**2)
    if kind == "log_raw":
        return sympy.log(a) if a.free_symbols else a
    return {"sin": sympy.sin(a), "cos": sympy.cos(a), "abs": sympy.Abs(a)}[kind]


@st.composite
def boxes(draw):
    box = []
    for _ in range(2):
        low, high = sorted((draw(small), draw(small)))
        if draw(st.integers(0, 5)) == 0:
            low = None
        if draw(st.integers(0, 5)) == 0:
            high = None
        box.append((low, high))
    return box


def _point_in(box, draw_fraction):
    point = []
    for (low, high), t in zip(box, draw_fraction, strict=True):
        if low is None and high is None:
            point.append(t * 8 - 4)
        elif low is None:
            point.append(high - 4 * t)
        elif high is None:
            point.append(low + 4 * t)
        else:
            point.append(low + (high - low) * t)
    return point


unit = st.fractions(min_value=0, max_value=1, max_denominator=12)


@given(expressions(), boxes(), st.lists(st.tuples(unit, unit), min_size=3, max_size=3))
def test_the_enclosure_meets_the_reference_value_at_points_of_the_box(expr, box, samples):
    assume(not expr.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo, sympy.I))
    program = Program(expr, [x, y])
    low, high = program.enclose(box, 64)
    try:
        program.enclose(box, 64, strict=True)
        defined_everywhere = True
    except UndefinedOnBox:
        defined_everywhere = False
    lower = None if low is None else arb_fraction(low)
    upper = None if high is None else arb_fraction(high)
    for sample in samples:
        px, py = _point_in(box, sample)
        try:
            value = evaluate(expr, {x: Q(px), y: Q(py)}, 64)
        except Undefined:
            assert not defined_everywhere, (expr, box, px, py)
            continue
        except (Undecided, ZeroDivisionError):
            continue
        assert lower is None or value.hi >= lower, (expr, box, px, py, lower, value.hi)
        assert upper is None or value.lo <= upper, (expr, box, px, py, upper, value.lo)


def test_endpoint_arithmetic_keeps_ties_exact():
    program = Program(sympy.exp(x) - 1 - x, [x])
    low, high = program.enclose([(Fraction(0), Fraction(0)), (None, None)], 64)
    assert low == 0 and high == 0
    low, _ = Program(sympy.exp(x) - 1, [x]).enclose([(Fraction(0), Fraction(1, 2))], 64)
    assert low == 0  # the derivative's sign at a tie is certified, not straddled


def test_unbounded_boxes_are_enclosed_soundly():
    """e^x - 1 - x on (-oo, -1] lies in [0, oo); x log x on [0, 1/2] in (-oo, 0]."""
    low, high = Program(sympy.exp(x) - 1 - x, [x]).enclose([(None, Fraction(-1))], 64)
    assert low == 0 and high is None
    low, high = Program(x * sympy.log(x), [x]).enclose([(Fraction(0), Fraction(1, 2))], 64)
    assert low is None and high == 0


def test_strict_mode_refuses_a_box_where_the_expression_may_be_undefined():
    for expr, box in [
        (sympy.log(x), [(Fraction(0), Fraction(1))]),
        (1 / x, [(Fraction(-1), Fraction(1))]),
        (sympy.sqrt(x), [(Fraction(-1, 10**30), Fraction(1))]),
        (x ** sympy.Rational(-1, 2), [(Fraction(0), Fraction(1))]),
    ]:
        try:
            Program(expr, [x]).enclose(box, 64, strict=True)
        except UndefinedOnBox:
            continue
        raise AssertionError(f"{expr} on {box} was enclosed in strict mode")


def test_a_reversed_sum_has_sympys_value_on_both_arb_paths():
    """Sum(f(k), (k, a, b)) with b < a - 1 is Karr's -Sum(f(k), (k, b + 1, a - 1)), as
    ``doit`` and the exact point checks read it, on the ball path (a point) and the range
    path (a box); reading it as 0 let the prover prove ``0 <= Sum(1, (k, 0, m))`` over
    -3 <= m <= 3, which sympy's value refutes at m = -2 (independent reference: ``doit``)."""
    k, m = sympy.symbols("k m", integer=True)
    summed = sympy.Sum(k**2, (k, m, 2))
    for start in range(-2, 7):
        expected = int(summed.subs(m, start).doit())
        point = [(Fraction(start), Fraction(start)), (Fraction(0), Fraction(0))]
        low, high = Program(summed + x, [m, x]).enclose(point, 64)
        assert low == high and low.unique_fmpz() == expected, start
        box = [(Fraction(start), Fraction(start)), (Fraction(0), Fraction(1))]
        low, high = Program(summed + x, [m, x]).enclose(box, 64)
        assert (low.unique_fmpz(), high.unique_fmpz()) == (expected, expected + 1), start


def test_the_prover_reads_a_reversed_sum_as_sympy_does():
    from proofs_check import prove_inequality

    k, m = sympy.symbols("k m", integer=True)
    result = prove_inequality(sympy.S(0), sympy.Sum(1, (k, 0, m)), {m: sympy.Interval(-3, 3)})
    assert result.status == "refuted", result
    assert sympy.Sum(1, (k, 0, m)).subs(dict(result.counterexample)).doit() < 0
    empty_or_longer = {m: sympy.Interval(-1, 3)}  # m = -1: the empty sum, 0 in both readings
    assert prove_inequality(sympy.S(0), sympy.Sum(1, (k, 0, m)), empty_or_longer).status == "proved"
