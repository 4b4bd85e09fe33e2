"""Small-scope enumerators: exhaustive, exact, smallest first, with the documented sizes."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from exactpml.bldp.model import BoundedLeakageModel
from exactpml.core.distribution import Distribution
from exactpml.core.mechanism import Mechanism
from exactpml.database import DatabaseMechanism
from exactpml.errors import InvalidArgument
from exactpml.partial_knowledge.setting import PartialKnowledge
from proofs_check import small_scope
from proofs_check.small_scope import Layer, SmallScope

GRID_2 = {
    (Fraction(a, d), 1 - Fraction(a, d)) for d in (1, 2, 3, 4) for a in range(d + 1)
}  # the 7 vectors of size 2

SCOPES: dict[str, tuple[Callable[[], SmallScope[Any]], int]] = {
    "probability_vectors(2)": (lambda: small_scope.probability_vectors(2), 7),
    "probability_vectors(3)": (lambda: small_scope.probability_vectors(3), 22),
    "probability_vectors(4)": (lambda: small_scope.probability_vectors(4), 51),
    "distributions()": (small_scope.distributions, 30),
    "mechanisms()": (small_scope.mechanisms, 11556),
    "mechanisms_with_prior()": (small_scope.mechanisms_with_prior, 358),
    "attributes([0, 1])": (lambda: small_scope.attributes([0, 1]), 534),
    "attributes([0, 1, 2])": (lambda: small_scope.attributes([0, 1, 2]), 10992),
    "pair_kernels()": (small_scope.pair_kernels, 2766),
    "database_mechanisms()": (small_scope.database_mechanisms, 2456),
    "partial_knowledge_settings()": (small_scope.partial_knowledge_settings, 290),
    "setting_mechanisms()": (small_scope.setting_mechanisms, 673060),
    "bounded_leakage_models()": (small_scope.bounded_leakage_models, 489552),
}


@pytest.mark.parametrize("name", list(SCOPES))
def test_each_scope_has_its_documented_size_and_every_small_layer_yields_its_size(
    name: str,
) -> None:
    make, size = SCOPES[name]
    scope = make()
    assert len(scope) == size
    for layer in scope.layers:
        if layer.size is not None and layer.size <= 3000:
            assert sum(1 for _ in layer.build()) == layer.size, layer.description


def _pk_key(setting: PartialKnowledge) -> object:
    laws = tuple(tuple(law.as_dict().items()) for law in setting.records)
    return (laws, setting.target, setting.value, setting.alternative, tuple(setting.known or ()))


@pytest.mark.parametrize(
    ("name", "kind", "key"),
    [
        ("distributions()", Distribution, repr),
        ("mechanisms_with_prior()", tuple, repr),
        ("attributes([0, 1])", Mechanism, repr),
        ("pair_kernels()", Mechanism, repr),
        ("database_mechanisms()", DatabaseMechanism, lambda m: repr(m.mechanism)),
        ("partial_knowledge_settings()", PartialKnowledge, _pk_key),
    ],
)
def test_small_scopes_enumerate_distinct_exact_objects(
    name: str, kind: type, key: Callable[[Any], object]
) -> None:
    scope = SCOPES[name][0]()
    items = list(scope)
    assert len(items) == len(scope)
    assert all(isinstance(item, kind) for item in items)
    assert len({key(item) for item in items}) == len(items)


def test_every_kernel_on_two_letters_with_grid_rows_is_enumerated_once() -> None:
    scope = small_scope.mechanisms(inputs=[0, 1], outputs=[0, 1])
    rows = {
        tuple((kernel.probability(x, 0), kernel.probability(x, 1)) for x in (0, 1))
        for kernel in scope
    }
    assert len(scope) == 49 and rows == set(itertools.product(GRID_2, repeat=2))
    assert all(
        isinstance(kernel.probability(x, y), Fraction | int)
        for kernel in scope
        for x in (0, 1)
        for y in (0, 1)
    )


def test_layers_go_from_small_alphabets_and_coarse_grids_to_larger_ones() -> None:
    described = [layer.description for layer in small_scope.mechanisms(max_inputs=2).layers]
    assert described[:6] == [
        "|X| = 1, |Y| = 1, deterministic",
        "|X| = 1, |Y| = 2, deterministic",
        "|X| = 1, |Y| = 2, grid 1/2",
        "|X| = 1, |Y| = 2, grid 1/3",
        "|X| = 1, |Y| = 2, grid 1/4",
        "|X| = 2, |Y| = 1, deterministic",
    ]
    first = next(iter(small_scope.mechanisms(inputs=[0, 1], outputs=[0, 1])))
    assert first.is_deterministic
    vectors = list(small_scope.probability_vectors(3))
    assert all(sum(v) == 1 and min(v) >= 0 for v in vectors)
    assert vectors[:3] == [
        (Fraction(0), Fraction(0), Fraction(1)),
        (Fraction(0), Fraction(1), Fraction(0)),
        (Fraction(1), Fraction(0), Fraction(0)),
    ]


def test_a_layer_on_the_grid_1_3_needs_a_third_somewhere() -> None:
    scope = small_scope.mechanisms(inputs=[0, 1], outputs=[0, 1])
    (layer,) = [x for x in scope.layers if x.description.endswith("grid 1/3")]
    for kernel in layer.build():
        entries = [kernel.probability(x, y) for x in (0, 1) for y in (0, 1)]
        assert any(Fraction(e).denominator == 3 for e in entries)


def test_full_support_and_zero_free_options() -> None:
    assert all(min(v) > 0 for v in small_scope.probability_vectors(3, full_support=True))
    assert len(small_scope.probability_vectors(2, full_support=True)) == 5
    for kernel in small_scope.mechanisms(max_inputs=2, max_outputs=2, zeros=False):
        assert all(kernel.probability(x, y) > 0 for x in kernel.inputs for y in kernel.outputs)
    for _, prior in small_scope.mechanisms_with_prior(full_support=True):
        assert all(prior[x] > 0 for x in prior.outcomes)


def test_attributes_list_every_deterministic_map_first() -> None:
    scope = small_scope.attributes([0, 1, 2], max_values=2)
    items = list(scope)
    maps = [item for item in items if item.is_deterministic]
    assert len(maps) == 1 + 8
    assert items[: len(maps)] == maps
    assert len(small_scope.attributes([0, 1], deterministic=False)) == 520


def test_database_mechanisms_put_the_structured_ones_first_on_each_size() -> None:
    scope = small_scope.database_mechanisms()
    described = [layer.description for layer in scope.layers]
    assert described[5:9] == [
        "randomized response on each of n = 2 records, e^ε = 2",
        "randomized response on each of n = 2 records, e^ε = 3",
        "count of the records equal to 1 (n = 2) with two-sided geometric noise, α = 1/2",
        "count of the records equal to 1 (n = 2) with two-sided geometric noise, α = 1/3",
    ]
    assert len(small_scope.database_mechanisms(structured=False)) == 2452
    assert {m.space.size for m in scope} == {1, 2}


def test_partial_knowledge_settings_cover_targets_values_and_knowledge() -> None:
    settings = list(small_scope.partial_knowledge_settings())
    two = [s for s in settings if len(s.records) == 2]
    assert {(s.target, s.value, tuple(s.known or ())) for s in two} == {
        (t, v, k) for t in (0, 1) for v in (0, 1) for k in ((), (1 - t,))
    }
    assert all(s.records[s.target][0] > 0 and s.records[s.target][1] > 0 for s in settings)
    pairs = list(itertools.islice(small_scope.setting_mechanisms(), 600))
    assert all(isinstance(m, Mechanism) and len(m.inputs) == 2 ** len(s.records) for s, m in pairs)


def test_bounded_leakage_models_are_built_from_every_table() -> None:
    scope = small_scope.bounded_leakage_models(shapes=[(1, 2)], max_randomness=1)
    models = list(scope)
    assert len(models) == 16 and all(isinstance(m, BoundedLeakageModel) for m in models)
    tables = {(tuple(m.outputs.items()), tuple(m.leakages.items())) for m in models}
    assert len(tables) == 16


def test_locate_map_concatenation_and_of() -> None:
    scope = SmallScope(
        "two layers", [Layer("a", 2, lambda: [1, 2]), Layer("b", 3, lambda: [3, 4, 5])]
    )
    assert scope.locate(0) == (1, scope.layers[0])
    assert scope.locate(2) == (3, scope.layers[1])
    assert scope.locate(9) == (10, None)
    doubled = scope.map(lambda n: 2 * n)
    assert list(doubled) == [2, 4, 6, 8, 10] and len(doubled) == 5
    joined = scope + SmallScope.of("c", [6])
    assert list(joined) == [1, 2, 3, 4, 5, 6] and joined.description == "two layers, then c"
    unknown = SmallScope("unknown", [Layer("gen", None, lambda: iter([1]))])
    assert unknown.size is None and unknown.locate(5) == (6, unknown.layers[0])
    with pytest.raises(TypeError):
        len(unknown)
    assert "5 instances in 2 layers" in repr(scope)


def test_scopes_can_be_enumerated_twice_with_the_same_result() -> None:
    scope = small_scope.pair_kernels(max_inputs=1)
    assert [repr(k) for k in scope] == [repr(k) for k in scope]


@pytest.mark.parametrize(
    "make",
    [
        lambda: small_scope.probability_vectors(0),
        lambda: small_scope.mechanisms(grid=(1,)),
        lambda: small_scope.mechanisms(grid=()),
        lambda: small_scope.mechanisms(max_inputs=0),
        lambda: small_scope.mechanisms(min_outputs=3, max_outputs=2),
        lambda: small_scope.distributions(outcomes=[]),
        lambda: small_scope.attributes([]),
        lambda: small_scope.bounded_leakage_models(shapes=[(1, 2, 3)]),  # type: ignore[list-item]
        lambda: SmallScope("", []),
    ],
)
def test_bad_arguments_are_refused(make: Callable[[], object]) -> None:
    with pytest.raises(InvalidArgument):
        make()
