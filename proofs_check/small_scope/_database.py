"""Small scopes of database mechanisms on D^n (Saeidian et al., §4): structured ones first,
then every explicit kernel with rows on the grid."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from exactpml.core.distribution import Distribution
from exactpml.core.mechanism import Mechanism
from exactpml.database import DatabaseMechanism, DatabaseSpace, ProductPrior
from exactpml.errors import InvalidArgument
from exactpml.structured import (
    CountingQuery,
    GeometricNoise,
    PerRecordMechanism,
    QueryMechanism,
    randomized_response,
)
from proofs_check.small_scope._finite import RELABELLING
from proofs_check.small_scope._grid import (
    GRID,
    Graded,
    check_grid,
    check_range,
    graded_product,
    grid_layers,
    grid_text,
    kernel_layers,
    level_name,
    plural,
    vector_levels,
)
from proofs_check.small_scope._scope import Layer, SmallScope
from proofs_check.small_scope._symmetry import database_permutations, kernel_group

__all__ = ["database_mechanisms", "database_mechanisms_with_prior", "database_priors"]

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


def _spaces(
    space: DatabaseSpace | None, alphabet_size: int, min_size: int, max_size: int
) -> list[DatabaseSpace]:
    if space is not None:
        if not isinstance(space, DatabaseSpace):
            raise InvalidArgument(f"space={space!r} must be a DatabaseSpace")
        return [space]
    check_range("database_mechanisms (alphabet)", alphabet_size, alphabet_size)
    check_range("database_mechanisms (size)", min_size, max_size)
    return [DatabaseSpace(range(alphabet_size), n) for n in range(min_size, max_size + 1)]


def _count_law(ones: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """The law of the number of ones among independent bits with P(1) = ``ones[i]``."""
    law = [Fraction(1)]
    for p in ones:
        law = [
            (law[k] if k < len(law) else 0) * (1 - p) + (law[k - 1] * p if k else 0)
            for k in range(len(law) + 1)
        ]
    return tuple(law)


def _per_record_layers(
    space: DatabaseSpace, grid: tuple[int, ...]
) -> list[Layer[DatabaseMechanism]]:
    """The number of ones released after one binary randomizer per letter (positive rows on
    the grid): outputs 0..n, the per-record shape whose ε grows with the distance."""
    letters = list(space.alphabet)
    databases = list(space.databases())
    graded = graded_product([vector_levels(2, grid, positive=True)] * len(letters))

    def build(parts: tuple[Any, ...]) -> DatabaseMechanism:
        ones = dict(zip(letters, (vector[1] for vector in parts), strict=True))
        rows = [_count_law([ones[d] for d in x]) for x in databases]
        kernel = Mechanism.from_matrix(rows, inputs=databases, outputs=list(range(space.size + 1)))
        return DatabaseMechanism(kernel, alphabet=space.alphabet, size=space.size)

    return grid_layers(
        graded,
        grid,
        lambda level: (
            f"count of ones after a binary randomizer per record (n = {space.size}), {level}"
        ),
        build,
    )


def _mechanism_layers(
    space: DatabaseSpace,
    outputs: range,
    grid: tuple[int, ...],
    *,
    zeros: bool,
    up_to_relabelling: bool,
) -> list[Layer[DatabaseMechanism]]:
    databases = list(space.databases())
    permuted = database_permutations(len(space.alphabet), space.size) if up_to_relabelling else None
    layers: list[Layer[DatabaseMechanism]] = []
    for m in outputs:

        def finish(
            kernel: Mechanism, _: tuple[Any, ...], space: DatabaseSpace = space
        ) -> DatabaseMechanism:
            return DatabaseMechanism(kernel, alphabet=space.alphabet, size=space.size)

        layers += kernel_layers(
            databases,
            list(range(m)),
            grid,
            positive=not zeros,
            label=f"|D| = {len(space.alphabet)}, n = {space.size}, {plural(m, 'output')}",
            finish=finish,
            group=None if permuted is None else kernel_group(permuted, outputs=m),
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
    space: DatabaseSpace | None = None,
    min_outputs: int = 1,
    zeros: bool = True,
    per_record: bool = False,
    up_to_relabelling: bool = False,
) -> SmallScope[DatabaseMechanism]:
    """Every database mechanism on D^n with rows on the grid, plus structured ones.

    D = ``range(alphabet_size)``, n from ``min_size`` to ``max_size`` (or the given
    ``space`` only), outputs ``range(m)`` for ``min_outputs`` <= m <= ``max_outputs``.  For
    each n >= 2 (smallest n first), the structured mechanisms come first when
    ``structured``: randomized response on every record (e^ε = 2, 3) and the count with
    two-sided geometric noise (α = 1/2, 1/3), as explicit kernels; with ``per_record``, the
    count of ones after a binary randomizer per letter (positive rows on the grid, outputs
    0..n: what ``exactpml.strategies.database_mechanisms`` draws in its per-record regime);
    then every explicit kernel by number of outputs and grid (``zeros=False``: positive
    rows only).  Default (|D| = 2, n <= 2, two outputs): 50 on D^1, then 4 structured and
    2 402 explicit on D^2 (2 456).  ``up_to_relabelling=True`` keeps one explicit kernel per
    orbit of the output permutations and of the relabellings of D^n that keep neighbours
    (record permutations, each record's values relabelled on its own).

    >>> scope = database_mechanisms()
    >>> len(scope), scope.locate(51)[1]
    (2456, Layer('randomized response on each of n = 2 records, e^ε = 3', 1))
    >>> len(list(database_mechanisms(structured=False, up_to_relabelling=True)))
    232
    """
    check_range("database_mechanisms (outputs)", min_outputs, max_outputs)
    denominators = check_grid(grid)
    spaces = _spaces(space, alphabet_size, min_size, max_size)
    layers: list[Layer[DatabaseMechanism]] = []
    for chosen in spaces:
        if structured and chosen.size >= 2:
            layers += _structured_layers(chosen)
        if per_record and chosen.size >= 2:
            layers += _per_record_layers(chosen, denominators)
        layers += _mechanism_layers(
            chosen,
            range(min_outputs, max_outputs + 1),
            denominators,
            zeros=zeros,
            up_to_relabelling=up_to_relabelling,
        )
    where = (
        f"on {spaces[0]!r}"
        if space is not None
        else f"on D^n, |D| = {alphabet_size}, n <= {max_size}"
    )
    extras = (", structured ones first" if structured else "") + (
        ", per-record counts first" if per_record else ""
    )
    return SmallScope(
        f"database mechanisms {where}, rows on the grid {grid_text(denominators)}"
        + extras
        + ("" if zeros else ", no zero entry")
        + (RELABELLING if up_to_relabelling else ""),
        layers,
    )


def _support(vector: tuple[Fraction, ...]) -> int:
    return sum(1 for p in vector if p)


def _prior_classes(vector: tuple[Fraction, ...]) -> str:
    """The class of a marginal that ``exactpml.strategies.product_priors`` draws in one
    regime for every marginal: positive, one-hot, or zeros with two positive entries."""
    support = _support(vector)
    if support == len(vector):
        return "positive"
    return "one-hot" if support == 1 else "zeros"


def database_priors(
    space: DatabaseSpace,
    *,
    kind: str | None = "joint",
    full_support: bool = False,
    grid: Sequence[int] = GRID,
) -> SmallScope[Distribution]:
    """Priors on D^n on the grid, as Distributions on every database, concentrated first.

    ``kind="joint"``: every probability vector on D^n on the grid (correlated priors), by
    the number of databases with positive mass (two-point priors -- entries tied or not --,
    then point masses, three-point priors, ...), then grid.  ``"product"``: the product priors
    whose marginals (on the grid) are all positive, all one-hot, or all with a zero and two
    positive entries (as one regime draws them), by grid.  ``None``: both (joint layers and
    product layers interleaved).  ``full_support=True``: positive priors only.  On
    D = {0, 1}, n = 2: 51 joint priors, 29 product ones.

    >>> space = DatabaseSpace([0, 1], 2)
    >>> len(database_priors(space)), len(database_priors(space, kind="product"))
    (51, 29)
    >>> database_priors(space).layers[0]
    Layer('joint priors on 2 databases, grid 1/2', 6)
    """
    if not isinstance(space, DatabaseSpace):
        raise InvalidArgument(f"database_priors: space={space!r} must be a DatabaseSpace")
    if kind not in ("joint", "product", None):
        raise InvalidArgument(f"database_priors: kind={kind!r} must be 'joint', 'product' or None")
    denominators = check_grid(grid)
    databases = list(space.databases())
    names = [level_name(d) for d in (1, *denominators)]
    joint: list[Layer[Distribution]] = []
    levels = vector_levels(len(databases), denominators, positive=full_support)
    supports = [2, 1, *range(3, len(databases) + 1)] if len(databases) >= 2 else [1]
    for support in supports:  # two-point priors first: a point mass leaks nothing
        for level, vectors in enumerate(levels):
            chosen = [v for v in vectors if _support(v) == support]
            if chosen:
                joint.append(
                    Layer(
                        f"joint priors on {plural(support, 'database')}, {names[level]}",
                        len(chosen),
                        _priors(databases, chosen),
                    )
                )
    product: list[Layer[Distribution]] = []
    marginal_levels = vector_levels(len(space.alphabet), denominators, positive=full_support)
    for cls in ("positive", "one-hot", "zeros"):
        graded = graded_product(
            [[[v for v in level if _prior_classes(v) == cls] for level in marginal_levels]]
            * space.size
        )
        for level, layer in enumerate(graded):
            if layer.size:
                product.append(
                    Layer(
                        f"product priors, {cls} marginals, {names[level]}",
                        layer.size,
                        _products(space, layer),
                    )
                )
    chosen_layers = joint if kind == "joint" else product if kind == "product" else None
    if chosen_layers is None:
        return SmallScope.union(
            [SmallScope("joint priors", joint), SmallScope("product priors", product)],
            description=f"priors on {space!r} on the grid {grid_text(denominators)}",
        )
    return SmallScope(
        f"{kind} priors on {space!r} on the grid {grid_text(denominators)}"
        + (", full support" if full_support else ", concentrated first"),
        chosen_layers,
    )


def _priors(
    databases: list[tuple[Any, ...]], vectors: list[tuple[Fraction, ...]]
) -> Callable[[], Iterator[Distribution]]:
    def build() -> Iterator[Distribution]:
        for vector in vectors:
            yield Distribution(dict(zip(databases, vector, strict=True)))

    return build


def _products(space: DatabaseSpace, layer: Graded) -> Callable[[], Iterator[Distribution]]:
    def build() -> Iterator[Distribution]:
        for marginals in layer.items():
            laws = [Distribution(dict(zip(space.alphabet, v, strict=True))) for v in marginals]
            if all(law == laws[0] for law in laws):
                yield ProductPrior.iid(laws[0], space.size).joint()
            else:
                yield ProductPrior(laws).joint()

    return build


def database_mechanisms_with_prior(
    *,
    space: DatabaseSpace | None = None,
    alphabet_size: int = 2,
    min_size: int = 1,
    max_size: int = 2,
    min_outputs: int = 1,
    max_outputs: int = 2,
    zeros: bool = True,
    per_record: bool = True,
    kind: str | None = "joint",
    full_support: bool = False,
    grid: Sequence[int] = GRID,
) -> SmallScope[tuple[DatabaseMechanism, Distribution]]:
    """(database mechanism, prior on its databases) pairs: the mechanisms of
    :func:`database_mechanisms` (per-record counts first, no other structured ones) with
    the priors of :func:`database_priors` (correlated and concentrated first by default).

    Space by space (smallest n first), the combinations of a mechanism layer and a prior
    layer go by the larger of their indices, then their sum: per-record counts and
    deterministic kernels meet two-point priors first.  Default (|D| = 2, n <= 2, two
    outputs): 350 pairs on D^1 and 123 777 on D^2 (25 per-record counts and 2 402 explicit
    kernels, 51 joint priors).

    >>> len(database_mechanisms_with_prior())
    124127
    """
    check_range("database_mechanisms_with_prior (outputs)", min_outputs, max_outputs)
    denominators = check_grid(grid)
    spaces = _spaces(space, alphabet_size, min_size, max_size)
    layers: list[Layer[tuple[DatabaseMechanism, Distribution]]] = []
    for chosen in spaces:
        mechanisms = database_mechanisms(
            space=chosen,
            min_outputs=min_outputs,
            max_outputs=max_outputs,
            zeros=zeros,
            per_record=per_record,
            structured=False,
            grid=denominators,
        )
        priors = database_priors(chosen, kind=kind, full_support=full_support, grid=denominators)
        layers += SmallScope.product([mechanisms, priors]).layers
    return SmallScope(
        f"database mechanisms with a {kind or 'joint or product'} prior, "
        + (f"on {spaces[0]!r}" if space is not None else f"|D| = {alphabet_size}, n <= {max_size}")
        + f", on the grid {grid_text(denominators)}",
        layers,
    )
