"""Leakage measures on finite alphabets (Saeidian et al., §2–3; Vadhan §1; thesis Prop 8).

* :mod:`~exactpml.leakage.divergences`: min-entropy, D∞, KL, total variation;
* :mod:`~exactpml.leakage.hockey_stick`: the hockey-stick divergence and likelihood-ratio
  maxima (shared by DP, partial knowledge and bounded-leakage DP);
* :mod:`~exactpml.leakage.pml`: pointwise maximal leakage, conditional PML, the guessing gain,
  (ε, P)-PML;
* :mod:`~exactpml.leakage.capacities`: leakage capacity and maximal leakage;
* :mod:`~exactpml.leakage.disclosure`: disclosure (Def 3.3) and singling out (Def 3.9).
"""

from exactpml.core import boundary as _boundary
from exactpml.leakage._support import AttributeLike, as_attribute, require_full_support_prior
from exactpml.leakage.capacities import leakage_capacity, maximal_leakage
from exactpml.leakage.disclosure import discloses, disclosing_outputs, singles_out
from exactpml.leakage.divergences import (
    kl_divergence,
    min_entropy,
    renyi_divergence_inf,
    total_variation,
)
from exactpml.leakage.hockey_stick import hockey_stick, max_ratio
from exactpml.leakage.pml import (
    conditional_pointwise_maximal_leakage,
    guessing_gain,
    is_pml_private,
    max_pointwise_maximal_leakage,
    pml,
    pml_joint_divergence,
    pointwise_maximal_leakage,
    pointwise_maximal_leakage_by_output,
    posterior_min_entropy,
    probability_leakage_at_most,
)

__all__ = [
    "AttributeLike",
    "as_attribute",
    "conditional_pointwise_maximal_leakage",
    "discloses",
    "disclosing_outputs",
    "guessing_gain",
    "hockey_stick",
    "is_pml_private",
    "kl_divergence",
    "leakage_capacity",
    "max_pointwise_maximal_leakage",
    "max_ratio",
    "maximal_leakage",
    "min_entropy",
    "pml",
    "pml_joint_divergence",
    "pointwise_maximal_leakage",
    "pointwise_maximal_leakage_by_output",
    "posterior_min_entropy",
    "probability_leakage_at_most",
    "renyi_divergence_inf",
    "require_full_support_prior",
    "singles_out",
    "total_variation",
]


_boundary.guard_public_names(globals())  # every public name behind its boundary
