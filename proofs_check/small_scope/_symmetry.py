"""Symmetry reduction: one representative per relabelling orbit (an explicit opt-in).

Relabelling the inputs or outputs of a kernel (the records' values, the records themselves,
the outputs of a mechanism on databases) gives an object that every label-free property
treats the same way: the leakages, DP's ε, δ_A(b), ... are unchanged.  A small scope asked
for ``up_to_relabelling=True`` keeps, of every orbit of the relabelling group, the one
instance whose raw parts (rows, priors, laws: tuples of exact fractions) are least; it
stands for its whole orbit (its weight is the orbit's size), so the coverage reported is
still counted in instances of the full enumeration.  Each orbit lies in one layer (a
relabelling keeps the alphabet sizes and the grid level of every vector), so every orbit of
the full enumeration keeps exactly one representative.

**Only for properties that do not depend on labels.**  A property about "the first output",
"input 0" or "the record at position 0" can hold on the representative and fail elsewhere in
its orbit; for such properties leave the reduction off (the default).

>>> group = kernel_group([(0, 1), (1, 0)], outputs=2)  # inputs and outputs of a 2 x 2 kernel
>>> len(group), orbit_weight(((0, 1), (1, 0)), group), orbit_weight(((1, 0), (0, 1)), group)
(4, 2, 0)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

__all__ = [
    "PairOrbits",
    "Transform",
    "VectorCodes",
    "database_permutations",
    "kernel_group",
    "orbit_weight",
    "permutations",
    "setting_group",
]

Transform = Callable[[tuple[Any, ...]], tuple[Any, ...]]
"""A relabelling acting on the raw parts of an instance (a tuple that orders instances)."""


def orbit_weight(raw: tuple[Any, ...], group: Sequence[Transform]) -> int:
    """The size of ``raw``'s orbit if ``raw`` is its least element, else 0.

    ``group`` lists every element of the group (the identity may be left out).  A
    non-representative is usually recognised after a few images.
    """
    images = {raw}
    for transform in group:
        image = transform(raw)
        if image < raw:
            return 0
        images.add(image)
    return len(images)


class VectorCodes:
    """Integer codes of grid vectors, for fast orbit tests: each entry p becomes p * scale
    (an integer when ``scale`` is a multiple of every grid denominator), so codes order as
    the vectors do and hash as integer tuples.  Vectors are cached by identity: the
    enumerators share one object per vector (for one enumeration only)."""

    def __init__(self, scale: int) -> None:
        self.scale = scale
        self._codes: dict[int, tuple[int, ...]] = {}

    def vector(self, vector: tuple[Any, ...]) -> tuple[int, ...]:
        """The code of one vector."""
        found = self._codes.get(id(vector))
        if found is None:
            found = tuple(int(p * self.scale) for p in vector)
            self._codes[id(vector)] = found
        return found

    def vectors(self, vectors: tuple[tuple[Any, ...], ...]) -> tuple[tuple[int, ...], ...]:
        """The codes of a tuple of vectors (a kernel's rows, the records' laws)."""
        return tuple(self.vector(v) for v in vectors)


def permutations(count: int) -> list[tuple[int, ...]]:
    """Every permutation of ``range(count)`` (as ``p[old] = new``), identity first."""
    return list(itertools.permutations(range(count)))


def kernel_group(
    input_permutations: Sequence[tuple[int, ...]], *, outputs: int, extras: int = 0
) -> list[Transform]:
    """Relabellings of a kernel's raw parts ``(row_0, ..., row_{n-1}, *extras)``.

    Every pair (σ, π) of an input permutation (``σ[old] = new``, from
    ``input_permutations``) and an output permutation: row i moves to position σ[i] with
    its entries permuted by π.  Each extra part is a vector indexed by the inputs (a prior),
    moved by σ.
    """
    groups: list[Transform] = []
    for sigma in input_permutations:
        for pi in permutations(outputs):
            groups.append(_kernel_transform(sigma, pi, extras))
    return groups


def _kernel_transform(sigma: tuple[int, ...], pi: tuple[int, ...], extras: int) -> Transform:
    count = len(sigma)
    inverse_pi = [0] * len(pi)
    for old, new in enumerate(pi):
        inverse_pi[new] = old
    inverse_sigma = [0] * count
    for old, new in enumerate(sigma):
        inverse_sigma[new] = old

    def transform(raw: tuple[Any, ...]) -> tuple[Any, ...]:
        rows = tuple(
            tuple(raw[inverse_sigma[i]][inverse_pi[j]] for j in range(len(pi)))
            for i in range(count)
        )
        moved = tuple(
            tuple(raw[count + e][inverse_sigma[i]] for i in range(count)) for e in range(extras)
        )
        return rows + moved + tuple(raw[count + extras :])

    return transform


def database_permutations(alphabet_size: int, size: int) -> list[tuple[int, ...]]:
    """The permutations of D^n (databases in lexicographic order) that keep Hamming
    distances: permute the records, and relabel each record's values on its own."""
    databases = list(itertools.product(range(alphabet_size), repeat=size))
    position = {x: i for i, x in enumerate(databases)}
    found: dict[tuple[int, ...], None] = {}
    for order in itertools.permutations(range(size)):
        for relabels in itertools.product(permutations(alphabet_size), repeat=size):
            image = [0] * len(databases)
            for i, x in enumerate(databases):
                moved = [0] * size
                for record, value in enumerate(x):
                    moved[order[record]] = relabels[record][value]
                image[i] = position[tuple(moved)]
            found[tuple(image)] = None
    return list(found)


class PairOrbits:
    """Orbits of pairs (a, b) under a group acting on both parts at once.

    ``group`` lists (transform of a, transform of b) for every element; the images of each
    part are computed once and cached (a setting meets thousands of kernels, a kernel
    hundreds of settings), so a pair's test compares cached images only.
    """

    def __init__(self, group: Sequence[tuple[Transform, Transform]]) -> None:
        self.group = list(group)
        self._first: dict[Any, list[Any]] = {}
        self._second: dict[Any, list[Any]] = {}

    def _images(self, cache: dict[Any, list[Any]], part: Any, side: int) -> list[Any]:
        found = cache.get(part)
        if found is None:
            found = [pair[side](part) for pair in self.group]
            cache[part] = found
        return found

    def weight(self, first: Any, second: Any) -> int:
        """The orbit's size if (first, second) is its least element, else 0."""
        firsts = self._images(self._first, first, 0)
        seconds = self._images(self._second, second, 1)
        images = set()
        for a, b in zip(firsts, seconds, strict=True):
            if a < first or (a == first and b < second):
                return 0
            images.add((a, b))
        return len(images)


def setting_group(records: int, outputs: int) -> list[tuple[Transform, Transform]]:
    """Relabellings of a partial-knowledge setting on binary records, raw parts
    ``(laws, target, value, known)``, together with a kernel on its databases (raw parts:
    one row per database, databases in lexicographic order).

    A record permutation moves laws, target, known records and database coordinates; a
    value flip on record j reverses its law, swaps t and t' when j is the target, and flips
    bit j of every database; an output permutation permutes every row's entries.
    """
    databases = list(itertools.product((0, 1), repeat=records))
    position = {x: i for i, x in enumerate(databases)}
    transforms: list[tuple[Transform, Transform]] = []
    for order in itertools.permutations(range(records)):
        for flips in itertools.product((0, 1), repeat=records):
            image = [0] * len(databases)
            for i, x in enumerate(databases):
                moved = [0] * records
                for record, value in enumerate(x):
                    moved[order[record]] = value ^ flips[record]
                image[i] = position[tuple(moved)]
            setting = _setting_transform(order, flips)
            for pi in permutations(outputs):
                transforms.append((setting, _kernel_transform(tuple(image), pi, 0)))
    return transforms


def _setting_transform(order: tuple[int, ...], flips: tuple[int, ...]) -> Transform:
    inverse_order = [0] * len(order)
    for old, new in enumerate(order):
        inverse_order[new] = old

    def transform(raw: tuple[Any, ...]) -> tuple[Any, ...]:
        laws, target, value, known = raw
        moved_laws = tuple(
            laws[old][::-1] if flips[old] else laws[old]
            for old in (inverse_order[new] for new in range(len(order)))
        )
        moved_known = tuple(sorted(order[j] for j in known))
        return moved_laws, order[target], value ^ flips[target], moved_known

    return transform
