"""The mutant families of the vadhan.*, pk.* and bldp.* claims (issue 11).

Every claim of the three sources declares at least three mutants (that each FAILS for the
seeds 0 to 3 is tested for every source in ``test_mutant_families.py``), and every inequality
claim reports whether its bound is attained (a sharpness finding).
"""

from __future__ import annotations

import pytest

from proofs_check import RunOptions, Verdict, run_checks
from proofs_check.registry import default_registry, load_claim_modules

load_claim_modules()

PREFIXES = ("vadhan.", "pk.", "bldp.")
CHECKS = [
    registered
    for registered in default_registry.checks()
    if registered.claim.id.startswith(PREFIXES)
]

INEQUALITY_CLAIMS = (
    "vadhan.statistical_difference",
    "vadhan.case_1",
    "vadhan.claim_1",
    "vadhan.prop_1",
    "vadhan.prop_2",
    "pk.thm_1",
    "pk.ex_7",
    "pk.prop_25",
    "bldp.post_processing",
    "bldp.composition",
    "bldp.group_privacy",
    "bldp.independent_leakage",
    "bldp.non_participation",
)


def test_the_three_sources_have_21_checks_with_three_mutants_or_more() -> None:
    counts = {prefix: 0 for prefix in PREFIXES}
    for registered in CHECKS:
        counts[registered.claim.id.split(".")[0] + "."] += 1
        assert len(registered.mutants) >= 3, registered.claim.id
    assert counts == {"vadhan.": 6, "pk.": 8, "bldp.": 7}


@pytest.mark.parametrize("claim_id", INEQUALITY_CLAIMS)
def test_every_inequality_claim_reports_its_sharpness(claim_id: str) -> None:
    (result,) = run_checks([claim_id], options=RunOptions(workers=1, profile="quick")).results
    assert result.verdict in (Verdict.PASSED, Verdict.PROVED), result.note
    findings = [item for item in result.evidence if item.finding]
    sharpness = [item for item in findings if item.strengthening is None]
    assert sharpness and all(item.summary.startswith("sharpness: ") for item in sharpness)
    # a strengthening is a finding only when the engine proved it ("not sharp")
    for item in findings:
        if item.strengthening is not None:
            assert item.strengthening.status == "not sharp"
            assert item.summary.startswith("not sharp: the stronger statement ")


@pytest.mark.parametrize("claim_id", INEQUALITY_CLAIMS)
def test_every_inequality_claim_runs_its_strengthenings_through_the_engines(
    claim_id: str,
) -> None:
    registered = default_registry.get(claim_id)
    assert registered is not None and registered.strengthenings, claim_id
    (result,) = run_checks([claim_id], options=RunOptions(workers=1, profile="quick")).results
    ran = {
        item.strengthening.name: item.strengthening.status
        for item in result.evidence
        if item.strengthening is not None
    }
    assert set(ran) == {name for name, _ in registered.strengthenings}
    assert set(ran.values()) <= {"sharp", "not sharp", "open"}
