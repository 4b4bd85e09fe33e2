"""Verdicts from evidence: a claim passes only if every listed kind passed."""

from __future__ import annotations

import pytest

from proofs_check.catalog import Claim, Source
from proofs_check.record import Evidence, PropertyStats
from proofs_check.task import CheckOutcome
from proofs_check.verdict import Verdict, decide, merge_shards

CLAIM = Claim("demo.c", Source("demo", "f", "t"), "Lemma", "s", ("E", "P"))
E_OK = Evidence("E", True, "exact")
P_OK = Evidence("P", True, "held")
P_BAD = Evidence("P", False, "failed", counterexample="0")
P_UNSURE = Evidence("P", None, "undecided")
NOTE = Evidence(None, None, "not checkable: lost", checkable=False)
W_OK = Evidence("W", True, "witness")

CASES = [
    ("every kind passed", [E_OK, P_OK], None, Verdict.PASSED),
    ("one failure", [E_OK, P_BAD], None, Verdict.FAILED),
    ("failure beats missing kinds", [P_BAD], None, Verdict.FAILED),
    ("missing kind", [E_OK], None, Verdict.NOT_CHECKABLE),
    ("no evidence", [], None, Verdict.NOT_CHECKABLE),
    ("not checkable note", [E_OK, P_OK, NOTE], None, Verdict.NOT_CHECKABLE),
    ("undecided part", [E_OK, P_UNSURE], None, Verdict.UNDECIDED),
    ("error", [], "ZeroDivisionError", Verdict.ERROR),
    ("undeclared kind", [E_OK, P_OK, W_OK], None, Verdict.ERROR),
]


@pytest.mark.parametrize(
    ("evidence", "error", "verdict"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_the_verdict_follows_from_the_evidence(
    evidence: list[Evidence], error: str | None, verdict: Verdict
) -> None:
    assert decide(CLAIM, evidence, error)[0] is verdict


def test_a_missing_kind_is_named_in_the_note() -> None:
    assert decide(CLAIM, [E_OK], None) == (Verdict.NOT_CHECKABLE, "no evidence of kind P yet")


def _property(passed: bool | None, tried: int, seed: int, counterexample: str | None = None):
    stats = PropertyStats(tried=tried, requested=100, undecided=0, seed=seed)
    return Evidence(
        "P", passed, f"shard {seed}", counterexample=counterexample, label="x*x >= 0", stats=stats
    )


def test_shards_sum_the_instances_of_a_property_over_the_seed_range() -> None:
    outcomes = [
        CheckOutcome("demo.c", shard, (E_OK, _property(True, 100, 5 + shard)), None, 0.1)
        for shard in (1, 0, 2)
    ]
    evidence, error = merge_shards(outcomes)
    assert error is None
    assert evidence[0] == E_OK
    merged = evidence[1]
    assert merged.stats == PropertyStats(tried=300, requested=300, undecided=0, seed=5, seeds=3)
    assert merged.summary == "x*x >= 0: held on 300 random exact instances (seeds 5–7)"


def test_a_failure_in_any_shard_is_kept_with_its_counterexample() -> None:
    outcomes = [
        CheckOutcome("demo.c", 0, (_property(True, 100, 0),), None, 0.1),
        CheckOutcome("demo.c", 1, (_property(False, 3, 1, "-1/2"),), None, 0.1),
    ]
    evidence, _ = merge_shards(outcomes)
    assert evidence[0].passed is False and evidence[0].counterexample == "-1/2"


def test_an_error_in_any_shard_is_reported_with_the_shard() -> None:
    outcomes = [
        CheckOutcome("demo.c", 0, (E_OK,), None, 0.1),
        CheckOutcome("demo.c", 1, (), "ValueError: boom", 0.1),
    ]
    assert merge_shards(outcomes) == ((), "ValueError: boom (shard 1)")


def test_a_proof_parts_domain_search_needs_no_kind_of_its_own_but_other_evidence_does() -> None:
    """A domain search (proofs_check.domain_search) is a proof part's companion, labelled
    DOMAIN_SEARCH_LABEL: a claim listing only E and C may return it; a plain P may not."""
    from proofs_check.record import DOMAIN_SEARCH_LABEL

    only_exact = Claim("demo.only_exact", CLAIM.source, "Only exact", "a statement", ("E",))
    searched = Evidence(
        "P", False, "x**2 <= x, at exact points of its domain", counterexample="x = 3/2",
        label=f"{DOMAIN_SEARCH_LABEL}x**2 <= x",
    )
    assert decide(only_exact, [E_OK, searched], None)[0] is Verdict.FAILED
    plain = Evidence("P", False, "a property", counterexample="x = 3/2", label="a property")
    verdict, note = decide(only_exact, [E_OK, plain], None)
    assert verdict is Verdict.ERROR and "does not list" in note


def test_merged_shards_of_a_domain_search_keep_its_wording() -> None:
    """A domain search is labelled "domain search: <part>" but worded "<part>, at exact points
    of its domain: ..."; the merge of shards words the merged summary from the stats."""
    import sympy

    from proofs_check.context import CheckContext
    from proofs_check.domain_search import domain_search_evidence

    x = sympy.Symbol("x")
    shards = [
        domain_search_evidence(
            CheckContext("demo.c", seed=seed, examples=10), "x**2 <= x", x**2, x,
            {x: sympy.Interval(0, 1)},
        )
        for seed in (0, 1)
    ]
    outcomes = [CheckOutcome("demo.c", k, (item,), None, 0.1) for k, item in enumerate(shards)]
    (merged,), error = merge_shards(outcomes)
    assert error is None and merged.passed is True
    assert merged.summary.startswith("x**2 <= x, at exact points of its domain: held on")
    assert merged.stats is not None and merged.stats.seeds == 2
