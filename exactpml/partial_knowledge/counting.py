"""Count-based mechanisms and the exact law of a count of independent records.

A :class:`CountingMechanism` sees the database only through the count
``C = #{j : predicate(D(j))}`` and releases a randomized function of it, given as
``release(count) -> output distribution``.  This is the small interface through which
structured counting queries (with noise or thresholding) enter the partial-knowledge layer:
anything that can say "for count c, the output law is ..." can be analysed at n in the
thousands, because with independent records and fixed known records K the conditional
output law given (D(i) = t, B = b) is

    P[o | t, b] = Σ_c P[C_U = c] · release(c + k(b) + [predicate(t)])(o),

where ``C_U`` counts the unknown records (Poisson-binomial) and ``k(b)`` the known records
satisfying the predicate.  It depends on b only through k(b), so knowledge values are
grouped into :class:`KnownCount` classes with weights P[C_K = k].

``count_numerators`` computes the Poisson-binomial law exactly as the integer coefficients of
``Π_j (d_j − a_j + a_j x)`` (with ``p_j = a_j/d_j``) over the common denominator ``Π_j d_j``,
using FLINT integer polynomials (``fmpz_poly``): 1000 records take milliseconds.

>>> count_numerators([Fraction(1, 2)] * 3)
([1, 3, 3, 1], 8)
>>> release = thresholded_counting(1)
>>> release.row(2).as_dict()
{2: Fraction(1, 1)}
>>> release.row(1).as_dict()
{'⊥': Fraction(1, 1)}
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import prove_zero
from exactpml.core.display import pretty
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, exact, exact_difference, exact_product, exact_sum
from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument
from exactpml.structured.count_law import count_numerators

__all__ = [
    "BOTTOM",
    "CountingMechanism",
    "KnownCount",
    "count_numerators",
    "thresholded_counting",
]

BOTTOM = "⊥"
"""The output of a thresholded count below its threshold (Example 7's ⊥)."""


@dataclass(frozen=True, slots=True, order=True)
class KnownCount:
    """The class of knowledge values b whose known records hold ``count`` predicate-true values.

    For a :class:`CountingMechanism` with fixed known records, every b in the class has the
    same conditional output laws, hence the same PLRV and δ_A(b).
    """

    count: int

    def __repr__(self) -> str:
        return f"KnownCount({self.count})"


def _default_predicate(value: Hashable) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return value == 1
    raise InvalidArgument(
        f"predicate: record value {abbreviated_repr(value)} is not 0/1 or a bool; pass predicate= "
        "(e.g. predicate=lambda v: v == 'Yes')"
    )


class CountingMechanism:
    """A mechanism that releases a randomized function of a count of records.

    Args:
        release: ``release(count)`` is the output law for that count (a ``Distribution``
            or a mapping output -> probability), for every count 0..n; or a ``Mechanism``
            whose inputs are the counts.
        predicate: which record values are counted (default: values 0/1 or bools, 1 and
            True counted).
        name: how error messages refer to this mechanism.

    Rows are validated (exact, non-negative, summing to 1) and cached on first use.
    """

    __slots__ = ("_cache", "_kernel", "_release", "_thresholded", "name", "predicate")

    def __init__(
        self,
        release: Callable[[int], Mapping[Hashable, object] | Distribution] | Mechanism,
        *,
        predicate: Callable[[Hashable], bool] | None = None,
        name: str = "counting mechanism",
    ) -> None:
        kernel: Mechanism | None = None
        if isinstance(release, Mechanism):
            kernel = release
            release = kernel.row
        elif not callable(release):
            raise InvalidArgument(
                f"release must be a function count -> output law or a Mechanism on counts, "
                f"got {type(release).__name__}"
            )
        if predicate is not None and not callable(predicate):
            raise InvalidArgument(f"predicate must be callable, got {type(predicate).__name__}")
        self._release = release
        self._kernel = kernel
        self.predicate = predicate or _default_predicate
        self.name = name
        self._cache: dict[int, Distribution] = {}
        self._thresholded: tuple[int, Hashable] | None = None

    @property
    def thresholded(self) -> tuple[int, Hashable] | None:
        """(T, ⊥) when built by :func:`thresholded_counting` (the count iff > T, else ⊥),
        which lets the laws use the closed form of
        :mod:`~exactpml.partial_knowledge.thresholded`; ``None`` otherwise (read-only)."""
        return self._thresholded

    def counts(self, value: Hashable) -> bool:
        """Whether a record holding ``value`` is counted."""
        result = self.predicate(value)
        if not isinstance(result, bool):
            raise InvalidArgument(
                f"predicate returned {abbreviated_repr(result)} for {abbreviated_repr(value)}; it "
                "must return a bool"
            )
        return result

    def row(self, count: int) -> Distribution:
        """The output law for ``count``."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise InvalidArgument(
                f"{self.name}: count={abbreviated_repr(count)} must be a non-negative integer"
            )
        cached = self._cache.get(count)
        if cached is not None:
            return cached
        try:
            row = self._release(count)
        except InvalidArgument:
            raise
        except Exception as error:
            raise InvalidArgument(
                f"{self.name}: release raised {type(error).__name__}: {abbreviated(error)} for "
                f"count {abbreviated(count)}"
            ) from error
        if not isinstance(row, Distribution):
            if not isinstance(row, Mapping):
                raise InvalidArgument(
                    f"{self.name}: release({abbreviated(count)}) returned {type(row).__name__}, "
                    "not a "
                    "Distribution or a mapping output -> probability"
                )
            row = Distribution(row, name=f"{self.name}, count {count}")
        self._cache[count] = row
        return row

    # --- as a mechanism on databases ------------------------------------------------------
    def as_mechanism(self, records: Sequence[Distribution]) -> Mechanism:
        """The same mechanism as an explicit kernel on database tuples (small n only)."""
        supports = [record.support for record in records]
        databases = list(itertools.product(*supports))
        if len(databases) > 2**20:
            raise InvalidArgument(
                f"{self.name}: {len(databases)} databases are too many to enumerate"
            )
        kernel: dict[Hashable, dict[Hashable, Scalar]] = {}
        outputs: dict[Hashable, None] = {}
        for database in databases:
            row = self.row(sum(self.counts(v) for v in database))
            kernel[database] = row.as_dict()
            outputs.update(dict.fromkeys(row.outcomes))
        return Mechanism._trusted(
            databases,
            list(outputs),
            [[kernel[d].get(y, Fraction(0)) for y in outputs] for d in databases],
        )

    # --- Proposition 25's operations ------------------------------------------------------
    def post_process(self, kernel: Mechanism) -> CountingMechanism:
        """``kernel ∘ self``: still a counting mechanism (post-processing, Prop 25)."""
        if not isinstance(kernel, Mechanism):
            raise InvalidArgument(
                f"post_process: expected a Mechanism, got {type(kernel).__name__}"
            )

        def release(count: int) -> Distribution:
            row = self.row(count)
            missing = [y for y in row.support if y not in kernel.inputs]
            if missing:
                raise InvalidArgument(
                    f"post_process: the kernel has no row for output(s) {abbreviated_repr(missing)}"
                )
            totals: dict[Hashable, list[Scalar]] = {}
            for y, p in row.items():
                if prove_zero(p):
                    continue
                for z, q in kernel.row(y).items():
                    totals.setdefault(z, []).append(exact_product(p, q))
            return Distribution._trusted(list(totals), [exact_sum(v) for v in totals.values()])

        return CountingMechanism(
            release, predicate=self.predicate, name=f"post-processed {self.name}"
        )

    def mixture(self, other: CountingMechanism, weight: object) -> CountingMechanism:
        """Apply ``self`` with probability ``weight``, else ``other`` (convexity, Prop 25)."""
        if not isinstance(other, CountingMechanism):
            raise InvalidArgument(
                f"mixture: expected a CountingMechanism, got {type(other).__name__}"
            )
        if other.predicate is not self.predicate:
            raise InvalidArgument("mixture: the two mechanisms must count with the same predicate")
        lam = exact(weight, where="mixture weight")
        if type(lam) is Fraction and not 0 <= lam <= 1:
            raise InvalidArgument(f"mixture weight {abbreviated(lam)} must lie in [0, 1]")
        rest = exact_difference(Fraction(1), lam)

        def release(count: int) -> Distribution:
            first, second = self.row(count), other.row(count)
            outputs = list(dict.fromkeys([*first.outcomes, *second.outcomes]))
            return Distribution._trusted(
                outputs,
                [
                    exact_sum(
                        [exact_product(lam, first.get(y)), exact_product(rest, second.get(y))]
                    )
                    for y in outputs
                ],
            )

        return CountingMechanism(release, predicate=self.predicate, name=f"mixture of {self.name}")

    def __repr__(self) -> str:
        """Python that rebuilds the mechanism when it was built from a ``Mechanism`` on the
        counts (with the default predicate): ``CountingMechanism(Mechanism({...}))``; a
        release or predicate given as a function is shown as ``<function>``."""
        release = "<release function>" if self._kernel is None else repr(self._kernel)
        extra = "" if self.predicate is _default_predicate else ", predicate=<function>"
        if self.name != "counting mechanism":
            extra += f", name={self.name!r}"
        return f"CountingMechanism({release}{extra})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)


def thresholded_counting(
    threshold: int,
    *,
    predicate: Callable[[Hashable], bool] | None = None,
    bottom: Hashable = BOTTOM,
) -> CountingMechanism:
    """Release the count when it exceeds ``threshold``, else ``bottom`` (Example 7)."""
    if isinstance(threshold, bool) or not isinstance(threshold, int):
        raise InvalidArgument(f"threshold={abbreviated_repr(threshold)} must be an integer")

    def release(count: int) -> dict[Hashable, Any]:
        return {count: Fraction(1)} if count > threshold else {bottom: Fraction(1)}

    mechanism = CountingMechanism(
        release, predicate=predicate, name=f"count released iff > {threshold}"
    )
    mechanism._thresholded = (threshold, bottom)
    return mechanism
