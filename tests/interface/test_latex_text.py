"""latex_text: runs of plain ASCII are copied in one step; the result is the same as mapping
the text one character at a time wherever no two-character rule (arrow, accent) applies."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from exactpml.latex_text import latex_text

SINGLE = "abcXYZ0129 ,./()_%&#$^~{}\\\"'!?*+:;@`[]\n\tθε∈≤₁²é—…\u00a0Θ∞"
"""Characters with no two-character rule (no arrow start -, <, >, =, |; no combining accent)."""


@given(st.text(alphabet=SINGLE, max_size=60))
def test_latex_text_maps_each_character_on_its_own(text: str) -> None:
    assert latex_text(text) == "".join(latex_text(char) for char in text)


def test_two_character_rules_still_apply_next_to_plain_runs() -> None:
    assert latex_text("x->y") == r"x\ensuremath{\to}y"
    assert latex_text("ab\u0302c") == r"a\ensuremath{\hat{b}}c"
    assert latex_text("a<=b|c") == r"a\ensuremath{\leq}b\textbar{}c"


def test_a_long_exact_value_is_copied_unchanged() -> None:
    digits = "log(" + "1234567890" * 5000 + "/3)"
    assert latex_text(digits) == digits


def test_a_held_property_prints_compactly_and_the_json_keeps_the_scope() -> None:
    """The LaTeX report leaves out the run's seed (in the caption) and a held property's scope
    description (in the JSON report): the appendix stays within 12 pages (issue 23)."""
    from proofs_check.formats.to_latex import _compact_property
    from proofs_check.record import Evidence, PropertyStats, ScopeStats

    scope = ScopeStats("uniform laws on subsets", 30, 0, 0, 30, 2000, True)
    stats = PropertyStats(3, 3, 0, 0, scope=scope)
    summary = (
        "H equal: held on 30 small-scope instances (uniform laws on subsets: all 30) and on 3 "
        "random exact instances (seed 0)"
    )
    held = Evidence("P", True, summary, stats=stats)
    assert _compact_property(held, summary, 0) == (
        "H equal: held on all 30 small-scope and 3 random instances"
    )
    assert _compact_property(held, summary, 1).endswith("instances (seed 0)")  # another seed
    failed = Evidence("P", False, summary, stats=stats, counterexample="x = 1")
    assert "uniform laws on subsets" in _compact_property(failed, summary, 0)
