"""Helpers that claim authors call to build evidence of each kind.

- :func:`exact_instances` (E): computed values equal the text's values exactly.
- :func:`property_holds` (P): a property holds on every instance of a small scope
  (:mod:`proofs_check.small_scope`) and on random exact instances (Hypothesis), with a
  minimal exact counterexample when it does not, and which phase found it.
- :func:`limit_evidence` (L): the limit of a construction equals the claimed supremum
  exactly, and whether it is attained.
- :func:`witness_evidence` (W): an explicit instance built and verified exactly.
- :func:`certified_evidence` (C): an inequality certified by interval arithmetic.
- :func:`proof_evidence` (C): an inequality proved over a whole domain by the proof engines
  (:func:`proofs_check.prover.prove_inequality`), carrying its
  :class:`~proofs_check.record.ProofRecord`.
- :func:`domain_search_evidence` (P): the statement of a proof searched at exact points of
  its domain (:mod:`proofs_check.domain_search`); :func:`searched_proof_evidence` gives both.
- :func:`not_checkable`: a part that cannot be checked, with the reason.

Every helper refuses floats, and a failing result always carries an exact
counterexample, so a FAILED verdict can be reproduced by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import sympy

from exactpml.core.exact import to_sympy
from exactpml.errors import InvalidArgument
from proofs_check.context import CheckContext
from proofs_check.domain_search import domain_search_evidence, search_wanted
from proofs_check.exactness import exact_text, exactly_equal, three_valued
from proofs_check.properties import property_holds
from proofs_check.prover import prove_inequality
from proofs_check.record import (
    Evidence,
    ExactValue,
    PropertyStats,
    StrengtheningRecord,
    exact_values,
)
from proofs_check.statement import KINDS, Kind

__all__ = [
    "Evidence",
    "ExactValue",
    "PropertyStats",
    "certified_evidence",
    "domain_search_evidence",
    "exact_instances",
    "exact_values",
    "limit_evidence",
    "not_checkable",
    "proof_evidence",
    "property_holds",
    "searched_proof_evidence",
    "sharpness_evidence",
    "strengthening_evidence",
    "witness_evidence",
]

Equality = Callable[[Any, Any], bool | None]
"""Decides exact equality: True, False, or None when it cannot be settled."""


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _check_kind(kind: object) -> Kind:
    for known in KINDS:
        if kind == known:
            return known
    raise InvalidArgument(f"kind={kind!r} must be one of {', '.join(KINDS)}.")


def exact_instances(
    cases: Mapping[str, tuple[object, object]] | Iterable[tuple[str, object, object]],
    *,
    origin: str = "from the text",
    kind: Kind = "E",
    equal: Equality | None = None,
) -> Evidence:
    """Compare computed values with expected ones exactly, on named instances.

    Args:
        cases: ``{name: (computed, expected)}`` or ``[(name, computed, expected), ...]``.
        origin: Where the expected values come from, for the summary.
        kind: The evidence kind (``"E"`` unless the comparison serves another kind).
        equal: Exact equality to use; default :func:`exactly_equal` (``==`` on rationals,
            sympy simplification otherwise, undecided when neither settles it).

    Returns:
        Evidence that passed when every instance is equal, failed with the first differing
        instance as counterexample, or is undecided when some equality cannot be settled.

    >>> from fractions import Fraction
    >>> exact_instances({"n=1": (Fraction(1, 2), Fraction(2, 4))}).summary
    'exact on 1 instance from the text'
    """
    kind = _check_kind(kind)
    items = (
        [(name, pair[0], pair[1]) for name, pair in cases.items()]
        if isinstance(cases, Mapping)
        else [tuple(case) for case in cases]
    )
    if not items:
        raise InvalidArgument("cases must contain at least one (name, computed, expected).")
    compare = equal or exactly_equal
    failures: list[str] = []
    undecided: list[str] = []
    values: list[ExactValue] = []
    for item in items:
        if len(item) != 3:
            raise InvalidArgument(f"case {item!r} must be (name, computed, expected).")
        name, computed, expected = item
        name = str(name)
        values.append(ExactValue.of(name, computed))
        verdict = three_valued(compare(computed, expected), name="equal")
        if verdict is False:
            failures.append(
                f"{name}: computed {exact_text(computed, name=name)}, "
                f"expected {exact_text(expected, name=name)}"
            )
        elif verdict is None:
            undecided.append(name)
    total = len(items)
    if failures:
        return Evidence(
            kind,
            False,
            f"differs {origin} on {len(failures)} of {_plural(total, 'instance')}",
            tuple(values),
            counterexample="; ".join(failures),
            label=f"exact {origin}",
        )
    if undecided:
        return Evidence(
            kind,
            None,
            f"equal on {total - len(undecided)} of {_plural(total, 'instance')} {origin}; "
            f"could not decide exactly: {', '.join(undecided)}",
            tuple(values),
            label=f"exact {origin}",
        )
    return Evidence(
        kind,
        True,
        f"exact on {_plural(total, 'instance')} {origin}",
        tuple(values),
        label=f"exact {origin}",
    )


def limit_evidence(
    value: object,
    expected: object,
    *,
    attained: bool,
    family: str,
    expected_attained: bool | None = None,
    equal: Equality | None = None,
    name: str = "limit",
) -> Evidence:
    """Evidence that the limit of a construction equals the claimed supremum exactly.

    Args:
        value: The limit computed by the limit engine (exact).
        expected: The claimed supremum (exact).
        attained: Whether the supremum is attained (as reported by the engine).
        family: The construction, e.g. ``"priors (1-t) on argmin p(y|x), t -> 0+"``.
        expected_attained: If given, the claim also says whether it is attained.
        equal: Exact equality (default :func:`exactly_equal`).
        name: Name of the value in the report.

    >>> limit_evidence(1, 1, attained=False, family="t -> 0+").summary
    'limit of t -> 0+ equals 1 exactly; not attained'
    """
    if not isinstance(attained, bool):
        raise InvalidArgument(f"attained={attained!r} must be a bool.")
    values = (ExactValue.of(name, value), ExactValue.of("claimed", expected))
    shown = exact_text(value, name=name)
    claimed = exact_text(expected, name="expected")
    status = "attained" if attained else "not attained"
    same = three_valued((equal or exactly_equal)(value, expected), name="equal")
    label = f"limit of {family}"
    if same is False:
        return Evidence(
            "L",
            False,
            f"limit of {family} is {shown}, not {claimed}",
            values,
            counterexample=f"limit of {family} = {shown} ≠ {claimed} (claimed)",
            label=label,
        )
    if expected_attained is not None and expected_attained != attained:
        claimed_status = "attained" if expected_attained else "not attained"
        return Evidence(
            "L",
            False,
            f"limit of {family} equals {claimed} but is {status}, claimed {claimed_status}",
            values,
            counterexample=f"supremum {claimed} over {family} is {status}; claimed "
            f"{claimed_status}",
            label=label,
        )
    if same is None:
        return Evidence(
            "L",
            None,
            f"could not decide exactly whether the limit of {family} ({shown}) equals {claimed}",
            values,
            label=label,
        )
    return Evidence(
        "L", True, f"limit of {family} equals {claimed} exactly; {status}", values, label=label
    )


def witness_evidence(
    description: str,
    verified: bool | None,
    *,
    values: Mapping[str, object] | None = None,
    counterexample: str | None = None,
    kind: Kind = "W",
) -> Evidence:
    """Evidence from an explicit instance that the tool built and verified exactly.

    Args:
        description: The witness, e.g. ``"alpha-mechanism of A.5 with alpha = 1/4"``.
        verified: True if it verifies exactly, False if it fails, None if undecided.
        values: Exact values to show (``{"l(X->0)": log(5/4)}``).
        counterexample: Required when ``verified`` is False: what exactly fails.
        kind: The evidence kind (``"W"`` unless the witness serves another kind).

    >>> witness_evidence("K = 3 attains the sup", True).summary
    'witness verified exactly: K = 3 attains the sup'
    """
    kind = _check_kind(kind)
    rendered = exact_values(values)
    if verified is True:
        return Evidence(
            kind, True, f"witness verified exactly: {description}", rendered, label=description
        )
    if verified is False:
        return Evidence(
            kind,
            False,
            f"witness fails: {description}",
            rendered,
            counterexample=counterexample,
            label=description,
        )
    if verified is None:
        return Evidence(
            kind, None, f"witness could not be verified: {description}", rendered, label=description
        )
    raise InvalidArgument(f"verified={verified!r} must be True, False or None.")


def sharpness_evidence(
    bound: str,
    *,
    attained: bool,
    on: str,
    sharpest: str | None = None,
    values: Mapping[str, object] | None = None,
    kind: Kind = "W",
) -> Evidence:
    """A finding: whether an inequality's bound is attained, and its sharpest exact form.

    Every inequality claim says whether its bound is sharp on its instances; where it is
    not, ``sharpest`` states the sharpest statement the check establishes exactly (as for
    Vadhan's Prop 2: ``e^ε' = ((1+ε)/(1-ε))²``).  The report lists it under "Findings".

    Args:
        bound: The bound in words, e.g. ``"δ_PPK <= Σ_b P[B=b] δ_A(b)"``.
        attained: True when some instance attains the bound exactly (sharp).
        on: Which instances were examined, e.g. ``"the 200 random instances of seed 0"``.
        sharpest: When not attained, the sharpest exact statement established instead.
        values: Exact values supporting it (the attaining instance's values, say).
        kind: The evidence kind that established it (``"W"`` for an explicit instance).

    >>> sharpness_evidence("k·e^{(k-1)ε}δ", attained=False, on="3 instances",
    ...                    sharpest="Σ_{j<k} e^{jε}δ").summary
    'sharpness: k·e^{(k-1)ε}δ is not attained on 3 instances; sharpest exact form: Σ_{j<k} e^{jε}δ'
    """
    kind = _check_kind(kind)
    if attained:
        text = f"sharpness: {bound} is attained exactly on {on}"
    else:
        text = f"sharpness: {bound} is not attained on {on}"
        if sharpest:
            text += f"; sharpest exact form: {sharpest}"
    return Evidence(
        kind, True, text, exact_values(values), label=f"sharpness {bound}", finding=True
    )


def certified_evidence(
    statement: str,
    digits: int | None,
    *,
    holds: bool | None = True,
    values: Mapping[str, object] | None = None,
    counterexample: str | None = None,
) -> Evidence:
    """Evidence for an inequality between transcendental numbers, decided by intervals.

    Args:
        statement: The inequality, e.g. ``"l(X->1) <= 0.36 for n = 200, p = 3/10"``.
        digits: Decimal digits to which the enclosure was certified; ``None`` if the
            certification gave up (the evidence is then undecided).
        holds: True if the enclosure proves the statement, False if it proves the
            opposite (``counterexample`` required), None if undecided.
        values: Exact values involved.
        counterexample: Required when ``holds`` is False.

    >>> certified_evidence("e > 2", 30).summary
    'certified to 30 digits: e > 2'
    """
    rendered = exact_values(values)
    if digits is not None and (
        isinstance(digits, bool) or not isinstance(digits, int) or digits < 1
    ):
        raise InvalidArgument(f"digits={digits!r} must be a positive integer or None.")
    if holds is None or digits is None:
        return Evidence("C", None, f"could not certify: {statement}", rendered, label=statement)
    if holds is True:
        return Evidence(
            "C", True, f"certified to {digits} digits: {statement}", rendered, label=statement
        )
    if holds is False:
        return Evidence(
            "C",
            False,
            f"certified false (to {digits} digits): {statement}",
            rendered,
            counterexample=counterexample,
            label=statement,
        )
    raise InvalidArgument(f"holds={holds!r} must be True, False or None.")


def not_checkable(reason: str, *, kind: Kind | None = None) -> Evidence:
    """A note that (a part of) a claim cannot be checked, and why.

    The claim's verdict is then NOT_CHECKABLE (never PASSED).

    >>> not_checkable("statement lost in extraction").summary
    'not checkable: statement lost in extraction'
    """
    if kind is not None:
        kind = _check_kind(kind)
    return Evidence(kind, None, f"not checkable: {reason}", checkable=False, label=reason)


def proof_evidence(
    part: str,
    lhs: object,
    rhs: object,
    variables: Mapping[Any, object],
    *,
    domain_text: str | None = None,
    **options: Any,
) -> Evidence:
    """Evidence from a proof over a whole domain: ``lhs <= rhs`` at every point.

    Runs :func:`proofs_check.prover.prove_inequality` (``options`` are its keyword options:
    ``assuming``, ``integers``, ``strict``, ``timeout``, ``engine``, ...) and returns kind-C
    evidence carrying the :class:`~proofs_check.record.ProofRecord`:

    * ``proved``: passed, and the claim can be PROVED on this part;
    * ``refuted``: failed, with the exact counterexample and both sides' values there;
    * ``unknown``: passed (nothing failed) with the reason in the summary -- never a proof;
      the claim keeps the verdict of its other evidence.

    Args:
        part: The statement in the claim's words, e.g. ``"x**2 <= x"``.
        lhs: A sympy expression; floats are refused.
        rhs: Likewise.
        variables: ``{symbol: sympy.Interval}`` for every free symbol.
        domain_text: The domain as the report should print it (default: the prover's text,
            e.g. ``"every x in [0, 1]"``).

    >>> import sympy
    >>> x = sympy.Symbol("x")
    >>> evidence = proof_evidence("x**2 <= x", x**2, x, {x: sympy.Interval(0, 1)})
    >>> evidence.passed, evidence.proof.status, evidence.proof.domain
    (True, 'proved', 'every x in [0, 1]')
    >>> proof_evidence("x**2 <= x", x**2, x, {x: sympy.Interval(0, 2)}).counterexample
    'x = 3/2: lhs = 9/4 > rhs = 3/2'
    """
    if not isinstance(part, str) or not part.strip():
        raise InvalidArgument("part must be a non-empty string naming the statement")
    if domain_text is not None and (not isinstance(domain_text, str) or not domain_text.strip()):
        raise InvalidArgument("domain_text must be a non-empty string or None")
    result = prove_inequality(lhs, rhs, variables, **options)
    record = result.record(part, domain=domain_text)
    where = record.domain
    label = f"proof: {part}"
    if result.status == "proved":
        return Evidence(
            "C", True, f"proved for {where}: {part} ({result.engine})", label=label, proof=record
        )
    if result.status == "refuted":
        point = result.counterexample or {}
        values = {str(symbol): value for symbol, value in point.items()}
        return Evidence(
            "C",
            False,
            f"refuted for {where}: {part} ({result.engine})",
            exact_values(values),
            counterexample=_counterexample_text(lhs, rhs, point, result.counterexample_text(),
                                                strict=bool(options.get("strict", False))),
            label=label,
            proof=record,
        )
    return Evidence(
        "C",
        True,
        f"not proved (unknown) for {where}: {part} ({result.engine}: {result.detail})",
        label=label,
        proof=record,
    )


def searched_proof_evidence(
    search: CheckContext | None,
    part: str,
    lhs: object,
    rhs: object,
    variables: Mapping[Any, object],
    **options: Any,
) -> list[Evidence]:
    """:func:`proof_evidence` and, with ``search`` (the check's context), the same statement
    searched at exact points of its domain (:func:`domain_search_evidence`, kind P): a false
    statement is then also *found* by search, not only refuted by an engine.  The search is
    left out after a proof (every point is certified), except in a search-alone run
    (:func:`~proofs_check.domain_search.search_wanted`).

    >>> import sympy
    >>> from proofs_check.context import CheckContext
    >>> x = sympy.Symbol("x")
    >>> ctx = CheckContext("mylab.square", examples=20)
    >>> proof, search = searched_proof_evidence(ctx, "x**2 <= x", x**2, x,
    ...                                         {x: sympy.Interval(0, 2)})
    >>> proof.proof.status, search.kind, search.passed, search.stats.found_by
    ('refuted', 'P', False, 'small-scope')
    """
    evidence = [proof_evidence(part, lhs, rhs, variables, **options)]
    if search is not None and search_wanted(search, evidence[0]):
        evidence.append(domain_search_evidence(search, part, lhs, rhs, variables, **options))
    return evidence


def strengthening_evidence(
    name: str,
    statement: str,
    lhs: object,
    rhs: object,
    variables: Mapping[Any, object],
    *,
    domain_text: str | None = None,
    **options: Any,
) -> Evidence:
    """A strengthening of an inequality claim, run through the proof engines.

    A strengthening is the claim made *stronger* (a non-negative term dropped, a constant
    shrunk, ``<=`` made strict, a hypothesis dropped), declared with
    ``@check(..., strengthenings={name: description})``.  :func:`prove_inequality` decides
    "``lhs <= rhs`` (or ``<`` with ``strict=True``) at every point of the domain":

    * refuted: the bound is **sharp** there; the exact witness is where the stronger
      statement fails;
    * proved: a **finding**, "not sharp: the stronger statement holds" over the domain;
    * unknown: **open**, reported as such and never as a finding.

    The evidence is informational (``passed=True`` whatever it shows; kind C, never counted
    as evidence of a kind the claim lists).

    Args:
        name: The declared strengthening's name.
        statement: The stronger statement in words.
        lhs: A sympy expression (floats refused).
        rhs: Likewise.
        variables: ``{symbol: sympy.Interval}`` for every free symbol.
        domain_text: The domain as the report should print it (default: the prover's).
        options: :func:`prove_inequality`'s keyword options (``assuming``, ``integers``,
            ``strict``, ``timeout``, ...).

    >>> import sympy
    >>> x = sympy.Symbol("x")
    >>> unit = {x: sympy.Interval(0, 1)}
    >>> sharp = strengthening_evidence("strict", "x**2 < x", x**2, x, unit, strict=True)
    >>> sharp.strengthening.status, sharp.strengthening.witness, sharp.finding
    ('sharp', 'x = 0', False)
    >>> found = strengthening_evidence("cube", "x**3 <= x**2", x**3, x**2, unit)
    >>> found.strengthening.status, found.finding
    ('not sharp', True)
    """
    if not isinstance(name, str) or not name.strip():
        raise InvalidArgument("name must be the declared strengthening's name")
    if not isinstance(statement, str) or not statement.strip():
        raise InvalidArgument("statement must say the stronger statement in words")
    if domain_text is not None and (not isinstance(domain_text, str) or not domain_text.strip()):
        raise InvalidArgument("domain_text must be a non-empty string or None")
    result = prove_inequality(lhs, rhs, variables, **options)
    where = domain_text or result.domain
    label = f"strengthening {name}"
    if result.status == "refuted":
        witness = result.counterexample_text()
        record = StrengtheningRecord(
            name, statement, "sharp", where, result.engine, witness=witness, detail=result.detail
        )
        summary = record.sharp_summary()
        point = result.counterexample or {}
        values = exact_values({str(symbol): value for symbol, value in point.items()})
        return Evidence("C", True, summary, values, label=label, strengthening=record)
    if result.status == "proved":
        record = StrengtheningRecord(
            name, statement, "not sharp", where, result.engine, detail=result.detail
        )
        summary = (
            f"not sharp: the stronger statement {statement} holds for {where} "
            f"(strengthening {name}, proved by {result.engine})"
        )
        return Evidence("C", True, summary, label=label, finding=True, strengthening=record)
    record = StrengtheningRecord(
        name, statement, "open", where, result.engine, detail=result.detail
    )
    summary = (
        f"strengthening {name} ({statement}) is open for {where}: neither proved nor refuted "
        f"({result.engine}: {result.detail})"
    )
    return Evidence("C", True, summary, label=label, strengthening=record)


def _counterexample_text(
    lhs: object, rhs: object, point: Mapping[Any, object], where: str, *, strict: bool
) -> str:
    """``"x = 3/2: lhs = 9/4 > rhs = 3/2"``: the point and both sides there, exactly."""
    mapping = {symbol: to_sympy(value) for symbol, value in point.items()}
    sides = []
    for side in (lhs, rhs):
        expr = side if isinstance(side, sympy.Basic) else to_sympy(side)
        sides.append(exact_text(expr.xreplace(mapping), name="side"))
    relation = ">=" if strict else ">"
    return f"{where}: lhs = {sides[0]} {relation} rhs = {sides[1]}"
