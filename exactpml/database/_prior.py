"""Priors on D^n (joint, product, i.i.d.), entry marginals and conditionals, entry leakages.

Saeidian et al., §4: P_X on D^n, the marginal P_{D_i}, the conditional
P_{D_i | D_{-i} = d_{-i}}, and the leakages l(D_i -> y) and l(D_i -> y | d_{-i}) of Thm 4.2
and Thm 4.5.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import prove_zero
from exactpml.core.display import pretty
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, exact_product, exact_quotient, exact_sum
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.database._mechanism import (
    DatabaseMechanism,
    StructuredDatabaseMechanism,
    as_database_mechanism,
)
from exactpml.database._space import Database, DatabaseSpace, Label, check_index
from exactpml.errors import InvalidArgument
from exactpml.leakage.pml import conditional_pointwise_maximal_leakage, pointwise_maximal_leakage

__all__ = [
    "ProductPrior",
    "check_database_prior",
    "conditional_entry_leakage",
    "entry_conditional",
    "entry_leakage",
    "entry_marginal",
    "joint_prior",
]


# --- priors on D^n --------------------------------------------------------------------
def joint_prior(
    space: DatabaseSpace,
    probabilities: Mapping[Database, object],
    *,
    name: str = "prior",
) -> Distribution:
    """An explicit (possibly correlated) prior on D^n; databases not named get probability 0.

    Every key must be a database of ``space`` and the probabilities must sum to 1.

    >>> space = DatabaseSpace([0, 1], 2)
    >>> prior = joint_prior(space, {(0, 0): "1/2", (1, 1): "1/2"})
    >>> entry_marginal(prior, 0)[1]
    Fraction(1, 2)
    """
    if not isinstance(space, DatabaseSpace):
        raise InvalidArgument(f"space must be a DatabaseSpace, got {type(space).__name__}")
    if not isinstance(probabilities, Mapping):
        raise InvalidArgument(
            f"{name} must be a mapping database -> probability, got {type(probabilities).__name__}"
        )
    checked: dict[Database, object] = {}
    for key, value in probabilities.items():
        checked[space.check(key, name=f"{name}: database")] = value
    entries = [(x, checked.get(x, 0)) for x in space.databases()]
    return Distribution(entries, name=name)


def check_database_prior(
    space: DatabaseSpace, prior: object, *, name: str = "prior"
) -> Distribution | ProductPrior:
    """Raise unless ``prior`` is a Distribution on exactly D^n or a ProductPrior on ``space``."""
    if isinstance(prior, ProductPrior):
        if prior.space != space:
            raise InvalidArgument(
                f"{name} is a product prior on {abbreviated(prior.space.size)} entries over "
                f"{abbreviated_repr(list(prior.space.alphabet))}, but the databases have "
                f"n={abbreviated(space.size)} entries "
                f"over {abbreviated_repr(list(space.alphabet))}"
            )
        return prior
    if not isinstance(prior, Distribution):
        raise InvalidArgument(
            f"{name} must be a Distribution on D^n or a ProductPrior, got {type(prior).__name__}"
        )
    for outcome in prior.outcomes:
        space.check(outcome, name=f"{name} is not a distribution on D^n: outcome")
    if len(prior) != space.count:
        missing = next(x for x in space.databases() if x not in prior)
        raise InvalidArgument(
            f"{name} is not a distribution on D^n: database {abbreviated_repr(missing)} is missing "
            "(build it "
            "with joint_prior, which fills in zeros)"
        )
    return prior


@dataclass(frozen=True, slots=True, init=False, eq=False)
class ProductPrior:
    """A product prior P_X = Π_i P_{D_i} on D^n (the set Q_X of Saeidian et al., §4).

    Kept as its n marginals, so n in the thousands costs nothing until :meth:`joint` is
    called.  Build i.i.d. priors with :meth:`iid`.

    Args:
        marginals: one distribution on D per entry (Distributions or mappings).
        alphabet: D, in order; by default the first marginal's outcomes.
    """

    space: DatabaseSpace
    marginals: tuple[Distribution, ...]

    def __init__(
        self,
        marginals: Sequence[Distribution | Mapping[Label, object]],
        *,
        alphabet: Iterable[Label] | None = None,
    ) -> None:
        if isinstance(marginals, (Distribution, Mapping)) or not isinstance(marginals, Sequence):
            raise InvalidArgument(
                "marginals must be a sequence of distributions on D, one per entry "
                "(use ProductPrior.iid for identical entries)"
            )
        if not marginals:
            raise InvalidArgument("marginals: a product prior needs at least one entry")
        factors = [
            m if isinstance(m, Distribution) else Distribution(m, name=f"marginals[{i}]")
            for i, m in enumerate(marginals)
        ]
        letters = tuple(factors[0].outcomes) if alphabet is None else tuple(alphabet)
        space = DatabaseSpace(letters, len(factors))
        for i, factor in enumerate(factors):
            if set(factor.outcomes) != set(space.alphabet) or len(factor) != len(space.alphabet):
                raise InvalidArgument(
                    f"marginals[{abbreviated(i)}] is over "
                    f"{abbreviated_repr(list(factor.outcomes))}, not over the alphabet "
                    f"{abbreviated_repr(list(space.alphabet))}"
                )
        ordered = tuple(
            f
            if f.outcomes == space.alphabet
            else Distribution._trusted(space.alphabet, [f[d] for d in space.alphabet], f.conditions)
            for f in factors
        )
        object.__setattr__(self, "space", space)
        object.__setattr__(self, "marginals", ordered)

    @classmethod
    def iid(cls, marginal: Distribution | Mapping[Label, object], size: int) -> ProductPrior:
        """The i.i.d. prior: every entry has law ``marginal``.

        >>> ProductPrior.iid({"a": "1/3", "b": "2/3"}, 1000).space.size
        1000
        """
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise InvalidArgument(f"size={abbreviated_repr(size)} must be an int of at least 1")
        factor = marginal if isinstance(marginal, Distribution) else Distribution(marginal)
        self = object.__new__(cls)
        object.__setattr__(self, "space", DatabaseSpace(factor.outcomes, size))
        object.__setattr__(self, "marginals", (factor,) * size)
        return self

    @property
    def is_identical(self) -> bool:
        """True when every entry has the same law (an i.i.d. prior)."""
        first = self.marginals[0]
        return all(m is first or m == first for m in self.marginals[1:])

    @property
    def has_full_support(self) -> bool:
        """True when every marginal has full support (so P_X is in the set P_X of §4)."""
        return all(m.has_full_support for m in self.marginals)

    def marginal(self, index: int) -> Distribution:
        """P_{D_i}."""
        return self.marginals[check_index(index, self.space.size)]

    def probability(self, database: Database) -> Scalar:
        """p_X(x) = Π_i p_{D_i}(d_i)."""
        x = self.space.check(database)
        value: Scalar = Fraction(1)
        for factor, entry in zip(self.marginals, x, strict=True):
            value = exact_product(value, factor[entry])
        return value

    def joint(self) -> Distribution:
        """The prior as a Distribution on D^n (``|D|^n`` outcomes: small n only)."""
        return Distribution.product(list(self.marginals))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ProductPrior):
            return NotImplemented
        return self.space == other.space and all(
            a == b for a, b in zip(self.marginals, other.marginals, strict=True)
        )

    def __hash__(self) -> int:
        return hash((self.space, self.marginals))

    def __repr__(self) -> str:
        """Python that rebuilds this prior: ``ProductPrior.iid(Distribution({...}), n)`` or
        ``ProductPrior([Distribution({...}), ...])``."""
        if self.is_identical:
            return f"ProductPrior.iid({self.marginals[0]!r}, {self.space.size})"
        return f"ProductPrior({list(self.marginals)!r})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)


def _prior_space(prior: object, name: str = "prior") -> DatabaseSpace:
    if isinstance(prior, ProductPrior):
        return prior.space
    if not isinstance(prior, Distribution):
        raise InvalidArgument(
            f"{name} must be a Distribution on D^n or a ProductPrior, got {type(prior).__name__}"
        )
    first = prior.outcomes[0]
    if not isinstance(first, tuple) or not first:
        raise InvalidArgument(
            f"{name} is not a distribution on D^n: outcome {abbreviated_repr(first)}"
        )
    alphabet = dict.fromkeys(entry for x in prior.outcomes if isinstance(x, tuple) for entry in x)
    space = DatabaseSpace(alphabet, len(first))
    check_database_prior(space, prior, name=name)
    return space


def entry_marginal(prior: Distribution | ProductPrior, index: int) -> Distribution:
    """P_{D_i}, the law of entry ``index`` (over the whole alphabet D, zeros included)."""
    space = _prior_space(prior)
    check_index(index, space.size)
    if isinstance(prior, ProductPrior):
        return prior.marginal(index)
    totals: dict[Label, list[Scalar]] = {d: [] for d in space.alphabet}
    for x, p in prior.items():
        totals[x[index]].append(p)  # type: ignore[index]
    return Distribution._trusted(
        space.alphabet, [exact_sum(v) for v in totals.values()], prior.conditions
    )


def entry_conditional(
    prior: Distribution | ProductPrior, index: int, others: Database
) -> Distribution:
    """P_{D_i | D_{-i} = d_{-i}} over D (raises if P(D_{-i} = d_{-i}) is zero).

    For a product prior this is P_{D_i}, whatever d_{-i} is.
    """
    space = _prior_space(prior)
    others = space.check_others(others, index)
    if isinstance(prior, ProductPrior):
        for position, (factor, entry) in enumerate(
            zip(prior.marginals[:index] + prior.marginals[index + 1 :], others, strict=True)
        ):
            if prove_zero(factor[entry]):
                raise InvalidArgument(
                    f"others={abbreviated_repr(others)} has probability zero under the prior "
                    "(entry "
                    f"{entry!r} at position {abbreviated(position)})"
                )
        return prior.marginal(index)
    masses = [prior[space.insert(others, index, d)] for d in space.alphabet]
    total = exact_sum(masses)
    if prove_zero(total):
        raise InvalidArgument(
            f"others={abbreviated_repr(others)} has probability zero under the prior"
        )
    return Distribution._trusted(
        space.alphabet, [exact_quotient(m, total) for m in masses], prior.conditions
    )


def _explicit_with_prior(
    mechanism: object, prior: object
) -> tuple[DatabaseMechanism, Distribution]:
    database_mechanism = as_database_mechanism(mechanism)
    explicit = database_mechanism.explicit()
    checked = check_database_prior(explicit.space, prior)
    joint = checked.joint() if isinstance(checked, ProductPrior) else checked
    return explicit, joint


def entry_leakage(
    mechanism: DatabaseMechanism | StructuredDatabaseMechanism | Mechanism,
    prior: Distribution | ProductPrior,
    index: int,
    output: Label,
) -> LogValue:
    """l(D_i -> y): the PML about entry i (Saeidian et al., Thm 4.2 (3), Thm 4.5 (3)).

    ``l(D_i -> y) = log max_{d in supp P_{D_i}} p(y | D_i = d) / p_Y(y)``.  Structured
    mechanisms with a product prior are computed through their sufficient statistic.
    """
    if isinstance(mechanism, StructuredDatabaseMechanism) and isinstance(prior, ProductPrior):
        fast = mechanism.entry_leakage(prior, index, output)
        if fast is not None:
            return fast
    explicit, joint = _explicit_with_prior(mechanism, prior)
    check_index(index, explicit.space.size)
    return pointwise_maximal_leakage(
        explicit.mechanism, joint, output, attribute=lambda x: x[index]
    )


def conditional_entry_leakage(
    mechanism: DatabaseMechanism | StructuredDatabaseMechanism | Mechanism,
    prior: Distribution | ProductPrior,
    index: int,
    output: Label,
    others: Database,
) -> LogValue:
    """l(D_i -> y | d_{-i}) = D_inf(P_{D_i|Y=y, D_{-i}=d_{-i}} || P_{D_i|D_{-i}=d_{-i}}).

    Saeidian et al., Def 2.5 as used in Thm 4.2 (1)-(2); d_{-i} must have positive
    probability.
    """
    if isinstance(mechanism, StructuredDatabaseMechanism) and isinstance(prior, ProductPrior):
        fast = mechanism.conditional_entry_leakage(prior, index, output, others)
        if fast is not None:
            return fast
    explicit, joint = _explicit_with_prior(mechanism, prior)
    space = explicit.space
    check_index(index, space.size)
    others = space.check_others(others, index)
    if prove_zero(exact_sum(joint[space.insert(others, index, d)] for d in space.alphabet)):
        raise InvalidArgument(
            f"others={abbreviated_repr(others)} has probability zero under the prior"
        )
    return conditional_pointwise_maximal_leakage(
        explicit.mechanism,
        joint,
        output,
        given=lambda x: space.others(x, index),
        value=others,
        attribute=lambda x: x[index],
    )
