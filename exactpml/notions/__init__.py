"""Privacy notions for database mechanisms, exactly (Saeidian et al. §4, Vadhan, thesis §3.1.3).

* pure ε-DP (Def 4.1), group privacy, ε-free-lunch privacy (Def 4.4), local DP;
* (ε, δ)-DP through the hockey-stick divergence, in set form and through the privacy-loss
  random variable (thesis, Prop 8), and the exact privacy-loss distribution
  (:mod:`~exactpml.notions.privacy_loss`): composition, δ(ε) for every real ε, ε(δ);
* accounting: k-fold composition of mechanisms and the composition theorems
  (:mod:`~exactpml.notions.composition`), Rényi DP, zCDP and the conversions
  (:mod:`~exactpml.notions.renyi`), f-DP trade-off curves (:mod:`~exactpml.notions.tradeoff`),
  subsampling and its amplification bounds (:mod:`~exactpml.notions.subsampling`), Laplace and
  Gaussian noise and their calibration (:mod:`~exactpml.notions.continuous_noise`);
* certified privacy-loss distributions of continuous and subsampled mechanisms between two
  lattices (:mod:`~exactpml.notions.certified_pld`), and certified DP-SGD accounting
  (:mod:`~exactpml.notions.dpsgd`: ``dpsgd_epsilon``, ``dpsgd_delta``);
* simulation DP (Vadhan, Def 2) with the optimal simulator;
* the statistical distance between neighbours (Vadhan §1.1).

Each ε is a :class:`~exactpml.core.logvalue.LogValue` (the exact ratio e^ε); results carry the
worst inputs and output as witness (:class:`WorstCase`).
"""

from exactpml.core import boundary as _boundary
from exactpml.notions._approximate import (
    delta_for_epsilon,
    hockey_stick_divergence,
    hockey_stick_event,
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
from exactpml.notions.certified_pld import (
    AccountingBounds,
    CertifiedPLD,
    certified_gaussian_pld,
    certified_laplace_pld,
    certified_pld,
)
from exactpml.notions.composition import (
    NeighbourLoss,
    PrivacyParameters,
    advanced_composition,
    basic_composition,
    composition_delta_for_epsilon,
    composition_epsilon_for_delta,
    neighbour_privacy_loss_distributions,
    optimal_composition,
)
from exactpml.notions.continuous_noise import (
    Calibration,
    gaussian_calibration,
    gaussian_delta_for_epsilon,
    laplace_calibration,
    laplace_delta_for_epsilon,
)
from exactpml.notions.dpsgd import dpsgd_delta, dpsgd_epsilon
from exactpml.notions.privacy_loss import PrivacyLossDistribution, privacy_loss_distribution
from exactpml.notions.renyi import (
    ZCDPBounds,
    dp_to_zcdp_rho,
    rdp_to_dp_epsilon,
    renyi_divergence,
    renyi_divergence_bounds,
    renyi_dp_epsilon,
    zcdp_rho,
    zcdp_to_dp_epsilon,
    zcdp_to_rdp_epsilon,
)
from exactpml.notions.subsampling import (
    poisson_amplification,
    poisson_subsampled,
    subsampled_without_replacement,
    without_replacement_amplification,
)
from exactpml.notions.tradeoff import TradeoffCurve, dp_tradeoff_curve, tradeoff_curve
from exactpml.numerics.log_moments import RenyiBounds

__all__ = [
    "AccountingBounds",
    "Calibration",
    "CertifiedPLD",
    "NeighbourLoss",
    "OptimalSimulation",
    "PrivacyLossDistribution",
    "PrivacyParameters",
    "RenyiBounds",
    "TradeoffCurve",
    "WorstCase",
    "ZCDPBounds",
    "advanced_composition",
    "basic_composition",
    "certified_gaussian_pld",
    "certified_laplace_pld",
    "certified_pld",
    "composition_delta_for_epsilon",
    "composition_epsilon_for_delta",
    "delta_for_epsilon",
    "differential_privacy_epsilon",
    "dp_to_zcdp_rho",
    "dp_tradeoff_curve",
    "dpsgd_delta",
    "dpsgd_epsilon",
    "free_lunch_epsilon",
    "gaussian_calibration",
    "gaussian_delta_for_epsilon",
    "hockey_stick_divergence",
    "hockey_stick_event",
    "is_differentially_private",
    "is_free_lunch_private",
    "is_locally_private",
    "laplace_calibration",
    "laplace_delta_for_epsilon",
    "local_privacy_epsilon",
    "neighbour_privacy_loss_distributions",
    "neighbour_statistical_distance",
    "optimal_composition",
    "optimal_simulator",
    "poisson_amplification",
    "poisson_subsampled",
    "privacy_loss_distribution",
    "rdp_to_dp_epsilon",
    "renyi_divergence",
    "renyi_divergence_bounds",
    "renyi_dp_epsilon",
    "simulation_epsilon",
    "subsampled_without_replacement",
    "tradeoff_curve",
    "without_replacement_amplification",
    "zcdp_rho",
    "zcdp_to_dp_epsilon",
    "zcdp_to_rdp_epsilon",
]


_boundary.guard_public_names(globals())  # every public name behind its boundary
