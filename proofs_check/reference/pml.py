"""Pointwise maximal leakage by enumeration, straight from the definitions.

Saeidian, Cervia, Oechtering, Skoglund, *Rethinking Disclosure Prevention with Pointwise
Maximal Leakage*: posteriors are formed by Bayes' rule entry by entry, exp l(X->y) =
D∞(P_{X|Y=y} ‖ P_X) as the largest posterior-to-prior ratio on the support (Def 2.2,
Thm 2.4), the guessing gain of an attribute (the ratio inside Def 2.3) from the Markov chain
U - X - Y, and the leakage capacity of Def 2.7 column by column.  Plain ``Fraction``
arithmetic on rational mechanisms and priors; no code shared with :mod:`exactpml.leakage`
or :mod:`exactpml.suprema`.  A ratio ``None`` stands for +∞.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from fractions import Fraction

from exactpml import Distribution, Mechanism
from proofs_check.reference.divergences import Ratio

__all__ = [
    "attribute_pml_ratio",
    "capacity_ratio",
    "column_ratio",
    "guessing_gain",
    "output_mass",
    "pml_ratio",
    "posterior",
    "rows_identical",
    "shattering_rows",
]

Label = Hashable


def output_mass(mechanism: Mechanism, prior: Distribution, y: Label) -> Fraction:
    """p_Y(y) = Σ_x p_X(x) p(y|x)."""
    return sum((prior[x] * mechanism.probability(x, y) for x in prior.outcomes), Fraction(0))


def posterior(mechanism: Mechanism, prior: Distribution, y: Label) -> dict[Label, Fraction]:
    """P_{X|Y=y} by Bayes' rule; the prior itself when p_Y(y) = 0 (footnote 5)."""
    mass = output_mass(mechanism, prior, y)
    if mass == 0:
        return {x: prior[x] for x in prior.outcomes}
    return {x: prior[x] * mechanism.probability(x, y) / mass for x in prior.outcomes}


def pml_ratio(
    mechanism: Mechanism, prior: Distribution, y: Label, *, whole_alphabet: bool = False
) -> Fraction:
    """exp l(X->y) = D∞(P_{X|Y=y} ‖ P_X) = max over x ∈ supp P_X of p(x|y)/p_X(x)
    (Def 2.2 applied to the posterior, Thm 2.4); 1 when p_Y(y) = 0 (footnote 5).

    With ``whole_alphabet`` the maximum runs over every x, with p(y|x)/p_Y(y) for the
    inputs of prior mass 0 (a mutant: the support condition of Thm 2.4 dropped).
    """
    after = posterior(mechanism, prior, y)
    mass = output_mass(mechanism, prior, y)
    best = Fraction(0)
    for x in prior.outcomes:
        before = prior[x]
        if before != 0:
            best = max(best, after[x] / before)
        elif whole_alphabet and mass != 0:
            best = max(best, mechanism.probability(x, y) / mass)
    return best


def attribute_pml_ratio(
    mechanism: Mechanism, prior: Distribution, attribute: Mechanism, y: Label
) -> Fraction:
    """exp l(U->y) from the joint law of (U, Y) built by enumeration (U - X - Y)."""
    mass = output_mass(mechanism, prior, y)
    if mass == 0:
        return Fraction(1)
    best = Fraction(0)
    for u in attribute.outputs:
        p_u = sum((prior[x] * attribute.probability(x, u) for x in mechanism.inputs), Fraction(0))
        if p_u == 0:
            continue
        joint = sum(
            (
                prior[x] * attribute.probability(x, u) * mechanism.probability(x, y)
                for x in mechanism.inputs
            ),
            Fraction(0),
        )
        best = max(best, joint / mass / p_u)
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


def column_ratio(column: Iterable[Fraction]) -> Ratio:
    """max_x p(y|x) / min_x p(y|x) over one column: 1 for an all-zero column (an output
    nobody produces, ignored by Def 2.7), +∞ (``None``) when it mixes zero and non-zero."""
    entries = list(column)
    if all(p == 0 for p in entries):
        return Fraction(1)
    if any(p == 0 for p in entries):
        return None
    return max(entries) / min(entries)


def capacity_ratio(mechanism: Mechanism) -> Ratio:
    """exp C(P_{Y|X}) of Def 2.7 (Thm 2.8: the largest column ratio; ``None`` = +∞)."""
    best = Fraction(1)
    for y in mechanism.outputs:
        ratio = column_ratio(mechanism.column(y))
        if ratio is None:
            return None
        best = max(best, ratio)
    return best


def rows_identical(mechanism: Mechanism) -> bool:
    """Whether every row is the same distribution: X and Y independent under every prior."""
    return len(set(mechanism.rows)) == 1
