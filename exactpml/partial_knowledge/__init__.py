"""Partial-knowledge differential privacy: APKDP, PPKDP and Θ-reducibility, exactly.

Thesis *Lowering the cost of anonymization*, §3.1.3 (definitions restated in CLAIMS.md,
section ``pk.``).  One concept per module:

* :mod:`~exactpml.partial_knowledge.setting` — θ (independent records), i, t ≠ t', knowledge B;
* :mod:`~exactpml.partial_knowledge.counting` — count-based mechanisms and the exact
  Poisson-binomial law of a count (the sufficient statistic for n in the thousands);
* :mod:`~exactpml.partial_knowledge.laws` — the conditional output laws P[o | t, b];
* :mod:`~exactpml.partial_knowledge.thresholded` — δ_A(b) of a thresholded count over i.i.d.
  unknown records in closed form (a few binomial CDF values; Example 7 at 10^5 voters);
* :mod:`~exactpml.partial_knowledge.notions` — PLRV (Def 56), δ_A(b) (Def 57), PPKDP (Def 58);
* :mod:`~exactpml.partial_knowledge.reducibility` — Θ-reducibility (Def 59, Thm 2);
* :mod:`~exactpml.partial_knowledge.queries` — Prop 26's queries and their maps φ;
* :mod:`~exactpml.partial_knowledge.examples` — Example 7, Remark 2, counterexamples.
"""

from exactpml.core import boundary as _boundary
from exactpml.partial_knowledge.counting import (
    BOTTOM,
    CountingMechanism,
    KnownCount,
    count_numerators,
    thresholded_counting,
)
from exactpml.partial_knowledge.examples import (
    Example7,
    Example7Order,
    example_7,
    fixed_versus_other_records,
    reducibility_not_necessary,
    referendum,
    remark_2,
)
from exactpml.partial_knowledge.laws import KnowledgeLaws, LawPair, knowledge_laws
from exactpml.partial_knowledge.notions import (
    ORDERS,
    ActiveDelta,
    ActiveEpsilon,
    Orders,
    apkdp_delta,
    apkdp_epsilon,
    is_apkdp,
    is_ppkdp,
    knowledge_delta,
    knowledge_deltas,
    partial_knowledge_plrv,
    ppkdp_delta,
    ppkdp_epsilon,
)
from exactpml.partial_knowledge.queries import (
    ReducibleQuery,
    arithmetic_mean,
    counting_query,
    geometric_mean,
    harmonic_mean,
    linear_query,
    quadratic_mean,
)
from exactpml.partial_knowledge.reducibility import (
    MapCheck,
    Reducibility,
    ReducibilityCounterexample,
    check_reducibility_map,
    theta_reducibility,
)
from exactpml.partial_knowledge.setting import PartialKnowledge

__all__ = [
    "BOTTOM",
    "ORDERS",
    "ActiveDelta",
    "ActiveEpsilon",
    "CountingMechanism",
    "Example7",
    "Example7Order",
    "KnowledgeLaws",
    "KnownCount",
    "LawPair",
    "MapCheck",
    "Orders",
    "PartialKnowledge",
    "Reducibility",
    "ReducibilityCounterexample",
    "ReducibleQuery",
    "apkdp_delta",
    "apkdp_epsilon",
    "arithmetic_mean",
    "check_reducibility_map",
    "count_numerators",
    "counting_query",
    "example_7",
    "fixed_versus_other_records",
    "geometric_mean",
    "harmonic_mean",
    "is_apkdp",
    "is_ppkdp",
    "knowledge_delta",
    "knowledge_deltas",
    "knowledge_laws",
    "linear_query",
    "partial_knowledge_plrv",
    "ppkdp_delta",
    "ppkdp_epsilon",
    "quadratic_mean",
    "reducibility_not_necessary",
    "referendum",
    "remark_2",
    "theta_reducibility",
    "thresholded_counting",
]


_boundary.guard_public_names(globals())  # every public name behind its boundary
