"""Θ-reducibility (thesis Def 59, as restated in CLAIMS.md ``pk.thm_2``): decide it, return φ.

A mechanism is Θ-reducible in a setting when for all knowledge values b1, b2 there is an
injective map φ = φ_{b1,b2}, the same for t and t', defined on the union U1 of the supports of
P[·|t,b1] and P[·|t',b1], with

    P[o | t, b1] = P[φ(o) | t, b2]  and  P[o | t', b1] = P[φ(o) | t', b2]  for all o ∈ U1.

Deciding it.  Write v_b(o) = (P[o|t,b], P[o|t',b]).  Such a φ exists iff the multisets
{v_{b1}(o) : o ∈ U1} and {v_{b2}(o') : o' ∈ U2} are equal.  (If: pair the outputs of each
law vector in any order.  Only if: φ maps U1 into U2, since v_{b2}(φ(o)) = v_{b1}(o) ≠ 0;
both laws have total mass 1 on U1 and on φ(U1) ⊆ U2, so U2 \\ φ(U1) carries no mass and is
empty: φ is a bijection U1 → U2 preserving v, so the multisets agree.)  Equality of multisets
is an equivalence relation, so the knowledge values fall into classes; the mechanism is
reducible iff there is one class.  On a finite output alphabet φ extends to a bijection of
the whole alphabet (|U1| = |U2|), the thesis's "bijective mapping".

Thm 2 (checked in the tests): reducible ⇒ δ_A(b) is the same for every b, so APKDP ⇔ PPKDP.
The converse fails (``pk.thm_2``): see
:func:`exactpml.partial_knowledge.examples.reducibility_not_necessary`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactpml.core.abbreviate import abbreviated
from exactpml.core.decisions import prove_zero
from exactpml.core.display import abbreviated_fields_repr
from exactpml.core.exact import Scalar, exact_difference
from exactpml.errors import InvalidArgument, Undecided
from exactpml.partial_knowledge.laws import KnowledgeLaws, LawPair, MechanismLike, knowledge_laws
from exactpml.partial_knowledge.setting import PartialKnowledge

__all__ = [
    "MapCheck",
    "Reducibility",
    "ReducibilityCounterexample",
    "check_reducibility_map",
    "theta_reducibility",
]


@abbreviated_fields_repr  # numbers of any size, by their ends
@dataclass(frozen=True, slots=True)
class ReducibilityCounterexample:
    """Why no φ exists for (first, second): the law ``law`` = (P[o|t,·], P[o|t',·]) is held
    by ``count_first`` outputs under ``first`` but ``count_second`` under ``second``;
    ``output`` is one of them (under ``first`` if count_first > count_second, else ``second``).
    """

    first: Hashable
    second: Hashable
    law: tuple[Scalar, Scalar]
    count_first: int
    count_second: int
    output: Hashable

    def __str__(self) -> str:
        return (
            f"no injective φ from knowledge {self.first!r} to {self.second!r}: the output law "
            f"(P[o|t], P[o|t']) = ({abbreviated(self.law[0], None)}, "
            f"{abbreviated(self.law[1], None)}) is held by {self.count_first} "
            f"output(s) under {self.first!r} (e.g. {self.output!r}) and {self.count_second} "
            f"under {self.second!r}"
        )


@dataclass(frozen=True, slots=True)
class MapCheck:
    """Result of :func:`check_reducibility_map`: ``holds``, or the first ``defect`` found."""

    holds: bool
    defect: str | None = None

    def __bool__(self) -> bool:
        return self.holds


def _scale(pair: LawPair, value: Any) -> Scalar:
    if pair.denominator is None:
        return value
    return Fraction(value, pair.denominator)


def _is_rational(value: object) -> bool:
    return type(value) is int or type(value) is Fraction


def _equal(x: Any, y: Any) -> bool:
    if _is_rational(x) and _is_rational(y):
        return bool(x == y)
    same = prove_zero(exact_difference(x, y))
    if same is None:
        raise Undecided(
            f"cannot decide whether {abbreviated(x)} = {abbreviated(y)}",
            expression=exact_difference(x, y),
        )
    return same


def _groups(pair: LawPair) -> list[tuple[tuple[Any, Any], list[Hashable]]]:
    """Outputs of the union support grouped by their law vector (exact equality)."""
    groups: list[tuple[tuple[Any, Any], list[Hashable]]] = []
    rational = all(_is_rational(v) for v in (*pair.under_value, *pair.under_alternative))
    index: dict[tuple[Any, Any], int] = {}
    for o, a, b in pair.support_pairs():
        if rational:
            position = index.get((a, b))
            if position is None:
                index[(a, b)] = len(groups)
                groups.append(((a, b), [o]))
            else:
                groups[position][1].append(o)
            continue
        for key, members in groups:
            if _equal(key[0], a) and _equal(key[1], b):
                members.append(o)
                break
        else:
            groups.append(((a, b), [o]))
    return groups


def _difference(
    first: Hashable, second: Hashable, left: LawPair, right: LawPair
) -> ReducibilityCounterexample | None:
    """None when the law multisets agree, else a counterexample."""
    left_groups, right_groups = _groups(left), _groups(right)
    if left.denominator != right.denominator:
        raise InvalidArgument("laws over different denominators cannot be compared directly")
    for key, members in left_groups:
        partner = [m for k, m in right_groups if _equal(k[0], key[0]) and _equal(k[1], key[1])]
        count = len(partner[0]) if partner else 0
        if count != len(members):
            output = members[0] if len(members) > count else partner[0][0]
            return ReducibilityCounterexample(
                first,
                second,
                (_scale(left, key[0]), _scale(left, key[1])),
                len(members),
                count,
                output,
            )
    for key, members in right_groups:
        if not any(_equal(k[0], key[0]) and _equal(k[1], key[1]) for k, _ in left_groups):
            return ReducibilityCounterexample(
                first,
                second,
                (_scale(right, key[0]), _scale(right, key[1])),
                0,
                len(members),
                members[0],
            )
    return None


@dataclass(frozen=True, slots=True, eq=False)
class Reducibility:
    """Whether the mechanism is Θ-reducible in the setting (Def 59), with φ or a counterexample.

    Attributes:
        holds: True when a φ exists for every pair of knowledge values.
        classes: the knowledge values grouped by their law multiset (φ exists exactly
            within a class).
        counterexample: for two values of different classes, why no φ exists.
    """

    holds: bool
    classes: tuple[tuple[Hashable, ...], ...]
    counterexample: ReducibilityCounterexample | None
    laws: KnowledgeLaws

    def output_map(self, first: Hashable, second: Hashable) -> dict[Hashable, Hashable]:
        """φ_{first,second} on the union support of ``first``'s laws (checked before return)."""
        b1, b2 = self.laws.resolve(first), self.laws.resolve(second)
        left, right = self.laws.pair(b1), self.laws.pair(b2)
        problem = _difference(b1, b2, left, right)
        if problem is not None:
            raise InvalidArgument(str(problem))
        right_groups = _groups(right)
        mapping: dict[Hashable, Hashable] = {}
        for key, members in _groups(left):
            partner = next(
                m for k, m in right_groups if _equal(k[0], key[0]) and _equal(k[1], key[1])
            )
            mapping.update(zip(members, partner, strict=True))
        return mapping


def theta_reducibility(
    setting: PartialKnowledge, mechanism: MechanismLike | KnowledgeLaws
) -> Reducibility:
    """Decide Θ-reducibility of ``mechanism`` in ``setting`` (Def 59, restated).

    >>> from exactpml import Distribution
    >>> from exactpml.partial_knowledge import PartialKnowledge, thresholded_counting
    >>> coin = Distribution({0: "1/2", 1: "1/2"})
    >>> setting = PartialKnowledge([coin] * 3, target=0, value=0, alternative=1, known=[1])
    >>> result = theta_reducibility(setting, thresholded_counting(1))
    >>> result.holds
    False
    >>> result.counterexample.law, result.counterexample.output
    ((Fraction(1, 1), Fraction(1, 2)), '⊥')
    """
    laws = mechanism if isinstance(mechanism, KnowledgeLaws) else knowledge_laws(setting, mechanism)
    classes: list[list[Hashable]] = []
    representatives: list[LawPair] = []
    signatures: dict[Any, int] = {}
    rational = True
    for b in laws.knowledge_values:
        pair = laws.pair(b)
        if rational:
            try:
                signature = pair.signature()
                hash(signature)
                rational = all(
                    _is_rational(v) for v in (*pair.under_value, *pair.under_alternative)
                )
            except TypeError:
                rational = False
        if rational:
            position = signatures.get(signature)
            if position is None:
                signatures[signature] = len(classes)
                classes.append([b])
                representatives.append(pair)
            else:
                classes[position].append(b)
            continue
        for members, representative in zip(classes, representatives, strict=True):
            if _difference(members[0], b, representative, pair) is None:
                members.append(b)
                break
        else:
            classes.append([b])
            representatives.append(pair)
    counterexample = None
    if len(classes) > 1:
        counterexample = _difference(
            classes[0][0], classes[1][0], representatives[0], representatives[1]
        )
    return Reducibility(
        holds=len(classes) == 1,
        classes=tuple(tuple(c) for c in classes),
        counterexample=counterexample,
        laws=laws,
    )


def check_reducibility_map(
    setting: PartialKnowledge,
    mechanism: MechanismLike | KnowledgeLaws,
    first: Hashable,
    second: Hashable,
    output_map: Callable[[Any], Hashable] | Mapping[Hashable, Hashable],
) -> MapCheck:
    """Check that ``output_map`` is a φ_{first,second} of Def 59, exactly.

    It must be defined and injective on the union support U1 of the laws given ``first``,
    and P[o|t,first] = P[φ(o)|t,second], P[o|t',first] = P[φ(o)|t',second] for o ∈ U1
    (then φ is onto U2, which is checked too).
    """
    laws = mechanism if isinstance(mechanism, KnowledgeLaws) else knowledge_laws(setting, mechanism)
    left, right = laws.pair(first), laws.pair(second)
    apply: Callable[[Any], Hashable] = (
        output_map.__getitem__ if isinstance(output_map, Mapping) else output_map
    )
    if not callable(apply):
        raise InvalidArgument(
            f"output_map must be a callable or a mapping, got {type(output_map).__name__}"
        )
    images: dict[Hashable, Hashable] = {}
    for o, _, _ in left.support_pairs():
        try:
            image = apply(o)
            hash(image)
        except Exception as error:
            return MapCheck(False, f"φ({o!r}) failed: {type(error).__name__}: {error}")
        if image in images:
            return MapCheck(
                False, f"φ is not injective: φ({images[image]!r}) = φ({o!r}) = {image!r}"
            )
        images[image] = o
        mine, theirs = left.probabilities(o), right.probabilities(image)
        for which, a, b in (("t", mine[0], theirs[0]), ("t'", mine[1], theirs[1])):
            if not _equal(a, b):
                return MapCheck(
                    False,
                    f"P[{o!r} | {which}, {first!r}] = {a} but P[φ(o) = {image!r} | {which}, "
                    f"{second!r}] = {b}",
                )
    missed = [o for o, _, _ in right.support_pairs() if o not in images]
    if missed:
        return MapCheck(False, f"φ misses output(s) {missed[:3]!r} of the support under {second!r}")
    return MapCheck(True)
