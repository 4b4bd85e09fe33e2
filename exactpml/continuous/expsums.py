"""Piecewise sums of exponentials in an output y, and the exact supremum of their ratios.

Private engine of :mod:`exactpml.continuous`.  On each piece of its support a density (or
pmf) p(y|x) is ``exp(kappa y^2) * sum_k c_k exp(r_k y)`` with closed constants c_k >= 0,
r_k real, and one quadratic coefficient kappa shared by every row (0 for Laplace and
geometric noise, -1/(2 sigma^2) for Gaussian noise; it cancels from every ratio).  Every
leakage ratio is then ``N(y) / D(y)`` with N, D such sums, and on a piece:

* N a single term: N/D = 1 / G with G = sum_k d_k exp(s_k y), d_k > 0, which is convex, so
  N/D is unimodal: monotone when the relative rates s_k do not take both signs, with the
  closed-form critical point ``y* = log(-d_- s_- / (d_+ s_+)) / (s_+ - s_-)`` when one
  positive and one negative rate occur, and otherwise bracketed by certified bisection
  (certified bounds), or found exactly over the integers (a convex sequence);
* N and D with rates on a common lattice h Z: with v = exp(h y), N/D is a rational function
  of v whose derivative has the sign of R(v) = N'D - ND'; R of degree 0 means monotone (the
  Laplace entry leakage of Prop 4.6 is such a Moebius function of v), degree 1 or 2 gives
  closed-form critical points.

Everything is decided exactly or by :mod:`exactpml.certify`; what cannot be is reported as
bounds (real outputs) or ``Undecided``, never guessed.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy

from exactpml.core import certify
from exactpml.core.abbreviate import abbreviated
from exactpml.core.exact import Scalar, as_scalar, to_sympy
from exactpml.errors import InvalidArgument, Undecided
from exactpml.numerics.univariate import rational_bounds

__all__ = ["Candidate", "ExpSum", "Piece", "parse_pieces", "ratio_candidates"]

_NEG_OO = sympy.S.NegativeInfinity


def _short(expr: object, limit: int = 120) -> str:
    return abbreviated(expr, limit)  # a number of any size, in a few ms


def sign(value: object) -> int:
    """Certified sign of a closed value."""
    if isinstance(value, Fraction):
        return (value > 0) - (value < 0)
    return certify.sign(value)


def compare(a: object, b: object) -> int:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return (a > b) - (a < b)
    return certify.compare(a, b)


def _is_rational_exponential(expr: sympy.Basic) -> bool:
    """A rational, exp of a rational, or a rational times exp of a rational: what sympy's
    ``expand`` (and ``expand_log``) return unchanged."""
    if expr.is_Rational or expr is sympy.E:
        return True
    if isinstance(expr, sympy.exp):
        return bool(expr.args[0].is_Rational)
    if isinstance(expr, sympy.Mul) and len(expr.args) == 2:
        factor, power = expr.args
        return bool(factor.is_Rational) and (
            power is sympy.E or (isinstance(power, sympy.exp) and power.args[0].is_Rational)
        )
    return False


def _expand(expr: sympy.Expr) -> sympy.Expr:
    """``sympy.expand(expr)``, skipped where it changes nothing: the Laplace coefficients and
    rates of Prop 4.6 are rationals times exp of rationals (the expansions took ~0.05 s of
    ``pml.prop_4_6``'s sup over outputs)."""
    return expr if _is_rational_exponential(expr) else sympy.expand(expr)


def _normal_rate(rate: sympy.Expr) -> sympy.Expr:
    if rate.is_Rational:
        return rate
    return sympy.expand(sympy.expand_log(rate, force=True))


@dataclass(frozen=True, slots=True)
class ExpSum:
    """``sum_k coefficient_k * exp(rate_k * y)`` (coefficients >= 0, rates merged by form)."""

    terms: tuple[tuple[sympy.Expr, sympy.Expr], ...]

    @classmethod
    def of(cls, terms: Sequence[tuple[object, object]]) -> ExpSum:
        merged: dict[sympy.Expr, sympy.Expr] = {}
        for coefficient, rate in terms:
            c = (
                to_sympy(as_scalar(coefficient))
                if not isinstance(coefficient, sympy.Basic)
                else coefficient
            )
            r = _normal_rate(
                to_sympy(as_scalar(rate)) if not isinstance(rate, sympy.Basic) else rate
            )
            if c == 0:
                continue
            merged[r] = merged.get(r, sympy.S.Zero) + c
        return cls(tuple((c, r) for r, c in merged.items() if c != 0))

    def __add__(self, other: ExpSum) -> ExpSum:
        return ExpSum.of([*self.terms, *other.terms])

    def scaled(self, factor: object) -> ExpSum:
        f = to_sympy(as_scalar(factor)) if not isinstance(factor, sympy.Basic) else factor
        return ExpSum.of([(_expand(f * c), r) for c, r in self.terms])

    @property
    def is_zero(self) -> bool:
        return not self.terms

    def at(self, y: Scalar) -> sympy.Expr:
        """The exact value at a finite point."""
        point = to_sympy(y)
        return sympy.Add(*(c * sympy.exp(r * point) for c, r in self.terms))

    def derivative_at(self, y: Scalar) -> sympy.Expr:
        point = to_sympy(y)
        return sympy.Add(*(c * r * sympy.exp(r * point) for c, r in self.terms))

    def expression(self, variable: sympy.Symbol) -> sympy.Expr:
        return sympy.Add(*(c * sympy.exp(r * variable) for c, r in self.terms))

    def dominant(self, direction: int) -> tuple[sympy.Expr, sympy.Expr]:
        """The term with the largest rate (direction 1, y -> oo) or smallest (-1)."""
        best = self.terms[0]
        for term in self.terms[1:]:
            if direction * compare(term[1], best[1]) > 0:
                best = term
        return best


@dataclass(frozen=True, slots=True)
class Piece:
    """Rows on one piece of the support: the open interval (lower, upper) for real outputs
    (closure taken by continuity), or the integers lower..upper for lattice outputs."""

    lower: Scalar
    upper: Scalar
    rows: tuple[ExpSum, ...]

    def contains(self, y: Scalar) -> bool:
        """Whether ``y`` lies in the closed piece."""
        low = self.lower is _NEG_OO or compare(y, self.lower) >= 0
        high = self.upper is sympy.oo or compare(y, self.upper) <= 0
        return low and high


# --- parsing sympy expressions into pieces ----------------------------------------------------


def _linear_root(arg: sympy.Expr, y: sympy.Symbol, where: str) -> Fraction:
    poly = sympy.Poly(sympy.expand(arg), y)
    if poly.degree() != 1 or not all(c.is_Rational for c in poly.all_coeffs()):
        raise InvalidArgument(
            f"{where}: the kink {abbreviated(arg)} is not linear in {abbreviated(y)} with rational "
            "coefficients; only "
            "piecewise sums of exponentials are supported (Laplace, geometric, Gaussian)"
        )
    a, b = poly.all_coeffs()
    return as_scalar(-b / a)


def _breakpoints(expr: sympy.Expr, y: sympy.Symbol, where: str) -> set[Fraction]:
    found: set[Fraction] = set()
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, (sympy.Abs, sympy.Heaviside, sympy.sign)):
            if node.args[0].has(y):
                found.add(_linear_root(node.args[0], y, where))
        elif isinstance(node, sympy.Piecewise):
            for _, condition in node.args:
                for relation in sympy.preorder_traversal(condition):
                    if isinstance(relation, sympy.core.relational.Relational):
                        difference = relation.lhs - relation.rhs
                        if difference.has(y):
                            found.add(_linear_root(difference, y, where))
        elif isinstance(node, (sympy.Max, sympy.Min)) and node.has(y):
            raise InvalidArgument(
                f"{where}: write Max/Min of {abbreviated(y)} with Piecewise or Abs"
            )
    return found


def _resolve(expr: sympy.Expr, y: sympy.Symbol, probe: Fraction) -> sympy.Expr:
    """``expr`` on the piece containing ``probe``: kinks replaced by their branch there."""
    at = sympy.Rational(probe.numerator, probe.denominator)

    def visit(node: sympy.Basic) -> sympy.Basic:
        if not node.has(y) or not node.args:
            return node
        if isinstance(node, sympy.Abs):
            inner = visit(node.args[0])
            return inner if inner.subs(y, at) >= 0 else -inner
        if isinstance(node, sympy.sign):
            return sympy.sign(node.args[0].subs(y, at))
        if isinstance(node, sympy.Heaviside):
            return sympy.Heaviside(node.args[0].subs(y, at))
        if isinstance(node, sympy.Piecewise):
            for value, condition in node.args:
                if condition.subs(y, at) == sympy.true:
                    return visit(value)
            return sympy.nan
        return node.func(*(visit(arg) for arg in node.args))

    return visit(expr)


def _terms(
    expr: sympy.Expr, y: sympy.Symbol, where: str
) -> tuple[list[tuple[sympy.Expr, sympy.Expr]], Fraction]:
    """``expr`` as terms (coefficient, rate) and its quadratic coefficient kappa."""
    if expr.has(sympy.nan):
        raise InvalidArgument(f"{where}: no branch of the Piecewise applies on part of the support")
    expanded = sympy.expand(expr, power_exp=True, mul=True, log=False)
    terms: list[tuple[sympy.Expr, sympy.Expr]] = []
    quadratic: Fraction | None = None
    for term in sympy.Add.make_args(expanded):
        if term == 0:
            continue
        coefficient, dependent = term.as_independent(y, as_Add=False)
        exponent = sympy.S.Zero
        for factor in sympy.Mul.make_args(dependent):
            if factor == 1:
                continue
            if isinstance(factor, sympy.exp):
                exponent += factor.args[0]
            elif isinstance(factor, sympy.Pow) and not factor.base.has(y):
                exponent += factor.exp * sympy.log(factor.base)
            elif (
                isinstance(factor, sympy.Pow)
                and isinstance(factor.base, sympy.exp)
                and not factor.exp.has(y)
            ):
                exponent += factor.base.args[0] * factor.exp
            else:
                raise InvalidArgument(
                    f"{where}: the factor {abbreviated(factor)} is not an exponential of a "
                    f"polynomial in {abbreviated(y)}; "
                    "only piecewise sums of exponentials are supported"
                )
        poly = sympy.Poly(sympy.expand(sympy.expand_log(exponent, force=True)), y)
        if poly.degree() > 2:
            raise InvalidArgument(
                f"{where}: the exponent {abbreviated(exponent)} has degree > 2 in {abbreviated(y)}"
            )
        coefficients = poly.all_coeffs()[::-1] + [sympy.S.Zero] * 3
        constant, rate, square = coefficients[0], coefficients[1], coefficients[2]
        if not square.is_Rational:
            raise InvalidArgument(
                f"{where}: the coefficient of {abbreviated(y)}^2 must be rational, got "
                f"{abbreviated(square)}"
            )
        kappa = Fraction(int(square.p), int(square.q))
        if quadratic is None:
            quadratic = kappa
        elif quadratic != kappa:
            raise InvalidArgument(
                f"{where}: the terms have different coefficients of {abbreviated(y)}^2"
            )
        terms.append((sympy.expand(coefficient * sympy.exp(constant)), rate))
    return terms, quadratic if quadratic is not None else Fraction(0)


def parse_pieces(
    rows: Sequence[sympy.Expr],
    y: sympy.Symbol,
    *,
    lattice: bool,
    names: Sequence[str],
    naturals: bool = False,
) -> tuple[list[Piece], Fraction]:
    """Split the rows' common support into pieces and write each row on each piece."""
    cuts: set[Fraction] = set()
    for row, name in zip(rows, names, strict=True):
        cuts |= _breakpoints(row, y, name)
    ordered = sorted(cuts)
    ranges: list[tuple[Scalar, Scalar, Fraction]] = []  # (lower, upper, probe)
    if lattice:
        points = sorted({math.floor(c) for c in ordered} | {math.ceil(c) for c in ordered})
        if not points:
            ranges.append((_NEG_OO, sympy.oo, Fraction(0)))
        else:
            ranges.append((_NEG_OO, Fraction(points[0] - 1), Fraction(points[0] - 1)))
            for index, point in enumerate(points):
                ranges.append((Fraction(point), Fraction(point), Fraction(point)))
                following = points[index + 1] if index + 1 < len(points) else None
                if following is None:
                    ranges.append((Fraction(point + 1), sympy.oo, Fraction(point + 1)))
                elif following > point + 1:
                    ranges.append(
                        (Fraction(point + 1), Fraction(following - 1), Fraction(point + 1))
                    )
        if naturals:
            ranges = [
                (
                    max(low, Fraction(0)) if low is not _NEG_OO else Fraction(0),
                    high,
                    max(probe, Fraction(0)),
                )
                for low, high, probe in ranges
                if high is sympy.oo or high >= 0
            ]
    else:
        bounds: list[Scalar] = [_NEG_OO, *ordered, sympy.oo]
        for low, high in itertools.pairwise(bounds):
            if low is _NEG_OO and high is sympy.oo:
                probe = Fraction(0)
            elif low is _NEG_OO:
                probe = high - 1
            elif high is sympy.oo:
                probe = low + 1
            else:
                probe = (low + high) / 2
            ranges.append((low, high, probe))
    pieces: list[Piece] = []
    quadratic: Fraction | None = None
    for low, high, probe in ranges:
        sums = []
        seen: dict[sympy.Expr, ExpSum] = {}  # equal rows (e.g. databases with equal counts)
        for row, name in zip(rows, names, strict=True):
            if row in seen:
                sums.append(seen[row])
                continue
            terms, kappa = _terms(_resolve(row, y, probe), y, name)
            if terms and quadratic is not None and kappa != quadratic:
                raise InvalidArgument(
                    f"{name}: the rows have different coefficients of {abbreviated(y)}^2"
                )
            if terms:
                quadratic = kappa
            seen[row] = ExpSum.of(terms)
            sums.append(seen[row])
        pieces.append(Piece(low, high, tuple(sums)))
    return pieces, quadratic if quadratic is not None else Fraction(0)


# --- suprema of ratios on a piece ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Candidate:
    """A candidate for the supremum of a ratio: its value (closed, or oo), where it is taken
    (``at``: a point of the support) or approached (``direction``: +1 / -1 for y -> +-oo)."""

    value: Scalar
    at: Scalar | None = None
    direction: int = 0
    upper: Scalar | None = None  # a certified upper bound when the value is only a lower one


def _ratio_at(numerator: ExpSum, denominator: ExpSum, y: Scalar) -> Scalar:
    return as_scalar(numerator.at(y) / denominator.at(y))


def _limit(numerator: ExpSum, denominator: ExpSum, direction: int) -> Scalar:
    """lim N/D as y -> direction * oo: the ratio of the dominant terms (exact)."""
    top_c, top_r = numerator.dominant(direction)
    bottom_c, bottom_r = denominator.dominant(direction)
    order = direction * compare(top_r, bottom_r)
    if order > 0:
        return sympy.oo
    if order < 0:
        return Fraction(0)
    return as_scalar(sympy.simplify(top_c / bottom_c))


def _ends(
    numerator: ExpSum, denominator: ExpSum, piece: Piece, *, lattice: bool, limits: bool = True
) -> list[Candidate]:
    found: list[Candidate] = []
    for end, direction in ((piece.lower, -1), (piece.upper, 1)):
        if end is sympy.oo or end is _NEG_OO:
            if limits:
                limit = _limit(numerator, denominator, direction)
                found.append(Candidate(limit, direction=direction))
        else:
            found.append(Candidate(_ratio_at(numerator, denominator, end), at=end))
    return found


def _inside(y: Scalar, piece: Piece) -> bool:
    low = piece.lower is _NEG_OO or compare(y, piece.lower) > 0
    high = piece.upper is sympy.oo or compare(y, piece.upper) < 0
    return low and high


def _integers_near(y: Scalar, piece: Piece) -> list[Fraction]:
    """floor(y) and ceil(y) (from exact rational bounds on y), those inside the piece."""
    low, high = rational_bounds(y, 128) if not isinstance(y, Fraction) else (y, y)
    result = []
    for k in range(math.floor(low), math.ceil(high) + 1):
        point = Fraction(k)
        if piece.contains(point):
            result.append(point)
    return result


def ratio_candidates(
    numerator: ExpSum,
    denominator: ExpSum,
    piece: Piece,
    *,
    lattice: bool,
    unobserved: Scalar = Fraction(1),
    limits: bool = True,
) -> list[Candidate]:
    """Candidates whose largest is the supremum of N/D on the piece (see the module doc).

    Where D vanishes on the whole piece (p_Y(y) = 0) the value is ``unobserved`` -- by
    footnote 5 the posterior is the prior there, so a PML ratio is 1.  ``limits=False``
    leaves out the limits at an unbounded end (a caller that knows them: their exact form
    costs a ``simplify``)."""
    if denominator.is_zero:
        return [Candidate(unobserved, at=_some_point(piece))]
    if numerator.is_zero:
        return [Candidate(Fraction(0), at=_some_point(piece))]
    candidates = _ends(numerator, denominator, piece, lattice=lattice, limits=limits)
    if len(numerator.terms) == 1:
        candidates.extend(_single_term(numerator, denominator, piece, lattice=lattice))
    else:
        candidates.extend(_lattice_of_rates(numerator, denominator, piece, lattice=lattice))
    return candidates


def _some_point(piece: Piece) -> Fraction:
    if piece.lower is not _NEG_OO:
        return piece.lower
    if piece.upper is not sympy.oo:
        return piece.upper
    return Fraction(0)


def _single_term(
    numerator: ExpSum, denominator: ExpSum, piece: Piece, *, lattice: bool
) -> list[Candidate]:
    """N = c e^{a y}: N/D = 1/G, G = sum_k (d_k/c) e^{(b_k - a) y} convex."""
    ((c, a),) = numerator.terms
    relative = ExpSum.of([(_expand(d / c), _expand(b - a)) for d, b in denominator.terms])
    positive = [(d, s) for d, s in relative.terms if sign(s) > 0]
    negative = [(d, s) for d, s in relative.terms if sign(s) < 0]
    if not positive or not negative:
        return []  # monotone: the ends are the candidates
    if len(positive) == 1 and len(negative) == 1:
        (dp, sp), (dm, sm) = positive[0], negative[0]
        critical = sympy.log(-dm * sm / (dp * sp)) / (sp - sm)
        critical_value = as_scalar(sympy.simplify(critical))
        if lattice:
            return [
                Candidate(_ratio_at(numerator, denominator, k), at=k)
                for k in _integers_near(critical_value, piece)
            ]
        if _inside(critical_value, piece):
            return [Candidate(_ratio_at(numerator, denominator, critical_value), at=critical_value)]
        return []
    if lattice:
        return _convex_integer_minimum(numerator, denominator, relative, piece)
    return [_bracketed(numerator, denominator, relative, piece)]


def _convex_integer_minimum(
    numerator: ExpSum, denominator: ExpSum, convex: ExpSum, piece: Piece
) -> list[Candidate]:
    """The integer minimiser of the convex G on the piece, exactly: the least k with
    G(k + 1) - G(k) >= 0 (found by doubling, then bisection)."""

    def rising(k: int) -> bool:
        return sign(convex.at(Fraction(k + 1)) - convex.at(Fraction(k))) >= 0

    low = int(piece.lower) if piece.lower is not _NEG_OO else None
    high = int(piece.upper) if piece.upper is not sympy.oo else None
    start = low if low is not None else (high if high is not None else 0)
    if rising(start):
        step = 1
        while low is None or start - step >= low:
            if not rising(start - step):
                left, right = start - step, start
                break
            step *= 2
        else:
            left, right = low - 1, start
    else:
        step = 1
        while high is None or start + step < high:
            if rising(start + step):
                left, right = start, start + step
                break
            step *= 2
        else:
            best = Fraction(high) if high is not None else Fraction(start)
            return [Candidate(_ratio_at(numerator, denominator, best), at=best)]
    while right - left > 1:  # invariant: not rising(left) (or left below the piece), rising(right)
        middle = (left + right) // 2
        if rising(middle):
            right = middle
        else:
            left = middle
    point = Fraction(right)
    return [Candidate(_ratio_at(numerator, denominator, point), at=point)]


def _bracketed(
    numerator: ExpSum, denominator: ExpSum, convex: ExpSum, piece: Piece, *, steps: int = 40
) -> Candidate:
    """Certified bounds on max 1/G over a real piece by bisection on the sign of G'."""
    low = piece.lower if isinstance(piece.lower, Fraction) else None
    high = piece.upper if isinstance(piece.upper, Fraction) else None
    # bracket the minimiser of G: G' < 0 at left, > 0 at right
    left = low if low is not None else Fraction(-1)
    while low is None and sign(convex.derivative_at(left)) >= 0:
        left *= 2
    right = high if high is not None else Fraction(1)
    while high is None and sign(convex.derivative_at(right)) <= 0:
        right *= 2
    if sign(convex.derivative_at(left)) >= 0:
        return Candidate(_ratio_at(numerator, denominator, left), at=left)
    if sign(convex.derivative_at(right)) <= 0:
        return Candidate(_ratio_at(numerator, denominator, right), at=right)
    for _ in range(steps):
        middle = (left + right) / 2
        slope = sign(convex.derivative_at(middle))
        if slope == 0:
            return Candidate(_ratio_at(numerator, denominator, middle), at=middle)
        if slope < 0:
            left = middle
        else:
            right = middle
    best = max(
        (left, right),
        key=lambda p: certify.enclosure(_ratio_at(numerator, denominator, p), 64).mid(),
    )
    value = _ratio_at(numerator, denominator, best)
    # G >= its tangent at ``left``, which decreases on [left, right]:
    # G >= G(left) + G'(left) (right - left) there
    floor = convex.at(left) + convex.derivative_at(left) * to_sympy(right - left)
    if sign(floor) <= 0:
        raise Undecided(
            f"cannot bound 1/({_short(convex.expression(sympy.Symbol('y')))}) on the piece"
        )
    return Candidate(value, at=best, upper=as_scalar(1 / floor))


def _lattice_of_rates(
    numerator: ExpSum, denominator: ExpSum, piece: Piece, *, lattice: bool
) -> list[Candidate]:
    """N, D with all rates in h Z: the critical points of the rational function of v = e^{h y}."""
    rates = [r for _, r in (*numerator.terms, *denominator.terms)]
    base = next((r for r in rates if r != 0), None)
    if base is None:
        return []
    multiples: list[Fraction] = []
    for rate in rates:
        ratio = sympy.simplify(rate / base)
        if not ratio.is_Rational:
            raise Undecided(
                f"the rates {abbreviated(base)} and {abbreviated(rate)} are not commensurable; the "
                "supremum of this ratio "
                "of exponential sums is not supported",
                expression=rate,
            )
        multiples.append(Fraction(int(ratio.p), int(ratio.q)))
    scale = math.lcm(*(m.denominator for m in multiples))
    step = base / scale  # every rate is an integer multiple of step
    if sign(step) < 0:
        step = -step
    v = sympy.Symbol("v", positive=True)

    def as_poly(part: ExpSum) -> dict[int, sympy.Expr]:
        table: dict[int, sympy.Expr] = {}
        for c, r in part.terms:
            k = sympy.simplify(r / step)
            table[int(k)] = table.get(int(k), sympy.S.Zero) + c
        return table

    top, bottom = as_poly(numerator), as_poly(denominator)
    shift = min(min(top), min(bottom))
    n_expr = sympy.Add(*(c * v ** (k - shift) for k, c in top.items()))
    d_expr = sympy.Add(*(c * v ** (k - shift) for k, c in bottom.items()))
    slope = sympy.Poly(
        sympy.expand(sympy.diff(n_expr, v) * d_expr - n_expr * sympy.diff(d_expr, v)), v
    )
    coefficients = [_expand(c) for c in reversed(slope.all_coeffs())]  # constant first
    significant = [(k, c) for k, c in enumerate(coefficients) if sign(c) != 0]
    if not significant:
        return []  # constant
    lowest = significant[0][0]
    reduced = {k - lowest: c for k, c in significant}
    degree = max(reduced)
    if degree == 0:
        return []  # monotone on the piece: the ends are the candidates
    roots: list[sympy.Expr] = []
    if degree == 1:
        roots = [-reduced.get(0, 0) / reduced[1]]
    elif degree == 2:
        a2, a1, a0 = reduced[2], reduced.get(1, sympy.S.Zero), reduced.get(0, sympy.S.Zero)
        discriminant = sympy.expand(a1**2 - 4 * a2 * a0)
        if sign(discriminant) >= 0:
            root = sympy.sqrt(discriminant)
            roots = [(-a1 + root) / (2 * a2), (-a1 - root) / (2 * a2)]
    else:
        raise Undecided(
            f"the derivative of this ratio of exponential sums has degree {abbreviated(degree)} in "
            f"exp({abbreviated(step)} y); only degrees up to 2 are solved exactly",
        )
    found: list[Candidate] = []
    for root in roots:
        if sign(root) <= 0:
            continue
        critical = as_scalar(sympy.simplify(sympy.log(root) / step))
        if lattice:
            for k in _integers_near(critical, piece):
                found.append(Candidate(_ratio_at(numerator, denominator, k), at=k))
        elif _inside(critical, piece):
            found.append(Candidate(_ratio_at(numerator, denominator, critical), at=critical))
    return found
