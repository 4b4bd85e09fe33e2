"""Fixtures for the proofs_check tests: demo registries and quick run options."""

from __future__ import annotations

from pathlib import Path

import pc_demo_claims
import pytest

from proofs_check import Registry, RunOptions

HERE = Path(__file__).resolve().parent

# Users' claim files, loaded by path in the tests (``--module FILE``): doctest collection
# must not import them into the default registry of every test process.
collect_ignore = ["user_files"]


@pytest.fixture
def demo() -> Registry:
    """True toy claims whose checks pass and whose mutants fail."""
    return pc_demo_claims.demo_registry


@pytest.fixture
def odd() -> Registry:
    """Checks that misbehave on purpose."""
    return pc_demo_claims.odd_registry


@pytest.fixture
def quick() -> RunOptions:
    """In-process, quick profile, seed 0."""
    return RunOptions(workers=1, profile="quick")
