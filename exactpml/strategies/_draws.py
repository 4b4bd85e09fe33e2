"""The primitive strategies our composites draw on every example, built once.

``st.integers(low, high)`` goes through Hypothesis' strategy cache on every call (key
building and an LRU rebalance: about 4% of the default main job's time, measured with
py-spy); a composite drawing one integer per kernel entry calls it dozens of times per
example.  The strategies here are the very same objects Hypothesis would build, so what is
drawn, how it shrinks and the choice sequences are unchanged.
"""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from hypothesis import strategies as st

__all__ = [
    "BOOLEANS",
    "integer_lists",
    "integer_sets",
    "integers_between",
    "sampled_from_values",
    "unique_samples",
]

T = TypeVar("T")

BOOLEANS: st.SearchStrategy[bool] = st.booleans()


@functools.lru_cache(maxsize=4096, typed=True)
def integers_between(low: int, high: int) -> st.SearchStrategy[int]:
    """``st.integers(low, high)``, one object per (low, high) (``typed``: ``True`` is not 1)."""
    return st.integers(low, high)


def _types(values: tuple[object, ...]) -> tuple[object, ...]:
    """The types of ``values``, nested through tuples (databases are tuples of labels)."""
    return tuple(_types(v) if type(v) is tuple else type(v) for v in values)


def sampled_from_values(values: tuple[T, ...]) -> st.SearchStrategy[T]:
    """``st.sampled_from(values)``, one object per tuple of values and of their types (hashable,
    so a tuple; ``(True,)`` is not ``(1,)``, nor ``((True,),)`` ``((1,),)``, which an
    lru_cache's ``typed`` would not see)."""
    strategy: st.SearchStrategy[T] = _sampled_from(values, _types(values))
    return strategy


@functools.lru_cache(maxsize=4096)
def _sampled_from(values: tuple[object, ...], _key: tuple[object, ...]) -> Any:
    return st.sampled_from(values)


@functools.lru_cache(maxsize=4096, typed=True)
def integer_lists(low: int, high: int, size: int) -> st.SearchStrategy[list[int]]:
    """``st.lists(st.integers(low, high), min_size=size, max_size=size)``, built once."""
    return st.lists(integers_between(low, high), min_size=size, max_size=size)


@functools.lru_cache(maxsize=4096, typed=True)
def integer_sets(low: int, high: int, max_size: int) -> st.SearchStrategy[set[int]]:
    """``st.sets(st.integers(low, high), max_size=max_size)``, built once."""
    return st.sets(integers_between(low, high), max_size=max_size)


def unique_samples(
    values: tuple[T, ...], min_size: int, max_size: int | None
) -> st.SearchStrategy[list[T]]:
    """``st.lists(st.sampled_from(values), min_size=..., max_size=..., unique=True)``, one
    object per values (and their types) and sizes."""
    strategy: st.SearchStrategy[list[T]] = _unique_samples(
        values, _types(values), min_size, max_size
    )
    return strategy


@functools.lru_cache(maxsize=4096)
def _unique_samples(
    values: tuple[object, ...], key: tuple[object, ...], min_size: int, max_size: int | None
) -> Any:
    return st.lists(_sampled_from(values, key), min_size=min_size, max_size=max_size, unique=True)
