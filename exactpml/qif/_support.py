"""Shared validation and exact helpers of the QIF measures (private to :mod:`exactpml.qif`).

The QIF measures work on *rational* kernels, priors and gain functions: every maximum over
guesses or secrets is then an exact comparison of ``Fraction`` values.  Symbolic input is
refused naming the argument (the rest of exactpml keeps symbols; these measures do not yet).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction

import sympy

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.bounds import current_bounds
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, as_scalar
from exactpml.core.mechanism import Mechanism
from exactpml.core.parameters import height
from exactpml.errors import InvalidArgument

__all__ = [
    "expanded_log",
    "log_combination",
    "rational_kernel",
    "rational_prior",
    "rational_vector",
    "require_distribution",
    "require_mechanism",
]

Label = Hashable


def require_mechanism(value: object, name: str = "mechanism") -> Mechanism:
    """``value`` itself, or ``InvalidArgument`` naming ``name`` when it is not a Mechanism."""
    if not isinstance(value, Mechanism):
        raise InvalidArgument(f"{name} must be a Mechanism, got {type(value).__name__}")
    return value


def require_distribution(value: object, name: str = "prior") -> Distribution:
    """``value`` itself, or ``InvalidArgument`` naming ``name`` when it is not a Distribution."""
    if not isinstance(value, Distribution):
        raise InvalidArgument(f"{name} must be a Distribution, got {type(value).__name__}")
    return value


def rational_kernel(mechanism: object, name: str = "mechanism") -> list[list[Fraction]]:
    """The rows of a rational mechanism as ``Fraction`` lists (inputs, then outputs, in order)."""
    checked = require_mechanism(mechanism, name)
    rows: list[list[Fraction]] = []
    for x, row in zip(checked.inputs, checked.rows, strict=True):
        for y, value in zip(checked.outputs, row, strict=True):
            if type(value) is not Fraction:
                raise InvalidArgument(
                    f"{name}: row {abbreviated_repr(x)}, output {abbreviated_repr(y)} is "
                    f"{abbreviated(value)}, but the QIF measures need "
                    "rational entries"
                )
        rows.append(list(row))
    return rows


def rational_vector(distribution: object, name: str = "prior") -> list[Fraction]:
    """The probabilities of a rational distribution, in alphabet order."""
    checked = require_distribution(distribution, name)
    for outcome, value in checked.items():
        if type(value) is not Fraction:
            raise InvalidArgument(
                f"{name}: outcome {abbreviated_repr(outcome)} has probability "
                f"{abbreviated(value)}, but the QIF measures "
                "need rational probabilities"
            )
    return list(checked.probabilities)


def rational_prior(mechanism: Mechanism, prior: object, name: str = "prior") -> list[Fraction]:
    """The prior's probabilities in the order of the mechanism's inputs (alphabets must match)."""
    checked = require_distribution(prior, name)
    mechanism.check_prior(checked, name=name)
    rational_vector(checked, name)
    return [checked[x] for x in mechanism.inputs]


def log_combination(terms: Iterable[tuple[Fraction, Fraction]]) -> Scalar:
    """``Σ c log(a)`` over pairs ``(c, a)`` with ``a > 0``, as an exact sympy closed form.

    Terms with ``c = 0`` or ``a = 1`` vanish; each ``log(p/q)`` is split into
    ``log p - log q`` (``expand_log``), so equal values written from different fractions
    usually print alike.  The result is a ``Fraction`` (0) when no term remains.

    ``expand_log`` also writes ``log(n^k)`` as ``k log n`` by a perfect-power search whose
    time grows fast with the size of n (12 s at 3·10^5 bits), so arguments of more than
    ``Bounds.root_bits`` bits are only split into ``log p - log q``: the same exact value.
    """
    limit = current_bounds().root_bits
    parts: list[sympy.Expr] = []
    large: list[sympy.Expr] = []
    for coefficient, argument in terms:
        if coefficient == 0 or argument == 1:
            continue
        if argument <= 0:
            raise InvalidArgument(f"log of a non-positive number {abbreviated(argument)}")
        factor = sympy.Rational(coefficient.numerator, coefficient.denominator)
        if height(argument) > limit:
            large.append(factor * sympy.log(sympy.Integer(argument.numerator)))
            large.append(-factor * sympy.log(sympy.Integer(argument.denominator)))
            continue
        parts.append(factor * sympy.log(sympy.Rational(argument.numerator, argument.denominator)))
    if not parts and not large:
        return Fraction(0)
    return as_scalar(sympy.Add(sympy.expand_log(sympy.Add(*parts), force=True), *large))


def expanded_log(value: sympy.Expr) -> sympy.Expr:
    """``expand_log(value, force=True)`` unless an integer in ``value`` has more than
    ``Bounds.root_bits`` bits (its perfect-power search would take minutes): then ``value``."""
    limit = current_bounds().root_bits
    for atom in value.atoms(sympy.Rational):
        if max(abs(atom.p).bit_length(), atom.q.bit_length()) > limit:
            return value
    return sympy.expand_log(value, force=True)


def column_maxima(rows: Sequence[Sequence[Fraction]], weights: Sequence[Fraction]) -> Fraction:
    """``Σ_y max_x w(x) C(x, y)``: the posterior Bayes vulnerability of weights ``w``."""
    if not rows:
        return Fraction(0)
    width = len(rows[0])
    return sum(
        (max(w * row[j] for w, row in zip(weights, rows, strict=True)) for j in range(width)),
        Fraction(0),
    )
