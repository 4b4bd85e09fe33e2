"""Hypothesis strategies for exact privacy objects (public API).

Use them to write ``@given`` tests of your own lemmas::

    from hypothesis import given
    from exactpml import strategies as xst

    @given(xst.mechanisms_with_prior())
    def test_pml_is_nonnegative(pair):
        mechanism, prior = pair
        ...

Every generator draws its sizes first (so failures shrink to the fewest inputs and outputs)
and then a regime -- full support, zero patterns, deterministic rows, near-ties, extreme
ratios (``REGIMES``, ``KERNEL_REGIMES``, ``DATABASE_REGIMES``, ``PAIR_REGIMES``) -- each
with probability at least 1/6, so a default strategy reaches each regime within a few dozen
examples.
"""

from exactpml.core import boundary as _boundary
from exactpml.strategies._accounting import distribution_pairs, privacy_loss_distributions
from exactpml.strategies._bldp import bounded_leakage_models
from exactpml.strategies._database import (
    CORRELATED_REGIMES,
    DATABASE_REGIMES,
    correlated_priors,
    counting_mechanisms,
    database_mechanisms,
    database_mechanisms_with_prior,
    database_priors,
    database_spaces,
    predicates,
    product_priors,
)
from exactpml.strategies._enumerable import StrategyOrigin, strategy_origin
from exactpml.strategies._families import tuple_mechanisms
from exactpml.strategies._finite import (
    KERNEL_REGIMES,
    PAIR_REGIMES,
    REGIMES,
    attributes,
    distributions,
    mechanisms,
    mechanisms_with_prior,
    pair_kernels,
    probability_vectors,
)
from exactpml.strategies._numbers import fractions
from exactpml.strategies._partial_knowledge import (
    count_release_mechanisms,
    partial_knowledge_settings,
    setting_mechanisms,
    settings_with_mechanism,
)
from exactpml.strategies._qif import (
    GAIN_REGIMES,
    composed_kernels,
    gain_functions,
    mechanisms_with_gain,
    priors_with_support,
    product_output_mechanisms,
)

__all__ = [
    "CORRELATED_REGIMES",
    "DATABASE_REGIMES",
    "GAIN_REGIMES",
    "KERNEL_REGIMES",
    "PAIR_REGIMES",
    "REGIMES",
    "StrategyOrigin",
    "attributes",
    "bounded_leakage_models",
    "composed_kernels",
    "correlated_priors",
    "count_release_mechanisms",
    "counting_mechanisms",
    "database_mechanisms",
    "database_mechanisms_with_prior",
    "database_priors",
    "database_spaces",
    "distribution_pairs",
    "distributions",
    "fractions",
    "gain_functions",
    "mechanisms",
    "mechanisms_with_gain",
    "mechanisms_with_prior",
    "pair_kernels",
    "partial_knowledge_settings",
    "predicates",
    "priors_with_support",
    "privacy_loss_distributions",
    "probability_vectors",
    "product_output_mechanisms",
    "product_priors",
    "setting_mechanisms",
    "settings_with_mechanism",
    "strategy_origin",
    "tuple_mechanisms",
]


_boundary.guard_public_names(globals())  # every public name behind its boundary
