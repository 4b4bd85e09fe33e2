"""The rational fast path of the suprema's constructions against the sympy reference path.

For a rational mechanism :mod:`exactpml.suprema.leakage_suprema` builds the leakage along
each construction from polynomials with ``Fraction`` coefficients
(:mod:`exactpml.suprema._polynomials`) and reads its limit t -> 0+ off the lowest-order
coefficients.  Inside ``_sympy_reference_path()`` the same suprema are computed the old way
(symbolic prior -> sympy ``Poly`` -> limit engine).  Both must agree exactly: the same value
(as an exact ``LogValue``), ``attained``, parts, and for a construction the same expression
(structurally equal sympy trees), the same limit (value and type) and the same members.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpml import Mechanism
from exactpml import strategies as xst
from exactpml.core.exact import as_scalar, to_sympy
from exactpml.numerics import limits
from exactpml.suprema import sup_conditional_pml, sup_entry_leakage, sup_pml
from exactpml.suprema._polynomials import (
    concentrating_factor,
    limit_at_zero,
    polynomial_expression,
    polynomial_product,
    polynomial_sum,
    scaled,
    weight_product,
    weighted_sum,
)
from exactpml.suprema.constructions import (
    concentrating_kernel_prior,
    concentrating_prior,
    concentrating_product_prior,
)
from exactpml.suprema.families import FullSupportPriors, ProductPriors
from exactpml.suprema.leakage_suprema import _sympy_reference_path
from exactpml.suprema.witnesses import Construction, Supremum

t = sympy.Symbol("t", positive=True)
_MECHANISMS = st.one_of(
    xst.tuple_mechanisms(max_inputs=9, max_outputs=3),
    xst.tuple_mechanisms(max_inputs=9, max_outputs=3, zeros=False),
)
_STEPS = ("1/10", "1/1000")


def _same(fast: Supremum, reference: Supremum) -> None:
    assert fast.value == reference.value
    assert type(fast.value.ratio) is type(reference.value.ratio)
    assert fast.attained == reference.attained
    assert (fast.quantity, fast.source) == (reference.quantity, reference.source)
    assert len(fast.parts) == len(reference.parts)
    for part, other in zip(fast.parts, reference.parts, strict=True):
        _same(part, other)
    if not isinstance(reference.witness, Construction):
        assert fast.witness == reference.witness
        return
    built, expected = fast.witness, reference.witness
    assert isinstance(built, Construction)
    assert built.expression == expected.expression
    assert built.limit == expected.limit and type(built.limit) is type(expected.limit)
    assert (built.name, built.source, built.parameter, built.to, built.domain) == (
        expected.name,
        expected.source,
        expected.parameter,
        expected.to,
        expected.domain,
    )
    for step in _STEPS:
        assert built.at(step).prior == expected.at(step).prior


def _families(mechanism: Mechanism) -> list[FullSupportPriors | ProductPriors]:
    alphabet = tuple(dict.fromkeys(d for x in mechanism.inputs for d in x))  # type: ignore[attr-defined]
    return [FullSupportPriors(mechanism.inputs), ProductPriors(alphabet, len(mechanism.inputs[0]))]  # type: ignore[arg-type]


def _every_supremum_agrees(mechanism):
    """Thm 4.2/4.5's three suprema over each family: the fast path equals the sympy path."""
    for family in _families(mechanism):
        for supremum in (sup_pml, sup_entry_leakage, sup_conditional_pml):
            fast = supremum(mechanism, family)
            with _sympy_reference_path():
                reference = supremum(mechanism, family)
            _same(fast, reference)


@settings(max_examples=150, deadline=None)
@given(_MECHANISMS)
def test_the_fast_path_equals_the_sympy_path_on_random_database_mechanisms(mechanism):
    _every_supremum_agrees(mechanism)


@settings(max_examples=40, deadline=None)
@given(xst.mechanisms(min_inputs=1, max_inputs=5, max_outputs=4))
def test_the_fast_path_equals_the_sympy_path_for_thm_2_8(mechanism):
    family = FullSupportPriors(mechanism.inputs)
    fast = sup_pml(mechanism, family)
    with _sympy_reference_path():
        reference = sup_pml(mechanism, family)
    _same(fast, reference)


def test_an_irrational_mechanism_takes_the_sympy_path():
    root = sympy.sqrt(2) / 4
    mechanism = Mechanism(
        {
            (0, 0): {0: Fraction(1, 4), 1: Fraction(3, 4)},
            (0, 1): {0: root, 1: 1 - root},
            (1, 0): {0: Fraction(1, 2), 1: Fraction(1, 2)},
            (1, 1): {0: Fraction(1, 3), 1: Fraction(2, 3)},
        },
        outputs=[0, 1],
    )
    _every_supremum_agrees(mechanism)


# --- the polynomials themselves --------------------------------------------------------------


_COEFFICIENTS = st.lists(st.fractions(max_denominator=7).map(Fraction), max_size=4)


def _poly(coefficients: list[Fraction]) -> tuple[Fraction, ...]:
    return polynomial_sum([tuple(coefficients)])


@settings(max_examples=200, deadline=None)
@given(_COEFFICIENTS, _COEFFICIENTS, _COEFFICIENTS)
def test_polynomial_arithmetic_and_expressions_agree_with_sympy_poly(a, b, c):
    p, q, r = _poly(a), _poly(b), _poly(c)
    expected = sympy.Poly(polynomial_expression(p, t), t) * sympy.Poly(
        polynomial_expression(q, t), t
    ) + sympy.Poly(polynomial_expression(r, t), t) * sympy.Rational(2, 3)
    found = polynomial_sum([polynomial_product(p, q), scaled(r, Fraction(2, 3))])
    assert polynomial_expression(found, t) == expected.as_expr()
    assert polynomial_expression(p, t) == sympy.Poly(list(reversed(p)) or [0], t).as_expr()


@settings(max_examples=200, deadline=None)
@given(_COEFFICIENTS, _COEFFICIENTS)
def test_the_limit_at_zero_equals_the_limit_engine(a, b):
    numerator, denominator = _poly(a), _poly(b)
    if not denominator:
        with pytest.raises(Exception, match="zero polynomial"):
            limit_at_zero(numerator, denominator)
        return
    expression = polynomial_expression(numerator, t) / polynomial_expression(denominator, t)
    expected = limits.limit(expression, t, "0+", domain=(0, 1))
    found = limit_at_zero(numerator, denominator)
    assert found == expected and type(found) is type(expected)


def test_the_concentrating_factors():
    one = Fraction(1)
    assert polynomial_expression(weighted_sum([(one, concentrating_factor(True, 2))]), t) == 1 - t
    assert polynomial_expression(weighted_sum([(one, concentrating_factor(False, 2))]), t) == t / 2


_WEIGHTS = st.tuples(
    st.fractions(min_value=-2, max_value=2, max_denominator=5).map(Fraction),
    st.tuples(
        st.fractions(min_value=0, max_value=1, max_denominator=5).map(Fraction),
        st.integers(0, 3),
        st.integers(0, 3),
    ),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_WEIGHTS, max_size=6), st.lists(_WEIGHTS.map(lambda w: w[1]), max_size=3))
def test_weighted_sums_and_products_are_the_expanded_sympy_sums(terms, factors):
    expected = sum(
        (to_sympy(s) * to_sympy(c) * t**b * (1 - t) ** a for s, (c, b, a) in terms),
        sympy.S.Zero,
    )
    assert polynomial_expression(weighted_sum(terms), t) == sympy.expand(expected)
    c, b, a = weight_product(*factors)
    assert sympy.expand(to_sympy(c) * t**b * (1 - t) ** a) == sympy.expand(
        sympy.Mul(*(to_sympy(f[0]) * t ** f[1] * (1 - t) ** f[2] for f in factors))
    )


# --- the members at a rational t stay in Fraction --------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 3),
    st.integers(2, 3),
    st.data(),
    st.sampled_from([Fraction(1, 10), Fraction(1, 1000), Fraction(2, 3)]),
)
def test_members_at_a_rational_t_equal_the_symbolic_prior_there(size, n, data, value):
    letters = list(range(size))
    rests = list(itertools.product(letters, repeat=n - 1))
    entry = data.draw(st.integers(0, n - 1))
    high, low = data.draw(st.sampled_from(letters)), data.draw(st.sampled_from(letters))
    high_rest, low_rest = data.draw(st.sampled_from(rests)), data.draw(st.sampled_from(rests))
    favoured = data.draw(st.sampled_from(list(itertools.product(letters, repeat=n))))
    pairs = [
        (
            concentrating_kernel_prior(letters, n, entry, high, low, high_rest, low_rest, value),
            concentrating_kernel_prior(letters, n, entry, high, low, high_rest, low_rest, t),
        ),
        (
            concentrating_product_prior(letters, favoured, value),
            concentrating_product_prior(letters, favoured, t),
        ),
        (concentrating_prior(letters, low, value), concentrating_prior(letters, low, t)),
    ]
    for member, symbolic in pairs:
        assert all(type(p) is Fraction for p in member.probabilities)
        assert member.outcomes == symbolic.outcomes
        assert list(member.probabilities) == [
            as_scalar(to_sympy(p).subs(t, to_sympy(value))) for p in symbolic.probabilities
        ]
