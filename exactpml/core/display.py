"""Rebuildable text of exact values: every object's ``repr`` is Python that rebuilds it.

A ``repr`` of an exactpml object, pasted after ``from exactpml import *``, builds an equal
object: numbers are shown as strings of exactpml's own grammar (``'3/4'``, ``'sqrt(2)/2'``,
read back by :func:`exactpml.core.parsing.parse_exact`, never executed), so no ``Fraction``
or ``sympy`` import is needed for exact rational or closed-form entries.  Entries with free
symbols add ``symbols={'t': sympy.Symbol('t', positive=True)}`` (the one case that needs
``import sympy``).  :func:`pretty` makes IPython and Hypothesis' failure report print the same
text instead of the dataclass fields.

>>> from fractions import Fraction
>>> number_text(Fraction(3, 4)), number_text(Fraction(2))
("'3/4'", '2')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any, TypeVar

import sympy
from sympy.printing.str import StrPrinter

from exactpml.core.abbreviate import abbreviated_repr, long_to_print, printing_order
from exactpml.core.bounds import big_integer_printing
from exactpml.core.exact import Scalar, to_sympy

__all__ = [
    "abbreviated_fields_repr",
    "exact_text",
    "html_table",
    "number_text",
    "pretty",
    "printable_record",
    "printing_order",
    "quoted",
    "symbols_argument",
]


def exact_text(value: object) -> str:
    """The full text of an exact value (any size; Python's 4300-digit limit is lifted while
    printing), by sympy's ``str`` printer in :func:`printing_order`.

    >>> exact_text(Fraction(10**5000)) == "1" + "0" * 5000
    True
    """
    with big_integer_printing():  # exact values may have more than 4300 digits
        if isinstance(value, sympy.Basic):
            return str(StrPrinter({"order": printing_order(value)}).doprint(value))
        return str(value)


def quoted(value: Scalar) -> str:
    """``value`` as a quoted string of the grammar: ``'3/4'``, ``'1'``, ``'sqrt(2)'``."""
    return repr(exact_text(value))


def number_text(value: Scalar) -> str:
    """An integer bare (``3``), any other exact value quoted (``'9/5'``, ``'sqrt(2)'``)."""
    if type(value) is Fraction and value.denominator == 1:
        with big_integer_printing():
            return str(value.numerator)
    return quoted(value)


def _symbols(values: Iterable[object]) -> list[sympy.Symbol]:
    found: dict[str, sympy.Symbol] = {}
    for value in values:
        if type(value) is Fraction or not isinstance(value, sympy.Basic):
            continue
        for symbol in to_sympy(value).free_symbols:
            if isinstance(symbol, sympy.Symbol):
                found.setdefault(symbol.name, symbol)
    return [found[name] for name in sorted(found)]


def symbols_argument(values: Iterable[object]) -> str:
    """``", symbols={...}"`` declaring the free symbols of ``values`` (empty when none)."""
    declared = _symbols(values)
    if not declared:
        return ""
    parts = []
    for symbol in declared:
        assumptions = getattr(symbol, "_assumptions_orig", None) or {}
        flags = "".join(f", {key}={value!r}" for key, value in sorted(assumptions.items()))
        parts.append(f"{symbol.name!r}: sympy.Symbol({symbol.name!r}{flags})")
    return ", symbols={" + ", ".join(parts) + "}"


def pretty(value: object, printer: Any, cycle: bool) -> None:
    """The ``_repr_pretty_`` of exactpml's objects: the rebuildable ``repr``, nothing else."""
    printer.text(repr(value))


def html_table(caption: str, headers: Iterable[object], rows: Iterable[Iterable[object]]) -> str:
    """A small HTML table for Jupyter's rich display; exact values as text, all escaped."""
    import html

    def cell(value: object, tag: str) -> str:
        text = exact_text(value)
        return f"<{tag}>{html.escape(text)}</{tag}>"

    with big_integer_printing():
        head = "".join(cell(h, "th") for h in headers)
        body = "".join("<tr>" + "".join(cell(v, "td") for v in row) + "</tr>" for row in rows)
    return (
        f"<table><caption>{html.escape(caption)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


_Class = TypeVar("_Class", bound=type)


def _field_repr(value: object) -> str:
    if not long_to_print(value):
        try:
            return repr(value)
        except (ValueError, RecursionError):  # a huge int inside an object
            pass
    return abbreviated_repr(value, 200)


def abbreviated_fields_repr(cls: _Class) -> _Class:
    """Give a result dataclass the ``repr`` dataclasses would, with each field shown by
    :func:`~exactpml.core.abbreviate.abbreviated_repr`: the same text for values of ordinary
    size, and a number of more than 50 digits by its ends and digit count (Python refuses
    ``repr`` of an int past 4300 digits).  For results (``WorstCase``, ``Supremum``, ...);
    value objects keep their rebuildable ``repr``.  Apply above ``@dataclass``.
    """
    cls.__repr__ = _fields_repr(cls)  # type: ignore[method-assign]
    return cls


def _fields_repr(cls: type) -> Any:
    """The ``repr`` of :func:`abbreviated_fields_repr` for the dataclass ``cls``."""
    names = [field.name for field in dataclasses.fields(cls) if field.repr]

    def __repr__(self: Any) -> str:
        body = ", ".join(f"{name}={_field_repr(getattr(self, name))}" for name in names)
        return f"{type(self).__qualname__}({body})"

    __repr__.__exactpml_printable__ = True  # type: ignore[attr-defined]
    return __repr__


def _generated(method: object) -> bool:
    """Whether ``method`` was written by :mod:`dataclasses` (compiled from a string)."""
    code = getattr(getattr(method, "__wrapped__", method), "__code__", None)
    return code is not None and code.co_filename == "<string>"


def printable_record(cls: _Class) -> _Class:
    """Make a result record's ``repr`` and ``str`` work at any size, in place.

    A dataclass whose ``repr`` is the generated one gets :func:`abbreviated_fields_repr`; a
    ``__repr__`` (rebuildable) or ``__str__`` of its own that raises (a 5000-digit field, a
    field whose ``==`` raises: a record built by hand from hostile values) falls back to the
    abbreviated fields.  Other classes are left alone.  Applied to every public class by the
    public boundary (:func:`exactpml.core.boundary.guard_class`).

    >>> @dataclasses.dataclass(frozen=True)
    ... class Bracket:
    ...     lower: Fraction
    ...     def __str__(self) -> str:
    ...         return f"[{self.lower} ...]"
    >>> _ = printable_record(Bracket)
    >>> str(Bracket(Fraction(1, 10**5000)))
    'Bracket(lower=1/1000000000…0000000000 (5001 digits))'
    """
    if not dataclasses.is_dataclass(cls) or not isinstance(cls, type):
        return cls
    own_repr = cls.__dict__.get("__repr__")
    if _generated(own_repr):
        abbreviated_fields_repr(cls)
    elif own_repr is not None and not _marked(own_repr):  # a rebuildable repr of its own
        cls.__repr__ = _falling_back(own_repr, _fields_repr(cls))  # type: ignore[method-assign]
    own_str = cls.__dict__.get("__str__")
    if own_str is not None and not _marked(own_str):
        cls.__str__ = _falling_back(own_str, repr)  # type: ignore[method-assign]
    return cls


def _falling_back(method: Callable[[Any], object], fallback: Callable[[Any], str]) -> Any:
    """``method`` (a class's own ``__repr__`` or ``__str__``), with ``fallback(self)`` when it
    raises: a hostile or huge field gets the abbreviated fields instead."""

    def printed(self: Any) -> str:
        try:
            return str(method(self))
        except Exception:
            return fallback(self)

    printed.__name__ = getattr(method, "__name__", printed.__name__)
    printed.__qualname__ = getattr(method, "__qualname__", printed.__qualname__)
    _mark(printed, method)
    return printed


def _marked(method: object) -> bool:
    return bool(getattr(method, "__exactpml_printable__", False))


def _mark(method: Any, original: Any) -> None:
    method.__exactpml_printable__ = True
    method.__doc__ = original.__doc__
