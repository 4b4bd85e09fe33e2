"""Growth exponents for the scaling benchmarks: time ∝ n^a, a fitted on log-log.

``exponent(sizes, seconds)`` is the least-squares slope of log t against log n (at least
three sizes); ``table(...)`` prints one markdown row per size.  Timing helpers only: speed
is reported, never asserted.
"""

from __future__ import annotations

import math
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any


def exponent(sizes: Sequence[float], seconds: Sequence[float]) -> float:
    """The slope a of the least-squares line log t = a log n + b (≥ 3 sizes)."""
    if len(sizes) < 3:
        raise ValueError("a growth exponent needs at least three sizes")
    xs = [math.log(n) for n in sizes]
    ys = [math.log(max(t, 1e-9)) for t in seconds]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def timed(run: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    """(median wall-clock seconds over ``repeat`` runs, the last result)."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def machine() -> str:
    """The machine line printed with every table."""
    import flint
    import sympy

    return (
        f"Python {platform.python_version()}, sympy {sympy.__version__}, "
        f"python-flint {flint.__version__}, {platform.machine()}"
    )


def report(label: str, sizes: Sequence[int], seconds: Sequence[float]) -> str:
    """'label: n^a' with the fitted exponent (or a note when fewer than 3 sizes ran)."""
    if len(sizes) < 3:
        return f"{label}: fewer than 3 sizes, no exponent"
    return f"{label}: time ∝ n^{exponent(sizes, seconds):.2f} (sizes {sizes[0]}..{sizes[-1]})"
