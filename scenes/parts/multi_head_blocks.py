"""MultiHeadSplit's heads' blocks, shared by its steps: the sizes of its pieces, which heads get
a panel, each head's name and tint, and the framed, tagged column blocks of a matrix split by
head (Q, K, V, the concatenation)."""

from __future__ import annotations

import numpy as np
from manim import DOWN, Rectangle, VGroup

from scenes.mobjects.compact_grid import bounds, is_shaded
from scenes.mobjects.matrix import LabelledMatrix
from scenes.mobjects.text import label, text_width
from scenes.mobjects.theme import SMALL, score_limit, text_on

MAX_PANELS = 4  # heads drawn side by side at most; with more, those that matter (rank_heads)
PANEL_WIDTH = 3.2  # the narrowest a head's panel may be
COMPACT = 0.08  # cell padding of the compact matrices
TITLE_ROOM = 0.45
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
    """Which heads get a panel in ``room`` (width): all, or the first of ``order`` (the heads
    that matter first, :func:`attention_core.rank_heads`; default: the first ones and the last),
    in their own order."""
    slots = max(2, min(MAX_PANELS, int(room // PANEL_WIDTH)))
    if slots >= H:
        return list(range(H))
    if order is None or H <= MAX_PANELS:
        return list(range(slots - 1)) + [H - 1]
    return sorted(order[:slots])


def spans(heads) -> str:
    """Head indices as 1-based numbers and runs: [3, 4, 5, 7] → "4–6, 8"."""
    runs: list[list[int]] = []
    for h in sorted(heads):
        if runs and h == runs[-1][-1] + 1:
            runs[-1].append(h)
        else:
            runs.append([h])
    words = [
        f"{r[0] + 1}–{r[-1] + 1}" if len(r) > 2 else ", ".join(str(k + 1) for k in r) for r in runs
    ]
    return ", ".join(words)


class HeadBlocks:
    """The heads' blocks (mixin of :class:`scenes.multi_head.MultiHeadSplit`): each head's
    name, its tint, and the framed, tagged blocks of a matrix whose columns are split by head."""

    def head_name(self, h: int, drawn=None) -> str:
        """ "head 12", or "… head 12" where the heads just before it are not ``drawn`` (by
        default the heads of the panels, ``self.shown``)."""
        drawn = drawn if drawn is not None else (getattr(self, "shown", None) or [])
        gap = h > 0 and h - 1 not in drawn and h in drawn and len(drawn) < len(self.trace.heads)
        return self.say("head_after_gap" if gap else "head_n", h=h + 1)

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
