"""Hypothesis strategies for exact privacy objects (public API).

Use them to write ``@given`` tests of your own lemmas::

    from hypothesis import given
    from exactpml import strategies as xst

    @given(xst.mechanisms_with_prior())
    def test_pml_is_nonnegative(pair):
        mechanism, prior = pair
        ...
"""

from exactpml.strategies._families import database_mechanisms
from exactpml.strategies._finite import (
    attributes,
    distributions,
    mechanisms,
    mechanisms_with_prior,
    probability_vectors,
)

__all__ = [
    "attributes",
    "database_mechanisms",
    "distributions",
    "mechanisms",
    "mechanisms_with_prior",
    "probability_vectors",
]
