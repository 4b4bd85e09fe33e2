"""Entropies and mutual information against Cover & Thomas' definitions, exactly: both sides
are rewritten as Σ e_p log p over primes p (logs of primes are independent over Q), so equal
canonical forms mean equal values (proofs_check.reference.qif.canonical_logs)."""

from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactpml import Distribution, Mechanism, certify
from exactpml import strategies as xst
from exactpml.errors import InexactInput, InvalidArgument
from exactpml.qif import conditional_entropy, mutual_information, renyi_entropy, shannon_entropy
from proofs_check.reference import qif as ref


def terms_of(value):
    """The library's closed form Σ c log a as a list of (c, a) (it must have that shape)."""
    if isinstance(value, Fraction):
        assert value == 0
        return []
    found = []
    for term in sympy.Add.make_args(value):
        coefficient, rest = term.as_coeff_Mul()
        assert isinstance(rest, sympy.log), value
        argument = rest.args[0]
        assert argument.is_Rational, value
        found.append(
            (
                Fraction(int(coefficient.p), int(coefficient.q)),
                Fraction(int(argument.p), int(argument.q)),
            )
        )
    return found


def same_value(value, terms):
    return ref.canonical_logs(terms_of(value)) == ref.canonical_logs(terms)


@given(xst.distributions(max_size=6))
def test_shannon_entropy_is_the_definition(distribution):
    assert same_value(shannon_entropy(distribution), ref.entropy_terms(distribution.probabilities))


@given(xst.mechanisms_with_prior(max_inputs=5, max_outputs=5))
def test_conditional_entropy_and_mutual_information_are_the_definitions(pair):
    mechanism, prior = pair
    assert same_value(
        conditional_entropy(mechanism, prior), ref.conditional_entropy_terms(mechanism, prior)
    )
    assert same_value(
        mutual_information(mechanism, prior), ref.mutual_information_terms(mechanism, prior)
    )
    # I(X;Y) = H(X) - H(X|Y), exactly
    difference = ref.entropy_terms(prior.probabilities) + [
        (-c, a) for c, a in ref.conditional_entropy_terms(mechanism, prior)
    ]
    assert same_value(mutual_information(mechanism, prior), difference)


@given(xst.distributions(max_size=5), st.integers(0, 5))
def test_renyi_entropy_of_integer_order_is_the_definition(distribution, order):
    value = renyi_entropy(distribution, order)
    positive = [p for p in distribution.probabilities if p]
    if order == 1:
        expected = ref.entropy_terms(positive)
    elif order == 0:
        expected = [(Fraction(1), Fraction(len(positive)))]
    else:
        expected = [(Fraction(1, 1 - order), sum((p**order for p in positive), Fraction(0)))]
    assert same_value(value, expected)


@given(xst.distributions(max_size=4, skewed=False), st.sampled_from(["1/2", "3/2", "5/3"]))
def test_renyi_entropy_of_fractional_order_agrees_to_40_certified_digits(distribution, order):
    alpha = sympy.Rational(order)
    positive = [sympy.Rational(p.numerator, p.denominator) for p in distribution.probabilities if p]
    expected = sympy.log(sympy.Add(*(p**alpha for p in positive))) / (1 - alpha)
    assert certify.decimal(renyi_entropy(distribution, order), 40) == certify.decimal(expected, 40)


@given(xst.distributions(max_size=5))
def test_renyi_entropy_of_infinite_order_is_the_min_entropy(distribution):
    assert same_value(
        renyi_entropy(distribution, "oo"), [(Fraction(1), 1 / max(distribution.probabilities))]
    )


def test_known_values():
    assert shannon_entropy(Distribution.point_mass("a", "ab")) == 0
    assert shannon_entropy(Distribution.uniform(range(8))) == 3 * sympy.log(2)
    channel = Mechanism({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}})
    # I = log 2 - H(1/4) = (3/4) log 3 - log 2 for the binary symmetric channel with crossover 1/4
    information = mutual_information(channel, Distribution.uniform([0, 1]))
    assert same_value(information, [(Fraction(3, 4), Fraction(3)), (Fraction(-1), Fraction(2))])
    assert information == sympy.Rational(3, 4) * sympy.log(3) - sympy.log(2)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: shannon_entropy({"a": 1}), InvalidArgument, "distribution"),
        (lambda: renyi_entropy(Distribution.uniform("ab"), 0.5), InexactInput, "order"),
        (lambda: renyi_entropy(Distribution.uniform("ab"), -1), InvalidArgument, "order"),
        (lambda: renyi_entropy(Distribution.uniform("ab"), "sqrt(2)"), InvalidArgument, "order"),
        (
            lambda: mutual_information(Mechanism.identity("ab"), Distribution.uniform("abc")),
            InvalidArgument,
            "prior",
        ),
        (
            lambda: conditional_entropy("m", Distribution.uniform("ab")),
            InvalidArgument,
            "mechanism",
        ),
    ],
)
def test_bad_input_is_refused_naming_it(call, error, match):
    with pytest.raises(error, match=match):
        call()
