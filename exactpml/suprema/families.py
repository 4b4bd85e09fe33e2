"""Families of priors over which leakage is maximised (Saeidian et al., §2.3, §4, §4.1).

* :class:`FullSupportPriors` -- the set 𝒫_X of all full-support priors on X (Thm 2.8,
  Thm 3.4, Thm 4.2 (1), Thm 4.5 (1), (3));
* :class:`ProductPriors` -- the set 𝒬_X of full-support product priors on X = D^n
  (Thm 4.2 (2), (3), Thm 4.5 (2));
* :class:`IIDPriors` -- the set 𝒫_c^f of §4.1: i.i.d. priors on D^n whose entries satisfy the
  predicate f with probability p in (c, 1 - c);
* :class:`FinitePriors` -- a finite set of priors;
* :class:`ParametricPriors` -- a user-defined one-parameter family: a prior whose entries are
  rational functions of a sympy symbol ranging over a :class:`ParameterDomain`.

Every family validates its arguments on construction and answers ``contains(prior)``; a
parametric family also builds its member at a parameter value (``at``), refusing values
outside the domain.

>>> import sympy
>>> t = sympy.Symbol("t", positive=True)
>>> family = ParametricPriors({"a": 1 - t, "b": t}, t, ParameterDomain(0, 1))
>>> family.at("1/4")["a"]
Fraction(3, 4)
>>> ParameterDomain(1, 0)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
exactpml.errors.InvalidArgument: domain (1, 0) is empty or reversed: ...
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeAlias

import sympy

from exactpml.core import boundary as _boundary
from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.decisions import prove_positive
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, as_scalar, exact, exact_sum, to_sympy
from exactpml.core.parameters import probability as probability_parameter
from exactpml.errors import InvalidArgument
from exactpml.numerics.univariate import (
    RationalFunction,
    compare_points,
    rational_between,
    real_roots_between,
)

__all__ = [
    "FinitePriors",
    "FullSupportPriors",
    "IIDPriors",
    "ParameterDomain",
    "ParametricPriors",
    "PriorFamily",
    "ProductPriors",
]

Label = Hashable


def _endpoint(value: object, where: str) -> Scalar:
    if value is sympy.oo or (isinstance(value, str) and value.strip() in ("oo", "+oo")):
        return sympy.oo
    if value is sympy.S.NegativeInfinity or (isinstance(value, str) and value.strip() == "-oo"):
        return sympy.S.NegativeInfinity
    point = exact(value, where=where)
    if isinstance(point, sympy.Basic) and point.free_symbols:
        raise InvalidArgument(
            f"{where}: {abbreviated(point)} must be a number, not an expression in symbols"
        )
    return point


@dataclass(frozen=True, slots=True, init=False)
class ParameterDomain:
    """An interval of parameter values, open at each end unless said otherwise.

    Args:
        lower, upper: exact endpoints (``"-oo"`` / ``"oo"`` or ``sympy.oo`` allowed, always
            open); ``lower < upper`` is required (an empty or reversed interval is an error).
        lower_open, upper_open: whether each end is excluded (default: both excluded).
    """

    lower: Scalar
    upper: Scalar
    lower_open: bool
    upper_open: bool

    def __init__(
        self, lower: object, upper: object, *, lower_open: bool = True, upper_open: bool = True
    ) -> None:
        low = _endpoint(lower, "domain, lower end")
        high = _endpoint(upper, "domain, upper end")
        if low is sympy.oo or high is sympy.S.NegativeInfinity or compare_points(low, high) >= 0:
            raise InvalidArgument(
                f"domain ({abbreviated(low)}, {abbreviated(high)}) is empty or reversed: the lower "
                "end must be below the "
                "upper end"
            )
        if low is sympy.S.NegativeInfinity and not lower_open:
            raise InvalidArgument("domain: an infinite lower end cannot be closed")
        if high is sympy.oo and not upper_open:
            raise InvalidArgument("domain: an infinite upper end cannot be closed")
        object.__setattr__(self, "lower", low)
        object.__setattr__(self, "upper", high)
        object.__setattr__(self, "lower_open", bool(lower_open))
        object.__setattr__(self, "upper_open", bool(upper_open))

    def contains(self, value: Scalar) -> bool:
        """Whether ``value`` lies in the interval (exact or certified comparison)."""
        if value is sympy.oo or value is sympy.S.NegativeInfinity:
            return False
        low = compare_points(value, self.lower) if self.lower is not sympy.S.NegativeInfinity else 1
        high = compare_points(value, self.upper) if self.upper is not sympy.oo else -1
        return (low > 0 or (low == 0 and not self.lower_open)) and (
            high < 0 or (high == 0 and not self.upper_open)
        )

    def require(self, value: object, *, name: str = "parameter") -> Scalar:
        """The exact ``value``, or ``InvalidArgument`` when it lies outside the interval."""
        point = _endpoint(value, name)
        if not self.contains(point):
            raise InvalidArgument(
                f"{name}={abbreviated(point)} is outside its domain {abbreviated(self)}"
            )
        return point

    def interior_point(self) -> Fraction:
        """A simple rational strictly inside the interval."""
        return rational_between(self.lower, self.upper)

    def __str__(self) -> str:
        left = "(" if self.lower_open else "["
        right = ")" if self.upper_open else "]"
        return f"{left}{abbreviated(self.lower, None)}, {abbreviated(self.upper, None)}{right}"


def _check_alphabet(alphabet: Iterable[Label], name: str) -> tuple[Label, ...]:
    letters = tuple(alphabet)
    if not letters:
        raise InvalidArgument(f"{name}: the alphabet D is empty")
    if len(set(letters)) != len(letters):
        raise InvalidArgument(f"{name}: the alphabet D has repeated values")
    return letters


def _check_size(n: object, name: str) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidArgument(
            f"{name}: n={abbreviated_repr(n)} must be a positive int (the number of entries)"
        )
    return n


def _full_support(prior: Distribution) -> bool:
    return all(prove_positive(p) is True for p in prior.probabilities)


def _is_product(prior: Distribution, n: int) -> bool:
    marginals = [prior.marginal(i) for i in range(n)]
    for x, probability in prior.items():
        product: Scalar = Fraction(1)
        for i, value in enumerate(x):  # type: ignore[arg-type, var-annotated]
            product = as_scalar(to_sympy(product) * to_sympy(marginals[i][value]))
        if compare_points(as_scalar(sympy.expand(to_sympy(product))), probability) != 0:
            return False
    return True


@dataclass(frozen=True, slots=True, init=False)
class FullSupportPriors:
    """𝒫_X: every prior with full support on ``inputs`` (Saeidian et al., §2.3)."""

    inputs: tuple[Label, ...]

    def __init__(self, inputs: Iterable[Label]) -> None:
        items = tuple(inputs)
        if not items:
            raise InvalidArgument("FullSupportPriors: the input alphabet is empty")
        if len(set(items)) != len(items):
            raise InvalidArgument("FullSupportPriors: the input alphabet has repeated values")
        object.__setattr__(self, "inputs", items)

    def contains(self, prior: Distribution) -> bool:
        """Whether ``prior`` is a full-support distribution on the inputs."""
        return set(prior.outcomes) == set(self.inputs) and _full_support(prior)

    def describe(self) -> str:
        return "all full-support priors"


@dataclass(frozen=True, slots=True, init=False)
class ProductPriors:
    """𝒬_X: full-support product priors on D^n (Saeidian et al., §4, before Thm 4.2)."""

    alphabet: tuple[Label, ...]
    n: int

    def __init__(self, alphabet: Iterable[Label], n: int) -> None:
        object.__setattr__(self, "alphabet", _check_alphabet(alphabet, "ProductPriors"))
        object.__setattr__(self, "n", _check_size(n, "ProductPriors"))

    @property
    def inputs(self) -> tuple[tuple[Label, ...], ...]:
        return tuple(itertools.product(self.alphabet, repeat=self.n))

    def contains(self, prior: Distribution) -> bool:
        """Whether ``prior`` is a full-support product distribution on D^n."""
        if set(prior.outcomes) != set(self.inputs) or not _full_support(prior):
            return False
        return _is_product(prior, self.n)

    def describe(self) -> str:
        return "full-support product priors"


@dataclass(frozen=True, slots=True, init=False)
class IIDPriors:
    """𝒫_c^f (Saeidian et al., §4.1): i.i.d. full-support priors P_D^n on D^n with
    P_D({d : f(d) = 1}) = p for some p in the open interval (c, 1 - c), 0 <= c < 1/2.

    Args:
        alphabet: D.
        n: the number of entries.
        predicate: f, a function D -> {0, 1} (bools accepted), not constant on D.
        c: the exact constant c with 0 <= c < 1/2.
    """

    alphabet: tuple[Label, ...]
    n: int
    predicate: Callable[[Any], object]
    c: Fraction

    def __init__(
        self, alphabet: Iterable[Label], n: int, *, predicate: Callable[[Any], object], c: object
    ) -> None:
        letters = _check_alphabet(alphabet, "IIDPriors")
        size = _check_size(n, "IIDPriors")
        if not callable(predicate):
            raise InvalidArgument("IIDPriors: predicate must be a function D -> {0, 1}")
        values = {}
        for d in letters:
            value = predicate(d)
            if value not in (0, 1):  # True/False compare equal to 1/0
                raise InvalidArgument(
                    f"IIDPriors: predicate({abbreviated_repr(d)}) = {abbreviated_repr(value)} is "
                    "not 0 or 1"
                )
            values[d] = int(value)  # type: ignore[call-overload,unused-ignore]
        if len(set(values.values())) < 2:
            raise InvalidArgument(
                "IIDPriors: the predicate is constant on D, so P_D(f = 1) is 0 or 1 and never in "
                "(c, 1 - c): the family is empty"
            )
        bound = probability_parameter(c, name="c", rational=True)
        if not isinstance(bound, Fraction) or not bound < Fraction(1, 2):
            raise InvalidArgument(f"IIDPriors: c={bound} must satisfy 0 <= c < 1/2")
        object.__setattr__(self, "alphabet", letters)
        object.__setattr__(self, "n", size)
        object.__setattr__(self, "predicate", predicate)
        object.__setattr__(self, "c", bound)

    @property
    def inputs(self) -> tuple[tuple[Label, ...], ...]:
        return tuple(itertools.product(self.alphabet, repeat=self.n))

    @property
    def domain(self) -> ParameterDomain:
        """The open interval (c, 1 - c) of the predicate probability p."""
        return ParameterDomain(self.c, 1 - self.c)

    def satisfying(self) -> tuple[Label, ...]:
        """The values d with f(d) = 1."""
        return tuple(d for d in self.alphabet if self.predicate(d) == 1)

    def entry_prior(self, p: object) -> Distribution:
        """The P_D that spreads p evenly over {f = 1} and 1 - p over {f = 0}."""
        value = self.domain.require(p, name="p")
        ones = self.satisfying()
        zeros = tuple(d for d in self.alphabet if d not in ones)
        return Distribution._trusted(
            self.alphabet,
            [
                as_scalar(to_sympy(value) / len(ones))
                if d in ones
                else as_scalar((1 - to_sympy(value)) / len(zeros))
                for d in self.alphabet
            ],
        )

    def spread_family(self, parameter: sympy.Symbol) -> ParametricPriors:
        """The one-parameter sub-family p -> (P_D spread as in :meth:`entry_prior`)^n.

        For a mechanism that sees the entries only through f, every member of 𝒫_c^f with the
        same p leaks the same, so the supremum over 𝒫_c^f is the supremum over this family.
        """
        ones = self.satisfying()
        zeros = tuple(d for d in self.alphabet if d not in ones)
        weight = {
            d: parameter / len(ones) if d in ones else (1 - parameter) / len(zeros)
            for d in self.alphabet
        }
        prior: dict[Hashable, object] = {
            x: sympy.expand(sympy.Mul(*(weight[d] for d in x))) for x in self.inputs
        }
        return ParametricPriors(prior, parameter, self.domain, name="spread i.i.d. prior")

    def contains(self, prior: Distribution) -> bool:
        """Whether ``prior`` is i.i.d. with full support and P_D(f = 1) in (c, 1 - c)."""
        if set(prior.outcomes) != set(self.inputs) or not _full_support(prior):
            return False
        if not _is_product(prior, self.n):
            return False
        first = prior.marginal(0)
        for i in range(1, self.n):
            if prior.marginal(i) != first:
                return False
        p = exact_sum(first[d] for d in self.satisfying())
        return self.domain.contains(p)

    def describe(self) -> str:
        return f"i.i.d. priors with P(f = 1) in ({self.c}, {1 - self.c})"


@dataclass(frozen=True, slots=True, init=False)
class FinitePriors:
    """A finite, non-empty set of priors on one alphabet."""

    priors: tuple[Distribution, ...]

    def __init__(self, priors: Iterable[Distribution]) -> None:
        items = tuple(priors)
        if not items:
            raise InvalidArgument("FinitePriors: the set of priors is empty")
        for position, prior in enumerate(items):
            if not isinstance(prior, Distribution):
                raise InvalidArgument(
                    f"FinitePriors: item {abbreviated(position)} is a {type(prior).__name__}, not "
                    "a Distribution"
                )
            if set(prior.outcomes) != set(items[0].outcomes):
                raise InvalidArgument(
                    f"FinitePriors: prior {abbreviated(position)} is on a different alphabet than "
                    "prior 0"
                )
        object.__setattr__(self, "priors", items)

    @property
    def inputs(self) -> tuple[Label, ...]:
        return self.priors[0].outcomes

    def contains(self, prior: Distribution) -> bool:
        return any(prior == member for member in self.priors)

    def describe(self) -> str:
        return f"{len(self.priors)} given priors"


@dataclass(frozen=True, slots=True, init=False)
class ParametricPriors:
    """A one-parameter family of priors: entries are rational functions of ``parameter``.

    Validated on construction: the parameter is a real sympy Symbol whose declared sign agrees
    with the domain; every entry is a rational function of the parameter alone with rational
    coefficients; the entries sum to 1 identically; and every entry is >= 0 and finite on the
    whole domain (checked exactly by isolating the real roots of its numerator and
    denominator).  An entry negative somewhere in the domain, or a pole inside it, is an
    error naming the entry and a parameter value where it fails.

    Args:
        prior: a mapping outcome -> expression (sympy, or a string in the parameter's name).
        parameter: the sympy Symbol.
        domain: a :class:`ParameterDomain`, or a pair ``(lower, upper)`` (open interval).
        name: how error messages and witnesses refer to the family.
    """

    prior: Distribution
    parameter: sympy.Symbol
    domain: ParameterDomain
    name: str
    entries: tuple[RationalFunction, ...]

    def __init__(
        self,
        prior: Mapping[Label, object],
        parameter: sympy.Symbol,
        domain: ParameterDomain | tuple[object, object],
        *,
        name: str = "parametric prior",
    ) -> None:
        if not isinstance(parameter, sympy.Symbol) or parameter.is_extended_real is not True:
            raise InvalidArgument(
                f"{name}: parameter={parameter!r} must be a real sympy Symbol, e.g. "
                "sympy.Symbol('t', positive=True)"
            )
        interval = domain if isinstance(domain, ParameterDomain) else ParameterDomain(*domain)
        _check_sign_against_domain(parameter, interval, name)
        if not isinstance(prior, Mapping) or not prior:
            raise InvalidArgument(f"{name}: prior must be a non-empty mapping outcome -> entry")
        # exact() wants symbols of known sign; the domain, not an assumption, bounds this one
        probe = sympy.Dummy(parameter.name, positive=True)
        symbols = {parameter.name: probe}
        values = {
            x: as_scalar(
                to_sympy(
                    exact(
                        v.xreplace({parameter: probe}) if isinstance(v, sympy.Basic) else v,
                        where=f"{name}, outcome {x!r}",
                        symbols=symbols,
                    )
                ).xreplace({probe: parameter})
            )
            for x, v in prior.items()
        }
        for x, value in values.items():
            extra = sorted(str(s) for s in to_sympy(value).free_symbols if s != parameter)
            if extra:
                raise InvalidArgument(
                    f"{name}, outcome {abbreviated_repr(x)}: {abbreviated(value)} uses symbol(s) "
                    f"{', '.join(extra)} besides the "
                    f"parameter {parameter}"
                )
        entries = tuple(
            RationalFunction.of(to_sympy(v), parameter, where=f"{name}, outcome {x!r}")
            for x, v in values.items()
        )
        total = sympy.cancel(sympy.Add(*(to_sympy(v) for v in values.values())) - 1)
        if total != 0:
            raise InvalidArgument(
                f"{name}: the entries sum to 1 + ({abbreviated(total)}), not identically 1"
            )
        for x, entry in zip(values, entries, strict=True):
            _check_nonnegative(entry, interval, f"{name}, outcome {x!r}")
        object.__setattr__(
            self,
            "prior",
            Distribution._trusted(list(values), [as_scalar(v) for v in values.values()]),
        )
        object.__setattr__(self, "parameter", parameter)
        object.__setattr__(self, "domain", interval)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "entries", entries)

    @property
    def inputs(self) -> tuple[Label, ...]:
        return self.prior.outcomes

    def at(self, value: object) -> Distribution:
        """The member at ``value`` (exact substitution; outside the domain is an error)."""
        point = self.domain.require(value, name=str(self.parameter))
        probabilities: list[Scalar] = []
        for entry in self.entries:
            probabilities.append(entry.value_at(point))
        return Distribution._trusted(self.prior.outcomes, probabilities)

    def vanishing_points(self) -> list[Scalar]:
        """Parameter values in the closed domain where some entry is 0 (the support changes)."""
        points: list[Scalar] = []
        for entry in self.entries:
            if entry.numerator.is_zero:
                continue
            for root in real_roots_between(
                entry.numerator, self.domain.lower, self.domain.upper, closed=True
            ):
                if self.domain.contains(root) and all(
                    compare_points(root, known) != 0 for known in points
                ):
                    points.append(root)
        return sorted_points(points)

    def contains(self, prior: Distribution) -> bool:
        """Whether some parameter value in the domain gives ``prior`` (solved exactly)."""
        if set(prior.outcomes) != set(self.inputs):
            return False
        candidates: list[Scalar] | None = None
        for x, entry in zip(self.inputs, self.entries, strict=True):
            target = to_sympy(prior[x])
            equation = sympy.Poly(
                entry.numerator.as_expr() - target * entry.denominator.as_expr(), self.parameter
            )
            if equation.is_zero:
                continue
            roots = real_roots_between(equation, self.domain.lower, self.domain.upper, closed=True)
            roots = [r for r in roots if self.domain.contains(r)]
            candidates = (
                roots
                if candidates is None
                else [r for r in candidates if any(compare_points(r, s) == 0 for s in roots)]
            )
        if candidates is None:
            return True
        return bool(candidates)

    def describe(self) -> str:
        return f"{self.name} with {self.parameter} in {self.domain}"


def sorted_points(points: Sequence[Scalar]) -> list[Scalar]:
    """Sort exact points by exact / certified comparison."""
    result: list[Scalar] = []
    for point in points:
        position = 0
        while position < len(result) and compare_points(result[position], point) < 0:
            position += 1
        result.insert(position, point)
    return result


def _check_sign_against_domain(parameter: sympy.Symbol, domain: ParameterDomain, name: str) -> None:
    if parameter.is_positive and compare_points(domain.lower, Fraction(0)) < 0:
        raise InvalidArgument(
            f"{name}: {parameter} is declared positive but its domain {abbreviated(domain)} "
            "reaches below 0"
        )
    if parameter.is_nonnegative and compare_points(domain.lower, Fraction(0)) < 0:
        raise InvalidArgument(
            f"{name}: {parameter} is declared nonnegative but its domain {abbreviated(domain)} "
            "reaches below 0"
        )
    if parameter.is_negative and compare_points(domain.upper, Fraction(0)) > 0:
        raise InvalidArgument(
            f"{name}: {parameter} is declared negative but its domain {abbreviated(domain)} "
            "reaches above 0"
        )
    if parameter.is_positive and not domain.lower_open and domain.lower == 0:
        raise InvalidArgument(
            f"{name}: {parameter} is declared positive but {abbreviated(domain)} contains 0"
        )


def _check_nonnegative(entry: RationalFunction, domain: ParameterDomain, where: str) -> None:
    """Raise naming ``where`` unless ``entry`` is finite and >= 0 on the whole domain."""
    low, high = domain.lower, domain.upper
    poles = real_roots_between(entry.denominator, low, high, closed=True)
    for pole in poles:
        if domain.contains(pole):
            raise InvalidArgument(
                f"{where}: {abbreviated(entry.as_expr())} has a pole at "
                f"{abbreviated(entry.parameter)} = {abbreviated(pole)}"
            )
    zeros = (
        []
        if entry.numerator.is_zero
        else real_roots_between(entry.numerator, low, high, closed=False)
    )
    cuts: list[Scalar] = [low, *zeros, high]
    for left, right in itertools.pairwise(cuts):
        probe = rational_between(left, right)
        value = entry.value_at(probe)
        if compare_points(value, Fraction(0)) < 0:
            raise InvalidArgument(
                f"{where}: {abbreviated(entry.as_expr())} is negative at "
                f"{abbreviated(entry.parameter)} = {abbreviated(probe)}, inside "
                f"the domain {abbreviated(domain)}: the family is not a prior there"
            )
    for end, is_open in ((low, domain.lower_open), (high, domain.upper_open)):
        if not is_open:
            value = entry.value_at(end)
            if compare_points(value, Fraction(0)) < 0:
                raise InvalidArgument(
                    f"{where}: {abbreviated(entry.as_expr())} is negative at the end "
                    f"{abbreviated(entry.parameter)} = {abbreviated(end)}"
                )


PriorFamily: TypeAlias = (
    FullSupportPriors | ProductPriors | IIDPriors | FinitePriors | ParametricPriors
)
"""Any family of priors accepted by :mod:`exactpml.suprema`."""


_boundary.guard_public_names(globals())  # every public name behind its boundary
