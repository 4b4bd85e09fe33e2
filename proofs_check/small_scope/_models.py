"""Small scopes of bounded-leakage models (Ligett, Peale, Reingold): every small table."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Any

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
    databases: Sequence[Hashable] | None = None,
    randomness: Distribution | None = None,
) -> SmallScope[BoundedLeakageModel]:
    """Every bounded-leakage model with small tables: databases D^n for (n, |D|) in
    ``shapes`` (one record on {0, 1} or {0, 1, 2}, two records on {0, 1}; "differ in one
    record" neighbours) or the given ``databases``, randomness R of 1 to ``max_randomness``
    values with a law on the grid (zeros included) or the given ``randomness``, and every
    table M(x, r) in ``range(max_outputs)`` and P(x, r) in ``range(max_leakages)``.  Ordered
    by the number of cells |D^n|·|R|, then grid.  Default: 16 (one bit, |R| = 1), 64 (one
    trit), 1 792 (one bit, |R| = 2), 256 (two bits, |R| = 1), 28 672 (one trit, |R| = 2),
    458 752 (two bits, |R| = 2): 489 552.

    >>> len(bounded_leakage_models(shapes=[(1, 2)]))
    1808
    """
    check_range("bounded_leakage_models (randomness)", 1, max_randomness)
    check_range("bounded_leakage_models (outputs)", 1, max_outputs)
    check_range("bounded_leakage_models (leakages)", 1, max_leakages)
    denominators = check_grid(grid)
    universes: list[tuple[list[Any], str]] = []
    if databases is not None:
        given = list(databases)
        if not given:
            raise InvalidArgument("bounded_leakage_models: databases is empty")
        universes.append((given, f"{len(given)} given databases"))
    else:
        for shape in shapes:
            if len(shape) != 2:
                raise InvalidArgument(f"shapes: {shape!r} must be (records, alphabet size)")
            n, k = shape
            check_range("bounded_leakage_models (records)", n, n)
            check_range("bounded_leakage_models (alphabet)", k, k)
            universes.append((list(itertools.product(range(k), repeat=n)), f"n = {n}, |D| = {k}"))
    laws: list[tuple[int, str, Callable[[], Iterable[Distribution]], int]] = []
    if randomness is not None:
        laws.append((len(randomness), "the given randomness", lambda: [randomness], 1))
    else:
        for r in range(1, max_randomness + 1):
            graded = graded_product([vector_levels(r, denominators, positive=False)])
            for denominator, level in zip((1, *denominators), graded, strict=True):
                if level.size:
                    laws.append(
                        (
                            r,
                            f"|R| = {r}, {level_name(denominator)} randomness",
                            _laws(level),
                            level.size,
                        )
                    )
    configurations = sorted(
        ((u, w) for u in range(len(universes)) for w in range(len(laws))),
        key=lambda c: (len(universes[c[0]][0]) * laws[c[1]][0], len(universes[c[0]][0]), c),
    )
    layers: list[Layer[BoundedLeakageModel]] = []
    for u, w in configurations:
        universe, universe_text = universes[u]
        count, law_text, make_laws, law_count = laws[w]
        tables = (max_outputs * max_leakages) ** (len(universe) * count)
        layers.append(
            Layer(
                f"{universe_text}, {law_text}",
                law_count * tables,
                _models(universe, make_laws, max_outputs, max_leakages),
            )
        )
    return SmallScope(
        f"bounded-leakage models with |R| <= {max_randomness}, <= {max_outputs} outputs and "
        f"<= {max_leakages} leakage values, on the grid {grid_text(denominators)}",
        layers,
    )


def _laws(level: Graded) -> Callable[[], Iterator[Distribution]]:
    def laws() -> Iterator[Distribution]:
        for (law,) in level.items():
            yield Distribution(dict(enumerate(law)), name="randomness")

    return laws


def _models(
    databases: list[Any],
    laws: Callable[[], Iterable[Distribution]],
    max_outputs: int,
    max_leakages: int,
) -> Callable[[], Iterator[BoundedLeakageModel]]:
    def models() -> Iterator[BoundedLeakageModel]:
        for randomness in laws():
            cells = [(x, value) for x in databases for value in randomness.outcomes]
            for outputs in itertools.product(range(max_outputs), repeat=len(cells)):
                for leaks in itertools.product(range(max_leakages), repeat=len(cells)):
                    yield BoundedLeakageModel(
                        randomness,
                        dict(zip(cells, outputs, strict=True)),
                        dict(zip(cells, leaks, strict=True)),
                        databases=databases,
                    )

    return models
