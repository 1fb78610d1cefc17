"""MultiHeadSplit's last steps: each head's weights turn into its output, the outputs slide
into their columns of the concatenation (``concat_and_mix``), and W_O maps the concatenation
back to d_model, row by row (``mix``) — unless the heads are independent."""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, AnimationGroup, Transform, TransformFromCopy, VGroup

import attention_core as ac
from scenes.mobjects.compact_grid import block_into, cells_from, is_shaded, row_and, row_highlight
from scenes.mobjects.fades import FadeIn, FadeOut, morph
from scenes.mobjects.heat_grid import HeatGrid
from scenes.mobjects.layout import Box, place
from scenes.mobjects.math import math
from scenes.mobjects.text import label, text_width, wrap_lines
from scenes.mobjects.theme import BODY, SMALL, score_limit, text_on
from scenes.parts.multi_head_blocks import COMPACT, FORMULA, TITLE_ROOM, frame_cell


def squeeze(a, b) -> AnimationGroup:
    """``a`` (a head's weights, numbers or squares) shrinking onto ``b`` (its heatmap), which
    takes its place as it lands."""
    ghost = a.copy()
    target = ghost.copy().stretch_to_fit_width(b.width).stretch_to_fit_height(b.height)
    target.move_to(b).set_opacity(0)
    return AnimationGroup(FadeOut(a), Transform(ghost, target, remover=True))


class MixSteps:
    """The concatenation and W_O (mixin of :class:`scenes.multi_head.MultiHeadSplit`)."""

    def concat_and_mix(self, mh, independent: bool, panels: dict):
        """Each head's weights turn into its output (weights × V); the outputs slide into their
        columns of the concatenation; then (unless the heads are independent) W_O maps it back
        to d_model."""
        if self.diagram:  # a trained layer's 384 or 576 columns: blocks with their shapes,
            strip, self.below = self.strip_boxes()  # under the heads, kept to the last still
            self.strip = self.heads_strip(strip)
            self.concat_blocks(mh, independent, panels)
            return
        self.strip = None  # numbers want the room: the heads come back for W_O's step
        # one colour scale for the outputs, the concatenation, W_O and the output (squares)
        mats = [mh.concat, *([mh.W_o, mh.output] if mh.W_o is not None else [])]
        self.mix_limit = score_limit(np.concatenate([np.ravel(a) for a in mats]))
        self.grid_limit = score_limit(np.ravel(mh.concat))  # the outputs': theirs, at first
        content = self.regions.content
        outs = None
        if mh.concat.shape[1] <= mh.concat.shape[0]:  # a tall concatenation: beside the outputs
            top, bottom = content.columns(1.4, 1, gap=0.5)
            outs = self.head_outputs(top)
            if not all(getattr(m, "compact", False) for _, m in outs.values()):
                outs = None  # numbers (they want the width): under them after all
        if outs is None:  # a wide one: under them, across the frame
            top, bottom = content.rows(1, 1, gap=0.3)
            outs = self.head_outputs(top)
        self.weights_into_outputs(panels, outs)
        mixing = not independent and mh.W_o is not None
        if mixing:  # W_O's step: under the heads, kept on screen to the last still
            strip, self.below = self.strip_boxes()
            self.strip_later = self.heads_strip(strip)
        boxes = self.mix_boxes(mh) if mixing else None
        # the whole width under the outputs (W_O's step then shrinks it to its place)
        cat, cat_g = self.concat_matrix(mh, mixing, bottom)
        self.concat_group = cat_g
        self.show_values_key(
            [m for _, m in outs.values()] + [cat], "mh_values_out", self.grid_limit
        )
        self.slide_into_concat(outs, cat, cat_g)
        self.hold(0.5)
        if not mixing:
            self.step("no_mix")
            return
        self.mix(mh, outs, cat, cat_g, boxes)

    def head_outputs(self, top: Box) -> dict:
        """Each shown head's output, tinted as its blocks: {head: (title, matrix)}."""
        theme, heads = self.theme, self.trace.heads
        d_v = heads[0].V.shape[1]
        out_colors = [self.q_color(i) for i in range(self.example.n)]
        outs = {}
        boxes = top.columns(*([1] * len(self.shown)), gap=0.3)
        for box, h in zip(boxes, self.shown):
            m = self.kit.grid(
                heads[h].output,
                ("output", h),
                [f"o({t})" for t in self.q_tokens],
                [str(j + 1) for j in range(d_v)],
                box,
                sizes=(25, 22),
                row_colors=out_colors,
                limit=self.grid_limit,
                cell_pad=COMPACT,
            )
            for rect in m.backgrounds:
                fill = self.tint(h)
                rect.set_fill(fill, opacity=1)
                if not getattr(m, "compact", False):
                    m.cells[rect.cell_index].set_color(text_on(fill, theme))
            t = label(self.say("head_n", h=h + 1), SMALL, theme.output, weight="BOLD")
            t.next_to(m, UP, buff=0.12).align_to(m, LEFT)
            place(VGroup(t, m), box, "top")
            outs[h] = (t, m)
        return outs

    def show_values_key(self, mats, words: str, limit: float) -> None:
        """Where any of ``mats`` is a grid of squares coloured by value (on the one scale of
        ``limit``), the key of that scale beside the widths line; the previous key leaves."""
        old = getattr(self, "value_key", VGroup())
        compact = any(getattr(m, "compact", False) for m in mats)
        self.value_key = VGroup()
        key = self.values_key_of(limit, words) if compact else VGroup()
        self.value_key = key  # the widths line moves over to make room for it
        line = self.widths_mob
        moves = [line.animate.move_to(self.widths_room().center)] if len(key) and len(line) else []
        if len(old) or len(key):
            self.play(FadeOut(old), FadeIn(key), *moves, run_time=0.4)

    def strip_boxes(self) -> tuple[Box, Box]:
        """The band at the top of the content for the heads kept on screen (a title line and
        heatmaps :meth:`least_head` tall — 160 px at 1080p in a square frame —, two title lines
        where the explained head's name breaks, and the line naming the heads not drawn), and
        the content left under it."""
        content = self.regions.content
        title = self.strip_title_height(content)
        _, cols = self.strip_columns(content)  # no taller than the columns let the heads be
        beside = self.followed_weight().width + 0.15  # (the explained head's weight beside it)
        wide = min(c.width - 0.3 - beside * (h == self.explained) for h, c in zip(self.shown, cols))
        side = max(1.15 * self.least_head(), min(0.38 * content.height - title, wide))
        # the line naming the heads not drawn: beside the last head where it fits, else under
        # the heads, its room taken from theirs
        rest = label(self.not_shown(), SMALL) if self.not_shown() else None
        # (the head inset 0.1 in its column, as wide as its title where that is wider: at 1:1
        # "head 1: explanations → notes" over one head put the line over the colour bar)
        last = self.shown[-1]
        drawn = max(
            side + beside * (last == self.explained),
            self.head_title(last, cols[-1].width - 0.3).width,
        )
        free = cols[-1].width - 0.1 - drawn - 0.25 - 0.1 * (last == self.explained)  # (its frame)
        lines = wrap_lines(self.not_shown(), free, SMALL, 2) if rest is not None else []
        self.rest_beside = bool(lines) and max(text_width(t, SMALL) for t in lines) <= free
        self.rest_lines = lines if self.rest_beside else [self.not_shown()]
        line = rest.height + 0.1 if rest is not None and not self.rest_beside else 0.0
        if line and self.frame.width <= self.frame.height * 1.01:  # a square frame: no room
            side = max(self.least_head(), min(0.38 * content.height - title - line, wide))
        tall = title + 0.1 + side + 0.25 + line
        return content.rows(tall, content.height - tall - 0.3, gap=0.3)

    def rest_line_height(self) -> float:
        """The height the strip's line naming the heads not drawn takes under them (0 where
        every head is drawn, or the line stands beside the last)."""
        rest = self.not_shown()
        if not rest or getattr(self, "rest_beside", False):
            return 0.0
        return label(rest, SMALL).height + 0.1

    def strip_columns(self, box: Box) -> tuple[Box, list[Box]]:
        """The box of the strip's colour bar and each shown head's column."""
        bar_w = 1.0
        heads = Box(box.x0, box.y0, box.x1 - bar_w - 0.2, box.y1)
        shares = [1.4 if h == self.explained else 1 for h in self.shown]  # (and its weight)
        cols = heads.columns(*shares, gap=0.3)
        return Box(heads.x1 + 0.2, box.y0, box.x1, box.y1), cols

    def strip_title_height(self, box: Box) -> float:
        _, cols = self.strip_columns(box)
        return max(self.head_title(h, c.width - 0.3).height for h, c in zip(self.shown, cols))

    def heads_strip(self, box: Box) -> VGroup:
        """Each shown head's weights as a heatmap on the 0–1 scale (its colour bar at the
        right), its name above; the explained head first, framed, its followed cell framed:
        the heads the concatenation and W_O mix stay in view. Each is ``.grids[h]``."""
        theme = self.theme
        bar_box, cols = self.strip_columns(box)
        bar = self.kit.colour_bar("weights", width=min(1.6, box.height - 0.3), vertical=True)
        place(bar, bar_box, "center")
        title_h = self.strip_title_height(box)
        line_h = self.rest_line_height()
        strip, grids = VGroup(), {}
        for h, col in zip(self.shown, cols):
            title = self.head_title(h, col.width - 0.3)
            weight = self.followed_weight() if h == self.explained else VGroup()
            room = weight.width + 0.15 if len(weight) else 0.0  # its followed weight beside it
            side = min(col.width - 0.3 - room, box.height - title_h - 0.35 - line_h)
            grid = HeatGrid(self.trace.heads[h].weights, max(side, 0.3), theme)
            item = VGroup(title, grid).arrange(DOWN, aligned_edge=LEFT, buff=0.1)
            place(item, col.inset(0.1, 0.1), "top-left")
            if h == self.explained:  # its followed cell framed, the weight at that row
                pair = self.followed(h)
                cell = grid.cell_rect(pair.query, pair.key).get_center()[1]
                weight.next_to(grid, RIGHT, buff=0.12)
                top, foot = grid.get_top()[1], grid.get_bottom()[1]  # level with the grid
                weight.set_y(min(max(cell, foot + weight.height / 2), top - weight.height / 2))
                item.add(weight, frame_cell(grid, pair.query, pair.key, theme))
                item.add(self.explained_frame(item, buff=0.08))
            grids[h] = grid
            strip.add(item)
        rest = self.not_shown()  # the heads not drawn, named under those that are
        if rest:
            line = VGroup(*(label(t, SMALL, theme.muted) for t in self.rest_lines))
            line.arrange(DOWN, aligned_edge=LEFT, buff=0.06)
            if line_h:
                place(line, Box(box.x0, box.y0, box.x1, box.y0 + line_h), "bottom-left")
            else:  # beside the last head, level with its foot
                last = grids[self.shown[-1]]
                line.next_to(strip[-1], RIGHT, buff=0.25).align_to(last, DOWN)
            strip.add(line)
        strip.add(bar)  # (last: the steps find it there)
        strip.grids = grids
        return strip

    def followed_weight(self):
        """The explained head's followed weight (its pair's α), in the accent of the frame
        around its cell: the last still shows the number the other scenes explain."""
        pair = self.followed(self.explained)
        value = self.trace.heads[self.explained].weights[pair.query, pair.key]
        role = ("weights", self.explained, pair.query, pair.key)
        return self.num(value, role, digits=2, size=SMALL, color=self.theme.accent)

    def weights_into_outputs(self, panels: dict, outs: dict) -> None:
        """The planes leave; each shown head's weights shrink into the strip of heads kept on
        screen, and turn into its output (the weights times its values: an output never
        appears from nothing)."""
        patterns = [p.pattern for p in panels.values()]
        keep = (self.title_mob, self.caption_mob, self.widths_mob, *patterns)
        self.play(*(FadeOut(m) for m in self.mobjects if m not in keep), run_time=0.5)
        if self.strip is None:  # the weights turn into the outputs (squares shrink onto them:
            # morphing 24 × 24 squares into 24 × 2 was 70 % of a 24-token run's CPU time)
            self.play(
                *(
                    a
                    for h in outs
                    if h in panels
                    for a in self.into_output(panels[h], VGroup(*outs[h]))
                ),
                *(FadeIn(VGroup(*outs[h])) for h in outs if h not in panels),
                run_time=1.2,
            )
            return
        grids = self.strip.grids
        self.play(
            *(squeeze(panels[h].pattern, grids[h]) for h in grids if h in panels),
            FadeIn(self.strip),
            run_time=0.9,
        )
        self.play(
            *(TransformFromCopy(grids[h], VGroup(*outs[h])) for h in outs if h in grids),
            *(FadeIn(VGroup(*outs[h])) for h in outs if h not in grids),
            run_time=1.2,
        )

    @staticmethod
    def into_output(panel, out) -> list:
        """A head's weights turning into its output: piece by piece where they are numbers,
        else (squares) shrinking onto it as it fades in."""
        if getattr(panel.weights, "compact", False):
            return [squeeze(panel.pattern, out), FadeIn(out)]
        return morph(panel.pattern, out)

    def mix_boxes(self, mh) -> dict:
        """Where concat · W_O = output go (under the heads kept on screen): in one row (wide),
        or concat · W_O above and = output below (narrow)."""
        content = self.below
        # many tokens (grids of squares, not numbers): one row where the three matrices fit it
        # at a readable square (the limits at 4:3)
        columns = sum(np.shape(a)[1] for a in (mh.concat, mh.W_o, mh.output))
        n = max(self.example.n, mh.W_o.shape[0])
        across = min((content.width - 3.0) / columns, (content.height - 0.9) / n)
        stacked = min((content.width - 1.5) / (columns - mh.output.shape[1]),
                      ((content.height - 0.3) / 2.15 - 0.9) / n)  # fmt: skip
        squares = self.example.n > 6 and across >= stacked  # the larger squares
        wide = content.width >= 12 or squares
        if wide:  # concat · W_O = output in one row
            mix_cat, dot_box, wo_box, eq_box, out_box = content.columns(
                1.1, 0.12, 1, 0.12, 1.2, gap=0.2
            )
        else:  # narrow: concat · W_O above, = output below
            upper, lower = content.rows(1.15, 1, gap=0.3)
            mix_cat, dot_box, wo_box = upper.columns(1, 0.1, 1, gap=0.15)
            eq_box, out_box = lower.columns(0.1, 1, gap=0.15)
        return {
            "wide": wide,
            "mix_cat": mix_cat,
            "dot": dot_box,
            "wo": wo_box,
            "eq": eq_box,
            "out": out_box,
        }

    def concat_matrix(self, mh, mixing: bool, cat_box: Box):
        """The concatenation, its column blocks tinted by head and tagged with their numbers:
        (matrix, the group of title, matrix, frames and tags)."""
        theme = self.theme
        d_v = self.trace.heads[0].V.shape[1]
        room = cat_box
        for _ in range(2):  # once more, shorter, where the tags (on two rows) ran out of the box
            cat = self.kit.grid(
                mh.concat,
                ("concat",),
                self.q_tokens if mixing else [f"o({t})" for t in self.q_tokens],
                [str(j + 1) for j in range(mh.concat.shape[1])],
                room,
                sizes=(25, 22),
                title_room=TITLE_ROOM + 0.45,
                row_colors=[self.q_color(i) for i in range(self.example.n)],
                limit=self.grid_limit,
                cell_pad=COMPACT,
            )
            blocks, tags = self.tint_blocks(cat, d_v)
            cat_title = label(self.say("concat_title", H=len(self.trace.heads)), SMALL, theme.text)
            if cat_title.width > cat_box.width:  # a narrow box: "concat" over "[head 1 … head H]"
                words = self.say("concat_title", H=len(self.trace.heads)).split(" ", 1)
                cat_title = VGroup(*(label(w, SMALL, theme.text) for w in words))
                cat_title.arrange(DOWN, aligned_edge=LEFT, buff=0.06)
            cat_g = VGroup(cat, VGroup(*blocks.values()), tags)
            cat_title.next_to(cat_g, UP, buff=0.12).align_to(cat_g, LEFT)
            over = VGroup(cat_title, cat_g).height - cat_box.height
            if over <= 1e-6:
                break
            room = Box(cat_box.x0, cat_box.y0 + over + 0.05, cat_box.x1, cat_box.y1)
        self.head_blocks["concat"] = blocks
        place(VGroup(cat_title, cat_g), cat_box, "top")
        return cat, VGroup(cat_title, cat_g)

    def slide_into_concat(self, outs, cat, cat_g) -> None:
        """Each head output's cells slide into their columns of the concatenation."""
        d_v = self.trace.heads[0].V.shape[1]
        cat_title, (_, blocks, tags) = cat_g
        pairs = []
        for h, (_, m) in outs.items():
            for (i, j), cell in m.cells.items():
                target = cat.cells.get((i, h * d_v + j))
                if target is not None:
                    pairs.append((cell, target))
        done = {id(t) for _, t in pairs}
        slides = cells_from(pairs)
        rest = [c for c in cat.cells.values() if id(c) not in done]
        self.play(
            FadeIn(cat.frame_parts()),
            FadeIn(cat_title),
            FadeIn(VGroup(*blocks)),
            FadeIn(tags),
            run_time=0.6,
        )
        if is_shaded(cat):  # drawn by colour: whole blocks move
            frames = {f.head: f for f in blocks}
            slides = [block_into(m, frames[h]) for h, (_, m) in outs.items() if h in frames] + [
                FadeIn(cat.shaded)
            ]
        self.play(*slides, *([FadeIn(VGroup(*rest))] if rest else []), run_time=1.6)

    def mix(self, mh, outs, cat, cat_g, boxes) -> None:
        """W_O: the product back to d_model, row by row of the concatenation."""
        theme = self.theme
        width = ac.output_width(self.trace)
        key = "mix" if width.kind == "model" else "mix_other"
        self.step("mix", caption_key=key, d=width.d_model, w=width.width)
        self.grid_limit = self.mix_limit  # concat, W_O and the output on one scale
        small, small_g = self.concat_matrix(mh, True, boxes["mix_cat"])
        place(small_g, boxes["mix_cat"], "center")
        blocks = {f.head: f for f in cat_g[1][1]}  # the heads come back out of their blocks
        self.strip = self.strip_later
        grids = self.strip.grids
        self.play(
            *(FadeOut(VGroup(t, m)) for t, m in outs.values()),
            *morph(cat_g, small_g),
            *(TransformFromCopy(blocks[h], grids[h]) for h in grids if h in blocks),
            FadeIn(VGroup(*(m for it in self.strip[:-1] for m in it if m not in grids.values()))),
            FadeIn(self.strip[-1]),  # the colour bar of the heads' weights
            run_time=0.9,
        )
        cat = small
        wo, wo_title = self.w_o_matrix(mh, boxes["wo"])
        out, out_title = self.mixed_output(mh, boxes["out"], boxes["wide"])
        dot_box, eq_box = boxes["dot"], boxes["eq"]
        dot = label("·", BODY, theme.text).move_to([dot_box.center[0], wo.get_center()[1], 0])
        eq = label("=", BODY, theme.text).move_to([eq_box.center[0], out.get_center()[1], 0])
        if not boxes["wide"]:  # the output starts at the left of its box: "=" right before it
            eq.next_to(out, LEFT, buff=0.2)
        self.play(FadeIn(wo), FadeIn(wo_title), FadeIn(dot), FadeIn(eq), run_time=0.8)
        self.show_values_key([cat, wo, out], "mh_values_mix", self.mix_limit)
        self.play(FadeIn(out.frame_parts()), FadeIn(out_title), run_time=0.5)
        rows, highlights = [], []
        for i in out.shown_rows:
            target = out.row_group(i)
            if i not in cat.shown_rows:  # elided in the concatenation: the row just appears
                rows.append(FadeIn(target))
                continue
            highlight = row_highlight(cat, i, theme)
            highlights.append(highlight)
            rows.append(
                AnimationGroup(
                    FadeIn(highlight),
                    TransformFromCopy(row_and(cat.row_group(i), wo.numbers), target),
                    lag_ratio=0.3,
                )
            )
        ink = [FadeIn(out.shaded)] if is_shaded(out) else []  # drawn by colour: no row of cells
        self.play(
            AnimationGroup(*rows, lag_ratio=0.6), *ink, run_time=min(3.0, 0.8 * len(rows) + 0.6)
        )
        self.play_all((FadeOut(hl) for hl in highlights), run_time=0.3)

    def w_o_matrix(self, mh, wo_box: Box):
        """W_O with its name above, in ``wo_box``: (matrix, title)."""
        theme = self.theme
        wo = self.kit.grid(
            mh.W_o,
            ("W_o",),
            [str(i + 1) for i in range(mh.W_o.shape[0])],
            [str(j + 1) for j in range(mh.W_o.shape[1])],
            wo_box,
            sizes=(25, 22),
            title_room=TITLE_ROOM,
            limit=self.mix_limit,
            cell_pad=COMPACT,
        )
        wo_title = math("W_O", FORMULA, theme.text)
        wo_title.next_to(wo, UP, buff=0.12).align_to(wo, LEFT)
        place(VGroup(wo_title, wo), wo_box, "center")
        return wo, wo_title

    def mixed_output(self, mh, out_box: Box, wide: bool):
        """The multi-head output (concat · W_O), in the output style: (matrix, title)."""
        theme = self.theme
        out = self.kit.grid(
            mh.output,
            ("final",),
            [f"o({t})" for t in self.q_tokens],
            [str(j + 1) for j in range(mh.output.shape[1])],
            out_box,
            sizes=(25, 22),
            title_room=TITLE_ROOM,
            row_colors=[self.q_color(i) for i in range(self.example.n)],
            limit=self.mix_limit,
            cell_pad=COMPACT,
        )
        for cell in out.cells.values() if not getattr(out, "compact", False) else ():
            cell.set_color(theme.output)
        out_title = self.typeset("mh_output", BODY, theme.output)
        if out_title.width > out_box.width:  # narrow: "output" (the row says the rest)
            out_title = label(self.say("mh_output_short"), SMALL, theme.output)
        out_title.next_to(out, UP, buff=0.12).align_to(out, LEFT)
        place(VGroup(out_title, out), out_box, "center" if wide else "left")
        return out, out_title
