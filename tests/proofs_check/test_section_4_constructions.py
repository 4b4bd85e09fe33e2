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

from exactpml import Mechanism, sup_conditional_pml
from exactpml.suprema.families import FullSupportPriors, ProductPriors
from exactpml.suprema.witnesses import Instance
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


def test_an_identical_symbolic_member_gets_its_limit_again_without_a_second_computation(
    monkeypatch,
):
    mechanism = section_4._randomized_response()
    alphabet, n = section_4._shape(mechanism)
    y = mechanism.outputs[0]
    full = sup_conditional_pml(mechanism, FullSupportPriors(mechanism.inputs), output=y)
    product = sup_conditional_pml(mechanism, ProductPriors(alphabet, n), output=y)
    keys = [
        section_4._member_key(result.witness, result.witness.symbolic())
        for result in (full, product)
    ]
    assert keys[0] is not None and keys[0] == keys[1]  # (1) and (2) reach 3 by one prior
    computed = []
    leakage = Instance.leakage
    monkeypatch.setattr(Instance, "leakage", lambda self: computed.append(self) or leakage(self))
    budget = section_4._SymbolicBudget(3)
    for result in (full, product):
        assert section_4._approach(result, Fraction(3), budget) is None
    assert section_4._approach(product, Fraction(4), budget) == (
        f"{product.witness.name}: members tend to 3, supremum 4"
    )
    t = sympy.Symbol("t", positive=True)
    assert [member.parameter_value for member in computed].count(t) == 1
    assert budget.left == 0
