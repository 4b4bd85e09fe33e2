"""``exactpml leakage`` on hostile files, each run in a forked child under 2 s of CPU and
1 GiB (``fuzz_isolation``): it prints a report (exit status 0) or one printable line
``exactpml: error: ...`` on stderr with exit status 2 -- never a traceback, a hang, or a
block on a file that is not a regular file (issue 21, items 3 and 6).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path

import pytest
from fuzz_isolation import MAX_MESSAGE_CHARACTERS, run_isolated

from exactpml.cli import main as exactpml_main

HUGE = "1" + "0" * 5000  # 10**5000 written out
TOWER = "exp(-exp(exp(100)))"


def _rows(first: object, second: object) -> str:
    return json.dumps({"rows": {"a": {"y": first, "n": second}, "b": {"y": "1/2", "n": "1/2"}}})


GOOD = _rows("3/4", "1/4")

#: Writes the case's file in a folder and returns its path.
Writer = Callable[[Path], Path]


def _text(content: str | bytes) -> Writer:
    def write(folder: Path) -> Path:
        path = folder / "m.json"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return write


def _fifo(folder: Path) -> Path:
    path = folder / "pipe.json"
    os.mkfifo(path)
    return path


def _directory(folder: Path) -> Path:
    path = folder / "dir.json"
    path.mkdir()
    return path


#: id -> (the file, extra arguments, the right exit status: 0 valid, 2 invalid, None either).
CASES: dict[str, tuple[Writer, list[str], int | None]] = {
    "a good file": (_text(GOOD), [], 0),
    "a good file, 100000 certified digits": (_text(GOOD), ["--digits", "100000"], 0),
    "a good file, LaTeX": (_text(GOOD), ["--format", "latex"], 0),
    "a FIFO": (_fifo, [], 2),
    "a directory": (_directory, [], 2),
    "/dev/zero": (lambda folder: Path("/dev/zero"), [], 2),
    "a missing file": (lambda folder: folder / "missing.json", [], 2),
    "an empty file": (_text(""), [], 2),
    "not UTF-8": (_text(b'{"rows": {"\xff": {}}}'), [], 2),
    "a UTF-8 byte-order mark": (_text("\ufeff" + GOOD), [], 2),
    "a lone surrogate": (_text('{"rows": {"a": {"\\ud800": 1}}}'), [], 2),
    "nesting 100000 deep": (_text("[" * 100_000 + "]" * 100_000), [], 2),
    "NaN": (_text('{"rows": {"a": {"y": NaN}}}'), [], 2),
    "a duplicate key": (_text('{"rows": {"a": {"y": 1, "y": 0}}}'), [], 2),
    "rows exp(-exp(exp(100))) and its complement": (_text(_rows(TOWER, f"1-{TOWER}")), [], None),
    "an entry factorial(10**5000)": (_text(_rows(f"factorial({HUGE})", "1/2")), [], 2),
    "an entry 2**(10**5000)": (_text(_rows(f"2**({HUGE})", "1/2")), [], 2),
    "an entry log(-10**5000)": (_text(_rows(f"log(-{HUGE})", "1/2")), [], 2),
    "an entry 1e-<50000-digit exponent>": (_text(_rows("1e-" + "9" * 50_000, "1/2")), [], 2),
    'an entry "1e9999"': (_text(_rows("1e9999", "1/2")), [], 2),
    'an entry "10**10**10"': (_text(_rows("10**10**10", "1/2")), [], 2),
    "a JSON number 1e999999999": (_text('{"rows": {"a": {"y": 1e999999999}}}'), [], 2),
    "a 5000-digit JSON decimal": (
        _text('{"rows": {"a": {"y": 0.' + "2" * 5000 + ', "n": 0.' + "7" * 4999 + "8}}}"),
        [],
        0,
    ),
    'Unicode digits "١/٢"': (_text(_rows("١/٢", "١/٢")), [], 2),
    "an entry with code": (_text(_rows("__import__('os').system('x')", "1/2")), [], 2),
    "a 100000-character label": (_text(json.dumps({"rows": {"a" * 100_000: {"y": 1}}})), [], 0),
    "a label with terminal escapes": (_text(json.dumps({"rows": {"\x1b[2J": {"y": 1}}})), [], 0),
    "a label with LaTeX commands, LaTeX": (
        _text(json.dumps({"rows": {"\\input{/etc/passwd}": {"y": 1}}})),
        ["--format", "latex"],
        0,
    ),
    "symbols": (
        _text(
            json.dumps(
                {
                    "symbols": {"t": "positive"},
                    "rows": {"a": {"y": "t/(1+t)", "n": "1/(1+t)"}, "b": {"y": 1}},
                }
            )
        ),
        [],
        0,
    ),
}


def _run_and_judge(arguments: list[str], path: Path, expected: int | None) -> str:
    """Run ``exactpml ARGS`` (in the child) and judge its output: ``"accepted"`` or
    ``"problem: ..."`` (a short string, sent back as the child's value).  ``expected``: the
    exit status the file calls for (0: a valid file, 2: an invalid one; None: either)."""
    output, errors = StringIO(), StringIO()
    with redirect_stdout(output), redirect_stderr(errors):
        status = exactpml_main(arguments)
    problem = _problem(status, output.getvalue(), errors.getvalue(), path)
    if problem is None and expected is not None and status != expected:
        problem = f"exit status {status} where {expected} is right"
    if problem is None and "\\input{/etc/passwd}" in output.getvalue():
        problem = "a label's LaTeX command reached the LaTeX output"
    return "accepted" if problem is None else f"problem: {problem}"


def _problem(status: int, output: str, errors: str, path: Path) -> str | None:
    """Why this output is not acceptable, or None."""
    if status == 0:
        return None if errors == "" else f"status 0 with stderr {errors[:200]!r}"
    if status != 2:
        return f"exit status {status}"
    line = errors.removesuffix("\n")
    if not errors.startswith("exactpml: error: ") or "\n" in line or output:
        return f"not one error line: {errors[:200]!r} (stdout {output[:100]!r})"
    if not line.isprintable():
        return f"unprintable error line: {line[:200]!r}"
    if len(line) > len("exactpml: error: ") + len(str(path)) + 2 + MAX_MESSAGE_CHARACTERS:
        return f"an error line of {len(line)} characters"
    return None


@pytest.mark.parametrize("case", list(CASES))
def test_exactpml_leakage_on_a_hostile_file_reports_or_exits_two(case: str, tmp_path: Path) -> None:
    writer, extra, expected = CASES[case]
    path = writer(tmp_path)
    format_ = [] if "--format" in extra else ["--format", "json"]
    arguments = ["leakage", str(path), *format_, *extra]
    outcome = run_isolated(lambda: _run_and_judge(arguments, path, expected))
    assert outcome.kind == "value" and outcome.detail == "str: 'accepted'", f"{case}: {outcome}"
