"""Claims of Ligett, Peale, Reingold, *Bounded-Leakage Differential Privacy* (ids ``bldp.*``).

The poster (seed ``003_76c741995741c13c.txt``) states its properties without proofs, some
only as "analogous to standard differential privacy"; CLAIMS.md, section ``bldp.``, says
which precise statements are checked.  The library under test is :mod:`exactpml.bldp`; the
reference values come from :mod:`proofs_check.claims._bldp_reference` (the definition
evaluated on the raw tables) or from hand derivations in the docstrings.  Every value is
exact; ε is given as ``LogValue(r)`` (e^ε = r rational).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, cast

from hypothesis import strategies as st

from exactpml import Distribution, LogValue, Mechanism
from exactpml import strategies as xst
from exactpml.bldp import (
    BoundedLeakageModel,
    bldp_delta,
    bldp_epsilon,
    bldp_epsilon_by_leakage,
    census_exact_counts,
    component,
    compose,
    composition_precondition,
    dp_delta,
    dp_epsilon,
    group_privacy_bound,
    group_privacy_violations,
    identity_leakage,
    independent_leakage,
    is_bldp,
    non_participation,
    parity_leakage_group_privacy,
    post_process,
    release_leakage,
    shared_randomness_composition,
    single_leakage_composition,
)
from proofs_check import (
    CheckContext,
    Evidence,
    check,
    exact_instances,
    exact_repr,
    property_holds,
    witness_evidence,
)
from proofs_check.claims._bldp_reference import (
    Conditional,
    conditionals,
    describe_model,
    dp_conditionals,
    model_delta,
    model_epsilon,
    neighbour_pairs,
    pairs_within,
    path_within,
)

RATIOS = st.one_of(st.just(Fraction(1)), st.fractions(min_value=1, max_value=4, max_denominator=6))
"""e^ε for the properties: ε = 0 often, else e^ε a rational in [1, 4]."""

DELTAS = st.fractions(min_value=0, max_value=1, max_denominator=12)


def _models(databases: Sequence[Hashable] | None = None) -> st.SearchStrategy[BoundedLeakageModel]:
    """exactpml's random models, half of them on uniform randomness with 2 to 4 values (where
    the coupling of M and P through r, which the mutants exploit, shows most often)."""
    uniform = st.integers(2, 4).map(lambda n: Distribution({r: Fraction(1, n) for r in range(n)}))
    return st.one_of(
        xst.bounded_leakage_models(databases=databases, max_randomness=4),
        uniform.flatmap(lambda r: xst.bounded_leakage_models(databases=databases, randomness=r)),
    )


MODELS = _models()


def _smaller(ctx: CheckContext, divisor: int) -> int:
    return max(10, ctx.examples // divisor)


def _explain(instance: Any) -> str:
    """Every model in the instance, with its exact tables; the other parts as they are."""
    parts = instance if isinstance(instance, tuple) else (instance,)
    shown = []
    for part in parts:
        if isinstance(part, BoundedLeakageModel):
            shown.append(describe_model(part))
        else:
            shown.append(repr(part) if not isinstance(part, Fraction) else str(part))
    return " | ".join(shown)


# --- bldp.definition --------------------------------------------------------------------------


def _flip_model(leak: Any) -> BoundedLeakageModel:
    """R uniform on 0..5, M(x, r) = x XOR [r ∈ {0, 3}] on one bit, leakage ``leak(r)``."""
    uniform = Distribution({r: Fraction(1, 6) for r in range(6)})
    return BoundedLeakageModel(
        uniform,
        lambda x, r: x[0] ^ int(r in (0, 3)),
        lambda x, r: leak(r),
        databases=[(0,), (1,)],
    )


def _definition_instances() -> list[tuple[str, object, object]]:
    """Hand-derived values (one bit x, neighbours (0,) ~ (1,)).

    * half-leak: R uniform on 0..5, M = x XOR [r ∈ {0,3}], P = [r ≥ 3].  Given either leakage
      value M keeps x w.p. 2/3: laws (2/3, 1/3) vs (1/3, 2/3), so ε = log 2, δ(ε=0) = 1/3,
      δ(e^ε = 3/2) = 2/3 - (3/2)(1/3) = 1/6; as DP (leakage ignored) the same numbers.
    * flip-revealing: same M, P = [r = 0].  Given P = 1, M = 1 - x: ε = oo and δ = 1 at every
      ε; given P = 0 it flips w.p. 1/5 (ratio 4).  As DP: ε = log 2, δ(e^ε = 3/2) = 1/6.
    * one-time pad (R a fair bit, M = x XOR r, P = r): ε = oo; as DP ε = 0 (M is uniform).
    * identity leakage (M = P = x): no neighbouring pair shares a leakage value: vacuously
      (0, 0)-BLDP.
    """
    half = _flip_model(lambda r: int(r >= 3))
    reveal = _flip_model(lambda r: int(r == 0))
    bit = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})
    pad = BoundedLeakageModel(bit, lambda x, r: x[0] ^ r, lambda x, r: r, databases=[(0,), (1,)])
    vacuous = identity_leakage()
    ratio = LogValue(Fraction(3, 2))
    return [
        ("half-leak: ε", bldp_epsilon(half).epsilon, LogValue(2)),
        ("half-leak: δ(ε = 0)", bldp_delta(half, LogValue(1)).delta, Fraction(1, 3)),
        ("half-leak: δ(e^ε = 3/2)", bldp_delta(half, ratio).delta, Fraction(1, 6)),
        ("half-leak: DP ε", dp_epsilon(half).epsilon, LogValue(2)),
        ("flip-revealing: ε", bldp_epsilon(reveal).epsilon, LogValue.infinity()),
        ("flip-revealing: δ(e^ε = 3/2)", bldp_delta(reveal, ratio).delta, Fraction(1)),
        ("flip-revealing: DP δ(e^ε = 3/2)", dp_delta(reveal, ratio).delta, Fraction(1, 6)),
        ("one-time pad: ε", bldp_epsilon(pad).epsilon, LogValue.infinity()),
        ("one-time pad: DP ε", dp_epsilon(pad).epsilon, LogValue(1)),
        ("identity leakage: ε", bldp_epsilon(vacuous).epsilon, LogValue(1)),
        ("identity leakage: δ(ε = 0)", bldp_delta(vacuous, LogValue(1)).delta, Fraction(0)),
    ]


@check(
    "bldp.definition",
    mutants={
        "ignore_leakage": "the BLDP parameters are the DP parameters whatever the leakage (the "
        "constant-leakage hypothesis dropped)",
    },
)
def definition(ctx: CheckContext) -> list[Evidence]:
    """bldp.definition — the poster's definition of (ε,δ)-BLDP.

    Statement: exactpml's smallest ε (δ = 0) and δ(ε) of finite models are exact; with a
    constant leakage BLDP is ordinary (ε,δ)-DP.

    E: four one-bit models with values derived by hand (see
    :func:`_definition_instances`): a leakage that keeps ε = log 2, one that reveals the
    flip (ε = oo, δ = 1), the one-time pad, and a vacuous identity leakage.
    P: on random models (databases of 1 or 2 records, |R| ≤ 4, arbitrary tables of M and
    P, leakage sometimes constant or a function of x) and e^ε: exactpml's δ(ε) and ε equal
    the definition evaluated over every set S on the raw tables; its witness (x, x', o, S)
    attains δ; ``is_bldp`` agrees with the definition at a random δ; and with the leakage
    made constant the values are the (ε,δ)-DP values of M alone (``dp_delta``,
    ``dp_epsilon``, and the definition of DP over sets).
    """

    def holds(instance: tuple[BoundedLeakageModel, Fraction, Fraction]) -> bool:
        model, ratio, delta = instance
        epsilon = LogValue(ratio)
        pairs = neighbour_pairs(model)
        laws = conditionals(model)
        expected = model_delta(laws, pairs, ratio, sets=True)
        result = bldp_delta(model, epsilon)
        if result.delta != expected or bldp_epsilon(model).epsilon != model_epsilon(
            laws, pairs, sets=True
        ):
            return False
        if result.witness is not None:
            (x, y), o, event = (
                result.witness.databases,
                result.witness.leakage,
                result.witness.event,
            )
            p, q = laws[x][o], laws[y][o]
            attained = sum((p.get(m, 0) - ratio * q.get(m, 0) for m in event or ()), Fraction(0))
            if attained != expected:
                return False
        if is_bldp(model, epsilon, delta) != (expected <= delta):
            return False
        plain = dp_conditionals(model)
        dp = model_delta(plain, pairs, ratio, sets=True)
        constant = model.without_leakage()
        if ctx.mutant == "ignore_leakage":
            return bool(bldp_delta(model, epsilon).delta == dp)
        return bldp_delta(constant, epsilon).delta == dp_delta(
            model, epsilon
        ).delta == dp and dp_epsilon(model).epsilon == model_epsilon(plain, pairs, sets=True)

    return [
        exact_instances(
            _definition_instances(), origin="derived by hand (the poster has no numbers)"
        ),
        property_holds(
            ctx,
            st.tuples(MODELS, RATIOS, DELTAS),
            holds,
            describe="exactpml's ε and δ(ε) = the definition over all sets; constant leakage = DP",
            explain=_explain,
        ),
    ]


# --- bldp.post_processing ---------------------------------------------------------------------


@st.composite
def _post_processing_instances(draw: st.DrawFn) -> tuple[Any, ...]:
    model = draw(MODELS)
    outputs = sorted({m for row in model.outputs.values() for m in row}, key=repr)
    results = list(range(draw(st.integers(1, 3))))
    kernel = draw(xst.mechanisms(inputs=outputs, outputs=results))
    cells = [(m, r) for m in outputs for r in model.randomness.outcomes]
    reading = dict(
        zip(
            cells,
            draw(st.lists(st.sampled_from(results), min_size=len(cells), max_size=len(cells))),
            strict=True,
        )
    )
    return model, kernel, reading, draw(RATIOS)


@check(
    "bldp.post_processing",
    mutants={
        "reads_randomness": "f may read M's randomness r (the independence hypothesis dropped)",
    },
)
def post_processing(ctx: CheckContext) -> list[Evidence]:
    """bldp.post_processing — poster, "Properties": post-processing.

    Statement: if M is (ε,δ)-BLDP w.r.t. P, then f∘M, where f has its own randomness
    independent of r, is (ε,δ)-BLDP w.r.t. the same P.

    P: on random models, random post-processing kernels f (realised by exactpml's
    ``post_process`` with finite randomness of its own) and e^ε: the definition on the raw
    tables of f∘M gives δ(ε) ≤ that of M and ε ≤ that of M; exactpml's values for f∘M equal
    the definition's.
    """

    def holds(instance: tuple[Any, ...]) -> bool:
        model, kernel, reading, ratio = instance
        if ctx.mutant == "reads_randomness":
            processed = BoundedLeakageModel(
                model.randomness,
                {
                    (x, r): reading[(m, r)]
                    for x in model.databases
                    for r, m in zip(model.randomness.outcomes, model.outputs[x], strict=True)
                },
                {
                    (x, r): o
                    for x in model.databases
                    for r, o in zip(model.randomness.outcomes, model.leakages[x], strict=True)
                },
                databases=model.databases,
            )
        else:
            processed = post_process(model, kernel)
        pairs = neighbour_pairs(model)
        before, after = conditionals(model), conditionals(processed)
        delta = model_delta(after, pairs, ratio)
        epsilon = model_epsilon(after, pairs)
        if bldp_delta(processed, LogValue(ratio)).delta != delta:
            return False
        if bldp_epsilon(processed).epsilon != epsilon:
            return False
        return delta <= model_delta(before, pairs, ratio) and epsilon <= model_epsilon(
            before, pairs
        )

    return [
        property_holds(
            ctx,
            _post_processing_instances(),
            holds,
            describe="f∘M (f's randomness independent of r) has δ(ε) and ε at most M's",
            explain=_explain,
        )
    ]


# --- bldp.composition -------------------------------------------------------------------------


@st.composite
def _composition_instances(draw: st.DrawFn, *, everything_shared: bool) -> tuple[Any, ...]:
    first = draw(MODELS)
    shared = True if everything_shared else draw(st.booleans())
    if shared and draw(st.booleans()):
        # M2 publishes the shared r (ignoring x: (0,0)-BLDP), like the one-time pad's key.
        second = BoundedLeakageModel(
            first.randomness, lambda x, r: r, lambda x, r: 0, databases=first.databases
        )
    else:
        second = draw(
            xst.bounded_leakage_models(databases=first.databases, randomness=first.randomness)
            if shared
            else _models(list(first.databases))
        )
    leakage = draw(st.sampled_from(["joint", "first", "second"]))
    return first, second, "shared" if shared else "independent", leakage, draw(RATIOS), draw(RATIOS)


def _independent_given_leakage(laws: Conditional) -> bool:
    """M1 ⊥ M2 given P = o, for every x and o (reference, from pair-valued outputs)."""
    for by_leakage in laws.values():
        for law in by_leakage.values():
            first: dict[Hashable, Fraction] = {}
            second: dict[Hashable, Fraction] = {}
            for pair, p in law.items():
                a, b = cast(tuple[Hashable, Hashable], pair)
                first[a] = first.get(a, Fraction(0)) + p
                second[b] = second.get(b, Fraction(0)) + p
            if any(
                law.get((a, b), Fraction(0)) != pa * pb
                for a, pa in first.items()
                for b, pb in second.items()
            ):
                return False
    return True


@check(
    "bldp.composition",
    mutants={
        "precondition_dropped": "(ε1+ε2, δ1+δ2) also when M1 and M2 share their randomness "
        "(conditional independence given the leakage dropped)",
        "max_instead_of_sum": "the pair is (ε1+ε2, max(δ1, δ2))-BLDP",
    },
)
def composition(ctx: CheckContext) -> list[Evidence]:
    """bldp.composition — poster, "Properties": composability "analogous to DP".

    Statement checked (the DP-analogous one, with the precondition found): let C = (M1, M2)
    run on one randomness space with leakage L.  If M1(x,·) and M2(x,·) are independent
    conditionally on L(x,·) = o for every x and possible o, then C is (ε1+ε2, δ1+δ2)-BLDP
    w.r.t. L, where (εj, δj) are Mj's parameters w.r.t. L.  The precondition holds for
    independent randomness R1 × R2 with the joint leakage (P1, P2); Mj's parameters w.r.t.
    (P1, P2) are then at most its parameters w.r.t. Pj alone.

    P: on random pairs of models (independent or shared randomness; leakage (P1, P2), P1 or
    P2) and e^ε1, e^ε2: whenever the precondition holds (reference check, which exactpml's
    ``composition_precondition`` must match), δ_C(ε1+ε2) ≤ δ_1(ε1) + δ_2(ε2) and
    ε_C ≤ ε_1 + ε_2 (definition on the raw tables); with independent randomness and the
    joint leakage the precondition holds and each component's parameters are at most its
    own w.r.t. its own leakage.
    W: where the precondition is dropped: the one-time pad (M1 = x XOR r, M2 = r, shared r,
    constant leakage) has two (0,0)-BLDP components whose pair has ε = oo and δ(ε) = 1;
    judged against P1 alone, M1 = r (constant P1) and M2 = x (P2 = x, vacuously (0,0)-BLDP)
    compose to ε = oo, while against (P1, P2) the pair is (0,0)-BLDP.
    """

    def holds(instance: tuple[Any, ...]) -> bool:
        first, second, randomness, leakage, r1, r2 = instance
        composed = compose(first, second, randomness=randomness, leakage=leakage)
        pairs = neighbour_pairs(composed)
        laws = conditionals(composed)
        precondition = _independent_given_leakage(laws)
        if composition_precondition(composed).holds != precondition:
            return False
        if randomness == "independent" and leakage == "joint":
            if not precondition:
                return False
            for index, own in enumerate((first, second)):
                part = conditionals(component(composed, index))
                mine = conditionals(own)
                ratio = (r1, r2)[index]
                if model_delta(part, pairs, ratio) > model_delta(mine, pairs, ratio):
                    return False
                if model_epsilon(part, pairs) > model_epsilon(mine, pairs):
                    return False
        if not precondition and ctx.mutant != "precondition_dropped":
            return True
        parts = [conditionals(component(composed, index)) for index in (0, 1)]
        d1, d2 = model_delta(parts[0], pairs, r1), model_delta(parts[1], pairs, r2)
        bound = max(d1, d2) if ctx.mutant == "max_instead_of_sum" else d1 + d2
        if model_delta(laws, pairs, r1 * r2) > bound:
            return False
        e1, e2 = model_epsilon(parts[0], pairs), model_epsilon(parts[1], pairs)
        return bool(model_epsilon(laws, pairs) <= e1 + e2)

    return [
        property_holds(
            ctx,
            _composition_instances(everything_shared=ctx.mutant == "precondition_dropped"),
            holds,
            describe="M1 ⊥ M2 given the leakage ⇒ (M1, M2) is (ε1+ε2, δ1+δ2)-BLDP",
            explain=_explain,
        ),
        _composition_witness(),
    ]


def _composition_witness() -> Evidence:
    pad1, pad2 = shared_randomness_composition()
    pad = compose(pad1, pad2, randomness="shared", leakage="joint")
    noise, reveal = single_leakage_composition()
    against_first = compose(noise, reveal, randomness="independent", leakage="first")
    against_both = compose(noise, reveal, randomness="independent", leakage="joint")
    zero = LogValue(1)
    infinite = LogValue.infinity()
    facts = {
        "pad: components ε": (bldp_epsilon(pad1).epsilon, bldp_epsilon(pad2).epsilon),
        "pad: pair ε": bldp_epsilon(pad).epsilon,
        "pad: pair δ(ε = 0)": bldp_delta(pad, zero).delta,
        "pad: precondition": composition_precondition(pad),
        "single leakage: M1 ε w.r.t. P1, M2 ε w.r.t. P2": (
            bldp_epsilon(noise).epsilon,
            bldp_epsilon(reveal).epsilon,
        ),
        "single leakage: pair ε w.r.t. P1": bldp_epsilon(against_first).epsilon,
        "single leakage: pair ε w.r.t. (P1, P2)": bldp_epsilon(against_both).epsilon,
    }
    verified = (
        facts["pad: components ε"] == (zero, zero)
        and facts["pad: pair ε"] == infinite
        and facts["pad: pair δ(ε = 0)"] == 1
        and not composition_precondition(pad).holds
        and facts["single leakage: M1 ε w.r.t. P1, M2 ε w.r.t. P2"] == (zero, zero)
        and facts["single leakage: pair ε w.r.t. P1"] == infinite
        and facts["single leakage: pair ε w.r.t. (P1, P2)"] == zero
    )
    shown = {
        name: ", ".join(map(str, value)) if isinstance(value, tuple) else str(value)
        for name, value in facts.items()
    }
    return witness_evidence(
        "dropping the precondition breaks composition: a one-time pad on shared randomness "
        "((0,0) + (0,0) gives ε = oo), and judging the pair against P1 alone",
        verified,
        values=shown,
        counterexample=None if verified else str(shown),
    )


# --- bldp.group_privacy -----------------------------------------------------------------------


@st.composite
def _group_instances(draw: st.DrawFn) -> tuple[Any, ...]:
    records = draw(st.sampled_from([2, 3]))
    databases = list(itertools.product((0, 1), repeat=records))
    if draw(st.booleans()):
        model = draw(_models(databases))
    else:  # a noisy count: M(x, r) = Σx + g(r), leakage h(r); DP-like, so k matters
        size = draw(st.integers(2, 4))
        noise = draw(st.lists(st.integers(0, 1), min_size=size, max_size=size))
        leaks = draw(st.lists(st.integers(0, 1), min_size=size, max_size=size))
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


@check(
    "bldp.group_privacy",
    mutants={
        "without_path_precondition": "group privacy holds without the path precondition",
        "no_group_factor": "databases at distance k are (kε, δ)-close (the factor "
        "k·e^{(k-1)ε} dropped)",
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

    P: on random models on 2 or 3 one-bit records, k from 2 to the number of records, and
    e^ε: whenever the precondition holds (reference search, matching exactpml's
    ``group_privacy_violations``), the definition at distance ≤ k gives
    δ_k(kε) ≤ k e^{(k-1)ε} δ_1(ε) and ε_k ≤ k ε_1; exactpml's distance-k δ equals the
    definition's.
    W: without the precondition it fails completely: two bits, M(x) = x, P = parity; every
    neighbouring pair has different leakage (vacuously (0,0)-BLDP), but (0,0) and (1,1) at
    distance 2 share the leakage 0 and are told apart: δ_2 = 1 > 2·e^ε·0 at every ε.
    """

    def holds(instance: tuple[BoundedLeakageModel, int, Fraction]) -> bool:
        model, k, ratio = instance
        laws = conditionals(model)
        precondition = _path_precondition(model, laws, k)
        if (not group_privacy_violations(model, k)) != precondition:
            return False
        near, far = neighbour_pairs(model), pairs_within(model, k)
        group = model_delta(laws, far, ratio**k)
        if bldp_delta(model, LogValue(ratio**k), distance=k).delta != group:
            return False
        if not precondition and ctx.mutant != "without_path_precondition":
            return True
        delta = model_delta(laws, near, ratio)
        _, bound = group_privacy_bound(LogValue(ratio), delta, k)
        if ctx.mutant == "no_group_factor":
            bound = delta
        return bool(group <= bound and model_epsilon(laws, far) <= model_epsilon(laws, near) * k)

    return [
        property_holds(
            ctx,
            _group_instances(),
            holds,
            describe="path precondition ⇒ distance-k pairs are (kε, k e^{(k-1)ε} δ)-close",
            explain=_explain,
        ),
        _group_witness(),
    ]


def _group_witness() -> Evidence:
    model = parity_leakage_group_privacy()
    ratios = (Fraction(1), Fraction(2), Fraction(5))
    single = [bldp_delta(model, LogValue(r)).delta for r in ratios]
    pairs = [bldp_delta(model, LogValue(r * r), distance=2).delta for r in ratios]
    violations = group_privacy_violations(model, 2)
    verified = (
        bldp_epsilon(model).epsilon == LogValue(1)
        and all(d == 0 for d in single)
        and all(d == 1 for d in pairs)
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


# --- bldp.leak_release ------------------------------------------------------------------------


@check(
    "bldp.leak_release",
    mutants={
        "dp_kept": "releasing the leakage keeps the (ε,δ)-DP parameters of M (leakage not "
        "conditioned on)",
    },
)
def leak_release(ctx: CheckContext) -> list[Evidence]:
    """bldp.leak_release — poster, "Properties": explicitly leaking P does not affect BLDP.

    Statement: M'(x, r) = (M(x, r), P(x, r)) has the same BLDP parameters w.r.t. P as M.

    P: on random models and e^ε: the definition on the raw tables gives the same δ(ε) and ε
    for (M, P) as for M (given P = o the second coordinate is the constant o), and exactpml's
    ``release_leakage`` values equal them.
    """

    def holds(instance: tuple[BoundedLeakageModel, Fraction]) -> bool:
        model, ratio = instance
        released = release_leakage(model)
        pairs = neighbour_pairs(model)
        if ctx.mutant == "dp_kept":
            return bool(
                model_delta(dp_conditionals(released), pairs, ratio)
                == model_delta(dp_conditionals(model), pairs, ratio)
            )
        before, after = conditionals(model), conditionals(released)
        delta = model_delta(after, pairs, ratio)
        return (
            delta
            == model_delta(before, pairs, ratio)
            == bldp_delta(released, LogValue(ratio)).delta
            and model_epsilon(after, pairs)
            == model_epsilon(before, pairs)
            == bldp_epsilon(released).epsilon
        )

    return [
        property_holds(
            ctx,
            st.tuples(MODELS, RATIOS),
            holds,
            describe="(M, P) has the BLDP parameters of M",
            explain=_explain,
        )
    ]


# --- bldp.independent_leakage -----------------------------------------------------------------


@st.composite
def _independent_instances(draw: st.DrawFn, *, dependent: bool) -> tuple[Any, ...]:
    if dependent:
        return draw(MODELS), draw(RATIOS)
    records = draw(st.sampled_from([(1, 2), (1, 3), (2, 2)]))
    databases = list(itertools.product(range(records[1]), repeat=records[0]))
    mechanism = draw(xst.mechanisms(inputs=databases, outputs=list(range(draw(st.integers(1, 3))))))
    values = list(range(draw(st.integers(1, 3))))
    if draw(st.booleans()):
        leakage: Any = draw(xst.mechanisms(inputs=databases, outputs=values))
    else:
        table = dict(
            zip(
                databases,
                draw(
                    st.lists(
                        st.sampled_from(values), min_size=len(databases), max_size=len(databases)
                    )
                ),
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
        return len(sharing) < len(pairs) or (bldp == dp and bldp_eps == dp_eps)

    return [
        property_holds(
            ctx,
            _independent_instances(dependent=dependent),
            holds,
            describe="M ⊥ P ⇒ BLDP = DP over the pairs sharing a leakage value ≤ DP",
            explain=_explain,
        ),
        _census_witness(),
    ]


def _census_witness() -> Evidence:
    census = census_exact_counts(2, Fraction(1, 2))
    vacuous = identity_leakage()
    zero = LogValue(1)
    facts = {
        "census ε (BLDP)": bldp_epsilon(census).epsilon,
        "census ε (DP)": dp_epsilon(census).epsilon,
        "census δ(ε = 0) (BLDP)": bldp_delta(census, zero).delta,
        "census δ(ε = 0) (DP)": dp_delta(census, zero).delta,
        "identity leakage ε (BLDP)": bldp_epsilon(vacuous).epsilon,
        "identity leakage ε (DP)": dp_epsilon(vacuous).epsilon,
    }
    verified = (
        facts["census ε (BLDP)"] == facts["census ε (DP)"] == LogValue(2)
        and facts["census δ(ε = 0) (BLDP)"] == facts["census δ(ε = 0) (DP)"]
        and facts["identity leakage ε (BLDP)"] == zero
        and facts["identity leakage ε (DP)"] == LogValue.infinity()
    )
    return witness_evidence(
        "census exact counts keep the DP bounds (ε = log 2 for α = 1/2); M = P = x is "
        "(0,0)-BLDP but not DP (the converse fails)",
        verified,
        values=facts,
        counterexample=None if verified else str({k: str(v) for k, v in facts.items()}),
    )


# --- bldp.non_participation -------------------------------------------------------------------


@check(
    "bldp.non_participation",
    mutants={
        "number_of_studies": "given the participation bound m the loss is still k·ε (the number "
        "of studies), as for DP",
    },
)
def non_participation_check(ctx: CheckContext) -> list[Evidence]:
    """bldp.non_participation — poster, Scenario 2 (non-participation).

    The poster's formulas were lost; the model checked is the one exactpml defines
    (:func:`exactpml.bldp.non_participation`): a population of people with bits v_j and a
    design (A_1, ..., A_k) of k studies, both part of the database; study ℓ releases the
    number of its participants with v = 1 plus truncated geometric noise with α = e^{-ε}
    (ε-DP on its participants), independently across studies; neighbours change one bit and
    keep the design; the leakage is the largest number of studies any one person joined.
    Statement checked: given leakage m the privacy loss is m·ε, whatever the number k of
    studies, whereas DP over all designs is k·ε.

    W: population 2, α = 1/2 (ε = log 2), every design of k = 2 and of k = 3 studies:
    exactpml's smallest ε given each leakage value m is log 2^m exactly (the same for
    k = 2 and 3), the definition on the raw tables agrees, and the DP ε is log 2^k.
    """
    facts: dict[str, object] = {}
    verified = True
    for studies in (2, 3):
        model = non_participation(2, studies, Fraction(1, 2))
        by_leakage = bldp_epsilon_by_leakage(model)
        laws = conditionals(model)
        pairs = neighbour_pairs(model)
        for leak, value in sorted(by_leakage.items(), key=repr):
            m = cast(int, leak)
            sub = [(x, y) for x, y in pairs if m in laws[x] and m in laws[y]]
            only: Conditional = {x: {m: laws[x][m]} for x in laws if m in laws[x]}
            reference = model_epsilon(only, sub)
            claimed = LogValue(2**studies) if ctx.mutant == "number_of_studies" else LogValue(2**m)
            facts[f"k = {studies}: ε given m = {m}"] = value
            verified = verified and value == reference == claimed
        dp = dp_epsilon(model).epsilon
        facts[f"k = {studies}: DP ε"] = dp
        verified = verified and dp == LogValue(2**studies)
    shown = {name: str(value) for name, value in facts.items()}
    return [
        witness_evidence(
            "exactpml's model (the poster's formulas were lost): k = 2, 3 studies on 2 people, "
            "α = 1/2; given participation bound m the loss is m·log 2 for both k, DP is "
            "k·log 2",
            verified,
            values=shown,
            counterexample=None if verified else str(shown),
        )
    ]
