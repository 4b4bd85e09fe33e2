"""Smoke runs of the DP-SGD modes of ``benchmarks/bench_accounting.py`` and ``bench_peers.py``.

At tiny sizes and with every peer blocked (they are benchmark-only dependencies), the modes
run end to end: ``--dpsgd`` checks the certified bracket of one Gaussian step against
Balle & Wang's exact ε (computed in the benchmark by certified bisection) and fails on a
miss; ``--dpsgd-scaling`` and the peer audit print their tables.  The benchmark's own
reference, the certified bisection, is checked against the proofs_check reference.  No
timing assertions.
"""

from __future__ import annotations

import importlib.util
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

from proofs_check.reference import accounting as bf

_BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
_PEERS = ("dp_accounting", "prv_accountant", "opacus", "autodp")


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_dpsgd_{name}", _BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def no_peers(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _PEERS:
        monkeypatch.setitem(sys.modules, name, None)
    for name in ("dp_accounting.pld", "opacus.accountants", "autodp.mechanism_zoo"):
        monkeypatch.setitem(sys.modules, name, None)


def test_the_benchmarks_analytic_gaussian_epsilon_matches_the_reference():
    bench = _load("bench_accounting")
    for sigma in (Fraction(1, 2), Fraction(2)):
        lo, hi = bench.analytic_gaussian_epsilon(sigma, Fraction(1, 10**5), digits=12)
        ref_lo, ref_hi = bf.analytic_gaussian_epsilon(sigma, Fraction(1, 10**5), digits=20)
        assert lo <= ref_lo and ref_hi <= hi


def test_dpsgd_targets_mode_checks_the_gaussian_step(no_peers, capsys):
    bench = _load("bench_accounting")
    assert bench.main(["--dpsgd", "--dpsgd-max-k", "0"]) == 0
    out = capsys.readouterr().out
    assert out.count("contains it") == 3 and "MISMATCH" not in out


def test_dpsgd_scaling_mode_reports_exponents(no_peers, capsys):
    bench = _load("bench_accounting")
    argv = ["--dpsgd-scaling", "--dpsgd-ks", "30", "60", "120", "--dpsgd-k", "60"]
    assert bench.main([*argv, "--dpsgd-resolutions", "256", "512", "1024"]) == 0
    out = capsys.readouterr().out
    assert "time ∝ k^" in out and "time ∝ (1/Δ)^" in out and "∝ Δ^" in out


def test_peer_audit_runs_the_certified_side_without_peers(no_peers, capsys):
    bench = _load("bench_peers")
    argv = ["--dpsgd", "--grid-rates", "1/10", "--grid-sigmas", "1", "--grid-ks", "10"]
    assert bench.main([*argv, "--grid-deltas", "1/100000"]) == 0
    out = capsys.readouterr().out
    assert "certified brackets" in out and "VIOLATION" not in out
