"""Suprema of leakage over families of priors, exact, with the constructions that reach them.

Saeidian et al., Thm 2.4, Thm 2.8, Thm 4.2, Thm 4.5 and Remark B.1.  For a mechanism
P_{Y|X} and a family 𝒫 of priors (:mod:`exactpml.families`):

* :func:`sup_pml` -- sup over 𝒫 of l(X->y) (or l(U->y) for a fixed attribute);
* :func:`sup_entry_leakage` -- sup over 𝒫 of l(D_i->y) for databases X = (D_1, ..., D_n);
* :func:`sup_conditional_pml` -- sup over 𝒫 of max_{d_-i} l(D_i->y | d_-i);
* :func:`sup_guessing_gain` -- Def 2.3's sup over attributes, attained by the shattering
  attribute (Thm 2.4); :func:`shattering_construction` is the K -> oo variant.

Each is per output (``output=y``) or over all outputs (``output=None``), per entry or over
all entries.  The value is exact.  For 𝒫_X (full support) and 𝒬_X (products) it is the
paper's closed form -- the column ratio max_x p(y|x)/min_x p(y|x) (Thm 2.8, Thm 4.5), the DP
ratio (Thm 4.2), eq. (B.6a) -- and the witness is the proof's construction, whose leakage
along t -> 0+ must equal the closed form exactly (otherwise
:class:`~exactpml.errors.ExactPMLError` is raised, naming both).  For a rational mechanism
the member priors are polynomials in t with rational coefficients, and the limit of each
ratio of polynomials is read off their lowest-order coefficients
(:mod:`exactpml.suprema._polynomials`); otherwise it is taken by
:func:`exactpml.limits.limit`.  Either way the construction's expression is the same.  Such a
supremum is attained only when it is 0 (Remark B.1: only when X and Y are independent).
For a finite family the supremum is a maximum.  For a one-parameter family, and for 𝒫_c^f
with a mechanism that sees the entries only through f, the supremum is found exactly from
the critical points and the one-sided limits of the (rational) leakage ratio.

>>> from exactpml import Mechanism
>>> from exactpml.families import FullSupportPriors
>>> mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
>>> result = sup_pml(mechanism, FullSupportPriors(mechanism.inputs), output=0)
>>> print(result.value, result.attained, result.witness.to)
log(3) False 0+
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import prove_zero
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, exact_sum, to_sympy
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.errors import ExactPMLError, InvalidArgument
from exactpml.leakage import AttributeLike, as_attribute
from exactpml.leakage.pml import conditional_pointwise_maximal_leakage, pointwise_maximal_leakage
from exactpml.numerics import limits
from exactpml.suprema._parametric import parametric_supremum
from exactpml.suprema._polynomials import (
    Weight,
    concentrating_factor,
    constant,
    limit_at_zero,
    polynomial_expression,
    polynomial_product,
    polynomial_sum,
    scaled,
    weight_product,
    weighted_sum,
)
from exactpml.suprema._tuples import (
    DatabaseShape,
    compare,
    database_shape,
    dp_ratio,
    entry_ratio_over_all_priors,
    free_lunch_ratio,
)
from exactpml.suprema.constructions import (
    concentrating_kernel_prior,
    concentrating_prior,
    concentrating_product_prior,
    least_shattering_size,
    shattering_attribute,
    shattering_quantities,
)
from exactpml.suprema.families import (
    FinitePriors,
    FullSupportPriors,
    IIDPriors,
    ParameterDomain,
    ParametricPriors,
    PriorFamily,
    ProductPriors,
)
from exactpml.suprema.witnesses import Construction, Instance, Supremum

__all__ = [
    "shattering_construction",
    "sup_conditional_pml",
    "sup_entry_leakage",
    "sup_guessing_gain",
    "sup_pml",
]

Label = Hashable
SOURCE = "Saeidian et al."
_FAMILIES = (FullSupportPriors, ProductPriors, IIDPriors, FinitePriors, ParametricPriors)


def _t() -> sympy.Symbol:
    return sympy.Symbol("t", positive=True)


def _unit_domain() -> ParameterDomain:
    return ParameterDomain(0, 1)


# --- argument checks --------------------------------------------------------------------------


def _check(mechanism: object, family: object) -> Mechanism:
    if not isinstance(mechanism, Mechanism):
        raise InvalidArgument(f"mechanism must be a Mechanism, got {type(mechanism).__name__}")
    if not isinstance(family, _FAMILIES):
        raise InvalidArgument(
            f"family must be a prior family from exactpml.families, got {type(family).__name__}"
        )
    if set(family.inputs) != set(mechanism.inputs):
        raise InvalidArgument(
            f"the family ({family.describe()}) is over different inputs than the mechanism"
        )
    return mechanism


def _outputs(mechanism: Mechanism, output: Label | None) -> list[Label]:
    if output is None:
        return list(mechanism.outputs)
    mechanism.output_position(output)
    return [output]


def _shape(mechanism: Mechanism, family: PriorFamily) -> DatabaseShape:
    alphabet = getattr(family, "alphabet", None)
    return database_shape(mechanism.inputs, alphabet=alphabet)


def _entries(shape: DatabaseShape, entry: int | None) -> list[int]:
    if entry is None:
        return list(range(shape.n))
    return [shape.check_entry(entry)]


def _maximum(parts: list[Supremum], quantity: str, source: str) -> Supremum:
    """The supremum of a finite collection of suprema (over outputs, entries)."""
    best = parts[0]
    for part in parts[1:]:
        if part.value.compare(best.value) > 0:
            best = part
    attained = any(part.attained and part.value.compare(best.value) == 0 for part in parts)
    witness = best.witness
    if attained and not best.attained:
        witness = next(p for p in parts if p.attained and p.value.compare(best.value) == 0).witness
    if len(parts) == 1:
        return parts[0]
    return Supremum(best.value, attained, witness, quantity, source, tuple(parts))


def _ratio_log(ratio: Scalar) -> LogValue:
    return LogValue.infinity() if ratio is sympy.oo else LogValue(ratio)


def _limit_of(construction_expression: sympy.Expr, parameter: sympy.Symbol) -> Scalar:
    return limits.limit(construction_expression, parameter, "0+", domain=(0, 1))


@dataclass(frozen=True, slots=True)
class _Along:
    """exp of the leakage along a construction, as an expression in t, and its limit t -> 0+."""

    expression: sympy.Expr
    limit: Scalar


_SYMPY_ONLY: ContextVar[bool] = ContextVar("exactpml_suprema_sympy_only", default=False)


@contextmanager
def _sympy_reference_path() -> Iterator[None]:
    """Within it the leakage along every construction is built from the symbolic prior with
    sympy ``Poly`` and taken to t -> 0+ by the limit engine, even for a rational mechanism:
    the reference the rational fast path (:mod:`exactpml.suprema._polynomials`) is tested
    against."""
    token = _SYMPY_ONLY.set(True)
    try:
        yield
    finally:
        _SYMPY_ONLY.reset(token)


def _sympy_along(expression: sympy.Expr) -> _Along:
    """The expression with its limit taken by the limit engine (the general path)."""
    return _Along(expression, _limit_of(expression, _t()))


def _reached(
    value: Scalar,
    *,
    name: str,
    source: str,
    builder: Callable[[Any], Instance],
    along: Callable[[], _Along],
    quantity: str,
    theorem: str,
    uniform: Instance,
) -> Supremum:
    """A supremum whose closed form ``value`` is reached by a t -> 0+ construction; ``along``
    gives the leakage along it (only called when the supremum is not 0)."""
    if compare(value, Fraction(1)) == 0:  # zero leakage: every member attains it
        return Supremum(LogValue(1), True, uniform, quantity, theorem)
    found = along()
    if compare(found.limit, value) != 0:
        raise ExactPMLError(
            f"{name} ({abbreviated(source)}): the limit of {abbreviated(found.expression)} as t -> "
            f"0+ is {abbreviated(found.limit)}, "
            f"but the closed form of the supremum is {abbreviated(value)}"
        )
    construction = Construction(
        name, source, _t(), "0+", _unit_domain(), builder, found.expression, found.limit
    )
    return Supremum(_ratio_log(value), False, construction, quantity, theorem)


# --- the leakage along a construction, for a rational mechanism --------------------------------
#
# The member priors are polynomials in t (:mod:`exactpml.suprema._polynomials`): the
# expressions below are the ones the sympy path builds from the symbolic prior, and the
# limits are read off the lowest-order coefficients.  None when the mechanism's column is
# not rational (or a denominator vanishes identically): the caller takes the sympy path.

Weights = dict[Label, Weight]


def _rational_column(mechanism: Mechanism, output: Label) -> dict[Label, Fraction] | None:
    if _SYMPY_ONLY.get():
        return None
    values = mechanism.column(output)
    if not all(type(v) is Fraction for v in values):
        return None
    return dict(zip(mechanism.inputs, values, strict=True))


def _rational(value: Fraction) -> sympy.Rational:
    return sympy.Rational(value.numerator, value.denominator)


def _largest_limit(values: list[Scalar]) -> Scalar:
    if any(v is sympy.oo for v in values):
        return sympy.oo
    finite = [v for v in values if isinstance(v, Fraction)]
    return max(finite) if finite else -sympy.oo


_ONE = Fraction(1)


def _pml_along_rational(column: dict[Label, Fraction], weights: Weights) -> _Along | None:
    """As :func:`_pml_expression`: max_x p(y|x) / sum_x p(x) p(y|x)."""
    mass = weighted_sum((c, weights[x]) for x, c in column.items())
    if not mass:
        return None
    t = _t()
    highest = max(column.values())
    expression = sympy.Mul(
        _rational(highest), sympy.Pow(polynomial_expression(mass, t), -1), evaluate=False
    )
    return _Along(expression, limit_at_zero(constant(highest), mass))


def _entry_along_rational(
    column: dict[Label, Fraction], weights: Weights, entry: int
) -> _Along | None:
    """As :func:`_entry_expression`: max_d p(y|D_i = d) / p_Y(y)."""
    joint: dict[Label, list[tuple[Fraction, Weight]]] = {}
    marginal: dict[Label, list[tuple[Fraction, Weight]]] = {}
    for x, c in column.items():
        d = x[entry]  # type: ignore[index]
        joint.setdefault(d, []).append((c, weights[x]))
        marginal.setdefault(d, []).append((_ONE, weights[x]))
    joints = {d: weighted_sum(terms) for d, terms in joint.items()}
    marginals = {d: weighted_sum(terms) for d, terms in marginal.items()}
    mass = polynomial_sum(joints.values())
    if not mass or not all(marginals.values()):
        return None
    t = _t()
    mass_expression = polynomial_expression(mass, t)
    terms = [
        sympy.Mul(
            polynomial_expression(joints[d], t),
            sympy.Pow(polynomial_expression(marginals[d], t) * mass_expression, -1),
            evaluate=False,
        )
        for d in joints
    ]
    expression = sympy.Max(*terms, evaluate=False) if len(terms) > 1 else terms[0]
    reached = _largest_limit(
        [limit_at_zero(joints[d], polynomial_product(marginals[d], mass)) for d in joints]
    )
    return _Along(expression, reached)


@functools.lru_cache(maxsize=1024)
def _conditional_along_rational(
    slice_: tuple[tuple[Fraction, bool], ...], letters: int, n: int
) -> _Along | None:
    """As :func:`_conditional_expression` along the product prior of App. B.1 (uniform on
    each D_j, j != i; 1 - t on d'_i): max_d p(y|d, d_-i) sum_d p(d, d_-i) /
    sum_d p(d, d_-i) p(y|d, d_-i).  ``slice_`` holds (p(y|d, d_-i), d == d'_i) for the d of
    the slice d_-i; cached, as sup over 𝒫_X and over 𝒬_X build the same one."""
    uniform: Weight = (Fraction(1, letters) ** (n - 1), 0, 0)
    top: list[tuple[Fraction, Weight]] = []
    bottom: list[tuple[Fraction, Weight]] = []
    for c, favoured in slice_:
        weight = weight_product(uniform, concentrating_factor(favoured, letters - 1))
        top.append((_ONE, weight))
        bottom.append((c, weight))
    highest = max(c for c, _ in slice_)
    numerator, denominator = weighted_sum(top), weighted_sum(bottom)
    if not denominator:
        return None
    t = _t()
    expression = sympy.Mul(
        _rational(highest),
        polynomial_expression(numerator, t),
        sympy.Pow(polynomial_expression(denominator, t), -1),
        evaluate=False,
    )
    return _Along(expression, limit_at_zero(scaled(numerator, highest), denominator))


def _product_weights(inputs: list[Label], alphabet: tuple[Label, ...], favoured: Any) -> Weights:
    """Eq. (B.3) (:func:`concentrating_product_prior`): the weight of each input."""
    others = len(alphabet) - 1
    return {
        x: weight_product(
            *(concentrating_factor(d == f, others) for d, f in zip(x, favoured, strict=True))  # type: ignore[call-overload]
        )
        for x in inputs
    }


# --- the leakage along a construction, by sympy (the general path) --------------------------


def _poly(value: object, t: sympy.Symbol) -> sympy.Poly:
    return sympy.Poly(to_sympy(value) if not isinstance(value, sympy.Basic) else value, t)


def _column(mechanism: Mechanism, output: Label) -> dict[Label, sympy.Expr]:
    return {x: to_sympy(v) for x, v in zip(mechanism.inputs, mechanism.column(output), strict=True)}


def _pml_expression(
    column: dict[Label, sympy.Expr], prior: Distribution, t: sympy.Symbol
) -> sympy.Expr:
    """exp l(X->y) = max_x p(y|x) / sum_x p(x) p(y|x) for a prior positive for t in (0, 1)."""
    mass = sum((_poly(prior[x], t) * c for x, c in column.items()), _poly(0, t))
    return sympy.Mul(sympy.Max(*column.values()), sympy.Pow(mass.as_expr(), -1), evaluate=False)


def _entry_expression(
    column: dict[Label, sympy.Expr], prior: Distribution, entry: int, t: sympy.Symbol
) -> sympy.Expr:
    """exp l(D_i->y) = max_d p(y|D_i = d) / p_Y(y), p(y|D_i = d) = sum_{x_i = d} p(x) p(y|x) /
    P(D_i = d), for a prior positive for t in (0, 1)."""
    joint: dict[Label, sympy.Poly] = {}
    marginal: dict[Label, sympy.Poly] = {}
    zero = _poly(0, t)
    for x, c in column.items():
        weight = _poly(prior[x], t)
        d = x[entry]  # type: ignore[index]
        joint[d] = joint.get(d, zero) + weight * c
        marginal[d] = marginal.get(d, zero) + weight
    mass = sum(joint.values(), zero).as_expr()
    terms = [
        sympy.Mul(joint[d].as_expr(), sympy.Pow(marginal[d].as_expr() * mass, -1), evaluate=False)
        for d in joint
    ]
    return sympy.Max(*terms, evaluate=False) if len(terms) > 1 else terms[0]


def _conditional_expression(
    column: dict[Label, sympy.Expr],
    prior: Distribution,
    entry: int,
    rest: tuple[Label, ...],
    t: sympy.Symbol,
) -> sympy.Expr:
    """exp l(D_i->y | d_-i) = max_d p(y|d, d_-i) sum_d p(d, d_-i) / sum_d p(d, d_-i) p(y|d, d_-i)
    (Def 2.5 with the closed form of Thm 2.4)."""
    zero = _poly(0, t)
    top, bottom, highest = zero, zero, []
    for x, c in column.items():
        if x[:entry] + x[entry + 1 :] != rest:  # type: ignore[index]
            continue
        weight = _poly(prior[x], t)
        top += weight
        bottom += weight * c
        highest.append(c)
    return sympy.Mul(
        sympy.Max(*highest), top.as_expr(), sympy.Pow(bottom.as_expr(), -1), evaluate=False
    )


# --- sup of l(X -> y) ------------------------------------------------------------------------


def sup_pml(
    mechanism: Mechanism,
    family: PriorFamily,
    *,
    output: Label | None = None,
    attribute: AttributeLike | None = None,
) -> Supremum:
    """sup over the family of l(X->y) (or of l(U->y) for a fixed ``attribute``).

    * 𝒫_X (:class:`FullSupportPriors`): Thm 2.8 -- log max_x p(y|x) / min_x p(y|x), reached
      by the prior putting 1 - t on argmin_x p(y|x) (:func:`concentrating_prior`);
    * 𝒬_X (:class:`ProductPriors`): Thm 4.5 (2) -- the same free-lunch ratio, reached by the
      product prior of eq. (B.3) concentrating on x* = argmin_x p(y|x) (App. B.2);
    * finite, parametric and 𝒫_c^f families: see the module docstring.

    With ``output=None`` the supremum over all outputs (for 𝒫_X the leakage capacity,
    Def 2.7).  ``attribute`` is supported for finite and parametric families.
    """
    _check(mechanism, family)
    outputs = _outputs(mechanism, output)
    what = "l(X -> y)" if attribute is None else "l(U -> y)"
    if attribute is not None and isinstance(family, (FullSupportPriors, ProductPriors, IIDPriors)):
        raise InvalidArgument(
            f"sup over {family.describe()} of l(U -> y) for a fixed attribute has no construction "
            "in the paper; use a FinitePriors or ParametricPriors family (for entries D_i use "
            "sup_entry_leakage)"
        )
    kernel = None if attribute is None else as_attribute(attribute, mechanism)
    parts: list[Supremum] = []
    for y in outputs:
        quantity = f"sup over {family.describe()} of {what}, y = {y!r}"
        if isinstance(family, FullSupportPriors):
            parts.append(_sup_pml_full_support(mechanism, y, quantity))
        elif isinstance(family, ProductPriors):
            parts.append(_sup_pml_product(mechanism, family, y, quantity))
        else:
            measure: Callable[[Distribution], LogValue]
            make: Callable[[Distribution, Scalar | None], Instance]
            if kernel is None:

                def measure(prior: Distribution, y: Label = y) -> LogValue:
                    return pointwise_maximal_leakage(mechanism, prior, y)

                def make(prior: Distribution, value: Scalar | None, y: Label = y) -> Instance:
                    return Instance(mechanism, prior, y, "pml", parameter_value=value)

            else:

                def measure(prior: Distribution, y: Label = y) -> LogValue:
                    return pointwise_maximal_leakage(mechanism, prior, y, attribute=kernel)

                def make(prior: Distribution, value: Scalar | None, y: Label = y) -> Instance:
                    return Instance(
                        mechanism, prior, y, "attribute", attribute=kernel, parameter_value=value
                    )

            parts.append(_sup_other(mechanism, family, measure, make, quantity))
    theorem = _theorem_for(family, "pml")
    return _maximum(parts, f"sup over {family.describe()} and outputs y of {what}", theorem)


def _theorem_for(family: PriorFamily, measure: str) -> str:
    table = {
        (FullSupportPriors, "pml"): f"{SOURCE}, Thm 2.8; Thm 4.5 (1)",
        (ProductPriors, "pml"): f"{SOURCE}, Thm 4.5 (2)",
        (ProductPriors, "entry"): f"{SOURCE}, Thm 4.2 (3)",
        (FullSupportPriors, "entry"): f"{SOURCE}, Thm 4.5 (3)",
        (ProductPriors, "conditional"): f"{SOURCE}, Thm 4.2 (2)",
        (FullSupportPriors, "conditional"): f"{SOURCE}, Thm 4.2 (1)",
        (IIDPriors, "entry"): f"{SOURCE}, §4.1 (the family 𝒫_c^f)",
    }
    return table.get((type(family), measure), "")


def _uniform(mechanism: Mechanism) -> Distribution:
    return Distribution.uniform(mechanism.inputs)


def _sup_pml_full_support(mechanism: Mechanism, y: Label, quantity: str) -> Supremum:
    ratio, _, low = free_lunch_ratio(mechanism, y)
    inputs = mechanism.inputs

    def builder(t: Any) -> Instance:
        return Instance(mechanism, concentrating_prior(inputs, low, t), y, "pml", parameter_value=t)

    def along() -> _Along:
        if len(inputs) == 1:
            return _sympy_along(sympy.S.One)
        rational = _rational_column(mechanism, y)
        if rational is not None:
            others = len(inputs) - 1
            weights = {x: concentrating_factor(x == low, others) for x in inputs}
            found = _pml_along_rational(rational, weights)
            if found is not None:
                return found
        prior = concentrating_prior(inputs, low, _t())
        return _sympy_along(_pml_expression(_column(mechanism, y), prior, _t()))

    return _reached(
        ratio,
        name="Thm 2.8 prior (1 - t on argmin_x p(y|x))",
        source=f"{SOURCE}, Thm 2.8 (Issa et al., Thm 14)",
        builder=builder,
        along=along,
        quantity=quantity,
        theorem=f"{SOURCE}, Thm 2.8",
        uniform=Instance(mechanism, _uniform(mechanism), y, "pml"),
    )


def _sup_pml_product(
    mechanism: Mechanism, family: ProductPriors, y: Label, quantity: str
) -> Supremum:
    shape = _shape(mechanism, family)
    ratio, _, low = free_lunch_ratio(mechanism, y)

    def builder(t: Any) -> Instance:
        prior = concentrating_product_prior(shape.alphabet, low, t)  # type: ignore[arg-type]
        return Instance(mechanism, prior, y, "pml", parameter_value=t)

    def along() -> _Along:
        if len(shape.alphabet) == 1:
            return _sympy_along(sympy.S.One)
        rational = _rational_column(mechanism, y)
        if rational is not None:
            weights = _product_weights(list(mechanism.inputs), shape.alphabet, low)
            found = _pml_along_rational(rational, weights)
            if found is not None:
                return found
        prior = concentrating_product_prior(shape.alphabet, low, _t())  # type: ignore[arg-type]
        return _sympy_along(_pml_expression(_column(mechanism, y), prior, _t()))

    return _reached(
        ratio,
        name="concentrating product prior on x* = argmin_x p(y|x)",
        source=f"{SOURCE}, App. B.2, eq. (B.3)",
        builder=builder,
        along=along,
        quantity=quantity,
        theorem=f"{SOURCE}, Thm 4.5 (2)",
        uniform=Instance(mechanism, _uniform(mechanism), y, "pml"),
    )


# --- sup of l(D_i -> y) -------------------------------------------------------------------


def sup_entry_leakage(
    mechanism: Mechanism,
    family: PriorFamily,
    *,
    output: Label | None = None,
    entry: int | None = None,
) -> Supremum:
    """sup over the family of l(D_i->y), for a mechanism on databases D^n.

    * 𝒬_X: Thm 4.2 (3) -- the DP ratio ``max_{d_-i} max_{d, d'} p(y|d, d_-i)/p(y|d', d_-i)``,
      reached by the product prior of eq. (B.3) (1 - t on ``d*_-i`` and on ``d'_i``);
    * 𝒫_X: Thm 4.5 (3) -- ``max_{d != d'} max_{d_-i} p(y|d, .) / min_{d_-i} p(y|d', .)``
      (eq. (B.6a)), reached by the prior of eq. (B.5); over all entries it is the
      free-lunch ratio;
    * finite, parametric and 𝒫_c^f families: exact, see the module docstring.

    ``entry=None`` takes the maximum over entries; ``output=None`` over outputs.
    """
    _check(mechanism, family)
    shape = _shape(mechanism, family)
    parts: list[Supremum] = []
    for y in _outputs(mechanism, output):
        for i in _entries(shape, entry):
            quantity = f"sup over {family.describe()} of l(D_{i} -> y), y = {y!r}"
            if isinstance(family, ProductPriors):
                parts.append(_sup_entry_product(mechanism, shape, y, i, quantity))
            elif isinstance(family, FullSupportPriors):
                parts.append(_sup_entry_full_support(mechanism, shape, y, i, quantity))
            else:

                def measure(prior: Distribution, y: Label = y, i: int = i) -> LogValue:
                    return pointwise_maximal_leakage(mechanism, prior, y, attribute=lambda x: x[i])

                def make(
                    prior: Distribution, value: Scalar | None, y: Label = y, i: int = i
                ) -> Instance:
                    return Instance(mechanism, prior, y, "entry", entry=i, parameter_value=value)

                parts.append(_sup_other(mechanism, family, measure, make, quantity))
    theorem = _theorem_for(family, "entry")
    return _maximum(
        parts, f"sup over {family.describe()}, outputs y and entries i of l(D_i -> y)", theorem
    )


def _sup_entry_product(
    mechanism: Mechanism, shape: DatabaseShape, y: Label, i: int, quantity: str
) -> Supremum:
    found = dp_ratio(mechanism, shape, y, i)
    favoured = shape.put(found.rest, i, found.low)

    def builder(t: Any) -> Instance:
        prior = concentrating_product_prior(shape.alphabet, favoured, t)
        return Instance(mechanism, prior, y, "entry", entry=i, parameter_value=t)

    def along() -> _Along:
        if len(shape.alphabet) == 1:
            return _sympy_along(sympy.S.One)
        rational = _rational_column(mechanism, y)
        if rational is not None:
            weights = _product_weights(list(mechanism.inputs), shape.alphabet, favoured)
            reached = _entry_along_rational(rational, weights, i)
            if reached is not None:
                return reached
        prior = concentrating_product_prior(shape.alphabet, favoured, _t())
        return _sympy_along(_entry_expression(_column(mechanism, y), prior, i, _t()))

    return _reached(
        found.ratio,
        name=f"concentrating product prior on d*_-{i} and d'_{i}",
        source=f"{SOURCE}, App. B.1, eq. (B.3)",
        builder=builder,
        along=along,
        quantity=quantity,
        theorem=f"{SOURCE}, Thm 4.2 (3)",
        uniform=Instance(mechanism, _uniform(mechanism), y, "entry", entry=i),
    )


def _sup_entry_full_support(
    mechanism: Mechanism, shape: DatabaseShape, y: Label, i: int, quantity: str
) -> Supremum:
    ratio, high, low = entry_ratio_over_all_priors(mechanism, shape, y, i)
    uniform = Instance(mechanism, _uniform(mechanism), y, "entry", entry=i)
    if shape.n == 1:  # D_i = X: Thm 2.8 itself
        single = _sup_pml_full_support(mechanism, y, quantity)
        if single.attained:
            return Supremum(single.value, True, uniform, quantity, f"{SOURCE}, Thm 4.5 (3)")
        base = single.witness
        assert isinstance(base, Construction)

        def builder_single(t: Any) -> Instance:
            prior = base.builder(t).prior
            return Instance(mechanism, prior, y, "entry", entry=i, parameter_value=t)

        construction = Construction(
            base.name,
            base.source,
            base.parameter,
            base.to,
            base.domain,
            builder_single,
            base.expression,
            base.limit,
        )
        return Supremum(single.value, False, construction, quantity, f"{SOURCE}, Thm 4.5 (3)")
    rests = shape.rests()

    def argmost(value: Label, *, largest: bool) -> tuple[Label, ...]:
        entries = [(rest, mechanism.probability(shape.put(rest, i, value), y)) for rest in rests]
        best = entries[0]
        for item in entries[1:]:
            if (compare(item[1], best[1]) > 0) if largest else (compare(item[1], best[1]) < 0):
                best = item
        return best[0]

    high_rest = argmost(high, largest=True)
    low_rest = argmost(low, largest=False)

    def builder(t: Any) -> Instance:
        prior = concentrating_kernel_prior(
            shape.alphabet, shape.n, i, high, low, high_rest, low_rest, t
        )
        return Instance(mechanism, prior, y, "entry", entry=i, parameter_value=t)

    def along() -> _Along:
        if high == low:
            return _sympy_along(sympy.S.One)
        rational = _rational_column(mechanism, y)
        if rational is not None:
            letters, kernel_others = len(shape.alphabet) - 1, len(rests) - 1
            weights: Weights = {}
            for x in mechanism.inputs:
                value, rest = x[i], shape.drop(x, i)  # type: ignore[index, arg-type]
                target = tuple(high_rest) if value == high else tuple(low_rest)
                weights[x] = weight_product(
                    concentrating_factor(value == low, letters),
                    concentrating_factor(rest == target, kernel_others),
                )
            found = _entry_along_rational(rational, weights, i)
            if found is not None:
                return found
        prior = concentrating_kernel_prior(
            shape.alphabet, shape.n, i, high, low, high_rest, low_rest, _t()
        )
        return _sympy_along(_entry_expression(_column(mechanism, y), prior, i, _t()))

    return _reached(
        ratio,
        name=f"concentrating kernel P_D{i} x P*_(D_-{i} | D_{i})",
        source=f"{SOURCE}, App. B.2, eq. (B.5)",
        builder=builder,
        along=along,
        quantity=quantity,
        theorem=f"{SOURCE}, Thm 4.5 (3)",
        uniform=uniform,
    )


# --- sup of max_{d_-i} l(D_i -> y | d_-i) -------------------------------------------------------


def sup_conditional_pml(
    mechanism: Mechanism,
    family: PriorFamily,
    *,
    output: Label | None = None,
    entry: int | None = None,
) -> Supremum:
    """sup over the family of ``max_{d_-i} l(D_i->y | d_-i)`` (Thm 4.2 (1) for 𝒫_X, (2) for 𝒬_X).

    For 𝒫_X and 𝒬_X the value is the DP ratio (B.1), reached by a product prior with
    P_{D_i} putting 1 - t on argmin_d p(y|d, d*_-i) (the construction after (B.1c)); the
    witness instance conditions on d*_-i.  Finite, parametric and 𝒫_c^f families: exact.
    """
    _check(mechanism, family)
    shape = _shape(mechanism, family)
    parts: list[Supremum] = []
    for y in _outputs(mechanism, output):
        for i in _entries(shape, entry):
            quantity = (
                f"sup over {family.describe()} of max_d_-{i} l(D_{i} -> y | d_-{i}), y = {y!r}"
            )
            if isinstance(family, (ProductPriors, FullSupportPriors)):
                parts.append(_sup_conditional_structured(mechanism, family, shape, y, i, quantity))
            else:
                parts.append(_sup_conditional_other(mechanism, family, shape, y, i, quantity))
    theorem = _theorem_for(family, "conditional")
    return _maximum(
        parts,
        f"sup over {family.describe()}, outputs y, entries i and d_-i of l(D_i -> y | d_-i)",
        theorem,
    )


def _sup_conditional_structured(
    mechanism: Mechanism,
    family: PriorFamily,
    shape: DatabaseShape,
    y: Label,
    i: int,
    quantity: str,
) -> Supremum:
    found = dp_ratio(mechanism, shape, y, i)
    uniform_rest = [Distribution.uniform(shape.alphabet)] * (shape.n - 1)

    def prior_at(t: Any) -> Distribution:
        factors = list(uniform_rest)
        factors.insert(i, concentrating_prior(shape.alphabet, found.low, t))
        product = Distribution.product(factors)
        return Distribution._trusted(
            product.outcomes,
            [p if isinstance(p, Fraction) else sympy.expand(p) for p in product.probabilities],
        )

    def builder(t: Any) -> Instance:
        return Instance(
            mechanism,
            prior_at(t),
            y,
            "conditional",
            entry=i,
            side_information=found.rest,
            parameter_value=t,
        )

    def along() -> _Along:
        if len(shape.alphabet) == 1:
            return _sympy_along(sympy.S.One)
        rational = _rational_column(mechanism, y)
        if rational is not None:
            slice_ = tuple(
                (c, x[i] == found.low)  # type: ignore[index]
                for x, c in rational.items()
                if shape.drop(x, i) == found.rest  # type: ignore[arg-type]
            )
            reached = _conditional_along_rational(slice_, len(shape.alphabet), shape.n)
            if reached is not None:
                return reached
        column = _column(mechanism, y)
        return _sympy_along(_conditional_expression(column, prior_at(_t()), i, found.rest, _t()))

    theorem = f"{SOURCE}, Thm 4.2 ({1 if isinstance(family, FullSupportPriors) else 2})"
    return _reached(
        found.ratio,
        name=f"product prior with 1 - t on d'_{i} = argmin_d p(y | d, d*_-{i})",
        source=f"{SOURCE}, App. B.1, after (B.1c)",
        builder=builder,
        along=along,
        quantity=quantity,
        theorem=theorem,
        uniform=Instance(
            mechanism, _uniform(mechanism), y, "conditional", entry=i, side_information=found.rest
        ),
    )


def _sup_conditional_other(
    mechanism: Mechanism,
    family: PriorFamily,
    shape: DatabaseShape,
    y: Label,
    i: int,
    quantity: str,
) -> Supremum:
    parts: list[Supremum] = []
    for rest in shape.rests():

        def measure(prior: Distribution, rest: tuple[Label, ...] = rest) -> LogValue:
            mass = exact_sum(prior[x] for x in prior.outcomes if shape.drop(x, i) == rest)  # type: ignore[arg-type]
            if prove_zero(mass):
                return LogValue(1)  # d_-i impossible under this prior: no leakage about it
            return conditional_pointwise_maximal_leakage(
                mechanism,
                prior,
                y,
                given=lambda x: shape.drop(x, i),
                value=rest,
                attribute=lambda x: x[i],
            )

        def make(
            prior: Distribution, value: Scalar | None, rest: tuple[Label, ...] = rest
        ) -> Instance:
            return Instance(
                mechanism,
                prior,
                y,
                "conditional",
                entry=i,
                side_information=rest,
                parameter_value=value,
            )

        parts.append(
            _sup_other(mechanism, family, measure, make, quantity + f", d_-{i} = {rest!r}")
        )
    return _maximum(parts, quantity, "")


# --- finite, parametric and i.i.d. families ---------------------------------------------------


def _sup_other(
    mechanism: Mechanism,
    family: PriorFamily,
    measure: Callable[[Distribution], LogValue],
    make: Callable[[Distribution, Scalar | None], Instance],
    quantity: str,
) -> Supremum:
    if isinstance(family, FinitePriors):
        best_prior = family.priors[0]
        best = measure(best_prior)
        for prior in family.priors[1:]:
            value = measure(prior)
            if value.compare(best) > 0:
                best, best_prior = value, prior
        return Supremum(best, True, make(best_prior, None), quantity, "")
    if isinstance(family, IIDPriors):
        _require_factoring(mechanism, family)
        parametric = family.spread_family(sympy.Symbol("p", positive=True))
        return parametric_supremum(parametric, measure, make, quantity, f"{SOURCE}, §4.1")
    if isinstance(family, ParametricPriors):
        return parametric_supremum(family, measure, make, quantity, "")
    raise InvalidArgument(
        f"no supremum for the family {family.describe()} here"
    )  # pragma: no cover


def _require_factoring(mechanism: Mechanism, family: IIDPriors) -> None:
    """The mechanism must see each entry only through the predicate f (§4.1, App. B.3)."""
    pattern: dict[tuple[int, ...], tuple[Label, tuple[Scalar, ...]]] = {}
    for x, row in zip(mechanism.inputs, mechanism.rows, strict=True):
        key = tuple(int(family.predicate(d) == 1) for d in x)  # type: ignore[attr-defined]
        if key in pattern and pattern[key][1] != row:
            raise InvalidArgument(
                f"the supremum over {family.describe()} needs a mechanism that sees the entries "
                f"only through the predicate f (Saeidian et al., §4.1), but inputs "
                f"{abbreviated_repr(pattern[key][0])} and {abbreviated_repr(x)} have equal "
                "f-values and different rows"
            )
        pattern.setdefault(key, (x, row))


# --- Thm 2.4: the supremum over attributes ---------------------------------------------------


def sup_guessing_gain(
    mechanism: Mechanism, prior: Distribution, output: Label, *, max_size: int = 10_000
) -> Supremum:
    """Def 2.3's sup over attributes U of max_u p(u|y) / max_u p_U(u), which Thm 2.4 says is
    exp l(X->y): attained by the shattering attribute with the least K that works
    (:func:`~exactpml.suprema.constructions.least_shattering_size`).  The witness attribute has
    K + 1 values; a K above ``max_size`` is refused rather than built."""
    if not isinstance(mechanism, Mechanism):
        raise InvalidArgument(f"mechanism must be a Mechanism, got {type(mechanism).__name__}")
    mechanism.check_prior(prior)
    mechanism.output_position(output)
    value = pointwise_maximal_leakage(mechanism, prior, output)
    size = least_shattering_size(mechanism, prior, output)
    if size > max_size:
        raise InvalidArgument(
            f"the least shattering attribute has K = {abbreviated(size)} values, above "
            f"max_size={abbreviated(max_size)}"
        )
    attribute = shattering_attribute(mechanism, prior, output, size)
    witness = Instance(
        mechanism, prior, output, "gain", attribute=attribute, parameter_value=Fraction(size)
    )
    return Supremum(
        value,
        True,
        witness,
        f"sup over attributes U of the guessing gain, y = {output!r}",
        f"{SOURCE}, Thm 2.4 (Saeidian et al. 2023b, Thm 1)",
    )


def shattering_construction(
    mechanism: Mechanism, prior: Distribution, output: Label
) -> Construction:
    """The variant of Thm 2.4's attribute with u0 among its K values: its guessing gain
    (q* + (1-q*)/K) / (p* + (1-p*)/K) tends to q*/p* = exp l(X->y) as K -> oo, and stays
    below it for every K when q* > p* (the mutant of CLAIMS ``pml.thm_2_4``)."""
    _, p_star, q_star = shattering_quantities(mechanism, prior, output)
    size = sympy.Symbol("K", positive=True)
    p, q = to_sympy(p_star), to_sympy(q_star)
    expression = (q + (1 - q) / size) / (p + (1 - p) / size)
    reached = limits.limit(expression, size, "oo")

    def builder(k: int) -> Instance:
        attribute = shattering_attribute(mechanism, prior, output, k, among=True)
        return Instance(
            mechanism, prior, output, "gain", attribute=attribute, parameter_value=Fraction(k)
        )

    return Construction(
        "shattering attribute with u0 among its K values",
        f"{SOURCE}, Thm 2.4 (mutant of the proof's attribute)",
        size,
        "oo",
        ParameterDomain(1, "oo", lower_open=False),
        builder,
        expression,
        reached,
        integer=True,
    )
