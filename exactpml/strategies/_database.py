"""Hypothesis strategies for databases, database mechanisms and priors on D^n.

Sizes are kept small by default (n <= 3, |D| <= 3) so that explicit enumeration of D^n,
the reference for every structured computation, stays cheap.  Every value is exact.  Sizes
are drawn first (smallest first), then a regime (``exactpml.strategies.REGIMES``): database
mechanisms use the kernel regimes of :func:`~exactpml.strategies.mechanisms`, priors the
regimes of probability vectors (one regime for all the marginals of a product prior).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction

from hypothesis import strategies as st

from exactpml.core.abbreviate import abbreviated
from exactpml.core.distribution import Distribution
from exactpml.core.mechanism import Mechanism
from exactpml.database import DatabaseMechanism, DatabaseSpace, ProductPrior
from exactpml.errors import InvalidArgument
from exactpml.strategies._finite import (
    REGIMES,
    choose_regime,
    mechanisms,
    probability_vectors,
    regime_vector,
    vector_regimes,
)
from exactpml.structured import CountingQuery, GeometricNoise, NoNoise, QueryMechanism

__all__ = [
    "DATABASE_REGIMES",
    "counting_mechanisms",
    "database_mechanisms",
    "database_priors",
    "database_spaces",
    "predicates",
    "product_priors",
]


DATABASE_REGIMES = (*REGIMES, "per_record")
"""The regimes of database mechanisms: those of probability vectors, and per-record noise."""

_POSITIVE = ("full_support", "near_ties", "extreme_ratios")


def _check_range(name: str, low: int, high: int) -> None:
    if low < 1:
        raise InvalidArgument(f"{name}: the minimum {abbreviated(low)} must be at least 1")
    if high < low:
        raise InvalidArgument(
            f"{name}: the maximum {abbreviated(high)} is below the minimum {abbreviated(low)}"
        )


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
    """Explicit exact mechanisms on D^n, in a regime drawn after the sizes.

    The regimes (``DATABASE_REGIMES``, 1/6 each): full support, zero patterns,
    deterministic rows, near-ties, extreme ratios (see
    :func:`~exactpml.strategies.mechanisms`), and ``"per_record"``: every entry goes through
    one binary randomizer of full support and the number of ones is released (outputs
    0..n), the local-DP shape whose ε grows with the distance between databases.
    ``zeros=False`` keeps full support, near-ties, extreme ratios and per-record (1/4 each).
    ``max_databases`` bounds ``|D|^n`` when ``space`` is drawn.
    """
    if space is None:
        space = draw(database_spaces().filter(lambda s: s.count <= max_databases))
    allowed = [r for r in DATABASE_REGIMES if zeros or r not in ("zeros", "deterministic")]
    regime = choose_regime(draw, allowed)
    databases = list(space.databases())
    if regime == "per_record" and min_outputs <= space.size + 1 <= max_outputs:
        randomizer = {
            d: regime_vector(draw, 2, choose_regime(draw, _POSITIVE), uniform=False)
            for d in space.alphabet
        }
        rows = [_count_law([randomizer[d][1] for d in x]) for x in databases]
        kernel = Mechanism.from_matrix(rows, inputs=databases, outputs=list(range(space.size + 1)))
    else:
        kernel = draw(
            mechanisms(
                inputs=databases,
                min_outputs=min_outputs,
                max_outputs=max_outputs,
                zeros=zeros,
                regimes=("full_support",) if regime == "per_record" else (regime,),
            )
        )
    return DatabaseMechanism(kernel, alphabet=space.alphabet, size=space.size)


def _count_law(ones: Sequence[Fraction]) -> list[Fraction]:
    """The law of the number of ones among independent bits with P(1) = ``ones[i]``."""
    law = [Fraction(1)]
    for p in ones:
        law = [
            (law[k] if k < len(law) else 0) * (1 - p) + (law[k - 1] * p if k else 0)
            for k in range(len(law) + 1)
        ]
    return law


@st.composite
def product_priors(
    draw: st.DrawFn,
    space: DatabaseSpace,
    *,
    identical: bool | None = None,
    full_support: bool = False,
) -> ProductPrior:
    """Product priors on ``space``; i.i.d. when ``identical`` (drawn when None).

    One regime of ``REGIMES`` is drawn for every marginal (1/5 each; full support, near-ties
    and extreme ratios, 1/3 each, with ``full_support``).
    """
    same = draw(st.booleans()) if identical is None else identical
    regime = choose_regime(draw, vector_regimes(zeros=not full_support, deterministic=True))

    def marginal() -> Distribution:
        vector = regime_vector(draw, len(space.alphabet), regime)
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

    ``kind`` is ``"joint"``, ``"product"`` or ``None`` (either).  Each draws a regime of
    ``REGIMES`` (see :func:`product_priors` and :func:`~exactpml.strategies.probability_vectors`).
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
