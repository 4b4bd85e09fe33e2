"""The catalog matches CLAIMS.md (at the repository's root) and is well-formed.

Each source's statements live in ``proofs_check/claims/<source>/statements.py``; CLAIMS.md
restates them for readers.  These tests require the two to agree on every id, kind and word,
and every source's rows to sit in that source's section.
"""

from __future__ import annotations

import re
from pathlib import Path

import proofs_check
from proofs_check.catalog import (
    CLAIMS,
    KINDS,
    NOT_CHECKABLE,
    SOURCES,
    catalog_claim,
    listed_item,
)

CLAIMS_MD = Path(__file__).resolve().parents[2] / "CLAIMS.md"


def _claims_md() -> Path:
    assert CLAIMS_MD.is_file(), f"{CLAIMS_MD} is missing"
    return CLAIMS_MD


ROW = re.compile(r"^\| `([a-z_]+\.[a-z0-9_]+)` \| (.*) \| ([EPLWC](?:, [EPLWC])*) \|$", re.M)


def test_the_catalog_has_37_claims_with_unique_ids() -> None:
    ids = [claim.id for claim in CLAIMS]
    assert len(ids) == 37
    assert len(set(ids)) == len(ids)


def test_every_claim_has_a_known_source_result_statement_and_kinds() -> None:
    for claim in CLAIMS:
        assert claim.source in SOURCES
        assert claim.id.startswith(claim.source.prefix + ".")
        assert claim.result.strip() and claim.statement.strip()
        assert claim.kinds and set(claim.kinds) <= set(KINDS)
        assert len(set(claim.kinds)) == len(claim.kinds)


def test_listed_items_are_not_claims_and_give_reasons() -> None:
    assert {item.id for item in NOT_CHECKABLE} >= {"pml.ex_3_2"}
    for item in NOT_CHECKABLE:
        assert catalog_claim(item.id) is None
        assert listed_item(item.id) is item
        assert item.reason.strip()


def test_the_catalog_agrees_with_claims_md_on_ids_and_kinds() -> None:
    path = _claims_md()
    text = path.read_text(encoding="utf-8")
    rows = {cid: tuple(k.strip() for k in kinds.split(",")) for cid, _, kinds in ROW.findall(text)}
    assert rows, f"no claim rows found in {path}"
    catalog = {claim.id: claim.kinds for claim in CLAIMS}
    assert sorted(set(rows) - set(catalog)) == [], "ids in CLAIMS.md missing from the catalog"
    assert sorted(set(catalog) - set(rows)) == [], "ids in the catalog missing from CLAIMS.md"
    assert {cid: kinds for cid, kinds in catalog.items()} == rows


def test_the_catalog_statements_are_transcribed_from_claims_md() -> None:
    path = _claims_md()
    rows = {cid: stmt.replace("\\|", "|") for cid, stmt, _ in ROW.findall(path.read_text("utf-8"))}
    for claim in CLAIMS:
        assert claim.statement == rows[claim.id], claim.id


def test_listed_not_checkable_items_of_claims_md_are_in_the_catalog() -> None:
    path = _claims_md()
    section = path.read_text(encoding="utf-8").split("## Listed, not checkable", 1)[-1]
    assert len(re.findall(r"^- ", section, re.M)) == len(NOT_CHECKABLE)
    for listed_id in re.findall(r"`([a-z_]+\.[a-z0-9_]+)`", section):
        assert listed_item(listed_id) is not None, listed_id


def test_each_sources_rows_sit_in_its_section_of_claims_md() -> None:
    text = _claims_md().read_text(encoding="utf-8")
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    for source in SOURCES:
        (section,) = [s for s in sections if s.startswith(f"{source.prefix}. ")]
        ids = [cid for cid, _, _ in ROW.findall(section)]
        assert ids == [c.id for c in CLAIMS if c.source is source], source.prefix
        assert f"`{source.prefix}.` | `{source.file}` |" in text, source.prefix


def test_the_package_exports_what_it_exported_before_the_claims_moved() -> None:
    before = [
        "CLAIMS",
        "NOT_CHECKABLE",
        "PROFILE_EXAMPLES",
        "CheckContext",
        "Claim",
        "ClaimResult",
        "Evidence",
        "ExactValue",
        "Kind",
        "ListedItem",
        "Profile",
        "RegisteredCheck",
        "Registry",
        "Report",
        "RunOptions",
        "Source",
        "Verdict",
        "certified_evidence",
        "check",
        "default_registry",
        "exact_instances",
        "exact_latex",
        "exact_repr",
        "exact_text",
        "exact_values",
        "exactly_equal",
        "limit_evidence",
        "not_checkable",
        "property_holds",
        "run_checks",
        "sharpness_evidence",
        "witness_evidence",
    ]
    assert set(before) <= set(proofs_check.__all__)  # later issues may add names
    for name in proofs_check.__all__:
        assert getattr(proofs_check, name) is not None, name
