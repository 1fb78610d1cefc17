"""A coordinate plane scaled to the data, with token-coloured arrows from the origin.

Both axes share one unit length, so angles and lengths on screen are true.
"""

from __future__ import annotations

import math

import numpy as np
from manim import DOWN, LEFT, Arrow, Dot, NumberPlane, VGroup

from scenes.mobjects.layout import Box, box_of, place_labels
from scenes.mobjects.text import Num, fitted, label, text_width
from scenes.mobjects.theme import BODY, SMALL, Theme
from scenes.mobjects.tip_room import (
    SIDE_GAP,
    fan_column,
    head_marks,
    leader_line,
    names_whole,
    place_all,
    side_by_side,
)


def nice_step(span: float) -> float:
    """A tick step of 1, 2 or 5 × 10^k that gives about four ticks over ``span``."""
    raw = span / 4
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return m * power
    return 10 * power


def _data_range(points, pad: float) -> tuple[np.ndarray, np.ndarray]:
    """The plane's x and y ranges: the points and the origin, padded, neither axis collapsed."""
    pts = np.atleast_2d(np.asarray(points, dtype=float))[:, :2]
    pts = np.vstack([pts, [[0.0, 0.0]]])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    big = max(span.max(), 1e-9)
    if big <= 1e-6 * max(1.0, float(np.abs(pts).max())) or big < 1e-9 * 1.0001:
        # (nearly) zero vectors only: a unit plane, on which they are honestly at the origin
        span, big = np.ones(2), 1.0
    span = np.maximum(span, 0.25 * big)  # keep a thin cloud from collapsing one axis
    centre = (lo + hi) / 2
    return centre - span * (0.5 + pad), centre + span * (0.5 + pad)


def _tick_room(lo, hi) -> float:
    """Room for the widest tick label on the left (−1e6 needs more than 0.5)."""
    step0 = nice_step(max(hi - lo))
    first = math.ceil(lo[1] / step0) * step0
    texts = [_tick(v, step0) for v in np.arange(first, hi[1] + 1e-9, step0)]
    return max([0.45] + [text_width(t, SMALL) + 0.15 for t in texts])


def _number_plane(lo, hi, step, unit, theme: Theme, grid_opacity: float) -> NumberPlane:
    return NumberPlane(
        x_range=[lo[0], hi[0], step],
        y_range=[lo[1], hi[1], step],
        x_length=(hi[0] - lo[0]) * unit,
        y_length=(hi[1] - lo[1]) * unit,
        background_line_style={
            "stroke_color": theme.grid,
            "stroke_width": 1.5,
            "stroke_opacity": grid_opacity,
        },
        axis_config={"stroke_color": theme.axis, "stroke_width": 2, "include_ticks": False},
        faded_line_ratio=1,
    )


class VectorPlane(VGroup):
    """A NumberPlane whose ranges cover ``points`` (and the origin), fitted into ``box``.

    Both axes share one unit length (angles and lengths on screen are true); tick labels on
    the bottom and left edges, thinned where they would touch.

    Parameters
    ----------
    points : array_like, shape (k, 2)
        Every point the plane must show (tips, chain points); the origin is always included.
    box : Box
        The region of the frame the plane (with its tick labels) fills.
    theme : Theme
    pad : float
        Margin around the points, as a fraction of their span.
    ticks : bool
        Tick labels on the axes.
    grid_opacity : float
        Opacity of the background grid lines.
    maps : sequence of 2 × 2 arrays
        Row-convention matrices the plane will be transformed by: it is sized so that its
        transformed grid stays inside ``box`` too.

    Examples
    --------
    .. code-block:: python

        from manim import Scene

        from scenes.mobjects.layout import Box
        from scenes.mobjects.plane import VectorPlane
        from scenes.mobjects.theme import THEMES

        class PlaneExample(Scene):
            def construct(self):
                theme = THEMES["dark"]
                vectors = [[1.0, 0.5], [-0.4, 1.2]]
                box = Box(-3, -2, 3, 2)
                plane = VectorPlane(vectors, box, theme)
                colors = [theme.token(0), theme.token(1)]
                arrows = plane.arrows(vectors, colors)
                labels = plane.tip_labels(vectors, ["早", "好"], colors, box)
                self.add(plane, arrows, labels)
    """

    near = None  # past this from its tip a label gets a leader line (None: NEAR; crowded: less)
    radii = None  # how far from its tip a label is looked for (None: every spot of place_labels)

    def __init__(
        self,
        points,
        box: Box,
        theme: Theme,
        pad: float = 0.18,
        ticks: bool = True,
        grid_opacity: float = 1.0,
        maps=(),
    ):
        super().__init__()
        lo, hi = _data_range(points, pad)
        tick_room = _tick_room(lo, hi) if ticks else 0.0
        corners = np.array([[lo[0], lo[1]], [lo[0], hi[1]], [hi[0], lo[1]], [hi[0], hi[1]]])
        reach = np.vstack([corners] + [corners @ np.asarray(W, dtype=float) for W in maps])
        r_lo, r_hi = reach.min(axis=0), reach.max(axis=0)
        unit = min(
            (box.width - tick_room) / (r_hi[0] - r_lo[0]),
            (box.height - tick_room) / (r_hi[1] - r_lo[1]),
        )
        self.unit = unit
        step = nice_step(max(hi - lo))
        self.step = step
        self.plane = _number_plane(lo, hi, step, unit, theme, grid_opacity)
        # place it so that the whole reach (the plane and its images) is centred in the box
        offset = ((lo + hi) / 2 - (r_lo + r_hi) / 2) * unit
        self.plane.move_to(
            box.center + np.array([tick_room / 2 + offset[0], tick_room / 2 + offset[1], 0])
        )
        self.add(self.plane)
        self.whole = ()  # labels never shortened: the followed pair's (Kit.plane sets them)
        self.tick_labels = VGroup()
        if ticks:
            self._add_ticks(lo, hi, step, theme)
        self.add(self.tick_labels)
        self.theme = theme
        self.tips: list = []  # every arrowhead drawn in this plane, for tip_labels to avoid
        self.shafts: list = []  # and every shaft, (tail, tip) on screen
        self.lo, self.hi = lo, hi

    def _add_ticks(self, lo, hi, step, theme):
        def values(a, b):
            first = math.ceil(a / step) * step
            vals = np.arange(first, b + 1e-9, step)
            return [v for v in vals if abs(v) > 1e-9]

        x_edge = self.plane.get_bottom()[1]
        y_edge = self.plane.get_left()[0]
        for v in values(lo[0], hi[0]):
            t = label(_tick(v, step), SMALL, theme.muted)
            t.next_to(np.array([self.c2p(v, 0)[0], x_edge, 0]), DOWN, buff=0.08)
            self.tick_labels.add(t)
        for v in values(lo[1], hi[1]):
            t = label(_tick(v, step), SMALL, theme.muted)
            t.next_to(np.array([y_edge, self.c2p(0, v)[1], 0]), LEFT, buff=0.08)
            self.tick_labels.add(t)
        # keep only labels that do not collide with a neighbour on the same axis
        kept = VGroup()
        for t in self.tick_labels:
            if all(not _touch(t, k) for k in kept):
                kept.add(t)
        self.remove(self.tick_labels)
        self.tick_labels = kept

    def c2p(self, x: float, y: float = 0.0) -> np.ndarray:
        return self.plane.c2p(x, y)

    def point(self, v) -> np.ndarray:
        v = np.asarray(v, dtype=float)
        return self.c2p(float(v[0]), float(v[1]) if v.size > 1 else 0.0)

    def arrow(
        self,
        v,
        color,
        start=None,
        stroke_width: float = 5,
        opacity: float = 1.0,
        outline: bool = False,
        tip: float = 0.4,
    ):
        """An arrow from ``start`` (default the origin) to ``start + v`` in data coordinates.

        ``outline``: a dashed shaft and a hollow tip — the style of keys, so that a token's
        query (solid) and key (outlined) tell apart even where they coincide. ``tip``: its head
        at most this long (a small plane of many: smaller, no pile of heads)."""
        start = np.zeros(2) if start is None else np.asarray(start, dtype=float)
        a, b = self.point(start), self.point(start + np.asarray(v, dtype=float)[:2])
        if np.linalg.norm(b - a) < 1e-6:
            return Dot(a, radius=0.06, color=color)
        length = np.linalg.norm(b - a)
        self.tips.append(b)  # labels placed later keep clear of every arrowhead and shaft
        self.shafts.append((a, b))
        if outline:
            return _outlined_arrow(a, b, color, stroke_width, opacity)
        return Arrow(
            a,
            b,
            buff=0,
            color=color,
            stroke_width=stroke_width,
            max_tip_length_to_length_ratio=min(0.35, tip / max(length, 1e-6)),
            max_stroke_width_to_length_ratio=12,
            stroke_opacity=opacity,
            fill_opacity=opacity,
        )

    def arrows(self, coords, colors, outline: bool = False, **kw) -> VGroup:
        """One arrow from the origin per row of ``coords``, in its colour (keys: ``outline``)."""
        drawn = VGroup(
            *(self.arrow(c, col, outline=outline, **kw) for c, col in zip(coords, colors))
        )
        for mob in drawn:
            mob.wants_label = True  # a token's arrow: the layout checks look for its label
        return drawn

    def tip_labels(
        self,
        coords,
        texts,
        colors,
        bounds: Box,
        obstacles=(),
        clear_axes: bool = False,
        merge: float = 0.0,
        strict: bool = False,
    ) -> VGroup:
        """Labels at the arrow tips, nudged apart so none overlaps another or the obstacles;
        in a crowded plane a label with no free spot near its tip is set farther away, where
        there is room, and every label away from its tip is joined to it by a thin leader line
        in its colour (:meth:`_leadered`): no label is left out, none is far from its arrow
        without a line to it (issue 32). Only where the whole plane has no room is one left out.

        ``clear_axes``: a zero vector's label (a padding token's dot at the origin) is set off
        the axes, on the side away from the other vectors, after the others are placed.
        ``merge``: the labels of tips closer than this (scene units) are set as one stack, each
        on its own line (:meth:`_merged`), instead of two labels fighting for one point."""
        spots = [Box(t[0] - 0.14, t[1] - 0.14, t[0] + 0.14, t[1] + 0.14) for t in self.tips]
        spots += shaft_marks(self.shafts)
        # clear of each head's triangle; where that leaves a label out (CrossAttention at 1:1),
        # of the box round each tip only (``strict``: a story's plane draws fewer arrows)
        for heads in (spots + head_marks(self.shafts), *([] if strict else [spots])):
            labels = [self._tip_label(t, col) for t, col in zip(texts, colors)]
            anchors = [self.point(c) for c in coords]
            if merge > 0 and len(anchors) > 1:
                labels, anchors = self._merged(labels, anchors, merge)
            out = self._labelled(labels, anchors, bounds, obstacles, heads, clear_axes)
            named = [m for m in out.get_family() if getattr(m, "is_tip_label", False)]
            if len(named) >= len(texts):
                break
        return out

    def _labelled(self, labels, anchors, bounds, obstacles, heads, clear_axes) -> VGroup:
        """:meth:`tip_labels` for ``labels`` made, clear of ``heads`` (boxes) too."""
        origin = self.point([0, 0])
        prefs = [a - origin for a in anchors]
        zero = [bool(clear_axes and np.linalg.norm(p) < 1e-6) for p in prefs]
        if not any(zero):
            placed = self._place_off_axes(labels, anchors, prefs, bounds, list(obstacles) + heads)
        else:
            flags = self._place_around_origin(
                labels, anchors, prefs, zero, bounds, obstacles, heads
            )
            placed = [flags[k] for k in range(len(labels))]
        far = list(obstacles) + heads
        self._set_apart(labels, anchors, prefs, placed, bounds, far)
        return VGroup(*self._with_leaders(labels, anchors, placed, bounds, far))

    def _set_apart(self, labels, anchors, prefs, placed, bounds, obstacles) -> None:
        """Each placed label that sits beside another on one line (:func:`side_by_side`: "not
        The" read as one label, issue 38) placed again near its tip, clear of the others by
        :data:`SIDE_GAP` left and right; where it finds no such spot, marked unplaced (set
        where there is room, with a leader line). ``placed`` is updated in place."""
        for k, mob in enumerate(labels):
            others = [box_of(m) for j, m in enumerate(labels) if j != k and placed[j]]
            if not placed[k] or not any(side_by_side(box_of(mob), b) for b in others):
                continue
            wide = [Box(b.x0 - SIDE_GAP, b.y0, b.x1 + SIDE_GAP, b.y1) for b in others]
            (placed[k],) = place_labels(
                [mob], [anchors[k]], [prefs[k]], bounds, [*obstacles, *wide], **self._reach()
            )

    def _place_off_axes(self, labels, anchors, prefs, bounds, obstacles) -> list[bool]:
        """:func:`place_labels`, first near each tip and off the axes (a review: labels struck
        through by an axis), then, for those with no such spot, anywhere near the tip; where
        that leaves a label without a spot that the axes alone would not, the axes are
        ignored (a 3-token plane at 4:3 lost an arrow)."""
        off = self._off_axes(labels, anchors, prefs, bounds, obstacles)
        if all(off):
            return off
        plain = place_labels(labels, anchors, prefs, bounds, obstacles=obstacles, **self._reach())
        if sum(plain) > sum(off):
            return plain
        return self._off_axes(labels, anchors, prefs, bounds, obstacles)  # placed as before

    def _off_axes(self, labels, anchors, prefs, bounds, obstacles) -> list[bool]:
        axes = [box_of(a) for a in (self.plane.get_x_axis(), self.plane.get_y_axis())]
        placed = place_labels(
            labels, anchors, prefs, bounds, obstacles=obstacles + axes, radii=OFF_AXES_RADII
        )
        missed = [k for k, ok in enumerate(placed) if not ok]
        if missed:
            taken = [box_of(m) for m, ok in zip(labels, placed) if ok]
            again = place_labels(
                [labels[k] for k in missed],
                [anchors[k] for k in missed],
                [prefs[k] for k in missed],
                bounds,
                obstacles=obstacles + taken,
                **self._reach(),
            )
            for k, ok in zip(missed, again):
                placed[k] = ok
        return placed

    def _reach(self) -> dict:
        return {} if self.radii is None else {"radii": self.radii}

    def story_arrows(
        self, coords, texts, colors, order, bounds: Box, obstacles=(), most=None, **kw
    ):
        """Token arrows with a label each (:meth:`arrows`, :meth:`tip_labels`): every one where
        the plane has room to label them all; else (issue 32) the first of ``order`` — the
        story's tokens, the followed one and its strongest keys first
        (:func:`attention_core.story_order`) — as many as all find a label, the others not
        drawn (``most``: at most this many are tried; a token not in ``order`` is never drawn:
        a key the mask hides from the query). ``kw``: ``outline`` and ``stroke_width``
        for the arrows, the rest for the labels. Returns (the indices drawn, ascending; the
        arrows; the labels)."""
        coords, n = np.asarray(coords, dtype=float), len(coords)
        style = {k: kw.pop(k) for k in ("outline", "stroke_width") if k in kw}
        tips, shafts = list(self.tips), list(self.shafts)
        pool = len(order)  # every token, or those the story may draw
        most = pool if most is None else min(most, pool)
        counts = [k for k in (pool, *STORY_COUNTS) if k <= most and k <= n]
        for count in counts:
            self.tips[:], self.shafts[:] = tips, shafts
            keep = sorted(order[:count])
            arrows = self.arrows(coords[keep], [colors[i] for i in keep], **style)
            labels = self.tip_labels(
                coords[keep],
                [texts[i] for i in keep],
                [colors[i] for i in keep],
                bounds,
                obstacles,
                strict=count != counts[-1],  # fewer arrows before labels nearer the heads
                **kw,
            )
            named = {id(m) for m in labels.get_family() if getattr(m, "is_tip_label", False)}
            if len(named) >= len(keep) or count == counts[-1]:
                return keep, arrows, labels
        raise AssertionError("unreachable")

    def fanned_labels(self, coords, texts, colors, bounds: Box, obstacles=()) -> VGroup:
        """Labels of a cluster of near-parallel arrows in one column beside their tips, top to
        bottom as the tips (:func:`fan_column`), each joined to its own tip by a leader line
        where it is not at it: every label whole, apart and clear of every arrowhead and shaft
        (issue 38: DotProducts' keys' labels hovered among their heads), in the small type where
        the body's has no room; with none, :meth:`tip_labels` — kept, too, where each finds its
        spot at its own tip (a 3-token example's keys, apart: a column would lead across them)."""
        at_tips = self.tip_labels(coords, texts, colors, bounds, obstacles)
        if not any(getattr(m, "is_leader", False) for m in at_tips.get_family()):
            return at_tips
        anchors = [self.point(c) for c in coords]
        heads = head_marks(self.shafts) + shaft_marks(self.shafts)
        heads += [Box(t[0] - 0.14, t[1] - 0.14, t[0] + 0.14, t[1] + 0.14) for t in self.tips]
        for size in (BODY, SMALL):
            labels = [self._tip_label(t, col, size) for t, col in zip(texts, colors)]
            if fan_column(labels, anchors, bounds, [*obstacles, *heads]):
                return VGroup(*(self._leadered(m, a, 0.12) for m, a in zip(labels, anchors)))
        return at_tips

    def _with_leaders(self, labels, anchors, placed, bounds, obstacles) -> list:
        """Each label that found no spot near its tip set at the free spot of the plane's box
        nearest to it (:func:`scenes.mobjects.tip_room.place_all`: never the followed pair's
        shortened, ``self.whole``), clear of the obstacles and of the labels already placed;
        each label then away from its tip joined to it by a leader line."""
        spots = place_all(labels, anchors, placed, bounds, obstacles, self._tip_label, self.whole)
        return [self._leadered(mob, anchor, self.near) for mob, anchor in spots]

    def leadered(self, mob, anchor):
        """A label a scene placed near ``anchor`` (scene coordinates) itself, joined to it by a
        leader line where it is farther than :data:`NEAR`, as every tip label is."""
        return self._leadered(mob, anchor, self.near)

    @staticmethod
    def _leadered(mob, anchor, near: float | None = None):
        """``mob`` itself when its box is within :data:`NEAR` of its tip, else ``mob`` with a
        thin line (its colour, 0.7 opacity) from its box's edge to the tip; a stack of labels
        (:meth:`_merged`) a line from each label that is far from its own tip, in its colour."""
        parts = getattr(mob, "tip_parts", None) or [mob]
        tips = getattr(mob, "tip_anchors", None) or [anchor]
        for part, tip in zip(parts, tips):  # its own tip, as an offset: it moves with the label
            part.tip_home = np.asarray(tip, dtype=float) - part.get_center()
        near = NEAR if near is None else near
        lines = [leader_line(box_of(part), tip, part, near) for part, tip in zip(parts, tips)]
        lines = [line for line in lines if line is not None]
        if not lines:
            return mob
        group = VGroup(mob, *lines)
        group.source_text = getattr(mob, "source_text", "")
        return group

    def _tip_label(self, text: str, color, size: float = BODY):
        """A token label with a halo of the background behind it: readable over the grid."""
        short, size = fitted(text, 2.6, size)  # smaller type before an ellipsis
        mob = label(text if names_whole(text, self.whole) else short, size, color)
        mob.set_stroke(self.theme.background, width=5, background=True)
        mob.is_tip_label = True  # drawn above the arrows (ExplainerScene keeps them on top)
        return mob

    def _merged(self, labels, anchors, merge: float):
        """Labels of tips closer than ``merge`` stacked in one column, each on its own line in
        its colour, the top tip's on top (issue 38: one label per arrow, never merged — "soup,it"
        side by side read as one), set as one block at the middle of their tips; a label there
        farther than :data:`NEAR` from its own tip gets its own leader line."""
        groups: list[list[int]] = []
        for k, a in enumerate(anchors):
            near = next((g for g in groups if np.linalg.norm(anchors[g[0]] - a) < merge), None)
            if near is None:
                groups.append([k])
            else:
                near.append(k)
        if all(len(g) == 1 for g in groups):
            return labels, anchors
        stacked, homes = [], []
        for g in groups:
            if len(g) == 1:
                stacked.append(labels[g[0]])
                homes.append(anchors[g[0]])
                continue
            g = sorted(g, key=lambda k: -float(anchors[k][1]))  # top to bottom, as the tips
            group = VGroup(*(labels[k] for k in g)).arrange(DOWN, buff=0.04, aligned_edge=LEFT)
            group.tip_parts = [labels[k] for k in g]  # set apart where the group has no room
            group.tip_anchors = [anchors[k] for k in g]
            for part in group.tip_parts:
                part.tip_group = group  # the checks measure a part's distance by its group's
            stacked.append(group)
            homes.append(np.mean([anchors[k] for k in g], axis=0))
        return stacked, homes

    def _place_around_origin(self, labels, anchors, prefs, zero, bounds, obstacles, heads):
        """Place the labels of the non-zero vectors, then each zero vector's label off both
        axes, away from the others; returns, per label, whether it found a spot."""
        keep = [k for k in range(len(labels)) if not zero[k]]
        flags = dict.fromkeys(range(len(labels)), False)
        ok = place_labels(
            [labels[k] for k in keep],
            [anchors[k] for k in keep],
            [prefs[k] for k in keep],
            bounds,
            obstacles=list(obstacles) + heads,
            **self._reach(),
        )
        flags.update(zip(keep, ok))
        away = -np.sum([prefs[k] for k in keep], axis=0) if keep else np.array([-1.0, -1.0, 0])
        if np.linalg.norm(away) < 1e-6:
            away = np.array([-1.0, -1.0, 0.0])
        axes = [self.plane.get_x_axis(), self.plane.get_y_axis()]
        others = [labels[k] for k in keep if flags[k]]
        for k in (k for k in range(len(labels)) if zero[k]):
            (flags[k],) = place_labels(
                [labels[k]],
                [anchors[k]],
                [away],
                bounds,
                obstacles=list(obstacles) + axes + others + heads,
            )
            if flags[k]:
                others.append(labels[k])
        return flags

    @staticmethod
    def view_note(view, which: str, template: str, theme: Theme) -> VGroup:
        """'2-D view: keeps 87 %' (``template`` with ``{kept}``) under a plane whose vectors have
        more than two dimensions; empty when the view is exact. ``which`` names the view's role."""
        if view.exact:
            return VGroup()
        kept = Num(view.kept * 100, ("kept_pct", which), 0, SMALL, theme.muted, suffix=" %")
        before, after = template.split("{kept}")
        parts = [label(before, SMALL, theme.muted), kept, label(after, SMALL, theme.muted)]
        parts = [p for p in parts if p.source_text.strip()]
        return VGroup(*parts).arrange(buff=0.12)  # Pango drops edge spaces: the gap is ours


STORY_COUNTS = (16, 12, 10, 8, 6, 5, 4, 3, 2, 1)  # arrows tried where not all can be labelled
OFF_AXES_RADII = (0.05, 0.12, 0.2, 0.3, 0.4)  # a label's spots off the axes, before any on one
CROWDED = 12  # past this many tokens a plane of them draws the story's few (issue 32: 24 arrows
CROWDED_TOKENS = 8  # in a thicket), at most this many (Embeddings, Projections, Overview)
NEAR = 0.45  # a tip label's box farther than this from its tip gets a leader line


def _leader(b: Box, anchor, part, near: float | None = None):
    """:func:`leader_line` within :data:`NEAR` by default (WeightedSum's chain draws its own)."""
    return leader_line(b, anchor, part, NEAR if near is None else near)


SHAFT_SAMPLES = (0.1, 0.22, 0.34, 0.46, 0.58, 0.7, 0.8)  # along a shaft, short of its head


def shaft_marks(shafts, half: float = 0.05) -> list[Box]:
    """Small boxes along each shaft (tail, tip): no label may sit on an arrow's line either."""
    return [
        Box(p[0] - half, p[1] - half, p[0] + half, p[1] + half)
        for a, b in shafts
        for p in (a + t * (b - a) for t in SHAFT_SAMPLES)
    ]


def sample_arrow(color, outline: bool = False, length: float = 0.6, stroke_width: float = 5):
    """A short horizontal arrow for a legend: solid (queries) or outlined (keys)."""
    a, b = np.array([0.0, 0.0, 0.0]), np.array([length, 0.0, 0.0])
    if outline:
        return _outlined_arrow(a, b, color, stroke_width, 1.0)
    return Arrow(
        a, b, buff=0, color=color, stroke_width=stroke_width, max_tip_length_to_length_ratio=0.4
    )


def _tick(v: float, step: float) -> str:
    """A compact tick label: 0.5, 2, 150 — or 2e−9, 4e+06 where plain digits would be long."""
    if step < 1e-3 or abs(v) >= 1e5:
        mantissa, exponent = f"{v:.0e}".split("e")
        return f"{mantissa}e{int(exponent)}".replace("-", "−")
    decimals = max(0, -int(math.floor(math.log10(step)))) if step < 1 else 0
    s = f"{v:.{decimals}f}"
    return s.replace("-", "−")


def _outlined_arrow(a, b, color, stroke_width: float, opacity: float) -> VGroup:
    """A dashed shaft ending in a hollow triangular tip, from point ``a`` to ``b``."""
    from manim import DashedLine, Polygon

    d = b - a
    length = float(np.linalg.norm(d))
    u = d / length
    n = np.array([-u[1], u[0], 0.0])
    tip = min(0.3, 0.35 * length)
    base = b - u * tip
    head = Polygon(
        b,
        base + n * tip * 0.45,
        base - n * tip * 0.45,
        color=color,
        stroke_width=max(2.0, stroke_width * 0.6),
        stroke_opacity=opacity,
    )
    head.set_fill(opacity=0)
    shaft = DashedLine(
        a,
        base,
        color=color,
        stroke_width=stroke_width * 0.8,
        dash_length=0.1,
        stroke_opacity=opacity,
    )
    group = VGroup(shaft, head)
    group.tip_point = b
    return group


def _touch(a, b) -> bool:
    from scenes.mobjects.layout import box_of

    return box_of(a).overlaps(box_of(b), 0.06)


def grow(mob):
    """GrowArrow for an arrow; a zero vector is drawn as a dot, which fades in."""
    from manim import Arrow as _Arrow
    from manim import FadeIn, GrowArrow

    if isinstance(mob, _Arrow):
        return GrowArrow(mob)
    if hasattr(mob, "tip_point"):  # an outlined (key) arrow: drawn from its tail
        from manim import Create

        return Create(mob)
    return FadeIn(mob)
