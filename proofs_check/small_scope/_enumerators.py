"""exactpml's strategy functions and the small scopes of their values.

:data:`ENUMERATORS` maps each function of :mod:`exactpml.strategies` that a small scope can
enumerate to a translator: from the arguments the strategy was called with (its origin, see
:func:`exactpml.strategies.strategy_origin`) to an enumerator of this package restricted to
the strategy's domain: alphabet sizes within the strategy's bounds and capped at
:data:`MAX_SIDE` letters (database spaces at |D|, n <= 2, and one record on three letters),
labels as given, positivity and regimes as the strategy's docstring states; a constraint an
enumerator cannot express is applied as a filter, so a scope only ever shrinks the domain.
Used by :func:`proofs_check.small_scope.infer`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from exactpml import strategies as xst
from exactpml.core.distribution import Distribution
from exactpml.core.parameters import rational_interval
from exactpml.database import DatabaseSpace, ProductPrior
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

__all__ = [
    "ENUMERATORS",
    "MAX_SIDE",
    "Enumerator",
    "NotEnumerable",
    "strategy_name",
    "values_scope",
]

MAX_SIDE = 3
"""Alphabets of inferred scopes have at most this many letters (or the strategy's minimum)."""

Enumerator = Callable[[Mapping[str, Any], bool], SmallScope[Any]]
"""(the strategy's arguments, one per relabelling orbit?) -> the scope of its values."""


class NotEnumerable(Exception):
    """A part of the strategy has no small scope (the message says which).

    ``opaque``: the part hides what it draws (a ``@st.composite``), so the message is the
    reason whether or not exactpml's strategies were met elsewhere.
    """

    def __init__(self, message: str, *, opaque: bool = False) -> None:
        super().__init__(message)
        self.opaque = opaque


def strategy_name(factory: object) -> str:
    """A strategy function's name, e.g. ``"mechanisms"``."""
    return getattr(factory, "__name__", repr(factory))


def values_scope(values: Sequence[Any], description: str) -> SmallScope[Any]:
    """Finitely many values in order, in layers of 1, 1, 2, 4, 8, ... (so that a product
    meets the first values of each component first)."""
    layers: list[Layer[Any]] = []
    start, size = 0, 1
    while start < len(values):
        chunk = list(values[start : start + size])
        layers.append(
            Layer(f"{description} {start + 1}-{start + len(chunk)}", len(chunk), _constant(chunk))
        )
        start += len(chunk)
        size = 1 if start < 2 else size * 2
    return SmallScope(description, layers)


def _constant(items: list[Any]) -> Callable[[], list[Any]]:
    return lambda: items


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
            raise NotEnumerable(f"exactpml.strategies.mechanisms(regimes={tuple(regimes)!r})")
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
        raise NotEnumerable("exactpml.strategies.tuple_mechanisms (no small alphabet)")
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
        raise NotEnumerable(f"exactpml.strategies.database_priors(kind={kind!r})")
    return database_priors(a["space"], kind=kind, full_support=a["full_support"])


def _correlated_priors(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    return database_priors(a["space"], kind="joint", full_support=a["full_support"])


def _database_mechanisms_with_prior(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    kind = a["kind"]
    if kind not in ("joint", "product", None):
        raise NotEnumerable(f"exactpml.strategies.database_mechanisms_with_prior(kind={kind!r})")
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
    return values_scope(tables, "0/1 predicates")


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

    return values_scope(found, "counting queries").map(build)


def _partial_knowledge_settings(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    if "known" not in a["knowledge"]:
        raise NotEnumerable("exactpml.strategies.partial_knowledge_settings (function knowledge)")
    low, high = a["min_records"], max(a["min_records"], min(a["max_records"], 2))
    return partial_knowledge_settings(min_records=low, max_records=high)


def _setting_mechanisms(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    setting = a["setting"]
    databases = list(itertools.product(*(law.outcomes for law in setting.records)))
    return mechanisms(inputs=databases, max_outputs=min(a["max_outputs"], 2))


def _settings_with_mechanism(a: Mapping[str, Any], relabel: bool) -> SmallScope[Any]:
    if "known" not in a["knowledge"]:
        raise NotEnumerable("exactpml.strategies.settings_with_mechanism (function knowledge)")
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
        raise NotEnumerable("exactpml.strategies.distribution_pairs(lattice=True)")
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


SMALL_DENOMINATORS = 4
"""An inferred scope of ``fractions`` holds the values of denominator at most this (or the
strategy's ``max_denominator``), simplest first, at most :data:`MAX_FRACTIONS` of them."""
MAX_FRACTIONS = 64


def _fractions(a: Mapping[str, Any], _: bool) -> SmallScope[Any]:
    low, high, denominators = rational_interval(  # the strategy's own checks
        a["min_value"], a["max_value"], a["max_denominator"], where="fractions"
    )
    values: set[Fraction] = set()
    for denominator in range(1, min(denominators, SMALL_DENOMINATORS) + 1):
        first = -(-low.numerator * denominator // low.denominator)  # ceil(low * denominator)
        last = high.numerator * denominator // high.denominator
        nearest_zero = min(max(0, first), last)
        around = range(
            max(first, nearest_zero - MAX_FRACTIONS), min(last, nearest_zero + MAX_FRACTIONS) + 1
        )
        values.update(Fraction(n, denominator) for n in around)
    simplest = sorted(values, key=lambda v: (v.denominator, abs(v), v))[:MAX_FRACTIONS]
    return values_scope(simplest, f"fractions in [{low}, {high}]")


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
    xst.fractions: _fractions,
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
