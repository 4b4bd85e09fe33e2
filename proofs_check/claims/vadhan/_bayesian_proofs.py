"""Vadhan §4 in sympy for the proof engines: Propositions 1 and 2 and the Remark.

The statements of ``vadhan.prop_1`` and ``vadhan.prop_2`` (:mod:`.bayesian`), their mutants
and their strengthenings, written from the notes' definitions (Bayes' rule, Δ = ½ Σ |·|, KL
and Hellinger of two Bernoulli laws; see :mod:`._proofs`).
"""

from __future__ import annotations

from typing import Any

import sympy

from proofs_check import CheckContext, Evidence, proof_evidence, strengthening_evidence
from proofs_check.claims.vadhan._proofs import EPSILON, TIMEOUT, UNIT, law_symbols
from proofs_check.evidence import searched_proof_evidence

__all__ = [
    "prop_1_proofs",
    "prop_1_strengthenings",
    "prop_2_proofs",
    "prop_2_strengthenings",
]


_VALUES = 3
"""|D| in the Prop 1 proofs (three values with zeros allowed cover |D| <= 3)."""


def _prop_1_structure(*, positive: bool = False) -> tuple[Any, ...]:
    """(prior symbols, column symbols, variables, prior hypothesis, Pr[y])."""
    prior, ranges, total = law_symbols("pi", _VALUES, full_support=positive)
    column = tuple(sympy.Symbol(f"p_{d}", real=True) for d in range(_VALUES))
    entries = sympy.Interval.Lopen(0, 1) if positive else UNIT
    variables = {**ranges, **{p: entries for p in column}}
    mass = sympy.Add(*(prior[d] * column[d] for d in range(_VALUES)))
    return prior, column, variables, total, mass


def _dp_column(column: tuple[sympy.Symbol, ...], factor: sympy.Expr) -> list[sympy.Rel]:
    """ε-DP on the column of y: p_d <= e^ε p_e for every d ≠ e."""
    return [
        sympy.Le(column[d], factor * column[e])
        for d in range(len(column))
        for e in range(len(column))
        if d != e
    ]


_PROP_1_DOMAIN = (
    "every prior π on D with |D| = 3 (zeros allowed), every column p_d = Pr[M(d, x_{-i}) = y] "
    "in [0, 1] and every ε >= 0"
)


def prop_1_proofs(mutant: str | None, *, search: CheckContext | None = None
                  ) -> list[Evidence]:
    """Prop 1 on |D| = 3: both D∞ between prior and posterior are at most ε."""
    w = sympy.exp(EPSILON)
    nonnegative = sympy.Interval(0, sympy.oo)
    if mutant == "first_entry_epsilon":
        return _first_entry_proof(search)
    _, column, variables, total, mass = _prop_1_structure()
    variables[EPSILON] = nonnegative
    hypotheses = (total, *_dp_column(column, w))
    bound, part = {
        "half_epsilon": (sympy.exp(EPSILON / 2), "D∞(posterior || prior) <= ε/2 (mutant)"),
        "three_quarters": (
            sympy.exp(3 * EPSILON / 4), "D∞(posterior || prior) <= 3ε/4 (mutant)"
        ),
    }.get(
        mutant or "",
        (w, "D∞(posterior || prior) <= ε: Pr[M(d, x_{-i}) = y] <= e^ε Pr[M(X_i, x_{-i}) = y] "
         "for every d"),
    )
    proofs = searched_proof_evidence(
        search, part, sympy.Max(*(p - bound * mass for p in column)), 0, variables,
        domain_text=_PROP_1_DOMAIN, assuming=hypotheses, timeout=TIMEOUT,
    )
    if mutant is None:
        proofs.append(
            proof_evidence(
                "D∞(prior || posterior) <= ε: Pr[M(X_i, x_{-i}) = y] <= e^ε Pr[M(d, x_{-i}) = y] "
                "for every d",
                sympy.Max(*(mass - w * p for p in column)), 0, variables,
                domain_text=_PROP_1_DOMAIN, assuming=hypotheses, timeout=TIMEOUT,
            )
        )
    return proofs


def _first_entry_proof(search: CheckContext | None = None) -> list[Evidence]:
    """The mutant first_entry_epsilon: two binary entries, ε-DP only across entry 0, the
    posterior on entry 1 (x_0 = 0)."""
    w = sympy.exp(EPSILON)
    column = {
        (a, b): sympy.Symbol(f"p_{a}{b}", real=True) for a in (0, 1) for b in (0, 1)
    }
    prior, ranges, total = law_symbols("pi", 2)
    variables = {**ranges, **{p: UNIT for p in column.values()},
                 EPSILON: sympy.Interval(0, sympy.oo)}
    entry_0 = [
        sympy.Le(column[(a, b)], w * column[(1 - a, b)]) for a in (0, 1) for b in (0, 1)
    ]
    mass = prior[0] * column[(0, 0)] + prior[1] * column[(0, 1)]
    return searched_proof_evidence(
        search,
        "ε over the neighbours differing in entry 0 bounds D∞(posterior || prior) on entry 1 "
        "(mutant)",
        sympy.Max(*(column[(0, b)] - w * mass for b in (0, 1))), 0, variables,
        domain_text="every mechanism on two binary entries (column p_{x_0 x_1} of y), every "
        "prior on x_1 and every ε >= 0",
        assuming=(total, *entry_0), timeout=TIMEOUT,
    )


def prop_1_strengthenings() -> list[Evidence]:
    w = sympy.exp(EPSILON)
    _, column, variables, total, mass = _prop_1_structure(positive=True)
    variables[EPSILON] = sympy.Interval.open(0, sympy.oo)
    strict = strengthening_evidence(
        "strict", "D∞(posterior || prior) < ε for ε > 0",
        sympy.Max(*(p - w * mass for p in column)), 0, variables,
        domain_text="every prior of full support on D with |D| = 3, every column p_d in "
        "(0, 1] and every ε > 0",
        assuming=(total, *_dp_column(column, w)), strict=True, timeout=TIMEOUT,
    )
    _, column, variables, total, mass = _prop_1_structure()
    variables[EPSILON] = sympy.Interval(0, sympy.oo)
    shrunk = strengthening_evidence(
        "shrunk", "D∞(posterior || prior) <= (9/10)·ε",
        sympy.Max(*(p - sympy.exp(sympy.Rational(9, 10) * EPSILON) * mass for p in column)),
        0, variables, domain_text=_PROP_1_DOMAIN, assuming=(total, *_dp_column(column, w)),
        timeout=TIMEOUT,
    )
    return [strict, shrunk]


_HERE_MASS, _THERE_MASS = (sympy.Symbol(name, real=True) for name in ("p", "p_prime"))
"""p = Pr[M(x) = y], p' = Pr[M(x') = y] for neighbours x = (x_i, x_{-i}), x' = (x'_i, x_{-i})."""

_GAMMA = sympy.Symbol("gamma", real=True)

_PAIR_DOMAIN = (
    "every pair p = Pr[M(x) = y], p' = Pr[M(x') = y] in [0, 1] with p + p' > 0 (neighbours "
    "x, x', either order)"
)


def _posterior_distance(weight: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr]:
    """(posterior of x_i, Δ(prior, posterior)) for the prior (weight, 1 - weight) on
    {x_i, x'_i}, from Bayes' rule and Δ = ½ Σ |prior - posterior|."""
    p, other = _HERE_MASS, _THERE_MASS
    posterior = weight * p / (weight * p + (1 - weight) * other)
    distance = sympy.Rational(1, 2) * (
        sympy.Abs(weight - posterior) + sympy.Abs((1 - weight) - (1 - posterior))
    )
    return posterior, distance


def _prop_2_setting(epsilon: sympy.Interval, weight: sympy.Expr) -> tuple[dict, tuple]:
    _, distance = _posterior_distance(weight)
    variables = {_HERE_MASS: UNIT, _THERE_MASS: UNIT, EPSILON: epsilon}
    hypotheses = (sympy.Gt(_HERE_MASS + _THERE_MASS, 0), sympy.Le(distance, EPSILON))
    return variables, hypotheses


def prop_2_proofs(mutant: str | None) -> list[Evidence]:
    """Prop 2 and the Remark, from the definitions (see the check's docstring)."""
    p, other, e, gamma = _HERE_MASS, _THERE_MASS, EPSILON, _GAMMA
    below_half = sympy.Interval.Ropen(0, sympy.Rational(1, 2))
    uniform = sympy.Rational(1, 2)
    proofs = []
    if mutant in (None, "one_plus_epsilon"):
        variables, hypotheses = _prop_2_setting(below_half, uniform)
        factor = (1 + e, 1 - e) if mutant else (1 + 2 * e, 1 - 2 * e)
        proofs.append(
            proof_evidence(
                "Prop 2 with e^{ε'} <= (1+ε)/(1-ε) (mutant)" if mutant
                else "Prop 2: Δ(prior, posterior) <= ε at the uniform prior on {x_i, x'_i} ⇒ "
                "Pr[M(x) = y] <= (1+2ε)/(1-2ε) · Pr[M(x') = y]",
                p * factor[1], factor[0] * other, variables,
                domain_text=_PAIR_DOMAIN + " and every ε in [0, 1/2)", assuming=hypotheses,
                timeout=TIMEOUT,
            )
        )
    if mutant is None:
        proofs.append(
            proof_evidence(
                "the sharp constant is below Prop 2's: ((1+ε)/(1-ε))² <= (1+2ε)/(1-2ε)",
                ((1 + e) / (1 - e)) ** 2, (1 + 2 * e) / (1 - 2 * e), {e: below_half},
                domain_text="every ε in [0, 1/2)", timeout=TIMEOUT,
            )
        )
    if mutant in (None, "source_ratio"):
        posterior, _ = _posterior_distance(uniform)
        value = 2 * posterior - 1  # Pr[X_i = x_i | y] = (1 + γ)/2
        variables = {p: UNIT, other: UNIT}
        positive = (sympy.Gt(p + other, 0),)
        domain = _PAIR_DOMAIN + ", γ = 2·Pr[X_i = x_i | y] - 1 at the uniform prior"
        if mutant:
            sides = [(other * (1 - value), p * (1 + value),
                      "the proof's ratio Pr[M(x')=y]/Pr[M(x)=y] = (1+γ)/(1-γ) as written "
                      "(mutant)")]
        else:
            sides = [
                (other * (1 + value), p * (1 - value),
                 "the proof's ratio: Pr[M(x')=y]·(1+γ) <= Pr[M(x)=y]·(1-γ)"),
                (p * (1 - value), other * (1 + value),
                 "the proof's ratio: Pr[M(x)=y]·(1-γ) <= Pr[M(x')=y]·(1+γ) (so the ratio is "
                 "(1-γ)/(1+γ), not (1+γ)/(1-γ) as written)"),
            ]
        proofs += [
            proof_evidence(part, lhs, rhs, variables, domain_text=domain, assuming=positive,
                           timeout=TIMEOUT)
            for lhs, rhs, part in sides
        ]
    if mutant is None:
        g = sympy.Symbol("g", real=True)
        posterior, _ = _posterior_distance(uniform)
        proofs.append(
            proof_evidence(
                "Remark: |γ| <= g ⇒ Pr[M(x) = y] <= (1+g)/(1-g) · Pr[M(x') = y]",
                p * (1 - g), (1 + g) * other,
                {p: UNIT, other: UNIT, g: sympy.Interval.Ropen(0, 1)},
                domain_text=_PAIR_DOMAIN + " and every g in [0, 1)",
                assuming=(sympy.Gt(p + other, 0), sympy.Le(sympy.Abs(2 * posterior - 1), g)),
                timeout=TIMEOUT,
            )
        )
    if mutant in (None, "kl_halved"):
        # KL(Bern(1/2) || Bern((1+γ)/2)) from the definition Σ a log(a/b)
        half = sympy.Rational(1, 2)
        divergence = half * sympy.log(half / ((1 + gamma) / 2)) + half * sympy.log(
            half / ((1 - gamma) / 2)
        )
        scale = 1 if mutant else 2
        proofs.append(
            proof_evidence(
                "Remark for KL with g(d) = sqrt(1 - e^{-d}) (mutant)" if mutant
                else "Remark for KL: |γ| <= g(d) = sqrt(1 - e^{-2d}) at d = KL(Bern(1/2) || "
                "Bern((1+γ)/2)) (γ² <= 1 - e^{-2d})",
                gamma**2, 1 - sympy.exp(-scale * divergence),
                {gamma: sympy.Interval.open(-1, 1)}, domain_text="every γ in (-1, 1)",
                timeout=TIMEOUT,
            )
        )
    if mutant is None:
        half = sympy.Rational(1, 2)
        # c = 1 - H² = Σ sqrt(a b), the Bhattacharyya affinity of Bern(1/2) and Bern((1+γ)/2)
        c = sympy.sqrt(half * (1 + gamma) / 2) + sympy.sqrt(half * (1 - gamma) / 2)
        proofs.append(
            proof_evidence(
                "Remark for Hellinger: |γ| <= g(d) = sqrt(1 - (2c² - 1)²), c = 1 - d, at d = "
                "H²(Bern(1/2), Bern((1+γ)/2))",
                sympy.Abs(gamma), sympy.sqrt(1 - (2 * c**2 - 1) ** 2),
                {gamma: sympy.Interval.open(-1, 1)}, domain_text="every γ in (-1, 1)",
                timeout=TIMEOUT,
            )
        )
    return proofs


def prop_2_strengthenings() -> list[Evidence]:
    p, other, e = _HERE_MASS, _THERE_MASS, EPSILON
    below_half = sympy.Interval.Ropen(0, sympy.Rational(1, 2))
    variables, hypotheses = _prop_2_setting(below_half, sympy.Rational(1, 2))
    sharp = ((1 + e) ** 2, (1 - e) ** 2)
    weight = sympy.sqrt(other) / (sympy.sqrt(p) + sympy.sqrt(other))
    every_variables, every_hypotheses = _prop_2_setting(sympy.Interval.Ropen(0, 1), weight)
    strict_variables, _ = _prop_2_setting(
        sympy.Interval.open(0, sympy.Rational(1, 2)), sympy.Rational(1, 2)
    )
    return [
        strengthening_evidence(
            "sharp_constant_uniform_prior",
            "Δ <= ε at the uniform prior ⇒ e^{ε'} <= ((1+ε)/(1-ε))²",
            p * sharp[1], sharp[0] * other, variables,
            domain_text=_PAIR_DOMAIN + " and every ε in [0, 1/2)", assuming=hypotheses,
            timeout=TIMEOUT,
        ),
        strengthening_evidence(
            "sharp_constant_every_prior",
            "Δ <= ε at the prior (√p', √p)/(√p + √p') ⇒ e^{ε'} <= ((1+ε)/(1-ε))²",
            p * sharp[1], sharp[0] * other, every_variables,
            domain_text=_PAIR_DOMAIN + " and every ε in [0, 1)", assuming=every_hypotheses,
            timeout=TIMEOUT,
        ),
        strengthening_evidence(
            "strict", "Δ <= ε at the uniform prior ⇒ e^{ε'} < (1+2ε)/(1-2ε) for ε > 0",
            p * (1 - 2 * e), (1 + 2 * e) * other, strict_variables,
            domain_text=_PAIR_DOMAIN + " and every ε in (0, 1/2)", assuming=hypotheses,
            strict=True, timeout=TIMEOUT,
        ),
    ]
