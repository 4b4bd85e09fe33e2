"""Hypothesis strategies for partial-knowledge settings and their mechanisms (thesis §3.1.3).

Small exact instances: 1 to 4 records, each on an alphabet of 2 or 3 values (zeros allowed
except on the target record, whose t and t' must be possible), knowledge either fixed known
records or an arbitrary function of the non-target records (independent of D(i) by
construction), and mechanisms on every database tuple.  Sizes first, then a regime of
``exactpml.strategies.REGIMES`` for the records' laws (the target's law stays of full support
in the zeros and deterministic regimes); mechanisms draw a kernel regime of their own.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence

from hypothesis import strategies as st

from exactpml.core.distribution import Distribution
from exactpml.core.mechanism import Mechanism
from exactpml.partial_knowledge.counting import CountingMechanism
from exactpml.partial_knowledge.setting import PartialKnowledge
from exactpml.strategies._draws import (
    BOOLEANS,
    integer_lists,
    integers_between,
    sampled_from_values,
    unique_samples,
)
from exactpml.strategies._enumerable import composite
from exactpml.strategies._finite import REGIMES, choose_regime, mechanisms, regime_vector

__all__ = [
    "count_release_mechanisms",
    "partial_knowledge_settings",
    "setting_mechanisms",
    "settings_with_mechanism",
]


@composite
def partial_knowledge_settings(
    draw: st.DrawFn,
    *,
    min_records: int = 1,
    max_records: int = 4,
    binary: bool = False,
    knowledge: Sequence[str] = ("known", "function"),
) -> PartialKnowledge:
    """Exact settings: independent records, a target, t ≠ t', and knowledge B.

    The number of records and the target are drawn first, then one regime of ``REGIMES``
    (1/5 each) for every record's law: full support, zero patterns, point masses (each other
    record certain with probability 1/2), near-ties, extreme ratios.  The target's law is of
    full support in the zeros and deterministic regimes.  ``binary=True`` puts every record
    on {0, 1} (for counting mechanisms); ``knowledge`` chooses among fixed ``"known"``
    records and a random ``"function"`` of the other records; known records are a random
    subset, none, or all of them (full knowledge D_{-i}), a third each.
    """
    size = draw(integers_between(min_records, max_records))
    target = draw(integers_between(0, size - 1))
    regime = choose_regime(draw, REGIMES)
    records: list[Distribution] = []
    for j in range(size):
        width = 2 if binary else draw(integers_between(2, 3))
        own = regime
        if j == target and regime in ("zeros", "deterministic"):
            own = "full_support"
        elif regime == "deterministic" and draw(BOOLEANS):
            own = "full_support"  # some records certain, the others not
        vector = regime_vector(draw, width, own)
        records.append(Distribution(dict(zip(range(width), vector, strict=True))))
    value, alternative = draw(unique_samples(tuple(records[target].outcomes), 2, 2))
    others = [j for j in range(size) if j != target]
    kind = draw(sampled_from_values(tuple(knowledge)))
    if kind == "known" or not others:
        extent = choose_regime(draw, ("some", "none", "all")) if others else "none"
        if extent == "some":  # a random subset; none and all (D_{-i}) a third each
            known = draw(unique_samples(tuple(others), 0, None))
        else:
            known = others if extent == "all" else []
        return PartialKnowledge(
            records, target=target, value=value, alternative=alternative, known=known
        )
    rest = list(itertools.product(*(records[j].outcomes for j in others)))
    labels = draw(integer_lists(0, 2, len(rest)))
    table = dict(zip(rest, labels, strict=True))

    def function(database: tuple[Hashable, ...]) -> Hashable:
        return table[tuple(database[j] for j in others)]

    return PartialKnowledge(
        records, target=target, value=value, alternative=alternative, knowledge=function
    )


@composite
def setting_mechanisms(
    draw: st.DrawFn, setting: PartialKnowledge, *, max_outputs: int = 4
) -> Mechanism:
    """A random exact kernel on every database tuple of the setting's record alphabets
    (a kernel regime of :func:`~exactpml.strategies.mechanisms`)."""
    databases = list(itertools.product(*(r.outcomes for r in setting.records)))
    outputs = list(range(draw(integers_between(1, max_outputs))))
    return draw(mechanisms(inputs=databases, outputs=outputs))


@composite
def settings_with_mechanism(
    draw: st.DrawFn,
    *,
    min_records: int = 1,
    max_records: int = 4,
    binary: bool = False,
    knowledge: Sequence[str] = ("known", "function"),
    max_outputs: int = 4,
) -> tuple[PartialKnowledge, Mechanism]:
    """A setting of :func:`partial_knowledge_settings` and a kernel of
    :func:`setting_mechanisms` on its database tuples (the shape of APKDP/PPKDP claims)."""
    setting = draw(
        partial_knowledge_settings(
            min_records=min_records, max_records=max_records, binary=binary, knowledge=knowledge
        )
    )
    return setting, draw(setting_mechanisms(setting, max_outputs=max_outputs))


@composite
def count_release_mechanisms(
    draw: st.DrawFn, size: int, *, max_outputs: int = 4
) -> CountingMechanism:
    """A random exact kernel count -> output on counts 0..size (records on {0, 1}), in a
    kernel regime of :func:`~exactpml.strategies.mechanisms`."""
    outputs = list(range(draw(integers_between(1, max_outputs))))
    kernel = draw(mechanisms(inputs=list(range(size + 1)), outputs=outputs))
    return CountingMechanism(kernel)
