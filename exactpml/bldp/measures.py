r"""Bounded-leakage DP: the exact smallest ε (δ = 0) and δ(ε), with their witnesses.

Ligett, Peale, Reingold (restated in CLAIMS.md, ``bldp.``): M is (ε,δ)-BLDP w.r.t. P if for
all neighbours x ~ x', sets S and leakage values o with Pr[P(x,r)=o]·Pr[P(x',r)=o] ≠ 0,

    Pr[M(x,r) ∈ S | P(x,r) = o] ≤ e^ε Pr[M(x',r) ∈ S | P(x',r) = o] + δ.

For one constraint (x, x', o) with conditional laws p, q, the smallest δ at a given ε is
``max_S p(S) − e^ε q(S) = Σ_m max(0, p_m − e^ε q_m)`` (S = {m : p_m > e^ε q_m}) and the
smallest ε at δ = 0 is ``log max_S p(S)/q(S) = log max_m p_m/q_m`` (max over points;
``oo`` when some q_m = 0 < p_m).  The model's parameters are the maxima over all
constraints; when no neighbouring pair shares a leakage value of positive probability the
condition is vacuous and both are 0 (``witness=None``).

``distance=k`` replaces neighbours by pairs at distance 1..k in the neighbour graph (group
privacy, :mod:`exactpml.bldp.operations`).  With a constant leakage BLDP is (ε,δ)-DP:
:func:`dp_epsilon` and :func:`dp_delta`.

>>> from exactpml import Distribution
>>> from exactpml.bldp import BoundedLeakageModel
>>> coin = Distribution({0: "1/2", 1: "1/2"})
>>> pad = BoundedLeakageModel(coin, lambda x, r: x[0] ^ r, lambda x, r: r, databases=[(0,), (1,)])
>>> print(bldp_epsilon(pad).epsilon, dp_epsilon(pad).epsilon)
oo 0
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from exactpml.bldp.model import BoundedLeakageModel
from exactpml.core.abbreviate import abbreviated_repr
from exactpml.core.display import abbreviated_fields_repr
from exactpml.core.exact import Scalar
from exactpml.core.logvalue import LogValue
from exactpml.core.parameters import exp_epsilon_of
from exactpml.errors import InvalidArgument
from exactpml.leakage.hockey_stick import at_most, exact_max, hockey_stick, max_ratio

__all__ = [
    "BLDPDelta",
    "BLDPEpsilon",
    "LeakageWitness",
    "bldp_delta",
    "bldp_epsilon",
    "bldp_epsilon_by_leakage",
    "bldp_epsilon_by_pair",
    "constraints",
    "dp_delta",
    "dp_epsilon",
    "graph_distances",
    "is_bldp",
]


@dataclass(frozen=True, slots=True)
class LeakageWitness:
    """A constraint (x, x', o) of the definition and the output set S attaining the value."""

    databases: tuple[Hashable, Hashable]
    leakage: Hashable
    event: frozenset[Hashable] | None


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class BLDPEpsilon:
    """The smallest ε with δ = 0; ``witness`` is None when the condition is vacuous."""

    epsilon: LogValue
    witness: LeakageWitness | None


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class BLDPDelta:
    """The smallest δ at the given ε; ``witness`` is None when no constraint is positive."""

    delta: Scalar
    witness: LeakageWitness | None


def _model(model: object) -> BoundedLeakageModel:
    if not isinstance(model, BoundedLeakageModel):
        raise InvalidArgument(f"model must be a BoundedLeakageModel, got {type(model).__name__}")
    return model


def graph_distances(model: BoundedLeakageModel) -> dict[Hashable, dict[Hashable, int]]:
    """Shortest-path distances in the neighbour graph (unreachable pairs are absent)."""
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
                if nxt not in seen:
                    seen[nxt] = seen[node] + 1
                    queue.append(nxt)
        result[source] = seen
    return result


def _pairs(model: BoundedLeakageModel, distance: int) -> list[tuple[Hashable, Hashable]]:
    if isinstance(distance, bool) or not isinstance(distance, int) or distance < 1:
        raise InvalidArgument(f"distance={abbreviated_repr(distance)} must be a positive integer")
    if distance == 1:
        return list(model.neighbours)
    distances = graph_distances(model)
    return [(x, y) for x in model.databases for y, d in distances[x].items() if 1 <= d <= distance]


def constraints(
    model: BoundedLeakageModel, *, distance: int = 1
) -> Iterator[tuple[Hashable, Hashable, Hashable, list[Hashable], list[Scalar], list[Scalar]]]:
    """Every constraint (x, x', o) with the conditional laws p, q on their common outputs."""
    for x, y in _pairs(_model(model), distance):
        for o in model.joint(x):
            if not (model.leakage_possible(x, o) and model.leakage_possible(y, o)):
                continue
            p, q = model.conditional(x, o), model.conditional(y, o)
            outputs = list(dict.fromkeys([*p.outcomes, *q.outcomes]))
            yield x, y, o, outputs, [p.get(m) for m in outputs], [q.get(m) for m in outputs]


def bldp_epsilon_by_pair(
    model: BoundedLeakageModel, *, distance: int = 1
) -> dict[tuple[Hashable, Hashable, Hashable], LogValue]:
    """The smallest ε (δ = 0) of each constraint (x, x', o)."""
    return {
        (x, y, o): max_ratio(p, q)[0] for x, y, o, _, p, q in constraints(model, distance=distance)
    }


def bldp_epsilon_by_leakage(
    model: BoundedLeakageModel, *, distance: int = 1
) -> dict[Hashable, LogValue]:
    """For each leakage value o, the smallest ε over the constraints conditioned on o."""
    result: dict[Hashable, LogValue] = {}
    for (_, _, o), value in bldp_epsilon_by_pair(model, distance=distance).items():
        if o not in result or value > result[o]:
            result[o] = value
    return result


def bldp_epsilon(model: BoundedLeakageModel, *, distance: int = 1) -> BLDPEpsilon:
    """The smallest ε such that the model is (ε, 0)-BLDP (pairs within ``distance``)."""
    best = LogValue(1)
    witness: LeakageWitness | None = None
    for x, y, o, outputs, p, q in constraints(model, distance=distance):
        value, index = max_ratio(p, q)
        if witness is None or value > best:
            event = None if index is None else frozenset([outputs[index]])
            best, witness = value, LeakageWitness((x, y), o, event)
    return BLDPEpsilon(best, witness)


def bldp_delta(
    model: BoundedLeakageModel,
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    distance: int = 1,
) -> BLDPDelta:
    """The smallest δ such that the model is (ε, δ)-BLDP (pairs within ``distance``).

    ε is a ``LogValue`` (``LogValue(3)``: e^ε = 3), an exact number, ``oo``, or
    ``exp_epsilon=e^ε`` (:mod:`exactpml.core.parameters`; negative ε evaluates the divergence).
    """
    ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
    values: list[Scalar] = [Fraction(0)]
    witnesses: list[LeakageWitness | None] = [None]
    for x, y, o, outputs, p, q in constraints(model, distance=distance):
        value, indices = hockey_stick(p, q, ratio)
        event = None if indices is None else frozenset(outputs[k] for k in indices)
        values.append(value)
        witnesses.append(LeakageWitness((x, y), o, event))
    best, position = exact_max(values)
    return BLDPDelta(best, None if position is None else witnesses[position])


def is_bldp(
    model: BoundedLeakageModel,
    epsilon: object = None,
    delta: object = 0,
    *,
    exp_epsilon: object = None,
    distance: int = 1,
) -> bool:
    """Whether the model is (ε, δ)-BLDP w.r.t. its leakage (exact); ε ≥ 0."""
    ratio = exp_epsilon_of(epsilon, exp_epsilon)
    value = bldp_delta(model, exp_epsilon=ratio, distance=distance).delta
    return at_most(value, delta, name="delta")


def dp_epsilon(model: BoundedLeakageModel) -> BLDPEpsilon:
    """The smallest ε with (ε, 0)-DP of the mechanism alone (leakage made constant)."""
    return bldp_epsilon(_model(model).without_leakage())


def dp_delta(
    model: BoundedLeakageModel, epsilon: object = None, *, exp_epsilon: object = None
) -> BLDPDelta:
    """The smallest δ with (ε, δ)-DP of the mechanism alone (leakage made constant)."""
    return bldp_delta(_model(model).without_leakage(), epsilon, exp_epsilon=exp_epsilon)
