"""Tests of exactpml.limits: the limits of Saeidian et al., App. B, taken exactly.

The expressions are built directly in sympy (no dependency on the core mechanism classes):
a kernel is a list of rows ``p(.|x)`` of Fractions, a prior a list of sympy expressions in t.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exactpml.errors import InexactInput, InvalidArgument, Undecided
from exactpml.numerics.limits import limit

t = sympy.Symbol("t", positive=True)
x = sympy.Symbol("x", real=True)
epsilon = sympy.Symbol("epsilon", positive=True)


def q(value: Fraction) -> sympy.Rational:
    return sympy.Rational(value.numerator, value.denominator)


def concentrating_prior(size: int, favoured: int) -> list[sympy.Expr]:
    """1 - t on ``favoured``, t/(|X|-1) elsewhere (the construction of eq. (B.3))."""
    return [1 - t if i == favoured else t / (size - 1) for i in range(size)]


def pml_ratio(kernel: list[list[Fraction]], prior: list[sympy.Expr], y: int) -> sympy.Expr:
    """exp l(X -> y) = max_x p(x|y)/p(x), written uncancelled as posterior over prior.

    For t > 0 the prior has full support, so the max runs over every x."""
    p_y = sympy.Add(*(q(row[y]) * weight for row, weight in zip(kernel, prior, strict=True)))
    return sympy.Max(
        *(
            sympy.Mul(q(row[y]) * weight, sympy.Pow(p_y * weight, -1), evaluate=False)
            for row, weight in zip(kernel, prior, strict=True)
        )
    )


def column_ratio(kernel: list[list[Fraction]], y: int) -> Fraction | sympy.Expr:
    """max_x p(y|x) / min_x p(y|x), the capacity ratio of output y (Def. 2.7, Thm 2.8)."""
    column = [row[y] for row in kernel]
    return sympy.oo if min(column) == 0 else max(column) / min(column)


def argmin(values: list[Fraction]) -> int:
    return min(range(len(values)), key=values.__getitem__)


KERNEL = [
    [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)],
    [Fraction(1, 10), Fraction(3, 5), Fraction(3, 10)],
    [Fraction(1, 5), Fraction(1, 5), Fraction(3, 5)],
]


# --- the capacity ratio from the concentrating prior (Thm 2.8 / eq. (B.3)) -----------------


@pytest.mark.parametrize("y", range(3))
@pytest.mark.parametrize("method", ["rational", "sympy"])
def test_concentrating_prior_limit_is_the_capacity_ratio(y, method):
    column = [row[y] for row in KERNEL]
    expr = pml_ratio(KERNEL, concentrating_prior(3, argmin(column)), y)
    assert limit(expr, t, "0+", method=method) == column_ratio(KERNEL, y)


def test_log_of_the_ratio_tends_to_the_log_capacity_ratio():
    expr = sympy.log(pml_ratio(KERNEL, concentrating_prior(3, 1), 0))
    assert limit(expr, t, "0+") == sympy.log(5)


def test_a_zero_entry_gives_an_infinite_limit():
    kernel = [[Fraction(0), Fraction(1)], [Fraction(1, 2), Fraction(1, 2)]]
    assert limit(pml_ratio(kernel, concentrating_prior(2, 0), 0), t, "0+") == sympy.oo


kernels = st.integers(min_value=2, max_value=4).flatmap(
    lambda rows: st.integers(min_value=2, max_value=3).flatmap(
        lambda columns: st.lists(
            st.lists(st.integers(0, 6), min_size=columns, max_size=columns).filter(any),
            min_size=rows,
            max_size=rows,
        )
    )
)


def _normalised(weights: list[list[int]]) -> list[list[Fraction]]:
    return [[Fraction(w, sum(row)) for w in row] for row in weights]


@settings(max_examples=60, deadline=None)
@given(kernels, st.data())
@example([[1, 1], [1, 1]], None)
@example([[0, 3], [2, 1], [1, 0]], None)
def test_limit_of_the_concentrating_prior_equals_the_column_ratio(weights, data):
    kernel = _normalised(weights)
    outputs = [y for y in range(len(kernel[0])) if any(row[y] for row in kernel)]
    y = outputs[0] if data is None else data.draw(st.sampled_from(outputs))
    column = [row[y] for row in kernel]
    expr = pml_ratio(kernel, concentrating_prior(len(kernel), argmin(column)), y)
    assert limit(expr, t, "0+") == column_ratio(kernel, y)


@settings(max_examples=10, deadline=None)
@given(kernels)
def test_fast_path_agrees_with_sympy_limit(weights):
    kernel = _normalised(weights)
    y = next(y for y in range(len(kernel[0])) if any(row[y] for row in kernel))
    prior = concentrating_prior(len(kernel), argmin([row[y] for row in kernel]))
    expr = pml_ratio(kernel, prior, y)
    assert limit(expr, t, "0+", method="rational") == limit(expr, t, "0+", method="sympy")


# --- the two traps --------------------------------------------------------------------------


def _pml_ratio_with_support(kernel: list[list[Fraction]], prior: list[Fraction], y: int):
    """The exact PML ratio at a given (possibly non-full-support) prior: max over supp(P_X)."""
    p_y = sum(row[y] * weight for row, weight in zip(kernel, prior, strict=True))
    return max(row[y] for row, weight in zip(kernel, prior, strict=True) if weight) / p_y


def test_the_limit_is_not_the_value_at_t_equal_0_where_the_support_changes():
    kernel = [[Fraction(1, 5), Fraction(4, 5)], [Fraction(3, 5), Fraction(2, 5)]]
    at_zero = _pml_ratio_with_support(kernel, [Fraction(1), Fraction(0)], 0)
    assert at_zero == 1  # PML 0: at t = 0 the prior is a point mass
    expr = pml_ratio(kernel, [1 - t, t], 0)
    assert limit(expr, t, "0+") == 3  # the capacity ratio (3/5)/(1/5)
    # a support-aware expression in a nonnegative s: the max runs over {x : p(x) > 0}
    s = sympy.Symbol("s", nonnegative=True)
    support_aware = sympy.Max(
        sympy.Rational(1, 5), sympy.Piecewise((sympy.Rational(3, 5), s > 0), (0, True))
    ) / ((1 - s) * sympy.Rational(1, 5) + s * sympy.Rational(3, 5))
    assert support_aware.subs(s, 0) == 1  # evaluating at the limit point: PML 0, wrong
    assert limit(support_aware.xreplace({s: t}), t, "0+") == 3


def test_an_uncancelled_0_over_0_is_nan_by_subs_but_has_an_exact_limit():
    a, b = sympy.Rational(3, 5), sympy.Rational(1, 5)
    posterior_over_prior = t * a / (t * b + t**2)  # p(x1|y)/p(x1) before cancelling t
    assert posterior_over_prior.subs(t, 0) is sympy.nan
    assert limit(posterior_over_prior, t, "0+") == 3


# --- the DP ratio of the product prior (B.3), Thm 4.2 (3) ----------------------------------

DB_MECHANISM = {  # p(y|x) for binary databases x in {0,1}^2 and outputs y in {0,1,2}
    (0, 0): [Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)],
    (0, 1): [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)],
    (1, 0): [Fraction(1, 5), Fraction(2, 5), Fraction(2, 5)],
    (1, 1): [Fraction(1, 3), Fraction(1, 2), Fraction(1, 6)],
}


def _dp_ratio_b2b(mechanism, y):
    """max_{d_1, d_1', d_2} p(y|d_1, d_2) / p(y|d_1', d_2): the right side of (B.2b), i = 1."""
    return max(
        (mechanism[(a, r)][y] / mechanism[(b, r)][y], a, b, r)
        for a in (0, 1)
        for b in (0, 1)
        for r in (0, 1)
    )


def _entry_pml_ratio(mechanism, y, prior_first, prior_rest):
    """exp l(D_1 -> y) = max_{d_1} p(y|D_1=d_1)/p_Y(y) under the product prior."""
    given = {
        d: sympy.Add(*(q(mechanism[(d, r)][y]) * prior_rest[(d, r)] for r in (0, 1)))
        for d in (0, 1)
    }
    p_y = sympy.Add(*(prior_first[d] * given[d] for d in (0, 1)))
    return sympy.Max(given[0], given[1]) / p_y


@pytest.mark.parametrize("y", range(3))
def test_product_prior_b3_limit_is_the_dp_ratio(y):
    ratio, _, d_prime, star = _dp_ratio_b2b(DB_MECHANISM, y)
    prior_first = {d: 1 - t if d == d_prime else t for d in (0, 1)}
    prior_rest = {(d, r): 1 - t if r == star else t for d in (0, 1) for r in (0, 1)}
    expr = _entry_pml_ratio(DB_MECHANISM, y, prior_first, prior_rest)
    assert limit(expr, t, "0+", method="rational") == ratio
    assert limit(expr, t, "0+", method="sympy") == ratio


# --- the free-lunch ratio of the kernel of (B.5)/(B.6a), Thm 4.5 (3) -----------------------


@pytest.mark.parametrize("y", range(3))
def test_concentrating_kernel_b5_limit_is_the_free_lunch_ratio(y):
    column = {x: row[y] for x, row in DB_MECHANISM.items()}
    high = max(column, key=column.__getitem__)
    lows = [x for x in column if column[x] == min(column.values())]
    low = next((x for x in lows if x[0] != high[0]), lows[0])
    if high[0] == low[0]:
        pytest.skip("the construction needs d_1 != d_1' (max and min in different rows)")
    d, d_prime = high[0], low[0]
    prior_first = {d: t, d_prime: 1 - t}
    # P*_{D_2|D_1}: 1-t on the argmax for d_1 = d, on the argmin for d_1 = d'; t/(|D|-1) else
    prior_rest = {(d, r): 1 - t if r == high[1] else t for r in (0, 1)}
    prior_rest |= {(d_prime, r): 1 - t if r == low[1] else t for r in (0, 1)}
    expr = _entry_pml_ratio(DB_MECHANISM, y, prior_first, prior_rest)
    assert limit(expr, t, "0+") == column[high] / column[low]


# --- symbolic coefficients ------------------------------------------------------------------


def test_randomized_response_limit_is_exp_epsilon():
    e = sympy.exp(epsilon)
    kernel = [[e / (1 + e), 1 / (1 + e)], [1 / (1 + e), e / (1 + e)]]
    prior = [t, 1 - t]  # concentrate on the row where output 0 is least likely
    p_y = sympy.Add(*(row[0] * w for row, w in zip(kernel, prior, strict=True)))
    expr = sympy.Max(kernel[0][0], kernel[1][0]) / p_y
    assert limit(expr, t, "0+", method="rational") == e
    assert limit(expr, t, "0+", method="sympy") == e


def test_b3_with_per_entry_randomized_response_has_dp_ratio_exp_epsilon():
    e = sympy.exp(epsilon)

    def p(y, x):  # each bit kept with probability e/(1+e): epsilon-DP per entry
        return sympy.Mul(*((e if yj == xj else 1) / (1 + e) for yj, xj in zip(y, x, strict=True)))

    y = (0, 0)
    given = {
        d: sympy.Add(*(p(y, (d, r)) * (1 - t if r == 0 else t) for r in (0, 1))) for d in (0, 1)
    }
    p_y = (1 - t) * given[1] + t * given[0]
    expr = sympy.Max(given[0], given[1]) / p_y
    assert limit(expr, t, "0+", method="rational") == e


def test_transcendental_coefficients_are_kept_exact():
    expr = (sympy.log(2) * t + 3 * t**2) / (t + t**2)
    assert limit(expr, t, "0+", method="rational") == sympy.log(2)
    at_infinity = (epsilon * t**2 + 1) / (t**2 * sympy.exp(epsilon))
    assert limit(at_infinity, t, "oo", method="rational") == epsilon * sympy.exp(-epsilon)


def test_a_coefficient_that_is_zero_in_disguise_is_skipped():
    hidden_zero = sympy.log(6) - sympy.log(2) - sympy.log(3)
    assert limit((hidden_zero + t) / t, t, "0+", method="rational") == 1
    symbolic_zero = sympy.log(2 * sympy.exp(epsilon)) - sympy.log(2) - epsilon
    assert limit((symbolic_zero + t) / t, t, "0+", method="rational") == 1


# --- limit points and results ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "parameter", "to", "expected"),
    [
        (1 / t, t, "0+", sympy.oo),
        (3 - 1 / t, t, "0+", -sympy.oo),
        ((1 - t) / (t * (1 + t)) - 1 / t, t, "0+", Fraction(-2)),
        (3 * t**2 / (t**2 + t + 1), t, "oo", Fraction(3)),
        ((t**2 + 1) / (t + 1), t, sympy.oo, sympy.oo),
        (x**3 - x, x, "-oo", -sympy.oo),
        (x**2 / (x + 1), x, "-oo", -sympy.oo),
        ((x**2 + 1) / (3 * x**2), x, -sympy.oo, Fraction(1, 3)),
        (sympy.Abs(t - sympy.Rational(1, 2)) / (t - sympy.Rational(1, 2)), t, "1/2-", Fraction(-1)),
        (sympy.Abs(t - sympy.Rational(1, 2)) / (t - sympy.Rational(1, 2)), t, "1/2+", Fraction(1)),
        (sympy.Max(t, 1 - t), t, (Fraction(1, 2), "-"), Fraction(1, 2)),
        (1 / (x - 1), x, "1-", -sympy.oo),
        (1 / (x - 1), x, "1+", sympy.oo),
        (sympy.Min(t, 1 / t) / t, t, "oo", Fraction(0)),
        (sympy.exp(-1 / t), t, "0+", Fraction(0)),  # not rational in t: sympy.limit
        (sympy.sqrt(t) / t, t, "0+", sympy.oo),
        (t**t, t, "0+", Fraction(1)),
    ],
    ids=str,
)
def test_limit_values(expr, parameter, to, expected):
    assert limit(expr, parameter, to) == expected


def test_rational_results_are_fractions():
    result = limit((1 + t) / (2 + t), t, "0+")
    assert type(result) is Fraction and result == Fraction(1, 2)


def test_a_constant_expression_is_its_own_limit():
    assert limit(Fraction(3, 4), t, "0+") == Fraction(3, 4)
    assert limit(sympy.log(2), t, "oo") == sympy.log(2)
    assert limit("1/3", t, "0+") == Fraction(1, 3)


def test_a_limit_sympy_cannot_take_is_undecided():
    with pytest.raises(Undecided, match="AccumBounds") as raised:
        limit(sympy.sin(1 / t), t, "0+")
    assert raised.value.expression == sympy.sin(1 / t)


def test_rational_method_refuses_non_rational_expressions():
    with pytest.raises(Undecided, match="not a rational function"):
        limit(sympy.sqrt(t), t, "0+", method="rational")


# --- bad input ------------------------------------------------------------------------------

BAD_INPUT = [
    pytest.param(
        lambda: limit(t, "t", "0+"), InvalidArgument, "parameter must be a Symbol", id="param-str"
    ),
    pytest.param(
        lambda: limit(t, sympy.Symbol("u"), "0+"), InvalidArgument, "real", id="param-no-real"
    ),
    pytest.param(lambda: limit(x, x, "0+"), InvalidArgument, "declared positive", id="0+-real"),
    pytest.param(lambda: limit(t, t, "0-"), InvalidArgument, "approached", id="0--positive"),
    pytest.param(lambda: limit(t, t, "0"), InvalidArgument, "not one-sided", id="no-side"),
    pytest.param(lambda: limit(t, t, 0), InvalidArgument, "not a limit point", id="bare-int"),
    pytest.param(lambda: limit(t, t, (0, "x")), InvalidArgument, "pair", id="bad-side"),
    pytest.param(lambda: limit(t, t, "abc+"), InvalidArgument, "abc", id="bad-point"),
    pytest.param(lambda: limit(t, t, "oo+"), InvalidArgument, "infinity", id="side-at-oo"),
    pytest.param(lambda: limit(t, t, ("s", "+")), InvalidArgument, "s", id="symbolic-point"),
    pytest.param(
        lambda: limit(t, t, "1/2+", domain=(1, 0)), InvalidArgument, "reversed", id="reversed"
    ),
    pytest.param(lambda: limit(t, t, "1+", domain=(1, 1)), InvalidArgument, "empty", id="empty"),
    pytest.param(
        lambda: limit(t, t, "0+", domain=(-1, 1)), InvalidArgument, "nonnegative", id="contra"
    ),
    pytest.param(lambda: limit(t, t, "1/2+", domain=(0,)), InvalidArgument, "pair", id="domain-1"),
    pytest.param(
        lambda: limit(t, t, "2-", domain=(0, 1)), InvalidArgument, "approached", id="outside"
    ),
    pytest.param(
        lambda: limit(t, t, "1+", domain=(0, 1)), InvalidArgument, "approached", id="wrong-side"
    ),
    pytest.param(
        lambda: limit(t, t, "oo", domain=(0, 1)), InvalidArgument, "approached", id="oo-outside"
    ),
    pytest.param(lambda: limit(t, t, "-oo"), InvalidArgument, "approached", id="-oo-positive"),
    pytest.param(
        lambda: limit(Fraction(1), t, "2-", domain=(0, 1)),
        InvalidArgument,
        "approached",
        id="constant-outside",
    ),
    pytest.param(lambda: limit(t * 0.5, t, "0+"), InexactInput, "floating", id="sympy-float"),
    pytest.param(lambda: limit(0.5, t, "0+"), InexactInput, "float", id="python-float"),
    pytest.param(lambda: limit(sympy.I * t, t, "0+"), InvalidArgument, "complex", id="complex"),
    pytest.param(
        lambda: limit(t * sympy.Symbol("a"), t, "0+"), InvalidArgument, "unknown sign", id="sym"
    ),
    pytest.param(lambda: limit(t, t, "0+", method="fast"), InvalidArgument, "method", id="method"),
    pytest.param(
        lambda: limit(t / ((t + 1) ** 2 - t**2 - 2 * t - 1), t, "0+"),
        InvalidArgument,
        "identically 0",
        id="zero-denominator",
    ),
]


@pytest.mark.parametrize(("call", "error", "message"), BAD_INPUT)
def test_bad_input_raises_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call()
