"""exactpml: exact and certified verification of pointwise maximal leakage and privacy theory.

Mechanisms and priors are exact (rationals and sympy expressions); log-valued results keep
their exact ratio (:class:`LogValue`).  Source: Saeidian, Cervia, Oechtering, Skoglund,
*Rethinking Disclosure Prevention with Pointwise Maximal Leakage* (cited as "Saeidian et al.").

>>> from exactpml import Distribution, Mechanism, pml
>>> mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
>>> print(pml(mechanism, Distribution({"a": "2/3", "b": "1/3"}), 1))
log(9/5)
"""

from exactpml import certify, constructions, continuous, counting, families, limits, strategies
from exactpml.continuous import ContinuousMechanism
from exactpml.disclosure import discloses, disclosing_outputs, singles_out
from exactpml.distribution import Distribution
from exactpml.errors import ExactPMLError, InexactInput, InvalidArgument, InvalidFile, Undecided
from exactpml.exact import exact
from exactpml.families import (
    FinitePriors,
    FullSupportPriors,
    IIDPriors,
    ParameterDomain,
    ParametricPriors,
    ProductPriors,
)
from exactpml.logvalue import LogValue
from exactpml.measures import (
    conditional_pointwise_maximal_leakage,
    guessing_gain,
    is_pml_private,
    kl_divergence,
    leakage_capacity,
    max_pointwise_maximal_leakage,
    maximal_leakage,
    min_entropy,
    pml,
    pml_joint_divergence,
    pointwise_maximal_leakage,
    pointwise_maximal_leakage_by_output,
    posterior_min_entropy,
    probability_leakage_at_most,
    renyi_divergence_inf,
    total_variation,
)
from exactpml.mechanism import Mechanism
from exactpml.suprema import (
    sup_conditional_pml,
    sup_entry_leakage,
    sup_guessing_gain,
    sup_pml,
)
from exactpml.witnesses import Construction, Instance, Supremum, SupremumBounds

__version__ = "0.1.0"

__all__ = [
    "Construction",
    "ContinuousMechanism",
    "Distribution",
    "ExactPMLError",
    "FinitePriors",
    "FullSupportPriors",
    "IIDPriors",
    "InexactInput",
    "Instance",
    "InvalidArgument",
    "InvalidFile",
    "LogValue",
    "Mechanism",
    "ParameterDomain",
    "ParametricPriors",
    "ProductPriors",
    "Supremum",
    "SupremumBounds",
    "Undecided",
    "certify",
    "conditional_pointwise_maximal_leakage",
    "constructions",
    "continuous",
    "counting",
    "discloses",
    "disclosing_outputs",
    "exact",
    "families",
    "guessing_gain",
    "is_pml_private",
    "kl_divergence",
    "leakage_capacity",
    "limits",
    "max_pointwise_maximal_leakage",
    "maximal_leakage",
    "min_entropy",
    "pml",
    "pml_joint_divergence",
    "pointwise_maximal_leakage",
    "pointwise_maximal_leakage_by_output",
    "posterior_min_entropy",
    "probability_leakage_at_most",
    "renyi_divergence_inf",
    "singles_out",
    "strategies",
    "sup_conditional_pml",
    "sup_entry_leakage",
    "sup_guessing_gain",
    "sup_pml",
    "total_variation",
]
