"""Reference computations for the ``pml.*`` checks of §2.4–4, by enumeration from the definitions.

Independent of :mod:`exactpml.suprema`, :mod:`exactpml.suprema.constructions` and
:mod:`exactpml.notions` (which the checks test): posteriors are formed by Bayes' rule
entry by entry, D_inf(P_{X|Y=y} || P_X) as the largest posterior-to-prior ratio on the
support, the guessing gain of an attribute (the ratio inside Def 2.3) from the Markov
chain U - X - Y, and the DP and free-lunch ratios (Defs 4.1, 4.4) output by output, as
maxima over explicit pairs of databases.  Only rational mechanisms and priors (the
strategies' instances): every value is a ``Fraction``, or ``sympy.oo`` for an infinite
ratio.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from fractions import Fraction
from typing import Any

import sympy

from exactpml import Distribution, Mechanism

__all__ = [
    "Ratio",
    "column_ratio",
    "divergence_ratio",
    "dp_ratio",
    "free_lunch_ratio",
    "guessing_gain",
    "output_mass",
    "posterior",
    "rows_identical",
    "shattering_rows",
]

Label = Hashable
Ratio = Fraction | Any
"""A ratio: a ``Fraction``, or ``sympy.oo`` when a zero meets a positive probability."""


def _fraction(value: object) -> Fraction:
    if not isinstance(value, Fraction):
        raise TypeError(f"reference computations need rational values, got {value!r}")
    return value


def output_mass(mechanism: Mechanism, prior: Distribution, output: Label) -> Fraction:
    """p_Y(y) = sum_x p_X(x) p(y|x)."""
    return sum(
        (_fraction(prior[x]) * _fraction(mechanism.probability(x, output)) for x in prior.outcomes),
        Fraction(0),
    )


def posterior(mechanism: Mechanism, prior: Distribution, output: Label) -> dict[Label, Fraction]:
    """P_{X|Y=y} by Bayes' rule; the prior itself when p_Y(y) = 0 (footnote 5)."""
    mass = output_mass(mechanism, prior, output)
    if mass == 0:
        return {x: _fraction(prior[x]) for x in prior.outcomes}
    return {
        x: _fraction(prior[x]) * _fraction(mechanism.probability(x, output)) / mass
        for x in prior.outcomes
    }


def divergence_ratio(
    mechanism: Mechanism, prior: Distribution, output: Label, *, whole_alphabet: bool = False
) -> Fraction:
    """exp D_inf(P_{X|Y=y} || P_X) = max over x in supp P_X of p(x|y) / p_X(x) (Def 2.2).

    With ``whole_alphabet`` the maximum runs over every x, with p(y|x)/p_Y(y) for the
    inputs of prior mass 0 (a mutant: the support condition of Thm 2.4 dropped).
    """
    after = posterior(mechanism, prior, output)
    mass = output_mass(mechanism, prior, output)
    best = Fraction(0)
    for x in prior.outcomes:
        before = _fraction(prior[x])
        if before != 0:
            best = max(best, after[x] / before)
        elif whole_alphabet and mass != 0:
            best = max(best, _fraction(mechanism.probability(x, output)) / mass)
    return best


def guessing_gain(
    rows: Mapping[Label, Mapping[Label, Fraction]],
    prior: Mapping[Label, Fraction],
    after: Mapping[Label, Fraction],
) -> Fraction:
    """max_u P(U = u | Y = y) / max_u p_U(u) for the attribute kernel ``rows`` (x -> u -> p),
    prior P_X and posterior P_{X|Y=y}: the ratio inside Def 2.3, with the MAP guess."""
    before: dict[Label, Fraction] = {}
    given: dict[Label, Fraction] = {}
    for x, row in rows.items():
        for u, p in row.items():
            before[u] = before.get(u, Fraction(0)) + prior[x] * p
            given[u] = given.get(u, Fraction(0)) + after[x] * p
    return max(given.values()) / max(before.values())


def shattering_rows(
    inputs: Iterable[Label], star: Label, size: int, *, among: bool = False
) -> dict[Label, dict[Label, Fraction]]:
    """Thm 2.4's attribute, written out: U = "u0" on x*, uniform on K = ``size`` values
    1..K elsewhere; with ``among`` the K values are u0, 1..K-1 (the variant that only
    converges as K -> oo)."""
    values: list[Label] = ["u0", *range(1, size)] if among else list(range(1, size + 1))
    share = Fraction(1, size)
    return {x: ({"u0": Fraction(1)} if x == star else dict.fromkeys(values, share)) for x in inputs}


def column_ratio(column: Iterable[object]) -> Ratio:
    """max_x p(y|x) / min_x p(y|x) over one column: 1 for an all-zero column (an output
    nobody produces, ignored by Def 2.7), ``oo`` when it mixes zero and non-zero."""
    entries = [_fraction(p) for p in column]
    if all(p == 0 for p in entries):
        return Fraction(1)
    if any(p == 0 for p in entries):
        return sympy.oo
    return max(entries) / min(entries)


def free_lunch_ratio(mechanism: Mechanism, output: Label) -> Ratio:
    """max over all pairs of databases x, x' of p(y|x)/p(y|x') at one output (Def 4.4)."""
    return column_ratio(mechanism.column(output))


def dp_ratio(mechanism: Mechanism, output: Label) -> Ratio:
    """max over neighbouring databases (one entry changed) of p(y|x)/p(y|x') at one output
    (Def 4.1); pairs with p(y|x) = 0 are skipped, p(y|x) > 0 = p(y|x') gives ``oo``."""
    column = {
        x: _fraction(p) for x, p in zip(mechanism.inputs, mechanism.column(output), strict=True)
    }
    alphabet = list(dict.fromkeys(d for x in column for d in x))  # type: ignore[attr-defined]
    best: Ratio = Fraction(1)
    for x, top in column.items():
        if top == 0:
            continue
        entries: tuple[Label, ...] = x  # type: ignore[assignment]
        for i, value in enumerate(entries):
            for other in alphabet:
                if other == value:
                    continue
                bottom = column[(*entries[:i], other, *entries[i + 1 :])]
                if bottom == 0:
                    return sympy.oo
                best = max(best, top / bottom)
    return best


def rows_identical(mechanism: Mechanism) -> bool:
    """Whether every row is the same distribution: X and Y independent under every prior."""
    return len(set(mechanism.rows)) == 1
