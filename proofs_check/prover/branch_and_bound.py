"""Certified branch-and-bound: ``rhs - lhs >= 0`` on a box of up to three real variables.

The gap ``g = rhs - lhs`` is enclosed on boxes by the interval extension of
:mod:`.intervals` (Arb endpoints, infinite ends allowed).  A box is *closed* when

1. a hypothesis certainly fails on it (no point of the domain there), or
2. ``g`` is defined on it (a strict enclosure succeeds, or each definedness condition is
   certified on the box) and its enclosure is ``>= 0`` (``> 0`` for a strict statement), or
3. ``g`` is monotone in one variable on the box (the enclosure of the symbolic partial
   derivative, from sympy's ``diff``, has a sign) and ``g`` is certified on the face where it
   is smallest; the face is one dimension lower and goes through the same rules.  A face that
   is a single point is decided exactly (:func:`.points.point_sign`: balls, then an exact zero
   test), so a tie ``g = 0`` at a corner -- a boundary point, or a tangency after the box was
   split there -- is proved exactly rather than by a ball straddling 0.  A derivative whose
   enclosure straddles 0 may itself be certified this way (up to ``depth`` derivatives).  A
   face at an infinite end is replaced by the exact limit of ``g`` there
   (:func:`exactpml.numerics.limits.limit`), in one variable.

For a strict statement at an open end the face value need only be ``>= 0`` when ``g`` is
*strictly* monotone (mean value theorem on the open segment).  Otherwise the box is split in
its widest variable at the simplest rational of its middle half (so ties at simple rationals
become corners), unbounded ends geometrically.  Every box's sample point is decided exactly;
a point where ``g < 0`` (``<= 0`` strict) is re-verified by :func:`.points.refutes` and
returned as the counterexample.  Out of boxes or time: ``unknown`` with the open boxes.

The monotonicity rule needs ``g`` continuous from the face through the box and the derivative
formula valid inside: ``g``'s enclosure is strict on the closed box, or its definedness
conditions are certified on the box with the far end excluded (``x log x`` towards the face
1/2 of ``(0, 1/2]``); the derivative's is strict, or its conditions are certified with both
ends of that variable excluded.  Expressions with ``Abs``, ``Max`` or ``Min`` have no
derivative here.  When neither rule closes a box, the sign of a product is taken from its
factors' (sympy's ``factor`` of the ``together`` form).  Each box may spend at most
:data:`WORK_PER_BOX` certification steps; every step is memoised.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

import sympy

from exactpml.core.exact import to_sympy
from exactpml.errors import ExactPMLError
from proofs_check.prover.boxes import Region, split_point
from proofs_check.prover.domain import Problem
from proofs_check.prover.functions import Function
from proofs_check.prover.intervals import Program, UndefinedOnBox, UnsupportedExpression
from proofs_check.prover.points import (
    closed_sign,
    exact_point_sign,
    point_sign,
    refutes,
    undefined_at,
)
from proofs_check.prover.result import Outcome

__all__ = ["WORK_PER_BOX", "BranchAndBound"]

WORK_PER_BOX = 64
"""Certification steps (enclosures of a function, a derivative, a factor or a face) one box
may use before it is split instead."""


class _OutOfTime(Exception):
    pass


class BranchAndBound:
    """One branch-and-bound run on a :class:`~proofs_check.prover.domain.Problem`."""

    def __init__(
        self, problem: Problem, *, deadline: float, max_boxes: int, depth: int | None = None
    ):
        self.problem = problem
        self.variables = tuple(variable.working for variable in problem.ranges)
        self.deadline = deadline
        self.max_boxes = max_boxes
        free = len(problem.free_ranges)
        self.depth = depth if depth is not None else (3 if free <= 1 else 2)
        self.gap = Function(problem.gap, self.variables)
        self.sides = (Function(problem.lhs, self.variables),
                      Function(problem.rhs, self.variables))
        self.conditions = [
            (Function(condition.expr, self.variables), condition.kind)
            for condition in problem.conditions
        ]
        self.hypotheses = [
            (Function(hypothesis.difference, self.variables), hypothesis.relation)
            for hypothesis in problem.hypotheses
        ]
        self._points: dict[tuple[int, tuple], int | None] = {}
        self._limits: dict[tuple, int | None] = {}
        self._candidates: list[tuple[Fraction, ...]] = []
        self._tried: set[tuple[Fraction, ...]] = set()
        self._certified: dict[tuple, bool] = {}
        self._work = WORK_PER_BOX
        self.counts = {"boxes": 0, "enclosure": 0, "monotone": 0, "hypotheses": 0, "ties": 0}

    # --- exact pieces ------------------------------------------------------------------

    def _point_sign(self, function: Function, point: tuple[Fraction, ...]) -> int | None:
        key = (id(function), point)
        if key not in self._points:
            program = function.program()
            if program is None:
                mapping = {s: sympy.Rational(v.numerator, v.denominator)
                           for s, v in zip(self.variables, point, strict=True)}
                sign = exact_point_sign(function.expr, mapping)
            else:
                sign = point_sign(program, point)
            self._points[key] = sign
            if function is self.gap and sign is not None and sign <= 0:
                self._candidates.append(point)
            if sign == 0 and function is self.gap:
                self.counts["ties"] += 1
        return self._points[key]

    def _enclose(self, function: Function, region: Region, *, strict: bool = False):
        program = function.program()
        if program is None:
            return None
        try:
            return program.enclose(region.box, region.precision(), strict=strict)
        except (UndefinedOnBox, UnsupportedExpression):
            return None
        except ExactPMLError:
            return None

    def _limit_sign(self, function: Function, region: Region, index: int, to: str) -> int | None:
        from exactpml.numerics.limits import limit

        pins = tuple(region.box[i][0] for i in range(len(self.variables)) if i != index)
        key = (id(function), index, to, pins)
        if key not in self._limits:
            mapping = {
                self.variables[i]: sympy.Rational(lo.numerator, lo.denominator)
                for i, (lo, _) in enumerate(region.box)
                if i != index and lo is not None
            }
            expr = function.expr.xreplace(mapping)
            sign: int | None
            try:
                value = limit(expr, self.variables[index], to)
                if value is sympy.oo:
                    sign = 1
                elif value is sympy.S.NegativeInfinity:
                    sign = -1
                else:
                    sign = closed_sign(to_sympy(value))
            except (ExactPMLError, TypeError, ValueError, NotImplementedError):
                sign = None
            self._limits[key] = sign
        return self._limits[key]

    # --- certification of one region ----------------------------------------------------

    def _check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise _OutOfTime

    def certify(self, function: Function, region: Region, strict: bool, depth: int,
                known: tuple | None = None) -> bool:
        """``function >= 0`` (``> 0`` if ``strict``) on ``region``, where ``function`` is known
        to be defined; no splitting (a box that needs it stays open).  Memoised, and at most
        ``WORK_PER_BOX`` calls per box: past that a box is split rather than argued."""
        key = (id(function), region, strict, depth)
        cached = self._certified.get(key)
        if cached is not None:
            return cached
        if self._work <= 0:
            return False
        self._work -= 1
        self._check_time()
        result = self._certify(function, region, strict, depth, known)
        self._certified[key] = result
        return result

    def _certify(self, function: Function, region: Region, strict: bool, depth: int,
                 known: tuple | None) -> bool:
        free = region.free()
        if not free:
            point = tuple(lo for lo, _ in region.box)
            sign = self._point_sign(function, point)  # type: ignore[arg-type]
            return sign is not None and (sign > 0 or (sign == 0 and not strict))
        continuous: bool | None = None
        if known is not None:
            enclosure = known
        else:
            # the strict enclosure first: when it succeeds it is the extended one (the same
            # operations on the same ranges; strict mode only raises where the extended mode
            # would widen), and the monotonicity rule below needs it anyway
            enclosure = self._enclose(function, region, strict=True)
            continuous = enclosure is not None
            if enclosure is None:
                enclosure = self._enclose(function, region)
        if enclosure is not None:
            low = enclosure[0]
            if low is not None and (low > 0 or (low >= 0 and not strict)):
                return True
        if depth <= 0:
            return False
        if function.smooth and self._by_monotonicity(function, region, strict, depth,
                                                     continuous):
            return True
        return self._by_factors(function, region, strict, depth)

    def _by_monotonicity(self, function: Function, region: Region, strict: bool,
                         depth: int, continuous: bool | None = None) -> bool:
        """Monotone in a variable on the box, and certified on the face where it is least.
        ``continuous``: whether ``function``'s strict enclosure on the box succeeds, when
        known (else found when a direction needs it)."""
        free = region.free()
        for index in free:
            derivative = function.derivative(index)
            if derivative is None:
                continue
            bounds = self._derivative_bounds(derivative, region, index, depth)
            if bounds is None:
                continue
            direction = 0
            if bounds[0] is not None and bounds[0] >= 0:
                direction = 1
            elif bounds[1] is not None and bounds[1] <= 0:
                direction = -1
            elif depth > 1:
                inner = region.opened(index)
                if self.certify(derivative, inner, False, depth - 1, bounds):
                    direction = 1
                elif self.certify(derivative.negated(), inner, False, depth - 1):
                    direction = -1
            if direction == 0:
                continue
            if continuous is None:
                continuous = self._enclose(function, region, strict=True) is not None
            if not continuous and not self._defined_towards(function, region, index,
                                                             direction):
                continue
            if self._monotone_closes(function, derivative, bounds, region, index, direction,
                                     strict, depth):
                return True
        return False

    def _by_factors(self, function: Function, region: Region, strict: bool,
                    depth: int) -> bool:
        """The sign of a product from the signs of its factors (each certified on its own)."""
        factors = function.factors()
        if factors is None:
            return False
        negative = 0
        for factor, exponent in factors:
            even = exponent % 2 == 0
            if even and not strict:
                continue
            if self.certify(factor, region, True if even else strict, depth):
                continue
            if even and self.certify(factor.negated(), region, True, depth):
                continue
            if not even and self.certify(factor.negated(), region, strict, depth):
                negative += 1
                continue
            return False
        return negative % 2 == 0

    def _certify_conditions(self, function: Function, region: Region) -> bool:
        """Every definedness condition of ``function`` certified on ``region`` (one level)."""
        for condition, kind in function.conditions():
            if kind == "positive":
                holds = self.certify(condition, region, True, 1)
            elif kind == "nonnegative":
                holds = self.certify(condition, region, False, 1)
            else:
                holds = self.certify(condition, region, True, 1) or self.certify(
                    condition.negated(), region, True, 1)
            if not holds:
                return False
        return True

    def _defined_towards(self, function: Function, region: Region, index: int,
                         direction: int) -> bool:
        """``function`` defined (so continuous) on the box with the end of ``index`` away from
        the face excluded and the face included: enough for the mean value theorem on every
        segment from the face (``x log x`` on ``(0, 1/2]`` towards the face 1/2)."""
        lower = list(region.lower_open)
        upper = list(region.upper_open)
        if direction > 0:
            lower[index], upper[index] = False, True
        else:
            lower[index], upper[index] = True, False
        half_open = Region(region.box, tuple(lower), tuple(upper))
        return self._certify_conditions(function, half_open)

    def _derivative_bounds(self, derivative: Function, region: Region, index: int,
                           depth: int) -> tuple | None:
        """An enclosure of a partial derivative valid inside the segments of ``index``: strict
        on the closed box, or extended once the derivative's definedness conditions are
        certified with that variable's ends excluded (``1/(2 sqrt(x))`` on ``(0, 1/4]``)."""
        bounds = self._enclose(derivative, region, strict=True)
        if bounds is not None:
            return bounds
        if not self._certify_conditions(derivative, region.opened(index)):
            return None
        return self._enclose(derivative, region)

    def _strictly_monotone(self, derivative: Function, bounds: tuple, region: Region,
                           index: int, direction: int, depth: int) -> bool:
        low, high = bounds
        if direction > 0 and low is not None and low > 0:
            return True
        if direction < 0 and high is not None and high < 0:
            return True
        if depth <= 1:
            return False
        signed = derivative if direction > 0 else derivative.negated()
        return self.certify(signed, region.opened(index), True, depth - 1)

    def _monotone_closes(self, function: Function, derivative: Function, bounds: tuple,
                         region: Region, index: int, direction: int, strict: bool,
                         depth: int) -> bool:
        low, high = region.box[index]
        face_value = low if direction > 0 else high
        face_open = region.lower_open[index] if direction > 0 else region.upper_open[index]
        if face_value is None:
            if len(region.free()) != 1:
                return False
            sign = self._limit_sign(function, region, index, "-oo" if direction > 0 else "oo")
            if sign is None or sign < 0:
                return False
            if sign > 0 or not strict:
                self.counts["monotone"] += 1
                return True
            if self._strictly_monotone(derivative, bounds, region, index, direction, depth):
                self.counts["monotone"] += 1
                return True
            return False
        face = region.pin(index, face_value)
        if self.certify(function, face, strict, depth):
            self.counts["monotone"] += 1
            return True
        if strict and face_open and self.certify(function, face, False, depth) and \
                self._strictly_monotone(derivative, bounds, region, index, direction, depth):
            self.counts["monotone"] += 1
            return True
        return False

    # --- the top level ------------------------------------------------------------------

    def _excluded_by_hypotheses(self, region: Region) -> bool:
        for function, relation in self.hypotheses:
            bounds = self._enclose(function, region)
            if bounds is None:
                continue
            low, high = bounds
            if relation in (">=", ">"):
                if high is not None and (high < 0 or (relation == ">" and high <= 0)):
                    return True
            elif relation in ("<=", "<"):
                if low is not None and (low > 0 or (relation == "<" and low >= 0)):
                    return True
            elif relation == "==":
                if (low is not None and low > 0) or (high is not None and high < 0):
                    return True
            elif relation == "!=" and low is not None and high is not None \
                    and low == high == 0:
                return True
        return False

    def _defined_on(self, region: Region) -> bool:
        for function, kind in self.conditions:
            if kind == "positive":
                holds = self.certify(function, region, True, self.depth)
            elif kind == "nonnegative":
                holds = self.certify(function, region, False, self.depth)
            else:
                holds = self.certify(function, region, True, self.depth) or self.certify(
                    function.negated(), region, True, self.depth
                )
            if not holds:
                return False
        return True

    def _closes(self, region: Region) -> bool:
        defined = all(self._enclose(side, region, strict=True) is not None
                      for side in self.sides)
        if not defined and not self._defined_on(region):
            return False
        strict_bounds = self._enclose(self.gap, region, strict=True)
        bounds = strict_bounds if strict_bounds is not None else self._enclose(self.gap, region)
        if bounds is None:
            return False
        low = bounds[0]
        if low is not None and (low > 0 or (low >= 0 and not self.problem.strict)):
            self.counts["enclosure"] += 1
            return True
        return self.certify(self.gap, region, self.problem.strict, self.depth, bounds)

    def _refuted(self) -> Outcome | None:
        candidates, self._candidates = self._candidates, []
        for point in candidates:
            if point in self._tried:
                continue
            self._tried.add(point)
            verdict, _ = refutes(self.problem, dict(zip(self.variables, point, strict=True)))
            if verdict:
                return Outcome("refuted", "a point where lhs > rhs is certified",
                               dict(zip(self.variables, point, strict=True)))
        return None

    def _undefined(self, point: tuple[Fraction, ...]) -> Outcome | None:
        """``unknown`` when the statement is certainly undefined at a point of the domain."""
        box = [(value, value) for value in point]
        if all(self._enclose(side, Region(tuple(box), (False,) * len(box), (False,) * len(box)),
                             strict=True) is not None for side in self.sides):
            return None
        reason = undefined_at(self.problem, dict(zip(self.variables, point, strict=True)))
        if reason is None:
            return None
        return Outcome("unknown", f"{reason} (at {self._describe(point)})")

    def _sample(self, region: Region) -> tuple[Fraction, ...]:
        return tuple(
            lo if lo is not None and lo == hi else split_point(lo, hi)
            for lo, hi in region.box
        )

    def _root(self) -> Region:
        box = []
        for variable in self.problem.ranges:
            box.append((variable.lower, variable.upper))
        return Region(
            tuple(box),
            tuple(v.lower_open or v.lower is None for v in self.problem.ranges),
            tuple(v.upper_open or v.upper is None for v in self.problem.ranges),
        )

    def _initial_points(self, region: Region) -> list[tuple[Fraction, ...]]:
        choices: list[list[Fraction]] = []
        for (lo, hi), lower_open, upper_open in zip(region.box, region.lower_open,
                                                     region.upper_open, strict=True):
            if lo is not None and lo == hi:
                choices.append([lo])
                continue
            values = [split_point(lo, hi)]
            if lo is not None and not lower_open:
                values.append(lo)
            if hi is not None and not upper_open:
                values.append(hi)
            choices.append(values)
        points: list[tuple[Fraction, ...]] = [()]
        for values in choices:
            points = [(*point, value) for point in points for value in values]
        return points

    def run(self) -> Outcome:
        """Prove, refute, or give up (``unknown``) within the deadline and the box budget."""
        if self.gap.program() is None:
            reason = "unsupported"
            try:
                Program(self.problem.gap, self.variables)
            except UnsupportedExpression as error:
                reason = str(error)
            return Outcome("unknown", f"arb branch-and-bound cannot enclose the statement: "
                                      f"{reason}")
        root = self._root()
        queue: deque[Region] = deque([root])
        try:
            for point in self._initial_points(root):
                self._point_sign(self.gap, point)
                undefined = self._undefined(point)
                if undefined is not None:
                    return self._finish(undefined)
            refuted = self._refuted()
            if refuted is not None:
                return self._finish(refuted)
            while queue:
                self._check_time()
                if self.counts["boxes"] >= self.max_boxes:
                    return self._finish(Outcome(
                        "unknown",
                        f"out of boxes: {self.counts['boxes']} boxes examined (max_boxes="
                        f"{self.max_boxes}), {len(queue)} still open",
                    ))
                region = queue.popleft()
                self.counts["boxes"] += 1
                self._work = WORK_PER_BOX
                if self.hypotheses and self._excluded_by_hypotheses(region):
                    self.counts["hypotheses"] += 1
                    continue
                if self._closes(region):
                    continue
                sample = self._sample(region)
                sign = self._point_sign(self.gap, sample)
                undefined = self._undefined(sample)
                if undefined is not None:
                    return self._finish(undefined)
                refuted = self._refuted()
                if refuted is not None:
                    return self._finish(refuted)
                free = region.free()
                if not free:
                    return self._finish(Outcome(
                        "unknown", f"cannot decide the statement at the point "
                                   f"{self._describe(sample)}"))
                if sign == 0 and len(free) > 1:
                    parts = [region]
                    for index in free:
                        parts = [piece for part in parts
                                 for piece in part.split(index, sample[index])]
                    queue.extend(parts)
                    continue
                index = self._widest(region, free)
                queue.extend(region.split(index, sample[index]))
        except _OutOfTime:
            return self._finish(Outcome(
                "unknown",
                f"out of time after {self.counts['boxes']} boxes, {len(queue)} still open",
            ))
        return self._finish(Outcome("proved", "every box closed"))

    def _widest(self, region: Region, free: list[int]) -> int:
        best = free[0]
        best_width: Fraction | None = Fraction(-1)
        for index in free:
            lo, hi = region.box[index]
            if lo is None or hi is None:
                return index
            width = hi - lo
            if best_width is not None and width > best_width:
                best, best_width = index, width
        return best

    def _describe(self, point: Sequence[Fraction]) -> str:
        return ", ".join(f"{variable.name} = {value}"
                         for variable, value in zip(self.problem.ranges, point, strict=True))

    def _finish(self, outcome: Outcome) -> Outcome:
        counts = self.counts
        summary = (
            f"{counts['boxes']} boxes ({counts['enclosure']} closed by enclosure, "
            f"{counts['monotone']} by monotonicity to a face, {counts['hypotheses']} outside "
            f"the hypotheses), {counts['ties']} exact ties"
        )
        return replace(outcome, detail=f"{outcome.detail}; {summary}")
