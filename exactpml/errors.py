"""The error classes of exactpml.

Every error derives from :class:`ExactPMLError`, so a caller can catch all of them at once.
Errors about arguments also derive from the matching built-in class (``ValueError`` or
``TypeError``), so code that already catches those keeps working.  Messages name the bad
entry and where it is, for example ``"row 'b', output 1: 0.3 is a float"``.
"""

from __future__ import annotations

__all__ = [
    "ExactPMLError",
    "InexactInput",
    "InvalidArgument",
    "InvalidFile",
    "Undecided",
]


class ExactPMLError(Exception):
    """Root of every error raised by exactpml."""


class InvalidArgument(ExactPMLError, ValueError):
    """An argument is malformed or violates a precondition (names the argument and the problem)."""


class InexactInput(InvalidArgument, TypeError):
    """A float (or another inexact number) was given where an exact value is required.

    Pass an ``int``, a ``fractions.Fraction``, a string such as ``"3/10"`` or ``"0.3"``
    (read as an exact decimal), or a sympy number or expression.
    """


class InvalidFile(InvalidArgument):
    """An input file (JSON) is malformed; the message names the file, the key and the problem."""


class Undecided(ExactPMLError):
    """A comparison or sign could not be settled exactly nor by certified interval bounds.

    Raised instead of guessing.  ``expression`` is the quantity whose sign was sought and
    ``precision`` the largest working precision (in bits) that was tried.
    """

    def __init__(self, message: str, *, expression: object = None, precision: int | None = None):
        super().__init__(message)
        self.expression = expression
        self.precision = precision
