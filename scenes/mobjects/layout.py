"""Computed layout: boxes of the frame, placement, and label placement that avoids collisions.

Positions and scales come from the data and the frame, never from 早/上/好 alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DL, UR, Mobject, config

MARGIN = 0.25  # kept clear at the frame's edges


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in scene units."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def center(self) -> np.ndarray:
        return np.array([(self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2, 0.0])

    def inset(self, dx: float, dy: float | None = None) -> Box:
        dy = dx if dy is None else dy
        return Box(self.x0 + dx, self.y0 + dy, self.x1 - dx, self.y1 - dy)

    def columns(self, *fractions: float, gap: float = 0.3) -> list[Box]:
        """Split left to right in proportion to ``fractions``, ``gap`` apart."""
        total = sum(fractions)
        usable = self.width - gap * (len(fractions) - 1)
        out, x = [], self.x0
        for f in fractions:
            w = usable * f / total
            out.append(Box(x, self.y0, x + w, self.y1))
            x += w + gap
        return out

    def rows(self, *fractions: float, gap: float = 0.2) -> list[Box]:
        """Split top to bottom in proportion to ``fractions``."""
        total = sum(fractions)
        usable = self.height - gap * (len(fractions) - 1)
        out, y = [], self.y1
        for f in fractions:
            h = usable * f / total
            out.append(Box(self.x0, y - h, self.x1, y))
            y -= h + gap
        return out

    def split(self, *fractions: float, gap: float = 0.3, wide: float = 1.6) -> list[Box]:
        """Side by side (``columns``) in a wide box, one above the other (``rows``) in a box
        narrower than ``wide`` : 1 (a square video)."""
        if self.width >= wide * self.height:
            return self.columns(*fractions, gap=gap)
        return self.rows(*fractions, gap=gap)

    def contains(self, other: Box, tol: float = 1e-6) -> bool:
        return (
            other.x0 >= self.x0 - tol
            and other.y0 >= self.y0 - tol
            and other.x1 <= self.x1 + tol
            and other.y1 <= self.y1 + tol
        )

    def overlaps(self, other: Box, pad: float = 0.0) -> bool:
        return not (
            self.x1 + pad <= other.x0
            or other.x1 + pad <= self.x0
            or self.y1 + pad <= other.y0
            or other.y1 + pad <= self.y0
        )


def box_of(mob: Mobject) -> Box:
    """The box of what ``mob`` draws: a label's own, its ink's (``ink_corners``:
    ``scenes.mobjects.text_line.OnLine``, placed by its line), not its line's."""
    ink = getattr(mob, "ink_corners", None)
    (x0, y0, _), (x1, y1, _) = ink() if ink else (mob.get_corner(DL), mob.get_corner(UR))
    return Box(float(x0), float(y0), float(x1), float(y1))


def frame_box() -> Box:
    w, h = config.frame_width / 2, config.frame_height / 2
    return Box(-w, -h, w, h)


@dataclass(frozen=True)
class Regions:
    """The standard screen: a title bar, the content area, and the caption bar."""

    title: Box
    content: Box
    caption: Box


def regions(frame: Box, caption_lines: int = 2) -> Regions:
    """The title bar, content area and caption bar of ``frame`` (less its margin)."""
    f = frame.inset(MARGIN)
    title_h = 0.65
    caption_h = 0.38 * caption_lines + 0.32  # room for 2 lines at CAPTION or 3 at SMALL
    title = Box(f.x0, f.y1 - title_h, f.x1, f.y1)
    caption = Box(f.x0, f.y0, f.x1, f.y0 + caption_h)
    content = Box(f.x0, caption.y1 + 0.2, f.x1, title.y0 - 0.2)
    return Regions(title, content, caption)


def nudge_into(mob: Mobject, box: Box) -> Mobject:
    """Shift ``mob`` the least distance that puts it inside ``box`` (e.g. the frame less its
    margin); a label placed beside something near an edge stays on screen."""
    b = box_of(mob)
    dx = max(0.0, box.x0 - b.x0) - max(0.0, b.x1 - box.x1)
    dy = max(0.0, box.y0 - b.y0) - max(0.0, b.y1 - box.y1)
    if dx or dy:
        mob.shift(np.array([dx, dy, 0.0]))
    return mob


def flow(parts, width: float, hbuff: float = 0.15, vbuff: float = 0.1):
    """``parts`` side by side, left to right, wrapping onto further lines (left-aligned) where
    the next part would pass ``width``: a formula row that still fits a narrow frame."""
    from manim import VGroup

    lines, line, used = [], [], 0.0
    for part in parts:
        need = part.width if not line else used + hbuff + part.width
        if line and need > width:
            lines.append(line)
            line, need = [], part.width
        line.append(part)
        used = need
    lines.append(line)
    group = VGroup(*(VGroup(*ln).arrange(buff=hbuff) for ln in lines))
    return group.arrange(np.array([0, -1, 0]), aligned_edge=np.array([-1, 0, 0]), buff=vbuff)


def place(mob: Mobject, box: Box, align: str = "center") -> Mobject:
    """Move ``mob`` into ``box``: centred, or against an edge ("top", "left", "top-left" …)."""
    target = box.center.copy()
    b = box_of(mob)
    if "top" in align:
        target[1] = box.y1 - b.height / 2
    if "bottom" in align:
        target[1] = box.y0 + b.height / 2
    if "left" in align:
        target[0] = box.x0 + b.width / 2
    if "right" in align:
        target[0] = box.x1 - b.width / 2
    return ink_to(mob, target)


def ink_to(mob: Mobject, point) -> Mobject:
    """Shift ``mob`` so that the middle of its ink (:func:`box_of`) is at ``point``: a label
    goes where a spot was found for its ink's box (``move_to`` sets a label by its line,
    scenes.mobjects.text_line, and its ink fell up to a descender's depth off the spot)."""
    return mob.shift(np.asarray(point, dtype=float) - box_of(mob).center)


_DIRECTIONS = [
    np.array([np.cos(a), np.sin(a), 0.0]) for a in np.linspace(0, 2 * np.pi, 16, endpoint=False)
]


# the distances from its anchor at which a label is tried, nearest first (fine near the anchor:
# a label squeezed between its own arrowhead and the plane's edge found no spot at 0.2 or 0.4)
RADII = (0.05, 0.12, 0.2, 0.3, 0.4, 0.52, 0.65, 0.8, 0.95, 1.3, 1.7)


def place_labels(
    labels, anchors, preferred, bounds: Box, obstacles=(), gap: float = 0.08, radii=RADII
):
    """Put each label near its anchor point without touching another label or an obstacle.

    ``preferred`` is a unit direction per label (e.g. along its arrow). Candidates are tried
    around the anchor at growing distance, the preferred direction first. Returns one flag per
    label: False where no free spot was found (the label then sits at a best-effort spot; callers
    in crowded planes set it farther away with :func:`free_spot`, joined by a leader line).
    """
    placed: list[Box] = [o if isinstance(o, Box) else box_of(o) for o in obstacles]
    flags = []
    for mob, anchor, pref in zip(labels, anchors, preferred):
        pref = np.asarray(pref, dtype=float)
        pref = pref / (np.linalg.norm(pref) or 1.0)
        order = sorted(_DIRECTIONS, key=lambda d: -float(np.dot(d, pref)))
        half = np.array([mob.width / 2, mob.height / 2, 0.0])
        best = None
        for radius in radii:
            for d in order:
                # distance from the anchor to the label's edge along d, then the label's centre
                reach = radius + abs(d[0]) * half[0] + abs(d[1]) * half[1]
                center = np.asarray(anchor) + d * reach
                cand = Box(
                    center[0] - half[0],
                    center[1] - half[1],
                    center[0] + half[0],
                    center[1] + half[1],
                )
                if not bounds.contains(cand):
                    continue
                if any(cand.overlaps(p, gap) for p in placed):
                    continue
                best = center
                break
            if best is not None:
                break
        flags.append(best is not None)
        if best is None:
            best = np.asarray(anchor) + pref * (half[0] + 0.1)
        mob.move_to(best)
        if flags[-1]:
            placed.append(box_of(mob))
    return flags


def free_spot(mob, anchor, bounds: Box, obstacles=(), gap: float = 0.08, step: float = 0.08):
    """The centre nearest to ``anchor`` where ``mob`` lies inside ``bounds`` clear of every
    obstacle (by ``gap``): every point of a grid over ``bounds`` is tried; None where none is
    free."""
    hw, hh = mob.width / 2, mob.height / 2
    xs = np.arange(bounds.x0 + hw, bounds.x1 - hw + 1e-9, step)
    ys = np.arange(bounds.y0 + hh, bounds.y1 - hh + 1e-9, step)
    if not len(xs) or not len(ys):
        return None
    cx, cy = (g.ravel() for g in np.meshgrid(xs, ys))
    boxes = [o if isinstance(o, Box) else box_of(o) for o in obstacles]
    free = np.ones(cx.shape, dtype=bool)
    if boxes:
        o = np.array([[b.x0, b.y0, b.x1, b.y1] for b in boxes])[None, :, :]
        apart = (
            (cx[:, None] + hw + gap <= o[..., 0])
            | (o[..., 2] + gap <= cx[:, None] - hw)
            | (cy[:, None] + hh + gap <= o[..., 1])
            | (o[..., 3] + gap <= cy[:, None] - hh)
        )
        free = apart.all(axis=1)
    if not free.any():
        return None
    dx = np.maximum(np.abs(cx - anchor[0]) - hw, 0.0)
    dy = np.maximum(np.abs(cy - anchor[1]) - hh, 0.0)
    k = int(np.argmin(np.where(free, np.hypot(dx, dy), np.inf)))
    return np.array([cx[k], cy[k], 0.0])
