"""Loading a user's claim module, named by a dotted name or by a file path.

``--module mylab.lemmas`` imports a module the way ``import`` does; ``--module
mine/lemmas.py`` loads the file: its directory goes first on ``sys.path`` (so modules
beside it import as they would for a script) and it is imported under its file's stem.
A stem that names some other importable module (``statistics.py``) is refused rather than
silently shadowed.  Worker processes load the same specs the same way, so a check defined
in a file runs in any worker.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from exactpml.errors import InvalidArgument

__all__ = ["absolute_spec", "import_claim_module", "is_file_spec", "module_name"]


def is_file_spec(spec: str) -> bool:
    """Whether ``spec`` names a file (``.py`` suffix, or a path separator) rather than a
    dotted module name."""
    return spec.endswith(".py") or "/" in spec or "\\" in spec


def _file(spec: str) -> Path:
    path = Path(spec).expanduser()
    if path.suffix != ".py":
        raise InvalidArgument(f"--module {spec}: a file path must end in .py")
    try:
        resolved = path.resolve(strict=True)
    except (OSError, RuntimeError):
        raise InvalidArgument(f"--module {spec}: no such file") from None
    if not resolved.is_file():
        raise InvalidArgument(f"--module {spec}: not a regular file")
    if not resolved.stem.isidentifier():
        raise InvalidArgument(
            f"--module {spec}: the file name {resolved.stem!r} is not a Python identifier, "
            "so it cannot be imported as a module; rename it (letters, digits, underscores)"
        )
    return resolved


def absolute_spec(spec: str) -> str:
    """``spec`` with a file path made absolute (worker processes may run elsewhere)."""
    return str(_file(spec)) if is_file_spec(spec) else spec


def module_name(spec: str) -> str:
    """The name under which ``spec`` is (or will be) imported: a file's stem, else itself."""
    return _file(spec).stem if is_file_spec(spec) else spec


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        where = f" at line {exc.lineno}" if exc.lineno is not None else ""
        return f"{type(exc).__name__}{where}: {exc.msg}"
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def import_claim_module(spec: str) -> ModuleType:
    """Import the module named by ``spec`` (a dotted name or a ``.py`` file path).

    Raises:
        InvalidArgument: one line saying why the module cannot be loaded (no such file, a
            syntax error with its line, an exception raised while importing it, a file
            name that shadows another module, an invalid check it registers).
    """
    if not isinstance(spec, str) or not spec.strip():
        raise InvalidArgument(f"--module {spec!r}: give a module name or a .py file path")
    if is_file_spec(spec):
        path = _file(spec)
        name = path.stem
        existing = sys.modules.get(name)
        if existing is not None and _same_file(existing, path):
            return existing
        _refuse_shadowing(spec, name, path)
        directory = str(path.parent)
        if directory not in sys.path:
            sys.path.insert(0, directory)
    else:
        name = spec
    try:
        module = importlib.import_module(name)
    except InvalidArgument as exc:
        raise InvalidArgument(f"--module {spec} registers an invalid check: {exc}") from exc
    except (Exception, SystemExit) as exc:
        raise InvalidArgument(f"--module {spec}: cannot load it: {_describe(exc)}") from exc
    if is_file_spec(spec) and not _same_file(module, _file(spec)):
        raise InvalidArgument(
            f"--module {spec}: the name {name!r} is already the module "
            f"{getattr(module, '__file__', None) or name}; rename the file"
        )
    return module


def _refuse_shadowing(spec: str, name: str, path: Path) -> None:
    """Refuse a file whose stem already names another importable module (it would
    shadow it for every later import, or be shadowed by it)."""
    try:
        found = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return
    if found is None or found.origin is None:
        return
    try:
        same = Path(found.origin).resolve() == path
    except OSError:
        same = False
    if not same:
        raise InvalidArgument(
            f"--module {spec}: the name {name!r} is already the module {found.origin}; "
            "rename the file"
        )


def _same_file(module: ModuleType, path: Path) -> bool:
    file = getattr(module, "__file__", None)
    if not file:
        return False
    try:
        return Path(file).resolve() == path
    except OSError:
        return False
