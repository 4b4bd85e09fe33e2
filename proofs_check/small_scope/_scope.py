"""The ordered, layered enumerations of small instances that the small-scope phase walks.

A :class:`SmallScope` is a sequence of :class:`Layer` s; each layer yields :class:`Step` s:
an instance, how many instances of the full enumeration it stands for (1, or the size of
its relabelling orbit when the layer keeps one representative per orbit), and whether it
lies inside the strategy's domain (``False`` for an instance that a ``.filter`` of the
strategy rejects: it is walked over, counted, and never checked).  Scopes combine the way
strategies do: :meth:`SmallScope.map`, :meth:`SmallScope.filter`, :meth:`SmallScope.product`
(tuples, ``st.builds``), :meth:`SmallScope.union` (``st.one_of``) and
:meth:`SmallScope.dependent` (``flatmap``); products and unions go smallest first over their
components' layers (by the largest layer index, then their sum), so a product's first
instances combine the first layers of every component.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar

from exactpml.errors import InvalidArgument

__all__ = ["Layer", "SmallScope", "Step"]

T = TypeVar("T")
U = TypeVar("U")


class Step(NamedTuple):
    """One instance of a scope as the small-scope phase walks it.

    Attributes:
        instance: The instance (any value).
        weight: How many instances of the full enumeration it stands for: 1, or the size of
            its orbit when the layer keeps one representative per relabelling orbit.
        inside: False when the instance lies outside the strategy's domain (a ``.filter``
            of the strategy rejects it): it is counted as covered but never checked.
    """

    instance: Any
    weight: int = 1
    inside: bool = True


@dataclass(frozen=True, slots=True)
class Layer(Generic[T]):
    """A run of consecutive instances of a small scope, described in words.

    Attributes:
        description: What the layer holds, e.g. ``"|X| = 2, |Y| = 2, grid 1/2"``.
        size: How many instances of the full enumeration it stands for (``None``: not known
            in advance); with one representative per orbit it yields fewer.
        build: Yields the instances, in order (called anew for each enumeration).
        steps: Yields the layer's :class:`Step` s when some carry a weight or lie outside
            the strategy's domain (``None``: every instance built is one step of weight 1).
    """

    description: str
    size: int | None
    build: Callable[[], Iterable[T]]
    steps: Callable[[], Iterable[Step]] | None = None

    def walk(self) -> Iterator[Step]:
        """The layer's steps, in order (weight 1 and inside unless the layer says otherwise)."""
        if self.steps is not None:
            yield from self.steps()
            return
        for instance in self.build():
            yield Step(instance)

    def __repr__(self) -> str:
        return f"Layer({self.description!r}, {self.size})"


def inside(steps: Callable[[], Iterable[Step]]) -> Callable[[], Iterator[Any]]:
    """The instances of the steps inside the domain, in order."""

    def build() -> Iterator[Any]:
        for step in steps():
            if step.inside:
                yield step.instance

    return build


class SmallScope(Generic[T]):
    """An exhaustive, ordered enumeration of small exact instances, in layers.

    Iterating yields every instance, smallest first (layer by layer); ``len`` is the number
    of instances (when every layer's size is known); :meth:`locate` says in which layer the
    ``index``-th instance lies.  Instances are built lazily: only those enumerated are built.
    A scope whose layers keep one representative per relabelling orbit, or leave out the
    instances a filter rejects, yields fewer instances than ``len`` counts: ``len`` is the
    size of the full enumeration (what :meth:`Layer.walk` goes through).

    >>> scope = SmallScope("two numbers", [Layer("small", 2, lambda: [0, 1])])
    >>> list(scope + SmallScope.of("one more", [7])), len(scope)
    ([0, 1, 7], 2)
    >>> pairs = SmallScope.product([scope, SmallScope.of("letters", "ab")])
    >>> list(pairs)
    [(0, 'a'), (0, 'b'), (1, 'a'), (1, 'b')]
    >>> [step.inside for layer in scope.filter(bool).layers for step in layer.walk()]
    [False, True]
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

        The layer is ``None`` when ``index`` lies beyond the layers of known size.  (For a
        reduced scope the small-scope phase reports positions as it walks instead.)
        """
        start = 0
        for layer in self.layers:
            if layer.size is None:
                return index + 1, layer
            if index < start + layer.size:
                return index + 1, layer
            start += layer.size
        return index + 1, None

    # --- combinators ------------------------------------------------------------------------

    def map(self, function: Callable[[T], U], *, description: str | None = None) -> SmallScope[U]:
        """The same enumeration with ``function`` applied to every instance (sizes kept)."""

        def mapped(layer: Layer[T]) -> Layer[U]:
            if layer.steps is None:
                return Layer(layer.description, layer.size, lambda: map(function, layer.build()))
            steps = layer.steps

            def mapped_steps() -> Iterator[Step]:
                for step in steps():
                    instance = function(step.instance) if step.inside else step.instance
                    yield Step(instance, step.weight, step.inside)

            return Layer(layer.description, layer.size, inside(mapped_steps), mapped_steps)

        return SmallScope(description or self.description, [mapped(x) for x in self.layers])

    def filter(
        self, condition: Callable[[T], object], *, description: str | None = None
    ) -> SmallScope[T]:
        """Only the instances satisfying ``condition`` are inside; the others are still
        walked (and counted as covered) so that sizes and coverage keep their meaning."""

        def filtered(layer: Layer[T]) -> Layer[T]:
            def steps() -> Iterator[Step]:
                for step in layer.walk():
                    inside = step.inside and bool(condition(step.instance))
                    yield Step(step.instance, step.weight, inside)

            return Layer(layer.description, layer.size, inside(steps), steps)

        return SmallScope(description or self.description, [filtered(x) for x in self.layers])

    def __add__(self, other: SmallScope[T]) -> SmallScope[T]:
        if not isinstance(other, SmallScope):
            return NotImplemented
        return SmallScope(
            f"{self.description}, then {other.description}", self.layers + other.layers
        )

    @classmethod
    def product(
        cls,
        scopes: Sequence[SmallScope[Any]],
        *,
        combine: Callable[..., Any] = lambda *parts: tuple(parts),
        description: str | None = None,
    ) -> SmallScope[Any]:
        """Every combination of one instance per scope, ``combine(*instances)``.

        Combinations of layers go smallest first: by the largest layer index among the
        components, then by the sum of the indices, then lexicographically; within a
        combination, the largest component layer varies slowest.  Weights multiply; a
        combination is outside the domain when one of its parts is.
        """
        if not scopes:
            raise InvalidArgument("a product of small scopes needs at least one scope")
        indices = sorted(
            itertools.product(*(range(len(scope.layers)) for scope in scopes)),
            key=lambda index: (max(index), sum(index), index),
        )
        layers = [
            _product_layer([s.layers[i] for s, i in zip(scopes, index, strict=True)], combine)
            for index in indices
        ]
        text = description or " × ".join(f"({scope.description})" for scope in scopes)
        return cls(text, layers)

    @classmethod
    def union(
        cls, scopes: Sequence[SmallScope[Any]], *, description: str | None = None
    ) -> SmallScope[Any]:
        """The instances of every scope, their layers interleaved (every first layer, then
        every second one, ...); an instance in several scopes is enumerated once per scope."""
        if not scopes:
            raise InvalidArgument("a union of small scopes needs at least one scope")
        layers = [
            layer
            for group in itertools.zip_longest(*(scope.layers for scope in scopes))
            for layer in group
            if layer is not None
        ]
        text = description or ", or ".join(dict.fromkeys(scope.description for scope in scopes))
        return cls(text, layers)

    @classmethod
    def dependent(
        cls,
        base: SmallScope[Any],
        expand: Callable[[Any], SmallScope[Any] | None],
        *,
        description: str,
    ) -> SmallScope[Any]:
        """For every instance x of ``base``, the instances of ``expand(x)`` (a ``flatmap``).

        Smallest first: the layer j of ``expand(x)`` for every x of the base's layer i, by
        the largest of i and j, then their sum.  An x whose ``expand(x)`` is ``None`` (not
        enumerable) contributes nothing.  The size is not known in advance.
        """

        def steps() -> Iterator[Step]:
            expanded: dict[int, list[tuple[Step, SmallScope[Any] | None]]] = {}

            def inner(i: int) -> list[tuple[Step, SmallScope[Any] | None]]:
                if i not in expanded:
                    expanded[i] = [
                        (step, expand(step.instance) if step.inside else None)
                        for step in base.layers[i].walk()
                    ]
                return expanded[i]

            last = len(base.layers) - 1
            grade = 0
            while True:
                pairs = [
                    (i, j)
                    for i in range(min(grade, last) + 1)
                    for j in range(grade + 1)
                    if max(i, j) == grade
                ]
                for i, j in sorted(pairs, key=lambda pair: (sum(pair), pair)):
                    for step, scope in inner(i):
                        if scope is None or j >= len(scope.layers):
                            continue
                        for nested in scope.layers[j].walk():
                            yield Step(
                                nested.instance,
                                step.weight * nested.weight,
                                step.inside and nested.inside,
                            )
                if grade >= last:  # every base layer is expanded: stop past the deepest
                    deepest = max(
                        (
                            len(scope.layers)
                            for i in range(last + 1)
                            for _, scope in inner(i)
                            if scope is not None
                        ),
                        default=0,
                    )
                    if grade >= deepest - 1:
                        return
                grade += 1

        return cls(description, [Layer(description, None, inside(steps), steps)])

    def __repr__(self) -> str:
        size = self.size
        count = "an unknown number of" if size is None else f"{size}"
        return f"<SmallScope {self.description!r}: {count} instances in {len(self.layers)} layers>"


def _product_layer(parts: list[Layer[Any]], combine: Callable[..., Any]) -> Layer[Any]:
    sizes = [layer.size for layer in parts]
    size = None if any(s is None for s in sizes) else _product_of(sizes)  # type: ignore[arg-type]
    description = "; ".join(layer.description for layer in parts)
    # the largest (or unknown) part is streamed as the outer loop, the others materialised
    outer = max(range(len(parts)), key=lambda k: (sizes[k] is None, sizes[k] or 0, -k))

    def steps() -> Iterator[Step]:
        order = [k for k in range(len(parts)) if k != outer]
        inner = [_replayable(parts[k]) for k in order]
        for first in parts[outer].walk():
            for rest in _lazy_product(inner):
                chosen: list[Step | None] = [None] * len(parts)
                chosen[outer] = first
                for k, step in zip(order, rest, strict=True):
                    chosen[k] = step
                picked = [step for step in chosen if step is not None]
                inside = all(step.inside for step in picked)
                weight = _product_of([step.weight for step in picked])
                instance = combine(*(step.instance for step in picked)) if inside else None
                yield Step(instance, weight, inside)

    if all(layer.steps is None for layer in parts):

        def build() -> Iterator[Any]:
            for step in steps():
                yield step.instance

        return Layer(description, size, build)
    return Layer(description, size, inside(steps), steps)


_MATERIALISED = 20_000
"""Inner parts of a product up to this size are built once and kept; larger ones (or of
unknown size) are walked again for every combination (slower, but bounded memory)."""


def _replayable(layer: Layer[Any]) -> Callable[[], Iterable[Step]]:
    if layer.size is not None and layer.size <= _MATERIALISED:
        kept: list[Step] = []
        filled = False

        def replay() -> Iterable[Step]:
            nonlocal filled
            if not filled:
                kept.extend(layer.walk())
                filled = True
            return kept

        return replay
    return layer.walk


def _lazy_product(parts: Sequence[Callable[[], Iterable[Step]]]) -> Iterator[tuple[Step, ...]]:
    """``itertools.product`` over re-iterable parts, without materialising them up front."""
    if not parts:
        yield ()
        return
    for first in parts[0]():
        for rest in _lazy_product(parts[1:]):
            yield (first, *rest)


def _product_of(values: Sequence[int]) -> int:
    result = 1
    for value in values:
        result *= value
    return result
