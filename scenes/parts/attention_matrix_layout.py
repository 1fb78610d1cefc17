"""AttentionMatrix's heatmap at real size (issue 38): a grid of many rows (20-odd tokens) takes
the frame's height with every row named on the left, its caption bar slimmer (two lines at the
caption size or three smaller), its title and row sums beside it where the frame has room, else
the sum said once in the corner over the row names."""

from __future__ import annotations

import itertools

import numpy as np
from manim import DOWN, LEFT, UP, VGroup

from scenes.mobjects.grid_labels import SPLIT_FROM
from scenes.mobjects.layout import Box, Regions, box_of, place, regions
from scenes.mobjects.text import label
from scenes.mobjects.theme import SMALL

SLIM_CAPTION = 0.86  # the caption bar of a many-row heatmap: three lines at the smallest size
SIDE_GAP = 0.3  # between the grid's block and a title beside it


def slim_regions(frame: Box) -> Regions:
    """The standard title bar, and a caption bar of :data:`SLIM_CAPTION` whose room the
    content takes."""
    standard = regions(frame)
    title, bottom = standard.title, standard.caption.y0
    caption = Box(standard.caption.x0, bottom, standard.caption.x1, bottom + SLIM_CAPTION)
    content = Box(caption.x0, caption.y1 + 0.12, caption.x1, title.y0 - 0.08)
    return Regions(title, content, caption)


class AttentionMatrixLayout:
    """Mixin of :class:`scenes.attention_matrix.AttentionMatrix`: where a heatmap of many rows
    goes (``self.one_side``: every row named on the left)."""

    def setup(self):
        super().setup()
        self.one_side = False
        if self.many_rows():  # the grid takes the height a third caption line had
            self.caption_lines, self.most_caption_lines = 2, 3
            self.regions = slim_regions(self.frame)

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
        self.sums_room = 0.0
        matrix = self.weights_matrix(left, named, title_room=0.0, one_side=True, numbers=False)
        if matrix.whole and matrix.style.squares and not matrix.style.split:
            self.one_side, self.sums_once = True, True
            self.readout, self.readout_at = VGroup(), None
            if named and not self.corner_readout(matrix, left, W, named):
                matrix = self.weights_matrix(left, named, title_room=0.0, one_side=True)
            return matrix
        self.sums_room = 1.1
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

    @staticmethod
    def corner_of(matrix, left: Box) -> Box:
        """The corner of ``left`` over a placed grid's row names, left of its column names."""
        grid = matrix.backgrounds
        return Box(left.x0, grid.get_top()[1] + 0.05, grid.get_left()[0] - 0.15, left.y1)

    def place_one_side(self, matrix, left: Box) -> tuple:
        """The grid in ``left``; in the corner over its row names, left of its column names,
        its title and "every row sums to 1.000" (the sum on a line of its own where the line is
        too long; the title left out where both do not fit). Returns (title, sums, sum head)."""
        W, theme = self.head.weights, self.theme
        sums = VGroup(self.num(np.sum(W[0]), ("rowsum", self.h, 0), 3, color=theme.accent))
        place(matrix, left)
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
            title.move_to(line, aligned_edge=LEFT).align_to(line, UP)
            if title.width > corner.width:
                title = VGroup()  # the caption names the weights
        else:
            place(both, corner, "bottom-left")
        return title, sums, head
