"""Certified exhaustion of a finite integer domain: every point decided, none sampled.

Every integer point of the domain (lexicographic order) is checked: the hypotheses first,
then the sign of ``rhs - lhs`` by :func:`.points.point_sign` (Arb balls at 64-256 bits, then
the exact value with an exact zero test).  One violation is re-verified by
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
from collections.abc import Sequence
from fractions import Fraction

import sympy

from exactpml.core.bounds import BoundExceeded
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
        (hypothesis.difference, _compile(hypothesis.difference, variables), hypothesis)
        for hypothesis in problem.hypotheses
    ]
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
        outside = False
        for expr, program, hypothesis in hypotheses:
            sign = _sign(program, expr, variables, point)
            if sign is None:
                return Outcome("unknown", f"cannot decide a hypothesis at {_text(problem, point)}")
            if not hypothesis.holds_for_sign(sign):
                outside = True
                break
        if outside:
            skipped += 1
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
                return Outcome("refuted", f"violated at point {index + 1} of {total}", candidate)
            return Outcome("unknown", f"a violation at {_text(problem, point)} does not "
                                      f"re-verify: {why}")
    skipped_text = f", {skipped} outside the hypotheses" if skipped else ""
    return Outcome(
        "proved",
        f"all {math.prod(len(axis) for axis in axes)} integer points checked ({checked} "
        f"decided{skipped_text}, {ties} exact ties)",
    )


def _text(problem: Problem, point: tuple[Fraction, ...]) -> str:
    return ", ".join(f"{variable.name} = {value}"
                     for variable, value in zip(problem.ranges, point, strict=True))
