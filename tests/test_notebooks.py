"""The notebooks are committed clean and run in the test suite.

Each ``notebooks/*.ipynb`` is executed top to bottom by nbmake (``--nbmake`` and ``notebooks``
in ``[tool.pytest.ini_options]``), one test item per notebook, so ``pytest -n 2`` spreads them
over the workers.  These tests check what nbmake does not: no outputs are committed, every
notebook uses the ``python3`` kernel (ipykernel's, resolved to the running interpreter), the
configuration really collects them, and the README links each one.
"""

import json
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_the_notebooks_are_there():
    names = [path.name for path in NOTEBOOKS]
    assert {
        "01_tour.ipynb",
        "02_figure_1.ipynb",
        "03_laplace_counting.ipynb",
        "04_dp_as_pml.ipynb",
        "05_partial_knowledge.ipynb",
        "06_qif.ipynb",
        "07_own_claims.ipynb",
    } <= set(names)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_is_committed_without_outputs(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    for position, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        assert cell.get("outputs") == [], f"{path.name}: cell {position} has outputs; clear them"
        assert cell.get("execution_count") is None, (
            f"{path.name}: cell {position} has an execution count; clear outputs"
        )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_runs_on_the_python3_kernel(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"


def test_the_python3_kernel_runs_this_interpreter():
    # ipykernel's wheel installs the python3 kernelspec into the venv (no global
    # registration); its argv[0] "python" is replaced by the running interpreter.
    from jupyter_client.manager import KernelManager

    command = KernelManager(kernel_name="python3").format_kernel_cmd()
    assert command[:3] == [sys.executable, "-m", "ipykernel_launcher"]


def test_pytest_collects_the_notebooks_with_nbmake():
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_options = options["tool"]["pytest"]["ini_options"]
    assert "notebooks" in pytest_options["testpaths"]
    assert "--nbmake" in pytest_options["addopts"].split()


def test_readme_links_every_notebook():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in NOTEBOOKS:
        assert f"(notebooks/{path.name})" in readme, path.name
