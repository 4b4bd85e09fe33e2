"""Partial knowledge (active and passive), by enumeration from the definitions.

Thesis *Lowering the cost of anonymization*, §3.1.3 (Defs 56-59, Prop 8, Thm 1; restated in
``CLAIMS.md``, section ``pk.``).  Every law is recomputed database by database from the
record laws with plain ``Fraction`` arithmetic: the conditional laws P[o | D(i)=x, B=b], the
PLRV form of Def 57 term by term as written (``E[max(0, 1 - e^{ε-L})]``, ``L = +oo``
counting 1), the set form of Prop 8 as a maximum over every subset of outputs
(:mod:`proofs_check.reference.divergences`), Def 58 database by database, and Def 59's
injective maps by trying every one.  No code shared with :mod:`exactpml.partial_knowledge`
(only its setting, :class:`~exactpml.partial_knowledge.PartialKnowledge`, is read as data).

Defs 57 and 58 quantify over every t ≠ t': :func:`ordered_values` lists the ordered pairs
(both orders of the setting's two values, or every pair of possible values of D(i)), and
:func:`apkdp_by_definition` / :func:`ppkdp_by_definition` / :func:`epsilon_by_definition`
take the maximum over them.  Prop 25's operations are rebuilt here from their definitions:
:func:`post_processed` (o ↦ z by a kernel f) and :func:`mixed` (λ M1 + (1-λ) M2).

Two entry points: :func:`conditional_laws` reads a ``PartialKnowledge`` setting; the
functions of plain arguments (:func:`joint`, :func:`conditional_output`,
:func:`active_and_passive`, ...) take the record laws, a mechanism on database tuples and
the knowledge as a function.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactpml import Distribution, Mechanism
from exactpml.partial_knowledge import CountingMechanism, PartialKnowledge
from proofs_check.reference.divergences import hockey_stick_by_plrv, hockey_stick_by_sets

__all__ = [
    "ConditionalLaws",
    "Kernel",
    "Order",
    "active_and_passive",
    "apkdp_by_definition",
    "classical_delta",
    "conditional_laws",
    "conditional_output",
    "counting_kernel",
    "def_58_quantity",
    "delta_by_plrv",
    "describe_mechanism",
    "describe_setting",
    "epsilon_by_definition",
    "has_injective_map",
    "joint",
    "knowledge_law",
    "mixed",
    "ordered_values",
    "post_processed",
    "ppkdp_by_definition",
]

Order = tuple[Hashable, Hashable]
"""An ordered pair (t, t') of values of D(i): the attacker tells t from t'."""

delta_by_plrv = hockey_stick_by_plrv
"""δ_A's integrand as Def 57 writes it: the hockey-stick divergence in its PLRV form."""

Law = dict[Hashable, Fraction]


@dataclass(frozen=True, slots=True)
class ConditionalLaws:
    """P[B=b | D(i)=x] and P[o | D(i)=x, B=b] for x = t (``value``) and x = t' (``alternative``)."""

    weights: dict[Hashable, Fraction]
    value: dict[Hashable, Law]
    alternative: dict[Hashable, Law]
    by_database: tuple[tuple[tuple[Hashable, ...], Fraction, Hashable], ...]
    """(d, P[D=d | D(i)=t], B(d)) over the databases with D(i) = t of positive probability."""


def ordered_values(setting: PartialKnowledge, *, every_value: bool = False) -> list[Order]:
    """The ordered pairs (t, t') that Defs 57 and 58 quantify over ("every t ≠ t'").

    Both orders of the setting's two values; with ``every_value``, every ordered pair of
    distinct values of positive probability of D(i).
    """
    if not every_value:
        return [(setting.value, setting.alternative), (setting.alternative, setting.value)]
    values = [v for v, p in setting.records[setting.target].items() if p]
    return [(t, u) for t in values for u in values if t != u]


Rows = tuple[tuple[tuple[Hashable, ...], Fraction, Hashable], ...]
GivenValue = tuple[dict[Hashable, Fraction], dict[Hashable, Law], Rows]
"""For one value x of D(i): P[B=b | D(i)=x], P[o | D(i)=x, B=b] and the rows (d, P[D=d | D(i)=x],
B(d)) over the databases with D(i) = x."""


def conditional_laws(
    setting: PartialKnowledge,
    mechanism: Mechanism,
    *,
    order: Order | None = None,
    passes: dict[Hashable, GivenValue] | None = None,
) -> ConditionalLaws:
    """The conditional output laws of ``mechanism`` in ``setting``, summed database by database.

    ``order`` = (t, t') overrides the setting's (value, alternative): any two values of D(i).
    ``passes``: a dict the caller shares between calls for the same setting and mechanism
    (both orders, say), filled here: each value of D(i) is then enumerated once (pk.ex_7's
    two orders enumerated 2^11 databases four times, now twice).
    """
    first, second = (setting.value, setting.alternative) if order is None else order
    computed: dict[Hashable, GivenValue] = {} if passes is None else passes
    # Each record's law is converted once and P[D = d | D(i) = x] = Π_{j≠i} P[D(j) = d_j] is
    # built by prefix products; a product of 11 fresh Fractions per database took 0.17 s of
    # pk.ex_7's 2^11 databases per value, and this 0.03 s.
    record_laws = [{v: Fraction(record[v]) for v in record.support} for record in setting.records]
    for x in (first, second):
        if x not in computed:
            computed[x] = _given_value(setting, mechanism, record_laws, x)
    masses, laws, rows = computed[first]
    if second == first:  # both passes listed their databases (t = t')
        rows = rows + rows
    return ConditionalLaws(masses, laws, computed[second][1], rows)


def laws_by_order(
    setting: PartialKnowledge, mechanism: Mechanism, orders: Sequence[Order] | None = None
) -> dict[Order, ConditionalLaws]:
    """``{order: conditional_laws(setting, mechanism, order=order)}`` over ``orders`` (default:
    :func:`ordered_values`), each value of D(i) enumerated once for them all (``passes``):
    what a check passes as ``laws=`` to the Def 57, Def 58 and ε functions below."""
    passes: dict[Hashable, GivenValue] = {}
    return {
        order: conditional_laws(setting, mechanism, order=order, passes=passes)
        for order in (ordered_values(setting) if orders is None else orders)
    }


def _given_value(
    setting: PartialKnowledge, mechanism: Mechanism, record_laws: Sequence[Law], x: Hashable
) -> GivenValue:
    """One value x of D(i), database by database (see :data:`GivenValue`)."""
    joint: dict[Hashable, Law] = {}
    mass: dict[Hashable, Fraction] = {}
    rows: list[tuple[tuple[Hashable, ...], Fraction, Hashable]] = []
    for database, weight in _databases_given(record_laws, setting.target, x):
        b = setting.knowledge_of(database)
        mass[b] = mass.get(b, Fraction(0)) + weight
        row = joint.setdefault(b, {})
        for o, p in mechanism.row(database).items():
            if p:
                row[o] = row.get(o, Fraction(0)) + weight * Fraction(p)
        rows.append((database, weight, b))
    laws = {b: {o: v / mass[b] for o, v in joint[b].items()} for b in joint}
    return mass, laws, tuple(rows)


def _databases_given(
    record_laws: Sequence[Law], target: int, x: Hashable
) -> list[tuple[tuple[Hashable, ...], Fraction]]:
    """(d, Π_{j≠target} P[D(j) = d_j]) over the databases d with d_target = x whose other
    records are in their laws' supports, in ``itertools.product`` order (last record
    fastest); each weight is its prefix's weight times one record's probability."""
    prefixes: list[tuple[tuple[Hashable, ...], Fraction]] = [((), Fraction(1))]
    for j, law in enumerate(record_laws):
        if j == target:
            prefixes = [((*d, x), w) for d, w in prefixes]
        else:
            prefixes = [((*d, v), w * p) for d, w in prefixes for v, p in law.items()]
    return prefixes


def _laws_of(
    setting: PartialKnowledge,
    mechanism: Mechanism,
    order: Order,
    computed: Mapping[Order, ConditionalLaws] | None,
) -> ConditionalLaws:
    """The conditional laws of one order: the caller's (computed by :func:`conditional_laws`
    for this setting and mechanism) if given, else computed here."""
    if computed is not None and order in computed:
        return computed[order]
    return conditional_laws(setting, mechanism, order=order)


def apkdp_by_definition(
    setting: PartialKnowledge,
    mechanism: Mechanism,
    ratio: Fraction,
    *,
    orders: list[Order] | None = None,
    laws: Mapping[Order, ConditionalLaws] | None = None,
) -> Fraction:
    """The smallest δ of (ε, δ)-APKDP (Def 57): the maximum over the ordered pairs (t, t')
    (default: both orders of the setting's values) and the knowledge values b of the PLRV
    form E_{O ~ P[·|t,b]}[max(0, 1 - e^ε / e^{L(O, b)})], term by term.

    ``laws``: ``{order: conditional_laws(setting, mechanism, order=order)}`` already computed
    by the caller for this instance (one enumeration shared by the Def 57, Def 58 and ε
    functions; the orders it lacks are computed here)."""
    best = Fraction(0)
    for order in ordered_values(setting) if orders is None else orders:
        given = _laws_of(setting, mechanism, order, laws)
        for b in given.weights:
            best = max(best, hockey_stick_by_plrv(given.value[b], given.alternative[b], ratio))
    return best


def ppkdp_by_definition(
    setting: PartialKnowledge,
    mechanism: Mechanism,
    ratio: Fraction,
    *,
    orders: list[Order] | None = None,
    laws: Mapping[Order, ConditionalLaws] | None = None,
) -> Fraction:
    """The smallest δ of (ε, δ)-PPKDP (Def 58): the maximum over the ordered pairs (t, t')
    (default: both orders) of Def 58's expectation, summed database by database.
    ``laws`` as for :func:`apkdp_by_definition`."""
    return max(
        def_58_quantity(_laws_of(setting, mechanism, order, laws), mechanism, ratio)
        for order in (ordered_values(setting) if orders is None else orders)
    )


def epsilon_by_definition(
    setting: PartialKnowledge,
    mechanism: Mechanism,
    *,
    orders: list[Order] | None = None,
    laws: Mapping[Order, ConditionalLaws] | None = None,
) -> Fraction | None:
    """e^ε of the smallest ε with δ = 0 (APKDP and PPKDP): the largest P[o|t,b]/P[o|t',b]
    over the ordered pairs, b and o with P[o|t,b] > 0; at least 1; ``None`` for +∞.
    ``laws`` as for :func:`apkdp_by_definition`."""
    best = Fraction(1)
    for order in ordered_values(setting) if orders is None else orders:
        given = _laws_of(setting, mechanism, order, laws)
        for b in given.weights:
            for o, p in given.value[b].items():
                q = given.alternative[b].get(o, Fraction(0))
                if p and not q:
                    return None
                if p:
                    best = max(best, p / q)
    return best


def counting_kernel(mechanism: CountingMechanism, records: Sequence[Distribution]) -> Mechanism:
    """A counting mechanism as an explicit kernel, from its definition: the database d gets
    the release law of its count Σ_j [D(j) counted] (read from the mechanism's data: its
    predicate ``counts`` and its release laws ``row(count)``)."""
    rows: dict[Hashable, dict[Hashable, Fraction]] = {}
    outputs: dict[Hashable, None] = {}
    for database in itertools.product(*(r.outcomes for r in records)):
        law = mechanism.row(sum(1 for v in database if mechanism.counts(v)))
        rows[database] = {y: Fraction(p) for y, p in law.items()}
        outputs.update(dict.fromkeys(rows[database]))
    return Mechanism(rows, outputs=list(outputs))


def post_processed(mechanism: Mechanism, kernel: Mechanism) -> Mechanism:
    """f ∘ M from the definition: P[z | d] = Σ_o P[M(d) = o] P[f(o) = z] (Prop 25)."""
    rows: dict[Hashable, dict[Hashable, Fraction]] = {}
    for d in mechanism.inputs:
        row: dict[Hashable, Fraction] = {z: Fraction(0) for z in kernel.outputs}
        for o in mechanism.outputs:
            p = Fraction(mechanism.probability(d, o))
            if p:
                for z in kernel.outputs:
                    row[z] += p * Fraction(kernel.probability(o, z))
        rows[d] = row
    return Mechanism(rows, outputs=list(kernel.outputs))


def mixed(first: Mechanism, second: Mechanism, weight: Fraction) -> Mechanism:
    """λ M1 + (1 - λ) M2 from the definition: run M1 with probability λ (Prop 25)."""
    outputs = list(dict.fromkeys([*first.outputs, *second.outputs]))
    rows: dict[Hashable, dict[Hashable, Fraction]] = {}
    for d in first.inputs:
        rows[d] = {
            o: weight * Fraction(first.probability(d, o) if o in first.outputs else 0)
            + (1 - weight) * Fraction(second.probability(d, o) if o in second.outputs else 0)
            for o in outputs
        }
    return Mechanism(rows, outputs=outputs)


def def_58_quantity(laws: ConditionalLaws, mechanism: Mechanism, ratio: Fraction) -> Fraction:
    """Def 58 as written: E over D ~ θ | D(i)=t and O ~ M(D) of max(0, 1 - e^{ε - L(O, B(D))}).

    Summed database by database (not grouped by knowledge value), so it does not presuppose
    Thm 1's decomposition.
    """
    total = Fraction(0)
    # max(0, 1 - e^ε/e^L) depends on (B(D), O) only: computed once per pair within this call
    # (pk.ex_7's 2^11 databases share 5 knowledge values).
    inners: dict[tuple[Hashable, Hashable], Fraction] = {}
    for database, weight, b in laws.by_database:
        for o, m in mechanism.row(database).items():
            if not m:
                continue
            inner = inners.get((b, o))
            if inner is None:
                q_o = laws.alternative[b].get(o, Fraction(0))
                inner = (
                    Fraction(1)
                    if q_o == 0
                    else max(Fraction(0), 1 - ratio * q_o / laws.value[b][o])
                )
                inners[b, o] = inner
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


def joint(
    records: Sequence[Distribution], mechanism: Kernel, knowledge: Callable[[Any], Hashable]
) -> list[tuple[tuple[Any, ...], Fraction, Hashable, dict[Hashable, Fraction]]]:
    """[(database, P[D=d], b, {o: M(o|d)})] over the databases of positive probability."""
    rows = []
    for database in itertools.product(*(r.outcomes for r in records)):
        weight = Fraction(1)
        for record, x in zip(records, database, strict=True):
            weight *= record[x]
        if weight == 0:  # impossible databases carry no mass (and B need not be defined there)
            continue
        law = {o: Fraction(mechanism(database, o)) for o in mechanism.outputs}
        rows.append((database, weight, knowledge(database), law))
    return rows


class Kernel:
    """A mechanism on database tuples as a plain function (from an exactpml Mechanism)."""

    def __init__(self, mechanism: Mechanism) -> None:
        self.outputs = list(mechanism.outputs)
        self._m = mechanism

    def __call__(self, database: Any, output: Hashable) -> Any:
        return self._m.probability(database, output)


def knowledge_law(
    records: Sequence[Distribution],
    mechanism: Kernel,
    knowledge: Callable[[Any], Hashable],
    target: int,
    x: Hashable,
) -> dict[Hashable, Fraction]:
    """P[B = b | D(i) = x]."""
    rows = joint(records, mechanism, knowledge)
    mass = sum(w for d, w, _, _ in rows if d[target] == x)
    law: dict[Hashable, Fraction] = {}
    for d, w, b, _ in rows:
        if d[target] == x:
            law[b] = law.get(b, Fraction(0)) + w / mass
    return {b: p for b, p in law.items() if p}


def conditional_output(
    records: Sequence[Distribution],
    mechanism: Kernel,
    knowledge: Callable[[Any], Hashable],
    target: int,
    x: Hashable,
    b: Hashable,
) -> dict[Hashable, Fraction]:
    """P[M(D) = o | D(i) = x, B = b] for every output o."""
    rows = joint(records, mechanism, knowledge)
    mass = sum(w for d, w, bb, _ in rows if d[target] == x and bb == b)
    return {
        o: sum((w * law[o] for d, w, bb, law in rows if d[target] == x and bb == b), Fraction(0))
        / mass
        for o in mechanism.outputs
    }


def active_and_passive(
    records: Sequence[Distribution],
    mechanism: Kernel,
    knowledge: Callable[[Any], Hashable],
    target: int,
    t: Hashable,
    t_prime: Hashable,
    ratio: Fraction,
) -> tuple[Fraction, Fraction, dict[Hashable, Fraction]]:
    """(max_b δ_A(b), Σ_b P[B=b | D(i)=t] δ_A(b), {b: δ_A(b)}) from the definitions."""
    weights = knowledge_law(records, mechanism, knowledge, target, t)
    deltas = {
        b: hockey_stick_by_sets(
            conditional_output(records, mechanism, knowledge, target, t, b),
            conditional_output(records, mechanism, knowledge, target, t_prime, b),
            ratio,
        )
        for b in weights
    }
    return max(deltas.values()), sum((weights[b] * deltas[b] for b in deltas), Fraction(0)), deltas


def classical_delta(
    mechanism: Mechanism,
    ratio: Fraction,
    target: int,
    t: Hashable,
    t_prime: Hashable,
    others: Sequence[Sequence[Any]],
) -> Fraction:
    """Classical (ε,δ)-DP's δ restricted to neighbours (t, d_{-i}) ~ (t', d_{-i}) for the
    given d_{-i}: max of Σ_o max(0, M(o|d) − ratio·M(o|d')) (Prop 8)."""
    best = Fraction(0)
    for rest in others:
        d = (*rest[:target], t, *rest[target:])
        d2 = (*rest[:target], t_prime, *rest[target:])
        p = {o: mechanism.probability(d, o) for o in mechanism.outputs}
        q = {o: mechanism.probability(d2, o) for o in mechanism.outputs}
        best = max(best, hockey_stick_by_sets(p, q, ratio))
    return best


def has_injective_map(
    p1: dict[Hashable, Fraction],
    q1: dict[Hashable, Fraction],
    p2: dict[Hashable, Fraction],
    q2: dict[Hashable, Fraction],
) -> bool:
    """Whether some injective φ on the union support of (p1, q1) matches (p2, q2), by trying
    every injective map into the outputs (Def 59 as restated, brute force)."""
    support = [o for o in p1 if p1[o] or q1[o]]
    targets = list(p2)
    for image in itertools.permutations(targets, len(support)):
        if all(
            p1[o] == p2[phi] and q1[o] == q2[phi] for o, phi in zip(support, image, strict=True)
        ):
            return True
    return False
