"""Issue 38 (a reviewer's "no"): token labels were placed by the middle of their ink, so in a row
of labels a word without ascenders or descenders ("a", "we", "gave") or a punctuation token
(“,”) rode high or low against its neighbours — CausalMask's list of rows beside their bars,
HeadMoved's term table, a matrix's row labels looked jumbled. Every label is now set on its
line (``scenes.mobjects.text.Strut``): placed beside, in line with or level with another, it
shares its baseline, and its width is still its ink's.

Each label's baseline is measured here without the label's own record of it: from where its
lowest glyph sits below the baseline when Pango sets the text after an "H" (whose bottom is on
the baseline)."""

from __future__ import annotations

import pickle

import pytest
from manim import DOWN, LEFT, RIGHT, UP, Rectangle, Text, VGroup

from scenes.mobjects import fonts
from scenes.mobjects.layout import box_of
from scenes.mobjects.text import (
    Num,
    Strut,
    Token,
    clone,
    label,
    label_box,
    label_reach,
    text_baseline,
    vector_row,
)
from scenes.mobjects.theme import BODY, SMALL

ROW = ["a", "gave", "Apply", Token(","), "我", "we", "0.42", Token("."), "早"]
TOLERANCE = 0.003  # frame units: a third of a pixel in a 1080-pixel-high frame (8 units)


def _ink(mob):
    return [m for m in mob.family_members_with_points() if not isinstance(m, Strut)]


def _drop_below_baseline(text: str, size: float) -> float:
    """How far the lowest glyph of ``text`` reaches below the baseline, as Pango sets it after
    an "H"."""
    marked = Text("H" + text, font=fonts.active(), font_size=size)
    h, *rest = marked.submobjects
    return h.get_bottom()[1] - min(g.get_bottom()[1] for g in rest)


def _measured_baseline(mob, text: str, size: float) -> float:
    return min(g.get_bottom()[1] for g in _ink(mob)) + _drop_below_baseline(text, size)


def _baselines(mobs, size: float) -> list[float]:
    return [_measured_baseline(m, m.source_text, size) for m in mobs]


@pytest.mark.parametrize("size", [BODY, SMALL])
def test_labels_in_a_row_share_one_baseline(size):
    row = VGroup(*[label(t, size) for t in ROW]).arrange(RIGHT, buff=0.2)
    found = _baselines(row, size)
    assert max(found) - min(found) < TOLERANCE, dict(zip(map(str, ROW), found))


def test_labels_set_level_at_their_bottoms_share_one_baseline():
    row = VGroup(*[label(t, BODY) for t in ROW]).arrange(RIGHT, buff=0.2, aligned_edge=DOWN)
    found = _baselines(row, BODY)
    assert max(found) - min(found) < TOLERANCE


def test_row_labels_beside_their_bars_sit_alike_on_each_row():
    """CausalMask's 16:9 list: each row's label next to its bar; every label sits as high above
    its bar's middle as every other."""
    offsets = []
    for k, t in enumerate(ROW):
        bar = Rectangle(width=1.0, height=0.18).move_to(DOWN * 0.3 * k + RIGHT)
        mob = label(t, SMALL).next_to(bar, LEFT, buff=0.1)
        offsets.append(_measured_baseline(mob, mob.source_text, SMALL) - bar.get_center()[1])
    assert max(offsets) - min(offsets) < TOLERANCE


def test_the_label_knows_its_baseline():
    for t in ROW:
        mob = label(t, BODY).shift(RIGHT * 2 + DOWN)
        assert text_baseline(mob) == pytest.approx(
            _measured_baseline(mob, mob.source_text, BODY), abs=TOLERANCE
        )
    assert text_baseline(Num(0.25, ("weights", 0, 1, 2))) is not None


@pytest.mark.parametrize("t", ROW)
def test_a_label_is_as_wide_as_its_ink_and_keeps_its_font_size(t):
    mob = label(t, BODY)
    ink = VGroup(*[clone(g) for g in _ink(mob)])
    assert mob.width == pytest.approx(ink.width, abs=1e-9)
    assert mob.height == pytest.approx(ink.height, abs=1e-9)  # what fits: its ink
    assert label_box(t, BODY) == pytest.approx((ink.width, ink.height))
    assert box_of(mob).height == pytest.approx(ink.height)  # what may not overlap: its ink
    assert mob.font_size == pytest.approx(BODY)
    line = mob.get_top()[1] - mob.get_bottom()[1]  # what it is placed by: its line
    assert line >= ink.height - 1e-9


def test_labels_of_one_size_are_placed_by_one_line():
    lines = set()
    for t in ["a", "we", "gave", "Apply", "我", "0.42"]:
        mob = label(t, BODY)
        lines.add(round(mob.get_top()[1] - mob.get_bottom()[1], 6))
    assert len(lines) == 1


def test_a_turned_or_grown_label_keeps_its_line():
    """An upright column label (turned a quarter) and a label grown or moved in an animation
    (its points interpolated) keep their line: it is made of points that move with them."""
    from manim import PI

    mob = label("gave", BODY)
    below = mob.get_center()[1] - text_baseline(mob)
    mob.scale(2).shift(RIGHT)
    assert mob.get_center()[1] - text_baseline(mob) == pytest.approx(2 * below)
    line = (mob.get_top()[1] - mob.get_bottom()[1]) / 2  # of "gave" at BODY, as made
    turned = label("gave", BODY).rotate(PI / 2)  # its line now lies across
    assert turned.get_right()[0] - turned.get_left()[0] == pytest.approx(line, rel=1e-6)
    assert turned.width == pytest.approx(label("gave", BODY).height, rel=1e-6)  # its ink


def test_the_line_is_never_drawn_and_survives_the_cache():
    mob = label("a", BODY, color="#ff0000")
    strut = next(m for m in mob.get_family() if isinstance(m, Strut))
    assert strut.get_stroke_width() == 0
    assert all((path == path[0]).all() for path in strut.get_subpaths())  # no length
    assert box_of(strut).x0 >= box_of(mob).x0 and box_of(strut).x1 <= box_of(mob).x1
    again = pickle.loads(pickle.dumps(mob))
    assert text_baseline(again) == pytest.approx(text_baseline(mob))


def test_a_vectors_commas_sit_on_its_numbers_baseline():
    nums = [Num(v, ("values", 0, k, 0)) for k, v in enumerate([0.12, -0.5, 1.25])]
    _, body, commas, _ = vector_row(nums, "#ffffff")
    on = text_baseline(body[0])
    for comma in commas:
        assert _measured_baseline(comma, ",", BODY) == pytest.approx(on, abs=TOLERANCE)


def test_a_labels_reach_says_how_near_two_lines_may_come():
    """``label_reach``: baselines the upper label's reach below plus the lower's above apart
    keep their inks clear of each other; a little nearer, they meet ("they₁" over "the₂": a
    descender over an ascender)."""
    upper, lower = "7 they₁", "9 the₂"
    below, above = label_reach(upper, SMALL)[0], label_reach(lower, SMALL)[1]
    assert below > 0.05 and above > 0.2  # the y's tail, the h's stem
    for gap, clear in ((below + above + 0.005, True), (below + above - 0.02, False)):
        a, b = label(upper, SMALL), label(lower, SMALL)
        b.shift(UP * (text_baseline(a) - gap - text_baseline(b)))
        assert (not box_of(a).overlaps(box_of(b))) is clear
