"""Exact hockey-stick divergences and likelihood-ratio maxima between two output laws.

Shared by the partial-knowledge notions (thesis §3.1.3, Defs 56–58) and bounded-leakage DP
(Ligett, Peale, Reingold).  For two laws ``p``, ``q`` on the same finite outputs and
``ratio = e^ε`` (every real ε, and ε = ±∞: ratio ``oo`` or 0; :mod:`exactpml.core.parameters`):

* ``hockey_stick(p, q, ratio) = Σ_o max(0, p_o − ratio·q_o) = max_S p(S) − ratio·q(S)``,
  attained at ``S = {o : p_o > ratio·q_o}`` (Proposition 8's set form);
* ``max_ratio(p, q) = max_{o : p_o > 0} p_o / q_o`` (``oo`` when some ``q_o = 0 < p_o``),
  the exponential of the smallest ε with ``hockey_stick = 0``.

Three regimes, never a float comparison: everything rational (exact integer arithmetic);
``ratio`` an irrational number such as ``e`` (each ``p_o/q_o`` against ``ratio`` is decided by
:mod:`exactpml.certify`, else :class:`~exactpml.errors.Undecided`); ``ratio`` or the laws
symbolic (a term whose sign cannot be proved stays as ``Max(0, p_o − ratio·q_o)``).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from fractions import Fraction

import sympy

from exactpml.core.abbreviate import abbreviated
from exactpml.core.decisions import exact_sign, prove_nonnegative, prove_positive, prove_zero
from exactpml.core.exact import (
    Scalar,
    as_scalar,
    exact_difference,
    exact_product,
    exact_sum,
    to_sympy,
)
from exactpml.core.logvalue import LogValue
from exactpml.core.parameters import probability
from exactpml.errors import InvalidArgument, Undecided

__all__ = [
    "at_most",
    "exact_max",
    "hockey_stick",
    "hockey_stick_integers",
    "max_ratio",
    "short_decimal",
]


def _certified_compare(value: Fraction, ratio: Scalar) -> int:
    """Sign of ``value − ratio`` for a rational ``value`` and a closed-form real ``ratio``."""
    try:
        return LogValue(value).compare(LogValue(ratio))
    except ImportError as error:  # pragma: no cover - depends on whether certify has landed
        raise Undecided(
            f"comparing {abbreviated(value)} with the irrational e^ε = {abbreviated(ratio)} needs "
            "exactpml.certify, "
            "which is not installed; give ε as LogValue(rational) for an exact answer",
            expression=to_sympy(value) - to_sympy(ratio),
        ) from error


def hockey_stick_integers(p: Sequence[int], q: Sequence[int], ratio: Fraction) -> int:
    """``Σ_o max(0, d·p_o − n·q_o)`` for ``ratio = n/d``: the divergence times ``d·D``.

    ``p`` and ``q`` are integer numerators over one common denominator ``D``.
    """
    numerator, denominator = ratio.numerator, ratio.denominator
    total = 0
    for a, b in zip(p, q, strict=True):
        term = denominator * a - numerator * b
        if term > 0:
            total += term
    return total


def hockey_stick(
    p: Sequence[Scalar], q: Sequence[Scalar], ratio: Scalar
) -> tuple[Scalar, frozenset[int] | None]:
    """``Σ_o max(0, p_o − ratio·q_o)`` and the maximising event ``S`` (indices into p, q).

    The event is ``None`` when some term's sign could not be decided (symbolic input); the
    value then contains ``Max(0, …)`` terms.  ``ratio`` is e^ε for any real ε (below 1 for
    ε < 0), or ``oo`` for ε = ∞: then the value is the mass of ``p`` where ``q`` vanishes
    (the limit of the divergence as ε → ∞; ``oo · 0`` is never formed).
    """
    if type(ratio) is Fraction and all(type(v) is Fraction for v in (*p, *q)):
        event = frozenset(i for i, (a, b) in enumerate(zip(p, q, strict=True)) if a > ratio * b)
        total = sum((p[i] - ratio * q[i] for i in event), Fraction(0))
        return total, event
    if ratio is sympy.oo:
        pairs = enumerate(zip(p, q, strict=True))
        event = frozenset(i for i, (a, b) in pairs if prove_zero(b) and not prove_zero(a))
        return exact_sum([p[i] for i in sorted(event)]), event
    numeric_ratio = not to_sympy(ratio).free_symbols
    at_least_one = _ratio_at_least_one(ratio)
    chosen: set[int] = set()
    undecided: list[sympy.Expr] = []
    for index, (a, b) in enumerate(zip(p, q, strict=True)):
        if prove_zero(a):
            continue
        if prove_zero(b):
            chosen.add(index)
            continue
        if at_least_one and _nonnegative(exact_difference(b, a)):  # p_o <= q_o <= ratio·q_o
            continue
        if numeric_ratio and type(a) is Fraction and type(b) is Fraction:
            if _certified_compare(a / b, ratio) > 0:
                chosen.add(index)
            continue
        term = exact_difference(a, exact_product(ratio, b))
        if not to_sympy(term).free_symbols:  # a closed-form real number: certified sign
            if _certified_sign(term) > 0:
                chosen.add(index)
            continue
        sign = prove_positive(term)
        if sign is True:
            chosen.add(index)
        elif prove_nonnegative(exact_difference(Fraction(0), term)) is not True:
            undecided.append(sympy.Max(0, to_sympy(term)))
    value = exact_sum(
        [exact_difference(p[i], exact_product(ratio, q[i])) for i in sorted(chosen)]
        + [as_scalar(term) for term in undecided]
    )
    return value, (None if undecided else frozenset(chosen))


def _ratio_at_least_one(ratio: Scalar) -> bool:
    """True when e^ε = ``ratio`` is provably ≥ 1 (for ``exp(ε)`` from the sign of ε)."""
    if isinstance(ratio, sympy.exp):
        return _nonnegative(as_scalar(ratio.args[0])) is True
    return _nonnegative(exact_difference(ratio, Fraction(1))) is True


def exact_max(values: Sequence[Scalar]) -> tuple[Scalar, int | None]:
    """The maximum of exact values and the index of one maximiser (None if undecidable).

    Rationals compare exactly; closed-form real numbers by :mod:`exactpml.certify` (never by
    floats; ``Undecided`` without it); values with free symbols give a sympy ``Max``.
    """
    if not values:
        raise InvalidArgument("exact_max: no values")
    if all(type(v) is Fraction for v in values):
        best = max(range(len(values)), key=lambda k: values[k])
        return values[best], best
    if any(to_sympy(v).free_symbols for v in values):
        return as_scalar(sympy.Max(*(to_sympy(v) for v in values))), None
    best = 0
    for k in range(1, len(values)):
        if _certified_sign(exact_difference(values[k], values[best])) > 0:
            best = k
    return values[best], best


def _nonnegative(value: Scalar) -> bool | None:
    """Three-valued ``value >= 0``: exact, certified for closed-form numbers, else sympy's
    assumptions (no numerics)."""
    if type(value) is Fraction:
        return value >= 0
    if not to_sympy(value).free_symbols:
        return _certified_sign(value) >= 0
    return prove_nonnegative(value)


_certified_sign = exact_sign


def max_ratio(p: Sequence[Scalar], q: Sequence[Scalar]) -> tuple[LogValue, int | None]:
    """``log max_{o : p_o > 0} p_o/q_o`` (``oo`` if some ``q_o = 0 < p_o``) and its argmax.

    Both laws identically zero is refused; if ``p`` has no mass the value is ``log 1``.
    """
    best: Scalar | None = None
    best_index: int | None = None
    symbolic: list[sympy.Expr] = []
    for index, (a, b) in enumerate(zip(p, q, strict=True)):
        if prove_zero(a):
            continue
        if prove_zero(b):
            return LogValue.infinity(), index
        if type(a) is Fraction and type(b) is Fraction:
            value = a / b
            if best is None or (type(best) is Fraction and value > best):
                best, best_index = value, index
        else:
            symbolic.append(to_sympy(a) / to_sympy(b))
    if symbolic:
        terms = [as_scalar(t) for t in symbolic] + ([best] if best is not None else [])
        value, _ = exact_max(terms)
        return LogValue(value), None
    if best is None:
        return LogValue(1), None
    return LogValue(best), best_index


def at_most(value: Scalar, bound: object, *, name: str) -> bool:
    """``value <= bound`` decided exactly, by certified numerics, or raise ``Undecided``."""
    limit = probability(bound, name=name)
    difference = as_scalar(to_sympy(limit) - to_sympy(value))
    if type(difference) is Fraction:
        return difference >= 0
    if not to_sympy(difference).free_symbols:
        try:
            certify = importlib.import_module("exactpml.certify")
        except ImportError:
            certify = None
        if certify is not None:
            return bool(certify.sign(difference) >= 0)
    decided = prove_nonnegative(difference)
    if decided is None:
        raise Undecided(
            f"cannot decide whether {abbreviated(value)} <= {abbreviated(limit)}",
            expression=difference,
        )
    return decided


def short_decimal(value: Scalar, digits: int = 6) -> str:
    """A decimal of ``value`` with ``digits`` significant digits, every digit correct.

    Rationals are rounded exactly (half to even) here; other values go through
    :func:`exactpml.certify.decimal` when it is installed, else their exact form is returned.
    """
    try:
        certify = importlib.import_module("exactpml.certify")
    except ImportError:
        return _rational_decimal(value, digits) if type(value) is Fraction else str(value)
    return str(certify.decimal(value if type(value) is Fraction else to_sympy(value), digits))


def _rational_decimal(value: Fraction, digits: int) -> str:
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    magnitude = abs(value)
    # n/d < 10^len(n) / 10^(len(d)-1): the estimate is never too low, so lowering it until
    # 10^exponent <= magnitude < 10^(exponent+1) suffices (no loop upwards is needed)
    exponent = len(str(magnitude.numerator)) - len(str(magnitude.denominator))
    while Fraction(10) ** exponent > magnitude:
        exponent -= 1
    mantissa = round(magnitude / Fraction(10) ** (exponent - digits + 1))
    if mantissa == 10**digits:
        mantissa //= 10
        exponent += 1
    text = str(mantissa)
    body = text[0] + ("." + text[1:].rstrip("0") if text[1:].rstrip("0") else "")
    return f"{sign}{body}e{exponent}" if exponent else f"{sign}{body}"
