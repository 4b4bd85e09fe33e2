"""Small scopes of partial-knowledge settings (thesis §3.1.3) and of settings with a mechanism
on their databases."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from exactpml.core.distribution import Distribution
from exactpml.core.mechanism import Mechanism
from exactpml.partial_knowledge.setting import PartialKnowledge
from proofs_check.small_scope._finite import RELABELLING
from proofs_check.small_scope._grid import (
    GRID,
    Graded,
    Vector,
    check_grid,
    check_range,
    graded_product,
    grid_text,
    level_name,
    plural,
    vector_levels,
)
from proofs_check.small_scope._scope import Layer, SmallScope, Step, inside
from proofs_check.small_scope._symmetry import PairOrbits, VectorCodes, setting_group

__all__ = ["partial_knowledge_settings", "setting_mechanisms"]


SettingParts = tuple[tuple[Vector, ...], int, int, tuple[int, ...]]
"""A setting's raw parts: the records' laws (as vectors), target, value t, known records."""


def setting_parts(records: int, grid: tuple[int, ...]) -> list[list[SettingParts]]:
    """Per grid level: the raw parts of every setting on ``records`` binary records whose
    finest law lies on that level (target's law positive, known records any subset)."""
    free = vector_levels(2, grid, positive=False)
    positive = vector_levels(2, grid, positive=True)
    levels: list[list[SettingParts]] = [[] for _ in range(len(grid) + 1)]
    for target in range(records):
        others = [j for j in range(records) if j != target]
        components = [positive if j == target else free for j in range(records)]
        known_sets = [
            subset
            for size in range(len(others) + 1)
            for subset in itertools.combinations(others, size)
        ]
        for level, layer in enumerate(graded_product(components)):
            for vectors in layer.items():
                for known in known_sets:
                    for value in (0, 1):
                        levels[level].append((tuple(vectors), target, value, tuple(known)))
    return levels


def build_setting(parts: SettingParts) -> PartialKnowledge:
    """The setting of the raw parts (alternative t' = 1 - t)."""
    laws, target, value, known = parts
    return PartialKnowledge(
        [Distribution({0: v[0], 1: v[1]}) for v in laws],
        target=target,
        value=value,
        alternative=1 - value,
        known=list(known),
    )


def partial_knowledge_settings(
    *, min_records: int = 1, max_records: int = 2, grid: Sequence[int] = GRID
) -> SmallScope[PartialKnowledge]:
    """Every partial-knowledge setting on ``min_records`` to ``max_records`` binary records,
    laws on the grid.

    Independent records on {0, 1}; the target's law has full support (so t = 0 and t' = 1
    are both possible, in both orders), the others may be degenerate; the adversary knows
    any subset of the other records.  By number of records, then grid.  One record: 10
    settings; two: 280 (290 in all).

    >>> len(partial_knowledge_settings()), len(partial_knowledge_settings(max_records=1))
    (290, 10)
    """
    check_range("partial_knowledge_settings (records)", min_records, max_records)
    denominators = check_grid(grid)
    layers: list[Layer[PartialKnowledge]] = []
    for records in range(min_records, max_records + 1):
        for level, parts in enumerate(setting_parts(records, denominators)):
            layers.append(
                Layer(
                    f"{plural(records, 'binary record')}, {level_name((1, *denominators)[level])}",
                    len(parts),
                    _built(lambda parts=parts: parts, build_setting),  # type: ignore[misc]
                )
            )
    return SmallScope(
        f"partial-knowledge settings on <= {max_records} binary records, laws on the grid "
        f"{grid_text(denominators)}",
        layers,
    )


def setting_mechanisms(
    *,
    min_records: int = 1,
    max_records: int = 2,
    max_outputs: int = 2,
    grid: Sequence[int] = GRID,
    up_to_relabelling: bool = False,
) -> SmallScope[tuple[PartialKnowledge, Mechanism]]:
    """(setting, mechanism) pairs: a setting of :func:`partial_knowledge_settings` and every
    kernel on its database tuples with up to ``max_outputs`` outputs, rows on the grid.

    By number of records, then outputs; then, over the grid levels of the kernel (k) and of
    the laws (s), by max(k, s), then k + s, then k: simple kernels meet every simple setting
    first, and a deterministic kernel meets settings on a finer grid (a known record of law
    (1/3, 2/3)) before generic kernels on the grid 1/2.  Within a layer, kernel by kernel,
    each against every setting.  One record: 500 pairs; two records: 672 560 (the budget
    cuts them short).  ``up_to_relabelling=True`` keeps one pair per orbit of the record
    permutations, the value flips of each record (t and t' swapped on the target) and the
    output permutations (16 relabellings on two records and two outputs; for label-free
    properties only, see :mod:`._symmetry`).

    >>> len(setting_mechanisms(max_records=1))
    500
    >>> len(list(setting_mechanisms(max_records=1, up_to_relabelling=True)))
    130
    """
    check_range("setting_mechanisms (records)", min_records, max_records)
    check_range("setting_mechanisms (outputs)", 1, max_outputs)
    denominators = check_grid(grid)
    layers: list[Layer[tuple[PartialKnowledge, Mechanism]]] = []
    names = [level_name(d) for d in (1, *denominators)]
    for records in range(min_records, max_records + 1):
        databases = list(itertools.product((0, 1), repeat=records))
        settings = setting_parts(records, denominators)
        for m in range(1, max_outputs + 1):
            kernels = graded_product(
                [vector_levels(m, denominators, positive=False)] * len(databases)
            )
            group = PairOrbits(setting_group(records, m)) if up_to_relabelling else None
            grades = sorted(
                itertools.product(range(len(kernels)), range(len(settings))),
                key=lambda ks: (max(ks), sum(ks), ks),
            )
            for k, s in grades:
                size = kernels[k].size * len(settings[s])
                if size == 0:
                    continue
                description = (
                    f"{plural(records, 'binary record')}, {plural(m, 'output')}, "
                    f"kernel {names[k]}, laws {names[s]}"
                )
                raw = _pairs(kernels[k], settings[s])
                build = _setting_builder(databases, m)
                if group is None:
                    layers.append(Layer(description, size, _built(raw, build)))
                else:
                    scale = math.lcm(*denominators)
                    steps = _orbit_steps(kernels[k], settings[s], build, group, scale)
                    layers.append(Layer(description, size, inside(steps), steps))
    return SmallScope(
        f"partial-knowledge settings on <= {max_records} binary records with every mechanism "
        f"on their databases (<= {max_outputs} outputs), on the grid {grid_text(denominators)}"
        + (RELABELLING if up_to_relabelling else ""),
        layers,
    )


def _pairs(
    kernels: Graded, settings: list[SettingParts]
) -> Callable[[], Iterator[tuple[Any, ...]]]:
    """Raw (laws, target, value, known, rows): kernel by kernel, every setting."""

    def raw() -> Iterator[tuple[Any, ...]]:
        for rows in kernels.items():
            for laws, target, value, known in settings:
                yield laws, target, value, known, rows

    return raw


def _built(
    raw: Callable[[], Iterable[Any]], build: Callable[[Any], Any]
) -> Callable[[], Iterator[Any]]:
    def instances() -> Iterator[Any]:
        for parts in raw():
            yield build(parts)

    return instances


def _orbit_steps(
    kernels: Graded,
    settings: list[SettingParts],
    build: Callable[[tuple[Any, ...]], Any],
    orbits: PairOrbits,
    scale: int,
) -> Callable[[], Iterator[Step]]:
    """Steps of the representatives (setting first, then kernel, least in their orbit)."""

    def steps() -> Iterator[Step]:
        codes = VectorCodes(scale)
        coded = [
            (codes.vectors(laws), target, value, known) for laws, target, value, known in settings
        ]
        for rows in kernels.items():
            coded_rows = codes.vectors(rows)
            for setting, code in zip(settings, coded, strict=True):
                weight = orbits.weight(code, coded_rows)
                if weight:
                    yield Step(build((*setting, rows)), weight)

    return steps


def _setting_builder(
    databases: list[tuple[int, ...]], outputs: int
) -> Callable[[tuple[Any, ...]], tuple[PartialKnowledge, Mechanism]]:
    def build(raw: tuple[Any, ...]) -> tuple[PartialKnowledge, Mechanism]:
        laws, target, value, known, rows = raw
        mechanism = Mechanism.from_matrix(
            list(rows), inputs=databases, outputs=list(range(outputs))
        )
        return build_setting((laws, target, value, known)), mechanism

    return build
