"""Hypothesis strategies for databases, database mechanisms and priors on D^n.

Sizes are kept small by default (n <= 3, |D| <= 3) so that explicit enumeration of D^n,
the reference for every structured computation, stays cheap.  Every value is exact.  Sizes
are drawn first (smallest first), then a regime (``exactpml.strategies.REGIMES``): database
mechanisms use the kernel regimes of :func:`~exactpml.strategies.mechanisms`, priors the
regimes of probability vectors (one regime for all the marginals of a product prior).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from fractions import Fraction

from hypothesis import strategies as st

from exactpml.core.abbreviate import abbreviated
from exactpml.core.distribution import Distribution
from exactpml.core.mechanism import Mechanism
from exactpml.database import DatabaseMechanism, DatabaseSpace, ProductPrior
from exactpml.errors import InvalidArgument
from exactpml.strategies._draws import (
    BOOLEANS,
    integer_lists,
    integers_between,
    sampled_from_values,
    unique_samples,
)
from exactpml.strategies._enumerable import composite
from exactpml.strategies._finite import (
    REGIMES,
    _normalised,
    _weights,
    check_drawable,
    choose_regime,
    mechanisms,
    probability_vectors,
    regime_vector,
    vector_regimes,
)
from exactpml.structured import CountingQuery, GeometricNoise, NoNoise, QueryMechanism

__all__ = [
    "CORRELATED_REGIMES",
    "DATABASE_REGIMES",
    "correlated_priors",
    "counting_mechanisms",
    "database_mechanisms",
    "database_mechanisms_with_prior",
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


@composite
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
    size = draw(integers_between(min_size, max_size))
    letters = draw(integers_between(min_alphabet, max_alphabet))
    return DatabaseSpace(range(letters), size)


@functools.lru_cache(maxsize=256)
def _spaces_within(max_databases: int) -> st.SearchStrategy[DatabaseSpace]:
    """The drawn database spaces with at most ``max_databases`` databases, built once (a
    filter's label does not depend on its condition, so the draws are unchanged)."""
    return database_spaces().filter(lambda s: s.count <= max_databases)


@composite
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
        space = draw(_spaces_within(max_databases))
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


@composite
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
    same = draw(BOOLEANS) if identical is None else identical
    regime = choose_regime(draw, vector_regimes(zeros=not full_support, deterministic=True))

    def marginal() -> Distribution:
        vector = regime_vector(draw, len(space.alphabet), regime)
        return Distribution(dict(zip(space.alphabet, vector, strict=True)))

    if same:
        return ProductPrior.iid(marginal(), space.size)
    return ProductPrior([marginal() for _ in range(space.size)])


CORRELATED_REGIMES = ("two_point", "tied_entries", "conditioned", "few_points", "joint")
"""The regimes of correlated priors on D^n, concentrated ones first: two databases, entries
tied together, one neighbourhood {(d, d_{-i}) : d in D} (a prior conditioned on
D_{-i} = d_{-i}), at most three databases, or any joint law (a regime of ``REGIMES``)."""

_SMOOTHING = (Fraction(1, 4), Fraction(1, 10), Fraction(1, 1000), Fraction(1, 10**6))
"""With full support, the uniform law's weight mixed into a concentrated prior."""


def _support(draw: st.DrawFn, space: DatabaseSpace, regime: str) -> list[tuple[Hashable, ...]]:
    """The databases a concentrated prior puts mass on (at least one)."""
    databases = list(space.databases())
    if regime == "two_point" and len(databases) >= 2:
        first = draw(integers_between(0, len(databases) - 1))
        second = (first + 1 + draw(integers_between(0, len(databases) - 2))) % len(databases)
        return [databases[min(first, second)], databases[max(first, second)]]
    if regime == "tied_entries" and space.size >= 2:
        i = draw(integers_between(0, space.size - 2))
        j = draw(integers_between(i + 1, space.size - 1))
        tied = [x for x in databases if x[i] == x[j]]
        if draw(BOOLEANS):  # every entry equal: perfectly correlated entries
            tied = [x for x in databases if len(set(x)) == 1]
        chosen = draw(unique_samples(tuple(tied), 1, 3))
        return [x for x in tied if x in chosen]
    if regime == "conditioned":
        index = draw(integers_between(0, space.size - 1))
        others = draw(sampled_from_values(tuple(databases)))
        return [space.insert(space.others(others, index), index, d) for d in space.alphabet]
    size = draw(integers_between(1, min(3, len(databases))))
    chosen = draw(unique_samples(tuple(databases), size, size))
    return [x for x in databases if x in chosen]


@composite
def correlated_priors(
    draw: st.DrawFn, space: DatabaseSpace, *, full_support: bool = False
) -> Distribution:
    """Correlated priors on D^n that concentrate, as Distributions on every database.

    A regime of ``CORRELATED_REGIMES`` is drawn first: mass on two databases, on databases
    whose entries are tied (two entries equal, or all of them), on one neighbourhood (a
    prior conditioned on D_{-i} = d_{-i}: only D_i varies), on at most three databases (1/8
    each), or any joint law (1/2; a regime of ``REGIMES``).  Concentrated masses are
    integer weights up to 4 (ties, shrinking to equal masses) or up to 1000 (skewed);
    ``full_support=True`` mixes in the uniform law with weight 1/4, 1/10, 1/1000 or 10^-6.
    Correlated entries are where DP stops bounding an entry's leakage (Saeidian et al.,
    Thm 4.3 and Thm 4.5 (3)).
    """
    databases = list(space.databases())
    regime = choose_regime(draw, (*CORRELATED_REGIMES, "joint", "joint", "joint"))
    if regime == "joint":
        vector = draw(probability_vectors(len(databases), full_support=full_support))
        return Distribution(dict(zip(databases, vector, strict=True)))
    support = _support(draw, space, regime)
    weights = _normalised(_weights(draw, len(support), 1000))
    mass = dict(zip(support, weights, strict=True))
    law = [mass.get(x, Fraction(0)) for x in databases]
    if full_support and any(p == 0 for p in law):
        share = draw(sampled_from_values(_SMOOTHING))
        law = [(1 - share) * p + share / len(databases) for p in law]
    return Distribution(dict(zip(databases, law, strict=True)))


@composite
def database_priors(
    draw: st.DrawFn,
    space: DatabaseSpace,
    *,
    full_support: bool = False,
    kind: str | None = None,
) -> Distribution:
    """Joint priors on D^n as Distributions: correlated (``kind="joint"``) or product.

    ``kind`` is ``"joint"``, ``"product"`` or ``None`` (either).  Joint priors are those of
    :func:`correlated_priors` (concentrated ones half of the time, any joint law half);
    product priors those of :func:`product_priors`.
    """
    chosen = draw(sampled_from_values(("joint", "product"))) if kind is None else kind
    if chosen not in ("joint", "product"):
        raise InvalidArgument(f"database_priors: kind={kind!r} must be 'joint' or 'product'")
    if chosen == "product":
        return draw(product_priors(space, full_support=full_support)).joint()
    return draw(correlated_priors(space, full_support=full_support))


@composite
def database_mechanisms_with_prior(
    draw: st.DrawFn,
    *,
    space: DatabaseSpace | None = None,
    kind: str | None = "joint",
    min_outputs: int = 1,
    max_outputs: int = 4,
    zeros: bool = True,
    max_databases: int = 27,
    full_support: bool = False,
) -> tuple[DatabaseMechanism, Distribution]:
    """A database mechanism and a prior on its databases (the shape of Thm 4.2/4.5 claims).

    The mechanism is drawn by :func:`database_mechanisms`, then the prior by
    :func:`database_priors` on its space: correlated by default (``kind="joint"``),
    ``"product"``, or either (``None``).
    """
    mechanism = draw(
        database_mechanisms(
            space=space,
            min_outputs=min_outputs,
            max_outputs=max_outputs,
            zeros=zeros,
            max_databases=max_databases,
        )
    )
    prior = draw(database_priors(mechanism.space, full_support=full_support, kind=kind))
    return mechanism, prior


@composite
def predicates(draw: st.DrawFn, alphabet: Sequence[Hashable]) -> dict[Hashable, int]:
    """0/1 predicates f on the alphabet, as a mapping entry -> 0 or 1 (constants included)."""
    check_drawable("predicates", len(alphabet))
    values = draw(integer_lists(0, 1, len(alphabet)))
    return dict(zip(alphabet, values, strict=True))


_ALPHAS = (Fraction(1, 2), Fraction(1, 3), Fraction(2, 3), Fraction(9, 10))


@composite
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
    noisy = draw(BOOLEANS) if noise is None else noise
    chosen = GeometricNoise(draw(sampled_from_values(_ALPHAS))) if noisy else NoNoise()
    thresholded = draw(BOOLEANS) if threshold is None else threshold
    m = draw(integers_between(0, space.size)) if thresholded else None
    return QueryMechanism(space, CountingQuery(predicate), noise=chosen, threshold=m)
