"""Laplace and Gaussian δ(ε) against integrals of the densities, and calibration.

Laplace: the integral of max(0, p - e^ε q) computed by sympy piece by piece (exact);
Gaussian: the same integral by mpmath quadrature at 50 digits (an independent numeric
reference on the test side, compared to 30 digits with the certified value).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest
import sympy

from exactpml.core import certify
from exactpml.database import DatabaseSpace
from exactpml.errors import InvalidArgument
from exactpml.notions import (
    delta_for_epsilon,
    gaussian_calibration,
    gaussian_delta_for_epsilon,
    laplace_calibration,
    laplace_delta_for_epsilon,
)
from exactpml.structured import CountingQuery, LaplaceNoise, QueryMechanism

y = sympy.Symbol("y", real=True)


def _laplace_reference(b, width, epsilon):
    """∫ max(0, p - e^ε q) for p = Lap(0, b), q = Lap(width, b), by exact piecewise integration."""
    b, width = sympy.Rational(b), sympy.Rational(width)
    eps = sympy.Rational(epsilon)
    crossing = (width - b * eps) / 2  # where p = e^ε q inside [0, width]
    cuts = sorted({sympy.S(0), width, min(max(crossing, sympy.S(0)), width)})
    edges = [-sympy.oo, *cuts, sympy.oo]
    total = sympy.Integer(0)
    for low, high in itertools.pairwise(edges):
        if low == high:
            continue
        probe = (
            high - 1 if low == -sympy.oo else (low + 1 if high == sympy.oo else (low + high) / 2)
        )
        side_p = 1 if probe >= 0 else -1  # |y| = side_p · y on this piece
        side_q = 1 if probe >= width else -1  # |y - width| = side_q · (y - width)
        p = sympy.exp(-side_p * y / b) / (2 * b)
        q = sympy.exp(-side_q * (y - width) / b) / (2 * b)
        difference = p - sympy.exp(eps) * q
        if sympy.N(difference.subs(y, probe), 50) <= 0:
            continue
        total += sympy.integrate(difference, (y, low, high))
    return total


@pytest.mark.parametrize(
    ("b", "width", "epsilon"),
    [
        (1, 1, "1/2"),
        (1, 1, 0),
        (2, 1, "-1/8"),
        (1, 1, "-1/2"),
        (1, 1, -2),
        (1, 2, 3),
        ("1/2", 1, "1/3"),
    ],
)
def test_laplace_delta_is_the_integral_of_the_positive_part(b, width, epsilon):
    value = laplace_delta_for_epsilon(b, epsilon, sensitivity=width)
    expected = _laplace_reference(b, width, epsilon)
    assert certify.compare(sympy.sympify(value), expected) == 0


@pytest.mark.parametrize(
    ("sigma", "width", "epsilon"),
    [(1, 1, 1), (1, 1, 0), (2, 1, "-1/2"), (1, 1, -1), (1, 1, -2), ("1/2", 1, 2), (3, 2, "1/10")],
)
def test_gaussian_delta_is_the_integral_of_the_positive_part(sigma, width, epsilon):
    mpmath.mp.dps = 50
    s, w = mpmath.mpf(Fraction(sigma).numerator) / Fraction(sigma).denominator, mpmath.mpf(width)
    e = mpmath.exp(mpmath.mpf(Fraction(epsilon).numerator) / Fraction(epsilon).denominator)

    def density(z, c):
        return mpmath.exp(-((z - c) ** 2) / (2 * s**2)) / (s * mpmath.sqrt(2 * mpmath.pi))

    crossing = w / 2 - mpmath.log(e) * s**2 / w  # p = e^ε q exactly here; p > e^ε q left of it
    reference = mpmath.quad(lambda z: density(z, 0) - e * density(z, w), [-mpmath.inf, crossing])
    value = gaussian_delta_for_epsilon(sigma, epsilon, sensitivity=width)
    assert abs(mpmath.mpf(certify.decimal(value, 45)) - reference) < mpmath.mpf(10) ** -35


def test_infinite_and_minus_infinite_epsilon():
    assert laplace_delta_for_epsilon(1, "oo") == 0 and laplace_delta_for_epsilon(1, "-oo") == 1
    assert gaussian_delta_for_epsilon(1, "oo") == 0 and gaussian_delta_for_epsilon(1, "-oo") == 1


@pytest.mark.parametrize(("ratio", "delta"), [(2, 0), (3, "1/10"), ("3/2", "1/100000")])
def test_laplace_calibration_is_the_least_scale_exactly(ratio, delta):
    b = laplace_calibration(exp_epsilon=ratio, delta=delta)
    value = laplace_delta_for_epsilon(b, exp_epsilon=ratio)
    assert certify.compare(sympy.sympify(value), sympy.Rational(delta)) == 0
    smaller = sympy.sympify(b) * sympy.Rational(999_999, 10**6)
    assert (
        certify.compare(
            sympy.sympify(laplace_delta_for_epsilon(smaller, exp_epsilon=ratio)),
            sympy.Rational(delta),
        )
        > 0
    )


@pytest.mark.parametrize(("ratio", "delta"), [(2, "1/100"), (3, "1/100000"), ("11/10", "1/10")])
def test_gaussian_calibration_brackets_the_least_sigma(ratio, delta):
    result = gaussian_calibration(exp_epsilon=ratio, delta=delta)
    target = sympy.Rational(delta)
    assert certify.compare(gaussian_delta_for_epsilon(result.value, exp_epsilon=ratio), target) <= 0
    assert certify.compare(gaussian_delta_for_epsilon(result.lower, exp_epsilon=ratio), target) > 0
    assert result.value - result.lower <= Fraction(1, 10**6) * result.value and not result.exact


def test_laplace_noise_on_a_counting_query_now_has_delta():
    mechanism = QueryMechanism(
        DatabaseSpace([0, 1], 3), CountingQuery(lambda d: d), noise=LaplaceNoise(2)
    )
    for epsilon in ("1/4", -1, 0, 1):
        value = delta_for_epsilon(mechanism, epsilon)
        assert value.value == laplace_delta_for_epsilon(2, epsilon)
        assert delta_for_epsilon(mechanism, epsilon, form="plrv").value == value.value
        assert abs(sum(value.database) - sum(value.neighbour)) == 1
    thresholded = QueryMechanism(
        DatabaseSpace([0, 1], 3), CountingQuery(lambda d: d), noise=LaplaceNoise(2), threshold=1
    )
    with pytest.raises(InvalidArgument, match="thresholded Laplace"):
        delta_for_epsilon(thresholded, 1)


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: laplace_delta_for_epsilon(0, 1), "scale=0"),
        (lambda: laplace_delta_for_epsilon(1, 1, sensitivity=-1), "sensitivity=-1"),
        (lambda: gaussian_delta_for_epsilon(0.5, 1), "sigma"),
        (lambda: laplace_calibration(0), "infinite noise"),
        (lambda: laplace_calibration(1, delta=1), "delta=1"),
        (lambda: gaussian_calibration(1, delta=0), "delta=0"),
        (lambda: gaussian_calibration(-1, delta="1/2"), "epsilon=-1"),
    ],
)
def test_bad_input_is_refused_naming_the_argument(call, fragment):
    with pytest.raises(InvalidArgument) as caught:
        call()
    assert fragment in str(caught.value)
