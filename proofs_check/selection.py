"""Selecting claims by id, prefix or glob, with a suggestion for unknown ids.

A pattern is an exact id (``pml.thm_3_5``), a prefix ending in a dot (``pml.``) or a
source prefix (``pml``), or a glob (``pml.thm_4_*``).  No pattern selects every claim.
Listed-but-not-checkable items are selected only by their exact id or a matching pattern
(they are then reported as NOT_CHECKABLE).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from fnmatch import fnmatchcase

from exactpml.errors import InvalidArgument

__all__ = ["UnknownClaim", "matches", "select"]


class UnknownClaim(InvalidArgument):
    """A pattern names no known claim; the message suggests the closest ids."""


def matches(pattern: str, claim_id: str) -> bool:
    """Whether ``pattern`` selects ``claim_id``.

    >>> matches("pml.thm_4_*", "pml.thm_4_2"), matches("pml.", "pml.thm_4_2")
    (True, True)
    >>> matches("pml", "pml.thm_4_2"), matches("pml.thm_4", "pml.thm_4_2")
    (True, False)
    """
    if any(char in pattern for char in "*?["):
        return fnmatchcase(claim_id, pattern)
    if pattern.endswith("."):
        return claim_id.startswith(pattern)
    return claim_id == pattern or claim_id.startswith(pattern + ".")


def _suggest(pattern: str, ids: Sequence[str]) -> str:
    close = difflib.get_close_matches(pattern, ids, n=3, cutoff=0.5)
    if not close:
        prefixes = sorted({claim_id.split(".")[0] + "." for claim_id in ids})
        return f"known prefixes: {', '.join(prefixes)}" if prefixes else "no claims are known"
    return "did you mean " + " or ".join(close) + "?"


def select(
    patterns: Sequence[str], claim_ids: Sequence[str], listed_ids: Sequence[str] = ()
) -> tuple[list[str], list[str]]:
    """The claim ids and listed ids selected by ``patterns``, in their given order.

    Raises:
        UnknownClaim: a pattern matches nothing (with the closest ids as a suggestion).

    >>> select(["pml.thm_3_*"], ["pml.thm_2_4", "pml.thm_3_4", "pml.thm_3_5"])
    (['pml.thm_3_4', 'pml.thm_3_5'], [])
    """
    if not patterns:
        return list(claim_ids), []
    for pattern in patterns:
        if not isinstance(pattern, str) or not pattern.strip():
            raise UnknownClaim(f"claim pattern {pattern!r} must be a non-empty string.")
        if not any(matches(pattern, claim_id) for claim_id in (*claim_ids, *listed_ids)):
            suggestion = _suggest(pattern, [*claim_ids, *listed_ids])
            raise UnknownClaim(f"unknown claim {pattern!r}; {suggestion}")
    chosen = [cid for cid in claim_ids if any(matches(p, cid) for p in patterns)]
    listed = [lid for lid in listed_ids if any(matches(p, lid) for p in patterns)]
    return chosen, listed
