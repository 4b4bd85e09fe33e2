"""The strategies the claims' composites draw on every instance, built once.

Hypothesis validates a strategy object on its first draw (and works out its label and whether
it is empty), ``st.sampled_from`` builds a new object on every call, and even a cached
``st.lists``/``st.integers`` call builds a key and rebalances Hypothesis' strategy cache: a
composite that writes ``st.lists(st.sampled_from(values), ...)`` pays that on every instance
(py-spy, ``--thorough``: about 12% of the main job in strategy construction, 10% of it in
``st.fractions``, now :func:`exactpml.strategies.fractions`).  These functions return the same
object for the same arguments: the same strategy Hypothesis would build (its label depends
on its structure, not on the object), so the choices and the examples are unchanged.
(``exactpml.strategies`` has its own, private, copies for its strategies.)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from hypothesis import strategies as st

__all__ = ["once_per_values", "permutations", "sampled", "samples", "sized_lists"]

T = TypeVar("T")


def _types(values: tuple[Any, ...]) -> tuple[Any, ...]:
    """The types of ``values``, nested through tuples: ``(1,)`` and ``(True,)`` are equal
    and hash alike, so a key of values alone would hand one's strategy to the other."""
    return tuple(_types(v) if type(v) is tuple else type(v) for v in values)


def sampled(values: Sequence[T]) -> st.SearchStrategy[T]:
    """``st.sampled_from(values)``, one object per values (and their types)."""
    items = tuple(values)
    strategy: st.SearchStrategy[T] = _sampled(items, _types(items))
    return strategy


@functools.lru_cache(maxsize=4096)
def _sampled(values: tuple[Any, ...], _key: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    return st.sampled_from(values)


def samples(
    values: Sequence[T],
    size: int | None = None,
    *,
    min_size: int = 0,
    max_size: int | None = None,
    unique: bool = False,
) -> st.SearchStrategy[list[T]]:
    """``st.lists(st.sampled_from(values), min_size=..., max_size=..., unique=...)``, built
    once; ``size`` sets both bounds."""
    if size is not None:
        min_size = max_size = size
    items = tuple(values)
    strategy: st.SearchStrategy[list[T]] = _samples(
        items, _types(items), min_size, max_size, unique
    )
    return strategy


@functools.lru_cache(maxsize=4096)
def _samples(
    values: tuple[Any, ...],
    _key: tuple[Any, ...],
    min_size: int,
    max_size: int | None,
    unique: bool,
) -> st.SearchStrategy[Any]:
    return st.lists(_sampled(values, _key), min_size=min_size, max_size=max_size, unique=unique)


@functools.lru_cache(maxsize=1024)
def sized_lists(element: st.SearchStrategy[T], size: int) -> st.SearchStrategy[list[T]]:
    """``st.lists(element, min_size=size, max_size=size)`` for a long-lived ``element`` (a
    module-level strategy: the cache keeps it alive)."""
    return st.lists(element, min_size=size, max_size=size)


def permutations(values: Sequence[T]) -> st.SearchStrategy[list[T]]:
    """``st.permutations(values)``, one object per values (and their types)."""
    items = tuple(values)
    strategy: st.SearchStrategy[list[T]] = _permutations(items, _types(items))
    return strategy


@functools.lru_cache(maxsize=4096)
def _permutations(values: tuple[Any, ...], _key: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    return st.permutations(values)


def once_per_values(
    factory: Callable[[tuple[Any, ...]], st.SearchStrategy[T]],
) -> Callable[[Sequence[Any]], st.SearchStrategy[T]]:
    """A strategy function of one sequence, returning one object per values (and types)."""

    @functools.lru_cache(maxsize=4096)
    def cached(values: tuple[Any, ...], _key: tuple[Any, ...]) -> st.SearchStrategy[T]:
        return factory(values)

    @functools.wraps(factory)
    def built_once(values: Sequence[Any]) -> st.SearchStrategy[T]:
        items = tuple(values)
        return cached(items, _types(items))

    return built_once
