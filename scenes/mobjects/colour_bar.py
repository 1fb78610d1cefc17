"""What is drawn around a matrix: the key of its colour scale (:class:`ColorBar`) and its
titles (plain, typeset, and typeset column headers)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from manim import DOWN, LEFT, PI, RIGHT, UP, Rectangle, VGroup

from scenes.mobjects import fonts
from scenes.mobjects.layout import box_of
from scenes.mobjects.text import clone, label
from scenes.mobjects.theme import SMALL, Theme, diverging, heat


class HeadedTable(Protocol):
    """What :func:`typeset_headers` reads of a table (a ``LabelledMatrix``; named by its shape,
    not imported: the matrix module imports this one)."""

    indexed: bool
    col_labels: VGroup
    shown_columns: Sequence[int]


def scale_fill(scale: str, value: float, limit: float):
    """A value's colour on ``scale``: "weights" (0 → 1) or "scores" (−limit … +limit)."""
    return heat(value) if scale == "weights" else diverging(value, limit)


class ColorBar(VGroup):
    """The key of a colour scale: a strip with its end (and middle) values.

    ``scale="weights"``: the fixed 0 → 1 attention scale; ``"scores"``: −limit … 0 … +limit.
    Horizontal (``width`` long, values under it), or ``vertical`` (``width`` tall, low values
    at the bottom, values on its right); ``ends_only``: the end values alone (the slim key of a
    grid of squares whose row labels take both its sides).
    """

    def __init__(
        self,
        theme: Theme,
        scale: str = "weights",
        limit: float = 1.0,
        width=2.4,
        height=0.16,
        steps: int = 40,
        vertical: bool = False,
        ends_only: bool = False,
    ):
        super().__init__()
        lo, hi = (0.0, 1.0) if scale == "weights" else (-limit, limit)
        along = UP if vertical else RIGHT
        across = RIGHT if vertical else DOWN
        strip = VGroup()
        # one part built and copied: the same points as a Rectangle made for each, at a
        # fraction of the cost (a 24-token grid of squares measured a dozen bars)
        first = Rectangle(width=width / steps * 1.02, height=height, stroke_width=0)
        if vertical:
            first.rotate(PI / 2)
        for k in range(steps):
            v = lo + (hi - lo) * (k + 0.5) / steps
            part = clone(first)
            part.set_fill(scale_fill(scale, v, limit), opacity=1)
            strip.add(part.move_to(along * (k + 0.5) * width / steps))
        outline = Rectangle(width=width, height=height, stroke_width=1, stroke_color=theme.muted)
        if vertical:
            outline.rotate(PI / 2)
        outline.move_to(along * width / 2)
        ticks = VGroup()
        middle = () if ends_only else ((0.5, (lo + hi) / 2),)
        marks = ((0.0, lo), *middle, (1.0, hi))
        for frac, v in marks:
            t = label(_tick_text(v), SMALL, theme.muted)
            t.next_to(along * frac * width + across * height / 2, across, buff=0.06)
            ticks.add(t)
        if not vertical:  # on their baseline (set by their line), their ink 0.06 under the strip:
            # by their line's top (scenes.mobjects.text_line) it stood 0.03 lower, and every key
            # 0.03 taller (a 24-token grid at 1:1 no longer fitted whole over the cost's lines)
            ticks.shift(UP * (-height / 2 - 0.06 - max(box_of(t).y1 for t in ticks)))
        self.strip, self.ticks = strip, ticks
        self.keys = (scale, limit)  # what it keys: its scale and bound (matched to its grid)
        self.add(strip, outline, ticks)


BAR_GAP = 0.3  # between a grid of squares and its upright colour bar
SPLIT_BAR_GAP = 0.2  # the same beside the right-hand row labels of a split grid


def upright_bar(theme: Theme, scale: str, limit: float, height: float, split: bool) -> ColorBar:
    """The upright colour key of a grid of squares, ``height`` tall: slim (its end values
    alone) where the rows are ``split`` between the grid's sides (24 tokens at 1:1)."""
    return ColorBar(theme, scale, limit, width=height, vertical=True, ends_only=split)


def upright_bar_room(theme: Theme, scale: str, limit: float, split: bool) -> float:
    """The width :func:`upright_bar` and its gap take beside a grid: measured, not guessed
    (a fixed 0.75 kept a 23-token grid out of a square frame it fitted)."""
    gap = SPLIT_BAR_GAP if split else BAR_GAP
    # built once a key: a grid of squares tries a dozen label choices, each measuring its key
    # (44 bars for 4 matrices of CausalMask at 24 tokens); its colours never change its width
    key = (scale, float(limit), split, fonts.active())
    width = _BAR_WIDTHS.get(key)
    if width is None:
        if len(_BAR_WIDTHS) > 1000:
            _BAR_WIDTHS.clear()
        width = _BAR_WIDTHS[key] = upright_bar(theme, scale, limit, 1.0, split).width
    return width + gap


_BAR_WIDTHS: dict[tuple, float] = {}  # upright_bar_room's measures, by scale, bound, font


def _tick_text(v: float) -> str:
    if v == 0:
        return "0"
    s = f"{v:g}" if abs(v) >= 1e-3 and abs(v) < 1e5 else f"{v:.0e}"
    return s.replace("-", "−")


def matrix_title(text, matrix: VGroup, theme: Theme, size=SMALL):
    """A heading above ``matrix``, left-aligned: text, or a ready mobject (e.g. typeset)."""
    t = label(text, size, theme.muted) if isinstance(text, str) else text
    t.next_to(matrix, UP, buff=0.15)
    t.align_to(matrix, LEFT)
    return t


def typeset_headers(table: HeadedTable, exprs) -> None:
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
