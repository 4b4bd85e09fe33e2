"""Bounded-leakage differential privacy, from the definition's tables.

Ligett, Peale, Reingold, *Bounded-Leakage Differential Privacy* (restated in ``CLAIMS.md``,
section ``bldp.``).  No code shared with :mod:`exactpml.bldp.measures` (only the model,
:class:`~exactpml.bldp.BoundedLeakageModel`, is read as data): the conditional law
of M(x, r) given P(x, r) = o is summed here over r from the model's raw tables, the
neighbour graph is searched here, and the BLDP constraint of the poster,

    Pr[M(x,r) ∈ S | P(x,r)=o] ≤ e^ε Pr[M(x',r) ∈ S | P(x',r)=o] + δ
    for x ~ x' and o with Pr[P(x,r)=o]·Pr[P(x',r)=o] ≠ 0,

is evaluated either over every set S (``sets=True``, small output alphabets) or through the
pointwise forms max_S p(S) - e^ε q(S) = Σ_m max(0, p_m - e^ε q_m) and
max_S p(S)/q(S) = max_m p_m/q_m (:mod:`proofs_check.reference.divergences`; checked against
the set form by ``pk.prop_8`` and ``bldp.definition``).  Rational models only; every value
is a ``Fraction``.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Mapping
from fractions import Fraction

from exactpml import LogValue
from exactpml.bldp import BoundedLeakageModel
from proofs_check.reference.divergences import (
    divergence_ratio_by_points,
    divergence_ratio_by_sets,
    hockey_stick_by_sets,
    hockey_stick_pointwise,
)

__all__ = [
    "Conditional",
    "Pair",
    "conditionals",
    "constraint_delta",
    "constraint_ratio",
    "describe_mapping",
    "describe_model",
    "distances",
    "dp_conditionals",
    "model_delta",
    "model_epsilon",
    "neighbour_pairs",
    "non_participation_by_definition",
    "pairs_within",
    "path_within",
    "truncated_geometric_law",
]

Law = dict[Hashable, Fraction]
Conditional = dict[Hashable, dict[Hashable, Law]]
"""``{x: {o: {m: Pr[M(x,r) = m | P(x,r) = o]}}}`` over leakage values o of positive mass."""
Pair = tuple[Hashable, Hashable]


def conditionals(
    model: BoundedLeakageModel, *, leakage: Callable[[Hashable, int], Hashable] | None = None
) -> Conditional:
    """The conditional laws of M given the leakage, summed over r from the raw tables.

    ``leakage(x, k)`` overrides the leakage of the k-th randomness value (e.g. a constant).
    """
    result: Conditional = {}
    weights = [Fraction(p) for p in model.randomness.probabilities]
    # Pr[M = m | P = o] = Σ Pr[r] / Σ Pr[r], summed as integer numerators over the weights'
    # common denominator (32 000 Fraction additions took 0.15 s for Scenario 2 at
    # population 2, k = 3); one Fraction per entry at the end.
    common = math.lcm(*(w.denominator for w in weights))
    numerators = [w.numerator * (common // w.denominator) for w in weights]
    for x in model.databases:
        joint: dict[Hashable, dict[Hashable, int]] = {}
        for k, (numerator, m, o) in enumerate(
            zip(numerators, model.outputs[x], model.leakages[x], strict=True)
        ):
            if not numerator:
                continue
            if leakage is not None:
                o = leakage(x, k)
            row = joint.setdefault(o, {})
            row[m] = row.get(m, 0) + numerator
        totals = {o: sum(row.values()) for o, row in joint.items()}
        result[x] = {
            o: {m: Fraction(p, totals[o]) for m, p in row.items()} for o, row in joint.items()
        }
    return result


def dp_conditionals(model: BoundedLeakageModel) -> Conditional:
    """The laws of M alone (the leakage replaced by a constant): (ε,δ)-DP."""
    return conditionals(model, leakage=lambda x, k: None)


def neighbour_pairs(model: BoundedLeakageModel) -> list[Pair]:
    """The model's neighbour relation, both orders."""
    return list(model.neighbours)


def distances(
    model: BoundedLeakageModel, *, allowed: Callable[[Hashable], bool] | None = None
) -> dict[Hashable, dict[Hashable, int]]:
    """Breadth-first distances in the neighbour graph (only through ``allowed`` databases)."""
    adjacency: dict[Hashable, list[Hashable]] = {x: [] for x in model.databases}
    for x, y in model.neighbours:
        adjacency[x].append(y)
    result: dict[Hashable, dict[Hashable, int]] = {}
    for source in model.databases:
        seen = {source: 0}
        queue = deque([source])
        while queue:
            node = queue.popleft()
            for nxt in adjacency[node]:
                if nxt not in seen and (allowed is None or allowed(nxt)):
                    seen[nxt] = seen[node] + 1
                    queue.append(nxt)
        result[source] = seen
    return result


def pairs_within(model: BoundedLeakageModel, k: int) -> list[Pair]:
    """Ordered pairs at graph distance 1..k."""
    table = distances(model)
    return [(x, y) for x in model.databases for y, d in table[x].items() if 1 <= d <= k]


def path_within(
    model: BoundedLeakageModel, laws: Conditional, x: Hashable, y: Hashable, o: Hashable, k: int
) -> bool:
    """Whether x reaches y in at most k neighbour steps through databases under which the
    leakage value o has positive probability (both ends included)."""
    if o not in laws[x] or o not in laws[y]:
        return False
    table = distances(model, allowed=lambda z: o in laws[z])
    return table[x].get(y, k + 1) <= k


def constraint_delta(p: Law, q: Law, ratio: Fraction, *, sets: bool = False) -> Fraction:
    """max_S p(S) - e^ε q(S): over every S if ``sets``, else Σ_m max(0, p_m - e^ε q_m)."""
    if sets:
        return hockey_stick_by_sets(p, q, ratio)
    return hockey_stick_pointwise(p, q, ratio)


def constraint_ratio(p: Law, q: Law, *, sets: bool = False) -> LogValue:
    """log max_S p(S)/q(S) over S with p(S) > 0 (``oo`` if q(S) = 0 < p(S)); at least log 1."""
    ratio = divergence_ratio_by_sets(p, q) if sets else divergence_ratio_by_points(p, q)
    if ratio is None:
        return LogValue.infinity()
    return LogValue(max(Fraction(1), ratio))


def _constraints(laws: Conditional, pairs: Iterable[Pair]) -> Iterable[tuple[Law, Law]]:
    for x, y in pairs:
        for o, p in laws[x].items():
            if o in laws[y]:
                yield p, laws[y][o]


def model_delta(
    laws: Conditional, pairs: Iterable[Pair], ratio: Fraction, *, sets: bool = False
) -> Fraction:
    """The smallest δ at e^ε = ``ratio`` over the constraints of ``pairs`` (0 if none)."""
    return max(
        (constraint_delta(p, q, ratio, sets=sets) for p, q in _constraints(laws, pairs)),
        default=Fraction(0),
    )


def model_epsilon(laws: Conditional, pairs: Iterable[Pair], *, sets: bool = False) -> LogValue:
    """The smallest ε at δ = 0 over the constraints of ``pairs`` (log 1 if none)."""
    best = LogValue(1)
    for p, q in _constraints(laws, pairs):
        value = constraint_ratio(p, q, sets=sets)
        if value.is_infinite:
            return value
        if value > best:
            best = value
    return best


def describe_model(model: BoundedLeakageModel) -> str:
    """The model's exact data: R's law and the tables of M and P."""
    randomness = ", ".join(
        f"{r!r}: {p}"
        for r, p in zip(model.randomness.outcomes, model.randomness.probabilities, strict=True)
    )
    rows = "; ".join(
        f"x={x!r}: M={list(model.outputs[x])!r}, P={list(model.leakages[x])!r}"
        for x in model.databases
    )
    return f"R ~ {{{randomness}}}; {rows}"


def describe_mapping(mapping: Mapping[Hashable, object]) -> str:
    """A short exact rendering of a mapping."""
    return "{" + ", ".join(f"{k!r}: {v}" for k, v in mapping.items()) + "}"


# --- Scenario 2 (non-participation), written from its definition ----------------------------
Design = tuple[frozenset[int], ...]


def truncated_geometric_law(count: int, size: int, alpha: Fraction) -> dict[int, Fraction]:
    """The truncated geometric mechanism on 0..``size`` at ``count`` (Ghosh, Roughgarden,
    Sundararajan): the two-sided geometric law (1-α)/(1+α) α^|y-c| on Z with everything
    below 0 moved to 0 and everything above ``size`` moved to ``size``.  The tails are summed
    here as geometric series: Σ_{z <= 0} (1-α)/(1+α) α^{c-z} = α^c/(1+α) at 0, and
    α^{size-c}/(1+α) at ``size``; a single point (``size`` = 0) has all the mass."""
    if size == 0:
        return {0: Fraction(1)}
    law: dict[int, Fraction] = {}
    for y in range(size + 1):
        if y == 0:
            law[y] = alpha**count / (1 + alpha)
        elif y == size:
            law[y] = alpha ** (size - count) / (1 + alpha)
        else:
            law[y] = (1 - alpha) / (1 + alpha) * alpha ** abs(y - count)
    return law


def non_participation_by_definition(
    population: int,
    studies: int,
    alpha: Fraction,
    *,
    designs: Iterable[Design] | None = None,
) -> tuple[Conditional, list[Pair]]:
    """Scenario 2 of the poster as ``CLAIMS.md`` defines it, built here from that text alone:
    the conditional laws of M given the leakage, and the neighbouring pairs.

    A database is (v, (A_1, ..., A_k)): bits v_j of ``population`` people and the sets A_l of
    the participants of each of k = ``studies`` studies (every tuple of subsets unless
    ``designs`` is given).  Study l releases Σ_{j in A_l} v_j through the truncated geometric
    mechanism on 0..population with α = e^{-ε}, the studies independently, so M's law is the
    product of the k laws.  The leakage P = max_j |{l : j in A_l}| is a function of the design
    (no randomness), so Pr[P = o] is 1 at o = P(x) and 0 elsewhere, and M given P = P(x) has
    M's law.  Neighbours share the design and differ in one bit, both orders.
    """
    people = range(population)
    if designs is None:
        subsets = [
            frozenset(c) for r in range(population + 1) for c in itertools.combinations(people, r)
        ]
        designs = itertools.product(subsets, repeat=studies)
    laws: Conditional = {}
    pairs: list[Pair] = []
    # one study's law at each count, computed once per call
    by_count = {c: truncated_geometric_law(c, population, alpha) for c in range(population + 1)}
    for design in designs:
        leak = max((sum(j in members for members in design) for j in people), default=0)
        for bits in itertools.product((0, 1), repeat=population):
            per_study = [by_count[sum(bits[j] for j in members)] for members in design]
            # Pr[M = (y_1, ..., y_k)] = Π_l law_l(y_l), by prefix products over the studies
            # in product order (the last study fastest); the positive ones are kept
            prefixes: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
            for study in per_study:
                prefixes = [((*ys, y), mass * p) for ys, mass in prefixes for y, p in study.items()]
            laws[(bits, design)] = {leak: {ys: mass for ys, mass in prefixes if mass}}
        for bits in itertools.product((0, 1), repeat=population):
            for j in people:
                flipped = (*bits[:j], 1 - bits[j], *bits[j + 1:])
                pairs.append(((bits, design), (flipped, design)))
    return laws, pairs
