"""Exact text, LaTeX and equality of the values that evidence carries.

Evidence records hold exact values as strings (``"3/10"``, ``"log(9/5)"``) so that a
report can be stored, diffed and cited.  This module turns exact objects (``int``,
:class:`fractions.Fraction`, sympy expressions, exact strings, objects with a ``_sympy_``
method) into that text and into LaTeX, and decides equality exactly: by ``==`` on
rationals, by sympy's simplification and three-valued ``is_zero`` otherwise, and
``None`` (undecided) when neither settles it.  A float anywhere is refused with
:class:`exactpml.errors.InexactInput`: no claim is decided by a float.
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from exactpml.core.exact import exact, to_sympy
from exactpml.errors import InexactInput, InvalidArgument
from exactpml.latex_text import latex_text

__all__ = [
    "exact_latex",
    "exact_repr",
    "exact_text",
    "exactly_equal",
    "latex_escape_text",
    "require_exact",
    "three_valued",
]


def _is_sympy(value: object) -> bool:
    return type(value).__module__.startswith("sympy")


def _is_inexact(value: object) -> bool:
    if isinstance(value, bool | int | Fraction | Decimal | str):
        return False
    if isinstance(value, float | complex):
        return True
    module = type(value).__module__
    if module.startswith("mpmath"):
        return True
    if module.startswith("numpy"):
        return isinstance(value, numbers.Number) and not isinstance(value, numbers.Integral)
    if _is_sympy(value):
        import sympy

        return isinstance(value, sympy.Basic) and value.has(sympy.Float)
    return False


def require_exact(value: object, *, name: str = "value") -> None:
    """Raise :class:`InexactInput` if ``value`` is a float or another inexact number.

    >>> require_exact(Fraction(3, 10))
    >>> require_exact(0.3, name="expected")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactpml.errors.InexactInput: expected=0.3 is inexact; use an int, a Fraction, ...
    """
    if _is_inexact(value):
        raise InexactInput(
            f"{name}={value!r} is inexact; use an int, a Fraction, an exact string or a sympy "
            "expression."
        )


def exact_text(value: object, *, name: str = "value") -> str:
    """The exact value as a string: ``"3/10"``, ``"log(9/5)"``, ``"oo"``.

    Strings are taken as already exact text.

    >>> exact_text(Fraction(9, 5))
    '9/5'
    >>> import sympy
    >>> exact_text(sympy.log(sympy.Rational(9, 5)))
    'log(9/5)'
    """
    require_exact(value, name=name)
    if isinstance(value, str):
        return value
    return str(value)


def latex_escape_text(text: str) -> str:
    """Text for LaTeX, specials escaped and Unicode mapped (``exactpml.latex_text``)."""
    return latex_text(text)


def exact_latex(value: object, *, name: str = "value") -> str:
    r"""The exact value in LaTeX (math mode): ``\frac{9}{5}``, ``\log{\left(\frac{9}{5} \right)}``.

    >>> exact_latex(Fraction(-3, 10))
    '- \\frac{3}{10}'
    >>> exact_latex(7)
    '7'
    """
    require_exact(value, name=name)
    if isinstance(value, bool):
        return rf"\text{{{value}}}"
    if isinstance(value, int | Fraction):
        import sympy

        return str(sympy.latex(sympy.Rational(value.numerator, value.denominator)))
    if _is_sympy(value):
        import sympy

        return str(sympy.latex(value))
    if isinstance(value, str):
        return rf"\text{{{latex_escape_text(value)}}}"
    repr_latex = getattr(value, "_repr_latex_", None)
    if callable(repr_latex):
        text = repr_latex()
        if isinstance(text, str):
            return text.strip().strip("$").strip()
    converter = getattr(value, "_sympy_", None)
    if callable(converter):
        import sympy

        return str(sympy.latex(converter()))
    return rf"\text{{{latex_escape_text(str(value))}}}"


def exact_repr(value: object, *, name: str = "instance") -> str:
    """A readable exact rendering of an instance: Fractions as ``3/10``, containers recursed.

    Floats anywhere inside are refused: a counterexample must be exact.

    >>> exact_repr((Fraction(1, 3), [0, Fraction(2)]))
    '(1/3, [0, 2])'
    >>> exact_repr({"p": Fraction(1, 2)})
    "{'p': 1/2}"
    """
    require_exact(value, name=name)
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple):
        inner = ", ".join(exact_repr(item, name=name) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(exact_repr(item, name=name) for item in value) + "]"
    if isinstance(value, Mapping):
        items = (
            f"{exact_repr(key, name=name)}: {exact_repr(item, name=name)}"
            for key, item in value.items()
        )
        return "{" + ", ".join(items) + "}"
    if isinstance(value, frozenset | set):
        if not value:
            return f"{type(value).__name__}()"
        inner = ", ".join(sorted(exact_repr(item, name=name) for item in value))
        return "{" + inner + "}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            _require_exact_deep(getattr(value, field.name), name=f"{name}.{field.name}")
        return repr(value)
    if _is_sympy(value):
        return str(value)
    return repr(value)


def _require_exact_deep(value: object, *, name: str) -> None:
    require_exact(value, name=name)
    if isinstance(value, tuple | list | set | frozenset):
        for item in value:
            _require_exact_deep(item, name=name)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _require_exact_deep(key, name=name)
            _require_exact_deep(item, name=name)


def _to_sympy(value: object) -> Any:
    import sympy

    if isinstance(value, bool):
        return sympy.true if value else sympy.false
    if isinstance(value, int | Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    if isinstance(value, Decimal):
        return to_sympy(Fraction(value))
    if isinstance(value, sympy.Basic):
        return value
    converter = getattr(value, "_sympy_", None)
    if callable(converter):
        return converter()
    # strings by exactpml's own grammar (which never evaluates code), numpy integers, ...
    return to_sympy(exact(value))


def exactly_equal(left: object, right: object) -> bool | None:
    """Decide ``left == right`` exactly; ``None`` when it cannot be settled.

    Rationals are compared with ``==``.  Anything else is converted to sympy (strings are
    read by exactpml's own grammar, :mod:`exactpml.core.parsing`, which never evaluates
    code; decimals are exact, so ``"0.3"`` is 3/10).  A closed difference is decided by
    exactpml's certified ``sign`` (Arb balls, exact zero tests); one with symbols is
    simplified: equal when it simplifies to 0, different when the symbols' assumptions prove
    it non-zero, undecided otherwise.  Floats are refused.

    >>> exactly_equal(Fraction(1, 2), Fraction(2, 4))
    True
    >>> import sympy
    >>> exactly_equal(sympy.log(2) + sympy.log(3), sympy.log(6))
    True
    >>> exactly_equal(sympy.log(sympy.Rational(9, 5)), "log(2)")
    False
    """
    require_exact(left, name="left")
    require_exact(right, name="right")
    if isinstance(left, int | Fraction) and isinstance(right, int | Fraction):
        return left == right
    if left is right:
        return True
    import sympy

    try:
        a = _to_sympy(left)
        b = _to_sympy(right)
    except (sympy.SympifyError, TypeError, ValueError, SyntaxError):
        return True if _plain_equal(left, right) else None
    if a.has(sympy.Float) or b.has(sympy.Float):
        raise InexactInput(f"cannot compare {left!r} and {right!r} exactly: a float appears")
    if a == b:
        return True
    if isinstance(a, sympy.logic.boolalg.Boolean) or isinstance(b, sympy.logic.boolalg.Boolean):
        return False
    difference = a - b
    if not difference.free_symbols:
        return _closed_difference_is_zero(difference)
    difference = sympy.simplify(difference)
    if difference == 0:
        return True
    if not difference.free_symbols:  # the symbols cancelled
        return _closed_difference_is_zero(difference)
    is_zero = difference.is_zero  # from the symbols' assumptions
    if is_zero is None:
        return None
    return bool(is_zero)


def _closed_difference_is_zero(difference: Any) -> bool | None:
    """Whether a closed difference is 0: exactpml's ``sign`` (Arb balls that exclude 0, or
    certify's proof of zero); a number ``certify`` cannot enclose (``tan(1)``) is equal only
    when certify's ``proves_zero`` says so, else undecided.  sympy's ``is_zero`` is never
    asked (on numbers it evaluates to a few digits), nor ``simplify`` directly: it makes
    sqrt(1 + 10^-420 sqrt 2) - sqrt(1 - 10^-420 sqrt 2), about 1.4e-420, exactly 0."""
    from exactpml.core.certify import proves_zero, sign
    from exactpml.errors import Undecided

    try:
        return sign(difference) == 0
    except (Undecided, InvalidArgument):  # not enclosed (tan, an integral, ...), or too close
        return True if proves_zero(difference) else None


def three_valued(result: object, *, name: str) -> bool | None:
    """``result`` as True, False or None; sympy and numpy booleans are accepted.

    Anything else (a number, an unevaluated sympy relation) raises InvalidArgument, so
    that a truthy value is never mistaken for a verdict.

    >>> import sympy
    >>> three_valued(sympy.Integer(2) > 1, name="holds")
    True
    >>> three_valued(sympy.Symbol("x") > 1, name="holds")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactpml.errors.InvalidArgument: holds must return True, False or None (undecided), ...
    """
    if result is None or isinstance(result, bool):
        return result
    module = type(result).__module__
    if module.startswith("sympy") and type(result).__name__ in ("BooleanTrue", "BooleanFalse"):
        return bool(result)
    if module.startswith("numpy") and type(result).__name__ in ("bool", "bool_"):
        return bool(result)
    raise InvalidArgument(
        f"{name} must return True, False or None (undecided), not {result!r} "
        f"({type(result).__name__})."
    )


def _plain_equal(left: object, right: object) -> bool:
    try:
        return bool(left == right)
    except Exception:
        return False
