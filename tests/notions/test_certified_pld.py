"""Certified PLDs bracket the true δ(ε) and ε(δ): discrete pairs, Gaussian, subsampled, Laplace.

Every expected value comes from ``proofs_check.reference.accounting`` or is written here from
the definitions: the k-fold product laws of discrete pairs enumerated outcome by outcome with
the hockey-stick divergence as a sum over outcomes (exact rationals); the Gaussian mechanism's
δ(ε) from its two normal tails (Balle & Wang 2018, Thm 8; the k-fold composition of N(1, σ²)
vs N(0, σ²) is the Gaussian with σ/√k); the subsampled Gaussian's δ(ε) from the threshold
where the two mixture densities cross; Laplace by numerical integration of (p - e^ε q)_+.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactpml import Distribution
from exactpml import strategies as xst
from exactpml.core.bounds import BoundExceeded, use_bounds
from exactpml.errors import InexactInput, InvalidArgument
from exactpml.notions import (
    AccountingBounds,
    CertifiedPLD,
    certified_gaussian_pld,
    certified_laplace_pld,
    certified_pld,
    privacy_loss_distribution,
)
from proofs_check.reference import accounting as bf


def mp(value) -> mpmath.mpf:
    if isinstance(value, mpmath.mpf):
        return value
    value = Fraction(value)
    return mpmath.mpf(value.numerator) / value.denominator


def contains(bounds: AccountingBounds, value: mpmath.mpf, slack: float = 1e-40) -> bool:
    """lower <= value <= upper, with value known to 60 digits (slack: its error)."""
    with mpmath.workdps(60):
        upper = mpmath.inf if bounds.upper is None else mp(bounds.upper)
        return mp(bounds.lower) - slack <= value <= upper + slack


# --- discrete pairs through the lattice ------------------------------------------------------
def randomized_response(ratio: Fraction) -> tuple[dict, dict]:
    return bf.randomized_response_pair(ratio)


def discrete_laplace(alpha: Fraction) -> tuple[dict, dict]:
    """Two-sided geometric noise c α^|y - a| (c = (1-α)/(1+α)) on answers a = 2 (P) and a = 0
    (Q), its outputs merged by loss: y <= 0 (ratio α²), y = 1 (ratio 1), y >= 2 (ratio α^-2).
    Merging outputs of equal loss changes no hockey-stick divergence; the geometric series
    give P = (cα²/(1-α), cα, c/(1-α)) and Q = (c/(1-α), cα, cα²/(1-α))."""
    c = (1 - alpha) / (1 + alpha)
    low, middle, high = c * alpha**2 / (1 - alpha), c * alpha, c / (1 - alpha)
    return {"y<=0": low, "y=1": middle, "y>=2": high}, {"y<=0": high, "y=1": middle, "y>=2": low}


@pytest.mark.parametrize("resolution", [Fraction(1, 8), Fraction(1, 64), Fraction(1, 1024)])
@pytest.mark.parametrize("k", [1, 2, 5, 9])
@pytest.mark.parametrize(
    "pair",
    [randomized_response(Fraction(3)), randomized_response(Fraction(11, 10))],
    ids=["rr-3", "rr-11/10"],
)
def test_randomized_response_bracket_contains_the_exact_composition(pair, k, resolution):
    p, q = pair
    pld = privacy_loss_distribution(Distribution(p), Distribution(q))
    composed = certified_pld(pld, resolution=resolution).self_compose(k)
    pk, qk = bf.power(p, k), bf.power(q, k)
    for ratio in (Fraction(1, 2), Fraction(1), Fraction(2), Fraction(5), Fraction(3) ** k):
        exact = bf.hockey_stick(pk, qk, ratio)
        bounds = composed.delta_for_epsilon(exp_epsilon=ratio)
        assert bounds.lower <= exact <= bounds.upper
    for delta in (Fraction(1, 10), Fraction(1, 1000)):
        bounds = composed.epsilon_for_delta(delta)
        if bounds.upper is not None and bounds.upper > 0:  # δ(upper) <= δ: the least ε <= upper
            assert bf.hockey_stick(pk, qk, sympy.exp(mp_rational(bounds.upper))) <= delta
        if bounds.lower > 0:  # δ(lower) >= δ: the least ε >= lower
            assert bf.hockey_stick(pk, qk, sympy.exp(mp_rational(bounds.lower))) >= delta


def mp_rational(value: Fraction) -> sympy.Rational:
    return sympy.Rational(value.numerator, value.denominator)


@pytest.mark.parametrize("k", [1, 3, 6])
def test_discrete_laplace_bracket_contains_the_exact_composition(k):
    p, q = discrete_laplace(Fraction(1, 2))
    pld = privacy_loss_distribution(Distribution(p), Distribution(q))
    composed = certified_pld(pld, resolution=Fraction(1, 128)).self_compose(k)
    pk, qk = bf.power(p, k), bf.power(q, k)
    assert sum(p.values()) == sum(q.values()) == 1
    for ratio in (Fraction(1), Fraction(3, 2), Fraction(4) ** k, Fraction(7, 3)):
        exact = bf.hockey_stick(pk, qk, ratio)
        bounds = composed.delta_for_epsilon(exp_epsilon=ratio)
        assert bounds.lower <= exact <= bounds.upper


RESOLUTIONS = st.sampled_from([Fraction(1, 4), Fraction(1, 32), Fraction(3, 256)])
RATIOS = st.sampled_from([Fraction(1, 3), Fraction(1), Fraction(2), Fraction(9, 2), Fraction(50)])


@given(xst.distribution_pairs(max_outcomes=3), st.integers(1, 3), RESOLUTIONS, RATIOS)
def test_pessimistic_is_never_below_and_optimistic_never_above_the_exact_delta(
    pair, k, resolution, ratio
):
    p, q = (bf.law(law) for law in pair)
    pld = privacy_loss_distribution(*pair)
    composed = certified_pld(pld, resolution=resolution).self_compose(k)
    exact = bf.hockey_stick(bf.power(p, k), bf.power(q, k), ratio)
    bounds = composed.delta_for_epsilon(exp_epsilon=ratio)
    assert bounds.lower <= exact <= bounds.upper


@given(xst.distribution_pairs(max_outcomes=3), xst.distribution_pairs(max_outcomes=2), RATIOS)
def test_composing_two_lifted_plds_brackets_the_product_pair(first, second, ratio):
    resolution = Fraction(1, 16)
    composed = certified_pld(privacy_loss_distribution(*first), resolution=resolution).compose(
        certified_pld(privacy_loss_distribution(*second), resolution=resolution)
    )
    p = bf.product(bf.law(first[0]), bf.law(second[0]))
    q = bf.product(bf.law(first[1]), bf.law(second[1]))
    bounds = composed.delta_for_epsilon(exp_epsilon=ratio)
    assert bounds.lower <= bf.hockey_stick(p, q, ratio) <= bounds.upper


# --- the Gaussian mechanism and its compositions ----------------------------------------------
@pytest.mark.parametrize(
    ("sigma", "k"), [(1, 1), (Fraction(1, 2), 1), (3, 1), (1, 4), (Fraction(5, 2), 50)]
)
def test_gaussian_composition_brackets_the_gaussian_of_sigma_over_root_k(sigma, k):
    pld = certified_gaussian_pld(sigma, resolution=Fraction(1, 512)).self_compose(k)
    with mpmath.workdps(60):
        effective = mp(sigma) / mpmath.sqrt(k)
    for epsilon in (Fraction(-1, 2), Fraction(0), Fraction(1, 3), Fraction(2)):
        with mpmath.workdps(60):
            exact = bf.gaussian_mixture_delta(effective, 1, epsilon)
        bounds = pld.delta_for_epsilon(epsilon)
        assert contains(bounds, exact)
        assert bounds.upper - bounds.lower < Fraction(1, 10**3)


@pytest.mark.parametrize(
    ("sigma", "delta"),
    [(1, Fraction(1, 10**5)), (Fraction(1, 2), Fraction(1, 10**8)), (4, Fraction(1, 100))],
)
def test_gaussian_epsilon_bracket_contains_the_analytic_gaussian_epsilon(sigma, delta):
    lo, hi = bf.analytic_gaussian_epsilon(sigma, delta)
    bounds = certified_gaussian_pld(sigma, resolution=Fraction(1, 256)).epsilon_for_delta(delta)
    assert bounds.lower <= lo and hi <= bounds.upper
    assert bounds.ratio is not None and bounds.ratio < Fraction(1001, 1000)


@pytest.mark.parametrize(
    ("sigma", "rate"),
    [(1, Fraction(1, 100)), (Fraction(1, 2), Fraction(1, 10)), (2, Fraction(3, 4))],
)
def test_subsampled_gaussian_single_step_brackets_both_directions(sigma, rate):
    pld = certified_gaussian_pld(sigma, sampling_rate=rate, resolution=Fraction(1, 512))
    assert pld.directions == ("remove", "add")
    for epsilon in (
        Fraction(-1, 50),
        Fraction(0),
        Fraction(1, 200),
        Fraction(1, 20),
        Fraction(1, 2),
    ):
        with mpmath.workdps(60):
            remove = bf.gaussian_mixture_delta(sigma, rate, epsilon, remove=True)
            add = bf.gaussian_mixture_delta(sigma, rate, epsilon, remove=False)
        for index, exact in enumerate((remove, add)):
            single = CertifiedPLD(
                (pld.directions[index],), (pld.upper[index],), (pld.lower[index],), pld.accuracy
            )
            assert contains(single.delta_for_epsilon(epsilon), exact)
        assert contains(pld.delta_for_epsilon(epsilon), max(remove, add))


def test_a_lifted_discrete_pld_composes_with_the_gaussian():
    """Randomized response (e^ε = 3) run beside N(0, σ²) noise: δ from conditioning on the
    discrete outcome (the reference), against the lattice product of the two certified PLDs."""
    p, q = randomized_response(Fraction(3))
    resolution = Fraction(1, 512)
    rr = certified_pld(
        privacy_loss_distribution(Distribution(p), Distribution(q)), resolution=resolution
    )
    gaussian = certified_gaussian_pld(2, resolution=resolution)
    composed = rr.compose(gaussian)
    for epsilon in (Fraction(0), Fraction(1), Fraction(3, 2)):
        exact = bf.discrete_delta_with_gaussian(p, q, 2, epsilon)
        assert contains(composed.delta_for_epsilon(epsilon), exact)


# --- Laplace --------------------------------------------------------------------------------
def laplace_delta(scale: Fraction, epsilon: Fraction) -> mpmath.mpf:
    """∫ (p - e^ε q)_+ for p = Lap(0, b), q = Lap(1, b), by mpmath quadrature (30 digits)."""
    with mpmath.workdps(40):
        b, e = mp(scale), mp(epsilon)

        def integrand(x):
            p = mpmath.exp(-abs(x) / b) / (2 * b)
            q = mpmath.exp(-abs(x - 1) / b) / (2 * b)
            return max(mpmath.mpf(0), p - mpmath.exp(e) * q)

        cut = (1 - b * e) / 2  # where p = e^ε q inside (0, 1)
        points = [-mpmath.inf, 0, *([cut] if 0 < cut < 1 else []), 1, mpmath.inf]
        return mpmath.quad(integrand, points)


@pytest.mark.parametrize("scale", [Fraction(1), Fraction(1, 2), Fraction(3, 2)])
def test_laplace_bracket_contains_the_integral_of_the_definition(scale):
    pld = certified_laplace_pld(scale, resolution=Fraction(1, 96))
    for epsilon in (Fraction(-1, 3), Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(5)):
        assert contains(pld.delta_for_epsilon(epsilon), laplace_delta(scale, epsilon), 1e-25)


def laplace_delta_closed(scale: Fraction, epsilon) -> mpmath.mpf:
    """One Laplace step: δ(ε) = 1 - e^{(ε - t)/2} on [-t, t], t = 1/b (the integral of the
    definition done by hand: {p > e^ε q} is x < (1 - bε)/2; the k = 1 test checks it against
    quadrature), 0 above t and 1 - e^ε below -t."""
    t = 1 / mp(scale)
    if epsilon >= t:
        return mpmath.mpf(0)
    if epsilon <= -t:
        return 1 - mpmath.exp(epsilon)
    return 1 - mpmath.exp((epsilon - t) / 2)


def test_laplace_closed_form_of_one_step_is_the_integral():
    with mpmath.workdps(40):
        for epsilon in (Fraction(-3), Fraction(-1, 2), Fraction(1, 3), Fraction(2)):
            closed = laplace_delta_closed(Fraction(1), mp(epsilon))
            assert abs(closed - laplace_delta(Fraction(1), epsilon)) < mpmath.mpf(10) ** -25


def test_laplace_on_an_aligned_lattice_is_tight_and_composes():
    """Two steps: condition on the first output x (loss t for x <= 0, -t for x >= 1,
    t(1 - 2x) between) and apply one step at ε minus that loss."""
    pld = certified_laplace_pld(1, resolution=Fraction(1, 64))
    once = pld.delta_for_epsilon(Fraction(1, 2))
    assert once.upper - once.lower < Fraction(1, 10**6)
    twice = pld.self_compose(2).delta_for_epsilon(Fraction(1))
    with mpmath.workdps(30):
        t, e = mpmath.mpf(1), mpmath.mpf(1)
        middle = mpmath.quad(
            lambda x: mpmath.exp(-x) / 2 * laplace_delta_closed(Fraction(1), e - t * (1 - 2 * x)),
            [0, mpmath.mpf(1) / 2, 1],
        )
        exact = (
            laplace_delta_closed(Fraction(1), e - t) / 2
            + mpmath.exp(-t) / 2 * laplace_delta_closed(Fraction(1), e + t)
            + middle
        )
    assert contains(twice, exact, 1e-20)
    assert twice.upper - twice.lower < Fraction(1, 10**3)


# --- the object -----------------------------------------------------------------------------
def test_bounds_print_outward_and_test_membership_exactly():
    bounds = AccountingBounds(Fraction(2, 3), Fraction(5, 3), Fraction(1, 8), 64, 10)
    assert str(bounds) == "[0.66666, 1.6667]"
    assert Fraction(2, 3) in bounds and Fraction(5, 3) in bounds and 1 in bounds
    assert sympy.sqrt(2) in bounds and Fraction(1, 2) not in bounds
    with pytest.raises(InexactInput, match="value"):
        _ = 0.7 in bounds
    unbounded = AccountingBounds(Fraction(1), None, Fraction(1, 8), 64, 10)
    assert str(unbounded) == "[1.0000, oo]" and 10**9 in unbounded and unbounded.ratio is None


def test_certified_plds_are_hashable_values():
    first = certified_gaussian_pld(1, resolution=Fraction(1, 16))
    second = certified_gaussian_pld(1, resolution=Fraction(1, 16))
    assert first == second and hash(first) == hash(second)
    assert first != certified_gaussian_pld(2, resolution=Fraction(1, 16))
    assert len({first, second, first.self_compose(2)}) == 2


def test_a_two_pair_pld_composes_with_a_symmetric_one_direction_by_direction():
    """Subsampled Gaussian (remove and add pairs) run beside randomized response (e^ε = 3):
    each direction conditioned on the discrete outcome (the reference), the larger taken."""
    p, q = randomized_response(Fraction(3))
    resolution = Fraction(1, 512)
    rr = certified_pld(
        privacy_loss_distribution(Distribution(p), Distribution(q)), resolution=resolution
    )
    subsampled = certified_gaussian_pld(1, sampling_rate=Fraction(1, 2), resolution=resolution)
    composed = subsampled.compose(rr)
    assert composed.directions == ("remove", "add")
    for epsilon in (Fraction(1, 2), Fraction(3, 2)):
        with mpmath.workdps(60):
            values = []
            for remove in (True, False):
                total = mpmath.mpf(0)
                for outcome in p:
                    shift = mp(epsilon) - mpmath.log(mp(p[outcome] / q[outcome]))
                    total += mp(p[outcome]) * bf.gaussian_mixture_delta(
                        1, Fraction(1, 2), shift, remove=remove
                    )
                values.append(total)
        assert contains(composed.delta_for_epsilon(epsilon), max(values))


def test_compose_refuses_other_lattices_and_types():
    a = certified_gaussian_pld(1, resolution=Fraction(1, 64))
    with pytest.raises(InvalidArgument, match="one lattice"):
        a.compose(certified_gaussian_pld(1, resolution=Fraction(1, 32)))
    with pytest.raises(InvalidArgument, match="CertifiedPLD"):
        a.compose(privacy_loss_distribution(*randomized_law_pair()))


def randomized_law_pair():
    p, q = randomized_response(Fraction(3))
    return Distribution(p), Distribution(q)


@pytest.mark.parametrize(
    ("call", "error", "fragment"),
    [
        (lambda: certified_gaussian_pld(1.0), InexactInput, "sigma"),
        (lambda: certified_gaussian_pld(0), InvalidArgument, "sigma"),
        (lambda: certified_gaussian_pld(sympy.sqrt(2)), InvalidArgument, "sigma"),
        (
            lambda: certified_gaussian_pld(1, sampling_rate=Fraction(3, 2)),
            InvalidArgument,
            "sampling_rate",
        ),
        (lambda: certified_gaussian_pld(1, sampling_rate=0), InvalidArgument, "sampling_rate"),
        (lambda: certified_gaussian_pld(1, sensitivity=-1), InvalidArgument, "sensitivity"),
        (lambda: certified_gaussian_pld(1, resolution=0), InvalidArgument, "resolution"),
        (lambda: certified_gaussian_pld(1, resolution=0.01), InexactInput, "resolution"),
        (lambda: certified_gaussian_pld(1, bits=4), InvalidArgument, "bits"),
        (lambda: certified_gaussian_pld(1, accuracy=0), InvalidArgument, "accuracy"),
        (lambda: certified_laplace_pld("-1"), InvalidArgument, "scale"),
        (lambda: certified_pld("not a pld"), InvalidArgument, "pld"),
        (
            lambda: certified_gaussian_pld(1, resolution=Fraction(1, 8)).self_compose(0),
            InvalidArgument,
            "steps",
        ),
        (
            lambda: certified_gaussian_pld(1, resolution=Fraction(1, 8)).epsilon_for_delta("3/2"),
            InvalidArgument,
            "delta",
        ),
        (
            lambda: certified_gaussian_pld(1, resolution=Fraction(1, 8)).epsilon_for_delta(0.1),
            InexactInput,
            "delta",
        ),
        (
            lambda: certified_gaussian_pld(1, resolution=Fraction(1, 8)).delta_for_epsilon(0.5),
            InexactInput,
            "epsilon",
        ),
    ],
    ids=[
        "float-sigma",
        "zero-sigma",
        "irrational-sigma",
        "rate-above-one",
        "rate-zero",
        "negative-sensitivity",
        "zero-resolution",
        "float-resolution",
        "too-few-bits",
        "zero-accuracy",
        "negative-scale",
        "not-a-pld",
        "zero-steps",
        "delta-above-one",
        "float-delta",
        "float-epsilon",
    ],
)
def test_bad_input_is_refused_naming_the_argument(call, error, fragment):
    with pytest.raises(error, match=fragment):
        call()


def test_too_many_bits_are_refused_by_the_bound():
    with use_bounds(lattice_bits=128), pytest.raises(BoundExceeded, match="lattice_bits"):
        certified_gaussian_pld(1, bits=256)
