"""The poster's Scenario 2 (non-participation) written from its definition
(``proofs_check.reference.bldp.non_participation_by_definition``) against hand-computed values
and against exactpml's model, and the check ``bldp.non_participation`` on several instances.

Expected values: the truncated geometric mechanism of Ghosh, Roughgarden, Sundararajan
(p(y|c) = (1-α)/(1+α) α^|y-c| inside, α^c/(1+α) at 0, α^(size-c)/(1+α) at size), worked by
hand, and the poster's constraint Pr[M(x) = m | P = o] <= e^ε Pr[M(x') = m | P = o].
"""

from __future__ import annotations

from fractions import Fraction

from exactpml import LogValue
from exactpml.bldp import bldp_epsilon_by_leakage, non_participation
from proofs_check import CheckContext
from proofs_check.claims.bldp.scenarios import non_participation_check
from proofs_check.reference.bldp import (
    conditionals,
    model_epsilon,
    non_participation_by_definition,
    truncated_geometric_law,
)

HALF = Fraction(1, 2)


def test_truncated_geometric_law_by_hand() -> None:
    third, sixth = Fraction(1, 3), Fraction(1, 6)
    # α = 1/2 on 0..2: count 1 gives (1/2)/(3/2) = 1/3 everywhere
    assert truncated_geometric_law(1, 2, HALF) == {0: third, 1: third, 2: third}
    # count 0: 1/(3/2) = 2/3 at 0, (1/3)(1/2) = 1/6 at 1, (1/4)/(3/2) = 1/6 at 2
    assert truncated_geometric_law(0, 2, HALF) == {0: 2 * third, 1: sixth, 2: sixth}
    assert truncated_geometric_law(0, 0, HALF) == {0: 1}


def test_one_person_one_study_by_hand() -> None:
    laws, pairs = non_participation_by_definition(1, 1, HALF)
    empty: tuple[frozenset[int], ...] = (frozenset(),)
    joined = (frozenset({0}),)
    # the person joined: count v, law {0: 2/3, 1: 1/3} for v = 0 and {0: 1/3, 1: 2/3} for v = 1
    assert laws[((0,), joined)] == {1: {(0,): Fraction(2, 3), (1,): Fraction(1, 3)}}
    assert laws[((1,), joined)] == {1: {(0,): Fraction(1, 3), (1,): Fraction(2, 3)}}
    # nobody joined: the count is 0 whatever v, leakage 0
    assert laws[((1,), empty)] == {0: {(0,): Fraction(2, 3), (1,): Fraction(1, 3)}}
    assert sorted(pairs, key=repr) == sorted(
        [(((0,), d), ((1,), d)) for d in (empty, joined)]
        + [(((1,), d), ((0,), d)) for d in (empty, joined)],
        key=repr,
    )
    # given m = 1 the loss is (2/3)/(1/3) = 2 = 1/α, given m = 0 nothing
    joined_pairs = [(x, y) for x, y in pairs if laws[x].keys() == {1}]
    assert model_epsilon(laws, joined_pairs) == LogValue(2)
    empty_pairs = [(x, y) for x, y in pairs if laws[x].keys() == {0}]
    assert len(empty_pairs) == 2 and model_epsilon(laws, empty_pairs) == LogValue(1)


def test_exactpml_model_has_the_definitions_laws() -> None:
    designs = [(frozenset({0}), frozenset({0, 1})), (frozenset(), frozenset({1}))]
    model = non_participation(2, 2, Fraction(1, 3), designs=designs)
    laws, _ = non_participation_by_definition(2, 2, Fraction(1, 3), designs=designs)
    assert conditionals(model) == laws
    assert bldp_epsilon_by_leakage(model) == {2: LogValue(9), 1: LogValue(3)}


def test_the_check_runs_several_instances() -> None:
    quick = non_participation_check(CheckContext(claim_id="bldp.non_participation",
                                                 profile="quick"))
    default = non_participation_check(CheckContext(claim_id="bldp.non_participation"))
    for evidence, count in ((quick, 4), (default, 6)):
        witness = next(e for e in evidence if "the reference's" in e.summary)
        assert witness.passed is True, witness.summary
        assert f"({count} instances" in witness.summary
    assert "k = 2-3 studies" in next(e for e in quick if "the reference's" in e.summary).summary
    witness = next(e for e in default if "the reference's" in e.summary)
    shown = {value.name: value.text for value in witness.values}
    assert shown["population 3, k = 3, α = 3/4, 3 designs: DP ε (exactpml, reference)"] == (
        "log(64/27), log(64/27)"
    )
