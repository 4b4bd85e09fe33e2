"""Smoke runs of the ``--scaling`` modes of three benchmarks at tiny sizes.

Each mode checks its exact values before timing (against explicit enumeration, the all-pairs
PLRV form, closed forms, or the Kairouz–Oh–Viswanath sum) and returns 1 on a mismatch; these
tests only run the modes end to end and read the report.  dp-accounting is a benchmark-only
dependency: it is blocked here, so the tests exercise the "not importable" path and never
need it.  No timing assertions: the times printed are not read.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

_BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_smoke_{name}", _BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def no_dp_accounting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``import dp_accounting`` fail, as on a machine without the ``peers`` extra."""
    monkeypatch.setitem(sys.modules, "dp_accounting", None)
    monkeypatch.setitem(sys.modules, "dp_accounting.pld", None)


def test_database_scaling(no_dp_accounting, capsys):
    bench = _load("bench_database")
    assert (
        bench.main(["--scaling", "--sizes", "20", "40", "80", "--repeat", "1", "--check-n", "12"])
        == 0
    )
    out = capsys.readouterr().out
    assert "checked: structured = explicit D^n" in out
    assert "dp-accounting: not importable" in out
    assert out.count("(b) δ(ε): time ∝ n^") == 2  # with and without threshold
    assert "threshold m = n/10" in out


def test_database_default_mode_still_runs(capsys):
    bench = _load("bench_database")
    assert bench.main(["--n", "200", "--repeat", "1", "--explicit-n", "6"]) == 0
    assert "Part 2" in capsys.readouterr().out


def test_accounting_scaling(no_dp_accounting, capsys):
    bench = _load("bench_accounting")
    assert bench.main(["--scaling", "--ks", "2", "4", "8", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "dp-accounting not importable" in out
    assert "exact: time ∝ k^" in out
    assert out.count("(exact, = KOV)") == 3


def test_channel_scaling(capsys):
    bench = _load("bench_channel")
    argv = ["--scaling", "--shapes", "4x4", "6x6", "8x8", "--repetitions", "1"]
    assert bench.main([*argv, "--sympy-repetitions", "1", "--numpy-inner", "1"]) == 0
    out = capsys.readouterr().out
    assert "Growth over square n×n channels" in out
    assert "| exactpml | per-row | 4..8 | n^" in out
    assert "| exactpml | shared | 4..8 | n^" in out


def test_import_time_benchmark(capsys):
    bench = _load("bench_import")
    assert bench.main(["--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "import exactpml:" in out and "target ≤ 0.65 s" in out
