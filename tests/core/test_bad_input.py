"""Every kind of bad input gets a clear error that names the problem and where it is.

One table-driven test (after Hypothesis's own tests): each case builds something
invalid, and the test checks the error class and that the message names the culprit.
"""

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
import sympy

from exactpml import (
    Distribution,
    ExactPMLError,
    InexactInput,
    InvalidArgument,
    InvalidFile,
    Mechanism,
    conditional_pointwise_maximal_leakage,
    discloses,
    exact,
    is_pml_private,
    pml,
    renyi_divergence_inf,
)
from exactpml.io import read_mechanism, read_prior

BINARY = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
UNIFORM = Distribution({"a": "1/2", "b": "1/2"})
t_unknown = sympy.Symbol("t")
t_real = sympy.Symbol("t", real=True)

CASES = [
    # (id, action, error class, fragments the message must contain)
    (
        "row_not_summing_to_one",
        lambda: Mechanism({"a": {0: "1/2", 1: "1/3"}}),
        InvalidArgument,
        ["row 'a'", "5/6"],
    ),
    (
        "distribution_not_summing_to_one",
        lambda: Distribution({"a": "1/2", "b": "1/3"}),
        InvalidArgument,
        ["5/6"],
    ),
    (
        "negative_entry",
        lambda: Mechanism({"a": {0: "-1/2", 1: "3/2"}}),
        InvalidArgument,
        ["row 'a', output 0", "negative"],
    ),
    (
        "negative_symbolic_entry",
        lambda: Distribution(
            {"a": -sympy.Symbol("s", positive=True), "b": 1 + sympy.Symbol("s", positive=True)}
        ),
        InvalidArgument,
        ["outcome 'a'", "negative"],
    ),
    (
        "complex_entry",
        lambda: Distribution({"a": 1 + 0j}),
        InvalidArgument,
        ["outcome 'a'", "complex"],
    ),
    (
        "complex_sympy_entry",
        lambda: Distribution({"a": sympy.I, "b": 1 - sympy.I}),
        InvalidArgument,
        ["complex"],
    ),
    ("nan_string", lambda: Distribution({"a": "nan"}), InvalidArgument, ["'nan'", "not a finite"]),
    ("sympy_nan", lambda: Distribution({"a": sympy.nan}), InvalidArgument, ["NaN"]),
    ("decimal_nan", lambda: Distribution({"a": Decimal("NaN")}), InvalidArgument, ["not a finite"]),
    ("infinite_entry", lambda: Distribution({"a": sympy.oo}), InvalidArgument, ["not a finite"]),
    (
        "python_float",
        lambda: Mechanism({"a": {0: "1/2", 1: 0.5}}),
        InexactInput,
        ["row 'a', output 1", "0.5", "float"],
    ),
    (
        "numpy_float",
        lambda: Distribution({"a": np.float64(1.0)}),
        InexactInput,
        ["outcome 'a'", "float"],
    ),
    (
        "sympy_float",
        lambda: Distribution({"a": sympy.Float("0.5"), "b": "1/2"}),
        InexactInput,
        ["outcome 'a'"],
    ),
    (
        "float_inside_expression",
        lambda: Distribution({"a": sympy.Float("0.5") * sympy.Integer(2)}),
        InexactInput,
        ["outcome 'a'"],
    ),
    ("bool_entry", lambda: Distribution({"a": True}), InvalidArgument, ["bool"]),
    ("unknown_output_label", lambda: pml(BINARY, UNIFORM, 7), InvalidArgument, ["output 7"]),
    (
        "row_names_undeclared_output",
        lambda: Mechanism({"a": {0: 1}}, outputs=[1]),
        InvalidArgument,
        ["output 0"],
    ),
    (
        "prior_on_other_alphabet",
        lambda: pml(BINARY, Distribution({"a": 1, "c": 0}), 0),
        InvalidArgument,
        ["missing ['b']", "'c'"],
    ),
    (
        "divergence_on_other_alphabets",
        lambda: renyi_divergence_inf(UNIFORM, Distribution({"a": 1, "z": 0})),
        InvalidArgument,
        ["different alphabets"],
    ),
    (
        "zero_mass_adversary",
        lambda: discloses(BINARY, lambda x: x, Distribution({"a": 1, "b": 0})),
        InvalidArgument,
        ["full support", "'b'"],
    ),
    (
        "output_never_produced_strict",
        lambda: Mechanism({"a": {0: 1}, "b": {0: 1}}, outputs=[0, 1]).posterior(
            UNIFORM, 1, strict=True
        ),
        InvalidArgument,
        ["output 1", "probability zero"],
    ),
    (
        "symbol_without_assumptions",
        lambda: Distribution({"a": t_unknown, "b": 1 - t_unknown}),
        InvalidArgument,
        ["symbol t", "unknown sign"],
    ),
    (
        "real_symbol_without_sign",
        lambda: Distribution({"a": t_real, "b": 1 - t_real}),
        InvalidArgument,
        ["unknown sign"],
    ),
    (
        "string_with_undeclared_symbol",
        lambda: Distribution({"a": "t", "b": "1 - t"}),
        InvalidArgument,
        ["'t'", "unknown sign"],
    ),
    ("empty_distribution", lambda: Distribution({}), InvalidArgument, ["empty"]),
    ("empty_mechanism", lambda: Mechanism({}), InvalidArgument, ["empty"]),
    ("empty_row_set_of_outputs", lambda: Mechanism({"a": {}}), InvalidArgument, ["empty"]),
    ("ragged_matrix", lambda: Mechanism.from_matrix([[1, 0], [1]]), InvalidArgument, ["row 1"]),
    (
        "unreadable_string",
        lambda: exact("three tenths", where="entry x"),
        InvalidArgument,
        ["entry x"],
    ),
    (
        "division_by_zero_string",
        lambda: exact("1/0", where="entry y"),
        InvalidArgument,
        ["entry y", "divides by zero"],
    ),
    (
        "negative_epsilon",
        lambda: is_pml_private(BINARY, UNIFORM, "-1"),
        InvalidArgument,
        ["epsilon"],
    ),
    ("float_epsilon", lambda: is_pml_private(BINARY, UNIFORM, 0.1), InexactInput, ["epsilon"]),
    (
        "side_information_never_seen",
        lambda: conditional_pointwise_maximal_leakage(
            BINARY, UNIFORM, 0, given=lambda x: x, value="z"
        ),
        InvalidArgument,
        ["'z'"],
    ),
    (
        "mixture_weight_out_of_range",
        lambda: BINARY.mixture(BINARY, "3/2"),
        InvalidArgument,
        ["3/2"],
    ),
    (
        "post_processing_missing_rows",
        lambda: BINARY.post_process(Mechanism({0: {"u": 1}})),
        InvalidArgument,
        ["[1]"],
    ),
    ("unhashable_outcome", lambda: Distribution([([1], 1)]), InvalidArgument, ["hashable"]),
]


@pytest.mark.parametrize(
    ("action", "error", "fragments"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_bad_input_raises_a_clear_error(action, error, fragments):
    with pytest.raises(error) as caught:
        action()
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    # Never a deep sympy traceback: the error is one of ours and carries no sympy class name.
    assert isinstance(caught.value, ExactPMLError)


def test_float_opt_in_converts_the_exact_binary_value():
    assert exact(0.1, allow_float=True) == Fraction(3602879701896397, 36028797018963968)
    assert exact(np.float32(0.5), allow_float=True) == Fraction(1, 2)
    assert exact(sympy.Float("0.25"), allow_float=True) == Fraction(1, 4)


def test_exact_decimals_and_fractions_are_accepted():
    assert exact("0.3") == Fraction(3, 10)
    assert exact(" 1/3 ") == Fraction(1, 3)
    assert exact("1e-4") == Fraction(1, 10000)
    assert exact(Decimal("0.125")) == Fraction(1, 8)
    assert exact(sympy.Rational(2, 7)) == Fraction(2, 7)
    assert exact(np.int64(3)) == 3


def test_bad_input_changes_nothing():
    # Value objects are immutable: a failed operation cannot have modified them.
    before = (BINARY.as_dict(), UNIFORM.as_dict())
    with pytest.raises(InvalidArgument):
        pml(BINARY, Distribution({"a": 1, "c": 0}), 0)
    assert (BINARY.as_dict(), UNIFORM.as_dict()) == before
    with pytest.raises(AttributeError):
        UNIFORM.outcomes = ("z",)  # type: ignore[misc]


FILE_CASES = [
    ("malformed_json", '{"rows": {"a": {"0": "1"}', ["line 1", "malformed JSON"]),
    ("top_level_list", "[1, 2]", ["top level"]),
    ("missing_rows", '{"inputs": ["a"]}', ["missing key 'rows'"]),
    ("unknown_key", '{"rows": {"a": {"0": 1}}, "colour": 1}', ["unknown key", "colour"]),
    ("row_not_summing", '{"rows": {"a": {"0": "1/2", "1": "1/4"}}}', ["row 'a'", "3/4"]),
    (
        "float_like_number_not_summing",
        '{"rows": {"a": {"0": 0.30000000000000004, "1": 0.7}}}',
        ["row 'a'"],
    ),
    (
        "bad_symbol_assumption",
        '{"rows": {"a": {"0": 1}}, "symbols": {"t": "small"}}',
        ["symbols.t"],
    ),
    ("prior_mismatch", '{"rows": {"a": {"0": 1}}, "prior": {"b": 1}}', ["prior", "missing ['a']"]),
    ("rows_vs_inputs", '{"inputs": ["a", "b"], "rows": {"a": {"0": 1}}}', ["missing ['b']"]),
]


@pytest.mark.parametrize(
    ("text", "fragments"), [c[1:] for c in FILE_CASES], ids=[c[0] for c in FILE_CASES]
)
def test_bad_mechanism_file_names_the_file_and_problem(tmp_path, text, fragments):
    path = tmp_path / "mechanism.json"
    path.write_text(text)
    with pytest.raises(InvalidFile) as caught:
        read_mechanism(path)
    message = str(caught.value)
    assert str(path) in message
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


def test_json_numbers_are_read_as_exact_decimals(tmp_path):
    path = tmp_path / "m.json"
    path.write_text('{"rows": {"a": {"0": 0.3, "1": 0.7}}, "prior": {"a": 1}}')
    mechanism, prior = read_mechanism(path)
    assert mechanism.probability("a", "0") == Fraction(3, 10)
    assert prior is not None and prior["a"] == 1


def test_missing_prior_file_is_a_clear_error(tmp_path):
    with pytest.raises(InvalidFile, match="cannot read"):
        read_prior(tmp_path / "absent.json")
