"""Exhaustion of finite integer domains, with binomial tails written as sympy Sums.

Saeidian et al., Example 3.11 (the deterministic threshold query): with F = P(Bin(n, p) <= m),
l(X->1) = -log(1 - F) <= -log(1 - exp(-n D(m/n || p))) for m/n < p, by the Chernoff bound
F <= exp(-n D) (Hoeffding 1963, Thm 1; Hagerup and Rüb 1990).  The test range is small (the
figure's n up to 300 takes about 15 s; see docs/proving.md); the false variants halve the bound
or break an identity by one, and their counterexamples are re-verified by the Fraction
reference.
"""

from __future__ import annotations

import sympy
from prover_reference import independently_violated
from sympy import Interval, Rational, Sum, binomial, exp, log

from proofs_check import prove_inequality

n, m = sympy.symbols("n m", integer=True)
k = sympy.Symbol("k", integer=True, nonnegative=True)
p = Rational(3, 10)
TAIL = Sum(binomial(n, k) * p**k * (1 - p) ** (n - k), (k, 0, m))
RATE = (m / n) * log((m / n) / p) + (1 - m / n) * log((1 - m / n) / (1 - p))
DOMAIN = {n: Interval(1, 40), m: Interval(1, 40)}
BELOW_P = [sympy.Lt(m, p * n)]


def test_example_3_11_chernoff_bound_is_proved_at_every_point_of_the_range():
    result = prove_inequality(-log(1 - TAIL), -log(1 - exp(-n * RATE)), DOMAIN,
                              assuming=BELOW_P)
    assert result.status == "proved", result
    assert result.engine == "integer exhaustion"
    assert result.domain.startswith("every n in {1, ..., 40}, every m in {1, ..., 40} with")


def test_a_halved_chernoff_bound_is_refuted_at_a_verified_point():
    lhs, rhs = -log(1 - TAIL), -log(1 - exp(-n * RATE) / 2)
    result = prove_inequality(lhs, rhs, DOMAIN, assuming=BELOW_P)
    assert result.status == "refuted", result
    assert independently_violated(lhs, rhs, result.counterexample, DOMAIN, assuming=BELOW_P)


def test_the_tail_at_m_0_ties_with_its_bound_exactly_at_every_n():
    result = prove_inequality(TAIL.subs(m, 0), (1 - p) ** n, {n: Interval(1, 60)})
    assert result.status == "proved", result
    assert "60 exact ties" in result.detail


def test_binomial_sums_identity_holds_and_its_off_by_one_version_is_refuted():
    total = Sum(binomial(n, k), (k, 0, n))
    assert prove_inequality(total, 2**n, {n: Interval(0, 50)}).status == "proved"
    assert prove_inequality(2**n, total, {n: Interval(0, 50)}).status == "proved"
    result = prove_inequality(total, 2**n - 1, {n: Interval(0, 50)})
    assert result.status == "refuted" and result.counterexample == {n: 0}


def test_closed_sums_are_added_term_by_term_to_the_value_doit_gives() -> None:
    """``points.summed`` adds a plain closed Sum's terms itself (Ex 3.11's binomial tails);
    the value is sympy's ``doit`` value, for a sum inside other terms too, and the sums it
    leaves to ``doit`` (high < low: Karr's convention; nested; past 10^4 terms) keep it."""
    import sympy

    from proofs_check.prover.points import summed

    k, j = sympy.symbols("k j", integer=True)
    binomial_tail = sympy.Sum(
        sympy.binomial(9, k) * sympy.Rational(2, 7) ** k * sympy.Rational(5, 7) ** (9 - k),
        (k, 0, 3),
    )
    cases = [
        binomial_tail,
        1 - binomial_tail,
        sympy.log(2 - binomial_tail),
        sympy.Sum(k**2, (k, 5, 5)),
        sympy.Sum(k, (k, 3, 1)),  # Karr: -Sum(k, (k, 2, 2)) = -2, left to doit
    ]
    for case in cases:
        assert sympy.simplify(summed(case) - case.doit()) == 0, case
        assert not summed(case).has(sympy.Sum)
    assert summed(sympy.Sum(k, (k, 3, 1))) == -2
    # nested sums (and sums past 10^4 terms) are doit's, as before: the same value
    nested = sympy.Sum(sympy.Sum(j * k, (j, 1, 10**4)), (k, 1, 10**4))
    assert summed(nested) == nested.doit() == (10**4 * (10**4 + 1) // 2) ** 2
    long_sum = sympy.Sum(k, (k, 1, 10**6))
    assert summed(long_sum) == long_sum.doit() == 10**6 * (10**6 + 1) // 2


def test_the_fast_route_gives_the_sign_point_sign_certifies_or_leaves_the_point() -> None:
    """``exhaustion._evaluator`` (exact while rational, 64-bit balls after log/exp) settles a
    point only with the sign :func:`points.point_sign` certifies there; a zero denominator, a
    log of 0, ``0`` to a symbolic power, a reversed Sum and an Abs of a ball are left to the
    Arb route (``None``)."""
    from fractions import Fraction

    from flint import fmpq

    from proofs_check.prover.exhaustion import _evaluated_sign, _evaluator
    from proofs_check.prover.intervals import Program
    from proofs_check.prover.points import point_sign

    exprs = [
        m - p * n,
        m + 1 - p * n,
        TAIL - Rational(1, 2),
        1 - TAIL - exp(-n * RATE),
        -log(1 - exp(-n * RATE)) + log(1 - TAIL),
        sympy.Abs(1 / Sum(binomial(n, k) * p**k * (1 - p) ** (n - k), (k, m + 1, n))
                  - 1 / (1 - TAIL)),
        sympy.Max(m, n - m) - sympy.Min(2 * m, n) + sympy.factorial(m) / sympy.factorial(n),
        1 / (m - 3) - 1 / (n - 4),
        (m - 2) ** n - Rational(1, 3),
        Sum(k, (k, m, n)) - 7,
        log(m - 2) + m - 3,
    ]
    settled = 0
    for expr in exprs:
        fast = _evaluator(expr, (n, m))
        assert fast is not None, expr
        program = Program(expr, (n, m))
        for point in [(a, b) for a in range(1, 9) for b in range(0, 9)]:
            fractions = (Fraction(point[0]), Fraction(point[1]))
            sign = _evaluated_sign(fast, point)
            if sign is not None:
                settled += 1
                assert sign == point_sign(program, fractions), (expr, point)
        assert _evaluated_sign(fast, (fmpq(3), fmpq(5))) == _evaluated_sign(fast, (3, 5))
    assert settled > 500
    left_alone = [
        (1 / (m - 3), (5, 3)),          # a zero denominator
        (log(m - 3), (5, 3)),           # log of 0
        ((m - 3) ** n, (5, 3)),         # 0 to a symbolic power
        ((m - 5) ** n, (2, 3)),         # a negative base to a symbolic power
        (Sum(k, (k, m, n)), (1, 4)),    # reversed by more than one term: Karr's convention
        (sympy.Abs(log(m) - 1), (5, 3)),  # Abs of a ball
        (binomial(n - 3, m), (1, 0)),   # binomial of a negative top
    ]
    for expr, point in left_alone:
        assert _evaluated_sign(_evaluator(expr, (n, m)), point) is None, expr
    assert _evaluator(sympy.sqrt(n) - m, (n, m)) is None  # a root: the Arb route only


def test_prefix_sums_of_the_fast_route_are_the_sums() -> None:
    """The fast route adds a Sum's terms once per start and outer value (prefix sums); in any
    order of the points its value is the Sum's exact value."""
    from flint import fmpq

    from proofs_check.prover.exhaustion import _evaluator

    tail = _evaluator(TAIL, (n, m))
    upper = _evaluator(Sum(binomial(n, k) * p**k, (k, m, n)), (n, m))
    assert tail is not None and upper is not None
    points = [(9, 4), (9, 0), (9, 8), (3, 1), (9, 2), (3, 3), (9, 9)]
    for a, b in points + points[::-1]:
        expected = TAIL.subs({n: a, m: b}).doit()
        assert tail((a, b)) == fmpq(int(expected.p), int(expected.q))
        top = Sum(binomial(n, k) * p**k, (k, m, n)).subs({n: a, m: b}).doit()
        assert upper((a, b)) == fmpq(int(top.p), int(top.q))


def test_an_unforeseen_arithmetic_or_type_error_leaves_the_point_to_the_arb_route() -> None:
    """The fast route never ends a proof with an exception: an operand it did not foresee
    (here evaluators raising flint's and Python's errors) hands the point to the Arb route."""
    from proofs_check.prover.exhaustion import _difference_sign, _evaluated_sign

    def raising(error: type[Exception]):
        def evaluate(values):
            raise error("unforeseen")
        return evaluate

    for error in (TypeError, ValueError, OverflowError, ZeroDivisionError):
        assert _evaluated_sign(raising(error), (1, 2)) is None
        assert _difference_sign((raising(error), raising(error)), (1, 2)) is None
