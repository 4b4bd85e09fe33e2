"""``pk.remark_2``: knowing k of n records, for counting and thresholded counting (thesis Remark 2).

Thesis *Lowering the cost of anonymization*, §3.1.3, Remark 2: for counting queries knowing k
of n records is no knowledge with n - k records; thresholded counting is not Θ-reducible
(``CLAIMS.md``'s instance: n = 3, one known record, release iff count > 1, p = 1/2).
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from math import comb

import sympy
from hypothesis import strategies as st

from exactpml import Distribution, LogValue
from exactpml import strategies as xst
from exactpml.partial_knowledge import (
    CountingMechanism,
    PartialKnowledge,
    knowledge_delta,
    knowledge_deltas,
    remark_2,
    theta_reducibility,
)
from proofs_check import CheckContext, Evidence, check, exact_instances, property_holds
from proofs_check.claims.partial_knowledge._common import (
    RATIOS,
    reference_deltas,
    thresholded_kernel,
    votes,
)
from proofs_check.reference import conditional_laws
from proofs_check.small_scope import Layer, SmallScope

__all__ = ["remark_2_check"]


def _binomial_delta(
    unknown: int, p: Fraction, ratio: Fraction, *, reverse: bool = False
) -> Fraction:
    """δ_A for the exact count by hand, C ~ Bin(unknown, p), b(j) = P[C = j].

    Given k known Yes, the count is k + C under t = No and k + 1 + C under t' = Yes, so the
    output k + j has probabilities b(j) and b(j-1), whatever k: Σ_j max(0, b(j) - e^ε b(j-1))
    for (No, Yes), and Σ_j max(0, b(j) - e^ε b(j+1)) for (Yes, No) (output k + 1 + j has
    probabilities b(j) under Yes and b(j+1) under No).  The same value for every knowledge
    value and for no knowledge with the known records removed.
    """
    if unknown < 0:
        return Fraction(0)
    b = [comb(unknown, j) * p**j * (1 - p) ** (unknown - j) for j in range(unknown + 1)]

    def at(j: int) -> Fraction:
        return b[j] if 0 <= j <= unknown else Fraction(0)

    step = 1 if reverse else -1
    return sum(
        (max(Fraction(0), at(j) - ratio * at(j + step)) for j in range(unknown + 1)),
        Fraction(0),
    )


@check(
    "pk.remark_2",
    mutants={
        "thresholded_like_counting": "thresholded counting also satisfies the observation: "
        "δ_A(Yes known) = δ_A(No known) = max(0, 1 - e^ε/2)",
        "n_minus_k_minus_1": "for counting queries, knowing k of n records is no knowledge with "
        "n - k - 1 records (the target counted out as well)",
        "reversed_order": "the stated δ_A(No) = max(0, 1 - e^ε/2), δ_A(Yes) = 1/2 also hold for "
        "t = Yes vs t' = No",
    },
)
def remark_2_check(ctx: CheckContext) -> list[Evidence]:
    """pk.remark_2 — thesis Remark 2.

    Statement: for counting queries, knowing k of n records is the same as no knowledge with
    n - k records; false for thresholded counting, which is not Θ-reducible (CLAIMS.md: n = 3,
    one known record, release iff count > 1, p = 1/2, t = No vs t' = Yes:
    δ_A(No) = max(0, 1 - e^ε/2), δ_A(Yes) = 1/2).

    E: (i) exact count, votes Yes w.p. 1/3, n = 4 with 2 known records vs no knowledge and 2
    records, both orders (No, Yes) and (Yes, No): δ_A(b) for every b (exactpml, through
    enumeration) equals the no-knowledge δ (exactpml) and the hand formulas of
    :func:`_binomial_delta` with C ~ Bin(1, 1/3), at e^ε = 1, 3/2, 3; (ii) CLAIMS.md's
    instance: δ_A(No) and δ_A(Yes) equal the stated values at e^ε = 1, 3/2, 2, 3 and at the
    irrational ε = 1/2 (δ_A(No) = 1 - e^{1/2}/2, positive since e < 4), while no knowledge
    with n - k = 2 records gives max(0, 1 - e^ε/2) for both (the same law as B = No); in the
    order (Yes, No) δ_A(No) = δ_A(Yes) = 1/2 (derived by hand: the target's Yes makes ⊥ or 2
    equally likely where No gives ⊥ always, resp. 2 or 3 against ⊥ or 2), so the failure of
    Θ-reducibility shows in the order (No, Yes) only; exactpml decides it not Θ-reducible.
    P: the counting half over its parameters: every n ≤ 3, k < n, p in {1/2, 1/3}, e^ε in
    {1, 2} and both orders, then random n ≤ 5, k, p and e^ε: δ_A(b) for every b (exactpml)
    equals the no-knowledge δ with n - k records, the hand sums and the reference's
    enumeration of every database (the count's kernel written from the text).
    P: CLAIMS.md's thresholded instance over its free parameter, e^ε in {1, 3/2, 2, 3} and
    random exact e^ε ≥ 1: the stated δ_A in both orders, exactpml and the reference.
    """
    mutant = ctx.mutant
    cases: list[tuple[str, object, object]] = []
    third = Fraction(1, 3)
    vote = Distribution({"No": 1 - third, "Yes": third})
    count = CountingMechanism(lambda c: {c: 1}, predicate=lambda v: v == "Yes", name="count")
    knowing = PartialKnowledge([vote] * 4, target=0, value="No", alternative="Yes", known=[1, 2])
    fewer_records = 1 if mutant == "n_minus_k_minus_1" else 2
    nothing = PartialKnowledge([vote] * fewer_records, target=0, value="No", alternative="Yes")
    for reverse, order in ((False, "(No, Yes)"), (True, "(Yes, No)")):
        for ratio in (Fraction(1), Fraction(3, 2), Fraction(3)):
            by_b = knowledge_deltas(
                knowing, count.as_mechanism(knowing.records), LogValue(ratio), reverse=reverse
            )
            none = knowledge_delta(nothing, count, LogValue(ratio), (), reverse=reverse)
            hand = _binomial_delta(1, third, ratio, reverse=reverse)
            shown = f"count {order}, 2 of 4 known, e^ε = {ratio}"
            cases.append((f"{shown}: max_b δ_A(b)", max(by_b.values()), hand))
            cases.append((f"{shown}: min_b δ_A(b)", min(by_b.values()), hand))
            cases.append(
                (f"count {order}, no knowledge, {fewer_records} records, e^ε = {ratio}", none, hand)
            )

    setting, release = remark_2()
    fewer = PartialKnowledge(setting.records[:2], target=0, value="No", alternative="Yes")
    half = Fraction(1, 2)
    epsilons: list[tuple[object, object]] = [
        (LogValue(r), max(Fraction(0), 1 - r / 2))
        for r in (Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3))
    ]
    epsilons.append((sympy.Rational(1, 2), 1 - sympy.exp(sympy.Rational(1, 2)) / 2))
    for epsilon, stated in epsilons:
        shown = f"e^ε = {epsilon.ratio}" if isinstance(epsilon, LogValue) else f"ε = {epsilon}"
        yes_expected = stated if mutant == "thresholded_like_counting" else half
        cases.append(
            (
                f"thresholded (No, Yes), {shown}: δ_A(No)",
                knowledge_delta(setting, release, epsilon, ("No",)),
                stated,
            )
        )
        cases.append(
            (
                f"thresholded (No, Yes), {shown}: δ_A(Yes)",
                knowledge_delta(setting, release, epsilon, ("Yes",)),
                yes_expected,
            )
        )
        cases.append(
            (
                f"thresholded (No, Yes), no knowledge, 2 records, {shown}",
                knowledge_delta(fewer, release, epsilon, ()),
                stated,
            )
        )
        reversed_no = stated if mutant == "reversed_order" else half
        cases.append(
            (
                f"thresholded (Yes, No), {shown}: δ_A(No)",
                knowledge_delta(setting, release, epsilon, ("No",), reverse=True),
                reversed_no,
            )
        )
        cases.append(
            (
                f"thresholded (Yes, No), {shown}: δ_A(Yes)",
                knowledge_delta(setting, release, epsilon, ("Yes",), reverse=True),
                half,
            )
        )
    cases.append(
        ("thresholded counting is Θ-reducible", theta_reducibility(setting, release).holds, False)
    )
    return [
        exact_instances(cases, origin="from CLAIMS.md and hand-derived binomial sums"),
        property_holds(
            ctx,
            st.tuples(
                st.integers(2, 5).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n - 1))),
                xst.fractions(min_value=0, max_value=1, max_denominator=10).filter(
                    lambda p: 0 < p < 1
                ),
                RATIOS,
                st.booleans(),
            ).map(lambda t: (*t[0], *t[1:])),
            lambda instance: not _counting_failures(*instance, mutant),
            describe="exact count, n votes Yes w.p. p, k known, both orders: δ_A(b) for every "
            "b = no knowledge with n - k records = the binomial sums = the reference",
            explain=lambda instance: "; ".join(_counting_failures(*instance, mutant)),
            examples=ctx.fewer_examples(40, at_least=3, at_most=20),
            small_scope=COUNTING_SCOPE,
        ),
        property_holds(
            ctx,
            RATIOS,
            lambda ratio: not _stated_failures(ratio, mutant),
            describe="CLAIMS.md's thresholded instance at every e^ε ≥ 1: δ_A(No) = max(0, 1 - "
            "e^ε/2) = no knowledge with 2 records, δ_A(Yes) = 1/2 (No, Yes); both 1/2 (Yes, No); "
            "equal to the reference",
            explain=lambda ratio: "; ".join(_stated_failures(ratio, mutant)),
            examples=ctx.fewer_examples(40, at_least=3, at_most=20),
            small_scope=STATED_SCOPE,
        ),
    ]


def _counting_setting(voters: int, known: int, p: Fraction) -> PartialKnowledge:
    """n i.i.d. votes, target 0 (t = No, t' = Yes), records 1..k known."""
    return PartialKnowledge(
        [votes(p)] * voters, target=0, value="No", alternative="Yes", known=range(1, known + 1)
    )


def _counting_failures(
    voters: int, known: int, p: Fraction, ratio: Fraction, reverse: bool, mutant: str | None
) -> list[str]:
    """Remark 2's counting half on one instance: exactpml's δ_A(b) for every b, the
    no-knowledge δ with n - k records (n - k - 1 under the mutant; skipped where that is no
    record), the hand sums and the reference's enumeration of every database agree."""
    order = ("Yes", "No") if reverse else ("No", "Yes")
    shown = f"n = {voters}, k = {known}, p = {p}, e^ε = {ratio}, order {order}"
    count = CountingMechanism(lambda c: {c: 1}, predicate=lambda v: v == "Yes", name="count")
    knowing = _counting_setting(voters, known, p)
    epsilon = LogValue(ratio)
    by_b = knowledge_deltas(knowing, count.as_mechanism(knowing.records), epsilon, reverse=reverse)
    hand = _binomial_delta(voters - known - 1, p, ratio, reverse=reverse)
    laws = conditional_laws(knowing, thresholded_kernel(voters, -1), order=order)
    reference = reference_deltas(laws, ratio)
    failures = [
        f"{shown}: δ_A({b}) = {value}, hand sums {hand}, reference {reference.get(b)}"
        for b, value in by_b.items()
        if not value == hand == reference.get(tuple(b))  # type: ignore[arg-type]
    ]
    if set(reference) != {tuple(b) for b in by_b}:  # type: ignore[arg-type]
        failures.append(f"{shown}: knowledge values {set(by_b)} ≠ the reference's {set(reference)}")
    fewer = voters - known - (1 if mutant == "n_minus_k_minus_1" else 0)
    if fewer >= 1:
        nothing = _counting_setting(fewer, 0, p)
        none = knowledge_delta(nothing, count, epsilon, (), reverse=reverse)
        if none != hand:
            failures.append(f"{shown}: no knowledge with {fewer} records gives {none} ≠ {hand}")
    return failures


def _stated_failures(ratio: Fraction, mutant: str | None) -> list[str]:
    """CLAIMS.md's thresholded instance (n = 3, record 1 known, release iff count > 1,
    p = 1/2) at e^ε = ``ratio``: exactpml's δ_A and the reference's against the stated
    values, in both orders (a mutant's values where it changes them)."""
    setting, release = remark_2()
    fewer = PartialKnowledge(setting.records[:2], target=0, value="No", alternative="Yes")
    epsilon, half = LogValue(ratio), Fraction(1, 2)
    stated = max(Fraction(0), 1 - ratio / 2)
    kernel = thresholded_kernel(3, 1)
    expected = {
        (False, "No"): stated,
        (False, "Yes"): stated if mutant == "thresholded_like_counting" else half,
        (True, "No"): stated if mutant == "reversed_order" else half,
        (True, "Yes"): half,
    }
    failures = []
    for (reverse, b), value in expected.items():
        order = ("Yes", "No") if reverse else ("No", "Yes")
        mine = knowledge_delta(setting, release, epsilon, (b,), reverse=reverse)
        reference = reference_deltas(conditional_laws(setting, kernel, order=order), ratio)[(b,)]
        if not mine == reference == value:
            failures.append(
                f"e^ε = {ratio}, order {order}, δ_A({b}): exactpml {mine}, reference "
                f"{reference}, stated {value}"
            )
    none = knowledge_delta(fewer, release, epsilon, ())
    if none != stated:
        failures.append(f"e^ε = {ratio}: no knowledge with 2 records gives {none} ≠ {stated}")
    return failures


COUNTING_SCOPE = SmallScope(
    "(n, k, p, e^ε, order): n ≤ 3, k < n, p in {1/2, 1/3}, e^ε in {1, 2}, both orders",
    [
        Layer(
            f"n = {voters}",
            voters * 8,
            partial(
                lambda voters: [
                    (voters, known, p, ratio, reverse)
                    for known in range(voters)
                    for p in (Fraction(1, 2), Fraction(1, 3))
                    for ratio in (Fraction(1), Fraction(2))
                    for reverse in (False, True)
                ],
                voters,
            ),
        )
        for voters in (2, 3)
    ],
)
"""Remark 2's counting statement quantifies over n, k, p and ε: its smallest instances."""

STATED_SCOPE = SmallScope(
    "CLAIMS.md's instance (n = 3, one known, threshold 1, p = 1/2) over e^ε in {1, 3/2, 2, 3}",
    [
        Layer(
            "e^ε in {1, 3/2, 2, 3}",
            4,
            lambda: [Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3)],
        )
    ],
)
"""The example's values are stated for every ε: its whole domain is e^ε ≥ 1 (random exact
e^ε follow in the random phase)."""
