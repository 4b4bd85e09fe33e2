r"""Labels of exact values as mathematics: ``D_inf(P_XY || P_X x P_Y)`` becomes
:math:`D_\infty(P_{XY} \Vert P_X \times P_Y)`.

The checks name their values in a compact ASCII/Unicode notation (``l(X->y)``, ``δ_A(b)``,
``e^(2ε_sim)``, ``lim_{y->oo}``, ``H_inf(μ̂_1)``).  :func:`math_label` typesets the
mathematical tokens of such a label (identifiers with sub- or superscripts, ``l(``, ``oo``,
``x`` between operands, the named functions) and leaves the prose around them as text;
everything goes through :func:`exactpml.latex_text.latex_text`, so the result is plain ASCII
that compiles in text mode.
"""

from __future__ import annotations

import re

from exactpml.latex_text import latex_text

__all__ = ["math_label"]

_NAMED = {"inf": r"\infty", "oo": r"\infty"}
_OPERATORS = {
    "exp": r"\exp",
    "log": r"\log",
    "lim": r"\lim",
    "max": r"\max",
    "min": r"\min",
    "sup": r"\sup",
    "inf": r"\inf",
    "argmin": r"\operatorname{argmin}",
    "argmax": r"\operatorname{argmax}",
}
_GROUP = r"(?:\{[^{}]*\}|\([^()]*\)|[0-9A-Za-z\u0370-\u03ff\u0302*]+)"
_TOKEN = re.compile(
    r"(?<![A-Za-z_])"
    r"(?P<base>argmin|argmax|exp|log|lim|max|min|sup|inf|[A-Za-z\u0370-\u03ff]\u0302?"
    r"|[0-9]+(?=\^))"
    r"(?P<scripts>(?:[_^]" + _GROUP + r")+)"
)
_SCRIPT = re.compile(r"([_^])(" + _GROUP + r")")
_ELL = re.compile(r"(?<![0-9A-Za-z_])l\((?=[^()]*->)")
_INFINITY = re.compile(r"(?<![0-9A-Za-z_])oo(?![0-9A-Za-z_])")
_TIMES = re.compile(r"(?<=[A-Za-z)}]) x (?=[A-Z])")


def _script(body: str) -> str:
    if body.startswith(("{", "(")) and body.endswith(("}", ")")):
        inner = body[1:-1]
        keep = body.startswith("(")
        text = _in_math(inner)
        return "{(" + text + ")}" if keep else "{" + text + "}"
    if body in _NAMED:
        return "{" + _NAMED[body] + "}"
    if len(body) > 1 and body.isascii() and body.isalpha():
        return "{\\mathrm{" + body + "}}"
    return "{" + _in_math(body) + "}"


_TEXT_ONLY = {
    r"\textless{}": "<",
    r"\textgreater{}": ">",
    r"\textbar{}": "|",
    r"\~{}": r"\sim{}",
    r"\^{}": r"\hat{}",
    r"\textbackslash{}": r"\backslash{}",
    r"\textsubscript{": "_{",
    r"\textsuperscript{": "^{",
}


def _in_math(text: str) -> str:
    """A short mathematical text (a sub- or superscript) as math-mode source: its own
    tokens typeset, and no text-mode-only command."""
    source = math_label(text)
    for command, symbol in _TEXT_ONLY.items():
        source = source.replace(command, symbol)
    return source


def _token(match: re.Match[str]) -> str:
    base = match.group("base")
    head = _OPERATORS.get(base) or (r"\ell" if base == "l" else latex_text(base))
    scripts = "".join(
        mark + _script(body) for mark, body in _SCRIPT.findall(match.group("scripts"))
    )
    return "\\ensuremath{" + head + scripts + "}"


def math_label(label: str) -> str:
    r"""``label`` as LaTeX text-mode source with its mathematical tokens typeset as math.

    >>> print(math_label("D_inf(P_XY || P_X)"))
    \ensuremath{D_{\infty}}(\ensuremath{P_{\mathrm{XY}}} \ensuremath{\Vert} \ensuremath{P_{X}})
    >>> print(math_label("P_X x P_Y"))
    \ensuremath{P_{X}} \ensuremath{\times} \ensuremath{P_{Y}}
    >>> print(math_label("lim_{y->oo} p(y|1)"))
    \ensuremath{\lim_{y\ensuremath{\to}\ensuremath{\infty}}} p(y\textbar{}1)
    """
    pieces: list[str] = []
    position = 0
    text = _TIMES.sub(" \u00d7 ", label)
    text = _ELL.sub("\u2113(", text)
    for match in _TOKEN.finditer(text):
        pieces.append(_plain(text[position : match.start()]))
        pieces.append(_token(match))
        position = match.end()
    pieces.append(_plain(text[position:]))
    return "".join(pieces)


def _plain(text: str) -> str:
    return latex_text(_INFINITY.sub("\u221e", text))
