"""Hostile input files: every one is refused quickly with one clear error, never a traceback.

Each case writes a file in ``tmp_path`` and expects :class:`~exactpml.errors.InvalidFile`
(:class:`~exactpml.io.FileBoundExceeded` -- also a ``BoundExceeded`` -- when a bound is
exceeded) naming the file, the place (key path or line/column) and the problem; the command
line variant runs in a subprocess with a timeout and must exit with status 2 and print one
line on stderr.  Exact results of more than 4300 digits are printed in full; in messages
numbers of more than 50 digits show their ends and digit count.
"""

import json
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from exactpml.core import certify
from exactpml.core.bounds import BoundExceeded, big_integer_printing, use_bounds
from exactpml.core.distribution import Distribution
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument, InvalidFile, Undecided
from exactpml.io import FileBoundExceeded, dump_json, load_json, read_mechanism, read_prior

# --- printing exact values of more than 4300 digits ---------------------------------------

DENOMINATOR = 3 * 10**4999 + 1  # 5000 digits


def test_big_values_print_in_the_library_and_the_limit_is_restored():
    limit = sys.get_int_max_str_digits()
    small = Fraction(1, DENOMINATOR)
    mechanism = Mechanism({"a": {"yes": small, "no": 1 - small}, "b": {"yes": 1}})
    prior = Distribution({"a": small, "b": 1 - small})
    value = LogValue(1 / small)
    with big_integer_printing():
        digits = str(DENOMINATOR)
        with big_integer_printing():  # blocks nest
            assert sys.get_int_max_str_digits() == 0
        assert sys.get_int_max_str_digits() == 0
    assert sys.get_int_max_str_digits() == limit
    assert str(value) == f"log({digits})"
    assert repr(value) == f"LogValue.log({digits})"
    assert digits in repr(mechanism) and digits in repr(prior)
    assert json.loads(dump_json({"value": value, "ratio": 1 / small})) == {
        "ratio": digits,
        "value": f"log({digits})",
    }
    assert sys.get_int_max_str_digits() == limit


# --- hostile files (library) --------------------------------------------------------------

PAYLOAD = "__import__('os').system('touch M')"
GOOD_ROWS = '"rows": {"a": {"yes": "3/4", "no": "1/4"}, "b": {"yes": "1/4", "no": "3/4"}}'
GOOD_MECHANISM = "{" + GOOD_ROWS + "}"


def _text(text: str) -> bytes:
    return text.encode("utf-8")


# (id, which file is hostile: "mechanism" or "prior", its bytes, the bound or None, fragments)
CASES = [
    (
        "non_utf8",
        "mechanism",
        b'{"rows": {"a": {"yes": "1\xff"}}}',
        None,
        ["not UTF-8", "0xff", "byte offset 25", "line 1"],
    ),
    (
        "integer_of_5000_digits",  # read exactly (under decimal_digits); the row does not sum to 1
        "mechanism",  # the sum is shown by its ends and digit count (issue 21)
        _text('{"rows": {"a": {"yes": ' + "1" * 5000 + "}}}"),
        None,
        ["row 'a'", "sums to 1111111111…1111111111 (5000 digits), not 1"],
    ),
    (
        "integer_of_20000_digits",
        "mechanism",
        _text('{"rows": {"a": {"yes": ' + "7" * 20000 + "}}}"),
        "decimal_digits",
        ["rows.a.yes", "20000 digits", "decimal_digits=10000"],
    ),
    (
        "decimal_of_20000_digits",
        "mechanism",
        _text('{"rows": {"a": {"yes": 0.' + "3" * 20000 + "}}}"),
        "decimal_digits",
        ["rows.a.yes", "20000 significant digits", "decimal_digits"],
    ),
    (
        "nesting_depth_100000",
        "mechanism",
        _text("[" * 100_000 + "]" * 100_000),
        "json_depth",
        ["nested 101 deep at line 1, column 101", "json_depth=100"],
    ),
    (
        "nesting_inside_a_row",
        "mechanism",
        _text('{"rows": {"a": ' + "[" * 5000 + "]" * 5000 + "}}"),
        "json_depth",
        ["line 1, column", "json_depth=100"],
    ),
    (
        "tiny_exponent",
        "mechanism",
        _text('{"rows": {"a": {"yes": 1e-999999999, "no": 1}}}'),
        "decimal_exponent",
        ["rows.a.yes", "1e-999999999", "decimal_exponent=10000"],
    ),
    (
        "huge_exponent",
        "mechanism",
        _text('{"rows": {"a": {"yes": 1E+999999999}}}'),
        "decimal_exponent",
        ["rows.a.yes", "decimal_exponent"],
    ),
    (
        "exponent_of_5000_digits",
        "mechanism",
        _text('{"rows": {"a": {"yes": 1e' + "9" * 5000 + "}}}"),
        "decimal_exponent",
        ["rows.a.yes", "decimal_exponent"],
    ),
    (
        "exponent_just_above_the_bound",
        "mechanism",
        _text('{"matrix": [[1], [2.5e-10001]]}'),
        "decimal_exponent",
        ["matrix[1][0]", "decimal_exponent"],
    ),
    (
        "unterminated_string_of_escaped_quotes",  # a naive string scan is quadratic here
        "mechanism",
        _text("[" + "[], " * 200 + '"' + '\\"' * 200_000 + "\\"),
        None,
        ["malformed JSON", "Unterminated string"],
    ),
    (
        "duplicate_key_in_a_row",
        "mechanism",
        _text('{"rows": {"a": {"yes": 1, "no": 0, "yes": 0}}}'),
        None,
        ["rows.a", "duplicate key 'yes'"],
    ),
    (
        "duplicate_top_level_key",
        "mechanism",
        _text('{"rows": {"a": {"yes": 1}}, "rows": {"a": {"no": 1}}}'),
        None,
        ["top level", "duplicate key 'rows'"],
    ),
    (
        "duplicate_key_in_the_prior",
        "mechanism",
        _text("{" + GOOD_ROWS + ', "prior": {"a": 1, "b": 0, "a": 0}}'),
        None,
        ["prior", "duplicate key 'a'"],
    ),
    ("nan", "mechanism", _text('{"rows": {"a": {"yes": NaN}}}'), None, ["rows.a.yes", "NaN"]),
    (
        "infinity",
        "mechanism",
        _text('{"rows": {"a": {"yes": Infinity}}}'),
        None,
        ["rows.a.yes", "Infinity"],
    ),
    (
        "minus_infinity_in_the_matrix",
        "mechanism",
        _text('{"matrix": [[1, 0], [-Infinity, 1]]}'),
        None,
        ["matrix[1][0]", "-Infinity"],
    ),
    (
        "nan_in_the_prior",
        "mechanism",
        _text("{" + GOOD_ROWS + ', "prior": {"a": NaN, "b": 1}}'),
        None,
        ["prior.a", "NaN"],
    ),
    (
        "lone_surrogate",
        "mechanism",
        _text('{"rows": {"a": {"\\ud800": 1}}}'),
        None,
        ["rows.a", "surrogate"],
    ),
    (
        "label_is_a_list",
        "mechanism",
        _text('{"inputs": [["a"]], "matrix": [[1]]}'),
        None,
        ["inputs[0]", "label"],
    ),
    (
        "assumption_is_a_list",
        "mechanism",
        _text('{"rows": {"a": {"yes": 1}}, "symbols": {"t": []}}'),
        None,
        ["symbols.t", "assumption"],
    ),
    (
        "payload_in_rows",
        "mechanism",
        _text(json.dumps({"rows": {"a": {"yes": PAYLOAD, "no": "1"}}})),
        None,
        ["row 'a', output 'yes'", "cannot read"],
    ),
    (
        "payload_in_matrix",
        "mechanism",
        _text(json.dumps({"matrix": [["1", "0"], ["1/2", PAYLOAD]]})),
        None,
        ["row 1, output 1", "cannot read"],
    ),
    (
        "payload_in_embedded_prior",
        "mechanism",
        _text("{" + GOOD_ROWS + ', "prior": ' + json.dumps({"a": PAYLOAD, "b": "1/2"}) + "}"),
        None,
        ["'a'", "cannot read"],
    ),
    (
        "payload_in_prior_file",
        "prior",
        _text(json.dumps({"a": PAYLOAD, "b": "1/2"})),
        None,
        ["'a'", "cannot read"],
    ),
    (
        "payload_in_prior_file_under_key_prior",
        "prior",
        _text(json.dumps({"prior": {"a": "1/2", "b": PAYLOAD}})),
        None,
        ["'b'", "cannot read"],
    ),
    (
        "non_utf8_prior_file",
        "prior",
        b'{"a": "1/2", "b": "\xc3("}',
        None,
        ["not UTF-8", "byte offset 19"],
    ),
    ("nan_in_prior_file", "prior", _text('{"a": NaN, "b": 1}'), None, ["a", "NaN"]),
    (
        "duplicate_key_in_prior_file",
        "prior",
        _text('{"a": "1/2", "b": "1/2", "a": 0}'),
        None,
        ["top level", "duplicate key 'a'"],
    ),
    (
        "nesting_in_prior_file",
        "prior",
        _text('{"a": ' + "{" * 200 + "}" * 200 + "}"),
        "json_depth",
        ["line 1, column 106", "json_depth"],
    ),
]
IDS = [case[0] for case in CASES]


def _write(tmp_path: Path, kind: str, content: bytes) -> tuple[Path, Path | None]:
    """(mechanism file, prior file or None) with ``content`` in the hostile one."""
    if kind == "mechanism":
        mechanism = tmp_path / "mechanism.json"
        mechanism.write_bytes(content)
        return mechanism, None
    mechanism = tmp_path / "good.json"
    mechanism.write_text(GOOD_MECHANISM)
    prior = tmp_path / "prior.json"
    prior.write_bytes(content)
    return mechanism, prior


@pytest.mark.parametrize(("kind", "content", "bound", "fragments"), [c[1:] for c in CASES], ids=IDS)
def test_hostile_file_is_refused_naming_file_place_and_bound(
    tmp_path, monkeypatch, kind, content, bound, fragments
):
    monkeypatch.chdir(tmp_path)
    mechanism, prior = _write(tmp_path, kind, content)
    hostile = mechanism if prior is None else prior
    started = time.perf_counter()
    with pytest.raises(InvalidFile) as caught:
        read_mechanism(mechanism) if prior is None else read_prior(prior)
    assert time.perf_counter() - started < 5
    message = str(caught.value)
    assert str(hostile) in message
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message[:500]!r}"
    if bound is None:
        assert not isinstance(caught.value, BoundExceeded)
    else:
        assert isinstance(caught.value, FileBoundExceeded)
        assert isinstance(caught.value, BoundExceeded)
        assert caught.value.bound == bound
        assert f"{bound}=" in message
    assert not (tmp_path / "M").exists()


def test_oversize_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(GOOD_MECHANISM + " " * 200)
    with use_bounds(file_bytes=100), pytest.raises(FileBoundExceeded) as caught:
        read_mechanism(path)
    assert caught.value.bound == "file_bytes"
    assert str(path) in str(caught.value) and "file_bytes=100" in str(caught.value)
    assert f"{path.stat().st_size} bytes" in str(caught.value)
    with use_bounds(file_bytes=100), pytest.raises(FileBoundExceeded, match="file_bytes"):
        read_prior(path)
    with use_bounds(file_bytes=path.stat().st_size):
        read_mechanism(path)  # the bound itself is allowed


def test_numbers_are_read_exactly_within_the_bounds(tmp_path):
    path = tmp_path / "numbers.json"
    big = "9" * 5000
    path.write_text(f'{{"int": {big}, "decimal": 0.3, "tiny": -1.5e-300, "zero": -0.0}}')
    document = load_json(path)
    assert document["int"] == 10**5000 - 1 and type(document["int"]) is int
    assert document["decimal"] == Fraction(3, 10)
    assert document["tiny"] == Fraction(-3, 2 * 10**300)
    assert document["zero"] == 0
    with use_bounds(decimal_digits=4999), pytest.raises(FileBoundExceeded, match="int: "):
        load_json(path)


def test_brackets_inside_strings_do_not_count_as_nesting(tmp_path):
    path = tmp_path / "m.json"
    label = "[{" * 500 + '\\"' + "]}" * 500
    path.write_text('{"rows": {"a": {"' + label + '": 1}}}')
    mechanism, _ = read_mechanism(path)
    assert mechanism.outputs == ("[{" * 500 + '"' + "]}" * 500,)


def test_raised_json_depth_admits_deeper_files(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 150 + "]" * 150)
    with pytest.raises(FileBoundExceeded, match="json_depth"):
        load_json(path)
    with use_bounds(json_depth=150):
        assert load_json(path) is not None


def test_label_and_string_entries_are_never_executed(tmp_path, monkeypatch):
    # A label or a symbol name is only a name: it is kept as text, never evaluated.
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"rows": {PAYLOAD: {PAYLOAD: 1}}, "symbols": {PAYLOAD: "positive"}}))
    mechanism, _ = read_mechanism(path)
    assert mechanism.inputs == (PAYLOAD,) and mechanism.outputs == (PAYLOAD,)
    assert not (tmp_path / "M").exists()


# --- the command line ---------------------------------------------------------------------


def _cli(arguments: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "exactpml.cli", *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        cwd=cwd,
    )


def _assert_one_line_error(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert result.returncode == 2, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("exactpml: error: ")
    assert result.stderr.count("\n") == 1, result.stderr[:2000]
    for fragment in fragments:
        assert fragment in result.stderr, f"{fragment!r} not in {result.stderr[:500]!r}"


@pytest.mark.parametrize(("kind", "content", "bound", "fragments"), [c[1:] for c in CASES], ids=IDS)
def test_hostile_file_on_the_command_line_exits_two_with_one_line(
    tmp_path, kind, content, bound, fragments
):
    mechanism, prior = _write(tmp_path, kind, content)
    arguments = ["leakage", str(mechanism)] + ([] if prior is None else ["--prior", str(prior)])
    result = _cli(arguments, tmp_path)
    _assert_one_line_error(result, *fragments)
    assert result.stdout == ""
    assert not (tmp_path / "M").exists()


def test_a_file_of_entries_sympy_cannot_evaluate_is_undecided_at_once(tmp_path):
    """exp(-exp(exp(100))) >= 0 evaluated by sympy ran past 120 s (issue 21); the entry is
    Undecided, named with its file, within the subprocess's timeout."""
    path = tmp_path / "tower.json"
    path.write_text(
        '{"rows": {"a": {"yes": "exp(-exp(exp(100)))", "no": "1-exp(-exp(exp(100)))"}}}'
    )
    with pytest.raises(Undecided) as caught:
        read_mechanism(path)
    assert str(path) in str(caught.value) and "row 'a', output 'yes'" in str(caught.value)
    result = _cli(["leakage", str(path)], tmp_path)
    _assert_one_line_error(result, "tower.json", "row 'a', output 'yes'", "cannot decide")


def test_rich_markup_in_a_label_is_printed_as_written(tmp_path):
    path = tmp_path / "m.json"
    path.write_text('{"rows": {"a": {"[/x]": "1/2", "[bold]y": "1/2"}}}')
    result = _cli(["leakage", str(path)], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "[/x]" in result.stdout and "[bold]y" in result.stdout


# --- --digits and certified decimals ------------------------------------------------------


@pytest.mark.parametrize(
    ("digits", "fragments"),
    [("0", ["--digits=0", "at least 1"]), ("-3", ["--digits=-3"]), ("10000000", ["output_digits"])],
)
def test_digits_out_of_range_is_one_line_error(tmp_path, digits, fragments):
    path = tmp_path / "m.json"
    path.write_text(GOOD_MECHANISM)
    started = time.perf_counter()
    result = _cli(["leakage", str(path), "--digits", digits], tmp_path)
    assert time.perf_counter() - started < 60
    _assert_one_line_error(result, "--digits", *fragments)


def test_certified_decimal_refuses_digits_above_output_digits():
    with pytest.raises(BoundExceeded) as caught:
        certify.decimal(sympy.log(3), 10_000_000)
    assert caught.value.bound == "output_digits" and "output_digits=100000" in str(caught.value)
    with use_bounds(output_digits=5):
        assert certify.decimal(sympy.log(3), 5) == "1.0986"
        with pytest.raises(BoundExceeded, match="output_digits=5"):
            LogValue(3).decimal(6)
    assert isinstance(caught.value, InvalidArgument)


# --- exact values of more than 4300 digits on the command line ---------------------------


def _huge_mechanism(tmp_path: Path) -> Path:
    with big_integer_printing():
        rows = {
            "a": {"yes": f"1/{DENOMINATOR}", "no": f"1 - 1/{DENOMINATOR}"},
            "b": {"yes": "1/2", "no": "1/2"},
        }
        path = tmp_path / "huge.json"
        path.write_text(json.dumps({"rows": rows}))
    return path


def _expected_huge() -> dict[str, str]:
    """Hand computation under the uniform prior (p = 1/2 each) -- strings of the exact values."""
    small = Fraction(1, DENOMINATOR)
    p_yes = (small + Fraction(1, 2)) / 2
    p_no = 1 - p_yes
    with big_integer_printing():
        return {
            "p_yes": str(p_yes),
            "p_no": str(p_no),
            # l(X->y) = log(max_x P(y|x) / p_Y(y))
            "pml_yes": f"log({Fraction(1, 2) / p_yes})",
            "pml_no": f"log({(1 - small) / p_no})",
            # C = log max_y max_{x,x'} P(y|x)/P(y|x'): output yes, (1/2)/(1/D) = D/2
            "capacity": f"log({Fraction(DENOMINATOR, 2)})",
            # maximal leakage = log sum_y max_x P(y|x) = log(1/2 + 1 - 1/D)
            "maximal_leakage": f"log({Fraction(3, 2) - small})",
        }


def test_mechanism_with_5000_digit_entries_prints_as_json(tmp_path):
    path = _huge_mechanism(tmp_path)
    result = _cli(["leakage", str(path), "--format", "json"], tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout)
    expected = _expected_huge()
    by_output = {row["output"]: row for row in report["outputs"]}
    assert by_output["yes"]["probability"] == expected["p_yes"]
    assert by_output["no"]["probability"] == expected["p_no"]
    assert by_output["yes"]["pml"] == expected["pml_yes"]
    assert by_output["no"]["pml"] == expected["pml_no"]
    assert report["capacity"] == expected["capacity"]
    assert report["maximal_leakage"] == expected["maximal_leakage"]
    assert len(expected["p_yes"]) > 9000  # far beyond Python's 4300-digit printing limit


def test_mechanism_with_5000_digit_entries_prints_as_table(tmp_path):
    path = _huge_mechanism(tmp_path)
    result = _cli(["leakage", str(path), "--format", "table"], tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    expected = _expected_huge()
    assert "…" not in result.stdout  # no cell is cut short
    # Cells fold over several lines; joining each column's pieces gives back the exact values.
    body = [line for line in result.stdout.splitlines() if line.startswith("│")]
    columns = [[cell.strip() for cell in line.strip("│").split("│")] for line in body]
    joined = ["".join(row[index] for row in columns) for index in range(4)]
    assert joined[0] == "yesno"
    assert joined[1] == expected["p_yes"] + expected["p_no"]
    assert joined[2] == expected["pml_yes"] + expected["pml_no"]
    lines = result.stdout.splitlines()
    for start, key in (
        ("leakage capacity C:", "capacity"),
        ("maximal leakage:", "maximal_leakage"),
    ):
        assert any(line.startswith(start) and f" {expected[key]} = " in line for line in lines), key
