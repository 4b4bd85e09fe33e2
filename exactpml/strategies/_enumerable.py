"""Where a strategy comes from: the registry that lets a small scope be inferred from it.

Every strategy function of :mod:`exactpml.strategies` is defined with :func:`composite`
(``st.composite`` that also records the function).  :func:`strategy_origin` recovers, from a
strategy object such a function returned, which function it was and with which arguments
(defaults applied): the small-scope phase of ``proofs_check.property_holds`` looks the
function up in its table of enumerators and enumerates exactly the small objects the
strategy can produce with those arguments.  No repr is parsed: the origin is read from the
strategy object Hypothesis builds (its definition and the arguments it was called with).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ParamSpec, TypeVar

from hypothesis import strategies as st

from exactpml.core.boundary import boundary
from exactpml.errors import InvalidArgument
from exactpml.strategies._errors import StrategyArgumentError

__all__ = ["StrategyOrigin", "composite", "strategy_origin"]

P = ParamSpec("P")
Ex = TypeVar("Ex")

_FACTORIES: dict[Callable[..., Any], Callable[..., st.SearchStrategy[Any]]] = {}
"""The definition of each registered composite -> the public strategy function."""


def composite(
    definition: Callable[..., Ex],
) -> Callable[..., st.SearchStrategy[Ex]]:
    """``st.composite``, recording ``definition`` so that :func:`strategy_origin` finds it.

    The definition runs behind a public boundary (:func:`~exactpml.core.boundary.boundary`,
    when an example is drawn: a strategy's arguments are read then): a wrong argument, a
    foreign error, and exactpml's own ``InvalidArgument`` raise
    :class:`~exactpml.strategies._errors.StrategyArgumentError` naming the strategy;
    Hypothesis' control flow (``draw``'s exceptions) passes unchanged.
    """
    checked = boundary(definition, error=StrategyArgumentError)

    @functools.wraps(definition)
    def guarded(*args: Any, **kwargs: Any) -> Ex:
        try:
            return checked(*args, **kwargs)
        except InvalidArgument as error:
            if isinstance(error, StrategyArgumentError):
                raise
            raise StrategyArgumentError(str(error)) from error

    factory = boundary(  # its arguments checked when it is called, before any draw
        st.composite(guarded),
        where=definition.__name__,
        error=StrategyArgumentError,
        checked_as=definition,
    )
    public = _memoised(factory)
    _FACTORIES[guarded] = public
    return public


_MEMO_SIZE = 2048
_SCALARS = (int, str, Fraction, type(None))  # bool is an int subclass, keyed by its own type


class _Unkeyable(Exception):
    """An argument that is not a plain value (a strategy, a Mechanism, a callable...)."""


def _key(value: object) -> object:
    """A key equal for equal arguments of the same types (``True`` is not ``1``, ``(1,)`` is
    not ``[1]``); :class:`_Unkeyable` for anything but scalars and their containers."""
    kind = type(value)
    if kind in (tuple, list):
        return (kind, tuple(_key(item) for item in value))  # type: ignore[attr-defined]
    if kind is frozenset:
        return (kind, frozenset(_key(item) for item in value))  # type: ignore[attr-defined]
    if isinstance(value, _SCALARS) and kind in (*_SCALARS, bool):
        return (kind, value)
    raise _Unkeyable


def _memoised(
    factory: Callable[..., st.SearchStrategy[Ex]],
) -> Callable[..., st.SearchStrategy[Ex]]:
    """``factory`` returning one strategy object per argument values: a composite drawn inside
    another is called on every example, and Hypothesis validates each new strategy object
    (about a tenth of a millisecond).  The same object is what is drawn from, so examples are
    unchanged.  A hit is checked against the stored strategy's own arguments, so a list
    mutated after the first call is never mistaken for its old value."""
    memo: dict[object, tuple[st.SearchStrategy[Ex], tuple[Any, ...], dict[str, Any]]] = {}

    @functools.wraps(factory)
    def cached(*args: Any, **kwargs: Any) -> st.SearchStrategy[Ex]:
        try:
            key = _key((args, tuple(sorted(kwargs.items()))))
        except _Unkeyable:
            return factory(*args, **kwargs)
        hit = memo.get(key)
        if hit is not None:
            strategy, stored_args, stored_kwargs = hit
            try:
                if _key((stored_args, tuple(sorted(stored_kwargs.items())))) == key:
                    return strategy
            except _Unkeyable:
                pass
        strategy = factory(*args, **kwargs)
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        memo[key] = (strategy, args, kwargs)
        return strategy

    cached.__exactpml_guarded__ = True  # type: ignore[attr-defined]
    return cached


@dataclass(frozen=True, slots=True)
class StrategyOrigin:
    """The exactpml strategy function a strategy object came from, and its arguments.

    Attributes:
        factory: The public strategy function, e.g. ``exactpml.strategies.mechanisms``.
        arguments: Every parameter but ``draw``, by name, defaults applied (read-only).
    """

    factory: Callable[..., st.SearchStrategy[Any]]
    arguments: Mapping[str, Any]


def strategy_origin(strategy: object) -> StrategyOrigin | None:
    """The exactpml strategy function and arguments behind ``strategy``, or ``None``.

    ``None`` for any other strategy (Hypothesis' own, a user's ``@st.composite``) and for a
    strategy with a ``.map`` or ``.filter`` applied (their values are not the function's).

    >>> from exactpml import strategies as xst
    >>> origin = strategy_origin(xst.mechanisms(max_inputs=2))
    >>> origin.factory is xst.mechanisms, origin.arguments["max_inputs"], origin.arguments["zeros"]
    (True, 2, True)
    >>> strategy_origin(xst.mechanisms().map(str)) is None
    True
    """
    if getattr(strategy, "_transformations", ()):  # a lazy strategy with .map/.filter applied
        return None
    unwrapped = getattr(strategy, "wrapped_strategy", strategy)
    definition = getattr(unwrapped, "definition", None)
    if definition is None:
        return None
    try:
        factory = _FACTORIES.get(definition)
    except TypeError:  # an unhashable attribute of some other strategy
        return None
    if factory is None:
        return None
    args = getattr(unwrapped, "args", ())
    kwargs = getattr(unwrapped, "kwargs", {})
    try:
        bound = inspect.signature(definition).bind(None, *args, **kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    arguments = dict(bound.arguments)
    arguments.pop(next(iter(arguments)))  # draw
    return StrategyOrigin(factory, MappingProxyType(arguments))
