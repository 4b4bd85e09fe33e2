"""A guard around sympy's factor cache (sympy 1.13+), installed when exactpml.core loads.

``factorint(n, limit=...)`` may return composite factors (that is what ``limit`` means), but
its Fermat step then stores them in ``sympy.ntheory.factor_.factor_cache``, whose
``__setitem__`` insists on primes and raises ``ValueError: ... is not a prime factor``.
sympy reaches this when it simplifies ``Integer ** Rational``: ``sqrt(249999999998000000000003)``
raised from deep inside sympy (found by Hypothesis through the optimal simulator of a
near-tie mechanism).  The guard stores only the factors the cache accepts; the cache is a
speed-up, so leaving a composite factor out changes no result.
"""

from __future__ import annotations

from typing import Any

__all__ = ["install"]


def install() -> None:
    """Make ``factor_cache.add`` skip the factors ``__setitem__`` refuses (idempotent)."""
    try:
        from sympy.ntheory import factor_ as factor_module
    except ImportError:  # pragma: no cover - a sympy without the module
        return
    cache: Any = getattr(factor_module, "factor_cache", None)
    cache_type = type(cache)
    if cache is None or getattr(cache_type, "_exactpml_guarded", False):
        return
    original = cache_type.add

    def add(self: Any, n: int, factors: list[int]) -> None:
        for p in sorted(factors, reverse=True):
            try:
                self[n] = p
            except ValueError:  # a composite factor from a limited factorint: not cached
                continue
            n, _ = factor_module.remove(n, p)

    add.__doc__ = original.__doc__
    cache_type.add = add
    cache_type._exactpml_guarded = True
