"""``bldp.post_processing`` and ``bldp.leak_release``: what may be done with a BLDP release.

Ligett, Peale, Reingold, *Bounded-Leakage Differential Privacy*, Properties (post-processing)
and the explicit release of the leakage: f∘M, with f's randomness independent of r, keeps
(ε, δ)-BLDP w.r.t. the same P, and releasing (M(x, r), P(x, r)) keeps M's parameters.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import sympy
from hypothesis import strategies as st

from exactpml import Distribution, LogValue, Mechanism
from exactpml import strategies as xst
from exactpml.bldp import (
    BoundedLeakageModel,
    bldp_delta,
    bldp_epsilon,
    identity_leakage,
    post_process,
    release_leakage,
)
from proofs_check import (
    CheckContext,
    Evidence,
    check,
    proof_evidence,
    property_holds,
    sharpness_evidence,
    strengthening_evidence,
)
from proofs_check.claims._draws import samples
from proofs_check.claims.bldp._common import MODELS, RATIOS, explain, pinned
from proofs_check.claims.bldp._proofs import (
    EPSILON,
    TIMEOUT,
    UNIT,
    epsilon_factor,
    hockey_stick_sum,
    law_symbols,
)
from proofs_check.reference.bldp import (
    Conditional,
    conditionals,
    dp_conditionals,
    model_delta,
    model_epsilon,
    neighbour_pairs,
)

__all__ = ["leak_release", "post_processing"]


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
            draw(samples(results, len(cells))),
            strict=True,
        )
    )
    return model, kernel, reading, draw(RATIOS)


def _post_processed_laws(laws: Conditional, kernel: Mechanism) -> Conditional:
    """The reference's law of f(M) given P = o: Σ_m P[M = m | o] f(z | m) (f's randomness
    independent of r, from the definition)."""
    result: Conditional = {}
    for x, by_leakage in laws.items():
        result[x] = {}
        for o, law in by_leakage.items():
            row: dict[Hashable, Fraction] = {}
            for m, p in law.items():
                for z in kernel.outputs:
                    q = Fraction(kernel.probability(m, z))
                    if p and q:
                        row[z] = row.get(z, Fraction(0)) + p * q
            result[x][o] = row
    return result


def _reading(model: BoundedLeakageModel, value: Any) -> BoundedLeakageModel:
    """f∘M where f reads (M(x, r), r, x) through ``value``: a map that sees more than M's output."""
    outcomes = model.randomness.outcomes
    return BoundedLeakageModel(
        model.randomness,
        {
            (x, r): value(m, r, x)
            for x in model.databases
            for r, m in zip(outcomes, model.outputs[x], strict=True)
        },
        {
            (x, r): o
            for x in model.databases
            for r, o in zip(outcomes, model.leakages[x], strict=True)
        },
        databases=model.databases,
    )


def _is_permutation(kernel: Mechanism) -> bool:
    rows = [[Fraction(kernel.probability(m, z)) for z in kernel.outputs] for m in kernel.inputs]
    images = [row.index(Fraction(1)) for row in rows if Fraction(1) in row]
    return len(images) == len(rows) and len(set(images)) == len(rows)


def _post_holds(instance: tuple[Any, ...], mutant: str | None) -> bool:
    model, kernel, reading, ratio = instance
    before = conditionals(model)
    if mutant == "reads_randomness":
        processed = _reading(model, lambda m, r, x: reading[(m, r)])
        expected = conditionals(processed)
    elif mutant == "reads_database":
        processed = _reading(model, lambda m, r, x: (reading[(m, r)], x))
        expected = conditionals(processed)
    else:
        processed = post_process(model, kernel)
        expected = _post_processed_laws(before, kernel)
    pairs = neighbour_pairs(model)
    after = conditionals(processed)
    if after != expected:
        return False  # exactpml's f∘M is the definition's
    delta = model_delta(after, pairs, ratio)
    epsilon = model_epsilon(after, pairs)
    if bldp_delta(processed, LogValue(ratio)).delta != delta:
        return False
    if bldp_epsilon(processed).epsilon != epsilon:
        return False
    original = model_delta(before, pairs, ratio)
    if mutant == "non_injective_strict" and original > 0 and not _is_permutation(kernel):
        return delta < original
    return delta <= original and epsilon <= model_epsilon(before, pairs)


def _merging_model() -> BoundedLeakageModel:
    """One bit, R uniform on 0..3, constant leakage: M(0, ·) = 0, 0, 1, 2 and M(1, ·) = 1, 1,
    2, 2: laws (1/2, 1/4, 1/4) and (0, 1/2, 1/2), δ(ε = 0) = 1/2 in both directions."""
    table = {(0,): (0, 0, 1, 2), (1,): (1, 1, 2, 2)}
    return BoundedLeakageModel(
        Distribution({r: Fraction(1, 4) for r in range(4)}),
        lambda x, r: table[x][r],
        lambda x, r: 0,
        databases=[(0,), (1,)],
    )


def _pinned_post() -> list[tuple[str, tuple[Any, ...]]]:
    model = _merging_model()
    merge = Mechanism({0: {"0": 1}, 1: {"12": 1}, 2: {"12": 1}})
    identity = Mechanism({m: {m: 1} for m in (0, 1, 2)})
    # f reading r (or x) tells x apart: 1 iff m is what x = (0,) would output with this r
    reveal = {(m, r): int(m == (0, 0, 1, 2)[r]) for m in (0, 1, 2) for r in range(4)}
    return [
        (f"{name}, e^ε = {ratio}", (model, kernel, reveal, ratio))
        for name, kernel in (("f merging outputs 1 and 2", merge), ("f the identity", identity))
        for ratio in (Fraction(1), Fraction(3, 2))
    ]


@check(
    "bldp.post_processing",
    mutants={
        "reads_randomness": "f may read M's randomness r (the independence hypothesis dropped)",
        "reads_database": "f may read the database x (a post-processing that sees the input)",
        "non_injective_strict": "a post-processing f that is not a relabelling strictly lowers "
        "δ(ε) whenever δ(ε) > 0",
    },
    strengthenings={
        "strict": "δ(ε) of f∘M < δ(ε) of M whenever the latter is > 0, for every f (<= made "
        "strict)",
    },
)
def post_processing(ctx: CheckContext) -> list[Evidence]:
    """bldp.post_processing — poster, "Properties": post-processing.

    Statement: if M is (ε,δ)-BLDP w.r.t. P, then f∘M, where f has its own randomness
    independent of r, is (ε,δ)-BLDP w.r.t. the same P.

    P: on random models, random post-processing kernels f (realised by exactpml's
    ``post_process`` with finite randomness of its own) and e^ε: the conditional laws of
    f∘M given P = o on exactpml's tables are the reference's Σ_m P[M = m | o] f(z | m); the
    definition on them gives δ(ε) ≤ that of M and ε ≤ that of M; exactpml's values for f∘M
    equal the definition's.
    W: pinned (one bit, laws (1/2, 1/4, 1/4) and (0, 1/2, 1/2)): f the identity and f
    merging the two outputs on the same side keep δ(ε = 0) = 1/2 exactly (sharpness: the
    bound δ(f∘M) ≤ δ(M) is attained, also by non-injective f); f reading r or x reveals x.
    C (proved, z3; :func:`_post_processing_proofs`): given a leakage value o, f∘M's law is f
    applied to M's (f's randomness is independent of r), so for every pair of conditional
    laws P = M(x) | o, Q = M(x') | o on 3 outputs, every kernel f to 2 outputs and every
    ε >= 0: Σ_z max(0, fP(z) - e^ε fQ(z)) <= Σ_m max(0, P(m) - e^ε Q(m)), the smallest δ at
    ε (so ε-BLDP, δ = 0, too).  Strengthening: strict is refuted (sharp).
    """
    mutant = ctx.mutant
    proofs = _post_processing_proofs(mutant)

    def holds(instance: tuple[Any, ...]) -> bool:
        return _post_holds(instance, mutant)

    regime = pinned(
        _pinned_post(),
        holds,
        describe="f∘M has δ(ε) and ε at most M's (a merge of two outputs on the same side of "
        "the likelihood ratio, and the identity)",
        explain=explain,
        kind="W",
    )
    if regime.passed is False and not ctx.search_only:  # a search-alone run needs the search
        return [regime, *proofs]  # the random instances would only repeat it, more slowly
    model = _merging_model()
    merged = post_process(model, _pinned_post()[0][1][1])
    pairs = neighbour_pairs(model)
    before = model_delta(conditionals(model), pairs, Fraction(1))
    after = model_delta(conditionals(merged), pairs, Fraction(1))
    return [
        regime,
        property_holds(
            ctx,
            _post_processing_instances(),
            holds,
            describe="f∘M (f's randomness independent of r) has δ(ε) and ε at most M's; its "
            "laws are the definition's",
            explain=explain,
        ),
        sharpness_evidence(
            "δ(f∘M) ≤ δ(M) (post-processing)",
            attained=before == after,
            on="one bit with laws (1/2, 1/4, 1/4) and (0, 1/2, 1/2) at ε = 0: f the identity, "
            "and f merging the outputs 1 and 2 (not injective): δ = 1/2 before and after",
            sharpest=None if before == after else "not attained on the pinned instance",
            values={"δ(M)": before, "δ(f∘M), f merging": after},
        ),
        *proofs,
        *(_post_processing_strengthenings() if mutant is None else ()),
    ]


_POST_DOMAIN = (
    "every pair of conditional laws M(x) | o, M(x') | o on 3 outputs (neighbours x, x', a "
    "leakage value o possible under both), every kernel f to 2 outputs and every ε >= 0"
)


def _kernel(name: str, inputs: int) -> tuple[tuple[Any, Any], ...]:
    """A kernel from ``inputs`` points to 2 outputs: row m is (f_m, 1 - f_m), f_m in [0, 1]."""
    values = tuple(sympy.Symbol(f"{name}_{m}", real=True) for m in range(inputs))
    return tuple((value, 1 - value) for value in values)


def _apply(law: tuple[Any, ...], kernel: tuple[tuple[Any, Any], ...]) -> tuple[Any, Any]:
    """The law of f(M): Σ_m law(m) f(z | m)."""
    return tuple(sympy.Add(*(law[m] * kernel[m][z] for m in range(len(law)))) for z in range(2))


def _post_setting(
    kernel: tuple[tuple[Any, Any], ...], other: tuple[tuple[Any, Any], ...] | None = None
) -> tuple[Any, ...]:
    first, first_ranges, first_sum = law_symbols("P", 3)
    second, second_ranges, second_sum = law_symbols("Q", 3)
    other = kernel if other is None else other
    variables: dict[Any, Any] = {**first_ranges, **second_ranges,
                                 EPSILON: sympy.Interval(0, sympy.oo)}
    for row in (*kernel, *other):
        if isinstance(row[0], sympy.Symbol):
            variables[row[0]] = UNIT
    w = epsilon_factor()
    before = hockey_stick_sum(first, second, w)
    after = hockey_stick_sum(_apply(first, kernel), _apply(second, other), w)
    return before, after, variables, (first_sum, second_sum)


def _post_processing_proofs(mutant: str | None) -> list[Evidence]:
    """δ(f∘M) <= δ(M) given o (see the check's docstring); a mutant changes f's inputs."""
    if mutant == "reads_randomness":
        return [_reading_randomness_proof()]
    if mutant == "non_injective_strict":
        merge = ((sympy.Integer(1), sympy.Integer(0)), (sympy.Integer(0), sympy.Integer(1)),
                 (sympy.Integer(0), sympy.Integer(1)))
        before, after, variables, laws = _post_setting(merge)
        return [
            proof_evidence(
                "f merging outputs 1 and 2: δ(f∘M) < δ(M) whenever δ(M) > 0 (mutant)",
                after, before, variables, domain_text=_POST_DOMAIN,
                assuming=(*laws, sympy.Gt(before, 0)), strict=True, timeout=TIMEOUT,
            )
        ]
    reading = mutant == "reads_database"
    kernel = _kernel("f", 3)
    before, after, variables, laws = _post_setting(kernel, _kernel("g", 3) if reading else None)
    return [
        proof_evidence(
            "f reading x (f under x, g under x'): δ(f∘M) <= δ(M) (mutant)" if reading
            else "post-processing: δ(ε) of f∘M <= δ(ε) of M given o",
            after, before, variables, domain_text=_POST_DOMAIN, assuming=laws, timeout=TIMEOUT,
        )
    ]


def _reading_randomness_proof() -> Evidence:
    """The mutant reads_randomness: f reads (M(x, r), r); given o the pair (M, R) has the
    joint laws J (under x) and K (under x') with the same law of R."""
    cells = [(m, r) for m in (0, 1) for r in (0, 1)]
    joint = {cell: sympy.Symbol(f"J_{cell[0]}{cell[1]}", real=True) for cell in cells}
    other = {cell: sympy.Symbol(f"K_{cell[0]}{cell[1]}", real=True) for cell in cells}
    kernel = {cell: sympy.Symbol(f"f_{cell[0]}{cell[1]}", real=True) for cell in cells}
    w = epsilon_factor()
    marginal = [sympy.Add(*(law[(m, r)] for r in (0, 1))) for law in (joint, other)
                for m in (0, 1)]
    before = hockey_stick_sum(tuple(marginal[:2]), tuple(marginal[2:]), w)

    def image(law: dict[Any, Any]) -> tuple[Any, Any]:
        one = sympy.Add(*(law[cell] * kernel[cell] for cell in cells))
        return one, 1 - one

    after = hockey_stick_sum(image(joint), image(other), w)
    variables = {**{value: UNIT for value in (*joint.values(), *other.values(),
                                              *kernel.values())},
                 EPSILON: sympy.Interval(0, sympy.oo)}
    laws = (
        sympy.Eq(sympy.Add(*joint.values()), 1),
        sympy.Eq(sympy.Add(*other.values()), 1),
        *(sympy.Eq(joint[(0, r)] + joint[(1, r)], other[(0, r)] + other[(1, r)]) for r in (0, 1)),
    )
    return proof_evidence(
        "f reading (M(x, r), r): δ(f∘M) <= δ(M) (mutant)", after, before, variables,
        domain_text="every pair of joint laws of (M, R) given o on 2 × 2 points with the same "
        "law of R, every kernel f from (m, r) to 2 outputs and every ε >= 0",
        assuming=laws, timeout=TIMEOUT,
    )


def _post_processing_strengthenings() -> list[Evidence]:
    before, after, variables, laws = _post_setting(_kernel("f", 3))
    return [
        strengthening_evidence(
            "strict", "δ(f∘M) < δ(M) whenever δ(M) > 0", after, before, variables,
            domain_text=_POST_DOMAIN, assuming=(*laws, sympy.Gt(before, 0)), strict=True,
            timeout=TIMEOUT,
        )
    ]


def _released_laws(laws: Conditional) -> Conditional:
    """The reference's laws of (M, P) given P = o: (m, o) with M's conditional probability."""
    return {
        x: {o: {(m, o): p for m, p in law.items()} for o, law in by_leakage.items()}
        for x, by_leakage in laws.items()
    }


@check(
    "bldp.leak_release",
    mutants={
        "dp_kept": "releasing the leakage keeps the (ε,δ)-DP parameters of M (leakage not "
        "conditioned on)",
        "release_randomness": "releasing (M(x, r), r) instead of the leakage keeps M's BLDP "
        "parameters",
        "pair_dp_is_bldp": "the released pair (M, P) has (ε,δ)-DP parameters equal to M's "
        "BLDP parameters",
    },
)
def leak_release(ctx: CheckContext) -> list[Evidence]:
    """bldp.leak_release — poster, "Properties": explicitly leaking P does not affect BLDP.

    Statement: M'(x, r) = (M(x, r), P(x, r)) has the same BLDP parameters w.r.t. P as M.

    P: on random models and e^ε: the laws of exactpml's ``release_leakage`` given P = o are
    the reference's (m, o) with M's conditional law (given P = o the second coordinate is
    the constant o), and the definition on the raw tables gives the same δ(ε) and ε for
    (M, P) as for M; exactpml's values equal them.  Pinned: the one-time pad (M = x XOR r,
    P = constant) against the release of r, and M = P = x.
    C (proved, z3; :func:`_leak_release_proofs`): for every pair of joint laws J, K of
    (M, P) under neighbours x, x' on 2 outputs × 2 leakage values with the leakage value 0
    possible under both, and every ε >= 0: given P = 0, the pair's law puts J(m, 0)/Pr[P = 0]
    on (m, 0) and nothing on (m, 1), and its smallest δ at ε equals M's (two inequalities);
    so do its ε (δ = 0).
    """
    mutant = ctx.mutant
    proofs = _leak_release_proofs(mutant)

    def holds(instance: tuple[BoundedLeakageModel, Fraction]) -> bool:
        model, ratio = instance
        released = release_leakage(model)
        pairs = neighbour_pairs(model)
        before = conditionals(model)
        if mutant == "dp_kept":
            return bool(
                model_delta(dp_conditionals(released), pairs, ratio)
                == model_delta(dp_conditionals(model), pairs, ratio)
            )
        if mutant == "pair_dp_is_bldp":
            return bool(
                model_delta(dp_conditionals(released), pairs, ratio)
                == model_delta(before, pairs, ratio)
            )
        if mutant == "release_randomness":
            outcomes = model.randomness.outcomes
            released = BoundedLeakageModel(
                model.randomness,
                {
                    (x, r): (m, r)
                    for x in model.databases
                    for r, m in zip(outcomes, model.outputs[x], strict=True)
                },
                {
                    (x, r): o
                    for x in model.databases
                    for r, o in zip(outcomes, model.leakages[x], strict=True)
                },
                databases=model.databases,
            )
        elif conditionals(released) != _released_laws(before):
            return False
        after = conditionals(released)
        delta = model_delta(after, pairs, ratio)
        return (
            delta
            == model_delta(before, pairs, ratio)
            == bldp_delta(released, LogValue(ratio)).delta
            and model_epsilon(after, pairs)
            == model_epsilon(before, pairs)
            == bldp_epsilon(released).epsilon
        )

    bit = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})
    pad = BoundedLeakageModel(bit, lambda x, r: x[0] ^ r, lambda x, r: 0, databases=[(0,), (1,)])
    regime = pinned(
        [
            ("one-time pad M = x XOR r, constant leakage, e^ε = 2", (pad, Fraction(2))),
            ("M = P = x (identity leakage), e^ε = 1", (identity_leakage(), Fraction(1))),
        ],
        holds,
        describe="(M, P) has the BLDP parameters of M",
        explain=explain,
    )
    if regime.passed is False and not ctx.search_only:  # a search-alone run needs the search
        return [regime, *proofs]  # the random instances would only repeat it, more slowly
    return [
        regime,
        property_holds(
            ctx,
            st.tuples(MODELS, RATIOS),
            holds,
            describe="(M, P) has the BLDP parameters of M; its laws are the definition's",
            explain=explain,
        ),
        *proofs,
    ]


_CELLS = [(m, o) for m in (0, 1) for o in (0, 1)]


def _joint_laws(name: str, other: str) -> tuple[dict[Any, Any], dict[Any, Any], dict, tuple]:
    """Joint laws J (under x) and K (under x') on 2 × 2 cells, with their hypotheses."""
    joint = {cell: sympy.Symbol(f"{name}_{cell[0]}{cell[1]}", real=True) for cell in _CELLS}
    coupled = {cell: sympy.Symbol(f"{other}_{cell[0]}{cell[1]}", real=True) for cell in _CELLS}
    variables: dict[Any, Any] = {value: UNIT for value in (*joint.values(), *coupled.values())}
    variables[EPSILON] = sympy.Interval(0, sympy.oo)
    laws = (sympy.Eq(sympy.Add(*joint.values()), 1), sympy.Eq(sympy.Add(*coupled.values()), 1))
    return joint, coupled, variables, laws


def _leak_release_proofs(mutant: str | None) -> list[Evidence]:
    """Releasing P with M keeps M's δ given P = 0 (see the check's docstring)."""
    joint, coupled, variables, laws = _joint_laws("J", "K")
    w = epsilon_factor()
    mass = joint[(0, 0)] + joint[(1, 0)]
    mass_other = coupled[(0, 0)] + coupled[(1, 0)]
    possible = (sympy.Gt(mass, 0), sympy.Gt(mass_other, 0))
    given = tuple(joint[(m, 0)] / mass for m in (0, 1))
    given_other = tuple(coupled[(m, 0)] / mass_other for m in (0, 1))
    alone = hockey_stick_sum(given, given_other, w)
    domain = (
        "every pair of joint laws of (M, P) under neighbours x, x' on 2 outputs × 2 leakage "
        "values, the leakage value 0 possible under both, and every ε >= 0"
    )
    if mutant is None:
        pair = hockey_stick_sum(
            tuple(joint[(m, o)] / mass if o == 0 else 0 * joint[(m, o)] for m, o in _CELLS),
            tuple(coupled[(m, o)] / mass_other if o == 0 else 0 * coupled[(m, o)]
                  for m, o in _CELLS),
            w,
        )
        sides = [(pair, alone, "δ of (M, P) given P = 0 <= δ of M given P = 0"),
                 (alone, pair, "δ of M given P = 0 <= δ of (M, P) given P = 0")]
        assumed = (*laws, *possible)
    elif mutant == "release_randomness":
        # the cells are (m, r) now: the joint law of (M, R) given the (constant) leakage,
        # with the same law of R under x and x'
        released = hockey_stick_sum(tuple(joint.values()), tuple(coupled.values()), w)
        marginal = tuple(joint[(m, 0)] + joint[(m, 1)] for m in (0, 1))
        marginal_other = tuple(coupled[(m, 0)] + coupled[(m, 1)] for m in (0, 1))
        sides = [(released, hockey_stick_sum(marginal, marginal_other, w),
                  "releasing (M, r): δ of (M, R) <= δ of M given the leakage (mutant)")]
        assumed = (*laws, *(sympy.Eq(joint[(0, r)] + joint[(1, r)],
                                     coupled[(0, r)] + coupled[(1, r)]) for r in (0, 1)))
        domain = (
            "every pair of joint laws of (M, R) under neighbours x, x' on 2 × 2 points with "
            "the same law of R, a constant leakage, and every ε >= 0"
        )
    else:
        pair_dp = hockey_stick_sum(tuple(joint.values()), tuple(coupled.values()), w)
        if mutant == "dp_kept":
            marginal = tuple(joint[(m, 0)] + joint[(m, 1)] for m in (0, 1))
            marginal_other = tuple(coupled[(m, 0)] + coupled[(m, 1)] for m in (0, 1))
            sides = [(pair_dp, hockey_stick_sum(marginal, marginal_other, w),
                      "the DP δ of (M, P) <= the DP δ of M (mutant)")]
        else:
            sides = [(pair_dp, alone, "the DP δ of (M, P) <= the BLDP δ of M at P = 0 "
                      "(mutant)")]
        assumed = (*laws, *possible)
    return [
        proof_evidence(part, lhs, rhs, variables, domain_text=domain, assuming=assumed,
                       timeout=TIMEOUT)
        for lhs, rhs, part in sides
    ]
