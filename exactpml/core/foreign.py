"""Foreign exceptions become exactpml errors at the public boundaries of the core.

sympy, python-flint, numpy, ``decimal``, ``json`` and Python's own arithmetic raise their
own exceptions (``ValueError: Exceeds the limit (4300 digits)``, ``PolynomialError``,
``OverflowError``, ``RecursionError``, ...).  A public function of exactpml's core
(:func:`exactpml.core.exact.exact`, :func:`exactpml.certify.sign`, the value objects'
constructors, the renderers, the file readers) runs its work inside
:func:`exactpml_errors`, which lets exactpml's errors through and turns every other
``Exception`` into :class:`~exactpml.errors.InvalidArgument` (a value could not be read or
rendered) or :class:`~exactpml.errors.Undecided` (a decision could not be reached), naming
the entry and the foreign error, with no traceback from inside the foreign library.

>>> with exactpml_errors("row 'a'"):
...     int("12", base=1)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
exactpml.errors.InvalidArgument: row 'a': ValueError: int() base must be >= 2 and <= 36, or 0
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import ParamSpec, TypeVar

from exactpml.core.abbreviate import cut
from exactpml.errors import ExactPMLError, InvalidArgument, Undecided

__all__ = ["InvalidArgumentType", "exactpml_errors", "translated", "with_exactpml_errors"]


class InvalidArgumentType(InvalidArgument, TypeError):
    """An argument of the wrong type (a public boundary's check of an annotation, or a
    foreign ``TypeError``): an :class:`~exactpml.errors.InvalidArgument` that ``except
    TypeError`` catches too, as it caught the foreign error before (the errors module's
    rule: argument errors derive from the matching built-in class)."""


_P = ParamSpec("_P")
_R = TypeVar("_R")

_SHOWN_CHARACTERS = 160  # of the foreign error's own message


def _foreign_text(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:  # a message that cannot be printed (a huge int in it)
        text = ""
    name = type(error).__name__
    return cut(f"{name}: {text}" if text else name, _SHOWN_CHARACTERS)


def translated(
    foreign: Exception,
    where: str,
    *,
    undecided: bool = False,
    error: type[ExactPMLError] | None = None,
) -> ExactPMLError:
    """The exactpml error that stands for the foreign exception ``foreign`` (see
    :func:`exactpml_errors`; for a hot path, ``except Exception`` costs nothing until raised)."""
    prefix = f"{where}: " if where else ""
    error_class = error or (Undecided if undecided else InvalidArgument)
    if error_class is InvalidArgument and isinstance(foreign, TypeError):
        error_class = InvalidArgumentType  # still a TypeError for the caller
    if isinstance(foreign, RecursionError):
        return error_class(f"{prefix}the expression nests too deeply for sympy")
    return error_class(f"{prefix}{_foreign_text(foreign)}")


@contextlib.contextmanager
def exactpml_errors(
    where: str, *, undecided: bool = False, error: type[ExactPMLError] | None = None
) -> Iterator[None]:
    """Turn a foreign exception raised inside the block into an exactpml error.

    Args:
        where: the entry or the call, named first in the message.
        undecided: raise :class:`~exactpml.errors.Undecided` (a decision failed) instead of
            :class:`~exactpml.errors.InvalidArgument` (a value could not be handled).
        error: the class to raise instead (e.g. :class:`~exactpml.errors.InvalidFile`).

    ``MemoryError`` becomes the same error (the work asked for more memory than there is);
    ``AssertionError`` (a broken invariant of exactpml: a bug to report), ``KeyboardInterrupt``
    and ``SystemExit`` pass through.
    """
    try:
        yield
    except (ExactPMLError, AssertionError):
        raise
    except Exception as foreign:  # the boundary: every foreign error, MemoryError included
        raise translated(foreign, where, undecided=undecided, error=error) from None


def with_exactpml_errors(
    where: str, *, undecided: bool = False
) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """A decorator: the function's body runs inside :func:`exactpml_errors` (``where`` named)."""

    def decorate(function: Callable[_P, _R]) -> Callable[_P, _R]:
        @functools.wraps(function)
        def wrapped(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            with exactpml_errors(where, undecided=undecided):
                return function(*args, **kwargs)

        return wrapped

    return decorate
