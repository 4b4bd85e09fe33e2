"""``bldp.group_privacy``: group privacy of BLDP and when it holds.

Ligett, Peale, Reingold, *Bounded-Leakage Differential Privacy*, Properties (group privacy,
"analogous to DP"): (kε, k·e^{(k-1)ε}·δ) for databases at distance k when a path of
neighbours keeps the leakage value possible; a counterexample where it does not.  The chain
argument gives the sharper Σ_{j<k} e^{jε}·δ, which a count-based chain attains exactly
(:func:`chain_model`), so the generators reach the regime where the two bounds differ.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import sympy
from hypothesis import strategies as st

from exactpml import Distribution, LogValue
from exactpml import strategies as xst
from exactpml.bldp import (
    BoundedLeakageModel,
    bldp_delta,
    bldp_epsilon,
    group_privacy_bound,
    group_privacy_violations,
    parity_leakage_group_privacy,
)
from proofs_check import (
    CheckContext,
    Evidence,
    check,
    exact_repr,
    proof_evidence,
    property_holds,
    sharpness_evidence,
    strengthening_evidence,
    witness_evidence,
)
from proofs_check.claims._draws import sized_lists
from proofs_check.claims.bldp._common import RATIOS, explain, models, pinned
from proofs_check.claims.bldp._proofs import DELTA, EPSILON, TIMEOUT, UNIT, epsilon_factor
from proofs_check.reference.bldp import (
    Conditional,
    conditionals,
    model_delta,
    model_epsilon,
    neighbour_pairs,
    pairs_within,
    path_within,
)

__all__ = ["chain_model", "group_privacy"]


def geometric_sum(ratio: Fraction, k: int) -> Fraction:
    """Σ_{j<k} ratio^j."""
    return sum((ratio**j for j in range(k)), Fraction(0))


def chain_model(
    records: int, ratio: Fraction, delta: Fraction, *, leak: bool
) -> BoundedLeakageModel:
    """A count chain attaining the sharp group-privacy bound Σ_{j<k} e^{jε} δ.

    Databases {0, 1}^records, c = Σx; M(x, R) = "a" iff R < records - c, with
    P[R = j] = δ e^{jε} for j < records (and the rest on R = records), so
    P[M = a | c] = δ Σ_{j < records-c} e^{jε}: each neighbour step c → c+1 has
    P_c(a) - e^ε P_{c+1}(a) = δ, and the pair at distance k has P_c(a) - e^{kε} P_{c+k}(a) =
    δ Σ_{j<k} e^{jε}.  The other output b adds nothing to the neighbours' δ when
    δ (Σ_{j<m} e^{jε} + Σ_{j<m-1} e^{jε}) ≤ 1 (derived by hand; :func:`chain_delta_bound`).
    The leakage is constant, or (``leak``) an independent fair bit: BLDP is then DP.
    """
    weights = {j: delta * ratio**j for j in range(records)}
    weights[records] = 1 - sum(weights.values(), Fraction(0))
    bits = (0, 1) if leak else (0,)
    randomness = Distribution(
        {(j, bit): w / len(bits) for j, w in weights.items() for bit in bits if w}
    )
    return BoundedLeakageModel(
        randomness,
        lambda x, r: "a" if r[0] < records - sum(x) else "b",
        lambda x, r: r[1],
        databases=list(itertools.product((0, 1), repeat=records)),
    )


def chain_delta_bound(records: int, ratio: Fraction) -> Fraction:
    """The largest δ for which :func:`chain_model`'s neighbours have δ exactly."""
    return 1 / (geometric_sum(ratio, records) + geometric_sum(ratio, records - 1))


_SHARES = xst.fractions(min_value=0, max_value=1, max_denominator=8).filter(lambda v: v > 0)
"""The share of the chain's bound a δ takes, in (0, 1]: built once (the draws are the same)."""


_RECORDS = st.sampled_from([2, 3])
_KINDS = st.sampled_from(["model", "noisy count", "chain"])
_BITS = st.integers(0, 1)


@st.composite
def _chains(draw: st.DrawFn) -> tuple[Any, ...]:
    records = draw(_RECORDS)
    ratio = draw(RATIOS)
    share = draw(_SHARES)
    delta = share * chain_delta_bound(records, ratio)
    model = chain_model(records, ratio, delta, leak=draw(st.booleans()))
    return model, draw(st.integers(2, records)), ratio


@st.composite
def _group_instances(draw: st.DrawFn) -> tuple[Any, ...]:
    kind = draw(_KINDS)
    if kind == "chain":
        return draw(_chains())
    records = draw(_RECORDS)
    databases = list(itertools.product((0, 1), repeat=records))
    if kind == "model":
        model = draw(models(databases))
    else:  # a noisy count: M(x, r) = Σx + g(r), leakage h(r); DP-like, so k matters
        size = draw(st.integers(2, 4))
        noise = draw(sized_lists(_BITS, size))
        leaks = draw(sized_lists(_BITS, size))
        model = BoundedLeakageModel(
            Distribution({r: Fraction(1, size) for r in range(size)}),
            lambda x, r: sum(x) + noise[r],
            lambda x, r: leaks[r],
            databases=databases,
        )
    k = draw(st.integers(2, records))
    return model, k, draw(RATIOS)


def _path_precondition(model: BoundedLeakageModel, laws: Conditional, k: int) -> bool:
    """Every x, x' within distance k sharing a possible o are joined by ≤ k steps through
    databases under which o is possible."""
    return all(
        path_within(model, laws, x, y, o, k)
        for x, y in pairs_within(model, k)
        for o in laws[x]
        if o in laws[y]
    )


def _bound(mutant: str | None, ratio: Fraction, delta: Fraction, k: int) -> Fraction:
    """The group δ claimed at distance k (the poster's k e^{(k-1)ε} δ, or a mutant's)."""
    if mutant == "no_group_factor":
        return delta
    if mutant == "k_delta":
        return k * delta
    if mutant == "k_minus_2":
        return k * ratio ** (k - 2) * delta
    return k * ratio ** (k - 1) * delta


def _holds(instance: tuple[BoundedLeakageModel, int, Fraction], mutant: str | None) -> bool:
    model, k, ratio = instance
    laws = conditionals(model)
    precondition = _path_precondition(model, laws, k)
    if (not group_privacy_violations(model, k)) != precondition:
        return False
    near, far = neighbour_pairs(model), pairs_within(model, k)
    group = model_delta(laws, far, ratio**k)
    if bldp_delta(model, LogValue(ratio**k), distance=k).delta != group:
        return False
    if not precondition and mutant != "without_path_precondition":
        return True
    delta = model_delta(laws, near, ratio)
    epsilon_k, delta_k = group_privacy_bound(LogValue(ratio), delta, k)
    if epsilon_k != LogValue(ratio**k) or delta_k != k * ratio ** (k - 1) * delta:
        return False  # exactpml's bound is the poster's formula
    if not group <= geometric_sum(ratio, k) * delta:  # the chain argument (sharper)
        return False
    return bool(
        group <= _bound(mutant, ratio, delta, k)
        and model_epsilon(laws, far) <= model_epsilon(laws, near) * k
    )


@check(
    "bldp.group_privacy",
    mutants={
        "without_path_precondition": "group privacy holds without the path precondition",
        "no_group_factor": "databases at distance k are (kε, δ)-close (the factor "
        "k·e^{(k-1)ε} dropped)",
        "k_delta": "databases at distance k are (kε, k·δ)-close (the factor e^{(k-1)ε} dropped)",
        "k_minus_2": "databases at distance k are (kε, k·e^{(k-2)ε}·δ)-close (a plausible "
        "off-by-one in the exponent)",
    },
    strengthenings={
        "chain_sum": "databases at distance k are (kε, Σ_{j<k} e^{jε}·δ)-close (the factor "
        "k·e^{(k-1)ε} shrunk to the chain argument's sum; k = 3)",
        "chain_sum_shrunk": "databases at distance k are (kε, (99/100)·Σ_{j<k} e^{jε}·δ)-close "
        "(k = 3)",
    },
)
def group_privacy(ctx: CheckContext) -> list[Evidence]:
    """bldp.group_privacy — poster, "Properties": group privacy "analogous to DP".

    Statement checked (the DP-analogous one, with the precondition found): if M is
    (ε,δ)-BLDP w.r.t. P and, for all x, x' at graph distance ≤ k and every leakage value o
    possible under both, x and x' are joined by a path of at most k neighbour steps through
    databases under which o has positive probability, then for every such pair and o
    Pr[M(x) ∈ S | o] ≤ e^{kε} Pr[M(x') ∈ S | o] + k·e^{(k-1)ε}·δ.  (The chain argument of DP
    gives Σ_{j<k} e^{jε} δ, at most the stated bound.)

    P: on random models on 2 or 3 one-bit records, noisy counts and count chains
    (:func:`chain_model`, where the sharp bound is attained), k from 2 to the number of
    records, and e^ε: whenever the precondition holds (reference search, matching exactpml's
    ``group_privacy_violations``), the definition at distance ≤ k gives
    δ_k(kε) ≤ Σ_{j<k} e^{jε} δ_1(ε) ≤ k e^{(k-1)ε} δ_1(ε) and ε_k ≤ k ε_1; exactpml's
    distance-k δ equals the definition's and its ``group_privacy_bound`` is the poster's
    formula.  Pinned chains (3 records, e^ε = 2 and 3/2, k = 2, 3) make the regime certain.
    W: without the precondition it fails completely: two bits, M(x) = x, P = parity; every
    neighbouring pair has different leakage (vacuously (0,0)-BLDP), but (0,0) and (1,1) at
    distance 2 share the leakage 0 and are told apart: δ_2 = 1 > 2·e^ε·0 at every ε.
    Sharpness: k e^{(k-1)ε} δ is not attained for ε > 0; Σ_{j<k} e^{jε} δ is, by the chains.
    C (proved, z3; :func:`_group_privacy_proofs`): on one event S, with a_j = Pr[M(x_j) ∈ S |
    o] in [0, 1] along a path x_0 ~ x_1 ~ ... ~ x_k of neighbours under which o is possible
    (the precondition), BLDP gives a_j <= e^ε a_{j+1} + δ; for every k >= 1 by induction
    (base k = 1: the definition; the step k → k + 1 proved with u = e^{kε} >= 1 and
    G = Σ_{j<k} e^{jε} >= 0 as variables) a_0 <= e^{kε} a_k + Σ_{j<k} e^{jε} δ, and
    Σ_{j<k} e^{jε} <= k e^{(k-1)ε} (base 1 <= 1; step proved with u = e^{(k-1)ε} >= 1, every
    real k >= 1); and directly for k = 2, 3, 4, a_0 <= e^{kε} a_k + k e^{(k-1)ε} δ; every
    ε >= 0, δ in [0, 1].  Strengthenings (k = 3): the chain's sum is proved (not sharp: the
    finding above), 99/100 of it is refuted (sharp).
    """
    mutant = ctx.mutant
    proofs = _group_privacy_proofs(mutant)

    def holds(instance: tuple[BoundedLeakageModel, int, Fraction]) -> bool:
        return _holds(instance, mutant)

    chains = _pinned_chains()
    parity = (
        "parity leakage (no path through leakage 0), k = 2, e^ε = 2",
        (parity_leakage_group_privacy(), 2, Fraction(2)),
    )
    regime = pinned(
        [*((name, instance) for name, instance, _ in chains), parity],
        holds,
        describe="path precondition ⇒ distance-k pairs are (kε, k e^{(k-1)ε} δ)-close, on "
        "count chains where Σ_{j<k} e^{jε} δ is attained, and without it on parity leakage",
        explain=explain,
    )
    if regime.passed is False and not ctx.search_only:  # a search-alone run needs the search
        return [regime, *proofs]  # the random instances would only repeat it, more slowly
    return [
        regime,
        property_holds(
            ctx,
            _group_instances(),
            holds,
            describe="path precondition ⇒ distance-k pairs are (kε, Σ_{j<k} e^{jε} δ)-close, "
            "hence (kε, k e^{(k-1)ε} δ)-close",
            explain=explain,
        ),
        _group_witness(),
        *_sharpness(chains),
        *proofs,
        *(_group_privacy_strengthenings() if mutant is None else ()),
    ]


_PATH_DOMAIN = (
    "every path x_0 ~ x_1 ~ ... ~ x_k of neighbours under which the leakage value o is "
    "possible, every event S (a_j = Pr[M(x_j) ∈ S | o] in [0, 1]), every ε >= 0 and every "
    "δ in [0, 1]"
)


def _chain(k: int) -> tuple[list[sympy.Symbol], dict[Any, Any], tuple[sympy.Rel, ...]]:
    """a_0, ..., a_k with BLDP on each neighbour step: a_j <= e^ε a_{j+1} + δ."""
    a = [sympy.Symbol(f"a_{j}", real=True) for j in range(k + 1)]
    variables = {**{value: UNIT for value in a}, EPSILON: sympy.Interval(0, sympy.oo),
                 DELTA: UNIT}
    w = epsilon_factor()
    steps = tuple(sympy.Le(a[j], w * a[j + 1] + DELTA) for j in range(k))
    return a, variables, steps


def _group_privacy_proofs(mutant: str | None) -> list[Evidence]:
    """Group privacy with the path precondition (see the check's docstring)."""
    w = epsilon_factor()
    if mutant == "without_path_precondition":
        a, variables, _ = _chain(2)
        del variables[a[1]]
        return [
            proof_evidence(
                "distance 2 without a path through leakage o: a_0 <= e^{2ε} a_2 + 2e^ε δ "
                "(mutant: no BLDP step applies)",
                a[0], w**2 * a[2] + 2 * w * DELTA, variables,
                domain_text="every x_0, x_2 at distance 2 with o possible under both but under "
                "no database between them, every event S, every ε >= 0 and δ in [0, 1]",
                timeout=TIMEOUT,
            )
        ]
    if mutant is not None:
        factor = {"no_group_factor": 1, "k_delta": 2, "k_minus_2": 2}[mutant]
        a, variables, steps = _chain(2)
        return [
            proof_evidence(
                f"k = 2: a_0 <= e^{{2ε}} a_2 + {factor}δ (mutant {mutant})",
                a[0], w**2 * a[2] + factor * DELTA, variables,
                domain_text=_PATH_DOMAIN + "; k = 2", assuming=steps, timeout=TIMEOUT,
            )
        ]
    first, second, last = (sympy.Symbol(name, real=True) for name in ("a_0", "a_1", "a_k+1"))
    u, total, k = (sympy.Symbol(name, real=True) for name in ("u", "G", "k"))
    at_least_one = sympy.Interval(1, sympy.oo)
    nonnegative = sympy.Interval(0, sympy.oo)
    proofs = [
        proof_evidence(
            "chain argument, step k → k + 1: a_0 <= e^ε a_1 + δ and a_1 <= e^{kε} a_{k+1} + "
            "Σ_{j<k} e^{jε} δ ⇒ a_0 <= e^{(k+1)ε} a_{k+1} + Σ_{j<k+1} e^{jε} δ",
            first, w * u * last + (w * total + 1) * DELTA,
            {first: UNIT, second: UNIT, last: UNIT, u: at_least_one, total: nonnegative,
             EPSILON: nonnegative, DELTA: UNIT},
            domain_text=_PATH_DOMAIN + "; every k >= 1 (the induction's step, u = e^{kε} >= 1 "
            "and G = Σ_{j<k} e^{jε} >= 0 as variables; the base k = 1 is the definition)",
            assuming=(sympy.Le(first, w * second + DELTA),
                      sympy.Le(second, u * last + total * DELTA)),
            timeout=TIMEOUT,
        ),
        proof_evidence(
            "Σ_{j<k} e^{jε} <= k e^{(k-1)ε}, step k → k + 1: G <= k e^{(k-1)ε} ⇒ e^ε G + 1 <= "
            "(k+1) e^{kε}",
            w * total + 1, (k + 1) * w * u,
            {total: nonnegative, u: at_least_one, k: at_least_one, EPSILON: nonnegative},
            domain_text="every k >= 1 (the induction's step, u = e^{(k-1)ε} >= 1, every real "
            "k >= 1; the base k = 1 is 1 <= 1) and every ε >= 0",
            assuming=(sympy.Le(total, k * u),), timeout=TIMEOUT,
        ),
    ]
    for size in (2, 3, 4):
        a, variables, steps = _chain(size)
        proofs.append(
            proof_evidence(
                f"k = {size} directly: a_0 <= e^{{{size}ε}} a_{size} + {size}·e^{{{size - 1}ε}}·δ",
                a[0], w**size * a[size] + size * w ** (size - 1) * DELTA, variables,
                domain_text=_PATH_DOMAIN + f"; k = {size}", assuming=steps, timeout=TIMEOUT,
            )
        )
    return proofs


def _group_privacy_strengthenings() -> list[Evidence]:
    w = epsilon_factor()
    a, variables, steps = _chain(3)
    chain = (1 + w + w**2) * DELTA
    return [
        strengthening_evidence(
            "chain_sum", "a_0 <= e^{3ε} a_3 + (1 + e^ε + e^{2ε})·δ", a[0], w**3 * a[3] + chain,
            variables, domain_text=_PATH_DOMAIN + "; k = 3", assuming=steps, timeout=TIMEOUT,
        ),
        strengthening_evidence(
            "chain_sum_shrunk", "a_0 <= e^{3ε} a_3 + (99/100)(1 + e^ε + e^{2ε})·δ", a[0],
            w**3 * a[3] + sympy.Rational(99, 100) * chain, variables,
            domain_text=_PATH_DOMAIN + "; k = 3", assuming=steps, timeout=TIMEOUT,
        ),
    ]


def _pinned_chains() -> list[tuple[str, tuple[BoundedLeakageModel, int, Fraction], Fraction]]:
    result = []
    for ratio in (Fraction(2), Fraction(3, 2)):
        delta = chain_delta_bound(3, ratio) / 2
        model = chain_model(3, ratio, delta, leak=True)
        for k in (2, 3):
            name = f"count chain, 3 records, e^ε = {ratio}, δ = {delta}, k = {k}"
            result.append((name, (model, k, ratio), delta))
    return result


def _sharpness(
    chains: list[tuple[str, tuple[BoundedLeakageModel, int, Fraction], Fraction]],
) -> list[Evidence]:
    values: dict[str, object] = {}
    attained = poster = True
    for name, (model, k, ratio), delta in chains:
        laws = conditionals(model)
        one = model_delta(laws, neighbour_pairs(model), ratio)
        group = model_delta(laws, pairs_within(model, k), ratio**k)
        values[f"{name}: δ_1, δ_k, Σ_{{j<k}} e^{{jε}}δ, k e^{{(k-1)ε}}δ"] = exact_repr(
            (one, group, geometric_sum(ratio, k) * one, k * ratio ** (k - 1) * one)
        )
        attained = attained and one == delta and group == geometric_sum(ratio, k) * delta
        poster = poster and group < k * ratio ** (k - 1) * delta
    return [
        witness_evidence(
            "count chains attain Σ_{j<k} e^{jε} δ exactly at distance k (δ_1 = δ), strictly "
            "below the poster's k e^{(k-1)ε} δ",
            attained and poster,
            values=values,
            counterexample=None if attained and poster else str(values),
        ),
        sharpness_evidence(
            "k·e^{(k-1)ε}·δ (group privacy at distance k)",
            attained=False,
            on="the count chains (3 records, e^ε = 2 and 3/2, k = 2, 3) and every random "
            "instance: equal to the sharp form only at ε = 0",
            sharpest="Σ_{j<k} e^{jε}·δ = δ(e^{kε} - 1)/(e^ε - 1), attained exactly by the "
            "count chains (P[M = a | Σx = c] = δ Σ_{j<3-c} e^{jε})",
            values={"sharp at k = 2, e^ε = 2": "3δ", "poster at k = 2, e^ε = 2": "4δ"},
        ),
    ]


def _group_witness() -> Evidence:
    model = parity_leakage_group_privacy()
    ratios = (Fraction(1), Fraction(2), Fraction(5))
    single = [bldp_delta(model, LogValue(r)).delta for r in ratios]
    pairs = [bldp_delta(model, LogValue(r * r), distance=2).delta for r in ratios]
    violations = group_privacy_violations(model, 2)
    laws = conditionals(model)
    reference_single = [model_delta(laws, neighbour_pairs(model), r) for r in ratios]
    reference_pairs = [model_delta(laws, pairs_within(model, 2), r * r) for r in ratios]
    verified = (
        bldp_epsilon(model).epsilon == LogValue(1)
        and single == reference_single
        and pairs == reference_pairs
        and all(d == 0 for d in reference_single)
        and all(d == 1 for d in reference_pairs)
        and any(
            set(v.databases) == {(0, 0), (1, 1)} and v.leakage_distance is None for v in violations
        )
    )
    return witness_evidence(
        "the path precondition is needed: two bits, M(x) = x, P = parity: (0,0)-BLDP, yet "
        "(0,0) and (1,1) (distance 2, same leakage 0, no path through leakage 0) have δ = 1",
        verified,
        values={
            "ε (neighbours)": bldp_epsilon(model).epsilon,
            "δ (neighbours) at e^ε = 1, 2, 5": exact_repr(single),
            "δ (distance 2) at e^{2ε} = 1, 4, 25": exact_repr(pairs),
            "violations": str([(v.databases, v.leakage) for v in violations]),
        },
        counterexample=None if verified else f"δ1 = {single}, δ2 = {pairs}, {violations}",
    )
