"""Thms 4.2 and 4.5 of Saeidian et al.: the library's entry leakage against the reference
on random and correlated priors (``proofs_check.claims.pml._entry_references``).

The expected values are computed by hand from Def 2.2 / Thm 2.4 (Bayes' rule on the
channel D_i -> Y) and Defs 4.1, 4.4, never by exactpml.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from exactpml import Distribution
from exactpml.database import DatabaseSpace
from exactpml.structured import PerRecordMechanism, randomized_response
from proofs_check import CheckContext
from proofs_check import reference as ref
from proofs_check.claims.pml._entry_references import entry_bound_evidence
from proofs_check.claims.pml.section_4 import thm_4_2, thm_4_5

SPACE = DatabaseSpace([0, 1], 2)
TIED = Distribution({(0, 0): "1/4", (0, 1): 0, (1, 0): 0, (1, 1): "3/4"})
"""Both entries equal: a correlated two-point prior."""


def _randomized_response(ratio: int) -> PerRecordMechanism:
    return PerRecordMechanism(SPACE, randomized_response([0, 1], ratio))


def _quick(claim: str, mutant: str | None = None) -> CheckContext:
    return CheckContext(claim_id=claim, profile="quick", examples=50, mutant=mutant)


def test_reference_entry_leakage_of_a_tied_prior_by_hand() -> None:
    kernel = _randomized_response(2).explicit().mechanism
    masses = {x: TIED[x] for x in kernel.inputs}
    # each bit kept w.p. 2/3: p((0,0)|(0,0)) = 4/9, p((0,0)|(1,1)) = 1/9;
    # p_Y((0,0)) = 1/4·4/9 + 3/4·1/9 = 7/36; P(D_1 = 0 | y) / P(D_1 = 0) = (4/9)/(7/36) = 16/7
    assert ref.output_mass(kernel, TIED, (0, 0)) == Fraction(7, 36)
    assert ref.entry_pml_ratio(kernel, masses, (0, 0), 0) == Fraction(16, 7)
    # D_1 = 1: (1/9)/(7/36) = 4/7 < 16/7; the DP ratio at (0, 0) is (4/9)/(2/9) = 2
    assert ref.entry_pml_terms(kernel, masses, (0, 0), 0) == [Fraction(16, 7), Fraction(4, 7)]
    assert ref.dp_ratio(kernel, (0, 0)) == 2
    assert ref.free_lunch_ratio(kernel, (0, 0)) == 4


def test_product_priors_are_recognised_exactly() -> None:
    product = {
        x: (Fraction(1, 3) if x[0] else Fraction(2, 3)) * (Fraction(1, 4) if x[1] else Fraction(3, 4))
        for x in itertools.product((0, 1), repeat=2)
    }
    assert sum(product.values()) == 1
    assert ref.is_product_prior(product, 2)
    assert not ref.is_product_prior({x: TIED[x] for x in product}, 2)
    # a two-point prior on neighbours is a product (one entry fixed)
    assert ref.is_product_prior({(0, 0): Fraction(1, 4), (0, 1): Fraction(3, 4),
                                 (1, 0): Fraction(0), (1, 1): Fraction(0)}, 2)


def test_the_evidence_holds_unmutated_for_both_theorems() -> None:
    dp = entry_bound_evidence(
        _quick("pml.thm_4_2"), bound="dp", product_only=True, prior_kind=None,
        with_conditional=True, with_whole=False,
    )
    free_lunch = entry_bound_evidence(
        _quick("pml.thm_4_5"), bound="free_lunch", product_only=False, prior_kind="joint",
        with_conditional=False, with_whole=True,
    )
    for evidence in (dp, free_lunch):
        assert evidence.passed is True, evidence.summary
        assert evidence.stats is not None and evidence.stats.tried == 25
        assert evidence.stats.scope is not None and evidence.stats.scope.tried == 48
    assert "equal the reference's" in dp.summary and "l(D_i->y | d_-i)" in dp.summary
    assert "free-lunch ratio" in free_lunch.summary and "l(X->y)" in free_lunch.summary


def test_dp_for_every_correlated_prior_fails_with_a_rebuildable_counterexample() -> None:
    """The false variant of issue 24 (ε-DP bounds l(D_i->y) for every correlated prior):
    refuted by the small scope at randomized response e^ε = 2 with the tied prior TIED."""
    for evidence in (
        entry_bound_evidence(
            _quick("pml.thm_4_2", "correlated_priors_in_3"), bound="dp", product_only=False,
            prior_kind=None, with_conditional=True, with_whole=False,
        ),
        entry_bound_evidence(
            _quick("pml.thm_4_5", "dp_ratio_in_3"), bound="free_lunch", entry_bound="dp",
            product_only=False, prior_kind="joint", with_conditional=False, with_whole=True,
        ),
    ):
        assert evidence.passed is False
        assert evidence.stats is not None and evidence.stats.found_by == "small-scope"
        counterexample = evidence.counterexample or ""
        rebuilt = (_randomized_response(2).explicit(), TIED)
        assert repr(rebuilt[0].mechanism) in counterexample and repr(TIED) in counterexample
        assert "y=(0, 0), i=0: l(D_i->y) = log 16/7 > log 2" in counterexample


def test_the_checks_carry_the_reference_evidence() -> None:
    for check, claim in ((thm_4_2, "pml.thm_4_2"), (thm_4_5, "pml.thm_4_5")):
        evidence = check(_quick(claim))
        found = [e for e in evidence if "equal the reference's" in e.summary]
        assert len(found) == 1 and found[0].passed is True, claim


def test_ratio_over_pairs_matches_the_quotients_of_the_definition() -> None:
    """The integer cross products of ``ratio_over_pairs`` give the maximum of the quotients
    p(y|x)/p(y|x') written out one by one (Def 4.1), on random rational laws with zeros
    (a positive entry over a zero is +∞: None) and on laws with a sympy value."""
    import random

    import sympy

    rng = random.Random(4)
    for _ in range(300):
        inputs, outputs = rng.randint(1, 4), rng.randint(1, 4)
        rows = {
            x: [Fraction(rng.choice((0, 0, 1, 2, 3, 7)), rng.randint(1, 9)) for _ in range(outputs)]
            for x in range(inputs)
        }
        pairs = [(x, x2) for x in range(inputs) for x2 in range(inputs) if x != x2]
        expected: Fraction | None = Fraction(1)
        for x, x2 in pairs:
            for high, low in zip(rows[x], rows[x2], strict=True):
                if high and not low:
                    expected = None
                if high and low and expected is not None:
                    expected = max(expected, high / low)
        got = ref.ratio_over_pairs(pairs, range(outputs), lambda x, y, rows=rows: rows[x][y])
        if expected is None:
            assert got is None
        else:
            assert got == expected and type(got) is Fraction
    half = sympy.Rational(1, 2)
    symbolic = {0: [half, half], 1: [sympy.Rational(1, 4), sympy.Rational(3, 4)]}
    assert ref.ratio_over_pairs([(0, 1), (1, 0)], range(2), lambda x, y: symbolic[x][y]) == 2
