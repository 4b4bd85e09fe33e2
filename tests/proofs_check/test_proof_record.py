"""The proof record on evidence: its status must agree with ``passed`` (a proof is never
``unknown``, a refutation always carries its counterexample)."""

from __future__ import annotations

import pytest

from exactpml.errors import InvalidArgument
from proofs_check.record import Evidence, ProofRecord


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
