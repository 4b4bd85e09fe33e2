"""Small scopes of database mechanisms on D^n (Saeidian et al., §4): structured ones first,
then every explicit kernel with rows on the grid."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from exactpml.core.mechanism import Mechanism
from exactpml.database import DatabaseMechanism, DatabaseSpace
from exactpml.structured import (
    CountingQuery,
    GeometricNoise,
    PerRecordMechanism,
    QueryMechanism,
    randomized_response,
)
from proofs_check.small_scope._grid import (
    GRID,
    check_grid,
    check_range,
    grid_text,
    kernel_layers,
    plural,
)
from proofs_check.small_scope._scope import Layer, SmallScope

__all__ = ["database_mechanisms"]

T = TypeVar("T")


_EXP_EPSILONS = (2, 3)
_ALPHAS = (Fraction(1, 2), Fraction(1, 3))


def _one(make: Callable[[], T]) -> Callable[[], list[T]]:
    return lambda: [make()]


def _structured_layers(space: DatabaseSpace) -> list[Layer[DatabaseMechanism]]:
    letters = list(space.alphabet)
    counted = letters[-1]
    layers: list[Layer[DatabaseMechanism]] = []
    for ratio in _EXP_EPSILONS:
        layers.append(
            Layer(
                f"randomized response on each of n = {space.size} records, e^ε = {ratio}",
                1,
                _one(PerRecordMechanism(space, randomized_response(letters, ratio)).explicit),
            )
        )
    for alpha in _ALPHAS:
        predicate = {d: int(d == counted) for d in letters}
        layers.append(
            Layer(
                f"count of the records equal to {counted!r} (n = {space.size}) with two-sided "
                f"geometric noise, α = {alpha}",
                1,
                _one(
                    QueryMechanism(
                        space, CountingQuery(predicate), noise=GeometricNoise(alpha)
                    ).explicit
                ),
            )
        )
    return layers


def database_mechanisms(
    *,
    alphabet_size: int = 2,
    min_size: int = 1,
    max_size: int = 2,
    max_outputs: int = 2,
    grid: Sequence[int] = GRID,
    structured: bool = True,
) -> SmallScope[DatabaseMechanism]:
    """Every database mechanism on D^n with rows on the grid, plus structured ones.

    D = ``range(alphabet_size)``, n from ``min_size`` to ``max_size``, outputs
    ``range(m)`` for m <= ``max_outputs``.  For each n >= 2 (smallest n first), the
    structured mechanisms come first when ``structured``: randomized response on every
    record (e^ε = 2, 3) and the count with two-sided geometric noise (α = 1/2, 1/3), as
    explicit kernels; then every explicit kernel by number of outputs and grid.  Default
    (|D| = 2, n <= 2, two outputs): 50 on D^1, then 4 structured and 2 402 explicit on D^2
    (2 456).

    >>> scope = database_mechanisms()
    >>> len(scope), scope.locate(51)[1]
    (2456, Layer('randomized response on each of n = 2 records, e^ε = 3', 1))
    """
    check_range("database_mechanisms (alphabet)", alphabet_size, alphabet_size)
    check_range("database_mechanisms (size)", min_size, max_size)
    check_range("database_mechanisms (outputs)", 1, max_outputs)
    denominators = check_grid(grid)
    layers: list[Layer[DatabaseMechanism]] = []
    for n in range(min_size, max_size + 1):
        space = DatabaseSpace(range(alphabet_size), n)
        if structured and n >= 2:
            layers += _structured_layers(space)
        databases = list(space.databases())
        for m in range(1, max_outputs + 1):

            def finish(
                kernel: Mechanism, _: tuple[Any, ...], space: DatabaseSpace = space
            ) -> DatabaseMechanism:
                return DatabaseMechanism(kernel, alphabet=space.alphabet, size=space.size)

            layers += kernel_layers(
                databases,
                list(range(m)),
                denominators,
                positive=False,
                label=f"|D| = {alphabet_size}, n = {n}, {plural(m, 'output')}",
                finish=finish,
            )
    return SmallScope(
        f"database mechanisms on D^n, |D| = {alphabet_size}, n <= {max_size}, rows on the grid "
        f"{grid_text(denominators)}" + (", structured ones first" if structured else ""),
        layers,
    )
