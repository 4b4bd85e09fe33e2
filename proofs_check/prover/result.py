"""What a proof attempt answers: proved, refuted (with an exact counterexample) or unknown.

A :class:`ProofResult` is a frozen value: the statement and domain as text, the status, the
engine that decided it and how (``detail``), and for ``"refuted"`` the certified
counterexample.  :meth:`ProofResult.record` gives the :class:`~proofs_check.record.ProofRecord`
that evidence carries.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import sympy

from exactpml.errors import InvalidArgument
from proofs_check.exactness import exact_text
from proofs_check.record import PROOF_STATUSES, ProofRecord

__all__ = ["Outcome", "ProofResult"]


@dataclass(frozen=True, slots=True)
class ProofResult:
    """The answer of :func:`~proofs_check.prover.prove_inequality`.

    Attributes:
        status: ``"proved"`` (certified at every point of the domain), ``"refuted"`` (a
            certified counterexample) or ``"unknown"`` (neither; never a proof).
        statement: The statement, e.g. ``"x**2 <= x"``.
        domain: The domain, e.g. ``"every x in (0, 1]"``.
        engine: The engine(s) that ran (``"z3 nlsat"``, ``"arb branch-and-bound"``,
            ``"integer exhaustion"``).
        detail: How it was decided, or why it is unknown.
        point: The counterexample as ``(symbol, exact value)`` pairs (refuted only).
    """

    status: str
    statement: str
    domain: str
    engine: str
    detail: str
    point: tuple[tuple[sympy.Symbol, object], ...] = ()

    def __post_init__(self) -> None:
        if self.status not in PROOF_STATUSES:
            raise InvalidArgument(
                f"status={self.status!r} must be one of {', '.join(PROOF_STATUSES)}"
            )
        if (self.status == "refuted") != bool(self.point):
            raise InvalidArgument("a refuted result carries its counterexample, and only it")

    @property
    def proved(self) -> bool:
        """True when the statement is certified at every point of the domain."""
        return self.status == "proved"

    @property
    def counterexample(self) -> dict[sympy.Symbol, object] | None:
        """``{symbol: exact value}`` where the statement certainly fails (refuted only)."""
        return dict(self.point) if self.point else None

    def counterexample_text(self) -> str:
        """``"x = 1/2, n = 3"`` (empty unless refuted)."""
        return ", ".join(f"{symbol} = {exact_text(value, name=str(symbol))}"
                         for symbol, value in self.point)

    def record(self, part: str | None = None, *, domain: str | None = None) -> ProofRecord:
        """The :class:`ProofRecord` of this answer (``part`` defaults to the statement)."""
        detail = self.detail
        if self.point:
            detail = f"{detail}; counterexample {self.counterexample_text()}"
        return ProofRecord(
            part=part or self.statement,
            domain=domain or self.domain,
            status=self.status,
            engine=self.engine,
            detail=detail,
        )

    def __str__(self) -> str:
        text = f"{self.status}: {self.statement} for {self.domain} ({self.engine}: {self.detail})"
        if self.point:
            text += f"; counterexample {self.counterexample_text()}"
        return text


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an engine established: status, how, and the counterexample (working symbols)."""

    status: str
    detail: str
    point: Mapping[sympy.Symbol, object] | None = None
