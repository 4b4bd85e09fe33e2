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
from proofs_check import (
    CheckContext,
    Evidence,
    check,
    property_holds,
    sharpness_evidence,
    witness_evidence,
)
from proofs_check.claims._draws import sized_lists
from proofs_check.claims.vadhan._bayesian_proofs import (
    prop_1_proofs,
    prop_1_strengthenings,
    prop_2_proofs,
    prop_2_strengthenings,
)
from proofs_check.claims.vadhan._common import (
    Vector,
    certified_equal,
    distribution,
    infinite,
    library_ratio,
    nonnegative,
    pinned,
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
    ratio_over_pairs,
    sqrt_surd,
    surd,
    table_dp_ratio,
    table_neighbour_pairs,
    total_variation_surd,
)

__all__ = ["prop_1", "prop_2"]


# --- vadhan.prop_1 -------------------------------------------------------------------------
@st.composite
def _bayes_instances(draw: st.DrawFn) -> tuple[Table, int, tuple[int, ...], Vector]:
    """A mechanism, a row i, the rest x_{-i} and a prior on X_i (zeros allowed)."""
    table = draw(tables())
    i = draw(st.integers(0, table.size - 1))
    others = tuple(draw(sized_lists(st.integers(0, table.letters - 1), table.size - 1)))
    prior = tuple(draw(xst.probability_vectors(table.letters)))
    return table, i, others, prior


@check(
    "vadhan.prop_1",
    mutants={
        "half_epsilon": "the bound ε/2 instead of ε",
        "three_quarters": "the bound 3ε/4 instead of ε",
        "first_entry_epsilon": "ε measured over the neighbours differing in the first entry "
        "bounds the prior-posterior D∞ for every entry i",
    },
    strengthenings={
        "strict": "D∞(posterior || prior) < ε when ε > 0, for every prior of full support "
        "and an output y possible under every x_i (<= made strict)",
        "shrunk": "D∞(posterior || prior) <= (9/10)·ε (the constant shrunk)",
    },
)
def prop_1(ctx: CheckContext) -> list[Evidence]:
    """vadhan.prop_1 — Vadhan §4, Proposition 1.

    Statement: if M is ε-DP then for every x, i, prior X_i on D and output y of positive
    probability, D∞(X_i || X_i | M(X_i, x_{-i}) = y) <= ε and D∞(X_i | y || X_i) <= ε.

    P: on random database mechanisms (zeros allowed), rows i, rests x_{-i} and priors (zeros
    allowed): with ε = ε_DP of exactpml (checked against the neighbourhood maximum), the
    posterior from Bayes' rule, and D∞ both ways by exactpml's ``renyi_divergence_inf``
    (checked against the maximum over points): both <= ε, for every output y with
    Pr[y] > 0; and strictly below ε when 0 < ε < ∞ (found here: the bound is never attained;
    D∞(posterior||prior) = max p_d / Σ π p over π_d > 0 reaches the column ratio only if all
    the prior's mass sits where p is smallest, which then leaves no d with p_d largest).
    W: the supremum over priors is ε: randomized response with e^ε = 3 and priors
    (t, 1 - t), t = 1/10, 1/1000, 10^-6, gives D∞(posterior||prior) = log(3/(1 + 2t)) < ε,
    exactly, tending to ε as t → 0+.
    C (proved, z3; :func:`prop_1_proofs`): for |D| = 3 (zeros allowed, so |D| <= 3), every
    prior π on D, every column p_d = Pr[M(d, x_{-i}) = y] in [0, 1] with p_d <= e^ε p_e for
    all d, e (ε-DP), every ε >= 0: by Bayes' theorem (the notes' eq. (1)) the posterior-prior
    ratio of d is p_d / Pr[y] with Pr[y] = Σ π_e p_e, and p_d <= e^ε Pr[y] (D∞(posterior ||
    prior) <= ε) and Pr[y] <= e^ε p_d (D∞(prior || posterior) <= ε) for every d, cross-
    multiplied by Pr[y] >= 0.  Strengthenings: strict for a full-support prior, positive
    column and ε > 0 is proved (not sharp: the finding above, over every such instance);
    9/10·ε is refuted (sharp: the supremum over priors is ε).
    """
    mutant = ctx.mutant
    proofs = prop_1_proofs(mutant, search=ctx)

    def within(divergence: Ratio, r: Ratio) -> bool:
        if mutant == "half_epsilon" and r is not None:
            return divergence is not None and divergence * divergence <= r
        if mutant == "three_quarters" and r is not None:
            return divergence is not None and divergence**4 <= r**3
        if r is not None and r > 1 and (divergence is None or divergence >= r):
            return False  # never attained (the sharper statement found here)
        return ratio_at_most(divergence, r)

    def holds(instance: tuple[Table, int, tuple[int, ...], Vector]) -> bool:
        table, i, others, prior = instance
        r = table_dp_ratio(table)
        if library_ratio(table) != r:
            return False
        if mutant == "first_entry_epsilon":
            r = _entry_ratio(table, 0)
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

    def explain(instance: tuple[Table, int, tuple[int, ...], Vector]) -> str:
        return f"e^ε_DP = {infinite(table_dp_ratio(instance[0]))}"

    describe = {
        "half_epsilon": "D∞ between prior and posterior <= ε/2 (mutant)",
        "three_quarters": "D∞ between prior and posterior <= 3ε/4 (mutant)",
        "first_entry_epsilon": "D∞ between prior and posterior <= ε of the first entry (mutant)",
    }.get(
        mutant or "",
        "ε-DP ⇒ D∞(prior||posterior) <= ε and D∞(posterior||prior) <= ε, strictly when 0 < ε < ∞",
    )
    regime = pinned(_prop_1_pinned(), holds, describe=describe, explain=explain)
    if regime.passed is False and not ctx.search_only:  # a search-alone run needs the search
        return [regime, *proofs]  # the random instances would only repeat it, more slowly
    supremum = _prop_1_supremum()
    return [
        regime,
        property_holds(
            ctx,
            _bayes_instances(),
            holds,
            describe=describe,
            explain=explain,
            examples=ctx.fewer_examples(2),
        ),
        supremum,
        sharpness_evidence(
            "D∞(prior || posterior), D∞(posterior || prior) <= ε",
            attained=False,
            on="every instance with 0 < ε < ∞ (random and pinned)",
            sharpest="D∞ < ε strictly for every prior; the supremum over priors is ε "
            "(randomized response, e^ε = 3, prior (t, 1 - t): log(3/(1 + 2t)) → log 3 as "
            "t → 0+)",
            values={value.name: value.text for value in supremum.values},
        ),
        *proofs,
        *(prop_1_strengthenings() if mutant is None else ()),
    ]


def _entry_ratio(table: Table, entry: int) -> Ratio:
    """e^ε over the neighbours differing in ``entry`` only (the mutant first_entry_epsilon)."""
    pairs = [(x, x2) for x, x2 in table_neighbour_pairs(table) if x[entry] != x2[entry]]
    return ratio_over_pairs(pairs, range(table.outputs), lambda x, y: table.row(x)[y])


def _randomized_response_table(ratio: Fraction) -> Table:
    keep, flip = ratio / (1 + ratio), 1 / (1 + ratio)
    return Table(2, 1, (((0,), (keep, flip)), ((1,), (flip, keep))))


def _prop_1_pinned() -> list[tuple[str, tuple[Table, int, tuple[int, ...], Vector]]]:
    """Randomized response (e^ε = 3) with a prior nearly all on 1, and a two-entry mechanism
    that reads entry 1 only (randomized response on x_1)."""
    three = Fraction(3)
    rr = _randomized_response_table(three)
    second = Table(
        2,
        2,
        tuple(((a, b), rr.row((b,))) for a, b in ((0, 0), (0, 1), (1, 0), (1, 1))),
    )
    return [
        (
            "randomized response e^ε = 3, prior (1/1000, 999/1000)",
            (rr, 0, (), (Fraction(1, 1000), Fraction(999, 1000))),
        ),
        (
            "randomized response on x_1 (e^ε = 3), i = 1, x_0 = 0, uniform prior",
            (second, 1, (0,), (Fraction(1, 2), Fraction(1, 2))),
        ),
    ]


def _prop_1_supremum() -> Evidence:
    """D∞(posterior || prior) = log(3/(1+2t)) for randomized response e^ε = 3, prior (t, 1-t),
    output 0: exact, below ε, and 3 - 3/(1+2t) = 6t/(1+2t) → 0."""
    three = Fraction(3)
    rr = _randomized_response_table(three)
    values: dict[str, object] = {}
    verified = True
    for t in (Fraction(1, 10), Fraction(1, 1000), Fraction(1, 10**6)):
        prior = (t, 1 - t)
        column = (rr.row((0,))[0], rr.row((1,))[0])
        mass = prior[0] * column[0] + prior[1] * column[1]
        posterior = (prior[0] * column[0] / mass, prior[1] * column[1] / mass)
        ratio = divergence_ratio_by_points(posterior, prior)
        values[f"t = {t}: e^D∞(posterior||prior)"] = ratio
        verified = verified and ratio == three / (1 + 2 * t) and ratio is not None and ratio < 3
    return witness_evidence(
        "the supremum over priors is ε, not attained: randomized response e^ε = 3, prior "
        "(t, 1 - t), e^D∞(posterior||prior) = 3/(1 + 2t) < 3 for t = 1/10, 1/1000, 10^-6",
        verified,
        values=values,
        counterexample=None if verified else str(values),
    )


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


_POSITIVE_ENTRIES = xst.fractions(min_value=0, max_value=1, max_denominator=30).filter(
    lambda v: v > 0
)


@st.composite
def _columns_with_priors(draw: st.DrawFn) -> tuple[Vector, Vector]:
    """A positive column (Pr[M(d, x_{-i}) = y] for d in D) and a prior on D (zeros allowed)."""
    size = draw(st.integers(2, 4))
    column = tuple(draw(sized_lists(_POSITIVE_ENTRIES, size)))
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
    strengthenings={
        "sharp_constant_uniform_prior": "e^{ε'} <= ((1+ε)/(1-ε))² from the hypothesis at the "
        "uniform prior on {x_i, x'_i} alone (the proof's prior)",
        "sharp_constant_every_prior": "e^{ε'} <= ((1+ε)/(1-ε))² for every ε < 1, from the "
        "hypothesis at the prior (√p', √p)/(√p + √p') (one of 'every prior')",
        "strict": "e^{ε'} < (1+2ε)/(1-2ε) for 0 < ε < 1/2 from the proof's prior (<= made "
        "strict)",
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

    C (proved, z3; :func:`prop_2_proofs`), for every pair p = Pr[M(x) = y], p' =
    Pr[M(x') = y] in [0, 1] with p + p' > 0 (x, x' neighbours; either order): Prop 2 as the
    notes prove it, Δ(prior, posterior) <= ε at the uniform prior on {x_i, x'_i} (posterior
    p/(p+p') from Bayes' rule, Δ = ½ Σ |prior - posterior|) ⇒ p (1-2ε) <= (1+2ε) p' for every
    ε in [0, 1/2); the sharp constant is below it, ((1+ε)/(1-ε))² <= (1+2ε)/(1-2ε); the
    proof's algebra with γ = 2·posterior - 1: p'(1+γ) = p(1-γ) (two inequalities); the Remark
    for any g in [0, 1): |γ| <= g ⇒ p (1-g) <= (1+g) p'; and its g for KL and Hellinger:
    |γ| <= g(d) at d = KL(Bern(1/2) || Bern((1+γ)/2)), g(d) = sqrt(1 - e^{-2d}), and at
    d = H²(Bern(1/2), Bern((1+γ)/2)), g = sqrt(1 - (2c² - 1)²), c = 1 - d, for every
    γ in (-1, 1) (g is increasing, so every d' >= d is covered).  Strengthenings: ((1+ε)/(1-ε))²
    from the uniform prior alone and the strict form are refuted (the proof's constant is
    sharp for its prior); from the hypothesis at the two-point prior (√p', √p)/(√p + √p'),
    ((1+ε)/(1-ε))² is proved for every ε < 1 (not sharp: the finding above).
    """
    mutant = ctx.mutant
    proofs = prop_2_proofs(mutant)

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
        if mutant is None and r > 1 and (bound - surd(r, r)).sign() == 0:
            return False  # never attained for ε_DP > 0 (found here)
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
                difference = bound - to_sympy(r)
            # not attained either (found here): certified strictly positive
            verdict = positive(difference) if mutant is None else nonnegative(difference)
            if verdict is False:
                return False
            decided = decided and verdict is True
        return True if decided else None

    def hellinger_sharp(r: Fraction) -> bool | None:
        """The sharpest Hellinger form: with c = 1 - ε* (ε* the least H² meeting the
        hypothesis), ((1 + √(1-c²))/c)⁴ = e^ε_DP exactly (certified equality)."""
        c = 1 - _least_epsilons(r)["Hellinger²"]
        with sympy.evaluate(False):
            sharp = ((1 + sympy.sqrt(1 - c**2)) / c) ** 4
        return certified_equal(sharp, to_sympy(r))

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

    masses = xst.fractions(min_value=0, max_value=1, max_denominator=50)
    pinned_ratios = (Fraction(81, 16),)
    remark_sharp = pinned(
        [(f"e^ε_DP = {r}", r) for r in pinned_ratios],
        hellinger_sharp,
        describe="the sharpest Hellinger form ((1 + √(1-c²))/c)⁴, c = 1 - ε*, equals e^ε_DP "
        "exactly (certified)",
    )
    return [
        remark_sharp,
        sharpness_evidence(
            "e^ε' <= (1+2ε)/(1-2ε) (Prop 2, total variation)",
            attained=False,
            on="every random mechanism with 0 < ε_DP < ∞ (exact in Q(√r))",
            sharpest="e^ε_DP = ((1+ε*)/(1-ε*))² exactly at the least ε* meeting the "
            "hypothesis, ε* = tanh(ε_DP/4); so e^ε' <= ((1+ε)/(1-ε))² for every ε < 1, which "
            "is below (1+2ε)/(1-2ε) for 0 < ε < 1/2 and meaningful up to ε < 1",
            kind="P",
        ),
        sharpness_evidence(
            "e^ε' <= (1+g(ε))/(1-g(ε)) (the Remark, Hellinger and KL)",
            attained=False,
            on="every random mechanism with 0 < ε_DP < ∞ (certified strict)",
            sharpest="Hellinger (H² <= ε, c = 1 - ε): e^ε' <= ((1 + √(1-c²))/c)⁴, equal to "
            "e^ε_DP at the least ε (certified at e^ε_DP = 81/16); the Remark's "
            "(1+g)/(1-g) = (1 + sin 2θ)/(1 - sin 2θ) with cos θ = c exceeds it; KL: the "
            "inverse of the least ε, log((R-1)/log R) - 1 + log R/(R-1)",
            kind="P",
        ),
        property_holds(
            ctx,
            _columns_with_priors(),
            _sup_holds,
            describe="sup over priors of TV, Hellinger² and KL(prior||posterior) is their value "
            "at the two-point prior of _optimal_weight (TV: tanh(log R/4))",
            examples=ctx.fewer_examples(4),
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
            examples=ctx.fewer_examples(4),
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
        *proofs,
        *(prop_2_strengthenings() if mutant is None else ()),
    ]
