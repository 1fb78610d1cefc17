"""AttentionMatrix's heatmap at real size (issue 38): a grid of many rows (20-odd tokens) takes
the frame's height with every row named on the left, its caption bar slimmer (two lines a
page), its title and row sums beside it where the frame has room, else
the sum said once in the corner over the row names."""

from __future__ import annotations

import itertools

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Line, VGroup

import attention_core as ac
from scenes.kit.roles import HeadRole
from scenes.mobjects.blocked import blocked_look
from scenes.mobjects.grid_labels import SPLIT_FROM
from scenes.mobjects.layout import Box, Regions, box_of, place, regions
from scenes.mobjects.text import label
from scenes.mobjects.theme import SMALL

SLIM_CAPTION = 0.9  # the caption bar of a many-row heatmap: two lines (pages for more); a line
# holding a number is 0.39 tall (two were 0.88 in 0.86: trophy zh 1:1)
SIDE_GAP = 0.3  # between the grid's block and a title beside it
KEY_GAP = 0.2  # between the grid and its colour key lying under it
READOUT_GAP = 0.3  # between the grid and the named cells' numbers beside or under it
LEAST_KEY = 1.2  # the narrowest colour key lying under the grid beside a column's name
SMALL_LINE = 0.42  # a line of the smallest text with its gap, as flow sets them


def slim_regions(frame: Box) -> Regions:
    """The standard title bar, and a caption bar of :data:`SLIM_CAPTION` whose room the
    content takes."""
    standard = regions(frame)
    title, bottom = standard.title, standard.caption.y0
    caption = Box(standard.caption.x0, bottom, standard.caption.x1, bottom + SLIM_CAPTION)
    content = Box(caption.x0, caption.y1 + 0.12, caption.x1, title.y0 - 0.08)
    return Regions(title, content, caption)


def named_on_one_side(matrix) -> bool:
    """Whether ``matrix`` is a whole grid of squares with every row named on its left."""
    return bool(matrix.whole and matrix.style.squares and not matrix.style.split)


class AttentionMatrixLayout:
    """Mixin of :class:`scenes.attention_matrix.AttentionMatrix`: where a heatmap of many rows
    goes (``self.one_side``: every row named on the left)."""

    def setup(self):
        super().setup()
        self.one_side = False
        if self.many_rows():  # the grid takes the height a third caption line had
            # two lines a page: three at the smallest size are 1.02 to 1.05 tall in Chinese and
            # English, more than the slim bar (issue 38: the chef sentence's reading in Chinese
            # at 4:3, three lines of 75 characters, reached 0.06 from the last row's name);
            # a longer caption is read in pages, a sentence or two each
            self.caption_lines, self.most_caption_lines = 2, 2
            self.regions = slim_regions(self.frame)

    def blocked(self, matrix):
        """``matrix`` (a weights matrix of :meth:`weights_matrix`, once chosen) with the blocked
        look: a blocked cell never reads as a weight of 0.00, the look CausalMask gave it (its
        number, where shown, as bright as the others: the reading may name it). Given to the
        matrix shown only: a 24-token layout tries a score of grids (at-the-limits at 1:1: 21),
        each given it before."""
        if matrix.blocked_marks is None:
            matrix.blocked_marks = blocked_look(matrix, self.head.mask, self.theme, mute=False)
            matrix.add(matrix.blocked_marks)  # moved with the matrix
        return matrix

    def many_rows(self) -> bool:
        """Whether the heatmap has rows enough to be a grid of squares named in tiers."""
        return self.example.n > SPLIT_FROM

    def one_side_heatmap(self, left: Box, W, named):
        """The grid of squares filling ``left`` with every row named on its left, the row sum
        said once (a column of 20-odd sums beside rows 0.23 apart touched) and the named cells'
        numbers on a readout line in the corner over the row names (``readout_at`` "corner":
        a badge on the grid hid rows of squares, once its own row's sink), on badges only where
        that line has no room; None where the rows do not fit one side (24 tokens)."""
        if not self.many_rows():
            return None
        self.sums_room, self.grid_box = 0.0, left
        matrix = self.weights_matrix(left, named, title_room=0.0, one_side=True, numbers=False)
        under = None
        if not named_on_one_side(matrix):  # 24 rows at 1:1: whole only with the key under it
            under = self.key_under_grid(left, named)
            matrix = under or matrix
        if named_on_one_side(matrix):  # (a grid with its key under it is not wider than itself)
            wide = (under is None and self.key_under_grid(left, named, matrix)) or matrix
            self.one_side, self.sums_once = True, True
            self.readout, self.readout_at = VGroup(), None
            if not named or self.corner_readout(wide, left, W, named):
                return wide
            # no corner holds the line: a column of its own beside the grid where the frame is
            # wide, else lines under a grid fitted above them, else a corner of the grid with
            # its key upright; badges only where none keeps every row (a review: four badges
            # over cells at 4:3 and 16:9)
            apart = self.readout_beside(wide, left, W, named)
            under = None if apart else self.readout_under(left, W, named)
            width = under.backgrounds.width if under else 0.0
            if not apart and wide is not matrix and width < matrix.backgrounds.width:
                state = self.readout, self.readout_at, self.grid_box
                self.grid_box = left
                if self.corner_readout(matrix, left, W, named):
                    return matrix
                self.readout, self.readout_at, self.grid_box = state
            apart = apart or under
            return apart or self.weights_matrix(left, named, title_room=0.0, one_side=True)
        self.sums_room = 1.1
        return None

    def name_followed_column(self, matrix) -> VGroup:
        """The followed key's column named by its token under it, whole and in its colour,
        where the columns are numbered (issue 38: the chef sentence's followed column was "5"
        alone); a colour key lying under the grid goes to the side the name leaves free. The
        name joins ``matrix`` (it moves and fades with it); nothing where the columns carry
        their tokens or no side of the key's line has room for it."""
        j = ac.followed_pair(self.trace).key
        cells = [r for r in matrix.backgrounds if r.cell_index[1] == j]
        head = getattr(matrix, "col_label_of", {}).get(j)
        if not cells or head is None or getattr(head, "source_text", "") != str(j + 1):
            return VGroup()  # its column named by its token already (or not drawn)
        name = label(self.k_tokens[j], SMALL, self.k_color(j))
        grid, bar = box_of(matrix.backgrounds), matrix.colorbar
        name.move_to([cells[0].get_center()[0], grid.y0 - KEY_GAP - name.height / 2, 0])
        tick = Line(UP * (grid.y0 - 0.02), UP * (name.get_top()[1] + 0.02), stroke_width=2)
        tick.set_color(self.k_color(j)).set_x(name.get_x())
        marked = VGroup(tick, name)
        under = len(bar) and bar.get_top()[1] < grid.y0 + 1e-6
        key = self.key_beside_name(matrix, box_of(name)) if under else None
        readout = getattr(self, "readout", VGroup())
        others = [o for o in (key if under else VGroup(), readout) if o is not None and len(o)]
        clear = not (under and key is None)
        clear = clear and not any(box_of(o).overlaps(box_of(name), pad=0.1) for o in others)
        if not clear or not self.regions.content.contains(box_of(marked), 0.01):
            return VGroup()
        if under and key is not bar:  # the key in its new place (or narrower)
            matrix.remove(bar)
            matrix.colorbar = key
            matrix.add(key)
        matrix.add(marked)
        return marked

    def key_beside_name(self, matrix, name: Box):
        """The colour key lying under the grid where it leaves the followed column's ``name``
        clear: where it is, else at the grid's other edge, else narrower (at least
        :data:`LEAST_KEY`) on the wider side; None where neither side has room. A new key where
        it moves (``matrix`` keeps its own until the name goes in)."""
        old, grid = matrix.colorbar, box_of(matrix.backgrounds)
        if not box_of(old).overlaps(name, pad=0.1):
            return old
        rooms = {LEFT.tobytes(): name.x0 - grid.x0, RIGHT.tobytes(): grid.x1 - name.x1}
        sides = sorted((LEFT, RIGHT), key=lambda side: -rooms[side.tobytes()])
        for want in (round(2.4 - 0.2 * k, 2) for k in range(7)):  # (2.4 - 1.2 < LEAST_KEY)
            for side in sides if want >= LEAST_KEY else ():
                bar = self.kit.colour_bar("weights", width=min(want, grid.width))
                bar.align_to(old, UP).align_to(matrix.backgrounds, side)
                if not box_of(bar).overlaps(name, pad=0.1):
                    return bar
        return None

    def corner_readout(self, matrix, left: Box, W, named) -> bool:
        """The named cells' numbers on a line in a corner of ``left`` beside the placed grid's
        column names: the left one (over the row names, the title's and the sum's, which give
        it their place at the reading: ``readout_at`` "corner"), else the right one (over the
        colour key: "beside"), else the title bar right of the scene's title. Whether one
        holds it."""
        place(matrix, left)
        header, key = box_of(matrix.col_labels), box_of(matrix.colorbar)
        right = Box(header.x1 + 0.15, key.y1 + 0.1, left.x1, left.y1)
        t = self.regions.title
        bar = Box(box_of(self.title_mob).x1 + 0.5, t.y0, t.x1, t.y1)
        corners = [("corner", self.corner_of(matrix, left)), ("beside", right), ("title", bar)]
        where = {"corner": "bottom-left", "beside": "top-left", "title": "right"}
        for (at, corner), grouped in itertools.product(corners, (False, True)):
            line = self.readout_line(W, named, corner.width, grouped)
            if line.width <= corner.width + 1e-6 and line.height <= corner.height:
                place(line, corner, where[at])
                self.readout, self.readout_at = line, at
                return True
        return False

    def key_under_grid(self, left: Box, named, matrix=None, **options):
        """The grid wider than ``matrix`` with its colour key lying under it rather than upright
        beside it, where the width is what limits it (a square frame: 22 rows named in two
        columns on the left leave the grid the width they do not take); None where it is not
        wider or not whole. Without ``matrix`` (none is whole with its key beside it: 24 rows
        at 1:1, issue 38), the grid whole with its key under it, or None. ``options``: those of
        ``weights_matrix`` (by default no title room, every row named on the left, no number)."""
        bar = self.kit.colour_bar("weights", width=2.4)
        box = Box(left.x0, left.y0 + bar.height + KEY_GAP, left.x1, left.y1)
        options = {"title_room": 0.0, "one_side": True, "numbers": False, **options}
        self.key_under = True  # (weights_matrix leaves the key out)
        try:
            wide = self.weights_matrix(box, named, **options)
        finally:
            self.key_under = False
        grid = wide.backgrounds
        if not named_on_one_side(wide):
            return None
        if matrix is not None and grid.width < matrix.backgrounds.width + 0.1:
            return None
        bar = self.kit.colour_bar("weights", width=min(2.4, grid.width))
        bar.next_to(grid, DOWN, buff=KEY_GAP).align_to(grid, LEFT)
        wide.colorbar = bar
        wide.add(bar)
        return wide

    def cost_matrix(self, room: Box, cell, titled: bool, named: bool):
        """The weights fitted again in ``room`` beside or over the cost (the followed ``cell``
        framed, a title line above them where ``titled``, its number in words where ``named``):
        with the key upright beside them, else (24 rows at 1:1, issue 38: the cost step elided
        them to 6 rows and 3 columns) lying under them, where only that keeps them whole."""
        options = dict(title_room=0.45 if titled else 0.0, reading=False, numbers=not named)
        if self.one_side and not named:  # the pair's number in the corner, not on a badge
            cornered = self.pair_in_corner(room, cell, dict(options, numbers=False))
            if cornered is not None:
                return cornered
        matrix = self.weights_matrix(room, cell, one_side=self.one_side, **options)
        if not self.one_side:
            return matrix
        # wider with its key under it (as at the heatmap step), or whole only so
        beaten = matrix if matrix.whole else None
        return self.key_under_grid(room, cell, beaten, **options) or matrix

    def pair_in_corner(self, room: Box, cell, options: dict):
        """The grid of every row named on its left, whole in ``room``, with the followed pair's
        line ("explanations → notes 0.489") in the corner over its row names (``pair_note``,
        placed with it): a badge over the grid covered the row above the framed cell (issue
        38, 24 tokens at 1:1). None where the grid is not whole or the corner too small."""
        matrix = self.weights_matrix(room, cell, one_side=True, **options)
        if not named_on_one_side(matrix):
            matrix = self.key_under_grid(room, cell, **options)
        if matrix is None:
            return None
        line = self.pair_line()
        place(matrix, room)
        corner = self.corner_of(matrix, room)
        if line.width > corner.width:  # its number under its names
            line[0][0].arrange(DOWN, aligned_edge=LEFT, buff=0.04)
        if line.width > corner.width or line.height > corner.height:
            return None
        matrix.pair_note = place(line, corner, "bottom-left")
        return matrix

    def readout_beside(self, matrix, left: Box, W, named):
        """``matrix`` and the named cells' numbers in a column right of it (one cell a line
        where the line is too long), the two centred in ``left`` together (``grid_box``: where
        the grid goes); None where the column has no room."""
        room = left.width - matrix.width - READOUT_GAP
        for grouped in (False, True):
            line = self.readout_line(W, named, room, grouped)
            if line.width <= room + 1e-6 and line.height <= matrix.backgrounds.height:
                x0 = left.x0 + (room - line.width) / 2
                self.grid_box = Box(x0, left.y0, x0 + matrix.width, left.y1)
                place(matrix, self.grid_box)
                line.next_to(matrix, RIGHT, buff=READOUT_GAP).align_to(matrix.backgrounds, UP)
                self.readout, self.readout_at = line, "beside"
                return matrix
        return None

    def readout_under(self, left: Box, W, named):
        """The grid fitted above the named cells' numbers, on lines as wide as ``left`` under
        it (at most three), every row still named on its left (its key under it where that
        makes it wider); None where it is not."""
        for grouped in (False, True):
            line = self.readout_line(W, named, left.width, grouped)
            if line.height > 3 * SMALL_LINE:
                continue
            room = line.height + READOUT_GAP
            box = Box(left.x0, left.y0 + room, left.x1, left.y1)
            matrix = self.weights_matrix(box, named, title_room=0.0, one_side=True, numbers=False)
            if named_on_one_side(matrix):
                matrix = self.key_under_grid(box, named, matrix) or matrix
            else:  # 24 rows at 1:1: whole with its key under it, or not at all
                matrix = self.key_under_grid(box, named)
            if matrix is not None:
                self.grid_box = box
                place(matrix, box)
                place(line, Box(left.x0, left.y0, left.x1, left.y0 + line.height), "left")
                self.readout, self.readout_at = line, "foot"
                return matrix
        return None

    @staticmethod
    def corner_of(matrix, left: Box) -> Box:
        """The corner of ``left`` over a placed grid's row names (the first may stand higher
        than the grid's top), left of its column names."""
        grid = matrix.backgrounds
        top = max(grid.get_top()[1], *(name.get_top()[1] for name in matrix.row_labels))
        return Box(left.x0, top + 0.05, grid.get_left()[0] - 0.15, left.y1)

    def place_one_side(self, matrix, left: Box) -> tuple:
        """The grid in ``left``; in the corner over its row names, left of its column names,
        its title and "every row sums to 1.000" (the sum on a line of its own where the line is
        too long; the title left out where both do not fit). Returns (title, sums, sum head)."""
        W, theme = self.head.weights, self.theme
        sums = VGroup(self.num(np.sum(W[0]), HeadRole("rowsum", self.h, 0), 3, color=theme.accent))
        place(matrix, self.grid_box)  # (beside or over the named cells' numbers, if apart)
        corner = self.corner_of(matrix, left)
        title = label(self.say("weights"), SMALL, theme.muted)
        for key in ("row_sum_each", "row_sum"):
            head = label(self.say(key), SMALL, theme.accent)
            line = VGroup(head, sums).arrange(buff=0.15)
            if line.width > corner.width:
                line.arrange(DOWN, aligned_edge=LEFT, buff=0.04)
            if line.width <= corner.width:
                break
        both = VGroup(title, line).arrange(DOWN, aligned_edge=LEFT, buff=0.04)
        self.title_gives_way = both.width > corner.width or both.height > corner.height
        if self.title_gives_way:  # the title holds the corner until the sum takes it
            place(line, corner, "bottom-left")
            # in the sum's place, its foot on the corner's (a title taller than the sum's line
            # hung down onto the first row's name at 16:9, 24 tokens)
            place(title, corner, "bottom-left")
            if title.width > corner.width:
                title = VGroup()  # the caption names the weights
        else:
            place(both, corner, "bottom-left")
        return title, sums, head
