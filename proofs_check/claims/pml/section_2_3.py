"""Checks of Saeidian et al., *Rethinking Disclosure Prevention with PML*, §2.3 and §3.2.

Claims ``pml.pre_processing``, ``pml.def_2_6`` and ``pml.thm_3_4`` of ``CLAIMS.md``
(statements restated there; proofs in the paper's Appendix A).  Theorems 3.5, 3.7 and
Corollary 3.10 are in
:mod:`~proofs_check.claims.pml.disclosure_prevention`; Examples 3.1 and 3.11 in
:mod:`~proofs_check.claims.pml.example_3_1` and :mod:`~proofs_check.claims.pml.example_3_11`.

Two routes meet in every check: exactpml's values (PML, the three forms of Def 2.6,
disclosure) against :mod:`proofs_check.reference.pml`, which forms every posterior by Bayes'
rule and every attribute's law from the Markov chain U - X - Y, by enumeration in plain
``Fraction`` arithmetic.  The claim itself is then decided on the reference's values, so an
implementation returning a constant fails the first comparison.  Log-valued quantities are
compared as their exact ratios ("multiplicative domain"); outputs of probability zero use
footnote 5 (posterior = prior).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
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
    sharpness_evidence,
    witness_evidence,
)
from proofs_check import reference as ref
from proofs_check.claims.pml._instances import (
    edge_cases,
    mechanism_attribute_two_adversaries,
    mechanism_prior_attribute,
)
from proofs_check.claims.pml._measures import is_disclosed
from proofs_check.claims.pml._proofs import (
    ProofPart,
    Strengthening,
    attribute_law,
    attribute_pml_ratio,
    changes,
    finite,
    output_mass,
    pml_ratio,
    proof_parts,
    strengthenings,
)
from proofs_check.prover import every_prior

__all__ = ["def_2_6", "pre_processing", "thm_3_4"]

Label = Hashable


def _ratio(value: LogValue) -> Fraction | None:
    """The exact ratio e^value of a library LogValue (``None`` for +∞ or an irrational one)."""
    if value.is_infinite:
        return None
    ratio = value.ratio
    return ratio if isinstance(ratio, Fraction) else None


# --- pml.pre_processing ----------------------------------------------------------------
def _p_min(prior: Distribution) -> Fraction:
    """min over supp P_X of p_X(x) (the paper takes X = supp P_X)."""
    return min(Fraction(p) for p in prior.probabilities if p != 0)


def _pre_processing_bound(prior: Distribution, mutant: str | None) -> Fraction:
    """exp of the claimed upper bound on l(X->y): 1/p_min (mutants: 1/p_max, 1/(1 - p_min))."""
    if mutant == "max_mass_bound":
        return 1 / max(Fraction(p) for p in prior.probabilities)
    if mutant == "one_minus_p_min_bound":
        return 1 / (1 - _p_min(prior)) if _p_min(prior) < 1 else Fraction(1)
    return 1 / _p_min(prior)


PreInstance = tuple[Mechanism, Distribution, Mechanism]

_PRE_SHARP_PRIOR = Distribution({"a": "1/2", "b": "1/3", "c": "1/6"})
_PRE_SHARP_MECHANISM = Mechanism(
    {"a": {"a": 1}, "b": {"b": 1}, "c": {"c": 1}}, outputs=["a", "b", "c", "never"]
)
"""The identity on a prior (1/2, 1/3, 1/6), plus an output nobody produces."""


def _kernels(inputs: int) -> str:
    """The kernels a proof at y = 0 over every ``inputs`` x 2 kernel covers: the statement at
    y involves only the column of y, and every column in [0, 1]^inputs occurs there."""
    return (f"every kernel P_{{Y|X}} with {inputs} inputs and any number of outputs (the column "
            f"of y ranges over [0, 1]^{inputs}) at every output y with p_Y(y) > 0")


def _pre_processing_parts(ctx: CheckContext) -> list[ProofPart]:
    """The data-processing inequality (2 inputs, Z with 2 values) and the two bounds on
    l(X->y) (3 inputs), written from the definitions; under a mutant only the parts it
    changes, mutated."""
    parts: list[ProofPart] = []
    mutant = ctx.mutant
    if changes(ctx, "reversed", "strict"):
        s = finite(2, 2, attribute_values=2)
        about_z = sympy.log(attribute_pml_ratio(s.prior, s.channel, s.attribute, 0))
        about_x = sympy.log(pml_ratio(s.prior, s.channel, 0))
        masses = attribute_law(s.prior, s.attribute)
        relation = {"reversed": ">=", "strict": "<"}.get(mutant or "", "<=")
        parts.append(
            ProofPart(
                f"Z - X - Y implies l(Z->y) {relation} l(X->y)",
                _kernels(2) + ", every attribute kernel P_{Z|X} with 2 values both of "
                "positive probability, and every full-support prior on 2 inputs",
                about_x if mutant == "reversed" else about_z,
                about_z if mutant == "reversed" else about_x,
                s.variables,
                s.with_hypotheses(sympy.Gt(output_mass(s.prior, s.channel, 0), 0),
                                  *(sympy.Gt(mass, 0) for mass in masses)),
                strict=mutant == "strict",
            )
        )
    three = finite(3, 2)
    leakage = sympy.log(pml_ratio(three.prior, three.channel, 0))
    domain = _kernels(3) + " and every full-support prior on 3 inputs"
    produced = three.with_hypotheses(sympy.Gt(output_mass(three.prior, three.channel, 0), 0))
    if changes(ctx, "strict"):
        relation = "<" if mutant == "strict" else "<="
        parts.append(ProofPart(f"0 {relation} l(X->y)", domain, 0, leakage, three.variables,
                               produced, strict=mutant == "strict"))
    if changes(ctx, "max_mass_bound", "one_minus_p_min_bound"):
        bound, text = {
            "max_mass_bound": (-sympy.log(sympy.Max(*three.prior)), "-log max_x p_X(x)"),
            "one_minus_p_min_bound": (-sympy.log(1 - sympy.Min(*three.prior)),
                                      "log 1/(1 - min_x p_X(x))"),
        }.get(mutant or "", (-sympy.log(sympy.Min(*three.prior)), "-log min_x p_X(x)"))
        parts.append(ProofPart(f"l(X->y) <= {text}", domain, leakage, bound, three.variables,
                               produced))
    return parts


def _pre_processing_strengthenings() -> list[Strengthening]:
    """The upper bound log 1/p_min made strict, and lowered by log(100/99) (3 inputs)."""
    s = finite(3, 2)
    ratio = pml_ratio(s.prior, s.channel, 0)
    domain = _kernels(3) + " and every full-support prior on 3 inputs"
    produced = s.with_hypotheses(sympy.Gt(output_mass(s.prior, s.channel, 0), 0))
    p_min = sympy.Min(*s.prior)
    return [
        Strengthening("strict_upper_bound", "l(X->y) < -log min_x p_X(x)", domain,
                      sympy.log(ratio), -sympy.log(p_min), s.variables, produced, strict=True),
        Strengthening("lowered_upper_bound", "l(X->y) <= -log min_x p_X(x) - log(100/99)",
                      domain, sympy.log(ratio), -sympy.log(sympy.Rational(100, 99) * p_min),
                      s.variables, produced),
    ]


@check(
    "pml.pre_processing",
    mutants={
        "reversed": "l(Z->y) >= l(X->y) instead of <= (inequality flipped)",
        "strict": "l(Z->y) < l(X->y) and 0 < l(X->y) (strict where the claim is not)",
        "max_mass_bound": "l(X->y) <= -log max_x p_X(x) = H_inf(P_X) instead of -log min_x p_X(x)",
        "one_minus_p_min_bound": "l(X->y) <= log 1/(1 - p_min) (Prop 3.8's constant) instead of "
        "log 1/p_min",
    },
    strengthenings={
        "strict_upper_bound": "l(X->y) < -log min_x p_X(x) (<= made strict)",
        "lowered_upper_bound": "l(X->y) <= -log min_x p_X(x) - log(100/99) (the constant "
        "1/p_min shrunk to (99/100)/p_min)",
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
           constant and randomised Z), for every output y: exactpml's l(Z->y) and l(X->y)
           equal the reference's (D_inf of the posterior of Z, resp. X, formed by Bayes'
           rule from the joint law of (Z, Y), resp. (X, Y), by enumeration), and on those
           values exp l(Z->y) <= exp l(X->y) and 1 <= exp l(X->y) <= 1/min_{supp} p_X.
        P (sharpness): all three bounds are attained on the identity mechanism with the
           prior (1/2, 1/3, 1/6) and an output of mass 0: Z = X gives l(Z->y) = l(X->y),
           y = c gives l(X->c) = log 6 = log 1/p_min, the unproduced output gives 0.
        C (proofs, z3): l(Z->y) <= l(X->y) for every kernel with 2 inputs, every attribute
           kernel with 2 values of positive probability and every full-support prior; and
           0 <= l(X->y) <= -log min_x p_X(x) for every kernel with 3 inputs and every
           full-support prior; each written from the definitions (:mod:`._proofs`), at
           y = 0 over every 2-output kernel, which covers every output of every kernel.
           Each mutant changes a proved part, and the prover refutes it.
        Strengthenings: the upper bound made strict, and lowered by log(100/99): both
           refuted (sharp; the identity attains log 1/p_min).
    """
    mutant = ctx.mutant

    def problems(instance: PreInstance) -> list[str]:
        mechanism, prior, attribute = instance
        top = _pre_processing_bound(prior, mutant)
        found: list[str] = []
        for y in mechanism.outputs:
            about_z = ref.attribute_pml_ratio(mechanism, prior, attribute, y)
            about_x = ref.pml_ratio(mechanism, prior, y)
            library_z = _ratio(pointwise_maximal_leakage(mechanism, prior, y, attribute=attribute))
            library_x = _ratio(pointwise_maximal_leakage(mechanism, prior, y))
            if (library_z, library_x) != (about_z, about_x):
                found.append(
                    f"y={y!r}: exactpml exp l(Z->y), exp l(X->y) = {library_z}, {library_x}; "
                    f"reference {about_z}, {about_x}"
                )
                continue
            if mutant == "reversed":
                ordered = about_z >= about_x
            elif mutant == "strict":
                ordered = about_z < about_x and about_x > 1
            else:
                ordered = about_z <= about_x
            if not ordered or not Fraction(1) <= about_x <= top:
                found.append(
                    f"y={y!r}: exp l(Z->y) = {about_z}, exp l(X->y) = {about_x}, claimed "
                    f"upper bound {top}"
                )
        return found

    relation = {"reversed": ">=", "strict": "<"}.get(mutant or "", "<=")
    lower = "0 <" if mutant == "strict" else "0 <="
    upper = {
        "max_mass_bound": "-log max_x p_X(x)",
        "one_minus_p_min_bound": "log 1/(1 - p_min)",
    }.get(mutant or "", "-log min_x p_X(x)")
    describe = (
        f"Z - X - Y implies l(Z->y) {relation} l(X->y), and {lower} l(X->y) <= {upper}, for "
        "every y (exactpml equal to the reference's posteriors)"
    )
    identity_z = Mechanism.deterministic(lambda x: x, _PRE_SHARP_PRIOR.outcomes)
    sharp = (_PRE_SHARP_MECHANISM, _PRE_SHARP_PRIOR, identity_z)
    values = {
        f"y={y!r}: (exp l(Z->y), exp l(X->y))": (
            ref.attribute_pml_ratio(_PRE_SHARP_MECHANISM, _PRE_SHARP_PRIOR, identity_z, y),
            ref.pml_ratio(_PRE_SHARP_MECHANISM, _PRE_SHARP_PRIOR, y),
        )
        for y in _PRE_SHARP_MECHANISM.outputs
    }
    attained = (
        all(z == x for z, x in values.values())
        and values["y='c': (exp l(Z->y), exp l(X->y))"][1] == 1 / _p_min(_PRE_SHARP_PRIOR)
        and values["y='never': (exp l(Z->y), exp l(X->y))"][1] == 1
        and not problems(sharp)
    )
    return [
        property_holds(
            ctx,
            mechanism_prior_attribute(),
            lambda instance: not problems(instance),
            describe=describe,
            explain=lambda instance: "; ".join(problems(instance)),
        ),
        edge_cases(
            [sharp],
            lambda instance: not problems(instance),
            describe="the same on the identity with prior (1/2, 1/3, 1/6) and Z = X",
            explain=lambda instance: "; ".join(problems(instance)),
        ),
        sharpness_evidence(
            "l(Z->y) <= l(X->y), 0 <= l(X->y) <= log 1/p_min",
            attained=attained,
            on="the identity on (1/2, 1/3, 1/6) with Z = X and an unproduced output: every "
            "y has l(Z->y) = l(X->y), l(X->c) = log 6 = log 1/p_min, l(X->never) = 0",
            values={name: f"{z}, {x}" for name, (z, x) in values.items()},
            kind="P",
        ),
        *proof_parts(_pre_processing_parts(ctx)),
        *(strengthenings(_pre_processing_strengthenings()) if mutant is None else []),
    ]


# --- pml.def_2_6 ---------------------------------------------------------------------
_IDENTITY_PRIORS: dict[str, dict[Hashable, str]] = {
    "(1/2, 1/3, 1/6)": {0: "1/2", 1: "1/3", 2: "1/6"},
    "uniform on 4": {0: "1/4", 1: "1/4", 2: "1/4", 3: "1/4"},
    "(7/10, 3/10)": {0: "7/10", 1: "3/10"},
    "(1/10, 1/5, 3/10, 2/5)": {0: "1/10", 1: "1/5", 2: "3/10", 3: "2/5"},
}

Epsilon = LogValue | Fraction
"""ε as the log of an exact ratio (LogValue), or as a rational number of nats."""


def _epsilons(largest: Fraction) -> list[Epsilon]:
    """ε at, just above and just below the exact max leakage (ratios), ε = 0 and log(3/2),
    and ε = 1/2 and 1 nat (rational ε, whose e^ε is irrational)."""
    step = Fraction(1, 10**6)
    values: list[Epsilon] = [LogValue(largest), LogValue(largest * (1 + step))]
    if largest > 1:
        values.append(LogValue(largest - (largest - 1) * step))
    values += [LogValue(1), LogValue(Fraction(3, 2)), Fraction(1, 2), Fraction(1)]
    return values


def _within(ratio: Fraction | None, epsilon: Epsilon) -> bool:
    """e^(log ratio) <= e^ε, decided by the reference (+∞ is ``None``)."""
    if ratio is None:
        return False
    if isinstance(epsilon, LogValue):
        bound = epsilon.ratio
        assert isinstance(bound, Fraction)
        return ratio <= bound
    return ref.ratio_at_most_exp(ratio, epsilon)


@dataclass(frozen=True, slots=True)
class _ReferenceLaw:
    """What the reference computes once per (mechanism, prior), whatever ε: each output's
    p_Y(y) and exp l(X->y) (Bayes' rule, Def 2.2), exp D_inf(P_XY || P_X×P_Y) from the
    joint law (swapped for the ``reversed_divergence`` mutant) and max_y exp l(X->y)."""

    masses: dict[Label, Fraction]
    ratios: dict[Label, Fraction]
    divergence: Fraction | None
    largest: Fraction

    @classmethod
    def of(cls, mechanism: Mechanism, prior: Distribution, mutant: str | None) -> _ReferenceLaw:
        return cls(
            {y: ref.output_mass(mechanism, prior, y) for y in mechanism.outputs},
            {y: ref.pml_ratio(mechanism, prior, y) for y in mechanism.outputs},
            ref.joint_divergence_ratio(mechanism, prior, reversed_=mutant == "reversed_divergence"),
            ref.max_pml_ratio(mechanism, prior),
        )

    def mass_within(self, epsilon: Epsilon) -> Fraction:
        """P_Y({y : l(X->y) <= ε})."""
        return sum(
            (self.masses[y] for y in self.masses if _within(self.ratios[y], epsilon)),
            Fraction(0),
        )


def _reference_forms(
    law: _ReferenceLaw, epsilon: Epsilon, mutant: str | None
) -> tuple[bool, bool, bool]:
    """Forms (i), (ii), (iii) of Def 2.6 from the reference's posteriors and joint law."""
    first = law.mass_within(epsilon) == 1
    second = _within(law.divergence, epsilon)
    largest = law.largest
    if mutant == "strict_form_iii":
        third = _within(largest, epsilon) and not (
            isinstance(epsilon, LogValue) and epsilon.ratio == largest
        )
    else:
        third = _within(largest, epsilon)
    return first, second, third


_E = sympy.Symbol("r")
"""e^ε, positive: every ε is a real number."""


def _joint_divergence_ratio(s: object, *, reversed_: bool = False) -> sympy.Expr:
    """exp D_inf(P_XY ‖ P_X×P_Y) = max_{x,y} p(x, y)/(p_X(x) p_Y(y)) with p(x, y) = p_X(x)
    p(y|x) (Def 2.6 (ii)); ``reversed_``: max p_X(x) p_Y(y)/p(x, y) (a mutant).

    Unevaluated: sympy's evaluation of Max tries to order the six symbolic ratios pairwise
    (0.1 s a call, measured) and drops none of them, so the expression is the same (tested).
    """
    return sympy.Max(*_joint_divergence_terms(s, reversed_=reversed_), evaluate=False)


def _joint_divergence_terms(s: object, *, reversed_: bool = False) -> list[sympy.Expr]:
    """The ratios p(x, y)/(p_X(x) p_Y(y)) (or their inverses) of :func:`_joint_divergence_ratio`."""
    prior, channel = s.prior, s.channel  # type: ignore[attr-defined]
    terms = []
    for x, p in enumerate(prior):
        for y in range(len(channel[0])):
            joint, product = p * channel[x][y], p * output_mass(prior, channel, y)
            terms.append(product / joint if reversed_ else joint / product)
    return terms


def _largest_leakage_ratio(s: object) -> sympy.Expr:
    """exp max_y l(X->y) = max over the two outputs of the symbolic kernel (Def 2.6 (iii)),
    unevaluated like :func:`_joint_divergence_ratio` (evaluating took 16 ms a call and
    drops neither ratio: tested)."""
    prior, channel = s.prior, s.channel  # type: ignore[attr-defined]
    return sympy.Max(*(pml_ratio(prior, channel, y) for y in range(2)), evaluate=False)


def _def_2_6_parts(ctx: CheckContext) -> list[ProofPart]:
    """Forms (ii) and (iii) imply each other for every ε (3 x 2 kernels); the identity's
    largest leakage is log 1/p_min (every full-support prior on 4 inputs)."""
    parts: list[ProofPart] = []
    mutant = ctx.mutant
    domain = ("every 3×2 kernel P_{Y|X} whose outputs both have positive probability, every "
              "full-support prior on 3 inputs and every ε (e^ε = r > 0)")
    if changes(ctx, "strict_form_iii"):
        s = finite(3, 2)
        largest = _largest_leakage_ratio(s)
        strict = mutant == "strict_form_iii"
        parts.append(ProofPart(
            "form (ii) D_inf(P_XY ‖ P_X×P_Y) <= ε implies form (iii) max_y l(X->y) "
            + ("< ε" if strict else "<= ε"),
            domain, largest, _E, {**s.variables, _E: sympy.Interval.open(0, sympy.oo)},
            s.with_hypotheses(*(sympy.Gt(output_mass(s.prior, s.channel, y), 0)
                                for y in range(2)),
                              sympy.Le(_joint_divergence_ratio(s), _E)),
            strict=strict,
        ))
    if changes(ctx, "reversed_divergence"):
        s = finite(3, 2)
        largest = _largest_leakage_ratio(s)
        reversed_ = mutant == "reversed_divergence"
        positive = (tuple(sympy.Gt(entry, 0) for row in s.channel for entry in row)
                    if reversed_ else ())
        parts.append(ProofPart(
            "form (iii) max_y l(X->y) <= ε implies form (ii) "
            + ("D_inf(P_X×P_Y ‖ P_XY)" if reversed_ else "D_inf(P_XY ‖ P_X×P_Y)") + " <= ε",
            domain.replace("3×2 kernel P_{Y|X} whose outputs both have positive probability",
                           "3×2 kernel P_{Y|X} with positive entries") if reversed_ else domain,
            _joint_divergence_ratio(s, reversed_=reversed_), _E,
            {**s.variables, _E: sympy.Interval.open(0, sympy.oo)},
            s.with_hypotheses(*(sympy.Gt(output_mass(s.prior, s.channel, y), 0)
                                for y in range(2)),
                              *positive, sympy.Le(largest, _E)),
        ))
    if changes(ctx, "identity_max_mass", "identity_one_minus_p_min"):
        prior = every_prior(4, name="p")
        masses = prior.rows[0]
        identity = [[int(x == y) for y in range(4)] for x in range(4)]
        largest = sympy.Max(*(pml_ratio(masses, identity, y) for y in range(4)))
        value, text = {
            "identity_max_mass": (1 / sympy.Max(*masses), "-log max_x p_X(x)"),
            "identity_one_minus_p_min": (1 / (1 - sympy.Min(*masses)), "log 1/(1 - p_min)"),
        }.get(mutant or "", (1 / sympy.Min(*masses), "log 1/p_min"))
        parts.append(ProofPart(
            f"the identity mechanism attains max_y l(X->y) = {text}: "
            "|exp max_y l(X->y) - exp(" + text + ")| <= 0",
            "every full-support prior on 4 inputs",
            sympy.Abs(largest - value), 0,
            {symbol: sympy.Interval.Lopen(0, 1) for symbol in masses}, prior.assuming,
        ))
    return parts


def _def_2_6_strengthenings() -> list[Strengthening]:
    """No mechanism reaches the largest leakage log 1/p_min (strict)."""
    s = finite(3, 2)
    largest = _largest_leakage_ratio(s)
    return [Strengthening(
        "strict_largest_leakage", "max_y l(X->y) < log 1/p_min for every mechanism",
        "every 3×2 kernel whose outputs both have positive probability and every full-support "
        "prior on 3 inputs",
        largest, 1 / sympy.Min(*s.prior), s.variables,
        s.with_hypotheses(*(sympy.Gt(output_mass(s.prior, s.channel, y), 0) for y in range(2))),
        strict=True,
    )]


@check(
    "pml.def_2_6",
    mutants={
        "strict_form_iii": "form (iii) with max_y l(X->y) < ε instead of <= ε",
        "reversed_divergence": "form (ii) with D_inf(P_X×P_Y ‖ P_XY) (arguments swapped)",
        "identity_max_mass": "the identity mechanism attains -log max_x p_X(x), not log 1/p_min",
        "identity_one_minus_p_min": "the identity mechanism attains log 1/(1 - p_min) (Prop "
        "3.8's constant), not log 1/p_min",
    },
    strengthenings={
        "strict_largest_leakage": "max_y l(X->y) < log 1/p_min for every mechanism (the "
        "largest leakage never reached)",
    },
)
def def_2_6(ctx: CheckContext) -> list[Evidence]:
    """``pml.def_2_6``: Saeidian et al., Definition 2.6 ((ε, P)-PML), §2.3 and §3.3.

    Statement: the three forms of (ε, P_X)-PML agree:
    (i) P_Y({y : l(X->y) <= ε}) = 1, (ii) D_inf(P_XY || P_X × P_Y) <= ε,
    (iii) max over y with p_Y(y) > 0 of l(X->y) <= ε.  The identity mechanism attains
    the largest possible leakage log 1/p_min.

    Evidence:
        P: on random (P_{Y|X}, P_X), each form computed independently by the reference
           (form (i) from every posterior's D_inf by Bayes' rule and the masses p_Y(y);
           form (ii) as the largest density ratio p(x, y)/(p(x) p(y)) of the joint law over
           the product, Def 2.2; form (iii) from the posteriors of the outputs of positive
           mass), at ε = the exact max leakage L, just above, just below (when L > 0), 0,
           log(3/2), 1/2 and 1 nat (the last two decided by rational bounds on e^ε): the three
           agree, and exactpml's P_Y({y : l(X->y) <= ε}), D_inf(P_XY || P_X×P_Y) and
           max_y l(X->y) equal the reference's, and its three decisions equal the reference's.
        E: for the identity mechanism and 4 priors, exactpml's max_y l(X->y) and
           D_inf(P_XY || P_X×P_Y) and the reference's both equal log 1/p_min (the text's value,
           written here as 1/min p_X).
        E (sharpness): the bound l(X->y) <= log 1/p_min is attained by the identity.
        C (proofs, z3): forms (ii) and (iii) imply each other for every ε, every 3×2 kernel
           with both outputs of positive probability and every full-support prior; the
           identity's max_y l(X->y) equals log 1/p_min for every full-support prior on 4
           inputs.  Each mutant changes a proved part (``reversed_divergence`` on positive
           kernels, where it is defined), refuted.  Form (i) (an indicator) is not expressed.
        Strengthening: max_y l(X->y) < log 1/p_min for every mechanism: sharp.
    """
    mutant = ctx.mutant

    def problems(instance: tuple[Mechanism, Distribution]) -> list[str]:
        mechanism, prior = instance
        found: list[str] = []
        law = _ReferenceLaw.of(mechanism, prior, mutant)  # once; only the ε tests vary
        largest = law.largest
        divergence = (
            law.divergence
            if mutant != "reversed_divergence"
            else ref.joint_divergence_ratio(mechanism, prior)
        )
        # exactpml's values, computed once: the ε tests below reuse them (recomputing them
        # and P_Y(l <= ε) for each of the 7 ε's was half of the property's time, measured)
        library_divergence = pml_joint_divergence(mechanism, prior)
        library_largest = max_pointwise_maximal_leakage(mechanism, prior)
        library = (_ratio(library_divergence), _ratio(library_largest))
        if library != (divergence, largest):
            found.append(
                f"exactpml exp D_inf(P_XY || P_X x P_Y), exp max_y l(X->y) = {library}, "
                f"reference {divergence}, {largest}"
            )
        for epsilon in _epsilons(largest):
            forms = _reference_forms(law, epsilon, mutant)
            if len(set(forms)) != 1:
                found.append(f"ε = {epsilon}: forms (i), (ii), (iii) = {forms} (reference)")
            mass = law.mass_within(epsilon)
            library_mass = probability_leakage_at_most(mechanism, prior, epsilon)
            if library_mass != mass:
                found.append(f"ε = {epsilon}: P_Y(l <= ε) = {library_mass} (exactpml), {mass}")
            decided = (  # exactpml's forms (i), (ii), (iii)
                library_mass == 1,
                library_divergence <= epsilon,
                library_largest <= epsilon,
            )
            if mutant is None and decided != forms:
                found.append(f"ε = {epsilon}: exactpml's forms {decided}, reference {forms}")
        return found

    cases = []
    sharp: dict[str, object] = {}
    for name, masses in _IDENTITY_PRIORS.items():
        prior = Distribution(masses)
        identity = Mechanism.identity(prior.outcomes)
        smallest = min(Fraction(value) for value in masses.values())
        largest = max(Fraction(value) for value in masses.values())
        expected = {
            "identity_max_mass": 1 / largest,
            "identity_one_minus_p_min": 1 / (1 - smallest),
        }.get(mutant or "", 1 / smallest)
        for label, library, reference in (
            (
                "max_y l(X->y)",
                max_pointwise_maximal_leakage(identity, prior),
                ref.max_pml_ratio(identity, prior),
            ),
            (
                "D_inf(P_XY || P_X x P_Y)",
                pml_joint_divergence(identity, prior),
                ref.joint_divergence_ratio(identity, prior),
            ),
        ):
            cases.append(
                (f"identity, prior {name}: {label} (exactpml)", library, LogValue(expected))
            )
            cases.append(
                (
                    f"identity, prior {name}: {label} (reference)",
                    LogValue(reference),
                    LogValue(expected),
                )
            )
        sharp[f"identity, prior {name}: max_y l(X->y)"] = LogValue(
            ref.max_pml_ratio(identity, prior)
        )
    attained = all(
        ref.max_pml_ratio(Mechanism.identity(Distribution(m).outcomes), Distribution(m))
        == 1 / min(Fraction(v) for v in m.values())
        for m in _IDENTITY_PRIORS.values()
    )
    return [
        property_holds(
            ctx,
            xst.mechanisms_with_prior(),
            lambda instance: not problems(instance),
            describe="the three forms of (ε, P_X)-PML, each computed from the definitions, "
            "agree (ε at, above, below the max leakage, and fixed), and exactpml's equal them",
            explain=lambda instance: "; ".join(problems(instance)),
        ),
        exact_instances(
            cases,
            origin="computed as log 1/min p_X (§2.3, §3.3)",
            equal=lambda computed, expected: computed == expected,  # exact ratio equality
        ),
        sharpness_evidence(
            "max_y l(X->y) <= log 1/p_min",
            attained=attained,
            on="the identity mechanism with 4 priors",
            values=sharp,
            kind="E",
        ),
        *proof_parts(_def_2_6_parts(ctx), search=ctx),
        *(strengthenings(_def_2_6_strengthenings()) if mutant is None else []),
    ]


# --- pml.thm_3_4 ---------------------------------------------------------------------
_Y = sympy.Symbol("y", positive=True)
_Q = sympy.Symbol("q", positive=True)
_NEAR = Fraction(9, 10)
"""The ``near_disclosure`` mutant's threshold: max_u q(u|y) >= 9/10, H_inf <= log(10/9)."""


def _countable_mechanism() -> tuple[sympy.Expr, sympy.Expr]:
    """p(y|0) = 2^-(y+1), p(y|1) = (1/3)(2/3)^y on y = 0, 1, 2, ... (CLAIMS.md, thm_3_4)."""
    return sympy.Rational(1, 2) ** (_Y + 1), sympy.Rational(1, 3) * sympy.Rational(2, 3) ** _Y


def _countable_posterior_of_one(y: int, prior_zero: Fraction) -> Fraction:
    """q_{X|Y=y}(1) exactly, for the prior (prior_zero, 1 - prior_zero)."""
    zero = prior_zero * Fraction(1, 2 ** (y + 1))
    one = (1 - prior_zero) * Fraction(2**y, 3 ** (y + 1))
    return one / (zero + one)


def _proved_zero(expr: sympy.Expr) -> bool:
    """``expr == 0`` proved symbolically: over a common denominator (exact rational-function
    arithmetic in q and the powers of y), else by ``simplify``.  For thm_3_4's posteriors
    ``together`` settles it in 4 ms, ``simplify`` took 80 ms (measured)."""
    return sympy.together(expr) == 0 or sympy.simplify(expr) == 0


def _nearly_disclosed(mechanism: Mechanism, attribute: Mechanism, prior: Distribution) -> bool:
    """Some output of positive mass gives max_u q(u|y) >= 9/10 (the mutant's "disclosure")."""
    return any(
        ref.output_mass(mechanism, prior, y) != 0
        and ref.posterior_certainty(mechanism, prior, y, attribute) >= _NEAR
        for y in mechanism.outputs
    )


Thm34Instance = tuple[Mechanism, Mechanism, Distribution, Distribution]

_THM_3_4_EDGE_CASES: tuple[Thm34Instance, ...] = (
    # U = X, uniform Q: q(0 | y=0) = 9/10; R = (1/3, 2/3): 9/11 and 34/43, both below 9/10.
    (
        Mechanism({0: {0: "1/2", 1: "1/2"}, 1: {0: "1/18", 1: "17/18"}}),
        Mechanism.identity([0, 1]),
        Distribution.uniform([0, 1]),
        Distribution({0: "1/3", 1: "2/3"}),
    ),
    # an independent mechanism discloses nothing to a full-support prior; R = point mass on 0
    # (a prior lacking full support) makes X itself constant, hence "disclosed".
    (
        Mechanism({0: {0: "1/2", 1: "1/2"}, 1: {0: "1/2", 1: "1/2"}}),
        Mechanism.identity([0, 1]),
        Distribution.uniform([0, 1]),
        Distribution({0: 1, 1: 0}),
    ),
)
"""Instances at the edge of Thm 3.4: approximate disclosure, and a prior with zeros."""


@check(
    "pml.thm_3_4",
    mutants={
        "any_prior": "the second adversary R_X may lack full support (hypothesis dropped)",
        "attained_at_finite_y": "the countable mechanism discloses X at some finite y",
        "near_disclosure": "disclosure with H_inf(Q_{U|Y=y}) <= log(10/9) instead of = 0 "
        "(the constant 0 loosened) is also ubiquitous",
    },
)
def thm_3_4(ctx: CheckContext) -> list[Evidence]:
    """``pml.thm_3_4``: Saeidian et al., Theorem 3.4 (ubiquity of disclosures), proof A.1.

    Statement: if P_{Y|X} discloses U (Def 3.3: inf_y H_inf(Q_{U|Y=y}) = 0) to one
    full-support adversary Q_X, it discloses U to every full-support R_X (finite Y); and
    with countable Y the infimum may be reached only in the limit: binary X,
    p(y|0) = 2^-(y+1), p(y|1) = (1/3)(2/3)^y, y = 0, 1, ...

    Evidence:
        P: on random (P_{Y|X}, P_{U|X}, Q_X, R_X) with Q_X, R_X of full support: exactpml's
           disclosure to Q_X and to R_X equals the reference's (Def 3.3 from the posteriors
           of U formed by Bayes' rule, by enumeration), and U is disclosed to Q_X exactly when
           it is disclosed to R_X.
        P: the same on 2 pinned instances (a posterior 9/10 under Q_X that stays below 9/10
           under R_X; an independent mechanism, which "discloses" X to a point-mass R_X).
        L: for every full-support prior (q/(1+q), 1/(1+q)), q > 0 symbolic, the posterior
           q_{X|Y=y}(1) tends to 1 as y -> oo (limit engine, exact), so H_inf -> 0: X is
           disclosed; not attained, since 1 - q_{X|Y=y}(1) = q p(y|0)/q_Y(y) is proved
           positive for every y.
        L: exact posteriors at y = 0..40 for 3 priors are all below 1 (no finite output
           discloses), and exp C = sup_y p(y|1)/p(y|0) -> oo as y -> oo although no entry
           is zero (leakage capacity infinite).
    """
    near = ctx.mutant == "near_disclosure"

    def problems(instance: Thm34Instance) -> list[str]:
        mechanism, attribute, first, second = instance
        found: list[str] = []
        references = []
        for name, prior in (("Q_X", first), ("R_X", second)):
            library = is_disclosed(mechanism, attribute, prior)
            reference = ref.discloses(mechanism, attribute, prior)
            references.append(reference)
            if library != reference:
                found.append(f"disclosed to {name}: {library} (exactpml), {reference} (reference)")
        if near:
            to_first = _nearly_disclosed(mechanism, attribute, first)
            to_second = _nearly_disclosed(mechanism, attribute, second)
        else:  # the reference's disclosures, just computed (each is 2 ms of Fractions)
            to_first, to_second = references
        if to_first != to_second:
            certainties = {
                name: [
                    str(ref.posterior_certainty(mechanism, prior, y, attribute))
                    for y in mechanism.outputs
                ]
                for name, prior in (("Q_X", first), ("R_X", second))
            }
            found.append(
                f"disclosed to Q_X: {to_first}, to R_X: {to_second}; max_u q(u|y) by output: "
                f"{certainties}"
            )
        return found

    full = ctx.mutant != "any_prior"
    pinned = [case for case in _THM_3_4_EDGE_CASES if full is case[3].has_full_support or not full]
    what = "nearly disclosed (max_u q(u|y) >= 9/10)" if near else "disclosed"
    evidence = [
        property_holds(
            ctx,
            mechanism_attribute_two_adversaries(second_full_support=full),
            lambda instance: not problems(instance),
            describe=f"U {what} to one full-support Q_X iff to another "
            + ("full-support " if full else "")
            + "R_X (exactpml equal to the reference's posteriors)",
            explain=lambda instance: "; ".join(problems(instance)),
        ),
        edge_cases(
            pinned,
            lambda instance: not problems(instance),
            describe=f"U {what} to Q_X iff to R_X",
            explain=lambda instance: "; ".join(problems(instance)),
        ),
    ]

    given_zero, given_one = _countable_mechanism()
    prior_zero = _Q / (1 + _Q)
    posterior_one = (
        (1 - prior_zero) * given_one / (prior_zero * given_zero + (1 - prior_zero) * given_one)
    )
    complement = _Q * given_zero / (_Q * given_zero + given_one)
    reached_at_finite_y = not (
        _proved_zero(1 - posterior_one - complement)
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
