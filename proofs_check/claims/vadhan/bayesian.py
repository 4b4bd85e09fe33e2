"""§4 of Vadhan's notes: the Bayesian reading of DP (checks ``vadhan.prop_1``, ``vadhan.prop_2``).

The distances between a prior on X_i and its posterior given an output depend on the prior
only through the law of p_d = Pr[M(d, x_{-i}) = y] (``law_of_column``), which the checks
use to find the least ε meeting Prop 2's hypothesis for total variation, Hellinger and KL.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import sympy
from hypothesis import strategies as st

from exactpml import strategies as xst
from exactpml.core.exact import to_sympy
from exactpml.errors import Undecided
from exactpml.leakage import renyi_divergence_inf, total_variation
from proofs_check import CheckContext, Evidence, check, property_holds
from proofs_check.claims.vadhan._common import (
    Vector,
    distribution,
    fewer,
    infinite,
    library_ratio,
    nonnegative,
    positive,
    tables,
)
from proofs_check.reference import (
    Ratio,
    Surd,
    Table,
    divergence_ratio_by_points,
    law_of_column,
    prior_posterior_distances,
    ratio_at_most,
    sqrt_surd,
    surd,
    table_dp_ratio,
    total_variation_surd,
)

__all__ = ["prop_1", "prop_2"]


# --- vadhan.prop_1 -------------------------------------------------------------------------
@st.composite
def _bayes_instances(draw: st.DrawFn) -> tuple[Table, int, tuple[int, ...], Vector]:
    """A mechanism, a row i, the rest x_{-i} and a prior on X_i (zeros allowed)."""
    table = draw(tables())
    i = draw(st.integers(0, table.size - 1))
    others = tuple(
        draw(
            st.lists(
                st.integers(0, table.letters - 1), min_size=table.size - 1, max_size=table.size - 1
            )
        )
    )
    prior = tuple(draw(xst.probability_vectors(table.letters)))
    return table, i, others, prior


@check("vadhan.prop_1", mutants={"half_epsilon": "the bound ε/2 instead of ε"})
def prop_1(ctx: CheckContext) -> list[Evidence]:
    """vadhan.prop_1 — Vadhan §4, Proposition 1.

    Statement: if M is ε-DP then for every x, i, prior X_i on D and output y of positive
    probability, D∞(X_i || X_i | M(X_i, x_{-i}) = y) <= ε and D∞(X_i | y || X_i) <= ε.

    P: on random database mechanisms (zeros allowed), rows i, rests x_{-i} and priors (zeros
    allowed): with ε = ε_DP of exactpml (checked against the neighbourhood maximum), the
    posterior from Bayes' rule, and D∞ both ways by exactpml's ``renyi_divergence_inf``
    (checked against the maximum over points): both <= ε, for every output y with
    Pr[y] > 0.
    """
    half = ctx.mutant == "half_epsilon"

    def within(divergence: Ratio, r: Ratio) -> bool:
        if half and r is not None:
            return divergence is not None and divergence * divergence <= r
        return ratio_at_most(divergence, r)

    def holds(instance: tuple[Table, int, tuple[int, ...], Vector]) -> bool:
        table, i, others, prior = instance
        r = table_dp_ratio(table)
        if library_ratio(table) != r:
            return False
        members = [(*others[:i], d, *others[i:]) for d in range(table.letters)]
        rows = [table.row(x) for x in members]
        for y in range(table.outputs):
            mass = sum((w * row[y] for w, row in zip(prior, rows, strict=True)), Fraction(0))
            if mass == 0:
                continue
            posterior = tuple(w * row[y] / mass for w, row in zip(prior, rows, strict=True))
            for p, q in ((prior, posterior), (posterior, prior)):
                library = renyi_divergence_inf(distribution(p), distribution(q))
                value = None if library.is_infinite else Fraction(library.ratio)
                if value != divergence_ratio_by_points(p, q) or not within(value, r):
                    return False
        return True

    return [
        property_holds(
            ctx,
            _bayes_instances(),
            holds,
            describe=(
                "D∞ between prior and posterior <= ε/2 (mutant)"
                if half
                else "ε-DP ⇒ D∞(prior||posterior) <= ε and D∞(posterior||prior) <= ε"
            ),
            explain=lambda instance: f"e^ε_DP = {infinite(table_dp_ratio(instance[0]))}",
            examples=fewer(ctx, 2),
        )
    ]


# --- vadhan.prop_2 -------------------------------------------------------------------------
def _optimal_weight(name: str, high: Fraction, low: Fraction) -> Any:
    """The weight on the largest p_d of the two-point prior that maximises a distance.

    TV and Hellinger: 1/(1+√R), R = high/low; KL: (L - low)/(high - low), with L = (high -
    low)/log R the logarithmic mean.  Derived by hand: a distance between prior and
    posterior depends on the prior only through the law of p_d (``law_of_column``) and only
    grows when that law is spread to the extreme values; these weights maximise the
    remaining one-variable function.  The property ``sup over priors`` checks it.
    """
    big, small = to_sympy(high), to_sympy(low)
    with sympy.evaluate(False):
        if name == "KL":
            mean = (big - small) / sympy.log(big / small)
            return (mean - small) / (big - small)
        return 1 / (1 + sympy.sqrt(big / small))


def _least_tv(r: Fraction) -> Surd:
    """The least ε with Δ(prior, posterior) <= ε for all priors, column ratio r: exact.

    Δ at the optimal prior (weight 1/(1+√r) on the larger value), computed from the
    definition in Q(√r); it equals (√r-1)/(√r+1) = tanh(log r / 4).
    """
    one = surd(Fraction(1), r)
    weight = one / (one + sqrt_surd(r))
    return total_variation_surd((r, Fraction(1)), (weight, one - weight))


def _least_epsilons(r: Fraction) -> dict[str, sympy.Expr]:
    """The same least ε for the squared Hellinger distance and KL(prior||posterior)."""
    result = {}
    for name in ("Hellinger²", "KL"):
        weight = _optimal_weight(name, r, Fraction(1))
        with sympy.evaluate(False):
            prior = (weight, 1 - weight)
        result[name] = prior_posterior_distances((r, Fraction(1)), prior)[name]
    return result


def _remark_bound(name: str, epsilon: sympy.Expr, *, kl_halved: bool) -> sympy.Expr | None:
    """(1+g)/(1-g) with g(ε) = sup{|γ| : d(Bern(1/2), Bern((1+γ)/2)) <= ε}; None when g = 1.

    Derived by hand.  Hellinger distance H <= ε: the affinity (√(1+γ) + √(1-γ))/2 must be
    >= c = 1 - ε² (``epsilon`` here is H² = 1 - c), so g = sqrt(1 - (2c² - 1)²) when
    2c² > 1, else g = 1.  KL(Bern(1/2) || Bern((1+γ)/2)) = -½ log(1 - γ²) <= ε gives
    g = sqrt(1 - e^{-2ε}).  (Total variation: Δ = |γ|/2, g = 2ε: Prop 2 itself.)
    """
    with sympy.evaluate(False):
        if name == "Hellinger²":
            c = 1 - epsilon
            inner = 2 * c**2 - 1
            above = positive(inner)
            if above is None:
                raise Undecided(f"cannot decide the sign of 2c² - 1 = {inner}")
            if not above:
                return None
            g = sympy.sqrt(1 - inner**2)
        else:
            g = sympy.sqrt(1 - sympy.exp(-epsilon if kl_halved else -2 * epsilon))
        return (1 + g) / (1 - g)


def _ceil_sqrt(value: Fraction, denominator: int) -> Fraction:
    """The least k/denominator >= √value."""
    target = value * denominator * denominator  # k² >= target
    k = math.isqrt(math.ceil(target))
    while k * k < target:
        k += 1
    while k > 0 and (k - 1) * (k - 1) >= target:
        k -= 1
    return Fraction(k, denominator)


@st.composite
def _columns_with_priors(draw: st.DrawFn) -> tuple[Vector, Vector]:
    """A positive column (Pr[M(d, x_{-i}) = y] for d in D) and a prior on D (zeros allowed)."""
    size = draw(st.integers(2, 4))
    values = st.fractions(min_value=0, max_value=1, max_denominator=30).filter(lambda v: v > 0)
    column = tuple(draw(st.lists(values, min_size=size, max_size=size)))
    prior = tuple(draw(xst.probability_vectors(size)))
    return column, prior


def _sup_holds(instance: tuple[Vector, Vector]) -> bool | None:
    """Every distance at this prior is at most its value at the optimal two-point prior."""
    column, prior = instance
    law = law_of_column(column, prior)
    if len(law) == 1:
        return True  # the posterior is the prior: every distance is 0
    high, low = max(column), min(column)
    # total variation, exactly in Q(√R)
    ratio = high / low
    one = surd(Fraction(1), ratio)
    weight = one / (one + sqrt_surd(ratio))
    best_tv = total_variation_surd((high, low), (weight, one - weight))
    tv = total_variation_surd(column, [surd(w, ratio) for w in prior])
    if (best_tv - tv).sign() < 0:
        return False
    # Hellinger² and KL, certified; the optimum itself is recognised through the law
    optimal_law = set(law) <= {high, low} and weight.b == 0 and law.get(high) == weight.a
    decided = True
    values = prior_posterior_distances(column, prior)
    for name in ("Hellinger²", "KL"):
        if name == "Hellinger²" and optimal_law:
            continue  # same law as the optimal prior: the same value
        best_weight = _optimal_weight(name, high, low)
        with sympy.evaluate(False):
            best = prior_posterior_distances((high, low), (best_weight, 1 - best_weight))[name]
            verdict = nonnegative(best - values[name])
        if verdict is False:
            return False
        decided = decided and verdict is True
    return True if decided else None


@check(
    "vadhan.prop_2",
    mutants={
        "one_plus_epsilon": "e^{ε'} <= (1+ε)/(1-ε) instead of (1+2ε)/(1-2ε)",
        "source_ratio": "the proof's ratio Pr[M(x')=y]/Pr[M(x)=y] equals (1+γ)/(1-γ) as written",
        "kl_halved": "the Remark for KL with g(ε) = sqrt(1 - e^{-ε}) instead of sqrt(1 - e^{-2ε})",
    },
)
def prop_2(ctx: CheckContext) -> list[Evidence]:
    """vadhan.prop_2 — Vadhan §4, Proposition 2 and the Remark after it.

    Statement: for ε < 1/2, if Δ(X_i, X_i | M(X_i, x_{-i}) = y) <= ε for every x, i, prior
    and y, then M is ε'-DP with e^{ε'} <= (1+2ε)/(1-2ε).  Remark: for any distance d with
    d(Bern(1/2), Bern((1+γ)/2)) <= ε ⇒ |γ| <= g(ε), the same hypothesis gives
    e^{ε'} <= (1+g)/(1-g); checked for total variation, Hellinger and KL(prior||posterior).

    P (sup over priors): the least ε meeting the hypothesis for one neighbourhood column is
    the distance at an explicit two-point prior (``_optimal_weight``).  On random positive
    columns and priors the distance never exceeds it: exact in Q(√R) for TV (where it is
    (√R-1)/(√R+1) = tanh(log R / 4), R = the column's max/min), certified for Hellinger and
    KL.

    P (Prop 2): on random database mechanisms with r = e^{ε_DP} (maximum over
    neighbourhoods, checked against exactpml): at ε = the least ε meeting the hypothesis
    (exact in Q(√r)) and at a random rational ε above it, whenever ε < 1/2:
    r <= (1+2ε)/(1-2ε).  Sharper (found here): r = ((1+ε)/(1-ε))² at the least ε.

    P (Remark): on the same mechanisms, for Hellinger and KL at the least ε meeting the
    hypothesis: r <= (1+g(ε))/(1-g(ε)) with g derived in ``_remark_bound`` (certified;
    vacuous where g = 1); for TV, g = 2ε is Prop 2 itself.

    P (the proof's algebra): with the uniform prior on {x_i, x'_i} and γ defined by
    Pr[X_i = x_i | y] = (1+γ)/2: Pr[M(x')=y]/Pr[M(x)=y] = (1-γ)/(1+γ) and Δ = |γ|/2,
    exactly.  The source writes (1+γ)/(1-γ) and γ/2: a harmless slip, since |γ| <= 2ε bounds
    both ratios.
    """
    mutant = ctx.mutant

    def prop_bound(epsilon: Fraction) -> Fraction:
        if mutant == "one_plus_epsilon":
            return (1 + epsilon) / (1 - epsilon)
        return (1 + 2 * epsilon) / (1 - 2 * epsilon)

    def prop_holds(instance: tuple[Table, int]) -> bool:
        table, denominator = instance
        r = table_dp_ratio(table)
        if library_ratio(table) != r:
            return False
        if r is None:
            return True  # Δ's supremum is 1: no ε < 1/2 meets the hypothesis
        least = _least_tv(r)
        half, one, two = (surd(Fraction(value), r) for value in ("1/2", 1, 2))
        if (half - least).sign() <= 0:
            return True  # the hypothesis needs ε >= 1/2
        if mutant == "one_plus_epsilon":
            bound = (one + least) / (one - least)
        else:
            bound = (one + two * least) / (one - two * least)
        if (bound - surd(r, r)).sign() < 0:
            return False
        sharp = (one + least) / (one - least)
        if (sharp * sharp - surd(r, r)).sign() != 0:
            return False  # the sharper form found here: r = ((1+ε)/(1-ε))² at the least ε
        # a rational ε >= the least one: ε = (q-1)/(q+1) with q >= √r, so ((1+ε)/(1-ε))² >= r
        q = _ceil_sqrt(r, denominator)
        epsilon = (q - 1) / (q + 1)
        return epsilon >= Fraction(1, 2) or r <= prop_bound(epsilon)

    def remark_holds(table: Table) -> bool | None:
        r = table_dp_ratio(table)
        if r is None or r == 1:
            return True  # r = ∞: no finite ε meets the hypothesis; r = 1: every d is 0
        decided = True
        for name, epsilon in _least_epsilons(r).items():
            bound = _remark_bound(name, epsilon, kl_halved=mutant == "kl_halved")
            if bound is None:
                continue
            with sympy.evaluate(False):
                verdict = nonnegative(bound - to_sympy(r))
            if verdict is False:
                return False
            decided = decided and verdict is True
        return True if decided else None

    def algebra_holds(pair: tuple[Fraction, Fraction]) -> bool:
        here, there = pair  # Pr[M(x) = y] > 0 and Pr[M(x') = y]
        prior = (Fraction(1, 2), Fraction(1, 2))
        posterior = (here / (here + there), there / (here + there))
        gamma = 2 * posterior[0] - 1
        # Pr[M(x')=y]/Pr[M(x)=y] = (1-γ)/(1+γ), compared cross-multiplied (γ may be ±1)
        top, bottom = (1 + gamma, 1 - gamma) if mutant == "source_ratio" else (1 - gamma, 1 + gamma)
        distance = total_variation(distribution(prior), distribution(posterior))
        return there * bottom == here * top and distance == abs(gamma) / 2

    def algebra_explain(pair: tuple[Fraction, Fraction]) -> str:
        here, there = pair
        gamma = 2 * here / (here + there) - 1
        return f"Pr[M(x)=y] = {here}, Pr[M(x')=y] = {there}, γ = {gamma}"

    def prop_explain(instance: tuple[Table, int]) -> str:
        table, denominator = instance
        r = table_dp_ratio(table)
        if r is None:
            return "e^ε_DP = oo"
        q = _ceil_sqrt(r, denominator)
        least = _least_tv(r).to_sympy()
        return f"e^ε_DP = {r}; least ε = {least}; rational ε = {(q - 1) / (q + 1)}"

    masses = st.fractions(min_value=0, max_value=1, max_denominator=50)
    return [
        property_holds(
            ctx,
            _columns_with_priors(),
            _sup_holds,
            describe="sup over priors of TV, Hellinger² and KL(prior||posterior) is their value "
            "at the two-point prior of _optimal_weight (TV: tanh(log R/4))",
            examples=fewer(ctx, 4),
        ),
        property_holds(
            ctx,
            st.tuples(tables(), st.integers(1, 1000)),
            prop_holds,
            describe=(
                "e^ε_DP <= (1+ε)/(1-ε) (mutant)"
                if mutant == "one_plus_epsilon"
                else "Δ(prior, posterior) <= ε < 1/2 for all priors ⇒ e^ε_DP <= (1+2ε)/(1-2ε); "
                "sharp (found here): e^ε_DP = ((1+ε*)/(1-ε*))² at the least such ε*, "
                "ε* = tanh(ε_DP/4)"
            ),
            explain=prop_explain,
        ),
        property_holds(
            ctx,
            tables(),
            remark_holds,
            describe=(
                "Remark for KL with g = sqrt(1 - e^-ε) (mutant)"
                if mutant == "kl_halved"
                else "Remark: d(prior, posterior) <= ε for all priors ⇒ e^ε_DP <= "
                "(1+g(ε))/(1-g(ε)) for Hellinger and KL (for TV, g = 2ε: Prop 2 above)"
            ),
            explain=lambda table: f"e^ε_DP = {infinite(table_dp_ratio(table))}",
            examples=fewer(ctx, 4),
        ),
        property_holds(
            ctx,
            st.tuples(masses.filter(lambda v: v > 0), masses),
            algebra_holds,
            explain=algebra_explain,
            describe=(
                "the proof's ratio is (1+γ)/(1-γ) as written (mutant)"
                if mutant == "source_ratio"
                else "source slip: Pr[M(x')=y]/Pr[M(x)=y] = (1-γ)/(1+γ), not (1+γ)/(1-γ) as "
                "written, and Δ = |γ|/2 (harmless: |γ| <= 2ε bounds both)"
            ),
        ),
    ]
