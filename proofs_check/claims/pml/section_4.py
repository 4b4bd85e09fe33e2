"""Checks of Saeidian et al., *Rethinking Disclosure Prevention with PML*, §4 (DP and
free-lunch privacy as PML constraints).

Claims ``pml.thm_4_2`` (ε-DP as a bound on conditional and unconditional entry leakage)
and ``pml.thm_4_5`` (ε-free-lunch privacy as a bound on PML over all priors) of
``CLAIMS.md`` (statements in :mod:`.statements`); proofs in the paper's App. B.1-B.2.

Two routes meet in every check.  The library's suprema (:mod:`exactpml.suprema`: the
proofs' constructions taken to t -> 0+ by the limit engine) and its privacy notions
(:mod:`exactpml.notions`) against the DP and free-lunch ratios enumerated here over
explicit pairs of databases (:mod:`proofs_check.reference.dp`).  For the fixed
instances the check also writes the constructions (B.3), (B.5) out itself as expressions
in t and lets the limit engine take t -> 0+, against ratios computed by hand.  Remark B.1
(never attained) is shown by members of each construction at t = 1/10, 1/100, 1/1000,
whose leakage (computed from the definitions) stays strictly below the supremum; that the
construction reaches it is shown by the exact limit, as t -> 0+, of the member's leakage
computed from the definitions at a symbolic t (independently of the library's own
expression for it).  The members need not increase between two sample points: for
y = 2 of {(0,0): 1, (0,1): (89/90, 1/90), (1,0): 2, (1,1): 1} (outputs 1, 2) the (B.5)
members give 100/91 at both t = 1/10 and t = 1/100 and 1000/91 at t = 1/1000, tending to
the infinite free-lunch ratio; a 2000-instance run found it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction

import sympy
from hypothesis import strategies as st

from exactpml import (
    LogValue,
    Mechanism,
    differential_privacy_epsilon,
    free_lunch_epsilon,
    sup_conditional_pml,
    sup_entry_leakage,
    sup_pml,
)
from exactpml import strategies as xst
from exactpml.core.exact import to_sympy
from exactpml.database import DatabaseSpace
from exactpml.numerics import limits
from exactpml.numerics.limits import limit
from exactpml.structured import CountingQuery, GeometricNoise, QueryMechanism
from exactpml.suprema.families import FullSupportPriors, ProductPriors
from exactpml.suprema.witnesses import Construction, Instance, Supremum
from proofs_check import CheckContext, Evidence, check, limit_evidence, property_holds
from proofs_check.claims.pml._entry_references import entry_bound_evidence
from proofs_check.claims.pml._instances import edge_cases
from proofs_check.claims.pml._proofs import Strengthening, strengthenings
from proofs_check.claims.pml._ratios import Ratio, dp_ratio, free_lunch_ratio
from proofs_check.reference.pml import rows_identical

__all__ = ["thm_4_2", "thm_4_5"]

Label = Hashable
Database = tuple[Label, ...]
_T = sympy.Symbol("t", positive=True)
_STEPS = (Fraction(1, 10), Fraction(1, 100), Fraction(1, 1000))
_SYMBOLIC_LIMITS = {"quick": 10, "default": 20, "thorough": 40}
"""Constructions per check whose limit is also taken symbolically (0.1-0.25 s each: the
symbolic member's exact leakage), by
profile; the members at t = 1/10, 1/100, 1/1000 are checked for every construction."""
_CONSTRUCTION_LIMITS = {"quick": 3, "default": 4, "thorough": 8}
"""How many random strictly positive mechanisms per run also have the source's own
constructions (B.3; B.2 and (B.5)) taken to their limits: ~0.05-0.1 s each."""


class _ConstructionBudget:
    """How many more mechanisms get the source's constructions, and what each one gave (a
    mechanism Hypothesis replays gets its first answer again, not a spent budget's)."""

    def __init__(self, count: int) -> None:
        self.left = count
        self.seen: dict[object, list[str]] = {}


def _source_construction(
    mechanism: Mechanism,
    limits_of: Callable[[], tuple[sympy.Expr, sympy.Expr]],
    ratio: Ratio,
    names: tuple[str, str],
    budget: _ConstructionBudget,
) -> list[str]:
    """The limits as t -> 0+ along the source's construction on a random mechanism (while
    the budget lasts) against the largest ratio: what the pinned mechanisms check, searched."""
    if ratio is sympy.oo or ratio == 1:
        return []  # an infinite or trivial ratio: the constructions' limits are other objects
    key = (mechanism.inputs, mechanism.outputs, mechanism.rows)
    if key not in budget.seen:
        if budget.left <= 0:
            return []
        budget.left -= 1
        budget.seen[key] = [
            f"{name}: lim exp l = {value}, largest ratio {ratio}"
            for name, value in zip(names, limits_of(), strict=True)
            if LogValue(value) != LogValue(ratio)
        ]
    return budget.seen[key]


_MECHANISMS = st.one_of(
    xst.tuple_mechanisms(max_inputs=9, max_outputs=3),
    xst.tuple_mechanisms(max_inputs=9, max_outputs=3, zeros=False),
)
"""Mechanisms on D^n (|D|^n <= 9, up to 3 outputs), half of them strictly positive: with
zeros most ratios are infinite."""


def _shape(mechanism: Mechanism) -> tuple[tuple[Label, ...], int]:
    """(D in order of first appearance, n) of a mechanism on D^n."""
    alphabet = tuple(dict.fromkeys(d for x in mechanism.inputs for d in x))  # type: ignore[attr-defined]
    return alphabet, len(mechanism.inputs[0])  # type: ignore[arg-type]


def _largest(ratios: list[Ratio]) -> Ratio:
    return sympy.oo if any(r is sympy.oo for r in ratios) else max(ratios)


class _SymbolicBudget:
    """How many more constructions get the limit of their symbolic member, and the limits
    taken: a member identical to one already taken (the same prior, output and measure on
    the same mechanism: (1) and (2) of Thm 4.2 often reach their supremum by one product
    prior) gets its limit again instead of a second, identical library computation (3 of
    the 10 at --quick in ``pml.thm_4_2``, 2 in ``pml.thm_4_5``; ~50 ms each)."""

    def __init__(self, count: int) -> None:
        self.left = count
        self.reached: dict[object, object] = {}


def _member_key(construction: Construction, member: Instance) -> object:
    """What determines the symbolic member's leakage and its limit, compared as written (a
    member with an attribute kernel or function: ``None``, never shared)."""
    if member.attribute is not None:
        return None
    mechanism, prior = member.mechanism, member.prior
    return (
        construction.parameter,
        construction.to,
        mechanism.inputs,
        mechanism.outputs,
        mechanism.rows,
        mechanism.conditions,
        prior.outcomes,
        prior.probabilities,
        prior.conditions,
        member.output,
        member.measure,
        member.entry,
        member.side_information,
        member.parameter_value,
    )


def _approach(result: Supremum, ratio: Ratio, budget: _SymbolicBudget) -> str | None:
    """Remark B.1 and the construction: members at t = 1/10, 1/100, 1/1000 stay strictly
    below the supremum, and (while the budget lasts) the exact limit as t -> 0+ of the
    member's leakage, computed from the definitions at a symbolic t, equals the ratio.

    ``None`` when both hold, else what went wrong.  An attained supremum must be 0 (ratio 1).
    """
    if result.attained:
        return None if ratio == 1 else f"reported attained, but the ratio is {ratio}"
    construction = result.witness
    assert isinstance(construction, Construction)
    members = [construction.at(t).leakage() for t in _STEPS]
    if ratio is not sympy.oo and not all(member < LogValue(ratio) for member in members):
        shown = ", ".join(f"{m} at t = {t}" for m, t in zip(members, _STEPS, strict=True))
        return f"{construction.name}: {shown}, not all below the supremum {ratio}"
    if budget.left > 0:
        budget.left -= 1
        member = construction.symbolic()
        key = _member_key(construction, member)
        reached = budget.reached.get(key) if key is not None else None
        if reached is None:
            symbolic = member.leakage()
            reached = limit(symbolic.ratio, construction.parameter, construction.to)
            if key is not None:
                budget.reached[key] = reached
        if LogValue(reached) != LogValue(ratio):
            return f"{construction.name}: members tend to {reached}, supremum {ratio}"
    return None


def _per_output(
    mechanism: Mechanism,
    reference: Callable[[Mechanism, Label], Ratio],
    suprema: dict[str, Callable[[Label], Supremum]],
    budget: _SymbolicBudget,
    *,
    claimed_attained: bool = False,
) -> tuple[list[str], list[Ratio]]:
    """Compare each named supremum with the reference ratio output by output; attained
    exactly when the ratio is 1 (Remark B.1), or always if ``claimed_attained`` (the
    ``attained`` mutant's statement)."""
    found: list[str] = []
    ratios: list[Ratio] = []
    for y in mechanism.outputs:
        ratio = reference(mechanism, y)
        ratios.append(ratio)
        expected_attained = ratio == 1 or claimed_attained
        for name, supremum in suprema.items():
            result = supremum(y)
            if result.value != LogValue(ratio) or result.attained != expected_attained:
                status = "attained" if result.attained else "not attained"
                found.append(
                    f"y={y!r}: {name} = {result.value} ({status}), reference ratio {ratio}"
                    + (", claimed attained" if expected_attained and ratio != 1 else "")
                )
                continue
            problem = _approach(result, ratio, budget)
            if problem is not None:
                found.append(f"y={y!r}: {name}: {problem}")
    return found, ratios


def _suprema_evidence(
    ctx: CheckContext, failures: Callable[[Mechanism], list[str]], statement: str
) -> list[Evidence]:
    """The two P evidences both theorems share: random mechanisms, then the pinned ones."""
    return [
        property_holds(
            ctx,
            _MECHANISMS,
            lambda mechanism: not failures(mechanism),
            describe=f"{statement} (not attained unless it is 1; approached from below)",
            explain=lambda mechanism: "; ".join(failures(mechanism)),
        ),
        edge_cases(
            [*(build() for _, build, _, _ in _FIXED), _non_monotone_members()],
            lambda mechanism: not failures(mechanism),
            describe="the same on the 3 fixed mechanisms and a non-monotone approach",
            explain=lambda mechanism: "; ".join(failures(mechanism)),
        ),
    ]


# --- fixed instances, with ratios computed by hand ----------------------------------------
def _randomized_response() -> Mechanism:
    """Each of 2 bits reported truthfully w.p. 3/4: DP ratio (3/4)/(1/4) = 3, free-lunch
    ratio (3/4)^2/(1/4)^2 = 9."""
    inputs = list(itertools.product((0, 1), repeat=2))
    return Mechanism(
        {
            x: {
                y: Fraction(3 if y[0] == x[0] else 1, 4) * Fraction(3 if y[1] == x[1] else 1, 4)
                for y in inputs
            }
            for x in inputs
        },
        outputs=inputs,
    )


def _geometric_count() -> Mechanism:
    """The count of 2 bits plus two-sided geometric noise, α = 1/2 (outputs <= -1, 0, 1, 2,
    >= 3): DP ratio 1/α = 2, free-lunch ratio 1/α^2 = 4."""
    space = DatabaseSpace([0, 1], 2)
    structured = QueryMechanism(space, CountingQuery(lambda d: d), noise=GeometricNoise("1/2"))
    return structured.explicit().mechanism


def _independent() -> Mechanism:
    """Every row (1/3, 2/3): X and Y independent, every ratio 1, every supremum 0 attained."""
    return Mechanism(
        {x: {0: "1/3", 1: "2/3"} for x in itertools.product((0, 1), repeat=2)}, outputs=[0, 1]
    )


def _non_monotone_members() -> Mechanism:
    """Found by a 2000-instance run: for y = 2 the (B.5) members give 100/91 at t = 1/10 and
    at t = 1/100, then 1000/91 at t = 1/1000 (the free-lunch ratio is infinite)."""
    return Mechanism(
        {
            (0, 0): {1: Fraction(1)},
            (0, 1): {1: Fraction(89, 90), 2: Fraction(1, 90)},
            (1, 0): {2: Fraction(1)},
            (1, 1): {1: Fraction(1)},
        },
        outputs=[0, 1, 2],
    )


_FIXED: tuple[tuple[str, Callable[[], Mechanism], Fraction, Fraction], ...] = (
    ("randomized response on 2 bits (3/4)", _randomized_response, Fraction(3), Fraction(9)),
    ("geometric count of 2 bits (α = 1/2)", _geometric_count, Fraction(2), Fraction(4)),
    ("X independent of Y", _independent, Fraction(1), Fraction(1)),
)
"""(name, mechanism, DP ratio, free-lunch ratio), the ratios computed by hand."""


def _factor(alphabet: tuple[Label, ...], favoured: Label) -> dict[Label, sympy.Expr]:
    """1 - t on ``favoured``, t/(|D| - 1) on each other value (one factor of (B.3))."""
    return {d: (1 - _T) if d == favoured else _T / (len(alphabet) - 1) for d in alphabet}


def _p(mechanism: Mechanism, x: Database, y: Label) -> sympy.Expr:
    return to_sympy(mechanism.probability(x, y))


def _put(rest: Database, entry: int, value: Label) -> Database:
    return (*rest[:entry], value, *rest[entry:])


def _dp_worst(mechanism: Mechanism) -> tuple[Label, int, Label, Label, Database]:
    """(y, i, d, d', d*_-i) maximising p(y|d, d_-i)/p(y|d', d_-i), enumerated."""
    alphabet, n = _shape(mechanism)
    best: tuple[Fraction, tuple[Label, int, Label, Label, Database]] | None = None
    for y in mechanism.outputs:
        for i in range(n):
            for rest in itertools.product(alphabet, repeat=n - 1):
                for d, e in itertools.permutations(alphabet, 2):
                    top = Fraction(mechanism.probability(_put(rest, i, d), y))
                    bottom = Fraction(mechanism.probability(_put(rest, i, e), y))
                    if bottom == 0 or (best is not None and top / bottom <= best[0]):
                        continue
                    best = (top / bottom, (y, i, d, e, rest))
    assert best is not None
    return best[1]


# --- strengthenings: every column on D^2 (D = {0, 1}), written from the definitions -------
_DATABASES = ((0, 0), (0, 1), (1, 0), (1, 1))
_COLUMN = {d: sympy.Symbol(f"w_{d[0]}{d[1]}") for d in _DATABASES}
"""p(y|d) for the 4 databases of D^2 (the column of y: any number of outputs)."""
_POSITIVE_COLUMN = {symbol: sympy.Interval.Lopen(0, 1) for symbol in _COLUMN.values()}
_COLUMN_DOMAIN = ("every mechanism on D^2, D = {0, 1}, with any number of outputs whose column "
                  "y is positive (p(y|d) in (0, 1] for each of the 4 databases)")


def _neighbour_ratios() -> list[sympy.Expr]:
    """p(y|d, d_-i)/p(y|d', d_-i) over every entry i, d_-i and d != d' (Def 4.1)."""
    ratios = []
    for a, b in itertools.permutations(_DATABASES, 2):
        if sum(u != v for u, v in zip(a, b, strict=True)) == 1:
            ratios.append(_COLUMN[a] / _COLUMN[b])
    return ratios


def _entry_leakage(joint: Mapping[tuple[int, int], sympy.Expr]) -> sympy.Expr:
    """exp l(D_1->y) = max_d p(y|D_1 = d)/p_Y(y) under the prior ``joint`` on D^2 (Thm 2.4 on
    the channel D_1 -> Y, p(y|D_1 = d) = Σ_{d2} P(d, d2) p(y|d, d2)/P(D_1 = d))."""
    given = {}
    for d in (0, 1):
        mass = joint[(d, 0)] + joint[(d, 1)]
        given[d] = (joint[(d, 0)] * _COLUMN[(d, 0)] + joint[(d, 1)] * _COLUMN[(d, 1)]) / mass
    output = sympy.Add(*(joint[x] * _COLUMN[x] for x in _DATABASES))
    return sympy.Max(given[0], given[1]) / output


def _thm_4_2_strengthenings() -> list[Strengthening]:
    """(3) halved, for every product prior.  (The strict form, Remark B.1, is open for z3 in
    6 variables within 5 s, so it is not run.)"""
    a, b = sympy.symbols("a b")
    product = {(u, v): (a if u else 1 - a) * (b if v else 1 - b) for u, v in _DATABASES}
    leakage = _entry_leakage(product)
    dp = sympy.Max(*_neighbour_ratios())
    variables = {**_POSITIVE_COLUMN, a: sympy.Interval.open(0, 1), b: sympy.Interval.open(0, 1)}
    domain = (_COLUMN_DOMAIN + ", every product prior of full support (P(D_1 = 1) = a, "
              "P(D_2 = 1) = b in (0, 1)), entry i = 1 (i = 2 by relabelling)")
    return [
        Strengthening(
            "halved_bound", "l(D_i->y) <= (1/2) log of the DP ratio for every product prior",
            domain, leakage, sympy.sqrt(dp), variables,
        ),
    ]


def _thm_4_5_strengthenings() -> list[Strengthening]:
    """(1) strictly below the free-lunch ratio, and (3) halved: every full-support prior."""
    joint = {d: sympy.Symbol(f"q_{d[0]}{d[1]}") for d in _DATABASES}
    # Def 4.4: max_{x, x'} p(y|x)/p(y|x') = max_x p(y|x) / min_x' p(y|x') (x, x' independent)
    free_lunch = sympy.Max(*_COLUMN.values()) / sympy.Min(*_COLUMN.values())
    output = sympy.Add(*(joint[x] * _COLUMN[x] for x in _DATABASES))
    variables = {**_POSITIVE_COLUMN, **{q: sympy.Interval.Lopen(0, 1) for q in joint.values()}}
    prior_sums = (sympy.Eq(sympy.Add(*joint.values()), 1),)
    domain = _COLUMN_DOMAIN + " and every full-support prior on D^2"
    return [
        Strengthening(
            "strict_free_lunch",
            "l(X->y) < log of the free-lunch ratio for every full-support prior when that ratio "
            "exceeds 1",
            domain, sympy.Max(*_COLUMN.values()) / output, free_lunch, variables,
            (*prior_sums, sympy.Gt(free_lunch, 1)), strict=True,
        ),
        Strengthening(
            "halved_entry_bound",
            "l(D_i->y) <= (1/2) log of the free-lunch ratio for every full-support prior",
            domain + ", entry i = 1", _entry_leakage(joint), sympy.sqrt(free_lunch), variables,
            prior_sums,
        ),
    ]


# --- pml.thm_4_2 ---------------------------------------------------------------------
def _b3_limits(mechanism: Mechanism, *, argmax: bool) -> tuple[sympy.Expr, sympy.Expr]:
    """The limits as t -> 0+ of exp l(D_i->y | d*_-i) and exp l(D_i->y) along the product
    prior of App. B.1: D_i puts 1 - t on d'_i = argmin_d p(y|d, d*_-i) (the construction
    after (B.1c), Thm 2.8 on the channel D_i -> Y), each D_j, j != i, puts 1 - t on d*_j
    (eq. (B.3)).  With ``argmax`` D_i concentrates on the argmax instead (a mutant)."""
    alphabet, n = _shape(mechanism)
    y, i, _, _, rest = _dp_worst(mechanism)
    values = {d: Fraction(mechanism.probability(_put(rest, i, d), y)) for d in alphabet}
    low = (max if argmax else min)(alphabet, key=lambda d: values[d])
    entry = _factor(alphabet, low)
    others = [_factor(alphabet, rest[j]) for j in range(n - 1)]
    conditional = sympy.Max(*(to_sympy(v) for v in values.values())) / sum(
        (entry[d] * to_sympy(values[d]) for d in alphabet), sympy.S.Zero
    )
    given: dict[Label, sympy.Expr] = {}
    for d in alphabet:
        total = sympy.S.Zero
        for other in itertools.product(alphabet, repeat=n - 1):
            weight = sympy.Mul(*(others[j][other[j]] for j in range(n - 1)))
            total += weight * _p(mechanism, _put(other, i, d), y)
        given[d] = sympy.expand(total)
    mass = sympy.expand(sum((entry[d] * given[d] for d in alphabet), sympy.S.Zero))
    # unevaluated: sympy's Max compares rational functions of t under the assumptions (up to
    # 0.3 s a call, 95% of the whole); the limit engine picks the eventually largest argument
    # itself, so the limit is the same (tests/proofs_check/test_section_4_constructions.py)
    unconditional = sympy.Max(*(given[d] / mass for d in alphabet), evaluate=False)
    return (
        limits.limit(conditional, _T, "0+", domain=(0, 1)),
        limits.limit(unconditional, _T, "0+", domain=(0, 1)),
    )


@check(
    "pml.thm_4_2",
    mutants={
        "argmax_concentration": "the construction puts 1 - t on argmax_d p(y|d, d*_-i) instead "
        "of the argmin",
        "correlated_priors_in_3": "(3) over all full-support priors instead of product priors "
        "(hypothesis dropped)",
        "attained": "the suprema are attained (Remark B.1 negated)",
    },
    strengthenings={
        "halved_bound": "(3): l(D_i->y) <= ε/2 for every product prior (the constant halved)",
    },
)
def thm_4_2(ctx: CheckContext) -> list[Evidence]:
    """``pml.thm_4_2``: Saeidian et al., Theorem 4.2, proof B.1 and Remark B.1.

    Statement: for every output y, the DP ratio
    max_i max_{d_-i} max_{d, d'} p(y|d, d_-i)/p(y|d', d_-i) (Def 4.1) equals, as exp of a
    supremum, (1) sup over full-support priors of max_{i, d_-i} l(D_i->y | d_-i), (2) the
    same over product priors, and (3) sup over product priors of max_i l(D_i->y); so
    ε-DP <=> (1) <=> (2) <=> (3) for every ε.  The suprema are reached by the product
    priors of (B.3) as t -> 0+ and never attained unless the ratio is 1 (over all outputs:
    unless X and Y are independent).

    Evidence:
        P: on random mechanisms on D^n (n <= 3, |D| <= 3, zeros and infinite ratios
           included), for every y: the three suprema (``sup_conditional_pml`` over
           full-support and product priors, ``sup_entry_leakage`` over product priors:
           constructions + limit engine) equal the DP ratio enumerated over neighbouring
           pairs, and are reported attained exactly when it is 1; members of each
           construction at t = 1/10, 1/100, 1/1000 stay strictly below, and (for the first
           20 constructions; 10 at --quick, 40 at --thorough) the limit of a symbolic
           member's leakage equals the ratio; on the first 4 strictly positive ones
           (3 at --quick, 8 at --thorough) the limits along (B.3)'s product prior equal
           the largest ratio (the source's construction, searched);
           ``differential_privacy_epsilon`` (notions) equals the largest ratio, and the
           largest ratio is 1 exactly when all rows are equal (X independent of Y).
        P: the same on the 3 fixed mechanisms below and ``_non_monotone_members``.
        P (against the reference, no supremum): on the 4 structured mechanisms on {0, 1}^2
           (randomized response e^ε = 2, 3; geometric counts α = 1/2, 1/3) with every
           two-point prior {x: t, x': 1-t} (t = 1/4; also 1/10 by default), then on random
           mechanisms on D^n with random product or correlated priors (concentrated ones
           included; 25 at --quick, 120 by default): the library's ``entry_leakage`` and
           ``conditional_entry_leakage`` (every d_-i of positive mass) equal
           :func:`~proofs_check.reference.pml.entry_pml_ratio` (Bayes' rule) exactly, and
           are at most the DP ratio of y enumerated by the reference -- l(D_i->y | d_-i)
           for every prior ((1)), l(D_i->y) when the prior is a product of its marginals
           ((3), decided exactly by the reference).  ``correlated_priors_in_3`` bounds
           l(D_i->y) for every prior: refuted on randomized response (e^ε = 2) with
           {(0, 0): 1/4, (1, 1): 3/4}, l(D_1->(0, 0)) = log 16/7 > log 2.
        L: 3 fixed mechanisms with hand-computed DP ratios (randomized response on 2 bits:
           3; geometric count of 2 bits, α = 1/2: 2; X independent of Y: 1): the check
           writes the B.1/B.3 construction out as expressions in t, the limit engine takes
           t -> 0+ for the conditional (1)-(2) and unconditional (3) leakages, and the
           library's "attained" is compared with Remark B.1.
        Strengthening (z3): (3) with ε/2 for every product prior on D^2, D = {0, 1}: sharp.
           Not PROVED: the ``attained`` mutant is existential.
    """
    correlated = ctx.mutant == "correlated_priors_in_3"
    budget = _SymbolicBudget(_SYMBOLIC_LIMITS[ctx.profile])
    constructions = _ConstructionBudget(_CONSTRUCTION_LIMITS[ctx.profile])

    def failures(mechanism: Mechanism) -> list[str]:
        alphabet, n = _shape(mechanism)
        full, product = FullSupportPriors(mechanism.inputs), ProductPriors(alphabet, n)
        third = full if correlated else product
        found, ratios = _per_output(
            mechanism,
            dp_ratio,
            {
                "(1) sup over full-support priors of l(D_i->y | d_-i)": lambda y: (
                    sup_conditional_pml(mechanism, full, output=y)
                ),
                "(2) sup over product priors of l(D_i->y | d_-i)": lambda y: sup_conditional_pml(
                    mechanism, product, output=y
                ),
                "(3) sup over "
                + ("all full-support" if correlated else "product")
                + " priors of l(D_i->y)": lambda y: sup_entry_leakage(mechanism, third, output=y),
            },
            budget,
            claimed_attained=ctx.mutant == "attained",
        )
        largest = _largest(ratios)
        found += _source_construction(
            mechanism,
            lambda: _b3_limits(mechanism, argmax=ctx.mutant == "argmax_concentration"),
            largest,
            ("(1)-(2) along the B.3 product prior", "(3) along the B.3 product prior"),
            constructions,
        )
        epsilon = differential_privacy_epsilon(mechanism).value
        if epsilon != LogValue(largest):
            found.append(f"differential_privacy_epsilon = {epsilon}, largest DP ratio {largest}")
        if (largest == 1) != rows_identical(mechanism):
            found.append(f"largest DP ratio {largest}, rows identical: {rows_identical(mechanism)}")
        return found

    evidence = _suprema_evidence(
        ctx, failures, "for every y, sup (1), (2) and (3) all equal the DP ratio of Def 4.1"
    )
    evidence.append(
        entry_bound_evidence(
            ctx,
            bound="dp",
            product_only=not correlated,
            prior_kind=None,
            with_conditional=True,
            with_whole=False,
        )
    )
    for name, build, ratio, _ in _FIXED:
        mechanism = build()
        alphabet, n = _shape(mechanism)
        conditional, unconditional = _b3_limits(
            mechanism, argmax=ctx.mutant == "argmax_concentration"
        )
        attained = {
            "(1)": sup_conditional_pml(mechanism, FullSupportPriors(mechanism.inputs)).attained,
            "(2)": sup_conditional_pml(mechanism, ProductPriors(alphabet, n)).attained,
            "(3)": sup_entry_leakage(mechanism, ProductPriors(alphabet, n)).attained,
        }
        expected_attained = ratio == 1 or ctx.mutant == "attained"
        for label, value in (("(1)-(2)", conditional), ("(3)", unconditional)):
            reported = attained["(3)"] if label == "(3)" else attained["(1)"] and attained["(2)"]
            evidence.append(
                limit_evidence(
                    value,
                    ratio,
                    attained=reported,
                    expected_attained=expected_attained,
                    family=f"{name}: {label} along the B.3 product prior, t -> 0+",
                    name="lim exp l",
                )
            )
    if ctx.mutant is None:
        evidence += strengthenings(_thm_4_2_strengthenings())
    return evidence


# --- pml.thm_4_5 ---------------------------------------------------------------------
def _b2_b5_limits(mechanism: Mechanism, *, argmax: bool) -> tuple[sympy.Expr, sympy.Expr]:
    """The limits as t -> 0+ of exp l(X->y) along the product prior of App. B.2 (1 - t on
    each entry of x* = argmin_x p(y|x); mutant: argmax), and of exp l(D_i->y) along the
    prior of eq. (B.5): D_i puts 1 - t on d'_i = x_min[i], the kernel P*_{D_-i|D_i} puts
    1 - t on x_max's other entries given D_i = x_max[i] and on x_min's otherwise, i an
    entry where x_max and x_min differ, y the output of the largest free-lunch ratio."""
    alphabet, n = _shape(mechanism)
    worst = max(
        mechanism.outputs,
        key=lambda y: (free_lunch_ratio(mechanism, y) is sympy.oo, free_lunch_ratio(mechanism, y)),
    )
    column = {x: Fraction(mechanism.probability(x, worst)) for x in mechanism.inputs}
    x_max = max(mechanism.inputs, key=lambda x: column[x])
    x_min = min(mechanism.inputs, key=lambda x: column[x])
    star = x_max if argmax else x_min
    factors = [_factor(alphabet, star[j]) for j in range(n)]  # type: ignore[index]
    mass = sum(
        (sympy.Mul(*(factors[j][x[j]] for j in range(n))) * column[x] for x in mechanism.inputs),  # type: ignore[index]
        sympy.S.Zero,
    )
    product = limits.limit(
        to_sympy(max(column.values())) / sympy.expand(mass), _T, "0+", domain=(0, 1)
    )
    if x_max == x_min:  # a constant column: every leakage is 0
        return product, sympy.S.One
    i = next(j for j in range(n) if x_max[j] != x_min[j])  # type: ignore[index]
    rests = list(itertools.product(alphabet, repeat=n - 1))
    high, low = x_max[i], x_min[i]  # type: ignore[index]
    high_rest, low_rest = x_max[:i] + x_max[i + 1 :], x_min[:i] + x_min[i + 1 :]  # type: ignore[index]
    entry = _factor(alphabet, low)
    share = _T / (len(rests) - 1) if len(rests) > 1 else sympy.S.Zero
    given: dict[Label, sympy.Expr] = {}
    for d in alphabet:
        target = high_rest if d == high else low_rest
        given[d] = sum(
            (((1 - _T) if rest == target else share) * column[_put(rest, i, d)] for rest in rests),
            sympy.S.Zero,
        )
    marginal = sympy.expand(sum((entry[d] * given[d] for d in alphabet), sympy.S.Zero))
    # unevaluated: sympy's Max compares rational functions of t under the assumptions (up to
    # 0.3 s a call, 95% of the whole); the limit engine picks the eventually largest argument
    # itself, so the limit is the same (tests/proofs_check/test_section_4_constructions.py)
    entry_leakage = sympy.Max(*(given[d] / marginal for d in alphabet), evaluate=False)
    return product, limits.limit(entry_leakage, _T, "0+", domain=(0, 1))


@check(
    "pml.thm_4_5",
    mutants={
        "argmax_product": "the product prior of B.2 concentrates on argmax_x p(y|x) instead of "
        "the argmin",
        "product_priors_in_3": "(3) over product priors instead of all full-support priors",
        "attained": "the suprema are attained (Remark B.1 negated)",
        "dp_ratio_in_3": "(3) with the DP ratio of Def 4.1 (neighbouring databases) in place of "
        "the free-lunch ratio: ε-DP bounds l(D_i->y) for every correlated prior",
    },
    strengthenings={
        "strict_free_lunch": "(1): l(X->y) < ε for every full-support prior (<= made strict)",
        "halved_entry_bound": "(3): max_i l(D_i->y) <= ε/2 for every full-support prior (the "
        "constant halved)",
    },
)
def thm_4_5(ctx: CheckContext) -> list[Evidence]:
    """``pml.thm_4_5``: Saeidian et al., Theorem 4.5, proof B.2 (and Remark B.1).

    Statement: for every output y, the free-lunch ratio max_{x, x'} p(y|x)/p(y|x')
    (Def 4.4) equals, as exp of a supremum, (1) sup over all full-support priors of
    l(X->y), (2) the same over product priors, and (3) sup over all full-support priors of
    max_i l(D_i->y); so ε-free-lunch privacy <=> (1) <=> (2) <=> (3).  (2) is reached by
    the product prior of B.2, (3) by the kernel prior of (B.5), as t -> 0+, never attained
    unless the ratio is 1.

    Evidence:
        P: on random mechanisms on D^n (n <= 3, |D| <= 3, zeros and infinite ratios
           included), for every y: ``sup_pml`` over full-support and product priors and
           ``sup_entry_leakage`` over full-support priors (max over entries) equal the
           free-lunch ratio of the column, "attained" exactly when it is 1, and members at
           t = 1/10, 1/100, 1/1000 stay strictly below (Remark B.1), and (for the first 20
           constructions; 10 at --quick, 40 at --thorough) the limit of a symbolic member's
           leakage equals the ratio; on the first 4 strictly positive ones (3 at --quick,
           8 at --thorough) the limits along B.2's product prior and (B.5)'s kernel prior
           equal the largest ratio (the source's constructions, searched);
           ``free_lunch_epsilon`` (notions) equals the largest ratio.
        P: the same on the 3 fixed mechanisms below and ``_non_monotone_members``.
        P (against the reference, no supremum): the structured mechanisms and two-point
           priors of ``pml.thm_4_2``, then random mechanisms on D^n with random correlated
           priors (two-point, tied entries, conditioned on d_-i, few points, any joint law):
           the library's ``entry_leakage`` (every entry) and ``pointwise_maximal_leakage``
           equal the reference's (Bayes' rule) exactly and are at most the free-lunch ratio
           of y enumerated by the reference.  ``dp_ratio_in_3`` (the DP ratio in (3), the
           false "ε-DP bounds l(D_i->y) for correlated priors") is refuted there by the same
           instance as ``pml.thm_4_2``'s ``correlated_priors_in_3`` (log 16/7 > log 2).
        L: 3 fixed mechanisms with hand-computed free-lunch ratios (randomized response on
           2 bits: 9; geometric count of 2 bits, α = 1/2: 4; X independent of Y: 1): the
           check writes B.2's product prior and (B.5)'s kernel prior out as expressions in
           t and the limit engine takes t -> 0+; "attained" as in Remark B.1.
        Strengthenings (z3, mechanisms on D^2, D = {0, 1}): (1) strict for every full-support
           prior (proved, a finding: Remark B.1); (3) with ε/2 (sharp).  Not PROVED: the
           ``attained`` mutant is existential.
    """
    products_in_3 = ctx.mutant == "product_priors_in_3"
    dp_in_3 = ctx.mutant == "dp_ratio_in_3"
    budget = _SymbolicBudget(_SYMBOLIC_LIMITS[ctx.profile])
    constructions = _ConstructionBudget(_CONSTRUCTION_LIMITS[ctx.profile])
    claimed_attained = ctx.mutant == "attained"

    def failures(mechanism: Mechanism) -> list[str]:
        alphabet, n = _shape(mechanism)
        full, product = FullSupportPriors(mechanism.inputs), ProductPriors(alphabet, n)
        third = product if products_in_3 else full
        found, ratios = _per_output(
            mechanism,
            free_lunch_ratio,
            {
                "(1) sup over full-support priors of l(X->y)": lambda y: sup_pml(
                    mechanism, full, output=y
                ),
                "(2) sup over product priors of l(X->y)": lambda y: sup_pml(
                    mechanism, product, output=y
                ),
            },
            budget,
            claimed_attained=claimed_attained,
        )
        found += _per_output(
            mechanism,
            dp_ratio if dp_in_3 else free_lunch_ratio,
            {
                "(3) sup over "
                + ("product" if products_in_3 else "all full-support")
                + " priors of max_i l(D_i->y)": lambda y: sup_entry_leakage(
                    mechanism, third, output=y
                ),
            },
            budget,
            claimed_attained=claimed_attained,
        )[0]
        if not dp_in_3:  # (B.5) tends to the free-lunch ratio; the mutant's (3) is elsewhere
            found += _source_construction(
                mechanism,
                lambda: _b2_b5_limits(mechanism, argmax=ctx.mutant == "argmax_product"),
                _largest(ratios),
                ("(2) along the B.2 product prior", "(3) along the (B.5) kernel prior"),
                constructions,
            )
        epsilon = free_lunch_epsilon(mechanism).value
        if epsilon != LogValue(_largest(ratios)):
            found.append(f"free_lunch_epsilon = {epsilon}, largest ratio {_largest(ratios)}")
        return found

    evidence = _suprema_evidence(
        ctx,
        failures,
        "for every y, sup (1), (2) and (3) all equal the free-lunch ratio of Def 4.4"
        + (" ((3): the DP ratio of Def 4.1)" if dp_in_3 else ""),
    )
    evidence.append(
        entry_bound_evidence(
            ctx,
            bound="free_lunch",
            entry_bound="dp" if dp_in_3 else None,
            product_only=False,
            prior_kind="joint",
            with_conditional=False,
            with_whole=True,
        )
    )
    for name, build, dp, free_lunch in _FIXED:
        mechanism = build()
        alphabet, n = _shape(mechanism)
        product, entry = _b2_b5_limits(mechanism, argmax=ctx.mutant == "argmax_product")
        reported = {
            "(2)": sup_pml(mechanism, ProductPriors(alphabet, n)).attained,
            "(3)": sup_entry_leakage(mechanism, FullSupportPriors(mechanism.inputs)).attained,
        }
        for label, value, family in (
            ("(2)", product, "B.2 product prior on x* = argmin p(y|x)"),
            ("(3)", entry, "(B.5) kernel prior"),
        ):
            ratio = dp if dp_in_3 and label == "(3)" else free_lunch
            expected_attained = ratio == 1 or ctx.mutant == "attained"
            evidence.append(
                limit_evidence(
                    value,
                    ratio,
                    attained=reported[label],
                    expected_attained=expected_attained,
                    family=f"{name}: {label} along the {family}, t -> 0+",
                    name="lim exp l",
                )
            )
    if ctx.mutant is None:
        evidence += strengthenings(_thm_4_5_strengthenings())
    return evidence
