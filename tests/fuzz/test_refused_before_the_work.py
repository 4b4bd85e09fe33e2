"""Calls the sweep found hanging, refused before the work by a predicted-cost check (issue 21,
items 4 and 6): each, in a forked child under 2 s of CPU (``fuzz_isolation``), raises
:class:`~exactpml.core.bounds.BoundExceeded` naming the bound that its predicted cost
exceeds, or, for a strategy, the strategies' argument error.  Within the bound, the same
functions still compute (the baselines of ``fuzz_api_table`` and the claims' own tests).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from fuzz_isolation import run_isolated

from exactpml import (
    ContinuousMechanism,
    DatabaseMechanism,
    GainFunction,
    Mechanism,
    bldp,
    notions,
    strategies,
)
from exactpml.core.bounds import BoundExceeded
from exactpml.instances import laplace_counting as lc
from exactpml.instances import threshold_query as tq
from exactpml.notions import PrivacyLossDistribution

HUGE = 10**5000
TINY = Fraction(1, 10**5000)
SINGLE = DatabaseMechanism.from_function(lambda x: {x[0]: 1}, [0, 1], 1)


def _drawn(strategy: Any) -> Any:
    """One example of ``strategy`` (where a strategy's arguments are read)."""
    from hypothesis import given, settings

    drawn: list[Any] = []

    @settings(max_examples=1, database=None, deadline=None)
    @given(strategy)
    def draw(example: Any) -> None:
        drawn.append(example)

    draw()
    return drawn[0]


#: name -> (the call, the bound its refusal names, or "strategy" for the strategies' error)
CASES: dict[str, tuple[Callable[[], Any], str]] = {
    "bldp.truncated_geometric(size=10**5000)": (
        lambda: bldp.truncated_geometric(HUGE, "1/2"),
        "table_entries",
    ),
    "laplace_counting.entry_leakage_at(n=10**5000)": (
        lambda: lc.entry_leakage_at(HUGE, 1, "1/2", 0),
        "symbolic_exponent",
    ),
    "laplace_counting.entry_leakage_at(scale=exp(-exp(exp(100))))": (  # HYPOTHESIS_PROFILE=thorough
        lambda: lc.entry_leakage_at(2, "exp(-exp(exp(100)))", "1/2", "1/2"),
        "exponential_argument",
    ),
    "laplace_counting.entry_leakage_closed_forms(scale=10**-5000)": (
        lambda: lc.entry_leakage_closed_forms(2, TINY, "1/2"),
        "exponential_argument",
    ),
    "threshold_query.binomial_lower_tail(n=10**5000)": (
        lambda: tq.binomial_lower_tail(HUGE, 1, Fraction(1, 2)),
        "exact_bits",
    ),
    "threshold_query.threshold_query_leakage(n=10**5000)": (
        lambda: tq.threshold_query_leakage(HUGE, 1, "3/10"),
        "exact_bits",
    ),
    "threshold_query.chernoff_bound(p=10**-5000)": (
        lambda: tq.chernoff_bound(200, 0, TINY),
        "exact_bits",
    ),
    "notions.advanced_composition(epsilon=10**5000)": (
        lambda: notions.advanced_composition(HUGE, k=2, slack="1/10"),
        "exponential_argument",
    ),
    "notions.optimal_composition(epsilon=10**5000)": (
        lambda: notions.optimal_composition(HUGE, k=2, i=1),
        "exponential_argument",
    ),
    "notions.dp_tradeoff_curve(epsilon=10**5000)": (
        lambda: notions.dp_tradeoff_curve(HUGE),
        "exponential_argument",
    ),
    "PrivacyLossDistribution.from_privacy_parameters(epsilon=10**5000)": (
        lambda: PrivacyLossDistribution.from_privacy_parameters(HUGE),
        "exponential_argument",
    ),
    "notions.poisson_amplification(epsilon=10**5000)": (
        lambda: notions.poisson_amplification(HUGE, rate="1/2"),
        "exponential_argument",
    ),
    "notions.dpsgd_delta(epsilon=10**5000)": (
        lambda: notions.dpsgd_delta(1, Fraction(1, 10), 3, HUGE),
        "exponential_argument",
    ),
    "CertifiedPLD.self_compose(steps=10**5000)": (
        lambda: notions.certified_laplace_pld(1, resolution=Fraction(1, 16)).self_compose(HUGE),
        "accounting_steps",
    ),
    "notions.subsampled_without_replacement(size=10**5000)": (
        lambda: notions.subsampled_without_replacement(SINGLE, HUGE),
        "table_entries",
    ),
    "Mechanism.identity(range(10**18))": (
        lambda: Mechanism.identity(range(10**18)),
        "table_entries",
    ),
    "GainFunction.identity(range(10**18))": (
        lambda: GainFunction.identity(range(10**18)),
        "table_entries",
    ),
    "strategies.predicates(alphabet of 5000 entries)": (
        lambda: _drawn(strategies.predicates(list(range(5000)))),
        "strategy",
    ),
    "strategies.attributes(inputs of 100000 entries)": (
        lambda: _drawn(strategies.attributes(list(range(100_000)))),
        "strategy",
    ),
}


def _outcome(call: Callable[[], Any]) -> Callable[[], tuple[str, str]]:
    """The call, reduced to (the error's kind, its message) in the child."""

    def run() -> tuple[str, str]:
        from hypothesis.errors import InvalidArgument as HypothesisInvalidArgument

        from exactpml.errors import InvalidArgument

        try:
            value = call()
        except BoundExceeded as error:
            return f"bound {error.bound}", str(error)
        except InvalidArgument as error:
            both = isinstance(error, HypothesisInvalidArgument)
            return ("strategy" if both else "invalid argument"), str(error)
        return "value", type(value).__name__

    return run


@pytest.mark.parametrize("case", list(CASES))
def test_a_call_that_hung_is_refused_naming_its_bound(case: str) -> None:
    call, bound = CASES[case]
    outcome = run_isolated(_outcome(call))
    assert outcome.kind == "value", f"{case}: {outcome}"
    expected = "strategy" if bound == "strategy" else f"bound {bound}"
    assert outcome.detail.startswith(f"tuple: ('{expected}'"), f"{case}: {outcome.detail}"


def test_within_the_bounds_the_same_calls_compute() -> None:
    assert isinstance(bldp.truncated_geometric(3, "1/2"), Mechanism)
    assert tq.binomial_lower_tail(3, 1, Fraction(1, 2)) == Fraction(1, 2)
    assert notions.optimal_composition(1, k=2, i=1).delta > 0
    assert len(notions.dp_tradeoff_curve(1).breakpoints) == 3
    assert isinstance(ContinuousMechanism.geometric({0: 0, 1: 1}, ratio="1/2"), ContinuousMechanism)
    example = _drawn(strategies.predicates([0, 1]))
    assert set(example) == {0, 1} and set(example.values()) <= {0, 1}


def test_a_record_of_a_huge_parameter_prints_by_its_ends() -> None:
    mechanism = ContinuousMechanism.geometric({0: 0, 1: 1}, ratio=TINY)
    assert "(5001 digits)" in repr(mechanism) and len(repr(mechanism)) < 2_000
