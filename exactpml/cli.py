r"""The ``exactpml`` command line.

``exactpml leakage MECHANISM.json [--prior PRIOR.json] [--format table|json|latex]`` prints,
for every output y, p_Y(y), the exact PML l(X->y) and a certified decimal of it, then the
leakage capacity and the maximal leakage.  ``exactpml examples`` lists the bundled example
files.  Errors in files name the key and the problem and are printed as one line on stderr,
with exit status 2; ``--digits`` is at most ``Bounds.output_digits``.

An infinite leakage prints as ``∞`` in the terminal, ``\infty`` in LaTeX and the string
``"Infinity"`` in JSON (exact and decimal fields alike; JSON has no infinite number).
Captions and titles name the mechanism (its ``name``, else its file's stem) and the prior
(its entries when short), never a path; ``--caption`` and ``--label`` replace the LaTeX
caption and label (default ``tab:pml``).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import sympy

from exactpml._version import __version__
from exactpml.core import boundary as _boundary
from exactpml.core.bounds import big_integer_printing, current_bounds
from exactpml.core.distribution import Distribution
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.errors import ExactPMLError
from exactpml.io import dump_json, load_json, read_mechanism, read_prior
from exactpml.leakage.capacities import leakage_capacity, maximal_leakage
from exactpml.leakage.pml import max_pointwise_maximal_leakage, pointwise_maximal_leakage_by_output
from exactpml.render import CertifiedDecimal, ExactTable

__all__ = ["main"]


def _examples() -> list[Path]:
    folder = resources.files("exactpml") / "examples"
    return sorted(Path(str(item)) for item in folder.iterdir() if item.name.endswith(".json"))


def _decimal(value: LogValue, digits: int) -> str:
    """A certified decimal, or ``"symbolic"`` for a value with free symbols (kept exact)."""
    if value.to_sympy().free_symbols:
        return "symbolic"
    return value.decimal(digits)


INFINITY_JSON = "Infinity"
"""How ``--format json`` writes an infinite leakage (exact and decimal fields)."""

_LABEL = re.compile(r"^[A-Za-z0-9:._/-]{1,100}$")


def _infinite(value: object) -> bool:
    return isinstance(value, LogValue) and value.is_infinite


def _terminal(value: object) -> str:
    """A cell of the terminal table: an infinite value as ``∞``."""
    return "∞" if _infinite(value) or value == "oo" else str(value)


def _for_json(report: dict[str, Any]) -> dict[str, Any]:
    """The report with every infinite value (and its decimal) as :data:`INFINITY_JSON`."""

    def convert(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: convert(item) for key, item in value.items()}
        if isinstance(value, list):
            return [convert(item) for item in value]
        if _infinite(value) or value is sympy.oo or value == "oo":
            return INFINITY_JSON
        return value

    return convert(report)


def leakage_report(mechanism: Mechanism, prior: Distribution, *, digits: int) -> dict[str, Any]:
    """Every output's exact PML with certified decimals, plus capacity and maximal leakage.

    A file with declared symbols gives exact symbolic values; their decimal is
    ``"symbolic"`` (no number is made up for them).
    """
    leakages = pointwise_maximal_leakage_by_output(mechanism, prior)
    masses = mechanism.output_masses(prior)
    outputs = []
    for y, mass in zip(mechanism.outputs, masses, strict=True):
        value = leakages[y]
        outputs.append(
            {
                "output": y,
                "probability": mass,
                "pml": value,
                "pml_ratio": value.ratio,
                "pml_decimal": _decimal(value, digits),
            }
        )
    capacity = leakage_capacity(mechanism)
    worst = max_pointwise_maximal_leakage(mechanism, prior)
    maximal = maximal_leakage(mechanism, prior)
    return {
        "outputs": outputs,
        "max_pml": worst,
        "max_pml_decimal": _decimal(worst, digits),
        "capacity": capacity,
        "capacity_decimal": _decimal(capacity, digits),
        "maximal_leakage": maximal,
        "maximal_leakage_decimal": _decimal(maximal, digits),
        "digits": digits,
    }


def _print_table(report: dict[str, Any], title: str) -> None:
    """The report as a rich table: every cell in full (long values fold, never an ellipsis).

    Cells and lines are plain ``Text``: a label such as ``"[/x]"`` from a file is shown as
    written, never read as rich markup.
    """
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(title))
    for header in ("output y", "p_Y(y)", "l(X->y) exact", f"decimal ({report['digits']} digits)"):
        table.add_column(header, overflow="fold")
    for row in report["outputs"]:
        table.add_row(
            *(
                Text(_terminal(cell))
                for cell in (row["output"], row["probability"], row["pml"], row["pml_decimal"])
            )
        )
    console = Console()
    console.print(table)
    shown = {key: _terminal(report[key]) for key in report}
    for text in (
        f"max over outputs with p_Y(y) > 0: {shown['max_pml']} = {shown['max_pml_decimal']}",
        f"leakage capacity C:               {shown['capacity']} = {shown['capacity_decimal']}",
        f"maximal leakage:                  {shown['maximal_leakage']} = "
        f"{shown['maximal_leakage_decimal']}",
    ):
        console.print(Text(text), soft_wrap=True)  # one line each, however long


def _latex(
    report: dict[str, Any], caption: str, *, label: str = "tab:pml", standalone: bool
) -> str:
    """Every row the table shows, exact, with decimals aligned (siunitx); compiles as it is."""
    rows: list[list[Any]] = [
        [
            str(row["output"]),
            row["probability"],
            row["pml"],
            _latex_decimal(row["pml"], report["digits"]),
        ]
        for row in report["outputs"]
    ]
    for row_name, key in (
        ("max over outputs", "max_pml"),
        ("leakage capacity C", "capacity"),
        ("maximal leakage", "maximal_leakage"),
    ):
        rows.append([row_name, "", report[key], _latex_decimal(report[key], report["digits"])])
    table = ExactTable(
        ["$y$", "$p_Y(y)$", r"$\ell(X \to y)$", "decimal"],
        rows,
        keys=["output", "probability", "pml", "decimal"],
    )
    return table.to_latex(caption=caption, label=label, standalone=standalone)


def _latex_decimal(value: LogValue, digits: int) -> Any:
    if value.is_infinite:
        return value  # ExactTable typesets it as \infty
    return "symbolic" if value.to_sympy().free_symbols else CertifiedDecimal(value, digits)


def _prior_text(prior: Distribution, origin: str) -> str:
    """``"prior a: 9/10, b: 1/10"`` when short, else where it came from (never a path)."""
    entries = ", ".join(f"{outcome}: {mass}" for outcome, mass in prior.items())
    return f"prior {entries}" if len(entries) <= 60 else origin


def _command_leakage(arguments: argparse.Namespace) -> int:
    mechanism, file_prior = read_mechanism(arguments.mechanism)
    if arguments.prior is not None:
        prior = read_prior(arguments.prior)
        mechanism.check_prior(prior)
        prior_note = _prior_text(prior, "the prior given with --prior")
    elif file_prior is not None:
        prior = file_prior
        prior_note = _prior_text(prior, "the file's prior")
    else:
        prior = Distribution.uniform(mechanism.inputs)
        prior_note = "uniform prior (none given)"
    report = leakage_report(mechanism, prior, digits=arguments.digits)
    report["prior"] = prior_note
    document = load_json(arguments.mechanism)
    name = document.get("name") if isinstance(document, dict) else None
    shown_name = name if isinstance(name, str) and name else Path(arguments.mechanism).stem
    title = f"PML of {shown_name} ({prior_note})"
    if isinstance(name, str):
        report["name"] = name
    if arguments.format == "json":
        print(dump_json(_for_json(report)))
    elif arguments.format == "latex":
        caption = arguments.caption if arguments.caption is not None else title
        print(_latex(report, caption, label=arguments.label, standalone=arguments.standalone))
    else:
        _print_table(report, title)
    return 0


def _command_examples(arguments: argparse.Namespace) -> int:
    for path in _examples():
        print(path)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="exactpml", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"exactpml {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    leakage = commands.add_parser("leakage", help="exact PML of every output, capacity")
    leakage.add_argument("mechanism", help="mechanism JSON file (see exactpml.io)")
    leakage.add_argument(
        "--prior", help="prior JSON file (default: the file's prior, else uniform)"
    )
    leakage.add_argument("--format", choices=("table", "json", "latex"), default="table")
    leakage.add_argument(
        "--standalone", action="store_true", help="with --format latex: a whole document"
    )
    leakage.add_argument("--digits", type=int, default=15, help="certified decimal digits")
    leakage.add_argument(
        "--caption",
        help="with --format latex: the table's caption (default: names the "
        "mechanism and the prior)",
    )
    leakage.add_argument(
        "--label",
        default="tab:pml",
        help="with --format latex: the table's \\label (default tab:pml)",
    )
    leakage.set_defaults(run=_command_leakage)
    examples = commands.add_parser("examples", help="list the bundled example files")
    examples.set_defaults(run=_command_examples)
    return parser


def _digits_problem(digits: int) -> str | None:
    """Why ``--digits`` cannot be honoured (None when it can)."""
    if digits < 1:
        return f"--digits={digits} must be at least 1"
    limit = current_bounds().output_digits
    if digits > limit:
        return f"--digits={digits} is above the bound output_digits={limit}"
    return None


def _fail(message: str) -> int:
    """Print ``message`` as one line on stderr; return the exit status 2."""
    print(f"exactpml: error: {' '.join(message.splitlines())}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``exactpml`` command; returns the exit status.

    Every exactpml error (a malformed file, a bound exceeded, an undecidable value) is
    printed as one line on stderr and gives the exit status 2, never a traceback.
    """
    parser = _parser()
    arguments = parser.parse_args(argv)
    problem = _digits_problem(arguments.digits) if hasattr(arguments, "digits") else None
    if problem is None and getattr(arguments, "label", None) is not None:
        if not _LABEL.match(arguments.label):
            problem = (
                f"--label {arguments.label[:40]!r} must be 1 to 100 letters, digits or "
                ": . _ / - (a LaTeX label)"
            )
    if problem is None and getattr(arguments, "caption", None) is not None:
        if not arguments.caption.strip() or len(arguments.caption) > 1000:
            problem = "--caption must be a non-empty text of at most 1000 characters"
    if problem is not None:
        return _fail(problem)
    try:
        with big_integer_printing():  # exact results may have more than 4300 digits
            return int(arguments.run(arguments))
    except ExactPMLError as error:
        return _fail(str(error))


_boundary.guard_public_names(globals())  # every public name behind its boundary


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
