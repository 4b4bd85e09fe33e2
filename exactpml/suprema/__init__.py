"""Suprema of leakage over families of priors, attributes and outputs, with their witnesses.

* :mod:`~exactpml.suprema.families`: prior families 𝒫_X, 𝒬_X, 𝒫_c^f, finite, parametric;
* :mod:`~exactpml.suprema.witnesses`: the value types ``Supremum``, ``Instance``,
  ``Construction``, ``SupremumBounds`` (they import no algorithm);
* :mod:`~exactpml.suprema.measure_table`: how an ``Instance`` is evaluated, per measure;
* :mod:`~exactpml.suprema.constructions`: the proofs' builders (B.3, B.5, Thm 2.4, A.3, A.5);
* :mod:`~exactpml.suprema.leakage_suprema`: ``sup_pml``, ``sup_entry_leakage``,
  ``sup_conditional_pml``, ``sup_guessing_gain`` (Saeidian et al., Thms 2.4, 2.8, 4.2, 4.5).
"""

from exactpml.core import boundary as _boundary
from exactpml.suprema import measure_table as _measure_table  # registers finite mechanisms
from exactpml.suprema.leakage_suprema import (
    shattering_construction,
    sup_conditional_pml,
    sup_entry_leakage,
    sup_guessing_gain,
    sup_pml,
)
from exactpml.suprema.witnesses import Construction, Instance, Supremum, SupremumBounds

del _measure_table

__all__ = [
    "Construction",
    "Instance",
    "Supremum",
    "SupremumBounds",
    "shattering_construction",
    "sup_conditional_pml",
    "sup_entry_leakage",
    "sup_guessing_gain",
    "sup_pml",
]


_boundary.guard_public_names(globals())  # every public name behind its boundary
