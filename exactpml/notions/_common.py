"""Shared pieces of the privacy notions: results with witnesses, ε parsing, exact signs.

Every decision here is exact (rational arithmetic, or sympy assumptions for symbolic
entries) or certified (:mod:`exactpml.certify` for closed transcendental numbers such as
``exp(1/2)``); nothing is decided by a float.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import sympy

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import exact_compare as compare_scalars
from exactpml.core.decisions import exact_sign as sign_of
from exactpml.core.display import abbreviated_fields_repr
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar
from exactpml.core.logvalue import LogValue
from exactpml.core.parameters import epsilon_bound, exp_epsilon_of
from exactpml.errors import InvalidArgument

__all__ = [
    "UnexpandedExp",
    "WorstCase",
    "bounded_explicit",
    "check_distribution_pair",
    "compare_scalars",
    "epsilon_bound",
    "exp_epsilon_value",
    "sign_of",
]

Label = Hashable


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class WorstCase:
    """A privacy parameter's exact value and the inputs and output that attain it.

    Attributes:
        value: the parameter: a :class:`LogValue` for ε-type notions (ε-DP, free lunch,
            local DP), an exact scalar for δ and statistical distances.
        database: x of the worst pair (None when there is no pair, e.g. ``|D| = 1``).
        neighbour: x' of the worst pair (for local DP: the entries d and d').
        output: the worst output y (ε-type notions), else None.
        event: the worst event S (δ(ε): {y : p(y|x) > e^ε p(y|x')}; statistical distance:
            {y : p(y|x) > p(y|x')}), else None.
        attained: False when the value is a supremum that no output attains (continuous
            outputs); the witness then approaches it.
    """

    value: Any
    database: Any = None
    neighbour: Any = None
    output: Any = None
    event: frozenset[Label] | None = None
    attained: bool = True

    @property
    def epsilon(self) -> LogValue:
        """The value, for ε-type results."""
        if not isinstance(self.value, LogValue):
            raise InvalidArgument("this result is not an epsilon (its value is not a LogValue)")
        return self.value

    def __str__(self) -> str:
        parts = [f"value={abbreviated(self.value, None)}"]
        if self.database is not None:
            parts.append(f"database={_short(self.database)}")
            parts.append(f"neighbour={_short(self.neighbour)}")
        if self.output is not None:
            parts.append(f"output={abbreviated(self.output, None)}")
        if self.event is not None:
            parts.append(f"event={sorted(map(str, self.event))}")
        if not self.attained:
            parts.append("not attained")
        return "WorstCase(" + ", ".join(parts) + ")"


def _short(database: object) -> str:
    return abbreviated_repr(database, 80)  # a tuple of any size, in a few ms


def exp_epsilon_value(
    epsilon: object = None,
    exp_epsilon: object = None,
    *,
    name: str = "epsilon",
    negative_allowed: bool = False,
) -> Scalar:
    """e^ε exactly (the one parameter policy, :func:`exactpml.core.parameters.exp_epsilon_of`).

    >>> exp_epsilon_value(exp_epsilon="3")
    Fraction(3, 1)
    >>> exp_epsilon_value(LogValue(3))
    Fraction(3, 1)
    >>> exp_epsilon_value("1/2")
    exp(1/2)
    """
    return exp_epsilon_of(epsilon, exp_epsilon, name=name, negative_allowed=negative_allowed)


def check_distribution_pair(p: object, q: object) -> tuple[Distribution, Distribution]:
    """``(p, q)`` checked: two Distributions on the same outcomes (else InvalidArgument)."""
    for name, value in (("p", p), ("q", q)):
        if not isinstance(value, Distribution):
            raise InvalidArgument(f"{name} must be a Distribution, got {type(value).__name__}")
    assert isinstance(p, Distribution) and isinstance(q, Distribution)
    if set(p.outcomes) != set(q.outcomes):
        raise InvalidArgument("p and q must be distributions on the same outcomes")
    return p, q


class UnexpandedExp(sympy.exp):
    """e^x kept as it is: never rewritten as a power r^k, however it is rebuilt.

    sympy turns ``exp(k*log(r))`` into the integer ``r**k`` whenever it builds it -- on
    construction, unpickling, ``func(*args)`` or inside a product -- which for k = 10^8 is a
    number of 3·10^8 bits.  This subclass never evaluates (``eval`` returns None) and is an
    opaque factor in products (``as_base_exp`` is itself to the power 1), so e^{kε} with a
    huge k stays a short exact expression.  It prints as ``exp``; certified arithmetic
    (:mod:`exactpml.certify`) encloses it as the exp it is, and log of it is its argument.
    sympy's ``simplify`` may still rewrite it (it builds plain powers): keep such values in
    the log domain.

    >>> value = UnexpandedExp(10**8 * sympy.log(10))
    >>> print(value, sympy.log(value))
    exp(100000000*log(10)) 100000000*log(10)
    >>> import pickle
    >>> pickle.loads(pickle.dumps(value)) == value
    True
    """

    @classmethod
    def eval(cls, arg: sympy.Expr) -> None:
        return None

    def as_base_exp(self) -> tuple[sympy.Expr, sympy.Expr]:
        return self, sympy.S.One

    def _eval_power(self, other: sympy.Expr) -> None:
        return None


UnexpandedExp.__name__ = "exp"  # how sympy's printers name the function


def bounded_explicit(mechanism: Any, *, where: str) -> Any:
    """``mechanism.explicit()`` (its kernel on all of D^n), refused first when D^n has more
    than ``Bounds.table_entries`` databases (a structured mechanism on 10^6 records)."""
    from exactpml.core.parameters import short_count, within_bound
    from exactpml.database import StructuredDatabaseMechanism

    if isinstance(mechanism, StructuredDatabaseMechanism):
        space = mechanism.space
        databases = len(space.alphabet) ** space.size
        within_bound(
            databases,
            "table_entries",
            where=where,
            what=f"the explicit kernel on D^n (n={space.size}) would have "
            f"{short_count(databases)} rows",
        )
    return mechanism.explicit()
