"""Issue 15 integrations: exact assertions and the pytest plugin (exactpml.testing),
st.from_type through the Hypothesis entry point, rich display in Jupyter, to_pandas."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from exactpml import Distribution, LogValue, Mechanism
from exactpml.render import CertifiedDecimal, ExactTable
from exactpml.testing import assert_exact_equal, assert_exact_less_equal

ROOT = Path(__file__).resolve().parents[2]


def test_exact_assertions_compare_exactly_and_explain_a_failure() -> None:
    assert_exact_equal(LogValue(Fraction(9, 5)), sympy.log(sympy.Rational(9, 5)))
    assert_exact_less_equal(LogValue(Fraction(3)), LogValue(Fraction(4)))
    with pytest.raises(AssertionError, match=r"log\(3\) \(1\.098612289\) exceeds log\(2\)"):
        assert_exact_less_equal(LogValue(Fraction(3)), LogValue(Fraction(2)))
    # 10^-30 apart: a float comparison would call these equal.
    close = Fraction(1, 3) + Fraction(1, 10**30)
    with pytest.raises(AssertionError, match="difference 1/1000000000000000000000000000000"):
        assert_exact_equal(close, Fraction(1, 3))
    with pytest.raises(TypeError, match="float"):
        assert_exact_equal(0.5, Fraction(1, 2))


def _fresh_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
        env={**os.environ},
    )


def test_from_type_draws_the_value_objects_in_a_fresh_process() -> None:
    done = _fresh_python(
        "from hypothesis import given, settings, strategies as st\n"
        "from exactpml import Mechanism, Distribution, DatabaseMechanism\n"
        "@settings(max_examples=10, database=None)\n"
        "@given(st.from_type(Mechanism), st.from_type(Distribution),"
        " st.from_type(DatabaseMechanism))\n"
        "def t(m, d, db):\n"
        "    assert type(m) is Mechanism and type(d) is Distribution\n"
        "    assert type(db) is DatabaseMechanism\n"
        "t()\nprint('ok')\n"
    )
    assert done.stdout == "ok\n", done.stderr


def test_the_pytest_plugin_registers_the_profiles_and_its_option(tmp_path: Path) -> None:
    test = tmp_path / "test_user.py"
    test.write_text(
        "from hypothesis import settings\n"
        "def test_profile():\n"
        "    assert settings().max_examples == 150 and settings().deadline is None\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            str(test),
            "--exactpml-profile",
            "exactpml-ci",
            "--rootdir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_value_objects_and_tables_display_in_jupyter() -> None:
    mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
    html = mechanism._repr_html_()
    assert "<td>3/4</td>" in html and "<th>x \\ y</th>" in html
    prior = Distribution({"<b>": "1/3", "c": "2/3"})
    assert "&lt;b&gt;" in prior._repr_html_() and "<td>2/3</td>" in prior._repr_html_()
    table = ExactTable(["y", "l"], [[0, LogValue(Fraction(9, 5))]])
    assert "<td>log(9/5)</td>" in table._repr_html_()
    assert table._repr_markdown_() == table.to_markdown()


def test_to_pandas_keeps_exact_objects_or_their_strings() -> None:
    pytest.importorskip("pandas")
    rows = [[0, Fraction(1, 3), LogValue(Fraction(9, 5)), CertifiedDecimal(LogValue(3), 5)]]
    table = ExactTable(["$y$", "$p$", "$\\ell$", "decimal"], rows, keys=["y", "p", "pml", "dec"])
    exact = table.to_pandas()
    assert list(exact.columns) == ["y", "p", "pml", "dec"]
    assert exact.loc[0, "p"] == Fraction(1, 3) and type(exact.loc[0, "p"]) is Fraction
    assert exact.loc[0, "pml"] == LogValue(Fraction(9, 5))
    text = table.to_pandas(exact=False)
    assert text.loc[0].tolist() == ["0", "1/3", "log(9/5)", "1.0986"]
    assert '"keys": [\n    "y"' in table.to_json()
