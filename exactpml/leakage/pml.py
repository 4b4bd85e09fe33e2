"""Pointwise maximal leakage on finite alphabets, exactly (Saeidian et al., §2 and §3).

Every log-valued measure returns a :class:`~exactpml.core.logvalue.LogValue` holding the exact
argument of the log.  Definitions, in the paper's notation:

* min-entropy (Def 2.1): ``H_inf(P_X) = -log max_x p_X(x)``;
* Rényi divergence of order ∞ (Def 2.2): ``D_inf(P||Q) = log max_{z in supp P} p(z)/q(z)``
  (``oo`` when some ``q(z) = 0 < p(z)``);
* pointwise maximal leakage (Def 2.3, closed form of Thm 2.4):
  ``l(X->y) = D_inf(P_{X|Y=y} || P_X) = log max_{x in supp P_X} p(y|x) / p_Y(y)``,
  and ``0`` when ``p_Y(y) = 0`` (footnote 5);
* conditional PML (Def 2.5): ``l(X->y|z) = D_inf(P_{X|Y=y,Z=z} || P_{X|Z=z})``;
* (ε, P)-PML (Def 2.6); leakage capacity (Def 2.7):
  ``C = log sup_y max_{x,x'} p(y|x)/p(y|x')``, ``oo`` when a column mixes zero and non-zero
  entries (all-zero columns are ignored); maximal leakage ``log Σ_y max_x p(y|x)``.

>>> from exactpml import Distribution, Mechanism, leakage_capacity
>>> mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
>>> prior = Distribution({"a": "2/3", "b": "1/3"})
>>> print(pointwise_maximal_leakage(mechanism, prior, 1))
log(9/5)
>>> print(leakage_capacity(mechanism))
log(3)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import sympy

from exactpml.core.abbreviate import abbreviated_repr
from exactpml.core.decisions import prove_zero
from exactpml.core.distribution import Distribution
from exactpml.core.exact import (
    Scalar,
    exact_product,
    exact_quotient,
    exact_sum,
)
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.core.parameters import epsilon_bound
from exactpml.errors import InvalidArgument
from exactpml.leakage._support import (
    AttributeLike,
    Label,
    _attribute_distribution,
    _check,
    _max,
    _max_log,
    _positive_condition,
    as_attribute,
)
from exactpml.leakage.divergences import renyi_divergence_inf
from exactpml.leakage.profile import leakage_profile

__all__ = [
    "conditional_pointwise_maximal_leakage",
    "guessing_gain",
    "is_pml_private",
    "max_pointwise_maximal_leakage",
    "pml",
    "pml_joint_divergence",
    "pointwise_maximal_leakage",
    "pointwise_maximal_leakage_by_output",
    "posterior_min_entropy",
    "probability_leakage_at_most",
]


# --- pointwise maximal leakage -------------------------------------------------------
def _pml_ratio_attribute(
    mechanism: Mechanism,
    prior: Distribution,
    output: Label,
    attribute: Mechanism,
    conditions: list[sympy.Basic],
) -> Scalar:
    """max_{u in supp P_U} p(u|y) / p_U(u) with P_{U|Y=y} = P_{U|X} ∘ P_{X|Y=y}."""
    column = mechanism.column(output)
    weights = [prior[x] for x in mechanism.inputs]
    mass = exact_sum(exact_product(w, c) for w, c in zip(weights, column, strict=True))
    if not _positive_condition(mass, conditions):
        return Fraction(1)
    posterior = mechanism.posterior(prior, output)
    prior_u = _attribute_distribution(attribute, prior)
    posterior_u = _attribute_distribution(attribute, posterior)
    ratios = [
        exact_quotient(post, pri)
        for pri, post in zip(prior_u, posterior_u, strict=True)
        if not prove_zero(pri)
    ]
    return _max(ratios)


def _rational_ratio_of_function(
    mechanism: Mechanism, prior: Distribution, output: Label, function: Callable[[Any], Hashable]
) -> Fraction | None:
    """max_{u : p_U(u) > 0} p(u|y) / p_U(u) for the deterministic attribute U = ``function(X)``
    in ``Fraction`` arithmetic, with no attribute kernel built:
    p(u|y) / p_U(u) = sum_{f(x) = u} p(x) p(y|x) / (p_Y(y) sum_{f(x) = u} p(x)), and 1 when
    p_Y(y) = 0 (footnote 5).  None unless the prior and the column of y are rational (and
    carry no conditions): then the general path computes it."""
    if mechanism.conditions or prior.conditions:
        return None
    weights = [prior[x] for x in mechanism.inputs]
    column = mechanism.column(output)
    if not all(type(w) is Fraction for w in weights) or not all(
        type(c) is Fraction for c in column
    ):
        return None
    try:
        masses: dict[Hashable, list[Fraction]] = {}
        for x, w, c in zip(mechanism.inputs, weights, column, strict=True):
            found = masses.setdefault(function(x), [Fraction(0), Fraction(0)])
            found[0] += w
            found[1] += w * c
    except TypeError:  # an unhashable value: the general path reports it
        return None
    mass = sum((joint for _, joint in masses.values()), Fraction(0))
    if mass == 0:
        return Fraction(1)
    return max(joint / mass / marginal for marginal, joint in masses.values() if marginal)


def pointwise_maximal_leakage(
    mechanism: Mechanism,
    prior: Distribution,
    output: Label,
    *,
    attribute: AttributeLike | None = None,
) -> LogValue:
    """PML l(X->y) (Def 2.3 via Thm 2.4), or l(U->y) for an attribute U of X.

    ``l(X->y) = log max_{x in supp P_X} p(y|x) / p_Y(y)``; 0 when p_Y(y) = 0 (footnote 5).
    With ``attribute`` (a kernel P_{U|X} or a function of x), the leakage about U through
    the Markov chain U - X - Y: ``log max_{u in supp P_U} p_{U|Y=y}(u) / p_U(u)``.
    """
    if attribute is None:  # shared with every other output of this prior: computed once
        return leakage_profile(mechanism, prior)[output]
    _check(mechanism, prior)
    mechanism.output_position(output)
    if callable(attribute) and not isinstance(attribute, Mechanism):
        rational = _rational_ratio_of_function(mechanism, prior, output, attribute)
        if rational is not None:
            return LogValue(rational)
    conditions: list[sympy.Basic] = [*mechanism.conditions, *prior.conditions]
    kernel = as_attribute(attribute, mechanism)
    ratio = _pml_ratio_attribute(mechanism, prior, output, kernel, conditions)
    conditions.extend(kernel.conditions)
    return LogValue(ratio, conditions=tuple(dict.fromkeys(conditions)))


pml = pointwise_maximal_leakage


def pointwise_maximal_leakage_by_output(
    mechanism: Mechanism,
    prior: Distribution,
    *,
    attribute: AttributeLike | None = None,
) -> Mapping[Label, LogValue]:
    """``{y: l(X->y)}`` for every output.

    Without an attribute this is the :class:`~exactpml.leakage.profile.LeakageProfile` of
    (mechanism, prior): computed once (integer fast path for rational input), each ratio put
    in lowest terms when read.  With an attribute, a dict of l(U->y).
    """
    if attribute is None:
        return leakage_profile(mechanism, prior)
    return {
        y: pointwise_maximal_leakage(mechanism, prior, y, attribute=attribute)
        for y in mechanism.outputs
    }


def max_pointwise_maximal_leakage(
    mechanism: Mechanism,
    prior: Distribution,
    *,
    attribute: AttributeLike | None = None,
) -> LogValue:
    """max over outputs y with p_Y(y) > 0 of l(X->y) (the ε of Def 2.6, form (iii))."""
    if attribute is None:
        return leakage_profile(mechanism, prior).maximum()
    leakages = pointwise_maximal_leakage_by_output(mechanism, prior, attribute=attribute)
    masses = mechanism.output_masses(prior)
    candidates = [
        leakages[y]
        for y, mass in zip(mechanism.outputs, masses, strict=True)
        if not prove_zero(mass)
    ]
    return _max_log(candidates)


def guessing_gain(
    mechanism: Mechanism, prior: Distribution, output: Label, attribute: AttributeLike
) -> LogValue:
    """The ratio inside Def 2.3 for one attribute U: max_u p_{U|Y=y}(u) / max_u p_U(u).

    Def 2.3 takes the supremum of this over all attributes; Thm 2.4 says the supremum equals
    ``pointwise_maximal_leakage(mechanism, prior, output)``.  The optimal guess Û given y is
    the posterior mode, so the numerator is the posterior's largest mass.
    """
    _check(mechanism, prior)
    mechanism.output_position(output)
    kernel = as_attribute(attribute, mechanism)
    posterior = mechanism.posterior(prior, output)
    prior_u = _attribute_distribution(kernel, prior)
    posterior_u = _attribute_distribution(kernel, posterior)
    return LogValue(
        exact_quotient(_max(posterior_u), _max(prior_u)),
        conditions=tuple(
            dict.fromkeys([*mechanism.conditions, *prior.conditions, *kernel.conditions])
        ),
    )


def posterior_min_entropy(
    mechanism: Mechanism,
    prior: Distribution,
    output: Label,
    *,
    attribute: AttributeLike | None = None,
) -> LogValue:
    """H_inf(P_{U|Y=y}) (U = X by default), with the footnote-5 convention at p_Y(y) = 0."""
    _check(mechanism, prior)
    posterior = mechanism.posterior(prior, output)
    if attribute is None:
        masses: Sequence[Scalar] = posterior.probabilities
    else:
        masses = _attribute_distribution(as_attribute(attribute, mechanism), posterior)
    return LogValue(exact_quotient(Fraction(1), _max(masses)), conditions=posterior.conditions)


def conditional_pointwise_maximal_leakage(
    mechanism: Mechanism,
    prior: Distribution,
    output: Label,
    *,
    given: Callable[[Any], Hashable],
    value: Hashable,
    attribute: AttributeLike | None = None,
) -> LogValue:
    """Conditional PML l(U->y | z) = D_inf(P_{U|Y=y,Z=z} || P_{U|Z=z}) (Def 2.5).

    The side information is Z = ``given(X)``, a function of the input, observed to equal
    ``value`` (which must have positive probability).  For a database X = (D_1, …, D_n),
    ``attribute=lambda x: x[i]`` and ``given=lambda x: x[:i] + x[i+1:]`` give
    l(D_i -> y | d_{-i}) of Thm 4.2.
    """
    _check(mechanism, prior)
    if not callable(given):
        raise InvalidArgument("given must be a function of the input (the side information Z)")
    if not any(given(x) == value for x in mechanism.inputs):
        raise InvalidArgument(f"no input has side information equal to {abbreviated_repr(value)}")
    conditional_prior = prior.condition_on(
        lambda x: given(x) == value, name=f"side information {value!r}"
    )
    return pointwise_maximal_leakage(mechanism, conditional_prior, output, attribute=attribute)


# --- guarantees ----------------------------------------------------------------------
def probability_leakage_at_most(
    mechanism: Mechanism,
    prior: Distribution,
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
) -> Scalar:
    """P_Y({y : l(X->y) <= ε}): Def 2.6's first form requires this to equal 1.

    ε follows the one parameter policy (:mod:`exactpml.core.parameters`): a number ≥ 0, a
    ``LogValue``, ``oo``, or ``exp_epsilon=e^ε``.
    """
    bound = epsilon_bound(epsilon, exp_epsilon)
    leakages = pointwise_maximal_leakage_by_output(mechanism, prior)
    masses = mechanism.output_masses(prior)
    return exact_sum(
        mass for y, mass in zip(mechanism.outputs, masses, strict=True) if leakages[y] <= bound
    )


def pml_joint_divergence(mechanism: Mechanism, prior: Distribution) -> LogValue:
    """D_inf(P_{XY} || P_X × P_Y): Def 2.6's second form bounds this by ε."""
    _check(mechanism, prior)
    joint = mechanism.joint(prior)
    output = mechanism.output_distribution(prior)
    product = Distribution._trusted(
        joint.outcomes,
        [exact_product(prior[pair[0]], output[pair[1]]) for pair in joint.outcomes],  # type: ignore[index]
    )
    return renyi_divergence_inf(joint, product)


def is_pml_private(
    mechanism: Mechanism,
    priors: Distribution | Iterable[Distribution],
    epsilon: object = None,
    *,
    exp_epsilon: object = None,
) -> bool:
    """(ε, P)-PML (Def 2.6) for one prior or a finite set of priors.

    True when, for every prior, every output with p_Y(y) > 0 has l(X->y) <= ε.  ε may be a
    ``LogValue`` (exact comparison), a non-negative number (certified comparison), ``oo``,
    or ``exp_epsilon=e^ε`` (:mod:`exactpml.core.parameters`).
    """
    bound = epsilon_bound(epsilon, exp_epsilon)
    family = [priors] if isinstance(priors, Distribution) else list(priors)
    if not family:
        raise InvalidArgument("priors: the set of priors is empty")
    return all(max_pointwise_maximal_leakage(mechanism, prior) <= bound for prior in family)
