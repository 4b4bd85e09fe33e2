"""Bad input to ``prove_inequality``: a clear exactpml error naming the entry, before any work.

One table (id, arguments, expected error class, fragments the message must contain).
"""

from __future__ import annotations

import pytest
import sympy
from sympy import Interval, oo

from exactpml.core.bounds import BoundExceeded
from exactpml.errors import InexactInput, InvalidArgument
from proofs_check import prove_inequality

x, y, n = sympy.symbols("x y n")
w, w2, w3, w4 = sympy.symbols("w w2 w3 w4")
UNIT = Interval(0, 1)

CASES = [
    ("float in lhs", (sympy.Float(0.5) * x, x, {x: UNIT}), {}, InexactInput, ["lhs", "0.5"]),
    ("python float lhs", (0.5, x, {x: UNIT}), {}, InexactInput, ["lhs", "0.5"]),
    ("float in rhs", (x, x + sympy.Float(0.25), {x: UNIT}), {}, InexactInput, ["rhs", "0.25"]),
    ("float interval end", (x, 1, {x: Interval(0, sympy.Float(0.5))}), {}, InexactInput,
     ["variables[x]", "0.5"]),
    ("float in a hypothesis", (x, 1, {x: UNIT}), {"assuming": [sympy.Le(x, sympy.Float(0.5))]},
     InexactInput, ["assuming[0]", "0.5"]),
    ("symbol without an interval", (x + y, 1, {x: UNIT}), {}, InvalidArgument,
     ["y", "variables"]),
    ("symbol of a hypothesis without an interval", (x, 1, {x: UNIT}),
     {"assuming": [sympy.Le(x + y, 1)]}, InvalidArgument, ["y"]),
    ("empty interval", (x, 1, {x: Interval(1, 0)}), {}, InvalidArgument,
     ["variables[x]", "empty"]),
    ("empty open interval", (x, 1, {x: Interval.open(1, 1)}), {}, InvalidArgument,
     ["variables[x]", "empty"]),
    ("not an interval", (x, 1, {x: (0, 1)}), {}, InvalidArgument,
     ["variables[x]", "sympy.Interval"]),
    ("variables not a mapping", (x, 1, [x]), {}, InvalidArgument, ["variables"]),
    ("no variables", (1, 2, {}), {}, InvalidArgument, ["variables"]),
    ("key not a symbol", (x, 1, {"x": UNIT}), {}, InvalidArgument, ["'x'", "Symbol"]),
    ("two symbols named x", (x, 1, {x: UNIT, sympy.Symbol("x", positive=True): UNIT}), {},
     InvalidArgument, ["named x"]),
    ("integer range without integers", (n, 1, {n: Interval.open(0, 1)}), {"integers": [n]},
     InvalidArgument, ["variables[n]", "no integer"]),
    ("integers not in variables", (x, 1, {x: UNIT}), {"integers": [n]}, InvalidArgument,
     ["integers", "n"]),
    ("unknown engine", (x, 1, {x: UNIT}), {"engine": "magic"}, InvalidArgument,
     ["engine", "magic"]),
    ("zero timeout", (x, 1, {x: UNIT}), {"timeout": 0}, InvalidArgument, ["timeout"]),
    ("negative timeout", (x, 1, {x: UNIT}), {"timeout": -1}, InvalidArgument, ["timeout"]),
    ("bool timeout", (x, 1, {x: UNIT}), {"timeout": True}, InvalidArgument, ["timeout"]),
    ("text timeout", (x, 1, {x: UNIT}), {"timeout": "5"}, InvalidArgument, ["timeout"]),
    ("zero max_boxes", (x, 1, {x: UNIT}), {"max_boxes": 0}, InvalidArgument, ["max_boxes"]),
    ("strict not a bool", (x, 1, {x: UNIT}), {"strict": "yes"}, InvalidArgument, ["strict"]),
    ("hypothesis not a relation", (x, 1, {x: UNIT}), {"assuming": [x + 1]}, InvalidArgument,
     ["assuming[0]", "relation"]),
    ("hypothesis that evaluated to a constant", (x, 1, {x: UNIT}),
     {"assuming": [sympy.Le(1, 2)]}, InvalidArgument, ["assuming[0]"]),
    ("lhs a relation", (sympy.Le(x, 1), 1, {x: UNIT}), {}, InvalidArgument, ["lhs"]),
    ("complex lhs", (x + sympy.I, 1, {x: UNIT}), {}, InvalidArgument, ["lhs", "complex"]),
    ("infinity in rhs", (x, x + oo, {x: UNIT}), {}, InvalidArgument, ["rhs"]),
    ("nan in rhs", (x, sympy.nan, {x: UNIT}), {}, InvalidArgument, ["rhs"]),
    ("positive symbol on a signed range", (sympy.Symbol("t", positive=True), 1,
                                            {sympy.Symbol("t", positive=True): Interval(-1, 1)}),
     {}, InvalidArgument, ["variables[t]", "positive"]),
    ("rational symbol", (sympy.Symbol("r", rational=True), 1,
                         {sympy.Symbol("r", rational=True): UNIT}), {}, InvalidArgument,
     ["variables[r]", "rational"]),
    ("exhaustion of a real variable", (x, 1, {x: UNIT}), {"engine": "exhaustion"},
     InvalidArgument, ["exhaustion", "x"]),
    ("exhaustion of an infinite range", (n, n**2, {n: Interval(0, oo)}),
     {"engine": "exhaustion", "integers": [n]}, InvalidArgument, ["finite", "n"]),
    ("too many integer points", (n, n**2, {n: Interval(0, 1000)}),
     {"integers": [n], "max_points": 100}, BoundExceeded, ["1001 points", "max_points=100"]),
    ("too many points in a mixed domain", (n * x, n**2, {x: UNIT, n: Interval(0, 1000)}),
     {"integers": [n], "max_points": 100}, BoundExceeded, ["max_points"]),
    ("a huge power", (x**5000, 1, {x: UNIT}), {}, BoundExceeded, ["symbolic_exponent"]),
    ("a huge power over the integer range", ((1 + x) ** n, 2**n,
                                             {x: UNIT, n: Interval(0, 5000)}),
     {"integers": [n]}, BoundExceeded, ["symbolic_exponent", "5000"]),
    ("branch-and-bound in four variables", (w * w2 * w3 * w4, 1,
                                            {w: UNIT, w2: UNIT, w3: UNIT, w4: UNIT}),
     {"engine": "branch_and_bound"}, InvalidArgument, ["at most 3", "w4"]),
    ("branch-and-bound over all integers", (n, n**2, {n: Interval(-oo, oo)}),
     {"engine": "branch_and_bound", "integers": [n]}, InvalidArgument, ["finite"]),
]


@pytest.mark.parametrize(("arguments", "options", "error", "fragments"),
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_bad_input_is_refused_naming_the_entry(arguments, options, error, fragments):
    with pytest.raises(error) as raised:
        prove_inequality(*arguments, **options)
    message = str(raised.value)
    for fragment in fragments:
        assert fragment in message, message


def test_an_unsupported_function_gives_unknown_not_a_crash():
    result = prove_inequality(sympy.gamma(x), 10, {x: Interval(1, 2)})
    assert result.status == "unknown"
    assert "gamma" in result.detail


def test_a_symbol_declared_integer_ranges_over_the_integers():
    k = sympy.Symbol("k", integer=True)
    result = prove_inequality(k**2, 2**k, {k: Interval(4, 20)})
    assert result.status == "proved"
    assert result.engine == "integer exhaustion"
    assert result.domain == "every k in {4, ..., 20}"
