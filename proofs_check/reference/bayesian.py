"""Prior against posterior on a neighbourhood, from the definitions (Vadhan's Props 1–2).

Vadhan, *Notes on the Definition of Differential Privacy*, Prop 2 and the remark after it:
the distances (total variation, Hellinger, KL) between a prior on X_i and the posterior
given an output.  Total variation is exact in Q(√c) (:class:`~.simulation.Surd`); Hellinger
and KL are built as unevaluated sympy expressions that :mod:`exactpml.certify` encloses
(evaluating them symbolically costs far more).  No code shared with :mod:`exactpml.notions`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.exact import to_sympy
from proofs_check.reference.simulation import Surd, surd

__all__ = ["law_of_column", "prior_posterior_distances", "total_variation_surd"]


def law_of_column(
    column: Sequence[Fraction], prior: Sequence[Fraction]
) -> dict[Fraction, Fraction]:
    """The law of p_d = Pr[M(d, x_{-i}) = y] under the prior (positive weights only).

    Prior and posterior depend on the prior only through this law (Bayes' rule multiplies
    π_d by p_d / Σ π p), and so does every distance between them.
    """
    law: dict[Fraction, Fraction] = {}
    for value, weight in zip(column, prior, strict=True):
        if weight:
            law[value] = law.get(value, Fraction(0)) + weight
    return law


def total_variation_surd(column: Sequence[Fraction], prior: Sequence[Surd]) -> Surd:
    """½ Σ |π_d - π'_d| between a prior in Q(√c) and its posterior, exactly."""
    c = prior[0].c
    values = [surd(value, c) for value in column]
    mass = _total([w * v for w, v in zip(prior, values, strict=True)])
    differences = [w - w * v / mass for w, v in zip(prior, values, strict=True)]
    return _total([d if d.sign() >= 0 else surd(Fraction(0), c) - d for d in differences]) / surd(
        Fraction(2), c
    )


def _total(values: Sequence[Surd]) -> Surd:
    return sum(values[1:], values[0])


def prior_posterior_distances(column: Sequence[Any], prior: Sequence[Any]) -> dict[str, sympy.Expr]:
    """Squared Hellinger distance and KL(prior || posterior) for a prior on a neighbourhood.

    ``column[d]`` = Pr[M(d, x_{-i}) = y] > 0 and ``prior[d]`` = Pr[X_i = d] (rationals or
    sympy numbers, Σ prior = 1).  The posterior is Bayes' rule ``π_d·p_d / Σ π p``.
    Definitions: H² = 1 - Σ sqrt(π_d π'_d) (the Hellinger distance is H), KL = Σ_{π_d > 0}
    π_d log(π_d / π'_d).  Built unevaluated (fast); :mod:`exactpml.certify` encloses them.
    """
    with sympy.evaluate(False):
        weights = [to_sympy(w) for w in prior]
        values = [to_sympy(v) for v in column]
        mass = sympy.Add(*[w * v for w, v in zip(weights, values, strict=True)])
        posterior = [w * v / mass for w, v in zip(weights, values, strict=True)]
        pairs = [(w, q) for w, q, raw in zip(weights, posterior, prior, strict=True) if raw != 0]
        hellinger_squared = 1 - sympy.Add(*[sympy.sqrt(w * q) for w, q in pairs])
        kl = sympy.Add(*[w * sympy.log(w / q) for w, q in pairs])
    return {"Hellinger²": hellinger_squared, "KL": kl}
