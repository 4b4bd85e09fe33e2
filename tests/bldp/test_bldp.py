"""Bounded-leakage DP against its definition, exactly, and the conditions of its properties.

References: the brute-force functions below recompute every conditional probability from
the randomness table and take the maximum over all output *sets* S (the definition as
restated in CLAIMS.md ``bldp.``), sharing no code with exactpml.bldp.  Expected values of
the scenarios are hand computations written out in each test; the poster gives no numbers.
"""

import itertools
from fractions import Fraction

import pytest
import sympy
from hypothesis import event as hypothesis_event
from hypothesis import given
from hypothesis import strategies as st

from exactpml import Distribution, InexactInput, InvalidArgument, LogValue, Mechanism
from exactpml import strategies as xst
from exactpml.bldp import (
    BoundedLeakageModel,
    bldp_delta,
    bldp_epsilon,
    bldp_epsilon_by_leakage,
    bldp_epsilon_by_pair,
    census_exact_counts,
    component,
    compose,
    composition_precondition,
    dp_delta,
    dp_epsilon,
    graph_distances,
    group_privacy_bound,
    group_privacy_violations,
    identity_leakage,
    independent_leakage,
    is_bldp,
    leakage_distance,
    non_participation,
    parity_leakage_group_privacy,
    post_process,
    realize,
    release_leakage,
    shared_randomness_composition,
    single_leakage_composition,
    truncated_geometric,
)
from proofs_check.reference import subsets

RATIOS = st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(2), Fraction(5)])


# --- brute force from the definition ----------------------------------------------------


def _conditional_set_probability(model, x, o, event):
    """Pr_r[M(x,r) ∈ S | P(x,r) = o] by summing over the randomness table."""
    rs = list(model.randomness.outcomes)
    joint = sum(
        (
            model.randomness[r]
            for r, m, leak in zip(rs, model.outputs[x], model.leakages[x], strict=True)
            if leak == o and m in event
        ),
        Fraction(0),
    )
    mass = sum(
        (model.randomness[r] for r, leak in zip(rs, model.leakages[x], strict=True) if leak == o),
        Fraction(0),
    )
    return None if mass == 0 else joint / mass


@given(xst.bounded_leakage_models())
def test_model_laws_equal_their_sums_over_the_randomness(model):
    # joint, leakage and conditional laws (rational R: integer sums over one denominator)
    # against Fraction sums in the order of the randomness table
    for x in model.databases:
        joint = {}
        for p, m, o in zip(
            model.randomness.probabilities, model.outputs[x], model.leakages[x], strict=True
        ):
            if p:
                row = joint.setdefault(o, {})
                row[m] = row.get(m, Fraction(0)) + p
        got = model.joint(x)
        assert [(o, list(row.items())) for o, row in got.items()] == [
            (o, list(row.items())) for o, row in joint.items()
        ]
        masses = {o: sum(row.values()) for o, row in joint.items()}
        assert list(model.leakage_distribution(x).items()) == list(masses.items())
        for o, row in joint.items():
            law = model.conditional(x, o)
            assert list(law.outcomes) == list(row)
            assert list(law.probabilities) == [p / masses[o] for p in row.values()]
            assert all(type(p) is Fraction for p in law.probabilities)


def _constraints(model, pairs):
    """(x, x', o, P(·|x,o), Q(·|x',o)) as set functions, for the admissible constraints."""
    leak_values = {leak for x in model.databases for leak in model.leakages[x]}
    for x, y in pairs:
        for o in leak_values:
            if _conditional_set_probability(model, x, o, set()) is None:
                continue
            if _conditional_set_probability(model, y, o, set()) is None:
                continue
            yield x, y, o


def brute_delta(model, ratio, pairs=None):
    pairs = model.neighbours if pairs is None else pairs
    outputs = {m for x in model.databases for m in model.outputs[x]}
    best = Fraction(0)
    for x, y, o in _constraints(model, pairs):
        for event in subsets(outputs):
            p = _conditional_set_probability(model, x, o, set(event))
            q = _conditional_set_probability(model, y, o, set(event))
            best = max(best, p - ratio * q)
    return best


def brute_epsilon_ratio(model, pairs=None):
    """max over constraints and sets of P(S)/Q(S) (None = infinity; 1 if vacuous)."""
    pairs = model.neighbours if pairs is None else pairs
    outputs = {m for x in model.databases for m in model.outputs[x]}
    best = Fraction(1)
    for x, y, o in _constraints(model, pairs):
        for event in subsets(outputs):
            p = _conditional_set_probability(model, x, o, set(event))
            q = _conditional_set_probability(model, y, o, set(event))
            if p == 0:
                continue
            if q == 0:
                return None
            best = max(best, p / q)
    return best


def brute_dp_delta(model, ratio):
    """Classical (ε,δ)-DP of M alone: max over neighbours and sets of P(S) − ratio·Q(S)."""
    best = Fraction(0)
    outputs = {m for x in model.databases for m in model.outputs[x]}
    rs = list(model.randomness.outcomes)
    for x, y in model.neighbours:
        for event in subsets(outputs):
            p = sum(
                (
                    model.randomness[r]
                    for r, m in zip(rs, model.outputs[x], strict=True)
                    if m in event
                ),
                Fraction(0),
            )
            q = sum(
                (
                    model.randomness[r]
                    for r, m in zip(rs, model.outputs[y], strict=True)
                    if m in event
                ),
                Fraction(0),
            )
            best = max(best, p - ratio * q)
    return best


def _ratio(value: LogValue):
    return None if value.is_infinite else value.ratio


# --- the definition (bldp.definition) -------------------------------------------------------


@given(xst.bounded_leakage_models(), RATIOS)
def test_delta_matches_the_set_definition_with_a_witness(model, ratio):
    result = bldp_delta(model, LogValue(ratio))
    assert result.delta == brute_delta(model, ratio)
    if result.delta > 0:
        (x, y), o, event = result.witness.databases, result.witness.leakage, result.witness.event
        p = _conditional_set_probability(model, x, o, event)
        q = _conditional_set_probability(model, y, o, event)
        assert p - ratio * q == result.delta
    assert is_bldp(model, LogValue(ratio), result.delta)
    if result.delta > 0:
        assert not is_bldp(model, LogValue(ratio), result.delta / 2)


@given(xst.bounded_leakage_models())
def test_epsilon_matches_the_set_definition_with_a_witness(model):
    result = bldp_epsilon(model)
    assert _ratio(result.epsilon) == brute_epsilon_ratio(model)
    if result.witness is None:
        assert result.epsilon == 0
        return
    (x, y), o, event = result.witness.databases, result.witness.leakage, result.witness.event
    p = _conditional_set_probability(model, x, o, event)
    q = _conditional_set_probability(model, y, o, event)
    if result.epsilon.is_infinite:
        assert q == 0 < p
    else:
        assert p / q == result.epsilon.ratio
        assert bldp_delta(model, result.epsilon).delta == 0


@given(xst.bounded_leakage_models(), RATIOS)
def test_constant_leakage_is_ordinary_dp(model, ratio):
    assert dp_delta(model, LogValue(ratio)).delta == brute_dp_delta(model, ratio)
    constant = BoundedLeakageModel(
        model.randomness,
        lambda x, r: model.outputs[x][model.randomness.outcomes.index(r)],
        lambda x, r: "same",
        databases=model.databases,
    )
    assert bldp_delta(constant, LogValue(ratio)).delta == dp_delta(model, LogValue(ratio)).delta
    assert bldp_epsilon(constant).epsilon == dp_epsilon(model).epsilon


@given(xst.bounded_leakage_models())
def test_epsilon_by_leakage_and_by_pair_agree_with_the_maximum(model):
    by_pair = bldp_epsilon_by_pair(model)
    overall = bldp_epsilon(model).epsilon
    if by_pair:
        assert max(by_pair.values()) == overall
        assert max(bldp_epsilon_by_leakage(model).values()) == overall


# --- post-processing and releasing the leakage ------------------------------------------


@given(xst.bounded_leakage_models(), st.data(), RATIOS)
def test_post_processing_keeps_the_parameters(model, data, ratio):
    # bldp.post_processing: f with its own randomness, independent of r.
    outputs = sorted({m for x in model.databases for m in model.outputs[x]})
    kernel = data.draw(xst.mechanisms(inputs=outputs, max_outputs=3))
    processed = post_process(model, kernel)
    for x in model.databases:
        # The processed output law is the kernel applied to M's law (exact coupling check).
        expected = {}
        for m, p in model.output_law(x).items():
            for z, q in kernel.row(m).items():
                expected[z] = expected.get(z, Fraction(0)) + p * q
        assert {z: p for z, p in processed.output_law(x).items() if p} == {
            z: p for z, p in expected.items() if p
        }
    assert bldp_epsilon(processed).epsilon <= bldp_epsilon(model).epsilon
    assert bldp_delta(processed, LogValue(ratio)).delta <= bldp_delta(model, LogValue(ratio)).delta


@given(xst.bounded_leakage_models(), RATIOS)
def test_releasing_the_leakage_keeps_the_parameters(model, ratio):
    # bldp.leak_release: exactly equal.
    released = release_leakage(model)
    assert bldp_epsilon(released).epsilon == bldp_epsilon(model).epsilon
    assert bldp_delta(released, LogValue(ratio)).delta == bldp_delta(model, LogValue(ratio)).delta


@given(st.data())
def test_realize_reproduces_every_row_exactly(data):
    kernel = data.draw(xst.mechanisms())
    noise, apply = realize(kernel)
    for x in kernel.inputs:
        law = {}
        for u, p in noise.items():
            law[apply(x, u)] = law.get(apply(x, u), Fraction(0)) + p
        assert {y: p for y, p in law.items() if p} == {y: p for y, p in kernel.row(x).items() if p}


# --- composition (bldp.composition) -----------------------------------------------------


def _same_universe(first, second):
    return set(first.databases) == set(second.databases)


@given(xst.bounded_leakage_models(), xst.bounded_leakage_models(), RATIOS, RATIOS)
def test_composition_with_independent_randomness_and_joint_leakage(first, second, r1, r2):
    if not _same_universe(first, second):
        return
    pair = compose(first, second)
    assert composition_precondition(pair).holds
    # Components w.r.t. the joint leakage are at most as leaky as w.r.t. their own.
    for index, model in ((0, first), (1, second)):
        assert bldp_epsilon(component(pair, index)).epsilon <= bldp_epsilon(model).epsilon
        assert (
            bldp_delta(component(pair, index), LogValue(r1)).delta
            <= bldp_delta(model, LogValue(r1)).delta
        )
    assert bldp_epsilon(pair).epsilon <= bldp_epsilon(first).epsilon + bldp_epsilon(second).epsilon
    assert (
        bldp_delta(pair, LogValue(r1 * r2)).delta
        <= bldp_delta(first, LogValue(r1)).delta + bldp_delta(second, LogValue(r2)).delta
    )


@given(
    xst.bounded_leakage_models(),
    st.data(),
    RATIOS,
    RATIOS,
    st.sampled_from(["joint", "first", "second"]),
    st.sampled_from(["independent", "shared"]),
)
def test_composition_theorem_under_conditional_independence(
    first, data, r1, r2, leakage, randomness
):
    # The precise statement: if M1 ⊥ M2 given L for every x and o, the pair is
    # (ε1+ε2, δ1+δ2)-BLDP w.r.t. L with the components' parameters w.r.t. L.
    second = data.draw(
        xst.bounded_leakage_models(databases=first.databases, randomness=first.randomness)
    )
    pair = compose(first, second, randomness=randomness, leakage=leakage)
    holds = composition_precondition(pair).holds
    hypothesis_event(f"{randomness}, precondition {holds}")
    if not holds:
        return
    one, two = component(pair, 0), component(pair, 1)
    assert bldp_epsilon(pair).epsilon <= bldp_epsilon(one).epsilon + bldp_epsilon(two).epsilon
    assert (
        bldp_delta(pair, LogValue(r1 * r2)).delta
        <= bldp_delta(one, LogValue(r1)).delta + bldp_delta(two, LogValue(r2)).delta
    )


def test_shared_randomness_breaks_composition():
    # One-time pad: both (0,0)-BLDP, the pair on the same r reveals x.
    first, second = shared_randomness_composition()
    assert bldp_epsilon(first).epsilon == 0 and bldp_epsilon(second).epsilon == 0
    pair = compose(first, second, randomness="shared")
    assert bldp_epsilon(pair).epsilon.is_infinite
    assert bldp_delta(pair, LogValue(10**6)).delta == 1
    check = composition_precondition(pair)
    assert not check.holds and check.database == (0,)
    independent = compose(first, second)
    assert bldp_epsilon(independent).epsilon == 0


def test_composition_needs_the_joint_leakage():
    first, second = single_leakage_composition()
    assert bldp_epsilon(second).epsilon == 0  # vacuous: P2 = x differs between neighbours
    assert bldp_epsilon(compose(first, second, leakage="first")).epsilon.is_infinite
    assert bldp_epsilon(compose(first, second, leakage="joint")).epsilon == 0


# --- group privacy (bldp.group_privacy) -------------------------------------------------


@given(xst.bounded_leakage_models(), RATIOS)
def test_group_privacy_holds_along_leakage_paths(model, ratio):
    epsilon = bldp_epsilon(model).epsilon
    delta = bldp_delta(model, LogValue(ratio)).delta
    distances = graph_distances(model)
    for (x, y, o), value in bldp_epsilon_by_pair(model, distance=2).items():
        steps = leakage_distance(model, x, y, o)
        if steps is None or steps > 2:
            continue
        assert value <= epsilon * steps
        assert steps >= distances[x][y]
    if not group_privacy_violations(model, 2):
        bound_epsilon, bound_delta = group_privacy_bound(LogValue(ratio), delta, 2)
        assert bldp_epsilon(model, distance=2).epsilon <= epsilon * 2
        assert bldp_delta(model, bound_epsilon, distance=2).delta <= bound_delta
        # The chain gives the sharper Σ_{j<k} e^{jε} δ = (1 + e^ε) δ for k = 2.
        assert bldp_delta(model, bound_epsilon, distance=2).delta <= (1 + ratio) * delta


def test_group_privacy_fails_without_a_leakage_path():
    model = parity_leakage_group_privacy()
    assert bldp_epsilon(model).epsilon == 0 and bldp_epsilon(model).witness is None
    assert bldp_epsilon(model, distance=2).epsilon.is_infinite
    violations = group_privacy_violations(model, 2)
    assert {v.databases for v in violations} == {
        ((0, 0), (1, 1)),
        ((1, 1), (0, 0)),
        ((0, 1), (1, 0)),
        ((1, 0), (0, 1)),
    }
    assert all(v.leakage_distance is None for v in violations)
    bound = group_privacy_bound(LogValue(1), 0, 2)
    assert bldp_delta(model, bound[0], distance=2).delta == 1 > bound[1]


def test_group_privacy_bound_is_k_epsilon_and_k_e_to_the_k_minus_1_epsilon_delta():
    epsilon, delta = group_privacy_bound(LogValue(2), "1/100", 3)
    assert epsilon.ratio == 8 and delta == 3 * 4 * Fraction(1, 100)


# --- independent leakage and the scenarios ----------------------------------------------


@given(st.data(), RATIOS)
def test_independent_leakage_preserves_dp_bounds(data, ratio):
    # bldp.independent_leakage: (ε,δ)-DP ⇒ (ε,δ)-BLDP; equality when every neighbouring
    # pair shares a leakage value of positive probability.
    databases = list(itertools.product((0, 1), repeat=data.draw(st.integers(1, 2))))
    mechanism = data.draw(xst.mechanisms(inputs=databases, max_outputs=3))
    leakage = data.draw(xst.mechanisms(inputs=databases, max_outputs=3))
    model = independent_leakage(mechanism, leakage)
    assert bldp_epsilon(model).epsilon <= dp_epsilon(model).epsilon
    assert bldp_delta(model, LogValue(ratio)).delta <= dp_delta(model, LogValue(ratio)).delta
    shared = all(
        any(p and leakage.probability(y, o) for o, p in leakage.row(x).items())
        for x, y in model.neighbours
    )
    if shared:
        assert bldp_epsilon(model).epsilon == dp_epsilon(model).epsilon
        assert bldp_delta(model, LogValue(ratio)).delta == dp_delta(model, LogValue(ratio)).delta


def test_independent_leakage_converse_fails():
    model = identity_leakage()
    assert bldp_epsilon(model).epsilon == 0
    assert dp_epsilon(model).epsilon.is_infinite


def test_truncated_geometric_is_log_one_over_alpha_dp():
    # Hand computation: p(y|c)/p(y|c+1) = 1/α for y ≤ c and α for y > c (edges included).
    kernel = truncated_geometric(4, "1/3")
    ratios = {
        kernel.probability(c, y) / kernel.probability(c + 1, y) for c in range(4) for y in range(5)
    }
    assert max(ratios) == 3 and min(ratios) == Fraction(1, 3)


def test_census_exact_counts_keep_the_dp_guarantee():
    # Scenario 1: the noisy count is log(1/α)-DP; exact group counts are a function of x
    # (independent of the noise), and neighbours changing only the attribute share them,
    # so BLDP = DP = log 2 exactly (α = 1/2), and δ = 0 at e^ε = 2.
    model = census_exact_counts(2, "1/2")
    assert dp_epsilon(model).epsilon == LogValue(2)
    assert bldp_epsilon(model).epsilon == LogValue(2)
    assert bldp_delta(model, LogValue(2)).delta == 0
    assert bldp_delta(model, LogValue(1)).delta == dp_delta(model, LogValue(1)).delta


@pytest.mark.parametrize("studies", [1, 2, 3])
def test_non_participation_loss_is_bounded_by_the_participation_bound(studies):
    # Scenario 2 (our model, see exactpml.bldp.scenarios): given leakage m (max number of
    # studies anyone joined) the loss is exactly m·log(1/α) (each of the m studies of the
    # changed person has worst ratio 1/α, outputs independent); over all designs DP is
    # k·log(1/α).  Hand computation with α = 1/2.
    model = non_participation(2, studies, "1/2")
    by_leakage = bldp_epsilon_by_leakage(model)
    assert by_leakage == {m: LogValue(2**m) for m in range(studies + 1)}
    assert dp_epsilon(model).epsilon == LogValue(2**studies)
    restricted = non_participation(
        2, studies, "1/2", designs=[[frozenset({0})] + [frozenset({1})] * (studies - 1)]
    )
    expected = 2 ** max(1, studies - 1)
    assert bldp_epsilon(restricted).epsilon == LogValue(expected)


def _non_participation_by_functions(population, studies, alpha, designs=None):
    """Scenario 2 as non_participation built it before its tables were filled directly:
    M, P and the neighbour relation as functions of (x, r) through the public constructor."""
    people = range(population)
    subsets = [frozenset(c) for k in range(population + 1) for c in itertools.combinations(people, k)]
    chosen = (
        list(itertools.product(subsets, repeat=studies))
        if designs is None
        else [tuple(frozenset(s) for s in d) for d in designs]
    )
    one_noise, draw = realize(truncated_geometric(population, alpha))
    databases = [(b, d) for d in chosen for b in itertools.product((0, 1), repeat=population)]

    def mechanism(x, r):
        bits, design = x
        return tuple(draw(sum(bits[j] for j in a), u) for a, u in zip(design, r, strict=True))

    def neighbours(x, y):
        return x[1] == y[1] and sum(a != b for a, b in zip(x[0], y[0], strict=True)) == 1

    return BoundedLeakageModel(
        Distribution.product([one_noise] * studies),
        mechanism,
        lambda x, r: max(sum(j in a for a in x[1]) for j in people),
        databases=databases,
        neighbours=neighbours,
    )


@pytest.mark.parametrize(
    ("population", "studies", "alpha", "designs"),
    [
        (1, 1, "1/2", None),
        (2, 2, "1/3", None),
        (2, 3, "7/20", None),
        (3, 2, "2/3", [[{0}, {1}], [{0, 1, 2}, {0, 1, 2}], [{0, 2}, {2}], [set(), {1}]]),
    ],
)
def test_non_participation_tables_equal_the_functions_of_x_and_r(
    population, studies, alpha, designs
):
    model = non_participation(population, studies, alpha, designs=designs)
    expected = _non_participation_by_functions(population, studies, alpha, designs)
    assert model.randomness.outcomes == expected.randomness.outcomes
    assert model.randomness.probabilities == expected.randomness.probabilities
    assert model.databases == expected.databases
    assert model.neighbours == expected.neighbours  # the same order
    assert dict(model.outputs) == dict(expected.outputs)
    assert dict(model.leakages) == dict(expected.leakages)
    assert repr(model) == repr(expected)


def test_non_participation_refuses_a_repeated_design():
    with pytest.raises(InvalidArgument, match="appears twice"):
        non_participation(2, 1, "1/2", designs=[[frozenset({0})], [frozenset({0})]])
    # α is validated first, as when the model's constructor found the repeated database
    with pytest.raises(InvalidArgument, match="alpha"):
        non_participation(2, 1, "3/2", designs=[[frozenset({0})], [frozenset({0})]])


def test_symbolic_randomness_gives_exact_symbolic_parameters():
    p = sympy.Symbol("p", positive=True)
    noise = Distribution({0: 1 - p, 1: p}, name="randomness")
    model = BoundedLeakageModel(
        noise, lambda x, r: x[0] ^ r, lambda x, r: 0, databases=[(0,), (1,)]
    )
    value = sympy.sympify(bldp_delta(model, LogValue(1)).delta)
    # Hand computation: δ(e^ε = 1) = total variation = |1 − 2p|.
    assert sympy.simplify(value.subs(p, sympy.Rational(1, 5)) - sympy.Rational(3, 5)) == 0


# --- bad input -----------------------------------------------------------------------------

COIN = Distribution({0: "1/2", 1: "1/2"})
DBS = [(0,), (1,)]

BAD = [
    (
        "randomness_not_summing_to_one",
        lambda: BoundedLeakageModel(
            {0: "1/3", 1: "1/3"}, lambda x, r: 0, lambda x, r: 0, databases=DBS
        ),
        InvalidArgument,
        ["randomness", "2/3"],
    ),
    (
        "randomness_not_a_distribution",
        lambda: BoundedLeakageModel([0, 1], lambda x, r: 0, lambda x, r: 0, databases=DBS),
        InvalidArgument,
        ["randomness must be a Distribution"],
    ),
    (
        "mechanism_on_another_space",
        lambda: BoundedLeakageModel(
            COIN, {x: {0: "a", 2: "b"} for x in DBS}, lambda x, r: 0, databases=DBS
        ),
        InvalidArgument,
        ["mechanism and randomness are on different randomness spaces", "[1]", "[2]"],
    ),
    (
        "leakage_on_another_space",
        lambda: BoundedLeakageModel(
            COIN, lambda x, r: 0, {x: {0: "a", 1: "b", 2: "c"} for x in DBS}, databases=DBS
        ),
        InvalidArgument,
        ["leakage and randomness are on different randomness spaces"],
    ),
    (
        "flat_table_missing_cell",
        lambda: BoundedLeakageModel(COIN, {((0,), 0): 1}, lambda x, r: 0, databases=DBS),
        InvalidArgument,
        ["mechanism has no value for (x, r)"],
    ),
    (
        "mechanism_raises",
        lambda: BoundedLeakageModel(COIN, lambda x, r: x[3], lambda x, r: 0, databases=DBS),
        InvalidArgument,
        ["mechanism raised IndexError"],
    ),
    (
        "mechanism_not_callable",
        lambda: BoundedLeakageModel(COIN, 3, lambda x, r: 0, databases=DBS),
        InvalidArgument,
        ["mechanism must be a callable", "mechanism=3"],
    ),
    (
        "unhashable_output",
        lambda: BoundedLeakageModel(COIN, lambda x, r: [r], lambda x, r: 0, databases=DBS),
        InvalidArgument,
        ["mechanism((0,), 0) = [0]", "not hashable"],
    ),
    (
        "databases_empty",
        lambda: BoundedLeakageModel(COIN, lambda x, r: 0, lambda x, r: 0, databases=[]),
        InvalidArgument,
        ["databases"],
    ),
    (
        "databases_repeated",
        lambda: BoundedLeakageModel(COIN, lambda x, r: 0, lambda x, r: 0, databases=[(0,), (0,)]),
        InvalidArgument,
        ["appears twice"],
    ),
    (
        "default_neighbours_need_tuples",
        lambda: BoundedLeakageModel(COIN, lambda x, r: 0, lambda x, r: 0, databases=["a", "b"]),
        InvalidArgument,
        ["neighbours", "tuples"],
    ),
    (
        "neighbour_not_a_database",
        lambda: BoundedLeakageModel(
            COIN, lambda x, r: 0, lambda x, r: 0, databases=DBS, neighbours=[((0,), (2,))]
        ),
        InvalidArgument,
        ["neighbours", "(2,)"],
    ),
    (
        "self_neighbour",
        lambda: BoundedLeakageModel(
            COIN, lambda x, r: 0, lambda x, r: 0, databases=DBS, neighbours=[((0,), (0,))]
        ),
        InvalidArgument,
        ["own neighbour"],
    ),
    (
        "neighbours_not_bool",
        lambda: BoundedLeakageModel(
            COIN, lambda x, r: 0, lambda x, r: 0, databases=DBS, neighbours=lambda x, y: 1
        ),
        InvalidArgument,
        ["returned 1, not a bool"],
    ),
    (
        "compose_different_databases",
        lambda: compose(identity_leakage(), parity_leakage_group_privacy()),
        InvalidArgument,
        ["second", "same databases"],
    ),
    (
        "compose_shared_different_randomness",
        lambda: compose(
            shared_randomness_composition()[0], identity_leakage(), randomness="shared"
        ),
        InvalidArgument,
        ["randomness='shared'"],
    ),
    (
        "compose_unknown_leakage",
        lambda: compose(identity_leakage(), identity_leakage(), leakage="both"),
        InvalidArgument,
        ["leakage='both'"],
    ),
    (
        "component_of_non_pair",
        lambda: component(identity_leakage(), 5),
        InvalidArgument,
        ["no coordinate 5"],
    ),
    (
        "distance_zero",
        lambda: bldp_epsilon(identity_leakage(), distance=0),
        InvalidArgument,
        ["distance=0"],
    ),
    (
        "epsilon_float",
        lambda: bldp_delta(identity_leakage(), 0.1),
        InexactInput,
        ["epsilon", "float"],
    ),
    ("delta_negative", lambda: is_bldp(identity_leakage(), 0, -1), InvalidArgument, ["delta=-1"]),
    (
        # one parameter policy: ε may be a number or a LogValue, never negative
        "group_bound_epsilon_negative",
        lambda: group_privacy_bound(-1, 0, 2),
        InvalidArgument,
        ["epsilon=-1", "negative"],
    ),
    (
        "group_k_zero",
        lambda: group_privacy_violations(identity_leakage(), 0),
        InvalidArgument,
        ["k=0"],
    ),
    ("alpha_not_below_one", lambda: truncated_geometric(3, 2), InvalidArgument, ["alpha=2"]),
    (
        "design_wrong_length",
        lambda: non_participation(2, 2, "1/2", designs=[[frozenset({0})]]),
        InvalidArgument,
        ["designs", "2 subsets"],
    ),
    (
        "conditional_on_impossible_leakage",
        lambda: identity_leakage().conditional((0,), (1,)),
        InvalidArgument,
        ["leakage=(1,)", "probability 0"],
    ),
    (
        "post_process_kernel_missing_rows",
        lambda: post_process(identity_leakage(), Mechanism.identity([(0,)])),
        InvalidArgument,
        ["kernel has no row"],
    ),
]


@pytest.mark.parametrize(
    ("action", "error", "fragments"), [c[1:] for c in BAD], ids=[c[0] for c in BAD]
)
def test_bad_input_gets_a_clear_error(action, error, fragments):
    with pytest.raises(error) as info:
        action()
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
