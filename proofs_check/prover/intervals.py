"""An interval extension of sympy expressions over boxes, with Arb endpoints and infinite ends.

:class:`Program` compiles an expression (``+ * /``, integer and rational powers, ``exp``, ``log``,
``sqrt``, ``sin``, ``cos``, ``Abs``, ``Max``, ``Min``, closed constants, ``binomial`` and
``factorial`` at integer points) once into straight-line code; :meth:`Program.enclose`
evaluates it on a box.  A value is a *range* ``(lo, hi)``: exact Arb numbers (radius 0), or
``None`` for -oo / +oo.  Every operation rounds outward (it evaluates Arb balls at the ends and
keeps their lower / upper bounds), and uses the monotonicity of ``exp``, ``log`` and powers on
the *ends* rather than midpoint-radius balls, so ``exp(0) - 1`` is exactly ``0``: a tie at a
corner of a box stays a tie instead of a ball straddling 0.

Two modes (Moore, Kearfott and Cloud, *Introduction to Interval Analysis*, 2009, §5.1 on
extended intervals):

* ``strict``: an operation whose argument range leaves the function's domain (``log`` of a
  range reaching 0, ``1/x`` of a range containing 0, ``sqrt`` of a range reaching below 0)
  raises :class:`UndefinedOnBox`.  A strict enclosure that succeeds proves the expression
  *defined and continuous on the whole closed box*;
* extended (default): such an operation keeps the values at the points where it *is* defined
  (``log([0, a]) = [-oo, log a]``, ``1/[0, a] = [1/a, +oo]``), so the result encloses the
  expression at every point of the box where it is defined.

Both are sound enclosures, never approximations.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import sympy
from flint import arb, ctx, fmpq, fmpz

from exactpml.core.bounds import current_bounds
from exactpml.core.certify import enclosure
from exactpml.errors import ExactPMLError

__all__ = [
    "Box",
    "Program",
    "Range",
    "UndefinedOnBox",
    "UnsupportedExpression",
    "arb_fraction",
    "arb_of_fraction",
]

Endpoint = arb | None
Range = tuple[Endpoint, Endpoint]
"""``(lo, hi)``: exact Arb numbers, ``None`` for -oo (lo) or +oo (hi)."""
Box = Sequence[tuple[Fraction | None, Fraction | None]]
"""Per variable ``(lower, upper)``: rationals, ``None`` for an infinite end; equal ends pin."""

WHOLE: Range = (None, None)


class UndefinedOnBox(Exception):
    """In strict mode: the expression may be undefined somewhere on the closed box."""


class UnsupportedExpression(ExactPMLError):
    """The expression has a node the interval extension cannot enclose (named in the text)."""


def arb_of_fraction(value: Fraction) -> arb:
    """The ball of a rational at the current working precision."""
    return arb(fmpq(value.numerator, value.denominator))


def arb_fraction(value: arb) -> Fraction:
    """The exact ``Fraction`` of a finite arb with radius 0 (an endpoint)."""
    mantissa, exponent = value.man_exp()
    return Fraction(int(mantissa)) * Fraction(2) ** int(exponent)


def _low(ball: arb) -> Endpoint:
    return ball.lower() if ball.is_finite() else None


def _high(ball: arb) -> Endpoint:
    return ball.upper() if ball.is_finite() else None


def _of_fraction(value: Fraction) -> Range:
    ball = arb_of_fraction(value)
    return _low(ball), _high(ball)


def _ball_range(ball: arb) -> Range:
    return _low(ball), _high(ball)


_NEG = "-oo"
_POS = "+oo"


def _times(first: arb | str, second: arb | str) -> arb | str:
    """Product of two extended endpoints, with 0 times an infinity equal to 0 (sets of reals)."""
    if isinstance(first, str) or isinstance(second, str):
        if isinstance(first, arb) and first == 0:
            return arb(0)
        if isinstance(second, arb) and second == 0:
            return arb(0)
        sign_first = (1 if first == _POS else -1) if isinstance(first, str) else (
            1 if first > 0 else -1)
        sign_second = (1 if second == _POS else -1) if isinstance(second, str) else (
            1 if second > 0 else -1)
        return _POS if sign_first * sign_second > 0 else _NEG
    return first * second


def _mul(a: Range, b: Range) -> Range:
    alo, ahi = a
    blo, bhi = b
    if alo is not None and ahi is not None and blo is not None and bhi is not None:
        if alo == ahi and blo == bhi:
            return _ball_range(alo * blo)
        products = (alo * blo, alo * bhi, ahi * blo, ahi * bhi)
        lows = [_low(p) for p in products]
        highs = [_high(p) for p in products]
        lo = None if any(v is None for v in lows) else min(lows)  # type: ignore[type-var]
        hi = None if any(v is None for v in highs) else max(highs)  # type: ignore[type-var]
        return lo, hi
    ends_a: list[arb | str] = [_NEG if alo is None else alo, _POS if ahi is None else ahi]
    ends_b: list[arb | str] = [_NEG if blo is None else blo, _POS if bhi is None else bhi]
    lo_value: Endpoint = None
    hi_value: Endpoint = None
    lo_minus_infinity = hi_plus_infinity = False
    for first in ends_a:
        for second in ends_b:
            product = _times(first, second)
            if product == _NEG:
                lo_minus_infinity = True
                continue
            if product == _POS:
                hi_plus_infinity = True
                continue
            assert isinstance(product, arb)
            low, high = _low(product), _high(product)
            if low is None:
                lo_minus_infinity = True
            elif lo_value is None or low < lo_value:
                lo_value = low
            if high is None:
                hi_plus_infinity = True
            elif hi_value is None or high > hi_value:
                hi_value = high
    return (None if lo_minus_infinity else lo_value), (None if hi_plus_infinity else hi_value)


def _add(a: Range, b: Range) -> Range:
    lo = None if a[0] is None or b[0] is None else _low(a[0] + b[0])
    hi = None if a[1] is None or b[1] is None else _high(a[1] + b[1])
    return lo, hi


def _neg(a: Range) -> Range:
    return (None if a[1] is None else -a[1]), (None if a[0] is None else -a[0])


def _reciprocal(a: Range, strict: bool) -> Range:
    lo, hi = a
    positive = lo is not None and lo > 0
    negative = hi is not None and hi < 0
    if positive or negative:
        new_lo = arb(0) if hi is None else _low(1 / hi)
        new_hi = arb(0) if lo is None else _high(1 / lo)
        return new_lo, new_hi
    if strict:
        raise UndefinedOnBox("a denominator may vanish")
    if lo is not None and lo == 0 and (hi is None or hi > 0):
        return (arb(0) if hi is None else _low(1 / hi)), None
    if hi is not None and hi == 0 and (lo is None or lo < 0):
        return None, (arb(0) if lo is None else _high(1 / lo))
    return WHOLE


def _integer_power(a: Range, k: int, strict: bool) -> Range:
    if k == 0:
        return arb(1), arb(1)
    if k < 0:
        return _reciprocal(_integer_power(a, -k, strict), strict)
    lo, hi = a
    if k % 2:
        return (None if lo is None else _low(lo**k)), (None if hi is None else _high(hi**k))
    if lo is not None and lo >= 0:
        return _low(lo**k), (None if hi is None else _high(hi**k))
    if hi is not None and hi <= 0:
        return _low(hi**k), (None if lo is None else _high(lo**k))
    if lo is None or hi is None:
        return arb(0), None
    top = max(-lo, hi)
    return arb(0), _high(top**k)


def _power_value(value: arb, exponent: Fraction) -> arb:
    if value == 0:
        return arb(0)
    if exponent == Fraction(1, 2):
        return value.sqrt()
    return value ** fmpq(exponent.numerator, exponent.denominator)


def _rational_power(a: Range, exponent: Fraction, strict: bool) -> Range:
    """x**(p/q) with q > 1: the principal real root, defined for x >= 0 (x > 0 if p < 0)."""
    lo, hi = a
    if hi is not None and hi < 0:
        if strict:
            raise UndefinedOnBox("a fractional power of a negative number")
        return WHOLE
    if lo is None or lo < 0:
        if strict:
            raise UndefinedOnBox("a fractional power of a range reaching below 0")
        lo = arb(0)
    if exponent < 0:
        if lo == 0:
            if strict:
                raise UndefinedOnBox("a negative power of a range reaching 0")
            return (arb(0) if hi is None else _low(_power_value(hi, exponent))), None
        return (arb(0) if hi is None else _low(_power_value(hi, exponent))), _high(
            _power_value(lo, exponent)
        )
    return _low(_power_value(lo, exponent)), (
        None if hi is None else _high(_power_value(hi, exponent))
    )


def _exp(a: Range) -> Range:
    limit = arb(current_bounds().exponential_argument)
    lo, hi = a
    if lo is None or lo < -limit:
        new_lo: Endpoint = arb(0)
    elif lo > limit:
        new_lo = _low(limit.exp())
    else:
        new_lo = _low(lo.exp())
    if hi is None or hi > limit:
        new_hi: Endpoint = None
    elif hi < -limit:
        new_hi = _high((-limit).exp())
    else:
        new_hi = _high(hi.exp())
    if new_lo is None:
        new_lo = arb(0)
    return new_lo, new_hi


def _log(a: Range, strict: bool) -> Range:
    lo, hi = a
    if lo is None or lo <= 0:
        if strict:
            raise UndefinedOnBox("a logarithm of a range reaching 0")
        if hi is None:
            return WHOLE
        if hi <= 0:
            return WHOLE
        return None, _high(hi.log())
    return _low(lo.log()), (None if hi is None else _high(hi.log()))


def _trigonometric(a: Range, sine: bool) -> Range:
    lo, hi = a
    if lo is None or hi is None or hi - lo > 7:
        return arb(-1), arb(1)
    ball = lo.union(hi)  # a ball containing [lo, hi]
    value = ball.sin() if sine else ball.cos()
    new_lo, new_hi = _low(value), _high(value)
    new_lo = arb(-1) if new_lo is None or new_lo < -1 else new_lo
    new_hi = arb(1) if new_hi is None or new_hi > 1 else new_hi
    return new_lo, new_hi


def _abs(a: Range) -> Range:
    lo, hi = a
    if lo is not None and lo >= 0:
        return a
    if hi is not None and hi <= 0:
        return _neg(a)
    if lo is None or hi is None:
        return arb(0), None
    return arb(0), (-lo if -lo > hi else hi)


def _extreme(ranges: list[Range], maximum: bool) -> Range:
    los = [r[0] for r in ranges]
    his = [r[1] for r in ranges]
    if maximum:
        known_los = [v for v in los if v is not None]
        lo = max(known_los) if known_los else None
        hi = None if any(v is None for v in his) else max(his)  # type: ignore[type-var]
    else:
        lo = None if any(v is None for v in los) else min(los)  # type: ignore[type-var]
        known_his = [v for v in his if v is not None]
        hi = min(known_his) if known_his else None
    return lo, hi


class _Ranges(Sequence[Range]):
    """Balls read as ranges, converted only when an operation reads them."""

    __slots__ = ("balls",)

    def __init__(self, balls: list[arb]):
        self.balls = balls

    def __getitem__(self, index: int) -> Range:  # type: ignore[override]
        return _ball_range(self.balls[index])

    def __len__(self) -> int:
        return len(self.balls)


def _raise_undefined() -> arb:
    raise UndefinedOnBox("an unbounded value at a point")


def _integer_point(a: Range, what: str) -> int:
    lo, hi = a
    if lo is None or hi is None or lo != hi or not lo.is_integer():
        raise UnsupportedExpression(f"{what} is enclosed only at integer points")
    value = lo.unique_fmpz()
    assert value is not None
    return int(value)


def _summed_indices(start: int, stop: int) -> tuple[range, int]:
    """The indices and the sign of ``Sum(f(k), (k, start, stop))`` in sympy's convention
    (Karr's, as ``Sum.doit`` and the exact point checks give it): ``stop = start - 1`` is the
    empty sum, and for ``stop < start - 1`` the sum is ``-Sum(f(k), (k, stop + 1, start - 1))``.
    Reading every reversed sum as 0 (the empty-sum habit) made the prover answer "proved" for
    ``0 <= Sum(1, (k, 0, m))`` over ``-3 <= m <= 3``, which sympy's own value refutes at
    ``m = -2``."""
    indices, sign = (range(start, stop + 1), 1) if stop >= start - 1 else (
        range(stop + 1, start), -1)
    if len(indices) - 1 > current_bounds().factorial_argument:
        raise UnsupportedExpression(f"a Sum of {len(indices)} terms is too long")
    return indices, sign


class Program:
    """Straight-line code for one expression in the given variables (shared subtrees once).

    >>> x = sympy.Symbol("x", real=True)
    >>> program = Program(sympy.exp(x) - 1 - x, [x])
    >>> program.enclose([(Fraction(0), Fraction(0))], 64)
    (0, 0)
    """

    def __init__(self, expr: sympy.Expr, variables: Sequence[sympy.Symbol]):
        self.expr = expr
        self.variables = tuple(variables)
        self._slots: dict[sympy.Basic, int] = {}
        self._ops: list[tuple] = []
        self._closed_cache: dict[tuple[int, int], Range] = {}
        positions = {symbol: index for index, symbol in enumerate(self.variables)}
        self._positions = positions
        self.output = self._compile(expr)

    def _emit(self, node: sympy.Basic, op: tuple) -> int:
        self._ops.append(op)
        slot = len(self._ops) - 1
        self._slots[node] = slot
        return slot

    def _compile(self, node: sympy.Basic) -> int:
        slot = self._slots.get(node)
        if slot is not None:
            return slot
        if isinstance(node, sympy.Rational):
            return self._emit(node, ("rational", Fraction(int(node.p), int(node.q))))
        if isinstance(node, sympy.Symbol):
            if node not in self._positions:
                raise UnsupportedExpression(f"unknown symbol {node}")
            return self._emit(node, ("variable", self._positions[node]))
        if not node.free_symbols:
            return self._emit(node, ("closed", node))
        if isinstance(node, sympy.Add):
            return self._emit(node, ("add", tuple(self._compile(a) for a in node.args)))
        if isinstance(node, sympy.Mul):
            return self._emit(node, ("mul", tuple(self._compile(a) for a in node.args)))
        if isinstance(node, sympy.Pow):
            base, exponent = node.args
            if exponent.is_Integer:
                return self._emit(node, ("power", self._compile(base), int(exponent)))
            if exponent.is_Rational:
                return self._emit(
                    node,
                    ("root", self._compile(base), Fraction(int(exponent.p), int(exponent.q))),
                )
            return self._emit(node, ("general", self._compile(base), self._compile(exponent)))
        if isinstance(node, sympy.exp):
            return self._emit(node, ("exp", self._compile(node.args[0])))
        if isinstance(node, sympy.log):
            if len(node.args) != 1:
                raise UnsupportedExpression(f"log with a base ({node}) is not supported")
            return self._emit(node, ("log", self._compile(node.args[0])))
        if isinstance(node, sympy.sin):
            return self._emit(node, ("sin", self._compile(node.args[0])))
        if isinstance(node, sympy.cos):
            return self._emit(node, ("cos", self._compile(node.args[0])))
        if isinstance(node, sympy.Abs):
            return self._emit(node, ("abs", self._compile(node.args[0])))
        if isinstance(node, sympy.Max):
            return self._emit(node, ("max", tuple(self._compile(a) for a in node.args)))
        if isinstance(node, sympy.Min):
            return self._emit(node, ("min", tuple(self._compile(a) for a in node.args)))
        if isinstance(node, sympy.binomial):
            return self._emit(
                node, ("binomial", self._compile(node.args[0]), self._compile(node.args[1]))
            )
        if isinstance(node, sympy.factorial):
            return self._emit(node, ("factorial", self._compile(node.args[0])))
        if isinstance(node, sympy.Sum) and len(node.limits) == 1:
            index, start, stop = node.limits[0]
            summand = Program(node.function, (*self.variables, index))
            return self._emit(node, ("sum", summand, self._compile(start), self._compile(stop)))
        raise UnsupportedExpression(
            f"{type(node).__name__} ({str(node)[:80]}) is not supported by the interval "
            "extension (supported: + * /, powers, exp, log, sqrt, sin, cos, Abs, Max, Min, "
            "binomial, factorial and Sum at integer points)"
        )

    def _closed(self, slot: int, node: sympy.Basic, precision: int) -> Range:
        key = (slot, precision)
        cached = self._closed_cache.get(key)
        if cached is None:
            try:
                ball = enclosure(node, precision)
            except ExactPMLError as error:
                raise UnsupportedExpression(
                    f"cannot enclose the constant {node}: {error}"
                ) from None
            cached = _ball_range(ball)
            self._closed_cache[key] = cached
        return cached

    def enclose(self, box: Box, precision: int, *, strict: bool = False) -> Range:
        """The range of the expression on ``box`` at ``precision`` bits (see the module text).

        Raises :class:`UndefinedOnBox` (strict mode) and :class:`UnsupportedExpression`.
        """
        with ctx.workprec(precision):
            if all(lower is not None and lower == upper for lower, upper in box):
                balls = [arb_of_fraction(lower) for lower, _ in box]  # type: ignore[arg-type]
                return _ball_range(self._ball(balls, precision, strict))
            variables: list[Range] = []
            for lower, upper in box:
                if lower is not None and lower == upper:
                    variables.append(_of_fraction(lower))
                    continue
                low = None if lower is None else _of_fraction(lower)[0]
                high = None if upper is None else _of_fraction(upper)[1]
                variables.append((low, high))
            return self._run(variables, precision, strict)

    def _run(self, variables: list[Range], precision: int, strict: bool) -> Range:
        values: list[Range] = []
        for op in self._ops:
            if op[0] == "sum":
                values.append(self._sum(op, values, variables, precision, strict))
                continue
            values.append(self._step(op, values, variables, precision, strict))
        return values[self.output]

    def _ball(self, variables: list[arb], precision: int, strict: bool) -> arb:
        """The value at a point, by plain ball arithmetic (faster than ranges; the same
        definedness rules in strict mode, where anything uncertain raises)."""
        values: list[arb] = []
        for op in self._ops:
            values.append(self._ball_step(op, values, variables, precision, strict))
        return values[self.output]

    def _ball_step(self, op: tuple, values: list[arb], variables: list[arb], precision: int,
                   strict: bool) -> arb:
        kind = op[0]
        if kind == "rational":
            return arb_of_fraction(op[1])
        if kind == "variable":
            return variables[op[1]]
        if kind == "add":
            result = values[op[1][0]]
            for slot in op[1][1:]:
                result = result + values[slot]
            return result
        if kind == "mul":
            result = values[op[1][0]]
            for slot in op[1][1:]:
                result = result * values[slot]
            return result
        if kind == "power":
            base = values[op[1]]
            if op[2] >= 0:
                return base ** op[2]
            if base > 0 or base < 0:
                return 1 / base ** (-op[2])
        if kind == "general":
            base, exponent = values[op[1]], values[op[2]]
            if exponent.is_exact() and exponent.is_integer() and (base > 0 or base < 0):
                k = int(exponent.unique_fmpz())
                return base**k if k >= 0 else 1 / base ** (-k)
            if base > 0:
                return (exponent * base.log()).exp()
        if kind in ("binomial", "factorial"):
            ranges = _Ranges(values)
            return self._step(op, ranges, ranges, precision, strict)[0]  # type: ignore
        if kind == "exp":
            argument = values[op[1]]
            limit = current_bounds().exponential_argument
            if argument.is_finite() and argument.abs_upper() <= limit:
                return argument.exp()
        if kind == "log":
            argument = values[op[1]]
            if argument > 0:
                return argument.log()
        if kind == "sum":
            _, summand, start_slot, stop_slot = op
            indices, sign = _summed_indices(
                _integer_point(_ball_range(values[start_slot]), "Sum"),
                _integer_point(_ball_range(values[stop_slot]), "Sum"),
            )
            total = arb(0)
            inner = [*variables, arb(0)]
            for k in indices:
                inner[-1] = arb(k)
                total = total + summand._ball(inner, precision, strict)
            return total if sign > 0 else -total
        if kind == "closed":
            low, high = self._closed(len(values), op[1], precision)
        else:  # everything else (and the cases above outside their fast path) via ranges
            low, high = self._step(op, _Ranges(values), _Ranges(variables), precision,
                                   strict)
        if low is None or high is None:
            return arb("nan") if not strict else _raise_undefined()
        return low.union(high)

    def _sum(self, op: tuple, values: list[Range], variables: list[Range], precision: int,
             strict: bool) -> Range:
        """``Sum(f(k), (k, a, b))`` with ``a``, ``b`` integers at this point: term by term."""
        _, summand, start_slot, stop_slot = op
        indices, sign = _summed_indices(
            _integer_point(values[start_slot], "Sum"), _integer_point(values[stop_slot], "Sum")
        )
        total: Range = (arb(0), arb(0))
        inner = [*variables, (arb(0), arb(0))]
        for k in indices:
            inner[-1] = (arb(k), arb(k))
            total = _add(total, summand._run(inner, precision, strict))
        return total if sign > 0 else _neg(total)

    def _step(
        self,
        op: tuple,
        values: Sequence[Range],
        variables: Sequence[Range],
        precision: int,
        strict: bool,
    ) -> Range:
        kind = op[0]
        if kind == "rational":
            return _of_fraction(op[1])
        if kind == "variable":
            return variables[op[1]]
        if kind == "closed":
            return self._closed(len(values), op[1], precision)
        if kind == "add":
            result = values[op[1][0]]
            for slot in op[1][1:]:
                result = _add(result, values[slot])
            return result
        if kind == "mul":
            result = values[op[1][0]]
            for slot in op[1][1:]:
                result = _mul(result, values[slot])
            return result
        if kind == "power":
            return _integer_power(values[op[1]], op[2], strict)
        if kind == "root":
            return _rational_power(values[op[1]], op[2], strict)
        if kind == "general":
            base = values[op[1]]
            if base[0] is None or base[0] <= 0:
                if strict:
                    raise UndefinedOnBox("a power with a symbolic exponent of a base reaching 0")
            return _exp(_mul(values[op[2]], _log(base, strict)))
        if kind == "exp":
            return _exp(values[op[1]])
        if kind == "log":
            return _log(values[op[1]], strict)
        if kind in ("sin", "cos"):
            return _trigonometric(values[op[1]], kind == "sin")
        if kind == "abs":
            return _abs(values[op[1]])
        if kind in ("max", "min"):
            return _extreme([values[slot] for slot in op[1]], kind == "max")
        if kind == "binomial":
            n = _integer_point(values[op[1]], "binomial")
            k = _integer_point(values[op[2]], "binomial")
            value = math.comb(n, k) if 0 <= k <= n else (0 if n >= 0 else None)
            if value is None:
                raise UnsupportedExpression("binomial with a negative top")
            exact = arb(fmpz(value))
            return _ball_range(exact)
        if kind == "factorial":
            n = _integer_point(values[op[1]], "factorial")
            if n < 0:
                raise UndefinedOnBox("factorial of a negative integer")
            return _ball_range(arb(fmpz(math.factorial(n))))
        raise AssertionError(kind)  # pragma: no cover
