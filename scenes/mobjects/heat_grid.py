"""A head's weights as coloured cells only, on the one fixed 0–1 scale: the small multiples of
HeadGallery and the heads MultiHeadSplit keeps on screen to its last still (the numbers are in
the AttentionMatrix scene; a colour bar stands beside them)."""

from __future__ import annotations

from manim import Rectangle, VGroup

from scenes.mobjects.layout import box_of
from scenes.mobjects.text import clone, label, label_box
from scenes.mobjects.theme import SMALL, heat

MIN_HEAD = 8 / 1080 * 120  # a head drawn is at least 120 px tall and wide at 1080p (8 units)
# a gallery's head in a square frame (issue 38: 136 px read as thumbnails at 1:1): at least
# 160 px, fewer heads drawn where the layer's do not all keep it
GALLERY_HEAD = 8 / 1080 * 160
EDGE_GAP = 0.08  # between a grid and the labels of its rows and columns


def spans(heads) -> str:
    """Head indices as 1-based numbers and runs: [3, 4, 5, 7] → "4–6, 8"."""
    runs: list[list[int]] = []
    for h in sorted(heads):
        if runs and h == runs[-1][-1] + 1:
            runs[-1].append(h)
        else:
            runs.append([h])
    words = [
        f"{r[0] + 1}–{r[-1] + 1}" if len(r) > 2 else ", ".join(str(k + 1) for k in r) for r in runs
    ]
    return ", ".join(words)


class HeatGrid(VGroup):
    """``weights`` as a square grid ``size`` wide (its longer side), each cell the colour of its
    weight; ``weights=None``: ``n`` × ``n`` empty outlined cells. ``cell_rect(i, j)`` is cell
    (i, j)'s square (what a frame around one cell surrounds)."""

    def __init__(self, weights, size: float, theme, n: int | None = None):
        super().__init__()
        m, k = weights.shape if weights is not None else (n, n)
        cell = size / max(m, k)
        self.cell = cell
        self.shape = (m, k)
        # copies of one cell made once (a copy costs a fraction of making a Rectangle: a
        # 24-token layer's nine heads are 5,184 cells, built again for each layout tried)
        first = Rectangle(
            width=cell,
            height=cell,
            stroke_width=0.5 if weights is not None else 1.0,
            stroke_color=theme.background if weights is not None else theme.muted,
            fill_opacity=1 if weights is not None else 0,
        )
        cells = []
        for i in range(m):
            for j in range(k):
                rect = clone(first).move_to([(j + 0.5) * cell, -(i + 0.5) * cell, 0])
                if weights is not None:
                    rect.set_fill(heat(float(weights[i, j])), opacity=1)
                cells.append(rect)
        self.add(*cells)  # at once: Manim's add is quadratic one by one

    def cell_rect(self, i: int, j: int) -> Rectangle:
        return self.submobjects[i * self.shape[1] + j]


def edge_room(rows, cols) -> tuple[float, float]:
    """The room :func:`edge_labels` takes: (at the left, the widest row label; above, one line
    per column label up to two)."""
    widest = max((label_box(t, SMALL)[0] for _, (t, _) in rows), default=0.0)
    line = label_box("Ag", SMALL)[1] + 0.04
    return (widest + EDGE_GAP if rows else 0.0), (min(len(cols), 2) * line + EDGE_GAP)


def edge_labels(grid, rows, cols) -> VGroup:
    """Labels of some rows (at the left of ``grid``) and columns (above it) of a grid of cells
    (anything with ``cell_rect(i, j)``): ``rows`` and ``cols`` are lists of (index, (text,
    colour)), the one that matters most first. Each label lies flat, level with its row or
    over its column (centred, or at the grid's edge); a column label that would touch one
    placed before it goes a line higher. A label that would still touch one is left out,
    never shortened. ``.rows`` and ``.cols``: the indices labelled."""
    out, placed = VGroup(), []
    out.rows, out.cols = [], []
    left = grid.cell_rect(0, 0).get_left()[0]
    top = grid.cell_rect(0, 0).get_top()[1]
    right = grid.cell_rect(0, grid.shape[1] - 1).get_right()[0]
    line = label_box("Ag", SMALL)[1] + 0.04
    for i, (text, color) in rows:
        lab = label(text, SMALL, color)
        y = grid.cell_rect(i, 0).get_center()[1]
        lab.move_to([left - EDGE_GAP - lab.width / 2, y, 0])
        if not any(box_of(lab).overlaps(b, pad=0.02) for b in placed):
            placed.append(box_of(lab))
            out.add(lab)
            out.rows.append(i)
    for j, (text, color) in cols:
        lab = label(text, SMALL, color)
        x = grid.cell_rect(0, j).get_center()[0]  # over its column, within the grid's width
        x = min(max(x, left + lab.width / 2), right - lab.width / 2)
        for k in range(2):  # the first line above the grid, else the second
            lab.move_to([x, top + EDGE_GAP + k * line + lab.height / 2, 0])
            if not any(box_of(lab).overlaps(b, pad=0.04) for b in placed):
                placed.append(box_of(lab))
                out.add(lab)
                out.cols.append(j)
                break
    return out
