"""Entry leakage on random and correlated priors against the reference (Thms 4.2, 4.5).

Saeidian et al., *Rethinking Disclosure Prevention with PML*, Thm 4.2 (1), (3) and
Thm 4.5 (1), (3): the "<=" direction of each supremum, for every prior of the family.
The library's pointwise leakages (:func:`exactpml.database.entry_leakage`,
:func:`exactpml.database.conditional_entry_leakage`, :func:`exactpml.pointwise_maximal_leakage`)
are compared exactly with :mod:`proofs_check.reference.pml` (Bayes' rule entry by entry), and
the reference's value with the DP ratio (Def 4.1) or the free-lunch ratio (Def 4.4)
enumerated over pairs of databases by :mod:`proofs_check.reference.dp`.  No supremum, no
construction: the library's suprema are compared elsewhere in the checks.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from fractions import Fraction
from functools import partial
from typing import Any

from exactpml import Distribution, LogValue, pointwise_maximal_leakage
from exactpml import strategies as xst
from exactpml.database import (
    DatabaseMechanism,
    DatabaseSpace,
    conditional_entry_leakage,
    entry_leakage,
)
from exactpml.structured import (
    CountingQuery,
    GeometricNoise,
    PerRecordMechanism,
    QueryMechanism,
    randomized_response,
)
from proofs_check import CheckContext, Evidence, property_holds
from proofs_check import small_scope as scopes
from proofs_check.reference import Ratio, dp_ratio, entry_pml_ratio, free_lunch_ratio, pml_ratio
from proofs_check.reference.pml import is_product_prior

__all__ = ["EXAMPLES", "SCOPE_MASSES", "entry_bound_evidence"]

Instance = tuple[DatabaseMechanism, Distribution]

EXAMPLES = {"quick": 25, "default": 120, "thorough": 1000}
"""Random (mechanism, prior) pairs per profile (the property's cost: ~2 ms each)."""
SCOPE_MASSES = {
    "quick": (Fraction(1, 4),),
    "default": (Fraction(1, 4), Fraction(1, 10)),
    "thorough": (Fraction(1, 4), Fraction(1, 10), Fraction(1, 3), Fraction(1, 1000)),
}
"""The masses t of the two-point priors {x: t, x': 1 - t} on {0, 1}^2 (every ordered pair
of distinct databases, 12 per t) paired with each of the 4 structured mechanisms in the
small scope: pairs of neighbours give product priors, the others correlated ones (entries
tied or opposed)."""

_SPACE = DatabaseSpace([0, 1], 2)


def _structured() -> list[DatabaseMechanism]:
    """Randomized response on both records (e^ε = 2, 3) and the count of ones with
    two-sided geometric noise (α = 1/2, 1/3), as explicit kernels on {0, 1}^2."""
    built = [
        PerRecordMechanism(_SPACE, randomized_response([0, 1], ratio)).explicit()
        for ratio in (2, 3)
    ]
    built += [
        QueryMechanism(
            _SPACE, CountingQuery({0: 0, 1: 1}), noise=GeometricNoise(alpha)
        ).explicit()
        for alpha in (Fraction(1, 2), Fraction(1, 3))
    ]
    return built


def _two_point_priors(masses: tuple[Fraction, ...]) -> list[Distribution]:
    databases = list(_SPACE.databases())
    return [
        Distribution({z: t if z == x else 1 - t if z == other else Fraction(0) for z in databases})
        for t in masses
        for x in databases
        for other in databases
        if other != x
    ]


def _scope(masses: tuple[Fraction, ...]) -> scopes.SmallScope[Instance]:
    """The 4 structured mechanisms on {0, 1}^2 with the two-point priors of ``masses``."""
    mechanisms = scopes.SmallScope(
        "randomized response (e^ε = 2, 3) and geometric counts (α = 1/2, 1/3) on {0, 1}^2",
        [scopes.Layer("structured mechanisms on {0, 1}^2", 4, _structured)],
    )
    shown = ", ".join(str(t) for t in masses)
    priors = scopes.SmallScope(
        f"two-point priors {{x: t, x': 1 - t}} on {{0, 1}}^2, t in {{{shown}}}",
        [
            scopes.Layer(f"two-point priors, t = {t}", 12, partial(_two_point_priors, (t,)))
            for t in masses
        ],
    )
    return scopes.SmallScope.product([mechanisms, priors])


def _leq(value: Fraction, ratio: Ratio) -> bool:
    return ratio is None or value <= ratio


def _shown(ratio: Ratio) -> str:
    return "oo" if ratio is None else str(ratio)


def entry_bound_evidence(
    ctx: CheckContext,
    *,
    bound: str,
    entry_bound: str | None = None,
    product_only: bool,
    prior_kind: str | None,
    with_conditional: bool,
    with_whole: bool,
) -> Evidence:
    """P: on random (mechanism on D^n, prior) pairs the library's leakages equal the
    reference's, and the reference's are at most the bound.

    Args:
        ctx: The check's context.
        bound: ``"dp"`` (Def 4.1, per output) or ``"free_lunch"`` (Def 4.4, per output).
        entry_bound: The bound of l(D_i->y) when it differs from ``bound`` (a mutant).
        product_only: Bound l(D_i->y) only when the prior is a product of its marginals
            (Thm 4.2 (3)); the equality with the reference is checked for every prior.
        prior_kind: ``"joint"`` (correlated and concentrated priors), ``"product"`` or
            ``None`` (either), as :func:`exactpml.strategies.database_priors` draws them.
        with_conditional: Also l(D_i->y | d_-i) for every d_-i of positive mass, bounded for
            every prior (Thm 4.2 (1)).
        with_whole: Also l(X->y), bounded for every prior (Thm 4.5 (1)).
    """
    ratio_of: dict[str, Callable[[Any, Hashable], Ratio]] = {
        "dp": dp_ratio,
        "free_lunch": free_lunch_ratio,
    }
    names = {"dp": "the DP ratio (Def 4.1)", "free_lunch": "the free-lunch ratio (Def 4.4)"}
    entry_bound = bound if entry_bound is None else entry_bound

    def problems(instance: Instance) -> Iterator[str]:
        database, prior = instance
        kernel, n = database.mechanism, database.space.size
        masses = {x: prior[x] for x in kernel.inputs}
        bounded = not product_only or is_product_prior(masses, n)
        for y in kernel.outputs:
            ratio = ratio_of[bound](kernel, y)
            entry_ratio = ratio if entry_bound == bound else ratio_of[entry_bound](kernel, y)
            for i in range(n):
                library = entry_leakage(database, prior, i, y)
                expected = entry_pml_ratio(kernel, masses, y, i)
                if library != LogValue(expected):
                    yield f"y={y!r}, i={i}: library l(D_i->y) = {library}, reference log {expected}"
                elif bounded and not _leq(expected, entry_ratio):
                    yield (
                        f"y={y!r}, i={i}: l(D_i->y) = log {expected} > log {_shown(entry_ratio)}"
                    )
                if not with_conditional:
                    continue
                for rest in _positive_rests(masses, i):
                    library = conditional_entry_leakage(database, prior, i, y, rest)
                    expected = entry_pml_ratio(kernel, masses, y, i, rest)
                    if library != LogValue(expected):
                        yield (
                            f"y={y!r}, i={i}, d_-i={rest!r}: library l(D_i->y | d_-i) = "
                            f"{library}, reference log {expected}"
                        )
                    elif not _leq(expected, ratio):
                        yield (
                            f"y={y!r}, i={i}, d_-i={rest!r}: l(D_i->y | d_-i) = log {expected} "
                            f"> log {_shown(ratio)}"
                        )
            if with_whole:
                library = pointwise_maximal_leakage(kernel, prior, y)
                expected = pml_ratio(kernel, prior, y)
                if library != LogValue(expected):
                    yield f"y={y!r}: library l(X->y) = {library}, reference log {expected}"
                elif not _leq(expected, ratio):
                    yield f"y={y!r}: l(X->y) = log {expected} > log {_shown(ratio)}"

    def explain(instance: Instance) -> str:
        found = list(problems(instance))
        return "; ".join(found[:3]) + (f" (and {len(found) - 3} more)" if len(found) > 3 else "")

    leakages = "l(D_i->y)" + (", l(D_i->y | d_-i)" if with_conditional else "") + (
        ", l(X->y)" if with_whole else ""
    )
    which = {"joint": "correlated", "product": "product", None: "product or correlated"}[prior_kind]
    describe = (
        f"on random mechanisms on D^n and {which} priors (concentrated ones included), "
        f"{leakages} equal the reference's (Bayes' rule, exact) and are <= log of "
        + names[bound]
        + (" (l(D_i->y) when the prior is a product)" if product_only else "")
        + ("" if entry_bound == bound else f" (l(D_i->y): {names[entry_bound]})")
    )
    strategy = xst.database_mechanisms_with_prior(
        kind=prior_kind, max_outputs=3, max_databases=9
    )
    return property_holds(
        ctx,
        strategy,
        lambda instance: next(problems(instance), None) is None,
        describe=describe,
        explain=explain,
        examples=EXAMPLES[ctx.profile],
        small_scope=_scope(SCOPE_MASSES[ctx.profile]),
    )


def _positive_rests(masses: dict[Any, Fraction], i: int) -> list[tuple[Any, ...]]:
    """The d_-i of positive prior mass, in order of first appearance."""
    rests: dict[tuple[Any, ...], Fraction] = {}
    for x, p in masses.items():
        rest = x[:i] + x[i + 1 :]
        rests[rest] = rests.get(rest, Fraction(0)) + p
    return [rest for rest, p in rests.items() if p]

