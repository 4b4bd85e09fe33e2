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

import math
from collections.abc import Hashable, Iterable, Mapping
from fractions import Fraction
from typing import Any

from exactpml import Distribution, Mechanism
from proofs_check.reference.divergences import Ratio

__all__ = [
    "attribute_law",
    "attribute_pml_ratio",
    "attribute_posterior",
    "binomial_lower_tail",
    "capacity_ratio",
    "certainty",
    "column_ratio",
    "discloses",
    "entry_pml_ratio",
    "entry_pml_terms",
    "guessing_gain",
    "is_product_prior",
    "joint_divergence_ratio",
    "mass_within",
    "max_pml_ratio",
    "output_mass",
    "pml_ratio",
    "posterior",
    "posterior_certainty",
    "ratio_at_most_exp",
    "rows_identical",
    "shattering_rows",
    "singles_out",
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
    prior: Mapping[Any, Fraction],
    after: Mapping[Label, Fraction],
) -> Fraction:
    """max_u P(U = u | Y = y) / max_u p_U(u) for the attribute kernel ``rows`` (x -> u -> p),
    prior P_X and posterior P_{X|Y=y}: the ratio inside Def 2.3, with the MAP guess.

    p_U(u) = sum_x p(x) p(u|x) and P(U = u | Y = y) = sum_x p(x|y) p(u|x), summed as integers
    over one common denominator per law (the denominators cancel in the ratio but for the
    two laws' own): Thm 2.4's attributes have up to 64 values per row, and Fraction's
    normalisation at every addition cost ~0.2 s of pml.thm_2_4 at ``--quick``."""
    row_scale = math.lcm(*(p.denominator for row in rows.values() for p in row.values()))
    prior_scale = math.lcm(*(prior[x].denominator for x in rows))
    after_scale = math.lcm(*(after[x].denominator for x in rows))
    before: dict[Label, int] = {}  # p_U(u) * prior_scale * row_scale
    given: dict[Label, int] = {}  # P(U = u | Y = y) * after_scale * row_scale
    for x, row in rows.items():
        weight = prior[x].numerator * (prior_scale // prior[x].denominator)
        weight_after = after[x].numerator * (after_scale // after[x].denominator)
        for u, p in row.items():
            share = p.numerator * (row_scale // p.denominator)
            before[u] = before.get(u, 0) + weight * share
            given[u] = given.get(u, 0) + weight_after * share
    return Fraction(max(given.values()) * prior_scale, max(before.values()) * after_scale)


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


# --- attributes, disclosure and singling out (§3.2–3.3) ------------------------------------
def attribute_law(
    attribute: Mechanism, weights: Distribution | Mapping[Label, Fraction]
) -> dict[Label, Fraction]:
    """P_U = P_{U|X} ∘ ``weights``: u -> Σ_x weights(x) p(u|x), every u of the attribute
    (``weights`` the prior P_X, or the posterior P_{X|Y=y} for P_{U|Y=y})."""
    return {
        u: sum(
            (Fraction(weights[x]) * attribute.probability(x, u) for x in attribute.inputs),
            Fraction(0),
        )
        for u in attribute.outputs
    }


def attribute_posterior(
    mechanism: Mechanism, prior: Distribution, y: Label, attribute: Mechanism | None = None
) -> dict[Label, Fraction]:
    """P_{U|Y=y} (U = X when ``attribute`` is None) by Bayes' rule and the Markov chain
    U - X - Y; the prior law of U when p_Y(y) = 0 (footnote 5)."""
    after = posterior(mechanism, prior, y)
    return after if attribute is None else attribute_law(attribute, after)


def certainty(law: Mapping[Label, Fraction] | Distribution) -> Fraction:
    """max_u p(u) = exp(-H_inf) (Def 2.1: H_inf = -log max_u p(u))."""
    return max(
        Fraction(p) for p in (law.probabilities if isinstance(law, Distribution) else law.values())
    )


def posterior_certainty(
    mechanism: Mechanism, prior: Distribution, y: Label, attribute: Mechanism | None = None
) -> Fraction:
    """max_u P(U = u | Y = y) = exp(-H_inf(P_{U|Y=y})), footnote 5 at p_Y(y) = 0."""
    return certainty(attribute_posterior(mechanism, prior, y, attribute))


def discloses(mechanism: Mechanism, attribute: Mechanism, adversary: Distribution) -> bool:
    """Def 3.3 for finite Y: inf_y H_inf(Q_{U|Y=y}) = 0, i.e. some output (of positive mass,
    or of mass 0 when U is already constant under Q_X: footnote 5) makes the adversary's
    posterior of U a point mass."""
    return any(
        posterior_certainty(mechanism, adversary, y, attribute) == 1 for y in mechanism.outputs
    )


def singles_out(mechanism: Mechanism, prior: Distribution) -> bool:
    """Def 3.9 for finite Y: inf_y H_inf(P_{X|Y=y}) = 0 (some posterior of X is a point mass)."""
    return any(posterior_certainty(mechanism, prior, y) == 1 for y in mechanism.outputs)


# --- (ε, P_X)-PML, Def 2.6 -------------------------------------------------------------------
def max_pml_ratio(mechanism: Mechanism, prior: Distribution) -> Fraction:
    """exp of max over y with p_Y(y) > 0 of l(X->y) (Def 2.6, form (iii)); 1 if no such y."""
    return max(
        (
            pml_ratio(mechanism, prior, y)
            for y in mechanism.outputs
            if output_mass(mechanism, prior, y)
        ),
        default=Fraction(1),
    )


def mass_within(mechanism: Mechanism, prior: Distribution, bound: Fraction) -> Fraction:
    """P_Y({y : exp l(X->y) <= bound}) (Def 2.6, form (i) with e^ε = ``bound``)."""
    return sum(
        (
            output_mass(mechanism, prior, y)
            for y in mechanism.outputs
            if pml_ratio(mechanism, prior, y) <= bound
        ),
        Fraction(0),
    )


def joint_divergence_ratio(
    mechanism: Mechanism, prior: Distribution, *, reversed_: bool = False
) -> Ratio:
    """exp D_inf(P_XY ‖ P_X × P_Y) (Def 2.2: the largest density ratio over the pairs (x, y)
    of positive joint mass), Def 2.6's form (ii).  With ``reversed_`` the divergence of the
    product from the joint, D_inf(P_X × P_Y ‖ P_XY) (a mutant; +∞ is ``None``)."""
    best = Fraction(0)
    for y in mechanism.outputs:
        mass = output_mass(mechanism, prior, y)
        for x in prior.outcomes:
            joint = prior[x] * mechanism.probability(x, y)
            product = prior[x] * mass
            first, second = (product, joint) if reversed_ else (joint, product)
            if first == 0:
                continue
            if second == 0:
                return None
            best = max(best, first / second)
    return best


# --- database entries (§4) -------------------------------------------------------------------
def entry_pml_terms(
    mechanism: Mechanism,
    prior: Mapping[Any, Any],
    y: Label,
    entry: int,
    rest: tuple[Label, ...] | None = None,
) -> list[Any]:
    """The ratios P(D_i = d | Y = y [, D_-i = rest]) / P(D_i = d [| D_-i = rest]), one per value
    d of positive prior mass: exp l(D_i->y) (or the conditional l(D_i->y | d_-i) of Def 2.5)
    is their maximum.  Inputs are database tuples; ``prior`` maps each database to its mass,
    rationals or sympy expressions in a parameter (plain sums and quotients only, so that a
    limit can be taken term by term).  An empty list when p_Y(y) = 0 given the condition
    (footnote 5: the leakage is then 0)."""
    databases = [
        x
        for x in mechanism.inputs
        if rest is None or x[:entry] + x[entry + 1 :] == rest  # type: ignore[index]
    ]
    values = list(dict.fromkeys(x[entry] for x in databases))  # type: ignore[index]
    before = {d: sum((prior[x] for x in databases if x[entry] == d), 0) for d in values}  # type: ignore[index]
    joint = {
        d: sum((prior[x] * mechanism.probability(x, y) for x in databases if x[entry] == d), 0)  # type: ignore[index]
        for d in values
    }
    total_before = sum(before.values(), 0)
    total_joint = sum(joint.values(), 0)
    if total_joint == 0:
        return []
    return [
        (joint[d] / total_joint) / (before[d] / total_before)
        for d in values
        if not (isinstance(before[d], (int, Fraction)) and before[d] == 0)
    ]


def entry_pml_ratio(
    mechanism: Mechanism,
    prior: Mapping[Any, Fraction],
    y: Label,
    entry: int,
    rest: tuple[Label, ...] | None = None,
) -> Fraction:
    """exp l(D_i->y), or exp l(D_i->y | d_-i) with ``rest``, for a rational prior."""
    return max(
        (Fraction(term) for term in entry_pml_terms(mechanism, prior, y, entry, rest)),
        default=Fraction(1),
    )


def is_product_prior(prior: Mapping[Any, Any], n: int) -> bool:
    """Whether the prior on n-tuples is the product of its n entry marginals: P(x) =
    Π_i P(D_i = x_i) for every database x (a product prior of Thm 4.2, 𝒬_X)."""
    marginals: list[dict[Label, Fraction]] = [{} for _ in range(n)]
    for x, p in prior.items():
        for i in range(n):
            marginals[i][x[i]] = marginals[i].get(x[i], Fraction(0)) + Fraction(p)
    for x, p in prior.items():
        product = Fraction(1)
        for i in range(n):
            product *= marginals[i][x[i]]
        if product != p:
            return False
    return True


# --- sums of the binomial law (Example 3.11) -------------------------------------------------
def binomial_lower_tail(n: int, m: int, p: Fraction) -> Fraction:
    """P(S <= m) for S ~ Bin(n, p): Σ_{k=0}^{m} C(n, k) p^k (1-p)^(n-k) (0 for m < 0),
    summed over the common denominator d^n of p = a/d (integers only): with b = d - a,
    Σ_{k<=m} C(n, k) a^k b^(m-k) by Horner's rule in b (every step multiplies by a small
    integer: 0.02 s for Figure 1's y = 0 tails up to n = 2000, against 0.13 s with the
    products C(n, k) a^k b^(n-k) formed term by term; measured), times b^(n-m)."""
    a, d = p.numerator, p.denominator
    b = d - a
    top = min(m, n)
    if top < 0:
        return Fraction(0)
    total, term = 0, 1  # total = Σ_{k<j} C(n, k) a^k b^(j-1-k); term = C(n, j) a^j
    for k in range(top + 1):
        total = total * b + term
        term = term * (n - k) // (k + 1) * a  # C(n, k) (n - k) = C(n, k + 1) (k + 1)
    return Fraction(total * b ** (n - top), d**n)


def ratio_at_most_exp(ratio: Fraction, exponent: Fraction) -> bool:
    """``ratio <= e^exponent`` for rationals ``ratio`` and ``exponent >= 0``, decided exactly.

    e^q = Σ_k q^k/k! is squeezed between its partial sums S_N and S_N + q^{N+1}/(N+1)! ·
    (N+2)/(N+2-q) (a geometric bound on the tail) until ``ratio`` falls outside; e^q is
    irrational for rational q != 0 (Lindemann), so this ends.  Plain ``Fraction`` arithmetic.
    """
    if exponent < 0:
        raise ValueError(f"exponent={exponent} must be >= 0")
    if exponent == 0:
        return ratio <= 1
    partial, term, k = Fraction(1), Fraction(1), 0
    while True:
        k += 1
        term = term * exponent / k
        partial += term
        if k + 2 <= exponent:
            continue
        tail = term * exponent / (k + 1) * Fraction(k + 2) / (k + 2 - exponent)
        if ratio <= partial:
            return True
        if ratio >= partial + tail:
            return False
