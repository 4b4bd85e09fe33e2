"""Lattice measures rounded one way: products, cuts, δ(ε) and ε(δ) against the definitions.

The references are written here from the definitions, with plain integers and mpmath at 60
digits: the convolution of two finite measures by a double loop, the hockey-stick value
``μ(+∞) + Σ_i μ_i (1 - e^{ε - iΔ})_+`` as a sum, and the least ε with δ(ε) <= δ by bisection
on that sum.  Rounding directions are checked coefficient by coefficient and through the
"mass above every threshold" order that makes each side a bound.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactpml.errors import InvalidArgument
from exactpml.notions._certified_lattice import LatticeMeasure

BITS = 12
STEPS = st.sampled_from([Fraction(1, 2), Fraction(1, 8), Fraction(3, 64)])


@st.composite
def measures(draw, *, pessimistic: bool, resolution: Fraction) -> LatticeMeasure:
    masses = draw(
        st.dictionaries(st.integers(-6, 6), st.integers(1, 2**BITS), min_size=1, max_size=6)
    )
    infinity = draw(st.integers(0, 2**BITS // 8))
    return LatticeMeasure.from_numerators(pessimistic, resolution, BITS, masses, infinity)


def coefficients(measure: LatticeMeasure) -> dict[int, int]:
    return {measure.lowest + i: int(c) for i, c in enumerate(measure.numerators.coeffs()) if int(c)}


def convolution(first: LatticeMeasure, second: LatticeMeasure) -> tuple[dict[int, int], int]:
    """The exact product, masses over 2^(2 bits), by a double loop."""
    a, b = coefficients(first), coefficients(second)
    product: dict[int, int] = {}
    for i, x in a.items():
        for j, y in b.items():
            product[i + j] = product.get(i + j, 0) + x * y
    total_a, total_b = sum(a.values()), sum(b.values())
    infinity = first.infinity * (total_b + second.infinity) + total_a * second.infinity
    return product, infinity


def reference_delta(masses: dict[int, int], infinity: int, bits: int, step, epsilon) -> mpmath.mpf:
    """μ(+∞) + Σ_i μ_i (1 - e^{ε - iΔ})_+ at 60 digits (ε a Fraction or an mpf)."""
    with mpmath.workdps(60):
        e = (
            epsilon
            if isinstance(epsilon, mpmath.mpf)
            else mpmath.mpf(epsilon.numerator) / epsilon.denominator
        )
        d = mpmath.mpf(step.numerator) / step.denominator
        total = mpmath.mpf(infinity)
        for index, mass in masses.items():
            total += mass * max(mpmath.mpf(0), 1 - mpmath.exp(e - index * d))
        return total / mpmath.mpf(2) ** bits


def mass_above(masses: dict[int, int], infinity: int, threshold: int) -> int:
    return infinity + sum(m for i, m in masses.items() if i > threshold)


@given(STEPS, st.data())
def test_products_are_the_convolution_rounded_in_the_sides_direction(step, data):
    for pessimistic in (True, False):
        first = data.draw(measures(pessimistic=pessimistic, resolution=step))
        second = data.draw(measures(pessimistic=pessimistic, resolution=step))
        exact, infinity = convolution(first, second)
        composed = coefficients(first.compose(second))
        lowest, highest = min(exact), max(exact)
        for index in range(lowest, highest + 1):
            value = exact.get(index, 0)
            floor = value >> BITS
            assert composed.get(index, 0) == (floor + 1 if pessimistic else floor)
        assert set(composed) <= set(range(lowest, highest + 1))
        got = first.compose(second).infinity
        assert got == (-((-infinity) >> BITS) if pessimistic else infinity >> BITS)


@given(STEPS, st.data(), st.integers(0, 2**BITS))
def test_cuts_move_mass_up_on_the_pessimistic_side_and_down_on_the_optimistic(step, data, tail):
    for pessimistic in (True, False):
        measure = data.draw(measures(pessimistic=pessimistic, resolution=step))
        before = coefficients(measure)
        cut = measure.truncated(tail)
        after = coefficients(cut)
        for threshold in range(min(before) - 1, max(before) + 1):
            up, down = (
                mass_above(after, cut.infinity, threshold),
                mass_above(before, measure.infinity, threshold),
            )
            assert up >= down if pessimistic else up <= down
        total_before = sum(before.values()) + measure.infinity
        total_after = sum(after.values()) + cut.infinity
        if pessimistic:
            assert total_after == total_before
            assert cut.infinity - measure.infinity <= tail
        else:
            assert total_before - tail <= total_after <= total_before


@given(STEPS, st.data(), st.fractions(-4, 4, max_denominator=16))
def test_delta_bounds_the_sum_from_the_definition_in_the_sides_direction(step, data, epsilon):
    for pessimistic in (True, False):
        measure = data.draw(measures(pessimistic=pessimistic, resolution=step))
        reference = reference_delta(coefficients(measure), measure.infinity, BITS, step, epsilon)
        value = measure.delta(epsilon)
        with mpmath.workdps(60):
            got = mpmath.mpf(value.numerator) / value.denominator
            assert (got >= reference) if pessimistic else (got <= reference)
            assert abs(got - reference) <= mpmath.mpf(2) ** -(BITS + 20)


def test_delta_at_a_closed_form_epsilon_is_enclosed():
    """ε = log 2 (irrational) and ε = 3/8 given as a sympy number (a lattice point of 1/8)."""
    step = Fraction(1, 8)
    masses = {-1: 1000, 0: 2000, 3: 500, 6: 596}
    for pessimistic in (True, False):
        measure = LatticeMeasure.from_numerators(pessimistic, step, BITS, masses, 0)
        for epsilon, mp_value in (
            (sympy.log(2), lambda: mpmath.log(2)),
            (sympy.Rational(3, 8), lambda: mpmath.mpf(3) / 8),
        ):
            with mpmath.workdps(60):
                reference = reference_delta(masses, 0, BITS, step, mp_value())
            value = measure.delta(epsilon)
            with mpmath.workdps(60):
                got = mpmath.mpf(value.numerator) / value.denominator
                assert (got >= reference) if pessimistic else (got <= reference)
                assert abs(got - reference) < mpmath.mpf(10) ** -20


def _least_epsilon(masses, infinity, step, delta) -> mpmath.mpf:
    """The least ε with the reference sum <= δ, by bisection (60 digits)."""
    with mpmath.workdps(60):
        target = mpmath.mpf(delta.numerator) / delta.denominator
        low, high = mpmath.mpf(-50), mpmath.mpf(50)
        for _ in range(200):
            middle = (low + high) / 2
            if reference_delta(masses, infinity, BITS, step, middle) <= target:
                high = middle
            else:
                low = middle
        return high


@given(STEPS, st.data(), st.fractions(Fraction(1, 1000), Fraction(9, 10)))
def test_epsilon_bounds_bracket_the_least_epsilon_of_the_sum(step, data, delta):
    for pessimistic in (True, False):
        measure = data.draw(measures(pessimistic=pessimistic, resolution=step))
        masses = coefficients(measure)
        if measure.infinity > delta * 2**BITS:
            assert measure.epsilon(delta) is sympy.oo
            continue
        least = _least_epsilon(masses, measure.infinity, step, delta)
        bound = measure.epsilon(delta)
        with mpmath.workdps(60):
            if bound == -sympy.oo:
                assert least < -49 if pessimistic else True
                continue
            value = mpmath.mpf(bound.numerator) / bound.denominator
            if pessimistic:
                assert value >= least - mpmath.mpf(10) ** -40
                reached = reference_delta(masses, measure.infinity, BITS, step, value)
                assert reached <= mpmath.mpf(delta.numerator) / delta.denominator
            else:
                assert value <= least + mpmath.mpf(10) ** -40
            assert abs(value - least) < mpmath.mpf(10) ** -9 or least < -49


def test_power_bounds_the_k_fold_convolution_in_the_sides_direction():
    """Five-fold composition of a two-point measure against the binomial expansion."""
    step = Fraction(1, 4)
    low, high = 1000, 3096  # masses of the losses -Δ and 2Δ, over 2^BITS
    reference: dict[int, int] = {}
    for choice in itertools.product((-1, 2), repeat=5):
        weight = 1
        for index in choice:
            weight *= low if index == -1 else high
        reference[sum(choice)] = reference.get(sum(choice), 0) + weight
    for pessimistic in (True, False):
        base = LatticeMeasure.from_numerators(pessimistic, step, BITS, {-1: low, 2: high}, 0)
        got = coefficients(base.power(5))
        for index, value in reference.items():
            exact = Fraction(value, 2 ** (5 * BITS))
            mine = Fraction(got.get(index, 0), 2**BITS)
            assert mine >= exact if pessimistic else mine <= exact
            assert abs(mine - exact) <= Fraction(40, 2**BITS)


def test_measures_compose_only_on_one_lattice_side_and_precision():
    a = LatticeMeasure.unit(True, Fraction(1, 8), BITS)
    with pytest.raises(InvalidArgument, match="resolution"):
        a.compose(LatticeMeasure.unit(True, Fraction(1, 4), BITS))
    with pytest.raises(InvalidArgument, match="pessimistic"):
        a.compose(LatticeMeasure.unit(False, Fraction(1, 8), BITS))
    with pytest.raises(InvalidArgument, match="non-negative"):
        LatticeMeasure.from_numerators(True, Fraction(1, 8), BITS, {0: -1}, 0)
