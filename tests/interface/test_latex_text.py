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
