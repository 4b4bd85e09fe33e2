"""The three-valued tests skip ``simplify`` only where no answer but None is right.

``exactpml.core.decisions.shows_both_outcomes`` shows, by exact values at admissible points, that an
expression passes a test for some values of its symbols and fails it for others; the
answers must be exactly those ``simplify`` gave (sympy's assumptions after ``simplify``).
"""

import pytest
import sympy

from exactpml.core import decisions
from exactpml.core.decisions import prove_nonnegative, prove_positive, prove_zero

t = sympy.Symbol("t", positive=True)
n = sympy.Symbol("n", integer=True, positive=True)

_TESTS = {"zero": prove_zero, "positive": prove_positive, "nonnegative": prove_nonnegative}

# The expressions pml.thm_4_2 / pml.thm_4_5 sent to simplify at --quick (none decided).
_MEASURED = [
    (1 - t, "zero"),
    (-(t**2) + t, "zero"),
    (t**2 - 2 * t + 1, "zero"),
    (
        -sympy.Rational(503200309, 1309104580) * t**2
        + sympy.Rational(638421969, 1309104580) * t
        + sympy.Rational(595, 1271),
        "zero",
    ),
    (
        -sympy.Rational(503200309, 1309104580) * t**2
        + sympy.Rational(638421969, 1309104580) * t
        + sympy.Rational(595, 1271),
        "positive",
    ),
    (
        sympy.Max(
            (-227393309 * t - 612838100) / (503200309 * t**2 - 638421969 * t - 612838100),
            (275807000 * t - 1023866760) / (503200309 * t**2 - 638421969 * t - 612838100),
        ),
        "nonnegative",
    ),
    (-1023866760 / (503200309 * t**2 - 638421969 * t - 612838100), "nonnegative"),
]


def _by_simplify(expr: sympy.Expr, test: str) -> bool | None:
    """The answer before ``shows_both_outcomes``: the assumptions, then those of ``simplify``."""
    known = getattr(expr, f"is_{test}")
    if known is None:
        known = getattr(sympy.simplify(expr), f"is_{test}")
    return None if known is None else bool(known)


@pytest.mark.parametrize(("expr", "test"), _MEASURED)
def test_the_measured_expressions_are_shown_undecidable_as_simplify_left_them(expr, test):
    assert decisions.shows_both_outcomes(expr, test)
    assert _TESTS[test](expr) is None
    assert _by_simplify(expr, test) is None


@pytest.mark.parametrize(
    ("expr", "test"),
    [
        ((t + 1) ** 2 - t**2 - 2 * t - 1, "zero"),  # zero everywhere: simplify proves it
        (t**2 - 2 * t + 2, "positive"),  # positive everywhere (no sample is <= 0)
        (2 * n - 1, "positive"),  # 1/2 is not an admissible n: 2n - 1 > 0 for n >= 1
        (1 / (2 * t - 3), "zero"),  # a sign change across a pole, never zero
        (sympy.exp(t) - 3, "positive"),  # no exact value at the points: nothing shown
    ],
)
def test_nothing_is_shown_where_it_does_not_hold(expr, test):
    assert not decisions.shows_both_outcomes(expr, test)
    assert _TESTS[test](expr) == _by_simplify(expr, test)


def test_a_polynomial_sign_change_shows_a_root_only_for_symbols_taking_every_positive_real():
    quadratic = t**2 - 2  # root sqrt(2), between the points 1 and 2
    assert decisions.shows_both_outcomes(quadratic, "zero")
    assert prove_zero(quadratic) is None
    assert not decisions.shows_both_outcomes(n**2 - 2, "zero")  # n integer: never zero
    assert prove_zero(n**2 - 2) == _by_simplify(n**2 - 2, "zero")


alpha = sympy.Symbol("alpha", positive=True)


@pytest.mark.parametrize(
    ("expr", "test"),
    [
        (-97 / (84 * alpha - 97), "nonnegative"),  # l(X->1) of alpha_range's mechanism
        (-97 / (84 * alpha - 97), "positive"),
        (1 - sympy.Rational(84, 97) * alpha, "zero"),  # its mass p_Y(1)
        (1 - sympy.Rational(84, 97) * alpha, "positive"),
        (-(t**2) + t, "nonnegative"),
    ],
)
def test_shown_both_outcomes_first_gives_the_answer_of_the_assumptions(expr, test):
    """shows_both_outcomes is asked before sympy's assumptions: where it shows both outcomes, the
    assumptions (and simplify) leave the test undecided too, so the answer is the same."""
    assert decisions.shows_both_outcomes(expr, test)
    assert _TESTS[test](expr) is None
    assert _by_simplify(expr, test) is None


@pytest.mark.parametrize(
    ("expr", "test", "expected"),
    [
        (alpha, "positive", True),
        (alpha + 1, "zero", False),
        (-alpha - 1, "nonnegative", False),
        (alpha**2 - alpha + 1, "positive", None),  # no sample <= 0, and sympy cannot tell
    ],
)
def test_where_nothing_is_shown_the_assumptions_answer(expr, test, expected):
    assert not decisions.shows_both_outcomes(expr, test)
    assert _TESTS[test](expr) is expected
    assert _by_simplify(expr, test) is expected
