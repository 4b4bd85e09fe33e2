"""Exact helpers shared by the checks of Saeidian et al. §2–3."""

from __future__ import annotations

from exactpml import (
    Distribution,
    LogValue,
    Mechanism,
    max_pointwise_maximal_leakage,
    posterior_min_entropy,
)

__all__ = ["attribute_prior", "is_disclosed", "max_leakage"]


def attribute_prior(attribute: Mechanism, prior: Distribution) -> Distribution:
    """P_U = P_{U|X} ∘ P_X."""
    return attribute.output_distribution(prior)


def is_disclosed(mechanism: Mechanism, attribute: Mechanism, prior: Distribution) -> bool:
    """Def 3.3 for finite Y: some output y has H_inf(Q_{U|Y=y}) = 0 (any prior, even with zeros)."""
    return any(
        posterior_min_entropy(mechanism, prior, y, attribute=attribute) == 0
        for y in mechanism.outputs
    )


def max_leakage(mechanism: Mechanism, prior: Distribution) -> LogValue:
    """max over y with p_Y(y) > 0 of l(X->y): the least ε of (ε, P_X)-PML (Def 2.6 (iii))."""
    return max_pointwise_maximal_leakage(mechanism, prior)
