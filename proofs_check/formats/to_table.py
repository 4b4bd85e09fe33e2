"""The terminal table (rich): claim, kinds, verdict, evidence summary, time; then the
findings (a bound's sharpness, a missing hypothesis) and the listed-not-checkable items."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table
from rich.text import Text

from exactpml import __version__
from proofs_check.formats._common import mutant_line, proofs_of
from proofs_check.runner import Report
from proofs_check.verdict import ClaimResult, Verdict

__all__ = ["report_table", "report_to_text", "verdict_style"]

_STYLES = {
    Verdict.PROVED: "bold bright_green",
    Verdict.PASSED: "bold green",
    Verdict.WEAK: "bold yellow",
    Verdict.FAILED: "bold red",
    Verdict.UNDECIDED: "yellow",
    Verdict.NOT_CHECKABLE: "cyan",
    Verdict.ERROR: "bold magenta",
    Verdict.TIMEOUT: "bold dark_orange",
}


_STOPPED = (Verdict.ERROR, Verdict.TIMEOUT)


def verdict_style(verdict: Verdict) -> str:
    """The rich style of a verdict."""
    return _STYLES[verdict]


def _evidence_text(result: ClaimResult) -> Text:
    text = Text()
    for item in result.evidence:
        mark, style = {True: ("✓", "green"), False: ("✗", "red"), None: ("?", "yellow")}[
            item.passed
        ]
        if text:
            text.append("\n")
        text.append(f"{item.kind or '-'} {mark} ", style=style)
        text.append(item.summary)
        if item.counterexample:
            text.append("\n  counterexample: ", style="red")
            text.append(item.counterexample)
    for line in proofs_of(result):
        text.append("\n")
        text.append(line, style="bright_green")
    for mutant in result.mutants or ():
        text.append("\n")
        text.append(mutant_line(mutant), style="dim" if mutant.killed else "bold yellow")
    if result.note:
        if text:
            text.append("\n")
        text.append(result.note, style="magenta" if result.verdict in _STOPPED else "dim")
    return text


def report_table(report: Report, *, timings: bool = True) -> Table:
    """The report as a rich table."""
    options = report.options
    title = (
        f"proofs_check (exactpml {__version__}): seed {options.seed}"
        + (f"–{options.seed + options.shards - 1}" if options.shards > 1 else "")
        + f", {options.examples_per_property} examples per property, profile {options.profile}"
        + (f", mutant {options.mutant}" if options.mutant else "")
        + (", every mutant run" if options.mutants else "")
    )
    table = Table(title=title, show_lines=True)
    table.add_column("Claim", max_width=30, overflow="fold")
    table.add_column("Kinds", no_wrap=True)
    table.add_column("Verdict", no_wrap=True)
    table.add_column("Evidence", ratio=1, min_width=30)
    if timings:
        table.add_column("Time", justify="right", no_wrap=True)
    for result in report.results:
        claim = Text(result.claim.id, style="bold")
        claim.append(f"\n{result.claim.result}", style="dim")
        if result.mutant is not None:
            claim.append(f"\n{result.statement}", style="yellow")
        row: list[Text | str] = [
            claim,
            result.claim.kinds_text or "-",
            Text(result.verdict.value, style=verdict_style(result.verdict)),
            _evidence_text(result),
        ]
        if timings:
            ran = bool(result.evidence) or result.verdict is not Verdict.NOT_CHECKABLE
            row.append(f"{result.seconds:.2f} s" if ran else "-")
        table.add_row(*row)
    return table


def print_report(report: Report, console: Console, *, timings: bool = True) -> None:
    """Print the table, the findings, the listed-not-checkable notes, what was said of the
    mutants, and last the summary line (the last line on a pipe too)."""
    console.print(report_table(report, timings=timings))
    findings = [(r, e) for r in report.results for e in r.evidence if e.finding]
    if findings:
        console.print("Findings:", style="bold")
        for result, finding in findings:
            console.print(f"  {result.claim.id}: {finding.summary}", highlight=False)
    if report.listed:
        console.print("Listed, not checkable:", style="bold")
        for item in report.listed:
            console.print(f"  {item.id} ({item.result}): {item.reason}", highlight=False)
    mutants = report.mutants_line()
    if mutants:
        console.print(mutants, highlight=False, soft_wrap=True)
    console.print(report.summary_line(), style="bold", highlight=False)


def report_to_text(report: Report, *, timings: bool = False) -> str:
    """The table as plain text (for ``--format table --output FILE``)."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=120, color_system=None, force_terminal=False)
    print_report(report, console, timings=timings)
    return buffer.getvalue()
