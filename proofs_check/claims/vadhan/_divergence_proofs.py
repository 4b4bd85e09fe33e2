"""Vadhan §1-§2 in sympy for the proof engines: D∞ over events and points, statistical
difference under ε-DP, the random-row mechanism and the hybrid argument.

The statements of ``vadhan.max_divergence``, ``vadhan.statistical_difference`` and
``vadhan.case_1`` (:mod:`.divergences`), their mutants and their strengthenings, written from
the notes' definitions (see :mod:`._proofs`).
"""

from __future__ import annotations

import sympy

from proofs_check import CheckContext, Evidence, proof_evidence, strengthening_evidence
from proofs_check.claims.vadhan._proofs import (
    EPSILON,
    TIMEOUT,
    UNIT,
    events,
    law_symbols,
    probability_of,
    tanh_half,
)
from proofs_check.evidence import searched_proof_evidence

__all__ = [
    "case_1_proofs",
    "case_1_strengthenings",
    "max_divergence_proofs",
    "statistical_difference_proofs",
    "statistical_difference_strengthenings",
]


_OUTCOMES = 3
"""Outcomes of the distributions in the max-divergence proofs (z3 needs 10 s past three)."""


def max_divergence_proofs(mutant: str | None) -> list[Evidence]:
    """Max over events = max over points, for every pair of distributions on three outcomes.

    With r >= 0 a variable: (sets <= points) the point condition p_y <= r q_y for every y
    implies P(T) <= r Q(T) for every event T; (points <= sets) the converse.  Stated as
    max_T (P(T) - r Q(T)) <= 0 under the point hypotheses, and max_y (p_y - r q_y) <= 0
    under the event hypotheses.  The mutants change the hypotheses: ``finite_points_only``
    drops the points with q_y = 0 (q_y (p_y - r q_y) <= 0), ``flipped`` uses q_y <= r p_y,
    ``heavy_events_only`` keeps only the events with P(T) > 1/10.
    """
    p, p_ranges, p_sum = law_symbols("A", _OUTCOMES)
    q, q_ranges, q_sum = law_symbols("B", _OUTCOMES)
    r = sympy.Symbol("r", real=True)
    variables = {**p_ranges, **q_ranges, r: sympy.Interval(0, sympy.oo)}
    laws = (p_sum, q_sum)
    every_event = events(_OUTCOMES)
    gaps = [probability_of(p, T) - r * probability_of(q, T) for T in every_event]
    points = [p[y] - r * q[y] for y in range(_OUTCOMES)]
    domain = (
        "every pair of distributions A, B on 3 outcomes (zeros allowed, so on at most 3) and "
        "every r >= 0"
    )
    proofs = []
    if mutant in (None, "finite_points_only", "flipped"):
        if mutant == "finite_points_only":
            hypotheses = [sympy.Le(q[y] * points[y], 0) for y in range(_OUTCOMES)]
            part = "max over events <= max over the points with Pr[B = y] > 0 (mutant)"
        elif mutant == "flipped":
            hypotheses = [sympy.Le(q[y], r * p[y]) for y in range(_OUTCOMES)]
            part = "Pr[B = y] <= r Pr[A = y] for every y ⇒ Pr[A ∈ T] <= r Pr[B ∈ T] (mutant)"
        else:
            hypotheses = [sympy.Le(value, 0) for value in points]
            part = (
                "max over events <= max over points: Pr[A = y] <= r·Pr[B = y] for every "
                "point y ⇒ Pr[A ∈ T] <= r·Pr[B ∈ T] for every event T"
            )
        proofs.append(
            proof_evidence(
                part, sympy.Max(*gaps), 0, variables, domain_text=domain,
                assuming=(*laws, *hypotheses), timeout=TIMEOUT,
            )
        )
    if mutant in (None, "heavy_events_only"):
        if mutant == "heavy_events_only":
            hypotheses = [
                sympy.Le(sympy.Min(probability_of(p, T) - sympy.Rational(1, 10), gap), 0)
                for T, gap in zip(every_event, gaps, strict=True)
            ]
            part = "max over points <= max over the events with Pr[A ∈ T] > 1/10 (mutant)"
        else:
            hypotheses = [sympy.Le(gap, 0) for gap in gaps]
            part = (
                "max over points <= max over events: Pr[A ∈ T] <= r·Pr[B ∈ T] for every "
                "event T ⇒ Pr[A = y] <= r·Pr[B = y] for every point y"
            )
        proofs.append(
            proof_evidence(
                part, sympy.Max(*points), 0, variables, domain_text=domain,
                assuming=(*laws, *hypotheses), timeout=TIMEOUT,
            )
        )
    return proofs


_EVENT = (sympy.Symbol("a", real=True), sympy.Symbol("b", real=True))
"""a = Pr[A ∈ T], b = Pr[B ∈ T] for one event T (1 - a, 1 - b: its complement)."""

_EVENT_DOMAIN = (
    "every pair of distributions A, B on any output space, every event T (a = Pr[A ∈ T], "
    "b = Pr[B ∈ T] in [0, 1]) and every ε >= 0"
)


def _closeness(*, two_sided: bool) -> list[sympy.Rel]:
    """§1.2's condition Pr[A ∈ S] <= e^ε Pr[B ∈ S] on S = T and its complement (and with A, B
    exchanged when ``two_sided``: ε-DP)."""
    a, b = _EVENT
    w = sympy.exp(EPSILON)
    hypotheses = [sympy.Le(a, w * b), sympy.Le(1 - a, w * (1 - b))]
    if two_sided:
        hypotheses += [sympy.Le(b, w * a), sympy.Le(1 - b, w * (1 - a))]
    return hypotheses


def _event_variables(epsilon: sympy.Interval) -> dict[sympy.Symbol, sympy.Interval]:
    a, b = _EVENT
    return {a: UNIT, b: UNIT, EPSILON: epsilon}


def statistical_difference_proofs(mutant: str | None, *, search: CheckContext | None = None
                                  ) -> list[Evidence]:
    """ε-DP ⇒ SD <= tanh(ε/2), one-sided ⇒ SD <= 1 - e^-ε, and the random row's 1/(10n)."""
    a, b = _EVENT
    gap = sympy.Abs(a - b)
    variables = _event_variables(sympy.Interval(0, sympy.oo))
    proofs = []
    if mutant in (None, "tanh_third"):
        third = mutant == "tanh_third"
        bound = tanh_half(2 * EPSILON / 3) if third else tanh_half(EPSILON)
        part = (
            "ε-DP ⇒ |Pr[A ∈ T] - Pr[B ∈ T]| <= tanh(ε/3) (mutant)"
            if third
            else "ε-DP ⇒ SD <= tanh(ε/2): |Pr[A ∈ T] - Pr[B ∈ T]| <= (e^ε - 1)/(e^ε + 1) for "
            "every event T"
        )
        proofs.append(
            proof_evidence(
                part, gap, bound, variables, domain_text=_EVENT_DOMAIN,
                assuming=_closeness(two_sided=True), timeout=TIMEOUT,
            )
        )
    if mutant in (None, "one_sided_tanh"):
        tanh = mutant == "one_sided_tanh"
        part = (
            "the one-sided condition ⇒ |Pr[A ∈ T] - Pr[B ∈ T]| <= tanh(ε/2) (mutant)"
            if tanh
            else "the one-sided condition of §1.2 ⇒ SD <= 1 - e^-ε: |Pr[A ∈ T] - Pr[B ∈ T]| "
            "<= 1 - e^-ε for every event T"
        )
        proofs.append(
            proof_evidence(
                part, gap, tanh_half(EPSILON) if tanh else 1 - sympy.exp(-EPSILON), variables,
                domain_text=_EVENT_DOMAIN, assuming=_closeness(two_sided=False),
                timeout=TIMEOUT,
            )
        )
    if mutant in (None, "one_over_20n", "one_over_9n"):
        proofs.extend(_random_row_proofs(mutant, search))
    return proofs


def _random_row_proofs(mutant: str | None, search: CheckContext | None = None) -> list[Evidence]:
    """SD between neighbours of "release a random row w.p. 1/10" is 1/(10n), for every n."""
    n, c, d = (sympy.Symbol(name, real=True) for name in ("n", "c", "d"))
    # M(x): ⊥ w.p. 9/10, a value held by k rows w.p. k/(10n).  x' changes one row from the
    # value u (held by c rows of x) to v (held by d rows of x); the others hold n - c - d.
    before = (sympy.Rational(9, 10), c / (10 * n), d / (10 * n), (n - c - d) / (10 * n))
    after = (sympy.Rational(9, 10), (c - 1) / (10 * n), (d + 1) / (10 * n), (n - c - d) / (10 * n))
    distance = sympy.Max(
        *(
            sympy.Abs(probability_of(before, T) - probability_of(after, T))
            for T in events(len(before), empty=True)
        )
    )
    variables = {n: sympy.Interval(1, sympy.oo), c: sympy.Interval(1, sympy.oo),
                 d: sympy.Interval(0, sympy.oo)}
    assuming = (sympy.Le(c + d, n),)
    domain = (
        "every n >= 1 and every neighbour pair (the changed row's old value held by c >= 1 "
        "rows, its new value by d >= 0 other rows, c + d <= n)"
    )
    share = 1 / (10 * n)
    proofs = []
    if mutant in (None, "one_over_20n"):
        bound = 1 / (20 * n) if mutant else share
        part = (
            "random row: SD(M(x), M(x')) <= 1/(20n) (mutant)"
            if mutant
            else "random row: SD(M(x), M(x')) = max_T |Pr[M(x) ∈ T] - Pr[M(x') ∈ T]| <= 1/(10n)"
        )
        proofs.extend(
            searched_proof_evidence(search, part, distance, bound, variables,
                                    domain_text=domain, assuming=assuming, timeout=TIMEOUT)
        )
    if mutant in (None, "one_over_9n"):
        lower = 1 / (9 * n) if mutant else share
        part = (
            "random row: SD(M(x), M(x')) >= 1/(9n) (mutant)"
            if mutant
            else "random row: SD(M(x), M(x')) >= 1/(10n)"
        )
        proofs.extend(
            searched_proof_evidence(search, part, lower, distance, variables,
                                    domain_text=domain, assuming=assuming, timeout=TIMEOUT)
        )
    return proofs


def statistical_difference_strengthenings() -> list[Evidence]:
    """The bounds made stronger: run through the engines (refuted = sharp there)."""
    a, b = _EVENT
    gap = sympy.Abs(a - b)
    positive = _event_variables(sympy.Interval.open(0, sympy.oo))
    domain = _EVENT_DOMAIN.replace("ε >= 0", "ε > 0")
    return [
        strengthening_evidence(
            "tanh_shrunk", "ε-DP ⇒ SD <= (99/100)·tanh(ε/2)", gap,
            sympy.Rational(99, 100) * tanh_half(EPSILON), positive, domain_text=domain,
            assuming=_closeness(two_sided=True), timeout=TIMEOUT,
        ),
        strengthening_evidence(
            "tanh_strict", "ε-DP ⇒ SD < tanh(ε/2) for ε > 0", gap, tanh_half(EPSILON),
            positive, domain_text=domain, assuming=_closeness(two_sided=True), strict=True,
            timeout=TIMEOUT,
        ),
        strengthening_evidence(
            "one_sided_strict", "the one-sided condition ⇒ SD < 1 - e^-ε for ε > 0", gap,
            1 - sympy.exp(-EPSILON), positive, domain_text=domain,
            assuming=_closeness(two_sided=False), strict=True, timeout=TIMEOUT,
        ),
    ]


_HYBRID_DOMAIN = (
    "every mechanism on any output space, every database x of n rows, every event T (a_j = "
    "Pr[M(x^(j)) ∈ T] in [0, 1] along the hybrid path from x^(0) = 0^n to x^(n) = x) and "
    "every ε >= 0"
)


def case_1_proofs(mutant: str | None, *, search: CheckContext | None = None) -> list[Evidence]:
    """The hybrid argument by induction on the path's length, and its 0.1 corollary."""
    n = sympy.Symbol("n", real=True)
    a_0, a_1, a_n, a_next = (
        sympy.Symbol(name, real=True) for name in ("a_0", "a_1", "a_n", "a_n+1")
    )
    nonnegative = sympy.Interval(0, sympy.oo)
    proofs = []
    if mutant in (None, "n_minus_one"):
        factor = 0 if mutant else 1
        proofs.append(
            proof_evidence(
                "hybrid argument, base n = 1: (n-1)·ε (mutant)" if mutant
                else "hybrid argument, base n = 1: |a_0 - a_1| <= ε ⇒ |a_0 - a_1| <= 1·ε",
                sympy.Abs(a_0 - a_1), factor * EPSILON,
                {a_0: UNIT, a_1: UNIT, EPSILON: nonnegative},
                domain_text=_HYBRID_DOMAIN + "; n = 1 (the induction's base)",
                assuming=(sympy.Le(sympy.Abs(a_0 - a_1), EPSILON),), timeout=TIMEOUT,
            )
        )
    if mutant is None:
        proofs.append(
            proof_evidence(
                "hybrid argument, step n → n + 1: |a_0 - a_n| <= nε and |a_n - a_{n+1}| <= ε "
                "(neighbour SD <= ε) ⇒ |a_0 - a_{n+1}| <= (n+1)ε",
                sympy.Abs(a_0 - a_next), (n + 1) * EPSILON,
                {a_0: UNIT, a_n: UNIT, a_next: UNIT, n: sympy.Interval(1, sympy.oo),
                 EPSILON: nonnegative},
                domain_text=_HYBRID_DOMAIN + "; every n >= 1 (the induction's step n → n + 1, "
                "for every real n >= 1)",
                assuming=(sympy.Le(sympy.Abs(a_0 - a_n), n * EPSILON),
                          sympy.Le(sympy.Abs(a_n - a_next), EPSILON)),
                timeout=TIMEOUT,
            )
        )
    if mutant in (None, "strictly_below", "one_over_9n"):
        scale = 9 if mutant == "one_over_9n" else 10
        part = {
            "strictly_below": "ε <= 1/(10n) ⇒ SD(M(x), M(0^n)) < 0.1 (mutant)",
            "one_over_9n": "ε <= 1/(9n) ⇒ SD(M(x), M(0^n)) <= 0.1 (mutant)",
        }.get(mutant or "", "ε <= 1/(10n) ⇒ SD(M(x), M(0^n)) <= 0.1 (from the hybrid bound nε)")
        proofs.extend(
            searched_proof_evidence(
                search, part, sympy.Abs(a_0 - a_n), sympy.Rational(1, 10),
                {a_0: UNIT, a_n: UNIT, n: sympy.Interval(1, sympy.oo), EPSILON: nonnegative},
                domain_text=_HYBRID_DOMAIN + "; every real n >= 1",
                assuming=(sympy.Le(sympy.Abs(a_0 - a_n), n * EPSILON),
                          sympy.Le(EPSILON, 1 / (scale * n))),
                strict=mutant == "strictly_below", timeout=TIMEOUT,
            )
        )
    return proofs


def case_1_strengthenings() -> list[Evidence]:
    """The hybrid bound made stronger on a path of two steps (refuted = sharp there)."""
    a = [sympy.Symbol(f"a_{j}", real=True) for j in range(3)]
    variables = {**{value: UNIT for value in a}, EPSILON: sympy.Interval.open(0, sympy.oo)}
    steps = tuple(sympy.Le(sympy.Abs(a[j] - a[j + 1]), EPSILON) for j in range(2))
    domain = _HYBRID_DOMAIN.replace("ε >= 0", "ε > 0") + "; n = 2"
    return [
        strengthening_evidence(
            "hybrid_strict", "SD(M(x), M(0^n)) < nε for ε > 0", sympy.Abs(a[0] - a[2]),
            2 * EPSILON, variables, domain_text=domain, assuming=steps, strict=True,
            timeout=TIMEOUT,
        ),
        strengthening_evidence(
            "hybrid_shrunk", "SD(M(x), M(0^n)) <= (99/100)·nε", sympy.Abs(a[0] - a[2]),
            sympy.Rational(99, 100) * 2 * EPSILON, variables, domain_text=domain,
            assuming=steps, timeout=TIMEOUT,
        ),
    ]
