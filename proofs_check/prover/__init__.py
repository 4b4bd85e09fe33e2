"""Proof engines: certify "lhs <= rhs at every point of a domain", or refute it exactly.

The checker's PASSED means "no counterexample among the instances tried"; a *proof* covers
every point of a stated domain.  :func:`prove_inequality` answers ``proved``, ``refuted``
(with an exact counterexample re-verified by exactpml) or ``unknown`` (never a proof), using

* z3's nlsat decision procedure for nonlinear real arithmetic (:mod:`.z3_engine`),
* certified branch-and-bound with Arb endpoints (:mod:`.branch_and_bound`),
* exhaustion of finite integer domains (:mod:`.exhaustion`).

:func:`every_prior` and :func:`every_channel` state finite-structure claims over every real
prior and kernel of a fixed size (:mod:`.structures`).

See ``docs/proving.md`` for what each engine covers and a worked ``@check`` claim.
"""

from proofs_check.prover.domain import Problem, build_problem
from proofs_check.prover.prove import (
    DEFAULT_MAX_BOXES,
    DEFAULT_MAX_POINTS,
    DEFAULT_TIMEOUT,
    ENGINES,
    MAX_BRANCH_VARIABLES,
    prove_inequality,
)
from proofs_check.prover.result import ProofResult
from proofs_check.prover.structures import (
    FiniteStructure,
    every_channel,
    every_prior,
    structure_domain,
)

__all__ = [
    "DEFAULT_MAX_BOXES",
    "DEFAULT_MAX_POINTS",
    "DEFAULT_TIMEOUT",
    "ENGINES",
    "MAX_BRANCH_VARIABLES",
    "FiniteStructure",
    "Problem",
    "ProofResult",
    "build_problem",
    "every_channel",
    "every_prior",
    "prove_inequality",
    "structure_domain",
]
