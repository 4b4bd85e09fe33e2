"""Hypothesis strategies for bounded-leakage models (Ligett, Peale, Reingold).

Small exact instances: databases are all tuples of 1 or 2 records over {0, 1} (or one
record over {0, 1, 2}) with the "differ in one record" neighbours; the randomness has 1 to 5
values; M is an arbitrary table on (x, r); the leakage P is a table, constant (ordinary
DP), a function of x alone, or (on bit tuples) the parity of x, which differs on every
neighbouring pair and agrees at distance 2 (the poster's group-privacy caveat).  The
randomness' law is drawn in a regime of ``exactpml.strategies.REGIMES`` (zero patterns 1/3;
full support, a point mass, near-ties, extreme ratios 1/6 each).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence

from hypothesis import strategies as st

from exactpml.bldp.model import BoundedLeakageModel
from exactpml.core.distribution import Distribution
from exactpml.strategies._draws import BOOLEANS, integer_lists, sampled_from_values
from exactpml.strategies._enumerable import composite
from exactpml.strategies._finite import distributions

__all__ = ["bounded_leakage_models"]


@composite
def bounded_leakage_models(
    draw: st.DrawFn,
    *,
    max_randomness: int = 5,
    max_outputs: int = 3,
    max_leakages: int = 3,
    databases: Sequence[Hashable] | None = None,
    randomness: Distribution | None = None,
) -> BoundedLeakageModel:
    """Exact bounded-leakage models on small database universes.

    The size of R is drawn first, then the regime of its law (see
    :func:`~exactpml.strategies.distributions`), then the tables: M a table on (x, r), P a
    table, a constant or a function of x (1/3 each); on tuples of two or more bits, half of
    the functions of x are the parity of x.  ``databases`` (tuples,
    for the default neighbours) and ``randomness`` may be fixed, e.g. to draw a second
    model on the same randomness for a shared-randomness composition.
    """
    if databases is None:
        shape = draw(sampled_from_values(((1, 2), (1, 3), (2, 2))))
        databases = list(itertools.product(range(shape[1]), repeat=shape[0]))
    databases = list(databases)
    if randomness is None:
        randomness = draw(distributions(min_size=1, max_size=max_randomness))
    cells = [(x, r) for x in databases for r in randomness.outcomes]
    outputs = draw(integer_lists(0, max_outputs - 1, len(cells)))
    parity = all(  # tuples of at least two bits: parity is then not a function of one bit
        isinstance(x, tuple) and len(x) >= 2 and all(v in (0, 1) for v in x) for x in databases
    )
    kind = draw(sampled_from_values(("table", "constant", "of_x")))
    if kind == "of_x" and parity and draw(BOOLEANS):
        kind = "parity"  # differs on every neighbouring pair, equal at distance 2
    if kind == "constant":
        leaks = [0] * len(cells)
    elif kind == "parity":
        leaks = [sum(x) % 2 for x, _ in cells]  # type: ignore[call-overload]
    elif kind == "of_x":
        per_x = draw(integer_lists(0, max_leakages - 1, len(databases)))
        by_x = dict(zip(databases, per_x, strict=True))
        leaks = [by_x[x] for x, _ in cells]
    else:
        leaks = draw(integer_lists(0, max_leakages - 1, len(cells)))
    return BoundedLeakageModel(
        randomness,
        dict(zip(cells, outputs, strict=True)),
        dict(zip(cells, leaks, strict=True)),
        databases=databases,
    )
