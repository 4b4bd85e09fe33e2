"""Search power (issue 24, item 4): what a search-alone run leaves out, and how kills are told.

``search_only`` leaves every property's given instances out (its small scope is inferred from
its strategy instead); ``kill_kind`` tells a kill by the search (an enumerator's small scope or
Hypothesis) from one by a proof engine or by the author's pinned instances.  The per-mutant
measurement over the catalog is in ``test_mutant_families.py`` (its search-alone seed).
"""

from __future__ import annotations

import pytest
from hypothesis import strategies as st

from exactpml import InvalidArgument
from proofs_check import CheckContext, RunOptions, property_holds
from proofs_check.record import Evidence, ProofRecord, PropertyStats, ScopeStats
from proofs_check.search_power import found_by_search, kill_kind, search_power
from proofs_check.small_scope import Layer, SmallScope


def _property(ctx: CheckContext) -> Evidence:
    # holds on the strategy's values 0..3; the given instance 7 is outside them
    return property_holds(
        ctx,
        st.integers(0, 3),
        lambda x: x < 5,
        describe="x < 5",
        small_scope=[7],
    )


def test_a_given_instance_kills_normally_but_not_in_a_search_alone_run() -> None:
    normal = _property(CheckContext("mylab.given", profile="quick", examples=20))
    assert normal.passed is False
    assert normal.stats is not None and normal.stats.scope is not None
    assert normal.stats.scope.description == "the given instances"
    assert not found_by_search(normal) and kill_kind([normal]) == "pinned"
    alone = _property(CheckContext("mylab.given", profile="quick", examples=20, search_only=True))
    assert alone.passed is True  # random draws in 0..3 only
    # st.integers is not an exactpml strategy: no small scope is inferred, and the note says so
    assert alone.stats is not None and alone.stats.scope is None
    assert "not one exactpml can enumerate" in alone.stats.scope_note
    assert kill_kind([alone]) == "survived"


def test_the_search_finds_what_the_strategy_can_produce() -> None:
    evidence = property_holds(
        CheckContext("mylab.search", profile="quick", examples=20, search_only=True),
        st.integers(0, 9),
        lambda x: x < 5,
        describe="x < 5",
        small_scope=[1],
    )
    assert evidence.passed is False and evidence.counterexample
    assert found_by_search(evidence) and kill_kind([evidence]) == "search"


def test_a_scope_of_the_statements_range_is_search_and_the_same_values_given_are_not() -> None:
    def run(small_scope: object) -> Evidence:
        return property_holds(
            CheckContext("mylab.range", profile="quick", examples=20, search_only=True),
            st.integers(0, 3),
            lambda x: x < 5,
            describe="x < 5",
            small_scope=small_scope,  # type: ignore[arg-type]
        )

    stated = SmallScope(
        "the statement's stated range x in {6, 7}", [Layer("x in {6, 7}", 2, lambda: [6, 7])]
    )
    searched = run(stated)
    assert searched.passed is False and found_by_search(searched)
    assert kill_kind([searched]) == "search"
    given = run([6, 7])  # the same values, hand-picked: left out of a search-alone run
    assert given.passed is True and kill_kind([given]) == "survived"


def _failed(kind: str, **fields: object) -> Evidence:
    return Evidence(kind, False, "s", counterexample="x = 1", **fields)  # type: ignore[arg-type]


def test_kill_kinds_are_told_apart_search_before_prover_before_pinned() -> None:
    hypothesis = PropertyStats(3, 20, 0, 0, found_by="hypothesis")
    enumerated = PropertyStats(
        0,
        20,
        0,
        0,
        found_by="small-scope",
        scope=ScopeStats("every 2x2 kernel", 4, 0, 0, 16, 100, False),
    )
    given = PropertyStats(
        0,
        20,
        0,
        0,
        found_by="small-scope",
        scope=ScopeStats("the given instances", 1, 0, 0, 1, 100, False),
    )
    refuted = ProofRecord("p", "every x", "refuted", "z3 nlsat", "model")
    assert kill_kind([_failed("P", stats=hypothesis)]) == "search"
    assert kill_kind([_failed("P", stats=enumerated), _failed("E")]) == "search"
    assert kill_kind([_failed("P", stats=given)]) == "pinned"
    assert kill_kind([_failed("C", proof=refuted), _failed("P", stats=given)]) == "prover"
    assert kill_kind([_failed("L"), _failed("W")]) == "pinned"
    assert kill_kind([Evidence("E", True, "held")]) == "survived"


def test_search_only_must_be_a_bool() -> None:
    with pytest.raises(InvalidArgument, match="search_only"):
        RunOptions(search_only="yes")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="search_only"):
        CheckContext("mylab.x", search_only=1)  # type: ignore[arg-type]


def test_search_power_classifies_one_claims_mutants() -> None:
    rows = search_power(["vadhan.claim_1"], profile="quick")
    assert {row.mutant for row in rows} == {"same_epsilon", "strict_factor_two", "three_halves"}
    assert all(row.kill in ("search", "prover") for row in rows), rows
