"""A label placed by its line, not its ink (issue 38): a reviewer saw "a", "gave", "," and
"Apply" ride up and down in a row — CausalMask's rows beside their bars, a term table, a token
strip — each set by the middle of its ink. ``scenes.mobjects.text`` gives each label a
:class:`Strut` (where its baseline and line lie) and makes it an :class:`OnLine` text, so that
Manim's placing (``next_to``, ``move_to``, ``align_to``, ``arrange``) sets labels on one
baseline, while their widths and heights stay their ink's.
"""

from __future__ import annotations

import numpy as np
from manim import MarkupText, Mobject, Text, VMobject


class Strut(VMobject):
    """Where a label's line lies, never drawn: two marks of no length inside its ink (its
    middle, and a quarter of its width right of it), which move, turn and grow with it (in an
    animation too); its baseline and its line's depth and height (:data:`LINE_REFERENCE`) are
    kept as multiples of the distance between them."""

    is_line = True

    def __init__(self, x: float, middle: float, width: float, base, depth, height, **kwargs):
        super().__init__(fill_opacity=1.0, stroke_width=0, **kwargs)
        unit = max(width / 4, 1e-4)
        marks = np.array([[x, middle, 0.0], [x + unit, middle, 0.0]])
        self.points = np.repeat(marks, self.n_points_per_curve, axis=0)
        self.line = ((base - middle) / unit, depth / unit, height / unit)

    def ends(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The line's bottom, its point on the baseline and its top, where the label is now."""
        middle, ahead = self.points[0], self.points[self.n_points_per_curve]
        along = ahead - middle
        up = np.array([-along[1], along[0], 0.0])
        base, depth, height = self.line
        on = middle + base * up
        return on - depth * up, on, on + height * up


def _strut(mob: Mobject) -> Strut | None:
    return next((m for m in mob.get_family() if isinstance(m, Strut) and len(m.points)), None)


class OnLine:
    """A label placed by its line (:class:`Strut`), not its ink: Manim's ``next_to``,
    ``move_to``, ``align_to`` and ``arrange`` place a mobject by its box's corners and edges
    (``get_critical_point``), whose points here are the ink's and the line's bottom and top, so
    labels set beside, in line with or level with each other sit on one baseline, whatever their
    letters reach. Its width and height (``width``, ``height``: what fits, and
    ``scenes.mobjects.layout.box_of``: what may not overlap) stay its ink's, and so does a group
    it is in."""

    def get_points_defining_boundary(self):
        points = super().get_points_defining_boundary()  # type: ignore[misc]
        strut = _strut(self)  # type: ignore[arg-type]
        if strut is None or not len(points):
            return points
        bottom, _, top = strut.ends()
        return np.vstack([points, bottom, top])

    def ink_corners(self) -> tuple[np.ndarray, np.ndarray]:
        """The lower left and upper right corners of its ink's box (as Manim finds a box)."""
        points = super().get_points_defining_boundary()  # type: ignore[misc]
        if not len(points):
            return np.zeros(3), np.zeros(3)
        return points.min(axis=0), points.max(axis=0)


class LineText(OnLine, Text):
    """A Pango ``Text`` placed by its line (:class:`OnLine`)."""


class LineMarkupText(OnLine, MarkupText):
    """An escaped Pango ``MarkupText`` (right-to-left, Latin quotation marks) placed by its
    line (:class:`OnLine`)."""


def text_baseline(mob: Mobject) -> float | None:
    """The height of the baseline of the (first) label in ``mob`` (from its :class:`Strut`), or
    None when ``mob`` holds no label."""
    strut = _strut(mob)
    return None if strut is None else float(strut.ends()[1][1])


def ink_level(mob: Mobject, y: float) -> Mobject:
    """Shift ``mob`` up or down so that the middle of its ink is at height ``y``: a label alone
    in its row (a matrix's row names, one above the other at the row pitch) is centred on its
    row by its ink, as the rows' cells are; placed by its line, a descender ("they", "g") reached
    into the ink of the next row's ascenders at a 24-token grid's pitch."""
    ink = [m for m in mob.get_family() if isinstance(m, OnLine)]
    if len(ink) != 1:
        return mob
    low, high = ink[0].ink_corners()
    return mob.shift([0.0, y - (low[1] + high[1]) / 2, 0.0])


def on_baseline(mob: Mobject, y: float) -> Mobject:
    """Shift ``mob`` up or down so that its label's baseline is at height ``y`` (unmoved when
    it holds no label)."""
    base = text_baseline(mob)
    return mob if base is None else mob.shift([0.0, y - base, 0.0])
