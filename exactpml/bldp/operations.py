r"""Operations on bounded-leakage models, with the exact conditions under which the poster's
properties hold (Ligett, Peale, Reingold: "post-processing, group privacy, and composability
properties analogous to standard differential privacy"; stated there without proofs).

**Post-processing** (:func:`post_process`).  f∘M with f's own randomness U independent of R
and the leakage unchanged: given P = o, the law of f(M) is the kernel applied to the law of
M, so (ε,δ)-BLDP is kept (data processing of the hockey-stick divergence).

**Releasing the leakage** (:func:`release_leakage`).  M' = (M, P): given P = o the second
coordinate is the constant o, so the parameters are exactly those of M.

**Composition** (:func:`compose`).  The DP-analogous statement, "(ε1+ε2, δ1+δ2)-BLDP", holds
under this precise condition, checked by :func:`composition_precondition`:

    C = (M1, M2) with leakage L on one randomness space.  If for every database x and every
    o with Pr[L(x,r) = o] > 0, M1(x,r) and M2(x,r) are independent conditionally on
    L(x,r) = o, then C is (ε1+ε2, δ1+δ2)-BLDP w.r.t. L, where (εj, δj) are the parameters of
    Mj w.r.t. L (:func:`component`).

(Given L = o the law of C is the product of the two conditional laws, and products of
(ε1,δ1)- and (ε2,δ2)-close pairs are (ε1+ε2, δ1+δ2)-close.)  It holds in particular for
independent randomness R1 × R2 with the *joint* leakage (P1, P2); then Mj's parameters w.r.t.
(P1, P2) are at most its parameters w.r.t. Pj (the conditional law of M1 given (P1,P2) =
(o1,o2) is its law given P1 = o1, and fewer constraints apply).  It fails when the
randomness is shared and correlates M1 and M2 given the leakage (a one-time pad: two
(0,0)-BLDP mechanisms whose pair is not ε-BLDP for any ε), and when the composition is
judged against only one of the leakages (a mechanism vacuously private w.r.t. its own
leakage P2 = x is not private w.r.t. P1): see :mod:`exactpml.bldp.scenarios`.

**Group privacy** (:func:`group_privacy_violations`, ``distance=`` of the measures).  The
chain argument of DP needs every intermediate database to give the leakage value o positive
probability.  Precisely: if M is (ε,δ)-BLDP and x, x' (at graph distance ≤ k) are joined by
a path of at most k neighbour steps through databases z with Pr[P(z,r) = o] > 0, then given
o they are (kε, Σ_{j<k} e^{jε} δ)-close, and Σ_{j<k} e^{jε} δ ≤ k e^{(k−1)ε} δ.  Without
such a path the conclusion can fail completely: two databases at distance 2 whose only
intermediate databases never produce o are unconstrained (a parity leakage).
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.bldp.measures import graph_distances
from exactpml.bldp.model import BoundedLeakageModel
from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import prove_zero
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, exact_difference, exact_product, exact_sum
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.core.parameters import exp_epsilon_of, positive_integer, probability
from exactpml.errors import InvalidArgument

__all__ = [
    "CompositionCheck",
    "GroupViolation",
    "component",
    "compose",
    "composition_precondition",
    "group_privacy_bound",
    "group_privacy_violations",
    "leakage_distance",
    "post_process",
    "realize",
    "release_leakage",
]


def _model(model: object, name: str = "model") -> BoundedLeakageModel:
    if not isinstance(model, BoundedLeakageModel):
        raise InvalidArgument(f"{name} must be a BoundedLeakageModel, got {type(model).__name__}")
    return model


def realize(kernel: Mechanism) -> tuple[Distribution, Callable[[Any, Any], Hashable]]:
    """Finite randomness U and a function f with ``f(x, U) ~ kernel(·|x)`` for every input x.

    Rational kernels use the quantile coupling (U indexes the intervals between all the
    rows' cumulative sums: at most ``Σ_x |supp row x|`` values); symbolic ones the product
    coupling (one independent draw per input).  Either way each row's law is exact.
    """
    if not isinstance(kernel, Mechanism):
        raise InvalidArgument(f"kernel must be a Mechanism, got {type(kernel).__name__}")
    if kernel.is_rational:
        cuts = {Fraction(0), Fraction(1)}
        for row in kernel.rows:
            total = Fraction(0)
            for p in row:
                total += p
                cuts.add(total)
        points = sorted(cuts)
        starts = points[:-1]
        masses = [b - a for a, b in itertools.pairwise(points)]
        table: dict[Hashable, list[Hashable]] = {}
        for x, row in zip(kernel.inputs, kernel.rows, strict=True):
            labels = []
            for start in starts:
                total = Fraction(0)
                for y, p in zip(kernel.outputs, row, strict=True):
                    total += p
                    if start < total:
                        labels.append(y)
                        break
            table[x] = labels
        randomness = Distribution._trusted(list(range(len(starts))), masses)

        def quantile(x: Any, u: Any) -> Hashable:
            return table[x][u]

        return randomness, quantile
    product = Distribution.product([kernel.row(x) for x in kernel.inputs])
    position = {x: i for i, x in enumerate(kernel.inputs)}

    def coordinate(x: Any, u: Any) -> Hashable:
        return u[position[x]]

    return product, coordinate


def release_leakage(model: BoundedLeakageModel) -> BoundedLeakageModel:
    """M'(x, r) = (M(x, r), P(x, r)) with the same leakage (``bldp.leak_release``)."""
    model = _model(model)
    return BoundedLeakageModel._trusted(
        model.randomness,
        model.databases,
        model.neighbours,
        {x: tuple(zip(model.outputs[x], model.leakages[x], strict=True)) for x in model.databases},
        model.leakages,
    )


def post_process(model: BoundedLeakageModel, kernel: Mechanism) -> BoundedLeakageModel:
    """f∘M with f's randomness independent of r; the leakage is unchanged.

    ``kernel`` is a Mechanism whose inputs include every output of M.
    """
    model = _model(model)
    if not isinstance(kernel, Mechanism):
        raise InvalidArgument(f"kernel must be a Mechanism, got {type(kernel).__name__}")
    missing = {m for row in model.outputs.values() for m in row if m not in kernel.inputs}
    if missing:
        raise InvalidArgument(f"kernel has no row for output(s) {sorted(map(repr, missing))}")
    noise, apply = realize(kernel)
    randomness = Distribution.product([model.randomness, noise])
    return BoundedLeakageModel._trusted(
        randomness,
        model.databases,
        model.neighbours,
        {
            x: tuple(apply(m, u) for m in model.outputs[x] for u in noise.outcomes)
            for x in model.databases
        },
        {x: tuple(o for o in model.leakages[x] for _ in noise.outcomes) for x in model.databases},
    )


def compose(
    first: BoundedLeakageModel,
    second: BoundedLeakageModel,
    *,
    randomness: str = "independent",
    leakage: str = "joint",
) -> BoundedLeakageModel:
    """The pair (M1, M2) on the same databases.

    Args:
        first, second: the two models (same databases and neighbour relation).
        randomness: ``"independent"`` (R1 × R2) or ``"shared"`` (one r for both; the two
            randomness distributions must be equal).
        leakage: ``"joint"`` ((P1, P2)), ``"first"`` (P1) or ``"second"`` (P2).
    """
    first, second = _model(first, "first"), _model(second, "second")
    if set(first.databases) != set(second.databases):
        raise InvalidArgument("second must be defined on the same databases as first")
    if set(first.neighbours) != set(second.neighbours):
        raise InvalidArgument("second must have the same neighbour relation as first")
    if leakage not in ("joint", "first", "second"):
        raise InvalidArgument(
            f"leakage={abbreviated_repr(leakage)} must be 'joint', 'first' or 'second'"
        )

    def combine(a: Hashable, b: Hashable) -> Hashable:
        return {"joint": (a, b), "first": a, "second": b}[leakage]

    if randomness == "independent":
        space = Distribution.product([first.randomness, second.randomness])
        size = len(second.randomness)
        pairs = [(i, j) for i in range(len(first.randomness)) for j in range(size)]
    elif randomness == "shared":
        if first.randomness != second.randomness:
            raise InvalidArgument(
                "randomness='shared' needs the same randomness distribution for first and second"
            )
        space = first.randomness
        pairs = [(i, second.randomness.outcomes.index(r)) for i, r in enumerate(space.outcomes)]
    else:
        raise InvalidArgument(
            f"randomness={abbreviated_repr(randomness)} must be 'independent' or 'shared'"
        )
    outputs = {
        x: tuple((first.outputs[x][i], second.outputs[x][j]) for i, j in pairs)
        for x in first.databases
    }
    leakages = {
        x: tuple(combine(first.leakages[x][i], second.leakages[x][j]) for i, j in pairs)
        for x in first.databases
    }
    return BoundedLeakageModel._trusted(space, first.databases, first.neighbours, outputs, leakages)


def component(model: BoundedLeakageModel, index: int) -> BoundedLeakageModel:
    """M_index(x, r) = M(x, r)[index] for a model whose outputs are tuples (same leakage)."""
    model = _model(model)
    for x, row in model.outputs.items():
        for m in row:
            if not isinstance(m, tuple) or not -len(m) <= index < len(m):
                raise InvalidArgument(
                    f"component: output {abbreviated_repr(m)} of {abbreviated_repr(x)} has no "
                    f"coordinate {abbreviated(index)}"
                )
    return BoundedLeakageModel._trusted(
        model.randomness,
        model.databases,
        model.neighbours,
        {x: tuple(m[index] for m in row) for x, row in model.outputs.items()},  # type: ignore[index]
        model.leakages,
    )


@dataclass(frozen=True, slots=True)
class CompositionCheck:
    """Whether the components of a pair-valued model are independent given the leakage;
    otherwise a database and leakage value where they are not."""

    holds: bool
    database: Hashable = None
    leakage: Hashable = None


def composition_precondition(model: BoundedLeakageModel) -> CompositionCheck:
    """Check that M1 ⊥ M2 given L(x, r) = o for every x and possible o (exactly)."""
    model = _model(model)
    for x in model.databases:
        for o, row in model.joint(x).items():
            mass = exact_sum(row.values())
            if prove_zero(mass):
                continue
            first: dict[Hashable, list[Scalar]] = {}
            second: dict[Hashable, list[Scalar]] = {}
            for pair, p in row.items():
                if not isinstance(pair, tuple) or len(pair) != 2:
                    raise InvalidArgument(
                        f"composition_precondition: output {abbreviated_repr(pair)} is not a pair "
                        "(m1, m2)"
                    )
                first.setdefault(pair[0], []).append(p)
                second.setdefault(pair[1], []).append(p)
            marginal1 = {a: exact_sum(v) for a, v in first.items()}
            marginal2 = {b: exact_sum(v) for b, v in second.items()}
            for a, b in itertools.product(marginal1, marginal2):
                # P[m1=a, m2=b, o] · P[o] = P[m1=a, o] · P[m2=b, o]
                left = exact_product(row.get((a, b), Fraction(0)), mass)
                right = exact_product(marginal1[a], marginal2[b])
                if not prove_zero(exact_difference(left, right)):
                    return CompositionCheck(False, x, o)
    return CompositionCheck(True)


def leakage_distance(
    model: BoundedLeakageModel, database: Hashable, other: Hashable, leakage: Hashable
) -> int | None:
    """The fewest neighbour steps from x to x' through databases z with Pr[P(z,r) = o] > 0
    (both ends included); None when there is no such path."""
    model = _model(model)
    for z in (database, other):
        if z not in model.outputs:
            raise InvalidArgument(f"{abbreviated_repr(z)} is not one of the model's databases")
        if not model.leakage_possible(z, leakage):
            return None
    adjacency: dict[Hashable, list[Hashable]] = {x: [] for x in model.databases}
    for x, y in model.neighbours:
        adjacency[x].append(y)
    seen = {database: 0}
    queue = deque([database])
    while queue:
        node = queue.popleft()
        if node == other:
            return seen[node]
        for nxt in adjacency[node]:
            if nxt not in seen and model.leakage_possible(nxt, leakage):
                seen[nxt] = seen[node] + 1
                queue.append(nxt)
    return None


@dataclass(frozen=True, slots=True)
class GroupViolation:
    """x, x' within graph distance k sharing a possible leakage value o, but with no path of
    at most k neighbour steps along which o stays possible (``leakage_distance`` None or > k)."""

    databases: tuple[Hashable, Hashable]
    leakage: Hashable
    graph_distance: int
    leakage_distance: int | None


def group_privacy_violations(model: BoundedLeakageModel, k: int) -> list[GroupViolation]:
    """Where group privacy's precondition fails at distance ``k`` (empty: it holds)."""
    model = _model(model)
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidArgument(f"k={abbreviated_repr(k)} must be a positive integer")
    distances = graph_distances(model)
    found = []
    for x in model.databases:
        for y, d in distances[x].items():
            if not 1 <= d <= k:
                continue
            for o in model.joint(x):
                if not (model.leakage_possible(x, o) and model.leakage_possible(y, o)):
                    continue
                along = leakage_distance(model, x, y, o)
                if along is None or along > k:
                    found.append(GroupViolation((x, y), o, d, along))
    return found


def group_privacy_bound(
    epsilon: object = None,
    delta: object = 0,
    k: int = 1,
    *,
    exp_epsilon: object = None,
) -> tuple[LogValue, Scalar]:
    """(kε, k·e^{(k−1)ε}·δ): the DP-analogous group-privacy parameters (``bldp.group_privacy``).

    ε by the one parameter policy (finite, ε ≥ 0); δ in [0, 1]; k ≥ 1.
    """
    ratio = exp_epsilon_of(epsilon, exp_epsilon)
    if ratio is sympy.oo:
        raise InvalidArgument("epsilon=oo must be finite for a group-privacy bound")
    size = positive_integer(k, name="k")
    value = probability(delta, name="delta")
    bound = LogValue(ratio)
    scaled = exact_product(exact_product(Fraction(size), (bound * (size - 1)).ratio), value)
    return bound * size, scaled
