"""Hypothesis strategies for databases, database mechanisms and priors on D^n.

Sizes are kept small by default (n <= 3, |D| <= 3) so that explicit enumeration of D^n,
the reference for every structured computation, stays cheap.  Every value is exact.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction

from hypothesis import strategies as st

from exactpml.core.distribution import Distribution
from exactpml.database import DatabaseMechanism, DatabaseSpace, ProductPrior
from exactpml.errors import InvalidArgument
from exactpml.strategies._finite import mechanisms, probability_vectors
from exactpml.structured import CountingQuery, GeometricNoise, NoNoise, QueryMechanism

__all__ = [
    "counting_mechanisms",
    "database_mechanisms",
    "database_priors",
    "database_spaces",
    "predicates",
    "product_priors",
]


def _check_range(name: str, low: int, high: int) -> None:
    if low < 1:
        raise InvalidArgument(f"{name}: the minimum {low} must be at least 1")
    if high < low:
        raise InvalidArgument(f"{name}: the maximum {high} is below the minimum {low}")


@st.composite
def database_spaces(
    draw: st.DrawFn,
    *,
    min_size: int = 1,
    max_size: int = 3,
    min_alphabet: int = 1,
    max_alphabet: int = 3,
) -> DatabaseSpace:
    """D^n with n in [min_size, max_size] and D = {0, …, k-1}, k in [min_alphabet, max_alphabet]."""
    _check_range("database_spaces (size)", min_size, max_size)
    _check_range("database_spaces (alphabet)", min_alphabet, max_alphabet)
    size = draw(st.integers(min_size, max_size))
    letters = draw(st.integers(min_alphabet, max_alphabet))
    return DatabaseSpace(range(letters), size)


@st.composite
def database_mechanisms(
    draw: st.DrawFn,
    *,
    space: DatabaseSpace | None = None,
    min_outputs: int = 1,
    max_outputs: int = 4,
    zeros: bool = True,
    max_databases: int = 27,
) -> DatabaseMechanism:
    """Explicit exact mechanisms on D^n (zeros, deterministic rows and ties included).

    ``max_databases`` bounds |D|^n when ``space`` is drawn.
    """
    if space is None:
        space = draw(database_spaces().filter(lambda s: s.count <= max_databases))
    kernel = draw(
        mechanisms(
            inputs=list(space.databases()),
            min_outputs=min_outputs,
            max_outputs=max_outputs,
            zeros=zeros,
        )
    )
    return DatabaseMechanism(kernel, alphabet=space.alphabet, size=space.size)


@st.composite
def product_priors(
    draw: st.DrawFn,
    space: DatabaseSpace,
    *,
    identical: bool | None = None,
    full_support: bool = False,
) -> ProductPrior:
    """Product priors on ``space``; i.i.d. when ``identical`` (drawn when None)."""
    same = draw(st.booleans()) if identical is None else identical

    def marginal() -> Distribution:
        vector = draw(probability_vectors(len(space.alphabet), full_support=full_support))
        return Distribution(dict(zip(space.alphabet, vector, strict=True)))

    if same:
        return ProductPrior.iid(marginal(), space.size)
    return ProductPrior([marginal() for _ in range(space.size)])


@st.composite
def database_priors(
    draw: st.DrawFn,
    space: DatabaseSpace,
    *,
    full_support: bool = False,
    kind: str | None = None,
) -> Distribution:
    """Joint priors on D^n as Distributions: correlated (``kind="joint"``) or product.

    ``kind`` is ``"joint"``, ``"product"`` or ``None`` (either).
    """
    chosen = draw(st.sampled_from(["joint", "product"])) if kind is None else kind
    if chosen not in ("joint", "product"):
        raise InvalidArgument(f"database_priors: kind={kind!r} must be 'joint' or 'product'")
    if chosen == "product":
        return draw(product_priors(space, full_support=full_support)).joint()
    databases = list(space.databases())
    vector = draw(probability_vectors(len(databases), full_support=full_support))
    return Distribution(dict(zip(databases, vector, strict=True)))


@st.composite
def predicates(draw: st.DrawFn, alphabet: Sequence[Hashable]) -> dict[Hashable, int]:
    """0/1 predicates f on the alphabet, as a mapping entry -> 0 or 1 (constants included)."""
    values = draw(st.lists(st.integers(0, 1), min_size=len(alphabet), max_size=len(alphabet)))
    return dict(zip(alphabet, values, strict=True))


_ALPHAS = (Fraction(1, 2), Fraction(1, 3), Fraction(2, 3), Fraction(9, 10))


@st.composite
def counting_mechanisms(
    draw: st.DrawFn,
    *,
    space: DatabaseSpace | None = None,
    noise: bool | None = None,
    threshold: bool | None = None,
    max_size: int = 4,
) -> QueryMechanism:
    """Counting queries with a 0/1 predicate, no noise or two-sided geometric noise
    (α in {1/2, 1/3, 2/3, 9/10}), and optionally a threshold m in [0, n].

    ``noise`` / ``threshold``: True forces, False forbids, None draws.
    """
    if space is None:
        space = draw(database_spaces(max_size=max_size))
    predicate = draw(predicates(space.alphabet))
    noisy = draw(st.booleans()) if noise is None else noise
    chosen = GeometricNoise(draw(st.sampled_from(_ALPHAS))) if noisy else NoNoise()
    thresholded = draw(st.booleans()) if threshold is None else threshold
    m = draw(st.integers(0, space.size)) if thresholded else None
    return QueryMechanism(space, CountingQuery(predicate), noise=chosen, threshold=m)
