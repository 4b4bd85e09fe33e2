"""Evidence records and the helpers that build them: exact or refused, never a float."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
import sympy

from exactpml.errors import InexactInput, InvalidArgument
from proofs_check.evidence import (
    Evidence,
    ExactValue,
    certified_evidence,
    exact_instances,
    limit_evidence,
    not_checkable,
    witness_evidence,
)
from proofs_check.exactness import exact_repr, exact_text, exactly_equal

BAD_EVIDENCE: list[tuple[str, dict[str, Any]]] = [
    ("unknown kind", {"kind": "X", "passed": True, "summary": "s"}),
    ("kind none while checkable", {"kind": None, "passed": None, "summary": "s"}),
    ("passed not a bool", {"kind": "E", "passed": 1, "summary": "s"}),
    ("empty summary", {"kind": "E", "passed": True, "summary": "  "}),
    ("failed without counterexample", {"kind": "P", "passed": False, "summary": "s"}),
    (
        "failed with empty counterexample",
        {"kind": "P", "passed": False, "summary": "s", "counterexample": " "},
    ),
    (
        "counterexample on passed evidence",
        {"kind": "P", "passed": True, "summary": "s", "counterexample": "0"},
    ),
    ("not checkable but passed", {"kind": "W", "passed": True, "summary": "s", "checkable": False}),
    ("values not ExactValue", {"kind": "E", "passed": True, "summary": "s", "values": ("1",)}),
]


@pytest.mark.parametrize(
    ("fields"), [case[1] for case in BAD_EVIDENCE], ids=[case[0] for case in BAD_EVIDENCE]
)
def test_malformed_evidence_is_refused(fields: dict[str, Any]) -> None:
    with pytest.raises(InvalidArgument):
        Evidence(**fields)


def test_exact_instances_pass_when_every_value_is_exactly_equal() -> None:
    evidence = exact_instances(
        [
            ("half", Fraction(1, 2), "1/2"),
            ("log", sympy.log(9) - sympy.log(5), sympy.log(sympy.Rational(9, 5))),
            ("decimal string", Fraction(3, 10), "0.3"),
        ]
    )
    assert evidence.passed is True
    assert evidence.kind == "E"
    assert evidence.summary == "exact on 3 instances from the text"
    assert [value.text for value in evidence.values] == ["1/2", "-log(5) + log(9)", "3/10"]


def test_exact_instances_fail_with_the_differing_instance_as_counterexample() -> None:
    evidence = exact_instances({"n=2": (sympy.log(sympy.Rational(9, 5)), sympy.log(2))})
    assert evidence.passed is False
    assert evidence.counterexample == "n=2: computed log(9/5), expected log(2)"


def test_exact_instances_are_undecided_when_equality_cannot_be_settled() -> None:
    evidence = exact_instances({"x": (1, 1)}, equal=lambda a, b: None)
    assert evidence.passed is None
    assert "could not decide exactly: x" in evidence.summary


@pytest.mark.parametrize(
    ("computed", "expected"),
    [(0.5, Fraction(1, 2)), (Fraction(1, 2), 0.5), (sympy.Float("0.5"), Fraction(1, 2))],
    ids=["float computed", "float expected", "sympy float"],
)
def test_exact_instances_refuse_floats(computed: object, expected: object) -> None:
    with pytest.raises(InexactInput):
        exact_instances({"x": (computed, expected)})


def test_exact_instances_need_at_least_one_case() -> None:
    with pytest.raises(InvalidArgument):
        exact_instances({})


@pytest.mark.parametrize(
    ("left", "right", "equal"),
    [
        (Fraction(2, 4), Fraction(1, 2), True),
        (1, Fraction(2, 2), True),
        (sympy.log(6), sympy.log(2) + sympy.log(3), True),
        (sympy.sqrt(8), 2 * sympy.sqrt(2), True),
        (sympy.log(sympy.Rational(9, 5)), sympy.log(2), False),
        ("1/3", Fraction(1, 3), True),
        (Fraction(1, 3), Fraction(333, 1000), False),
    ],
    ids=[
        "fractions",
        "int and fraction",
        "log sum",
        "radicals",
        "different logs",
        "string",
        "close but different",
    ],
)
def test_exactly_equal_decides_exactly(left: object, right: object, equal: bool) -> None:
    assert exactly_equal(left, right) is equal


def test_exactly_equal_decides_closed_numbers_by_certified_signs() -> None:
    # about 1.41e-420: sympy's minimal_polynomial calls it 0; the certified sign says > 0
    tiny = sympy.Rational(1, 10**420) * sympy.sqrt(2)
    value = sympy.Add(sympy.sqrt(1 + tiny), -sympy.sqrt(1 - tiny), evaluate=False)
    assert exactly_equal(value, 0) is False
    assert exactly_equal(value, 2 * tiny) is False  # 2 tiny - value is about 1e-1261
    # exact zeros by the certified routes: radicals, exponentials, logs of rationals
    assert exactly_equal(sympy.sqrt(2) * sympy.sqrt(3), sympy.sqrt(6)) is True
    assert exactly_equal(sympy.exp(1) ** 2, sympy.exp(2)) is True
    assert exactly_equal(sympy.log(sympy.Rational(3, 4)), -sympy.log(sympy.Rational(4, 3))) is True
    # symbols: decided by simplification and the symbols' assumptions
    x = sympy.Symbol("x", positive=True)
    assert exactly_equal(sympy.log(2 * x), sympy.log(2) + sympy.log(x)) is True
    assert exactly_equal(x + 1, x) is False
    # sympy's simplify made the tiny number 0 (the old answer); a number certify cannot
    # enclose is equal only by certify's proves_zero, else undecided
    assert sympy.simplify(value) == 0  # the trap, in sympy 1.14
    one = sympy.Integer(1)
    assert exactly_equal(sympy.tan(one), sympy.sin(one) / sympy.cos(one)) is True
    assert exactly_equal(sympy.tan(one), sympy.Rational(3, 2)) is None


def test_exact_text_and_repr_refuse_floats_anywhere() -> None:
    with pytest.raises(InexactInput):
        exact_text(0.1)
    with pytest.raises(InexactInput):
        exact_repr((Fraction(1, 2), [0.1]))
    assert exact_repr((Fraction(1, 2), [Fraction(-3, 4)], {"p": 0})) == "(1/2, [-3/4], {'p': 0})"


def test_limit_evidence_passes_when_the_limit_equals_the_claim_exactly() -> None:
    evidence = limit_evidence(
        sympy.log(3), sympy.log(3), attained=False, family="t -> 0+", expected_attained=False
    )
    assert evidence.passed is True
    assert evidence.summary == "limit of t -> 0+ equals log(3) exactly; not attained"
    assert evidence.values == (
        ExactValue("limit", "log(3)", r"\log{\left(3 \right)}"),
        ExactValue("claimed", "log(3)", r"\log{\left(3 \right)}"),
    )


def test_limit_evidence_fails_on_a_different_value_or_attainment() -> None:
    wrong_value = limit_evidence(1, 2, attained=False, family="K -> oo")
    assert wrong_value.passed is False
    assert wrong_value.counterexample == "limit of K -> oo = 1 ≠ 2 (claimed)"
    wrong_attainment = limit_evidence(
        1, 1, attained=True, family="K -> oo", expected_attained=False
    )
    assert wrong_attainment.passed is False
    assert "is attained; claimed not attained" in (wrong_attainment.counterexample or "")


def test_witness_evidence_requires_a_counterexample_when_it_fails() -> None:
    assert witness_evidence("K = 3", True, values={"K": 3}).values[0].text == "3"
    with pytest.raises(InvalidArgument):
        witness_evidence("K = 3", False)
    failed = witness_evidence("K = 3", False, counterexample="ratio 2/3 < 1")
    assert failed.passed is False
    assert witness_evidence("K = 3", None).passed is None


def test_certified_evidence_is_undecided_without_digits() -> None:
    assert certified_evidence("e > 2", 30).summary == "certified to 30 digits: e > 2"
    assert certified_evidence("e > 2", None).passed is None
    assert certified_evidence("e > 2", 30, holds=None).passed is None
    with pytest.raises(InvalidArgument):
        certified_evidence("e > 2", 0)
    with pytest.raises(InvalidArgument):
        certified_evidence("e < 2", 30, holds=False)


def test_not_checkable_evidence_is_never_passed() -> None:
    evidence = not_checkable("formulas lost in extraction")
    assert evidence.passed is None
    assert evidence.checkable is False
    assert evidence.summary == "not checkable: formulas lost in extraction"


def test_a_custom_equality_must_return_a_verdict_not_a_truthy_value() -> None:
    with pytest.raises(InvalidArgument, match="equal must return True, False or None"):
        exact_instances({"x": (1, 2)}, equal=lambda a, b: a - b)  # type: ignore[arg-type, return-value]
    assert exact_instances({"x": (1, 1)}, equal=lambda a, b: sympy.Eq(a, b)).passed is True


def test_sharpness_is_a_finding_listed_in_the_report_formats():
    from proofs_check import sharpness_evidence

    sharp = sharpness_evidence("δ_PPK <= max_b δ_A(b)", attained=True, on="Example 7")
    loose = sharpness_evidence(
        "k e^{(k-1)ε} δ", attained=False, on="3 instances", sharpest="Σ_{j<k} e^{jε} δ"
    )
    assert sharp.finding and loose.finding and sharp.passed is True
    assert "is attained exactly on Example 7" in sharp.summary
    assert loose.summary.endswith("sharpest exact form: Σ_{j<k} e^{jε} δ")
