"""Bounded-leakage differential privacy (Ligett, Peale, Reingold), exactly.

One concept per module:

* :mod:`~exactpml.bldp.model` — finite randomness R, mechanism M(x, r), leakage P(x, r);
* :mod:`~exactpml.bldp.measures` — the smallest ε (δ = 0) and δ(ε), with witnesses;
* :mod:`~exactpml.bldp.operations` — post-processing, releasing the leakage, composition
  and group privacy, with their exact preconditions;
* :mod:`~exactpml.bldp.scenarios` — the poster's scenarios and the counterexamples.
"""

from exactpml.bldp.measures import (
    BLDPDelta,
    BLDPEpsilon,
    LeakageWitness,
    bldp_delta,
    bldp_epsilon,
    bldp_epsilon_by_leakage,
    bldp_epsilon_by_pair,
    constraints,
    dp_delta,
    dp_epsilon,
    graph_distances,
    is_bldp,
)
from exactpml.bldp.model import BoundedLeakageModel
from exactpml.bldp.operations import (
    CompositionCheck,
    GroupViolation,
    component,
    compose,
    composition_precondition,
    group_privacy_bound,
    group_privacy_violations,
    leakage_distance,
    post_process,
    realize,
    release_leakage,
)
from exactpml.bldp.scenarios import (
    census_exact_counts,
    identity_leakage,
    independent_leakage,
    non_participation,
    parity_leakage_group_privacy,
    shared_randomness_composition,
    single_leakage_composition,
    truncated_geometric,
)
from exactpml.core import boundary as _boundary

__all__ = [
    "BLDPDelta",
    "BLDPEpsilon",
    "BoundedLeakageModel",
    "CompositionCheck",
    "GroupViolation",
    "LeakageWitness",
    "bldp_delta",
    "bldp_epsilon",
    "bldp_epsilon_by_leakage",
    "bldp_epsilon_by_pair",
    "census_exact_counts",
    "component",
    "compose",
    "composition_precondition",
    "constraints",
    "dp_delta",
    "dp_epsilon",
    "graph_distances",
    "group_privacy_bound",
    "group_privacy_violations",
    "identity_leakage",
    "independent_leakage",
    "is_bldp",
    "leakage_distance",
    "non_participation",
    "parity_leakage_group_privacy",
    "post_process",
    "realize",
    "release_leakage",
    "shared_randomness_composition",
    "single_leakage_composition",
    "truncated_geometric",
]


_boundary.guard_public_names(globals())  # every public name behind its boundary
