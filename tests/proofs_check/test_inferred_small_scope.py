"""The exhaustive phase for everyone: property_holds infers the small scope (issue 24).

Three false claims are written as a user would write them: exactpml's default strategies,
no ``small_scope=``.  Each must be refuted at the --quick profile for seeds 0-3 by the
inferred small scope, with a small, readable counterexample that a brute force written from
the definitions (``proofs_check.reference``) confirms.  The other tests pin how inference
is switched off, what the summary says, and the budget.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume
from hypothesis import strategies as st

from exactpml import strategies as xst
from exactpml.core.mechanism import Mechanism
from exactpml.database import DatabaseMechanism, entry_leakage
from exactpml.leakage import maximal_leakage
from exactpml.notions import differential_privacy_epsilon
from proofs_check import CheckContext, property_holds, small_scope
from proofs_check.properties import INFERRED_SCOPE_FACTOR
from proofs_check.reference import dp_ratio_over_space, entry_pml_ratio

SEEDS = [0, 1, 2, 3]


def quick(seed: int = 0, *, examples: int = 50, profile: str = "quick") -> CheckContext:
    return CheckContext("user.claim", seed=seed, examples=examples, profile=profile)  # type: ignore[arg-type]


def _rebuilt(text: str) -> Any:
    """A counterexample's repr evaluated with exactpml's constructors only."""
    from exactpml import Distribution
    from exactpml import Mechanism as M

    return eval(
        text, {"DatabaseMechanism": DatabaseMechanism, "Mechanism": M, "Distribution": Distribution}
    )


# --- a correlated prior: ε-DP does not bound l(D_i -> y) -------------------------------------


def entry_leakage_at_most_epsilon(pair: tuple[DatabaseMechanism, Any]) -> bool:
    """The false claim: an ε-DP mechanism leaks at most ε about each entry, whatever the
    joint prior on the databases."""
    mechanism, prior = pair
    epsilon = differential_privacy_epsilon(mechanism).value
    return all(
        entry_leakage(mechanism, prior, i, y) <= epsilon
        for i in range(mechanism.space.size)
        for y in mechanism.outputs
    )


def _confirm_correlated(mechanism: DatabaseMechanism, prior: Any) -> None:
    """exp l(D_i -> y) > e^ε for some i, y, by enumeration (reference.pml, reference.dp)."""
    space = mechanism.space
    dp = dp_ratio_over_space(mechanism.mechanism, space.alphabet, space.size)
    masses = {x: Fraction(prior[x]) for x in space.databases()}
    leaks = [
        entry_pml_ratio(mechanism.mechanism, masses, y, i)
        for i in range(space.size)
        for y in mechanism.outputs
    ]
    assert dp is not None and max(leaks) > dp


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    "strategy",
    [
        xst.database_mechanisms_with_prior(),
        xst.database_mechanisms().flatmap(
            lambda m: st.tuples(st.just(m), xst.database_priors(m.space, kind="joint"))
        ),
    ],
    ids=["database_mechanisms_with_prior", "flatmap"],
)
def test_dp_bounding_the_leakage_of_an_entry_under_a_joint_prior_is_refuted(
    seed: int, strategy: Any
) -> None:
    evidence = property_holds(
        quick(seed), strategy, entry_leakage_at_most_epsilon, describe="l(D_i->y) <= ε"
    )
    assert evidence.passed is False
    assert evidence.stats is not None and evidence.stats.found_by == "small-scope"
    assert evidence.stats.scope is not None and evidence.stats.scope.tried < 500
    mechanism, prior = _rebuilt(evidence.counterexample or "")
    assert (mechanism.space.size, len(mechanism.space.alphabet)) == (2, 2)
    assert all(Fraction(p).denominator <= 4 for p in prior.probabilities)
    _confirm_correlated(mechanism, prior)


def test_the_joint_prior_counterexample_is_a_two_point_prior_on_tied_entries() -> None:
    evidence = property_holds(
        quick(),
        xst.database_mechanisms_with_prior(),
        entry_leakage_at_most_epsilon,
        describe="l(D_i->y) <= ε",
    )
    assert evidence.counterexample == (
        "(DatabaseMechanism(Mechanism({(0, 0): {0: '1/4', 1: '1/2', 2: '1/4'}, (0, 1): "
        "{0: '1/6', 1: '1/2', 2: '1/3'}, (1, 0): {0: '1/6', 1: '1/2', 2: '1/3'}, (1, 1): "
        "{0: '1/9', 1: '4/9', 2: '4/9'}}, outputs=[0, 1, 2]), alphabet=[0, 1], size=2), "
        "Distribution({(0, 0): '1/3', (0, 1): '0', (1, 0): '0', (1, 1): '2/3'}))"
    )
    assert "joint priors on 2 databases, grid 1/3" in evidence.summary


# --- composition of maximal leakage without conditional independence -------------------------


def _marginal(kernel: Mechanism, coordinate: int) -> Mechanism:
    return kernel.post_process(
        Mechanism.from_function(lambda y: {y[coordinate]: 1}, kernel.outputs)
    )


def leakage_of_the_pair_at_most_the_sum(kernel: Mechanism) -> bool:
    """The false claim L(X -> (Y1, Y2)) <= L(X -> Y1) + L(X -> Y2) for any joint kernel."""
    return maximal_leakage(kernel) <= maximal_leakage(_marginal(kernel, 0)) + maximal_leakage(
        _marginal(kernel, 1)
    )


def _column_maxima(kernel: Mechanism, coordinate: int | None) -> Fraction:
    """exp L by enumeration: Σ over (marginal) outputs of the max over inputs."""
    groups: dict[object, list[object]] = {}
    for pair in kernel.outputs:
        groups.setdefault(pair if coordinate is None else pair[coordinate], []).append(pair)  # type: ignore[index]
    return sum(
        (
            max(
                sum((Fraction(kernel.probability(x, y)) for y in ys), Fraction(0))
                for x in kernel.inputs
            )
            for ys in groups.values()
        ),
        Fraction(0),
    )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    "strategy",
    [xst.pair_kernels(), xst.mechanisms(outputs=[(0, 0), (0, 1), (1, 0), (1, 1)])],
    ids=["pair_kernels", "mechanisms_on_pairs"],
)
def test_maximal_leakage_composition_without_independence_is_refuted(
    seed: int, strategy: Any
) -> None:
    evidence = property_holds(
        quick(seed),
        strategy,
        leakage_of_the_pair_at_most_the_sum,
        describe="L(X->(Y1,Y2)) <= L(X->Y1) + L(X->Y2)",
    )
    assert evidence.passed is False
    assert evidence.stats is not None and evidence.stats.found_by == "small-scope"
    kernel = _rebuilt(evidence.counterexample or "")
    assert len(kernel.inputs) == 2  # one-time pad: each output alone says nothing
    joint = _column_maxima(kernel, None)
    assert joint > _column_maxima(kernel, 0) * _column_maxima(kernel, 1)


# --- group privacy ---------------------------------------------------------------------------


def group_privacy(numerator: int, denominator: int) -> Any:
    """The false claim: ε-DP at distance 2 is at most (numerator/denominator) ε."""

    def holds(mechanism: DatabaseMechanism) -> bool:
        assume(mechanism.space.size >= 2)
        single = differential_privacy_epsilon(mechanism).value
        double = differential_privacy_epsilon(mechanism, distance=2).value
        return denominator * double <= numerator * single

    return holds


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("numerator", "denominator"), [(1, 1), (3, 2)], ids=["ε", "1.5ε"])
def test_group_privacy_with_too_small_a_factor_is_refuted(
    seed: int, numerator: int, denominator: int
) -> None:
    evidence = property_holds(
        quick(seed),
        xst.database_mechanisms(),
        group_privacy(numerator, denominator),
        describe=f"ε_2 <= {numerator}/{denominator} ε",
    )
    assert evidence.passed is False
    assert evidence.stats is not None and evidence.stats.found_by == "small-scope"
    mechanism = _rebuilt(evidence.counterexample or "")
    space = mechanism.space
    one = dp_ratio_over_space(mechanism.mechanism, space.alphabet, space.size)
    two = dp_ratio_over_space(mechanism.mechanism, space.alphabet, space.size, 2)
    assert one is not None and two is not None
    assert two**denominator > one**numerator  # e^{dε_2} > e^{nε}: the claim fails


# --- switching inference off, notes, budgets -------------------------------------------------


def test_an_explicit_small_scope_wins_and_false_opts_out() -> None:
    holds = group_privacy(1, 1)
    explicit = property_holds(
        quick(),
        xst.database_mechanisms(),
        holds,
        describe="ε_2 <= ε",
        small_scope=small_scope.database_mechanisms(),
    )
    assert "instance 51 of 2456 (randomized response" in explicit.summary
    off = property_holds(
        quick(),
        xst.pair_kernels(),
        leakage_of_the_pair_at_most_the_sum,
        describe="p",
        small_scope=False,
    )
    assert off.stats is not None and off.stats.scope is None and off.stats.scope_note == ""
    assert "small-scope" not in off.summary and "no small scope" not in off.summary


def test_a_strategy_exactpml_cannot_enumerate_is_named_in_the_summary() -> None:
    @st.composite
    def instances(draw: st.DrawFn) -> Mechanism:
        return draw(xst.mechanisms())

    evidence = property_holds(quick(), instances(), lambda m: True, describe="true")
    assert evidence.summary == (
        "true: held on 50 random exact instances (seed 0); no small scope: the strategy is "
        "not one exactpml can enumerate (the @composite 'instances')"
    )
    gains = property_holds(quick(), xst.gain_functions(), lambda g: True, describe="true")
    assert gains.summary.endswith("(exactpml.strategies.gain_functions has no small scope)")


def test_the_inferred_budget_is_ten_times_the_examples_and_the_coverage_is_printed() -> None:
    seen = 0

    def holds(kernel: Mechanism) -> bool:
        nonlocal seen
        seen += 1
        return True

    evidence = property_holds(quick(examples=7), xst.mechanisms(), holds, describe="true")
    assert INFERRED_SCOPE_FACTOR == 10
    assert evidence.stats is not None and evidence.stats.scope is not None
    assert evidence.stats.scope.tried == 70 and not evidence.stats.scope.complete
    assert seen == 70 + 7
    assert (
        "held on 70 small-scope instances (kernels with rows on the grid 1/2, 1/3, 1/4: "
        "covered 70 of 11,556 (0.6%), the budget)"
    ) in evidence.summary


def test_a_complete_inferred_scope_says_all() -> None:
    evidence = property_holds(
        quick(),
        xst.distributions(outcomes="ab"),
        lambda d: sum(d.probabilities) == 1,
        describe="sums to 1",
    )
    assert "(distributions on the grid 1/2, 1/3, 1/4: all 7)" in evidence.summary


def test_the_catalog_claims_infer_no_small_scope() -> None:
    ctx = CheckContext("pml.def_2_6", examples=5, profile="quick")
    evidence = property_holds(ctx, xst.mechanisms_with_prior(), lambda pair: True, describe="t")
    assert evidence.stats is not None and evidence.stats.scope is None
    assert evidence.summary == "t: held on 5 random exact instances (seed 0)"


def test_filtered_instances_are_walked_over_and_counted() -> None:
    evidence = property_holds(
        quick(),
        xst.mechanisms(max_inputs=2, max_outputs=2).filter(lambda m: len(m.inputs) == 2),
        lambda m: len(m.inputs) == 2,
        describe="two inputs",
    )
    assert evidence.passed is True
    scope = evidence.stats.scope if evidence.stats else None
    assert scope is not None and scope.complete and scope.filtered == 8 and scope.tried == 50
    assert "all 50, 8 outside the strategy's domain" in evidence.summary


def test_up_to_relabelling_reduces_the_inferred_scope_and_reports_the_orbits() -> None:
    evidence = property_holds(
        quick(),
        xst.mechanisms(max_inputs=2, max_outputs=2),
        lambda m: True,
        describe="true",
        up_to_relabelling=True,
    )
    scope = evidence.stats.scope if evidence.stats else None
    assert scope is not None and scope.complete and scope.tried == 22 and scope.coverage == 58
    assert "one per relabelling orbit: all 58 through 22 representatives" in evidence.summary
    with pytest.raises(Exception, match="up_to_relabelling applies to the inferred"):
        property_holds(
            quick(),
            xst.mechanisms(),
            lambda m: True,
            describe="t",
            small_scope=[1],
            up_to_relabelling=True,
        )


# --- partial knowledge: ordering and symmetry (the referee's PPKDP => (ε, 2δ)-APKDP) ---------


def apkdp_at_most_twice_ppkdp(pair: tuple[Any, Mechanism]) -> bool:
    """The false claim: (ε, δ)-PPKDP implies (ε, 2δ)-APKDP, at e^ε = 1 and 2."""
    from exactpml import LogValue
    from exactpml.partial_knowledge import apkdp_delta, knowledge_laws, ppkdp_delta

    setting, mechanism = pair
    laws = knowledge_laws(setting, mechanism)
    for ratio in (Fraction(1), Fraction(2)):
        epsilon = LogValue(ratio)
        if apkdp_delta(setting, laws, epsilon).delta > 2 * ppkdp_delta(setting, laws, epsilon):
            return False
    return True


def _confirm_apkdp(pair: tuple[Any, Mechanism]) -> None:
    """δ_APK > 2 δ_PPK at e^ε = 1 or 2, by the definitions (reference.partial_knowledge)."""
    from proofs_check.reference import apkdp_by_definition, ppkdp_by_definition

    setting, mechanism = pair
    assert any(
        apkdp_by_definition(setting, mechanism, ratio)
        > 2 * ppkdp_by_definition(setting, mechanism, ratio)
        for ratio in (Fraction(1), Fraction(2))
    )


def test_ppkdp_implying_apkdp_with_twice_delta_is_refuted_at_default_in_the_new_order() -> None:
    """Two-record settings with a mechanism number 672,560; in the old order (kernel grid
    level first, each with the settings up to it) the first 10,000 missed the
    counterexample, which needs a deterministic kernel and a known record of law
    (1/3, 2/3).  Ordered by both grid levels together, it is instance 2,827."""
    evidence = property_holds(
        quick(profile="default", examples=1),
        st.just(None),
        apkdp_at_most_twice_ppkdp,
        describe="δ_APK <= 2 δ_PPK",
        small_scope=small_scope.setting_mechanisms(),
    )
    assert evidence.passed is False and evidence.stats is not None
    assert evidence.stats.found_at == (
        "instance 2827 of 673060 (2 binary records, 2 outputs, kernel deterministic, laws grid 1/3)"
    )
    scope = small_scope.setting_mechanisms()
    pair = next(itertools.islice(iter(scope), 2826, None))
    assert apkdp_at_most_twice_ppkdp(pair) is False
    _confirm_apkdp(pair)


def test_with_symmetry_the_same_claim_is_refuted_at_quick() -> None:
    evidence = property_holds(
        quick(examples=1),
        st.just(None),
        apkdp_at_most_twice_ppkdp,
        describe="δ_APK <= 2 δ_PPK",
        small_scope=small_scope.setting_mechanisms(up_to_relabelling=True),
    )
    assert evidence.passed is False and evidence.stats is not None
    assert evidence.stats.found_at == (
        "instance 333 of 673060, the representative of 16 relabelled instances (2 binary "
        "records, 2 outputs, kernel deterministic, laws grid 1/3)"
    )
    assert evidence.stats.scope is not None and evidence.stats.scope.coverage == 3188
    counterexample = _rebuilt_pair(evidence.counterexample or "")
    _confirm_apkdp(counterexample)


def _rebuilt_pair(text: str) -> Any:
    from exactpml import Distribution
    from exactpml.partial_knowledge import PartialKnowledge

    return eval(
        text,
        {
            "PartialKnowledge": PartialKnowledge,
            "Mechanism": Mechanism,
            "Distribution": Distribution,
        },
    )
