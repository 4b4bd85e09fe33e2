"""``pk.prop_8`` and ``pk.full_knowledge``: partial knowledge against classical (ε, δ)-DP.

Thesis *Lowering the cost of anonymization*, §3.1.3: Proposition 8 (the PLRV form of δ equals
the set form max_S P(S) - e^ε Q(S), and decides (ε, δ)-DP) and the text after Definition 57
(an attacker who knows every other record: APKDP is (ε, δ)-DP).  The library under test is
:mod:`exactpml.partial_knowledge` and :mod:`exactpml.leakage.hockey_stick`; the reference
values come from :mod:`proofs_check.reference`.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from fractions import Fraction
from math import prod
from typing import Any

import sympy
from hypothesis import strategies as st

from exactpml import Distribution, LogValue, Mechanism
from exactpml import strategies as xst
from exactpml.leakage.hockey_stick import hockey_stick
from exactpml.partial_knowledge import (
    PartialKnowledge,
    apkdp_delta,
    knowledge_laws,
    partial_knowledge_plrv,
)
from proofs_check import CheckContext, Evidence, check, proof_evidence, property_holds
from proofs_check.claims.partial_knowledge._common import (
    DELTAS,
    RATIOS,
    neighbouring,
    pinned,
    row_of,
)
from proofs_check.claims.partial_knowledge._proofs import (
    EPSILON,
    TIMEOUT,
    epsilon_factor,
    law_symbols,
    plrv_form,
    set_form,
)
from proofs_check.reference import hockey_stick_by_plrv, hockey_stick_by_sets

__all__ = ["full_knowledge", "prop_8"]


_WIDTHS = st.lists(st.integers(2, 3), min_size=1, max_size=3).filter(lambda w: prod(w) <= 12)
"""Record alphabets' sizes (1 to 3 records, at most 12 databases): one strategy object, built
once rather than on every draw (Hypothesis validates each new one; the draws are the same)."""


@st.composite
def _dp_instances(draw: st.DrawFn) -> tuple[Mechanism, Fraction, Fraction]:
    widths = draw(_WIDTHS)
    databases = list(itertools.product(*(range(w) for w in widths)))
    outputs = list(range(draw(st.integers(1, 4))))
    mechanism = draw(xst.mechanisms(inputs=databases, outputs=outputs))
    return mechanism, draw(RATIOS), draw(DELTAS)


@check(
    "pk.prop_8",
    mutants={
        "no_positive_part": "the PLRV form without max(0, ·): E[1 - e^{ε - L(O)}]",
        "singletons": "the set form maximised over single outputs only",
        "halved_l1": "the PLRV form equals ½ Σ_o |p_o - e^ε q_o| (total variation's ½ carried "
        "over to e^ε ≥ 1)",
    },
)
def prop_8(ctx: CheckContext) -> list[Evidence]:
    """pk.prop_8 — thesis Proposition 8 (as used in §3.1.3).

    Statement: M is (ε,δ)-DP iff E_{O~M(D1)}[max(0, 1 - e^{ε-L(O)})] ≤ δ for all neighbours
    D1, D2, and that expectation equals the set form max_S P[M(D1) ∈ S] - e^ε P[M(D2) ∈ S].

    P: on random exact kernels over databases of 1 to 3 records (alphabets of 2 or 3 values,
    at most 12 databases, Hamming neighbours, 1 to 4 outputs, zeros allowed) and e^ε rational
    in [1, 4]: for every
    ordered neighbour pair the PLRV form (evaluated term by term, L = +oo counting 1), the set
    form (maximum over every subset of outputs) and exactpml's hockey-stick divergence agree
    exactly, and "DP at (ε, δ) by sets" ⇔ "max PLRV form ≤ δ" at a random δ.

    C (proved, z3; :func:`_prop_8_proofs`): for every pair of output laws P = M(D1),
    Q = M(D2) on three outputs, P of full support (where the PLRV is defined), and every
    ε ≥ 0: the PLRV form ≤ the set form and the set form ≤ the PLRV form, so they are equal;
    (ε,δ)-DP is "the set form ≤ δ for all neighbours" by definition, hence the equivalence.
    """
    proofs = _prop_8_proofs(ctx.mutant)
    plain = ctx.mutant != "no_positive_part"
    largest = 1 if ctx.mutant == "singletons" else None

    def form(p: dict[Hashable, Fraction], q: dict[Hashable, Fraction], r: Fraction) -> Fraction:
        if ctx.mutant == "halved_l1":
            outputs = set(p) | set(q)
            return (
                sum(
                    (abs(p.get(o, Fraction(0)) - r * q.get(o, Fraction(0))) for o in outputs),
                    Fraction(0),
                )
                / 2
            )
        if plain:
            return hockey_stick_by_plrv(p, q, r)
        return sum(
            (p_o * (1 if q.get(o, 0) == 0 else 1 - r * q[o] / p_o) for o, p_o in p.items() if p_o),
            Fraction(0),
        )

    def holds(instance: tuple[Mechanism, Fraction, Fraction]) -> bool:
        mechanism, ratio, delta = instance
        worst = Fraction(0)
        by_sets = True
        for x, y in neighbouring(mechanism.inputs):
            p, q = row_of(mechanism, x), row_of(mechanism, y)
            outputs = list(mechanism.outputs)
            library = hockey_stick(
                [p.get(o, Fraction(0)) for o in outputs],
                [q.get(o, Fraction(0)) for o in outputs],
                ratio,
            )[0]
            value, by_events = form(p, q, ratio), hockey_stick_by_sets(p, q, ratio, largest=largest)
            if not value == by_events == library:
                return False
            worst = max(worst, value)
            by_sets = by_sets and by_events <= delta
        return by_sets == (worst <= delta)

    def explain(instance: tuple[Mechanism, Fraction, Fraction]) -> str:
        mechanism, ratio, delta = instance
        for x, y in neighbouring(mechanism.inputs):
            p, q = row_of(mechanism, x), row_of(mechanism, y)
            a, b = form(p, q, ratio), hockey_stick_by_sets(p, q, ratio, largest=largest)
            if a != b:
                return f"D1 = {x}, D2 = {y}, e^ε = {ratio}: PLRV form {a}, set form {b}"
        return f"e^ε = {ratio}, δ = {delta}"

    return [
        property_holds(
            ctx,
            _dp_instances(),
            holds,
            describe="PLRV form = set form = hockey-stick for all neighbours; DP ⇔ PLRV form ≤ δ",
            explain=explain,
        ),
        *proofs,
    ]


_OUTPUTS = 3
"""Outputs in the Prop 8 proofs (the singletons mutant needs three)."""


def _prop_8_proofs(mutant: str | None) -> list[Evidence]:
    """The PLRV form equals the set form: two inequalities (a mutant changes one side)."""
    first, first_ranges, first_sum = law_symbols("P", _OUTPUTS, full_support=True)
    second, second_ranges, second_sum = law_symbols("Q", _OUTPUTS)
    variables = {**first_ranges, **second_ranges, EPSILON: sympy.Interval(0, sympy.oo)}
    w = epsilon_factor()
    plrv, sets = plrv_form(first, second, w), set_form(first, second, w)
    domain = (
        "every pair of output laws P = M(D1), Q = M(D2) of neighbours on 3 outputs, P of full "
        "support (L(O) = ln(P(O)/Q(O)) on P's support, +∞ where Q(O) = 0), and every ε ≥ 0"
    )
    sides = {
        None: [
            (plrv, sets, "E_{O~M(D1)}[max(0, 1 - e^{ε - L(O)})] ≤ max_S P(S) - e^ε Q(S)"),
            (sets, plrv, "max_S P(S) - e^ε Q(S) ≤ E_{O~M(D1)}[max(0, 1 - e^{ε - L(O)})]"),
        ],
        "no_positive_part": [
            (sets, sympy.Add(*(p * (1 - w * q / p) for p, q in zip(first, second, strict=True))),
             "max_S P(S) - e^ε Q(S) ≤ E[1 - e^{ε - L(O)}] (mutant)"),
        ],
        "singletons": [
            (plrv, set_form(first, second, w, largest=1),
             "the PLRV form ≤ max over single outputs of P(o) - e^ε Q(o) (mutant)"),
        ],
        "halved_l1": [
            (sympy.Rational(1, 2) * sympy.Add(
                *(sympy.Abs(p - w * q) for p, q in zip(first, second, strict=True))
            ), plrv, "½ Σ_o |P(o) - e^ε Q(o)| ≤ the PLRV form (mutant)"),
        ],
    }[mutant]
    return [
        proof_evidence(part, lhs, rhs, variables, domain_text=domain,
                       assuming=(first_sum, second_sum), timeout=TIMEOUT)
        for lhs, rhs, part in sides
    ]


@st.composite
def _full_knowledge_instances(draw: st.DrawFn, *, zeros: bool) -> tuple[Any, ...]:
    widths = draw(_WIDTHS)
    records = [
        draw(xst.distributions(outcomes=list(range(w)), full_support=not zeros)) for w in widths
    ]
    databases = list(itertools.product(*(range(w) for w in widths)))
    mechanism = draw(xst.mechanisms(inputs=databases, outputs=list(range(draw(st.integers(1, 3))))))
    return tuple(records), mechanism, draw(RATIOS), draw(DELTAS)


@check(
    "pk.full_knowledge",
    mutants={
        "zero_probability_records": "the same with records that may take values of probability "
        "0 (the hypothesis 'each d_{-i} possible' dropped)",
        "all_but_one": "the attacker knows every other record but one",
        "distance_two": "under full knowledge APKDP coincides with (ε, δ)-DP over databases at "
        "Hamming distance ≤ 2 (the neighbour relation's 1 taken as 2)",
    },
)
def full_knowledge(ctx: CheckContext) -> list[Evidence]:
    """pk.full_knowledge — thesis, text after Definition 57 (full knowledge).

    Statement: when the attacker knows every other record (B = D_{-i}, each d_{-i} possible),
    the PLRV with partial knowledge is the classical PLRV and APKDP coincides with (ε,δ)-DP.

    P: on random full-support record laws (1 to 3 records, alphabets of 2 or 3 values) and
    random exact kernels on every database: for every target i, t ≠ t' and b = d_{-i},
    exactpml's L(o, b) equals ln P[M(d_{i←t}) = o] / P[M(d_{i←t'}) = o] for every output o
    possible under one of them; the largest APKDP δ over all (i, t, t') equals the (ε,δ)-DP δ
    computed by the set form over all Hamming neighbours, and APKDP ⇔ DP at a random δ.
    """
    zeros = ctx.mutant == "zero_probability_records"

    def holds(instance: tuple[Any, ...]) -> bool:
        records, mechanism, ratio, delta = instance
        epsilon = LogValue(ratio)
        n = len(records)
        dp = Fraction(0)
        pairs = neighbouring(mechanism.inputs)
        if ctx.mutant == "distance_two":
            pairs = [
                (x, y)
                for x in mechanism.inputs
                for y in mechanism.inputs
                if 1 <= sum(a != b for a, b in zip(x, y, strict=True)) <= 2
            ]
        for x, y in pairs:
            dp = max(dp, hockey_stick_by_sets(row_of(mechanism, x), row_of(mechanism, y), ratio))
        active = Fraction(0)
        for i in range(n):
            for t, t2 in itertools.permutations(records[i].support, 2):
                others = [j for j in range(n) if j != i]
                if ctx.mutant == "all_but_one" and others:
                    others = others[1:]
                setting = PartialKnowledge(records, target=i, value=t, alternative=t2, known=others)
                laws = knowledge_laws(setting, mechanism)
                for b in laws.knowledge_values:
                    if ctx.mutant is None and not _classical_plrv(setting, laws, mechanism, b):
                        return False
                active = max(active, Fraction(apkdp_delta(setting, laws, epsilon).delta))
        return active == dp and (active <= delta) == (dp <= delta)

    def explain(instance: tuple[Any, ...]) -> str:
        records, mechanism, ratio, delta = instance
        laws = "; ".join(f"D({j}) ~ {r!r}" for j, r in enumerate(records))
        return f"{laws}; M = {mechanism!r}; e^ε = {ratio}, δ = {delta}"

    regime = pinned(
        _full_knowledge_pinned(),
        holds,
        describe="B = D_{-i}: max APKDP δ = DP δ (two fair bits, a release whose δ grows "
        "with the Hamming distance)",
        explain=explain,
    )
    if regime.passed is False and not ctx.search_only:  # a search-alone run needs the search
        return [regime]  # the random instances would only repeat it, more slowly
    return [
        regime,
        property_holds(
            ctx,
            _full_knowledge_instances(zeros=zeros),
            holds,
            describe="B = D_{-i}: L(o, b) is the classical PLRV; max APKDP δ = DP δ",
            explain=explain,
            examples=ctx.fewer_examples(2),
        ),
    ]


def _full_knowledge_pinned() -> list[tuple[str, tuple[Any, ...]]]:
    """Two fair bits; M(d) = "a" w.p. (d0 + d1)/2, else "b": neighbours differ by 1/2 in
    total variation, databases at distance 2 by 1."""
    bit = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})
    rows = {
        (x, y): {"a": Fraction(x + y, 2), "b": 1 - Fraction(x + y, 2)}
        for x in (0, 1)
        for y in (0, 1)
    }
    mechanism = Mechanism(rows)
    return [
        (f"two fair bits, M = 'a' w.p. Σd/2, e^ε = {r}, δ = {d}", ((bit, bit), mechanism, r, d))
        for r, d in ((Fraction(1), Fraction(1, 2)), (Fraction(3, 2), Fraction(1, 4)))
    ]


def _classical_plrv(
    setting: PartialKnowledge, laws: Any, mechanism: Mechanism, b: Hashable
) -> bool:
    assert setting.known is not None
    i = setting.target

    def database(x: Hashable) -> tuple[Hashable, ...]:
        values = dict(zip(setting.known or (), b, strict=True))  # type: ignore[call-overload]
        values[i] = x
        return tuple(values[j] for j in range(setting.size))

    p = row_of(mechanism, database(setting.value))
    q = row_of(mechanism, database(setting.alternative))
    for o in set(p) | set(q):
        if not p.get(o) and not q.get(o):
            continue
        library = partial_knowledge_plrv(setting, laws, o, b)
        classical = LogValue.infinity() if not q.get(o) else LogValue(p.get(o, Fraction(0)) / q[o])
        if library != classical:
            return False
    return True
