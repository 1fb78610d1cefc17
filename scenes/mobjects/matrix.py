"""A labelled matrix of trace numbers: token labels on rows and columns, optional heat shading.

Built in small steps, as Manim's own ``Matrix`` is: the cell size from the widest numbers
(:meth:`LabelledMatrix._cell_size`), the label texts (:meth:`_label_texts`), which rows and
columns fit (:func:`_elide`), then the cells, the row labels and the colour bar.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Rectangle, VGroup

from scenes.mobjects.text import Num, ellipsize, label
from scenes.mobjects.theme import SMALL, Theme, diverging, heat, score_limit, text_on

LABEL_WIDTH = 2.2  # row labels longer than this are shortened with "…"
MAX_WHOLE = 40  # rows or columns beyond which no text size fits a frame (1/36 rule)


def _elide(count: int, room: float, step: float) -> list[int | None]:
    """Indices to show when ``count`` items of size ``step`` must fit ``room``: all, or the
    first ones, None (an ellipsis), and the last; in the narrowest room, the first and None."""
    if count <= 1 or count * step <= room + 1e-9:  # one row or column cannot be elided
        return list(range(count))
    slots = max(2, int(room // step))
    if slots == 2:
        return [0, None]
    return list(range(slots - 2)) + [None, count - 1]


@dataclass(frozen=True)
class MatrixStyle:
    """How a :class:`LabelledMatrix` draws its cells.

    Parameters
    ----------
    digits : int
        Decimals of each number.
    size : float
        Font size of numbers and labels (the cells are sized to the widest number).
    heat : bool or {"weights", "scores"}
        ``"weights"`` (or True) shades each cell on the one fixed 0 → 1 attention scale,
        ``"scores"`` on the diverging score scale around 0; False leaves cells plain.
    colorbar : bool
        With ``heat``, a labelled colour bar under the grid (False for small multiples that
        share one).
    cell_pad : float or None
        Room around each number; None: a little more at larger sizes.
    """

    digits: int = 2
    size: float = SMALL
    heat: bool | str = False
    colorbar: bool = True
    cell_pad: float | None = None

    @property
    def scale(self) -> str | None:
        """The colour scale of the cells: "weights", "scores" or None."""
        return "weights" if self.heat is True else (self.heat or None)

    @property
    def pad(self) -> float:
        return self.cell_pad if self.cell_pad is not None else 0.05 + 0.003 * self.size


STYLE_FIELDS = frozenset(f.name for f in fields(MatrixStyle))


@dataclass(frozen=True)
class _Grid:
    """Where the cells go: cell size, the label column's width and which rows and columns are
    shown (None: an ellipsis)."""

    cw: float
    ch: float
    label_w: float
    rows: list
    cols: list

    def x(self, slot: int) -> float:
        return self.label_w + (slot + 0.5) * self.cw

    def y(self, slot: int) -> float:
        return -(slot + 0.5) * self.ch


class LabelledMatrix(VGroup):
    """A grid of :class:`~scenes.mobjects.text.Num` cells with row and column labels.

    Each number is dark or light, whichever contrasts more with its cell. Column labels too
    wide for a cell become their index (and the row labels carry the index); long row labels
    are shortened with "…"; rows and columns beyond ``max_height`` / ``max_width`` are elided
    with ⋮ / … (the first ones, then the last).

    Parameters
    ----------
    values : array_like, shape (m, n)
        The numbers, straight from the trace.
    role : tuple
        The trace array they are (``("weights", 0)`` gives cell roles ``("weights", 0, i, j)``).
    theme : Theme
    row_labels, col_labels : sequence of str
        Token labels (or indices) of the rows and columns.
    row_colors, col_colors : sequence of colours, optional
        One per label; default the theme's text colour.
    max_width, max_height : float, optional
        Room for the whole matrix; rows and columns that do not fit are elided.
    style : MatrixStyle, optional
        How cells are drawn; its fields may also be given as keywords (``digits=3``,
        ``heat=True``, ``size=22``, ``colorbar=False``, ``cell_pad=0.08``).

    Examples
    --------
    .. code-block:: python

        from manim import Scene

        from scenes.mobjects.matrix import LabelledMatrix
        from scenes.mobjects.theme import THEMES

        class WeightsExample(Scene):
            def construct(self):
                theme = THEMES["dark"]
                weights = [[0.7, 0.3], [0.4, 0.6]]
                m = LabelledMatrix(weights, ("weights", 0), theme, ["早", "好"], ["早", "好"],
                                   digits=2, heat=True)
                self.add(m.move_to([0, 0, 0]))
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
        max_width: float | None = None,
        max_height: float | None = None,
        style: MatrixStyle | None = None,
        **style_fields,
    ):
        super().__init__()
        style = _style(style, style_fields)
        values = np.asarray(values, dtype=float)
        m, n = values.shape
        self.shape = (m, n)
        self.theme, self.style = theme, style
        self.values, self.scale = values, style.scale
        self.limit = score_limit(values) if style.scale == "scores" else 1.0
        cw, ch = self._cell_size(values, style)
        row_texts, col_texts = self._label_texts(row_labels, col_labels, cw, style.size)
        if n == 1 and col_texts[0]:  # one column keeps its label (shortened like a row's)
            col_texts = [ellipsize(col_texts[0], LABEL_WIDTH, style.size)]
            cw = max(cw, label(col_texts[0], style.size).width + 0.12)  # and is wide enough
        row_colors = row_colors or [theme.text] * m
        col_colors = col_colors or [theme.text] * n
        row_mobs = [label(t, style.size, row_colors[i]) for i, t in enumerate(row_texts)]
        label_w = (max(r.width for r in row_mobs) + 0.2) if any(row_texts) else 0.1
        grid = self._shown(m, n, cw, ch, label_w, max_width, max_height)
        self.shown_columns = [j for j in grid.cols if j is not None]
        self.shown_rows = [i for i in grid.rows if i is not None]

        self.cells: dict[tuple[int, int], Num] = {}
        self.backgrounds = VGroup()
        self.col_labels = VGroup()
        self.row_labels = VGroup()
        self.row_label_of: dict[int, object] = {}
        self.ellipses = VGroup()
        self._add_columns(grid, role, col_texts, col_colors)
        self._add_row_labels(grid, row_mobs)
        self.numbers = VGroup(*self.cells.values())
        self.colorbar = self._colorbar()
        self.add(
            self.backgrounds,
            self.row_labels,
            self.col_labels,
            self.ellipses,
            self.numbers,
            self.colorbar,
        )

    # -- the steps of building it ---------------------------------------------------------------
    @staticmethod
    def _cell_size(values: np.ndarray, style: MatrixStyle) -> tuple[float, float]:
        """Width and height of a cell: the widest printed number with its padding."""
        pad, size = style.pad, style.size
        probe = [Num(v, (), style.digits, size) for v in _extremes(values)]
        cw = max(p.width for p in probe) + pad * 2
        ch = max(max(p.height for p in probe), 0.26 * size / SMALL) + pad * 1.6
        return cw, ch

    def _label_texts(self, row_labels, col_labels, cw: float, size: float):
        """The row and column texts: the labels, or (when a column label is wider than its
        cell) column indices with the index before each row label; long rows shortened.
        A single column keeps its label (the cell widens to it instead)."""
        col_texts = [str(t) for t in col_labels]
        n = len(col_texts)
        self.indexed = n > 1 and any(label(c, size).width > cw - 0.04 for c in col_texts)
        if self.indexed:
            col_texts = [str(j + 1) for j in range(n)]
            row_texts = [f"{i + 1} {t}" for i, t in enumerate(row_labels)]
        else:
            row_texts = [str(t) for t in row_labels]
        return [ellipsize(t, LABEL_WIDTH, size) for t in row_texts], col_texts

    def _shown(self, m, n, cw, ch, label_w, max_width, max_height) -> _Grid:
        """Which rows and columns fit the room (all when no room is given)."""
        size = self.style.size
        header_h = max(label("1", size).height, 0.2) + 0.2
        bar_h = 0.6 if (self.style.heat and self.style.colorbar) else 0.0  # the colour bar
        cols = _elide(n, (max_width - label_w) if max_width else math.inf, cw)
        rows = _elide(m, (max_height - header_h - bar_h) if max_height else math.inf, ch)
        return _Grid(cw, ch, label_w, rows, cols)

    def _add_columns(self, grid: _Grid, role: tuple, col_texts, col_colors) -> None:
        """Column by column: its label, then its shown cells (an ellipsis for a gap)."""
        size, muted = self.style.size, self.theme.muted
        for slot, j in enumerate(grid.cols):
            x = grid.x(slot)
            if j is None:
                dots = label("…", size, muted).move_to([x, -len(grid.rows) * grid.ch / 2, 0])
                self.ellipses.add(dots)
                continue
            c = label(col_texts[j], size, col_colors[j])
            c.move_to([x, 0.12, 0], aligned_edge=DOWN)
            self.col_labels.add(c)
            for row_slot, i in enumerate(grid.rows):
                if i is not None:
                    self._add_cell(i, j, [x, grid.y(row_slot), 0], grid, role)

    def _add_cell(self, i: int, j: int, at, grid: _Grid, role: tuple) -> None:
        """Cell (i, j): its background (shaded on the style's scale) and its number."""
        theme, value = self.theme, self.values[i, j]
        rect = Rectangle(
            width=grid.cw - 0.04,
            height=grid.ch - 0.04,
            stroke_width=1,
            stroke_color=theme.grid,
            fill_opacity=1,
            fill_color=theme.panel,
        )
        rect.move_to(at)
        ink = theme.text
        if self.scale and np.isfinite(value):
            fill = _fill(self.scale, value, self.limit)
            rect.set_fill(fill)
            ink = text_on(fill, theme)
        rect.cell_index = (i, j)
        self.backgrounds.add(rect)
        cell = Num(value, role + (i, j), self.style.digits, self.style.size, ink)
        self.cells[i, j] = cell.move_to(at)

    def _add_row_labels(self, grid: _Grid, row_mobs) -> None:
        """Each shown row's label, right-aligned left of the grid (⋮ for a gap)."""
        for slot, i in enumerate(grid.rows):
            y = grid.y(slot)
            if i is None:
                dots = label("⋮", self.style.size, self.theme.muted)
                self.ellipses.add(dots.move_to([grid.label_w + len(grid.cols) * grid.cw / 2, y, 0]))
                continue
            r = row_mobs[i]
            r.move_to([grid.label_w - 0.12, y, 0], aligned_edge=RIGHT)
            self.row_labels.add(r)
            self.row_label_of[i] = r

    def _colorbar(self) -> VGroup:
        """The key of the cells' colour scale under the grid (empty without one)."""
        if not (self.scale and self.style.colorbar):
            return VGroup()
        grid = VGroup(*self.backgrounds, *self.ellipses)
        bar = ColorBar(self.theme, self.scale, self.limit, width=max(grid.width, 2.2))
        bar.next_to(grid, DOWN, buff=0.22).align_to(grid, LEFT)
        return bar

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
        above it); at the smallest size, rows and columns that do not fit are elided.
        ``kwargs``: the other parameters of :class:`LabelledMatrix` (colours, style fields)."""
        shape = np.shape(values)
        args = (values, role, theme, row_labels, col_labels)
        # a matrix of a real model (8 × 384) cannot fit whole at any size: elide at once rather
        # than lay out thousands of cells four times
        if max(shape) <= MAX_WHOLE:
            for size in sizes:
                mob = cls(*args, size=size, **kwargs)
                if mob.width <= box.width and mob.height + title_room <= box.height:
                    return mob
        room = dict(max_width=box.width, max_height=box.height - title_room)
        return cls(*args, size=sizes[-1], **room, **kwargs)

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


def _style(style: MatrixStyle | None, overrides: dict) -> MatrixStyle:
    """``style`` (default the plain one) with the fields given as keywords replaced."""
    unknown = set(overrides) - STYLE_FIELDS
    if unknown:
        raise TypeError(f"LabelledMatrix got unexpected keyword(s) {sorted(unknown)}")
    return replace(style or MatrixStyle(), **overrides)


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
