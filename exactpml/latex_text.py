r"""Text for LaTeX documents that pdflatex compiles: specials escaped, Unicode mapped.

pdflatex reads bytes, not Unicode: a raw ``ε`` or ``∞`` is an error, and under the default
OT1 encoding ``<``, ``>`` and ``|`` print as "¡", "¿" and "—".  :func:`latex_text` turns
any text (claim statements, findings, labels from files) into plain-ASCII LaTeX that
compiles with :data:`LATEX_PREAMBLE`: Greek letters and mathematical symbols become
``\ensuremath{...}`` (valid in text and in math), combining accents apply to the letter
before them, sub- and superscript digits become ``\textsubscript``/``\textsuperscript``,
and a character with no mapping is spelled ``U+XXXX`` rather than breaking the document.

>>> print(latex_text("ε ≥ 0, p(y|x) -> 1"))
\ensuremath{\varepsilon} \ensuremath{\geq} 0, p(y\textbar{}x) \ensuremath{\to} 1
"""

from __future__ import annotations

import re
import unicodedata

from exactpml.core import boundary as _boundary

__all__ = ["LATEX_PREAMBLE", "latex_document", "latex_text"]

#: What every LaTeX output of exactpml and proofs_check needs (stated in each output).
LATEX_PREAMBLE = (
    "\\usepackage[T1]{fontenc}\n"
    "\\usepackage{amsmath,amssymb}\n"
    "\\usepackage{booktabs}\n"
    "\\usepackage{siunitx}\n"
)

_MATH = {
    "α": r"\alpha",
    "β": r"\beta",
    "γ": r"\gamma",
    "δ": r"\delta",
    "ε": r"\varepsilon",
    "ζ": r"\zeta",
    "η": r"\eta",
    "θ": r"\theta",
    "ι": r"\iota",
    "κ": r"\kappa",
    "λ": r"\lambda",
    "μ": r"\mu",
    "ν": r"\nu",
    "ξ": r"\xi",
    "π": r"\pi",
    "ρ": r"\rho",
    "σ": r"\sigma",
    "τ": r"\tau",
    "υ": r"\upsilon",
    "φ": r"\varphi",
    "χ": r"\chi",
    "ψ": r"\psi",
    "ω": r"\omega",
    "Γ": r"\Gamma",
    "Δ": r"\Delta",
    "Θ": r"\Theta",
    "Λ": r"\Lambda",
    "Ξ": r"\Xi",
    "Π": r"\Pi",
    "Σ": r"\Sigma",
    "Υ": r"\Upsilon",
    "Φ": r"\Phi",
    "Ψ": r"\Psi",
    "Ω": r"\Omega",
    "∞": r"\infty",
    "≤": r"\leq",
    "≥": r"\geq",
    "≠": r"\neq",
    "≈": r"\approx",
    "≡": r"\equiv",
    "≫": r"\gg",
    "≪": r"\ll",
    "∝": r"\propto",
    "±": r"\pm",
    "×": r"\times",
    "·": r"\cdot",
    "∘": r"\circ",
    "⊗": r"\otimes",
    "√": r"\surd",
    "∈": r"\in",
    "∉": r"\notin",
    "⊆": r"\subseteq",
    "⊂": r"\subset",
    "∪": r"\cup",
    "∩": r"\cap",
    "⊥": r"\perp",
    "→": r"\to",
    "←": r"\leftarrow",
    "↦": r"\mapsto",
    "⇒": r"\Rightarrow",
    "⇔": r"\Leftrightarrow",
    "⟹": r"\Longrightarrow",
    "∀": r"\forall",
    "∃": r"\exists",
    "∑": r"\sum",
    "∏": r"\prod",
    "∫": r"\int",
    "∂": r"\partial",
    "∇": r"\nabla",
    "‖": r"\Vert",
    "⌊": r"\lfloor",
    "⌋": r"\rfloor",
    "⌈": r"\lceil",
    "⌉": r"\rceil",
    "′": r"{}^{\prime}",
    "″": r"{}^{\prime\prime}",
    "−": "-",
    "ℓ": r"\ell",
    "𝒫": r"\mathcal{P}",
    "𝒬": r"\mathcal{Q}",
    "𝒳": r"\mathcal{X}",
    "𝒴": r"\mathcal{Y}",
    "𝒟": r"\mathcal{D}",
    "ℝ": r"\mathbb{R}",
    "ℕ": r"\mathbb{N}",
    "ℤ": r"\mathbb{Z}",
    "½": r"\tfrac{1}{2}",
    "¼": r"\tfrac{1}{4}",
    "¾": r"\tfrac{3}{4}",
    "∅": r"\emptyset",
    "⋯": r"\cdots",
    "∖": r"\setminus",
}
_TEXT = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "_": r"\_",
    "%": r"\%",
    "&": r"\&",
    "#": r"\#",
    "$": r"\$",
    "^": r"\^{}",
    "~": r"\~{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "§": r"\S{}",
    "—": "---",
    "–": "--",
    "…": r"\dots{}",
    "“": "``",
    "”": "''",
    "‘": "`",
    "’": "'",
    "\u00a0": "~",
}
_SUBSCRIPTS = {chr(0x2080 + digit): str(digit) for digit in range(10)}
_SUPERSCRIPTS = {
    "¹": "1",
    "²": "2",
    "³": "3",
    **{chr(0x2070 + d): str(d) for d in (0, 4, 5, 6, 7, 8, 9)},
}
_ACCENTS = {"\u0302": r"\hat", "\u0303": r"\tilde", "\u0304": r"\bar", "\u0307": r"\dot"}
_ARROWS = {"->": r"\to", "<=": r"\leq", ">=": r"\geq", "=>": r"\Rightarrow", "||": r"\Vert"}


def _letter(char: str) -> str:
    """One character as LaTeX (ASCII letters and digits as they are)."""
    if char in _TEXT:
        return _TEXT[char]
    if char in _MATH:
        return f"\\ensuremath{{{_MATH[char]}}}"
    if char in _SUBSCRIPTS:
        return f"\\textsubscript{{{_SUBSCRIPTS[char]}}}"
    if char in _SUPERSCRIPTS:
        return f"\\textsuperscript{{{_SUPERSCRIPTS[char]}}}"
    if ord(char) < 128:
        return char
    decomposed = unicodedata.normalize("NFD", char)
    if len(decomposed) == 2 and decomposed[1] in "\u0301\u0300\u0308\u0302\u0303":
        accent = {"\u0301": "'", "\u0300": "`", "\u0308": '"', "\u0302": "^", "\u0303": "~"}
        return f"\\{accent[decomposed[1]]}{{{decomposed[0]}}}"
    return f"U+{ord(char):04X}"


_PLAIN_RUN = re.compile(
    "["
    + re.escape(
        "".join(
            chr(code)
            for code in range(32, 127)
            if chr(code) not in _TEXT
            and chr(code) not in _MATH
            and chr(code) not in {pair[0] for pair in _ARROWS}
        )
    )
    + "]+"
)
"""Printable ASCII that :func:`latex_text` copies unchanged (no special, no arrow start)."""


def latex_text(text: str) -> str:
    r"""``text`` as LaTeX text-mode source that pdflatex compiles (see the module docstring).

    >>> latex_text("θ̂ ∈ Θ, 100% & more")
    '\\ensuremath{\\hat{\\theta}} \\ensuremath{\\in} \\ensuremath{\\Theta}, 100\\% \\& more'
    """
    out: list[str] = []
    index = 0
    while index < len(text):
        plain = _PLAIN_RUN.match(text, index)
        if plain is not None:  # a run of ASCII that stays as it is (long numbers, words)
            end = plain.end()
            if end < len(text) and text[end] in _ACCENTS:
                end -= 1  # the last letter carries the accent that follows it
            if end > index:
                out.append(text[index:end])
                index = end
                continue
        pair = text[index : index + 2]
        if pair in _ARROWS:
            out.append(f"\\ensuremath{{{_ARROWS[pair]}}}")
            index += 2
            continue
        char = text[index]
        accent = _ACCENTS.get(text[index + 1]) if index + 1 < len(text) else None
        if accent is not None:
            body = _MATH.get(char, char if char.isascii() and char.isalnum() else None)
            if body is not None:
                out.append(f"\\ensuremath{{{accent}{{{body}}}}}")
                index += 2
                continue
        if char in _ACCENTS:  # a combining accent on nothing mappable: drop the mark
            index += 1
            continue
        out.append(_letter(char))
        index += 1
    return "".join(out)


def latex_document(body: str, *, preamble: str = LATEX_PREAMBLE) -> str:
    """A complete document around ``body`` with ``preamble`` (default
    :data:`LATEX_PREAMBLE`; for ``--standalone``)."""
    return (
        "\\documentclass{article}\n"
        + preamble
        + "\\begin{document}\n"
        + body.rstrip("\n")
        + "\n\\end{document}\n"
    )


_boundary.guard_public_names(globals())  # every public name behind its boundary
