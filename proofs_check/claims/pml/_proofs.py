"""Proofs for the ``pml.*`` checks: finite structures written from the source's definitions.

Saeidian et al.'s quantities are written here as sympy expressions in the entries of *every
real* prior, kernel P_{Y|X} and attribute kernel P_{U|X} of a fixed small size
(:mod:`proofs_check.prover.structures`), never from exactpml's output:

* p_Y(y) = Σ_x p_X(x) p(y|x), and Bayes' rule P_{X|Y=y}(x) = p_X(x) p(y|x) / p_Y(y);
* exp l(X->y) = max_{x ∈ supp P_X} p(y|x) / p_Y(y) (Def 2.2 in the closed form of Thm 2.4);
* the law of an attribute U - X - Y: P_U(u) = Σ_x p_X(x) p(u|x) and
  P_{U|Y=y}(u) = Σ_x p(u|x) p_X(x) p(y|x) / p_Y(y), with
  exp l(U->y) = max_u P_{U|Y=y}(u) / P_U(u) (D_inf(P_{U|Y=y} ‖ P_U), Thm 2.4 for U);
* H_inf(P) = -log max P (Def 2.1).

A statement at one output y involves only the column of y: proved at y = 0 over every
kernel with 2 outputs, it holds at every output of every kernel with the same inputs (every
column in [0, 1]^|X| occurs there), and the domain texts say so.

A claim is PROVED on a named part through :class:`ProofPart` and :func:`proof_parts`: the
part in the claim's words and the domain in words (every size, prior and kernel it covers).
Under a mutant a check builds only the parts that the mutant changes (:func:`changes`), each
with the mutated statement, so that the prover must *refute* each of them (never prove one);
strengthenings (:class:`Strengthening`) run only in the un-mutated run.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sympy

from proofs_check import CheckContext, Evidence, strengthening_evidence
from proofs_check.evidence import searched_proof_evidence
from proofs_check.prover import every_channel, every_prior, structure_domain

__all__ = [
    "PROOF_TIMEOUT",
    "Finite",
    "ProofPart",
    "Strengthening",
    "attribute_law",
    "attribute_pml_ratio",
    "attribute_posterior",
    "changes",
    "finite",
    "output_mass",
    "pml_ratio",
    "posterior",
    "proof_parts",
    "strengthenings",
]

PROOF_TIMEOUT = 5
"""Seconds for one proof or strengthening (most take 0.05-0.3 s; an ``unknown`` at the
deadline is never a proof)."""

Row = tuple[sympy.Symbol, ...]


@dataclass(frozen=True)
class Finite:
    """Every prior (``p_x``), kernel P_{Y|X} (``W_xy``), and optionally attribute kernel
    P_{U|X} (``U_xu``) and second prior (``q_x``) of the given sizes.

    Attributes:
        prior: p_X as symbols ``p_0, p_1, ...``.
        channel: P_{Y|X} as rows ``(W_x0, W_x1, ...)``.
        attribute: P_{U|X} as rows ``(U_x0, ...)`` (empty when not asked for).
        adversary: a second prior Q_X, ``q_0, q_1, ...`` (empty when not asked for).
        variables: Every entry's interval ([0, 1]; (0, 1] for a full-support prior).
        assuming: Every row summing to 1.
    """

    prior: Row
    channel: tuple[Row, ...]
    attribute: tuple[Row, ...]
    adversary: Row
    variables: dict[sympy.Symbol, sympy.Set]
    assuming: tuple[sympy.Basic, ...]

    def with_hypotheses(self, *relations: sympy.Basic) -> tuple[sympy.Basic, ...]:
        """The rows' hypotheses and ``relations``."""
        return (*self.assuming, *relations)

    def pinned(self, values: Mapping[sympy.Symbol, object]) -> dict[sympy.Symbol, sympy.Set]:
        """The variables with some entries pinned (``{W_00: 0}``)."""
        variables = dict(self.variables)
        for symbol, value in values.items():
            variables[symbol] = sympy.FiniteSet(value)
        return variables


def finite(
    inputs: int,
    outputs: int,
    *,
    attribute_values: int = 0,
    adversary: bool = False,
    full_support: bool = True,
    prior_name: str = "p",
) -> Finite:
    """Every prior on ``inputs`` letters (full support unless told otherwise; its entries
    named ``prior_name``), every kernel ``inputs`` x ``outputs``, and (when asked) every
    attribute kernel with ``attribute_values`` values and every full-support second prior
    Q_X."""
    structures = [every_prior(inputs, name=prior_name),
                  every_channel(inputs, outputs, name="W")]
    if attribute_values:
        structures.append(every_channel(inputs, attribute_values, name="U"))
    if adversary:
        structures.append(every_prior(inputs, name="q"))
    variables, assuming = structure_domain(*structures)
    prior = structures[0].rows[0]
    second = structures[-1].rows[0] if adversary else ()
    for symbol in (*(prior if full_support else ()), *second):
        variables[symbol] = sympy.Interval.Lopen(0, 1)
    return Finite(
        prior=prior,
        channel=structures[1].rows,
        attribute=structures[2].rows if attribute_values else (),
        adversary=second,
        variables=variables,
        assuming=assuming,
    )


def output_mass(prior: Sequence[Any], channel: Sequence[Sequence[Any]], y: int) -> sympy.Expr:
    """p_Y(y) = Σ_x p_X(x) p(y|x)."""
    return sympy.Add(*(prior[x] * channel[x][y] for x in range(len(prior))))


def pml_ratio(
    prior: Sequence[Any],
    channel: Sequence[Sequence[Any]],
    y: int,
    *,
    support: Iterable[int] | None = None,
) -> sympy.Expr:
    """exp l(X->y) = max_{x ∈ supp P_X} p(y|x) / p_Y(y) (Thm 2.4); ``support`` lists the
    inputs of positive prior mass (default: every input)."""
    inputs = range(len(prior)) if support is None else support
    return sympy.Max(*(channel[x][y] for x in inputs)) / output_mass(prior, channel, y)


def posterior(prior: Sequence[Any], channel: Sequence[Sequence[Any]], y: int) -> list[sympy.Expr]:
    """P_{X|Y=y}(x) = p_X(x) p(y|x) / p_Y(y) (Bayes' rule)."""
    mass = output_mass(prior, channel, y)
    return [prior[x] * channel[x][y] / mass for x in range(len(prior))]


def attribute_law(prior: Sequence[Any], attribute: Sequence[Sequence[Any]]) -> list[sympy.Expr]:
    """P_U(u) = Σ_x p_X(x) p(u|x)."""
    return [
        sympy.Add(*(prior[x] * attribute[x][u] for x in range(len(prior))))
        for u in range(len(attribute[0]))
    ]


def attribute_posterior(
    prior: Sequence[Any],
    channel: Sequence[Sequence[Any]],
    attribute: Sequence[Sequence[Any]],
    y: int,
) -> list[sympy.Expr]:
    """P_{U|Y=y}(u) = Σ_x p(u|x) p_X(x) p(y|x) / p_Y(y) (the Markov chain U - X - Y)."""
    mass = output_mass(prior, channel, y)
    return [
        sympy.Add(*(attribute[x][u] * prior[x] * channel[x][y] for x in range(len(prior)))) / mass
        for u in range(len(attribute[0]))
    ]


def attribute_pml_ratio(
    prior: Sequence[Any],
    channel: Sequence[Sequence[Any]],
    attribute: Sequence[Sequence[Any]],
    y: int,
) -> sympy.Expr:
    """exp l(U->y) = max_u P_{U|Y=y}(u) / P_U(u) (D_inf(P_{U|Y=y} ‖ P_U); every value of U
    must have positive mass)."""
    after = attribute_posterior(prior, channel, attribute, y)
    before = attribute_law(prior, attribute)
    return sympy.Max(*(a / b for a, b in zip(after, before, strict=True)))


@dataclass(frozen=True)
class ProofPart:
    """A named part of a claim, as the prover's statement ``lhs <= rhs`` (``<`` if strict).

    Attributes:
        part: The part in the claim's words.
        domain: The domain in words: every size, prior, kernel and value it covers.
        lhs: Left side (sympy, written from the definitions).
        rhs: Right side.
        variables: ``{symbol: interval}`` for every free symbol.
        assuming: Hypotheses restricting the domain.
        strict: Prove ``lhs < rhs``.
        integers: Symbols ranging over the integers of their interval.
        timeout: Seconds for the prover (a larger domain at --thorough may take longer).
    """

    part: str
    domain: str
    lhs: Any
    rhs: Any
    variables: Mapping[sympy.Symbol, sympy.Set]
    assuming: tuple[sympy.Basic, ...] = ()
    strict: bool = False
    integers: tuple[sympy.Symbol, ...] = ()
    timeout: float = PROOF_TIMEOUT


def changes(ctx: CheckContext, *mutants: str) -> bool:
    """Whether a part changed by ``mutants`` is built: always un-mutated, and under a mutant
    only when it is one of them (the other parts are the un-mutated ones, already proved)."""
    return ctx.mutant is None or ctx.mutant in mutants


def proof_parts(parts: Iterable[ProofPart], *, search: CheckContext | None = None
                ) -> list[Evidence]:
    """Run each part through the prover and, with ``search`` (the check's context), search
    its statement at exact points of its domain where the proof did not prove it
    (:func:`proofs_check.evidence.searched_proof_evidence`)."""
    evidence: list[Evidence] = []
    for part in parts:
        evidence += searched_proof_evidence(
            search,
            part.part,
            part.lhs,
            part.rhs,
            part.variables,
            domain_text=part.domain,
            assuming=part.assuming,
            strict=part.strict,
            integers=part.integers,
            timeout=part.timeout,
        )
    return evidence


@dataclass(frozen=True)
class Strengthening:
    """A declared strengthening (``@check(strengthenings=...)``) as the prover's statement."""

    name: str
    statement: str
    domain: str
    lhs: Any
    rhs: Any
    variables: Mapping[sympy.Symbol, sympy.Set]
    assuming: tuple[sympy.Basic, ...] = ()
    strict: bool = False
    integers: tuple[sympy.Symbol, ...] = ()


def strengthenings(items: Iterable[Strengthening]) -> list[Evidence]:
    """Run each strengthening (:func:`proofs_check.strengthening_evidence`); checks call it
    in the un-mutated run only."""
    return [
        strengthening_evidence(
            item.name,
            item.statement,
            item.lhs,
            item.rhs,
            item.variables,
            domain_text=item.domain,
            assuming=item.assuming,
            strict=item.strict,
            integers=item.integers,
            timeout=PROOF_TIMEOUT,
        )
        for item in items
    ]
