r"""The LaTeX report, for a paper's appendix: the summary table first, then each claim's
statement, proofs and evidence with its exact values typeset as mathematics, then the
findings (a bound's sharpness, a missing hypothesis), the mutants (when run) and the
listed-not-checkable items.

The fragment is plain ASCII and compiles with pdflatex under the packages its first comment
names (:data:`REPORT_PREAMBLE`: T1 fonts, amsmath, amssymb, booktabs, siunitx, longtable,
array); ``standalone=True`` (``--standalone``) wraps it in a whole document.  The summary
table is a ``longtable`` (it does not float away from the start, and it breaks across pages)
whose paragraph columns fit the text width, with its caption above it and
``\label{tab:proofs-check}``; it needs one-column layout (``\onecolumn`` in a two-column
paper's appendix).  Values are inline math that may break after a comma, so long tuples
wrap instead of running into the margin; every value appears once per claim.
"""

from __future__ import annotations

import re

from exactpml import __version__
from exactpml.latex_text import LATEX_PREAMBLE, latex_document, latex_text
from proofs_check.exactness import latex_escape_text
from proofs_check.formats._common import mutant_line, proofs_of
from proofs_check.formats._math import math_label
from proofs_check.record import Evidence, ExactValue
from proofs_check.runner import Report
from proofs_check.verdict import ClaimResult, Verdict

__all__ = ["REPORT_PREAMBLE", "STANDALONE_PREAMBLE", "latex_escape", "report_to_latex"]

REPORT_PREAMBLE = LATEX_PREAMBLE + "\\usepackage{longtable}\n\\usepackage{array}\n"
"""The packages the report needs (stated in its first comment)."""

STANDALONE_PREAMBLE = (
    REPORT_PREAMBLE
    + "\\usepackage[margin=2cm]{geometry}\n"
    + "\\usepackage[expansion=false]{microtype}\n"
)
"""``--standalone``'s preamble: the report's packages, A4-ish margins and microtype."""

_EMPHASISED = (Verdict.FAILED, Verdict.WEAK, Verdict.ERROR, Verdict.TIMEOUT)
VALUES_PER_EVIDENCE = 2
"""The exact values shown per piece of evidence (the JSON report has every one)."""
_SIZED_DELIMITER = re.compile(r"\\(?:left|right)(?:\.|(?=[()\[\]|])|(?=\\[{}|]))")
_COMMA = re.compile(r",(\\ |\s)*")


def latex_escape(text: str) -> str:
    r"""Escape text for LaTeX's text mode.

    >>> latex_escape("pml.thm_3_5: 100% & more")
    'pml.thm\\_3\\_5: 100\\% \\& more'
    """
    return latex_escape_text(text)


def _breakable_id(claim_id: str) -> str:
    r"""A claim id in typewriter type that may break after a dot or an underscore."""
    escaped = (
        latex_escape(claim_id).replace(".", ".\\allowbreak{}").replace("\\_", "\\_\\allowbreak{}")
    )
    return f"\\texttt{{{escaped}}}"


def _inline(value: ExactValue) -> str:
    r"""A value as inline math that may break after its commas (``\left``/``\right`` would
    make a group TeX cannot break, so they are dropped: only the delimiters' size changes).
    A value that is words (a ``\text{...}`` box, which TeX cannot break) is set as text."""
    if value.latex.startswith("\\text{") and value.latex.endswith("}"):
        return math_label(value.text)
    source = _SIZED_DELIMITER.sub("", value.latex)
    return "$" + _COMMA.sub(r",\\allowbreak\\ ", source) + "$"


def _verdict_word(result: ClaimResult) -> str:
    word = result.verdict.value.replace("_", " ").lower()
    return f"\\textbf{{{word}}}" if result.verdict in _EMPHASISED else word


def _summary_table(report: Report, timings: bool) -> list[str]:
    options = report.options
    # Claim .27, Result .38, Kinds .08, Verdict .13 of the line, plus the column gaps.
    columns = (
        "@{}>{\\raggedright\\arraybackslash}p{0.25\\linewidth}"
        ">{\\raggedright\\arraybackslash}p{0.37\\linewidth}"
        "p{0.07\\linewidth}p{0.13\\linewidth}" + ("r" if timings else "") + "@{}"
    )
    header = "Claim & Result & Kinds & Verdict" + (" & Time (s)" if timings else "") + " \\\\"
    caption = (
        f"Claims checked by \\texttt{{proofs\\_check}} (exactpml {latex_escape(__version__)}; "
        f"seed {options.seed}, {options.examples_per_property} random exact instances per "
        f"property, profile {latex_escape(options.profile)}; the JSON report names each small "
        "scope"
        + (f", mutant {latex_escape(options.mutant)}" if options.mutant else "")
        + (", every mutant run" if options.mutants else "")
        + f"). {latex_escape(report.summary_line())}."
    )
    lines = [
        "\\begingroup\\small",
        f"\\begin{{longtable}}{{{columns}}}",
        f"\\caption{{{caption}}}\\label{{tab:proofs-check}}\\\\",
        "\\toprule",
        header,
        "\\midrule",
        "\\endfirsthead",
        "\\toprule",
        header,
        "\\midrule",
        "\\endhead",
        "\\bottomrule",
        "\\endlastfoot",
    ]
    for result in report.results:
        row = [
            _breakable_id(result.claim.id),
            latex_text(result.claim.result),
            result.claim.kinds_text or "--",
            _verdict_word(result),
        ]
        if timings:
            row.append(f"{result.seconds:.2f}")
        lines.append(" & ".join(row) + " \\\\")
    lines += ["\\end{longtable}", "\\endgroup"]
    return lines


WITNESS_COORDINATES = 4
"""A sharp strengthening's witness shows at most this many coordinates in LaTeX, then "..."
(the JSON report has the whole point)."""


SHARED_DOMAIN = 60
"""A proof whose domain repeats at least this many leading characters of the previous
proof's domain (up to a ``"; "``) prints "the domain above" for them."""


def _summary_text(item: Evidence, previous_domain: str = "") -> str:
    """The evidence's summary; a sharp strengthening's witness cut to its first
    ``WITNESS_COORDINATES`` coordinates; a proof's domain shared with the previous proof
    said once."""
    proof = item.proof
    if (
        proof is not None
        and previous_domain
        and item.summary.startswith(f"proved for {proof.domain}")
    ):
        if proof.domain == previous_domain:
            return "proved for the same domain" + item.summary[len(f"proved for {proof.domain}") :]
        shared = 0
        for index, (mine, theirs) in enumerate(zip(proof.domain, previous_domain, strict=False)):
            if mine != theirs:
                break
            if proof.domain.startswith("; ", index):
                shared = index
        if shared >= SHARED_DOMAIN:
            rest = item.summary[len("proved for ") + shared + 2 :]
            return f"proved for the domain above with {rest}"
    record = item.strengthening
    if record is None or record.status != "sharp" or not record.witness:
        return item.summary
    coordinates = record.witness.split(", ")
    witness = ", ".join(coordinates[:WITNESS_COORDINATES])
    if len(coordinates) > WITNESS_COORDINATES:
        witness += ", ..."
    return record.sharp_summary(witness)


def _compact_property(item: Evidence, summary: str, seed: int | None) -> str:
    """A held property's summary without what the JSON report keeps: "(seed N)" when N is the
    run's seed (the table's caption states it once) and the small scope's description ("held
    on 30 small-scope instances (uniform laws ...: all 30) and on 3 random exact instances" ->
    "held on all 30 small-scope and 3 random instances")."""
    if seed is not None:
        summary = summary.replace(f" (seed {seed})", "")
    scope = item.stats.scope if item.stats is not None else None
    if item.passed is True and scope is not None:
        summary = summary.replace(f"({scope.description}: ", "(", 1)
        summary = _WHOLE_SCOPE.sub(r"held on all \1 small-scope and \2 random instances", summary)
    if item.passed is True:  # the caption says the random instances are exact
        summary = summary.replace(" random exact instance", " random instance")
    return summary


_WHOLE_SCOPE = re.compile(
    r"held on (\d+) small-scope instances? \(all \1\) and on (\d+) random exact instances?"
)


def _evidence_item(
    item: Evidence, seen: set[tuple[str, str]], previous_domain: str = "", seed: int | None = None
) -> str:
    mark = {True: "", False: "(\\textbf{failed}) ", None: "(undecided) "}[item.passed]
    summary = _compact_property(item, _summary_text(item, previous_domain), seed)
    text = f"\\item[{item.kind or '--'}] {mark}{math_label(summary)}"
    values = []
    fresh = [value for value in item.values if (value.name, value.text) not in seen]
    if item.proof is not None or item.strengthening is not None:
        fresh = []  # a proof engine's witness is already in the summary (the JSON has both)
    for value in fresh[:VALUES_PER_EVIDENCE]:
        seen.add((value.name, value.text))
        values.append(f"{math_label(value.name)} $=$ {_inline(value)}")
    if len(fresh) > VALUES_PER_EVIDENCE:
        more = len(fresh) - VALUES_PER_EVIDENCE
        values.append(f"{more} more in the JSON report")
    if values:
        text += ": " + "; ".join(values)
    if item.passed is False:
        text += f". Counterexample: {latex_text(item.counterexample or '')}"
    return text + "."


def _claim_details(result: ClaimResult, seed: int | None = None) -> list[str]:
    lines = [
        "",
        f"\\paragraph{{{_breakable_id(result.claim.id)} ({latex_text(result.claim.result)}), "
        f"{_verdict_word(result)}.}}",
        math_label(result.statement) + ("" if result.statement.endswith(".") else "."),
    ]
    items: list[str] = []
    seen: set[tuple[str, str]] = set()
    for line in proofs_of(result):
        items.append(f"\\item[proof] {math_label(line)}.")
    previous_domain = ""
    for item in result.evidence:
        if item.finding:
            continue  # listed once, under Findings
        items.append(_evidence_item(item, seen, previous_domain, seed))
        if item.proof is not None:
            previous_domain = item.proof.domain
    if result.note:
        items.append(f"\\item[note] {math_label(result.note)}")
    if items:
        lines += ["\\begin{itemize}\\setlength{\\itemsep}{0pt}\\setlength{\\parskip}{0pt}"]
        lines += items
        lines.append("\\end{itemize}")
    return lines


def report_to_latex(report: Report, *, timings: bool = False, standalone: bool = False) -> str:
    """The report as a LaTeX fragment (the summary table, then the details), or a whole
    document."""
    needs = "".join(f"%   {line}\n" for line in REPORT_PREAMBLE.splitlines())
    lines = [
        f"% Generated by proofs_check (exactpml {__version__}); compiles with pdflatex, "
        "one-column, with these packages:\n" + needs.rstrip("\n"),
        *_summary_table(report, timings),
        "",
        "\\begingroup\\footnotesize",
    ]
    for result in report.results:
        lines += _claim_details(result, report.options.seed)
    findings = [(r, item) for r in report.results for item in r.evidence if item.finding]
    if findings:
        lines += ["", "\\paragraph{Findings.}", "\\begin{itemize}"]
        for result, item in findings:
            lines.append(f"\\item {_breakable_id(result.claim.id)}: {math_label(item.summary)}.")
        lines.append("\\end{itemize}")
    mutated = [r for r in report.results if r.mutants]
    if mutated:
        lines += ["", "\\paragraph{Mutants.}", "\\begin{itemize}"]
        for result in mutated:
            for mutant in result.mutants or ():
                lines.append(
                    f"\\item {_breakable_id(result.claim.id)}: {math_label(mutant_line(mutant))}."
                )
        lines.append("\\end{itemize}")
    if report.listed:
        lines += ["", "\\paragraph{Listed, not checkable.}", "\\begin{itemize}"]
        for listed in report.listed:
            lines.append(
                f"\\item {_breakable_id(listed.id)} ({latex_text(listed.result)}): "
                f"{latex_text(listed.reason)}."
            )
        lines.append("\\end{itemize}")
    lines.append("\\endgroup")
    text = "\n".join(lines) + "\n"
    return latex_document(text, preamble=STANDALONE_PREAMBLE) if standalone else text
