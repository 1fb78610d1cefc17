"""A labelled matrix of trace numbers: token labels on rows and columns, optional heat shading."""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Rectangle, VGroup, interpolate_color

from scenes.text import Num, label
from scenes.theme import SMALL, Theme


class LabelledMatrix(VGroup):
    """A grid of :class:`Num` cells with row and column labels.

    ``role`` names the trace array (e.g. ``("weights", 0)`` → cell roles ``("weights", 0, i, j)``).
    ``heat`` shades each cell from the theme's low to high colour, from the matrix's smallest
    to its largest finite value.
    Column labels too wide for a cell become their index (and the row labels carry the index),
    and when the columns do not fit ``max_width`` the middle ones are elided with "…".
    """

    def __init__(self, values, role: tuple, theme: Theme, row_labels, col_labels,
                 row_colors=None, col_colors=None, digits: int = 2, size: float = SMALL,
                 heat: bool = False, cell_pad: float = 0.14, max_width: float | None = None):
        super().__init__()
        values = np.asarray(values, dtype=float)
        m, n = values.shape
        self.shape = (m, n)
        row_colors = row_colors or [theme.text] * m
        col_colors = col_colors or [theme.text] * n
        cells = {(i, j): Num(values[i, j], role + (i, j), digits, size, theme.text)
                 for i in range(m) for j in range(n)}
        finite = values[np.isfinite(values)]
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        cw = max(c.width for c in cells.values()) + cell_pad * 2
        ch = max(max(c.height for c in cells.values()), 0.26) + cell_pad * 1.6
        self.cell_size = (cw, ch)
        col_mobs = [label(t, size, col_colors[j]) for j, t in enumerate(col_labels)]
        self.indexed = n > 1 and any(c.width > cw - 0.04 for c in col_mobs)
        if self.indexed:
            col_mobs = [label(str(j + 1), size, col_colors[j]) for j in range(n)]
            row_texts = [f"{i + 1} {t}" for i, t in enumerate(row_labels)]
        else:
            row_texts = list(row_labels)
        row_mobs = [label(t, size, row_colors[i]) for i, t in enumerate(row_texts)]
        label_w = max(r.width for r in row_mobs) + 0.2

        shown: list[int | None] = list(range(n))
        if max_width is not None and label_w + n * cw > max_width:
            fit = max(3, int((max_width - label_w) // cw))
            shown = list(range(fit - 2)) + [None, n - 1]
        self.shown_columns = [j for j in shown if j is not None]

        self.cells: dict[tuple[int, int], Num] = {}
        self.backgrounds = VGroup()
        self.col_labels = VGroup()
        self.ellipses = VGroup()
        for slot, j in enumerate(shown):
            x = label_w + (slot + 0.5) * cw
            if j is None:
                dots = label("…", size, theme.muted).move_to([x, -m * ch / 2, 0])
                self.ellipses.add(dots)
                continue
            c = col_mobs[j]
            c.move_to([x, 0.12, 0], aligned_edge=DOWN)
            self.col_labels.add(c)
            for i in range(m):
                y = -(i + 0.5) * ch
                rect = Rectangle(width=cw - 0.04, height=ch - 0.04, stroke_width=1,
                                 stroke_color=theme.grid, fill_opacity=1, fill_color=theme.panel)
                rect.move_to([x, y, 0])
                if heat and np.isfinite(values[i, j]):  # shade relative to the matrix's range
                    t = 0.5 if hi - lo < 1e-12 else (values[i, j] - lo) / (hi - lo)
                    rect.set_fill(interpolate_color(theme.heat_low, theme.heat_high, float(t)))
                rect.cell_index = (i, j)
                self.backgrounds.add(rect)
                cells[i, j].move_to([x, y, 0])
                self.cells[i, j] = cells[i, j]
        for i, r in enumerate(row_mobs):
            r.move_to([label_w - 0.12, -(i + 0.5) * ch, 0], aligned_edge=RIGHT)
        self.row_labels = VGroup(*row_mobs)
        self.numbers = VGroup(*self.cells.values())
        self.add(self.backgrounds, self.row_labels, self.col_labels, self.ellipses, self.numbers)

    @classmethod
    def fitted(cls, values, role, theme, row_labels, col_labels, box, sizes=(32, 28, 25, 22),
               title_room: float = 0.45, **kwargs) -> "LabelledMatrix":
        """The largest of ``sizes`` at which the matrix fits ``box`` (columns elided at the
        smallest size if even that is too wide)."""
        for size in sizes:
            mob = cls(values, role, theme, row_labels, col_labels, size=size, **kwargs)
            if mob.width <= box.width and mob.height + title_room <= box.height:
                return mob
        return cls(values, role, theme, row_labels, col_labels, size=sizes[-1],
                   max_width=box.width, **kwargs)

    def cell(self, i: int, j: int) -> Num | None:
        """The number shown in cell (i, j), or None when that column is elided."""
        return self.cells.get((i, j))

    def cell_rect(self, i: int, j: int):
        for r in self.backgrounds:
            if r.cell_index == (i, j):
                return r
        return None

    def row_group(self, i: int) -> VGroup:
        return VGroup(*(self.cells[i, j] for j in self.shown_columns))

    def frame_parts(self) -> VGroup:
        """Everything but the numbers: backgrounds, labels, ellipses."""
        return VGroup(self.backgrounds, self.row_labels, self.col_labels, self.ellipses)


def matrix_title(text: str, matrix: VGroup, theme: Theme, size=SMALL):
    t = label(text, size, theme.muted)
    t.next_to(matrix, UP, buff=0.15)
    t.align_to(matrix, LEFT)
    return t


__all__ = ["LabelledMatrix", "matrix_title", "RIGHT", "LEFT"]
