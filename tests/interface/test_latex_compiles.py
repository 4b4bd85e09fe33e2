"""Every LaTeX output compiles with pdflatex (issue 15): the proofs_check report (standalone
and as a fragment under the stated preamble), every claim statement and listed reason as
text, ExactTable in each fraction and decimal style, and ``exactpml leakage --format latex``.

Skipped where pdflatex is missing, except under ``EXACTPML_REQUIRE_TEX=1`` (set by
``.ci/run``, which installs TeX), where a missing pdflatex fails.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from exactpml import LogValue
from exactpml.latex_text import latex_document, latex_text
from exactpml.render import CertifiedDecimal, ExactTable
from proofs_check import RunOptions, run_checks
from proofs_check.catalog import CLAIMS, NOT_CHECKABLE
from proofs_check.formats import report_to_latex
from proofs_check.formats.to_latex import REPORT_PREAMBLE

PDFLATEX = shutil.which("pdflatex")
if PDFLATEX is None and os.environ.get("EXACTPML_REQUIRE_TEX") != "1":
    pytest.skip("pdflatex is not installed", allow_module_level=True)


def _compile(source: str, tmp_path: Path) -> str:
    assert PDFLATEX is not None, "EXACTPML_REQUIRE_TEX=1 but pdflatex is not installed"
    assert source.isascii(), [char for char in source if not char.isascii()][:5]
    (tmp_path / "doc.tex").write_text(source)
    done = subprocess.run(
        [PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    errors = [line for line in done.stdout.splitlines() if line.startswith("!")]
    assert done.returncode == 0 and not errors, "\n".join(errors or done.stdout.splitlines()[-30:])
    log = (tmp_path / "doc.log").read_text(errors="replace")
    assert "Missing character" not in log
    return log


def test_every_statement_and_reason_compiles_as_text(tmp_path: Path) -> None:
    paragraphs = [latex_text(f"{claim.id} ({claim.result}): {claim.statement}") for claim in CLAIMS]
    paragraphs += [latex_text(f"{item.id}: {item.reason}") for item in NOT_CHECKABLE]
    _compile(latex_document("\n\n".join(paragraphs)), tmp_path)


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    # Claims whose findings and values carry ε, δ, ∞, Θ, ‖, ->, and a failed mutant run
    # for a counterexample.
    ids = ["pml.thm_2_8", "pml.thm_3_5", "vadhan.statistical_difference", "bldp.group_privacy"]
    return run_checks(ids, options=RunOptions(workers=1, profile="quick"))


@pytest.mark.slow
def test_the_whole_report_is_appendix_material(tmp_path: Path) -> None:
    """Every claim of the catalog, --quick: the standalone report fits in 12 pages with at
    most 2 overfull boxes (issue 23), its summary table first.  The four sources are named:
    other tests register users' claims (``mylab.*``) in the default registry of the same
    process, and the main job's report is the catalog's."""
    sources = ["pml", "vadhan", "pk", "bldp"]
    report = run_checks(sources, options=RunOptions(workers=1, profile="quick"))
    source = report_to_latex(report, standalone=True)
    assert source.index("\\begin{longtable}") < source.index("\\paragraph")
    log = _compile(source, tmp_path)
    _compile(source, tmp_path)  # a second pass, as for the longtable's column widths
    log = (tmp_path / "doc.log").read_text(errors="replace")
    pages = int(re.search(r"Output written on doc\.pdf \((\d+) pages?", log).group(1))  # type: ignore[union-attr]
    overfull = log.count("Overfull \\hbox")
    assert pages <= 12 and overfull <= 2, (pages, overfull)


def test_the_report_compiles_standalone(report, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _compile(report_to_latex(report, timings=True, standalone=True), tmp_path)


def test_the_report_fragment_compiles_under_the_preamble_it_states(report, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    fragment = report_to_latex(report)
    assert "\\usepackage{siunitx}" in fragment and "\\label{tab:proofs-check}" in fragment
    assert fragment.index("\\begin{longtable}") < fragment.index("\\caption")
    assert fragment.index("\\caption") < fragment.index("\\toprule")
    needs = [line[len("%   ") :] for line in fragment.splitlines() if line.startswith("%   ")]
    assert needs == REPORT_PREAMBLE.splitlines()  # the first comment names every package
    body = "\\documentclass{article}\n" + "\n".join(needs) + "\n\\begin{document}\n"
    _compile(body + fragment + "\\end{document}\n", tmp_path)


@pytest.mark.parametrize("fractions", ["text", "display", "slashed"])
@pytest.mark.parametrize("decimals", ["siunitx", "plain"])
def test_exact_tables_compile_in_every_style(fractions: str, decimals: str, tmp_path: Path) -> None:
    rows = [
        [
            "θ̂ -> y",
            Fraction(9, 5),
            LogValue(Fraction(9, 5)),
            CertifiedDecimal(LogValue(Fraction(9, 5)), 8),
        ],
        ["ε = ∞", Fraction(1, 3), LogValue.infinity(), CertifiedDecimal(LogValue.infinity(), 8)],
        [
            "x_1 & 50%",
            Fraction(-7, 2),
            LogValue(Fraction(3)),
            CertifiedDecimal(LogValue(Fraction(3)), 8),
        ],
    ]
    table = ExactTable(["label", "$p$", "$\\ell$", "decimal"], rows)
    source = table.to_latex(
        caption="PML ‖ ε", label="tab:x", fractions=fractions, decimals=decimals, standalone=True
    )
    assert ("\\dfrac" in source) == (fractions == "display")
    assert ("{S}" in source or "lllS" in source) == (decimals == "siunitx")
    assert "\\infty" in source and "& oo" not in source and "{oo}" not in source
    _compile(source, tmp_path)


def test_the_leakage_command_latex_compiles(tmp_path: Path) -> None:
    example = Path(__file__).parents[2] / "exactpml" / "examples" / "randomized_response.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "exactpml.cli",
            "leakage",
            str(example),
            "--format",
            "latex",
            "--standalone",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "leakage capacity C" in done.stdout and "maximal leakage" in done.stdout
    _compile(done.stdout, tmp_path)
