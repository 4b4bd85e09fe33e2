"""Brute-force references: the definitions of the sources, computed by enumeration.

Used by the claim checks (:mod:`proofs_check.claims`) and by the test suite alike, so that
every value of exactpml is compared with one independent computation written from the
definition, never with a second copy of it.  Plain ``Fraction`` arithmetic and enumeration
(every event, every pair of databases, every injective map; densities of continuous outputs
as python-flint ``arb`` balls, :mod:`.continuous`); from exactpml only its value
types are read (``Distribution``, ``Mechanism``, ``LogValue``, ``DatabaseMechanism``, the
partial-knowledge setting and the bounded-leakage model), never its algorithms.  A ratio
``None`` stands for +∞.

By concept:

- :mod:`.divergences`: max-divergence, statistical difference and the hockey-stick
  divergence over every event (Vadhan §1-2; thesis Prop 8, Def 57);
- :mod:`.pml`: pointwise maximal leakage, attributes, capacity, (ε, P_X)-PML, disclosure,
  singling out, entry leakage (Saeidian et al. §2-4);
- :mod:`.continuous`: the same for a continuous output from its densities (the Laplace
  counting query of Prop 4.6), as python-flint ``arb`` balls;
- :mod:`.dp`: differential and free-lunch privacy over pairs of databases (Saeidian et al.
  Defs 4.1, 4.4; Vadhan Def 1), explicit mechanism tables;
- :mod:`.simulation`: Vadhan's simulation-based definition in exact Q(√c) arithmetic;
- :mod:`.bayesian`: prior against posterior on a neighbourhood (Vadhan Props 1-2);
- :mod:`.partial_knowledge`: APKDP and PPKDP (thesis §3.1.3, Defs 56-59);
- :mod:`.bldp`: bounded-leakage DP (Ligett, Peale, Reingold);
- :mod:`.qif`: quantitative information flow (vulnerabilities, leakages, capacities,
  entropies; Alvim et al. 2020), importable as a module (``reference.qif``).

Every public name is also importable from this package.
"""

from __future__ import annotations

from proofs_check.reference import qif
from proofs_check.reference.bayesian import (
    law_of_column,
    prior_posterior_distances,
    total_variation_surd,
)
from proofs_check.reference.bldp import (
    Conditional,
    Pair,
    conditionals,
    constraint_delta,
    constraint_ratio,
    describe_mapping,
    describe_model,
    distances,
    dp_conditionals,
    model_delta,
    model_epsilon,
    neighbour_pairs,
    pairs_within,
    path_within,
)
from proofs_check.reference.continuous import laplace_counting_entry_ratios, laplace_density
from proofs_check.reference.divergences import (
    Law,
    Ratio,
    divergence_ratio_by_points,
    divergence_ratio_by_sets,
    half_l1,
    hockey_stick_by_plrv,
    hockey_stick_by_sets,
    hockey_stick_pointwise,
    law,
    ratio_at_most,
    statistical_distance_by_sets,
    subsets,
)
from proofs_check.reference.dp import (
    Table,
    all_databases,
    dp_ratio,
    dp_ratio_over_space,
    entry_dp_ratio,
    free_lunch_ratio,
    free_lunch_ratio_over_space,
    hamming,
    neighbourhoods,
    neighbouring_databases,
    pairs_at_distance,
    ratio_over_pairs,
    row_law,
    table_dp_ratio,
    table_neighbour_pairs,
    table_of,
)
from proofs_check.reference.partial_knowledge import (
    ConditionalLaws,
    Kernel,
    Order,
    active_and_passive,
    apkdp_by_definition,
    classical_delta,
    conditional_laws,
    conditional_output,
    counting_kernel,
    def_58_quantity,
    delta_by_plrv,
    describe_mechanism,
    describe_setting,
    epsilon_by_definition,
    has_injective_map,
    joint,
    knowledge_law,
    laws_by_order,
    mixed,
    ordered_values,
    post_processed,
    ppkdp_by_definition,
)
from proofs_check.reference.pml import (
    attribute_law,
    attribute_pml_ratio,
    attribute_posterior,
    binomial_lower_tail,
    capacity_ratio,
    certainty,
    column_ratio,
    discloses,
    entry_pml_ratio,
    entry_pml_terms,
    guessing_gain,
    is_product_prior,
    joint_divergence_ratio,
    mass_within,
    max_pml_ratio,
    output_mass,
    pml_ratio,
    posterior,
    posterior_certainty,
    ratio_at_most_exp,
    rows_identical,
    shattering_rows,
    singles_out,
)
from proofs_check.reference.simulation import (
    Surd,
    box_simulator,
    simulation_lower_bound_squared,
    simulator_ratio,
    sqrt_surd,
    surd,
    verify_simulator,
)

__all__ = [
    "Conditional",
    "ConditionalLaws",
    "Kernel",
    "Law",
    "Order",
    "Pair",
    "Ratio",
    "Surd",
    "Table",
    "active_and_passive",
    "all_databases",
    "apkdp_by_definition",
    "attribute_law",
    "attribute_pml_ratio",
    "attribute_posterior",
    "binomial_lower_tail",
    "box_simulator",
    "capacity_ratio",
    "certainty",
    "classical_delta",
    "column_ratio",
    "conditional_laws",
    "conditional_output",
    "conditionals",
    "constraint_delta",
    "constraint_ratio",
    "counting_kernel",
    "def_58_quantity",
    "delta_by_plrv",
    "describe_mapping",
    "describe_mechanism",
    "describe_model",
    "describe_setting",
    "discloses",
    "distances",
    "divergence_ratio_by_points",
    "divergence_ratio_by_sets",
    "dp_conditionals",
    "dp_ratio",
    "dp_ratio_over_space",
    "entry_dp_ratio",
    "entry_pml_ratio",
    "entry_pml_terms",
    "epsilon_by_definition",
    "free_lunch_ratio",
    "free_lunch_ratio_over_space",
    "guessing_gain",
    "half_l1",
    "hamming",
    "has_injective_map",
    "hockey_stick_by_plrv",
    "hockey_stick_by_sets",
    "hockey_stick_pointwise",
    "is_product_prior",
    "joint",
    "joint_divergence_ratio",
    "knowledge_law",
    "laplace_counting_entry_ratios",
    "laplace_density",
    "law",
    "law_of_column",
    "laws_by_order",
    "mass_within",
    "max_pml_ratio",
    "mixed",
    "model_delta",
    "model_epsilon",
    "neighbour_pairs",
    "neighbourhoods",
    "neighbouring_databases",
    "ordered_values",
    "output_mass",
    "pairs_at_distance",
    "pairs_within",
    "path_within",
    "pml_ratio",
    "post_processed",
    "posterior",
    "posterior_certainty",
    "ppkdp_by_definition",
    "prior_posterior_distances",
    "qif",
    "ratio_at_most",
    "ratio_at_most_exp",
    "ratio_over_pairs",
    "row_law",
    "rows_identical",
    "shattering_rows",
    "simulation_lower_bound_squared",
    "simulator_ratio",
    "singles_out",
    "sqrt_surd",
    "statistical_distance_by_sets",
    "subsets",
    "surd",
    "table_dp_ratio",
    "table_neighbour_pairs",
    "table_of",
    "total_variation_surd",
    "verify_simulator",
]
