"""The hockey-stick divergence and likelihood-ratio maxima (``exactpml.leakage.hockey_stick``)
against the definitions in ``proofs_check/reference/divergences.py``, in all three regimes:
rational, irrational ratio or entries (e^ε, √2; decided by certified arithmetic), symbolic.

Irrational comparisons are decided independently of exactpml: p/q against e^a by
``reference.ratio_at_most_exp`` (partial sums of the exponential series in ``Fraction``), p/q
against √2 by squaring.
"""

import decimal
import importlib
import math
import types
from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactpml import strategies as xst
from exactpml.core.exact import to_sympy
from exactpml.errors import InvalidArgument, Undecided
from proofs_check import reference as bf

# the module (``exactpml.leakage.hockey_stick`` names the function re-exported by the package)
hs = importlib.import_module("exactpml.leakage.hockey_stick")
F = Fraction


def _same(value, expected):
    """Exact equality of two closed-form or symbolic expressions (difference expands to 0)."""
    return sympy.simplify(to_sympy(value) - to_sympy(expected)) == 0


def _pair(data, size):
    p = data.draw(xst.distributions(outcomes=list(range(size))))
    q = data.draw(xst.distributions(outcomes=list(range(size))))
    return list(p.probabilities), list(q.probabilities)


# --- rational laws: the set form and the pointwise form --------------------------------
@given(st.data(), st.integers(1, 5), st.fractions(0, 4))
def test_rational_divergence_is_the_largest_event_difference_and_its_event(data, size, ratio):
    p, q = _pair(data, size)
    value, event = hs.hockey_stick(p, q, ratio)
    assert value == bf.hockey_stick_by_sets(p, q, ratio)
    # the event of Proposition 8: exactly the outputs with p_o > ratio q_o (ties left out)
    assert event == frozenset(i for i in range(size) if p[i] > ratio * q[i])


@given(st.data(), st.integers(1, 5), st.fractions(0, 4))
def test_integer_form_is_the_divergence_times_both_denominators(data, size, ratio):
    p, q = _pair(data, size)
    common = 1
    for v in (*p, *q):
        common = common * v.denominator // math.gcd(common, v.denominator)
    numerators_p = [int(v * common) for v in p]
    numerators_q = [int(v * common) for v in q]
    expected = bf.hockey_stick_pointwise(p, q, ratio) * common * ratio.denominator
    assert hs.hockey_stick_integers(numerators_p, numerators_q, ratio) == expected


def test_epsilon_zero_gives_the_total_variation():
    # ratio e^0 = 1: Σ max(0, p - q) = ½ Σ |p - q| (hand computation: 1/4)
    p, q = [F(1, 2), F(1, 4), F(1, 4)], [F(1, 4), F(1, 2), F(1, 4)]
    assert hs.hockey_stick(p, q, F(1)) == (F(1, 4), frozenset({0}))
    assert bf.half_l1(p, q) == F(1, 4)


def test_infinite_ratio_leaves_the_mass_where_q_vanishes():
    # ε = ∞: the limit of the divergence is P({o : q_o = 0}); zero p-mass there is not counted
    p = [F(0), F(1, 3), F(1, 6), F(1, 2)]
    q = [F(0), F(0), F(1, 2), F(1, 2)]
    assert hs.hockey_stick(p, q, sympy.oo) == (F(1, 3), frozenset({1}))
    irrational = [sympy.sqrt(2) / 4, 1 - sympy.sqrt(2) / 4, F(0)]
    value, event = hs.hockey_stick(irrational, [F(0), F(1, 2), F(1, 2)], sympy.oo)
    assert event == frozenset({0}) and _same(value, sympy.sqrt(2) / 4)


# --- irrational ratio e^ε (ε of either sign) or √2, rational laws -----------------------
def _exp_event(p, q, exponent):
    """{o : p_o > e^exponent q_o}, decided with the reference's exponential series."""
    chosen = set()
    for i, (a, b) in enumerate(zip(p, q, strict=True)):
        if a == 0:
            continue
        if b == 0:
            chosen.add(i)
        elif exponent >= 0:
            if not bf.ratio_at_most_exp(a / b, exponent):  # a/b > e^exponent
                chosen.add(i)
        elif bf.ratio_at_most_exp(b / a, -exponent):  # b/a <= e^-exponent, never equal
            chosen.add(i)
    return chosen


@pytest.mark.parametrize("exponent", [F(1, 2), F(-1, 2), F(1), F(-3, 10), F(2)])
@given(data=st.data(), size=st.integers(1, 4))
def test_irrational_ratio_exp_epsilon_matches_the_reference_event(exponent, data, size):
    p, q = _pair(data, size)
    ratio = sympy.exp(sympy.Rational(exponent.numerator, exponent.denominator))
    value, event = hs.hockey_stick(p, q, ratio)
    chosen = _exp_event(p, q, exponent)
    assert event == frozenset(chosen)
    expected = sum((p[i] for i in chosen), F(0)) - ratio * sum((q[i] for i in chosen), F(0))
    assert _same(value, expected)


def test_sqrt_two_ratio_is_decided_by_squares():
    # p/q = 3/2 > √2 (9/4 > 2), 4/3 < √2 (16/9 < 2), 1/1 < √2, q = 0 < p chosen
    p = [F(3, 10), F(4, 15), F(1, 5), F(7, 30), F(0)]
    q = [F(1, 5), F(1, 5), F(1, 5), F(0), F(2, 5)]
    value, event = hs.hockey_stick(p, q, sympy.sqrt(2))
    assert event == frozenset({0, 3})
    assert _same(value, F(3, 10) + F(7, 30) - sympy.sqrt(2) * F(1, 5))


def test_irrational_entries_with_a_rational_ratio():
    # p = (√2/4, 1 - √2/4) ≈ (0.354, 0.646), q = (1/8, 7/8), ratio 2:
    # 0.354 > 0.25 chosen; 0.646 < 1.75 not; a zero entry of p first is skipped
    p = [F(0), sympy.sqrt(2) / 4, 1 - sympy.sqrt(2) / 4]
    q = [F(1, 2), F(1, 16), F(7, 16)]
    value, event = hs.hockey_stick(p, q, F(2))
    assert event == frozenset({1})
    assert _same(value, sympy.sqrt(2) / 4 - F(1, 8))
    # ratio below 1 (ε < 0): 1/2: 0.354 > 1/32 and 0.646 > 7/32, both chosen
    value, event = hs.hockey_stick(p, q, F(1, 2))
    assert event == frozenset({1, 2})
    assert _same(value, 1 - F(1, 2) * F(1, 2))


def test_irrational_entries_and_ratio_below_one():
    # ratio 1/√2 ≈ 0.707: √2/4 ≈ 0.354 vs 0.707/2 ≈ 0.354 + 0: √2/4 - (1/√2)(1/2) = 0 exactly
    # (a tie, not chosen); 1 - √2/4 ≈ 0.646 > 0.354 chosen
    p = [sympy.sqrt(2) / 4, 1 - sympy.sqrt(2) / 4]
    q = [F(1, 2), F(1, 2)]
    value, event = hs.hockey_stick(p, q, 1 / sympy.sqrt(2))
    assert event == frozenset({1})
    assert _same(value, 1 - sympy.sqrt(2) / 4 - sympy.sqrt(2) / 4)


# --- symbolic ratio ----------------------------------------------------------------------
def test_symbolic_ratio_keeps_undecided_terms_and_agrees_at_every_value():
    r = sympy.Symbol("r", positive=True)
    p, q = [F(1, 2), F(1, 2), F(0)], [F(1, 4), F(3, 4), F(0)]
    value, event = hs.hockey_stick(p, q, r)
    assert event is None
    for point in (F(1, 3), F(1), F(3, 2), F(2), F(5)):
        at = sympy.Rational(point.numerator, point.denominator)
        assert to_sympy(value).subs(r, at) == to_sympy(bf.hockey_stick_pointwise(p, q, point))


def test_symbolic_ratio_known_to_be_at_least_one_skips_the_outputs_where_p_is_below_q():
    t = sympy.Symbol("t", positive=True)
    same = [F(1, 2), F(1, 2)]
    # e^t >= 1 for t > 0, and p = q: nothing can exceed, the event is empty and decided
    assert hs.hockey_stick(same, same, sympy.exp(t)) == (F(0), frozenset())
    # 1 + t >= 1: only the output where p > q is left undecided
    value, event = hs.hockey_stick([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)], 1 + t)
    assert event is None
    assert _same(value, sympy.Max(0, F(3, 4) - (1 + t) / 4))
    # e^t with t < 0 is below 1: no shortcut, every term stays
    s = sympy.Symbol("s", negative=True)
    value, event = hs.hockey_stick(same, same, sympy.exp(s))
    assert event is None and value != 0


def test_symbolic_terms_with_a_provable_sign_are_decided():
    s = sympy.Symbol("s", positive=True)
    # ratio 1/(2 + s) < 1/2: p - ratio q = 1/2 - 1/(2(2 + s)) > 0 provably: chosen
    value, event = hs.hockey_stick([F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)], 1 / (2 + s))
    assert event == frozenset({0, 1})
    assert _same(value, 1 - 1 / (2 + s))
    # ratio 2 + s > 1 with p = (3/4, 1/4), q = (1/4, 3/4): 3/4 - (2+s)/4 = (1 - s)/4 undecided
    value, event = hs.hockey_stick([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)], 2 + s)
    assert event is None and _same(value, sympy.Max(0, (1 - s) / 4))
    # ratio 3 + s: 3/4 - (3 + s)/4 = -s/4 < 0 provably: not chosen, decided
    assert hs.hockey_stick([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)], 3 + s) == (0, frozenset())


# --- max_ratio and exact_max -------------------------------------------------------------
@given(st.data(), st.integers(1, 5))
def test_max_ratio_of_rational_laws_is_the_pointwise_max_divergence(data, size):
    p, q = _pair(data, size)
    value, index = hs.max_ratio(p, q)
    expected = bf.divergence_ratio_by_points(p, q)
    if expected is None:
        assert value.is_infinite and p[index] > 0 == q[index]
    else:
        assert value.ratio == expected and p[index] / q[index] == expected


def test_max_ratio_edge_cases():
    # a zero p entry comes first and is skipped; the largest ratio is not the first one
    value, index = hs.max_ratio([F(0), F(1, 4), F(3, 4)], [F(1, 2), F(1, 4), F(1, 4)])
    assert (value.ratio, index) == (F(3), 2)
    # q = 0 < p: infinite, with the index where it happens
    value, index = hs.max_ratio([F(0), F(1, 2), F(1, 2)], [F(1), F(0), F(0)])
    assert value.is_infinite and index == 1
    # p with no mass at all: log 1
    value, index = hs.max_ratio([F(0), F(0)], [F(1, 2), F(1, 2)])
    assert (value.ratio, index) == (1, None)


def test_max_ratio_with_irrational_entries():
    # ratios 3 (rational, the largest), √2/2, 2 - √2 (hand computation)
    p = [F(3, 4), sympy.sqrt(2) / 8, F(1, 4) - sympy.sqrt(2) / 8]
    q = [F(1, 4), F(1, 4), F(1, 8)]
    value, index = hs.max_ratio(p, q)
    assert value.ratio == 3 and index is None
    # now the irrational ratio √2 is the largest (> 4/3 > 1)
    p = [sympy.sqrt(2) / 4, F(1, 3), F(2, 3) - sympy.sqrt(2) / 4]
    q = [F(1, 4), F(1, 4), F(1, 2)]
    value, _ = hs.max_ratio(p, q)
    assert _same(value.ratio, sympy.sqrt(2))


def test_exact_max_in_each_regime():
    assert hs.exact_max([F(1, 3), F(3, 4), F(1, 2)]) == (F(3, 4), 1)
    # closed forms compared by certified arithmetic: 3/2 > √2 > 7/5 (9/4 > 2 > 49/25)
    assert hs.exact_max([sympy.sqrt(2), F(3, 2), F(7, 5)]) == (F(3, 2), 1)
    assert hs.exact_max([F(7, 5), sympy.sqrt(2), F(1)]) == (sympy.sqrt(2), 1)
    assert hs.exact_max([F(7, 5), F(1), sympy.sqrt(2)]) == (sympy.sqrt(2), 2)
    t = sympy.Symbol("t", positive=True)
    value, index = hs.exact_max([t, F(1, 2)])
    assert index is None and value == sympy.Max(t, sympy.Rational(1, 2))
    with pytest.raises(InvalidArgument, match="no values"):
        hs.exact_max([])


# --- at_most and short_decimal -----------------------------------------------------------
def test_at_most_in_each_regime():
    assert hs.at_most(F(1, 2), "1/2", name="delta")
    assert not hs.at_most(F(1, 2), "1/3", name="delta")
    # √2/2 ≈ 0.7071: above 7/10 (1/2 > 49/100), below 71/100 (1/2 < 5041/10000)
    assert not hs.at_most(sympy.sqrt(2) / 2, "7/10", name="delta")
    assert hs.at_most(sympy.sqrt(2) / 2, "71/100", name="delta")
    s = sympy.Symbol("s", positive=True)
    assert hs.at_most(-s, 0, name="delta")
    assert not hs.at_most(1 + s, 1, name="delta")
    with pytest.raises(Undecided):
        hs.at_most(s, "1/2", name="delta")


def test_short_decimal_gives_correct_significant_digits():
    # √2 = 1.41421356..., 2/3 = 0.666666...
    assert hs.short_decimal(sympy.sqrt(2)) == "1.41421"
    assert hs.short_decimal(F(2, 3)) == "0.666667"
    assert hs.short_decimal(sympy.sqrt(2), 3) == "1.41"


def _decimal_reference(value: Fraction, digits: int) -> str:
    """The same rounding by Python's decimal module (correctly rounded, half to even)."""
    if value == 0:
        return "0"
    with decimal.localcontext() as context:
        context.prec = digits
        context.rounding = decimal.ROUND_HALF_EVEN
        number = decimal.Decimal(value.numerator) / decimal.Decimal(value.denominator)
    sign, figures, _ = number.as_tuple()
    text = "".join(map(str, figures)).rstrip("0") or "0"
    body = text[0] + ("." + text[1:] if text[1:] else "")
    exponent = number.adjusted()
    return ("-" if sign else "") + (f"{body}e{exponent}" if exponent else body)


@given(st.fractions().filter(lambda v: v != 0), st.integers(1, 9))
def test_rational_decimals_without_certify_round_half_to_even(monkeypatch_value, digits):
    # the branch taken when exactpml.certify cannot be imported
    def unavailable(name):
        raise ImportError(name)

    original = hs.importlib
    hs.importlib = types.SimpleNamespace(import_module=unavailable)
    try:
        text = hs.short_decimal(monkeypatch_value, digits)
        assert hs.short_decimal(sympy.sqrt(2)) == "sqrt(2)"  # no certify: the exact form
    finally:
        hs.importlib = original
    assert text == _decimal_reference(monkeypatch_value, digits)


def test_rational_decimals_without_certify_edge_cases():
    assert hs._rational_decimal(F(0), 6) == "0"
    assert hs._rational_decimal(F(5), 6) == "5"
    assert hs._rational_decimal(F(9999995, 10**7), 6) == "1"  # rounds up to the next power
    assert hs._rational_decimal(F(-1, 30000), 6) == "-3.33333e-5"
    assert hs._rational_decimal(F(10**7, 3), 6) == "3.33333e6"


# --- exact ties: never in the event, decided exactly -------------------------------------------
# (e^{1/2} + 1)² − e − 2e^{1/2} = 1, a closed form sympy does not reduce by itself
_ROOT_E = sympy.exp(sympy.Rational(1, 2))
_ONE = (_ROOT_E + 1) ** 2 - sympy.E - 2 * _ROOT_E
ROOT2 = sympy.sqrt(2)


def test_ties_with_a_rational_ratio_in_the_general_path():
    # ratio 2 and entry 0 at exactly p/q = 2: a tie, left out of the event; the irrational
    # entries force the general path (hand computation: √2/4 < 2·1/4, 1/2 − √2/4 < 2·1/2)
    p = [F(1, 2), ROOT2 / 4, F(1, 2) - ROOT2 / 4]
    q = [F(1, 4), F(1, 4), F(1, 2)]
    assert hs.hockey_stick(p, q, F(2)) == (0, frozenset())
    # a tie hidden in a closed form: p_0 = _ONE/2 = 1/2 = q_0 at ratio 1
    value, event = hs.hockey_stick([_ONE / 2, F(1, 2)], [F(1, 2), F(1, 2)], F(1))
    assert event == frozenset() and value == 0


def test_at_most_decides_an_exact_closed_form_equality():
    assert sympy.simplify(_ONE - 1) == 0  # the identity above, checked by sympy
    assert hs.at_most(_ONE / 2, "1/2", name="delta")
    assert not hs.at_most(_ONE / 2, "49/100", name="delta")


def test_irrational_laws_with_a_rational_ratio_give_an_exact_rational_divergence():
    # p = (√2/4 + 1/4, 3/4 − √2/4), q = (√2/4, 1 − √2/4), ratio 1: only output 0 has p > q,
    # and p_0 − q_0 = 1/4 (hand computation), returned as a Fraction like every rational
    p = [ROOT2 / 4 + F(1, 4), F(3, 4) - ROOT2 / 4]
    q = [ROOT2 / 4, 1 - ROOT2 / 4]
    value, event = hs.hockey_stick(p, q, F(1))
    assert event == frozenset({0})
    assert type(value) is Fraction and value == F(1, 4)


def test_exact_max_decides_a_tie_between_closed_forms():
    # (e^{1/2} − 1)² − e + 2e^{1/2} = 1 = _ONE: equal values written differently (sympy's own
    # comparison cannot decide them); either index is a maximiser
    other_one = (_ROOT_E - 1) ** 2 - sympy.E + 2 * _ROOT_E
    value, index = hs.exact_max([_ONE, other_one])
    assert index in (0, 1) and sympy.simplify(value - 1) == 0
