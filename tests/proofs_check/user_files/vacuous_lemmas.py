"""A user's claim file with one honest claim and one vacuous one (its check never reads
``ctx.mutant``), loaded by path: ``--module tests/proofs_check/user_files/vacuous_lemmas.py``."""

from __future__ import annotations

from hypothesis import strategies as st

from proofs_check import CheckContext, Evidence, check, exact_instances, property_holds


@check(
    "userfile.square",
    source="my notes",
    result="Lemma 1",
    statement="x*x >= 0 for every rational x",
    kinds="PE",
    mutants={"strict": "x*x > 0 for every rational x"},
)
def square(ctx: CheckContext) -> list[Evidence]:
    """Squares are non-negative; the mutant claims they are positive (false at 0)."""
    strict = ctx.mutant == "strict"
    return [
        exact_instances({"x = 3": (3 * 3, 9)}),
        property_holds(
            ctx,
            st.fractions(),
            (lambda x: x * x > 0) if strict else (lambda x: x * x >= 0),
            describe="x*x > 0" if strict else "x*x >= 0",
            explain=lambda x: f"x*x = {x * x}",
        ),
    ]


@check(
    "userfile.vacuous",
    source="my notes",
    result="Lemma 2",
    statement="x + 1 > x for every rational x",
    kinds="P",
    mutants={"reversed": "x + 1 < x for every rational x"},
)
def vacuous(ctx: CheckContext) -> list[Evidence]:
    """The defect under test: the mutant is declared but never switched on."""
    return [property_holds(ctx, st.fractions(), lambda x: x + 1 > x, describe="x + 1 > x")]
