"""Search over a proof's own domain: ``lhs <= rhs`` tried at exact points (issue 24, item 4).

A proof part states "``lhs <= rhs`` at every point of a domain" (``{symbol: Interval}``,
integer variables, hypotheses such as rows summing to 1) for the proof engines
(:func:`proofs_check.prover.prove_inequality`).  When the engines refute a false statement,
the machine found the counterexample, but not by *search*: a random-instance property over
other objects may never reach it.  :func:`domain_search_evidence` searches the very same
statement as a property (kind P, :func:`~proofs_check.properties.property_holds`):

* **small scope**: the first points of a grid of simple values of the domain, simplest first
  (per variable: its finite ends, 0, ±1, 1/2, 2, 1/3, 2/3, 1/4, 3/4, points next to each
  end, large values towards an unbounded end; integers from the lower end up; for variables
  tied by a hypothesis "their sum is c" -- a prior's or kernel's row -- the grid points
  ``c·(k_1, ..., k_m)/d`` of that simplex for ``d = 1, 2, 3, 4``), a grid enumerator, not a
  list of given instances;
* **random points**: Hypothesis draws the same kinds of values (exact fractions shrinking
  toward simple ones, the special points above, integer weights for a simplex row);
  variables fixed by another linear equality are solved for exactly.

At each point the hypotheses, the ranges and the statement's definedness are decided exactly
(a point outside the domain or where the statement is undefined is skipped, as ``assume``
does), and ``lhs <= rhs`` is decided by :func:`proofs_check.prover.points.refutes`: exact on
rationals, Arb balls with precision doubling and an exact zero test otherwise (``Undecided``
counts as undecided, never as a verdict).  A counterexample is a ``{name: value}`` point,
exactly the prover's kind of witness.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import sympy

from exactpml.core.exact import to_sympy
from exactpml.errors import ExactPMLError, InvalidArgument
from proofs_check.context import CheckContext, validate_examples
from proofs_check.properties import property_holds
from proofs_check.prover.conditions import definedness_conditions
from proofs_check.prover.domain import Problem, VariableRange, build_problem, fraction_of
from proofs_check.prover.intervals import Program, UnsupportedExpression
from proofs_check.prover.points import closed_sign, exact_point_sign, point_sign, refutes
from proofs_check.record import DOMAIN_SEARCH_LABEL, Evidence
from proofs_check.small_scope import Layer, SmallScope

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = [
    "DOMAIN_SEARCH_EXAMPLES",
    "SEARCH_CAP",
    "domain_search_evidence",
    "domain_search_scope",
    "search_wanted",
]

SEARCH_CAP = 10**4
"""Random points of an unbounded end lie within this distance of the other end (or of 0);
the small scope still tries 10**6 there: exact values of every size stay decidable."""

_SIMPLE = (
    Fraction(0), Fraction(1), Fraction(1, 2), Fraction(-1), Fraction(2), Fraction(1, 3),
    Fraction(2, 3), Fraction(1, 4), Fraction(3, 4), Fraction(-1, 2), Fraction(10),
    Fraction(1, 10), Fraction(9, 10), Fraction(100), Fraction(-10),
)
_NEXT_TO_END = (Fraction(1, 100), Fraction(1, 10**4))
_LARGE = (Fraction(10**6),)
_SIMPLEX_DENOMINATORS = (1, 2, 3, 4)

Point = dict[str, Fraction]

DOMAIN_SEARCH_EXAMPLES = 200
"""At most this many grid points and random points per part unless ``examples`` says
otherwise (the default profile's count): a part is searched where its proof is unknown, and
at ``--thorough`` its 2 000 points of binomial tails at n = 500 cost a minute
(pml.ex_3_11)."""


def _inside(variable: VariableRange, value: Fraction) -> bool:
    """Whether ``value`` lies in the rational outer range (exact ends are hypotheses)."""
    if variable.integer and value.denominator != 1:
        return False
    if variable.lower is not None and (
        value < variable.lower or (value == variable.lower and variable.lower_open)
    ):
        return False
    return not (
        variable.upper is not None
        and (value > variable.upper or (value == variable.upper and variable.upper_open))
    )


def _candidates(variable: VariableRange) -> list[Fraction]:
    """The variable's simple values, simplest first, every one inside its range."""
    lower, upper = variable.lower, variable.upper
    values: list[Fraction] = []
    if variable.integer:
        low, high = variable.integer_bounds()
        start = low if low is not None else (min(high, 0) if high is not None else 0)
        values += [Fraction(start + step) for step in range(4)]
        if high is not None:
            values += [Fraction(high), Fraction(high - 1)]
        values += [Fraction(value) for value in (10, 100, 1000)]
        if low is None:
            values += [Fraction(-1), Fraction(-10), Fraction(-1000)]
    else:
        if lower is not None and not variable.lower_open:
            values.append(lower)
        if upper is not None and not variable.upper_open:
            values.append(upper)
        values += _SIMPLE
        for step in _NEXT_TO_END:
            if lower is not None:
                values.append(lower + step)
            if upper is not None:
                values.append(upper - step)
        if lower is not None and upper is not None:
            values.append((lower + upper) / 2)
        if upper is None:
            values += [(lower or Fraction(0)) + large for large in _LARGE]
        if lower is None:
            values += [(upper or Fraction(0)) - large for large in _LARGE]
    unique: list[Fraction] = []
    for value in values:
        if value not in unique and _inside(variable, value):
            unique.append(value)
    return unique


@dataclass(frozen=True)
class _Simplex:
    """Variables tied by ``sum = total`` (every range within [0, total]): a row of a prior
    or a kernel, drawn as a whole."""

    variables: tuple[VariableRange, ...]
    total: Fraction

    def grid(self) -> list[tuple[Fraction, ...]]:
        """``total·k/d`` for every composition ``k`` of ``d``, d = 1, 2, 3, 4 (each point once,
        at its smallest d), inside every range."""
        points: list[tuple[Fraction, ...]] = []
        size = len(self.variables)
        for denominator in _SIMPLEX_DENOMINATORS:
            for bars in itertools.combinations(range(denominator + size - 1), size - 1):
                parts = [b - a - 1 for a, b in zip((-1, *bars), (*bars, denominator + size - 1),
                                                   strict=True)]
                point = tuple(self.total * Fraction(part, denominator) for part in parts)
                if point not in points and all(
                    _inside(variable, value)
                    for variable, value in zip(self.variables, point, strict=True)
                ):
                    points.append(point)
        return points

    def strategy(self) -> SearchStrategy[tuple[Fraction, ...]]:
        from hypothesis import strategies as st

        weights = st.tuples(*(st.integers(1 if variable.lower_open else 0, 1000)
                              for variable in self.variables))
        drawn = weights.filter(lambda drawn: sum(drawn) > 0).map(
            lambda drawn: tuple(self.total * Fraction(w, sum(drawn)) for w in drawn))
        grid = self.grid()
        return st.one_of(st.sampled_from(grid), drawn) if grid else drawn


@dataclass(frozen=True)
class _Free:
    """One variable drawn on its own."""

    variable: VariableRange

    def grid(self) -> list[tuple[Fraction, ...]]:
        return [(value,) for value in _candidates(self.variable)]

    def strategy(self) -> SearchStrategy[tuple[Fraction, ...]]:
        from hypothesis import strategies as st

        variable = self.variable
        special = st.sampled_from(_candidates(variable) or [Fraction(0)])
        if variable.integer:
            low, high = variable.integer_bounds()
            if low is None and high is None:
                low = -SEARCH_CAP
            low = high - SEARCH_CAP if low is None and high is not None else low
            high = low + SEARCH_CAP if high is None and low is not None else high
            drawn: SearchStrategy[Fraction] = st.integers(low, high).map(Fraction)
        else:
            drawn = _real_strategy(variable.lower, variable.upper)
        return st.one_of(special, drawn).filter(lambda value: _inside(variable, value)).map(
            lambda value: (value,))


_FRACTIONS = (Fraction(0), Fraction(1), Fraction(1, 2), Fraction(1, 3), Fraction(2, 3),
              Fraction(1, 4), Fraction(3, 4), Fraction(1, 10), Fraction(9, 10),
              Fraction(1, 100), Fraction(99, 100))


@dataclass(frozen=True)
class _Bounded:
    """A variable that hypotheses bound by rational expressions of the others: drawn as the
    fraction ``t`` of the way from its largest lower bound to its least upper bound (exact;
    beyond an unbounded end, ``t/(1 - t)`` away, ``SEARCH_CAP`` at ``t = 1``; an integer
    variable rounded down among the integers between its bounds)."""

    variable: VariableRange
    lowers: tuple[tuple[sympy.Expr, bool], ...]
    uppers: tuple[tuple[sympy.Expr, bool], ...]

    def grid(self) -> list[tuple[Fraction, ...]]:
        return [(value,) for value in _FRACTIONS]

    def strategy(self) -> SearchStrategy[tuple[Fraction, ...]]:
        from hypothesis import strategies as st

        steps = st.integers(0, _STEPS).map(lambda k: Fraction(k, _STEPS))
        return st.one_of(st.sampled_from(_FRACTIONS), steps).map(lambda t: (t,))

    def value(self, fraction: Fraction, values: Mapping[sympy.Basic, Fraction]) -> Fraction:
        """The variable's value at ``fraction`` of its range given the others' ``values`` (a
        range that is empty or undefined gives a value the hypotheses then reject)."""
        low, high = self.variable.lower, self.variable.upper
        try:
            for bound, _ in self.lowers:
                number = _rational_value(bound, values)
                low = number if low is None else max(low, number)
            for bound, _ in self.uppers:
                number = _rational_value(bound, values)
                high = number if high is None else min(high, number)
        except ZeroDivisionError:
            return low if low is not None else high if high is not None else Fraction(0)
        if self.variable.integer:  # the integers between the bounds
            low = None if low is None else Fraction(math.ceil(low))
            high = None if high is None else Fraction(math.floor(high))
        if low is not None and high is not None:
            if low > high:
                return low
            value = low + (high - low) * fraction
            return Fraction(math.floor(value)) if self.variable.integer else value
        away = Fraction(SEARCH_CAP) if fraction == 1 else fraction / (1 - fraction)
        if self.variable.integer:
            away = Fraction(math.floor(away))
        if low is not None:
            return low + away
        if high is not None:
            return high - away
        return away


_Factor = _Simplex | _Free | _Bounded

_STEPS = 10**4
"""Random real points lie on the grid ``1/_STEPS`` of their interval (of each scale of an
unbounded one): one integer draw each, shrinking toward the lower end."""
_SCALES = (Fraction(1), Fraction(10), Fraction(SEARCH_CAP))


def _real_strategy(lower: Fraction | None, upper: Fraction | None) -> SearchStrategy[Fraction]:
    """Exact points of ``[lower, upper]`` (an open end is filtered out by the caller): a
    step of the grid ``(upper - lower)/_STEPS``; towards an unbounded end, a step of one of
    the scales 1, 10, ``SEARCH_CAP``."""
    from hypothesis import strategies as st

    steps = st.integers(0, _STEPS)
    if lower is not None and upper is not None:
        width = upper - lower
        return steps.map(lambda k: lower + width * Fraction(k, _STEPS))
    scales = st.sampled_from(_SCALES)
    if lower is not None:
        return st.tuples(scales, steps).map(lambda d: lower + d[0] * Fraction(d[1], _STEPS))
    if upper is not None:
        return st.tuples(scales, steps).map(lambda d: upper - d[0] * Fraction(d[1], _STEPS))
    signed = st.integers(-_STEPS, _STEPS)
    return st.tuples(scales, signed).map(lambda d: d[0] * Fraction(d[1], _STEPS))


def _linear_terms(expr: sympy.Expr) -> dict[sympy.Basic, Fraction] | None:
    """``expr`` as ``{symbol: rational coefficient, 1: constant}`` when it is linear with
    rational coefficients, else ``None``."""
    if not expr.free_symbols:
        return None
    try:
        polynomial = sympy.Poly(expr, *sorted(expr.free_symbols, key=str))
    except sympy.PolynomialError:
        return None
    if polynomial.total_degree() > 1 or not all(
        coefficient.is_Rational for coefficient in polynomial.coeffs()
    ):
        return None
    terms: dict[sympy.Basic, Fraction] = {}
    for monomial, coefficient in zip(polynomial.monoms(), polynomial.coeffs(), strict=True):
        key: sympy.Basic = sympy.S.One
        for symbol, power in zip(polynomial.gens, monomial, strict=True):
            if power:
                key = symbol
        terms[key] = fraction_of(coefficient)
    return terms


class _Sampler:
    """The factors of a problem's domain and the map from drawn values to a full point."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.by_working = {variable.working: variable for variable in problem.ranges}
        pinned = {variable.working: to_sympy(variable.lower) for variable in problem.ranges
                  if variable.pinned and variable.lower is not None}
        self.pinned = {symbol: fraction_of(value) for symbol, value in pinned.items()}
        taken: set[sympy.Symbol] = set(pinned)
        factors: list[_Factor] = []
        solved: dict[sympy.Symbol, sympy.Expr] = {}
        for hypothesis in problem.hypotheses:
            if hypothesis.relation != "==":
                continue
            terms = _linear_terms(sympy.expand(hypothesis.difference.xreplace(pinned)))
            if terms is None:
                continue
            symbols = [key for key in terms if key != sympy.S.One]
            if not symbols or any(symbol in taken for symbol in symbols):
                continue
            constant = -terms.get(sympy.S.One, Fraction(0))
            members = tuple(self.by_working[symbol] for symbol in sorted(
                symbols, key=lambda s: [v.working for v in problem.ranges].index(s)))
            if (
                len(members) > 1
                and constant > 0
                and all(terms[v.working] == 1 and not v.integer for v in members)
                and all(v.lower is not None and v.lower >= 0 for v in members)
            ):
                factors.append(_Simplex(members, constant))
                taken.update(symbols)
                continue
            target = next((v for v in reversed(members) if not v.integer), None)
            if target is None:
                continue
            coefficient = terms[target.working]
            solved[target.working] = -sympy.Add(*(
                to_sympy(value) * (key if key != sympy.S.One else 1)
                for key, value in terms.items() if key != target.working
            )) / to_sympy(coefficient)
            taken.add(target.working)
        for _ in range(len(solved)):  # solutions in terms of the drawn variables only
            solved = {symbol: expr.xreplace(solved) for symbol, expr in solved.items()}
        self.solved = solved
        bounded = self._bounded(pinned, taken)
        taken.update(factor.variable.working for factor in bounded)
        factors += [_Free(variable) for variable in problem.ranges
                    if variable.working not in taken]
        self.factors: tuple[_Factor, ...] = (*factors, *bounded)
        self._compile()

    def _bounded(self, pinned: Mapping[sympy.Symbol, sympy.Expr], taken: set[sympy.Symbol]
                 ) -> list[_Bounded]:
        """Real variables that hypotheses bound by rational expressions of the others
        (``D <= r``, ``r < H``): drawn last, between their exact bounds."""
        in_solutions = set().union(*(expr.free_symbols for expr in self.solved.values()))
        chosen: list[_Bounded] = []
        chosen_symbols: set[sympy.Symbol] = set()
        used: set[sympy.Symbol] = set()
        inequalities = [hypothesis for hypothesis in self.problem.hypotheses
                        if hypothesis.relation in ("<", "<=", ">", ">=")]
        for variable in self.problem.ranges:
            symbol = variable.working
            if symbol in taken or symbol in in_solutions or symbol in used or variable.pinned:
                continue
            lowers: list[tuple[sympy.Expr, bool]] = []
            uppers: list[tuple[sympy.Expr, bool]] = []
            for hypothesis in inequalities:
                difference = hypothesis.difference.xreplace(pinned)
                if symbol not in difference.free_symbols:
                    continue
                slope = difference.diff(symbol)
                rest = difference - slope * symbol
                if (not slope.is_Rational or slope == 0 or symbol in rest.free_symbols
                        or rest.free_symbols & chosen_symbols or not _is_rational_tree(rest)):
                    continue
                bound = -rest / slope
                below = (hypothesis.relation in ("<", "<=")) == (slope > 0)
                (uppers if below else lowers).append((bound, hypothesis.relation in "<>"))
            if lowers or uppers:
                chosen.append(_Bounded(variable, tuple(lowers), tuple(uppers)))
                chosen_symbols.add(symbol)
                for bound, _ in (*lowers, *uppers):
                    used.update(bound.free_symbols)
        return chosen

    def point(self, drawn: Sequence[tuple[Fraction, ...]]) -> Point:
        """The full point (``{caller's name: value}``) from each factor's values; a solved
        variable's value is computed exactly."""
        values: dict[sympy.Symbol, Fraction] = dict(self.pinned)
        for factor, chosen in zip(self.factors, drawn, strict=True):
            if isinstance(factor, _Bounded):
                continue
            members = factor.variables if isinstance(factor, _Simplex) else (factor.variable,)
            for variable, value in zip(members, chosen, strict=True):
                values[variable.working] = value
        for symbol, expr in self.solved.items():
            values[symbol] = _rational_value(expr, values)
        for factor, chosen in zip(self.factors, drawn, strict=True):
            if isinstance(factor, _Bounded):
                values[factor.variable.working] = factor.value(chosen[0], values)
        return {variable.name: values[variable.working] for variable in self.problem.ranges}

    def scope(self, limit: int) -> SmallScope[Point]:
        """The first ``limit`` points of the product of the factors' grids, by the largest
        index of any factor, then in order."""
        grids = [factor.grid() for factor in self.factors]
        description = ("the grid of simple points of the domain (ends, points next to them, "
                       "0, ±1, 1/2, ..., simplex rows on 1/d), simplest first")

        def build() -> Iterator[Point]:
            count = 0
            for indices in _simplest_first([len(grid) for grid in grids]):
                if count == limit:
                    return
                yield self.point([grid[i] for grid, i in zip(grids, indices, strict=True)])
                count += 1

        if any(not grid for grid in grids):
            return SmallScope(description, [])
        return SmallScope(description, [Layer(f"first {limit} grid points", None, build)])

    def strategy(self) -> SearchStrategy[Point]:
        from hypothesis import strategies as st

        return st.tuples(*(factor.strategy() for factor in self.factors)).map(self.point)

    def _compile(self) -> None:
        """Each hypothesis, definedness condition and the gap ``rhs - lhs``, as an exact
        rational evaluator when it is rational in the variables, else as Arb straight-line
        code (:class:`~proofs_check.prover.intervals.Program`; exact substitution when
        unsupported)."""
        symbols = [variable.working for variable in self.problem.ranges]
        self.symbols = tuple(symbols)

        def compiled(expr: sympy.Expr) -> _Compiled:
            if _is_rational_tree(expr):
                return _Compiled(expr, None, rational=True)
            try:
                return _Compiled(expr, Program(expr, symbols), rational=False)
            except UnsupportedExpression:
                return _Compiled(expr, None, rational=False)

        self.hypotheses = tuple((hypothesis, compiled(hypothesis.difference))
                                for hypothesis in self.problem.hypotheses)
        self.conditions = tuple((condition, compiled(condition.expr))
                                for condition in self.problem.conditions)
        self.gap = compiled(self.problem.gap)

    def holds(self, point: Point) -> bool | None:
        """True where ``lhs <= rhs`` (``<`` if strict), False at a counterexample (certified
        again by :func:`~proofs_check.prover.points.refutes`), None when undecided; a point
        outside the domain, or where the statement is undefined, is skipped
        (``hypothesis.reject``)."""
        from hypothesis import reject

        problem = self.problem
        values = tuple(point[variable.name] for variable in problem.ranges)
        for variable, value in zip(problem.ranges, values, strict=True):
            if not _inside(variable, value):
                reject()
        for hypothesis, code in self.hypotheses:
            sign = code.sign(values, self.symbols)
            if sign is _UNDEFINED:
                reject()
            if sign is None:
                return None
            if not hypothesis.holds_for_sign(sign):
                reject()
        for condition, code in self.conditions:
            sign = code.sign(values, self.symbols)
            if sign is None:
                return None
            if sign is _UNDEFINED or not {"positive": sign > 0, "nonnegative": sign >= 0,
                                          "nonzero": sign != 0}[condition.kind]:
                reject()
        sign = self.gap.sign(values, self.symbols)
        if sign is _UNDEFINED:
            reject()
        if sign is None:
            return None
        if sign > 0 or (sign == 0 and not problem.strict):
            return True
        exact = {symbol: value for symbol, value in zip(self.symbols, values, strict=True)}
        try:
            verdict, _ = refutes(problem, exact)
        except ExactPMLError:
            return None
        return False if verdict is True else None


def _simplest_first(sizes: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every index tuple below ``sizes``, by the largest index, then the sum, then in order.

    >>> list(_simplest_first([2, 3]))[:6]
    [(0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (1, 2)]
    """
    if not sizes or min(sizes) == 0:
        return

    def with_sum(position: int, total: int, level: int, hit: bool) -> Iterator[tuple[int, ...]]:
        if position == len(sizes):
            if total == 0 and hit:
                yield ()
            return
        rest = len(sizes) - position - 1
        top = min(level, sizes[position] - 1, total)
        for index in range(top + 1):
            remaining = total - index
            if remaining > rest * level:
                continue
            for tail in with_sum(position + 1, remaining, level, hit or index == level):
                yield (index, *tail)

    for level in range(max(sizes)):
        for total in range(level, level * len(sizes) + 1):
            yield from with_sum(0, total, level, False)


_UNDEFINED = 2
"""A sign meaning "the expression is undefined at the point" (a denominator 0, ...)."""


def _is_rational_tree(expr: sympy.Basic) -> bool:
    """Whether ``expr`` is built from rationals and symbols by + * / integer powers, Abs,
    Max and Min only (then it is evaluated exactly in ``Fraction``s)."""
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.Pow):
            if not node.exp.is_Integer:
                return False
        elif not isinstance(node, sympy.Rational | sympy.Symbol | sympy.Add | sympy.Mul
                            | sympy.Abs | sympy.Max | sympy.Min):
            return False
    return True


def _rational_value(expr: sympy.Basic, values: Mapping[sympy.Basic, Fraction]) -> Fraction:
    """The exact value of a rational tree (raises ``ZeroDivisionError`` where undefined)."""
    memo: dict[sympy.Basic, Fraction] = {}

    def value(node: sympy.Basic) -> Fraction:
        known = memo.get(node)
        if known is not None:
            return known
        if isinstance(node, sympy.Rational):
            result = Fraction(int(node.p), int(node.q))
        elif isinstance(node, sympy.Symbol):
            result = values[node]
        elif isinstance(node, sympy.Add):
            result = sum((value(arg) for arg in node.args), Fraction(0))
        elif isinstance(node, sympy.Mul):
            result = Fraction(1)
            for arg in node.args:
                result *= value(arg)
        elif isinstance(node, sympy.Pow):
            result = value(node.base) ** int(node.exp)
        elif isinstance(node, sympy.Abs):
            result = abs(value(node.args[0]))
        elif isinstance(node, sympy.Max):
            result = max(value(arg) for arg in node.args)
        else:  # sympy.Min, the last kind _is_rational_tree admits
            result = min(value(arg) for arg in node.args)
        memo[node] = result
        return result

    return value(expr)


@dataclass(frozen=True)
class _Compiled:
    """One expression, ready to be signed at rational points."""

    expr: sympy.Expr
    program: Program | None
    rational: bool

    def sign(self, values: Sequence[Fraction], symbols: Sequence[sympy.Symbol]) -> int | None:
        """-1, 0, 1, ``_UNDEFINED``, or ``None`` when undecided (certified, never a float)."""
        if self.rational:
            try:
                number = _rational_value(self.expr, dict(zip(symbols, values, strict=True)))
            except ZeroDivisionError:
                return _UNDEFINED
            return (number > 0) - (number < 0)
        if self.program is not None:
            sign = point_sign(self.program, tuple(values))
            if sign is not None:
                return sign
        mapping = {symbol: to_sympy(value) for symbol, value in zip(symbols, values,
                                                                    strict=True)}
        sign = exact_point_sign(self.expr, mapping)
        if sign is not None:
            return sign
        for condition in definedness_conditions(self.expr):
            inner = closed_sign(condition.expr.xreplace(mapping))
            if inner is not None and not {"positive": inner > 0, "nonnegative": inner >= 0,
                                          "nonzero": inner != 0}[condition.kind]:
                return _UNDEFINED
        return None


def domain_search_scope(problem: Problem, limit: int) -> SmallScope[Point]:
    """The small scope of :func:`domain_search_evidence`: the first ``limit`` simple points.

    >>> x, y = sympy.symbols("x y")
    >>> problem = build_problem(x + y, 1, {x: sympy.Interval(0, 1), y: sympy.Interval(0, 1)},
    ...                         assuming=[sympy.Eq(x + y, 1)])
    >>> [f"x = {point['x']}, y = {point['y']}" for point in domain_search_scope(problem, 4)]
    ['x = 0, y = 1', 'x = 1, y = 0', 'x = 1/2, y = 1/2', 'x = 1/3, y = 2/3']
    """
    return _Sampler(problem).scope(limit)


def search_wanted(ctx: CheckContext, proof: Evidence) -> bool:
    """Whether to search a proof part's statement after its proof gave ``proof``.

    Not after a proof: every point of the domain is then certified, and the search could
    only repeat it at the cost of its examples (measured: 0.05-0.9 s per part at --quick).
    Always in a search-alone run (``ctx.search_only``, issue 24: what the search finds
    without the proof engines), and whenever the proof is refuted or unknown.
    """
    return ctx.search_only or proof.proof is None or proof.proof.status != "proved"


def domain_search_evidence(
    ctx: CheckContext,
    part: str,
    lhs: object,
    rhs: object,
    variables: Mapping[Any, object],
    *,
    assuming: Iterable[object] = (),
    integers: Iterable[Any] = (),
    strict: bool = False,
    examples: int | None = None,
    **_prover_options: Any,
) -> Evidence:
    """The statement of a proof part searched at exact points of its domain (kind P).

    Takes :func:`~proofs_check.evidence.proof_evidence`'s statement (``lhs <= rhs``, or
    ``<`` with ``strict``, over ``variables`` with ``assuming`` and ``integers``; the
    prover's other options, such as ``timeout`` and ``domain_text``, are ignored) and checks
    it on the first ``examples`` (default ``ctx.examples``, at most 200) points of a grid of
    simple values of the domain, then on ``examples`` random exact points (see the module
    docstring).

    Args:
        ctx: The check's context (seed, examples, profile).
        part: The statement in the claim's words.
        lhs: A sympy expression (floats refused).
        rhs: Likewise.
        variables: ``{symbol: sympy.Interval}`` for every free symbol.
        assuming: Hypotheses restricting the domain.
        integers: Symbols ranging over the integers of their interval.
        strict: Search for a violation of ``lhs < rhs``.
        examples: Random points (and grid points) to try (default: ``ctx.examples``, at
            most ``DOMAIN_SEARCH_EXAMPLES``).

    Returns:
        Property evidence: failed with the first exact counterexample point found; passed
        when every decided point satisfies the statement; undecided when some point could
        not be decided or no point lay in the domain.

    >>> x = sympy.Symbol("x")
    >>> ctx = CheckContext("mylab.square", examples=20)
    >>> evidence = domain_search_evidence(ctx, "x**2 <= x", x**2, x, {x: sympy.Interval(0, 2)})
    >>> evidence.passed, evidence.counterexample
    (False, "{'x': 2}")
    >>> domain_search_evidence(ctx, "x**2 <= x", x**2, x, {x: sympy.Interval(0, 1)}).passed
    True
    """
    if not isinstance(part, str) or not part.strip():
        raise InvalidArgument("part must be a non-empty string naming the statement")
    count = validate_examples(
        min(ctx.examples, DOMAIN_SEARCH_EXAMPLES) if examples is None else examples
    )
    problem = build_problem(lhs, rhs, variables, assuming=assuming, integers=integers,
                            strict=strict)
    sampler = _Sampler(problem)
    evidence = property_holds(
        ctx,
        sampler.strategy(),
        sampler.holds,
        describe=f"{part}, at exact points of its domain",
        small_scope=sampler.scope(count),
        examples=count,
    )
    return dataclasses.replace(evidence, label=f"{DOMAIN_SEARCH_LABEL}{part}")
