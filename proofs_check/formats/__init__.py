"""Report formats: a rich terminal table, JSON, Markdown and LaTeX.

Every format renders the same :class:`~proofs_check.runner.Report`.  JSON, Markdown and
LaTeX are deterministic (the same seed and options give byte-identical output) unless
timings are asked for.
"""

from __future__ import annotations

from collections.abc import Callable

from proofs_check.formats.to_json import SCHEMA, report_to_json
from proofs_check.formats.to_latex import report_to_latex
from proofs_check.formats.to_markdown import report_to_markdown
from proofs_check.formats.to_table import report_to_text, verdict_style
from proofs_check.runner import Report

__all__ = [
    "FORMATS",
    "SCHEMA",
    "render",
    "report_to_json",
    "report_to_latex",
    "report_to_markdown",
    "report_to_text",
    "verdict_style",
]

FORMATS: dict[str, Callable[..., str]] = {
    "table": report_to_text,
    "json": report_to_json,
    "markdown": report_to_markdown,
    "latex": report_to_latex,
}
"""Renderers by format name; each takes ``(report, *, timings=False)``."""

SUFFIXES: dict[str, str] = {
    ".json": "json",
    ".md": "markdown",
    ".markdown": "markdown",
    ".tex": "latex",
    ".txt": "table",
}
"""Format implied by an output file's suffix when ``--format`` is not given."""


def render(
    report: Report, format_name: str, *, timings: bool = False, standalone: bool = False
) -> str:
    """Render ``report`` in the named format (``standalone``: a whole LaTeX document)."""
    if format_name == "latex":
        return report_to_latex(report, timings=timings, standalone=standalone)
    return FORMATS[format_name](report, timings=timings)
