"""A labelled matrix of trace numbers: token labels on rows and columns, optional heat shading."""

from __future__ import annotations

import math

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Rectangle, VGroup

from scenes.mobjects.text import Num, ellipsize, label
from scenes.mobjects.theme import SMALL, Theme, diverging, heat, score_limit, text_on

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
    ``heat="weights"`` (or True) colours each cell by the one fixed 0 → 1 attention scale,
    ``heat="scores"`` by the diverging score scale around 0; either adds a labelled colour bar
    under the grid (``colorbar=False`` leaves it out, e.g. for small multiples that share one),
    and each number is dark or light, whichever contrasts more with its cell. Column labels too
    wide for a cell become their index (and the row labels carry the index); long row labels are
    shortened with "…"; rows and columns beyond
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
        heat: bool | str = False,
        colorbar: bool = True,
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
        pad = cell_pad if cell_pad is not None else 0.05 + 0.003 * size  # room to read, not waste
        probe = [Num(v, (), digits, size) for v in _extremes(values)]
        cw = max(p.width for p in probe) + pad * 2
        ch = max(max(p.height for p in probe), 0.26 * size / SMALL) + pad * 1.6
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
        bar_h = 0.6 if (heat and colorbar) else 0.0  # the colour bar under the grid
        shown_rows = _elide(m, (max_height - header_h - bar_h) if max_height else math.inf, ch)
        self.shown_columns = [j for j in shown_cols if j is not None]
        self.shown_rows = [i for i in shown_rows if i is not None]

        self.cells: dict[tuple[int, int], Num] = {}
        self.backgrounds = VGroup()
        self.col_labels = VGroup()
        self.row_labels = VGroup()
        self.row_label_of: dict[int, object] = {}
        self.ellipses = VGroup()
        scale = "weights" if heat is True else (heat or None)
        limit = score_limit(values) if scale == "scores" else 1.0
        self.values, self.scale, self.limit = values, scale, limit
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
                ink = theme.text
                if scale and np.isfinite(values[i, j]):
                    fill = _fill(scale, values[i, j], limit)
                    rect.set_fill(fill)
                    ink = text_on(fill, theme)
                rect.cell_index = (i, j)
                self.backgrounds.add(rect)
                cell = Num(values[i, j], role + (i, j), digits, size, ink)
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
        self.colorbar = VGroup()
        if scale and colorbar:
            grid = VGroup(*self.backgrounds, *self.ellipses)
            self.colorbar = ColorBar(theme, scale, limit, width=max(grid.width, 2.2))
            self.colorbar.next_to(grid, DOWN, buff=0.22).align_to(grid, LEFT)
        self.add(
            self.backgrounds,
            self.row_labels,
            self.col_labels,
            self.ellipses,
            self.numbers,
            self.colorbar,
        )

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
        """Everything but the numbers: backgrounds, labels, ellipses, the colour bar."""
        return VGroup(
            self.backgrounds, self.row_labels, self.col_labels, self.ellipses, self.colorbar
        )


def _fill(scale: str, value: float, limit: float):
    return heat(value) if scale == "weights" else diverging(value, limit)


class ColorBar(VGroup):
    """The key of a colour scale: a horizontal strip with its end (and middle) values.

    ``scale="weights"``: the fixed 0 → 1 attention scale; ``"scores"``: −limit … 0 … +limit.
    """

    def __init__(
        self,
        theme: Theme,
        scale: str = "weights",
        limit: float = 1.0,
        width=2.4,
        height=0.16,
        steps: int = 40,
    ):
        super().__init__()
        lo, hi = (0.0, 1.0) if scale == "weights" else (-limit, limit)
        strip = VGroup()
        for k in range(steps):
            v = lo + (hi - lo) * (k + 0.5) / steps
            strip.add(
                Rectangle(
                    width=width / steps * 1.02,
                    height=height,
                    stroke_width=0,
                    fill_opacity=1,
                    fill_color=_fill(scale, v, limit),
                ).move_to([(k + 0.5) * width / steps, 0, 0])
            )
        outline = Rectangle(
            width=width, height=height, stroke_width=1, stroke_color=theme.muted
        ).move_to([width / 2, 0, 0])
        ticks = VGroup()
        for frac, v in ((0.0, lo), (0.5, (lo + hi) / 2), (1.0, hi)):
            t = label(_tick_text(v), SMALL, theme.muted)
            t.next_to([frac * width, -height / 2, 0], DOWN, buff=0.06)
            ticks.add(t)
        self.strip, self.ticks = strip, ticks
        self.add(strip, outline, ticks)


def _tick_text(v: float) -> str:
    if v == 0:
        return "0"
    s = f"{v:g}" if abs(v) >= 1e-3 and abs(v) < 1e5 else f"{v:.0e}"
    return s.replace("-", "−")


def _extremes(values: np.ndarray) -> list[float]:
    """The few values whose printed form is widest (for sizing the cells without making all)."""
    flat = values.ravel()
    picks = {float(flat[np.argmax(flat)]), float(flat[np.argmin(flat)])}
    finite = flat[np.isfinite(flat)]
    if finite.size:
        picks |= {float(finite.max()), float(finite.min())}
    return sorted(picks)


def matrix_title(text, matrix: VGroup, theme: Theme, size=SMALL):
    """A heading above ``matrix``, left-aligned: text, or a ready mobject (e.g. typeset)."""
    t = label(text, size, theme.muted) if isinstance(text, str) else text
    t.next_to(matrix, UP, buff=0.15)
    t.align_to(matrix, LEFT)
    return t


def typeset_headers(table: LabelledMatrix, exprs) -> None:
    """Replace a matrix's plain column headers by typeset ones (``exprs[j]``, Typst math such
    as ``"x_1"``: the project's own strings, never labels), in place; indexed headers stay."""
    from scenes.mobjects.math import math

    if table.indexed:
        return
    for slot, (mob, j) in enumerate(zip(list(table.col_labels), table.shown_columns)):
        new = math(exprs[j], 0.8 * getattr(mob, "font_size", SMALL))
        new.set_color(mob.get_color()).move_to(mob).align_to(mob, DOWN)
        table.col_labels.submobjects[slot] = new


def math_title(expr: str, matrix, theme, size=SMALL):
    """A typeset title (Typst math ``expr``) above a matrix, left-aligned with it."""
    from scenes.mobjects.math import math

    t = math(expr, size, theme.muted)
    t.next_to(matrix, UP, buff=0.15)
    t.align_to(matrix, LEFT)
    return t
