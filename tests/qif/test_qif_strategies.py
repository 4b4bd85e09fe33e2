"""The QIF strategies reach their regimes: named and random gain functions (negative gains,
ties, one guess), priors of every support size (point masses included), pair outputs both
independent and joint, and composed kernels."""

from fractions import Fraction

from hypothesis import Phase, given, seed, settings
from hypothesis import strategies as st

from exactpml import GainFunction, Mechanism
from exactpml import strategies as xst

SECRETS = ["a", "b", "c"]


def draws(strategy, count=300):
    found = []

    @seed(0)
    @settings(max_examples=count, phases=[Phase.generate], database=None, deadline=None)
    @given(strategy)
    def collect(value):
        found.append(value)

    collect()
    return found


def test_gain_functions_reach_every_shape():
    gains = draws(xst.gain_functions(SECRETS))
    assert all(isinstance(g, GainFunction) and set(g.secrets) == set(SECRETS) for g in gains)
    identity = GainFunction.identity(SECRETS)
    shown = {
        "identity": any(g == identity for g in gains),
        "negative": any(v < 0 for g in gains for row in g.rows for v in row),
        "one guess": any(len(g.guesses) == 1 for g in gains),
        "tied guesses": any(len(set(g.rows)) < len(g.rows) for g in gains),
        "k tries": any(
            all(v in (0, 1) for row in g.rows for v in row) and sum(g.rows[0]) == 2 for g in gains
        ),
        "fractional": any(v.denominator > 1 for g in gains for row in g.rows for v in row),
    }
    assert all(shown.values()), shown
    assert all(
        v >= 0
        for g in draws(xst.gain_functions(SECRETS, negative=False))
        for row in g.rows
        for v in row
    )


@given(xst.gain_functions())
def test_gain_functions_draw_their_secrets_when_none_are_given(gain):
    assert 1 <= len(gain.secrets) <= 5


def test_priors_reach_every_support_size():
    priors = draws(xst.priors_with_support(SECRETS))
    sizes = {len(p.support) for p in priors}
    assert sizes == {1, 2, 3}
    fixed = draws(xst.priors_with_support(SECRETS, support=["a", "c"]), count=50)
    assert all(set(p.support) == {"a", "c"} for p in fixed)


def test_pair_outputs_are_independent_and_joint():
    kernels = draws(xst.product_output_mechanisms())
    assert all(
        isinstance(m, Mechanism) and all(isinstance(y, tuple) for y in m.outputs) for m in kernels
    )

    def independent(m):
        return all(
            m.probability(x, (a, b))
            == sum((m.probability(x, (a, d)) for (_, d) in m.outputs if _ == a), Fraction(0))
            * sum((m.probability(x, (c, b)) for (c, _) in m.outputs if _ == b), Fraction(0))
            for x in m.inputs
            for (a, b) in m.outputs
        )

    kinds = {independent(m) for m in kernels}
    assert kinds == {True, False}


@given(xst.composed_kernels())
def test_composed_kernels_chain(pair):
    channel, post = pair
    assert set(post.inputs) == set(channel.outputs)


@given(st.data())
def test_mechanisms_with_gain_share_the_secrets(data):
    mechanism, prior, gain = data.draw(xst.mechanisms_with_gain())
    assert set(prior.outcomes) == set(mechanism.inputs) == set(gain.secrets)
