"""The ordered, layered enumerations of small instances that the small-scope phase walks."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from exactpml.errors import InvalidArgument

__all__ = ["Layer", "SmallScope"]

T = TypeVar("T")
U = TypeVar("U")


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
