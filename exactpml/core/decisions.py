"""Decisions about exact scalars: three-valued tests and certified signs and comparisons.

``prove_zero`` / ``prove_positive`` / ``prove_nonnegative`` answer True, False or None
(unknown); :func:`exact_sign` and :func:`exact_compare` answer exactly for rationals, by
certified interval arithmetic (:mod:`exactpml.core.certify`) for closed numbers, by the
symbols' assumptions otherwise, and raise :class:`~exactpml.errors.Undecided` rather than
guess.  sympy's own ``is_positive`` on closed numbers is never trusted: it decides from a
2-digit ``evalf``.  :func:`unproven_condition` is the one rule for conditions on symbolic
input: provably false raises, closed and undecided raises ``Undecided``, only a genuinely
symbolic condition is kept.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction

import sympy

from exactpml.core import certify
from exactpml.core.abbreviate import abbreviated
from exactpml.core.exact import Scalar, _describe, as_scalar, to_sympy
from exactpml.errors import ExactPMLError, InvalidArgument, Undecided

__all__ = [
    "exact_compare",
    "exact_sign",
    "positive_by_structure",
    "prove_nonnegative",
    "prove_positive",
    "prove_zero",
    "shows_both_outcomes",
    "unproven_condition",
]


def _simplified(value: Scalar) -> sympy.Expr:
    expr = to_sympy(value)
    if expr.is_number or not expr.free_symbols:
        return expr
    return _simplified_symbolic(expr)


@functools.lru_cache(maxsize=1024)
def _simplified_symbolic(expr: sympy.Expr) -> sympy.Expr:
    """``simplify`` of a symbolic expression, memoised: the same few (``1 - t``, ``1 - alpha``)
    recur across a property's instances (measured: 269 calls, 61 distinct, 1.8 s in the
    default main job).  Symbols with different assumptions are different keys."""
    try:
        return sympy.simplify(expr)
    except Exception:  # sympy failing to simplify decides nothing: the value as it is
        return expr


_SAMPLE_POINTS = tuple(
    sympy.Rational(numerator, denominator)
    for numerator, denominator in ((1, 1), (2, 1), (1, 2), (3, 1), (1, 10), (10, 1), (1, 1000))
)
"""Where :func:`shows_both_outcomes` evaluates a symbolic expression (each symbol set to the
point)."""
_ANY_POSITIVE_REAL = sympy.Dummy(positive=True).assumptions0
"""The assumptions every positive real number satisfies."""


def _admits(symbol: sympy.Basic, point: sympy.Rational) -> bool:
    """True when ``point`` satisfies every assumption of ``symbol`` (a value it may take)."""
    return isinstance(symbol, sympy.Symbol) and all(
        getattr(point, f"is_{fact}") == holds for fact, holds in symbol.assumptions0.items()
    )


@functools.lru_cache(maxsize=1024)
def shows_both_outcomes(expr: sympy.Expr, test: str) -> bool:
    """True when ``expr`` provably satisfies ``test`` (``"zero"``, ``"positive"`` or
    ``"nonnegative"``) for some values of its symbols and fails it for others: then the only
    right three-valued answer is None, and ``simplify`` (which can only rewrite ``expr``) has
    nothing to decide.  Shown by exact rational values at points every symbol admits (all
    symbols set to one point), and for ``"zero"`` also by a sign change of a polynomial whose
    symbols admit every positive real (a root between the two points).  False when not shown.

    Why: ``simplify`` (the fallback when the assumptions cannot decide) costs 5-100 ms a
    call, and on the symbolic leakages of ``pml.thm_4_2``/``pml.thm_4_5`` (``1 - t``,
    quadratics in t, a Max of two rational functions of t) it never decided one (measured:
    46 calls, 11 distinct, 0.4 s at --quick); in the whole --quick run every expression that
    reached it is shown undecidable here (209, in ~1 ms each).
    """
    symbols = expr.free_symbols
    shown = _SHOWN_BY_SIGNS[test]
    signs: set[int] = set()
    for point in _SAMPLE_POINTS:
        if not all(_admits(symbol, point) for symbol in symbols):
            continue
        try:
            value = expr.xreplace(dict.fromkeys(symbols, point))
        except Exception:  # sympy failing to evaluate at the point shows nothing
            continue
        if isinstance(value, sympy.Rational):  # exact (nan, zoo, closed numbers: no)
            numerator = int(value.p)  # the sign (a Rational's denominator is positive)
            signs.add((numerator > 0) - (numerator < 0))
            if shown(signs):  # no need for the other points
                return True
    return test == "zero" and {-1, 1} <= signs and _continuous_on_positive_reals(expr, symbols)


_SHOWN_BY_SIGNS: dict[str, Callable[[set[int]], bool]] = {
    "zero": lambda signs: 0 in signs and len(signs) > 1,
    "positive": lambda signs: 1 in signs and bool(signs & {0, -1}),
    "nonnegative": lambda signs: -1 in signs and bool(signs & {0, 1}),
}
"""Signs of values at admissible points showing that the test passes somewhere and fails
somewhere (zero: a zero and a non-zero value; positive: > 0 and <= 0; nonnegative: >= 0
and < 0)."""


def _continuous_on_positive_reals(expr: sympy.Expr, symbols: set[sympy.Basic]) -> bool:
    """True when ``expr`` is a polynomial in ``symbols`` and each of them may be any positive
    real: then it is continuous along the points (p, ..., p), p > 0, and a sign change
    between two of them has a root in between."""
    return all(
        symbol.assumptions0.items() <= _ANY_POSITIVE_REAL.items() for symbol in symbols
    ) and bool(expr.is_polynomial(*symbols))


def _closed_sign(expr: sympy.Expr) -> int | None:
    """Sign of a closed number by certified interval arithmetic (None when undecided).

    sympy's ``is_zero``/``is_positive`` decide closed numbers from a low-precision numerical
    evaluation and can be wrong (e.g. for log(1 - F) with F ~ 1e-322), so closed numbers are
    settled by :func:`exactpml.certify.sign` instead.
    """
    try:
        return certify.sign(expr)
    except ExactPMLError:
        return None


def _sign_info(value: Scalar) -> tuple[int | None, sympy.Expr | None]:
    """(sign, None) for rationals and closed numbers; (None, expr) when symbols remain."""
    if type(value) is Fraction:  # the numerator's sign (a Fraction's denominator is positive)
        numerator = value.numerator
        return (numerator > 0) - (numerator < 0), None
    expr = to_sympy(value)
    if expr.free_symbols:
        return None, expr
    return _closed_sign(expr), None


def _symbolic_test(expr: sympy.Expr, test: str) -> bool | None:
    """``expr.is_<test>`` (``test``: ``"zero"``, ``"positive"`` or ``"nonnegative"``) from the
    symbols' assumptions, else that of ``simplify(expr)`` -- unless
    :func:`shows_both_outcomes` shows the test holds for some values and fails for others,
    when None is the only right answer.

    :func:`shows_both_outcomes` is asked first: where it shows both outcomes, sound assumptions can
    only answer None too, and sympy's own query is the slow part (``is_nonnegative`` of
    -97/(84 alpha - 97), a leakage of ``alpha_range``: 7-12 ms, against 0.1 ms for the exact
    values; 0.25 s of the --quick run, one worker, answers unchanged on its 365 queries)."""
    if shows_both_outcomes(expr, test):
        return None
    known = getattr(expr, f"is_{test}")
    if known is None:
        known = getattr(_simplified(expr), f"is_{test}")
    return None if known is None else bool(known)


def prove_zero(value: Scalar) -> bool | None:
    """Three-valued: True if ``value == 0`` provably, False if provably not, None if unknown."""
    sign, expr = _sign_info(value)
    if expr is None:
        return None if sign is None else sign == 0
    return _symbolic_test(expr, "zero")


def prove_nonnegative(value: Scalar) -> bool | None:
    """Three-valued test of ``value >= 0`` (assumptions and simplification for symbols)."""
    sign, expr = _sign_info(value)
    if expr is None:
        return None if sign is None else sign >= 0
    return _symbolic_test(expr, "nonnegative")


def prove_positive(value: Scalar) -> bool | None:
    """Three-valued test of ``value > 0``."""
    sign, expr = _sign_info(value)
    if expr is None:
        return None if sign is None else sign > 0
    return _symbolic_test(expr, "positive")


def unproven_condition(
    relation: sympy.Basic, proved: bool | None, *, where: str, statement: str
) -> tuple[sympy.Basic, ...]:
    """The condition to keep when ``proved`` (a three-valued test of ``relation``) is unknown.

    Provably false raises :class:`~exactpml.errors.InvalidArgument` (``where: statement``
    fails); a closed relation (no free symbols) that could not be decided raises
    :class:`~exactpml.errors.Undecided` -- it is never stored as an open condition; only a
    genuinely symbolic relation that sympy cannot settle is returned, to travel with the
    results.  Returns ``()`` when the relation is proved.
    """
    if proved is True:
        return ()
    if proved is False:
        raise InvalidArgument(f"{_describe(where)}{statement} is false")
    if not relation.free_symbols:  # sympy's own verdict on numbers is a 2-digit evalf
        raise Undecided(
            f"{_describe(where)}cannot decide whether {statement} (neither exactly nor by "
            "certified interval arithmetic); give a value exactpml can decide",
            expression=relation,
        )
    if relation is sympy.false:  # decided from the symbols' assumptions
        raise InvalidArgument(f"{_describe(where)}{statement} is false")
    return () if relation is sympy.true else (relation,)


def exact_sign(value: Scalar) -> int:
    """-1, 0 or 1: exact for rationals, certified for closed numbers, by assumptions for symbols.

    Raises :class:`~exactpml.errors.Undecided` when the sign cannot be settled (never a guess).
    """
    if type(value) is Fraction:
        return (value > 0) - (value < 0)
    expr = to_sympy(value)
    if expr.free_symbols:
        if prove_zero(value):
            return 0
        if prove_positive(value):
            return 1
        if prove_positive(as_scalar(-expr)):
            return -1
        raise Undecided(
            f"cannot decide the sign of {abbreviated(expr)} for all values of its symbols",
            expression=expr,
        )
    if positive_by_structure(expr):
        return 1
    try:
        return certify.sign(expr)
    except Undecided:
        difference = _positive_difference(expr)
        if difference is None:
            raise
        # p - q with p, q > 0 has the sign of log p - log q, where log(exp(x)) is x: e^ε for
        # ε = 10^9999 cannot be enclosed, its log can
        return certify.sign(sympy.log(difference[0]) - sympy.log(difference[1]))


def _positive_difference(expr: sympy.Basic) -> tuple[sympy.Expr, sympy.Expr] | None:
    """(p, q) when ``expr`` is p - q with p and q positive by structure, else None."""
    if not isinstance(expr, sympy.Add) or len(expr.args) != 2:
        return None
    first, second = expr.args
    for p, q in ((first, -second), (second, -first)):
        if positive_by_structure(p) and positive_by_structure(q):
            return p, q
    return None


def positive_by_structure(expr: sympy.Basic) -> bool:
    """True for a closed number that is positive by its form alone, with no evaluation: a
    positive rational, ``exp`` of a real closed number, products and rational powers of those.

    >>> positive_by_structure(sympy.exp(sympy.Integer(10) ** 5000) / 3)
    True
    """
    if isinstance(expr, sympy.Rational):
        return bool(expr > 0)
    if isinstance(expr, sympy.exp):
        argument = expr.args[0]
        return not argument.free_symbols and not argument.has(sympy.I, sympy.nan, sympy.zoo)
    if isinstance(expr, sympy.Mul):
        return all(positive_by_structure(factor) for factor in expr.args)
    if isinstance(expr, sympy.Pow):
        return positive_by_structure(expr.base) and isinstance(expr.exp, sympy.Rational)
    return expr is sympy.pi or expr is sympy.E


def _exp_exponent(value: Scalar) -> Fraction | None:
    """r when ``value`` is exp(r) with r rational (exp is increasing: compare exponents)."""
    if isinstance(value, sympy.exp) and isinstance(value.args[0], sympy.Rational):
        return Fraction(int(value.args[0].p), int(value.args[0].q))
    if type(value) is Fraction and value == 1:
        return Fraction(0)
    return None


def exact_compare(a: Scalar, b: Scalar) -> int:
    """-1, 0 or 1 as ``a`` is below, equal to or above ``b`` (``oo`` allowed); see exact_sign."""
    if type(a) is Fraction and type(b) is Fraction:
        return (a > b) - (a < b)
    if a is sympy.oo or b is sympy.oo:
        if a is b:
            return 0
        return 1 if a is sympy.oo else -1
    exponents = _exp_exponent(a), _exp_exponent(b)
    if exponents[0] is not None and exponents[1] is not None:
        return (exponents[0] > exponents[1]) - (exponents[0] < exponents[1])
    return exact_sign(as_scalar(to_sympy(a) - to_sympy(b)))
