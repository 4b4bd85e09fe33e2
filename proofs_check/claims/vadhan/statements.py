"""The ``vadhan.*`` claims: statements, numbers in the source and kinds of evidence.

Source: Vadhan, *Notes on the Definition of Differential Privacy*.

The rows of section ``vadhan.`` of ``CLAIMS.md`` (the repository's root), as data:
``tests/proofs_check/test_claim_catalog.py`` requires the two to agree word for word.
The checks attach to these ids with :func:`proofs_check.check`.
"""

from __future__ import annotations

from proofs_check.statement import Claim, ListedItem, Source

__all__ = ["CLAIMS", "NOT_CHECKABLE", "SOURCE"]


SOURCE = Source(
    "vadhan",
    "002_ab6863cc5677b341.txt",
    "Vadhan: Notes on the Definition of Differential Privacy",
)
"""The source document (id prefix, file name of its text, authors and title)."""


CLAIMS: tuple[Claim, ...] = (
    Claim(
        id="vadhan.max_divergence",
        source=SOURCE,
        result="Section 2 (max-divergence)",
        statement=("max over sets T of ln(Pr[A∈T]/Pr[B∈T]) equals max over points y."),
        kinds=("P",),
    ),
    Claim(
        id="vadhan.statistical_difference",
        source=SOURCE,
        result="Section 1, Case 2 (statistical difference)",
        statement=(
            'The "release a random row w.p. 1/10" mechanism has statistical difference 1/(10n) '
            "between neighbours (so it meets that constraint for ε ≥ 1/(10n)) yet infinite "
            "max-divergence (for a neighbour pair whose changed value appears in no other row); "
            "ε-DP implies statistical difference ≤ tanh(ε/2) (≤ 1 - e^{-ε} for the one-sided "
            "condition of §1.2), both tight."
        ),
        kinds=("E", "P"),
    ),
    Claim(
        id="vadhan.case_1",
        source=SOURCE,
        result="Section 1, Case 1 (hybrid argument)",
        statement=(
            "Hybrid argument: if every neighbour pair has statistical difference ≤ ε then M(x) "
            "and M(0^n) differ by ≤ nε (≤ 0.1 for ε ≤ 1/(10n)); tight: M(x) = 1 w.p. Σx_i/(10n) "
            "reaches exactly 0.1."
        ),
        kinds=("P", "W"),
    ),
    Claim(
        id="vadhan.claim_1",
        source=SOURCE,
        result="Claim 1",
        statement=(
            "ε-DP ⇒ ε-simulation-DP; ε-simulation-DP ⇒ 2ε-DP. Compute the optimal simulator's ε "
            "exactly for finite mechanisms."
        ),
        kinds=("P", "W"),
    ),
    Claim(
        id="vadhan.prop_1",
        source=SOURCE,
        result="Proposition 1",
        statement=(
            "ε-DP ⇒ for every prior on X_i and output y, D_inf both ways between prior and "
            "posterior ≤ ε."
        ),
        kinds=("P", "W"),
    ),
    Claim(
        id="vadhan.prop_2",
        source=SOURCE,
        result="Proposition 2 and the remark after it",
        statement=(
            "For ε < 1/2: statistical distance between prior and posterior ≤ ε for all priors ⇒ "
            "DP with e^{ε'} ≤ (1+2ε)/(1-2ε) (the constant of the proof; the source writes the "
            "ratio as (1+γ)/(1-γ) where its own γ gives (1-γ)/(1+γ), harmless since |γ| ≤ 2ε). "
            "Remark: any distance d with d(Bern(1/2), Bern((1+γ)/2)) ≤ ε ⇒ |γ| ≤ g(ε) gives "
            "e^{ε'} ≤ (1+g)/(1-g); check it for total variation, Hellinger and KL."
        ),
        kinds=("P",),
    ),
)


NOT_CHECKABLE: tuple[ListedItem, ...] = (
    ListedItem(
        id="vadhan.remark_approximate",
        source=SOURCE,
        result="Remark after Proposition 2 (generalization to (ε, δ))",
        reason="no precise statement is given",
    ),
)
"""Statements of the source listed in ``CLAIMS.md`` that cannot be checked, with why."""
