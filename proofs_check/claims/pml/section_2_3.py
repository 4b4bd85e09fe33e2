"""Checks of Saeidian et al., *Rethinking Disclosure Prevention with PML*, §2.3–§3.3.

Claims ``pml.pre_processing``, ``pml.def_2_6``, ``pml.thm_3_4``, ``pml.thm_3_5``,
``pml.thm_3_7`` and ``pml.cor_3_10`` of ``CLAIMS.md`` (statements restated there; the
source is ``seeds/004_95043fae0a301e80.txt``, proofs in its Appendix A).  Every
comparison is exact: log-valued quantities are :class:`~exactpml.LogValue` objects whose
ratios are compared as rationals ("multiplicative domain"), so ``H_inf(P_{U|Y=y}) >=
H_inf(P_U) - l(U->y)`` is checked as ``1/max p(u|y) >= (1/max p_U) / exp l(U->y)``.

Properties run on random exact finite instances (:mod:`proofs_check.claims.pml._instances`);
outputs of probability zero use footnote 5 (posterior = prior).  Examples 3.1 and 3.11
are in :mod:`~proofs_check.claims.pml.example_3_1` and
:mod:`~proofs_check.claims.pml.example_3_11`.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

import sympy
from hypothesis import strategies as st

from exactpml import (
    Distribution,
    LogValue,
    Mechanism,
    discloses,
    leakage_capacity,
    limits,
    max_pointwise_maximal_leakage,
    min_entropy,
    pml_joint_divergence,
    pointwise_maximal_leakage,
    posterior_min_entropy,
    probability_leakage_at_most,
    singles_out,
)
from exactpml import strategies as xst
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
    edge_cases,
    finite_capacity_mechanisms,
    mechanism_attribute_two_adversaries,
    mechanism_prior_attribute,
    non_constant_deterministic_attributes,
    private_leaning_mechanisms,
)

__all__ = ["cor_3_10", "def_2_6", "pre_processing", "thm_3_4", "thm_3_5", "thm_3_7"]


# --- small exact helpers ---------------------------------------------------------------
def attribute_prior(attribute: Mechanism, prior: Distribution) -> Distribution:
    """P_U = P_{U|X} ∘ P_X."""
    return attribute.output_distribution(prior)


def is_disclosed(mechanism: Mechanism, attribute: Mechanism, prior: Distribution) -> bool:
    """Def 3.3 for finite Y: some output y has H_inf(Q_{U|Y=y}) = 0 (any prior, even with zeros)."""
    return any(
        posterior_min_entropy(mechanism, prior, y, attribute=attribute) == 0
        for y in mechanism.outputs
    )


def _max_leakage(mechanism: Mechanism, prior: Distribution) -> LogValue:
    """max over y with p_Y(y) > 0 of l(X->y): the least ε of (ε, P_X)-PML (Def 2.6 (iii))."""
    return max_pointwise_maximal_leakage(mechanism, prior)


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
        largest = _max_leakage(mechanism, prior)
        third = largest < epsilon if strict else largest <= epsilon
        return first, second, third

    def agree(instance: tuple[Mechanism, Distribution]) -> bool:
        mechanism, prior = instance
        return all(
            len(set(forms(mechanism, prior, epsilon))) == 1
            for epsilon in _epsilons(_max_leakage(mechanism, prior))
        )

    def explain(instance: tuple[Mechanism, Distribution]) -> str:
        mechanism, prior = instance
        return "; ".join(
            f"ε = {epsilon}: forms (i), (ii), (iii) = {forms(mechanism, prior, epsilon)}"
            for epsilon in _epsilons(_max_leakage(mechanism, prior))
        )

    cases = []
    for name, masses in _IDENTITY_PRIORS.items():
        prior = Distribution(masses)
        identity = Mechanism.identity(prior.outcomes)
        smallest = min(Fraction(value) for value in masses.values())
        largest = max(Fraction(value) for value in masses.values())
        expected = LogValue(1 / (largest if ctx.mutant == "identity_max_mass" else smallest))
        cases.append(
            (f"identity, prior {name}: max_y l(X->y)", _max_leakage(identity, prior), expected)
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
        exact_instances(cases, origin="computed as log 1/min p_X (§2.3, §3.3)"),
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


# --- pml.thm_3_5 ---------------------------------------------------------------------
_THM_3_5_EDGE_CASES = (
    # P_X = (1/2, 1/2, 0): the output y = 1 has P-mass 0 (so l(X->y) = 0 everywhere that
    # counts) but reveals x = 2, hence U = 1{X = 0} = 0, to every full-support adversary.
    (
        Mechanism({0: {0: 1}, 1: {0: 1}, 2: {1: 1}}, outputs=[0, 1]),
        Distribution([(0, "1/2"), (1, "1/2"), (2, 0)]),
        Mechanism.deterministic(lambda x: int(x == 0), [0, 1, 2], outputs=[0, 1]),
        Distribution.uniform([0, 1, 2]),
    ),
    # The tight case H(P_U) = ε: the identity on a uniform bit discloses U = X.
    (
        Mechanism.identity([0, 1]),
        Distribution.uniform([0, 1]),
        Mechanism.identity([0, 1]),
        Distribution([(0, "1/3"), (1, "2/3")]),
    ),
)
"""Instances random search rarely reaches, each at the edge of one hypothesis of Thm 3.5."""


@check(
    "pml.thm_3_5",
    mutants={
        "half_leakage": "H_inf(P_{U|Y=y}) >= H_inf(P_U) - l(U->y)/2 (a constant changed)",
        "entropy_at_epsilon": "H_inf(P_U) >= ε suffices, instead of H_inf(P_U) > ε",
        "prior_with_zeros": "P_X need not have full support (hypothesis P_X in the set P_X "
        "dropped)",
    },
)
def thm_3_5(ctx: CheckContext) -> list[Evidence]:
    """``pml.thm_3_5``: Saeidian et al., Theorem 3.5 (disclosure prevention via PML), (A.2).

    Statement: for every attribute U of X and every y,
    H_inf(P_{U|Y=y}) >= H_inf(P_U) - l(U->y) >= H_inf(P_U) - l(X->y)   (A.2);
    hence if P_{Y|X} satisfies (ε, P_X)-PML, P_X has full support and H_inf(P_U) > ε,
    then U is not disclosed to any full-support adversary Q_X.

    Evidence:
        P: the same statement on 2 pinned edge cases (an output of P-mass 0 that reveals
           U when P_X lacks full support; H_inf(P_U) = ε exactly).
        P: on random (P_{Y|X}, P_X, P_{U|X}, Q_X) (P_X with zeros allowed, Q_X of full
           support; kernels often mixed with the uniform-output kernel so that they leak
           little), for every output: both inequalities of (A.2), exactly in the
           multiplicative domain; and when P_X has full support and H_inf(P_U) > L, with
           L = max_y l(X->y) the least ε of (ε, P_X)-PML (any ε in [L, H_inf(P_U)) gives
           the same hypothesis), U is not disclosed to Q_X.  The full support of P_X is
           needed: with P_X = (1, 0), the identity mechanism and U uniform given x = 0 but
           constant given x = 1, L = 0 < H_inf(P_U) = log 2 and U is disclosed to every Q_X
           (the ``prior_with_zeros`` mutant finds such an instance).
    """
    half = ctx.mutant == "half_leakage"

    def chain_fails(mechanism: Mechanism, prior: Distribution, attribute: Mechanism) -> bool:
        entropy_u = min_entropy(attribute_prior(attribute, prior))
        for y in mechanism.outputs:
            remaining = posterior_min_entropy(mechanism, prior, y, attribute=attribute)
            about_u = pointwise_maximal_leakage(mechanism, prior, y, attribute=attribute)
            about_x = pointwise_maximal_leakage(mechanism, prior, y)
            if half:  # 2 H(U|y) >= 2 H(U) - l(U->y), as ratios
                if not 2 * remaining >= 2 * entropy_u - about_u:
                    return True
            elif not remaining >= entropy_u - about_u >= entropy_u - about_x:
                return True
        return False

    def consequence_applies(
        mechanism: Mechanism, prior: Distribution, attribute: Mechanism
    ) -> bool:
        if ctx.mutant != "prior_with_zeros" and not prior.has_full_support:
            return False
        entropy_u = min_entropy(attribute_prior(attribute, prior))
        epsilon = _max_leakage(mechanism, prior)
        if ctx.mutant == "entropy_at_epsilon":
            return entropy_u >= epsilon
        return entropy_u > epsilon

    def holds(instance: tuple[Mechanism, Distribution, Mechanism, Distribution]) -> bool:
        mechanism, prior, attribute, adversary = instance
        if chain_fails(mechanism, prior, attribute):
            return False
        return not consequence_applies(mechanism, prior, attribute) or not discloses(
            mechanism, attribute, adversary
        )

    def explain(instance: tuple[Mechanism, Distribution, Mechanism, Distribution]) -> str:
        mechanism, prior, attribute, adversary = instance
        parts = [
            f"H_inf(P_U) = {min_entropy(attribute_prior(attribute, prior))}",
            f"ε = max_y l(X->y) = {_max_leakage(mechanism, prior)}",
            f"U disclosed to Q_X: {discloses(mechanism, attribute, adversary)}",
        ]
        for y in mechanism.outputs:
            parts.append(
                f"y={y!r}: H_inf(P_U|y) = "
                f"{posterior_min_entropy(mechanism, prior, y, attribute=attribute)}, "
                f"l(U->y) = {pointwise_maximal_leakage(mechanism, prior, y, attribute=attribute)}"
                f", l(X->y) = {pointwise_maximal_leakage(mechanism, prior, y)}"
            )
        return "; ".join(parts)

    @st.composite
    def instances(draw: st.DrawFn) -> tuple[Mechanism, Distribution, Mechanism, Distribution]:
        mechanism, prior, attribute = draw(
            mechanism_prior_attribute(mechanisms=private_leaning_mechanisms())
        )
        adversary = draw(xst.distributions(outcomes=mechanism.inputs, full_support=True))
        return mechanism, prior, attribute, adversary

    first = "H(U) - l(U->y)/2" if half else "H(U) - l(U->y)"
    support = "any P_X" if ctx.mutant == "prior_with_zeros" else "full-support P_X"
    relation = ">=" if ctx.mutant == "entropy_at_epsilon" else ">"
    describe = (
        f"(A.2) H(U|y) >= {first} >= H(U) - l(X->y) for every y; and (ε, P_X)-PML with "
        f"{support} and H(P_U) {relation} ε imply U not disclosed to any full-support Q_X"
    )
    return [
        property_holds(ctx, instances(), holds, describe=describe, explain=explain),
        edge_cases(
            _THM_3_5_EDGE_CASES,
            holds,
            describe="the same statement (A.2 and non-disclosure)",
            explain=explain,
        ),
    ]


# --- pml.thm_3_7 ---------------------------------------------------------------------
_RANDOMIZED_RESPONSE = Mechanism({0: {0: "2/3", 1: "1/3"}, 1: {0: "1/3", 1: "2/3"}})


def _entropy_bound(adversary: Distribution, capacity: LogValue, *, flipped: bool) -> LogValue:
    """log(1 + q_min/(1 - q_min) e^{-C}) exactly (e^{-C} is rational: C is a LogValue).

    With C = oo the bound is log 1 = 0 (e^{-C} = 0).
    """
    q_min = min(adversary.probabilities)
    assert isinstance(q_min, Fraction)
    if capacity.is_infinite:
        return LogValue(1)
    assert isinstance(capacity.ratio, Fraction)
    factor = capacity.ratio if flipped else 1 / capacity.ratio
    return LogValue(1 + q_min / (1 - q_min) * factor)


Thm37Instance = tuple[Mechanism, Mechanism, Mechanism, Distribution]


@check(
    "pml.thm_3_7",
    mutants={
        "infinite_capacity": "mechanisms with C = oo allowed (hypothesis C < oo dropped)",
        "constant_attribute": "constant attributes allowed (hypothesis H_inf(Q_U) > 0 dropped)",
        "capacity_sign_flipped": "the bound with e^{+C} instead of e^{-C}",
    },
)
def thm_3_7(ctx: CheckContext) -> list[Evidence]:
    """``pml.thm_3_7``: Saeidian et al., Theorem 3.7 (absolute disclosure prevention), A.4.

    Statement (as corrected in CLAIMS.md): if C(P_{Y|X}) < oo, no non-constant attribute U
    (H_inf(Q_U) > 0) is disclosed to any full-support Q_X; and for every non-constant
    deterministic V = f(X) and every y,
    H_inf(Q_{V|Y=y}) >= log(1 + q_min/(1 - q_min) e^{-C(P_{Y|X})}).
    The source says "no attribute of X can be disclosed": false for a constant attribute,
    whose H_inf is 0 before any output, so the hypothesis H_inf(Q_U) > 0 is needed.

    Evidence:
        P: on random (P_{Y|X}, P_{U|X}, V, Q_X) with C < oo (positive columns, sometimes an
           all-zero column), |X| >= 2, U any kernel, V a non-constant function, Q_X of full
           support: U is not disclosed when H_inf(Q_U) > 0, and the entropy bound holds for
           V at every output, compared exactly (e^{-C} is the rational 1/exp C).
        P (the missing hypothesis, as an exact witness): randomized response (C = log 2)
           "discloses" the constant attribute U = 0 to the uniform Q_X.
    """
    infinite = ctx.mutant == "infinite_capacity"
    flipped = ctx.mutant == "capacity_sign_flipped"
    mechanisms = (
        xst.mechanisms(min_inputs=2) if infinite else finite_capacity_mechanisms(min_inputs=2)
    )

    @st.composite
    def instances(draw: st.DrawFn) -> Thm37Instance:
        mechanism = draw(mechanisms)
        attribute = draw(xst.attributes(mechanism.inputs))
        function = draw(non_constant_deterministic_attributes(mechanism.inputs))
        adversary = draw(xst.distributions(outcomes=mechanism.inputs, full_support=True))
        return mechanism, attribute, function, adversary

    def holds(instance: Thm37Instance) -> bool:
        mechanism, attribute, function, adversary = instance
        constant = min_entropy(attribute_prior(attribute, adversary)) == 0
        if (not constant or ctx.mutant == "constant_attribute") and discloses(
            mechanism, attribute, adversary
        ):
            return False
        bound = _entropy_bound(adversary, leakage_capacity(mechanism), flipped=flipped)
        return all(
            posterior_min_entropy(mechanism, adversary, y, attribute=function) >= bound
            for y in mechanism.outputs
        )

    def explain(instance: Thm37Instance) -> str:
        mechanism, attribute, function, adversary = instance
        capacity = leakage_capacity(mechanism)
        remaining = ", ".join(
            f"H_inf(Q_V|{y!r}) = "
            f"{posterior_min_entropy(mechanism, adversary, y, attribute=function)}"
            for y in mechanism.outputs
        )
        return (
            f"C = {capacity}, H_inf(Q_U) = {min_entropy(attribute_prior(attribute, adversary))}, "
            f"U disclosed: {discloses(mechanism, attribute, adversary)}; bound "
            f"{_entropy_bound(adversary, capacity, flipped=flipped)}, {remaining}"
        )

    uniform = Distribution.uniform(_RANDOMIZED_RESPONSE.inputs)
    constant = Mechanism.deterministic(lambda _x: 0, _RANDOMIZED_RESPONSE.inputs)
    capacity = leakage_capacity(_RANDOMIZED_RESPONSE)
    hypothesis = "" if ctx.mutant == "constant_attribute" else " with H_inf(Q_U) > 0"
    return [
        property_holds(
            ctx,
            instances(),
            holds,
            describe=("C = oo allowed" if infinite else "C < oo")
            + f": no attribute{hypothesis} is disclosed to a full-support Q_X, and "
            "H_inf(Q_V|y) >= log(1 + q_min/(1-q_min) e^"
            + ("{+C}" if flipped else "{-C}")
            + ") for non-constant deterministic V",
            explain=explain,
        ),
        witness_evidence(
            "the source's statement needs H_inf(Q_U) > 0: randomized response (C = log 2 < oo) "
            "discloses the constant attribute U = 0 to the uniform Q_X (H_inf(Q_U|y) = 0 for "
            "every y), so the check adds this hypothesis",
            capacity == LogValue(2) and is_disclosed(_RANDOMIZED_RESPONSE, constant, uniform),
            values={"C": capacity, "H_inf(Q_U)": min_entropy(attribute_prior(constant, uniform))},
            counterexample="the constant attribute is not disclosed",
            kind="P",
        ),
    ]


# --- pml.cor_3_10 --------------------------------------------------------------------
@check(
    "pml.cor_3_10",
    mutants={"epsilon_equals_entropy": "ε = H_inf(P_X) allowed instead of ε < H_inf(P_X)"},
)
def cor_3_10(ctx: CheckContext) -> list[Evidence]:
    """``pml.cor_3_10``: Saeidian et al., Corollary 3.10 (no singling out).

    Statement: if P_{Y|X} satisfies (ε, P_X)-PML with ε < H_inf(P_X), it does not single
    out X (Def 3.9: inf_y H_inf(P_{X|Y=y}) = 0).

    Evidence:
        P: on random (P_{Y|X}, P_X) with P_X of full support: whenever L < H_inf(P_X),
           with L = max_y l(X->y) the least ε with (ε, P_X)-PML (so that some ε works iff
           L < H_inf(P_X)), the mechanism does not single out X; exact comparison.
    """
    at_entropy = ctx.mutant == "epsilon_equals_entropy"

    def no_singling_out(instance: tuple[Mechanism, Distribution]) -> bool:
        mechanism, prior = instance
        epsilon = _max_leakage(mechanism, prior)
        entropy = min_entropy(prior)
        applies = epsilon <= entropy if at_entropy else epsilon < entropy
        return not applies or not singles_out(mechanism, prior)

    def explain(instance: tuple[Mechanism, Distribution]) -> str:
        mechanism, prior = instance
        return (
            f"ε = max_y l(X->y) = {_max_leakage(mechanism, prior)}, "
            f"H_inf(P_X) = {min_entropy(prior)}, singles out: {singles_out(mechanism, prior)}"
        )

    return [
        property_holds(
            ctx,
            xst.mechanisms_with_prior(full_support=True),
            no_singling_out,
            describe="(ε, P_X)-PML with ε "
            + ("<=" if at_entropy else "<")
            + " H_inf(P_X) implies no singling out",
            explain=explain,
        )
    ]
