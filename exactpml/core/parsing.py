"""Reading exact numbers from text: exactpml's own grammar, evaluated exactly, never executed.

Every string entry -- a mechanism row, a prior, a JSON file, a command-line option, an ε --
is read by :func:`parse_exact` and by nothing else.  The text is tokenised and parsed by a
small recursive-descent parser; no part of it is handed to ``eval``, ``exec``, ``sympify``
or ``parse_expr``, so a file can be opened as safely as a CSV.

Grammar (Python's precedence; ``^`` is accepted for ``**``)::

    expression := term (("+" | "-") term)*
    term       := unary (("*" | "/") unary)*
    unary      := ("+" | "-") unary | power
    power      := atom (("**" | "^") unary)?
    atom       := number | constant | symbol | function "(" arguments ")" | "(" expression ")"
    number     := digits ["." digits] [("e" | "E") ["+" | "-"] digits]      (also ".5", "5.")
    constant   := pi | E | oo
    function   := log | ln | exp | sqrt | Abs | abs | Max | max | Min | min
                  | binomial | factorial

Symbols are only the names the caller declares (``symbols={"t": Symbol("t", positive=True)}``).
Decimals are exact (``"0.1"`` is 1/10, ``"1e-30 + 1/3"`` is exact); arithmetic on rationals
stays in :class:`fractions.Fraction`; anything irrational or symbolic becomes a sympy
expression built from the parsed tree.  Every operation is checked against
:class:`~exactpml.core.bounds.Bounds` *before* it is carried out, so ``"10**10**10"`` or
``"1e999999999"`` is refused in microseconds; so is ``exp(q)`` of a rational beyond
``Bounds.exponential_argument`` (no certified ball encloses it, and sympy's own printer
evaluates it: ``repr`` of ``exp(10**5000) - 1`` does not end).  Every problem raises an
:class:`~exactpml.errors.InvalidArgument` naming the entry (``where``).

>>> parse_exact("0.5 + 1/123456789")
Fraction(123456791, 246913578)
>>> parse_exact("2^-3 * (1 - 1e-2)")
Fraction(99, 800)
>>> parse_exact("log(9/5)")
log(9/5)
>>> parse_exact("__import__('os')", where="row 'a', output 0")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
exactpml.errors.InvalidArgument: row 'a', output 0: cannot read "__import__('os')" as a number: ...
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

import sympy

from exactpml.core._integer_arithmetic import reduced_fraction
from exactpml.core.abbreviate import abbreviated, cut
from exactpml.core.bounds import Bounds, current_bounds, exceeded
from exactpml.errors import InvalidArgument

__all__ = ["CONSTANTS", "FUNCTIONS", "parse_exact"]

Value: TypeAlias = Fraction | sympy.Expr

_TOKEN = re.compile(
    r"""
    \s*(?:
      (?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
     |(?P<name>[A-Za-z_][A-Za-z_0-9]*)
     |(?P<op>\*\*|[-+*/^(),])
     |(?P<other>\S)
    )""",
    re.VERBOSE | re.ASCII,  # the digits 0-9 only: int() would read '١٢' as 12
)
_NUMBER = re.compile(r"(?P<int>\d*)(?:\.(?P<frac>\d*))?(?:[eE](?P<exp>[+-]?\d+))?", re.ASCII)
_SHOWN_TEXT = 80  # characters of the entry's text quoted in a message
_FLINT_BITS = 8_000  # above this size a rational operation reduces by FLINT's gcd
_FREE_BITS = 64  # operations on rationals this small are not charged to parse_work

CONSTANTS = ("pi", "E", "oo")
"""The named constants of the grammar (oo: infinity, refused wherever a finite value is due)."""

FUNCTIONS = (
    "log",
    "ln",
    "exp",
    "sqrt",
    "Abs",
    "abs",
    "Max",
    "max",
    "Min",
    "min",
    "binomial",
    "factorial",
)
"""The functions of the grammar (``log(x, b)`` is the log of x to base b)."""

_NOT_FINITE = {"nan", "inf", "infinity", "zoo"}
_MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-"})


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "number", "name", "op", "end"
    text: str
    position: int


def _int_of_digits(digits: str) -> int:
    """``int(digits)`` for a digit string already checked against the bounds.

    Python refuses ``int()`` of more than 4300 digits (a guard against quadratic time); the
    bound ``decimal_digits`` is exactpml's own guard, so convert in chunks below it.
    """
    if len(digits) <= 4000:
        return int(digits or "0")
    half = len(digits) // 2
    return _int_of_digits(digits[:half]) * 10 ** (len(digits) - half) + _int_of_digits(
        digits[half:]
    )


class _Reader:
    """One parse: tokens, the current position, the declared symbols and the bounds."""

    def __init__(
        self, text: str, where: str, symbols: Mapping[str, sympy.Symbol], bounds: Bounds
    ) -> None:
        self.text = text
        self.where = where
        self.symbols = symbols
        self.bounds = bounds
        self.tokens = self._tokenise(text)
        self.index = 0
        self.depth = 0
        self.work = 0  # bit-products of the operations so far (bound parse_work)

    # --- errors ---------------------------------------------------------------------------
    def error(self, problem: str) -> InvalidArgument:
        prefix = f"{self.where}: " if self.where else ""
        return InvalidArgument(f"{prefix}cannot read {self.shown} as a number: {problem}")

    @property
    def shown(self) -> str:
        """The entry's text, quoted, cut to its two ends when long."""
        return cut(repr(self.text), _SHOWN_TEXT)

    def plain_error(self, problem: str) -> InvalidArgument:
        prefix = f"{self.where}: " if self.where else ""
        return InvalidArgument(f"{prefix}{problem}")

    # --- tokens -----------------------------------------------------------------------------
    def _tokenise(self, text: str) -> list[_Token]:
        tokens = []
        position = 0
        while position < len(text):
            match = _TOKEN.match(text, position)
            if match is None or match.end() == position:  # only trailing whitespace is left
                break
            kind = match.lastgroup
            assert kind is not None
            value = match.group(kind)
            if kind == "other":
                kind_of = " (only the ASCII digits 0-9 are digits)" if value.isdigit() else ""
                raise self.error(
                    f"unexpected character {value!r} at position {match.start(kind)}{kind_of}"
                )
            tokens.append(_Token(kind, value, match.start(kind)))
            position = match.end()
        tokens.append(_Token("end", "", len(text)))
        return tokens

    def peek(self) -> _Token:
        return self.tokens[self.index]

    def take(self) -> _Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def expect(self, text: str) -> None:
        token = self.take()
        if token.text != text:
            shown = "the end" if token.kind == "end" else repr(token.text)
            raise self.error(f"expected {text!r} at position {token.position}, found {shown}")

    def enter(self) -> None:
        self.depth += 1
        if self.depth > self.bounds.expression_depth:
            raise exceeded(self.where, "the expression is nested too deeply", "expression_depth")

    # --- grammar ------------------------------------------------------------------------------
    def parse(self) -> Value:
        value = self.expression()
        token = self.peek()
        if token.kind != "end":
            raise self.error(f"unexpected {token.text!r} at position {token.position}")
        return self.checked_result(value)

    def expression(self) -> Value:
        value = self.term()
        terms: list[Value] | None = None  # once a term is symbolic, the sum is formed once
        while self.peek().text in ("+", "-"):
            operator_text = self.take().text
            right = self.term()
            if terms is None and type(value) is Fraction and type(right) is Fraction:
                value = self.rational(
                    value, right, operator.add if operator_text == "+" else operator.sub
                )
                continue
            if terms is None:
                terms = [value]
            terms.append(right if operator_text == "+" else self.neg(right))
        return value if terms is None else self.add(terms)

    def term(self) -> Value:
        value = self.unary()
        factors: list[Value] | None = None  # once a factor is symbolic, the product is formed once
        while self.peek().text in ("*", "/"):
            operator_text = self.take().text
            right = self.unary()
            if factors is None and type(value) is Fraction and type(right) is Fraction:
                if operator_text == "/" and right == 0:
                    raise self.plain_error(f"{self.shown} divides by zero")
                value = self.rational(
                    value, right, operator.mul if operator_text == "*" else operator.truediv
                )
                continue
            if factors is None:
                factors = [value]
            factors.append(right if operator_text == "*" else self.inverse(right))
        return value if factors is None else self.multiply(factors)

    def unary(self) -> Value:
        token = self.peek()
        if token.text in ("+", "-"):
            self.take()
            self.enter()
            operand = self.unary()
            self.depth -= 1
            return operand if token.text == "+" else self.neg(operand)
        return self.power()

    def power(self) -> Value:
        base = self.atom()
        if self.peek().text in ("**", "^"):
            self.take()
            self.enter()
            exponent = self.unary()
            self.depth -= 1
            return self.raise_to(base, exponent)
        return base

    def atom(self) -> Value:
        token = self.take()
        if token.kind == "number":
            return self.number(token.text)
        if token.text == "(":
            self.enter()
            value = self.expression()
            self.expect(")")
            self.depth -= 1
            return value
        if token.kind == "name":
            if self.peek().text == "(":
                return self.call(token.text)
            return self.name(token.text)
        shown = "the end of the text" if token.kind == "end" else repr(token.text)
        raise self.error(f"expected a number at position {token.position}, found {shown}")

    def number(self, text: str) -> Fraction:
        match = _NUMBER.fullmatch(text)
        assert match is not None  # the tokeniser admits only this shape
        whole, fraction_part = match.group("int"), match.group("frac") or ""
        digits = (whole + fraction_part).lstrip("0")
        if len(digits) > self.bounds.decimal_digits:
            raise exceeded(
                self.where, f"the number has {len(digits)} significant digits", "decimal_digits"
            )
        exponent_text = match.group("exp") or "0"
        exponent_digits = len(exponent_text.lstrip("+-").lstrip("0"))
        if exponent_digits > len(str(self.bounds.decimal_exponent)):
            raise exceeded(
                self.where,
                f"the exponent {cut(exponent_text, 24)} ({exponent_digits} digits) is too large",
                "decimal_exponent",
            )
        exponent = int(exponent_text)
        if abs(exponent) > self.bounds.decimal_exponent:
            raise exceeded(self.where, f"the exponent {exponent} is too large", "decimal_exponent")
        mantissa = _int_of_digits(digits)
        scale = exponent - len(fraction_part)
        if mantissa == 0:
            return Fraction(0)
        if scale >= 0:
            return self.checked(Fraction(mantissa * 10**scale))
        return self.checked(Fraction(mantissa, 10**-scale))

    def name(self, name: str) -> Value:
        if name in self.symbols:
            return self.symbols[name]
        if name == "pi":
            return sympy.pi
        if name == "E":
            return sympy.E
        if name == "oo":
            return sympy.oo
        if name.lower() in _NOT_FINITE:
            raise self.plain_error(f"{self.shown} is not a finite number")
        if name in FUNCTIONS:
            raise self.error(f"the function {name} needs an argument in parentheses")
        raise self.plain_error(
            f"{self.shown} uses the name {name!r}, which is not a declared symbol (a symbol of "
            f"unknown sign cannot be validated); declare it: symbols={{{name!r}: "
            f"Symbol({name!r}, positive=True)}}"
        )

    def call(self, name: str) -> Value:
        function = _FUNCTION_TABLE.get(name)
        if function is None or name in self.symbols:
            raise self.error(
                f"{name}(...) is not a supported function (supported: {', '.join(FUNCTIONS)})"
            )
        self.expect("(")
        self.enter()
        arguments = [self.expression()]
        while self.peek().text == ",":
            self.take()
            arguments.append(self.expression())
        self.expect(")")
        self.depth -= 1
        arity = _ARITY[name]
        if not arity[0] <= len(arguments) <= arity[1]:
            raise self.error(f"{name} takes {_arity_text(arity)}, got {len(arguments)}")
        return function(self, *arguments)

    # --- exact arithmetic -----------------------------------------------------------------------
    # A sum or product is formed once from all its terms (sympy flattens a growing sum again
    # at every step: quadratic), rationals exactly in Fraction, each step charged to the
    # bound parse_work before it is done.
    def charge(self, *sizes: int) -> None:
        """Count an operation on operands of ``sizes`` bits against ``parse_work``."""
        work = 1
        for size in sizes:
            work *= max(size, 1)
        self.work += work
        if self.work > self.bounds.parse_work:
            raise exceeded(
                self.where,
                f"its arithmetic adds up to more than {self.bounds.parse_work} bit-products "
                "(the products of the operands' sizes in bits, summed over the operations)",
                "parse_work",
            )

    def checked(self, value: Value) -> Value:
        if type(value) is Fraction:
            bits = _bits(value)
            if bits > self.bounds.integer_bits:
                raise exceeded(self.where, f"an intermediate value has {bits} bits", "integer_bits")
            return value
        assert isinstance(value, sympy.Basic)
        if value is sympy.nan or value is sympy.zoo:
            raise self.plain_error(f"{self.shown} divides by zero or is not a number")
        if isinstance(value, sympy.Rational):
            return self.checked(Fraction(int(value.p), int(value.q)))
        return value  # the whole expression is checked once, at the end (checked_result)

    def checked_result(self, value: Value) -> Value:
        """The parsed value, checked in one pass: no NaN or complex infinity inside, every
        rational within ``integer_bits``."""
        if type(value) is Fraction:
            return value
        stack: list[sympy.Basic] = [value]
        while stack:
            node = stack.pop()
            if node is sympy.nan or node is sympy.zoo:
                raise self.plain_error(f"{self.shown} divides by zero or is not a number")
            if isinstance(node, sympy.Rational):
                bits = max(int(node.p).bit_length(), int(node.q).bit_length())
                if bits > self.bounds.integer_bits:
                    raise exceeded(
                        self.where, f"an intermediate value has {bits} bits", "integer_bits"
                    )
            stack.extend(node.args)
        return value

    def rational(
        self, a: Fraction, b: Fraction, operation: Callable[[Fraction, Fraction], Fraction]
    ) -> Fraction:
        """``operation(a, b)`` on two rationals, charged to ``parse_work`` and checked."""
        a_bits = max(a.numerator.bit_length(), a.denominator.bit_length())
        b_bits = max(b.numerator.bit_length(), b.denominator.bit_length())
        if a_bits > _FREE_BITS or b_bits > _FREE_BITS:  # small operations are not counted
            self.charge(a_bits, b_bits)
            if max(a_bits, b_bits) > _FLINT_BITS:
                return self.checked(_reduced(operation, a, b))
        result = operation(a, b)
        return self.checked(result)

    def _fold(
        self,
        values: list[Value],
        identity: int,
        operation: Callable[[Fraction, Fraction], Fraction],
        combine: Callable[..., sympy.Expr],
    ) -> Value:
        """The rationals folded by ``operation`` (each step charged), then one sympy node
        (``combine``: ``sympy.Add`` or ``sympy.Mul``) with the symbolic values, if any."""
        rational = Fraction(identity)
        symbolic: list[sympy.Expr] = []
        for value in values:
            if type(value) is Fraction:
                rational = self.rational(rational, value, operation)
            else:
                symbolic.append(value)
        if not symbolic:
            return rational
        return self.checked(combine(_sympy(rational), *symbolic))

    def add(self, terms: list[Value]) -> Value:
        return self._fold(terms, 0, operator.add, sympy.Add)

    def neg(self, a: Value) -> Value:
        return -a if type(a) is Fraction else self.checked(-_sympy(a))

    def inverse(self, a: Value) -> Value:
        if a == 0:
            raise self.plain_error(f"{self.shown} divides by zero")
        return 1 / a if type(a) is Fraction else self.checked(sympy.Pow(a, -1))

    def multiply(self, factors: list[Value]) -> Value:
        return self._fold(factors, 1, operator.mul, sympy.Mul)

    def raise_to(self, base: Value, exponent: Value) -> Value:
        bounds = self.bounds
        if type(exponent) is Fraction:
            p, q = exponent.numerator, exponent.denominator
            if type(base) is Fraction:
                if base == 0:
                    if exponent < 0:
                        raise self.plain_error(f"{self.shown} divides by zero")
                    return Fraction(0) if exponent > 0 else Fraction(1)
                if q == 1 and abs(base) == 1:
                    return base**p
                bits = max(base.numerator.bit_length(), base.denominator.bit_length())
                if (bits - 1) * abs(p) > bounds.integer_bits * q:  # a lower bound on the result
                    raise exceeded(
                        self.where,
                        f"the power {abbreviated(base)}**({abbreviated(exponent)}) has too many "
                        "bits",
                        "integer_bits",
                    )
                if q == 1:
                    result_bits = bits * abs(p)  # an upper bound; the last squaring is charged
                    self.charge(result_bits // 2, result_bits // 2)
                    return self.checked(base**p)
                if base < 0:
                    raise self.plain_error(
                        f"{self.shown}: a negative number to a non-integer power is not real"
                    )
                if bits > bounds.root_bits:
                    raise exceeded(
                        self.where, f"the root of a {bits}-bit number is too costly", "root_bits"
                    )
                if q > bounds.symbolic_exponent:
                    raise exceeded(
                        self.where, f"the root of degree {q} is too costly", "symbolic_exponent"
                    )
                return self.checked(sympy.Pow(_sympy(base), sympy.Rational(p, q)))
            if max(abs(p), q) > bounds.symbolic_exponent:
                raise exceeded(
                    self.where,
                    f"the exponent {abbreviated(exponent)} of {abbreviated(base)} is too large",
                    "symbolic_exponent",
                )
            return self.checked(sympy.Pow(_sympy(base), sympy.Rational(p, q)))
        if type(base) is Fraction and base < 0:
            raise self.plain_error(
                f"{self.shown}: a negative number to a non-rational power is not real"
            )
        return self.checked(sympy.Pow(_sympy(base), _sympy(exponent)))

    def integer_argument(self, name: str, value: Value, limit: int, bound: str) -> int:
        if type(value) is not Fraction or value.denominator != 1 or value < 0:
            raise self.error(
                f"{name} needs non-negative integer arguments, got {abbreviated(value)}"
            )
        if value > limit:
            raise exceeded(self.where, f"{name} of {abbreviated(value)} is too large", bound)
        return int(value)


def _bits(value: Fraction) -> int:
    return max(value.numerator.bit_length(), value.denominator.bit_length())


def _reduced(
    operation: Callable[[Fraction, Fraction], Fraction], a: Fraction, b: Fraction
) -> Fraction:
    """``a + b``, ``a - b``, ``a * b`` or ``a / b`` for large operands, reduced by one FLINT
    gcd (CPython's gcd is quadratic: 45 ms for 100 000-bit operands, against a few ms)."""
    if operation is operator.add or operation is operator.sub:
        right = b.numerator if operation is operator.add else -b.numerator
        numerator = a.numerator * b.denominator + right * a.denominator
        denominator = a.denominator * b.denominator
    elif operation is operator.mul:
        numerator = a.numerator * b.numerator
        denominator = a.denominator * b.denominator
    else:  # truediv, b != 0
        numerator = a.numerator * b.denominator
        denominator = a.denominator * b.numerator
        if denominator < 0:
            numerator, denominator = -numerator, -denominator
    return reduced_fraction(numerator, denominator)


def _sympy(value: Value) -> sympy.Expr:
    if type(value) is Fraction:
        return sympy.Rational(value.numerator, value.denominator)
    return value


def _log(reader: _Reader, value: Value, base: Value | None = None) -> Value:
    if type(value) is Fraction:
        if value <= 0:
            raise reader.plain_error(
                f"{reader.shown}: log of {abbreviated(value)} is not a finite real number"
            )
        if value == 1:
            return Fraction(0)
    if base is None:
        return reader.checked(sympy.log(_sympy(value)))
    if type(base) is Fraction and (base <= 0 or base == 1):
        raise reader.plain_error(
            f"{reader.shown}: log to the base {abbreviated(base)} is not defined"
        )
    return reader.checked(sympy.log(_sympy(value)) / sympy.log(_sympy(base)))


def _exp(reader: _Reader, value: Value) -> Value:
    if type(value) is Fraction:
        if value == 0:
            return Fraction(1)
        if abs(value) > reader.bounds.exponential_argument:  # no ball could enclose it, and
            raise exceeded(  # sympy's printer would evaluate it (exp(10**5000) - 1 hangs)
                reader.where,
                f"the argument {abbreviated(value)} of exp is too large",
                "exponential_argument",
            )
    return reader.checked(sympy.exp(_sympy(value)))


def _sqrt(reader: _Reader, value: Value) -> Value:
    return reader.raise_to(value, Fraction(1, 2))


def _abs(reader: _Reader, value: Value) -> Value:
    return abs(value) if type(value) is Fraction else reader.checked(sympy.Abs(_sympy(value)))


def _extreme(which: Callable[..., Value], symbolic: type) -> Callable[..., Value]:
    def extreme(reader: _Reader, *values: Value) -> Value:
        if all(type(v) is Fraction for v in values):
            return which(values)
        # evaluate=False: sympy would order the arguments by a 2-digit evalf; certify decides
        return reader.checked(symbolic(*(_sympy(v) for v in values), evaluate=False))

    return extreme


def _binomial(reader: _Reader, n: Value, k: Value) -> Value:
    limit = reader.bounds.factorial_argument
    top = reader.integer_argument("binomial", n, limit, "factorial_argument")
    bottom = reader.integer_argument("binomial", k, limit, "factorial_argument")
    return Fraction(math.comb(top, bottom))


def _factorial(reader: _Reader, n: Value) -> Value:
    limit = reader.bounds.factorial_argument
    return reader.checked(
        Fraction(
            math.factorial(reader.integer_argument("factorial", n, limit, "factorial_argument"))
        )
    )


_FUNCTION_TABLE: dict[str, Callable[..., Value]] = {
    "log": _log,
    "ln": _log,
    "exp": _exp,
    "sqrt": _sqrt,
    "Abs": _abs,
    "abs": _abs,
    "Max": _extreme(max, sympy.Max),
    "max": _extreme(max, sympy.Max),
    "Min": _extreme(min, sympy.Min),
    "min": _extreme(min, sympy.Min),
    "binomial": _binomial,
    "factorial": _factorial,
}
_ARITY = {
    "log": (1, 2),
    "ln": (1, 1),
    "exp": (1, 1),
    "sqrt": (1, 1),
    "Abs": (1, 1),
    "abs": (1, 1),
    "Max": (1, 1000),
    "max": (1, 1000),
    "Min": (1, 1000),
    "min": (1, 1000),
    "binomial": (2, 2),
    "factorial": (1, 1),
}


def _arity_text(arity: tuple[int, int]) -> str:
    low, high = arity
    if low == high:
        return f"{low} argument{'s' if low > 1 else ''}"
    return f"{low} to {high} arguments"


def parse_exact(
    text: str, *, where: str = "", symbols: Mapping[str, sympy.Symbol] | None = None
) -> Fraction | sympy.Expr:
    """The exact value of ``text`` in exactpml's grammar (module docstring), or an error.

    Args:
        text: the entry.
        where: the entry's place, named in every error (``"row 'b', output 1"``).
        symbols: the names the text may use as symbols, mapped to sympy symbols.

    Returns:
        a ``Fraction`` when the value is rational, else a sympy expression (which may still
        contain ``oo``: callers that need a finite value refuse it).

    Raises:
        InvalidArgument: the text is not in the grammar, uses an undeclared name, divides by
            zero or is not real; :class:`~exactpml.core.bounds.BoundExceeded` (a subclass)
            when reading it would exceed a bound.
    """
    bounds = current_bounds()
    prefix = f"{where}: " if where else ""
    if len(text) > bounds.entry_characters:
        raise exceeded(where, f"the text has {len(text)} characters", "entry_characters")
    stripped = text.strip().translate(_MINUS_SIGNS)
    if not stripped:
        raise InvalidArgument(f"{prefix}empty string is not a number")
    if stripped.lower().lstrip("+-") in _NOT_FINITE:
        raise InvalidArgument(f"{prefix}{text!r} is not a finite number")
    return _Reader(stripped, where, symbols or {}, bounds).parse()
