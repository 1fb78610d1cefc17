"""Issue 38, "seen at real size": the layout rules behind AttentionMatrix's heatmap and Overview's
tables at 20-odd tokens, checked on the mobjects alone (the scenes themselves are checked in
tests/test_followed_cell_kept.py's real-sentence runs, :mod:`real_size_matrix_checks`).

- A grid of 22 rows named on one side: two staggered columns of row names left of the grid
  (a reviewer read rows named on both sides as two lists), every row and column labelled, no
  two labels overlapping, and in AttentionMatrix's 4:3 content the grid ≥ 60 % of the frame's
  height (it was a third of the frame).
- An elided table without its last column (Overview's followed row: the keys it weighs most,
  not a blocked last key) and its column names flat in two tiers, never upright or numbered.
"""

from __future__ import annotations

import numpy as np
from test_scene_layout import matrix_problems

import attention_core as ac
from scenes.mobjects.elision import elide
from scenes.mobjects.layout import Box
from scenes.mobjects.matrix import LabelledMatrix
from scenes.mobjects.theme import THEMES
from scenes.parts.attention_matrix_layout import slim_regions

SENTENCE = [  # /tmp/rev/mine.toml's 22 tokens (SmolLM2, it → soup)
    "The",
    "chef",
    "tasted",
    "the",
    "soup",
    "that",
    "the",
    "wait",
    "er",
    "brought",
    ",",
    "and",
    "she",
    "said",
    "that",
    "it",
    "needed",
    "more",
    "salt",
    "before",
    "dinner",
    ".",
]


def _grid(width: float, one_side: bool):
    tokens = [t if SENTENCE.index(t) == i else f"{t}{i}" for i, t in enumerate(SENTENCE)]
    weights = ac.softmax(np.random.default_rng(0).normal(size=(22, 22)) * 3)
    content = slim_regions(Box(-width / 2, -4.0, width / 2, 4.0)).content
    box = Box(0.0, 0.0, content.width, content.height)
    args = (weights, ("weights", 0), THEMES["dark"], tokens, tokens)
    kw = {"one_side": True} if one_side else {}
    m = LabelledMatrix.fitted(*args, box, sizes=(22,), digits=3, heat=True, title_room=0, **kw)
    return m, box


def test_22_rows_are_named_on_one_side_and_the_grid_fills_a_4_3_frame():
    m, box = _grid(32 / 3, one_side=True)
    assert m.style.squares and m.style.stagger and not m.style.split
    assert matrix_problems(m) == []
    assert m.width <= box.width + 1e-6 and m.height <= box.height + 1e-6
    grid_left = m.backgrounds.get_left()[0]
    assert all(lab.get_right()[0] < grid_left for lab in m.row_labels), "a row named right"
    assert m.backgrounds.height >= 0.6 * 8.0, m.backgrounds.height
    # the outer column's names (2nd, 4th, …) each level with its own row
    for i in (1, 9, 21):
        assert abs(m.row_label_of[i].get_center()[1] - m.cell_rect(i, 0).get_center()[1]) < 1e-6
    # without one_side, the rows still split between the sides (other scenes unchanged)
    other, _ = _grid(32 / 3, one_side=False)
    assert other.style.split


def test_22_rows_at_1_1_stay_on_one_side():
    m, box = _grid(8.0, one_side=True)
    assert m.style.stagger and not m.style.split
    assert matrix_problems(m) == []
    assert m.width <= box.width + 1e-6


def test_an_elided_row_without_its_last_column_keeps_the_wanted_ones():
    assert elide(22, 4 * 0.7, 0.7, [4, 5, 3], last=False) == [None, 4, 5, None]
    assert elide(22, 4 * 0.7, 0.7, [4, 5, 3]) == [None, 4, None, 21]  # as before
    assert elide(6, 6 * 0.7, 0.7, [2], last=False) == list(range(6))


def test_a_followed_row_names_its_columns_flat_in_two_tiers():
    weights = ac.softmax(np.random.default_rng(1).normal(size=(22, 22)))
    names = [f"{t}{i}" for i, t in enumerate(SENTENCE)]
    m = LabelledMatrix(
        weights,
        ("weights", 0),
        THEMES["dark"],
        names,
        names,
        size=22,
        digits=2,
        heat=True,
        tiers=2,
        keep_rows=[15],
        keep_cols=[4, 5, 12],
        max_width=5.0,
        max_height=2.2,
        last_column=False,
    )
    assert m.shown_rows[0] == 15 and 4 in m.shown_columns and 21 not in m.shown_columns
    assert not (m.upright or m.indexed)
    labels = [m.col_label_of[j] for j in m.shown_columns]
    for a, b in zip(labels, labels[1:]):
        assert a.get_bottom()[1] != b.get_bottom()[1] or a.get_right()[0] < b.get_left()[0]
