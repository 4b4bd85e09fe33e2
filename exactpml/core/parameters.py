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

from fractions import Fraction

import sympy

from exactpml.core.abbreviate import abbreviated, cut
from exactpml.core.decisions import exact_compare, prove_nonnegative, prove_positive
from exactpml.core.exact import Scalar, as_scalar, exact, exact_difference, to_sympy
from exactpml.core.logvalue import LogValue
from exactpml.errors import InvalidArgument

__all__ = [
    "epsilon_bound",
    "exp_epsilon_of",
    "positive_integer",
    "positive_scale",
    "probability",
    "real_number",
    "renyi_order",
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
) -> Scalar:
    """e^ε exactly, from ``epsilon`` (a number or a LogValue) or from ``exp_epsilon``.

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
