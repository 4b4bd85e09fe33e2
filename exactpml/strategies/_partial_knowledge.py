"""Hypothesis strategies for partial-knowledge settings and their mechanisms (thesis §3.1.3).

Small exact instances: 1 to 4 records, each on an alphabet of 2 or 3 values (zeros allowed
except on the target record, whose t and t' must be possible), knowledge either fixed known
records or an arbitrary function of the non-target records (independent of D(i) by
construction), and mechanisms on every database tuple.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence

from hypothesis import strategies as st

from exactpml.core.distribution import Distribution
from exactpml.core.mechanism import Mechanism
from exactpml.partial_knowledge.counting import CountingMechanism
from exactpml.partial_knowledge.setting import PartialKnowledge
from exactpml.strategies._finite import distributions, mechanisms

__all__ = [
    "count_release_mechanisms",
    "partial_knowledge_settings",
    "setting_mechanisms",
]


@st.composite
def partial_knowledge_settings(
    draw: st.DrawFn,
    *,
    min_records: int = 1,
    max_records: int = 4,
    binary: bool = False,
    knowledge: Sequence[str] = ("known", "function"),
) -> PartialKnowledge:
    """Exact settings: independent records, a target, t ≠ t', and knowledge B.

    ``binary=True`` puts every record on {0, 1} (for counting mechanisms);
    ``knowledge`` chooses among fixed ``"known"`` records and a random ``"function"`` of the
    other records.
    """
    size = draw(st.integers(min_records, max_records))
    target = draw(st.integers(0, size - 1))
    records: list[Distribution] = []
    for j in range(size):
        width = 2 if binary else draw(st.integers(2, 3))
        records.append(draw(distributions(outcomes=list(range(width)), full_support=(j == target))))
    value, alternative = draw(
        st.lists(st.sampled_from(records[target].outcomes), min_size=2, max_size=2, unique=True)
    )
    others = [j for j in range(size) if j != target]
    kind = draw(st.sampled_from(list(knowledge)))
    if kind == "known" or not others:
        known = draw(st.lists(st.sampled_from(others), unique=True)) if others else []
        return PartialKnowledge(
            records, target=target, value=value, alternative=alternative, known=known
        )
    rest = list(itertools.product(*(records[j].outcomes for j in others)))
    labels = draw(st.lists(st.integers(0, 2), min_size=len(rest), max_size=len(rest)))
    table = dict(zip(rest, labels, strict=True))

    def function(database: tuple[Hashable, ...]) -> Hashable:
        return table[tuple(database[j] for j in others)]

    return PartialKnowledge(
        records, target=target, value=value, alternative=alternative, knowledge=function
    )


@st.composite
def setting_mechanisms(
    draw: st.DrawFn, setting: PartialKnowledge, *, max_outputs: int = 4
) -> Mechanism:
    """A random exact kernel on every database tuple of the setting's record alphabets."""
    databases = list(itertools.product(*(r.outcomes for r in setting.records)))
    outputs = list(range(draw(st.integers(1, max_outputs))))
    return draw(mechanisms(inputs=databases, outputs=outputs))


@st.composite
def count_release_mechanisms(
    draw: st.DrawFn, size: int, *, max_outputs: int = 4
) -> CountingMechanism:
    """A random exact kernel count -> output on counts 0..size (records on {0, 1})."""
    outputs = list(range(draw(st.integers(1, max_outputs))))
    kernel = draw(mechanisms(inputs=list(range(size + 1)), outputs=outputs))
    return CountingMechanism(kernel)
