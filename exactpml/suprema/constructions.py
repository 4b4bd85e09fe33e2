"""The constructions of Saeidian et al.'s proofs, as exact builders.

Each builder returns an exact object for any admissible parameter value, including the
parameter itself as a positive sympy symbol (so that the leakage along the family is an
expression that :func:`exactpml.limits.limit` can take to its limit):

* :func:`concentrating_prior` -- the prior of Thm 2.8 (Issa et al., Thm 14), and one factor
  of eq. (B.3): ``1 - t`` on one input, ``t/(|X| - 1)`` on each other;
* :func:`concentrating_product_prior` -- eq. (B.3): the product of concentrating priors;
* :func:`concentrating_kernel_prior` -- eq. (B.5) (App. B.2): P_{D_i} × P*_{D_-i|D_i};
* :func:`shattering_attribute` -- the attribute of Thm 2.4 (Saeidian et al. 2023b, Thm 1):
  U = u0 on x*, uniform on K other values elsewhere; :func:`least_shattering_size`;
* :func:`alpha_mechanism`, :func:`alpha_range` -- App. A.5 (Prop 3.8);
* :func:`lower_entropy_attribute`, :func:`lower_entropy_threshold` -- App. A.3 (Prop 3.6).

>>> from exactpml import Distribution
>>> prior = Distribution({"a": "1/2", "b": "1/3", "c": "1/6"})
>>> print(alpha_range(prior))
(0, 1/5]
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction

import sympy

from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import prove_zero
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, as_scalar, exact, to_sympy
from exactpml.core.mechanism import Mechanism
from exactpml.errors import ExactPMLError, InvalidArgument
from exactpml.leakage import AttributeLike, as_attribute
from exactpml.leakage.divergences import min_entropy
from exactpml.leakage.pml import pointwise_maximal_leakage
from exactpml.numerics.univariate import (
    RationalFunction,
    compare_points,
    rational_between,
    real_roots_between,
)
from exactpml.suprema.families import ParameterDomain, sorted_points

__all__ = [
    "U0",
    "alpha_mechanism",
    "alpha_range",
    "concentrating_kernel_prior",
    "concentrating_prior",
    "concentrating_product_prior",
    "least_shattering_size",
    "lower_entropy_attribute",
    "lower_entropy_threshold",
    "shattering_attribute",
    "shattering_gain",
    "solution_set",
]

Label = Hashable
U0 = "u0"
"""The label of the value u0 of the shattering attribute (its other values are 1..K)."""


def _weight(value: object, where: str) -> Scalar:
    weight = exact(value, where=where)
    if isinstance(weight, Fraction) and not 0 < weight < 1:
        raise InvalidArgument(f"{where}={abbreviated(weight)} must lie in the open interval (0, 1)")
    return weight


def concentrating_prior(inputs: Iterable[Label], favoured: Label, t: object) -> Distribution:
    """``1 - t`` on ``favoured``, ``t/(|X| - 1)`` on every other input (Thm 2.8; eq. (B.3)).

    ``t`` is an exact number in (0, 1) or a positive sympy symbol.  As ``t -> 0+`` with
    ``favoured`` in argmin_x p(y|x), l(X->y) tends to log max_x p(y|x)/min_x p(y|x)
    (Issa et al., Thm 14; Saeidian et al., Thm 2.8) without reaching it (Remark B.1).

    >>> print(concentrating_prior("abc", "a", "1/10")["b"])
    1/20
    """
    items = list(inputs)
    if favoured not in items:
        raise InvalidArgument(
            f"concentrating_prior: {abbreviated_repr(favoured)} is not among the inputs"
        )
    if len(items) < 2:
        raise InvalidArgument("concentrating_prior: needs at least two inputs")
    weight = _weight(t, "t")
    if type(weight) is Fraction:  # a member at a rational t: stays in Fraction
        rest, one_minus = weight / (len(items) - 1), 1 - weight
    else:
        rest = as_scalar(to_sympy(weight) / (len(items) - 1))
        one_minus = as_scalar(1 - to_sympy(weight))
    return Distribution._trusted(items, [one_minus if x == favoured else rest for x in items])


def concentrating_product_prior(
    alphabet: Sequence[Label], favoured: Sequence[Label], t: object
) -> Distribution:
    """Eq. (B.3): the product over entries j of ``1 - t`` on ``favoured[j]`` and
    ``t/(|D| - 1)`` on the other values of D, so the database ``favoured`` has probability
    ``(1 - t)^n`` and every other at most ``t/(|D|-1) (1 - t)^(n-1)``."""
    factors = [concentrating_prior(alphabet, value, t) for value in favoured]
    return _expanded(Distribution.product(factors))


def _expanded(prior: Distribution) -> Distribution:
    return Distribution._trusted(
        prior.outcomes,
        [p if isinstance(p, Fraction) else as_scalar(sympy.expand(p)) for p in prior.probabilities],
        prior.conditions,
    )


def concentrating_kernel_prior(
    alphabet: Sequence[Label],
    n: int,
    entry: int,
    high: Label,
    low: Label,
    high_rest: Sequence[Label],
    low_rest: Sequence[Label],
    t: object,
) -> Distribution:
    """Eq. (B.5) (App. B.2): P_X = P_{D_i} × P*_{D_-i|D_i} on D^n.

    P_{D_i} puts ``1 - t`` on ``low`` = d'_i (the step (B.5a), Thm 2.8 on the channel
    D_i -> Y).  The kernel puts ``1 - t`` on ``high_rest`` when D_i = ``high`` = d_i (an argmax
    of p(y|d_i, .)) and on ``low_rest`` for every other value of D_i (an argmin of
    p(y|d'_i, .)), and ``t/(|D|^(n-1) - 1)`` on the other d_-i.  As ``t -> 0+``,
    l(D_i -> y) tends to max_{d_-i} p(y|d_i, d_-i) / min_{d_-i} p(y|d'_i, d_-i) (eq. (B.6a)).
    """
    letters = list(alphabet)
    if n < 2:
        raise InvalidArgument("concentrating_kernel_prior: needs n >= 2 entries")
    if not 0 <= entry < n:
        raise InvalidArgument(f"concentrating_kernel_prior: entry={entry} is out of range")
    for name, value in (("high", high), ("low", low)):
        if value not in letters:
            raise InvalidArgument(
                f"concentrating_kernel_prior: {name}={abbreviated_repr(value)} is not in D"
            )
    rests = list(itertools.product(letters, repeat=n - 1))
    for name, rest in (("high_rest", high_rest), ("low_rest", low_rest)):
        if tuple(rest) not in rests:
            raise InvalidArgument(
                f"concentrating_kernel_prior: {name}={abbreviated_repr(rest)} is not in D^(n-1)"
            )
    weight = _weight(t, "t")
    marginal = concentrating_prior(letters, low, weight)
    outcomes: list[tuple[Label, ...]] = []
    probabilities: list[Scalar] = []
    if type(weight) is Fraction:  # a member at a rational t: Fraction arithmetic
        for x in itertools.product(letters, repeat=n):
            value, rest = x[entry], x[:entry] + x[entry + 1 :]
            target = tuple(high_rest) if value == high else tuple(low_rest)
            share = (1 - weight) if rest == target else weight / (len(rests) - 1)
            outcomes.append(x)
            probabilities.append(marginal[value] * share)
        return Distribution._trusted(outcomes, probabilities)
    w = to_sympy(weight)
    for x in itertools.product(letters, repeat=n):
        value, rest = x[entry], x[:entry] + x[entry + 1 :]
        target = tuple(high_rest) if value == high else tuple(low_rest)
        kernel = (1 - w) if rest == target else w / (len(rests) - 1)
        outcomes.append(x)
        probabilities.append(as_scalar(sympy.expand(to_sympy(marginal[value]) * kernel)))
    return Distribution._trusted(outcomes, probabilities)


# --- Thm 2.4: the shattering attribute -------------------------------------------------------


def _maximiser(mechanism: Mechanism, prior: Distribution, output: Label) -> Label:
    """x* in argmax_{x in supp P_X} p(y|x), where the posterior-to-prior ratio is largest;
    among ties the one of largest prior mass (it needs the fewest shattering values)."""
    mechanism.check_prior(prior)
    best: Label | None = None
    for x in mechanism.inputs:
        if prove_zero(prior[x]):
            continue
        if best is None:
            best = x
            continue
        order = compare_points(
            mechanism.probability(x, output), mechanism.probability(best, output)
        )
        if order > 0 or (order == 0 and compare_points(prior[x], prior[best]) > 0):
            best = x
    if best is None:
        raise InvalidArgument("the prior has empty support")
    return best


def shattering_attribute(
    mechanism: Mechanism,
    prior: Distribution,
    output: Label,
    size: int,
    *,
    among: bool = False,
) -> Mechanism:
    """The attribute of Thm 2.4's proof (Saeidian et al. 2023b, Thm 1): U = ``U0`` when
    X = x* (an argmax of p(y|x) on the support), otherwise uniform on ``size`` = K values.

    With ``among=False`` (the construction that works) the K values are 1..K, all other
    than u0: the guessing gain max_u p(u|y) / max_u p_U(u) equals exp l(X->y) exactly once
    K >= max((1-p*)/p*, (1-q*)/q*) (p* = p_X(x*), q* = p_{X|Y=y}(x*)).  With ``among=True``
    u0 is one of the K values (U0, 1..K-1): the gain is
    (q* + (1-q*)/K) / (p* + (1-p*)/K), which only tends to q*/p* as K -> oo.
    """
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise InvalidArgument(f"size={abbreviated_repr(size)} must be a positive int (K)")
    star = _maximiser(mechanism, prior, output)
    others: list[Label] = list(range(1, size + 1)) if not among else list(range(1, size))
    values: list[Label] = [U0, *others]
    share = Fraction(1, size)
    kernel: dict[Label, dict[Label, object]] = {}
    for x in mechanism.inputs:
        if x == star:
            kernel[x] = {U0: 1}
        else:
            spread = [U0, *others] if among else others
            kernel[x] = dict.fromkeys(spread, share)
    return Mechanism(kernel, outputs=values, name="shattering attribute")


def shattering_quantities(
    mechanism: Mechanism, prior: Distribution, output: Label
) -> tuple[Label, Scalar, Scalar]:
    """(x*, p*, q*) of Thm 2.4's shattering attribute."""
    star = _maximiser(mechanism, prior, output)
    posterior = mechanism.posterior(prior, output)
    return star, prior[star], posterior[star]


def shattering_gain(p_star: Scalar, q_star: Scalar, size: int, *, among: bool = False) -> Scalar:
    """The guessing gain of :func:`shattering_attribute` with K = ``size``, in closed form:
    max(q*, (1-q*)/K) / max(p*, (1-p*)/K), or (q* + (1-q*)/K) / (p* + (1-p*)/K) when u0 is
    among the K values (then the K - 1 other values share (1 - .)/K each)."""
    if type(p_star) is Fraction and type(q_star) is Fraction:  # the same formula, no sympy
        if among:
            return (q_star + (1 - q_star) / size) / (p_star + (1 - p_star) / size)
        return max(q_star, (1 - q_star) / size) / max(p_star, (1 - p_star) / size)
    p, q = to_sympy(p_star), to_sympy(q_star)
    if among:
        return as_scalar((q + (1 - q) / size) / (p + (1 - p) / size))
    return as_scalar(sympy.Max(q, (1 - q) / size) / sympy.Max(p, (1 - p) / size))


def least_shattering_size(mechanism: Mechanism, prior: Distribution, output: Label) -> int:
    """The least K for which :func:`shattering_attribute` attains exp l(X->y) exactly.

    K >= max((1-p*)/p*, (1-q*)/q*) suffices (Thm 2.4 as stated in CLAIMS); when the leakage
    is 0 (q* = p*) K = 1 already attains it.  Found from the closed-form gain
    (:func:`shattering_gain`), checked exactly at K (and K - 1 fails).
    """
    _, p_star, q_star = shattering_quantities(mechanism, prior, output)
    target = pointwise_maximal_leakage(mechanism, prior, output).ratio
    bound = Fraction(1)
    for value in (p_star, q_star):
        if compare_points(value, Fraction(0)) > 0:
            ratio = as_scalar((1 - to_sympy(value)) / to_sympy(value))
            bound = max(bound, _ceiling(ratio))
    size = int(bound)
    while size > 1 and compare_points(shattering_gain(p_star, q_star, size - 1), target) == 0:
        size -= 1
    if compare_points(shattering_gain(p_star, q_star, size), target) != 0:  # pragma: no cover
        raise ExactPMLError(
            f"the shattering attribute with K = {abbreviated(size)} does not attain l(X->y)"
        )
    return size


def _ceiling(value: Scalar) -> Fraction:
    if isinstance(value, Fraction):
        return Fraction(-((-value.numerator) // value.denominator))
    below = rational_between(sympy.S.NegativeInfinity, value)
    candidate = Fraction(-((-below.numerator) // below.denominator))
    while compare_points(candidate, value) < 0:
        candidate += 1
    return candidate


# --- App. A.5: the alpha-mechanism of Prop 3.8 ----------------------------------------------


def _minimiser(prior: Distribution) -> tuple[Label, Scalar]:
    best = prior.outcomes[0]
    for x in prior.outcomes[1:]:
        if compare_points(prior[x], prior[best]) < 0:
            best = x
    return best, prior[best]


def alpha_mechanism(prior: Distribution, alpha: object) -> Mechanism:
    """App. A.5: binary Y with p(0|x_min) = 0, p(1|x_min) = 1 and p(0|x) = alpha,
    p(1|x) = 1 - alpha for x != x_min (x_min an argmin of the prior; |X| >= 2).

    l(X->0) = log 1/(1 - p_min), l(X->1) = log 1/(1 - alpha (1 - p_min)); the output y = 0
    discloses U = 1{X != x_min}.  ``alpha`` is exact in (0, 1] or a positive symbol.
    """
    if len(prior.outcomes) < 2:
        raise InvalidArgument("alpha_mechanism: needs |X| >= 2")
    value = exact(alpha, where="alpha")
    if isinstance(value, Fraction) and not 0 < value <= 1:
        raise InvalidArgument(f"alpha={abbreviated(value)} must lie in (0, 1]")
    x_min, _ = _minimiser(prior)
    a = to_sympy(value)
    return Mechanism(
        {x: ({0: 0, 1: 1} if x == x_min else {0: a, 1: 1 - a}) for x in prior.outcomes},
        outputs=[0, 1],
        name="alpha-mechanism",
    )


def alpha_range(prior: Distribution) -> ParameterDomain:
    """The exact set of alpha in (0, 1] for which the alpha-mechanism meets
    (log 1/(1 - p_min), P_X)-PML: derived, not assumed, by solving
    l(X->1)(alpha) <= l(X->0)(alpha) for the leakages computed on the symbolic mechanism.
    Saeidian et al. (A.5) state "for small enough alpha"; the answer is
    (0, min(1, p_min / (1 - p_min))].
    """
    _, p_min = _minimiser(prior)
    if not isinstance(p_min, Fraction) or p_min == 0:
        raise InvalidArgument("alpha_range: the prior must be rational with full support")
    alpha = sympy.Symbol("alpha", positive=True)
    mechanism = alpha_mechanism(prior, alpha)
    at_zero = pointwise_maximal_leakage(mechanism, prior, 0).ratio
    at_one = pointwise_maximal_leakage(mechanism, prior, 1).ratio
    difference = _difference(at_zero, at_one, alpha, where="l(X->0) - l(X->1)")
    pieces = solution_set(difference, ParameterDomain(0, 1, upper_open=False), strict=False)
    if len(pieces) != 1 or pieces[0].lower != 0:  # pragma: no cover - contradicts App. A.5
        raise ExactPMLError(f"the alpha-range is not an interval (0, a]: {abbreviated(pieces)}")
    return pieces[0]


def _polynomial_fraction(value: Scalar, parameter: sympy.Symbol) -> tuple[sympy.Poly, sympy.Poly]:
    """(P, Q) in QQ[parameter] with ``value = P/Q`` (not reduced), from sympy's numerator and
    denominator of ``value``; raises sympy's polynomial errors when either is not a polynomial
    in ``parameter`` with rational coefficients."""
    if type(value) is Fraction:
        top: sympy.Expr = sympy.Integer(value.numerator)
        bottom: sympy.Expr = sympy.Integer(value.denominator)
    else:
        top, bottom = sympy.fraction(to_sympy(value))
    return (
        sympy.Poly(top, parameter, domain=sympy.QQ),
        sympy.Poly(bottom, parameter, domain=sympy.QQ),
    )


def _difference(a: Scalar, b: Scalar, parameter: sympy.Symbol, *, where: str) -> RationalFunction:
    """``a - b`` as a :class:`RationalFunction` of ``parameter``, the one
    ``RationalFunction.of(a - b)`` gives, formed by polynomial arithmetic in QQ[parameter].

    A rational function has one form with coprime numerator and monic denominator, so the
    reduced ``(P_a Q_b - P_b Q_a) / (Q_a Q_b)`` is that of ``RationalFunction.of``, without
    sympy's expression-level ``together``/``cancel`` (3.5 ms a call of ``alpha_range``,
    against 0.4 ms).  Anything that is not read as polynomials this way goes to
    ``RationalFunction.of``, which also words the errors.
    """
    try:
        top_a, bottom_a = _polynomial_fraction(a, parameter)
        top_b, bottom_b = _polynomial_fraction(b, parameter)
    except (sympy.PolynomialError, sympy.CoercionFailed, sympy.GeneratorsError):
        return RationalFunction.of(to_sympy(a) - to_sympy(b), parameter, where=where)
    if bottom_a.is_zero or bottom_b.is_zero:
        return RationalFunction.of(to_sympy(a) - to_sympy(b), parameter, where=where)
    numerator = top_a * bottom_b - top_b * bottom_a
    denominator = bottom_a * bottom_b
    common = numerator.gcd(denominator)
    numerator, denominator = numerator.quo(common), denominator.quo(common)
    lead = denominator.LC()
    return RationalFunction(parameter, numerator.quo_ground(lead), denominator.quo_ground(lead))


def solution_set(
    function: RationalFunction, domain: ParameterDomain, *, strict: bool
) -> list[ParameterDomain]:
    """The parameter values in ``domain`` where ``function > 0`` (``strict``) or ``>= 0``,
    as disjoint intervals.  Exact: the real roots of the numerator and the denominator are
    isolated, and the sign is decided at each root and at a rational point of each gap."""
    low, high = domain.lower, domain.upper
    marks: list[Scalar] = []
    for poly in (function.numerator, function.denominator):
        if poly.is_zero:
            continue
        for root in real_roots_between(poly, low, high):
            if all(compare_points(root, known) != 0 for known in marks):
                marks.append(root)
    marks = sorted_points(marks)

    def holds(point: Scalar) -> bool:
        if function.denominator_vanishes_at(point):
            return False
        sign = compare_points(function.value_at(point), Fraction(0))
        return sign > 0 if strict else sign >= 0

    # atoms in order: (left, right, is_point); a point atom has left == right
    cuts = [low, *marks, high]
    atoms: list[tuple[Scalar, Scalar, bool]] = []
    if not domain.lower_open:
        atoms.append((low, low, True))
    for index in range(len(cuts) - 1):
        if index > 0:
            atoms.append((cuts[index], cuts[index], True))
        atoms.append((cuts[index], cuts[index + 1], False))
    if not domain.upper_open:
        atoms.append((high, high, True))
    result: list[ParameterDomain] = []
    current: list[object] | None = None  # [left, left_open, right, right_open]
    for left, right, is_point in atoms:
        inside = holds(left) if is_point else holds(rational_between(left, right))
        if not inside:
            if current is not None:
                result.append(_interval(current))
                current = None
            continue
        if current is None:
            current = [left, not is_point, right, not is_point]
        else:
            current[2], current[3] = right, not is_point
    if current is not None:
        result.append(_interval(current))
    return result


def _interval(bounds: list[object]) -> ParameterDomain:
    left, left_open, right, right_open = bounds
    if left == right:  # an isolated point: a degenerate interval is not a ParameterDomain
        raise ExactPMLError(f"isolated solution point {abbreviated(left)}")  # pragma: no cover
    return ParameterDomain(left, right, lower_open=bool(left_open), upper_open=bool(right_open))


# --- App. A.3: W built from U (Prop 3.6) ----------------------------------------------------


def lower_entropy_attribute(
    attribute: AttributeLike,
    prior: Distribution,
    u_star: Label,
    lam: object,
    *,
    mechanism: Mechanism | None = None,
) -> Mechanism:
    """App. A.3: W on the alphabet of U with P_{W|U=u*} = point mass on u* and, for u != u*,
    P_{W|U=u}: ``lam`` on u*, ``1 - lam`` on u.  Returned as the kernel P_{W|X} =
    P_{W|U} ∘ P_{U|X} on the inputs of X.  ``lam`` is exact in (0, 1) or a symbol."""
    kernel = _attribute_kernel(attribute, prior, mechanism)
    if u_star not in kernel.outputs:
        raise InvalidArgument(f"u_star={abbreviated_repr(u_star)} is not a value of the attribute")
    weight = exact(lam, where="lambda")
    if isinstance(weight, Fraction) and not 0 < weight < 1:
        raise InvalidArgument(f"lambda={abbreviated(weight)} must lie in (0, 1)")
    return kernel.post_process(_coarsening(kernel.outputs, u_star, to_sympy(weight)))


def _coarsening(values: Sequence[Label], u_star: Label, w: sympy.Expr) -> Mechanism:
    """App. A.3's P_{W|U}: a point mass on u* at u*; ``w`` on u* and ``1 - w`` on u at u != u*."""
    return Mechanism(
        {u: ({u_star: 1} if u == u_star else {u_star: w, u: 1 - w}) for u in values},
        outputs=list(values),
        name="P_{W|U}",
    )


def _attribute_kernel(
    attribute: AttributeLike, prior: Distribution, mechanism: Mechanism | None
) -> Mechanism:
    if isinstance(attribute, Mechanism):
        attribute.check_prior(prior, name="prior")
        return attribute
    reference = mechanism or Mechanism.identity(prior.outcomes)
    return as_attribute(attribute, reference)


def lower_entropy_threshold(
    attribute: AttributeLike,
    prior: Distribution,
    u_star: Label,
    *,
    mechanism: Mechanism | None = None,
) -> Fraction:
    """The exact threshold of App. A.3: H_inf(P_W) < H_inf(P_U) exactly for lambda in
    (threshold, 1), threshold = (max_u p_U(u) - p_U(u*)) / (1 - p_U(u*)).

    Derived by solving ``max_w p_W(w) > max_u p_U(u)`` for the symbolic W; at lambda equal
    to the threshold the entropies are equal, so the strict inequality fails there.
    Requires H_inf(P_U) > 0 (p_U(u*) < 1).
    """
    kernel = _attribute_kernel(attribute, prior, mechanism)
    masses = dict(zip(kernel.outputs, kernel.output_masses(prior), strict=True))
    if not all(isinstance(v, Fraction) for v in masses.values()):
        raise InvalidArgument("lower_entropy_threshold: the prior and attribute must be rational")
    if masses[u_star] == 1:
        raise InvalidArgument("lower_entropy_threshold: U is constant (H_inf(P_U) = 0)")
    lam = sympy.Symbol("lambda", positive=True)
    # P_W = P_{W|U} ∘ P_U, the law of lower_entropy_attribute's W (P_{W|U} ∘ P_{U|X}) under
    # the prior: over |U| terms, not |X| after composing the kernels symbolically (half the
    # 6 ms of a call, measured on Prop 3.6's instances).
    law_u = Distribution._trusted(list(masses), list(masses.values()))
    w_masses_symbolic = _coarsening(kernel.outputs, u_star, lam).output_masses(law_u)
    largest = max(masses.values())
    domain = ParameterDomain(0, 1)
    found: list[ParameterDomain] = []
    for mass in w_masses_symbolic:
        excess = _difference(mass, largest, lam, where="p_W - max p_U")
        found.extend(solution_set(excess, domain, strict=True))
    if len(found) != 1 or found[0].upper != 1:  # pragma: no cover - contradicts App. A.3
        raise ExactPMLError(f"the lambda-range is not an interval (a, 1): {abbreviated(found)}")
    threshold = found[0].lower
    assert isinstance(threshold, Fraction) and found[0].lower_open
    entropy_u = min_entropy(law_u)
    at_threshold = (
        lower_entropy_attribute(kernel, prior, u_star, threshold) if threshold > 0 else None
    )
    if at_threshold is not None:
        w_masses = at_threshold.output_masses(prior)
        entropy_w = min_entropy(Distribution._trusted(list(at_threshold.outputs), w_masses))
        if entropy_w != entropy_u:  # pragma: no cover
            raise ExactPMLError("at the threshold the entropies should be equal")
    return threshold
