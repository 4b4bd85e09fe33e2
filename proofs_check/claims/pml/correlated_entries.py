"""Check of Saeidian et al., *Rethinking Disclosure Prevention with PML*, Theorem 4.3
(cited from Saeidian et al. 2024, Thm 3): a DP mechanism can leak almost everything about
an entry when the entries are correlated.

Claim ``pml.thm_4_3`` of ``CLAIMS.md`` (the paper states the theorem without proof; the
construction below is this check's own).

The construction, for given ε, δ > 0 (z = e^ε):

* database X = (D_1, ..., D_n) on {0, 1}^n, perfectly correlated: P(0^n) = P(1^n) = 1/2,
  so p_{D_i} = (1/2, 1/2) and ε_max(D_i) = log 1/min_d p_{D_i}(d) = log 2;
* mechanism: the count S = D_1 + ... + D_n plus noise with p(y|S = s) proportional to
  z^{-|y - s|}: two-sided geometric noise with α = 1/z when z is rational, Laplace noise of
  scale 1/ε otherwise.  Neighbouring databases have counts differing by at most 1, so the
  ratio p(y|s)/p(y|s') is at most z: the mechanism is ε-DP;
* output y = n.  The posterior of D_i = 1 is z^0/(z^0 + z^{-n}) = 1/(1 + z^{-n}), so
  exp l(D_i->n) = 2/(1 + z^{-n}), and l(D_i->n) > log 2 - δ iff 1 + z^{-n} < e^δ, i.e. iff
  n > log(1/(e^δ - 1))/ε.  The check takes the least such n.

Entries must be correlated: with independent entries Thm 4.2 (3) bounds l(D_i->y) by ε
(for i.i.d. Bern(1/2) entries and y >= n it is log(2z/(1 + z)); the ``independent_entries``
mutant).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import partial

import sympy
from hypothesis import strategies as st

from exactpml import Distribution, LogValue, differential_privacy_epsilon
from exactpml import strategies as xst
from exactpml.continuous import ContinuousMechanism, pointwise_maximal_leakage_at
from exactpml.core import certify
from exactpml.database import DatabaseSpace, ProductPrior, entry_leakage, joint_prior
from exactpml.instances.laplace_counting import entry_leakage_at
from exactpml.structured import CountingQuery, GeometricNoise, LaplaceNoise, QueryMechanism
from proofs_check import (
    CheckContext,
    Evidence,
    certified_evidence,
    check,
    property_holds,
    reference,
    witness_evidence,
)
from proofs_check.claims.pml._proofs import Strengthening, strengthenings
from proofs_check.claims.pml._ratios import infinite
from proofs_check.small_scope import Layer, SmallScope

__all__ = ["thm_4_3"]

DIGITS = 12
_EXPLICIT_ENTRIES = 10
"""Up to this n the mechanism is also enumerated on all of {0, 1}^n (DP ratio, leakage)."""

_EXACT_PAIRS: tuple[tuple[sympy.Expr, sympy.Expr], ...] = (
    (sympy.log(2), sympy.log(sympy.Rational(11, 10))),
    (sympy.log(3), sympy.log(sympy.Rational(1001, 1000))),
)
"""(ε, δ) with e^ε and e^δ rational: everything is decided exactly (n = 4 and n = 7)."""

_CERTIFIED_PAIRS: tuple[tuple[sympy.Expr, sympy.Expr], ...] = (
    (sympy.Integer(1), sympy.Rational(1, 10)),
    (sympy.Rational(1, 10), sympy.Rational(1, 100)),
    (sympy.Rational(1, 100), sympy.Rational(1, 100)),
    (sympy.log(2), sympy.Rational(1, 1000)),
    (sympy.Rational(1, 10), sympy.Rational(1, 10**6)),
    (sympy.Rational(1, 1000), sympy.Rational(1, 1000)),
)
"""(ε, δ) with a transcendental comparison: decided by certified enclosures (n = 3, 47,
461, 10, 139, 6908)."""


def _exceeds(z: sympy.Expr, n: int, delta: sympy.Expr) -> bool:
    """Whether 2/(1 + z^-n) > 2 e^-δ, exactly or certified."""
    return certify.compare(2 / (1 + z ** (-n)), 2 * sympy.exp(-delta)) > 0


def least_entries(epsilon: sympy.Expr, delta: sympy.Expr) -> int:
    """The least n with 1 + e^{-nε} < e^δ, from an enclosure of log(1/(e^δ - 1))/ε, then
    checked exactly or certified at n (and n - 1 fails)."""
    z = sympy.exp(epsilon)
    # a starting point only (the decision is the certified comparison at n and n - 1)
    estimate = float(certify.enclosure(-sympy.log(sympy.exp(delta) - 1) / epsilon, 64).mid())
    n = max(1, int(estimate) + 1)
    while not _exceeds(z, n, delta):
        n += 1
    while n > 1 and _exceeds(z, n - 1, delta):
        n -= 1
    return n


def _mechanism(epsilon: sympy.Expr, n: int) -> QueryMechanism:
    z = sympy.exp(epsilon)
    noise = (
        GeometricNoise(Fraction(1) / Fraction(str(z)))
        if z.is_Rational
        else LaplaceNoise(1 / epsilon)
    )
    return QueryMechanism(DatabaseSpace([0, 1], n), CountingQuery(lambda d: d), noise=noise)


def _leakages(epsilon: sympy.Expr, n: int, *, independent: bool) -> tuple[LogValue, LogValue]:
    """l(D_1 -> n): (the library's value, the closed form of the module docstring)."""
    z = sympy.exp(epsilon)
    mechanism = _mechanism(epsilon, n)
    if independent:  # i.i.d. Bern(1/2) entries: 2z/(1 + z) (B.3's y >= 1 form with p = 1/2)
        closed = LogValue(sympy.cancel(2 * z / (1 + z)))
        if z.is_Rational:
            product = ProductPrior.iid(Distribution({0: "1/2", 1: "1/2"}), n)
            return entry_leakage(mechanism, product, 0, n), closed
        if n <= 64:  # Lap(S/n, b) with b = 1/(n ε), at y = n/n = 1
            return entry_leakage_at(n, 1 / (n * epsilon), "1/2", 1), closed
        return closed, closed
    closed = LogValue(2 / (1 + z ** (-n)))
    ones, zeros = (1,) * n, (0,) * n
    if z.is_Rational:
        prior = joint_prior(DatabaseSpace([0, 1], n), {zeros: "1/2", ones: "1/2"})
        return entry_leakage(mechanism, prior, 0, n), closed
    support = ContinuousMechanism.laplace({zeros: 0, ones: n}, 1 / epsilon)
    prior = Distribution({zeros: "1/2", ones: "1/2"})
    return pointwise_maximal_leakage_at(support, prior, n, attribute=lambda x: x[0]), closed


def _dp_verified(epsilon: sympy.Expr, n: int) -> tuple[bool, LogValue]:
    """The mechanism's DP ε equals the given ε: the library (through the count) and, for
    n <= 10 with geometric noise, the ratio enumerated over all neighbouring databases."""
    mechanism = _mechanism(epsilon, n)
    value = differential_privacy_epsilon(mechanism).value
    z = sympy.exp(epsilon)
    same = value == LogValue(z)
    if z.is_Rational and n <= _EXPLICIT_ENTRIES:
        kernel = mechanism.explicit().mechanism
        same = same and infinite(reference.dp_ratio(kernel)) == Fraction(str(z))  # every y
    return same, value


def _thm_4_3_strengthenings() -> list[Strengthening]:
    """δ = 0: the construction's l(D_i->n) = log 2/(1 + e^{-nε}) reaching ε_max(D_i) = log 2."""
    epsilon = sympy.Symbol("epsilon")
    n = sympy.Symbol("n", integer=True)
    return [Strengthening(
        "zero_delta",
        "l(D_i->y) >= ε_max(D_i) (δ = 0) for the construction: log 2/(1 + e^{-nε}) >= log 2",
        "every ε > 0 and every n in {1, ..., 20} (the construction's output y = n)",
        sympy.log(2), sympy.log(2 / (1 + sympy.exp(-n * epsilon))),
        {epsilon: sympy.Interval.open(0, sympy.oo), n: sympy.Interval(1, 20)},
    )]


@check(
    "pml.thm_4_3",
    mutants={
        "independent_entries": "the same mechanism with i.i.d. Bern(1/2) entries (correlation "
        "dropped)",
        "one_entry_fewer": "the construction with n - 1 entries",
        "delta_sign_flipped": "l(D_i->y) > ε_max(D_i) + δ instead of - δ",
    },
    strengthenings={
        "zero_delta": "l(D_i->y) >= ε_max(D_i): δ = 0 (the construction reaches the maximum)",
    },
)
def thm_4_3(ctx: CheckContext) -> list[Evidence]:
    """``pml.thm_4_3``: Saeidian et al., Theorem 4.3 (Saeidian et al. 2024, Thm 3).

    Statement: for every δ > 0 and ε > 0 there are a correlated database
    X = (D_1, ..., D_n), an ε-DP mechanism and an output y with
    l(D_i->y) > ε_max(D_i) - δ, ε_max(D_i) = log 1/min_d p_{D_i}(d).

    Evidence (construction in the module docstring, for 8 pairs (ε, δ)):
        W: (ε, δ) = (log 2, log 11/10) and (log 3, log 1001/1000), where e^ε and e^δ are
           rational: the least n (4 and 7), ε-DP (library through the count, and the DP
           ratio enumerated over all neighbouring pairs of {0, 1}^n), the library's
           l(D_1->n) on the explicit kernel equal to log 2/(1 + z^-n), and
           l(D_1->n) > log 2 - δ, all exact; with n - 1 entries the inequality fails.
        C: (ε, δ) = (1, 1/10), (1/10, 1/100), (1/100, 1/100), (log 2, 1/1000),
           (1/10, 10^-6), (1/1000, 1/1000): the least n (3, 47, 461, 10, 139, 6908),
           ε-DP (library; Laplace noise of scale 1/ε, or geometric), the library's
           l(D_1->n) (continuous output, the two support rows) equal to the closed form,
           and l(D_1->n) > log 2 - δ certified by interval enclosures, with the margin
           shown to 12 digits.
        P: the theorem over its parameters, on a grid e^ε in {3/2, 2, 3}, e^δ in
           {2, 3/2, 11/10} and on random rational (e^ε, e^δ) in [3/2, 4] × [11/10, 2] (the
           least n at most 6): the least n is decided exactly, the DP ratio of the explicit
           kernel over every neighbouring pair of {0, 1}^n is e^ε, and exp l(D_1->n) by Bayes'
           rule (:func:`proofs_check.reference.entry_pml_ratio`) equals exactpml's and
           2/(1 + e^-nε) and exceeds 2e^-δ.
        Strengthening: δ = 0 (the construction reaching ε_max(D_i) = log 2): refuted (sharp).
           Not PROVED: the theorem is existential (a construction for each (ε, δ)).
    """
    independent = ctx.mutant == "independent_entries"

    def verify(
        epsilon: sympy.Expr, delta: sympy.Expr
    ) -> tuple[bool | None, dict[str, object], str]:
        n = least_entries(epsilon, delta) - (1 if ctx.mutant == "one_entry_fewer" else 0)
        if n < 1:
            return False, {}, f"ε = {epsilon}, δ = {delta}: no database with {n} entries"
        dp, value = _dp_verified(epsilon, n)
        library, closed = _leakages(epsilon, n, independent=independent)
        bound = (
            LogValue(2 * sympy.exp(-delta))
            if ctx.mutant != "delta_sign_flipped"
            else LogValue(2 * sympy.exp(delta))
        )
        holds = dp and library == closed and library > bound
        values: dict[str, object] = {"n": n, "ε-DP ε": value, "l(D_1->n)": library}
        if holds:  # the problem is shown only on a failure (printing the values took 7%)
            return holds, values, ""
        problem = (
            f"ε = {epsilon}, δ = {delta}, n = {n}: DP ε = {value} ({'ok' if dp else 'wrong'}), "
            f"l(D_1->n) = {library} (closed form {closed}), needed > {bound}"
        )
        return holds, values, problem

    evidence: list[Evidence] = []
    exact_values: dict[str, object] = {}
    exact_problems: list[str] = []
    for epsilon, delta in _EXACT_PAIRS:
        holds, values, problem = verify(epsilon, delta)
        exact_values.update({f"(ε, δ) = ({epsilon}, {delta}): {k}": v for k, v in values.items()})
        if not holds:
            exact_problems.append(problem)
    evidence.append(
        witness_evidence(
            "perfectly correlated bits, geometric count noise α = e^-ε, output y = n: ε-DP and "
            "l(D_1->n) > log 2 - δ for (ε, δ) = (log 2, log 11/10), (log 3, log 1001/1000)",
            not exact_problems,
            values=exact_values,
            counterexample="; ".join(exact_problems) or None,
        )
    )
    for epsilon, delta in _CERTIFIED_PAIRS:
        holds, values, problem = verify(epsilon, delta)
        library = values.get("l(D_1->n)")
        margin = (
            certify.decimal(LogValue(library).to_sympy() - (sympy.log(2) - delta), DIGITS)
            if isinstance(library, LogValue)
            else "-"
        )
        evidence.append(
            certified_evidence(
                f"(ε, δ) = ({epsilon}, {delta}), n = {values.get('n')}: ε-DP and l(D_1->n) > "
                f"log 2 - δ (margin {margin})",
                DIGITS,
                holds=bool(holds),
                values=values,
                counterexample=None if holds else problem,
            )
        )
    evidence.append(
        property_holds(
            ctx,
            st.tuples(RATIOS_E, RATIOS_D),
            lambda pair: not _pair_failures(*pair, ctx.mutant),
            describe="for (e^ε, e^δ) in [3/2, 4] × [11/10, 2] (rational): the construction's "
            "least n, the DP ratio enumerated over all neighbours = e^ε, the reference's "
            "l(D_1->n) = exactpml's = log 2/(1 + e^-nε) > log 2 - δ, and n - 1 is too few",
            explain=lambda pair: "; ".join(_pair_failures(*pair, ctx.mutant)),
            examples=ctx.fewer_examples(40, at_least=3, at_most=20),
            small_scope=PAIR_SCOPE,
        )
    )
    if ctx.mutant is None:
        evidence += strengthenings(_thm_4_3_strengthenings())
    return evidence


RATIOS_E = xst.fractions(min_value=Fraction(3, 2), max_value=4, max_denominator=8)
"""e^ε for the search: rational, at least 3/2 so that the least n stays enumerable."""
RATIOS_D = xst.fractions(min_value=Fraction(11, 10), max_value=2, max_denominator=10)
"""e^δ for the search: rational, at least 11/10 (with e^ε ≥ 3/2: n ≤ 6, 64 databases)."""

PAIR_SCOPE = SmallScope(
    "(e^ε, e^δ): e^ε in {3/2, 2, 3}, e^δ in {2, 3/2, 11/10}",
    [
        Layer(
            f"e^ε = {z}",
            3,
            partial(lambda z: [(z, w) for w in (Fraction(2), Fraction(3, 2), Fraction(11, 10))], z),
        )
        for z in (Fraction(3, 2), Fraction(2), Fraction(3))
    ],
)
"""Thm 4.3 quantifies over every ε, δ > 0: a grid of rational e^ε, e^δ, smallest n first."""


def _pair_failures(z: Fraction, w: Fraction, mutant: str | None) -> list[str]:
    """The construction at e^ε = z, e^δ = w (both rational), against the definitions: the
    least n (exact: 1 + z^-n < w, not at n - 1); the DP ratio of the explicit kernel over all
    neighbouring databases of {0, 1}^n is z; exp l(D_1->n) by Bayes' rule (the reference, on
    the perfectly correlated prior; i.i.d. Bern(1/2) under ``independent_entries``) equals
    exactpml's and 2/(1 + z^-n), and exceeds 2/w (2w under ``delta_sign_flipped``)."""
    epsilon, delta = sympy.log(sympy.Rational(z.numerator, z.denominator)), sympy.log(
        sympy.Rational(w.numerator, w.denominator)
    )
    n = least_entries(epsilon, delta) - (1 if mutant == "one_entry_fewer" else 0)
    shown = f"e^ε = {z}, e^δ = {w}, n = {n}"
    if n < 1:
        return [f"{shown}: no database with {n} entries"]
    failures = []
    if not (1 + z**-n < w and (n == 1 or 1 + z ** -(n - 1) >= w)):
        failures.append(f"{shown}: not the least n with 1 + e^-nε < e^δ")
    mechanism = _mechanism(epsilon, n)
    kernel = mechanism.explicit().mechanism
    if infinite(reference.dp_ratio(kernel)) != z:
        failures.append(f"{shown}: the DP ratio over all neighbours is not e^ε")
    databases = list(itertools.product((0, 1), repeat=n))
    if mutant == "independent_entries":
        prior = {x: Fraction(1, 2**n) for x in databases}
        library = entry_leakage(
            mechanism, ProductPrior.iid(Distribution({0: "1/2", 1: "1/2"}), n), 0, n
        )
        closed = 2 * z / (1 + z)
    else:
        prior = {x: Fraction(len(set(x)) == 1, 2) for x in databases}
        zeros, ones = (0,) * n, (1,) * n
        library = entry_leakage(
            mechanism, joint_prior(DatabaseSpace([0, 1], n), {zeros: "1/2", ones: "1/2"}), 0, n
        )
        closed = 2 / (1 + z**-n)
    ratio = reference.entry_pml_ratio(kernel, prior, n, 0)
    if not (library == LogValue(ratio) and ratio == closed):
        failures.append(f"{shown}: exp l(D_1->n) reference {ratio}, exactpml {library}")
    bound = 2 * w if mutant == "delta_sign_flipped" else 2 / w
    if not ratio > bound:
        failures.append(f"{shown}: exp l(D_1->n) = {ratio} is not above {bound}")
    return failures
