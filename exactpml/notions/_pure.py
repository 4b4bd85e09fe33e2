"""Pure differential privacy, free-lunch privacy, local DP and statistical distance, exactly.

* ε-DP (Saeidian et al., Def 4.1; Vadhan §2):
  ``ε = sup_y max_{i, d_i, d'_i, d_{-i}} log p(y | d_i, d_{-i}) / p(y | d'_i, d_{-i})``;
* ε-free-lunch privacy (Def 4.4, after Kifer and Machanavajjhala):
  ``ε = sup_y max_{x, x'} log p(y|x) / p(y|x')``;
* group privacy: the same maximum over pairs at Hamming distance k;
* local DP of a randomizer R on D: ``sup_y max_{d, d'} log R(y|d) / R(y|d')``;
* the statistical distance between neighbours (Vadhan §1.1): ``max_{x~x'} TV(M(x), M(x'))``.

Conventions: an output that both databases of a pair produce with probability 0 does not
constrain ε (the ratio 0/0 is skipped); ``p(y|x) > 0 = p(y|x')`` gives ε = ∞.  Each result
is a :class:`~exactpml.notions.WorstCase` whose witness attains the value.

>>> from exactpml.database import DatabaseMechanism
>>> rr = DatabaseMechanism({(0,): {0: "3/4", 1: "1/4"}, (1,): {0: "1/4", 1: "3/4"}})
>>> print(differential_privacy_epsilon(rr).value)
log(3)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import prove_zero
from exactpml.core.exact import Scalar, exact_difference, exact_quotient, exact_sum
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.core.parameters import short_count, within_bound
from exactpml.database import (
    Reduction,
    StructuredDatabaseMechanism,
    as_database_mechanism,
)
from exactpml.errors import InvalidArgument
from exactpml.notions._common import (
    WorstCase,
    bounded_explicit,
    compare_scalars,
    epsilon_bound,
    sign_of,
)

__all__ = [
    "differential_privacy_epsilon",
    "free_lunch_epsilon",
    "is_differentially_private",
    "is_free_lunch_private",
    "is_locally_private",
    "local_privacy_epsilon",
    "neighbour_statistical_distance",
]

Label = Hashable
Pair = tuple[Label, Label, Callable[[], tuple[Any, Any]]]  # (v, v', witness() -> (x, x'))


# --- the maximum likelihood ratio over pairs of rows -----------------------------------
def max_ratio_over_pairs(kernel: Mechanism, pairs: Iterable[Pair]) -> WorstCase:
    """max over the given ordered row pairs (v, v') and outputs y of K[v][y] / K[v'][y].

    The result's value is the ratio as a LogValue; its witness is (x, x', y) of the pair.
    """
    integer = kernel.integer_kernel
    outputs = kernel.outputs
    seen: set[tuple[Label, Label]] = set()
    best: tuple[int, int] | None = None  # rational path: ratio as (numerator, denominator)
    best_symbolic: Scalar | None = None
    witness: tuple[Callable[[], tuple[Any, Any]], Label] | None = None
    infinite = False
    for v, v2, databases in pairs:
        if (v, v2) in seen:
            continue
        seen.add((v, v2))
        a, b = kernel.input_position(v), kernel.input_position(v2)
        if integer is not None:
            top, bottom = integer.numerators[a], integer.numerators[b]
            scale_top, scale_bottom = integer.denominators[b], integer.denominators[a]
            for column, (n_a, n_b) in enumerate(zip(top, bottom, strict=True)):
                if n_a == 0:
                    continue
                if n_b == 0:
                    return WorstCase(LogValue.infinity(), *databases(), outputs[column])
                numerator, denominator = n_a * scale_top, n_b * scale_bottom
                if best is None or numerator * best[1] > best[0] * denominator:
                    best = (numerator, denominator)
                    witness = (databases, outputs[column])
            continue
        for column, (p_a, p_b) in enumerate(zip(kernel.rows[a], kernel.rows[b], strict=True)):
            if prove_zero(p_a):
                continue
            if prove_zero(p_b):
                infinite = True
                witness = (databases, outputs[column])
                break
            ratio = exact_quotient(p_a, p_b)
            if best_symbolic is None or compare_scalars(ratio, best_symbolic) > 0:
                best_symbolic = ratio
                witness = (databases, outputs[column])
        if infinite:
            break
    if witness is None:
        return WorstCase(LogValue(1))  # no pair at all (|D| = 1): the condition is vacuous
    x, x2 = witness[0]()
    if infinite:
        return WorstCase(LogValue.infinity(), x, x2, witness[1])
    if best is not None:
        return WorstCase(LogValue(Fraction(best[0], best[1])), x, x2, witness[1])
    assert best_symbolic is not None
    return WorstCase(LogValue(best_symbolic, conditions=kernel.conditions), x, x2, witness[1])


def max_ratio_over_all_rows(kernel: Mechanism, database: Any) -> WorstCase:
    """sup_y max_{v, v'} K[v][y] / K[v'][y] over every pair of rows (the free-lunch ratio).

    ``database(v)`` gives the witness database of row v.  All-zero columns are skipped.
    """
    integer = kernel.integer_kernel
    outputs = kernel.outputs
    if integer is not None:
        best_rows, worst_rows = integer.column_extremes()
        best: Fraction | None = None
        witness: tuple[int, int, int] | None = None
        for column in range(len(outputs)):
            high = integer.entry(best_rows[column], column)
            if high == 0:
                continue
            low = integer.entry(worst_rows[column], column)
            if low == 0:
                return WorstCase(
                    LogValue.infinity(),
                    database(kernel.inputs[best_rows[column]]),
                    database(kernel.inputs[worst_rows[column]]),
                    outputs[column],
                )
            if best is None or high / low > best:
                best = high / low
                witness = (best_rows[column], worst_rows[column], column)
        assert best is not None and witness is not None
        return WorstCase(
            LogValue(best),
            database(kernel.inputs[witness[0]]),
            database(kernel.inputs[witness[1]]),
            outputs[witness[2]],
        )
    pairs = (
        (v, v2, lambda v=v, v2=v2: (database(v), database(v2)))
        for v in kernel.inputs
        for v2 in kernel.inputs
    )
    return max_ratio_over_pairs(kernel, pairs)


# --- ε-DP and free lunch -----------------------------------------------------------------
def _distance(distance: object) -> int:
    if isinstance(distance, bool) or not isinstance(distance, int):
        raise InvalidArgument(f"distance={abbreviated_repr(distance)} must be an int")
    if distance < 1:
        raise InvalidArgument(f"distance={abbreviated(distance)} must be at least 1")
    return distance


def differential_privacy_epsilon(mechanism: object, *, distance: int = 1) -> WorstCase:
    """The exact ε of ε-DP (Saeidian et al., Def 4.1), with the worst (y, x, x') as witness.

    ``log sup_y max p(y|x) / p(y|x')`` over neighbours x ~ x' (one entry replaced).  With
    ``distance=k`` the maximum runs over pairs at Hamming distance exactly k (group privacy,
    at most k·ε): ``|D|^n C(n, k) (|D| - 1)^k`` pairs, checked against ``Bounds.iteration_work``.
    Structured mechanisms use their closed form or sufficient statistic.

    Args:
        mechanism: a DatabaseMechanism, a structured database mechanism, or a Mechanism
            whose inputs are the n-tuples of D^n.
        distance: the Hamming distance of the pairs compared (1: Def 4.1).
    """
    checked = as_database_mechanism(mechanism)
    k = _distance(distance)
    if k > checked.space.size:
        raise InvalidArgument(
            f"distance={abbreviated(k)} must not exceed n={abbreviated(checked.space.size)}"
        )
    if k == 1 and isinstance(checked, StructuredDatabaseMechanism):
        fast = checked.differential_privacy_closed_form()
        if fast is not None:
            return fast
        reduction = checked.reduction()
        return max_ratio_over_pairs(reduction.kernel(), reduction.pairs())
    explicit = bounded_explicit(checked, where="differential_privacy_epsilon")
    if k == 1:
        reduction = explicit.reduction()
        return max_ratio_over_pairs(reduction.kernel(), reduction.pairs())
    space = explicit.space
    letters, width = len(space.alphabet), len(explicit.mechanism.outputs)
    pairs_count = letters**space.size * math.comb(space.size, k) * (letters - 1) ** k
    within_bound(
        pairs_count * width,
        "iteration_work",
        where="differential_privacy_epsilon",
        what=f"distance={k}: {short_count(pairs_count)} pairs at Hamming distance {k} × {width} "
        "outputs",
    )
    pairs = ((x, x2, lambda x=x, x2=x2: (x, x2)) for x, x2 in space.pairs_at_distance(k))
    return max_ratio_over_pairs(explicit.mechanism, pairs)


def free_lunch_epsilon(mechanism: object) -> WorstCase:
    """The exact ε of ε-free-lunch privacy (Saeidian et al., Def 4.4) with its witness.

    ``log sup_y max_{x, x' in D^n} p(y|x) / p(y|x')``: the leakage capacity of the
    mechanism on D^n (Thm 4.5 (1) via Thm 2.8).
    """
    checked = as_database_mechanism(mechanism)
    if isinstance(checked, StructuredDatabaseMechanism):
        fast = checked.free_lunch_closed_form()
        if fast is not None:
            return fast
    reduction: Reduction = checked.reduction()
    return max_ratio_over_all_rows(reduction.kernel(), reduction.database)


def local_privacy_epsilon(randomizer: Mechanism) -> WorstCase:
    """ε of local DP for a randomizer R on D: ``log sup_y max_{d,d'} R(y|d) / R(y|d')``.

    The witness's ``database`` and ``neighbour`` are the entries d and d'.
    """
    if not isinstance(randomizer, Mechanism):
        raise InvalidArgument(
            f"randomizer must be a Mechanism on the entry alphabet, got {type(randomizer).__name__}"
        )
    return max_ratio_over_all_rows(randomizer, lambda d: d)


def is_differentially_private(
    mechanism: object,
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
    delta: object = 0,
) -> bool:
    """ε-DP (δ = 0, Def 4.1) or (ε, δ)-DP (δ(ε) <= δ, see :func:`delta_for_epsilon`).

    ε is a LogValue (exact comparison), a non-negative real (certified comparison), or
    given as ``exp_epsilon`` (e^ε, e.g. a rational).
    """
    from exactpml.notions._approximate import _check_delta, delta_for_epsilon

    bound = epsilon_bound(epsilon, exp_epsilon)
    allowed = _check_delta(delta)
    if allowed == 0:
        return differential_privacy_epsilon(mechanism).epsilon <= bound
    if bound.is_infinite:
        return True
    worst = delta_for_epsilon(mechanism, exp_epsilon=bound.ratio)
    return compare_scalars(worst.value, allowed) <= 0


def is_free_lunch_private(
    mechanism: object, epsilon: object = None, *, exp_epsilon: object = None
) -> bool:
    """ε-free-lunch privacy (Def 4.4)."""
    bound = epsilon_bound(epsilon, exp_epsilon)
    return free_lunch_epsilon(mechanism).epsilon <= bound


def is_locally_private(
    randomizer: Mechanism, epsilon: object = None, *, exp_epsilon: object = None
) -> bool:
    """ε-local DP of a randomizer on D."""
    bound = epsilon_bound(epsilon, exp_epsilon)
    return local_privacy_epsilon(randomizer).epsilon <= bound


# --- statistical distance ----------------------------------------------------------------
def _total_variation(row: Sequence[Scalar], other: Sequence[Scalar]) -> tuple[Scalar, list[int]]:
    differences = [exact_difference(a, b) for a, b in zip(row, other, strict=True)]
    event = [c for c, d in enumerate(differences) if sign_of(d) > 0]
    return exact_sum(differences[c] for c in event), event


def neighbour_statistical_distance(mechanism: object) -> WorstCase:
    """max over neighbours x ~ x' of the statistical distance ``max_T |P(T) - Q(T)|`` (Vadhan §1.1).

    The witness event is ``T = {y : p(y|x) > p(y|x')}``, where the maximum is attained.
    """
    checked = as_database_mechanism(mechanism)
    reduction = checked.reduction()
    best: Scalar | None = None
    witness: tuple[Callable[[], tuple[Any, Any]], list[int]] | None = None
    seen: set[tuple[Label, Label]] = set()
    for v, v2, databases in reduction.pairs():
        if (v, v2) in seen:
            continue
        seen.add((v, v2))
        value, event = _total_variation(reduction.row(v), reduction.row(v2))
        if best is None or compare_scalars(value, best) > 0:
            best, witness = value, (databases, event)
    if best is None or witness is None:
        return WorstCase(Fraction(0))
    x, x2 = witness[0]()
    return WorstCase(best, x, x2, event=frozenset(reduction.outputs[c] for c in witness[1]))
