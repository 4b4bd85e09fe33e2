"""The architecture holds: no import cycles, no import of another package's private module.

The test reads every module of ``exactpml`` and ``proofs_check`` with ``ast`` (imports inside
functions included: a lazy import is still a dependency; imports under ``if TYPE_CHECKING:``
excluded: they never run) and checks the module graph:

* **no cycles** -- a cycle between modules means two concepts that cannot be read apart;
* **private stays private** -- a module whose name starts with ``_`` (``exactpml.database._space``)
  is imported only by modules of its own package, and a private *name* of another package is
  never imported;
* **value objects import no algorithms** -- the core and the suprema's value types import
  nothing above the core;
* ``import exactpml`` does not load Hypothesis (strategies are loaded on first use).
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("exactpml", "proofs_check")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            found[_module_name(path)] = path
    return found


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES.get(name, Path()).name == "__init__.py"


def _imports(name: str, path: Path) -> list[tuple[str, str | None, int]]:
    """(imported module, imported name or None, line) for every import of our packages."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):  # typing-only imports are not dependencies at run time
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            node.body = []
    found = []
    package = name if _is_package(name) else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES:
                    found.append((alias.name, None, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                submodule = f"{module}.{alias.name}"
                if submodule in MODULES:
                    found.append((submodule, None, node.lineno))
                else:
                    found.append((module, alias.name, node.lineno))
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _private_owner(module: str) -> str | None:
    """The package a private module belongs to (None when no component is private)."""
    parts = module.split(".")
    for index, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            return ".".join(parts[:index])
    return None


def _within(importer: str, package: str) -> bool:
    return importer == package or importer.startswith(package + ".")


def test_no_module_imports_another_packages_private_module_or_name():
    violations = []
    for importer, imports in GRAPH.items():
        for module, name, line in imports:
            owner = _private_owner(module)
            if owner is not None and not _within(importer, owner):
                violations.append(f"{importer}:{line} imports private module {module}")
            private_name = name and name.startswith("_") and not name.startswith("__")
            home = module if _is_package(module) else module.rpartition(".")[0]
            if private_name and not _within(importer, home):
                violations.append(f"{importer}:{line} imports private name {module}.{name}")
    assert violations == []


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for node in graph:
        if node not in index:
            visit(node)
    return components


def test_there_are_no_import_cycles():
    edges = {
        importer: {module for module, _, _ in imports if module in MODULES and module != importer}
        for importer, imports in GRAPH.items()
    }
    # a package's __init__ re-exporting its own modules is not a cycle with them
    for importer in edges:
        if _is_package(importer):
            continue
        edges[importer] = {m for m in edges[importer] if not _within(importer, m)}
    assert _strongly_connected(edges) == []


VALUE_OBJECT_MODULES = (
    "exactpml.core.logvalue",
    "exactpml.core.distribution",
    "exactpml.core.mechanism",
    "exactpml.suprema.witnesses",
)
ALLOWED_FOR_VALUE_OBJECTS = ("exactpml.core", "exactpml.errors", "exactpml.suprema.families")


@pytest.mark.parametrize("module", VALUE_OBJECT_MODULES)
def test_value_objects_import_no_algorithms(module):
    imported = {m for m, _, _ in GRAPH[module]}
    outside = sorted(
        m for m in imported if not any(_within(m, a) for a in ALLOWED_FOR_VALUE_OBJECTS)
    )
    assert outside == []


def test_import_exactpml_does_not_load_hypothesis():
    code = "import sys, exactpml; print('hypothesis' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == "False"
    assert (
        subprocess.run(
            [sys.executable, "-c", "import exactpml; exactpml.strategies.distributions"],
            cwd=ROOT,
        ).returncode
        == 0
    )
