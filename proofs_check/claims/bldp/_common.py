"""Strategies and helpers shared by the ``bldp.*`` checks (Ligett, Peale, Reingold,
*Bounded-Leakage Differential Privacy*): random models, the ranges of e^ε and δ, and an exact
rendering of an instance for counterexamples.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from exactpml import Distribution
from exactpml import strategies as xst
from exactpml.bldp import BoundedLeakageModel
from proofs_check import Evidence
from proofs_check.reference.bldp import describe_model

__all__ = ["DELTAS", "MODELS", "RATIOS", "explain", "models", "pinned"]


RATIOS = st.one_of(st.just(Fraction(1)), xst.fractions(min_value=1, max_value=4, max_denominator=6))
"""e^ε for the properties: ε = 0 often, else e^ε a rational in [1, 4]."""


DELTAS = xst.fractions(min_value=0, max_value=1, max_denominator=12)


def models(databases: Sequence[Hashable] | None = None) -> st.SearchStrategy[BoundedLeakageModel]:
    """exactpml's random models, half of them on uniform randomness with 2 to 4 values (where
    the coupling of M and P through r, which the mutants exploit, shows most often)."""
    uniform = st.integers(2, 4).map(lambda n: Distribution({r: Fraction(1, n) for r in range(n)}))
    return st.one_of(
        xst.bounded_leakage_models(databases=databases, max_randomness=4),
        uniform.flatmap(lambda r: xst.bounded_leakage_models(databases=databases, randomness=r)),
    )


MODELS = models()


def explain(instance: Any) -> str:
    """Every model in the instance, with its exact tables; the other parts as they are."""
    parts = instance if isinstance(instance, tuple) else (instance,)
    shown = []
    for part in parts:
        if isinstance(part, BoundedLeakageModel):
            shown.append(describe_model(part))
        else:
            shown.append(repr(part) if not isinstance(part, Fraction) else str(part))
    return " | ".join(shown)


def pinned(
    instances: Sequence[tuple[str, Any]],
    holds: Any,
    *,
    describe: str,
    explain: Any = None,
    kind: Any = "P",
) -> Evidence:
    """The property ``holds`` on pinned instances, named: the regime a statement is sharp in
    (or a mutant shows), which random generation may miss.  Fails on the first instance where
    ``holds`` is False, with its exact rendering."""
    undecided = []
    label = f"{describe} (pinned instances)"
    for name, instance in instances:
        verdict = holds(instance)
        if verdict is False:
            shown = explain(instance) if explain is not None else repr(instance)
            return Evidence(
                kind,
                False,
                f"{describe}: failed on the pinned instance {name}",
                counterexample=f"{name}: {shown}",
                label=label,
            )
        if verdict is None:
            undecided.append(name)
    count = f"{len(instances)} pinned instance" + ("s" if len(instances) != 1 else "")
    names = "; ".join(name for name, _ in instances)
    if undecided:
        return Evidence(
            kind,
            None,
            f"{describe}: undecided on {', '.join(undecided)} of {count} ({names})",
            label=label,
        )
    return Evidence(kind, True, f"{describe}: held on {count} ({names})", label=label)
