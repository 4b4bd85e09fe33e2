"""``bldp.independent_leakage`` and ``bldp.non_participation``: the poster's two scenarios.

Ligett, Peale, Reingold, *Bounded-Leakage Differential Privacy*, Scenario 1 (2020 Census:
independent leakage preserves the DP bounds, and the converse fails) and Scenario 2
(non-participation: the formulas were lost, so the model is defined explicitly in
:mod:`exactpml.bldp.scenarios` and the loss is bounded by the participation count).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import partial
from typing import Any, cast

import sympy
from hypothesis import strategies as st

from exactpml import Distribution, LogValue, Mechanism
from exactpml import strategies as xst
from exactpml.bldp import (
    BoundedLeakageModel,
    bldp_delta,
    bldp_epsilon,
    bldp_epsilon_by_leakage,
    census_exact_counts,
    dp_delta,
    dp_epsilon,
    identity_leakage,
    independent_leakage,
    non_participation,
)
from proofs_check import (
    CheckContext,
    Evidence,
    check,
    property_holds,
    sharpness_evidence,
    strengthening_evidence,
    witness_evidence,
)
from proofs_check.claims._draws import samples
from proofs_check.claims.bldp._common import MODELS, RATIOS, explain, pinned
from proofs_check.claims.bldp._proofs import (
    EPSILON,
    TIMEOUT,
    UNIT,
    epsilon_factor,
    hockey_stick_sum,
)
from proofs_check.reference.bldp import (
    conditionals,
    dp_conditionals,
    model_delta,
    model_epsilon,
    neighbour_pairs,
    non_participation_by_definition,
)
from proofs_check.small_scope import Layer, SmallScope

__all__ = ["independent_leakage_check", "non_participation_check"]


_RECORDS_AND_LETTERS = st.sampled_from([(1, 2), (1, 3), (2, 2)])
"""(records, letters) of the databases (built once: the draws are the same)."""


@st.composite
def _independent_instances(draw: st.DrawFn, *, dependent: bool) -> tuple[Any, ...]:
    if dependent:
        return draw(MODELS), draw(RATIOS)
    records = draw(_RECORDS_AND_LETTERS)
    databases = list(itertools.product(range(records[1]), repeat=records[0]))
    mechanism = draw(xst.mechanisms(inputs=databases, outputs=list(range(draw(st.integers(1, 3))))))
    values = list(range(draw(st.integers(1, 3))))
    if draw(st.booleans()):
        leakage: Any = draw(xst.mechanisms(inputs=databases, outputs=values))
    else:
        table = dict(
            zip(
                databases,
                draw(samples(values, len(databases))),
                strict=True,
            )
        )
        leakage = Mechanism.deterministic(table.__getitem__, databases, name="leakage")
    return independent_leakage(mechanism, leakage), draw(RATIOS)


@check(
    "bldp.independent_leakage",
    mutants={
        "converse": "(ε,δ)-BLDP ⇒ (ε,δ)-DP for independent leakage",
        "dependent_leakage": "(ε,δ)-DP ⇒ (ε,δ)-BLDP for any leakage (independence dropped)",
        "always_equal": "for independent leakage the BLDP parameters always equal the DP "
        "parameters (the sharing condition dropped: 'preserves the same bounds' as equality)",
        "census_per_person": "the census count keeps ε = 2·log(1/α) (one log(1/α) per person "
        "counted)",
    },
    strengthenings={
        "strictly_below_dp": "for independent leakage the BLDP δ at a shared leakage value is < "
        "the DP δ whenever the latter is > 0 (<= made strict)",
    },
)
def independent_leakage_check(ctx: CheckContext) -> list[Evidence]:
    """bldp.independent_leakage — poster, Scenario 1 (2020 Census, "exact counts").

    Statement: if M(x,·) ⊥ P(x,·) for every x, then (ε,δ)-DP ⇒ (ε,δ)-BLDP w.r.t. P (the
    poster's "preserves the same bounds").  Exactly: the BLDP parameters are the DP
    parameters maximised over the neighbouring pairs that share a leakage value of positive
    probability, so they are at most the DP parameters, with equality when every
    neighbouring pair shares one; the converse fails.

    P: on random mechanisms and leakages (a random kernel or a function of x, realised with
    independent randomness by exactpml's ``independent_leakage``) and e^ε: M ⊥ P holds on
    the tables; δ_BLDP(ε) = max over sharing pairs of the pair's DP δ ≤ δ_DP(ε), ε likewise,
    with equality when every pair shares (definition on the raw tables).
    W: the census scenario (2 people, records (group, attribute), truncated geometric count of
    attribute 1 with α = 1/2, exact group counts leaked) keeps exactly the DP bounds:
    ε = log 2 (α = e^{-ε}, Ghosh-Roughgarden-Sundararajan) and δ(0) the same; and the
    converse fails: M(x) = P(x) = x is vacuously (0,0)-BLDP and not ε-DP for any ε.
    P: the census scenario over its parameters (1 or 2 people; α in {1/2, 2/3}, then random
    α in (0, 1)): exactpml's BLDP and DP ε and the definition's on the raw
    tables are all log(1/α), and the four δ(ε = 0) agree.
    """
    dependent = ctx.mutant == "dependent_leakage"

    def holds(instance: tuple[BoundedLeakageModel, Fraction]) -> bool:
        model, ratio = instance
        laws, plain = conditionals(model), dp_conditionals(model)
        pairs = neighbour_pairs(model)
        bldp, dp = model_delta(laws, pairs, ratio), model_delta(plain, pairs, ratio)
        bldp_eps, dp_eps = model_epsilon(laws, pairs), model_epsilon(plain, pairs)
        if ctx.mutant == "converse":
            return bool(dp <= bldp and dp_eps <= bldp_eps)
        if dependent:
            return bool(bldp <= dp and bldp_eps <= dp_eps)
        if any(law != plain[x][None] for x in laws for law in laws[x].values()):
            return False  # M's law given P = o must be its law: M ⊥ P
        sharing = [(x, y) for x, y in pairs if set(laws[x]) & set(laws[y])]
        if bldp != model_delta(plain, sharing, ratio) or bldp_eps != model_epsilon(plain, sharing):
            return False
        if not (bldp <= dp and bldp_eps <= dp_eps):
            return False
        if ctx.mutant == "always_equal":
            return bldp == dp and bldp_eps == dp_eps
        return len(sharing) < len(pairs) or (bldp == dp and bldp_eps == dp_eps)

    instances: list[tuple[str, Any]] = [
        (
            "M = x with noise 1/4, leakage = x (no neighbouring pair shares), e^ε = 1",
            (_noisy_identity(leak_x=True), Fraction(1)),
        ),
        (
            "M = x with noise 1/4, independent fair-bit leakage, e^ε = 2",
            (_noisy_identity(leak_x=False), Fraction(2)),
        ),
    ]
    if dependent:
        # The mutant quantifies over every leakage, so its domain holds the one-time pad:
        # M = x XOR r is (0, 0)-DP, and leaking the pad r makes it reveal x.
        pad = ("M = x XOR r, leakage = r (the pad), e^ε = 1", (_one_time_pad(), Fraction(1)))
        instances.append(pad)
    regime = pinned(
        instances,
        holds,
        describe="M ⊥ P ⇒ BLDP = DP over the pairs sharing a leakage value ≤ DP",
        explain=explain,
    )
    if regime.passed is False and not ctx.search_only:  # a search-alone run needs the search
        return [regime]  # the random instances would only repeat it, more slowly
    census, witness = _census_witness(ctx.mutant)
    return [
        regime,
        property_holds(
            ctx,
            _independent_instances(dependent=dependent),
            holds,
            describe="M ⊥ P ⇒ BLDP = DP over the pairs sharing a leakage value ≤ DP",
            explain=explain,
        ),
        witness,
        sharpness_evidence(
            "BLDP parameters ≤ DP parameters (independent leakage)",
            attained=census,
            on="the census scenario (exact group counts leaked, α = 1/2): ε = log 2 and δ(0) "
            "as for DP; equality holds exactly when every neighbouring pair shares a leakage "
            "value of positive probability (checked on every random instance)",
            sharpest=None if census else "not attained on the census scenario",
        ),
        *(_independent_strengthenings() if ctx.mutant is None else ()),
        property_holds(
            ctx,
            st.tuples(
                st.integers(1, 2),
                xst.fractions(min_value=0, max_value=1, max_denominator=20).filter(
                    lambda alpha: 0 < alpha < 1
                ),
            ),
            lambda instance: not _census_failures(*instance, ctx.mutant),
            describe="the census scenario for 1 or 2 people and any α in (0, 1): BLDP ε = DP ε "
            "= log(1/α) and BLDP δ(0) = DP δ(0), exactpml and the definition on the raw tables",
            explain=lambda instance: "; ".join(_census_failures(*instance, ctx.mutant)),
            examples=ctx.fewer_examples(40, at_least=3, at_most=20),
            small_scope=CENSUS_SCOPE,
        ),
    ]


CENSUS_SCOPE = SmallScope(
    "the scenario's parameters (people, α): 1 and 2 people, α in {1/2, 2/3}",
    [
        Layer(
            f"{size} {'person' if size == 1 else 'people'}",
            2,
            partial(lambda size: [(size, Fraction(1, 2)), (size, Fraction(2, 3))], size),
        )
        for size in (1, 2)
    ],
)
"""Scenario 1 holds for any population and noise level α = e^-ε: its smallest ones."""


def _census_failures(size: int, alpha: Fraction, mutant: str | None) -> list[str]:
    """The census scenario with ``size`` people and noise α: exactpml's BLDP and DP ε and
    the definition's (raw tables) are log(1/α) (size·log(1/α) under ``census_per_person``),
    and the four δ(ε = 0) agree."""
    census = census_exact_counts(size, alpha)
    laws, plain, pairs = conditionals(census), dp_conditionals(census), neighbour_pairs(census)
    expected = LogValue((1 / alpha) ** (size if mutant == "census_per_person" else 1))
    epsilons = (
        bldp_epsilon(census).epsilon,
        dp_epsilon(census).epsilon,
        model_epsilon(laws, pairs),
        model_epsilon(plain, pairs),
    )
    zero = LogValue(1)
    deltas = {
        bldp_delta(census, zero).delta,
        dp_delta(census, zero).delta,
        model_delta(laws, pairs, Fraction(1)),
        model_delta(plain, pairs, Fraction(1)),
    }
    shown = f"{size} people, α = {alpha}"
    failures = []
    if any(epsilon != expected for epsilon in epsilons):
        failures.append(f"{shown}: ε (BLDP, DP, definition's BLDP, DP) {epsilons} ≠ {expected}")
    if len(deltas) != 1:
        failures.append(f"{shown}: the δ(ε = 0) differ: {sorted(deltas)}")
    return failures


def _independent_strengthenings() -> list[Evidence]:
    """M ⊥ P: the law of M given P = o is M's law (J(m, o) = μ(m) ν(o), divided by ν(o)), so
    the BLDP δ at a shared o equals the pair's DP δ: strict is refuted (sharp)."""
    mu, other, nu, nu_other = (
        sympy.Symbol(name, real=True) for name in ("mu", "mu_prime", "nu", "nu_prime")
    )
    first, second = (mu, 1 - mu), (other, 1 - other)
    w = epsilon_factor()
    conditional = tuple(value * nu / nu for value in first)
    conditional_other = tuple(value * nu_other / nu_other for value in second)
    dp = hockey_stick_sum(first, second, w)
    return [
        strengthening_evidence(
            "strictly_below_dp", "BLDP δ at o < DP δ when the latter is > 0",
            hockey_stick_sum(conditional, conditional_other, w), dp,
            {mu: UNIT, other: UNIT, nu: sympy.Interval.Lopen(0, 1),
             nu_other: sympy.Interval.Lopen(0, 1), EPSILON: sympy.Interval(0, sympy.oo)},
            domain_text="every pair of neighbours with M(x) ⊥ P(x) on 2 outputs (laws μ, μ'), "
            "every leakage value o of probability ν, ν' > 0 under both and every ε >= 0",
            assuming=(sympy.Gt(dp, 0),), strict=True, timeout=TIMEOUT,
        )
    ]


def _one_time_pad() -> BoundedLeakageModel:
    """One bit, r a fair bit; M = x XOR r is perfectly private, the leakage is r itself."""
    return BoundedLeakageModel(
        Distribution({r: Fraction(1, 2) for r in (0, 1)}),
        lambda x, r: x[0] ^ r,
        lambda x, r: r,
        databases=[(0,), (1,)],
    )


def _noisy_identity(*, leak_x: bool) -> BoundedLeakageModel:
    """One bit; M = x w.p. 3/4, else 1 - x (R uniform on 0..3), leakage x or a fair bit
    independent of M (R's parity is not what M reads: M flips iff R = 0)."""
    return BoundedLeakageModel(
        Distribution({(r, b): Fraction(1, 8) for r in range(4) for b in (0, 1)}),
        lambda x, r: x[0] ^ int(r[0] == 0),
        (lambda x, r: x[0]) if leak_x else (lambda x, r: r[1]),
        databases=[(0,), (1,)],
    )


def _census_witness(mutant: str | None) -> tuple[bool, Evidence]:
    census = census_exact_counts(2, Fraction(1, 2))
    vacuous = identity_leakage()
    zero = LogValue(1)
    laws, plain = conditionals(census), dp_conditionals(census)
    pairs = neighbour_pairs(census)
    facts = {
        "census ε (BLDP)": bldp_epsilon(census).epsilon,
        "census ε (DP)": dp_epsilon(census).epsilon,
        "census ε (reference, BLDP and DP)": (
            model_epsilon(laws, pairs),
            model_epsilon(plain, pairs),
        ),
        "census δ(ε = 0) (BLDP)": bldp_delta(census, zero).delta,
        "census δ(ε = 0) (DP)": dp_delta(census, zero).delta,
        "census δ(ε = 0) (reference, BLDP and DP)": (
            model_delta(laws, pairs, Fraction(1)),
            model_delta(plain, pairs, Fraction(1)),
        ),
        "identity leakage ε (BLDP)": bldp_epsilon(vacuous).epsilon,
        "identity leakage ε (DP)": dp_epsilon(vacuous).epsilon,
    }
    expected = LogValue(4) if mutant == "census_per_person" else LogValue(2)
    attained = facts["census ε (BLDP)"] == facts["census ε (DP)"] == expected and facts[
        "census ε (reference, BLDP and DP)"
    ] == (expected, expected)
    same_delta = (
        facts["census δ(ε = 0) (BLDP)"]
        == facts["census δ(ε = 0) (DP)"]
        == facts["census δ(ε = 0) (reference, BLDP and DP)"][0]  # type: ignore[index]
        == facts["census δ(ε = 0) (reference, BLDP and DP)"][1]  # type: ignore[index]
    )
    verified = (
        attained
        and same_delta
        and facts["identity leakage ε (BLDP)"] == zero
        and facts["identity leakage ε (DP)"] == LogValue.infinity()
    )
    shown = {k: str(v) for k, v in facts.items()}
    return attained and same_delta, witness_evidence(
        "census exact counts keep the DP bounds (ε = log 2 for α = 1/2); M = P = x is "
        "(0,0)-BLDP but not DP (the converse fails)"
        if mutant != "census_per_person"
        else "census exact counts keep ε = 2·log 2 (mutant)",
        verified,
        values=shown,
        counterexample=None if verified else str(shown),
    )


def _non_participation_facts(
    population: int,
    studies: int,
    alpha: Fraction,
    designs: list[tuple[frozenset[int], ...]] | None,
    mutant: str | None,
) -> tuple[bool, dict[str, object]]:
    """One scenario instance: exactpml's model has the definition's laws, and exactpml's ε
    given each leakage value m, the reference's and m·log(1/α) (a mutant's exponent) agree,
    as do the DP ε's and k·log(1/α).  (Whether all held, the facts by name.)"""
    facts: dict[str, object] = {}
    name = f"population {population}, k = {studies}, α = {alpha}" + (
        "" if designs is None else f", {len(designs)} designs"
    )
    model = non_participation(population, studies, alpha, designs=designs)
    by_leakage = bldp_epsilon_by_leakage(model)
    laws, pairs = non_participation_by_definition(population, studies, alpha, designs=designs)
    same_model = conditionals(model) == laws
    facts[f"{name}: exactpml's model has the definition's laws"] = same_model
    verified = same_model
    values = sorted({cast(int, o) for x in laws for o in laws[x]})
    if set(by_leakage) != set(values):
        verified = False
        facts[f"{name}: leakage values (exactpml, reference)"] = f"{set(by_leakage)}, {values}"
    for m in values:
        sub = [(x, y) for x, y in pairs if m in laws[x] and m in laws[y]]
        reference = model_epsilon(laws, sub)
        exponent = {
            "number_of_studies": studies,
            "off_by_one": m + 1,
            "m_minus_one": m - 1,
        }.get(mutant or "", m)
        claimed = LogValue((1 / alpha) ** exponent)
        value = by_leakage.get(m)
        facts[f"{name}: ε given m = {m} (exactpml, reference)"] = f"{value}, {reference}"
        verified = verified and value == reference == claimed
    dp, dp_reference = dp_epsilon(model).epsilon, model_epsilon(laws, pairs)
    facts[f"{name}: DP ε (exactpml, reference)"] = f"{dp}, {dp_reference}"
    verified = verified and dp == dp_reference == LogValue((1 / alpha) ** studies)
    return verified, facts


_SCENARIO_SIZES = ((1, 1), (1, 2), (1, 3), (2, 1), (2, 2))
"""(population, studies) of the random scenarios: every design of each costs < 0.06 s."""
_SCENARIO_ALPHAS = xst.fractions(
    min_value=Fraction(1, 20), max_value=Fraction(19, 20), max_denominator=20
)


@check(
    "bldp.non_participation",
    mutants={
        "number_of_studies": "given the participation bound m the loss is still k·ε (the number "
        "of studies), as for DP",
        "off_by_one": "given the participation bound m the loss is (m+1)·ε",
        "m_minus_one": "given the participation bound m the loss is (m-1)·ε (the first study free)",
    },
    strengthenings={
        "loss_shrunk": "given the participation bound m the loss is at most (m - 1/2)·ε (the "
        "constant shrunk; m = 2 of k = 3 studies)",
    },
)
def non_participation_check(ctx: CheckContext) -> list[Evidence]:
    """bldp.non_participation — poster, Scenario 2 (non-participation).

    The poster's formulas were lost; the model checked is the one ``CLAIMS.md`` asks for and
    exactpml defines (:func:`exactpml.bldp.non_participation`): a population of people with
    bits v_j and a design (A_1, ..., A_k) of k studies, both part of the database; study ℓ
    releases the number of its participants with v = 1 plus truncated geometric noise with
    α = e^{-ε} (ε-DP on its participants), independently across studies; neighbours change
    one bit and keep the design; the leakage is the largest number of studies any one person
    joined.  Statement checked: given leakage m the privacy loss is m·ε, whatever the number
    k of studies, whereas DP is k·ε (some design puts one person in every study).

    P: random scenarios (population <= 2, k <= 3 studies, every design, α in (0, 1) with
       denominator <= 20; 10 at --quick, 15 otherwise): the same comparisons as below.
    W: on 4 instances at --quick, 6 by default (population, k, α; every design, or a few
    chosen ones, each set of designs with one person in all k studies): (2, 2, 1/2),
    (2, 3, 1/2), (1, 3, 1/3), (3, 2, 2/3) with 4 designs, then (2, 4, 1/3) with 3 designs
    and (3, 3, 3/4) with 3 designs: the model built from the definition alone
    (:func:`~proofs_check.reference.bldp.non_participation_by_definition`: products of
    truncated geometric laws, the leakage a function of the design) has exactly the
    conditional laws of exactpml's model; exactpml's smallest ε given each leakage value m,
    the reference's (the poster's constraint over the pairs sharing m, on the reference
    model) and m·log(1/α) are equal; exactpml's DP ε, the reference's and k·log(1/α) too.
    """
    facts: dict[str, object] = {}
    verified = True
    instances = _NON_PARTICIPATION[: 4 if ctx.profile == "quick" else None]
    for population, studies, alpha, designs in instances:
        held, found = _non_participation_facts(population, studies, alpha, designs, ctx.mutant)
        facts.update(found)
        verified = verified and held
    shown = {name: str(value) for name, value in facts.items()}
    ranges = (
        f"{len(instances)} instances, population {min(i[0] for i in instances)}-"
        f"{max(i[0] for i in instances)}, k = {min(i[1] for i in instances)}-"
        f"{max(i[1] for i in instances)} studies, α from {min(i[2] for i in instances)} to "
        f"{max(i[2] for i in instances)}"
    )
    random_scenarios = property_holds(
        ctx,
        st.tuples(st.sampled_from(_SCENARIO_SIZES), _SCENARIO_ALPHAS),
        lambda instance: _non_participation_facts(
            *instance[0], instance[1], None, ctx.mutant
        )[0],
        describe="random scenarios (population <= 2, k <= 3 studies, every design, α in "
        "(0, 1) with denominator <= 20): exactpml's model = the definition's, ε given m = "
        "m·log(1/α) for every m, DP ε = k·log(1/α), exactpml = reference",
        explain=lambda instance: str(
            _non_participation_facts(*instance[0], instance[1], None, ctx.mutant)[1]
        ),
        examples=min(ctx.examples, 10 if ctx.profile == "quick" else 15),
        small_scope=False,
    )
    return [
        random_scenarios,
        sharpness_evidence(
            "loss ≤ m·ε given the participation bound m",
            attained=verified,
            on=f"{ranges}: given m the loss is exactly m·log(1/α), for every m",
            sharpest=None if verified else "not attained",
        ),
        witness_evidence(
            f"the model ({ranges}): given "
            "participation bound m the loss is m·log(1/α) whatever k, DP is k·log(1/α); "
            "exactpml's measures on its model = the reference's on the model written from "
            "the definition (proofs_check.reference.bldp) = the formula",
            verified,
            values=shown,
            counterexample=None if verified else str(shown),
        ),
        *(_non_participation_strengthenings() if ctx.mutant is None else ()),
    ]


_F = frozenset
_NON_PARTICIPATION: tuple[
    tuple[int, int, Fraction, list[tuple[frozenset[int], ...]] | None], ...
] = (
    (2, 2, Fraction(1, 2), None),
    (2, 3, Fraction(1, 2), None),
    (1, 3, Fraction(1, 3), None),
    (3, 2, Fraction(2, 3), [(_F({0}), _F({1})), (_F({0, 1, 2}), _F({0, 1, 2})),
                            (_F({0, 2}), _F({2})), (_F(), _F({1}))]),
    (2, 4, Fraction(1, 3), [(_F({0}), _F({0}), _F({1}), _F({0, 1})), (_F({0, 1}),) * 4,
                            (_F({1}), _F(), _F({0}), _F())]),
    (3, 3, Fraction(3, 4), [(_F({0}), _F({1}), _F({2})), (_F({0, 1}), _F({1, 2}), _F({0, 2})),
                            (_F({0, 1, 2}), _F({0}), _F({0, 1}))]),
)
"""(population, studies, α, designs or None for every design); the first 4 at --quick.
Each set of designs has one person in all k studies (so DP is k·log(1/α)) and leakage
values 0 to k in between."""


def _non_participation_strengthenings() -> list[Evidence]:
    """Studies run independently: at a point of the three studies' outputs, a_j, b_j its
    probabilities under neighbours x, x'; the person joined studies 1 and 2 (ε-DP: a_j <=
    e^ε b_j) and not study 3 (a_3 = b_3).  A loss of (3/2)ε is refuted (sharp)."""
    a = [sympy.Symbol(f"a_{j}", real=True) for j in (1, 2, 3)]
    b = [sympy.Symbol(f"b_{j}", real=True) for j in (1, 2, 3)]
    w = epsilon_factor()
    return [
        strengthening_evidence(
            "loss_shrunk", "given m = 2 the loss is at most (3/2)·ε", a[0] * a[1] * a[2],
            sympy.exp(3 * EPSILON / 2) * b[0] * b[1] * b[2],
            {**{value: UNIT for value in (*a, *b)}, EPSILON: sympy.Interval(0, sympy.oo)},
            domain_text="every point of k = 3 independent studies' outputs (a_j, b_j its "
            "probabilities under neighbours), m = 2 studies joined, every ε >= 0",
            assuming=(sympy.Le(a[0], w * b[0]), sympy.Le(a[1], w * b[1]), sympy.Eq(a[2], b[2])),
            timeout=TIMEOUT,
        )
    ]
