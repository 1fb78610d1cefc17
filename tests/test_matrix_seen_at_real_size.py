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
    # the outer column's names (2nd, 4th, …) each level with its own row (the middle of its ink)
    from scenes.mobjects.layout import box_of

    for i in (1, 9, 21):
        ink = box_of(m.row_label_of[i]).center[1]
        assert abs(ink - m.cell_rect(i, 0).get_center()[1]) < 1e-6
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


def _last_snapshot(scene_name: str, example: str, aspect: str, look_at, step=-1):
    """What ``look_at(scene)`` finds at a step of a dry run (no frames) of a lecturer's
    example."""
    import lecturer_examples
    from scenes.kit.look import Look
    from scenes.kit.registry import find
    from scenes.pipeline.stills import run_steps

    ex = lecturer_examples.load(example)
    look = Look.for_example(ex, lang="en", aspect=aspect)
    stills = run_steps(find(scene_name).load(), ex, look=look, snapshot=look_at, frames=False)
    return [s.snapshot for s in stills] if step is None else stills[step].snapshot


def _bands_overlap(a: Box, b: Box) -> bool:
    return a.y0 < b.y1 and b.y0 < a.y1


def test_the_cost_lines_keep_clear_of_the_followed_pair_at_1_1():
    """AttentionMatrix's last still at 1:1 (trophy-24): the followed pair's line ("it₁ →
    trophy 0.563") on no line of the n² cost (beside "n = 24 → 576 cells" it read as one
    line), nothing of the two touching."""
    from scenes.mobjects.layout import box_of

    def look_at(scene):
        lines = getattr(scene, "cost_lines", None)
        if lines is None:
            return None
        pair = lines[0] if getattr(lines, "leads", False) else scene.title
        cost = lines[1] if getattr(lines, "leads", False) else lines
        rows = [box_of(m) for m in cost]
        return box_of(pair), rows

    pair, rows = _last_snapshot("AttentionMatrix", "trophy-24", "1:1", look_at)
    assert rows and pair.width > 0
    for row in rows:
        assert not _bands_overlap(pair, row), (pair, row)
        assert not pair.overlaps(row, pad=0.1)


def _match_badges(scene):
    from scenes.mobjects.layout import box_of

    m = getattr(scene, "match_matrix", None)
    if m is None:
        return None
    badges = [box_of(b) for b in getattr(m, "badge_of", {}).values()]
    cells = [box_of(r) for k, r in m.squares.items() if k not in m.cells]
    return [(b, sum(b.overlaps(c, 0.0) for c in cells)) for b in badges]


def test_projections_keeps_the_pair_score_off_the_grid_where_a_line_says_it():
    """Projections' pair step at 16:9 (trophy-24): "45.39" on the line over the grid, no badge
    over the squares of its row as well."""
    covered = _last_snapshot("Projections", "trophy-24", "16:9", _match_badges)
    assert all(n == 0 for _, n in covered), covered


def test_projections_notes_stand_off_their_planes_axes():
    """Projections' three maps at 16:9 and 4:3 (trophy-24): each plane's note ("2-D view: keeps
    42 %", the count of grey arrows, the key naming the pair) clear of its plane's axes and
    grid lines (the V plane's axis ran through "keeps 39 %")."""
    from scenes.mobjects.layout import box_of

    def look_at(scene):
        groups = getattr(scene, "map_groups", None)
        if groups is None:
            return None
        return [(box_of(g[1]), box_of(g[4])) for g in groups if len(g[4])]

    for aspect in ("16:9", "4:3"):
        planes = _last_snapshot("Projections", "trophy-24", aspect, look_at, step=1)
        assert planes
        for plane, note in planes:
            assert note.y1 < plane.y0, (aspect, plane, note)


def test_the_24_token_heatmap_fills_the_width_its_names_leave_at_1_1():
    """AttentionMatrix at 1:1 (trophy-24): at the heatmap step and the cost step (the last
    still) the grid takes at least 80 % of the content's width left after its row names and a
    colour key beside it (the names, two staggered columns at the smallest size, take 3 of the
    7.5 units: the grid is 45–53 % of the frame); at the cost step the followed pair's line in
    the corner over the row names gives the grid the line it took under it (3.64 → 3.75)."""
    from scenes.mobjects.layout import box_of

    def look_at(scene):
        m, content = scene.matrix, scene.regions.content
        grid = box_of(m.backgrounds)
        names = grid.x0 - min(lab.get_left()[0] for lab in m.row_labels)
        key = box_of(m.colorbar) if len(m.colorbar) else None
        beside = key.width + 0.2 if key is not None and key.x0 > grid.x1 - 1e-6 else 0.0
        return grid.width, content.width - names - beside

    steps = _last_snapshot("AttentionMatrix", "trophy-24", "1:1", look_at, step=None)
    for step in (0, -1):
        grid, room = steps[step]
        assert grid >= 0.8 * room, (step, grid, room)
    assert grid >= 3.7, grid  # the cost step's grid, with the pair's line in the corner
