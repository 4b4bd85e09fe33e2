"""Strategies and helpers shared by the ``pk.*`` checks (thesis *Lowering the cost of
anonymization*, §3.1.3): the ranges of e^ε and δ, random settings with a mechanism, and the
reference's δ_A(b) by the PLRV form of Def 57.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from exactpml import Mechanism
from exactpml import strategies as xst
from exactpml.partial_knowledge import PartialKnowledge
from proofs_check import CheckContext
from proofs_check.reference import (
    ConditionalLaws,
    describe_mechanism,
    describe_setting,
    hockey_stick_by_plrv,
)

__all__ = [
    "DELTAS",
    "RATIOS",
    "explain_setting",
    "neighbouring",
    "phi_verified",
    "reference_deltas",
    "row_of",
    "settings_with_mechanism",
    "smaller",
]


RATIOS = st.one_of(st.just(Fraction(1)), st.fractions(min_value=1, max_value=4, max_denominator=6))
"""e^ε for the properties: ε = 0 often, else e^ε a rational in [1, 4]."""


DELTAS = st.fractions(min_value=0, max_value=1, max_denominator=12)


def smaller(ctx: CheckContext, divisor: int) -> int:
    """Fewer instances for the heavier properties (sympy radicals, many settings)."""
    return max(10, ctx.examples // divisor)


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
