"""Where Softmax's key labels go among many keys (mixin of :class:`scenes.softmax_scene.Softmax`).

Issue 38, a 22-token sentence at 1:1: the share bar's labels ran in one packed row, each pushed
off its segment over another key's ("that₁ 0.084" over soup's), their leaders long and nearly
flat. Now every labelled key (the cast's keys with a share, the followed key always, and the
keys the caption names) is labelled whole: over its own segment where the label sits on no
other labelled key's segment, else on a tier farther out (over the bar or under it), joined to
its segment by a straight stem that crosses no other label; the other keys grey and counted.
The e^s step's labels under the bars take the same rule, under the bars only.

Where not every label finds room, the ones kept are chosen by weight (:meth:`KeyLabels.
keep_order`): the followed key and the keys the caption names first, then the largest shares;
the smallest are left out first (a reviewer's 22-token row at 1:1 labelled "it 0.002" and left
out "student 0.034", the caption's second weight).
"""

from __future__ import annotations

import numpy as np
from manim import Line, VGroup

import attention_core as ac

TIER = 0.37  # from one tier of labels to the next
FIRST = 0.14  # from the bar's edge to the first tier's labels
TIERS = 5  # tiers a side at most
SLACK = 0.02  # a label over its own segment may overhang another labelled one by this much


def _free(left, width, placed, gap) -> bool:
    """Whether [left, left + width] keeps ``gap`` from every span of ``placed``."""
    return all(left + width + gap <= a or b + gap <= left for a, b in placed)


def stem_layout(
    widths, anchors, spans, x0: float, x1: float, sides=("up", "down"), gap=0.15, rank=None
):
    """Where each label goes: (side, tier, left edge) per label, or None for one with no room.

    ``widths``: the labels' widths; ``anchors``: the x each names (its segment's middle);
    ``spans``: each one's segment (x from, x to). The labels are placed one by one (the widest
    segments first, else as the first order that leaves none out, fewest tiers first), each at
    the first free place of the tiers of ``sides`` in turn (up 0, down 0, up 1 …): on tier 0 a
    label lies over its own segment and over no other labelled one's (:data:`SLACK`); on any
    tier its anchor lies under it (its stem is straight), it keeps ``gap`` from the labels of
    its tier, its stem crosses no label of a nearer tier, and it covers no farther label's
    stem; all within [x0, x1].

    ``rank``: the labels, the first to keep first. Where not all of them find room, the most of
    its first labels that all do (placed in ``rank``'s order too) are placed, the rest left out:
    never a later one for an earlier one."""
    out = _layout(widths, anchors, spans, x0, x1, sides, gap)
    if rank is None or all(p is not None for p in out):
        return out
    for keep in range(len(rank), 0, -1):
        kept = sorted(rank[:keep])
        w, a, s = ([v[k] for k in kept] for v in (widths, anchors, spans))
        part = _layout(w, a, s, x0, x1, sides, gap, [kept.index(k) for k in rank[:keep]])
        if all(p is not None for p in part):
            placed: list = [None] * len(widths)
            for k, p in zip(kept, part):
                placed[k] = p
            return placed
    return out


def _layout(widths, anchors, spans, x0, x1, sides, gap, rank=None) -> list:
    """:func:`stem_layout`'s places, the most labels it finds room for (placed in ``rank``'s
    order too, where given)."""
    n = len(widths)
    by_width = sorted(range(n), key=lambda k: (-(spans[k][1] - spans[k][0]), k))
    orders = [by_width, sorted(range(n), key=lambda k: anchors[k])]
    orders.append(orders[-1][::-1])
    if rank is not None:
        orders.append(list(rank))
    best = None
    for order in orders:
        out = _in_order(order, widths, anchors, spans, x0, x1, sides, gap)
        lost = [k for k in range(n) if out[k] is None]
        if lost:  # again, those left out first
            again = [*lost, *(k for k in order if k not in lost)]
            out = _in_order(again, widths, anchors, spans, x0, x1, sides, gap)
        score = (sum(p is None for p in out), max((p[1] for p in out if p), default=0))
        if best is None or score < best[0]:
            best = (score, out)
    return best[1]


def _in_order(order, widths, anchors, spans, x0, x1, sides, gap) -> list:
    """:func:`stem_layout`'s places with the labels placed in ``order``."""
    n = len(widths)
    out: list = [None] * n
    for k in order:
        w, a = widths[k], anchors[k]
        if w > x1 - x0:
            continue
        # as near to centred over the anchor as the bounds and the tier's labels allow
        lefts = [a - w / 2, a - 0.12, a - w + 0.12]
        for m in range(n):
            if out[m] is not None:
                _, _, left = out[m]
                lefts += [left - gap - w, left + widths[m] + gap]
        # first those covering the fewest anchors still to place (a cluster's labels step
        # away from its other segments), then the nearest to centred
        todo = [anchors[m] for m in order if out[m] is None and m != k]

        def cost(v, w=w, a=a, todo=todo):
            return (sum(v - gap <= x <= v + w + gap for x in todo), abs(v + w / 2 - a))

        lefts = sorted({min(max(v, x0), x1 - w) for v in lefts}, key=cost)
        lefts = [v for v in lefts if v + 0.05 <= a <= v + w - 0.05 or w < 0.1]
        out[k] = _first_place(k, w, a, lefts, spans, widths, anchors, out, sides, gap)
    return out


def _first_place(k, w, a, lefts, spans, widths, anchors, out, sides, gap):
    """The first (side, tier, left) free for label ``k`` (:func:`stem_layout`), or None."""
    others = [spans[m] for m in range(len(spans)) if m != k]
    for tier in range(TIERS):
        for side in sides:
            same = [
                (out[m][2], out[m][2] + widths[m])
                for m in range(len(out))
                if out[m] is not None and out[m][:2] == (side, tier)
            ]
            nearer = [
                (out[m][2], out[m][2] + widths[m])
                for m in range(len(out))
                if out[m] is not None and out[m][0] == side and out[m][1] < tier
            ]
            farther = [
                anchors[m]
                for m in range(len(out))
                if out[m] is not None and out[m][0] == side and out[m][1] > tier
            ]
            if any(lo - gap / 2 <= a <= hi + gap / 2 for lo, hi in nearer):
                continue  # its stem would cross a nearer label
            for left in lefts:
                if not _free(left, w, same, gap):
                    continue
                if any(left - gap / 2 <= x <= left + w + gap / 2 for x in farther):
                    continue
                if tier == 0 and not all(
                    min(left + w, hi) - max(left, lo) <= SLACK for lo, hi in others
                ):
                    continue
                return side, tier, left
    return None


class KeyLabels:
    """Softmax's labels of many keys: which keys, and where (:func:`stem_layout`)."""

    def story_labelled(self, w, key) -> ac.LabelledKeys:
        """The keys of the row of weights ``w`` labelled among many: those the core labels
        (the followed ``key`` and the keys the caption names) and the cast's keys with a share
        (the cast is in colour: a segment in colour is a labelled one; issue 38)."""
        core = ac.labelled_keys(w, key)
        if len(core.keys) == len(w):
            return core
        cast = [j for j in self.cast if j < len(w) and w[j] > 0]
        keys = tuple(sorted({*core.keys, *cast}))
        shares = int((w > 0).sum())
        return ac.LabelledKeys(keys, shares - len(keys), core.blocked)

    def keep_order(self, w, key) -> tuple[int, ...]:
        """The labelled keys (:attr:`labelled`) in the order their labels are kept where not
        all find room (:func:`stem_layout`): the followed ``key``, the keys the caption names
        (the core's), then by weight ``w``, the largest first."""
        first = set(ac.labelled_keys(w, key).keys)
        return tuple(sorted(self.labelled.keys, key=lambda j: (j != key, j not in first, -w[j], j)))

    def _rank(self, keys) -> list[int]:
        """The places in ``keys`` in :attr:`keep`'s order (:meth:`keep_order`)."""
        return sorted(range(len(keys)), key=lambda k: self.keep.index(keys[k]))

    def stemmed(self, labs, keys, spans, edges, x0: float, x1: float, sides=("up", "down")):
        """``labs`` (one per key of ``keys``) placed by :func:`stem_layout` over (``edges[0]``:
        the bar's top) or under (``edges[1]``: its bottom) the segments ``spans``, each one off
        tier 0 joined to its segment's middle by a stem in its key's colour. Returns (the
        labels and stems, the lowest y they reach); a label with no room is left out."""
        anchors = [(a + b) / 2 for a, b in spans]
        widths = [m.width for m in labs]
        places = stem_layout(widths, anchors, spans, x0, x1, sides, rank=self._rank(keys))
        out, stems, low = VGroup(), VGroup(), edges[1]
        for lab, j, a, place in zip(labs, keys, anchors, places):
            if place is None:
                continue
            side, tier, left = place
            lab.key_index = j
            y = FIRST + tier * TIER + lab.height / 2
            y = edges[0] + y if side == "up" else edges[1] - y
            lab.move_to([left + lab.width / 2, y, 0])
            out.add(lab)
            low = min(low, lab.get_bottom()[1])
            if tier:
                end = lab.get_bottom() if side == "up" else lab.get_top()
                edge = edges[0] if side == "up" else edges[1]
                stem = Line([a, edge, 0], [a, end[1], 0], stroke_width=1.5)
                stem.set_color(self.colors[j])
                stem.label = lab  # the label it leads from (tests check it crosses none)
                stems.add(stem)
        return VGroup(*out, stems), low

    def share_labels_height(self, w, bar_w: float) -> float:
        """The height the share bar of ``bar_w`` takes with its labels on their tiers
        (:func:`stem_layout`) and the line of notes under them."""
        keys = self.labelled.keys
        ends = np.cumsum(w) * bar_w
        spans = [(ends[j] - w[j] * bar_w, ends[j]) for j in keys]
        labs = [self.weight_pair(w, j, whole=True) for j in keys]
        anchors = [(a + b) / 2 for a, b in spans]
        widths = [m.width for m in labs]
        places = stem_layout(widths, anchors, spans, -0.2, bar_w + 0.2, rank=self._rank(keys))
        reach = {"up": 0.0, "down": 0.0}
        for lab, place in zip(labs, places):
            if place is not None:
                side, tier, _ = place
                reach[side] = max(reach[side], FIRST + tier * TIER + lab.height)
        return 0.45 + reach["up"] + reach["down"] + 0.5
