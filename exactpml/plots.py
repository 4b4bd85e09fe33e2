"""Plot helpers (matplotlib, an optional dependency: ``pip install exactpml[plot]``).

Values are exact until drawn: each point is converted to a float only here, from a
certified decimal (:func:`exactpml.certify.decimal`), so what is plotted is the exact value
rounded for display, never a float computation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from exactpml.core import boundary as _boundary
from exactpml.core import certify
from exactpml.core.distribution import Distribution
from exactpml.core.exact import to_sympy
from exactpml.core.logvalue import LogValue
from exactpml.core.mechanism import Mechanism
from exactpml.errors import InvalidArgument
from exactpml.leakage.pml import pointwise_maximal_leakage_by_output

__all__ = [
    "PUBLICATION_STYLE",
    "display_float",
    "plot_leakage_by_output",
    "plot_series",
    "publication_style",
    "save_figure",
]

#: matplotlib settings publishers accept: TrueType (Type 42) fonts embedded in PDF and PS
#: (Type 3 fonts are refused by many), 300-dpi raster output, one consistent look.
PUBLICATION_STYLE: dict[str, Any] = {
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "savefig.dpi": 300,
    "figure.dpi": 100,
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "lines.linewidth": 1.2,
    "lines.markersize": 4,
    "axes.grid": True,
    "grid.alpha": 0.3,
}


def publication_style() -> Any:
    """A context manager applying :data:`PUBLICATION_STYLE` (``with publication_style(): ...``)."""
    import matplotlib

    return matplotlib.rc_context(PUBLICATION_STYLE)  # type: ignore[arg-type]


def display_float(value: Any, *, digits: int = 17) -> float:
    """A float for drawing only: the certified ``digits``-digit decimal of an exact value."""
    if isinstance(value, LogValue):
        text = value.decimal(digits)
    else:
        text = certify.decimal(to_sympy(value) if not isinstance(value, int) else value, digits)
    if text in ("oo", "-oo"):
        return float("inf") if text == "oo" else float("-inf")
    return float(text)


def _axes(ax: Any) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.subplots()[1]


def plot_leakage_by_output(
    mechanism: Mechanism, prior: Distribution, *, ax: Any = None, title: str | None = None
) -> Any:
    """A bar chart of l(X->y) for every output y (exact values, drawn from certified decimals)."""
    axes = _axes(ax)
    leakages = pointwise_maximal_leakage_by_output(mechanism, prior)
    labels = [str(y) for y in mechanism.outputs]
    axes.bar(labels, [display_float(leakages[y]) for y in mechanism.outputs])
    axes.set_xlabel("output y")
    axes.set_ylabel(r"$\ell(X \to y)$ (nats)")
    if title:
        axes.set_title(title)
    return axes


def plot_series(
    points: Iterable[tuple[Any, Any]],
    *,
    ax: Any = None,
    label: str | None = None,
    log_scale: bool = False,
    marker: str = "o",
    **style: Any,
) -> Any:
    """Plot exact (parameter, value) pairs as a line with markers; ``log_scale`` for the y axis."""
    pairs: Sequence[tuple[Any, Any]] = list(points)
    if not pairs:
        raise InvalidArgument("plot_series: no points given")
    axes = _axes(ax)
    xs = [display_float(x) for x, _ in pairs]
    ys = [display_float(y) for _, y in pairs]
    axes.plot(xs, ys, marker=marker, label=label, **style)
    if log_scale:
        axes.set_yscale("log")
    return axes


def save_figure(
    figure: Any, stem: str | Path, *, formats: Sequence[str] = ("png", "pdf")
) -> list[Path]:
    """Save ``figure`` as ``stem.png``, ``stem.pdf`` (creating the folder); return the paths.

    Publication settings whatever the caller's rcParams: PNG at 300 dpi, PDF/PS with
    embedded TrueType (Type 42) fonts, never Type 3.
    """
    import matplotlib

    base = Path(stem)
    base.parent.mkdir(parents=True, exist_ok=True)
    paths = []
    with matplotlib.rc_context({"pdf.fonttype": 42, "ps.fonttype": 42}):
        for extension in formats:
            path = base.with_suffix("." + extension)
            figure.savefig(path, bbox_inches="tight", dpi=300)
            paths.append(path)
    return paths


_boundary.guard_public_names(globals())  # every public name behind its boundary
