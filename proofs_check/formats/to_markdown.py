"""The Markdown report, for READMEs: a table of claims and verdicts, then the details."""

from __future__ import annotations

from exactpml import __version__
from proofs_check.formats._common import mutant_line, proofs_of
from proofs_check.runner import Report
from proofs_check.verdict import ClaimResult, Verdict

__all__ = ["report_to_markdown"]

_NOT_CONCLUSIVE = (Verdict.FAILED, Verdict.WEAK, Verdict.ERROR, Verdict.TIMEOUT)


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", "<br>")


def _code(text: str) -> str:
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _evidence_cell(result: ClaimResult) -> str:
    lines = []
    for item in result.evidence:
        mark = {True: "✓", False: "✗", None: "?"}[item.passed]
        lines.append(f"{item.kind or '–'} {mark} {item.summary}")
    lines += proofs_of(result)
    if result.note:
        lines.append(result.note)
    return "<br>".join(_cell(line) for line in lines)


def _verdict(result: ClaimResult) -> str:
    text = result.verdict.value
    return f"**{text}**" if result.verdict in _NOT_CONCLUSIVE else text


def report_to_markdown(report: Report, *, timings: bool = False) -> str:
    """The report as GitHub-flavoured Markdown."""
    options = report.options
    header = (
        f"Seed {options.seed}"
        + (f"–{options.seed + options.shards - 1}" if options.shards > 1 else "")
        + f", {options.examples_per_property} random exact instances per property, profile "
        f"`{options.profile}`"
        + (f", mutant `{options.mutant}`" if options.mutant else "")
        + (", every mutant run" if options.mutants else "")
        + f". {report.summary_line()}. exactpml {__version__}."
    )
    lines = ["# proofs_check report", "", header, ""]
    columns = ["Claim", "Result", "Kinds", "Verdict", "Evidence"] + (["Time"] if timings else [])
    lines.append("| " + " | ".join(columns) + " |")
    lines.append("|" + "---|" * len(columns))
    for result in report.results:
        row = [
            _code(result.claim.id),
            _cell(result.claim.result),
            result.claim.kinds_text or "–",
            _verdict(result),
            _evidence_cell(result),
        ]
        if timings:
            row.append(f"{result.seconds:.2f} s")
        lines.append("| " + " | ".join(row) + " |")
    failed = [r for r in report.results if r.verdict in _NOT_CONCLUSIVE]
    if failed:
        lines += ["", "## Counterexamples and errors", ""]
        for result in failed:
            lines.append(
                f"### {_code(result.claim.id)} ({result.claim.result}): {result.verdict.value}"
            )
            lines.append("")
            for item in result.evidence:
                if item.passed is False:
                    lines.append(f"- {item.kind}: {item.summary}")
                    lines.append(f"  - counterexample: {_code(item.counterexample or '')}")
            if result.verdict is Verdict.ERROR:
                lines.append(f"- error: {_code(result.note)}")
            if result.verdict is Verdict.TIMEOUT:
                lines.append(f"- timeout: {_code(result.note)}")
            lines.append("")
        lines.pop()
    valued = [r for r in report.results if any(item.values for item in r.evidence)]
    if valued:
        lines += ["", "## Exact values", ""]
        for result in valued:
            for item in result.evidence:
                for value in item.values:
                    lines.append(
                        f"- {_code(result.claim.id)} {_cell(value.name)} = {_code(value.text)}"
                    )
    findings = [(r, item) for r in report.results for item in r.evidence if item.finding]
    if findings:
        lines += ["", "## Findings", ""]
        for result, item in findings:
            lines.append(f"- {_code(result.claim.id)}: {_cell(item.summary)}")
    if report.listed:
        lines += ["", "## Listed, not checkable", ""]
        for listed in report.listed:
            lines.append(f"- {_code(listed.id)} ({listed.result}): {listed.reason}")
    mutated = [r for r in report.results if r.mutants is not None]
    if mutated:
        lines += ["", "## Mutants", ""]
        for result in mutated:
            for mutant in result.mutants or ():
                lines.append(f"- {_code(result.claim.id)} {_cell(mutant_line(mutant))}")
    if options.mutant is not None:
        lines += ["", "## Mutated statements", ""]
        for result in report.results:
            lines.append(f"- {_code(result.claim.id)}: {_cell(result.statement)}")
    mutants = report.mutants_line()
    lines += ["", *([mutants, ""] if mutants else []), report.summary_line()]
    return "\n".join(lines) + "\n"
