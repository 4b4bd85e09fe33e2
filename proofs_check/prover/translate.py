"""Translate a :class:`~proofs_check.prover.domain.Problem` into real arithmetic for z3.

z3's nlsat procedure decides the first-order theory of the reals for quantifier-free
formulas (Jovanović and de Moura, "Solving non-linear arithmetic", IJCAR 2012); it sees only
polynomials.  The sympy tree is translated node by node (never through text):

* ``+``, ``*``, integer powers, rationals and variables directly;
* ``1/d``: a fresh ``v`` with ``v * d = 1`` (so ``d != 0``);
* ``b**(p/q)``: a fresh ``s >= 0`` with ``s**q = b`` (the principal root, ``b >= 0``);
* ``Abs``, ``Max``, ``Min``: z3's ``If``;
* ``exp(c0 + c1 x1 + ...)`` with rational ``c`` when each ``x`` appears only inside such
  exponentials: ``w = e^{x/L}`` ranges over the image of ``x``'s interval (an irrational end
  is enlarged to a rational outer bound: proving on a superset is sound, and a model outside
  the true domain is re-checked, never reported unverified);
* a closed transcendental constant (``pi``, ``E``, ``log(2)``, ``exp(1/3)``): a fresh variable
  in a rational enclosure (again a superset);
* the whole statement ``sum r_i log(a_i) + c >= 0`` becomes ``prod a_i^{L r_i} >= e^{-cL}``
  (both sides positive: exact since ``log`` is increasing), and ``a exp(A) - a exp(B) >= 0``
  becomes ``A >= B``.

Each fresh variable's definition is recorded with the condition under which its node is
defined, and each way the statement can be undefined (a denominator vanishing, a logarithm of
a nonpositive number, a root of a negative one) as a *failure*: the engine first asks whether
a point of the domain is a failure, then whether one violates the statement.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy
from flint import ctx as flint_ctx

from exactpml.core.certify import enclosure
from exactpml.errors import ExactPMLError
from proofs_check.prover.domain import Problem
from proofs_check.prover.intervals import arb_fraction

__all__ = ["Translation", "Untranslatable", "translate"]

MAX_DEGREE = 100
"""The largest integer exponent handed to z3 (nlsat's work grows quickly with the degree)."""


class Untranslatable(Exception):
    """The statement is outside what the z3 route handles (the reason is the message)."""


@dataclass
class Translation:
    """The z3 side of a problem: constraints, the target ``target >= 0`` (``> 0`` strict), and
    how to read a model back."""

    z3: Any
    context: Any
    target: Any
    domain: list[Any] = field(default_factory=list)
    hypotheses: list[Any] = field(default_factory=list)
    definitions: list[tuple[Any, Any]] = field(default_factory=list)
    failures: list[Any] = field(default_factory=list)
    plain: dict[sympy.Symbol, Any] = field(default_factory=dict)
    exponential: dict[sympy.Symbol, tuple[Any, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    enlarged: bool = False


def _fraction(value: sympy.Rational) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def _outer_bound(value: sympy.Expr, *, below: bool) -> Fraction:
    try:
        ball = enclosure(value, 128)
    except ExactPMLError as error:
        raise Untranslatable(f"cannot enclose {value}: {error}") from None
    with flint_ctx.workprec(128):
        end = ball.lower() if below else ball.upper()
    if not end.is_finite():
        raise Untranslatable(f"cannot enclose {value}")
    return arb_fraction(end)


class _Translator:
    def __init__(self, z3: Any, context: Any, translation: Translation):
        self.z3 = z3
        self.context = context
        self.translation = translation
        self.memo: dict[sympy.Basic, Any] = {}
        self.fresh = 0
        self.unconditional = True  # definitions from hypotheses hold unconditionally

    def value(self, number: Fraction) -> Any:
        return self.z3.RealVal(f"{number.numerator}/{number.denominator}", self.context)

    def new_variable(self, prefix: str) -> Any:
        self.fresh += 1
        return self.z3.Real(f"{prefix}!{self.fresh}", self.context)

    def define(self, constraint: Any, defined: Any) -> None:
        when = self.z3.BoolVal(True, self.context) if self.unconditional else defined
        self.translation.definitions.append((constraint, when))

    def power(self, base: Any, exponent: int) -> Any:
        if exponent > MAX_DEGREE:
            raise Untranslatable(f"a power of degree {exponent} (z3 route stops at {MAX_DEGREE})")
        result = None
        square = base
        while exponent:
            if exponent & 1:
                result = square if result is None else result * square
            exponent >>= 1
            if exponent:
                square = square * square
        return result

    def reciprocal(self, denominator: Any) -> Any:
        inverse = self.new_variable("inv")
        self.define(inverse * denominator == 1, denominator != 0)
        self.translation.failures.append(denominator == 0)
        return inverse

    def constant(self, node: sympy.Basic) -> Any:
        low = _outer_bound(node, below=True)
        high = _outer_bound(node, below=False)
        variable = self.new_variable("const")
        self.translation.domain.extend([variable >= self.value(low), variable <= self.value(high)])
        self.translation.enlarged = True
        self.translation.notes.append(f"{node} enclosed in [{low}, {high}]")
        return variable

    def term(self, node: sympy.Basic) -> Any:
        cached = self.memo.get(node)
        if cached is None:
            cached = self._term(node)
            self.memo[node] = cached
        return cached

    def _term(self, node: sympy.Basic) -> Any:
        z3 = self.z3
        translation = self.translation
        if isinstance(node, sympy.Rational):
            return self.value(_fraction(node))
        if isinstance(node, sympy.Symbol):
            if node in translation.plain:
                return translation.plain[node]
            raise Untranslatable(f"{node} appears both inside exp and outside it")
        if isinstance(node, sympy.Add):
            terms = [self.term(argument) for argument in node.args]
            return z3.Sum(terms) if len(terms) > 1 else terms[0]
        if isinstance(node, sympy.Mul):
            factors = [self.term(argument) for argument in node.args]
            result = factors[0]
            for factor in factors[1:]:
                result = result * factor
            return result
        if isinstance(node, sympy.Pow):
            base, exponent = node.args
            if exponent.is_Integer:
                k = int(exponent)
                if k == 0:
                    return self.value(Fraction(1))
                raised = self.power(self.term(base), abs(k))
                return raised if k > 0 else self.reciprocal(raised)
            if exponent.is_Rational:
                p, q = int(exponent.p), int(exponent.q)
                if q > MAX_DEGREE or abs(p) > MAX_DEGREE:
                    raise Untranslatable(f"the power {node} has a large exponent")
                inner = self.term(base)
                root = self.new_variable("root")
                self.define(z3.And(root >= 0, self.power(root, q) == inner), inner >= 0)
                translation.failures.append(inner < 0)
                raised = self.power(root, abs(p))
                return raised if p > 0 else self.reciprocal(raised)
            if not node.free_symbols:
                return self.constant(node)
            raise Untranslatable(f"the power {node} has a symbolic exponent")
        if not node.free_symbols:
            return self.constant(node)
        if isinstance(node, sympy.exp):
            return self.exponential(node)
        if isinstance(node, sympy.Abs):
            inner = self.term(node.args[0])
            return z3.If(inner >= 0, inner, -inner)
        if isinstance(node, (sympy.Max, sympy.Min)):
            values = [self.term(argument) for argument in node.args]
            result = values[0]
            for value in values[1:]:
                if isinstance(node, sympy.Max):
                    result = z3.If(result >= value, result, value)
                else:
                    result = z3.If(result <= value, result, value)
            return result
        raise Untranslatable(f"{type(node).__name__} ({str(node)[:60]}) is not supported")

    def exponential(self, node: sympy.exp) -> Any:
        argument = sympy.expand(node.args[0])
        constant = Fraction(0)
        result = None
        for term, coefficient in argument.as_coefficients_dict().items():
            if not isinstance(coefficient, sympy.Rational):
                raise Untranslatable(f"exp of {argument}: a coefficient is not rational")
            if term == 1:
                constant += _fraction(coefficient)
                continue
            if term not in self.translation.exponential:
                raise Untranslatable(f"exp of {argument} is not linear in exp-only variables")
            w, scale = self.translation.exponential[term]
            k = _fraction(coefficient) * scale
            assert k.denominator == 1
            raised = self.power(w, abs(int(k)))
            factor = raised if k > 0 else self.reciprocal(raised)
            result = factor if result is None else result * factor
        if constant:
            factor = self.constant(sympy.exp(sympy.Rational(constant.numerator,
                                                            constant.denominator)))
            result = factor if result is None else result * factor
        return result if result is not None else self.value(Fraction(1))


def _log_form(gap: sympy.Expr) -> tuple[sympy.Expr, list[sympy.Expr], str] | None:
    """``sum r_i log(a_i) + c`` as (``prod_{r>0} a^{rL} - e^{-cL} prod_{r<0} a^{-rL}``, the
    arguments, a note), or None."""
    logs: list[tuple[Fraction, sympy.Expr]] = []
    constant = Fraction(0)
    for term in sympy.Add.make_args(gap):
        coefficient, rest = term.as_coeff_Mul()
        if not isinstance(coefficient, sympy.Rational):
            return None
        if rest == 1:
            constant += _fraction(coefficient)
        elif isinstance(rest, sympy.log) and len(rest.args) == 1 and rest.free_symbols:
            logs.append((_fraction(coefficient), rest.args[0]))
        else:
            return None
    if not logs:
        return None
    scale = math.lcm(*(r.denominator for r, _ in logs))
    positive = sympy.Integer(1)
    negative = sympy.Integer(1)
    for r, argument in logs:
        k = int(abs(r) * scale)
        if k > MAX_DEGREE:
            raise Untranslatable(f"log coefficients {r} need degree {k}")
        if r > 0:
            positive = positive * sympy.Pow(argument, k, evaluate=False)
        else:
            negative = negative * sympy.Pow(argument, k, evaluate=False)
    if constant:
        negative = sympy.exp(sympy.Rational(-constant * scale)) * negative
    target = positive - negative
    note = "sum of logs compared through the product of their arguments (log is increasing)"
    return target, [argument for _, argument in logs], note


def _exp_form(gap: sympy.Expr) -> tuple[sympy.Expr, str] | None:
    """``a exp(A) - a exp(B)`` as ``A - B`` (``a > 0``) or ``B - A``, else None."""
    terms = sympy.Add.make_args(gap)
    if len(terms) != 2:
        return None
    pieces = []
    for term in terms:
        coefficient, rest = term.as_coeff_Mul()
        if not isinstance(coefficient, sympy.Rational) or not isinstance(rest, sympy.exp):
            return None
        pieces.append((coefficient, rest.args[0]))
    (a, first), (b, second) = pieces
    if a != -b:
        return None
    target = first - second if a > 0 else second - first
    return target, "exp(A) <= exp(B) compared through A <= B (exp is increasing)"


def _exp_only_variables(problem: Problem, exprs: list[sympy.Expr]) -> dict[sympy.Symbol, int]:
    """Variables that appear only linearly inside exp arguments, with the lcm L of their
    coefficients' denominators there."""
    inside: dict[sympy.Symbol, int] = {}
    outside: set[sympy.Symbol] = set()
    real = {v.working for v in problem.ranges if not v.integer}

    def visit(node: sympy.Basic) -> None:
        if isinstance(node, sympy.exp):
            argument = sympy.expand(node.args[0])
            for term, coefficient in argument.as_coefficients_dict().items():
                if term in real and isinstance(coefficient, sympy.Rational):
                    inside[term] = math.lcm(inside.get(term, 1), int(coefficient.q))
                else:
                    outside.update(term.free_symbols)
            return
        if isinstance(node, sympy.Symbol):
            outside.add(node)
            return
        for argument in node.args:
            visit(argument)

    for expr in exprs:
        visit(expr)
    return {symbol: scale for symbol, scale in inside.items() if symbol not in outside}


def translate(problem: Problem, z3: Any, context: Any) -> Translation:
    """The z3 constraints of ``problem`` (raises :class:`Untranslatable` with the reason)."""
    if any(variable.integer and not variable.pinned and variable.integer_count() is not None
           for variable in problem.ranges):
        raise Untranslatable("finite integer variables are pinned one value at a time")
    notes: list[str] = []
    target = problem.gap
    log_arguments: list[sympy.Expr] = []
    log_form = _log_form(target)
    if log_form is not None:
        target, log_arguments, note = log_form
        notes.append(note)
    else:
        exp_form = _exp_form(target)
        if exp_form is not None:
            target, note = exp_form
            notes.append(note)
    hypotheses = [hypothesis.difference for hypothesis in problem.hypotheses]
    conditions = [condition.expr for condition in problem.conditions]
    exp_only = _exp_only_variables(problem, [target, *log_arguments, *hypotheses, *conditions])
    translation = Translation(z3=z3, context=context, target=None, notes=notes)
    for variable in problem.ranges:
        symbol = variable.working
        if symbol in exp_only:
            scale = exp_only[symbol]
            w = z3.Real(f"exp({variable.name}/{scale})", context)
            translation.exponential[symbol] = (w, scale)
            translation.domain.append(w > 0)
            for end, below, is_open in ((variable.lower, True, variable.lower_open),
                                        (variable.upper, False, variable.upper_open)):
                if end is None:
                    continue
                irrational = variable.exact_lower if below else variable.exact_upper
                if end == 0 and irrational is None:
                    bound = Fraction(1)
                    exact_end = True
                else:
                    bound = _outer_bound(sympy.exp(sympy.Rational(end.numerator,
                                                                  end.denominator * scale)),
                                         below=below)
                    exact_end = False
                    translation.enlarged = True
                value = z3.RealVal(f"{bound.numerator}/{bound.denominator}", context)
                if below:
                    translation.domain.append(w > value if is_open and exact_end else w >= value)
                else:
                    translation.domain.append(w < value if is_open and exact_end else w <= value)
            notes.append(f"w = exp({variable.name}/{scale})" if scale != 1
                         else f"w = exp({variable.name})")
            continue
        if variable.integer and not variable.pinned:
            z = z3.Int(variable.name, context)
        else:
            z = z3.Real(variable.name, context)
        translation.plain[symbol] = z
        for end, below, is_open in ((variable.lower, True, variable.lower_open),
                                    (variable.upper, False, variable.upper_open)):
            if end is None:
                continue
            value = z3.RealVal(f"{end.numerator}/{end.denominator}", context)
            exact_end = not (variable.exact_lower if below else variable.exact_upper)
            strict = is_open and exact_end
            if below:
                translation.domain.append(z > value if strict else z >= value)
            else:
                translation.domain.append(z < value if strict else z <= value)
    translator = _Translator(z3, context, translation)
    for hypothesis in problem.hypotheses:
        left = translator.term(hypothesis.left)
        right = translator.term(hypothesis.right)
        operator = {
            "==": lambda a, b: a == b,
            "!=": lambda a, b: a != b,
            "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b,
            ">": lambda a, b: a > b,
            ">=": lambda a, b: a >= b,
        }[hypothesis.relation]
        translation.hypotheses.append(operator(left, right))
    translator.unconditional = False
    for argument in log_arguments:
        value = translator.term(argument)
        translation.failures.append(value <= 0)
    for condition in problem.conditions:  # from lhs and rhs: the gap may have cancelled them
        value = translator.term(condition.expr)
        zero = translator.value(Fraction(0))
        translation.failures.append(
            {"positive": value <= zero, "nonnegative": value < zero, "nonzero": value == zero}[
                condition.kind]
        )
    translation.target = translator.term(target)
    if translation.enlarged:
        notes.append("irrational ends or constants enclosed by rationals (z3 works on a "
                     "superset of the domain)")
    return translation
