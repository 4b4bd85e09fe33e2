"""The one parameter policy: how ε, e^ε, δ, probabilities, noise scales, orders and sizes are read.

Every public function that takes one of these parameters validates it here, so the same
input gets the same answer and the same message everywhere (the model is Hypothesis's
``internal/validation.py``).  Messages have one shape: ``"{name}={value} must ..."``.

The rules, decided once:

* **Exact input only.** ints, ``Fraction``, ``Decimal``, strings in exactpml's grammar
  (:mod:`exactpml.core.parsing`), sympy numbers and expressions; floats raise
  :class:`~exactpml.errors.InexactInput`, complex numbers, NaN and bools
  :class:`~exactpml.errors.InvalidArgument`.
* **Symbols** must carry a sign assumption (``Symbol("t", positive=True)``) and are
  accepted wherever the parameter's range can be *proved* from the assumptions; a
  condition that is provably false is an error, one that cannot be proved is an error that
  says which assumption to declare.  Closed numbers (``exp(1/2)``, ``log(3)``) are decided
  by certified arithmetic or raise :class:`~exactpml.errors.Undecided`.
* **ε** is given as ``epsilon`` (a number, or a :class:`~exactpml.core.logvalue.LogValue`, whose
  ratio *is* e^ε) or as ``exp_epsilon`` (e^ε itself; a rational e^ε keeps every later step
  rational), never both.  ε = ∞ (``"oo"``, ``sympy.oo``, ``LogValue.infinity()``) is
  accepted everywhere: every mechanism is ∞-private, and δ(∞) is the mass a law puts where
  the other vanishes (the limit of δ(ε), dp_accounting's "infinity mass").  **Negative ε**
  (e^ε < 1, down to ε = -∞) is accepted only by functions that *evaluate a divergence* at ε
  (δ(ε), hockey-stick divergences, privacy-loss distributions), where it is meaningful;
  predicates (``is_…_private``) and mechanism constructors require ε ≥ 0.
* **δ and probabilities** lie in [0, 1] (or the open interval where a definition needs it).
* **Noise scales** are finite and positive; **orders** α of Rényi-type quantities are > 1
  or ∞; **sizes** (n, k, distance) are ints ≥ their minimum.

>>> exp_epsilon_of("1/2")
exp(1/2)
>>> exp_epsilon_of(exp_epsilon="3")
Fraction(3, 1)
>>> exp_epsilon_of("-1")
Traceback (most recent call last):
...
exactpml.errors.InvalidArgument: epsilon=-1 must not be negative
>>> exp_epsilon_of("-1", negative_allowed=True)
exp(-1)
>>> positive_scale("oo", name="scale")
Traceback (most recent call last):
...
exactpml.errors.InvalidArgument: scale=oo must be finite
"""

from __future__ import annotations

import sys
from fractions import Fraction

import sympy

from exactpml.core.abbreviate import abbreviated, cut
from exactpml.core.bounds import current_bounds, exceeded
from exactpml.core.decisions import exact_compare, prove_nonnegative, prove_positive
from exactpml.core.exact import Scalar, as_scalar, exact, exact_difference, to_sympy
from exactpml.core.logvalue import LogValue
from exactpml.errors import InvalidArgument

__all__ = [
    "epsilon_bound",
    "exp_epsilon_of",
    "height",
    "positive_integer",
    "positive_scale",
    "power_bits",
    "probability",
    "rational_interval",
    "real_number",
    "renyi_order",
    "short_count",
    "short_number",
    "tolerance",
    "tolerance_digits",
    "within_bound",
]

_INFINITIES = (sympy.oo, sympy.S.NegativeInfinity)


def _shown(value: object) -> str:
    """A parameter's value in a message: exact values abbreviated (``1000000000…0000000000
    (10000 digits)``), anything else by its ``repr`` cut to its ends."""
    if isinstance(value, (int, Fraction, sympy.Basic, LogValue)) and not isinstance(value, bool):
        return abbreviated(value)
    try:
        return cut(repr(value), 160)
    except Exception:  # a repr that fails (a huge int inside a container)
        return abbreviated(value)


def _decide(value: Scalar, proof: bool | None, *, name: str, shown: object, rule: str) -> None:
    """Refuse when ``proof`` (a three-valued test of the rule) is not True.

    Closed numbers are signed by certified arithmetic in :func:`exactpml.core.decisions.exact_sign`,
    which raises ``Undecided`` itself; what remains unknown here has free symbols.
    """
    if proof is True:
        return
    if proof is False:
        raise InvalidArgument(f"{name}={_shown(shown)} must {rule}")
    raise InvalidArgument(
        f"{name}={_shown(shown)} must {rule}, which cannot be proved from the assumptions of "
        "its symbols; declare them (e.g. positive=True or nonnegative=True)"
    )


def _sign_test(value: Scalar, strict: bool) -> bool | None:
    """Three-valued ``value > 0`` (``strict``) or ``value >= 0``: certified for closed numbers."""
    if type(value) is Fraction or not to_sympy(value).free_symbols:
        compared = exact_compare(value, Fraction(0))
        return compared > 0 if strict else compared >= 0
    return prove_positive(value) if strict else prove_nonnegative(value)


def real_number(
    value: object,
    *,
    name: str,
    rational: bool = False,
    symbolic: bool = True,
    infinite: bool = False,
) -> Scalar:
    """An exact real number: ``Fraction`` or sympy expression, refused when complex or NaN.

    Args:
        value: the user's value.
        name: the parameter's name, used in every message.
        rational: only rationals are accepted (e.g. a geometric noise's α).
        symbolic: expressions with free symbols are accepted (with known signs).
        infinite: ``oo`` and ``-oo`` are accepted.
    """
    if isinstance(value, complex):
        raise InvalidArgument(f"{name}={_shown(value)} must be a real number")
    if isinstance(value, sympy.Basic) and (value.has(sympy.I) or value.is_extended_real is False):
        raise InvalidArgument(f"{name}={_shown(value)} must be a real number")
    if isinstance(value, LogValue):
        raise InvalidArgument(
            f"{name}={_shown(value)} is a LogValue; pass a number here (LogValue stands for ε only)"
        )
    number = exact(value, where=name)
    if type(number) is Fraction:
        return number
    expr = to_sympy(number)
    if expr in _INFINITIES:
        if not infinite:
            raise InvalidArgument(f"{name}={_shown(expr)} must be finite")
        return number
    if expr.has(sympy.oo, sympy.S.NegativeInfinity, sympy.zoo, sympy.nan):
        raise InvalidArgument(f"{name}={_shown(expr)} must be a finite real number")
    if rational:
        raise InvalidArgument(f"{name}={_shown(expr)} must be a rational number")
    if expr.free_symbols and not symbolic:
        raise InvalidArgument(f"{name}={_shown(expr)} must be a number, not a symbolic expression")
    return number


def positive_scale(value: object, *, name: str, rational: bool = False) -> Scalar:
    """A finite, strictly positive number (a noise scale b, a sensitivity, ...); no symbols."""
    number = real_number(value, name=name, rational=rational, symbolic=False)
    _decide(number, _sign_test(number, True), name=name, shown=number, rule="be positive")
    return number


def probability(
    value: object,
    *,
    name: str,
    open_interval: bool = False,
    rational: bool = False,
    symbolic: bool = True,
) -> Scalar:
    """A number in [0, 1] (``open_interval``: in (0, 1)); symbols when the range is provable."""
    number = real_number(value, name=name, rational=rational, symbolic=symbolic)
    interval = "(0, 1)" if open_interval else "[0, 1]"
    rule = f"lie in {interval}"
    low = _sign_test(number, open_interval)
    high = _sign_test(exact_difference(Fraction(1), number), open_interval)
    if low is False or high is False:
        _decide(number, False, name=name, shown=number, rule=rule)
    _decide(number, low and high, name=name, shown=number, rule=rule)
    return number


def positive_integer(value: object, *, name: str, minimum: int = 1) -> int:
    """An ``int`` (not a bool) of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"{name}={_shown(value)} must be an int >= {minimum}")
    if value < minimum:
        raise InvalidArgument(f"{name}={_shown(value)} must be an int >= {minimum}")
    return value


def rational_interval(
    min_value: object, max_value: object, max_denominator: object, *, where: str
) -> tuple[Fraction, Fraction, int]:
    """[``min_value``, ``max_value``] with denominators at most ``max_denominator``: exact
    rational bounds (a float refused), ``min_value <= max_value``, both bounds' denominators
    at most ``max_denominator`` (an int >= 1), and the integers a draw in it forms (the
    bounds over a common scale, times a denominator) within the bound ``integer_bits``.
    ``where`` names the caller in every message (``"fractions"``)."""
    low = real_number(min_value, name=f"{where}: min_value", rational=True, symbolic=False)
    high = real_number(max_value, name=f"{where}: max_value", rational=True, symbolic=False)
    assert type(low) is Fraction and type(high) is Fraction  # rational=True
    denominators = positive_integer(max_denominator, name=f"{where}: max_denominator")
    if high < low:
        raise InvalidArgument(f"{where}: max_value={_shown(high)} is below min_value={_shown(low)}")
    for name, bound in (("min_value", low), ("max_value", high)):
        if bound.denominator > denominators:
            raise InvalidArgument(
                f"{where}: {name}={_shown(bound)} has a denominator above "
                f"max_denominator={denominators}"
            )
    bits = height(low) + height(high) + denominators.bit_length()
    within_bound(
        bits,
        "integer_bits",
        where=where,
        what=f"the bounds and max_denominator would draw integers of about {bits} bits",
    )
    return low, high, denominators


def renyi_order(value: object, *, name: str = "order", minimum: int = 1) -> Scalar:
    """An order α of a Rényi-type quantity: a rational > ``minimum`` (default 1) or ∞."""
    number = real_number(value, name=name, symbolic=False, infinite=True)
    if number is sympy.S.NegativeInfinity or (
        number is not sympy.oo and exact_compare(number, Fraction(minimum)) <= 0
    ):
        raise InvalidArgument(f"{name}={_shown(number)} must be greater than {minimum}")
    if number is not sympy.oo and type(number) is not Fraction:
        raise InvalidArgument(f"{name}={_shown(number)} must be a rational number or oo")
    return number


def exp_epsilon_of(
    epsilon: object = None,
    exp_epsilon: object = None,
    *,
    name: str = "epsilon",
    negative_allowed: bool = False,
    enclosed: bool = False,
) -> Scalar:
    """e^ε exactly, from ``epsilon`` (a number or a LogValue) or from ``exp_epsilon``.

    ``enclosed``: the caller computes with e^ε itself (a ratio, a power), not only compares
    ε: a rational ε beyond ``Bounds.exponential_argument`` is refused (no certified ball
    encloses e^ε; sympy's arithmetic on it would not end).

    Returns a ``Fraction`` when e^ε is rational (ε = 0, a LogValue of a rational, a rational
    ``exp_epsilon``), ``sympy.oo`` for ε = ∞, ``0`` for ε = -∞ (only when
    ``negative_allowed``), else the sympy expression ``exp(ε)``.  See the module docstring
    for the rules.
    """
    if epsilon is None and exp_epsilon is None:
        raise InvalidArgument(f"give {name} (a real number or a LogValue) or exp_epsilon")
    if epsilon is not None and exp_epsilon is not None:
        raise InvalidArgument(f"give either {name} or exp_epsilon, not both")
    if isinstance(epsilon, LogValue):
        return _checked_ratio(epsilon.ratio, name=name, shown=epsilon, negative=negative_allowed)
    if epsilon is None:
        ratio = real_number(exp_epsilon, name="exp_epsilon", infinite=True)
        if ratio is sympy.S.NegativeInfinity or _sign_test(ratio, False) is False:
            raise InvalidArgument(f"exp_epsilon={_shown(ratio)} must not be negative (e^ε > 0)")
        return _checked_ratio(ratio, name="exp_epsilon", shown=ratio, negative=negative_allowed)
    value = real_number(epsilon, name=name, infinite=True)
    if value is sympy.oo:
        return sympy.oo
    if value is sympy.S.NegativeInfinity:
        if not negative_allowed:
            raise InvalidArgument(f"{name}=-oo must not be negative")
        return Fraction(0)
    if not negative_allowed:
        _decide(value, _sign_test(value, False), name=name, shown=value, rule="not be negative")
    if type(value) is Fraction and value == 0:
        return Fraction(1)
    if enclosed and type(value) is Fraction and abs(value) > current_bounds().exponential_argument:
        raise exceeded(  # no certified ball encloses e^ε: the caller computes with e^ε itself
            "",
            f"{name}={abbreviated(value)} makes e^{name} too large to enclose",
            "exponential_argument",
        )
    return as_scalar(sympy.exp(to_sympy(value)))


def _checked_ratio(ratio: Scalar, *, name: str, shown: object, negative: bool) -> Scalar:
    """A ratio e^ε given directly: ``oo`` for ε = ∞; below 1 only when ``negative``."""
    if ratio is sympy.oo:
        return ratio
    if not negative:
        above_one = _sign_test(exact_difference(ratio, Fraction(1)), False)
        if name == "exp_epsilon" and above_one is False:
            raise InvalidArgument(f"exp_epsilon={_shown(ratio)} must be at least 1 (epsilon >= 0)")
        if above_one is False:
            raise InvalidArgument(
                f"{name}={_shown(shown)} must not be negative "
                f"(its ratio e^ε = {_shown(ratio)} is below 1)"
            )
        _decide(ratio, above_one, name=name, shown=shown, rule="not be negative")
    return ratio


def epsilon_bound(
    epsilon: object = None,
    exp_epsilon: object = None,
    *,
    name: str = "epsilon",
) -> LogValue:
    """ε as a :class:`LogValue` (its ratio e^ε exact, ∞ allowed): the bound of a predicate."""
    ratio = exp_epsilon_of(epsilon, exp_epsilon, name=name)
    return LogValue.infinity() if ratio is sympy.oo else LogValue(ratio)


# --- predicted costs (issue 21): a parameter's cost checked against exactpml.Bounds ---------
def height(value: Fraction) -> int:
    """The size of a rational in bits: the longer of its numerator and denominator.

    >>> height(Fraction(-255, 16))
    8
    """
    return max(abs(value.numerator).bit_length(), value.denominator.bit_length())


def power_bits(base_height: int, exponent: Fraction | int) -> int:
    """Predicted bits of r^e for a rational r of ``base_height`` bits: ⌈|e|⌉ · base_height.

    For a non-integer e sympy forms the integer part r^⌊e⌋ exactly and keeps a root of r,
    so the size grows with |e|, not with e's numerator (``power_bits(2, Fraction(3, 2))``
    is 4, as for r^2).

    >>> power_bits(2, Fraction(3, 2)), power_bits(7, 10**6)
    (4, 7000000)
    """
    size = abs(Fraction(exponent))
    return -(-size.numerator // size.denominator) * base_height


def short_number(value: Fraction) -> str:
    """``value`` as text when it is short, else its size (messages never print 10^4 digits).

    >>> short_number(Fraction(1, 10**6)), short_number(Fraction(1, 10**9999))
    ('1/1000000', 'a rational of about 2^-33215')
    """
    if height(value) <= 128:
        return str(value)
    if value == 0:  # pragma: no cover - 0 has height 1
        return "0"
    exponent = abs(value.numerator).bit_length() - value.denominator.bit_length()
    sign = "-" if value < 0 else ""
    return f"a rational of about {sign}2^{exponent}"


def short_count(value: int) -> str:
    """A count as text when it has at most 20 digits, else its size as a power of two.

    >>> short_count(10**6), short_count(10**999)
    ('1000000', '2^3319')
    """
    if abs(value) < 10**20:
        return str(value)
    return f"2^{abs(value).bit_length()}"


def within_bound(predicted: int, bound: str, *, where: str, what: str) -> int:
    """``predicted`` itself when it is at most the field ``bound`` of the current Bounds.

    Otherwise :class:`~exactpml.core.bounds.BoundExceeded`: "{where}: {what}, above the bound
    {bound}={limit} (raise it with exactpml.use_bounds(...))"; ``what`` names the parameter
    and the predicted size (``"order=10**6 would form Σ p^α of about 1584963 bits"``).
    """
    from exactpml.core.bounds import current_bounds, exceeded

    if predicted > getattr(current_bounds(), bound):
        raise exceeded(where, what, bound)
    return predicted


def count_within(values: object, bound: str, *, where: str, what: str) -> None:
    """Refuse a sized collection (``range(10**18)``) with more items than the field ``bound``
    of the current Bounds, before anything iterates over it; an iterable without ``len`` is
    left to the caller (it is counted as it is read)."""
    if not hasattr(values, "__len__"):
        return
    try:
        count = len(values)
    except OverflowError:  # more than sys.maxsize items
        raise exceeded(where, f"more than {sys.maxsize} {what}", bound) from None
    except Exception:  # a len that raises: the caller reads it and reports it
        return
    within_bound(count, bound, where=where, what=f"{count} {what}")


def tolerance_digits(value: Fraction) -> int:
    """⌈log2(1/value)⌉ for a positive rational below 1 (0 from 1 up): the bits it resolves.

    >>> [tolerance_digits(Fraction(n, 1024)) for n in (1, 3, 1024)]
    [10, 9, 0]
    """
    if value >= 1:
        return 0
    digits = value.denominator.bit_length() - value.numerator.bit_length()
    while Fraction(1, 2**digits) > value:  # at most two corrections: digits is ⌊⌋ or ⌈⌉ - 1
        digits += 1
    while digits > 0 and Fraction(1, 2 ** (digits - 1)) <= value:
        digits -= 1
    return digits


def tolerance(
    value: object, *, name: str = "tolerance", where: str = "", relative: bool = False
) -> Fraction:
    """A tolerance: a positive rational (``relative``: in (0, 1)) of bounded precision.

    A certified bracket at most ``value`` wide needs balls of about log2(1/value) bits, and
    its iterations or bisections grow with that, so ⌈log2(1/value)⌉ is checked against
    ``Bounds.tolerance_bits`` (:class:`~exactpml.core.bounds.BoundExceeded` above it).

    >>> tolerance("1/1000000")
    Fraction(1, 1000000)
    >>> tolerance("1e-9999", where="shannon_capacity")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactpml.core.bounds.BoundExceeded: shannon_capacity: tolerance=a rational of about 2^-33215 \
asks for 33216 binary digits, above the bound tolerance_bits=100 ...
    """
    if relative:
        number = probability(value, name=name, open_interval=True, rational=True)
    else:
        number = positive_scale(value, name=name, rational=True)
    assert type(number) is Fraction
    digits = tolerance_digits(number)
    within_bound(
        digits,
        "tolerance_bits",
        where=where,
        what=f"{name}={short_number(number)} asks for {digits} binary digits",
    )
    return number
