"""Privacy notions for database mechanisms, exactly (Saeidian et al. §4, Vadhan, thesis §3.1.3).

* pure ε-DP (Def 4.1), group privacy, ε-free-lunch privacy (Def 4.4), local DP;
* (ε, δ)-DP through the hockey-stick divergence, in set form and through the privacy-loss
  random variable (thesis, Prop 8), and the exact privacy-loss distribution;
* simulation DP (Vadhan, Def 2) with the optimal simulator;
* the statistical distance between neighbours (Vadhan §1.1).

Each ε is a :class:`~exactpml.core.logvalue.LogValue` (the exact ratio e^ε); results carry the
worst inputs and output as witness (:class:`WorstCase`).
"""

from exactpml.notions._approximate import (
    PrivacyLossDistribution,
    delta_for_epsilon,
    hockey_stick_divergence,
    hockey_stick_event,
    privacy_loss_distribution,
)
from exactpml.notions._common import WorstCase
from exactpml.notions._pure import (
    differential_privacy_epsilon,
    free_lunch_epsilon,
    is_differentially_private,
    is_free_lunch_private,
    is_locally_private,
    local_privacy_epsilon,
    neighbour_statistical_distance,
)
from exactpml.notions._simulation import OptimalSimulation, optimal_simulator, simulation_epsilon

__all__ = [
    "OptimalSimulation",
    "PrivacyLossDistribution",
    "WorstCase",
    "delta_for_epsilon",
    "differential_privacy_epsilon",
    "free_lunch_epsilon",
    "hockey_stick_divergence",
    "hockey_stick_event",
    "is_differentially_private",
    "is_free_lunch_private",
    "is_locally_private",
    "local_privacy_epsilon",
    "neighbour_statistical_distance",
    "optimal_simulator",
    "privacy_loss_distribution",
    "simulation_epsilon",
]
