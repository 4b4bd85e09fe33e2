"""Checks of Saeidian et al., *Rethinking Disclosure Prevention with PML*, §3.2–3.3.

Claims ``pml.thm_3_5`` (disclosure prevention via PML), ``pml.thm_3_7`` (absolute
disclosure prevention) and ``pml.cor_3_10`` (no singling out) of ``CLAIMS.md``; proofs in
the paper's Appendix A (A.2, A.4).

Two routes meet in every check: exactpml's min-entropies, leakages, capacity, disclosure and
singling out against :mod:`proofs_check.reference.pml` (every posterior by Bayes' rule, every
attribute's law from U - X - Y, the capacity column by column, disclosure and singling out
straight from Defs 3.3 and 3.9, all by enumeration in plain ``Fraction`` arithmetic); the
claim is then decided on the reference's values.  Every comparison is exact, in the
multiplicative domain: H_inf(P_{U|Y=y}) >= H_inf(P_U) - l(U->y) is checked as
1/max p(u|y) >= (1/max p_U) / exp l(U->y).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction

import sympy
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
from proofs_check import (
    CheckContext,
    Evidence,
    check,
    property_holds,
    sharpness_evidence,
    witness_evidence,
)
from proofs_check import reference as ref
from proofs_check.claims.pml import _proofs
from proofs_check.claims.pml._instances import (
    edge_cases,
    finite_capacity_mechanisms,
    mechanism_prior_attribute,
    non_constant_deterministic_attributes,
    private_leaning_mechanisms,
)
from proofs_check.claims.pml._measures import is_disclosed
from proofs_check.claims.pml._proofs import Finite, ProofPart, Strengthening, changes

__all__ = ["cor_3_10", "thm_3_5", "thm_3_7"]


def _ratio(value: LogValue) -> Fraction | None:
    """The exact ratio e^value of a library LogValue (``None`` for +∞)."""
    if value.is_infinite:
        return None
    ratio = value.ratio
    assert isinstance(ratio, Fraction)
    return ratio


def _entropy_ratio(law: Mapping[Hashable, Fraction] | Distribution) -> Fraction:
    """exp H_inf = 1/max p (Def 2.1)."""
    return 1 / ref.certainty(law)


# --- pml.thm_3_5 ---------------------------------------------------------------------
Thm35Instance = tuple[Mechanism, Distribution, Mechanism, Distribution]

_THM_3_5_EDGE_CASES: tuple[Thm35Instance, ...] = (
    # P_X = (1/2, 1/2, 0): the output y = 1 has P-mass 0 (so l(X->y) = 0 everywhere that
    # counts) but reveals x = 2, hence U = 1{X = 0} = 0, to every full-support adversary.
    (
        Mechanism({0: {0: 1}, 1: {0: 1}, 2: {1: 1}}, outputs=[0, 1]),
        Distribution([(0, "1/2"), (1, "1/2"), (2, 0)]),
        Mechanism.deterministic(lambda x: int(x == 0), [0, 1, 2], outputs=[0, 1]),
        Distribution.uniform([0, 1, 2]),
    ),
    # The tight case H(P_U) = ε: the identity on a uniform bit discloses U = X; every
    # inequality of (A.2) is an equality at both outputs.
    (
        Mechanism.identity([0, 1]),
        Distribution.uniform([0, 1]),
        Mechanism.identity([0, 1]),
        Distribution([(0, "1/3"), (1, "2/3")]),
    ),
)
"""Instances random search rarely reaches, each at the edge of one hypothesis of Thm 3.5."""


_R = sympy.Symbol("r")
"""e^ε of (ε, P_X)-PML: every real ε."""
_EVERY_EPSILON = sympy.Interval.open(0, sympy.oo)


def _entropy_chain(s: Finite, *, half: bool = False) -> tuple[sympy.Expr, sympy.Expr,
                                                            sympy.Expr, sympy.Expr]:
    """H_inf(P_{U|Y=y}), H_inf(P_U), l(U->y) (halved for the mutant) and l(X->y) at y = 0,
    from the definitions (Def 2.1, Thm 2.4)."""
    after = _proofs.attribute_posterior(s.prior, s.channel, s.attribute, 0)
    before = _proofs.attribute_law(s.prior, s.attribute)
    about_u = sympy.log(_proofs.attribute_pml_ratio(s.prior, s.channel, s.attribute, 0))
    return (
        -sympy.log(sympy.Max(*after)),
        -sympy.log(sympy.Max(*before)),
        about_u / 2 if half else about_u,
        sympy.log(_proofs.pml_ratio(s.prior, s.channel, 0)),
    )


_CHAIN_DOMAIN = (
    "every kernel P_{Y|X} with 2 inputs and any number of outputs (the column of y ranges "
    "over [0, 1]^2) at every output y with p_Y(y) > 0, every attribute kernel P_{U|X} with 2 "
    "values both of positive probability, and every full-support prior on 2 inputs"
)


def _chain_hypotheses(s: Finite) -> tuple[sympy.Basic, ...]:
    return s.with_hypotheses(
        sympy.Gt(_proofs.output_mass(s.prior, s.channel, 0), 0),
        *(sympy.Gt(mass, 0) for mass in _proofs.attribute_law(s.prior, s.attribute)),
    )


def _not_disclosed_part(ctx: CheckContext) -> ProofPart:
    """(ε, P_X)-PML and H_inf(P_U) > ε imply max_u Q_{U|Y=y}(u) < 1 at every output of
    positive Q-probability; mutants: H_inf(P_U) >= ε, or P_X without full support."""
    if ctx.mutant == "prior_with_zeros":
        # P_X = (1, 0): the only produced output is y = 1 when p(0|0) = 0, and
        # l(X->1) = log max_{x in supp P_X} p(1|x)/p_Y(1) = 0 (support {0}).
        s = _proofs.finite(2, 2, attribute_values=2, adversary=True, full_support=False)
        variables = s.pinned({s.prior[0]: 1, s.prior[1]: 0, s.channel[0][0]: 0})
        leakages = [_proofs.pml_ratio(s.prior, s.channel, 1, support=(0,))]
        domain = ("P_X = (1, 0) (no full support), every 2×2 kernel with p(0|0) = 0 (so y = 1 "
                  "is the only output of positive P-probability and l(X->1) = 0), every "
                  "attribute kernel with 2 values, every full-support Q_X, every ε, at y = 0")
    else:
        s = _proofs.finite(2, 2, attribute_values=2, adversary=True)
        variables = dict(s.variables)
        leakages = [_proofs.pml_ratio(s.prior, s.channel, y) for y in range(2)]
        domain = ("every 2×2 kernel P_{Y|X} whose outputs both have positive P-probability, "
                  "every attribute kernel P_{U|X} with 2 values, every full-support P_X and Q_X "
                  "on 2 inputs, every ε, at every output y with q_Y(y) > 0 (y = 0; the other "
                  "by relabelling)")
    variables[_R] = _EVERY_EPSILON
    produced = [sympy.Gt(_proofs.output_mass(s.prior, s.channel, y), 0)
                for y in range(2) if ctx.mutant != "prior_with_zeros"]
    at_least = ctx.mutant == "entropy_at_epsilon"
    entropy = 1 / sympy.Max(*_proofs.attribute_law(s.prior, s.attribute))
    return ProofPart(
        "(ε, P_X)-PML and H_inf(P_U) " + (">=" if at_least else ">") + " ε imply U not "
        "disclosed to any full-support Q_X: max_u Q_{U|Y=y}(u) < 1"
        + (" (P_X may lack full support)" if ctx.mutant == "prior_with_zeros" else ""),
        domain,
        sympy.Max(*_proofs.attribute_posterior(s.adversary, s.channel, s.attribute, 0)),
        1,
        variables,
        s.with_hypotheses(
            *produced,
            sympy.Gt(_proofs.output_mass(s.adversary, s.channel, 0), 0),
            *(sympy.Le(leakage, _R) for leakage in leakages),
            sympy.Ge(entropy, _R) if at_least else sympy.Gt(entropy, _R),
        ),
        strict=True,
    )


def _thm_3_5_parts(ctx: CheckContext) -> list[ProofPart]:
    """(A.2) as two inequalities (2 inputs, U with 2 values) and the non-disclosure."""
    parts: list[ProofPart] = []
    s = _proofs.finite(2, 2, attribute_values=2)
    if changes(ctx, "half_leakage"):
        half = ctx.mutant == "half_leakage"
        remaining, entropy, about_u, _ = _entropy_chain(s, half=half)
        parts.append(ProofPart(
            "(A.2) H_inf(P_{U|Y=y}) >= H_inf(P_U) - " + ("l(U->y)/2" if half else "l(U->y)"),
            _CHAIN_DOMAIN, entropy - about_u, remaining, s.variables, _chain_hypotheses(s),
        ))
    if changes(ctx):
        _, entropy, about_u, about_x = _entropy_chain(s)
        parts.append(ProofPart(
            "(A.2) H_inf(P_U) - l(U->y) >= H_inf(P_U) - l(X->y)",
            _CHAIN_DOMAIN, entropy - about_x, entropy - about_u, s.variables,
            _chain_hypotheses(s),
        ))
    if changes(ctx, "entropy_at_epsilon", "prior_with_zeros"):
        parts.append(_not_disclosed_part(ctx))
    return parts


def _thm_3_5_strengthenings() -> list[Strengthening]:
    """(A.2)'s first inequality strict; non-disclosure already when H_inf(P_U) > ε -
    log(100/99)."""
    s = _proofs.finite(2, 2, attribute_values=2)
    remaining, entropy, about_u, _ = _entropy_chain(s)
    t = _proofs.finite(2, 2, attribute_values=2, adversary=True)
    leakages = [_proofs.pml_ratio(t.prior, t.channel, y) for y in range(2)]
    entropy_ratio = 1 / sympy.Max(*_proofs.attribute_law(t.prior, t.attribute))
    return [
        Strengthening(
            "strict_chain", "(A.2) H_inf(P_{U|Y=y}) > H_inf(P_U) - l(U->y)", _CHAIN_DOMAIN,
            entropy - about_u, remaining, s.variables, _chain_hypotheses(s), strict=True,
        ),
        Strengthening(
            "entropy_margin",
            "(ε, P_X)-PML and H_inf(P_U) > ε - log(100/99) imply U not disclosed",
            "every 2×2 kernel whose outputs both have positive P-probability, every attribute "
            "kernel with 2 values, every full-support P_X and Q_X on 2 inputs, every ε, at y = 0",
            sympy.Max(*_proofs.attribute_posterior(t.adversary, t.channel, t.attribute, 0)), 1,
            {**t.variables, _R: _EVERY_EPSILON},
            t.with_hypotheses(
                *(sympy.Gt(_proofs.output_mass(t.prior, t.channel, y), 0) for y in range(2)),
                sympy.Gt(_proofs.output_mass(t.adversary, t.channel, 0), 0),
                *(sympy.Le(leakage, _R) for leakage in leakages),
                sympy.Gt(sympy.Rational(100, 99) * entropy_ratio, _R),
            ),
            strict=True,
        ),
    ]


@check(
    "pml.thm_3_5",
    mutants={
        "half_leakage": "H_inf(P_{U|Y=y}) >= H_inf(P_U) - l(U->y)/2 (a constant changed)",
        "entropy_at_epsilon": "H_inf(P_U) >= ε suffices, instead of H_inf(P_U) > ε",
        "prior_with_zeros": "P_X need not have full support (hypothesis P_X in the set P_X "
        "dropped)",
    },
    strengthenings={
        "strict_chain": "H_inf(P_{U|Y=y}) > H_inf(P_U) - l(U->y) (the first >= of (A.2) made "
        "strict)",
        "entropy_margin": "H_inf(P_U) > ε - log(100/99) suffices for non-disclosure (the "
        "hypothesis H_inf(P_U) > ε weakened)",
    },
)
def thm_3_5(ctx: CheckContext) -> list[Evidence]:
    """``pml.thm_3_5``: Saeidian et al., Theorem 3.5 (disclosure prevention via PML), (A.2).

    Statement: for every attribute U of X and every y,
    H_inf(P_{U|Y=y}) >= H_inf(P_U) - l(U->y) >= H_inf(P_U) - l(X->y)   (A.2);
    hence if P_{Y|X} satisfies (ε, P_X)-PML, P_X has full support and H_inf(P_U) > ε,
    then U is not disclosed to any full-support adversary Q_X.

    Evidence:
        P: on random (P_{Y|X}, P_X, P_{U|X}, Q_X) (P_X with zeros allowed, Q_X of full
           support; kernels often mixed with the uniform-output kernel so that they leak
           little): exactpml's H_inf(P_U), H_inf(P_{U|Y=y}), l(U->y), l(X->y), max_y l(X->y)
           and disclosure to Q_X equal the reference's (posteriors of U and X by Bayes' rule,
           P_U from U - X - Y, Def 3.3 by enumeration); on the reference's values, for
           every output, both inequalities of (A.2), exactly in the multiplicative domain;
           and when P_X has full support and H_inf(P_U) > L, with L = max_y l(X->y) the
           least ε of (ε, P_X)-PML (any ε in [L, H_inf(P_U)) gives the same hypothesis), U is
           not disclosed to Q_X.  The paper's standing assumption 𝒳 = supp P_X is the full
           support (the ``prior_with_zeros`` mutant drops it).
        P: the same statement on 2 pinned edge cases (an output of P-mass 0 that reveals
           U when P_X lacks full support; H_inf(P_U) = ε exactly).
        P (sharpness): (A.2) is attained with equality throughout, and H_inf(P_U) > ε cannot
           be relaxed to >=: the identity on a uniform bit with U = X.
        C (proofs, z3): both inequalities of (A.2) for every kernel with 2 inputs, every
           attribute kernel with 2 values of positive probability and every full-support
           prior; the non-disclosure for every 2×2 kernel, attribute kernel with 2 values,
           full-support P_X and Q_X and every ε (written from the definitions, :mod:`._proofs`).
           Each mutant changes a proved part (``prior_with_zeros``: P_X = (1, 0)), refuted.
        Strengthenings: the first inequality strict; H_inf(P_U) > ε - log(100/99): both sharp.
    """
    half = ctx.mutant == "half_leakage"

    def problems(instance: Thm35Instance) -> list[str]:
        mechanism, prior, attribute, adversary = instance
        found: list[str] = []
        entropy_u = _entropy_ratio(ref.attribute_law(attribute, prior))
        epsilon = ref.max_pml_ratio(mechanism, prior)
        library = (
            _ratio(min_entropy(attribute.output_distribution(prior))),
            _ratio(max_pointwise_maximal_leakage(mechanism, prior)),
        )
        if library != (entropy_u, epsilon):
            found.append(
                f"exactpml exp H_inf(P_U), exp max_y l(X->y) = {library}; reference "
                f"{entropy_u}, {epsilon}"
            )
        for y in mechanism.outputs:
            remaining = 1 / ref.posterior_certainty(mechanism, prior, y, attribute)
            about_u = ref.attribute_pml_ratio(mechanism, prior, attribute, y)
            about_x = ref.pml_ratio(mechanism, prior, y)
            computed = (
                _ratio(posterior_min_entropy(mechanism, prior, y, attribute=attribute)),
                _ratio(pointwise_maximal_leakage(mechanism, prior, y, attribute=attribute)),
                _ratio(pointwise_maximal_leakage(mechanism, prior, y)),
            )
            if computed != (remaining, about_u, about_x):
                found.append(
                    f"y={y!r}: exactpml exp H_inf(P_U|y), exp l(U->y), exp l(X->y) = "
                    f"{computed}; reference {remaining}, {about_u}, {about_x}"
                )
                continue
            # exp H(U|y) >= exp H(U) / exp l(U->y) >= exp H(U) / exp l(X->y); with half:
            # H(U|y) >= H(U) - l(U->y)/2, squared: exp(2H(U|y)) >= exp(2H(U)) / exp l(U->y)
            chain = (
                remaining**2 >= entropy_u**2 / about_u
                if half
                else remaining >= entropy_u / about_u >= entropy_u / about_x
            )
            if not chain:
                found.append(
                    f"y={y!r}: exp H_inf(P_U|y) = {remaining}, exp H_inf(P_U) = {entropy_u}, "
                    f"exp l(U->y) = {about_u}, exp l(X->y) = {about_x}"
                )
        full = prior.has_full_support or ctx.mutant == "prior_with_zeros"
        above = entropy_u >= epsilon if ctx.mutant == "entropy_at_epsilon" else entropy_u > epsilon
        disclosed = ref.discloses(mechanism, attribute, adversary)
        if discloses(mechanism, attribute, adversary) != disclosed:
            found.append(f"disclosed to Q_X: exactpml {not disclosed}, reference {disclosed}")
        if full and above and disclosed:
            found.append(
                f"exp H_inf(P_U) = {entropy_u} vs exp ε = {epsilon}, yet U is disclosed to Q_X"
            )
        return found

    @st.composite
    def instances(draw: st.DrawFn) -> Thm35Instance:
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
        f"{support} and H(P_U) {relation} ε imply U not disclosed to any full-support Q_X "
        "(exactpml equal to the reference)"
    )
    tight = _THM_3_5_EDGE_CASES[1]
    mechanism, prior, attribute, _ = tight
    sharp_values = {
        f"y={y}: exp H_inf(P_U|y), exp H_inf(P_U), exp l(U->y), exp l(X->y)": (
            1 / ref.posterior_certainty(mechanism, prior, y, attribute),
            _entropy_ratio(ref.attribute_law(attribute, prior)),
            ref.attribute_pml_ratio(mechanism, prior, attribute, y),
            ref.pml_ratio(mechanism, prior, y),
        )
        for y in mechanism.outputs
    }
    attained = all(h_y == h / l_u == h / l_x for h_y, h, l_u, l_x in sharp_values.values()) and (
        ref.discloses(mechanism, attribute, tight[3])
        and _entropy_ratio(ref.attribute_law(attribute, prior))
        == ref.max_pml_ratio(mechanism, prior)
    )
    return [
        property_holds(
            ctx,
            instances(),
            lambda instance: not problems(instance),
            describe=describe,
            explain=lambda instance: "; ".join(problems(instance)),
        ),
        edge_cases(
            _THM_3_5_EDGE_CASES,
            lambda instance: not problems(instance),
            describe="the same statement (A.2 and non-disclosure)",
            explain=lambda instance: "; ".join(problems(instance)),
        ),
        sharpness_evidence(
            "(A.2) H(U|y) >= H(U) - l(U->y) >= H(U) - l(X->y), and H(P_U) > ε",
            attained=attained,
            on="the identity on a uniform bit with U = X: both inequalities are equalities "
            "(0 = log 2 - log 2) at each output, and H(P_U) = ε = log 2 with U disclosed, so "
            "> ε cannot be relaxed to >= ε",
            values={name: ", ".join(map(str, v)) for name, v in sharp_values.items()},
            kind="P",
        ),
        *_proofs.proof_parts(_thm_3_5_parts(ctx), search=ctx),
        *(_proofs.strengthenings(_thm_3_5_strengthenings()) if ctx.mutant is None else []),
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


def _bound_holds(
    remaining: Fraction, q_min: Fraction, capacity: Fraction | None, mutant: str | None
) -> bool:
    """exp H_inf(Q_V|y) = ``remaining`` >= 1 + q_min/(1 - q_min) e^{-C}, exactly.

    Mutants: e^{+C} (``capacity_sign_flipped``); e^{-C/2} (``half_capacity``), decided as
    ((remaining - 1)(1 - q_min)/q_min)^2 e^C >= 1 (both sides positive)."""
    if capacity is None:  # e^{-C} = 0
        return remaining >= 1
    odds = q_min / (1 - q_min)
    if mutant == "half_capacity":
        return remaining >= 1 and ((remaining - 1) / odds) ** 2 * capacity >= 1
    factor = capacity if mutant == "capacity_sign_flipped" else 1 / capacity
    return remaining >= 1 + odds * factor


Thm37Instance = tuple[Mechanism, Mechanism, Mechanism, Distribution]

_THM_3_7_EDGE_CASES: tuple[Thm37Instance, ...] = (
    # randomized response (C = log 2), Q uniform, V = X: H_inf(Q_V|y) = log(3/2), the bound
    # exactly; U = X not disclosed.
    (
        _RANDOMIZED_RESPONSE,
        Mechanism.identity([0, 1]),
        Mechanism.identity([0, 1]),
        Distribution.uniform([0, 1]),
    ),
    # the same with the constant attribute U = 0: "disclosed" (H_inf = 0 before any output)
    (
        _RANDOMIZED_RESPONSE,
        Mechanism.deterministic(lambda _x: 0, [0, 1]),
        Mechanism.identity([0, 1]),
        Distribution.uniform([0, 1]),
    ),
    # the identity (C = oo) discloses U = X: outside the hypothesis C < oo
    (
        Mechanism.identity([0, 1]),
        Mechanism.identity([0, 1]),
        Mechanism.identity([0, 1]),
        Distribution.uniform([0, 1]),
    ),
)
"""Randomized response at the bound, a constant attribute, and an infinite capacity."""


def _capacity_ratio(channel: tuple[tuple[sympy.Symbol, ...], ...]) -> sympy.Expr:
    """exp C = max_y max_{x, x'} p(y|x)/p(y|x') (Def 2.7; every entry positive)."""
    return sympy.Max(*(
        channel[x][y] / channel[other][y]
        for y in range(len(channel[0]))
        for x in range(len(channel))
        for other in range(len(channel))
        if x != other
    ))


def _entropy_bound_expr(s: Finite, mutant: str | None, *, factor: object = 1) -> sympy.Expr:
    """log(1 + q_min/(1 - q_min) e^{-C}) (mutants: e^{+C}, e^{-C/2}); ``factor`` scales the
    second term (a strengthening)."""
    q_min = sympy.Min(*s.prior)
    capacity = _capacity_ratio(s.channel)
    scale = {"capacity_sign_flipped": capacity,
             "half_capacity": 1 / sympy.sqrt(capacity)}.get(mutant or "", 1 / capacity)
    return sympy.log(1 + factor * q_min / (1 - q_min) * scale)


_POSITIVE_DOMAIN = ("every 2×2 kernel P_{Y|X} with positive entries (C < oo) and every "
                    "full-support Q_X on 2 inputs, V = X (the non-constant function of a binary "
                    "X, up to relabelling), at y = 0 (the other output by relabelling)")


def _thm_3_7_parts(ctx: CheckContext) -> list[ProofPart]:
    """No non-constant attribute is disclosed when C < oo; the entropy bound for V = X."""
    parts: list[ProofPart] = []
    mutant = ctx.mutant
    if changes(ctx, "infinite_capacity", "constant_attribute"):
        s = _proofs.finite(2, 2, attribute_values=2, prior_name="q")
        infinite = mutant == "infinite_capacity"
        constant = mutant == "constant_attribute"
        positive = () if infinite else tuple(sympy.Gt(w, 0) for row in s.channel for w in row)
        entropy = () if constant else (
            sympy.Lt(sympy.Max(*_proofs.attribute_law(s.prior, s.attribute)), 1),)
        parts.append(ProofPart(
            ("C = oo allowed" if infinite else "C < oo") + ": no attribute"
            + ("" if constant else " with H_inf(Q_U) > 0")
            + " is disclosed to a full-support Q_X: max_u Q_{U|Y=y}(u) < 1",
            ("every kernel P_{Y|X} with 2 inputs, "
             + ("any entries (C = oo allowed)" if infinite else "positive entries (C < oo)")
             + " and any number of outputs (the column of y ranges over "
             + ("[0, 1]^2" if infinite else "(0, 1)^2") + ") at every output y with "
             "q_Y(y) > 0, every attribute kernel P_{U|X} with 2 values"
             + ("" if constant else " and H_inf(Q_U) > 0")
             + ", and every full-support Q_X on 2 inputs"),
            sympy.Max(*_proofs.attribute_posterior(s.prior, s.channel, s.attribute, 0)), 1,
            s.variables,
            s.with_hypotheses(*positive, *entropy,
                              sympy.Gt(_proofs.output_mass(s.prior, s.channel, 0), 0)),
            strict=True,
        ))
    if changes(ctx, "capacity_sign_flipped", "half_capacity"):
        s = _proofs.finite(2, 2, prior_name="q")
        exponent = {"capacity_sign_flipped": "{+C}", "half_capacity": "{-C/2}"}.get(
            mutant or "", "{-C}")
        parts.append(ProofPart(
            f"H_inf(Q_{{V|Y=y}}) >= log(1 + q_min/(1-q_min) e^{exponent}) for non-constant "
            "deterministic V",
            _POSITIVE_DOMAIN,
            _entropy_bound_expr(s, mutant),
            -sympy.log(sympy.Max(*_proofs.posterior(s.prior, s.channel, 0))),
            s.variables,
            s.with_hypotheses(*(sympy.Gt(w, 0) for row in s.channel for w in row)),
        ))
    return parts


def _thm_3_7_strengthenings() -> list[Strengthening]:
    """The entropy bound strict, and with its second term raised by 1/100."""
    s = _proofs.finite(2, 2, prior_name="q")
    remaining = -sympy.log(sympy.Max(*_proofs.posterior(s.prior, s.channel, 0)))
    positive = s.with_hypotheses(*(sympy.Gt(w, 0) for row in s.channel for w in row))
    return [
        Strengthening("strict_entropy_bound",
                      "H_inf(Q_{V|Y=y}) > log(1 + q_min/(1-q_min) e^{-C})", _POSITIVE_DOMAIN,
                      _entropy_bound_expr(s, None), remaining, s.variables, positive,
                      strict=True),
        Strengthening("raised_entropy_bound",
                      "H_inf(Q_{V|Y=y}) >= log(1 + (101/100) q_min/(1-q_min) e^{-C})",
                      _POSITIVE_DOMAIN,
                      _entropy_bound_expr(s, None, factor=sympy.Rational(101, 100)), remaining,
                      s.variables, positive),
    ]


@check(
    "pml.thm_3_7",
    mutants={
        "infinite_capacity": "mechanisms with C = oo allowed (hypothesis C < oo dropped)",
        "constant_attribute": "constant attributes allowed (hypothesis H_inf(Q_U) > 0 dropped)",
        "capacity_sign_flipped": "the bound with e^{+C} instead of e^{-C}",
        "half_capacity": "the bound with e^{-C/2} instead of e^{-C} (the constant halved)",
    },
    strengthenings={
        "strict_entropy_bound": "H_inf(Q_{V|Y=y}) > log(1 + q_min/(1-q_min) e^{-C}) (>= made "
        "strict)",
        "raised_entropy_bound": "H_inf(Q_{V|Y=y}) >= log(1 + (101/100) q_min/(1-q_min) e^{-C}) "
        "(the constant raised)",
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
           support: exactpml's C, H_inf(Q_U), disclosure of U and H_inf(Q_{V|Y=y}) equal the
           reference's (column ratios of Def 2.7; posteriors by Bayes' rule; Def 3.3); on the
           reference's values U is not disclosed when H_inf(Q_U) > 0, and the entropy bound
           holds for V at every output, exactly (e^{-C} is the rational 1/exp C).
        P: the same on 3 pinned instances (randomized response at the bound; a constant U;
           the identity, C = oo, outside the hypothesis).
        P (the missing hypothesis, as an exact witness): randomized response (C = log 2)
           "discloses" the constant attribute U = 0 to the uniform Q_X.
        P (sharpness): the entropy bound is attained: randomized response (2/3, 1/3), Q_X
           uniform, V = X gives H_inf(Q_{V|Y=y}) = log(3/2) = log(1 + 1·e^{-log 2}) at both
           outputs.
        C (proofs, z3): no attribute with 2 values and H_inf(Q_U) > 0 is disclosed, for every
           kernel with 2 inputs and positive entries and every full-support Q_X; the entropy
           bound for every 2×2 kernel with positive entries, every full-support Q_X and V = X.
           Each mutant changes a proved part (C = oo: entries in [0, 1]), refuted.
        Strengthenings: the entropy bound strict, or with its term raised by 1/100: sharp.
    """
    mutant = ctx.mutant
    infinite = mutant == "infinite_capacity"
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

    def problems(instance: Thm37Instance) -> list[str]:
        mechanism, attribute, function, adversary = instance
        found: list[str] = []
        capacity = ref.capacity_ratio(mechanism)
        entropy_u = _entropy_ratio(ref.attribute_law(attribute, adversary))
        disclosed = ref.discloses(mechanism, attribute, adversary)
        library = (
            _ratio(leakage_capacity(mechanism)),
            _ratio(min_entropy(attribute.output_distribution(adversary))),
            discloses(mechanism, attribute, adversary),
        )
        if library != (capacity, entropy_u, disclosed):
            found.append(
                f"exactpml (exp C, exp H_inf(Q_U), U disclosed) = {library}; reference "
                f"{capacity}, {entropy_u}, {disclosed}"
            )
        if capacity is None and not infinite:
            return found  # outside the hypothesis C < oo
        q_min = min(Fraction(q) for q in adversary.probabilities)
        if (entropy_u > 1 or mutant == "constant_attribute") and disclosed:
            found.append(f"C = log {capacity} < oo, exp H_inf(Q_U) = {entropy_u}, U disclosed")
        for y in mechanism.outputs:
            remaining = 1 / ref.posterior_certainty(mechanism, adversary, y, function)
            library_v = _ratio(posterior_min_entropy(mechanism, adversary, y, attribute=function))
            if library_v != remaining:
                found.append(f"y={y!r}: exp H_inf(Q_V|y) = {library_v} (exactpml), {remaining}")
            elif not _bound_holds(remaining, q_min, capacity, mutant):
                found.append(
                    f"y={y!r}: exp H_inf(Q_V|y) = {remaining} below the bound (q_min = "
                    f"{q_min}, exp C = {capacity})"
                )
        return found

    uniform = Distribution.uniform(_RANDOMIZED_RESPONSE.inputs)
    constant = Mechanism.deterministic(lambda _x: 0, _RANDOMIZED_RESPONSE.inputs)
    capacity = leakage_capacity(_RANDOMIZED_RESPONSE)
    identity = Mechanism.identity([0, 1])
    sharp = {
        f"y={y}: exp H_inf(Q_V|y)": 1
        / ref.posterior_certainty(_RANDOMIZED_RESPONSE, uniform, y, identity)
        for y in _RANDOMIZED_RESPONSE.outputs
    }
    bound = 1 + Fraction(1) / 2  # q_min/(1 - q_min) = 1, e^{-C} = 1/2
    hypothesis = "" if mutant == "constant_attribute" else " with H_inf(Q_U) > 0"
    exponent = {"capacity_sign_flipped": "{+C}", "half_capacity": "{-C/2}"}.get(
        mutant or "", "{-C}"
    )
    describe = (
        ("C = oo allowed" if infinite else "C < oo")
        + f": no attribute{hypothesis} is disclosed to a full-support Q_X, and "
        f"H_inf(Q_V|y) >= log(1 + q_min/(1-q_min) e^{exponent}) for non-constant deterministic "
        "V (exactpml equal to the reference)"
    )
    return [
        property_holds(
            ctx,
            instances(),
            lambda instance: not problems(instance),
            describe=describe,
            explain=lambda instance: "; ".join(problems(instance)),
        ),
        edge_cases(
            _THM_3_7_EDGE_CASES,
            lambda instance: not problems(instance),
            describe="the same statement",
            explain=lambda instance: "; ".join(problems(instance)),
        ),
        witness_evidence(
            "the source's statement needs H_inf(Q_U) > 0: randomized response (C = log 2 < oo) "
            "discloses the constant attribute U = 0 to the uniform Q_X (H_inf(Q_U|y) = 0 for "
            "every y), so the check adds this hypothesis",
            capacity == LogValue(2)
            and is_disclosed(_RANDOMIZED_RESPONSE, constant, uniform)
            and ref.discloses(_RANDOMIZED_RESPONSE, constant, uniform),
            values={
                "C": capacity,
                "H_inf(Q_U)": min_entropy(constant.output_distribution(uniform)),
            },
            counterexample="the constant attribute is not disclosed",
            kind="P",
        ),
        sharpness_evidence(
            "H_inf(Q_V|y) >= log(1 + q_min/(1-q_min) e^{-C})",
            attained=all(value == bound for value in sharp.values()),
            on="randomized response (2/3, 1/3) (C = log 2), Q_X uniform, V = X: "
            "H_inf(Q_V|y) = log(3/2), the bound, at both outputs",
            values=sharp,
            kind="P",
        ),
        *_proofs.proof_parts(_thm_3_7_parts(ctx)),
        *(_proofs.strengthenings(_thm_3_7_strengthenings()) if mutant is None else []),
    ]


# --- pml.cor_3_10 --------------------------------------------------------------------
_COR_3_10_EDGE_CASES: tuple[tuple[Mechanism, Distribution], ...] = (
    # ε = H_inf(P_X) = log 2 and X singled out: the threshold is sharp.
    (Mechanism.identity([0, 1]), Distribution.uniform([0, 1])),
    # Y = 1{X = a} on (1/2, 1/3, 1/6): ε = log 2 = H_inf(P_X), singles out X = a at y = 1;
    # ε < log 6 = -log p_min and ε < log 3 = log |X|.
    (
        Mechanism.deterministic(lambda x: int(x == "a"), ["a", "b", "c"], outputs=[0, 1]),
        Distribution({"a": "1/2", "b": "1/3", "c": "1/6"}),
    ),
)


def _no_singling_out(mutant: str | None, *, margin: object = 1) -> tuple[
        sympy.Expr, dict[sympy.Symbol, sympy.Set], tuple[sympy.Basic, ...], str]:
    """max_x P_{X|Y=0}(x) (< 1: no singling out at y = 0), the variables and the hypotheses
    (ε, P_X)-PML (every l(X->y) <= ε) and ε < H_inf(P_X) (mutants: <=, -log p_min,
    log |X|; ``margin`` weakens the hypothesis to e^ε < margin/max p_X)."""
    s = _proofs.finite(3, 2)
    threshold, text = {
        "p_min_threshold": (1 / sympy.Min(*s.prior), "-log min_x p_X(x)"),
        "hartley_threshold": (sympy.Integer(3), "log |X|"),
    }.get(mutant or "", (margin / sympy.Max(*s.prior), "H_inf(P_X)"))
    below = sympy.Le(_R, threshold) if mutant == "epsilon_equals_entropy" else sympy.Lt(
        _R, threshold)
    hypotheses = s.with_hypotheses(
        *(sympy.Gt(_proofs.output_mass(s.prior, s.channel, y), 0) for y in range(2)),
        *(sympy.Le(_proofs.pml_ratio(s.prior, s.channel, y), _R) for y in range(2)),
        below,
    )
    return (sympy.Max(*_proofs.posterior(s.prior, s.channel, 0)),
            {**s.variables, _R: _EVERY_EPSILON}, hypotheses, text)


_SINGLING_DOMAIN = ("every 3×2 kernel P_{Y|X} whose outputs both have positive probability, "
                    "every full-support prior on 3 inputs and every ε, at y = 0 (the other "
                    "output by relabelling)")


@check(
    "pml.cor_3_10",
    mutants={
        "epsilon_equals_entropy": "ε = H_inf(P_X) allowed instead of ε < H_inf(P_X)",
        "p_min_threshold": "ε < -log min_x p_X(x) suffices (p_min for p_max in the constant)",
        "hartley_threshold": "ε < log |supp P_X| suffices (Hartley for min-entropy)",
    },
    strengthenings={
        "entropy_margin": "ε < H_inf(P_X) + log(101/100) suffices (the hypothesis weakened)",
    },
)
def cor_3_10(ctx: CheckContext) -> list[Evidence]:
    """``pml.cor_3_10``: Saeidian et al., Corollary 3.10 (no singling out).

    Statement: if P_{Y|X} satisfies (ε, P_X)-PML with ε < H_inf(P_X), it does not single
    out X (Def 3.9: inf_y H_inf(P_{X|Y=y}) = 0).

    Evidence:
        P: on random (P_{Y|X}, P_X) with P_X of full support: exactpml's max_y l(X->y),
           H_inf(P_X) and singling out equal the reference's (posteriors by Bayes' rule;
           Def 3.9: some posterior a point mass); on the reference's values, whenever
           L < H_inf(P_X), with L = max_y l(X->y) the least ε with (ε, P_X)-PML (so that
           some ε works iff L < H_inf(P_X)), the mechanism does not single out X.
        P: the same on 2 pinned instances at the threshold (the identity on a uniform bit;
           Y = 1{X = a} on (1/2, 1/3, 1/6)).
        P (sharpness): ε < H_inf(P_X) cannot be relaxed to ε <= H_inf(P_X): both pinned
           instances have L = H_inf(P_X) = log 2 and single out X.
        C (proof, z3): max_x P_{X|Y=y}(x) < 1 whenever every l(X->y) <= ε < H_inf(P_X), for
           every 3×2 kernel with both outputs of positive probability, every full-support prior
           and every ε; each mutant changes the hypothesis, refuted.
        Strengthening: ε < H_inf(P_X) + log(101/100) suffices: sharp.
    """
    mutant = ctx.mutant

    def threshold(prior: Distribution) -> Fraction:
        """exp of the claimed threshold on ε: 1/max p (mutants: 1/min p, |supp|)."""
        masses = [Fraction(p) for p in prior.probabilities if p != 0]
        if mutant == "p_min_threshold":
            return 1 / min(masses)
        if mutant == "hartley_threshold":
            return Fraction(len(masses))
        return 1 / max(masses)

    def problems(instance: tuple[Mechanism, Distribution]) -> list[str]:
        mechanism, prior = instance
        epsilon = ref.max_pml_ratio(mechanism, prior)
        entropy = _entropy_ratio(prior)
        single = ref.singles_out(mechanism, prior)
        library = (
            _ratio(max_pointwise_maximal_leakage(mechanism, prior)),
            _ratio(min_entropy(prior)),
            singles_out(mechanism, prior),
        )
        if library != (epsilon, entropy, single):
            return [
                f"exactpml (exp ε, exp H_inf(P_X), singles out) = {library}; reference "
                f"{epsilon}, {entropy}, {single}"
            ]
        top = threshold(prior)
        applies = epsilon <= top if mutant == "epsilon_equals_entropy" else epsilon < top
        if applies and single:
            return [f"exp ε = max_y exp l(X->y) = {epsilon}, threshold {top}, yet X is singled out"]
        return []

    relation = "<=" if mutant == "epsilon_equals_entropy" else "<"
    bound = {"p_min_threshold": "-log p_min", "hartley_threshold": "log |supp P_X|"}.get(
        mutant or "", "H_inf(P_X)"
    )
    attained = all(
        ref.max_pml_ratio(m, p) == _entropy_ratio(p) and ref.singles_out(m, p)
        for m, p in _COR_3_10_EDGE_CASES
    )
    evidence = [
        property_holds(
            ctx,
            xst.mechanisms_with_prior(full_support=True),
            lambda instance: not problems(instance),
            describe=f"(ε, P_X)-PML with ε {relation} {bound} implies no singling out (exactpml "
            "equal to the reference)",
            explain=lambda instance: "; ".join(problems(instance)),
        ),
        edge_cases(
            _COR_3_10_EDGE_CASES,
            lambda instance: not problems(instance),
            describe="the same at the threshold",
            explain=lambda instance: "; ".join(problems(instance)),
        ),
        sharpness_evidence(
            "ε < H_inf(P_X)",
            attained=attained,
            on="the identity on a uniform bit and Y = 1{X = a} on (1/2, 1/3, 1/6): "
            "max_y l(X->y) = H_inf(P_X) = log 2 and X is singled out, so the strict "
            "inequality is needed",
            values={
                "identity, uniform bit: exp max_y l(X->y)": ref.max_pml_ratio(
                    *_COR_3_10_EDGE_CASES[0]
                ),
                "1{X = a}, (1/2, 1/3, 1/6): exp max_y l(X->y)": ref.max_pml_ratio(
                    *_COR_3_10_EDGE_CASES[1]
                ),
            },
            kind="P",
        ),
    ]
    certainty, variables, hypotheses, text = _no_singling_out(mutant)
    relation = "<=" if mutant == "epsilon_equals_entropy" else "<"
    evidence += _proofs.proof_parts([ProofPart(
        f"(ε, P_X)-PML with ε {relation} {text} implies no singling out: max_x P_{{X|Y=y}}(x) < 1",
        _SINGLING_DOMAIN, certainty, 1, variables, hypotheses, strict=True,
    )])
    if mutant is None:
        certainty, variables, hypotheses, _ = _no_singling_out(
            None, margin=sympy.Rational(101, 100))
        evidence += _proofs.strengthenings([Strengthening(
            "entropy_margin", "(ε, P_X)-PML with ε < H_inf(P_X) + log(101/100) implies no "
            "singling out", _SINGLING_DOMAIN, certainty, 1, variables, hypotheses, strict=True,
        )])
    return evidence
