"""The public API stays where users import it (issue 16): every name importable before the
restructure from ``exactpml``, its public subpackages and faces, and ``proofs_check`` is
importable from there now.

``public_names_before_issue_16.json`` was computed on commit e6f6388 (before the move): for
each module, its ``__all__`` plus every attribute defined in the module (or its package)
and every submodule attribute.
"""

import importlib
import json
from pathlib import Path

import pytest

BEFORE = json.loads(
    (Path(__file__).parent / "public_names_before_issue_16.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("module", sorted(BEFORE))
def test_every_name_importable_before_is_importable_from_the_same_place(module):
    imported = importlib.import_module(module)
    missing = [name for name in BEFORE[module] if not hasattr(imported, name)]
    assert missing == []


def test_the_faces_are_the_modules_themselves():
    import exactpml.certify
    import exactpml.families
    import exactpml.limits
    from exactpml.core import certify
    from exactpml.numerics import limits
    from exactpml.suprema import families

    assert exactpml.certify is certify
    assert exactpml.limits is limits
    assert exactpml.families is families
    from exactpml import measures

    assert measures.pointwise_maximal_leakage is exactpml.pointwise_maximal_leakage
