"""The ``exactpml`` command line.

``exactpml leakage MECHANISM.json [--prior PRIOR.json] [--format table|json|latex]`` prints,
for every output y, p_Y(y), the exact PML l(X->y) and a certified decimal of it, then the
leakage capacity and the maximal leakage.  ``exactpml examples`` lists the bundled example
files.  Errors in files name the key and the problem, and exit with status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from exactpml.distribution import Distribution
from exactpml.errors import ExactPMLError
from exactpml.io import dump_json, read_mechanism, read_prior
from exactpml.measures import (
    leakage_capacity,
    max_pointwise_maximal_leakage,
    maximal_leakage,
    pointwise_maximal_leakage_by_output,
)
from exactpml.mechanism import Mechanism

__all__ = ["main"]


def _examples() -> list[Path]:
    folder = resources.files("exactpml") / "examples"
    return sorted(Path(str(item)) for item in folder.iterdir() if item.name.endswith(".json"))


def leakage_report(mechanism: Mechanism, prior: Distribution, *, digits: int) -> dict[str, Any]:
    """Every output's exact PML with certified decimals, plus capacity and maximal leakage."""
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
                "pml_decimal": value.decimal(digits),
            }
        )
    capacity = leakage_capacity(mechanism)
    worst = max_pointwise_maximal_leakage(mechanism, prior)
    maximal = maximal_leakage(mechanism, prior)
    return {
        "outputs": outputs,
        "max_pml": worst,
        "max_pml_decimal": worst.decimal(digits),
        "capacity": capacity,
        "capacity_decimal": capacity.decimal(digits),
        "maximal_leakage": maximal,
        "maximal_leakage_decimal": maximal.decimal(digits),
        "digits": digits,
    }


def _print_table(report: dict[str, Any], title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for header in ("output y", "p_Y(y)", "l(X->y) exact", f"decimal ({report['digits']} digits)"):
        table.add_column(header)
    for row in report["outputs"]:
        table.add_row(
            str(row["output"]), str(row["probability"]), str(row["pml"]), row["pml_decimal"]
        )
    console = Console()
    console.print(table)
    console.print(
        f"max over outputs with p_Y(y) > 0: {report['max_pml']} = {report['max_pml_decimal']}"
    )
    console.print(
        f"leakage capacity C:               {report['capacity']} = {report['capacity_decimal']}"
    )
    console.print(
        f"maximal leakage:                  {report['maximal_leakage']} = "
        f"{report['maximal_leakage_decimal']}"
    )


def _latex(report: dict[str, Any]) -> str:
    import sympy

    lines = [
        r"\begin{tabular}{llll}",
        r"\toprule",
        r"$y$ & $p_Y(y)$ & $\ell(X \to y)$ & decimal \\",
        r"\midrule",
    ]
    for row in report["outputs"]:
        lines.append(
            f"{row['output']} & ${sympy.latex(sympy.nsimplify(str(row['probability'])))}$ & "
            f"${sympy.latex(row['pml'].to_sympy())}$ & {row['pml_decimal']} \\\\"
        )
    lines += [
        r"\midrule",
        rf"\multicolumn{{2}}{{l}}{{capacity $C$}} & "
        rf"${sympy.latex(report['capacity'].to_sympy())}$ & {report['capacity_decimal']} \\",
        r"\bottomrule",
        r"\end{tabular}",
    ]
    return "\n".join(lines)


def _command_leakage(arguments: argparse.Namespace) -> int:
    mechanism, file_prior = read_mechanism(arguments.mechanism)
    if arguments.prior is not None:
        prior = read_prior(arguments.prior)
        mechanism.check_prior(prior)
        prior_note = f"prior from {arguments.prior}"
    elif file_prior is not None:
        prior = file_prior
        prior_note = f"prior from {arguments.mechanism}"
    else:
        prior = Distribution.uniform(mechanism.inputs)
        prior_note = "uniform prior (none given)"
    report = leakage_report(mechanism, prior, digits=arguments.digits)
    report["prior"] = prior_note
    if arguments.format == "json":
        print(dump_json(report))
    elif arguments.format == "latex":
        print(_latex(report))
    else:
        _print_table(report, f"PML of {arguments.mechanism} ({prior_note})")
    return 0


def _command_examples(arguments: argparse.Namespace) -> int:
    for path in _examples():
        print(path)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="exactpml", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    leakage = commands.add_parser("leakage", help="exact PML of every output, capacity")
    leakage.add_argument("mechanism", help="mechanism JSON file (see exactpml.io)")
    leakage.add_argument(
        "--prior", help="prior JSON file (default: the file's prior, else uniform)"
    )
    leakage.add_argument("--format", choices=("table", "json", "latex"), default="table")
    leakage.add_argument("--digits", type=int, default=15, help="certified decimal digits")
    leakage.set_defaults(run=_command_leakage)
    examples = commands.add_parser("examples", help="list the bundled example files")
    examples.set_defaults(run=_command_examples)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``exactpml`` command; returns the exit status."""
    parser = _parser()
    arguments = parser.parse_args(argv)
    if getattr(arguments, "digits", 1) < 1:
        parser.error(f"--digits={arguments.digits} must be at least 1")
    try:
        return int(arguments.run(arguments))
    except ExactPMLError as error:
        print(f"exactpml: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
