"""Exact scalars: conversion and three-valued sign tests that never trust low precision."""

from fractions import Fraction

import sympy

from exactpml import Distribution, LogValue
from exactpml.core.decisions import prove_nonnegative, prove_positive, prove_zero

# F = sum_{k<=200} C(2000,k) 2^-2000 ~ 1e-322 (issue 3's trap); exact rational.
F = sympy.Rational(sum(sympy.binomial(2000, k) for k in range(201)), 2**2000)


def test_closed_numbers_are_signed_by_certified_arithmetic_not_sympy_guesses():
    # log(1 - F) < log(1 - F/2) exactly; sympy 1.14's is_positive says True for both orders.
    smaller = sympy.log(1 - F) - sympy.log(1 - F / 2)
    assert prove_positive(smaller) is False
    assert prove_positive(-smaller) is True
    assert prove_nonnegative(smaller) is False


def test_an_exact_zero_written_transcendentally_is_proved_zero():
    assert prove_zero(sympy.log(6) - sympy.log(2) - sympy.log(3)) is True
    assert prove_zero(sympy.sqrt(2) ** 2 - 2) is True


def test_irrational_probabilities_are_accepted_when_they_sum_to_one():
    third = 1 - 1 / sympy.sqrt(2)
    distribution = Distribution({"a": 1 / sympy.sqrt(2), "b": third})
    assert distribution.conditions == ()
    assert LogValue(2) > LogValue(sympy.sqrt(2))


def test_symbolic_sign_uses_assumptions():
    t = sympy.Symbol("t", positive=True)
    assert prove_positive(t + 1) is True
    assert prove_nonnegative(1 - t) is None
    assert prove_zero(Fraction(0)) is True


def test_exact_sum_adds_rationals_over_their_common_denominator_exactly() -> None:
    """``exact_sum`` adds rational terms as integers over the lcm of the denominators; the
    result is Python's own Fraction sum, term by term (independent computation), on random
    terms of up to 30 digits, signs mixed, with the empty and one-term sums, and a symbolic
    term kept beside the rational total."""
    import random

    import sympy

    from exactpml.core.exact import exact_sum

    rng = random.Random(7)
    for _ in range(3000):
        terms = [
            Fraction(rng.randint(-(10 ** rng.randint(1, 30)), 10 ** rng.randint(1, 30)),
                     rng.randint(1, 10 ** rng.randint(1, 30)))
            for _ in range(rng.randint(0, 12))
        ]
        expected = Fraction(0)
        for term in terms:
            expected += term
        total = exact_sum(terms)
        assert type(total) is Fraction and total == expected
        assert (total.numerator, total.denominator) == (expected.numerator, expected.denominator)
    assert exact_sum([Fraction(1, 2), sympy.sqrt(2), Fraction(1, 3)]) == sympy.Rational(5, 6) + sympy.sqrt(2)
