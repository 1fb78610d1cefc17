"""MultiHeadSplit's heads' blocks, shared by its steps: the sizes of its pieces, which heads get
a panel, each head's name and tint, and the framed, tagged column blocks of a matrix split by
head (Q, K, V, the concatenation)."""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, Rectangle, VGroup

from scenes.mobjects.compact_grid import bounds, is_shaded
from scenes.mobjects.heat_grid import GALLERY_HEAD, MIN_HEAD, spans  # noqa: F401 (the parts')
from scenes.mobjects.layout import box_of
from scenes.mobjects.matrix import LabelledMatrix
from scenes.mobjects.text import label, text_width, whole, wrap_lines
from scenes.mobjects.theme import SMALL, score_limit, text_on

MAX_PANELS = 4  # heads drawn side by side at most; with more, those that matter (rank_heads)
PANEL_WIDTH = 3.2  # the narrowest a head's panel may be
COMPACT = 0.08  # cell padding of the compact matrices
TITLE_ROOM = 0.45
DIAGRAM_COLUMNS = 48  # Q wider than this (a trained layer's 384, 576): blocks with their shapes
FORMULA = 30  # Typst math sets small: formulas at about the title size read like labels


def head_tints(theme):
    """Two neutral tints that alternate from head to head (no token's colour, not the accent):
    the blocks of one head read as one band, its neighbour's as the next."""
    from manim import interpolate_color

    return (
        interpolate_color(theme.panel, theme.muted, 0.38),
        interpolate_color(theme.panel, theme.muted, 0.12),
    )


def shown_heads(H: int, room: float, order=None) -> list[int]:
    """Which heads get a panel in ``room`` (width), the explained head first (``order[0]``:
    :func:`attention_core.rank_heads` with the example's head first; default: head 1): all of
    them, or the first of ``order`` (the heads that matter next), the others by number."""
    slots = max(2, min(MAX_PANELS, int(room // PANEL_WIDTH)))
    order = list(range(H)) if order is None else list(order)
    first = order[0]
    if slots >= H:
        return [first, *(h for h in range(H) if h != first)]
    return [first, *sorted(order[1:slots])]


def frame_cell(m, i: int, j: int, theme) -> VGroup:
    """A frame in the accent just outside cell (i, j) of ``m`` (numbers or squares), a line of
    the background between: the followed pair's cell in the explained head's weights."""
    from manim import SurroundingRectangle

    if hasattr(m, "highlight") and getattr(m, "cells", {}).get((i, j)) is None:
        return m.highlight(i, j)
    if hasattr(m, "highlight"):  # a number's cell: the halo wholly outside it, off the
        # number's margin (a halo over the cell's edge read as the number's background: a
        # framed white 0.35 measured 4.21 : 1 on the light theme, two-heads)
        target = m.drawn_cell(i, j)
        halo = SurroundingRectangle(target, color=theme.background, buff=0.0125, stroke_width=2.5)
        frame = SurroundingRectangle(target, color=theme.accent, buff=0.045, stroke_width=4)
        return VGroup(halo, frame)
    if is_shaded(m):  # one frame a row: the cell is its row's slice of its column
        col, row = m.columns_box(j, j + 1), box_of(m.cell_rect(i, j))
        target = Rectangle(width=col.width, height=row.height, stroke_width=0)
        target.move_to([(col.x0 + col.x1) / 2, (row.y0 + row.y1) / 2, 0])
    else:
        target = m.cell_rect(i, j)
    halo = SurroundingRectangle(target, color=theme.background, buff=0.0, stroke_width=5)
    frame = SurroundingRectangle(target, color=theme.accent, buff=0.035, stroke_width=4)
    return VGroup(halo, frame)


class HeadBlocks:
    """The heads' blocks (mixin of :class:`scenes.multi_head.MultiHeadSplit`): each head's
    name, its tint, and the framed, tagged blocks of a matrix whose columns are split by head."""

    def head_name(self, h: int, drawn=None) -> str:
        """ "head 12"; the explained head (the one every other scene explains) with the pair
        it follows: "head 6: she → baker"."""
        if h == getattr(self, "explained", None):
            pair = self.followed(h)
            q, k = self.q_tokens[pair.query], self.k_tokens[pair.key]
            return self.say("mh_explained", h=h + 1, q=q, k=k)
        return self.say("head_n", h=h + 1)

    def least_head(self) -> float:
        """The least side of a head's weights: :data:`MIN_HEAD` (120 px at 1080p), in a square
        frame :data:`GALLERY_HEAD` (160 px: the split shows each head's weights large enough to read
        its followed cell, where HeadGallery's overview keeps 120) — fewer heads drawn, the
        others named."""
        square = self.frame.width <= self.frame.height * 1.01
        return GALLERY_HEAD if square else MIN_HEAD

    def followed(self, h: int):
        """Head ``h``'s followed pair (:func:`attention_core.followed_pair`)."""
        import attention_core as ac

        cache = self.__dict__.setdefault("_pairs", {})
        if h not in cache:
            cache[h] = ac.followed_pair(self.trace, self.example, h)
        return cache[h]

    def head_title(self, h: int, width: float, color=None, drawn=None) -> VGroup:
        """Head ``h``'s name in bold (:meth:`head_name`), on two lines where one is wider than
        ``width`` ("head 6:" over "she → baker"), shrunk no further than the smallest text."""
        color = color or self.theme.text
        text = self.head_name(h, drawn)
        one = label(text, SMALL, color, weight="BOLD")
        if one.width <= width or ": " not in text and "：" not in text:
            return VGroup(one)
        mark = "：" if "：" in text else ": "
        first, rest = text.split(mark, 1)
        pair = self.followed(h)  # the pair's labels never broken inside
        q, k = whole(self.q_tokens[pair.query]), whole(self.k_tokens[pair.key])
        parts = [first + mark.strip(), *wrap_lines(f"{q} → {k}", 0.9 * width, SMALL, 3)]
        lines = VGroup(*(label(t, SMALL, color, weight="BOLD") for t in parts))
        return lines.arrange(DOWN, aligned_edge=LEFT, buff=0.06)

    def explained_frame(self, mob, buff: float = 0.1) -> VGroup:
        """The frame around the explained head wherever it is drawn: the accent, thick."""
        from manim import SurroundingRectangle

        return SurroundingRectangle(
            mob, color=self.theme.accent, buff=buff, stroke_width=3.5, corner_radius=0.06
        )

    def not_shown(self) -> str:
        """The line naming the heads without a panel ("heads 4–6, 8 not shown"), or ""."""
        left = [h for h in range(len(self.trace.heads)) if h not in self.shown]
        if not left:
            return ""
        return self.say("mh_not_shown" if len(left) > 1 else "mh_not_shown_one", heads=spans(left))

    def tint(self, h: int, kv: bool = False):
        """The tint of query head ``h``'s blocks (``kv``: of key/value head ``h``'s): alternating
        by head, or by the group of heads that share a key/value head."""
        if not self.maps.shared:
            return self.tints[h % 2]
        return self.tints[(h if kv else self.maps.group(h)) % 2]

    def block_tag(self, h: int, kv: bool) -> str:
        """The words under block ``h``: its head's number, or (``kv``) the query heads that
        read this key/value head."""
        if not kv:
            return self.say("head_n", h=h + 1)
        members = self.maps.members(h)
        return self.say("heads_range", a=members[0] + 1, b=members[-1] + 1)

    def tint_blocks(self, m: LabelledMatrix, width: int, kv: bool = False):
        """Tint each head's columns of ``m``; a frame around each block and its head's number
        (``kv``: the key/value head's query heads) under it. Returns ({block: frame}, tags)."""
        theme = self.theme
        shaded = is_shaded(m)  # one frame a row: no cell to tint
        for rect in () if shaded else m.backgrounds:
            i, j = rect.cell_index
            fill = self.tint(j // width, kv)
            rect.set_fill(fill, opacity=1)
            if not getattr(m, "compact", False):
                m.cells[i, j].set_color(text_on(fill, theme))
        frames, tags, boxes = {}, VGroup(), {}
        for h in sorted({j // width for j in m.shown_columns}):
            if shaded:
                b = m.columns_box(h * width, min((h + 1) * width, m.shape[1]))
            else:
                b = bounds([r for r in m.backgrounds if r.cell_index[1] // width == h])
            frame = Rectangle(
                width=b.width + 0.04, height=b.height + 0.04, stroke_color=theme.muted
            )
            frame.set_stroke(width=2.5)
            explained = getattr(self, "explained", None)
            if explained is not None and h == (self.maps.group(explained) if kv else explained):
                frame.set_stroke(self.theme.accent, width=3.5)  # the explained head's block
            frame.move_to(b.center)
            frame.head = h
            frames[h], boxes[h] = frame, b
        # one form for every block: "head 9 … 10 11 12" read as two kinds of tag
        short = any(
            text_width(self.block_tag(h, kv), SMALL) > b.width - 0.05 for h, b in boxes.items()
        )
        for h, b in boxes.items():
            frame, text = frames[h], self.block_tag(h, kv)
            if short:
                members = self.maps.members(h) if kv else (h,)
                text = "–".join(dict.fromkeys(str(k + 1) for k in (members[0], members[-1])))
            tag = label(text, SMALL, theme.muted)
            tag.next_to(frame, DOWN, buff=0.06)
            if text_width(tag.source_text, SMALL) <= 2 * b.width - 0.1:  # staggered, if need be
                tag.wide = tag.width > b.width - 0.04
                tags.add(tag)
        if any(t.wide for t in tags):  # every other one a line lower: no two touch
            for t in tags[1::2]:
                t.shift(DOWN * (t.height + 0.06))
        return frames, tags

    def qkv_limit(self) -> float:
        """One scale for every square of Q, K and V (each had its own: K's squares could come
        out smaller than Q's for the same value)."""
        maps = self.maps
        return score_limit(np.concatenate([np.ravel(a) for a in (maps.Q, maps.K, maps.V)]))
