"""The small scope of a strategy, inferred: exhaustive enumeration for every property.

:func:`infer` maps a Hypothesis strategy to a :class:`SmallScope` of values the strategy can
produce (same type, same constraints), so that a counterexample found there is a genuine
counterexample over the strategy's domain:

* a strategy of :mod:`exactpml.strategies` is recognised by its origin
  (:func:`exactpml.strategies.strategy_origin`: the function and its arguments) and looked
  up in :data:`ENUMERATORS`, which translates the arguments into an enumerator of this
  package restricted to the strategy's domain (alphabet sizes within the strategy's
  bounds, capped to small ones; labels, positivity and regimes as the strategy's
  documented constraints say; a constraint the enumerator cannot express is applied as a
  filter, so the scope only shrinks);
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

import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactpml import strategies as xst
from exactpml.core.distribution import Distribution
from exactpml.database import DatabaseSpace, ProductPrior
from exactpml.errors import InvalidArgument
from exactpml.notions import privacy_loss_distribution
from exactpml.partial_knowledge.counting import CountingMechanism
from exactpml.structured import CountingQuery, GeometricNoise, NoNoise, QueryMechanism
from proofs_check.small_scope._database import (
    database_mechanisms,
    database_mechanisms_with_prior,
    database_priors,
)
from proofs_check.small_scope._finite import (
    attributes,
    distributions,
    mechanisms,
    mechanisms_with_prior,
    pair_kernels,
    probability_vectors,
)
from proofs_check.small_scope._models import bounded_leakage_models
from proofs_check.small_scope._scope import Layer, SmallScope
from proofs_check.small_scope._settings import partial_knowledge_settings, setting_mechanisms

__all__ = ["ENUMERATORS", "MAX_SIDE", "Inferred", "infer"]

MAX_SIDE = 3
"""Alphabets of inferred scopes have at most this many letters (or the strategy's minimum)."""

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


class _NotEnumerable(Exception):
    """A part of the strategy has no small scope (the message says which).

    ``opaque``: the part hides what it draws (a ``@st.composite``), so the message is the
    reason whether or not exactpml's strategies were met elsewhere.
    """

    def __init__(self, message: str, *, opaque: bool = False) -> None:
        super().__init__(message)
        self.opaque = opaque


Enumerator = Callable[[Mapping[str, Any], bool], SmallScope[Any]]


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
    except _NotEnumerable as exc:
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
            raise _NotEnumerable("the strategy nests too deeply")
        origin = xst.strategy_origin(strategy)
        if origin is not None:
            self.found = True
            enumerator = ENUMERATORS.get(origin.factory)
            name = f"exactpml.strategies.{_name(origin.factory)}"
            if enumerator is None:
                raise _NotEnumerable(f"{name} has no small scope")
            try:
                return enumerator(origin.arguments, relabel)
            except InvalidArgument as exc:
                raise _NotEnumerable(f"{name}: {exc}") from exc
        kinds = _kinds()
        if kinds is None:  # pragma: no cover - a Hypothesis without these classes
            raise _NotEnumerable("this Hypothesis version's strategies are not recognised")
        if isinstance(strategy, kinds["SampledFromStrategy"]):
            return _transformed(_values(list(node.elements), "values"), strategy)
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
            return _values([False, True], "booleans")
        definition = getattr(strategy, "definition", None)
        if definition is not None:
            name = getattr(definition, "__name__", "?")
            raise _NotEnumerable(f"the @composite {name!r}", opaque=True)
        raise _NotEnumerable(_short(strategy))

    def _parts(self, strategies: Any, depth: int) -> list[SmallScope[Any]]:
        """The scopes of several parts; every part is visited (so that ``found`` tells
        whether exactpml's strategies are used) before the first failure is raised."""
        scopes: list[SmallScope[Any]] = []
        failure: _NotEnumerable | None = None
        for part in strategies:
            try:
                scopes.append(self.infer(part, False, depth + 1))
            except _NotEnumerable as exc:
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
            return SmallScope.of(f"{_name(target)}()", [target()])
        return SmallScope.product(
            parts, combine=combine, description=f"builds({_name(target)}, ...)"
        )

    def _flatmap(self, node: Any, depth: int) -> SmallScope[Any]:
        base = self.infer(node.base, False, depth + 1)
        expand = node.expand
        first = next(iter(base), None)
        if first is not None:
            try:
                self.infer(expand(first), False, depth + 1)
            except _NotEnumerable as exc:
                raise _NotEnumerable(f"flatmap to {exc}") from exc

        def inner(value: Any) -> SmallScope[Any] | None:
            try:
                return _Walk().infer(expand(value), False, depth + 1)
            except _NotEnumerable:
                return None

        return SmallScope.dependent(base, inner, description=f"{base.description}, then flatmap")


def _short(strategy: object) -> str:
    text = repr(strategy)
    return text if len(text) <= 60 else text[:57] + "..."


def _name(factory: object) -> str:
    return getattr(factory, "__name__", repr(factory))


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


def _values(values: Sequence[Any], description: str) -> SmallScope[Any]:
    """Finitely many values in order, in layers of 1, 1, 2, 4, 8, ... (so that a product
    meets the first values of each component first)."""
    layers: list[Layer[Any]] = []
    start, size = 0, 1
    while start < len(values):
        chunk = list(values[start : start + size])
        layers.append(
            Layer(f"{description} {start + 1}-{start + len(chunk)}", len(chunk), _just(chunk))
        )
        start += len(chunk)
        size = 1 if start < 2 else size * 2
    return SmallScope(description, layers)


def _just(items: list[Any]) -> Callable[[], list[Any]]:
    return lambda: items


def _transformed(scope: SmallScope[Any], strategy: Any) -> SmallScope[Any]:
    """``st.sampled_from(...)`` / ``st.just(...)`` with their ``.map`` / ``.filter`` applied."""
    for method, function, *_ in getattr(strategy, "_transformations", ()):
        if method == "map":
            scope = scope.map(function)
        elif method == "filter":
            scope = scope.filter(function)
        else:  # pragma: no cover - a transformation this code does not know
            raise _NotEnumerable(f"sampled_from(...).{method}")
    return scope


def _integers(start: int | None, end: int | None) -> SmallScope[int]:
    if start is None or end is None or end - start + 1 > _MAX_INTEGERS:
        shape = "unbounded" if start is None or end is None else "too large"
        raise _NotEnumerable(f"st.integers({start}, {end}) is {shape}")
    if start >= 0:
        order: Sequence[int] = range(start, end + 1)
    elif end <= 0:
        order = range(end, start - 1, -1)
    else:  # 0 first, then by distance to 0 (Hypothesis' shrink target)
        order = [
            0,
            *(v for k in range(1, max(-start, end) + 1) for v in (k, -k) if start <= v <= end),
        ]
    return _values(_lazy(order), f"integers {start}..{end}")


class _lazy(Sequence[int]):
    """A sequence view that slices without materialising (ranges stay ranges)."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = values

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, index: Any) -> Any:
        return self.values[index]


# --- exactpml's strategies -------------------------------------------------------------------


def _capped(low: int, high: int) -> tuple[int, int]:
    """Sizes from ``low`` to ``high`` capped at MAX_SIDE (never below ``low``)."""
    return low, max(low, min(high, MAX_SIDE))


def _labels(given: Sequence[Hashable] | None) -> list[Hashable] | None:
    return None if given is None else list(given)


def _one_hot(vector: Sequence[Fraction]) -> bool:
    return sum(1 for p in vector if p) == 1


def _probability_vectors(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    positive = a["full_support"] or not a["zeros"]
    scope = probability_vectors(a["size"], full_support=positive).map(list)
    if not a["deterministic"] and a["size"] > 1:
        scope = scope.filter(lambda vector: not _one_hot(vector))
    return scope


def _distributions(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    positive = a["full_support"] or not a["zeros"]
    if a["outcomes"] is not None:
        return distributions(outcomes=list(a["outcomes"]), full_support=positive)
    low, high = _capped(a["min_size"], a["max_size"])
    return distributions(min_size=low, max_size=high, full_support=positive)


def _mechanisms(a: Mapping[str, Any], relabel: bool) -> SmallScope[Any]:
    regimes = a["regimes"]
    zeros = a["zeros"]
    only_deterministic = False
    if regimes is not None and "mixed" not in regimes:
        if "full_support" in regimes:
            zeros = False
        elif set(regimes) == {"deterministic"} and a["zeros"]:
            only_deterministic = True
        else:
            raise _NotEnumerable(f"exactpml.strategies.mechanisms(regimes={tuple(regimes)!r})")
    inputs, outputs = _labels(a["inputs"]), _labels(a["outputs"])
    low_in, high_in = _capped(a["min_inputs"], a["max_inputs"])
    low_out, high_out = _capped(a["min_outputs"], a["max_outputs"])
    scope = mechanisms(
        inputs=inputs,
        outputs=outputs,
        min_inputs=low_in,
        max_inputs=high_in,
        min_outputs=low_out,
        max_outputs=high_out,
        zeros=zeros,
        up_to_relabelling=relabel,
    )
    if only_deterministic:
        scope = scope.filter(lambda kernel: kernel.is_deterministic)
    if not a["deterministic_rows"]:
        scope = scope.filter(lambda kernel: not any(_one_hot(row) for row in kernel.rows))
    return scope


def _attributes(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    low, high = _capped(a["min_values"], a["max_values"])
    return attributes(
        list(a["inputs"]), min_values=low, max_values=high, deterministic=a["deterministic"]
    )


def _mechanisms_with_prior(a: Mapping[str, Any], relabel: bool) -> SmallScope[Any]:
    low, high = _capped(a["min_inputs"], a["max_inputs"])
    return mechanisms_with_prior(
        min_inputs=low,
        max_inputs=high,
        max_outputs=min(a["max_outputs"], MAX_SIDE),
        zeros=a["zeros"],
        full_support=a["full_support"],
        up_to_relabelling=relabel,
    )


def _pair_kernels(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    side = min(a["max_values"], 2)
    if a["inputs"] is not None:
        return pair_kernels(inputs=list(a["inputs"]), max_first=side, max_second=side)
    low, high = a["min_inputs"], max(a["min_inputs"], min(a["max_inputs"], 2))
    return pair_kernels(min_inputs=low, max_inputs=high, max_first=side, max_second=side)


def _product_output_mechanisms(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    side = min(a["max_values"], 2)
    return pair_kernels(max_inputs=min(a["max_inputs"], 2), max_first=side, max_second=side)


def _space_shapes(a: Mapping[str, Any], limit: int | None) -> list[DatabaseSpace]:
    """The spaces ``database_spaces`` draws (within ``limit`` databases), smallest first."""
    low_n, high_n = _capped(a["min_size"], a["max_size"])
    low_k, high_k = _capped(a["min_alphabet"], a["max_alphabet"])
    shapes = [
        (k, n)
        for n in range(low_n, high_n + 1)
        for k in range(low_k, high_k + 1)
        if limit is None or k**n <= limit
    ]
    shapes.sort(key=lambda shape: (shape[0] ** shape[1], shape[1]))
    return [DatabaseSpace(range(k), n) for k, n in shapes]


_DEFAULT_SPACES = {"min_size": 1, "max_size": 2, "min_alphabet": 1, "max_alphabet": 2}
"""Inferred database scopes enumerate D^n with |D| <= 2 and n <= 2 (and 3 letters on one
record), where the smallest counterexamples of database claims live."""


def _database_spaces(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    spaces = _space_shapes(a, None)
    return SmallScope.of("database spaces D^n", spaces)


def _drawn_spaces(space: DatabaseSpace | None, max_databases: int) -> list[DatabaseSpace]:
    if space is not None:
        return [space]
    spaces = _space_shapes(_DEFAULT_SPACES, max_databases)
    if 3 <= max_databases:
        spaces.append(DatabaseSpace(range(3), 1))
    return sorted(spaces, key=lambda s: (s.count, s.size))


def _database_mechanisms(a: Mapping[str, Any], relabel: bool) -> SmallScope[Any]:
    scopes = [
        database_mechanisms(
            space=space,
            min_outputs=a["min_outputs"],
            max_outputs=max(a["min_outputs"], min(a["max_outputs"], 2)),
            zeros=a["zeros"],
            structured=False,
            per_record=a["min_outputs"] <= space.size + 1 <= a["max_outputs"],
            up_to_relabelling=relabel and len(space.alphabet) <= 2,
        )
        for space in _drawn_spaces(a["space"], a["max_databases"])
    ]
    return _joined(scopes, _database_text("database mechanisms", a["space"]))


def _joined(scopes: list[SmallScope[Any]], description: str) -> SmallScope[Any]:
    """The union of several shapes' scopes, their layers interleaved (every shape's first
    layer, then every second one, ...): a large shape does not hold back the others."""
    return SmallScope.union(scopes, description=description)


_GRID_TEXT = "1/2, 1/3, 1/4"


def _database_text(what: str, space: DatabaseSpace | None) -> str:
    where = (
        f"on {space!r}"
        if space is not None
        else "on D^n with |D|, n <= 2 (and one record on 3 letters)"
    )
    return f"{what} {where}, on the grid {_GRID_TEXT}"


def _tuple_mechanisms(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    low_n, high_n = _capped(a["min_entries"], a["max_entries"])
    low_k, high_k = _capped(a["min_alphabet"], a["max_alphabet"])
    shapes = [
        (k, n)
        for n in range(low_n, high_n + 1)
        for k in range(low_k, high_k + 1)
        if k**n <= min(a["max_inputs"], 9)
    ]
    if not shapes:
        raise _NotEnumerable("exactpml.strategies.tuple_mechanisms (no small alphabet)")
    shapes.sort(key=lambda shape: (shape[0] ** shape[1], shape[1]))
    low_out = a["min_outputs"]
    scopes = [
        mechanisms(
            inputs=list(itertools.product(range(k), repeat=n)),
            min_outputs=low_out,
            max_outputs=max(low_out, min(a["max_outputs"], 2)),
            zeros=a["zeros"],
        )
        for k, n in shapes
    ]
    positive = "" if a["zeros"] else ", no zero entry"
    return _joined(scopes, f"kernels on D^n (|D|^n <= 9), rows on the grid {_GRID_TEXT}{positive}")


def _product_priors(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    space = a["space"]
    scope = database_priors(space, kind="product", full_support=a["full_support"])
    identical = a["identical"]

    def as_product(prior: Distribution) -> ProductPrior:
        marginals = [_marginal(prior, space, i) for i in range(space.size)]
        if all(law == marginals[0] for law in marginals):
            return ProductPrior.iid(marginals[0], space.size)
        return ProductPrior(marginals)

    products = scope.map(as_product)
    if identical is None:
        return products
    return products.filter(lambda prior: prior.is_identical == identical)


def _marginal(prior: Distribution, space: DatabaseSpace, index: int) -> Distribution:
    masses = {d: Fraction(0) for d in space.alphabet}
    for x, p in prior.items():
        masses[x[index]] += Fraction(p)  # type: ignore[index]
    return Distribution(masses)


def _database_priors(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    kind = a["kind"]
    if kind not in ("joint", "product", None):
        raise _NotEnumerable(f"exactpml.strategies.database_priors(kind={kind!r})")
    return database_priors(a["space"], kind=kind, full_support=a["full_support"])


def _correlated_priors(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    return database_priors(a["space"], kind="joint", full_support=a["full_support"])


def _database_mechanisms_with_prior(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    kind = a["kind"]
    if kind not in ("joint", "product", None):
        raise _NotEnumerable(f"exactpml.strategies.database_mechanisms_with_prior(kind={kind!r})")
    scopes = [
        database_mechanisms_with_prior(
            space=space,
            min_outputs=a["min_outputs"],
            max_outputs=max(a["min_outputs"], min(a["max_outputs"], 2)),
            zeros=a["zeros"],
            per_record=a["min_outputs"] <= space.size + 1 <= a["max_outputs"],
            kind=kind,
            full_support=a["full_support"],
        )
        for space in _drawn_spaces(a["space"], a["max_databases"])
    ]
    what = f"database mechanisms with a {kind or 'joint or product'} prior"
    return _joined(scopes, _database_text(what, a["space"]))


def _predicates(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    alphabet = list(a["alphabet"])
    tables = [
        dict(zip(alphabet, values, strict=True))
        for values in itertools.product((0, 1), repeat=len(alphabet))
    ]
    return _values(tables, "0/1 predicates")


_COUNTING_ALPHAS = (Fraction(1, 2), Fraction(1, 3), Fraction(2, 3), Fraction(9, 10))


def _counting_mechanisms(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    spaces = (
        [a["space"]]
        if a["space"] is not None
        else _space_shapes(
            {"min_size": 1, "max_size": a["max_size"], "min_alphabet": 1, "max_alphabet": 3}, 9
        )
    )
    noises: list[Any] = []
    if a["noise"] in (None, False):
        noises.append(NoNoise())
    if a["noise"] in (None, True):
        noises += [GeometricNoise(alpha) for alpha in _COUNTING_ALPHAS]
    found: list[Any] = []
    for space in spaces:
        thresholds: list[int | None] = []
        if a["threshold"] in (None, False):
            thresholds.append(None)
        if a["threshold"] in (None, True):
            thresholds += list(range(space.size + 1))
        for values in itertools.product((0, 1), repeat=len(space.alphabet)):
            predicate = dict(zip(space.alphabet, values, strict=True))
            for noise in noises:
                for m in thresholds:
                    found.append((space, predicate, noise, m))

    def build(parts: tuple[Any, ...]) -> QueryMechanism:
        space, predicate, noise, m = parts
        return QueryMechanism(space, CountingQuery(predicate), noise=noise, threshold=m)

    return _values(found, "counting queries").map(build)


def _partial_knowledge_settings(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    if "known" not in a["knowledge"]:
        raise _NotEnumerable("exactpml.strategies.partial_knowledge_settings (function knowledge)")
    low, high = a["min_records"], max(a["min_records"], min(a["max_records"], 2))
    return partial_knowledge_settings(min_records=low, max_records=high)


def _setting_mechanisms(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    setting = a["setting"]
    databases = list(itertools.product(*(law.outcomes for law in setting.records)))
    return mechanisms(inputs=databases, max_outputs=min(a["max_outputs"], 2))


def _settings_with_mechanism(a: Mapping[str, Any], relabel: bool) -> SmallScope[Any]:
    if "known" not in a["knowledge"]:
        raise _NotEnumerable("exactpml.strategies.settings_with_mechanism (function knowledge)")
    low, high = a["min_records"], max(a["min_records"], min(a["max_records"], 2))
    return setting_mechanisms(
        min_records=low,
        max_records=high,
        max_outputs=min(a["max_outputs"], 2),
        up_to_relabelling=relabel,
    )


def _count_release_mechanisms(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    kernels = mechanisms(inputs=list(range(a["size"] + 1)), max_outputs=min(a["max_outputs"], 2))
    return kernels.map(CountingMechanism)


def _bounded_leakage_models(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    return bounded_leakage_models(
        databases=None if a["databases"] is None else list(a["databases"]),
        randomness=a["randomness"],
        max_randomness=min(a["max_randomness"], 2),
        max_outputs=min(a["max_outputs"], 2),
        max_leakages=min(a["max_leakages"], 2),
    )


def _distribution_pairs(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    if a["lattice"] is True:
        raise _NotEnumerable("exactpml.strategies.distribution_pairs(lattice=True)")
    high = min(a["max_outcomes"], MAX_SIDE)
    pieces = []
    for size in range(1, high + 1):
        laws = distributions(outcomes=list(range(size)))
        pieces.append(SmallScope.product([laws, laws]))
    return _joined(pieces, f"pairs of laws on 1 to {high} outcomes, on the grid {_GRID_TEXT}")


def _privacy_loss_distributions(a: Mapping[str, Any], relabel: bool) -> SmallScope[Any]:
    pairs = _distribution_pairs(a, relabel)
    return pairs.map(lambda pair: privacy_loss_distribution(*pair))


def _priors_with_support(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    labels = list(a["outcomes"])
    supports = (
        [list(a["support"])]
        if a["support"] is not None
        else [
            list(chosen)
            for size in range(max(1, a["min_support"]), len(labels) + 1)
            for chosen in itertools.combinations(labels, size)
        ]
    )
    pieces = []
    for support in supports:

        def spread(law: Distribution, support: list[Hashable] = support) -> Distribution:
            return Distribution({x: law[x] if x in support else Fraction(0) for x in labels})

        pieces.append(distributions(outcomes=support, full_support=True).map(spread))
    return _joined(pieces, f"priors with a given support, on the grid {_GRID_TEXT}")


def _composed_kernels(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    high_in = min(a["max_inputs"], 2)
    high_out = min(a["max_outputs"], 2)
    channels = mechanisms(max_inputs=high_in, max_outputs=high_out)

    def processings(channel: Any) -> SmallScope[Any]:
        return mechanisms(inputs=list(channel.outputs), max_outputs=high_out).map(
            lambda processing: (channel, processing)
        )

    return SmallScope.dependent(channels, processings, description="a kernel and a post-processing")


ENUMERATORS: dict[Callable[..., Any], Enumerator] = {
    xst.attributes: _attributes,
    xst.bounded_leakage_models: _bounded_leakage_models,
    xst.composed_kernels: _composed_kernels,
    xst.correlated_priors: _correlated_priors,
    xst.count_release_mechanisms: _count_release_mechanisms,
    xst.counting_mechanisms: _counting_mechanisms,
    xst.database_mechanisms: _database_mechanisms,
    xst.database_mechanisms_with_prior: _database_mechanisms_with_prior,
    xst.database_priors: _database_priors,
    xst.database_spaces: _database_spaces,
    xst.distribution_pairs: _distribution_pairs,
    xst.distributions: _distributions,
    xst.mechanisms: _mechanisms,
    xst.mechanisms_with_prior: _mechanisms_with_prior,
    xst.pair_kernels: _pair_kernels,
    xst.partial_knowledge_settings: _partial_knowledge_settings,
    xst.predicates: _predicates,
    xst.priors_with_support: _priors_with_support,
    xst.privacy_loss_distributions: _privacy_loss_distributions,
    xst.probability_vectors: _probability_vectors,
    xst.product_output_mechanisms: _product_output_mechanisms,
    xst.product_priors: _product_priors,
    xst.setting_mechanisms: _setting_mechanisms,
    xst.settings_with_mechanism: _settings_with_mechanism,
    xst.tuple_mechanisms: _tuple_mechanisms,
}
"""exactpml's strategy functions -> the small scope of their values (arguments applied).
Not listed (no small scope): ``gain_functions`` and ``mechanisms_with_gain``."""
