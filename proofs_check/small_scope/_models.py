"""Small scopes of bounded-leakage models (Ligett, Peale, Reingold): every small table."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from exactpml.bldp.model import BoundedLeakageModel
from exactpml.core.distribution import Distribution
from exactpml.errors import InvalidArgument
from proofs_check.small_scope._grid import (
    GRID,
    Graded,
    check_grid,
    check_range,
    graded_product,
    grid_text,
    level_name,
    vector_levels,
)
from proofs_check.small_scope._scope import Layer, SmallScope

__all__ = ["bounded_leakage_models"]


_BLDP_SHAPES = ((1, 2), (1, 3), (2, 2))


def bounded_leakage_models(
    *,
    shapes: Sequence[tuple[int, int]] = _BLDP_SHAPES,
    max_randomness: int = 2,
    max_outputs: int = 2,
    max_leakages: int = 2,
    grid: Sequence[int] = GRID,
) -> SmallScope[BoundedLeakageModel]:
    """Every bounded-leakage model with small tables: databases D^n for (n, |D|) in
    ``shapes`` (one record on {0, 1} or {0, 1, 2}, two records on {0, 1}; "differ in one
    record" neighbours), randomness R of 1 to ``max_randomness`` values with a law on the
    grid (zeros included), and every table M(x, r) in ``range(max_outputs)`` and P(x, r) in
    ``range(max_leakages)``.  Ordered by the number of cells |D^n|·|R|, then grid.  Default:
    16 (one bit, |R| = 1), 64 (one trit), 1 792 (one bit, |R| = 2), 256 (two bits,
    |R| = 1), 28 672 (one trit, |R| = 2), 458 752 (two bits, |R| = 2): 489 552.

    >>> len(bounded_leakage_models(shapes=[(1, 2)]))
    1808
    """
    check_range("bounded_leakage_models (randomness)", 1, max_randomness)
    check_range("bounded_leakage_models (outputs)", 1, max_outputs)
    check_range("bounded_leakage_models (leakages)", 1, max_leakages)
    denominators = check_grid(grid)
    for shape in shapes:
        if len(shape) != 2:
            raise InvalidArgument(f"shapes: {shape!r} must be (records, alphabet size)")
        check_range("bounded_leakage_models (records)", shape[0], shape[0])
        check_range("bounded_leakage_models (alphabet)", shape[1], shape[1])
    configurations = sorted(
        ((n, k, r) for n, k in shapes for r in range(1, max_randomness + 1)),
        key=lambda c: (c[1] ** c[0] * c[2], c[1] ** c[0], c[0]),
    )
    layers: list[Layer[BoundedLeakageModel]] = []
    for n, k, r in configurations:
        databases = list(itertools.product(range(k), repeat=n))
        cells = [(x, value) for x in databases for value in range(r)]
        tables = max_outputs ** len(cells) * max_leakages ** len(cells)
        graded = graded_product([vector_levels(r, denominators, positive=False)])
        for denominator, level in zip((1, *denominators), graded, strict=True):
            if level.size == 0:
                continue

            def models(
                level: Graded = level,
                databases: list[tuple[int, ...]] = databases,
                cells: list[tuple[tuple[int, ...], int]] = cells,
            ) -> Iterator[BoundedLeakageModel]:
                for (law,) in level.items():
                    randomness = Distribution(dict(enumerate(law)), name="randomness")
                    for outputs in itertools.product(range(max_outputs), repeat=len(cells)):
                        for leaks in itertools.product(range(max_leakages), repeat=len(cells)):
                            yield BoundedLeakageModel(
                                randomness,
                                dict(zip(cells, outputs, strict=True)),
                                dict(zip(cells, leaks, strict=True)),
                                databases=databases,
                            )

            layers.append(
                Layer(
                    f"n = {n}, |D| = {k}, |R| = {r}, {level_name(denominator)} randomness",
                    level.size * tables,
                    models,
                )
            )
    return SmallScope(
        f"bounded-leakage models with |R| <= {max_randomness}, <= {max_outputs} outputs and "
        f"<= {max_leakages} leakage values, on the grid {grid_text(denominators)}",
        layers,
    )
