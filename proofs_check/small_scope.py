"""Small-scope enumeration: every small exact object, smallest first (as model finders do).

Most false claims about finite privacy objects already fail on tiny ones: two inputs, two
outputs, probabilities 1/2 or 1/3.  Random generation may still miss them (a regime hit by
2% of random draws is missed at 50 examples a third of the time), so
:func:`~proofs_check.properties.property_holds` first checks a property on *every* instance
of a small scope (``small_scope=``), then on random instances (Hypothesis).

A :class:`SmallScope` is an ordered, lazily built sequence of exact instances, split into
:class:`Layer` s that say what they hold (``"|X| = 2, |Y| = 2, grid 1/2"``).  Layers go from
the smallest alphabets to larger ones, and within an alphabet from the coarsest grid to the
finest, so the first counterexample the enumeration meets is minimal in this order, and
the report can say where it was found ("instance 17 of 336 (|X| = 2, |Y| = 2, grid 1/2)").

**Grids.**  The entries of every probability vector lie on a small grid: the multiples of
``1/d`` for ``d`` in ``grid`` (default ``(2, 3, 4)``), zeros and deterministic vectors
included.  A vector belongs to the first grid it lies on: level ``deterministic`` (entries
0 and 1), then ``grid 1/2``, ``grid 1/3`` (the multiples of 1/3 not already listed), then
``grid 1/4``.  An object made of several vectors (a kernel's rows, a prior) is in the
layer ``grid 1/d`` when each of its vectors lies on one of the grids up to ``1/d`` and some
vector needs ``1/d``: kernels with one row (1/2, 1/2) and another (1/3, 2/3) are in the layer
``grid 1/3``.  On two outcomes the levels hold 2, 1, 2 and 2 vectors (7 in all); on three,
3, 3, 7 and 9 (22); on four, 4, 6, 16 and 25 (51).

**Sizes** (with the defaults; ``len(scope)`` gives them, and each enumerator's docstring):
:func:`probability_vectors` of size 2: 7; :func:`distributions`: 30; :func:`mechanisms`
(|X|, |Y| <= 3): 11 556; :func:`mechanisms_with_prior` (|X|, |Y| <= 2): 358;
:func:`attributes` on two inputs: 534; :func:`pair_kernels` (|X| <= 2, Y1, Y2 <= 2): 2 766;
:func:`database_mechanisms` (|D| = 2, n <= 2, two outputs): 2 456;
:func:`partial_knowledge_settings` (<= 2 records): 290; :func:`setting_mechanisms`: 673 060;
:func:`bounded_leakage_models`: 489 552.  A property checks at most
:data:`~proofs_check.context.SMALL_SCOPE_BUDGET` instances per profile (quick 2 000, default
10 000, thorough 100 000), the first ones in this order.

Every enumerator builds its objects with exactpml's public constructors, so a counterexample
prints (``repr``) as the object itself.  Users pass them to ``property_holds``::

    from proofs_check import small_scope
    property_holds(ctx, xst.mechanisms(), holds, describe="...",
                   small_scope=small_scope.mechanisms(max_inputs=2))

>>> scope = mechanisms(max_inputs=2, max_outputs=2)
>>> len(scope), scope.locate(20)
(58, (21, Layer('|X| = 2, |Y| = 2, grid 1/3', 16)))
>>> next(iter(scope))
Mechanism({0: {0: '1'}}, outputs=[0])
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar

from exactpml.bldp.model import BoundedLeakageModel
from exactpml.core.distribution import Distribution
from exactpml.core.mechanism import Mechanism
from exactpml.database import DatabaseMechanism, DatabaseSpace
from exactpml.errors import InvalidArgument
from exactpml.partial_knowledge.setting import PartialKnowledge
from exactpml.structured import (
    CountingQuery,
    GeometricNoise,
    PerRecordMechanism,
    QueryMechanism,
    randomized_response,
)
from proofs_check.context import SMALL_SCOPE_BUDGET

__all__ = [
    "GRID",
    "SMALL_SCOPE_BUDGET",
    "Layer",
    "SmallScope",
    "attributes",
    "bounded_leakage_models",
    "database_mechanisms",
    "distributions",
    "mechanisms",
    "mechanisms_with_prior",
    "pair_kernels",
    "partial_knowledge_settings",
    "probability_vectors",
    "setting_mechanisms",
]

T = TypeVar("T")
U = TypeVar("U")
Vector = tuple[Fraction, ...]

GRID: tuple[int, ...] = (2, 3, 4)
"""The default grid: entries are multiples of 1/2, 1/3 or 1/4 (zeros and ones included)."""


@dataclass(frozen=True, slots=True)
class Layer(Generic[T]):
    """A run of consecutive instances of a small scope, described in words.

    Attributes:
        description: What the layer holds, e.g. ``"|X| = 2, |Y| = 2, grid 1/2"``.
        size: How many instances it yields (``None``: not known in advance).
        build: Yields the instances, in order (called anew for each enumeration).
    """

    description: str
    size: int | None
    build: Callable[[], Iterable[T]]

    def __repr__(self) -> str:
        return f"Layer({self.description!r}, {self.size})"


class SmallScope(Generic[T]):
    """An exhaustive, ordered enumeration of small exact instances, in layers.

    Iterating yields every instance, smallest first (layer by layer); ``len`` is the number
    of instances (when every layer's size is known); :meth:`locate` says in which layer the
    ``index``-th instance lies.  Instances are built lazily: only those enumerated are built.

    >>> scope = SmallScope("two numbers", [Layer("small", 2, lambda: [0, 1])])
    >>> list(scope + SmallScope.of("one more", [7])), len(scope)
    ([0, 1, 7], 2)
    """

    __slots__ = ("description", "layers")

    def __init__(self, description: str, layers: Iterable[Layer[T]]) -> None:
        if not isinstance(description, str) or not description.strip():
            raise InvalidArgument("a small scope needs a description in words")
        self.description = description
        self.layers: tuple[Layer[T], ...] = tuple(
            layer for layer in layers if layer.size is None or layer.size > 0
        )

    @classmethod
    def of(cls, description: str, instances: Iterable[T]) -> SmallScope[T]:
        """A one-layer scope of the given instances (a list, or any re-iterable)."""
        items = list(instances)
        return cls(description, [Layer(description, len(items), lambda: items)])

    @property
    def size(self) -> int | None:
        """The number of instances, or ``None`` if some layer's size is unknown."""
        total = 0
        for layer in self.layers:
            if layer.size is None:
                return None
            total += layer.size
        return total

    def __len__(self) -> int:
        size = self.size
        if size is None:
            raise TypeError(f"the size of the small scope {self.description!r} is not known")
        return size

    def __iter__(self) -> Iterator[T]:
        for layer in self.layers:
            yield from layer.build()

    def locate(self, index: int) -> tuple[int, Layer[T] | None]:
        """The 1-based position of the ``index``-th instance (0-based) and its layer.

        The layer is ``None`` when ``index`` lies beyond the layers of known size.
        """
        start = 0
        for layer in self.layers:
            if layer.size is None:
                return index + 1, layer
            if index < start + layer.size:
                return index + 1, layer
            start += layer.size
        return index + 1, None

    def map(self, function: Callable[[T], U], *, description: str | None = None) -> SmallScope[U]:
        """The same enumeration with ``function`` applied to every instance (sizes kept)."""

        def mapped(layer: Layer[T]) -> Layer[U]:
            return Layer(layer.description, layer.size, lambda: map(function, layer.build()))

        return SmallScope(description or self.description, [mapped(x) for x in self.layers])

    def __add__(self, other: SmallScope[T]) -> SmallScope[T]:
        if not isinstance(other, SmallScope):
            return NotImplemented
        return SmallScope(
            f"{self.description}, then {other.description}", self.layers + other.layers
        )

    def __repr__(self) -> str:
        size = self.size
        count = "an unknown number of" if size is None else f"{size}"
        return f"<SmallScope {self.description!r}: {count} instances in {len(self.layers)} layers>"


# --- grids ----------------------------------------------------------------------------------


def _check_grid(grid: Sequence[int]) -> tuple[int, ...]:
    values = tuple(grid)
    if not values or any(isinstance(d, bool) or not isinstance(d, int) or d < 2 for d in values):
        raise InvalidArgument(f"grid={grid!r} must list denominators >= 2, e.g. (2, 3, 4)")
    return tuple(sorted(set(values)))


def _check_range(name: str, low: int, high: int) -> None:
    for value in (low, high):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidArgument(f"{name}: {value!r} must be an integer")
    if low < 1:
        raise InvalidArgument(f"{name}: the minimum {low} must be at least 1")
    if high < low:
        raise InvalidArgument(f"{name}: the maximum {high} is below the minimum {low}")


def _compositions(size: int, total: int) -> Iterator[tuple[int, ...]]:
    """Non-negative integer vectors of ``size`` entries summing to ``total`` (lexicographic)."""
    if size == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(size - 1, total - first):
            yield (first, *rest)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _level_name(denominator: int) -> str:
    return "deterministic" if denominator == 1 else f"grid 1/{denominator}"


def _vector_levels(size: int, grid: tuple[int, ...], *, positive: bool) -> list[list[Vector]]:
    """The probability vectors of ``size`` entries new at each level (1, then ``grid``)."""
    seen: set[Vector] = set()
    levels: list[list[Vector]] = []
    for denominator in (1, *grid):
        new: list[Vector] = []
        for weights in _compositions(size, denominator):
            vector = tuple(Fraction(w, denominator) for w in weights)
            if vector in seen:
                continue
            seen.add(vector)
            if not positive or all(weights):
                new.append(vector)
        levels.append(new)
    return levels


@dataclass(frozen=True, slots=True)
class _Graded:
    """Per level, the tuples of a product of graded components whose top level is that one."""

    size: int
    items: Callable[[], Iterator[tuple[Any, ...]]]


def _graded_product(components: Sequence[Sequence[Sequence[Any]]]) -> list[_Graded]:
    """``components[i][level]`` are the items of component i new at ``level``.

    Level L holds the tuples whose components all lie at levels <= L, one at L exactly, in
    lexicographic order; sizes are exact (products of cumulative counts).
    """
    if not components:
        raise InvalidArgument("a graded product needs at least one component")
    cumulative: list[list[tuple[int, Any]]] = [[] for _ in components]
    previous = 0
    graded: list[_Graded] = []
    for level in range(len(components[0])):
        for index, component in enumerate(components):
            cumulative[index] = cumulative[index] + [(level, item) for item in component[level]]
        total = math.prod(len(items) for items in cumulative)
        size, previous = total - previous, total
        snapshot = [list(items) for items in cumulative]

        def items(
            snapshot: list[list[tuple[int, Any]]] = snapshot, top: int = level
        ) -> Iterator[tuple[Any, ...]]:
            for combination in itertools.product(*snapshot):
                if any(level == top for level, _ in combination):
                    yield tuple(item for _, item in combination)

        graded.append(_Graded(size, items))
    return graded


def _layers(
    graded: list[_Graded],
    grid: tuple[int, ...],
    describe: Callable[[str], str],
    build: Callable[[tuple[Any, ...]], T],
) -> list[Layer[T]]:
    layers: list[Layer[T]] = []
    for denominator, level in zip((1, *grid), graded, strict=True):
        if level.size == 0:
            continue
        layers.append(
            Layer(
                describe(_level_name(denominator)),
                level.size,
                _built(level, build),
            )
        )
    return layers


def _built(level: _Graded, build: Callable[[tuple[Any, ...]], T]) -> Callable[[], Iterator[T]]:
    def instances() -> Iterator[T]:
        for parts in level.items():
            yield build(parts)

    return instances


def _chain(parts: Sequence[tuple[Callable[[], Iterable[T]], int]]) -> Callable[[], Iterator[T]]:
    def chained() -> Iterator[T]:
        for factory, _ in parts:
            yield from factory()

    return chained


# --- vectors, distributions, kernels ----------------------------------------------------------


def probability_vectors(
    size: int, *, grid: Sequence[int] = GRID, full_support: bool = False
) -> SmallScope[Vector]:
    """Every probability vector of ``size`` entries on the grid, coarsest grid first.

    Sizes with the default grid: 7 vectors of size 2 (5 with full support), 22 of size 3,
    51 of size 4.

    >>> [str(sum(v)) for v in probability_vectors(2)], len(probability_vectors(3))
    (['1', '1', '1', '1', '1', '1', '1'], 22)
    >>> [tuple(str(p) for p in v) for v in probability_vectors(2, grid=(2,))]
    [('0', '1'), ('1', '0'), ('1/2', '1/2')]
    """
    _check_range("probability_vectors (size)", size, size)
    denominators = _check_grid(grid)
    levels = _vector_levels(size, denominators, positive=full_support)
    graded = _graded_product([levels])
    return SmallScope(
        f"probability vectors of size {size} on the grid {_grid_text(denominators)}",
        _layers(graded, denominators, lambda level: f"size {size}, {level}", lambda p: p[0]),
    )


def _prefix(text: str) -> Callable[[str], str]:
    return lambda level: f"{text}, {level}"


def _grid_text(grid: tuple[int, ...]) -> str:
    return ", ".join(f"1/{d}" for d in grid)


def distributions(
    *,
    outcomes: Sequence[Hashable] | None = None,
    min_size: int = 1,
    max_size: int = 3,
    grid: Sequence[int] = GRID,
    full_support: bool = False,
) -> SmallScope[Distribution]:
    """Every distribution on ``outcomes`` (else on ``range(n)``, n from min to max) on the grid.

    Default: 1 + 7 + 22 = 30 distributions on {0}, {0, 1} and {0, 1, 2}.

    >>> len(distributions()), len(distributions(outcomes="ab", full_support=True))
    (30, 5)
    """
    denominators = _check_grid(grid)
    if outcomes is not None:
        labels_list: list[list[Hashable]] = [list(outcomes)]
        if not labels_list[0]:
            raise InvalidArgument("distributions: outcomes is empty")
    else:
        _check_range("distributions (size)", min_size, max_size)
        labels_list = [list(range(n)) for n in range(min_size, max_size + 1)]
    layers: list[Layer[Distribution]] = []
    for labels in labels_list:
        levels = _vector_levels(len(labels), denominators, positive=full_support)

        def build(parts: tuple[Any, ...], labels: list[Hashable] = labels) -> Distribution:
            return Distribution(dict(zip(labels, parts[0], strict=True)))

        layers += _layers(
            _graded_product([levels]), denominators, _prefix(f"{len(labels)} outcomes"), build
        )
    support = "full-support " if full_support else ""
    return SmallScope(f"{support}distributions on the grid {_grid_text(denominators)}", layers)


def _kernel_layers(
    inputs: Sequence[Hashable],
    outputs: Sequence[Hashable],
    grid: tuple[int, ...],
    *,
    positive: bool,
    label: str,
    name: str = "mechanism",
    extra: Sequence[Sequence[Sequence[Any]]] = (),
    finish: Callable[[Mechanism, tuple[Any, ...]], Any] | None = None,
) -> list[Layer[Any]]:
    """Layers of every kernel inputs -> outputs with grid rows (plus graded ``extra`` parts)."""
    rows = _vector_levels(len(outputs), grid, positive=positive)
    graded = _graded_product([rows] * len(inputs) + list(extra))
    count = len(inputs)

    def build(parts: tuple[Any, ...]) -> Any:
        kernel = Mechanism.from_matrix(
            list(parts[:count]), inputs=list(inputs), outputs=list(outputs), name=name
        )
        return kernel if finish is None else finish(kernel, parts[count:])

    return _layers(graded, grid, lambda level: f"{label}, {level}", build)


def _shapes(
    inputs: Sequence[Hashable] | None,
    outputs: Sequence[Hashable] | None,
    input_range: tuple[int, int],
    output_range: tuple[int, int],
) -> list[tuple[list[Hashable], list[Hashable]]]:
    """(inputs, outputs) alphabets, smallest first: by |X|·|Y|, then |X|."""
    if inputs is not None and not list(inputs):
        raise InvalidArgument("the input alphabet is empty")
    if outputs is not None and not list(outputs):
        raise InvalidArgument("the output alphabet is empty")
    if inputs is None:
        _check_range("inputs", *input_range)
    if outputs is None:
        _check_range("outputs", *output_range)
    input_sets: list[list[Hashable]] = (
        [list(inputs)]
        if inputs is not None
        else [list(range(a)) for a in range(input_range[0], input_range[1] + 1)]
    )
    output_sets: list[list[Hashable]] = (
        [list(outputs)]
        if outputs is not None
        else [list(range(b)) for b in range(output_range[0], output_range[1] + 1)]
    )
    shapes = [(x, y) for x in input_sets for y in output_sets]
    return sorted(shapes, key=lambda shape: (len(shape[0]) * len(shape[1]), len(shape[0])))


def mechanisms(
    *,
    inputs: Sequence[Hashable] | None = None,
    outputs: Sequence[Hashable] | None = None,
    min_inputs: int = 1,
    max_inputs: int = 3,
    min_outputs: int = 1,
    max_outputs: int = 3,
    grid: Sequence[int] = GRID,
    zeros: bool = True,
) -> SmallScope[Mechanism]:
    """Every kernel P_{Y|X} with rows on the grid, smallest alphabets first.

    Alphabets ``range(|X|)`` and ``range(|Y|)`` (or the given labels), ordered by |X|·|Y|
    then |X|; within one, coarsest grid first.  Zero entries, deterministic rows and outputs
    that no input produces are all included; ``zeros=False`` keeps strictly positive rows.
    Default (|X|, |Y| <= 3): 11 556 kernels, of which 58 have |X|, |Y| <= 2 and 10 648 are
    3 x 3.

    >>> len(mechanisms()), len(mechanisms(inputs=[0, 1], outputs=[0, 1], zeros=False))
    (11556, 25)
    """
    denominators = _check_grid(grid)
    layers: list[Layer[Mechanism]] = []
    for xs, ys in _shapes(inputs, outputs, (min_inputs, max_inputs), (min_outputs, max_outputs)):
        layers += _kernel_layers(
            xs, ys, denominators, positive=not zeros, label=f"|X| = {len(xs)}, |Y| = {len(ys)}"
        )
    return SmallScope(
        f"kernels with rows on the grid {_grid_text(denominators)}"
        + ("" if zeros else ", no zero entry"),
        layers,
    )


def mechanisms_with_prior(
    *,
    min_inputs: int = 1,
    max_inputs: int = 2,
    min_outputs: int = 1,
    max_outputs: int = 2,
    grid: Sequence[int] = GRID,
    zeros: bool = True,
    full_support: bool = False,
) -> SmallScope[tuple[Mechanism, Distribution]]:
    """Every (kernel, prior on its inputs) pair with kernel rows and prior on the grid.

    The pair's grid is the finer of the two.  Default (|X|, |Y| <= 2): 358 pairs
    (343 with |X| = |Y| = 2); with ``max_inputs=3, max_outputs=3``: 245 592.

    >>> len(mechanisms_with_prior()), len(mechanisms_with_prior(full_support=True))
    (358, 258)
    """
    denominators = _check_grid(grid)
    layers: list[Layer[tuple[Mechanism, Distribution]]] = []
    for xs, ys in _shapes(None, None, (min_inputs, max_inputs), (min_outputs, max_outputs)):
        prior_levels = _vector_levels(len(xs), denominators, positive=full_support)

        def finish(
            kernel: Mechanism, rest: tuple[Any, ...], xs: list[Hashable] = xs
        ) -> tuple[Mechanism, Distribution]:
            return kernel, Distribution(dict(zip(xs, rest[0], strict=True)), name="prior")

        layers += _kernel_layers(
            xs,
            ys,
            denominators,
            positive=not zeros,
            label=f"|X| = {len(xs)}, |Y| = {len(ys)} with a prior",
            extra=[prior_levels],
            finish=finish,
        )
    return SmallScope(
        f"kernels with a prior, on the grid {_grid_text(denominators)}"
        + (", full-support priors" if full_support else ""),
        layers,
    )


def attributes(
    inputs: Sequence[Hashable],
    *,
    min_values: int = 1,
    max_values: int = 3,
    grid: Sequence[int] = GRID,
    deterministic: bool | None = None,
) -> SmallScope[Mechanism]:
    """Attributes P_{U|X} on ``inputs``: every deterministic map X -> U first, then grid kernels.

    U = ``range(k)`` for k from ``min_values`` to ``max_values``; ``deterministic=True``
    keeps the maps only, ``False`` the randomised kernels only.  On two inputs: 14 maps and
    520 randomised kernels (534); on three inputs: 36 maps and 10 956 randomised kernels.

    >>> len(attributes([0, 1])), len(attributes([0, 1], deterministic=True))
    (534, 14)
    """
    labels = list(inputs)
    if not labels:
        raise InvalidArgument("attributes: the input alphabet is empty")
    _check_range("attributes (values)", min_values, max_values)
    denominators = _check_grid(grid)
    maps: list[Layer[Mechanism]] = []
    kernels: list[Layer[Mechanism]] = []
    for k in range(min_values, max_values + 1):
        layers = _kernel_layers(
            labels,
            list(range(k)),
            denominators,
            positive=False,
            label=f"|X| = {len(labels)}, |U| = {k}",
            name="attribute",
        )
        for layer in layers:
            deterministic_layer = layer.description.endswith("deterministic")
            (maps if deterministic_layer else kernels).append(layer)
    chosen = maps if deterministic else kernels if deterministic is False else maps + kernels
    return SmallScope(
        f"attributes on {len(labels)} inputs (maps, then kernels on the grid "
        f"{_grid_text(denominators)})",
        chosen,
    )


def pair_kernels(
    *,
    min_inputs: int = 1,
    max_inputs: int = 2,
    max_first: int = 2,
    max_second: int = 2,
    grid: Sequence[int] = GRID,
) -> SmallScope[Mechanism]:
    """Every kernel X -> (Y1, Y2) with outputs the pairs ``(y1, y2)``, rows on the grid.

    |X| from ``min_inputs`` to ``max_inputs``, Y1 = ``range(k1)``, Y2 = ``range(k2)`` with
    k1 <= ``max_first``, k2 <= ``max_second``; ordered by |X|·|Y1|·|Y2|.  No conditional
    independence of Y1 and Y2 given X is assumed.  Default: 2 766 kernels (2 601 of them
    with |X| = 2 and |Y1| = |Y2| = 2).

    >>> len(pair_kernels()), pair_kernels().layers[-3]
    (2766, Layer('|X| = 2, |Y1| = 2, |Y2| = 2, grid 1/2', 84))
    """
    _check_range("pair_kernels (inputs)", min_inputs, max_inputs)
    _check_range("pair_kernels (first)", 1, max_first)
    _check_range("pair_kernels (second)", 1, max_second)
    denominators = _check_grid(grid)
    shapes = sorted(
        (
            (a, k1, k2)
            for a in range(min_inputs, max_inputs + 1)
            for k1 in range(1, max_first + 1)
            for k2 in range(1, max_second + 1)
        ),
        key=lambda s: (s[0] * s[1] * s[2], s[0], s[1]),
    )
    layers: list[Layer[Mechanism]] = []
    for a, k1, k2 in shapes:
        outputs = [(y1, y2) for y1 in range(k1) for y2 in range(k2)]
        layers += _kernel_layers(
            list(range(a)),
            outputs,
            denominators,
            positive=False,
            label=f"|X| = {a}, |Y1| = {k1}, |Y2| = {k2}",
        )
    return SmallScope(
        f"kernels X -> (Y1, Y2) with rows on the grid {_grid_text(denominators)}", layers
    )


# --- databases ------------------------------------------------------------------------------

_EXP_EPSILONS = (2, 3)
_ALPHAS = (Fraction(1, 2), Fraction(1, 3))


def _one(make: Callable[[], T]) -> Callable[[], list[T]]:
    return lambda: [make()]


def _structured_layers(space: DatabaseSpace) -> list[Layer[DatabaseMechanism]]:
    letters = list(space.alphabet)
    counted = letters[-1]
    layers: list[Layer[DatabaseMechanism]] = []
    for ratio in _EXP_EPSILONS:
        layers.append(
            Layer(
                f"randomized response on each of n = {space.size} records, e^ε = {ratio}",
                1,
                _one(PerRecordMechanism(space, randomized_response(letters, ratio)).explicit),
            )
        )
    for alpha in _ALPHAS:
        predicate = {d: int(d == counted) for d in letters}
        layers.append(
            Layer(
                f"count of the records equal to {counted!r} (n = {space.size}) with two-sided "
                f"geometric noise, α = {alpha}",
                1,
                _one(
                    QueryMechanism(
                        space, CountingQuery(predicate), noise=GeometricNoise(alpha)
                    ).explicit
                ),
            )
        )
    return layers


def database_mechanisms(
    *,
    alphabet_size: int = 2,
    min_size: int = 1,
    max_size: int = 2,
    max_outputs: int = 2,
    grid: Sequence[int] = GRID,
    structured: bool = True,
) -> SmallScope[DatabaseMechanism]:
    """Every database mechanism on D^n with rows on the grid, plus structured ones.

    D = ``range(alphabet_size)``, n from ``min_size`` to ``max_size``, outputs
    ``range(m)`` for m <= ``max_outputs``.  For each n >= 2 (smallest n first), the
    structured mechanisms come first when ``structured``: randomized response on every
    record (e^ε = 2, 3) and the count with two-sided geometric noise (α = 1/2, 1/3), as
    explicit kernels; then every explicit kernel by number of outputs and grid.  Default
    (|D| = 2, n <= 2, two outputs): 50 on D^1, then 4 structured and 2 402 explicit on D^2
    (2 456).

    >>> scope = database_mechanisms()
    >>> len(scope), scope.locate(51)[1]
    (2456, Layer('randomized response on each of n = 2 records, e^ε = 3', 1))
    """
    _check_range("database_mechanisms (alphabet)", alphabet_size, alphabet_size)
    _check_range("database_mechanisms (size)", min_size, max_size)
    _check_range("database_mechanisms (outputs)", 1, max_outputs)
    denominators = _check_grid(grid)
    layers: list[Layer[DatabaseMechanism]] = []
    for n in range(min_size, max_size + 1):
        space = DatabaseSpace(range(alphabet_size), n)
        if structured and n >= 2:
            layers += _structured_layers(space)
        databases = list(space.databases())
        for m in range(1, max_outputs + 1):

            def finish(
                kernel: Mechanism, _: tuple[Any, ...], space: DatabaseSpace = space
            ) -> DatabaseMechanism:
                return DatabaseMechanism(kernel, alphabet=space.alphabet, size=space.size)

            layers += _kernel_layers(
                databases,
                list(range(m)),
                denominators,
                positive=False,
                label=f"|D| = {alphabet_size}, n = {n}, {_plural(m, 'output')}",
                finish=finish,
            )
    return SmallScope(
        f"database mechanisms on D^n, |D| = {alphabet_size}, n <= {max_size}, rows on the grid "
        f"{_grid_text(denominators)}" + (", structured ones first" if structured else ""),
        layers,
    )


# --- partial knowledge and bounded leakage ----------------------------------------------------


def _settings_at(
    records: int, grid: tuple[int, ...]
) -> list[tuple[int, list[tuple[Callable[[], Iterator[PartialKnowledge]], int]]]]:
    """Per level: the (factory, size) parts of the settings on ``records`` binary records."""
    free = _vector_levels(2, grid, positive=False)
    positive = _vector_levels(2, grid, positive=True)
    parts: list[list[tuple[Callable[[], Iterator[PartialKnowledge]], int]]] = [
        [] for _ in range(len(grid) + 1)
    ]
    for target in range(records):
        others = [j for j in range(records) if j != target]
        components = [positive if j == target else free for j in range(records)]
        graded = _graded_product(components)
        known_sets = [
            list(subset)
            for size in range(len(others) + 1)
            for subset in itertools.combinations(others, size)
        ]
        choices = [(value, 1 - value, known) for known in known_sets for value in (0, 1)]
        for level, layer in enumerate(graded):

            def settings(
                layer: _Graded = layer,
                target: int = target,
                choices: list[tuple[int, int, list[int]]] = choices,
            ) -> Iterator[PartialKnowledge]:
                for vectors in layer.items():
                    laws = [Distribution({0: v[0], 1: v[1]}) for v in vectors]
                    for value, alternative, known in choices:
                        yield PartialKnowledge(
                            laws, target=target, value=value, alternative=alternative, known=known
                        )

            parts[level].append((settings, layer.size * len(choices)))
    return list(enumerate(parts))


def partial_knowledge_settings(
    *, max_records: int = 2, grid: Sequence[int] = GRID
) -> SmallScope[PartialKnowledge]:
    """Every partial-knowledge setting on 1 to ``max_records`` binary records, laws on the grid.

    Independent records on {0, 1}; the target's law has full support (so t = 0 and t' = 1
    are both possible, in both orders), the others may be degenerate; the adversary knows
    any subset of the other records.  By number of records, then grid.  One record: 10
    settings; two: 280 (290 in all).

    >>> len(partial_knowledge_settings()), len(partial_knowledge_settings(max_records=1))
    (290, 10)
    """
    _check_range("partial_knowledge_settings (records)", 1, max_records)
    denominators = _check_grid(grid)
    layers: list[Layer[PartialKnowledge]] = []
    for records in range(1, max_records + 1):
        for level, parts in _settings_at(records, denominators):
            size = sum(size for _, size in parts)
            layers.append(
                Layer(
                    f"{_plural(records, 'binary record')}, "
                    f"{_level_name((1, *denominators)[level])}",
                    size,
                    _chain(parts),
                )
            )
    return SmallScope(
        f"partial-knowledge settings on <= {max_records} binary records, laws on the grid "
        f"{_grid_text(denominators)}",
        layers,
    )


def setting_mechanisms(
    *, max_records: int = 2, max_outputs: int = 2, grid: Sequence[int] = GRID
) -> SmallScope[tuple[PartialKnowledge, Mechanism]]:
    """(setting, mechanism) pairs: a setting of :func:`partial_knowledge_settings` and every
    kernel on its database tuples with up to ``max_outputs`` outputs, rows on the grid.

    By number of records, then outputs, then the finer grid of the two.  One record:
    500 pairs; two records: 672 560 (the budget cuts them short).

    >>> len(setting_mechanisms(max_records=1))
    500
    """
    _check_range("setting_mechanisms (records)", 1, max_records)
    _check_range("setting_mechanisms (outputs)", 1, max_outputs)
    denominators = _check_grid(grid)
    layers: list[Layer[tuple[PartialKnowledge, Mechanism]]] = []
    for records in range(1, max_records + 1):
        databases = list(itertools.product((0, 1), repeat=records))
        settings = [
            [(factory, size) for factory, size in parts]
            for _, parts in _settings_at(records, denominators)
        ]
        for m in range(1, max_outputs + 1):
            rows = _vector_levels(m, denominators, positive=False)
            kernels = _graded_product([rows] * len(databases))
            level_count = len(denominators) + 1
            for top in range(level_count):
                pieces: list[tuple[Callable[[], Iterator[Any]], int]] = []
                # kernel at level `top` with settings at levels <= top, then settings at `top`
                # with kernels strictly below it: every pair exactly once.
                for low in range(top + 1):
                    for factory, size in settings[low]:
                        kernel = kernels[top]
                        pieces.append((_pairing(factory, kernel, databases, m), size * kernel.size))
                for below in range(top):
                    for factory, size in settings[top]:
                        kernel = kernels[below]
                        pieces.append((_pairing(factory, kernel, databases, m), size * kernel.size))
                total = sum(size for _, size in pieces)
                if total == 0:
                    continue
                layers.append(
                    Layer(
                        f"{_plural(records, 'binary record')}, {_plural(m, 'output')}, "
                        f"{_level_name((1, *denominators)[top])}",
                        total,
                        _chain(pieces),
                    )
                )
    return SmallScope(
        f"partial-knowledge settings on <= {max_records} binary records with every mechanism "
        f"on their databases (<= {max_outputs} outputs), on the grid {_grid_text(denominators)}",
        layers,
    )


def _pairing(
    settings: Callable[[], Iterator[PartialKnowledge]],
    kernels: _Graded,
    databases: list[tuple[int, ...]],
    outputs: int,
) -> Callable[[], Iterator[tuple[PartialKnowledge, Mechanism]]]:
    def pairs() -> Iterator[tuple[PartialKnowledge, Mechanism]]:
        for setting in settings():
            for rows in kernels.items():
                yield (
                    setting,
                    Mechanism.from_matrix(
                        list(rows), inputs=databases, outputs=list(range(outputs))
                    ),
                )

    return pairs


_BLDP_SHAPES = ((1, 2), (1, 3), (2, 2))


def bounded_leakage_models(
    *,
    shapes: Sequence[tuple[int, int]] = _BLDP_SHAPES,
    max_randomness: int = 2,
    max_outputs: int = 2,
    max_leakages: int = 2,
    grid: Sequence[int] = GRID,
) -> SmallScope[BoundedLeakageModel]:
    """Every bounded-leakage model with small tables: databases D^n for (n, |D|) in
    ``shapes`` (one record on {0, 1} or {0, 1, 2}, two records on {0, 1}; "differ in one
    record" neighbours), randomness R of 1 to ``max_randomness`` values with a law on the
    grid (zeros included), and every table M(x, r) in ``range(max_outputs)`` and P(x, r) in
    ``range(max_leakages)``.  Ordered by the number of cells |D^n|·|R|, then grid.  Default:
    16 (one bit, |R| = 1), 64 (one trit), 1 792 (one bit, |R| = 2), 256 (two bits,
    |R| = 1), 28 672 (one trit, |R| = 2), 458 752 (two bits, |R| = 2): 489 552.

    >>> len(bounded_leakage_models(shapes=[(1, 2)]))
    1808
    """
    _check_range("bounded_leakage_models (randomness)", 1, max_randomness)
    _check_range("bounded_leakage_models (outputs)", 1, max_outputs)
    _check_range("bounded_leakage_models (leakages)", 1, max_leakages)
    denominators = _check_grid(grid)
    for shape in shapes:
        if len(shape) != 2:
            raise InvalidArgument(f"shapes: {shape!r} must be (records, alphabet size)")
        _check_range("bounded_leakage_models (records)", shape[0], shape[0])
        _check_range("bounded_leakage_models (alphabet)", shape[1], shape[1])
    configurations = sorted(
        ((n, k, r) for n, k in shapes for r in range(1, max_randomness + 1)),
        key=lambda c: (c[1] ** c[0] * c[2], c[1] ** c[0], c[0]),
    )
    layers: list[Layer[BoundedLeakageModel]] = []
    for n, k, r in configurations:
        databases = list(itertools.product(range(k), repeat=n))
        cells = [(x, value) for x in databases for value in range(r)]
        tables = max_outputs ** len(cells) * max_leakages ** len(cells)
        graded = _graded_product([_vector_levels(r, denominators, positive=False)])
        for denominator, level in zip((1, *denominators), graded, strict=True):
            if level.size == 0:
                continue

            def models(
                level: _Graded = level,
                databases: list[tuple[int, ...]] = databases,
                cells: list[tuple[tuple[int, ...], int]] = cells,
            ) -> Iterator[BoundedLeakageModel]:
                for (law,) in level.items():
                    randomness = Distribution(dict(enumerate(law)), name="randomness")
                    for outputs in itertools.product(range(max_outputs), repeat=len(cells)):
                        for leaks in itertools.product(range(max_leakages), repeat=len(cells)):
                            yield BoundedLeakageModel(
                                randomness,
                                dict(zip(cells, outputs, strict=True)),
                                dict(zip(cells, leaks, strict=True)),
                                databases=databases,
                            )

            layers.append(
                Layer(
                    f"n = {n}, |D| = {k}, |R| = {r}, {_level_name(denominator)} randomness",
                    level.size * tables,
                    models,
                )
            )
    return SmallScope(
        f"bounded-leakage models with |R| <= {max_randomness}, <= {max_outputs} outputs and "
        f"<= {max_leakages} leakage values, on the grid {_grid_text(denominators)}",
        layers,
    )
