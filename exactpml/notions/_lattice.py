"""Privacy losses on a lattice: integer multiples of log r, composed by FLINT polynomial powers.

When every finite privacy loss is ``k log r`` for one rational ``r > 1`` (randomized response:
``±log(e^ε)``; geometric noise: ``k log(1/α)``), the law of the loss is a Laurent polynomial
``Σ_k m_k x^k`` with rational coefficients, and composition (the law of a sum of independent
losses) is the product of polynomials.  :class:`LatticeLaw` stores the masses as integer
numerators of one :class:`flint.fmpz_poly` over a common denominator, so a 1000-fold
self-composition is one exact ``fmpz_poly`` power (milliseconds) instead of a million-term
convolution.

The common base of two rationals is their *multiplicative gcd*: ``a = g^i`` and ``b = g^j``
for the largest such ``g``, found by Euclid's algorithm on exponents (``a / b^⌊log_b a⌋`` in
place of ``i mod j``).  Every intermediate of that algorithm is ``g^k`` with ``|k| <= max(i, j)``
when the gcd exists, so an intermediate of larger height proves there is none.

Every value is exact; the floating-point estimate of ``⌊log_b a⌋`` only chooses where the
exact comparisons start.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from flint import fmpz_poly

from exactpml.core.abbreviate import abbreviated
from exactpml.core.bounds import current_bounds, exceeded

__all__ = ["LatticeLaw", "common_base", "lattice_exponents", "power_floor"]


def _height(value: Fraction) -> int:
    return max(value.numerator.bit_length(), value.denominator.bit_length())


def _log(value: Fraction) -> float:
    """log(value) for a positive rational, as a float (an estimate, never a decision)."""
    n, d = value.numerator, value.denominator
    if 4 * abs(n - d) < d:  # near 1: no cancellation
        return math.log1p(float(Fraction(n - d, d)))
    return math.log(n) - math.log(d)


def power_floor(value: Fraction, base: Fraction, *, most: int | None = None) -> int | None:
    """The integer k with ``base^k <= value < base^(k+1)`` (``value > 0``, ``base > 1``), exactly.

    Returns None when ``|k|`` would exceed ``most`` (a guard against forming huge powers).
    The float estimate only chooses where the exact comparisons start.
    """
    step = _log(base)
    if step <= 0.0:  # base within 1e-308 of 1: no estimate
        return None
    estimate = _log(value) / step
    if most is not None and abs(estimate) > most + 2:
        return None
    k = math.floor(estimate)
    while base**k > value:
        k -= 1
    while base ** (k + 1) <= value:
        k += 1
    return k


def common_base(a: Fraction, b: Fraction) -> Fraction | None:
    """The largest g > 1 with a = g^i and b = g^j (integers i, j >= 1), or None.

    ``a, b > 1``.  Euclid's algorithm on the exponents, in the multiplicative group of the
    positive rationals.  If g exists, every intermediate is g^k with k at most the larger
    exponent, so its height (bits of numerator or denominator) is at most twice the inputs'
    (g^k has between k(L-1)+1 and kL bits when g has L >= 2); a larger one proves there is
    no g.  None is always safe: the caller then convolves exactly.

    >>> common_base(Fraction(8), Fraction(4)), common_base(Fraction(2), Fraction(3))
    (Fraction(2, 1), None)
    """
    limit = 2 * max(_height(a), _height(b)) + 2
    while True:
        if a < b:
            a, b = b, a
        k = power_floor(a, b, most=limit // max(1, _height(b) - 1))
        if k is None:
            return None
        rest = a / b**k
        if rest == 1:
            return b
        if _height(rest) > limit:
            return None
        a, b = b, rest


def lattice_exponents(ratios: Sequence[Fraction]) -> tuple[Fraction, list[int]] | None:
    """(r, [k_i]) with ``ratios[i] = r^{k_i}`` for the largest rational r > 1, or None.

    Ratios equal to 1 have exponent 0; when every ratio is 1 the base is 2.

    >>> lattice_exponents([Fraction(3), Fraction(1, 3), Fraction(9)])
    (Fraction(3, 1), [1, -1, 2])
    """
    base: Fraction | None = None
    for ratio in ratios:
        size = ratio if ratio >= 1 else 1 / ratio
        if size == 1:
            continue
        base = size if base is None else common_base(base, size)
        if base is None:
            return None
    if base is None:
        return Fraction(2), [0] * len(ratios)
    exponents = []
    for ratio in ratios:
        size = ratio if ratio >= 1 else 1 / ratio
        k = power_floor(size, base)
        if k is None or base**k != size:  # pragma: no cover - the gcd divides every exponent
            return None
        exponents.append(k if ratio >= 1 else -k)
    return base, exponents


ATOM_BITS = 2**11
"""The cost of forming one atom (its Fractions and LogValue), counted as this many bits."""


def _check_size(atoms: int, where: str, *, atom_bits: int = 0, what: str = "") -> None:
    """Refuse ``atoms`` above ``Bounds.loss_atoms``, and ``atoms`` atoms of ``atom_bits`` bits
    each (plus :data:`ATOM_BITS` apiece) above ``Bounds.loss_bits``."""
    bounds = current_bounds()
    if atoms > bounds.loss_atoms:
        raise exceeded(
            where,
            f"the composed privacy-loss law would have {abbreviated(atoms)} atoms",
            "loss_atoms",
        )
    size = atoms * (atom_bits + ATOM_BITS)
    if size > bounds.loss_bits:
        raise exceeded(
            where,
            f"{what}the composed privacy-loss law would have {atoms} atoms of about "
            f"{atom_bits} bits each ({size} bits with {ATOM_BITS} per atom formed)",
            "loss_bits",
        )


@dataclass(frozen=True, slots=True)
class LatticeLaw:
    """The finite part of a privacy-loss law on the lattice ``log(base)·Z``.

    Attributes:
        base: r > 1 (rational): the losses are ``k log r``.
        lowest: the exponent of the polynomial's constant term.
        numerators: ``numerators[i]`` is the mass of loss ``(lowest + i) log r`` times
            ``denominator`` (an ``fmpz_poly``; zero coefficients are absent losses).
        denominator: the common denominator of the masses (a positive int).
        mass_at_infinity: P(L = +∞).
    """

    base: Fraction
    lowest: int
    numerators: fmpz_poly
    denominator: int
    mass_at_infinity: Fraction

    @classmethod
    def of(
        cls,
        base: Fraction,
        exponents: Sequence[int],
        masses: Sequence[Fraction],
        mass_at_infinity: Fraction,
    ) -> LatticeLaw:
        """The law with ``masses[i]`` at loss ``exponents[i] log(base)``."""
        lowest = min(exponents, default=0)
        denominator = math.lcm(*(m.denominator for m in masses)) if masses else 1
        coefficients = [0] * ((max(exponents) - lowest + 1) if exponents else 1)
        for k, mass in zip(exponents, masses, strict=True):
            coefficients[k - lowest] += mass.numerator * (denominator // mass.denominator)
        return cls(base, lowest, fmpz_poly(coefficients), denominator, mass_at_infinity)

    def atoms(self) -> list[tuple[int, Fraction]]:
        """(exponent, mass) for every loss of positive mass, in increasing order."""
        return [
            (self.lowest + i, Fraction(int(c), self.denominator))
            for i, c in enumerate(self.numerators.coeffs())
            if c
        ]

    def rebased(self, base: Fraction) -> LatticeLaw:
        """The same law on the finer lattice ``log(base)·Z`` (``self.base = base^j``)."""
        if base == self.base:
            return self
        j = power_floor(self.base, base)
        assert j is not None
        coefficients = [0] * (self.numerators.degree() * j + 1)
        for i, c in enumerate(self.numerators.coeffs()):
            coefficients[i * j] = int(c)
        return LatticeLaw(
            base, self.lowest * j, fmpz_poly(coefficients), self.denominator, self.mass_at_infinity
        )

    def compose(self, other: LatticeLaw) -> LatticeLaw | None:
        """The law of the sum of independent losses (None when the lattices differ)."""
        base = self.base if self.base == other.base else common_base(self.base, other.base)
        if base is None:
            return None
        first_degree = self.numerators.degree() * self._rebasing(base)
        second_degree = other.numerators.degree() * other._rebasing(base)
        _check_size(
            first_degree + second_degree + 1,
            "compose",
            atom_bits=2 * (self.denominator * other.denominator).bit_length()
            + max(
                self.mass_at_infinity.denominator, other.mass_at_infinity.denominator
            ).bit_length(),
        )
        first, second = self.rebased(base), other.rebased(base)
        return LatticeLaw(
            base,
            first.lowest + second.lowest,
            first.numerators * second.numerators,
            first.denominator * second.denominator,
            1 - (1 - first.mass_at_infinity) * (1 - second.mass_at_infinity),
        )

    def _rebasing(self, base: Fraction) -> int:
        """j with ``self.base = base^j`` (1 when the bases agree)."""
        if base == self.base:
            return 1
        j = power_floor(self.base, base)
        assert j is not None
        return j

    def power(self, k: int) -> LatticeLaw:
        """The k-fold self-composition: one FLINT polynomial power.

        Checked first: the atoms (at most degree·k + 1, and at most C(k + n - 1, n - 1) for
        n atoms) and their bits: every mass is below 1 with denominator d^k, so its numerator
        and denominator have at most k·log2(d) bits each (``Bounds.loss_atoms``,
        ``Bounds.loss_bits``).
        """
        present = sum(1 for c in self.numerators.coeffs() if c != 0)
        slots = self.numerators.degree() * k + 1
        atoms = slots if present > 8 else min(slots, math.comb(k + present - 1, present - 1))
        _check_size(
            atoms,
            "self_compose",
            atom_bits=2 * k * self.denominator.bit_length()
            + k * self.mass_at_infinity.denominator.bit_length(),
            what=f"k={k}: ",
        )
        return LatticeLaw(
            self.base,
            self.lowest * k,
            self.numerators**k,
            self.denominator**k,
            1 - (1 - self.mass_at_infinity) ** k,
        )

    # --- δ(ε) and its inverse -------------------------------------------------------
    def _suffix(self, start: int) -> tuple[int, Fraction]:
        """(Σ_{i >= start} c_i, Σ_{i >= start} c_i r^{-(lowest + i)} · denominator)."""
        coefficients = [int(c) for c in self.numerators.coeffs()]
        top = len(coefficients) - 1
        if start > top:
            return 0, Fraction(0)
        u, v = self.base.numerator, self.base.denominator
        # Horner on t = i - start: Σ c_i (v/u)^t = N / u^(top - start)
        total = 0
        accumulated = 0
        power = 1
        for i in range(top, start - 1, -1):
            c = coefficients[i]
            total += c
            accumulated = c * power + v * accumulated
            power *= u
        power //= u
        first = -(self.lowest + start)  # r^{-(lowest+start)} = (v/u)^{lowest+start}
        scale = Fraction(v, u) ** (-first) if first <= 0 else Fraction(u, v) ** first
        return total, scale * Fraction(accumulated, power)

    def pieces(self, start: int) -> tuple[Fraction, Fraction]:
        """(A, B) with δ(E) = A - E·B for every E in [r^{e_{start-1}}, r^{e_start}).

        A = P(L = ∞) + P(L >= e_start log r), B = E_P[e^{-L}; L >= e_start log r].
        """
        total, weighted = self._suffix(start)
        return (
            self.mass_at_infinity + Fraction(total, self.denominator),
            weighted / self.denominator,
        )

    def first_above(self, exceeds: object) -> int:
        """The least coefficient index i with ``exceeds(lowest + i)`` true (monotone predicate).

        Returns ``degree + 1`` when none.
        """
        low, high = 0, self.numerators.degree() + 1
        while low < high:
            middle = (low + high) // 2
            if exceeds(self.lowest + middle):  # type: ignore[operator]
                high = middle
            else:
                low = middle + 1
        return low
