"""Issue 15: figures publishers accept — PNG at 300 dpi, PDFs whose fonts are embedded
TrueType (Type 42), never Type 3, whatever the caller's rcParams."""

from __future__ import annotations

import re
import zlib
from fractions import Fraction
from pathlib import Path

import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from exactpml.plots import plot_series, publication_style, save_figure  # noqa: E402


def _pdf_font_subtypes(path: Path) -> set[str]:
    data = path.read_bytes()
    chunks = [data]
    for stream in re.findall(rb"stream\r?\n(.*?)endstream", data, flags=re.S):
        try:
            chunks.append(zlib.decompress(stream))
        except zlib.error:
            pass
    blob = b"".join(chunks)
    return {
        match.decode()
        for match in re.findall(
            rb"/Subtype\s*/(Type3|TrueType|Type1|Type0|CIDFontType2|CIDFontType0)", blob
        )
    }


def test_saved_figures_are_300_dpi_png_and_truetype_pdf(tmp_path: Path) -> None:
    import matplotlib.pyplot as plt
    from PIL import Image

    matplotlib.rcParams["pdf.fonttype"] = 3  # a caller's Type 3 setting is overridden
    try:
        with publication_style():
            figure, axes = plt.subplots(figsize=(2, 1.5))
            plot_series(
                [(Fraction(1, k), Fraction(1, k * k)) for k in range(1, 5)], ax=axes, label="ε"
            )
            axes.legend()
            png, pdf = save_figure(figure, tmp_path / "figure")
            plt.close(figure)
    finally:
        matplotlib.rcParams["pdf.fonttype"] = 42
    dpi = Image.open(png).info["dpi"]
    assert round(dpi[0]) == 300 and round(dpi[1]) == 300
    subtypes = _pdf_font_subtypes(pdf)
    # Type 42 embeds TrueType glyphs, as TrueType or as a Type0 font over CIDFontType2.
    assert subtypes & {"TrueType", "CIDFontType2"} and "Type3" not in subtypes, subtypes
