"""Symmetry reduction keeps one representative of every relabelling orbit (issue 24, item 3).

The orbits are computed here by brute force on the built objects: every relabelling of the
inputs and outputs (of the records, their values and the outputs for partial knowledge) is
applied to every instance of the full enumeration, with code written from the definition of
a relabelling, not from ``proofs_check.small_scope._symmetry``.  The reduced enumeration
must hold exactly one instance of each orbit, weighted by the orbit's size, so that its
weights add up to the full enumeration's size.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

import pytest

from exactpml.core.mechanism import Mechanism
from exactpml.database import DatabaseMechanism
from exactpml.partial_knowledge.setting import PartialKnowledge
from proofs_check import small_scope
from proofs_check.small_scope import SmallScope

Key = tuple[Any, ...]


def _rows(kernel: Mechanism, inputs: list[Hashable], outputs: list[Hashable]) -> Key:
    return tuple(tuple(Fraction(kernel.probability(x, y)) for y in outputs) for x in inputs)


def _kernel_images(kernel: Mechanism) -> set[Key]:
    """Every relabelling of inputs and outputs: the relabelled kernel K'(σx, πy) = K(x, y),
    read on the original label order."""
    inputs, outputs = list(kernel.inputs), list(kernel.outputs)
    images = set()
    for sigma in itertools.permutations(inputs):
        for pi in itertools.permutations(outputs):
            move_x = dict(zip(inputs, sigma, strict=True))
            move_y = dict(zip(outputs, pi, strict=True))
            table = {
                (move_x[x], move_y[y]): Fraction(kernel.probability(x, y))
                for x in inputs
                for y in outputs
            }
            images.add(tuple(tuple(table[x, y] for y in outputs) for x in inputs))
    return images


def _kernel_with_prior_images(pair: tuple[Mechanism, Any]) -> set[Key]:
    kernel, prior = pair
    inputs, outputs = list(kernel.inputs), list(kernel.outputs)
    images = set()
    for sigma in itertools.permutations(inputs):
        for pi in itertools.permutations(outputs):
            move_x = dict(zip(inputs, sigma, strict=True))
            move_y = dict(zip(outputs, pi, strict=True))
            table = {
                (move_x[x], move_y[y]): Fraction(kernel.probability(x, y))
                for x in inputs
                for y in outputs
            }
            masses = {move_x[x]: Fraction(prior[x]) for x in inputs}
            images.add(
                (
                    tuple(tuple(table[x, y] for y in outputs) for x in inputs),
                    tuple(masses[x] for x in inputs),
                )
            )
    return images


def _database_images(mechanism: DatabaseMechanism) -> set[Key]:
    """Relabellings that keep neighbours: permute the records, relabel each record's values
    on its own, permute the outputs."""
    space = mechanism.space
    letters = list(space.alphabet)
    databases = list(space.databases())
    outputs = list(mechanism.outputs)
    images = set()
    for order in itertools.permutations(range(space.size)):
        for relabels in itertools.product(itertools.permutations(letters), repeat=space.size):
            for pi in itertools.permutations(outputs):
                move_y = dict(zip(outputs, pi, strict=True))
                table = {}
                for x in databases:
                    moved = [None] * space.size
                    for record, value in enumerate(x):
                        moved[order[record]] = relabels[record][letters.index(value)]
                    for y in outputs:
                        table[tuple(moved), move_y[y]] = Fraction(mechanism.probability(x, y))
                images.add(tuple(tuple(table[x, y] for y in outputs) for x in databases))
    return images


def _setting_images(pair: tuple[PartialKnowledge, Mechanism]) -> set[Key]:
    """Relabellings of binary records: permute the records, flip the values of any of them
    (t and t' swap on the target), permute the outputs."""
    setting, mechanism = pair
    records = len(setting.records)
    databases = list(itertools.product((0, 1), repeat=records))
    outputs = list(mechanism.outputs)
    known = list(setting.known or ())
    images = set()
    for order in itertools.permutations(range(records)):
        for flips in itertools.product((0, 1), repeat=records):
            for pi in itertools.permutations(outputs):
                move_y = dict(zip(outputs, pi, strict=True))
                laws: list[Key] = [()] * records
                for j, law in enumerate(setting.records):
                    masses = (Fraction(law[0]), Fraction(law[1]))
                    laws[order[j]] = masses[::-1] if flips[j] else masses
                table = {}
                for x in databases:
                    moved = [0] * records
                    for j, bit in enumerate(x):
                        moved[order[j]] = bit ^ flips[j]
                    for y in outputs:
                        table[tuple(moved), move_y[y]] = Fraction(mechanism.probability(x, y))
                images.add(
                    (
                        tuple(laws),
                        order[setting.target],
                        setting.value ^ flips[setting.target],
                        tuple(sorted(order[j] for j in known)),
                        tuple(tuple(table[x, y] for y in outputs) for x in databases),
                    )
                )
    return images


def _check_orbits(
    full: SmallScope[Any], reduced: SmallScope[Any], images: Callable[[Any], set[Key]]
) -> tuple[int, int]:
    """Every orbit of the full enumeration has exactly one representative in the reduced
    one, weighted by the orbit's size; returns (representatives, instances)."""
    orbit_of: dict[Key, frozenset[Key]] = {}
    instances = 0
    for instance in full:
        instances += 1
        orbit = frozenset(images(instance))
        for key in orbit:
            assert orbit_of.setdefault(key, orbit) == orbit  # orbits partition the keys
    orbits = set(orbit_of.values())
    assert sum(len(orbit) for orbit in orbits) == instances == len(full)
    hit: dict[frozenset[Key], int] = {}
    weights = 0
    for layer in reduced.layers:
        for step in layer.walk():
            orbit = frozenset(images(step.instance))
            assert orbit in orbits
            assert step.weight == len(orbit)
            hit[orbit] = hit.get(orbit, 0) + 1
            weights += step.weight
    assert set(hit) == orbits, "some orbit has no representative"
    assert all(count == 1 for count in hit.values()), "some orbit has two representatives"
    assert weights == len(full) == len(reduced)
    return len(hit), instances


def _first_key(kernel: Mechanism) -> Key:
    return _rows(kernel, list(kernel.inputs), list(kernel.outputs))


@pytest.mark.parametrize(
    ("full", "reduced", "images", "counts"),
    [
        (
            lambda: small_scope.mechanisms(max_inputs=2, max_outputs=3),
            lambda: small_scope.mechanisms(max_inputs=2, max_outputs=3, up_to_relabelling=True),
            _kernel_images,
            (80, 564),
        ),
        (
            lambda: small_scope.mechanisms(max_inputs=3, max_outputs=2, zeros=False),
            lambda: small_scope.mechanisms(
                max_inputs=3, max_outputs=2, zeros=False, up_to_relabelling=True
            ),
            _kernel_images,
            (34, 158),
        ),
        (
            small_scope.mechanisms_with_prior,
            lambda: small_scope.mechanisms_with_prior(up_to_relabelling=True),
            _kernel_with_prior_images,
            (100, 358),
        ),
        (
            lambda: small_scope.database_mechanisms(structured=False),
            lambda: small_scope.database_mechanisms(structured=False, up_to_relabelling=True),
            _database_images,
            (232, 2452),
        ),
        (
            lambda: small_scope.setting_mechanisms(max_records=1),
            lambda: small_scope.setting_mechanisms(max_records=1, up_to_relabelling=True),
            _setting_images,
            (130, 500),
        ),
        (
            lambda: small_scope.setting_mechanisms(grid=(2,)),
            lambda: small_scope.setting_mechanisms(grid=(2,), up_to_relabelling=True),
            _setting_images,
            (142, 1988),
        ),
    ],
    ids=[
        "kernels",
        "positive kernels",
        "kernels with a prior",
        "database mechanisms",
        "one record with a mechanism",
        "two records with a mechanism, grid 1/2",
    ],
)
def test_every_relabelling_orbit_keeps_exactly_one_weighted_representative(
    full: Callable[[], SmallScope[Any]],
    reduced: Callable[[], SmallScope[Any]],
    images: Callable[[Any], set[Key]],
    counts: tuple[int, int],
) -> None:
    assert _check_orbits(full(), reduced(), images) == counts


def test_the_representative_is_the_first_of_its_orbit_met_in_the_full_order() -> None:
    """Within a layer the representative is the orbit's least element, so the reduced
    enumeration is a subsequence of the full one (a counterexample found there is rebuilt
    from the full enumeration as well)."""
    full = [_first_key(k) for k in small_scope.mechanisms(max_inputs=2, max_outputs=2)]
    reduced = [
        _first_key(k)
        for k in small_scope.mechanisms(max_inputs=2, max_outputs=2, up_to_relabelling=True)
    ]
    positions = [full.index(key) for key in reduced]
    assert positions == sorted(positions)


def test_a_label_dependent_property_loses_counterexamples_only_when_reduced() -> None:
    """ "The first output is never the likelier one": false on kernels where output 0 wins;
    a representative may put the mass elsewhere, which is why the reduction is opt-in."""

    def first_output_never_wins(kernel: Mechanism) -> bool:
        return all(row[0] <= row[-1] for row in kernel.rows)

    full = small_scope.mechanisms(inputs=[0], outputs=[0, 1])
    reduced = small_scope.mechanisms(inputs=[0], outputs=[0, 1], up_to_relabelling=True)
    assert not all(first_output_never_wins(k) for k in full)
    assert all(first_output_never_wins(k) for k in reduced)
