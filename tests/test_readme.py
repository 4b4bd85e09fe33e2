"""The README's promises hold: its examples run, and CI runs exactly its commands."""

import doctest
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _first_bash_block() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", text, flags=re.S)
    assert block, "the README must start with a bash block holding its two commands"
    return [line for line in block.group(1).splitlines() if line and not line.startswith("#")]


def test_readme_starts_with_the_install_and_test_commands():
    install_and_run, test = _first_bash_block()
    assert install_and_run.startswith("python3 -m venv .venv")
    assert "pip install" in install_and_run and install_and_run.endswith("python -m proofs_check")
    assert "pytest" in test


def test_ci_runs_the_readme_install_and_test_commands():
    install_and_run, test = _first_bash_block()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for step in install_and_run.split(" && ")[:-1]:  # the install part, verbatim
        assert step in ci, step
    assert test in ci
    # under `set -e` a failure inside an && list does not stop the script: the line must exit
    line = next(line for line in ci.splitlines() if test in line)
    assert line.strip().endswith("|| exit"), line


def test_readme_python_examples_pass_as_doctests():
    result = doctest.testfile(
        str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted > 0 and result.failed == 0


def test_the_readme_json_example_runs_through_the_command_line(tmp_path, capsys):
    # The worked example of the README's JSON file format section, as a user would save it.
    from exactpml.cli import main

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    text = readme.split("### The JSON file format")[1].split("```json")[1].split("```")[0]
    path = tmp_path / "rr.json"
    path.write_text(text)
    assert main(["leakage", str(path), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["name"] == "Warner's randomized response"
    # Independent value: p_Y(yes) = 3/10·3/4 + 7/10·1/4 = 2/5, and
    # l(X -> yes) = log max_x p(yes|x)/p_Y(yes) = log (3/4)/(2/5) = log(15/8).
    yes = next(row for row in report["outputs"] if row["output"] == "yes")
    assert (yes["probability"], yes["pml"]) == ("2/5", "log(15/8)")
