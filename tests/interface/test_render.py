"""Rendering exact values: LaTeX, Markdown, JSON tables and plot helpers."""

import json
from fractions import Fraction

import pytest
import sympy

from exactpml import Distribution, InvalidArgument, LogValue, Mechanism
from exactpml.render import CertifiedDecimal, ExactTable, to_latex, to_plain


def test_latex_of_exact_values():
    assert to_latex(Fraction(3, 10)) == r"\frac{3}{10}"
    assert to_latex(LogValue(sympy.oo)) == r"\infty"
    assert to_latex(LogValue(1)) == "0"


def test_table_renders_exact_cells_and_certified_decimals():
    value = LogValue(Fraction(9, 5))
    table = ExactTable(["y", "exact", "decimal"], [[1, value, CertifiedDecimal(value, 6)]])
    latex = table.to_latex(caption="PML")
    assert r"\toprule" in latex and r"$\log{\left(\frac{9}{5} \right)}$" in latex
    assert "0.587787" in latex  # log(1.8) = 0.5877866649...
    assert "`log(9/5)`" in table.to_markdown()
    assert json.loads(table.to_json())["rows"][0]["exact"] == "log(9/5)"
    assert to_plain(Fraction(1, 3)) == "1/3"


def test_table_with_ragged_row_is_refused():
    with pytest.raises(InvalidArgument, match="row 0"):
        ExactTable(["a", "b"], [[1]])


def test_plot_helpers_draw_exact_values_and_save_png_and_pdf(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from exactpml.plots import display_float, plot_leakage_by_output, plot_series, save_figure

    mechanism = Mechanism({"a": {0: "3/4", 1: "1/4"}, "b": {0: "1/4", 1: "3/4"}})
    figure, axes = plt.subplots()
    plot_leakage_by_output(mechanism, Distribution.uniform(["a", "b"]), ax=axes)
    plot_series([(Fraction(1, 2), LogValue(2)), (1, LogValue(3))], ax=axes, log_scale=True)
    paths = save_figure(figure, tmp_path / "figure")
    assert [p.suffix for p in paths] == [".png", ".pdf"] and all(
        p.stat().st_size > 0 for p in paths
    )
    assert display_float(LogValue(sympy.E)) == 1.0
    plt.close(figure)


def test_exact_values_of_more_than_4300_digits_render_and_print():
    # Python refuses str() of ints over 4300 digits; exact results may be that large
    import sympy

    from exactpml.core import certify
    from exactpml.render import to_latex, to_plain

    tiny = Fraction(1, 10**5000)
    assert to_plain(tiny) == "1/1" + "0" * 5000
    assert to_latex(tiny) == "\\frac{1}{1" + "0" * 5000 + "}"
    assert certify.decimal(sympy.pi, 5000).startswith("3.14159265358979")
    assert len(certify.decimal(sympy.pi, 5000)) == 5001
