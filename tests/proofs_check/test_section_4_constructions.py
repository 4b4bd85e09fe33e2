"""The source's constructions of ``pml.thm_4_2``/``pml.thm_4_5`` (B.3; B.2 and (B.5)) as
written by the check: building their ``Max`` unevaluated leaves the limits as t -> 0+ exactly
what they were with sympy's evaluated ``Max`` (the limit engine resolves ``Max`` itself)."""

from __future__ import annotations

import itertools
import random
import types
from fractions import Fraction

import pytest
import sympy

from exactpml import Mechanism
from proofs_check.claims.pml import section_4


class _EvaluatingSympy(types.ModuleType):
    """sympy, with ``Max`` always evaluated (the check as it was written before)."""

    def __getattr__(self, name: str) -> object:
        return getattr(sympy, name)

    @staticmethod
    def Max(*args: sympy.Expr, evaluate: bool = True) -> sympy.Expr:
        return sympy.Max(*args)


def _random_mechanism(rng: random.Random) -> Mechanism:
    """On D^n (|D|^n <= 9, up to 3 outputs), with zeros half of the time."""
    size = rng.choice([2, 3])
    entries = rng.choice([1, 2]) if size == 3 else rng.choice([1, 2, 3])
    outputs = rng.choice([1, 2, 3])
    floor = rng.choice([0, 1])
    rows = {}
    for x in itertools.product(range(size), repeat=entries):
        weights = [0]
        while not sum(weights):
            weights = [rng.randint(floor, rng.choice([1, 3, 10, 100])) for _ in range(outputs)]
        rows[x] = {y: Fraction(w, sum(weights)) for y, w in enumerate(weights)}
    return Mechanism(rows, outputs=list(range(outputs)))


_MECHANISMS = [
    *(build() for _, build, _, _ in section_4._FIXED),
    section_4._non_monotone_members(),
    *(_random_mechanism(random.Random(seed)) for seed in range(6)),
]


@pytest.mark.parametrize("mechanism", _MECHANISMS)
@pytest.mark.parametrize("limits_of", [section_4._b3_limits, section_4._b2_b5_limits])
@pytest.mark.parametrize("argmax", [False, True])
def test_limits_with_an_unevaluated_max_equal_those_with_sympys_max(
    mechanism, limits_of, argmax, monkeypatch
):
    unevaluated = limits_of(mechanism, argmax=argmax)
    monkeypatch.setattr(section_4, "sympy", _EvaluatingSympy("sympy"))
    evaluated = limits_of(mechanism, argmax=argmax)
    assert unevaluated == evaluated
    assert [type(value) for value in unevaluated] == [type(value) for value in evaluated]
