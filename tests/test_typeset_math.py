"""Typst formulas: one scan of the system fonts serves every formula (scenes/mobjects/math.py),
and the SVG it writes is the one a fresh scan writes."""

from __future__ import annotations

import typst

from scenes.mobjects import math as typeset


def test_formulas_compile_with_one_font_scan_to_the_same_svg(tmp_path):
    assert getattr(typst.compile, "shares_fonts", False), "math.py did not share the fonts"
    source = tmp_path / "f.typ"
    source.write_text(
        '#set page(width: auto, height: auto, margin: 0pt)\n$ "softmax"(q dot k / sqrt(d_k)) $',
        encoding="utf-8",
    )
    shared = typst.compile(str(source), format="svg", font_paths=[])
    fresh = typst.compile(str(source), format="svg", font_paths=typst.Fonts())
    assert shared == fresh
    typeset._share_fonts()  # a second call does not wrap the wrapper
    assert typst.compile(str(source), format="svg") == fresh


def test_a_formula_still_draws(tmp_path):
    mob = typeset.math("sqrt(d_k)", 32)
    assert mob.width > 0 and mob.source_text == "$sqrt(d_k)$"
