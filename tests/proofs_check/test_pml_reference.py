"""The PML reference (proofs_check.reference.pml) against hand-computed values.

The claim checks compare exactpml with these functions; here each function is pinned on
small instances computed by hand from the definitions of Saeidian et al. (Bayes' rule,
Defs 2.1-2.6, 3.3, 3.9), so that the reference cannot drift along with the library.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpml import Distribution, Mechanism
from proofs_check import reference as ref

RR = Mechanism({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}})
PRIOR = Distribution({0: "2/3", 1: "1/3"})


def test_posteriors_and_leakage_by_bayes_rule() -> None:
    # p_Y(1) = 2/3·1/4 + 1/3·3/4 = 5/12; posterior of 1: (1/4)/(5/12) = 3/5
    assert ref.output_mass(RR, PRIOR, 1) == Fraction(5, 12)
    assert ref.attribute_posterior(RR, PRIOR, 1) == {0: Fraction(2, 5), 1: Fraction(3, 5)}
    assert ref.pml_ratio(RR, PRIOR, 1) == Fraction(9, 5)
    assert ref.posterior_certainty(RR, PRIOR, 1) == Fraction(3, 5)
    assert ref.max_pml_ratio(RR, PRIOR) == Fraction(9, 5)  # y = 0: (3/4)/(7/12) = 9/7


def test_the_joint_divergence_is_the_largest_density_ratio() -> None:
    assert ref.joint_divergence_ratio(RR, PRIOR) == Fraction(9, 5)
    # reversed: p(x)p(y)/p(x,y) = p_Y(y)/p(y|x), largest (7/12)/(1/4) = 7/3
    assert ref.joint_divergence_ratio(RR, PRIOR, reversed_=True) == Fraction(7, 3)
    identity = Mechanism.identity([0, 1])
    assert ref.joint_divergence_ratio(identity, PRIOR, reversed_=True) is None


def test_mass_within_is_form_one_of_def_2_6() -> None:
    assert ref.mass_within(RR, PRIOR, Fraction(9, 5)) == 1
    assert ref.mass_within(RR, PRIOR, Fraction(3, 2)) == Fraction(7, 12)  # only y = 0 (9/7)
    assert ref.mass_within(RR, PRIOR, Fraction(1)) == 0


def test_disclosure_and_singling_out_from_the_definitions() -> None:
    parity = Mechanism.deterministic(lambda x: x % 2, [0, 1, 2], outputs=[0, 1])
    revealing = Mechanism({0: {0: 1}, 1: {0: "1/2", 1: "1/2"}, 2: {1: 1}}, outputs=[0, 1])
    uniform = Distribution.uniform([0, 1, 2])
    # y = 0 comes from x in {0, 1}: parity not a point mass; y = 1 from {1, 2}: neither
    assert not ref.discloses(revealing, parity, uniform)
    assert not ref.singles_out(revealing, uniform)
    at_zero = Mechanism.deterministic(lambda x: int(x == 0), [0, 1, 2], outputs=[0, 1])
    # U = 1{X = 0}: y = 1 comes from x in {1, 2} only, where U = 0
    assert ref.attribute_posterior(revealing, uniform, 1, at_zero) == {
        0: Fraction(1),
        1: Fraction(0),
    }
    assert ref.discloses(revealing, at_zero, uniform)
    assert ref.singles_out(Mechanism.identity([0, 1, 2]), uniform)
    # a constant attribute is "disclosed" by any mechanism (H_inf = 0 before any output)
    constant = Mechanism.deterministic(lambda _x: 0, [0, 1, 2])
    assert ref.discloses(revealing, constant, uniform)


def test_entry_leakage_by_enumeration() -> None:
    databases = [(0, 0), (0, 1), (1, 0), (1, 1)]
    # Y = first entry with probability 3/4 (randomized response on D_0)
    mechanism = Mechanism(
        {x: {0: "3/4" if x[0] == 0 else "1/4", 1: "1/4" if x[0] == 0 else "3/4"} for x in databases}
    )
    prior = {x: Fraction(1, 4) for x in databases}
    assert ref.entry_pml_ratio(mechanism, prior, 0, 0) == Fraction(3, 2)
    assert ref.entry_pml_ratio(mechanism, prior, 0, 1) == 1
    assert ref.entry_pml_ratio(mechanism, prior, 0, 0, rest=(1,)) == Fraction(3, 2)


@pytest.mark.parametrize("n", [1, 4, 7])
def test_the_binomial_tail_sums_the_law(n: int) -> None:
    p = Fraction(3, 10)
    assert ref.binomial_lower_tail(n, n, p) == 1
    assert ref.binomial_lower_tail(n, -1, p) == 0
    assert ref.binomial_lower_tail(n, 0, p) == (1 - p) ** n


@pytest.mark.parametrize("exponent", [Fraction(1, 2), Fraction(1), Fraction(7, 2), Fraction(12)])
def test_ratio_at_most_exp_brackets_e_to_the_q(exponent: Fraction) -> None:
    value = math.exp(exponent)
    for scale in (Fraction(999_999, 10**6), Fraction(1_000_001, 10**6)):
        ratio = Fraction(value) * scale
        assert ref.ratio_at_most_exp(ratio, exponent) is (scale < 1)
    assert ref.ratio_at_most_exp(Fraction(1), Fraction(0))
    assert not ref.ratio_at_most_exp(Fraction(1, 10**9) + 1, Fraction(0))


def test_neighbour_pairs_by_substitution_are_the_pairs_at_hamming_distance_one() -> None:
    # independent of pairs_at_distance's substitution: the quadratic filter of the definition
    import itertools
    import random

    generator = random.Random(7)
    for size in (1, 2, 3):
        full = list(itertools.product((0, 1, 2), repeat=size))
        for _ in range(20):
            subset = [x for x in full if generator.random() < 0.6]
            for distance in (1, 2):
                expected = {
                    (x, x2)
                    for x in subset
                    for x2 in subset
                    if sum(a != b for a, b in zip(x, x2, strict=True)) == distance
                }
                pairs = ref.pairs_at_distance(subset, distance)
                assert len(pairs) == len(set(pairs))
                assert set(pairs) == expected


def test_the_binomial_tail_equals_the_sum_of_the_binomial_law_in_fractions() -> None:
    # the definition Σ_{k<=m} C(n,k) p^k (1-p)^(n-k) in Fraction arithmetic, every m
    for n in range(0, 13):
        for p in (Fraction(0), Fraction(1), Fraction(3, 10), Fraction(5, 7)):
            for m in range(-2, n + 3):
                expected = sum(
                    (math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(0, min(m, n) + 1)),
                    Fraction(0),
                )
                assert ref.binomial_lower_tail(n, m, p) == expected
    # Figure 1's sizes (Horner's rule in 1 - p there): the same sum, term by term in integers
    for n, p in ((200, Fraction(3, 10)), (777, Fraction(1, 2)), (2000, Fraction(3, 10))):
        a, d = p.numerator, p.denominator
        for m in (0, 1, n // 10, n // 2, n - 1, n):
            terms = sum(math.comb(n, k) * a**k * (d - a) ** (n - k) for k in range(m + 1))
            assert ref.binomial_lower_tail(n, m, p) == Fraction(terms, d**n)


Rows = Mapping[Hashable, Mapping[Hashable, Fraction]]
Law = Mapping[Hashable, Fraction]


def _fraction_guessing_gain(rows: Rows, prior: Law, after: Law) -> Fraction:
    """The ratio inside Def 2.3 with the MAP guess, summed in Fractions as written."""
    values = {u for row in rows.values() for u in row}
    before = {
        u: sum((prior[x] * row.get(u, Fraction(0)) for x, row in rows.items()), Fraction(0))
        for u in values
    }
    given = {
        u: sum((after[x] * row.get(u, Fraction(0)) for x, row in rows.items()), Fraction(0))
        for u in values
    }
    return max(given.values()) / max(before.values())


def _law(weights: list[int]) -> list[Fraction]:
    total = sum(weights)
    return [Fraction(w, total) for w in weights]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    inputs=st.integers(1, 4),
    values=st.integers(1, 5),
    data=st.data(),
)
def test_guessing_gain_in_integers_is_the_fraction_sum(
    inputs: int, values: int, data: st.DataObject
) -> None:
    # the integer sums over common denominators equal the Fraction sums of the definition
    positive = st.lists(st.integers(1, 30), min_size=values, max_size=values)
    rows: Rows = {x: dict(enumerate(_law(data.draw(positive)))) for x in range(inputs)}
    masses = st.lists(st.integers(1, 30), min_size=inputs, max_size=inputs)
    prior: Law = dict(enumerate(_law(data.draw(masses))))
    after: Law = dict(enumerate(_law(data.draw(masses))))
    assert ref.guessing_gain(rows, prior, after) == _fraction_guessing_gain(rows, prior, after)


def test_guessing_gain_by_hand() -> None:
    # U = X on a binary X, prior (2/3, 1/3), posterior (2/5, 3/5): max 3/5 over max 2/3 = 9/10
    rows: Rows = {0: {0: Fraction(1)}, 1: {1: Fraction(1)}}
    prior: Law = {0: Fraction(2, 3), 1: Fraction(1, 3)}
    after: Law = {0: Fraction(2, 5), 1: Fraction(3, 5)}
    assert ref.guessing_gain(rows, prior, after) == Fraction(9, 10)
