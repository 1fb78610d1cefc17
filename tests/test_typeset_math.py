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


def _bar_texts(group) -> list[str]:
    """Every text and formula drawn in a caption page, by what it shows."""
    from manim import Text

    return [
        m.source_text
        for m in group.get_family()
        if isinstance(m, Text | typeset.MathTypst) and hasattr(m, "source_text")
    ]


def test_the_caption_bar_typesets_its_formulas_on_the_line_of_text():
    """Issue 38: the bar drew "Q = X Wq", "WOh", "√ dₖ" in Unicode; a caption's $W_q$ is now a
    Typst formula on the baseline of the text around it, the line's text (tests, subtitles)
    still its Unicode form, and nothing in the bar shows "Wq" as text."""
    import attention_core as ac
    from scenes.kit import captions
    from scenes.kit.look import Look
    from scenes.kit.registry import find

    ex = ac.PRESETS["zao-shang-hao"]
    scene = find("Projections").load()(ex, Look.for_example(ex, lang="en", aspect="1:1"))
    scene.setup()
    text = captions.caption("Projections", "match", "en", whole_formulas=True)
    [(page, group)] = scene.caption_groups(text)
    shown = _bar_texts(group)
    assert "$W_q$" in shown and "$q_i dot k_j = x_i W_q W_k^top x_j^top$" in shown, shown
    assert not any("Wq" in s for s in shown if not s.startswith("$")), shown
    lines = " ".join(line.source_text for line in group)
    assert lines == captions.caption("Projections", "match", "en")  # Wq, as subtitles say it
    line = next(ln for ln in group if any(s == "$W_q$" for s in _bar_texts(ln)))
    w_q = next(m for m in line if getattr(m, "source_text", "") == "$W_q$")
    words = next(m for m in line if not m.source_text.startswith("$"))
    assert abs(typeset.baseline(w_q) - typeset.baseline(words)) < 1e-6
    assert group.width <= scene.regions.caption.width


def test_a_caption_formula_takes_numbers_only_and_is_never_cut():
    """A formula's placeholder filled with a token label (or anything but a number) keeps the
    formula out of Typst: drawn in its Unicode form, as text; a formula a line cut in two (not
    one the caption bar makes) is drawn as text, never half typeset."""
    from scenes.kit import captions
    from scenes.mobjects.text import Token
    from scenes.mobjects.unimath import laid, line_pieces

    values = dict(n=6, maxraw="1.000", graw="0.001", maxscaled="0.460", gscaled="0.723")
    ok = captions.caption("Scaling", "softmax64", "en", whole_formulas=True, d=64, **values)
    assert [src for _, _, src in ok.formulas] == ["sqrt(64)"]
    for bad in (Token('#read("/etc/passwd")'), Token("64"), "64) #sys"):
        text = captions.caption("Scaling", "softmax64", "en", whole_formulas=True, d=bad, **values)
        assert [src for _, _, src in text.formulas] == [None], bad
    text = laid("see \ue000W_q\ue001 here", ["W_q"])
    assert line_pieces(["see W_q here"], text)[0] == [
        [("see ", None), ("W_q", "W_q"), (" here", None)]
    ]
    assert line_pieces(["see W_", "q here"], text)[0] == [[("see W_", None)], [("q here", None)]]
