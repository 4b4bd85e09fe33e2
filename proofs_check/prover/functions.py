"""An expression with what branch-and-bound asks of it: its interval program, its partial
derivatives, its definedness conditions, its factors.

Derivatives are sympy's ``diff`` of the expression itself; an expression with a non-smooth
node (``Abs``, ``Max``, ``Min``, ...) has none, so that monotonicity is only ever argued from
a true derivative.  Factors come from sympy's ``factor`` of the ``together`` form, equal to the
expression wherever it is defined.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import sympy

from proofs_check.prover.conditions import definedness_conditions
from proofs_check.prover.intervals import Program, UnsupportedExpression

__all__ = ["Function"]

_NONSMOOTH = (sympy.Abs, sympy.Max, sympy.Min, sympy.sign, sympy.Heaviside, sympy.Piecewise,
              sympy.floor, sympy.ceiling)
_UNEVALUATED = (sympy.Derivative, sympy.Subs, sympy.DiracDelta)


@functools.lru_cache(maxsize=4096)
def _derived(expr: sympy.Expr, variable: sympy.Symbol) -> sympy.Expr | None:
    """sympy's partial derivative of a smooth ``expr``, or None when sympy fails or leaves
    anything unevaluated or non-smooth in it.  Kept per expression: branch-and-bound meets the
    same expression again as a new :class:`Function` (a negation's derivative, a factor met
    twice): 98 derivatives of 40 distinct expressions in prop_4_6's proof."""
    try:
        derived = sympy.diff(expr, variable)
    except Exception:  # sympy can fail on exotic trees; no derivative then
        return None
    if derived.has(*_UNEVALUATED, *_NONSMOOTH):
        return None
    return derived


@functools.lru_cache(maxsize=4096)
def _factored(expr: sympy.Expr) -> sympy.Expr | None:
    """sympy's ``factor`` of the ``together`` form of ``expr`` (None when sympy fails), kept
    per expression (27 factorisations of 13 distinct expressions in prop_4_6's proof)."""
    try:
        return sympy.factor(sympy.together(expr))
    except Exception:  # sympy can fail on exotic trees; no factorisation then
        return None


class Function:
    """An expression with its compiled program and (lazily) its partial derivatives."""

    def __init__(self, expr: sympy.Expr, variables: Sequence[sympy.Symbol]):
        self.expr = expr
        self.variables = tuple(variables)
        self._program: Program | bool | None = False
        self._derivatives: dict[int, Function | None] = {}
        self._negated: Function | None = None
        self._conditions: list[tuple[Function, str]] | None = None
        self._factors: list[tuple[Function, int]] | bool | None = False
        self._factored: sympy.Expr | bool | None = False  # sympy's factor, once asked
        self.smooth = not expr.has(*_NONSMOOTH)

    def conditions(self) -> list[tuple[Function, str]]:
        """Where the expression is defined (:func:`.domain.definedness_conditions`)."""
        if self._conditions is None:
            self._conditions = [
                (Function(condition.expr, self.variables), condition.kind)
                for condition in definedness_conditions(self.expr)
            ]
        return self._conditions

    def program(self) -> Program | None:
        if self._program is False:
            try:
                self._program = Program(self.expr, self.variables)
            except UnsupportedExpression:
                self._program = None
        return self._program  # type: ignore[return-value]

    def derivative(self, index: int) -> Function | None:
        """A new :class:`Function` for the partial derivative in ``variables[index]`` (the
        same one on every call), or None (not smooth, or sympy failed)."""
        if index not in self._derivatives:
            result = None
            if self.smooth:
                partner = self._negated
                if partner is not None and index in partner._derivatives:
                    # d(-f) = -(df), from the negation's derivative already taken: 10 of the
                    # 40 sympy.diff calls of prop_4_6's proof (sympy's own expressions for d(-f))
                    known = partner._derivatives[index]
                    derived = None if known is None else -known.expr
                else:
                    derived = _derived(self.expr, self.variables[index])
                if derived is not None:
                    result = Function(derived, self.variables)
            self._derivatives[index] = result
        return self._derivatives[index]

    def _factorisation(self) -> sympy.Expr | None:
        """sympy's ``factor`` of the ``together`` form (None when sympy fails); for the
        negation of a function already factored, minus its factorisation."""
        if self._factored is False:
            partner = self._negated
            known = None if partner is None else partner._factored
            if known is not None and known is not False:
                self._factored = -known
            else:
                self._factored = _factored(self.expr)
        return self._factored

    def factors(self) -> list[tuple[Function, int]] | None:
        """``expr`` as a product of powers ``prod base**k`` (sympy's ``factor`` of the
        ``together`` form, equal to ``expr`` wherever ``expr`` is defined), or None when that
        gives a single factor."""
        if self._factors is False:
            result: list[tuple[Function, int]] | None = None
            factored = self._factorisation()
            if factored is not None and isinstance(factored, (sympy.Mul, sympy.Pow)):
                pieces: list[tuple[Function, int]] = []
                for factor in sympy.Mul.make_args(factored):
                    base, exponent = factor.as_base_exp()
                    if not factor.free_symbols:
                        pieces.append((Function(factor, self.variables), 1))
                    elif exponent.is_Integer:
                        pieces.append((Function(base, self.variables), int(exponent)))
                    else:
                        pieces.append((Function(factor, self.variables), 1))
                if len(pieces) > 1 or (pieces and pieces[0][1] != 1):
                    for piece, _ in pieces:
                        piece._factors = None  # one level of factorisation
                    result = pieces
            self._factors = result
        return self._factors  # type: ignore[return-value]

    def negated(self) -> Function:
        if self._negated is None:
            self._negated = Function(-self.expr, self.variables)
            self._negated._negated = self
        return self._negated
