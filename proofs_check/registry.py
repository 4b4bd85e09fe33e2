"""The registry: which check function checks which claim, and with which mutants.

A check is attached to a catalog id with the :func:`check` decorator::

    @check("pml.thm_3_5", mutants={"constant_shifted": "H(U) - l(X->y) + 1/10"})
    def thm_3_5(ctx: CheckContext) -> list[Evidence]: ...

Every check declares at least one mutant (the statement made slightly false), which the
test suite runs and requires to fail.  A claim that is not in the catalog (a user's own
lemma) is registered the same way, with its source, result, statement and kinds given
explicitly.  The decorator returns the function unchanged, so worker processes find it
again by its module and qualified name.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from exactpml.errors import InvalidArgument
from proofs_check.catalog import (
    CLAIMS,
    KINDS,
    NOT_CHECKABLE,
    Claim,
    Kind,
    ListedItem,
    Source,
    catalog_claim,
    listed_item,
)
from proofs_check.context import CheckContext
from proofs_check.record import Evidence

__all__ = [
    "CheckFunction",
    "RegisteredCheck",
    "Registry",
    "check",
    "default_registry",
    "load_claim_modules",
]

CheckFunction = Callable[[CheckContext], Sequence[Evidence]]
"""A check: takes the context, returns its evidence."""

_ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$")
_MUTANT = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class RegisteredCheck:
    """A check attached to a claim.

    Attributes:
        claim: The claim it checks.
        function: The check function.
        mutants: ``(name, description)`` pairs, in declaration order (at least one).
        known_false: If the source's statement is false as written, why (the check then
            FAILS un-mutated with a counterexample, and the tests expect that); else
            ``None``.
        strengthenings: ``(name, description)`` pairs: the claim made *stronger* (a
            non-negative term dropped, a constant shrunk, ``<=`` made strict, a hypothesis
            dropped).  The check runs each through a proof engine
            (:func:`proofs_check.strengthening_evidence`): refuted means the bound is sharp
            there (with the witness), proved is a finding ("not sharp: the stronger
            statement holds").
    """

    claim: Claim
    function: CheckFunction
    mutants: tuple[tuple[str, str], ...]
    known_false: str | None = None
    strengthenings: tuple[tuple[str, str], ...] = ()

    @property
    def mutant_names(self) -> tuple[str, ...]:
        """The names of the declared mutants."""
        return tuple(name for name, _ in self.mutants)

    @property
    def target(self) -> str:
        """``"module:qualname"`` under which a worker process imports the function."""
        return f"{self.function.__module__}:{self.function.__qualname__}"

    @property
    def importable(self) -> bool:
        """Whether a worker process can import the function by :attr:`target`."""
        return "<locals>" not in self.function.__qualname__ and "<lambda>" not in (
            self.function.__qualname__
        )


def _kinds(kinds: str | Iterable[str]) -> tuple[Kind, ...]:
    letters: list[str]
    if isinstance(kinds, str):
        if "," in kinds:
            letters = [kind.strip() for kind in kinds.split(",")]
        else:
            letters = list(kinds.replace(" ", ""))
    else:
        letters = list(kinds)
    result: list[Kind] = []
    for letter in letters:
        matched = next((kind for kind in KINDS if kind == letter), None)
        if matched is None:
            raise InvalidArgument(f"kind {letter!r} must be one of {', '.join(KINDS)}.")
        if matched in result:
            raise InvalidArgument(f"kind {letter!r} is listed twice.")
        result.append(matched)
    if not result:
        raise InvalidArgument("kinds must list at least one of E, P, L, W, C.")
    return tuple(result)


def _strengthenings(
    claim_id: str, strengthenings: Mapping[str, str] | None, mutants: Mapping[str, str]
) -> tuple[tuple[str, str], ...]:
    if strengthenings is None:
        return ()
    if not isinstance(strengthenings, Mapping):
        raise InvalidArgument(
            f"strengthenings of {claim_id!r} must be a mapping {{name: description}}."
        )
    pairs = _named(claim_id, strengthenings, "strengthening")
    clash = sorted(set(strengthenings) & set(mutants))
    if clash:
        raise InvalidArgument(
            f"{claim_id!r}: {', '.join(clash)} is both a mutant and a strengthening; a mutant "
            "is false (it must FAIL), a strengthening is an open question (sharp or not)."
        )
    return pairs


def _named(claim_id: str, items: Mapping[str, str], what: str) -> tuple[tuple[str, str], ...]:
    pairs: list[tuple[str, str]] = []
    for name, description in items.items():
        if not isinstance(name, str) or not _MUTANT.match(name):
            raise InvalidArgument(
                f"{what} name {name!r} of {claim_id!r} must be lowercase letters, digits and "
                "underscores, starting with a letter."
            )
        if not isinstance(description, str) or not description.strip():
            raise InvalidArgument(f"{what} {name!r} of {claim_id!r} needs a description.")
        pairs.append((name, description))
    return tuple(pairs)


def _mutants(claim_id: str, mutants: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    if not isinstance(mutants, Mapping) or not mutants:
        raise InvalidArgument(
            f"check {claim_id!r} must declare at least one mutant, e.g. "
            "mutants={'constant_shifted': 'the bound plus 1/10'}: a check that cannot fail "
            "is a defect."
        )
    return _named(claim_id, mutants, "mutant")


class Registry:
    """Claims and the checks attached to them.

    The default registry (:data:`default_registry`) knows every catalog claim, checked or
    not; a registry created in a test knows only what is registered in it, unless
    ``include_catalog=True``.
    """

    def __init__(self, *, include_catalog: bool = False) -> None:
        self.include_catalog = include_catalog
        self._checks: dict[str, RegisteredCheck] = {}
        self._user_claims: dict[str, Claim] = {}

    def __repr__(self) -> str:
        return (
            f"Registry(include_catalog={self.include_catalog}, checks={len(self._checks)}, "
            f"user_claims={len(self._user_claims)})"
        )

    def __contains__(self, claim_id: object) -> bool:
        return claim_id in self._checks

    def __len__(self) -> int:
        return len(self._checks)

    def get(self, claim_id: str) -> RegisteredCheck | None:
        """The check registered for ``claim_id``, or ``None``."""
        return self._checks.get(claim_id)

    def checks(self) -> tuple[RegisteredCheck, ...]:
        """Every registered check, catalog claims first (in catalog order), then the others."""
        return tuple(self._checks[claim.id] for claim in self.claims() if claim.id in self._checks)

    def claims(self) -> tuple[Claim, ...]:
        """Every claim this registry can report on: the catalog's (if included) and users'."""
        catalog = (
            CLAIMS
            if self.include_catalog
            else tuple(claim for claim in CLAIMS if claim.id in self._checks)
        )
        return catalog + tuple(self._user_claims.values())

    def claim(self, claim_id: str) -> Claim | None:
        """The claim with this id, if this registry knows it."""
        for claim in self.claims():
            if claim.id == claim_id:
                return claim
        return None

    def listed(self) -> tuple[ListedItem, ...]:
        """The catalog's listed-but-not-checkable items (empty unless the catalog is included)."""
        return NOT_CHECKABLE if self.include_catalog else ()

    def register(
        self,
        claim: Claim,
        function: CheckFunction,
        mutants: Mapping[str, str],
        *,
        known_false: str | None = None,
        strengthenings: Mapping[str, str] | None = None,
    ) -> RegisteredCheck:
        """Attach ``function`` to ``claim``; raise InvalidArgument on any inconsistency."""
        if known_false is not None and (
            not isinstance(known_false, str) or not known_false.strip()
        ):
            raise InvalidArgument(f"known_false of {claim.id!r} must say why the source is false.")
        if not callable(function):
            raise InvalidArgument(f"the check of {claim.id!r} must be callable.")
        if claim.id in self._checks:
            existing = self._checks[claim.id].target
            raise InvalidArgument(f"claim {claim.id!r} already has a check ({existing}).")
        registered = RegisteredCheck(
            claim,
            function,
            _mutants(claim.id, mutants),
            known_false,
            _strengthenings(claim.id, strengthenings, mutants),
        )
        if catalog_claim(claim.id) is None:
            self._user_claims[claim.id] = claim
        self._checks[claim.id] = registered
        return registered

    def check(
        self,
        claim_id: str,
        *,
        mutants: Mapping[str, str],
        source: str | Source | None = None,
        result: str | None = None,
        statement: str | None = None,
        kinds: str | Iterable[str] | None = None,
        known_false: str | None = None,
        strengthenings: Mapping[str, str] | None = None,
    ) -> Callable[[CheckFunction], CheckFunction]:
        """Decorator attaching a check to ``claim_id``; see :func:`check`."""
        claim = _claim_for(claim_id, source=source, result=result, statement=statement, kinds=kinds)

        def decorate(function: CheckFunction) -> CheckFunction:
            self.register(
                claim, function, mutants, known_false=known_false, strengthenings=strengthenings
            )
            return function

        return decorate


def _claim_for(
    claim_id: str,
    *,
    source: str | Source | None,
    result: str | None,
    statement: str | None,
    kinds: str | Iterable[str] | None,
) -> Claim:
    if not isinstance(claim_id, str) or not _ID.match(claim_id):
        raise InvalidArgument(
            f"claim id {claim_id!r} must look like 'prefix.name' (letters, digits, "
            "underscores, dots)."
        )
    explicit = {"source": source, "result": result, "statement": statement, "kinds": kinds}
    known = catalog_claim(claim_id)
    if known is not None:
        given = [name for name, value in explicit.items() if value is not None]
        if given:
            raise InvalidArgument(
                f"claim {claim_id!r} is in the catalog; do not pass {', '.join(given)} (the "
                "catalog's statement is used)."
            )
        return known
    if listed_item(claim_id) is not None:
        raise InvalidArgument(f"claim {claim_id!r} is listed as not checkable in the catalog.")
    missing = [name for name, value in explicit.items() if value is None]
    if missing:
        raise InvalidArgument(
            f"claim {claim_id!r} is not in the catalog; give {', '.join(missing)} explicitly."
        )
    assert source is not None and result is not None and statement is not None
    assert kinds is not None
    if not statement.strip() or not result.strip():
        raise InvalidArgument(f"claim {claim_id!r} needs a non-empty result and statement.")
    if isinstance(source, str):
        source = Source(prefix=claim_id.split(".")[0], file=source, title=source)
    return Claim(claim_id, source, result, statement, _kinds(kinds))


default_registry = Registry(include_catalog=True)
"""The registry that ``python -m proofs_check`` runs: every catalog claim, checked or not."""


def check(
    claim_id: str,
    *,
    mutants: Mapping[str, str],
    source: str | Source | None = None,
    result: str | None = None,
    statement: str | None = None,
    kinds: str | Iterable[str] | None = None,
    known_false: str | None = None,
    strengthenings: Mapping[str, str] | None = None,
    registry: Registry | None = None,
) -> Callable[[CheckFunction], CheckFunction]:
    """Decorator attaching a check function to a claim.

    Args:
        claim_id: A catalog id (``"pml.thm_3_5"``) or a new id of the user's own claim
            (``"mylab.lemma_1"``).
        mutants: ``{name: description}`` of at least one mutant: the statement made
            slightly false; the check switches on ``ctx.mutant == name``.
        source: For a claim not in the catalog: the source document (title or file).
        result: For a claim not in the catalog: its number, e.g. ``"Lemma 1"``.
        statement: For a claim not in the catalog: the statement in words.
        kinds: For a claim not in the catalog: the kinds of evidence, e.g. ``"PE"``.
        known_false: Only when the source's statement is false as written: why.  The
            check then reports FAILED with the counterexample (never hidden), and the test
            suite expects FAILED rather than PASSED for it.
        strengthenings: For an inequality claim, ``{name: description}`` of stronger
            statements (a term dropped, a constant shrunk, ``<=`` made strict, a hypothesis
            dropped) that the check runs through a proof engine with
            :func:`proofs_check.strengthening_evidence`: sharp where refuted, a finding
            where proved.
        registry: Where to register (default: :data:`default_registry`).

    Returns:
        A decorator that registers the function and returns it unchanged.

    Raises:
        InvalidArgument: no mutant declared, an id registered twice, explicit fields for
            a catalog claim, or missing fields for a claim outside the catalog.
    """
    target = default_registry if registry is None else registry
    return target.check(
        claim_id,
        mutants=mutants,
        source=source,
        result=result,
        statement=statement,
        kinds=kinds,
        known_false=known_false,
        strengthenings=strengthenings,
    )


def load_claim_modules(package: str = "proofs_check.claims") -> tuple[str, ...]:
    """Import every module of ``package`` (registering their checks); return their names."""
    root = importlib.import_module(package)
    names: list[str] = []
    for info in pkgutil.walk_packages(getattr(root, "__path__", []), prefix=f"{package}."):
        try:
            importlib.import_module(info.name)
        except InvalidArgument as exc:
            raise InvalidArgument(f"{info.name}: {exc}") from exc
        except ImportError as exc:
            raise ImportError(f"{info.name}: {exc}") from exc
        names.append(info.name)
    return tuple(names)
