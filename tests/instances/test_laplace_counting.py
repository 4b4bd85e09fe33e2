"""Tests of Prop 4.6 (Laplace mechanism on a counting query): the closed forms of App. B.3,
the exact supremum over outputs decided piece by piece between the atoms k/n, the false
monotonicity step of B.3 for small b, and the supremum over 𝒫_c^f."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpml.continuous import pointwise_maximal_leakage_at
from exactpml.core import certify
from exactpml.errors import InvalidArgument, Undecided
from exactpml.instances.laplace_counting import (
    entry_leakage_at,
    entry_leakage_closed_forms,
    iid_prior,
    laplace_counting_query,
    sup_entry_leakage_over_iid,
    sup_entry_leakage_over_outputs,
)
from exactpml.suprema.witnesses import Construction

CASES = [
    (2, Fraction(1, 20), Fraction(1, 2)),
    (2, Fraction(1), Fraction(1, 2)),
    (3, Fraction(1, 10), Fraction(3, 10)),
    (4, Fraction(1, 50), Fraction(1, 2)),
    (5, Fraction(2), Fraction(1, 7)),
]


@pytest.mark.parametrize(("n", "b", "p"), CASES)
def test_closed_forms_hold_beyond_the_atoms(n, b, p):
    above, below = entry_leakage_closed_forms(n, b, p)
    for y in (Fraction(1), Fraction(3, 2), Fraction(7)):
        assert entry_leakage_at(n, b, p, y) == above
    for y in (Fraction(0), Fraction(-1, 3), Fraction(-5)):
        assert entry_leakage_at(n, b, p, y) == below
    w = sympy.exp(1 / sympy.Rational(n * b.numerator, b.denominator))
    q = sympy.Rational(p.numerator, p.denominator)
    closed = 1 / (n * sympy.Rational(b.numerator, b.denominator)) - sympy.log((1 - q) + q * w)
    assert certify.compare(above.to_sympy(), closed) == 0


@settings(max_examples=10, deadline=None)
@given(
    st.integers(1, 3),
    st.sampled_from([Fraction(1, 10), Fraction(1, 2), Fraction(2)]),
    st.fractions(min_value=Fraction(1, 10), max_value=Fraction(9, 10), max_denominator=10),
    st.fractions(min_value=-1, max_value=2, max_denominator=6),
)
def test_sufficient_statistics_agree_with_the_explicit_mechanism(n, b, p, y):
    mechanism = laplace_counting_query(n, b)
    explicit = pointwise_maximal_leakage_at(mechanism, iid_prior(n, p), y, attribute=lambda x: x[0])
    assert entry_leakage_at(n, b, p, y) == explicit


@pytest.mark.parametrize(("n", "b", "p"), CASES)
def test_sup_over_outputs_is_the_largest_atom_and_dominates_the_interior(n, b, p):
    result = sup_entry_leakage_over_outputs(n, b, p)
    assert result.attained
    atoms = [entry_leakage_at(n, b, p, Fraction(k, n)) for k in range(n + 1)]
    assert any(result.value == value for value in atoms)
    assert all(value <= result.value for value in atoms)
    for k in range(4 * n + 1):
        assert entry_leakage_at(n, b, p, Fraction(k, 4 * n) + Fraction(1, 97 * n)) <= result.value
    above, below = entry_leakage_closed_forms(n, b, p)
    assert result.value == max(
        above, below, key=lambda v: certify.enclosure(v.to_sympy(), 64).mid()
    )


def test_b3_monotonicity_step_fails_for_small_b():
    """CLAIMS pml.prop_4_6: y -> E_X[exp(-|y - S/n|/b)] is not increasing on (-oo, p] for
    n = 2, p = 1/2, b = 1/20: 1/4 (about) at y = 0, about 0.005 at y = 1/4 <= p."""
    n, b, p = 2, sympy.Rational(1, 20), sympy.Rational(1, 2)

    def expectation(y):
        return sum(
            comb(n, k) * p**k * (1 - p) ** (n - k) * sympy.exp(-abs(y - sympy.Rational(k, n)) / b)
            for k in range(n + 1)
        )

    at_zero, at_quarter = expectation(0), expectation(sympy.Rational(1, 4))
    assert certify.compare(at_zero, at_quarter) > 0
    assert certify.decimal(at_zero, 3) == "0.250" and certify.decimal(at_quarter, 2) == "0.0051"


def test_sup_over_outputs_for_eight_entries():
    result = sup_entry_leakage_over_outputs(8, Fraction(1, 10), Fraction(1, 3))
    above, below = entry_leakage_closed_forms(8, Fraction(1, 10), Fraction(1, 3))
    assert result.attained and result.value == max(above, below, key=lambda v: v.decimal(20))


@pytest.mark.parametrize(
    ("n", "b", "c"),
    [
        (2, Fraction(1, 20), Fraction(1, 10)),
        (3, Fraction(1, 10), Fraction(1, 5)),
        (4, Fraction(1), Fraction(0)),
    ],
)
def test_sup_over_the_iid_family_is_approached_as_p_tends_to_c(n, b, c):
    result = sup_entry_leakage_over_iid(n, b, c)
    w = sympy.exp(1 / sympy.Rational(n * b.numerator, b.denominator))
    cq = sympy.Rational(c.numerator, c.denominator)
    assert result.value.compare(sympy.log(w / ((1 - cq) + cq * w))) == 0
    assert not result.attained
    construction = result.witness
    assert isinstance(construction, Construction) and construction.to == "0+"
    assert certify.compare(construction.limit, result.value.ratio) == 0
    for p in (c + Fraction(1, 1000), Fraction(1, 2), 1 - c - Fraction(1, 1000)):
        assert sup_entry_leakage_over_outputs(n, b, p).value < result.value


@pytest.mark.parametrize(("n", "b", "p"), CASES)
def test_sup_over_the_unit_interval_is_decided_piece_by_piece(n, b, p):
    """CLAIMS pml.prop_4_6: check [0, 1] directly; it never exceeds the B.3 closed forms."""
    inside = sup_entry_leakage_over_outputs(n, b, p, lower=0, upper=1)
    whole = sup_entry_leakage_over_outputs(n, b, p)
    assert inside.value == whole.value  # the ends 0 and 1 carry the closed forms
    strict = sup_entry_leakage_over_outputs(
        n, b, p, lower=Fraction(1, 3 * n), upper=1 - Fraction(1, 3 * n)
    )
    assert strict.value <= whole.value
    values = [
        entry_leakage_at(n, b, p, Fraction(1, 3 * n) + Fraction(j, 7 * n))
        for j in range(0, 7 * n - 4)
    ]
    assert all(v <= strict.value for v in values)
    assert strict.witness.leakage() == strict.value


# --- the interior atoms through exact polynomials (rational b) -----------------------------
def _old_h(n: int, b: Fraction, k: int, d: int, c: Fraction, p: Fraction) -> sympy.Expr:
    """h_d(p) = bound p_Y(k/n) − p(k/n | d), times 2b, as the sympy path builds it."""
    from exactpml.instances.laplace_counting import _sums

    w = sympy.exp(1 / sympy.Rational(n * b.numerator, b.denominator))
    cq = sympy.Rational(c.numerator, c.denominator)
    bound = w / ((1 - cq) + cq * w)
    y = Fraction(k, n)
    given_d, total = _sums(
        n, sympy.Rational(b.numerator, b.denominator), sympy.Rational(p.numerator, p.denominator), y
    )
    return bound * total.at(y) - given_d[d].at(y)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_atom_polynomials_have_the_sign_of_the_sympy_expression(n):
    from flint import fmpq

    from exactpml.instances.laplace_counting import _atom_polynomials, _exact_sign

    for b, c in ((Fraction(1), Fraction(1, 4)), (Fraction(1, 20), Fraction(0))):
        for k in range(1, n):
            for d in (0, 1):
                terms = _atom_polynomials(n, k, d, c)
                for p in (c, Fraction(1, 3), Fraction(1, 2), 1 - c, Fraction(1, 100)):
                    x = fmpq(p.numerator, p.denominator)
                    new = _exact_sign([t(x) for t in terms], 1 / (n * b))
                    old = certify.sign(_old_h(n, b, k, d, c, p))
                    assert new == old, (n, b, c, k, d, p)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_polynomial_prover_agrees_with_the_sympy_prover(n):
    from exactpml.instances.laplace_counting import (
        _prove_atom_below,
        _prove_atom_below_by_polynomials,
    )

    p = sympy.Symbol("p", positive=True)
    for b, c in ((Fraction(1), Fraction(1, 4)), (Fraction(1, 10), Fraction(0))):
        w = sympy.exp(1 / sympy.Rational(n * b.numerator, b.denominator))
        cq = sympy.Rational(c.numerator, c.denominator)
        for k in range(1, n):
            _prove_atom_below(
                n, sympy.Rational(b.numerator, b.denominator), k, w / ((1 - cq) + cq * w), c, p, 40
            )
            assert _prove_atom_below_by_polynomials(n, b, k, c, 40) > 0  # boxes examined
        result = sup_entry_leakage_over_iid(n, b, c)
        assert result.value.compare(sympy.log(w / ((1 - cq) + cq * w))) == 0
        assert not result.attained


@pytest.mark.parametrize("n", [2, 3, 6, 20])
def test_a_false_smaller_bound_is_refuted_not_proved(n):
    from exactpml.instances.laplace_counting import (
        _prove_atom_below,
        _prove_atom_below_by_polynomials,
    )

    # Over p in [1/100, 99/100] the atoms reach beyond the bound of c = 1/4 (the bound is
    # decreasing in c), so this statement is false and must raise, never pass.
    for k in range(1, n):
        with pytest.raises(Undecided, match=r"exceeds the bound|not below the bound"):
            _prove_atom_below_by_polynomials(
                n, Fraction(1), k, Fraction(1, 100), 40, bound_c=Fraction(1, 4)
            )
    if n <= 3:
        w = sympy.exp(sympy.Rational(1, n))
        false_bound = w / (sympy.Rational(3, 4) + w / 4)
        with pytest.raises(Undecided):
            _prove_atom_below(
                n, sympy.Integer(1), 1, false_bound, Fraction(1, 100), sympy.Symbol("p"), 40
            )


def test_sup_over_the_iid_family_at_twenty_entries():
    result = sup_entry_leakage_over_iid(20, 1, "1/4")
    w = sympy.exp(sympy.Rational(1, 20))
    assert result.value.compare(sympy.log(w / (sympy.Rational(3, 4) + w / 4))) == 0
    assert not result.attained


def test_sympy_and_polynomial_methods_give_the_same_supremum():
    for n in (2, 3, 4):
        fast = sup_entry_leakage_over_iid(n, 1, "1/4", method="polynomial")
        slow = sup_entry_leakage_over_iid(n, 1, "1/4", method="sympy")
        assert fast.value == slow.value and fast.attained == slow.attained is False
        assert certify.compare(fast.witness.limit, slow.witness.limit) == 0
    with pytest.raises(InvalidArgument, match="method"):
        sup_entry_leakage_over_iid(2, 1, "1/4", method="fast")
    with pytest.raises(InvalidArgument, match="rational scale"):
        sup_entry_leakage_over_iid(2, sympy.sqrt(2), "1/4", method="polynomial")
