"""Quantitative information flow by enumeration, from the definitions (plain ``Fraction``).

Sources: Alvim, Chatzikokolakis, McIver, Morgan, Palamidessi, Smith, *The Science of
Quantitative Information Flow* (2020): vulnerabilities (Chapters 2-3), posterior
vulnerability as the expectation of the vulnerability over the hyper-distribution
[π▷C] (Chapters 4 and 5), leakage (Chapter 5), capacities (Chapter 7);
Issa, Wagner, Kamath 2020, Def 1; Cover & Thomas, Chapter 2.

No code is shared with :mod:`exactpml.qif`: the posterior vulnerabilities here go through
the posterior distributions (the inners of the hyper-distribution) and their weights (the
outer), not through the column-maximum formula; the additive Bayes capacity is a maximum
over every vertex of the arrangement of hyperplanes on which the leakage is linear, not
over sub-uniform priors.  Entropies are lists of terms ``(c, a)`` meaning ``c log a``.

A kernel is given as an exactpml ``Mechanism`` (only its ``inputs``, ``outputs`` and
``rows`` are read), a prior as a ``Distribution`` (read with ``items()``), a gain function
as ``{guess: {secret: gain}}`` (a ``GainFunction``'s ``as_dict()``).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any

__all__ = [
    "additive_bayes_capacity_by_vertices",
    "bayes_vulnerability",
    "canonical_logs",
    "cascade_table",
    "conditional_entropy_terms",
    "entropy_terms",
    "g_vulnerability",
    "guessing_ratio",
    "hyper_distribution",
    "is_farkas_certificate",
    "marginal_table",
    "maximal_leakage_ratio",
    "mutual_information_terms",
    "posterior_bayes_vulnerability",
    "posterior_g_vulnerability",
    "sibson_by_divergence",
    "solve",
    "splitting_attribute",
]

Terms = list[tuple[Fraction, Fraction]]
"""``[(c, a), ...]`` standing for Σ c log a (natural logarithms)."""


def _prior(prior: Any) -> dict[Hashable, Fraction]:
    return {x: Fraction(p) for x, p in prior.items()}


def _kernel(mechanism: Any) -> dict[Hashable, dict[Hashable, Fraction]]:
    return {
        x: {y: Fraction(v) for y, v in zip(mechanism.outputs, row, strict=True)}
        for x, row in zip(mechanism.inputs, mechanism.rows, strict=True)
    }


def bayes_vulnerability(prior: Any) -> Fraction:
    """V_1(π) = max_x π(x)."""
    return max(_prior(prior).values())


def g_vulnerability(prior: Any, gains: Mapping[Hashable, Mapping[Hashable, Any]]) -> Fraction:
    """V_g(π) = max_w Σ_x π(x) g(w, x) (a secret a guess omits has gain 0)."""
    pi = _prior(prior)
    return max(
        sum((pi[x] * Fraction(row.get(x, 0)) for x in pi), Fraction(0)) for row in gains.values()
    )


def hyper_distribution(
    mechanism: Any, prior: Any
) -> list[tuple[Fraction, dict[Hashable, Fraction]]]:
    """[π▷C]: pairs (outer probability p(y) > 0, inner posterior p(·|y)), output by output.

    (Outputs with equal posteriors are not merged: the expectations below do not need it.)
    """
    pi = _prior(prior)
    kernel = _kernel(mechanism)
    hyper = []
    for y in mechanism.outputs:
        joint = {x: pi[x] * kernel[x][y] for x in pi}
        outer = sum(joint.values(), Fraction(0))
        if outer == 0:
            continue
        hyper.append((outer, {x: joint[x] / outer for x in joint}))
    return hyper


def posterior_bayes_vulnerability(mechanism: Any, prior: Any) -> Fraction:
    """V_1[π▷C] = Σ_{inners δ} outer(δ) max_x δ(x)."""
    return sum(
        (outer * max(inner.values()) for outer, inner in hyper_distribution(mechanism, prior)),
        Fraction(0),
    )


def posterior_g_vulnerability(
    mechanism: Any, prior: Any, gains: Mapping[Hashable, Mapping[Hashable, Any]]
) -> Fraction:
    """V_g[π▷C] = Σ_{inners δ} outer(δ) V_g(δ)."""
    return sum(
        (
            outer * g_vulnerability(inner, gains)
            for outer, inner in hyper_distribution(mechanism, prior)
        ),
        Fraction(0),
    )


# --- entropies (Cover & Thomas, Chapter 2) -------------------------------------------------


def entropy_terms(probabilities: Sequence[Fraction]) -> Terms:
    """H(p) = Σ_{p_i > 0} p_i log(1/p_i)."""
    return [(p, 1 / p) for p in map(Fraction, probabilities) if p > 0]


def conditional_entropy_terms(mechanism: Any, prior: Any) -> Terms:
    """H(X|Y) = Σ_y p(y) H(X | Y = y), over the posteriors."""
    terms: Terms = []
    for outer, inner in hyper_distribution(mechanism, prior):
        terms.extend((outer * c, a) for c, a in entropy_terms(list(inner.values())))
    return terms


def mutual_information_terms(mechanism: Any, prior: Any) -> Terms:
    """I(X;Y) = D(P_XY || P_X × P_Y) = Σ p(x, y) log(p(x, y) / (p(x) p(y)))."""
    pi = _prior(prior)
    kernel = _kernel(mechanism)
    output = {y: sum((pi[x] * kernel[x][y] for x in pi), Fraction(0)) for y in mechanism.outputs}
    terms: Terms = []
    for x in pi:
        for y in mechanism.outputs:
            joint = pi[x] * kernel[x][y]
            if joint > 0:
                terms.append((joint, joint / (pi[x] * output[y])))
    return terms


# --- additive Bayes capacity by vertex enumeration ----------------------------------------


def solve(matrix: list[list[Fraction]], right: list[Fraction]) -> list[Fraction] | None:
    """The unique solution of a square linear system (Gauss-Jordan), or None if singular."""
    size = len(matrix)
    rows = [[*map(Fraction, row), Fraction(b)] for row, b in zip(matrix, right, strict=True)]
    for column in range(size):
        pivot = next((r for r in range(column, size) if rows[r][column] != 0), None)
        if pivot is None:
            return None
        rows[column], rows[pivot] = rows[pivot], rows[column]
        head = rows[column][column]
        rows[column] = [v / head for v in rows[column]]
        for r in range(size):
            if r != column and rows[r][column] != 0:
                factor = rows[r][column]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column], strict=True)]
    return [row[-1] for row in rows]


def additive_bayes_capacity_by_vertices(mechanism: Any) -> Fraction:
    """max_π V_1[π▷C] - V_1(π), over every vertex of the hyperplane arrangement.

    f(π) = Σ_y max_x π(x) C(x, y) - max_x π(x) is linear on each cell of the arrangement of
    the hyperplanes π(x) C(x, y) = π(x') C(x', y), π(x) = π(x') and π(x) = 0 inside the
    simplex; each cell is a polytope, so f's maximum is attained at a vertex: a point where
    n - 1 independent hyperplanes meet the plane Σ π = 1.  Exponential; for n <= 4.
    """
    kernel = _kernel(mechanism)
    inputs = list(mechanism.inputs)
    n = len(inputs)
    hyperplanes: list[list[Fraction]] = []
    for i in range(n):
        hyperplanes.append([Fraction(int(k == i)) for k in range(n)])
    for i, j in itertools.combinations(range(n), 2):
        hyperplanes.append([Fraction((k == i) - (k == j)) for k in range(n)])
        for y in mechanism.outputs:
            a, b = kernel[inputs[i]][y], kernel[inputs[j]][y]
            hyperplanes.append([a if k == i else -b if k == j else Fraction(0) for k in range(n)])
    unique = {tuple(h) for h in hyperplanes if any(h)}
    best = Fraction(0)
    for chosen in itertools.combinations(sorted(unique), n - 1):
        system = [list(h) for h in chosen] + [[Fraction(1)] * n]
        point = solve(system, [Fraction(0)] * (n - 1) + [Fraction(1)])
        if point is None or min(point) < 0:
            continue
        posterior = sum(
            (max(point[k] * kernel[inputs[k]][y] for k in range(n)) for y in mechanism.outputs),
            Fraction(0),
        )
        best = max(best, posterior - max(point))
    return best


# --- an exact canonical form for Σ c log a -------------------------------------------------


def canonical_logs(terms: Terms) -> dict[int, Fraction]:
    """Σ c log a as ``{prime p: e_p}`` with Σ c log a = Σ e_p log p (zero exponents dropped).

    Logs of distinct primes are linearly independent over the rationals (unique
    factorisation), so two such sums are equal exactly when their canonical forms are equal.
    """
    from sympy import factorint

    exponents: dict[int, Fraction] = {}
    for coefficient, argument in terms:
        value = Fraction(argument)
        for number, sign in ((value.numerator, 1), (value.denominator, -1)):
            for prime, power in factorint(number).items():
                exponents[int(prime)] = exponents.get(int(prime), Fraction(0)) + (
                    sign * int(power) * Fraction(coefficient)
                )
    return {p: e for p, e in exponents.items() if e != 0}


# --- channel algebra ------------------------------------------------------------------------


def cascade_table(channel: Any, post: Any) -> dict[Hashable, dict[Hashable, Fraction]]:
    """(C R)(x, z) = Σ_y C(x, y) R(y, z), as ``{x: {z: p}}``."""
    c, r = _kernel(channel), _kernel(post)
    return {
        x: {z: sum((c[x][y] * r[y][z] for y in channel.outputs), Fraction(0)) for z in post.outputs}
        for x in channel.inputs
    }


def marginal_table(mechanism: Any, index: int) -> dict[Hashable, dict[Hashable, Fraction]]:
    """x -> y[index]: the probabilities of the outputs with the same coordinate, summed."""
    table: dict[Hashable, dict[Hashable, Fraction]] = {}
    for x, row in _kernel(mechanism).items():
        table[x] = {}
        for y, p in row.items():
            part = y[index]  # type: ignore[index]
            table[x][part] = table[x].get(part, Fraction(0)) + p
    return table


def is_farkas_certificate(
    channel: Any,
    other: Any,
    equation_weights: Mapping[tuple[Hashable, Hashable], Fraction],
    row_weights: Mapping[Hashable, Fraction],
) -> bool:
    """True when the weights prove that no channel R has D = C R.

    For r >= 0 with Σ_y C(x, y) R(y, z) = D(x, z) and Σ_z R(y, z) = 1, the weighted sum of
    the equations gives Σ_{y,z} R(y, z) (Σ_x u(x, z) C(x, y) + v(y)) = Σ u D + Σ v; a left
    side <= 0 (every bracket <= 0) and a right side > 0 cannot both hold.
    """
    c, d = _kernel(channel), _kernel(other)
    for y in channel.outputs:
        for z in other.outputs:
            column = sum((equation_weights[(x, z)] * c[x][y] for x in channel.inputs), Fraction(0))
            if column + row_weights[y] > 0:
                return False
    total = sum(
        (equation_weights[(x, z)] * d[x][z] for x in channel.inputs for z in other.outputs),
        Fraction(0),
    ) + sum((row_weights[y] for y in channel.outputs), Fraction(0))
    return total > 0


# --- Sibson's α-mutual information and the guessing ratio ------------------------------------


def sibson_by_divergence(mechanism: Any, prior: Any, alpha: Fraction) -> Any:
    """Sibson's I_α = min_Q D_α(P_XY || P_X × Q) at its minimiser Q* (Sibson 1969), as sympy.

    Q*(y) ∝ (Σ_x π(x) C(x, y)^α)^{1/α}; D_α(P || R) = log(Σ P^α R^{1-α}) / (α - 1).  The same
    number as the closed form α/(α-1) log Σ_y (...)^{1/α}, written the other way.
    """
    import sympy

    a = sympy.Rational(alpha.numerator, alpha.denominator)
    pi = _prior(prior)
    kernel = _kernel(mechanism)

    def r(value: Fraction) -> Any:
        return sympy.Rational(value.numerator, value.denominator)

    tilted = {
        y: sympy.Add(*(r(pi[x]) * r(kernel[x][y]) ** a for x in pi)) ** (1 / a)
        for y in mechanism.outputs
    }
    norm = sympy.Add(*tilted.values())
    total = sympy.Add(
        *(
            (r(pi[x]) * r(kernel[x][y])) ** a * (r(pi[x]) * tilted[y] / norm) ** (1 - a)
            for x in pi
            for y in mechanism.outputs
            if pi[x] * kernel[x][y] > 0
        )
    )
    return sympy.log(total) / (a - 1)


def maximal_leakage_ratio(mechanism: Any, prior: Any | None = None) -> Fraction:
    """Σ_y max_{x ∈ supp π} C(x, y) (Issa, Wagner, Kamath 2020, Thm 1); all x without a prior."""
    kernel = _kernel(mechanism)
    support = [x for x in mechanism.inputs if prior is None or Fraction(prior[x]) > 0]
    return sum((max(kernel[x][y] for x in support) for y in mechanism.outputs), Fraction(0))


def guessing_ratio(mechanism: Any, prior: Any, attribute: Any) -> Fraction:
    """P[Û(Y) = U] / max_u P(u) for U - X - Y (Def 1), through the joint law of (U, Y)."""
    pi = _prior(prior)
    kernel = _kernel(mechanism)
    channel = _kernel(attribute)
    joint: dict[tuple[Hashable, Hashable], Fraction] = {}
    for x in pi:
        for u in attribute.outputs:
            for y in mechanism.outputs:
                joint[(u, y)] = (
                    joint.get((u, y), Fraction(0)) + pi[x] * channel[x][u] * kernel[x][y]
                )
    blind = max(
        sum((joint[(u, y)] for y in mechanism.outputs), Fraction(0)) for u in attribute.outputs
    )
    informed = sum(
        (max(joint[(u, y)] for u in attribute.outputs) for y in mechanism.outputs), Fraction(0)
    )
    return informed / blind


def splitting_attribute(prior: Any) -> dict[Hashable, dict[Hashable, Fraction]]:
    """U with P_{U|X=x} uniform on π(x)·K labels (x, i) (K the common denominator of π):
    U is uniform and X a function of U, so P[Û(Y) = U] / max_u P(u) = Σ_y max_{supp} C(x, y)."""
    import math

    pi = _prior(prior)
    common = math.lcm(*(p.denominator for p in pi.values()))
    rows: dict[Hashable, dict[Hashable, Fraction]] = {}
    for x, p in pi.items():
        count = int(p * common)
        rows[x] = (
            {(x, i): Fraction(1, count) for i in range(count)}
            if count
            else {("none", x): Fraction(1)}
        )
    return rows
