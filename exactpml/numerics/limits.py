"""One-sided limits of leakage expressions of parametric families, taken exactly.

The proofs of Saeidian et al., "Pointwise maximal leakage and differential privacy",
App. B, never attain their suprema: they build a family, e.g. the product prior of
eq. (B.3) putting ``1 - t`` on ``d_j*`` and ``t/(|D|-1)`` elsewhere, and let ``t -> 0+``.
:func:`limit` evaluates such limits exactly.

Fast path (``method="rational"``): when the expression is a rational function of the
parameter ``t`` -- built from ``t`` with ``+ * /``, integer powers, ``Max``, ``Min``, ``Abs`` --
whose coefficients may be any expressions free of ``t`` (``exp(epsilon)``, ``log(2)``, ...,
each held as an independent variable, so ``e^epsilon`` stays a parameter of QQ(e^epsilon)[t]),
numerator and denominator are built as polynomials (python-flint ``fmpq_poly`` when every
coefficient is rational, sympy polynomial rings otherwise) and the limit is read off their
lowest-order terms at ``0+`` (after ``t = c + s`` or ``t = c - s`` at a finite point ``c``), or
their highest-order terms at ``±oo``.  ``Max``/``Min``/``Abs`` are resolved by the eventual sign
of differences, so the expression is never evaluated at the limit point: substituting
``t = 0`` into an uncancelled expression gives ``nan`` on ``0/0``, and evaluating the
leakage *at* ``t = 0`` is wrong because the prior's support changes there.  A leading
coefficient with transcendental or symbolic parts is used only once it is proved nonzero
(certified numerics, or sympy's symbolic assumptions when it has free symbols).  An
outer ``log`` or ``exp`` of such an expression is handled by continuity.

Otherwise (``method="auto"``) ``sympy.limit`` is used; an unevaluated ``Limit``, an
``AccumBounds``, ``nan`` or an exception becomes :class:`~exactpml.errors.Undecided`.

>>> import sympy
>>> t = sympy.Symbol("t", positive=True)
>>> limit((1 - t) / (t * (1 + t)) - 1 / t, t, "0+")
Fraction(-2, 1)
>>> limit(3 * t**2 / (t**2 + t + 1), t, "oo")
Fraction(3, 1)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, Literal, TypeVar

import sympy
from flint import fmpq, fmpq_poly
from sympy.calculus.accumulationbounds import AccumBounds
from sympy.polys.rings import PolyElement, ring

from exactpml.core import boundary as _boundary
from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.certify import check_expression, compare, proves_zero, sign
from exactpml.core.exact import Scalar, as_scalar, exact, to_sympy
from exactpml.errors import InvalidArgument, Undecided

__all__ = ["limit"]

Method = Literal["auto", "rational", "sympy"]
_P = TypeVar("_P")


def _short(expr: object, limit: int = 160) -> str:
    return abbreviated(expr, limit)  # a number of any size, in a few ms


# --- the approach: where the parameter goes -------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Approach:
    """``kind`` is ``"right"``/``"left"`` of ``point``, or ``"oo"``/``"-oo"``."""

    kind: str
    point: Scalar | None = None

    def describe(self) -> str:
        if self.kind in ("oo", "-oo"):
            return self.kind
        return f"{self.point}{'+' if self.kind == 'right' else '-'}"


def _parse_point(value: object, where: str) -> Scalar:
    if isinstance(value, str) and value.strip() in ("oo", "+oo"):
        return sympy.oo
    if isinstance(value, str) and value.strip() == "-oo":
        return sympy.S.NegativeInfinity
    point = exact(value, where=where)
    if isinstance(point, sympy.Basic) and point.free_symbols:
        names = ", ".join(sorted(str(s) for s in point.free_symbols))
        raise InvalidArgument(
            f"{where}: {abbreviated(point)} must be a number, but has symbol(s) {names}"
        )
    return point


def _parse_to(to: object) -> _Approach:
    hint = "use '0+', 'oo', '-oo', '1/2-' or (point, '+' | '-')"
    if to is sympy.oo:
        return _Approach("oo")
    if to is sympy.S.NegativeInfinity:
        return _Approach("-oo")
    if isinstance(to, tuple):
        if len(to) != 2 or to[1] not in ("+", "-"):
            raise InvalidArgument(
                f"to={abbreviated_repr(to)} must be a pair (point, '+' or '-'); {abbreviated(hint)}"
            )
        point = _parse_point(to[0], "limit point")
        if point in (sympy.oo, sympy.S.NegativeInfinity):
            return _Approach("oo" if point is sympy.oo else "-oo")
        return _Approach("right" if to[1] == "+" else "left", point)
    if isinstance(to, str):
        text = to.strip().replace(" ", "")
        if text in ("oo", "+oo"):
            return _Approach("oo")
        if text == "-oo":
            return _Approach("-oo")
        if len(text) >= 2 and text[-1] in "+-":
            point = _parse_point(text[:-1], f"to={to!r}")
            if point in (sympy.oo, sympy.S.NegativeInfinity):
                raise InvalidArgument(
                    f"to={abbreviated_repr(to)}: a side makes no sense at infinity; "
                    f"{abbreviated(hint)}"
                )
            return _Approach("right" if text[-1] == "+" else "left", point)
        raise InvalidArgument(f"to={abbreviated_repr(to)} is not one-sided; {abbreviated(hint)}")
    raise InvalidArgument(f"to={abbreviated_repr(to)} is not a limit point; {abbreviated(hint)}")


def _default_domain(parameter: sympy.Symbol) -> tuple[Scalar, Scalar]:
    if parameter.is_positive or parameter.is_nonnegative:
        return (Fraction(0), sympy.oo)
    if parameter.is_negative or parameter.is_nonpositive:
        return (sympy.S.NegativeInfinity, Fraction(0))
    return (sympy.S.NegativeInfinity, sympy.oo)


def _check_domain(
    parameter: sympy.Symbol, domain: object, approach: _Approach
) -> tuple[Scalar, Scalar]:
    if domain is None:
        lower, upper = _default_domain(parameter)
    else:
        if not isinstance(domain, (tuple, list)) or len(domain) != 2:
            raise InvalidArgument(
                f"domain={abbreviated_repr(domain)} must be a pair (lower, upper)"
            )
        lower = _parse_point(domain[0], "domain, lower end")
        upper = _parse_point(domain[1], "domain, upper end")
        if compare(lower, upper) >= 0:
            raise InvalidArgument(
                f"domain=({abbreviated(lower)}, {abbreviated(upper)}) of {parameter} is empty or "
                "reversed; "
                "the lower end must be less than the upper end"
            )
        if parameter.is_nonnegative and compare(lower, 0) < 0:
            raise InvalidArgument(
                f"domain=({abbreviated(lower)}, {abbreviated(upper)}) contains negative values, "
                f"but {parameter} is "
                "declared nonnegative"
            )
        if parameter.is_nonpositive and compare(upper, 0) > 0:
            raise InvalidArgument(
                f"domain=({abbreviated(lower)}, {abbreviated(upper)}) contains positive values, "
                f"but {parameter} is "
                "declared nonpositive"
            )
    inside: bool
    if approach.kind == "oo":
        inside = upper is sympy.oo
    elif approach.kind == "-oo":
        inside = lower is sympy.S.NegativeInfinity
    elif approach.kind == "right":
        inside = compare(lower, approach.point) <= 0 and compare(approach.point, upper) < 0
    else:
        inside = compare(lower, approach.point) < 0 and compare(approach.point, upper) <= 0
    if not inside:
        raise InvalidArgument(
            f"the limit point {approach.describe()} cannot be approached from inside the "
            f"domain ({abbreviated(lower)}, {abbreviated(upper)}) of {parameter}"
        )
    if approach.kind in ("right", "left") and approach.point == 0:
        needed = "positive" if approach.kind == "right" else "negative"
        if not getattr(parameter, f"is_{needed}"):
            raise InvalidArgument(
                f"a limit {approach.describe()} needs {parameter} declared {abbreviated(needed)}, "
                "e.g. "
                f"sympy.Symbol('{parameter}', {abbreviated(needed)}=True)"
            )
    return lower, upper


# --- the rational fast path ------------------------------------------------------------------


class _NotRational(Exception):
    """The expression is not a rational function of the parameter (use the fallback)."""


class _Backend(Generic[_P]):
    """Polynomials in the (shifted) parameter, with sign decisions on their coefficients."""

    def const(self, value: Fraction) -> _P:
        raise NotImplementedError

    def hoisted(self, node: sympy.Basic) -> _P:
        raise _NotRational  # pragma: no cover - only the ring backend hoists

    def variable(self, approach: _Approach) -> _P:
        raise NotImplementedError

    def is_zero(self, poly: _P) -> bool:
        raise NotImplementedError

    def leading(self, poly: _P, approach: _Approach) -> tuple[int, Scalar]:
        """(order, coefficient) with ``poly ~ coefficient * s^order`` as ``s -> 0+``."""
        raise NotImplementedError


class _FlintBackend(_Backend[fmpq_poly]):
    def const(self, value: Fraction) -> fmpq_poly:
        return fmpq_poly([fmpq(value.numerator, value.denominator)])

    def variable(self, approach: _Approach) -> fmpq_poly:
        if approach.kind in ("oo", "-oo"):
            return fmpq_poly([0, 1])
        assert isinstance(approach.point, Fraction)
        c = fmpq(approach.point.numerator, approach.point.denominator)
        return fmpq_poly([c, 1 if approach.kind == "right" else -1])

    def is_zero(self, poly: fmpq_poly) -> bool:
        return bool(poly.is_zero())

    def leading(self, poly: fmpq_poly, approach: _Approach) -> tuple[int, Scalar]:
        coefficients = poly.coeffs()
        if approach.kind in ("oo", "-oo"):
            degree = len(coefficients) - 1
            top = _fraction(coefficients[-1])
            return (-degree, -top if approach.kind == "-oo" and degree % 2 else top)
        for order, coefficient in enumerate(coefficients):
            if coefficient != 0:
                return (order, _fraction(coefficient))
        raise AssertionError("leading term of the zero polynomial")  # pragma: no cover


def _fraction(value: fmpq) -> Fraction:
    return Fraction(int(value.p), int(value.q))


class _RingBackend(_Backend[PolyElement]):
    """QQ[t, d1, ..., dm], the d's standing for the t-free sub-expressions (back-substituted
    before any zero or sign decision, since they need not be algebraically independent)."""

    def __init__(self, hoisted: Sequence[sympy.Basic]):
        self._symbols = [sympy.Dummy(f"c{i}") for i in range(len(hoisted))]
        self._ring, *gens = ring(["s", *[str(d) for d in self._symbols]], sympy.QQ)
        self._s = gens[0]
        self._gens = dict(zip(hoisted, gens[1:], strict=True))
        self._back = dict(zip(self._symbols, hoisted, strict=True))

    def const(self, value: Fraction) -> PolyElement:
        return self._ring(sympy.QQ(value.numerator, value.denominator))

    def hoisted(self, node: sympy.Basic) -> PolyElement:
        return self._gens[node]

    def variable(self, approach: _Approach) -> PolyElement:
        if approach.kind in ("oo", "-oo"):
            return self._s
        assert isinstance(approach.point, Fraction)
        shift = self.const(approach.point)
        return shift + self._s if approach.kind == "right" else shift - self._s

    def is_zero(self, poly: PolyElement) -> bool:
        return not poly

    def to_expr(self, poly: PolyElement) -> sympy.Expr:
        coefficient_only = poly.as_expr(sympy.S.Zero, *self._symbols)
        return coefficient_only.xreplace(self._back)

    def leading(self, poly: PolyElement, approach: _Approach) -> tuple[int, Scalar]:
        s = self._s
        degrees = range(poly.tail_degree(s), poly.degree(s) + 1)
        if approach.kind in ("oo", "-oo"):
            degrees = range(poly.degree(s), poly.tail_degree(s) - 1, -1)
        for degree in degrees:
            group = poly.coeff_wrt(s, degree)
            if not group:
                continue
            coefficient = self.to_expr(group)
            if not _is_nonzero(coefficient):
                continue  # zero after back-substitution: the d's were dependent
            if approach.kind == "oo":
                return (-degree, as_scalar(coefficient))
            if approach.kind == "-oo":
                flipped = -coefficient if degree % 2 else coefficient
                return (-degree, as_scalar(flipped))
            return (degree, as_scalar(coefficient))
        raise _ZeroAfterAll


class _ZeroAfterAll(Exception):
    """Every coefficient vanished after back-substitution: the polynomial is zero."""


class _SignUnknown(Exception):
    def __init__(self, expression: sympy.Basic, what: str):
        super().__init__(what)
        self.expression = expression
        self.what = what


def _is_nonzero(expr: sympy.Expr) -> bool:
    """Whether a ``t``-free coefficient is nonzero, proved; raises ``_SignUnknown`` if unsure."""
    return _decide_sign(expr, what=f"whether the coefficient {_short(expr)} is zero") != 0


def _decide_sign(value: Scalar, *, what: str) -> int:
    """Certified sign of a ``t``-free coefficient; raises ``_SignUnknown`` if undecidable."""
    if isinstance(value, Fraction):
        return (value > 0) - (value < 0)
    expr = to_sympy(value)
    if not expr.free_symbols:
        try:
            return sign(expr)
        except Undecided as error:
            raise _SignUnknown(expr, what) from error
    known = _symbolic_sign(expr)
    if known is None:
        raise _SignUnknown(expr, what)
    return known


class _NumberUndecided(Exception):
    pass


def _with_certified_numbers(expr: sympy.Basic) -> sympy.Basic:
    """``expr`` with each maximal closed non-rational part replaced by 0 or by a symbol of its
    certified sign, so that sympy's assumptions reason structurally (on closed numbers they
    fall back to a 2-digit ``evalf``, see :mod:`exactpml.certify`)."""
    replaced: dict[sympy.Basic, sympy.Basic] = {}

    def visit(node: sympy.Basic) -> sympy.Basic:
        if isinstance(node, sympy.Rational) or (not node.args and node.free_symbols):
            return node
        if not node.free_symbols:
            if node not in replaced:
                try:
                    found = sign(node)
                except Undecided as error:
                    raise _NumberUndecided from error
                replaced[node] = (
                    sympy.S.Zero
                    if found == 0
                    else sympy.Dummy("c", positive=True)
                    if found > 0
                    else sympy.Dummy("c", negative=True)
                )
            return replaced[node]
        return node.func(*(visit(arg) for arg in node.args))

    return visit(expr)


def _structural_sign(expr: sympy.Basic) -> int | None:
    if expr.is_zero:
        return 0
    if expr.is_positive:
        return 1
    if expr.is_negative:
        return -1
    return None


def _exponentials_as_powers(expr: sympy.Basic) -> dict[sympy.Basic, sympy.Basic]:
    """Write ``exp(c m)`` (rational ``c``, ``m`` of known sign) as ``B^k`` with integer ``k``,
    ``B = exp(m/L) = 1 + u`` (or ``1/(1 + u)``) and ``u > 0``, one ``B`` per ``m``: so
    ``exp(2 epsilon) - exp(epsilon)`` becomes ``(1+u)^2 - (1+u)``, whose sign sympy reads."""
    groups: dict[sympy.Basic, list[tuple[sympy.Basic, sympy.Rational]]] = {}
    for node in expr.atoms(sympy.exp):
        coefficient, rest = node.args[0].as_coeff_Mul()
        if rest.is_positive or rest.is_negative:
            groups.setdefault(rest, []).append((node, sympy.Rational(coefficient)))
    mapping: dict[sympy.Basic, sympy.Basic] = {}
    for rest, members in groups.items():
        common = math.lcm(*(int(c.q) for _, c in members))
        u = sympy.Dummy("u", positive=True)
        base = 1 + u if rest.is_positive else 1 / (1 + u)
        for node, coefficient in members:
            mapping[node] = base ** int(coefficient * common)
    return mapping


def _symbolic_sign(expr: sympy.Expr) -> int | None:
    """Sign of a ``t``-free expression with free symbols (e.g. ``epsilon``), or ``None``.

    Closed parts are signed by certified numerics, the rest by sympy's symbolic assumptions.
    sympy does not know that ``exp(a) > 1`` for ``a > 0``; so a second attempt writes
    ``exp(a) = 1 + u`` (``a > 0``) or ``1/(1 + u)`` (``a < 0``) with ``u > 0`` and reads the
    signs of the expanded numerator and denominator (``exp(epsilon) - 1`` becomes ``u``).
    A zero that neither attempt sees is proved by exact simplification, or ``None``.
    """
    try:
        structural = _with_certified_numbers(expr)
    except _NumberUndecided:
        return None
    known = _structural_sign(structural)
    if known is not None:
        return known
    mapping = _exponentials_as_powers(structural)
    if mapping:
        together = sympy.together(structural.xreplace(mapping))
        numerator, denominator = sympy.fraction(together)
        top = _structural_sign(sympy.expand(numerator))
        bottom = _structural_sign(sympy.expand(denominator))
        if top is not None and bottom:
            return top * bottom
    if proves_zero(expr):
        return 0
    return None


@dataclass(frozen=True, slots=True)
class _Germ(Generic[_P]):
    """The rational function ``numerator / denominator`` of the shifted parameter."""

    numerator: _P
    denominator: _P


class _GermBuilder(Generic[_P]):
    def __init__(self, backend: _Backend[_P], parameter: sympy.Symbol, approach: _Approach):
        self._backend = backend
        self._parameter = parameter
        self._approach = approach
        self._one = backend.const(Fraction(1))
        self._cache: dict[sympy.Basic, _Germ[_P]] = {}

    def build(self, node: sympy.Basic) -> _Germ[_P]:
        cached = self._cache.get(node)
        if cached is None:
            cached = self._build(node)
            self._cache[node] = cached
        return cached

    def _build(self, node: sympy.Basic) -> _Germ[_P]:
        backend = self._backend
        if isinstance(node, sympy.Rational):
            return _Germ(backend.const(Fraction(int(node.p), int(node.q))), self._one)
        if node == self._parameter:
            return _Germ(backend.variable(self._approach), self._one)
        if not node.has(self._parameter):
            return _Germ(backend.hoisted(node), self._one)
        if isinstance(node, sympy.Add):
            terms = [self.build(arg) for arg in node.args]
            total = terms[0]
            for term in terms[1:]:
                total = self._add(total, term)
            return total
        if isinstance(node, sympy.Mul):
            numerator, denominator = self._one, self._one
            for factor in node.args:
                germ = self.build(factor)
                numerator = numerator * germ.numerator  # type: ignore[operator]
                denominator = denominator * germ.denominator  # type: ignore[operator]
            return _Germ(numerator, denominator)
        if isinstance(node, sympy.Pow) and isinstance(node.exp, sympy.Integer):
            germ = self.build(node.base)
            power = int(node.exp)
            if power < 0:
                if backend.is_zero(germ.numerator):
                    raise InvalidArgument(
                        f"{_short(node)} divides by {_short(node.base)}, which is identically 0"
                    )
                germ, power = _Germ(germ.denominator, germ.numerator), -power
            return _Germ(germ.numerator**power, germ.denominator**power)  # type: ignore[operator]
        if isinstance(node, (sympy.Max, sympy.Min)):
            germs = [self.build(arg) for arg in node.args]
            best = germs[0]
            wanted = 1 if isinstance(node, sympy.Max) else -1
            for germ in germs[1:]:
                if self.eventual_sign(self._sub(germ, best)) == wanted:
                    best = germ
            return best
        if isinstance(node, sympy.Abs):
            germ = self.build(node.args[0])
            if self.eventual_sign(germ) < 0:
                return _Germ(-germ.numerator, germ.denominator)  # type: ignore[operator]
            return germ
        raise _NotRational

    def _add(self, a: _Germ[_P], b: _Germ[_P]) -> _Germ[_P]:
        if a.denominator == b.denominator:
            return _Germ(a.numerator + b.numerator, a.denominator)  # type: ignore[operator]
        numerator = a.numerator * b.denominator + b.numerator * a.denominator  # type: ignore[operator]
        return _Germ(numerator, a.denominator * b.denominator)  # type: ignore[operator]

    def _sub(self, a: _Germ[_P], b: _Germ[_P]) -> _Germ[_P]:
        return self._add(a, _Germ(-b.numerator, b.denominator))  # type: ignore[operator]

    def leading(self, poly: _P) -> tuple[int, Scalar] | None:
        """``None`` for the zero polynomial."""
        if self._backend.is_zero(poly):
            return None
        try:
            return self._backend.leading(poly, self._approach)
        except _ZeroAfterAll:
            return None

    def eventual_sign(self, germ: _Germ[_P]) -> int:
        """The sign the germ keeps on a one-sided neighbourhood of the limit point."""
        top = self.leading(germ.numerator)
        if top is None:
            return 0
        bottom = self.leading(germ.denominator)
        if bottom is None:
            raise InvalidArgument(
                f"a denominator of the expression in {abbreviated(self._parameter)} is 0"
            )
        what = "a leading coefficient"
        return _decide_sign(top[1], what=what) * _decide_sign(bottom[1], what=what)

    def limit(self, germ: _Germ[_P]) -> Scalar:
        top = self.leading(germ.numerator)
        bottom = self.leading(germ.denominator)
        if bottom is None:
            raise InvalidArgument(
                f"the denominator of the expression is identically 0 near "
                f"{abbreviated(self._parameter)} -> {self._approach.describe()}"
            )
        if top is None:
            return Fraction(0)
        (top_order, top_coefficient), (bottom_order, bottom_coefficient) = top, bottom
        if top_order > bottom_order:
            return Fraction(0)
        ratio = _divide(top_coefficient, bottom_coefficient)
        if top_order == bottom_order:
            return ratio
        direction = _decide_sign(ratio, what=f"the leading ratio {_short(ratio)}")
        return sympy.oo if direction > 0 else sympy.S.NegativeInfinity


def _divide(a: Scalar, b: Scalar) -> Scalar:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a / b
    quotient = to_sympy(a) / to_sympy(b)
    cancelled = sympy.cancel(quotient)
    return as_scalar(min(quotient, cancelled, key=sympy.count_ops))


def _resolve_constant_extrema(expr: sympy.Basic, parameter: sympy.Symbol) -> sympy.Basic:
    """Replace each ``parameter``-free ``Max``/``Min`` whose order is decidable by its winner
    (so that a randomized-response limit reads ``exp(epsilon)``, not a ``Max`` of terms)."""
    mapping: dict[sympy.Basic, sympy.Basic] = {}
    for node in sympy.preorder_traversal(expr):
        if not isinstance(node, (sympy.Max, sympy.Min)) or node.has(parameter):
            continue
        wanted = 1 if isinstance(node, sympy.Max) else -1
        best = node.args[0]
        try:
            for arg in node.args[1:]:
                if _decide_sign(arg - best, what="") == wanted:
                    best = arg
        except _SignUnknown:
            continue
        mapping[node] = best
    return expr.xreplace(mapping) if mapping else expr


def _hoistable(expr: sympy.Basic, parameter: sympy.Symbol) -> list[sympy.Basic]:
    """Maximal sub-expressions free of ``parameter`` that are not rational numbers."""
    found: dict[sympy.Basic, None] = {}

    def visit(node: sympy.Basic) -> None:
        if isinstance(node, sympy.Rational) or node == parameter:
            return
        if not node.has(parameter):
            found[node] = None
            return
        for arg in node.args:
            visit(arg)

    visit(expr)
    return list(found)


def _rational_limit(expr: sympy.Basic, parameter: sympy.Symbol, approach: _Approach) -> Scalar:
    """Raises ``_NotRational`` or ``_SignUnknown`` when the fast path does not apply."""
    if isinstance(expr, (sympy.log, sympy.exp)):
        inner = _rational_limit(expr.args[0], parameter, approach)
        return _continuous(expr.func, inner, expr)
    expr = _resolve_constant_extrema(expr, parameter)
    hoisted = _hoistable(expr, parameter)
    finite_point = approach.kind in ("right", "left")
    if finite_point and not isinstance(approach.point, Fraction):
        raise _NotRational
    backend: _Backend[Any] = _RingBackend(hoisted) if hoisted else _FlintBackend()
    builder: _GermBuilder[Any] = _GermBuilder(backend, parameter, approach)
    return builder.limit(builder.build(expr))


def _continuous(func: Callable[..., sympy.Expr], inner: Scalar, node: sympy.Basic) -> Scalar:
    if func is sympy.exp:
        if inner is sympy.oo:
            return sympy.oo
        if inner is sympy.S.NegativeInfinity:
            return Fraction(0)
        return as_scalar(sympy.exp(to_sympy(inner)))
    if inner is sympy.oo:
        return sympy.oo
    if inner is not sympy.S.NegativeInfinity and _decide_sign(inner, what=str(node)) > 0:
        return as_scalar(sympy.log(to_sympy(inner)))
    raise _NotRational  # log near 0 or of a negative limit: leave it to sympy


# --- the sympy fallback ----------------------------------------------------------------------


def _sympy_limit(expr: sympy.Basic, parameter: sympy.Symbol, approach: _Approach) -> Scalar:
    """``sympy.limit``; ``Max``/``Min`` are first rewritten as ``Piecewise`` (which Gruntz's
    algorithm handles, while on ``Max`` of functions of ``t`` sympy 1.14 raises
    ``NotImplementedError``)."""
    if approach.kind in ("oo", "-oo"):
        point: sympy.Basic = sympy.oo if approach.kind == "oo" else sympy.S.NegativeInfinity
        direction = "-" if approach.kind == "oo" else "+"
    else:
        point = to_sympy(approach.point)
        direction = "+" if approach.kind == "right" else "-"
    where = f"{_short(expr)} as {parameter} -> {approach.describe()}"
    target = _resolve_constant_extrema(expr, parameter)
    extrema = {
        node: node.rewrite(sympy.Piecewise)
        for node in sympy.preorder_traversal(target)
        if isinstance(node, (sympy.Max, sympy.Min)) and node.has(parameter)
    }
    target = target.xreplace(extrema) if extrema else target
    try:
        result = sympy.limit(target, parameter, point, direction)
    except Exception as error:  # sympy raises many kinds; report one clear Undecided
        raise Undecided(
            f"sympy.limit failed on {where}: {type(error).__name__}: {abbreviated(error)}",
            expression=expr,
        ) from error
    if (
        not isinstance(result, sympy.Basic)
        or result.has(sympy.Limit)
        or isinstance(result, AccumBounds)
        or result.has(AccumBounds)
        or result.has(sympy.nan, sympy.zoo, sympy.I)
        or result.has(sympy.Float)
    ):
        raise Undecided(
            f"sympy.limit could not evaluate {where} (got {abbreviated(result)})", expression=expr
        )
    return as_scalar(result)


# --- public entry point ----------------------------------------------------------------------


def _validated(expr: object, parameter: sympy.Symbol) -> Scalar:
    """The exact value of ``expr``; ``parameter`` need only be real (it need not carry a sign)."""
    if isinstance(expr, sympy.Basic):
        check_expression(expr, where="limit", parameters=frozenset({parameter}))
        return as_scalar(expr)
    return exact(expr, where="limit")


def limit(
    expr: object,
    parameter: sympy.Symbol,
    to: object,
    *,
    domain: tuple[object, object] | None = None,
    method: Method = "auto",
) -> Scalar:
    """The exact one-sided limit of ``expr`` as ``parameter`` approaches ``to``.

    Args:
        expr: an exact value (sympy expression, ``Fraction``, ...) depending on
            ``parameter``; other symbols are constants and need sign assumptions.
        parameter: a real sympy ``Symbol``; declared ``positive=True`` for ``"0+"``.
        to: ``"0+"``, ``"oo"``, ``"-oo"``, ``"c+"`` / ``"c-"`` for a number ``c``
            (e.g. ``"1/2-"``), a pair ``(c, "+" | "-")``, or ``sympy.oo`` / ``-sympy.oo``.
        domain: the open interval ``(lower, upper)`` the parameter ranges over; by default
            ``(0, oo)`` for a positive symbol, ``(-oo, 0)`` for a negative one, else the real
            line.  The limit point must be approachable from inside it.
        method: ``"auto"`` (rational fast path, else ``sympy.limit``), ``"rational"``
            (fast path only) or ``"sympy"`` (``sympy.limit`` only).

    Returns:
        a ``Fraction`` when the limit is rational, a sympy expression otherwise, or
        ``sympy.oo`` / ``-sympy.oo``.

    Raises:
        InvalidArgument: bad parameter, limit point, domain or expression.
        Undecided: neither path could take the limit (never a guessed value).
    """
    if not isinstance(parameter, sympy.Symbol):
        raise InvalidArgument(f"parameter={parameter!r} must be a sympy Symbol")
    if parameter.is_extended_real is not True:
        raise InvalidArgument(
            f"parameter {parameter} must be declared real, e.g. "
            f"sympy.Symbol('{parameter}', positive=True)"
        )
    if method not in ("auto", "rational", "sympy"):
        raise InvalidArgument(f"method={method!r} must be 'auto', 'rational' or 'sympy'")
    approach = _parse_to(to)
    _check_domain(parameter, domain, approach)
    value = _validated(expr, parameter)
    if isinstance(value, Fraction) or not value.has(parameter):
        return value
    if value.has(sympy.oo, sympy.S.NegativeInfinity):
        raise InvalidArgument(f"limit: {_short(value)} contains an infinity")
    if method != "sympy":
        try:
            return _rational_limit(value, parameter, approach)
        except _NotRational as error:
            if method == "rational":
                raise Undecided(
                    f"{_short(value)} is not a rational function of {parameter} (with Max, "
                    "Min, Abs); use method='auto' to fall back to sympy.limit",
                    expression=value,
                ) from error
        except _SignUnknown as error:
            if method == "rational":
                raise Undecided(
                    f"cannot decide the sign of {abbreviated(error.what)} in {_short(value)} as "
                    f"{parameter} -> {approach.describe()}",
                    expression=error.expression,
                ) from error
    return _sympy_limit(value, parameter, approach)


_boundary.guard_public_names(globals())  # every public name behind its boundary
