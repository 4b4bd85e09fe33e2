"""The catalog matches CLAIMS.md and is well-formed."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from proofs_check.catalog import (
    CLAIMS,
    KINDS,
    NOT_CHECKABLE,
    SOURCES,
    catalog_claim,
    listed_item,
)


def _claims_md() -> Path | None:
    candidates = [
        os.environ.get("EXACTPML_CLAIMS_MD", ""),
        str(Path(__file__).resolve().parents[2].parent / "shared" / "CLAIMS.md"),
        "/work/shared/CLAIMS.md",
    ]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


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
    if path is None:
        pytest.skip("CLAIMS.md not found (set EXACTPML_CLAIMS_MD)")
    text = path.read_text(encoding="utf-8")
    rows = {cid: tuple(k.strip() for k in kinds.split(",")) for cid, _, kinds in ROW.findall(text)}
    assert rows, f"no claim rows found in {path}"
    catalog = {claim.id: claim.kinds for claim in CLAIMS}
    assert sorted(set(rows) - set(catalog)) == [], "ids in CLAIMS.md missing from the catalog"
    assert sorted(set(catalog) - set(rows)) == [], "ids in the catalog missing from CLAIMS.md"
    assert {cid: kinds for cid, kinds in catalog.items()} == rows


def test_the_catalog_statements_are_transcribed_from_claims_md() -> None:
    path = _claims_md()
    if path is None:
        pytest.skip("CLAIMS.md not found (set EXACTPML_CLAIMS_MD)")
    rows = {cid: stmt.replace("\\|", "|") for cid, stmt, _ in ROW.findall(path.read_text("utf-8"))}
    for claim in CLAIMS:
        assert claim.statement == rows[claim.id], claim.id


def test_listed_not_checkable_items_of_claims_md_are_in_the_catalog() -> None:
    path = _claims_md()
    if path is None:
        pytest.skip("CLAIMS.md not found (set EXACTPML_CLAIMS_MD)")
    section = path.read_text(encoding="utf-8").split("## Listed, not checkable", 1)[-1]
    assert len(re.findall(r"^- ", section, re.M)) == len(NOT_CHECKABLE)
    for listed_id in re.findall(r"`([a-z_]+\.[a-z0-9_]+)`", section):
        assert listed_item(listed_id) is not None, listed_id
