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


def _identity_bit(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "identity.json"
    path.write_text(
        '{"name": "identity bit", "rows": {"a": {"0": "1", "1": "0"}, "b": {"0": "0", "1": "1"}}}'
    )
    prior = tmp_path / "skewed_prior.json"
    prior.write_text('{"a": "9/10", "b": "1/10"}')
    return path, prior


def test_infinity_is_infinity_in_every_format_and_no_path_reaches_a_caption(tmp_path, capsys):  # type: ignore[no-untyped-def]
    # Independent values: the identity has a column mixing 0 and 1, so C = oo (Thm 2.8);
    # under the prior (9/10, 1/10), l(X->1) = log (1/(1/10)) = log 10.
    from exactpml.cli import INFINITY_JSON, main

    mechanism, prior = _identity_bit(tmp_path)
    assert main(["leakage", str(mechanism), "--prior", str(prior)]) == 0
    table = capsys.readouterr().out
    assert "leakage capacity C:               ∞ = ∞" in table
    assert "PML of identity bit (prior a: 9/10, b: 1/10)" in table
    assert str(tmp_path) not in table and "oo" not in table
    assert main(["leakage", str(mechanism), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["capacity"] == report["capacity_decimal"] == INFINITY_JSON == "Infinity"
    assert "oo" not in json.dumps(report)
    assert main(["leakage", str(mechanism), "--prior", str(prior), "--format", "latex"]) == 0
    latex = capsys.readouterr().out
    assert "leakage capacity C &  & $\\infty$ & $\\infty$ \\\\" in latex
    assert "\\caption{PML of identity bit (prior a: 9/10, b: 1/10)}" in latex
    assert str(tmp_path) not in latex and "\\label{tab:pml}" in latex


def test_caption_and_label_options(tmp_path, capsys):  # type: ignore[no-untyped-def]
    from exactpml.cli import main

    mechanism, _ = _identity_bit(tmp_path)
    arguments = ["leakage", str(mechanism), "--format", "latex"]
    assert main([*arguments, "--caption", "The identity on a bit", "--label", "tab:id"]) == 0
    latex = capsys.readouterr().out
    assert "\\caption{The identity on a bit}" in latex and "\\label{tab:id}" in latex
    assert main([*arguments, "--label", "bad label"]) == 2
    assert "--label 'bad label' must be" in capsys.readouterr().err
    assert main([*arguments, "--caption", " "]) == 2
    assert "--caption must be a non-empty text" in capsys.readouterr().err


def test_a_nameless_file_is_captioned_by_its_stem(tmp_path, capsys):  # type: ignore[no-untyped-def]
    from exactpml.cli import main

    path = tmp_path / "my_channel.json"
    path.write_text('{"rows": {"a": {"0": "1/2", "1": "1/2"}, "b": {"0": "1/4", "1": "3/4"}}}')
    assert main(["leakage", str(path), "--format", "latex"]) == 0
    assert "\\caption{PML of my\\_channel (uniform prior (none given))}" in capsys.readouterr().out
