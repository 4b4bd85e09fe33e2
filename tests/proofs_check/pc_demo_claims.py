"""Demo claims for the proofs_check tests, in test-local registries.

``demo_registry`` holds true toy claims whose checks pass and whose mutants fail with an
exact counterexample, one per evidence kind and one with every kind.  ``false_registry``
holds a toy "source" claim that is false as written (its check fails un-mutated).  ``odd_registry``
holds checks that misbehave on purpose (raise, return undecided or incomplete evidence),
to test the verdicts.  Functions are at module level so worker processes can import them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

import sympy
from hypothesis import strategies as st
from mpmath import iv

from proofs_check import (
    CheckContext,
    Evidence,
    Registry,
    certified_evidence,
    check,
    exact_instances,
    limit_evidence,
    not_checkable,
    property_holds,
    witness_evidence,
)

demo_registry = Registry()
false_registry = Registry()
odd_registry = Registry()


@contextmanager
def interval_dps(dps: int) -> Iterator[None]:
    """Work at ``dps`` decimal digits in mpmath's interval context, then restore it."""
    saved = iv.dps
    iv.dps = dps
    try:
        yield
    finally:
        iv.dps = saved


RATIONALS = st.fractions(min_value=-100, max_value=100, max_denominator=1000)


@check(
    "demo.square_nonnegative",
    source="proofs_check demo",
    result="Toy lemma 1",
    statement="x*x >= 0 for every rational x",
    kinds="PE",
    mutants={"strict": "x*x > 0 instead of x*x >= 0"},
    registry=demo_registry,
)
def square_nonnegative(ctx: CheckContext) -> list[Evidence]:
    """x*x >= 0 on the text's instances and on random rationals."""
    strict = ctx.mutant == "strict"

    def holds(x: Fraction) -> bool:
        return x * x > 0 if strict else x * x >= 0

    return [
        exact_instances(
            {"x = 3": (Fraction(3) ** 2, 9), "x = -1/2": (Fraction(-1, 2) ** 2, "1/4")}
        ),
        property_holds(
            ctx,
            RATIONALS,
            holds,
            describe="x*x > 0" if strict else "x*x >= 0",
            explain=lambda x: f"x = {x}, x*x = {x * x}",
        ),
    ]


@check(
    "demo.limit_half",
    source="proofs_check demo",
    result="Toy lemma 2",
    statement="t/(2t) -> 1/2 as t -> 0+, and 1/2 is attained",
    kinds="L",
    mutants={"wrong_value": "the limit is 1", "wrong_attainment": "the limit is not attained"},
    registry=demo_registry,
)
def limit_half(ctx: CheckContext) -> list[Evidence]:
    """The limit of t/(2t) at 0+ is 1/2, attained (the function is constant)."""
    t = sympy.Symbol("t", positive=True)
    value = sympy.limit(t / (2 * t), t, 0, "+")
    expected = 1 if ctx.mutant == "wrong_value" else sympy.Rational(1, 2)
    return [
        limit_evidence(
            value,
            expected,
            attained=True,
            family="t/(2t), t -> 0+",
            expected_attained=ctx.mutant != "wrong_attainment",
        )
    ]


@check(
    "demo.rational_between",
    source="proofs_check demo",
    result="Toy lemma 3",
    statement="there is a rational strictly between 1/3 and 1/2",
    kinds="W",
    mutants={"empty_interval": "between 1/3 and 1/3"},
    registry=demo_registry,
)
def rational_between(ctx: CheckContext) -> list[Evidence]:
    """The midpoint is a witness."""
    low = Fraction(1, 3)
    high = low if ctx.mutant == "empty_interval" else Fraction(1, 2)
    witness = (low + high) / 2
    verified = low < witness < high
    return [
        witness_evidence(
            f"the midpoint {witness} lies strictly between {low} and {high}",
            verified,
            values={"midpoint": witness},
            counterexample=None if verified else f"{low} < {witness} < {high} is false",
        )
    ]


@check(
    "demo.e_above",
    source="proofs_check demo",
    result="Toy lemma 4",
    statement="e > 27/10",
    kinds="C",
    mutants={"raised_bound": "e > 28/10"},
    registry=demo_registry,
)
def e_above(ctx: CheckContext) -> list[Evidence]:
    """An interval enclosure of e - bound excludes 0."""
    bound = Fraction(28, 10) if ctx.mutant == "raised_bound" else Fraction(27, 10)
    with interval_dps(30):
        difference = iv.e - iv.mpf(bound.numerator) / bound.denominator
        holds = True if difference.a > 0 else False if difference.b < 0 else None
        enclosure = str(difference)
    return [
        certified_evidence(
            f"e > {bound}",
            30,
            holds=holds,
            values={"bound": bound},
            counterexample=None if holds is not False else f"e - {bound} lies in {enclosure}",
        )
    ]


@check(
    "demo.all_kinds",
    source="proofs_check demo",
    result="Toy theorem 5",
    statement="log(9/5) = log 9 - log 5; |x| >= x; lim 1/n = 0; 2 is even; pi > 3",
    kinds="EPLWC",
    mutants={"flipped": "|x| <= x instead of |x| >= x"},
    registry=demo_registry,
)
def all_kinds(ctx: CheckContext) -> list[Evidence]:
    """Evidence of every kind."""
    n = sympy.Symbol("n", positive=True)
    flipped = ctx.mutant == "flipped"
    with interval_dps(20):
        pi_minus_3 = iv.pi - 3
    return [
        exact_instances(
            {"log(9/5)": (sympy.log(9) - sympy.log(5), sympy.log(sympy.Rational(9, 5)))}
        ),
        property_holds(
            ctx,
            RATIONALS,
            (lambda x: abs(x) <= x) if flipped else (lambda x: abs(x) >= x),
            describe="|x| <= x" if flipped else "|x| >= x",
        ),
        limit_evidence(sympy.limit(1 / n, n, sympy.oo), 0, attained=False, family="1/n, n -> oo"),
        witness_evidence("2 = 2 * 1 is even", 2 % 2 == 0, values={"k": 1}),
        certified_evidence("pi > 3", 20, holds=bool(pi_minus_3.a > 0)),
    ]


@check(
    "demo.source_error",
    source="proofs_check demo",
    result="Toy claim 6",
    statement="x*x >= x for every rational x",
    kinds="P",
    known_false="x*x < x for 0 < x < 1",
    mutants={"flipped": "x*x <= x instead"},
    registry=false_registry,
)
def source_error(ctx: CheckContext) -> list[Evidence]:
    """The source's statement as written (false), or its flipped mutant (also false)."""
    flipped = ctx.mutant == "flipped"

    def holds(x: Fraction) -> bool:
        return x * x <= x if flipped else x * x >= x

    return [property_holds(ctx, RATIONALS, holds, describe="x*x <= x" if flipped else "x*x >= x")]


@check(
    "odd.raises",
    source="demo",
    result="Odd 1",
    statement="raises",
    kinds="P",
    mutants={"m": "m"},
    registry=odd_registry,
)
def raises(ctx: CheckContext) -> list[Evidence]:
    """A check with a bug."""
    return [Evidence("P", True, f"{1 // 0}")]


@check(
    "odd.undecided",
    source="demo",
    result="Odd 2",
    statement="undecided",
    kinds="E",
    mutants={"m": "m"},
    registry=odd_registry,
)
def undecided(ctx: CheckContext) -> list[Evidence]:
    """An exact comparison that cannot be settled."""
    return [exact_instances({"x": (1, 1)}, equal=lambda a, b: None)]


@check(
    "odd.missing_kind",
    source="demo",
    result="Odd 3",
    statement="missing L",
    kinds="EL",
    mutants={"m": "m"},
    registry=odd_registry,
)
def missing_kind(ctx: CheckContext) -> list[Evidence]:
    """Only the E part is implemented."""
    return [exact_instances({"x": (1, 1)})]


@check(
    "odd.extra_kind",
    source="demo",
    result="Odd 4",
    statement="extra W",
    kinds="E",
    mutants={"m": "m"},
    registry=odd_registry,
)
def extra_kind(ctx: CheckContext) -> list[Evidence]:
    """Returns a kind the claim does not list."""
    return [exact_instances({"x": (1, 1)}), witness_evidence("w", True)]


@check(
    "odd.not_checkable",
    source="demo",
    result="Odd 5",
    statement="lost",
    kinds="W",
    mutants={"m": "m"},
    registry=odd_registry,
)
def lost(ctx: CheckContext) -> list[Evidence]:
    """The statement was lost."""
    return [not_checkable("statement lost in extraction", kind="W")]


@check(
    "odd.wrong_return",
    source="demo",
    result="Odd 6",
    statement="returns junk",
    kinds="E",
    mutants={"m": "m"},
    registry=odd_registry,
)
def wrong_return(ctx: CheckContext) -> list[Evidence]:
    """Returns something that is not evidence."""
    return ["held"]  # type: ignore[list-item]


@check(
    "odd.worker_dies",
    source="demo",
    result="Odd 7",
    statement="kills its process",
    kinds="E",
    mutants={"m": "m"},
    registry=odd_registry,
)
def worker_dies(ctx: CheckContext) -> list[Evidence]:
    """Kills the worker process (only ever run in a worker process)."""
    os._exit(3)


@check(
    "odd.runs_forever",
    source="demo",
    result="Odd 8",
    statement="never returns",
    kinds="E",
    mutants={"m": "m"},
    registry=odd_registry,
)
def runs_forever(ctx: CheckContext) -> list[Evidence]:
    """Busy in pure Python without end (only ever run with a --timeout, in a worker)."""
    count = 0
    while True:
        count += 1
