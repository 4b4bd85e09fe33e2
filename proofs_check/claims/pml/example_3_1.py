"""Check of Saeidian et al., Example 3.1: the quantized sample mean has vanishing entropy.

The text leaves the entry distribution and the quantizer abstract; this check makes them
concrete (and says so in its report):

- entries D_i in {0, 1, 2, 3} subset of [a, b) = [0, 4), i.i.d.;
- the quantizer q_4 with m = 4 cells [c_j, c_{j+1}) = [j, j+1), c_j = j, mapping the mean
  to the cell midpoint (H_inf of the estimate depends only on the cell probabilities);
- *interior* case: D uniform on {0, 1, 2, 3}, μ = 3/2 strictly inside [1, 2);
- *boundary* case: D uniform on {1, 2, 3}, μ = 2 = c_2, a cell boundary.

The cell probabilities are exact: P(S = s) for S = D_1 + ... + D_n is a coefficient of
(Σ_d w_d x^d)^n over the common denominator (python-flint integer polynomials), and the
mean falls in [j, j+1) iff j·n <= S < (j+1)·n.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from fractions import Fraction
from functools import partial

import sympy
from flint import fmpz_poly
from hypothesis import strategies as st

from exactpml import Distribution, LogValue
from exactpml.core import certify
from proofs_check import (
    CheckContext,
    Evidence,
    certified_evidence,
    check,
    exact_instances,
    property_holds,
)
from proofs_check import reference as ref
from proofs_check.small_scope import Layer, SmallScope

__all__ = ["cell_probabilities", "ex_3_1", "quantized_mean_entropy"]

CUTS = (0, 1, 2, 3, 4)
"""c_0 < c_1 < ... < c_4: the quantizer's cells are [c_j, c_{j+1})."""
INTERIOR = {0: Fraction(1, 4), 1: Fraction(1, 4), 2: Fraction(1, 4), 3: Fraction(1, 4)}
BOUNDARY = {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
SMALL_N = range(1, 6)
INTERIOR_GRID = tuple(2**k for k in range(10))  # 1 .. 512
BOUNDARY_GRID = tuple(2**k for k in range(2, 11))  # 4 .. 1024
HOEFFDING_FROM = 16  # 2 exp(-n/18) < 1 from n = 13 on
BOUNDARY_TOLERANCE = Fraction(1, 50)
INTERIOR_TOLERANCE = Fraction(1, 10**20)


def _shown(tolerance: Fraction) -> str:
    return "10^-20" if tolerance == INTERIOR_TOLERANCE else str(tolerance)


def cell_probabilities(entry: Mapping[int, Fraction], n: int) -> tuple[Fraction, ...]:
    """P(mean of n i.i.d. entries lies in [c_j, c_{j+1})) for each cell j, exactly.

    >>> cell_probabilities(INTERIOR, 2)
    (Fraction(3, 16), Fraction(7, 16), Fraction(5, 16), Fraction(1, 16))
    """
    denominator = math.lcm(*(w.denominator for w in entry.values()))
    top = max(entry)
    base = fmpz_poly([int(entry.get(d, 0) * denominator) for d in range(top + 1)])
    coefficients = [int(c) for c in (base**n).coeffs()]
    total = denominator**n
    return tuple(
        Fraction(sum(coefficients[low * n : min(high * n, len(coefficients))]), total)
        for low, high in itertools.pairwise(CUTS)
    )


def quantized_mean_entropy(entry: Mapping[int, Fraction], n: int) -> LogValue:
    """H_inf(P_{μ̂_1}) = -log max_j P(mean in cell j), from the exact cell probabilities."""
    return LogValue(1 / max(cell_probabilities(entry, n)))


def _quantize(mean: Fraction) -> Fraction:
    """q_4: the midpoint of the cell [c_j, c_{j+1}) containing ``mean``."""
    for low, high in itertools.pairwise(CUTS):
        if low <= mean < high:
            return Fraction(low + high, 2)
    raise ValueError(f"mean {mean} is outside [{CUTS[0]}, {CUTS[-1]})")


def _enumerated(entry: Mapping[int, Fraction], n: int) -> tuple[LogValue, LogValue]:
    """(H_inf(μ̂_1), H_inf(μ̂_2)) from the product prior on all |D|^n databases (the
    reference's min-entropy, Def 2.1)."""
    database = Distribution.product([Distribution(list(entry.items()))] * n)
    estimate = database.map(lambda x: _quantize(Fraction(sum(x), n)))
    return (
        LogValue(1 / ref.certainty(estimate)),
        LogValue(1 / ref.certainty(database.marginal(0))),
    )


def _distance(value: LogValue, target: LogValue) -> LogValue:
    """|value - target| as a LogValue: log max(r/t, t/r), exact for rational ratios."""
    assert isinstance(value.ratio, Fraction) and isinstance(target.ratio, Fraction)
    quotient = value.ratio / target.ratio
    return LogValue(max(quotient, 1 / quotient))


def _trend(
    label: str,
    entry: Mapping[int, Fraction],
    grid: tuple[int, ...],
    target: LogValue,
    tolerance: Fraction,
) -> tuple[bool, str | None, dict[str, str]]:
    """|H_inf(n) - target| strictly decreasing along ``grid`` (exact) and < tolerance at the end."""
    distances = [_distance(quantized_mean_entropy(entry, n), target) for n in grid]
    values = {
        f"{label}, n = {n}: H_inf(μ̂_1) ≈": certify.decimal(
            quantized_mean_entropy(entry, n).to_sympy(), 6
        )
        for n in (grid[0], grid[len(grid) // 2], grid[-1])
    }
    for (n, d), (n_next, d_next) in zip(
        zip(grid, distances, strict=True), zip(grid[1:], distances[1:], strict=True), strict=False
    ):
        if not d_next < d:
            return (
                False,
                f"|H_inf - {target}| at n = {n_next} is {certify.decimal(d_next.to_sympy(), 6)}, "
                f"not below its value {certify.decimal(d.to_sympy(), 6)} at n = {n}",
                values,
            )
    last = distances[-1]
    if (
        not certify.compare(
            last.to_sympy(), sympy.Rational(tolerance.numerator, tolerance.denominator)
        )
        < 0
    ):
        return (
            False,
            f"|H_inf - {target}| at n = {grid[-1]} is {certify.decimal(last.to_sympy(), 6)}, "
            f"not below {tolerance}",
            values,
        )
    return True, None, values


def _hoeffding(grid: tuple[int, ...]) -> tuple[bool, str | None]:
    """Interior case: H_inf(μ̂_1) <= -log(1 - 2 e^{-n/18}) (Hoeffding, t = 1/2, range 3)."""
    for n in grid:
        if n < HOEFFDING_FROM:
            continue
        entropy = quantized_mean_entropy(INTERIOR, n).to_sympy()
        bound = -sympy.log(1 - 2 * sympy.exp(sympy.Rational(-n, 18)))
        if certify.compare(entropy, bound) > 0:
            return False, f"n = {n}: H_inf = {certify.decimal(entropy, 6)} > bound"
    return True, None


@check(
    "pml.ex_3_1",
    mutants={
        "boundary_limit_zero": "H_inf -> 0 also when μ is on a cell boundary (limit log 2 -> 0)",
        "interior_limit_log2": "H_inf -> log 2 when μ is strictly inside a cell (0 -> log 2)",
        "first_row_like_mean": "the first row's H_inf(μ̂_2) equals the quantized mean's at every "
        "n (both estimates as private)",
    },
)
def ex_3_1(ctx: CheckContext) -> list[Evidence]:
    """``pml.ex_3_1``: Saeidian et al., Example 3.1 (quantized sample mean vs first row).

    Statement: for i.i.d. entries, H_inf of the quantized sample mean μ̂_1 = q_m(mean)
    tends to 0 as n grows when μ = E[D_i] lies strictly inside a quantizer cell, and to
    log 2 when μ is a cell boundary c_j; the first row μ̂_2 = D_1 has an entropy that does
    not depend on n.  Made concrete as described in the module docstring.

    Evidence:
        E: for n = 1..5 and both entry distributions, H_inf(μ̂_1) by enumeration of all
           databases (product prior, quantizer applied to each mean) equals the exact
           convolution value, and H_inf(μ̂_2) = H_inf(P_{D_1}) = log 4 (interior) and log 3
           (boundary) for every n, as the text says.
        C: interior case (μ = 3/2 in [1, 2)): along n = 1, 2, 4, ..., 512, H_inf(μ̂_1)
           decreases strictly (exact), is below H_inf(μ̂_2) = log 4 from n = 2 on, is below
           10^-20 at n = 512 (certified), and is at most -log(1 - 2 e^{-n/18}) for n >= 16
           (Hoeffding's bound, certified), which tends to 0: the limit is 0.
        C: boundary case (μ = 2 = c_2): along n = 4, 8, ..., 1024 the distance
           |H_inf(μ̂_1) - log 2| decreases strictly (exact, log of a rational ratio) and is
           below 1/50 at n = 1024 (certified); a trend towards log 2 (from n = 4 on; it rises
           from n = 2 to n = 4), not a proof of the limit.
        P: the statement for any i.i.d. entries: on the uniform law on every nonempty subset
           of {0, 1, 2, 3} at n = 2, 3, then on random entry laws on {0, 1, 2, 3} and n ≤ 4,
           H_inf(μ̂_2) by enumeration of all databases equals H_inf(P_D) (whatever n), and
           H_inf(μ̂_1) by enumeration equals the convolution value.
    """
    interior_target = LogValue(2) if ctx.mutant == "interior_limit_log2" else LogValue(1)
    boundary_target = LogValue(1) if ctx.mutant == "boundary_limit_zero" else LogValue(2)

    exact_cases = []
    first_rows = []
    for label, entry, support in (("interior", INTERIOR, 4), ("boundary", BOUNDARY, 3)):
        for n in SMALL_N:
            mean_entropy, first_row = _enumerated(entry, n)
            exact_cases.append(
                (f"{label}, n = {n}: H_inf(μ̂_1)", quantized_mean_entropy(entry, n), mean_entropy)
            )
            expected = (
                quantized_mean_entropy(entry, n)
                if ctx.mutant == "first_row_like_mean"
                else LogValue(support)
            )
            first_rows.append((f"{label}, n = {n}: H_inf(μ̂_2)", first_row, expected))

    interior_tolerance = INTERIOR_TOLERANCE if interior_target == 0 else BOUNDARY_TOLERANCE
    boundary_tolerance = BOUNDARY_TOLERANCE if boundary_target != 0 else INTERIOR_TOLERANCE
    interior_ok, interior_failure, interior_values = _trend(
        "interior", INTERIOR, INTERIOR_GRID, interior_target, interior_tolerance
    )
    below_first_row = all(
        quantized_mean_entropy(INTERIOR, n) < LogValue(4) for n in INTERIOR_GRID if n >= 2
    )
    hoeffding_ok, hoeffding_failure = _hoeffding(INTERIOR_GRID)
    interior_holds = interior_ok and below_first_row and hoeffding_ok
    interior_failure = (
        interior_failure
        or hoeffding_failure
        or (None if below_first_row else "H_inf(μ̂_1) >= log 4 at some n >= 2")
    )
    boundary_ok, boundary_failure, boundary_values = _trend(
        "boundary", BOUNDARY, BOUNDARY_GRID, boundary_target, boundary_tolerance
    )
    same = lambda a, b: a == b  # noqa: E731  (LogValues: exact ratio equality)
    searched = property_holds(
        ctx,
        st.tuples(ENTRY_LAWS, st.integers(1, 4)),
        lambda instance: not _entry_failures(*instance, ctx.mutant),
        describe="for i.i.d. entries of any law on {0, 1, 2, 3} and n ≤ 4: H_inf(μ̂_2) by "
        "enumeration of all databases = H_inf(P_D) (independent of n), and H_inf(μ̂_1) by "
        "enumeration = the convolution value",
        explain=lambda instance: "; ".join(_entry_failures(*instance, ctx.mutant)),
        examples=ctx.fewer_examples(40, at_least=3, at_most=20),
        small_scope=ENTRY_SCOPE,
    )
    return [
        exact_instances(
            exact_cases,
            origin="by enumeration of all databases (convolution vs definition)",
            equal=same,
        ),
        exact_instances(
            first_rows, origin="equal to H_inf(P_D), independent of n (text)", equal=same
        ),
        certified_evidence(
            "interior case D ~ U{0,1,2,3}, cells [j, j+1): H_inf(μ̂_1) -> "
            f"{interior_target} (strictly decreasing distance on n = 1..512, < "
            f"{_shown(interior_tolerance)} "
            "at 512; below log 4 = H_inf(μ̂_2); <= -log(1 - 2e^{-n/18}) for n >= 16)",
            6,
            holds=interior_holds,
            values=interior_values,
            counterexample=None if interior_holds else interior_failure,
        ),
        certified_evidence(
            f"boundary case D ~ U{{1,2,3}}, μ = 2 = c_2: H_inf(μ̂_1) -> {boundary_target} "
            "(strictly decreasing distance on n = 4..1024, < "
            f"{_shown(boundary_tolerance)} "
            "at 1024; a trend, not a proof)",
            6,
            holds=boundary_ok,
            values=boundary_values,
            counterexample=boundary_failure,
        ),
        searched,
    ]


ENTRY_LAWS = (
    st.tuples(*[st.integers(0, 6)] * len(CUTS[:-1]))
    .filter(any)
    .map(lambda weights: {d: Fraction(w, sum(weights)) for d, w in enumerate(weights) if w})
)
"""Entry laws on {0, 1, 2, 3} (the quantizer's range [0, 4)) with weights 0..6."""

ENTRY_SCOPE = SmallScope(
    "(entry law, n): uniform on every nonempty subset of {0, 1, 2, 3}, n = 2, 3",
    [
        Layer(
            f"n = {n}",
            15,
            partial(
                lambda n: [
                    ({d: Fraction(1, len(support)) for d in support}, n)
                    for size in range(1, 5)
                    for support in itertools.combinations(range(4), size)
                ],
                n,
            ),
        )
        for n in (2, 3)
    ],
)
"""Example 3.1 holds for any i.i.d. entries: its smallest entry laws and sample sizes."""


def _entry_failures(entry: dict[int, Fraction], n: int, mutant: str | None) -> list[str]:
    """On one entry law and n: H_inf(μ̂_2) enumerated over all |D|^n databases equals
    H_inf(P_D) (the quantized mean's convolution value under ``first_row_like_mean``), and
    H_inf(μ̂_1) enumerated equals the convolution value."""
    mean_entropy, first_row = _enumerated(entry, n)
    convolution = quantized_mean_entropy(entry, n)
    expected = convolution if mutant == "first_row_like_mean" else LogValue(1 / max(entry.values()))
    failures = []
    if first_row != expected:
        failures.append(f"entry law {entry}, n = {n}: H_inf(μ̂_2) = {first_row}, not {expected}")
    if mean_entropy != convolution:
        failures.append(
            f"entry law {entry}, n = {n}: H_inf(μ̂_1) = {mean_entropy} by enumeration, "
            f"{convolution} by convolution"
        )
    return failures
