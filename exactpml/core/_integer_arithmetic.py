"""Exact integer arithmetic for the rational fast path: vector–matrix products and reduction.

* :func:`vector_matrix_product`: ``[sum_x v[x] * M[x, y] for y]`` for Python integers ``v``
  (possibly thousands of digits) and a small non-negative int64 matrix ``M``, exactly.
  Three exact methods, chosen by bounds computed beforehand with exact integers:

  1. numpy int64, when ``max |v| * max_y sum_x M[x, y] < 2**63`` (no partial sum can
     overflow);
  2. *split into digits*: every ``v[x] >= 0`` is written in base ``2**b`` (``b`` in 8, 16,
     24, 32 bits), the digit matrix times ``M`` is one float64 matrix product (BLAS), and
     the digits' products are recombined with Python integers.  float64 serves here only
     as an exact integer type: ``b`` is chosen so that ``(2**b - 1) * max_y sum_x M[x, y]
     < 2**53``, hence every operand, product and partial sum (in any order of summation)
     is an integer of magnitude below ``2**53``, which IEEE 754 double represents exactly,
     so no operation rounds (an exactly representable result is returned unchanged);
  3. FLINT ``fmpz_mat`` (arbitrary integers) otherwise.

* :func:`reduced_fraction`: ``Fraction(n, d)`` with one gcd (FLINT's for very large
  operands) and no second normalisation.

Nothing here is decided by a float.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["coprime_fraction", "lcm_of", "reduced_fraction", "vector_matrix_product"]

_INT64_BOUND = 2**63  # |value| < this fits in int64
_FLOAT_EXACT = 2**53  # every integer of magnitude <= 2**53 is exactly a float64
_FLINT_GCD_BITS = 8000  # above this size FLINT's gcd beats CPython's (measured)


def _from_coprime_ints() -> Any:
    """A constructor of ``Fraction`` from coprime ``(n, d)``, ``d > 0``, skipping the gcd.

    CPython >= 3.12 has ``Fraction._from_coprime_ints``; 3.11 has ``_normalize=False``.
    Both are private, so fall back to the public constructor (correct, one more gcd).
    """
    constructor = getattr(Fraction, "_from_coprime_ints", None)
    if constructor is not None:
        return constructor
    unnormalised: Any = Fraction  # the keyword is not in the type stubs
    try:
        probe = unnormalised(2, 4, _normalize=False)
    except TypeError:  # pragma: no cover - depends on the Python version
        return Fraction
    if (probe.numerator, probe.denominator) == (2, 4):  # the flag is honoured

        def construct(numerator: int, denominator: int) -> Fraction:
            return unnormalised(numerator, denominator, _normalize=False)

        return construct
    return Fraction  # pragma: no cover


coprime_fraction = _from_coprime_ints()
"""``coprime_fraction(n, d)`` equals ``Fraction(n, d)`` when ``gcd(n, d) == 1`` and ``d > 0``."""


def lcm_of(values: Iterable[int]) -> int:
    """The least common multiple of positive integers, by a balanced tree of pairwise lcms.

    Pairing operands of equal size keeps every gcd between numbers of similar length; for a
    thousand 20-bit values this is about 3x faster than ``math.lcm(*values)`` (measured).
    """
    level = list(set(values))
    while len(level) > 1:
        paired = [math.lcm(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            paired.append(level[-1])
        level = paired
    return level[0] if level else 1


def reduced_fraction(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` for ``denominator > 0``, with a single gcd."""
    if max(numerator.bit_length(), denominator.bit_length()) > _FLINT_GCD_BITS:
        import flint

        divisor = int(flint.fmpz(numerator).gcd(flint.fmpz(denominator)))
    else:
        divisor = math.gcd(numerator, denominator)
    if divisor != 1:
        numerator //= divisor
        denominator //= divisor
    return coprime_fraction(numerator, denominator)


def vector_matrix_product(vector: Sequence[int], matrix: np.ndarray) -> list[int]:
    """``[sum_x vector[x] * matrix[x, y] for y]`` exactly.

    ``matrix`` is an int64 array with entries in ``[0, 2**31)`` and fewer than ``2**32``
    rows (so its column sums are exact in int64); ``vector`` holds Python integers.
    """
    rows, columns = matrix.shape
    if len(vector) != rows:
        raise ValueError(f"vector has {len(vector)} entries, matrix has {rows} rows")
    if rows == 0:
        return [0] * columns
    column_bound = int(matrix.sum(axis=0).max()) if columns else 0
    largest = max(abs(v) for v in vector)
    if largest * column_bound < _INT64_BOUND:
        return (np.array(vector, dtype=np.int64) @ matrix).tolist()
    bits = _digit_bits(column_bound)
    if bits and min(vector) >= 0:
        return _digit_product(vector, matrix, bits, largest)
    return _flint_product(vector, matrix)


def _digit_bits(column_bound: int) -> int:
    """The widest digit (in whole bytes) with ``(2**b - 1) * column_bound < 2**53``, or 0."""
    for bits in (32, 24, 16, 8):
        if ((1 << bits) - 1) * column_bound < _FLOAT_EXACT:
            return bits
    return 0


def _digits(vector: Sequence[int], bits: int, largest: int) -> np.ndarray:
    """The base-``2**bits`` digits of each (non-negative) entry, as a float64 ``len × K`` array."""
    step = bits // 8
    width = -(-max(largest.bit_length(), 1) // bits) * step  # bytes per entry, whole digits
    raw = np.frombuffer(
        b"".join([v.to_bytes(width, "little") for v in vector]), dtype=np.uint8
    ).reshape(len(vector), width)
    if step == 3:  # little-endian bytes b0 b1 b2 -> b0 + 2**8 b1 + 2**16 b2 (exact)
        digits = raw[:, 2::3].astype(np.float64)
        digits *= 256.0
        digits += raw[:, 1::3]
        digits *= 256.0
        digits += raw[:, 0::3]
        return digits
    return raw.view({1: "<u1", 2: "<u2", 4: "<u4"}[step]).astype(np.float64)


def _digit_bytes(values: np.ndarray, bits: int) -> np.ndarray:
    """Rows of ``values`` (each entry ``< 2**bits``) as little-endian ``bits``-wide digits."""
    step = bits // 8
    if step == 3:
        wide = np.ascontiguousarray(values, dtype="<u4")
        return np.ascontiguousarray(wide.view(np.uint8).reshape(*values.shape, 4)[..., :3])
    return np.ascontiguousarray(values, dtype={1: "<u1", 2: "<u2", 4: "<u4"}[step])


def _digit_product(vector: Sequence[int], matrix: np.ndarray, bits: int, largest: int) -> list[int]:
    digits = _digits(vector, bits, largest)  # rows × K
    # Exact: every digit < 2**bits, so each partial sum is <= (2**bits - 1) * column_bound
    # < 2**53 (module docstring); the result is therefore an exact integer in float64.
    # products[y, k] = sum_x matrix[x, y] * digits[x, k]; value_y = sum_k products[y, k]
    # * 2**(bits * k).
    products = (matrix.T.astype(np.float64) @ digits).astype(np.int64)  # columns × K
    mask = (1 << bits) - 1
    parts = -(-max(int(products.max()).bit_length(), 1) // bits)
    pieces = [
        _digit_bytes((products >> (bits * j)) & mask, bits).reshape(products.shape[0], -1)
        for j in range(parts)
    ]
    result = []
    for y in range(products.shape[0]):
        value = 0
        for j in range(parts - 1, -1, -1):
            value = (value << bits) + int.from_bytes(pieces[j][y].tobytes(), "little")
        result.append(value)
    return result


def _flint_product(vector: Sequence[int], matrix: np.ndarray) -> list[int]:
    import flint

    product = flint.fmpz_mat(1, len(vector), list(vector)) * flint.fmpz_mat(matrix.tolist())
    return [int(v) for v in product.entries()]
