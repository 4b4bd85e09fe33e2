"""Grids of probability vectors and graded products of them: the raw material of every
small-scope enumerator (vectors whose entries are multiples of 1/d, d in the grid)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument
from proofs_check.small_scope._scope import Layer, Step, inside
from proofs_check.small_scope._symmetry import Transform, VectorCodes, orbit_weight

T = TypeVar("T")
Vector = tuple[Fraction, ...]

GRID: tuple[int, ...] = (2, 3, 4)
"""The default grid: entries are multiples of 1/2, 1/3 or 1/4 (zeros and ones included)."""


def check_grid(grid: Sequence[int]) -> tuple[int, ...]:
    values = tuple(grid)
    if not values or any(isinstance(d, bool) or not isinstance(d, int) or d < 2 for d in values):
        raise InvalidArgument(f"grid={grid!r} must list denominators >= 2, e.g. (2, 3, 4)")
    return tuple(sorted(set(values)))


def check_range(name: str, low: int, high: int) -> None:
    for value in (low, high):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidArgument(f"{name}: {value!r} must be an integer")
    if low < 1:
        raise InvalidArgument(f"{name}: the minimum {low} must be at least 1")
    if high < low:
        raise InvalidArgument(f"{name}: the maximum {high} is below the minimum {low}")


def compositions(size: int, total: int) -> Iterator[tuple[int, ...]]:
    """Non-negative integer vectors of ``size`` entries summing to ``total`` (lexicographic)."""
    if size == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in compositions(size - 1, total - first):
            yield (first, *rest)


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def level_name(denominator: int) -> str:
    return "deterministic" if denominator == 1 else f"grid 1/{denominator}"


def vector_levels(size: int, grid: tuple[int, ...], *, positive: bool) -> list[list[Vector]]:
    """The probability vectors of ``size`` entries new at each level (1, then ``grid``)."""
    seen: set[Vector] = set()
    levels: list[list[Vector]] = []
    for denominator in (1, *grid):
        new: list[Vector] = []
        for weights in compositions(size, denominator):
            vector = tuple(Fraction(w, denominator) for w in weights)
            if vector in seen:
                continue
            seen.add(vector)
            if not positive or all(weights):
                new.append(vector)
        levels.append(new)
    return levels


@dataclass(frozen=True, slots=True)
class Graded:
    """Per level, the tuples of a product of graded components whose top level is that one."""

    size: int
    items: Callable[[], Iterator[tuple[Any, ...]]]


def graded_product(components: Sequence[Sequence[Sequence[Any]]]) -> list[Graded]:
    """``components[i][level]`` are the items of component i new at ``level``.

    Level L holds the tuples whose components all lie at levels <= L, one at L exactly, in
    lexicographic order; sizes are exact (products of cumulative counts).
    """
    if not components:
        raise InvalidArgument("a graded product needs at least one component")
    cumulative: list[list[tuple[int, Any]]] = [[] for _ in components]
    previous = 0
    graded: list[Graded] = []
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

        graded.append(Graded(size, items))
    return graded


def grid_layers(
    graded: list[Graded],
    grid: tuple[int, ...],
    describe: Callable[[str], str],
    build: Callable[[tuple[Any, ...]], T],
    *,
    group: Sequence[Transform] | None = None,
) -> list[Layer[T]]:
    """One layer per grid level; with a relabelling ``group``, one instance per orbit (its
    raw parts least in the orbit), weighted by the orbit's size."""
    layers: list[Layer[T]] = []
    for denominator, level in zip((1, *grid), graded, strict=True):
        if level.size == 0:
            continue
        description = describe(level_name(denominator))
        if group is None:
            layers.append(Layer(description, level.size, level_builder(level, build)))
        else:
            steps = orbit_steps(level.items, build, group, math.lcm(*grid))
            layers.append(Layer(description, level.size, inside(steps), steps))
    return layers


def orbit_steps(
    items: Callable[[], Iterable[tuple[Any, ...]]],
    build: Callable[[tuple[Any, ...]], Any],
    group: Sequence[Transform],
    scale: int,
) -> Callable[[], Iterator[Step]]:
    """Steps of the representatives among ``items()`` (raw parts: grid vectors, compared
    through their integer codes at ``scale``), built and weighted by their orbit's size."""

    def steps() -> Iterator[Step]:
        codes = VectorCodes(scale)
        for parts in items():
            weight = orbit_weight(codes.vectors(parts), group)
            if weight:
                yield Step(build(parts), weight)

    return steps


def level_builder(
    level: Graded, build: Callable[[tuple[Any, ...]], T]
) -> Callable[[], Iterator[T]]:
    def instances() -> Iterator[T]:
        for parts in level.items():
            yield build(parts)

    return instances


def chain(parts: Sequence[tuple[Callable[[], Iterable[T]], int]]) -> Callable[[], Iterator[T]]:
    def chained() -> Iterator[T]:
        for factory, _ in parts:
            yield from factory()

    return chained


def prefix(text: str) -> Callable[[str], str]:
    return lambda level: f"{text}, {level}"


def grid_text(grid: tuple[int, ...]) -> str:
    return ", ".join(f"1/{d}" for d in grid)


def kernel_layers(
    inputs: Sequence[Hashable],
    outputs: Sequence[Hashable],
    grid: tuple[int, ...],
    *,
    positive: bool,
    label: str,
    name: str = "mechanism",
    extra: Sequence[Sequence[Sequence[Any]]] = (),
    finish: Callable[[Mechanism, tuple[Any, ...]], Any] | None = None,
    group: Sequence[Transform] | None = None,
) -> list[Layer[Any]]:
    """Layers of every kernel inputs -> outputs with grid rows (plus graded ``extra`` parts);
    one per orbit of ``group`` (acting on the raw parts) when given."""
    rows = vector_levels(len(outputs), grid, positive=positive)
    graded = graded_product([rows] * len(inputs) + list(extra))
    count = len(inputs)

    def build(parts: tuple[Any, ...]) -> Any:
        kernel = Mechanism.from_matrix(
            list(parts[:count]), inputs=list(inputs), outputs=list(outputs), name=name
        )
        return kernel if finish is None else finish(kernel, parts[count:])

    return grid_layers(graded, grid, lambda level: f"{label}, {level}", build, group=group)


def alphabet_shapes(
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
        check_range("inputs", *input_range)
    if outputs is None:
        check_range("outputs", *output_range)
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
