"""Bounds on the work that reading one input may cost: documented, checked, configurable.

exactpml reads numbers from strings, JSON files and the command line, and certifies signs by
interval arithmetic.  Each of those can be asked for unbounded work (``"10**10**10"``, a JSON
number ``1e-999999999``, a million-digit decimal, ``--digits 10000000``, the sign of
``exp(exp(exp(100))) - 1``).  Every such read is checked against the bounds below *before*
the work is done, and refused with :class:`BoundExceeded` naming the entry, the bound and
how to raise it.

The defaults admit every input a paper needs (a 10 000-digit decimal is read exactly) and
refuse within milliseconds what would take minutes.  Change them for a block of code::

    >>> from exactpml.core.bounds import current_bounds, use_bounds
    >>> current_bounds().decimal_digits
    10000
    >>> with use_bounds(decimal_digits=50_000):
    ...     current_bounds().decimal_digits
    50000

The setting is a context variable: it applies to the current thread or task only.

Python itself refuses to convert an int of more than 4300 digits to text
(:func:`sys.set_int_max_str_digits`, a guard against quadratic-time parsing).  exactpml never
calls ``int()`` on unbounded text -- its reading is bounded by ``decimal_digits`` -- so its
printers lift that limit while they render an exact result (:func:`big_integer_printing`)::

    >>> with big_integer_printing():
    ...     len(str(10**5000))
    5001
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from exactpml.core.abbreviate import abbreviated_repr, big_integer_printing
from exactpml.errors import InvalidArgument

__all__ = [
    "BoundExceeded",
    "Bounds",
    "big_integer_printing",
    "current_bounds",
    "exceeded",
    "use_bounds",
]


class BoundExceeded(InvalidArgument):
    """An input asks for more work than a bound of :class:`Bounds` allows.

    ``bound`` is the field's name (``"decimal_digits"``, ...), ``limit`` its value.
    """

    def __init__(self, message: str, *, bound: str = "", limit: int | None = None) -> None:
        super().__init__(message)
        self.bound = bound
        self.limit = limit


@dataclass(frozen=True, slots=True)
class Bounds:
    """The limits on reading and deciding one value (every field a positive int).

    Attributes:
        entry_characters: characters of one string entry (``"3/10"``, ``"1 - t"``).
        expression_depth: nesting of parentheses, function calls and unary signs in one entry.
        decimal_digits: digits of one decimal literal, ``Decimal`` or JSON number.
        decimal_exponent: size of the exponent of scientific notation (``1e-30``: 30).
        integer_bits: bits of every integer (numerator or denominator) formed while reading
            an entry, powers included: ``2**(2**64)`` is refused before it is computed.
        parse_work: the work of reading one entry, counted before each exact operation as the
            product of its operands' sizes in bits (a power as its last squaring): a chain of
            products of 100 000-bit fractions is refused after a few dozen steps, where each
            literal and each intermediate value is within ``integer_bits``.
        root_bits: bits of a rational raised to a non-integer power (sympy's root
            extraction takes 17 s on a 20 000-bit base; 0.3 s at 4 096 bits).
        symbolic_exponent: size of an integer exponent of a symbolic base (``(1-t)**n``).
        factorial_argument: largest n of ``factorial(n)`` and ``binomial(n, k)`` in an entry.
        file_bytes: size of one input file.
        json_depth: nesting depth of arrays and objects in one JSON file.
        certified_precision: working precision (bits) at which certified numerics stop and
            report ``Undecided``.
        exponential_argument: size of ``x`` in ``exp(x)`` that certified numerics enclose
            (``exp(x)`` needs about ``log2(x)`` extra bits; beyond this bound the value is
            refused as ``Undecided`` rather than computed for minutes).
        zero_test_degree: the degree (predicted before any expansion) of the polynomial
            whose vanishing proves an expression zero (``exp(1/p)`` for a prime ``p`` is a
            power ``W**(L/p)`` of ``W = exp(1/L)``; three such primes near 10^5 give degrees
            near 10^15); past it the proof takes a cheaper route or the sign is ``Undecided``.
        output_digits: decimal digits a caller may request (``--digits``, ``decimal(...)``).
        loss_atoms: atoms of a privacy-loss distribution formed by an exact composition
            (the product of the supports off a lattice, the degree plus one on a lattice).
        exact_bits: bits of one exact number a computation is predicted to form from its
            parameters: a power p^α of a Rényi-type quantity at order α, e^{kε} of a
            composition theorem, δ^{-1/(α-1)} of a conversion (Python's gcd is quadratic:
            0.15 s at 2^18 bits, 3 s at 2^20).
        loss_bits: predicted size of a composed privacy-loss law, in bits: the numerators
            and denominators of every atom together, plus 2^11 per atom formed (the time of
            building one atom is about that of 2^11 bits); k-fold randomized response has
            Θ(k²) bits.
        tolerance_bits: binary digits log2(1/tolerance) that a certified bracket (a
            capacity, zCDP ρ, a Gaussian calibration) may be asked to resolve; the working
            precision of the balls follows the tolerance.
        table_entries: entries of a table built from parameters: a gain function
            (guesses × secrets), a channel product or cascade (inputs × outputs), a
            subsampled mechanism (databases × outputs).
        iteration_work: kernel-entry updates an iteration or enumeration may be budgeted
            (capacity iterations: max_steps × inputs × outputs; sub-uniform priors of the
            additive Bayes capacity: 2^inputs × inputs × outputs; the products of
            posterior g-vulnerability: outputs × guesses × secrets).
        lattice_points: points of a certified lattice privacy-loss distribution (the
            composed length, predicted before composing: ``dpsgd_epsilon``, ``CertifiedPLD``).
        lattice_bits: bits of precision of the masses of a certified lattice PLD.
        accounting_steps: compositions k of one certified accounting (``dpsgd_epsilon``).
    """

    entry_characters: int = 100_000
    expression_depth: int = 100
    decimal_digits: int = 10_000
    decimal_exponent: int = 10_000
    integer_bits: int = 200_000
    parse_work: int = 2**37
    root_bits: int = 4_096
    symbolic_exponent: int = 1_000
    factorial_argument: int = 10_000
    file_bytes: int = 64 * 2**20
    json_depth: int = 100
    certified_precision: int = 2**14
    exponential_argument: int = 2**20
    zero_test_degree: int = 50_000
    output_digits: int = 100_000
    loss_atoms: int = 1_000_000
    exact_bits: int = 2**18
    loss_bits: int = 2**26
    tolerance_bits: int = 100
    table_entries: int = 2**22
    iteration_work: int = 2**24
    lattice_points: int = 4_000_000
    lattice_bits: int = 1_024
    accounting_steps: int = 10**9

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidArgument(
                    f"Bounds.{field.name}={abbreviated_repr(value)} must be a positive int."
                )

    def __repr__(self) -> str:  # a bound of any size (10**5000 bits) prints by its ends
        fields = ", ".join(
            f"{field.name}={abbreviated_repr(getattr(self, field.name))}"
            for field in dataclasses.fields(self)
        )
        return f"Bounds({fields})"


_CURRENT: contextvars.ContextVar[Bounds] = contextvars.ContextVar(
    "exactpml_bounds",
    default=Bounds(),  # noqa: B039 - Bounds is a frozen dataclass
)


def current_bounds() -> Bounds:
    """The bounds in force in this thread or task."""
    return _CURRENT.get()


@contextlib.contextmanager
def use_bounds(**changes: int) -> Iterator[Bounds]:
    """Raise or lower some bounds inside a ``with`` block (the others keep their values).

    Unknown names raise :class:`~exactpml.errors.InvalidArgument`.
    """
    known = {field.name for field in dataclasses.fields(Bounds)}
    unknown = sorted(set(changes) - known)
    if unknown:
        raise InvalidArgument(
            f"use_bounds: unknown bound(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    bounds = dataclasses.replace(current_bounds(), **changes)
    token = _CURRENT.set(bounds)
    try:
        yield bounds
    finally:
        _CURRENT.reset(token)


def exceeded(where: str, what: str, bound: str) -> BoundExceeded:
    """The error for ``what`` (e.g. "the decimal has 12000 digits") above ``bound``."""
    limit = getattr(current_bounds(), bound)
    prefix = f"{where}: " if where else ""
    return BoundExceeded(
        f"{prefix}{what}, above the bound {bound}={abbreviated_repr(limit)} "
        f"(raise it with exactpml.use_bounds({bound}=...))",
        bound=bound,
        limit=limit,
    )
