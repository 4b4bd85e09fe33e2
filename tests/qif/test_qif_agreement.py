"""Agreement with the ``qif`` library (Chatzikokolakis et al., the book's companion code) in
its exact rational mode: vulnerabilities, leakages, capacities and refinement.  Skipped when
``qif`` is not installed (it is in the dev extras)."""

from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from exactpml import strategies as xst
from exactpml.qif import (
    additive_bayes_leakage,
    bayes_vulnerability,
    g_vulnerability,
    multiplicative_bayes_capacity,
    multiplicative_bayes_leakage,
    posterior_bayes_vulnerability,
    posterior_g_vulnerability,
    refines,
)

qif = pytest.importorskip("qif")
np = pytest.importorskip("numpy")


@pytest.fixture(autouse=True, scope="module")
def rational_mode():
    qif.set_default_type(qif.rat)
    yield
    qif.set_default_type(qif.double)


def matrix(rows):
    return np.array([[Fraction(v) for v in row] for row in rows], dtype=object)


def vector(values):
    return np.array([Fraction(v) for v in values], dtype=object)


@given(xst.mechanisms_with_prior(max_inputs=5, max_outputs=5))
def test_bayes_measures_agree(pair):
    mechanism, prior = pair
    pi = vector(prior[x] for x in mechanism.inputs)
    channel = matrix(mechanism.rows)
    measure = qif.measure.bayes_vuln
    assert bayes_vulnerability(prior) == measure.prior(pi)
    assert posterior_bayes_vulnerability(mechanism, prior) == measure.posterior(pi, channel)
    assert multiplicative_bayes_leakage(mechanism, prior).ratio == measure.mult_leakage(pi, channel)
    assert additive_bayes_leakage(mechanism, prior) == measure.add_leakage(pi, channel)


@given(xst.mechanisms(max_inputs=5, max_outputs=5))
def test_multiplicative_capacity_agrees(mechanism):
    expected = qif.measure.bayes_vuln.mult_capacity(matrix(mechanism.rows))
    assert multiplicative_bayes_capacity(mechanism).value.ratio == expected


@given(xst.mechanisms_with_gain(max_inputs=4, max_outputs=4))
def test_g_measures_agree(triple):
    mechanism, prior, gain = triple
    pi = vector(prior[x] for x in mechanism.inputs)
    order = [gain.secrets.index(x) for x in mechanism.inputs]
    g = matrix([[row[j] for j in order] for row in gain.rows])  # rows = guesses
    assert g_vulnerability(prior, gain) == qif.measure.g_vuln.prior(g, pi)
    assert posterior_g_vulnerability(mechanism, prior, gain) == qif.measure.g_vuln.posterior(
        g, pi, matrix(mechanism.rows)
    )


@settings(max_examples=60)
@given(st.data())
def test_refinement_agrees(data):
    inputs = list(range(data.draw(st.integers(1, 3))))
    channel = data.draw(xst.mechanisms(inputs=inputs, max_outputs=3))
    if data.draw(st.booleans()):
        post = data.draw(xst.mechanisms(inputs=channel.outputs, max_outputs=3))
        other = channel.post_process(post)
    else:
        other = data.draw(xst.mechanisms(inputs=inputs, max_outputs=3))
    try:
        expected = qif.refinement.refined_by(matrix(channel.rows), matrix(other.rows))
    except RuntimeError:  # qif's LP solver (SoPlex) gives up on badly scaled programs
        assume(False)
    assert refines(channel, other) == bool(expected)
