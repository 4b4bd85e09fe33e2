"""Only regular files are read: a FIFO, a device, a socket or a directory given as a
mechanism or prior file is refused with :class:`~exactpml.errors.InvalidFile` naming what it
is, without blocking (issue 21, item 3).

Opening a FIFO for reading blocks until a writer comes, so ``exactpml leakage FIFO`` used to
hang in ``open()``; a character device such as ``/dev/zero`` never ends.  The path is checked
with ``stat`` before it is opened, and what was opened is checked again with ``fstat``
(opened with ``O_NONBLOCK``, so a FIFO swapped in between cannot block the open either).
Every test that could block runs under a hang guard (``signal.alarm``).
"""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import exactpml.io
from exactpml.errors import InvalidArgument, InvalidFile
from exactpml.io import load_json, read_mechanism, read_prior

MECHANISM = {"rows": {"a": {"yes": "3/4", "no": "1/4"}, "b": {"yes": "1/4", "no": "3/4"}}}
HANG_GUARD_SECONDS = 20


@contextlib.contextmanager
def _hang_guard() -> Iterator[None]:
    """Fail (instead of blocking the suite) if the body blocks."""

    def alarm(signum: int, frame: object) -> None:
        raise AssertionError(f"blocked for {HANG_GUARD_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(HANG_GUARD_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A directory with a short path (a Unix socket's path is limited to ~100 bytes)."""
    with tempfile.TemporaryDirectory(prefix="epml") as name:
        yield Path(name)


def _fifo(folder: Path) -> Path:
    path = folder / "pipe.json"
    os.mkfifo(path)
    return path


def _socket(folder: Path) -> tuple[Path, socket.socket]:
    path = folder / "s.json"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    return path, server


def _non_regular(kind: str, folder: Path) -> tuple[Path, str]:
    """A non-regular file of ``kind`` and the words the message must use for it."""
    if kind == "fifo":
        return _fifo(folder), "a FIFO (named pipe)"
    if kind == "directory":
        path = folder / "dir.json"
        path.mkdir()
        return path, "a directory"
    if kind == "character device":
        return Path("/dev/zero"), "a character device"
    if kind == "link to a fifo":
        path = folder / "link.json"
        path.symlink_to(_fifo(folder))
        return path, "a FIFO (named pipe)"
    raise AssertionError(kind)


KINDS = ["fifo", "directory", "character device", "link to a fifo"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("reader", [read_mechanism, read_prior, load_json])
def test_a_non_regular_file_is_refused_naming_what_it_is(kind, reader, short_dir):
    path, words = _non_regular(kind, short_dir)
    with _hang_guard(), pytest.raises(InvalidFile) as caught:
        reader(path)
    message = str(caught.value)
    assert message == f"{path}: cannot read the file: it is {words}; only a regular file is read"


def test_a_socket_is_refused(short_dir):
    path, server = _socket(short_dir)
    with server, _hang_guard(), pytest.raises(InvalidFile, match="it is a socket"):
        read_mechanism(path)


def test_a_link_to_a_regular_file_is_read(short_dir):
    target = short_dir / "m.json"
    target.write_text(json.dumps(MECHANISM))
    link = short_dir / "link.json"
    link.symlink_to(target)
    mechanism, prior = read_mechanism(link)
    assert mechanism.inputs == ("a", "b") and prior is None


def test_a_path_with_a_nul_character_is_refused_by_exactpml():
    with pytest.raises(InvalidFile, match="NUL character"):
        read_mechanism("m\0.json")


def test_a_fifo_swapped_in_after_the_check_is_refused_without_blocking(short_dir, monkeypatch):
    # The path passes ``stat`` as a regular file and is a FIFO when opened: without
    # O_NONBLOCK the open would wait for a writer; without fstat the FIFO would be read.
    regular = short_dir / "m.json"
    regular.write_text(json.dumps(MECHANISM))
    fifo = _fifo(short_dir)
    lying_os = types.SimpleNamespace(**{name: getattr(os, name) for name in dir(os)})
    lying_os.stat = lambda path, *args, **kwargs: os.stat(regular)
    monkeypatch.setattr(exactpml.io, "os", lying_os)
    with _hang_guard(), pytest.raises(InvalidFile, match=r"it is a FIFO \(named pipe\)"):
        read_mechanism(fifo)


def _cli(arguments: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "exactpml.cli", *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


@pytest.mark.parametrize("where", ["mechanism", "prior"])
def test_the_command_line_refuses_a_fifo_with_status_two_and_one_line(where, short_dir):
    fifo = _fifo(short_dir)
    regular = short_dir / "m.json"
    regular.write_text(json.dumps(MECHANISM))
    arguments = (
        ["leakage", str(fifo)]
        if where == "mechanism"
        else ["leakage", str(regular), "--prior", str(fifo)]
    )
    result = _cli(arguments)
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stdout == ""
    assert result.stderr == (
        f"exactpml: error: {fifo}: cannot read the file: it is a FIFO (named pipe); "
        "only a regular file is read\n"
    )


def test_the_command_line_refuses_a_directory_and_a_device(short_dir):
    for path, words in [(short_dir, "a directory"), (Path("/dev/null"), "a character device")]:
        result = _cli(["leakage", str(path)])
        assert result.returncode == 2
        assert result.stderr.count("\n") == 1 and f"it is {words}" in result.stderr


@pytest.mark.parametrize("path", [None, 3, b"m.json", ["m.json"]], ids=repr)
@pytest.mark.parametrize("reader", [read_mechanism, read_prior, load_json])
def test_a_path_that_is_not_a_file_name_is_refused_naming_its_type(reader, path):
    with pytest.raises(InvalidArgument) as caught:
        reader(path)
    assert str(caught.value) == (  # the public boundary's check of the annotation
        f"{reader.__name__}: path must be a str or a PathLike, got {type(path).__name__} "
        f"(path={path!r})"
    )


def test_a_very_long_path_is_shown_by_its_ends():
    path = "7" * 100_000
    with pytest.raises(InvalidFile) as caught:
        read_mechanism(path)
    message = str(caught.value)
    assert message == (
        f"{'7' * 60}…{'7' * 40} (a path of 100000 characters): cannot read the file "
        "(File name too long)"
    )
