"""A user's own claim module, registered in the default registry (run with --module)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from proofs_check import CheckContext, Evidence, check, exact_instances, property_holds


@check(
    "mylab.am_gm",
    source="my lab notes",
    result="Lemma 1",
    statement="(a + b)/2 >= sqrt(a b), squared: (a + b)^2 >= 4 a b for rationals a, b >= 0",
    kinds="EP",
    mutants={"strict": "(a + b)^2 > 4 a b"},
)
def am_gm(ctx: CheckContext) -> list[Evidence]:
    """AM-GM for two non-negative rationals, squared to stay rational."""
    strict = ctx.mutant == "strict"

    def holds(pair: tuple[Fraction, Fraction]) -> bool:
        a, b = pair
        return (a + b) ** 2 > 4 * a * b if strict else (a + b) ** 2 >= 4 * a * b

    pairs = st.tuples(
        st.fractions(min_value=0, max_value=50), st.fractions(min_value=0, max_value=50)
    )
    return [
        exact_instances({"a = 1, b = 4": ((1 + 4) ** 2, 25)}),
        property_holds(
            ctx,
            pairs,
            holds,
            describe="(a+b)^2 > 4ab" if strict else "(a+b)^2 >= 4ab",
            explain=lambda p: f"(a+b)^2 = {(p[0] + p[1]) ** 2}, 4ab = {4 * p[0] * p[1]}",
        ),
    ]
