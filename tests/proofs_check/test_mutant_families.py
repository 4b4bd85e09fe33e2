"""Mutant families: every check of the default registry declares at least three mutants, and
every mutant FAILS at the quick profile for each of the seeds 0-2 with an exact
counterexample (issue 11: "a check that cannot fail is a defect", whatever the seed).

Search power (issue 24, item 4): a fourth run per mutant, at the default profile (seed 0),
leaves every property's given instances out (``search_only``) and requires the search alone
(small scopes and Hypothesis) to kill the mutant, except the misses listed in
``SEARCH_MISSES`` with the reason for each; a listed mutant the search now kills must be
deleted from the list.  The README states the rate these give (at least 95%).

One run per mutant and seed: 124 mutants, 496 check runs (marked slow).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from proofs_check import RunOptions, Verdict, run_checks
from proofs_check.registry import default_registry, load_claim_modules
from proofs_check.search_power import search_power

load_claim_modules()

MIN_MUTANTS = 3
SEEDS = (0, 1, 2)
SEARCH_SEED = 0
SEARCH_PROFILE = "default"

AWAITING_MUTANTS: frozenset[str] = frozenset()
"""Claims whose checks declare fewer than three mutants (expected to fail here, non-strictly);
empty since every check has its family."""


def _marks(claim_id: str) -> tuple[Any, ...]:
    if claim_id in AWAITING_MUTANTS:
        return (pytest.mark.xfail(strict=False, reason=f"{claim_id}: mutants being added"),)
    return ()


# The built-in sources' checks only: other tests register user claims (``mylab.*``) in the
# default registry of the same process.
BUILT_IN = [
    registered
    for registered in default_registry.checks()
    if registered.claim.id.split(".")[0] in {"pml", "vadhan", "pk", "bldp"}
]
CHECKS = [
    pytest.param(registered.claim.id, marks=_marks(registered.claim.id), id=registered.claim.id)
    for registered in BUILT_IN
]
# One test item per (mutant, seed): the slowest families (pml.thm_4_x, ~25 s per seed) spread
# over the xdist workers instead of holding one worker for ~100 s at the end of the run.
MUTANTS = [
    pytest.param(
        registered.claim.id,
        mutant,
        seed,
        marks=_marks(registered.claim.id),
        id=f"{registered.claim.id}[{mutant}]-seed{seed}",
    )
    for registered in BUILT_IN
    for mutant in registered.mutant_names
    for seed in SEEDS
]


@pytest.mark.parametrize("claim_id", CHECKS)
def test_every_check_declares_at_least_three_mutants(claim_id: str) -> None:
    registered = default_registry.get(claim_id)
    assert registered is not None
    assert len(registered.mutant_names) >= MIN_MUTANTS, (
        f"{claim_id} declares {len(registered.mutant_names)} mutants "
        f"({', '.join(registered.mutant_names)}); at least {MIN_MUTANTS} are required"
    )


@pytest.mark.slow
@pytest.mark.parametrize(("claim_id", "mutant", "seed"), MUTANTS)
def test_every_mutant_fails_for_each_seed_with_an_exact_counterexample(
    claim_id: str, mutant: str, seed: int
) -> None:
    options = RunOptions(workers=1, profile="quick", seed=seed, mutant=mutant)
    (result,) = run_checks([claim_id], options=options).results
    assert result.verdict is Verdict.FAILED, (
        f"{claim_id} gave {result.verdict} on its mutant {mutant!r} with seed {seed} "
        f"({result.note}): a check that cannot fail is a defect"
    )
    assert result.counterexample is not None and result.counterexample.strip()


# Why the search alone misses these mutants (at the default profile, seed 0, as issue 24 asks;
# measured with ``python -m proofs_check.search_power``).  Issue 24's target is 95%.
_LIMIT = "a statement about a limit or its attainment (t -> 0+, y -> oo): no finite instance refutes it; the limit engine kills it on the check's constructions"
SEARCH_MISSES: dict[str, str] = {
    "pml.thm_3_4[attained_at_finite_y]": _LIMIT,
    "pml.ex_3_1[boundary_limit_zero]": _LIMIT,
    "pml.ex_3_1[interior_limit_log2]": _LIMIT,
}


SEARCH_PARAMS = [
    pytest.param(registered.claim.id, mutant, id=f"{registered.claim.id}[{mutant}]")
    for registered in BUILT_IN
    for mutant in registered.mutant_names
]


@pytest.mark.slow
@pytest.mark.parametrize(("claim_id", "mutant"), SEARCH_PARAMS)
def test_the_search_alone_kills_every_mutant_but_the_listed_misses(
    claim_id: str, mutant: str
) -> None:
    (row,) = search_power([claim_id], profile=SEARCH_PROFILE, seed=SEARCH_SEED, mutants=[mutant])
    key = f"{claim_id}[{mutant}]"
    if key in SEARCH_MISSES:
        assert row.kill != "search", (
            f"{key} is now killed by the search: delete it from SEARCH_MISSES"
        )
    else:
        assert row.kill == "search", (
            f"{key}: the search alone did not kill it ({row.kill}; failed: {row.failed}; "
            f"{row.error or ''}); make the search find it, or list it with the reason"
        )


def test_the_readme_states_the_search_alone_rate() -> None:
    total = len(SEARCH_PARAMS)
    killed = total - len(SEARCH_MISSES)
    assert killed / total >= 0.95, "issue 24: at least 95% by search alone"
    assert set(SEARCH_MISSES) <= {f"{p.values[0]}[{p.values[1]}]" for p in SEARCH_PARAMS}
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    rate = f"{killed} of {total} mutants ({100 * killed / total:.0f}%)"
    assert rate in readme, rate


def test_awaiting_mutants_names_only_registered_claims() -> None:
    registered = {check.claim.id for check in default_registry.checks()}
    assert AWAITING_MUTANTS <= registered
