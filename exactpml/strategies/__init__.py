"""Hypothesis strategies for exact privacy objects (public API).

Use them to write ``@given`` tests of your own lemmas::

    from hypothesis import given
    from exactpml import strategies as xst

    @given(xst.mechanisms_with_prior())
    def test_pml_is_nonnegative(pair):
        mechanism, prior = pair
        ...
"""

from exactpml.strategies._bldp import bounded_leakage_models
from exactpml.strategies._finite import (
    attributes,
    distributions,
    mechanisms,
    mechanisms_with_prior,
    probability_vectors,
)
from exactpml.strategies._partial_knowledge import (
    counting_mechanisms,
    database_mechanisms,
    partial_knowledge_settings,
)

__all__ = [
    "attributes",
    "bounded_leakage_models",
    "counting_mechanisms",
    "database_mechanisms",
    "distributions",
    "mechanisms",
    "mechanisms_with_prior",
    "partial_knowledge_settings",
    "probability_vectors",
]
