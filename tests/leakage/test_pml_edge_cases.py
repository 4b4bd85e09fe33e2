"""Edge cases of the PML measures, capacities and divergences: priors whose alphabet order
differs from the inputs, irrational (√2) and symbolic kernels, ε = 0 given as a number, sets
of priors mixing private and non-private ones, attributes, outputs of probability zero.

Expected values come from ``proofs_check/reference`` (plain ``Fraction`` enumeration) for
rational instances, and for irrational ones from the definitions evaluated here in sympy
(``_pml_ratio_by_definition``: the largest posterior-to-prior ratio, Def 2.2 applied to
Bayes' rule, Thm 2.4) or by hand (each test says which).
"""

import math
from fractions import Fraction

import pytest
import sympy

from exactpml import (
    Distribution,
    LogValue,
    Mechanism,
    conditional_pointwise_maximal_leakage,
    guessing_gain,
    is_pml_private,
    kl_divergence,
    leakage_capacity,
    max_pointwise_maximal_leakage,
    maximal_leakage,
    min_entropy,
    pml,
    pointwise_maximal_leakage_by_output,
    posterior_min_entropy,
    probability_leakage_at_most,
    renyi_divergence_inf,
    total_variation,
)
from exactpml.core.exact import to_sympy
from exactpml.errors import InvalidArgument
from exactpml.leakage.profile import _largest_ratio, _log2, leakage_profile
from proofs_check import reference as bf

F = Fraction
ROOT2 = sympy.sqrt(2)
HALF = sympy.Rational(1, 2)


def _same(value, expected):
    return sympy.simplify(to_sympy(value) - to_sympy(expected)) == 0


def _pml_ratio_by_definition(rows, prior, y):
    """max over x in supp P_X of P(x|y)/P(x) by Bayes' rule (sympy), 1 when p_Y(y) = 0."""
    mass = sum(prior[x] * rows[x][y] for x in rows)
    if sympy.simplify(mass) == 0:
        return sympy.Integer(1)
    ratios = [(prior[x] * rows[x][y] / mass) / prior[x] for x in rows if prior[x] != 0]
    return sympy.Max(*[sympy.nsimplify(sympy.radsimp(r)) for r in ratios])


# √2/2 ≈ 0.707 (the kernels below are checked by hand where they say so)
IRRATIONAL_ROWS = {
    "a": {0: ROOT2 / 2, 1: 1 - ROOT2 / 2},
    "b": {0: HALF, 1: HALF},
    "c": {0: sympy.Integer(0), 1: sympy.Integer(1)},
}
IRRATIONAL = Mechanism(IRRATIONAL_ROWS, outputs=[0, 1, 2])


# --- priors in another order than the inputs -----------------------------------------------
def test_prior_listed_in_another_order_than_the_inputs():
    mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}, "c": {1: 1}})
    prior = Distribution({"c": "1/2", "a": "1/3", "b": "1/6"})
    profile = pointwise_maximal_leakage_by_output(mechanism, prior)
    for y in mechanism.outputs:
        assert profile[y].ratio == bf.pml_ratio(mechanism, prior, y)
    assert profile.masses() == [bf.output_mass(mechanism, prior, y) for y in mechanism.outputs]
    # hand computation: p_Y(0) = 1/3·3/4 + 1/6·1/4 = 7/24, max p(0|x) = 3/4: ratio 18/7
    assert profile[0].ratio == F(18, 7)
    assert max_pointwise_maximal_leakage(mechanism, prior).ratio == bf.max_pml_ratio(
        mechanism, prior
    )


# --- ε = 0 as a number, and sets of priors ---------------------------------------------------
def test_epsilon_zero_given_as_a_number():
    independent = Mechanism({"a": {0: "1/3", 1: "2/3"}, "b": {0: "1/3", 1: "2/3"}})
    leaky = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
    prior = Distribution({"b": "1/4", "a": "3/4"})
    assert bf.rows_identical(independent) and not bf.rows_identical(leaky)
    assert is_pml_private(independent, prior, 0)
    assert probability_leakage_at_most(independent, prior, 0) == 1
    assert not is_pml_private(leaky, prior, 0)
    # only the outputs whose leakage is exactly 0 count (reference: mass within e^0 = 1)
    assert probability_leakage_at_most(leaky, prior, 0) == bf.mass_within(leaky, prior, F(1))
    # a leaky row outside the prior's support leaks nothing
    support = Mechanism({"a": {0: "1/3", 1: "2/3"}, "b": {0: "1/3", 1: "2/3"}, "c": {0: 1}})
    assert is_pml_private(support, Distribution({"c": 0, "a": "1/2", "b": "1/2"}), 0)
    assert not is_pml_private(support, Distribution({"c": "1/3", "a": "1/3", "b": "1/3"}), 0)


def test_a_set_of_priors_is_private_only_when_every_prior_is():
    mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
    skewed = Distribution({"a": "9/10", "b": "1/10"})
    uniform = Distribution({"b": "1/2", "a": "1/2"})
    # exp ε_P is 3/2 for the uniform prior, 5/2 for the skewed one (hand computation:
    # p_Y(1) = 9/40 + 3/40 = 3/10 and max p(1|x) = 3/4), as the reference says
    assert bf.max_pml_ratio(mechanism, uniform) == F(3, 2)
    assert bf.max_pml_ratio(mechanism, skewed) == F(5, 2)
    bound = LogValue(2)
    assert is_pml_private(mechanism, [uniform], bound)
    assert not is_pml_private(mechanism, [uniform, skewed], bound)
    assert not is_pml_private(mechanism, (p for p in [skewed, uniform]), bound)
    assert is_pml_private(mechanism, [uniform, skewed], exp_epsilon=F(5, 2))
    with pytest.raises(InvalidArgument, match="empty"):
        is_pml_private(mechanism, [], bound)


# --- irrational and symbolic kernels ---------------------------------------------------------
def test_pml_of_an_irrational_kernel_matches_the_definition():
    prior_masses = {"a": HALF, "b": sympy.Rational(1, 3), "c": sympy.Rational(1, 6)}
    prior = Distribution({x: str(v) for x, v in prior_masses.items()})
    profile = pointwise_maximal_leakage_by_output(IRRATIONAL, prior)
    for y in (0, 1, 2):
        expected = _pml_ratio_by_definition(IRRATIONAL_ROWS, prior_masses, y) if y < 2 else 1
        assert _same(profile[y].ratio, expected)
        assert _same(pml(IRRATIONAL, prior, y).ratio, expected)
    # hand computation, prior (1/2, 1/2, 0): p_Y(0) = (√2 + 1)/4, p_Y(1) = (3 - √2)/4;
    # ratios 4 - 2√2 ≈ 1.17 and 2/(3 - √2) = 2(3 + √2)/7 ≈ 1.26, the larger
    half = Distribution({"a": "1/2", "b": "1/2", "c": 0})
    assert _same(pml(IRRATIONAL, half, 0).ratio, 4 - 2 * ROOT2)
    assert _same(pml(IRRATIONAL, half, 1).ratio, 2 * (3 + ROOT2) / 7)
    assert pml(IRRATIONAL, half, 2) == 0  # never produced: footnote 5
    assert _same(max_pointwise_maximal_leakage(IRRATIONAL, half).ratio, 2 * (3 + ROOT2) / 7)


def test_irrational_priors_on_a_rational_kernel():
    mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
    w = ROOT2 / 4  # ≈ 0.354
    prior = Distribution._trusted(("b", "a"), [1 - w, w])
    masses = {"a": w, "b": 1 - w}
    rows = {x: {y: to_sympy(mechanism.probability(x, y)) for y in (0, 1)} for x in "ab"}
    for y in (0, 1):
        assert _same(pml(mechanism, prior, y).ratio, _pml_ratio_by_definition(rows, masses, y))
    # hand computation: p_Y(0) = 3w/4 + (1 - w)/4 = (1 + 2w)/4, p_Y(1) = (3 - 2w)/4, and
    # max p(y|x) = 3/4 for both: the ratios 3/(1 + 2w) ≈ 1.76 and 3/(3 - 2w) ≈ 1.31
    assert _same(pml(mechanism, prior, 1).ratio, 3 / (3 - 2 * w))
    assert _same(max_pointwise_maximal_leakage(mechanism, prior).ratio, 3 / (1 + 2 * w))


def test_capacity_and_maximal_leakage_of_an_irrational_kernel():
    # columns (√2/2, 1/2, 0) mixes zero and non-zero: infinite; without row c the column
    # ratios are √2 and (1/2)/(1 - √2/2) = 1/(2 - √2) ≈ 1.71, the larger (hand computation)
    assert leakage_capacity(IRRATIONAL).is_infinite
    rows = Mechanism(
        {"a": IRRATIONAL_ROWS["a"], "b": IRRATIONAL_ROWS["b"]}, outputs=[2, 0, 1]
    )  # an all-zero column first: ignored
    assert _same(leakage_capacity(rows).ratio, 1 / (2 - ROOT2))
    assert _same(leakage_capacity(rows).ratio, bf_capacity_by_definition(rows))
    # maximal leakage Σ_y max_x p(y|x): over every input √2/2 + 1; over supp = {a, b}
    # √2/2 + 1/2 (the row c, of prior mass 0, is left out)
    assert _same(maximal_leakage(IRRATIONAL).ratio, ROOT2 / 2 + 1)
    prior = Distribution({"c": 0, "b": "1/2", "a": "1/2"})
    assert _same(maximal_leakage(IRRATIONAL, prior).ratio, ROOT2 / 2 + HALF)


def bf_capacity_by_definition(mechanism):
    """max over columns with a positive entry of max/min (all entries positive here)."""
    best = sympy.Integer(1)
    for y in mechanism.outputs:
        column = [to_sympy(v) for v in mechanism.column(y)]
        if all(v == 0 for v in column):
            continue
        best = sympy.Max(best, sympy.Max(*column) / sympy.Min(*column))
    return best


def test_capacity_of_a_symbolic_kernel():
    t = sympy.Symbol("t", positive=True)
    # column 0: (1/(2+t), 1/2) -> ratio (1/2)(2+t) = 1 + t/2; column 1: ((1+t)/(2+t), 1/2)
    # -> ratio 2(1+t)/(2+t) < 2; sympy keeps the Max of the two (hand computation)
    mechanism = Mechanism({"a": {0: 1 / (2 + t), 1: (1 + t) / (2 + t)}, "b": {0: HALF, 1: HALF}})
    value = leakage_capacity(mechanism).ratio
    expected = sympy.Max(1 + t / 2, 2 * (1 + t) / (2 + t))
    for point in (sympy.Rational(1, 3), 1, 4):
        assert sympy.simplify(value.subs(t, point) - expected.subs(t, point)) == 0
    zero_somewhere = Mechanism({"a": {0: t / (1 + t), 1: 1 / (1 + t)}, "b": {1: 1}})
    assert leakage_capacity(zero_somewhere).is_infinite
    assert sympy.simplify(maximal_leakage(zero_somewhere).ratio - (1 + t / (1 + t))) == 0


def test_symbolic_profile_maximum_skips_outputs_of_probability_zero():
    t = sympy.Symbol("t", positive=True)
    mechanism = Mechanism({"a": {0: 1 / (1 + t), 1: t / (1 + t)}, "b": {0: 1}}, outputs=[0, 1, 2])
    prior = Distribution({"a": "1/2", "b": "1/2"})
    # p_Y(1) = t/(2(1+t)), max p(1|x) = t/(1+t): ratio 2; p_Y(0) = (2+t)/(2(1+t)) ratio
    # 2(1+t)/(2+t) < 2; output 2 is never produced (hand computation)
    assert max_pointwise_maximal_leakage(mechanism, prior).ratio == 2
    assert leakage_profile(mechanism, prior)[2] == 0


# --- attributes -------------------------------------------------------------------------------
MECHANISM = Mechanism(
    {
        "a": {0: "1/2", 1: "1/4", 2: "1/4"},
        "b": {0: "1/8", 1: "3/4", 2: "1/8"},
        "c": {0: "1/8", 1: "1/8", 2: "3/4"},
        "d": {0: 1},
    },
    outputs=[0, 1, 2, 3],
)
PRIOR = Distribution({"d": "1/10", "c": "2/10", "b": "3/10", "a": "4/10"})
ATTRIBUTE = Mechanism({"a": {"u": 1}, "b": {"u": "1/2", "v": "1/2"}, "c": {"v": 1}, "d": {"w": 1}})


def test_attribute_leakage_by_output_and_its_maximum():
    by_output = pointwise_maximal_leakage_by_output(MECHANISM, PRIOR, attribute=ATTRIBUTE)
    expected = {y: bf.attribute_pml_ratio(MECHANISM, PRIOR, ATTRIBUTE, y) for y in range(4)}
    assert {y: v.ratio for y, v in by_output.items()} == expected
    assert expected[3] == 1  # output 3 is never produced: footnote 5
    positive = [expected[y] for y in range(3)]
    assert max(positive) > 1
    assert max_pointwise_maximal_leakage(MECHANISM, PRIOR, attribute=ATTRIBUTE).ratio == max(
        positive
    )
    assert pml(MECHANISM, PRIOR, 3, attribute=ATTRIBUTE) == 0


def test_attribute_with_a_value_of_prior_probability_zero():
    prior = Distribution({"a": "1/2", "b": "1/4", "c": "1/4", "d": 0})  # U = w impossible
    for y in range(4):
        expected = bf.attribute_pml_ratio(MECHANISM, prior, ATTRIBUTE, y)
        assert pml(MECHANISM, prior, y, attribute=ATTRIBUTE).ratio == expected


def test_symbolic_attribute_keeps_its_conditions():
    t = sympy.Symbol("t", positive=True)
    attribute = Mechanism({"a": {0: 1 - t, 1: t}, "b": {0: 1}, "c": {1: 1}, "d": {1: 1}})
    value = pml(MECHANISM, PRIOR, 0, attribute=attribute)
    assert sympy.Ge(1 - t, 0) in value.conditions


def test_guessing_gain_and_posterior_min_entropy_match_the_reference():
    rows = {x: ATTRIBUTE.row(x).as_dict() for x in ATTRIBUTE.inputs}
    before = PRIOR.as_dict()
    for y in range(4):
        after = bf.posterior(MECHANISM, PRIOR, y)
        gain = guessing_gain(MECHANISM, PRIOR, y, ATTRIBUTE)
        assert gain.ratio == bf.guessing_gain(rows, before, after)
        certainty = bf.posterior_certainty(MECHANISM, PRIOR, y, ATTRIBUTE)
        assert posterior_min_entropy(MECHANISM, PRIOR, y, attribute=ATTRIBUTE).ratio == (
            1 / certainty
        )
        assert posterior_min_entropy(MECHANISM, PRIOR, y).ratio == 1 / bf.posterior_certainty(
            MECHANISM, PRIOR, y
        )
    # hand computation for y = 0: posterior ∝ (4/10·1/2, 3/10·1/8, 2/10·1/8, 1/10·1)
    # = (16, 3, 2, 8)/29, so P(U=u|0) = 16/29 + 3/58 = 35/58 against max p_U = 11/20
    assert guessing_gain(MECHANISM, PRIOR, 0, ATTRIBUTE).ratio == F(35, 58) / F(11, 20)


def test_conditional_pml_refuses_bad_side_information():
    with pytest.raises(InvalidArgument, match="given must be a callable, got str"):
        conditional_pointwise_maximal_leakage(MECHANISM, PRIOR, 0, given="a", value=1)
    with pytest.raises(InvalidArgument, match="no input has side information"):
        conditional_pointwise_maximal_leakage(
            MECHANISM, PRIOR, 0, given=lambda x: x == "a", value=3
        )


def test_wrong_argument_types_are_named():
    with pytest.raises(InvalidArgument, match="mechanism"):
        pml({"a": {0: 1}}, Distribution({"a": 1}), 0)
    with pytest.raises(InvalidArgument, match="prior"):
        pml(MECHANISM, {"a": 1}, 0)


# --- divergences ------------------------------------------------------------------------------
def test_kl_divergence_skips_points_outside_the_support_of_p():
    # hand computation: 0 + 1/2 log((1/2)/(1/4)) + 1/2 log((1/2)/(1/2)) = log(2)/2
    value = kl_divergence(
        Distribution({0: 0, 1: "1/2", 2: "1/2"}), Distribution({0: "1/4", 1: "1/4", 2: "1/2"})
    )
    assert sympy.simplify(value - sympy.log(2) / 2) == 0


def test_divergences_of_irrational_laws():
    p = Distribution({0: ROOT2 / 2, 1: 1 - ROOT2 / 2})
    q = Distribution({0: "1/2", 1: "1/2"})
    # hand computation: D∞ = log max(√2, 2 - √2) = log √2; TV = √2/2 - 1/2
    assert _same(renyi_divergence_inf(p, q).ratio, ROOT2)
    assert _same(total_variation(p, q), ROOT2 / 2 - HALF)
    assert _same(min_entropy(p).ratio, ROOT2)
    # irrational differences whose absolute values sum to a rational: TV = 1/4, a Fraction
    r = Distribution({0: F(1, 4) + ROOT2 / 8, 1: HALF - ROOT2 / 8, 2: "1/4"})
    s = Distribution({0: "1/4", 1: "1/4", 2: "1/2"})
    value = total_variation(r, s)
    assert type(value) is Fraction and value == F(1, 4)
    zero_first = Distribution({0: 0, 1: ROOT2 / 2, 2: 1 - ROOT2 / 2})
    uniform = Distribution({0: "1/3", 1: "1/3", 2: "1/3"})
    assert _same(renyi_divergence_inf(zero_first, uniform).ratio, 3 * ROOT2 / 2)


def test_divergences_refuse_different_alphabets_naming_both_sides():
    p, q = Distribution({0: "1/2", 1: "1/2"}), Distribution({0: "1/2", 2: "1/2"})
    for divergence in (renyi_divergence_inf, kl_divergence, total_variation):
        with pytest.raises(InvalidArgument, match=r"only in the first \[1\].*second \[2\]"):
            divergence(p, q)


# --- the profile's float proposals --------------------------------------------------------
@pytest.mark.parametrize(
    "value", [1, 2, 3, 5, 7, 2**52 + 1, 2**62 - 1, 2**62 + 1, 3**50, 2**200 + 12345, 7**2000]
)
def test_log2_is_within_its_stated_error_at_every_size(value):
    # math.log2 of a Python int is correctly computed at any size (independent route)
    assert abs(_log2(value) - math.log2(value)) <= 1e-12 * max(1.0, math.log2(value))


def test_largest_ratio_is_not_misled_by_the_size_of_its_integers():
    # ratios 8 (small integers) and 1 (huge integers), then a zero top and a zero mass
    tops, masses = [8, 10**30, 0, 5], [1, 10**30, 3, 0]
    assert _largest_ratio(tops, masses) == 0
    assert _largest_ratio([0, 1], [2, 3]) == 1
    assert _largest_ratio([1, 0], [0, 0]) is None


def test_the_profile_is_a_mapping_over_every_output():
    profile = leakage_profile(IRRATIONAL, Distribution({"a": "1/2", "b": "1/2", "c": 0}))
    assert len(profile) == 3 and list(profile) == [0, 1, 2]


def test_a_coarse_attribute_leaks_less_than_the_input_and_its_maximum_says_so():
    parity = Mechanism.deterministic(lambda x: x in ("a", "b"), MECHANISM.inputs)
    by_output = {y: bf.attribute_pml_ratio(MECHANISM, PRIOR, parity, y) for y in range(3)}
    assert max(by_output.values()) < bf.max_pml_ratio(MECHANISM, PRIOR)  # a discriminating case
    value = max_pointwise_maximal_leakage(MECHANISM, PRIOR, attribute=parity)
    assert value.ratio == max(by_output.values())


def test_total_variation_of_irrational_differences_with_a_rational_sum():
    # differences d = (√2/8, 1/4 − √2/8, −√2/16, √2/16 − 1/4), all irrational: the positive
    # part sums to 1/4 = TV (hand computation), returned as a Fraction
    quarter = F(1, 4)
    p = Distribution(
        {0: quarter + ROOT2 / 8, 1: F(1, 2) - ROOT2 / 8, 2: quarter - ROOT2 / 16, 3: ROOT2 / 16}
    )
    q = Distribution({0: quarter, 1: quarter, 2: quarter, 3: quarter})
    value = total_variation(p, q)
    assert type(value) is Fraction and value == quarter


def test_largest_ratio_keeps_float_near_ties_for_the_exact_comparison():
    # ratios just above 1 whose float logarithms (7.1e-15 and 0.0) are in the wrong order:
    # a margin proportional to |log| alone (0 near log 0) would drop the true maximum
    tops = [7677822575816817221, 3910813996862579898]
    masses = [7677822575816817122, 3910813996862579812]
    assert Fraction(tops[1], masses[1]) > Fraction(tops[0], masses[0])
    assert _log2(tops[1]) - _log2(masses[1]) < _log2(tops[0]) - _log2(masses[0])
    assert _largest_ratio(tops, masses) == 1
    # million-bit ratios (log2 ≈ 10^6): a relative rounding error of 1e-16 misorders their
    # logarithms by ~1e-10, above 1e-6 / 10^6, so the margin must grow with |log|
    shift = 1_000_000
    a, m1, m2 = 769965226623475991344, 611094350337506720, 1937710844023202543
    t1 = a << shift
    t2 = t1 * m2 // m1 + (1 << (shift - 80))
    assert t2 * m1 > t1 * m2  # t2/m2 is the larger, exactly
    assert _log2(t2) - _log2(m2) < _log2(t1) - _log2(m1)
    assert _largest_ratio([t1, t2], [m1, m2]) == 1
