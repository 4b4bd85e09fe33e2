"""Hypothesis strategies for quantitative information flow: gain functions, priors with a
given support, kernels with pair outputs and composed kernels.

Like the other strategies, sizes are drawn first and then a regime, each reached often:
gain functions are the book's named ones (identity, k tries, distance-based, a property)
or random tables whose entries come from a small grid with ties, zeros and negative gains
(``GAIN_REGIMES``); priors have a drawn support (sometimes one point, sometimes all);
pair-output kernels are parallel compositions or arbitrary joint kernels.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction

from hypothesis import strategies as st

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.distribution import Distribution
from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument
from exactpml.qif.gain import GainFunction
from exactpml.strategies._draws import (
    BOOLEANS,
    integers_between,
    sampled_from_values,
)
from exactpml.strategies._enumerable import composite
from exactpml.strategies._finite import (
    choose_regime,
    mechanisms,
    probability_vectors,
)

__all__ = [
    "GAIN_REGIMES",
    "composed_kernels",
    "gain_functions",
    "mechanisms_with_gain",
    "priors_with_support",
    "product_output_mechanisms",
]

GAIN_REGIMES = ("identity", "k_tries", "metric", "property", "table", "nonnegative_table")
"""The regimes of gain functions: the book's named gains, then random tables (entries on a
grid with ties and zeros; ``table`` also negative)."""

_GRID = tuple(Fraction(n, d) for d in (1, 2, 3, 4) for n in range(0, 2 * d + 1))


_SCALES = (Fraction(1, 4), Fraction(1, 2), Fraction(1))
"""Scales of a metric gain function."""


@composite
def gain_functions(
    draw: st.DrawFn,
    secrets: Sequence[Hashable] | None = None,
    *,
    max_secrets: int = 5,
    max_guesses: int = 4,
    negative: bool = True,
) -> GainFunction:
    """Gain functions on ``secrets`` (default: ``range(n)``, n in [1, ``max_secrets``] drawn
    first), in a regime of ``GAIN_REGIMES`` drawn next.

    ``negative=False`` keeps every gain non-negative (the book's G+X).
    """
    if secrets is None:
        if max_secrets < 1:
            raise InvalidArgument(
                f"gain_functions: max_secrets={abbreviated(max_secrets)} must be at least 1"
            )
        secrets = list(range(draw(integers_between(1, max_secrets))))
    labels = list(secrets)
    if not labels:
        raise InvalidArgument("gain_functions: the secret alphabet is empty")
    if max_guesses < 1:
        raise InvalidArgument(
            f"gain_functions: max_guesses={abbreviated(max_guesses)} must be at least 1"
        )
    allowed = [r for r in GAIN_REGIMES if negative or r not in ("table", "metric")]
    regime = choose_regime(draw, allowed)
    if regime == "identity":
        return GainFunction.identity(labels)
    if regime == "k_tries":
        return GainFunction.k_tries(labels, draw(integers_between(1, len(labels))))
    if regime == "metric":
        positions = {x: draw(integers_between(0, 3)) for x in labels}
        scale = draw(sampled_from_values(_SCALES))
        return GainFunction.from_metric(
            labels, lambda w, x: scale * abs(positions[w] - positions[x]) if w != x else 0
        )
    if regime == "property":
        colours = [draw(integers_between(0, len(labels) - 1)) for _ in labels]
        blocks: dict[int, list[Hashable]] = {}
        for x, colour in zip(labels, colours, strict=True):
            blocks.setdefault(colour, []).append(x)
        return GainFunction.property(labels, list(blocks.values()))
    size = draw(integers_between(1, max_guesses))
    entries = st.sampled_from(
        _GRID if regime == "nonnegative_table" else (*_GRID, *(-g for g in _GRID[1:]))
    )
    return GainFunction(
        {w: {x: draw(entries) for x in labels} for w in range(size)}, secrets=labels
    )


@composite
def priors_with_support(
    draw: st.DrawFn,
    outcomes: Sequence[Hashable],
    *,
    support: Sequence[Hashable] | None = None,
    min_support: int = 1,
) -> Distribution:
    """A prior on ``outcomes`` whose support is ``support`` (drawn when not given).

    The drawn support has at least ``min_support`` outcomes (one point, all, or between);
    the probabilities on it are positive, in a regime of ``REGIMES`` without zeros.
    """
    labels = list(outcomes)
    if not labels:
        raise InvalidArgument("priors_with_support: the alphabet is empty")
    if support is None:
        if not 1 <= min_support <= len(labels):
            raise InvalidArgument(
                f"priors_with_support: min_support={abbreviated(min_support)} must lie in [1, "
                f"{len(labels)}]"
            )
        chosen = draw(
            st.lists(st.sampled_from(labels), min_size=min_support, unique=True).filter(
                lambda s: len(s) >= min_support
            )
        )
    else:
        chosen = list(support)
        if not chosen or any(x not in labels for x in chosen):
            raise InvalidArgument(
                f"priors_with_support: support {abbreviated_repr(chosen)} must be within "
                f"{abbreviated_repr(labels)}"
            )
    vector = draw(probability_vectors(len(chosen), full_support=True))
    mass = dict(zip(chosen, vector, strict=True))
    return Distribution({x: mass.get(x, Fraction(0)) for x in labels})


@composite
def mechanisms_with_gain(
    draw: st.DrawFn,
    *,
    max_inputs: int = 4,
    max_outputs: int = 4,
    negative: bool = True,
) -> tuple[Mechanism, Distribution, GainFunction]:
    """A mechanism, a prior on its inputs (drawn support) and a gain function on them."""
    mechanism = draw(mechanisms(max_inputs=max_inputs, max_outputs=max_outputs))
    prior = draw(priors_with_support(mechanism.inputs))
    gain = draw(gain_functions(mechanism.inputs, negative=negative))
    return mechanism, prior, gain


@composite
def product_output_mechanisms(
    draw: st.DrawFn, *, max_inputs: int = 4, max_values: int = 3
) -> Mechanism:
    """Kernels whose outputs are pairs (y1, y2): parallel compositions of two kernels on the
    same inputs (independent outputs given X) or arbitrary joint kernels on pairs."""
    inputs = list(range(draw(integers_between(1, max_inputs))))
    first = list(range(draw(integers_between(1, max_values))))
    second = list(range(draw(integers_between(1, max_values))))
    if draw(BOOLEANS):
        left = draw(mechanisms(inputs=inputs, outputs=first))
        right = draw(mechanisms(inputs=inputs, outputs=second))
        return left.parallel(right)
    pairs = [(a, b) for a in first for b in second]
    return draw(mechanisms(inputs=inputs, outputs=pairs))


@composite
def composed_kernels(
    draw: st.DrawFn, *, max_inputs: int = 4, max_outputs: int = 4
) -> tuple[Mechanism, Mechanism]:
    """A kernel C and a post-processing R of its outputs (the pair (C, R); C·R refines C)."""
    channel = draw(mechanisms(max_inputs=max_inputs, max_outputs=max_outputs))
    processing = draw(mechanisms(inputs=channel.outputs, max_outputs=max_outputs))
    return channel, processing
