"""The integer-matrix fast path against plain ``Fraction`` arithmetic, on every code path.

Paths (``exactpml.core._integer_kernel`` / ``exactpml.core._integer_arithmetic``):

* construction: int64 arrays (``from_fractions``), Python integers when a denominator is
  ``>= 2**31`` (the big-integer fallback), ``None`` for invalid rows;
* column extremes: integer argmax over a common denominator below ``2**62``; float
  candidates verified exactly; columns whose candidate fails verification (near-ties closer
  than float64 can tell apart) recomputed with Python integers; Python integers throughout
  for big kernels;
* p_Y numerators: int64; digit split + float64 BLAS (exact below ``2**53``); FLINT
  ``fmpz_mat``; plain Python sums for small big-integer kernels.

Every result is compared with the same quantity computed from its definition with
``Fraction`` (Saeidian et al., Thm 2.4 and Def 2.7), on hand-built edge cases and on random
exact instances (Hypothesis).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from exactpml import Distribution, Mechanism, leakage_capacity
from exactpml.core import _integer_arithmetic as arithmetic
from exactpml.core._integer_kernel import IntegerKernel, integer_rows
from exactpml.leakage import pointwise_maximal_leakage_by_output

Rows = list[list[Fraction]]

# --- the definitions, with plain Fractions ----------------------------------------------


def reference_pml(rows: Rows, prior: list[Fraction]) -> list[Fraction]:
    """max_{x in supp} p(y|x) / p_Y(y), or 1 when p_Y(y) = 0 (Thm 2.4, footnote 5)."""
    support = [x for x, p in enumerate(prior) if p]
    ratios = []
    for y in range(len(rows[0])):
        mass = sum((prior[x] * rows[x][y] for x in support), Fraction(0))
        ratios.append(max(rows[x][y] for x in support) / mass if mass else Fraction(1))
    return ratios


def reference_capacity(rows: Rows) -> Fraction | None:
    """max_y max_x p(y|x) / min_x p(y|x); None (infinite) when a column mixes 0 and > 0."""
    ratio = Fraction(1)
    for column in zip(*rows, strict=True):
        if max(column) == 0:
            continue
        if min(column) == 0:
            return None
        ratio = max(ratio, max(column) / min(column))
    return ratio


def reference_sums(rows: Rows, weights: list[Fraction]) -> list[Fraction]:
    return [
        sum((w * row[y] for w, row in zip(weights, rows, strict=True)), Fraction(0))
        for y in range(len(rows[0]))
    ]


def kernel_of(rows: Rows) -> IntegerKernel:
    built = IntegerKernel.from_fractions(rows)
    assert built is not None
    assert built[0] == tuple(map(tuple, rows))
    return built[1]


def assert_reduced(values: list[Fraction]) -> None:
    for value in values:
        assert type(value) is Fraction
        assert value.denominator > 0
        assert math.gcd(value.numerator, value.denominator) == 1


def assert_matches_definitions(rows: Rows, prior: list[Fraction]) -> IntegerKernel:
    kernel = kernel_of(rows)
    ratios = kernel.pml_ratios(prior)
    assert ratios == reference_pml(rows, prior)
    assert_reduced(ratios)
    assert kernel.capacity_ratio() == reference_capacity(rows)
    sums = kernel.weighted_column_sums(prior)
    assert sums == reference_sums(rows, prior)
    assert_reduced(sums)
    support = [x for x, p in enumerate(prior) if p]
    for selection in (None, support):
        chosen = range(len(rows)) if selection is None else selection
        best, worst = kernel.column_extremes(selection)
        for y in range(len(rows[0])):
            column = [rows[x][y] for x in chosen]
            assert best[y] in chosen and worst[y] in chosen
            assert rows[best[y]][y] == max(column)
            assert rows[worst[y]][y] == min(column)
    return kernel


# --- random exact instances ------------------------------------------------------------


@st.composite
def rows_over(draw: st.DrawFn, *, weight: int, rows: int, columns: int, zeros: bool) -> Rows:
    """Rows of random integer weights (0..weight) divided by their sums."""
    result = []
    for _ in range(rows):
        low = 0 if zeros else 1
        weights = draw(st.lists(st.integers(low, weight), min_size=columns, max_size=columns))
        if sum(weights) == 0:
            weights[draw(st.integers(0, columns - 1))] = 1
        total = sum(weights)
        result.append([Fraction(w, total) for w in weights])
    return result


@st.composite
def shared_rows(draw: st.DrawFn, *, rows: int, columns: int) -> Rows:
    """Rows k / D with one denominator D for all rows (the common-denominator path)."""
    denominator = draw(st.sampled_from([6, 1000, 10**6, 2**20]))
    result = []
    for _ in range(rows):
        cuts = sorted(
            draw(st.lists(st.integers(0, denominator), min_size=columns - 1, max_size=columns - 1))
        )
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, denominator], strict=True)]
        result.append([Fraction(k, denominator) for k in parts])
    return result


@st.composite
def channels(draw: st.DrawFn) -> Rows:
    rows = draw(st.integers(1, 7))
    columns = draw(st.integers(1, 6))
    zeros = draw(st.booleans())
    regime = draw(st.sampled_from(["small", "shared", "per-row", "big"]))
    if regime == "shared":
        return draw(shared_rows(rows=rows, columns=columns))
    weight = {"small": 5, "per-row": 10**6, "big": 2**40}[regime]
    return draw(rows_over(weight=weight, rows=rows, columns=columns, zeros=zeros))


@st.composite
def priors(draw: st.DrawFn, size: int) -> list[Fraction]:
    weights = draw(st.lists(st.integers(0, 10**6), min_size=size, max_size=size))
    if sum(weights) == 0:
        weights[draw(st.integers(0, size - 1))] = 1
    total = sum(weights)
    return [Fraction(w, total) for w in weights]


@st.composite
def channels_and_priors(draw: st.DrawFn) -> tuple[Rows, list[Fraction]]:
    rows = draw(channels())
    return rows, draw(priors(len(rows)))


@given(channels_and_priors())
@example(([[Fraction(1)]], [Fraction(1)]))  # one input, one output
@example(([[Fraction(1, 2), Fraction(1, 2), Fraction(0)]], [Fraction(1)]))  # one row
def test_kernel_equals_fraction_definitions_on_random_channels(
    instance: tuple[Rows, list[Fraction]],
) -> None:
    rows, prior = instance
    assert_matches_definitions(rows, prior)


@given(channels_and_priors())
def test_measures_by_output_equal_fraction_definitions(
    instance: tuple[Rows, list[Fraction]],
) -> None:
    rows, prior = instance
    mechanism = Mechanism.from_matrix(rows)
    distribution = Distribution(dict(enumerate(prior)))
    leakages = pointwise_maximal_leakage_by_output(mechanism, distribution)
    assert [leakages[y].ratio for y in mechanism.outputs] == reference_pml(rows, prior)
    capacity = leakage_capacity(mechanism)
    expected = reference_capacity(rows)
    assert capacity.is_infinite if expected is None else capacity.ratio == expected


@given(channels())
def test_vectorised_construction_equals_row_by_row_construction(rows: Rows) -> None:
    fast = kernel_of(rows)
    numerators, denominators = zip(*(integer_rows(row) for row in rows), strict=True)
    assert fast == IntegerKernel(numerators, denominators)
    assert fast.is_small == (max(denominators) < 2**31)
    # The entry-by-entry path (strings) builds the same mechanism and the same kernel.
    from_strings = Mechanism.from_matrix([[str(v) for v in row] for row in rows])
    from_fractions = Mechanism.from_matrix(rows)
    assert from_strings.rows == from_fractions.rows
    assert from_strings.integer_kernel == from_fractions.integer_kernel


def test_all_rows_extremes_are_computed_once_and_shared() -> None:
    rows = [[HALF, HALF], [THIRD, 2 * THIRD]]
    kernel = kernel_of(rows)
    first = kernel.column_extremes([0, 1])  # the support is every row: the cached case
    first[0][0] = 99  # callers get copies
    assert kernel.column_extremes() == ([0, 1], [1, 0])


# --- hand-built edge cases -------------------------------------------------------------

HALF, THIRD = Fraction(1, 2), Fraction(1, 3)


@pytest.mark.parametrize(
    ("rows", "prior"),
    [
        pytest.param([[HALF, 0, HALF], [THIRD, 0, 2 * THIRD]], [HALF, HALF], id="all-zero column"),
        pytest.param([[THIRD, 2 * THIRD]], [Fraction(1)], id="single row"),
        pytest.param(
            [[Fraction(1)], [Fraction(1)], [Fraction(1)]], [THIRD] * 3, id="single column"
        ),
        pytest.param(
            [[HALF, HALF], [Fraction(1), 0], [0, Fraction(1)]],
            [HALF, 0, HALF],
            id="zero prior entry hides a row's maximum",
        ),
        pytest.param(
            [[HALF, HALF, 0], [0, HALF, HALF]], [Fraction(1), 0], id="output of probability zero"
        ),
        pytest.param(
            [[Fraction(1), 0], [0, Fraction(1)]], [Fraction(1, 10), Fraction(9, 10)], id="identity"
        ),
        pytest.param(
            [[Fraction(1, 2**40), 1 - Fraction(1, 2**40)], [HALF, HALF]],
            [HALF, HALF],
            id="big-integer kernel",
        ),
    ],
)
def test_kernel_equals_fraction_definitions_on_edge_cases(
    rows: Rows, prior: list[Fraction]
) -> None:
    rows = [[Fraction(v) for v in row] for row in rows]
    assert_matches_definitions(rows, prior)


def test_integer_entries_are_accepted_and_stored_as_fractions() -> None:
    built = IntegerKernel.from_fractions([[1, 0], [HALF, HALF]])
    assert built is not None
    assert all(type(v) is Fraction for row in built[0] for v in row)
    assert built[1].numerators == ((1, 0), (1, 1))
    assert built[1].denominators == (1, 2)


@pytest.mark.parametrize(
    "rows",
    [
        pytest.param([[HALF, HALF + 1]], id="entry above one"),
        pytest.param([[-HALF, 3 * HALF]], id="negative entry"),
        pytest.param([[HALF, THIRD]], id="row sums to 5/6"),
        pytest.param([[HALF, 2 * THIRD]], id="row sums to 7/6"),
        pytest.param([[Fraction(1, 2**40), Fraction(1, 2**40)]], id="big row not summing to one"),
        pytest.param([[0.5, 0.5]], id="float entries"),
        pytest.param([["1/2", "1/2"]], id="string entries"),
        pytest.param([[HALF, HALF], [Fraction(1)]], id="ragged rows"),
    ],
)
def test_from_fractions_declines_what_it_cannot_validate(rows: list[list[object]]) -> None:
    assert IntegerKernel.from_fractions(rows) is None


def test_constructor_rejects_rows_that_are_not_distributions() -> None:
    with pytest.raises(ValueError, match="not a distribution"):
        IntegerKernel([(1, 2)], [4])


# --- each path is taken, and agrees --------------------------------------------------------


def test_small_kernel_with_common_denominator_decides_extremes_without_floats() -> None:
    rows = [[Fraction(k, 10**6) for k in (1, 999_999)], [Fraction(1, 2), Fraction(1, 2)]]
    kernel = kernel_of(rows)
    assert kernel.is_small
    assert kernel._common_numerators() is not None
    assert_matches_definitions(rows, [Fraction(1, 3), Fraction(2, 3)])


def test_big_denominators_use_the_python_integer_kernel() -> None:
    tiny = Fraction(1, 2**31 + 11)
    rows = [[tiny, 1 - tiny], [HALF, HALF]]
    kernel = kernel_of(rows)
    assert not kernel.is_small
    assert_matches_definitions(rows, [Fraction(1, 7), Fraction(6, 7)])


def _farey_neighbour(numerator: int, denominator: int) -> Fraction:
    """The fraction c/d > a/b with b c - a d = 1 and d < b (next in the Farey sequence)."""
    inverse = pow(-numerator, -1, denominator)  # d with -a d = 1 (mod b)
    return Fraction((1 + numerator * inverse) // denominator, inverse)


def test_columns_whose_float_candidate_is_wrong_are_recomputed_exactly(monkeypatch) -> None:
    # a/b and its Farey neighbour c/d differ by 1/(b d) < 2**-61: float64 rounds both to the
    # same value, so argmax/argmin propose row 0, which is wrong for the maximum of column 0
    # and the minimum of column 1.  A third row (denominator 5) keeps the common denominator
    # above 2**62, so the float proposal is what runs.
    prime = 2**31 - 1
    low = Fraction(1_234_567_891, prime)
    high = _farey_neighbour(low.numerator, low.denominator)
    assert high > low and float(high) == float(low)
    rows = [[low, 1 - low], [high, 1 - high], [Fraction(1, 5), Fraction(4, 5)]]
    kernel = kernel_of(rows)
    assert kernel.is_small and kernel._common_numerators() is None
    calls = []
    original = IntegerKernel._column_extremes_python

    def spy(self, selected, columns):
        calls.append(list(columns))
        return original(self, selected, columns)

    monkeypatch.setattr(IntegerKernel, "_column_extremes_python", spy)
    best, worst = kernel.column_extremes()
    assert calls == [[0, 1]]
    assert (best[0], worst[1]) == (1, 1)
    assert_matches_definitions(rows, [Fraction(1, 3)] * 3)


# --- exact products --------------------------------------------------------------------


def _reference_product(vector: list[int], matrix: np.ndarray) -> list[int]:
    rows = matrix.tolist()
    return [
        sum(v * row[y] for v, row in zip(vector, rows, strict=True)) for y in range(matrix.shape[1])
    ]


def _spy_paths(monkeypatch) -> list[str]:
    taken: list[str] = []
    for name in ("_digit_product", "_flint_product"):
        original = getattr(arithmetic, name)

        def spy(*args, _original=original, _name=name):
            taken.append(_name)
            return _original(*args)

        monkeypatch.setattr(arithmetic, name, spy)
    return taken


@pytest.mark.parametrize(
    ("rows", "entry", "vector_bits", "digit_bits", "path"),
    [
        pytest.param(9, 2**20, 20, 24, [], id="int64"),
        pytest.param(9, 2**17, 4000, 32, ["_digit_product"], id="32-bit digits"),
        pytest.param(9, 2**20, 4000, 24, ["_digit_product"], id="24-bit digits"),
        pytest.param(9, 2**27, 4000, 16, ["_digit_product"], id="16-bit digits"),
        pytest.param(128, 2**31 - 1, 900, 8, ["_digit_product"], id="8-bit digits"),
        pytest.param(2**16, 2**31 - 1, 100, 0, ["_flint_product"], id="column sums too big"),
    ],
)
def test_vector_matrix_product_is_exact_on_each_path(
    monkeypatch, rows: int, entry: int, vector_bits: int, digit_bits: int, path: list[str]
) -> None:
    rng = random.Random(rows * entry + vector_bits)
    matrix = np.array(
        [[entry - 1] * 3] + [[rng.randrange(entry) for _ in range(3)] for _ in range(rows - 1)],
        dtype=np.int64,
    )  # the first row attains the bound in every column
    vector = [(1 << vector_bits) - 1] + [rng.getrandbits(vector_bits) for _ in range(rows - 1)]
    assert arithmetic._digit_bits(int(matrix.sum(axis=0).max())) == digit_bits
    taken = _spy_paths(monkeypatch)
    assert arithmetic.vector_matrix_product(vector, matrix) == _reference_product(vector, matrix)
    assert taken == path


def test_vector_matrix_product_with_negative_entries_uses_flint(monkeypatch) -> None:
    matrix = np.array([[3, 0, 2**30], [1, 2**30, 7]], dtype=np.int64)
    vector = [-(2**3000) + 5, 2**2999 + 1]
    taken = _spy_paths(monkeypatch)
    assert arithmetic.vector_matrix_product(vector, matrix) == _reference_product(vector, matrix)
    assert taken == ["_flint_product"]


@given(
    st.integers(1, 12).flatmap(
        lambda rows: st.tuples(
            st.lists(st.integers(0, 2**600), min_size=rows, max_size=rows),
            st.lists(
                st.lists(st.integers(0, 2**31 - 1), min_size=3, max_size=3),
                min_size=rows,
                max_size=rows,
            ),
        )
    )
)
def test_vector_matrix_product_equals_python_sums(
    instance: tuple[list[int], list[list[int]]],
) -> None:
    vector, rows = instance
    matrix = np.array(rows, dtype=np.int64)
    assert arithmetic.vector_matrix_product(vector, matrix) == _reference_product(vector, matrix)


def test_per_row_denominators_take_the_digit_product(monkeypatch) -> None:
    primes = [999_983, 999_979, 999_961, 999_959, 999_953]  # lcm far above 2**63
    rows = [[Fraction(1, p), 1 - Fraction(1, p)] for p in primes]
    prior = [Fraction(1, len(rows))] * len(rows)
    taken = _spy_paths(monkeypatch)
    assert_matches_definitions(rows, prior)
    assert "_digit_product" in taken


def test_big_kernels_with_many_entries_use_flint_fmpz_mat() -> None:
    size = 17  # 17 * 17 >= 256 entries
    rows = [[Fraction(1 + (x * y) % 5, 2**40) for y in range(size - 1)] for x in range(size)]
    rows = [[*row, 1 - sum(row)] for row in rows]
    prior = [Fraction(x + 1, size * (size + 1) // 2) for x in range(size)]
    kernel = assert_matches_definitions(rows, prior)
    assert not kernel.is_small


# --- fractions without a second gcd ------------------------------------------------------


@given(st.integers(-(2**9000), 2**9000), st.integers(1, 2**9000))
@example(0, 5)
@example(6, 4)
def test_reduced_fraction_equals_fraction(numerator: int, denominator: int) -> None:
    value = arithmetic.reduced_fraction(numerator, denominator)
    expected = Fraction(numerator, denominator)
    assert (value.numerator, value.denominator) == (expected.numerator, expected.denominator)
    assert value == expected and hash(value) == hash(expected)
