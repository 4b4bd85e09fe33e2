"""An independent exact reference for the prover's tests: signs at a point, from definitions.

Written without the prover, Arb or z3: closed intervals of ``Fraction``s, with ``exp`` from its
Taylor series (argument halved until ``|u| <= 1/2``, remainder at most twice the first omitted
term, then squared back), ``log`` from ``2 atanh((m-1)/(m+1))`` after taking out powers of 2,
roots from integer roots of scaled numerators, ``sin``/``cos`` from Taylor series with the
Lagrange remainder, ``pi`` from Machin's formula (alternating series bracket the value).  A
sign is decided when an interval excludes 0 at some precision, or when the value is an exact
rational 0; exact ties between irrational numbers go to sympy's exact ``simplify``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

import sympy


class Undefined(Exception):
    """The expression is certainly undefined at the point (log of a negative number, ...)."""


class Undecided(Exception):
    """The interval straddles a boundary at this precision."""


def _floor_dyadic(value: Fraction, bits: int) -> Fraction:
    return Fraction(math.floor(value * 2**bits), 2**bits)


def _ceil_dyadic(value: Fraction, bits: int) -> Fraction:
    return Fraction(math.ceil(value * 2**bits), 2**bits)


class Q:
    """A closed interval [lo, hi] of rationals."""

    __slots__ = ("hi", "lo")

    def __init__(self, lo: Fraction, hi: Fraction | None = None):
        self.lo = Fraction(lo)
        self.hi = Fraction(lo if hi is None else hi)
        assert self.lo <= self.hi

    def __add__(self, other: Q) -> Q:
        return Q(self.lo + other.lo, self.hi + other.hi)

    def __mul__(self, other: Q) -> Q:
        products = [a * b for a in (self.lo, self.hi) for b in (other.lo, other.hi)]
        return Q(min(products), max(products))

    def rounded(self, bits: int) -> Q:
        return Q(_floor_dyadic(self.lo, bits), _ceil_dyadic(self.hi, bits))

    def contains_zero(self) -> bool:
        return self.lo <= 0 <= self.hi


def _exp_point(t: Fraction, bits: int) -> Q:
    halvings = 0
    u = t
    while abs(u) > Fraction(1, 2):
        u /= 2
        halvings += 1
    terms = bits // 2 + 5
    total = Fraction(0)
    term = Fraction(1)
    for k in range(terms + 1):
        total += term
        term = term * u / (k + 1)
    remainder = 2 * abs(term)
    value = Q(total - remainder, total + remainder).rounded(bits + 8)
    for _ in range(halvings):
        value = Q(value.lo * value.lo, value.hi * value.hi).rounded(bits + 8)
    return value


def _atanh_series(z: Fraction, bits: int) -> Q:
    terms = bits + 5
    total = Fraction(0)
    power = z
    for j in range(terms):
        total += power / (2 * j + 1)
        power *= z * z
    remainder = abs(power) / ((2 * terms + 1) * (1 - z * z))
    return Q(total - remainder, total + remainder)


def _log_point(x: Fraction, bits: int) -> Q:
    if x <= 0:
        raise Undefined(f"log of {x}")
    k = 0
    m = x
    while m >= 2:
        m /= 2
        k += 1
    while m < 1:
        m *= 2
        k -= 1
    log_m = _atanh_series((m - 1) / (m + 1), bits)
    log_2 = _atanh_series(Fraction(1, 3), bits)
    two = Q(Fraction(2))
    return (two * log_m + Q(Fraction(k)) * two * log_2).rounded(bits + 8)


def _integer_root(n: int, q: int) -> int:
    """floor(n ** (1/q)) for n >= 0, exactly."""
    if n < 2:
        return n
    low, high = 0, 1 << (n.bit_length() // q + 1)
    while low < high:
        middle = (low + high + 1) // 2
        if middle**q <= n:
            low = middle
        else:
            high = middle - 1
    return low


def _root_point(x: Fraction, q: int, bits: int) -> Q:
    if x < 0:
        raise Undefined(f"root of {x}")
    scaled_low = math.floor(x * 2 ** (q * bits))
    scaled_high = math.ceil(x * 2 ** (q * bits))
    low = _integer_root(scaled_low, q)
    high = _integer_root(scaled_high, q) + 1
    return Q(Fraction(low, 2**bits), Fraction(high, 2**bits))


def _trig_point(t: Fraction, bits: int, sine: bool) -> Q:
    terms = bits + int(abs(t)) * 3 + 10
    total = Fraction(0)
    term = t if sine else Fraction(1)
    k = 1 if sine else 0
    for _ in range(terms):
        total += term
        term = -term * t * t / ((k + 1) * (k + 2))
        k += 2
    remainder = abs(term)
    return Q(total - remainder, total + remainder).rounded(bits + 8)


def _atan_inverse(n: int, bits: int) -> Q:
    """atan(1/n) by its alternating series (consecutive partial sums bracket it)."""
    total = Fraction(0)
    x = Fraction(1, n)
    power = x
    sign = 1
    k = 0
    while abs(power) / (2 * k + 1) > Fraction(1, 2 ** (bits + 8)):
        total += sign * power / (2 * k + 1)
        power *= x * x
        sign = -sign
        k += 1
    nxt = total + sign * power / (2 * k + 1)
    return Q(min(total, nxt), max(total, nxt))


def _pi(bits: int) -> Q:
    a = _atan_inverse(5, bits)
    b = _atan_inverse(239, bits)
    return (Q(Fraction(16)) * a + Q(Fraction(-4)) * b).rounded(bits + 8)


def _monotone(value: Q, function, increasing: bool = True) -> Q:
    low = function(value.lo)
    high = function(value.hi)
    if increasing:
        return Q(low.lo, high.hi)
    return Q(high.lo, low.hi)


def _power(base: Q, k: int) -> Q:
    if k == 0:
        return Q(Fraction(1))
    if k < 0:
        inner = _power(base, -k)
        if inner.contains_zero():
            if inner.lo == inner.hi == 0:
                raise Undefined("division by zero")
            raise Undecided("a denominator straddles 0")
        return Q(1 / inner.hi, 1 / inner.lo)
    values = [base.lo**k, base.hi**k]
    if k % 2 == 0 and base.contains_zero():
        return Q(Fraction(0), max(values))
    return Q(min(values), max(values))


def evaluate(expr: sympy.Basic, point: Mapping[sympy.Symbol, Q], bits: int) -> Q:
    """An interval containing ``expr`` at ``point`` (every symbol mapped to an interval)."""
    if isinstance(expr, sympy.Rational):
        return Q(Fraction(int(expr.p), int(expr.q)))
    if isinstance(expr, sympy.Symbol):
        return point[expr]
    if expr is sympy.pi:
        return _pi(bits)
    if expr is sympy.E:
        return _exp_point(Fraction(1), bits)
    if isinstance(expr, sympy.Add):
        total = Q(Fraction(0))
        for argument in expr.args:
            total = total + evaluate(argument, point, bits)
        return total.rounded(bits + 16)
    if isinstance(expr, sympy.Mul):
        total = Q(Fraction(1))
        for argument in expr.args:
            total = total * evaluate(argument, point, bits)
        return total.rounded(bits + 16)
    if isinstance(expr, sympy.Pow):
        base, exponent = expr.args
        if exponent.is_Integer:
            return _power(evaluate(base, point, bits), int(exponent)).rounded(bits + 16)
        if exponent.is_Rational:
            inner = evaluate(base, point, bits)
            if inner.hi < 0:
                raise Undefined("fractional power of a negative number")
            if inner.lo < 0:
                raise Undecided("a root's argument straddles 0")
            p, q = int(exponent.p), int(exponent.q)
            root = _monotone(inner, lambda v: _root_point(v, q, bits))
            return _power(root, p).rounded(bits + 16)
        power = evaluate(exponent, point, bits)
        if power.lo == power.hi and power.lo.denominator == 1:  # an integer variable's value
            return _power(evaluate(base, point, bits), int(power.lo)).rounded(bits + 16)
        return evaluate(sympy.exp(exponent * sympy.log(base)), point, bits)
    if isinstance(expr, sympy.exp):
        inner = evaluate(expr.args[0], point, bits)
        return _monotone(inner, lambda v: _exp_point(v, bits))
    if isinstance(expr, sympy.log):
        inner = evaluate(expr.args[0], point, bits)
        if inner.hi <= 0:
            raise Undefined("log of a nonpositive number")
        if inner.lo <= 0:
            raise Undecided("a log's argument straddles 0")
        return _monotone(inner, lambda v: _log_point(v, bits))
    if isinstance(expr, (sympy.sin, sympy.cos)):
        inner = evaluate(expr.args[0], point, bits)
        if inner.lo != inner.hi:
            width = inner.hi - inner.lo
            middle = _trig_point(inner.lo, bits, isinstance(expr, sympy.sin))
            # |sin'|, |cos'| <= 1: the value moves at most by the width
            return Q(max(middle.lo - width, Fraction(-1)), min(middle.hi + width, Fraction(1)))
        return _trig_point(inner.lo, bits, isinstance(expr, sympy.sin))
    if isinstance(expr, sympy.Abs):
        inner = evaluate(expr.args[0], point, bits)
        if inner.lo >= 0:
            return inner
        if inner.hi <= 0:
            return Q(-inner.hi, -inner.lo)
        return Q(Fraction(0), max(-inner.lo, inner.hi))
    if isinstance(expr, (sympy.Max, sympy.Min)):
        values = [evaluate(argument, point, bits) for argument in expr.args]
        pick = max if isinstance(expr, sympy.Max) else min
        return Q(pick(v.lo for v in values), pick(v.hi for v in values))
    if isinstance(expr, sympy.binomial):
        n, k = (evaluate(argument, point, bits) for argument in expr.args)
        assert n.lo == n.hi and k.lo == k.hi and n.lo.denominator == k.lo.denominator == 1
        return Q(Fraction(math.comb(int(n.lo), int(k.lo)) if 0 <= k.lo <= n.lo else 0))
    if isinstance(expr, sympy.factorial):
        n = evaluate(expr.args[0], point, bits)
        assert n.lo == n.hi and n.lo.denominator == 1 and n.lo >= 0
        return Q(Fraction(math.factorial(int(n.lo))))
    if isinstance(expr, sympy.Sum) and len(expr.limits) == 1:
        index, start, stop = expr.limits[0]
        low, high = evaluate(start, point, bits), evaluate(stop, point, bits)
        assert low.lo == low.hi and high.lo == high.hi
        total = Q(Fraction(0))
        for k in range(int(low.lo), int(high.lo) + 1):
            total = total + evaluate(expr.function, {**point, index: Q(Fraction(k))}, bits)
        return total
    if isinstance(expr, sympy.polys.rootoftools.ComplexRootOf):
        width = sympy.Rational(1, 2 ** (bits + 8))
        centre = expr.eval_rational(dx=width)
        centre_value = Fraction(int(centre.p), int(centre.q))
        spread = Fraction(1, 2 ** (bits + 8))
        return Q(centre_value - spread, centre_value + spread)
    raise NotImplementedError(f"reference cannot evaluate {type(expr).__name__}")


def _as_interval(value: object, bits: int) -> Q:
    if isinstance(value, (int, Fraction)):
        return Q(Fraction(value))
    if not isinstance(value, sympy.Basic):
        raise TypeError(f"{value!r} is not an exact value")
    return evaluate(value, {}, bits)


def sign_at(expr: sympy.Basic, point: Mapping[sympy.Symbol, object]) -> int | None:
    """-1, 0 or 1 for ``expr`` at ``point``; raises :class:`Undefined`; None if undecided."""
    for bits in (24, 64, 160, 400, 1000):
        try:
            values = {symbol: _as_interval(value, bits) for symbol, value in point.items()}
            result = evaluate(expr, values, bits)
        except Undecided:
            continue
        if result.lo > 0:
            return 1
        if result.hi < 0:
            return -1
        if result.lo == result.hi == 0:
            return 0
    substituted = expr.xreplace({
        s: sympy.Rational(v.numerator, v.denominator) if isinstance(v, Fraction)
        else (sympy.Integer(v) if isinstance(v, int) else v)
        for s, v in point.items()
    })
    if sympy.simplify(substituted) == 0:
        return 0
    return None


def independently_violated(
    lhs: sympy.Basic,
    rhs: sympy.Basic,
    point: Mapping[sympy.Symbol, object],
    variables: Mapping[sympy.Symbol, sympy.Interval],
    *,
    strict: bool = False,
    assuming: tuple = (),
    integers: tuple = (),
) -> bool:
    """True when ``point`` is in the domain, satisfies the hypotheses, both sides are defined
    there, and ``lhs > rhs`` (``lhs >= rhs`` if ``strict``), all decided by this module."""
    for symbol, interval in variables.items():
        value = point[symbol]
        if symbol in integers or symbol.is_integer:
            if not (isinstance(value, int) or (isinstance(value, Fraction)
                                               and value.denominator == 1)):
                return False
        if isinstance(interval, sympy.FiniteSet):
            (start,) = tuple(interval)
            interval = sympy.Interval(start, start)
        for end, is_open, below in ((interval.start, interval.left_open, True),
                                    (interval.end, interval.right_open, False)):
            if end in (sympy.oo, -sympy.oo):
                continue
            difference = sympy.Symbol("v") - end
            side = sign_at(difference, {sympy.Symbol("v"): value})
            if side is None:
                return False
            if below and (side < 0 or (side == 0 and is_open)):
                return False
            if not below and (side > 0 or (side == 0 and is_open)):
                return False
    for relation in assuming:
        side = sign_at(relation.lhs - relation.rhs, point)
        if side is None:
            return False
        holds = {sympy.Eq: side == 0, sympy.Ne: side != 0, sympy.Lt: side < 0,
                 sympy.Le: side <= 0, sympy.Gt: side > 0, sympy.Ge: side >= 0}[type(relation)]
        if not holds:
            return False
    try:
        sign_at(lhs, point)
        sign_at(rhs, point)
        side = sign_at(lhs - rhs, point)
    except Undefined:
        return False
    if side is None:
        return False
    return side > 0 or (strict and side == 0)
