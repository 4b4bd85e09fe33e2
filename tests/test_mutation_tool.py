"""``tools/mutation_score.py`` stays honest and cheap: it generates the mutants it documents
(and none of what it says it skips), every mutant is valid Python with the other lines
untouched, a mutated file is always restored, a killable mutant is reported killed and an
equivalent one survived, a hanging test run is reported as a timeout, and its allow-list and
test map name things that exist.  Runs on a tiny sample module, not on the real targets.
"""

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutation_score", ROOT / "tools/mutation_score.py")
assert _spec is not None and _spec.loader is not None
tool = importlib.util.module_from_spec(_spec)
sys.modules["mutation_score"] = tool  # dataclasses look their module up by name
_spec.loader.exec_module(tool)

SAMPLE = textwrap.dedent(
    '''\
    """A sample module: 1 < 2 in a docstring is not code."""
    from typing import TYPE_CHECKING

    __all__ = ["clamp"]
    if TYPE_CHECKING:
        LIMIT = 3


    def clamp(x: int = 0, low: int = 1, high: int = 5) -> int:
        """Clamp x into [low, high]."""
        if x < low and not False:
            return low
        if x > high:
            raise ValueError(f"{x} > {high}")
        assert low <= high, "ordered"
        return min(x, high)


    def pairs(a, b):
        return list(zip(a, b, strict=True))


    class Box:
        def __repr__(self):
            return "Box(" + str(1 + 1) + ")"
    '''
)


def _described(mutants):
    return [(m.line, m.mutation) for m in mutants]


def test_the_documented_operators_and_nothing_that_is_skipped():
    mutants = tool.generate_mutants(SAMPLE, "sample.py")
    assert _described(mutants) == [
        (9, "`0` -> `1`"),  # defaults are code; annotations are not
        (9, "`1` -> `0`"),
        (9, "`5` -> `6`"),
        (11, "`<` -> `<=`"),
        (11, "`and` -> `or`"),
        (11, "`not x` -> `x`"),
        (11, "`False` -> `True`"),
        (12, "`return x` -> `return None`"),
        (13, "`>` -> `>=`"),
        (16, "`min` -> `max`"),
        (16, "`return x` -> `return None`"),
        (20, "`return x` -> `return None`"),
    ]
    # skipped: the docstring, __all__, TYPE_CHECKING, the raise and its f-string, the
    # assert, zip's strict=, and the display method __repr__ (lines 1, 4-6, 14-15, 20, 24-25)


def test_every_mutant_is_valid_python_with_every_other_line_unchanged():
    source = SAMPLE + "total = (1 +\n         2)\nvalue = sum([1,\n  2]) * 3\nx = 4\n"
    lines = source.splitlines()
    for mutant in tool.generate_mutants(source, "sample.py"):
        mutated = tool.apply_mutant(source, mutant).splitlines()
        assert len(mutated) == len(lines)
        changed = [i + 1 for i, (a, b) in enumerate(zip(lines, mutated, strict=True)) if a != b]
        assert changed and set(changed) <= set(range(mutant.start[0], mutant.end[0] + 1))
    multi_line = [
        m for m in tool.generate_mutants(source, "sample.py") if m.mutation == "`*` -> `/`"
    ]
    assert len(multi_line) == 1
    assert "(sum([1, 2]) / 3\n)" in tool.apply_mutant(source, multi_line[0])


def test_non_ascii_text_before_a_mutant_keeps_byte_columns_right():
    source = 'label = "ε ≤ δ"; flag = "∞" if 1 < 2 else ""\n'
    (mutant,) = [m for m in tool.generate_mutants(source, "m.py") if m.mutation == "`<` -> `<=`"]
    assert tool.apply_mutant(source, mutant) == 'label = "ε ≤ δ"; flag = "∞" if (1 <= 2) else ""\n'


def test_a_mutated_file_is_restored_even_when_the_block_fails(tmp_path):
    path = tmp_path / "module.py"
    path.write_text("x = 1\n", encoding="utf-8")
    with pytest.raises(RuntimeError), tool.mutated_file(path, "x = 2\n"):
        assert path.read_text(encoding="utf-8") == "x = 2\n"
        raise RuntimeError("the test run crashed")
    assert path.read_text(encoding="utf-8") == "x = 1\n"


def _sample_project(tmp_path):
    (tmp_path / "sample.py").write_text(SAMPLE, encoding="utf-8")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_sample.py").write_text(
        "from sample import clamp\n\n"
        "def test_clamp():\n"
        "    assert clamp(0, 1, 5) == 1 and clamp(3, 1, 5) == 3 and clamp(5, 1, 5) == 5\n",
        encoding="utf-8",
    )
    return tmp_path


def test_killed_and_surviving_mutants_are_told_apart_and_the_file_restored(tmp_path):
    project = _sample_project(tmp_path)
    original = (project / "sample.py").read_bytes()
    chosen = {(11, "`<` -> `<=`"), (16, "`min` -> `max`")}
    mutants = [
        m for m in tool.generate_mutants(SAMPLE, "sample.py") if (m.line, m.mutation) in chosen
    ]
    results, baseline = tool.run_all(
        mutants,
        {"sample.py": ("tests/test_sample.py",)},
        root=project,
        entries=("sample.py", "tests"),
        jobs=2,
    )
    outcomes = {(r.mutant.line, r.mutant.mutation): r.outcome for r in results}
    assert outcomes == {
        (11, "`<` -> `<=`"): "survived",  # x == low returns low either way: equivalent
        (16, "`min` -> `max`"): "killed",
    }
    assert set(baseline) == {"sample.py"}
    assert (project / "sample.py").read_bytes() == original  # the tree itself is never written
    row = tool.summarize(results)[0]
    assert (row["mutants"], row["killed"], row["survived"], row["score"]) == (2, 1, 1, 0.5)
    assert "sample.py:11:8 `<` -> `<=`" in tool.report(results, baseline, 1.0)


def test_a_killed_mutant_leaves_the_worker_copy_restored(tmp_path):
    project = _sample_project(tmp_path)
    (mutant,) = [
        m for m in tool.generate_mutants(SAMPLE, "sample.py") if m.mutation == "`min` -> `max`"
    ]
    runner = tool.Runner(project, fork=False)  # a new interpreter: the fallback path
    result = tool.run_mutant(runner, mutant, ["tests/test_sample.py"], timeout=120)
    assert result.outcome == "killed"
    assert (project / "sample.py").read_text(encoding="utf-8") == SAMPLE


def test_a_hanging_test_run_is_a_timeout_and_the_fork_server_goes_on(tmp_path):
    (tmp_path / "test_hang.py").write_text(
        "import time\n\ndef test_hang():\n    time.sleep(600)\n", encoding="utf-8"
    )
    (tmp_path / "test_fine.py").write_text("def test_fine():\n    pass\n", encoding="utf-8")
    runner = tool.Runner(tmp_path)
    try:
        status, seconds = runner.run(["test_hang.py"], timeout=2)
        assert status == "timeout" and seconds < 60
        assert runner.run(["test_fine.py"], timeout=60)[0] == "passed"
    finally:
        runner.close()


def test_the_test_map_and_the_allow_list_name_real_things():
    for module, tests in tool.TARGETS.items():
        assert (ROOT / module).is_file() and module in tests  # its doctests run too
        assert all((ROOT / test).is_file() for test in tests)
    covered = {
        tool.equivalence_of(m)
        for module in {e.module for e in tool.EQUIVALENT}
        for m in tool.generate_mutants((ROOT / module).read_text(encoding="utf-8"), module)
    }
    for entry in tool.EQUIVALENT:
        assert entry in covered, entry  # no entry outlives the line it describes
        assert len(entry.reason) > 20, entry


def test_the_listing_runs_without_running_any_test():
    result = subprocess.run(
        [sys.executable, "tools/mutation_score.py", "--list", "--module", "capacities"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.rstrip().endswith("mutants")
    assert "exactpml/leakage/capacities.py:" in result.stdout
