"""The ``exactpml`` command: exact PML per output, certified decimals, capacity; clean errors."""

import json
import subprocess
import sys

import pytest

from exactpml.cli import _examples, main


def _run(*arguments):
    return subprocess.run(
        [sys.executable, "-m", "exactpml.cli", *arguments],
        capture_output=True,
        text=True,
        check=False,
    )


def test_leakage_command_prints_exact_values_as_json(capsys):
    example = next(p for p in _examples() if p.name == "randomized_response.json")
    assert main(["leakage", str(example), "--format", "json", "--digits", "6"]) == 0
    report = json.loads(capsys.readouterr().out)
    by_output = {row["output"]: row for row in report["outputs"]}
    # Hand computation: p_Y(yes) = 1/10*3/4 + 9/10*1/4 = 3/10; ratio (3/4)/(3/10) = 5/2.
    assert by_output["yes"]["probability"] == "3/10"
    assert by_output["yes"]["pml"] == "log(5/2)"
    assert by_output["yes"]["pml_decimal"] == "0.916291"  # log(2.5) = 0.91629073...
    assert report["capacity"] == "log(3)"


def test_threshold_example_matches_example_3_11_formula(capsys):
    # Example 3.11 with n = 3, m = 1, p = 3/10: l(X->1) = -log(1 - P[S <= 1]),
    # P[S <= 1] = 0.343 + 3*0.147 = 0.784, so the ratio is 1/0.216 = 125/27.
    example = next(p for p in _examples() if p.name == "threshold_query.json")
    assert main(["leakage", str(example), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    by_output = {row["output"]: row for row in report["outputs"]}
    assert by_output["1"]["pml_ratio"] == "125/27"


@pytest.mark.parametrize("format_", ["table", "latex"])
def test_leakage_command_renders_table_and_latex(format_, capsys):
    example = next(p for p in _examples() if p.name == "randomized_response.json")
    assert main(["leakage", str(example), "--format", format_]) == 0
    out = capsys.readouterr().out
    assert ("log" in out) and (("toprule" in out) == (format_ == "latex"))


def test_malformed_file_exits_two_with_one_line_message(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"rows": {"a": {"0": 0.5, "1": 0.25}}}')
    result = _run("leakage", str(path))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "row 'a'" in result.stderr and "3/4" in result.stderr


def test_prior_file_over_other_alphabet_is_refused(tmp_path):
    example = next(p for p in _examples() if p.name == "randomized_response.json")
    prior = tmp_path / "prior.json"
    prior.write_text('{"maybe": 1}')
    result = _run("leakage", str(example), "--prior", str(prior))
    assert result.returncode == 2 and "different alphabet" in result.stderr
