"""Channel operations: cascade, parallel composition, marginals of pair outputs, refinement.

Source: Alvim, Chatzikokolakis, McIver, Morgan, Palamidessi, Smith, *The Science of
Quantitative Information Flow* (2020): cascading C R (Chapters 4 and 8), parallel
composition C ∥ D with outputs (y, z) and independent randomness (Chapter 8), and
structural refinement C ⊑ D ("D is C post-processed": D = C R for a channel R;
Chapter 9), which the Coriaceous theorem (Chapter 9) equates with "D never leaks
more than C under any prior and gain function".

Every operation checks the size of what it builds (``Bounds.table_entries``) and of the
products it forms (``Bounds.iteration_work``) before building it.

Refinement is decided exactly: D = C R with R >= 0 and rows of R summing to 1 is a linear
feasibility problem, solved by an exact simplex over ``Fraction``.  When it is infeasible,
:func:`refinement_map` returns no map and :func:`refinement_certificate` gives a Farkas
certificate that anyone can check with a few exact sums.

>>> from exactpml import Mechanism
>>> channel = Mechanism({0: {"a": 1}, 1: {"b": 1}, 2: {"c": 1}})
>>> coarse = Mechanism({0: {"ab": 1}, 1: {"ab": 1}, 2: {"c": 1}})
>>> refines(channel, coarse), refines(coarse, channel)
(True, False)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.display import abbreviated_fields_repr
from exactpml.core.mechanism import Mechanism
from exactpml.core.parameters import positive_integer, within_bound
from exactpml.errors import InvalidArgument
from exactpml.qif._lp import feasible_point
from exactpml.qif._support import rational_kernel, require_mechanism

__all__ = [
    "MAX_REFINEMENT_UNKNOWNS",
    "RefinementCertificate",
    "cascade",
    "output_marginal",
    "parallel",
    "refinement_certificate",
    "refinement_map",
    "refines",
]


MAX_REFINEMENT_UNKNOWNS = 144
"""Default bound on the unknowns R(y, z) of a refinement problem (|Y_C| × |Z_D|, less those
forced to 0 by zeros of D).  The simplex is dense and exact: 100 unknowns of a full-support
kernel take about half a second, 196 about 40 seconds; beyond the bound the functions
raise ``InvalidArgument`` instead of running for minutes (raise ``max_unknowns`` to go
on)."""


def _check_table(inputs: int, outputs: int, where: str) -> None:
    """Refuse a channel of inputs × outputs entries above ``Bounds.table_entries``."""
    within_bound(
        inputs * outputs,
        "table_entries",
        where=where,
        what=f"the channel would have {inputs} inputs × {outputs} outputs = "
        f"{inputs * outputs} entries",
    )


def cascade(channel: Mechanism, post: Mechanism) -> Mechanism:
    """The cascade C R: (C R)(x, z) = Σ_y C(x, y) R(y, z) (book Chapters 4 and 8).

    ``post``'s inputs must include every output of ``channel``.

    >>> c = Mechanism({0: {"y": 1}, 1: {"y": "1/2", "n": "1/2"}})
    >>> r = Mechanism({"y": {"yes": "1/2", "no": "1/2"}, "n": {"no": 1}})
    >>> cascade(c, r).probability(1, "no")
    Fraction(3, 4)
    """
    require_mechanism(channel, "channel")
    require_mechanism(post, "post")
    missing = [y for y in channel.outputs if y not in set(post.inputs)]
    if missing:
        raise InvalidArgument(
            f"cascade: post has no row for the channel's output(s) {abbreviated_repr(missing)}"
        )
    inputs, middle, outputs = len(channel.inputs), len(channel.outputs), len(post.outputs)
    _check_table(inputs, outputs, "cascade")
    within_bound(
        inputs * middle * outputs,
        "iteration_work",
        where="cascade",
        what=f"{inputs} inputs × {middle} outputs × {outputs} outputs of post ask for "
        f"{inputs * middle * outputs} products",
    )
    return channel.post_process(post)


def parallel(channel: Mechanism, other: Mechanism) -> Mechanism:
    """The parallel composition C ∥ D: (x) -> (y, z) with probability C(x, y) D(x, z) (book Ch. 8).

    >>> both = parallel(Mechanism.identity([0, 1]), Mechanism({0: {"a": 1}, 1: {"a": 1}}))
    >>> both.outputs
    ((0, 'a'), (1, 'a'))
    """
    require_mechanism(channel, "channel")
    require_mechanism(other, "other")
    if set(channel.inputs) != set(other.inputs):
        raise InvalidArgument(
            f"parallel: the channels have different inputs "
            f"{abbreviated_repr(list(channel.inputs))} and "
            f"{abbreviated_repr(list(other.inputs))}"
        )
    _check_table(len(channel.inputs), len(channel.outputs) * len(other.outputs), "parallel")
    return channel.parallel(other)


def output_marginal(mechanism: Mechanism, index: int) -> Mechanism:
    """The channel x -> y[index] of a channel with tuple outputs y (summing the other parts).

    >>> both = parallel(Mechanism.identity([0, 1]), Mechanism({0: {"a": 1}, 1: {"b": 1}}))
    >>> output_marginal(both, 1) == Mechanism({0: {"a": 1}, 1: {"b": 1}})
    True
    """
    require_mechanism(mechanism, "mechanism")
    if isinstance(index, bool) or not isinstance(index, int):
        raise InvalidArgument(f"index={abbreviated_repr(index)} must be an int")
    for y in mechanism.outputs:
        if not isinstance(y, tuple) or not -len(y) <= index < len(y):
            raise InvalidArgument(
                f"output_marginal: output {abbreviated_repr(y)} has no coordinate "
                f"index={abbreviated(index)}"
            )
    rows = rational_kernel(mechanism)
    parts: dict[Hashable, list[int]] = {}
    for j, y in enumerate(mechanism.outputs):
        parts.setdefault(y[index], []).append(j)  # type: ignore[index]
    return Mechanism(
        {
            x: {z: sum((row[j] for j in columns), Fraction(0)) for z, columns in parts.items()}
            for x, row in zip(mechanism.inputs, rows, strict=True)
        },
        outputs=list(parts),
    )


def _solve(
    channel: Mechanism, other: Mechanism, max_unknowns: int
) -> tuple[list[Fraction] | None, list[Fraction] | None, int]:
    """Solve D = C R, R >= 0 with rows summing to 1, in the unknowns R(y, z) (row-major).

    Returns ``(r, None)`` or ``(None, y)`` (a Farkas certificate over the equations: one per
    (x, z), then one per row sum), and k = |Z|.  R(y, z) is known to be 0 when some x has
    C(x, y) > 0 = D(x, z) (every term of that equation is non-negative), so such unknowns
    are left out of the simplex; a certificate of the smaller system is then extended to the
    full one by lowering the weight of such an equation (its right side is 0, its
    coefficients non-negative, so no other column's sum rises).
    """
    require_mechanism(channel, "channel")
    require_mechanism(other, "other")
    if set(channel.inputs) != set(other.inputs):
        raise InvalidArgument(
            f"refinement: the channels have different inputs "
            f"{abbreviated_repr(list(channel.inputs))} and "
            f"{abbreviated_repr(list(other.inputs))}"
        )
    c = rational_kernel(channel, "channel")
    d_rows = rational_kernel(other, "other")
    d = [d_rows[other.input_position(x)] for x in channel.inputs]
    m, k = len(channel.outputs), len(other.outputs)
    n = len(c)
    within_bound(  # the search for forced zeros below looks at every (x, y, z)
        n * m * k,
        "iteration_work",
        where="refinement",
        what=f"{n} inputs × {m} outputs × {k} outputs of other ask for {n * m * k} tests",
    )
    # for each unknown (y, z): an equation (x, z) forcing it to 0, if any
    forcing = {
        y * k + z: next((i for i in range(n) if c[i][y] > 0 and d[i][z] == 0), None)
        for y in range(m)
        for z in range(k)
    }
    kept = [j for j, forcer in forcing.items() if forcer is None]
    bound = positive_integer(max_unknowns, name="max_unknowns")
    if len(kept) > bound:
        raise InvalidArgument(
            f"refinement: {len(kept)} unknowns R(y, z) exceed max_unknowns={bound} "
            "(the exact simplex is dense; raise max_unknowns to go on)"
        )
    within_bound(  # the dense system: one row per (x, z) and per y, one column per unknown
        (n * k + m) * len(kept),
        "table_entries",
        where="refinement",
        what=f"the system of {n * k + m} equations in {len(kept)} unknowns has "
        f"{(n * k + m) * len(kept)} entries",
    )
    # equations (x, z) then row sums y, over the kept unknowns only; an equation with no
    # kept unknown and right side 0 holds trivially and is left out (weight 0)
    position = {j: column for column, j in enumerate(kept)}
    rows: list[int] = []
    matrix: list[list[Fraction]] = []
    right: list[Fraction] = []
    for i in range(n):
        for z in range(k):
            equation = [Fraction(0)] * len(kept)
            for y in range(m):
                column = position.get(y * k + z)
                if column is not None:
                    equation[column] = c[i][y]
            if any(equation) or d[i][z]:
                rows.append(i * k + z)
                matrix.append(equation)
                right.append(d[i][z])
    for y in range(m):
        equation = [Fraction(0)] * len(kept)
        for z in range(k):
            column = position.get(y * k + z)
            if column is not None:
                equation[column] = Fraction(1)
        rows.append(n * k + y)
        matrix.append(equation)
        right.append(Fraction(1))
    # the dense exact simplex: about (equations + unknowns) pivots over the whole table
    work = (len(matrix) + len(kept)) * len(matrix) * len(kept)
    within_bound(
        work,
        "iteration_work",
        where="refinement",
        what=f"the simplex on {len(matrix)} equations in {len(kept)} unknowns may update "
        f"{work} entries",
    )
    point, reduced_certificate = feasible_point(matrix, right)
    if point is not None:
        full = [Fraction(0)] * (m * k)
        for j, value in zip(kept, point, strict=True):
            full[j] = value
        return full, None, k
    assert reduced_certificate is not None
    certificate = [Fraction(0)] * (n * k + m)
    for row, weight in zip(rows, reduced_certificate, strict=True):
        certificate[row] = weight
    for j, forcer in forcing.items():
        if forcer is None:
            continue
        y, z = divmod(j, k)
        excess = certificate[n * k + y] + sum(
            (certificate[i * k + z] * c[i][y] for i in range(n)), Fraction(0)
        )
        if excess > 0:  # equation (x, z) has right side 0 and C(x, y) > 0 in column j
            certificate[forcer * k + z] -= excess / c[forcer][y]
    return None, certificate, k


def refinement_map(
    channel: Mechanism, other: Mechanism, *, max_unknowns: int = MAX_REFINEMENT_UNKNOWNS
) -> Mechanism | None:
    """A channel R from ``channel``'s outputs to ``other``'s with ``other = channel R``, or None.

    Exact (simplex over ``Fraction``); R is one solution among possibly many.

    >>> c = Mechanism.identity([0, 1])
    >>> refinement_map(c, Mechanism({0: {"z": 1}, 1: {"z": 1}})).probability(1, "z")
    Fraction(1, 1)
    """
    point, _, k = _solve(channel, other, max_unknowns)
    if point is None:
        return None
    return Mechanism(
        {
            y: {z: point[a * k + b] for b, z in enumerate(other.outputs)}
            for a, y in enumerate(channel.outputs)
        },
        outputs=other.outputs,
        name="refinement map",
    )


def refines(
    channel: Mechanism, other: Mechanism, *, max_unknowns: int = MAX_REFINEMENT_UNKNOWNS
) -> bool:
    """C ⊑ D: ``other`` = ``channel`` R for some channel R (book Chapter 9), decided exactly.

    >>> refines(Mechanism.identity([0, 1]), Mechanism({0: {"z": 1}, 1: {"z": 1}}))
    True
    """
    return refinement_map(channel, other, max_unknowns=max_unknowns) is not None


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class RefinementCertificate:
    """A Farkas certificate that no channel R gives D = C R.

    With unknowns R(y, z) the conditions read A r = b, r >= 0, where the rows of A are the
    equations Σ_y C(x, y) R(y, z) = D(x, z) (one per (x, z), ``equation_weights``) and
    Σ_z R(y, z) = 1 (one per y, ``row_weights``).  The certificate is a weight per equation
    such that every column of A has non-positive weighted sum while the weighted sum of b is
    positive: i.e. for every y, z,
    Σ_x u(x, z) C(x, y) + v(y) <= 0, and Σ_{x,z} u(x, z) D(x, z) + Σ_y v(y) > 0.

    Attributes:
        equation_weights: ``{(x, z): u(x, z)}``.
        row_weights: ``{y: v(y)}``.
    """

    equation_weights: dict[tuple[Hashable, Hashable], Fraction]
    row_weights: dict[Hashable, Fraction]


def refinement_certificate(
    channel: Mechanism, other: Mechanism, *, max_unknowns: int = MAX_REFINEMENT_UNKNOWNS
) -> RefinementCertificate | None:
    """A certificate that ``channel`` does not refine to ``other`` (None when it does).

    >>> c = Mechanism({0: {"ab": 1}, 1: {"ab": 1}})
    >>> refinement_certificate(c, Mechanism.identity([0, 1])) is not None
    True
    """
    _, certificate, k = _solve(channel, other, max_unknowns)
    if certificate is None:
        return None
    equations = {
        (x, z): certificate[i * k + b]
        for i, x in enumerate(channel.inputs)
        for b, z in enumerate(other.outputs)
    }
    rows = {y: certificate[len(channel.inputs) * k + a] for a, y in enumerate(channel.outputs)}
    return RefinementCertificate(equations, rows)
