"""Every output's PML computed once per (mechanism, prior): the natural per-output call, the
batched mapping and the maximum agree with a brute force written from Def 2.3 / Thm 2.4
(proofs_check/reference/pml.py), on rational and symbolic kernels, with permuted prior alphabets."""

from fractions import Fraction

import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactpml import (
    Distribution,
    Mechanism,
    max_pointwise_maximal_leakage,
    pointwise_maximal_leakage,
    pointwise_maximal_leakage_by_output,
)
from exactpml import strategies as xst
from exactpml.leakage.profile import LeakageProfile, leakage_profile
from proofs_check.reference import pml as bf


@st.composite
def mechanisms_with_priors(draw):
    mechanism = draw(xst.mechanisms())
    prior = draw(xst.distributions(outcomes=mechanism.inputs))
    if draw(st.booleans()):  # the prior's alphabet in another order than the inputs
        order = draw(st.permutations(list(prior.outcomes)))
        prior = Distribution({x: prior[x] for x in order})
    return mechanism, prior


@given(mechanisms_with_priors())
def test_the_natural_per_output_call_the_mapping_and_brute_force_agree(pair):
    mechanism, prior = pair
    profile = pointwise_maximal_leakage_by_output(mechanism, prior)
    assert isinstance(profile, LeakageProfile)
    for y in mechanism.outputs:
        expected = bf.pml_ratio(mechanism, prior, y)  # independent: from the posterior
        assert pointwise_maximal_leakage(mechanism, prior, y).ratio == expected
        assert profile[y].ratio == expected
    assert dict(profile) == {y: profile[y] for y in mechanism.outputs}
    masses = [bf.output_mass(mechanism, prior, y) for y in mechanism.outputs]
    assert profile.masses() == masses
    pairs = zip(mechanism.outputs, masses, strict=True)
    positive = [bf.pml_ratio(mechanism, prior, y) for y, m in pairs if m]
    assert max_pointwise_maximal_leakage(mechanism, prior).ratio == max(positive, default=1)


def test_profiles_are_cached_per_prior_object_and_never_confused():
    mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
    first = Distribution({"a": "2/3", "b": "1/3"})
    second = Distribution({"a": "1/3", "b": "2/3"})
    assert leakage_profile(mechanism, first) is leakage_profile(mechanism, first)
    assert pointwise_maximal_leakage(mechanism, first, 1).ratio == Fraction(9, 5)
    assert pointwise_maximal_leakage(mechanism, second, 1).ratio == Fraction(9, 7)
    # many priors: the cache keeps a few, and every answer stays right
    for k in range(1, 30):
        prior = Distribution({"a": Fraction(k, 31), "b": Fraction(31 - k, 31)})
        mass = Fraction(k, 31) * Fraction(1, 4) + Fraction(31 - k, 31) * Fraction(3, 4)
        assert pointwise_maximal_leakage(mechanism, prior, 1).ratio == Fraction(3, 4) / mass


def test_per_row_denominators_are_compared_unreduced_and_read_reduced():
    # rows with coprime per-row denominators: the ratios have large unreduced pairs
    rows = {x: {0: Fraction(1, p), 1: Fraction(p - 1, p)} for x, p in enumerate([3, 7, 11, 13])}
    mechanism = Mechanism(rows)
    prior = Distribution({0: "1/10", 1: "2/10", 2: "3/10", 3: "4/10"})
    profile = leakage_profile(mechanism, prior)
    for y in (0, 1):
        assert profile[y].ratio == bf.pml_ratio(mechanism, prior, y)
    assert profile.maximum().ratio == max(bf.pml_ratio(mechanism, prior, y) for y in (0, 1))


def test_symbolic_kernels_use_the_same_profile():
    t = sympy.Symbol("t", positive=True)
    mechanism = Mechanism({"a": {0: 1 - t / 2, 1: t / 2}, "b": {0: t / 2, 1: 1 - t / 2}})
    prior = Distribution({"a": "1/2", "b": "1/2"})
    profile = pointwise_maximal_leakage_by_output(mechanism, prior)
    # max_x p(0|x) / p_Y(0) with p_Y(0) = 1/2 (t is positive, not known to be <= 1)
    assert sympy.simplify(profile[0].ratio - 2 * sympy.Max(t / 2, 1 - t / 2)) == 0
    assert pointwise_maximal_leakage(mechanism, prior, 0) == profile[0]


@given(
    st.lists(st.tuples(st.integers(0, 2**4000), st.integers(0, 2**4000)), min_size=1, max_size=8)
)
def test_the_largest_ratio_is_chosen_exactly_even_for_near_ties(pairs):
    from exactpml.leakage.profile import _largest_ratio

    # near-ties: every pair also appears scaled, and nudged by one unit in 4000 bits
    pairs = pairs + [(3 * t, 3 * m) for t, m in pairs] + [(t + 1, m) for t, m in pairs if m]
    tops, masses = [t for t, _ in pairs], [m for _, m in pairs]
    candidates = [Fraction(t, m) for t, m in pairs if m]
    best = _largest_ratio(tops, masses)
    if not candidates:
        assert best is None
    else:
        assert Fraction(tops[best], masses[best]) == max(candidates)
