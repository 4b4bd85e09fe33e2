"""``--output`` never destroys: only a regular file is replaced, and a stopped run writes nothing.

Devices, FIFOs, sockets and directories are refused before any check runs (exit status 2,
one line naming the path and what it is, nothing changed); symbolic links are written
through; SIGINT and SIGTERM stop the worker processes and leave the old report intact.
"""

from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from proofs_check import CheckContext, Evidence, Registry, exact_instances
from proofs_check.cli import main
from proofs_check.output import UnwritableOutput, check_writable, write_atomically

try:
    import psutil
except ImportError:  # the /proc fallback below is used instead
    psutil = None

HERE = Path(__file__).resolve().parent
OLD_REPORT = b"an old report \x00\xff\n\xe2\x9c\x93 kept byte for byte\n"


def _recording_registry(ran: list[str]) -> Registry:
    """One check that records that it ran (in this process: run with ``--workers 1``)."""
    registry = Registry()

    @registry.check("mylab.x", source="s", result="r", statement="s", kinds="E", mutants={"m": "m"})
    def record(ctx: CheckContext) -> list[Evidence]:
        ran.append(ctx.claim_id)
        return [exact_instances({"1 = 1": (1, 1)})]

    return registry


def _snapshot(directory: Path) -> dict[str, tuple[int, str, bytes]]:
    """Name -> (file type, link target, content of a regular file), without following links."""
    entries: dict[str, tuple[int, str, bytes]] = {}
    for path in sorted(directory.iterdir()):
        mode = path.lstat().st_mode
        link = os.readlink(path) if stat.S_ISLNK(mode) else ""
        content = path.read_bytes() if stat.S_ISREG(mode) else b""
        entries[path.name] = (stat.S_IFMT(mode), link, content)
    return entries


def _fifo(tmp: Path) -> str:
    os.mkfifo(tmp / "fifo")
    return str(tmp / "fifo")


def _directory(tmp: Path) -> str:
    (tmp / "dir").mkdir()
    return str(tmp / "dir")


def _socket(tmp: Path) -> str:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp / "sock"))
    server.close()  # the socket file stays
    return str(tmp / "sock")


def _link_to(name: str, make: Callable[[Path], str]) -> Callable[[Path], str]:
    def prepare(tmp: Path) -> str:
        os.symlink(make(tmp), tmp / name)
        return str(tmp / name)

    return prepare


def _dangling(tmp: Path) -> str:
    os.symlink(tmp / "missing" / "report.md", tmp / "dangling.md")
    return str(tmp / "dangling.md")


def _loop(tmp: Path) -> str:
    os.symlink(tmp / "b.md", tmp / "a.md")
    os.symlink(tmp / "a.md", tmp / "b.md")
    return str(tmp / "a.md")


def _locked(tmp: Path) -> str:
    (tmp / "locked").mkdir()
    (tmp / "locked").chmod(0o555)
    return str(tmp / "locked" / "report.md")


@dataclass(frozen=True)
class Refused:
    """An output path that must be refused, and what must hold afterwards."""

    name: str
    prepare: Callable[[Path], str]
    message: str
    still: Callable[[str], bool] = lambda path: True


REFUSED = [
    Refused(
        "device /dev/null",
        lambda tmp: "/dev/null",
        "cannot write the report to /dev/null: it is a character device; "
        "only a regular file is replaced.",
        lambda path: stat.S_ISCHR(os.lstat(path).st_mode),
    ),
    Refused(
        "FIFO",
        _fifo,
        "cannot write the report to {tmp}/fifo: it is a FIFO (named pipe); "
        "only a regular file is replaced.",
        lambda path: stat.S_ISFIFO(os.lstat(path).st_mode),
    ),
    Refused(
        "directory",
        _directory,
        "cannot write the report to {tmp}/dir: it is a directory; only a regular file is replaced.",
        lambda path: stat.S_ISDIR(os.lstat(path).st_mode) and os.listdir(path) == [],
    ),
    Refused(
        "socket",
        _socket,
        "cannot write the report to {tmp}/sock: it is a socket; only a regular file is replaced.",
        lambda path: stat.S_ISSOCK(os.lstat(path).st_mode),
    ),
    Refused(
        "symlink to a FIFO",
        _link_to("link.md", _fifo),
        "cannot write the report to {tmp}/link.md: it is a symbolic link to {tmp}/fifo, "
        "which is a FIFO (named pipe); only a regular file is replaced.",
        lambda path: os.path.islink(path) and stat.S_ISFIFO(os.stat(path).st_mode),
    ),
    Refused(
        "symlink to /dev/null",
        _link_to("null.md", lambda tmp: "/dev/null"),
        "cannot write the report to {tmp}/null.md: it is a symbolic link to /dev/null, "
        "which is a character device; only a regular file is replaced.",
        lambda path: os.path.islink(path) and stat.S_ISCHR(os.stat("/dev/null").st_mode),
    ),
    Refused(
        "dangling symlink into a missing directory",
        _dangling,
        "cannot write the report to {tmp}/dangling.md: it is a dangling symbolic link to "
        "{tmp}/missing/report.md, whose directory {tmp}/missing does not exist.",
        os.path.islink,
    ),
    Refused(
        "symlink loop",
        _loop,
        "cannot write the report to {tmp}/a.md: it is a loop of symbolic links "
        "(more than 40 followed).",
        os.path.islink,
    ),
    Refused(
        "empty path", lambda tmp: "", "output path '' is empty; give the name of the report file."
    ),
    Refused(
        "trailing slash",
        lambda tmp: str(tmp / "report.md") + "/",
        "output path '{tmp}/report.md/' ends with a slash, so it is not a file name.",
    ),
    Refused(
        "unwritable directory",
        _locked,
        "cannot write the report to {tmp}/locked/report.md: Permission denied.",
        lambda path: os.listdir(os.path.dirname(path)) == [],
    ),
]


@contextmanager
def _unprivileged(case: Refused) -> Iterator[None]:
    """Root ignores directory permissions: drop the effective uid for that one case."""
    if case.name != "unwritable directory" or os.geteuid() != 0:
        yield
        return
    try:
        os.seteuid(65534)
    except OSError:
        pytest.skip("running as root and cannot drop the effective uid")
    try:
        yield
    finally:
        os.seteuid(0)


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A directory that an unprivileged effective uid can enter (tmp_path is 0o700)."""
    base = Path(tempfile.mkdtemp(prefix="pc_output_"))
    base.chmod(0o755)
    try:
        yield base
    finally:
        for path in base.rglob("*"):
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        for path in sorted(base.rglob("*"), reverse=True):
            if path.is_dir() and not path.is_symlink():
                path.rmdir()
            else:
                path.unlink()
        base.rmdir()


@pytest.fixture
def never_clobber(monkeypatch: pytest.MonkeyPatch) -> None:
    """Safety net: a regression must fail the test, not replace ``/dev/null`` (as root)."""
    real_replace = os.replace

    def guarded(source: str, destination: str) -> None:
        try:
            mode: int | None = os.lstat(destination).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode):
            raise AssertionError(f"would have replaced {destination}, which is not a regular file")
        real_replace(source, destination)

    monkeypatch.setattr(os, "replace", guarded)


@pytest.mark.usefixtures("never_clobber")
@pytest.mark.parametrize("case", REFUSED, ids=[case.name for case in REFUSED])
def test_an_output_that_is_not_a_regular_file_is_refused_before_anything_runs(
    shared_tmp: Path, capsys: pytest.CaptureFixture[str], case: Refused
) -> None:
    output = case.prepare(shared_tmp)
    before = _snapshot(shared_tmp)
    ran: list[str] = []
    with _unprivileged(case):
        status = main(["--workers", "1", "--output", output], registry=_recording_registry(ran))
    captured = capsys.readouterr()
    assert status == 2
    assert ran == []
    assert captured.out == ""
    assert (
        captured.err
        == "proofs_check: error: " + case.message.replace("{tmp}", str(shared_tmp)) + "\n"
    )
    assert _snapshot(shared_tmp) == before
    assert case.still(output)


@pytest.mark.usefixtures("never_clobber")
def test_refusal_is_the_same_from_the_library(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(UnwritableOutput, match="it is a FIFO"):
        check_writable(tmp_path / "fifo")
    with pytest.raises(UnwritableOutput, match="it is a FIFO"):
        write_atomically(tmp_path / "fifo", "report")
    assert [path.name for path in tmp_path.iterdir()] == ["fifo"]


@pytest.mark.usefixtures("never_clobber")
@pytest.mark.parametrize(
    ("links", "existing"),
    [
        (["link.md"], True),
        (["link2.md", "link.md"], True),
        (["link.md"], False),
    ],
    ids=[
        "symlink to a regular file",
        "chain of two symlinks",
        "dangling symlink in an existing directory",
    ],
)
def test_a_symlink_is_written_through_and_stays_a_link(
    demo: Registry,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    links: list[str],
    existing: bool,
) -> None:
    real = tmp_path / "reports" / "real.md"
    real.parent.mkdir()
    if existing:
        real.write_bytes(OLD_REPORT)
        real.chmod(0o640)
    pointed = str(real)
    for name in reversed(links):
        os.symlink(pointed, tmp_path / name)
        pointed = str(tmp_path / name)
    output = tmp_path / links[0]
    status = main(["demo.limit_half", "--workers", "1", "--output", str(output)], registry=demo)
    captured = capsys.readouterr()
    assert status == 0
    assert captured.err == (
        f"proofs_check: 1 claim: 1 passed; report written to {output} "
        f"(through the link, to {real})\n"
    )
    for name in links:
        assert (tmp_path / name).is_symlink()
    assert os.readlink(output) == (str(tmp_path / links[1]) if len(links) > 1 else str(real))
    assert real.read_text(encoding="utf-8").startswith("# proofs_check report")
    assert stat.S_IMODE(real.stat().st_mode) == (0o640 if existing else 0o666 & ~_umask())
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted([*links, "reports"])
    assert [path.name for path in real.parent.iterdir()] == ["real.md"]


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def _swap_for_fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def test_a_target_that_became_a_fifo_during_the_run_is_left_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "report.md"
    output.write_bytes(OLD_REPORT)
    registry = Registry()

    @registry.check("mylab.x", source="s", result="r", statement="s", kinds="E", mutants={"m": "m"})
    def swap(ctx: CheckContext) -> list[Evidence]:
        _swap_for_fifo(output)
        return [exact_instances({"1 = 1": (1, 1)})]

    status = main(["--workers", "1", "--output", str(output)], registry=registry)
    captured = capsys.readouterr()
    assert status == 2
    assert captured.err == (
        f"proofs_check: error: cannot write the report to {output}: it is a FIFO (named pipe); "
        "only a regular file is replaced; it changed during the run, so nothing was written.\n"
    )
    assert stat.S_ISFIFO(output.lstat().st_mode)
    assert [path.name for path in tmp_path.iterdir()] == ["report.md"]


def test_the_target_is_checked_again_right_before_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    output = tmp_path / "report.md"
    output.write_bytes(OLD_REPORT)
    real_fsync = os.fsync

    def fsync_then_swap(fd: int) -> None:  # the temporary file is written: swap the target
        real_fsync(fd)
        _swap_for_fifo(output)

    monkeypatch.setattr(os, "fsync", fsync_then_swap)
    with pytest.raises(UnwritableOutput, match=r"it is a FIFO \(named pipe\)"):
        write_atomically(output, "new report")
    assert stat.S_ISFIFO(output.lstat().st_mode)
    assert [path.name for path in tmp_path.iterdir()] == ["report.md"]


def test_a_link_retargeted_during_the_write_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, link = tmp_path / "first.md", tmp_path / "second.md", tmp_path / "link.md"
    first.write_bytes(OLD_REPORT)
    second.write_bytes(OLD_REPORT)
    os.symlink(first, link)
    real_fsync = os.fsync

    def fsync_then_retarget(fd: int) -> None:
        real_fsync(fd)
        link.unlink()
        os.symlink(second, link)

    monkeypatch.setattr(os, "fsync", fsync_then_retarget)
    # the targets beside the link are named by their file names (messages are capped at 300
    # characters, and the link's own path is named first)
    with pytest.raises(UnwritableOutput) as caught:
        write_atomically(link, "new report")
    message = str(caught.value)
    assert message.startswith(f"cannot write the report to {link}: ")
    assert "now points to second.md instead of first.md" in message
    assert first.read_bytes() == second.read_bytes() == OLD_REPORT
    assert sorted(path.name for path in tmp_path.iterdir()) == ["first.md", "link.md", "second.md"]


# --- SIGINT and SIGTERM -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["SIGTERM", "SIGINT"]
)
def test_a_signal_during_an_in_process_check_stops_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], signum: int, status: int
) -> None:
    output = tmp_path / "report.md"
    output.write_bytes(OLD_REPORT)
    registry, ran = Registry(), []
    before = signal.getsignal(signum)

    @registry.check("mylab.x", source="s", result="r", statement="s", kinds="E", mutants={"m": "m"})
    def stop(ctx: CheckContext) -> list[Evidence]:
        os.kill(os.getpid(), signum)  # the handler runs before the next line
        ran.append("not stopped")
        return [exact_instances({"1 = 1": (1, 1)})]

    assert main(["--workers", "1", "--output", str(output)], registry=registry) == status
    captured = capsys.readouterr()
    name = signal.Signals(signum).name
    assert captured.err == (
        f"proofs_check: interrupted by {name}; no report written, {output} is unchanged\n"
    )
    assert ran == []
    assert output.read_bytes() == OLD_REPORT
    assert [path.name for path in tmp_path.iterdir()] == ["report.md"]
    assert signal.getsignal(signum) == before


def test_a_signal_during_the_final_rename_does_not_abandon_it(
    demo: Registry,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    output = tmp_path / "report.md"
    output.write_bytes(OLD_REPORT)
    real_replace = os.replace

    def signalled_replace(source: str, destination: str) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        real_replace(source, destination)

    monkeypatch.setattr(os, "replace", signalled_replace)
    status = main(["demo.limit_half", "--workers", "1", "--output", str(output)], registry=demo)
    assert status == 143
    assert capsys.readouterr().err == (
        f"proofs_check: 1 claim: 1 passed; report written to {output}\n"
        "proofs_check: SIGTERM received after the report was written\n"
    )
    assert output.read_text(encoding="utf-8").startswith("# proofs_check report")
    assert [path.name for path in tmp_path.iterdir()] == ["report.md"]


def _processes() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state letter) of every process, from /proc."""
    table: dict[int, tuple[int, str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = Path(f"/proc/{entry}/stat").read_text()
        except OSError:  # exited meanwhile
            continue
        fields = text[text.rindex(")") + 2 :].split()  # after "pid (command) "
        table[int(entry)] = (int(fields[1]), fields[0])
    return table


def _descendants(pid: int) -> dict[int, int]:
    """Every living descendant of ``pid``: pid -> parent pid."""
    if psutil is not None:
        found: dict[int, int] = {}
        try:
            children = psutil.Process(pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return found
        for child in children:
            try:
                found[child.pid] = child.ppid()
            except psutil.NoSuchProcess:
                continue
        return found
    table = _processes()
    found, frontier = {}, [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, _) in table.items():
            if ppid == parent and child not in found:
                found[child] = ppid
                frontier.append(child)
    return found


def _alive(pid: int) -> bool:
    """The process exists and is not a zombie (an exited process not yet reaped)."""
    if psutil is not None:
        try:
            return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return text[text.rindex(")") + 2] != "Z"


def _ignores_sigint(pid: int) -> bool:
    """SIGINT is in the process's ignored-signals mask (the worker initializer has run)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    (mask,) = [line.split()[1] for line in status.splitlines() if line.startswith("SigIgn:")]
    return bool(int(mask, 16) >> (signal.SIGINT - 1) & 1)


def _default_dispositions() -> None:
    """In the child, before exec: SIGINT and SIGTERM as in a fresh shell (not ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _wait_for(condition: Callable[[], bool], what: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120  # a generous bound for a loaded machine, not a timing
    while not condition():
        assert process.poll() is None, f"proofs_check exited ({process.returncode}) before {what}"
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.05)


SIGNAL_CASES = [
    ("SIGTERM", signal.SIGTERM, False, 143),
    ("SIGINT", signal.SIGINT, False, 130),
    ("SIGINT to the process group (Ctrl-C)", signal.SIGINT, True, 130),
]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize(
    ("signum", "to_group", "status"),
    [case[1:] for case in SIGNAL_CASES],
    ids=[case[0] for case in SIGNAL_CASES],
)
def test_a_signal_stops_the_workers_and_keeps_the_old_report(
    tmp_path: Path, signum: int, to_group: bool, status: int
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.md").write_bytes(OLD_REPORT)
    # 10 000 shards of a quick claim: far more work than can finish before the signal.
    argv = ["vadhan.prop_1", "--quick", "--workers", "2", "--shards", "10000"]
    env = {**os.environ, "PYTHONPATH": str(HERE), "COLUMNS": "120"}
    # Output to files, not pipes: a leftover worker would hold a pipe open.
    with (tmp_path / "stdout").open("wb") as stdout, (tmp_path / "stderr").open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "proofs_check", *argv, "--output", "report.md"],
            cwd=out,
            env=env,
            stdout=stdout,
            stderr=stderr,
            preexec_fn=_default_dispositions,
            start_new_session=True,
        )
    descendants: dict[int, int] = {}
    try:

        def workers_started() -> bool:
            descendants.update(_descendants(process.pid))
            workers = [pid for pid, ppid in descendants.items() if ppid != process.pid]
            # A Ctrl-C reaches the workers too: wait until they ignore it (initialized).
            ready = all(_ignores_sigint(pid) for pid in workers) if to_group else True
            return len(workers) >= 2 and ready

        _wait_for(workers_started, "two worker processes", process)
        descendants.update(_descendants(process.pid))
        if to_group:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
        assert process.wait(timeout=120) == status
        deadline = time.monotonic() + 30  # the forkserver exits when it sees its parent gone
        while any(_alive(pid) for pid in descendants) and time.monotonic() < deadline:
            time.sleep(0.05)
        survivors = [pid for pid in descendants if _alive(pid)]
        assert survivors == [], f"processes of the run still alive: {survivors}"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid in descendants:  # clean up after a failure, never after success
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
    name = signal.Signals(signum).name
    assert (tmp_path / "stderr").read_text() == (
        f"proofs_check: interrupted by {name}; no report written, report.md is unchanged\n"
    )
    assert (tmp_path / "stdout").read_bytes() == b""
    assert (out / "report.md").read_bytes() == OLD_REPORT
    assert [path.name for path in out.iterdir()] == ["report.md"]
