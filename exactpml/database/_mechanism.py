"""Explicit database mechanisms, the structured-mechanism protocol, and Vadhan's example.

A :class:`DatabaseMechanism` is a :class:`~exactpml.core.mechanism.Mechanism` whose inputs are
exactly the databases of D^n.  Structured mechanisms subclass
:class:`StructuredDatabaseMechanism` and describe themselves through a sufficient
statistic (:class:`Reduction`), which the notions of :mod:`exactpml.notions` compute on.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.display import pretty
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, exact, exact_difference, exact_quotient, exact_sum
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.database._space import BOTTOM, Database, DatabaseSpace, Label
from exactpml.errors import InvalidArgument

if TYPE_CHECKING:  # typing only: _prior imports this module
    from exactpml.database._prior import ProductPrior

__all__ = [
    "DatabaseMechanism",
    "Reduction",
    "StructuredDatabaseMechanism",
    "as_database_mechanism",
    "explicit_reduction",
    "random_row_mechanism",
]


# --- explicit database mechanisms ------------------------------------------------------
@dataclass(frozen=True, slots=True, init=False, eq=False)
class DatabaseMechanism:
    """A mechanism P_{Y|X} whose inputs are exactly the databases of D^n (validated).

    Args:
        mechanism: a :class:`Mechanism` on n-tuples, or a mapping database -> row (as
            accepted by ``Mechanism``).
        alphabet: D; by default the entries found in the inputs (in order of appearance).
        size: n; by default the length of the inputs.
        name: how error messages refer to the mechanism.
    """

    mechanism: Mechanism
    space: DatabaseSpace

    def __init__(
        self,
        mechanism: Mechanism | Mapping[Database, Mapping[Label, object]],
        *,
        alphabet: Iterable[Label] | None = None,
        size: int | None = None,
        name: str = "mechanism",
    ) -> None:
        kernel = mechanism if isinstance(mechanism, Mechanism) else Mechanism(mechanism, name=name)
        inputs: list[Database] = []
        for x in kernel.inputs:
            if not isinstance(x, tuple):
                raise InvalidArgument(
                    f"{name}: input {abbreviated_repr(x)} is not a tuple; a database mechanism's "
                    "inputs are "
                    "the n-tuples of D^n"
                )
            inputs.append(x)
        if size is None:
            size = len(inputs[0])
        if alphabet is None:
            alphabet = dict.fromkeys(entry for x in inputs for entry in x)
        space = DatabaseSpace(alphabet, size)
        for x in inputs:
            space.check(x, name=f"{name}: input")
        present = set(inputs)
        if len(present) != space.count:
            missing = next(x for x in space.databases() if x not in present)
            raise InvalidArgument(
                f"{name}: database {abbreviated_repr(missing)} of D^n has no row ({len(present)} "
                "of "
                f"{abbreviated(space.count)} databases given)"
            )
        object.__setattr__(self, "mechanism", kernel)
        object.__setattr__(self, "space", space)

    @classmethod
    def from_function(
        cls,
        function: Callable[[Database], Mapping[Label, object] | Distribution],
        alphabet: Iterable[Label],
        size: int,
        *,
        outputs: Sequence[Label] | None = None,
        name: str = "mechanism",
    ) -> DatabaseMechanism:
        """Build from ``function(x)``, the row of database x, for every x in D^n."""
        space = DatabaseSpace(alphabet, size)
        kernel = Mechanism.from_function(function, space.databases(), outputs=outputs, name=name)
        return cls(kernel, alphabet=space.alphabet, size=space.size, name=name)

    @classmethod
    def _trusted(cls, mechanism: Mechanism, space: DatabaseSpace) -> DatabaseMechanism:
        self = object.__new__(cls)
        object.__setattr__(self, "mechanism", mechanism)
        object.__setattr__(self, "space", space)
        return self

    @property
    def outputs(self) -> tuple[Label, ...]:
        """The output alphabet."""
        return self.mechanism.outputs

    def probability(self, database: Database, output: Label) -> Scalar:
        """p(y | x)."""
        return self.mechanism.probability(self.space.check(database), output)

    def row(self, database: Database) -> Distribution:
        """P_{Y | X = x}."""
        return self.mechanism.row(self.space.check(database))

    def explicit(self) -> DatabaseMechanism:
        """This mechanism (the explicit form every database mechanism can produce)."""
        return self

    def reduction(self) -> Reduction:
        """The trivial reduction (the statistic is the database itself)."""
        return explicit_reduction(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, StructuredDatabaseMechanism):
            other = other.explicit()
        if not isinstance(other, DatabaseMechanism):
            return NotImplemented
        return self.space == other.space and self.mechanism == other.mechanism

    def __hash__(self) -> int:
        return hash((self.space, self.mechanism))

    def __repr__(self) -> str:
        """Python that rebuilds this mechanism, every row included (see ``Mechanism``)."""
        return (
            f"DatabaseMechanism({self.mechanism!r}, alphabet={list(self.space.alphabet)!r}, "
            f"size={self.space.size})"
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)


@dataclass(frozen=True, slots=True)
class Reduction:
    """A database mechanism seen through a sufficient statistic v = v(x) of the database.

    The output law depends on x only through v, so every notion of :mod:`exactpml.notions`
    can be computed on statistic values instead of databases.  For an explicit mechanism
    the statistic is the database itself (:func:`explicit_reduction`).

    Attributes:
        outputs: the finite output alphabet (labels of ``row``'s entries).
        row: ``row(v)`` = (P(Y = y | V = v) for y in outputs).
        values: ``values()`` iterates over every reachable statistic value.
        pairs: ``pairs()`` yields ``(v, v', witness)`` for ordered neighbouring pairs, at
            least one per distinct ``(v, v')``; ``witness()`` returns databases (x, x').
        neighbourhoods: ``neighbourhoods()`` yields ``(values, witness)``: the statistic
            values of a neighbourhood {(d, d_{-i}) : d in D} (at least one per distinct
            value set) and ``witness()`` = (i, d_{-i}).
        database: ``database(v)`` is a database with statistic v.
        kernel: ``kernel()`` is the Mechanism P_{Y|V} on all reachable values.
    """

    outputs: tuple[Label, ...]
    row: Callable[[Label], Sequence[Scalar]]
    values: Callable[[], Iterable[Label]]
    pairs: Callable[[], Iterator[tuple[Label, Label, Callable[[], tuple[Database, Database]]]]]
    neighbourhoods: Callable[
        [], Iterator[tuple[tuple[Label, ...], Callable[[], tuple[int, Database]]]]
    ]
    database: Callable[[Label], Database]
    kernel: Callable[[], Mechanism]


class StructuredDatabaseMechanism(ABC):
    """The declared protocol of a database mechanism that keeps its structure.

    :mod:`exactpml.structured` implements it (per-record randomizers, queries with noise);
    so can a user's own mechanism.  Required: ``space``, :meth:`explicit` (the kernel on D^n,
    for small n and for tests) and :meth:`reduction` (the mechanism through a sufficient
    statistic, which the notions of :mod:`exactpml.notions` compute through).  Optional fast
    paths return ``None`` when there is no closed form, and the generic computation runs:

    * :meth:`differential_privacy_closed_form`, :meth:`free_lunch_closed_form` -- the ε of
      ε-DP / ε-free-lunch privacy with its witness (a :class:`exactpml.notions.WorstCase`);
    * :meth:`delta_for_epsilon_closed_form` -- δ(ε) of (ε, δ)-DP with its witness;
    * :meth:`delta_closed_form` -- δ(ε) with its witness (continuous outputs);
    * :meth:`entry_leakage`, :meth:`conditional_entry_leakage` -- l(D_i -> y) and
      l(D_i -> y | d_-i) under a product prior.

    Every fast path is tested equal to the explicit kernel (``tests/structured``).
    """

    space: DatabaseSpace

    @abstractmethod
    def explicit(self) -> DatabaseMechanism:
        """The explicit kernel on D^n (exponential in n: for small n and for tests)."""

    @abstractmethod
    def reduction(self) -> Reduction:
        """The mechanism through its sufficient statistic."""

    def differential_privacy_closed_form(self) -> Any:
        """The ε-DP worst case in closed form, or ``None`` (compute through the reduction)."""
        return None

    def free_lunch_closed_form(self) -> Any:
        """The ε-free-lunch worst case in closed form, or ``None``."""
        return None

    def delta_for_epsilon_closed_form(self, exp_epsilon: Scalar) -> Any:
        """δ(ε) for e^ε = ``exp_epsilon`` with its worst pair and event in closed form (a
        :class:`exactpml.notions.WorstCase`), or ``None``."""
        return None

    def delta_closed_form(self, exp_epsilon: Scalar) -> Any:
        """δ(ε) at e^ε = ``exp_epsilon`` with its witness in closed form, or ``None``.

        For mechanisms whose outputs are continuous (Laplace noise), where the generic
        computation over finite outputs does not apply.
        """
        return None

    def entry_leakage(self, prior: ProductPrior, index: int, output: Label) -> LogValue | None:
        """l(D_i -> y) under a product prior in closed form, or ``None``."""
        return None

    def conditional_entry_leakage(
        self, prior: ProductPrior, index: int, output: Label, others: Database
    ) -> LogValue | None:
        """l(D_i -> y | d_-i) under a product prior in closed form, or ``None``."""
        return None


def explicit_reduction(mechanism: DatabaseMechanism) -> Reduction:
    """The trivial reduction of an explicit mechanism: the statistic is the database."""
    space = mechanism.space
    kernel = mechanism.mechanism

    def pairs() -> Iterator[tuple[Label, Label, Callable[[], tuple[Database, Database]]]]:
        for _, x, x2 in space.neighbouring_pairs():
            yield x, x2, lambda x=x, x2=x2: (x, x2)  # type: ignore[misc]

    def neighbourhoods() -> Iterator[tuple[tuple[Label, ...], Callable[[], tuple[int, Database]]]]:
        for index, others, members in space.neighbourhoods():
            yield members, lambda index=index, others=others: (index, others)  # type: ignore[misc]

    return Reduction(
        outputs=kernel.outputs,
        row=lambda x: kernel.rows[kernel.input_position(x)],
        values=lambda: kernel.inputs,
        pairs=pairs,
        neighbourhoods=neighbourhoods,
        database=lambda x: x,  # type: ignore[arg-type,return-value]
        kernel=lambda: kernel,
    )


def as_database_mechanism(
    mechanism: object, *, name: str = "mechanism"
) -> DatabaseMechanism | StructuredDatabaseMechanism:
    """Accept a database mechanism in any form; a plain tuple-input Mechanism is wrapped."""
    if isinstance(mechanism, (DatabaseMechanism, StructuredDatabaseMechanism)):
        return mechanism
    if isinstance(mechanism, Mechanism):
        return DatabaseMechanism(mechanism, name=name)
    raise InvalidArgument(
        f"{name} must be a DatabaseMechanism, a structured database mechanism or a Mechanism "
        f"whose inputs are n-tuples, got {type(mechanism).__name__}"
    )


# --- Vadhan's example ------------------------------------------------------------------
def random_row_mechanism(
    alphabet: Iterable[Label],
    size: int,
    *,
    probability: object = "1/10",
    with_index: bool = False,
) -> DatabaseMechanism:
    """Vadhan §1.1, case 2: with probability ``probability`` release a uniformly random row.

    Otherwise release :data:`BOTTOM`.  The released row is its value d (default) or the pair
    (i, d_i) with ``with_index=True``.  Neighbours are at statistical distance
    ``probability / n`` (1/(10n)), yet the max-divergence is infinite for a pair whose
    changed value appears in no other row.

    >>> mechanism = random_row_mechanism([0, 1], 3)
    >>> mechanism.probability((0, 0, 1), 1)
    Fraction(1, 30)
    """
    space = DatabaseSpace(alphabet, size)
    rate = exact(probability, where="probability")
    if type(rate) is Fraction and not 0 <= rate <= 1:
        raise InvalidArgument(f"probability={abbreviated(rate)} must lie in [0, 1]")
    rest = exact_difference(Fraction(1), rate)
    share = exact_quotient(rate, Fraction(space.size))
    if with_index:
        outputs: list[Label] = [BOTTOM] + [
            (i, d) for i in range(space.size) for d in space.alphabet
        ]
    else:
        outputs = [BOTTOM, *space.alphabet]

    def row(x: Database) -> dict[Label, Scalar]:
        released: dict[Label, Scalar] = {BOTTOM: rest}
        for i, d in enumerate(x):
            key = (i, d) if with_index else d
            released[key] = exact_sum([released.get(key, Fraction(0)), share])
        return released

    kernel = Mechanism.from_function(row, space.databases(), outputs=outputs, name="random row")
    return DatabaseMechanism._trusted(kernel, space)
