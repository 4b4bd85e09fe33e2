"""The catalog of claims: every source's statements, gathered in report order.

Each source keeps its claims next to its checks, in ``proofs_check/claims/<source>/
statements.py`` (id, source and number, statement, kinds; see
:mod:`proofs_check.statement`); this module only gathers them, in the order of the
report and of ``CLAIMS.md``: Saeidian et al. (``pml.``), Vadhan (``vadhan.``), the thesis's
§3.1.3 (``pk.``), Ligett, Peale and Reingold (``bldp.``).  Checks attach to the ids through
:mod:`proofs_check.registry`.  Items the sources state but that cannot be checked are kept
in :data:`NOT_CHECKABLE` with their reasons, so a report can say why they are absent.  The
test suite compares the statements with ``CLAIMS.md`` at the repository's root (ids, kinds
and every word), so that drift is caught.
"""

from __future__ import annotations

from proofs_check.claims.bldp import statements as bldp
from proofs_check.claims.partial_knowledge import statements as partial_knowledge
from proofs_check.claims.pml import statements as pml
from proofs_check.claims.vadhan import statements as vadhan
from proofs_check.statement import KINDS, Claim, Kind, ListedItem, Source

__all__ = [
    "CLAIMS",
    "KINDS",
    "NOT_CHECKABLE",
    "SOURCES",
    "Claim",
    "Kind",
    "ListedItem",
    "Source",
    "catalog_claim",
    "listed_item",
]

SOURCES: tuple[Source, ...] = (pml.SOURCE, vadhan.SOURCE, partial_knowledge.SOURCE, bldp.SOURCE)
"""The sources, in report order."""

CLAIMS: tuple[Claim, ...] = pml.CLAIMS + vadhan.CLAIMS + partial_knowledge.CLAIMS + bldp.CLAIMS
"""Every claim, in report order (the order of ``CLAIMS.md``)."""

NOT_CHECKABLE: tuple[ListedItem, ...] = (
    pml.NOT_CHECKABLE + partial_knowledge.NOT_CHECKABLE + vadhan.NOT_CHECKABLE + bldp.NOT_CHECKABLE
)
"""The listed-but-not-checkable items, in the order of ``CLAIMS.md``'s list."""

_BY_ID: dict[str, Claim] = {claim.id: claim for claim in CLAIMS}
_LISTED_BY_ID: dict[str, ListedItem] = {item.id: item for item in NOT_CHECKABLE}


def catalog_claim(claim_id: str) -> Claim | None:
    """The catalog's claim with this id, or ``None`` if the catalog has none.

    >>> catalog_claim("pml.thm_3_5").result
    'Theorem 3.5'
    >>> catalog_claim("pml.thm_9_9") is None
    True
    """
    return _BY_ID.get(claim_id)


def listed_item(item_id: str) -> ListedItem | None:
    """The listed-but-not-checkable item with this id, or ``None``.

    >>> listed_item("pml.ex_3_2").reason
    'conceptual, no mathematical statement beyond ex_3_1'
    """
    return _LISTED_BY_ID.get(item_id)
