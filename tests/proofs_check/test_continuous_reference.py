"""Prop 4.6 of Saeidian et al. against a reference written from the definition
(``proofs_check.reference.continuous``): densities of the Laplace mechanism summed over every
database in arb balls, never exactpml's piecewise analysis.

Expected values come from the definition worked by hand (Thm 2.4 with densities) and from
B.3's closed form for y >= 1, w/((1-p) + p w) with w = e^{1/(nb)}, as printed in the paper.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy
from flint import arb, ctx

from exactpml import LogValue
from exactpml.instances.laplace_counting import entry_leakage_at, sup_entry_leakage_over_outputs
from proofs_check import CheckContext
from proofs_check.claims.pml import laplace_counting_query as prop
from proofs_check.reference import laplace_counting_entry_ratios, laplace_density


def test_the_laplace_density_by_hand() -> None:
    # Lap(0, 1/2) at y = 1: e^{-2} / 1
    assert laplace_density(Fraction(0), Fraction(1, 2), Fraction(1)).contains(arb(-2).exp())
    assert not laplace_density(Fraction(0), Fraction(1, 2), Fraction(1)).contains(arb(1))


def test_one_record_by_hand() -> None:
    # n = 1, b = 1, p = 1/2: p(1|x=1) = 1/2, p(1|x=0) = e^{-1}/2, p_Y(1) = (1 + e^{-1})/4:
    # ratios 2e^{-1}/(1 + e^{-1}) = 2/(e + 1) for d = 0 and 2/(1 + e^{-1}) = 2e/(e + 1) for d = 1
    low, high, best = laplace_counting_entry_ratios(1, Fraction(1), Fraction(1, 2), Fraction(1))
    with ctx.workprec(128):
        e = arb(1).exp()
        for computed, expected in ((low, 2 / (e + 1)), (high, 2 * e / (e + 1)), (best, 2 * e / (e + 1))):
            assert (computed - expected).contains(0)
            assert (computed - expected).rad() < arb(2) ** -100


def test_b3_closed_form_above_one() -> None:
    # n = 2, b = 1, p = 1/3, y = 3/2 >= 1: exp l(D_1->y) = w/((1-p) + p w), w = e^{1/2} (B.3)
    with ctx.workprec(128):
        w = (arb(1) / 2).exp()
        expected = w / (arb(2) / 3 + w / 3)
    best = laplace_counting_entry_ratios(2, Fraction(1), Fraction(1, 3), Fraction(3, 2))[2]
    assert (best - expected).contains(0) and (best - expected).rad() < arb(2) ** -100


def _quick() -> CheckContext:
    return CheckContext(claim_id="pml.prop_4_6", profile="quick", examples=50)


def test_the_library_agrees_with_the_reference_on_random_cases() -> None:
    evidence = prop._reference_evidence(_quick(), entry_leakage_at)
    assert evidence.passed is True, evidence.summary
    assert evidence.stats is not None and evidence.stats.tried == 10
    assert evidence.stats.scope is not None and evidence.stats.scope.tried == 6


def test_b3_shortcut_everywhere_is_caught() -> None:
    """B.3's "it suffices to consider y > 1 and y < 0", used as the value at every y (the
    y >= 1 closed form): the comparison with the reference must fail, with the numbers."""

    def shortcut(n: int, b: Fraction, p: Fraction, y: Fraction) -> LogValue:
        w = sympy.exp(sympy.Rational(1) / (n * sympy.Rational(b.numerator, b.denominator)))
        q = sympy.Rational(p.numerator, p.denominator)
        return LogValue(w / ((1 - q) + q * w))

    evidence = prop._reference_evidence(_quick(), shortcut)
    assert evidence.passed is False
    assert evidence.counterexample is not None
    assert "library exp l(D_1->y)" in evidence.counterexample
    assert "reference max(p(y|D_1=0), p(y|D_1=1))/p_Y(y)" in evidence.counterexample


@dataclass(frozen=True)
class _Witness:
    output: Fraction


@dataclass(frozen=True)
class _Supremum:
    witness: _Witness


def test_the_supremum_over_the_interval_is_checked_against_the_reference() -> None:
    n, b, p = 2, Fraction(1, 20), Fraction(1, 2)
    supremum = sup_entry_leakage_over_outputs(n, b, p, lower=0, upper=1)
    assert prop._supremum_against_reference(n, b, p, supremum, supremum.value) is None
    # a supremum 1/1000 too small is below the reference at its own witness
    smaller = LogValue(supremum.value.ratio * sympy.Rational(999, 1000))
    problem = prop._supremum_against_reference(n, b, p, supremum, smaller)
    assert problem is not None and "the reference gives" in problem
    # a witness that is not a maximiser: the reference at y = 1/2 (p = 1/2: the two
    # conditional densities tie there) is below the supremum at the ends
    inner = _Supremum(_Witness(Fraction(1, 2)))
    problem = prop._supremum_against_reference(n, b, p, inner, supremum.value)
    assert problem is not None and "y* = 1/2" in problem
