"""Soundness of ``prove_inequality`` on statements whose truth is known from mathematics.

Every statement below is true or false by a classical argument (AM-GM, Bernoulli, convexity
of exp, concavity of log, Cauchy-Schwarz, the multiplicative Bayes capacity of a channel being
at most its number of outputs, ...) or by an explicit point (named in the comment).  The tests
require:

* a false statement is never ``proved``; a ``refuted`` one's counterexample is re-verified by
  :mod:`prover_reference` (Fraction intervals with Taylor bounds, written without the prover,
  Arb or z3): in the domain, hypotheses hold, both sides defined, ``lhs > rhs`` there;
* a true statement is never ``refuted``; those listed ``PROVED`` must be proved (the others may
  be ``unknown``: an irrational tie, a tie along a curve for branch-and-bound, ...);
* the false statements listed ``REFUTED`` must be refuted (the rest may be ``unknown``, e.g.
  statements undefined at a point of their domain).

Perturbations by 10^-30 check that a near-tie is never rounded into a proof.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
import sympy
from prover_reference import independently_violated
from sympy import Abs, Interval, Max, Rational, exp, log, oo, sqrt

from proofs_check import prove_inequality

x, y, z, p, q, a, b, c, d, n, m = sympy.symbols("x y z p q a b c d n m")
TINY = Rational(1, 10**30)
R = Interval(-oo, oo)
POS = Interval.open(0, oo)
NONNEG = Interval(0, oo)
UNIT = Interval(0, 1)


@dataclass
class Case:
    id: str
    lhs: sympy.Expr
    rhs: sympy.Expr
    variables: dict
    true: bool
    expect: str  # "proved", "refuted", or "any" (never the wrong one)
    options: dict = field(default_factory=dict)


def _expr(value):
    return sympy.Integer(value) if isinstance(value, int) else value


def true(id, lhs, rhs, variables, expect="proved", **options):
    return Case(id, _expr(lhs), _expr(rhs), variables, True, expect, options)


def false(id, lhs, rhs, variables, expect="refuted", **options):
    return Case(id, _expr(lhs), _expr(rhs), variables, False, expect, options)


def _bayes_2x2(bound):
    """Multiplicative Bayes leakage of the channel [[y, 1-y], [z, 1-z]] under prior (x, 1-x):
    sum over outputs of max_x pi(x) C(x, y), over max_x pi(x) (Alvim et al. 2020, Ch. 5); at
    most the number of outputs (Thm 7.2's capacity bound)."""
    leakage = (Max(x * y, (1 - x) * z) + Max(x * (1 - y), (1 - x) * (1 - z))) / Max(x, 1 - x)
    return leakage, bound, {x: UNIT, y: UNIT, z: UNIT}


def _bayes_2x3(bound):
    """The same for a 2x3 channel [[a, b, 1-a-b], [c, d, 1-c-d]] (rows are distributions)."""
    leakage = (Max(x * a, (1 - x) * c) + Max(x * b, (1 - x) * d)
               + Max(x * (1 - a - b), (1 - x) * (1 - c - d))) / Max(x, 1 - x)
    variables = {x: UNIT, a: UNIT, b: UNIT, c: UNIT, d: UNIT}
    assuming = [sympy.Le(a + b, 1), sympy.Le(c + d, 1)]
    return leakage, bound, variables, assuming


TRUE_CASES = [
    # polynomial and rational (z3)
    true("x^2 <= x on [0,1]", x**2, x, {x: UNIT}),
    true("xy <= (x+y)^2/4", x * y, (x + y) ** 2 / 4, {x: R, y: R}),
    true("x^3-3x+2 >= 0 on [0,oo) (double root at 1)", 0, x**3 - 3 * x + 2, {x: NONNEG}),
    true("Motzkin >= 0", 0, x**4 * y**2 + x**2 * y**4 - 3 * x**2 * y**2 + 1, {x: R, y: R}),
    true("(x+y+z)^2 <= 3(x^2+y^2+z^2)", (x + y + z) ** 2, 3 * (x**2 + y**2 + z**2),
         {x: R, y: R, z: R}),
    true("x^4+y^4 >= x^3 y + x y^3", x**3 * y + x * y**3, x**4 + y**4, {x: R, y: R}),
    true("4x(1-x) <= 1", 4 * x * (1 - x), 1, {x: R}),
    true("AM-GM 3 variables", x * y * z, ((x + y + z) / 3) ** 3,
         {x: NONNEG, y: NONNEG, z: NONNEG}),
    true("Cauchy-Schwarz in R^2", (a * c + b * d) ** 2, (a**2 + b**2) * (c**2 + d**2),
         {a: R, b: R, c: R, d: R}),
    true("x/(1+x^2) <= 1/2", x / (1 + x**2), Rational(1, 2), {x: R}),
    true("x + 1/x >= 2 on (0,oo)", 2, x + 1 / x, {x: POS}),
    true("1/(1-x) >= 1+x on [0,1) (pole at the open end)", 1 + x, 1 / (1 - x),
         {x: Interval.Ropen(0, 1)}),
    true("x/(x+y) + y/(x+y) <= 1 (equal everywhere)", x / (x + y) + y / (x + y), 1,
         {x: POS, y: POS}),
    true("Nesbitt", Rational(3, 2), a / (b + c) + b / (a + c) + c / (a + b),
         {a: POS, b: POS, c: POS}),
    true("1/(x-2) <= 0 on [0,1] (pole outside)", 1 / (x - 2), 0, {x: UNIT}),
    true("AM-HM", 2 / (1 / x + 1 / y), (x + y) / 2, {x: POS, y: POS}),
    true("x^3+y^3 >= x^2 y + x y^2 on [0,oo)^2", x**2 * y + x * y**2, x**3 + y**3,
         {x: NONNEG, y: NONNEG}),
    true("(x^2+1)/(x^2+2) < 1", (x**2 + 1) / (x**2 + 2), 1, {x: R}, strict=True),
    true("x^4 - x + 1 > 0 on R", 0, x**4 - x + 1, {x: R}, strict=True),
    true("tie at 10^-15: x^2 + 10^-30 >= 2 10^-15 x", 2 * Rational(1, 10**15) * x,
         x**2 + TINY, {x: R}),
    true("x^2 < x on (0,1) (ties at the open ends)", x**2, x, {x: Interval.open(0, 1)},
         strict=True),
    # roots (z3)
    true("sqrt(xy) <= (x+y)/2", sqrt(x * y), (x + y) / 2, {x: NONNEG, y: NONNEG}),
    true("sqrt(x) <= (1+x)/2", sqrt(x), (1 + x) / 2, {x: NONNEG}),
    true("x <= sqrt(x) on [0,1]", x, sqrt(x), {x: UNIT}),
    true("sqrt(x+1) <= 1 + x/2 on [-1,oo)", sqrt(x + 1), 1 + x / 2, {x: Interval(-1, oo)}),
    true("sqrt(x^2+y^2) <= |x|+|y|", sqrt(x**2 + y**2), Abs(x) + Abs(y), {x: R, y: R}),
    true("sqrt(1+x) >= 1 + x/2 - x^2/2 on [0,1]", 1 + x / 2 - x**2 / 2, sqrt(1 + x),
         {x: UNIT}),
    true("cube root AM-GM", (x * y * z) ** Rational(1, 3), (x + y + z) / 3,
         {x: NONNEG, y: NONNEG, z: NONNEG}),
    # exp and log: substitutions for z3, or branch-and-bound
    true("1+x <= e^x (tangency at 0)", 1 + x, exp(x), {x: R}),
    true("log(1+x) <= x on (-1,oo)", log(1 + x), x, {x: Interval.open(-1, oo)}),
    true("log x <= x-1 on (0,oo)", log(x), x - 1, {x: POS}),
    true("x/(1+x) < log(1+x) on (0,1] (tie at the open end)", x / (1 + x), log(1 + x),
         {x: Interval.Lopen(0, 1)}, strict=True),
    true("e^x >= 1+x+x^2/2 on [0,oo)", 1 + x + x**2 / 2, exp(x), {x: NONNEG}),
    true("e^-x <= 1/(1+x) on [0,oo)", exp(-x), 1 / (1 + x), {x: NONNEG}),
    true("1+x^2/2 <= cosh x", 1 + x**2 / 2, (exp(x) + exp(-x)) / 2, {x: R}),
    true("x^3 <= e^x on [5,oo)", x**3, exp(x), {x: Interval(5, oo)}),
    true("log x <= sqrt x on (0,oo)", log(x), sqrt(x), {x: POS}),
    true("x log x >= x - 1 on (0,oo)", x - 1, x * log(x), {x: POS}),
    true("e^x >= e x (tie at 1)", sympy.E * x, exp(x), {x: R}),
    true("log((x+y)/2) >= (log x + log y)/2", (log(x) + log(y)) / 2, log((x + y) / 2),
         {x: POS, y: POS}),
    true("e^{2x} - 2e^x + 1 >= 0", 0, exp(2 * x) - 2 * exp(x) + 1, {x: R}),
    true("e^x + e^-x >= 2", 2, exp(x) + exp(-x), {x: R}),
    true("sin x <= x on [0,oo)", sympy.sin(x), x, {x: NONNEG}),
    true("cos x >= 1 - x^2/2", 1 - x**2 / 2, sympy.cos(x), {x: Interval(-4, 4)}),
    true("log(1+x) >= x - x^2/2 on [0,oo)", x - x**2 / 2, log(1 + x), {x: NONNEG}),
    true("e^x+e^y >= 2+x+y on [-1,1]^2", 2 + x + y, exp(x) + exp(y),
         {x: Interval(-1, 1), y: Interval(-1, 1)}),
    true("e^x+e^y+e^z >= 3+x+y+z on [-1,1]^3", 3 + x + y + z, exp(x) + exp(y) + exp(z),
         {x: Interval(-1, 1), y: Interval(-1, 1), z: Interval(-1, 1)}),
    true("log(1+xy) <= xy on [0,1]^2", log(1 + x * y), x * y, {x: UNIT, y: UNIT}),
    true("e^x + e^y >= 2 e^{(x+y)/2}", 2 * exp((x + y) / 2), exp(x) + exp(y), {x: R, y: R}),
    true("e^x >= 1+x+10^-30 x^2 on [-1,1] (near-tie at 0)", 1 + x + TINY * x**2, exp(x),
         {x: Interval(-1, 1)}),
    true("log x <= 2 log x on [1,oo)", log(x), 2 * log(x), {x: Interval(1, oo)}),
    true("(1+x/10)^10 <= e^x on [0,10]", (1 + x / 10) ** 10, exp(x), {x: Interval(0, 10)}),
    true("sqrt x >= x on [0,1] (branch-and-bound)", x, sqrt(x), {x: UNIT},
         engine="branch_and_bound"),
    true("x^2 <= x on [0,1] (branch-and-bound, ties at both ends)", x**2, x, {x: UNIT},
         engine="branch_and_bound"),
    true("x^4-x+1 >= 0 on R (branch-and-bound)", 0, x**4 - x + 1, {x: R},
         engine="branch_and_bound"),
    true("log x <= x - 1 on [1,2] (tie on the closed end)", log(x), x - 1, {x: Interval(1, 2)}),
    # irrational or curve ties: true, but no engine is expected to prove them
    true("-1/e <= x log x (tie at 1/e)", -1 / sympy.E, x * log(x), {x: POS}, expect="any",
         timeout=3),
    true("log x <= x/e (tie at e)", log(x), x / sympy.E, {x: POS}, expect="any", timeout=3),
    true("e^{x+y} >= 1+x+y (tie along x+y=0)", 1 + x + y, exp(x + y),
         {x: Interval(-1, 1), y: Interval(-1, 1)}, expect="any", timeout=3),
    # integers: exhaustion, or one real statement per integer point
    true("Bernoulli (1+x)^n >= 1+nx, n <= 30", 1 + n * x, (1 + x) ** n,
         {x: Interval(-1, oo), n: Interval(1, 30)}, integers=[n]),
    true("n^2 <= 2^n for n in 4..300", n**2, 2**n, {n: Interval(4, 300)}, integers=[n]),
    true("C(2n,n) <= 4^n for n <= 200", sympy.binomial(2 * n, n), 4**n, {n: Interval(0, 200)},
         integers=[n]),
    true("C(n,m) <= 2^n for m <= n <= 60", sympy.binomial(n, m), 2**n,
         {n: Interval(0, 60), m: Interval(0, 60)}, integers=[n, m],
         assuming=[sympy.Le(m, n)]),
    true("n! >= 2^(n-1) for n <= 100", 2 ** (n - 1), sympy.factorial(n),
         {n: Interval(1, 100)}, integers=[n]),
    true("n < 2^n for n <= 500", n, 2**n, {n: Interval(0, 500)}, integers=[n], strict=True),
    true("n^2 >= n on the integers (z3)", n, n**2, {n: R}, integers=[n]),
    # finite structures over every real kernel and prior
    true("Bayes leakage of every 2x2 channel <= 2", *_bayes_2x2(2)),
    true("Bayes leakage of every 2x3 channel <= 3", *_bayes_2x3(3)[:3],
         assuming=_bayes_2x3(3)[3]),
    true("Bayes leakage of every 2x3 channel <= 2 = |X|", *_bayes_2x3(2)[:3],
         assuming=_bayes_2x3(2)[3]),
    true("Max(x,y) >= (x+y)/2", (x + y) / 2, Max(x, y), {x: R, y: R}),
    true("|x+y| <= |x|+|y|", Abs(x + y), Abs(x) + Abs(y), {x: R, y: R}),
    true("pq <= 1/4 when p+q <= 1", p * q, Rational(1, 4), {p: UNIT, q: UNIT},
         assuming=[sympy.Le(p + q, 1)]),
    true("pq <= 1/4 when p+q = 1", p * q, Rational(1, 4), {p: UNIT, q: UNIT},
         assuming=[sympy.Eq(p + q, 1)]),
    true("x <= pi on [0,3]", x, sympy.pi, {x: Interval(0, 3)}),
    true("sin x <= 1 on [0,pi] (an irrational end)", sympy.sin(x), 1,
         {x: Interval(0, sympy.pi)}),
]

FALSE_CASES = [
    false("x^2 <= x on [0,2]", x**2, x, {x: Interval(0, 2)}),
    false("xy <= (x+y)^2/5", x * y, (x + y) ** 2 / 5, {x: R, y: R}),
    false("x^3-3x+2 >= 0 on R (x < -2)", 0, x**3 - 3 * x + 2, {x: R}),
    false("Motzkin >= 10^-30 (tie at (1,1))", TINY,
          x**4 * y**2 + x**2 * y**4 - 3 * x**2 * y**2 + 1, {x: R, y: R}),
    false("(x+y+z)^2 <= 2(x^2+y^2+z^2)", (x + y + z) ** 2, 2 * (x**2 + y**2 + z**2),
          {x: R, y: R, z: R}),
    false("4x(1-x) <= 1 - 10^-30", 4 * x * (1 - x), 1 - TINY, {x: R}),
    false("(1+x)^5 >= 1+5x on R (x = -3)", 1 + 5 * x, (1 + x) ** 5, {x: R}),
    false("AM-GM for signed reals", x * y * z, ((x + y + z) / 3) ** 3, {x: R, y: R, z: R}),
    false("x/(1+x^2) <= 1/2 - 10^-30 (tie at 1)", x / (1 + x**2), Rational(1, 2) - TINY,
          {x: R}),
    false("x + 1/x >= 2 on [-2,-1/2]", 2, x + 1 / x, {x: Interval(-2, Rational(-1, 2))}),
    false("1/(1-x) <= 1+2x on [0,1) (pole at the open end)", 1 / (1 - x), 1 + 2 * x,
          {x: Interval.Ropen(0, 1)}),
    false("Nesbitt + 10^-30 (tie at a=b=c)", Rational(3, 2) + TINY,
          a / (b + c) + b / (a + c) + c / (a + b), {a: POS, b: POS, c: POS}),
    false("sqrt(xy) <= (x+y)/2 - 10^-30", sqrt(x * y), (x + y) / 2 - TINY,
          {x: NONNEG, y: NONNEG}),
    false("sqrt x <= x on [0,1]", sqrt(x), x, {x: UNIT}),
    false("sqrt(x+1) <= 1 + x/2 - x^2/100", sqrt(x + 1), 1 + x / 2 - x**2 / 100,
          {x: Interval(-1, oo)}),
    false("sqrt(x^2+y^2) <= (|x|+|y|)/2", sqrt(x**2 + y**2), (Abs(x) + Abs(y)) / 2,
          {x: R, y: R}),
    false("1+x+10^-30 <= e^x (tie at 0)", 1 + x + TINY, exp(x), {x: Interval(-1, 1)}),
    false("log(1+x) <= x - 10^-30 x^2 on (-1,oo) (fails near 10^30)", log(1 + x),
          x - TINY * x**2, {x: Interval.open(-1, oo)}),
    false("log x <= x - 1 - 10^-30 (tie at 1)", log(x), x - 1 - TINY, {x: POS}),
    false("x/(1+x) < log(1+x) on [0,1] (tie at the closed end)", x / (1 + x), log(1 + x),
          {x: UNIT}, strict=True),
    false("e^x >= 1+x+x^2/2 on [-1,1]", 1 + x + x**2 / 2, exp(x), {x: Interval(-1, 1)}),
    false("e^x >= 1+x+(1/2+10^-30)x^2 on [0,1] (fails on (0, 6e-30))",
          1 + x + (Rational(1, 2) + TINY) * x**2, exp(x), {x: UNIT}),
    false("1+x^2/2+x^4/20 <= cosh x", 1 + x**2 / 2 + x**4 / 20, (exp(x) + exp(-x)) / 2,
          {x: R}),
    false("x^3 <= e^x on [0,oo)", x**3, exp(x), {x: NONNEG}),
    false("log x <= sqrt(x)/2", log(x), sqrt(x) / 2, {x: POS}),
    false("x log x >= x - 1 + 10^-30 (tie at 1)", x - 1 + TINY, x * log(x), {x: POS}),
    false("e^x >= e x + 10^-30 (tie at 1)", sympy.E * x + TINY, exp(x), {x: R}),
    false("log((x+y)/2) >= (log x + log y)/2 + 10^-30", (log(x) + log(y)) / 2 + TINY,
          log((x + y) / 2), {x: POS, y: POS}),
    false("e^{2x} - 2e^x + 1 >= 10^-30 (tie at 0)", TINY, exp(2 * x) - 2 * exp(x) + 1,
          {x: R}),
    false("e^x + e^-x >= 2 + 10^-30", 2 + TINY, exp(x) + exp(-x), {x: R}),
    false("sin x <= x - 10^-30 on [0,oo)", sympy.sin(x), x - TINY, {x: NONNEG}),
    false("cos x >= 1 - x^2/2 + x^4/20", 1 - x**2 / 2 + x**4 / 20, sympy.cos(x),
          {x: Interval(-1, 1)}),
    false("sin x <= x on [-1,1]", sympy.sin(x), x, {x: Interval(-1, 1)}),
    false("e^x >= 1+x+x^2/1000 on [-10^4,0] (fails below about -1000)",
          1 + x + x**2 / 1000, exp(x), {x: Interval(-(10**4), 0)}),
    # fails only below about -10^30, where e^x is beyond certified numerics: never proved
    false("e^x >= 1+x+10^-30 x^2 on [-10^31,0]", 1 + x + TINY * x**2, exp(x),
          {x: Interval(-(10**31), 0)}, expect="any", timeout=5),
    false("log x <= x/e - 10^-30 (fails within 4e-15 of e)", log(x), x / sympy.E - TINY,
          {x: POS}),
    false("e^x+e^y >= 2+x+y+10^-30", 2 + x + y + TINY, exp(x) + exp(y),
          {x: Interval(-1, 1), y: Interval(-1, 1)}),
    false("log(1+xy) <= xy - 10^-30 on [0,1]^2", log(1 + x * y), x * y - TINY,
          {x: UNIT, y: UNIT}),
    false("e^x + e^y >= 2 e^{(x+y)/2} + 10^-30", 2 * exp((x + y) / 2) + TINY, exp(x) + exp(y),
          {x: R, y: R}),
    false("(1+x/10)^10 >= e^x on [0,10]", exp(x), (1 + x / 10) ** 10, {x: Interval(0, 10)}),
    false("x^4-x+1/10 >= 0", 0, x**4 - x + Rational(1, 10), {x: R}),
    false("(x^2+1)/(x^2+2) < 1/2 (tie at 0)", (x**2 + 1) / (x**2 + 2), Rational(1, 2), {x: R},
          strict=True, expect="any"),
    false("x < x^2 on (0,1)", x, x**2, {x: Interval.open(0, 1)}, strict=True),
    false("x^2 < x on [0,1) (tie at the closed end)", x**2, x, {x: Interval.Ropen(0, 1)},
          strict=True),
    false("x^2 <= x on [0, 1+10^-30]", x**2, x, {x: Interval(0, 1 + TINY)}),
    false("sqrt x >= x on [0,2] (branch-and-bound)", x, sqrt(x), {x: Interval(0, 2)},
          engine="branch_and_bound"),
    false("x^2 <= x on [0, 1+10^-30] (branch-and-bound)", x**2, x, {x: Interval(0, 1 + TINY)},
          engine="branch_and_bound"),
    false("x^3-2x <= 1 on [-2,2] (branch-and-bound)", x**3 - 2 * x, 1, {x: Interval(-2, 2)},
          engine="branch_and_bound"),
    false("(x-10^-15)^2 >= 10^-60 (tie perturbed at 10^-15)", Rational(1, 10**60),
          (x - Rational(1, 10**15)) ** 2, {x: R}),
    false("x+y <= 1 when x+y <= 11/10", x + y, 1, {x: UNIT, y: UNIT},
          assuming=[sympy.Le(x + y, Rational(11, 10))]),
    false("pq <= 1/4 - 10^-30 when p+q = 1 (tie at 1/2)", p * q, Rational(1, 4) - TINY,
          {p: UNIT, q: UNIT}, assuming=[sympy.Eq(p + q, 1)]),
    false("pq <= 1/5 when p+q <= 1", p * q, Rational(1, 5), {p: UNIT, q: UNIT},
          assuming=[sympy.Le(p + q, 1)]),
    false("xy <= 9/10 when x+y <= 2 on [0,3]^2", x * y, Rational(9, 10),
          {x: Interval(0, 3), y: Interval(0, 3)}, assuming=[sympy.Le(x + y, 2)]),
    false("Max(x,y) >= (x+y)/2 + 10^-30", (x + y) / 2 + TINY, Max(x, y), {x: R, y: R}),
    false("|x+y| <= |x|+|y| - 10^-30", Abs(x + y), Abs(x) + Abs(y) - TINY, {x: R, y: R}),
    false("x <= pi on [0,4]", x, sympy.pi, {x: Interval(0, 4)}),
    # integers
    false("(1+x)^n >= 1+nx on [-3,oo), n <= 10 (n = 5, x = -3)", 1 + n * x, (1 + x) ** n,
          {x: Interval(-3, oo), n: Interval(1, 10)}, integers=[n]),
    false("n^3 <= 2^n for n <= 300", n**3, 2**n, {n: Interval(1, 300)}, integers=[n]),
    false("C(2n,n) <= 4^n/(n+1) for n <= 200", sympy.binomial(2 * n, n), 4**n / (n + 1),
          {n: Interval(0, 200)}, integers=[n]),
    false("C(n,m) <= 2^(n-1) for m <= n <= 60 (n = 0)", sympy.binomial(n, m), 2 ** (n - 1),
          {n: Interval(0, 60), m: Interval(0, 60)}, integers=[n, m],
          assuming=[sympy.Le(m, n)]),
    false("n! >= 2^n for n <= 100 (n = 1)", 2**n, sympy.factorial(n), {n: Interval(1, 100)},
          integers=[n]),
    false("n^2 < 2^n for n in 4..300 (tie at 4)", n**2, 2**n, {n: Interval(4, 300)},
          integers=[n], strict=True),
    false("n^2 >= 2n on the integers (n = 1)", 2 * n, n**2, {n: R}, integers=[n]),
    false("(1+x/n)^n >= e^x on [0,2], n <= 5", exp(x), (1 + x / n) ** n,
          {x: Interval(0, 2), n: Interval(1, 5)}, integers=[n]),
    # finite structures
    false("Bayes leakage of every 2x2 channel <= 3/2", *_bayes_2x2(Rational(3, 2))),
    false("Bayes leakage of every 2x3 channel <= 3/2", *_bayes_2x3(Rational(3, 2))[:3],
          assuming=_bayes_2x3(Rational(3, 2))[3]),
    # undefined somewhere in the domain: never proved (unknown is the honest answer)
    false("1/x <= 1/x + 1 on [-1,1] (undefined at 0)", 1 / x, 1 / x + 1,
          {x: Interval(-1, 1)}, expect="any"),
    false("log x <= 0 on [0,1] (undefined at 0)", log(x), 0, {x: UNIT}, expect="any"),
    false("-1 <= |log x| on [-1,1] (undefined for x <= 0)", -1, Abs(log(x)),
          {x: Interval(-1, 1)}, expect="any"),
    false("0 <= sqrt x on [-1,1] (undefined for x < 0)", 0, sqrt(x), {x: Interval(-1, 1)},
          expect="any"),
]


def _check(case: Case):
    options = {"timeout": 30, **case.options}
    result = prove_inequality(case.lhs, case.rhs, case.variables, **options)
    return result


@pytest.mark.parametrize("case", FALSE_CASES, ids=[case.id for case in FALSE_CASES])
def test_a_false_statement_is_never_proved_and_its_counterexample_reverifies(case: Case):
    result = _check(case)
    assert result.status != "proved", result
    if case.expect == "refuted":
        assert result.status == "refuted", result
    if result.status == "refuted":
        point = result.counterexample
        assert set(point) == set(case.variables)
        assert independently_violated(
            case.lhs,
            case.rhs,
            point,
            case.variables,
            strict=case.options.get("strict", False),
            assuming=tuple(case.options.get("assuming", ())),
            integers=tuple(case.options.get("integers", ())),
        ), result


@pytest.mark.parametrize("case", TRUE_CASES, ids=[case.id for case in TRUE_CASES])
def test_a_true_statement_is_never_refuted_and_the_listed_ones_are_proved(case: Case):
    result = _check(case)
    assert result.status != "refuted", result
    if case.expect == "proved":
        assert result.status == "proved", result


def test_the_suite_has_enough_statements_of_each_kind():
    """The brief asks for about 60 true and 60 false statements."""
    assert len(TRUE_CASES) >= 60
    assert len(FALSE_CASES) >= 60
    assert sum(case.expect == "proved" for case in TRUE_CASES) >= 55
    assert sum(case.expect == "refuted" for case in FALSE_CASES) >= 55


def test_a_statement_over_hypotheses_no_point_satisfies_is_never_proved() -> None:
    """Vacuous truth is not a proof: hypotheses with no point in the domain give unknown."""
    x, y = sympy.symbols("x y")
    box = {x: sympy.Interval(0, 1), y: sympy.Interval(0, 1)}
    vacuous = prove_inequality(x, y, box, assuming=[sympy.Eq(x + y, 3)])
    assert vacuous.status == "unknown" and "vacuously" in vacuous.detail
    contradictory = prove_inequality(x, -1, box, assuming=[sympy.Lt(x, y), sympy.Lt(y, x)])
    assert contradictory.status == "unknown"
    inhabited = prove_inequality(x, y + 1, box, assuming=[sympy.Eq(x + y, 1)])
    assert inhabited.status == "proved" and "not vacuous" in inhabited.detail
    irrational_only = prove_inequality(x, 2, {x: sympy.Interval(0, 2)}, assuming=[sympy.Eq(x**2, 2)])
    assert irrational_only.status == "proved"  # the witness x = sqrt(2) is checked exactly
