"""Hypothesis strategies for explicit database mechanisms (tuple inputs D^n).

Used by the tests of the suprema of Saeidian et al., §4 (Thm 4.2, Thm 4.5): a mechanism on
databases is a :class:`~exactpml.core.mechanism.Mechanism` whose inputs are every n-tuple over
an alphabet D = ``range(|D|)``.  Rows may contain zeros (so DP and free-lunch ratios may be
infinite) and whole columns may be zero.
"""

from __future__ import annotations

import itertools

from hypothesis import strategies as st

from exactpml.core.mechanism import Mechanism
from exactpml.strategies._draws import integers_between, sampled_from_values
from exactpml.strategies._enumerable import composite
from exactpml.strategies._finite import KERNEL_REGIMES, _check_sizes, choose_regime, kernel_rows

__all__ = ["tuple_mechanisms"]


@composite
def tuple_mechanisms(
    draw: st.DrawFn,
    *,
    min_entries: int = 1,
    max_entries: int = 3,
    min_alphabet: int = 1,
    max_alphabet: int = 3,
    min_outputs: int = 1,
    max_outputs: int = 4,
    zeros: bool = True,
    max_inputs: int = 27,
) -> Mechanism:
    """A rational mechanism on D^n with n in [min_entries, max_entries], ``|D|`` in
    [min_alphabet, max_alphabet] (``|D|^n`` at most ``max_inputs``), outputs ``range(m)``.

    Sizes first, then a regime of ``KERNEL_REGIMES`` for the rows (see
    :func:`~exactpml.strategies.mechanisms`); ``zeros=False`` keeps the positive regimes
    (full support, near-ties, extreme ratios; no one-hot rows).
    """
    _check_sizes("database_mechanisms (entries)", min_entries, max_entries)
    _check_sizes("database_mechanisms (alphabet)", min_alphabet, max_alphabet)
    _check_sizes("database_mechanisms (outputs)", min_outputs, max_outputs)
    n = draw(integers_between(min_entries, max_entries))
    largest = min(max_alphabet, max(max_inputs, min_alphabet))  # k^n <= max_inputs: k <= it
    sizes = [k for k in range(min_alphabet, largest + 1) if k**n <= max_inputs]
    if not sizes:
        sizes = [min_alphabet]
    k = draw(sampled_from_values(tuple(sizes)))
    m = draw(integers_between(min_outputs, max_outputs))
    inputs = list(itertools.product(range(k), repeat=n))
    allowed = [
        r for r in KERNEL_REGIMES if zeros or r in ("full_support", "near_ties", "extreme_ratios")
    ]
    regime = choose_regime(draw, allowed)
    rows = kernel_rows(draw, len(inputs), m, regime, deterministic=zeros)
    return Mechanism.from_matrix(rows, inputs=inputs, outputs=list(range(m)))
