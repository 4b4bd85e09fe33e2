"""Random exact instances shared by the checks of Saeidian et al. §2–3.

Thin compositions of the public strategies of :mod:`exactpml.strategies`: a mechanism
with a prior, an attribute kernel P_{U|X} on its inputs (deterministic ones, constants
included, and randomised ones) and, where a claim quantifies over adversaries, a
full-support prior Q_X.  Every value is exact (``Fraction`` entries), so a shrunk
counterexample can be reproduced by hand.  One instance carries everything a check
needs, because drawing is most of the cost of a property (about 2.5 ms per mechanism).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TypeVar

from hypothesis import strategies as st

from exactpml import Distribution, Mechanism
from exactpml import strategies as xst
from proofs_check import Evidence, exact_repr
from proofs_check.claims._draws import once_per_values

T = TypeVar("T")

__all__ = [
    "MIXING_WEIGHTS",
    "edge_cases",
    "finite_capacity_mechanisms",
    "mechanism_attribute_two_adversaries",
    "mechanism_prior_attribute",
    "non_constant_deterministic_attributes",
    "private_leaning_mechanisms",
]

MIXING_WEIGHTS = (Fraction(1), Fraction(1, 2), Fraction(1, 10), Fraction(1, 1000))
"""Weights λ of λ·P_{Y|X} + (1-λ)·(uniform output): 1 keeps the drawn kernel."""


_MIXING = st.sampled_from(MIXING_WEIGHTS)


@st.composite
def private_leaning_mechanisms(draw: st.DrawFn) -> Mechanism:
    """Random kernels, often mixed with the uniform-output kernel to leak little.

    Low leakage makes hypotheses such as H_inf(P_U) > max_y l(X->y) (Thm 3.5) hold on
    many instances instead of few; λ = 1 keeps the zeros and deterministic rows.
    """
    mechanism = draw(xst.mechanisms())
    weight = draw(_MIXING)
    if weight == 1:
        return mechanism
    width = len(mechanism.outputs)
    uniform = Mechanism.from_matrix(
        [[Fraction(1, width)] * width for _ in mechanism.inputs],
        inputs=mechanism.inputs,
        outputs=mechanism.outputs,
    )
    return mechanism.mixture(uniform, weight)


@st.composite
def mechanism_prior_attribute(
    draw: st.DrawFn,
    *,
    mechanisms: st.SearchStrategy[Mechanism] | None = None,
    full_support: bool = False,
) -> tuple[Mechanism, Distribution, Mechanism]:
    """(P_{Y|X}, P_X, P_{U|X}): zeros, ties, deterministic rows and outputs of mass 0."""
    mechanism = draw(xst.mechanisms() if mechanisms is None else mechanisms)
    prior = draw(xst.distributions(outcomes=mechanism.inputs, full_support=full_support))
    attribute = draw(xst.attributes(mechanism.inputs))
    return mechanism, prior, attribute


@st.composite
def mechanism_attribute_two_adversaries(
    draw: st.DrawFn, *, second_full_support: bool = True
) -> tuple[Mechanism, Mechanism, Distribution, Distribution]:
    """(P_{Y|X}, P_{U|X}, Q_X, R_X): Q_X of full support, R_X too unless told otherwise."""
    mechanism = draw(xst.mechanisms())
    attribute = draw(xst.attributes(mechanism.inputs))
    first = draw(xst.distributions(outcomes=mechanism.inputs, full_support=True))
    second = draw(xst.distributions(outcomes=mechanism.inputs, full_support=second_full_support))
    return mechanism, attribute, first, second


@st.composite
def finite_capacity_mechanisms(draw: st.DrawFn, *, min_inputs: int = 1) -> Mechanism:
    """Kernels with C(P_{Y|X}) < oo: strictly positive columns, sometimes plus an all-zero one.

    An all-zero column (an output no input produces) does not make the capacity infinite
    (Def 2.7 ignores it), and its posterior is the prior (footnote 5).
    """
    mechanism = draw(xst.mechanisms(min_inputs=min_inputs, zeros=False))
    if not draw(st.booleans()):
        return mechanism
    rows = [[*row, Fraction(0)] for row in mechanism.rows]
    return Mechanism.from_matrix(
        rows, inputs=mechanism.inputs, outputs=[*mechanism.outputs, "never"]
    )


@once_per_values
def non_constant_deterministic_attributes(
    inputs: tuple[object, ...],
) -> st.SearchStrategy[Mechanism]:
    """Deterministic attributes V = f(X) taking at least two values (needs |X| >= 2)."""
    return xst.attributes(inputs, min_values=2, deterministic=True).filter(
        lambda kernel: len({row.index(Fraction(1)) for row in kernel.rows}) >= 2
    )


def edge_cases(
    instances: Sequence[T],
    holds: Callable[[T], bool],
    *,
    describe: str,
    explain: Callable[[T], str] | None = None,
) -> Evidence:
    """P evidence from pinned edge cases (like Hypothesis's ``@example``), checked exactly.

    The instances are fixed exact objects that random search reaches rarely, e.g. a
    prior with zeros whose unreachable output reveals the secret to another adversary.
    """
    label = f"{describe} (pinned edge cases)"
    for position, instance in enumerate(instances, start=1):
        if not holds(instance):
            shown = exact_repr(instance, name="edge case")
            if explain is not None:
                shown = f"{shown}; {explain(instance)}"
            return Evidence(
                "P",
                False,
                f"{describe}: failed on pinned edge case {position} of {len(instances)}",
                counterexample=shown,
                label=label,
            )
    count = len(instances)
    return Evidence(
        "P",
        True,
        f"{describe}: held on {count} pinned edge case{'s' if count != 1 else ''}",
        label=label,
    )
