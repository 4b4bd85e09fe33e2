"""Subsampled mechanisms against enumeration of the samples, and the amplification bounds.

Poisson subsampling is enumerated as n independent coin flips (itertools.product of kept /
dropped), sampling without replacement as the first m positions of every permutation of
the records (sorted back into index order): other enumerations than the library's subsets.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpml import DatabaseMechanism
from exactpml import strategies as xst
from exactpml.database import BOTTOM, DatabaseSpace
from exactpml.errors import InvalidArgument
from exactpml.notions import (
    delta_for_epsilon,
    poisson_amplification,
    poisson_subsampled,
    subsampled_without_replacement,
    without_replacement_amplification,
)

RATES = st.sampled_from([Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1)])


def _masked_mechanisms(size):
    return xst.database_mechanisms(space=DatabaseSpace([BOTTOM, 0, 1], size), max_outputs=3)


@settings(max_examples=30)
@given(st.integers(1, 2).flatmap(_masked_mechanisms), RATES)
def test_poisson_rows_are_the_average_over_independent_coin_flips(mechanism, rate):
    sampled = poisson_subsampled(mechanism, rate)
    n = mechanism.space.size
    for x in sampled.space.databases():
        for y in mechanism.outputs:
            expected = Fraction(0)
            for flips in itertools.product([True, False], repeat=n):
                weight = math.prod(rate if kept else 1 - rate for kept in flips)
                masked = tuple(d if kept else BOTTOM for d, kept in zip(x, flips, strict=True))
                expected += weight * mechanism.probability(masked, y)
            assert sampled.probability(x, y) == expected


@settings(max_examples=30)
@given(xst.database_mechanisms(space=DatabaseSpace([0, 1], 1), max_outputs=3), st.integers(1, 4))
def test_without_replacement_rows_average_over_every_permutation(mechanism, n):
    sampled = subsampled_without_replacement(mechanism, n)
    m = mechanism.space.size
    for x in sampled.space.databases():
        for y in mechanism.outputs:
            orders = list(itertools.permutations(range(n)))
            total = sum(
                (
                    mechanism.probability(tuple(x[i] for i in sorted(order[:m])), y)
                    for order in orders
                ),
                Fraction(0),
            )
            assert sampled.probability(x, y) == total / len(orders)


RATIOS = st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(2), Fraction(5)])


@settings(max_examples=40)
@given(st.integers(1, 2).flatmap(_masked_mechanisms), RATES, RATIOS)
def test_poisson_amplification_bounds_the_exact_delta(mechanism, rate, ratio):
    delta = delta_for_epsilon(mechanism, exp_epsilon=ratio).value
    bound = poisson_amplification(exp_epsilon=ratio, delta=delta, rate=rate)
    sampled = poisson_subsampled(mechanism, rate)
    assert delta_for_epsilon(sampled, bound.epsilon).value <= bound.delta


@settings(max_examples=40)
@given(xst.database_mechanisms(max_outputs=3, max_databases=4), st.integers(0, 2), RATIOS)
def test_without_replacement_amplification_bounds_the_exact_delta(mechanism, extra, ratio):
    n = mechanism.space.size + extra
    if len(mechanism.space.alphabet) ** n > 16:
        return
    delta = delta_for_epsilon(mechanism, exp_epsilon=ratio).value
    bound = without_replacement_amplification(
        exp_epsilon=ratio, delta=delta, sample=mechanism.space.size, size=n
    )
    sampled = subsampled_without_replacement(mechanism, n)
    assert delta_for_epsilon(sampled, bound.epsilon).value <= bound.delta


def test_the_amplification_is_tight_for_releasing_one_sampled_record():
    ratio = Fraction(3)
    keep = ratio / (1 + ratio)  # randomized response on the first record
    rr = DatabaseMechanism({(0,): {0: keep, 1: 1 - keep}, (1,): {0: 1 - keep, 1: keep}})
    sampled = subsampled_without_replacement(rr, 4)
    bound = without_replacement_amplification(exp_epsilon=ratio, sample=1, size=4)
    assert bound.epsilon.ratio == Fraction(3, 2)
    assert delta_for_epsilon(sampled, bound.epsilon).value == 0
    assert delta_for_epsilon(sampled, exp_epsilon=Fraction(3, 2) - Fraction(1, 100)).value > 0


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: poisson_subsampled(_identity(), "1/2"), "absent="),
        (lambda: poisson_subsampled(_identity(), "3/2", absent=0), "rate=3/2"),
        (lambda: subsampled_without_replacement(_identity(), 0), "size=0"),
        (lambda: poisson_amplification(1, rate=2), "rate=2"),
        (lambda: without_replacement_amplification(1, sample=3, size=2), "size=2"),
        (lambda: without_replacement_amplification(-1, sample=1, size=2), "epsilon=-1"),
    ],
)
def test_bad_input_is_refused_naming_the_argument(call, fragment):
    with pytest.raises(InvalidArgument) as caught:
        call()
    assert fragment in str(caught.value)


def _identity():
    return DatabaseMechanism.from_function(lambda x: {x[0]: 1}, [0, 1], 1)
