"""Where a plane's tip label goes when its tip has no room (:meth:`VectorPlane.tip_labels`): the
free spot of the plane's box nearest its tip, at the minimum type size, and only then a long
label shortened with "…" — never the followed pair's (issue 38: "ex…ns" for the followed
query "explanations"): where it finds no spot, the other labels in its way make room for it,
each set again where there is room (shortened, at worst)."""

from __future__ import annotations

import numpy as np
from manim import Text

from scenes.mobjects.layout import Box, box_of, free_spot, ink_to
from scenes.mobjects.text import SHORT_LABEL, ellipsize, text_width
from scenes.mobjects.theme import MIN_FONT_SIZE

# a long label with no room is shortened to these shares of its width, the first that finds a
# spot (a review saw "b…l" for "beautiful" where "beaut…ul" had room)
SHORT_SHARES = (0.85, 0.7, 0.6)
SIDE_GAP = 0.3  # two labels on one line closer than this read as one ("not The")


def is_whole(mob, whole) -> bool:
    """Whether ``mob`` names a label of ``whole`` (the followed pair's: "explanations", or
    inside a name, "o(explanations)"): shown whole, never shortened."""
    return names_whole(getattr(mob, "source_text", ""), whole)


def names_whole(text: str, whole) -> bool:
    """Whether ``text`` is, or names (inside "o(…)", "E(…)"), a label of ``whole``."""
    return bool(text) and any(text == t or f"({t})" in text for t in whole)


def set_free(mob, anchor, bounds: Box, obstacles, make, whole=()):
    """``mob`` moved to the free spot nearest ``anchor`` (:func:`free_spot`): first at its own
    size, then at the minimum type size, then closer to its neighbours, then (a label of more
    than :data:`SHORT_LABEL` characters, not one of ``whole``) shortened as little as finds a
    spot (:data:`SHORT_SHARES`), made anew by ``make(text, color, size)``; the label placed, or
    None where the plane's box has no room."""
    sizes = [m.font_size for m in mob.get_family() if getattr(m, "font_size", None)]
    if sizes and min(sizes) > MIN_FONT_SIZE:
        tries = [
            (1.0, 0.08, bounds),
            (MIN_FONT_SIZE / min(sizes), 0.08, bounds),
            (1.0, 0.03, bounds),
        ]
    else:
        tries = [(1.0, 0.08, bounds), (1.0, 0.03, bounds)]
    for scale, gap, room in tries:
        mob.scale(scale)
        spot = free_spot(mob, anchor, room, obstacles, gap=gap, step=0.05)
        if spot is not None:
            return ink_to(mob, spot)
    text = getattr(mob, "source_text", "")
    long = isinstance(mob, Text) and len(text) > SHORT_LABEL
    if not long or is_whole(mob, whole):
        return None
    size = MIN_FONT_SIZE  # a long label: shortened as little as the room allows, not left out
    for share in SHORT_SHARES:
        short = make(ellipsize(text, share * text_width(text, size), size), mob.get_color(), size)
        spot = free_spot(short, anchor, bounds, obstacles, gap=0.03, step=0.05)
        if spot is not None:
            return ink_to(short, spot)
    return None


def _overlaps(a: Box, b: Box, gap: float = 0.03) -> bool:
    return not (
        a.x1 + gap <= b.x0 or b.x1 + gap <= a.x0 or a.y1 + gap <= b.y0 or b.y1 + gap <= a.y0
    )


def place_all(labels, anchors, placed, bounds: Box, obstacles, make, whole=()) -> list:
    """(label, anchor) for each label of ``labels`` set at a spot: those ``placed`` where they
    are, each other at the free spot nearest its tip (:func:`set_free`), clear of the obstacles
    and of the labels already set; a merged label ("a, b") with no spot apart; a label of
    ``whole`` with no spot where the others leave none takes one clear of the obstacles and of
    the other whole labels, and the labels in its way are set again (issue 38)."""
    home = {id(m): (m, a) for m, a in zip(labels, anchors)}
    taken = {id(m): box_of(m) for m, ok in zip(labels, placed) if ok}
    done, todo = {}, list(zip(labels, anchors, placed))
    while todo:
        mob, anchor, ok = todo.pop(0)
        if not ok:  # clear of the labels set, by SIDE_GAP left and right (side by side: one)
            wide = [Box(b.x0 - SIDE_GAP, b.y0, b.x1 + SIDE_GAP, b.y1) for b in taken.values()]
            free = set_free(mob, anchor, bounds, [*obstacles, *wide], make, whole)
            if free is None:  # no room that far apart: beside another, rather than left out
                free = set_free(mob, anchor, bounds, [*obstacles, *taken.values()], make, whole)
            if free is None and getattr(mob, "tip_parts", None):  # a merged label: apart
                for part, a in zip(mob.tip_parts, mob.tip_anchors):
                    part.tip_group = part
                    home[id(part)] = (part, a)
                todo += [(part, a, False) for part, a in zip(mob.tip_parts, mob.tip_anchors)]
                continue
            if free is None and is_whole(mob, whole):  # the others make room for it
                kept = [b for k, b in taken.items() if is_whole(home[k][0], whole)]
                free = set_free(mob, anchor, bounds, [*obstacles, *kept], make, whole)
                if free is not None:
                    spot = box_of(free)
                    moved = [k for k, b in taken.items() if _overlaps(b, spot)]
                    for k in moved:
                        del taken[k]
                        done.pop(k, None)
                        todo = [t for t in todo if id(t[0]) != k]
                        todo.append((home[k][0], home[k][1], False))
            mob = free
        if mob is not None:
            home.setdefault(id(mob), (mob, anchor))
            taken[id(mob)] = box_of(mob)
            done[id(mob)] = (mob, anchor)
    return list(done.values())


def side_by_side(a: Box, b: Box) -> bool:
    """Whether boxes ``a`` and ``b`` share a line (overlapping by half the lower's height) less
    than :data:`SIDE_GAP` apart: two labels there read as one."""
    overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
    gap = max(b.x0 - a.x1, a.x0 - b.x1)
    return overlap > 0.5 * min(a.height, b.height) and gap < SIDE_GAP


def beside_marks(mobjects) -> list[Box]:
    """The box of each tip label among ``mobjects``' families, widened by :data:`SIDE_GAP` left
    and right: obstacles that keep a label placed later off their line beside them (the labels
    of one call are set apart by ``VectorPlane``; "q(x)k(s2)" came from two calls)."""
    labels = [m for mob in mobjects for m in mob.get_family() if getattr(m, "is_tip_label", 0)]
    return [Box(b.x0 - SIDE_GAP, b.y0, b.x1 + SIDE_GAP, b.y1) for b in map(box_of, labels)]


def head_marks(shafts) -> list[Box]:
    """The box of each arrow's head (tail, tip): the triangle back from its tip, as long as
    :meth:`VectorPlane.arrow` draws it (a key's hollow head, up to 0.3, reached past the small
    box kept round its tip point)."""
    out = []
    for a, b in shafts:
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        length = float(np.linalg.norm(b - a))
        if length < 1e-6:
            continue
        u = (b - a) / length
        n = np.array([-u[1], u[0], 0.0])
        tip = min(0.35, 0.35 * length)
        base = b - u * tip
        pts = np.array([b, base + n * tip * 0.5, base - n * tip * 0.5])
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        out.append(Box(lo[0] - 0.02, lo[1] - 0.02, hi[0] + 0.02, hi[1] + 0.02))
    return out


def fan_column(labels, anchors, bounds: Box, obstacles, gap: float = 0.06) -> bool:
    """``labels`` moved into one column beside their ``anchors`` (a cluster of near-parallel
    arrows: DotProducts' keys, whose labels hovered among the heads, none clearly its own), in
    the order of their tips from the top, each as near its tip's height as the others allow,
    the column as near the tips as clears every obstacle: on the right of them, else on the
    left. Returns False (the labels where they were) where neither side has room."""
    if not labels:
        return True
    order = sorted(range(len(labels)), key=lambda k: -float(anchors[k][1]))
    heights = [labels[k].height for k in order]
    if sum(heights) + gap * (len(order) - 1) > bounds.height:
        return False
    ys, top = [], bounds.y1
    for k, h in zip(order, heights):  # top down: at its tip's height, below the one above
        y = min(float(anchors[k][1]), top - h / 2)
        ys.append(y)
        top = y - h / 2 - gap
    lift = max(0.0, bounds.y0 - (ys[-1] - heights[-1] / 2))  # the bottom one inside the box
    ys = [y + lift for y in ys]
    xs = [float(a[0]) for a in anchors]
    boxes = [o if isinstance(o, Box) else box_of(o) for o in obstacles]
    for side, dy in ((side, dy) for dy in FAN_LIFTS for side in (1, -1)):
        edge = (max(xs) if side > 0 else min(xs)) + side * 0.2
        while bounds.x0 <= edge <= bounds.x1:
            spots = []
            for k, y, h in zip(order, ys, heights):
                w = labels[k].width
                x0 = edge if side > 0 else edge - w
                spots.append(Box(x0, y + dy - h / 2, x0 + w, y + dy + h / 2))
            inside = all(bounds.contains(b) for b in spots)
            if inside and not any(_overlaps(s, o) for s in spots for o in boxes):
                for k, b in zip(order, spots):
                    ink_to(labels[k], b.center)
                return True
            edge += side * 0.1
    return False


FAN_LIFTS = (0.0, 0.15, -0.15, 0.3, -0.3, 0.5, -0.5)  # the column moved up or down off its tips


def leader_line(b: Box, anchor, part, near: float):
    """A thin line from box ``b``'s edge to ``anchor`` in ``part``'s colour (0.7 opacity), marked
    ``is_leader``; None when the box is within ``near`` of it."""
    from manim import Line

    anchor = np.asarray(anchor, dtype=float)
    edge = np.array([np.clip(anchor[0], b.x0, b.x1), np.clip(anchor[1], b.y0, b.y1), 0.0])
    gap = float(np.linalg.norm(anchor[:2] - edge[:2]))
    if gap <= near:
        return None
    toward = (anchor - edge) / gap
    line = Line(edge + toward * 0.04, anchor - toward * 0.08, stroke_width=2)
    line.set_stroke(part.family_members_with_points()[0].get_color(), opacity=0.7)
    line.is_leader = True
    return line
