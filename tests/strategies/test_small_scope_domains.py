"""An inferred small scope stays inside its strategy's domain (issue 24, item 2).

For every exactpml strategy the checker can enumerate, and through every documented
combinator, each instance of the inferred scope must be a value the strategy could produce:
the same type and the constraints the strategy's docstring states (alphabets, sizes and
their bounds, labels, positivity, regimes).  The constraints are written here from those
docstrings, as predicates on the objects, independently of the enumerators.  The first
instances of the scope and the first instances of every layer (the larger alphabets and
finer grids) are checked.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import strategies as st

from exactpml import Distribution, Mechanism
from exactpml import strategies as xst
from exactpml.bldp.model import BoundedLeakageModel
from exactpml.database import DatabaseMechanism, DatabaseSpace, ProductPrior
from exactpml.notions import PrivacyLossDistribution
from exactpml.partial_knowledge.counting import CountingMechanism
from exactpml.partial_knowledge.setting import PartialKnowledge
from exactpml.structured import GeometricNoise, NoNoise, QueryMechanism
from proofs_check.small_scope import SmallScope, infer

SPACE = DatabaseSpace([0, 1], 2)
SETTING = PartialKnowledge(
    [Distribution({0: "1/2", 1: "1/2"}), Distribution({0: "1/3", 1: "2/3"})],
    target=0,
    value=0,
    alternative=1,
    known=[1],
)
PAIRS = [(0, 0), (0, 1), (1, 0), (1, 1)]


def _instances(scope: SmallScope[Any], first: int = 300, per_layer: int = 3) -> Iterator[Any]:
    """The first instances inside the domain, then the first ones of every layer."""
    yield from itertools.islice(iter(scope), first)
    for layer in scope.layers:
        yield from itertools.islice(iter(layer.build()), per_layer)


def _law(vector: Any) -> bool:
    values = [Fraction(p) for p in vector]
    return all(p >= 0 for p in values) and sum(values) == 1


def _kernel(
    m: Any,
    *,
    inputs: Any = None,
    input_sizes: range | None = None,
    outputs: Any = None,
    output_sizes: range | None = None,
    positive: bool = False,
) -> bool:
    if not isinstance(m, Mechanism) or not all(_law(row) for row in m.rows):
        return False
    if inputs is not None and list(m.inputs) != list(inputs):
        return False
    if input_sizes is not None and (
        list(m.inputs) != list(range(len(m.inputs))) or len(m.inputs) not in input_sizes
    ):
        return False
    if outputs is not None and list(m.outputs) != list(outputs):
        return False
    if output_sizes is not None and (
        list(m.outputs) != list(range(len(m.outputs))) or len(m.outputs) not in output_sizes
    ):
        return False
    return not positive or all(p > 0 for row in m.rows for p in row)


def _one_hot(row: Any) -> bool:
    return sum(1 for p in row if p) == 1


def _distribution(d: Any, outcomes: Any = None, sizes: range | None = None) -> bool:
    if not isinstance(d, Distribution) or not _law(d.probabilities):
        return False
    if outcomes is not None and list(d.outcomes) != list(outcomes):
        return False
    return sizes is None or (list(d.outcomes) == list(range(len(d))) and len(d) in sizes)


def _database_mechanism(
    m: Any, *, spaces: Callable[[DatabaseSpace], bool], outputs: range, positive: bool = False
) -> bool:
    return (
        isinstance(m, DatabaseMechanism)
        and spaces(m.space)
        and list(m.mechanism.inputs) == list(m.space.databases())
        and _kernel(m.mechanism, output_sizes=outputs, positive=positive)
    )


def _drawn_space(space: DatabaseSpace, max_databases: int = 27) -> bool:
    """``database_spaces()``: D = range(k), k and n in 1..3, |D|^n bounded."""
    k = len(space.alphabet)
    return (
        list(space.alphabet) == list(range(k))
        and 1 <= k <= 3
        and 1 <= space.size <= 3
        and space.count <= max_databases
    )


def _joint_prior(prior: Any, space: DatabaseSpace, positive: bool = False) -> bool:
    return _distribution(prior, outcomes=list(space.databases())) and (
        not positive or all(p > 0 for p in prior.probabilities)
    )


def _is_product(prior: Distribution, space: DatabaseSpace) -> bool:
    marginals = [
        {
            d: sum((Fraction(prior[x]) for x in space.databases() if x[i] == d), Fraction(0))
            for d in space.alphabet
        }
        for i in range(space.size)
    ]
    return all(
        Fraction(prior[x]) == _product(marginals[i][x[i]] for i in range(space.size))
        for x in space.databases()
    )


def _product(values: Any) -> Fraction:
    result = Fraction(1)
    for value in values:
        result *= value
    return result


def _setting(s: Any, records: range, binary: bool = True) -> bool:
    if not isinstance(s, PartialKnowledge) or len(s.records) not in records:
        return False
    target = s.records[s.target]
    known = list(s.known or ())
    return (
        all(_law(law.probabilities) for law in s.records)
        and all(p > 0 for p in target.probabilities)
        and s.value != s.alternative
        and {s.value, s.alternative} <= set(target.outcomes)
        and s.target not in known
        and all(0 <= j < len(s.records) for j in known)
        and (not binary or all(list(law.outcomes) == [0, 1] for law in s.records))
    )


def _setting_mechanism(s: PartialKnowledge, m: Any, outputs: range) -> bool:
    databases = list(itertools.product(*(law.outcomes for law in s.records)))
    return _kernel(m, inputs=databases, output_sizes=outputs)


def _model(m: Any, databases: list[Any] | None = None, randomness: Any = None) -> bool:
    shapes = [list(itertools.product(range(k), repeat=n)) for n, k in ((1, 2), (1, 3), (2, 2))]
    if not isinstance(m, BoundedLeakageModel):
        return False
    if databases is not None and list(m.databases) != databases:
        return False
    if databases is None and list(m.databases) not in shapes:
        return False
    if randomness is not None and m.randomness != randomness:
        return False
    if randomness is None and not (_distribution(m.randomness, sizes=range(1, 6))):
        return False
    return all(0 <= v < 3 for row in m.outputs.values() for v in row) and all(
        0 <= v < 3 for row in m.leakages.values() for v in row
    )


RANDOMNESS = Distribution({0: "1/3", 1: "2/3"})


def _built(value: Any) -> bool:
    mechanism, count = value
    return _kernel(mechanism) and count == len(mechanism.inputs)


CASES: dict[str, tuple[Any, Callable[[Any], bool]]] = {
    "probability_vectors": (
        xst.probability_vectors(3),
        lambda v: isinstance(v, list) and len(v) == 3 and _law(v),
    ),
    "probability_vectors positive, no one-hot": (
        xst.probability_vectors(3, full_support=True, deterministic=False),
        lambda v: isinstance(v, list) and len(v) == 3 and _law(v) and min(v) > 0,
    ),
    "probability_vectors without one-hot": (
        xst.probability_vectors(3, deterministic=False),
        lambda v: isinstance(v, list) and _law(v) and not _one_hot(v),
    ),
    "distributions": (
        xst.distributions(min_size=2, max_size=6, full_support=True),
        lambda d: _distribution(d, sizes=range(2, 7)) and min(d.probabilities) > 0,
    ),
    "distributions on given outcomes": (
        xst.distributions(outcomes="abc", zeros=False),
        lambda d: _distribution(d, outcomes="abc") and min(d.probabilities) > 0,
    ),
    "mechanisms": (
        xst.mechanisms(min_inputs=2, max_inputs=4, max_outputs=2),
        lambda m: _kernel(m, input_sizes=range(2, 5), output_sizes=range(1, 3)),
    ),
    "mechanisms on given labels, positive": (
        xst.mechanisms(inputs="ab", outputs=[(0, 0), (1, 1)], zeros=False),
        lambda m: _kernel(m, inputs="ab", outputs=[(0, 0), (1, 1)], positive=True),
    ),
    "mechanisms without one-hot rows": (
        xst.mechanisms(deterministic_rows=False, min_outputs=2),
        lambda m: (
            _kernel(m, input_sizes=range(1, 7), output_sizes=range(2, 7))
            and not any(_one_hot(row) for row in m.rows)
        ),
    ),
    "mechanisms, full-support regime only": (
        xst.mechanisms(regimes=("full_support",)),
        lambda m: _kernel(m, positive=True),
    ),
    "mechanisms, deterministic regime only": (
        xst.mechanisms(regimes=("deterministic",)),
        lambda m: _kernel(m) and all(_one_hot(row) for row in m.rows),
    ),
    "attributes": (
        xst.attributes([0, 1, 2], min_values=2),
        lambda u: _kernel(u, inputs=[0, 1, 2], output_sizes=range(2, 6)),
    ),
    "attributes, maps only": (
        xst.attributes(["x", "y"], deterministic=True),
        lambda u: _kernel(u, inputs=["x", "y"]) and u.is_deterministic,
    ),
    "mechanisms_with_prior": (
        xst.mechanisms_with_prior(full_support=True, min_inputs=2, zeros=False),
        lambda pair: (
            _kernel(pair[0], input_sizes=range(2, 7), output_sizes=range(1, 7), positive=True)
            and _distribution(pair[1], outcomes=pair[0].inputs)
            and min(pair[1].probabilities) > 0
        ),
    ),
    "pair_kernels": (
        xst.pair_kernels(),
        lambda k: (
            _kernel(k, input_sizes=range(1, 5))
            and any(
                list(k.outputs) == [(a, b) for a in range(k1) for b in range(k2)]
                for k1 in range(1, 4)
                for k2 in range(1, 4)
            )
        ),
    ),
    "pair_kernels on given inputs": (
        xst.pair_kernels(inputs=["x", "y"], max_values=2),
        lambda k: _kernel(k, inputs=["x", "y"]),
    ),
    "product_output_mechanisms": (
        xst.product_output_mechanisms(),
        lambda k: (
            _kernel(k, input_sizes=range(1, 5))
            and all(isinstance(y, tuple) and len(y) == 2 for y in k.outputs)
        ),
    ),
    "tuple_mechanisms": (
        xst.tuple_mechanisms(max_inputs=9, max_outputs=3, zeros=False),
        lambda m: (
            _kernel(m, output_sizes=range(1, 4), positive=True)
            and any(
                list(m.inputs) == list(itertools.product(range(k), repeat=n))
                for n in range(1, 4)
                for k in range(1, 4)
                if k**n <= 9
            )
        ),
    ),
    "database_spaces": (xst.database_spaces(), _drawn_space),
    "database_mechanisms": (
        xst.database_mechanisms(),
        lambda m: _database_mechanism(m, spaces=_drawn_space, outputs=range(1, 5)),
    ),
    "database_mechanisms on a space, positive": (
        xst.database_mechanisms(space=SPACE, min_outputs=2, zeros=False),
        lambda m: _database_mechanism(
            m, spaces=lambda s: s == SPACE, outputs=range(2, 5), positive=True
        ),
    ),
    "product_priors": (
        xst.product_priors(SPACE, identical=True, full_support=True),
        lambda p: (
            isinstance(p, ProductPrior)
            and p.space == SPACE
            and p.is_identical
            and all(min(m.probabilities) > 0 for m in p.marginals)
        ),
    ),
    "database_priors, joint": (
        xst.database_priors(SPACE, kind="joint"),
        lambda p: _joint_prior(p, SPACE),
    ),
    "database_priors, product": (
        xst.database_priors(SPACE, kind="product"),
        lambda p: _joint_prior(p, SPACE) and _is_product(p, SPACE),
    ),
    "database_priors, either, positive": (
        xst.database_priors(SPACE, full_support=True),
        lambda p: _joint_prior(p, SPACE, positive=True),
    ),
    "correlated_priors": (
        xst.correlated_priors(DatabaseSpace([0, 1], 3)),
        lambda p: _joint_prior(p, DatabaseSpace([0, 1], 3)),
    ),
    "database_mechanisms_with_prior": (
        xst.database_mechanisms_with_prior(),
        lambda pair: (
            _database_mechanism(pair[0], spaces=_drawn_space, outputs=range(1, 5))
            and _joint_prior(pair[1], pair[0].space)
        ),
    ),
    "database_mechanisms_with_prior, product priors": (
        xst.database_mechanisms_with_prior(space=SPACE, kind="product", full_support=True),
        lambda pair: (
            _database_mechanism(pair[0], spaces=lambda s: s == SPACE, outputs=range(1, 5))
            and _joint_prior(pair[1], SPACE, positive=True)
            and _is_product(pair[1], SPACE)
        ),
    ),
    "predicates": (
        xst.predicates("ab"),
        lambda f: isinstance(f, dict) and list(f) == ["a", "b"] and set(f.values()) <= {0, 1},
    ),
    "counting_mechanisms": (
        xst.counting_mechanisms(noise=True, threshold=False),
        lambda q: (
            isinstance(q, QueryMechanism)
            and isinstance(q.noise, GeometricNoise)
            and q.noise.alpha in {Fraction(1, 2), Fraction(1, 3), Fraction(2, 3), Fraction(9, 10)}
            and q.window.threshold is None
            and q.space.size <= 4
        ),
    ),
    "counting_mechanisms without noise": (
        xst.counting_mechanisms(space=SPACE, noise=False),
        lambda q: (
            isinstance(q, QueryMechanism)
            and isinstance(q.noise, NoNoise)
            and q.space == SPACE
            and (q.window.threshold is None or 0 <= q.window.threshold <= 2)
        ),
    ),
    "partial_knowledge_settings": (
        xst.partial_knowledge_settings(min_records=2, max_records=3),
        lambda s: _setting(s, range(2, 4), binary=False),
    ),
    "setting_mechanisms": (
        xst.setting_mechanisms(SETTING, max_outputs=3),
        lambda m: _setting_mechanism(SETTING, m, range(1, 4)),
    ),
    "settings_with_mechanism": (
        xst.settings_with_mechanism(max_records=3),
        lambda pair: (
            _setting(pair[0], range(1, 4), binary=False)
            and _setting_mechanism(pair[0], pair[1], range(1, 5))
        ),
    ),
    "count_release_mechanisms": (
        xst.count_release_mechanisms(3),
        lambda c: (
            isinstance(c, CountingMechanism)
            and all(_law(c.row(count).probabilities) for count in range(4))
            and len(c.row(0)) <= 4
        ),
    ),
    "bounded_leakage_models": (xst.bounded_leakage_models(), _model),
    "bounded_leakage_models on given databases and randomness": (
        xst.bounded_leakage_models(databases=[(0,), (1,)], randomness=RANDOMNESS),
        lambda m: _model(m, databases=[(0,), (1,)], randomness=RANDOMNESS),
    ),
    "distribution_pairs": (
        xst.distribution_pairs(lattice=False),
        lambda pair: (
            _distribution(pair[0], sizes=range(1, 5))
            and _distribution(pair[1], outcomes=pair[0].outcomes)
        ),
    ),
    "privacy_loss_distributions": (
        xst.privacy_loss_distributions(),
        lambda pld: isinstance(pld, PrivacyLossDistribution),
    ),
    "priors_with_support": (
        xst.priors_with_support([0, 1, 2], min_support=2),
        lambda p: (
            _distribution(p, outcomes=[0, 1, 2]) and sum(1 for q in p.probabilities if q) >= 2
        ),
    ),
    "composed_kernels": (
        xst.composed_kernels(),
        lambda pair: (
            _kernel(pair[0], input_sizes=range(1, 5), output_sizes=range(1, 5))
            and _kernel(pair[1], inputs=pair[0].outputs, output_sizes=range(1, 5))
        ),
    ),
    "fractions": (
        xst.fractions(Fraction(-3, 2), 3, max_denominator=6),
        lambda v: type(v) is Fraction and -Fraction(3, 2) <= v <= 3 and v.denominator <= 6,
    ),
    "fractions on a wide interval": (
        xst.fractions(-1000, 1000, max_denominator=3),
        lambda v: type(v) is Fraction and -1000 <= v <= 1000 and v.denominator <= 3,
    ),
    # --- combinators ---
    "st.tuples": (
        st.tuples(xst.mechanisms(max_inputs=2), st.sampled_from([2, 3]), st.booleans()),
        lambda t: (
            _kernel(t[0], input_sizes=range(1, 3)) and t[1] in (2, 3) and t[2] in (False, True)
        ),
    ),
    "st.builds": (
        st.builds(
            lambda mechanism, count: (mechanism, count), xst.mechanisms(), count=st.integers(1, 6)
        ),
        lambda t: _kernel(t[0]) and 1 <= t[1] <= 6,
    ),
    ".map": (xst.mechanisms().map(lambda m: (m, len(m.inputs))), _built),
    ".filter": (
        xst.mechanisms().filter(lambda m: len(m.outputs) == 2),
        lambda m: _kernel(m) and len(m.outputs) == 2,
    ),
    "st.one_of": (
        st.one_of(xst.mechanisms(max_inputs=1), xst.distributions(outcomes="ab")),
        lambda v: _kernel(v, input_sizes=range(1, 2)) or _distribution(v, outcomes="ab"),
    ),
    ".flatmap": (
        xst.mechanisms(max_inputs=2).flatmap(
            lambda m: st.tuples(st.just(m), xst.distributions(outcomes=m.inputs))
        ),
        lambda pair: (
            _kernel(pair[0], input_sizes=range(1, 3))
            and _distribution(pair[1], outcomes=pair[0].inputs)
        ),
    ),
    "st.just and sampled_from with map and filter": (
        st.tuples(
            st.just(3).map(lambda n: n + 1),
            st.sampled_from([1, 2, 3, 4]).filter(lambda n: n % 2 == 0),
            xst.distributions(outcomes=[0]),
        ),
        lambda t: t[0] == 4 and t[1] in (2, 4),
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_every_inferred_instance_is_one_the_strategy_could_produce(name: str) -> None:
    strategy, allowed = CASES[name]
    inferred = infer(strategy)
    assert inferred.scope is not None, inferred.note
    checked = 0
    for instance in _instances(inferred.scope):
        assert allowed(instance), f"{name}: {instance!r} is outside the strategy's domain"
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", [".filter", "st.just and sampled_from with map and filter"])
def test_instances_a_filter_rejects_are_walked_over_but_never_inside(name: str) -> None:
    strategy, allowed = CASES[name]
    scope = infer(strategy).scope
    assert scope is not None
    steps = [step for layer in scope.layers for step in itertools.islice(layer.walk(), 200)]
    assert any(not step.inside for step in steps) and any(step.inside for step in steps)
    assert all(allowed(step.instance) for step in steps if step.inside)


def test_strategies_without_a_small_scope_say_why() -> None:
    assert infer(xst.gain_functions()).note == (
        "the strategy is not one exactpml can enumerate (exactpml.strategies.gain_functions "
        "has no small scope)"
    )
    assert infer(xst.distribution_pairs(lattice=True)).scope is None
    assert infer(st.tuples(st.integers(0, 3), st.booleans())).note.endswith(
        "(it uses no exactpml strategy)"
    )


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        ((0.5, 1, 4), "fractions: min_value: 0.5 is a float"),
        ((1, 0, 4), "fractions: max_value=0 is below min_value=1"),
        ((0, 1, 0), "fractions: max_denominator=0 must be an int >= 1"),
        ((0, 10**70000, 3), "above the bound integer_bits"),
    ],
)
def test_a_fractions_scope_is_refused_for_arguments_the_strategy_refuses(arguments, reason):
    # the enumerator applies the strategy's own checks (exactpml.core.parameters.
    # rational_interval): a float bound was enumerated as its binary value, and 70 000-digit
    # bounds raised Python's 4300-digit ValueError from the scope's description
    low, high, bound = arguments
    inferred = infer(xst.fractions(low, high, max_denominator=bound))
    assert inferred.scope is None
    assert reason in inferred.note
