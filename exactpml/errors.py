"""The error classes of exactpml.

Every error derives from :class:`ExactPMLError`, so a caller can catch all of them at once.
Errors about arguments also derive from the matching built-in class (``ValueError`` or
``TypeError``), so code that already catches those keeps working.  Messages name the bad
entry and where it is, for example ``"row 'b', output 1: 0.3 is a float"``, and are at most
:data:`MESSAGE_CHARACTERS` long: a longer message keeps its beginning (the entry) and its
end (the bound or the remedy) around ``" … "``.  Control characters of a user's text in a
message are shown escaped, and a message that is not text (``BoundExceeded(10**5000)``) is
kept as text that prints.

>>> len(str(InvalidArgument("entry: " + "9" * 10_000 + " is too large")))
300
"""

from __future__ import annotations

__all__ = [
    "MESSAGE_CHARACTERS",
    "ExactPMLError",
    "InexactInput",
    "InvalidArgument",
    "InvalidFile",
    "Undecided",
]


MESSAGE_CHARACTERS = 300
"""The longest message of an exactpml error (longer ones are cut in the middle)."""

_HEAD_CHARACTERS = 200  # kept from the start of a cut message; the rest from its end


def _capped(message: str) -> str:
    if len(message) <= MESSAGE_CHARACTERS:
        return message
    tail = MESSAGE_CHARACTERS - _HEAD_CHARACTERS - 3
    return f"{message[:_HEAD_CHARACTERS]} … {message[len(message) - tail :]}"


class ExactPMLError(Exception):
    """Root of every error raised by exactpml (its message is at most ``MESSAGE_CHARACTERS``)."""

    def __init__(self, *args: object) -> None:
        if args:  # the message as capped printable text, whatever was given
            args = (_capped(_escaped(_text(args[0]))), *args[1:])
        super().__init__(*args)


def _escaped(message: str) -> str:
    """Control characters of a user's text (``"\\x1b[31m"`` in a name) shown escaped, so a
    message never drives the terminal; line breaks kept."""
    if message.isprintable():
        return message
    return "".join(
        character if character.isprintable() or character == "\n" else repr(character)[1:-1]
        for character in message
    )


def _text(message: object) -> str:
    """``message`` as text; a value whose ``str`` fails (an int past Python's 4300-digit
    limit, a hostile object) by its type."""
    if isinstance(message, str):
        return message
    try:
        return str(message)
    except Exception:
        return f"<{type(message).__name__} that does not print>"


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
