"""Helpers shared by the ``vadhan.*`` checks: instance sizes, library values, certified signs."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy
from hypothesis import strategies as st

from exactpml import Distribution
from exactpml import strategies as xst
from exactpml.core import certify
from exactpml.errors import Undecided
from exactpml.notions import differential_privacy_epsilon
from proofs_check import Evidence
from proofs_check.reference import Ratio, Table, table_of

__all__ = [
    "Vector",
    "certified_equal",
    "certified_sign",
    "distribution",
    "distribution_pairs",
    "infinite",
    "library_ratio",
    "nonnegative",
    "pinned",
    "positive",
    "ratio_text",
    "tables",
]

Vector = tuple[Fraction, ...]


def library_ratio(table: Table) -> Ratio:
    """e^ε of exactpml's differential_privacy_epsilon (None when infinite)."""
    value = differential_privacy_epsilon(table.mechanism()).value
    return None if value.is_infinite else Fraction(value.ratio)


def ratio_text(ratio: Ratio) -> str:
    return "oo" if ratio is None else f"log({ratio})"


def certified_sign(expression: sympy.Expr) -> int | None:
    """The certified sign of a closed expression (None when undecided)."""
    try:
        return certify.sign(expression)
    except Undecided:
        return None


def nonnegative(expression: sympy.Expr) -> bool | None:
    """``expression >= 0``, certified (None when undecided)."""
    sign = certified_sign(expression)
    return None if sign is None else sign >= 0


def positive(expression: sympy.Expr) -> bool | None:
    """``expression > 0``, certified (None when undecided)."""
    sign = certified_sign(expression)
    return None if sign is None else sign > 0


@st.composite
def distribution_pairs(draw: st.DrawFn, *, max_size: int = 6) -> tuple[Vector, Vector]:
    """Two exact distributions on {0, …, k-1}, 1 <= k <= max_size, zeros allowed."""
    size = draw(st.integers(1, max_size))
    first = tuple(draw(xst.probability_vectors(size)))
    second = tuple(draw(xst.probability_vectors(size)))
    return first, second


def distribution(vector: Vector) -> Distribution:
    """The exactpml Distribution on {0, …, k-1} of a probability vector."""
    return Distribution(dict(enumerate(vector)))


def infinite(ratio: Ratio) -> Any:
    """The ratio for display and comparison: ``sympy.oo`` for +∞."""
    return sympy.oo if ratio is None else ratio


def certified_equal(left: object, right: object) -> bool | None:
    """``left == right`` for closed numbers, certified (None when undecided)."""
    try:
        return certify.compare(left, right) == 0
    except Undecided:
        return None


def tables(*, zeros: bool | None = None, max_databases: int = 27) -> st.SearchStrategy[Table]:
    """Random explicit mechanisms (n <= 3, |D| <= 3, 1 to 4 outputs) as :class:`Table`.

    ``zeros``: True allows zero probabilities (infinite ratios), False forbids them, None
    draws either.
    """

    @st.composite
    def draw_table(draw: st.DrawFn) -> Table:
        allow = draw(st.booleans()) if zeros is None else zeros
        return table_of(draw(xst.database_mechanisms(zeros=allow, max_databases=max_databases)))

    return draw_table()


def pinned(
    instances: Sequence[tuple[str, Any]],
    holds: Any,
    *,
    describe: str,
    explain: Any = None,
    kind: Any = "P",
) -> Evidence:
    """The property ``holds`` on pinned instances, named: the regime a statement is sharp in
    (or a mutant shows), which random generation may miss.  Fails on the first instance where
    ``holds`` is False, with its exact rendering."""
    undecided = []
    label = f"{describe} (pinned instances)"
    for name, instance in instances:
        verdict = holds(instance)
        if verdict is False:
            shown = explain(instance) if explain is not None else repr(instance)
            return Evidence(
                kind,
                False,
                f"{describe}: failed on the pinned instance {name}",
                counterexample=f"{name}: {shown}",
                label=label,
            )
        if verdict is None:
            undecided.append(name)
    count = f"{len(instances)} pinned instance" + ("s" if len(instances) != 1 else "")
    names = "; ".join(name for name, _ in instances)
    if undecided:
        return Evidence(
            kind,
            None,
            f"{describe}: undecided on {', '.join(undecided)} of {count} ({names})",
            label=label,
        )
    return Evidence(kind, True, f"{describe}: held on {count} ({names})", label=label)
