"""Log-valued results kept in the multiplicative domain.

PML, D∞, leakage capacity, DP ε and min-entropy are all natural logarithms of exact
ratios.  A :class:`LogValue` stores the ratio (a ``Fraction``, a sympy expression, or
``sympy.oo``) and only takes the log when rendered, so every comparison between two of
them is an exact comparison of ratios (log is increasing).  Comparing with a plain number
``c`` compares ``ratio`` with ``exp(c)``; that comparison is transcendental unless ``c == 0``
and is settled by :mod:`exactpml.certify` (interval enclosures) or raises ``Undecided``.

>>> from fractions import Fraction
>>> value = LogValue(Fraction(9, 5))
>>> print(value)
log(9/5)
>>> value.ratio
Fraction(9, 5)
>>> value  # the repr reads as the logarithm, and rebuilds the value
LogValue.log('9/5')
>>> value < LogValue.log(2)
True
>>> print(value + LogValue(Fraction(5, 3)))
log(3)
>>> LogValue(1) == 0
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core import certify
from exactpml.core.abbreviate import abbreviated
from exactpml.core.bounds import big_integer_printing
from exactpml.core.decisions import exact_sign, prove_nonnegative, prove_zero
from exactpml.core.display import (
    exact_text,
    number_text,
    pretty,
    printing_order,
    symbols_argument,
)
from exactpml.core.exact import Scalar, as_scalar, exact, to_sympy
from exactpml.errors import InvalidArgument, Undecided

__all__ = ["LogValue"]


@dataclass(frozen=True, slots=True, init=False)
class LogValue:
    """The natural logarithm of an exact, non-negative ratio.

    Attributes:
        ratio: the exact argument of the log: a ``Fraction``, a sympy expression, or
            ``sympy.oo`` for an infinite value.
        conditions: sympy relations under which the value holds, when they could not be
            proved (three-valued validation of symbolic input); empty for rational input.
    """

    ratio: Scalar
    conditions: tuple[sympy.Basic, ...]

    def __init__(self, ratio: object, *, conditions: tuple[sympy.Basic, ...] = ()) -> None:
        if isinstance(ratio, LogValue):
            value: Scalar = ratio.ratio
            conditions = ratio.conditions + tuple(conditions)
        elif ratio is sympy.oo:
            value = sympy.oo
        else:
            value = (
                as_scalar(ratio)
                if isinstance(ratio, sympy.Basic)
                else exact(ratio, where="ratio of a log value")
            )
        if value is not sympy.oo and prove_nonnegative(value) is False:
            raise InvalidArgument(
                f"the ratio of a log value must be non-negative, got {abbreviated(value)}"
            )
        object.__setattr__(self, "ratio", value)
        object.__setattr__(self, "conditions", tuple(conditions))

    @classmethod
    def _of_fraction(cls, ratio: Fraction) -> LogValue:
        """Trusted: ``ratio`` is a non-negative ``Fraction`` computed exactly by exactpml."""
        self = object.__new__(cls)
        object.__setattr__(self, "ratio", ratio)
        object.__setattr__(self, "conditions", ())
        return self

    @classmethod
    def log(
        cls,
        ratio: object,
        *,
        symbols: Mapping[str, sympy.Symbol] | None = None,
        conditions: tuple[sympy.Basic, ...] = (),
    ) -> LogValue:
        """The value ``log(ratio)``: ``LogValue.log(3)`` is log 3 (what ``repr`` prints).

        ``ratio`` is any exact number (an int, a ``Fraction``, a sympy expression) or a string
        read by exactpml's grammar (``"9/5"``, ``"sqrt(2)"``, ``"t/2"`` with ``symbols``);
        never a float.  The same value as ``LogValue(ratio)``.

        >>> LogValue.log("9/5") == LogValue(Fraction(9, 5))
        True
        >>> LogValue.log(3) <= LogValue.log(2)
        False
        """
        if isinstance(ratio, str):
            ratio = exact(ratio, where="ratio of a log value", symbols=symbols)
        return cls(ratio, conditions=conditions)

    @classmethod
    def infinity(cls) -> LogValue:
        """The value ``log(oo) = oo``."""
        return cls(sympy.oo)

    # --- predicates -------------------------------------------------------------------
    @property
    def is_infinite(self) -> bool:
        """True when the ratio is ``oo``."""
        return self.ratio is sympy.oo

    @property
    def is_rational_ratio(self) -> bool:
        """True when the ratio is an exact rational (so comparisons are pure arithmetic)."""
        return type(self.ratio) is Fraction

    # --- conversions ------------------------------------------------------------------
    def to_sympy(self) -> sympy.Expr:
        """The value as a sympy expression, ``log(ratio)`` (``0`` when the ratio is 1)."""
        if self.ratio is sympy.oo:
            return sympy.oo
        return sympy.log(to_sympy(self.ratio))

    def _sympy_(self) -> sympy.Expr:  # lets sympy.sympify(LogValue(...)) work
        return self.to_sympy()

    def exp(self) -> Scalar:
        """``exp`` of the value, i.e. the ratio itself."""
        return self.ratio

    def decimal(self, digits: int = 15) -> str:
        """A decimal string of ``digits`` significant digits, each guaranteed correct.

        Computed by certified interval arithmetic (:func:`exactpml.certify.decimal`);
        ``digits`` is at most ``Bounds.output_digits`` (else ``BoundExceeded``).
        """
        with big_integer_printing():  # more than 4300 digits may be asked for
            return certify.decimal(self.to_sympy(), digits)

    def __float__(self) -> float:
        """The double nearest to the value, certified (:func:`exactpml.certify.to_float`).

        For plotting and data frames: the one place where a float leaves exactpml.
        ``log(oo)`` is ``inf``; a symbolic value is refused naming its symbols.

        >>> float(LogValue.log(3)), float(LogValue.log(1)), float(LogValue.infinity())
        (1.0986122886681098, 0.0, inf)
        """
        return certify.to_float(self.to_sympy())

    def __str__(self) -> str:
        return exact_text(self.to_sympy())  # any size: the 4300-digit limit is lifted

    def __repr__(self) -> str:
        """Python that rebuilds this value and reads as the logarithm it is.

        ``LogValue.log(3)`` is log 3, ``LogValue.log('9/5')`` is log(9/5) and
        ``LogValue.log('sqrt(2)')`` is log √2 (ratios other than integers are strings of
        exactpml's grammar, read back by it), ``LogValue.infinity()`` is ∞; so
        ``LogValue.log(3) <= LogValue.log(2)`` reads as the comparison it is.
        """
        if self.ratio is sympy.oo:
            shown = "LogValue.infinity()"
            if not self.conditions:
                return shown
            return f"LogValue(LogValue.infinity(), conditions={self.conditions!r})"
        extra = symbols_argument([self.ratio])
        if self.conditions:
            extra += f", conditions={self.conditions!r}"
        return f"LogValue.log({number_text(self.ratio)}{extra})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)

    def _repr_latex_(self) -> str:
        expression = self.to_sympy()
        with big_integer_printing():
            return f"${sympy.latex(expression, order=printing_order(expression))}$"

    # --- arithmetic in the log domain -------------------------------------------------
    def __add__(self, other: object) -> LogValue:
        if not isinstance(other, LogValue):
            return NotImplemented
        return LogValue(
            _multiply(self.ratio, other.ratio), conditions=self.conditions + other.conditions
        )

    def __sub__(self, other: object) -> LogValue:
        if not isinstance(other, LogValue):
            return NotImplemented
        if other.is_infinite:
            raise InvalidArgument("cannot subtract an infinite log value")
        if prove_zero(other.ratio):
            raise InvalidArgument("cannot subtract log(0)")
        return LogValue(
            _multiply(self.ratio, _inverse(other.ratio)),
            conditions=self.conditions + other.conditions,
        )

    def __mul__(self, other: object) -> LogValue:
        """``k * log(r) = log(r**k)`` for an integer ``k >= 0``."""
        if isinstance(other, bool) or not isinstance(other, int):
            return NotImplemented
        if other < 0:
            raise InvalidArgument(f"multiplier {abbreviated(other)} must not be negative")
        if self.is_infinite:
            return LogValue(1) if other == 0 else self
        return LogValue(
            as_scalar(to_sympy(self.ratio) ** other)
            if not self.is_rational_ratio
            else self.ratio**other,
            conditions=self.conditions,
        )

    __rmul__ = __mul__

    # --- comparison -------------------------------------------------------------------
    def _ratio_of(self, other: object) -> Scalar | None:
        """The ratio whose log equals ``other``, when it is exactly known."""
        if isinstance(other, LogValue):
            return other.ratio
        if isinstance(other, (int, Fraction)) and not isinstance(other, bool) and other == 0:
            return Fraction(1)
        if isinstance(other, sympy.Basic):
            if other is sympy.oo:
                return sympy.oo
            if other == 0:
                return Fraction(1)
            if isinstance(other, sympy.log) and len(other.args) == 1:
                return as_scalar(other.args[0])
        return None

    def compare(self, other: object) -> int:
        """-1, 0 or 1 as ``self`` is below, equal to or above ``other`` (exact or certified).

        ``other`` may be a ``LogValue``, an exact number or a sympy expression (e.g. an ε).
        Raises :class:`~exactpml.errors.Undecided` when no certified answer exists.
        """
        target = self._ratio_of(other)
        if target is not None:
            return _compare_ratios(self.ratio, target)
        if isinstance(other, float):
            exact(other, where="comparison with a log value")  # raises InexactInput
        value = to_sympy(exact(other, where="comparison with a log value"))
        if self.is_infinite:
            return 0 if value is sympy.oo else 1
        if prove_zero(self.ratio):
            return 0 if value is sympy.S.NegativeInfinity else -1
        return certify.compare(self.to_sympy(), value)

    def __eq__(self, other: object) -> bool:
        target = self._ratio_of(other)
        if target is None:
            return NotImplemented
        return _compare_ratios(self.ratio, target) == 0

    def __hash__(self) -> int:
        return hash(("LogValue", self.ratio))

    def __lt__(self, other: Any) -> bool:
        return self.compare(other) < 0

    def __le__(self, other: Any) -> bool:
        return self.compare(other) <= 0

    def __gt__(self, other: Any) -> bool:
        return self.compare(other) > 0

    def __ge__(self, other: Any) -> bool:
        return self.compare(other) >= 0


def _multiply(a: Scalar, b: Scalar) -> Scalar:
    if a is sympy.oo or b is sympy.oo:
        if prove_zero(a) or prove_zero(b):
            raise InvalidArgument("log(0) + log(oo) is undefined")
        return sympy.oo
    if type(a) is Fraction and type(b) is Fraction:
        return a * b
    return as_scalar(sympy.simplify(to_sympy(a) * to_sympy(b)))


def _inverse(a: Scalar) -> Scalar:
    if type(a) is Fraction:
        return 1 / a
    return as_scalar(1 / to_sympy(a))


def _compare_ratios(a: Scalar, b: Scalar) -> int:
    """Exact comparison of two ratios; symbolic ratios are settled by sympy or certify."""
    if a is sympy.oo or b is sympy.oo:
        if a is b:
            return 0
        return 1 if a is sympy.oo else -1
    if type(a) is Fraction and type(b) is Fraction:
        return (a > b) - (a < b)
    difference = to_sympy(a) - to_sympy(b)
    zero = prove_zero(as_scalar(difference))
    if zero:
        return 0
    if difference.free_symbols:
        positive = difference.is_positive
        negative = difference.is_negative
        if positive:
            return 1
        if negative:
            return -1
        raise Undecided(
            f"cannot decide the sign of {abbreviated(difference)} for all values of its symbols",
            expression=difference,
        )
    return exact_sign(as_scalar(difference))  # certified; compares logs when e^ε is huge
