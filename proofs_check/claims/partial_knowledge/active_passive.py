"""``pk.thm_1``: active against passive partial knowledge (thesis Theorem 1).

Thesis *Lowering the cost of anonymization*, §3.1.3, Theorem 1 with Definitions 57-58: the
PPKDP quantity is E_b[δ_A(b)], APKDP implies PPKDP with the same (ε, δ), and for δ = 0 they
are equivalent.  Def 58 is summed database by database by
:func:`proofs_check.reference.partial_knowledge.def_58_quantity`, so the check does not
presuppose the theorem's decomposition; every ordered pair (t, t′) of values of D(i) is
evaluated (Defs 57/58 quantify over every t ≠ t′).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy

from exactpml import LogValue, Mechanism
from exactpml.partial_knowledge import (
    PartialKnowledge,
    apkdp_delta,
    apkdp_epsilon,
    is_apkdp,
    is_ppkdp,
    knowledge_deltas,
    knowledge_laws,
    ppkdp_delta,
)
from proofs_check import (
    CheckContext,
    Evidence,
    check,
    proof_evidence,
    property_holds,
    sharpness_evidence,
    strengthening_evidence,
    witness_evidence,
)
from proofs_check.claims.partial_knowledge._common import (
    every_pair_settings,
    explain_setting,
    pinned,
    reference_deltas,
    settings_with_mechanism,
    thresholded_kernel,
    votes,
)
from proofs_check.claims.partial_knowledge._proofs import (
    EPSILON,
    TIMEOUT,
    UNIT,
    epsilon_factor,
    plrv_form,
)
from proofs_check.reference import (
    apkdp_by_definition,
    def_58_quantity,
    epsilon_by_definition,
    laws_by_order,
    ordered_values,
    ppkdp_by_definition,
)

__all__ = ["thm_1"]

SMALL_DELTA = Fraction(1, 10)


@check(
    "pk.thm_1",
    mutants={
        "ppk_implies_apk": "(ε,δ)-PPKDP ⇒ (ε,δ)-APKDP also for δ > 0",
        "uniform_weights": "the PPKDP quantity is the unweighted mean of δ_A(b) over supp(B)",
        "small_delta_equivalence": "the δ = 0 equivalence extends to small δ: (ε,δ)-PPKDP ⇒ "
        "(ε,δ)-APKDP for every δ ≤ 1/10",
        "one_order": "the APKDP and PPKDP δ's over the setting's order (t, t′) only (Defs "
        "57/58's 'every t ≠ t′' dropped)",
    },
    strengthenings={
        "strict": "δ_PPK < δ_APK: E_b[δ_A(b)] < max_b δ_A(b) (APKDP ⇒ PPKDP with room to "
        "spare; <= made strict)",
        "possible_b_dropped": "the δ = 0 equivalence also when some value b of B has "
        "probability 0 (the hypothesis 'every b possible' dropped)",
    },
)
def thm_1(ctx: CheckContext) -> list[Evidence]:
    """pk.thm_1 — thesis Theorem 1.

    Statement: the PPKDP quantity (Def 58) equals E_{b~B}[δ_A(b)] with δ_A of Def 57; hence
    (ε,δ)-APKDP ⇒ (ε,δ)-PPKDP, and for δ = 0 the two are equivalent.

    P: on random settings (1 to 3 independent records, known records or an arbitrary
    knowledge function independent of D(i)) with random exact kernels on the databases, for
    every pair {t, t′} of values of D(i) and both orders: Def 58 evaluated database by
    database (reference enumeration) equals exactpml's one-order ``ppkdp_delta`` and
    Σ_b P[B=b] δ_A(b) of the reference δ_A; exactpml's one-order δ_A(b) equal the reference;
    the δ's over both orders (``apkdp_delta``, ``ppkdp_delta``) equal the reference maxima
    over the orders; ``ppkdp_delta`` ≤ ``apkdp_delta`` and the mechanism is
    (ε, δ_APK)-PPKDP; (ε,0)-APKDP ⇔ (ε,0)-PPKDP; the smallest ε at δ = 0 is the reference
    max over the orders, b and o of L(o, b).
    W (sharpness of δ_PPK ≤ δ_APK): attained with δ > 0 on Remark 2's instance (3 fair votes,
    one known, release iff count > 1, e^ε = 3: δ_APK = δ_PPK = 1/2, the order (Yes, No)
    having δ_A ≡ 1/2), strict on Example 7.
    C (proved, z3; :func:`_thm_1_proofs`): for a knowledge B with two values (law β, each
    possible), the conditional output laws A_b = P[O | D(i) = t, B = b] (full support, where
    the PLRV is defined) and C_b = P[O | D(i) = t′, B = b] on two outputs, and every ε ≥ 0:
    Def 58's expectation over the joint law of (O, B) given D(i) = t (β_b A_b(o), B ⊥ D(i))
    equals Σ_b β_b δ_A(b) (two inequalities), is at most max_b δ_A(b) (APKDP ⇒ PPKDP), and is
    0 only if every δ_A(b) is 0 (the δ = 0 equivalence).  One order (t, t′);
    the other is the same statement with t and t′ exchanged.  Strengthenings: strict, and
    the δ = 0 equivalence with an impossible b, are refuted (sharp).
    """
    mutant = ctx.mutant
    proofs = _thm_1_proofs(mutant)

    def holds(instance: tuple[PartialKnowledge, Mechanism, Fraction]) -> bool:
        first, mechanism, ratio = instance
        epsilon = LogValue(ratio)
        for setting in every_pair_settings(first):
            laws = knowledge_laws(setting, mechanism)
            # the reference's enumeration of each order, shared by its Def 57, Def 58 and ε
            # functions below (each enumerated both orders again: 8 enumerations, not 2)
            by_order = laws_by_order(setting, mechanism)
            for order, which in zip(ordered_values(setting), ("given", "reversed"), strict=True):
                reference = by_order[order]
                deltas = reference_deltas(reference, ratio)
                if knowledge_deltas(setting, laws, epsilon, reverse=which == "reversed") != deltas:
                    return False
                if mutant == "uniform_weights":
                    expected = sum(deltas.values(), Fraction(0)) / len(deltas)
                else:
                    expected = sum((reference.weights[b] * deltas[b] for b in deltas), Fraction(0))
                passive = ppkdp_delta(setting, laws, epsilon, orders=which)  # type: ignore[arg-type]
                if not def_58_quantity(reference, mechanism, ratio) == passive == expected:
                    return False
            orders = ordered_values(setting)[:1] if mutant == "one_order" else None
            passive = ppkdp_delta(setting, laws, epsilon)
            active = apkdp_delta(setting, laws, epsilon).delta
            if passive != ppkdp_by_definition(
                setting, mechanism, ratio, orders=orders, laws=by_order
            ):
                return False
            if active != apkdp_by_definition(
                setting, mechanism, ratio, orders=orders, laws=by_order
            ):
                return False
            if mutant == "ppk_implies_apk" and not is_apkdp(setting, laws, epsilon, passive):
                return False
            if (
                mutant == "small_delta_equivalence"
                and passive <= SMALL_DELTA
                and not is_apkdp(setting, laws, epsilon, passive)
            ):
                return False
            if not (passive <= active and is_ppkdp(setting, laws, epsilon, active)):
                return False
            if is_apkdp(setting, laws, epsilon, 0) != is_ppkdp(setting, laws, epsilon, 0):
                return False
            ratio_0 = epsilon_by_definition(setting, mechanism, laws=by_order)
            smallest = LogValue.infinity() if ratio_0 is None else LogValue(ratio_0)
            if apkdp_epsilon(setting, laws).epsilon != smallest:
                return False
        return True

    regime = pinned(
        _pinned_instances(),
        holds,
        describe="every t ≠ t′: Def 58 = Σ_b P[b] δ_A(b); APKDP ⇒ PPKDP (thresholded "
        "referendums, where δ_A(b) varies with b)",
        explain=explain_setting,
    )
    if regime.passed is False and not ctx.search_only:  # a search-alone run needs the search
        return [regime, *proofs]  # the random instances would only repeat it, more slowly
    return [
        regime,
        property_holds(
            ctx,
            settings_with_mechanism(),
            holds,
            describe={
                "ppk_implies_apk": "PPKDP ⇒ APKDP at δ = δ_PPK (mutant)",
                "small_delta_equivalence": "PPKDP ⇒ APKDP at δ = δ_PPK ≤ 1/10 (mutant)",
            }.get(
                mutant or "",
                "every t ≠ t′: Def 58 = Σ_b P[b] δ_A(b); APKDP ⇒ PPKDP; (ε,0)-APKDP ⇔ (ε,0)-PPKDP",
            ),
            explain=explain_setting,
        ),
        *_sharpness(),
        *proofs,
        *(_thm_1_strengthenings() if mutant is None else ()),
    ]


_KNOWLEDGE = 2
_OUTPUTS = 2


def _thm_1_structure(*, possible: bool, both_full: bool = False) -> tuple[Any, ...]:
    """(β, A, C, variables, hypotheses): the law of B and the conditional output laws."""
    beta = tuple(sympy.Symbol(f"beta_{b}", real=True) for b in range(_KNOWLEDGE))
    first = [
        tuple(sympy.Symbol(f"A_{b}{o}", real=True) for o in range(_OUTPUTS))
        for b in range(_KNOWLEDGE)
    ]
    second = [
        tuple(sympy.Symbol(f"C_{b}{o}", real=True) for o in range(_OUTPUTS))
        for b in range(_KNOWLEDGE)
    ]
    full = sympy.Interval.Lopen(0, 1)
    variables: dict[sympy.Symbol, sympy.Interval] = {
        **{value: full if possible else UNIT for value in beta},
        **{value: full for law in first for value in law},
        **{value: full if both_full else UNIT for law in second for value in law},
        EPSILON: sympy.Interval(0, sympy.oo),
    }
    hypotheses = [sympy.Eq(sympy.Add(*beta), 1)] + [
        sympy.Eq(sympy.Add(*law), 1) for law in (*first, *second)
    ]
    return beta, first, second, variables, hypotheses


def _def_58(beta: Any, first: Any, second: Any) -> sympy.Expr:
    """Def 58: E over (O, B) given D(i) = t of max(0, 1 - e^{ε - L(O, B)}), the joint law
    β_b A_b(o) (B ⊥ D(i)), L(o, b) = ln(A_b(o)/C_b(o)); term by term."""
    w = epsilon_factor()
    return sympy.Add(
        *(
            beta[b] * a * sympy.Max(0, 1 - w * c / a)
            for b in range(_KNOWLEDGE)
            for a, c in zip(first[b], second[b], strict=True)
        )
    )


def _deltas(first: Any, second: Any) -> list[sympy.Expr]:
    """δ_A(b) of Def 57 for each b."""
    w = epsilon_factor()
    return [plrv_form(first[b], second[b], w) for b in range(_KNOWLEDGE)]


_THM_1_DOMAIN = (
    "every law β of a knowledge B with 2 values{possible}, every pair of conditional output "
    "laws A_b = P[O | D(i) = t, B = b] (full support) and C_b = P[O | D(i) = t′, B = b]{full} "
    "on 2 outputs for each b, and every ε ≥ 0"
)


def _thm_1_domain(*, possible: bool, both_full: bool = False) -> str:
    return _THM_1_DOMAIN.format(
        possible=" (each possible: β_b > 0)" if possible else "",
        full=" (full support)" if both_full else "",
    )


def _thm_1_proofs(mutant: str | None) -> list[Evidence]:
    """Theorem 1 on two knowledge values and two outputs (see the check's docstring)."""
    beta, first, second, variables, hypotheses = _thm_1_structure(possible=True)
    passive = _def_58(beta, first, second)
    deltas = _deltas(first, second)
    mean = sympy.Add(*(beta[b] * deltas[b] for b in range(_KNOWLEDGE)))
    active = sympy.Max(*deltas)
    domain = _thm_1_domain(possible=True)
    statements: list[tuple[sympy.Expr, sympy.Expr, str, Any, list[Any], str]] = []
    if mutant is None:
        statements += [
            (passive, mean, "Def 58's quantity ≤ E_b[δ_A(b)]", variables, hypotheses, domain),
            (mean, passive, "E_b[δ_A(b)] ≤ Def 58's quantity", variables, hypotheses, domain),
            (passive, active, "APKDP ⇒ PPKDP: Def 58's quantity ≤ max_b δ_A(b)", variables,
             hypotheses, domain),
        ]
    elif mutant == "ppk_implies_apk":
        statements.append((active, passive, "max_b δ_A(b) ≤ Def 58's quantity (mutant)",
                           variables, hypotheses, domain))
    elif mutant == "uniform_weights":
        uniform = sympy.Add(*deltas) / _KNOWLEDGE
        statements.append((uniform, passive, "the unweighted mean of δ_A(b) ≤ Def 58's "
                           "quantity (mutant)", variables, hypotheses, domain))
    elif mutant == "small_delta_equivalence":
        statements.append((active, passive, "Def 58's quantity ≤ 1/10 ⇒ max_b δ_A(b) ≤ it "
                           "(mutant)", variables,
                           [*hypotheses, sympy.Le(passive, sympy.Rational(1, 10))], domain))
    elif mutant == "one_order":
        beta, first, second, full_variables, hypotheses = _thm_1_structure(
            possible=True, both_full=True
        )
        both = sympy.Max(*_deltas(first, second), *_deltas(second, first))
        statements.append((both, sympy.Max(*_deltas(first, second)),
                           "max over both orders (t, t′), (t′, t) and b of δ_A(b) ≤ the max over "
                           "the order (t, t′) (mutant)", full_variables, hypotheses,
                           _thm_1_domain(possible=True, both_full=True)))
    if mutant is None:
        statements.append(
            (active, 0, "δ = 0: Def 58's quantity ≤ 0 ⇒ δ_A(b) ≤ 0 for every b", variables,
             [*hypotheses, sympy.Le(passive, 0)], domain)
        )
    return [
        proof_evidence(part, lhs, rhs, where, domain_text=text, assuming=tuple(assumed),
                       timeout=TIMEOUT)
        for lhs, rhs, part, where, assumed, text in statements
    ]


def _thm_1_strengthenings() -> list[Evidence]:
    beta, first, second, variables, hypotheses = _thm_1_structure(possible=True)
    strict = strengthening_evidence(
        "strict", "E_b[δ_A(b)] < max_b δ_A(b)", _def_58(beta, first, second),
        sympy.Max(*_deltas(first, second)), variables, domain_text=_thm_1_domain(possible=True),
        assuming=tuple(hypotheses), strict=True, timeout=TIMEOUT,
    )
    beta, first, second, variables, hypotheses = _thm_1_structure(possible=False)
    passive = _def_58(beta, first, second)
    dropped = strengthening_evidence(
        "possible_b_dropped", "Def 58's quantity ≤ 0 ⇒ δ_A(b) ≤ 0 for every b, β_b = 0 allowed",
        sympy.Max(*_deltas(first, second)), 0, variables,
        domain_text=_thm_1_domain(possible=False),
        assuming=(*hypotheses, sympy.Le(passive, 0)), timeout=TIMEOUT,
    )
    return [strict, dropped]


def _referendum(
    voters: int, known: int, threshold: int, p: Fraction
) -> tuple[PartialKnowledge, Mechanism]:
    setting = PartialKnowledge(
        [votes(p)] * voters, target=known, value="No", alternative="Yes", known=range(known)
    )
    return setting, thresholded_kernel(voters, threshold)


def _pinned_instances() -> list[tuple[str, tuple[PartialKnowledge, Mechanism, Fraction]]]:
    """Thresholded referendums (kernels from the text): δ_A(b) varies with b, weights are not
    uniform and δ_PPK is small while δ_APK is not."""
    return [
        (
            f"{v} voters, {k} known, release iff > {t}, p = {p}, e^ε = {r}",
            (*_referendum(v, k, t, p), r),
        )
        for v, k, t, p, r in (
            (6, 2, 2, Fraction(1, 10), Fraction(3)),
            (5, 2, 1, Fraction(1, 5), Fraction(3, 2)),
            (3, 1, 1, Fraction(1, 2), Fraction(3)),
        )
    ]


def _sharpness() -> list[Evidence]:
    """δ_PPK ≤ δ_APK attained with δ > 0 (Remark 2's instance) and strict (Example 7's small
    scale), from the reference on kernels written from the text."""
    coin = votes(Fraction(1, 2))
    remark = PartialKnowledge([coin] * 3, target=0, value="No", alternative="Yes", known=[1])
    kernel = thresholded_kernel(3, 1)
    three = Fraction(3)
    active = apkdp_by_definition(remark, kernel, three)
    passive = ppkdp_by_definition(remark, kernel, three)
    library = (
        apkdp_delta(remark, kernel, LogValue(three)).delta,
        ppkdp_delta(remark, kernel, LogValue(three)),
    )
    attained = active == passive == Fraction(1, 2) and library == (active, passive)
    example = PartialKnowledge(
        [votes(Fraction(1, 10))] * 6, target=2, value="No", alternative="Yes", known=[0, 1]
    )
    strict_kernel = thresholded_kernel(6, 2)
    strict = (
        ppkdp_by_definition(example, strict_kernel, three),
        apkdp_by_definition(example, strict_kernel, three),
    )
    return [
        witness_evidence(
            "δ_PPK = δ_APK = 1/2 on Remark 2's instance at e^ε = 3 (both orders), and "
            "δ_PPK < δ_APK on a thresholded referendum (6 voters, 2 known, release iff > 2, "
            "p = 1/10)",
            attained and strict[0] < strict[1],
            values={"Remark 2: δ_APK, δ_PPK": (active, passive), "referendum": strict},
            counterexample=None
            if attained and strict[0] < strict[1]
            else f"Remark 2: reference {(active, passive)}, exactpml {library}; "
            f"referendum (δ_PPK, δ_APK) = {strict}",
        ),
        sharpness_evidence(
            "δ_PPK ≤ δ_APK (APKDP ⇒ PPKDP)",
            attained=attained,
            on="Remark 2's instance (3 fair votes, one known, release iff count > 1, e^ε = 3): "
            "δ_PPK = δ_APK = 1/2, the order (Yes, No) having δ_A ≡ 1/2; equality holds "
            "exactly when some order has δ_A(b) = δ_APK for every b",
            sharpest=None if attained else "not attained",
            values={"δ_APK": active, "δ_PPK": passive},
        ),
    ]
