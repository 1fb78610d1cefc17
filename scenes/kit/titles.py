"""A scene's title on two lines: in a square frame a long title keeps the title size on two
lines before it is set smaller on one (issue 38: at 1:1 CausalMask's and MultiHeadSplit's titles
shrank to the caption's size), and the title bar grows to hold them."""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from manim import DOWN, LEFT, VGroup

from scenes.mobjects.layout import Box, Regions
from scenes.mobjects.text import text_width
from scenes.mobjects.unimath import plain

if TYPE_CHECKING:
    from manim import ManimColor, Mobject

LINE_GAP = 0.06  # between a title's two lines
_SPLIT = re.compile(r"\$[^$]*\$|\s+|(?<=[：:])")  # a formula is never split; a line may break
HEAD_MARK = "·"  # "title  ·  head 1 of 4": a line neither starts nor ends with it


def break_points(text: str) -> list[int]:
    """Where ``text`` may break between lines: at a space, after a colon (：, :), never inside
    a ``$…$`` formula."""
    out = []
    for m in _SPLIT.finditer(text):
        if not m.group(0).startswith("$") and 0 < m.start() < len(text):
            out.append(m.start())
    return out


def two_lines(text: str, width: float, size: float) -> tuple[str, str] | None:
    """``text`` as two lines that each fit ``width`` at ``size`` (measured in their Unicode
    forms, bold: a margin of 5 %): cut before its "head 1 of 4", else after its colon where
    that fits ("Multi-head attention:" over "a subspace per head"), else the most even cut;
    None where none fits."""
    fits = []
    for at in break_points(text):
        first = text[:at].strip().rstrip(HEAD_MARK).strip()
        second = text[at:].strip().lstrip(HEAD_MARK).strip()
        if not first or not second:
            continue
        widest = max(text_width(plain(first), size), text_width(plain(second), size))
        if widest <= 0.95 * width:
            fits.append((_rank(text, at, first), widest, first, second))
    return min(fits)[2:] if fits else None


def _rank(text: str, at: int, first: str) -> int:
    """How good a cut is, best least: before "head 1 of 4", after a colon, elsewhere."""
    if text[at:].strip().startswith(HEAD_MARK):
        return 0
    return 1 if first[-1] in "：:" else 2


def two_line_title(text: str, width: float, size: float, color: ManimColor | str) -> VGroup | None:
    """The title ``text`` bold on two lines at ``size``, left-aligned, within ``width``; None
    where it cannot be cut so."""
    from scenes.mobjects.math import rich

    cut = two_lines(text, width, size)
    if cut is None:
        return None
    lines = [rich(line, size, color, weight="BOLD") for line in cut]
    if max(line.width for line in lines) > width:
        return None
    group = VGroup(*lines).arrange(DOWN, aligned_edge=LEFT, buff=LINE_GAP)
    group.source_text = " ".join(plain(line) for line in cut)
    return group


RISE = 0.1  # how far a two-line title bar reaches up into the frame's margin
NEAR = 0.1  # between a two-line title and the content (one line: 0.2)


def room_for(regions: Regions, title: Mobject) -> Regions:
    """``regions`` with the title bar tall enough for ``title`` (two lines): up into the
    frame's margin by at most :data:`RISE`, the content nearer it (:data:`NEAR`) and shorter
    by the rest (0.15 of a 1:1 frame's 8); as they are where it fits."""
    t, c = regions.title, regions.content
    more = title.height - t.height
    if more <= 0:
        return regions
    rise = min(more, RISE)
    title_box = Box(t.x0, t.y0 - (more - rise), t.x1, t.y1 + rise)
    content = Box(c.x0, c.y0, c.x1, min(c.y1, title_box.y0 - NEAR))
    return dataclasses.replace(regions, title=title_box, content=content)
