"""MultiHeadSplit for a trained layer (Q 384 or 576 columns wide): its matrices as a block
diagram — each a bar of head blocks, tinted and numbered, with its shape ("23 × 576") — in place
of hundreds of columns of squares no one reads (stripes of noise, and colour with no key). The
steps are the same: Q, K, V (``project_blocks``), each head taking its blocks
(``split_blocks``), and after the heads attend, the outputs into the concatenation and W_O
(``concat_blocks``); the heads stay on screen above them."""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, Rectangle, TransformFromCopy, VGroup

from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import Box, place
from scenes.mobjects.math import math
from scenes.mobjects.text import label, text_width
from scenes.mobjects.theme import BODY, SMALL
from scenes.parts.multi_head_blocks import FORMULA

SPLIT_ROOM = 2.4  # under Q, K and V, the least room for the heads' panels (else the whole content)
MIN_BLOCK = 60 / 135  # a head's block in the split: at least 60 px at 1080p (8 units, 1080 px)
CLEAR = 0.25  # the least gap between the head outputs' row and the concatenation's title under it
BAR = 0.4  # the height of a matrix drawn as its shape (its rows are not to scale: its shape
# says how many)


class DiagramSteps:
    """The block diagram of a trained layer (mixin of :class:`scenes.multi_head.MultiHeadSplit`)."""

    # -- one matrix as its shape -----------------------------------------------------------------
    def shape_text(self, rows: int, cols: int) -> str:
        return f"{rows} × {cols}"

    def block_bar(self, widths, unit: float, height: float, kv: bool = False, fill=None):
        """A bar of blocks ``widths`` columns wide (one a head, or a key/value head with
        ``kv``), ``unit`` a column: each tinted as its head, framed (the explained head's in the
        accent) and tagged under with its head's number (or the query heads that read it).
        ``fill``: one colour, no blocks (W_O, the output). Returns (bar, {block: frame})."""
        theme = self.theme
        frames, x = {}, 0.0
        for b, w in enumerate(widths):
            r = Rectangle(width=w * unit, height=height, stroke_color=theme.muted, stroke_width=2)
            r.set_fill(fill if fill is not None else self.tint(b, kv), opacity=1)
            r.move_to([x + w * unit / 2, 0, 0])
            r.head = b
            frames[b] = r
            x += w * unit
        bar = VGroup(*frames.values())
        if fill is not None:
            return bar, {}
        e = self.explained
        lead = frames.get(self.maps.group(e) if kv else e)
        if lead is not None:
            lead.set_stroke(theme.accent, width=3.5)
            bar.add(lead.copy())  # drawn last: its frame over its neighbours'
        return bar, frames

    def block_tags(self, frames: dict, kv: bool) -> VGroup:
        """The number under each block: "head 6" or "6" (``kv``: "heads 4–6" or "4–6"), every
        other one a line lower where they would touch."""
        theme = self.theme
        wide = min(f.width for f in frames.values())
        short = any(text_width(self.block_tag(h, kv), SMALL) > wide - 0.05 for h in frames)
        tags = VGroup()
        for h, frame in frames.items():
            text = self.block_tag(h, kv)
            if short:
                members = self.maps.members(h) if kv else (h,)
                text = "–".join(dict.fromkeys(str(k + 1) for k in (members[0], members[-1])))
            tag = label(text, SMALL, theme.accent if self.is_explained(h, kv) else theme.muted)
            tags.add(tag.next_to(frame, DOWN, buff=0.06))
        if any(t.width > wide - 0.04 for t in tags):
            for t in tags[1::2]:
                t.shift(DOWN * (t.height + 0.06))
        return tags

    def is_explained(self, h: int, kv: bool) -> bool:
        return h == (self.maps.group(self.explained) if kv else self.explained)

    def shaped(self, formula: str, bar, rows: int, cols: int, tags=None, under=False):
        """``bar`` with its formula above at the left and its shape at its right (``under``:
        under it)."""
        theme = self.theme
        maths = "=" in formula or "_" in formula
        title = math(formula, FORMULA, theme.text) if maths else label(formula, SMALL, theme.text)
        shape = label(self.shape_text(rows, cols), SMALL, theme.muted)
        if under:
            shape.next_to(bar, DOWN, buff=0.08)
        else:
            shape.next_to(bar, RIGHT, buff=0.15)
        body = VGroup(bar, *([tags] if tags is not None else []), shape)
        title.next_to(bar, UP, buff=0.1).align_to(bar, LEFT)
        whole = VGroup(title, body)
        whole.bar, whole.title_mob, whole.shape = bar, title, shape
        return whole

    # -- Q, K, V ---------------------------------------------------------------------------------
    def project_blocks(self, content: Box):
        """Q = X W_q, K and V as bars of head blocks on one scale of columns, each with its
        formula at its left and its shape at its right: one above the other (K and V side by
        side where they fit). Returns ({name: group}, the box left below them)."""
        ex, maps, theme = self.example, self.maps, self.theme
        cols = {"Q": maps.Q.shape[1], "K": maps.K.shape[1], "V": maps.V.shape[1]}
        width = {"Q": maps.d_k, "K": maps.d_k, "V": maps.d_v}
        titles = {n: math(f"{n} = X W_{n.lower()}", FORMULA, theme.text) for n in "QKV"}
        shape_w = text_width(self.shape_text(ex.n, max(cols.values())), SMALL) + 0.3
        unit = (content.width - shape_w) / max(cols.values())
        fulls = {}
        for name in "QKV":
            kv = name in "KV" and maps.shared
            bar, frames = self.block_bar([width[name]] * (cols[name] // width[name]), unit, BAR, kv)
            tags = self.block_tags(frames, kv)
            shape = label(self.shape_text(ex.n, cols[name]), SMALL, theme.muted)
            shape.next_to(bar, RIGHT, buff=0.15)
            title = titles[name].next_to(bar, UP, buff=0.1).align_to(bar, LEFT)
            g = VGroup(title, bar, tags, shape)
            g.bar, g.title_mob, g.shape = bar, title, shape
            self.head_blocks[name] = frames
            fulls[name] = g
        pair = VGroup(fulls["K"], fulls["V"]).arrange(RIGHT, buff=0.4, aligned_edge=UP)
        rows = [fulls["Q"], pair] if pair.width <= content.width else [*fulls.values()]
        stack = VGroup(*rows).arrange(DOWN, buff=0.25, aligned_edge=LEFT)
        if content.height - stack.height - 0.3 < SPLIT_ROOM:  # the split takes the whole
            # content after all: the bars spread over it (the middle third was empty)
            gap = min(1.2, (content.height - stack.height + 0.25 * (len(rows) - 1)) / len(rows))
            stack.arrange(DOWN, buff=gap, aligned_edge=LEFT)
            place(stack, content, "left")
        else:
            place(stack, content, "top-left")
        self.play(*(FadeIn(g) for g in fulls.values()), run_time=1.0)
        return fulls, Box(content.x0, content.y0, content.x1, stack.get_bottom()[1] - 0.3)

    def split_order(self) -> list[int]:
        """The heads the split may draw, in the order it takes them: the explained head, then
        (of a grouped layer) one head of each other key/value group, then the heads step's,
        then the rest as :attr:`order` ranks them — the first few show heads of more than one
        group (heads of a group share K and V; another group's do not)."""
        maps, H = self.maps, len(self.trace.heads)
        ranked = list(dict.fromkeys([*self.shown, *self.order, *range(H)]))
        picked = ranked[:1]
        if maps.shared:
            groups = {maps.group(picked[0])}
            for h in ranked:
                if maps.group(h) not in groups:
                    picked.append(h)
                    groups.add(maps.group(h))
        return picked + [h for h in ranked if h not in picked]

    def split_layout(self, bottom: Box):
        """Where the split's heads go: the room they take (the whole content, Q, K and V
        leaving, where the room under them is low) and (columns, the blocks' side, the heads
        row by row, the explained head first and the others by number). As many heads of
        :meth:`split_order` as rows of panels hold with each block at least MIN_BLOCK (60 px
        at 1080p; issue 38: two or three heads in one row left the content's lower half
        empty); of those layouts, the one with the largest blocks."""
        if bottom.height < SPLIT_ROOM:
            bottom, self.fulls_stay = self.regions.content, False
        order, best = self.split_order(), None
        for cols in range(1, len(order) + 1):
            width = (bottom.width - 0.3 * (cols - 1)) / cols
            if (width - 0.4) / 3 < MIN_BLOCK:
                break
            for n_rows in range(1, -(-len(order) // cols) + 1):
                drawn = order[: n_rows * cols]
                drawn = [drawn[0], *sorted(drawn[1:])]
                rows = [drawn[k : k + cols] for k in range(0, len(drawn), cols)]
                side = self.split_side(bottom, width, rows)
                key = (len(drawn), side)
                if side >= MIN_BLOCK and (best is None or key > best[0]):
                    best = (key, (bottom, cols, side, rows))
        if best is None:  # not even one row: the explained head alone, as large as it goes
            return bottom, (bottom, 1, self.split_side(bottom, bottom.width, [order[:1]]),
                            [order[:1]])  # fmt: skip
        return bottom, best[1]

    def panel_parts(self, width: float, side: float) -> tuple[float, float]:
        """The heights over and under a split panel's blocks: their names (Q₁), and their shape
        (one "22 × 64 each" under the three where they are alike and it fits the panel; else
        one under each block, on two lines where wider than the block)."""
        n, d = self.example.n, max(self.maps.d_k, self.maps.d_v)
        line = label("0", SMALL, self.theme.muted).height + 0.02
        if self.shape_each(width) is not None:
            lines = 1
        else:
            lines = 2 if text_width(self.shape_text(n, d), SMALL) > side + 0.1 else 1
        return math("Q_1", FORMULA).height + 0.1, 0.08 + line * lines + 0.04 * (lines - 1)

    def shape_each(self, width: float) -> str | None:
        """The one shape of a split panel's three blocks ("22 × 64 each"), where Q's, K's and
        V's blocks are alike and it fits in ``width``; else None."""
        maps = self.maps
        text = self.say("mh_shape_each", shape=self.shape_text(self.example.n, maps.d_k))
        if maps.d_k != maps.d_v or text_width(text, SMALL) > width:
            return None
        return text

    def name_pitch(self) -> float:
        """The least step from one block of a split panel to the next: its name's (Q₁₂ K₁₂
        V₁₂ ran into each other over small blocks) and a gap."""
        if not hasattr(self, "_name_pitch"):
            top = len(self.trace.heads)
            self._name_pitch = max(math(f"{n}_{top}", FORMULA).width for n in "QKV") + 0.15
        return self._name_pitch

    def split_side(self, box: Box, width: float, rows: list[list[int]]) -> float:
        """The side of the split's blocks with ``rows`` of panels ``width`` wide in ``box``:
        three blocks across a panel, each row under its heads' names (the tallest of the
        row), at most 1.6."""
        titles = sum(max(self.head_title(h, width).height for h in row) + 0.1 for row in rows)
        free = box.height - 0.35 * (len(rows) - 1) - titles - 0.2  # (the frame, a margin)
        side = min((width - 0.4) / 3, width - 2 * self.name_pitch(), 1.6)
        for _ in range(2):  # a shape on two lines where the block is narrower than it
            over, under = self.panel_parts(width, side)
            side = min(side, (free - len(rows) * (over + under)) / len(rows))
        return side

    def split_blocks(self, fulls: dict, layout) -> dict:
        """Each head drawn in the split takes its blocks of Q, K and V (K's and V's: its
        key/value head's) into its own panel, as blocks with their shapes, in rows
        (:meth:`split_layout`): {head: (panel, {})}. Where the panels take the whole content
        (a square frame), Q, K and V leave as their blocks fly."""
        bottom, cols, side, rows = layout
        pieces, anims, appear = {}, [], []
        width = (bottom.width - 0.3 * (cols - 1)) / cols
        over, under = self.panel_parts(width, side)
        top = bottom.y1
        for row in rows:
            titles = [self.head_title(h, width) for h in row]
            title_h = max(t.height for t in titles)
            for k, (h, title) in enumerate(zip(row, titles)):
                x0 = bottom.x0 + k * (width + 0.3)
                place(title, Box(x0, top - title.height, x0 + width, top), "left")
                y1 = top - title_h - 0.1 - over
                panel = self.head_split_panel(h, title, x0, y1, side, width, anims, appear)
                pieces[h] = (panel, {})
            top -= title_h + 0.1 + over + side + under + 0.35
        panels = VGroup(*(p for p, _ in pieces.values()), *(p.frame for p, _ in pieces.values()
                          if hasattr(p, "frame")))  # fmt: skip
        panels.move_to(bottom.center)  # in the middle
        self.split_panels = panels  # (for the checks)
        self.play(*(FadeIn(m) for m in appear), run_time=0.6)
        leave = [] if self.fulls_stay else [FadeOut(g) for g in fulls.values()]
        self.play(*anims, *leave, run_time=1.6)
        return pieces

    def head_split_panel(self, h: int, title, x0: float, y1: float, side: float, width: float,
                         anims, appear):  # fmt: skip
        """Head ``h``'s panel in the split (``width`` wide): its ``title``, and its Q, K and V
        blocks (``side`` square, their tops at ``y1``) named over and shaped under; their
        flights from Q, K and V into ``anims``, what fades in into ``appear``."""
        theme, maps, n = self.theme, self.maps, self.example.n
        group = VGroup(title)
        g = maps.group(h)
        each = self.shape_each(width)
        for k, name in enumerate("QKV"):
            block = h if name == "Q" else g
            w = maps.d_v if name == "V" else maps.d_k
            rect = Rectangle(width=side, height=side, stroke_color=theme.muted, stroke_width=2)
            rect.set_fill(self.tint(block, kv=name != "Q"), opacity=1)
            if self.is_explained(block, name != "Q"):
                rect.set_stroke(theme.accent, width=3.5)
            step = max(side + 0.2, self.name_pitch())
            rect.move_to([x0 + k * step + side / 2, y1 - side / 2, 0])
            name_mob = math(f"{name}_{block + 1}", FORMULA, theme.text)
            name_mob.next_to(rect, UP, buff=0.08).align_to(rect, LEFT)
            src = self.head_blocks[name].get(block)
            anims.append(TransformFromCopy(src, rect) if src is not None else FadeIn(rect))
            appear.append(name_mob)
            group.add(rect, name_mob)
            if each is not None:  # one shape for the three, under them
                continue
            shape = label(self.shape_text(n, w), SMALL, theme.muted)
            shape.next_to(rect, DOWN, buff=0.08)
            if shape.width > side + 0.1:  # narrow: its rows over its columns
                shape = VGroup(*(label(t, SMALL, theme.muted) for t in (f"{n} ×", f"{w}")))
                shape.arrange(DOWN, aligned_edge=LEFT, buff=0.04).next_to(rect, DOWN, 0.08)
            appear.append(shape)
            group.add(shape)
        if each is not None:
            shape = label(each, SMALL, theme.muted)
            shape.next_to(group[1], DOWN, buff=0.08).align_to(group[1], LEFT)
            appear.append(shape)
            group.add(shape)
        group.title = title
        appear.append(title)
        if h == self.explained:
            group.frame = self.explained_frame(group, buff=0.08)
            appear.append(group.frame)
        return group

    # -- the concatenation and W_O ---------------------------------------------------------------
    def concat_blocks(self, mh, independent: bool, panels: dict) -> None:
        """The shown heads' outputs (blocks of n × d_v) slide into their blocks of the
        concatenation; then (unless the heads are independent) concat · W_O = output, each with
        its shape, under the heads kept on screen."""
        ex, box, H = self.example, self.below, len(self.trace.heads)
        d_v = self.trace.heads[0].V.shape[1]
        # the concatenation at the foot, the shown heads' outputs in a row above it (in the
        # order they are drawn everywhere), each sliding down into its own block
        shape_w = text_width(self.shape_text(ex.n, H * d_v), SMALL) + 0.3
        unit = (box.width - shape_w) / (H * d_v)
        bar, frames = self.block_bar([d_v] * H, unit, BAR)
        self.head_blocks["concat"] = frames
        tags = self.block_tags(frames, False)
        cat = self.shaped(self.say("concat_title", H=H), bar, ex.n, H * d_v, tags)
        place(cat, box, "bottom-left")
        self.concat_group = cat
        room = Box(box.x0, cat.get_top()[1] + CLEAR, box.x1, box.y1)  # above the concatenation
        outs = self.outputs = self.output_row(room, unit)  # (self.outputs: for the checks)
        self.weights_into_outputs(panels, outs)
        self.play(FadeIn(cat.title_mob), FadeIn(cat.shape), FadeIn(tags), run_time=0.5)
        self.play(
            *(TransformFromCopy(outs[h][1].bar, frames[h]) for h in outs),
            *(FadeIn(frames[h]) for h in frames if h not in outs),
            FadeIn(VGroup(*(m for m in bar if m not in frames.values()))),
            run_time=1.6,
        )
        self.hold(0.5)
        if independent or mh.W_o is None:
            self.step("no_mix")
            return
        self.mix_blocks(mh, outs, cat)

    def output_row(self, box: Box, unit: float) -> dict:
        """The shown heads' outputs in a row at the top of ``box`` (the room above the
        concatenation), in the order they are drawn everywhere (the explained head first,
        framed in the accent), each a bar as wide as its block of the concatenation under its
        name — beside it where ``box`` is too low for a name over a bar (a review, 1:1: the
        bars' edges ran through "concat [head 1 … head 9]") —, and one shape for them all ("22
        × 64 each") at the row's right (under it where the row is too wide): {head: (title,
        group)}."""
        theme, n = self.theme, self.example.n
        d_v = self.trace.heads[0].V.shape[1]
        each = self.say("mh_shape_each", shape=self.shape_text(n, d_v))
        for over in (True, False):  # each name over its bar; else beside it
            outs, items = {}, VGroup()
            for h in self.shown:
                rect = Rectangle(width=d_v * unit, height=BAR, stroke_color=theme.muted)
                rect.set_fill(self.tint(h), opacity=1).set_stroke(width=2)
                if h == self.explained:
                    rect.set_stroke(theme.accent, width=3.5)
                title = label(self.say("head_n", h=h + 1), SMALL, theme.output, weight="BOLD")
                g = VGroup(title, rect)
                if over:
                    g.arrange(DOWN, buff=0.1, aligned_edge=LEFT)
                else:
                    g.arrange(RIGHT, buff=0.12)
                g.bar = rect
                outs[h] = (title, g)
                items.add(g)
            items.arrange(RIGHT, buff=0.4, aligned_edge=DOWN)
            shape = label(each, SMALL, theme.muted)
            if items.width + 0.3 + shape.width <= box.width:
                shape.next_to(items, RIGHT, buff=0.3).align_to(items, DOWN)
            else:
                shape.next_to(items, DOWN, buff=0.08).align_to(items, LEFT)
            if VGroup(items, shape).height <= box.height:
                break
        place(VGroup(items, shape), box, "top-left")
        first = outs[self.shown[0]][1]
        first.add(shape)  # the shape comes and goes with the first output
        return outs

    def mix_blocks(self, mh, outs: dict, cat) -> None:
        """concat · W_O = output as blocks on one scale of columns: the concatenation's bar,
        W_O's square, the output's bar, each with its shape; the heads stay above."""
        import attention_core as ac

        width = ac.output_width(self.trace)
        self.step("mix", caption_key="mix" if width.kind == "model" else "mix_other",
                  d=width.d_model, w=width.width)  # fmt: skip
        box = self.below
        small, dot, wo, eq, out, frames = self.mix_parts(mh, box)
        row = VGroup(small, dot, wo, eq, out).arrange(RIGHT, buff=0.15)
        for m in (small, dot, eq, out):  # level with the middle of W_O's square
            mid = (m.bar if hasattr(m, "bar") else m).get_center()[1]
            m.shift(UP * (wo.bar.get_center()[1] - mid))
        place(row, box, "center")
        out_title = out.title_mob
        self.head_blocks["concat"] = frames
        self.play(*(FadeOut(VGroup(*o)) for o in outs.values()), FadeOut(cat), FadeIn(small),
                  run_time=0.9)  # fmt: skip
        self.play(FadeIn(dot), FadeIn(wo), FadeIn(eq), run_time=0.8)
        self.play(TransformFromCopy(VGroup(small.bar, wo.bar), out.bar), FadeIn(out.shape),
                  FadeIn(out_title), run_time=1.2)  # fmt: skip

    def mix_parts(self, mh, box: Box):
        """concat, "·", W_O, "=", output in one row of ``box``, W_O a square as wide as the
        concatenation and the output (their shapes say how wide), and the concatenation's
        frames."""
        theme, ex = self.theme, self.example
        d_in, d_out = mh.W_o.shape
        dot, eq = label("·", BODY, theme.text), label("=", BODY, theme.text)
        cat_title = label(self.say("concat_title", H=1).split(" ", 1)[0], SMALL, theme.text)
        out_title = label(self.say("mh_output_short"), SMALL, theme.output)
        room = box.width - dot.width - eq.width - 4 * 0.15
        side = min(room / 3, box.height - cat_title.height - 0.6)
        unit = side / d_in
        H, d_v = len(self.trace.heads), self.trace.heads[0].V.shape[1]
        bar, frames = self.block_bar([d_v] * H, unit, BAR)
        small = self.shaped("concat", bar, ex.n, d_in, under=True)
        small.remove(small.title_mob)
        small.add(cat_title.next_to(bar, UP, buff=0.1).align_to(bar, LEFT))
        wo_sq, _ = self.block_bar([d_in], unit, side, fill=theme.panel)
        wo = self.shaped("W_O", wo_sq, d_in, d_out, under=True)
        out_bar, _ = self.block_bar([d_out], side / d_out, BAR, fill=theme.panel)
        out_bar[0].set_stroke(theme.output, width=3)
        out = self.shaped("o", out_bar, ex.n, d_out, under=True)
        out.remove(out.title_mob)
        out.add(out_title.next_to(out_bar, UP, buff=0.1).align_to(out_bar, LEFT))
        out.title_mob = out_title
        return small, dot, wo, eq, out, frames
