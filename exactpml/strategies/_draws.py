"""The primitive strategies our composites draw on every example, built once.

``st.integers(low, high)`` goes through Hypothesis' strategy cache on every call (key
building and an LRU rebalance: about 4% of the default main job's time, measured with
py-spy); a composite drawing one integer per kernel entry calls it dozens of times per
example.  The strategies here are the very same objects Hypothesis would build, so what is
drawn, how it shrinks and the choice sequences are unchanged.
"""

from __future__ import annotations

import functools

from hypothesis import strategies as st

__all__ = ["BOOLEANS", "integers_between"]

BOOLEANS: st.SearchStrategy[bool] = st.booleans()


@functools.lru_cache(maxsize=4096, typed=True)
def integers_between(low: int, high: int) -> st.SearchStrategy[int]:
    """``st.integers(low, high)``, one object per (low, high) (``typed``: ``True`` is not 1)."""
    return st.integers(low, high)
