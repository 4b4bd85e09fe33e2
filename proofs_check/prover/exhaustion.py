"""Certified exhaustion of a finite integer domain: every point decided, none sampled.

Every integer point of the domain (lexicographic order) is checked: the hypotheses first,
then the sign of ``rhs - lhs`` by :func:`.points.point_sign` (Arb balls at 64-256 bits, then
the exact value with an exact zero test).  A first, faster route settles most points: the
expression computed exactly while it is rational (``Fraction``-like ``fmpq`` and integers:
hypotheses such as ``m < p n``, a tail ``Σ_{k<=m} C(n,k) p^k (1-p)^(n-k)`` by prefix sums)
and in 64-bit balls after a ``log`` or ``exp`` (:func:`_evaluator`); whatever it cannot
settle with certainty (a ball straddling 0, a denominator not certainly nonzero, a reversed
``Sum``) goes the Arb route above.  One violation is re-verified by
:func:`.points.refutes` and returned; one point where the statement is undefined or its sign
undecided makes the answer ``unknown``, naming the point.  The number of points is counted
and checked against the budget before the first is evaluated.  This is how Saeidian et al.,
Example 3.11 is covered over the whole range of its figure (n up to a few hundred, every
threshold m).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy
from flint import arb, ctx, fmpq

from exactpml.core.bounds import BoundExceeded, current_bounds
from exactpml.errors import InvalidArgument
from proofs_check.prover.domain import Problem, VariableRange
from proofs_check.prover.intervals import (
    Program,
    Range,
    UndefinedOnBox,
    UnsupportedExpression,
)
from proofs_check.prover.points import exact_point_sign, point_sign, refutes, undefined_at
from proofs_check.prover.result import Outcome

__all__ = ["integer_points", "run_exhaustion"]


def integer_points(ranges: tuple[VariableRange, ...], max_points: int) -> int:
    """How many integer points the ranges hold; refuses an infinite range or too many."""
    total = 1
    for variable in ranges:
        count = variable.integer_count()
        if count is None:
            raise InvalidArgument(
                f"exhaustion needs a finite range for {variable.name} ({variable.text()})"
            )
        total *= count
    if total > max_points:
        raise BoundExceeded(
            f"the integer domain has {total} points, above max_points={max_points} (raise it "
            "with prove_inequality(..., max_points=...))",
            bound="max_points",
            limit=max_points,
        )
    return total


class _NotSettled(Exception):
    """The point is left to the Arb route of :func:`run_exhaustion` (see :func:`_evaluator`)."""


Value = int | fmpq | arb
"""An exact rational (``int``, ``fmpq``), or a ball once a ``log`` or ``exp`` was taken."""
Evaluator = Callable[[Sequence[Value]], Value]


def _integer(value: Value) -> int:
    if isinstance(value, int):
        return value
    if isinstance(value, fmpq) and value.q == 1:
        return int(value.p)
    raise _NotSettled  # a ball, or not an integer


def _sign_of(value: Value) -> int | None:
    if isinstance(value, arb):
        return 1 if value > 0 else -1 if value < 0 else None
    return (value > 0) - (value < 0)


def _power(base: Evaluator, exponent: Evaluator, *, constant: bool) -> Evaluator:
    """``base ** k`` for an integer ``k``.  A symbolic exponent needs a base > 0 (``0 ** k``
    and negative bases are left to the Arb route, whose definedness rules decide them); a
    negative exponent needs a base certainly != 0."""
    limit = current_bounds().symbolic_exponent

    def power(values: Sequence[Value]) -> Value:
        k = _integer(exponent(values))
        b = base(values)
        if (not constant and not b > 0) or abs(k) > limit:
            raise _NotSettled
        if k >= 0:
            return b**k
        if isinstance(b, arb):
            if not (b > 0 or b < 0):
                raise _NotSettled
            return 1 / b ** (-k)
        if b == 0:
            raise _NotSettled
        return fmpq(1) / fmpq(b) ** (-k)
    return power


def _sum(node: sympy.Sum, positions: dict[sympy.Symbol, int]) -> Evaluator:
    """``Sum(f(k), (k, a, b))`` with integers ``a <= b + 1`` at the point: prefix sums from
    ``a`` kept per value of the variables ``f`` depends on, so the tails P(S <= m) of one n
    (m = 0, 1, ...) add each term once rather than m + 1 times."""
    index, start, stop = node.limits[0]
    summand = _compile_node(node.function, {**positions, index: len(positions)})
    low = _compile_node(start, positions)
    high = _compile_node(stop, positions)
    outer = [positions[symbol] for symbol in node.function.free_symbols if symbol in positions
             and symbol != index]
    limit = current_bounds().factorial_argument
    prefixes: dict[tuple, list[Value]] = {}

    def added(values: Sequence[Value]) -> Value:
        first, last = _integer(low(values)), _integer(high(values))
        if last < first - 1 or last - first > limit:
            raise _NotSettled  # Karr's convention for a reversed sum, or too long
        if last < first:
            return 0
        key = (first, *(values[i] for i in outer))
        partial = prefixes.get(key)
        if partial is None:
            if len(prefixes) > _MAX_PREFIXES:
                prefixes.clear()
            partial = prefixes[key] = []
        inner = [*values, 0]
        while len(partial) <= last - first:
            inner[-1] = first + len(partial)
            term = summand(inner)
            partial.append(partial[-1] + term if partial else term)
        return partial[last - first]
    return added


_MAX_PREFIXES = 100_000
"""Prefix-sum lists one ``Sum`` keeps (one per start and value of its outer variables)."""


def _compile_node(node: sympy.Basic, positions: dict[sympy.Symbol, int]) -> Evaluator:
    """Closures computing ``node`` at a point; raises :class:`UnsupportedExpression` for a
    node outside ``+ * /``, integer powers, ``binomial``, ``factorial``, ``Abs``, ``Max``,
    ``Min``, ``Sum``, ``log`` and ``exp`` (a float, a root, ``pi``, ...)."""
    if isinstance(node, sympy.Integer):
        integer = int(node)
        return lambda values: integer
    if isinstance(node, sympy.Rational):
        rational = fmpq(int(node.p), int(node.q))
        return lambda values: rational
    if isinstance(node, sympy.Symbol):
        if node not in positions:
            raise UnsupportedExpression(f"unknown symbol {node}")
        index = positions[node]
        return lambda values: values[index]
    if isinstance(node, (sympy.Add, sympy.Mul)):
        parts = [_compile_node(argument, positions) for argument in node.args]
        first, rest = parts[0], parts[1:]
        if isinstance(node, sympy.Add):
            def add(values: Sequence[Value]) -> Value:
                total = first(values)
                for part in rest:
                    total = total + part(values)
                return total
            return add

        def mul(values: Sequence[Value]) -> Value:
            product = first(values)
            for part in rest:
                product = product * part(values)
            return product
        return mul
    if isinstance(node, sympy.Pow):
        base, exponent = node.args
        if not exponent.is_Integer and not exponent.free_symbols:
            raise UnsupportedExpression(f"the power {node} is not an integer power")
        return _power(_compile_node(base, positions), _compile_node(exponent, positions),
                      constant=exponent.is_Integer)
    if isinstance(node, (sympy.binomial, sympy.factorial)):
        arguments = [_compile_node(argument, positions) for argument in node.args]
        limit = current_bounds().factorial_argument
        comb = isinstance(node, sympy.binomial)

        def combinatorial(values: Sequence[Value]) -> int:
            n = _integer(arguments[0](values))
            if n < 0 or n > limit:
                raise _NotSettled
            if not comb:
                return math.factorial(n)
            k = _integer(arguments[1](values))
            return math.comb(n, k) if 0 <= k <= n else 0
        return combinatorial
    if isinstance(node, (sympy.Abs, sympy.Max, sympy.Min)):
        pieces = [_compile_node(argument, positions) for argument in node.args]
        kind = type(node)

        def exact_only(values: Sequence[Value]) -> Value:
            found = [piece(values) for piece in pieces]
            if any(isinstance(value, arb) for value in found):
                raise _NotSettled
            chosen = found[0]
            if kind is sympy.Abs:
                return -chosen if chosen < 0 else chosen
            for value in found[1:]:
                if (value > chosen) if kind is sympy.Max else (value < chosen):
                    chosen = value
            return chosen
        return exact_only
    if isinstance(node, sympy.Sum) and len(node.limits) == 1:
        return _sum(node, positions)
    if isinstance(node, sympy.log) and len(node.args) == 1:
        argument = _compile_node(node.args[0], positions)

        def log(values: Sequence[Value]) -> arb:
            value = argument(values)
            if not value > 0:  # a ball must be certainly positive
                raise _NotSettled
            return arb(value).log()
        return log
    if isinstance(node, sympy.exp):
        argument = _compile_node(node.args[0], positions)
        bound = current_bounds().exponential_argument

        def exp(values: Sequence[Value]) -> arb:
            value = arb(argument(values))
            if not value.is_finite() or value.abs_upper() > bound:
                raise _NotSettled
            return value.exp()
        return exp
    raise UnsupportedExpression(f"{type(node).__name__} is not supported here")


def _evaluator(expr: sympy.Expr, variables: tuple[sympy.Symbol, ...]) -> Evaluator | None:
    """``expr`` at a point: exact (``int``, ``fmpq``) as long as it is rational, a ball after
    a ``log`` or ``exp`` (at the working precision); ``None`` for an expression with another
    node.  Every operation is exact or a certified ball operation, and every one whose
    definedness is not certain raises :class:`_NotSettled` (a denominator not certainly
    nonzero, a ``log`` of a ball not certainly positive, ``0`` or a negative base to a
    symbolic power, a reversed ``Sum``): the point then goes the Arb route, so every sign
    found here is the one that route certifies.  Faster than the Arb route (measured on
    Ex 3.11, n <= 40): the hypotheses m < p n exactly in ~2 µs instead of ~25 µs of balls;
    the tails P(S <= m) by prefix sums instead of 15 µs per term per point."""
    try:
        return _compile_node(expr, {symbol: i for i, symbol in enumerate(variables)})
    except UnsupportedExpression:
        return None


_LEFT_TO_ARB = (_NotSettled, ArithmeticError, ValueError, TypeError)
"""What the first route hands to the Arb route instead of raising: besides :class:`_NotSettled`,
any arithmetic or type error of ``flint`` on an operand this route did not foresee (a
division by zero, an overflow): falling back is always sound, a crash would end the proof."""


def _evaluated_sign(evaluator: Evaluator | None, point: tuple[Value, ...]) -> int | None:
    """The certified sign of the evaluator's value at ``point`` (64-bit balls), or ``None``
    when not settled there."""
    if evaluator is None:
        return None
    try:
        with ctx.workprec(64):
            return _sign_of(evaluator(point))
    except _LEFT_TO_ARB:
        return None


def _difference_sign(sides: tuple[Evaluator | None, Evaluator | None],
                     point: tuple[Value, ...]) -> int | None:
    """The certified sign of ``rhs - lhs`` from both sides' values (exact, or 64-bit balls
    apart), or ``None`` for the Arb route."""
    left, right = sides
    if left is None or right is None:
        return None
    try:
        with ctx.workprec(64):
            return _sign_of(right(point) - left(point))
    except _LEFT_TO_ARB:
        return None


def _sign(program: Program | None, expr: sympy.Expr, variables: tuple[sympy.Symbol, ...],
          point: tuple[Fraction, ...]) -> int | None:
    if program is not None:
        return point_sign(program, point)
    mapping = {s: sympy.Rational(v.numerator, v.denominator)
               for s, v in zip(variables, point, strict=True)}
    return exact_point_sign(expr, mapping)


def _sides(sides: list[Program | None], point: tuple[Fraction, ...]) -> list[Range] | None:
    """Strict enclosures of ``lhs`` and ``rhs`` at ``point`` at 64 bits: both certainly
    defined there (``None`` when that is not certain)."""
    box = [(value, value) for value in point]
    enclosures = []
    for program in sides:
        if program is None:
            return None
        try:
            enclosures.append(program.enclose(box, 64, strict=True))
        except (UndefinedOnBox, UnsupportedExpression):
            return None
    return enclosures


def _separated(enclosures: list[Range]) -> int | None:
    """The sign of ``rhs - lhs`` when the two balls are apart (else ``None``)."""
    (left_low, left_high), (right_low, right_high) = enclosures
    if left_high is not None and right_low is not None and left_high < right_low:
        return 1
    if left_low is not None and right_high is not None and left_low > right_high:
        return -1
    return None


def _compile(expr: sympy.Expr, variables: tuple[sympy.Symbol, ...]) -> Program | None:
    try:
        return Program(expr, variables)
    except UnsupportedExpression:
        return None


def run_exhaustion(problem: Problem, *, deadline: float, max_points: int) -> Outcome:
    """Check every integer point of ``problem`` (no free real variable may remain)."""
    if problem.real_ranges:
        names = ", ".join(variable.name for variable in problem.real_ranges)
        raise InvalidArgument(f"exhaustion needs integer variables only; {names} are real")
    free = problem.integer_ranges
    total = integer_points(free, max_points)
    variables = tuple(variable.working for variable in problem.ranges)
    gap = _compile(problem.gap, variables)
    sides = [_compile(problem.lhs, variables), _compile(problem.rhs, variables)]
    hypotheses = [
        (hypothesis.difference, _compile(hypothesis.difference, variables),
         _evaluator(hypothesis.difference, variables), hypothesis)
        for hypothesis in problem.hypotheses
    ]
    fast_sides = (_evaluator(problem.lhs, variables), _evaluator(problem.rhs, variables))
    axes: list[Sequence[int | Fraction]] = []
    for variable in problem.ranges:
        if variable in free:
            low, high = variable.integer_bounds()
            assert low is not None and high is not None
            axes.append(range(low, high + 1))
        else:
            assert variable.lower is not None
            axes.append([variable.lower])
    checked = skipped = ties = 0
    for index, values in enumerate(itertools.product(*axes)):
        if index % 64 == 0 and time.monotonic() > deadline:
            return Outcome("unknown", f"out of time after {index} of {total} points")
        point = tuple(Fraction(value) for value in values)
        fast_point = tuple(int(v) if v.denominator == 1 else fmpq(v.numerator, v.denominator)
                           for v in point)
        outside = False
        for expr, program, fast, hypothesis in hypotheses:
            sign = _evaluated_sign(fast, fast_point)
            if sign is None:
                sign = _sign(program, expr, variables, point)
            if sign is None:
                return Outcome("unknown", f"cannot decide a hypothesis at {_text(problem, point)}")
            if not hypothesis.holds_for_sign(sign):
                outside = True
                break
        if outside:
            skipped += 1
            continue
        sign = _difference_sign(fast_sides, fast_point)
        if sign is not None:  # both sides certainly defined, rhs - lhs certainly this sign
            checked, ties, outcome = _count(problem, point, sign, index, total, checked, ties)
            if outcome is not None:
                return outcome
            continue
        enclosures = _sides(sides, point)
        if enclosures is None:
            here = {variable.working: value
                    for variable, value in zip(problem.ranges, point, strict=True)}
            reason = undefined_at(problem, here)
            if reason is not None:
                return Outcome("unknown", f"{reason} (at {_text(problem, point)})")
        sign = _separated(enclosures) if enclosures is not None else None
        if sign is None:
            sign = _sign(gap, problem.gap, variables, point)
        if sign is None:
            return Outcome(
                "unknown",
                f"the statement is undefined or undecided at {_text(problem, point)} "
                f"({checked} points checked before it)",
            )
        checked, ties, outcome = _count(problem, point, sign, index, total, checked, ties)
        if outcome is not None:
            return outcome
    skipped_text = f", {skipped} outside the hypotheses" if skipped else ""
    return Outcome(
        "proved",
        f"all {math.prod(len(axis) for axis in axes)} integer points checked ({checked} "
        f"decided{skipped_text}, {ties} exact ties)",
    )


def _count(problem: Problem, point: tuple[Fraction, ...], sign: int, index: int, total: int,
           checked: int, ties: int) -> tuple[int, int, Outcome | None]:
    """One decided point counted; a violation re-verified and returned (or ``unknown``)."""
    checked += 1
    if sign == 0:
        ties += 1
    if sign < 0 or (sign == 0 and problem.strict):
        candidate: dict[sympy.Symbol, object] = {
            variable.working: value
            for variable, value in zip(problem.ranges, point, strict=True)
        }
        verdict, why = refutes(problem, candidate)
        if verdict:
            return checked, ties, Outcome("refuted", f"violated at point {index + 1} of {total}",
                                          candidate)
        return checked, ties, Outcome("unknown", f"a violation at {_text(problem, point)} does "
                                                 f"not re-verify: {why}")
    return checked, ties, None


def _text(problem: Problem, point: tuple[Fraction, ...]) -> str:
    return ", ".join(f"{variable.name} = {value}"
                     for variable, value in zip(problem.ranges, point, strict=True))
