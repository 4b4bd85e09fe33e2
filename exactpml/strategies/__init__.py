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
from exactpml.strategies._database import (
    counting_mechanisms,
    database_mechanisms,
    database_priors,
    database_spaces,
    predicates,
    product_priors,
)
from exactpml.strategies._families import tuple_mechanisms
from exactpml.strategies._finite import (
    attributes,
    distributions,
    mechanisms,
    mechanisms_with_prior,
    probability_vectors,
)
from exactpml.strategies._partial_knowledge import (
    count_release_mechanisms,
    partial_knowledge_settings,
    setting_mechanisms,
)

__all__ = [
    "attributes",
    "bounded_leakage_models",
    "count_release_mechanisms",
    "counting_mechanisms",
    "database_mechanisms",
    "database_priors",
    "database_spaces",
    "distributions",
    "mechanisms",
    "mechanisms_with_prior",
    "partial_knowledge_settings",
    "predicates",
    "probability_vectors",
    "product_priors",
    "setting_mechanisms",
    "tuple_mechanisms",
]
