"""The Laplace mechanism on a counting query (Saeidian et al., §4.1, Prop 4.6, App. B.3).

X = (D_1, ..., D_n) i.i.d. with P(f(D_i) = 1) = p; the mechanism releases
Y ~ Lap(S/n, b) with S the number of entries satisfying f.  Since Y sees D_i only through
B_i = f(D_i), take the database binary (App. B.3).  With w = e^{1/(nb)}:

* for y >= 1, l(D_i->y) = 1/(nb) - log((1-p) + p w)     (B.3, first display);
* for y <= 0, l(D_i->y) = 1/(nb) - log(p + (1-p) w)     (B.3, second display).

Between consecutive atoms k/n every p(y|D_1 = d) and p_Y(y) is ``A e^{-y/b} + B e^{y/b}``,
so each ratio p(y|d)/p_Y(y) is a Moebius function of e^{2y/b}, hence monotone on the piece
(:mod:`exactpml.continuous.expsums` derives this from the derivative's numerator, it is not
assumed).
So sup_y l(D_1->y) is the largest value at the atoms 0, 1/n, ..., 1 -- decided exactly,
piece by piece, by certified comparison.  This is needed because B.3's argument that
y -> E_X[exp(-|y - S/n|/b)] increases up to p and decreases after is false for small b
(n = 2, p = 1/2, b = 1/20: 1/4 at y = 0 but about 0.005 at y = 1/4).

Over the family 𝒫_c^f the supremum is 1/(nb) - log((1-c) + c w), approached as p -> c or
p -> 1-c and not attained (Prop 4.6); :func:`sup_entry_leakage_over_iid` proves it, the
interior atoms being bounded by certified interval branch-and-bound over p.  For a rational
b the bounded function is carried as an exact polynomial in p and w (FLINT ``fmpq_poly``):
its sign at a rational p is exact, because w = e^{1/(nb)} is transcendental
(Hermite–Lindemann), and boxes are bounded by Arb in centred form, so the proof costs
polynomial time in n (n = 20 in a fraction of a second; the sympy path is exponential).

>>> print(entry_leakage_closed_forms(2, 1, "1/2")[0])
log(2*exp(1/2)/(1 + exp(1/2)))
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb
from typing import Any

import sympy
from flint import arb, ctx, fmpq, fmpq_poly

from exactpml.continuous import ContinuousMechanism
from exactpml.continuous.expsums import ExpSum, Piece, ratio_candidates
from exactpml.core import boundary as _boundary
from exactpml.core import certify
from exactpml.core.abbreviate import abbreviated
from exactpml.core.bounds import current_bounds, exceeded
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, as_scalar, exact, to_sympy
from exactpml.core.logvalue import LogValue
from exactpml.core.parameters import positive_integer, positive_scale, probability
from exactpml.errors import ExactPMLError, InvalidArgument, Undecided
from exactpml.numerics import limits
from exactpml.suprema.families import ParameterDomain
from exactpml.suprema.witnesses import Construction, Instance, Supremum

__all__ = [
    "entry_leakage_at",
    "entry_leakage_closed_forms",
    "laplace_counting_query",
    "sup_entry_leakage_over_iid",
    "sup_entry_leakage_over_outputs",
]

_SOURCE = "Saeidian et al., Prop 4.6, App. B.3"


def _check(n: object, scale: object, p: object | None = None) -> tuple[int, sympy.Expr, Fraction]:
    size = positive_integer(n, name="n")
    if size > current_bounds().symbolic_exponent:  # q^k (1-q)^(n-k), k <= n: n + 1 terms
        raise exceeded(
            "",
            f"n={abbreviated(size)}: the law of S ~ Bin(n, p) has terms p^k (1-p)^(n-k) of "
            "exponents up to n",
            "symbolic_exponent",
        )
    b_expr = to_sympy(positive_scale(scale, name="scale"))
    limit = current_bounds().exponential_argument
    if b_expr.is_Rational:
        too_small = 1 / b_expr > limit
    else:  # enclose 1/b first: sympy would evaluate e^{1/b} itself (exp(-exp(exp(100))) hangs)
        try:
            inverse = certify.enclosure(1 / b_expr, 64)
            too_small = not inverse.is_finite() or inverse.upper() > limit
        except Undecided:
            too_small = True
    if too_small:
        raise exceeded(  # the densities are e^{±(y - k/n)/b}: no ball encloses e^{1/b}
            "",
            f"scale={abbreviated(b_expr)} puts e^(1/b) in the densities",
            "exponential_argument",
        )
    if p is None:
        return size, b_expr, Fraction(1, 2)
    entry = probability(p, name="p", open_interval=True, rational=True)
    assert isinstance(entry, Fraction)
    return size, b_expr, entry


def laplace_counting_query(n: int, scale: object) -> ContinuousMechanism:
    """Lap(S/n, b) on binary databases {0, 1}^n, S = sum of the entries (§4.1)."""
    n, b, _ = _check(n, scale)
    centers: dict[Any, object] = {
        x: Fraction(sum(x), n) for x in itertools.product((0, 1), repeat=n)
    }
    return ContinuousMechanism.laplace(centers, b)


def iid_prior(n: int, p: object) -> Distribution:
    """Bern(p)^n on {0, 1}^n (``p`` exact, or an expression in a positive symbol)."""
    q = to_sympy(exact(p, where="p"))
    entry = Distribution({0: 1 - q, 1: q}.items())
    product = Distribution.product([entry] * n)
    return Distribution._trusted(
        product.outcomes,
        [as_scalar(sympy.expand(to_sympy(v))) for v in product.probabilities],
        product.conditions,
    )


def entry_leakage_closed_forms(n: int, scale: object, p: object) -> tuple[LogValue, LogValue]:
    """(l(D_i->y) for y >= 1, for y <= 0): the two closed forms of App. B.3, as the logs of
    w / ((1-p) + p w) and w / (p + (1-p) w), w = e^{1/(nb)}."""
    n, b, probability = _check(n, scale, p)
    w = sympy.exp(1 / (n * b))
    q = sympy.Rational(probability.numerator, probability.denominator)
    return (
        LogValue(sympy.cancel(w / ((1 - q) + q * w))),
        LogValue(sympy.cancel(w / (q + (1 - q) * w))),
    )


def _sums(
    n: int, b: sympy.Expr, q: sympy.Expr, lower: Fraction | None
) -> tuple[list[ExpSum], ExpSum]:
    """p(y|D_1 = d) (d = 0, 1) and p_Y(y), times 2b, for y at or right of ``lower`` and left of
    the next atom (``None``: left of 0), as sums of exponentials in y; S_-1 ~ Bin(n - 1, p)."""

    def laplace_terms(weights: dict[int, sympy.Expr]) -> ExpSum:
        terms = []
        for atom, weight in weights.items():
            centre = sympy.Rational(atom, n)
            if lower is not None and atom <= lower * n:  # y > atom: e^{-(y - atom)/b}
                terms.append((weight * sympy.exp(centre / b), -1 / b))
            else:  # y < atom: e^{(y - atom)/b}
                terms.append((weight * sympy.exp(-centre / b), 1 / b))
        return ExpSum.of(terms)

    rest = {k: comb(n - 1, k) * q**k * (1 - q) ** (n - 1 - k) for k in range(n)}
    given = [laplace_terms({k + d: rest[k] for k in range(n)}) for d in (0, 1)]
    total = laplace_terms({k: comb(n, k) * q**k * (1 - q) ** (n - k) for k in range(n + 1)})
    return given, total


def entry_leakage_at(n: int, scale: object, p: object, output: object) -> LogValue:
    """l(D_i->y) at an exact output y, from the sufficient statistic S_-i ~ Bin(n-1, p)."""
    n, b, probability = _check(n, scale, p)
    y = exact(output, where="output", allow_symbolic=False)
    assert isinstance(y, Fraction)
    q = sympy.Rational(probability.numerator, probability.denominator)
    given, total = _sums(n, b, q, y)  # atoms <= y lie to the left of y
    bottom = total.at(y)
    best = max(
        (as_scalar(top.at(y) / bottom) for top in given),
        key=lambda v: certify.enclosure(v, 64).mid(),
    )
    for top in given:  # certify the choice of the maximum
        if certify.compare(as_scalar(top.at(y) / bottom), best) > 0:  # pragma: no cover
            raise Undecided("cannot order the two conditional densities")
    return LogValue(best)


def sup_entry_leakage_over_outputs(
    n: int, scale: object, p: object, *, lower: object = None, upper: object = None
) -> Supremum:
    """sup over y of l(D_1->y) for the counting query with i.i.d. Bern(p) entries, exact.

    Over all of R by default, or over the closed interval [``lower``, ``upper``] (e.g. [0, 1],
    where B.3's monotonicity step fails for small b).  Decided piece by piece between the
    atoms k/n: each ratio is monotone on a piece (the engine derives it from the sign of the
    derivative's numerator), so the supremum is the largest value at an atom or an end of
    the interval -- on R, including the closed forms of B.3 at y = 0 and y = 1 -- and it is
    attained.
    """
    n, b, probability = _check(n, scale, p)
    q = sympy.Rational(probability.numerator, probability.denominator)
    low_end = None if lower is None else exact(lower, where="lower", allow_symbolic=False)
    high_end = None if upper is None else exact(upper, where="upper", allow_symbolic=False)
    if low_end is not None and high_end is not None and not low_end < high_end:
        raise InvalidArgument(
            f"the output interval [{abbreviated(low_end)}, {abbreviated(high_end)}] is empty or "
            "reversed"
        )
    atoms = [Fraction(k, n) for k in range(n + 1)]
    bounds: list[Any] = [sympy.S.NegativeInfinity, *atoms, sympy.oo]
    best_value: Scalar | None = None
    best_at: Scalar | None = None
    compared: set[tuple[int, Scalar]] = set()  # (d, y) already a candidate
    for index, (low, high) in enumerate(itertools.pairwise(bounds)):
        side = None if index == 0 else low  # the atom at the piece's left, if any
        if low_end is not None:
            if high is not sympy.oo and high < low_end:
                continue
            low = low_end if low is sympy.S.NegativeInfinity or low < low_end else low
        if high_end is not None:
            if low is not sympy.S.NegativeInfinity and low > high_end:
                continue
            high = high_end if high is sympy.oo or high > high_end else high
        given, total = _sums(n, b, q, side)
        piece = Piece(low, high, ())
        for d, top in enumerate(given):
            # limits=False: the limits y -> +-oo equal the values at y = 1 and y = 0
            for candidate in ratio_candidates(top, total, piece, lattice=False, limits=False):
                assert candidate.at is not None
                if (d, candidate.at) in compared:
                    continue  # an atom ends two pieces: p(y|d)/p_Y(y) is continuous in y
                compared.add((d, candidate.at))
                if best_value is None or certify.compare(candidate.value, best_value) > 0:
                    best_value, best_at = candidate.value, candidate.at
    assert best_value is not None and best_at is not None
    mechanism = laplace_counting_query(n, b)
    prior = iid_prior(n, probability)
    witness = Instance(mechanism, prior, best_at, "entry", entry=0)
    where = "y in R" if lower is None and upper is None else f"y in [{low_end}, {high_end}]"
    return Supremum(
        LogValue(best_value),
        True,
        witness,
        f"sup over {where} of l(D_1 -> y), n = {n}, b = {b}, p = {probability}",
        _SOURCE,
    )


def _horner(coefficients: list[arb], low: Fraction, high: Fraction) -> arb:
    """An Arb enclosure of the polynomial (coefficients constant first) over [low, high]."""
    middle, radius = (low + high) / 2, (high - low) / 2
    ball = arb(
        fmpq(middle.numerator, middle.denominator), fmpq(radius.numerator, radius.denominator)
    )
    total = arb(0)
    for c in reversed(coefficients):
        total = total * ball + c
    return total


def sup_entry_leakage_over_iid(
    n: int, scale: object, c: object, *, max_depth: int = 40, method: str = "auto"
) -> Supremum:
    """sup over 𝒫_c^f and outputs y of l(D_i->y) = 1/(nb) - log((1-c) + c e^{1/(nb)})
    (Prop 4.6), approached as p -> c (and p -> 1-c), not attained.

    The atoms y = 0 and y = 1 give the two closed forms, monotone in p; every interior atom
    k/n (0 < k < n) is proved below the bound for all p in [c, 1-c] by certified interval
    branch-and-bound (``Undecided`` if that fails within ``max_depth`` bisections, with the
    offending p if one is found).  The limit p -> c+ is taken by the limit engine.

    ``method``: ``"polynomial"`` (a rational b: h_d as an exact polynomial in p and
    w = e^{1/(nb)}, polynomial in n; n = 20 in a fraction of a second), ``"sympy"`` (any b:
    sympy expressions, exponential in n; the reference) or ``"auto"`` (the first when b is
    rational).
    """
    if method not in ("auto", "polynomial", "sympy"):
        raise InvalidArgument(f"method={method!r} must be 'auto', 'polynomial' or 'sympy'")
    n, b, _ = _check(n, scale)
    if method == "polynomial" and not isinstance(b, sympy.Rational):
        raise InvalidArgument(f"method='polynomial' needs a rational scale, got {abbreviated(b)}")
    bound_c = exact(c, where="c", allow_symbolic=False)
    assert isinstance(bound_c, Fraction)
    if not 0 <= bound_c < Fraction(1, 2):
        raise InvalidArgument(f"c={abbreviated(bound_c)} must satisfy 0 <= c < 1/2")
    w = sympy.exp(1 / (n * b))
    cq = sympy.Rational(bound_c.numerator, bound_c.denominator)
    bound = w / ((1 - cq) + cq * w)
    p = sympy.Symbol("p", positive=True)
    t = sympy.Symbol("t", positive=True)
    for k in range(1, n):
        if method != "sympy" and isinstance(b, sympy.Rational):  # w transcendental
            _prove_atom_below_by_polynomials(n, Fraction(int(b.p), int(b.q)), k, bound_c, max_depth)
        else:
            _prove_atom_below(n, b, k, bound, bound_c, p, max_depth)
    expression = w / ((1 - (cq + t)) + (cq + t) * w)  # exp of the y >= 1 form at p = c + t
    reached = limits.limit(expression, t, "0+", domain=(0, 1 - 2 * bound_c))
    if certify.compare(reached, bound) != 0:  # pragma: no cover - continuity
        raise ExactPMLError(f"the limit {abbreviated(reached)} differs from the bound {bound}")

    mechanisms: list[ContinuousMechanism] = []  # built on first use: 2^n databases

    def builder(value: Any) -> Instance:
        if not mechanisms:
            mechanisms.append(laplace_counting_query(n, b))
        prior = iid_prior(n, as_scalar(cq + to_sympy(value)))
        return Instance(mechanisms[0], prior, Fraction(1), "entry", entry=0, parameter_value=value)

    construction = Construction(
        "i.i.d. prior with p = c + t, output y >= 1",
        _SOURCE,
        t,
        "0+",
        ParameterDomain(0, 1 - 2 * bound_c),
        builder,
        expression,
        as_scalar(reached),
    )
    return Supremum(
        LogValue(bound),
        False,
        construction,
        f"sup over 𝒫_c^f (c = {bound_c}) and outputs y of l(D_i -> y), n = {n}, b = {b}",
        _SOURCE,
    )


def _prove_atom_below(
    n: int, b: sympy.Expr, k: int, bound: sympy.Expr, c: Fraction, p: sympy.Symbol, max_depth: int
) -> None:
    """Prove p(k/n | d) / p_Y(k/n) < bound for d = 0, 1 and every p in (c, 1 - c).

    Works on h_d(p) = bound p_Y(k/n) - p(k/n | d), a polynomial in p with closed coefficients:
    a box is done when the Arb enclosure of h_d there is positive, or when the box ends at an
    end of [c, 1 - c] where h_d is exactly 0 and h_d' has the sign that makes h_d positive
    inside (for c = 0 the interior atoms tie with the bound as p -> 0 or 1).
    """
    y = Fraction(k, n)
    given, total = _sums(n, b, p, y)
    bottom = sympy.expand(total.at(y))
    for top in given:
        h = sympy.Poly(sympy.expand(bound * bottom - top.at(y)), p)
        slope = h.diff(p)
        balls = [certify.enclosure(cf, 160) for cf in reversed(h.all_coeffs())]
        slope_balls = [certify.enclosure(cf, 160) for cf in reversed(slope.all_coeffs())]
        ends = {}
        for end in (c, 1 - c):
            value = h.eval(sympy.Rational(end.numerator, end.denominator))
            ends[end] = certify.sign(value)
            if ends[end] < 0:
                raise Undecided(
                    f"Prop 4.6: at p = {abbreviated(end)} the atom y = {abbreviated(y)} exceeds "
                    f"the bound {bound}",
                    expression=value,
                )
        queue = [(c, 1 - c, 0)]
        while queue:
            low, high, depth = queue.pop()
            if _horner(balls, low, high) > 0:
                continue
            if high == 1 - c and ends[high] == 0 and _horner(slope_balls, low, high) < 0:
                continue
            if low == c and ends[low] == 0 and _horner(slope_balls, low, high) > 0:
                continue
            middle = (low + high) / 2
            value = h.eval(sympy.Rational(middle.numerator, middle.denominator))
            if certify.sign(value) <= 0:
                raise Undecided(
                    f"Prop 4.6: at p = {abbreviated(middle)} the atom y = {abbreviated(y)} is not "
                    f"below the bound {bound}",
                    expression=value,
                )
            if depth >= max_depth:
                raise Undecided(
                    f"could not bound the atom y = {abbreviated(y)} on p in [{abbreviated(low)}, "
                    f"{abbreviated(high)}]"
                )
            queue.append((low, middle, depth + 1))
            queue.append((middle, high, depth + 1))


# --- the interior atoms through exact polynomials in (p, w) -----------------------------------
def _bernstein(n: int, j: int) -> fmpq_poly:
    """C(n, j) p^j (1 - p)^(n - j) as an exact polynomial in p."""
    return fmpq_poly([0, 1]) ** j * fmpq_poly([1, -1]) ** (n - j) * comb(n, j)


def _atom_polynomials(n: int, k: int, d: int, c: Fraction) -> list[fmpq_poly]:
    """A_0..A_{n+1} in Q[p] with Σ_i A_i(p) w^i = w^n ((1-c) + c w) h_d(p), where
    h_d(p) = bound · 2b p_Y(k/n) − 2b p(k/n | D_1 = d) and bound = w / ((1-c) + c w).

    At y = k/n, 2b p_Y(y) = Σ_j C(n,j) p^j (1-p)^(n-j) w^{-|k-j|} and
    2b p(y | d) = Σ_j C(n-1,j) p^j (1-p)^(n-1-j) w^{-|k-j-d|} (S_-1 ~ Bin(n-1, p)), so the
    product is w^{n+1} 2b p_Y − ((1-c) + c w) w^n 2b p(y|d), a polynomial in w whose
    coefficients are polynomials in p; w^n ((1-c) + c w) > 0, so it has h_d's sign.
    """
    terms = [fmpq_poly([0]) for _ in range(n + 2)]
    for j in range(n + 1):
        terms[n + 1 - abs(k - j)] += _bernstein(n, j)
    low = fmpq(c.denominator - c.numerator, c.denominator)  # 1 - c
    high = fmpq(c.numerator, c.denominator)  # c
    for j in range(n):
        given = _bernstein(n - 1, j)
        power = n - abs(k - j - d)
        terms[power] -= given * low
        terms[power + 1] -= given * high
    return terms


def _exact_sign(coefficients: list[fmpq], w_exponent: Fraction) -> int:
    """The sign of Σ_i coefficients[i] w^i at w = e^{w_exponent} (w_exponent ≠ 0 rational).

    w is transcendental (Hermite–Lindemann), so the value is 0 exactly when every
    coefficient is 0; otherwise Arb balls at 64, 128, ... bits decide it, up to the bound
    ``certified_precision`` (then ``Undecided``)."""
    polynomial = fmpq_poly(coefficients)
    if polynomial.is_zero():
        return 0
    precision = 64
    cap = current_bounds().certified_precision
    while True:
        with ctx.workprec(precision):
            w = _w_ball(w_exponent)
            value = arb(0)
            for coefficient in reversed(polynomial.coeffs()):
                value = value * w + arb(coefficient)
        if value > 0:
            return 1
        if value < 0:
            return -1
        if precision >= cap:
            raise Undecided(
                f"could not decide the sign of {abbreviated(polynomial)} at w = "
                f"e^{abbreviated(w_exponent)}"
            )
        precision = min(2 * precision, cap)


def _w_ball(w_exponent: Fraction) -> arb:
    """e^{w_exponent} as an Arb ball at the current working precision."""
    return arb(fmpq(w_exponent.numerator, w_exponent.denominator)).exp()


def _taylor_enclosure(coefficients: list[arb], low: Fraction, high: Fraction) -> arb:
    """An Arb ball containing the polynomial (coefficients constant first) on [low, high]:
    its Taylor coefficients T_m at the midpoint m0 give P(m0 + t) = Σ T_m t^m, so the range
    lies in T_0 ± Σ_{m≥1} |T_m| r^m (r the half-width).  The centred form keeps the
    enclosure close to the range even when the monomial coefficients are large."""
    middle, radius = (low + high) / 2, (high - low) / 2
    x0 = arb(fmpq(middle.numerator, middle.denominator))
    r = arb(fmpq(radius.numerator, radius.denominator))
    shifted = list(coefficients)
    size = len(shifted)
    for i in range(size - 1):  # Taylor shift by x0 (repeated synthetic division)
        for j in range(size - 2, i - 1, -1):
            shifted[j] += x0 * shifted[j + 1]
    spread = arb(0)
    power = arb(1)
    for term in shifted[1:]:
        power *= r
        spread += abs(term) * power
    return shifted[0] + spread * arb(0, 1)


def _prove_atom_below_by_polynomials(
    n: int,
    b: Fraction,
    k: int,
    c: Fraction,
    max_depth: int,
    *,
    precision: int = 192,
    bound_c: Fraction | None = None,
) -> int:
    """:func:`_prove_atom_below` for a rational scale b, in polynomial time: h_d is carried as
    the exact bivariate polynomial of :func:`_atom_polynomials` (FLINT ``fmpq_poly``, no
    sympy), its coefficients in p are enclosed once by Arb at w = e^{1/(nb)}, boxes are
    bounded by the centred (Taylor) form, and the sign at a rational p is exact (a
    polynomial in the transcendental w).  Same contract: each box is proved positive, or
    ends where h_d is exactly 0 with the slope that makes it positive inside; a rational p
    with h_d(p) ≤ 0 raises ``Undecided`` naming it, as does running out of depth.

    ``bound_c`` (default c) sets the bound w / ((1-c') + c' w) proved, over p in [c, 1-c]
    (a c' > c states a false, smaller bound: the tests check it is refuted).  Returns the
    number of boxes examined."""
    exponent = 1 / (n * b)
    boxes = 0
    y = Fraction(k, n)
    for d in (0, 1):
        terms = _atom_polynomials(n, k, d, c if bound_c is None else bound_c)
        degree = max(t.degree() for t in terms)
        with ctx.workprec(precision):
            powers = [_w_ball(exponent) ** i for i in range(n + 2)]
            balls = [
                sum(
                    (
                        arb(t.coeffs()[m]) * powers[i]
                        for i, t in enumerate(terms)
                        if m <= t.degree()
                    ),
                    arb(0),
                )
                for m in range(degree + 1)
            ]
            slope_balls = [balls[m] * m for m in range(1, len(balls))]

        def sign_at(point: Fraction, terms: list[fmpq_poly] = terms) -> int:
            x = fmpq(point.numerator, point.denominator)
            return _exact_sign([t(x) for t in terms], exponent)

        ends = {end: sign_at(end) for end in (c, 1 - c)}
        for end, value in ends.items():
            if value < 0:
                raise Undecided(
                    f"Prop 4.6: at p = {abbreviated(end)} the atom y = {abbreviated(y)} exceeds "
                    "the bound"
                )
        queue = [(c, 1 - c, 0)]
        with ctx.workprec(precision):
            while queue:
                low, high, depth = queue.pop()
                boxes += 1
                if _taylor_enclosure(balls, low, high) > 0:
                    continue
                if (
                    high == 1 - c
                    and ends[high] == 0
                    and _taylor_enclosure(slope_balls, low, high) < 0
                ):
                    continue
                if low == c and ends[low] == 0 and _taylor_enclosure(slope_balls, low, high) > 0:
                    continue
                middle = (low + high) / 2
                if sign_at(middle) <= 0:
                    raise Undecided(
                        f"Prop 4.6: at p = {abbreviated(middle)} the atom y = {abbreviated(y)} is "
                        "not below the bound"
                    )
                if depth >= max_depth:
                    raise Undecided(
                        f"could not bound the atom y = {abbreviated(y)} on p in "
                        f"[{abbreviated(low)}, {abbreviated(high)}]"
                    )
                queue.append((low, middle, depth + 1))
                queue.append((middle, high, depth + 1))
    return boxes


_boundary.guard_public_names(globals())  # every public name behind its boundary
