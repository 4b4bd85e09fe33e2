"""Per-record randomizers: M(x) = (R(d_1), …, R(d_n)) with independent randomness (local DP).

The output law is the product of the rows of R, so

* ε-DP of M equals the local-DP ε of R: for neighbours differing in entry i,
  ``p(y|x)/p(y|x') = R(y_i|d_i)/R(y_i|d'_i)`` (the other factors cancel, and some y_j with
  ``R(y_j|d_j) > 0`` always exists);
* the free-lunch ε of M is n times that of R: ``max_{x,x'} Π_i R(y_i|d_i)/R(y_i|d'_i)`` is
  maximised coordinate by coordinate;
* under a product prior, ``l(D_i -> y) = l_R(D_i -> y_i)`` with prior P_{D_i} (the other
  coordinates of y are independent of D_i), and 0 when some ``P(y_j) = 0`` (footnote 5).

``explicit()`` enumerates D^n and the |Y_R|^n outputs (small n only).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import prove_zero
from exactpml.core.display import pretty
from exactpml.core.exact import Scalar, exact_product, exact_quotient, exact_sum
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.core.parameters import exp_epsilon_of
from exactpml.database import (
    Database,
    DatabaseMechanism,
    DatabaseSpace,
    ProductPrior,
    Reduction,
    StructuredDatabaseMechanism,
    check_index,
)
from exactpml.errors import InvalidArgument
from exactpml.leakage.pml import pointwise_maximal_leakage
from exactpml.notions import WorstCase, local_privacy_epsilon

__all__ = ["PerRecordMechanism", "randomized_response"]

Label = Hashable


def randomized_response(
    alphabet: Iterable[Label], exp_epsilon: object = None, *, epsilon: object = None
) -> Mechanism:
    """k-ary randomized response on D: keep d w.p. E/(E + k - 1), else each other value
    w.p. 1/(E + k - 1), with E = e^ε (its local-DP ε is exactly log E).

    E is randomized response's natural parameter, so it comes second (``exp_epsilon``);
    ``epsilon=`` gives ε instead, by the one parameter policy (finite, ε ≥ 0).

    >>> print(randomized_response([0, 1], 3).probability(0, 0))
    3/4
    >>> print(randomized_response([0, 1], epsilon="log(3)").probability(0, 0))
    3/4
    """
    letters = list(DatabaseSpace(alphabet, 1).alphabet)
    ratio = exp_epsilon_of(epsilon, exp_epsilon)
    if ratio is sympy.oo:
        raise InvalidArgument("randomized response needs a finite epsilon (e^ε < oo)")
    total = exact_sum([ratio, Fraction(len(letters) - 1)])
    keep = exact_quotient(ratio, total)
    move = exact_quotient(Fraction(1), total)
    return Mechanism(
        {d: {e: keep if e == d else move for e in letters} for d in letters},
        outputs=letters,
        name="randomized response",
    )


class PerRecordMechanism(StructuredDatabaseMechanism):
    """Apply the randomizer R (a Mechanism on D) to every entry independently.

    >>> from exactpml.notions import differential_privacy_epsilon, free_lunch_epsilon
    >>> mechanism = PerRecordMechanism(DatabaseSpace([0, 1], 1000), randomized_response([0, 1], 3))
    >>> print(differential_privacy_epsilon(mechanism).value)
    log(3)
    >>> free_lunch_epsilon(mechanism).value == LogValue(Fraction(3) ** 1000)
    True
    """

    __slots__ = ("randomizer", "space")

    def __init__(self, space: DatabaseSpace, randomizer: Mechanism) -> None:
        if not isinstance(space, DatabaseSpace):
            raise InvalidArgument(f"space must be a DatabaseSpace, got {type(space).__name__}")
        if not isinstance(randomizer, Mechanism):
            raise InvalidArgument(
                f"randomizer must be a Mechanism on the entries, got {type(randomizer).__name__}"
            )
        if set(randomizer.inputs) != set(space.alphabet):
            raise InvalidArgument(
                f"randomizer is defined on {abbreviated_repr(list(randomizer.inputs))}, not on the "
                "alphabet "
                f"{abbreviated_repr(list(space.alphabet))}"
            )
        self.space = space
        self.randomizer = randomizer

    @property
    def outputs(self) -> tuple[Label, ...]:
        """Output tuples (``|Y_R|^n`` of them; small n only)."""
        return tuple(itertools.product(self.randomizer.outputs, repeat=self.space.size))

    def probability(self, database: Sequence[Label], output: Sequence[Label]) -> Scalar:
        """p(y|x) = Π_i R(y_i | d_i)."""
        x = self.space.check(database)
        if not isinstance(output, tuple) or len(output) != self.space.size:
            raise InvalidArgument(
                f"output={abbreviated_repr(output)} must be a tuple of "
                f"n={abbreviated(self.space.size)}"
            )
        value: Scalar = Fraction(1)
        for d, y in zip(x, output, strict=True):
            value = exact_product(value, self.randomizer.probability(d, y))
        return value

    def explicit(self) -> DatabaseMechanism:
        outputs = self.outputs
        rows = [
            [self.probability(x, y) for y in outputs]  # type: ignore[arg-type]
            for x in self.space.databases()
        ]
        kernel = Mechanism._trusted(list(self.space.databases()), outputs, rows)
        return DatabaseMechanism._trusted(kernel, self.space)

    def reduction(self) -> Reduction:
        return self.explicit().reduction()

    def _some_output(self, entry: Label) -> Label:
        return next(
            y
            for y in self.randomizer.outputs
            if not prove_zero(self.randomizer.probability(entry, y))
        )

    def differential_privacy_closed_form(self) -> WorstCase:
        local = local_privacy_epsilon(self.randomizer)
        if local.database is None or len(self.space.alphabet) == 1:
            return WorstCase(LogValue(1))
        filler = self.space.alphabet[0]
        rest = (filler,) * (self.space.size - 1)
        y = (local.output, *(self._some_output(filler),) * (self.space.size - 1))
        return WorstCase(local.value, (local.database, *rest), (local.neighbour, *rest), y)

    def free_lunch_closed_form(self) -> WorstCase:
        local = local_privacy_epsilon(self.randomizer)
        n = self.space.size
        if local.database is None:
            return WorstCase(LogValue(1))
        return WorstCase(
            local.value * n,
            (local.database,) * n,
            (local.neighbour,) * n,
            (local.output,) * n,
        )

    def _check(self, prior: object, index: int, output: object) -> tuple[ProductPrior, Database]:
        if not isinstance(prior, ProductPrior) or prior.space != self.space:
            raise InvalidArgument("prior must be a ProductPrior on the mechanism's databases")
        check_index(index, self.space.size)
        if not isinstance(output, tuple) or len(output) != self.space.size:
            raise InvalidArgument(
                f"output={abbreviated_repr(output)} must be a tuple of "
                f"n={abbreviated(self.space.size)}"
            )
        for y in output:
            self.randomizer.output_position(y)
        return prior, output

    def entry_leakage(self, prior: ProductPrior, index: int, output: Label) -> LogValue | None:
        """l(D_i -> y) = l_R(D_i -> y_i) (0 if some other coordinate has P(y_j) = 0)."""
        checked, y = self._check(prior, index, output)
        for j, (marginal, y_j) in enumerate(zip(checked.marginals, y, strict=True)):
            if j == index:
                continue
            mass = exact_sum(
                exact_product(marginal[d], self.randomizer.probability(d, y_j))
                for d in self.space.alphabet
            )
            if prove_zero(mass):
                return LogValue(1)
        return pointwise_maximal_leakage(self.randomizer, checked.marginal(index), y[index])

    def conditional_entry_leakage(
        self, prior: ProductPrior, index: int, output: Label, others: Database
    ) -> LogValue | None:
        """l(D_i -> y | d_{-i}) = l_R(D_i -> y_i) unless y is impossible given d_{-i}."""
        checked, y = self._check(prior, index, output)
        others = self.space.check_others(others, index)
        rest = y[:index] + y[index + 1 :]
        for marginal, d, y_j in zip(
            checked.marginals[:index] + checked.marginals[index + 1 :], others, rest, strict=True
        ):
            if prove_zero(marginal[d]):
                raise InvalidArgument(
                    f"others={abbreviated_repr(others)} has probability zero under the prior"
                )
            if prove_zero(self.randomizer.probability(d, y_j)):
                return LogValue(1)
        return pointwise_maximal_leakage(self.randomizer, checked.marginal(index), y[index])

    def __repr__(self) -> str:
        """Python that rebuilds this mechanism after ``from exactpml import *``."""
        return f"structured.PerRecordMechanism({self.space!r}, {self.randomizer!r})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)
