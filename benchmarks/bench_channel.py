"""Benchmark: the exact PML of every output plus the leakage capacity of a random channel.

Run ``python benchmarks/bench_channel.py`` (``--help`` for options).  For each shape
(300×300 and 1000×50) and each kind of denominators:

* ``per-row``: every row is random positive integer weights divided by their sum, so each
  row has its own denominator (up to about 10^6) and the rows' common denominator is huge;
* ``shared``: every entry is ``k / 10^6`` (a random composition of 10^6), so all rows share
  the denominator 10^6;

and a random rational prior (integer weights over their sum, denominator up to about 10^6,
full support), it times, separately,

(a) building the inputs from the user's data, a dict of dicts of ``Fraction`` (and a dict
    for the prior); for exactpml: ``Mechanism(kernel)`` and ``Distribution(prior)``,
    including their validation;
(b) computing every output's PML (``pointwise_maximal_leakage_by_output``) and the leakage
    capacity, with every exact ratio read (``.ratio``).

Each repetition builds fresh objects, so nothing computed in one repetition helps the next.
The methods compared on the same data:

* ``exactpml``;
* ``numpy f64``: the same formulas on float64 arrays (inexact; its error is reported);
* ``Fraction``: plain Python lists of ``Fraction`` and the same formulas (no validation);
* ``sympy``: ``sympy.Matrix`` of ``Rational`` (p_Y = p_X^T M, column max/min);
* ``qif``: libqif's exact ``bayes_vuln.mult_capacity`` on a numpy object array of
  ``Fraction``.  It computes the multiplicative Bayes capacity ``Σ_y max_x p(y|x)`` (a
  different, but comparable, exact workload: a column max over every column and a sum), not
  PML; its value is checked against ``exactpml.maximal_leakage``.

Every exact method's values are checked to agree exactly, or the benchmark fails.
Times are medians over the repetitions; the garbage collector is off while timing; BLAS
runs on one thread (as every other method does).  numpy's (b) is the mean of
``--numpy-inner`` calls on the same arrays, its warm best case.  Results and their
discussion: ``benchmarks/README.md``.

``--scaling`` runs square channels (default 100×100, 200×200, 300×300, 1000×1000; sympy and
``Fraction`` lists only up to ``--large`` entries) and prints, per method and kind, the
growth exponent a of time ∝ n^a for n×n channels (n² entries, so a = 2 is linear in the
size of the input), fitted by ``benchmarks/_growth.py``, with the tables and ratios as above.
"""

from __future__ import annotations

import os

# Every method runs on one thread (qif, Fraction and sympy can use no more), so BLAS, used
# by numpy's float path and by exactpml's digit products, is limited to one thread too.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse
import gc
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from exactpml import Distribution, Mechanism, leakage_capacity, maximal_leakage, pml
from exactpml.leakage import pointwise_maximal_leakage_by_output

SHARED_DENOMINATOR = 10**6

# --- data ---------------------------------------------------------------------------


def _per_row(rng: random.Random, width: int) -> dict[int, Fraction]:
    weights = [rng.randint(1, 2 * SHARED_DENOMINATOR // width) for _ in range(width)]
    total = sum(weights)
    return {y: Fraction(w, total) for y, w in enumerate(weights)}


def _shared(rng: random.Random, width: int) -> dict[int, Fraction]:
    cuts = sorted(rng.sample(range(1, SHARED_DENOMINATOR), width - 1))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, SHARED_DENOMINATOR], strict=True)]
    return {y: Fraction(k, SHARED_DENOMINATOR) for y, k in enumerate(parts)}


def make_instance(
    rows: int, columns: int, kind: str, seed: int
) -> tuple[dict[int, dict[int, Fraction]], dict[int, Fraction]]:
    """A random channel (dict of dicts of Fractions) and a random full-support prior."""
    rng = random.Random(f"{rows}x{columns}-{kind}-{seed}")
    make_row = _per_row if kind == "per-row" else _shared
    kernel = {x: make_row(rng, columns) for x in range(rows)}
    weights = [rng.randint(1, 2 * SHARED_DENOMINATOR // rows) for _ in range(rows)]
    total = sum(weights)
    prior = {x: Fraction(w, total) for x, w in enumerate(weights)}
    return kernel, prior


# --- the methods: each returns (build, compute); compute returns its results -----------

Kernel = dict[int, dict[int, Fraction]]
Prior = dict[int, Fraction]


def exactpml_method(kernel: Kernel, prior: Prior) -> tuple[Callable[[], Any], Callable[[Any], Any]]:
    def build() -> Any:
        return Mechanism(kernel), Distribution(prior)

    def compute(built: Any) -> Any:
        mechanism, distribution = built
        leakages = pointwise_maximal_leakage_by_output(mechanism, distribution)
        ratios = [value.ratio for value in leakages.values()]
        return ratios, leakage_capacity(mechanism).ratio

    return build, compute


def natural_method(kernel: Kernel, prior: Prior) -> tuple[Callable[[], Any], Callable[[Any], Any]]:
    """The call a user writes: one ``pointwise_maximal_leakage`` per output, then the capacity."""

    def build() -> Any:
        return Mechanism(kernel), Distribution(prior)

    def compute(built: Any) -> Any:
        mechanism, distribution = built
        ratios = [pml(mechanism, distribution, y).ratio for y in mechanism.outputs]
        return ratios, leakage_capacity(mechanism).ratio

    return build, compute


def lazy_method(kernel: Kernel, prior: Prior) -> tuple[Callable[[], Any], Callable[[Any], Any]]:
    """Every output's PML available (a LeakageProfile), its maximum and the capacity read;
    the other ratios are put in lowest terms only if read (not here)."""

    def build() -> Any:
        return Mechanism(kernel), Distribution(prior)

    def compute(built: Any) -> Any:
        mechanism, distribution = built
        profile = pointwise_maximal_leakage_by_output(mechanism, distribution)
        return profile.maximum().ratio, leakage_capacity(mechanism).ratio

    return build, compute


def numpy_method(kernel: Kernel, prior: Prior) -> tuple[Callable[[], Any], Callable[[Any], Any]]:
    def build() -> Any:
        outputs = list(next(iter(kernel.values())))
        matrix = np.array([[float(row[y]) for y in outputs] for row in kernel.values()])
        return matrix, np.array([float(p) for p in prior.values()])

    def compute(built: Any) -> Any:
        matrix, weights = built
        masses = weights @ matrix
        highest, lowest = matrix.max(axis=0), matrix.min(axis=0)
        best = highest if weights.min() > 0 else matrix[weights > 0].max(axis=0)
        pml = np.divide(best, masses, out=np.ones_like(masses), where=masses > 0)
        used = highest > 0
        if (lowest[used] == 0).any():
            return pml, np.inf
        return pml, (highest[used] / lowest[used]).max()

    return build, compute


def fraction_method(kernel: Kernel, prior: Prior) -> tuple[Callable[[], Any], Callable[[Any], Any]]:
    def build() -> Any:
        outputs = list(next(iter(kernel.values())))
        return outputs, [[row[y] for y in outputs] for row in kernel.values()], list(prior.values())

    def compute(built: Any) -> Any:
        outputs, rows, weights = built
        support = [x for x, w in enumerate(weights) if w]
        ratios = []
        for column in range(len(outputs)):
            mass = sum(weights[x] * rows[x][column] for x in support)
            best = max(rows[x][column] for x in support)
            ratios.append(best / mass if mass else Fraction(1))
        capacity: Fraction | None = Fraction(1)
        for column in range(len(outputs)):
            entries = [row[column] for row in rows]
            high, low = max(entries), min(entries)
            if high == 0:
                continue
            if low == 0:
                capacity = None  # infinite
                break
            capacity = max(capacity, high / low)
        return ratios, capacity

    return build, compute


def sympy_method(kernel: Kernel, prior: Prior) -> tuple[Callable[[], Any], Callable[[Any], Any]]:
    def build() -> Any:
        outputs = list(next(iter(kernel.values())))
        matrix = sympy.Matrix(
            [
                [sympy.Rational(row[y].numerator, row[y].denominator) for y in outputs]
                for row in kernel.values()
            ]
        )
        weights = sympy.Matrix(
            [[sympy.Rational(p.numerator, p.denominator) for p in prior.values()]]
        )
        return matrix, weights

    def compute(built: Any) -> Any:
        matrix, weights = built
        masses = weights * matrix
        support = [x for x in range(matrix.rows) if weights[0, x] != 0]
        ratios = []
        capacity: Any = sympy.Integer(1)
        for column in range(matrix.cols):
            entries = matrix.col(column)
            mass = masses[0, column]
            best = max(entries[x] for x in support)
            ratios.append(best / mass if mass != 0 else sympy.Integer(1))
            high, low = max(entries), min(entries)
            if high == 0:
                continue
            if low == 0:
                capacity = sympy.oo
                continue
            if capacity is not sympy.oo:
                capacity = max(capacity, high / low)
        return ratios, capacity

    return build, compute


def qif_method(kernel: Kernel, prior: Prior) -> tuple[Callable[[], Any], Callable[[Any], Any]]:
    from qif.measure import bayes_vuln

    def build() -> Any:
        outputs = list(next(iter(kernel.values())))
        return np.array([[row[y] for y in outputs] for row in kernel.values()], dtype=object)

    def compute(built: Any) -> Any:
        return bayes_vuln.mult_capacity(built)

    return build, compute


METHODS: dict[str, Callable[[Kernel, Prior], tuple[Callable[[], Any], Callable[[Any], Any]]]] = {
    "exactpml": exactpml_method,
    "natural": natural_method,
    "lazy": lazy_method,
    "numpy f64": numpy_method,
    "Fraction": fraction_method,
    "sympy": sympy_method,
    "qif": qif_method,
}


# --- timing -------------------------------------------------------------------------


@dataclass
class Timing:
    build: list[float] = field(default_factory=list)
    compute: list[float] = field(default_factory=list)
    result: Any = None

    @property
    def a(self) -> float:
        return statistics.median(self.build)

    @property
    def b(self) -> float:
        return statistics.median(self.compute)

    @property
    def total(self) -> float:
        return statistics.median(x + y for x, y in zip(self.build, self.compute, strict=True))


def _time_once(
    build: Callable[[], Any], compute: Callable[[Any], Any], timing: Timing, inner: int
) -> None:
    """Time ``build`` once and ``compute`` on its result (``inner`` times, the mean per call)."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        built = build()
        middle = time.perf_counter()
        for _ in range(inner):
            result = compute(built)
        end = time.perf_counter()
    finally:
        gc.enable()
    timing.build.append(middle - start)
    timing.compute.append((end - middle) / inner)
    timing.result = result


def _as_fraction(value: Any) -> Fraction | None:
    if value is None or value is sympy.oo:
        return None
    if isinstance(value, sympy.Rational):
        return Fraction(int(value.p), int(value.q))
    if isinstance(value, sympy.Expr) and value == sympy.oo:
        return None
    return Fraction(value)


def verify(kernel: Kernel, prior: Prior, timings: dict[str, Timing]) -> float:
    """Check that every exact method agrees exactly; return numpy's largest relative error."""
    reference_ratios, reference_capacity = timings["exactpml"].result
    reference_ratios = [_as_fraction(r) for r in reference_ratios]
    reference_capacity = _as_fraction(reference_capacity)
    if "natural" in timings and timings["natural"].result != timings["exactpml"].result:
        raise AssertionError("the per-output calls and the batched call disagree")
    if "lazy" in timings:
        largest, capacity = timings["lazy"].result
        if largest != max(reference_ratios) or _as_fraction(capacity) != reference_capacity:
            raise AssertionError("the lazy profile's maximum or capacity disagrees")
    for name in ("Fraction", "sympy"):
        if name not in timings:
            continue
        ratios, capacity = timings[name].result
        if [_as_fraction(r) for r in ratios] != reference_ratios:
            raise AssertionError(f"{name} and exactpml disagree on some output's PML")
        if _as_fraction(capacity) != reference_capacity:
            raise AssertionError(f"{name} and exactpml disagree on the capacity")
    if "qif" in timings:
        expected = maximal_leakage(Mechanism(kernel)).ratio
        columns = zip(*(row.values() for row in kernel.values()), strict=True)
        plain = sum((max(column) for column in columns), Fraction(0))
        if Fraction(timings["qif"].result) != expected or plain != expected:
            raise AssertionError("qif's mult_capacity, exactpml and plain Fractions disagree")
    error = 0.0
    if "numpy f64" in timings:
        pml, capacity = timings["numpy f64"].result
        for approx, exact in zip(pml, reference_ratios, strict=True):
            error = max(error, abs(float(approx) - float(exact)) / float(exact))
        if reference_capacity is not None and np.isfinite(capacity):
            error = max(
                error, abs(capacity - float(reference_capacity)) / float(reference_capacity)
            )
    return error


# --- report -------------------------------------------------------------------------


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f}"


TARGETS = [  # (key, label, target, predicate)
    ("natural", "(b) natural per-output / (b) batched", "<= 1.5", lambda r, c: r <= 1.5),
    (
        "lazy",
        "(b) lazy profile / (b) numpy f64",
        "<= 60 (<= 100 from 10^6 entries)",
        lambda r, c: r <= (100 if c.entries >= 10**6 else 60),
    ),
    ("numpy", "(b) exactpml / (b) numpy f64", "<= 50", lambda r, c: r <= 50),
    ("Fraction", "(a)+(b) Fraction / (a)+(b) exactpml", ">= 10", lambda r, c: r >= 10),
    ("qif", "(b) qif mult_capacity / (b) exactpml", "> 1", lambda r, c: r > 1),
    ("sympy", "(a)+(b) sympy / (a)+(b) exactpml", ">= 50", lambda r, c: r >= 50),
]


@dataclass
class Case:
    label: str
    entries: int
    digits: int
    timings: dict[str, Timing]
    error: float
    rows: int = 0
    columns: int = 0
    kind: str = ""

    def ratio(self, key: str) -> float | None:
        ours = self.timings["exactpml"]
        if key in ("natural", "lazy"):
            mine = self.timings.get(key)
            base = ours if key == "natural" else self.timings.get("numpy f64")
            return None if mine is None or base is None else mine.b / base.b
        other = self.timings.get({"numpy": "numpy f64"}.get(key, key))
        if other is None:
            return None
        if key == "numpy":
            return ours.b / other.b
        if key == "qif":
            return other.b / ours.b
        return other.total / ours.total


def run_case(rows: int, columns: int, kind: str, args: argparse.Namespace) -> Case:
    kernel, prior = make_instance(rows, columns, kind, args.seed)
    timings: dict[str, Timing] = {}
    methods = [m for m in METHODS if m not in args.skip]
    if rows * columns > args.large:
        methods = [m for m in methods if m not in ("sympy", "Fraction")]
    for repetition in range(args.repetitions):
        for name in methods:
            if name == "sympy" and repetition >= args.sympy_repetitions:
                continue
            build, compute = METHODS[name](kernel, prior)
            inner = args.numpy_inner if name == "numpy f64" else 1
            _time_once(build, compute, timings.setdefault(name, Timing()), inner)
    error = verify(kernel, prior, timings)
    common = math.lcm(*(v.denominator for row in kernel.values() for v in row.values()))
    return Case(
        f"{rows}×{columns}, {kind}",
        rows * columns,
        len(str(common)),
        timings,
        error,
        rows,
        columns,
        kind,
    )


def print_text(case: Case) -> None:
    print(f"\n## {case.label} denominators (common denominator: {case.digits} digits)")
    print(f"{'method':<11} {'(a) build ms':>13} {'(b) compute ms':>15} {'(a)+(b) ms':>11}  reps")
    for name, timing in case.timings.items():
        print(
            f"{name:<11} {_ms(timing.a):>13} {_ms(timing.b):>15} {_ms(timing.total):>11}  "
            f"{len(timing.build)}"
        )
    for key, label, target, met in TARGETS:
        value = case.ratio(key)
        if value is not None:
            verdict = "met" if met(value, case) else "NOT MET"
            print(f"  {label:<38} {value:8.1f}×  target {target:<6} {verdict}")
    if "sympy" in case.timings:
        ratio = case.timings["sympy"].b / case.timings["exactpml"].b
        print(f"  {'(b) sympy / (b) exactpml (no target)':<38} {ratio:8.1f}×")
    print(f"  exact methods agree exactly; numpy f64 max relative error {case.error:.1e}")


def print_markdown(cases: list[Case]) -> None:
    names = [m for m in METHODS if any(m in case.timings for case in cases)]
    print("Times in ms, medians: (a) build / (b) compute; — not run at that size.\n")
    print("| case | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for case in cases:
        cells = [
            f"{_ms(case.timings[n].a)} / {_ms(case.timings[n].b)}" if n in case.timings else "—"
            for n in names
        ]
        print(
            f"| {case.label} ({case.digits}-digit common denominator) | " + " | ".join(cells) + " |"
        )
    print("\n| ratio (target) | " + " | ".join(case.label for case in cases) + " |")
    print("|---|" + "---|" * len(cases))
    for key, label, target, met in TARGETS:
        values = [case.ratio(key) for case in cases]
        cells = [
            "—" if v is None else f"{v:.1f}× {'✓' if met(v, case) else '✗'}"
            for v, case in zip(values, cases, strict=True)
        ]
        print(f"| {label} ({target}) | " + " | ".join(cells) + " |")


SCALING_SHAPES = ["100x100", "200x200", "300x300", "1000x1000"]


def print_exponents(cases: list[Case], kinds: list[str]) -> None:
    """Per method and kind: time ∝ n^a over the square n×n shapes where the method ran."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _growth import exponent

    print("\nGrowth over square n×n channels (time ∝ n^a; a = 2 is linear in the n² entries):\n")
    print("| method | kind | n | (a) build | (b) compute | (a)+(b) |")
    print("|---|---|---|---|---|---|")
    for kind in kinds:
        square = [c for c in cases if c.kind == kind and c.rows == c.columns]
        for name in METHODS:
            ran = [c for c in square if name in c.timings]
            sizes = [c.rows for c in ran]
            span = f"{sizes[0]}..{sizes[-1]}" if sizes else "—"
            if len(ran) < 3:
                cells = ["fewer than 3 sizes"] * 3
            else:
                cells = [
                    f"n^{exponent(sizes, [getattr(c.timings[name], part) for c in ran]):.2f}"
                    for part in ("a", "b", "total")
                ]
            print(f"| {name} | {kind} | {span} | " + " | ".join(cells) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=7)
    parser.add_argument("--sympy-repetitions", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--numpy-inner",
        type=int,
        default=20,
        help="numpy's (b) is the mean of this many calls on the same arrays (warm caches, "
        "its best case); every other method computes once per repetition on fresh objects",
    )
    parser.add_argument(
        "--skip", nargs="*", default=[], choices=[m for m in METHODS if m != "exactpml"]
    )
    parser.add_argument(
        "--shapes",
        nargs="*",
        default=None,
        help="rows x columns (default 300x300 1000x50 1000x1000; with --scaling "
        + " ".join(SCALING_SHAPES)
        + ")",
    )
    parser.add_argument(
        "--scaling", action="store_true", help="square shapes and a growth exponent per method"
    )
    parser.add_argument(
        "--large",
        type=int,
        default=100_000,
        help="above this many entries, skip the slow baselines (sympy, Fraction lists)",
    )
    parser.add_argument(
        "--kinds", nargs="*", default=["per-row", "shared"], choices=["per-row", "shared"]
    )
    parser.add_argument("--markdown", action="store_true", help="also print Markdown tables")
    args = parser.parse_args(argv)
    if args.shapes is None:
        args.shapes = SCALING_SHAPES if args.scaling else ["300x300", "1000x50", "1000x1000"]
    print(
        f"Python {sys.version.split()[0]}, numpy {np.__version__}, sympy {sympy.__version__}, "
        f"BLAS threads {os.environ.get('OPENBLAS_NUM_THREADS')}"
    )
    print(
        "qif computes Σ_y max_x p(y|x) (multiplicative Bayes capacity), an exact workload "
        "comparable to PML, not PML itself; its value is checked against exactpml."
    )
    cases = []
    for shape in args.shapes:
        rows, columns = (int(n) for n in shape.split("x"))
        for kind in args.kinds:
            case = run_case(rows, columns, kind, args)
            print_text(case)
            cases.append(case)
    if args.markdown or args.scaling:
        print()
        print_markdown(cases)
    if args.scaling:
        print_exponents(cases, args.kinds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
