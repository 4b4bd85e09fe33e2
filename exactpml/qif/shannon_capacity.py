"""Shannon capacity (and the order-α Sibson capacity) between certified rational bounds.

Shannon capacity C(W) = max_π I(π; W) (Cover & Thomas, *Elements of Information Theory*,
Chapter 7, and §10.8 for the Blahut-Arimoto algorithm; Blahut 1972, Arimoto 1972).
It is in general transcendental and has no closed form, so it is *bracketed*:

* lower bound: I(π; W) at a rational prior π, enclosed by ball arithmetic (any prior gives a
  lower bound);
* upper bound: max_x D(W_x || πW), also enclosed (the dual of the capacity: for every output
  law Q, C <= max_x D(W_x || Q); Blahut 1972; Csiszár-Körner).

The priors are *proposed* -- by Blahut-Arimoto iterations on ball midpoints, and by side
proposals in floating point that drop inputs whose divergence is below I(π) (the KKT
condition) and rebalance the rest (Shannon: also damped Newton steps), for nearly equal rows where
Blahut-Arimoto converges like 1/t -- and rounded to rational weights; the bounds are
certified whatever the proposal, and iterations continue (in doubling batches) until
``upper - lower <= tolerance`` or ``max_steps`` is spent, when
:class:`~exactpml.errors.Undecided` is raised.  The same scheme serves the maximal α-leakage
(:func:`exactpml.qif.maximal_alpha_leakage`) with Sibson's I_α and the Rényi radius.

>>> from fractions import Fraction
>>> from exactpml import Mechanism
>>> bsc = Mechanism({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}})
>>> bounds = shannon_capacity(bsc, tolerance=Fraction(1, 10**9))
>>> bounds.upper - bounds.lower <= Fraction(1, 10**9), bounds.prior[0]
(True, Fraction(1, 2))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from flint import arb, ctx, fmpq

from exactpml.core.display import abbreviated_fields_repr
from exactpml.core.distribution import Distribution
from exactpml.core.mechanism import Mechanism
from exactpml.core.parameters import (
    positive_integer,
    short_number,
    tolerance_digits,
    within_bound,
)
from exactpml.core.parameters import tolerance as checked_tolerance
from exactpml.errors import InvalidArgument, Undecided
from exactpml.numerics.log_moments import order_precision
from exactpml.qif import _bounds
from exactpml.qif._support import rational_kernel

__all__ = ["DEFAULT_TOLERANCE", "CapacityBounds", "shannon_capacity"]

DEFAULT_TOLERANCE = Fraction(1, 10**6)
"""Default width of the certified bracket (nats)."""


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class CapacityBounds:
    """A capacity known to lie in [lower, upper] (certified), with the prior that gives ``lower``.

    Attributes:
        lower: a rational lower bound (the leakage at ``prior`` is at least this).
        upper: a rational upper bound.
        prior: a rational prior whose leakage is at least ``lower``.
        steps: the number of iterations that proposed ``prior``.
    """

    lower: Fraction
    upper: Fraction
    prior: Distribution
    steps: int

    @property
    def width(self) -> Fraction:
        """``upper - lower``."""
        return self.upper - self.lower


_NEAR_ONE = Fraction(1, 2**16)
"""Below this α - 1 the order-α iteration's exponent 1/(α - 1) overflows: the priors are then
proposed by Blahut-Arimoto (C_α -> Shannon capacity as α -> 1) and certified at order α."""


def certified_capacity(
    mechanism: Mechanism,
    alpha: Fraction | None,
    tolerance: object,
    max_steps: object,
    *,
    what: str,
) -> CapacityBounds:
    """Bracket the Shannon (``alpha`` None) or Sibson order-α capacity of ``mechanism``.

    Costs checked before any work: ``tolerance`` against ``Bounds.tolerance_bits`` (the balls'
    precision follows it), ``max_steps`` × inputs × outputs against ``Bounds.iteration_work``,
    and the precision that α - 1 asks for against ``Bounds.certified_precision``.
    """
    rows = rational_kernel(mechanism)
    width = checked_tolerance(tolerance, where=what)
    budget = positive_integer(max_steps, name="max_steps", minimum=0)
    size, outputs = len(rows), len(rows[0])
    within_bound(
        budget * size * outputs,
        "iteration_work",
        where=what,
        what=f"max_steps={budget} budgets {budget * size * outputs} kernel-entry updates "
        f"({size} inputs × {outputs} outputs a step)",
    )
    precision = max(_bounds.PRECISION, tolerance_digits(width) + 64)
    if alpha is not None:
        precision = order_precision(
            alpha - 1, where=what, shown=f"order={short_number(alpha)}", base=precision
        )

    def certified(prior: list[Fraction]) -> tuple[Fraction, Fraction | None]:
        if alpha is None:
            output = [
                sum((p * row[j] for p, row in zip(prior, rows, strict=True)), Fraction(0))
                for j in range(outputs)
            ]
            lower = _bounds.shannon_lower(rows, prior, precision)
            upper = _bounds.shannon_upper(rows, output, precision)
        else:
            lower = _bounds.ball_bounds(_bounds.sibson_value_ball(rows, prior, alpha, precision))[0]
            upper = _bounds.renyi_radius_upper(
                rows, _bounds.sibson_output(rows, prior, alpha, precision), alpha, precision
            )
        return max(lower, Fraction(0)), upper  # every capacity is >= 0

    prior = [Fraction(1, size)] * size
    best_lower, best_upper = certified(prior)
    best_prior = prior

    def offer(candidate: list[Fraction], lower: Fraction, upper: Fraction | None) -> None:
        nonlocal best_lower, best_upper, best_prior
        if lower > best_lower:
            best_lower, best_prior = lower, candidate
        if upper is not None and (best_upper is None or upper < best_upper):
            best_upper = upper

    if alpha is not None:  # the bracket at large α (module docstring of _bounds)
        total, cover = _bounds.column_cover(rows)
        with ctx.workprec(precision):
            log_total = arb(fmpq(total.numerator, total.denominator)).log()
            gap = arb(len(cover)).log() / arb(fmpq((alpha - 1).numerator, (alpha - 1).denominator))
            far_lower = _bounds.ball_bounds(log_total - gap)[0]
            far_upper = _bounds.ball_bounds(log_total)[1]
        share = Fraction(1, len(cover))
        offer(
            [share if i in cover else Fraction(0) for i in range(size)],
            max(far_lower, Fraction(0)),
            far_upper,
        )
    stream_lower, stream_upper = best_lower, best_upper  # of the iteration's own priors
    proposing = None if alpha is None or alpha - 1 < _NEAR_ONE else alpha

    steps = 0
    batch, rate = 4, 1
    while True:
        if best_upper is not None and best_upper - best_lower <= width:
            break
        # side proposals, fast where the iteration crawls (nearly equal rows)
        polished = (
            _bounds.newton_prior(rows, prior)
            if proposing is None
            else _bounds.pruned_alpha_prior(rows, prior, proposing)
        )
        if polished is not None:
            offer(polished, *certified(polished))
        if best_upper is not None and best_upper - best_lower <= width:
            break
        if steps >= budget:
            raise Undecided(
                f"{what}: after {steps} iterations the certified bracket "
                f"[{short_number(best_lower)}, "
                f"{'oo' if best_upper is None else short_number(best_upper)}] is wider than "
                f"tolerance={short_number(width)}; raise max_steps or the tolerance"
            )
        batch = min(batch, budget - steps)
        proposal = _bounds.propose_prior(rows, prior, proposing, batch, rate)
        steps += batch
        lower, upper = certified(proposal)
        offer(proposal, lower, upper)
        if lower > stream_lower or (
            upper is not None and (stream_upper is None or upper < stream_upper)
        ):  # keep going from the proposal, faster
            prior, batch, rate = proposal, min(2 * batch, 256), min(2 * rate, 8)
            stream_lower = max(stream_lower, lower)
            if upper is not None and (stream_upper is None or upper < stream_upper):
                stream_upper = upper
        else:  # over-relaxation overshot: back to plain steps from the last good prior
            rate = 1
    assert best_upper is not None
    return CapacityBounds(
        best_lower,
        best_upper,
        Distribution(dict(zip(mechanism.inputs, best_prior, strict=True))),
        steps,
    )


def shannon_capacity(
    mechanism: Mechanism,
    tolerance: object = DEFAULT_TOLERANCE,
    *,
    max_steps: int = 20_000,
) -> CapacityBounds:
    """max_π I(π; W) in nats, bracketed by certified rational bounds at most ``tolerance`` apart.

    Blahut-Arimoto proposes the priors; the lower bound I(π; W) and the upper bound
    max_x D(W_x || πW) are enclosed by ball arithmetic, so the bracket holds however the
    prior was found.  Raises :class:`~exactpml.errors.Undecided` when ``max_steps``
    iterations do not bring the bracket within ``tolerance`` -- seen on kernels with several
    rows about 10^-6 apart, where brackets may stall near 10^-8 wide (and, for the order-α
    capacity, sometimes wider than 10^-6).

    >>> import sympy
    >>> from exactpml import certify
    >>> bounds = shannon_capacity(Mechanism.identity("ab"), "1/1000")
    >>> log2 = sympy.log(2)
    >>> certify.compare(bounds.lower, log2) <= 0 <= certify.compare(bounds.upper, log2)
    True
    """
    if not isinstance(mechanism, Mechanism):
        raise InvalidArgument(f"mechanism must be a Mechanism, got {type(mechanism).__name__}")
    return certified_capacity(mechanism, None, tolerance, max_steps, what="shannon_capacity")
