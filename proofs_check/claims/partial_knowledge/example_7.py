"""``pk.ex_7``: the thresholded referendum (thesis Example 7).

Thesis *Lowering the cost of anonymization*, §3.1.3, Example 7: 1000 voters, the count
released iff it exceeds 100, an attacker who knows 100 votes.  The thesis's p was lost in
extraction; ``CLAIMS.md`` fixes p = 10^-4 and e^ε = 3.  Closed forms through the count's
sufficient statistic, checked against enumeration at a scale that can be enumerated.

``CLAIMS.md`` now states both δ's as maxima over the orders (No, Yes) and (Yes, No) (Defs
57/58 quantify over every t ≠ t′); this check still evaluates t = No, t′ = Yes only.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from math import comb
from typing import NamedTuple

from exactpml import LogValue
from exactpml.leakage.hockey_stick import short_decimal
from exactpml.partial_knowledge import KnownCount, example_7
from proofs_check import (
    CheckContext,
    Evidence,
    check,
    exact_instances,
    exact_values,
    witness_evidence,
)

__all__ = ["ex_7"]


class Scale(NamedTuple):
    """Example 7's parameters."""

    voters: int
    known: int
    threshold: int
    p: Fraction


THESIS_SCALE = Scale(voters=1000, known=100, threshold=100, p=Fraction(1, 10_000))
"""CLAIMS.md pk.ex_7: the thesis's scale; p = 10^-4 (lost in extraction, "very small")."""


SMALL_SCALE = Scale(voters=12, known=4, threshold=3, p=Fraction(1, 10))
"""Issue 5's enumerable scale (2^11 databases per target value)."""


RATIO_7 = Fraction(3)


def _closed_form_7(
    voters: int, known: int, threshold: int, p: Fraction, ratio: Fraction
) -> tuple[dict[int, Fraction], Fraction, Fraction]:
    """Example 7 by hand: δ_A(k) for each number k of known Yes votes, δ_APK, δ_PPK.

    Derivation (t = No, t' = Yes, U = voters - known - 1 unknown votes, C ~ Bin(U, p),
    b(j) = P[C = j], F(j) = P[C ≤ j]).  Given k known Yes, the count is k + C under t and
    k + 1 + C under t'.  Since b(j)/b(j-1) = (U-j+1)p / (j(1-p)) ≤ ρ = Up/(1-p):
    if ρ ≤ e^ε - 1 (checked below, exactly), every released count c contributes
    max(0, b(c-k) - e^ε b(c-k-1)) = 0 except c = k (possible only under t, when k > T:
    contributes b(0)), and ⊥ contributes max(0, F(T-k) - e^ε F(T-k-1)) = 0 for k < T
    (F(j) - e^ε F(j-1) ≤ b(j) - (e^ε-1) b(j-1) ≤ 0) and F(0) = b(0) for k = T.  So
    δ_A(k) = (1-p)^U if k ≥ T else 0, δ_APK = (1-p)^U (when k = T is possible) and
    δ_PPK = P[Bin(known, p) ≥ T] (1-p)^U.
    """
    unknown = voters - known - 1
    rho = unknown * p / (1 - p)
    if not rho <= ratio - 1:
        raise ValueError(f"the closed form needs Up/(1-p) = {rho} ≤ e^ε - 1 = {ratio - 1}")
    top = (1 - p) ** unknown
    by_count = {k: (top if k >= threshold else Fraction(0)) for k in range(known + 1)}
    tail = sum(
        (comb(known, k) * p**k * (1 - p) ** (known - k) for k in range(threshold, known + 1)),
        Fraction(0),
    )
    return by_count, max(by_count.values()), tail * top


def _count(key: Hashable) -> int:
    """The number of known Yes votes of a KnownCount class."""
    assert isinstance(key, KnownCount)
    return key.count


def _big(value: Fraction) -> str:
    """A short, correctly rounded decimal of a long exact rational (for the report)."""
    return f"{short_decimal(value)} (exact rational, correctly rounded)"


@check(
    "pk.ex_7",
    mutants={
        "ppk_not_tiny": "δ_PPK ≥ 10^-100 at the thesis's scale (direction flipped)",
        "apk_below_half": "max_b δ_A(b) < 1/2 at the thesis's scale (direction flipped)",
    },
)
def ex_7(ctx: CheckContext) -> list[Evidence]:
    """pk.ex_7 — thesis Example 7 (thresholded referendum).

    Statement (CLAIMS.md; the thesis's p was lost, its text needs p "very small"): 1000
    voters, each Yes w.p. p = 10^-4, the count released iff > 100 (else ⊥), the attacker
    knows 100 votes, t = No vs t' = Yes, e^ε = 3: max_b δ_A(b) ≥ 1/2 while δ_PPK < 10^-100.

    The seed gives no numbers, so this is a witness and a self-consistency check:

    W: exactpml's thesis-scale δ_APK and δ_PPK (through the count's sufficient statistic)
    satisfy δ_APK ≥ 1/2 > 10^-100 > δ_PPK, exactly.
    E: (i) at 12 voters, 4 known, threshold 3, p = 1/10, the sufficient-statistic path equals
    the enumeration of every database (δ_A per knowledge value, δ_APK, δ_PPK); (ii) at both
    scales exactpml's δ_A(k), δ_APK and δ_PPK equal the closed forms derived by hand in
    :func:`_closed_form_7` (δ_APK = (1-p)^U, δ_PPK = P[Bin(K,p) ≥ T] (1-p)^U), an independent
    computation, not a value from the text.
    """
    thesis = example_7(*THESIS_SCALE, epsilon=LogValue(RATIO_7))
    small_count = example_7(*SMALL_SCALE, epsilon=LogValue(RATIO_7), method="count")
    small_enum = example_7(*SMALL_SCALE, epsilon=LogValue(RATIO_7), method="enumerate")
    bound = Fraction(1, 10**100)
    half = Fraction(1, 2)
    apk_ok = thesis.delta_apk < half if ctx.mutant == "apk_below_half" else thesis.delta_apk >= half
    ppk_ok = thesis.delta_ppk >= bound if ctx.mutant == "ppk_not_tiny" else thesis.delta_ppk < bound
    failures = []
    if not apk_ok:
        failures.append(f"δ_APK = {_big(thesis.delta_apk)} (at {thesis.worst!r})")
    if not ppk_ok:
        failures.append(f"δ_PPK = {_big(thesis.delta_ppk)} vs 10^-100")
    witness = witness_evidence(
        "1000 voters, 100 known, threshold 100, p = 10^-4, e^ε = 3: δ_APK = max_b δ_A(b) ≥ 1/2 "
        "and δ_PPK < 10^-100 (APKDP ≫ PPKDP, strict for δ > 0)"
        if ctx.mutant is None
        else f"the mutant {ctx.mutant!r} at the thesis's scale",
        not failures,
        values={
            "δ_APK": "(9999/10000)^899",
            "δ_APK ≈": short_decimal(thesis.delta_apk),
            "δ_PPK": "(1/10000)^100 · (9999/10000)^899",
            "δ_PPK ≈": short_decimal(thesis.delta_ppk),
            "worst knowledge": f"{_count(thesis.worst)} known Yes votes",
        },
        counterexample="; ".join(failures) or None,
    )

    # (i) sufficient statistic = enumeration at the small scale.
    enumerated: dict[int, Fraction] = {}
    for b, value in small_enum.by_known_count.items():
        k = sum(v == "Yes" for v in b)  # type: ignore[attr-defined]
        if enumerated.setdefault(k, value) != value:
            enumerated[k] = Fraction(-1)  # two knowledge values of one class disagree
    counted = {_count(key): value for key, value in small_count.by_known_count.items()}
    cases: list[tuple[str, object, object]] = [
        ("small: δ_A by known count, count path vs enumeration", counted, enumerated),
        ("small: δ_APK, count path vs enumeration", small_count.delta_apk, small_enum.delta_apk),
        ("small: δ_PPK, count path vs enumeration", small_count.delta_ppk, small_enum.delta_ppk),
    ]
    # (ii) closed forms at both scales.
    for name, scale, result in (
        ("small", SMALL_SCALE, small_count),
        ("thesis", THESIS_SCALE, thesis),
    ):
        by_count, apk, ppk = _closed_form_7(*scale, ratio=RATIO_7)
        got = {_count(key): value for key, value in result.by_known_count.items()}
        cases.append((f"{name}: δ_A(k) = (1-p)^U·[k ≥ T]", got == by_count, True))
        cases.append((f"{name}: δ_APK = (1-p)^U", result.delta_apk == apk, True))
        cases.append((f"{name}: δ_PPK = P[Bin(K,p) ≥ T]·(1-p)^U", result.delta_ppk == ppk, True))
    exact = exact_instances(
        cases, origin="from enumeration and hand-derived closed forms (the seed has no numbers)"
    )
    shown = exact_values(
        {
            "small δ_APK = (9/10)^7": small_count.delta_apk,
            "small δ_PPK = (37/10^4)(9/10)^7": small_count.delta_ppk,
            "thesis δ_APK ≈": short_decimal(thesis.delta_apk),
            "thesis δ_PPK ≈": short_decimal(thesis.delta_ppk),
        }
    )
    exact = Evidence(
        exact.kind,
        exact.passed,
        exact.summary,
        shown,
        counterexample=exact.counterexample,
        label=exact.label,
    )
    return [witness, exact]
