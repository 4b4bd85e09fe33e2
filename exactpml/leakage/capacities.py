"""Leakage capacity and maximal leakage of a finite mechanism (Saeidian et al., Def 2.7, Thm 2.8).

* leakage capacity ``C = log sup_y max_{x,x'} p(y|x)/p(y|x')``, ``oo`` when a column mixes
  zero and non-zero entries (all-zero columns are ignored);
* maximal leakage ``log Σ_y max_x p(y|x)`` (over the prior's support when one is given).

>>> from exactpml import Mechanism
>>> print(leakage_capacity(Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})))
log(3)
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from exactpml.core.decisions import prove_zero
from exactpml.core.distribution import Distribution
from exactpml.core.exact import (
    Scalar,
    exact_quotient,
    exact_sum,
)
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.leakage._support import _check, _max, _min, _require_mechanism

__all__ = ["leakage_capacity", "maximal_leakage"]


def leakage_capacity(mechanism: Mechanism) -> LogValue:
    """C(P_{Y|X}) = log sup_y max_{x,x'} p(y|x)/p(y|x') (Def 2.7).

    ``oo`` when some column mixes zero and non-zero entries; all-zero columns are ignored.
    """
    _require_mechanism(mechanism, "mechanism")
    kernel = mechanism.integer_kernel
    if kernel is not None:
        ratio = kernel.capacity_ratio()
        return LogValue(sympy.oo) if ratio is None else LogValue._of_fraction(ratio)
    conditions: list[sympy.Basic] = list(mechanism.conditions)
    ratios: list[Scalar] = []
    for y in mechanism.outputs:
        entries = mechanism.column(y)
        if all(prove_zero(v) for v in entries):
            continue
        if any(prove_zero(v) for v in entries):
            return LogValue(sympy.oo, conditions=tuple(conditions))
        ratios.append(exact_quotient(_max(entries), _min(entries)))
    return LogValue(_max(ratios) if ratios else Fraction(1), conditions=tuple(conditions))


def maximal_leakage(mechanism: Mechanism, prior: Distribution | None = None) -> LogValue:
    """Maximal leakage log Σ_y max_{x in supp P_X} p(y|x) (all inputs when no prior is given)."""
    _require_mechanism(mechanism, "mechanism")
    rows = range(len(mechanism.inputs))
    if prior is not None:
        _check(mechanism, prior)
        rows = [i for i, x in enumerate(mechanism.inputs) if not prove_zero(prior[x])]  # type: ignore[assignment]
    kernel = mechanism.integer_kernel
    if kernel is not None:
        best, _ = kernel.column_extremes(list(rows))
        total = sum((kernel.entry(best[c], c) for c in range(len(mechanism.outputs))), Fraction(0))
        return LogValue(total)
    total_symbolic = exact_sum(
        _max([mechanism.rows[i][c] for i in rows]) for c in range(len(mechanism.outputs))
    )
    return LogValue(total_symbolic, conditions=mechanism.conditions)
