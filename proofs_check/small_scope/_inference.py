"""The small scope of a strategy, inferred: exhaustive enumeration for every property.

:func:`infer` maps a Hypothesis strategy to a :class:`SmallScope` of values the strategy can
produce (same type, same constraints), so that a counterexample found there is a genuine
counterexample over the strategy's domain:

* a strategy of :mod:`exactpml.strategies` is recognised by its origin
  (:func:`exactpml.strategies.strategy_origin`: the function and its arguments) and looked
  up in ``ENUMERATORS`` (:mod:`._enumerators`), which translates the arguments into an
  enumerator of this package restricted to the strategy's domain (alphabet sizes within
  the strategy's bounds, capped to small ones; labels, positivity and regimes as the
  strategy's documented constraints say; a constraint the enumerator cannot express is
  applied as a filter, so the scope only shrinks);
* Hypothesis' combinators are followed: ``st.tuples`` and ``st.builds`` (the product of the
  arguments' scopes, smallest first), ``.map`` (the function applied), ``.filter`` (the
  rejected instances are walked over, never checked), ``st.one_of`` (the union),
  ``.flatmap`` (the inner strategy inferred for each enumerated value), ``st.just``,
  ``st.sampled_from``, ``st.booleans`` and bounded ``st.integers`` (their values, the
  shrink target first);
* anything else (a ``@st.composite`` of the user's, unbounded numbers, text, ...) has no
  small scope; :func:`infer` says which part could not be enumerated.

Only the exhaustive enumeration of the strategy's own values is sound, so nothing is
guessed: an unknown part makes the whole strategy not enumerable.  ``up_to_relabelling``
(the property's promise that it does not depend on labels) reduces the enumeration to one
representative per relabelling orbit where the scope of one exactpml strategy supports it
(never inside tuples, maps or filters, whose parts a relabelling would decouple).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from exactpml import strategies as xst
from exactpml.errors import InvalidArgument
from proofs_check.small_scope._enumerators import (
    ENUMERATORS,
    NotEnumerable,
    strategy_name,
    values_scope,
)
from proofs_check.small_scope._scope import SmallScope

__all__ = ["Inferred", "infer"]

_MAX_INTEGERS = 10**6
"""A bounded ``st.integers`` with more values than this has no small scope."""

_DEPTH = 40


@dataclass(frozen=True, slots=True)
class Inferred:
    """What :func:`infer` found: a scope, or why there is none.

    Attributes:
        scope: The small scope of the strategy's values, or ``None``.
        note: When ``scope`` is None, why (e.g. ``"not a strategy exactpml can enumerate:
            the @composite 'instances'"``); when reduced up to relabelling was asked and
            could not be applied, why not; else empty.
    """

    scope: SmallScope[Any] | None
    note: str = ""


def infer(strategy: object, *, up_to_relabelling: bool = False) -> Inferred:
    """The small scope of ``strategy``'s values, inferred from how it was built.

    The strategy must use :mod:`exactpml.strategies` (possibly combined with Hypothesis'
    finite strategies: ``st.just``, ``st.sampled_from``, ``st.booleans``, bounded
    ``st.integers``, and what Hypothesis builds from them); a strategy of Hypothesis' alone
    gets no inferred scope.

    >>> from hypothesis import strategies as st
    >>> from exactpml import strategies as xst
    >>> scope = infer(st.tuples(xst.mechanisms(max_inputs=2), st.sampled_from([2, 3]))).scope
    >>> len(scope), next(iter(scope))
    (1128, (Mechanism({0: {0: '1'}}, outputs=[0]), 2))
    >>> infer(st.tuples(xst.mechanisms(), st.fractions())).note
    'the strategy is not one exactpml can enumerate (st.integers(1, None) is unbounded)'
    >>> infer(st.integers(0, 9)).note
    'the strategy is not one exactpml can enumerate (it uses no exactpml strategy)'
    """
    walk = _Walk()
    reason = "it uses no exactpml strategy"
    try:
        direct = xst.strategy_origin(strategy) is not None
        scope = walk.infer(strategy, up_to_relabelling and direct, 0)
    except NotEnumerable as exc:
        if walk.found or exc.opaque:
            reason = str(exc)
        return Inferred(None, f"the strategy is not one exactpml can enumerate ({reason})")
    if not walk.found:
        return Inferred(None, f"the strategy is not one exactpml can enumerate ({reason})")
    note = ""
    if up_to_relabelling and not direct:
        note = "one instance per relabelling orbit only for a single exactpml strategy"
    return Inferred(scope, note)


class _Walk:
    """One inference: follows the strategy's structure and notes whether exactpml's
    strategies appear in it."""

    def __init__(self) -> None:
        self.found = False

    def infer(self, strategy: Any, relabel: bool, depth: int) -> SmallScope[Any]:
        node: Any = strategy  # Hypothesis' classes, read by attribute
        if depth > _DEPTH:
            raise NotEnumerable("the strategy nests too deeply")
        origin = xst.strategy_origin(strategy)
        if origin is not None:
            self.found = True
            enumerator = ENUMERATORS.get(origin.factory)
            name = f"exactpml.strategies.{strategy_name(origin.factory)}"
            if enumerator is None:
                raise NotEnumerable(f"{name} has no small scope")
            try:
                return enumerator(origin.arguments, relabel)
            except InvalidArgument as exc:
                raise NotEnumerable(f"{name}: {exc}") from exc
        kinds = _kinds()
        if kinds is None:  # pragma: no cover - a Hypothesis without these classes
            raise NotEnumerable("this Hypothesis version's strategies are not recognised")
        if isinstance(strategy, kinds["SampledFromStrategy"]):
            return _transformed(values_scope(list(node.elements), "values"), strategy)
        if isinstance(strategy, kinds["LazyStrategy"]):
            return self._lazy(node, relabel, depth)
        if isinstance(strategy, kinds["DeferredStrategy"]):
            return self.infer(node.wrapped_strategy, relabel, depth + 1)
        if isinstance(strategy, kinds["MappedStrategy"]):
            return self.infer(node.mapped_strategy, False, depth + 1).map(node.pack)
        if isinstance(strategy, kinds["FilteredStrategy"]):
            conditions = tuple(node.flat_conditions)
            base = self.infer(node.filtered_strategy, False, depth + 1)
            return base.filter(lambda value: all(condition(value) for condition in conditions))
        if isinstance(strategy, kinds["TupleStrategy"]):
            parts = self._parts(node.element_strategies, depth)
            if not parts:
                return SmallScope.of("the empty tuple", [()])
            return SmallScope.product(parts)
        if isinstance(strategy, kinds["BuildsStrategy"]):
            return self._builds(node, depth)
        if isinstance(strategy, kinds["OneOfStrategy"]):
            return SmallScope.union(self._parts(node.original_strategies, depth))
        if isinstance(strategy, kinds["FlatMapStrategy"]):
            return self._flatmap(node, depth)
        if isinstance(strategy, kinds["IntegersStrategy"]):
            return _integers(node.start, node.end)
        if isinstance(strategy, kinds["BooleansStrategy"]):
            return values_scope([False, True], "booleans")
        definition = getattr(strategy, "definition", None)
        if definition is not None:
            name = getattr(definition, "__name__", "?")
            raise NotEnumerable(f"the @composite {name!r}", opaque=True)
        raise NotEnumerable(_short(strategy))

    def _parts(self, strategies: Any, depth: int) -> list[SmallScope[Any]]:
        """The scopes of several parts; every part is visited (so that ``found`` tells
        whether exactpml's strategies are used) before the first failure is raised."""
        scopes: list[SmallScope[Any]] = []
        failure: NotEnumerable | None = None
        for part in strategies:
            try:
                scopes.append(self.infer(part, False, depth + 1))
            except NotEnumerable as exc:
                failure = failure or exc
        if failure is not None:
            raise failure
        return scopes

    def _lazy(self, node: Any, relabel: bool, depth: int) -> SmallScope[Any]:
        """A strategy function's result: what it builds is followed."""
        return self.infer(node.wrapped_strategy, relabel, depth + 1)

    def _builds(self, node: Any, depth: int) -> SmallScope[Any]:
        target = node.target
        args = list(node.args)
        names = list(node.kwargs)
        parts = self._parts([*args, *(node.kwargs[name] for name in names)], depth)
        count = len(args)

        def combine(*values: Any) -> Any:
            return target(*values[:count], **dict(zip(names, values[count:], strict=True)))

        if not parts:
            return SmallScope.of(f"{strategy_name(target)}()", [target()])
        return SmallScope.product(
            parts, combine=combine, description=f"builds({strategy_name(target)}, ...)"
        )

    def _flatmap(self, node: Any, depth: int) -> SmallScope[Any]:
        base = self.infer(node.base, False, depth + 1)
        expand = node.expand
        first = next(iter(base), None)
        if first is not None:
            try:
                self.infer(expand(first), False, depth + 1)
            except NotEnumerable as exc:
                raise NotEnumerable(f"flatmap to {exc}") from exc

        def inner(value: Any) -> SmallScope[Any] | None:
            try:
                return _Walk().infer(expand(value), False, depth + 1)
            except NotEnumerable:
                return None

        return SmallScope.dependent(base, inner, description=f"{base.description}, then flatmap")


def _short(strategy: object) -> str:
    text = repr(strategy)
    return text if len(text) <= 60 else text[:57] + "..."


_KINDS: dict[str, type] | None = None


def _kinds() -> dict[str, type] | None:
    """Hypothesis' strategy classes that combinators build (internal: looked up once, and
    inference is off if they moved)."""
    global _KINDS
    if _KINDS is None:
        try:
            from hypothesis.strategies._internal.collections import TupleStrategy
            from hypothesis.strategies._internal.core import BuildsStrategy
            from hypothesis.strategies._internal.deferred import DeferredStrategy
            from hypothesis.strategies._internal.flatmapped import FlatMapStrategy
            from hypothesis.strategies._internal.lazy import LazyStrategy
            from hypothesis.strategies._internal.misc import BooleansStrategy
            from hypothesis.strategies._internal.numbers import IntegersStrategy
            from hypothesis.strategies._internal.strategies import (
                FilteredStrategy,
                MappedStrategy,
                OneOfStrategy,
                SampledFromStrategy,
            )
        except ImportError:  # pragma: no cover - other Hypothesis versions
            return None
        _KINDS = {
            cls.__name__: cls
            for cls in (
                TupleStrategy,
                BuildsStrategy,
                DeferredStrategy,
                FlatMapStrategy,
                LazyStrategy,
                BooleansStrategy,
                IntegersStrategy,
                FilteredStrategy,
                MappedStrategy,
                OneOfStrategy,
                SampledFromStrategy,
            )
        }
    return _KINDS


# --- Hypothesis' own strategies --------------------------------------------------------------


def _transformed(scope: SmallScope[Any], strategy: Any) -> SmallScope[Any]:
    """``st.sampled_from(...)`` / ``st.just(...)`` with their ``.map`` / ``.filter`` applied."""
    for method, function, *_ in getattr(strategy, "_transformations", ()):
        if method == "map":
            scope = scope.map(function)
        elif method == "filter":
            scope = scope.filter(function)
        else:  # pragma: no cover - a transformation this code does not know
            raise NotEnumerable(f"sampled_from(...).{method}")
    return scope


def _integers(start: int | None, end: int | None) -> SmallScope[int]:
    if start is None or end is None or end - start + 1 > _MAX_INTEGERS:
        shape = "unbounded" if start is None or end is None else "too large"
        raise NotEnumerable(f"st.integers({start}, {end}) is {shape}")
    if start >= 0:
        order: Sequence[int] = range(start, end + 1)
    elif end <= 0:
        order = range(end, start - 1, -1)
    else:  # 0 first, then by distance to 0 (Hypothesis' shrink target)
        order = [
            0,
            *(v for k in range(1, max(-start, end) + 1) for v in (k, -k) if start <= v <= end),
        ]
    return values_scope(order, f"integers {start}..{end}")
