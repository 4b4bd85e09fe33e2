"""The closed forms of geometric noise (structured/_geometric_pairs.py) against every pair.

References, none of which uses the candidate pairs or the closed-form hockey stick:

* every neighbouring pair of databases of D^n with the brute-force PLRV hockey stick of
  ``proofs_check/reference/`` (plain ``Fraction``);
* every neighbouring pair of counts through the reduction (``form="plrv"``, the generic path)
  at n up to 12, and the largest ratio over every pair of count rows;
* raw outputs y enumerated one by one over a window wide enough that the remaining tails
  have a constant likelihood ratio, for the formula of one pair.
"""

from fractions import Fraction
from itertools import product

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpml import LogValue
from exactpml import strategies as xst
from exactpml.database import BOTTOM, DatabaseSpace
from exactpml.notions import delta_for_epsilon, differential_privacy_epsilon
from exactpml.structured import (
    CountingQuery,
    GeometricNoise,
    LinearQuery,
    MeanQuery,
    QueryMechanism,
)
from exactpml.structured._geometric_pairs import pair_hockey_stick
from exactpml.structured._progression import Progression
from proofs_check.reference import hockey_stick_by_plrv
from proofs_check.reference import neighbouring_databases as neighbour_pairs
from proofs_check.reference import row_law as rows

RATIOS = [Fraction(1, 3), Fraction(9, 10), Fraction(1), Fraction(3, 2), Fraction(5)]


def brute_delta(explicit, space, ratio):
    return max(
        (
            hockey_stick_by_plrv(rows(explicit, x), rows(explicit, x2), ratio)
            for x, x2 in neighbour_pairs(space.alphabet, space.size)
        ),
        default=Fraction(0),
    )


def check_witness(result, explicit, ratio):
    """The witness pair is neighbouring and its event attains the value."""
    if result.database is None:
        return
    x, x2 = result.database, result.neighbour
    assert sum(a != b for a, b in zip(x, x2, strict=True)) == 1
    p, q = rows(explicit, x), rows(explicit, x2)
    assert result.event == {y for y in p if p[y] > ratio * q[y]}
    attained = sum((p[y] - ratio * q[y] for y in result.event), Fraction(0))
    assert attained == result.value


@given(xst.counting_mechanisms(noise=True, max_size=3), st.sampled_from(RATIOS))
def test_delta_of_counting_with_geometric_noise_equals_every_pair_of_databases(mechanism, ratio):
    explicit = mechanism.explicit()
    result = delta_for_epsilon(mechanism, exp_epsilon=ratio)
    assert result.value == brute_delta(explicit, mechanism.space, ratio)
    check_witness(result, explicit, ratio)


@settings(max_examples=30)
@given(
    st.integers(1, 12),
    st.sampled_from([Fraction(1, 2), Fraction(2, 3), Fraction(9, 10)]),
    st.data(),
    st.sampled_from(RATIOS),
)
def test_closed_forms_equal_the_generic_path_over_every_pair_of_counts(n, alpha, data, ratio):
    threshold = data.draw(st.none() | st.integers(0, n))
    alphabet = data.draw(st.sampled_from([[0, 1], [0, 1, 2]]))
    predicate = data.draw(st.sampled_from([{0: 0, 1: 1, 2: 1}, {0: 0, 1: 1, 2: 0}]))
    mechanism = QueryMechanism(
        DatabaseSpace(alphabet, n),
        CountingQuery({d: predicate[d] for d in alphabet}),
        noise=GeometricNoise(alpha),
        threshold=threshold,
    )
    generic = delta_for_epsilon(mechanism, exp_epsilon=ratio, form="plrv")
    assert delta_for_epsilon(mechanism, exp_epsilon=ratio).value == generic.value
    reduction = mechanism.reduction()
    best = Fraction(0)
    for q, q2, _ in reduction.pairs():
        for a, b in zip(reduction.row(q), reduction.row(q2), strict=True):
            best = max(best, a / b)
    assert differential_privacy_epsilon(mechanism).value == LogValue(best)


@settings(max_examples=40)
@given(
    st.lists(st.integers(-2, 3), min_size=1, max_size=3),
    st.sampled_from([Fraction(1, 2), Fraction(3, 4)]),
    st.booleans(),
    st.data(),
    st.sampled_from(RATIOS),
)
def test_linear_queries_with_a_threshold_equal_enumeration(weights, alpha, shared, data, ratio):
    space = DatabaseSpace([0, 1, 2], len(weights))
    weights = [weights[0]] * len(weights) if shared else weights
    answers = {sum(w * d for w, d in zip(weights, x, strict=True)) for x in space.databases()}
    threshold = data.draw(st.none() | st.integers(min(answers), max(answers)))
    mechanism = QueryMechanism(
        space, LinearQuery(weights), noise=GeometricNoise(alpha), threshold=threshold
    )
    explicit = mechanism.explicit()
    assert (
        differential_privacy_epsilon(mechanism).value
        == differential_privacy_epsilon(explicit).value
    )
    result = delta_for_epsilon(mechanism, exp_epsilon=ratio)
    assert result.value == brute_delta(explicit, space, ratio)
    check_witness(result, explicit, ratio)


def test_an_irrational_e_epsilon_is_decided_by_certified_comparisons():
    mechanism = QueryMechanism(
        DatabaseSpace([0, 1], 3),
        CountingQuery({0: 0, 1: 1}),
        noise=GeometricNoise("2/3"),
        threshold=1,
    )
    for epsilon in ("1/2", "1/10", "-1/3"):
        fast = delta_for_epsilon(mechanism, epsilon)
        slow = delta_for_epsilon(mechanism.explicit(), epsilon)
        assert sympy.simplify(sympy.sympify(fast.value) - sympy.sympify(slow.value)) == 0
        assert fast.event == slow.event or fast.value != 0


def test_arithmetic_means_use_the_same_closed_forms():
    space = DatabaseSpace([0, 3], 3)  # means 0, 1, 2, 3: integers
    mechanism = QueryMechanism(space, MeanQuery("arithmetic"), noise=GeometricNoise("1/2"))
    assert mechanism.answers == Progression(Fraction(0), Fraction(1), 4)
    explicit = mechanism.explicit()
    for ratio in RATIOS:
        assert delta_for_epsilon(mechanism, exp_epsilon=ratio).value == brute_delta(
            explicit, space, ratio
        )


def _raw_hockey_stick(alpha, q, q2, ratio, m):
    """Σ over raw outputs y of max(0, p(y|q) - E p(y|q')), y one by one in a wide window;
    outside it both tails have a constant ratio and are summed as geometric series."""
    c = (1 - alpha) / (1 + alpha)
    low = min(q, q2, -1 if m is None else m) - 3
    high = max(q, q2, 0 if m is None else m) + 3

    def p(y, answer):
        return c * alpha ** abs(y - answer)

    def upper(answer):  # P(Y > high)
        return c * alpha ** (high + 1 - answer) / (1 - alpha)

    def lower(answer):  # P(Y < low)
        return c * alpha ** (answer - low + 1) / (1 - alpha)

    def bottom(answer):  # P(Y <= m)
        return lower(answer) + sum(p(y, answer) for y in range(low, m + 1))

    total = max(Fraction(0), upper(q) - ratio * upper(q2))
    event = set()
    if m is not None and bottom(q) > ratio * bottom(q2):
        event.add(BOTTOM)
    for y in range(low, high + 1):
        if m is None or y > m:
            if p(y, q) > ratio * p(y, q2):
                event.add(y)
            total += max(Fraction(0), p(y, q) - ratio * p(y, q2))
    if m is None:
        total += max(Fraction(0), lower(q) - ratio * lower(q2))
    else:
        total += max(Fraction(0), bottom(q) - ratio * bottom(q2))
    return total, event, range(low, high + 1)


@given(
    st.sampled_from([Fraction(1, 2), Fraction(2, 3), Fraction(9, 10)]),
    st.integers(-6, 6),
    st.integers(-6, 6),
    st.none() | st.integers(-8, 8),
    st.sampled_from([*RATIOS, Fraction(100)]),
)
def test_one_pair_equals_its_raw_outputs(alpha, q, q2, m, ratio):
    value, (lo, hi, has_bottom) = pair_hockey_stick(GeometricNoise(alpha), q, q2, ratio, m)
    expected, event, window = _raw_hockey_stick(alpha, q, q2, ratio, m)
    assert value == expected
    inside = {y for y in window if (lo is None or lo <= y) and (hi is None or y <= hi)}
    assert inside | ({BOTTOM} if has_bottom else set()) == event


def test_counting_at_a_hundred_thousand_has_the_two_point_closed_form():
    # Independent value: for sensitivity 1 and α < E < 1/α the worst event is {y >= q}, so
    # δ = P(Z >= 0) - E P(Z >= 1) = (1 - E α)/(1 + α); the DP ratio is 1/α.
    n, alpha, ratio = 100_000, Fraction(2, 3), Fraction(5, 4)
    mechanism = QueryMechanism(
        DatabaseSpace([0, 1], n), CountingQuery({0: 0, 1: 1}), noise=GeometricNoise(alpha)
    )
    result = delta_for_epsilon(mechanism, exp_epsilon=ratio)
    assert result.value == (1 - ratio * alpha) / (1 + alpha)
    assert abs(sum(result.database) - sum(result.neighbour)) == 1
    assert differential_privacy_epsilon(mechanism).value == LogValue(1 / alpha)
    with_threshold = QueryMechanism(
        DatabaseSpace([0, 1], n),
        CountingQuery({0: 0, 1: 1}),
        noise=GeometricNoise(alpha),
        threshold=n // 10,
    )
    assert differential_privacy_epsilon(with_threshold).value == LogValue(1 / alpha)
    assert delta_for_epsilon(with_threshold, exp_epsilon=ratio).value == result.value


@pytest.mark.parametrize("n", [1, 2, 5])
def test_the_answers_of_a_counting_query_are_a_lazy_progression(n):
    space = DatabaseSpace(["a", "b", "c"], n)
    mechanism = QueryMechanism(space, CountingQuery({"a": 1, "b": 0, "c": 1}))
    assert isinstance(mechanism.answers, Progression)
    enumerated = sorted({sum(d != "b" for d in x) for x in product("abc", repeat=n)})
    assert list(mechanism.answers) == enumerated
    for answer in enumerated:
        x = mechanism.database(answer)
        assert sum(d != "b" for d in x) == answer
    assert BOTTOM not in mechanism.answers and Fraction(1, 2) not in mechanism.answers
