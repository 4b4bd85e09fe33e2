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

from exactpml.core import boundary as _boundary
from exactpml.core import certify
from exactpml.core.bounds import big_integer_printing
from exactpml.core.display import abbreviated_fields_repr, exact_text, printing_order
from exactpml.core.exact import Scalar, to_sympy
from exactpml.core.foreign import with_exactpml_errors
from exactpml.core.logvalue import LogValue
from exactpml.errors import InvalidArgument
from exactpml.latex_text import latex_document, latex_text

__all__ = ["FRACTION_STYLES", "CertifiedDecimal", "ExactTable", "to_latex", "to_plain"]


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class CertifiedDecimal:
    """A table cell showing ``value`` to ``digits`` significant digits, each guaranteed."""

    value: LogValue | Scalar | int
    digits: int = 6

    @with_exactpml_errors("CertifiedDecimal", undecided=True)
    def text(self) -> str:
        """The certified decimal string."""
        if isinstance(self.value, LogValue):
            return self.value.decimal(self.digits)
        return certify.decimal(
            to_sympy(self.value) if not isinstance(self.value, int) else sympy.Integer(self.value),
            self.digits,
        )

    def __float__(self) -> float:
        """The double nearest to the exact value (not to its rounded decimal), certified.

        >>> float(CertifiedDecimal(LogValue.log(2), 3))
        0.6931471805599453
        """
        if isinstance(self.value, LogValue):
            return float(self.value)
        return certify.to_float(self.value)


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


FRACTION_STYLES = ("text", "display", "slashed")


@with_exactpml_errors("to_latex")
def to_latex(value: Any, *, fractions: str = "text") -> str:
    r"""LaTeX for an exact value (``LogValue``, ``Fraction``, sympy); text for anything else.

    ``fractions``: ``"text"`` (``\frac``), ``"display"`` (``\dfrac``, rows that do not
    touch) or ``"slashed"`` (``9/5``).  Text is escaped and its Unicode mapped
    (:func:`exactpml.latex_text.latex_text`), so the result compiles with pdflatex.

    >>> to_latex(Fraction(9, 5), fractions="display"), to_latex(Fraction(9, 5), fractions="slashed")
    ('\\dfrac{9}{5}', '9 / 5')
    """
    if fractions not in FRACTION_STYLES:
        raise InvalidArgument(
            f"fractions={fractions!r} must be one of {', '.join(FRACTION_STYLES)}"
        )
    if isinstance(value, CertifiedDecimal):
        return value.text()
    expression = _as_sympy(value)
    if expression is None:
        return latex_text(exact_text(value))
    order = printing_order(expression)
    with big_integer_printing():  # exact values may have more than 4300 digits
        text = str(sympy.latex(expression, fold_short_frac=fractions == "slashed", order=order))
        if fractions == "display":
            text = text.replace("\\frac{", "\\dfrac{")
        return text


@with_exactpml_errors("to_plain")
def to_plain(value: Any) -> str:
    """A plain-text exact rendering (``log(9/5)``, ``3/10``, ``oo``)."""
    if isinstance(value, CertifiedDecimal):
        return value.text()
    expression = _as_sympy(value)
    return exact_text(value if expression is None else expression)


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
    keys: Sequence[str] | None = None

    def __post_init__(self) -> None:
        for position, row in enumerate(self.rows):
            if len(row) != len(self.columns):
                raise InvalidArgument(
                    f"row {position} has {len(row)} cells, the table {len(self.columns)} columns"
                )
        if self.keys is not None and (
            len(self.keys) != len(self.columns)
            or len(set(self.keys)) != len(self.keys)
            or not all(isinstance(key, str) and key for key in self.keys)
        ):
            raise InvalidArgument(
                f"keys={list(self.keys)!r} must be {len(self.columns)} distinct non-empty strings, "
                "one per column"
            )

    @property
    def column_keys(self) -> list[str]:
        """Machine names of the columns (``keys``, else the headers); JSON and pandas use them."""
        return list(self.keys) if self.keys is not None else list(self.columns)

    def _decimal_column(self, index: int) -> bool:
        return bool(self.rows) and all(
            isinstance(row[index], CertifiedDecimal) for row in self.rows
        )

    @with_exactpml_errors("ExactTable.to_latex")
    def to_latex(
        self,
        *,
        caption: str | None = None,
        label: str | None = None,
        fractions: str = "text",
        decimals: str = "siunitx",
        standalone: bool = False,
    ) -> str:
        r"""A booktabs ``tabular``; in a ``table`` with the caption above it when given.

        Args:
            caption: plain text (escaped, Unicode mapped); puts the table in a float.
            label: ``\label`` of the float (with a caption).
            fractions: ``"text"``, ``"display"`` (``\dfrac``) or ``"slashed"``.
            decimals: ``"siunitx"`` aligns columns of certified decimals on the decimal
                point (``S`` columns; ∞ as ``$\infty$``); ``"plain"`` left-aligns them.
            standalone: a whole document (:func:`exactpml.latex_text.latex_document`).

        Needs :data:`exactpml.latex_text.LATEX_PREAMBLE` (booktabs, siunitx, amsmath).
        """
        if decimals not in ("siunitx", "plain"):
            raise InvalidArgument(f"decimals={decimals!r} must be 'siunitx' or 'plain'")
        aligned = [
            decimals == "siunitx" and self._decimal_column(i) for i in range(len(self.columns))
        ]
        spec = "".join("S" if is_decimal else "l" for is_decimal in aligned)
        headers = [(header if "$" in header else latex_text(header)) for header in self.columns]
        headers = [
            f"{{{h}}}" if is_decimal else h for h, is_decimal in zip(headers, aligned, strict=True)
        ]
        lines = [
            "\\begin{tabular}{" + spec + "}",
            r"\toprule",
            " & ".join(headers) + r" \\",
            r"\midrule",
        ]
        for row in self.rows:
            cells = []
            for cell, is_decimal in zip(row, aligned, strict=True):
                if isinstance(cell, CertifiedDecimal):
                    text = cell.text()
                    if text in ("oo", "-oo"):
                        text = "$-\\infty$" if text.startswith("-") else "$\\infty$"
                        cells.append(f"{{{text}}}" if is_decimal else text)
                    else:
                        cells.append(text)
                elif _as_sympy(cell) is None:
                    cells.append(latex_text(str(cell)))
                else:
                    cells.append(f"${to_latex(cell, fractions=fractions)}$")
            lines.append(" & ".join(cells) + r" \\")
        lines += [r"\bottomrule", r"\end{tabular}"]
        body = "\n".join(lines)
        if caption is not None:
            heading = [r"\begin{table}[ht]", r"\centering", f"\\caption{{{latex_text(caption)}}}"]
            if label is not None:
                heading.append(f"\\label{{{label}}}")
            body = "\n".join([*heading, body, r"\end{table}"])
        elif label is not None:
            raise InvalidArgument("label needs a caption (a \\label outside a float is lost)")
        return latex_document(body) if standalone else body

    @with_exactpml_errors("ExactTable.to_markdown")
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

    @with_exactpml_errors("ExactTable.to_json")
    def to_json(self) -> str:
        """JSON with every exact value as a string (stable key order)."""
        keys = self.column_keys
        records = [
            {key: to_plain(cell) for key, cell in zip(keys, row, strict=True)} for row in self.rows
        ]
        return json.dumps(
            {"columns": list(self.columns), "keys": keys, "rows": records},
            indent=2,
            ensure_ascii=False,
        )

    def to_pandas(self, *, exact: bool = True) -> Any:
        """A pandas DataFrame (columns named by ``column_keys``).

        ``exact=True`` keeps the exact objects (``Fraction``, ``LogValue``, sympy; object
        dtype, nothing converted to float); ``exact=False`` gives their exact strings.
        Needs pandas (``pip install pandas``); never a dependency of exactpml.
        """
        try:
            import pandas
        except ImportError as exc:
            raise InvalidArgument("to_pandas needs pandas: pip install pandas") from exc
        cells = [[cell if exact else to_plain(cell) for cell in row] for row in self.rows]
        return pandas.DataFrame(cells, columns=self.column_keys, dtype=object)

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def _repr_html_(self) -> str:
        """An HTML table for Jupyter (exact values as text, escaped)."""
        import html

        head = "".join(f"<th>{html.escape(str(c))}</th>" for c in self.columns)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(to_plain(cell))}</td>" for cell in row) + "</tr>"
            for row in self.rows
        )
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


_boundary.guard_public_names(globals())  # every public name behind its boundary
