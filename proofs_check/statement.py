"""A claim as plain data: its source, number, statement and the kinds of evidence it needs.

A :class:`Claim` names one numbered result of a source document (or an unnumbered
statement), says it in words and lists the kinds of evidence its check must produce:

- ``E`` exact instance, ``P`` Hypothesis property on random exact instances,
- ``L`` limit construction, ``W`` explicit witness, ``C`` certified inequality.

A :class:`ListedItem` is a statement of a source that cannot be checked, with the reason.
The claims themselves live with their checks, one ``statements`` module per source
(:mod:`proofs_check.claims.pml.statements`, ...); :mod:`proofs_check.catalog` gathers them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

__all__ = ["KINDS", "KIND_NAMES", "Claim", "Kind", "ListedItem", "Source"]

Kind = Literal["E", "P", "L", "W", "C"]
"""A kind of evidence: exact instance, property, limit, witness or certified."""

KINDS: tuple[Kind, ...] = get_args(Kind)

KIND_NAMES: dict[str, str] = {
    "E": "exact instance",
    "P": "property on random exact instances",
    "L": "limit construction",
    "W": "explicit witness",
    "C": "certified inequality",
}


@dataclass(frozen=True, slots=True)
class Source:
    """A source document whose claims are checked.

    Attributes:
        prefix: The id prefix of its claims, e.g. ``"pml"``.
        file: The file name of the source's text (as listed in ``CLAIMS.md``).
        title: Authors and title, for citation in reports.
    """

    prefix: str
    file: str
    title: str


@dataclass(frozen=True, slots=True)
class Claim:
    """One claim: a stable id, where it comes from, what it says and how it is checked.

    Attributes:
        id: Stable id such as ``"pml.thm_3_5"``.
        source: The document the claim comes from.
        result: Its number in the source, e.g. ``"Theorem 3.5"``.
        statement: The statement in words, word for word as in ``CLAIMS.md``.
        kinds: The kinds of evidence its check must produce, in the listed order.
    """

    id: str
    source: Source
    result: str
    statement: str
    kinds: tuple[Kind, ...]

    @property
    def kinds_text(self) -> str:
        """The kinds as a compact string, e.g. ``"PWL"``."""
        return "".join(self.kinds)


@dataclass(frozen=True, slots=True)
class ListedItem:
    """A statement of a source that is listed but cannot be checked, with the reason."""

    id: str
    source: Source
    result: str
    reason: str
