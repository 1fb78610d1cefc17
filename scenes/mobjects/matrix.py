"""A labelled matrix of trace numbers: token labels on rows and columns, optional heat shading.

Built in small steps, as Manim's own ``Matrix`` is: the cell size from the widest numbers
(:meth:`LabelledMatrix._cell_size`), the label texts (:meth:`_label_texts`), which rows and
columns fit (:func:`scenes.mobjects.elision.elide`), then the cells, the row labels and the
colour bar.
"""

from __future__ import annotations

import itertools
import math
import weakref
from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, Rectangle, VGroup

from scenes.mobjects.badges import place_badges
from scenes.mobjects.colour_bar import (
    BAR_GAP,
    SPLIT_BAR_GAP,
    ColorBar,
    scale_fill,
    upright_bar,
)
from scenes.mobjects.colour_bar import math_title as math_title  # re-exported: the scenes'
from scenes.mobjects.colour_bar import matrix_title as matrix_title  # imports stay
from scenes.mobjects.colour_bar import typeset_headers as typeset_headers
from scenes.mobjects.elision import ElidedCellError, elide
from scenes.mobjects.grid_labels import (
    LABEL_GAP,
    LABEL_WIDTH,
    ROW_NOTE_ROOM,
    STAGGER_GAP,
    TIER_GAP,
    fit_label,
    grid_of_squares,
    square_label_texts,
    stand_up,
    tier_height,
    too_wide,
)
from scenes.mobjects.matrix_style import MatrixStyle, style_of, style_part
from scenes.mobjects.text import Num, clone, ellipsize, label, label_box, label_reach, shown
from scenes.mobjects.text_line import ink_level, on_baseline
from scenes.mobjects.theme import SMALL, Theme, score_limit, text_on
from scenes.mobjects.token_text import Followed

MAX_WHOLE = 40  # rows or columns beyond which no text size fits a frame (1/36 rule)


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


def _outer_rows(style, keep_rows) -> int:
    """Which rows a staggered grid names in its outer column: the odd ones (1), or the even
    ones (0) where the first kept row (the followed query's) is odd, its name beside its row
    (issue 38: "16 it" stood in the outer column, 120 px at 480p from its row)."""
    return 1 - int(keep_rows[0]) % 2 if style.stagger and len(keep_rows) else 1


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
        ``heat=True``, ``size=22``, ``colorbar=False``, ``cell_pad=0.08``, ``squares=0.3``).
    named : iterable of (i, j)
        On a grid of squares, the cells that keep their numbers (those a caption names); their
        rows are never elided.
    keep_rows, keep_cols : iterable of int
        Rows and columns never elided (the row a step follows, its largest weight's column),
        shown between ellipses.
    framed : iterable of (i, j)
        On a grid of squares, the cells a step will frame (:meth:`highlight`): no badge's
        number goes under such a frame's stroke.
    last_column : bool
        Elided, the last column is shown (False: only where ``keep_cols`` wants it).

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
        named=(),
        keep_rows=(),
        keep_cols=(),
        framed=(),
        last_column: bool = True,
        **style_fields,
    ):
        super().__init__()
        style = style_of(style, style_fields)
        values = np.asarray(values, dtype=float)
        m, n = values.shape
        self.shape = (m, n)
        self.theme, self.style, self.last_column = theme, style, last_column
        # a grid of squares always has a scale: plain numbers (scores, vectors) take the
        # diverging one around 0
        self.values, self.scale = values, style.scale or ("scores" if style.squares else None)
        self.limit = score_limit(values) if self.scale == "scores" else 1.0
        # the cells a caption names, the most wanted first: their rows and columns are kept
        self.named_cells = list(dict.fromkeys((int(i), int(j)) for i, j in named))
        self.named = set(self.named_cells)
        self.framed = [(int(i), int(j)) for i, j in framed]  # the badges keep clear of them
        self.outer = _outer_rows(style, keep_rows)
        cw, ch, row_texts, col_texts = self._cells_and_texts(row_labels, col_labels)
        self.header_texts = col_texts  # upright, as tall as the longest: the rows left fit under
        self._row_colors, self._cell_dims = row_colors or [theme.text] * m, (cw, ch)
        col_colors = col_colors or [theme.text] * n
        room = (max_width, max_height, keep_rows, keep_cols)
        grid, row_mobs, col_texts = self._grid(row_labels, col_labels, row_texts, col_texts, room)
        label_w = grid.label_w
        self.bar_room = (max_width - label_w) if max_width else None  # the colour bar's, at most
        self.shown_columns = [j for j in grid.cols if j is not None]
        self.shown_rows = [i for i in grid.rows if i is not None]
        self._start_parts()
        self._add_columns(grid, role, col_texts, col_colors)
        self._add_row_labels(grid, row_mobs)
        if style.squares:
            place_badges(self)
        self.numbers = VGroup(*self.squares.values(), *self.badges, *self.cells.values())
        self.colorbar = self._colorbar()
        self.add(
            self.backgrounds,
            VGroup(*self.squares.values()),
            self.row_labels,
            self.col_labels,
            self.ellipses,
            self.numbers,
            self.colorbar,
        )

    # -- the steps of building it ---------------------------------------------------------------
    def _cells_and_texts(self, row_labels, col_labels):
        """The cell width and height and the row and column texts (a grid of squares keeps every
        token; else :meth:`_label_texts`); whether the column labels stand upright."""
        style, values = self.style, self.values
        n = values.shape[1]
        if style.squares:
            cw = ch = style.squares
            row_texts, col_texts = square_label_texts(row_labels, col_labels, style.size)
            self.indexed = False
        else:
            cw, ch = self._cell_size(values, style)
            row_texts, col_texts = self._label_texts(row_labels, col_labels, cw, style.size)
        if n == 1 and col_texts[0]:  # one column keeps its label (shortened like a row's)
            if not isinstance(col_labels[0], Followed):  # the followed pair's: never shortened
                col_texts = [ellipsize(col_texts[0], LABEL_WIDTH, style.size)]
            cw = max(cw, label_box(col_texts[0], style.size)[0] + 0.12)  # and is wide enough
        wide = too_wide(col_texts, cw, style.size, style.tiers)
        self.upright = bool(style.squares or style.upright) and wide
        return cw, ch, row_texts, col_texts

    def _start_parts(self) -> None:
        """The empty groups and look-ups the cells, labels and ellipses are added to."""
        self.cells: dict[tuple[int, int], Num] = {}
        self.squares: dict[tuple[int, int], Rectangle] = {}
        self.badges = VGroup()  # behind the numbers kept on a grid of squares
        self.badge_of: dict[tuple[int, int], VGroup] = {}  # a kept number's frame and badge
        self.backgrounds = VGroup()
        # on screen, the cells say which matrix they are (a weak link: copies stay cheap)
        self.backgrounds.of_matrix = weakref.ref(self)
        self.col_labels = VGroup()
        self.col_label_of: dict[int, object] = {}
        self.row_labels = VGroup()
        self.right_labels = VGroup()  # the row labels right of the grid (``split``)
        self.row_label_of: dict[int, object] = {}
        self.ellipses = VGroup()
        self._cell_shape = self._square_shape = None  # the first cell's, copied for the others

    def _laid_out(self, row_texts, row_colors, cw: float, ch: float, room) -> tuple:
        """The grid (:meth:`_shown`) for ``row_texts``, its row labels as wide as its shown
        rows' (issue 38: an elided 12-character label took the room of two kept columns), and
        the row labels."""
        size, (max_width, max_height, keep_rows, keep_cols) = self.style.size, room
        row_mobs = [label(t, size, row_colors[i]) for i, t in enumerate(row_texts)]
        m, n = self.values.shape
        rows = self._shown_rows(m, ch, max_height, keep_rows)
        label_w = self._label_width(row_mobs, row_texts, [i for i in rows if i is not None])
        cols = self._shown_columns(n, cw, label_w, max_width, keep_cols)
        return _Grid(cw, ch, label_w, rows, cols), row_mobs

    def _grid(self, row_labels, col_labels, row_texts, col_texts, room) -> tuple:
        """The grid (:meth:`_laid_out`), its row labels and the column texts: where the
        columns are numbered (a label too wide) and some elided, named if the kept ones fit
        flat, no wanted one after the most wanted too wide for its tier alone (issue 38: an
        elided "explanations" numbered every column of Overview's weights)."""
        cw, ch = self._cell_dims
        grid, row_mobs = self._laid_out(row_texts, self._row_colors, cw, ch, room)
        if not (self.indexed and None in grid.cols):
            return grid, row_mobs, col_texts
        flat = self._flat_texts(row_labels, col_labels)
        max_width, max_height, keep_rows, keep_cols = room
        size_tiers = (self.style.size, self.style.tiers)
        wanted = [int(k) for k in keep_cols if 0 <= k < len(col_texts)]
        alone = [k for k in wanted[1:] if not too_wide([flat[1][k]] * 2, cw, *size_tiers)]
        flat_room = (max_width, max_height, keep_rows, [*wanted[:1], *alone])
        again, mobs = self._laid_out(flat[0], self._row_colors, cw, ch, flat_room)
        if self._too_wide_shown(again, flat[1]):
            return grid, row_mobs, col_texts
        self.indexed, self.header_texts = False, flat[1]
        return again, mobs, flat[1]

    def _flat_texts(self, row_labels, col_labels) -> tuple[list, list]:
        """The row and column texts named, not numbered (:meth:`_label_texts`)."""
        size = self.style.size
        cols = [shown(t) for t in col_labels]
        return [fit_label(t, LABEL_WIDTH, size) for t in row_labels], cols

    def _too_wide_shown(self, grid: _Grid, col_texts) -> bool:
        """Whether the shown columns' labels, flat, would touch (:func:`too_wide`, slot by
        slot: an ellipsis's slot has none)."""
        texts = ["" if j is None else col_texts[j] for j in grid.cols]
        return too_wide(texts, grid.cw, self.style.size, self.style.tiers)

    def _label_width(self, row_mobs, row_texts, shown_rows=None) -> float:
        """The room of the row labels left of the grid (its odd rows' where they are split;
        both staggered columns'), measured on the ``shown_rows`` (default all); sets
        ``inner_w``, the column beside the grid."""
        style = self.style
        rows = range(len(row_mobs)) if shown_rows is None else shown_rows
        inner = 1 - self.outer if style.stagger else 0
        both = not (style.split or style.stagger)
        left = [row_mobs[i].width for i in rows if both or i % 2 == inner]
        named = any(row_texts[i] for i in rows)
        label_w = (max(left, default=0.0) + 0.2) if named else 0.1
        self.inner_w = label_w - 0.2  # a staggered grid's inner column of row labels
        outer = [row_mobs[i].width for i in rows if i % 2 == self.outer]
        if style.stagger and len(row_mobs) > 1 and named and outer:
            label_w += STAGGER_GAP + max(outer)
        return label_w

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
        col_texts = [shown(t) for t in col_labels]  # a Token quoted: “.”
        n = len(col_texts)
        if self.style.upright:  # too wide for a cell: upright, shortened like a row label
            self.indexed = False
            return self._label_texts_upright(row_labels, col_labels, size)
        self.indexed = too_wide(col_texts, cw, size, self.style.tiers)
        if self.indexed:
            col_texts = [str(j + 1) for j in range(n)]
            first = self.style.first_row
            rows = [
                fit_label(t, LABEL_WIDTH, size, f"{i + first} ") for i, t in enumerate(row_labels)
            ]
            return rows, col_texts
        return [fit_label(t, LABEL_WIDTH, size) for t in row_labels], col_texts

    @staticmethod
    def _label_texts_upright(row_labels, col_labels, size: float):
        rows = [fit_label(t, LABEL_WIDTH, size) for t in row_labels]
        return rows, [fit_label(t, LABEL_WIDTH, size) for t in col_labels]

    def _shown_rows(self, m: int, ch: float, max_height, keep_rows=()) -> list:
        """Which rows fit ``max_height`` (all when not given): ``keep_rows`` and the named
        cells' rows among them (issue 44)."""
        size = self.style.size
        header_h = max(label_box("1", size)[1], 0.2) + 0.2
        if self.upright:
            header_h = max(label_box(t, size)[0] for t in self.header_texts) + 0.2
        bar_h = 0.6 if (self.style.heat and self.style.colorbar) else 0.0  # the colour bar
        keep = [*keep_rows, *(i for i, _ in self.named_cells)]
        return elide(m, (max_height - header_h - bar_h) if max_height else math.inf, ch, keep)

    def _shown_columns(self, n: int, cw: float, label_w: float, max_width, keep_cols=()) -> list:
        """Which columns fit ``max_width`` less the row labels' ``label_w`` (all when not
        given): ``keep_cols`` and the named cells' columns among them, the most wanted first
        (issue 44: a framed cell whose column was elided crashed CausalMask at 1:1)."""
        keep = [*keep_cols, *(j for _, j in self.named_cells)]  # the most wanted first
        room = (max_width - label_w) if max_width else math.inf
        return elide(n, room, cw, keep, last=self.last_column)

    def _add_columns(self, grid: _Grid, role: tuple, col_texts, col_colors) -> None:
        """Column by column: its label, then its shown cells (an ellipsis for a gap)."""
        size, muted = self.style.size, self.theme.muted
        tier = tier_height(col_texts, size, self.upright) + TIER_GAP if self.style.tiers > 1 else 0
        below = max((label_reach(t, size)[0] for t in col_texts if t), default=0.0)
        for slot, j in enumerate(grid.cols):
            x = grid.x(slot)
            if j is None:
                dots = label("…", size, muted).move_to([x, -len(grid.rows) * grid.ch / 2, 0])
                self.ellipses.add(dots)
                continue
            c = label(col_texts[j], size, col_colors[j])
            if self.upright:  # labels wider than a cell read upwards, one per column
                stand_up(c)
            # by slot: two columns side by side never share a tier, elided ones between or not
            bottom = 0.12 + (slot % self.style.tiers) * tier
            c.move_to([x, bottom, 0], aligned_edge=DOWN)
            if not self.upright:  # a tier's labels on one baseline, its deepest ink at bottom
                on_baseline(c, bottom + below)
            self.col_labels.add(c)
            self.col_label_of[j] = c
            for row_slot, i in enumerate(grid.rows):
                if i is not None:
                    self._add_cell(i, j, [x, grid.y(row_slot), 0], grid, role)
        self._cell_shape = self._square_shape = None  # not carried in the matrix's copies

    def _add_cell(self, i: int, j: int, at, grid: _Grid, role: tuple) -> None:
        """Cell (i, j): its background (shaded on the style's scale) and its number."""
        theme, value = self.theme, self.values[i, j]
        if self._cell_shape is None:  # one Rectangle built, the cells its copies (the same
            # points; 576 Rectangles were a third of a 24-token grid of squares' making)
            self._cell_shape = Rectangle(
                width=grid.cw - 0.04,
                height=grid.ch - 0.04,
                stroke_width=1,
                stroke_color=theme.grid,
                fill_opacity=1,
                fill_color=theme.panel,
            )
        rect = clone(self._cell_shape)
        rect.move_to(at)
        ink = theme.text
        if self.scale and np.isfinite(value):
            fill = scale_fill(self.scale, value, self.limit)
            rect.set_fill(fill)
            ink = text_on(fill, theme)
        rect.cell_index = (i, j)
        self.backgrounds.add(rect)
        if self.style.squares:  # the rim round its square: the background, as a blocked
            rect.set_fill(
                theme.background
            )  # cell's is nearly (a near-zero score's grey stands out)
            self._add_square(i, j, rect)
            if (i, j) not in self.named:
                return
            ink = theme.text  # on its badge (place_badges)
        cell = Num(value, role + (i, j), self.style.digits, self.style.size, ink)
        self.cells[i, j] = cell.move_to(at)

    def _add_square(self, i: int, j: int, cell: Rectangle):
        """Cell (i, j)'s value as a square that fills the cell, coloured on the scale: its
        colour alone is the number, read on the colour bar beside the grid, a weight's on the
        0 → 1 scale, a score's on the diverging one (issue 38: as areas, weights under 0.1 and
        scores near 0 were specks, a projected score grid grey dots). Nothing for a masked −∞:
        the blocked tone says it (:func:`scenes.mobjects.blocked.blocked_look`). Returns the
        square or None."""
        value = self.values[i, j]
        if not np.isfinite(value):
            return None
        side = self.style.squares - square_gap(self.style.squares)
        fill = scale_fill(self.scale, value, self.limit) if self.scale else self.theme.text
        if self._square_shape is None:  # copied as the cells are (_add_cell)
            self._square_shape = Rectangle(width=side, height=side, stroke_width=0)
        square = clone(self._square_shape)
        square.set_fill(fill, opacity=1).move_to(cell.get_center())
        self.squares[i, j] = square
        return square

    def _add_row_labels(self, grid: _Grid, row_mobs) -> None:
        """Each shown row's label, right-aligned left of the grid (⋮ for a gap)."""
        for slot, i in enumerate(grid.rows):
            y = grid.y(slot)
            if i is None:
                dots = label("⋮", self.style.size, self.theme.muted)
                # over the first shown column where a column is elided too (the "…" takes the
                # middle; where the first slot is a "…" itself, the ⋮ sat on it: issue 44's 1:1)
                first = next(s for s, j in enumerate(grid.cols) if j is not None)
                x = (
                    grid.x(first)
                    if None in grid.cols
                    else grid.label_w + len(grid.cols) * grid.cw / 2
                )
                self.ellipses.add(dots.move_to([x, y, 0]))
                continue
            r = row_mobs[i]
            if self.style.split and i % 2:  # an even row (2nd, 4th, …): right of the grid
                right = grid.label_w + len(grid.cols) * grid.cw + LABEL_GAP
                r.move_to([right, y, 0], aligned_edge=LEFT)
                self.right_labels.add(r)
            elif self.style.stagger and i % 2 == self.outer:  # the outer column, on the left too
                x = grid.label_w - LABEL_GAP - self.inner_w - STAGGER_GAP
                r.move_to([x, y, 0], aligned_edge=RIGHT)
            else:
                r.move_to([grid.label_w - LABEL_GAP, y, 0], aligned_edge=RIGHT)
            ink_level(r, y)
            self.row_labels.add(r)
            self.row_label_of[i] = r

    def _colorbar(self) -> VGroup:
        """The key of the cells' colour scale under the grid (empty without one)."""
        if not (self.scale and self.style.colorbar):
            return VGroup()
        grid = VGroup(*self.backgrounds, *self.ellipses, *self.right_labels)
        if self.style.squares and len(self.shown_rows) == 1:  # upright it would be a row high:
            # flat under the row, a line lower (room for a note under a cell: the step's score)
            bar = ColorBar(self.theme, self.scale, self.limit, width=min(grid.width, 2.4))
            return bar.next_to(grid, DOWN, buff=ROW_NOTE_ROOM).align_to(grid, RIGHT)
        if self.style.squares:  # upright on the right: the rows keep the height
            split = self.style.split or self.style.stagger  # many rows: a slim key
            bar = upright_bar(self.theme, self.scale, self.limit, min(grid.height, 2.4), split)
            gap = SPLIT_BAR_GAP if split else BAR_GAP
            return bar.next_to(grid, RIGHT, buff=gap).align_to(grid, DOWN)
        least = 2.2 if self.bar_room is None else max(min(2.2, self.bar_room), 1.2)
        bar = ColorBar(self.theme, self.scale, self.limit, width=max(grid.width, least))
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
        any_squares: bool = False,
        name_columns: bool = False,
        squares_only: bool = False,
        one_side: bool = False,
        **kwargs,
    ) -> LabelledMatrix:
        """The largest of ``sizes`` at which the whole matrix fits ``box`` (less ``title_room``
        above it). A shaded grid too big for numbers at the smallest size (the minimum text
        size) becomes a grid of squares sized to the room, every row and column labelled and
        the ``named`` cells' numbers kept; where even that does not fit, rows and columns are
        elided.
        Only a shaded matrix (``heat``) turns into squares, or any with ``any_squares`` (its
        squares then take the score scale). ``name_columns``: elided, the columns keep their
        labels (upright) where they fit, rather than numbers; ``squares_only``: squares where
        they fit, whatever the numbers; ``one_side``: a grid of many rows names them all on
        the left where they fit (:func:`label_choices`). ``kwargs``: the other parameters of
        :class:`LabelledMatrix` (colours, style fields)."""
        shape = np.shape(values)
        args = (values, role, theme, row_labels, col_labels)
        # a matrix of a real model (8 × 384) cannot fit whole at any size: elide at once rather
        # than lay out thousands of cells four times
        if max(shape) <= MAX_WHOLE and not squares_only:  # columns named (upright), else numbered
            stood = False
            for upright, size in itertools.product((True, False), sizes):
                if not upright and not stood:
                    break  # every label fitted flat: numbering would change nothing
                if cells_alone_too_big(values, size, kwargs, box.width, box.height - title_room):
                    continue  # its cells alone overflow: not built (a matrix of Pango texts)
                mob = cls(*args, size=size, upright=upright, **kwargs)
                if mob.width <= box.width and mob.height + title_room <= box.height:
                    return mob
                stood = stood or mob.upright
        room = (box.width, box.height - title_room, sizes[-1])
        squares = cls._squares(args, room, any_squares, one_side, kwargs)
        if squares is not None:
            return squares
        room = dict(max_width=box.width, max_height=box.height - title_room)
        numbered = cls(*args, size=sizes[-1], **room, **kwargs)
        if name_columns and numbered.indexed:  # named upright, where that keeps every column
            mob = cls(*args, size=sizes[-1], upright=True, **room, **kwargs)
            fits = mob.width <= box.width + 1e-6 and mob.height + title_room <= box.height + 1e-6
            if fits and len(mob.shown_columns) >= len(numbered.shown_columns):
                return mob
        return numbered

    @classmethod
    def _squares(cls, args, room, any_squares: bool, one_side: bool, kwargs):
        """A grid of squares of ``args`` in ``room`` (width, height, text size) every row and
        column labelled (:func:`grid_of_squares`), or None."""
        width, height, size = room
        style = style_of(kwargs.get("style"), style_part(kwargs))
        squares = grid_of_squares(
            args, width, height, size, style.colorbar, style.scale, one_side, style.first_row
        )
        if squares is None or not (any_squares or style.scale):
            return None
        (made, side, choice), kw = squares, dict(kwargs, split=False, tiers=1)
        if choice.split or choice.stagger or choice.tiers > 1:
            kw.update(split=choice.split, tiers=choice.tiers, stagger=choice.stagger)
        return cls(*made, size=size, squares=side, **kw)

    @classmethod
    def fitted_most(cls, values, role, theme, row_labels, col_labels, box, digits=(2, 1), **kw):
        """:meth:`fitted` at the first of ``digits`` that shows every column, else at the one
        that shows the most (a decimal less makes room for more columns of a 12-token matrix)."""
        best = None
        for d in digits:
            m = cls.fitted(values, role, theme, row_labels, col_labels, box, digits=d, **kw)
            if best is None or len(m.shown_columns) > len(best.shown_columns):
                best = m
            if len(m.shown_columns) == np.shape(values)[1]:
                break
        return best

    def cell(self, i: int, j: int) -> Num | None:
        """The number shown in cell (i, j), or None when that row or column is elided."""
        return self.cells.get((i, j))

    def cell_rect(self, i: int, j: int):
        """The background of cell (i, j), or None when its row or column is elided."""
        for r in self.backgrounds:
            if r.cell_index == (i, j):
                return r
        return None

    def drawn_cell(self, i: int, j: int):
        """The background of cell (i, j), which a step frames or points at: a cell not drawn
        is a scene's error (it should have kept the row and column: ``named``, ``keep_rows``,
        ``keep_cols``), said as one, never a Manim TypeError far away (issue 44)."""
        rect = self.cell_rect(i, j)
        if rect is None:
            raise ElidedCellError(
                f"cell ({i}, {j}) of a {self.shape[0]} × {self.shape[1]} matrix is elided "
                f"(rows shown: {self.shown_rows}, columns: {self.shown_columns}): keep its row "
                "and column"
            )
        return rect

    def highlight(self, i: int, j: int, stroke_width: float = 4) -> VGroup:
        """A frame in the accent colour just outside cell (i, j), a line of the background
        between it and the cell: visible on every cell colour (the accent on the edge of a
        1.000 yellow cell vanished)."""
        from manim import SurroundingRectangle

        rect = self.drawn_cell(i, j)
        halo = SurroundingRectangle(rect, color=self.theme.background, buff=0.0, stroke_width=5)
        frame = SurroundingRectangle(
            rect, color=self.theme.accent, buff=0.035, stroke_width=stroke_width
        )
        return VGroup(halo, frame)

    def place_row_notes(self, notes, buff: float = 0.2, stagger: bool = False) -> None:
        """Put one note per shown row (e.g. its sum) right of the matrix, level with the row;
        with ``stagger`` every second note a column further right (rows closer than a note is
        tall: 24 tokens)."""
        right = max(
            m.get_right()[0] for m in [*self.backgrounds, *self.ellipses, *self.right_labels]
        )
        for i, note in zip(self.shown_rows, notes):
            row = self.cell_rect(i, self.shown_columns[0])
            note.move_to([right + buff + note.width / 2, row.get_center()[1], 0])
        if stagger and len(notes) > 1:
            step = max(n.width for n in notes) + 0.15
            for note in notes[1::2]:
                note.shift(RIGHT * step)
        if self.style.squares and len(self.colorbar) and len(notes):  # the key moves past them
            self.colorbar.next_to(VGroup(*notes), RIGHT, buff=0.3)

    @property
    def whole(self) -> bool:
        """Whether every row and column is on screen."""
        return len(self.shown_rows) * len(self.shown_columns) == self.values.size

    @property
    def shown_cells(self) -> list[tuple[int, int]]:
        """Every cell on screen (as a number or a square), column by column."""
        return [(i, j) for j in self.shown_columns for i in self.shown_rows]

    def mark(self, i: int, j: int):
        """What shows cell (i, j)'s value: its number, else its square (None when elided)."""
        return self.cells.get((i, j)) or self.squares.get((i, j))

    def row_group(self, i: int) -> VGroup:
        marks = (self.mark(i, j) for j in self.shown_columns)
        return VGroup(*(m for m in marks if m is not None))

    def frame_parts(self) -> VGroup:
        """Everything but the numbers: backgrounds, labels, ellipses, the colour bar."""
        return VGroup(
            self.backgrounds, self.row_labels, self.col_labels, self.ellipses, self.colorbar
        )


def cells_alone_too_big(values, size: float, kwargs: dict, width: float, height: float) -> bool:
    """Whether the matrix's cells alone, at ``size``, are wider than ``width`` or taller than
    ``height``: measured from a few probe numbers (the cell size), without building the matrix
    (whose every number is a Pango text: what made a 12 × 12 matrix slow to fit)."""
    style = style_of(kwargs.get("style"), {**style_part(kwargs), "size": size})
    values = np.asarray(values, dtype=float)
    cw, ch = LabelledMatrix._cell_size(values, style)
    m, n = values.shape
    return n * cw > width + 1e-9 or m * ch > height + 1e-9


def square_gap(side: float) -> float:
    """The background between two squares of a grid of cells ``side`` wide: 0.08, at most a
    third of the cell (a 22-token grid at 16:9, 0.17 a cell, drew 0.09 squares: dots), never
    under the cell's own rim (0.04)."""
    return max(0.04, min(0.08, side / 3))


def _extremes(values: np.ndarray) -> list[float]:
    """The few values whose printed form is widest (for sizing the cells without making all)."""
    flat = values.ravel()
    picks = {float(flat[np.argmax(flat)]), float(flat[np.argmin(flat)])}
    finite = flat[np.isfinite(flat)]
    if finite.size:
        picks |= {float(finite.max()), float(finite.min())}
    return sorted(picks)
