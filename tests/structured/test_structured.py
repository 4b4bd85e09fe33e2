"""Every structured path equals explicit enumeration of D^n for small n.

References are built here from the definitions, independently of exactpml.structured:
the count is Σ_i f(d_i) computed per database, geometric tails are summed by sympy
(``summation`` of the series), and DP / δ / simulation values come from the brute-force
functions of ``proofs_check/reference/dp.py`` or from the explicit DatabaseMechanism.
"""

import importlib.util
from fractions import Fraction
from itertools import product

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpml import LogValue, Mechanism
from exactpml import strategies as xst
from exactpml.core.exact import as_scalar
from exactpml.database import (
    BOTTOM,
    DatabaseMechanism,
    DatabaseSpace,
    ProductPrior,
    conditional_entry_leakage,
    entry_leakage,
)
from exactpml.notions import (
    delta_for_epsilon,
    differential_privacy_epsilon,
    free_lunch_epsilon,
    neighbour_statistical_distance,
    simulation_epsilon,
)
from exactpml.structured import (
    AtLeast,
    AtMost,
    CountingQuery,
    GeometricNoise,
    LaplaceNoise,
    LinearQuery,
    MeanQuery,
    PerRecordMechanism,
    QueryMechanism,
    count_distribution,
    randomized_response,
)
from proofs_check.reference import dp_ratio_over_space as dp_ratio
from proofs_check.reference import free_lunch_ratio_over_space as free_lunch_ratio

z = sympy.Symbol("z", integer=True)

needs_certify = pytest.mark.skipif(
    importlib.util.find_spec("exactpml.certify") is None,
    reason="exactpml.certify (certified comparisons) has not landed in this branch yet",
)


def compare(a, b):
    from exactpml.core.decisions import exact_compare as compare_scalars

    return compare_scalars(as_scalar(sympy.sympify(a)), as_scalar(sympy.sympify(b)))


def _geometric_mass(alpha, low, high, count):
    """P(low <= count + Z <= high), summing the two-sided geometric series with sympy."""
    a = sympy.Rational(alpha.numerator, alpha.denominator)
    lo = -sympy.oo if low is None else low - count
    hi = sympy.oo if high is None else high - count
    total = 0
    if hi >= 0:  # z >= 0 part
        total += sympy.summation((1 - a) / (1 + a) * a**z, (z, max(lo, 0), hi))
    if lo < 0:  # z < 0 part: P(Z = -w) = c a^w for w = -z in [max(-hi, 1), -lo]
        total += sympy.summation((1 - a) / (1 + a) * a**z, (z, max(-hi, 1), -lo))
    return as_scalar(sympy.Rational(sympy.simplify(total)))


def reference_counting_kernel(mechanism):
    """P(output | x) from the definition: count, add geometric noise, threshold."""
    space = mechanism.space
    f = mechanism.query.predicate
    m = mechanism.window.threshold
    noise = mechanism.noise
    kernel = {}
    for x in product(space.alphabet, repeat=space.size):
        count = sum(int(f[d]) for d in x)
        row = {}
        for output in mechanism.outputs:
            if isinstance(noise, GeometricNoise):
                if output is BOTTOM:
                    row[output] = _geometric_mass(noise.alpha, None, int(m), count)
                elif isinstance(output, AtLeast):
                    row[output] = _geometric_mass(noise.alpha, output.bound, None, count)
                elif isinstance(output, AtMost):
                    row[output] = _geometric_mass(noise.alpha, None, output.bound, count)
                else:
                    row[output] = _geometric_mass(noise.alpha, output, output, count)
            else:
                released = count if m is None or count > m else BOTTOM
                row[output] = Fraction(int(output == released))
        kernel[x] = row
    return DatabaseMechanism(Mechanism(kernel, outputs=mechanism.outputs))


COUNTING = xst.counting_mechanisms(max_size=3)


@settings(max_examples=40)
@given(COUNTING)
def test_counting_mechanism_equals_its_definition_on_every_database(mechanism):
    assert mechanism.explicit() == reference_counting_kernel(mechanism)


@given(COUNTING)
def test_dp_and_free_lunch_through_the_count_equal_enumeration(mechanism):
    explicit = mechanism.explicit()
    space = mechanism.space
    dp = differential_privacy_epsilon(mechanism)
    expected = dp_ratio(explicit, space.alphabet, space.size)
    assert (None if dp.value.is_infinite else dp.value.ratio) == expected
    if dp.database is not None:
        a = explicit.probability(dp.database, dp.output)
        b = explicit.probability(dp.neighbour, dp.output)
        assert (None if b == 0 else a / b) == expected
    lunch = free_lunch_epsilon(mechanism)
    expected = free_lunch_ratio(explicit, space.alphabet, space.size)
    assert (None if lunch.value.is_infinite else lunch.value.ratio) == expected
    a = explicit.probability(lunch.database, lunch.output)
    b = explicit.probability(lunch.neighbour, lunch.output)
    assert (None if b == 0 else a / b) == expected


@given(COUNTING, st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(5)]))
def test_delta_distance_and_simulation_through_the_count_equal_enumeration(mechanism, ratio):
    explicit = mechanism.explicit()
    assert (
        delta_for_epsilon(mechanism, exp_epsilon=ratio).value
        == delta_for_epsilon(explicit, exp_epsilon=ratio).value
        == delta_for_epsilon(mechanism, exp_epsilon=ratio, form="plrv").value
    )
    assert (
        neighbour_statistical_distance(mechanism).value
        == neighbour_statistical_distance(explicit).value
    )
    assert simulation_epsilon(mechanism).value == simulation_epsilon(explicit).value


@settings(max_examples=25)
@given(xst.counting_mechanisms(noise=True, max_size=2))
def test_lumping_the_tails_keeps_the_dp_supremum_over_raw_integer_outputs(mechanism):
    # Independent check of the tail lemma: enumerate raw outputs y in [-6, n + 6] one by one.
    noise, space, m = mechanism.noise, mechanism.space, mechanism.window.threshold
    a = noise.alpha
    f = mechanism.query.predicate

    def p(x, y):
        count = sum(int(f[d]) for d in x)
        if y is BOTTOM:
            return _geometric_mass(a, None, int(m), count)
        return (1 - a) / (1 + a) * a ** abs(y - count)

    raw = [y for y in range(-6, space.size + 7) if m is None or y > m]
    raw += [BOTTOM] if m is not None else []
    best = Fraction(1)
    for x in product(space.alphabet, repeat=space.size):
        for i in range(space.size):
            for d in space.alphabet:
                x2 = (*x[:i], d, *x[i + 1 :])
                for y in raw:
                    best = max(best, p(x, y) / p(x2, y))
    assert differential_privacy_epsilon(mechanism).value == LogValue(best)


def test_counting_with_geometric_noise_is_log_one_over_alpha_dp_at_ten_thousand():
    # Independent value: the DP ratio of sensitivity-1 geometric noise is 1/α (Ghosh et al.);
    # the free-lunch ratio is (1/α)^n since the count ranges over [0, n].
    mechanism = QueryMechanism(
        DatabaseSpace([0, 1], 10_000), CountingQuery({0: 0, 1: 1}), noise=GeometricNoise("2/3")
    )
    assert differential_privacy_epsilon(mechanism).value == LogValue(Fraction(3, 2))
    lunch = free_lunch_epsilon(mechanism)
    assert lunch.value == LogValue(Fraction(3, 2) ** 10_000)
    assert sum(lunch.database) == 10_000 and sum(lunch.neighbour) == 0


def test_a_threshold_makes_the_count_distinguishable_near_the_threshold():
    # Release the count of n = 3 votes iff it is > 1: neighbours with counts 1 and 2 give
    # ⊥ versus 2, so the mechanism is not ε-DP for any finite ε.
    mechanism = QueryMechanism(
        DatabaseSpace(["No", "Yes"], 3), CountingQuery({"No": 0, "Yes": 1}), threshold=1
    )
    result = differential_privacy_epsilon(mechanism)
    assert result.value.is_infinite
    assert mechanism.output_given_count(1).as_dict() == {2: 0, 3: 0, BOTTOM: 1}


# --- the count's law ------------------------------------------------------------------------
@given(st.lists(st.fractions(0, 1, max_denominator=12), min_size=0, max_size=6))
def test_count_distribution_equals_enumeration_of_the_records(probabilities):
    law = count_distribution(probabilities)
    expected = [Fraction(0)] * (len(probabilities) + 1)
    for bits in product((0, 1), repeat=len(probabilities)):
        mass = Fraction(1)
        for bit, p in zip(bits, probabilities, strict=True):
            mass *= p if bit else 1 - p
        expected[sum(bits)] += mass
    assert list(law.probabilities) == expected


def test_count_distribution_of_a_thousand_iid_voters_is_binomial():
    p = Fraction(1, 10_000)
    law = count_distribution([p] * 1000)
    assert law[0] == (1 - p) ** 1000
    assert law[3] == sympy.binomial(1000, 3) * p**3 * (1 - p) ** 997
    assert sum(law.probabilities) == 1


def test_count_distribution_with_a_symbolic_probability_is_a_polynomial():
    p = sympy.Symbol("p", positive=True)
    law = count_distribution([p, p])
    assert sympy.expand(law[1] - 2 * p * (1 - p)) == 0


# --- entry leakages through the count ---------------------------------------------------------
@given(
    xst.counting_mechanisms(max_size=3).flatmap(
        lambda m: st.tuples(st.just(m), xst.product_priors(m.space), st.data())
    )
)
def test_entry_leakages_through_the_count_equal_explicit_enumeration(drawn):
    mechanism, prior, data = drawn
    space = mechanism.space
    index = data.draw(st.integers(0, space.size - 1))
    output = data.draw(st.sampled_from(mechanism.outputs))
    explicit = mechanism.explicit()
    joint = prior.joint()
    assert entry_leakage(mechanism, prior, index, output) == entry_leakage(
        explicit, joint, index, output
    )
    others = data.draw(st.sampled_from(list(product(space.alphabet, repeat=space.size - 1))))
    if any(
        prior.marginal(j)[d] == 0
        for j, d in zip([j for j in range(space.size) if j != index], others, strict=True)
    ):
        return
    assert conditional_entry_leakage(
        mechanism, prior, index, output, others
    ) == conditional_entry_leakage(explicit, joint, index, output, others)


def test_output_distribution_through_the_count_equals_explicit():
    mechanism = QueryMechanism(
        DatabaseSpace([0, 1, 2], 3),
        CountingQuery({0: 0, 1: 1, 2: 1}),
        noise=GeometricNoise("1/3"),
        threshold=1,
    )
    prior = ProductPrior(
        [
            {0: "1/2", 1: "1/4", 2: "1/4"},
            {0: "1/3", 1: "1/3", 2: "1/3"},
            {0: "1/10", 1: "9/10", 2: 0},
        ]
    )
    expected = mechanism.explicit().mechanism.output_distribution(prior.joint())
    assert mechanism.output_distribution(prior) == expected


# --- linear queries and means ----------------------------------------------------------------
def _deterministic(space, answer):
    return DatabaseMechanism(
        Mechanism(
            {x: {as_scalar(answer(x)): 1} for x in product(space.alphabet, repeat=space.size)}
        )
    )


MEANS = {
    "arithmetic": lambda x: sympy.Rational(sum(x), len(x)),
    "geometric": lambda x: sympy.root(sympy.prod(x), len(x)),
    "harmonic": lambda x: len(x) / sum(sympy.Rational(1, d) for d in x),
    "quadratic": lambda x: sympy.sqrt(sympy.Rational(sum(d * d for d in x), len(x))),
}


@pytest.mark.parametrize("kind", sorted(MEANS))
@pytest.mark.parametrize(("alphabet", "n"), [([1, 2], 2), ([1, 2, 4], 2), ([1, 3], 3)])
def test_means_through_their_statistic_equal_enumeration(kind, alphabet, n):
    space = DatabaseSpace(alphabet, n)
    mechanism = QueryMechanism(space, MeanQuery(kind))
    assert mechanism.explicit() == _deterministic(space, MEANS[kind])
    assert differential_privacy_epsilon(mechanism).value.is_infinite
    assert simulation_epsilon(mechanism).value == simulation_epsilon(mechanism.explicit()).value


@given(
    st.lists(st.integers(-2, 3), min_size=1, max_size=3),
    st.sampled_from([Fraction(1, 2), Fraction(3, 4)]),
    st.booleans(),
)
def test_linear_queries_with_geometric_noise_equal_enumeration(weights, alpha, shared):
    space = DatabaseSpace([0, 1, 2], len(weights))
    weights = [weights[0]] * len(weights) if shared else weights
    mechanism = QueryMechanism(space, LinearQuery(weights), noise=GeometricNoise(alpha))
    explicit = mechanism.explicit()
    for x in space.databases():
        answer = sum(w * d for w, d in zip(weights, x, strict=True))
        assert explicit.row(x) == mechanism.output_given_value(answer)
    assert (
        differential_privacy_epsilon(mechanism).value
        == differential_privacy_epsilon(explicit.mechanism).value
    )
    sensitivity = 2 * max(abs(w) for w in weights)
    assert differential_privacy_epsilon(mechanism).value == LogValue((1 / alpha) ** sensitivity)
    assert free_lunch_epsilon(mechanism).value == free_lunch_epsilon(explicit).value
    assert (
        delta_for_epsilon(mechanism, exp_epsilon=2).value
        == delta_for_epsilon(explicit, exp_epsilon=2).value
    )


# --- Laplace -----------------------------------------------------------------------------------
@given(st.integers(1, 3), st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(3)]))
def test_laplace_dp_is_the_largest_density_ratio(n, b):
    space = DatabaseSpace([0, 1], n)
    mechanism = QueryMechanism(space, CountingQuery({0: 0, 1: 1}), noise=LaplaceNoise(b))
    result = differential_privacy_epsilon(mechanism)
    y = sympy.Symbol("y", real=True)
    x, x2 = result.database, result.neighbour
    assert sum(1 for a, c in zip(x, x2, strict=True) if a != c) == 1
    inverse_b = 1 / sympy.Rational(b.numerator, b.denominator)
    # Independent value: the Laplace mechanism with sensitivity 1 is (1/b)-DP (Dwork et al.).
    assert result.value == LogValue(sympy.exp(inverse_b))
    ratio = mechanism.density(x) / mechanism.density(x2)
    assert sympy.simplify(ratio.subs(y, result.output) - result.value.ratio) == 0
    # The ratio never exceeds the value at rational sample points (exact exponents).
    for point in [Fraction(k, 4) for k in range(-8, 4 * n + 9)]:
        exponent = sympy.simplify(sympy.log(ratio.subs(y, point)))
        assert exponent <= inverse_b
    lunch = free_lunch_epsilon(mechanism)
    assert lunch.value == LogValue(sympy.exp(n * inverse_b))


@pytest.mark.parametrize(
    "query",
    [
        CountingQuery({0: 0, 1: 1, 2: 1}),
        LinearQuery([1, 3, 2]),
        LinearQuery([sympy.sqrt(2), 1, sympy.Rational(1, 2)]),
        LinearQuery([2, 2, 2]),
        LinearQuery([-1, -1, -1], values={0: 3, 1: 1, 2: 2}),
        MeanQuery("arithmetic"),
        MeanQuery("quadratic"),
    ],
    ids=[
        "count",
        "linear",
        "irrational_weight",
        "equal_weights",
        "negative_weights",
        "arithmetic_mean",
        "quadratic_mean",
    ],
)
@pytest.mark.parametrize("b", [Fraction(1, 2), Fraction(3)])
def test_laplace_dp_on_the_widening_pairs_equals_the_worst_of_every_pair(query, b):
    """Only the pairs widening the gap are evaluated; the result (value and witness) is
    the one of every neighbouring pair (the ratio e^{|q - q'|/b} grows with the gap)."""
    space = DatabaseSpace([0, 1, 2], 3)
    mechanism = QueryMechanism(space, query, noise=LaplaceNoise(b))
    every_pair = mechanism._worst(mechanism.answer_pairs())
    assert mechanism.differential_privacy_closed_form() == every_pair
    assert differential_privacy_epsilon(mechanism) == every_pair
    largest = mechanism._statistic.largest_gap()
    if largest is not None:  # the bound where the enumeration may stop, by brute force
        gaps = [
            abs(as_scalar(query.evaluate(x, space)) - as_scalar(query.evaluate(x2, space)))
            for x in space.databases()
            for i in range(space.size)
            for d in space.alphabet
            for x2 in [(*x[:i], d, *x[i + 1 :])]
        ]
        assert largest == max(gaps)


@needs_certify
@given(st.integers(1, 3), st.sampled_from([Fraction(1, 2), Fraction(1)]), st.data())
def test_thresholded_laplace_dp_dominates_every_density_and_bottom_ratio(n, b, data):
    m = data.draw(st.integers(0, n))
    space = DatabaseSpace([0, 1], n)
    mechanism = QueryMechanism(
        space, CountingQuery({0: 0, 1: 1}), noise=LaplaceNoise(b), threshold=m
    )
    value = differential_privacy_epsilon(mechanism).value.ratio
    bb = sympy.Rational(b.numerator, b.denominator)

    def cdf(t):  # P(Lap(b) <= t), from the Laplace law
        return sympy.exp(t / bb) / 2 if t <= 0 else 1 - sympy.exp(-t / bb) / 2

    for s in range(n):
        for q, q2 in ((s, s + 1), (s + 1, s)):
            bottom = cdf(sympy.Integer(m - q)) / cdf(sympy.Integer(m - q2))
            assert compare(value, bottom) >= 0
            for k in range(1, 9):
                point = sympy.Integer(m) + sympy.Rational(k, 4)
                ratio = sympy.exp((sympy.Abs(point - q2) - sympy.Abs(point - q)) / bb)
                assert compare(value, ratio) >= 0


def test_laplace_density_is_the_laplace_law_of_the_count():
    mechanism = QueryMechanism(
        DatabaseSpace([0, 1], 2), CountingQuery({0: 0, 1: 1}), noise=LaplaceNoise("1/2")
    )
    y = sympy.Symbol("y", real=True)
    assert sympy.simplify(mechanism.density((1, 1)) - sympy.exp(-2 * sympy.Abs(y - 2))) == 0


# --- per-record randomizers --------------------------------------------------------------------
@given(xst.database_spaces(max_size=3), st.data())
def test_per_record_randomizer_equals_its_product_kernel(space, data):
    randomizer = data.draw(xst.mechanisms(inputs=space.alphabet, max_outputs=3))
    mechanism = PerRecordMechanism(space, randomizer)
    explicit = mechanism.explicit()
    for x in space.databases():
        for y in explicit.outputs:
            expected = Fraction(1)
            for d, o in zip(x, y, strict=True):
                expected *= randomizer.probability(d, o)
            assert explicit.probability(x, y) == expected
    for notion in (differential_privacy_epsilon, free_lunch_epsilon):
        fast = notion(mechanism)
        assert fast.value == notion(explicit).value
        if fast.database is not None:
            a = explicit.probability(fast.database, fast.output)
            b = explicit.probability(fast.neighbour, fast.output)
            assert (LogValue.infinity() if b == 0 else LogValue(a / b)) == fast.value
    prior = data.draw(xst.product_priors(space))
    index = data.draw(st.integers(0, space.size - 1))
    y = data.draw(st.sampled_from(explicit.outputs))
    assert entry_leakage(mechanism, prior, index, y) == entry_leakage(explicit, prior, index, y)


def test_randomized_response_is_locally_log_e_private():
    rr = randomized_response("abc", 4)
    mechanism = PerRecordMechanism(DatabaseSpace("abc", 2), rr)
    assert differential_privacy_epsilon(mechanism).value == LogValue(4)
    assert free_lunch_epsilon(mechanism).value == LogValue(16)
