"""``bldp.post_processing`` and ``bldp.leak_release``: what may be done with a BLDP release.

Ligett, Peale, Reingold, *Bounded-Leakage Differential Privacy*, Properties (post-processing)
and the explicit release of the leakage: f∘M, with f's randomness independent of r, keeps
(ε, δ)-BLDP w.r.t. the same P, and releasing (M(x, r), P(x, r)) keeps M's parameters.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from exactpml import LogValue
from exactpml import strategies as xst
from exactpml.bldp import (
    BoundedLeakageModel,
    bldp_delta,
    bldp_epsilon,
    post_process,
    release_leakage,
)
from proofs_check import CheckContext, Evidence, check, property_holds
from proofs_check.claims.bldp._common import MODELS, RATIOS, explain
from proofs_check.reference.bldp import (
    conditionals,
    dp_conditionals,
    model_delta,
    model_epsilon,
    neighbour_pairs,
)

__all__ = ["leak_release", "post_processing"]


@st.composite
def _post_processing_instances(draw: st.DrawFn) -> tuple[Any, ...]:
    model = draw(MODELS)
    outputs = sorted({m for row in model.outputs.values() for m in row}, key=repr)
    results = list(range(draw(st.integers(1, 3))))
    kernel = draw(xst.mechanisms(inputs=outputs, outputs=results))
    cells = [(m, r) for m in outputs for r in model.randomness.outcomes]
    reading = dict(
        zip(
            cells,
            draw(st.lists(st.sampled_from(results), min_size=len(cells), max_size=len(cells))),
            strict=True,
        )
    )
    return model, kernel, reading, draw(RATIOS)


@check(
    "bldp.post_processing",
    mutants={
        "reads_randomness": "f may read M's randomness r (the independence hypothesis dropped)",
    },
)
def post_processing(ctx: CheckContext) -> list[Evidence]:
    """bldp.post_processing — poster, "Properties": post-processing.

    Statement: if M is (ε,δ)-BLDP w.r.t. P, then f∘M, where f has its own randomness
    independent of r, is (ε,δ)-BLDP w.r.t. the same P.

    P: on random models, random post-processing kernels f (realised by exactpml's
    ``post_process`` with finite randomness of its own) and e^ε: the definition on the raw
    tables of f∘M gives δ(ε) ≤ that of M and ε ≤ that of M; exactpml's values for f∘M equal
    the definition's.
    """

    def holds(instance: tuple[Any, ...]) -> bool:
        model, kernel, reading, ratio = instance
        if ctx.mutant == "reads_randomness":
            processed = BoundedLeakageModel(
                model.randomness,
                {
                    (x, r): reading[(m, r)]
                    for x in model.databases
                    for r, m in zip(model.randomness.outcomes, model.outputs[x], strict=True)
                },
                {
                    (x, r): o
                    for x in model.databases
                    for r, o in zip(model.randomness.outcomes, model.leakages[x], strict=True)
                },
                databases=model.databases,
            )
        else:
            processed = post_process(model, kernel)
        pairs = neighbour_pairs(model)
        before, after = conditionals(model), conditionals(processed)
        delta = model_delta(after, pairs, ratio)
        epsilon = model_epsilon(after, pairs)
        if bldp_delta(processed, LogValue(ratio)).delta != delta:
            return False
        if bldp_epsilon(processed).epsilon != epsilon:
            return False
        return delta <= model_delta(before, pairs, ratio) and epsilon <= model_epsilon(
            before, pairs
        )

    return [
        property_holds(
            ctx,
            _post_processing_instances(),
            holds,
            describe="f∘M (f's randomness independent of r) has δ(ε) and ε at most M's",
            explain=explain,
        )
    ]


@check(
    "bldp.leak_release",
    mutants={
        "dp_kept": "releasing the leakage keeps the (ε,δ)-DP parameters of M (leakage not "
        "conditioned on)",
    },
)
def leak_release(ctx: CheckContext) -> list[Evidence]:
    """bldp.leak_release — poster, "Properties": explicitly leaking P does not affect BLDP.

    Statement: M'(x, r) = (M(x, r), P(x, r)) has the same BLDP parameters w.r.t. P as M.

    P: on random models and e^ε: the definition on the raw tables gives the same δ(ε) and ε
    for (M, P) as for M (given P = o the second coordinate is the constant o), and exactpml's
    ``release_leakage`` values equal them.
    """

    def holds(instance: tuple[BoundedLeakageModel, Fraction]) -> bool:
        model, ratio = instance
        released = release_leakage(model)
        pairs = neighbour_pairs(model)
        if ctx.mutant == "dp_kept":
            return bool(
                model_delta(dp_conditionals(released), pairs, ratio)
                == model_delta(dp_conditionals(model), pairs, ratio)
            )
        before, after = conditionals(model), conditionals(released)
        delta = model_delta(after, pairs, ratio)
        return (
            delta
            == model_delta(before, pairs, ratio)
            == bldp_delta(released, LogValue(ratio)).delta
            and model_epsilon(after, pairs)
            == model_epsilon(before, pairs)
            == bldp_epsilon(released).epsilon
        )

    return [
        property_holds(
            ctx,
            st.tuples(MODELS, RATIOS),
            holds,
            describe="(M, P) has the BLDP parameters of M",
            explain=explain,
        )
    ]
