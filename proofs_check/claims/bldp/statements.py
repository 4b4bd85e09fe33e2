"""The ``bldp.*`` claims: statements, numbers in the source and kinds of evidence.

Source: Ligett, Peale, Reingold, *Bounded-Leakage Differential Privacy*.

The rows of section ``bldp.`` of ``CLAIMS.md`` (the repository's root), as data:
``tests/proofs_check/test_claim_catalog.py`` requires the two to agree word for word.
The checks attach to these ids with :func:`proofs_check.check`.
"""

from __future__ import annotations

from proofs_check.statement import Claim, ListedItem, Source

__all__ = ["CLAIMS", "NOT_CHECKABLE", "SOURCE"]


SOURCE = Source(
    "bldp",
    "003_76c741995741c13c.txt",
    "Ligett, Peale, Reingold: Bounded-Leakage Differential Privacy",
)
"""The source document (id prefix, file name of its text, authors and title)."""


CLAIMS: tuple[Claim, ...] = (
    Claim(
        id="bldp.definition",
        source=SOURCE,
        result="Definition (BLDP)",
        statement=(
            "Exact minimal ε (δ = 0) and δ(ε) of finite instances; with a constant leakage it is "
            "ordinary (ε,δ)-DP."
        ),
        kinds=("E", "P"),
    ),
    Claim(
        id="bldp.post_processing",
        source=SOURCE,
        result="Properties: post-processing",
        statement=(
            "f∘M, with f's own randomness independent of r, keeps (ε,δ)-BLDP w.r.t. the same P."
        ),
        kinds=("P", "W"),
    ),
    Claim(
        id="bldp.composition",
        source=SOURCE,
        result="Properties: composability",
        statement=(
            'The poster claims composability "analogous to DP": check the DP-analogous statement '
            "(the pair is (ε1+ε2, δ1+δ2)-BLDP) and state exactly which assumptions on the "
            "randomness and the leakage it needs; a counterexample where they are dropped."
        ),
        kinds=("P", "W"),
    ),
    Claim(
        id="bldp.group_privacy",
        source=SOURCE,
        result="Properties: group privacy",
        statement=(
            'The poster claims group privacy "analogous to DP": check (kε, k·e^{(k-1)ε}·δ) for '
            "databases at distance k, and report precisely when it holds (e.g. intermediate "
            "databases under which the leakage value has probability zero), with a "
            "counterexample where it does not."
        ),
        kinds=("P", "W"),
    ),
    Claim(
        id="bldp.leak_release",
        source=SOURCE,
        result="Properties: explicit leakage",
        statement=("Releasing (M(x,r), P(x,r)) keeps the BLDP parameters of M."),
        kinds=("P",),
    ),
    Claim(
        id="bldp.independent_leakage",
        source=SOURCE,
        result="Scenario 1 (2020 Census)",
        statement=(
            'If M(x,·) ⊥ P(x,·) for every x, then (ε,δ)-DP ⇒ (ε,δ)-BLDP w.r.t. P ("preserves the '
            'same bounds"; census "exact counts" scenario). The converse fails: the BLDP '
            "parameters are ≤ the DP parameters, with equality when every neighbouring pair "
            "shares a leakage value of positive probability (M(x,r) = x, P(x,r) = x is vacuously "
            "(0,0)-BLDP and not DP)."
        ),
        kinds=("P", "W"),
    ),
    Claim(
        id="bldp.non_participation",
        source=SOURCE,
        result="Scenario 2 (non-participation)",
        statement=(
            "Scenario 2 (studies on a whole population, leakage = an upper bound on how many "
            "studies an individual joined): the poster's formulas were lost. Define the model "
            "explicitly (k studies, each ε-DP on its participants; leakage = the participation "
            "count bound) and check that the loss is bounded in terms of that bound, not the "
            'number of studies; or report "not checkable: statement lost".'
        ),
        kinds=("P", "W"),
    ),
)


NOT_CHECKABLE: tuple[ListedItem, ...] = ()
"""Statements of the source listed in ``CLAIMS.md`` that cannot be checked, with why."""
