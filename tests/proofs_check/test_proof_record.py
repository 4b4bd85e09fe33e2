"""The proof record on evidence: its status must agree with ``passed`` (a proof is never
``unknown``, a refutation always carries its counterexample)."""

from __future__ import annotations

import pytest

from exactpml.errors import InvalidArgument
from proofs_check.record import Evidence, ProofRecord, StrengtheningRecord


def _record(status: str) -> ProofRecord:
    return ProofRecord("x*x >= 0", "every real x", status, "z3 nlsat")


def test_a_proved_record_requires_passed_true() -> None:
    Evidence("C", True, "proved", proof=_record("proved"))
    with pytest.raises(InvalidArgument, match="passed=True"):
        Evidence("C", None, "proved?", proof=_record("proved"))


def test_a_refuted_record_requires_a_failure_with_counterexample() -> None:
    Evidence("C", False, "refuted", counterexample="x = 1/2", proof=_record("refuted"))
    with pytest.raises(InvalidArgument, match="passed=False"):
        Evidence("C", True, "refuted", proof=_record("refuted"))


def test_unknown_is_never_a_proof() -> None:
    record = _record("unknown")
    assert not record.proved
    assert _record("proved").proved


@pytest.mark.parametrize(
    ("field", "value"),
    [("status", "maybe"), ("part", ""), ("domain", " "), ("engine", ""), ("detail", None)],
)
def test_bad_records_are_refused(field: str, value: object) -> None:
    arguments: dict[str, object] = {
        "part": "x*x >= 0",
        "domain": "every real x",
        "status": "proved",
        "engine": "z3 nlsat",
        "detail": "",
    }
    arguments[field] = value
    with pytest.raises(InvalidArgument):
        ProofRecord(**arguments)  # type: ignore[arg-type]


def _strengthening(status: str, witness: str = "") -> StrengtheningRecord:
    return StrengtheningRecord(
        "strict", "x*x > 0", status, "every real x", "z3 nlsat", witness=witness
    )


def test_a_strengthening_is_informational_and_a_finding_exactly_when_proved() -> None:
    Evidence("C", True, "sharp", strengthening=_strengthening("sharp", "x = 0"))
    Evidence("C", True, "open", strengthening=_strengthening("open"))
    Evidence("C", True, "not sharp", finding=True, strengthening=_strengthening("not sharp"))
    with pytest.raises(InvalidArgument, match="finding exactly when"):
        Evidence("C", True, "not sharp", strengthening=_strengthening("not sharp"))
    with pytest.raises(InvalidArgument, match="finding exactly when"):
        Evidence("C", True, "open", finding=True, strengthening=_strengthening("open"))
    with pytest.raises(InvalidArgument, match="informational"):
        Evidence("C", None, "open", strengthening=_strengthening("open"))


def test_sharp_needs_its_witness() -> None:
    with pytest.raises(InvalidArgument, match="witness"):
        _strengthening("sharp")


def test_a_strengthening_never_counts_as_evidence_of_a_kind() -> None:
    from proofs_check.statement import Claim, Source
    from proofs_check.verdict import Verdict, decide

    needs_c = Claim("demo.c", Source("demo", "n", "n"), "Lemma", "x*x >= 0", ("P", "C"))
    held = Evidence("P", True, "held")
    open_one = Evidence("C", True, "open", strengthening=_strengthening("open"))
    assert decide(needs_c, [held, open_one], None)[0] is Verdict.NOT_CHECKABLE
    only_p = Claim("demo.p", Source("demo", "n", "n"), "Lemma", "x*x >= 0", ("P",))
    assert decide(only_p, [held, open_one], None) == (Verdict.PASSED, "")
