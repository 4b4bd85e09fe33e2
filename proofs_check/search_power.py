"""Search power: how many mutants the search finds without the instances an author pinned.

Issue 24, item 4.  A check's evidence mixes what its author chose (exact instances from the
text, pinned instances "where the bound is attained", limit constructions, worked examples)
with what the machine finds by itself: the small-scope phase of a property (an enumerator
of every small mechanism, prior, database, ...) and Hypothesis' random exact instances.  A
mutant killed only by the first kind says little about how the tool would fare on a claim
whose author did not know where it breaks.

:func:`search_power` runs every declared mutant of the selected checks with
``search_only=True`` (:attr:`~proofs_check.context.CheckContext.search_only`: the given
instances of every property are left out and its small scope is inferred from its strategy)
and classifies each by :func:`kill_kind` of its failed evidence:

* ``"search"``: a property failed, found by a small-scope enumerator or by Hypothesis;
* ``"prover"``: no such property, but a proof engine refuted the mutated statement over its
  whole domain (Z3's model, a certified branch-and-bound point, an exhausted integer range):
  machine-found too, but not by search;
* ``"pinned"``: only the author's instances killed it;
* ``"survived"``: nothing failed.

**What counts as search.**  A small scope counts when it enumerates the *statement's own
domain*, not instances an author picked because they break something.  A statement proved
through a construction, or a remark about a family, is searched over its parameters
(Thm 4.3's (ε, δ), Remark 2's (n, k, p, ε), Ex 3.1's entry law and n).  A worked example's
statement has its stated numbers as its domain, so an enumerator of its stated parameter
range (Example 7's p in (0, 10^-4], with CLAIMS.md's p = 10^-4 one enumerated point, then
random exact p; Remark 2's instance over its free e^ε) is a search over that domain, and a
statement with no parameter at all would be a one-point scope of its own.  Such a scope is a
:class:`~proofs_check.small_scope.SmallScope` whose description names the statement's
parameters or range; a plain list of instances (described as
:data:`~proofs_check.properties.GIVEN_INSTANCES`) is always the author's choice and is left
out (``tests/proofs_check/test_search_power.py``).

``python -m proofs_check.search_power [--profile quick|default|thorough] [--seed N]`` prints
the table and the rates.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from proofs_check.context import PROFILE_EXAMPLES, CheckContext, Profile
from proofs_check.properties import GIVEN_INSTANCES
from proofs_check.record import Evidence
from proofs_check.registry import Registry, default_registry, load_claim_modules

__all__ = ["BUILT_IN_SOURCES", "KillKind", "MutantPower", "kill_kind", "search_power"]

KillKind = Literal["search", "prover", "pinned", "survived"]

BUILT_IN_SOURCES = frozenset({"pml", "vadhan", "pk", "bldp"})
"""The prefixes of the catalog's claims (``CLAIMS.md``)."""


def found_by_search(evidence: Evidence) -> bool:
    """Whether ``evidence`` is a failed property whose counterexample the search found: the
    small-scope phase of an enumerator (not a list of given instances) or Hypothesis."""
    stats = evidence.stats
    if evidence.kind != "P" or evidence.passed is not False or stats is None:
        return False
    if stats.found_by == "hypothesis":
        return True
    return (
        stats.found_by == "small-scope"
        and stats.scope is not None
        and stats.scope.description != GIVEN_INSTANCES
    )


def kill_kind(evidence: Iterable[Evidence]) -> KillKind:
    """What killed a mutant, from the evidence of its run (see the module docstring)."""
    failed = [item for item in evidence if item.passed is False]
    if any(found_by_search(item) for item in failed):
        return "search"
    if any(item.proof is not None and item.proof.status == "refuted" for item in failed):
        return "prover"
    return "pinned" if failed else "survived"


@dataclass(frozen=True)
class MutantPower:
    """One mutant's search-alone run: what killed it, the failed evidence's labels, and
    the run's seconds (``error``: the check raised, with the message)."""

    claim_id: str
    mutant: str
    kill: KillKind
    failed: tuple[str, ...]
    seconds: float
    error: str | None = None


def _labels(evidence: Sequence[Evidence]) -> tuple[str, ...]:
    return tuple(f"{item.kind}: {item.label or item.summary}"[:120] for item in evidence)


def search_power(
    claim_ids: Iterable[str] | None = None,
    *,
    profile: Profile = "default",
    seed: int = 0,
    registry: Registry | None = None,
    mutants: Iterable[str] | None = None,
) -> list[MutantPower]:
    """Run every declared mutant of ``claim_ids`` (default: the catalog's claims; only those
    named in ``mutants`` if given) with its given instances left out, in this process, and
    classify what killed it."""
    chosen = None if mutants is None else set(mutants)
    load_claim_modules()
    registry = default_registry if registry is None else registry
    wanted = None if claim_ids is None else set(claim_ids)
    rows: list[MutantPower] = []
    for registered in registry.checks():
        claim_id = registered.claim.id
        if wanted is None and claim_id.split(".")[0] not in BUILT_IN_SOURCES:
            continue
        if wanted is not None and claim_id not in wanted:
            continue
        for mutant in registered.mutant_names:
            if chosen is not None and mutant not in chosen:
                continue
            context = CheckContext(
                claim_id,
                seed=seed,
                examples=PROFILE_EXAMPLES[profile],
                profile=profile,
                mutant=mutant,
                search_only=True,
            )
            start = time.perf_counter()
            try:
                result = registered.function(context)
            except Exception as error:  # a check that raises kills nothing
                seconds = time.perf_counter() - start
                message = f"{type(error).__name__}: {error}"[:200]
                rows.append(MutantPower(claim_id, mutant, "survived", (), seconds, message))
                continue
            evidence = [result] if isinstance(result, Evidence) else list(result)
            failed = [item for item in evidence if item.passed is False]
            seconds = time.perf_counter() - start
            rows.append(
                MutantPower(claim_id, mutant, kill_kind(evidence), _labels(failed), seconds)
            )
    return rows


def _rate(count: int, total: int) -> str:
    return f"{count}/{total} ({100 * count / total:.1f}%)" if total else "0/0"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m proofs_check.search_power", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--profile", choices=sorted(PROFILE_EXAMPLES), default="default")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("claims", nargs="*", help="claim ids (default: the catalog's)")
    args = parser.parse_args(argv)
    rows = search_power(args.claims or None, profile=args.profile, seed=args.seed)
    for row in rows:
        detail = row.error or "; ".join(row.failed)
        print(f"{row.kill:8} {row.claim_id}[{row.mutant}] {row.seconds:.1f}s  {detail}"[:200])
    total = len(rows)
    search = sum(row.kill == "search" for row in rows)
    prover = sum(row.kill == "prover" for row in rows)
    print(f"\nkilled by search alone: {_rate(search, total)}")
    print(f"killed by search or a proof engine (machine-found): {_rate(search + prover, total)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
