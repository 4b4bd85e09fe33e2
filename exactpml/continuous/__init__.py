"""Mechanisms with continuous or countable outputs: densities on R, pmfs on N and Z
(Saeidian et al., §3.2 and §4: Laplace and geometric noise; Thm 3.4's countable mechanism).

:class:`ContinuousMechanism` (:mod:`~exactpml.continuous.mechanism`) with PML in closed form,
the supremum over outputs, capacity and disclosure in the limit y -> oo; rows are piecewise
sums of exponentials (:mod:`~exactpml.continuous.expsums`).
"""

from exactpml.continuous.mechanism import (
    ContinuousMechanism,
    Disclosure,
    disclosure,
    leakage_capacity_of,
    measure_at,
    pml_closed_form,
    pointwise_maximal_leakage_at,
    sup_pml_over_outputs,
)
from exactpml.core import boundary as _boundary

__all__ = [
    "ContinuousMechanism",
    "Disclosure",
    "disclosure",
    "leakage_capacity_of",
    "measure_at",
    "pml_closed_form",
    "pointwise_maximal_leakage_at",
    "sup_pml_over_outputs",
]


_boundary.guard_public_names(globals())  # every public name behind its boundary
