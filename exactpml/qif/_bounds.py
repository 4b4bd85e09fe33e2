"""Certified capacity bounds by ball arithmetic, and the iterations that propose priors (private).

Every bound is an end of an Arb ball (python-flint, rigorous interval arithmetic) computed
from the exact rational kernel and an exact rational prior, so it holds however the prior
was found.  The iterations (Blahut-Arimoto and its order-α analogue) run on ball midpoints
and only *propose* priors; each proposal is rounded to integer weights over a controlled
denominator and then certified.

* Shannon capacity C = max_π I(π; W) (Cover & Thomas, Chapter 7 and §10.8): for every π,
  I(π; W) <= C <= max_x D(W_x || πW) (for every Q: I(π; W) = min_Q Σ π(x) D(W_x || Q); Blahut 1972).
* Sibson capacity C_α = max_π I_α^S(π; W) for α > 1 (the maximal α-leakage of Liao et al.
  2019): I_α^S(π; W) <= C_α <= max_x D_α(W_x || Q) for every Q (the Rényi radius,
  from I_α^S(π) <= D_α(π×W || π×Q) <= max_x D_α(W_x || Q); Csiszár 1995).  Both are
  log-moments (:mod:`exactpml.numerics.log_moments`), enclosed without forming W^α, so any
  order α > 1 (10^999 included) costs the same.

**The bracket at large α.**  Let M_y = max_x W(x, y), R = Σ_y M_y (>= 1) and X* a set of m
inputs holding one maximiser of every column.  Then, for every α > 1,

    log R - log(m)/(α - 1)  <=  C_α  <=  log R.

Upper: take Q = M/R in the radius; D_α(W_x || Q) = (1/(α-1)) log(R^{α-1} Σ_y W (W/M_y)^{α-1})
<= log R since W <= M_y and Σ_y W(x, y) = 1.  Lower: at π uniform on X*,
Σ_x π(x) W(x, y)^α >= M_y^α / m for every y, so I_α^S(π) >= α/(α-1) log(m^{-1/α} R)
= α/(α-1) log R - log(m)/(α-1) >= log R - log(m)/(α-1) (log R >= 0).  The width
log(m)/(α - 1) shrinks like 1/α: far out it is below any tolerance, and the capacity is
then returned with no iteration at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from flint import arb, ctx, fmpq

from exactpml.numerics.log_moments import log_moment

__all__ = [
    "ball_bounds",
    "column_cover",
    "propose_prior",
    "rational_weights",
    "sibson_output",
    "sibson_value_ball",
]

PRECISION = 160
"""Working precision (bits) of the balls."""

_SCALE_BITS = 48
"""Proposed priors are integer weights over a denominator of about 2^48."""


def _arb(value: Fraction) -> arb:
    return arb(fmpq(value.numerator, value.denominator))


def ball_bounds(ball: arb) -> tuple[Fraction, Fraction]:
    """The exact ends (mid - rad, mid + rad) of a finite ball."""
    if not ball.is_finite():
        raise ArithmeticError("ball is not finite")
    mid_man, mid_exp = ball.mid().man_exp()
    rad_man, rad_exp = ball.rad().man_exp()
    mid = Fraction(int(mid_man)) * Fraction(2) ** int(mid_exp)
    rad = Fraction(int(rad_man)) * Fraction(2) ** int(rad_exp)
    return mid - rad, mid + rad


def rational_weights(balls: Sequence[arb]) -> list[Fraction]:
    """A rational prior near the midpoints of ``balls``: integer weights >= 1, normalised."""
    weights = []
    for ball in balls:
        man, exp = ball.mid().man_exp()
        shift = int(exp) + _SCALE_BITS
        value = int(man) << shift if shift >= 0 else int(man) >> -shift
        weights.append(max(value, 1))
    total = sum(weights)
    return [Fraction(w, total) for w in weights]


def _powers(rows: Sequence[Sequence[Fraction]], alpha: Fraction | None) -> list[list[arb]]:
    """W(x, y) (alpha None) or W(x, y)^α as balls (0 stays exactly 0)."""
    result = []
    for row in rows:
        if alpha is None:
            result.append([_arb(v) for v in row])
        else:
            power = _arb(alpha)
            result.append([_arb(v) ** power if v else arb(0) for v in row])
    return result


def shannon_lower(
    rows: Sequence[Sequence[Fraction]], prior: Sequence[Fraction], precision: int = PRECISION
) -> Fraction:
    """A certified lower bound on I(π; W) = Σ π(x) W(x, y) log(W(x, y) / (πW)(y))."""
    output = [
        sum((p * row[j] for p, row in zip(prior, rows, strict=True)), Fraction(0))
        for j in range(len(rows[0]))
    ]
    with ctx.workprec(precision):
        total = arb(0)
        for p, row in zip(prior, rows, strict=True):
            for j, w in enumerate(row):
                if p and w:
                    total += _arb(p * w) * _arb(w / output[j]).log()
        return ball_bounds(total)[0]


def shannon_upper(
    rows: Sequence[Sequence[Fraction]], output: Sequence[Fraction], precision: int = PRECISION
) -> Fraction | None:
    """A certified upper bound on max_x D(W_x || Q) (None when some D is infinite)."""
    with ctx.workprec(precision):
        best: Fraction | None = Fraction(0)
        for row in rows:
            total = arb(0)
            for w, q in zip(row, output, strict=True):
                if w:
                    if not q:
                        return None
                    total += _arb(w) * _arb(w / q).log()
            best = max(best, ball_bounds(total)[1]) if best is not None else None
        return best


def _column_terms(
    rows: Sequence[Sequence[Fraction]], prior: Sequence[Fraction], column: int
) -> tuple[list[Fraction], list[Fraction]]:
    """(π(x), W(x, y)) over the x with π(x) > 0 and W(x, y) > 0, for y = ``column``."""
    masses, entries = [], []
    for p, row in zip(prior, rows, strict=True):
        if p and row[column]:
            masses.append(p)
            entries.append(row[column])
    return masses, entries


def _tilted(
    rows: Sequence[Sequence[Fraction]], prior: Sequence[Fraction], alpha: Fraction
) -> list[arb | None]:
    """(Σ_x π(x) W(x, y)^α)^{1/α} per output (None where it is exactly 0), in the context."""
    balls: list[arb | None] = []
    for j in range(len(rows[0])):
        masses, entries = _column_terms(rows, prior, j)
        balls.append((log_moment(masses, entries, alpha) / _arb(alpha)).exp() if masses else None)
    return balls


def sibson_value_ball(
    rows: Sequence[Sequence[Fraction]],
    prior: Sequence[Fraction],
    alpha: Fraction,
    precision: int = PRECISION,
) -> arb:
    """I_α^S(π; W) = α/(α-1) log Σ_y (Σ_x π(x) W(x, y)^α)^{1/α}, as a ball."""
    with ctx.workprec(precision):
        total = sum((b for b in _tilted(rows, prior, alpha) if b is not None), arb(0))
        return _arb(alpha / (alpha - 1)) * total.log()


def sibson_output(
    rows: Sequence[Sequence[Fraction]],
    prior: Sequence[Fraction],
    alpha: Fraction,
    precision: int = PRECISION,
) -> list[Fraction]:
    """A rational Q near the α-tilted output (Σ_x π(x) W(x, y)^α)^{1/α}, normalised, with
    Q(y) > 0 wherever some W(x, y) > 0 (so every D_α(W_x || Q) is finite)."""
    with ctx.workprec(precision):
        balls = [arb(0) if b is None else b for b in _tilted(rows, prior, alpha)]
        weights = rational_weights(balls)
    reachable = [any(row[j] for row in rows) for j in range(len(rows[0]))]
    kept = [w if r else Fraction(0) for w, r in zip(weights, reachable, strict=True)]
    return [w / sum(kept) for w in kept]


def renyi_radius_upper(
    rows: Sequence[Sequence[Fraction]],
    output: Sequence[Fraction],
    alpha: Fraction,
    precision: int = PRECISION,
) -> Fraction:
    """A certified upper bound on max_x D_α(W_x || Q), D_α = log(Σ_y W^α Q^{1-α}) / (α - 1).

    Each D_α is the log-moment K(α - 1)/(α - 1) with masses W(x, ·) and ratios W/Q.
    """
    step = alpha - 1
    with ctx.workprec(precision):
        best = None
        for row in rows:
            masses = [w for w in row if w]
            ratios = [w / q for w, q in zip(row, output, strict=True) if w]
            value = ball_bounds(log_moment(masses, ratios, step) / _arb(step))[1]
            best = value if best is None else max(best, value)
        assert best is not None
        return best


def column_cover(rows: Sequence[Sequence[Fraction]]) -> tuple[Fraction, list[int]]:
    """R = Σ_y max_x W(x, y) and the inputs X* holding the first maximiser of every column."""
    total = Fraction(0)
    cover: dict[int, None] = {}
    for column in zip(*rows, strict=True):
        top = max(column)
        total += top
        cover.setdefault(column.index(top), None)
    return total, sorted(cover)


def propose_prior(
    rows: Sequence[Sequence[Fraction]],
    prior: Sequence[Fraction],
    alpha: Fraction | None,
    steps: int,
    rate: int = 1,
) -> list[Fraction]:
    """``steps`` iterations from ``prior``; a rational proposal (every weight positive).

    Shannon (alpha None), Blahut-Arimoto: π(x) <- π(x) exp(D(W_x || πW))^rate / Z.
    Order α: π(x) <- π(x) (Σ_y W(x, y)^α Q(y)^{1-α})^{rate/(α-1)} / Z with Q the α-tilted
    output.  ``rate`` > 1 over-relaxes (faster on nearly equal rows, may oscillate: the
    caller keeps a proposal only when its certified bounds improve).  Midpoints at 64 bits.
    """
    with ctx.workprec(64):
        weights = [_arb(p) for p in prior]
        kernel = _powers(rows, None)
        powered = _powers(rows, alpha) if alpha is not None else kernel
        reachable = [any(row[j] for row in rows) for j in range(len(rows[0]))]
        for _ in range(steps):
            if alpha is None:
                output = [
                    sum((p * row[j] for p, row in zip(weights, kernel, strict=True)), arb(0))
                    for j in range(len(rows[0]))
                ]
                factors = []
                for row in kernel:
                    exponent = arb(0)
                    for w, q in zip(row, output, strict=True):
                        if w != 0:  # q > 0 there: every weight is positive
                            exponent += w * (w / q).log()
                    factors.append((exponent * rate).exp())
            else:
                inverse = _arb(1 / alpha)
                tilted = []
                for j in range(len(rows[0])):
                    if not reachable[j]:
                        tilted.append(arb(0))
                        continue
                    inner = sum(
                        (p * row[j] for p, row in zip(weights, powered, strict=True)), arb(0)
                    )
                    tilted.append(inner**inverse)
                norm = sum(tilted, arb(0))
                tilted = [t / norm for t in tilted]
                factors = []
                for row in powered:
                    total = arb(0)
                    for a, q in zip(row, tilted, strict=True):
                        if a != 0:  # q > 0 there
                            total += a * q ** _arb(1 - alpha)
                    factors.append(total ** _arb(Fraction(rate) / (alpha - 1)))
            updated = [p * f for p, f in zip(weights, factors, strict=True)]
            norm = sum(updated, arb(0))
            if not all((u / norm).mid().is_finite() for u in updated):
                break  # a ball blew up at this precision: keep the last finite proposal
            # keep the midpoints only: the iteration proposes, it does not certify
            weights = [arb((u / norm).mid()) for u in updated]
        return rational_weights(weights)


def newton_prior(
    rows: Sequence[Sequence[Fraction]], prior: Sequence[Fraction], rounds: int = 8
) -> list[Fraction] | None:
    """A Newton proposal for max_π I(π; W) on the simplex, in floating point (proposal only).

    Newton's method on the concave I with the constraint Σ π = 1 (a least-squares solve of
    the KKT system, since nearly equal rows make the Hessian nearly singular), damped to keep
    every weight positive and to increase I.  Blahut-Arimoto converges like 1/t on nearly
    equal rows; Newton converges fast near the optimum.  None when it makes no progress.
    """
    import numpy as np

    kernel = np.array([[float(v) for v in row] for row in rows])
    logs = np.where(kernel > 0, np.log(np.where(kernel > 0, kernel, 1.0)), 0.0)
    pi = np.array([float(p) for p in prior])

    def information(weights: Any) -> tuple[float, Any, Any]:
        output = weights @ kernel
        safe = np.where(output > 0, output, 1.0)
        divergences = (kernel * (logs - np.log(safe))).sum(axis=1)
        return float(weights @ divergences), divergences, safe

    value, divergences, output = information(pi)
    for _ in range(rounds):
        # inputs whose divergence is below I(π) carry no weight at the optimum (KKT): try
        # dropping them, which Blahut-Arimoto does only slowly when rows are nearly equal
        pruned = np.where(divergences < value, 0.0, pi)
        if pruned.sum() > 0:
            pruned /= pruned.sum()
            for _ in range(50):  # rebalance the kept inputs (Blahut-Arimoto, in floats)
                pruned = pruned * np.exp(information(pruned)[1])
                pruned /= pruned.sum()
            pruned_value, pruned_divergences, pruned_output = information(pruned)
            if pruned_value > value:
                pi, value = pruned, pruned_value
                divergences, output = pruned_divergences, pruned_output
        active = np.flatnonzero(pi > 1e-13 * pi.max())
        size = len(active)
        hessian = -(kernel[active] / output) @ kernel[active].T
        system = np.zeros((size + 1, size + 1))
        system[:size, :size] = hessian
        system[:size, size] = 1.0
        system[size, :size] = 1.0
        right = np.concatenate([-(divergences[active] - 1.0), [0.0]])
        direction = np.zeros(len(pi))
        direction[active] = np.linalg.lstsq(system, right, rcond=None)[0][:size]
        shrinking = direction < 0
        # the longest step keeping every weight >= 0 (a weight may reach 0 and drop out)
        limit = float(np.min(-pi[shrinking] / direction[shrinking])) if shrinking.any() else 1.0
        step = min(1.0, limit)
        while step > 1e-12:
            candidate = np.maximum(pi + step * direction, 0.0)
            candidate /= candidate.sum()
            new_value, new_divergences, new_output = information(candidate)
            if new_value > value:
                pi, value, divergences, output = candidate, new_value, new_divergences, new_output
                break
            step /= 2
        else:
            break
    if not np.all(np.isfinite(pi)):
        return None
    scale = 1 << _SCALE_BITS
    weights = [max(int(np.rint(p * scale)), 1) for p in pi]
    total = sum(weights)
    return [Fraction(w, total) for w in weights]


def pruned_alpha_prior(
    rows: Sequence[Sequence[Fraction]], prior: Sequence[Fraction], alpha: Fraction
) -> list[Fraction] | None:
    """A side proposal for the order-α capacity, in floating point (proposal only).

    At the optimum every input of the support has Rényi divergence D_α(W_x || Q) = C_α from
    the α-tilted output Q, the others at most C_α; so the inputs of the k largest
    divergences are kept, for every k, rebalanced by the order-α iteration, and the best
    candidate returned (None when none improves I_α(π)).
    """
    import numpy as np

    if alpha - 1 < Fraction(1, 2**16) or alpha > 2**16:
        return None  # float powers lose everything (W^α underflows, 1/(α - 1) overflows)
    a, step = float(alpha), float(alpha - 1)
    powered = np.array([[float(v) ** a if v else 0.0 for v in row] for row in rows])

    def state(weights: Any) -> tuple[float, Any]:
        tilted = (weights @ powered) ** (1 / a)
        total = tilted.sum()
        q = np.where(tilted > 0, tilted / total, 1.0)
        sums = (powered * q ** (1 - a)).sum(axis=1)
        return a / step * float(np.log(total)), sums

    pi = np.array([float(p) for p in prior])
    value, sums = state(pi)
    divergences = np.log(sums) / step
    order = np.argsort(-divergences)
    best, best_value = None, value
    for kept in range(1, len(pi) + 1):  # keep the inputs of the k largest divergences
        weights = np.zeros(len(pi))
        weights[order[:kept]] = np.maximum(pi[order[:kept]], 1e-3)
        weights /= weights.sum()
        for _ in range(200):
            weights = weights * state(weights)[1] ** (1 / step)
            weights /= weights.sum()
        if np.all(np.isfinite(weights)):
            candidate_value = state(weights)[0]
            if candidate_value > best_value:
                best, best_value = weights, candidate_value
    if best is None:
        return None  # no progress
    weights = best
    scale = 1 << _SCALE_BITS
    integers = [max(int(np.rint(w * scale)), 1) for w in weights]
    total = sum(integers)
    return [Fraction(w, total) for w in integers]
