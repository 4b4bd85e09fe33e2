"""The exact privacy-loss distribution: composition, δ(ε) for every real ε, and ε(δ).

For laws P, Q on a finite set the *privacy loss* of an output o is ``L(o) = log p(o)/q(o)``
(``+∞`` where ``q(o) = 0 < p(o)``), and the privacy-loss distribution (PLD) is the law of
L(O) for O ~ P (thesis, Def 13; Sommer, Meiser, Mohammadi 2019, Def 2; dp_accounting's
``PrivacyLossDistribution``).  It determines

* δ(ε) = H_{e^ε}(P || Q) = E_{O~P}[max(0, 1 - e^{ε - L(O)})] for **every** real ε, negative
  included (thesis, Prop 8), and δ(∞) = P(L = ∞);
* the composition: the PLD of (P₁×P₂, Q₁×Q₂) is the law of L₁ + L₂ for independent losses
  (Sommer et al., Thm 1), so k-fold composition is a k-fold convolution;
* ε(δ) = min{ε : δ(ε) <= δ}: δ is continuous and non-increasing, of the form ``A - e^ε B``
  between consecutive losses, so ε(δ) = log((A - δ)/B) on the right piece -- the log of a
  rational whenever the masses and losses are rational;
* Rényi divergences D_α(P || Q) = (1/(α-1)) log E_P[e^{(α-1)L}] (Mironov 2017, Def 3) and
  the Q-mass where P vanishes (:attr:`PrivacyLossDistribution.mass_at_minus_infinity`).

**Composition is exact.**  When every finite loss is an integer multiple of one ``log r``
with r rational (randomized response, geometric noise, every rational PLD whose ratios are
powers of one rational), the masses are kept as a FLINT integer polynomial and composed by
exact polynomial products and powers (:mod:`exactpml.notions._lattice`): 1000-fold
self-composition of randomized response takes milliseconds.  Otherwise the finite supports
are convolved exactly (atoms with equal losses merged); the number of atoms formed is
bounded by ``Bounds.loss_atoms`` (default 10^6; :class:`~exactpml.core.bounds.BoundExceeded`
beyond it, raise it with ``exactpml.use_bounds(loss_atoms=...)``), and their size by
``Bounds.loss_bits``: the bits of every atom's numbers plus 2^11 per atom formed, predicted
before the work (k-fold randomized response has about 2k atoms of k·log2(1 + e^ε) bits:
Θ(k²) bits, 2^26 by default, about k = 3000 for e^ε = 3).

>>> from exactpml import Distribution
>>> pld = privacy_loss_distribution(Distribution({0: "3/4", 1: "1/4"}),
...                                 Distribution({0: "1/4", 1: "3/4"}))
>>> pld.delta_for_epsilon(exp_epsilon=2)
Fraction(1, 4)
>>> pld.delta_for_epsilon(exp_epsilon="1/2")
Fraction(5, 8)
>>> twice = pld.compose(pld)
>>> [(str(loss), mass) for loss, mass in twice]
[('-log(9)', Fraction(1, 16)), ('0', Fraction(3, 8)), ('log(9)', Fraction(9, 16))]
>>> print(twice.epsilon_for_delta("1/2"), twice.epsilon_for_delta("1/4"))
0 log(5)
>>> pld.self_compose(1000).delta_for_epsilon(exp_epsilon=3**100) > 0
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

import sympy
from flint import arb, ctx, fmpq

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.bounds import current_bounds, exceeded
from exactpml.core.decisions import exact_compare, prove_zero
from exactpml.core.distribution import Distribution
from exactpml.core.exact import (
    Scalar,
    as_scalar,
    exact_difference,
    exact_product,
    exact_quotient,
    exact_sum,
    to_sympy,
)
from exactpml.core.logvalue import LogValue
from exactpml.core.parameters import (
    exp_epsilon_of,
    height,
    positive_integer,
    power_bits,
    probability,
    renyi_order,
    short_count,
    short_number,
    within_bound,
)
from exactpml.errors import InvalidArgument
from exactpml.notions._common import check_distribution_pair
from exactpml.notions._lattice import ATOM_BITS, LatticeLaw, lattice_exponents
from exactpml.numerics.log_moments import (
    PRECISION,
    RenyiBounds,
    ball_ends,
    log_moment,
    order_precision,
)

__all__ = ["PrivacyLossDistribution", "privacy_loss_distribution"]


def _ratio_order(a: Scalar, b: Scalar) -> int:
    return exact_compare(a, b)


@dataclass(frozen=True, slots=True, init=False)
class PrivacyLossDistribution:
    """The exact law of the privacy loss L(O) = log p(O)/q(O) for O ~ P (thesis, Def 13).

    Args:
        losses: the distinct finite losses, as LogValues (``LogValue(r)`` is the loss log r;
            r < 1 is a negative loss).
        masses: their probabilities under P (exact, positive), in the same order.
        mass_at_infinity: P(q(O) = 0), the probability of an infinite loss.

    The masses and the infinite mass must sum to exactly 1, and the Q-mass they imply,
    Σ mass/r, must be at most 1.  The losses are stored in increasing order.

    Attributes:
        losses: the losses, increasing.
        masses: their masses under P.
        mass_at_infinity: P(L = ∞).
    """

    losses: tuple[LogValue, ...]
    masses: tuple[Scalar, ...]
    mass_at_infinity: Scalar
    _lattice: LatticeLaw | None = field(compare=False, repr=False)

    def __init__(
        self,
        losses: Iterable[LogValue],
        masses: Iterable[object],
        mass_at_infinity: object = 0,
    ) -> None:
        loss_list = list(losses)
        mass_list = list(masses)
        if len(loss_list) != len(mass_list):
            raise InvalidArgument(
                f"losses and masses must have the same length ({len(loss_list)} losses, "
                f"{len(mass_list)} masses)"
            )
        ratios: list[Scalar] = []
        for index, loss in enumerate(loss_list):
            if not isinstance(loss, LogValue):
                raise InvalidArgument(
                    f"losses[{abbreviated(index)}]={abbreviated_repr(loss)} must be a LogValue "
                    "(the loss log r is LogValue(r))"
                )
            if loss.is_infinite or prove_zero(loss.ratio):
                raise InvalidArgument(
                    f"losses[{abbreviated(index)}]={abbreviated(loss)} must be finite; give the "
                    "mass of an infinite loss "
                    "as mass_at_infinity"
                )
            ratios.append(loss.ratio)
        checked = [probability(m, name=f"masses[{i}]") for i, m in enumerate(mass_list)]
        infinite = probability(mass_at_infinity, name="mass_at_infinity")
        total = exact_sum([*checked, infinite])
        if exact_compare(total, Fraction(1)) != 0:
            raise InvalidArgument(f"masses and mass_at_infinity sum to {abbreviated(total)}, not 1")
        built = _build(ratios, checked, infinite, merge=False)
        other_mass = built.mass_at_minus_infinity
        if exact_compare(other_mass, Fraction(0)) < 0:
            implied = exact_difference(Fraction(1), other_mass)
            raise InvalidArgument(
                f"the masses imply a Q-mass Σ mass/e^loss = {abbreviated(implied)} above 1: no "
                "pair of laws "
                "has this privacy-loss distribution"
            )
        for name in ("losses", "masses", "mass_at_infinity", "_lattice"):
            object.__setattr__(self, name, getattr(built, name))

    @classmethod
    def _trusted(
        cls,
        losses: tuple[LogValue, ...],
        masses: tuple[Scalar, ...],
        mass_at_infinity: Scalar,
        lattice: LatticeLaw | None,
    ) -> PrivacyLossDistribution:
        self = object.__new__(cls)
        object.__setattr__(self, "losses", losses)
        object.__setattr__(self, "masses", masses)
        object.__setattr__(self, "mass_at_infinity", mass_at_infinity)
        object.__setattr__(self, "_lattice", lattice)
        return self

    @classmethod
    def from_privacy_parameters(
        cls, epsilon: object = None, *, exp_epsilon: object = None, delta: object = 0
    ) -> PrivacyLossDistribution:
        """The PLD of the pair that dominates every (ε, δ)-DP mechanism.

        P = (δ, (1-δ)E/(1+E), (1-δ)/(1+E), 0), Q = (0, (1-δ)/(1+E), (1-δ)E/(1+E), δ) with
        E = e^ε (Kairouz, Oh, Viswanath 2015, proof of Thm 3.3): losses +∞ (mass δ), ε and
        -ε.  Its k-fold self-composition gives the optimal composition theorem (ibid.,
        Thm 3.3), and for δ = 0 it is binary randomized response.

        >>> pld = PrivacyLossDistribution.from_privacy_parameters(exp_epsilon=3, delta="1/10")
        >>> [(str(loss), mass) for loss, mass in pld]
        [('-log(3)', Fraction(9, 40)), ('log(3)', Fraction(27, 40)), ('oo', Fraction(1, 10))]
        """
        ratio = exp_epsilon_of(epsilon, exp_epsilon, enclosed=True)
        if ratio is sympy.oo:
            raise InvalidArgument("epsilon must be finite (the dominating pair of ε = ∞ is void)")
        rest = exact_difference(Fraction(1), probability(delta, name="delta"))
        denominator = exact_sum([Fraction(1), ratio])
        high = exact_quotient(exact_product(rest, ratio), denominator)
        low = exact_quotient(rest, denominator)
        inverse = exact_quotient(Fraction(1), ratio)
        return _build(
            [inverse, ratio], [low, high], exact_difference(Fraction(1), rest), merge=True
        )

    # --- reading ----------------------------------------------------------------------
    def __iter__(self) -> Iterator[tuple[LogValue, Scalar]]:
        """Pairs (loss, mass); the infinite loss comes last when it has positive mass."""
        yield from zip(self.losses, self.masses, strict=True)
        if not prove_zero(self.mass_at_infinity):
            yield LogValue.infinity(), self.mass_at_infinity

    def __len__(self) -> int:
        """The number of atoms (the infinite loss included when it has mass)."""
        return len(self.losses) + (0 if prove_zero(self.mass_at_infinity) else 1)

    @property
    def mass_at_minus_infinity(self) -> Scalar:
        """Q(p(O) = 0) = 1 - Σ_i mass_i e^{-loss_i}, the Q-mass that P never reaches."""
        if self._lattice is not None:
            _, weighted = self._lattice.pieces(0)
            return 1 - weighted
        return exact_difference(
            Fraction(1),
            exact_sum(
                [
                    exact_quotient(m, loss.ratio)
                    for loss, m in zip(self.losses, self.masses, strict=True)
                ]
            ),
        )

    # --- δ(ε) and ε(δ) ------------------------------------------------------------------
    def delta_for_epsilon(self, epsilon: object = None, *, exp_epsilon: object = None) -> Scalar:
        """δ(ε) = E_{O~P}[max(0, 1 - e^{ε - L(O)})] (thesis, Prop 8), for every real ε.

        Negative ε (e^ε < 1) and ε = ±∞ are accepted (δ(-∞) = 1, δ(∞) = P(L = ∞)).
        Exact; a closed expression in e^ε when e^ε is irrational (the pieces are certified).
        """
        ratio = exp_epsilon_of(epsilon, exp_epsilon, negative_allowed=True)
        if ratio is sympy.oo:
            return self.mass_at_infinity
        if self._lattice is not None:
            return self._lattice_delta(ratio)
        terms: list[Scalar] = [self.mass_at_infinity]
        for loss, mass in zip(self.losses, self.masses, strict=True):
            if exact_compare(loss.ratio, ratio) > 0:  # mass · (1 - e^ε / e^L)
                terms.append(
                    exact_difference(mass, exact_quotient(exact_product(ratio, mass), loss.ratio))
                )
        return exact_sum(terms)

    def delta(self, epsilon: object = None, *, exp_epsilon: object = None) -> Scalar:
        """The same as :meth:`delta_for_epsilon` (its earlier name)."""
        return self.delta_for_epsilon(epsilon, exp_epsilon=exp_epsilon)

    def _lattice_delta(self, ratio: Scalar) -> Scalar:
        law = self._lattice
        assert law is not None
        base = law.base
        if type(ratio) is Fraction:
            start = law.first_above(lambda k: base**k > ratio)
            high, weight = law.pieces(start)
            return high - ratio * weight
        start = law.first_above(lambda k: exact_compare(base**k, ratio) > 0)
        high, weight = law.pieces(start)
        return exact_difference(high, exact_product(ratio, weight))

    def epsilon_for_delta(self, delta: object) -> LogValue:
        """The least ε with δ(ε) <= δ, as a LogValue (its ratio e^ε exact).

        δ(ε) = A - e^ε B between consecutive losses, so ε = log((A - δ)/B) on the piece
        where δ(ε) crosses δ: the log of a rational when the masses, the losses' ratios and
        δ are rational, else an exact closed form (the piece is found by certified
        comparisons).  ε may be negative; δ = 1 gives -∞ (``LogValue(0)``), and δ below
        P(L = ∞) gives ``LogValue.infinity()`` (no ε suffices, dp_accounting's ``inf``).

        >>> pld = PrivacyLossDistribution.from_privacy_parameters(exp_epsilon=3)
        >>> print(pld.epsilon_for_delta("1/4"), pld.epsilon_for_delta(0))
        log(2) log(3)
        """
        target = probability(delta, name="delta")
        if exact_compare(target, self.mass_at_infinity) < 0:
            return LogValue.infinity()
        count = len(self.losses)
        if count == 0:  # P(L = ∞) = 1 <= δ: every ε, down to -∞
            return LogValue(Fraction(0))
        if self._lattice is not None:
            return self._lattice_epsilon(target)

        def at_breakpoint(index: int) -> Scalar:  # δ at e^ε = ratio of losses[index]
            high, weight = self._pieces(index + 1)
            return exact_difference(high, exact_product(self.losses[index].ratio, weight))

        low, high_index = 0, count - 1  # δ(losses[-1]) = P(L = ∞) <= δ
        while low < high_index:
            middle = (low + high_index) // 2
            if exact_compare(at_breakpoint(middle), target) <= 0:
                high_index = middle
            else:
                low = middle + 1
        high, weight = self._pieces(low)
        return LogValue(exact_quotient(exact_difference(high, target), weight))

    def _pieces(self, start: int) -> tuple[Scalar, Scalar]:
        """(A, B): P(L = ∞) + Σ_{i >= start} m_i and Σ_{i >= start} m_i e^{-loss_i}."""
        rest = list(zip(self.losses[start:], self.masses[start:], strict=True))
        return (
            exact_sum([self.mass_at_infinity, *(m for _, m in rest)]),
            exact_sum([exact_quotient(m, loss.ratio) for loss, m in rest]),
        )

    def _lattice_epsilon(self, target: Scalar) -> LogValue:
        law = self._lattice
        assert law is not None
        base = law.base

        def small_enough(k: int) -> bool:  # δ(base^k) <= target (monotone in k)
            high, weight = law.pieces(k - law.lowest + 1)
            return exact_compare(high - base**k * weight, target) <= 0

        start = law.first_above(small_enough)
        high, weight = law.pieces(start)
        return LogValue(exact_quotient(exact_difference(high, target), weight))

    # --- composition --------------------------------------------------------------------
    def compose(self, other: PrivacyLossDistribution) -> PrivacyLossDistribution:
        """The PLD of the product pair (P × P', Q × Q'): the law of L + L' (independent).

        Sommer, Meiser, Mohammadi 2019, Thm 1.  Exact: FLINT polynomial products when both
        losses lie on lattices of one base, else a convolution of the finite supports
        (at most ``Bounds.loss_atoms`` atoms formed).
        """
        if not isinstance(other, PrivacyLossDistribution):
            raise InvalidArgument(
                f"other must be a PrivacyLossDistribution, got {type(other).__name__}"
            )
        if self._lattice is not None and other._lattice is not None:
            law = self._lattice.compose(other._lattice)
            if law is not None:
                return _from_lattice(law)
        atoms = len(self.losses) * len(other.losses)
        if atoms > current_bounds().loss_atoms:
            raise exceeded(
                "compose", f"the convolution would form {abbreviated(atoms)} atoms", "loss_atoms"
            )
        mine, theirs = self._atom_sizes(), other._atom_sizes()
        size = len(theirs) * sum(mine) + len(mine) * sum(theirs) + ATOM_BITS * atoms
        if size > current_bounds().loss_bits:
            raise exceeded(
                "compose",
                f"the convolution would form {abbreviated(atoms)} atoms of "
                f"{abbreviated(size)} bits together ({ATOM_BITS} per atom formed)",
                "loss_bits",
            )
        ratios: list[Scalar] = []
        masses: list[Scalar] = []
        for a, m in zip(self.losses, self.masses, strict=True):
            for b, n in zip(other.losses, other.masses, strict=True):
                ratios.append(exact_product(a.ratio, b.ratio))
                masses.append(exact_product(m, n))
        keep = exact_product(
            exact_difference(Fraction(1), self.mass_at_infinity),
            exact_difference(Fraction(1), other.mass_at_infinity),
        )
        return _build(ratios, masses, exact_difference(Fraction(1), keep), merge=True)

    def self_compose(self, k: int) -> PrivacyLossDistribution:
        """The PLD of the k-fold product (P^k, Q^k): one FLINT power on a lattice.

        >>> rr = PrivacyLossDistribution.from_privacy_parameters(exp_epsilon=3)
        >>> rr.self_compose(3).delta_for_epsilon(exp_epsilon=3)
        Fraction(3, 8)
        """
        count = positive_integer(k, name="k")
        if self._lattice is not None:
            return _from_lattice(self._lattice.power(count))
        if count > 1:  # the k-fold law: multisets of k atoms, each k times the atoms' bits
            sizes = self._atom_sizes()
            limit = current_bounds()
            if len(sizes) < 2:
                atoms = len(sizes)
            elif count > limit.loss_atoms:  # at least k + 1 sums: refused without counting
                atoms = count + 1
            else:
                atoms = math.comb(count + len(sizes) - 1, min(len(sizes) - 1, count))
            if atoms > limit.loss_atoms:
                raise exceeded(
                    "self_compose",
                    f"k={count}: the composed privacy-loss law may have {short_count(atoms)} atoms",
                    "loss_atoms",
                )
            size = atoms * (count * max(sizes, default=0) + ATOM_BITS)
            if size > limit.loss_bits:
                raise exceeded(
                    "self_compose",
                    f"k={count}: the composed privacy-loss law may have {short_count(atoms)} "
                    f"atoms of {short_count(size)} bits together ({ATOM_BITS} per atom formed)",
                    "loss_bits",
                )
        result: PrivacyLossDistribution | None = None
        square = self
        while True:  # binary powering by exact convolutions
            if count & 1:
                result = square if result is None else result.compose(square)
            count >>= 1
            if not count:
                break
            square = square.compose(square)
        assert result is not None
        return result

    def _atom_sizes(self) -> list[int]:
        """Bits of each finite atom: its loss's ratio and its mass (the cost model's sizes)."""
        return [
            _size(loss.ratio) + _size(m) for loss, m in zip(self.losses, self.masses, strict=True)
        ]

    # --- other functionals ----------------------------------------------------------------
    def expectation(self) -> Scalar:
        """E[L(O)] = D_KL(P || Q) (``oo`` when the infinite loss has positive mass)."""
        if not prove_zero(self.mass_at_infinity):
            return sympy.oo
        return as_scalar(
            sympy.Add(
                *(
                    to_sympy(mass) * sympy.log(to_sympy(loss.ratio))
                    for loss, mass in zip(self.losses, self.masses, strict=True)
                )
            )
        )

    def renyi_divergence(self, order: object) -> LogValue:
        """D_α(P || Q) = (1/(α-1)) log E_P[e^{(α-1)L}] (Mironov 2017, Def 3), α > 1 or ∞.

        Returned as ``LogValue((E_P[e^{(α-1)L}])^{1/(α-1)})``: rational for α = 2 and
        rational laws, an exact algebraic number otherwise (certified decimals through
        :meth:`LogValue.decimal`); ``∞`` when P(L = ∞) > 0.  A single finite loss gives D_α =
        that loss at every α; otherwise the powers e^{(α-1)L} are checked against
        ``Bounds.exact_bits`` (and the root against ``Bounds.root_bits``) before they are
        formed, and :meth:`renyi_divergence_bounds` gives certified bounds at every order.

        >>> pld = PrivacyLossDistribution.from_privacy_parameters(exp_epsilon=3)
        >>> print(pld.renyi_divergence(2))
        log(7/3)
        """
        alpha = renyi_order(order)
        if not prove_zero(self.mass_at_infinity):
            return LogValue.infinity()
        if alpha is sympy.oo:
            return self.losses[-1] if self.losses else LogValue(1)
        assert type(alpha) is Fraction
        return renyi_of_atoms(
            self.masses,
            [loss.ratio for loss in self.losses],
            alpha,
            where="PrivacyLossDistribution.renyi_divergence",
            bounds="PrivacyLossDistribution.renyi_divergence_bounds",
        )

    def renyi_divergence_bounds(self, order: object) -> RenyiBounds:
        """Certified rational bounds on D_α(P || Q), at every order α > 1 or ∞ (rational atoms).

        D_α = K(α - 1)/(α - 1) for the log-moment K(t) = log Σ m e^{tL}
        (:mod:`exactpml.numerics.log_moments`), enclosed without forming e^{(α-1)L}: far
        out it closes on D_∞ = the largest loss, within log(1/m*)/(α - 1) (m* its mass).

        >>> pld = PrivacyLossDistribution.from_privacy_parameters(exp_epsilon=3)
        >>> bounds = pld.renyi_divergence_bounds(10**100)
        >>> float(bounds.lower) <= 1.0986122886681098 <= float(bounds.upper)  # log 3
        True
        """
        alpha = renyi_order(order)
        if not prove_zero(self.mass_at_infinity):
            return RenyiBounds(Fraction(0), None, alpha)
        return divergence_bounds(
            self.masses,
            [loss.ratio for loss in self.losses],
            alpha,
            where="PrivacyLossDistribution.renyi_divergence_bounds",
        )

    def __str__(self) -> str:
        """The atoms ``loss: mass``; past ``_SHOWN_ATOMS`` atoms, the first and last ones and
        the count of those left out (the text of thousands of closed forms takes seconds)."""
        pairs = list(self)
        half = _SHOWN_ATOMS // 2
        shown = pairs if len(pairs) <= _SHOWN_ATOMS else pairs[:half] + pairs[-half:]
        texts = [f"{abbreviated(loss, None)}: {abbreviated(mass, None)}" for loss, mass in shown]
        if len(shown) < len(pairs):
            texts.insert(half, f"… {len(pairs) - len(shown)} more atoms …")
        return f"PrivacyLossDistribution({{{', '.join(texts)}}})"


_SHOWN_ATOMS = 20


def _size(value: Scalar) -> int:
    """Bits of a rational, or of the rationals in a closed form (the cost model's size)."""
    if type(value) is Fraction:
        return height(value)
    return max(
        1, sum(height(Fraction(int(a.p), int(a.q))) for a in to_sympy(value).atoms(sympy.Rational))
    )


def renyi_of_atoms(
    masses: Sequence[Scalar],
    ratios: Sequence[Scalar],
    alpha: Fraction,
    *,
    where: str,
    bounds: str,
) -> LogValue:
    """D_α = (1/(α-1)) log Σ_i m_i r_i^{α-1} as ``LogValue((Σ m r^{α-1})^{1/(α-1)})``.

    ``masses`` m_i > 0 under P and ``ratios`` r_i = p/q of the finite losses (Mironov 2017,
    Def 3).  The cost model, checked before any power is formed:

    * one ratio r for every atom: Σ m r^{α-1} = r^{α-1}, so D_α = log r at every α;
    * otherwise r^{α-1} has about ⌈α - 1⌉ · log2(r) bits; the sum over a common denominator
      is checked against ``Bounds.exact_bits``, and a rational sum whose 1/(α-1)-th root
      sympy would search against ``Bounds.root_bits``.  Above either,
      :class:`~exactpml.core.bounds.BoundExceeded` names the order and ``bounds``, the
      function giving certified bounds at every order.
    """
    if not masses:  # P lives where Q vanishes: handled by the callers (D_α = ∞)
        return LogValue.infinity()
    step = alpha - 1
    shown = f"order={short_number(alpha)}"
    advice = f"(certified bounds at any order: {bounds})"
    if all(type(r) is Fraction for r in ratios) and len(set(ratios)) == 1:
        return LogValue(ratios[0])  # a constant loss: D_α = log r
    rational = all(
        type(m) is Fraction and type(r) is Fraction for m, r in zip(masses, ratios, strict=True)
    )
    if step.denominator == 1 and rational:
        power = int(step)
        weights = cast(list[Fraction], list(masses))
        fractions = cast(list[Fraction], list(ratios))
        common = math.lcm(*(m.denominator for m in weights))
        below = math.lcm(*(r.denominator for r in fractions))
        top = max(abs(r.numerator).bit_length() for r in fractions)
        bits = common.bit_length() + power_bits(below.bit_length() + top, power)
        within_bound(
            bits,
            "exact_bits",
            where=where,
            what=f"{shown} would form Σ m r^(α-1) of about {short_count(bits)} bits {advice}",
        )
        numerator = sum(  # one normalisation: Σ m (r V)^(α-1) over V^(α-1)
            m.numerator
            * (common // m.denominator)
            * (r.numerator * (below // r.denominator)) ** power
            for m, r in zip(weights, fractions, strict=True)
        )
        moment: Scalar = Fraction(numerator, common * below**power)
    else:
        bits = sum(
            _size(m) + power_bits(_size(r), step) for m, r in zip(masses, ratios, strict=True)
        )
        within_bound(
            bits,
            "exact_bits",
            where=where,
            what=f"{shown} would form Σ m r^(α-1) of about {short_count(bits)} bits {advice}",
        )
        exponent = sympy.Rational(step.numerator, step.denominator)
        moment = as_scalar(
            sympy.Add(
                *(
                    to_sympy(m) * to_sympy(r) ** exponent
                    for m, r in zip(masses, ratios, strict=True)
                )
            )
        )
    if step == 1:
        return LogValue(moment)
    if type(moment) is Fraction:
        within_bound(
            height(moment),
            "root_bits",
            where=where,
            what=f"{shown} asks for the "
            f"{short_number(step)}-th root of a rational of {height(moment)} bits {advice}",
        )
    root = sympy.Rational(step.denominator, step.numerator)
    return LogValue(as_scalar(to_sympy(moment) ** root))


def divergence_bounds(
    masses: Sequence[Scalar], ratios: Sequence[Scalar], alpha: Scalar, *, where: str
) -> RenyiBounds:
    """Certified bounds on D_α from the atoms (m_i, r_i = p/q), every order (rational atoms)."""
    if not masses:
        return RenyiBounds(Fraction(0), None, alpha)
    if not all(
        type(m) is Fraction and type(r) is Fraction for m, r in zip(masses, ratios, strict=True)
    ):
        raise InvalidArgument(
            f"{where}: certified bounds need rational laws (masses and ratios); these have "
            "closed-form entries: use the exact value instead"
        )
    weights = cast(list[Fraction], list(masses))
    fractions = cast(list[Fraction], list(ratios))
    if alpha is sympy.oo:
        top = max(fractions)
        with ctx.workprec(PRECISION):
            lower, upper = ball_ends(arb(fmpq(top.numerator, top.denominator)).log())
        return RenyiBounds(lower, upper, alpha)
    assert type(alpha) is Fraction
    step = alpha - 1
    precision = order_precision(step, where=where, shown=f"order={short_number(alpha)}")
    with ctx.workprec(precision):
        moment = log_moment(weights, fractions, step)
        lower, upper = ball_ends(moment / arb(fmpq(step.numerator, step.denominator)))
    return RenyiBounds(lower, upper, alpha)


def _integer_power(ratio: Scalar, power: int) -> Scalar:
    if type(ratio) is Fraction:
        return ratio**power
    return as_scalar(to_sympy(ratio) ** power)


def _from_lattice(law: LatticeLaw) -> PrivacyLossDistribution:
    atoms = law.atoms()
    base = law.base
    return PrivacyLossDistribution._trusted(
        tuple(LogValue._of_fraction(base**k) for k, _ in atoms),
        tuple(m for _, m in atoms),
        law.mass_at_infinity,
        law,
    )


def _build(
    ratios: Sequence[Scalar], masses: Sequence[Scalar], infinite: Scalar, *, merge: bool
) -> PrivacyLossDistribution:
    """Group equal losses (exactly), sort them, drop zero masses, find a lattice."""
    grouped: dict[Any, list[Scalar]] = {}
    for ratio, mass in zip(ratios, masses, strict=True):
        if type(mass) is Fraction and not mass:
            continue
        grouped.setdefault(ratio, []).append(mass)
    keys = list(grouped)
    if all(type(k) is Fraction for k in keys):
        keys.sort()
    else:
        keys.sort(key=functools.cmp_to_key(_ratio_order))
    ordered: list[tuple[Scalar, Scalar]] = []
    for key in keys:
        mass = exact_sum(grouped[key])
        if ordered and type(key) is not Fraction and exact_compare(ordered[-1][0], key) == 0:
            if not merge:
                raise InvalidArgument(f"the loss log({key}) is given twice")
            ordered[-1] = (ordered[-1][0], exact_sum([ordered[-1][1], mass]))
            continue
        if not merge and len(grouped[key]) > 1:
            raise InvalidArgument(f"the loss log({key}) is given twice")
        ordered.append((key, mass))
    ordered = [(k, m) for k, m in ordered if not (type(m) is Fraction and not m)]
    lattice = None
    if (
        ordered
        and type(infinite) is Fraction
        and all(type(k) is Fraction and type(m) is Fraction for k, m in ordered)
    ):
        found = lattice_exponents([k for k, _ in ordered])
        if found is not None:
            base, exponents = found
            lattice = LatticeLaw.of(base, exponents, [m for _, m in ordered], infinite)
    return PrivacyLossDistribution._trusted(
        tuple(LogValue._of_fraction(k) if type(k) is Fraction else LogValue(k) for k, _ in ordered),
        tuple(m for _, m in ordered),
        infinite,
        lattice,
    )


def privacy_loss_of_rows(row: Sequence[Scalar], other: Sequence[Scalar]) -> PrivacyLossDistribution:
    """The PLD of two aligned probability vectors (the engine of privacy_loss_distribution)."""
    ratios: list[Scalar] = []
    masses: list[Scalar] = []
    infinite: list[Scalar] = []
    for a, b in zip(row, other, strict=True):
        if type(a) is Fraction and type(b) is Fraction:
            if not a:
                continue
            if not b:
                infinite.append(a)
                continue
            ratios.append(a / b)
            masses.append(a)
            continue
        if prove_zero(a):
            continue
        if prove_zero(b):
            infinite.append(a)
            continue
        ratios.append(exact_quotient(a, b))
        masses.append(a)
    return _build(ratios, masses, exact_sum(infinite), merge=True)


def privacy_loss_distribution(p: Distribution, q: Distribution) -> PrivacyLossDistribution:
    """The law of L(O) = log p(O)/q(O) for O ~ P, exactly (losses increasing).

    >>> pld = privacy_loss_distribution(Distribution({0: "3/4", 1: "1/4"}),
    ...                                 Distribution({0: "1/4", 1: "3/4"}))
    >>> [(str(loss), mass) for loss, mass in pld]
    [('-log(3)', Fraction(1, 4)), ('log(3)', Fraction(3, 4))]
    """
    p, q = check_distribution_pair(p, q)
    return privacy_loss_of_rows(p.probabilities, [q[o] for o in p.outcomes])
