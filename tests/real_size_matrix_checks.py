"""Issue 38, "seen at real size": checks of AttentionMatrix's heatmap and Overview's tables on a
still, run inside the real-sentence runs of tests/test_followed_cell_kept.py (no render of their
own).

- AttentionMatrix, a grid of 20-odd rows (up to 24: at 1:1 with its key under it): every row
  named on one side (the left of the grid; a reviewer read rows named on both sides as two
  lists) and, where 22 rows fit that way (4:3 and
  16:9), the grid's side at least :data:`LEAST_SIDE` of the frame's height (it was a third of a
  4:3 frame) unless the named cells' numbers take lines under it; the grid and its row names
  take the content's width, or the grid its height (at 1:1 the colour key upright beside the
  grid took 0.56 of its 7.5 units: the 22-token grid was 45 % of the frame's width, now 50 %);
  no number on a badge over the grid (at 4:3 and 16:9 MiniLM's four named numbers sat on
  badges over cells: now on a column beside the grid, or on lines under it).
- AttentionMatrix, CausalMask and Overview: no number's badge on a grid of squares covers a
  named or framed cell (a reviewer: the 0.719 and 0.084 boxes sat on rows 14–17, at 4:3 on
  their own row's sink, the cell the caption told of): the numbers go on a line beside it.
- Overview among many tokens: every table on screen keeps the followed query's row and the
  followed key's column, its column names flat and whole (at 1:1 they stood upright over a
  2 × 2 corner of the matrix), and at the masked note a −∞ cell (at 1:1 the first blocked
  key had no room beside the followed one).
"""

from __future__ import annotations

from manim import VGroup, config

import attention_core as ac
from scene_checks import on_screen
from scenes.mobjects.matrix import LabelledMatrix

LEAST_SIDE = 0.6  # the heatmap's side, of the frame's shorter side (4:3, 16:9; 22 rows or fewer)
ONE_SIDE_ROWS = 24  # the most rows named on one side of a grid (24 at 1:1: its key under it)
ROOM_LEFT = 0.25  # the most of the content's width (or height) a grid of many rows leaves
HEATMAP_STEPS = ("heatmap", "rows", "head", "reading")
TABLE_STEPS = ("qk", "scale", "masked_note", "softmax")


def _step(scene) -> str:
    return (getattr(scene, "_open_step", None) or scene.steps[-1])["key"]


def attention_matrix_problems(scene) -> list[str]:
    """AttentionMatrix's grid of many rows: a row named right of the grid, or (22 rows or
    fewer, in a frame wider than tall) a grid smaller than :data:`LEAST_SIDE` of the frame."""
    if scene.scene_name != "AttentionMatrix" or _step(scene) not in HEATMAP_STEPS:
        return []
    m, out = scene.matrix, caption_in_its_bar(scene)
    rows = m.shape[0]
    if rows <= 12 or rows > ONE_SIDE_ROWS:
        return out
    grid_left = min(b.get_left()[0] for b in m.backgrounds)
    right = [i for i, lab in m.row_label_of.items() if lab.get_right()[0] > grid_left + 1e-6]
    if right:
        out.append(f"rows named right of the grid: {[scene.q_tokens[i] for i in right]}")
    side = max(m.backgrounds.height, m.backgrounds.width)
    short = min(config.frame_width, config.frame_height)
    wide = config.frame_width > config.frame_height * 1.01
    if wide and side < LEAST_SIDE * short and scene.readout_at != "foot":
        out.append(f"the heatmap is {side / short:.0%} of the frame's side (< {LEAST_SIDE:.0%})")
    out += _followed_row_named_beside(scene, m) + _followed_column_named(scene, m)
    return out + _room_left(scene, m) + _badges_on_grid(scene, m)


def _followed_column_named(scene, m) -> list[str]:
    """In a square frame where the columns are numbered, the followed key's column also named
    by its token, whole, over or under that column (issue 38, the chef sentence at 1:1: "5" the
    only name of the column of "soup"; at 4:3 and 16:9 the grid takes the height, or the
    numbers' line the room under it)."""
    from scenes.mobjects.layout import box_of

    if config.frame_width > config.frame_height * 1.01:
        return []
    j = ac.followed_pair(scene.trace).key
    head = getattr(m, "col_label_of", {}).get(j)
    if head is None or getattr(head, "source_text", "") != str(j + 1):
        return []
    cell = next(r for r in m.backgrounds if r.cell_index[1] == j)
    x, grid = cell.get_center()[0], box_of(m.backgrounds)
    token = str(scene.k_tokens[j])
    near = [
        t
        for t in on_screen(scene)
        if getattr(t, "source_text", None) in (token, f"“{token}”")
        and abs(t.get_center()[0] - x) <= max(cell.width, 0.05)
        and (0 <= grid.y0 - t.get_top()[1] <= 0.6 or 0 <= t.get_bottom()[1] - grid.y1 <= 1.2)
    ]
    return [] if near else [f"the followed column {j + 1} not named {token!r} at its column"]


def _followed_row_named_beside(scene, m) -> list[str]:
    """The followed query's row named beside its row, in the inner column of a staggered grid's
    names (issue 38, the chef sentence: "16 it" in the outer column, 120 px at 480p from its
    row, no leader)."""
    q = ac.followed_pair(scene.trace).query
    name = m.row_label_of.get(q)
    if name is None:
        return []
    gap = min(b.get_left()[0] for b in m.backgrounds) - name.get_right()[0]
    if gap > 0.2:
        return [f"the followed row's name {scene.q_tokens[q]!r} stands {gap:.2f} from its row"]
    return []


def caption_in_its_bar(scene) -> list[str]:
    """The caption's page inside its bar, and the grid, its names and its key inside the
    content above it (issue 38, the chef sentence in Chinese at 4:3: a page of three lines at
    the smallest size was 1.02 tall in the slim bar of 0.86, its top 0.06 from the last row's
    name; the texts did not overlap, so the layout check said nothing)."""
    from scenes.mobjects.layout import Box, box_of

    out, bar, r = [], scene.regions.caption, scene.regions
    if len(scene.caption_mob) and not bar.contains(box_of(scene.caption_mob), 0.01):
        out.append(f"the caption's page leaves its bar {bar}: {box_of(scene.caption_mob)}")
    m = scene.matrix
    parts = VGroup(*(p for p in (m.backgrounds, m.row_labels, m.col_labels, m.colorbar) if len(p)))
    between = Box(r.content.x0, bar.y1, r.content.x1, r.title.y0)  # between the two bars
    if not between.contains(box_of(parts), 0.01):
        out.append(f"the grid, its names and key reach into a bar: {box_of(parts)}")
    return out


def _room_left(scene, m) -> list[str]:
    """The grid of squares and its row names take the content's width, or the grid its height
    (with its column names, its key and the numbers' lines under it): at 1:1 the colour key
    upright beside 22 rows took 0.56 of the 7.5 units a grid named on the left has."""
    from scenes.mobjects.layout import box_of

    content, grid = scene.regions.content, box_of(m.backgrounds)
    across = grid.x1 - min(lab.get_left()[0] for lab in m.row_label_of.values())
    parts = [m.backgrounds, m.col_labels, m.colorbar]
    if scene.readout_at == "foot":
        parts.append(scene.readout)
    tall = box_of(VGroup(*(p for p in parts if len(p)))).height
    if across < content.width - ROOM_LEFT and tall < content.height - ROOM_LEFT:
        return [
            f"the grid and its row names take {across:.2f} of the content's width "
            f"{content.width:.2f} and {tall:.2f} of its height {content.height:.2f}"
        ]
    return []


def _badges_on_grid(scene, m) -> list[str]:
    """A number on a badge over the grid of many rows (a review: at 4:3 and 16:9 four badges
    over cells, the named numbers' line had no room): the numbers go on lines beside it."""
    if m.style.squares and len(m.badges):
        return [f"{len(m.badges)} parts of badges over the grid of squares"]
    return []


def overview_table_problems(scene) -> list[str]:
    """Overview among many tokens: a table without the followed query's row or key's column,
    or with its column names upright or numbered."""
    if scene.scene_name != "Overview" or _step(scene) not in TABLE_STEPS:
        return []
    if max(scene.example.n, scene.example.n_keys) <= 8:
        return []
    pair = ac.followed_pair(scene.trace)
    out = []
    if _step(scene) == "masked_note":  # "blocked cells are −∞": one on screen (at 1:1 none was)
        shown = [m.values[k] for m in on_screen(scene, LabelledMatrix) for k in m.cells]
        if not any(v == float("-inf") for v in shown):
            out.append("the masked note names −∞ and no −∞ cell is on screen")
    for m in on_screen(scene, LabelledMatrix):
        if m.get_fill_opacity() == 0 and not len(m.backgrounds):
            continue
        if pair.query not in m.shown_rows:
            out.append(f"a table without the followed query's row ({scene.q_tokens[pair.query]})")
        if pair.key not in m.shown_columns:
            out.append(f"a table without the followed key's column ({scene.k_tokens[pair.key]})")
        if m.upright or m.indexed:
            how = "upright" if m.upright else "numbered"
            out.append(f"a table's column names {how}: {len(m.shown_columns)} columns")
    return out


BADGE_FREE = ("AttentionMatrix", "CausalMask", "Overview")


def badges_over_cells(scene) -> list[str]:
    """In :data:`BADGE_FREE`'s scenes, a kept number's badge over a named cell, a framed one
    (the matrix's ``framed``; AttentionMatrix's reading frames)."""
    from manim import BackgroundRectangle

    from scenes.mobjects.layout import box_of

    if scene.scene_name not in BADGE_FREE:
        return []
    family = [mob for top in scene.mobjects for mob in top.get_family()]
    on = {id(mob) for mob in family}
    # a matrix's parts go on screen, not the matrix: its cells say which one they are
    matrices = {id(m): m for mob in family if (m := getattr(mob, "of_matrix", lambda: None)())}
    out = []
    for m in matrices.values():
        keep = {*m.named, *m.framed}
        if scene.scene_name == "AttentionMatrix" and m is scene.matrix:
            keep |= set(scene.frame_candidates())
        for k, parts in m.badge_of.items():
            badge = next((p for p in parts if isinstance(p, BackgroundRectangle)), None)
            if badge is None or id(badge) not in on:
                continue
            b = box_of(badge)
            hit = [
                c.cell_index
                for c in m.backgrounds
                if c.cell_index != k
                and c.cell_index in keep
                and b.overlaps(box_of(c).inset(0.01), 0.0)
            ]
            if hit:
                out.append(f"the badge of {k} covers {len(hit)} cells, {hit[:3]} …")
    return out
