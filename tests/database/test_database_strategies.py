"""The database strategies reach the edge cases that break claims, and build valid objects."""

import pytest
from hypothesis import find, given, settings

from exactpml import strategies as xst
from exactpml.database import BOTTOM, DatabaseMechanism, DatabaseSpace, ProductPrior
from exactpml.structured import AtLeast, AtMost, CountingQuery, GeometricNoise, QueryMechanism

SEARCH = settings(max_examples=2000, database=None, deadline=None)
SPACE = DatabaseSpace([0, 1, 2], 2)


@pytest.mark.parametrize(
    ("name", "strategy", "condition"),
    [
        ("one_letter_alphabet", xst.database_spaces(), lambda s: len(s.alphabet) == 1),
        ("three_entries", xst.database_spaces(), lambda s: s.size == 3),
        (
            "output_never_produced",
            xst.database_mechanisms(min_outputs=2),
            lambda m: any(all(v == 0 for v in m.mechanism.column(y)) for y in m.outputs),
        ),
        (
            "infinite_dp",
            xst.database_mechanisms(),
            lambda m: any(
                0 in m.mechanism.column(y) and any(m.mechanism.column(y)) for y in m.outputs
            ),
        ),
        (
            "correlated_prior",
            xst.database_priors(SPACE, kind="joint"),
            lambda p: p[(0, 0)] * p[(1, 1)] != p[(0, 1)] * p[(1, 0)],
        ),
        (
            "non_identical_product_prior",
            xst.product_priors(SPACE),
            lambda p: not p.is_identical,
        ),
        ("constant_predicate", xst.predicates([0, 1, 2]), lambda f: len(set(f.values())) == 1),
        (
            "thresholded_geometric_count",
            xst.counting_mechanisms(),
            lambda m: isinstance(m.noise, GeometricNoise) and m.window.threshold is not None,
        ),
        (
            "threshold_at_n",
            xst.counting_mechanisms(threshold=True),
            lambda m: m.window.threshold == m.space.size,
        ),
    ],
)
def test_database_strategies_reach_the_edge_case(name, strategy, condition):
    find(strategy, condition, settings=SEARCH)


@given(xst.database_mechanisms())
def test_database_mechanisms_are_kernels_on_all_of_d_to_the_n(mechanism):
    assert isinstance(mechanism, DatabaseMechanism)
    assert set(mechanism.mechanism.inputs) == set(mechanism.space.databases())


@given(xst.product_priors(SPACE, full_support=True))
def test_full_support_product_priors_have_full_support(prior):
    assert isinstance(prior, ProductPrior) and prior.has_full_support


def test_output_event_maps_raw_geometric_outputs_to_their_lumped_events():
    space = DatabaseSpace([0, 1], 3)
    plain = QueryMechanism(space, CountingQuery({0: 0, 1: 1}), noise=GeometricNoise("1/2"))
    assert plain.outputs == (AtMost(-1), 0, 1, 2, 3, AtLeast(4))
    assert [plain.output_event(y) for y in (-5, -1, 0, 3, 4, 99)] == [
        AtMost(-1),
        AtMost(-1),
        0,
        3,
        AtLeast(4),
        AtLeast(4),
    ]
    cut = QueryMechanism(
        space, CountingQuery({0: 0, 1: 1}), noise=GeometricNoise("1/2"), threshold=1
    )
    assert cut.outputs == (BOTTOM, 2, 3, AtLeast(4))
    assert [cut.output_event(y) for y in (-3, 1, 2, 7)] == [BOTTOM, BOTTOM, 2, AtLeast(4)]
