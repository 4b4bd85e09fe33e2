"""``bldp.definition``: the definition of (ε, δ)-BLDP evaluated exactly.

Ligett, Peale, Reingold, *Bounded-Leakage Differential Privacy*, the definition (restated in
``CLAIMS.md``, section ``bldp.``): exactpml's smallest ε (δ = 0) and δ(ε) of finite models
against :mod:`proofs_check.reference.bldp` (over every set S on small output alphabets) and
against values derived by hand; with a constant leakage BLDP is ordinary (ε, δ)-DP.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import partial
from typing import Any

from hypothesis import strategies as st

from exactpml import Distribution, LogValue
from exactpml.bldp import (
    BoundedLeakageModel,
    bldp_delta,
    bldp_epsilon,
    dp_delta,
    dp_epsilon,
    identity_leakage,
    is_bldp,
)
from proofs_check import CheckContext, Evidence, check, exact_instances, property_holds
from proofs_check.claims.bldp._common import DELTAS, MODELS, RATIOS, explain
from proofs_check.reference.bldp import (
    conditionals,
    constraint_delta,
    dp_conditionals,
    model_delta,
    model_epsilon,
    neighbour_pairs,
)
from proofs_check.small_scope import Layer, SmallScope

__all__ = ["definition"]


def _flip_model(leak: Any) -> BoundedLeakageModel:
    """R uniform on 0..5, M(x, r) = x XOR [r ∈ {0, 3}] on one bit, leakage ``leak(r)``."""
    uniform = Distribution({r: Fraction(1, 6) for r in range(6)})
    return BoundedLeakageModel(
        uniform,
        lambda x, r: x[0] ^ int(r in (0, 3)),
        lambda x, r: leak(r),
        databases=[(0,), (1,)],
    )


def _definition_instances(mutant: str | None = None) -> list[tuple[str, object, object]]:
    """Hand-derived values (one bit x, neighbours (0,) ~ (1,)).

    * half-leak: R uniform on 0..5, M = x XOR [r ∈ {0,3}], P = [r ≥ 3].  Given either leakage
      value M keeps x w.p. 2/3: laws (2/3, 1/3) vs (1/3, 2/3), so ε = log 2, δ(ε=0) = 1/3,
      δ(e^ε = 3/2) = 2/3 - (3/2)(1/3) = 1/6; as DP (leakage ignored) the same numbers.
    * flip-revealing: same M, P = [r = 0].  Given P = 1, M = 1 - x: ε = oo and δ = 1 at every
      ε; given P = 0 it flips w.p. 1/5 (ratio 4).  As DP: ε = log 2, δ(e^ε = 3/2) = 1/6.
    * one-time pad (R a fair bit, M = x XOR r, P = r): ε = oo; as DP ε = 0 (M is uniform).
    * identity leakage (M = P = x): no neighbouring pair shares a leakage value: vacuously
      (0, 0)-BLDP.
    """
    half = _flip_model(lambda r: int(r >= 3))
    reveal = _flip_model(lambda r: int(r == 0))
    bit = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})
    pad = BoundedLeakageModel(bit, lambda x, r: x[0] ^ r, lambda x, r: r, databases=[(0,), (1,)])
    vacuous = identity_leakage()
    ratio = LogValue(Fraction(3, 2))
    return [
        ("half-leak: ε", bldp_epsilon(half).epsilon, LogValue(2)),
        ("half-leak: δ(ε = 0)", bldp_delta(half, LogValue(1)).delta, Fraction(1, 3)),
        ("half-leak: δ(e^ε = 3/2)", bldp_delta(half, ratio).delta, Fraction(1, 6)),
        ("half-leak: DP ε", dp_epsilon(half).epsilon, LogValue(2)),
        (
            "flip-revealing: ε",
            bldp_epsilon(reveal).epsilon,
            LogValue(4) if mutant == "flip_revealing_log_4" else LogValue.infinity(),
        ),
        ("flip-revealing: δ(e^ε = 3/2)", bldp_delta(reveal, ratio).delta, Fraction(1)),
        ("flip-revealing: DP δ(e^ε = 3/2)", dp_delta(reveal, ratio).delta, Fraction(1, 6)),
        ("one-time pad: ε", bldp_epsilon(pad).epsilon, LogValue.infinity()),
        ("one-time pad: DP ε", dp_epsilon(pad).epsilon, LogValue(1)),
        ("identity leakage: ε", bldp_epsilon(vacuous).epsilon, LogValue(1)),
        ("identity leakage: δ(ε = 0)", bldp_delta(vacuous, LogValue(1)).delta, Fraction(0)),
    ]


@check(
    "bldp.definition",
    mutants={
        "ignore_leakage": "the BLDP parameters are the DP parameters whatever the leakage (the "
        "constant-leakage hypothesis dropped)",
        "flip_revealing_log_4": "the flip-revealing model has ε = log 4 (the ratio given P = 0; "
        "the leakage value that reveals the flip forgotten)",
        "unconditioned_other_side": "the definition conditions only x's side: Pr[M(x) ∈ S | "
        "P(x) = o] ≤ e^ε Pr[M(x′) ∈ S] + δ",
    },
)
def definition(ctx: CheckContext) -> list[Evidence]:
    """bldp.definition — the poster's definition of (ε,δ)-BLDP.

    Statement: exactpml's smallest ε (δ = 0) and δ(ε) of finite models are exact; with a
    constant leakage BLDP is ordinary (ε,δ)-DP.

    E: four one-bit models with values derived by hand (see
    :func:`_definition_instances`): a leakage that keeps ε = log 2, one that reveals the
    flip (ε = oo, δ = 1), the one-time pad, and a vacuous identity leakage.
    P: on random models (databases of 1 or 2 records, |R| ≤ 4, arbitrary tables of M and
    P, leakage sometimes constant or a function of x) and e^ε: exactpml's δ(ε) and ε equal
    the definition evaluated over every set S on the raw tables; its witness (x, x', o, S)
    attains δ; ``is_bldp`` agrees with the definition at a random δ; and with the leakage
    made constant the values are the (ε,δ)-DP values of M alone (``dp_delta``,
    ``dp_epsilon``, and the definition of DP over sets).
    P: on the family of the flip models of E (R uniform on 0..m-1, M = x XOR [r ∈ F],
    P = [r ∈ L]): every F and L for m = 2, 3, then random m ≤ 6, F, L: exactpml's ε equals
    the definition's over every set and the value derived by hand for each leakage value.
    """

    def holds(instance: tuple[BoundedLeakageModel, Fraction, Fraction]) -> bool:
        model, ratio, delta = instance
        epsilon = LogValue(ratio)
        pairs = neighbour_pairs(model)
        laws = conditionals(model)
        expected = model_delta(laws, pairs, ratio, sets=True)
        if ctx.mutant == "unconditioned_other_side":
            plain_laws = dp_conditionals(model)
            expected = max(
                (
                    constraint_delta(law, plain_laws[y][None], ratio, sets=True)
                    for x, y in pairs
                    for law in laws[x].values()
                ),
                default=Fraction(0),
            )
        result = bldp_delta(model, epsilon)
        if result.delta != expected or bldp_epsilon(model).epsilon != model_epsilon(
            laws, pairs, sets=True
        ):
            return False
        if result.witness is not None:
            (x, y), o, event = (
                result.witness.databases,
                result.witness.leakage,
                result.witness.event,
            )
            p, q = laws[x][o], laws[y][o]
            attained = sum((p.get(m, 0) - ratio * q.get(m, 0) for m in event or ()), Fraction(0))
            if attained != expected:
                return False
        if is_bldp(model, epsilon, delta) != (expected <= delta):
            return False
        plain = dp_conditionals(model)
        dp = model_delta(plain, pairs, ratio, sets=True)
        constant = model.without_leakage()
        if ctx.mutant == "ignore_leakage":
            return bool(bldp_delta(model, epsilon).delta == dp)
        return bldp_delta(constant, epsilon).delta == dp_delta(
            model, epsilon
        ).delta == dp and dp_epsilon(model).epsilon == model_epsilon(plain, pairs, sets=True)

    return [
        exact_instances(
            _definition_instances(ctx.mutant), origin="derived by hand (the poster has no numbers)"
        ),
        property_holds(
            ctx,
            st.tuples(MODELS, RATIOS, DELTAS),
            holds,
            describe="exactpml's ε and δ(ε) = the definition over all sets; constant leakage = DP",
            explain=explain,
        ),
        property_holds(
            ctx,
            st.integers(2, 6).flatmap(
                lambda size: st.tuples(st.just(size), _subsets(size), _subsets(size))
            ),
            lambda instance: not _flip_failures(*instance, ctx.mutant),
            describe="flip models (R uniform on 0..m-1, M = x XOR [r ∈ F], P = [r ∈ L]): "
            "exactpml's ε = the definition's = max_o log max(q_o/(1 - q_o), (1 - q_o)/q_o), "
            "q_o = |F ∩ L_o|/|L_o| (by hand)",
            explain=lambda instance: "; ".join(_flip_failures(*instance, ctx.mutant)),
            examples=ctx.fewer_examples(40, at_least=3, at_most=20),
            small_scope=FLIP_SCOPE,
        ),
    ]


def _subsets(size: int) -> st.SearchStrategy[tuple[int, ...]]:
    return st.sets(st.integers(0, size - 1)).map(lambda chosen: tuple(sorted(chosen)))


def _all_subsets(size: int) -> list[tuple[int, ...]]:
    return [
        chosen for count in range(size + 1) for chosen in itertools.combinations(range(size), count)
    ]


FLIP_SCOPE = SmallScope(
    "flip models: R uniform on 0..m-1 for m = 2, 3, every flip set F and leakage set L",
    [
        Layer(
            f"m = {size}",
            4**size,
            partial(
                lambda size: [
                    (size, flips, leaks)
                    for flips in _all_subsets(size)
                    for leaks in _all_subsets(size)
                ],
                size,
            ),
        )
        for size in (2, 3)
    ],
)
"""The family of the hand-derived one-bit models (``_flip_model``): its smallest members."""


def _flip_ratio(flips: set[int], part: list[int]) -> Fraction | None:
    """The likelihood ratio of M given a leakage value whose randomness is ``part``: M flips
    x w.p. q = |F ∩ part|/|part|, so the laws are (1 - q, q) and (q, 1 - q); None for +∞."""
    q = Fraction(len(flips.intersection(part)), len(part))
    if q in (0, 1):
        return None
    return max(q / (1 - q), (1 - q) / q)


def _flip_failures(
    size: int, flips: tuple[int, ...], leaks: tuple[int, ...], mutant: str | None
) -> list[str]:
    """One flip model: exactpml's smallest ε, the definition's over every set S (raw
    tables), and the hand value (under ``flip_revealing_log_4`` the leakage value P = 1,
    the one that may reveal the flip, is forgotten)."""
    model = BoundedLeakageModel(
        Distribution({r: Fraction(1, size) for r in range(size)}),
        lambda x, r: x[0] ^ int(r in flips),
        lambda x, r: int(r in leaks),
        databases=[(0,), (1,)],
    )
    parts = {
        value: [r for r in range(size) if int(r in leaks) == value]
        for value in ((0,) if mutant == "flip_revealing_log_4" else (0, 1))
    }
    ratios = [_flip_ratio(set(flips), part) for part in parts.values() if part]
    hand = (
        LogValue.infinity()
        if None in ratios
        else LogValue(max((r for r in ratios if r is not None), default=Fraction(1)))
    )
    mine = bldp_epsilon(model).epsilon
    definition = model_epsilon(conditionals(model), neighbour_pairs(model), sets=True)
    if mine == definition == hand:
        return []
    return [
        f"m = {size}, F = {set(flips) or '{}'}, L = {set(leaks) or '{}'}: ε exactpml {mine}, "
        f"definition {definition}, by hand {hand}"
    ]
