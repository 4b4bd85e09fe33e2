"""Structured database mechanisms that compute through sufficient statistics.

* :class:`QueryMechanism`: a query (:class:`CountingQuery`, :class:`LinearQuery`,
  :class:`MeanQuery`) answered with noise (:class:`NoNoise`, :class:`GeometricNoise`,
  :class:`LaplaceNoise`) and an optional threshold; computed through the count (the
  query's statistic), so n in the thousands is exact;
* :class:`PerRecordMechanism`: a randomizer applied to every entry (local randomized
  response, :func:`randomized_response`);
* :func:`count_distribution`: the exact law of the count of independent, possibly
  non-identical, Bernoulli records (FLINT integer polynomials).

Every structured mechanism produces its explicit kernel on D^n (``explicit()``) for small
n; the tests check every structured path against that enumeration.
"""

from exactpml.core import boundary as _boundary
from exactpml.structured._noise import (
    AtLeast,
    AtMost,
    GeometricNoise,
    LaplaceNoise,
    Noise,
    NoNoise,
    Window,
)
from exactpml.structured._per_record import PerRecordMechanism, randomized_response
from exactpml.structured._query import CountingQuery, LinearQuery, MeanQuery, Query
from exactpml.structured._query_mechanism import QueryMechanism
from exactpml.structured.count_law import count_distribution, statistic_distribution

__all__ = [
    "AtLeast",
    "AtMost",
    "CountingQuery",
    "GeometricNoise",
    "LaplaceNoise",
    "LinearQuery",
    "MeanQuery",
    "NoNoise",
    "Noise",
    "PerRecordMechanism",
    "Query",
    "QueryMechanism",
    "Window",
    "count_distribution",
    "randomized_response",
    "statistic_distribution",
]


_boundary.guard_public_names(globals())  # every public name behind its boundary
