"""Databases X = (D_1, …, D_n) over a finite alphabet D: neighbours, mechanisms and priors.

Saeidian et al., §4.  A database is an n-tuple ``x = (d_1, …, d_n)`` of entries of the
alphabet D, so a database mechanism is a :class:`~exactpml.core.mechanism.Mechanism` whose inputs
are exactly the tuples of D^n (:class:`DatabaseMechanism`, validated).  This module gives

* :class:`DatabaseSpace` (D and n): the databases, neighbours in the sense of Def 4.1
  (replace one entry), pairs at Hamming distance k (group privacy) and the neighbourhoods
  ``{(d, d_{-i}) : d in D}`` that the DP and simulation-DP definitions range over;
* priors on D^n: explicit joint (correlated) priors (:func:`joint_prior`), product and
  i.i.d. priors (:class:`ProductPrior`, which never materialises D^n unless asked);
* the marginal P_{D_i} and the conditional P_{D_i | D_{-i} = d_{-i}}, and the entry
  leakages l(D_i -> y) and l(D_i -> y | d_{-i}) of Thm 4.2.

Structured mechanisms (per-record randomizers, queries with noise) live in
:mod:`exactpml.structured`; they subclass :class:`StructuredDatabaseMechanism` and produce
an explicit :class:`DatabaseMechanism` for small n.

>>> space = DatabaseSpace([0, 1], 2)
>>> list(space.databases())
[(0, 0), (0, 1), (1, 0), (1, 1)]
>>> list(space.neighbours((0, 0)))
[(0, (1, 0)), (1, (0, 1))]
>>> prior = ProductPrior.iid(Distribution({0: "3/4", 1: "1/4"}), 2)
>>> prior.probability((1, 1))
Fraction(1, 16)
"""

from exactpml.core import boundary as _boundary
from exactpml.core.distribution import Distribution as Distribution  # used by the doctest
from exactpml.database._mechanism import (
    DatabaseMechanism,
    Reduction,
    StructuredDatabaseMechanism,
    as_database_mechanism,
    explicit_reduction,
    random_row_mechanism,
)
from exactpml.database._prior import (
    ProductPrior,
    check_database_prior,
    conditional_entry_leakage,
    entry_conditional,
    entry_leakage,
    entry_marginal,
    joint_prior,
)
from exactpml.database._space import BOTTOM, Database, DatabaseSpace, check_index

__all__ = [
    "BOTTOM",
    "Database",
    "DatabaseMechanism",
    "DatabaseSpace",
    "ProductPrior",
    "Reduction",
    "StructuredDatabaseMechanism",
    "as_database_mechanism",
    "check_database_prior",
    "check_index",
    "conditional_entry_leakage",
    "entry_conditional",
    "entry_leakage",
    "entry_marginal",
    "explicit_reduction",
    "joint_prior",
    "random_row_mechanism",
]


_boundary.guard_public_names(globals())  # every public name behind its boundary
