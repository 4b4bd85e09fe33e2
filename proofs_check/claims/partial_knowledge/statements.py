"""The ``pk.*`` claims: statements, numbers in the source and kinds of evidence.

Source: the PhD thesis *Lowering the cost of anonymization*, §3.1.3 (active vs passive partial
knowledge).

The rows of section ``pk.`` of ``CLAIMS.md`` (the repository's root), as data:
``tests/proofs_check/test_claim_catalog.py`` requires the two to agree word for word.
The checks attach to these ids with :func:`proofs_check.check`.
"""

from __future__ import annotations

from proofs_check.statement import Claim, ListedItem, Source

__all__ = ["CLAIMS", "NOT_CHECKABLE", "SOURCE"]


SOURCE = Source(
    "pk",
    "001_89322ec27b787c78.txt",
    "PhD thesis Lowering the cost of anonymization, §3.1.3 (active vs passive partial knowledge)",
)
"""The source document (id prefix, file name of its text, authors and title)."""


CLAIMS: tuple[Claim, ...] = (
    Claim(
        id="pk.prop_8",
        source=SOURCE,
        result="Proposition 8 (as used in Section 3.1.3)",
        statement=(
            "(ε,δ)-DP ⇔ E_{O~M(D1)}[max(0, 1 - e^{ε - L(O)})] ≤ δ for all neighbours; equals the "
            "set form max_S P(S) - e^ε Q(S)."
        ),
        kinds=("P",),
    ),
    Claim(
        id="pk.thm_1",
        source=SOURCE,
        result="Theorem 1",
        statement=(
            "PPKDP quantity = E_b[δ_A(b)]; APKDP ⇒ PPKDP with the same (ε,δ); for δ = 0 they are "
            "equivalent."
        ),
        kinds=("P", "W"),
    ),
    Claim(
        id="pk.ex_7",
        source=SOURCE,
        result="Example 7",
        statement=(
            "Thresholded referendum: 1000 voters, each Yes w.p. p, count released iff count > "
            "100 (else ⊥), attacker knows 100 votes. The thesis's value of p was lost in "
            "extraction, but the text says that with high probability everybody votes No and the "
            "known votes are all No, so p must be very small: take p = 10^-4 and e^ε = 3. Defs "
            "57/58 quantify over every t ≠ t′, so both δ's are maxima over the orders (No, Yes) "
            "and (Yes, No). Then max_b δ_A(b) ≥ 1/2 while δ_PPK < 10^-100 (APKDP ≫ PPKDP: the "
            "implication of thm_1 is strict for δ > 0). Exact, through the count's sufficient "
            "statistic; also at a scale that can be enumerated, equal to enumeration. The seed "
            "gives no numbers to compare with, so this is a witness and self-consistency check."
        ),
        kinds=("W", "E", "P"),
    ),
    Claim(
        id="pk.thm_2",
        source=SOURCE,
        result="Theorem 2 (with Definition 59)",
        statement=(
            "Θ-reducible (Def 59, restated: for all b1, b2 an injective φ, independent of t, on "
            "the union of the output supports, with P[o | t, b1] = P[φ(o) | t, b2] for all o and "
            "t) ⇒ APKDP ⇔ PPKDP (δ_A(b) is the same for all b). Reducibility is sufficient, not "
            'necessary (the thesis calls it "necessary"): B a fair bit, M a coin flip when B = 0 '
            "and a constant when B = 1, ignoring D(i), has δ_A ≡ 0 yet no φ."
        ),
        kinds=("P", "W"),
    ),
    Claim(
        id="pk.prop_26",
        source=SOURCE,
        result="Proposition 26",
        statement=(
            "With independent records and fixed known records K (i ∉ K): counting and linear "
            "queries (shift by Σ_K w_j(b2_j - b1_j)), the arithmetic mean (that shift / n), the "
            "geometric mean (scale by Π(b2_j/b1_j)^{1/n}), the harmonic mean (o ↦ n/(n/o + "
            "Σ_K(1/b2_j - 1/b1_j))) and the quadratic mean (o ↦ √(o² + (1/n)Σ_K(b2_j² - b1_j²))) "
            "are Θ-reducible. The tool exhibits φ and checks it exactly. Knowing k fixed records "
            "is not the same as knowing k other records when records are not identically "
            "distributed: a counterexample."
        ),
        kinds=("E", "P", "W"),
    ),
    Claim(
        id="pk.prop_25",
        source=SOURCE,
        result="Proposition 25",
        statement=("Post-processing and convexity hold for APKDP and PPKDP."),
        kinds=("P", "W"),
    ),
    Claim(
        id="pk.remark_2",
        source=SOURCE,
        result="Remark 2",
        statement=(
            "For counting queries, knowing k of n records ≡ no knowledge with n-k records; false "
            "for thresholded counting, which is not Θ-reducible: δ_A(b1) ≠ δ_A(b2) (e.g. n = 3, "
            "one known record, release iff count > 1, p = 1/2, t = No vs t' = Yes: δ_A(0) = "
            "max(0, 1 - e^ε/2), δ_A(1) = 1/2)."
        ),
        kinds=("E", "P"),
    ),
    Claim(
        id="pk.full_knowledge",
        source=SOURCE,
        result="Text after Definition 57 (full knowledge)",
        statement=(
            "When the attacker knows every other record (B = D_{-i}, each d_{-i} possible), the "
            "PLRV with partial knowledge is the classical PLRV and APKDP coincides with (ε, "
            "δ)-DP."
        ),
        kinds=("P",),
    ),
)


NOT_CHECKABLE: tuple[ListedItem, ...] = (
    ListedItem(
        id="pk.remark_1",
        source=SOURCE,
        result="Remark 1 (IBDDP)",
        reason="its formulas were lost in extraction",
    ),
)
"""Statements of the source listed in ``CLAIMS.md`` that cannot be checked, with why."""
