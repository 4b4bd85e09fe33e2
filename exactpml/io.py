"""Reading and writing mechanisms and priors as JSON with exact entries.

A mechanism file::

    {
      "inputs":  ["a", "b"],                       (optional)
      "outputs": ["yes", "no"],                    (optional)
      "rows":    {"a": {"yes": "3/4", "no": "1/4"},
                  "b": {"yes": "1/4", "no": "3/4"}},
      "prior":   {"a": "1/2", "b": "1/2"},         (optional)
      "symbols": {"t": "positive"}                 (optional: assumptions of symbols)
    }

``"matrix": [["3/4", "1/4"], ["1/4", "3/4"]]`` may replace ``"rows"`` (labels then come
from ``inputs``/``outputs`` or default to 0, 1, ...).  A prior file is either a mapping
``{"a": "1/2", ...}`` or ``{"prior": {...}}``.

Entries are strings (``"1/3"``, ``"0.3"``, ``"1 - t"``), read by exactpml's own grammar
(:mod:`exactpml.core.parsing`, which never evaluates code), or JSON numbers.  A JSON number
is read from its decimal text exactly (``0.3`` means 3/10), never through a binary float.

Reading is bounded (:class:`~exactpml.core.bounds.Bounds`): the file's size
(``file_bytes``), its nesting (``json_depth``) and every number (``decimal_digits``,
``decimal_exponent``) are checked before the work is done.  Every problem -- unreadable,
not UTF-8, not JSON, a repeated key, ``NaN``, a number or a nesting beyond a bound, an entry
that is not a number -- raises :class:`~exactpml.errors.InvalidFile` naming the file and the
place (a key path such as ``rows.a.yes``, or a line and column)::

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "m.json"
    >>> _ = path.write_text('{"rows": {"a": {"yes": 1, "yes": 0}}}')
    >>> read_mechanism(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactpml.errors.InvalidFile: ...m.json: rows.a: duplicate key 'yes' ...
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy

from exactpml.core import boundary as _boundary
from exactpml.core.abbreviate import abbreviated_repr, file_kind
from exactpml.core.bounds import BoundExceeded, big_integer_printing, current_bounds, exceeded
from exactpml.core.display import exact_text
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, exact
from exactpml.core.foreign import exactpml_errors, with_exactpml_errors
from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument, InvalidFile, Undecided

__all__ = [
    "FileBoundExceeded",
    "dump_json",
    "exact_to_json",
    "load_json",
    "read_mechanism",
    "read_prior",
]

_ASSUMPTIONS = {"positive", "nonnegative", "negative", "nonpositive"}


class FileBoundExceeded(InvalidFile, BoundExceeded):
    """A file asks for more work than a bound allows (both ``InvalidFile`` and ``BoundExceeded``).

    ``bound`` names the field of :class:`~exactpml.core.bounds.Bounds` (``"file_bytes"``,
    ``"json_depth"``, ``"decimal_digits"``, ...) and ``limit`` its value.
    """


def _file_bound(file: Path, place: str, error: BoundExceeded) -> FileBoundExceeded:
    prefix = f"{file}: {place}: " if place else f"{file}: "
    return FileBoundExceeded(f"{prefix}{error}", bound=error.bound, limit=error.limit)


@dataclass(frozen=True, slots=True)
class _Refused:
    """Left in a parsed document in place of a value that must not be read (a JSON number
    beyond the bounds, ``NaN``); reported with its key path once parsing has finished."""

    error: InvalidArgument


_JSON_NUMBER = re.compile(r"-?(?P<int>\d+)(?:\.(?P<frac>\d+))?(?:[eE](?P<exp>[-+]?\d+))?")
# A string runs to its closing quote or, unterminated, to the end of the text: every match
# attempt succeeds at once, so the scan is linear even on an unterminated '"\\"\\"...'.
_STRUCTURE = re.compile(r'"[^"\\]*(?:\\[\s\S]?[^"\\]*)*(?:"|\Z)|[\[{]|[\]}]')
_SURROGATE = re.compile("[\ud800-\udfff]")
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_\-]+")


def _json_integer(text: str) -> int | _Refused:
    """A JSON integer literal, exactly, if it has at most ``decimal_digits`` digits."""
    digits = len(text.lstrip("-"))
    if digits > current_bounds().decimal_digits:
        return _Refused(exceeded("", f"the integer has {digits} digits", "decimal_digits"))
    return int(Decimal(text))  # Decimal -> int is not subject to Python's 4300-digit limit


def _json_fraction(text: str) -> Fraction | _Refused:
    """A JSON number with a fraction or exponent, read exactly from its decimal text.

    The digits and the exponent are checked against ``decimal_digits`` and
    ``decimal_exponent`` before any arithmetic (``1e-999999999`` is refused at once).
    """
    bounds = current_bounds()
    match = _JSON_NUMBER.fullmatch(text)
    if match is None:  # pragma: no cover - json only passes numbers of this shape
        return _Refused(InvalidArgument(f"{text!r} is not a JSON number"))
    significant = len((match.group("int") + (match.group("frac") or "")).lstrip("0"))
    if significant > bounds.decimal_digits:
        return _Refused(
            exceeded("", f"the number has {significant} significant digits", "decimal_digits")
        )
    exponent = (match.group("exp") or "0").lstrip("+-").lstrip("0")
    if len(exponent) > len(str(bounds.decimal_exponent)):
        shown = text if len(text) <= 40 else f"{text[:40]}..."
        return _Refused(exceeded("", f"the exponent of {shown} is too large", "decimal_exponent"))
    try:
        value = exact(Decimal(text))
    except InvalidArgument as error:
        return _Refused(error)
    assert isinstance(value, Fraction)
    return value


def _json_constant(name: str) -> _Refused:
    return _Refused(InvalidArgument(f"{name} is not a number (JSON numbers are finite)"))


def _place(path: tuple[str | int, ...]) -> str:
    """``rows.a.yes``, ``matrix[0][1]``, ``rows["a b"]``; ``top level`` for the document."""
    if not path:
        return "top level"
    parts = []
    for step in path:
        if isinstance(step, int):
            parts.append(f"[{step}]")
        elif _PLAIN_KEY.fullmatch(step):
            parts.append(f".{step}" if parts else step)
        else:
            parts.append(f"[{json.dumps(step)}]")
    return "".join(parts)


def _line_column(text: str, position: int) -> str:
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    return f"line {line}, column {column}"


#: A path longer than this is shown by its ends in messages about opening it.
_SHOWN_PATH_CHARACTERS = 120


def _file_path(path: object) -> Path:
    """The path of a file to read; InvalidArgument for anything but a file name.

    >>> _file_path(None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactpml.errors.InvalidArgument: path must be a file name (...), not NoneType
    """
    name = os.fspath(path) if isinstance(path, str | os.PathLike) else None
    if not isinstance(name, str):
        raise InvalidArgument(
            f"path must be a file name (a str or an os.PathLike), not {type(path).__name__}"
        )
    if "\0" in name:
        raise InvalidFile(
            f"{_shown(name)!r}: cannot read the file (the path contains a NUL character)"
        )
    return Path(name)


def _shown(file: Path | str) -> str:
    """The path for a message: in full, or its ends and its length when it is long."""
    text = str(file)
    if len(text) <= _SHOWN_PATH_CHARACTERS:
        return text
    return f"{text[:60]}…{text[-40:]} (a path of {len(text)} characters)"


def _check_regular(file: Path, status: os.stat_result) -> None:
    """Refuse anything but a regular file, and a regular file above ``file_bytes``."""
    if not stat.S_ISREG(status.st_mode):
        kind = file_kind(status.st_mode)
        raise InvalidFile(
            f"{_shown(file)}: cannot read the file: it is {kind}; only a regular file is read"
        )
    limit = current_bounds().file_bytes
    if status.st_size > limit:
        raise _file_bound(
            file, "", exceeded("", f"the file has {status.st_size} bytes", "file_bytes")
        )


def _read_bytes(file: Path) -> bytes:
    """The bytes of a regular file, refused before reading when larger than ``file_bytes``.

    A FIFO, device, socket or directory is refused (opening a FIFO blocks until a writer
    comes; a device may never end): checked with ``stat`` before opening, and again with
    ``fstat`` on what was opened (without blocking, ``O_NONBLOCK``), since the path may
    have been replaced in between.
    """
    limit = current_bounds().file_bytes
    try:
        _check_regular(file, os.stat(file))
        flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
        descriptor = os.open(file, flags | getattr(os, "O_CLOEXEC", 0))
        with open(descriptor, "rb", closefd=True) as handle:
            _check_regular(file, os.fstat(descriptor))
            data = handle.read(limit + 1)  # the file may have grown since the check
    except OSError as error:
        detail = error.strerror or type(error).__name__
        raise InvalidFile(f"{_shown(file)}: cannot read the file ({detail})") from None
    if len(data) > limit:
        raise _file_bound(
            file, "", exceeded("", f"the file has more than {limit} bytes", "file_bytes")
        )
    return data


def _decode(file: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        offset = error.start
        line = data.count(b"\n", 0, offset) + 1
        column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
        raise InvalidFile(
            f"{file}: not UTF-8 text: byte 0x{data[offset]:02x} at byte offset {offset} "
            f"(line {line}, byte {column} of the line) cannot be decoded ({error.reason})"
        ) from None


def _check_depth(file: Path, text: str) -> None:
    """Refuse nesting deeper than ``json_depth`` by a linear scan (no recursion)."""
    limit = current_bounds().json_depth
    if text.count("[") + text.count("{") <= limit:
        return
    depth = 0
    for match in _STRUCTURE.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                where = _line_column(text, match.start())
                problem = f"arrays and objects are nested {depth} deep at {where}"
                raise _file_bound(file, "", exceeded("", problem, "json_depth"))
        elif token in "]}":
            depth -= 1


def _check_document(
    file: Path, document: Any, duplicates: Mapping[int, tuple[dict[str, Any], list[str]]]
) -> None:
    """Report the first refused value, repeated key or lone surrogate, with its key path."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(document, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, _Refused):
            if isinstance(value.error, BoundExceeded):
                raise _file_bound(file, _place(path), value.error)
            raise InvalidFile(f"{file}: {_place(path)}: {value.error}")
        if isinstance(value, str):
            if _SURROGATE.search(value):
                raise InvalidFile(
                    f"{file}: {_place(path)}: the string contains a lone surrogate (\\ud800 to "
                    "\\udfff), which is not Unicode text"
                )
        elif isinstance(value, dict):
            if id(value) in duplicates:
                repeated = ", ".join(repr(key) for key in duplicates[id(value)][1])
                raise InvalidFile(
                    f"{file}: {_place(path)}: duplicate key {repeated} (a JSON object must not "
                    "repeat a key; which value was meant is ambiguous)"
                )
            for key in value:
                if _SURROGATE.search(key):
                    raise InvalidFile(
                        f"{file}: {_place((*path, key))}: the key contains a lone surrogate, "
                        "which is not Unicode text"
                    )
            stack.extend((item, (*path, key)) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((item, (*path, index)) for index, item in reversed(list(enumerate(value))))


def load_json(path: str | os.PathLike[str]) -> Any:
    """Parse a JSON file with exact numbers, within the bounds; ``InvalidFile`` on any problem.

    JSON integers become ``int``, other JSON numbers ``Fraction`` (read from their decimal
    text: ``0.3`` is 3/10).  Refused, with the file and the place (a key path such as
    ``rows.a.yes`` or a line and column) in the message: a file that cannot be read, is
    larger than ``Bounds.file_bytes``, is not UTF-8, nests deeper than ``Bounds.json_depth``,
    is not JSON, repeats a key in an object, holds ``NaN`` or ``Infinity``, a number beyond
    ``Bounds.decimal_digits`` or ``Bounds.decimal_exponent``, or a string with a lone
    surrogate.  Problems with a bound raise :class:`FileBoundExceeded`.

    Args:
        path: the file.

    Returns:
        the document (dicts, lists, strings, ints, Fractions, bools and None).

    Raises:
        InvalidFile: the file cannot be read or is malformed (see above).
        InvalidArgument: ``path`` is not a file name (a str or an os.PathLike).
    """
    file = _file_path(path)
    text = _decode(file, _read_bytes(file))
    _check_depth(file, text)
    duplicates: dict[int, tuple[dict[str, Any], list[str]]] = {}
    refused = False

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        mapping = dict(pairs)
        if len(mapping) != len(pairs):
            counts: dict[str, int] = {}
            for key, _ in pairs:
                counts[key] = counts.get(key, 0) + 1
            repeated = [key for key, count in counts.items() if count > 1]
            duplicates[id(mapping)] = (mapping, repeated)  # the mapping keeps its id alive
        return mapping

    def flag(value: Any) -> Any:
        nonlocal refused
        refused = refused or isinstance(value, _Refused)
        return value

    try:
        document = json.loads(
            text,
            parse_int=lambda literal: flag(_json_integer(literal)),
            parse_float=lambda literal: flag(_json_fraction(literal)),
            parse_constant=lambda name: flag(_json_constant(name)),
            object_pairs_hook=pairs_hook,
        )
    except json.JSONDecodeError as error:
        raise InvalidFile(
            f"{file}: malformed JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:  # only when json_depth is raised beyond what Python can parse
        raise InvalidFile(
            f"{file}: arrays and objects nest too deeply for Python's JSON parser"
        ) from None
    if refused or duplicates or "\\u" in text.lower():
        _check_document(file, document, duplicates)
    return document


def _symbols(document: Mapping[str, Any], file: Path) -> dict[str, sympy.Symbol]:
    declared = document.get("symbols", {})
    if not isinstance(declared, Mapping):
        raise InvalidFile(f"{file}: key 'symbols' must map names to assumptions")
    symbols = {}
    for name, assumption in declared.items():
        if not isinstance(assumption, str) or assumption not in _ASSUMPTIONS:
            raise InvalidFile(
                f"{file}: {_place(('symbols', name))}: assumption {assumption!r} must be one of "
                f"{sorted(_ASSUMPTIONS)}"
            )
        symbols[name] = sympy.Symbol(name, **{assumption: True})
    return symbols


def _labels(document: Mapping[str, Any], key: str, file: Path) -> list[Any] | None:
    """The optional list ``inputs`` or ``outputs``: strings or numbers (hashable) only."""
    labels = document.get(key)
    if labels is None:
        return None
    if not isinstance(labels, list):
        raise InvalidFile(f"{file}: key '{key}' must be a list of labels")
    for index, label in enumerate(labels):
        if isinstance(label, (list, dict)):
            raise InvalidFile(
                f"{file}: {_place((key, index))}: a label must be a string or a number, "
                f"not a JSON {'array' if isinstance(label, list) else 'object'}"
            )
    return labels


def _wrap(file: Path, action: Any) -> Any:
    try:
        return action()
    except InvalidFile:
        raise
    except BoundExceeded as error:
        raise _file_bound(file, "", error) from None
    except InvalidArgument as error:
        raise InvalidFile(f"{file}: {error}") from None
    except Undecided as error:  # an entry that cannot be decided: still name the file
        raise Undecided(
            f"{file}: {error}", expression=error.expression, precision=error.precision
        ) from None


def read_mechanism(path: str | os.PathLike[str]) -> tuple[Mechanism, Distribution | None]:
    """Read a mechanism file; return the mechanism and its prior (None when absent).

    Args:
        path: the file (format in the module docstring).

    Returns:
        the mechanism and the file's prior, or None when the file has no ``"prior"``.

    Raises:
        InvalidFile: the file cannot be read, is malformed (:func:`load_json`) or does not
            describe a mechanism; the message names the file and the key or entry.
        InvalidArgument: ``path`` is not a file name (a str or an os.PathLike).
    """
    file = _file_path(path)
    with exactpml_errors(str(file), error=InvalidFile):  # a foreign error names the file
        return _read_mechanism(file)


def _read_mechanism(file: Path) -> tuple[Mechanism, Distribution | None]:
    document = load_json(file)
    if not isinstance(document, Mapping):
        raise InvalidFile(f"{file}: the top level must be a JSON object")
    unknown = set(document) - {"inputs", "outputs", "rows", "matrix", "prior", "symbols", "name"}
    if unknown:
        raise InvalidFile(f"{file}: unknown key(s) {sorted(unknown)}")
    symbols = _symbols(document, file)
    inputs = _labels(document, "inputs", file)
    outputs = _labels(document, "outputs", file)
    if "rows" in document and "matrix" in document:
        raise InvalidFile(f"{file}: give either 'rows' or 'matrix', not both")
    if "rows" in document:
        rows = document["rows"]
        if not isinstance(rows, Mapping):
            raise InvalidFile(f"{file}: key 'rows' must map each input to {{output: probability}}")
        if inputs is not None:
            missing = [x for x in inputs if x not in rows]
            extra = [x for x in rows if x not in inputs]
            if missing or extra:
                raise InvalidFile(
                    f"{file}: 'rows' does not match 'inputs' (missing {missing}, extra {extra})"
                )
            rows = {x: rows[x] for x in inputs}
        mechanism = _wrap(file, lambda: Mechanism(rows, outputs=outputs, symbols=symbols))
    elif "matrix" in document:
        matrix = document["matrix"]
        if not isinstance(matrix, list) or not all(isinstance(r, list) for r in matrix):
            raise InvalidFile(f"{file}: key 'matrix' must be a list of rows (lists)")
        mechanism = _wrap(
            file,
            lambda: Mechanism.from_matrix(matrix, inputs=inputs, outputs=outputs, symbols=symbols),
        )
    else:
        raise InvalidFile(f"{file}: missing key 'rows' (or 'matrix')")
    prior = None
    if "prior" in document:
        prior = _prior_from(document["prior"], file, symbols, key="prior")
        _wrap(file, lambda: mechanism.check_prior(prior))
    return mechanism, prior


def _prior_from(
    value: Any, file: Path, symbols: Mapping[str, sympy.Symbol], *, key: str
) -> Distribution:
    if not isinstance(value, Mapping):
        raise InvalidFile(f"{file}: key '{key}' must map each input to its probability")
    return _wrap(file, lambda: Distribution(value, name=key, symbols=symbols))


def read_prior(path: str | os.PathLike[str]) -> Distribution:
    """Read a prior file: ``{"a": "1/2", ...}`` or ``{"prior": {...}, "symbols": {...}}``.

    Args:
        path: the file.

    Returns:
        the prior.

    Raises:
        InvalidFile: the file cannot be read, is malformed (:func:`load_json`) or is not a
            distribution; the message names the file and the key or entry.
        InvalidArgument: ``path`` is not a file name (a str or an os.PathLike).
    """
    file = _file_path(path)
    with exactpml_errors(str(file), error=InvalidFile):  # a foreign error names the file
        document = load_json(file)
        if not isinstance(document, Mapping):
            raise InvalidFile(f"{file}: the top level must be a JSON object")
        if "prior" in document:
            return _prior_from(document["prior"], file, _symbols(document, file), key="prior")
        return _prior_from(document, file, {}, key="prior")


def exact_to_json(value: Scalar | int | Hashable) -> Any:
    """An exact value as a JSON-safe string (``"9/5"``, ``"log(9/5)"``, ``"oo"``).

    Integers of any size are printed in full (Python's 4300-digit limit is lifted here).
    """
    if isinstance(value, (Fraction, sympy.Basic)) or hasattr(value, "to_sympy"):
        return exact_text(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return exact_text(value)
    return value


@with_exactpml_errors("dump_json")
def dump_json(document: Any) -> str:
    """Serialise with exact values as strings, keys sorted for stable output.

    Exact values of any size are printed in full (see :func:`exact_to_json`).
    """
    with big_integer_printing():
        return json.dumps(document, indent=2, sort_keys=True, default=_json_value)


def _json_value(value: Any) -> Any:
    """``json.dumps``'s fallback: exact values as strings; anything else refused by name."""
    converted = exact_to_json(value)
    if converted is value:  # json would recurse into the same object (a circular reference)
        raise InvalidArgument(
            f"dump_json: {abbreviated_repr(value)} of type {type(value).__name__} is not a "
            "value JSON can hold (exact numbers, strings, lists and dicts are)"
        )
    return converted


_boundary.guard_public_names(globals())  # every public name behind its boundary
