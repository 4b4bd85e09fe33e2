"""Hypothesis strategies for bounded-leakage models (Ligett, Peale, Reingold).

Small exact instances: databases are all tuples of 1 or 2 records over {0, 1} (or one
record over {0, 1, 2}) with the "differ in one record" neighbours; the randomness has 1 to 5
values (zeros allowed); M and P are arbitrary tables on (x, r), the leakage sometimes
constant (ordinary DP) and sometimes a function of x alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence

from hypothesis import strategies as st

from exactpml.bldp.model import BoundedLeakageModel
from exactpml.core.distribution import Distribution
from exactpml.strategies._finite import distributions

__all__ = ["bounded_leakage_models"]


@st.composite
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

    ``databases`` (tuples, for the default neighbours) and ``randomness`` may be fixed, e.g.
    to draw a second model on the same randomness for a shared-randomness composition.
    """
    if databases is None:
        shape = draw(st.sampled_from([(1, 2), (1, 3), (2, 2)]))
        databases = list(itertools.product(range(shape[1]), repeat=shape[0]))
    databases = list(databases)
    if randomness is None:
        randomness = draw(distributions(min_size=1, max_size=max_randomness))
    cells = [(x, r) for x in databases for r in randomness.outcomes]
    outputs = draw(
        st.lists(st.integers(0, max_outputs - 1), min_size=len(cells), max_size=len(cells))
    )
    kind = draw(st.sampled_from(["table", "constant", "of_x"]))
    if kind == "constant":
        leaks = [0] * len(cells)
    elif kind == "of_x":
        per_x = draw(
            st.lists(
                st.integers(0, max_leakages - 1), min_size=len(databases), max_size=len(databases)
            )
        )
        by_x = dict(zip(databases, per_x, strict=True))
        leaks = [by_x[x] for x, _ in cells]
    else:
        leaks = draw(
            st.lists(st.integers(0, max_leakages - 1), min_size=len(cells), max_size=len(cells))
        )
    return BoundedLeakageModel(
        randomness,
        dict(zip(cells, outputs, strict=True)),
        dict(zip(cells, leaks, strict=True)),
        databases=databases,
    )
