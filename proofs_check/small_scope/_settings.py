"""Small scopes of partial-knowledge settings (thesis §3.1.3) and of settings with a mechanism
on their databases."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from exactpml.core.distribution import Distribution
from exactpml.core.mechanism import Mechanism
from exactpml.partial_knowledge.setting import PartialKnowledge
from proofs_check.small_scope._grid import (
    GRID,
    Graded,
    chain,
    check_grid,
    check_range,
    graded_product,
    grid_text,
    level_name,
    plural,
    vector_levels,
)
from proofs_check.small_scope._scope import Layer, SmallScope

__all__ = ["partial_knowledge_settings", "setting_mechanisms"]


def _settings_at(
    records: int, grid: tuple[int, ...]
) -> list[tuple[int, list[tuple[Callable[[], Iterator[PartialKnowledge]], int]]]]:
    """Per level: the (factory, size) parts of the settings on ``records`` binary records."""
    free = vector_levels(2, grid, positive=False)
    positive = vector_levels(2, grid, positive=True)
    parts: list[list[tuple[Callable[[], Iterator[PartialKnowledge]], int]]] = [
        [] for _ in range(len(grid) + 1)
    ]
    for target in range(records):
        others = [j for j in range(records) if j != target]
        components = [positive if j == target else free for j in range(records)]
        graded = graded_product(components)
        known_sets = [
            list(subset)
            for size in range(len(others) + 1)
            for subset in itertools.combinations(others, size)
        ]
        choices = [(value, 1 - value, known) for known in known_sets for value in (0, 1)]
        for level, layer in enumerate(graded):

            def settings(
                layer: Graded = layer,
                target: int = target,
                choices: list[tuple[int, int, list[int]]] = choices,
            ) -> Iterator[PartialKnowledge]:
                for vectors in layer.items():
                    laws = [Distribution({0: v[0], 1: v[1]}) for v in vectors]
                    for value, alternative, known in choices:
                        yield PartialKnowledge(
                            laws, target=target, value=value, alternative=alternative, known=known
                        )

            parts[level].append((settings, layer.size * len(choices)))
    return list(enumerate(parts))


def partial_knowledge_settings(
    *, max_records: int = 2, grid: Sequence[int] = GRID
) -> SmallScope[PartialKnowledge]:
    """Every partial-knowledge setting on 1 to ``max_records`` binary records, laws on the grid.

    Independent records on {0, 1}; the target's law has full support (so t = 0 and t' = 1
    are both possible, in both orders), the others may be degenerate; the adversary knows
    any subset of the other records.  By number of records, then grid.  One record: 10
    settings; two: 280 (290 in all).

    >>> len(partial_knowledge_settings()), len(partial_knowledge_settings(max_records=1))
    (290, 10)
    """
    check_range("partial_knowledge_settings (records)", 1, max_records)
    denominators = check_grid(grid)
    layers: list[Layer[PartialKnowledge]] = []
    for records in range(1, max_records + 1):
        for level, parts in _settings_at(records, denominators):
            size = sum(size for _, size in parts)
            layers.append(
                Layer(
                    f"{plural(records, 'binary record')}, {level_name((1, *denominators)[level])}",
                    size,
                    chain(parts),
                )
            )
    return SmallScope(
        f"partial-knowledge settings on <= {max_records} binary records, laws on the grid "
        f"{grid_text(denominators)}",
        layers,
    )


def setting_mechanisms(
    *, max_records: int = 2, max_outputs: int = 2, grid: Sequence[int] = GRID
) -> SmallScope[tuple[PartialKnowledge, Mechanism]]:
    """(setting, mechanism) pairs: a setting of :func:`partial_knowledge_settings` and every
    kernel on its database tuples with up to ``max_outputs`` outputs, rows on the grid.

    By number of records, then outputs, then the finer grid of the two.  One record:
    500 pairs; two records: 672 560 (the budget cuts them short).

    >>> len(setting_mechanisms(max_records=1))
    500
    """
    check_range("setting_mechanisms (records)", 1, max_records)
    check_range("setting_mechanisms (outputs)", 1, max_outputs)
    denominators = check_grid(grid)
    layers: list[Layer[tuple[PartialKnowledge, Mechanism]]] = []
    for records in range(1, max_records + 1):
        databases = list(itertools.product((0, 1), repeat=records))
        settings = [
            [(factory, size) for factory, size in parts]
            for _, parts in _settings_at(records, denominators)
        ]
        for m in range(1, max_outputs + 1):
            rows = vector_levels(m, denominators, positive=False)
            kernels = graded_product([rows] * len(databases))
            level_count = len(denominators) + 1
            for top in range(level_count):
                pieces: list[tuple[Callable[[], Iterator[Any]], int]] = []
                # kernel at level `top` with settings at levels <= top, then settings at `top`
                # with kernels strictly below it: every pair exactly once.
                for low in range(top + 1):
                    for factory, size in settings[low]:
                        kernel = kernels[top]
                        pieces.append((_pairing(factory, kernel, databases, m), size * kernel.size))
                for below in range(top):
                    for factory, size in settings[top]:
                        kernel = kernels[below]
                        pieces.append((_pairing(factory, kernel, databases, m), size * kernel.size))
                total = sum(size for _, size in pieces)
                if total == 0:
                    continue
                layers.append(
                    Layer(
                        f"{plural(records, 'binary record')}, {plural(m, 'output')}, "
                        f"{level_name((1, *denominators)[top])}",
                        total,
                        chain(pieces),
                    )
                )
    return SmallScope(
        f"partial-knowledge settings on <= {max_records} binary records with every mechanism "
        f"on their databases (<= {max_outputs} outputs), on the grid {grid_text(denominators)}",
        layers,
    )


def _pairing(
    settings: Callable[[], Iterator[PartialKnowledge]],
    kernels: Graded,
    databases: list[tuple[int, ...]],
    outputs: int,
) -> Callable[[], Iterator[tuple[PartialKnowledge, Mechanism]]]:
    def pairs() -> Iterator[tuple[PartialKnowledge, Mechanism]]:
        for setting in settings():
            for rows in kernels.items():
                yield (
                    setting,
                    Mechanism.from_matrix(
                        list(rows), inputs=databases, outputs=list(range(outputs))
                    ),
                )

    return pairs
