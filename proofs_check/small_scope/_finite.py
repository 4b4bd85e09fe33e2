"""Small scopes of finite objects: probability vectors, distributions, kernels, kernels with a
prior, attributes and pair kernels, smallest alphabets and coarsest grid first."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from exactpml.core.distribution import Distribution
from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument
from proofs_check.small_scope._grid import (
    GRID,
    Vector,
    alphabet_shapes,
    check_grid,
    check_range,
    graded_product,
    grid_layers,
    grid_text,
    kernel_layers,
    prefix,
    vector_levels,
)
from proofs_check.small_scope._scope import Layer, SmallScope
from proofs_check.small_scope._symmetry import kernel_group, permutations

__all__ = [
    "RELABELLING",
    "attributes",
    "distributions",
    "mechanisms",
    "mechanisms_with_prior",
    "pair_kernels",
    "probability_vectors",
]

RELABELLING = ", one per relabelling orbit"
"""Added to the description of a scope that keeps one instance per relabelling orbit."""


def probability_vectors(
    size: int, *, grid: Sequence[int] = GRID, full_support: bool = False
) -> SmallScope[Vector]:
    """Every probability vector of ``size`` entries on the grid, coarsest grid first.

    Sizes with the default grid: 7 vectors of size 2 (5 with full support), 22 of size 3,
    51 of size 4.

    >>> [str(sum(v)) for v in probability_vectors(2)], len(probability_vectors(3))
    (['1', '1', '1', '1', '1', '1', '1'], 22)
    >>> [tuple(str(p) for p in v) for v in probability_vectors(2, grid=(2,))]
    [('0', '1'), ('1', '0'), ('1/2', '1/2')]
    """
    check_range("probability_vectors (size)", size, size)
    denominators = check_grid(grid)
    levels = vector_levels(size, denominators, positive=full_support)
    graded = graded_product([levels])
    return SmallScope(
        f"probability vectors of size {size} on the grid {grid_text(denominators)}",
        grid_layers(graded, denominators, lambda level: f"size {size}, {level}", lambda p: p[0]),
    )


def distributions(
    *,
    outcomes: Sequence[Hashable] | None = None,
    min_size: int = 1,
    max_size: int = 3,
    grid: Sequence[int] = GRID,
    full_support: bool = False,
) -> SmallScope[Distribution]:
    """Every distribution on ``outcomes`` (else on ``range(n)``, n from min to max) on the grid.

    Default: 1 + 7 + 22 = 30 distributions on {0}, {0, 1} and {0, 1, 2}.

    >>> len(distributions()), len(distributions(outcomes="ab", full_support=True))
    (30, 5)
    """
    denominators = check_grid(grid)
    if outcomes is not None:
        labels_list: list[list[Hashable]] = [list(outcomes)]
        if not labels_list[0]:
            raise InvalidArgument("distributions: outcomes is empty")
    else:
        check_range("distributions (size)", min_size, max_size)
        labels_list = [list(range(n)) for n in range(min_size, max_size + 1)]
    layers: list[Layer[Distribution]] = []
    for labels in labels_list:
        levels = vector_levels(len(labels), denominators, positive=full_support)

        def build(parts: tuple[Any, ...], labels: list[Hashable] = labels) -> Distribution:
            return Distribution(dict(zip(labels, parts[0], strict=True)))

        layers += grid_layers(
            graded_product([levels]), denominators, prefix(f"{len(labels)} outcomes"), build
        )
    support = "full-support " if full_support else ""
    return SmallScope(f"{support}distributions on the grid {grid_text(denominators)}", layers)


def mechanisms(
    *,
    inputs: Sequence[Hashable] | None = None,
    outputs: Sequence[Hashable] | None = None,
    min_inputs: int = 1,
    max_inputs: int = 3,
    min_outputs: int = 1,
    max_outputs: int = 3,
    grid: Sequence[int] = GRID,
    zeros: bool = True,
    up_to_relabelling: bool = False,
) -> SmallScope[Mechanism]:
    """Every kernel P_{Y|X} with rows on the grid, smallest alphabets first.

    Alphabets ``range(|X|)`` and ``range(|Y|)`` (or the given labels), ordered by |X|·|Y|
    then |X|; within one, coarsest grid first.  Zero entries, deterministic rows and outputs
    that no input produces are all included; ``zeros=False`` keeps strictly positive rows.
    Default (|X|, |Y| <= 3): 11 556 kernels, of which 58 have |X|, |Y| <= 2 and 10 648 are
    3 x 3.  ``up_to_relabelling=True`` keeps one kernel per orbit of the input and output
    permutations (for label-free properties only; see :mod:`._symmetry`): 493 of them
    stand for the 11 556.

    >>> len(mechanisms()), len(mechanisms(inputs=[0, 1], outputs=[0, 1], zeros=False))
    (11556, 25)
    >>> len(list(mechanisms(up_to_relabelling=True)))
    493
    """
    denominators = check_grid(grid)
    layers: list[Layer[Mechanism]] = []
    ranges = (min_inputs, max_inputs), (min_outputs, max_outputs)
    alphabets = alphabet_shapes(inputs, outputs, *ranges)
    for xs, ys in alphabets:
        group = kernel_group(permutations(len(xs)), outputs=len(ys)) if up_to_relabelling else None
        layers += kernel_layers(
            xs,
            ys,
            denominators,
            positive=not zeros,
            label=f"|X| = {len(xs)}, |Y| = {len(ys)}",
            group=group,
        )
    return SmallScope(
        f"kernels with rows on the grid {grid_text(denominators)}"
        + ("" if zeros else ", no zero entry")
        + (RELABELLING if up_to_relabelling else ""),
        layers,
    )


def mechanisms_with_prior(
    *,
    min_inputs: int = 1,
    max_inputs: int = 2,
    min_outputs: int = 1,
    max_outputs: int = 2,
    grid: Sequence[int] = GRID,
    zeros: bool = True,
    full_support: bool = False,
    up_to_relabelling: bool = False,
) -> SmallScope[tuple[Mechanism, Distribution]]:
    """Every (kernel, prior on its inputs) pair with kernel rows and prior on the grid.

    The pair's grid is the finer of the two.  Default (|X|, |Y| <= 2): 358 pairs
    (343 with |X| = |Y| = 2); with ``max_inputs=3, max_outputs=3``: 245 592.
    ``up_to_relabelling=True``: one pair per orbit of the input permutations (acting on the
    kernel's rows and the prior together) and the output permutations.

    >>> len(mechanisms_with_prior()), len(mechanisms_with_prior(full_support=True))
    (358, 258)
    """
    denominators = check_grid(grid)
    layers: list[Layer[tuple[Mechanism, Distribution]]] = []
    for xs, ys in alphabet_shapes(None, None, (min_inputs, max_inputs), (min_outputs, max_outputs)):
        prior_levels = vector_levels(len(xs), denominators, positive=full_support)

        def finish(
            kernel: Mechanism, rest: tuple[Any, ...], xs: list[Hashable] = xs
        ) -> tuple[Mechanism, Distribution]:
            return kernel, Distribution(dict(zip(xs, rest[0], strict=True)), name="prior")

        layers += kernel_layers(
            xs,
            ys,
            denominators,
            positive=not zeros,
            label=f"|X| = {len(xs)}, |Y| = {len(ys)} with a prior",
            extra=[prior_levels],
            finish=finish,
            group=kernel_group(permutations(len(xs)), outputs=len(ys), extras=1)
            if up_to_relabelling
            else None,
        )
    return SmallScope(
        f"kernels with a prior, on the grid {grid_text(denominators)}"
        + (", full-support priors" if full_support else "")
        + (RELABELLING if up_to_relabelling else ""),
        layers,
    )


def attributes(
    inputs: Sequence[Hashable],
    *,
    min_values: int = 1,
    max_values: int = 3,
    grid: Sequence[int] = GRID,
    deterministic: bool | None = None,
) -> SmallScope[Mechanism]:
    """Attributes P_{U|X} on ``inputs``: every deterministic map X -> U first, then grid kernels.

    U = ``range(k)`` for k from ``min_values`` to ``max_values``; ``deterministic=True``
    keeps the maps only, ``False`` the randomised kernels only.  On two inputs: 14 maps and
    520 randomised kernels (534); on three inputs: 36 maps and 10 956 randomised kernels.

    >>> len(attributes([0, 1])), len(attributes([0, 1], deterministic=True))
    (534, 14)
    """
    labels = list(inputs)
    if not labels:
        raise InvalidArgument("attributes: the input alphabet is empty")
    check_range("attributes (values)", min_values, max_values)
    denominators = check_grid(grid)
    maps: list[Layer[Mechanism]] = []
    kernels: list[Layer[Mechanism]] = []
    for k in range(min_values, max_values + 1):
        layers = kernel_layers(
            labels,
            list(range(k)),
            denominators,
            positive=False,
            label=f"|X| = {len(labels)}, |U| = {k}",
            name="attribute",
        )
        for layer in layers:
            deterministic_layer = layer.description.endswith("deterministic")
            (maps if deterministic_layer else kernels).append(layer)
    chosen = maps if deterministic else kernels if deterministic is False else maps + kernels
    return SmallScope(
        f"attributes on {len(labels)} inputs (maps, then kernels on the grid "
        f"{grid_text(denominators)})",
        chosen,
    )


def pair_kernels(
    *,
    inputs: Sequence[Hashable] | None = None,
    min_inputs: int = 1,
    max_inputs: int = 2,
    max_first: int = 2,
    max_second: int = 2,
    grid: Sequence[int] = GRID,
) -> SmallScope[Mechanism]:
    """Every kernel X -> (Y1, Y2) with outputs the pairs ``(y1, y2)``, rows on the grid.

    |X| from ``min_inputs`` to ``max_inputs``, Y1 = ``range(k1)``, Y2 = ``range(k2)`` with
    k1 <= ``max_first``, k2 <= ``max_second``; ordered by |X|·|Y1|·|Y2|.  No conditional
    independence of Y1 and Y2 given X is assumed.  Default: 2 766 kernels (2 601 of them
    with |X| = 2 and |Y1| = |Y2| = 2).  ``inputs`` fixes the input labels (and |X|).

    >>> len(pair_kernels()), pair_kernels().layers[-3]
    (2766, Layer('|X| = 2, |Y1| = 2, |Y2| = 2, grid 1/2', 84))
    """
    if inputs is not None:
        labels = list(inputs)
        if not labels:
            raise InvalidArgument("pair_kernels: the input alphabet is empty")
        min_inputs = max_inputs = len(labels)
    check_range("pair_kernels (inputs)", min_inputs, max_inputs)
    check_range("pair_kernels (first)", 1, max_first)
    check_range("pair_kernels (second)", 1, max_second)
    denominators = check_grid(grid)
    shapes = sorted(
        (
            (a, k1, k2)
            for a in range(min_inputs, max_inputs + 1)
            for k1 in range(1, max_first + 1)
            for k2 in range(1, max_second + 1)
        ),
        key=lambda s: (s[0] * s[1] * s[2], s[0], s[1]),
    )
    layers: list[Layer[Mechanism]] = []
    for a, k1, k2 in shapes:
        outputs = [(y1, y2) for y1 in range(k1) for y2 in range(k2)]
        layers += kernel_layers(
            labels if inputs is not None else list(range(a)),
            outputs,
            denominators,
            positive=False,
            label=f"|X| = {a}, |Y1| = {k1}, |Y2| = {k2}",
        )
    return SmallScope(
        f"kernels X -> (Y1, Y2) with rows on the grid {grid_text(denominators)}", layers
    )
