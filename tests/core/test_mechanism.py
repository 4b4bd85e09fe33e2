"""Mechanism construction and operations against their definitions, with alphabets in other
orders than the rows, symbolic and irrational entries, and the validation of every input.

Expected values are computed here from the definitions with plain ``Fraction`` arithmetic,
read entry by entry through ``probability`` (p(z|x) = Σ_y p(y|x) p(z|y) for post-processing,
products of entries for parallel composition, Bayes' rule through
``proofs_check/reference/pml.py``), or by hand (each test says which).
"""

import dataclasses
from fractions import Fraction

import pytest
import sympy

from exactpml import Distribution, Mechanism
from exactpml.errors import InexactInput, InvalidArgument
from proofs_check import reference as bf

F = Fraction
ROOT2 = sympy.sqrt(2)


def _entries(mechanism):
    return {
        (x, y): mechanism.probability(x, y) for x in mechanism.inputs for y in mechanism.outputs
    }


# --- construction --------------------------------------------------------------------
def test_rows_may_list_their_outputs_in_any_order_or_omit_them():
    # first appearance fixes the output order: (1, 0, 2); row b lists them in another order,
    # row c omits two of them (probability 0)
    mechanism = Mechanism(
        {
            "a": {1: "1/4", 0: "3/4"},
            "b": {0: "1/3", 2: "1/6", 1: "1/2"},
            "c": {2: 1},
        }
    )
    assert mechanism.outputs == (1, 0, 2)
    assert mechanism.rows == (
        (F(1, 4), F(3, 4), F(0)),
        (F(1, 2), F(1, 3), F(1, 6)),
        (F(0), F(0), F(1)),
    )
    assert mechanism.column(2) == (F(0), F(1, 6), F(1))
    # a same-length row in another order than the declared outputs
    swapped = Mechanism({"a": {0: "1/4", 1: "3/4"}, "b": {1: "1/3", 0: "2/3"}}, outputs=[1, 0])
    assert swapped.rows == ((F(3, 4), F(1, 4)), (F(1, 3), F(2, 3)))


def test_declared_outputs_are_checked_on_every_row():
    with pytest.raises(InvalidArgument, match="row 'b' names output 2"):
        Mechanism({"a": {0: 1}, "b": {2: 1}}, outputs=[0, 1])
    with pytest.raises(InvalidArgument, match="repeated"):
        Mechanism({"a": {0: 1}}, outputs=[0, 0])
    with pytest.raises(InvalidArgument, match="Mechanism: kernel must be a mapping, got list"):
        Mechanism([[1]])  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="row 'a' must be a mapping"):
        Mechanism({"a": [1]})
    assert Mechanism({"a": {0: 1}}, outputs=[1, 0]).outputs == (1, 0)


def test_invalid_rational_rows_are_named_with_the_right_reason():
    # a valid row with a zero entry first: the error is about row 1's sum, not about 0
    with pytest.raises(InvalidArgument, match="row 1 sums to 5/6, not 1"):
        Mechanism.from_matrix([[1, 0], [F(1, 2), F(1, 3)]])
    with pytest.raises(InvalidArgument, match=r"row 1, output 0: -1/2 is negative"):
        Mechanism.from_matrix([[1, 0], [F(-1, 2), F(3, 2)]])
    # floats are refused even next to exact entries, unless allowed
    with pytest.raises(InexactInput):
        Mechanism.from_matrix([[F(1, 2), 0.5]])
    with pytest.raises(InexactInput):
        Mechanism({"a": {0: F(1, 2), 1: 0.5}})
    assert Mechanism.from_matrix([[F(1, 2), 0.5]], allow_float=True).rows == ((F(1, 2), F(1, 2)),)


def test_mixed_rows_of_fractions_strings_and_closed_forms():
    # row 0 exact rationals, row 1 strings, row 2 a closed form (√2/2): the slow path
    mechanism = Mechanism.from_matrix(
        [[F(1, 2), F(1, 2)], ["1/3", "2/3"], ["sqrt(2)/2", "1 - sqrt(2)/2"]],
        inputs=["a", "b", "c"],
    )
    assert mechanism.rows[:2] == ((F(1, 2), F(1, 2)), (F(1, 3), F(2, 3)))
    assert sympy.simplify(mechanism.probability("c", 0) - ROOT2 / 2) == 0
    assert not mechanism.is_rational and mechanism.integer_kernel is None
    rational = Mechanism.from_matrix([[F(1, 2), F(1, 2)], ["1/3", "2/3"], [1, 0]])
    assert rational.is_rational and rational.integer_kernel is not None
    assert rational.rows[1:] == ((F(1, 3), F(2, 3)), (F(1), F(0)))


def test_from_matrix_checks_shapes_and_labels():
    assert Mechanism.from_matrix([[1]]).rows == ((F(1),),)
    assert Mechanism.from_matrix([[1, 0], [0, 1]]).inputs == (0, 1)
    assert Mechanism.from_matrix([[1, 0], [0, 1]]).outputs == (0, 1)
    for matrix, labels, message in [
        ([], {}, "input alphabet is empty"),
        ([[]], {}, "output alphabet is empty"),
        ([[1, 0], [1]], {}, "row 1 has 1 entries, row 0 has 2"),
        ([[1], [1]], {"inputs": ["a"]}, "1 input labels for 2 rows"),
        ([[1, 0]], {"outputs": ["u"]}, "1 output labels for 2 columns"),
        ([[1, 0]], {"outputs": ["u", "u"]}, "repeated"),
        ([[1], [1], [1]], {"inputs": ["a", "b", "b"]}, "input 'b' appears twice"),
        ([[1], [1]], {"inputs": [[0], [1]]}, "is not hashable"),
    ]:
        with pytest.raises(InvalidArgument, match=message):
            Mechanism.from_matrix(matrix, **labels)


def test_deterministic_and_identity_kernels():
    parity = Mechanism.deterministic(lambda x: x % 2, range(3), outputs=[1, 0])
    assert parity.rows == ((F(0), F(1)), (F(1), F(0)), (F(0), F(1)))
    identity = Mechanism.identity(["a", "b", "c"])
    assert identity.outputs == ("a", "b", "c") and identity.is_deterministic
    assert all(identity.probability(x, x) == 1 for x in "abc")
    rows = Mechanism.from_function(lambda x: Distribution({x: 1}), ["a", "b"])
    assert rows == Mechanism.identity(["a", "b"])


def test_is_deterministic_needs_every_row_to_have_exactly_one_positive_entry():
    assert Mechanism.from_matrix([[1, 0, 0], [0, 0, 1], [0, 1, 0]]).is_deterministic
    assert not Mechanism.from_matrix([[1, 0, 0], [0, "1/2", "1/2"]]).is_deterministic
    assert not Mechanism.from_matrix([["1/3", "1/3", "1/3"]]).is_deterministic
    assert not Mechanism.from_matrix([["1/2", "1/2"], ["1/2", "1/2"]]).is_deterministic
    t = sympy.Symbol("t", positive=True)
    assert not Mechanism({"a": {0: t, 1: 1 - t}}).is_deterministic


def test_the_value_object_is_frozen():
    mechanism = Mechanism.identity([0, 1])
    with pytest.raises(dataclasses.FrozenInstanceError):
        mechanism.inputs = (1, 0)  # type: ignore[misc]


# --- access and the per-prior cache --------------------------------------------------------
def test_positions_and_unknown_labels():
    mechanism = Mechanism({"b": {1: "1/2", 0: "1/2"}, "a": {0: 1}})
    assert (mechanism.input_position("a"), mechanism.output_position(0)) == (1, 1)
    assert mechanism.row("a").as_dict() == {1: 0, 0: 1}
    with pytest.raises(InvalidArgument, match="input 'z'"):
        mechanism.probability("z", 0)
    with pytest.raises(InvalidArgument, match="output 7"):
        mechanism.column(7)
    with pytest.raises(InvalidArgument, match="input"):
        mechanism.input_position([0])  # unhashable
    assert mechanism.as_dict() == {"b": {1: F(1, 2), 0: F(1, 2)}, "a": {1: F(0), 0: F(1)}}


def test_derived_values_are_computed_once_per_key_and_the_oldest_dropped_first():
    mechanism = Mechanism.identity([0, 1])
    calls = []

    def compute(label):
        return lambda: calls.append(label) or (label, len(calls))

    keys = [(object(), object()) for _ in range(3)]
    first = mechanism.derived(keys[0], compute("k0"), keep=2)
    assert mechanism.derived(keys[0], compute("k0"), keep=2) is first
    mechanism.derived(keys[1], compute("k1"), keep=2)
    mechanism.derived(keys[2], compute("k2"), keep=2)  # drops k0, the oldest
    assert mechanism.derived(keys[1], compute("k1"), keep=2) == ("k1", 2)
    assert mechanism.derived(keys[0], compute("k0"), keep=2) == ("k0", 4)  # computed again
    assert calls == ["k0", "k1", "k2", "k0"]
    # by default eight values are kept
    fresh = Mechanism.identity([0, 1])
    many = [(object(),) for _ in range(9)]
    for number, key in enumerate(many):
        fresh.derived(key, compute(number))
    calls.clear()
    fresh.derived(many[1], compute("again"))
    assert calls == []
    fresh.derived(many[0], compute("again"))
    assert calls == ["again"]


# --- with a prior ---------------------------------------------------------------------------
def test_prior_in_another_order_and_irrational_priors():
    mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}, "c": {1: 1}})
    prior = Distribution({"c": "1/6", "b": "1/3", "a": "1/2"})
    masses = mechanism.output_masses(prior)
    assert masses == [bf.output_mass(mechanism, prior, y) for y in mechanism.outputs]
    for y in mechanism.outputs:
        assert mechanism.posterior(prior, y).as_dict() == bf.posterior(mechanism, prior, y)
    joint = mechanism.joint(prior)
    assert joint[("b", 1)] == F(1, 3) * F(3, 4) and joint[("c", 0)] == 0
    # an irrational prior on a rational kernel: p_Y(0) = 3/4 w + 1/4 (1 - w - 1/6) for
    # w = √2/4 (hand computation), and a prior mixing rational and irrational masses
    w = ROOT2 / 4
    irrational = Distribution._trusted(("a", "b", "c"), [w, sympy.Rational(5, 6) - w, F(1, 6)])
    expected = F(3, 4) * w + F(1, 4) * (sympy.Rational(5, 6) - w)
    assert sympy.simplify(mechanism.output_masses(irrational)[0] - expected) == 0
    both = Distribution._trusted(("a", "b", "c"), [ROOT2 / 4, 1 - ROOT2 / 4, F(0)])
    expected = F(3, 4) * ROOT2 / 4 + F(1, 4) * (1 - ROOT2 / 4)
    assert sympy.simplify(mechanism.output_distribution(both)[0] - expected) == 0


def test_symbolic_kernels_with_a_rational_prior_and_their_conditions():
    t = sympy.Symbol("t", positive=True)
    mechanism = Mechanism({"a": {0: 1 - t, 1: t}, "b": {0: F(1, 2), 1: F(1, 2)}})
    condition = sympy.Ge(1 - t, 0)
    assert mechanism.conditions == (condition,)
    prior = Distribution({"b": "1/2", "a": "1/2"})
    masses = mechanism.output_masses(prior)
    assert sympy.simplify(masses[1] - (t / 2 + sympy.Rational(1, 4))) == 0
    assert condition in mechanism.output_distribution(prior).conditions
    posterior = mechanism.posterior(prior, 1)
    assert sympy.simplify(posterior["a"] - t / (t + sympy.Rational(1, 2))) == 0
    assert condition in posterior.conditions and condition in mechanism.joint(prior).conditions
    # every operation keeps the kernel's conditions
    other = Mechanism({"a": {"u": 1}, "b": {"v": 1}})
    post = Mechanism({0: {"z": 1}, 1: {"z": 1}})
    for derived in (
        mechanism.post_process(post),
        mechanism.parallel(other),
        other.parallel(mechanism),
        mechanism.mixture(other, "1/2"),
        other.mixture(mechanism, "1/2"),
        mechanism.product(other),
        other.product(mechanism),
        mechanism.restrict(["a"]),
    ):
        assert condition in derived.conditions


def test_posterior_of_an_output_of_probability_zero():
    mechanism = Mechanism({"a": {0: 1}, "b": {0: 1}}, outputs=[0, 1])
    prior = Distribution({"a": "1/3", "b": "2/3"})
    assert mechanism.posterior(prior, 1) is prior  # footnote 5
    with pytest.raises(InvalidArgument, match="strict=True"):
        mechanism.posterior(prior, 1, strict=True)
    assert mechanism.posterior(prior, 0, strict=True).as_dict() == {"a": F(1, 3), "b": F(2, 3)}


# --- operations on kernels: permuted alphabets ---------------------------------------------
def test_post_processing_by_a_kernel_whose_inputs_are_in_another_order():
    mechanism = Mechanism({"a": {0: "3/4", 1: "1/4", 2: 0}, "b": {0: "1/8", 1: "1/2", 2: "3/8"}})
    post = Mechanism({2: {"z": 1}, 0: {"z": "1/3", "w": "2/3"}, 1: {"w": 1}})
    composed = mechanism.post_process(post)
    for x in mechanism.inputs:
        for z in post.outputs:
            expected = sum(
                (mechanism.probability(x, y) * post.probability(y, z) for y in mechanism.outputs),
                F(0),
            )
            assert composed.probability(x, z) == expected
    assert composed.probability("a", "z") == F(1, 4)  # hand: 3/4 · 1/3
    with pytest.raises(InvalidArgument, match=r"no row for output\(s\) \[2\]"):
        mechanism.post_process(Mechanism({0: {"z": 1}, 1: {"z": 1}}))
    with pytest.raises(InvalidArgument, match="post_process: kernel must be a Mechanism, got dict"):
        mechanism.post_process({0: {"z": 1}})  # type: ignore[arg-type]


def test_parallel_composition_with_the_other_inputs_in_another_order():
    first = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/3", 1: "2/3"}})
    second = Mechanism({"b": {"u": "1/5", "v": "4/5"}, "a": {"u": 1}})
    both = first.parallel(second)
    assert both.outputs == ((0, "u"), (0, "v"), (1, "u"), (1, "v"))
    for x in first.inputs:
        for y1 in first.outputs:
            for y2 in second.outputs:
                expected = first.probability(x, y1) * second.probability(x, y2)
                assert both.probability(x, (y1, y2)) == expected
    assert both.probability("b", (1, "v")) == F(8, 15)  # hand: 2/3 · 4/5
    with pytest.raises(InvalidArgument, match="different input alphabets"):
        first.parallel(Mechanism({"a": {0: 1}}))
    with pytest.raises(InvalidArgument, match="parallel: other must be a Mechanism, got NoneType"):
        first.parallel(None)  # type: ignore[arg-type]


def test_mixture_of_kernels_with_different_outputs_and_the_weight_range():
    first = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/3", 1: "2/3"}})
    second = Mechanism({"b": {2: 1}, "a": {1: "1/2", 2: "1/2"}})
    mixed = first.mixture(second, "1/4")
    assert mixed.outputs == (0, 1, 2)
    # hand computation: 1/4 · row + 3/4 · other row, 0 where a kernel lacks the output
    assert mixed.as_dict() == {
        "a": {0: F(3, 16), 1: F(1, 16) + F(3, 8), 2: F(3, 8)},
        "b": {0: F(1, 12), 1: F(1, 6), 2: F(3, 4)},
    }
    # the ends of the range: the other kernel (weight 0) or this one (weight 1), with the
    # union of the outputs (0 where a kernel lacks an output)
    assert first.mixture(second, 0).as_dict() == {
        x: {0: F(0), **second.as_dict()[x]} for x in first.inputs
    }
    assert first.mixture(second, 1).as_dict() == {
        x: {**first.as_dict()[x], 2: F(0)} for x in first.inputs
    }
    for weight in ("-1/2", "3/2", 2):
        with pytest.raises(InvalidArgument, match="must lie in"):
            first.mixture(second, weight)
    with pytest.raises(InvalidArgument, match="different input alphabets"):
        first.mixture(Mechanism({"a": {0: 1}}), "1/2")
    with pytest.raises(InvalidArgument, match="mixture: other must be a Mechanism, got str"):
        first.mixture("second", "1/2")  # type: ignore[arg-type]
    # an irrational weight (no range check possible on a symbol, exact for √2/2)
    w = ROOT2 / 2
    mixed = first.mixture(second, w)
    assert sympy.simplify(mixed.probability("b", 2) - (1 - w)) == 0


def test_product_and_restriction():
    first = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/3", 1: "2/3"}})
    second = Mechanism({"u": {"y": "1/5", "n": "4/5"}, "v": {"y": 1}})
    product = first.product(second)
    assert product.inputs == (("a", "u"), ("a", "v"), ("b", "u"), ("b", "v"))
    for (x1, x2), row in zip(product.inputs, product.rows, strict=True):
        expected = [
            first.probability(x1, y1) * second.probability(x2, y2)
            for y1 in first.outputs
            for y2 in second.outputs
        ]
        assert list(row) == expected
    with pytest.raises(InvalidArgument, match="product: other must be a Mechanism, got int"):
        first.product(3)  # type: ignore[arg-type]
    restricted = Mechanism({"a": {0: 1}, "b": {1: 1}, "c": {0: "1/2", 1: "1/2"}}).restrict(
        ["c", "a"]
    )
    assert restricted.inputs == ("c", "a")
    assert restricted.rows == ((F(1, 2), F(1, 2)), (F(1), F(0)))


# --- equality and hashing -------------------------------------------------------------------
def test_equality_ignores_order_and_compares_every_entry():
    first = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/3", 1: "2/3"}})
    reordered = Mechanism({"b": {1: "2/3", 0: "1/3"}, "a": {1: "1/4", 0: "3/4"}})
    assert first == reordered and hash(first) == hash(reordered)
    one_entry_differs = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/2", 1: "1/2"}})
    assert (first == one_entry_differs) is False
    other_outputs = Mechanism({"a": {0: "3/4", 2: "1/4"}, "b": {0: "1/3", 2: "2/3"}})
    assert (first == other_outputs) is False
    other_inputs = Mechanism({"a": {0: "3/4", 1: "1/4"}, "c": {0: "1/3", 1: "2/3"}})
    assert (first == other_inputs) is False
    assert first.__eq__("a mechanism") is NotImplemented
    assert (first == "a mechanism") is False
    t = sympy.Symbol("t", positive=True)
    symbolic = Mechanism({"a": {0: t / (1 + t), 1: 1 / (1 + t)}})
    assert symbolic == Mechanism({"a": {0: 1 - 1 / (1 + t), 1: 1 / (1 + t)}})


def test_output_masses_under_a_prior_with_no_rational_mass():
    # every weight irrational (w = √2/4 and 1 - w): the exact path, never the integer one;
    # hand computation: p_Y(0) = 3w/4 + (1 - w)/4 = (1 + 2w)/4
    mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
    w = ROOT2 / 4
    prior = Distribution._trusted(("b", "a"), [1 - w, w])
    masses = mechanism.output_masses(prior)
    assert sympy.simplify(masses[0] - (1 + 2 * w) / 4) == 0
    assert sympy.simplify(masses[1] - (3 - 2 * w) / 4) == 0
