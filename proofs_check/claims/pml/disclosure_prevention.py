"""Checks of Saeidian et al., *Rethinking Disclosure Prevention with PML*, §3.2–3.3.

Claims ``pml.thm_3_5`` (disclosure prevention via PML), ``pml.thm_3_7`` (absolute
disclosure prevention) and ``pml.cor_3_10`` (no singling out) of ``CLAIMS.md``; proofs in
the paper's Appendix A (A.2, A.4).

Every comparison is exact, in the multiplicative domain: H_inf(P_{U|Y=y}) >=
H_inf(P_U) - l(U->y) is checked as 1/max p(u|y) >= (1/max p_U) / exp l(U->y).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from exactpml import (
    Distribution,
    LogValue,
    Mechanism,
    discloses,
    leakage_capacity,
    max_pointwise_maximal_leakage,
    min_entropy,
    pointwise_maximal_leakage,
    posterior_min_entropy,
    singles_out,
)
from exactpml import strategies as xst
from proofs_check import CheckContext, Evidence, check, property_holds, witness_evidence
from proofs_check.claims.pml._instances import (
    edge_cases,
    finite_capacity_mechanisms,
    mechanism_prior_attribute,
    non_constant_deterministic_attributes,
    private_leaning_mechanisms,
)
from proofs_check.claims.pml._measures import is_disclosed

__all__ = ["cor_3_10", "thm_3_5", "thm_3_7"]


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
        entropy_u = min_entropy(attribute.output_distribution(prior))
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
        entropy_u = min_entropy(attribute.output_distribution(prior))
        epsilon = max_pointwise_maximal_leakage(mechanism, prior)
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
            f"H_inf(P_U) = {min_entropy(attribute.output_distribution(prior))}",
            f"ε = max_y l(X->y) = {max_pointwise_maximal_leakage(mechanism, prior)}",
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
        constant = min_entropy(attribute.output_distribution(adversary)) == 0
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
            f"C = {capacity}, "
            f"H_inf(Q_U) = {min_entropy(attribute.output_distribution(adversary))}, "
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
            values={
                "C": capacity,
                "H_inf(Q_U)": min_entropy(constant.output_distribution(uniform)),
            },
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
        epsilon = max_pointwise_maximal_leakage(mechanism, prior)
        entropy = min_entropy(prior)
        applies = epsilon <= entropy if at_entropy else epsilon < entropy
        return not applies or not singles_out(mechanism, prior)

    def explain(instance: tuple[Mechanism, Distribution]) -> str:
        mechanism, prior = instance
        return (
            f"ε = max_y l(X->y) = {max_pointwise_maximal_leakage(mechanism, prior)}, "
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
