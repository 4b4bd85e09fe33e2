"""The public entry point: :func:`prove_inequality` chooses and runs the proof engines.

``prove_inequality(lhs, rhs, variables)`` decides "for every point of the domain,
``lhs <= rhs``" and answers ``proved``, ``refuted`` (with a certified exact counterexample) or
``unknown``.  The engines:

* ``"z3"`` -- exact nonlinear real arithmetic (:mod:`.z3_engine`), for rational and
  polynomial statements, roots, ``exp`` of variables that appear nowhere else, sums of logs,
  ``Abs``/``Max``/``Min``: every real kernel and prior of a fixed small size, for instance;
* ``"branch_and_bound"`` -- certified Arb branch-and-bound (:mod:`.branch_and_bound`), for
  statements with ``exp``, ``log``, ``sqrt`` in up to three real variables, bounded or not;
* ``"exhaustion"`` -- every point of a finite integer domain (:mod:`.exhaustion`).

``"auto"`` runs exhaustion on finite integer domains, z3 then branch-and-bound on real ones,
and for mixed domains pins the integer variables one point at a time and proves each real
statement.  A total ``timeout`` is shared by everything; the work each parameter can cause
(integer points, boxes, powers) is checked before it starts.
"""

from __future__ import annotations

import itertools
import math
import numbers
import time
from collections.abc import Iterable, Mapping
from dataclasses import replace
from fractions import Fraction

import sympy

from exactpml.core.bounds import current_bounds, exceeded
from exactpml.errors import InvalidArgument
from proofs_check.prover.branch_and_bound import BranchAndBound
from proofs_check.prover.domain import Problem, build_problem
from proofs_check.prover.exhaustion import integer_points, run_exhaustion
from proofs_check.prover.intervals import Program, UnsupportedExpression
from proofs_check.prover.points import in_domain
from proofs_check.prover.result import Outcome, ProofResult
from proofs_check.prover.z3_engine import domain_witness, run_z3

__all__ = [
    "DEFAULT_MAX_BOXES",
    "DEFAULT_MAX_POINTS",
    "DEFAULT_TIMEOUT",
    "ENGINES",
    "MAX_BRANCH_VARIABLES",
    "prove_inequality",
]

ENGINES = ("auto", "z3", "branch_and_bound", "exhaustion")
DEFAULT_TIMEOUT = 60
"""Seconds for one call of :func:`prove_inequality`, shared by every engine it runs."""
DEFAULT_MAX_BOXES = 20_000
"""Boxes one branch-and-bound run may examine."""
DEFAULT_MAX_POINTS = 200_000
"""Integer points one call may enumerate (exhaustion, or pinning for a mixed domain)."""
MAX_BRANCH_VARIABLES = 3
"""Real variables (not pinned) that branch-and-bound accepts."""

_ENGINE_NAMES = {
    "z3": "z3 nlsat",
    "branch_and_bound": "arb branch-and-bound",
    "exhaustion": "integer exhaustion",
}


def _positive_number(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidArgument(f"{name}={value!r} must be a positive number of seconds")
    seconds = float(value)
    if not seconds > 0 or math.isinf(seconds):
        raise InvalidArgument(f"{name}={value!r} must be a positive, finite number of seconds")
    return seconds


def _positive_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidArgument(f"{name}={value!r} must be a positive int")
    return value


def _check_powers(problem: Problem) -> None:
    """Refuse powers above the bound ``symbolic_exponent`` before any work (``(1+x)**n`` is
    checked over the integer range of ``n``)."""
    limit = current_bounds().symbolic_exponent
    integer_box = [
        (variable.lower, variable.upper) if variable.integer or variable.pinned else (None, None)
        for variable in problem.ranges
    ]
    variables = [variable.working for variable in problem.ranges]
    exprs = [problem.gap, *(hypothesis.difference for hypothesis in problem.hypotheses)]
    for expr in exprs:
        for node in sympy.preorder_traversal(expr):
            if not isinstance(node, sympy.Pow) or not node.base.free_symbols:
                continue
            exponent = node.exp
            if exponent.is_Rational:
                if max(abs(int(exponent.p)), int(exponent.q)) > limit:
                    raise exceeded("prove_inequality", f"the power {node} has exponent "
                                   f"{exponent}", "symbolic_exponent")
                continue
            if not exponent.free_symbols <= {v.working for v in problem.ranges if v.integer}:
                continue
            try:
                low, high = Program(exponent, variables).enclose(integer_box, 64)
            except UnsupportedExpression:
                continue
            if low is None or high is None or max(abs(low), abs(high)) > limit:
                if low is None or high is None:
                    continue  # an unbounded integer exponent: no engine pins it
                raise exceeded("prove_inequality", f"the power {node} reaches exponent "
                               f"{max(abs(low), abs(high))} on the integer range",
                               "symbolic_exponent")


def _real_engines(problem: Problem, engine: str, deadline: float, max_boxes: int
                  ) -> tuple[Outcome, str]:
    """Run the real engines on a problem whose integer variables are pinned."""
    free = len(problem.free_ranges)
    branch_applies = free <= MAX_BRANCH_VARIABLES
    if engine == "z3":
        return run_z3(problem, deadline=deadline), _ENGINE_NAMES["z3"]
    if engine == "branch_and_bound":
        runner = BranchAndBound(problem, deadline=deadline, max_boxes=max_boxes)
        return runner.run(), _ENGINE_NAMES["branch_and_bound"]
    now = time.monotonic()
    z3_deadline = now + (deadline - now) / 2 if branch_applies else deadline
    first = run_z3(problem, deadline=z3_deadline)
    if first.status != "unknown":
        return first, _ENGINE_NAMES["z3"]
    if not branch_applies:
        return Outcome("unknown", f"z3 nlsat: {first.detail}; arb branch-and-bound: not run "
                                  f"({free} real variables, at most {MAX_BRANCH_VARIABLES})"), \
            _ENGINE_NAMES["z3"]
    runner = BranchAndBound(problem, deadline=deadline, max_boxes=max_boxes)
    second = runner.run()
    if second.status != "unknown":
        return Outcome(second.status, f"{second.detail} (z3 nlsat first: {first.detail})",
                       second.point), _ENGINE_NAMES["branch_and_bound"]
    return Outcome("unknown", f"z3 nlsat: {first.detail}; arb branch-and-bound: "
                              f"{second.detail}"), \
        f"{_ENGINE_NAMES['z3']} + {_ENGINE_NAMES['branch_and_bound']}"


_WITNESS_POINTS = 10_000  # integer points tried for a point satisfying the hypotheses


def _central_point(problem: Problem) -> dict[sympy.Symbol, Fraction]:
    """One simple point of the ranges: each variable at its value if pinned, the midpoint of
    its bounds, one inside a half-bounded range, 0 on the whole line (the least integer of an
    integer range); the ``k`` real variables of a hypothesis ``v_1 + ... + v_k = c`` (a row of
    probabilities) at ``c / k``.  :func:`.points.in_domain` decides whether it is a witness."""
    point: dict[sympy.Symbol, Fraction] = {}
    real = {variable.working for variable in problem.ranges
            if not variable.integer and not variable.pinned}
    for hypothesis in problem.hypotheses:
        if hypothesis.relation != "==":
            continue
        members: list[sympy.Symbol] = []
        total = Fraction(0)
        for term in sympy.Add.make_args(hypothesis.difference):
            if term in real and term not in point and term not in members:
                members.append(term)
            elif isinstance(term, sympy.Rational):
                total -= Fraction(int(term.p), int(term.q))
            else:
                break
        else:
            for member in members:
                point[member] = total / len(members)
    for variable in problem.ranges:
        if variable.working in point:
            continue
        if variable.integer:
            low, high = variable.integer_bounds()
            value = Fraction(low if low is not None else high if high is not None else 0)
        elif variable.lower is not None and variable.upper is not None:
            value = (variable.lower + variable.upper) / 2
        elif variable.lower is not None:
            value = variable.lower + 1
        elif variable.upper is not None:
            value = variable.upper - 1
        else:
            value = Fraction(0)
        point[variable.working] = value
    return point


def _witness(problem: Problem, deadline: float) -> tuple[dict | None, str]:
    """A point of the domain satisfying the hypotheses, certified exactly: the central point
    when it is one (rows summing to 1, ``p <= q``, ``K >= (1 - p)/p`` hold there; measured: it
    spares z3's query in 60 of the 68 searches of a --quick run, 0.44 s CPU down to 0.13 s),
    else z3's (:func:`.z3_engine.domain_witness`).  Only whether a witness exists is reported,
    never which one."""
    central = _central_point(problem)
    if in_domain(problem, central):
        return dict(central), ""
    return domain_witness(problem, deadline=deadline)


def _inhabited(problem: Problem, deadline: float, max_points: int) -> tuple[dict | None, str]:
    """A point of the domain satisfying every hypothesis, or why none was found.

    A statement over hypotheses that no point satisfies holds vacuously, which is never
    reported as a proof.  Only the domain and the hypotheses are asked about (the statement
    itself is replaced by ``0 <= 0``): integer variables are enumerated (at most
    ``_WITNESS_POINTS`` points), real ones are taken at the central point or left to z3
    (:func:`_witness`); every witness is checked exactly.
    """
    reduced = replace(problem, lhs=sympy.S.Zero, rhs=sympy.S.Zero, gap=sympy.S.Zero,
                      conditions=())
    integer = [v for v in reduced.integer_ranges if v.integer_count() is not None]
    if not integer:
        return _witness(reduced, deadline)
    axes = []
    for variable in integer:
        low, high = variable.integer_bounds()
        assert low is not None and high is not None
        axes.append(range(low, high + 1))
    reason = "no integer point of the domain satisfies the hypotheses"
    for index, values in enumerate(itertools.product(*axes)):
        if index >= min(_WITNESS_POINTS, max_points) or time.monotonic() > deadline:
            return None, f"no point satisfying the hypotheses among the first {index} integer " \
                "points (the statement might hold vacuously)"
        pins = {variable.working: value for variable, value in zip(integer, values, strict=True)}
        if not reduced.real_ranges:
            if in_domain(reduced, pins):
                return dict(pins), ""
            continue
        witness, reason = _witness(reduced.pin(pins), deadline)
        if witness is not None:
            return {**witness, **pins}, ""
    return None, f"{reason} (the statement would hold vacuously, which is not a proof)"


def _pinned_points(problem: Problem, engine: str, deadline: float, max_boxes: int,
                   max_points: int) -> tuple[Outcome, str]:
    """Mixed domain: every integer point pinned, the remaining real statement proved."""
    integer = problem.integer_ranges
    total = integer_points(integer, max_points)
    axes = []
    for variable in integer:
        low, high = variable.integer_bounds()
        assert low is not None and high is not None
        axes.append(range(low, high + 1))
    engines_used: set[str] = set()
    for index, values in enumerate(itertools.product(*axes)):
        now = time.monotonic()
        if now > deadline:
            return Outcome("unknown", f"out of time after {index} of {total} integer points"), \
                " + ".join(sorted(engines_used)) or _ENGINE_NAMES.get(engine, "auto")
        share = now + (deadline - now) / (total - index)
        pins = {variable.working: value for variable, value in zip(integer, values, strict=True)}
        pinned = problem.pin(pins)
        outcome, name = _real_engines(pinned, engine, share, max_boxes)
        engines_used.add(name)
        where = ", ".join(f"{v.name} = {value}" for v, value in zip(integer, values, strict=True))
        if outcome.status == "refuted":
            point = dict(outcome.point or {})
            point.update({symbol: value for symbol, value in pins.items()})
            return Outcome("refuted", f"at {where}: {outcome.detail}", point), name
        if outcome.status == "unknown":
            return Outcome("unknown", f"at {where}: {outcome.detail}"), name
    used = " + ".join(sorted(engines_used))
    return Outcome("proved", f"each of the {total} integer points proved by {used}"), \
        f"{used} per integer point"


def prove_inequality(
    lhs: object,
    rhs: object,
    variables: Mapping[sympy.Symbol, object],
    *,
    assuming: Iterable[object] = (),
    integers: Iterable[sympy.Symbol] = (),
    strict: bool = False,
    timeout: float = DEFAULT_TIMEOUT,
    engine: str = "auto",
    max_boxes: int = DEFAULT_MAX_BOXES,
    max_points: int = DEFAULT_MAX_POINTS,
) -> ProofResult:
    """Decide "for every point of the domain, ``lhs <= rhs``" (``lhs < rhs`` if ``strict``).

    Args:
        lhs: A sympy expression (or an int / ``Fraction``); floats are refused.
        rhs: Likewise.
        variables: ``{symbol: sympy.Interval}`` for every free symbol (open and closed ends
            respected, ``-oo`` / ``oo`` allowed; ``sympy.FiniteSet(a)`` pins a value).
        assuming: sympy relations restricting the domain (``sympy.Le(p + q, 1)``,
            ``sympy.Eq(a + b, 1)``).
        integers: symbols that range over the integers of their interval (symbols declared
            ``integer=True`` do so anyway).
        strict: Decide ``lhs < rhs`` instead.
        timeout: Seconds for the whole call; every engine stops within it and answers
            ``unknown`` (a single exact decision in sympy is not interrupted).
        engine: ``"auto"``, ``"z3"``, ``"branch_and_bound"`` or ``"exhaustion"``.
        max_boxes: Boxes a branch-and-bound run may examine before answering ``unknown``.
        max_points: Integer points that may be enumerated; more raise ``BoundExceeded``.

    Returns:
        A :class:`~proofs_check.prover.ProofResult`: ``status`` is ``"proved"`` (certified at
        every point), ``"refuted"`` (``counterexample`` maps each symbol to an exact value
        where ``lhs > rhs`` is certified) or ``"unknown"`` (never a proof; ``detail`` says
        why).

    Raises:
        InexactInput: a float in an expression, an interval or a hypothesis (named).
        InvalidArgument: a symbol without an interval, an empty interval, a bad option.
        BoundExceeded: more integer points than ``max_points``, a power above the bound
            ``symbolic_exponent``.

    >>> x = sympy.Symbol("x")
    >>> prove_inequality(x**2, x, {x: sympy.Interval(0, 1)}).status
    'proved'
    >>> result = prove_inequality(x**2, x, {x: sympy.Interval(0, 2)})
    >>> result.status, result.counterexample
    ('refuted', {x: Fraction(3, 2)})
    """
    if engine not in ENGINES:
        raise InvalidArgument(f"engine={engine!r} must be one of {', '.join(ENGINES)}")
    seconds = _positive_number("timeout", timeout)
    max_boxes = _positive_int("max_boxes", max_boxes)
    max_points = _positive_int("max_points", max_points)
    problem = build_problem(lhs, rhs, variables, assuming=assuming, integers=integers,
                            strict=strict)
    _check_powers(problem)
    deadline = time.monotonic() + seconds
    integer = problem.integer_ranges
    real = problem.real_ranges
    finite_integers = all(variable.integer_count() is not None for variable in integer)
    if engine == "exhaustion":
        if real:
            names = ", ".join(variable.name for variable in real)
            raise InvalidArgument(f"engine='exhaustion' needs integer variables only; {names} "
                                  "are real")
        integer_points(integer, max_points)
    if engine == "branch_and_bound":
        if len(real) > MAX_BRANCH_VARIABLES:
            raise InvalidArgument(
                f"engine='branch_and_bound' handles at most {MAX_BRANCH_VARIABLES} real "
                f"variables, not {len(real)} ({', '.join(v.name for v in real)})"
            )
        if not finite_integers:
            raise InvalidArgument("engine='branch_and_bound' needs finite integer ranges")
    if integer and finite_integers:
        integer_points(integer, max_points)  # counted before any work
    if integer and finite_integers and (engine == "exhaustion" or (engine == "auto" and not real)):
        outcome = run_exhaustion(problem, deadline=deadline, max_points=max_points)
        name = _ENGINE_NAMES["exhaustion"]
    elif integer and finite_integers:
        outcome, name = _pinned_points(problem, engine, deadline, max_boxes, max_points)
    elif integer:  # an infinite integer range: only z3 (integer sorts) can try
        outcome, name = run_z3(problem, deadline=deadline), _ENGINE_NAMES["z3"]
    else:
        outcome, name = _real_engines(problem, engine, deadline, max_boxes)
    if outcome.status == "proved" and problem.hypotheses:
        witness, why = _inhabited(problem, max(deadline, time.monotonic() + 2.0), max_points)
        if witness is None:
            outcome = Outcome("unknown", f"{outcome.detail}; but {why}")
        else:
            outcome = Outcome("proved", f"{outcome.detail}; the hypotheses hold at a point of "
                                        "the domain (not vacuous)")
    point: tuple[tuple[sympy.Symbol, object], ...] = ()
    if outcome.status == "refuted":
        assert outcome.point
        point = tuple(problem.user_point(outcome.point).items())
    return ProofResult(
        status=outcome.status,
        statement=problem.statement,
        domain=problem.domain_text,
        engine=name,
        detail=problem.readable(outcome.detail),
        point=point,
    )
