"""Checks of Saeidian et al., *Rethinking Disclosure Prevention with PML*, §3.2–3.3 constructions.

Claims ``pml.prop_3_6`` (a disclosed attribute U yields a disclosed W of smaller entropy,
App. A.3) and ``pml.prop_3_8`` (the smallest privacy cost of a disclosure, the
α-mechanism of App. A.5) of ``CLAIMS.md``.

The library's builders (:func:`~exactpml.suprema.constructions.lower_entropy_attribute`,
:func:`~exactpml.suprema.constructions.lower_entropy_threshold`,
:func:`~exactpml.suprema.constructions.alpha_range`) are compared with the text's closed forms,
evaluated here, and with posteriors formed by Bayes' rule
(:mod:`proofs_check.reference.pml`).  Every comparison is exact (rationals).
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

import sympy
from hypothesis import strategies as st

from exactpml import Distribution, LogValue, Mechanism, discloses, pointwise_maximal_leakage
from exactpml import strategies as xst
from exactpml.suprema.constructions import (
    alpha_range,
    lower_entropy_attribute,
    lower_entropy_threshold,
)
from proofs_check import (
    CheckContext,
    Evidence,
    check,
    property_holds,
    sharpness_evidence,
    witness_evidence,
)
from proofs_check import reference as ref
from proofs_check.claims._draws import sampled
from proofs_check.claims.pml import _proofs
from proofs_check.claims.pml._proofs import ProofPart, Strengthening, changes
from proofs_check.claims.pml._ratios import column_ratio

__all__ = ["prop_3_6", "prop_3_8"]

Label = Hashable
_SYMBOLIC_EXAMPLES = 20
"""Random instances for the library's symbolic derivations (``lower_entropy_threshold``,
``alpha_range``: 30-140 ms each), capped so that the default run stays within budget."""
Rows = dict[Label, dict[Label, Fraction]]


def _rows(kernel: Mechanism) -> Rows:
    return {
        x: dict(zip(kernel.outputs, row, strict=True))
        for x, row in zip(kernel.inputs, kernel.rows, strict=True)
    }


def _attribute_masses(rows: Rows, weights: dict[Label, Fraction]) -> dict[Label, Fraction]:
    """P_U = P_{U|X} ∘ weights (the prior, or the posterior P_{X|Y=y})."""
    masses: dict[Label, Fraction] = {}
    for x, row in rows.items():
        for u, p in row.items():
            masses[u] = masses.get(u, Fraction(0)) + weights[x] * p
    return masses


def _disclosing(
    mechanism: Mechanism, prior: Distribution, rows: Rows
) -> tuple[Label, Label] | None:
    """(y, u*) with p_Y(y) > 0 and P(U = u* | Y = y) = 1 (Def 3.3 for finite Y), if any."""
    for y in mechanism.outputs:
        if ref.output_mass(mechanism, prior, y) == 0:
            continue
        given = _attribute_masses(rows, ref.posterior(mechanism, prior, y))
        for u, mass in given.items():
            if mass == 1:
                return y, u
    return None


# --- pml.prop_3_6 ----------------------------------------------------------------------
def _w_masses(p_u: dict[Label, Fraction], u_star: Label, lam: Fraction) -> dict[Label, Fraction]:
    """App. A.3: p_W(u*) = λ + (1 - λ) p_U(u*), p_W(i) = (1 - λ) p_U(i) for i != u*."""
    return {u: (lam + (1 - lam) * p if u == u_star else (1 - lam) * p) for u, p in p_u.items()}


Prop36Instance = tuple[Mechanism, Distribution, Mechanism]


def _with_private_output(
    mechanism: Mechanism, x0: Label, weight: Fraction, label: str
) -> Mechanism:
    """The mechanism with a new output ``label`` produced only by ``x0``, w.p. ``weight``
    (x0's other outputs scaled by 1 - weight): observing it reveals X = x0."""
    kernel = {
        x: {
            **{
                y: (1 - weight) * p if x == x0 else p
                for y, p in zip(mechanism.outputs, row, strict=True)
            },
            label: weight if x == x0 else Fraction(0),
        }
        for x, row in zip(mechanism.inputs, mechanism.rows, strict=True)
    }
    return Mechanism(kernel, outputs=[*mechanism.outputs, label])


_WEIGHTS = st.sampled_from((Fraction(1), Fraction(1, 2), Fraction(1, 10)))


@st.composite
def _disclosed_instances(draw: st.DrawFn, *, allow_constant: bool) -> Prop36Instance:
    """(P_{Y|X}, full-support P_X, P_{U|X}) where some output discloses U.

    A random kernel and attribute; the attribute's row at a drawn x0 is made a point mass
    on a drawn u*, and a new output "reveal" produced only by x0 (weight 1, 1/2 or 1/10)
    gives P(U = u* | reveal) = 1.  Unless ``allow_constant``, U is made non-constant
    (H_inf(P_U) > 0) by moving another input to another value.
    """
    mechanism = draw(xst.mechanisms(min_inputs=2, max_inputs=5, max_outputs=4))
    prior = draw(xst.distributions(outcomes=mechanism.inputs, full_support=True))
    attribute = draw(xst.attributes(mechanism.inputs, min_values=1 if allow_constant else 2))
    x0 = draw(sampled(mechanism.inputs))
    u_star = draw(sampled(attribute.outputs))
    rows = _rows(attribute)
    rows[x0] = {u: Fraction(int(u == u_star)) for u in attribute.outputs}
    masses = _attribute_masses(rows, {x: Fraction(prior[x]) for x in prior.outcomes})
    if max(masses.values()) == 1 and not allow_constant:
        x1 = next(x for x in mechanism.inputs if x != x0)
        other = next(u for u in attribute.outputs if u != u_star)
        rows[x1] = {u: Fraction(int(u == other)) for u in attribute.outputs}
    weight = draw(_WEIGHTS)
    return (
        _with_private_output(mechanism, x0, weight, "reveal"),
        prior,
        Mechanism(rows, outputs=list(attribute.outputs), name="attribute"),
    )


_PROP_3_6_WITNESSES: tuple[
    tuple[str, Mechanism, Distribution, Mechanism, Fraction, Fraction], ...
] = (
    # P_U = (a 2/5, b 3/10, c 3/10); y = 1 comes only from x in {2, 3} (U = c): u* = c,
    # threshold = (2/5 - 3/10)/(1 - 3/10) = 1/7; λ = 1/2: p_W(c) = 1/2 + 3/20 = 13/20,
    # H(P_W) = log(20/13) < log(5/2) = H(P_U); λ = 1/7: p_W(c) = 2/5, entropies equal.
    (
        "deterministic U = (a, b, c, c), prior (2/5, 3/10, 1/5, 1/10)",
        Mechanism(
            {0: {0: 1}, 1: {0: 1}, 2: {0: "1/2", 1: "1/2"}, 3: {0: "1/2", 1: "1/2"}},
            outputs=[0, 1],
        ),
        Distribution({0: "2/5", 1: "3/10", 2: "1/5", 3: "1/10"}),
        Mechanism({0: {"a": 1}, 1: {"b": 1}, 2: {"c": 1}, 3: {"c": 1}}, outputs=["a", "b", "c"]),
        Fraction(1, 7),
        Fraction(13, 20),
    ),
    # randomised U: P_U = (a 1/2 + 1/8 = 5/8, b 3/8); y = 1 comes only from x = 0 (U = a, the
    # mode): threshold 0; λ = 1/2: p_W(a) = 1/2 + 5/16 = 13/16, H(P_W) = log(16/13) < log(8/5).
    (
        "randomised U, disclosed value is the mode (threshold 0)",
        Mechanism({0: {0: "1/2", 1: "1/2"}, 1: {0: 1}, 2: {0: 1}}, outputs=[0, 1]),
        Distribution({0: "1/2", 1: "1/4", 2: "1/4"}),
        Mechanism({0: {"a": 1}, 1: {"a": "1/2", "b": "1/2"}, 2: {"b": 1}}, outputs=["a", "b"]),
        Fraction(0),
        Fraction(13, 16),
    ),
)


_LAMBDA = sympy.Symbol("lambda")


def _prop_3_6_strengthenings() -> list[Strengthening]:
    """H_inf(P_W) < H_inf(P_U) already for λ > (99/100) threshold (A.3's W, u* = 0, U with 3
    values)."""
    masses = sympy.symbols("m_0 m_1 m_2")
    largest = sympy.Max(*masses)
    threshold = (largest - masses[0]) / (1 - masses[0])
    w = [_LAMBDA + (1 - _LAMBDA) * masses[0], (1 - _LAMBDA) * masses[1],
         (1 - _LAMBDA) * masses[2]]
    return [Strengthening(
        "lower_threshold",
        "H_inf(P_W) < H_inf(P_U) for λ in ((99/100) threshold, 1) (the threshold shrunk)",
        "every law P_U on 3 values with H_inf(P_U) > 0 (max p_U < 1), u* = 0, and every λ in "
        "((99/100)(max p_U - p_U(u*))/(1 - p_U(u*)), 1)",
        largest, sympy.Max(*w),
        {**{mass: sympy.Interval(0, 1) for mass in masses}, _LAMBDA: sympy.Interval.Ropen(0, 1)},
        (sympy.Eq(sympy.Add(*masses), 1), sympy.Lt(largest, 1),
         sympy.Gt(_LAMBDA, sympy.Rational(99, 100) * threshold)),
        strict=True,
    )]


@check(
    "pml.prop_3_6",
    mutants={
        "threshold_inclusive": "λ may equal the threshold (λ in [threshold, 1))",
        "other_value": "W built around a value u other than the disclosed u*",
        "constant_allowed": "U may be constant (hypothesis H_inf(P_U) > 0 dropped)",
        "threshold_halved": "λ > threshold/2 suffices (the threshold's constant halved)",
    },
    strengthenings={
        "lower_threshold": "λ > (99/100) threshold suffices (the threshold shrunk by 1/100)",
    },
)
def prop_3_6(ctx: CheckContext) -> list[Evidence]:
    """``pml.prop_3_6``: Saeidian et al., Proposition 3.6, proof A.3.

    Statement: if P_{Y|X} discloses U (some y with p_Y(y) > 0 and P(U = u*|y) = 1, Def 3.3
    for finite Y) and H_inf(P_U) > 0, then the W of A.3 (P_{W|U=u*} = point mass on u*;
    P_{W|U=i}: λ on u*, 1 - λ on i) with λ in (threshold, 1),
    threshold = (max_u p_U(u) - p_U(u*))/(1 - p_U(u*)), has H_inf(P_W) < H_inf(P_U) and is
    disclosed; at λ = threshold the entropies are equal (the strict inequality fails).

    Evidence:
        W: 2 instances with hand-computed threshold and p_W(u*) (1/7 and 13/20 for a
           deterministic U; 0 and 13/16 for a randomised U whose disclosed value is the
           mode): the library's threshold and W (at λ = 1/2) match, W is disclosed, and the
           entropies are equal at λ = threshold.
        P: on random disclosed instances (a kernel with an output revealing U = u*, random
           attribute, full-support prior): the library's threshold equals the text's
           formula; for λ = (threshold + 1)/2 and threshold + (1 - threshold)/1000 the
           library's W has the masses of A.3, H_inf(P_W) < H_inf(P_U), and W is disclosed
           (Bayes' rule here, and the library's ``discloses``); at λ = threshold,
           max p_W = max p_U.
        Strengthening (z3): λ > (99/100) threshold suffices: sharp.  Not PROVED: under the
           ``constant_allowed`` mutant the λ-range of a constant U is empty or undefined
           (threshold 0/0), so no prover statement of the mutant can be refuted.
    """
    inclusive = ctx.mutant == "threshold_inclusive"
    other_value = ctx.mutant == "other_value"

    def failures(instance: Prop36Instance, *, with_library_threshold: bool = False) -> list[str]:
        mechanism, prior, attribute = instance
        rows = _rows(attribute)
        before = {x: Fraction(prior[x]) for x in prior.outcomes}
        p_u = _attribute_masses(rows, before)
        found = _disclosing(mechanism, prior, rows)
        if found is None:
            return ["U is not disclosed (the instance is malformed)"]
        _, u_star = found
        if other_value:
            u_star = next(u for u in attribute.outputs if u != u_star) if len(p_u) > 1 else u_star
        if p_u[u_star] == 1:
            return [f"U is constant (p_U({u_star!r}) = 1): no W has H_inf(P_W) < H_inf(P_U) = 0"]
        largest = max(p_u.values())
        threshold = (largest - p_u[u_star]) / (1 - p_u[u_star])
        problems: list[str] = []
        if with_library_threshold:
            library = lower_entropy_threshold(attribute, prior, u_star)
            if library != threshold:
                problems.append(f"threshold {library} (library) != {threshold} (A.3)")
        at_threshold = _w_masses(p_u, u_star, threshold)
        if inclusive:
            if not max(at_threshold.values()) > largest:
                problems.append(f"at λ = threshold = {threshold}: max p_W = max p_U = {largest}")
        elif max(at_threshold.values()) != largest:
            problems.append(f"at λ = threshold = {threshold}: max p_W != max p_U")
        claimed = threshold / 2 if ctx.mutant == "threshold_halved" else threshold
        for lam in ((claimed + 1) / 2, claimed + (1 - claimed) / 1000):
            w = lower_entropy_attribute(attribute, prior, u_star, lam)
            masses = dict(zip(w.outputs, w.output_masses(prior), strict=True))
            if masses != _w_masses(p_u, u_star, lam):
                problems.append(f"λ = {lam}: P_W = {masses} (library) differs from A.3")
            if not max(masses.values()) > largest:
                problems.append(
                    f"λ = {lam}: max p_W = {max(masses.values())} <= max p_U = {largest}"
                )
            disclosed_here = _disclosing(mechanism, prior, _rows(w)) is not None
            if not (disclosed_here and discloses(mechanism, w, prior)):
                problems.append(f"λ = {lam}: W built around {u_star!r} is not disclosed")
        return problems

    instances = _disclosed_instances(allow_constant=ctx.mutant == "constant_allowed")
    shown: dict[str, object] = {}
    wrong: list[str] = []
    for name, mechanism, prior, attribute, threshold, mass in _PROP_3_6_WITNESSES:
        problems = failures((mechanism, prior, attribute), with_library_threshold=True)
        _, u_star = _disclosing(mechanism, prior, _rows(attribute)) or (None, None)
        library = lower_entropy_threshold(attribute, prior, u_star)
        w = lower_entropy_attribute(attribute, prior, u_star, Fraction(1, 2))
        reached = dict(zip(w.outputs, w.output_masses(prior), strict=True))[u_star]
        shown[f"{name}: threshold"] = library
        shown[f"{name}: p_W(u*) at λ = 1/2"] = reached
        if problems or library != threshold or reached != mass:
            wrong.append(
                f"{name}: threshold {library} (expected {threshold}), p_W(u*) = {reached} "
                f"(expected {mass}); {'; '.join(problems)}"
            )
    equal_at_threshold: dict[str, tuple[Fraction, Fraction]] = {}
    for name, mechanism, prior, attribute, threshold, _ in _PROP_3_6_WITNESSES:
        p_u = _attribute_masses(_rows(attribute), {x: Fraction(prior[x]) for x in prior.outcomes})
        _, u_star = _disclosing(mechanism, prior, _rows(attribute)) or (None, None)
        equal_at_threshold[f"{name}: (max p_W at λ = threshold, max p_U)"] = (
            max(_w_masses(p_u, u_star, threshold).values()),
            max(p_u.values()),
        )
    sharp = sharpness_evidence(
        "H_inf(P_W) < H_inf(P_U) for λ > (max p_U - p_U(u*))/(1 - p_U(u*))",
        attained=all(a == b for a, b in equal_at_threshold.values()),
        on="the 2 hand-computed instances: at λ = threshold the entropies are equal, so the "
        "threshold is exact (every larger λ < 1 works, it does not)",
        values={k: f"{a}, {b}" for k, (a, b) in equal_at_threshold.items()},
    )
    return [
        sharp,
        witness_evidence(
            "W of A.3 on 2 hand-computed instances (threshold 1/7, p_W(u*) = 13/20; "
            "threshold 0, p_W(u*) = 13/16): smaller entropy, disclosed, equality at the "
            "threshold",
            not wrong,
            values=shown,
            counterexample="; ".join(wrong) or None,
        ),
        property_holds(
            ctx,
            instances,
            lambda instance: not failures(instance),
            describe="U disclosed and non-constant: W of A.3 with λ in (threshold, 1) has "
            "H_inf(P_W) < H_inf(P_U) and is disclosed; equality at λ = threshold",
            explain=lambda instance: "; ".join(failures(instance)),
        ),
        property_holds(
            ctx,
            instances,
            lambda instance: not failures(instance, with_library_threshold=True),
            describe="the library's lower_entropy_threshold (solved symbolically) equals "
            "(max p_U - p_U(u*))/(1 - p_U(u*))",
            explain=lambda instance: "; ".join(failures(instance, with_library_threshold=True)),
            examples=min(ctx.examples, _SYMBOLIC_EXAMPLES),
        ),
        *(_proofs.strengthenings(_prop_3_6_strengthenings()) if ctx.mutant is None else []),
    ]


# --- pml.prop_3_8 ----------------------------------------------------------------------
def _alpha_rows(prior: Distribution, x_min: Label, alpha: Fraction) -> Mechanism:
    """App. A.5, written out: p(0|x_min) = 0, p(1|x_min) = 1; p(0|x) = α, p(1|x) = 1 - α."""
    return Mechanism(
        {x: ({0: 0, 1: 1} if x == x_min else {0: alpha, 1: 1 - alpha}) for x in prior.outcomes},
        outputs=[0, 1],
    )


def _p_min(prior: Distribution, *, support_only: bool) -> tuple[Label, Fraction]:
    masses = [(x, Fraction(prior[x])) for x in prior.outcomes]
    if support_only:
        masses = [(x, p) for x, p in masses if p != 0]
    return min(masses, key=lambda pair: pair[1])


@st.composite
def _infinite_capacity(draw: st.DrawFn, *, full_support: bool) -> tuple[Mechanism, Distribution]:
    """A kernel with C = oo (a column mixing zero and non-zero; one is added if none) and a
    prior (full support unless told otherwise), |X| >= 2."""
    mechanism = draw(xst.mechanisms(min_inputs=2, max_inputs=5, max_outputs=4))
    prior = draw(xst.distributions(outcomes=mechanism.inputs, full_support=full_support))
    if any(column_ratio(mechanism.column(y)) is sympy.oo for y in mechanism.outputs):
        return mechanism, prior
    x0 = draw(sampled(mechanism.inputs))
    weight = draw(_WEIGHTS)
    return _with_private_output(mechanism, x0, weight, "z"), prior


_ALPHA = sympy.Symbol("alpha")


def _largest_leakage(prior: tuple[sympy.Expr, ...], channel: object,
                     support: tuple[int, ...] | None = None) -> sympy.Expr:
    """exp max_y l(X->y) over the two outputs (Thm 2.4's closed form)."""
    return sympy.Max(*(_proofs.pml_ratio(prior, channel, y, support=support)  # type: ignore
                       for y in range(2)))


def _infinite_capacity_part(ctx: CheckContext) -> ProofPart:
    """C = oo implies max_y l(X->y) >= log 1/(1 - p_min): every 2×2 kernel with a column
    mixing zero and non-zero (relabelled: p(0|0) = 0 < p(0|1)); mutants: 1/p_min, or a prior
    with a zero (3 inputs, p_2 = 0, the mixing column at the zero-mass input)."""
    if ctx.mutant == "support_only":
        s = _proofs.finite(3, 2, full_support=False)
        support = (0, 1)
        variables = s.pinned({s.prior[2]: 0, s.channel[2][0]: 0})
        hypotheses = s.with_hypotheses(
            sympy.Gt(s.prior[0], 0), sympy.Gt(s.prior[1], 0), sympy.Gt(s.channel[0][0], 0),
            *(sympy.Gt(_proofs.output_mass(s.prior, s.channel, y), 0) for y in range(2)))
        p_min = sympy.Min(s.prior[0], s.prior[1])
        domain = ("every prior (p_0, p_1, 0) with p_0, p_1 > 0 (p_min over the support), every "
                  "3×2 kernel with p(0|2) = 0 < p(0|0) (C = oo) whose outputs both have "
                  "positive probability")
    else:
        s = _proofs.finite(2, 2)
        support = None
        variables = s.pinned({s.channel[0][0]: 0})
        hypotheses = s.with_hypotheses(sympy.Gt(s.channel[1][0], 0))
        p_min = sympy.Min(*s.prior)
        domain = ("every 2×2 kernel with C = oo (relabelled so that p(0|0) = 0 < p(0|1)) and "
                  "every full-support prior on 2 inputs")
    bound, text = ((1 / p_min, "log 1/p_min") if ctx.mutant == "bound_one_over_p_min"
                   else (1 / (1 - p_min), "log 1/(1 - p_min)"))
    return ProofPart(
        f"C = oo implies max_y l(X->y) >= {text}"
        + (" (p_min over supp P_X)" if ctx.mutant == "support_only" else ""),
        domain, sympy.log(bound), sympy.log(_largest_leakage(s.prior, s.channel, support)),
        variables, hypotheses,
    )


_ALPHA_DOMAIN = ("every full-support prior on 3 inputs with x_min = 0 (every prior, by "
                 "relabelling)")


def _alpha_mechanism() -> tuple[tuple[sympy.Symbol, ...], list[list[sympy.Expr]],
                                  dict[sympy.Symbol, sympy.Set], tuple[sympy.Basic, ...]]:
    """A.5's mechanism on a full-support prior with x_min = 0: p(0|x_min) = 0,
    p(1|x_min) = 1, p(0|x) = α, p(1|x) = 1 - α otherwise; α in (0, 1]."""
    s = _proofs.finite(3, 2)
    prior = s.prior
    rows = [[sympy.Integer(0), sympy.Integer(1)]] + [[_ALPHA, 1 - _ALPHA]] * 2
    variables = {symbol: sympy.Interval.Lopen(0, 1) for symbol in prior}
    variables[_ALPHA] = sympy.Interval.Lopen(0, 1)
    hypotheses = (sympy.Eq(sympy.Add(*prior), 1), sympy.Le(prior[0], prior[1]),
                  sympy.Le(prior[0], prior[2]))
    return prior, rows, variables, hypotheses


def _prop_3_8_parts(ctx: CheckContext) -> list[ProofPart]:
    """The lower bound under C = oo; A.5's leakages; the α-range meets the bound exactly."""
    parts: list[ProofPart] = []
    if changes(ctx, "bound_one_over_p_min", "support_only"):
        parts.append(_infinite_capacity_part(ctx))
    prior, rows, variables, hypotheses = _alpha_mechanism()
    p_min = sympy.Min(*prior)
    target = 1 / (1 - p_min)
    largest = sympy.log(_largest_leakage(prior, rows))
    if changes(ctx):
        parts.append(ProofPart(
            "the α-mechanism has l(X->0) = log 1/(1 - p_min) and l(X->1) = log 1/(1 - α(1 - "
            "p_min)): |exp l(X->0) - 1/(1 - p_min)| + |exp l(X->1) - 1/(1 - α(1 - p_min))| <= 0",
            _ALPHA_DOMAIN + " and every α in (0, 1]",
            sympy.Abs(_proofs.pml_ratio(prior, rows, 0) - target)
            + sympy.Abs(_proofs.pml_ratio(prior, rows, 1) - 1 / (1 - _ALPHA * (1 - p_min))),
            0, variables, hypotheses,
        ))
    if changes(ctx, "range_doubled"):
        factor = 2 if ctx.mutant == "range_doubled" else 1
        top = sympy.Min(1, factor * p_min / (1 - p_min))
        text = "2 p_min" if factor == 2 else "p_min"
        parts.append(ProofPart(
            f"the α-mechanism meets (log 1/(1 - p_min), P_X)-PML for α in (0, min(1, {text}/(1 - "
            "p_min))]: max_y l(X->y) <= log 1/(1 - p_min)",
            _ALPHA_DOMAIN + f" and every α in (0, min(1, {text}/(1 - p_min))]",
            largest, sympy.log(target), variables, (*hypotheses, sympy.Le(_ALPHA, top)),
        ))
    if changes(ctx, "range_p_min"):
        narrow = ctx.mutant == "range_p_min"
        top = sympy.Min(1, p_min if narrow else p_min / (1 - p_min))
        text = "min(1, p_min)" if narrow else "min(1, p_min/(1 - p_min))"
        parts.append(ProofPart(
            f"the α-range is exactly (0, {text}]: above it max_y l(X->y) > log 1/(1 - p_min)",
            _ALPHA_DOMAIN + f" and every α in ({text}, 1]",
            sympy.log(target), largest, variables, (*hypotheses, sympy.Gt(_ALPHA, top)),
            strict=True,
        ))
    return parts


def _prop_3_8_strengthenings() -> list[Strengthening]:
    """The lower bound under C = oo strict, and raised by log(101/100)."""
    s = _proofs.finite(2, 2)
    variables = s.pinned({s.channel[0][0]: 0})
    hypotheses = s.with_hypotheses(sympy.Gt(s.channel[1][0], 0))
    largest = sympy.log(_largest_leakage(s.prior, s.channel))
    bound = 1 / (1 - sympy.Min(*s.prior))
    domain = ("every 2×2 kernel with C = oo (p(0|0) = 0 < p(0|1)) and every full-support "
              "prior on 2 inputs")
    return [
        Strengthening("strict_lower_bound", "C = oo implies max_y l(X->y) > log 1/(1 - p_min)",
                      domain, sympy.log(bound), largest, variables, hypotheses, strict=True),
        Strengthening("raised_lower_bound",
                      "C = oo implies max_y l(X->y) >= log 1/(1 - p_min) + log(101/100)",
                      domain, sympy.log(sympy.Rational(101, 100) * bound), largest, variables,
                      hypotheses),
    ]


@check(
    "pml.prop_3_8",
    mutants={
        "bound_one_over_p_min": "C = oo forces sup_y l(X->y) >= log 1/p_min (not 1/(1 - p_min))",
        "range_doubled": "the α-range extends to min(1, 2 p_min/(1 - p_min))",
        "support_only": "priors with zeros allowed, p_min over the support (hypothesis P_X in "
        "𝒫_X dropped)",
        "range_p_min": "the α-range is (0, min(1, p_min)] (p_min instead of p_min/(1 - p_min))",
    },
    strengthenings={
        "strict_lower_bound": "C = oo implies max_y l(X->y) > log 1/(1 - p_min) (>= made "
        "strict)",
        "raised_lower_bound": "C = oo implies max_y l(X->y) >= log 1/(1 - p_min) + log(101/100) "
        "(the bound raised)",
    },
)
def prop_3_8(ctx: CheckContext) -> list[Evidence]:
    """``pml.prop_3_8``: Saeidian et al., Proposition 3.8, proof A.5.

    Statement: with |X| >= 2, a full-support P_X and p_min = min_x p_X(x): if
    C(P_{Y|X}) = oo then sup_y l(X->y) >= log 1/(1 - p_min) (so (ε, P_X)-PML with
    ε < log 1/(1 - p_min) forces C < oo).  Conversely the α-mechanism of A.5 has
    l(X->0) = log 1/(1 - p_min), l(X->1) = log 1/(1 - α(1 - p_min)), satisfies
    (log 1/(1 - p_min), P_X)-PML exactly for α in (0, min(1, p_min/(1 - p_min))], and
    y = 0 discloses U = 1{X != x_min}.

    Evidence:
        P: on random kernels with C = oo (a column mixing zero and non-zero) and random
           full-support priors: max_y l(X->y) >= log 1/(1 - p_min), exactly.
        P: on random full-support priors (|X| in 2..6): ``alpha_range`` equals
           (0, min(1, p_min/(1 - p_min))]; the α-mechanism written out here, at the upper
           end, half of it and a thousandth of it, has the two leakages of A.5 (library
           PML against the closed forms) and max_y l(X->y) <= log 1/(1 - p_min); just
           above the upper end (when it is below 1) the PML bound fails; y = 0 gives
           P(U = 1 | y = 0) = 1 (Bayes' rule).
        W: the prior (1/2, 1/3, 1/6): α-range (0, 1/5] (hand: p_min/(1 - p_min) = 1/5);
           at α = 1/5 both leakages equal log(6/5) and y = 0 discloses U.
        C (proofs, z3): C = oo implies max_y l(X->y) >= log 1/(1 - p_min) for every 2×2
           kernel with C = oo and every full-support prior; A.5's two leakages, the bound for
           α in (0, min(1, p_min/(1 - p_min))] and its failure above, for every full-support
           prior on 3 inputs.  Each mutant changes a proved part (``support_only``: the prior
           (p_0, p_1, 0)), refuted.
        Strengthenings: the lower bound strict, or raised by log(101/100): sharp.
    """
    support_only = ctx.mutant == "support_only"

    def bound(prior: Distribution) -> Fraction:
        _, p_min = _p_min(prior, support_only=support_only)
        return 1 / p_min if ctx.mutant == "bound_one_over_p_min" else 1 / (1 - p_min)

    def lower_bound_holds(instance: tuple[Mechanism, Distribution]) -> bool:
        mechanism, prior = instance
        ratios = [ref.pml_ratio(mechanism, prior, y) for y in mechanism.outputs]
        library = [pointwise_maximal_leakage(mechanism, prior, y) for y in mechanism.outputs]
        if library != [LogValue(ratio) for ratio in ratios]:
            return False  # exactpml differs from the reference (shown by explain)
        return max(ratios) >= bound(prior)

    def explain_lower(instance: tuple[Mechanism, Distribution]) -> str:
        mechanism, prior = instance
        leakages = {
            y: str(pointwise_maximal_leakage(mechanism, prior, y)) for y in mechanism.outputs
        }
        reference = {y: str(ref.pml_ratio(mechanism, prior, y)) for y in mechanism.outputs}
        return (
            f"l(X->y) = {leakages} (exactpml), exp l(X->y) = {reference} (reference); claimed "
            f"lower bound {LogValue(bound(prior))}"
        )

    def range_failures(prior: Distribution) -> list[str]:
        _, p_min = _p_min(prior, support_only=False)
        top = min(Fraction(1), p_min / (1 - p_min))
        derived = alpha_range(prior)
        if (derived.lower, derived.lower_open, derived.upper, derived.upper_open) != (
            0,
            True,
            top,
            False,
        ):
            return [f"alpha_range = {derived}, expected (0, {top}]"]
        return []

    def alpha_failures(prior: Distribution) -> list[str]:
        x_min, p_min = _p_min(prior, support_only=False)
        top = min(Fraction(1), p_min / (1 - p_min))
        claimed = {
            "range_doubled": min(Fraction(1), 2 * p_min / (1 - p_min)),
            "range_p_min": min(Fraction(1), p_min),
        }.get(ctx.mutant or "", top)
        found: list[str] = []
        target = LogValue(1 / (1 - p_min))
        for alpha in (claimed, claimed / 2, claimed / 1000):
            mechanism = _alpha_rows(prior, x_min, alpha)
            at_zero = pointwise_maximal_leakage(mechanism, prior, 0)
            at_one = pointwise_maximal_leakage(mechanism, prior, 1)
            reference = [LogValue(ref.pml_ratio(mechanism, prior, y)) for y in (0, 1)]
            if [at_zero, at_one] != reference:
                found.append(f"α = {alpha}: exactpml's leakages differ from the reference's")
            if at_zero != target or at_one != LogValue(1 / (1 - alpha * (1 - p_min))):
                found.append(
                    f"α = {alpha}: l(X->0) = {at_zero}, l(X->1) = {at_one} differ from A.5"
                )
            if max(at_zero, at_one) > target:
                found.append(f"α = {alpha}: max_y l(X->y) = {max(at_zero, at_one)} > {target}")
            after = ref.posterior(mechanism, prior, 0)
            if sum(after[x] for x in prior.outcomes if x != x_min) != 1:
                found.append(f"α = {alpha}: y = 0 does not disclose U = 1{{X != x_min}}")
        if claimed < 1:  # just above the claimed range the bound must fail
            above = claimed + (1 - claimed) / 1000
            mechanism = _alpha_rows(prior, x_min, above)
            if LogValue(ref.pml_ratio(mechanism, prior, 1)) <= target:
                found.append(f"α = {above} above the range still meets the PML bound")
        return found

    witness_prior = Distribution({"a": "1/2", "b": "1/3", "c": "1/6"})
    derived = alpha_range(witness_prior)
    mechanism = _alpha_rows(witness_prior, "c", Fraction(1, 5))
    leakages = [pointwise_maximal_leakage(mechanism, witness_prior, y) for y in (0, 1)]
    problems = alpha_failures(witness_prior) + range_failures(witness_prior)
    verified = (
        not problems
        and derived.upper == Fraction(1, 5)
        and leakages == [LogValue(Fraction(6, 5))] * 2
        and ref.posterior(mechanism, witness_prior, 0)["c"] == 0
    )
    infinite = column_ratio(mechanism.column(0)) is sympy.oo
    largest = max(ref.pml_ratio(mechanism, witness_prior, y) for y in (0, 1))
    above = _alpha_rows(witness_prior, "c", Fraction(1, 5) + Fraction(4, 5000))
    sharp = sharpness_evidence(
        "C = oo implies max_y l(X->y) >= log 1/(1 - p_min); the α-range (0, p_min/(1 - p_min)]",
        attained=infinite
        and largest == Fraction(6, 5)
        and ref.pml_ratio(above, witness_prior, 1) > Fraction(6, 5),
        on="the α-mechanism for (1/2, 1/3, 1/6) at α = 1/5: C = oo and max_y l(X->y) = "
        "log(6/5) = log 1/(1 - p_min) exactly; at α = 1/5 + 4/5000 the bound fails, so the "
        "range's end is exact",
        values={
            "exp max_y l(X->y) at α = 1/5": largest,
            "exp l(X->1) at α = 1/5 + 4/5000": ref.pml_ratio(above, witness_prior, 1),
        },
        kind="W",
    )
    evidence = [
        sharp,
        property_holds(
            ctx,
            _infinite_capacity(full_support=not support_only).filter(
                lambda pair: sum(p != 0 for p in pair[1].probabilities) >= 2
            ),
            lower_bound_holds,
            describe="C = oo implies max_y l(X->y) >= "
            + ("log 1/p_min" if ctx.mutant == "bound_one_over_p_min" else "log 1/(1 - p_min)"),
            explain=explain_lower,
        ),
        property_holds(
            ctx,
            xst.distributions(min_size=2, max_size=6, full_support=True),
            lambda prior: not alpha_failures(prior),
            describe="the α-mechanism has the leakages of A.5, meets (log 1/(1 - p_min))-PML "
            "exactly for α in (0, min(1, p_min/(1 - p_min))] and discloses 1{X != x_min}",
            explain=lambda prior: "; ".join(alpha_failures(prior)),
        ),
        property_holds(
            ctx,
            xst.distributions(min_size=2, max_size=6, full_support=True),
            lambda prior: not range_failures(prior),
            describe="the library's alpha_range (solved symbolically) equals "
            "(0, min(1, p_min/(1 - p_min))]",
            explain=lambda prior: "; ".join(range_failures(prior)),
            examples=min(ctx.examples, _SYMBOLIC_EXAMPLES),
        ),
        witness_evidence(
            "α-mechanism for the prior (1/2, 1/3, 1/6) at α = 1/5: range (0, 1/5], "
            "l(X->0) = l(X->1) = log(6/5), y = 0 discloses U",
            verified,
            values={"α-range": str(derived), "l(X->0)": leakages[0], "l(X->1)": leakages[1]},
            counterexample=None
            if verified
            else f"range {derived}, leakages {leakages}; {'; '.join(problems)}",
        ),
    ]
    evidence += _proofs.proof_parts(_prop_3_8_parts(ctx))
    if ctx.mutant is None:
        evidence += _proofs.strengthenings(_prop_3_8_strengthenings())
    return evidence
