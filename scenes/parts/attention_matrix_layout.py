"""AttentionMatrix's heatmap at real size (issue 38): a grid of many rows (20-odd tokens) takes
the frame's height with every row named on the left, its caption bar slimmer (two lines at the
caption size or three smaller), its title and row sums beside it where the frame has room, else
the sum said once in the corner over the row names."""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, UP, VGroup

from scenes.mobjects.grid_labels import SPLIT_FROM
from scenes.mobjects.layout import Box, Regions, place, regions
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
        """The grid of squares filling ``left`` with every row named on its left and the named
        cells' numbers on badges, the row sum said once (a column of 20-odd sums beside rows
        0.23 apart touched); None where the rows do not fit one side (24 tokens)."""
        if not self.many_rows():
            return None
        self.sums_room = 0.0
        matrix = self.weights_matrix(left, named, title_room=0.0, one_side=True)
        if matrix.whole and matrix.style.squares and not matrix.style.split:
            self.one_side, self.sums_once = True, True
            self.readout, self.readout_at = VGroup(), None
            return matrix
        self.sums_room = 1.1
        return None

    def place_one_side(self, matrix, left: Box) -> tuple:
        """The grid in ``left``; in the corner over its row names, left of its column names,
        its title and "every row sums to 1.000" (the sum on a line of its own where the line is
        too long; the title left out where both do not fit). Returns (title, sums, sum head)."""
        W, theme = self.head.weights, self.theme
        sums = VGroup(self.num(np.sum(W[0]), ("rowsum", self.h, 0), 3, color=theme.accent))
        place(matrix, left)
        grid = matrix.backgrounds
        corner = Box(left.x0, grid.get_top()[1] + 0.05, grid.get_left()[0] - 0.15, left.y1)
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
