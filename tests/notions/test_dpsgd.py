"""Certified DP-SGD accounting: references, monotonicity, agreement of ε(δ) and δ(ε), refusals.

Expected values: with q = 1 the steps are Gaussian mechanisms and k of them compose to the
Gaussian with σ/√k, whose δ(ε) and ε(δ) ``proofs_check.reference.accounting`` computes from
the normal tails (Balle & Wang 2018, Thm 8).  For q < 1 there is no closed form: the brackets
must order as the true values do (ε grows with k and q, falls with σ) wherever the true values
are further apart than the brackets are wide, and dpsgd_delta at the ends of dpsgd_epsilon's
bracket must straddle δ.  Speed is measured in benchmarks/bench_accounting.py, not here.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy

from exactpml import LogValue, use_bounds
from exactpml.core.bounds import BoundExceeded
from exactpml.errors import InexactInput, InvalidArgument
from exactpml.notions import dpsgd, dpsgd_delta, dpsgd_epsilon
from proofs_check.reference import accounting as bf


def mp(value: Fraction) -> mpmath.mpf:
    return mpmath.mpf(value.numerator) / value.denominator


@pytest.mark.parametrize(
    ("sigma", "delta"),
    [(1, Fraction(1, 10**5)), (Fraction(1, 2), Fraction(1, 10**6)), (3, Fraction(1, 100))],
)
def test_one_full_batch_step_contains_the_analytic_gaussian_epsilon(sigma, delta):
    lo, hi = bf.analytic_gaussian_epsilon(sigma, delta)
    bounds = dpsgd_epsilon(sigma, 1, 1, delta)
    assert bounds.lower <= lo and hi <= bounds.upper
    assert bounds.within_width and bounds.upper <= Fraction(101, 100) * bounds.lower


def test_full_batch_steps_contain_the_gaussian_of_sigma_over_root_k():
    sigma, k = Fraction(3), 9  # σ/√k = 1
    lo, hi = bf.analytic_gaussian_epsilon(1, Fraction(1, 10**5))
    bounds = dpsgd_epsilon(sigma, 1, k, Fraction(1, 10**5))
    assert bounds.lower <= lo and hi <= bounds.upper
    delta = dpsgd_delta(sigma, 1, k, 2)
    with mpmath.workdps(60):
        exact = bf.gaussian_mixture_delta(1, 1, 2)
        assert mp(delta.lower) <= exact <= mp(delta.upper)


def test_epsilon_grows_with_steps_and_rate_and_falls_with_noise():
    """True ε is monotone in each argument; values chosen far enough apart that the brackets
    (width 1%) must separate."""
    base = dict(noise_multiplier=1, sampling_rate=Fraction(1, 100), steps=200)
    delta = Fraction(1, 10**5)

    def bracket(**changes):
        return dpsgd_epsilon(**{**base, **changes}, delta=delta)

    middle = bracket()
    for larger in (
        bracket(steps=400),
        bracket(sampling_rate=Fraction(2, 100)),
        bracket(noise_multiplier=Fraction(4, 5)),
    ):
        assert middle.upper < larger.lower
    for smaller in (
        bracket(steps=100),
        bracket(sampling_rate=Fraction(1, 200)),
        bracket(noise_multiplier=Fraction(5, 4)),
    ):
        assert smaller.upper < middle.lower


def test_delta_at_the_ends_of_the_epsilon_bracket_straddles_delta():
    """δ(upper) <= δ <= δ(lower) for the true curve, so the two certified answers must not
    contradict: dpsgd_delta's lower end at ε = upper is <= δ, its upper end at ε = lower >= δ."""
    delta = Fraction(1, 10**5)
    bounds = dpsgd_epsilon(1, Fraction(1, 50), 300, delta)
    at_upper = dpsgd_delta(1, Fraction(1, 50), 300, bounds.upper, width=Fraction(1, 10))
    at_lower = dpsgd_delta(1, Fraction(1, 50), 300, bounds.lower, width=Fraction(1, 10))
    assert at_upper.lower <= delta <= at_lower.upper


def test_delta_accepts_epsilon_as_a_log_value_or_its_ratio():
    by_ratio = dpsgd_delta(2, Fraction(1, 10), 20, exp_epsilon=3, resolution=Fraction(1, 256))
    by_log = dpsgd_delta(2, Fraction(1, 10), 20, LogValue(3), resolution=Fraction(1, 256))
    assert by_ratio == by_log
    assert sympy.log(3) not in by_ratio  # a δ bracket, far below log 3
    assert by_ratio.lower > 0


def test_a_fixed_resolution_is_one_pass_and_reports_the_width():
    coarse = dpsgd_epsilon(1, Fraction(1, 100), 500, Fraction(1, 10**5), resolution=Fraction(1, 8))
    assert coarse.resolution == Fraction(1, 8) and not coarse.within_width
    fine = dpsgd_epsilon(1, Fraction(1, 100), 500, Fraction(1, 10**5), resolution=Fraction(1, 512))
    assert fine.within_width
    assert coarse.lower <= fine.upper and fine.lower <= coarse.upper  # both hold the truth


def test_width_out_of_reach_is_refused_before_the_work(monkeypatch):
    """The prediction is checked before a lattice is built: the constructor must not run."""

    def forbidden(*args, **kwargs):
        raise AssertionError("a lattice was built although the bound refuses the work")

    monkeypatch.setattr(dpsgd, "from_loss_pairs", forbidden)
    with use_bounds(lattice_points=50), pytest.raises(BoundExceeded) as raised:
        dpsgd_epsilon(1, Fraction(1, 100), 1000, Fraction(1, 10**5))
    assert "width=1/100" in str(raised.value) and "lattice_points=50" in str(raised.value)
    assert raised.value.bound == "lattice_points"
    with use_bounds(lattice_bits=64), pytest.raises(BoundExceeded, match="lattice_bits"):
        dpsgd_epsilon(1, Fraction(1, 100), 1000, Fraction(1, 10**40))
    with use_bounds(accounting_steps=99), pytest.raises(BoundExceeded, match="steps=100"):
        dpsgd_epsilon(1, Fraction(1, 100), 100, Fraction(1, 10**5))
    with use_bounds(lattice_points=50), pytest.raises(BoundExceeded, match="resolution"):
        dpsgd_delta(1, Fraction(1, 100), 1000, 1, resolution=Fraction(1, 1024))


def test_width_that_needs_a_finer_lattice_than_allowed_is_refused_after_a_pass():
    """The first pass fits the bound; the refinement the width asks for does not."""
    with use_bounds(lattice_points=8000), pytest.raises(BoundExceeded) as raised:
        dpsgd_epsilon(1, Fraction(1, 10), 50, Fraction(1, 10**5), width=Fraction(1, 10**7))
    message = str(raised.value)
    assert "width=1/10000000" in message and "the bracket at resolution" in message


@pytest.mark.parametrize(
    ("call", "error", "fragment"),
    [
        (
            lambda: dpsgd_epsilon(1.0, Fraction(1, 100), 10, Fraction(1, 10**5)),
            InexactInput,
            "noise_multiplier",
        ),
        (
            lambda: dpsgd_epsilon(0, Fraction(1, 100), 10, Fraction(1, 10**5)),
            InvalidArgument,
            "noise_multiplier",
        ),
        (
            lambda: dpsgd_epsilon(sympy.pi, Fraction(1, 100), 10, Fraction(1, 10**5)),
            InvalidArgument,
            "noise_multiplier",
        ),
        (lambda: dpsgd_epsilon(1, 0.01, 10, Fraction(1, 10**5)), InexactInput, "sampling_rate"),
        (lambda: dpsgd_epsilon(1, 0, 10, Fraction(1, 10**5)), InvalidArgument, "sampling_rate"),
        (
            lambda: dpsgd_epsilon(1, Fraction(3, 2), 10, Fraction(1, 10**5)),
            InvalidArgument,
            "sampling_rate",
        ),
        (
            lambda: dpsgd_epsilon(1, Fraction(1, 100), 0, Fraction(1, 10**5)),
            InvalidArgument,
            "steps",
        ),
        (
            lambda: dpsgd_epsilon(1, Fraction(1, 100), True, Fraction(1, 10**5)),
            InvalidArgument,
            "steps",
        ),
        (lambda: dpsgd_epsilon(1, Fraction(1, 100), 10, 0), InvalidArgument, "delta"),
        (lambda: dpsgd_epsilon(1, Fraction(1, 100), 10, 1), InvalidArgument, "delta"),
        (lambda: dpsgd_epsilon(1, Fraction(1, 100), 10, 1e-5), InexactInput, "delta"),
        (lambda: dpsgd_epsilon(1, Fraction(1, 100), 10, "1e-5", width=0), InvalidArgument, "width"),
        (
            lambda: dpsgd_epsilon(1, Fraction(1, 100), 10, "1e-5", resolution=-1),
            InvalidArgument,
            "resolution",
        ),
        (lambda: dpsgd_delta(1, Fraction(1, 100), 10), InvalidArgument, "epsilon"),
        (
            lambda: dpsgd_delta(1, Fraction(1, 100), 10, 1, exp_epsilon=3),
            InvalidArgument,
            "not both",
        ),
        (lambda: dpsgd_delta(1, Fraction(1, 100), 10, 0.5), InexactInput, "epsilon"),
    ],
    ids=[
        "float-sigma",
        "zero-sigma",
        "irrational-sigma",
        "float-rate",
        "zero-rate",
        "rate-above-one",
        "zero-steps",
        "bool-steps",
        "zero-delta",
        "delta-one",
        "float-delta",
        "zero-width",
        "negative-resolution",
        "no-epsilon",
        "both-epsilons",
        "float-epsilon",
    ],
)
def test_bad_input_is_refused_naming_the_argument(call, error, fragment):
    with pytest.raises(error, match=fragment):
        call()
