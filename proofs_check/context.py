"""The context a check runs in: seed, examples per property, profile and mutant.

A check is a function ``check(ctx: CheckContext) -> list[Evidence]``.  It draws its
random instances from ``ctx.seed`` (so the same seed gives the same report), runs each
property on ``ctx.examples`` random instances (after at most ``SMALL_SCOPE_BUDGET[profile]``
small-scope ones), may scale other work by ``ctx.profile``, and
switches its statement to the named mutant when ``ctx.mutant`` is set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from exactpml.errors import InvalidArgument

__all__ = [
    "MAX_EXAMPLES",
    "MAX_SEED",
    "PROFILES",
    "PROFILE_EXAMPLES",
    "SMALL_SCOPE_BUDGET",
    "CheckContext",
    "Profile",
]

Profile = Literal["quick", "default", "thorough"]
"""How hard to try: ``quick`` for CI, ``default``, ``thorough`` for campaigns."""

PROFILES: tuple[Profile, ...] = get_args(Profile)

PROFILE_EXAMPLES: dict[Profile, int] = {"quick": 50, "default": 200, "thorough": 2000}
"""Random instances per property for each profile, unless ``examples`` is given."""

SMALL_SCOPE_BUDGET: dict[Profile, int] = {"quick": 2_000, "default": 10_000, "thorough": 100_000}
"""At most this many small-scope instances per property (the first ones, smallest first)."""

MAX_SEED = 2**63 - 1
MAX_EXAMPLES = 10_000_000


def validate_seed(seed: object, *, name: str = "seed") -> int:
    """Return ``seed`` if it is an integer in ``[0, 2**63 - 1]``, else raise InvalidArgument."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InvalidArgument(f"{name}={seed!r} must be an integer from 0 to {MAX_SEED}.")
    return seed


def validate_examples(examples: object, *, name: str = "examples") -> int:
    """Return ``examples`` if it is an integer in ``[1, 10**7]``, else raise InvalidArgument."""
    if (
        isinstance(examples, bool)
        or not isinstance(examples, int)
        or not 1 <= examples <= MAX_EXAMPLES
    ):
        raise InvalidArgument(
            f"{name}={examples!r} must be a positive integer of at most {MAX_EXAMPLES}."
        )
    return examples


def validate_profile(profile: object) -> Profile:
    """Return ``profile`` if it is one of :data:`PROFILES`, else raise InvalidArgument."""
    for known in PROFILES:
        if profile == known:
            return known
    raise InvalidArgument(f"profile={profile!r} must be one of {', '.join(PROFILES)}.")


@dataclass(frozen=True, slots=True)
class CheckContext:
    """Everything a check may depend on; same context, same evidence.

    Attributes:
        claim_id: The id of the claim being checked.
        seed: Seed for random instances (each property derives its instances from it).
        examples: Random instances per property.
        profile: ``"quick"``, ``"default"`` or ``"thorough"``.
        mutant: ``None`` for the claim as stated, else the name of a declared mutant.
        shard: Index of this run within the claim's seed range (``seed`` is the run's first
            seed plus ``shard``); the seed-independent small-scope phase of a property runs
            in shard 0 only.
        search_only: Measure the search alone (issue 24): every property's explicitly given
            instances (a list rather than a :class:`~proofs_check.small_scope.SmallScope`
            enumerator) are left out, and its small scope is inferred from its strategy
            instead, so that only the small-scope enumerators and Hypothesis can find a
            counterexample.  Pinned, exact and worked-example evidence still runs; the
            measurement (``proofs_check.search_power``) does not count it.
    """

    claim_id: str
    seed: int = 0
    examples: int = PROFILE_EXAMPLES["default"]
    profile: Profile = "default"
    mutant: str | None = None
    shard: int = 0
    search_only: bool = False

    def __post_init__(self) -> None:
        validate_seed(self.seed)
        if isinstance(self.shard, bool) or not isinstance(self.shard, int) or self.shard < 0:
            raise InvalidArgument(f"shard={self.shard!r} must be a non-negative integer.")
        validate_examples(self.examples)
        validate_profile(self.profile)
        if not isinstance(self.search_only, bool):
            raise InvalidArgument(f"search_only={self.search_only!r} must be True or False.")
        if self.mutant is not None and (not isinstance(self.mutant, str) or not self.mutant):
            raise InvalidArgument(f"mutant={self.mutant!r} must be None or a mutant name.")

    def fewer_examples(
        self, divisor: int, *, at_least: int = 10, at_most: int | None = None
    ) -> int:
        """Random instances for a property heavier than most: ``examples // divisor``, at least
        ``at_least`` and at most ``at_most``.

        >>> CheckContext("mylab.x", examples=200).fewer_examples(40, at_least=3, at_most=20)
        5
        """
        count = max(at_least, self.examples // divisor)
        return count if at_most is None else min(at_most, count)
