"""Property evidence (kind P): the search engine behind a claim's inequality.

:func:`property_holds` decides ``holds(instance)`` on exact instances in two phases:

1. **Small scope**: every instance of an exhaustive enumeration of small exact objects (see
   :mod:`proofs_check.small_scope`: every kernel on two or three letters with entries on
   the grid 1/2, 1/3, 1/4, ...), smallest first.  Given as ``small_scope=``, or inferred
   from the strategy when it is built from :mod:`exactpml.strategies`
   (:func:`proofs_check.small_scope.infer`; ``small_scope=False`` opts out).  At most
   :data:`~proofs_check.context.SMALL_SCOPE_BUDGET` instances for the profile (an inferred
   scope at most :data:`INFERRED_SCOPE_FACTOR` per random instance asked for).  A
   counterexample found here is the first in the enumeration order, so minimal by
   construction.  The phase does not depend on the seed, and runs in the first shard only.
2. **Random instances**: ``ctx.examples`` instances drawn from a Hypothesis strategy,
   deterministically from ``ctx.seed``: same seed and options, same instances, same
   report.  The first :data:`SINGLE_INSTANCE_TEST_CASES` (100) are one per Hypothesis test
   case, the rest :data:`INSTANCES_PER_TEST_CASE` (4; 8 from 1 000 remaining) per test case,
   every one checked and counted (Hypothesis' per-test-case work shared).  ``margin=``
   guides the search towards violations (``hypothesis.target``); a counterexample is shrunk
   by Hypothesis.

Verdicts are exact whatever the phase: ``holds`` says True, False or None (undecided);
the margin, even a float, only steers which instances are tried.  ``hypothesis.assume``
(or ``reject()``) inside ``holds`` skips an instance in either phase; when every instance
is skipped the evidence is undecided, never passed.  The summary says how many instances
each phase tried, how much of the small scope that covered ("covered 2,000 of 672,560
(0.2%)"), why a property had no small scope when it could not be inferred, and, for a
failure, which phase found the counterexample and where.  Deadlines and health checks are
off (exact arithmetic is slow by nature and must not make a check flaky), and no example
database is read or written.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Iterator, Sized
from contextlib import contextmanager
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from exactpml.errors import InvalidArgument, Undecided
from proofs_check.context import SMALL_SCOPE_BUDGET, CheckContext, validate_examples
from proofs_check.exactness import exact_repr, three_valued
from proofs_check.record import Evidence, PropertyStats, ScopeStats
from proofs_check.small_scope import Layer, SmallScope, infer

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = [
    "INFERRED_SCOPE_FACTOR",
    "INFER_FOR_CATALOG_CLAIMS",
    "MARGIN_LABEL",
    "PropertyError",
    "property_holds",
    "property_summary",
]

T = TypeVar("T")

MARGIN_LABEL = "margin"
"""The ``hypothesis.target`` label under which the negated margin is maximised."""

INFERRED_SCOPE_FACTOR = 10
"""An inferred small scope checks at most this many instances per random instance asked for
(quick 500, default 2 000, thorough 20 000 at the profiles' examples; fewer for a property
that asks for fewer examples), and never more than ``SMALL_SCOPE_BUDGET``: what the user did
not ask for must not dominate a run's time."""

INFER_FOR_CATALOG_CLAIMS = False
"""Whether the checks of the catalog's claims (``CLAIMS.md``: ``pml.``, ``vadhan.``, ``pk.``,
``bldp.``) also get inferred small scopes.  Off: the built-in checks choose their evidence
and its cost explicitly (``small_scope=``), so the main job's reports and times do not
change with inference; measured on, the seven built-in properties whose strategies can be
enumerated (pml.def_2_6, cor_3_10, prop_3_8, thm_4_2, thm_4_5, bldp.definition,
leak_release) made the --quick run's total check time 2.6 times as long (issue 24)."""


SINGLE_INSTANCE_TEST_CASES = 100
"""The first random instances are drawn one per Hypothesis test case (every ``--quick``
property, and any that asks for at most this many): Hypothesis never repeats a test case, so
a strategy with fewer distinct draws runs out here, and the report says so ("the strategy
ran out of distinct instances")."""

INSTANCES_PER_TEST_CASE = 4
"""Beyond :data:`SINGLE_INSTANCE_TEST_CASES`, the remaining instances are drawn this many per
Hypothesis test case (a tuple of independent draws from the same strategy), every one
checked; :data:`LARGE_BATCH` per test case when :data:`LARGE_BATCH_FROM` or more remain
(``--thorough``).  Hypothesis' own work per test case (a new choice sequence, the tree of
choices made, the mutations it tries, seeding the PRNGs) was about a third of a
``--thorough`` run; batching shares it (measured, 2 workers, paired runs on the same loaded
host: thorough 163 -> 119 s with 4 per test case, a further ~5% with 8; default 22-24 -> 20-21
s).  A counterexample is shrunk as part of its tuple: the other instances shrink to the
simplest ones, and the failing one is reported."""

LARGE_BATCH = 8
LARGE_BATCH_FROM = 1000


def instances_per_test_case(remaining: int) -> int:
    """How many instances each test case of the batched stage draws, for ``remaining``."""
    return LARGE_BATCH if remaining >= LARGE_BATCH_FROM else INSTANCES_PER_TEST_CASE


GIVEN_INSTANCES = "the given instances"
"""The description of a small scope given as a list of instances (not an enumerator): a
search-alone run (``CheckContext.search_only``) leaves it out.  A
:class:`~proofs_check.small_scope.SmallScope` instead enumerates a domain, and counts as
search only where that is the statement's own: its parameters (a theorem's (ε, δ), a
family's sizes), or for a worked example the parameter range it states (its own value one
point of it); its description says which (see :mod:`proofs_check.search_power`)."""


def _is_catalog_claim(ctx: CheckContext) -> bool:
    from proofs_check.catalog import catalog_claim

    return catalog_claim(ctx.claim_id) is not None


class PropertyError(Exception):
    """``holds`` (or ``margin``) raised an exception (other than Undecided) on some instance."""


class _Falsified(Exception):
    """Raised inside the Hypothesis test when ``holds`` returns False."""


class _HoldsRaised(Exception):
    """Raised inside the Hypothesis test when ``holds`` or ``margin`` raises."""


_PIN_LOCK = threading.Lock()
_pin_depth = 0
_saved_get_local_constants: Any = None


@contextmanager
def _without_local_constants() -> Iterator[None]:
    """Make generation independent of which local modules happen to be imported.

    Hypothesis mixes literal constants from every imported local module into its
    choices, so the same seed could give different instances in a worker process than in
    the main process.  While a property runs, the pool of local constants is pinned to be
    empty (through Hypothesis internals; if they change, this degrades to a no-op).
    """
    global _pin_depth, _saved_get_local_constants
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants

        cache = providers.CONSTANTS_CACHE.cache
        original = providers._get_local_constants
    except (ImportError, AttributeError):  # pragma: no cover - other Hypothesis versions
        yield
        return
    with _PIN_LOCK:
        if _pin_depth == 0:
            empty = Constants()
            _saved_get_local_constants = original
            providers._get_local_constants = lambda: empty
            cache.clear()
        _pin_depth += 1
    try:
        yield
    finally:
        with _PIN_LOCK:
            _pin_depth -= 1
            if _pin_depth == 0:
                providers._get_local_constants = _saved_get_local_constants
                cache.clear()


# --- summaries --------------------------------------------------------------------------------


def _seed_text(stats: PropertyStats) -> str:
    if stats.seeds == 1:
        return f"seed {stats.seed}"
    return f"seeds {stats.seed}–{stats.seed + stats.seeds - 1}"


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _scope_phrase(scope: ScopeStats) -> str:
    """E.g. "336 small-scope instances (kernels ...: all 336)", or with a budget
    "2000 small-scope instances (...: covered 2,000 of 11,556 (17.3%), the budget)"."""
    if scope.undecided:
        head = (
            f"{scope.tried - scope.undecided} of {scope.tried} small-scope instances, "
            f"undecided on {scope.undecided}"
        )
    else:
        head = _count(scope.tried, "small-scope instance")
    steps = scope.enumerated + scope.filtered
    covered = scope.coverage
    through = f" through {steps:,} representatives" if covered != steps else ""
    if scope.complete:
        extent = f"all {scope.enumerated}" if not through else f"all {covered:,}{through}"
    elif scope.size is not None:
        extent = (
            f"covered {covered:,} of {scope.size:,} ({coverage_percent(covered, scope.size)})"
            f"{through}, the budget"
        )
    else:
        extent = f"covered {covered:,} (of an unknown number){through}, the budget"
    outside = f", {scope.filtered} outside the strategy's domain" if scope.filtered else ""
    skipped = f", {scope.skipped} skipped by assume" if scope.skipped else ""
    return f"{head} ({scope.description}: {extent}{outside}{skipped})"


def coverage_percent(covered: int, size: int) -> str:
    """``covered / size`` as a percentage rounded down to 0.1% (never overstated).

    >>> coverage_percent(2000, 672560), coverage_percent(1, 10**6), coverage_percent(5, 5)
    ('0.2%', '<0.1%', '100%')
    """
    if covered >= size:
        return "100%"
    tenths = covered * 1000 // size
    if tenths == 0:
        return "<0.1%"
    return f"{tenths // 10}.{tenths % 10}%"


def _random_phrase(stats: PropertyStats) -> str:
    """E.g. "200 random exact instances (seed 0)"."""
    seeds = _seed_text(stats)
    instances = "instance" if stats.tried == 1 else "instances"
    note = ""
    if stats.skipped:
        note = f"; {stats.skipped} skipped by assume"
    elif stats.tried < stats.requested:
        note = f"; the strategy ran out of distinct instances before {stats.requested}"
    if stats.undecided:
        return (
            f"{stats.tried - stats.undecided} of {stats.tried} random exact {instances}, "
            f"undecided on {stats.undecided} ({seeds}{note})"
        )
    return f"{stats.tried} random exact {instances} ({seeds}{note})"


def property_summary(describe: str, passed: bool | None, stats: PropertyStats) -> str:
    """The summary line of property evidence: what each phase tried, and who found a failure.

    >>> property_summary("x*x >= 0", True, PropertyStats(200, 200, 0, 0))
    'x*x >= 0: held on 200 random exact instances (seed 0)'
    >>> scope = ScopeStats("integers 0..9", 10, 0, 0, 10, 2000, True)
    >>> print(property_summary("x*x >= 0", True, PropertyStats(50, 50, 0, 0, scope=scope)))
    x*x >= 0: held on 10 small-scope instances (integers 0..9: all 10) and on 50 random exact
    instances (seed 0)
    >>> failed = PropertyStats(3, 200, 0, 5, found_by="hypothesis")
    >>> print(property_summary("x*x > 0", False, failed))
    x*x > 0: failed; found by Hypothesis on random exact instance 4 (seed 5), shrunk to a minimal
    counterexample
    """
    scope = stats.scope
    if passed is False:
        if stats.found_by == "small-scope":
            return (
                f"{describe}: failed; found by small-scope enumeration: {stats.found_at}, the "
                "first counterexample in the enumeration order (smallest first)"
            )
        where = stats.found_at or f"random exact instance {stats.tried + 1} ({_seed_text(stats)})"
        held = f", after {_scope_phrase(scope)} held" if scope is not None else ""
        return (
            f"{describe}: failed; found by Hypothesis on {where}{held}, shrunk to a minimal "
            "counterexample"
        )
    if stats.tried == 0 and (scope is None or scope.tried == 0):
        parts = []
        if scope is not None:
            parts.append(f"{_count(scope.skipped, 'small-scope instance')} skipped by assume")
        if stats.skipped:
            parts.append(f"{_count(stats.skipped, 'random instance')} skipped by assume")
        else:
            parts.append("no random instance could be generated")
        return f"{describe}: no instance was decided: {', '.join(parts)} ({_seed_text(stats)})"
    if scope is None:
        note = f"; no small scope: {stats.scope_note}" if stats.scope_note else ""
        return f"{describe}: held on {_random_phrase(stats)}{note}"
    return f"{describe}: held on {_scope_phrase(scope)} and on {_random_phrase(stats)}"


# --- the small-scope phase --------------------------------------------------------------------


def _as_scope(small_scope: object) -> SmallScope[Any]:
    """A :class:`SmallScope` from a scope, an iterable, or a zero-argument callable of either."""
    value = small_scope
    if not isinstance(value, SmallScope | Iterable) and callable(value):
        value = value()
    if isinstance(value, SmallScope):
        return value
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise InvalidArgument(
            f"small_scope={small_scope!r} must be an iterable of instances (a SmallScope from "
            "proofs_check.small_scope, a list, ...) or a function of no argument returning one."
        )
    items = value
    size = len(items) if isinstance(items, Sized) else None
    return SmallScope(GIVEN_INSTANCES, [Layer(GIVEN_INSTANCES, size, lambda: items)])


@dataclass(slots=True)
class _ScopeRun:
    tried: int = 0
    skipped: int = 0
    undecided: int = 0
    filtered: int = 0
    covered: int = 0
    complete: bool = False
    failure: tuple[str, Any] | None = None
    error: tuple[str, Any, BaseException, str] | None = None


def _run_small_scope(
    scope: SmallScope[Any], holds: Callable[[Any], bool | None], budget: int
) -> _ScopeRun:
    """Decide ``holds`` on the first ``budget`` steps of ``scope``, in order.

    A step outside the strategy's domain (a filter rejects it) is walked over and counted;
    a representative of a relabelling orbit covers its whole orbit.  The loop runs inside
    one Hypothesis test case, so that ``assume`` and ``reject`` inside ``holds`` behave as
    in the random phase (they skip the instance).
    """
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import strategies as st
    from hypothesis.errors import UnsatisfiedAssumption

    runs: list[_ScopeRun] = []

    def body(_: None) -> None:
        run = _ScopeRun()
        runs.append(run)
        index = 0
        for layer in scope.layers:
            steps = layer.walk()
            while True:
                try:
                    step = next(steps)
                except StopIteration:
                    break
                except Exception as exc:
                    run.error = (_where(scope, layer, index, 1), None, exc, "building the instance")
                    return
                if index == budget:
                    return
                index += 1
                run.covered += step.weight
                if not step.inside:
                    run.filtered += 1
                    continue
                try:
                    verdict = three_valued(holds(step.instance), name="holds")
                except Undecided:
                    verdict = None
                except UnsatisfiedAssumption:
                    run.skipped += 1
                    continue
                except Exception as exc:
                    where = _where(scope, layer, index - 1, step.weight)
                    run.error = (where, step.instance, exc, "holds")
                    return
                if verdict is False:
                    run.failure = (_where(scope, layer, index - 1, step.weight), step.instance)
                    return
                run.tried += 1
                run.undecided += verdict is None
        run.complete = True

    configured = settings(
        max_examples=1,
        database=None,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        phases=(Phase.generate,),
        report_multiple_bugs=False,
        verbosity=Verbosity.quiet,
        print_blob=False,
    )
    configured(given(st.just(None))(body))()
    return runs[-1]


def _where(scope: SmallScope[Any], layer: Layer[Any], index: int, weight: int) -> str:
    """E.g. "instance 17 of 336 (|X| = 2, |Y| = 2, grid 1/2)"; a representative of a
    relabelling orbit says how many instances it stands for."""
    size = scope.size
    text = f"instance {index + 1}" + (f" of {size}" if size is not None else "")
    if weight > 1:
        text += f", the representative of {weight} relabelled instances"
    return text + f" ({layer.description})"


# --- guidance ---------------------------------------------------------------------------------


def _guidance(value: object) -> float | None:
    """A finite float for ``hypothesis.target`` from a margin, or None (no guidance).

    Only the search is guided by it: verdicts never depend on it.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise InvalidArgument(f"margin must return a number, not {value!r}")
    try:
        if isinstance(value, int | Fraction | float | Decimal):
            number = float(value)
        elif isinstance(value, str):  # never parsed: sympify would evaluate the text
            raise TypeError("a string")
        else:
            import sympy

            number = float(sympy.sympify(value, strict=True).evalf(17))
    except OverflowError:
        number = math.inf if value > 0 else -math.inf  # type: ignore[operator]
    except (TypeError, ValueError, AttributeError) as exc:
        raise InvalidArgument(
            f"margin must return a real number (exact or float), not {value!r}"
        ) from exc
    if math.isnan(number):
        return None
    return max(-1e300, min(1e300, number))


# --- the engine -------------------------------------------------------------------------------


def property_holds(
    ctx: CheckContext,
    strategy: SearchStrategy[T],
    holds: Callable[[T], bool | None],
    *,
    describe: str,
    explain: Callable[[T], str] | None = None,
    examples: int | None = None,
    small_scope: Iterable[T] | Callable[[], Iterable[T]] | Literal[False] | None = None,
    margin: Callable[[T], object] | None = None,
    up_to_relabelling: bool = False,
) -> Evidence:
    """Check ``holds`` on every small instance, then on random ones; P evidence.

    Args:
        ctx: The check's context; ``ctx.seed`` fixes the random instances, ``ctx.examples``
            how many are tried, ``ctx.profile`` the small-scope budget.
        strategy: A Hypothesis strategy of exact instances (no floats).
        holds: The claim's statement on one instance: True if it holds, False if not,
            None (or raising :class:`exactpml.errors.Undecided`) if it cannot be settled.
            ``hypothesis.assume(condition)`` / ``reject()`` skip the instance.
        describe: The property in words, e.g. ``"H(U|y) >= H(U) - l(X->y)"``.
        explain: Renders the exact numbers of a failing instance for the report.
        examples: Overrides ``ctx.examples`` for this property.
        small_scope: Exact instances to check exhaustively first, smallest first.  By
            default (``None``) they are **inferred from the strategy**
            (:func:`proofs_check.small_scope.infer`): every small object that a strategy of
            :mod:`exactpml.strategies` can produce, through ``st.tuples``, ``st.builds``,
            ``.map``, ``.filter``, ``st.one_of``, ``.flatmap``, ``st.just``,
            ``st.sampled_from`` and bounded ``st.integers``; a strategy it cannot enumerate
            (a ``@st.composite`` of your own, unbounded numbers) gets none, and the summary
            says so.  The checks of the catalog's own claims infer none unless
            ``INFER_FOR_CATALOG_CLAIMS`` is set (they pass their scopes explicitly).  Given
            explicitly: a :class:`~proofs_check.small_scope.SmallScope` (e.g.
            ``small_scope.mechanisms()``), any iterable, or a function of no argument
            returning one.  ``False``: no small-scope phase.  At most
            ``SMALL_SCOPE_BUDGET[ctx.profile]`` instances (quick 2 000, default 10 000,
            thorough 100 000) are checked, the first ones; an inferred scope at most
            ``INFERRED_SCOPE_FACTOR`` (10) times ``examples`` of them.  Only the first shard
            of a run (``ctx.shard == 0``) enumerates them.
        margin: How far an instance is from violating the property, e.g. ``rhs - lhs`` of
            ``lhs <= rhs`` (>= 0 where it holds): an exact number or a float, or None for
            no guidance.  Hypothesis maximises ``-margin`` (``hypothesis.target``) to steer
            the random phase towards violations.  Only the search uses it, never a verdict.
        up_to_relabelling: The property does not depend on labels (of inputs, outputs,
            records, values): the inferred small scope keeps one instance per relabelling
            orbit, which stands for the whole orbit (see
            :mod:`proofs_check.small_scope._symmetry`).  Only for a single exactpml
            strategy; an explicit ``small_scope`` takes the option of its enumerator
            instead.  Wrong for a property about "the first output": leave it off there.

    Returns:
        Evidence of kind P: passed when every instance held, failed with the minimal
        counterexample (saying which phase found it, and where), undecided when some
        instance could not be settled or every instance was skipped.

    Raises:
        PropertyError: ``holds`` or ``margin`` raised on some instance (the message names
            the instance); the runner reports the claim as ERROR.
    """
    from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings, target
    from hypothesis import strategies as st
    from hypothesis.errors import Unsatisfiable, UnsatisfiedAssumption
    from hypothesis.reporting import with_reporter

    if not describe or not isinstance(describe, str):
        raise InvalidArgument("describe must say in words which property is checked.")
    if margin is not None and not callable(margin):
        raise InvalidArgument(f"margin={margin!r} must be a function of the instance.")
    if not isinstance(up_to_relabelling, bool):
        raise InvalidArgument(f"up_to_relabelling={up_to_relabelling!r} must be True or False.")
    count = validate_examples(ctx.examples if examples is None else examples)
    budget = SMALL_SCOPE_BUDGET[ctx.profile]
    scope_note = ""
    if small_scope is False:
        scope = None
    elif small_scope is None and not (_is_catalog_claim(ctx) and not INFER_FOR_CATALOG_CLAIMS):
        inferred = infer(strategy, up_to_relabelling=up_to_relabelling)
        scope, scope_note = inferred.scope, inferred.note
        budget = min(budget, INFERRED_SCOPE_FACTOR * count)
    elif small_scope is None:
        scope = None
    else:
        if small_scope is True:
            raise InvalidArgument(
                "small_scope=True is not a scope: leave it out (None) to infer one from the "
                "strategy, pass False for none, or pass the instances."
            )
        if up_to_relabelling:
            raise InvalidArgument(
                "up_to_relabelling applies to the inferred small scope; for an explicit one, "
                "ask its enumerator (e.g. small_scope.mechanisms(up_to_relabelling=True))."
            )
        scope = _as_scope(small_scope)
        if ctx.search_only and scope.description == GIVEN_INSTANCES:
            inferred = infer(strategy, up_to_relabelling=False)  # the search alone (issue 24)
            scope, scope_note = inferred.scope, inferred.note
            budget = min(budget, INFERRED_SCOPE_FACTOR * count)

    scope_stats: ScopeStats | None = None
    if scope is not None and ctx.shard == 0:
        with _without_local_constants(), with_reporter(lambda _message: None):
            run = _run_small_scope(scope, holds, budget)
        if run.error is not None:
            where, instance, exc, what = run.error
            shown = "" if instance is None else f": {_render(instance)}"
            raise PropertyError(
                f"{describe}: {what} raised {type(exc).__name__}: {exc} on small-scope "
                f"{where}{shown}"
            ) from exc
        scope_stats = ScopeStats(
            scope.description,
            run.tried,
            run.skipped,
            run.undecided,
            scope.size,
            budget,
            run.complete,
            covered=run.covered,
            filtered=run.filtered,
        )
        if run.failure is not None:
            where, instance = run.failure
            stats = PropertyStats(
                tried=0,
                requested=count,
                undecided=0,
                seed=ctx.seed,
                scope=scope_stats,
                found_by="small-scope",
                found_at=where,
                describe=describe,
            )
            return _failed(describe, instance, explain, stats)

    tried = 0
    undecided = 0
    skipped = 0
    failing: list[Any] = []
    raised: list[tuple[Any, BaseException, str]] = []

    def check(instance: Any) -> float | None:
        """Decide one instance (counted while searching); its guidance score, if any.

        Raises _Falsified (it fails), _HoldsRaised (holds or margin raised) or Hypothesis'
        UnsatisfiedAssumption (``assume`` in ``holds``: skipped)."""
        nonlocal tried, undecided
        searching = not failing and not raised
        try:
            verdict = three_valued(holds(instance), name="holds")
        except Undecided:
            verdict = None
        except UnsatisfiedAssumption:
            raise
        except Exception as exc:
            raised.append((instance, exc, "holds"))
            raise _HoldsRaised from exc
        if verdict is False:
            failing.append(instance)
            raise _Falsified
        if searching:
            tried += 1
            undecided += verdict is None
        if margin is None:
            return None
        try:  # also while shrinking, so that a raising margin replays
            return _guidance(margin(instance))
        except Undecided:
            return None
        except Exception as exc:
            raised.append((instance, exc, "margin"))
            raise _HoldsRaised from exc

    def several(batch: tuple[Any, ...]) -> None:
        """A test case's instances (one in the first stage), each checked until ``count`` are
        decided; one skipped by ``assume`` makes the test case invalid, so that Hypothesis
        draws another in its place."""
        nonlocal skipped
        scores: list[float] = []
        any_skipped = False
        for instance in batch:
            searching = not failing and not raised
            if searching and tried >= count:
                break
            try:
                score = check(instance)
            except UnsatisfiedAssumption:
                if searching:
                    skipped += 1
                any_skipped = True
                continue
            if score is not None:
                scores.append(score)
        if scores:
            target(-min(scores), label=MARGIN_LABEL)
        if any_skipped:
            raise UnsatisfiedAssumption("an instance of the test case was skipped by assume")

    phases = [Phase.explicit, Phase.generate, Phase.shrink]
    if margin is not None:
        phases.insert(2, Phase.target)

    def hypothesis_run(
        drawn: Any, body: Callable[[Any], None], test_cases: int, seeded: Any
    ) -> bool:
        """One Hypothesis run; False when it raised Unsatisfiable (no valid test case)."""
        configured = settings(
            max_examples=test_cases,
            database=None,
            deadline=None,
            derandomize=False,
            suppress_health_check=list(HealthCheck),
            phases=phases,
            report_multiple_bugs=False,
            verbosity=Verbosity.quiet,
            print_blob=False,
        )
        test = seed(seeded)(configured(given(drawn)(body)))
        with _without_local_constants(), with_reporter(lambda _message: None):
            try:
                test()
            except _Falsified:
                pass
            except _HoldsRaised:
                instance, exc, what = raised[-1]
                raise PropertyError(
                    f"{describe}: {what} raised {type(exc).__name__}: {exc} on instance "
                    f"{_render(instance)}"
                ) from exc
            except Unsatisfiable:
                return False
        return True

    single = min(count, SINGLE_INSTANCE_TEST_CASES)
    exhausted = not hypothesis_run(strategy, lambda one: several((one,)), single, ctx.seed)
    if not exhausted and not failing and tried >= single and count > single:
        per_case = instances_per_test_case(count - tried)
        batched = st.tuples(*[strategy] * per_case)
        test_cases = -(-(count - tried) // per_case)
        hypothesis_run(batched, several, test_cases, f"{ctx.seed}:batched")
    stats = PropertyStats(
        tried=tried,
        requested=count,
        undecided=undecided,
        seed=ctx.seed,
        skipped=skipped,
        scope=scope_stats,
        scope_note=scope_note if scope is None else "",
        describe=describe,
    )
    if failing:
        found = replace(
            stats,
            found_by="hypothesis",
            found_at=f"random exact instance {tried + 1} (seed {ctx.seed})",
        )
        return _failed(describe, failing[-1], explain, found)
    decided = tried + (0 if scope_stats is None else scope_stats.tried)
    undecided_total = undecided + (0 if scope_stats is None else scope_stats.undecided)
    passed = None if undecided_total or exhausted or decided == 0 else True
    return Evidence(
        "P", passed, property_summary(describe, passed, stats), label=describe, stats=stats
    )


def _failed(
    describe: str, instance: Any, explain: Callable[[Any], str] | None, stats: PropertyStats
) -> Evidence:
    counterexample = _render(instance)
    if explain is not None:
        counterexample = f"{counterexample}; {explain(instance)}"
    return Evidence(
        "P",
        False,
        property_summary(describe, False, stats),
        counterexample=counterexample,
        label=describe,
        stats=stats,
    )


def _render(instance: object) -> str:
    return exact_repr(instance, name="counterexample")
