"""The ``pml.*`` claims: statements, numbers in the source and kinds of evidence.

Source: Saeidian, Cervia, Oechtering, Skoglund, *Rethinking Disclosure Prevention with
Pointwise Maximal Leakage*.

The rows of section ``pml.`` of ``CLAIMS.md`` (the repository's root), as data:
``tests/proofs_check/test_claim_catalog.py`` requires the two to agree word for word.
The checks attach to these ids with :func:`proofs_check.check`.
"""

from __future__ import annotations

from proofs_check.statement import Claim, ListedItem, Source

__all__ = ["CLAIMS", "NOT_CHECKABLE", "SOURCE"]


SOURCE = Source(
    "pml",
    "004_95043fae0a301e80.txt",
    "Saeidian, Cervia, Oechtering, Skoglund: Rethinking Disclosure Prevention with Pointwise "
    "Maximal Leakage",
)
"""The source document (id prefix, file name of its text, authors and title)."""


CLAIMS: tuple[Claim, ...] = (
    Claim(
        id="pml.thm_2_4",
        source=SOURCE,
        result="Theorem 2.4",
        statement=(
            "Def 2.3 (sup over attributes U and guesses) equals D_inf(P_{X|Y=y} ‖ P_X) = log "
            "max_{x ∈ supp P_X} p(y|x)/p_Y(y) when p_Y(y) > 0, and 0 when p_Y(y) = 0 (footnote "
            "5). Every attribute kernel gives a ratio ≤ exp l(X->y). The shattering attribute (U "
            "= u₀ when X = x*, otherwise uniform on K values other than u₀; x* a maximiser) "
            "attains it exactly once K ≥ max((1-p*)/p*, (1-q*)/q*), with p* = p_X(x*), q* = "
            'p_{X|Y=y}(x*): the check reports "attained" and the least such K. (Had u₀ been one '
            "of the K values, the ratio would only converge as K→∞: a useful mutant.)"
        ),
        kinds=("P", "W", "L"),
    ),
    Claim(
        id="pml.pre_processing",
        source=SOURCE,
        result="Remark after Theorem 2.4 (2023b, Lemma 1)",
        statement=("Z - X - Y ⇒ l(Z->y) ≤ l(X->y); and 0 ≤ l(X->y) ≤ -log min_x p_X(x)."),
        kinds=("P",),
    ),
    Claim(
        id="pml.thm_2_8",
        source=SOURCE,
        result="Theorem 2.8",
        statement=(
            "C(W) = sup_{P_X} sup_y l(X->y) = sup_{P_X} D_inf(P_XY ‖ P_Y×P_X). For finite Y, C "
            "is infinite iff some column mixes zero and non-zero (all-zero columns ignored); for "
            "countable Y it can be infinite without zeros (the thm_3_4 mechanism). Priors "
            "putting 1-t on argmin_x p(y|x) reach the sup as t→0, never attaining it."
        ),
        kinds=("P", "L"),
    ),
    Claim(
        id="pml.def_2_6",
        source=SOURCE,
        result="Definition 2.6",
        statement=(
            "The three forms of (ε, P_X)-PML agree: P_Y({y : l(X->y) ≤ ε}) = 1 ⇔ D_inf(P_XY ‖ "
            "P_X×P_Y) ≤ ε ⇔ max over y with p_Y(y) > 0 of l(X->y) ≤ ε. The identity mechanism "
            "attains the largest possible leakage log 1/p_min (§2.3, §3.3)."
        ),
        kinds=("P", "E"),
    ),
    Claim(
        id="pml.thm_3_4",
        source=SOURCE,
        result="Theorem 3.4",
        statement=(
            "Disclosure (Def 3.3: inf_y H_inf(Q_{U|Y=y}) = 0) to one full-support prior ⇒ to "
            "all. Finite Y; plus a countable-Y mechanism (e.g. binary X, p(y|0) = 2^{-(y+1)}, "
            "p(y|1) = (1/3)(2/3)^y) where disclosure happens only in the limit y→∞."
        ),
        kinds=("P", "L"),
    ),
    Claim(
        id="pml.thm_3_5",
        source=SOURCE,
        result="Theorem 3.5",
        statement=(
            "(A.2): H_inf(P_{U|Y=y}) ≥ H_inf(P_U) - l(U->y) ≥ H_inf(P_U) - l(X->y) for every y; "
            "hence (ε,P_X)-PML and H_inf(P_U) > ε ⇒ U not disclosed to any adversary."
        ),
        kinds=("P",),
    ),
    Claim(
        id="pml.prop_3_6",
        source=SOURCE,
        result="Proposition 3.6",
        statement=(
            "U disclosed and non-constant (H_inf(P_U) > 0) ⇒ the W of A.3, built around the "
            "value u* whose posterior tends to 1, with any λ ∈ (threshold, 1), threshold = (max "
            "p_U - p_U(u*))/(1 - p_U(u*)), has H_inf(P_W) < H_inf(P_U) and is disclosed. Build W "
            "exactly; show λ at the threshold fails the strict inequality."
        ),
        kinds=("W", "P"),
    ),
    Claim(
        id="pml.thm_3_7",
        source=SOURCE,
        result="Theorem 3.7",
        statement=(
            "C(W) < ∞ ⇒ no non-constant attribute (H_inf(Q_U) > 0) is disclosed to any "
            'full-support Q_X (a constant U is trivially "disclosed": the source\'s statement '
            "needs this hypothesis, and the check says so), and for deterministic non-constant "
            "V: H_inf(Q_{V|Y=y}) ≥ log(1 + q_min/(1-q_min)·e^{-C})."
        ),
        kinds=("P",),
    ),
    Claim(
        id="pml.prop_3_8",
        source=SOURCE,
        result="Proposition 3.8",
        statement=(
            "|X| ≥ 2 and C = ∞ ⇒ sup_y l(X->y) ≥ log 1/(1-p_min). The α-mechanism of A.5: "
            "l(X->0) = log 1/(1-p_min), l(X->1) = log 1/(1-α(1-p_min)); it meets log "
            "1/(1-p_min)-PML exactly for α ∈ (0, min(1, p_min/(1-p_min))] (the tool derives this "
            "range), and discloses U = 1{X ≠ x_min}."
        ),
        kinds=("P", "W"),
    ),
    Claim(
        id="pml.cor_3_10",
        source=SOURCE,
        result="Corollary 3.10",
        statement=("(ε,P_X)-PML with ε < H_inf(P_X) ⇒ no singling out (Def 3.9)."),
        kinds=("P",),
    ),
    Claim(
        id="pml.ex_3_11",
        source=SOURCE,
        result="Example 3.11",
        statement=(
            'Deterministic answer to "more than m of n i.i.d. entries?": l(X->1) = -log(1 - '
            "Σ_{k≤m} C(n,k)p^k(1-p)^{n-k}) (equal to enumeration for small n), ≤ -log(1 - exp(-n "
            "D_KL(m/n‖p))) for m/n ≤ p; the y = 0 twin l(X->0) ≤ -log(1 - exp(-n D_KL(1-(m+1)/n "
            "‖ 1-p))) for (m+1)/n ≥ p; min_{p∈[0.3,0.7]} H_inf(P_{S_i}) = -log 0.7 ≈ 0.36. "
            "Figure 1 (p ∈ {0.3, 0.5}, n ∈ {200, 500, 1000, 2000}) plots the Chernoff upper "
            "bounds; reproduce it, and set the exact values beside it."
        ),
        kinds=("E", "C"),
    ),
    Claim(
        id="pml.thm_4_2",
        source=SOURCE,
        result="Theorem 4.2",
        statement=(
            "ε-DP (Def 4.1) ⇔ (1) sup over all full-support priors of conditional PML l(D_i->y | "
            "d_-i) ≤ ε ⇔ (2) same over product priors ⇔ (3) sup over product priors of l(D_i->y) "
            "≤ ε. Each sup equals the DP log-ratio exactly via the B.1/B.3 constructions; Remark "
            "B.1: never attained unless X ⊥ Y."
        ),
        kinds=("P", "L"),
    ),
    Claim(
        id="pml.thm_4_3",
        source=SOURCE,
        result="Theorem 4.3",
        statement=(
            "(Cited from Saeidian et al. 2024.) For each δ, ε > 0: a correlated database, an "
            "ε-DP mechanism and y with l(D_i->y) > log 1/min_d p_{D_i}(d) - δ. The tool "
            "constructs one for given (ε, δ) and verifies it (exactly where e^ε is rational, "
            "certified otherwise)."
        ),
        kinds=("W", "C", "P"),
    ),
    Claim(
        id="pml.thm_4_5",
        source=SOURCE,
        result="Theorem 4.5",
        statement=(
            "ε-free-lunch privacy (Def 4.4) ⇔ (1) sup over all priors of l(X->y) ≤ ε ⇔ (2) over "
            "product priors ⇔ (3) sup over all priors of max_i l(D_i->y) ≤ ε; B.2 and B.5 "
            "constructions; as in Remark B.1, the suprema are not attained unless X ⊥ Y."
        ),
        kinds=("P", "L"),
    ),
    Claim(
        id="pml.prop_4_6",
        source=SOURCE,
        result="Proposition 4.6",
        statement=(
            "Laplace mechanism Lap(S/n, b) on a counting query, entries i.i.d. with p ∈ (c, "
            "1-c): for y ≥ 1 and y ≤ 0 the leakage has the closed forms of B.3, so for fixed p "
            "the sup over y is attained; sup_y l(D_i->y) ≤ 1/(nb) - log((1-c) + c·e^{1/(nb)}), "
            "approached (not attained) as p→c or p→1-c; the simplified bound (1-c)/(nb) + "
            "c²/(2n²b²) holds for all nb > 0; the ratio to the DP parameter 1/(nb) tends to 1/2 "
            "as c→1/2 and nb→∞. Note: B.3's step \"y ↦ E_X[exp(-|y - S/n|/b)] increases on (-∞, "
            'p] and decreases on [p, ∞)" is false for small b (n = 2, p = 1/2, b = 0.05: 0.250 '
            "at y = 0, 0.005 at y = 1/4); the proposition must be checked on [0, 1] directly, "
            "not through that step."
        ),
        kinds=("E", "L", "C", "P"),
    ),
    Claim(
        id="pml.ex_3_1",
        source=SOURCE,
        result="Example 3.1",
        statement=(
            "The quantized sample mean of n i.i.d. entries has H_inf → 0 as n grows when the "
            "mean μ lies strictly inside a quantizer cell (→ log 2 when μ is on a boundary c_j); "
            "the first row's entropy does not depend on n. Exact for small n, certified trend."
        ),
        kinds=("E", "C", "P"),
    ),
)


NOT_CHECKABLE: tuple[ListedItem, ...] = (
    ListedItem(
        id="pml.ex_3_2",
        source=SOURCE,
        result="Example 3.2 (insurance example)",
        reason="conceptual, no mathematical statement beyond ex_3_1",
    ),
)
"""Statements of the source listed in ``CLAIMS.md`` that cannot be checked, with why."""
