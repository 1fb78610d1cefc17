"""Tip labels each on its own side of the other arrows: whether a label's way to its own tip
(its leader line, or the gap beside it) crosses another arrow or another label's way, and
DotProducts' last row's key labels, as many of them as are placed so (mixin of
:class:`scenes.dot_products.DotProducts`; :func:`labels_across` is RotaryPositions' too).

Issue 38 (he → farmer, 22 tokens, d_k 64): at 4:3 DotProducts' four keys, nearly at right
angles to q(he), ended as a fan of heads whose labels' leaders crossed (k(he)'s ran between
k(farmer) and its tip) and whose shadows' feet lay on one another; at 1:1 RotaryPositions'
farmer leader ran between he and its arrow.
"""

from __future__ import annotations

import numpy as np
from manim import Dot, VGroup

import attention_core as ac
from scenes.mobjects.layout import box_of
from scenes.mobjects.tip_room import beside_marks

ALONG = 12.0  # degrees: an arrow this close to a label's own lies along it (never "across")


def labels_across(tips, shafts) -> list[str]:
    """Each tip label (of ``tips``, :meth:`VectorPlane.tip_labels`) whose way to its own tip,
    from its box's nearest point (its leader line, or the gap beside it), crosses a shaft of
    ``shafts`` (tail, tip on screen) that ends elsewhere, or another label's way to its tip:
    a label named across another's arrow, or between another and its arrow (issue 38:
    farmer's leader ran between he and its tip). Not an arrow within :data:`ALONG` of its
    own: lying along it, no side of it is clear of the other."""
    ways = []
    for part in tips.get_family():
        home = getattr(part, "tip_home", None)
        if home is not None and getattr(part, "is_tip_label", False):
            tip = part.get_center() + home
            b = box_of(part)
            near = np.array([min(max(tip[0], b.x0), b.x1), min(max(tip[1], b.y0), b.y1), 0.0])
            ways.append((getattr(part, "source_text", "?"), near, tip))
    out = []
    for n, (name, near, tip) in enumerate(ways):
        own = [a for a, end in shafts if np.linalg.norm(np.asarray(end)[:2] - tip[:2]) < 1e-6]
        for a, end in shafts:
            if np.linalg.norm(np.asarray(end)[:2] - tip[:2]) < 1e-6:
                continue  # its own arrow
            if own and turn_between(own[0], tip, a, end) < ALONG:
                continue
            if segments_cross(near, tip, a, end):
                out.append(name)
        out += [name for _, p, t in ways[n + 1 :] if segments_cross(near, tip, p, t)]
    return out


def turn_between(a0, a1, b0, b1) -> float:
    """The angle in degrees between segments a0→a1 and b0→b1 (0 … 180)."""
    u, v = np.asarray(a1)[:2] - np.asarray(a0)[:2], np.asarray(b1)[:2] - np.asarray(b0)[:2]
    cos = np.dot(u, v) / max(np.linalg.norm(u) * np.linalg.norm(v), 1e-12)
    return float(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))))


def segments_cross(p1, p2, q1, q2) -> bool:
    """Whether segments p1–p2 and q1–q2 cross (in x, y)."""

    def side(a, b, c):
        return np.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))

    return bool(side(p1, p2, q1) * side(p1, p2, q2) < 0 and side(q1, q2, p1) * side(q1, q2, p2) < 0)


class KeyLabels:
    """DotProducts' last row's labels (mixin of :class:`scenes.dot_products.DotProducts`)."""

    def row_labels(self, a: int, pq0, keys, marks) -> tuple[VGroup, list[int]]:
        """q(a)'s label and the labels of ``keys`` (their arrows drawn) in a column beside
        their heads, each led to its tip (issue 38: "k(fisherman),k(he)" merged, then labels
        hovering among the heads): all of them where each is placed with its way to its tip
        crossing no other arrow or way (:func:`labels_across`) and clear of the shadows' feet,
        else the story's first (the followed key, then those the query weighs most) as many
        as are placed so, q's label with them. Returns (q's label with the keys', the keys
        labelled)."""
        plane, qc = self.plane, self.q_color(a)
        origin = plane.point([0, 0])
        tips = {b: self.pair_coords(a, b)[1] for b in keys}
        shafts = [(origin, plane.point(pq0))] + [(origin, plane.point(t)) for t in tips.values()]
        feet = [box_of(m) for m in marks if isinstance(m, Dot)]
        key = self.pair_key[0] if self.pair_key else (keys[0] if keys else None)
        story = [] if key is None else list(ac.story_order(self.head.weights, a, key))
        order = [b for b in story if b in tips] + [b for b in keys if b not in story]
        q_label = VGroup()
        for n in range(len(order), -1, -1):
            named = sorted(order[:n])
            labels = VGroup()
            if named:
                labels = plane.fanned_labels(
                    [tips[b] for b in named],
                    [f"k({self.k_tokens[b]})" for b in named],
                    [self.k_color(b) for b in named],
                    self.plane_box,
                    marks,
                )
            # q's label never on a key label's line beside it: "q(x)k(s2)" read as one (a
            # random cross-attention example whose vectors all lie on one line)
            beside = beside_marks([labels])
            q_label = plane.tip_labels(
                [pq0],
                [f"q({self.q_tokens[a]})"],
                [qc],
                self.plane_box,
                [*marks, *labels, *beside],
                True,
            )
            q_label.add(*labels)
            texts = [box_of(m) for m in q_label.get_family() if getattr(m, "is_tip_label", 0)]
            on_feet = any(t.overlaps(f) for t in texts for f in feet)
            whole = len(texts) == len(named) + 1  # q's label too: none left out
            if whole and not on_feet and not labels_across(q_label, shafts):
                return q_label, named
        return q_label, []

    def grey_unnamed(self, group, unnamed) -> None:
        """The arrows in ``group`` of the keys ``unnamed`` (left unlabelled) in the quiet tone,
        wanting no label: the coloured arrows are the labelled ones."""
        for mob in group:
            if getattr(mob, "key_index", None) in unnamed:
                mob.set_stroke(color=self.theme.muted)
                mob.wants_label = False


def stacked_feet(plane, pq, feet, tips, radius: float) -> list:
    """Where the shadows' feet (``feet``, on screen, on q's line; their keys' ``tips``) are
    drawn as dots of ``radius``: each at its foot, or where it would lie on a foot already
    drawn or on the arrows' tails at the origin, moved off q's line (perpendicular to it, as
    its drop) on the side away from the keys, by a dot's width and a gap at a time: twenty
    keys nearly at right angles to q put their feet in one spot."""
    origin = plane.point([0, 0])
    u = plane.point(pq) - origin
    length = float(np.linalg.norm(u))
    if length == 0:
        return list(feet)
    u = u / length
    n = np.array([-u[1], u[0], 0.0])
    if sum(float(np.dot(t - origin, n)) for t in tips) > 0:  # away from the keys
        n = -n
    step, taken, out = 2 * radius + 0.03, [origin], []
    for foot in feet:
        spot = np.asarray(foot, dtype=float)
        while any(np.linalg.norm(spot - c) < step for c in taken):
            spot = spot + step * n
        taken.append(spot)
        out.append(spot)
    return out
