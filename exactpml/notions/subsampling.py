"""Subsampled mechanisms, built exactly, and the amplification-by-subsampling bounds.

Two samplers turn a finite mechanism into a mechanism on a larger population D^n, exactly
(every row an exact mixture of the base mechanism's rows):

* :func:`poisson_subsampled` -- every record is kept independently with probability γ
  (``rate``) and a dropped record is replaced by the placeholder ``absent`` (⊥ by
  default); the base mechanism runs on the masked database, so it is a mechanism on
  (D ∪ {⊥})^n.  Row of x: ``Σ_{S ⊆ [n]} γ^{|S|} (1-γ)^{n-|S|} M(x masked outside S)``.
* :func:`subsampled_without_replacement` -- a uniformly random subset of m of the n records
  (m = the base mechanism's size), kept in index order, is given to M on D^m.  Row of x:
  ``C(n, m)^{-1} Σ_{|S| = m} M(x_S)``.

Both are exponential in n: the table (|D|^n rows) and the mixtures (2^n or C(n, m) rows
each) are checked against ``Bounds.table_entries`` and ``Bounds.iteration_work`` first.

The results are :class:`~exactpml.database.DatabaseMechanism` objects, so δ(ε), ε-DP, Rényi
DP and composition of the subsampled mechanism are the exact functions of
:mod:`exactpml.notions`.  The amplification theorems are exact functions to check against
them (:mod:`proofs_check.accounting_claims` does), both stated for replace-one neighbours:

* :func:`poisson_amplification` -- M (ε, δ)-DP on (D ∪ {⊥})^n implies the Poisson-subsampled
  mechanism is (log(1 + γ(e^ε - 1)), γδ)-DP on D^n (Balle, Barthe, Gaboardi 2018, Table 1,
  Poisson subsampling, by advanced joint convexity (their Thm 2); a record absent or
  present is one substitution of ⊥);
* :func:`without_replacement_amplification` -- M (ε, δ)-DP on D^m implies the subsampled
  mechanism is (log(1 + (m/n)(e^ε - 1)), (m/n)δ)-DP on D^n (ibid., Table 1, sampling
  without replacement under substitution).

>>> from exactpml import DatabaseMechanism
>>> from exactpml.notions import delta_for_epsilon, differential_privacy_epsilon
>>> identity = DatabaseMechanism.from_function(lambda x: {x[0]: 1}, [0, 1], 1)
>>> sub = subsampled_without_replacement(identity, 2)
>>> sub.probability((0, 1), 0)
Fraction(1, 2)
>>> print(differential_privacy_epsilon(sub).value)
oo
>>> delta_for_epsilon(sub, 0).value
Fraction(1, 2)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable
from fractions import Fraction

import sympy

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.bounds import current_bounds, exceeded
from exactpml.core.decisions import exact_compare
from exactpml.core.exact import (
    Scalar,
    as_scalar,
    exact_difference,
    exact_product,
    exact_quotient,
    exact_sum,
    to_sympy,
)
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.core.parameters import (
    exp_epsilon_of,
    positive_integer,
    probability,
    short_count,
    within_bound,
)
from exactpml.database import (
    BOTTOM,
    DatabaseMechanism,
    DatabaseSpace,
    as_database_mechanism,
)
from exactpml.errors import InvalidArgument
from exactpml.notions._common import bounded_explicit
from exactpml.notions.composition import PrivacyParameters

__all__ = [
    "poisson_amplification",
    "poisson_subsampled",
    "subsampled_without_replacement",
    "without_replacement_amplification",
]

Label = Hashable


def _explicit(mechanism: object) -> DatabaseMechanism:
    checked = as_database_mechanism(mechanism)
    if isinstance(checked, DatabaseMechanism):
        return checked
    return bounded_explicit(checked, where="subsampling")


def _check_size(letters: int, size: int, width: int, subsets: int, where: str) -> None:
    """Refuse a mechanism on D^n of |D|^n × |Y| entries above ``Bounds.table_entries``, or
    mixtures of ``subsets`` rows each above ``Bounds.iteration_work``, before building it."""
    if letters >= 2 and size > current_bounds().table_entries.bit_length():  # 2^n > the bound:
        raise exceeded(  # refused before |D|^n is formed (n = 10**5000 would not end)
            where,
            f"n={abbreviated(size)}: the mechanism on D^n would have {letters}^n databases",
            "table_entries",
        )
    databases = letters**size
    within_bound(
        databases * width,
        "table_entries",
        where=where,
        what=f"n={size}: the mechanism on D^n would have {short_count(databases)} databases × "
        f"{width} outputs",
    )
    within_bound(
        databases * subsets * width,
        "iteration_work",
        where=where,
        what=f"n={size}: {short_count(databases)} databases mix {short_count(subsets)} rows of "
        f"{width} outputs each",
    )


def _mixture(rows: list[tuple[Scalar, tuple[Scalar, ...]]], width: int) -> tuple[Scalar, ...]:
    return tuple(
        exact_sum([exact_product(weight, row[c]) for weight, row in rows]) for c in range(width)
    )


def poisson_subsampled(
    mechanism: object, rate: object, *, absent: Label = BOTTOM
) -> DatabaseMechanism:
    """M ∘ S_γ: keep each record with probability γ = ``rate``, mask the others as ``absent``.

    ``mechanism`` is a database mechanism on (D ∪ {absent})^n; the result is a mechanism on
    D^n (the alphabet without ``absent``) with the same outputs.  Exponential in n (2^n
    subsets per database): for small n, as a reference.

    >>> from exactpml import DatabaseMechanism
    >>> from exactpml.database import BOTTOM
    >>> release = DatabaseMechanism.from_function(lambda x: {x[0]: 1}, [BOTTOM, 0, 1], 1)
    >>> sampled = poisson_subsampled(release, "1/4")
    >>> sampled.probability((1,), BOTTOM), sampled.probability((1,), 1)
    (Fraction(3, 4), Fraction(1, 4))
    """
    base = _explicit(mechanism)
    gamma = probability(rate, name="rate")
    space = base.space
    if absent not in space.alphabet:
        raise InvalidArgument(
            f"absent={abbreviated_repr(absent)} must be in the mechanism's alphabet "
            f"{abbreviated_repr(list(space.alphabet))} "
            "(the placeholder of a record that is not sampled)"
        )
    letters = [d for d in space.alphabet if d != absent]
    if not letters:
        raise InvalidArgument("the mechanism's alphabet has no entry besides absent")
    kernel = base.mechanism
    width = len(kernel.outputs)
    _check_size(len(letters), space.size, width, 2**space.size, "poisson_subsampled")
    target = DatabaseSpace(letters, space.size)
    keep, drop = gamma, exact_difference(Fraction(1), gamma)
    subsets = [
        (kept, exact_product(_power(keep, len(kept)), _power(drop, space.size - len(kept))))
        for r in range(space.size + 1)
        for kept in itertools.combinations(range(space.size), r)
    ]
    rows = []
    for x in target.databases():
        parts = []
        for kept, weight in subsets:
            masked = tuple(d if i in kept else absent for i, d in enumerate(x))
            parts.append((weight, kernel.rows[kernel.input_position(masked)]))
        rows.append(_mixture(parts, width))
    result = Mechanism._trusted(list(target.databases()), kernel.outputs, rows)
    return DatabaseMechanism._trusted(result, target)


def _power(value: Scalar, exponent: int) -> Scalar:
    if type(value) is Fraction:
        return value**exponent
    return as_scalar(to_sympy(value) ** exponent)


def subsampled_without_replacement(mechanism: object, size: int) -> DatabaseMechanism:
    """M ∘ S_wor: run M (on D^m) on a uniformly random m-subset of the n = ``size`` records.

    The subset keeps the records' order.  Exponential in n: for small n, as a reference.

    >>> from exactpml import DatabaseMechanism
    >>> first = DatabaseMechanism.from_function(lambda x: {x[0]: 1}, [0, 1], 1)
    >>> subsampled_without_replacement(first, 4).probability((1, 1, 0, 0), 1)
    Fraction(1, 2)
    """
    base = _explicit(mechanism)
    space = base.space
    n = positive_integer(size, name="size", minimum=space.size)
    kernel = base.mechanism
    width = len(kernel.outputs)
    _check_size(
        len(space.alphabet), n, width, math.comb(n, space.size), "subsampled_without_replacement"
    )
    target = DatabaseSpace(space.alphabet, n)
    share = Fraction(1, math.comb(n, space.size))
    subsets = list(itertools.combinations(range(n), space.size))
    rows = []
    for x in target.databases():
        parts = [
            (share, kernel.rows[kernel.input_position(tuple(x[i] for i in kept))])
            for kept in subsets
        ]
        rows.append(_mixture(parts, width))
    result = Mechanism._trusted(list(target.databases()), kernel.outputs, rows)
    return DatabaseMechanism._trusted(result, target)


def _amplified(ratio: Scalar, share: Scalar, delta: Scalar) -> PrivacyParameters:
    """(log(1 + share (e^ε - 1)), share δ)."""
    if ratio is sympy.oo:
        return PrivacyParameters(
            LogValue.infinity() if exact_compare(share, Fraction(0)) > 0 else LogValue(1),
            exact_product(share, delta),
        )
    amplified = exact_sum([Fraction(1), exact_product(share, exact_difference(ratio, Fraction(1)))])
    return PrivacyParameters(LogValue(amplified), exact_product(share, delta))


def poisson_amplification(
    epsilon: object = None, *, exp_epsilon: object = None, delta: object = 0, rate: object
) -> PrivacyParameters:
    """(log(1 + γ(e^ε - 1)), γδ) (Balle, Barthe, Gaboardi 2018, Table 1, Poisson).

    >>> print(poisson_amplification(exp_epsilon=3, delta="1/10", rate="1/4"))
    (log(3/2), 1/40)
    """
    ratio = exp_epsilon_of(epsilon, exp_epsilon, enclosed=True)
    gamma = probability(rate, name="rate")
    return _amplified(ratio, gamma, probability(delta, name="delta"))


def without_replacement_amplification(
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    delta: object = 0,
    sample: int,
    size: int,
) -> PrivacyParameters:
    """(log(1 + (m/n)(e^ε - 1)), (m/n)δ) for m = ``sample`` of n = ``size`` records.

    Balle, Barthe, Gaboardi 2018, Table 1 (sampling without replacement, substitution).

    >>> print(without_replacement_amplification(exp_epsilon=3, sample=1, size=4))
    (log(3/2), 0)
    """
    ratio = exp_epsilon_of(epsilon, exp_epsilon, enclosed=True)
    m = positive_integer(sample, name="sample")
    n = positive_integer(size, name="size", minimum=m)
    return _amplified(
        ratio, exact_quotient(Fraction(m), Fraction(n)), probability(delta, name="delta")
    )
