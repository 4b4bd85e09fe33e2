"""Every bad input to the families, constructions, suprema and continuous mechanisms gets a
clear error naming the problem (or ``Undecided`` naming the expression), never a number.

One table-driven test, as in tests/test_bad_input.py.
"""

from __future__ import annotations

import itertools

import pytest
import sympy

from exactpml import Distribution, InexactInput, InvalidArgument, Mechanism, Undecided
from exactpml.continuous import (
    ContinuousMechanism,
    pointwise_maximal_leakage_at,
    sup_pml_over_outputs,
)
from exactpml.instances.laplace_counting import entry_leakage_at, sup_entry_leakage_over_iid
from exactpml.suprema import shattering_construction, sup_entry_leakage, sup_pml
from exactpml.suprema.constructions import (
    alpha_mechanism,
    concentrating_prior,
    lower_entropy_attribute,
    shattering_attribute,
)
from exactpml.suprema.families import (
    FinitePriors,
    FullSupportPriors,
    IIDPriors,
    ParameterDomain,
    ParametricPriors,
    ProductPriors,
)

t = sympy.Symbol("t", positive=True)
r = sympy.Symbol("r", real=True)
y = sympy.Symbol("y", real=True)
k = sympy.Symbol("k", integer=True, nonnegative=True)
BINARY = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
HALF = Distribution({"a": "1/2", "b": "1/2"})
DATABASE = Mechanism({x: {0: "1/2", 1: "1/2"} for x in itertools.product((0, 1), repeat=2)})
FAMILY = ParametricPriors({"a": 1 - t, "b": t}, t, (0, 1))
LAPLACE = ContinuousMechanism.laplace({"a": 0, "b": 1}, 1)
COUNTABLE = ContinuousMechanism({"a": 2 ** (-(k + 1)), "b": 2 ** (-(k + 1))}, k, support="naturals")


def _two_rates():
    """A pmf mix whose attribute numerators have the incommensurable rates log 2, log 3."""
    rows = {
        0: 2 ** (-(k + 1)),
        1: sympy.Rational(2, 3) * sympy.Rational(1, 3) ** k,
        2: sympy.Rational(1, 5) * sympy.Rational(4, 5) ** k,
    }
    mechanism = ContinuousMechanism(rows, k, support="naturals")
    prior = Distribution({0: "1/3", 1: "1/3", 2: "1/3"})
    return sup_pml_over_outputs(mechanism, prior, attribute=lambda x: x == 2)


CASES = [
    # (id, action, error class, fragments the message must contain)
    ("domain_reversed", lambda: ParameterDomain(1, 0), InvalidArgument, ["empty or reversed"]),
    ("domain_empty", lambda: ParameterDomain("1/2", "1/2"), InvalidArgument, ["empty or reversed"]),
    (
        "domain_closed_at_infinity",
        lambda: ParameterDomain(0, "oo", upper_open=False),
        InvalidArgument,
        ["infinite upper end"],
    ),
    ("domain_float_end", lambda: ParameterDomain(0, 0.5), InexactInput, ["0.5"]),
    (
        "family_entry_negative",
        lambda: ParametricPriors({"a": 2 * t - 1, "b": 2 - 2 * t}, t, (0, 1)),
        InvalidArgument,
        ["outcome 'a'", "negative at t = "],
    ),
    (
        "family_sign_outside_domain",
        lambda: ParametricPriors({"a": t, "b": 1 - t}, t, (-1, 1)),
        InvalidArgument,
        ["declared positive", "(-1, 1)"],
    ),
    (
        "family_unsigned_parameter_domain",
        lambda: ParametricPriors({"a": r, "b": 1 - r}, r, (-1, 1)),
        InvalidArgument,
        ["outcome 'a'", "negative"],
    ),
    (
        "family_extra_symbol",
        lambda: ParametricPriors(
            {"a": t * sympy.Symbol("s", positive=True), "b": 1 - t}, t, (0, 1)
        ),
        InvalidArgument,
        ["besides the parameter"],
    ),
    (
        "family_not_summing_to_one",
        lambda: ParametricPriors({"a": t, "b": 1 - 2 * t}, t, ("0", "1/2")),
        InvalidArgument,
        ["not identically 1"],
    ),
    (
        "family_not_rational",
        lambda: ParametricPriors({"a": sympy.exp(-t), "b": 1 - sympy.exp(-t)}, t, (0, 1)),
        InvalidArgument,
        ["not a rational function of t"],
    ),
    (
        "family_pole_in_domain",
        lambda: ParametricPriors(
            {"a": t / (2 * t - 1) ** 2 / 100, "b": 1 - t / (2 * t - 1) ** 2 / 100}, t, (0, 1)
        ),
        InvalidArgument,
        [""],
    ),
    (
        "family_parameter_outside_domain",
        lambda: FAMILY.at(2),
        InvalidArgument,
        ["t=2", "outside its domain (0, 1)"],
    ),
    (
        "construction_parameter_outside_domain",
        lambda: sup_pml(BINARY, FullSupportPriors("ab"), output=0).witness.at("3/2"),
        InvalidArgument,
        ["outside its domain"],
    ),
    (
        "construction_non_integer_size",
        lambda: shattering_construction(BINARY, HALF, 0).at("5/2"),
        InvalidArgument,
        ["must be an integer"],
    ),
    (
        "iid_c_too_large",
        lambda: IIDPriors((0, 1), 2, predicate=lambda d: d, c="1/2"),
        InvalidArgument,
        ["c=1/2", "0 <= c < 1/2"],
    ),
    (
        "iid_constant_predicate",
        lambda: IIDPriors((0, 1), 2, predicate=lambda d: 1, c=0),
        InvalidArgument,
        ["constant on D", "empty"],
    ),
    (
        "iid_predicate_not_binary",
        lambda: IIDPriors((0, 1), 2, predicate=lambda d: 2, c=0),
        InvalidArgument,
        ["predicate(0) = 2"],
    ),
    (
        "iid_mechanism_not_factoring",
        lambda: sup_pml(
            Mechanism({(0,): {0: 1}, (1,): {1: 1}, (2,): {0: "1/2", 1: "1/2"}}),
            IIDPriors((0, 1, 2), 1, predicate=lambda d: d >= 1, c=0),
        ),
        InvalidArgument,
        ["only through the predicate", "(1,)", "(2,)"],
    ),
    ("finite_family_empty", lambda: FinitePriors([]), InvalidArgument, ["empty"]),
    (
        "finite_family_mixed_alphabets",
        lambda: FinitePriors([HALF, Distribution({"c": 1})]),
        InvalidArgument,
        ["prior 1", "different alphabet"],
    ),
    ("product_zero_entries", lambda: ProductPriors((0, 1), 0), InvalidArgument, ["n=0"]),
    (
        "family_over_other_inputs",
        lambda: sup_pml(BINARY, FullSupportPriors("abc")),
        InvalidArgument,
        ["different inputs"],
    ),
    (
        "entry_leakage_without_tuples",
        lambda: sup_entry_leakage(BINARY, FullSupportPriors("ab")),
        InvalidArgument,
        ["n-tuples"],
    ),
    (
        "entry_out_of_range",
        lambda: sup_entry_leakage(DATABASE, ProductPriors((0, 1), 2), entry=2),
        InvalidArgument,
        ["entry=2", "out of range"],
    ),
    (
        "attribute_over_all_priors",
        lambda: sup_pml(BINARY, FullSupportPriors("ab"), attribute=lambda x: x),
        InvalidArgument,
        ["no construction", "FinitePriors"],
    ),
    ("unknown_output", lambda: sup_pml(BINARY, FAMILY, output=7), InvalidArgument, ["output 7"]),
    (
        "concentrating_prior_t_outside",
        lambda: concentrating_prior("ab", "a", 2),
        InvalidArgument,
        ["t=2", "(0, 1)"],
    ),
    (
        "concentrating_prior_unknown_input",
        lambda: concentrating_prior("ab", "z", "1/2"),
        InvalidArgument,
        ["'z'"],
    ),
    (
        "shattering_size_zero",
        lambda: shattering_attribute(BINARY, HALF, 0, 0),
        InvalidArgument,
        ["size=0"],
    ),
    ("alpha_above_one", lambda: alpha_mechanism(HALF, 2), InvalidArgument, ["alpha=2", "(0, 1]"]),
    (
        "lambda_at_one",
        lambda: lower_entropy_attribute(Mechanism.identity("ab"), HALF, "a", 1),
        InvalidArgument,
        ["lambda=1"],
    ),
    (
        "u_star_unknown",
        lambda: lower_entropy_attribute(Mechanism.identity("ab"), HALF, "z", "1/2"),
        InvalidArgument,
        ["u_star='z'"],
    ),
    (
        "density_not_normalised",
        lambda: ContinuousMechanism({0: sympy.exp(-sympy.Abs(y))}, y),
        InvalidArgument,
        ["row 0", "integrates to 2"],
    ),
    (
        "pmf_not_normalised",
        lambda: ContinuousMechanism({0: sympy.Rational(1, 2) ** k}, k, support="naturals"),
        InvalidArgument,
        ["row 0", "sums to 2"],
    ),
    (
        "density_not_integrable",
        lambda: ContinuousMechanism({0: sympy.exp(y)}, y),
        InvalidArgument,
        ["not integrable"],
    ),
    (
        "density_discontinuous",
        lambda: ContinuousMechanism({0: sympy.Piecewise((sympy.exp(-y), y >= 0), (0, True))}, y),
        InvalidArgument,
        ["discontinuous at y = 0"],
    ),
    (
        "density_negative_term",
        lambda: ContinuousMechanism(
            {0: 2 * sympy.exp(-sympy.Abs(y)) - sympy.exp(-2 * sympy.Abs(y))}, y
        ),
        InvalidArgument,
        ["negative"],
    ),
    (
        "density_not_exponential",
        lambda: ContinuousMechanism({0: 1 / (sympy.pi * (1 + y**2))}, y),
        InvalidArgument,
        ["not an exponential of a polynomial"],
    ),
    (
        "density_with_float",
        lambda: ContinuousMechanism({0: 0.5 * sympy.exp(-sympy.Abs(y))}, y),
        InexactInput,
        ["row 0", "floating-point"],
    ),
    (
        "density_with_other_symbol",
        lambda: ContinuousMechanism({0: sympy.exp(-sympy.Abs(y) / t) / (2 * t)}, y),
        InvalidArgument,
        ["besides y"],
    ),
    (
        "variable_not_real",
        lambda: ContinuousMechanism({0: "1"}, sympy.Symbol("z")),
        InvalidArgument,
        ["real sympy Symbol"],
    ),
    (
        "gaussian_with_kinks",
        lambda: ContinuousMechanism({0: sympy.exp(-(y**2) / 2 - sympy.Abs(y))}, y),
        InvalidArgument,
        ["Gaussian factor", "kinks"],
    ),
    (
        "laplace_scale_negative",
        lambda: ContinuousMechanism.laplace({0: 0}, -1),
        InvalidArgument,
        ["scale=-1"],
    ),
    (
        "geometric_ratio_above_one",
        lambda: ContinuousMechanism.geometric({0: 0}, 2),
        InvalidArgument,
        ["ratio=2"],
    ),
    (
        "lattice_output_not_integer",
        lambda: pointwise_maximal_leakage_at(COUNTABLE, HALF, "1/2"),
        InvalidArgument,
        ["1/2", "not an integer"],
    ),
    (
        "natural_output_negative",
        lambda: pointwise_maximal_leakage_at(COUNTABLE, HALF, -1),
        InvalidArgument,
        ["negative"],
    ),
    (
        "continuous_prior_alphabet",
        lambda: sup_pml_over_outputs(LAPLACE, Distribution({0: 1})),
        InvalidArgument,
        ["different alphabet"],
    ),
    ("incommensurable_rates", _two_rates, Undecided, ["not commensurable", "log"]),
    (
        "counting_p_outside",
        lambda: entry_leakage_at(2, 1, 1, 0),
        InvalidArgument,
        ["p=1", "(0, 1)"],
    ),
    ("counting_no_entries", lambda: entry_leakage_at(0, 1, "1/2", 0), InvalidArgument, ["n=0"]),
    (
        "counting_family_c",
        lambda: sup_entry_leakage_over_iid(2, 1, "1/2"),
        InvalidArgument,
        ["c=1/2"],
    ),
]


@pytest.mark.parametrize(
    ("action", "error", "fragments"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_bad_input_gets_a_clear_error(action, error, fragments):
    with pytest.raises(error) as caught:
        action()
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
