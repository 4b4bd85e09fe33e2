"""Finite-structure claims over every real prior and channel of a fixed size.

The multiplicative Bayes leakage of a channel C under a prior pi,
``sum_y max_x pi_x C_xy / max_x pi_x`` (Alvim et al., *The Science of QIF*, 2020, Def. 5.11),
is at most the number of outputs (the multiplicative Bayes capacity is the sum of the column
maxima, Thm 7.2, at most |Y|), and at most the number of inputs.  Proved here for every
prior and every channel with |X|, |Y| <= 2 (and 2x3); the bounds lowered by 1/2 are false
(the identity channel under the uniform prior attains min(|X|, |Y|)), and each counterexample
is re-verified by the Fraction reference.
"""

from __future__ import annotations

import pytest
import sympy
from prover_reference import independently_violated

from exactpml.errors import InvalidArgument
from proofs_check.prover import every_channel, every_prior, prove_inequality, structure_domain


def _bayes_leakage(prior, channel):
    pi = prior.rows[0]
    columns = len(channel.rows[0])
    posterior_vulnerability = sympy.Add(*(
        sympy.Max(*(pi[x] * channel.rows[x][y] for x in range(len(pi))))
        for y in range(columns)
    ))
    return posterior_vulnerability / sympy.Max(*pi)


SIZES = [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3)]


@pytest.mark.parametrize(("inputs", "outputs"), SIZES, ids=[f"{a}x{b}" for a, b in SIZES])
def test_bayes_leakage_is_at_most_min_inputs_outputs_for_every_channel_and_prior(inputs, outputs):
    prior, channel = every_prior(inputs), every_channel(inputs, outputs)
    variables, assuming = structure_domain(prior, channel)
    leakage = _bayes_leakage(prior, channel)
    bound = min(inputs, outputs)
    result = prove_inequality(leakage, bound, variables, assuming=assuming, timeout=60)
    assert result.status == "proved", result
    lowered = sympy.Rational(2 * bound - 1, 2)
    result = prove_inequality(leakage, lowered, variables, assuming=assuming, timeout=60)
    assert result.status == "refuted", result
    assert independently_violated(leakage, lowered, result.counterexample, variables,
                                  assuming=assuming)


def test_structures_name_their_entries_and_refuse_clashes_and_bad_sizes():
    channel = every_channel(2, 3)
    assert [str(s) for s in channel.rows[1]] == ["C_10", "C_11", "C_12"]
    assert [str(s) for s in every_prior(3).rows[0]] == ["pi_0", "pi_1", "pi_2"]
    assert len(channel.assuming) == 2
    with pytest.raises(InvalidArgument, match="share the symbols"):
        structure_domain(channel, every_channel(2, 2))
    with pytest.raises(InvalidArgument, match="inputs=0"):
        every_channel(0, 2)
    with pytest.raises(InvalidArgument, match="name"):
        every_prior(2, name="not a name")
