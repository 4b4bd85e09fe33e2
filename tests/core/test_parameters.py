"""One parameter policy: every public function that takes ε, δ, a probability or a scale
answers the same input the same way (exactpml.core.parameters).

The table calls every public function that takes ε with the same inputs; valid inputs give
the same value through every spelling (a number, a LogValue, exp_epsilon=, a string), and
every invalid input gives the same error class and names the parameter.  Expected values of
the divergences at negative and infinite ε come from a brute-force set form written here
from the definition, max over events S of P(S) − e^ε Q(S).
"""

from fractions import Fraction
from itertools import chain, combinations

import pytest
import sympy

from exactpml import (
    Distribution,
    ExactPMLError,
    InexactInput,
    InvalidArgument,
    LogValue,
    Mechanism,
    is_pml_private,
)
from exactpml.bldp import (
    BoundedLeakageModel,
    bldp_delta,
    dp_delta,
    group_privacy_bound,
    is_bldp,
    truncated_geometric,
)
from exactpml.continuous import ContinuousMechanism
from exactpml.database import DatabaseMechanism
from exactpml.instances.laplace_counting import laplace_counting_query
from exactpml.instances.threshold_query import threshold_query_leakage
from exactpml.leakage import probability_leakage_at_most
from exactpml.notions import (
    PrivacyLossDistribution,
    advanced_composition,
    basic_composition,
    composition_delta_for_epsilon,
    delta_for_epsilon,
    dp_to_zcdp_rho,
    dp_tradeoff_curve,
    gaussian_calibration,
    gaussian_delta_for_epsilon,
    hockey_stick_divergence,
    hockey_stick_event,
    is_differentially_private,
    is_free_lunch_private,
    is_locally_private,
    laplace_calibration,
    laplace_delta_for_epsilon,
    optimal_composition,
    poisson_amplification,
    privacy_loss_distribution,
    rdp_to_dp_epsilon,
    tradeoff_curve,
    without_replacement_amplification,
)
from exactpml.partial_knowledge import (
    apkdp_delta,
    is_apkdp,
    is_ppkdp,
    knowledge_delta,
    knowledge_deltas,
    knowledge_laws,
    ppkdp_delta,
    remark_2,
)
from exactpml.partial_knowledge.notions import delta_table
from exactpml.structured import GeometricNoise, LaplaceNoise, randomized_response
from exactpml.suprema.families import IIDPriors

RR = DatabaseMechanism({(0,): {0: "3/4", 1: "1/4"}, (1,): {0: "1/4", 1: "3/4"}})
LOCAL = randomized_response([0, 1], 3)
CHANNEL = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
UNIFORM = Distribution({"a": "1/2", "b": "1/2"})
P = Distribution({0: "1/2", 1: "1/2", 2: 0})
Q = Distribution({0: "1/4", 1: 0, 2: "3/4"})


def _bldp_model():
    return BoundedLeakageModel(
        {"r0": "1/2", "r1": "1/2"},
        lambda x, r: x if r == "r0" else 0,
        lambda x, r: 0,
        databases=[0, 1],
        neighbours=[(0, 1)],
    )


# (id, call taking ε by keyword or positionally, kind): "predicate" requires ε >= 0,
# "divergence" evaluates at any real ε.
def _functions():
    setting, mechanism = remark_2()
    model = _bldp_model()
    return [
        ("is_pml_private", lambda e, **k: is_pml_private(CHANNEL, UNIFORM, e, **k), "predicate"),
        (
            "probability_leakage_at_most",
            lambda e, **k: probability_leakage_at_most(CHANNEL, UNIFORM, e, **k),
            "predicate",
        ),
        (
            "is_differentially_private",
            lambda e, **k: is_differentially_private(RR, e, **k),
            "predicate",
        ),
        ("is_free_lunch_private", lambda e, **k: is_free_lunch_private(RR, e, **k), "predicate"),
        ("is_locally_private", lambda e, **k: is_locally_private(LOCAL, e, **k), "predicate"),
        ("is_apkdp", lambda e, **k: is_apkdp(setting, mechanism, e, 0, **k), "predicate"),
        ("is_ppkdp", lambda e, **k: is_ppkdp(setting, mechanism, e, 0, **k), "predicate"),
        ("is_bldp", lambda e, **k: is_bldp(model, e, 0, **k), "predicate"),
        ("group_privacy_bound", lambda e, **k: group_privacy_bound(e, 0, 2, **k), "predicate"),
        ("randomized_response", lambda e, **k: _rr(e, **k), "predicate"),
        ("delta_for_epsilon", lambda e, **k: delta_for_epsilon(RR, e, **k), "divergence"),
        (
            "hockey_stick_divergence",
            lambda e, **k: hockey_stick_divergence(P, Q, **_keyword(e, k)),
            "divergence",
        ),
        (
            "hockey_stick_event",
            lambda e, **k: hockey_stick_event(P, Q, **_keyword(e, k)),
            "divergence",
        ),
        (
            "PrivacyLossDistribution.delta",
            lambda e, **k: privacy_loss_distribution(P, Q).delta(e, **k),
            "divergence",
        ),
        (
            "knowledge_delta",
            lambda e, **k: knowledge_delta(setting, mechanism, e, ("No",), **k),
            "divergence",
        ),
        (
            "knowledge_deltas",
            lambda e, **k: knowledge_deltas(setting, mechanism, e, **k),
            "divergence",
        ),
        ("apkdp_delta", lambda e, **k: apkdp_delta(setting, mechanism, e, **k), "divergence"),
        (
            "delta_table",
            lambda e, **k: delta_table(knowledge_laws(setting, mechanism), e, **k),
            "divergence",
        ),
        ("ppkdp_delta", lambda e, **k: ppkdp_delta(setting, mechanism, e, **k), "divergence"),
        ("bldp_delta", lambda e, **k: bldp_delta(model, e, **k), "divergence"),
        ("dp_delta", lambda e, **k: dp_delta(model, e, **k), "divergence"),
        # accounting (issue 14)
        (
            "PrivacyLossDistribution.delta_for_epsilon",
            lambda e, **k: privacy_loss_distribution(P, Q).delta_for_epsilon(e, **k),
            "divergence",
        ),
        (
            "composition_delta_for_epsilon",
            lambda e, **k: composition_delta_for_epsilon(RR, 2, e, **k),
            "divergence",
        ),
        (
            "TradeoffCurve.delta_for_epsilon",
            lambda e, **k: tradeoff_curve(P, Q).delta_for_epsilon(e, **k),
            "divergence",
        ),
        (
            "laplace_delta_for_epsilon",
            lambda e, **k: laplace_delta_for_epsilon(2, e, **k),
            "divergence",
        ),
        (
            "gaussian_delta_for_epsilon",
            lambda e, **k: gaussian_delta_for_epsilon(1, e, **k),
            "divergence",
        ),
        (
            "PrivacyLossDistribution.from_privacy_parameters",
            lambda e, **k: PrivacyLossDistribution.from_privacy_parameters(e, **k),
            "predicate",
        ),
        ("basic_composition", lambda e, **k: basic_composition(e, k=2, **k), "predicate"),
        (
            "advanced_composition",
            lambda e, **k: advanced_composition(e, k=2, slack="1/10", **k),
            "predicate",
        ),
        ("optimal_composition", lambda e, **k: optimal_composition(e, k=2, i=1, **k), "predicate"),
        (
            "rdp_to_dp_epsilon",
            lambda e, **k: rdp_to_dp_epsilon(e, order=2, delta="1/10", **k),
            "predicate",
        ),
        ("dp_to_zcdp_rho", lambda e, **k: dp_to_zcdp_rho(e, **k), "predicate"),
        ("dp_tradeoff_curve", lambda e, **k: dp_tradeoff_curve(e, **k), "predicate"),
        (
            "poisson_amplification",
            lambda e, **k: poisson_amplification(e, rate="1/2", **k),
            "predicate",
        ),
        (
            "without_replacement_amplification",
            lambda e, **k: without_replacement_amplification(e, sample=1, size=2, **k),
            "predicate",
        ),
        (
            "laplace_calibration",
            lambda e, **k: laplace_calibration(e, delta="1/10", **k),
            "predicate",
        ),
        (
            "gaussian_calibration",
            lambda e, **k: gaussian_calibration(e, delta="1/10", tolerance="1/100", **k),
            "predicate",
        ),
    ]


def _rr(epsilon, **keywords):
    if epsilon is None:
        return randomized_response([0, 1], **keywords)
    return randomized_response([0, 1], epsilon=epsilon, **keywords)


def _keyword(epsilon, keywords):
    return {"epsilon": epsilon, **keywords} if epsilon is not None else keywords


FUNCTIONS = _functions()
IDS = [name for name, _, _ in FUNCTIONS]

# (id, ε as given, extra keywords, error class, fragments of the message) for every function
INVALID_FOR_ALL = [
    ("float", 0.5, {}, InexactInput, ["epsilon", "float"]),
    ("complex", 1j, {}, InvalidArgument, ["epsilon", "real"]),
    ("imaginary_sympy", sympy.I, {}, InvalidArgument, ["epsilon=I", "real"]),
    ("text", "big", {}, InvalidArgument, ["epsilon", "'big'"]),
    ("nan", "nan", {}, InvalidArgument, ["epsilon", "not a finite number"]),
    ("code", "__import__('os').getcwd()", {}, InvalidArgument, ["epsilon", "cannot read"]),
    ("both_given", 1, {"exp_epsilon": 3}, InvalidArgument, ["either epsilon or exp_epsilon"]),
    ("none_given", None, {}, InvalidArgument, ["epsilon", "exp_epsilon"]),
    ("unknown_sign_symbol", sympy.Symbol("u", real=True), {}, InvalidArgument, ["unknown sign"]),
    ("negative_exp_epsilon", None, {"exp_epsilon": -2}, InvalidArgument, ["exp_epsilon=-2"]),
]
INVALID_FOR_PREDICATES = [
    ("negative", -1, {}, InvalidArgument, ["epsilon=-1", "negative"]),
    ("negative_text", "-1/2", {}, InvalidArgument, ["epsilon=-1/2", "negative"]),
    ("log_below_one", LogValue(Fraction(1, 2)), {}, InvalidArgument, ["epsilon", "below 1"]),
    ("exp_epsilon_below_one", None, {"exp_epsilon": "1/2"}, InvalidArgument, ["at least 1"]),
    ("minus_infinity", "-oo", {}, InvalidArgument, ["epsilon=-oo", "negative"]),
    (
        "symbol_of_unproved_sign",
        sympy.Symbol("v", negative=True),
        {},
        InvalidArgument,
        ["epsilon=v", "negative"],
    ),
]


@pytest.mark.parametrize(("name", "call", "kind"), FUNCTIONS, ids=IDS)
@pytest.mark.parametrize(
    ("case", "epsilon", "keywords", "error", "fragments"),
    INVALID_FOR_ALL,
    ids=[c[0] for c in INVALID_FOR_ALL],
)
def test_every_epsilon_function_refuses_the_same_invalid_inputs(
    name, call, kind, case, epsilon, keywords, error, fragments
):
    with pytest.raises(error) as caught:
        call(epsilon, **keywords)
    assert isinstance(caught.value, ExactPMLError)
    for fragment in fragments:
        assert fragment in str(caught.value), f"{name}: {fragment!r} not in {caught.value}"


@pytest.mark.parametrize(("name", "call", "kind"), FUNCTIONS, ids=IDS)
@pytest.mark.parametrize(
    ("case", "epsilon", "keywords", "error", "fragments"),
    INVALID_FOR_PREDICATES,
    ids=[c[0] for c in INVALID_FOR_PREDICATES],
)
def test_negative_epsilon_is_refused_by_predicates_and_evaluated_by_divergences(
    name, call, kind, case, epsilon, keywords, error, fragments
):
    if kind == "predicate":
        with pytest.raises(error) as caught:
            call(epsilon, **keywords)
        for fragment in fragments:
            assert fragment in str(caught.value), f"{name}: {fragment!r} not in {caught.value}"
    elif isinstance(epsilon, sympy.Symbol):  # symbolic: a value, or Undecided, never a guess
        try:
            call(epsilon, **keywords)
        except ExactPMLError as error:
            assert type(error).__name__ == "Undecided", error
    else:
        call(epsilon, **keywords)  # a divergence at ε < 0 is a value


@pytest.mark.parametrize(("name", "call", "kind"), FUNCTIONS, ids=IDS)
def test_every_spelling_of_the_same_epsilon_gives_the_same_answer(name, call, kind):
    spellings = [
        ((LogValue(3),), {}),
        ((None,), {"exp_epsilon": 3}),
        ((None,), {"exp_epsilon": "3"}),
        (("log(3)",), {}),
        ((sympy.log(3),), {}),
    ]
    answers = [call(*args, **keywords) for args, keywords in spellings]
    assert all(answer == answers[0] for answer in answers), answers


@pytest.mark.parametrize(("name", "call", "kind"), FUNCTIONS, ids=IDS)
def test_zero_and_a_positive_symbol_are_accepted(name, call, kind):
    call(0)
    if name in {"group_privacy_bound", "randomized_response"}:
        call(sympy.Symbol("s", positive=True))  # exact constructions: symbolic e^ε
    else:
        try:
            call(sympy.Symbol("s", positive=True))
        except ExactPMLError as error:  # a verdict depending on s: Undecided, never a guess
            assert type(error).__name__ == "Undecided", error


def _brute_hockey_stick(p, q, ratio):
    """max over events S of P(S) − ratio·Q(S), from the definition (ratio=None: ε = ∞)."""
    outcomes = list(p.outcomes)
    best = Fraction(0)
    for event in chain.from_iterable(combinations(outcomes, k) for k in range(len(outcomes) + 1)):
        if ratio is None:  # the limit ε → ∞ keeps only events of Q-mass 0
            if sum((q[o] for o in event), Fraction(0)) == 0:
                best = max(best, sum((p[o] for o in event), Fraction(0)))
            continue
        best = max(best, sum((p[o] - ratio * q[o] for o in event), Fraction(0)))
    return best


@pytest.mark.parametrize(
    "ratio", [Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(1), Fraction(5, 2)]
)
def test_divergences_at_negative_epsilon_match_the_set_definition(ratio):
    expected = _brute_hockey_stick(P, Q, ratio)
    assert hockey_stick_divergence(P, Q, exp_epsilon=ratio) == expected
    assert hockey_stick_divergence(P, Q, exp_epsilon=ratio, form="plrv") == expected
    assert privacy_loss_distribution(P, Q).delta(exp_epsilon=ratio) == expected


def test_divergence_at_infinite_epsilon_is_the_mass_where_the_other_law_vanishes():
    expected = _brute_hockey_stick(P, Q, None)
    assert expected == Fraction(1, 2)
    for epsilon in ("oo", sympy.oo, LogValue.infinity()):
        assert hockey_stick_divergence(P, Q, epsilon=epsilon) == expected
        assert hockey_stick_divergence(P, Q, epsilon=epsilon, form="plrv") == expected
    assert delta_for_epsilon(RR, "oo").value == 0
    assert is_differentially_private(RR, "oo") and is_pml_private(CHANNEL, UNIFORM, "oo")


def test_divergence_at_a_negative_irrational_epsilon_is_certified():
    # e^{-1} < 1/2 < ...: the event {p > e^{-1} q} is {0, 1}: δ = 1/2 + 1/2 − e^{-1}·1/4
    value = hockey_stick_divergence(P, Q, epsilon=-1)
    assert sympy.simplify(value - (1 - sympy.exp(-1) / 4)) == 0


# --- scales, probabilities and orders -----------------------------------------------------
SCALE_CASES = [
    ("LaplaceNoise", lambda v: LaplaceNoise(v), "scale"),
    ("laplace_delta_for_epsilon", lambda v: laplace_delta_for_epsilon(v, 1), "scale"),
    ("gaussian_delta_for_epsilon", lambda v: gaussian_delta_for_epsilon(v, 1), "sigma"),
    ("laplace_counting_query", lambda v: laplace_counting_query(2, v), "scale"),
    (
        "ContinuousMechanism.laplace",
        lambda v: ContinuousMechanism.laplace({0: 0, 1: 1}, v),
        "scale",
    ),
]
PROBABILITY_CASES = [
    ("GeometricNoise", lambda v: GeometricNoise(v), "alpha"),
    ("truncated_geometric", lambda v: truncated_geometric(2, v), "alpha"),
    ("threshold_query_leakage", lambda v: threshold_query_leakage(4, 1, v), "p"),
    ("IIDPriors", lambda v: IIDPriors([0, 1], 2, predicate=lambda d: d, c=v), "c"),
    ("poisson_amplification", lambda v: poisson_amplification(1, rate=v), "rate"),
    (
        "from_privacy_parameters",
        lambda v: PrivacyLossDistribution.from_privacy_parameters(1, delta=v),
        "delta",
    ),
]
BAD_VALUES = [
    ("infinite", "oo", InvalidArgument, ["finite"]),
    ("negative", "-1", InvalidArgument, ["-1"]),
    ("complex", 1j, InvalidArgument, ["real"]),
    ("float", 0.25, InexactInput, ["float"]),
    ("unknown_sign", sympy.Symbol("w"), InvalidArgument, ["unknown sign"]),
    ("code", "__import__('os')", InvalidArgument, ["cannot read"]),
    ("nan", "nan", InvalidArgument, ["not a finite"]),
]


@pytest.mark.parametrize(("name", "build", "parameter"), SCALE_CASES + PROBABILITY_CASES)
@pytest.mark.parametrize(("case", "value", "error", "fragments"), BAD_VALUES)
def test_scales_and_probabilities_follow_one_policy(
    name, build, parameter, case, value, error, fragments
):
    with pytest.raises(error) as caught:
        build(value)
    assert parameter in str(caught.value), caught.value
    for fragment in fragments:
        assert fragment in str(caught.value), caught.value


@pytest.mark.parametrize(("name", "build", "parameter"), SCALE_CASES)
def test_a_zero_scale_is_refused(name, build, parameter):
    with pytest.raises(InvalidArgument, match=f"{parameter}=0 must be positive"):
        build(0)


@pytest.mark.parametrize(("name", "build", "parameter"), PROBABILITY_CASES[:3])
def test_open_interval_probabilities_refuse_their_ends(name, build, parameter):
    for end in (0, 1):
        with pytest.raises(InvalidArgument, match=rf"{parameter}={end} must lie in \(0, 1\)"):
            build(end)
