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

Entries are strings (``"1/3"``, ``"0.3"``, ``"1 - t"``) or JSON numbers.  A JSON number is
read from its decimal text exactly (``0.3`` means 3/10), never through a binary float.
Every problem raises :class:`~exactpml.errors.InvalidFile` naming the file and the key.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy

from exactpml.core.bounds import big_integer_printing
from exactpml.distribution import Distribution
from exactpml.errors import InvalidArgument, InvalidFile
from exactpml.exact import Scalar
from exactpml.mechanism import Mechanism

__all__ = [
    "dump_json",
    "exact_to_json",
    "load_json",
    "read_mechanism",
    "read_prior",
]

_ASSUMPTIONS = {"positive", "nonnegative", "negative", "nonpositive"}


def load_json(path: str | Path) -> Any:
    """Parse a JSON file with exact decimals; raise ``InvalidFile`` naming the file on error."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise InvalidFile(f"{file}: cannot read the file ({error.strerror})") from None
    try:
        return json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as error:
        raise InvalidFile(
            f"{file}: malformed JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None


def _symbols(document: Mapping[str, Any], file: Path) -> dict[str, sympy.Symbol]:
    declared = document.get("symbols", {})
    if not isinstance(declared, Mapping):
        raise InvalidFile(f"{file}: key 'symbols' must map names to assumptions")
    symbols = {}
    for name, assumption in declared.items():
        if assumption not in _ASSUMPTIONS:
            raise InvalidFile(
                f"{file}: symbols.{name}: assumption {assumption!r} must be one of "
                f"{sorted(_ASSUMPTIONS)}"
            )
        symbols[name] = sympy.Symbol(name, **{assumption: True})
    return symbols


def _wrap(file: Path, action: Any) -> Any:
    try:
        return action()
    except InvalidFile:
        raise
    except InvalidArgument as error:
        raise InvalidFile(f"{file}: {error}") from None


def read_mechanism(path: str | Path) -> tuple[Mechanism, Distribution | None]:
    """Read a mechanism file; return the mechanism and its prior (None when absent)."""
    file = Path(path)
    document = load_json(file)
    if not isinstance(document, Mapping):
        raise InvalidFile(f"{file}: the top level must be a JSON object")
    unknown = set(document) - {"inputs", "outputs", "rows", "matrix", "prior", "symbols", "name"}
    if unknown:
        raise InvalidFile(f"{file}: unknown key(s) {sorted(unknown)}")
    symbols = _symbols(document, file)
    inputs = document.get("inputs")
    outputs = document.get("outputs")
    for key, value in (("inputs", inputs), ("outputs", outputs)):
        if value is not None and not isinstance(value, list):
            raise InvalidFile(f"{file}: key '{key}' must be a list of labels")
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


def read_prior(path: str | Path) -> Distribution:
    """Read a prior file: ``{"a": "1/2", ...}`` or ``{"prior": {...}, "symbols": {...}}``."""
    file = Path(path)
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
    with big_integer_printing():
        if isinstance(value, Fraction):
            return str(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        if isinstance(value, sympy.Basic):
            return str(value)
        if hasattr(value, "to_sympy"):
            return str(value)
        return value


def dump_json(document: Any) -> str:
    """Serialise with exact values as strings, keys sorted for stable output.

    Exact values of any size are printed in full (see :func:`exact_to_json`).
    """
    with big_integer_printing():
        return json.dumps(document, indent=2, sort_keys=True, default=exact_to_json)
