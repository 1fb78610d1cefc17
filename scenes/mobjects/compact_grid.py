"""A matrix too large for its numbers, drawn as a grid of squares (:class:`CompactGrid`), and
:func:`fitted_grid`, which picks it or a :class:`LabelledMatrix` for a box; with the helpers that
move such grids' cells in a scene (whole blocks where a grid is drawn by colour), frame a row,
and check that a matrix fits its box.

Scenes reach :func:`fitted_grid` through ``self.kit.grid`` (:mod:`scenes.kit.drawing`).
"""

from __future__ import annotations

import numpy as np
from manim import (
    LEFT,
    Rectangle,
    ReplacementTransform,
    Square,
    Transform,
    TransformFromCopy,
    VGroup,
    VMobject,
)

from scenes.mobjects.fades import FadeIn
from scenes.mobjects.grid_labels import fit_label
from scenes.mobjects.layout import Box, box_of
from scenes.mobjects.matrix import LabelledMatrix
from scenes.mobjects.text import clone, label, text_width
from scenes.mobjects.theme import SMALL, diverging, heat, score_limit

ROW_LABEL_CELL = 0.36  # the smallest cell (scene units) beside which a row label fits
MAX_SQUARES = (
    4096  # beyond this many cells a grid is drawn by colour (a mobject a cell is too slow)
)
SHADES = 64  # the colours of such a grid: its scale in 64 steps
MIN_SQUARE = 0.06  # a cell (scene units) below which a square no longer reads
STRIPES = 32  # columns from which a grid too narrow for squares is drawn as stripes of colour


class CompactGrid(VGroup):
    """A matrix too large for its numbers at the minimum text size, drawn as a grid of squares:
    each cell's square fills it in the colour of its value on the matrix's scale (a weight's on
    the 0 → 1 one, any other value's on the diverging one; issue 38: as areas, small values were
    specks), as :class:`LabelledMatrix`'s squares do, and every row labelled. It offers the
    parts of :class:`LabelledMatrix` the scene moves (cells, rows, backgrounds, frame parts), so
    a step animates either the same way."""

    compact = True
    indexed = False

    def __init__(
        self,
        values,
        theme,
        row_labels,
        cell: float,
        scale="values",
        row_colors=None,
        label_width: float = 2.2,
        role: tuple = (),
        cell_height: float | None = None,
        limit: float | None = None,
    ):
        super().__init__()
        values = np.asarray(values, dtype=float)
        m, n = values.shape
        self.shape = (m, n)
        self.shown_rows, self.shown_columns = list(range(m)), list(range(n))
        # one scale for matrices shown together (Q, K and V): the same value, the same square
        limit = 1.0 if scale == "weights" else (limit or score_limit(values))
        self.cells, self.shaded, self.cell_size = {}, None, cell
        self.cell_height = cell_height or cell
        if m * n > MAX_SQUARES or cell < MIN_SQUARE:  # too many, or too small to see a square
            backs = self._heatmap(values, theme, cell, scale, limit)
        else:
            # copies of two squares made once: a copy costs a quarter of making a Square (and
            # a clone, not Manim's deep copy, a fraction of that)
            back0 = Square(cell * 0.94, stroke_color=theme.grid, stroke_width=1)
            back0.set_fill(theme.panel, opacity=1)
            dot0 = Square(1.0, stroke_width=0)
            backs = []
            for i in range(m):
                for j in range(n):
                    back = clone(back0).move_to([j * cell, -i * cell, 0])
                    back.cell_index = (i, j)
                    backs.append(back)
                    finite = bool(np.isfinite(values[i, j]))  # a −∞ (masked): no square
                    v = values[i, j] if finite else 0.0
                    color = heat(v) if scale == "weights" else diverging(v, limit)
                    dot = clone(dot0).scale(cell * 0.86).set_fill(color, opacity=float(finite))
                    dot.role = (*role, i, j)  # where its value comes from, as a Num's
                    self.cells[i, j] = dot.move_to(back)
        self.backgrounds = VGroup(*backs)  # added at once: Manim's add is quadratic one by one
        self.numbers = VGroup(*self.cells.values())
        self.row_labels, self.row_label_of = VGroup(), {}
        size = SMALL  # the minimum text size: labels never shrink below it
        for i, text in enumerate(row_labels):
            if not text:
                continue
            color = row_colors[i] if row_colors else theme.text
            lab = label(fit_label(text, label_width, size), size, color)  # the followed: whole
            lab.next_to(self.cell_rect(i, 0), LEFT, buff=0.08)
            self.row_labels.add(lab)
            self.row_label_of[i] = lab
        self.col_labels, self.ellipses, self.colorbar = VGroup(), VGroup(), VGroup()
        self.add(self.backgrounds, *([self.shaded] if self.shaded else []))
        self.add(self.numbers, self.row_labels)

    def _heatmap(self, values, theme, cell: float, scale: str, limit: float) -> list:
        """A grid too large for a mobject a cell (a trained layer's 384 × 384 W_O): every cell a
        full square of its colour, the squares of one colour (the scale in SHADES steps) drawn
        as one shape; each row's frame behind them. Returns the frames."""
        m, n = values.shape
        finite = np.where(np.isfinite(values), values, 0.0)
        if scale == "weights":
            t = np.clip(finite, 0.0, 1.0)
        else:
            t = np.clip(0.5 + 0.5 * finite / limit, 0.0, 1.0)
        shade = np.rint(t * (SHADES - 1)).astype(int)
        self.shaded = VGroup()
        side, tall = cell * 0.94, self.cell_height * 0.94  # a wide matrix: cells taller
        for k in np.unique(shade):
            i, j = np.nonzero(shade == k)
            level = k / (SHADES - 1)
            color = (
                heat(level) if scale == "weights" else diverging((level - 0.5) * 2 * limit, limit)
            )
            squares = VMobject(stroke_width=0).set_fill(color, opacity=1)
            squares.set_points(_square_paths(j * cell, -i * self.cell_height, side, tall))
            self.shaded.add(squares)
        backs = []
        for i in range(m):
            back = Rectangle(width=n * cell, height=self.cell_height, stroke_width=0)
            back.set_fill(theme.panel, opacity=1)
            back.move_to([(n - 1) * cell / 2, -i * self.cell_height, 0])
            back.cell_index = (i, 0)
            backs.append(back)
        return backs

    @classmethod
    def fitted(cls, values, theme, row_labels, box: Box, title_room=0.45, **kw):
        """As large as fits ``box`` (less ``title_room``), cells at most 0.4 units."""
        m, n = np.shape(values)
        tall = (box.height - title_room) / m
        widest = min(max((text_width(t, SMALL) for t in row_labels if t), default=0.0), 2.2)
        # labels shortened (never below 0.9) before the cells shrink below a label's height
        label_width = min(widest, max(0.9, box.width - n * ROW_LABEL_CELL - 0.15))
        room = label_width + 0.15 if widest else 0.0
        cell = min((box.width - room) / n, tall, 0.4)
        # many columns (a head's 32 or 64, a layer's 384): drawn by colour, rows as tall as fit
        wide = n >= STRIPES and (box.width - room) / n < MIN_SQUARE < tall
        if wide and min(tall, 0.4) >= ROW_LABEL_CELL:  # rows labelled, columns thin stripes
            kw["cell_height"] = min(tall, 0.4)
        elif cell < ROW_LABEL_CELL:  # too small to label a row: the squares take the room
            row_labels, cell = [""] * m, min(box.width / n, tall, 0.4)
            if n >= STRIPES and box.width / n < MIN_SQUARE < tall:
                kw["cell_height"] = min(tall, 0.4)
        return cls(values, theme, row_labels, max(cell, 1e-3), label_width=label_width, **kw)

    def cell(self, i: int, j: int):
        return self.cells.get((i, j))

    def columns_box(self, j0: int, j1: int) -> Box:
        """The box of columns j0 … j1 − 1 over every row."""
        left = self.backgrounds[0].get_left()[0] if self.shaded is not None else None
        if left is None:
            corners = [(i, j) for i in (0, self.shape[0] - 1) for j in (j0, j1 - 1)]
            return bounds([self.cell_rect(i, j) for i, j in corners])
        top, bottom = self.backgrounds[0].get_top()[1], self.backgrounds[-1].get_bottom()[1]
        return Box(left + j0 * self.cell_size, bottom, left + j1 * self.cell_size, top)

    def cell_rect(self, i: int, j: int):
        if self.shaded is not None:  # one frame a row
            return self.backgrounds[i]
        return self.backgrounds[i * self.shape[1] + j]

    def row_group(self, i: int) -> VGroup:
        if self.shaded is not None:
            return VGroup(self.backgrounds[i])
        return VGroup(*(self.cells[i, j] for j in range(self.shape[1])))

    def frame_parts(self) -> VGroup:
        return VGroup(self.backgrounds, self.row_labels)


def cells_from(pairs) -> list:
    """Each (source, cell) pair: the cell flies in from a copy of its source, or fades in where
    there is none. One animation for all of them (cell for cell, as many apart): a scene adds
    each animation's mobject on its own, which costs quadratic time over thousands of cells."""
    moved = [(a, b) for a, b in pairs if a is not None]
    new = [b for a, b in pairs if a is None]
    out = []
    if moved:
        out.append(
            TransformFromCopy(VGroup(*(a for a, _ in moved)), VGroup(*(b for _, b in moved)))
        )
    if new:
        out.append(FadeIn(VGroup(*new)))
    return out


def block_into(m, frame) -> Transform:
    """A copy of matrix ``m``'s cells squeezed into ``frame`` (a block of a grid drawn by
    colour, which has no cell of its own to fly to); the copy leaves when it lands."""
    ink = VGroup(m.backgrounds, m.shaded) if is_shaded(m) else m.numbers
    ghost = ink.copy()
    target = ghost.copy().stretch_to_fit_width(frame.width).stretch_to_fit_height(frame.height)
    return Transform(ghost, target.move_to(frame), remover=True)


def is_shaded(m) -> bool:
    """Whether ``m`` is a grid drawn by colour (no mobject a cell)."""
    return getattr(m, "shaded", None) is not None


def block_from(frame, ink) -> ReplacementTransform:
    """``ink`` (a grid drawn by colour) flies out of ``frame``, its block in a larger grid."""
    ghost = ink.copy().stretch_to_fit_width(frame.width).stretch_to_fit_height(frame.height)
    return ReplacementTransform(ghost.move_to(frame), ink)


def row_and(row: VGroup, numbers: VGroup) -> VGroup:
    """What moves into an output row: the concatenation's row with W_O's numbers (the row
    alone where W_O is drawn by colour, with no mobject a cell)."""
    return VGroup(row, numbers).copy() if len(numbers) else row.copy()


def _square_paths(xs, ys, side: float, tall: float | None = None) -> np.ndarray:
    """The Bézier points of squares of ``side`` (rectangles ``tall`` high) centred at (xs, ys):
    four straight cubic curves each, one closed sub-path a cell."""
    h, v = side / 2, (tall or side) / 2
    corners = np.array([[-h, v], [h, v], [h, -v], [-h, -v], [-h, v]])  # clockwise, closed
    thirds = np.array([0.0, 1 / 3, 2 / 3, 1.0])
    a, b = corners[:-1], corners[1:]
    edge = a[:, None, :] + thirds[None, :, None] * (b - a)[:, None, :]  # (4 edges, 4 points, 2)
    pts = np.asarray(xs, float)[:, None, None] * [1, 0] + np.asarray(ys, float)[:, None, None] * [
        0,
        1,
    ]
    xy = (pts + edge.reshape(1, 16, 2)).reshape(-1, 2)
    return np.column_stack([xy, np.zeros(len(xy))])


def fitted_grid(
    values, role, theme, rows, cols, box: Box, scale="values", compact_room=None, limit=None, **kw
):
    """The matrix in ``box``: with its numbers where all of them fit at the minimum size, else
    (never hiding a row or a column) as a :class:`CompactGrid` of squares (on the scale of
    ``limit``, default its own values')."""
    m = LabelledMatrix.fitted(values, role, theme, rows, cols, box, **kw)
    if m.shown_rows == list(range(m.shape[0])) and m.shown_columns == list(range(m.shape[1])):
        return m
    return CompactGrid.fitted(
        values,
        theme,
        rows,
        box,
        title_room=compact_room or kw.get("title_room", 0.45),
        scale=scale,
        row_colors=kw.get("row_colors"),
        role=role,
        limit=limit,
    )


def fits(m: LabelledMatrix, box: Box) -> bool:
    """Whether ``m`` (with its name above) lies inside ``box``, no column elided (rows of a long
    sequence may be)."""
    whole = VGroup(m, m.name_mob) if hasattr(m, "name_mob") else m
    return len(m.shown_columns) == m.shape[1] and box.contains(box_of(whole), tol=1e-3)


def bounds(mobs) -> Box:
    boxes = [box_of(m) for m in mobs]
    return Box(
        min(b.x0 for b in boxes),
        min(b.y0 for b in boxes),
        max(b.x1 for b in boxes),
        max(b.y1 for b in boxes),
    )


def row_highlight(m: LabelledMatrix, i: int, theme) -> Rectangle:
    rects = [r for r in m.backgrounds if r.cell_index[0] == i]
    b = bounds(rects)
    rect = Rectangle(width=b.width + 0.08, height=b.height + 0.08, stroke_color=theme.accent)
    rect.set_stroke(width=3)
    rect.move_to(b.center)
    return rect
