"""Hostile values, each with a stable name: what the fuzz tests put in place of an argument.

Issue 21, item 6: huge, tiny and near-boundary numbers, strings with code, Unicode digits,
``nan``/``inf``/``oo``, floats, ``None``, containers, unhashable values, objects whose
``__eq__``/``__hash__`` raise, very long strings.  A value is chosen by its name, so a
failure is reported as ``function|parameter=name`` (``fuzz_sweep.case_key``) and rebuilt the
same way on every run.  :func:`hostile_value` builds a value from its name (each call a
fresh object: a call may mutate a list it was given).

A user function that raises, or an object whose ``repr`` raises, is left out: propagating
the user's own exception is the Python convention, not a defect of exactpml.  So is the
sympy object ``exp(10**5000) - 1``: sympy's own ``repr`` of it runs for minutes (ordering
the terms evaluates exp(10**5000)), so every function that merely keeps or shows its
argument would "hang"; it is given as text, which exactpml reads with its own grammar (the
object itself is a case of ``test_known_hostile_cases.py``: ``certify.sign``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy

FIVE_THOUSAND_DIGITS = 3 * 10**4999 + 7  # 5000 digits


class HostileError(Exception):
    """Raised by the hostile objects below (never by exactpml)."""


class RaisingEquality:
    """Hashable, but ``==`` raises: a label that cannot be compared."""

    def __eq__(self, other: object) -> bool:
        raise HostileError("__eq__ called")

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "RaisingEquality()"


class RaisingHash:
    """``hash()`` raises: a label that cannot be a key."""

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        raise HostileError("__hash__ called")

    def __repr__(self) -> str:
        return "RaisingHash()"


def _returns_list(*args: object, **kwargs: object) -> object:
    return [1, 2]


def _returns_huge(*args: object, **kwargs: object) -> object:
    return 10**5000


#: name -> a function building the value.
HOSTILE: dict[str, Callable[[], Any]] = {
    # integers: huge, at machine limits, negative, boundary
    "10**5000": lambda: 10**5000,
    "-10**5000": lambda: -(10**5000),
    "2**64": lambda: 2**64,
    "2**63": lambda: 2**63,
    "10**12": lambda: 10**12,
    "10**6": lambda: 10**6,
    "-1": lambda: -1,
    "0": lambda: 0,
    "1": lambda: 1,
    "True": lambda: True,
    # exact rationals: 5000-digit parts, tiny, near the boundaries 0, 1/2 and 1
    "Fraction(5000 digits)": lambda: Fraction(FIVE_THOUSAND_DIGITS, FIVE_THOUSAND_DIGITS + 2),
    "Fraction(1, 10**5000)": lambda: Fraction(1, 10**5000),
    "1 - 10**-5000": lambda: 1 - Fraction(1, 10**5000),
    "1 + 10**-30": lambda: 1 + Fraction(1, 10**30),
    "-10**-30": lambda: -Fraction(1, 10**30),
    "Fraction(1, 2)": lambda: Fraction(1, 2),
    # strings read by the grammar
    '"1e9999"': lambda: "1e9999",
    '"1e-9999"': lambda: "1e-9999",
    '"1e-" + 50000 nines': lambda: "1e-" + "9" * 50_000,
    '"10**10**10"': lambda: "10**10**10",
    '"2**(10**5000)"': lambda: "2**(" + "1" + "0" * 5000 + ")",
    '"exp(exp(exp(100)))"': lambda: "exp(exp(exp(100)))",
    '"exp(-exp(exp(100)))"': lambda: "exp(-exp(exp(100)))",
    '"factorial(10**5000)"': lambda: "factorial(" + "1" + "0" * 5000 + ")",
    '"log(-10**5000)"': lambda: "log(-" + "1" + "0" * 5000 + ")",
    '"1/2 + 1e-40"': lambda: "1/2 + 1e-40",
    '"1 + 1e-30"': lambda: "1 + 1e-30",
    '"5000-digit decimal"': lambda: "0." + "3" * 5000,
    # strings with code, control characters, Unicode digits, non-numbers
    '"__import__(os).system"': lambda: "__import__('os').system('x')",
    '"\'; rm -rf /"': lambda: "'; rm -rf /",
    '"١٢" (Arabic-Indic digits)': lambda: "١٢",
    '"１" (fullwidth digit)': lambda: "１",
    '"nan"': lambda: "nan",
    '"inf"': lambda: "inf",
    '"oo"': lambda: "oo",
    '"-oo"': lambda: "-oo",
    '""': lambda: "",
    '"\\x00\\x1b[31m"': lambda: "\x00\x1b[31m",
    "100k-character string": lambda: "7" * 100_000,
    # floats
    "0.5": lambda: 0.5,
    "1e300": lambda: 1e300,
    "float nan": lambda: float("nan"),
    "float inf": lambda: float("inf"),
    "1 + 1e-30 (float)": lambda: 1 + 1e-30,
    "1j": lambda: 1j,
    # sympy values
    "sympy.oo": lambda: sympy.oo,
    "sympy.nan": lambda: sympy.nan,
    "sympy.zoo": lambda: sympy.zoo,
    "sympy.I": lambda: sympy.I,
    '"exp(10**5000) - 1"': lambda: "exp(" + "1" + "0" * 5000 + ") - 1",
    "Symbol of unknown sign": lambda: sympy.Symbol("u"),
    # other Python objects
    "None": lambda: None,
    "[]": lambda: [],
    "[1, 2]": lambda: [1, 2],
    "{}": lambda: {},
    '{"a": 1}': lambda: {"a": 1},
    "set()": lambda: set(),
    "b'1/2'": lambda: b"1/2",
    "object()": lambda: object(),
    "range(10**6)": lambda: range(10**6),
    "range(10**18)": lambda: range(10**18),
    "[[]] (unhashable inside)": lambda: [[]],
    "RaisingEquality()": RaisingEquality,
    "RaisingHash()": RaisingHash,
    "a function returning a list": lambda: _returns_list,
    "a function returning 10**5000": lambda: _returns_huge,
}

NAMES = tuple(HOSTILE)


def hostile_value(name: str) -> Any:
    """A fresh hostile value by its name."""
    return HOSTILE[name]()
