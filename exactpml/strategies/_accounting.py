"""Hypothesis strategies for exact privacy-loss distributions (the objects of accounting).

:func:`privacy_loss_distributions` draws the PLD of a pair of exact laws (P, Q): either two
arbitrary laws on a few outcomes (zeros, hence infinite losses, included) or a *lattice*
pair whose likelihood ratios are powers of one rational r (as for randomized response and
geometric noise), the case composed by FLINT polynomial powers.  Both kinds reach the
edge cases of accounting: infinite losses, Q-mass where P vanishes, ties, a single atom.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from exactpml.core.abbreviate import abbreviated
from exactpml.core.distribution import Distribution
from exactpml.errors import InvalidArgument
from exactpml.notions import PrivacyLossDistribution, privacy_loss_distribution
from exactpml.strategies._draws import (
    BOOLEANS,
    integer_lists,
    integers_between,
    sampled_from_values,
)
from exactpml.strategies._enumerable import composite
from exactpml.strategies._finite import probability_vectors

__all__ = ["distribution_pairs", "privacy_loss_distributions"]

_BASES = (Fraction(2), Fraction(3), Fraction(3, 2), Fraction(5, 4))


@composite
def distribution_pairs(
    draw: st.DrawFn, *, max_outcomes: int = 4, lattice: bool | None = None
) -> tuple[Distribution, Distribution]:
    """A pair (P, Q) of exact laws on {0, …, k-1}.

    ``lattice=True``: every ratio p/q on the common support is r^j for one rational r and
    small j (Q may put extra mass on an outcome P never produces); ``False``: two
    independent laws (zeros allowed); ``None``: either.
    """
    if max_outcomes < 1:
        raise InvalidArgument(
            f"distribution_pairs: max_outcomes={abbreviated(max_outcomes)} must be >= 1"
        )
    chosen = draw(BOOLEANS) if lattice is None else lattice
    size = draw(integers_between(1, max_outcomes))
    if not chosen:
        first = draw(probability_vectors(size))
        second = draw(probability_vectors(size))
        return Distribution(dict(enumerate(first))), Distribution(dict(enumerate(second)))
    base = draw(sampled_from_values(_BASES))
    p = draw(probability_vectors(size, full_support=True, skewed=False, max_weight=20))
    exponents = draw(integer_lists(-2, 2, size))
    q = [mass / base**k for mass, k in zip(p, exponents, strict=True)]
    while sum(q, Fraction(0)) > 1:  # shift every loss up by one step until Q has room
        q = [value / base for value in q]
    rest = 1 - sum(q, Fraction(0))
    p_law = {i: mass for i, mass in enumerate(p)}
    q_law = {i: value for i, value in enumerate(q)}
    if rest:
        p_law[size] = Fraction(0)
        q_law[size] = rest
    return Distribution(p_law), Distribution(q_law)


@composite
def privacy_loss_distributions(
    draw: st.DrawFn, *, max_outcomes: int = 4, lattice: bool | None = None
) -> PrivacyLossDistribution:
    """The exact PLD of a pair drawn by :func:`distribution_pairs`.

    >>> from hypothesis import given
    >>> @given(privacy_loss_distributions(lattice=True))
    ... def check(pld):
    ...     assert pld.delta_for_epsilon(exp_epsilon="1/2") >= pld.delta_for_epsilon(0)
    >>> check()
    """
    p, q = draw(distribution_pairs(max_outcomes=max_outcomes, lattice=lattice))
    return privacy_loss_distribution(p, q)
