"""Checks of Saeidian et al., *Rethinking Disclosure Prevention with PML*, §2.3 and §3.2.

Claims ``pml.pre_processing``, ``pml.def_2_6`` and ``pml.thm_3_4`` of ``CLAIMS.md``
(statements restated there; proofs in the paper's Appendix A).  Theorems 3.5, 3.7 and
Corollary 3.10 are in
:mod:`~proofs_check.claims.pml.disclosure_prevention`; Examples 3.1 and 3.11 in
:mod:`~proofs_check.claims.pml.example_3_1` and :mod:`~proofs_check.claims.pml.example_3_11`.

Every comparison is exact: log-valued quantities are :class:`~exactpml.LogValue` objects
whose ratios are compared as rationals ("multiplicative domain").  Properties run on
random exact finite instances (:mod:`proofs_check.claims.pml._instances`); outputs of
probability zero use footnote 5 (posterior = prior).
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

import sympy

from exactpml import (
    Distribution,
    LogValue,
    Mechanism,
    max_pointwise_maximal_leakage,
    pml_joint_divergence,
    pointwise_maximal_leakage,
    probability_leakage_at_most,
)
from exactpml import strategies as xst
from exactpml.numerics import limits
from proofs_check import (
    CheckContext,
    Evidence,
    check,
    exact_instances,
    limit_evidence,
    property_holds,
    witness_evidence,
)
from proofs_check.claims.pml._instances import (
    mechanism_attribute_two_adversaries,
    mechanism_prior_attribute,
)
from proofs_check.claims.pml._measures import is_disclosed

__all__ = ["def_2_6", "pre_processing", "thm_3_4"]


# --- pml.pre_processing ----------------------------------------------------------------
def _support_bound(prior: Distribution, *, largest: bool = False) -> LogValue:
    """-log min_{x in supp P_X} p_X(x) (or -log max_x p_X(x) = H_inf(P_X) when ``largest``)."""
    support = [p for p in prior.probabilities if p != 0]
    return LogValue(1 / (max(support) if largest else min(support)))


@check(
    "pml.pre_processing",
    mutants={
        "reversed": "l(Z->y) >= l(X->y) instead of <= (inequality flipped)",
        "max_mass_bound": "l(X->y) <= -log max_x p_X(x) = H_inf(P_X) instead of -log min_x p_X(x)",
    },
)
def pre_processing(ctx: CheckContext) -> list[Evidence]:
    """``pml.pre_processing``: Saeidian et al. §2.3 (after Thm 2.4; 2023b Lemma 1).

    Statement: if Z - X - Y is a Markov chain (Z an attribute of X, given by any kernel
    P_{Z|X}, deterministic ones included), then l(Z->y) <= l(X->y) for every y; and
    0 <= l(X->y) <= -log min_x p_X(x), the minimum over supp P_X (the paper takes
    X = supp P_X).

    Evidence:
        P: on random (P_{Y|X}, P_X, P_{Z|X}) (priors with zeros, outputs of mass 0,
           constant and randomised Z), for every output y: exp l(Z->y) <= exp l(X->y) and
           1 <= exp l(X->y) <= 1 / min_{x in supp P_X} p_X(x), all exact rationals.
    """
    reversed_ = ctx.mutant == "reversed"
    largest = ctx.mutant == "max_mass_bound"

    def holds(instance: tuple[Mechanism, Distribution, Mechanism]) -> bool:
        mechanism, prior, attribute = instance
        top = _support_bound(prior, largest=largest)
        for y in mechanism.outputs:
            about_z = pointwise_maximal_leakage(mechanism, prior, y, attribute=attribute)
            about_x = pointwise_maximal_leakage(mechanism, prior, y)
            if not (about_z >= about_x if reversed_ else about_z <= about_x):
                return False
            if not LogValue(1) <= about_x <= top:
                return False
        return True

    def explain(instance: tuple[Mechanism, Distribution, Mechanism]) -> str:
        mechanism, prior, attribute = instance
        shown = "; ".join(
            f"y={y!r}: l(Z->y) = "
            f"{pointwise_maximal_leakage(mechanism, prior, y, attribute=attribute)}, "
            f"l(X->y) = {pointwise_maximal_leakage(mechanism, prior, y)}"
            for y in mechanism.outputs
        )
        return f"{shown}; upper bound {_support_bound(prior, largest=largest)}"

    relation = ">=" if reversed_ else "<="
    upper = "-log max_x p_X(x)" if largest else "-log min_x p_X(x)"
    return [
        property_holds(
            ctx,
            mechanism_prior_attribute(),
            holds,
            describe=f"Z - X - Y implies l(Z->y) {relation} l(X->y), and 0 <= l(X->y) <= "
            f"{upper}, for every y",
            explain=explain,
        )
    ]


# --- pml.def_2_6 ---------------------------------------------------------------------
_IDENTITY_PRIORS: dict[str, dict[Hashable, str]] = {
    "(1/2, 1/3, 1/6)": {0: "1/2", 1: "1/3", 2: "1/6"},
    "uniform on 4": {0: "1/4", 1: "1/4", 2: "1/4", 3: "1/4"},
    "(7/10, 3/10)": {0: "7/10", 1: "3/10"},
    "(1/10, 1/5, 3/10, 2/5)": {0: "1/10", 1: "1/5", 2: "3/10", 3: "2/5"},
}


def _epsilons(largest: LogValue) -> list[LogValue | Fraction]:
    """ε at, just above and just below the exact max leakage, plus ε = 0 and ε = 1/2."""
    ratio = largest.ratio
    assert isinstance(ratio, Fraction)
    step = Fraction(1, 10**6)
    values: list[LogValue | Fraction] = [largest, LogValue(ratio * (1 + step))]
    if ratio > 1:
        values.append(LogValue(ratio - (ratio - 1) * step))
    values += [Fraction(0), Fraction(1, 2)]
    return values


@check(
    "pml.def_2_6",
    mutants={
        "strict_form_iii": "form (iii) with max_y l(X->y) < ε instead of <= ε",
        "identity_max_mass": "the identity mechanism attains -log max_x p_X(x), not log 1/p_min",
    },
)
def def_2_6(ctx: CheckContext) -> list[Evidence]:
    """``pml.def_2_6``: Saeidian et al., Definition 2.6 ((ε, P)-PML), §2.3 and §3.3.

    Statement: the three forms of (ε, P_X)-PML agree:
    (i) P_Y({y : l(X->y) <= ε}) = 1, (ii) D_inf(P_XY || P_X × P_Y) <= ε,
    (iii) max over y with p_Y(y) > 0 of l(X->y) <= ε.  The identity mechanism attains
    the largest possible leakage log 1/p_min.

    Evidence:
        P: on random (P_{Y|X}, P_X), the three forms give the same answer for ε equal to
           the exact max leakage L, for log(e^L (1 + 10^-6)) just above, for a log-ratio
           just below (when L > 0), and for ε = 0 and ε = 1/2 (certified comparisons).
        E: for the identity mechanism and 4 priors, max_y l(X->y) and D_inf(P_XY || P_X×P_Y)
           both equal log 1/p_min exactly (expected values: 1/min p_X, computed
           independently of the library).
    """
    strict = ctx.mutant == "strict_form_iii"

    def forms(mechanism: Mechanism, prior: Distribution, epsilon: object) -> tuple[bool, ...]:
        first = probability_leakage_at_most(mechanism, prior, epsilon) == 1
        second = pml_joint_divergence(mechanism, prior) <= epsilon
        largest = max_pointwise_maximal_leakage(mechanism, prior)
        third = largest < epsilon if strict else largest <= epsilon
        return first, second, third

    def agree(instance: tuple[Mechanism, Distribution]) -> bool:
        mechanism, prior = instance
        return all(
            len(set(forms(mechanism, prior, epsilon))) == 1
            for epsilon in _epsilons(max_pointwise_maximal_leakage(mechanism, prior))
        )

    def explain(instance: tuple[Mechanism, Distribution]) -> str:
        mechanism, prior = instance
        return "; ".join(
            f"ε = {epsilon}: forms (i), (ii), (iii) = {forms(mechanism, prior, epsilon)}"
            for epsilon in _epsilons(max_pointwise_maximal_leakage(mechanism, prior))
        )

    cases = []
    for name, masses in _IDENTITY_PRIORS.items():
        prior = Distribution(masses)
        identity = Mechanism.identity(prior.outcomes)
        smallest = min(Fraction(value) for value in masses.values())
        largest = max(Fraction(value) for value in masses.values())
        expected = LogValue(1 / (largest if ctx.mutant == "identity_max_mass" else smallest))
        cases.append(
            (
                f"identity, prior {name}: max_y l(X->y)",
                max_pointwise_maximal_leakage(identity, prior),
                expected,
            )
        )
        cases.append(
            (
                f"identity, prior {name}: D_inf(P_XY || P_X x P_Y)",
                pml_joint_divergence(identity, prior),
                expected,
            )
        )
    return [
        property_holds(
            ctx,
            xst.mechanisms_with_prior(),
            agree,
            describe="the three forms of (ε, P_X)-PML agree (ε at, above, below the max leakage)",
            explain=explain,
        ),
        exact_instances(
            cases,
            origin="computed as log 1/min p_X (§2.3, §3.3)",
            equal=lambda computed, expected: computed == expected,  # exact ratio equality
        ),
    ]


# --- pml.thm_3_4 ---------------------------------------------------------------------
_Y = sympy.Symbol("y", positive=True)
_Q = sympy.Symbol("q", positive=True)


def _countable_mechanism() -> tuple[sympy.Expr, sympy.Expr]:
    """p(y|0) = 2^-(y+1), p(y|1) = (1/3)(2/3)^y on y = 0, 1, 2, ... (CLAIMS.md, thm_3_4)."""
    return sympy.Rational(1, 2) ** (_Y + 1), sympy.Rational(1, 3) * sympy.Rational(2, 3) ** _Y


def _countable_posterior_of_one(y: int, prior_zero: Fraction) -> Fraction:
    """q_{X|Y=y}(1) exactly, for the prior (prior_zero, 1 - prior_zero)."""
    zero = prior_zero * Fraction(1, 2 ** (y + 1))
    one = (1 - prior_zero) * Fraction(2**y, 3 ** (y + 1))
    return one / (zero + one)


@check(
    "pml.thm_3_4",
    mutants={
        "any_prior": "the second adversary R_X may lack full support (hypothesis dropped)",
        "attained_at_finite_y": "the countable mechanism discloses X at some finite y",
    },
)
def thm_3_4(ctx: CheckContext) -> list[Evidence]:
    """``pml.thm_3_4``: Saeidian et al., Theorem 3.4 (ubiquity of disclosures), proof A.1.

    Statement: if P_{Y|X} discloses U (Def 3.3: inf_y H_inf(Q_{U|Y=y}) = 0) to one
    full-support adversary Q_X, it discloses U to every full-support R_X (finite Y); and
    with countable Y the infimum may be reached only in the limit: binary X,
    p(y|0) = 2^-(y+1), p(y|1) = (1/3)(2/3)^y, y = 0, 1, ...

    Evidence:
        P: on random (P_{Y|X}, P_{U|X}, Q_X, R_X) with Q_X, R_X of full support, U is
           disclosed to Q_X exactly when it is disclosed to R_X.
        L: for every full-support prior (q/(1+q), 1/(1+q)), q > 0 symbolic, the posterior
           q_{X|Y=y}(1) tends to 1 as y -> oo (limit engine, exact), so H_inf -> 0: X is
           disclosed; not attained, since 1 - q_{X|Y=y}(1) = q p(y|0)/q_Y(y) is proved
           positive for every y.
        L: exact posteriors at y = 0..40 for 3 priors are all below 1 (no finite output
           discloses), and exp C = sup_y p(y|1)/p(y|0) -> oo as y -> oo although no entry
           is zero (leakage capacity infinite).
    """

    def ubiquitous(instance: tuple[Mechanism, Mechanism, Distribution, Distribution]) -> bool:
        mechanism, attribute, first, second = instance
        return is_disclosed(mechanism, attribute, first) == is_disclosed(
            mechanism, attribute, second
        )

    def explain(instance: tuple[Mechanism, Mechanism, Distribution, Distribution]) -> str:
        mechanism, attribute, first, second = instance
        return (
            f"disclosed to Q_X: {is_disclosed(mechanism, attribute, first)}, "
            f"to R_X: {is_disclosed(mechanism, attribute, second)}"
        )

    instances = mechanism_attribute_two_adversaries(second_full_support=ctx.mutant != "any_prior")
    evidence = [
        property_holds(
            ctx,
            instances,
            ubiquitous,
            describe="U disclosed to one full-support Q_X iff to another full-support R_X",
            explain=explain,
        )
    ]

    given_zero, given_one = _countable_mechanism()
    prior_zero = _Q / (1 + _Q)
    posterior_one = (
        (1 - prior_zero) * given_one / (prior_zero * given_zero + (1 - prior_zero) * given_one)
    )
    posterior_one = sympy.simplify(posterior_one)
    complement = _Q * given_zero / (_Q * given_zero + given_one)
    reached_at_finite_y = not (
        sympy.simplify(1 - posterior_one - complement) == 0
        and (_Q * given_zero).is_positive
        and given_one.is_positive
    )
    evidence.append(
        limit_evidence(
            limits.limit(posterior_one, _Y, "oo"),
            1,
            attained=reached_at_finite_y,
            expected_attained=ctx.mutant == "attained_at_finite_y",
            family="posterior q(X=1 | y), prior (q/(1+q), 1/(1+q)), q > 0, y -> oo",
            name="lim q(X=1|y)",
        )
    )
    priors = (Fraction(1, 2), Fraction(1, 1000), Fraction(999, 1000))
    finite = {
        f"p_X(0) = {q0}, y = {y}": _countable_posterior_of_one(y, q0)
        for q0 in priors
        for y in range(41)
    }
    capacity = limits.limit(given_one / given_zero, _Y, "oo")
    evidence.append(
        witness_evidence(
            "no finite y discloses X (posterior max < 1 at y = 0..40 for 3 priors), and "
            "C = log sup_y p(y|1)/p(y|0) = oo with no zero entry",
            all(value < 1 for value in finite.values()) and capacity == sympy.oo,
            values={
                "q(X=1 | y=40), p_X(0) = 1/2": finite["p_X(0) = 1/2, y = 40"],
                "lim_{y->oo} p(y|1)/p(y|0)": capacity,
            },
            counterexample="some finite y gives posterior 1, or the capacity is finite",
            kind="L",
        )
    )
    return evidence
