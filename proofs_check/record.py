"""The evidence record: what one part of a check established, with its exact values.

A check returns a list of :class:`Evidence`, one per piece of evidence (an exact
instance from the text, a property on random instances, a limit, a witness, a certified
inequality).  Each says whether it held (``True``), failed (``False``, always with an
exact counterexample) or could not be decided (``None``), in words, together with the
exact values involved as strings.  Records are frozen, picklable plain data, so they
travel from worker processes (or Dask workers) to the report unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from exactpml.errors import InvalidArgument
from proofs_check.exactness import exact_latex, exact_text
from proofs_check.statement import KINDS, Kind

__all__ = [
    "DOMAIN_SEARCH_LABEL",
    "PROOF_STATUSES",
    "STRENGTHENING_STATUSES",
    "Evidence",
    "ExactValue",
    "ProofRecord",
    "PropertyStats",
    "ScopeStats",
    "StrengtheningRecord",
    "exact_values",
]

PROOF_STATUSES = ("proved", "refuted", "unknown")
"""What a proof engine can answer about "for every point of the domain, the statement"."""

DOMAIN_SEARCH_LABEL = "domain search: "
"""The label prefix of a proof part's domain search (:mod:`proofs_check.domain_search`): P
evidence that is the proof's companion (the same statement at exact points), so a claim
need not list kind P for it, as it need not for a proof's own C evidence."""


@dataclass(frozen=True, slots=True)
class ExactValue:
    """A named exact value: its text (``"log(9/5)"``) and its LaTeX (math mode)."""

    name: str
    text: str
    latex: str

    @classmethod
    def of(cls, name: str, value: object) -> ExactValue:
        """Render ``value`` exactly (floats are refused).

        >>> from fractions import Fraction
        >>> ExactValue.of("p_min", Fraction(1, 5))
        ExactValue(name='p_min', text='1/5', latex='\\\\frac{1}{5}')
        """
        return cls(name, exact_text(value, name=name), exact_latex(value, name=name))


def exact_values(values: Mapping[str, object] | None) -> tuple[ExactValue, ...]:
    """Render a mapping of names to exact objects as :class:`ExactValue` records, in order."""
    if values is None:
        return ()
    return tuple(
        value if isinstance(value, ExactValue) else ExactValue.of(name, value)
        for name, value in values.items()
    )


@dataclass(frozen=True, slots=True)
class ScopeStats:
    """How the small-scope phase of a property went (instances enumerated smallest first).

    Attributes:
        description: The small scope, e.g. ``"kernels with rows on the grid 1/2, 1/3, 1/4"``.
        tried: Instances on which the property was evaluated (skipped ones excluded).
        skipped: Instances skipped by ``hypothesis.assume`` / ``reject`` inside ``holds``.
        undecided: Instances where the property could not be settled exactly.
        size: How many instances the scope has (``None``: not known in advance).
        budget: The most instances the profile lets the phase enumerate.
        complete: True when every instance of the scope was enumerated (none left over).
        covered: Instances of the full enumeration the phase went through: a representative
            of a relabelling orbit counts its whole orbit (``None``: as many as enumerated
            plus filtered).
        filtered: Instances walked over because the strategy's ``.filter`` rejects them
            (outside its domain, never checked).
    """

    description: str
    tried: int
    skipped: int
    undecided: int
    size: int | None
    budget: int
    complete: bool
    covered: int | None = None
    filtered: int = 0

    @property
    def enumerated(self) -> int:
        """Instances enumerated: tried plus skipped."""
        return self.tried + self.skipped

    @property
    def coverage(self) -> int:
        """Instances of the full enumeration covered (orbits and filtered ones included)."""
        return self.enumerated + self.filtered if self.covered is None else self.covered


@dataclass(frozen=True, slots=True)
class PropertyStats:
    """How a property was tried: small-scope phase, then random instances (Hypothesis).

    Attributes:
        tried: Random instances on which the property was evaluated before any failure
            (instances skipped by ``assume`` excluded).
        requested: Random instances asked for (``examples`` times the number of seeds).
        undecided: Random instances where the property could not be settled exactly.
        seed: The first seed.
        seeds: How many consecutive seeds (shards) contributed, starting at ``seed``.
        skipped: Random instances skipped by ``hypothesis.assume`` / ``reject``.
        scope: The small-scope phase, when the property has a small scope (else ``None``).
        found_by: For a failed property, the phase that found the counterexample:
            ``"small-scope"`` or ``"hypothesis"``.
        found_at: Where: ``"instance 17 of 336 (|X| = 2, |Y| = 2, grid 1/2)"`` or
            ``"random exact instance 4 (seed 0)"``.
        scope_note: Why the property had no small-scope phase, when it had none although
            one was asked for (e.g. ``"not a strategy exactpml can enumerate"``).
        describe: The property in words, as its summary begins (``property_holds``'
            ``describe``); the merge of shards words the merged summary with it.
    """

    tried: int
    requested: int
    undecided: int
    seed: int
    seeds: int = 1
    skipped: int = 0
    scope: ScopeStats | None = None
    found_by: str | None = None
    found_at: str = ""
    scope_note: str = ""
    describe: str = ""


@dataclass(frozen=True, slots=True)
class ProofRecord:
    """What a proof engine established about a statement over a whole domain.

    Attributes:
        part: The statement (or the named part of the claim) the engine was asked about,
            e.g. ``"l(X->y) <= log(1 + (e^{1/(nb)} - 1)/(1 - 2c)) for every y"``.
        domain: The whole domain it quantifies over, as the report prints it, e.g.
            ``"every nb > 0 and c in [0, 1/2)"``.
        status: ``"proved"`` (certified at every point of ``domain``), ``"refuted"`` (a
            certified counterexample) or ``"unknown"`` (neither; never a proof).
        engine: Which engine decided it (``"z3 nlsat"``, ``"arb branch-and-bound"``,
            ``"integer exhaustion"``, ...).
        detail: How: the reduction or the certificate in words (boxes, substitution), or
            why the answer is unknown.
    """

    part: str
    domain: str
    status: str
    engine: str
    detail: str = ""

    def __post_init__(self) -> None:
        if self.status not in PROOF_STATUSES:
            raise InvalidArgument(
                f"status={self.status!r} must be one of {', '.join(PROOF_STATUSES)}."
            )
        for name in ("part", "domain", "engine"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise InvalidArgument(f"ProofRecord.{name} must be a non-empty string.")
        if not isinstance(self.detail, str):
            raise InvalidArgument("ProofRecord.detail must be a string.")

    @property
    def proved(self) -> bool:
        """True when the statement is certified at every point of the domain."""
        return self.status == "proved"


STRENGTHENING_STATUSES = ("sharp", "not sharp", "open")
"""What running a strengthening through the engines shows about a claim's bound."""


@dataclass(frozen=True, slots=True)
class StrengtheningRecord:
    """A stronger form of an inequality claim, run through a proof engine.

    Attributes:
        name: The strengthening's declared name (``"drop_quadratic_term"``).
        statement: The stronger statement in words.
        status: ``"sharp"`` (the engine refuted the stronger statement: the bound cannot be
            improved that way, and ``witness`` is where it fails), ``"not sharp"`` (the engine
            PROVED the stronger statement over ``domain``: a finding) or ``"open"`` (neither:
            never reported as a finding).
        domain: The domain the engine decided it over.
        engine: Which engine.
        witness: For ``"sharp"``: the exact point at which the stronger statement fails.
        detail: How, or why open.
    """

    name: str
    statement: str
    status: str
    domain: str
    engine: str
    witness: str = ""
    detail: str = ""

    def __post_init__(self) -> None:
        if self.status not in STRENGTHENING_STATUSES:
            raise InvalidArgument(
                f"status={self.status!r} must be one of {', '.join(STRENGTHENING_STATUSES)}."
            )
        for name in ("name", "statement", "domain", "engine"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise InvalidArgument(f"StrengtheningRecord.{name} must be a non-empty string.")
        if not isinstance(self.witness, str) or not isinstance(self.detail, str):
            raise InvalidArgument("StrengtheningRecord.witness and .detail must be strings.")
        if self.status == "sharp" and not self.witness.strip():
            raise InvalidArgument(
                f"strengthening {self.name!r} is sharp only with the exact witness where the "
                "stronger statement fails."
            )

    def sharp_summary(self, witness: str | None = None) -> str:
        """The evidence summary of a sharp strengthening, with ``witness`` in place of the
        whole witness when given (the LaTeX report shows its first coordinates)."""
        shown = self.witness if witness is None else witness
        return (
            f"sharp against strengthening {self.name} ({self.statement}): refuted at {shown} "
            f"({self.engine})"
        )


@dataclass(frozen=True, slots=True)
class Evidence:
    """One piece of evidence for (or against) a claim.

    Attributes:
        kind: ``"E"``, ``"P"``, ``"L"``, ``"W"`` or ``"C"``; ``None`` only for a
            not-checkable note.
        passed: ``True`` held, ``False`` failed, ``None`` undecided.
        summary: What was established, in words ("exact on 3 instances from the text").
        values: The exact values involved.
        counterexample: An exact counterexample; required exactly when ``passed`` is False.
        label: Identifies this evidence within its check (used to merge shards).
        stats: For properties, how many small-scope and random instances were tried, and
            which phase found a counterexample.
        checkable: False for "not checkable" notes.
        finding: True for a finding about the source (a bound's sharpness, a missing
            hypothesis): the report lists these under "Findings" as well.
        proof: For evidence from a proof engine, what it established over which domain
            (:class:`ProofRecord`): ``"proved"`` requires ``passed=True``, ``"refuted"``
            ``passed=False`` with the certified counterexample, ``"unknown"`` is never a
            proof (``passed=True``: the attempt failed nothing, and the claim stays PASSED
            on its other evidence).  A claim is PROVED only through such records.
        strengthening: For evidence about a strengthening of the claim
            (:class:`StrengtheningRecord`): informational, ``passed=True`` whatever it
            shows, and a finding exactly when the stronger statement was proved.
    """

    kind: Kind | None
    passed: bool | None
    summary: str
    values: tuple[ExactValue, ...] = ()
    counterexample: str | None = None
    label: str = ""
    stats: PropertyStats | None = None
    checkable: bool = True
    finding: bool = False
    proof: ProofRecord | None = None
    strengthening: StrengtheningRecord | None = None

    def __post_init__(self) -> None:
        if self.kind is None:
            if self.checkable:
                raise InvalidArgument("kind=None is only allowed for not-checkable evidence.")
        elif self.kind not in KINDS:
            raise InvalidArgument(f"kind={self.kind!r} must be one of {', '.join(KINDS)}.")
        if not (self.passed is None or isinstance(self.passed, bool)):
            raise InvalidArgument(f"passed={self.passed!r} must be True, False or None.")
        if not isinstance(self.summary, str) or not self.summary.strip():
            raise InvalidArgument("summary must be a non-empty string saying what was established.")
        if self.passed is False:
            if not isinstance(self.counterexample, str) or not self.counterexample.strip():
                raise InvalidArgument(
                    f"failed evidence ({self.summary!r}) must carry an exact counterexample."
                )
        elif self.counterexample is not None:
            raise InvalidArgument("a counterexample is only allowed on failed evidence.")
        if not self.checkable and self.passed is not None:
            raise InvalidArgument("not-checkable evidence must have passed=None.")
        if not all(isinstance(value, ExactValue) for value in self.values):
            raise InvalidArgument("values must be ExactValue records (see exact_values()).")
        if self.proof is not None:
            if not isinstance(self.proof, ProofRecord):
                raise InvalidArgument("proof must be a ProofRecord or None.")
            expected = {"proved": True, "refuted": False, "unknown": True}[self.proof.status]
            if self.passed is not expected:
                raise InvalidArgument(
                    f"evidence with a {self.proof.status!r} proof record must have "
                    f"passed={expected}, not {self.passed!r}."
                )
        if self.strengthening is not None:
            if not isinstance(self.strengthening, StrengtheningRecord):
                raise InvalidArgument("strengthening must be a StrengtheningRecord or None.")
            if self.proof is not None:
                raise InvalidArgument("evidence is a proof or a strengthening, not both.")
            if self.passed is not True:
                raise InvalidArgument("strengthening evidence is informational: passed=True.")
            if self.finding is not (self.strengthening.status == "not sharp"):
                raise InvalidArgument(
                    "strengthening evidence is a finding exactly when the stronger statement "
                    "was proved (status 'not sharp')."
                )
