"""Slow references for the database notions, written straight from their definitions.

Plain ``Fraction`` arithmetic and enumeration; no code shared with exactpml's notions.
``None`` stands for an infinite ratio.
"""

from fractions import Fraction
from itertools import product

from tests.brute_force import subsets


def hamming(x, y):
    return sum(1 for a, b in zip(x, y, strict=True) if a != b)


def all_databases(alphabet, n):
    return list(product(alphabet, repeat=n))


def _max_ratio(pairs, outputs, p):
    """max over pairs (x, x') and outputs y of p(x, y) / p(x', y); 0/0 skipped; None = inf."""
    best = Fraction(1)
    for x, x2 in pairs:
        for y in outputs:
            a, b = p(x, y), p(x2, y)
            if a == 0:
                continue
            if b == 0:
                return None
            best = max(best, a / b)
    return best


def dp_ratio(mechanism, alphabet, n, distance=1):
    """Def 4.1 (and group privacy): max over x, x' at Hamming distance `distance`."""
    databases = all_databases(alphabet, n)
    pairs = [(x, x2) for x in databases for x2 in databases if hamming(x, x2) == distance]
    return _max_ratio(pairs, mechanism.outputs, mechanism.probability)


def free_lunch_ratio(mechanism, alphabet, n):
    """Def 4.4: max over every pair of databases."""
    databases = all_databases(alphabet, n)
    pairs = [(x, x2) for x in databases for x2 in databases]
    return _max_ratio(pairs, mechanism.outputs, mechanism.probability)


def hockey_stick_by_sets(p_row, q_row, ratio):
    """max over every event S of P(S) - e^eps Q(S) (rows are dicts output -> probability)."""
    best = Fraction(0)
    for event in subsets(p_row):
        value = sum((p_row[y] for y in event), Fraction(0)) - ratio * sum(
            (q_row[y] for y in event), Fraction(0)
        )
        best = max(best, value)
    return best


def hockey_stick_by_plrv(p_row, q_row, ratio):
    """E_{O~P}[max(0, 1 - e^eps / e^{L(O)})], L = +inf where q = 0 < p."""
    total = Fraction(0)
    for y, p in p_row.items():
        if p == 0:
            continue
        q = q_row[y]
        if q == 0:
            total += p
            continue
        total += p * max(Fraction(0), 1 - ratio * q / p)
    return total


def statistical_distance_by_sets(p_row, q_row):
    return max(
        abs(sum((p_row[y] - q_row[y] for y in event), Fraction(0))) for event in subsets(p_row)
    )


def rows(mechanism, x):
    return {y: mechanism.probability(x, y) for y in mechanism.outputs}


def neighbour_pairs(alphabet, n):
    databases = all_databases(alphabet, n)
    return [(x, x2) for x in databases for x2 in databases if hamming(x, x2) == 1]


def simulator_ratio(members_rows, simulator):
    """The smallest E with p_x/E <= s <= E p_x for all x (None: no finite E)."""
    best = Fraction(1)
    for row in members_rows:
        for y, p in row.items():
            s = simulator[y]
            if p == 0 and s == 0:
                continue
            if p == 0 or s == 0:
                return None
            best = max(best, p / s, s / p)
    return best
