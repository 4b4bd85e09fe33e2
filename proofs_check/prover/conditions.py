"""Where a statement is defined, and the hypotheses that restrict its domain.

:func:`definedness_conditions` lists, innermost first, what makes an expression a real number:
denominators nonzero, arguments of ``log`` positive, bases of fractional powers nonnegative.
A statement is proved only where it is defined, and a point where it is undefined is never a
counterexample.  A :class:`Hypothesis` keeps a relation unevaluated: sympy would decide a
closed relation from a low-precision ``evalf``; the engines decide it exactly.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

import sympy

__all__ = ["RELATION_SYMBOLS", "Condition", "Hypothesis", "definedness_conditions"]


def _short(expr: object, limit: int = 120) -> str:
    text = str(expr)
    return text if len(text) <= limit else f"{text[: limit // 2]} ... {text[-limit // 2 :]}"


@dataclass(frozen=True, slots=True)
class Condition:
    """Where the statement is defined: ``expr > 0``, ``expr >= 0`` or ``expr != 0``.

    ``origin`` says which node needs it (``"log(1 + x)"``, ``"1/(x - 1)"``).
    """

    expr: sympy.Expr
    kind: str  # "positive", "nonnegative", "nonzero"
    origin: str

    def text(self) -> str:
        relation = {"positive": "> 0", "nonnegative": ">= 0", "nonzero": "!= 0"}[self.kind]
        return f"{_short(self.expr, 60)} {relation} (for {_short(self.origin, 60)})"


def definedness_conditions(expr: sympy.Basic) -> tuple[Condition, ...]:
    """The conditions under which ``expr`` is a real number, innermost first.

    >>> x = sympy.Symbol("x", real=True)
    >>> [c.text() for c in definedness_conditions(sympy.log(1 + 1 / x))]
    ['x != 0 (for 1/x)', '1 + 1/x > 0 (for log(1 + 1/x))']

    The answer depends on the expression alone and is remembered: the proofs of a claim ask
    about the same statements again (and the engines about the same subexpressions).
    """
    return _conditions_of(expr)


@functools.lru_cache(maxsize=4096)
def _conditions_of(expr: sympy.Basic) -> tuple[Condition, ...]:
    """:func:`definedness_conditions`, remembered (least recently used dropped)."""
    found: dict[tuple[sympy.Expr, str], Condition] = {}

    def visit(node: sympy.Basic) -> None:
        if isinstance(node, sympy.Sum):  # its terms are checked when it is evaluated
            return
        for argument in node.args:
            visit(argument)
        if not node.free_symbols:
            return
        if isinstance(node, sympy.Pow):
            base, exponent = node.args
            if exponent.is_Integer:
                if exponent.is_negative:
                    found.setdefault((base, "nonzero"), Condition(base, "nonzero", str(node)))
            elif exponent.is_Rational:
                kind = "nonnegative" if exponent.is_positive else "positive"
                found.setdefault((base, kind), Condition(base, kind, str(node)))
            elif exponent.is_integer:
                if not exponent.is_nonnegative:
                    found.setdefault((base, "nonzero"), Condition(base, "nonzero", str(node)))
            else:
                found.setdefault((base, "positive"), Condition(base, "positive", str(node)))
        elif isinstance(node, sympy.log):
            argument = node.args[0]
            found.setdefault((argument, "positive"), Condition(argument, "positive", str(node)))

    visit(expr)
    return tuple(found.values())


RELATION_SYMBOLS = {
    sympy.Eq: "==",
    sympy.Ne: "!=",
    sympy.Lt: "<",
    sympy.Le: "<=",
    sympy.Gt: ">",
    sympy.Ge: ">=",
}


@dataclass(frozen=True, slots=True)
class Hypothesis:
    """One restriction of the domain, ``left relation right``, kept unevaluated (sympy would
    decide a closed relation from a low-precision ``evalf``; the engines decide it exactly).

    ``relation`` is one of ``"=="``, ``"!="``, ``"<"``, ``"<="``, ``">"``, ``">="``.
    """

    left: sympy.Expr
    right: sympy.Expr
    relation: str

    @property
    def difference(self) -> sympy.Expr:
        """``left - right``: the hypothesis compares it with 0."""
        return self.left - self.right

    def holds_for_sign(self, sign: int) -> bool:
        """Whether the hypothesis holds when ``left - right`` has sign ``sign``."""
        return {
            "==": sign == 0,
            "!=": sign != 0,
            "<": sign < 0,
            "<=": sign <= 0,
            ">": sign > 0,
            ">=": sign >= 0,
        }[self.relation]

    def substitute(self, mapping: Mapping[sympy.Basic, sympy.Basic]) -> Hypothesis:
        return Hypothesis(self.left.xreplace(mapping), self.right.xreplace(mapping),
                          self.relation)

    def __str__(self) -> str:
        return f"{self.left} {self.relation} {self.right}"
