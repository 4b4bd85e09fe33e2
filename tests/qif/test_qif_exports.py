"""Every QIF name is public at the top level, documented, and shown with a doctest."""

import inspect

import pytest

import exactpml
import exactpml.qif


@pytest.mark.parametrize("name", exactpml.qif.__all__)
def test_exported_at_the_top_with_a_doctest(name):
    value = getattr(exactpml.qif, name)
    assert name in exactpml.__all__
    assert getattr(exactpml, name) is value
    doc = inspect.getdoc(value) or ""
    assert doc, name
    if inspect.isfunction(value):
        assert ">>>" in doc, f"{name} has no doctest example"
