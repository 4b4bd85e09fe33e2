"""The thesis's instances of §3.1.3, built exactly: Example 7, Remark 2 and the counterexamples.

* :func:`example_7` — the thresholded referendum (count released iff > threshold, else ⊥):
  δ_APK = max_b δ_A(b) against δ_PPK = Σ_b P[b] δ_A(b), each a maximum over the orders
  (No, Yes) and (Yes, No) (Defs 57/58 quantify over every t ≠ t').  The thesis's value of p
  was lost in extraction; CLAIMS.md ``pk.ex_7`` fixes p = 10^-4 and e^ε = 3 ("very small" p:
  with high probability everybody votes No).  At the thesis scale δ_APK = (1 − p)^899 ≈ 0.914
  (order (No, Yes), 100 known Yes votes) and δ_PPK ≈ 5.24e-261 (order (Yes, No), dominated by
  the attacker who knows no Yes vote).  The seed gives no numbers: the check is
  max_b δ_A(b) ≥ 1/2 and δ_PPK < 10^-100, plus agreement with enumeration at a small scale.
* :func:`remark_2` — n = 3, one known record, release iff count > 1, p = 1/2, t = No,
  t' = Yes: δ_A(No) = max(0, 1 − e^ε/2), δ_A(Yes) = 1/2 (CLAIMS.md ``pk.remark_2``).
* :func:`reducibility_not_necessary` — B a fair bit, M a coin flip when B = 0 and a constant
  when B = 1, ignoring D(i): δ_A ≡ 0, yet not Θ-reducible (``pk.thm_2``).
* :func:`fixed_versus_other_records` — knowing one fixed record is not the same as knowing
  another one when records are not identically distributed (``pk.prop_26``).

``benchmarks/bench_partial_knowledge.py`` prints Example 7 at both scales and times it.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.display import abbreviated_fields_repr
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, exact
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument
from exactpml.leakage.hockey_stick import exact_max, short_decimal
from exactpml.partial_knowledge.counting import CountingMechanism, thresholded_counting
from exactpml.partial_knowledge.laws import knowledge_laws
from exactpml.partial_knowledge.notions import (
    active_delta,
    delta_table,
    largest_delta,
    weighted_delta,
)
from exactpml.partial_knowledge.setting import PartialKnowledge

__all__ = [
    "Example7",
    "Example7Order",
    "example_7",
    "fixed_versus_other_records",
    "reducibility_not_necessary",
    "referendum",
    "remark_2",
]

YES, NO = "Yes", "No"


def _is_yes(value: Hashable) -> bool:
    return value == YES


def referendum(
    voters: int, known: int, p: object, *, threshold: int
) -> tuple[PartialKnowledge, CountingMechanism]:
    """Example 7's setting: ``voters`` i.i.d. votes (Yes w.p. ``p``), the attacker knows
    votes 0..known−1, the target is vote ``known``, t = No and t' = Yes; the mechanism
    releases the Yes count iff it exceeds ``threshold`` (else ⊥)."""
    for name, number in (("voters", voters), ("known", known), ("threshold", threshold)):
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise InvalidArgument(
                f"{name}={abbreviated_repr(number)} must be a non-negative integer"
            )
    if known >= voters:
        raise InvalidArgument(
            f"known={known} must be below voters={abbreviated(voters)} (the target is unknown)"
        )
    probability = exact(p, where="p")
    vote = Distribution([(NO, 1 - probability), (YES, probability)], name="vote")
    setting = PartialKnowledge.iid(
        vote, voters, target=known, value=NO, alternative=YES, known=range(known)
    )
    return setting, thresholded_counting(threshold, predicate=_is_yes)


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class Example7Order:
    """Example 7 for one order (t, t') of the target's two values.

    Attributes:
        order: (t, t'): the attacker tells D(i) = t from D(i) = t'.
        delta_apk: max_b δ_A(b) for this order, attained at ``worst``.
        worst: a KnownCount attaining it (that many known Yes votes).
        delta_ppk: Σ_b P[B=b] δ_A(b) for this order.
        by_known_count: δ_A(b) for each number of known Yes votes, for this order.
    """

    order: tuple[Hashable, Hashable]
    delta_apk: Scalar
    worst: Hashable
    delta_ppk: Scalar
    by_known_count: Mapping[Hashable, Scalar]


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class Example7:
    """Example 7's exact results: Defs 57 and 58 quantify over every t ≠ t', so both δ's are
    maxima over the orders (No, Yes) and (Yes, No).

    Attributes:
        delta_apk: max over both orders and b of δ_A(b), attained at ``worst`` for the order
            ``worst_order``.
        delta_ppk: max over both orders of Σ_b P[B=b] δ_A(b), attained for ``ppk_order``.
        by_known_count: δ_A for each number of known Yes votes, maximised over the orders.
        orders: the values of each order, ``{(t, t'): Example7Order}``.
        seconds: wall-clock time of the computation (for information; not a test).
    """

    voters: int
    known: int
    threshold: int
    p: Scalar
    epsilon: LogValue
    delta_apk: Scalar
    worst: Hashable
    worst_order: tuple[Hashable, Hashable]
    delta_ppk: Scalar
    ppk_order: tuple[Hashable, Hashable]
    by_known_count: Mapping[Hashable, Scalar]
    orders: Mapping[tuple[Hashable, Hashable], Example7Order]
    seconds: float

    def report(self) -> str:
        """A short text with the certified decimals of both δ, for each order and overall."""
        lines = [
            f"Example 7: {self.voters} voters, {self.known} known, threshold {self.threshold}, "
            f"p = {self.p}, e^ε = {self.epsilon.ratio}",
        ]
        for (t, alternative), one in self.orders.items():
            lines.append(
                f"  (t, t') = ({t}, {alternative}): max_b δ_A(b) = "
                f"{short_decimal(one.delta_apk)} (at {one.worst!r}), Σ_b P[b] δ_A(b) = "
                f"{short_decimal(one.delta_ppk)}"
            )
        lines += [
            f"  δ_APK = {short_decimal(self.delta_apk)} (at {self.worst!r}, "
            f"(t, t') = {self.worst_order})",
            f"  δ_PPK = {short_decimal(self.delta_ppk)} ((t, t') = {self.ppk_order})",
            f"  computed exactly in {self.seconds:.2f} s",
        ]
        return "\n".join(lines)


def example_7(
    voters: int = 1000,
    known: int = 100,
    threshold: int = 100,
    p: object = "1/10000",
    *,
    epsilon: object = None,
    method: str = "count",
) -> Example7:
    """Example 7 (thresholded referendum) exactly, over both orders (No, Yes) and (Yes, No);
    defaults are the thesis's scale with CLAIMS.md's p = 10^-4 and e^ε = 3.
    ``method="enumerate"`` enumerates every database (small scales only); ``"count"`` uses
    the count's sufficient statistic."""
    bound = LogValue(3) if epsilon is None else epsilon
    start = time.perf_counter()
    setting, mechanism = referendum(voters, known, p, threshold=threshold)
    laws = knowledge_laws(setting, mechanism, method=method)
    table = delta_table(laws, bound)  # every pair of laws computed once
    both = active_delta(laws, table)
    assert both.order is not None and both.by_order is not None
    orders: dict[tuple[Hashable, Hashable], Example7Order] = {}
    for order, row in table.items():
        cells = [row[b] for b in laws.knowledge_values]
        worst, position = largest_delta(cells)
        orders[order] = Example7Order(
            order=order,
            delta_apk=worst,
            worst=None if position is None else laws.knowledge_values[position],
            delta_ppk=weighted_delta(laws.weights, cells),  # Thm 1, B independent of D(i)
            by_known_count=both.by_order[order],
        )
    passive, position = exact_max([one.delta_ppk for one in orders.values()])
    ppk_order = list(orders)[0 if position is None else position]
    seconds = time.perf_counter() - start
    assert both.order is not None
    return Example7(
        voters=voters,
        known=known,
        threshold=threshold,
        p=exact(p, where="p"),
        epsilon=bound if isinstance(bound, LogValue) else LogValue(bound),
        delta_apk=both.delta,
        worst=both.knowledge,
        worst_order=both.order,
        delta_ppk=passive,
        ppk_order=ppk_order,
        by_known_count=both.by_knowledge,
        orders=orders,
        seconds=seconds,
    )


def remark_2() -> tuple[PartialKnowledge, CountingMechanism]:
    """Remark 2's instance: 3 fair votes, record 1 known, target 0, t = No, t' = Yes,
    count released iff > 1."""
    coin = Distribution([(NO, "1/2"), (YES, "1/2")])
    setting = PartialKnowledge([coin] * 3, target=0, value=NO, alternative=YES, known=[1])
    return setting, thresholded_counting(1, predicate=_is_yes)


def reducibility_not_necessary() -> tuple[PartialKnowledge, Mechanism]:
    """B a fair bit (record 1), M a fair coin flip when B = 0 and the constant "c" when
    B = 1, ignoring D(0) ∈ {0, 1}: δ_A(b) = 0 for every b and ε, yet no φ exists."""
    bit = Distribution([(0, "1/2"), (1, "1/2")])
    setting = PartialKnowledge([bit, bit], target=0, value=0, alternative=1, known=[1])
    kernel: dict[Hashable, Mapping[Hashable, object]] = {
        (x, b): ({"heads": "1/2", "tails": "1/2"} if b == 0 else {"c": 1})
        for x in (0, 1)
        for b in (0, 1)
    }
    return setting, Mechanism(kernel)


def fixed_versus_other_records() -> tuple[PartialKnowledge, PartialKnowledge, CountingMechanism]:
    """Records Yes w.p. 1/2, 1/2, 1/10 (target 0): knowing record 1 leaves record 2 unknown,
    knowing record 2 leaves record 1 unknown; the exact count then has δ_A = 9/10 and 1/2
    (for every e^ε ≥ 1), so "knowing one record" depends on which record (``pk.prop_26``)."""
    records = [
        Distribution([(NO, "1/2"), (YES, "1/2")]),
        Distribution([(NO, "1/2"), (YES, "1/2")]),
        Distribution([(NO, "9/10"), (YES, "1/10")]),
    ]
    count = CountingMechanism(lambda c: {c: 1}, predicate=_is_yes, name="exact count")
    first = PartialKnowledge(records, target=0, value=NO, alternative=YES, known=[1])
    second = PartialKnowledge(records, target=0, value=NO, alternative=YES, known=[2])
    return first, second, count
