"""Rendering exact results for papers and READMEs: LaTeX, Markdown and JSON tables.

Exact values (``Fraction``, sympy expressions, :class:`~exactpml.core.logvalue.LogValue`) are
rendered exactly; a :class:`CertifiedDecimal` cell renders a decimal whose digits are
guaranteed by interval arithmetic (:func:`exactpml.certify.decimal`).  Floats never enter.

>>> from fractions import Fraction
>>> from exactpml.core.logvalue import LogValue
>>> to_latex(LogValue(Fraction(9, 5)))
'\\\\log{\\\\left(\\\\frac{9}{5} \\\\right)}'
>>> rows = [[0, LogValue(Fraction(9, 7))], [1, LogValue(Fraction(9, 5))]]
>>> table = ExactTable(["y", "l(X->y)"], rows)
>>> print(table.to_markdown())
| y | l(X->y) |
|---|---|
| 0 | `log(9/7)` |
| 1 | `log(9/5)` |
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core import certify
from exactpml.core.bounds import big_integer_printing
from exactpml.core.exact import Scalar, to_sympy
from exactpml.core.logvalue import LogValue

__all__ = ["CertifiedDecimal", "ExactTable", "to_latex", "to_plain"]


@dataclass(frozen=True, slots=True)
class CertifiedDecimal:
    """A table cell showing ``value`` to ``digits`` significant digits, each guaranteed."""

    value: LogValue | Scalar | int
    digits: int = 6

    def text(self) -> str:
        """The certified decimal string."""
        if isinstance(self.value, LogValue):
            return self.value.decimal(self.digits)
        return certify.decimal(
            to_sympy(self.value) if not isinstance(self.value, int) else sympy.Integer(self.value),
            self.digits,
        )


def _as_sympy(value: Any) -> sympy.Basic | None:
    if isinstance(value, LogValue):
        return value.to_sympy()
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, Fraction)):
        return to_sympy(Fraction(value))
    if isinstance(value, sympy.Basic):
        return value
    return None


def to_latex(value: Any) -> str:
    """LaTeX for an exact value (``LogValue``, ``Fraction``, sympy); ``str`` for anything else."""
    if isinstance(value, CertifiedDecimal):
        return value.text()
    with big_integer_printing():  # exact values may have more than 4300 digits
        expression = _as_sympy(value)
        if expression is None:
            return _escape_latex(str(value))
        return str(sympy.latex(expression))


def to_plain(value: Any) -> str:
    """A plain-text exact rendering (``log(9/5)``, ``3/10``, ``oo``)."""
    if isinstance(value, CertifiedDecimal):
        return value.text()
    with big_integer_printing():
        expression = _as_sympy(value)
        return str(value) if expression is None else str(expression)


def _escape_latex(text: str) -> str:
    for raw, escaped in (
        ("\\", r"\textbackslash{}"),
        ("&", r"\&"),
        ("%", r"\%"),
        ("_", r"\_"),
        ("#", r"\#"),
    ):
        text = text.replace(raw, escaped)
    return text


@dataclass(frozen=True)
class ExactTable:
    """A table of exact values with renderers for LaTeX (booktabs), Markdown and JSON.

    Args:
        columns: the column headers (plain text; LaTeX headers may use ``$...$``).
        rows: the cells; exact values render exactly, ``CertifiedDecimal`` cells as certified
            decimals, anything else with ``str``.
    """

    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]

    def __post_init__(self) -> None:
        from exactpml.errors import InvalidArgument

        for position, row in enumerate(self.rows):
            if len(row) != len(self.columns):
                raise InvalidArgument(
                    f"row {position} has {len(row)} cells, the table {len(self.columns)} columns"
                )

    def to_latex(self, *, caption: str | None = None) -> str:
        """A booktabs ``tabular`` (wrapped in a ``table`` with ``caption`` when given)."""
        lines = [
            r"\begin{tabular}{" + "l" * len(self.columns) + "}",
            r"\toprule",
            " & ".join(self.columns) + r" \\",
            r"\midrule",
        ]
        for row in self.rows:
            cells = []
            for cell in row:
                if isinstance(cell, CertifiedDecimal) or _as_sympy(cell) is None:
                    cells.append(to_latex(cell))
                else:
                    cells.append(f"${to_latex(cell)}$")
            lines.append(" & ".join(cells) + r" \\")
        lines += [r"\bottomrule", r"\end{tabular}"]
        body = "\n".join(lines)
        if caption is None:
            return body
        return "\\begin{table}\n\\centering\n" + body + f"\n\\caption{{{caption}}}\n\\end{{table}}"

    def to_markdown(self) -> str:
        """A GitHub-flavoured Markdown table; exact values in code spans."""
        lines = ["| " + " | ".join(self.columns) + " |", "|" + "---|" * len(self.columns)]
        for row in self.rows:
            cells = []
            for cell in row:
                if _as_sympy(cell) is not None and not isinstance(cell, (int, bool)):
                    cells.append(f"`{to_plain(cell)}`")
                else:
                    cells.append(to_plain(cell))
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines)

    def to_json(self) -> str:
        """JSON with every exact value as a string (stable key order)."""
        records = [
            {column: to_plain(cell) for column, cell in zip(self.columns, row, strict=True)}
            for row in self.rows
        ]
        return json.dumps({"columns": list(self.columns), "rows": records}, indent=2)
