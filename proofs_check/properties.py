"""Property evidence (kind P): a claim's inequality on random exact instances.

:func:`property_holds` runs ``holds(instance)`` on ``ctx.examples`` instances drawn from a
Hypothesis strategy, deterministically from ``ctx.seed``: same seed and options, same
instances, same report.  On failure Hypothesis shrinks the instance and the evidence
carries the minimal counterexample (exact rendering, plus ``explain(instance)`` for the
numbers involved).  Deadlines and health checks are off (exact arithmetic is slow by
nature and must not make a check flaky), and no example database is read or written.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from exactpml.errors import InvalidArgument, Undecided
from proofs_check.context import CheckContext, validate_examples
from proofs_check.exactness import exact_repr, three_valued
from proofs_check.record import Evidence, PropertyStats

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = ["PropertyError", "property_holds", "property_summary"]

T = TypeVar("T")


class PropertyError(Exception):
    """``holds`` raised an exception (other than Undecided) on some instance."""


class _Falsified(Exception):
    """Raised inside the Hypothesis test when ``holds`` returns False."""


class _HoldsRaised(Exception):
    """Raised inside the Hypothesis test when ``holds`` raises."""


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


def _seed_text(stats: PropertyStats) -> str:
    if stats.seeds == 1:
        return f"seed {stats.seed}"
    return f"seeds {stats.seed}–{stats.seed + stats.seeds - 1}"


def property_summary(describe: str, passed: bool | None, stats: PropertyStats) -> str:
    """The summary line of property evidence, e.g. "held on 200 random exact instances (seed 0)".

    >>> property_summary("x*x >= 0", True, PropertyStats(200, 200, 0, 0))
    'x*x >= 0: held on 200 random exact instances (seed 0)'
    >>> property_summary("x*x > 0", False, PropertyStats(3, 200, 0, 5))
    'x*x > 0: failed on random exact instance 4 (seed 5), shrunk to a minimal counterexample'
    """
    seeds = _seed_text(stats)
    instances = "instance" if stats.tried == 1 else "instances"
    if passed is False:
        return (
            f"{describe}: failed on random exact instance {stats.tried + 1} ({seeds}), shrunk to "
            "a minimal counterexample"
        )
    note = ""
    if stats.tried < stats.requested:
        note = f"; the strategy ran out of distinct instances before {stats.requested}"
    if passed is None:
        if stats.tried == 0:
            return f"{describe}: no instance could be generated ({seeds})"
        return (
            f"{describe}: held on {stats.tried - stats.undecided} of {stats.tried} random exact "
            f"{instances}, undecided on {stats.undecided} ({seeds}{note})"
        )
    return f"{describe}: held on {stats.tried} random exact {instances} ({seeds}{note})"


def property_holds(
    ctx: CheckContext,
    strategy: SearchStrategy[T],
    holds: Callable[[T], bool | None],
    *,
    describe: str,
    explain: Callable[[T], str] | None = None,
    examples: int | None = None,
) -> Evidence:
    """Check ``holds`` on random exact instances; P evidence with a shrunk counterexample.

    Args:
        ctx: The check's context; ``ctx.seed`` fixes the instances, ``ctx.examples`` how
            many are tried.
        strategy: A Hypothesis strategy of exact instances (no floats).
        holds: The claim's statement on one instance: True if it holds, False if not,
            None (or raising :class:`exactpml.errors.Undecided`) if it cannot be settled.
        describe: The property in words, e.g. ``"H(U|y) >= H(U) - l(X->y)"``.
        explain: Renders the exact numbers of a failing instance for the report.
        examples: Overrides ``ctx.examples`` for this property.

    Returns:
        Evidence of kind P: passed when every instance held, failed with the minimal
        counterexample, undecided when some instance could not be settled.

    Raises:
        PropertyError: ``holds`` raised on some instance (the message names the
            shrunk instance); the runner reports the claim as ERROR.
    """
    from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
    from hypothesis.errors import Unsatisfiable
    from hypothesis.reporting import with_reporter

    if not describe or not isinstance(describe, str):
        raise InvalidArgument("describe must say in words which property is checked.")
    count = validate_examples(ctx.examples if examples is None else examples)
    tried = 0
    undecided = 0
    failing: list[Any] = []
    raised: list[tuple[Any, BaseException]] = []

    def body(instance: Any) -> None:
        nonlocal tried, undecided
        searching = not failing and not raised
        try:
            verdict = three_valued(holds(instance), name="holds")
        except Undecided:
            verdict = None
        except Exception as exc:
            raised.append((instance, exc))
            raise _HoldsRaised from exc
        if verdict is False:
            failing.append(instance)
            raise _Falsified
        if searching:
            tried += 1
            if verdict is None:
                undecided += 1

    configured = settings(
        max_examples=count,
        database=None,
        deadline=None,
        derandomize=False,
        suppress_health_check=list(HealthCheck),
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        report_multiple_bugs=False,
        verbosity=Verbosity.quiet,
        print_blob=False,
    )
    test = seed(ctx.seed)(configured(given(strategy)(body)))
    exhausted = False
    with _without_local_constants(), with_reporter(lambda _message: None):
        try:
            test()
        except _Falsified:
            pass
        except _HoldsRaised:
            instance, exc = raised[-1]
            raise PropertyError(
                f"{describe}: holds raised {type(exc).__name__}: {exc} on instance "
                f"{_render(instance)}"
            ) from exc
        except Unsatisfiable:
            exhausted = True
    stats = PropertyStats(tried=tried, requested=count, undecided=undecided, seed=ctx.seed)
    if failing:
        instance = failing[-1]
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
    passed = None if undecided or exhausted or tried == 0 else True
    return Evidence(
        "P", passed, property_summary(describe, passed, stats), label=describe, stats=stats
    )


def _render(instance: object) -> str:
    return exact_repr(instance, name="counterexample")
