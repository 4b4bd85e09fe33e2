"""Disclosure (Def 3.3) and singling out (Def 3.9) for mechanisms with finite outputs.

Saeidian et al., §3.2–3.3.  A mechanism discloses an attribute U to an adversary with
full-support prior Q_X when ``inf_y H_inf(Q_{U|Y=y}) = 0``.  With finitely many outputs the
infimum is a minimum, so U is disclosed exactly when some output makes the adversary's
posterior on U a point mass.  Outputs of probability zero use the convention of footnote 5
(posterior = prior), so a constant attribute is always "disclosed" (H_inf(Q_U) = 0); the
paper's results about non-disclosure need H_inf(Q_U) > 0.

For countable outputs, where disclosure can happen only in the limit y -> oo (Thm 3.4),
see :mod:`exactpml.continuous`.

>>> from exactpml import Distribution, Mechanism
>>> mechanism = Mechanism({"a": {0: 1}, "b": {0: "1/2", 1: "1/2"}})
>>> adversary = Distribution({"a": "1/2", "b": "1/2"})
>>> discloses(mechanism, lambda x: x, adversary)
True
>>> disclosing_outputs(mechanism, lambda x: x, adversary)
(1,)
"""

from __future__ import annotations

from collections.abc import Hashable

from exactpml.core.distribution import Distribution, require_full_support
from exactpml.core.mechanism import Mechanism
from exactpml.leakage import AttributeLike, as_attribute
from exactpml.leakage.pml import posterior_min_entropy

__all__ = ["discloses", "disclosing_outputs", "singles_out"]


def disclosing_outputs(
    mechanism: Mechanism, attribute: AttributeLike, adversary: Distribution
) -> tuple[Hashable, ...]:
    """The outputs y with H_inf(Q_{U|Y=y}) = 0 (the adversary's posterior on U is certain).

    ``adversary`` is the prior belief Q_X; it must have full support (Q_X in the set P_X).
    """
    mechanism.check_prior(adversary, name="adversary")
    require_full_support(adversary, name="adversary")
    kernel = as_attribute(attribute, mechanism)
    return tuple(
        y
        for y in mechanism.outputs
        if posterior_min_entropy(mechanism, adversary, y, attribute=kernel) == 0
    )


def discloses(mechanism: Mechanism, attribute: AttributeLike, adversary: Distribution) -> bool:
    """Def 3.3 for finite outputs: inf_y H_inf(Q_{U|Y=y}) = 0."""
    return bool(disclosing_outputs(mechanism, attribute, adversary))


def singles_out(mechanism: Mechanism, prior: Distribution) -> bool:
    """Def 3.9: the mechanism singles out X when inf_y H_inf(P_{X|Y=y}) = 0 (U = X)."""
    return discloses(mechanism, lambda x: x, prior)
