"""A labelled matrix of trace numbers: token labels on rows and columns, optional heat shading."""

from __future__ import annotations

import math

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Rectangle, VGroup, interpolate_color

from scenes.mobjects.text import Num, ellipsize, label
from scenes.mobjects.theme import SMALL, Theme

LABEL_WIDTH = 2.2  # row labels longer than this are shortened with "…"


def _elide(count: int, room: float, step: float) -> list[int | None]:
    """Indices to show when ``count`` items of size ``step`` must fit ``room``: all, or the
    first ones, None (an ellipsis), and the last; in the narrowest room, the first and None."""
    if count * step <= room + 1e-9:
        return list(range(count))
    slots = max(2, int(room // step))
    if slots == 2:
        return [0, None]
    return list(range(slots - 2)) + [None, count - 1]


MAX_WHOLE = 40  # rows or columns beyond which no text size fits a frame (1/36 rule)


class LabelledMatrix(VGroup):
    """A grid of :class:`Num` cells with row and column labels.

    ``role`` names the trace array (e.g. ``("weights", 0)`` → cell roles ``("weights", 0, i, j)``).
    ``heat`` shades each cell from the theme's low to high colour, from the matrix's smallest to
    its largest finite value. Column labels too wide for a cell become their index (and the row
    labels carry the index); long row labels are shortened with "…"; rows and columns beyond
    ``max_height`` / ``max_width`` are elided with ⋮ / … (first ones, then the last).
    """

    def __init__(
        self,
        values,
        role: tuple,
        theme: Theme,
        row_labels,
        col_labels,
        row_colors=None,
        col_colors=None,
        digits: int = 2,
        size: float = SMALL,
        heat: bool = False,
        cell_pad: float | None = None,
        max_width: float | None = None,
        max_height: float | None = None,
    ):
        super().__init__()
        values = np.asarray(values, dtype=float)
        m, n = values.shape
        self.shape = (m, n)
        row_colors = row_colors or [theme.text] * m
        col_colors = col_colors or [theme.text] * n
        pad = cell_pad if cell_pad is not None else 0.06 + 0.004 * size
        probe = [Num(v, (), digits, size) for v in _extremes(values)]
        cw = max(p.width for p in probe) + pad * 2
        ch = max(max(p.height for p in probe), 0.26 * size / SMALL) + pad * 1.6
        self.cell_size = (cw, ch)
        col_texts = [str(t) for t in col_labels]
        col_mobs = [label(t, size) for t in col_texts]
        self.indexed = n > 1 and any(c.width > cw - 0.04 for c in col_mobs)
        if self.indexed:
            col_texts = [str(j + 1) for j in range(n)]
            row_texts = [f"{i + 1} {t}" for i, t in enumerate(row_labels)]
        else:
            row_texts = [str(t) for t in row_labels]
        row_texts = [ellipsize(t, LABEL_WIDTH, size) for t in row_texts]
        row_mobs = [label(t, size, row_colors[i]) for i, t in enumerate(row_texts)]
        label_w = (max(r.width for r in row_mobs) + 0.2) if any(row_texts) else 0.1
        header_h = max(label("1", size).height, 0.2) + 0.2

        shown_cols = _elide(n, (max_width - label_w) if max_width else math.inf, cw)
        shown_rows = _elide(m, (max_height - header_h) if max_height else math.inf, ch)
        self.shown_columns = [j for j in shown_cols if j is not None]
        self.shown_rows = [i for i in shown_rows if i is not None]
        self.elided = len(self.shown_columns) < n or len(self.shown_rows) < m

        self.cells: dict[tuple[int, int], Num] = {}
        self.backgrounds = VGroup()
        self.col_labels = VGroup()
        self.row_labels = VGroup()
        self.row_label_of: dict[int, object] = {}
        self.ellipses = VGroup()
        finite = values[np.isfinite(values)]
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        ys = {i: -(slot + 0.5) * ch for slot, i in enumerate(shown_rows)}
        for slot, j in enumerate(shown_cols):
            x = label_w + (slot + 0.5) * cw
            if j is None:
                self.ellipses.add(
                    label("…", size, theme.muted).move_to([x, -len(shown_rows) * ch / 2, 0])
                )
                continue
            c = label(col_texts[j], size, col_colors[j])
            c.move_to([x, 0.12, 0], aligned_edge=DOWN)
            self.col_labels.add(c)
            for i, y in ys.items():
                if i is None:
                    continue
                rect = Rectangle(
                    width=cw - 0.04,
                    height=ch - 0.04,
                    stroke_width=1,
                    stroke_color=theme.grid,
                    fill_opacity=1,
                    fill_color=theme.panel,
                )
                rect.move_to([x, y, 0])
                if heat and np.isfinite(values[i, j]):
                    t = 0.5 if hi - lo < 1e-12 else (values[i, j] - lo) / (hi - lo)
                    rect.set_fill(interpolate_color(theme.heat_low, theme.heat_high, float(t)))
                rect.cell_index = (i, j)
                self.backgrounds.add(rect)
                cell = Num(values[i, j], role + (i, j), digits, size, theme.text)
                self.cells[i, j] = cell.move_to([x, y, 0])
        for slot, i in enumerate(shown_rows):
            y = -(slot + 0.5) * ch
            if i is None:
                self.ellipses.add(
                    label("⋮", size, theme.muted).move_to(
                        [label_w + len(shown_cols) * cw / 2, y, 0]
                    )
                )
                continue
            r = row_mobs[i]
            r.move_to([label_w - 0.12, y, 0], aligned_edge=RIGHT)
            self.row_labels.add(r)
            self.row_label_of[i] = r
        self.numbers = VGroup(*self.cells.values())
        self.add(self.backgrounds, self.row_labels, self.col_labels, self.ellipses, self.numbers)

    @classmethod
    def fitted(
        cls,
        values,
        role,
        theme,
        row_labels,
        col_labels,
        box,
        sizes=(32, 28, 25, 22),
        title_room: float = 0.45,
        **kwargs,
    ) -> LabelledMatrix:
        """The largest of ``sizes`` at which the whole matrix fits ``box`` (less ``title_room``
        above it); at the smallest size, rows and columns that do not fit are elided."""
        shape = np.shape(values)
        # a matrix of a real model (8 × 384) cannot fit whole at any size: elide at once rather
        # than lay out thousands of cells four times
        if max(shape) <= MAX_WHOLE:
            for size in sizes:
                mob = cls(values, role, theme, row_labels, col_labels, size=size, **kwargs)
                if mob.width <= box.width and mob.height + title_room <= box.height:
                    return mob
        return cls(
            values,
            role,
            theme,
            row_labels,
            col_labels,
            size=sizes[-1],
            max_width=box.width,
            max_height=box.height - title_room,
            **kwargs,
        )

    def cell(self, i: int, j: int) -> Num | None:
        """The number shown in cell (i, j), or None when that row or column is elided."""
        return self.cells.get((i, j))

    def cell_rect(self, i: int, j: int):
        for r in self.backgrounds:
            if r.cell_index == (i, j):
                return r
        return None

    def place_row_notes(self, notes, buff: float = 0.2) -> None:
        """Put one note per shown row (e.g. its sum) right of the matrix, level with the row."""
        right = max(m.get_right()[0] for m in [*self.backgrounds, *self.ellipses])
        for i, note in zip(self.shown_rows, notes):
            row = self.cell_rect(i, self.shown_columns[0])
            note.move_to([right + buff + note.width / 2, row.get_center()[1], 0])

    def row_group(self, i: int) -> VGroup:
        return VGroup(*(self.cells[i, j] for j in self.shown_columns if (i, j) in self.cells))

    def frame_parts(self) -> VGroup:
        """Everything but the numbers: backgrounds, labels, ellipses."""
        return VGroup(self.backgrounds, self.row_labels, self.col_labels, self.ellipses)


def _extremes(values: np.ndarray) -> list[float]:
    """The few values whose printed form is widest (for sizing the cells without making all)."""
    flat = values.ravel()
    picks = {float(flat[np.argmax(flat)]), float(flat[np.argmin(flat)])}
    finite = flat[np.isfinite(flat)]
    if finite.size:
        picks |= {float(finite.max()), float(finite.min())}
    return sorted(picks)


def matrix_title(text: str, matrix: VGroup, theme: Theme, size=SMALL):
    t = label(text, size, theme.muted)
    t.next_to(matrix, UP, buff=0.15)
    t.align_to(matrix, LEFT)
    return t
