"""The catalog of claims: every claim id of ``CLAIMS.md`` as plain data.

A :class:`Claim` names one numbered result of a source document (or an unnumbered
statement), says it in words and lists the kinds of evidence its check must produce:

- ``E`` exact instance, ``P`` Hypothesis property on random exact instances,
- ``L`` limit construction, ``W`` explicit witness, ``C`` certified inequality.

The catalog is data only; checks attach to it through :mod:`proofs_check.registry`.
Items the sources state but that cannot be checked are kept in :data:`NOT_CHECKABLE`
with their reasons, so a report can say why they are absent.  The test suite compares
this file with ``CLAIMS.md`` (ids and kinds) so that drift is caught.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

__all__ = [
    "CLAIMS",
    "KINDS",
    "NOT_CHECKABLE",
    "SOURCES",
    "Claim",
    "Kind",
    "ListedItem",
    "Source",
    "catalog_claim",
    "listed_item",
]

Kind = Literal["E", "P", "L", "W", "C"]
"""A kind of evidence: exact instance, property, limit, witness or certified."""

KINDS: tuple[Kind, ...] = get_args(Kind)

KIND_NAMES: dict[str, str] = {
    "E": "exact instance",
    "P": "property on random exact instances",
    "L": "limit construction",
    "W": "explicit witness",
    "C": "certified inequality",
}


@dataclass(frozen=True, slots=True)
class Source:
    """A source document whose claims are checked.

    Attributes:
        prefix: The id prefix of its claims, e.g. ``"pml"``.
        file: The file name in ``seeds/``.
        title: Authors and title, for citation in reports.
    """

    prefix: str
    file: str
    title: str


@dataclass(frozen=True, slots=True)
class Claim:
    """One claim: a stable id, where it comes from, what it says and how it is checked.

    Attributes:
        id: Stable id such as ``"pml.thm_3_5"``.
        source: The document the claim comes from.
        result: Its number in the source, e.g. ``"Theorem 3.5"``.
        statement: The statement in words (as in ``CLAIMS.md``).
        kinds: The kinds of evidence its check must produce, in the listed order.
    """

    id: str
    source: Source
    result: str
    statement: str
    kinds: tuple[Kind, ...]

    @property
    def kinds_text(self) -> str:
        """The kinds as a compact string, e.g. ``"PWL"``."""
        return "".join(self.kinds)


@dataclass(frozen=True, slots=True)
class ListedItem:
    """A statement of a source that is listed but cannot be checked, with the reason."""

    id: str
    source: Source
    result: str
    reason: str


_SOURCE: dict[str, Source] = {
    "pml": Source(
        "pml",
        "004_95043fae0a301e80.txt",
        "Saeidian, Cervia, Oechtering, Skoglund: Rethinking Disclosure Prevention with "
        "Pointwise Maximal Leakage",
    ),
    "vadhan": Source(
        "vadhan",
        "002_ab6863cc5677b341.txt",
        "Vadhan: Notes on the Definition of Differential Privacy",
    ),
    "pk": Source(
        "pk",
        "001_89322ec27b787c78.txt",
        "PhD thesis Lowering the cost of anonymization, §3.1.3 (active vs passive partial "
        "knowledge)",
    ),
    "bldp": Source(
        "bldp",
        "003_76c741995741c13c.txt",
        "Ligett, Peale, Reingold: Bounded-Leakage Differential Privacy",
    ),
}

SOURCES: tuple[Source, ...] = tuple(_SOURCE.values())

CLAIMS: tuple[Claim, ...] = (
    Claim(
        id="pml.thm_2_4",
        source=_SOURCE["pml"],
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
        source=_SOURCE["pml"],
        result="Remark after Theorem 2.4 (2023b, Lemma 1)",
        statement=("Z - X - Y ⇒ l(Z->y) ≤ l(X->y); and 0 ≤ l(X->y) ≤ -log min_x p_X(x)."),
        kinds=("P",),
    ),
    Claim(
        id="pml.thm_2_8",
        source=_SOURCE["pml"],
        result="Theorem 2.8",
        statement=(
            "C(W) = sup_{P_X} sup_y l(X->y) = sup_{P_X} D_inf(P_XY ‖ P_Y×P_X). For finite Y, C is"
            " infinite iff some column mixes zero and non-zero (all-zero columns ignored); for "
            "countable Y it can be infinite without zeros (the thm_3_4 mechanism). Priors putting"
            " 1-t on argmin_x p(y|x) reach the sup as t→0, never attaining it."
        ),
        kinds=("P", "L"),
    ),
    Claim(
        id="pml.def_2_6",
        source=_SOURCE["pml"],
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
        source=_SOURCE["pml"],
        result="Theorem 3.4",
        statement=(
            "Disclosure (Def 3.3: inf_y H_inf(Q_{U|Y=y}) = 0) to one full-support prior ⇒ to all."
            " Finite Y; plus a countable-Y mechanism (e.g. binary X, p(y|0) = 2^{-(y+1)}, p(y|1) "
            "= (1/3)(2/3)^y) where disclosure happens only in the limit y→∞."
        ),
        kinds=("P", "L"),
    ),
    Claim(
        id="pml.thm_3_5",
        source=_SOURCE["pml"],
        result="Theorem 3.5",
        statement=(
            "(A.2): H_inf(P_{U|Y=y}) ≥ H_inf(P_U) - l(U->y) ≥ H_inf(P_U) - l(X->y) for every y; "
            "hence (ε,P_X)-PML and H_inf(P_U) > ε ⇒ U not disclosed to any adversary."
        ),
        kinds=("P",),
    ),
    Claim(
        id="pml.prop_3_6",
        source=_SOURCE["pml"],
        result="Proposition 3.6",
        statement=(
            "U disclosed and non-constant (H_inf(P_U) > 0) ⇒ the W of A.3, built around the value"
            " u* whose posterior tends to 1, with any λ ∈ (threshold, 1), threshold = (max p_U - "
            "p_U(u*))/(1 - p_U(u*)), has H_inf(P_W) < H_inf(P_U) and is disclosed. Build W "
            "exactly; show λ at the threshold fails the strict inequality."
        ),
        kinds=("W", "P"),
    ),
    Claim(
        id="pml.thm_3_7",
        source=_SOURCE["pml"],
        result="Theorem 3.7",
        statement=(
            "C(W) < ∞ ⇒ no non-constant attribute (H_inf(Q_U) > 0) is disclosed to any "
            'full-support Q_X (a constant U is trivially "disclosed": the source\'s statement '
            "needs this hypothesis, and the check says so), and for deterministic non-constant V:"
            " H_inf(Q_{V|Y=y}) ≥ log(1 + q_min/(1-q_min)·e^{-C})."
        ),
        kinds=("P",),
    ),
    Claim(
        id="pml.prop_3_8",
        source=_SOURCE["pml"],
        result="Proposition 3.8",
        statement=(
            "|X| ≥ 2 and C = ∞ ⇒ sup_y l(X->y) ≥ log 1/(1-p_min). The α-mechanism of A.5: l(X->0)"
            " = log 1/(1-p_min), l(X->1) = log 1/(1-α(1-p_min)); it meets log 1/(1-p_min)-PML "
            "exactly for α ∈ (0, min(1, p_min/(1-p_min))] (the tool derives this range), and "
            "discloses U = 1{X ≠ x_min}."
        ),
        kinds=("P", "W"),
    ),
    Claim(
        id="pml.cor_3_10",
        source=_SOURCE["pml"],
        result="Corollary 3.10",
        statement=("(ε,P_X)-PML with ε < H_inf(P_X) ⇒ no singling out (Def 3.9)."),
        kinds=("P",),
    ),
    Claim(
        id="pml.ex_3_11",
        source=_SOURCE["pml"],
        result="Example 3.11",
        statement=(
            'Deterministic answer to "more than m of n i.i.d. entries?": l(X->1) = -log(1 - '
            "Σ_{k≤m} C(n,k)p^k(1-p)^{n-k}) (equal to enumeration for small n), ≤ -log(1 - exp(-n "
            "D_KL(m/n‖p))) for m/n ≤ p; the y = 0 twin l(X->0) ≤ -log(1 - exp(-n D_KL(1-(m+1)/n ‖"
            " 1-p))) for (m+1)/n ≥ p; min_{p∈[0.3,0.7]} H_inf(P_{S_i}) = -log 0.7 ≈ 0.36. Figure "
            "1 (p ∈ {0.3, 0.5}, n ∈ {200, 500, 1000, 2000}) plots the Chernoff upper bounds; "
            "reproduce it, and set the exact values beside it."
        ),
        kinds=("E", "C"),
    ),
    Claim(
        id="pml.thm_4_2",
        source=_SOURCE["pml"],
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
        source=_SOURCE["pml"],
        result="Theorem 4.3",
        statement=(
            "(Cited from Saeidian et al. 2024.) For each δ, ε > 0: a correlated database, an ε-DP"
            " mechanism and y with l(D_i->y) > log 1/min_d p_{D_i}(d) - δ. The tool constructs "
            "one for given (ε, δ) and verifies it (exactly where e^ε is rational, certified "
            "otherwise)."
        ),
        kinds=("W", "C"),
    ),
    Claim(
        id="pml.thm_4_5",
        source=_SOURCE["pml"],
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
        source=_SOURCE["pml"],
        result="Proposition 4.6",
        statement=(
            "Laplace mechanism Lap(S/n, b) on a counting query, entries i.i.d. with p ∈ (c, 1-c):"
            " for y ≥ 1 and y ≤ 0 the leakage has the closed forms of B.3, so for fixed p the sup"
            " over y is attained; sup_y l(D_i->y) ≤ 1/(nb) - log((1-c) + c·e^{1/(nb)}), "
            "approached (not attained) as p→c or p→1-c; the simplified bound (1-c)/(nb) + "
            "c²/(2n²b²) holds for all nb > 0; the ratio to the DP parameter 1/(nb) tends to 1/2 "
            "as c→1/2 and nb→∞. Note: B.3's step \"y ↦ E_X[exp(-|y - S/n|/b)] increases on (-∞, p]"
            ' and decreases on [p, ∞)" is false for small b (n = 2, p = 1/2, b = 0.05: 0.250 at y'
            " = 0, 0.005 at y = 1/4); the proposition must be checked on [0, 1] directly, not "
            "through that step."
        ),
        kinds=("E", "L", "C"),
    ),
    Claim(
        id="pml.ex_3_1",
        source=_SOURCE["pml"],
        result="Example 3.1",
        statement=(
            "The quantized sample mean of n i.i.d. entries has H_inf → 0 as n grows when the mean"
            " μ lies strictly inside a quantizer cell (→ log 2 when μ is on a boundary c_j); the "
            "first row's entropy does not depend on n. Exact for small n, certified trend."
        ),
        kinds=("E", "C"),
    ),
    Claim(
        id="vadhan.max_divergence",
        source=_SOURCE["vadhan"],
        result="Section 2 (max-divergence)",
        statement=("max over sets T of ln(Pr[A∈T]/Pr[B∈T]) equals max over points y."),
        kinds=("P",),
    ),
    Claim(
        id="vadhan.statistical_difference",
        source=_SOURCE["vadhan"],
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
        source=_SOURCE["vadhan"],
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
        source=_SOURCE["vadhan"],
        result="Claim 1",
        statement=(
            "ε-DP ⇒ ε-simulation-DP; ε-simulation-DP ⇒ 2ε-DP. Compute the optimal simulator's ε "
            "exactly for finite mechanisms."
        ),
        kinds=("P",),
    ),
    Claim(
        id="vadhan.prop_1",
        source=_SOURCE["vadhan"],
        result="Proposition 1",
        statement=(
            "ε-DP ⇒ for every prior on X_i and output y, D_inf both ways between prior and "
            "posterior ≤ ε."
        ),
        kinds=("P",),
    ),
    Claim(
        id="vadhan.prop_2",
        source=_SOURCE["vadhan"],
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
    Claim(
        id="pk.prop_8",
        source=_SOURCE["pk"],
        result="Proposition 8 (as used in Section 3.1.3)",
        statement=(
            "(ε,δ)-DP ⇔ E_{O~M(D1)}[max(0, 1 - e^{ε - L(O)})] ≤ δ for all neighbours; equals the "
            "set form max_S P(S) - e^ε Q(S)."
        ),
        kinds=("P",),
    ),
    Claim(
        id="pk.thm_1",
        source=_SOURCE["pk"],
        result="Theorem 1",
        statement=(
            "PPKDP quantity = E_b[δ_A(b)]; APKDP ⇒ PPKDP with the same (ε,δ); for δ = 0 they are "
            "equivalent."
        ),
        kinds=("P",),
    ),
    Claim(
        id="pk.ex_7",
        source=_SOURCE["pk"],
        result="Example 7",
        statement=(
            "Thresholded referendum: 1000 voters, each Yes w.p. p, count released iff count > 100"
            " (else ⊥), attacker knows 100 votes. The thesis's value of p was lost in extraction,"
            " but the text says that with high probability everybody votes No and the known votes"
            " are all No, so p must be very small: take p = 10^-4 and e^ε = 3. Then max_b δ_A(b) "
            "≥ 1/2 while δ_PPK < 10^-100 (APKDP ≫ PPKDP: the implication of thm_1 is strict for δ"
            " > 0). Exact, through the count's sufficient statistic; also at a scale that can be "
            "enumerated, equal to enumeration. The seed gives no numbers to compare with, so this"
            " is a witness and self-consistency check."
        ),
        kinds=("W", "E"),
    ),
    Claim(
        id="pk.thm_2",
        source=_SOURCE["pk"],
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
        source=_SOURCE["pk"],
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
        source=_SOURCE["pk"],
        result="Proposition 25",
        statement=("Post-processing and convexity hold for APKDP and PPKDP."),
        kinds=("P",),
    ),
    Claim(
        id="pk.remark_2",
        source=_SOURCE["pk"],
        result="Remark 2",
        statement=(
            "For counting queries, knowing k of n records ≡ no knowledge with n-k records; false "
            "for thresholded counting, which is not Θ-reducible: δ_A(b1) ≠ δ_A(b2) (e.g. n = 3, "
            "one known record, release iff count > 1, p = 1/2, t = No vs t' = Yes: δ_A(0) = "
            "max(0, 1 - e^ε/2), δ_A(1) = 1/2)."
        ),
        kinds=("E",),
    ),
    Claim(
        id="pk.full_knowledge",
        source=_SOURCE["pk"],
        result="Text after Definition 57 (full knowledge)",
        statement=(
            "When the attacker knows every other record (B = D_{-i}, each d_{-i} possible), the "
            "PLRV with partial knowledge is the classical PLRV and APKDP coincides with (ε, "
            "δ)-DP."
        ),
        kinds=("P",),
    ),
    Claim(
        id="bldp.definition",
        source=_SOURCE["bldp"],
        result="Definition (BLDP)",
        statement=(
            "Exact minimal ε (δ = 0) and δ(ε) of finite instances; with a constant leakage it is "
            "ordinary (ε,δ)-DP."
        ),
        kinds=("E", "P"),
    ),
    Claim(
        id="bldp.post_processing",
        source=_SOURCE["bldp"],
        result="Properties: post-processing",
        statement=(
            "f∘M, with f's own randomness independent of r, keeps (ε,δ)-BLDP w.r.t. the same P."
        ),
        kinds=("P",),
    ),
    Claim(
        id="bldp.composition",
        source=_SOURCE["bldp"],
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
        source=_SOURCE["bldp"],
        result="Properties: group privacy",
        statement=(
            'The poster claims group privacy "analogous to DP": check (kε, k·e^{(k-1)ε}·δ) for '
            "databases at distance k, and report precisely when it holds (e.g. intermediate "
            "databases under which the leakage value has probability zero), with a counterexample"
            " where it does not."
        ),
        kinds=("P", "W"),
    ),
    Claim(
        id="bldp.leak_release",
        source=_SOURCE["bldp"],
        result="Properties: explicit leakage",
        statement=("Releasing (M(x,r), P(x,r)) keeps the BLDP parameters of M."),
        kinds=("P",),
    ),
    Claim(
        id="bldp.independent_leakage",
        source=_SOURCE["bldp"],
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
        source=_SOURCE["bldp"],
        result="Scenario 2 (non-participation)",
        statement=(
            "Scenario 2 (studies on a whole population, leakage = an upper bound on how many "
            "studies an individual joined): the poster's formulas were lost. Define the model "
            "explicitly (k studies, each ε-DP on its participants; leakage = the participation "
            "count bound) and check that the loss is bounded in terms of that bound, not the "
            'number of studies; or report "not checkable: statement lost".'
        ),
        kinds=("W",),
    ),
)

NOT_CHECKABLE: tuple[ListedItem, ...] = (
    ListedItem(
        id="pml.ex_3_2",
        source=_SOURCE["pml"],
        result="Example 3.2 (insurance example)",
        reason="conceptual, no mathematical statement beyond ex_3_1",
    ),
    ListedItem(
        id="pk.remark_1",
        source=_SOURCE["pk"],
        result="Remark 1 (IBDDP)",
        reason="its formulas were lost in extraction",
    ),
    ListedItem(
        id="vadhan.remark_approximate",
        source=_SOURCE["vadhan"],
        result="Remark after Proposition 2 (generalization to (ε, δ))",
        reason="no precise statement is given",
    ),
)

_BY_ID: dict[str, Claim] = {claim.id: claim for claim in CLAIMS}
_LISTED_BY_ID: dict[str, ListedItem] = {item.id: item for item in NOT_CHECKABLE}


def catalog_claim(claim_id: str) -> Claim | None:
    """The catalog's claim with this id, or ``None`` if the catalog has none.

    >>> catalog_claim("pml.thm_3_5").result
    'Theorem 3.5'
    >>> catalog_claim("pml.thm_9_9") is None
    True
    """
    return _BY_ID.get(claim_id)


def listed_item(item_id: str) -> ListedItem | None:
    """The listed-but-not-checkable item with this id, or ``None``.

    >>> listed_item("pml.ex_3_2").reason
    'conceptual, no mathematical statement beyond ex_3_1'
    """
    return _LISTED_BY_ID.get(item_id)
