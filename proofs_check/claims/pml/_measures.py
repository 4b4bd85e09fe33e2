"""Exact helpers shared by the checks of Saeidian et al. §2–3."""

from __future__ import annotations

from exactpml import Distribution, Mechanism, posterior_min_entropy

__all__ = ["is_disclosed"]


def is_disclosed(mechanism: Mechanism, attribute: Mechanism, prior: Distribution) -> bool:
    """Def 3.3 for finite Y: some output y has H_inf(Q_{U|Y=y}) = 0.

    Unlike :func:`exactpml.discloses`, any prior is accepted, even one with zeros: the
    checks use it to exhibit what happens when a theorem's full-support hypothesis is dropped.
    """
    return any(
        posterior_min_entropy(mechanism, prior, y, attribute=attribute) == 0
        for y in mechanism.outputs
    )
