"""§1–§2 of Vadhan's notes: distances between the output distributions of neighbours.

Checks ``vadhan.max_divergence`` (§2), ``vadhan.statistical_difference`` (§1.1 Case 2 and
§1.2) and ``vadhan.case_1`` (§1.1 Case 1, the hybrid argument).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from typing import Any

import sympy
from hypothesis import strategies as st

from exactpml import Distribution
from exactpml import strategies as xst
from exactpml.database import BOTTOM, DatabaseMechanism, random_row_mechanism
from exactpml.leakage import renyi_divergence_inf, total_variation
from exactpml.notions import differential_privacy_epsilon, neighbour_statistical_distance
from proofs_check import (
    CheckContext,
    Evidence,
    check,
    exact_instances,
    property_holds,
    sharpness_evidence,
    witness_evidence,
)
from proofs_check.claims.vadhan._common import (
    Vector,
    certified_equal,
    distribution,
    distribution_pairs,
    infinite,
    library_ratio,
    pinned,
    ratio_text,
    tables,
)
from proofs_check.claims.vadhan._divergence_proofs import (
    case_1_proofs,
    case_1_strengthenings,
    max_divergence_proofs,
    statistical_difference_proofs,
    statistical_difference_strengthenings,
)
from proofs_check.reference import (
    Ratio,
    Table,
    divergence_ratio_by_points,
    divergence_ratio_by_sets,
    half_l1,
    statistical_distance_by_sets,
    table_dp_ratio,
    table_neighbour_pairs,
)
from proofs_check.small_scope import Layer, SmallScope

__all__ = ["case_1", "max_divergence", "statistical_difference"]


# --- vadhan.max_divergence ------------------------------------------------------------------
@check(
    "vadhan.max_divergence",
    mutants={
        "finite_points_only": "the maximum over points skips the y with Pr[B = y] = 0",
        "flipped": "the maximum over points of ln(Pr[B = y]/Pr[A = y]) (direction flipped)",
        "heavy_events_only": "the maximum over events with Pr[A ∈ T] > 1/10 (a δ-style cutoff) "
        "equals the maximum over points",
    },
)
def max_divergence(ctx: CheckContext) -> list[Evidence]:
    """vadhan.max_divergence — Vadhan §2, definition of D∞.

    Statement: max_{T ⊆ Y} ln(Pr[A ∈ T]/Pr[B ∈ T]) = max_{y ∈ Y} ln(Pr[A = y]/Pr[B = y]).

    P: on random pairs of exact distributions on 1 to 6 outcomes (zeros allowed, so both
    sides may be +∞): the maximum over every non-empty event (brute force, events with
    Pr[A ∈ T] = 0 skipped, +∞ when Pr[B ∈ T] = 0 < Pr[A ∈ T]) equals the maximum over points
    y with Pr[A = y] > 0, and both equal exactpml's ``renyi_divergence_inf``.

    C (proved, z3): for every pair of distributions A, B on three outcomes (zeros allowed, so
    on at most three) and every r >= 0, "Pr[A = y] <= r·Pr[B = y] for every point y" implies
    "Pr[A ∈ T] <= r·Pr[B ∈ T] for every event T", and conversely (:func:`max_divergence_proofs`).
    Since e^{D∞} is the least such r on either side (+∞ when none), the two maxima are equal.
    """
    proofs = max_divergence_proofs(ctx.mutant)
    skip_infinite = ctx.mutant == "finite_points_only"
    flipped = ctx.mutant == "flipped"

    def by_points(p: Vector, q: Vector) -> Ratio:
        if flipped:
            return divergence_ratio_by_points(q, p)
        return divergence_ratio_by_points(p, q, skip_infinite=skip_infinite)

    def holds(pair: tuple[Vector, Vector]) -> bool:
        p, q = pair
        over_events = divergence_ratio_by_sets(p, q)
        if ctx.mutant == "heavy_events_only":
            over_events = _heavy_events_ratio(p, q, Fraction(1, 10))
        library = renyi_divergence_inf(distribution(p), distribution(q))
        library_ratio = None if library.is_infinite else Fraction(library.ratio)
        return over_events == by_points(p, q) and library_ratio == over_events

    def explain(pair: tuple[Vector, Vector]) -> str:
        p, q = pair
        return (
            f"max over events {ratio_text(divergence_ratio_by_sets(p, q))}, "
            f"max over points {ratio_text(by_points(p, q))}"
        )

    describe = (
        "max over points of ln(Pr[B=y]/Pr[A=y]) equals D∞(A||B) over events (mutant)"
        if flipped
        else "max over events T of ln(Pr[A∈T]/Pr[B∈T]) = max over points y "
        "(= renyi_divergence_inf), +∞ included"
    )
    regime = pinned(
        [
            ("A = (1/20, 19/20), B = (1/100, 99/100): the best point is light", _LIGHT),
            ("A = (1/2, 1/2), B = (1, 0): +∞ on the point B misses", _MISSED),
            ("A = (1/2, 1/4, 1/4), B = (1/4, 1/4, 1/2): D∞(A||B) ≠ D∞(B||A)", _SKEWED),
        ],
        holds,
        describe=describe,
        explain=explain,
    )
    if regime.passed is False and not ctx.search_only:  # a search-alone run needs the search
        return [regime, *proofs]  # the random instances would only repeat it, more slowly
    return [
        regime,
        property_holds(ctx, distribution_pairs(), holds, describe=describe, explain=explain),
        *proofs,
    ]


_LIGHT = ((Fraction(1, 20), Fraction(19, 20)), (Fraction(1, 100), Fraction(99, 100)))
_MISSED = ((Fraction(1, 2), Fraction(1, 2)), (Fraction(1), Fraction(0)))
_SKEWED = (
    (Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)),
    (Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)),
)


def _heavy_events_ratio(p: Vector, q: Vector, cutoff: Fraction) -> Ratio:
    """max P(T)/Q(T) over events with P(T) > cutoff (the mutant ``heavy_events_only``)."""
    best = Fraction(0)
    for event in itertools.chain.from_iterable(
        itertools.combinations(range(len(p)), k) for k in range(1, len(p) + 1)
    ):
        mass = sum((p[y] for y in event), Fraction(0))
        if mass <= cutoff:
            continue
        other = sum((q[y] for y in event), Fraction(0))
        if other == 0:
            return None
        best = max(best, mass / other)
    return best


# --- vadhan.statistical_difference ----------------------------------------------------------
def _random_row_rows(letters: int, size: int, rate: Fraction) -> dict[tuple[int, ...], dict]:
    """Vadhan §1.1 Case 2 from the text: release a uniformly random row w.p. ``rate``."""
    rows: dict[tuple[int, ...], dict] = {}
    for x in itertools.product(range(letters), repeat=size):
        row: dict[Any, Fraction] = {BOTTOM: 1 - rate}
        for d in range(letters):
            row[d] = rate * Fraction(x.count(d), size)
        rows[x] = row
    return rows


def _first_row_rows(letters: int, size: int) -> dict[tuple[int, ...], dict]:
    """Case 2's alternative: release the first row w.p. 1/(10n), else ⊥."""
    rate = Fraction(1, 10 * size)
    rows: dict[tuple[int, ...], dict] = {}
    for x in itertools.product(range(letters), repeat=size):
        row: dict[Any, Fraction] = {BOTTOM: 1 - rate}
        for d in range(letters):
            row[d] = rate if x[0] == d else Fraction(0)
        rows[x] = row
    return rows


def _vectors(rows: dict[tuple[int, ...], dict]) -> tuple[list[Any], dict[tuple[int, ...], Vector]]:
    outputs = list(next(iter(rows.values())))
    return outputs, {x: tuple(row[y] for y in outputs) for x, row in rows.items()}


def _pairs_of(rows: dict[tuple[int, ...], Vector]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return [
        (x, x2) for x in rows for x2 in rows if sum(a != b for a, b in zip(x, x2, strict=True)) == 1
    ]


def _neighbour_sd_by_events(rows: dict[tuple[int, ...], Vector]) -> Fraction:
    return max(statistical_distance_by_sets(rows[x], rows[x2]) for x, x2 in _pairs_of(rows))


def _random_row_instances(expected_share: Callable[[int], Fraction]) -> list[tuple]:
    """Random-row mechanism: SD between neighbours and D∞, from the definitions."""
    cases: list[tuple] = []
    for letters, size in ((2, 1), (2, 2), (2, 3), (2, 4), (3, 2), (3, 3)):
        reference = _random_row_rows(letters, size, Fraction(1, 10))
        outputs, vectors = _vectors(reference)
        library = random_row_mechanism(range(letters), size)
        mismatches = sum(
            library.probability(x, y) != reference[x][y] for x in reference for y in outputs
        )
        where = f"|D|={letters}, n={size}"
        cases.append(
            (f"random row {where}: entries differing from the text's definition", mismatches, 0)
        )
        cases.append(
            (
                f"random row {where}: max neighbour SD over events",
                _neighbour_sd_by_events(vectors),
                expected_share(size),
            )
        )
        cases.append(
            (
                f"random row {where}: neighbour_statistical_distance",
                neighbour_statistical_distance(library).value,
                expected_share(size),
            )
        )
        # D∞(M(x) || M(x')) = log((c+1)/c), c = rows of x other than i holding x_i (∞ if c = 0)
        wrong = 0
        for x, x2 in _pairs_of(vectors):
            i = next(j for j in range(size) if x[j] != x2[j])
            others = x[:i] + x[i + 1 :]
            c = others.count(x[i])
            formula = None if c == 0 else Fraction(c + 1, c)
            wrong += divergence_ratio_by_sets(vectors[x], vectors[x2]) != formula
        cases.append(
            (
                f"random row {where}: pairs where D∞ ≠ log((c+1)/c) (c = other rows "
                "equal to the changed value)",
                wrong,
                0,
            )
        )
        zero = (0,) * size
        changed = (1, *zero[1:])
        cases.append(
            (
                f"random row {where}: D∞(M({changed}) || M({zero})) over events "
                "(changed value in no other row)",
                infinite(divergence_ratio_by_sets(vectors[changed], vectors[zero])),
                sympy.oo,
            )
        )
        cases.append(
            (
                f"random row {where}: differential_privacy_epsilon",
                differential_privacy_epsilon(library).value.ratio,
                sympy.oo,
            )
        )
    for letters, size in ((2, 2), (3, 2)):
        _, vectors = _vectors(_first_row_rows(letters, size))
        where = f"|D|={letters}, n={size}"
        zero = (0,) * size
        changed = (1, *zero[1:])
        cases.append(
            (
                f"first row w.p. 1/(10n) {where}: max neighbour SD over events",
                _neighbour_sd_by_events(vectors),
                expected_share(size),
            )
        )
        cases.append(
            (
                f"first row w.p. 1/(10n) {where}: D∞(M({changed}) || M({zero}))",
                infinite(divergence_ratio_by_sets(vectors[changed], vectors[zero])),
                sympy.oo,
            )
        )
    return cases


def _randomized_response(ratio: Any) -> DatabaseMechanism:
    """n = 1, D = {0, 1}: report the entry w.p. r/(1+r): ε-DP with e^ε = r exactly."""
    keep, flip = ratio / (1 + ratio), 1 / (1 + ratio)
    return DatabaseMechanism({(0,): {0: keep, 1: flip}, (1,): {0: flip, 1: keep}})


def _tight_rational_instances(one_sided_bound: Callable[[Fraction], Fraction]) -> list[tuple]:
    """tanh(ε/2) and 1 - e^{-ε} attained, e^ε = r rational: exact."""
    cases: list[tuple] = []
    for r in (Fraction(2), Fraction(3), Fraction(9, 4)):
        mechanism = _randomized_response(r)
        cases.append(
            (
                f"randomized response e^ε={r}: ε of ε-DP (ratio)",
                differential_privacy_epsilon(mechanism).value.ratio,
                r,
            )
        )
        cases.append(
            (
                f"randomized response e^ε={r}: SD = tanh(ε/2) = (r-1)/(r+1)",
                neighbour_statistical_distance(mechanism).value,
                (r - 1) / (r + 1),
            )
        )
        p, q = (Fraction(1), Fraction(0)), (1 / r, 1 - 1 / r)
        cases.append(
            (
                f"one-sided pair A=(1,0), B=(1/r,1-1/r), r={r}: D∞(A||B) ratio",
                divergence_ratio_by_sets(p, q),
                r,
            )
        )
        cases.append(
            (
                f"one-sided pair, r={r}: D∞(B||A) (only the one-sided condition holds)",
                infinite(divergence_ratio_by_sets(q, p)),
                sympy.oo,
            )
        )
        cases.append(
            (
                f"one-sided pair, r={r}: SD = 1 - e^-ε",
                statistical_distance_by_sets(p, q),
                one_sided_bound(r),
            )
        )
    return cases


def _tight_irrational_instances() -> list[tuple]:
    """The same tight pairs with ε = 1/2 and ε = 1 (e^ε irrational): certified equalities."""
    cases: list[tuple] = []
    for epsilon in (sympy.Rational(1, 2), sympy.Integer(1)):
        e = sympy.exp(epsilon)
        keep, flip = e / (1 + e), 1 / (1 + e)
        p, q = Distribution({0: keep, 1: flip}), Distribution({0: flip, 1: keep})
        tanh = sympy.tanh(epsilon / 2).rewrite(sympy.exp)
        cases.append(
            (f"randomized response ε={epsilon}: D∞ ratio", renyi_divergence_inf(p, q).ratio, e)
        )
        cases.append(
            (f"randomized response ε={epsilon}: SD = tanh(ε/2)", total_variation(p, q), tanh)
        )
        one = Distribution({0: 1, 1: 0})
        other = Distribution({0: 1 / e, 1: 1 - 1 / e})
        cases.append(
            (
                f"one-sided pair ε={epsilon}: D∞(A||B) ratio",
                renyi_divergence_inf(one, other).ratio,
                e,
            )
        )
        cases.append(
            (
                f"one-sided pair ε={epsilon}: SD = 1 - e^-ε",
                total_variation(one, other),
                1 - sympy.exp(-epsilon),
            )
        )
    return cases


@check(
    "vadhan.statistical_difference",
    mutants={
        "one_over_20n": "the random-row mechanism's neighbour statistical difference is 1/(20n)",
        "one_sided_tanh": "the one-sided condition of §1.2 already gives SD <= tanh(ε/2)",
        "one_over_9n": "the random-row mechanism's neighbour statistical difference is 1/(9n)",
        "tanh_third": "ε-DP implies SD <= tanh(ε/3) (instead of tanh(ε/2))",
    },
    strengthenings={
        "tanh_shrunk": "ε-DP implies SD <= (99/100)·tanh(ε/2) (the constant shrunk)",
        "tanh_strict": "ε-DP implies SD < tanh(ε/2) when ε > 0 (<= made strict)",
        "one_sided_strict": "the one-sided condition implies SD < 1 - e^-ε when ε > 0 (<= made "
        "strict)",
    },
)
def statistical_difference(ctx: CheckContext) -> list[Evidence]:
    """vadhan.statistical_difference — Vadhan §1.1 (Case 2) and §1.2.

    Statement: releasing a uniformly random row w.p. 1/10 gives statistical difference
    exactly 1/(10n) between neighbours (so it meets "SD <= ε" for ε >= 1/(10n)) yet infinite
    max-divergence; ε-DP implies SD <= tanh(ε/2), the one-sided condition Pr[A ∈ T] <=
    e^ε Pr[B ∈ T] implies SD <= 1 - e^{-ε}; both bounds are tight.

    E: (a) the random-row mechanism for |D| in {2, 3}, n <= 4, rebuilt from the text's
    definition, agrees entry by entry with exactpml's ``random_row_mechanism``; its largest
    neighbour SD, by brute force over events and by ``neighbour_statistical_distance``, is
    1/(10n) (the text's threshold); D∞(M(x) || M(x')) = log((c+1)/c) for every ordered
    neighbour pair, c = the other rows of x equal to the changed value (independent
    derivation), hence +∞ when c = 0, and exactpml's ε-DP is +∞; the same SD and +∞ for the
    "first row w.p. 1/(10n)" variant.  (b) Tightness, values derived by hand: randomized
    response with e^ε = r in {2, 3, 9/4} has SD = (r-1)/(r+1) = tanh(ε/2) exactly; the pair
    A = (1, 0), B = (1/r, 1 - 1/r) has D∞(A||B) = log r, D∞(B||A) = +∞ and SD = 1 - 1/r.
    With ε in {1/2, 1} (e^ε irrational) the same equalities are certified.

    P: on random pairs of distributions (1 to 6 outcomes, zeros allowed) with ε their exact
    max-divergence: SD <= tanh(ε/2) = (r-1)/(r+1) when both directions are <= ε, and SD <=
    1 - 1/r with r = e^{D∞(A||B)} from one direction alone; on random database mechanisms,
    the largest neighbour SD (exactpml, checked against ½ Σ|p - q| over every neighbour
    pair) is <= tanh(ε_DP/2).

    C (proved, z3; :func:`statistical_difference_proofs`): SD = max over events T of
    |Pr[A ∈ T] - Pr[B ∈ T]|, so the bounds are proved for one event T and its complement with
    a = Pr[A ∈ T], b = Pr[B ∈ T] ranging over [0, 1]: that is every event of every pair of
    distributions on any output space.  ε-DP (both directions, on T and its complement) ⇒
    |a - b| <= tanh(ε/2) = (e^ε - 1)/(e^ε + 1); the one-sided condition ⇒ |a - b| <= 1 - e^-ε;
    for every ε >= 0.  The random-row mechanism: for every n >= 1 and every neighbour pair
    (the changed row's old value held by c >= 1 rows, its new value by d >= 0 other rows), SD
    from the definition over the outputs (⊥, old value, new value, the others) is exactly
    1/(10n), proved as two inequalities.  Strengthenings: the constant 99/100·tanh(ε/2) and the
    strict forms are refuted (sharp), with the witness.
    """
    proofs = statistical_difference_proofs(ctx.mutant, search=ctx)
    denominator = {"one_over_20n": 20, "one_over_9n": 9}.get(ctx.mutant or "", 10)

    def share(n: int) -> Fraction:
        return Fraction(1, denominator * n)

    one_sided_tanh = ctx.mutant == "one_sided_tanh"
    two_sided = _tanh_third if ctx.mutant == "tanh_third" else _tanh_half

    def one_sided_bound(r: Fraction) -> Fraction:
        return (r - 1) / (r + 1) if one_sided_tanh else 1 - 1 / r

    def pair_holds(pair: tuple[Vector, Vector]) -> bool:
        p, q = pair
        distance = half_l1(p, q)
        forward, backward = divergence_ratio_by_points(p, q), divergence_ratio_by_points(q, p)
        if forward is not None and distance > one_sided_bound(forward):
            return False
        if forward is not None and backward is not None:
            return two_sided(distance, max(forward, backward))
        return True

    def pair_explain(pair: tuple[Vector, Vector]) -> str:
        p, q = pair
        return (
            f"SD = {half_l1(p, q)}, e^D∞(A||B) = {infinite(divergence_ratio_by_points(p, q))}, "
            f"e^D∞(B||A) = {infinite(divergence_ratio_by_points(q, p))}"
        )

    def mechanism_holds(table: Table) -> bool:
        library = neighbour_statistical_distance(table.mechanism()).value
        reference = max(
            (half_l1(table.row(x), table.row(x2)) for x, x2 in table_neighbour_pairs(table)),
            default=Fraction(0),
        )
        if library != reference:
            return False
        r = table_dp_ratio(table)
        if library_ratio(table) != r:
            return False
        return r is None or two_sided(reference, r)

    describe_pairs = (
        "one direction D∞(A||B) <= ε ⇒ SD <= tanh(ε/2) (mutant)"
        if one_sided_tanh
        else "D∞ both ways <= ε ⇒ SD <= tanh(ε/2); D∞(A||B) <= ε alone ⇒ SD <= 1 - e^-ε"
    )
    tight = _tight_rational_instances(one_sided_bound)
    tight += [
        (
            f"randomized response e^ε={r}: SD within the two-sided bound",
            two_sided(neighbour_statistical_distance(_randomized_response(r)).value, r),
            True,
        )
        for r in (Fraction(2), Fraction(3), Fraction(9, 4))
    ]
    return [
        exact_instances(
            _random_row_instances(share),
            origin="from the text (1/(10n)) and derived by hand",
        ),
        exact_instances(tight, origin="derived by hand (tight instances, e^ε rational)"),
        sharpness_evidence(
            "SD <= tanh(ε/2) (ε-DP) and SD <= 1 - e^-ε (one-sided)",
            attained=True,
            on="randomized response with e^ε = 2, 3, 9/4 (SD = (e^ε-1)/(e^ε+1) = tanh(ε/2)) "
            "and the pair A = (1, 0), B = (e^-ε, 1 - e^-ε) (SD = 1 - e^-ε), also at ε = 1/2, 1 "
            "(certified)",
            kind="E",
        ),
        exact_instances(
            _tight_irrational_instances(),
            origin="derived by hand (tight instances, e^ε irrational, certified)",
            equal=certified_equal,
        ),
        property_holds(
            ctx, distribution_pairs(), pair_holds, describe=describe_pairs, explain=pair_explain
        ),
        property_holds(
            ctx,
            tables(),
            mechanism_holds,
            describe="database mechanisms: max neighbour SD <= tanh(ε_DP/2)",
            examples=ctx.fewer_examples(4),
        ),
        *proofs,
        *(statistical_difference_strengthenings() if ctx.mutant is None else ()),
    ]


def _tanh_half(distance: Fraction, r: Fraction) -> bool:
    """distance <= tanh(ε/2) = (r-1)/(r+1), r = e^ε."""
    return distance <= (r - 1) / (r + 1)


def _tanh_third(distance: Fraction, r: Fraction) -> bool:
    """distance <= tanh(ε/3) = (r^{1/3}-1)/(r^{1/3}+1), i.e. ((1+d)/(1-d))^3 <= r (the mutant)."""
    return distance < 1 and ((1 + distance) / (1 - distance)) ** 3 <= r


# --- vadhan.case_1 -------------------------------------------------------------------------
def _extremal_mechanism(size: int, scale: int = 10) -> DatabaseMechanism:
    """Case 1's extremal mechanism: M(x) = 1 w.p. Σ x_i / (10n), else 0, on {0, 1}^n (the
    family member a = 1/scale of :func:`_counting_mechanism`)."""
    return _counting_mechanism(size, Fraction(1, scale))


_FAMILY_SIZES = (1, 2, 3)
_FAMILY_DENOMINATORS = range(1, 13)


def _family_scope() -> SmallScope[tuple[int, Fraction]]:
    """Every (n, a) with n <= 3 and a = j/k in (0, 1], k <= 12, simplest a first: the
    parameters of Case 1's family M_a(x) = 1 w.p. a·Σx_i/n (the text's mechanism is a = 1/10)."""

    def layer(k: int) -> Layer[tuple[int, Fraction]]:
        chunk = [Fraction(j, k) for j in range(1, k + 1) if math.gcd(j, k) == 1]
        instances = [(n, a) for a in chunk for n in _FAMILY_SIZES]
        return Layer(f"a with denominator {k}", len(instances), lambda: instances)

    layers = [layer(k) for k in _FAMILY_DENOMINATORS]
    return SmallScope("Case 1's family M_a on {0, 1}^n: n <= 3, a = j/k, k <= 12", layers)


def _family_holds(scale: int, strictly: bool) -> Callable[[tuple[int, Fraction]], bool]:
    """Case 1's corollary on M_a: if the neighbour SD ε (exactpml, against ½ Σ|p - q| over
    every neighbour pair) is at most 1/(scale·n), then SD(M(1^n), M(0^n)) <= 1/10 (< with
    ``strictly``: the mutants' readings)."""

    def holds(instance: tuple[int, Fraction]) -> bool:
        n, a = instance
        mechanism = _counting_mechanism(n, a)
        epsilon = neighbour_statistical_distance(mechanism).value
        rows = {x: mechanism.row(x) for x in itertools.product((0, 1), repeat=n)}
        reference = max(
            half_l1(rows[x], rows[(*x[:i], 1 - x[i], *x[i + 1 :])])  # type: ignore[arg-type]
            for x in rows for i in range(n)
        )
        if epsilon != reference:
            return False
        if epsilon > Fraction(1, scale * n):
            return True  # the corollary's hypothesis fails: nothing to check
        extreme = half_l1(rows[(1,) * n], rows[(0,) * n])  # type: ignore[arg-type]
        return extreme < Fraction(1, 10) if strictly else extreme <= Fraction(1, 10)

    return holds


def _counting_mechanism(size: int, share: Fraction) -> DatabaseMechanism:
    """M_a(x) = 1 w.p. a·Σ x_i / n, else 0, on {0, 1}^n (Case 1's mechanism is a = 1/10)."""

    def row(x: tuple[Any, ...]) -> Mapping[Hashable, object]:
        mass = share * Fraction(sum(x), size)
        return {0: 1 - mass, 1: mass}

    return DatabaseMechanism.from_function(row, (0, 1), size, outputs=(0, 1))


def _hamming(x: tuple[int, ...], other: tuple[int, ...]) -> int:
    return sum(a != b for a, b in zip(x, other, strict=True))


@check(
    "vadhan.case_1",
    mutants={
        "n_minus_one": "the hybrid bound (n-1)ε instead of nε",
        "strictly_below": "the text's 'less than 0.1' taken literally: SD < 0.1",
        "one_over_9n": "neighbour SD <= 1/(9n) already keeps M(x) and M(0^n) within 0.1",
    },
    strengthenings={
        "hybrid_strict": "SD(M(x), M(0^n)) < nε when ε > 0 (<= made strict; n = 2)",
        "hybrid_shrunk": "SD(M(x), M(0^n)) <= (99/100)·nε (the constant shrunk; n = 2)",
    },
)
def case_1(ctx: CheckContext) -> list[Evidence]:
    """vadhan.case_1 — Vadhan §1.1, Case 1 (hybrid argument).

    Statement: if every pair of neighbours has statistical difference <= ε, then M(x) and
    M(0^n) differ by <= nε (so by <= 0.1 when ε <= 1/(10n)); tight: M(x) = 1 w.p.
    Σ x_i / (10n), else 0, reaches exactly 0.1.

    P: the corollary on the text's mechanism as a family, M_a(x) = 1 w.p. a·Σx_i/n (a = 1/10
    is the text's): every n <= 3 and a = j/k, k <= 12 (small scope), then random rational
    a in (0, 1]: ε (exactpml, against ½ Σ|p - q| over every neighbour pair) <= 1/(10n)
    ⇒ SD(M(1^n), M(0^n)) <= 0.1.

    P: on random database mechanisms (D = {0, …, k-1}, n <= 3) with ε = the exact largest
    neighbour SD (exactpml, checked against ½ Σ|p - q| over every neighbour pair):
    SD(M(x), M(0^n)) <= d_H(x, 0^n)·ε <= nε for every x (the hybrid path changes one entry
    at a time).

    W: the text's extremal mechanism for n = 1 … 5 (binary entries): neighbour SD is exactly
    1/(10n) and SD(M(1^n), M(0^n)) is exactly 1/10 = n·1/(10n).  The text's "less than 0.1"
    must read "at most 0.1" (a harmless slip).

    C (proved, z3; :func:`case_1_proofs`): SD is the maximum over events T, so with
    a_j = Pr[M(x^(j)) ∈ T] along the hybrid path x = x^(n), ..., x^(0) = 0^n (one row changed
    per step; a_j in [0, 1], every event of every output space): neighbour SD <= ε gives
    |a_j - a_{j+1}| <= ε, and |a_0 - a_n| <= nε follows for every n >= 1 by induction (base
    n = 1, and the step n → n + 1 proved for every real n >= 1); with ε <= 1/(10n) the bound
    is at most 1/10.  Strengthenings (a path of two steps): strict, and 99/100·nε, refuted.
    """
    proofs = case_1_proofs(ctx.mutant, search=ctx)
    factor = (lambda n: n - 1) if ctx.mutant == "n_minus_one" else (lambda n: n)
    strictly = ctx.mutant == "strictly_below"

    def holds(table: Table) -> bool:
        pairs = list(table_neighbour_pairs(table))
        epsilon = max((half_l1(table.row(x), table.row(x2)) for x, x2 in pairs), default=0)
        if neighbour_statistical_distance(table.mechanism()).value != epsilon:
            return False
        zero = (0,) * table.size
        for x, row in table.rows:
            distance = half_l1(row, table.row(zero))
            steps = min(_hamming(x, zero), factor(table.size))
            if distance > steps * epsilon:
                return False
        return True

    def explain(table: Table) -> str:
        zero = (0,) * table.size
        worst = max(table.rows, key=lambda item: half_l1(item[1], table.row(zero)))
        return (
            f"neighbour SD {neighbour_statistical_distance(table.mechanism()).value}, "
            f"SD(M({worst[0]}), M({zero})) = {half_l1(worst[1], table.row(zero))}"
        )

    verified = True
    failure = None
    values: dict[str, object] = {}
    scale = 9 if ctx.mutant == "one_over_9n" else 10
    for n in range(1, 6):
        mechanism = _extremal_mechanism(n, scale)
        epsilon = neighbour_statistical_distance(mechanism).value
        ones, zeros = (1,) * n, (0,) * n
        extreme = total_variation(mechanism.row(ones), mechanism.row(zeros))
        reference = half_l1(mechanism.row(ones), mechanism.row(zeros))  # type: ignore[arg-type]
        values[f"n={n}: neighbour SD"] = epsilon
        values[f"n={n}: SD(M(1^n), M(0^n))"] = extreme
        reaches = epsilon == Fraction(1, scale * n) and extreme == reference == n * epsilon
        below = extreme < Fraction(1, 10) if strictly else extreme <= Fraction(1, 10)
        if verified and not (reaches and below):
            verified = False
            failure = f"n={n}: neighbour SD {epsilon}, SD(M(1^n), M(0^n)) = {extreme}" + (
                " is not < 1/10" if strictly else ""
            )
    family = property_holds(
        ctx,
        st.tuples(st.sampled_from(_FAMILY_SIZES),
                  xst.fractions(min_value=0, max_value=1, max_denominator=100).filter(bool)),
        _family_holds(scale, strictly),
        describe=f"on M_a(x) = 1 w.p. a·Σx_i/n (n <= 3, a in (0, 1]): ε <= 1/({scale}n) ⇒ "
        + ("SD(M(1^n), M(0^n)) < 0.1 (mutant)" if strictly else "SD(M(1^n), M(0^n)) <= 0.1"),
        explain=lambda instance: (
            f"n = {instance[0]}, a = {instance[1]}: neighbour SD "
            f"{neighbour_statistical_distance(_counting_mechanism(*instance)).value}, "
            f"SD(M(1^n), M(0^n)) = {instance[1]}"
        ),
        small_scope=_family_scope(),
        examples=ctx.fewer_examples(4),
    )
    return [
        family,
        property_holds(
            ctx,
            tables(),
            holds,
            describe=(
                "SD(M(x), M(0^n)) <= (n-1)·ε (mutant)"
                if ctx.mutant == "n_minus_one"
                else "SD(M(x), M(0^n)) <= d_H(x, 0^n)·ε <= nε, ε = max neighbour SD"
            ),
            explain=explain,
            examples=ctx.fewer_examples(2),
        ),
        witness_evidence(
            "M(x) = 1 w.p. Σx_i/(10n), n = 1..5: neighbour SD = 1/(10n) and SD(M(1^n), M(0^n)) "
            "= 1/10 exactly, so the bound nε is attained (the text's 'less than 0.1' should "
            "read 'at most 0.1')"
            if ctx.mutant != "one_over_9n"
            else "M(x) = 1 w.p. Σx_i/(9n) stays within 0.1 (mutant)",
            verified,
            values=values,
            counterexample=failure,
        ),
        sharpness_evidence(
            "SD(M(x), M(0^n)) <= nε (hybrid argument)",
            attained=verified,
            on="M(x) = 1 w.p. Σx_i/(10n), n = 1..5: SD(M(1^n), M(0^n)) = 1/10 = n·1/(10n); "
            "the text's 'less than 0.1' is 'at most 0.1'",
            sharpest=None if verified else "not attained",
        ),
        *proofs,
        *(case_1_strengthenings() if ctx.mutant is None else ()),
    ]
