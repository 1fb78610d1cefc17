"""A small inline matrix between square brackets (W_q beside a plane, in Projections)."""

from __future__ import annotations

import numpy as np
from manim import DOWN, Line, VGroup


def bracket_matrix(rows, color) -> VGroup:
    """Numbers in a grid between square brackets (a small inline matrix such as W_q)."""
    grid = VGroup(*(VGroup(*row).arrange(buff=0.25) for row in rows)).arrange(DOWN, buff=0.1)
    for c in range(len(rows[0])):  # right-align each column
        right = max(row[c].get_right()[0] for row in grid)
        for row in grid:
            row[c].shift((right - row[c].get_right()[0]) * np.array([1.0, 0, 0]))
    h, pad, foot = grid.height + 0.12, 0.1, 0.08
    x0, x1, y = grid.get_left()[0] - pad, grid.get_right()[0] + pad, grid.get_center()[1]
    brackets = VGroup()
    for x, d in ((x0, 1), (x1, -1)):
        brackets.add(
            Line([x, y - h / 2, 0], [x, y + h / 2, 0], color=color, stroke_width=2),
            Line([x, y + h / 2, 0], [x + d * foot, y + h / 2, 0], color=color, stroke_width=2),
            Line([x, y - h / 2, 0], [x + d * foot, y - h / 2, 0], color=color, stroke_width=2),
        )
    return VGroup(brackets, grid)
