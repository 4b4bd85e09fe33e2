"""The generic mutant harness: every registered check catches every one of its mutants.

For every (registered claim, mutant) of the demo registries (the default registry's, all
modules of ``proofs_check.claims``, for four seeds in ``test_mutant_families.py``), running the check with the mutant
must give FAILED with a non-empty exact counterexample: a check that passes its mutant
cannot fail, which is a defect.  Un-mutated, every check must PASS (or be PROVED: a proof
engine certified a part over a stated domain, which is stronger) under the quick profile,
except checks that declare the source's statement false (``known_false``), which must FAIL
with their counterexample.
"""

from __future__ import annotations

import pc_demo_claims
import pytest

from proofs_check import Registry, RunOptions, Verdict, run_checks
from proofs_check.registry import default_registry, load_claim_modules

load_claim_modules()

REGISTRIES: dict[str, Registry] = {
    "default": default_registry,
    "demo": pc_demo_claims.demo_registry,
    "false": pc_demo_claims.false_registry,
}

# The default registry's mutants run for seeds 0-3 in test_mutant_families.py; here only
# the demo registries' (seed 0), so that no check run is repeated.
MUTANTS = [
    (name, registered.claim.id, mutant)
    for name, registry in REGISTRIES.items()
    if name != "default"
    for registered in registry.checks()
    for mutant in registered.mutant_names
]
CHECKS = [
    (name, registered.claim.id)
    for name, registry in REGISTRIES.items()
    for registered in registry.checks()
]


@pytest.mark.parametrize(
    ("registry_name", "claim_id", "mutant"),
    MUTANTS,
    ids=[f"{claim_id}[{mutant}]" for _, claim_id, mutant in MUTANTS],
)
def test_every_mutant_fails_with_an_exact_counterexample(
    registry_name: str, claim_id: str, mutant: str
) -> None:
    options = RunOptions(workers=1, profile="quick", mutant=mutant)
    (result,) = run_checks([claim_id], options=options, registry=REGISTRIES[registry_name]).results
    assert result.verdict is Verdict.FAILED, (
        f"{claim_id} gave {result.verdict} on its mutant {mutant!r} ({result.note}): a check "
        "that cannot fail is a defect"
    )
    assert result.counterexample is not None and result.counterexample.strip()


@pytest.mark.parametrize(
    ("registry_name", "claim_id"), CHECKS, ids=[claim_id for _, claim_id in CHECKS]
)
def test_every_registered_check_passes_unmutated_under_the_quick_profile(
    registry_name: str, claim_id: str
) -> None:
    registry = REGISTRIES[registry_name]
    registered = registry.get(claim_id)
    assert registered is not None
    options = RunOptions(workers=1, profile="quick")
    (result,) = run_checks([claim_id], options=options, registry=registry).results
    if registered.known_false is None:
        # PROVED: passed, and a proof engine certified the statement (or a named part)
        assert result.verdict in (Verdict.PASSED, Verdict.PROVED), (
            f"{claim_id}: {result.verdict} {result.note}"
        )
    else:
        assert result.verdict is Verdict.FAILED, f"{claim_id} is known false but {result.verdict}"
        assert result.counterexample
        assert result.note.startswith("the source's statement is false as written: ")


def test_the_harness_covers_every_demo_mutant() -> None:
    demo = [(claim, mutant) for name, claim, mutant in MUTANTS if name == "demo"]
    assert len(demo) == 6
