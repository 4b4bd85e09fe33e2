"""Exact nonlinear real arithmetic with z3: ``unsat`` proves, a model is re-checked exactly.

Two queries over the translated problem (:mod:`.translate`), each with z3's own timeout
(``solver.set("timeout", ms)``) and a guard that interrupts the context past the deadline:

1. *definedness*: is there a point of the domain (and hypotheses) where the statement is
   undefined?  ``sat`` or ``unknown`` ends with ``unknown``: a statement is proved only where
   it is defined;
2. *violation*: is there a point where ``lhs > rhs`` (``lhs >= rhs`` for a strict statement)?
   ``unsat`` is a proof over the whole domain.  ``sat`` gives a model whose values may be
   rationals or real algebraic numbers; rational approximations of increasing precision are
   tried first, then the exact algebraic point (``CRootOf``), and only a point that
   :func:`.points.refutes` certifies is reported.  Anything else is ``unknown``, with why.

z3 is imported here, lazily, so that ``import proofs_check`` stays light.
"""

from __future__ import annotations

import threading
import time
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.decisions import exact_compare
from exactpml.errors import ExactPMLError
from proofs_check.prover.domain import Problem
from proofs_check.prover.points import in_domain, refutes
from proofs_check.prover.result import Outcome
from proofs_check.prover.translate import Translation, Untranslatable, translate

__all__ = ["run_z3"]

_APPROXIMATION_DIGITS = (3, 6, 12, 24, 48)


def _solver(z3: Any, context: Any, translation: Translation) -> Any:
    integer = any(z3.is_int(variable) for variable in translation.plain.values())
    if integer:
        return z3.Solver(ctx=context)
    return z3.SolverFor("QF_NRA", ctx=context)


def _check(z3: Any, solver: Any, deadline: float) -> tuple[str, float]:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return "timeout", 0.0
    solver.set("timeout", max(1, int(remaining * 1000)))
    start = time.monotonic()
    result = solver.check()
    elapsed = time.monotonic() - start
    if result == z3.sat:
        return "sat", elapsed
    if result == z3.unsat:
        return "unsat", elapsed
    return f"unknown ({solver.reason_unknown()})", elapsed


def _algebraic(z3: Any, value: Any) -> sympy.Expr | None:
    """The exact real algebraic number of a z3 ``AlgebraicNumRef`` as a sympy ``CRootOf``."""
    t = sympy.Dummy("t")
    coefficients = [int(c.as_long()) for c in value.poly()]
    polynomial = sympy.Poly(list(reversed(coefficients)), t)
    roots = polynomial.real_roots()
    approximation = value.approx(30)
    near = Fraction(approximation.numerator_as_long(), approximation.denominator_as_long())
    tolerance = Fraction(1, 10**20)
    candidates = []
    index = value.index() - 1
    ordered = [roots[index]] if 0 <= index < len(roots) else []
    for root in ordered + [r for r in roots if r not in ordered]:
        try:
            if exact_compare(sympy.Abs(root - sympy.Rational(near.numerator, near.denominator)),
                             tolerance) < 0:
                candidates.append(root)
        except ExactPMLError:
            continue
    return candidates[0] if candidates else None


def _numeral(z3: Any, value: Any, digits: int | None) -> object | None:
    """A z3 numeral as an exact value: ints, Fractions, a rational approximation with
    ``digits`` digits of an algebraic number, or (``digits=None``) its exact ``CRootOf``."""
    if z3.is_int_value(value):
        return int(value.as_long())
    if z3.is_rational_value(value):
        return Fraction(value.numerator_as_long(), value.denominator_as_long())
    if z3.is_algebraic_value(value):
        if digits is None:
            return _algebraic(z3, value)
        approximation = value.approx(digits)
        return Fraction(approximation.numerator_as_long(), approximation.denominator_as_long())
    return None


def _point(z3: Any, model: Any, translation: Translation, digits: int | None) -> dict | None:
    point: dict[sympy.Symbol, object] = {}
    for symbol, variable in translation.plain.items():
        value = _numeral(z3, model.eval(variable, model_completion=True), digits)
        if value is None:
            return None
        point[symbol] = value
    for symbol, (w, scale) in translation.exponential.items():
        value = _numeral(z3, model.eval(w, model_completion=True), digits)
        if value is None:
            return None
        if isinstance(value, (int, Fraction)):
            if value <= 0:
                return None
            value = sympy.Rational(Fraction(value).numerator, Fraction(value).denominator)
        point[symbol] = scale * sympy.log(value)
    return point


def _has_algebraic(z3: Any, model: Any, translation: Translation) -> bool:
    variables = list(translation.plain.values()) + [w for w, _ in
                                                    translation.exponential.values()]
    return any(z3.is_algebraic_value(model.eval(v, model_completion=True)) for v in variables)


def _counterexample(z3: Any, model: Any, translation: Translation,
                    problem: Problem) -> tuple[dict | None, str]:
    attempts: list[int | None] = [None] if not _has_algebraic(z3, model, translation) else [
        *_APPROXIMATION_DIGITS, None]
    reason = "the model could not be read"
    for digits in attempts:
        try:
            point = _point(z3, model, translation, digits)
        except (ExactPMLError, ValueError, ArithmeticError, sympy.PolynomialError) as error:
            reason = f"the model could not be made exact: {error}"
            continue
        if point is None:
            continue
        verdict, why = refutes(problem, point)
        if verdict:
            return point, ""
        reason = why
    return None, reason


def _text(point: dict[sympy.Symbol, object], problem: Problem) -> str:
    names = {variable.working: variable.name for variable in problem.ranges}
    return ", ".join(f"{names.get(s, s)} = {v}" for s, v in point.items())


def domain_witness(problem: Problem, *, deadline: float) -> tuple[dict | None, str]:
    """A point of the domain satisfying every hypothesis, re-verified exactly, or why none.

    A statement over hypotheses that no point satisfies holds vacuously; the prover never
    reports such a "proof", so a proof under hypotheses needs this witness first.
    """
    import z3

    context = z3.Context()
    try:
        translation = translate(problem, z3, context)
    except Untranslatable as error:
        return None, f"no point of the domain could be exhibited (z3 does not apply: {error})"
    guard = threading.Timer(max(0.0, deadline - time.monotonic()) + 1.0, context.interrupt)
    guard.daemon = True
    guard.start()
    try:
        solver = _solver(z3, context, translation)
        solver.add(*translation.domain, *translation.hypotheses)
        solver.add(*(definition for definition, _ in translation.definitions))
        answer, _ = _check(z3, solver, deadline)
        if answer == "unsat":
            return None, "no point of the domain satisfies the hypotheses (the statement " \
                "would hold vacuously, which is not a proof)"
        if answer != "sat":
            return None, f"no point of the domain satisfying the hypotheses was found ({answer})"
        model = solver.model()
        attempts: list[int | None] = [None] if not _has_algebraic(z3, model, translation) else [
            *_APPROXIMATION_DIGITS, None]
        for digits in attempts:
            try:
                point = _point(z3, model, translation, digits)
            except (ExactPMLError, ValueError, ArithmeticError, sympy.PolynomialError):
                continue
            if point is not None and in_domain(problem, point):
                return point, ""
        return None, "the hypotheses' point found by z3 does not re-verify exactly"
    except z3.Z3Exception as error:
        return None, f"no point of the domain could be exhibited (z3 failed: {error})"
    finally:
        guard.cancel()


def run_z3(problem: Problem, *, deadline: float) -> Outcome:
    """Decide ``problem`` with z3's nlsat (see the module text); never raises on z3 results."""
    import z3

    context = z3.Context()
    try:
        translation = translate(problem, z3, context)
    except Untranslatable as error:
        return Outcome("unknown", f"the z3 route does not apply: {error}")
    guard = threading.Timer(max(0.0, deadline - time.monotonic()) + 1.0, context.interrupt)
    guard.daemon = True
    guard.start()
    notes = "; ".join(translation.notes)
    prefix = f"{notes}; " if notes else ""
    try:
        if translation.failures:
            solver = _solver(z3, context, translation)
            solver.add(*translation.domain, *translation.hypotheses)
            for definition, when in translation.definitions:
                solver.add(z3.Implies(when, definition))
            solver.add(z3.Or(*translation.failures))
            answer, elapsed = _check(z3, solver, deadline)
            if answer == "sat":
                near = _point(z3, solver.model(), translation, 6) or {}
                return Outcome(
                    "unknown",
                    f"{prefix}z3 finds a point of the domain where the statement may be "
                    f"undefined (a denominator vanishing, a log or root of a negative "
                    f"number), near {_text(near, problem)}",
                )
            if answer != "unsat":
                return Outcome("unknown", f"{prefix}z3 could not decide where the statement "
                                          f"is defined: {answer} after {elapsed:.2f} s")
            prefix += f"defined everywhere (unsat in {elapsed:.2f} s); "
        solver = _solver(z3, context, translation)
        solver.add(*translation.domain, *translation.hypotheses)
        solver.add(*(definition for definition, _ in translation.definitions))
        zero = z3.RealVal(0, context)
        solver.add(translation.target <= zero if problem.strict else translation.target < zero)
        answer, elapsed = _check(z3, solver, deadline)
        if answer == "unsat":
            return Outcome("proved", f"{prefix}no point of the domain violates it (unsat in "
                                     f"{elapsed:.2f} s)")
        if answer == "sat":
            point, why = _counterexample(z3, solver.model(), translation, problem)
            if point is not None:
                return Outcome("refuted", f"{prefix}z3 model (sat in {elapsed:.2f} s) "
                                          "re-verified exactly", point)
            return Outcome("unknown", f"{prefix}z3 finds a violating point (sat in "
                                      f"{elapsed:.2f} s) that does not re-verify: {why}")
        return Outcome("unknown", f"{prefix}z3 answers {answer} after {elapsed:.2f} s")
    except z3.Z3Exception as error:
        return Outcome("unknown", f"{prefix}z3 failed: {error}")
    finally:
        guard.cancel()
