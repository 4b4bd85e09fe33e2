"""Agreement with ``dit`` (floats, so within rounding): Shannon entropy, mutual information
and Rényi entropy on random exact distributions and channels.  exactpml's exact closed forms
are turned into certified 30-digit decimals; dit's floats must agree to 1e-9 (dit reports
bits; converted here to nats).  Skipped when dit is not installed (it is in the dev extras)."""

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings

from exactpml import strategies as xst
from exactpml.certify import decimal
from exactpml.qif import mutual_information, renyi_entropy, shannon_entropy

dit = pytest.importorskip("dit")

LN2 = Decimal("0.693147180559945309417232121458176568")


def _close(exact_value, dit_bits: float) -> bool:
    exact = Decimal(decimal(exact_value, 30))
    return abs(exact - Decimal(float(dit_bits)) * LN2) <= Decimal("1e-9") * (1 + abs(exact))


def _dit(probabilities: dict) -> "dit.Distribution":
    outcomes = [str(o) for o, p in probabilities.items() if p]
    return dit.Distribution(outcomes, [float(p) for p in probabilities.values() if p])


@settings(max_examples=40)
@given(xst.distributions(min_size=1, max_size=5))
def test_shannon_entropy_agrees_with_dit(distribution):
    probabilities = dict(distribution.items())
    assert _close(shannon_entropy(distribution), dit.shannon.entropy(_dit(probabilities)))


@settings(max_examples=40)
@given(xst.distributions(min_size=1, max_size=5))
def test_renyi_entropy_of_order_two_agrees_with_dit(distribution):
    probabilities = dict(distribution.items())
    value = renyi_entropy(distribution, Fraction(2))
    exact = value.to_sympy() if hasattr(value, "to_sympy") else value
    assert _close(exact, dit.other.renyi_entropy(_dit(probabilities), 2))


@settings(max_examples=40)
@given(xst.mechanisms_with_prior(max_inputs=4, max_outputs=4))
def test_mutual_information_agrees_with_dit(pair):
    mechanism, prior = pair
    joint = {
        f"{x}|{y}": prior[x] * mechanism.probability(x, y)
        for x in mechanism.inputs
        for y in mechanism.outputs
    }
    support = {key: p for key, p in joint.items() if p}
    distribution = dit.Distribution(
        [tuple(key.split("|")) for key in support], [float(p) for p in support.values()]
    )
    bits = dit.shannon.mutual_information(distribution, [0], [1])
    assert _close(mutual_information(mechanism, prior), bits)
