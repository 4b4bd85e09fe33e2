"""Writing a report file: checked before the run, written atomically at the end.

:func:`check_writable` fails early (before any check runs) when the path cannot be
written; :func:`write_atomically` writes a temporary file next to the target and renames
it, so a reader never sees a partial report and a failed run leaves no file behind.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from exactpml.errors import InvalidArgument

__all__ = ["UnwritableOutput", "check_writable", "write_atomically"]


class UnwritableOutput(InvalidArgument):
    """The output path cannot be written."""


def check_writable(path: str | os.PathLike[str]) -> Path:
    """Return the path if a file can be written there, else raise :class:`UnwritableOutput`."""
    target = Path(path)
    if str(path) == "" or target.name == "":
        raise UnwritableOutput(f"output path {str(path)!r} is not a file name.")
    if target.is_dir():
        raise UnwritableOutput(f"cannot write the report to {target}: it is a directory.")
    parent = target.parent
    if not parent.is_dir():
        raise UnwritableOutput(
            f"cannot write the report to {target}: directory {parent} does not exist."
        )
    if target.exists() and not os.access(target, os.W_OK):
        raise UnwritableOutput(f"cannot write the report to {target}: permission denied.")
    try:
        with tempfile.NamedTemporaryFile(dir=parent, prefix=f".{target.name}.", delete=True):
            pass
    except OSError as exc:
        raise UnwritableOutput(
            f"cannot write the report to {target}: {exc.strerror or exc}."
        ) from None
    return target


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def write_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file and a rename."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask()
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
