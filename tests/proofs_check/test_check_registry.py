"""The registry: checks attach to catalog ids or to users' own claims, always with mutants."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from exactpml.errors import InvalidArgument
from proofs_check.catalog import CLAIMS, NOT_CHECKABLE, catalog_claim
from proofs_check.context import CheckContext
from proofs_check.record import Evidence
from proofs_check.registry import Registry, check, default_registry, load_claim_modules

USER = {"source": "my notes", "result": "Lemma 1", "statement": "1 = 1", "kinds": "E"}


def a_check(ctx: CheckContext) -> list[Evidence]:
    return []


def test_a_catalog_claim_takes_its_statement_from_the_catalog() -> None:
    registry = Registry()
    decorated = check("pml.thm_3_5", mutants={"shifted": "bound + 1/10"}, registry=registry)(
        a_check
    )
    assert decorated is a_check
    registered = registry.get("pml.thm_3_5")
    assert registered is not None
    assert registered.claim is catalog_claim("pml.thm_3_5")
    assert registered.mutants == (("shifted", "bound + 1/10"),)
    assert registered.target == f"{__name__}:a_check"
    assert registered.importable


def test_a_user_claim_is_registered_with_its_explicit_fields() -> None:
    registry = Registry()
    registry.check("mylab.lemma_1", mutants={"m": "2 = 1"}, **USER)(a_check)
    claim = registry.claim("mylab.lemma_1")
    assert claim is not None
    assert (claim.source.title, claim.result, claim.statement, claim.kinds) == (
        "my notes",
        "Lemma 1",
        "1 = 1",
        ("E",),
    )
    assert [c.id for c in registry.claims()] == ["mylab.lemma_1"]


@pytest.mark.parametrize(
    ("kinds", "parsed"),
    [("PE", ("P", "E")), ("P, W, L", ("P", "W", "L")), (["C"], ("C",))],
    ids=["letters", "comma separated", "sequence"],
)
def test_kinds_can_be_given_as_letters_or_a_list(kinds: Any, parsed: tuple[str, ...]) -> None:
    registry = Registry()
    registry.check("mylab.k", mutants={"m": "m"}, **{**USER, "kinds": kinds})(a_check)
    claim = registry.claim("mylab.k")
    assert claim is not None and claim.kinds == parsed


BAD_REGISTRATIONS: list[tuple[str, str, dict[str, Any], str]] = [
    ("no mutant", "pml.thm_3_5", {"mutants": {}}, "at least one mutant"),
    ("mutants not a mapping", "pml.thm_3_5", {"mutants": ["m"]}, "mutants must be a mapping"),
    ("bad mutant name", "pml.thm_3_5", {"mutants": {"Bad Name": "x"}}, "mutant name"),
    ("empty mutant description", "pml.thm_3_5", {"mutants": {"m": " "}}, "description"),
    (
        "catalog claim with explicit fields",
        "pml.thm_3_5",
        {"mutants": {"m": "m"}, "statement": "other"},
        "is in the catalog",
    ),
    ("user claim without fields", "mylab.x", {"mutants": {"m": "m"}}, "not in the catalog"),
    (
        "user claim with a bad kind",
        "mylab.x",
        {"mutants": {"m": "m"}, **USER, "kinds": "PX"},
        "kind 'X'",
    ),
    (
        "user claim with a repeated kind",
        "mylab.x",
        {"mutants": {"m": "m"}, **USER, "kinds": "PP"},
        "twice",
    ),
    ("id without a prefix", "lemma", {"mutants": {"m": "m"}, **USER}, "prefix.name"),
    ("id with spaces", "my lab.x", {"mutants": {"m": "m"}, **USER}, "prefix.name"),
    (
        "empty known_false reason",
        "pml.thm_3_5",
        {"mutants": {"m": "m"}, "known_false": " "},
        "must say why",
    ),
    ("listed not checkable id", "pml.ex_3_2", {"mutants": {"m": "m"}, **USER}, "not checkable"),
]


@pytest.mark.parametrize(
    ("claim_id", "arguments", "message"),
    [case[1:] for case in BAD_REGISTRATIONS],
    ids=[case[0] for case in BAD_REGISTRATIONS],
)
def test_bad_registrations_are_refused_with_a_clear_message(
    claim_id: str, arguments: dict[str, Any], message: str
) -> None:
    registry = Registry()
    with pytest.raises(InvalidArgument, match=message):
        registry.check(claim_id, **arguments)(a_check)
    assert len(registry) == 0


def test_a_claim_cannot_be_registered_twice() -> None:
    registry = Registry()
    registry.check("pml.thm_3_5", mutants={"m": "m"})(a_check)
    with pytest.raises(InvalidArgument, match="already has a check"):
        registry.check("pml.thm_3_5", mutants={"m": "m"})(a_check)


def test_a_check_defined_in_a_function_is_not_importable_by_workers() -> None:
    registry = Registry()

    @registry.check("pml.thm_3_5", mutants={"m": "m"})
    def local(ctx: CheckContext) -> list[Evidence]:
        return []

    registered = registry.get("pml.thm_3_5")
    assert registered is not None and not registered.importable


def test_the_default_registry_reports_on_every_catalog_claim() -> None:
    ids = [claim.id for claim in default_registry.claims()]
    assert ids[: len(CLAIMS)] == [claim.id for claim in CLAIMS]
    assert default_registry.listed() == NOT_CHECKABLE


def test_a_test_registry_knows_only_its_own_checks() -> None:
    registry = Registry()
    assert registry.claims() == () and registry.listed() == ()
    registry.check("pml.thm_2_4", mutants={"m": "m"})(a_check)
    assert [claim.id for claim in registry.claims()] == ["pml.thm_2_4"]


def test_loading_the_claim_modules_imports_every_module_of_the_package() -> None:
    names = load_claim_modules()
    assert all(name.startswith("proofs_check.claims.") for name in names)


def test_a_broken_claim_module_is_named_when_loading_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "pc_broken_claims"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "good.py").write_text("X = 1\n")
    (package / "bad.py").write_text("import no_such_library_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ImportError, match=r"pc_broken_claims\.bad: No module named"):
        load_claim_modules("pc_broken_claims")
