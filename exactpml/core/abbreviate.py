"""Short text of values of any size, for error messages: big integers by their ends and length.

An error message shows the value it is about, but an exact value may have a million digits,
and Python refuses ``str(int)`` beyond 4300 digits (:func:`sys.set_int_max_str_digits`, a
guard against quadratic time).  :func:`abbreviated` shows an integer of more than
:data:`SHOWN_DIGITS` digits as its leading and trailing digits and its digit count, computed
without converting the whole number to text (the digit count from the bit length, checked
exactly; the leading digits by one FLINT division, the trailing ones by a remainder), so
it costs milliseconds for a million digits and never meets Python's limit.  Fractions,
sympy expressions (printed by sympy's printer with every integer abbreviated, long
expressions cut to their first terms) and containers of them are shown the same way.

Results are not abbreviated: :mod:`exactpml.render` prints them in full.

>>> abbreviated(10**60 + 7)
'1000000000…0000000007 (61 digits)'
>>> from fractions import Fraction
>>> abbreviated(Fraction(-3, 4))
'-3/4'
>>> import sympy
>>> abbreviated(sympy.log(sympy.Integer(2) ** 200))
'log(1606938044…2835301376 (61 digits))'
"""

from __future__ import annotations

import contextlib
import math
import stat
import sys
import threading
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sympy
from flint import fmpz
from sympy.printing.str import StrPrinter

__all__ = [
    "SHOWN_DIGITS",
    "abbreviated",
    "abbreviated_integer",
    "abbreviated_repr",
    "big_integer_printing",
    "cut",
    "digit_count",
    "file_kind",
    "long_to_print",
    "printing_order",
]

SHOWN_DIGITS = 50
"""Integers of at most this many digits are shown in full; longer ones are abbreviated."""

_END_DIGITS = 10  # digits shown at each end of an abbreviated integer
_TEXT_CHARACTERS = 160  # default length of the text of one value
_PRINTED_NODES = 300  # a sympy expression with more nodes is shown by its first terms
_SHOWN_TERMS = 3  # terms (or arguments) shown of such an expression
_SHOWN_ITEMS = 20  # items shown of a tuple or list
_LOG10_2 = math.log10(2)


def _leading(magnitude: int, exponent: int) -> int:
    """``magnitude // 10**exponent`` by one FLINT division (GMP: fast for millions of digits)."""
    return int(fmpz(magnitude) // fmpz(10) ** exponent)


def _count_and_leading(magnitude: int) -> tuple[int, int]:
    """(number of decimal digits, the leading ``_END_DIGITS`` digits) of ``magnitude`` > 0.

    The exponent of the leading block is estimated from the bit length (a float may only
    propose it) and corrected until the block has exactly ``_END_DIGITS`` digits, which
    makes the count exact.
    """
    exponent = max(int((magnitude.bit_length() - 1) * _LOG10_2) + 1 - _END_DIGITS, 0)
    lower, upper = 10 ** (_END_DIGITS - 1), 10**_END_DIGITS
    block = _leading(magnitude, exponent)
    while block >= upper:
        exponent += 1
        block = _leading(magnitude, exponent)
    while block < lower and exponent > 0:
        exponent -= 1
        block = _leading(magnitude, exponent)
    return exponent + _END_DIGITS, block


def digit_count(value: int) -> int:
    """The number of decimal digits of ``|value|`` (1 for 0), exactly, without ``str``.

    >>> digit_count(0), digit_count(-999), digit_count(10**5000)
    (1, 3, 5001)
    """
    magnitude = abs(value)
    if magnitude < 10**SHOWN_DIGITS:
        return len(str(magnitude))
    return _count_and_leading(magnitude)[0]


def abbreviated_integer(value: int) -> str:
    """``value`` in full up to :data:`SHOWN_DIGITS` digits, else ``'1234567890…0987654321
    (5001 digits)'`` (the first and last ten digits and the exact digit count).

    >>> abbreviated_integer(-(2**200))
    '-1606938044…2835301376 (61 digits)'
    """
    magnitude = abs(value)
    if magnitude < 10**SHOWN_DIGITS:
        return str(value)
    count, block = _count_and_leading(magnitude)
    trailing = magnitude % 10**_END_DIGITS
    sign = "-" if value < 0 else ""
    return f"{sign}{block}…{trailing:0{_END_DIGITS}d} ({count} digits)"


class _AbbreviatingPrinter(StrPrinter):
    """sympy's ``str`` printer with every integer abbreviated (:func:`abbreviated_integer`)."""

    def _print_Integer(self, expr: Any) -> str:
        return abbreviated_integer(int(expr.p))

    def _print_int(self, expr: int) -> str:
        return abbreviated_integer(expr)

    def _print_Rational(self, expr: Any) -> str:
        if expr.q == 1:
            return abbreviated_integer(int(expr.p))
        return f"{abbreviated_integer(int(expr.p))}/{abbreviated_integer(int(expr.q))}"

    def _print_Fraction(self, expr: Fraction) -> str:
        return _fraction_text(expr)

    def _print_PythonRational(self, expr: Any) -> str:
        return _fraction_text(Fraction(int(expr.numerator), int(expr.denominator)))

    def _print_Float(self, expr: Any) -> str:
        sign, mantissa, exponent, _ = expr._mpf_
        if not mantissa or abs(int(exponent)) < 2**20:  # mpmath prints these in milliseconds
            return str(super()._print_Float(expr))
        shown = f"{abbreviated_integer(int(mantissa))}*2**{abbreviated_integer(int(exponent))}"
        return f"{'-' if sign else ''}Float({shown})"

    def _print_mpz(self, expr: Any) -> str:
        return abbreviated_integer(int(expr))

    def _print_mpq(self, expr: Any) -> str:
        return _fraction_text(Fraction(int(expr.numerator), int(expr.denominator)))


_ORDERED_PRINTER = _AbbreviatingPrinter()
_PRINTER = _AbbreviatingPrinter({"order": "none"})  # sympy orders sums by evalf of each term


def _fraction_text(value: Fraction) -> str:
    if value.denominator == 1:
        return abbreviated_integer(value.numerator)
    return f"{abbreviated_integer(value.numerator)}/{abbreviated_integer(value.denominator)}"


_ORDERABLE_BITS = 20  # exponents and exp arguments up to 2**20: sympy's evalf takes ms


def _small(node: sympy.Basic) -> bool:
    """A number sympy evaluates at once: rationals of at most ~2^20, symbols, pi, E, logs."""
    for part in sympy.preorder_traversal(node):
        if isinstance(part, sympy.Rational):
            if max(int(part.p).bit_length(), int(part.q).bit_length()) > _ORDERABLE_BITS:
                return False
        elif isinstance(part, (sympy.exp, sympy.factorial, sympy.binomial)) or (
            isinstance(part, sympy.Pow) and not part.exp.is_Rational
        ):
            return False
    return True


def printing_order(expr: sympy.Basic) -> str | None:
    """The ``order`` setting for sympy's printers: ``None`` (sympy's, which sorts the terms
    of a sum by a floating-point ``complex()`` of each numeric factor) unless that would
    evaluate an ``exp``, power or factorial of a huge or nested argument (``exp(10**5000)``,
    ``2**(10**5000)``: minutes, or never), then ``"none"`` (the terms in sympy's own
    structural order, never evaluated).

    >>> printing_order(sympy.log(3) + 1), printing_order(sympy.exp(sympy.Integer(10)**30) - 1)
    (None, 'none')
    """
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.exp) and not _small(node.args[0]):
            return "none"
        if isinstance(node, (sympy.factorial, sympy.binomial)) and not _small(node):
            return "none"
        if isinstance(node, sympy.Pow) and not _small(node.exp):
            return "none"
    return None


def _has_more_nodes(expr: sympy.Basic, limit: int) -> bool:
    """True when ``expr`` has more than ``limit`` nodes (stops counting there)."""
    stack = [expr]
    seen = 0
    while stack:
        node = stack.pop()
        seen += 1
        if seen > limit:
            return True
        stack.extend(node.args)
    return False


def _sympy_text(expr: sympy.Basic) -> str:
    if not _has_more_nodes(expr, _PRINTED_NODES):  # as str() prints it, integers abbreviated
        printer = _ORDERED_PRINTER if printing_order(expr) is None else _PRINTER
        with big_integer_printing():  # sympy's sort keys print integers in full
            return str(printer.doprint(expr))
    arguments = expr.args
    shown = [_sympy_text(argument) for argument in arguments[:_SHOWN_TERMS]]
    rest = len(arguments) - len(shown)
    if isinstance(expr, (sympy.Add, sympy.Mul)):
        joiner = " + " if isinstance(expr, sympy.Add) else "*"
        grouped = [
            f"({text})" if isinstance(argument, (sympy.Add, sympy.Mul)) else text
            for argument, text in zip(arguments, shown, strict=False)
        ]
        tail = f"{joiner}… ({rest} more {'terms' if joiner == ' + ' else 'factors'})"
        return joiner.join(grouped) + (tail if rest else "")
    name = getattr(expr.func, "__name__", type(expr).__name__)
    return f"{name}({', '.join(shown)}{', …' if rest else ''})"


def _text(value: object) -> str:
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return abbreviated_integer(value)
    if isinstance(value, Fraction):
        return _fraction_text(value)
    if isinstance(value, sympy.Basic):
        return _sympy_text(value)
    if type(value).__name__ == "LogValue":  # exactpml.core.logvalue imports this module
        return _sympy_text(value.to_sympy())  # type: ignore[attr-defined]
    if isinstance(value, (tuple, list)):
        inner = ", ".join(_item_text(item) for item in value[:_SHOWN_ITEMS])
        more = ", …" if len(value) > _SHOWN_ITEMS else ""
        if isinstance(value, list):
            return f"[{inner}{more}]"
        return f"({inner},)" if len(value) == 1 else f"({inner}{more})"
    try:
        return str(value)
    except (ValueError, RecursionError):  # e.g. an object holding a huge int
        return f"<{type(value).__name__} object>"


def _item_text(item: object) -> str:
    """An item of a tuple or list: numbers abbreviated, anything else by its repr."""
    if isinstance(item, (int, Fraction, sympy.Basic, tuple, list)) and not isinstance(item, bool):
        return _text(item)
    try:
        return repr(item)
    except (ValueError, RecursionError):
        return f"<{type(item).__name__} object>"


def cut(text: str, limit: int) -> str:
    """``text`` when at most ``limit`` characters, else its two ends around ``' … '``."""
    if len(text) <= limit:
        return text
    head = (limit - 3) * 2 // 3
    tail = limit - 3 - head
    return f"{text[:head]} … {text[len(text) - tail :]}"


def abbreviated(value: object, limit: int | None = _TEXT_CHARACTERS) -> str:
    """Short text of ``value`` for an error message (at most ``limit`` characters).

    Integers of more than :data:`SHOWN_DIGITS` digits (also inside Fractions, sympy
    expressions, ``LogValue`` ratios, tuples and lists) are shown by their ends and digit
    count; a longer text keeps its two ends (``limit=None``: not cut, for the ``str`` of a
    result).  Never raises on a value of any size.

    >>> abbreviated(Fraction(1, 10**5000))
    '1/1000000000…0000000000 (5001 digits)'
    """
    text = _text(value)
    return text if limit is None else cut(text, limit)


def abbreviated_repr(value: object, limit: int = 80) -> str:
    """``repr(value)`` for a message (a label, an outcome, a list of them): as Python prints
    it when that is short, else numbers abbreviated and the text cut to ``limit`` characters.

    >>> abbreviated_repr("a"), abbreviated_repr((1, 10**100))
    ("'a'", '(1, 1000000000…0000000000 (101 digits))')
    >>> abbreviated_repr(list(range(30)), limit=60)
    '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, …  16, 17, 18, 19, …]'
    """
    if not long_to_print(value):
        try:
            text = repr(value)
        except (ValueError, RecursionError):  # an object holding a huge int
            text = ""
        if text and len(text) <= limit:
            return text
    if isinstance(value, (int, Fraction, sympy.Basic, tuple, list)) and not isinstance(value, bool):
        return cut(_text(value), limit)
    if type(value).__name__ == "LogValue":  # its repr, the ratio abbreviated
        return cut(f"LogValue.log({_text(value.ratio)!r})", limit)  # type: ignore[attr-defined]
    try:
        return cut(repr(value), limit)
    except (ValueError, RecursionError):
        return cut(abbreviated(value), limit)


def long_to_print(value: object) -> bool:
    """True for a value whose ``repr`` would be long or slow: a number of more than 200 bits,
    a container of more than 20 items or holding such a number, a sympy expression of more
    than 300 nodes.

    >>> long_to_print(10**60), long_to_print(10**61), long_to_print([1, "a"])
    (False, True, False)
    """
    if isinstance(value, int):
        return value.bit_length() > 4 * SHOWN_DIGITS
    if isinstance(value, Fraction):
        return long_to_print(value.numerator) or long_to_print(value.denominator)
    if isinstance(value, (tuple, list, set, frozenset, dict)):
        return len(value) > _SHOWN_ITEMS or any(long_to_print(item) for item in value)
    if type(value).__name__ == "LogValue":
        return long_to_print(value.ratio)  # type: ignore[attr-defined]
    return isinstance(value, sympy.Basic) and _has_more_nodes(value, _PRINTED_NODES)


@contextlib.contextmanager
def big_integer_printing() -> Iterator[None]:
    """Lift Python's limit on int <-> str conversion inside a ``with`` block, then restore it.

    ``str(Fraction(1, 10**5000))`` raises ``ValueError`` in plain Python (the limit is 4300
    digits); exact results of exactpml may legitimately be that large, so every renderer
    (the command line, :func:`exactpml.io.dump_json`, ``LogValue.__str__``, ...) prints
    inside this block.  Lifting the limit is safe for exactpml's own reading, which bounds
    every literal by ``Bounds.decimal_digits`` before converting it.

    The limit is a per-interpreter setting, not a per-thread one: blocks (in any thread) are
    counted, the limit is lifted when the first begins and restored to its previous value
    when the last ends.
    """
    global _PRINTING_BLOCKS, _SAVED_LIMIT
    with _PRINTING_LOCK:
        if _PRINTING_BLOCKS == 0:
            _SAVED_LIMIT = sys.get_int_max_str_digits()
            sys.set_int_max_str_digits(0)
        _PRINTING_BLOCKS += 1
    try:
        yield
    finally:
        with _PRINTING_LOCK:
            _PRINTING_BLOCKS -= 1
            if _PRINTING_BLOCKS == 0:
                sys.set_int_max_str_digits(_SAVED_LIMIT)


_PRINTING_LOCK = threading.Lock()
_PRINTING_BLOCKS = 0
_SAVED_LIMIT = 0


def file_kind(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words, for the messages that refuse it (input
    files in :mod:`exactpml.io`, report outputs in ``proofs_check.output``).

    >>> import stat
    >>> file_kind(stat.S_IFIFO)
    'a FIFO (named pipe)'
    """
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"
