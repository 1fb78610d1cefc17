"""Where HeadMoved's labels go (mixin-free helpers of :class:`scenes.head_moved.HeadMoved`): the
tip labels of its two planes clear of every arrow, shaft and arrowhead, and the first step's
plane fitted to the room it has.

Issue 38, the chef sentence (22 tokens, SmolLM2 layer 18, it → soup): the close-up's labels
piled up at soup's arrowhead (E, ΔE, the terms' names: each placed clear of a 0.28-unit box at
each tip and of the shaft's centre line, while a 5-wide arrow's head is 0.35 long and as wide);
now every arrowhead's triangle, sampled as the shafts are, is kept clear of (:func:`head_marks`).
The first still drew E in the strip later steps leave it, the rest of the frame empty: now the
plane of E and ΔE fills the content (:func:`filling`) until the terms come.
"""

from __future__ import annotations

import numpy as np
from manim import Arrow, VGroup

from scenes.mobjects.layout import Box, box_of

REACH = 0.6  # a leader line longer than this takes the eye away from the tip
FAR = 1.2  # one longer than this is worse than one across an arrow
MARK = 0.03  # half the side of a small box that marks a point of an arrow


def lines_of(plane) -> list[Box]:
    """Small boxes every 0.05 along each arrow of ``plane`` (tail to head): a label kept clear
    of them crosses no arrow (issue 41: "E + ΔE" and "E(she)" sat across arrows, between the
    plane's own sparser marks)."""
    out = []
    for a, b in plane.shafts:
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        steps = max(2, int(np.linalg.norm(b - a) / 0.05) + 1)
        for t in np.linspace(0.0, 1.0, steps):
            p = a + t * (b - a)
            out.append(Box(p[0] - MARK, p[1] - MARK, p[0] + MARK, p[1] + MARK))
    return out


def head_marks(arrows) -> list[Box]:
    """Small boxes over every arrowhead of ``arrows`` (Arrows, or groups of them): its triangle
    sampled every 0.05 or so, corners and inside, so that a label kept clear of them sits on
    no arrowhead (issue 38: "The" and "soup" touched soup's head, "that₁" sat on it)."""
    out = []
    for mob in arrows:
        for arrow in mob.get_family():
            if not isinstance(arrow, Arrow) or not arrow.has_tip():
                continue
            a, b, c = (np.asarray(v, dtype=float) for v in arrow.get_tip().get_vertices()[:3])
            n = max(2, int(max(np.linalg.norm(b - a), np.linalg.norm(c - a)) / 0.05) + 1)
            for u in np.linspace(0.0, 1.0, n):
                for v in np.linspace(0.0, 1.0 - u, max(2, int((1 - u) * n) + 1)):
                    p = a + u * (b - a) + v * (c - a)
                    out.append(Box(p[0] - MARK, p[1] - MARK, p[0] + MARK, p[1] + MARK))
    return out


HEAD_GAP = 0.3  # a label's gap from the arrowheads at the other tip (:func:`heads_apart`)


def heads_apart(arrows, gap: float = HEAD_GAP) -> list[Box]:
    """Each arrowhead of ``arrows`` as its triangle's box grown by ``gap``: a label kept clear
    of them is not read as that arrow's (issue 38: at 4:3 "E(she)" sat 0.2 from ΔE's head, at
    the other end of ΔE's short arrow, and read as ΔE's label)."""
    return [Box(*t.min(axis=0), *t.max(axis=0)).inset(-gap) for t in head_triangles(arrows)]


def nearer_own(labels: VGroup, own, other) -> bool:
    """Whether the tip label of ``labels`` is read as ``own``'s: joined to it by a leader line,
    or nearer it than ``other`` (tips, scene points)."""
    family = labels.get_family()
    if any(getattr(m, "is_leader", False) for m in family):
        return True
    named = [box_of(m) for m in family if getattr(m, "is_tip_label", False)]
    return all(_gap_to(own, b) + 0.02 < _gap_to(other, b) for b in named)


def clear_labels(
    plane, coords, texts, colors, obstacles, room=None, arrows=(), beside=None
) -> VGroup:
    """:func:`placed_labels`' labels."""
    return placed_labels(plane, coords, texts, colors, obstacles, room, arrows, beside)[1]


def placed_labels(
    plane, coords, texts, colors, obstacles, room=None, arrows=(), beside=None
) -> tuple[tuple, VGroup]:
    """(their :func:`_label_score`, the labels): ``plane``'s tip labels clear of every arrow
    (:func:`lines_of`) and of the arrowheads of ``arrows`` (:func:`head_marks`), their leader
    lines too: tried apart, then with tips close together sharing one label, then in ``room``
    (a box round the plane's, clear of ``obstacles``), then in a column of ``beside`` (else
    ``room``) left or right of every arrow (:func:`sides`: where small terms end inside a large
    one's head, their labels in a column, each leader line across to its tip), then, where
    every leader line crosses something, in one column top to bottom as their tips
    (``plane.fanned_labels``); the first with every label near its tip and no leader line
    across anything, else the best by :func:`_label_score` (issue 38: at 1:1 the first clear
    try left "slides" out and set "they" 2.8 units from its tip; the chef sentence's labels
    piled round soup's head, a leader line ran down soup's shaft; at-the-limits' "notes" line
    crossed ΔE's head and "own", "+ 20"'s ran through "notes")."""
    shafts = [(np.asarray(a)[:2], np.asarray(b)[:2]) for a, b in plane.shafts]
    boxes = [plane.box] + ([room] if room is not None else [])
    for wide in dict.fromkeys(b for b in (room, beside) if b is not None):
        boxes += sides(plane, wide, texts)
    marks = [*obstacles, *lines_of(plane), *head_marks(arrows)]
    heads = head_triangles(arrows)
    texts_near = [box_of(m).inset(0.02) for m in obstacles if not isinstance(m, Box)]
    best = None
    merges = (0.0, 0.15, 0.3) if len(coords) > 1 else (0.0,)  # (one label: none to share)
    for bounds, merge in [(b, m) for b in boxes for m in merges]:
        labels = plane.tip_labels(coords, texts, colors, bounds, marks, merge=merge)
        score = _label_score(labels, texts, shafts, merge, heads, texts_near)
        if best is None or score < best[0]:
            best = (score, labels)
        if score == (0, 0, 0, 0.0):
            return score, labels
    for bounds in dict.fromkeys(b for b in (beside, room) if b is not None):
        if best[0][:3] == (0, 0, 0):
            break  # a leader line across an arrow, or its head, only: a column, top to bottom
        labels = plane.fanned_labels(coords, texts, colors, bounds, marks)
        score = _label_score(labels, texts, shafts, 0.0, heads, texts_near)
        if score < best[0]:
            best = (score, labels)
    return best


def head_triangles(arrows) -> list[np.ndarray]:
    """The arrowheads of ``arrows`` (Arrows, or groups of them), each its triangle's three
    corners (the first its tip), for :func:`_label_score`."""
    return [
        np.asarray(arrow.get_tip().get_vertices()[:3], dtype=float)[:, :2]
        for mob in arrows
        for arrow in mob.get_family()
        if isinstance(arrow, Arrow) and arrow.has_tip()
    ]


def _across_head(p, q, heads, skip: float = 0.05) -> int:
    """How many of ``heads`` (:func:`head_triangles`) the leader line p → q runs through, but
    one at the tip it leads to (0.08 past its end: :func:`scenes.mobjects.tip_room.leader_line`):
    the head of that tip's own arrow (its corner within ``skip`` of it), or one over that tip
    (the chain's tips can lie under ΔE's wide head: no line reaches them without entering it)."""
    length = float(np.linalg.norm(q - p))
    if length < 1e-9:
        return 0
    anchor = q + (q - p) / length * 0.08
    pts = np.vstack([p + np.linspace(0.0, 1.0, 40)[:, None] * (q - p), anchor])
    count = 0
    for a, b, c in heads:
        m = np.column_stack([b - a, c - a])
        if np.linalg.norm(a - anchor) < skip or abs(float(np.linalg.det(m))) < 1e-9:
            continue
        u, v = np.linalg.solve(m, (pts - a).T)
        inside = (u > 0.02) & (v > 0.02) & (u + v < 0.98)
        count += bool(inside[:-1].any() and not inside[-1])
    return count


def split_off(labels: VGroup, text: str) -> tuple[VGroup, VGroup]:
    """``labels`` (:func:`clear_labels`) without the label of ``text`` and its leader line,
    and that label with its line (empty where it was left out): a label placed with the others,
    shown later (HeadMoved's ΔE, placed with the terms', shown at the sum's step)."""
    family = labels.get_family()
    mine = next(
        (
            m
            for m in family
            if getattr(m, "is_tip_label", False) and getattr(m, "source_text", None) == text
        ),
        None,
    )
    if mine is None:
        return labels, VGroup()
    colour, edge = mine.family_members_with_points()[0].get_color(), box_of(mine)
    lines = [  # its line: in its colour, from 0.04 off its box's edge (another label's, in
        # another colour, can start as near: "+ 20" under ΔE, both led to the chain's end)
        m
        for m in family
        if getattr(m, "is_leader", False)
        and m.get_stroke_color() == colour
        and _gap_to(m.get_start(), edge) < 0.06
    ]
    for parent in family:
        parent.remove(mine, *lines)
    for item in list(labels.submobjects):  # a group now without a label of its own
        if not any(getattr(m, "is_tip_label", False) for m in item.get_family()):
            labels.remove(item)
    return labels, VGroup(mine, *lines)


def _gap_to(point, b: Box) -> float:
    """Distance from ``point`` to box ``b`` (0 inside)."""
    dx = max(b.x0 - point[0], 0.0, point[0] - b.x1)
    dy = max(b.y0 - point[1], 0.0, point[1] - b.y1)
    return float(np.hypot(dx, dy))


def sides(plane, room: Box, texts) -> list[Box]:
    """The parts of ``room`` left and right of every arrow of ``plane`` (and its arrowheads'
    width), each wide enough for the widest of ``texts``."""
    from scenes.mobjects.text import text_width
    from scenes.mobjects.theme import BODY

    if not plane.shafts:
        return []
    xs = [float(p[0]) for ab in plane.shafts for p in ab]
    x0, x1, wide = (
        min(xs) - HEAD_HALF,
        max(xs) + HEAD_HALF,
        max(text_width(str(t), BODY) for t in texts),
    )
    out = [Box(room.x0, room.y0, x0, room.y1), Box(x1, room.y0, room.x1, room.y1)]
    return [b for b in out if b.width >= wide + 0.1]


HEAD_HALF = 0.2  # half an arrowhead's width, and a little


def _along(p, q, shafts, skip: float = 0.15, near: float = 0.05) -> bool:
    """Whether the leader line p → q (q its tip) runs along a shaft: a point of it, but the
    last ``skip`` before its tip, within ``near`` of one."""
    length = float(np.linalg.norm(q - p))
    if length <= skip:
        return False
    pts = p + np.linspace(0.0, 1.0 - skip / length, 12)[:, None] * (q - p)
    for a, b in shafts:
        ab = b - a
        t = np.clip(((pts - a) @ ab) / max(float(ab @ ab), 1e-12), 0.0, 1.0)
        if (np.linalg.norm(pts - (a + t[:, None] * ab), axis=1) < near).any():
            return True
    return False


def _label_score(labels, texts, shafts, merge: float, heads=(), near=()) -> tuple:
    """(labels left out, leader lines longer than :data:`FAR`, leader lines across or along an
    arrow, through one of ``heads`` (:func:`head_triangles`), through a label (theirs or one of
    ``near``: boxes of texts already placed) or across another leader line, how far the leader
    lines reach beyond :data:`REACH` in all, plus 0.3 for a shared label): the smaller, the
    better read."""
    family = labels.get_family()
    leaders = [m for m in family if getattr(m, "is_leader", False)]
    lines = [(m.get_start()[:2], m.get_end()[:2]) for m in leaders]
    crossed = sum(_crosses(p, q, a, b) for p, q in lines for a, b in shafts)
    crossed += sum(_along(p, q, shafts) + _across_head(p, q, heads) for p, q in lines)
    named = [box_of(m).inset(0.02) for m in family if getattr(m, "is_tip_label", False)]
    named += near
    crossed += sum(_through(p, q, box) for p, q in lines for box in named)
    crossed += sum(_crosses(*one, *other) for k, one in enumerate(lines) for other in lines[:k])
    longest = sum(float(np.linalg.norm(m.get_end() - m.get_start())) > FAR for m in leaders)
    drawn = {getattr(m, "source_text", None) for m in family if m not in leaders}
    missing = sum(str(t) not in drawn for t in texts)
    far = sum(max(0.0, float(np.linalg.norm(m.get_end() - m.get_start())) - REACH) for m in leaders)
    return missing, longest, crossed, round(far + (0.3 if merge else 0.0), 2)


def _through(p, q, box: Box) -> bool:
    """Whether the leader line p → q runs through ``box`` (another label: issue 38, at 1:1
    "+ 20"'s line ran through "notes")."""
    pts = p + np.linspace(0.05, 0.95, 19)[:, None] * (q - p)
    x, y = pts[:, 0], pts[:, 1]
    return bool(((x > box.x0) & (x < box.x1) & (y > box.y0) & (y < box.y1)).any())


def _crosses(p, q, a, b) -> bool:
    """Whether segments p–q and a–b cross (not merely touch at an end)."""

    def side(o, u, v):
        return (u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0])

    return side(a, b, p) * side(a, b, q) < 0 and side(p, q, a) * side(p, q, b) < 0


def around(box: Box, within: Box, pad: float) -> Box:
    """``box`` grown by ``pad`` on every side, kept ``within``."""
    return Box(
        max(box.x0 - pad, within.x0),
        max(box.y0 - pad, within.y0),
        min(box.x1 + pad, within.x1),
        min(box.y1 + pad, within.y1),
    )


def aspect_of(points) -> float:
    """Width over height of a plane of ``points`` (the origin in, padded as the plane pads)."""
    pts = np.vstack([np.atleast_2d(points)[:, :2], np.zeros(2)])
    span = np.maximum(pts.max(axis=0) - pts.min(axis=0), 1e-9)
    span = np.maximum(span, 0.25 * span.max())
    return float(span[0] / span[1])


def filling(points, box: Box) -> np.ndarray:
    """``points`` and two more on the short side's axis through their middle, so that a plane
    of them (padded alike on both axes) has ``box``'s shape: the first step's plane, E alone,
    as large as the content holds (issue 38: a strip at the top of a square frame)."""
    pts = np.vstack([np.atleast_2d(points)[:, :2], np.zeros(2)])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    span = np.maximum(hi - lo, 0.25 * max(float((hi - lo).max()), 1e-9))
    mid, want = (lo + hi) / 2, box.width / box.height
    if span[0] / span[1] > want:  # too wide: taller, E's line in the middle
        extra = [[mid[0], mid[1] - span[0] / want / 2], [mid[0], mid[1] + span[0] / want / 2]]
    else:
        extra = [[mid[0] - span[1] * want / 2, mid[1]], [mid[0] + span[1] * want / 2, mid[1]]]
    return np.vstack([pts, extra])
