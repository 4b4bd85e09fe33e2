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

__all__ = ["Evidence", "ExactValue", "PropertyStats", "exact_values"]


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
class PropertyStats:
    """How a property was tried: instances run, instances requested, undecided ones, seeds.

    Attributes:
        tried: Random instances on which the property was evaluated before any failure.
        requested: Instances asked for (``examples`` times the number of seeds).
        undecided: Instances where the property could not be settled exactly.
        seed: The first seed.
        seeds: How many consecutive seeds (shards) contributed, starting at ``seed``.
    """

    tried: int
    requested: int
    undecided: int
    seed: int
    seeds: int = 1


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
        stats: For properties, how many random instances were tried.
        checkable: False for "not checkable" notes.
        finding: True for a finding about the source (a bound's sharpness, a missing
            hypothesis): the report lists these under "Findings" as well.
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
