"""The question every proof engine answers: is ``lhs <= rhs`` at every point of a domain?

A :class:`Problem` holds one statement ``lhs <= rhs`` (or ``lhs < rhs``) over a domain, validated
once and shared by the engines (:mod:`.z3_engine`, :mod:`.branch_and_bound`, :mod:`.exhaustion`):

* each variable ranges over a ``sympy.Interval`` (open, closed or unbounded ends), or over the
  integers of that interval; an irrational end is replaced by an outer rational bound (proving
  on a superset is sound) and kept exactly for the membership test of counterexamples;
* ``hypotheses`` restrict the domain (``p + q <= 1``, a row summing to 1);
* every user symbol is replaced by a fresh *working* symbol declared real (integer for integer
  variables) with the sign its interval implies, so that sympy's own evaluation is valid on
  the domain and never assumes more than the domain gives;
* the *definedness conditions* of the statement (denominators nonzero, arguments of ``log``
  positive, bases of fractional powers nonnegative) are listed: a statement is proved only
  where it is defined, and a point where it is undefined is never a counterexample.

Nothing here evaluates text: the expressions are sympy trees built by the caller.  Floats are
refused naming the entry (:class:`~exactpml.errors.InexactInput`).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

import sympy
from flint import ctx

from exactpml.core.certify import enclosure
from exactpml.core.decisions import exact_compare
from exactpml.core.exact import Scalar, as_scalar, to_sympy
from exactpml.errors import ExactPMLError, InexactInput, InvalidArgument
from proofs_check.prover.conditions import (
    RELATION_SYMBOLS,
    Condition,
    Hypothesis,
    definedness_conditions,
)
from proofs_check.prover.intervals import arb_fraction

__all__ = [
    "Condition",
    "Hypothesis",
    "Problem",
    "VariableRange",
    "build_problem",
    "definedness_conditions",
    "fraction_of",
]

_RELATIONS = (
    sympy.Eq,
    sympy.Ne,
    sympy.Lt,
    sympy.Le,
    sympy.Gt,
    sympy.Ge,
)
_FORBIDDEN_ASSUMPTIONS = (
    "rational",
    "irrational",
    "algebraic",
    "transcendental",
    "even",
    "odd",
    "prime",
    "composite",
    "zero",
)


def _short(expr: object, limit: int = 120) -> str:
    text = str(expr)
    return text if len(text) <= limit else f"{text[: limit // 2]} ... {text[-limit // 2 :]}"


def fraction_of(value: sympy.Rational | int | Fraction) -> Fraction:
    """The ``Fraction`` of a sympy rational (or int)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    return Fraction(int(value.p), int(value.q))


def _check_exact_tree(expr: sympy.Basic, where: str) -> None:
    """No float, NaN, complex infinity, imaginary unit or infinity inside ``expr``."""
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.Float):
            raise InexactInput(
                f"{where}: {_short(expr)} contains the floating-point number {node}, which is "
                "inexact; use sympy.Rational(...) or sympy.Integer(...)"
            )
        if node is sympy.nan or node is sympy.zoo:
            raise InvalidArgument(f"{where}: {_short(expr)} is not a number (contains {node})")
        if node is sympy.I:
            raise InvalidArgument(f"{where}: {_short(expr)} is complex; the prover decides real "
                                  "inequalities")
        if node is sympy.oo or node is sympy.S.NegativeInfinity:
            raise InvalidArgument(f"{where}: {_short(expr)} contains an infinity")


def _expression(value: object, where: str) -> sympy.Expr:
    """A sympy expression from ``value`` (sympy, int or Fraction); floats are refused."""
    if isinstance(value, bool):
        raise InvalidArgument(f"{where}={value!r} is a bool, not an expression")
    if isinstance(value, float):
        raise InexactInput(
            f"{where}={value!r} is a float, which is inexact; use sympy.Rational(...) or a "
            "Fraction"
        )
    if isinstance(value, (int, Fraction)):
        return to_sympy(value)
    if not isinstance(value, sympy.Expr) or isinstance(
        value, (sympy.Rel, sympy.logic.boolalg.BooleanFunction, sympy.logic.boolalg.BooleanAtom)
    ):
        raise InvalidArgument(
            f"{where}={_short(value)!s} must be a sympy expression (not "
            f"{type(value).__name__})"
        )
    _check_exact_tree(value, where)
    return value


@dataclass(frozen=True, slots=True)
class VariableRange:
    """One variable of the domain: a real interval, or the integers in it.

    Attributes:
        symbol: The caller's symbol (the key of the counterexample).
        working: The symbol the engines use (real, with the interval's sign; integer for an
            integer variable).
        lower: A rational lower bound, ``None`` for -oo (exact unless ``exact_lower`` is set).
        upper: A rational upper bound, ``None`` for +oo.
        lower_open: The lower end is excluded.
        upper_open: The upper end is excluded.
        integer: The variable ranges over the integers of the interval.
        exact_lower: An irrational lower end; ``lower`` is then a rational bound below it.
        exact_upper: An irrational upper end; ``upper`` is then a rational bound above it.
    """

    symbol: sympy.Symbol
    working: sympy.Symbol
    lower: Fraction | None
    upper: Fraction | None
    lower_open: bool
    upper_open: bool
    integer: bool
    exact_lower: sympy.Expr | None = None
    exact_upper: sympy.Expr | None = None

    @property
    def name(self) -> str:
        """The caller's name of the variable."""
        return str(self.symbol)

    @property
    def pinned(self) -> bool:
        """The range is a single point."""
        return self.lower is not None and self.lower == self.upper

    @property
    def enlarged(self) -> bool:
        """An end is irrational and was replaced by an outer rational bound."""
        return self.exact_lower is not None or self.exact_upper is not None

    def integer_bounds(self) -> tuple[int | None, int | None]:
        """The least and largest integer of the range (``None``: unbounded)."""
        low = high = None
        if self.lower is not None:
            low = math.floor(self.lower) + 1 if self.lower_open else math.ceil(self.lower)
        if self.upper is not None:
            high = math.ceil(self.upper) - 1 if self.upper_open else math.floor(self.upper)
        return low, high

    def integer_count(self) -> int | None:
        """How many integers the range holds (``None``: infinitely many)."""
        low, high = self.integer_bounds()
        if low is None or high is None:
            return None
        return max(0, high - low + 1)

    def contains(self, value: Scalar) -> bool:
        """Whether the exact ``value`` lies in the range (certified; raises ``Undecided``)."""
        if self.integer:
            expr = to_sympy(value)
            if not (expr.is_Integer or (isinstance(value, Fraction) and value.denominator == 1)):
                return False
        lower = self.exact_lower if self.exact_lower is not None else self.lower
        upper = self.exact_upper if self.exact_upper is not None else self.upper
        if lower is not None:
            side = exact_compare(as_scalar(to_sympy(value)), as_scalar(to_sympy(lower)))
            if side < 0 or (side == 0 and self.lower_open):
                return False
        if upper is not None:
            side = exact_compare(as_scalar(to_sympy(value)), as_scalar(to_sympy(upper)))
            if side > 0 or (side == 0 and self.upper_open):
                return False
        return True

    def text(self) -> str:
        """``"x in (0, 1]"``, ``"n in {1, ..., 300}"``, ``"x = 1/2"``."""
        if self.integer:
            low, high = self.integer_bounds()
            if low is not None and high is not None:
                if high - low < 4:
                    members = ", ".join(str(k) for k in range(low, high + 1))
                else:
                    members = f"{low}, ..., {high}"
                return f"{self.name} in {{{members}}}"
            if low is not None:
                return f"{self.name} in {{{low}, {low + 1}, {low + 2}, ...}}"
            if high is not None:
                return f"{self.name} in {{..., {high - 2}, {high - 1}, {high}}}"
            return f"{self.name} in the integers"
        if self.pinned and not self.enlarged:
            return f"{self.name} = {self.lower}"
        lower: object = self.exact_lower if self.exact_lower is not None else self.lower
        upper: object = self.exact_upper if self.exact_upper is not None else self.upper
        left = "(" if self.lower_open or lower is None else "["
        right = ")" if self.upper_open or upper is None else "]"
        low_text = "-oo" if lower is None else str(lower)
        high_text = "oo" if upper is None else str(upper)
        return f"{self.name} in {left}{low_text}, {high_text}{right}"


def _rational_outer(value: sympy.Expr, *, below: bool, where: str) -> Fraction:
    """A rational bound on the closed real number ``value``: below it (or above)."""
    try:
        ball = enclosure(value, 128)
    except ExactPMLError as error:
        raise InvalidArgument(f"{where}: cannot enclose the end {value}: {error}") from None
    with ctx.workprec(128):
        end = ball.lower() if below else ball.upper()
    if not end.is_finite():
        raise InvalidArgument(f"{where}: the end {value} is not a finite real number")
    return arb_fraction(end)


def _end(
    value: sympy.Expr, *, lower: bool, where: str
) -> tuple[Fraction | None, sympy.Expr | None]:
    """(rational bound or None for infinity, exact irrational end or None)."""
    if value is sympy.oo or value is sympy.S.NegativeInfinity:
        if (value is sympy.oo) == lower:
            raise InvalidArgument(f"{where}: the interval has {value} as its "
                                  f"{'lower' if lower else 'upper'} end")
        return None, None
    _check_exact_tree(value, where)
    if value.free_symbols:
        names = ", ".join(sorted(str(s) for s in value.free_symbols))
        raise InvalidArgument(f"{where}: the end {value} has free symbol(s) {names}")
    if isinstance(value, sympy.Rational):
        return fraction_of(value), None
    return _rational_outer(value, below=lower, where=where), value


def _interval(symbol: sympy.Symbol, value: object) -> tuple[sympy.Expr, sympy.Expr, bool, bool]:
    """(start, end, start excluded, end excluded) of a ``sympy.Interval`` or of a one-point
    ``sympy.FiniteSet`` (sympy turns ``Interval(a, a)`` into ``{a}``)."""
    where = f"variables[{symbol}]"
    if isinstance(value, sympy.FiniteSet) and len(value) == 1:
        (point,) = tuple(value)
        return point, point, False, False
    if value is sympy.S.EmptySet:
        raise InvalidArgument(f"{where} is the empty set; give a nonempty sympy.Interval")
    if not isinstance(value, sympy.Interval):
        raise InvalidArgument(
            f"{where}={_short(value)} must be a sympy.Interval (e.g. sympy.Interval(0, 1), "
            "sympy.Interval.Ropen(0, 1), sympy.Interval(0, sympy.oo))"
        )
    return value.start, value.end, bool(value.left_open), bool(value.right_open)


def _range(
    symbol: sympy.Symbol,
    interval: tuple[sympy.Expr, sympy.Expr, bool, bool],
    integer: bool,
) -> VariableRange:
    where = f"variables[{symbol}]"
    start, end_value, left_open, right_open = interval
    for end in (start, end_value):
        if isinstance(end, sympy.Basic) and end.has(sympy.Float):
            raise InexactInput(
                f"{where}: the end {end} is a floating-point number, which is inexact; use "
                "sympy.Rational(...)"
            )
    lower, exact_lower = _end(start, lower=True, where=where)
    upper, exact_upper = _end(end_value, lower=False, where=where)
    if integer and (exact_lower is not None or exact_upper is not None):
        raise InvalidArgument(f"{where}: an integer variable needs rational (or infinite) ends")
    lower_open = left_open or lower is None
    upper_open = right_open or upper is None
    working = _working_symbol(symbol, lower, upper, lower_open, upper_open, integer,
                              exact_lower, exact_upper)
    result = VariableRange(symbol, working, lower, upper, lower_open, upper_open, integer,
                           exact_lower, exact_upper)
    if integer and result.integer_count() == 0:
        shown = f"{'(' if left_open else '['}{start}, {end_value}{')' if right_open else ']'}"
        raise InvalidArgument(f"{where}: {shown} holds no integer")
    _check_assumptions(symbol, result)
    return result


def _sign_of_end(bound: Fraction | None, exact_end: sympy.Expr | None) -> int | None:
    if bound is None:
        return None
    if exact_end is None:
        return (bound > 0) - (bound < 0)
    return exact_compare(as_scalar(exact_end), Fraction(0))


def _working_symbol(
    symbol: sympy.Symbol,
    lower: Fraction | None,
    upper: Fraction | None,
    lower_open: bool,
    upper_open: bool,
    integer: bool,
    exact_lower: sympy.Expr | None,
    exact_upper: sympy.Expr | None,
) -> sympy.Symbol:
    """A symbol carrying exactly what the range implies: real (or integer) and its sign.

    It is a ``Dummy`` (never equal to a caller's symbol), the same one for the same caller's
    symbol and facts in every problem: two proofs over the same variables then rename to the
    same expressions, and the renaming, the definedness conditions and sympy's own caches are
    reused (proofs of one claim share their statements and hypotheses; measured: building
    the problems of the --quick z3 proofs took 0.55 s CPU instead of 1.13 s).
    """
    facts: dict[str, bool] = {"integer": True} if integer else {"real": True}
    low = _sign_of_end(lower, exact_lower)
    high = _sign_of_end(upper, exact_upper)
    if low is not None and (low > 0 or (low == 0 and lower_open)):
        facts["positive"] = True
    elif low is not None and low == 0:
        facts["nonnegative"] = True
    elif high is not None and (high < 0 or (high == 0 and upper_open)):
        facts["negative"] = True
    elif high is not None and high == 0:
        facts["nonpositive"] = True
    return _shared_dummy(symbol, tuple(facts))


_CACHE_SIZE = 4096
"""Entries each cross-problem cache of this module holds (least recently used dropped)."""


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _shared_dummy(symbol: sympy.Symbol, facts: tuple[str, ...]) -> sympy.Dummy:
    """The working symbol of ``symbol`` with these (true) assumptions, one per pair."""
    return sympy.Dummy(str(symbol), **dict.fromkeys(facts, True))


def _check_assumptions(symbol: sympy.Symbol, variable: VariableRange) -> None:
    """The symbol's own assumptions must hold on its range (sympy used them when it built the
    expressions: ``sqrt(x**2)`` is ``x`` for a positive ``x``)."""
    where = f"variables[{symbol}]"
    for name in _FORBIDDEN_ASSUMPTIONS:
        implied_by_integer = name in ("rational", "algebraic") and variable.integer
        if getattr(symbol, f"is_{name}") is True and not implied_by_integer:
            raise InvalidArgument(
                f"{where}: symbol {symbol} is declared {name}; the prover handles real and "
                "integer variables only (declare it real, or with a sign)"
            )
    if symbol.is_extended_real is False:
        raise InvalidArgument(f"{where}: symbol {symbol} is declared non-real")
    if symbol.is_integer and not variable.integer:
        raise InvalidArgument(
            f"{where}: symbol {symbol} is declared integer; list it in integers=..."
        )
    working = variable.working
    implied = {
        "positive": working.is_positive,
        "nonnegative": working.is_nonnegative,
        "negative": working.is_negative,
        "nonpositive": working.is_nonpositive,
    }
    for name, holds in implied.items():
        if getattr(symbol, f"is_{name}") is True and holds is not True:
            raise InvalidArgument(
                f"{where}: symbol {symbol} is declared {name}, but its range "
                f"{variable.text().split(' in ', 1)[-1]} is not"
            )
    if symbol.is_nonzero is True and symbol.is_real is True and implied["positive"] is not True \
            and implied["negative"] is not True:
        raise InvalidArgument(f"{where}: symbol {symbol} is declared nonzero; its range must "
                              "exclude 0")


@dataclass(frozen=True)
class Problem:
    """A validated statement ``lhs <= rhs`` (``<`` when ``strict``) over a domain.

    ``lhs``, ``rhs``, ``gap = rhs - lhs`` and ``hypotheses`` are written in the working symbols
    (``VariableRange.working``); ``statement`` and ``domain_text`` in the caller's.
    """

    lhs: sympy.Expr
    rhs: sympy.Expr
    gap: sympy.Expr
    strict: bool
    ranges: tuple[VariableRange, ...]
    hypotheses: tuple[Hypothesis, ...]
    statement: str
    domain_text: str
    conditions: tuple[Condition, ...]

    @property
    def relation(self) -> str:
        return "<" if self.strict else "<="

    @property
    def free_ranges(self) -> tuple[VariableRange, ...]:
        """The variables that are not pinned to one value."""
        return tuple(variable for variable in self.ranges if not variable.pinned)

    @property
    def real_ranges(self) -> tuple[VariableRange, ...]:
        return tuple(v for v in self.ranges if not v.integer and not v.pinned)

    @property
    def integer_ranges(self) -> tuple[VariableRange, ...]:
        return tuple(v for v in self.ranges if v.integer and not v.pinned)

    @property
    def enlarged(self) -> bool:
        return any(variable.enlarged for variable in self.ranges)

    def pin(self, values: Mapping[sympy.Symbol, int | Fraction]) -> Problem:
        """The same problem with some working symbols fixed to exact values."""
        mapping = {symbol: to_sympy(value) for symbol, value in values.items()}
        ranges = []
        for variable in self.ranges:
            if variable.working in values:
                value = Fraction(values[variable.working])
                ranges.append(replace(variable, lower=value, upper=value, lower_open=False,
                                      upper_open=False, exact_lower=None, exact_upper=None))
            else:
                ranges.append(variable)
        lhs = self.lhs.xreplace(mapping)
        rhs = self.rhs.xreplace(mapping)
        hypotheses = tuple(hypothesis.substitute(mapping) for hypothesis in self.hypotheses)
        gap = rhs - lhs
        return replace(self, lhs=lhs, rhs=rhs, gap=gap, ranges=tuple(ranges),
                       hypotheses=hypotheses,
                       conditions=definedness_conditions(sympy.Tuple(lhs, rhs)))

    def readable(self, text: str) -> str:
        """``text`` with the working symbols (printed ``_x``) written as the caller's names."""
        names = {str(variable.working): variable.name for variable in self.ranges}
        if not names:
            return text
        pattern = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
        return re.sub(rf"(?<![A-Za-z0-9_])({pattern})(?![A-Za-z0-9_])",
                      lambda match: names[match.group(1)], text)

    def user_point(self, point: Mapping[sympy.Symbol, Scalar]) -> dict[sympy.Symbol, object]:
        """A point in working symbols as the caller's ``{symbol: exact value}`` (ints for
        integer variables, ``Fraction`` for rationals, sympy otherwise)."""
        result: dict[sympy.Symbol, object] = {}
        for variable in self.ranges:
            value = point.get(variable.working)
            if value is None:
                if not variable.pinned or variable.lower is None:
                    continue
                value = variable.lower
            scalar = as_scalar(to_sympy(value))
            if variable.integer and isinstance(scalar, Fraction) and scalar.denominator == 1:
                result[variable.symbol] = int(scalar)
            else:
                result[variable.symbol] = scalar
        return result


def _relational(value: object, index: int) -> sympy.Rel:
    where = f"assuming[{index}]"
    if isinstance(value, bool) or value is sympy.true or value is sympy.false:
        raise InvalidArgument(f"{where}={value!r} must be a sympy relation such as "
                              "sympy.Le(p + q, 1) (it evaluated to a constant)")
    if not isinstance(value, _RELATIONS):
        raise InvalidArgument(
            f"{where}={_short(value)} must be a sympy relation (Eq, Ne, Lt, Le, Gt, Ge), not "
            f"{type(value).__name__}"
        )
    for side in value.args:
        _check_exact_tree(side, where)
    return value


_LATTICE_FUNCTIONS = (sympy.Max, sympy.Min)


def _renamed(expression: sympy.Basic, mapping: Mapping[sympy.Basic, sympy.Basic]) -> sympy.Basic:
    """``expression.xreplace(mapping)`` (symbols for symbols), except that a ``Max``/``Min`` is
    rebuilt without evaluation: it has the same value at every point, and sympy's evaluation of
    a ``Max`` of many terms compares every pair of them under the new symbols' assumptions
    (measured: 6.6 s of the 17 s the proofs took in a profiled --quick run).

    The working symbols are the same in every problem (:func:`_working_symbol`), so the result
    is remembered across problems: a claim's proofs share their sides and hypotheses."""
    return _renamed_once(expression, frozenset(mapping.items()))


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _renamed_once(
    expression: sympy.Basic, pairs: frozenset[tuple[sympy.Basic, sympy.Basic]]
) -> sympy.Basic:
    """:func:`_renamed` with the mapping as its (hashable) pairs."""
    mapping = dict(pairs)
    memo: dict[sympy.Basic, sympy.Basic] = {}

    def rebuild(node: sympy.Basic) -> sympy.Basic:
        if not node.args:
            return mapping.get(node, node)
        done = memo.get(node)
        if done is not None:
            return done
        arguments = [rebuild(argument) for argument in node.args]
        if isinstance(node, _LATTICE_FUNCTIONS):
            result = node.func(*arguments, evaluate=False)
        else:
            result = node.func(*arguments)
        memo[node] = result
        return result

    return rebuild(expression)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _printed(expression: sympy.Basic) -> str:
    """``sympy.sstr(expression)``, remembered: a claim's proofs print the same sides and
    hypotheses again (printing sorts every sum's terms)."""
    return sympy.sstr(expression)


def build_problem(
    lhs: object,
    rhs: object,
    variables: Mapping[sympy.Symbol, object],
    *,
    assuming: Iterable[object] = (),
    integers: Iterable[sympy.Symbol] = (),
    strict: bool = False,
) -> Problem:
    """Validate the arguments of :func:`~proofs_check.prover.prove_inequality`.

    >>> x = sympy.Symbol("x")
    >>> problem = build_problem(x**2, x, {x: sympy.Interval.Lopen(0, 1)})
    >>> problem.statement, problem.domain_text
    ('x**2 <= x', 'every x in (0, 1]')
    """
    if not isinstance(strict, bool):
        raise InvalidArgument(f"strict={strict!r} must be True or False")
    left = _expression(lhs, "lhs")
    right = _expression(rhs, "rhs")
    if not isinstance(variables, Mapping) or not variables:
        raise InvalidArgument(
            "variables must be a nonempty mapping {sympy.Symbol: sympy.Interval}"
        )
    names: dict[str, sympy.Symbol] = {}
    for symbol in variables:
        if not isinstance(symbol, sympy.Symbol):
            raise InvalidArgument(f"variables: key {symbol!r} must be a sympy.Symbol")
        if str(symbol) in names:
            raise InvalidArgument(f"variables: two different symbols are named {symbol}")
        names[str(symbol)] = symbol
    if isinstance(integers, (str, sympy.Basic)):
        integers = (integers,)
    integer_symbols = set()
    for symbol in integers:
        if symbol not in variables:
            raise InvalidArgument(f"integers: {symbol!r} is not a key of variables")
        integer_symbols.add(symbol)
    hypotheses_in = list(assuming) if not isinstance(assuming, sympy.Basic) else [assuming]
    relations = [_relational(value, index) for index, value in enumerate(hypotheses_in)]
    used = set(left.free_symbols) | set(right.free_symbols)
    for relation in relations:
        used |= relation.free_symbols
    missing = sorted(str(symbol) for symbol in used if symbol not in variables)
    if missing:
        raise InvalidArgument(
            f"the symbol(s) {', '.join(missing)} appear in the statement but not in "
            "variables; give each an interval"
        )
    ranges = tuple(
        _range(symbol, _interval(symbol, interval), symbol in integer_symbols
               or symbol.is_integer is True)
        for symbol, interval in variables.items()
    )
    mapping = {variable.symbol: variable.working for variable in ranges}
    working_lhs = _renamed(left, mapping)
    working_rhs = _renamed(right, mapping)
    hypotheses: list[Hypothesis] = []
    hypothesis_texts: list[str] = []
    for relation in relations:
        hypotheses.append(Hypothesis(_renamed(relation.lhs, mapping),
                                     _renamed(relation.rhs, mapping),
                                     RELATION_SYMBOLS[type(relation)]))
        hypothesis_texts.append(_printed(relation))
    for variable in ranges:  # an irrational end stays exact as a hypothesis
        if variable.exact_lower is not None:
            hypotheses.append(Hypothesis(variable.working, variable.exact_lower,
                                         ">" if variable.lower_open else ">="))
        if variable.exact_upper is not None:
            hypotheses.append(Hypothesis(variable.working, variable.exact_upper,
                                         "<" if variable.upper_open else "<="))
    domain_text = ", ".join(f"every {variable.text()}" for variable in ranges)
    if hypothesis_texts:
        domain_text += " with " + " and ".join(hypothesis_texts)
    statement = f"{_printed(left)} {'<' if strict else '<='} {_printed(right)}"
    return Problem(
        lhs=working_lhs,
        rhs=working_rhs,
        gap=working_rhs - working_lhs,
        strict=strict,
        ranges=ranges,
        hypotheses=tuple(hypotheses),
        statement=statement,
        domain_text=domain_text,
        conditions=definedness_conditions(sympy.Tuple(working_lhs, working_rhs)),
    )
