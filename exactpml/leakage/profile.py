"""Every output's pointwise maximal leakage under one prior, computed once.

Saeidian et al., Def 2.3 in the closed form of Thm 2.4:

``l(X->y) = log max_{x in supp P_X} p(y|x) / p_Y(y)``, and 0 when ``p_Y(y) = 0`` (footnote 5).

A :class:`LeakageProfile` is what :func:`~exactpml.leakage.pointwise_maximal_leakage_by_output`
returns and what :func:`~exactpml.leakage.pointwise_maximal_leakage` reads: the work shared by
all outputs (p_Y over one common denominator, the prior's support, the column maxima) is done
once per (mechanism, prior) and kept with the mechanism, so a loop over outputs costs what one
batched call costs.  For rational kernels the ratios are kept as unreduced integer pairs and
put in lowest terms only when read: with per-row denominators they have thousands of bits,
and their gcds cost more than everything else (``benchmarks/README.md``).  The maximum over
outputs compares the pairs by exact cross-multiplication, without reducing them.

>>> from exactpml import Distribution, Mechanism
>>> mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
>>> profile = leakage_profile(mechanism, Distribution({"a": "2/3", "b": "1/3"}))
>>> print(profile[1], profile.maximum())
log(9/5) log(9/5)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction

import sympy

from exactpml.core.decisions import prove_zero
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, exact_product, exact_quotient, exact_sum, lowest_terms
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.leakage._support import Label, _check, _max, _max_log, _positive_condition

__all__ = ["LeakageProfile", "leakage_profile"]


def _symbolic_ratio(
    mechanism: Mechanism, weights: Sequence[Scalar], position: int
) -> tuple[Scalar, tuple[sympy.Basic, ...]]:
    """max_{x in supp P_X} p(y|x) / p_Y(y), or 1 when p_Y(y) = 0, with unproved conditions."""
    column = [row[position] for row in mechanism.rows]
    conditions: list[sympy.Basic] = []
    mass = exact_sum(exact_product(w, c) for w, c in zip(weights, column, strict=True))
    if not _positive_condition(mass, conditions):
        return Fraction(1), ()
    support = [c for w, c in zip(weights, column, strict=True) if not prove_zero(w)]
    return exact_quotient(_max(support), mass), tuple(conditions)


def _log2(value: int) -> float:
    """log2 of a positive integer within 1e-12 of the truth (relative), at any size."""
    shift = max(value.bit_length() - 62, 0)
    return math.log2(value >> shift) + shift


_LOG_MARGIN = 1e-6  # far above the rounding error of a difference of two _log2 values


def _largest_ratio(tops: Sequence[int], masses: Sequence[int]) -> int | None:
    """The position of the largest ``tops[y] / masses[y]`` over ``masses[y] > 0``, exactly.

    Base-2 logarithms of the integers (each within 1e-12 relative of the truth: the top 62
    bits are exact, the rest is an exact power of two) propose the maximum.  A ratio whose
    logarithm is below the proposal's by more than the margin -- a million times their
    possible error -- is certainly smaller; every ratio within the margin is compared by
    exact cross-multiplication.  So the result is exact, and integers of thousands of bits
    are multiplied only for near-ties.
    """
    logs = [
        (_log2(t) - _log2(m) if t else -math.inf, y)
        for y, (t, m) in enumerate(zip(tops, masses, strict=True))
        if m
    ]
    if not logs:
        return None
    top_log = max(value for value, _ in logs)
    margin = _LOG_MARGIN * (1 + abs(top_log))  # each _log2 is within 1e-12 (relative)
    best: int | None = None
    for value, y in logs:
        if value < top_log - margin:
            continue
        if best is None or tops[y] * masses[best] > tops[best] * masses[y]:
            best = y
    return best


class LeakageProfile(Mapping[Label, LogValue]):
    """``{y: l(X->y)}`` for one mechanism and prior; values computed once, reduced when read.

    Build it with :func:`leakage_profile` (which validates and caches it).  It is a read-only
    mapping over ``mechanism.outputs``.
    """

    __slots__ = (
        "_conditions",
        "_masses",
        "_pairs",
        "_total",
        "_values",
        "_weights",
        "mechanism",
        "prior",
    )

    def __init__(self, mechanism: Mechanism, prior: Distribution) -> None:
        self.mechanism = mechanism
        self.prior = prior
        self._weights: list[Scalar] = (
            list(prior.probabilities)
            if prior.outcomes == mechanism.inputs
            else [prior[x] for x in mechanism.inputs]
        )
        self._conditions = tuple(dict.fromkeys([*mechanism.conditions, *prior.conditions]))
        self._values: dict[int, LogValue] = {}
        self._masses: list[Scalar] | None = None
        kernel = mechanism.integer_kernel
        if kernel is not None and prior.is_rational:
            tops, masses, total = kernel.pml_ratio_pairs(self._weights)
            self._pairs: tuple[list[int], list[int]] | None = (tops, masses)
            self._total = total
        else:
            self._pairs, self._total = None, 1

    # --- the mapping ------------------------------------------------------------------
    def __getitem__(self, output: Label) -> LogValue:
        position = self.mechanism.output_position(output)
        value = self._values.get(position)
        if value is None:
            value = self._value_at(position)
            self._values[position] = value
        return value

    def __iter__(self) -> Iterator[Label]:
        return iter(self.mechanism.outputs)

    def __len__(self) -> int:
        return len(self.mechanism.outputs)

    def __repr__(self) -> str:
        return f"LeakageProfile({len(self)} outputs)"

    def _value_at(self, position: int) -> LogValue:
        if self._pairs is not None:
            top, mass = self._pairs[0][position], self._pairs[1][position]
            return LogValue._of_fraction(lowest_terms(top, mass) if mass else Fraction(1))
        ratio, extra = _symbolic_ratio(self.mechanism, self._weights, position)
        return LogValue(ratio, conditions=tuple(dict.fromkeys(self._conditions + extra)))

    # --- shared quantities ------------------------------------------------------------
    def masses(self) -> list[Scalar]:
        """``[p_Y(y) for y in outputs]``, exactly."""
        if self._masses is None:
            if self._pairs is not None:
                total = self._total
                self._masses = [lowest_terms(m, total) for m in self._pairs[1]]
            else:
                self._masses = self.mechanism.output_masses(self.prior)
        return self._masses

    def maximum(self) -> LogValue:
        """max over outputs with p_Y(y) > 0 of l(X->y) (the ε of Def 2.6, form (iii)).

        Rational kernels: the unreduced pairs are compared by exact cross-multiplication and
        only the largest is reduced.
        """
        if self._pairs is not None:
            best = _largest_ratio(*self._pairs)
            return LogValue(1) if best is None else self[self.mechanism.outputs[best]]
        return _max_log(
            [
                self[y]
                for y, mass in zip(self.mechanism.outputs, self.masses(), strict=True)
                if not prove_zero(mass)
            ]
        )


def leakage_profile(mechanism: Mechanism, prior: Distribution) -> LeakageProfile:
    """Every output's l(X->y) under ``prior``, computed once per (mechanism, prior) object pair.

    The profile is cached with the mechanism (an immutable value), keyed by the prior object,
    so repeated calls -- one per output, in a user's loop -- share the work.
    """
    if not isinstance(mechanism, Mechanism) or not isinstance(prior, Distribution):
        _check(mechanism, prior)  # names the argument of the wrong type
    return mechanism.derived(("pml-profile", prior), lambda: _validated_profile(mechanism, prior))


def _validated_profile(mechanism: Mechanism, prior: Distribution) -> LeakageProfile:
    _check(mechanism, prior)
    return LeakageProfile(mechanism, prior)
