"""The time of ``import exactpml`` in a fresh interpreter (issue 12, target 6: ≤ 0.65 s).

Run: ``python benchmarks/bench_import.py [--repeat 7]``.  Each repetition starts a new
``python -c`` process, so nothing is cached in memory by the interpreter; the medians of
bare Python, ``import sympy`` (exactpml's largest dependency) and ``import exactpml`` are
printed with the share of exactpml's own import over sympy's.  Speed is reported, never
asserted.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

TARGET_SECONDS = 0.65
STATEMENTS = (
    ("bare Python", "pass"),
    ("import sympy", "import sympy"),
    ("import exactpml", "import exactpml"),
)


def median_seconds(statement: str, repeat: int) -> float:
    """The median wall time of ``python -c statement`` over ``repeat`` fresh processes."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", statement], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    """Print the medians and the target check."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    results = {name: median_seconds(code, args.repeat) for name, code in STATEMENTS}
    print("| process | median wall time (s) |")
    print("|---|---|")
    for name, seconds in results.items():
        print(f"| `python -c '{dict(STATEMENTS)[name]}'` ({name}) | {seconds:.3f} |")
    own = results["import exactpml"]
    mark = "met" if own <= TARGET_SECONDS else "missed"
    print(
        f"import exactpml: {own:.3f} s (target ≤ {TARGET_SECONDS} s: {mark}); "
        f"{own / results['import sympy']:.2f}× import sympy"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
