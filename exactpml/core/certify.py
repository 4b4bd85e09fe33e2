"""Certified numerics: rigorous enclosures, signs, comparisons and decimals of closed expressions.

A *closed expression* is an exact value with no free symbols: a ``Fraction`` / ``int``, or a
sympy expression built from rationals with ``+ * /``, integer and rational powers, ``exp``,
``log``, ``sqrt``, ``sin``, ``cos``, ``erf``, ``erfc`` (the Gaussian tails of
:mod:`exactpml.notions.continuous_noise`), ``Abs``, ``Max``, ``Min``, ``pi``, ``E``,
``binomial`` / ``factorial`` of integers, and real algebraic numbers ``CRootOf(poly, k)`` (the
critical points of the suprema over one-parameter families, :mod:`exactpml.suprema`).  Every
decision here is exact or certified:

1. rationals are compared exactly;
2. otherwise the value is enclosed in an Arb ball (python-flint ``arb``, rigorous interval
   arithmetic) at increasing working precision until the ball excludes the boundary;
3. if the ball still contains the boundary, the difference must be *proved* zero by exact
   symbolic simplification, or :class:`~exactpml.errors.Undecided` is raised.

sympy's own ``is_positive`` / ``is_zero`` are deliberately **not** used on numbers: for a
numeric expression they decide from a 2-digit ``evalf``, which is not certified.  With
``F = sum_{k<=200} C(2000, k) 2^-2000`` (about ``6.72e-322``), sympy 1.14 reports
``log(1-F) - log(1-F/2)`` *and its negation* both as ``is_positive``, and reports the exact
zero ``log((1-F)(1-F/2)) - log(1-F) - log(1-F/2)`` as ``is_zero == False``.

Cancellation traps are rewritten before enclosing: ``log(R)`` for ``R`` near 1 is computed
as ``log1p(R - 1)`` with ``R - 1`` formed exactly (also when ``R`` is a sum with a rational
part), and ``c + k exp(a)`` with ``|a| <= 1`` as ``(c + k) + k expm1(a)``.  This serves the
transcendental comparisons of Saeidian et al., "Pointwise maximal leakage and differential
privacy" (Apps. A-B), e.g. the Laplace bounds ``1/(nb) - log((1-c) + c e^{1/(nb)})`` of
Prop. 4.6 (App. B.3).

>>> import sympy
>>> sign(sympy.log(3) - sympy.Rational(11, 10))
-1
>>> compare(sympy.sqrt(2), sympy.Rational(99, 70))
-1
>>> decimal(sympy.pi, 10)
'3.141592654'
>>> decimal(sympy.Rational(1, 8), 2)
'0.12'
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy
from flint import arb, arb_poly, ctx, fmpq, fmpq_mpoly_ctx, fmpz, fmpz_mpoly_ctx, fmpz_poly
from sympy import integer_nthroot
from sympy.polys.rootoftools import ComplexRootOf

from exactpml.core.abbreviate import abbreviated
from exactpml.core.bounds import Bounds, current_bounds, exceeded
from exactpml.core.exact import Scalar, as_scalar, exact, to_sympy
from exactpml.core.foreign import with_exactpml_errors
from exactpml.errors import InexactInput, InvalidArgument, Undecided

__all__ = [
    "compare",
    "decimal",
    "enclosure",
    "is_equal",
    "is_greater",
    "is_greater_equal",
    "is_less",
    "is_less_equal",
    "proves_zero",
    "sign",
    "to_float",
]

DEFAULT_MAX_PRECISION = Bounds().certified_precision
"""Default cap (bits) on the working precision of :func:`sign` and :func:`compare` (the
bound ``certified_precision`` of :func:`exactpml.core.bounds.current_bounds` when none is
given)."""

_START_PRECISION = 64
_PROOF_PRECISION = 256  # a ball that still contains 0 here triggers one attempt to prove zero
_COMBINATORIAL_LIMIT = 2**62  # factorial and binomial arguments Arb takes as machine words
_RADICAL_DEGREE = 64  # predicted x-degree of the eliminant formed to prove a radical zero
_SUPPORTED = (
    "rationals, + * /, powers, exp, log, sqrt, sin, cos, erf, erfc, Abs, Max, Min, pi, E, "
    "binomial, factorial, real CRootOf"
)


def _short(expr: object, limit: int = 160) -> str:
    return abbreviated(expr, limit)


def check_expression(
    expr: sympy.Basic, *, where: str, parameters: frozenset[sympy.Symbol] = frozenset()
) -> None:
    """Structural validation of a sympy expression, with no assumption queries (which cost
    far more than the arithmetic on large expressions): no floats, ``nan``, ``zoo`` or ``I``,
    and every free symbol other than ``parameters`` real with a known sign."""
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.Float):
            raise InexactInput(
                f"{where}: {_short(expr)} contains the floating-point number {node}, which is "
                "inexact; use sympy.Rational or a string such as '3/10'"
            )
        if node is sympy.nan or node is sympy.zoo:
            raise InvalidArgument(f"{where}: {_short(expr)} is not a number (contains {node})")
        if node is sympy.I:
            raise InvalidArgument(f"{where}: {_short(expr)} is complex; values here are real")
    for symbol in expr.free_symbols:
        if symbol in parameters or not isinstance(symbol, sympy.Symbol):
            continue
        known_sign = any(
            value is not None
            for value in (symbol.is_positive, symbol.is_nonnegative, symbol.is_negative)
        )
        if symbol.is_extended_real is not True or not known_sign:
            raise InvalidArgument(
                f"{where}: symbol {symbol} has unknown sign; declare it with an assumption, "
                f"e.g. sympy.Symbol('{symbol}', positive=True)"
            )


def _closed(value: object, *, where: str) -> Scalar:
    """Validate a closed exact value: ``Fraction`` or sympy without free symbols (may be ±oo)."""
    if isinstance(value, sympy.Basic):
        free = value.free_symbols
        if free:
            names = ", ".join(sorted(str(s) for s in free))
            raise InvalidArgument(
                f"{where}: {_short(value)} has free symbol(s) {names}; certified numerics need "
                "a closed expression (substitute exact values first)"
            )
        check_expression(value, where=where)
        return as_scalar(value)
    return exact(value, where=where)


def _is_infinite(value: Scalar) -> bool:
    return value is sympy.oo or value is sympy.S.NegativeInfinity


def _check_precision(name: str, value: object, minimum: int = 2) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"{name}={value!r} must be an int (bits).")
    if value < minimum:
        raise InvalidArgument(f"{name}={value!r} must be at least {minimum}.")
    return value


def _max_precision(value: int | None) -> int:
    """The working-precision cap: ``value``, or the bound ``certified_precision``."""
    if value is None:
        return current_bounds().certified_precision
    return _check_precision("max_precision", value)


def _arb_q(value: Fraction) -> arb:
    return arb(fmpq(value.numerator, value.denominator))


class _Encloser:
    """Evaluates a sympy tree into an Arb ball at the current working precision (memoised)."""

    def __init__(self) -> None:
        self._cache: dict[sympy.Basic, arb] = {}

    def eval(self, node: sympy.Basic) -> arb:
        cached = self._cache.get(node)
        if cached is None:
            cached = self._eval(node)
            self._cache[node] = cached
        return cached

    def _eval(self, node: sympy.Basic) -> arb:
        if isinstance(node, sympy.Rational):
            return arb(fmpq(int(node.p), int(node.q)))
        if node is sympy.pi:
            return arb.pi()
        if node is sympy.E:
            return arb.const_e()
        if isinstance(node, sympy.Add):
            return self._sum(node, Fraction(0))
        if isinstance(node, sympy.Mul):
            result = arb(1)
            for factor in node.args:
                result *= self.eval(factor)
            return result
        if isinstance(node, sympy.Pow):
            return self._power(node)
        if isinstance(node, sympy.exp):
            return _exponential(self.eval(node.args[0]), node)
        if isinstance(node, sympy.log):
            return self._log(node)
        if isinstance(node, (sympy.sin, sympy.cos)):
            argument = self.eval(node.args[0])
            return argument.sin() if isinstance(node, sympy.sin) else argument.cos()
        if isinstance(node, (sympy.erf, sympy.erfc)):  # Arb's rigorous error functions
            argument = self.eval(node.args[0])
            return argument.erf() if isinstance(node, sympy.erf) else argument.erfc()
        if isinstance(node, sympy.Abs):
            return abs(self.eval(node.args[0]))
        if isinstance(node, (sympy.Max, sympy.Min)):
            balls = [self.eval(arg) for arg in node.args]
            result = balls[0]
            for ball in balls[1:]:
                result = result.max(ball) if isinstance(node, sympy.Max) else result.min(ball)
            return result
        if isinstance(node, (sympy.binomial, sympy.factorial)):
            return self._combinatorial(node)
        if isinstance(node, ComplexRootOf):
            return self._root(node)
        if node.is_infinite or node is sympy.nan or node is sympy.zoo:
            raise InvalidArgument(f"{_short(node)} is not finite; no ball encloses it")
        raise Undecided(
            f"cannot enclose {_short(node)}: {type(node).__name__} is not supported by "
            f"exactpml.certify (supported: {_SUPPORTED})",
            expression=node,
        )

    def shifted(self, node: sympy.Basic, shift: Fraction) -> arb:
        """Ball for ``node + shift``, adding ``shift`` exactly to the rational part of a sum."""
        if isinstance(node, sympy.Rational):
            return _arb_q(Fraction(int(node.p), int(node.q)) + shift)
        if isinstance(node, sympy.Add):
            return self._sum(node, shift)
        return self.eval(node) + _arb_q(shift)

    def _sum(self, node: sympy.Add, shift: Fraction) -> arb:
        constant = shift
        rest = arb(0)
        for term in node.args:
            if isinstance(term, sympy.Rational):
                constant += Fraction(int(term.p), int(term.q))
                continue
            coefficient, factor = term.as_coeff_Mul()
            if isinstance(factor, sympy.exp) and isinstance(coefficient, sympy.Rational):
                k = Fraction(int(coefficient.p), int(coefficient.q))
                exponent = self.eval(factor.args[0])
                if exponent.abs_upper() <= 1:  # k e^a = k + k expm1(a): keeps the small part
                    constant += k
                    rest += _arb_q(k) * exponent.expm1()
                else:
                    rest += _arb_q(k) * _exponential(exponent, factor)
                continue
            rest += self.eval(term)
        return rest + _arb_q(constant) if constant else rest

    def _log(self, node: sympy.log) -> arb:
        argument = node.args[0]
        value = self.eval(argument)
        if value < 0:
            raise InvalidArgument(f"log of the negative number {_short(argument)} is not real")
        if value > fmpq(1, 2) and value < 2:
            return self.shifted(argument, Fraction(-1)).log1p()
        return value.log()

    def _power(self, node: sympy.Pow) -> arb:
        base, exponent = node.args
        if isinstance(exponent, sympy.Integer):
            value = self.eval(base)
            if _excludes_zero(value):
                return value ** int(exponent)
            return _integer_power(value, int(exponent))
        value = self.eval(base)
        if value < 0:
            raise InvalidArgument(
                f"{_short(node)}: a negative base with a non-integer exponent is not real"
            )
        if isinstance(exponent, sympy.Rational):
            if exponent == sympy.S.Half:
                return value.sqrt()
            return value ** fmpq(int(exponent.p), int(exponent.q))
        return _exponential(value.log() * self.eval(exponent), node)

    def _root(self, node: ComplexRootOf) -> arb:
        """A real algebraic number ``CRootOf(poly, k)``: its isolating interval (exact rational
        bisection in sympy) refined below the working precision gives a rigorous ball."""
        if not node.is_real:
            raise Undecided(f"cannot enclose {_short(node)}: it is not real", expression=node)
        precision = ctx.prec
        width = sympy.Rational(1, 2 ** (precision + 4))
        bound = node.eval_rational(dx=width)  # within width/2 of the root
        bound_value = fmpq(int(bound.p), int(bound.q))
        return arb(bound_value, fmpq(int(width.p), int(width.q)))

    def _combinatorial(self, node: sympy.Basic) -> arb:
        if not all(isinstance(arg, sympy.Integer) for arg in node.args):
            raise Undecided(
                f"cannot enclose {_short(node)}: only integer arguments are supported",
                expression=node,
            )
        # Arb's own n! and C(n, k) at the working precision: the exact integers cost
        # seconds and more (math.factorial(10**6): 7 s) where a ball costs microseconds
        ints = [int(arg) for arg in node.args]
        if any(abs(value) >= _COMBINATORIAL_LIMIT for value in ints):
            raise Undecided(
                f"cannot enclose {_short(node)}: arguments of {_COMBINATORIAL_LIMIT} or more "
                "are not supported",
                expression=node,
            )
        if isinstance(node, sympy.factorial):
            if ints[0] < 0:
                raise InvalidArgument(f"{node} is not finite")
            return arb.fac_ui(ints[0])
        n, k = ints
        if k < 0 or (n >= 0 and k > n):
            return arb(0)  # sympy's value for integers
        if n < 0:  # C(n, k) = (-1)^k C(k - n - 1, k), sympy's value for integers
            value = arb.bin_uiui(k - n - 1, k)
            return -value if k % 2 else value
        return arb.bin_uiui(n, k)


def _integer_power(value: arb, power: int) -> arb:
    """``value**power`` by binary exponentiation (products of balls), for a ball that
    contains 0: python-flint 0.9's ``**`` gives nan there (``arb(0, 0.001)**2``), so the
    ball of an exact zero such as ``(sqrt(2)**2 - 2)**2`` was never finite.  A negative
    power is the inverse of the positive one (not finite, as it should be, when the ball
    contains 0)."""
    result, square, magnitude = arb(1), value, abs(power)
    while magnitude:
        if magnitude & 1:
            result *= square
        magnitude >>= 1
        if magnitude:
            square *= square
    return result if power >= 0 else 1 / result


class _WideBall(Undecided):
    """An enclosure too wide to go on at this working precision (a ball of ``exp``'s
    argument reaching past the bound while its midpoint does not, or an infinite ball, both
    from cancellation): the precision loops of :func:`sign` and :func:`decimal` retry at a
    higher precision; at the cap, or through :func:`enclosure`, it is an ``Undecided``."""


def _exponential(argument: arb, node: sympy.Basic) -> arb:
    """``exp`` of a ball, refused (``Undecided``) when the argument exceeds the bound
    ``exponential_argument``: e^x needs about log2(x) extra bits, so ``exp(exp(exp(100)))``
    would otherwise be computed for minutes instead of refused.  A ball that reaches past
    the bound only through its width (an infinite ball, or a midpoint within the bound)
    raises :class:`_WideBall`, so that a higher precision is tried first."""
    limit = current_bounds().exponential_argument
    if not argument.is_finite() or argument.abs_upper() > limit:
        wide = not argument.mid().is_finite() or abs(argument.mid()) <= limit
        raise (_WideBall if wide else Undecided)(
            f"cannot enclose {_short(node)}: the argument of exp exceeds the bound "
            f"exponential_argument={limit} (raise it with exactpml.use_bounds("
            "exponential_argument=...))",
            expression=node,
        )
    return argument.exp()


def _enclose(expr: sympy.Basic, precision: int) -> arb:
    with ctx.workprec(precision):
        return _Encloser().eval(expr)


@with_exactpml_errors("enclosure", undecided=True)
def enclosure(expr: object, precision: int) -> arb:
    """A rigorous Arb ball containing the value of the closed expression ``expr``.

    Computed at a working precision of ``precision`` bits; the ball's radius may be much
    larger than ``2^-precision`` after cancellation.  Free symbols raise
    :class:`InvalidArgument` naming them; unsupported functions raise :class:`Undecided`.

    >>> from fractions import Fraction
    >>> enclosure(Fraction(1, 4), 53)
    0.250000000000000
    """
    precision = _check_precision("precision", precision)
    value = _closed(expr, where="enclosure")
    if isinstance(value, Fraction):
        with ctx.workprec(precision):
            return _arb_q(value)
    if _is_infinite(value):
        raise InvalidArgument(f"enclosure: {value} is infinite; no ball encloses it")
    return _enclose(value, precision)


_INNER = object()  # a node whose value is combined from its arguments' (see _bottom_up)
_STOP = object()  # ends a walk of _bottom_up: its result is then _STOP


def _bottom_up(
    expr: sympy.Basic,
    leaf: Callable[[sympy.Basic], Any],
    combine: Callable[[sympy.Basic, list[Any]], Any],
) -> Any:
    """The value of ``expr`` computed from its leaves up, once per distinct subexpression and
    without recursion (sympy trees can be deeper than Python's stack): ``leaf(node)`` gives a
    node's value, or ``_INNER`` for a node to be combined from its arguments' values by
    ``combine(node, parts)``.  Either may return ``_STOP``, which ends the walk with ``_STOP``.
    """
    values: dict[sympy.Basic, Any] = {}
    stack: list[tuple[sympy.Basic, bool]] = [(expr, False)]
    while stack:
        node, ready = stack.pop()
        if node in values:
            continue
        if ready:
            value = combine(node, [values[argument] for argument in node.args])
        else:
            value = leaf(node)
            if value is _INNER:
                stack.append((node, True))
                stack.extend((argument, False) for argument in node.args)
                continue
        if value is _STOP:
            return _STOP
        values[node] = value
    return values[expr]


def _exp_polynomial_is_zero(expr: sympy.Basic) -> bool | None:
    """Exact zero test for expressions built from rationals with ``+ * /``, integer powers and
    ``exp`` of rationals (``None`` when ``expr`` has anything else).

    With L the common denominator of the exponents, every ``exp(a)`` is ``W**(a L)`` for the
    number W = e^{1/L}, which is transcendental (Lindemann-Weierstrass), so ``expr`` is zero
    exactly when the rational function of W it becomes is identically zero.  This settles
    the exact ties between Laplace leakage values, where ``simplify`` takes ~1 s.

    First each exponential is made an independent variable: a rational function of
    independent variables that vanishes identically vanishes at the exponentials too (a
    proof of zero, cheap, but blind to relations such as e^{1/2} e^{1/2} = e).  Then the
    test in W, whose degree is predicted before anything is expanded (:func:`_rational_size`):
    with exponents 1/99991, 1/99989 and 1/99971, L is about 10^15 and no expansion would end.
    Past the bound ``zero_test_degree`` (or ``integer_bits`` for the coefficients) the answer
    is False, meaning "not proved", and the caller's sign is ``Undecided``.
    """
    exponents: set[sympy.Rational] = set()
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.exp):
            if not isinstance(node.args[0], sympy.Rational):
                return None
            exponents.add(node.args[0])
        elif node is sympy.E:
            exponents.add(sympy.S.One)
        elif isinstance(node, sympy.Pow):
            if not isinstance(node.exp, sympy.Integer):
                return None
        elif not isinstance(node, (sympy.Add, sympy.Mul, sympy.Rational)):
            return None
    if not exponents:
        return None
    # each exponential goes straight to its image in FLINT (no sympy ``xreplace``: rebuilding
    # the tree with sympy's evaluation took 70% of the test, 0.1 s of prop_4_6's 44 ties)
    bounds = current_bounds()
    ordered = sorted(exponents)
    independent = _rational_size(expr, lambda a: (1, 1))
    if max(independent.degree, independent.terms) <= bounds.zero_test_degree and (
        independent.bits <= bounds.integer_bits
    ):
        context = fmpq_mpoly_ctx.get(tuple(f"x{index}" for index in range(len(ordered))))
        one = context.from_dict({(0,) * context.nvars(): 1})
        images = {
            sympy.exp(a): (generator, one)
            for a, generator in zip(ordered, context.gens(), strict=True)
        }
        if _vanishes_at(expr, images, context):
            return True
    scale = math.lcm(*(int(a.q) for a in exponents))
    powers = {a: int(a * scale) for a in exponents}
    size = _rational_size(expr, lambda a: (powers[a], 1))
    if size.degree > bounds.zero_test_degree or size.bits > bounds.integer_bits:
        return False  # not proved: the exact test is predicted too costly
    context = fmpq_mpoly_ctx.get(("x0",))
    one = context.from_dict({(0,): 1})
    (base,) = context.gens()

    def image(power: int) -> tuple[Any, Any]:
        """W**power as (numerator, denominator)."""
        return (base**power, one) if power >= 0 else (one, base ** (-power))

    images = {sympy.exp(a): image(powers[a]) for a in ordered}
    images[sympy.E] = image(scale)
    return _vanishes_at(expr, images, context)


def _vanishes(replaced: sympy.Basic) -> bool:
    """Whether a rational function (of dummies only: rationals, ``+ * /``, integer powers) is
    identically zero: its numerator over the product of the denominators, formed in FLINT's
    exact multivariate polynomials (``fmpq_mpoly``), is the zero polynomial.

    The same answer as sympy's ``expand(fraction(together(...))[0]) == 0`` (kept in the
    tests as the oracle) at a fraction of its cost: prop_4_6's 75 zero tests of Laplace
    leakage ties took 0.76 s in sympy under cProfile.  The common denominator is the product
    (no gcd), as :func:`_rational_size` predicts it; a denominator that is the zero
    polynomial leaves the expression undefined, so nothing is proved (False).
    """
    if replaced.has(sympy.exp, sympy.E):
        return False
    symbols = sorted(replaced.free_symbols, key=sympy.default_sort_key)
    context = fmpq_mpoly_ctx.get(tuple(f"x{index}" for index in range(max(1, len(symbols)))))
    one = context.from_dict({(0,) * context.nvars(): 1})
    images = {
        symbol: (generator, one) for symbol, generator in zip(symbols, context.gens(), strict=False)
    }
    return _vanishes_at(replaced, images, context)


def _vanishes_at(
    expr: sympy.Basic, images: dict[sympy.Basic, tuple[Any, Any]], context: Any
) -> bool:
    """:func:`_vanishes` of ``expr`` with each key of ``images`` (symbols, or exponentials)
    read as its value there, a (numerator, denominator) pair of polynomials of ``context``;
    any other node than rationals, ``+ * /`` and integer powers: not proved (False)."""
    one = context.from_dict({(0,) * context.nvars(): 1})
    value = _fraction_at(expr, images, lambda p, q: (one * fmpq(p, q), one))
    return value is not _STOP and bool(value[0] == 0)


def _fraction_at(
    expr: sympy.Basic,
    images: dict[sympy.Basic, tuple[Any, Any]],
    constant: Callable[[int, int], tuple[Any, Any]],
) -> Any:
    """``expr`` as a (numerator, denominator) pair of polynomials, each key of ``images`` read
    as its pair there and each rational p/q as ``constant(p, q)``; ``_STOP`` when ``expr`` has
    any other node than rationals, ``+ * /`` and integer powers, or a denominator that is the
    zero polynomial.  Sums over the product of the denominators (no gcd), as
    :func:`_rational_size` predicts them."""

    def leaf(node: sympy.Basic) -> Any:
        if isinstance(node, sympy.Rational):
            return constant(int(node.p), int(node.q))
        if node in images:
            return images[node]
        if not isinstance(node, (sympy.Add, sympy.Mul, sympy.Pow)):
            return _STOP  # not a rational function of the images: not proved
        return _INNER

    def combine(node: sympy.Basic, parts: list[tuple[Any, Any]]) -> Any:
        if isinstance(node, sympy.Add):
            numerator, denominator = parts[0]
            for top, bottom in parts[1:]:
                numerator = numerator * bottom + top * denominator
                denominator = denominator * bottom
        elif isinstance(node, sympy.Mul):
            numerator, denominator = parts[0]
            for top, bottom in parts[1:]:
                numerator, denominator = numerator * top, denominator * bottom
        else:
            if not isinstance(node.exp, sympy.Integer):
                return _STOP
            (top, bottom), power = parts[0], int(node.exp)
            if power < 0:
                top, bottom, power = bottom, top, -power
            numerator, denominator = top**power, bottom**power
        if denominator == 0:
            return _STOP  # undefined (a zero denominator): not proved
        return (numerator, denominator)

    return _bottom_up(expr, leaf, combine)


@dataclass(frozen=True, slots=True)
class _Size:
    """Bounds on a rational function p/q before it is formed: the degrees of p and q (in one
    variable, or total), their numbers of terms and the bits of their coefficients."""

    numerator: int
    denominator: int
    numerator_terms: int
    denominator_terms: int
    bits: int

    @property
    def degree(self) -> int:
        return self.numerator + self.denominator

    @property
    def terms(self) -> int:
        return self.numerator_terms + self.denominator_terms


_SATURATED = 2**64  # sizes are capped here: only the comparison with a bound matters


def _capped(value: int) -> int:
    return min(value, _SATURATED)


def _rational_size(
    expr: sympy.Basic, exponential: Any, atoms: dict[sympy.Basic, _Size] | None = None
) -> _Size:
    """Predicted size of ``expr`` (rationals, + * /, integer powers, exp of rationals) as a
    rational function; ``exponential(a)`` gives (degree, terms) of ``exp(a)``'s variable,
    and ``atoms`` the sizes of other nodes read as given polynomials (the powers of the
    variables standing for radicals, :func:`_algebraic_is_zero`).

    Sums over a common denominator: deg p = max_i (deg p_i + sum_{j != i} deg q_j), deg q
    = sum_i deg q_i; products add degrees and multiply numbers of terms; coefficients grow
    by at most the log of the number of terms per product.  Computed bottom-up without
    recursion, capped at 2^64.
    """
    given = atoms or {}
    return _bottom_up(
        expr,
        lambda node: given.get(node, _INNER),
        lambda node, parts: _node_size(node, parts, exponential),
    )


def _node_size(node: sympy.Basic, parts: list[_Size], exponential: Any) -> _Size:
    if isinstance(node, sympy.Rational):
        bits = max(int(node.p).bit_length(), int(node.q).bit_length())
        return _Size(0, 0, 1, 1, bits)
    if isinstance(node, sympy.exp) or node is sympy.E:
        exponent = node.args[0] if isinstance(node, sympy.exp) else sympy.S.One
        degree, terms = exponential(exponent)
        if degree >= 0:
            return _Size(degree, 0, terms, 1, 1)
        return _Size(0, -degree, 1, terms, 1)
    if isinstance(node, sympy.Mul):
        numerator_terms = denominator_terms = 1
        for part in parts:
            numerator_terms = _capped(numerator_terms * part.numerator_terms)
            denominator_terms = _capped(denominator_terms * part.denominator_terms)
        return _Size(
            _capped(sum(part.numerator for part in parts)),
            _capped(sum(part.denominator for part in parts)),
            numerator_terms,
            denominator_terms,
            _capped(sum(part.bits + part.terms.bit_length() for part in parts)),
        )
    if isinstance(node, sympy.Add):
        denominator = _capped(sum(part.denominator for part in parts))
        denominator_terms = 1
        for part in parts:
            denominator_terms = _capped(denominator_terms * part.denominator_terms)
        numerator_terms = _capped(
            sum(
                part.numerator_terms * (denominator_terms // max(part.denominator_terms, 1) + 1)
                for part in parts
            )
        )
        return _Size(
            _capped(max(denominator - part.denominator + part.numerator for part in parts)),
            denominator,
            numerator_terms,
            denominator_terms,
            _capped(
                sum(part.bits + part.terms.bit_length() for part in parts) + len(parts).bit_length()
            ),
        )
    if isinstance(node, sympy.Pow):
        base = parts[0]
        power = int(node.exp)
        magnitude = abs(power)
        numerator_terms = _capped(base.numerator_terms) ** min(magnitude, 64)
        denominator_terms = _capped(base.denominator_terms) ** min(magnitude, 64)
        if magnitude > 64 and base.terms > 2:
            numerator_terms = denominator_terms = _SATURATED
        scaled = _Size(
            _capped(base.numerator * magnitude),
            _capped(base.denominator * magnitude),
            _capped(numerator_terms),
            _capped(denominator_terms),
            _capped((base.bits + base.terms.bit_length()) * magnitude),
        )
        if power >= 0:
            return scaled
        return _Size(
            scaled.denominator,
            scaled.numerator,
            scaled.denominator_terms,
            scaled.numerator_terms,
            scaled.bits,
        )
    return _Size(_SATURATED, _SATURATED, _SATURATED, _SATURATED, _SATURATED)  # pragma: no cover


def _rational_root(value: Fraction, order: int) -> Fraction | None:
    """The real ``order``-th root of a rational when it is rational, else None (exact)."""
    if order == 1:
        return value
    if value < 0:
        return None  # sympy's power of a negative base to p/q is its complex principal root
    top, top_exact = integer_nthroot(value.numerator, order)
    bottom, bottom_exact = integer_nthroot(value.denominator, order)
    return Fraction(top, bottom) if top_exact and bottom_exact else None


def _rational_value(expr: sympy.Basic) -> Fraction | None:
    """The value of an expression built from rationals with ``+ * /``, rational powers and
    ``factorial``/``binomial`` of integers when every subexpression is rational, else None:
    exact folding in integers, with no sympy.  A power, factorial or binomial whose integer
    would pass ``integer_bits`` is not formed (None).

    vadhan.prop_2's sharp Hellinger form is built unevaluated from square roots of perfect
    squares (``sqrt(81/16)``); ``minimal_polynomial`` took 0.15-0.4 s on it, expanding its
    fourth power, while folding takes under 1 ms (measured).
    """
    limit = current_bounds().integer_bits

    def leaf(node: sympy.Basic) -> Any:
        if isinstance(node, sympy.Rational):
            return Fraction(int(node.p), int(node.q))
        if isinstance(node, (sympy.factorial, sympy.binomial)):
            return _combinatorial_value(node, limit)
        return _INNER

    def combine(node: sympy.Basic, parts: list[Fraction | None]) -> Fraction | None:
        if None in parts or not isinstance(node, (sympy.Add, sympy.Mul, sympy.Pow)):
            return None  # an irrational part, or a node folding does not know
        return _fold(node, parts, limit)  # type: ignore[arg-type]

    return _bottom_up(expr, leaf, combine)


def _combinatorial_value(node: sympy.Basic, limit: int) -> Fraction | None:
    """n! or C(n, k) of integers, sympy's values (C(n, k) = 0 for k < 0, and for k > n >= 0;
    (-1)^k C(k - n - 1, k) for n < 0), or None past ``limit`` bits (n! < n^n, C(m, k) < 2^m)
    or for other arguments."""
    if not all(isinstance(argument, sympy.Integer) for argument in node.args):
        return None
    ints = [int(argument) for argument in node.args]
    if isinstance(node, sympy.factorial):
        (n,) = ints
        if n < 0 or n * n.bit_length() > limit:
            return None
        return Fraction(math.factorial(n))
    n, k = ints
    if k < 0 or (n >= 0 and k > n):
        return Fraction(0)
    top = n if n >= 0 else k - n - 1
    if top > limit:
        return None
    value = math.comb(top, k)
    return Fraction(-value if n < 0 and k % 2 else value)


def _fold(node: sympy.Basic, parts: list[Fraction], limit: int) -> Fraction | None:
    if isinstance(node, sympy.Add):
        return sum(parts, Fraction(0))
    if isinstance(node, sympy.Mul):
        return math.prod(parts, start=Fraction(1))
    base, exponent = parts
    if base == 0 and exponent <= 0:
        return None  # 0**0 and zoo: left to sympy
    root = _rational_root(base, exponent.denominator)
    if root is None:
        return None
    size = max(root.numerator.bit_length(), root.denominator.bit_length())
    if size * abs(exponent.numerator) > limit:
        return None  # not formed: past integer_bits
    return root**exponent.numerator


def _radical_is_zero(expr: sympy.Basic) -> bool | None:
    """Exact zero test for real algebraic expressions built from rationals with ``+ * /`` and
    rational powers (``None`` when ``expr`` has anything else): True only when ``expr`` is
    certified to be 0, False when it is certified nonzero or nothing is proved.  When every
    subexpression is rational it is folded exactly (:func:`_rational_value`), else the
    certified test of :func:`_algebraic_is_zero` (resultants in FLINT, Cauchy's root bound
    and one Arb enclosure).

    sympy's ``minimal_polynomial`` is deliberately not used: at each step it picks the factor
    of a resultant that vanishes at the number by evaluating the factors at 10-200 digits
    (``_choose_factor``), so a tiny nonzero number can get the minimal polynomial ``x``.
    sympy 1.14 does so for sqrt(1 + 10^-420 sqrt 2) - sqrt(1 - 10^-420 sqrt 2), about
    1.4e-420, which the sign test then reported as 0.

    The degree of the eliminant is at most the product of the radicals' orders (each
    distinct ``r**(p/q)`` contributes q); past ``_RADICAL_DEGREE`` the answer is False, "not
    proved", before anything is formed (with sympy, the sum of six square roots of primes,
    degree 64, took 2.3 s, and four square and four cube roots, degree 1296, did not end)."""
    radicals: set[sympy.Basic] = set()
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.Pow):
            if not isinstance(node.exp, sympy.Rational):
                return None
            if node.exp.q != 1:
                radicals.add(node)
        elif not isinstance(node, (sympy.Add, sympy.Mul, sympy.Rational)):
            return None
    if math.prod(int(node.exp.q) for node in radicals) > _RADICAL_DEGREE:
        return False  # not proved: the eliminant is predicted too costly
    folded = _rational_value(expr)
    if folded is not None:
        return folded == 0
    return _algebraic_is_zero(expr)


def _algebraic_is_zero(expr: sympy.Basic) -> bool:
    """Certified zero test of a radical expression alpha (rationals, ``+ * /``, rational
    powers; within the degree budget of :func:`_radical_is_zero`): True only when alpha = 0
    is proved, False otherwise.  Exact integer polynomials (FLINT ``fmpz_mpoly``); no float.

    1. Each distinct root ``b**(1/q)`` (q > 1; the base b may hold earlier roots) is a
       variable t, inner roots first; with b = N/D over the earlier t's, the relation is
       ``t**q D - N``.  A radical ``b**(p/q)`` is ``t**p`` (sympy's power is the principal
       branch, ``exp((p/q) Log b)``, which is ``(b**(1/q))**p``).  alpha = F/G in the t's
       gives ``x G - F``.  The true values of x and the t's are a common zero of all these.
    2. The t's are eliminated by resultants, last first: ``Res_t(A, B) = U A + V B`` lies in
       the ideal of A and B (Cox, Little and O'Shea, *Ideals, Varieties, and Algorithms*,
       ch. 3 §6), so it vanishes at every common zero, and the eliminant R(x) in Z[x]
       vanishes at alpha.  R = 0 proves nothing (False).
    3. R(0) != 0 proves alpha != 0 (False).  Else R = x^m S with S(0) = s_0 != 0.  Cauchy's
       bound (1829): every root z of a_d z^d + ... + a_0 (a_d != 0) has |z| < 1 + max_{i<d}
       |a_i| / |a_d|.  Applied to the reversed polynomial z^e S(1/z), whose roots are the
       1/beta for the roots beta of S, it gives |beta| > |s_0| / (|s_0| + M) with M =
       max_{i>=1} |s_i|.  alpha is a root of R, so a real Arb ball of alpha strictly inside
       (-bound, bound) proves alpha = 0 (True).  The working precision rises from the
       bound's bit size plus 64 (at least 256) to 4 times that; a ball that excludes 0 ends
       the test (False).
       A finite ball also shows that alpha is defined (Arb's division by a ball containing 0
       is not finite) and real: a negative base to a non-integer power (sympy's complex
       principal root) is refused by the encloser, and nothing is proved (False).

    The cost is predicted before each stage and refused (False, "not proved") past the
    bounds ``zero_test_degree`` (degrees, and terms) and ``integer_bits`` (coefficient bits):
    the polynomials of step 1 by :func:`_rational_size` (the t's as atoms); each resultant
    from its operands, by expanding the Sylvester determinant: deg_v Res_t(A, B) <=
    deg_t(B) deg_v(A) + deg_t(A) deg_v(B), and, ||.||_1 being the sum of the absolute values
    of the coefficients (submultiplicative) and a permanent of nonnegative entries being at
    most the product of its row sums, ||Res_t(A, B)||_1 <= ||A||_1^deg_t(B) ||B||_1^deg_t(A).
    """
    bounds = current_bounds()
    roots: dict[tuple[sympy.Basic, int], int] = {}  # (b, q) -> index of t = b**(1/q)
    powers: dict[sympy.Basic, tuple[int, int]] = {}  # b**(p/q) -> (index, p)

    def register(node: sympy.Basic, parts: list[Any]) -> None:
        # children come first (post-order), so a base's roots get smaller indices
        if isinstance(node, sympy.Pow) and node.exp.q != 1:
            key = (node.base, int(node.exp.q))
            powers[node] = (roots.setdefault(key, len(roots)), int(node.exp.p))

    _bottom_up(expr, lambda node: _INNER, register)
    count = len(roots)
    atoms = {
        node: _Size(p, 0, 1, 1, 1) if p > 0 else _Size(0, -p, 1, 1, 1)
        for node, (_, p) in powers.items()
    }
    for part in [expr, *(base for base, _ in roots)]:
        if not _fits(_rational_size(part, lambda a: (1, 1), atoms), count, bounds):
            return False  # not proved: the polynomials are predicted too large
    context = fmpz_mpoly_ctx.get(("x", *(f"t{index}" for index in range(count))))
    variable, *generators = context.gens()
    one = context.constant(1)
    images = {
        node: (generators[index] ** p, one) if p > 0 else (one, generators[index] ** -p)
        for node, (index, p) in powers.items()
    }

    def constant(p: int, q: int) -> tuple[Any, Any]:
        return (context.constant(p), context.constant(q))

    relations = []
    for (base, order), index in sorted(roots.items(), key=lambda item: item[1]):
        value = _fraction_at(base, images, constant)
        if value is _STOP:
            return False
        numerator, denominator = value
        relations.append(generators[index] ** order * denominator - numerator)
    value = _fraction_at(expr, images, constant)
    if value is _STOP:
        return False
    eliminant = variable * value[1] - value[0]
    if not _elimination_fits(eliminant, relations, bounds):
        return False  # not proved: the resultants are predicted too costly
    for index in reversed(range(count)):
        if eliminant.degrees()[index + 1] > 0:
            eliminant = eliminant.resultant(relations[index], f"t{index}")
            if eliminant == 0:
                return False  # nothing proved about alpha
    terms = eliminant.to_dict().items()
    if any(any(exponents[1:]) for exponents, _ in terms):
        return False  # a t left (cannot happen: relations only hold earlier t's)
    coefficients = {int(exponents[0]): int(c) for exponents, c in terms}
    lowest = min(coefficients)
    if lowest > 0:  # R = x^m S with m = lowest and S(0) = s0 != 0
        s0 = abs(coefficients[lowest])
        rest = max((abs(c) for e, c in coefficients.items() if e > lowest), default=0)
        return _inside_root_gap(expr, Fraction(s0, s0 + rest))
    return False  # R(0) != 0: alpha is certified nonzero


def _fits(size: _Size, variables: int, bounds: Bounds) -> bool:
    """Whether a predicted rational function in ``variables`` variables is within the bounds
    ``zero_test_degree`` (total degree; terms, at most C(d + k, k) for total degree d in k
    variables) and ``integer_bits``."""

    def terms(degree: int, predicted: int) -> int:
        if degree >= _SATURATED:
            return predicted
        return min(predicted, math.comb(degree + variables, variables))

    total_terms = terms(size.numerator, size.numerator_terms) + terms(
        size.denominator, size.denominator_terms
    )
    limit = bounds.zero_test_degree
    return size.degree <= limit and total_terms <= limit and size.bits <= bounds.integer_bits


def _norm_bits(polynomial: Any) -> int:
    """Bits of the sum of the absolute values of the coefficients (>= log2 of that norm)."""
    return int(sum((abs(c) for c in polynomial.coeffs()), fmpz(0)).bit_length())


def _elimination_fits(eliminant: Any, relations: list[Any], bounds: Bounds) -> bool:
    """The resultants of :func:`_algebraic_is_zero` predicted from their operands (degree
    and norm bounds of the Sylvester determinant): every intermediate polynomial within
    ``zero_test_degree`` terms (the product of its degrees plus one) and ``integer_bits``."""
    degrees = list(eliminant.degrees())
    bits = _norm_bits(eliminant)
    for index in reversed(range(len(relations))):
        own = degrees[index + 1]
        if own == 0:
            continue
        relation = relations[index]
        other = relation.degrees()
        order = other[index + 1]
        degrees = [order * d + own * e for d, e in zip(degrees, other, strict=True)]
        degrees[index + 1] = 0
        bits = order * bits + own * _norm_bits(relation)
        if math.prod(d + 1 for d in degrees) > bounds.zero_test_degree:
            return False
        if bits > bounds.integer_bits:
            return False
    return True


def _inside_root_gap(expr: sympy.Basic, bound: Fraction) -> bool:
    """Whether a real Arb ball of ``expr`` lies strictly inside (-bound, bound), at working
    precisions from the bit size of ``1/bound`` plus 64 up to 4 times that; False as soon as
    a ball excludes 0, or when the encloser refuses (not real, or not supported)."""
    bits = bound.denominator.bit_length() - bound.numerator.bit_length() + 1  # >= log2(1/bound)
    precision = max(_PROOF_PRECISION, bits + _START_PRECISION)
    cap = 4 * precision
    while True:
        try:
            ball = _enclose(expr, precision)
        except _WideBall:
            ball = None
        except (InvalidArgument, Undecided):
            return False  # not real (a complex principal root), or not enclosed
        if ball is not None and ball.is_finite():
            low, high = _ball_ends(ball)
            if low > 0 or high < 0:
                return False  # certified nonzero
            if -bound < low and high < bound:
                return True
        if precision >= cap:
            return False
        precision = min(2 * precision, cap)


def _algebraic_root_is_zero(expr: sympy.Basic) -> bool | None:
    """Exact zero test for a rational function of one real algebraic number r =
    ``CRootOf(f, k)`` with rational coefficients (``None`` for any other shape).

    expr = N(r)/D(r) with N, D in Z[x] (formed in FLINT, sizes predicted first).  f is
    factored over Q (FLINT, exact); r is a root of exactly one irreducible factor g, found as
    the only factor whose value at an Arb ball of r does not exclude 0 (distinct irreducible
    factors share no root, and f(r) = 0).  Then N(r) = 0 exactly when g divides N (g is r's
    minimal polynomial up to a constant), and expr is defined when g does not divide D.
    When the factor cannot be singled out, or g divides D: not proved (False)."""
    roots: set[sympy.Basic] = set()
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, ComplexRootOf):
            roots.add(node)
        elif isinstance(node, sympy.Pow):
            if not isinstance(node.exp, sympy.Integer):
                return None
        elif not isinstance(node, (sympy.Add, sympy.Mul, sympy.Rational, sympy.Symbol)):
            return None
    if len(roots) != 1 or expr.free_symbols:
        return None
    (root,) = roots
    bounds = current_bounds()
    polynomial = root.poly
    if not all(c.is_Integer for c in polynomial.all_coeffs()) or not root.is_real:
        return False
    atoms = {root: _Size(1, 0, 1, 1, 1)}
    if not _fits(_rational_size(expr, lambda a: (1, 1), atoms), 1, bounds):
        return False  # not proved: the polynomials are predicted too large
    value = _fraction_at(
        expr,
        {root: (fmpz_poly([0, 1]), fmpz_poly([1]))},
        lambda p, q: (fmpz_poly([p]), fmpz_poly([q])),
    )
    if value is _STOP:
        return False
    numerator, denominator = value
    f = fmpz_poly([int(c) for c in reversed(polynomial.all_coeffs())])
    factors = [factor for factor, _ in f.factor()[1]]
    minimal = _factor_with_root(root, factors)
    if minimal is None or denominator % minimal == 0:
        return False  # the factor is not singled out, or expr is undefined: not proved
    return bool(numerator % minimal == 0)


def _factor_with_root(root: sympy.Basic, factors: list[fmpz_poly]) -> fmpz_poly | None:
    """The only factor whose value at an Arb ball of ``root`` does not exclude 0 (at 64 to
    4096 bits), or None."""
    precision = _START_PRECISION
    while True:
        ball = _enclose(root, precision)
        with ctx.workprec(precision):
            candidates = [g for g in factors if not _excludes_zero(arb_poly(g)(ball))]
        if len(candidates) == 1:
            return candidates[0]
        if not candidates or precision >= 4096:
            return None
        precision *= 2


def _excludes_zero(ball: arb) -> bool:
    return bool(ball > 0 or ball < 0)


def _log_linear_is_zero(expr: sympy.Basic) -> bool | None:
    """Exact zero test for ``r + sum_i c_i log(q_i)`` with rationals r, c_i and positive
    rationals q_i (``None`` for any other shape, or with no log at all).

    With L the common denominator of the c_i and k_i = c_i L, the logs sum to
    ``log(prod q_i**k_i) / L``, which is 0 exactly when the integer product is 1.  When
    r != 0 nothing is proved (False): Baker's theorem (1966) makes the sum nonzero then, and
    Arb separates it.  The product's size, the sum of |k_i| times the bits of q_i, is
    checked against ``integer_bits`` before any power is formed (False, "not proved", past
    it): ``log(2) * 10**30 - log(4) * 5 * 10**29`` is refused at once.  sympy's ``simplify``
    was the route for these (``log(3/4) + log(4/3)``), a rewriting, not a certificate."""
    constant = Fraction(0)
    logs: list[tuple[Fraction, Fraction]] = []
    for term in sympy.Add.make_args(expr):
        if isinstance(term, sympy.Rational):
            constant += Fraction(int(term.p), int(term.q))
            continue
        coefficient, factor = term.as_coeff_Mul()
        if not (
            isinstance(coefficient, sympy.Rational)
            and isinstance(factor, sympy.log)
            and isinstance(factor.args[0], sympy.Rational)
            and factor.args[0] > 0
        ):
            return None
        argument = factor.args[0]
        logs.append(
            (
                Fraction(int(coefficient.p), int(coefficient.q)),
                Fraction(int(argument.p), int(argument.q)),
            )
        )
    if not logs:
        return None
    if constant != 0:
        return False
    scale = math.lcm(*(c.denominator for c, _ in logs))
    powers = [(int(c * scale), q) for c, q in logs]
    bits = sum(
        abs(k) * max(q.numerator.bit_length(), q.denominator.bit_length()) for k, q in powers
    )
    if bits > current_bounds().integer_bits:
        return False  # not proved: the product is predicted too large
    above, below = 1, 1  # prod q_i**k_i = above / below
    for k, q in powers:
        top, bottom = (q.numerator, q.denominator) if k >= 0 else (q.denominator, q.numerator)
        above *= top ** abs(k)
        below *= bottom ** abs(k)
    return above == below


_EXACT_ZERO_ROUTES: tuple[Callable[[sympy.Basic], bool | None], ...] = (
    _exp_polynomial_is_zero,
    _radical_is_zero,
    _log_linear_is_zero,
    _algebraic_root_is_zero,
)


def _exact_zero(expr: sympy.Basic) -> bool | None:
    """The answer of the first exact route whose shape ``expr`` has (exact folding, then
    :data:`_EXACT_ZERO_ROUTES`), final for that shape; None when none applies."""
    folded = _rational_value(expr)  # rationals, radicals of them, n! and C(n, k)
    if folded is not None:
        return folded == 0
    for route in _EXACT_ZERO_ROUTES:  # each answers None when expr is not its shape
        known = route(expr)
        if known is not None:
            return known
    return None


def _evaluated(expr: sympy.Basic) -> sympy.Basic:
    """``expr`` rebuilt bottom-up with sympy's evaluation at construction (``func(*args)``),
    the canonical form an unevaluated tree would have had."""
    return _bottom_up(
        expr,
        lambda node: node if not node.args else _INNER,
        lambda node, parts: node.func(*parts),
    )


def proves_zero(expr: sympy.Basic) -> bool:
    """True only if ``expr`` is proved 0 exactly: by exact folding when it is rational, by the
    transcendence of e^{1/L} for polynomials in exponentials of rationals, by an eliminant
    and a root bound for radicals of rationals (:func:`_algebraic_is_zero`), by an integer
    product for rational combinations of logs of rationals (:func:`_log_linear_is_zero`), by
    the minimal polynomial of one ``CRootOf`` (:func:`_algebraic_root_is_zero`).  An
    expression of their shape is settled by them alone ("not proved" included): sympy's
    ``simplify`` makes sqrt(1 + 10^-420 sqrt 2) - sqrt(1 - 10^-420 sqrt 2), about 1.4e-420,
    exactly 0, and never sees it.  A closed number of any other shape is rebuilt once with
    sympy's construction-time evaluation (an unevaluated ``log(exp(sqrt(2)))`` gets its
    canonical form) and tried again; what is left goes to ``simplify``, the one route that is
    not a certificate (logs of algebraic numbers and of exp-polynomials, ``sqrt(pi)``
    cancelling, identities in symbols: the library's closed forms need it).  Each exact route
    predicts its cost first and answers False ("not proved") past its bound."""
    try:
        known = _exact_zero(expr)
        if known is None and not expr.free_symbols:
            rebuilt = _evaluated(expr)  # sympy's construction-time rules: log(exp(a)) = a
            if rebuilt != expr:
                expr = rebuilt
                known = _exact_zero(expr)
        if known is not None:
            return known
        # the last route, not a certificate: logs of algebraic numbers or of exp-polynomials,
        # sqrt(pi) cancelling, identities with symbols (the library's closed forms need it)
        return bool(sympy.simplify(expr) == 0)
    except Exception:  # sympy can fail in many ways; failing to prove is not an error
        return False


def _sign_of_sympy(expr: sympy.Basic, max_precision: int) -> int:
    precision = min(_START_PRECISION, max_precision)
    tried_proof = False
    while True:
        try:
            ball = _enclose(expr, precision)
        except _WideBall:
            if precision >= max_precision:
                raise
            precision = min(2 * precision, max_precision)
            continue
        if ball > 0:
            return 1
        if ball < 0:
            return -1
        if not tried_proof and (precision >= _PROOF_PRECISION or precision >= max_precision):
            tried_proof = True
            if proves_zero(expr):
                return 0
        if precision >= max_precision:
            raise Undecided(
                f"cannot decide the sign of {_short(expr)}: its enclosure contains 0 at "
                f"{precision} bits and it could not be proved zero",
                expression=expr,
                precision=precision,
            )
        precision = min(2 * precision, max_precision)


@with_exactpml_errors("sign", undecided=True)
def sign(expr: object, *, max_precision: int | None = None) -> int:
    """The sign (-1, 0 or 1) of a closed expression, certified.

    Exact for rationals and ``±oo``; otherwise by Arb enclosures at 64, 128, ... bits up to
    ``max_precision``.  0 is returned only when the expression is proved zero by exact
    simplification; if no ball excludes 0 and no proof is found, :class:`Undecided` is
    raised carrying the expression and the precision reached.

    >>> import sympy
    >>> sign(sympy.log(6) - sympy.log(2) - sympy.log(3))
    0
    """
    max_precision = _max_precision(max_precision)
    value = _closed(expr, where="sign")
    if isinstance(value, Fraction):
        return (value > 0) - (value < 0)
    if value is sympy.oo:
        return 1
    if value is sympy.S.NegativeInfinity:
        return -1
    return _sign_of_sympy(value, max_precision)


def _dyadic(value: arb) -> Fraction:
    """An exact arb (radius 0: a ball's midpoint or radius) as the dyadic rational it is."""
    man, exp = value.man_exp()
    mantissa, exponent = int(man), int(exp)
    return Fraction(mantissa * 2**exponent) if exponent >= 0 else Fraction(mantissa, 2**-exponent)


def _ball_ends(ball: arb) -> tuple[Fraction, Fraction]:
    """The exact ends ``mid - rad`` and ``mid + rad`` of a finite ball (no rounding)."""
    middle, radius = _dyadic(ball.mid()), _dyadic(ball.rad())
    return middle - radius, middle + radius


_FLOAT_EXPONENT = 1100  # |log2| beyond which a nonzero value is out of the doubles' range


def _log2_size(value: Fraction) -> int:
    """log2 |value| to within 1 (from bit lengths; no float is formed)."""
    return abs(value.numerator).bit_length() - value.denominator.bit_length()


def _rational_float(value: Fraction, expr: object) -> float:
    """``float(value)`` (Python's int division is correctly rounded), refusing overflow."""
    try:
        return float(value)
    except OverflowError:
        raise InvalidArgument(
            f"to_float: {_short(expr)} is beyond the largest float (about 1.8e308)"
        ) from None


@with_exactpml_errors("to_float", undecided=True)
def to_float(expr: object, *, max_precision: int | None = None) -> float:
    """The double nearest to an exact value (round-to-nearest-even), certified.

    The one place where a float leaves exactpml, for plotting and for pandas: rationals are
    converted exactly as Python does (correctly rounded); any other closed value is enclosed
    by Arb balls at 64, 128, ... bits until both ends of the ball round to the same double,
    which is then the correctly rounded value (a transcendental number is never a tie
    between two doubles, so this ends); ``±oo`` give ``±inf``.  A value beyond the doubles'
    range is refused (``InvalidArgument``), one that cannot be enclosed to ``max_precision``
    bits is :class:`Undecided`; free symbols are refused naming them.

    >>> import sympy
    >>> to_float(sympy.log(3)), to_float(sympy.pi), to_float(Fraction(1, 3))
    (1.0986122886681098, 3.141592653589793, 0.3333333333333333)
    >>> to_float(sympy.exp(-700)) > 0, to_float(sympy.exp(-800)), to_float(-sympy.oo)
    (True, 0.0, -inf)
    """
    max_precision = _max_precision(max_precision)
    value = _closed(expr, where="to_float")
    if isinstance(value, Fraction):
        return _rational_float(value, expr)
    if value is sympy.oo:
        return math.inf
    if value is sympy.S.NegativeInfinity:
        return -math.inf
    precision = min(_START_PRECISION, max_precision)
    while True:
        try:
            ball = _enclose(value, precision)
        except _WideBall:
            ball = None
        if ball is not None and ball.is_finite():
            low, high = _ball_ends(ball)
            if low > 0 and _log2_size(high) < -_FLOAT_EXPONENT:  # below every subnormal
                return 0.0
            if high < 0 and _log2_size(low) < -_FLOAT_EXPONENT:
                return -0.0
            rounded = _rational_float(low, expr)
            if rounded == _rational_float(high, expr):
                return rounded
        if precision >= max_precision:
            raise Undecided(
                f"to_float: {_short(expr)} could not be enclosed tightly enough to round it "
                f"to a float at {precision} bits",
                expression=value,
                precision=precision,
            )
        precision = min(2 * precision, max_precision)


@with_exactpml_errors("compare", undecided=True)
def compare(a: object, b: object, *, max_precision: int | None = None) -> int:
    """-1, 0 or 1 as ``a < b``, ``a == b`` or ``a > b``, certified (see :func:`sign`)."""
    max_precision = _max_precision(max_precision)
    left = _closed(a, where="compare, first argument")
    right = _closed(b, where="compare, second argument")
    if isinstance(left, Fraction) and isinstance(right, Fraction):
        return (left > right) - (left < right)
    if _is_infinite(left) or _is_infinite(right):
        rank_left = sign(left) if _is_infinite(left) else 0
        rank_right = sign(right) if _is_infinite(right) else 0
        return (rank_left > rank_right) - (rank_left < rank_right)
    difference = to_sympy(left) - to_sympy(right)
    if isinstance(difference, sympy.Rational):
        return int(sympy.sign(difference))
    return _sign_of_sympy(difference, max_precision)


def is_less(a: object, b: object, **kw: Any) -> bool:
    """``a < b``, certified; raises :class:`Undecided` rather than guess."""
    return compare(a, b, **kw) < 0


def is_less_equal(a: object, b: object, **kw: Any) -> bool:
    """``a <= b``, certified; raises :class:`Undecided` rather than guess."""
    return compare(a, b, **kw) <= 0


def is_greater(a: object, b: object, **kw: Any) -> bool:
    """``a > b``, certified; raises :class:`Undecided` rather than guess."""
    return compare(a, b, **kw) > 0


def is_greater_equal(a: object, b: object, **kw: Any) -> bool:
    """``a >= b``, certified; raises :class:`Undecided` rather than guess."""
    return compare(a, b, **kw) >= 0


def is_equal(a: object, b: object, **kw: Any) -> bool:
    """``a == b``: True only when proved (exactly, or by simplification of ``a - b`` to 0)."""
    return compare(a, b, **kw) == 0


# --- certified decimals -------------------------------------------------------------------


def _floor_log10(numerator: fmpz, denominator: fmpz) -> int:
    """Exact ``floor(log10(numerator / denominator))`` of a positive ratio of integers (FLINT
    integers: GMP's products, not Python's quadratic ones, at 10^5 digits)."""
    estimate = math.floor(
        (int(numerator.bit_length()) - int(denominator.bit_length())) * math.log10(2)
    )

    def below(power: int) -> bool:  # 10^power <= numerator / denominator
        if power >= 0:
            return bool(fmpz(10) ** power * denominator <= numerator)
        return bool(denominator <= numerator * fmpz(10) ** -power)

    while not below(estimate):
        estimate -= 1
    while below(estimate + 1):
        estimate += 1
    return estimate


def _round_significant(value: Fraction | fmpq, digits: int) -> tuple[int, fmpz, int]:
    """``value`` rounded half-to-even to ``digits`` significant digits as (sign, m, e).

    The rounded value is ``sign * m * 10^(e - digits + 1)`` with ``10^(digits-1) <= m <
    10^digits``, so ``e`` is the decimal exponent of its leading digit; zero is (0, 0, 0).
    Integer arithmetic in FLINT throughout: ``--digits 100000`` divides 10^5-digit integers.
    """
    if isinstance(value, fmpq):
        numerator, denominator = value.p, value.q
    else:
        numerator, denominator = fmpz(value.numerator), fmpz(value.denominator)
    if numerator == 0:
        return (0, fmpz(0), 0)
    negative = numerator < 0
    numerator = abs(numerator)
    exponent = _floor_log10(numerator, denominator)
    shift = exponent - digits + 1
    if shift >= 0:
        denominator *= fmpz(10) ** shift
    else:
        numerator *= fmpz(10) ** -shift
    mantissa, remainder = divmod(numerator, denominator)
    if 2 * remainder > denominator or (2 * remainder == denominator and mantissa % 2 == 1):
        mantissa += 1  # half-to-even
    if mantissa == fmpz(10) ** digits:
        mantissa //= 10
        exponent += 1
    return (-1 if negative else 1, mantissa, exponent)


def _rounded_value(rounded: tuple[int, fmpz, int], digits: int) -> Fraction:
    sign_, mantissa, exponent = rounded
    return sign_ * int(mantissa) * Fraction(10) ** (exponent - digits + 1)


def _format(rounded: tuple[int, fmpz, int], digits: int) -> str:
    sign_, mantissa, exponent = rounded
    if sign_ == 0:
        return "0"
    text = str(mantissa)  # FLINT's printing: no 4300-digit limit, and fast
    prefix = "-" if sign_ < 0 else ""
    if -4 <= exponent < digits:
        if exponent < 0:
            body = "0." + "0" * (-exponent - 1) + text
        elif exponent + 1 == digits:
            body = text
        else:
            body = f"{text[: exponent + 1]}.{text[exponent + 1 :]}"
    else:
        body = text[0] + ("." + text[1:] if digits > 1 else "")
        body += f"e{'+' if exponent >= 0 else '-'}{abs(exponent)}"
    return prefix + body


def _ball_bounds(ball: arb) -> tuple[fmpq, fmpq] | None:
    """The exact ends of a finite ball, as FLINT rationals (no Python gcds of 10^5 digits)."""
    if not ball.is_finite():
        return None
    mid_man, mid_exp = ball.mid().man_exp()
    rad_man, rad_exp = ball.rad().man_exp()
    mid = fmpq(mid_man) * fmpq(2) ** int(mid_exp)
    rad = fmpq(rad_man) * fmpq(2) ** int(rad_exp)
    return (mid - rad, mid + rad)


@with_exactpml_errors("decimal", undecided=True)
def decimal(expr: object, digits: int, *, max_precision: int | None = None) -> str:
    """The value of ``expr`` rounded to ``digits`` significant digits, guaranteed correct.

    Definition: the exact value is rounded to the nearest number with ``digits`` significant
    decimal digits, ties to even (ties can only occur for values proved equal to a tie
    point, e.g. rationals, which are rounded exactly).  For an irrational value the working
    precision is doubled until both ends of the Arb ball round to the same string; since
    rounding is monotone, every point of the ball, the true value included, rounds to it.
    If this fails at ``max_precision`` bits (default ``max(2^14, 8 * bits needed)``) the
    value must be proved equal to the tie point, or :class:`Undecided` is raised.

    Format (like ``'%#.{digits}g'``): positional when the decimal exponent ``e`` of the
    rounded value has ``-4 <= e < digits`` (``'0.000123'``, ``'1.00'``), otherwise
    scientific with an unpadded exponent (``'6.72e-322'``, ``'1.23e+5'``); trailing zeros are
    kept.  Exact zero is ``'0'``; infinities are ``'oo'`` and ``'-oo'``.  ``digits`` above
    ``Bounds.output_digits`` raises :class:`~exactpml.core.bounds.BoundExceeded`.

    >>> from fractions import Fraction
    >>> decimal(Fraction(5, 2), 1), decimal(Fraction(7, 2), 1), decimal(123456, 3)
    ('2', '4', '1.23e+5')
    """
    if isinstance(digits, bool) or not isinstance(digits, int) or digits < 1:
        raise InvalidArgument(f"digits={digits!r} must be a positive int.")
    if digits > current_bounds().output_digits:
        raise exceeded("decimal", f"digits={digits} were requested", "output_digits")
    needed = int(digits * math.log2(10)) + 32
    if max_precision is None:
        max_precision = max(DEFAULT_MAX_PRECISION, 8 * needed)
    max_precision = _check_precision("max_precision", max_precision)
    value = _closed(expr, where="decimal")
    if isinstance(value, Fraction):
        return _format(_round_significant(value, digits), digits)
    if value is sympy.oo:
        return "oo"
    if value is sympy.S.NegativeInfinity:
        return "-oo"
    if _sign_of_sympy(value, max_precision) == 0:
        return "0"
    precision = min(max(_START_PRECISION, needed), max_precision)
    while True:
        try:
            bounds = _ball_bounds(_enclose(value, precision))
        except _WideBall:
            if precision >= max_precision:
                raise
            bounds = None
        if bounds is not None:
            low, high = (_round_significant(bound, digits) for bound in bounds)
            if low == high and low[0] != 0:
                return _format(low, digits)
        if precision >= max_precision:
            break
        precision = min(2 * precision, max_precision)
    # The ball straddles a rounding boundary at the cap: only an exact proof can settle it.
    if bounds is not None:
        low_value = _rounded_value(low, digits)
        high_value = _rounded_value(high, digits)
        boundary = (low_value + high_value) / 2
        if proves_zero(value - to_sympy(boundary)):
            return _format(_round_significant(boundary, digits), digits)
    raise Undecided(
        f"cannot certify {digits} digits of {_short(value)}: the enclosure at {precision} bits "
        "straddles a rounding boundary that could not be proved to be the value",
        expression=value,
        precision=precision,
    )
