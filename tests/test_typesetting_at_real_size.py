"""Issue 38, "seen at real size", its typesetting faults (a review of a 22-token SmolLM2 sentence
at 1:1 in English and at 4:3 in Chinese):

- a punctuation token in a table, “,” (row "11 “,”"), read as torn over two lines: the CJK
  font's full-width quotation marks stood above the digits' height and an em from the mark,
  the comma alone at the foot; its marks are drawn as Latin ones, at the digits' height;
- a caption read "QKᵀ(22×22）": every bracket of every template (both languages, the
  templates and their Unicode forms) is closed by its own kind;
- titles shrank at 1:1 (CausalMask, MultiHeadSplit): in a square frame a title too long for one
  line at the title size is set on two at it, its bar taller and the content below it.

Cheap: templates are read, labels and titles set, nothing rendered.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from manim import Text

from scenes.kit import captions
from scenes.kit.base import ExplainerScene
from scenes.mobjects.layout import Box, box_of, regions
from scenes.mobjects.text import label
from scenes.mobjects.theme import SMALL, TITLE, get_theme
from scenes.mobjects.unimath import plain

# -- a punctuation label drawn whole ---------------------------------------------------------


def _glyphs(mob) -> list:
    """The letters of a label: its parts but the line it sits on (``text.Strut``, not drawn)."""
    return [g for g in mob.submobjects if not getattr(g, "is_line", False)]


@pytest.mark.parametrize("mark", [",", ".", "。", "，"])
def test_a_quoted_punctuation_label_stands_on_one_line(mark):
    """Row "11 “,”" as a table draws it: its quotation marks reach no higher than the digits
    (they stood 0.03 above them at the table size, a line of their own over the comma), and
    the opening mark is no further from the number than a space and a half."""
    mob = label(f"11 “{mark}”", SMALL)
    glyphs = sorted(_glyphs(mob), key=lambda g: g.get_left()[0])
    one, _, opening = glyphs[0], glyphs[1], glyphs[2]
    closing = glyphs[-1]
    digits_top = one.get_top()[1]
    for q in (opening, closing):
        assert q.get_top()[1] <= digits_top + 0.01, f"“{mark}”: a mark above the digits"
    space = label("1 1", SMALL).width - label("11", SMALL).width
    gap = opening.get_left()[0] - glyphs[1].get_right()[0]
    assert gap <= 1.5 * space + 0.02, f"“{mark}” {gap:.3f} from its number (a space: {space:.3f})"


@pytest.mark.parametrize("line", ["the head moved “it” toward", "k( “,” ) and", "q(“早”) is"])
def test_a_latin_line_sets_its_quotation_marks_beside_what_they_quote(line):
    """Issue 38: an English caption's “it”, “soup”, k( “,” ) stood an em apart, the CJK font's
    full-width marks. In a Latin line (Chinese only inside the marks) each mark stands no
    further from what it quotes than a space, from the word before no further than a space
    and a half."""
    mob = label(line, SMALL)
    glyphs = sorted(_glyphs(mob), key=lambda g: g.get_left()[0])
    visible = [c for c in line if not c.isspace()]
    assert len(glyphs) == len(visible), (len(glyphs), visible)
    space = label("1 1", SMALL).width - label("11", SMALL).width
    at = visible.index("“")
    inner = glyphs[at + 1].get_left()[0] - glyphs[at].get_right()[0]
    before = glyphs[at].get_left()[0] - glyphs[at - 1].get_right()[0]
    close = visible.index("”")
    after = glyphs[close].get_left()[0] - glyphs[close - 1].get_right()[0]
    assert max(inner, after) <= space + 0.01, f"{line!r}: {inner:.3f} {after:.3f} ({space:.3f})"
    assert before <= 1.5 * space + 0.02, f"{line!r}: {before:.3f} before “ (a space {space:.3f})"


def test_a_chinese_sentence_keeps_its_full_width_marks():
    """Chinese prose keeps the CJK font's marks (full width is right there): plain text."""
    assert isinstance(label("查询“早”把注意力给了“好”", SMALL), Text)  # not MarkupText


# -- brackets closed by their own kind -------------------------------------------------------

CLOSERS = {")": "(", "）": "（", "]": "[", "】": "【", "」": "「", "』": "『", "》": "《"}


def unmatched(text: str) -> str | None:
    """The first bracket of ``text`` not closed by its own kind ("(" by "）"), or None."""
    stack: list[str] = []
    for k, c in enumerate(text):
        if c in CLOSERS.values():
            stack.append(c)
        elif c in CLOSERS:
            if not stack or stack[-1] != CLOSERS[c]:
                return f"{c!r} at {k} closes {stack[-1] if stack else 'nothing'!r}"
            stack.pop()
    return f"{stack[-1]!r} never closed" if stack else None


def _templates():
    for scene, steps in captions.CAPTIONS.items():
        for key, pair in steps.items():
            yield f"{scene}.{key}", pair
    for key, pair in captions.WORDS.items():
        yield f"word {key}", pair
    for scene, pair in captions.TITLES.items():
        yield f"title {scene}", pair


def test_every_bracket_of_every_template_is_closed_by_its_own_kind():
    bad = []
    for name, pair in _templates():
        for lang, template in zip(captions.LANGS, pair):
            for form in (template, plain(template)):  # as written, and in Unicode forms
                wrong = unmatched(re.sub(r"\{\w*\}", "", form))
                if wrong:
                    bad.append(f"{name} ({lang}): {wrong}: {form!r}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("text", ["QKᵀ(22×22）", "a (b", "（x)", "]"])
def test_the_bracket_check_finds_a_mismatch(text):
    assert unmatched(text) is not None


# -- a title at 1:1 --------------------------------------------------------------------------


def _square_scene():
    frame = Box(-4.0, -4.0, 4.0, 4.0)  # 1:1, as the looks make it
    scene = SimpleNamespace(frame=frame, regions=regions(frame, 3), theme=get_theme("dark"))
    return scene


def _sizes(mob) -> list[float]:
    return [m.font_size for m in mob.get_family() if isinstance(m, Text)]


@pytest.mark.parametrize("lang", captions.LANGS)
@pytest.mark.parametrize("name", sorted(captions.TITLES))
def test_a_title_at_1_1_keeps_the_title_size(name, lang):
    """Every scene's title at 1:1 at the title size (CausalMask's and MultiHeadSplit's were
    set at the caption's), on two lines where one is too narrow, within the bar's width, the
    content under it."""
    scene = _square_scene()
    width = scene.regions.title.width
    mob = ExplainerScene.fitted_title(scene, captions.title(name, lang, typeset=True))
    assert min(_sizes(mob)) >= TITLE - 0.5, f"{name} ({lang}) at {min(_sizes(mob)):.1f}"
    assert mob.width <= width + 1e-6
    assert mob.height <= scene.regions.title.height + 1e-6
    assert scene.regions.content.y1 <= scene.regions.title.y0 - 0.1 + 1e-6
    assert scene.regions.title.y1 <= scene.frame.y1 - 0.15 + 1e-6  # in the frame's margin
    assert box_of(mob).height <= 1.1  # two lines at most


# -- a word's formula inside a caption --------------------------------------------------------


@pytest.mark.parametrize("lang", captions.LANGS)
def test_a_word_s_formula_taken_into_a_caption_is_typeset(lang):
    """A word with a formula ("scores $Q K^top$") filled into a caption: the caption bar
    typesets the formula where it stands, as the caption's own (it was drawn in Unicode);
    the subtitles keep its Unicode form, and no mark of the layout reaches either."""
    kind = captions.word("scores", lang)
    laid = captions.caption("CausalMask", "mask", lang, whole_formulas=True, kind=kind)
    spans = [(str(laid)[a:b], src) for a, b, src in laid.formulas]
    assert spans == [("Q\u00a0Kᵀ", "Q K^top")], spans
    shown = captions.caption("CausalMask", "mask", lang, kind=kind)
    assert "Q Kᵀ" in shown
    for text in (str(laid), shown):
        assert not re.search("[\ue000-\uf8ff]", text)


def test_a_title_and_its_head_at_1_1_break_before_the_head():
    """Overview's title of a head of four (at-the-limits) at 1:1: "The whole story in one
    line" over "head 1 of 4", not a cut inside the title ("… in" over "one line · head 1 of
    4")."""
    scene = _square_scene()
    text = captions.title("Overview", "en", typeset=True) + "  ·  head 1 of 4"
    mob = ExplainerScene.fitted_title(scene, text)
    assert [line.source_text for line in mob] == ["The whole story in one line", "head 1 of 4"]
