"""exactpml for test suites: exact assertions, Hypothesis profiles, a pytest plugin.

Installed with exactpml, the pytest plugin (entry point ``pytest11``) registers three
Hypothesis profiles — ``exactpml-dev`` (60 examples), ``exactpml-ci`` (150, derandomized)
and ``exactpml-thorough`` (2000), all without deadline or example database (exact
arithmetic has no meaningful per-example time limit) — and the option
``--exactpml-profile NAME`` that loads one.  The assertions compare exactly (rationals) or
certified (closed transcendental numbers, by interval arithmetic), never by floats, and on
failure show both exact values (a number of more than 50 digits by its ends and digit count),
their certified decimals and the difference, in at most 300 characters.

>>> from fractions import Fraction
>>> from exactpml import LogValue
>>> assert_exact_equal(LogValue(Fraction(9, 5)), LogValue(Fraction(9, 5)))
>>> assert_exact_equal(Fraction(1, 3), Fraction(333, 1000))
Traceback (most recent call last):
...
AssertionError: not exactly equal: 1/3 (0.3333333333) != 333/1000 (0.3330000000); difference 1/3000
"""

from __future__ import annotations

from typing import Any

import sympy

from exactpml.core import boundary as _boundary
from exactpml.core import certify
from exactpml.core.abbreviate import abbreviated, cut
from exactpml.core.decisions import exact_compare
from exactpml.core.exact import as_scalar, exact, to_sympy
from exactpml.core.logvalue import LogValue
from exactpml.errors import MESSAGE_CHARACTERS

__all__ = [
    "PROFILES",
    "assert_exact_equal",
    "assert_exact_less_equal",
    "register_profiles",
]

_SHOWN_CHARACTERS = 90  # of each value in a failure message (capped at MESSAGE_CHARACTERS)

#: Hypothesis profiles by name, with max_examples and whether examples are derandomized.
PROFILES = {
    "exactpml-dev": (60, False),
    "exactpml-ci": (150, True),
    "exactpml-thorough": (2000, False),
}


def register_profiles() -> None:
    """Register the ``exactpml-*`` Hypothesis profiles (idempotent)."""
    from hypothesis import HealthCheck, settings

    for name, (examples, derandomize) in PROFILES.items():
        settings.register_profile(
            name,
            max_examples=examples,
            derandomize=derandomize,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )


def _scalar(value: Any) -> Any:
    if isinstance(value, LogValue):
        return as_scalar(value.to_sympy())
    return exact(value, where="a compared value")


def _show(value: Any) -> str:
    """The value (abbreviated: a 5000-digit number shows its ends and length) and, when closed,
    its certified decimal."""
    expression = to_sympy(_scalar(value))
    shown = abbreviated(value, _SHOWN_CHARACTERS)
    if expression.free_symbols or expression in (sympy.oo, -sympy.oo):
        return shown
    return f"{shown} ({certify.decimal(expression, 10)})"


def _difference(actual: Any, expected: Any) -> str:
    difference = to_sympy(_scalar(actual)) - to_sympy(_scalar(expected))
    return abbreviated(difference, _SHOWN_CHARACTERS)


def assert_exact_equal(actual: Any, expected: Any) -> None:
    """``actual == expected`` exactly or certified; a readable AssertionError otherwise."""
    if exact_compare(_scalar(actual), _scalar(expected)) != 0:
        raise AssertionError(
            cut(
                f"not exactly equal: {_show(actual)} != {_show(expected)}; "
                f"difference {_difference(actual, expected)}",
                MESSAGE_CHARACTERS,
            )
        )


def assert_exact_less_equal(actual: Any, bound: Any) -> None:
    """``actual <= bound`` exactly or certified; a readable AssertionError otherwise."""
    if exact_compare(_scalar(actual), _scalar(bound)) > 0:
        raise AssertionError(
            cut(
                f"not <= : {_show(actual)} exceeds {_show(bound)} by {_difference(actual, bound)}",
                MESSAGE_CHARACTERS,
            )
        )


def _hypothesis_setup_hook() -> None:
    """Hypothesis entry point: ``st.from_type`` draws exactpml's value objects.

    The strategies are deferred, so ``import hypothesis`` imports no exactpml strategy
    module until one is drawn.
    """
    from hypothesis import strategies as st

    from exactpml.core.distribution import Distribution
    from exactpml.core.mechanism import Mechanism
    from exactpml.database import DatabaseMechanism, DatabaseSpace

    def deferred(name: str) -> Any:
        def build() -> Any:
            import exactpml.strategies as xst

            return getattr(xst, name)()

        return st.deferred(build)

    st.register_type_strategy(Distribution, deferred("distributions"))
    st.register_type_strategy(Mechanism, deferred("mechanisms"))
    st.register_type_strategy(DatabaseMechanism, deferred("database_mechanisms"))
    st.register_type_strategy(DatabaseSpace, deferred("database_spaces"))


# --- the pytest plugin (entry point pytest11 = exactpml.testing) ---------------------------
def pytest_addoption(parser: Any) -> None:
    """``--exactpml-profile NAME``: load one of the exactpml Hypothesis profiles."""
    parser.addoption(
        "--exactpml-profile",
        choices=sorted(PROFILES),
        default=None,
        help="load this exactpml Hypothesis profile (no deadline, no example database)",
    )


def pytest_configure(config: Any) -> None:
    """Register the profiles; load the one named by ``--exactpml-profile``."""
    register_profiles()
    name = config.getoption("--exactpml-profile", default=None)
    if name:
        from hypothesis import settings

        settings.load_profile(name)


_boundary.guard_public_names(globals())  # every public name behind its boundary
