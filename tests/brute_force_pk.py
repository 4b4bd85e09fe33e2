"""Slow references for the partial-knowledge notions, straight from the definitions.

Shares no code with exactpml.partial_knowledge: every law is recomputed from the full joint
distribution of (D, B, M(D)) by enumerating all databases of the records' alphabets, with
plain ``Fraction`` arithmetic (thesis §3.1.3, Defs 56–58 and Prop 8's set form).
"""

import itertools
from fractions import Fraction

from tests.brute_force import subsets


def joint(records, mechanism, knowledge):
    """[(database, P[D=d], b, {o: M(o|d)})] over the databases of positive probability."""
    rows = []
    for database in itertools.product(*(r.outcomes for r in records)):
        weight = Fraction(1)
        for record, x in zip(records, database, strict=True):
            weight *= record[x]
        if weight == 0:  # impossible databases carry no mass (and B need not be defined there)
            continue
        law = {o: Fraction(mechanism(database, o)) for o in mechanism.outputs}
        rows.append((database, weight, knowledge(database), law))
    return rows


class Kernel:
    """A mechanism on database tuples as a plain function (from an exactpml Mechanism)."""

    def __init__(self, mechanism):
        self.outputs = list(mechanism.outputs)
        self._m = mechanism

    def __call__(self, database, output):
        return self._m.probability(database, output)


def knowledge_law(records, mechanism, knowledge, target, x):
    """P[B = b | D(i) = x]."""
    rows = joint(records, mechanism, knowledge)
    mass = sum(w for d, w, _, _ in rows if d[target] == x)
    law = {}
    for d, w, b, _ in rows:
        if d[target] == x:
            law[b] = law.get(b, Fraction(0)) + w / mass
    return {b: p for b, p in law.items() if p}


def conditional_output(records, mechanism, knowledge, target, x, b):
    """P[M(D) = o | D(i) = x, B = b] for every output o."""
    rows = joint(records, mechanism, knowledge)
    mass = sum(w for d, w, bb, _ in rows if d[target] == x and bb == b)
    return {
        o: sum((w * law[o] for d, w, bb, law in rows if d[target] == x and bb == b), Fraction(0))
        / mass
        for o in mechanism.outputs
    }


def delta_by_sets(p, q, ratio):
    """max_S P(S) − ratio·Q(S) (Prop 8's set form)."""
    outputs = list(p)
    return max(
        sum((p[o] for o in s), Fraction(0)) - ratio * sum((q[o] for o in s), Fraction(0))
        for s in subsets(outputs)
    )


def delta_by_plrv(p, q, ratio):
    """E_{O~P}[max(0, 1 − e^ε / e^{L(O)})] with e^{L(o)} = p(o)/q(o) (Def 57's first form)."""
    total = Fraction(0)
    for o, po in p.items():
        if po == 0:
            continue
        # 1 − e^{ε − L} = 1 − ratio q/p; with q = 0 (L = +oo) it is 1.
        total += po * max(Fraction(0), 1 - ratio * q[o] / po)
    return total


def active_and_passive(records, mechanism, knowledge, target, t, t_prime, ratio):
    """(max_b δ_A(b), Σ_b P[B=b | D(i)=t] δ_A(b), {b: δ_A(b)}) from the definitions."""
    weights = knowledge_law(records, mechanism, knowledge, target, t)
    deltas = {
        b: delta_by_sets(
            conditional_output(records, mechanism, knowledge, target, t, b),
            conditional_output(records, mechanism, knowledge, target, t_prime, b),
            ratio,
        )
        for b in weights
    }
    return max(deltas.values()), sum((weights[b] * deltas[b] for b in deltas), Fraction(0)), deltas


def classical_delta(mechanism, ratio, target, t, t_prime, others):
    """Classical (ε,δ)-DP's δ restricted to neighbours (t, d_{-i}) ~ (t', d_{-i}) for the
    given d_{-i}: max of Σ_o max(0, M(o|d) − ratio·M(o|d')) (Prop 8)."""
    best = Fraction(0)
    for rest in others:
        d = (*rest[:target], t, *rest[target:])
        d2 = (*rest[:target], t_prime, *rest[target:])
        p = {o: mechanism.probability(d, o) for o in mechanism.outputs}
        q = {o: mechanism.probability(d2, o) for o in mechanism.outputs}
        best = max(best, delta_by_sets(p, q, ratio))
    return best


def has_injective_map(p1, q1, p2, q2):
    """Whether some injective φ on the union support of (p1, q1) matches (p2, q2), by trying
    every injective map into the outputs (Def 59 as restated, brute force)."""
    support = [o for o in p1 if p1[o] or q1[o]]
    targets = list(p2)
    for image in itertools.permutations(targets, len(support)):
        if all(
            p1[o] == p2[phi] and q1[o] == q2[phi] for o, phi in zip(support, image, strict=True)
        ):
            return True
    return False
