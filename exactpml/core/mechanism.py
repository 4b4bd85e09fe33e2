"""Finite mechanisms: exact Markov kernels P_{Y|X} (rows = inputs, columns = outputs).

A :class:`Mechanism` is validated on construction (every row an exact distribution).  An
attribute or feature P_{U|X} (Saeidian et al., §2.1) is a ``Mechanism`` too, and so is any
post-processing kernel.  Operations follow the paper's notation: ``joint`` is
P_{XY} = P_{Y|X} × P_X, ``output_distribution`` is P_Y = P_{Y|X} ∘ P_X, and ``posterior``
follows footnote 5 (conditioning on an output of probability zero returns the prior).

>>> mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
>>> prior = Distribution({"a": "1/2", "b": "1/2"})
>>> mechanism.output_distribution(prior)[0]
Fraction(1, 2)
>>> mechanism.posterior(prior, 0)["a"]
Fraction(3, 4)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from typing import Any

import sympy

from exactpml.core._integer_kernel import IntegerKernel, integer_rows
from exactpml.core.abbreviate import abbreviated, abbreviated_repr
from exactpml.core.boundary import unguarded
from exactpml.core.bounds import big_integer_printing
from exactpml.core.decisions import prove_zero
from exactpml.core.display import html_table, pretty, quoted, symbols_argument
from exactpml.core.distribution import Distribution, require_same_alphabet, validate_probabilities
from exactpml.core.exact import (
    Scalar,
    as_scalar,
    exact,
    exact_difference,
    exact_product,
    exact_quotient,
    exact_sum,
)
from exactpml.core.foreign import exactpml_errors, translated
from exactpml.core.parameters import count_within
from exactpml.errors import InvalidArgument

__all__ = ["Mechanism"]

_INNER_LOOP = "read per entry on inner loops; translates a hostile label's errors itself"

Label = Hashable


def _entry_name(x: Label, y: Label) -> str:
    return f"row {abbreviated_repr(x)}, output {abbreviated_repr(y)}"


def _matrix_of(
    kernel: Mapping[Label, Mapping[Label, object]],
    inputs: Sequence[Label],
    outputs: Sequence[Label],
) -> list[list[object]]:
    """The rows of ``kernel`` as lists in ``outputs`` order (0 for outputs a row omits)."""
    order = list(outputs)
    zero = Fraction(0)
    matrix = []
    for x in inputs:
        row = kernel[x]
        if len(row) == len(order) and list(row) == order:  # already in order: no lookups
            matrix.append(list(row.values()))
        else:
            matrix.append(list(map(row.get, order, repeat(zero))))
    return matrix


@dataclass(frozen=True, slots=True, init=False, eq=False)
class Mechanism:
    """A finite Markov kernel P_{Y|X} with exact entries.

    Args:
        kernel: a mapping input -> (mapping output -> probability).  Outputs missing from a
            row have probability 0.  Entries are exact (see :func:`exactpml.core.exact.exact`).
        outputs: the output alphabet in order; by default every output named in some row,
            in order of first appearance.  A row naming an output outside ``outputs`` is an
            error.  Outputs that no row produces are allowed (their PML is 0, footnote 5).
        allow_float: convert floats to the exact value of their binary representation.
        symbols: names usable inside string entries, mapped to sympy symbols.
        name: how error messages refer to this kernel.

    Use :meth:`from_matrix`, :meth:`from_function`, :meth:`deterministic` and
    :meth:`identity` for other ways to build one.
    """

    inputs: tuple[Label, ...]
    outputs: tuple[Label, ...]
    rows: tuple[tuple[Scalar, ...], ...]
    conditions: tuple[sympy.Basic, ...]
    _integer: IntegerKernel | None
    _input_index: dict[Label, int]
    _output_index: dict[Label, int]
    _derived: dict[Any, Any]

    def __init__(
        self,
        kernel: Mapping[Any, Mapping[Any, Any]],
        *,
        outputs: Sequence[Label] | None = None,
        allow_float: bool = False,
        symbols: Mapping[str, sympy.Symbol] | None = None,
        name: str = "mechanism",
    ) -> None:
        with exactpml_errors(name):  # a foreign error (unhashable label, ...) names it
            self._from_kernel(kernel, outputs, allow_float, symbols, name)

    def _from_kernel(
        self,
        kernel: Mapping[Any, Mapping[Any, Any]],
        outputs: Sequence[Label] | None,
        allow_float: bool,
        symbols: Mapping[str, sympy.Symbol] | None,
        name: str,
    ) -> None:
        if not isinstance(kernel, Mapping):
            raise InvalidArgument(
                f"{name}: expected a mapping input -> {{output: probability}}, got "
                f"{type(kernel).__name__}; use Mechanism.from_matrix for a list of rows"
            )
        if not kernel:
            raise InvalidArgument(f"{name}: the input alphabet is empty")
        inputs = tuple(kernel)
        for x in inputs:
            if not isinstance(kernel[x], Mapping):
                raise InvalidArgument(
                    f"{name}: row {abbreviated_repr(x)} must be a mapping output -> probability, "
                    "got "
                    f"{type(kernel[x]).__name__}"
                )
        if outputs is None:
            seen: dict[Label, None] = {}
            for x in inputs:
                if not seen.keys() >= kernel[x].keys():  # only rows naming new outputs
                    for y in kernel[x]:
                        seen.setdefault(y, None)
            output_labels = tuple(seen)
        else:
            output_labels = tuple(outputs)
            if len(set(output_labels)) != len(output_labels):
                raise InvalidArgument(f"{name}: the output alphabet has repeated labels")
            known = dict.fromkeys(output_labels)
            for x in inputs:
                if known.keys() >= kernel[x].keys():
                    continue
                for y in kernel[x]:
                    if y not in known:
                        raise InvalidArgument(
                            f"{name}: row {abbreviated_repr(x)} names output "
                            f"{abbreviated_repr(y)}, which is not among the "
                            f"outputs {abbreviated_repr(list(output_labels))}"
                        )
        if not output_labels:
            raise InvalidArgument(f"{name}: the output alphabet is empty")
        self._setup(
            inputs,
            output_labels,
            _matrix_of(kernel, inputs, output_labels),
            allow_float=allow_float,
            symbols=symbols,
            name=name,
        )

    def _setup(
        self,
        inputs: Sequence[Label],
        outputs: Sequence[Label],
        matrix: Sequence[Sequence[object]],
        *,
        allow_float: bool,
        symbols: Mapping[str, sympy.Symbol] | None,
        name: str,
    ) -> None:
        rational = IntegerKernel.from_fractions(matrix)
        if rational is not None:  # every entry an int or Fraction, every row valid
            fast_rows, kernel = rational
            self._finish(inputs, outputs, fast_rows, (), kernel, name)
            return
        rows: list[tuple[Scalar, ...]] = []
        conditions: list[sympy.Basic] = []
        integer_numerators: list[tuple[int, ...]] = []
        integer_denominators: list[int] = []
        all_rational = True
        for x, raw_row in zip(inputs, matrix, strict=True):
            if all(type(v) is Fraction or (type(v) is int) for v in raw_row):
                values = tuple(Fraction(v) for v in raw_row)  # type: ignore[call-overload]
                numerators, denominator = integer_rows(values)
                for y, numerator in zip(outputs, numerators, strict=True):
                    if numerator < 0:
                        raise InvalidArgument(
                            f"{_entry_name(x, y)}: "
                            f"{abbreviated(Fraction(numerator, denominator))} is negative"
                        )
                total = sum(numerators)
                if total != denominator:
                    raise InvalidArgument(
                        f"{name}: row {abbreviated_repr(x)} sums to "
                        f"{abbreviated(Fraction(total, denominator))}, not 1"
                    )
                rows.append(values)
                if all_rational:
                    integer_numerators.append(numerators)
                    integer_denominators.append(denominator)
                continue
            values, row_conditions = validate_probabilities(
                list(zip(outputs, raw_row, strict=True)),
                name=f"{name}: row {abbreviated_repr(x)}",
                allow_float=allow_float,
                symbols=symbols,
                entry_name=lambda y, x=x: _entry_name(x, y),  # type: ignore[misc]
            )
            rows.append(values)
            conditions.extend(row_conditions)
            if all(type(v) is Fraction for v in values):
                if all_rational:
                    numerators, denominator = integer_rows(values)
                    integer_numerators.append(numerators)
                    integer_denominators.append(denominator)
            else:
                all_rational = False
        self._finish(
            inputs,
            outputs,
            tuple(rows),
            tuple(dict.fromkeys(conditions)),
            IntegerKernel(integer_numerators, integer_denominators) if all_rational else None,
            name,
        )

    def _finish(
        self,
        inputs: Sequence[Label],
        outputs: Sequence[Label],
        rows: tuple[tuple[Scalar, ...], ...],
        conditions: tuple[sympy.Basic, ...],
        kernel: IntegerKernel | None,
        name: str,
    ) -> None:
        object.__setattr__(self, "inputs", tuple(inputs))
        object.__setattr__(self, "outputs", tuple(outputs))
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "conditions", conditions)
        object.__setattr__(self, "_integer", kernel)
        try:
            input_index = {x: position for position, x in enumerate(inputs)}
        except TypeError:
            input_index = {}
        if len(input_index) != len(inputs):  # repeated or unhashable inputs: name the first
            input_index = {}
            for position, x in enumerate(inputs):
                try:
                    if x in input_index:
                        raise InvalidArgument(f"{name}: input {abbreviated_repr(x)} appears twice")
                except TypeError as error:
                    raise InvalidArgument(
                        f"{name}: input {abbreviated_repr(x)} is not hashable"
                    ) from error
                input_index[x] = position
        object.__setattr__(self, "_input_index", input_index)
        object.__setattr__(self, "_output_index", {y: i for i, y in enumerate(outputs)})
        object.__setattr__(self, "_derived", {})

    # --- constructors -----------------------------------------------------------------
    @classmethod
    def from_matrix(
        cls,
        matrix: Sequence[Sequence[object]],
        *,
        inputs: Sequence[Label] | None = None,
        outputs: Sequence[Label] | None = None,
        allow_float: bool = False,
        symbols: Mapping[str, sympy.Symbol] | None = None,
        name: str = "mechanism",
    ) -> Mechanism:
        """Build from a list of rows; labels default to ``0, 1, ...``.

        >>> Mechanism.from_matrix([["1/2", "1/2"], [0, 1]]).probability(1, 1)
        Fraction(1, 1)
        """
        with exactpml_errors(name):  # a foreign error (a row that is not a list, ...)
            return cls._from_rows(matrix, inputs, outputs, allow_float, symbols, name)

    @classmethod
    def _from_rows(
        cls,
        matrix: Sequence[Sequence[object]],
        inputs: Sequence[Label] | None,
        outputs: Sequence[Label] | None,
        allow_float: bool,
        symbols: Mapping[str, sympy.Symbol] | None,
        name: str,
    ) -> Mechanism:
        rows = [list(row) for row in matrix]
        if not rows:
            raise InvalidArgument(f"{name}: the input alphabet is empty")
        width = len(rows[0])
        for position, row in enumerate(rows):
            if len(row) != width:
                raise InvalidArgument(
                    f"{name}: row {position} has {len(row)} entries, row 0 has {width}"
                )
        if width == 0:
            raise InvalidArgument(f"{name}: the output alphabet is empty")
        input_labels = tuple(range(len(rows))) if inputs is None else tuple(inputs)
        output_labels = tuple(range(width)) if outputs is None else tuple(outputs)
        if len(input_labels) != len(rows):
            raise InvalidArgument(f"{name}: {len(input_labels)} input labels for {len(rows)} rows")
        if len(output_labels) != width:
            raise InvalidArgument(f"{name}: {len(output_labels)} output labels for {width} columns")
        if len(set(output_labels)) != len(output_labels):
            raise InvalidArgument(f"{name}: the output alphabet has repeated labels")
        self = object.__new__(cls)
        self._setup(
            input_labels, output_labels, rows, allow_float=allow_float, symbols=symbols, name=name
        )
        return self

    @classmethod
    def from_function(
        cls,
        function: Callable[[Any], Mapping[Any, Any] | Distribution],
        inputs: Iterable[Label],
        *,
        outputs: Sequence[Label] | None = None,
        name: str = "mechanism",
    ) -> Mechanism:
        """Build from ``function(x)``, which returns the row of x (a mapping or Distribution)."""
        count_within(inputs, "table_entries", where="Mechanism.from_function", what="inputs")
        kernel: dict[Label, Mapping[Label, object]] = {}
        for x in inputs:
            row = function(x)
            kernel[x] = row.as_dict() if isinstance(row, Distribution) else row
        return cls(kernel, outputs=outputs, name=name)

    @classmethod
    def deterministic(
        cls,
        function: Callable[[Any], Label],
        inputs: Iterable[Label],
        *,
        outputs: Sequence[Label] | None = None,
        name: str = "attribute",
    ) -> Mechanism:
        """The kernel of a deterministic function: row x puts probability 1 on ``function(x)``.

        >>> parity = Mechanism.deterministic(lambda x: x % 2, range(4))
        >>> parity.outputs
        (0, 1)
        """
        where = "Mechanism.identity" if name == "identity" else "Mechanism.deterministic"
        count_within(inputs, "table_entries", where=where, what="inputs")
        return cls({x: {function(x): Fraction(1)} for x in inputs}, outputs=outputs, name=name)

    @classmethod
    def identity(cls, inputs: Iterable[Label]) -> Mechanism:
        """The mechanism that releases its input (the identity kernel)."""
        return cls.deterministic(lambda x: x, inputs, name="identity")

    # --- access -----------------------------------------------------------------------
    @unguarded(_INNER_LOOP)
    def input_position(self, x: Label) -> int:
        """The row index of input ``x`` (``InvalidArgument`` naming it when unknown)."""
        try:
            return self._input_index[x]
        except (KeyError, TypeError):
            raise InvalidArgument(
                f"input {abbreviated_repr(x)} is not in the mechanism's inputs "
                f"{abbreviated_repr(list(self.inputs))}"
            ) from None
        except Exception as error:  # a label whose hash or == raises
            raise translated(error, f"input {abbreviated_repr(x)}") from None

    @unguarded(_INNER_LOOP)
    def output_position(self, y: Label) -> int:
        """The column index of output ``y`` (``InvalidArgument`` naming it when unknown)."""
        try:
            return self._output_index[y]
        except (KeyError, TypeError):
            raise InvalidArgument(
                f"output {abbreviated_repr(y)} is not in the mechanism's outputs "
                f"{abbreviated_repr(list(self.outputs))}"
            ) from None
        except Exception as error:  # a label whose hash or == raises
            raise translated(error, f"output {abbreviated_repr(y)}") from None

    @unguarded(_INNER_LOOP)
    def probability(self, x: Label, y: Label) -> Scalar:
        """p(y | x)."""
        return self.rows[self.input_position(x)][self.output_position(y)]

    @unguarded(_INNER_LOOP)
    def row(self, x: Label) -> Distribution:
        """P_{Y|X=x} as a Distribution over the outputs."""
        return Distribution._trusted(
            self.outputs, self.rows[self.input_position(x)], self.conditions
        )

    @unguarded(_INNER_LOOP)
    def column(self, y: Label) -> tuple[Scalar, ...]:
        """``(p(y|x) for x in inputs)``."""
        position = self.output_position(y)
        return tuple(row[position] for row in self.rows)

    @property
    def is_rational(self) -> bool:
        """True when every entry is rational (the fast integer path applies)."""
        return self._integer is not None

    @property
    def is_deterministic(self) -> bool:
        """True when every row puts probability 1 on one output."""
        return all(sum(1 for v in row if not prove_zero(v)) == 1 for row in self.rows)

    @property
    def integer_kernel(self) -> IntegerKernel | None:
        """The integer-matrix form used by the fast paths (None for symbolic kernels)."""
        return self._integer

    @unguarded("the cache of every measure's per-prior results, read on each call")
    def derived(self, key: Any, compute: Any, *, keep: int = 8) -> Any:
        """A value derived from this (immutable) kernel, computed once per ``key``.

        The measures keep per-prior results here (e.g. every output's leakage under one
        prior), so that calling a measure once per output costs what one batched call costs.
        ``key`` holds the objects it depends on (identity-compared, kept alive while cached);
        at most ``keep`` values are kept, the oldest dropped first.
        """
        cache = self._derived
        entry = cache.get(id_key := tuple(map(id, key)))
        if entry is not None and all(a is b for a, b in zip(entry[0], key, strict=True)):
            return entry[1]
        value = compute()
        if len(cache) >= keep:
            cache.pop(next(iter(cache)))
        cache[id_key] = (key, value)
        return value

    # --- with a prior -----------------------------------------------------------------
    def check_prior(self, prior: Distribution, *, name: str = "prior") -> None:
        """Raise ``InvalidArgument`` unless ``prior`` is a Distribution on the inputs."""
        require_same_alphabet(prior, self.inputs, name=name, against="mechanism's inputs")

    def _prior_vector(self, prior: Distribution) -> list[Scalar]:
        self.check_prior(prior)
        return [prior[x] for x in self.inputs]

    def joint(self, prior: Distribution) -> Distribution:
        """P_{XY} = P_{Y|X} × P_X as a Distribution over pairs ``(x, y)``."""
        weights = self._prior_vector(prior)
        outcomes = [(x, y) for x in self.inputs for y in self.outputs]
        values = [
            exact_product(w, v) for w, row in zip(weights, self.rows, strict=True) for v in row
        ]
        return Distribution._trusted(outcomes, values, self.conditions + prior.conditions)

    def output_masses(self, prior: Distribution) -> list[Scalar]:
        """``[p_Y(y) for y in outputs]`` exactly (integer fast path when all is rational)."""
        weights = self._prior_vector(prior)
        if self._integer is not None and all(type(w) is Fraction for w in weights):
            return list(self._integer.weighted_column_sums(weights))
        return [
            exact_sum(exact_product(w, row[j]) for w, row in zip(weights, self.rows, strict=True))
            for j in range(len(self.outputs))
        ]

    def output_distribution(self, prior: Distribution) -> Distribution:
        """P_Y = P_{Y|X} ∘ P_X."""
        return Distribution._trusted(
            self.outputs, self.output_masses(prior), self.conditions + prior.conditions
        )

    def posterior(
        self, prior: Distribution, output: Label, *, strict: bool = False
    ) -> Distribution:
        """P_{X|Y=y}.  When p_Y(y) = 0 this is the prior (Saeidian et al., footnote 5).

        With ``strict=True`` conditioning on an output of probability zero raises instead.
        """
        weights = self._prior_vector(prior)
        column = self.output_position(output)
        joint = [exact_product(w, row[column]) for w, row in zip(weights, self.rows, strict=True)]
        mass = exact_sum(joint)
        if prove_zero(mass):
            if strict:
                raise InvalidArgument(
                    f"output {abbreviated_repr(output)} has probability zero under the prior, so "
                    "the "
                    "posterior is undefined (strict=True)"
                )
            return prior
        return Distribution._trusted(
            self.inputs,
            [exact_quotient(j, mass) for j in joint],
            self.conditions + prior.conditions,
        )

    # --- operations on kernels --------------------------------------------------------
    def post_process(self, kernel: Mechanism) -> Mechanism:
        """The composition ``kernel ∘ self``: p(z|x) = Σ_y p(y|x) p(z|y) (post-processing).

        ``kernel``'s inputs must include every output of ``self``.
        """
        if not isinstance(kernel, Mechanism):
            raise InvalidArgument(
                f"post_process: expected a Mechanism, got {type(kernel).__name__}"
            )
        missing = [y for y in self.outputs if y not in kernel._input_index]
        if missing:
            raise InvalidArgument(
                f"post_process: the post-processing kernel has no row for output(s) "
                f"{abbreviated_repr(missing)}"
            )
        matrix = []
        for row in self.rows:
            matrix.append(
                [
                    exact_sum(
                        exact_product(row[j], kernel.rows[kernel._input_index[y]][k])
                        for j, y in enumerate(self.outputs)
                    )
                    for k in range(len(kernel.outputs))
                ]
            )
        return Mechanism._from_valid_kernels(
            self.inputs, kernel.outputs, matrix, self.conditions + kernel.conditions
        )

    def parallel(self, other: Mechanism) -> Mechanism:
        """Run both on one input with independent randomness; outputs are pairs ``(y1, y2)``."""
        if not isinstance(other, Mechanism):
            raise InvalidArgument(f"parallel: expected a Mechanism, got {type(other).__name__}")
        if set(self.inputs) != set(other.inputs):
            raise InvalidArgument("parallel: the two mechanisms have different input alphabets")
        outputs = [(a, b) for a in self.outputs for b in other.outputs]
        matrix = []
        for x, row in zip(self.inputs, self.rows, strict=True):
            other_row = other.rows[other._input_index[x]]
            matrix.append([exact_product(p, q) for p in row for q in other_row])
        conditions = self.conditions + other.conditions
        return Mechanism._from_valid_kernels(self.inputs, outputs, matrix, conditions)

    def mixture(self, other: Mechanism, weight: object) -> Mechanism:
        """``weight`` × self + (1 − weight) × other (same inputs; outputs are the union)."""
        if not isinstance(other, Mechanism):
            raise InvalidArgument(f"mixture: expected a Mechanism, got {type(other).__name__}")
        if set(self.inputs) != set(other.inputs):
            raise InvalidArgument("mixture: the two mechanisms have different input alphabets")
        lam = exact(weight, where="mixture weight")
        if type(lam) is Fraction and not 0 <= lam <= 1:
            raise InvalidArgument(f"mixture weight {abbreviated(lam)} must lie in [0, 1]")
        outputs = list(dict.fromkeys([*self.outputs, *other.outputs]))
        rest = exact_difference(Fraction(1), lam)
        matrix = []
        for x in self.inputs:
            matrix.append(
                [
                    exact_sum(
                        [
                            exact_product(
                                lam, self.rows[self._input_index[x]][self._output_index[y]]
                            )
                            if y in self._output_index
                            else Fraction(0),
                            exact_product(
                                rest, other.rows[other._input_index[x]][other._output_index[y]]
                            )
                            if y in other._output_index
                            else Fraction(0),
                        ]
                    )
                    for y in outputs
                ]
            )
        return Mechanism._trusted(self.inputs, outputs, matrix, self.conditions + other.conditions)

    def product(self, other: Mechanism) -> Mechanism:
        """Independent inputs and outputs: (x1, x2) -> (y1, y2) with p = p1(y1|x1) p2(y2|x2)."""
        if not isinstance(other, Mechanism):
            raise InvalidArgument(f"product: expected a Mechanism, got {type(other).__name__}")
        inputs = [(a, b) for a in self.inputs for b in other.inputs]
        outputs = [(a, b) for a in self.outputs for b in other.outputs]
        matrix = [
            [exact_product(p, q) for p in r1 for q in r2] for r1 in self.rows for r2 in other.rows
        ]
        conditions = self.conditions + other.conditions
        return Mechanism._from_valid_kernels(inputs, outputs, matrix, conditions)

    def restrict(self, inputs: Iterable[Label]) -> Mechanism:
        """The same kernel on a subset of the inputs."""
        chosen = list(inputs)
        return Mechanism._from_valid_kernels(
            chosen,
            self.outputs,
            [self.rows[self.input_position(x)] for x in chosen],
            self.conditions,
        )

    @classmethod
    def _from_valid_kernels(
        cls,
        inputs: Sequence[Label],
        outputs: Sequence[Label],
        matrix: Sequence[Sequence[Scalar]],
        conditions: tuple[sympy.Basic, ...],
    ) -> Mechanism:
        """Build from rows derived from valid kernels by an operation that keeps a kernel valid
        (composition, products of rows, a subset of the rows): rational rows are re-checked
        (cheap); symbolic entries are not re-proved non-negative and summing to 1 (each proof
        is a ``simplify``: 36% of pml.prop_3_6's check) -- they are, wherever the kernels they
        came from are, i.e. under ``conditions``, which the result carries."""
        if all(type(v) in (Fraction, int) for row in matrix for v in row):
            return cls._trusted(inputs, outputs, matrix, conditions)
        self = object.__new__(cls)
        rows = tuple(tuple(as_scalar(v) for v in row) for row in matrix)
        self._finish(
            list(inputs), list(outputs), rows, tuple(dict.fromkeys(conditions)), None, "mechanism"
        )
        return self

    @classmethod
    def _trusted(
        cls,
        inputs: Sequence[Label],
        outputs: Sequence[Label],
        matrix: Sequence[Sequence[Scalar]],
        conditions: tuple[sympy.Basic, ...] = (),
    ) -> Mechanism:
        """Build from exactly computed rows (rows are re-checked cheaply when rational)."""
        self = object.__new__(cls)
        self._setup(
            list(inputs), list(outputs), matrix, allow_float=False, symbols=None, name="mechanism"
        )
        if conditions:
            object.__setattr__(
                self, "conditions", tuple(dict.fromkeys(self.conditions + conditions))
            )
        return self

    # --- equality and display ---------------------------------------------------------
    def as_dict(self) -> dict[Label, dict[Label, Scalar]]:
        """``{x: {y: p(y|x)}}`` with every entry, zeros included."""
        return {
            x: dict(zip(self.outputs, row, strict=True))
            for x, row in zip(self.inputs, self.rows, strict=True)
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mechanism):
            return NotImplemented
        if set(self.inputs) != set(other.inputs) or set(self.outputs) != set(other.outputs):
            return False
        return all(
            prove_zero(exact_difference(self.probability(x, y), other.probability(x, y)))
            for x in self.inputs
            for y in self.outputs
        )

    def __hash__(self) -> int:
        return hash(frozenset((x, frozenset(self.row(x).items())) for x in self.inputs))

    def _repr_html_(self) -> str:
        """Jupyter: the kernel as a table, one row per input x, one column per output y."""
        return html_table(
            "Mechanism p(y|x)",
            ["x \\ y", *self.outputs],
            ([x, *(self.probability(x, y) for y in self.outputs)] for x in self.inputs),
        )

    def __repr__(self) -> str:
        """Python that rebuilds this kernel, e.g. ``Mechanism({'a': {0: '1'}}, outputs=[0, 1])``.

        Zero entries are left out of the rows (the ``outputs`` list keeps every output, in
        order); entries are strings of exactpml's grammar, so the text pastes after
        ``from exactpml import *``; free symbols add a ``symbols=`` declaration.
        """
        with big_integer_printing():  # labels may be integers of any size
            body = ", ".join(
                f"{x!r}: {{"
                + ", ".join(
                    f"{y!r}: {quoted(v)}"
                    for y, v in zip(self.outputs, row, strict=True)
                    if not prove_zero(v)
                )
                + "}"
                for x, row in zip(self.inputs, self.rows, strict=True)
            )
            extra = symbols_argument(v for row in self.rows for v in row)
            return f"Mechanism({{{body}}}, outputs={list(self.outputs)!r}{extra})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        pretty(self, printer, cycle)
