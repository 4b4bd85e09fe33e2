"""Report formats: JSON (stable schema, exact strings), Markdown, LaTeX and the table."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from proofs_check import Registry, Report, RunOptions, run_checks
from proofs_check.formats import SCHEMA, render, report_to_json


@pytest.fixture(scope="module")
def report() -> Report:
    from pc_demo_claims import demo_registry

    return run_checks(options=RunOptions(workers=1, profile="quick"), registry=demo_registry)


@pytest.fixture(scope="module")
def failed() -> Report:
    from pc_demo_claims import demo_registry

    options = RunOptions(workers=1, profile="quick", mutant="strict")
    return run_checks(["demo.square_nonnegative"], options=options, registry=demo_registry)


def test_json_has_a_versioned_schema_with_options_summary_and_claims(report: Report) -> None:
    data = json.loads(report_to_json(report))
    assert data["schema"] == SCHEMA == "exactpml.proofs_check/1"
    assert data["options"] == {
        "seed": 0,
        "examples": 50,
        "profile": "quick",
        "shards": 1,
        "mutant": None,
        "mutants": False,
        "timeout": None,
    }
    assert data["summary"]["claims"] == 5
    assert data["summary"]["all_passed"] is True
    assert data["summary"]["passed"] == 5
    claim = data["claims"][0]
    assert set(claim) == {
        "id",
        "source",
        "result",
        "statement",
        "kinds",
        "verdict",
        "note",
        "mutant",
        "mutant_statement",
        "counterexample",
        "proofs",
        "mutants",
        "evidence",
    }
    assert claim["kinds"] == ["P", "E"]
    assert claim["evidence"][1]["instances"] == {
        "tried": 50,
        "requested": 50,
        "undecided": 0,
        "seed": 0,
        "seeds": 1,
        "skipped": 0,
        "found_by": None,
        "found_at": None,
        "small_scope": None,
        "small_scope_note": "the strategy is not one exactpml can enumerate (it uses no exactpml "
        "strategy)",
    }


def test_json_keeps_exact_values_as_strings(report: Report) -> None:
    data = json.loads(report_to_json(report))
    values = [
        value
        for claim in data["claims"]
        for evidence in claim["evidence"]
        for value in evidence["values"]
    ]
    assert {"name": "midpoint", "value": "5/12", "latex": "\\frac{5}{12}"} in values
    assert all(isinstance(value["value"], str) for value in values)


def test_json_carries_the_counterexample_of_a_failed_claim(failed: Report) -> None:
    (claim,) = json.loads(report_to_json(failed))["claims"]
    assert claim["verdict"] == "FAILED"
    assert claim["mutant"] == "strict"
    assert claim["counterexample"] == "0; x = 0, x*x = 0"


def test_the_same_seed_and_options_give_byte_identical_reports(demo: Registry) -> None:
    options = RunOptions(workers=1, profile="quick", seed=123)
    texts = {
        name: [render(run_checks(options=options, registry=demo), name) for _ in range(2)]
        for name in ("json", "markdown", "latex")
    }
    for first, second in texts.values():
        assert first == second


def test_timings_appear_only_when_asked_for(report: Report) -> None:
    assert "seconds" not in json.loads(report_to_json(report))["claims"][0]
    assert "seconds" in json.loads(report_to_json(report, timings=True))["claims"][0]


def test_markdown_has_one_table_row_per_claim_with_escaped_pipes(report: Report) -> None:
    text = render(report, "markdown")
    assert text.startswith("# proofs_check report\n")
    rows = [line for line in text.splitlines() if line.startswith("| `demo.")]
    assert len(rows) == 5
    header = next(line for line in text.splitlines() if line.startswith("| Claim"))
    columns = header.count("|")
    for row in rows:
        assert len(re.findall(r"(?<!\\)\|", row)) == columns
    assert "\\|x\\| >= x" in text


def test_markdown_lists_counterexamples_of_failed_claims(failed: Report) -> None:
    text = render(failed, "markdown")
    assert "**FAILED**" in text
    assert "## Counterexamples and errors" in text
    assert "counterexample: `0; x = 0, x*x = 0`" in text


def test_latex_is_a_booktabs_longtable_first_with_the_exact_values_as_inline_math(
    report: Report,
) -> None:
    text = render(report, "latex")
    for command in ("\\begin{longtable}", "\\toprule", "\\midrule", "\\bottomrule"):
        assert command in text
    assert text.index("\\begin{longtable}") < text.index("\\paragraph")
    row = (
        "\\texttt{demo.\\allowbreak{}square\\_\\allowbreak{}nonnegative} & Toy lemma 1 & PE & "
        "passed \\\\"
    )
    assert row in text
    assert "midpoint $=$ $\\frac{5}{12}$" in text
    assert "\\[" not in text  # no display lines: values are inline mathematics
    assert text.count("{") == text.count("}")


def test_latex_shows_counterexamples(failed: Report) -> None:
    text = render(failed, "latex")
    assert "\\textbf{failed}" in text
    assert "Counterexample: 0; x = 0, x*x = 0." in text


def test_the_table_shows_claim_kinds_verdict_evidence_and_time(report: Report) -> None:
    text = render(report, "table", timings=True)
    for expected in ("demo.square_nonnegative", "PE", "PASSED", "held on 50", "Time"):
        assert expected in text
    assert "5 claims: 5 passed" in text


def test_listed_items_are_mentioned_in_every_format() -> None:
    report = run_checks(
        ["pml."], options=RunOptions(workers=1), registry=Registry(include_catalog=True)
    )
    assert json.loads(render(report, "json"))["not_checkable"][0]["id"] == "pml.ex_3_2"
    assert "## Listed, not checkable" in render(report, "markdown")
    assert "pml.ex_3_2" in render(report, "table")
    assert "\\item \\texttt{pml.\\allowbreak{}ex\\_\\allowbreak{}3\\_\\allowbreak{}2}" in render(
        report, "latex"
    )


@pytest.fixture(scope="module")
def with_findings() -> Report:
    from hypothesis import strategies as st

    from proofs_check import CheckContext, Evidence, property_holds, sharpness_evidence

    registry = Registry()

    @registry.check(
        "demo.sharp",
        source="test",
        result="Lemma 2",
        statement="n*n >= n for integers",
        kinds="PW",
        mutants={"strict": "n*n > n"},
    )
    def sharp(ctx: CheckContext) -> list[Evidence]:
        strict = ctx.mutant == "strict"
        return [
            property_holds(
                ctx,
                st.integers(),
                (lambda n: n * n > n) if strict else (lambda n: n * n >= n),
                describe="n*n >= n",
                small_scope=range(-3, 4),
            ),
            sharpness_evidence("n*n >= n", attained=True, on="n = 0 and n = 1"),
        ]

    return run_checks(options=RunOptions(workers=1, profile="quick"), registry=registry)


def test_findings_are_listed_in_every_format(with_findings: Report) -> None:
    finding = "sharpness: n*n >= n is attained exactly on n = 0 and n = 1"
    markdown = render(with_findings, "markdown")
    assert "## Findings" in markdown and f"- `demo.sharp`: {finding}" in markdown
    data = json.loads(render(with_findings, "json"))
    assert [e["finding"] for e in data["claims"][0]["evidence"]] == [False, True]
    table = render(with_findings, "table")
    assert "Findings:" in table and f"  demo.sharp: {finding}" in table
    latex = render(with_findings, "latex")
    assert "\\paragraph{Findings.}" in latex
    assert (
        "\\item \\texttt{demo.\\allowbreak{}sharp}: sharpness: n*n \\ensuremath{\\geq} n is "
        "attained exactly" in latex
    )
    assert latex.count("{") == latex.count("}")


def test_json_says_how_many_small_scope_instances_were_tried(with_findings: Report) -> None:
    instances = json.loads(render(with_findings, "json"))["claims"][0]["evidence"][0]["instances"]
    assert instances["small_scope"] == {
        "description": "the given instances",
        "tried": 7,
        "skipped": 0,
        "undecided": 0,
        "size": 7,
        "budget": 2000,
        "complete": True,
        "covered": 7,
        "filtered": 0,
    }
    assert instances["found_by"] is None


def test_json_says_which_phase_found_a_counterexample() -> None:
    from pc_demo_claims import demo_registry

    options = RunOptions(workers=1, profile="quick", mutant="strict")
    report = run_checks(["demo.square_nonnegative"], options=options, registry=demo_registry)
    evidence = json.loads(render(report, "json"))["claims"][0]["evidence"]
    failed = next(item for item in evidence if item["passed"] is False)
    assert failed["instances"]["found_by"] == "hypothesis"
    assert failed["instances"]["found_at"].startswith("random exact instance ")
    assert "found by Hypothesis" in failed["summary"]


def test_latex_prints_each_value_once_per_claim_and_each_finding_once() -> None:
    from proofs_check import (
        CheckContext,
        Evidence,
        exact_instances,
        sharpness_evidence,
        witness_evidence,
    )

    registry = Registry()

    @registry.check(
        "demo.twice",
        source="test",
        result="Lemma 3",
        statement="1/2 + 1/2 = 1",
        kinds="EW",
        mutants={"off": "1/2 + 1/2 = 2"},
    )
    def twice(ctx: CheckContext) -> list[Evidence]:
        values = {"half plus half": Fraction(1)}
        return [
            exact_instances({"sum": (Fraction(1, 2) * 2, 2 if ctx.mutant == "off" else 1)}),
            witness_evidence("the sum", True, values=values),
            witness_evidence("the same sum again", True, values=values),
            sharpness_evidence("1/2 + 1/2 <= 1", attained=True, on="the sum"),
        ]

    report = run_checks(options=RunOptions(workers=1, profile="quick"), registry=registry)
    latex = render(report, "latex")
    assert latex.count("half plus half $=$ $1$") == 1
    assert latex.count("is attained exactly on the sum") == 1  # under Findings only
