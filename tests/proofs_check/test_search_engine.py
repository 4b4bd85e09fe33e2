"""The search engine behind property_holds: small scope first, then Hypothesis (issue 11).

The two false "user claims" of issue 11 are written as a user would write them, with the
library's default strategies, and must be refuted at the quick profile for seeds 0-3 by
the small-scope phase (even when the random phase misses them), with a minimal,
rebuildable counterexample and a report that says how it was found.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import assume, reject
from hypothesis import strategies as st
from hypothesis.errors import HypothesisDeprecationWarning

from exactpml import strategies as xst
from exactpml.core.mechanism import Mechanism
from exactpml.database import DatabaseMechanism, DatabaseSpace
from exactpml.errors import Undecided
from exactpml.leakage import maximal_leakage
from exactpml.notions import differential_privacy_epsilon
from proofs_check import (
    SMALL_SCOPE_BUDGET,
    CheckContext,
    Evidence,
    Registry,
    RunOptions,
    Verdict,
    property_holds,
    run_checks,
    small_scope,
)
from proofs_check.properties import PropertyError

SEEDS = [0, 1, 2, 3]


def quick(seed: int = 0, *, profile: str = "quick", examples: int = 50) -> CheckContext:
    return CheckContext("user.claim", seed=seed, examples=examples, profile=profile)  # type: ignore[arg-type]


# --- user claim (i): group privacy with ε instead of kε -------------------------------------


def group_privacy_with_epsilon(distance: int):  # type: ignore[no-untyped-def]
    """The false claim: ε-DP at distance k is at most the ε of Def 4.1 (distance 1)."""

    def holds(mechanism: DatabaseMechanism) -> bool:
        assume(mechanism.space.size >= distance)
        at_distance = differential_privacy_epsilon(mechanism, distance=distance).value
        return at_distance <= differential_privacy_epsilon(mechanism).value

    return holds


@pytest.mark.parametrize("seed", SEEDS)
def test_group_privacy_with_epsilon_is_refuted_by_the_small_scope_phase(seed: int) -> None:
    evidence = property_holds(
        quick(seed),
        xst.database_mechanisms(),
        group_privacy_with_epsilon(2),
        describe="ε at distance 2 <= ε",
        small_scope=small_scope.database_mechanisms(),
    )
    assert evidence.passed is False
    assert evidence.stats is not None and evidence.stats.found_by == "small-scope"
    assert evidence.summary == (
        "ε at distance 2 <= ε: failed; found by small-scope enumeration: instance 51 of 2456 "
        "(randomized response on each of n = 2 records, e^ε = 2), the first counterexample "
        "in the enumeration order (smallest first)"
    )
    # The instances before it (databases of one record) were skipped by the assumption.
    assert evidence.stats.scope is not None
    assert (evidence.stats.scope.skipped, evidence.stats.scope.tried) == (50, 0)
    assert evidence.stats.tried == 0  # the random phase never ran


def test_the_group_privacy_counterexample_is_rebuilt_from_its_position() -> None:
    evidence = property_holds(
        quick(),
        xst.database_mechanisms(),
        group_privacy_with_epsilon(2),
        describe="ε at distance 2 <= ε",
        small_scope=small_scope.database_mechanisms(),
    )
    instance = list(small_scope.database_mechanisms())[50]  # "instance 51 of 2456"
    assert evidence.counterexample == repr(instance)
    assert str(differential_privacy_epsilon(instance).value) == "log(2)"
    assert str(differential_privacy_epsilon(instance, distance=2).value) == "log(4)"
    assert instance.mechanism.probability((0, 0), (0, 0)) == Fraction(4, 9)


def test_group_privacy_at_distance_3_is_refuted_on_three_records() -> None:
    evidence = property_holds(
        quick(),
        xst.database_mechanisms(),
        group_privacy_with_epsilon(3),
        describe="ε at distance 3 <= ε",
        small_scope=small_scope.database_mechanisms(min_size=3, max_size=3),
    )
    assert evidence.passed is False
    assert "instance 1 of " in evidence.summary
    assert "(randomized response on each of n = 3 records, e^ε = 2)" in evidence.summary


def test_the_small_scope_refutes_group_privacy_even_when_the_random_phase_cannot() -> None:
    one_record = xst.database_mechanisms(space=DatabaseSpace([0, 1], 1))  # never n >= 2
    blind = property_holds(quick(), one_record, group_privacy_with_epsilon(2), describe="ε_2 <= ε")
    assert blind.passed is None  # every random instance skipped: undecided, not passed
    found = property_holds(
        quick(),
        one_record,
        group_privacy_with_epsilon(2),
        describe="ε_2 <= ε",
        small_scope=small_scope.database_mechanisms(),
    )
    assert found.passed is False and "found by small-scope enumeration" in found.summary


# --- user claim (ii): maximal leakage of a pair without conditional independence -------------

PAIRS = [(0, 0), (0, 1), (1, 0), (1, 1)]


def marginal(kernel: Mechanism, coordinate: int) -> Mechanism:
    return kernel.post_process(
        Mechanism.from_function(lambda y: {y[coordinate]: 1}, kernel.outputs)
    )


def leakage_of_pair_at_most_the_sum(kernel: Mechanism) -> bool:
    """The false claim: L(X -> (Y1, Y2)) <= L(X -> Y1) + L(X -> Y2) for any kernel."""
    first, second = marginal(kernel, 0), marginal(kernel, 1)
    return maximal_leakage(kernel) <= maximal_leakage(first) + maximal_leakage(second)


XOR = "Mechanism({0: {(0, 1): '1/2', (1, 0): '1/2'}, 1: {(0, 0): '1/2', (1, 1): '1/2'}}, outputs=[(0, 0), (0, 1), (1, 0), (1, 1)])"


@pytest.mark.parametrize("seed", SEEDS)
def test_maximal_leakage_of_a_pair_is_refuted_by_the_small_scope_phase(seed: int) -> None:
    evidence = property_holds(
        quick(seed),
        xst.mechanisms(outputs=PAIRS),
        leakage_of_pair_at_most_the_sum,
        describe="L(X->(Y1,Y2)) <= L(X->Y1) + L(X->Y2)",
        small_scope=small_scope.pair_kernels(),
        explain=lambda k: (
            f"L(X->(Y1,Y2)) = {maximal_leakage(k)}, L(X->Y1) = "
            f"{maximal_leakage(marginal(k, 0))}, L(X->Y2) = {maximal_leakage(marginal(k, 1))}"
        ),
    )
    assert evidence.passed is False
    assert evidence.stats is not None and evidence.stats.found_by == "small-scope"
    assert evidence.stats.found_at == "instance 233 of 2766 (|X| = 2, |Y1| = 2, |Y2| = 2, grid 1/2)"
    assert "found by small-scope enumeration: instance 233 of 2766" in evidence.summary
    # Minimal: X is a fair one-time pad's key, Y1 the pad, Y2 = Y1 xor X.
    assert evidence.counterexample == (f"{XOR}; L(X->(Y1,Y2)) = log(2), L(X->Y1) = 0, L(X->Y2) = 0")


def test_the_maximal_leakage_counterexample_rebuilds_from_its_repr() -> None:
    kernel = eval(XOR, {"Mechanism": Mechanism})
    assert kernel == list(small_scope.pair_kernels())[232]
    assert leakage_of_pair_at_most_the_sum(kernel) is False


def test_no_smaller_pair_kernel_refutes_the_maximal_leakage_claim() -> None:
    first_failures = [
        index
        for index, kernel in enumerate(small_scope.pair_kernels())
        if not leakage_of_pair_at_most_the_sum(kernel)
    ]
    assert first_failures[0] == 232


# --- assume, undecided, budgets -------------------------------------------------------------


def test_assume_skips_an_instance_in_both_phases_without_a_warning() -> None:
    def holds(n: int) -> bool:
        assume(n % 2 == 0)
        return n % 2 == 0

    with warnings.catch_warnings():
        warnings.simplefilter("error", HypothesisDeprecationWarning)
        evidence = property_holds(
            quick(), st.integers(0, 1000), holds, describe="even", small_scope=range(10)
        )
    assert evidence.passed is True
    assert evidence.stats is not None and evidence.stats.scope is not None
    assert (evidence.stats.scope.tried, evidence.stats.scope.skipped) == (5, 5)
    assert evidence.stats.skipped > 0 and evidence.stats.tried == 50
    assert "5 small-scope instances (the given instances: all 10, 5 skipped by assume)" in (
        evidence.summary
    )
    assert f"; {evidence.stats.skipped} skipped by assume)" in evidence.summary


def test_reject_skips_like_assume() -> None:
    def holds(n: int) -> bool:
        if n == 3:
            reject()
        return n != 3

    evidence = property_holds(
        quick(), st.integers(0, 9), holds, describe="n != 3 unless rejected", small_scope=range(5)
    )
    assert evidence.passed is True
    assert evidence.stats is not None and evidence.stats.scope is not None
    assert evidence.stats.scope.skipped == 1


def test_when_every_instance_is_skipped_the_evidence_is_undecided_not_passed() -> None:
    def holds(n: int) -> bool:
        assume(False)
        return True

    evidence = property_holds(
        quick(), st.integers(0, 9), holds, describe="vacuous", small_scope=range(4)
    )
    assert evidence.passed is None
    assert evidence.summary.startswith("vacuous: no instance was decided: 4 small-scope ")
    without_scope = property_holds(quick(), st.integers(0, 9), holds, describe="vacuous")
    assert without_scope.passed is None


def test_undecided_small_scope_instances_make_the_property_undecided() -> None:
    def holds(n: int) -> bool | None:
        if n == 2:
            raise Undecided("cannot settle")
        return True

    evidence = property_holds(quick(), st.integers(5, 9), holds, describe="p", small_scope=range(4))
    assert evidence.passed is None
    assert "3 of 4 small-scope instances, undecided on 1" in evidence.summary


@pytest.mark.parametrize("profile", ["quick", "default", "thorough"])
def test_the_small_scope_budget_of_each_profile_is_respected(profile: str) -> None:
    seen = 0

    def holds(n: int) -> bool:
        nonlocal seen
        seen += 1
        return True

    evidence = property_holds(
        quick(profile=profile, examples=1),
        st.just(-1),
        holds,
        describe="true",
        small_scope=range(10**6),
    )
    budget = SMALL_SCOPE_BUDGET[profile]  # type: ignore[index]
    assert seen == budget + 1  # the budget, then one random instance
    assert evidence.stats is not None and evidence.stats.scope is not None
    assert evidence.stats.scope.tried == budget and not evidence.stats.scope.complete
    percent = {"quick": "0.2%", "default": "1.0%", "thorough": "10.0%"}[profile]
    assert f"covered {budget:,} of 1,000,000 ({percent}), the budget" in evidence.summary


def test_the_budgets_are_those_documented() -> None:
    assert SMALL_SCOPE_BUDGET == {"quick": 2000, "default": 10000, "thorough": 100000}


def test_an_unsized_small_scope_is_enumerated_up_to_the_budget() -> None:
    def naturals() -> Iterator[int]:
        n = 0
        while True:
            yield n
            n += 1

    evidence = property_holds(
        quick(), st.just(0), lambda n: n >= 0, describe="n >= 0", small_scope=naturals
    )
    assert evidence.passed is True
    assert "(the given instances: covered 2,000 (of an unknown number), the budget)" in (
        evidence.summary
    )


def test_summaries_say_how_many_instances_each_phase_tried() -> None:
    evidence = property_holds(
        quick(),
        st.integers(),
        lambda n: n * n >= 0,
        describe="n*n >= 0",
        small_scope=small_scope.SmallScope.of("integers -3..3", range(-3, 4)),
    )
    assert evidence.summary == (
        "n*n >= 0: held on 7 small-scope instances (integers -3..3: all 7) and on 50 random "
        "exact instances (seed 0)"
    )
    without = property_holds(quick(), st.integers(), lambda n: n * n >= 0, describe="n*n >= 0")
    assert without.summary == (
        "n*n >= 0: held on 50 random exact instances (seed 0); no small scope: the strategy is "
        "not one exactpml can enumerate (it uses no exactpml strategy)"
    )
    opted_out = property_holds(
        quick(), st.integers(), lambda n: n * n >= 0, describe="n*n >= 0", small_scope=False
    )
    assert opted_out.summary == "n*n >= 0: held on 50 random exact instances (seed 0)"


# --- how a failure was found -----------------------------------------------------------------


def test_a_small_scope_failure_is_the_first_in_the_enumeration_order() -> None:
    evidence = property_holds(
        quick(), st.integers(0, 10**6), lambda n: n < 37, describe="n < 37", small_scope=range(100)
    )
    assert evidence.passed is False and evidence.counterexample == "37"
    assert evidence.stats is not None and evidence.stats.found_by == "small-scope"
    assert evidence.summary == (
        "n < 37: failed; found by small-scope enumeration: instance 38 of 100 (the given "
        "instances), the first counterexample in the enumeration order (smallest first)"
    )


def test_a_failure_beyond_the_small_scope_is_found_and_shrunk_by_hypothesis() -> None:
    evidence = property_holds(
        quick(examples=300),
        st.integers(0, 1000),
        lambda n: n < 700,
        describe="n < 700",
        small_scope=range(100),
    )
    assert evidence.passed is False and evidence.counterexample == "700"
    assert evidence.stats is not None and evidence.stats.found_by == "hypothesis"
    assert evidence.summary.startswith("n < 700: failed; found by Hypothesis on random exact ")
    assert "after 100 small-scope instances (the given instances: all 100) held, shrunk" in (
        evidence.summary
    )


def test_an_exception_on_a_small_scope_instance_names_it() -> None:
    with pytest.raises(PropertyError, match=r"ZeroDivisionError.*small-scope instance 4 of 9"):
        property_holds(
            quick(),
            st.just(1),
            lambda n: 1 // (n - 3) is not None,
            describe="p",
            small_scope=range(9),
        )


def test_small_scope_must_be_an_iterable_or_a_function_returning_one() -> None:
    with pytest.raises(Exception, match="small_scope"):
        property_holds(quick(), st.just(1), lambda n: True, describe="p", small_scope="abc")
    called = property_holds(
        quick(), st.just(1), lambda n: True, describe="p", small_scope=lambda: [1, 2]
    )
    assert called.stats is not None and called.stats.scope is not None
    assert called.stats.scope.tried == 2


def test_only_the_first_shard_enumerates_the_small_scope() -> None:
    ctx = CheckContext("user.claim", seed=4, examples=10, profile="quick", shard=1)
    evidence = property_holds(ctx, st.just(1), lambda n: True, describe="p", small_scope=range(5))
    assert evidence.stats is not None and evidence.stats.scope is None


def test_sharded_runs_report_the_small_scope_once() -> None:
    registry = Registry()

    @registry.check(
        "demo.scoped",
        source="test",
        result="Lemma",
        statement="n*n >= 0",
        kinds="P",
        mutants={"strict": "n*n > 0"},
    )
    def scoped(ctx: CheckContext) -> list[Evidence]:
        strict = ctx.mutant == "strict"
        return [
            property_holds(
                ctx,
                st.integers(),
                (lambda n: n * n > 0) if strict else (lambda n: n * n >= 0),
                describe="n*n >= 0",
                small_scope=range(-2, 3),
            )
        ]

    options = RunOptions(workers=1, profile="quick", shards=3, seed=10, examples=20)
    (result,) = run_checks(options=options, registry=registry).results
    assert result.verdict is Verdict.PASSED
    assert result.evidence[0].summary == (
        "n*n >= 0: held on 5 small-scope instances (the given instances: all 5) and on 60 "
        "random exact instances (seeds 10–12)"
    )
    mutant = RunOptions(workers=1, profile="quick", shards=3, mutant="strict")
    (failed,) = run_checks(options=mutant, registry=registry).results
    assert failed.verdict is Verdict.FAILED and failed.counterexample == "0"
    assert "found by small-scope enumeration: instance 3 of 5" in failed.evidence[0].summary


# --- margin guidance ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_margin_guidance_does_not_change_the_verdict_of_a_true_property(seed: int) -> None:
    def holds(pair: tuple[Fraction, Fraction]) -> bool:
        a, b = pair
        return (a + b) ** 2 >= 4 * a * b

    def margin(pair: tuple[Fraction, Fraction]) -> Fraction:
        a, b = pair
        return (a + b) ** 2 - 4 * a * b

    pairs = st.tuples(st.fractions(0, 50), st.fractions(0, 50))
    guided = property_holds(quick(seed), pairs, holds, describe="AM-GM", margin=margin)
    plain = property_holds(quick(seed), pairs, holds, describe="AM-GM")
    assert guided.passed is True and plain.passed is True
    assert guided.stats is not None and guided.stats.tried >= 50


@pytest.mark.parametrize("seed", SEEDS)
def test_margin_guidance_does_not_change_the_verdict_of_a_false_property(seed: int) -> None:
    evidence = property_holds(
        quick(seed),
        st.fractions(-10, 10),
        lambda x: x * x > 0,
        describe="x*x > 0",
        margin=lambda x: x * x,
    )
    assert evidence.passed is False and evidence.counterexample == "0"
    assert evidence.stats is not None and evidence.stats.found_by == "hypothesis"


def test_a_margin_may_be_exact_a_float_a_log_value_or_none() -> None:
    kernels = xst.mechanisms(max_inputs=2, max_outputs=2)

    def holds(kernel: Mechanism) -> bool:
        return maximal_leakage(kernel) <= maximal_leakage(kernel) + maximal_leakage(kernel)

    for margin in (
        lambda k: maximal_leakage(k),  # a LogValue (possibly log 1 = 0)
        lambda k: 0.5,
        lambda k: Fraction(-1, 3),
        lambda k: None,
    ):
        assert property_holds(quick(), kernels, holds, describe="p", margin=margin).passed


def test_a_margin_that_raises_is_an_error_not_a_verdict() -> None:
    with pytest.raises(PropertyError, match="margin raised ZeroDivisionError"):
        property_holds(
            quick(), st.integers(0, 5), lambda n: True, describe="p", margin=lambda n: 1 / 0
        )
    with pytest.raises(PropertyError, match="margin must return a number"):
        property_holds(
            quick(), st.integers(0, 5), lambda n: True, describe="p", margin=lambda n: True
        )


def test_the_same_seed_gives_the_same_evidence_with_a_small_scope_and_a_margin() -> None:
    def run() -> Evidence:
        return property_holds(
            quick(seed=9),
            st.fractions(-10, 10),
            lambda x: x * x >= 0,
            describe="x*x >= 0",
            small_scope=small_scope.probability_vectors(2).map(lambda v: v[0] - v[1]),
            margin=lambda x: x * x,
        )

    assert run() == run()


def test_a_margin_given_as_text_is_refused_never_evaluated() -> None:
    import sympy

    from exactpml import LogValue
    from exactpml.errors import InvalidArgument
    from proofs_check.properties import _guidance

    with pytest.raises(InvalidArgument, match="margin must return a real number"):
        _guidance("__import__('os').getcwd()")
    assert _guidance(sympy.log(2)) == pytest.approx(0.6931471805599453)  # steering only
    assert _guidance(LogValue(Fraction(2))) == pytest.approx(0.6931471805599453)
