"""Hypothesis strategies for exact finite distributions, mechanisms, attributes and pair kernels.

Every generator draws its alphabet sizes first (smallest first, so a failing example shrinks
by removing inputs and outputs) and then a **regime**, each reached with probability at least
1/6 (``REGIMES``):

* ``"full_support"``: every entry positive: uniform, or integer weights (up to 4, with many
  ties, or up to 1000) that shrink to the uniform vector;
* ``"zeros"``: zero patterns (entries, and for kernels whole columns: outputs never produced);
* ``"deterministic"``: one-hot vectors (deterministic rows, functions, constants);
* ``"near_ties"``: entries (and rows) differing by a tiny rational (up to 9 times 10^-6,
  10^-9 or 10^-12);
* ``"extreme_ratios"``: entries like 1/10^6 next to 1 - 1/10^6;

and for kernels also ``"mixed"`` (each row in a regime of its own).  Options that forbid
zeros or one-hot vectors remove the regimes that need them.  Weights shrink towards 1 (equal
weights), never towards zero: a shrunk counterexample has as few inputs as it can, with
simple, equal priors.  Every value drawn is exact (``Fraction`` entries), so shrunk
counterexamples are exact, and each object's ``repr`` rebuilds it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction

from hypothesis import strategies as st

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.distribution import Distribution
from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument
from exactpml.strategies._draws import (
    BOOLEANS,
    integer_sets,
    integers_between,
    sampled_from_values,
)
from exactpml.strategies._enumerable import composite

__all__ = [
    "KERNEL_REGIMES",
    "PAIR_REGIMES",
    "REGIMES",
    "attributes",
    "distributions",
    "mechanisms",
    "mechanisms_with_prior",
    "pair_kernels",
    "probability_vectors",
]

REGIMES = ("full_support", "zeros", "deterministic", "near_ties", "extreme_ratios")
"""The regimes of probability vectors, simplest first (a shrunk example prefers the first)."""

KERNEL_REGIMES = (*REGIMES, "mixed")
"""The regimes of kernels: one regime for every row, or ``"mixed"`` (a regime per row)."""

PAIR_REGIMES = ("independent", "one_time_pad", "shared_randomness", "joint")
"""The regimes of pair kernels P_{(Y1, Y2)|X}: Y1, Y2 independent given X, or dependent."""

_TINY = (Fraction(1, 10**6), Fraction(1, 10**9), Fraction(1, 10**12))
_POSITIVE = ("full_support", "near_ties", "extreme_ratios")
# attributes are functions of X (and a mixed kernel's rows one-hot) a third of the time,
# each other regime a sixth
_ATTRIBUTE_REGIMES = (
    "deterministic",
    "full_support",
    "zeros",
    "deterministic",
    "near_ties",
    "extreme_ratios",
)


def choose_regime(draw: st.DrawFn, allowed: Sequence[str]) -> str:
    """One of ``allowed``, each with probability 1/len(allowed); shrinks to the first.

    Drawn as an integer below 1000 * len(allowed) taken modulo len(allowed) (a regime
    listed twice is drawn twice as often): Hypothesis' own choice among a few values is far
    from uniform in the first few dozen examples, and never repeats an example, so a
    regime with few distinct examples (one-hot vectors of size 3) would stop being drawn.
    """
    choices = tuple(allowed)
    return choices[draw(integers_between(0, 1000 * len(choices) - 1)) % len(choices)]


LARGEST_ALPHABET = 1_000
"""The most entries a strategy draws one value for (Hypothesis' buffer of 8 KiB per
example runs out long before 10^4 drawn values)."""


def check_drawable(name: str, count: int) -> None:
    """Refuse an alphabet of more than :data:`LARGEST_ALPHABET` entries, one value drawn each."""
    if count > LARGEST_ALPHABET:
        raise InvalidArgument(
            f"{name}: an alphabet of {abbreviated(count)} entries is above {LARGEST_ALPHABET} "
            "(one value is drawn per entry)"
        )


def _check_sizes(name: str, low: int, high: int) -> None:
    if low < 1:
        raise InvalidArgument(f"{name}: the minimum size {abbreviated(low)} must be at least 1")
    if high < low:
        raise InvalidArgument(
            f"{name}: the maximum size {abbreviated(high)} is below the minimum {abbreviated(low)}"
        )


def vector_regimes(*, zeros: bool, deterministic: bool, skewed: bool = True) -> tuple[str, ...]:
    """The regimes allowed by the options, in ``REGIMES`` order (as drawn: with all five,
    ``"zeros"`` is listed twice, so zero patterns have probability 1/3 and the others 1/6).

    Args:
        zeros: allow zero entries (the ``"zeros"`` and ``"deterministic"`` regimes).
        deterministic: allow one-hot vectors.
        skewed: allow ``"extreme_ratios"``.
    """
    allowed = ["full_support"]
    if zeros:
        allowed.append("zeros")
        if deterministic:
            allowed.append("deterministic")
    allowed.append("near_ties")
    if skewed:
        allowed.append("extreme_ratios")
    if zeros and len(allowed) == 5:  # zero patterns a third of the time, the rest a sixth
        allowed.append("zeros")
    return tuple(allowed)


def _weights(draw: st.DrawFn, size: int, max_weight: int) -> list[int]:
    """Positive integer weights shrinking to 1: small (many ties) or up to ``max_weight``."""
    bound = draw(sampled_from_values((4, max(4, max_weight))))
    return [draw(integers_between(1, bound)) for _ in range(size)]


def _normalised(weights: Sequence[int | Fraction]) -> list[Fraction]:
    total = sum(weights, Fraction(0))
    return [Fraction(w) / total for w in weights]


def _other_index(draw: st.DrawFn, size: int, first: int) -> int:
    return (first + 1 + draw(integers_between(0, size - 2))) % size


def _nudged(draw: st.DrawFn, vector: list[Fraction]) -> list[Fraction]:
    """Move k times a tiny rational (k <= 9) from one entry to another (both stay positive)."""
    size = len(vector)
    if size == 1:
        return vector
    tiny = draw(sampled_from_values(_TINY)) * draw(integers_between(1, 9))
    up = draw(integers_between(0, size - 1))
    down = _other_index(draw, size, up)
    nudged = list(vector)
    nudged[up] += tiny
    nudged[down] -= tiny
    return nudged


def regime_vector(
    draw: st.DrawFn, size: int, regime: str, *, max_weight: int = 1000, uniform: bool = True
) -> list[Fraction]:
    """A probability vector of ``size`` exact entries in the given regime (see ``REGIMES``).

    ``uniform``: the full-support regime gives the uniform vector a quarter of the time (the
    simplest example, where shrinking a prior ends); kernels' rows leave it out.
    """
    if size == 1:
        return [Fraction(1)]
    if regime == "deterministic":
        hot = draw(integers_between(0, size - 1))
        return [Fraction(int(i == hot)) for i in range(size)]
    if regime == "extreme_ratios":
        tiny = Fraction(1, 10**6)
        hot = draw(integers_between(0, size - 1))
        small = [tiny * draw(integers_between(1, 9)) for _ in range(size - 1)]
        rest = 1 - sum(small, Fraction(0))
        return [*small[:hot], rest, *small[hot:]]
    if regime == "near_ties":
        return _nudged(draw, _normalised([1] * size))
    if regime == "full_support" and uniform and draw(integers_between(0, 3)) == 0:
        return _normalised([1] * size)  # uniform: the fewest choices, so shrinking ends here
    weights = _weights(draw, size, max_weight)
    if regime == "zeros":  # at least one zero; two positive entries when size >= 3
        zero = [draw(BOOLEANS) for _ in range(size)]
        while size - sum(zero) < min(2, size - 1):
            zero[zero.index(True)] = False
        if not any(zero):
            zero[draw(integers_between(0, size - 1))] = True
        weights = [0 if z else w for w, z in zip(weights, zero, strict=True)]
    elif regime != "full_support":
        raise InvalidArgument(
            f"regime={abbreviated_repr(regime)} must be one of {abbreviated_repr(REGIMES)}"
        )
    return _normalised(weights)


@composite
def probability_vectors(
    draw: st.DrawFn,
    size: int,
    *,
    zeros: bool = True,
    full_support: bool = False,
    deterministic: bool = True,
    skewed: bool = True,
    max_weight: int = 1000,
) -> list[Fraction]:
    """A probability vector of ``size`` exact entries, in a regime drawn first.

    Each allowed regime of ``REGIMES`` has probability 1/5 with the defaults (1/3 with
    ``full_support=True``): full support (weights up to 4, many ties, or up to
    ``max_weight``), zero patterns, one-hot (``deterministic``), near-ties (entries moved by
    up to 9 times 10^-6, 10^-9 or 10^-12) and extreme ratios (``skewed``: 10^-6 next to
    1 - 10^-6).
    ``full_support=True`` (or ``zeros=False``) makes every entry positive.
    """
    if size < 1:
        raise InvalidArgument(f"probability_vectors: size={abbreviated(size)} must be at least 1")
    positive = full_support or not zeros
    allowed = vector_regimes(zeros=not positive, deterministic=deterministic, skewed=skewed)
    regime = choose_regime(draw, allowed)
    return regime_vector(draw, size, regime, max_weight=max_weight)


def _labels(
    draw: st.DrawFn, given: Sequence[Hashable] | None, low: int, high: int, name: str
) -> list[Hashable]:
    if given is None:
        _check_sizes(name, low, high)
        return list(range(draw(integers_between(low, high))))
    labels = list(given)
    if not labels:
        raise InvalidArgument(f"{name}: the alphabet is empty")
    return labels


@composite
def distributions(
    draw: st.DrawFn,
    *,
    outcomes: Sequence[Hashable] | None = None,
    min_size: int = 1,
    max_size: int = 6,
    zeros: bool = True,
    full_support: bool = False,
    skewed: bool = True,
) -> Distribution:
    """Exact distributions; on ``outcomes`` if given, else on ``range(n)`` with n in [min, max].

    The size is drawn first (smallest first), then a regime of ``REGIMES`` (each 1/5 by
    default; full support, near-ties and extreme ratios, 1/3 each, with ``full_support``).
    """
    labels = _labels(draw, outcomes, min_size, max_size, "distributions")
    vector = draw(
        probability_vectors(len(labels), zeros=zeros, full_support=full_support, skewed=skewed)
    )
    return Distribution(dict(zip(labels, vector, strict=True)))


def kernel_rows(
    draw: st.DrawFn,
    rows: int,
    width: int,
    regime: str,
    *,
    deterministic: bool = True,
) -> list[list[Fraction]]:
    """``rows`` probability vectors of ``width`` entries in one kernel regime.

    ``"zeros"`` also makes whole columns zero (outputs never produced); ``"near_ties"`` gives
    rows that differ from one common row by tiny rationals (likelihood ratios near 1);
    ``"mixed"`` draws each row one-hot or with integer weights from 0..4 or 0..1000 (zeros
    and ties in most rows, a third of them one-hot).
    """
    if regime == "mixed":  # rows one-hot, or of weights 0..4 or 0..1000 (zeros and ties)
        kinds = ("small", "large", "one_hot")[: 3 if deterministic else 2]
        matrix = []
        for _ in range(rows):
            kind = choose_regime(draw, kinds)
            if kind == "one_hot":
                matrix.append(regime_vector(draw, width, "deterministic"))
                continue
            top = 4 if kind == "small" else 1000
            weights = [draw(integers_between(0, top)) for _ in range(width)]
            if not any(weights):
                weights[draw(integers_between(0, width - 1))] = 1
            matrix.append(_normalised(weights))
        return matrix
    if regime == "near_ties":
        base = _normalised(_weights(draw, width, 4))
        return [_nudged(draw, base) if draw(BOOLEANS) else list(base) for _ in range(rows)]
    if regime == "zeros" and width > 1:  # dead columns leave two live ones
        dead = draw(integer_sets(0, width - 1, max(0, width - 2)))
        live = [j for j in range(width) if j not in dead]
        keep = 1 if deterministic else min(2, len(live))
        matrix = []
        kinds = ("zeros", "deterministic")[: 2 if deterministic else 1]
        for _ in range(rows):  # rows with zeros or one-hot, half each
            kind = choose_regime(draw, kinds)
            weights = _weights(draw, len(live), 1000)
            if kind == "deterministic":
                hot = draw(integers_between(0, len(live) - 1))
                zero = [j != hot for j in range(len(live))]
            else:
                zero = [kind == "zeros" and draw(BOOLEANS) for _ in live]
                while len(live) - sum(zero) < keep:
                    zero[zero.index(True)] = False
            row = [Fraction(0)] * width
            for j, w, z in zip(live, weights, zero, strict=True):
                row[j] = Fraction(0 if z else w)
            matrix.append(_normalised(row))
        if all(p > 0 for row in matrix for p in row):  # a zero somewhere: in the last row
            matrix[-1] = regime_vector(draw, width, "zeros")
        return matrix
    return [regime_vector(draw, width, regime, uniform=False) for _ in range(rows)]


@composite
def mechanisms(
    draw: st.DrawFn,
    *,
    inputs: Sequence[Hashable] | None = None,
    outputs: Sequence[Hashable] | None = None,
    min_inputs: int = 1,
    max_inputs: int = 6,
    min_outputs: int = 1,
    max_outputs: int = 6,
    zeros: bool = True,
    deterministic_rows: bool = True,
    regimes: Sequence[str] | None = None,
) -> Mechanism:
    """Exact finite kernels P_{Y|X}: sizes first (smallest first), then a kernel regime.

    The regimes (``KERNEL_REGIMES``, 1/6 each with the defaults): every row of full
    support; zero patterns (zero entries, and whole columns zero, so p_Y(y) = 0 occurs);
    deterministic (every row one-hot: a function of x, constants included); near-ties
    (rows differing by tiny rationals, so likelihood ratios are near 1); extreme
    ratios (10^-6 next to 1 - 10^-6); mixed (each row its own regime).  ``zeros=False``
    gives strictly positive kernels (finite leakage capacity; full support, near-ties,
    extreme ratios and mixed, 1/4 each); ``deterministic_rows=False`` leaves out one-hot rows.
    ``regimes`` restricts the draw to some of ``KERNEL_REGIMES``.
    """
    input_labels = _labels(draw, inputs, min_inputs, max_inputs, "mechanisms (inputs)")
    output_labels = _labels(draw, outputs, min_outputs, max_outputs, "mechanisms (outputs)")
    if regimes is not None and (not regimes or set(regimes) - set(KERNEL_REGIMES)):
        raise InvalidArgument(
            f"mechanisms: regimes={abbreviated_repr(regimes)} must be among "
            f"{abbreviated_repr(KERNEL_REGIMES)}"
        )
    allowed = [
        regime
        for regime in KERNEL_REGIMES
        if (zeros or regime not in ("zeros", "deterministic"))
        and (deterministic_rows or regime != "deterministic")
        and (regimes is None or regime in regimes)
    ]
    if not allowed:
        raise InvalidArgument(
            f"mechanisms: regimes={abbreviated_repr(regimes)} are excluded by the options"
        )
    regime = choose_regime(draw, allowed)
    if regime == "mixed" and not zeros:
        rows = [
            regime_vector(draw, len(output_labels), choose_regime(draw, _POSITIVE), uniform=False)
            for _ in input_labels
        ]
    else:
        rows = kernel_rows(
            draw, len(input_labels), len(output_labels), regime, deterministic=deterministic_rows
        )
    return Mechanism.from_matrix(rows, inputs=input_labels, outputs=output_labels)


@composite
def attributes(
    draw: st.DrawFn,
    inputs: Sequence[Hashable],
    *,
    min_values: int = 1,
    max_values: int = 5,
    deterministic: bool | None = None,
) -> Mechanism:
    """Attribute kernels P_{U|X} on the given input alphabet.

    ``deterministic=None`` (default) draws a regime of ``REGIMES``: deterministic functions
    of X (constants included) with probability 1/3, or randomised kernels of full support,
    with zeros, with near-ties or with extreme ratios (1/6 each).  True or False restricts to
    one kind.
    """
    labels = list(inputs)
    if not labels:
        raise InvalidArgument("attributes: the input alphabet is empty")
    check_drawable("attributes", len(labels))
    _check_sizes("attributes", min_values, max_values)
    size = draw(integers_between(min_values, max_values))
    values = list(range(size))
    if deterministic is None:
        regime = choose_regime(draw, _ATTRIBUTE_REGIMES)
    elif deterministic:
        regime = "deterministic"
    else:
        regime = choose_regime(draw, [r for r in KERNEL_REGIMES if r != "deterministic"])
    if regime == "deterministic":
        images = [draw(integers_between(0, size - 1)) for _ in labels]
        return Mechanism(
            {x: {values[u]: Fraction(1)} for x, u in zip(labels, images, strict=True)},
            outputs=values,
            name="attribute",
        )
    rows = kernel_rows(draw, len(labels), size, regime, deterministic=False)
    return Mechanism.from_matrix(rows, inputs=labels, outputs=values, name="attribute")


@composite
def mechanisms_with_prior(
    draw: st.DrawFn,
    *,
    full_support: bool = False,
    min_inputs: int = 1,
    max_inputs: int = 6,
    max_outputs: int = 6,
    zeros: bool = True,
) -> tuple[Mechanism, Distribution]:
    """A mechanism and a prior on its inputs (the commonest shape of a PML claim).

    The mechanism's sizes and regime are drawn first, then the prior's regime (see
    :func:`mechanisms` and :func:`distributions`).
    """
    mechanism = draw(
        mechanisms(
            min_inputs=min_inputs, max_inputs=max_inputs, max_outputs=max_outputs, zeros=zeros
        )
    )
    prior = draw(distributions(outcomes=mechanism.inputs, full_support=full_support))
    return mechanism, prior


@composite
def pair_kernels(
    draw: st.DrawFn,
    *,
    inputs: Sequence[Hashable] | None = None,
    min_inputs: int = 1,
    max_inputs: int = 4,
    max_values: int = 3,
    max_randomness: int = 4,
) -> Mechanism:
    """Kernels P_{(Y1, Y2)|X} whose outputs are the pairs ``(a, b)``, a in range(k1), b in
    range(k2) (every pair listed, in product order).

    Sizes first, then a regime of ``PAIR_REGIMES`` (1/4 each):

    * ``"independent"``: Y1 and Y2 independent given X (``M1.parallel(M2)``);
    * ``"one_time_pad"``: Y1 = R and Y2 = R + s(X) mod k for shared randomness R of full
      support, s(x) the position of x mod k (each output alone may say nothing about X, the
      pair says s(X));
    * ``"shared_randomness"``: Y1 = g1(X, R), Y2 = g2(X, R) for random tables g1, g2;
    * ``"joint"``: an arbitrary kernel on the pairs (a regime of ``KERNEL_REGIMES``).

    The last three make Y1 and Y2 dependent given X, the regime where claims that need
    conditional independence (composition of maximal leakage, of PML) fail.
    """
    labels = _labels(draw, inputs, min_inputs, max_inputs, "pair_kernels (inputs)")
    _check_sizes("pair_kernels (values)", 1, max_values)
    _check_sizes("pair_kernels (randomness)", 1, max_randomness)
    regime = choose_regime(draw, PAIR_REGIMES)
    if regime == "one_time_pad":
        first = second = draw(integers_between(min(2, max_values), max_values))
    else:
        first = draw(integers_between(1, max_values))
        second = draw(integers_between(1, max_values))
    pairs = [(a, b) for a in range(first) for b in range(second)]
    if regime == "independent":
        left = draw(mechanisms(inputs=labels, outputs=list(range(first))))
        right = draw(mechanisms(inputs=labels, outputs=list(range(second))))
        return left.parallel(right)
    if regime == "joint":
        return draw(mechanisms(inputs=labels, outputs=pairs))
    table: dict[Hashable, dict[tuple[int, int], Fraction]] = {}
    if regime == "one_time_pad":
        pad = draw(probability_vectors(first, full_support=True))
        for position, x in enumerate(labels):
            shift = position % first
            table[x] = {(r, (r + shift) % first): p for r, p in enumerate(pad)}
    else:
        randomness = draw(distributions(min_size=1, max_size=max_randomness))
        for x in labels:
            row: dict[tuple[int, int], Fraction] = {}
            for p in randomness.probabilities:
                pair = (draw(integers_between(0, first - 1)), draw(integers_between(0, second - 1)))
                row[pair] = row.get(pair, Fraction(0)) + Fraction(p)
            table[x] = row
    return Mechanism(table, outputs=pairs, name="pair kernel")
