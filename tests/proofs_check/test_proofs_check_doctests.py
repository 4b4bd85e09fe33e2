"""The docstring examples of proofs_check run (the package is outside pytest's testpaths)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import proofs_check

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(proofs_check.__path__, prefix="proofs_check.")
    if not info.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_of_each_module_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
