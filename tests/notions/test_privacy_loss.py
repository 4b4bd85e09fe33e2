"""The privacy-loss distribution against explicit product laws and every event.

Composition is checked against the k-fold product laws enumerated outcome by outcome, δ(ε)
against the maximum of P(S) - e^ε Q(S) over every event S (negative ε included), ε(δ)
against the definition "least ε with δ(ε) <= δ", and the values of dp_accounting's own
tests at ε < 0 are reproduced exactly.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactpml import Distribution, LogValue
from exactpml import strategies as xst
from exactpml.core import certify
from exactpml.core.bounds import BoundExceeded, use_bounds
from exactpml.errors import InexactInput, InvalidArgument
from exactpml.notions import PrivacyLossDistribution, privacy_loss_distribution
from proofs_check.reference import accounting as bf

RATIOS = st.sampled_from(
    [
        Fraction(0),
        Fraction(1, 5),
        Fraction(1, 2),
        Fraction(1),
        Fraction(3, 2),
        Fraction(2),
        Fraction(9, 2),
        Fraction(10**6),
    ]
)
PAIRS = xst.distribution_pairs(max_outcomes=3)


def _pld(pair):
    return privacy_loss_distribution(*pair)


@given(PAIRS, PAIRS, RATIOS)
def test_compose_is_the_pld_of_the_product_laws(first, second, ratio):
    composed = _pld(first).compose(_pld(second))
    p = bf.product(bf.law(first[0]), bf.law(second[0]))
    q = bf.product(bf.law(first[1]), bf.law(second[1]))
    assert composed.delta_for_epsilon(exp_epsilon=ratio) == bf.hockey_stick(p, q, ratio)
    direct = privacy_loss_distribution(Distribution(p), Distribution(q))
    assert list(composed) == list(direct)
    assert composed.mass_at_minus_infinity == bf.q_mass_where_p_vanishes(p, q)


@given(PAIRS, st.integers(1, 4), RATIOS)
def test_self_compose_is_the_pld_of_the_k_fold_product(pair, k, ratio):
    p, q = (bf.power(bf.law(law), k) for law in pair)
    composed = _pld(pair).self_compose(k)
    assert composed.delta_for_epsilon(exp_epsilon=ratio) == bf.hockey_stick(p, q, ratio)
    assert sum(composed.masses, Fraction(0)) + composed.mass_at_infinity == 1


@given(xst.distribution_pairs(max_outcomes=3, lattice=True), st.integers(1, 5))
def test_lattice_powers_equal_exact_convolutions(pair, k):
    pld = _pld(pair)
    assert pld._lattice is not None
    by_power = pld.self_compose(k)
    by_convolution = pld
    for _ in range(k - 1):
        by_convolution = _general(by_convolution).compose(_general(pld))
    assert list(by_power) == list(by_convolution)


def _general(pld):
    """The same PLD without its lattice (forces the convolution path)."""
    return PrivacyLossDistribution._trusted(pld.losses, pld.masses, pld.mass_at_infinity, None)


@given(xst.privacy_loss_distributions(), st.fractions(0, 1))
def test_epsilon_for_delta_is_the_least_epsilon_with_delta_at_most_the_target(pld, target):
    epsilon = pld.epsilon_for_delta(target)
    if target < pld.mass_at_infinity:
        assert epsilon.is_infinite
        assert pld.delta_for_epsilon(exp_epsilon=10**30) > target
        return
    ratio = epsilon.ratio
    assert type(ratio) is Fraction  # rational laws, rational δ: exact
    assert pld.delta_for_epsilon(exp_epsilon=ratio) <= target
    if ratio > 0:  # any smaller ε is not enough
        assert pld.delta_for_epsilon(exp_epsilon=ratio * Fraction(999_999, 10**6)) > target
    if 0 < ratio and target > pld.mass_at_infinity:
        assert pld.delta_for_epsilon(exp_epsilon=ratio) == target  # continuity


@given(xst.privacy_loss_distributions(lattice=True), st.integers(1, 30), st.fractions(0, 1))
def test_epsilon_for_delta_of_compositions_on_the_lattice(pld, k, target):
    composed = pld.self_compose(k)
    epsilon = composed.epsilon_for_delta(target)
    if epsilon.is_infinite:
        assert target < composed.mass_at_infinity
        return
    general = _general(composed)
    assert general.epsilon_for_delta(target) == epsilon
    assert composed.delta_for_epsilon(epsilon) <= target


@given(PAIRS, st.sampled_from([Fraction(2), Fraction(3), Fraction(3, 2)]))
def test_renyi_divergence_of_the_pld_is_the_moment_of_the_laws(pair, alpha):
    moment = bf.renyi_moment(bf.law(pair[0]), bf.law(pair[1]), alpha)
    value = _pld(pair).renyi_divergence(alpha)
    if moment is None:
        assert value.is_infinite
        return
    power = sympy.Rational((alpha - 1).numerator, (alpha - 1).denominator)
    assert certify.compare(sympy.sympify(value.ratio) ** power, moment) == 0


def test_a_thousand_fold_randomized_response_is_exact_and_matches_the_binomial_law():
    rr = PrivacyLossDistribution.from_privacy_parameters(exp_epsilon=3)
    composed = rr.self_compose(1000)
    assert len(composed.losses) == 1001
    # the mass of loss (1000 - 2j) log 3 is C(1000, j) 3^(1000-j) / 4^1000
    import math

    for j in (0, 1, 500, 999, 1000):
        loss = LogValue(Fraction(3) ** (1000 - 2 * j))
        mass = composed.masses[composed.losses.index(loss)]
        assert mass == Fraction(math.comb(1000, j) * 3 ** (1000 - j), 4**1000)
    assert composed.delta_for_epsilon(exp_epsilon=Fraction(3) ** 1000) == 0
    assert composed.delta_for_epsilon(exp_epsilon=Fraction(3) ** 998) == Fraction(
        3**1000 - 3**998, 4**1000
    )


# --- dp_accounting's own test values, exactly (pld/privacy_loss_distribution_test.py) ---
LOWER = {1: Fraction(1, 2), 2: Fraction(1, 2)}
UPPER = {1: Fraction(3, 5), 2: Fraction(2, 5)}


def test_dp_accountings_hockey_stick_basic_values_exactly():
    remove = privacy_loss_distribution(Distribution(UPPER), Distribution(LOWER))
    add = privacy_loss_distribution(Distribution(LOWER), Distribution(UPPER))
    assert max(remove.delta_for_epsilon(0), add.delta_for_epsilon(0)) == Fraction(1, 10)
    assert add.delta_for_epsilon(exp_epsilon="1.1") == Fraction(6, 100)
    assert remove.delta_for_epsilon(exp_epsilon="0.9") == Fraction(15, 100)  # ε = log 0.9 < 0


def test_dp_accountings_composition_at_negative_epsilon_exactly():
    lower1 = {1: Fraction(1, 5), 2: Fraction(1, 5), 3: Fraction(3, 5), 4: Fraction(0)}
    upper1 = {1: Fraction(1, 2), 2: Fraction(1, 5), 3: Fraction(0), 4: Fraction(3, 10)}
    lower2 = {1: Fraction(2, 5), 2: Fraction(3, 5), 3: Fraction(0)}
    upper2 = {1: Fraction(0), 2: Fraction(7, 10), 3: Fraction(3, 10)}
    first = privacy_loss_distribution(Distribution(upper1), Distribution(lower1))
    second = privacy_loss_distribution(Distribution(upper2), Distribution(lower2))
    composed = first.compose(second)
    p, q = bf.product(upper1, upper2), bf.product(lower1, lower2)
    for epsilon in ("-1/2", "-1", "-2", "0", "1/2"):
        expected = bf.hockey_stick(p, q, sympy.exp(sympy.Rational(epsilon)))
        value = composed.delta_for_epsilon(epsilon)
        assert certify.compare(sympy.sympify(value), expected) == 0, epsilon
    # the infinite masses dp_accounting asserts: 1 - (1 - 0.3)(1 - 0.3)
    assert composed.mass_at_infinity == Fraction(51, 100)


def _pmf(lower_loss, probs, infinity):
    """dp_accounting's PLDPmf with discretization 0.1: loss (lower + i)/10 has probs[i]."""
    losses, masses = [], []
    for i, mass in enumerate(probs):
        if mass:
            losses.append(LogValue(sympy.exp(sympy.Rational(lower_loss + i, 10))))
            masses.append(mass)
    return PrivacyLossDistribution(losses, masses, infinity)


def test_dp_accountings_pmf_values_exactly():
    pmf = _pmf(-1, [Fraction(2, 10), Fraction(3, 10), 0, Fraction(4, 10)], Fraction(1, 10))
    assert pmf.delta_for_epsilon(3) == Fraction(1, 10)
    expected = Fraction(1, 10) + Fraction(4, 10) * (1 - sympy.exp(-sympy.Rational(1, 10)))
    assert sympy.simplify(pmf.delta_for_epsilon("1/10") - expected) == 0
    assert pmf.delta_for_epsilon("-oo") == 1 and pmf.delta_for_epsilon("oo") == Fraction(1, 10)
    close_to_one = pmf.delta_for_epsilon(-20)
    assert certify.compare(close_to_one, 1) < 0 and certify.decimal(close_to_one, 6) == "1.00000"


def test_dp_accountings_composed_pmf_values_at_negative_epsilon_exactly():
    first = _pmf(
        -1, [Fraction(2, 10), Fraction(3, 10), 0, Fraction(1, 10), Fraction(3, 10)], Fraction(1, 10)
    )
    second = _pmf(-2, [Fraction(1, 10), 0, Fraction(4, 10), Fraction(3, 10)], Fraction(2, 10))
    composed = first.compose(second)
    for epsilon in (-10, -2, -1, "-1/2", "-3/20", 0, "1/10", 2, 10):
        expected = sympy.Integer(0) + composed.mass_at_infinity
        e = sympy.exp(sympy.Rational(epsilon))
        for a, m in zip(first.losses, first.masses, strict=True):
            for b, n in zip(second.losses, second.masses, strict=True):
                loss = sympy.sympify(a.ratio) * sympy.sympify(b.ratio)
                if sympy.N(loss - e, 60) > 0:
                    expected += m * n * (1 - e / loss)
        value = composed.delta_for_epsilon(epsilon)
        assert certify.compare(sympy.sympify(value), expected) == 0, epsilon


# --- construction and bad input -------------------------------------------------------
def test_from_privacy_parameters_is_randomized_response_plus_an_infinite_atom():
    pld = PrivacyLossDistribution.from_privacy_parameters(exp_epsilon=3, delta="1/10")
    assert list(pld) == [
        (LogValue(Fraction(1, 3)), Fraction(9, 40)),
        (LogValue(3), Fraction(27, 40)),
        (LogValue.infinity(), Fraction(1, 10)),
    ]
    assert PrivacyLossDistribution.from_privacy_parameters(0).masses == (1,)


@pytest.mark.parametrize(
    ("call", "error", "fragment"),
    [
        (
            lambda: PrivacyLossDistribution([LogValue(2)], [0.5, 0.5]),
            InvalidArgument,
            "same length",
        ),
        (lambda: PrivacyLossDistribution([LogValue(2)], [0.5], 0.5), InexactInput, "masses[0]"),
        (
            lambda: PrivacyLossDistribution([2], [1]),
            InvalidArgument,
            "losses[0]=2 must be a LogValue",
        ),
        (lambda: PrivacyLossDistribution([LogValue(2)], ["1/2"]), InvalidArgument, "sum to 1/2"),
        (lambda: PrivacyLossDistribution([LogValue("1/2")], [1]), InvalidArgument, "above 1"),
        (
            lambda: PrivacyLossDistribution([LogValue(2), LogValue(2)], ["1/2", "1/2"]),
            InvalidArgument,
            "twice",
        ),
        (lambda: PrivacyLossDistribution([LogValue.infinity()], [1]), InvalidArgument, "finite"),
        (lambda: PrivacyLossDistribution([], [], "-1"), InvalidArgument, "mass_at_infinity=-1"),
        (
            lambda: PrivacyLossDistribution.from_privacy_parameters(-1),
            InvalidArgument,
            "epsilon=-1",
        ),
        (
            lambda: PrivacyLossDistribution.from_privacy_parameters(1, delta=2),
            InvalidArgument,
            "delta=2",
        ),
        (lambda: _rr().self_compose(0), InvalidArgument, "k=0"),
        (lambda: _rr().self_compose(2.0), InvalidArgument, "k=2.0"),
        (lambda: _rr().compose("x"), InvalidArgument, "other must be"),
        (lambda: _rr().epsilon_for_delta("3/2"), InvalidArgument, "delta=3/2"),
        (lambda: _rr().epsilon_for_delta(0.1), InexactInput, "delta"),
        (lambda: _rr().renyi_divergence(1), InvalidArgument, "order=1"),
    ],
)
def test_bad_input_is_refused_naming_the_argument(call, error, fragment):
    with pytest.raises(error) as caught:
        call()
    assert fragment in str(caught.value)


def _rr():
    return PrivacyLossDistribution.from_privacy_parameters(exp_epsilon=3)


def test_the_size_bound_refuses_huge_convolutions_before_forming_them():
    general = _general(
        privacy_loss_distribution(
            Distribution({0: "1/2", 1: "1/3", 2: "1/6"}),
            Distribution({0: "1/6", 1: "1/3", 2: "1/2"}),
        )
    )
    with use_bounds(loss_atoms=8), pytest.raises(BoundExceeded, match="loss_atoms"):
        general.compose(general)
    with use_bounds(loss_atoms=100), pytest.raises(BoundExceeded, match="loss_atoms"):
        _rr().self_compose(1000)


def test_epsilon_for_delta_edge_cases():
    rr = _rr()
    assert rr.epsilon_for_delta(1) == LogValue(0)  # ε = -∞
    assert rr.epsilon_for_delta(0) == LogValue(3)
    with_infinite = PrivacyLossDistribution.from_privacy_parameters(exp_epsilon=3, delta="1/10")
    assert with_infinite.epsilon_for_delta("1/20").is_infinite
    only_infinite = PrivacyLossDistribution([], [], 1)
    assert only_infinite.epsilon_for_delta(1) == LogValue(0)
    assert only_infinite.epsilon_for_delta("1/2").is_infinite


def test_irrational_epsilon_and_symbolic_masses_are_certified():
    rr = PrivacyLossDistribution.from_privacy_parameters("1/2")  # masses in exp(1/2)
    twice = rr.compose(rr)
    value = twice.delta_for_epsilon("1/4")
    e = sympy.exp(sympy.Rational(1, 2))
    keep = e / (1 + e)
    expected = keep**2 * (1 - sympy.exp(sympy.Rational(1, 4)) / e**2)
    assert certify.compare(sympy.sympify(value), expected) == 0
    epsilon = twice.epsilon_for_delta("1/10")
    assert (
        certify.compare(sympy.sympify(twice.delta_for_epsilon(epsilon)), sympy.Rational(1, 10)) == 0
    )
