"""The poster's scenarios and the counterexamples behind the exact conditions, as models.

Ligett, Peale, Reingold, *Bounded-Leakage Differential Privacy* (poster).  Its formulas for
the scenarios were lost (CLAIMS.md); each model below is defined explicitly here.

* :func:`independent_leakage` — M and P from two kernels with independent randomness, so
  M(x,·) ⊥ P(x,·) for every x (``bldp.independent_leakage``: (ε,δ)-DP ⇒ (ε,δ)-BLDP, with
  equality when every neighbouring pair shares a leakage value of positive probability).
* :func:`census_exact_counts` — Scenario 1, "2020 Census": each person's record is
  (group, attribute); M releases the number of attribute-1 records with truncated geometric
  noise (ε-DP with α = e^{-ε}); the leakage is the exact count of each group (invariants
  released without noise).  The leakage is a function of x alone, hence independent of M's
  randomness.
* :func:`non_participation` — Scenario 2.  Model (ours): ``population`` people with bits
  v_j; a participation design (A_1, ..., A_k) of k studies is part of the database; study ℓ
  releases the number of its participants with v = 1 plus truncated geometric noise
  (ε-DP on its participants), independently across studies.  Neighbours change one person's
  bit and keep the design.  The leakage is the largest number of studies any one person
  joined (an upper bound on every individual's participation).  Exactly: given leakage m the
  privacy loss is m·ε, whatever the number k of studies, whereas DP over all designs is k·ε
  (tests check both).
* Counterexamples: :func:`shared_randomness_composition`, :func:`single_leakage_composition`,
  :func:`parity_leakage_group_privacy`, :func:`identity_leakage`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any

from exactpml.bldp.model import BoundedLeakageModel, Neighbours, check_distinct_databases
from exactpml.bldp.operations import realize
from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.bounds import current_bounds, exceeded
from exactpml.core.distribution import Distribution
from exactpml.core.mechanism import Mechanism
from exactpml.core.parameters import probability
from exactpml.errors import InvalidArgument

__all__ = [
    "census_exact_counts",
    "identity_leakage",
    "independent_leakage",
    "non_participation",
    "parity_leakage_group_privacy",
    "shared_randomness_composition",
    "single_leakage_composition",
    "truncated_geometric",
]

_POINT = Distribution._trusted([0], [Fraction(1)])


def _size(name: str, value: int, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidArgument(
            f"{name}={abbreviated_repr(value)} must be an integer >= {abbreviated(minimum)}"
        )
    return value


def truncated_geometric(size: int, alpha: object) -> Mechanism:
    """The truncated geometric mechanism on counts 0..size (Ghosh, Roughgarden, Sundararajan):
    p(y|c) = (1−α)/(1+α)·α^|y−c| for 0 < y < size, p(0|c) = α^c/(1+α),
    p(size|c) = α^(size−c)/(1+α); it is ε-DP for counts differing by one, with α = e^{-ε}.

    >>> truncated_geometric(2, "1/2").probability(1, 0)
    Fraction(1, 3)
    """
    size = _size("size", size)
    if (size + 1) ** 2 > current_bounds().table_entries:  # the table, before it is built
        raise exceeded(
            "truncated_geometric",
            f"size={abbreviated(size)} makes a table of {abbreviated((size + 1) ** 2)} entries",
            "table_entries",
        )
    a = probability(alpha, name="alpha", open_interval=True, rational=True)
    assert type(a) is Fraction
    if size == 0:
        return Mechanism({0: {0: 1}})
    rows = []
    for c in range(size + 1):
        row = [(1 - a) / (1 + a) * a ** abs(y - c) for y in range(size + 1)]
        row[0] = a**c / (1 + a)
        row[size] = a ** (size - c) / (1 + a)
        rows.append(row)
    return Mechanism.from_matrix(rows, name="truncated geometric")


def independent_leakage(
    mechanism: Mechanism,
    leakage: Mechanism | Callable[[Hashable], Hashable],
    *,
    neighbours: Neighbours = None,
) -> BoundedLeakageModel:
    """M from ``mechanism`` and P from ``leakage`` (a kernel, or a function of x alone) with
    independent randomness R_M × R_P: M(x,·) ⊥ P(x,·) for every database x."""
    if not isinstance(mechanism, Mechanism):
        raise InvalidArgument(f"mechanism must be a Mechanism, got {type(mechanism).__name__}")
    if not isinstance(leakage, Mechanism):
        if not callable(leakage):
            raise InvalidArgument(
                f"leakage must be a Mechanism or a function of x, got {type(leakage).__name__}"
            )
        leakage = Mechanism.deterministic(leakage, mechanism.inputs, name="leakage")
    if set(leakage.inputs) != set(mechanism.inputs):
        raise InvalidArgument("leakage must be defined on the mechanism's inputs (the databases)")
    noise, output = realize(mechanism)
    leak_noise, leak = realize(leakage)
    randomness = Distribution.product([noise, leak_noise])
    return BoundedLeakageModel(
        randomness,
        lambda x, r: output(x, r[0]),
        lambda x, r: leak(x, r[1]),
        databases=mechanism.inputs,
        neighbours=neighbours,
    )


def census_exact_counts(
    size: int,
    alpha: object,
    *,
    alphabet: Sequence[tuple[Hashable, Hashable]] = ((0, 0), (0, 1), (1, 0), (1, 1)),
) -> BoundedLeakageModel:
    """Scenario 1: ``size`` people with records (group, attribute) from ``alphabet``; M is the
    truncated geometric count of attribute = 1 (α = e^{-ε}); P is the exact count of each
    group (sorted by group).  Databases: every tuple of records; neighbours differ in one."""
    size = _size("size", size, 1)
    records = list(alphabet)
    if not records or not all(isinstance(r, tuple) and len(r) == 2 for r in records):
        raise InvalidArgument("alphabet must be a non-empty sequence of (group, attribute) pairs")
    groups = sorted({g for g, _ in records}, key=repr)
    noise = truncated_geometric(size, alpha)
    databases = list(itertools.product(records, repeat=size))

    def exact_counts(x: Any) -> Hashable:
        return tuple(sum(1 for g, _ in x if g == group) for group in groups)

    kernel = Mechanism(
        {x: noise.row(sum(1 for _, a in x if a == 1)).as_dict() for x in databases},
        outputs=noise.outputs,
        name="census count",
    )
    return independent_leakage(kernel, exact_counts)


def non_participation(
    population: int,
    studies: int,
    alpha: object,
    *,
    designs: Sequence[Sequence[frozenset[int]]] | None = None,
) -> BoundedLeakageModel:
    """Scenario 2 (model defined in the module docstring): databases (bits, design), each study
    a truncated geometric count over its participants, leakage = max participation count.

    ``designs`` defaults to every tuple of ``studies`` subsets of the population.
    """
    population = _size("population", population, 1)
    studies = _size("studies", studies, 1)
    people = range(population)
    if designs is None:
        subsets = [
            frozenset(c) for k in range(population + 1) for c in itertools.combinations(people, k)
        ]
        chosen = [tuple(d) for d in itertools.product(subsets, repeat=studies)]
    else:
        chosen = []
        for design in designs:
            design = tuple(frozenset(s) for s in design)
            if len(design) != studies or any(not s <= set(people) for s in design):
                raise InvalidArgument(
                    f"designs: {abbreviated_repr(design)} must list {abbreviated(studies)} subsets "
                    f"of range({abbreviated(population)})"
                )
            chosen.append(design)
    noise = truncated_geometric(population, alpha)
    one_noise, draw = realize(noise)
    randomness = Distribution.product([one_noise] * studies)
    bit_tuples = list(itertools.product((0, 1), repeat=population))
    databases = [(bits, design) for design in chosen for bits in bit_tuples]
    check_distinct_databases(databases)  # a design given twice (the model's own check)
    # The tables of M(x, r) and P(x, r) are built here rather than by calling functions of
    # (x, r) for every pair (32 000 calls each at population 2 and k = 3: 0.2 s).  R's
    # outcomes are the tuples (u_1, ..., u_k) in product order (the last study fastest), so
    # M(x, ·) in that order is the product of each study's column of draws at its count.
    draws = {c: tuple(draw(c, u) for u in one_noise.outcomes) for c in range(population + 1)}
    outputs: dict[Hashable, tuple[Hashable, ...]] = {}
    leakages: dict[Hashable, tuple[Hashable, ...]] = {}
    for bits, design in databases:
        counts = [sum(bits[j] for j in members) for members in design]
        outputs[bits, design] = tuple(itertools.product(*(draws[c] for c in counts)))
        # the leakage: the largest number of studies one person joined (a function of x)
        joined = max(sum(j in members for members in design) for j in people)
        leakages[bits, design] = (joined,) * len(outputs[bits, design])
    # neighbours: the same design, the bits differing in one person (both orders, in the
    # order of the databases)
    neighbours = [
        ((bits, design), (other, design))
        for design in chosen
        for bits in bit_tuples
        for other in bit_tuples
        if sum(a != b for a, b in zip(bits, other, strict=True)) == 1
    ]
    return BoundedLeakageModel._trusted(randomness, databases, neighbours, outputs, leakages)


# --- counterexamples -----------------------------------------------------------------------


def shared_randomness_composition() -> tuple[BoundedLeakageModel, BoundedLeakageModel]:
    """A one-time pad: M1 = x ⊕ r and M2 = r with one uniform bit r and constant leakage.

    Each is (0,0)-BLDP; composed on the *shared* r the pair reveals x (ε = oo): the
    conditional-independence precondition of composition fails.
    """
    bit = Distribution._trusted([0, 1], [Fraction(1, 2), Fraction(1, 2)])
    databases = [(0,), (1,)]
    first = BoundedLeakageModel(bit, lambda x, r: x[0] ^ r, lambda x, r: 0, databases=databases)
    second = BoundedLeakageModel(bit, lambda x, r: r, lambda x, r: 0, databases=databases)
    return first, second


def single_leakage_composition() -> tuple[BoundedLeakageModel, BoundedLeakageModel]:
    """M1 = r (pure noise, constant leakage) and M2 = x with leakage P2 = x.

    M2 is vacuously (0,0)-BLDP w.r.t. its own leakage; the pair is (0,0)-BLDP w.r.t. the joint
    leakage (P1, P2), but judged against P1 alone it reveals x (ε = oo).
    """
    bit = Distribution._trusted([0, 1], [Fraction(1, 2), Fraction(1, 2)])
    databases = [(0,), (1,)]
    first = BoundedLeakageModel(bit, lambda x, r: r, lambda x, r: 0, databases=databases)
    second = BoundedLeakageModel(bit, lambda x, r: x[0], lambda x, r: x[0], databases=databases)
    return first, second


def parity_leakage_group_privacy() -> BoundedLeakageModel:
    """Two bits, M(x) = x, leakage = parity: every pair of neighbours has different leakage, so
    the model is vacuously (0,0)-BLDP, yet (0,0) and (1,1) at distance 2 share the leakage 0
    and are told apart with certainty: group privacy fails (no o-possible path)."""
    databases = list(itertools.product((0, 1), repeat=2))
    return BoundedLeakageModel(
        _POINT, lambda x, r: x, lambda x, r: (x[0] + x[1]) % 2, databases=databases
    )


def identity_leakage() -> BoundedLeakageModel:
    """M(x, r) = x and P(x, r) = x: M(x,·) ⊥ P(x,·) (both constant), vacuously (0,0)-BLDP, and
    not ε-DP for any ε: the converse of ``bldp.independent_leakage`` fails."""
    return BoundedLeakageModel(_POINT, lambda x, r: x, lambda x, r: x, databases=[(0,), (1,)])
