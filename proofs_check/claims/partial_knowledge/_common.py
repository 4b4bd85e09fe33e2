"""Strategies and helpers shared by the ``pk.*`` checks (thesis *Lowering the cost of
anonymization*, §3.1.3): the ranges of e^ε and δ, random settings with a mechanism, the
reference's δ_A(b) by the PLRV form of Def 57, and the quantifier "every t ≠ t′" of Defs
57/58 (:func:`every_pair_settings`: one setting per pair of values of D(i); exactpml's δ's
for a setting are maxima over both orders of its pair).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from exactpml import Distribution, Mechanism
from exactpml import strategies as xst
from exactpml.partial_knowledge import PartialKnowledge
from proofs_check import Evidence
from proofs_check.reference import (
    ConditionalLaws,
    describe_mechanism,
    describe_setting,
    hockey_stick_by_plrv,
)

__all__ = [
    "DELTAS",
    "RATIOS",
    "every_pair_settings",
    "explain_setting",
    "neighbouring",
    "phi_verified",
    "pinned",
    "reference_deltas",
    "row_of",
    "settings_with_mechanism",
    "thresholded_kernel",
    "votes",
]


RATIOS = st.one_of(st.just(Fraction(1)), xst.fractions(min_value=1, max_value=4, max_denominator=6))
"""e^ε for the properties: ε = 0 often, else e^ε a rational in [1, 4]."""


DELTAS = xst.fractions(min_value=0, max_value=1, max_denominator=12)


def neighbouring(databases: Sequence[Any]) -> list[tuple[Any, Any]]:
    """Ordered pairs of database tuples differing in exactly one record."""
    return [
        (x, y)
        for x in databases
        for y in databases
        if len(x) == len(y) and sum(a != b for a, b in zip(x, y, strict=True)) == 1
    ]


def row_of(mechanism: Mechanism, x: Hashable) -> dict[Hashable, Fraction]:
    """The row p(· | x) of a rational kernel as ``{output: Fraction}``."""
    return {o: Fraction(p) for o, p in mechanism.row(x).items()}


@st.composite
def settings_with_mechanism(
    draw: st.DrawFn, *, max_records: int = 3
) -> tuple[PartialKnowledge, Mechanism, Fraction]:
    """A random setting (exactpml's strategy), a mechanism on it and e^ε."""
    setting = draw(xst.partial_knowledge_settings(max_records=max_records))
    mechanism = draw(xst.setting_mechanisms(setting))
    return setting, mechanism, draw(RATIOS)


def explain_setting(instance: tuple[Any, ...]) -> str:
    """A setting-and-mechanism instance, exactly, for a counterexample."""
    setting, mechanism, *rest = instance
    extra = ", ".join(str(v) for v in rest)
    return f"{describe_setting(setting)}; M = {describe_mechanism(mechanism)}; {extra}"


def reference_deltas(laws: ConditionalLaws, ratio: Fraction) -> dict[Hashable, Fraction]:
    """δ_A(b) for every knowledge value b, by the PLRV form of Def 57 on the reference laws."""
    return {
        b: hockey_stick_by_plrv(laws.value[b], laws.alternative[b], ratio) for b in laws.weights
    }


def phi_verified(
    laws: ConditionalLaws, first: Hashable, second: Hashable, phi: dict[Hashable, Hashable]
) -> bool:
    """Def 59 for one pair, against the reference laws: φ injective on the union support U1
    of the laws given ``first``, P[o|x, first] = P[φ(o)|x, second] for x = t, t'."""
    support = {
        o for law in (laws.value[first], laws.alternative[first]) for o, p in law.items() if p
    }
    if len({phi[o] for o in support}) != len(support):
        return False
    zero = Fraction(0)
    return all(
        law[first].get(o, zero) == law[second].get(phi[o], zero)
        for law in (laws.value, laws.alternative)
        for o in support
    )


def every_pair_settings(setting: PartialKnowledge) -> list[PartialKnowledge]:
    """The setting with (t, t′) replaced by every pair of distinct possible values of D(i)
    (the same records, target and knowledge): Defs 57/58 quantify over every t ≠ t′, and
    exactpml's δ's for one setting cover both orders of its pair."""
    values = [v for v, p in setting.records[setting.target].items() if p]
    result = []
    for t, other in itertools.combinations(values, 2):
        if setting.known is not None:
            result.append(
                PartialKnowledge(
                    setting.records,
                    target=setting.target,
                    value=t,
                    alternative=other,
                    known=setting.known,
                )
            )
        else:
            result.append(
                PartialKnowledge(
                    setting.records,
                    target=setting.target,
                    value=t,
                    alternative=other,
                    knowledge=setting.knowledge_of,
                )
            )
    return result


def thresholded_kernel(voters: int, threshold: int) -> Mechanism:
    """The thresholded Yes count on ("No", "Yes")^voters as an explicit kernel, written from
    the thesis's text (release #Yes iff it exceeds ``threshold``, else ⊥), independently of
    exactpml's counting mechanisms."""
    rows: dict[Hashable, dict[Hashable, int]] = {}
    for database in itertools.product(("No", "Yes"), repeat=voters):
        count = database.count("Yes")
        rows[database] = {count if count > threshold else "⊥": 1}
    return Mechanism(rows)


def votes(p: Fraction) -> Distribution:
    """A vote, Yes with probability ``p``."""
    return Distribution({"No": 1 - p, "Yes": p})


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
