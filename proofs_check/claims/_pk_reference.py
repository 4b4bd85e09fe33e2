"""Reference computations for the ``pk.*`` checks, by enumeration from the definitions.

Independent of :mod:`exactpml.partial_knowledge` (which the checks test): the conditional
laws P[o | D(i)=x, B=b] are summed here database by database, the PLRV form of Def 57 is
evaluated term by term as written (``E[max(0, 1 - e^{ε-L})]``, ``L = +oo`` counting 1), and
the set form of Prop 8 as a maximum over every subset of outputs.  Only rational inputs
(the strategies' instances); every value is a ``Fraction``.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from exactpml import Distribution, Mechanism
from exactpml.partial_knowledge import PartialKnowledge

__all__ = [
    "ConditionalLaws",
    "conditional_laws",
    "def_58_quantity",
    "describe_mechanism",
    "describe_setting",
    "plrv_form",
    "set_form",
]

Law = dict[Hashable, Fraction]


def plrv_form(
    p: Mapping[Hashable, Fraction], q: Mapping[Hashable, Fraction], ratio: Fraction
) -> Fraction:
    """``E_{O~p}[max(0, 1 - e^ε / e^{L(O)})]`` with ``e^{L(o)} = p_o/q_o`` (``+oo`` if q_o = 0)."""
    total = Fraction(0)
    for o, p_o in p.items():
        if p_o == 0:
            continue
        q_o = q.get(o, Fraction(0))
        inner = Fraction(1) if q_o == 0 else max(Fraction(0), 1 - ratio * q_o / p_o)
        total += p_o * inner
    return total


def set_form(
    p: Mapping[Hashable, Fraction],
    q: Mapping[Hashable, Fraction],
    ratio: Fraction,
    *,
    largest: int | None = None,
) -> Fraction:
    """``max_S p(S) - e^ε q(S)`` over every subset S of the outputs (of size ≤ ``largest``)."""
    outputs = list(dict.fromkeys([*p, *q]))
    top = len(outputs) if largest is None else min(largest, len(outputs))
    best = Fraction(0)  # S = ∅
    for size in range(1, top + 1):
        for event in itertools.combinations(outputs, size):
            value = sum(
                (p.get(o, Fraction(0)) - ratio * q.get(o, Fraction(0)) for o in event), Fraction(0)
            )
            best = max(best, value)
    return best


@dataclass(frozen=True, slots=True)
class ConditionalLaws:
    """P[B=b | D(i)=x] and P[o | D(i)=x, B=b] for x = t (``value``) and x = t' (``alternative``)."""

    weights: dict[Hashable, Fraction]
    value: dict[Hashable, Law]
    alternative: dict[Hashable, Law]
    by_database: tuple[tuple[tuple[Hashable, ...], Fraction, Hashable], ...]
    """(d, P[D=d | D(i)=t], B(d)) over the databases with D(i) = t of positive probability."""


def conditional_laws(setting: PartialKnowledge, mechanism: Mechanism) -> ConditionalLaws:
    """The conditional output laws of ``mechanism`` in ``setting``, summed database by database."""
    i = setting.target
    laws: dict[Hashable, dict[Hashable, Law]] = {}
    masses: dict[Hashable, dict[Hashable, Fraction]] = {}
    rows: list[tuple[tuple[Hashable, ...], Fraction, Hashable]] = []
    for x in (setting.value, setting.alternative):
        joint: dict[Hashable, Law] = {}
        mass: dict[Hashable, Fraction] = {}
        supports = [(x,) if j == i else record.support for j, record in enumerate(setting.records)]
        for database in itertools.product(*supports):
            weight = Fraction(1)
            for j, v in enumerate(database):
                if j != i:
                    weight *= Fraction(setting.records[j][v])
            b = setting.knowledge_of(database)
            mass[b] = mass.get(b, Fraction(0)) + weight
            row = joint.setdefault(b, {})
            for o, p in mechanism.row(database).items():
                if p:
                    row[o] = row.get(o, Fraction(0)) + weight * Fraction(p)
            if x == setting.value:
                rows.append((database, weight, b))
        laws[x] = {b: {o: v / mass[b] for o, v in joint[b].items()} for b in joint}
        masses[x] = mass
    return ConditionalLaws(
        masses[setting.value], laws[setting.value], laws[setting.alternative], tuple(rows)
    )


def def_58_quantity(laws: ConditionalLaws, mechanism: Mechanism, ratio: Fraction) -> Fraction:
    """Def 58 as written: E over D ~ θ | D(i)=t and O ~ M(D) of max(0, 1 - e^{ε - L(O, B(D))}).

    Summed database by database (not grouped by knowledge value), so it does not presuppose
    Thm 1's decomposition.
    """
    total = Fraction(0)
    for database, weight, b in laws.by_database:
        p, q = laws.value[b], laws.alternative[b]
        for o, m in mechanism.row(database).items():
            if not m:
                continue
            q_o = q.get(o, Fraction(0))
            inner = Fraction(1) if q_o == 0 else max(Fraction(0), 1 - ratio * q_o / p[o])
            total += weight * Fraction(m) * inner
    return total


def _law_text(law: Distribution) -> str:
    return "{" + ", ".join(f"{v!r}: {p}" for v, p in law.items()) + "}"


def describe_setting(setting: PartialKnowledge) -> str:
    """The setting's exact data: record laws, target, t, t' and the knowledge."""
    records = "; ".join(f"D({j}) ~ {_law_text(r)}" for j, r in enumerate(setting.records))
    if setting.known is not None:
        knowledge = f"B = records {list(setting.known)}"
    else:
        databases = itertools.product(*(r.support for r in setting.records))
        knowledge = "B = " + ", ".join(f"{d!r}->{setting.knowledge_of(d)!r}" for d in databases)
    return (
        f"{records}; i = {setting.target}, t = {setting.value!r}, t' = {setting.alternative!r}; "
        f"{knowledge}"
    )


def describe_mechanism(mechanism: Mechanism) -> str:
    """The kernel's non-zero entries, exactly."""
    return repr(mechanism)
