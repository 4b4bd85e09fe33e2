"""Checks of Saeidian et al., *Rethinking Disclosure Prevention with PML*, §2.2 and §2.4.

Claims ``pml.thm_2_4`` (PML as a supremum over attributes, attained by the shattering
attribute) and ``pml.thm_2_8`` (the leakage capacity as a supremum over priors, reached
only in the limit) of ``CLAIMS.md``.

Two independent routes meet in every check: the library (:mod:`exactpml.suprema`,
:mod:`exactpml.suprema.constructions`, the limit engine) against enumeration from the definitions
(:mod:`proofs_check.reference.pml`: Bayes' rule, the Markov chain U - X - Y, column
ratios), with expected values of the fixed instances computed by hand in the docstrings.
Every comparison is exact (ratios of rationals, or limits taken by the limit engine).
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from fractions import Fraction

import sympy
from hypothesis import strategies as st

from exactpml import (
    Distribution,
    LogValue,
    Mechanism,
    leakage_capacity,
    pml_joint_divergence,
    pointwise_maximal_leakage,
    sup_guessing_gain,
    sup_pml,
)
from exactpml import strategies as xst
from exactpml.core.exact import to_sympy
from exactpml.numerics import limits
from exactpml.suprema import shattering_construction
from exactpml.suprema.constructions import least_shattering_size
from exactpml.suprema.families import FullSupportPriors
from proofs_check import (
    CheckContext,
    Evidence,
    check,
    limit_evidence,
    property_holds,
    sharpness_evidence,
    witness_evidence,
)
from proofs_check import reference as ref
from proofs_check.claims.pml import _proofs
from proofs_check.claims.pml._instances import mechanism_prior_attribute
from proofs_check.claims.pml._proofs import ProofPart, Strengthening, changes
from proofs_check.claims.pml._ratios import Ratio, capacity_ratio, column_ratio
from proofs_check.reference.pml import guessing_gain, pml_ratio, posterior, shattering_rows

__all__ = ["thm_2_4", "thm_2_8"]

Label = Hashable
_EXPLICIT_SIZE = 64
"""Shattering attributes up to this K are written out value by value; beyond it their gain is
summed by symmetry (the K other values carry equal masses), which is the same sum."""


# --- pml.thm_2_4 ---------------------------------------------------------------------
def _maximiser(mechanism: Mechanism, prior: Distribution, output: Label) -> Label:
    """x* in argmax_{x in supp P_X} p(y|x); among ties the largest prior mass (fewest values)."""
    support = [x for x in prior.outcomes if prior[x] != 0]
    return max(support, key=lambda x: (mechanism.probability(x, output), prior[x]))


def _claimed_size(p_star: Fraction, q_star: Fraction, *, posterior_only: bool) -> int:
    """The least K the claim gives: 1 when l(X->y) = 0 (q* = p*), else
    ceil(max((1-p*)/p*, (1-q*)/q*)) (mutant: ceil((1-q*)/q*), the p* term dropped)."""
    if q_star == p_star:
        return 1
    terms = (
        [(1 - q_star) / q_star]
        if posterior_only
        else [(1 - p_star) / p_star, (1 - q_star) / q_star]
    )
    return max(1, math.ceil(max(terms)))


def _shattering_gain(
    mechanism: Mechanism, prior: Distribution, output: Label, star: Label, size: int, *, among: bool
) -> Fraction:
    """The guessing gain of Thm 2.4's attribute with K = ``size``, from U - X - Y."""
    after = posterior(mechanism, prior, output)
    before = {x: Fraction(prior[x]) for x in prior.outcomes}
    if size <= _EXPLICIT_SIZE:
        rows = shattering_rows(prior.outcomes, star, size, among=among)
        return guessing_gain(rows, before, after)
    # by symmetry: U = u0 w.p. p(x*) (+ share), each of the other values (1 - p(x*))/K
    p, q = before[star], after[star]
    if among:
        return (q + (1 - q) / size) / (p + (1 - p) / size)
    return max(q, (1 - q) / size) / max(p, (1 - p) / size)


_THM_2_4_WITNESSES: tuple[tuple[str, Mechanism, Distribution, Label, Fraction, int], ...] = (
    # p_Y(1) = 2/3·1/4 + 1/3·3/4 = 5/12; x* = b, p* = 1/3, q* = (1/4)/(5/12) = 3/5;
    # exp l = (3/4)/(5/12) = 9/5; K = ceil(max(2, 2/3)) = 2.
    (
        "randomized response (3/4, 1/4), prior (2/3, 1/3), y = 1",
        Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}}),
        Distribution({"a": "2/3", "b": "1/3"}),
        1,
        Fraction(9, 5),
        2,
    ),
    # p_Y(1) = 1/2·1/2 + 2/5·3/4 + 1/10·1 = 13/20; x* = c, p* = 1/10, q* = 2/13;
    # exp l = 1/(13/20) = 20/13; K = ceil(max(9, 11/2)) = 9.
    (
        "3 inputs, prior (1/2, 2/5, 1/10), y = 1",
        Mechanism(
            {"a": {0: "1/2", 1: "1/2"}, "b": {0: "1/4", 1: "3/4"}, "c": {0: 0, 1: 1}},
            outputs=[0, 1],
        ),
        Distribution({"a": "1/2", "b": "2/5", "c": "1/10"}),
        1,
        Fraction(20, 13),
        9,
    ),
    # an output nobody produces: p_Y(1) = 0, so l(X->1) = 0 (footnote 5) and K = 1.
    (
        "output of probability 0 (footnote 5)",
        Mechanism({"a": {0: 1}, "b": {0: 1}}, outputs=[0, 1]),
        Distribution({"a": "1/3", "b": "2/3"}),
        1,
        Fraction(1),
        1,
    ),
)


_P, _Q = sympy.symbols("p* q*")
_K = sympy.Symbol("K", integer=True)
_SHATTERING_VARIABLES = {
    _P: sympy.Interval.Lopen(0, 1),
    _Q: sympy.Interval.Lopen(0, 1),
    _K: sympy.Interval(1, sympy.oo),
}
_SHATTERING_DOMAIN = (
    "every 0 < p* <= q* <= 1 (p* = p_X(x*), q* = P_{X|Y=y}(x*) for x* maximising p(y|x) on "
    "supp P_X, so that q*/p* = exp l(X->y); every such pair occurs) and every integer K >= 1 "
    "with K >= max((1-p*)/p*, (1-q*)/q*)"
)
"""The shattering attribute's domain: (p*, q*) ranges over exactly the pairs that occur."""


def _shattering_gain_expr(p: sympy.Expr, q: sympy.Expr, *, among: bool) -> sympy.Expr:
    """max_u P_{U|Y=y}(u) / max_u P_U(u) for Thm 2.4's attribute: P_U = (p*, (1-p*)/K, ...),
    P_{U|Y=y} = (q*, (1-q*)/K, ...) (the K other values share 1 - p*, resp. 1 - q*); with
    ``among`` u0 is one of the K values: P_U(u0) = p* + (1-p*)/K (a mutant)."""
    if among:
        return (q + (1 - q) / _K) / (p + (1 - p) / _K)
    return sympy.Max(q, (1 - q) / _K) / sympy.Max(p, (1 - p) / _K)


def _thm_2_4_parts(ctx: CheckContext) -> list[ProofPart]:
    """Every attribute's ratio <= exp l(X->y); the shattering attribute attains q*/p* from
    the claimed K on; with a zero-mass input it attains the maximum over supp P_X."""
    parts: list[ProofPart] = []
    if changes(ctx):
        s = _proofs.finite(2, 2, attribute_values=2)
        after = _proofs.attribute_posterior(s.prior, s.channel, s.attribute, 0)
        before = _proofs.attribute_law(s.prior, s.attribute)
        parts.append(ProofPart(
            "every attribute kernel gives a ratio max_u p(u|y)/max_u p_U(u) <= exp l(X->y)",
            "every kernel P_{Y|X} with 2 inputs and any number of outputs (the column of y "
            "ranges over [0, 1]^2) at every output y with p_Y(y) > 0, every attribute kernel "
            "P_{U|X} with 2 values and every full-support prior on 2 inputs",
            sympy.Max(*after) / sympy.Max(*before),
            _proofs.pml_ratio(s.prior, s.channel, 0),
            s.variables,
            s.with_hypotheses(sympy.Gt(_proofs.output_mass(s.prior, s.channel, 0), 0)),
        ))
    if changes(ctx, "u0_among", "posterior_only"):
        among = ctx.mutant == "u0_among"
        thresholds = [sympy.Ge(_K, (1 - _P) / _P), sympy.Ge(_K, (1 - _Q) / _Q)]
        if ctx.mutant == "posterior_only":
            thresholds = thresholds[1:]
        thresholds.append(sympy.Ge(_Q, _P))
        gain = _shattering_gain_expr(_P, _Q, among=among)
        parts.append(ProofPart(
            "the shattering attribute"
            + (" (u0 among its K values)" if among else "")
            + " attains exp l(X->y) = q*/p* exactly once K >= "
            + ("(1-q*)/q*" if ctx.mutant == "posterior_only" else "max((1-p*)/p*, (1-q*)/q*)")
            + ": |gain - q*/p*| <= 0",
            _SHATTERING_DOMAIN.replace(
                "max((1-p*)/p*, (1-q*)/q*)",
                "(1-q*)/q*" if ctx.mutant == "posterior_only" else "max((1-p*)/p*, (1-q*)/q*)"),
            sympy.Abs(gain - _Q / _P), 0, _SHATTERING_VARIABLES, tuple(thresholds),
        ))
    if changes(ctx, "whole_alphabet"):
        s = _proofs.finite(3, 2, full_support=False)
        mass = _proofs.output_mass(s.prior, s.channel, 0)
        p_star = s.prior[0]
        q_star = s.prior[0] * s.channel[0][0] / mass
        support = None if ctx.mutant == "whole_alphabet" else (0, 1)
        variables = s.pinned({s.prior[2]: 0})
        variables[_K] = sympy.Interval(1, sympy.oo)
        parts.append(ProofPart(
            "when P_X lacks full support, the shattering attribute around a maximiser x* of "
            "p(y|x) on supp P_X has a ratio >= max_{x in "
            + ("X" if support is None else "supp P_X")
            + "} p(y|x)/p_Y(y) (the supremum over attributes reaches the maximum over "
            + ("all inputs" if support is None else "the support") + ")",
            "every kernel P_{Y|X} with 3 inputs and any number of outputs (the column of y "
            "ranges over [0, 1]^3) at every output y with p_Y(y) > 0, every prior (p_0, p_1, 0) "
            "with p_0, p_1 > 0, x* = 0 maximising p(y|x) on {0, 1}, every integer K >= 1 with "
            "K >= max((1-p*)/p*, (1-q*)/q*)",
            _proofs.pml_ratio(s.prior, s.channel, 0, support=support),
            _shattering_gain_expr(p_star, q_star, among=False),
            variables,
            s.with_hypotheses(
                sympy.Gt(s.prior[0], 0), sympy.Gt(s.prior[1], 0), sympy.Gt(mass, 0),
                sympy.Ge(s.channel[0][0], s.channel[1][0]),
                sympy.Ge(_K, (1 - p_star) / p_star), sympy.Ge(_K, (1 - q_star) / q_star),
            ),
        ))
    return parts


def _thm_2_4_strengthenings() -> list[Strengthening]:
    """Every attribute's ratio strictly below exp l(X->y); the q* term of the threshold on K
    dropped (x* maximises p(y|x), so q* >= p*); the threshold lowered by 1/100."""
    s = _proofs.finite(2, 2, attribute_values=2)
    after = _proofs.attribute_posterior(s.prior, s.channel, s.attribute, 0)
    before = _proofs.attribute_law(s.prior, s.attribute)
    gain = _shattering_gain_expr(_P, _Q, among=False)
    return [
        Strengthening(
            "strict_ratio", "every attribute's ratio max_u p(u|y)/max_u p_U(u) < exp l(X->y)",
            "every kernel with 2 inputs at an output y with p_Y(y) > 0, every attribute kernel "
            "with 2 values, every full-support prior on 2 inputs",
            sympy.Max(*after) / sympy.Max(*before), _proofs.pml_ratio(s.prior, s.channel, 0),
            s.variables,
            s.with_hypotheses(sympy.Gt(_proofs.output_mass(s.prior, s.channel, 0), 0)),
            strict=True,
        ),
        Strengthening(
            "drop_posterior_term",
            "the shattering attribute attains exp l(X->y) = q*/p* once K >= (1-p*)/p* (the "
            "(1-q*)/q* term dropped)",
            "every 0 < p* <= q* <= 1 (x* maximises p(y|x), so q*/p* = exp l(X->y) >= 1) and "
            "every integer K >= 1 with K >= (1-p*)/p*",
            sympy.Abs(gain - _Q / _P), 0, _SHATTERING_VARIABLES,
            (sympy.Ge(_K, (1 - _P) / _P), sympy.Ge(_Q, _P)),
        ),
        Strengthening(
            "smaller_size",
            "the shattering attribute attains exp l(X->y) once K >= (99/100) max((1-p*)/p*, "
            "(1-q*)/q*)",
            "every 0 < p* <= q* <= 1 and every integer K >= 1 with K >= (99/100) "
            "max((1-p*)/p*, (1-q*)/q*)",
            sympy.Abs(gain - _Q / _P), 0, _SHATTERING_VARIABLES,
            (sympy.Ge(_K, sympy.Rational(99, 100) * (1 - _P) / _P),
             sympy.Ge(_K, sympy.Rational(99, 100) * (1 - _Q) / _Q), sympy.Ge(_Q, _P)),
        ),
    ]


@check(
    "pml.thm_2_4",
    mutants={
        "u0_among": "the shattering attribute with u0 among its K values",
        "posterior_only": "K >= (1-q*)/q* suffices (the p* term dropped)",
        "whole_alphabet": "D_inf with the maximum over all x, not x in supp P_X (hypothesis "
        "dropped)",
    },
    strengthenings={
        "strict_ratio": "every attribute's ratio < exp l(X->y) (<= made strict)",
        "drop_posterior_term": "K >= (1-p*)/p* suffices (the (1-q*)/q* term dropped)",
        "smaller_size": "K >= (99/100) max((1-p*)/p*, (1-q*)/q*) suffices (the threshold "
        "shrunk)",
    },
)
def thm_2_4(ctx: CheckContext) -> list[Evidence]:
    """``pml.thm_2_4``: Saeidian et al., Theorem 2.4 (2023b, Thm 1) and Def 2.3, footnote 5.

    Statement: the supremum over attributes U (and guesses) of
    max_u p(u|y) / max_u p_U(u) equals exp D_inf(P_{X|Y=y} || P_X)
    = max_{x in supp P_X} p(y|x)/p_Y(y), and 1 when p_Y(y) = 0; every attribute's ratio is
    at most exp l(X->y); the shattering attribute (U = u0 on x*, uniform on K values other
    than u0 elsewhere) attains it exactly once K >= max((1-p*)/p*, (1-q*)/q*).  Since x*
    maximises p(y|x) on the support, q*/p* = exp l(X->y) >= 1, so the q* term never binds:
    the least K is ceil((1-p*)/p*) (1 when l(X->y) = 0), and every smaller K falls short.

    Evidence:
        P: on random (P_{Y|X}, P_X, P_{U|X}) (priors with zeros, outputs of mass 0), for
           every y: l(X->y) (library) equals D_inf computed by Bayes' rule; the random
           attribute's gain (from U - X - Y) is at most exp l(X->y); the library's least K
           (``least_shattering_size``) equals the claim's; the attribute written out with
           that K (and K + 1) attains exp l(X->y) exactly, with K - 1 it falls short (for
           K <= 64 written out value by value, beyond by symmetry); for K <= 64 the
           library's ``sup_guessing_gain`` reports the value, "attained" and the same K.
        W: 3 instances with hand-computed exp l and least K (9/5 with K = 2, 20/13 with
           K = 9, and an output of probability 0 with l = 0 and K = 1).
        L: the variant with u0 among its K values converges to exp l(X->y) as K -> oo
           (limit engine) and is not attained: its gain (q*+(1-q*)/K)/(p*+(1-p*)/K) is
           below q*/p* for every K exactly when p* < q*; members at K = 10, 100 increase
           and stay below.
        C (proofs, z3): every attribute kernel with 2 values gives a ratio <= exp l(X->y),
           for every kernel with 2 inputs and every full-support prior; the shattering
           attribute attains q*/p* for every 0 < p* <= q* <= 1 and integer K >= max((1-p*)/p*,
           (1-q*)/q*); with a zero-mass input (prior (p_0, p_1, 0), 3-input kernels) it
           attains the maximum over supp P_X.  Each mutant changes a proved part, refuted.
        Strengthenings: the ratio strict (sharp); the (1-q*)/q* term dropped (not sharp: the
           stronger statement is proved, since q* >= p*); the threshold times 99/100 (sharp).
    """
    among = ctx.mutant == "u0_among"
    posterior_only = ctx.mutant == "posterior_only"
    whole = ctx.mutant == "whole_alphabet"

    def failures(instance: tuple[Mechanism, Distribution, Mechanism]) -> list[str]:
        mechanism, prior, attribute = instance
        found: list[str] = []
        before = {x: Fraction(prior[x]) for x in prior.outcomes}
        for y in mechanism.outputs:
            value = pointwise_maximal_leakage(mechanism, prior, y)
            reference = pml_ratio(mechanism, prior, y, whole_alphabet=whole)
            if value.ratio != reference:
                found.append(f"y={y!r}: exp l(X->y) = {value.ratio} but D_inf gives {reference}")
                continue
            after = posterior(mechanism, prior, y)
            rows = {
                x: dict(zip(attribute.outputs, row, strict=True))
                for x, row in zip(attribute.inputs, attribute.rows, strict=True)
            }
            gain = guessing_gain(rows, before, after)
            if gain > reference:
                found.append(f"y={y!r}: the random attribute's gain {gain} > exp l {reference}")
            star = _maximiser(mechanism, prior, y)
            p_star, q_star = before[star], after[star]
            size = _claimed_size(p_star, q_star, posterior_only=posterior_only)
            library_size = least_shattering_size(mechanism, prior, y)
            if library_size != size:
                found.append(f"y={y!r}: least K is {library_size} (library), claimed {size}")
            reached = _shattering_gain(mechanism, prior, y, star, size, among=among)
            if reached != reference:
                found.append(
                    f"y={y!r}: x* = {star!r}, p* = {p_star}, q* = {q_star}: the shattering "
                    f"attribute with K = {size} has gain {reached} != exp l = {reference}"
                )
            beyond = _shattering_gain(mechanism, prior, y, star, size + 1, among=among)
            if beyond != reference:
                found.append(f"y={y!r}: K = {size + 1} gives {beyond} != exp l = {reference}")
            if size > 1:
                short = _shattering_gain(mechanism, prior, y, star, size - 1, among=among)
                if short >= reference:
                    found.append(f"y={y!r}: K = {size - 1} already attains {reference}")
            if size <= _EXPLICIT_SIZE:
                result = sup_guessing_gain(mechanism, prior, y)
                if not (
                    result.attained
                    and result.value == value
                    and result.witness.parameter_value == library_size  # type: ignore[union-attr]
                ):
                    found.append(f"y={y!r}: sup_guessing_gain gave {result}")
        return found

    property_evidence = property_holds(
        ctx,
        mechanism_prior_attribute(),
        lambda instance: not failures(instance),
        describe="l(X->y) = D_inf(P_X|y || P_X); every attribute's gain <= exp l(X->y); the "
        "shattering attribute attains it exactly from the claimed least K on",
        explain=lambda instance: "; ".join(failures(instance)),
    )

    witnessed: list[str] = []
    shown: dict[str, object] = {}
    for name, mechanism, prior, y, expected, expected_size in _THM_2_4_WITNESSES:
        star = _maximiser(mechanism, prior, y)
        result = sup_guessing_gain(mechanism, prior, y)
        size = _claimed_size(
            Fraction(prior[star]),
            posterior(mechanism, prior, y)[star],
            posterior_only=posterior_only,
        )
        gain = _shattering_gain(mechanism, prior, y, star, size, among=among)
        short = (
            _shattering_gain(mechanism, prior, y, star, size - 1, among=among) if size > 1 else None
        )
        ok = (
            result.attained
            and result.value == LogValue(expected)
            and result.witness.parameter_value == expected_size  # type: ignore[union-attr]
            and size == expected_size
            and gain == expected
            and (short is None or short < expected)
        )
        shown[f"{name}: exp l"] = result.value.ratio
        shown[f"{name}: least K"] = size
        if not ok:
            witnessed.append(
                f"{name}: expected exp l = {expected} with least K = {expected_size}; library "
                f"{result}; claimed K = {size}, gain there {gain}, at K - 1: {short}"
            )
    witness = witness_evidence(
        "the shattering attribute attains exp l(X->y) at the least K on 3 hand-computed "
        "instances (9/5 with K = 2, 20/13 with K = 9, 0 leakage with K = 1)",
        not witnessed,
        values=shown,
        counterexample="; ".join(witnessed) or None,
    )

    mechanism, prior, y, expected = (
        _THM_2_4_WITNESSES[1][1],
        _THM_2_4_WITNESSES[1][2],
        _THM_2_4_WITNESSES[1][3],
        _THM_2_4_WITNESSES[1][4],
    )
    construction = shattering_construction(mechanism, prior, y)
    star = _maximiser(mechanism, prior, y)
    p_star = Fraction(prior[star])
    q_star = posterior(mechanism, prior, y)[star]
    members = [construction.at(k).leakage().ratio for k in (10, 100)]
    written = _shattering_gain(mechanism, prior, y, star, 10, among=True)
    limit = limit_evidence(
        construction.limit,
        expected,
        attained=not p_star < q_star,  # gain(K) < q*/p* for every K  <=>  p* < q*
        expected_attained=False,
        family="shattering attribute with u0 among its K values (20/13 instance), K -> oo",
        name="lim gain",
    )
    approach = witness_evidence(
        "members of the u0-among variant at K = 10, 100 (20/13 instance) increase towards "
        "exp l = 20/13 and stay below it",
        written == members[0] and members[0] < members[1] < expected,
        values={"gain at K = 10": members[0], "gain at K = 100": members[1]},
        counterexample=f"gain {members[0]} at K = 10 (written out: {written}), {members[1]} at "
        f"K = 100, exp l = {expected}",
        kind="L",
    )
    sharpness = sharpness_evidence(
        "every attribute's gain max_u p(u|y)/max_u p_U(u) <= exp l(X->y), and K >= "
        "max((1-p*)/p*, (1-q*)/q*)",
        attained=not witnessed,
        on="3 hand-computed instances: the shattering attribute at the least K attains "
        "exp l(X->y) exactly (9/5 at K = 2, 20/13 at K = 9, 1 at K = 1), and K - 1 falls "
        "short, so the threshold on K is exact; since q* >= p*, its q* term never binds",
        values=shown,
    )
    evidence = [property_evidence, witness, limit, approach, sharpness]
    evidence += _proofs.proof_parts(_thm_2_4_parts(ctx))
    if ctx.mutant is None:
        evidence += _proofs.strengthenings(_thm_2_4_strengthenings())
    return evidence


# --- pml.thm_2_8 ---------------------------------------------------------------------
_T = sympy.Symbol("t", positive=True)


def _mixes(mechanism: Mechanism, *, any_zero: bool) -> bool:
    """Some column mixes zero and non-zero (mutant: some column has a zero at all)."""
    for y in mechanism.outputs:
        column = mechanism.column(y)
        zero = any(p == 0 for p in column)
        if zero and (any_zero or any(p != 0 for p in column)):
            return True
    return False


def _concentrating(inputs: tuple[Label, ...], favoured: Label, t: sympy.Expr) -> Distribution:
    """1 - t on ``favoured``, t/(|X| - 1) on every other input (Thm 2.8's prior)."""
    share = to_sympy(t) / (len(inputs) - 1)
    return Distribution._trusted(
        inputs, [1 - to_sympy(t) if x == favoured else share for x in inputs]
    )


def _favoured(mechanism: Mechanism, output: Label, *, largest: bool) -> Label:
    column = dict(zip(mechanism.inputs, mechanism.column(output), strict=True))
    pick = max if largest else min
    return pick(mechanism.inputs, key=lambda x: column[x])


def _leakage_at(mechanism: Mechanism, favoured: Label, y: Label, t: Fraction) -> Fraction:
    """exp l(X->y) at the prior 1 - t on ``favoured`` (the reference: Bayes' rule)."""
    share = t / (len(mechanism.inputs) - 1)
    prior = Distribution({x: (1 - t) if x == favoured else share for x in mechanism.inputs}.items())
    return ref.pml_ratio(mechanism, prior, y)


def _maximal_leakage(mechanism: Mechanism) -> Fraction:
    """exp of Issa et al.'s maximal leakage, Σ_y max_x p(y|x) (the ``maximal_leakage_value``
    mutant's value of C)."""
    return sum((max(mechanism.column(y)) for y in mechanism.outputs), Fraction(0))


_THM_2_8_INSTANCES: tuple[tuple[str, Mechanism, Ratio], ...] = (
    # column ratios 3 and 3
    (
        "randomized response (3/4, 1/4)",
        Mechanism({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}}),
        Fraction(3),
    ),
    # column ratios (1/2)/(1/8) = 4, (1/2)/(1/8) = 4, (3/4)/(1/4) = 3
    (
        "3 x 3 kernel",
        Mechanism(
            {
                0: {0: "1/2", 1: "1/4", 2: "1/4"},
                1: {0: "1/4", 1: "1/2", 2: "1/4"},
                2: {0: "1/8", 1: "1/8", 2: "3/4"},
            }
        ),
        Fraction(4),
    ),
    # column 0 mixes zero and non-zero: C = oo
    (
        "a column (1/2, 0)",
        Mechanism({0: {0: "1/2", 1: "1/2"}, 1: {0: 0, 1: 1}}, outputs=[0, 1]),
        sympy.oo,
    ),
)


_T_PRIOR = sympy.Symbol("t")


def _thm_2_8_strengthenings() -> list[Strengthening]:
    """l(X->y) strictly below the column ratio; the argmin prior within t R (R - 1) of it."""
    s = _proofs.finite(2, 2)
    low, high = s.channel[0][0], s.channel[1][0]
    ratio = sympy.Max(low / high, high / low)
    positive = (sympy.Gt(low, 0), sympy.Gt(high, 0))
    # the prior 1 - t on the argmin x = 0 (p(y|0) <= p(y|1)), t on x = 1
    concentrated = (1 - _T_PRIOR, _T_PRIOR)
    exp_l = _proofs.pml_ratio(concentrated, s.channel, 0)
    return [
        Strengthening(
            "strict_capacity_bound",
            "l(X->y) < log max_{x,x'} p(y|x)/p(y|x') for every full-support prior when that "
            "ratio exceeds 1 (the supremum is never attained)",
            "every kernel with 2 inputs and any number of outputs whose column y is positive and "
            "not constant, and every full-support prior on 2 inputs",
            _proofs.pml_ratio(s.prior, s.channel, 0), ratio, s.variables,
            s.with_hypotheses(*positive, sympy.Ne(low, high)), strict=True,
        ),
        Strengthening(
            "approach_rate",
            "the prior 1 - t on argmin_x p(y|x) gives exp l(X->y) >= R - t R (R - 1), R the "
            "column ratio (it reaches the supremum at rate t)",
            "every kernel with 2 inputs whose column y is positive, p(y|0) <= p(y|1) (x = 0 the "
            "argmin), and every t in (0, 1)",
            ratio - _T_PRIOR * ratio * (ratio - 1), exp_l,
            {**s.variables, _T_PRIOR: sympy.Interval.open(0, 1)},
            s.with_hypotheses(*positive, sympy.Le(low, high)),
        ),
    ]


@check(
    "pml.thm_2_8",
    mutants={
        "argmax_prior": "priors putting 1 - t on argmax_x p(y|x) instead of argmin reach the sup",
        "zero_columns_count": "C is infinite iff some column has a zero (all-zero columns not "
        "ignored)",
        "attained": "the supremum is attained by some full-support prior",
        "maximal_leakage_value": "C = log Σ_y max_x p(y|x) (Issa et al.'s maximal leakage) "
        "instead of log max_y max_{x,x'} p(y|x)/p(y|x')",
    },
    strengthenings={
        "strict_capacity_bound": "l(X->y) < the column's log-ratio for every full-support prior "
        "(<= made strict)",
        "approach_rate": "the argmin prior 1 - t is within t R (R - 1) of the supremum R (a rate "
        "for 'reaches it as t -> 0')",
    },
)
def thm_2_8(ctx: CheckContext) -> list[Evidence]:
    """``pml.thm_2_8``: Saeidian et al., Theorem 2.8 (Issa et al. 2019, Thm 14), Def 2.7.

    Statement: C(P_{Y|X}) = log sup_y max_{x,x'} p(y|x)/p(y|x') equals
    sup_{P_X} sup_y l(X->y) and sup_{P_X} D_inf(P_XY || P_Y × P_X) over full-support priors.
    For finite Y, C is infinite iff some column mixes zero and non-zero entries (all-zero
    columns ignored); for countable Y it can be infinite without zeros.  Priors putting
    1 - t on argmin_x p(y|x) reach the supremum as t -> 0+, never attaining it (unless 0).

    Evidence:
        P: on random kernels (zeros, deterministic rows, all-zero columns) and a random
           full-support prior: the capacity by column ratios equals ``leakage_capacity``
           and ``sup_pml`` over all full-support priors (construction + limit engine),
           output by output too, with "attained" exactly when the ratio is 1 (the
           ``attained`` mutant: always); it is
           infinite iff some column mixes zero and non-zero; the random prior's
           max_y l(X->y) and D_inf(P_XY || P_Y × P_X) are at most C; the prior with 1 - t
           on argmin_x p(y|x) gives l(X->y) strictly increasing from t = 1/10 to 1/100
           and strictly below the column ratio (Remark B.1: not attained).
        L: 3 kernels with hand-computed C (3, 4, oo): the check builds exp l(X->y) along
           the prior 1 - t on argmin p(y|x) as an expression in t and the limit engine
           takes t -> 0+; ``sup_pml`` reports "not attained".
        L: the countable-output kernel p(y|0) = 2^-(y+1), p(y|1) = (1/3)(2/3)^y has no
           zero, a finite ratio at every y (3/2 at y = 0), and p(y|1)/p(y|0) -> oo as
           y -> oo: C = oo, approached and not attained.
        Strengthenings (z3): l(X->y) strictly below the column's ratio for every full-support
           prior (the supremum is never attained) and the argmin prior within t R (R - 1) of
           R: both proved, findings.  Not PROVED: the ``attained`` mutant is existential (no
           prover refutation can kill it) and "C = oo iff a column mixes zero and non-zero"
           needs an infinite value.
    """
    largest = ctx.mutant == "argmax_prior"
    any_zero = ctx.mutant == "zero_columns_count"

    def failures(instance: tuple[Mechanism, Distribution]) -> list[str]:
        mechanism, prior = instance
        found: list[str] = []
        reference = LogValue(
            _maximal_leakage(mechanism)
            if ctx.mutant == "maximal_leakage_value"
            else capacity_ratio(mechanism)
        )
        over_priors = sup_pml(mechanism, FullSupportPriors(mechanism.inputs))
        if not (over_priors.value == reference == leakage_capacity(mechanism)):
            found.append(
                f"C by column ratios {reference}, sup_pml {over_priors.value}, "
                f"leakage_capacity {leakage_capacity(mechanism)}"
            )
        criterion = _mixes(mechanism, any_zero=any_zero)
        if reference.is_infinite != criterion:
            found.append(
                f"C = {reference}, but the criterion ('some column "
                f"{'has a zero' if any_zero else 'mixes zero and non-zero'}') says "
                f"{'infinite' if criterion else 'finite'}"
            )
        divergence = ref.joint_divergence_ratio(mechanism, prior)
        if pml_joint_divergence(mechanism, prior) != LogValue(divergence):
            found.append(
                f"D_inf(P_XY || P_Y x P_X) = {pml_joint_divergence(mechanism, prior)} (exactpml), "
                f"log {divergence} (reference)"
            )
        if LogValue(divergence) > reference:
            found.append(f"D_inf(P_XY || P_Y x P_X) = log {divergence} > C = {reference}")
        for y in mechanism.outputs:
            ratio = column_ratio(mechanism.column(y))
            part = sup_pml(mechanism, FullSupportPriors(mechanism.inputs), output=y)
            expected_attained = ratio == 1 or ctx.mutant == "attained"  # the mutant: always
            if part.value != LogValue(ratio) or part.attained != expected_attained:
                found.append(
                    f"y={y!r}: column ratio {ratio}, sup_pml {part}"
                    + (", claimed attained" if expected_attained and ratio != 1 else "")
                )
            leaked = ref.pml_ratio(mechanism, prior, y)
            if pointwise_maximal_leakage(mechanism, prior, y) != LogValue(leaked):
                found.append(f"y={y!r}: exactpml's l(X->y) differs from the reference's {leaked}")
            if LogValue(leaked) > LogValue(ratio):
                found.append(f"y={y!r}: l(X->y) = log {leaked} above the column ratio {ratio}")
            if ratio == 1 or len(mechanism.inputs) < 2:
                continue
            favoured = _favoured(mechanism, y, largest=largest)
            first, second = (
                _leakage_at(mechanism, favoured, y, Fraction(1, 10)),
                _leakage_at(mechanism, favoured, y, Fraction(1, 100)),
            )
            if not (first < second and (ratio is sympy.oo or second < ratio)):
                found.append(
                    f"y={y!r}: prior 1 - t on {favoured!r}: exp l = {first} at t = 1/10, "
                    f"{second} at t = 1/100, column ratio {ratio}"
                )
        return found

    @st.composite
    def instances(draw: st.DrawFn) -> tuple[Mechanism, Distribution]:
        mechanism = draw(xst.mechanisms())
        prior = draw(xst.distributions(outcomes=mechanism.inputs, full_support=True))
        return mechanism, prior

    evidence = [
        property_holds(
            ctx,
            instances(),
            lambda instance: not failures(instance),
            describe="C = column ratio = sup over full-support priors of l(X->y) (limit engine) "
            ">= D_inf(P_XY || P_Y x P_X); infinite iff a column mixes zero and non-zero; the "
            "argmin prior approaches it from below",
            explain=lambda instance: "; ".join(failures(instance)),
        )
    ]

    members: dict[str, Fraction] = {}
    for name, mechanism, expected in _THM_2_8_INSTANCES:
        worst = max(
            mechanism.outputs,
            key=lambda y: (
                column_ratio(mechanism.column(y)) is sympy.oo,
                column_ratio(mechanism.column(y)),
            ),
        )
        favoured = _favoured(mechanism, worst, largest=largest)
        prior = _concentrating(mechanism.inputs, favoured, _T)
        column = [to_sympy(p) for p in mechanism.column(worst)]
        expression = sympy.Max(*column) / sum(
            (to_sympy(prior[x]) * c for x, c in zip(mechanism.inputs, column, strict=True)),
            sympy.S.Zero,
        )
        value = limits.limit(expression, _T, "0+", domain=(0, 1))
        attained = sup_pml(mechanism, FullSupportPriors(mechanism.inputs)).attained
        if ctx.mutant == "maximal_leakage_value":
            expected = _maximal_leakage(mechanism)
        if expected is not sympy.oo:
            members[name] = _leakage_at(mechanism, favoured, worst, Fraction(1, 1000))
        evidence.append(
            limit_evidence(
                value,
                expected,
                attained=attained,
                expected_attained=ctx.mutant == "attained",
                family=f"{name}: prior 1 - t on {'argmax' if largest else 'argmin'}_x p(y|x), "
                f"y = {worst!r}, t -> 0+",
                name="lim exp l(X->y)",
            )
        )

    y = sympy.Symbol("y", positive=True)
    given_zero = sympy.Rational(1, 2) ** (y + 1)
    given_one = sympy.Rational(1, 3) * sympy.Rational(2, 3) ** y
    # no zero entry (both pmfs are positive powers), so every finite y has a finite ratio
    # and the supremum oo over y is not attained
    no_zero = bool(given_zero.is_positive and given_one.is_positive)
    evidence.append(
        limit_evidence(
            limits.limit(given_one / given_zero, y, "oo"),
            sympy.oo,
            attained=not no_zero,
            expected_attained=ctx.mutant == "attained",
            family="countable Y: p(y|1)/p(y|0) = (2/3)(4/3)^y, no zero entry, y -> oo",
            name="lim p(y|1)/p(y|0)",
        )
    )
    ratios = {name: expected for name, _, expected in _THM_2_8_INSTANCES}
    below = all(value < ratios[name] for name, value in members.items())
    evidence.append(
        sharpness_evidence(
            "max_y l(X->y) <= C(P_{Y|X}) for every full-support P_X",
            attained=not below,
            on="the kernels with C = log 3 and log 4 (members of the argmin prior at t = 1/1000 "
            "stay below) and, output by output, the random kernels (sup_pml reports it "
            "attained exactly when the column ratio is 1)",
            sharpest="for a full-support prior l(X->y) < log max_{x,x'} p(y|x)/p(y|x') "
            "whenever that column ratio exceeds 1 (strict), with supremum equal to it",
            values={f"{name}: exp l at t = 1/1000": value for name, value in members.items()},
            kind="L",
        )
    )
    if ctx.mutant is None:
        evidence += _proofs.strengthenings(_thm_2_8_strengthenings())
    return evidence
