"""exactpml: exact and certified verification of pointwise maximal leakage and privacy theory.

Mechanisms and priors are exact (rationals and sympy expressions); log-valued results keep
their exact ratio (:class:`LogValue`).  Source: Saeidian, Cervia, Oechtering, Skoglund,
*Rethinking Disclosure Prevention with Pointwise Maximal Leakage* (cited as "Saeidian et al.").

>>> from exactpml import Distribution, Mechanism, pml
>>> mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
>>> print(pml(mechanism, Distribution({"a": "2/3", "b": "1/3"}), 1))
log(9/5)
"""

from typing import TYPE_CHECKING, Any

from exactpml import (  # the public faces of certify, limits and families (modules)
    bldp,
    certify,
    continuous,
    database,
    families,
    leakage,
    limits,
    notions,
    partial_knowledge,
    qif,
    structured,
    suprema,
)
from exactpml.bldp import BoundedLeakageModel, bldp_delta, bldp_epsilon, is_bldp
from exactpml.continuous import ContinuousMechanism
from exactpml.core import boundary as _boundary
from exactpml.core.bounds import BoundExceeded, Bounds, current_bounds, use_bounds
from exactpml.core.distribution import Distribution
from exactpml.core.exact import exact
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.database import (
    DatabaseMechanism,
    DatabaseSpace,
    ProductPrior,
    conditional_entry_leakage,
    entry_leakage,
)
from exactpml.errors import ExactPMLError, InexactInput, InvalidArgument, InvalidFile, Undecided
from exactpml.instances import laplace_counting, threshold_query
from exactpml.leakage.capacities import leakage_capacity, maximal_leakage
from exactpml.leakage.disclosure import discloses, disclosing_outputs, singles_out
from exactpml.leakage.divergences import (
    kl_divergence,
    min_entropy,
    renyi_divergence_inf,
    total_variation,
)
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
from exactpml.notions import (
    PrivacyLossDistribution,
    composition_delta_for_epsilon,
    composition_epsilon_for_delta,
    delta_for_epsilon,
    differential_privacy_epsilon,
    free_lunch_epsilon,
    is_differentially_private,
    is_free_lunch_private,
    privacy_loss_distribution,
    renyi_divergence,
    renyi_dp_epsilon,
    simulation_epsilon,
    tradeoff_curve,
)
from exactpml.partial_knowledge import (
    CountingMechanism,
    PartialKnowledge,
    apkdp_delta,
    apkdp_epsilon,
    is_apkdp,
    is_ppkdp,
    knowledge_delta,
    partial_knowledge_plrv,
    ppkdp_delta,
    ppkdp_epsilon,
    theta_reducibility,
)
from exactpml.qif import (
    Capacity,
    CapacityBounds,
    GainFunction,
    RefinementCertificate,
    RenyiBounds,
    additive_bayes_capacity,
    additive_bayes_leakage,
    additive_g_leakage,
    bayes_vulnerability,
    cascade,
    conditional_entropy,
    g_vulnerability,
    guessing_ratio,
    maximal_alpha_leakage,
    multiplicative_bayes_capacity,
    multiplicative_bayes_leakage,
    multiplicative_g_leakage,
    mutual_information,
    output_marginal,
    parallel,
    posterior_bayes_vulnerability,
    posterior_g_vulnerability,
    refinement_certificate,
    refinement_map,
    refines,
    renyi_entropy,
    renyi_entropy_bounds,
    shannon_capacity,
    shannon_entropy,
    sibson_mutual_information,
    sibson_mutual_information_bounds,
)
from exactpml.structured import CountingQuery, QueryMechanism, randomized_response
from exactpml.suprema import (
    constructions,
    sup_conditional_pml,
    sup_entry_leakage,
    sup_guessing_gain,
    sup_pml,
)
from exactpml.suprema.families import (
    FinitePriors,
    FullSupportPriors,
    IIDPriors,
    ParameterDomain,
    ParametricPriors,
    ProductPriors,
)
from exactpml.suprema.witnesses import Construction, Instance, Supremum, SupremumBounds

if TYPE_CHECKING:
    from exactpml import strategies

from exactpml._version import __version__ as __version__  # the one place it is written

_MOVED_MODULES = {  # names of modules before the restructure (issue 16) -> where they live
    "disclosure": "exactpml.leakage.disclosure",
    "distribution": "exactpml.core.distribution",
    "logvalue": "exactpml.core.logvalue",
    "measures": "exactpml.leakage",
    "mechanism": "exactpml.core.mechanism",
    "witnesses": "exactpml.suprema.witnesses",
}


def __getattr__(name: str) -> Any:
    """Modules loaded on first use: ``exactpml.strategies`` (it needs Hypothesis, which
    ``import exactpml`` does not load), and the earlier names of moved modules
    (``from exactpml import measures`` still gives the leakage measures)."""
    import importlib

    if name == "strategies":
        return importlib.import_module("exactpml.strategies")
    if name in _MOVED_MODULES:
        return importlib.import_module(_MOVED_MODULES[name])
    raise AttributeError(f"module 'exactpml' has no attribute {name!r}")


__all__ = [
    "BoundExceeded",
    "BoundedLeakageModel",
    "Bounds",
    "Capacity",
    "CapacityBounds",
    "Construction",
    "ContinuousMechanism",
    "CountingMechanism",
    "CountingQuery",
    "DatabaseMechanism",
    "DatabaseSpace",
    "Distribution",
    "ExactPMLError",
    "FinitePriors",
    "FullSupportPriors",
    "GainFunction",
    "IIDPriors",
    "InexactInput",
    "Instance",
    "InvalidArgument",
    "InvalidFile",
    "LogValue",
    "Mechanism",
    "ParameterDomain",
    "ParametricPriors",
    "PartialKnowledge",
    "PrivacyLossDistribution",
    "ProductPrior",
    "ProductPriors",
    "QueryMechanism",
    "RefinementCertificate",
    "RenyiBounds",
    "Supremum",
    "SupremumBounds",
    "Undecided",
    "additive_bayes_capacity",
    "additive_bayes_leakage",
    "additive_g_leakage",
    "apkdp_delta",
    "apkdp_epsilon",
    "bayes_vulnerability",
    "bldp",
    "bldp_delta",
    "bldp_epsilon",
    "cascade",
    "certify",
    "composition_delta_for_epsilon",
    "composition_epsilon_for_delta",
    "conditional_entropy",
    "conditional_entry_leakage",
    "conditional_pointwise_maximal_leakage",
    "constructions",
    "continuous",
    "current_bounds",
    "database",
    "delta_for_epsilon",
    "differential_privacy_epsilon",
    "discloses",
    "disclosing_outputs",
    "entry_leakage",
    "exact",
    "families",
    "free_lunch_epsilon",
    "g_vulnerability",
    "guessing_gain",
    "guessing_ratio",
    "is_apkdp",
    "is_bldp",
    "is_differentially_private",
    "is_free_lunch_private",
    "is_pml_private",
    "is_ppkdp",
    "kl_divergence",
    "knowledge_delta",
    "laplace_counting",
    "leakage",
    "leakage_capacity",
    "limits",
    "max_pointwise_maximal_leakage",
    "maximal_alpha_leakage",
    "maximal_leakage",
    "min_entropy",
    "multiplicative_bayes_capacity",
    "multiplicative_bayes_leakage",
    "multiplicative_g_leakage",
    "mutual_information",
    "notions",
    "output_marginal",
    "parallel",
    "partial_knowledge",
    "partial_knowledge_plrv",
    "pml",
    "pml_joint_divergence",
    "pointwise_maximal_leakage",
    "pointwise_maximal_leakage_by_output",
    "posterior_bayes_vulnerability",
    "posterior_g_vulnerability",
    "posterior_min_entropy",
    "ppkdp_delta",
    "ppkdp_epsilon",
    "privacy_loss_distribution",
    "probability_leakage_at_most",
    "qif",
    "randomized_response",
    "refinement_certificate",
    "refinement_map",
    "refines",
    "renyi_divergence",
    "renyi_divergence_inf",
    "renyi_dp_epsilon",
    "renyi_entropy",
    "renyi_entropy_bounds",
    "shannon_capacity",
    "shannon_entropy",
    "sibson_mutual_information",
    "sibson_mutual_information_bounds",
    "simulation_epsilon",
    "singles_out",
    "strategies",
    "structured",
    "sup_conditional_pml",
    "sup_entry_leakage",
    "sup_guessing_gain",
    "sup_pml",
    "suprema",
    "theta_reducibility",
    "threshold_query",
    "total_variation",
    "tradeoff_curve",
    "use_bounds",
]


_boundary.guard_public_names(globals())  # every public name behind its boundary
