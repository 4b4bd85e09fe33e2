"""Sphinx configuration of the API reference (issue 15, item 6).

Build (warnings are errors)::

    python -m sphinx -W --keep-going -b html docs/api /tmp/apidocs-html

The reference is generated from the docstrings (Google style, read by napoleon).  Their
``>>>`` examples are run by the test suite (``pytest --doctest-modules``, see pyproject.toml),
not by Sphinx: ``sphinx.ext.doctest`` is deliberately not loaded, so there is one doctest run.
"""

from __future__ import annotations

import inspect

import exactpml

project = "exactpml"
author = "exactpml contributors"
copyright = "exactpml contributors"
version = release = exactpml.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
]

napoleon_google_docstring = True
napoleon_numpy_docstring = False
# "Attributes:" sections become :ivar: fields of the class, so a dataclass field is not described
# twice (once by the section, once as a member).
napoleon_use_ivar = True

autodoc_default_options = {
    "members": True,
    "undoc-members": False,
    "show-inheritance": True,
}
autodoc_member_order = "bysource"
# Signatures stay readable: annotations are shown in the description, not the signature.
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented"

html_theme = "alabaster"
html_static_path: list[str] = []
exclude_patterns = ["_build"]


def _drop_type_docstring(app, what, name, obj, options, lines):
    """A data name (a dict, tuple, str, registry...) re-exported without a doc comment has no
    docstring of its own: autodoc would show its type's (``dict.__doc__``); the pages give the
    text instead.  Doc comments (``#:``) are kept."""
    type_doc = inspect.cleandoc(getattr(type(obj), "__doc__", None) or "")
    if what == "data" and type_doc:
        if [line for line in lines if line.strip()] == [
            line for line in type_doc.splitlines() if line.strip()
        ]:
            lines[:] = []


def setup(app):
    app.connect("autodoc-process-docstring", _drop_type_docstring)
