"""Mutation score of exactpml's core modules: how many small faults the tests detect.

A *mutant* is a copy of one module with one small change of the kind a slip of the keyboard
or of the mind makes (``<`` for ``<=``, ``all`` for ``any``...).  It is *killed* when the
module's tests fail on it, *timed out* when they run past the per-mutant limit (also a
detection, counted separately), and *survives* when they all pass: then either no test
exercises the behaviour the change breaks -- a missing test, listed with file:line and the
change so that someone can write it -- or the change does not alter behaviour at all (an
*equivalent* mutant, which no test can kill).  The score is

    (killed + timed out) / (mutants - allow-listed equivalents)

per module and overall.  Equivalent mutants are never dropped silently: they are listed in
:data:`EQUIVALENT` below with the reason, reported in their own column, and still run -- an
allow-listed mutant that a test kills is reported as a stale entry and counted as killed.

Usage (from the repository root, after ``pip install -e '.[dev]'``)::

    python tools/mutation_score.py                       # every target module, table + survivors
    python tools/mutation_score.py --module pml --jobs 2 # one module (a name or a path)
    python tools/mutation_score.py --list                # the mutants, without running anything
    python tools/mutation_score.py --json report.json    # also write the results as JSON
    python tools/mutation_score.py --fail-under 90       # exit 1 below a total score of 90%

Mutation operators (one change per mutant, applied to the code's syntax tree)::

    compare     <  <-> <=,  >  <-> >=,  == <-> !=,  is <-> is not,  in <-> not in
    boolean     and <-> or;  `not x` -> `x`
    builtin     all <-> any,  min <-> max  (also the package's _min <-> _max helpers)
    arithmetic  + <-> -,  * <-> /,  // -> *,  ** -> *,  >> <-> <<  (also in `x op= y`);
                `-x` -> `x`
    constant    0 -> 1,  1 -> 0,  any other int c -> c + 1;  True <-> False
    return      `return <value>` -> `return None`
    loop        break <-> continue

What is not mutated, and why (every one of these would only produce equivalent mutants or
mutants of text no test should pin down):

* docstrings and every other string (messages are checked by the bad-input tables, by
  fragment, not letter by letter), f-strings as a whole, floats (the only float constants
  propose candidates that exact arithmetic then verifies, so their value is free by design);
* ``__all__`` and ``__slots__``, type annotations, code under ``if TYPE_CHECKING:``;
* ``raise`` statements (the text and class of the error; *whether* an error is raised is
  decided by the ``if`` around it, which is mutated) and ``assert`` statements (internal
  invariants: a weakened assert changes nothing while the invariant holds);
* ``__repr__`` and ``_repr_*`` methods (display only; the repr round trip has its own tests);
* the ``strict=`` flag of ``zip`` (the sequences zipped have equal lengths by construction;
  ``strict`` only turns an impossible silent truncation into an error).

Each mutant is spliced into the source text in place of the node it changes (wrapped in
parentheses, line breaks kept, so every other line is byte for byte the original) and run in
a subprocess -- mutated code is never imported or executed in this process.  Each worker
(``--jobs N``) has its own copy of the tree in a temporary directory (``PYTHONPATH`` points
at it, so the copy's modules shadow the editable install) and its own fork server: a
subprocess that imports pytest, Hypothesis (without its plugins), sympy, numpy and flint once
-- never exactpml -- and forks a child per run, which loads Hypothesis's plugins and runs
pytest, importing the mutated package afresh (``--no-fork``: a new interpreter per run
instead: the same verdicts, about 1.5 times slower here).  The mutated file is always
restored (``try``/``finally``) and its bytecode cache removed before and after each run.  The
working tree itself is never written; the script refuses to start when a selected module or
one of its test files has uncommitted changes, so that a score always describes a commit
(printed with the results).

The tests run for a module are the fixed list in :data:`TARGETS` (fast, focused files and the
module's own doctests), with ``pytest -x -q -p no:cacheprovider`` and no xdist, under the
``mutation`` Hypothesis profile of ``tests/conftest.py`` (derandomized: the same mutants are
killed on every run).  The per-mutant time limit is ``max(30 s, 4 x`` the unmutated run).
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import contextlib
import copy
import dataclasses
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# module -> the test files run against its mutants, focused files first (``-x`` stops at the
# first failure); the module itself stands for its doctests.
TARGETS: dict[str, tuple[str, ...]] = {
    "exactpml/core/mechanism.py": (
        "exactpml/core/mechanism.py",
        "tests/core/test_mechanism.py",
        "tests/core/test_bad_input.py",
        "tests/leakage/test_measures.py",
    ),
    "exactpml/leakage/pml.py": (
        "exactpml/leakage/pml.py",
        "tests/leakage/test_pml_edge_cases.py",
        "tests/leakage/test_attribute_function_fast_path.py",
        "tests/leakage/test_profile.py",
        "tests/leakage/test_measures.py",
    ),
    "exactpml/leakage/profile.py": (
        "exactpml/leakage/profile.py",
        "tests/leakage/test_pml_edge_cases.py",
        "tests/leakage/test_profile.py",
        "tests/leakage/test_measures.py",
    ),
    "exactpml/leakage/capacities.py": (
        "exactpml/leakage/capacities.py",
        "tests/leakage/test_pml_edge_cases.py",
        "tests/leakage/test_measures.py",
    ),
    "exactpml/leakage/divergences.py": (
        "exactpml/leakage/divergences.py",
        "tests/leakage/test_pml_edge_cases.py",
        "tests/leakage/test_measures.py",
    ),
    "exactpml/leakage/hockey_stick.py": (
        "exactpml/leakage/hockey_stick.py",
        "tests/leakage/test_hockey_stick.py",
    ),
}

# What each worker's copy of the tree holds.
COPIED = ("exactpml", "proofs_check", "tests", "pyproject.toml")


@dataclasses.dataclass(frozen=True)
class Equivalent:
    """A mutant that no test can kill: ``mutation`` on the line whose text is ``line``
    (at 1-based byte ``column`` when given, else every such mutant on the line)."""

    module: str
    line: str
    mutation: str
    reason: str
    column: int | None = None


_MECHANISM = "exactpml/core/mechanism.py"
_PROFILE = "exactpml/leakage/profile.py"
_HOCKEY = "exactpml/leakage/hockey_stick.py"
_PML = "exactpml/leakage/pml.py"
_DATACLASS = "@dataclass(frozen=True, slots=True, init=False, eq=False)"
_NONNEGATIVE = (
    "_nonnegative only steers shortcuts (e^ε >= 1; skip p_o <= q_o): whatever a shortcut "
    "skips, the certified comparison after it decides the same way"
)

# Equivalent mutants, each with the reason no behaviour changes.  Matched by module, the
# stripped text of the line, the mutation's description and (when given) the column.
EQUIVALENT: tuple[Equivalent, ...] = (
    # --- core/mechanism.py
    Equivalent(
        _MECHANISM,
        "if len(row) == len(order) and list(row) == order:  # already in order: no lookups",
        "`==` -> `!=`",
        "the length test only short-cuts the list comparison after it: a row of another "
        "length never equals the output list, so either way such a row takes the lookup path",
        column=12,
    ),
    Equivalent(
        _MECHANISM,
        _DATACLASS,
        "`True` -> `False`",
        "slots=False only gives instances a __dict__; frozen=True still refuses every "
        "assignment, so no value, comparison or error changes",
        column=31,
    ),
    Equivalent(
        _MECHANISM,
        _DATACLASS,
        "`False` -> `True`",
        "init=True and eq=True: the class defines __init__, __eq__ and __hash__ itself, and "
        "@dataclass never replaces methods a class defines (nor adds a hash next to one)",
    ),
    Equivalent(
        _MECHANISM,
        "if not seen.keys() >= kernel[x].keys():  # only rows naming new outputs",
        "`>=` -> `>`",
        "a shortcut: for a row naming only outputs already seen, setdefault adds nothing",
    ),
    Equivalent(
        _MECHANISM,
        "if known.keys() >= kernel[x].keys():",
        "`>=` -> `>`",
        "a shortcut: the loop after it finds no unknown output in a row of known outputs",
    ),
    Equivalent(
        _MECHANISM,
        "if entry is not None and all(a is b for a, b in zip(entry[0], key, strict=True)):",
        "`all` -> `any`",
        "the cache keeps its keys' objects alive, so their ids are unique: an entry found by "
        "the ids has every element identical, and all and any agree",
    ),
    Equivalent(
        _MECHANISM,
        'list(inputs), list(outputs), matrix, allow_float=False, symbols=None, name="mechanism"',
        "`False` -> `True`",
        "_trusted receives exactly computed rows, never floats: allowing floats changes nothing",
    ),
    # --- leakage/profile.py: the float proposal only prunes; the exact comparison decides
    Equivalent(
        _PROFILE,
        "shift = max(value.bit_length() - 62, 0)",
        "`62` -> `63`",
        "a 63-bit integer converts to float within 2^-53 (relative) as well: the stated 1e-12 "
        "holds either way",
    ),
    Equivalent(
        _PROFILE,
        "(_log2(t) - _log2(m) if t else -math.inf, y)",
        "`-x` -> `x`",
        "a zero top at +inf makes the margin infinite, so nothing is pruned and the exact "
        "cross-multiplication over every candidate gives the same answer",
    ),
    Equivalent(
        _PROFILE,
        "top_log = max(value for value, _ in logs)",
        "`max` -> `min`",
        "a lower proposal prunes nothing more: every candidate left is compared exactly",
    ),
    Equivalent(
        _PROFILE,
        "if value < top_log - margin:",
        "`<` -> `<=`",
        "a candidate exactly one margin (1e-6) below the top is certainly smaller, like every "
        "candidate below it by more than the rounding error (1e-12 relative)",
    ),
    Equivalent(
        _PROFILE,
        "if best is None or tops[y] * masses[best] > tops[best] * masses[y]:",
        "`>` -> `>=`",
        "on an exact tie the later output is chosen; its ratio, the maximum, is the same",
    ),
    Equivalent(
        _PROFILE,
        "self._pairs, self._total = None, 1",
        "`1` -> `0`",
        "_total is read only when _pairs is not None, and here _pairs is None",
    ),
    Equivalent(
        _PROFILE,
        "return LogValue(1) if best is None else self[self.mechanism.outputs[best]]",
        "`1` -> `0`",
        "best is None only when no output has positive mass, impossible under a prior",
    ),
    Equivalent(
        _PROFILE,
        "if not isinstance(mechanism, Mechanism) or not isinstance(prior, Distribution):",
        "`not x` -> `x`",
        "a wrong prior is refused anyway, with the same message: _validated_profile checks "
        "both arguments before building the profile",
        column=48,
    ),
    # --- leakage/capacities.py
    Equivalent(
        "exactpml/leakage/capacities.py",
        "return LogValue(_max(ratios) if ratios else Fraction(1), conditions=tuple(conditions))",
        "`1` -> `0`",
        "ratios is never empty here: a row sums to 1, so some column is not all zero, and "
        "such a column either returned oo or added a ratio",
    ),
    # --- leakage/divergences.py
    Equivalent(
        "exactpml/leakage/divergences.py",
        "if p.is_rational and q.is_rational:  # expand_log can take minutes on closed-form masses",
        "`and` -> `or`",
        "time only: expand_log keeps the value; the guard spares minutes on closed-form "
        "masses, and the suite asserts no timings (tests/README.md)",
    ),
    Equivalent(
        "exactpml/leakage/divergences.py",
        "total = sympy.expand_log(total, force=True)",
        "`True` -> `False`",
        "on rational laws every log argument is a positive rational, which sympy knows to be "
        "positive, so expand_log splits it with or without force",
    ),
    # --- leakage/hockey_stick.py
    Equivalent(_HOCKEY, "if term > 0:", "`>` -> `>=`", "a zero term adds nothing to the sum"),
    Equivalent(
        _HOCKEY,
        "if numeric_ratio and type(a) is Fraction and type(b) is Fraction:",
        "`is` -> `is not`",
        "both routes decide the sign of p_o - e^ε q_o by certified arithmetic (p_o/q_o "
        "against e^ε, or the difference itself): only the route changes",
    ),
    Equivalent(
        _HOCKEY,
        "for k in range(1, len(values)):",
        "`1` -> `0`",
        "values[0] compared with itself first: a zero sign, never > 0",
    ),
    Equivalent(
        _HOCKEY,
        "if _certified_sign(exact_difference(values[k], values[best])) > 0:",
        "`>` -> `>=`",
        "on a tie the later of equal values is returned with its index: both are maximisers, "
        "and exact_max promises one maximiser",
    ),
    Equivalent(_HOCKEY, "return _certified_sign(value) >= 0", "`>=` -> `>`", _NONNEGATIVE),
    Equivalent(
        _HOCKEY, "return _certified_sign(value) >= 0", "`return x` -> `return None`", _NONNEGATIVE
    ),
    Equivalent(_HOCKEY, "return _certified_sign(value) >= 0", "`0` -> `1`", _NONNEGATIVE),
    Equivalent(
        _HOCKEY,
        "if certify is not None:",
        "`is not` -> `is`",
        "without the explicit certify call, prove_nonnegative decides a closed-form number by "
        "the same certified sign (core.decisions._sign_info), Undecided alike",
    ),
    Equivalent(
        _HOCKEY,
        "if best is None or (type(best) is Fraction and value > best):",
        "`>` -> `>=`",
        "on a tie the later index is returned: both are argmaxes of the same ratio",
    ),
    Equivalent(
        _HOCKEY,
        "return str(certify.decimal(value if type(value) is Fraction else to_sympy(value), "
        "digits))",
        "`is` -> `is not`",
        "certify.decimal takes a Fraction or a sympy number alike: only the conversion changes",
    ),
    Equivalent(
        _HOCKEY,
        'sign = "-" if value < 0 else ""',
        "`<` -> `<=`",
        "value == 0 has returned above",
    ),
    Equivalent(
        _HOCKEY,
        "exponent = len(str(magnitude.numerator)) - len(str(magnitude.denominator))",
        "`-` -> `+`",
        "a higher estimate is lowered by the loop after it to the same exponent",
    ),
    Equivalent(
        _HOCKEY,
        "while Fraction(10) ** exponent > magnitude:",
        "`>` -> `>=`",
        "at an exact power of ten the exponent ends one too low, the mantissa is then "
        "10^digits, and the correction below restores both",
    ),
    Equivalent(
        _HOCKEY,
        "mantissa //= 10",
        "`//=` -> `*=`",
        "10^digits has only zeros after its first digit, which the text drops: dividing or "
        "multiplying it by 10 prints the same",
    ),
    # --- leakage/pml.py
    Equivalent(
        _PML,
        "found[1] += w * c",
        "`+=` -> `-=`",
        "every joint mass and their total p_Y(y) change sign together, so each ratio "
        "joint / total / marginal and the test total == 0 are unchanged",
    ),
    Equivalent(
        _PML,
        "if callable(attribute) and not isinstance(attribute, Mechanism):",
        "`and` -> `or`",
        "a Mechanism is not callable, so only non-callable non-kernel attributes change "
        "route; calling one raises TypeError inside the fast path, which then returns None "
        "and leaves the general path to answer (or refuse) as before",
    ),
)


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One change to one module: where (1-based line, byte column), what, and the new text."""

    module: str
    line: int
    column: int
    mutation: str
    source_line: str
    start: tuple[int, int]
    end: tuple[int, int]
    replacement: str

    @property
    def name(self) -> str:
        return f"{self.module}:{self.line}:{self.column + 1} {self.mutation}"


# --- generating mutants ---------------------------------------------------------------
_COMPARE_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
_ARITHMETIC_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Pow: ast.Mult,
    ast.RShift: ast.LShift,
    ast.LShift: ast.RShift,
}
_SYMBOL = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Pow: "**",
    ast.RShift: ">>",
    ast.LShift: "<<",
    ast.And: "and",
    ast.Or: "or",
}
_BUILTIN_SWAPS = {"all": "any", "any": "all", "min": "max", "max": "min", "_min": "_max",
                  "_max": "_min"}  # fmt: skip
_SKIPPED_ASSIGNMENTS = {"__all__", "__slots__"}


def _is_display_method(node: ast.AST) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and (
        node.name == "__repr__" or node.name.startswith("_repr_")
    )


def _skipped(node: ast.AST) -> bool:
    """Subtrees never mutated (see the module docstring for why)."""
    if isinstance(node, ast.Raise | ast.Assert | ast.JoinedStr) or _is_display_method(node):
        return True
    if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return any(isinstance(t, ast.Name) and t.id in _SKIPPED_ASSIGNMENTS for t in targets)
    if isinstance(node, ast.If) and ast.unparse(node.test) in (
        "TYPE_CHECKING",
        "typing.TYPE_CHECKING",
    ):
        return True
    return False


def _children(node: ast.AST) -> Iterator[ast.AST]:
    """The children to visit, without annotations and ``zip``'s ``strict=`` flag."""
    for field, value in ast.iter_fields(node):
        if field in ("annotation", "returns", "type_comment"):
            continue
        if (
            field == "keywords"
            and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "zip"
        ):
            value = [k for k in value if k.arg != "strict"]
        if isinstance(value, ast.AST):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, ast.AST))


Located = ast.expr | ast.stmt  # the nodes with positions


def _changes(node: ast.AST, parent: ast.AST | None) -> Iterator[tuple[str, Located, str]]:
    """``(description, node to replace, replacement text)`` for each mutation of ``node``."""
    if isinstance(node, ast.Compare):
        for position, op in enumerate(node.ops):
            swap = _COMPARE_SWAPS.get(type(op))
            if swap is not None:
                compare = copy.deepcopy(node)
                compare.ops[position] = swap()
                yield f"`{_SYMBOL[type(op)]}` -> `{_SYMBOL[swap]}`", node, ast.unparse(compare)
    elif isinstance(node, ast.BoolOp):
        other: type[ast.boolop] = ast.Or if isinstance(node.op, ast.And) else ast.And
        boolean = copy.deepcopy(node)
        boolean.op = other()
        yield f"`{_SYMBOL[type(node.op)]}` -> `{_SYMBOL[other]}`", node, ast.unparse(boolean)
    elif isinstance(node, ast.BinOp | ast.AugAssign):
        arithmetic = _ARITHMETIC_SWAPS.get(type(node.op))
        if arithmetic is not None:
            changed = copy.deepcopy(node)
            changed.op = arithmetic()
            suffix = "=" if isinstance(node, ast.AugAssign) else ""
            text = ast.unparse(changed)
            if isinstance(node, ast.AugAssign) and node.lineno != node.end_lineno:
                return  # a multi-line statement cannot be spliced as one line
            before, after = _SYMBOL[type(node.op)], _SYMBOL[arithmetic]
            yield f"`{before}{suffix}` -> `{after}{suffix}`", node, text
    elif isinstance(node, ast.UnaryOp):
        if isinstance(node.op, ast.Not):
            yield "`not x` -> `x`", node, ast.unparse(node.operand)
        elif isinstance(node.op, ast.USub):
            yield "`-x` -> `x`", node, ast.unparse(node.operand)
    elif isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            yield f"`{node.value}` -> `{not node.value}`", node, repr(not node.value)
        elif isinstance(node.value, int):
            new = {0: 1, 1: 0}.get(node.value, node.value + 1)
            yield f"`{node.value}` -> `{new}`", node, repr(new)
    elif isinstance(node, ast.Name):
        if isinstance(parent, ast.Call) and parent.func is node and node.id in _BUILTIN_SWAPS:
            yield f"`{node.id}` -> `{_BUILTIN_SWAPS[node.id]}`", node, _BUILTIN_SWAPS[node.id]
    elif isinstance(node, ast.Return):
        value = node.value
        if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
            yield "`return x` -> `return None`", value, "None"
    elif isinstance(node, ast.Break):
        yield "`break` -> `continue`", node, "continue"
    elif isinstance(node, ast.Continue):
        yield "`continue` -> `break`", node, "break"


def generate_mutants(source: str, module: str) -> list[Mutant]:
    """Every mutant of ``source`` (the text of ``module``), in source order."""
    tree = ast.parse(source)
    lines = source.splitlines()
    found: list[Mutant] = []

    def visit(node: ast.AST, parent: ast.AST | None) -> None:
        if _skipped(node):
            return
        for mutation, target, text in _changes(node, parent):
            statement = isinstance(target, ast.stmt)
            found.append(
                Mutant(
                    module=module,
                    line=target.lineno,
                    column=target.col_offset,
                    mutation=mutation,
                    source_line=lines[target.lineno - 1].strip(),
                    start=(target.lineno, target.col_offset),
                    end=(target.end_lineno or target.lineno, target.end_col_offset or 0),
                    replacement=text if statement else f"({text})",
                )
            )
        for child in _children(node):
            visit(child, node)

    visit(tree, None)
    found.sort(key=lambda m: (m.start, m.end, m.mutation))
    return found


def apply_mutant(source: str, mutant: Mutant) -> str:
    """``source`` with the mutant's node replaced by its text; every other line unchanged.

    Columns are UTF-8 byte offsets (as ``ast`` gives them); a replaced multi-line node keeps
    its line breaks (inside the parentheses), so line numbers do not move.
    """
    lines = source.encode("utf-8").splitlines(keepends=True)
    (first, start), (last, end) = mutant.start, mutant.end
    before = b"".join(lines[: first - 1]) + lines[first - 1][:start]
    after = lines[last - 1][end:] + b"".join(lines[last:])
    replacement = mutant.replacement.encode("utf-8")
    if last > first:
        if not replacement.endswith(b")"):
            raise ValueError(f"{mutant.name}: a multi-line statement cannot be spliced")
        replacement = replacement[:-1] + b"\n" * (last - first) + b")"
    mutated = (before + replacement + after).decode("utf-8")
    ast.parse(mutated)  # every mutant is valid Python
    return mutated


# --- running mutants ------------------------------------------------------------------
@dataclasses.dataclass
class Result:
    mutant: Mutant
    outcome: str  # "killed", "timeout", "survived"
    seconds: float
    equivalent: Equivalent | None = None


def equivalence_of(mutant: Mutant) -> Equivalent | None:
    """The allow-list entry covering ``mutant``, if any."""
    for entry in EQUIVALENT:
        if (entry.module, entry.line, entry.mutation) == (
            mutant.module,
            mutant.source_line,
            mutant.mutation,
        ) and entry.column in (None, mutant.column + 1):
            return entry
    return None


def _drop_bytecode(path: Path) -> None:
    cache = path.parent / "__pycache__"
    for compiled in cache.glob(f"{path.stem}.*.pyc"):
        compiled.unlink(missing_ok=True)


@contextlib.contextmanager
def mutated_file(path: Path, text: str) -> Iterator[None]:
    """Write ``text`` to ``path`` for the duration of the block; the original always returns."""
    original = path.read_bytes()
    try:
        path.write_text(text, encoding="utf-8")
        _drop_bytecode(path)
        yield
    finally:
        path.write_bytes(original)
        _drop_bytecode(path)


def pytest_args(tests: Sequence[str]) -> list[str]:
    """pytest's arguments for each mutant (no xdist, stop at the first failure)."""
    return ["-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=--doctest-modules", *tests]


def _environment(workdir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(workdir)  # the worker's copy shadows the editable install
    env["HYPOTHESIS_PROFILE"] = "mutation"
    env.pop("PYTEST_ADDOPTS", None)
    return env


def _status(code: int, tests: Sequence[str], workdir: Path) -> str:
    if code == 5:
        raise RuntimeError(f"no tests collected from {list(tests)} in {workdir}")
    return "passed" if code == 0 else "failed"


def run_tests(workdir: Path, tests: Sequence[str], timeout: float) -> tuple[str, float]:
    """Run ``tests`` in ``workdir`` in a fresh interpreter: ("passed" | "failed" | "timeout",
    seconds).  The process group is killed at the deadline (pytest and anything it started).
    """
    start = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "pytest", *pytest_args(tests)],
        cwd=workdir,
        env=_environment(workdir),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        code = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return "timeout", time.monotonic() - start
    return _status(code, tests, workdir), time.monotonic() - start


# The fork server: a subprocess that imports the heavy third-party modules once (pytest,
# Hypothesis without its plugins, sympy, numpy, flint) -- never exactpml or proofs_check --
# then forks one child per request; the child loads Hypothesis's plugins and runs pytest, so
# every run imports the (mutated) package afresh, as a new interpreter would.
_SERVER = r"""
import json, os, signal, sys, time
os.environ["HYPOTHESIS_NO_PLUGINS"] = "1"
import pytest, hypothesis, hypothesis.strategies, hypothesis.entry_points
for name in ("sympy", "numpy", "mpmath", "flint", "rich"):
    try:
        __import__(name)
    except ImportError:
        pass
ours = sorted(m for m in sys.modules if m.split(".")[0] in ("exactpml", "proofs_check"))
if ours:
    sys.exit(f"imported before forking: {ours}")
del os.environ["HYPOTHESIS_NO_PLUGINS"]
print("ready", flush=True)
for line in sys.stdin:
    request = json.loads(line)
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            os.setsid()
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            hypothesis.entry_points.run()
            code = int(pytest.main(request["args"]))
        finally:
            os._exit(code)
    deadline = start + request["timeout"]
    status = "exited"
    while True:
        done, wait_status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(wait_status)
            break
        if time.monotonic() > deadline:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            status, code = "timeout", None
            break
        time.sleep(0.01)
    print(json.dumps({"status": status, "code": code, "seconds": time.monotonic() - start}),
          flush=True)
"""


class Runner:
    """Runs test files in one worker directory, each run in a fresh process.

    With ``fork`` (the default) a fork server started in ``workdir`` forks each run, which
    saves the interpreter start and the third-party imports (seconds per mutant on a loaded
    machine); without it every run is ``python -m pytest`` (:func:`run_tests`).
    """

    def __init__(self, workdir: Path, *, fork: bool = True) -> None:
        self.workdir = workdir
        self.fork = fork
        self._server: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        server = subprocess.Popen(
            [sys.executable, "-c", _SERVER],
            cwd=self.workdir,
            env=_environment(self.workdir),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        assert server.stdout is not None
        if server.stdout.readline().strip() != "ready":
            server.kill()
            server.wait()
            raise RuntimeError(f"the fork server did not start in {self.workdir}")
        return server

    def run(self, tests: Sequence[str], timeout: float) -> tuple[str, float]:
        """("passed" | "failed" | "timeout", seconds) for one run of ``tests``."""
        if not self.fork:
            return run_tests(self.workdir, tests, timeout)
        if self._server is None or self._server.poll() is not None:
            self._server = self._start()
        assert self._server.stdin is not None and self._server.stdout is not None
        self._server.stdin.write(json.dumps({"args": pytest_args(tests), "timeout": timeout}))
        self._server.stdin.write("\n")
        self._server.stdin.flush()
        answer = self._server.stdout.readline()
        if not answer:
            self.close()
            raise RuntimeError(f"the fork server in {self.workdir} stopped")
        reply = json.loads(answer)
        if reply["status"] == "timeout":
            return "timeout", reply["seconds"]
        return _status(reply["code"], tests, self.workdir), reply["seconds"]

    def close(self) -> None:
        if self._server is not None:
            with contextlib.suppress(OSError):
                if self._server.stdin is not None:
                    self._server.stdin.close()
            try:
                self._server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._server.kill()
                self._server.wait()
            self._server = None


def run_mutant(runner: Runner, mutant: Mutant, tests: Sequence[str], timeout: float) -> Result:
    """Apply ``mutant`` in the runner's copy of the tree, run ``tests``, restore the file."""
    path = runner.workdir / mutant.module
    original = path.read_text(encoding="utf-8")
    with mutated_file(path, apply_mutant(original, mutant)):
        status, seconds = runner.run(tests, timeout)
    outcome = {"passed": "survived", "failed": "killed", "timeout": "timeout"}[status]
    return Result(mutant, outcome, seconds, equivalence_of(mutant))


def copy_tree(root: Path, entries: Sequence[str], destination: Path) -> Path:
    """A copy of ``entries`` of ``root`` under ``destination`` (no bytecode caches)."""
    destination.mkdir(parents=True, exist_ok=True)
    for entry in entries:
        source = root / entry
        if source.is_dir():
            shutil.copytree(
                source, destination / entry, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(source, destination / entry)
    return destination


def run_all(
    mutants: Sequence[Mutant],
    targets: dict[str, tuple[str, ...]],
    *,
    root: Path = ROOT,
    entries: Sequence[str] = COPIED,
    jobs: int = 1,
    fork: bool = True,
    progress: bool = False,
) -> tuple[list[Result], dict[str, float]]:
    """Run every mutant with ``jobs`` workers, each in its own copy of the tree.

    First each module's tests run unmutated (they must pass; their time sets the limit).
    Returns the results in ``mutants`` order and the unmutated run's seconds per module.
    """
    base = Path(tempfile.mkdtemp(prefix="exactpml-mutation-"))
    runners: list[Runner] = []
    try:
        workers: queue.Queue[Runner] = queue.Queue()
        for number in range(max(jobs, 1)):
            runners.append(Runner(copy_tree(root, entries, base / f"worker{number}"), fork=fork))
        for runner in runners:
            workers.put(runner)
        baseline: dict[str, float] = {}
        for module in dict.fromkeys(m.module for m in mutants):
            runner = workers.get()
            try:
                status, seconds = runner.run(targets[module], timeout=600)
            finally:
                workers.put(runner)
            if status != "passed":
                raise RuntimeError(f"the tests of {module} fail without any mutation: {status}")
            baseline[module] = seconds
        limits = {module: max(30.0, 4 * seconds) for module, seconds in baseline.items()}

        def one(mutant: Mutant) -> Result:
            runner = workers.get()
            try:
                return run_mutant(runner, mutant, targets[mutant.module], limits[mutant.module])
            finally:
                workers.put(runner)

        results: list[Result] = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(jobs, 1)) as pool:
            for done, result in enumerate(pool.map(one, mutants), start=1):
                results.append(result)
                if progress and (sys.stderr.isatty() or done % 25 == 0 or done == len(mutants)):
                    end = "" if sys.stderr.isatty() else "\n"
                    print(f"\r{done}/{len(mutants)} mutants", end=end, file=sys.stderr, flush=True)
        if progress and sys.stderr.isatty():
            print(file=sys.stderr)
        return results, baseline
    finally:
        for runner in runners:
            runner.close()
        shutil.rmtree(base, ignore_errors=True)


# --- reporting ------------------------------------------------------------------------
def summarize(results: Sequence[Result]) -> list[dict[str, object]]:
    """One row per module and a last ``total`` row."""
    rows = []
    modules = list(dict.fromkeys(r.mutant.module for r in results))
    for module in [*modules, "total"]:
        chosen = [r for r in results if module in ("total", r.mutant.module)]
        killed = sum(r.outcome == "killed" for r in chosen)
        timeout = sum(r.outcome == "timeout" for r in chosen)
        equivalent = sum(r.outcome == "survived" and r.equivalent is not None for r in chosen)
        survived = sum(r.outcome == "survived" and r.equivalent is None for r in chosen)
        counted = len(chosen) - equivalent
        rows.append(
            {
                "module": module,
                "mutants": len(chosen),
                "killed": killed,
                "timeout": timeout,
                "survived": survived,
                "equivalent": equivalent,
                "score": (killed + timeout) / counted if counted else 1.0,
            }
        )
    return rows


def report(results: Sequence[Result], baseline: dict[str, float], seconds: float) -> str:
    rows = summarize(results)
    header = f"{'module':<36} {'mutants':>7} {'killed':>6} {'timeout':>7} {'survived':>8} "
    header += f"{'equiv.':>6} {'score':>7}"
    lines = [header, "-" * len(header)]
    for row in rows:
        lines.append(
            f"{row['module']:<36} {row['mutants']:>7} {row['killed']:>6} {row['timeout']:>7} "
            f"{row['survived']:>8} {row['equivalent']:>6} {row['score']:>7.1%}"
        )
    lines.append(f"\n{len(results)} mutants in {seconds:.0f} s")
    survivors = [r for r in results if r.outcome == "survived" and r.equivalent is None]
    if survivors:
        lines.append("\nSurvivors (no test notices the change):")
        lines.extend(f"  {r.mutant.name}\n      {r.mutant.source_line}" for r in survivors)
    equivalents = [r for r in results if r.outcome == "survived" and r.equivalent is not None]
    if equivalents:
        lines.append("\nEquivalent (allow-listed in tools/mutation_score.py, with the reason):")
        lines.extend(
            f"  {r.mutant.name}\n      {r.equivalent.reason}"
            for r in equivalents
            if r.equivalent is not None
        )
    stale = [r for r in results if r.outcome != "survived" and r.equivalent is not None]
    if stale:
        lines.append("\nStale allow-list entries (killed after all; remove them):")
        lines.extend(f"  {r.mutant.name}" for r in stale)
    return "\n".join(lines)


def as_json(results: Sequence[Result], baseline: dict[str, float], seconds: float) -> str:
    return json.dumps(
        {
            "seconds": round(seconds, 1),
            "baseline_seconds": {k: round(v, 2) for k, v in baseline.items()},
            "summary": summarize(results),
            "mutants": [
                {
                    "module": r.mutant.module,
                    "line": r.mutant.line,
                    "column": r.mutant.column + 1,
                    "mutation": r.mutant.mutation,
                    "source": r.mutant.source_line,
                    "outcome": r.outcome,
                    "equivalent": r.equivalent.reason if r.equivalent else None,
                    "seconds": round(r.seconds, 2),
                }
                for r in results
            ],
        },
        indent=2,
    )


# --- command line ---------------------------------------------------------------------
def _select(names: Sequence[str] | None) -> list[str]:
    if not names:
        return list(TARGETS)
    chosen = []
    for name in names:
        matches = [m for m in TARGETS if m == name or Path(m).stem == name]
        if not matches:
            raise SystemExit(f"unknown module {name!r}; choose among {list(TARGETS)}")
        chosen.extend(matches)
    return list(dict.fromkeys(chosen))


def _dirty(modules: Sequence[str]) -> list[str]:
    result = subprocess.run(
        ["git", "status", "--porcelain", "--", *modules],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return [line for line in result.stdout.splitlines() if line.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--module", action="append", help="a target module (name or path); repeatable"
    )
    parser.add_argument("--list", action="store_true", help="print the mutants, run nothing")
    parser.add_argument("--jobs", type=int, default=1, help="parallel workers (default 1)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument(
        "--no-fork", action="store_true", help="start a new interpreter for every run (slower)"
    )
    parser.add_argument(
        "--fail-under", type=float, metavar="PERCENT", help="exit 1 if the total score is lower"
    )
    args = parser.parse_args(argv)
    modules = _select(args.module)
    mutants = [
        mutant
        for module in modules
        for mutant in generate_mutants((ROOT / module).read_text(encoding="utf-8"), module)
    ]
    if args.list:
        for mutant in mutants:
            entry = equivalence_of(mutant)
            note = f"   [equivalent: {entry.reason}]" if entry else ""
            print(f"{mutant.name}\n    {mutant.source_line}{note}")
        print(f"{len(mutants)} mutants")
        return 0
    tests = [t for module in modules for t in TARGETS[module]]
    dirty = _dirty(list(dict.fromkeys([*modules, *tests, "tests/conftest.py"])))
    if dirty:
        print("refusing to run: uncommitted changes in " + ", ".join(dirty), file=sys.stderr)
        return 2
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    start = time.monotonic()
    results, baseline = run_all(
        mutants, TARGETS, jobs=args.jobs, fork=not args.no_fork, progress=True
    )
    seconds = time.monotonic() - start
    print(f"commit {commit}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(report(results, baseline, seconds))
    if args.json:
        data = json.loads(as_json(results, baseline, seconds))
        data["commit"] = commit
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    total = summarize(results)[-1]["score"]
    if args.fail_under is not None and float(total) * 100 < args.fail_under:  # type: ignore[arg-type]
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
