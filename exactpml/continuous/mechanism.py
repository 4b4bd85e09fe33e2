"""Mechanisms on a finite X whose output has a density on R or a pmf on N or Z.

A :class:`ContinuousMechanism` holds, for each input x, p(y|x) as a sympy expression in the
output variable y: a density on the real line (``support="real"``) or a pmf on the naturals
or the integers.  Supported are piecewise sums of exponentials -- kinks ``Abs``,
``Piecewise``, ``Heaviside`` linear in y with rational breakpoints; terms
``c * exp(r y)`` or ``c * rho**y`` -- times one common factor ``exp(kappa y^2)``: Laplace,
two-sided geometric, Gaussian noise with a common variance, and their mixtures.  Each row
is validated exactly: non-negative terms, normalised (the integral or the sum is computed
in closed form and must equal 1), and for densities continuous (Saeidian et al., Def 2.6 and
its footnote 6 assume continuous densities).

Measures (Saeidian et al., Thm 2.4 with densities; Def 2.7; Def 3.3):

* :func:`pointwise_maximal_leakage_at` -- l(X->y) (or l(U->y)) at an exact output y;
* :func:`pml_closed_form` -- the same as a piecewise closed form in y;
* :func:`sup_pml_over_outputs` -- sup_y l(X->y): exact where each piece is monotone or its
  critical points are solvable, else :class:`~exactpml.suprema.witnesses.SupremumBounds` (certified
  bounds, stated as such);
* :func:`leakage_capacity_of` -- C = log sup_y max_{x,x'} p(y|x)/p(y|x');
* :func:`disclosure` -- Thm 3.4's inf_y H_inf(Q_{U|Y=y}), which may be 0 only in the limit
  y -> oo (then U is disclosed although no output makes the posterior certain).

>>> import sympy
>>> from exactpml import Distribution
>>> laplace = ContinuousMechanism.laplace({0: 0, 1: 1}, scale=1)
>>> prior = Distribution({0: "1/2", 1: "1/2"})
>>> print(sup_pml_over_outputs(laplace, prior).value)
log(2*E/(1 + E))
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import sympy

from exactpml.continuous.expsums import Candidate, ExpSum, Piece, parse_pieces, ratio_candidates
from exactpml.core import certify
from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.certify import check_expression
from exactpml.core.decisions import prove_zero
from exactpml.core.display import abbreviated_fields_repr
from exactpml.core.distribution import Distribution
from exactpml.core.exact import Scalar, as_scalar, exact, to_sympy
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.core.parameters import positive_scale
from exactpml.errors import InvalidArgument, Undecided
from exactpml.suprema.families import ParameterDomain
from exactpml.suprema.witnesses import (
    Construction,
    Instance,
    Measure,
    Supremum,
    SupremumBounds,
    entry_attribute,
    register_measure_evaluator,
)

__all__ = [
    "ContinuousMechanism",
    "Disclosure",
    "disclosure",
    "leakage_capacity_of",
    "pml_closed_form",
    "pointwise_maximal_leakage_at",
    "sup_pml_over_outputs",
]

Label = Hashable
Support = Literal["real", "naturals", "integers"]
_NEG_OO = sympy.S.NegativeInfinity


def _short(expr: object, limit: int = 120) -> str:
    return abbreviated(expr, limit)  # a number of any size, in a few ms


@dataclass(frozen=True, slots=True, init=False, eq=False)
class ContinuousMechanism:
    """P_{Y|X} for a finite X and an output with a density on R or a pmf on N / Z.

    Args:
        densities: input x -> p(y|x), a sympy expression (or a string) in ``variable``.
        variable: the output symbol y (a real sympy Symbol).
        support: ``"real"`` (densities), ``"naturals"`` (pmfs on 0, 1, 2, ...) or
            ``"integers"`` (pmfs on Z).
        name: how error messages refer to the mechanism.
    """

    inputs: tuple[Label, ...]
    variable: sympy.Symbol
    support: Support
    densities: tuple[sympy.Expr, ...]
    pieces: tuple[Piece, ...]
    quadratic: Fraction

    def __init__(
        self,
        densities: Mapping[Label, object],
        variable: sympy.Symbol,
        *,
        support: Support = "real",
        name: str = "mechanism",
    ) -> None:
        if not isinstance(variable, sympy.Symbol) or variable.is_extended_real is not True:
            raise InvalidArgument(
                f"{name}: variable={abbreviated_repr(variable)} must be a real sympy Symbol, e.g. "
                "sympy.Symbol('y', real=True)"
            )
        if support not in ("real", "naturals", "integers"):
            raise InvalidArgument(
                f"{name}: support={abbreviated_repr(support)} must be 'real', 'naturals' or "
                "'integers'"
            )
        if not isinstance(densities, Mapping) or not densities:
            raise InvalidArgument(f"{name}: densities must be a non-empty mapping input -> p(y|x)")
        inputs = tuple(densities)
        rows: list[sympy.Expr] = []
        for x in inputs:
            raw = densities[x]
            where = f"{name}, row {x!r}"
            if isinstance(raw, str):
                value = exact(raw, where=where, symbols={variable.name: variable})
                expr = to_sympy(value)
            elif isinstance(raw, sympy.Basic):
                expr = raw
            else:
                expr = to_sympy(exact(raw, where=where))
            check_expression(expr, where=where, parameters=frozenset({variable}))
            extra = sorted(str(s) for s in expr.free_symbols if s != variable)
            if extra:
                raise InvalidArgument(
                    f"{where}: {abbreviated(expr)} uses symbol(s) {', '.join(extra)} besides "
                    f"{abbreviated(variable)}"
                )
            rows.append(expr)
        lattice = support != "real"
        names = [f"{name}, row {x!r}" for x in inputs]
        pieces, quadratic = parse_pieces(
            rows, variable, lattice=lattice, names=names, naturals=support == "naturals"
        )
        if lattice and quadratic != 0:
            raise InvalidArgument(f"{name}: a pmf with an exp(c y^2) factor is not supported")
        if quadratic > 0:
            raise InvalidArgument(
                f"{name}: the densities grow like exp({abbreviated(quadratic)} y^2): not integrable"
            )
        if quadratic != 0 and len(pieces) > 1:
            raise InvalidArgument(
                f"{name}: a Gaussian factor exp({abbreviated(quadratic)} y^2) together with kinks "
                "is not "
                "supported"
            )
        object.__setattr__(self, "inputs", inputs)
        object.__setattr__(self, "variable", variable)
        object.__setattr__(self, "support", support)
        object.__setattr__(self, "densities", tuple(rows))
        object.__setattr__(self, "pieces", tuple(pieces))
        object.__setattr__(self, "quadratic", quadratic)
        _validate(self, names)

    # --- constructors -----------------------------------------------------------------
    @classmethod
    def laplace(cls, centers: Mapping[Label, object], scale: object) -> ContinuousMechanism:
        """Y | X = x ~ Lap(centers[x], scale): ``p(y|x) = exp(-|y - mu_x| / b) / (2b)``."""
        b = _positive(scale, "scale")
        y = sympy.Symbol("y", real=True)
        return cls(
            {
                x: sympy.exp(-sympy.Abs(y - _rational(mu, f"center of {x!r}")) / b) / (2 * b)
                for x, mu in centers.items()
            },
            y,
            name="Laplace mechanism",
        )

    @classmethod
    def gaussian(cls, centers: Mapping[Label, object], variance: object) -> ContinuousMechanism:
        """Y | X = x ~ N(centers[x], variance)."""
        v = _positive(variance, "variance")
        y = sympy.Symbol("y", real=True)
        return cls(
            {
                x: sympy.exp(-((y - _rational(mu, f"center of {x!r}")) ** 2) / (2 * v))
                / sympy.sqrt(2 * sympy.pi * v)
                for x, mu in centers.items()
            },
            y,
            name="Gaussian mechanism",
        )

    @classmethod
    def geometric(cls, centers: Mapping[Label, object], ratio: object) -> ContinuousMechanism:
        """Two-sided geometric noise on Z: p(y|x) = (1 - a)/(1 + a) a^|y - mu_x|, 0 < a < 1,
        integer centers."""
        a = _positive(ratio, "ratio")
        if certify.compare(a, 1) >= 0:
            raise InvalidArgument(f"ratio={abbreviated(a)} must lie in (0, 1)")
        y = sympy.Symbol("y", integer=True)
        rows = {}
        for x, mu in centers.items():
            center = _rational(mu, f"center of {x!r}")
            if center.q != 1:
                raise InvalidArgument(
                    f"center of {abbreviated_repr(x)}: {abbreviated(center)} must be an integer"
                )
            rows[x] = (1 - a) / (1 + a) * a ** sympy.Abs(y - center)
        return cls(rows, y, support="integers", name="geometric mechanism")

    # --- access -----------------------------------------------------------------------
    @property
    def is_lattice(self) -> bool:
        return self.support != "real"

    def input_position(self, x: Label) -> int:
        try:
            return self.inputs.index(x)
        except ValueError:
            raise InvalidArgument(
                f"input {abbreviated_repr(x)} is not among the inputs "
                f"{abbreviated_repr(list(self.inputs))}"
            ) from None

    def check_prior(self, prior: Distribution, *, name: str = "prior") -> None:
        if not isinstance(prior, Distribution):
            raise InvalidArgument(f"{name} must be a Distribution, got {type(prior).__name__}")
        if set(prior.outcomes) != set(self.inputs):
            raise InvalidArgument(
                f"{name} is over a different alphabet than the mechanism's inputs"
            )

    def check_output(self, output: object) -> Fraction:
        """The exact output value; a point outside the support is an error."""
        value = exact(output, where="output", allow_symbolic=False)
        assert isinstance(value, Fraction)
        if self.is_lattice and value.denominator != 1:
            raise InvalidArgument(
                f"output {abbreviated(value)} is not an integer, but the outputs are "
                f"{abbreviated(self.support)}"
            )
        if self.support == "naturals" and value < 0:
            raise InvalidArgument(
                f"output {abbreviated(value)} is negative, but the outputs are naturals"
            )
        return value

    def piece_of(self, output: Fraction) -> Piece:
        for piece in self.pieces:
            if piece.contains(output):
                return piece
        raise InvalidArgument(
            f"output {abbreviated(output)} is outside the support"
        )  # pragma: no cover

    def density(self, x: Label, output: object) -> sympy.Expr:
        """p(y|x) at an exact output y, exactly (a closed expression)."""
        y = self.check_output(output)
        row = self.pieces_row(x, y)
        return sympy.exp(to_sympy(self.quadratic) * to_sympy(y) ** 2) * row.at(y)

    def pieces_row(self, x: Label, output: Fraction) -> ExpSum:
        return self.piece_of(output).rows[self.input_position(x)]


def _positive(value: object, name: str) -> sympy.Expr:
    return to_sympy(positive_scale(value, name=name))


def _rational(value: object, where: str) -> sympy.Rational:
    number = exact(value, where=where, allow_symbolic=False)
    assert isinstance(number, Fraction)
    return sympy.Rational(number.numerator, number.denominator)


def _piece_mass(
    piece: Piece, row: ExpSum, quadratic: Fraction, support: Support, y: sympy.Symbol
) -> sympy.Expr:
    """The integral (or sum) of one row over one piece, in closed form."""
    total = sympy.S.Zero
    low, high = piece.lower, piece.upper
    for c, r in row.terms:
        if support == "real" and quadratic != 0:  # the whole line (checked on construction)
            kappa = to_sympy(quadratic)  # < 0: the integral is sqrt(pi/-kappa) e^{-r^2/(4 kappa)}
            total += c * sympy.sqrt(sympy.pi / -kappa) * sympy.exp(-(r**2) / (4 * kappa))
            continue
        zero_rate = certify.sign(r) == 0 if r.free_symbols == set() else False
        if support == "real":
            if zero_rate:
                if low is _NEG_OO or high is sympy.oo:
                    return sympy.oo
                total += c * to_sympy(high - low)
                continue
            direction = certify.sign(r)
            if (high is sympy.oo and direction > 0) or (low is _NEG_OO and direction < 0):
                return sympy.oo
            upper = sympy.S.Zero if high is sympy.oo else sympy.exp(r * to_sympy(high))
            lower = sympy.S.Zero if low is _NEG_OO else sympy.exp(r * to_sympy(low))
            total += c * (upper - lower) / r
        else:
            rho = sympy.exp(r)
            if zero_rate:
                if low is _NEG_OO or high is sympy.oo:
                    return sympy.oo
                total += c * to_sympy(high - low + 1)
                continue
            direction = certify.sign(r)
            if (high is sympy.oo and direction > 0) or (low is _NEG_OO and direction < 0):
                return sympy.oo
            first = sympy.S.Zero if low is _NEG_OO else rho ** to_sympy(low)
            past = sympy.S.Zero if high is sympy.oo else rho ** (to_sympy(high) + 1)
            total += c * (first - past) / (1 - rho)
    return total


def _validate(mechanism: ContinuousMechanism, names: Sequence[str]) -> None:
    y = mechanism.variable
    first: dict[sympy.Expr, int] = {}
    for position, row in enumerate(mechanism.densities):
        first.setdefault(row, position)
    for position, name in enumerate(names):
        if first[mechanism.densities[position]] != position:
            continue  # the same density as an earlier row, already checked
        total = sympy.S.Zero
        for piece in mechanism.pieces:
            row = piece.rows[position]
            for c, _ in row.terms:
                if certify.sign(c) < 0:
                    raise InvalidArgument(
                        f"{name}: the term {_short(c)} is negative on "
                        f"({abbreviated(piece.lower)}, {abbreviated(piece.upper)}); only sums of "
                        "non-negative "
                        "exponential terms are supported"
                    )
            mass = _piece_mass(piece, row, mechanism.quadratic, mechanism.support, y)
            if mass is sympy.oo:
                raise InvalidArgument(f"{name}: p(y|x) is not integrable (infinite mass)")
            total += mass
        try:
            normalised = certify.compare(total, 1) == 0
        except Undecided as error:
            raise Undecided(
                f"{name}: cannot decide whether the total mass {_short(total)} equals 1",
                expression=total,
            ) from error
        if not normalised:
            kind = "integrates" if mechanism.support == "real" else "sums"
            raise InvalidArgument(
                f"{name}: p(y|x) {kind} to {_short(sympy.simplify(total))} "
                f"(~{abbreviated(certify.decimal(total, 6))}), not 1"
            )
    if mechanism.support == "real":
        for left, right in itertools.pairwise(mechanism.pieces):
            point = left.upper
            for position, name in enumerate(names):
                if first[mechanism.densities[position]] != position:
                    continue
                if (
                    certify.compare(left.rows[position].at(point), right.rows[position].at(point))
                    != 0
                ):
                    raise InvalidArgument(
                        f"{name}: p(y|x) is discontinuous at y = {abbreviated(point)}; the paper "
                        "assumes "
                        "continuous densities (Def 2.6, footnote 6)"
                    )


# --- leakage at one output ----------------------------------------------------------------------


def _attribute_rows(attribute: object, mechanism: ContinuousMechanism) -> Mechanism | None:
    if attribute is None:
        return None
    if isinstance(attribute, Mechanism):
        if set(attribute.inputs) != set(mechanism.inputs):
            raise InvalidArgument("attribute must be a kernel on the mechanism's inputs")
        return attribute
    if callable(attribute):
        return Mechanism.deterministic(attribute, mechanism.inputs)
    raise InvalidArgument("attribute must be a Mechanism or a function of the input")


def _sums(
    mechanism: ContinuousMechanism, prior: Distribution, piece: Piece, attribute: Mechanism | None
) -> tuple[list[tuple[Label, ExpSum]], ExpSum]:
    """The numerators (one per x in the support, or per u) and the denominator p_Y on a piece,
    up to the common factor exp(kappa y^2), for the ratio max / p_Y (Thm 2.4)."""
    weights = [to_sympy(prior[x]) for x in mechanism.inputs]
    denominator = ExpSum.of([])
    for weight, row in zip(weights, piece.rows, strict=True):
        if weight != 0:
            denominator = denominator + row.scaled(weight)
    if attribute is None:
        tops = [
            (x, row)
            for x, weight, row in zip(mechanism.inputs, weights, piece.rows, strict=True)
            if not prove_zero(as_scalar(weight))
        ]
        return tops, denominator
    tops = []
    for u in attribute.outputs:
        mass = sympy.Add(
            *(
                w * to_sympy(attribute.probability(x, u))
                for x, w in zip(mechanism.inputs, weights, strict=True)
            )
        )
        if mass == 0:
            continue
        total = ExpSum.of([])
        for x, weight, row in zip(mechanism.inputs, weights, piece.rows, strict=True):
            share = to_sympy(attribute.probability(x, u)) * weight / mass
            if share != 0:
                total = total + row.scaled(share)
        tops.append((u, total))
    return tops, denominator


def pointwise_maximal_leakage_at(
    mechanism: ContinuousMechanism,
    prior: Distribution,
    output: object,
    *,
    attribute: object = None,
) -> LogValue:
    """l(X->y) = log max_{x in supp} p(y|x) / p_Y(y) at an exact output y (Thm 2.4 with
    densities), or l(U->y) for an attribute; 0 where p_Y(y) = 0 (footnote 5)."""
    mechanism.check_prior(prior)
    y = mechanism.check_output(output)
    kernel = _attribute_rows(attribute, mechanism)
    tops, denominator = _sums(mechanism, prior, mechanism.piece_of(y), kernel)
    bottom = denominator.at(y)
    if denominator.is_zero or certify.sign(bottom) == 0:
        return LogValue(1)
    best: Scalar | None = None
    for _, top in tops:
        value = as_scalar(top.at(y) / bottom)
        if best is None or certify.compare(value, best) > 0:
            best = value
    return LogValue(best if best is not None else Fraction(1))


def pml_closed_form(
    mechanism: ContinuousMechanism, prior: Distribution, *, attribute: object = None
) -> sympy.Piecewise:
    """l(X->y) (or l(U->y)) as a ``Piecewise`` closed form in the output variable."""
    mechanism.check_prior(prior)
    kernel = _attribute_rows(attribute, mechanism)
    y = mechanism.variable
    branches = []
    for piece in mechanism.pieces:
        tops, denominator = _sums(mechanism, prior, piece, kernel)
        if denominator.is_zero:
            value: sympy.Expr = sympy.S.Zero
        else:
            bottom = denominator.expression(y)
            value = sympy.log(sympy.Max(*(top.expression(y) / bottom for _, top in tops)))
        condition = sympy.true
        if piece.lower is not _NEG_OO:
            condition = condition & (y >= to_sympy(piece.lower))
        if piece.upper is not sympy.oo:
            condition = condition & (y <= to_sympy(piece.upper))
        branches.append((value, condition))
    return sympy.Piecewise(*branches)


# --- suprema over outputs ------------------------------------------------------------------------


def _best(candidates: list[Candidate]) -> Candidate:
    best = candidates[0]
    for candidate in candidates[1:]:
        if _compare_values(candidate.value, best.value) > 0:
            best = candidate
    return best


def _compare_values(a: Scalar, b: Scalar) -> int:
    if a is sympy.oo or b is sympy.oo:
        return 0 if a is b else (1 if a is sympy.oo else -1)
    return certify.compare(a, b)


def _supremum_of(
    mechanism: ContinuousMechanism,
    prior: Distribution,
    per_piece: list[tuple[Piece, list[tuple[ExpSum, ExpSum]]]],
    quantity: str,
    source: str,
    attribute: Mechanism | None,
    measure: Measure | None = None,
    unobserved: Scalar = Fraction(1),
) -> Supremum | SupremumBounds:
    candidates: list[tuple[Candidate, ExpSum, ExpSum]] = []
    for piece, ratios in per_piece:
        for numerator, denominator in ratios:
            for candidate in ratio_candidates(
                numerator, denominator, piece, lattice=mechanism.is_lattice, unobserved=unobserved
            ):
                candidates.append((candidate, numerator, denominator))
    best, numerator, denominator = candidates[0]
    for item in candidates[1:]:
        if _compare_values(item[0].value, best.value) > 0:
            best, numerator, denominator = item
    value = LogValue.infinity() if best.value is sympy.oo else LogValue(best.value)
    bounded = [c for c, _, _ in candidates if c.upper is not None]
    if bounded:
        upper = best.value
        for candidate in bounded:
            if _compare_values(candidate.upper, upper) > 0:
                upper = candidate.upper
        if _compare_values(upper, best.value) > 0:
            kind: Measure = measure or ("attribute" if attribute is not None else "pml")
            lower_witness = (
                Instance(mechanism, prior, best.at, kind, attribute=attribute)
                if best.at is not None
                else None
            )
            return SupremumBounds(
                value,
                LogValue(upper),
                lower_witness,
                quantity,
                "a piece has an interior maximum with no closed form; it is bracketed by "
                "certified bisection",
            )
    attaining = [
        c
        for c, _, _ in candidates
        if c.at is not None and _compare_values(c.value, best.value) == 0
    ]
    chosen: Measure = measure or ("attribute" if attribute is not None else "pml")
    if attaining:
        at = attaining[0].at
        witness = Instance(mechanism, prior, at, chosen, attribute=attribute)
        return Supremum(value, True, witness, quantity, source)
    y = mechanism.variable
    direction = best.direction

    def builder(point: Any) -> Instance:
        return Instance(mechanism, prior, point, chosen, attribute=attribute)

    domain = (
        ParameterDomain(0, "oo", lower_open=False)
        if mechanism.support == "naturals"
        else ParameterDomain("-oo", "oo")
    )
    construction = Construction(
        "outputs y -> oo" if direction > 0 else "outputs y -> -oo",
        "the output tends to infinity",
        y,
        "oo" if direction > 0 else "-oo",
        domain,
        builder,
        numerator.expression(y) / denominator.expression(y),
        best.value,
    )
    return Supremum(value, False, construction, quantity, source)


def sup_pml_over_outputs(
    mechanism: ContinuousMechanism, prior: Distribution, *, attribute: object = None
) -> Supremum | SupremumBounds:
    """sup_y l(X->y) (or l(U->y)) for one prior: exact when every piece's ratios are
    monotone or have closed-form critical points (Laplace, geometric, Gaussian with at most
    three centers, ...), else certified bounds."""
    mechanism.check_prior(prior)
    kernel = _attribute_rows(attribute, mechanism)
    per_piece = []
    for piece in mechanism.pieces:
        tops, denominator = _sums(mechanism, prior, piece, kernel)
        per_piece.append((piece, [(top, denominator) for _, top in tops]))
    what = "l(U -> y)" if kernel is not None else "l(X -> y)"
    return _supremum_of(
        mechanism,
        prior,
        per_piece,
        f"sup over outputs y of {what}",
        "Saeidian et al., Thm 2.4",
        kernel,
    )


def leakage_capacity_of(mechanism: ContinuousMechanism) -> Supremum | SupremumBounds:
    """C = log sup_y max_{x, x'} p(y|x)/p(y|x') (Def 2.7); infinite when some ratio grows
    without bound as y -> +-oo, although no p(y|x) is zero."""
    uniform = Distribution.uniform(mechanism.inputs)
    quantity = "sup over outputs of max_{x,x'} p(y|x)/p(y|x')"
    per_piece = []
    for piece in mechanism.pieces:
        live = [row for row in piece.rows if not row.is_zero]
        if live and len(live) < len(piece.rows):  # p(y|x) > 0 = p(y|x') on this piece
            witness = Instance(mechanism, uniform, _some_point(piece), "capacity")
            return Supremum(
                LogValue.infinity(), True, witness, quantity, "Saeidian et al., Def 2.7"
            )
        ratios = [(a, b) for a in live for b in live if a is not b]
        per_piece.append((piece, ratios or [(row, row) for row in live]))
    return _supremum_of(
        mechanism, uniform, per_piece, quantity, "Saeidian et al., Def 2.7", None, "capacity"
    )


def _largest(values: Sequence[Scalar]) -> Scalar:
    best = values[0]
    for value in values[1:]:
        if certify.compare(value, best) > 0:
            best = value
    return best


def _some_point(piece: Piece) -> Fraction:
    if piece.lower is not _NEG_OO:
        return piece.lower
    if piece.upper is not sympy.oo:
        return piece.upper
    return Fraction(0)


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class Disclosure:
    """Thm 3.4's inf over outputs of H_inf(Q_{U|Y=y}) for one adversary Q_X.

    Attributes:
        disclosed: whether the infimum is 0 (Def 3.3).
        infimum: inf_y H_inf(Q_{U|Y=y}) exactly, as ``LogValue(1 / sup_y max_u q(u|y))``.
        certainty: the supremum of max_u q(u|y) over outputs, with its witness: an output
            where it is reached, or the limit y -> +-oo that approaches it.
    """

    disclosed: bool
    infimum: LogValue
    certainty: Supremum


def disclosure(
    mechanism: ContinuousMechanism, attribute: object, adversary: Distribution
) -> Disclosure:
    """Whether the mechanism discloses U to the adversary Q_X (Def 3.3) over all outputs,
    including in the limit y -> +-oo (Thm 3.4's inf over y; CLAIMS ``pml.thm_3_4``)."""
    mechanism.check_prior(adversary, name="adversary")
    if not adversary.has_full_support:
        raise InvalidArgument("adversary must have full support (Q_X in the set P_X)")
    kernel = _attribute_rows(attribute, mechanism) or Mechanism.identity(mechanism.inputs)
    per_piece = []
    for piece in mechanism.pieces:
        weights = [to_sympy(adversary[x]) for x in mechanism.inputs]
        denominator = ExpSum.of([])
        for weight, row in zip(weights, piece.rows, strict=True):
            denominator = denominator + row.scaled(weight)
        ratios = []
        for u in kernel.outputs:
            top = ExpSum.of([])
            for x, weight, row in zip(mechanism.inputs, weights, piece.rows, strict=True):
                share = to_sympy(kernel.probability(x, u)) * weight
                if share != 0:
                    top = top + row.scaled(share)
            ratios.append((top, denominator))
        per_piece.append((piece, ratios))
    result = _supremum_of(
        mechanism,
        adversary,
        per_piece,
        "sup over outputs y of max_u q(u|y)",
        "Saeidian et al., Def 3.3, Thm 3.4",
        kernel,
        "certainty",
        unobserved=_largest(kernel.output_masses(adversary)),  # footnote 5: the prior
    )
    if isinstance(result, SupremumBounds):  # pragma: no cover - single-term sums are exact
        raise Undecided("the supremum of the posterior certainty has no closed form")
    value = result.value.ratio
    if value is sympy.oo:  # pragma: no cover - a posterior probability is at most 1
        raise Undecided("posterior certainty is unbounded")
    infimum = LogValue(as_scalar(1 / to_sympy(value)))
    return Disclosure(infimum == 0, infimum, result)


def measure_at(
    mechanism: ContinuousMechanism,
    prior: Distribution,
    output: object,
    measure: str,
    *,
    attribute: object = None,
) -> LogValue:
    """The value a continuous mechanism's :class:`~exactpml.suprema.witnesses.Instance` reports."""
    if measure in ("pml", "attribute"):
        return pointwise_maximal_leakage_at(mechanism, prior, output, attribute=attribute)
    y = mechanism.check_output(output)
    if measure == "capacity":
        values = [mechanism.density(x, y) for x in mechanism.inputs]
        if any(certify.sign(v) == 0 for v in values):
            if all(certify.sign(v) == 0 for v in values):
                return LogValue(1)
            return LogValue.infinity()
        best = max(values, key=lambda v: certify.enclosure(v, 64).mid())
        worst = min(values, key=lambda v: certify.enclosure(v, 64).mid())
        for v in values:  # certify the choice of extremes
            if certify.compare(v, best) > 0 or certify.compare(v, worst) < 0:
                raise Undecided("cannot order the densities at this output")  # pragma: no cover
        return LogValue(as_scalar(best / worst))
    if measure == "certainty":
        kernel = _attribute_rows(attribute, mechanism) or Mechanism.identity(mechanism.inputs)
        weights = {x: to_sympy(prior[x]) * mechanism.density(x, y) for x in mechanism.inputs}
        total = sympy.Add(*weights.values())
        if certify.sign(total) == 0:  # p_Y(y) = 0: the posterior is the prior (footnote 5)
            return LogValue(_largest(kernel.output_masses(prior)))
        best_value: Scalar = Fraction(0)
        for u in kernel.outputs:
            mass = as_scalar(
                sympy.Add(*(to_sympy(kernel.probability(x, u)) * w for x, w in weights.items()))
                / total
            )
            if certify.compare(mass, best_value) > 0:
                best_value = mass
        return LogValue(best_value)
    raise InvalidArgument(f"measure {measure!r} is not defined for continuous mechanisms")


def _evaluate_instance(instance: Instance) -> LogValue:
    """The measure table's row for continuous mechanisms (:meth:`Instance.leakage`)."""
    if instance.measure == "entry" and instance.entry is not None:
        return measure_at(
            instance.mechanism,
            instance.prior,
            instance.output,
            "attribute",
            attribute=entry_attribute(instance.entry),
        )
    return measure_at(
        instance.mechanism,
        instance.prior,
        instance.output,
        instance.measure,
        attribute=instance.attribute,
    )


register_measure_evaluator(ContinuousMechanism, _evaluate_instance)
