"""Small-scope enumeration: every small exact object, smallest first (as model finders do).

Most false claims about finite privacy objects already fail on tiny ones: two inputs, two
outputs, probabilities 1/2 or 1/3.  Random generation may still miss them (a regime hit by
2% of random draws is missed at 50 examples a third of the time), so
:func:`~proofs_check.properties.property_holds` first checks a property on *every* instance
of a small scope, then on random instances (Hypothesis).  The scope is given
(``small_scope=``) or **inferred from the strategy** (:func:`infer`): every small value an
:mod:`exactpml.strategies` strategy can produce, through Hypothesis' combinators.

A :class:`SmallScope` is an ordered, lazily built sequence of exact instances, split into
:class:`Layer` s that say what they hold (``"|X| = 2, |Y| = 2, grid 1/2"``).  Layers go from
the smallest alphabets to larger ones, and within an alphabet from the coarsest grid to the
finest, so the first counterexample the enumeration meets is minimal in this order, and
the report can say where it was found ("instance 17 of 336 (|X| = 2, |Y| = 2, grid 1/2)").
Combinations (products of several scopes, a mechanism with a prior, a setting with a
mechanism) go by the largest layer index of their parts, then the sum: simple structure
meets simple structure first (a deterministic kernel meets a setting whose known record
has law (1/3, 2/3) before any kernel on the grid 1/3), and point masses, two-point priors
and per-record counts come before generic grid points.

**Symmetry** (opt-in, ``up_to_relabelling=True``; :mod:`._symmetry`): for properties that do
not depend on labels, one instance per relabelling orbit, weighted by the orbit's size; the
report still counts coverage in instances of the full enumeration.

**Grids.**  The entries of every probability vector lie on a small grid: the multiples of
``1/d`` for ``d`` in ``grid`` (default ``(2, 3, 4)``), zeros and deterministic vectors
included.  A vector belongs to the first grid it lies on: level ``deterministic`` (entries
0 and 1), then ``grid 1/2``, ``grid 1/3`` (the multiples of 1/3 not already listed), then
``grid 1/4``.  An object made of several vectors (a kernel's rows, a prior) is in the
layer ``grid 1/d`` when each of its vectors lies on one of the grids up to ``1/d`` and some
vector needs ``1/d``: kernels with one row (1/2, 1/2) and another (1/3, 2/3) are in the layer
``grid 1/3``.  On two outcomes the levels hold 2, 1, 2 and 2 vectors (7 in all); on three,
3, 3, 7 and 9 (22); on four, 4, 6, 16 and 25 (51).

**Sizes** (with the defaults; ``len(scope)`` gives them, and each enumerator's docstring):
:func:`probability_vectors` of size 2: 7; :func:`distributions`: 30; :func:`mechanisms`
(|X|, |Y| <= 3): 11 556; :func:`mechanisms_with_prior` (|X|, |Y| <= 2): 358;
:func:`attributes` on two inputs: 534; :func:`pair_kernels` (|X| <= 2, Y1, Y2 <= 2): 2 766;
:func:`database_mechanisms` (|D| = 2, n <= 2, two outputs): 2 456; :func:`database_priors`
on {0, 1}^2: 51 joint, 29 product; :func:`database_mechanisms_with_prior`: 124 127;
:func:`partial_knowledge_settings` (<= 2 records): 290; :func:`setting_mechanisms`: 673 060
(42 450 orbits up to relabelling); :func:`bounded_leakage_models`: 489 552.  A property
checks at most :data:`~proofs_check.context.SMALL_SCOPE_BUDGET` instances per profile
(quick 2 000, default 10 000, thorough 100 000; an inferred scope at most 10 per random
instance asked for), the first ones in this order, and the report says how much of the
scope that covered ("covered 2,000 of 11,556 (17.3%)").

Every enumerator builds its objects with exactpml's public constructors, so a counterexample
prints (``repr``) as the object itself.  Users pass them to ``property_holds``::

    from proofs_check import small_scope
    property_holds(ctx, xst.mechanisms(), holds, describe="...",
                   small_scope=small_scope.mechanisms(max_inputs=2))

>>> scope = mechanisms(max_inputs=2, max_outputs=2)
>>> len(scope), scope.locate(20)
(58, (21, Layer('|X| = 2, |Y| = 2, grid 1/3', 16)))
>>> next(iter(scope))
Mechanism({0: {0: '1'}}, outputs=[0])
"""

from proofs_check.context import SMALL_SCOPE_BUDGET
from proofs_check.small_scope._database import (
    database_mechanisms,
    database_mechanisms_with_prior,
    database_priors,
)
from proofs_check.small_scope._enumerators import ENUMERATORS
from proofs_check.small_scope._finite import (
    attributes,
    distributions,
    mechanisms,
    mechanisms_with_prior,
    pair_kernels,
    probability_vectors,
)
from proofs_check.small_scope._grid import GRID
from proofs_check.small_scope._inference import Inferred, infer
from proofs_check.small_scope._models import bounded_leakage_models
from proofs_check.small_scope._scope import Layer, SmallScope, Step
from proofs_check.small_scope._settings import partial_knowledge_settings, setting_mechanisms

__all__ = [
    "ENUMERATORS",
    "GRID",
    "SMALL_SCOPE_BUDGET",
    "Inferred",
    "Layer",
    "SmallScope",
    "Step",
    "attributes",
    "bounded_leakage_models",
    "database_mechanisms",
    "database_mechanisms_with_prior",
    "database_priors",
    "distributions",
    "infer",
    "mechanisms",
    "mechanisms_with_prior",
    "pair_kernels",
    "partial_knowledge_settings",
    "probability_vectors",
    "setting_mechanisms",
]
