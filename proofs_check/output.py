"""Writing a report file: checked before the run, written atomically at the end.

:func:`check_writable` fails early (before any check runs) when the path cannot be
written; :func:`write_atomically` writes a temporary file next to the target and renames
it, so a reader never sees a partial report and a failed run leaves no file behind.

Only a regular file is ever replaced.  A path that names a device, a FIFO, a socket or a
directory is refused (nothing is changed); a symbolic link is written through, so the
file it points to gets the report and the link stays a link.  The target is checked
again right before the final rename, since it may have changed during a long run.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from exactpml.core.abbreviate import file_kind
from exactpml.errors import InvalidArgument

__all__ = ["UnwritableOutput", "check_writable", "write_atomically"]

#: How many symbolic links are followed before a path is taken for a loop (Linux's limit).
MAX_LINKS = 40


class UnwritableOutput(InvalidArgument):
    """The output path cannot be written (the message names the path and the reason)."""


def _refuse(path: str, reason: str) -> UnwritableOutput:
    return UnwritableOutput(f"cannot write the report to {path}: {reason}.")


def _lstat(path: str, target: Path) -> os.stat_result | None:
    """``lstat`` of ``target``; None when nothing is there, UnwritableOutput otherwise."""
    try:
        return os.lstat(target)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:  # ENOTDIR, EACCES, ENAMETOOLONG, ELOOP; NUL byte
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise _refuse(path, detail) from None


def _final_target(path: str | os.PathLike[str]) -> tuple[Path, os.stat_result | None]:
    """The regular file the report will replace (or create), and its status if it exists.

    Symbolic links are followed one at a time, so the path itself is kept when it is not
    a link.

    Raises:
        UnwritableOutput: the path is empty or names something other than a regular file
            (a device, FIFO, socket or directory, also behind a link), a link loop, or a
            new file in a directory that does not exist.
    """
    text = os.fspath(path)
    if not isinstance(text, str):
        raise UnwritableOutput(f"output path {text!r} must be a string.")
    if text == "":
        raise UnwritableOutput("output path '' is empty; give the name of the report file.")
    target = Path(text)
    status = _lstat(text, target)
    if text.endswith(("/", os.sep)) and (status is None or not stat.S_ISDIR(status.st_mode)):
        raise UnwritableOutput(f"output path {text!r} ends with a slash, so it is not a file name.")
    links: list[Path] = []
    while status is not None and stat.S_ISLNK(status.st_mode):
        if len(links) == MAX_LINKS:
            raise _refuse(text, f"it is a loop of symbolic links (more than {MAX_LINKS} followed)")
        links.append(target)
        try:
            pointed = os.readlink(target)
        except OSError as exc:
            raise _refuse(text, exc.strerror or str(exc)) from None
        target = target.parent / pointed
        status = _lstat(text, target)
    via = f"it is a symbolic link to {target}, which is" if links else "it is"
    if status is None:
        parent = target.parent
        if not parent.is_dir():
            if links:
                raise _refuse(
                    text,
                    f"it is a dangling symbolic link to {target}, whose directory {parent} "
                    "does not exist",
                )
            raise _refuse(text, f"directory {parent} does not exist")
        return target, None
    if not stat.S_ISREG(status.st_mode):
        kind = file_kind(status.st_mode)
        if kind == "not a regular file":
            raise _refuse(text, f"{via} not a regular file")
        raise _refuse(text, f"{via} {kind}; only a regular file is replaced")
    return target, status


def check_writable(path: str | os.PathLike[str]) -> Path:
    """Check, before anything runs, that the report can be written at ``path``.

    Args:
        path: The ``--output`` path: a regular file (replaced), a new file in an existing
            directory, or a symbolic link to one of those (written through).

    Returns:
        The file that will be written: ``path`` itself, or the end of its link chain.

    Raises:
        UnwritableOutput: the path is empty, names a device, FIFO, socket or directory
            (directly or through a link), lies in a missing or unwritable directory, or
            names a file without write permission.  Nothing is created or changed.
    """
    text = os.fspath(path)
    target, status = _final_target(path)
    if status is not None and not os.access(target, os.W_OK):
        raise _refuse(str(text), "permission denied")
    try:
        with tempfile.NamedTemporaryFile(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp", delete=True
        ):
            pass
    except OSError as exc:
        raise _refuse(str(text), exc.strerror or str(exc)) from None
    return target


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def write_atomically(
    path: str | os.PathLike[str],
    text: str,
    *,
    before_replace: Callable[[], None] | None = None,
) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file and a rename.

    The temporary file lies in the target's directory; an existing file keeps its
    permission bits, a new one gets ``0o666`` less the umask.  If anything fails (or
    ``before_replace`` raises), the temporary file is removed and the target is untouched.

    Args:
        path: Where to write, as for :func:`check_writable` (links are written through).
        text: The report.
        before_replace: Called right before the rename, after the target was checked
            again; it may raise to abandon the write.

    Returns:
        The file that was written (the end of the link chain when ``path`` is a link).

    Raises:
        UnwritableOutput: the target is not (or is no longer) a regular file or a new file
            in an existing directory, or a link now points elsewhere than when the write
            began.
        OSError: writing or renaming failed.
    """
    target, _ = _final_target(path)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        again, status = _final_target(path)  # it may have changed meanwhile
        if again != target:
            folder = Path(path).parent  # targets beside the link by name: messages are short
            now, before = (
                (again.name, target.name)
                if again.parent == folder and target.parent == folder
                else (again, target)
            )
            raise _refuse(
                os.fspath(path),
                f"the symbolic link now points to {now} instead of {before}; nothing written",
            )
        mode = status.st_mode & 0o777 if status is not None else 0o666 & ~_umask()
        os.chmod(temporary, mode)
        if before_replace is not None:
            before_replace()
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target
