"""Hypothesis strategies for exact finite distributions, mechanisms and attributes.

The defaults reach the edge cases that break claims: zero entries, ties, deterministic
rows, outputs with p_Y(y) = 0, alphabets of size 1 up to 6, and very skewed priors.
Every value drawn is exact (``Fraction`` entries), so shrunk counterexamples are exact.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction

from hypothesis import strategies as st

from exactpml.core.distribution import Distribution
from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument

__all__ = [
    "attributes",
    "distributions",
    "mechanisms",
    "mechanisms_with_prior",
    "probability_vectors",
]

_SKEWED_WEIGHTS = (1, 10, 1000, 10**6)


def _check_sizes(name: str, low: int, high: int) -> None:
    if low < 1:
        raise InvalidArgument(f"{name}: the minimum size {low} must be at least 1")
    if high < low:
        raise InvalidArgument(f"{name}: the maximum size {high} is below the minimum {low}")


@st.composite
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
    """A probability vector of ``size`` exact entries (integer weights, normalised).

    Mixes: small weights (many ties and zeros), large weights, one-hot vectors
    (``deterministic``) and weights spanning six orders of magnitude (``skewed``).
    ``full_support=True`` (or ``zeros=False``) makes every entry positive.
    """
    if size < 1:
        raise InvalidArgument(f"probability_vectors: size={size} must be at least 1")
    positive = full_support or not zeros
    low = 1 if positive else 0
    kinds = ["small", "large"]
    if skewed:
        kinds.append("skewed")
    if deterministic and not positive:
        kinds.append("one_hot")
    if positive and size == 1:
        return [Fraction(1)]
    kind = draw(st.sampled_from(kinds))
    if kind == "one_hot":
        hot = draw(st.integers(0, size - 1))
        return [Fraction(int(i == hot)) for i in range(size)]
    if kind == "small":
        element = st.integers(low, 4)
    elif kind == "large":
        element = st.integers(low, max_weight)
    else:
        element = st.sampled_from(([0] if not positive else []) + list(_SKEWED_WEIGHTS))
    weights = draw(st.lists(element, min_size=size, max_size=size))
    if sum(weights) == 0:
        weights[draw(st.integers(0, size - 1))] = 1
    total = sum(weights)
    return [Fraction(w, total) for w in weights]


@st.composite
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
    """Exact distributions; on ``outcomes`` if given, else on ``range(n)`` with n in [min, max]."""
    if outcomes is None:
        _check_sizes("distributions", min_size, max_size)
        labels: list[Hashable] = list(range(draw(st.integers(min_size, max_size))))
    else:
        labels = list(outcomes)
        if not labels:
            raise InvalidArgument("distributions: outcomes is empty")
    vector = draw(
        probability_vectors(len(labels), zeros=zeros, full_support=full_support, skewed=skewed)
    )
    return Distribution(dict(zip(labels, vector, strict=True)))


@st.composite
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
) -> Mechanism:
    """Exact finite kernels P_{Y|X}.

    With ``zeros`` (default) rows may contain zeros, be deterministic, and whole columns may
    be zero (an output never produced), so p_Y(y) = 0 occurs.  ``zeros=False`` gives
    strictly positive kernels (finite leakage capacity).
    """
    if inputs is None:
        _check_sizes("mechanisms (inputs)", min_inputs, max_inputs)
        input_labels: list[Hashable] = list(range(draw(st.integers(min_inputs, max_inputs))))
    else:
        input_labels = list(inputs)
    if outputs is None:
        _check_sizes("mechanisms (outputs)", min_outputs, max_outputs)
        output_labels: list[Hashable] = list(range(draw(st.integers(min_outputs, max_outputs))))
    else:
        output_labels = list(outputs)
    if not input_labels or not output_labels:
        raise InvalidArgument("mechanisms: empty input or output alphabet")
    rows = [
        draw(
            probability_vectors(
                len(output_labels),
                zeros=zeros,
                deterministic=deterministic_rows,
                skewed=False,
            )
        )
        for _ in input_labels
    ]
    return Mechanism.from_matrix(rows, inputs=input_labels, outputs=output_labels)


@st.composite
def attributes(
    draw: st.DrawFn,
    inputs: Sequence[Hashable],
    *,
    min_values: int = 1,
    max_values: int = 5,
    deterministic: bool | None = None,
) -> Mechanism:
    """Attribute kernels P_{U|X} on the given input alphabet.

    ``deterministic=None`` (default) mixes deterministic functions of X (constants
    included) with randomised kernels; True or False restricts to one kind.
    """
    labels = list(inputs)
    if not labels:
        raise InvalidArgument("attributes: the input alphabet is empty")
    _check_sizes("attributes", min_values, max_values)
    size = draw(st.integers(min_values, max_values))
    values = list(range(size))
    is_deterministic = draw(st.booleans()) if deterministic is None else deterministic
    if is_deterministic:
        images = draw(st.lists(st.sampled_from(values), min_size=len(labels), max_size=len(labels)))
        return Mechanism(
            {x: {u: Fraction(1)} for x, u in zip(labels, images, strict=True)},
            outputs=values,
            name="attribute",
        )
    return draw(mechanisms(inputs=labels, outputs=values))


@st.composite
def mechanisms_with_prior(
    draw: st.DrawFn,
    *,
    full_support: bool = False,
    min_inputs: int = 1,
    max_inputs: int = 6,
    max_outputs: int = 6,
    zeros: bool = True,
) -> tuple[Mechanism, Distribution]:
    """A mechanism and a prior on its inputs (the commonest shape of a PML claim)."""
    mechanism = draw(
        mechanisms(
            min_inputs=min_inputs, max_inputs=max_inputs, max_outputs=max_outputs, zeros=zeros
        )
    )
    prior = draw(distributions(outcomes=mechanism.inputs, full_support=full_support))
    return mechanism, prior
