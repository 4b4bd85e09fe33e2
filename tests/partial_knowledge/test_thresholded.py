"""The closed form of δ_A(b) for a thresholded count (Example 7's mechanism) against the
generic count path (every output law built and summed) and against the definitions.

The closed form (:mod:`exactpml.partial_knowledge.thresholded`) never builds the laws; it
must give the same exact δ_A(b), the same unreduced numerator over the same denominator and
the same maximising event, for both orders, every knowledge value, any threshold (below 0,
at n and above), any e^ε > 0 (below 1 too) and unknown records with p = 0, p = 1 or inside.
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpml import Distribution, InvalidArgument
from exactpml.partial_knowledge import (
    PartialKnowledge,
    apkdp_delta,
    example_7,
    knowledge_laws,
    ppkdp_delta,
    thresholded_counting,
)
from exactpml.partial_knowledge.notions import delta_table
from exactpml.partial_knowledge.thresholded import reduce_over_known_primes
from proofs_check.reference import partial_knowledge as bf

PROBABILITIES = [Fraction(0), Fraction(1), Fraction(1, 2), Fraction(1, 10), Fraction(9, 10)]
RATIOS = [Fraction(1), Fraction(3), Fraction(1, 2), Fraction(7, 5), Fraction(10)]


def _vote(p: Fraction) -> Distribution:
    return Distribution([("No", 1 - p), ("Yes", p)])


def _referendum(voters, known, threshold, unknown_p, known_p, target_p, *, flip=False):
    """Known votes 0..known-1, the target ``known``, the rest unknown with ``unknown_p``;
    the count of Yes released iff > threshold; (t, t') = (No, Yes), or (Yes, No) if flip."""
    records = (
        [_vote(known_p)] * known + [_vote(target_p)] + [_vote(unknown_p)] * (voters - known - 1)
    )
    value, alternative = ("Yes", "No") if flip else ("No", "Yes")
    setting = PartialKnowledge(
        records, target=known, value=value, alternative=alternative, known=range(known)
    )

    def mechanism():
        return thresholded_counting(threshold, predicate=lambda v: v == "Yes")

    return setting, mechanism


def _assert_same_tables(setting, mechanism, ratio):
    fast = knowledge_laws(setting, mechanism(), method="count")
    slow = knowledge_laws(setting, mechanism(), method="count", closed_form=False)
    assert fast._closed is not None and slow._closed is None
    fast_table, slow_table = (
        delta_table(fast, exp_epsilon=ratio),
        delta_table(slow, exp_epsilon=ratio),
    )
    assert list(fast_table) == list(slow_table)
    for order, row in fast_table.items():
        for b, cell in row.items():
            other = slow_table[order][b]
            assert (cell.value, cell.numerator, cell.denominator) == (
                other.value,
                other.numerator,
                other.denominator,
            ), (order, b)
            assert cell.event() == other.event(), (order, b)
    return fast, slow


@settings(max_examples=150, deadline=None)
@given(
    voters=st.integers(1, 9),
    data=st.data(),
    unknown_p=st.sampled_from(PROBABILITIES),
    known_p=st.sampled_from([Fraction(1, 3), Fraction(1, 2), Fraction(0)]),
    ratio=st.sampled_from(RATIOS),
    flip=st.booleans(),
)
def test_closed_form_equals_the_generic_count_path(voters, data, unknown_p, known_p, ratio, flip):
    known = data.draw(st.integers(0, voters - 1), label="known")
    threshold = data.draw(st.integers(-1, voters + 1), label="threshold")
    setting, mechanism = _referendum(
        voters, known, threshold, unknown_p, known_p, Fraction(1, 2), flip=flip
    )
    _assert_same_tables(setting, mechanism, ratio)


@settings(max_examples=40, deadline=None)
@given(
    voters=st.integers(1, 6),
    data=st.data(),
    unknown_p=st.sampled_from(PROBABILITIES),
    ratio=st.sampled_from(RATIOS),
    flip=st.booleans(),
)
def test_closed_form_equals_the_definitions(voters, data, unknown_p, ratio, flip):
    known = data.draw(st.integers(0, voters - 1), label="known")
    threshold = data.draw(st.integers(-1, voters), label="threshold")
    setting, mechanism = _referendum(
        voters, known, threshold, unknown_p, Fraction(1, 3), Fraction(1, 2), flip=flip
    )
    kernel = bf.counting_kernel(mechanism(), setting.records)
    assert apkdp_delta(setting, mechanism(), exp_epsilon=ratio).delta == (
        bf.apkdp_by_definition(setting, kernel, ratio)
    )
    assert ppkdp_delta(setting, mechanism(), exp_epsilon=ratio) == (
        bf.ppkdp_by_definition(setting, kernel, ratio)
    )


def test_closed_form_at_hundreds_of_voters_both_orders():
    for voters, known, threshold, p in (
        (300, 20, 20, Fraction(1, 100)),
        (200, 30, 100, Fraction(1, 2)),
        (150, 10, 0, Fraction(99, 100)),
    ):
        for ratio in (Fraction(3), Fraction(1, 3), Fraction(1)):
            setting, mechanism = _referendum(voters, known, threshold, p, p, p)
            fast, slow = _assert_same_tables(setting, mechanism, ratio)
            assert apkdp_delta(setting, fast, exp_epsilon=ratio) == apkdp_delta(
                setting, slow, exp_epsilon=ratio
            )
            assert ppkdp_delta(setting, fast, exp_epsilon=ratio) == ppkdp_delta(
                setting, slow, exp_epsilon=ratio
            )


def test_example_7_closed_form_equals_enumeration_at_small_scale():
    for voters, known, threshold, p in ((12, 4, 3, "1/10"), (9, 3, 2, "1/2"), (8, 0, 0, "1/3")):
        counted = example_7(voters, known, threshold, p)
        enumerated = example_7(voters, known, threshold, p, method="enumerate")
        assert counted.delta_apk == enumerated.delta_apk
        assert counted.delta_ppk == enumerated.delta_ppk
        assert counted.worst_order == enumerated.worst_order
        for order, one in counted.orders.items():
            other = enumerated.orders[order]
            assert (one.delta_apk, one.delta_ppk) == (other.delta_apk, other.delta_ppk)


def test_closed_form_switch_and_read_only_threshold():
    setting, mechanism = _referendum(5, 2, 1, Fraction(1, 3), Fraction(1, 3), Fraction(1, 2))
    release = mechanism()
    assert release.thresholded == (1, "⊥")
    with pytest.raises(AttributeError):
        release.thresholded = None
    predicate = release.predicate
    mixed = release.mixture(thresholded_counting(2, predicate=predicate), "1/2")
    assert mixed.thresholded is None  # a mixture is not a thresholded count: generic path
    assert knowledge_laws(setting, mixed, method="count")._closed is None
    with pytest.raises(InvalidArgument, match="closed_form"):
        knowledge_laws(setting, release, method="count", closed_form="no")


@given(
    numerator=st.integers(0, 10**40),
    base=st.sampled_from([1, 2, 3, 10, 10**4, 6 * 49, 2**61 - 1, 3 * (2**89 - 1)]),
    power=st.integers(0, 80),
    extra=st.integers(0, 100),
)
def test_reduction_over_known_primes_is_lowest_terms(numerator, base, power, extra):
    denominator = base**power
    scaled = numerator * base**extra  # valuations above the 64-step cap as well
    assert reduce_over_known_primes(scaled, denominator, base) == Fraction(scaled, denominator)


def test_example_7_at_the_thesis_scale_equals_the_generic_count_path():
    from exactpml.partial_knowledge import referendum
    from exactpml.partial_knowledge.notions import largest_delta, weighted_delta

    result = example_7()  # 1000 voters, 100 known, threshold 100, p = 10^-4, e^ε = 3
    setting, mechanism = referendum(1000, 100, "1/10000", threshold=100)
    laws = knowledge_laws(setting, mechanism, method="count", closed_form=False)
    for order, row in delta_table(laws, exp_epsilon=Fraction(3)).items():
        cells = [row[b] for b in laws.knowledge_values]
        one = result.orders[order]
        assert dict(one.by_known_count) == {b: cell.value for b, cell in row.items()}
        worst, position = largest_delta(cells)
        assert (one.delta_apk, one.worst) == (worst, laws.knowledge_values[position])
        assert one.delta_ppk == weighted_delta(laws.weights, cells)
