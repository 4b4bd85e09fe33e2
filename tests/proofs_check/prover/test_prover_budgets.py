"""Every engine stops within its budget and answers ``unknown`` (never a guess).

No timing assertions: only that a query too hard for the time given, the boxes given or the
points given comes back ``unknown`` with the reason.
"""

from __future__ import annotations

import sympy
from sympy import Interval, oo

from proofs_check import prove_inequality

x, n = sympy.symbols("x n")


def test_a_slow_z3_query_with_a_tiny_timeout_is_unknown():
    """The power mean inequality in six variables takes z3 well over 20 s."""
    xs = sympy.symbols("x1:7")
    total = sum(xs)
    result = prove_inequality(total**4, 6**3 * sum(v**4 for v in xs),
                              {v: Interval(-oo, oo) for v in xs}, engine="z3", timeout=0.5)
    assert result.status == "unknown"
    assert "unknown" in result.detail or "timeout" in result.detail


def test_branch_and_bound_out_of_time_is_unknown_with_the_open_boxes():
    """-1/e <= x log x ties at the irrational point 1/e: no box around it ever closes."""
    result = prove_inequality(-1 / sympy.E, x * sympy.log(x), {x: Interval.open(0, oo)},
                              engine="branch_and_bound", timeout=0.5)
    assert result.status == "unknown"
    assert "out of time" in result.detail and "still open" in result.detail


def test_branch_and_bound_out_of_boxes_is_unknown():
    result = prove_inequality(-1 / sympy.E, x * sympy.log(x), {x: Interval.open(0, oo)},
                              engine="branch_and_bound", max_boxes=5)
    assert result.status == "unknown"
    assert "max_boxes=5" in result.detail


def test_exhaustion_out_of_time_is_unknown():
    result = prove_inequality(n, n**2, {n: Interval(0, 150_000)}, integers=[n],
                              timeout=0.2)
    assert result.status == "unknown"
    assert "out of time" in result.detail


def test_a_mixed_domain_shares_the_budget_and_names_the_point_it_stopped_at():
    result = prove_inequality(-1 / sympy.E, n * x * sympy.log(x),
                              {x: Interval.open(0, oo), n: Interval(1, 3)}, integers=[n],
                              timeout=1)
    assert result.status == "unknown"
    assert "n = 1" in result.detail
