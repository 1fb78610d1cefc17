"""CausalMask: the score matrix, the blocked cells set to −∞ (shown, not just said), the softmax of
each row over the allowed keys only, and the row sums still 1. The example's own mask is used
(causal, explicit or padding); an example without one gets a causal mask, and says so."""

from __future__ import annotations

import dataclasses

import numpy as np
from manim import (
    DOWN,
    UP,
    Arrow,
    Create,
    LaggedStart,
    ReplacementTransform,
    TransformFromCopy,
    VGroup,
)

import attention_core as ac
from attention_core.readings.cast import CAST_ALL
from scenes.kit.base import ExplainerScene
from scenes.kit.roles import HeadRole
from scenes.mobjects.blocked import blocked_look, blocked_patch, blocked_sample
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import MARGIN, Box, box_of, flow, nudge_into, place
from scenes.mobjects.matrix import matrix_title
from scenes.mobjects.text import Num, label
from scenes.mobjects.theme import SMALL

# the strip under the weights in a frame without room beside them: one line, the blocked cells'
# key, then the followed pair's note in its place (more would cost 24 tokens' grid at 1:1; at 23
# tokens even this one does, unless the title leaves its line for a corner: fit_weights)
FOOT_LINE = 0.3
PANEL = 4.2  # the room a wide frame keeps right of the weights for the followed row
FRAMED = 0.09  # more room above and below the framed row of the followed row's chart


def masked_example(example: ac.Example) -> tuple[ac.Example, str]:
    """The example with the mask this scene shows, and which kind it is."""
    if example.mask_matrix is not None:
        if example.padding is not None and isinstance(example.mask, str) and example.mask == "none":
            return example, "padding"
        return example, "causal" if isinstance(example.mask, str) else "explicit"
    if example.is_cross:
        return example, "none"
    return dataclasses.replace(example, mask="causal"), "applied"


class CausalMask(ExplainerScene):
    """Masking: blocked scores become −∞, so their weights are exactly 0."""

    def __init__(self, example=None, **kwargs):
        super().__init__(example, **kwargs)
        self.example, self.mask_kind = masked_example(self.example)
        self.trace = ac.trace_example(self.example)
        # the followed pair of a trained or asked head, as this trace (its mask) shows it: the
        # last step frames it and says what the head does with it; None for a made-up example
        self.pair = ac.pair_row(self.trace)

    def construct(self):
        content = self.regions.content
        # a narrow frame (or many keys: a grid of squares each) shows one matrix at a time, the
        # scores turning into the weights
        self.narrow = narrow = content.width < 2.0 * content.height or self.example.n_keys > 8
        # a wide frame showing the weights alone keeps its right for the key of the blocked
        # cells and the followed row (issue 32: no final still mostly empty); else a strip under
        # the weights holds them
        self.side_panel = narrow and content.width >= 2.2 * content.height
        left, mid, right = (content,) * 3 if narrow else content.columns(5, 1, 5, gap=0.15)
        self.build_matrices(left, right)
        if not narrow and self.wider_than(left, right):  # one column as wide as a long name:
            self.narrow = True  # one matrix at a time, as in a narrow frame
            self.side_panel = content.width >= 2.2 * content.height
            left, mid, right = (content,) * 3
            self.build_matrices(left, right)
        kind = self.say(f"mask_{self.mask_kind}")

        # 1. the scores, as every earlier scene left them
        self.step("scores", kind=kind)
        self.play(FadeIn(self.g_scaled), run_time=1)

        claim = ac.mask_claim(self.head.mask, self.head.weights.shape)
        if claim.kind != "blocks":  # no mask, or one that blocks no cell (one token)
            self.step(
                "unmasked", caption_key={"none": "unmasked"}.get(claim.kind, claim.kind), kind=kind
            )
        else:
            self.lower_the_mask(kind)
        self.softmax_rows(mid)
        if self.pair is not None:
            self.follow_pair()

    def wider_than(self, left: Box, right: Box) -> bool:
        """Whether the built scores or weights overrun their column (left, right)."""
        pairs = ((self.g_scaled, left), (self.g_weights, right))
        return any(
            box_of(m).x0 < room.x0 - 1e-3 or box_of(m).x1 > room.x1 + 1e-3 for m, room in pairs
        )

    def build_matrices(self, left, right):
        """The scaled scores, the masked scores (where the first will turn into) and the
        weights, with their titles; and the cells the mask blocks."""
        ex, head, theme = self.example, self.head, self.theme
        kw = dict(
            row_colors=[self.q_color(i) for i in range(ex.n)],
            col_colors=[self.k_color(j) for j in range(ex.n_keys)],
        )
        rows, cols = self.q_tokens, self.k_tokens
        grid = dict(kw, any_squares=True)  # at many tokens, each score a cell filled in its colour
        self.scaled = scaled = self.kit.matrix(
            head.scaled, ("scaled", self.h), rows, cols, left, **grid
        )
        if not scaled.whole and self.narrow:  # 24 tokens at 1:1: whole only with the key in
            keyless = self.kit.matrix(  # a corner (issue 38: rows [0-4, 11, 23], columns
                head.scaled, ("scaled", self.h), rows, cols, left, colorbar=False, **grid
            )  # [11, 23] of 24 × 24 where the squares fit)
            if keyless.whole:
                self.scaled, scaled, grid = keyless, keyless, dict(grid, colorbar=False)
        # the masked scores in the scores' style: squares where they are (the masked cells' wide
        # scores gone, the rest fitted as numbers, each −∞ landed far from its cell at 4:3)
        squares = bool(scaled.style.squares)
        self.masked = masked = self.kit.matrix(
            head.masked, ("masked", self.h), rows, cols, left, squares_only=squares, **grid
        )
        blocks = head.mask is not None and not np.all(head.mask)
        panel = PANEL if self.side_panel else 0.0
        foot = 0.0 if self.side_panel or not (blocks or self.pair) else FOOT_LINE
        if foot and self.pair is not None:  # a note too long for one line: on two, the strip taller
            extra = self.sight_note(right.width).height - self.sight_note(99.0).height
            foot += max(extra, 0.0)
        right = Box(right.x0, right.y0 + foot, right.x1 - panel, right.y1)
        self.foot = Box(right.x0, right.y0 - foot, right.x1, right.y0)
        self.w_x0 = right.x0  # the weights' column starts here (the scores left of it, wide)
        if self.pair is not None:  # the followed pair's row and column kept; its number on a
            # grid of squares said on the note (a badge over the grid hid rows of squares)
            kw["keep_rows"], kw["keep_cols"] = [self.pair.query], [self.pair.key]
        elif not (self.side_panel and self.head.weights.shape[0] > CAST_ALL):
            # a made-up example's demo pair (no last step of its own; a wide frame's panel draws
            # its row): its weight kept on a grid of squares, in a badge at its cell (issue 38:
            # explanations → notes 0.489 was on no last still at 4:3 and 1:1)
            f = ac.followed_pair(self.trace)
            kw["named"] = [(f.query, f.key)]
        self.weights, w_box, title = self.fit_weights(right, kw)
        weights = self.weights
        self.t_scaled = matrix_title(self.typeset("scaled", SMALL, theme.muted), scaled, theme)
        self.t_masked = matrix_title(self.typeset("masked", SMALL, theme.muted), masked, theme)
        self.g_scaled = place(VGroup(self.t_scaled, scaled), left)
        place(VGroup(self.t_masked, masked), left)
        if not scaled.style.colorbar:  # the scores' key in the corner over the right names
            self.key_in_corner(scaled, self.corner_boxes(scaled)[1])
        if title is None:  # above the grid
            self.g_weights = VGroup(matrix_title(self.say("weights"), weights, theme), weights)
            place(self.g_weights, w_box, "left")
        else:  # in the corner left of the column numbers (placed with the grid)
            self.g_weights = VGroup(title, weights)
        self.blocked = (
            []
            if head.mask is None
            else [(i, j) for i, j in scaled.shown_cells if not head.mask[i, j]]
        )
        self.blocked_look = self.mark_blocked(weights)

    def fit_weights(self, right: Box, kw: dict):
        """The weights in ``right`` with the room they take and, where the title is not above
        them, the title (placed): room for the row sums beside them (the last 1.0), else the
        sums said once on the title's line (24 at 1:1), else (:meth:`cornered_weights`) the
        title and the sums in the corners beside the column numbers."""
        args = (self.head.weights, ("weights", self.h), self.q_tokens, self.k_tokens)
        w_box = Box(right.x0, right.y0, right.x1 - 1.0, right.y1)  # the row sums in the last 1.0
        content = self.regions.content  # a frame wider than square (16:9, 4:3): many rows
        many = self.head.weights.shape[0] > CAST_ALL  # (a dozen rows fit named on both sides)
        if many and content.width >= 1.8 * content.height:  # named on the left, by their weights
            kw = dict(kw, one_side=True)  # (named right of a causal grid, "2 students" stood
            # 22 empty cells from its row's two weights)
        weights = self.kit.matrix(*args, w_box, digits=3, heat=True, **kw)
        self.sums_once, self.corners = False, None
        # every row and column where the sums are said once (24 at 1:1), and on a grid whose rows
        # are split between its sides or named in two columns (24 × "1.000" say nothing)
        if weights.whole and not (weights.style.split or weights.style.stagger):
            return weights, w_box, None
        once = self.kit.matrix(*args, right, digits=3, heat=True, **kw)
        if once.whole:
            self.sums_once = True
            return once, right, None
        cornered = None if weights.whole else self.cornered_weights(args, right, kw)
        if cornered is None and not weights.whole and self.narrow:  # 24 tokens at 1:1: the key
            cornered = self.cornered_weights(args, right, dict(kw, colorbar=False))  # cornered
        if cornered is not None:
            self.sums_once = True
            return (*cornered[:1], right, cornered[1])
        return weights, w_box, None

    def cornered_weights(self, args, right: Box, kw: dict):
        """Issue 38: a 23-token grid of squares at 1:1 lacks the title's line under the strip
        at the foot. Fitted without it, the title goes in the corner left of the column numbers
        and the row sums in the one right of them (on two lines where need be): (the weights,
        the title), or None where the grid would still elide or a corner has no room."""
        from scenes.mobjects.text import balanced_lines

        theme, keyed = self.theme, kw.get("colorbar", True)
        for drop in (0.0,) if keyed else (0.0, 0.3, 0.6):  # lower, for the key's room
            box = Box(right.x0, right.y0, right.x1, right.y1 - drop)
            weights = self.kit.matrix(*args, box, digits=3, heat=True, title_room=0.0, **kw)
            if not weights.whole or not weights.style.squares:
                return None
            place(weights, box, "left" if keyed else "center")  # (centred: as the scores)
            left_corner, right_corner = self.corner_boxes(weights)
            words = balanced_lines(self.say("weights"), left_corner.width, SMALL, max_lines=2)
            title = VGroup(*(label(t, SMALL, theme.muted) for t in words))
            title.arrange(DOWN, aligned_edge=np.array([-1, 0, 0]), buff=0.04)
            note = self.sums_note(right_corner.width)
            c = right_corner
            room = Box(c.x0, c.y0, c.x1, c.y1 - note.height - 0.1)  # under the note
            key = None if keyed else self.key_in_corner(weights, room)
            fits = [
                m.width <= c.width and m.height <= c.height
                for m, c in ((title, left_corner), (note, right_corner))
            ]
            if all(fits) and (keyed or key is not None):
                place(title, left_corner, "top-left")
                self.corners = (left_corner, right_corner)
                return weights, title
        return None

    def key_in_corner(self, matrix, room: Box):
        """``matrix``'s colour key lying flat at the foot of ``room`` (the corner over the row
        names right of the grid; 24 tokens at 1:1 have no room for it upright beside them), as
        wide as the room holds (2.0 down to 1.2); it joins ``matrix`` as its key. None (and
        nothing joins) where it does not fit."""
        for width in (2.0, 1.8, 1.6, 1.4, 1.2):
            key = self.kit.colour_bar(matrix.scale, limit=matrix.limit, width=width)
            if key.width <= room.width and key.height <= room.height:
                place(key, room, "bottom-left")
                matrix.remove(matrix.colorbar)
                matrix.colorbar = key
                matrix.add(key)
                return key
        return None

    def corner_boxes(self, weights) -> tuple[Box, Box]:
        """The content's corners beside a placed grid's column numbers: left of them above the
        row labels, right of them above the right-hand row labels and the colour bar."""
        content = self.regions.content
        header = box_of(weights.col_labels)
        below_left = [box_of(weights.row_labels).y1]
        below_right = [box_of(m).y1 for m in (weights.right_labels, weights.colorbar) if len(m)]
        x0 = max(content.x0, getattr(self, "w_x0", content.x0))  # not over the scores beside
        left = Box(x0, max(below_left) + 0.1, header.x0 - 0.15, content.y1)
        right = Box(
            header.x1 + 0.15, max(below_right, default=header.y0) + 0.1, content.x1, content.y1
        )
        return left, right

    def sums_note(self, width: float) -> VGroup:
        """The note 'every row sums to 1.000', on as many lines (at most three) as ``width``
        needs; its parts: the words, then the sum (the first row's: each is 1)."""
        from scenes.mobjects.text import balanced_lines

        theme = self.theme
        total = self.num(
            np.sum(self.head.weights[0]), HeadRole("rowsum", self.h, 0), 3, color=theme.accent
        )
        text = self.say("row_sum_each")
        whole = VGroup(label(text, SMALL, theme.accent), total).arrange(buff=0.15)
        if whole.width <= width:
            return whole
        lines = balanced_lines(text, width, SMALL, max_lines=2)
        words = VGroup(*(label(t, SMALL, theme.accent) for t in lines))
        words.arrange(DOWN, aligned_edge=np.array([-1, 0, 0]), buff=0.04)
        if words[-1].width + 0.15 + total.width <= width:  # the sum on the last line of words
            total.next_to(words[-1], np.array([1, 0, 0]), buff=0.15)
        else:
            total.next_to(words, DOWN, buff=0.04, aligned_edge=np.array([-1, 0, 0]))
        return VGroup(words, total)

    def mark_blocked(self, weights) -> VGroup:
        """The weights' blocked cells in a look of their own (issue 32: a lecturer could not
        tell "masked" from "0.00"); the diagonals returned, to appear with the matrix."""
        return blocked_look(weights, self.head.mask, self.theme)

    def blocked_key(self) -> VGroup:
        """The key of the blocked look, said once: a sample cell and "blocked by the mask:
        weight exactly 0"."""
        from scenes.mobjects.text import balanced_lines

        sample = blocked_sample(self.theme, bool(self.weights.style.squares))
        room = self.panel_room().width if self.side_panel else self.foot.width
        lines = balanced_lines(self.say("blocked_cell"), room - 0.5, SMALL, max_lines=2)
        words = VGroup(*(label(t, SMALL, self.theme.muted) for t in lines))
        words.arrange(DOWN, aligned_edge=np.array([-1, 0, 0]), buff=0.04)
        return VGroup(sample, words).arrange(buff=0.15)

    def lower_the_mask(self, kind):
        """The mask comes down over the cells a query may not see; under it each blocked score
        becomes −∞, the allowed ones stay."""
        theme, scaled, masked, blocked = self.theme, self.scaled, self.masked, self.blocked
        self.step("mask", kind=kind)
        cover = self.mask_cover()
        self.play(FadeIn(cover, shift=0.5 * DOWN, lag_ratio=0.05), run_time=1.2)
        squares = bool(scaled.style.squares)
        if not squares:  # the covered scores stay readable above the mask, in the muted colour
            covered = [scaled.mark(i, j) for i, j in blocked if scaled.mark(i, j) is not None]
            self.bring_to_front(*covered)
            self.play(*(c.animate.set_color(theme.muted) for c in covered), run_time=0.4)
        self.step("blocked", kind=kind)
        # the two matrices may elide different cells (scores are wider than −∞): a cell shown in
        # both turns into its −∞, one shown in only one of them fades (on a grid of squares a
        # −∞ is an empty cell: the score's square fades)
        shown_s = {c for c in blocked if scaled.mark(*c) is not None}
        shown_m = {c for c in blocked if masked.mark(*c) is not None}
        both = [c for c in blocked if c in shown_s and c in shown_m]
        gone = [scaled.mark(*c) for c in blocked if c in shown_s - shown_m]
        new = [masked.mark(*c) for c in blocked if c in shown_m - shown_s]
        self.play(
            ReplacementTransform(self.t_scaled, self.t_masked),
            *(ReplacementTransform(scaled.mark(*c), masked.mark(*c)) for c in both),
            *(FadeOut(c) for c in gone),
            *(FadeIn(c) for c in new),
            # on a grid of squares the cover settles into the blocked cells' flat tone
            *(c.animate.set_fill(opacity=1) for c in cover if squares),
            run_time=1.4,
        )
        self.bring_to_front(*(masked.mark(*c) for c in both), *new)  # −∞ over the mask

    def mask_cover(self) -> VGroup:
        """The mask over the scores it blocks: on numbers the background, three quarters opaque,
        each cell outlined (the scores readable above it); on a grid of squares the blocked
        cells' flat tone, no outline (issue 38: 231 outlined cells of a 22-token mask carried
        more ink than the scores), the scores faint under it until they are gone."""
        theme, scaled = self.theme, self.scaled
        cells = [scaled.cell_rect(i, j).copy() for i, j in self.blocked]
        if scaled.style.squares:  # one patch, as the weights' blocked cells will be
            side = scaled.style.squares
            return VGroup(*(blocked_patch(c, side, theme, opacity=0.75) for c in cells))
        look = (
            c.set_fill(theme.background, opacity=0.75).set_stroke(theme.muted, 2) for c in cells
        )
        return VGroup(*look)

    def row_sums(self):
        """Each shown row's sum beside it under a "row sum" heading (alternating between two
        columns where the grid's rows are split between its sides: 24 tokens); or, where only
        then every row and column fits (``self.sums_once``), "every row sums to 1.000" once
        on the title's line."""
        head, theme, weights = self.head, self.theme, self.weights
        rows = weights.shown_rows[:1] if self.sums_once else weights.shown_rows
        sums = VGroup(
            *(
                self.num(
                    np.sum(head.weights[i]), HeadRole("rowsum", self.h, i), 3, color=theme.accent
                )
                for i in rows
            )
        )
        if self.corners is not None:  # in the corner right of the column numbers
            note = place(self.sums_note(self.corners[1].width), self.corners[1], "top-left")
            return VGroup(note[1]), note[0]
        if self.sums_once:
            sum_head = label(self.say("row_sum_each"), SMALL, theme.accent)
            # on the title's line (under the grid the caption's third line may need the room)
            note = VGroup(sum_head, sums).arrange(buff=0.15)
            note.next_to(self.g_weights[0], np.array([1, 0, 0]), buff=0.6)
            return sums, sum_head
        weights.place_row_notes(sums, buff=0.2, stagger=weights.style.split)
        sum_head = label(self.say("row_sum"), SMALL, theme.accent)
        sum_head.next_to(sums[0], UP, buff=0.25).align_to(sums[0], [-1, 0, 0])
        nudge_into(sum_head, self.frame.inset(MARGIN))
        return sums, sum_head

    def softmax_rows(self, mid):
        """Softmax row by row, over the allowed keys only; a −∞ gets exactly 0. The row sums
        are still 1."""
        theme, weights, narrow = self.theme, self.weights, self.narrow
        self.step("softmax")
        arrow = (
            VGroup()
            if narrow
            else Arrow([mid.x0, 0, 0], [mid.x1, 0, 0], color=theme.muted, buff=0.05)
        )
        sums, sum_head = self.row_sums()
        self.sum_parts = (sums, sum_head)
        if narrow:  # the scores leave room for the weights
            keep = (self.title_mob, self.caption_mob)
            self.play(
                *(FadeOut(m) for m in self.mobjects if m not in keep),
                FadeIn(self.g_weights[0]),
                FadeIn(weights.frame_parts()),
                FadeIn(self.blocked_look),
                run_time=0.8,
            )
            self.play(FadeIn(weights.numbers, lag_ratio=0.1), run_time=1.2)
        else:  # each row of scores turns into its row of shares
            source = self.masked if self.blocked else self.scaled
            self.play(
                FadeIn(arrow),
                FadeIn(self.g_weights[0]),
                FadeIn(weights.frame_parts()),
                FadeIn(self.blocked_look),
                run_time=0.8,
            )
            self.play(
                LaggedStart(
                    *(
                        TransformFromCopy(source.row_group(i), weights.row_group(i))
                        for i in weights.shown_rows
                    ),
                    lag_ratio=0.35,
                ),
                run_time=min(4.0, 1.0 + 0.5 * len(weights.shown_rows)),
            )
        mask = self.head.mask
        shows = mask is not None and any(not mask[i, j] for i, j in weights.shown_cells)
        self.shown_key = key = self.blocked_key() if shows else VGroup()  # a blocked cell shown
        if len(key):
            self.place_beside(key, top=True)
        # (past a dozen rows, where the panel is otherwise empty; never wider than its room)
        many = self.head.weights.shape[0] > CAST_ALL
        self.shares = self.followed_shares() if self.side_panel and many else VGroup()
        if len(self.shares) and box_of(self.shares).x1 > self.panel_room().x1 + 1e-6:
            self.shares = VGroup()
        self.play(FadeIn(sums, lag_ratio=0.1), FadeIn(sum_head), FadeIn(key), FadeIn(self.shares))

    def followed_shares(self) -> VGroup:
        """In a wide frame's panel under the blocked cells' key: the followed query's row as the
        softmax shares it ("explanations →", a bar per key it may see; issue 38: the panel's
        right third was empty but for the key at 24 tokens)."""
        f = ac.followed_pair(self.trace)
        room = self.panel_room()
        top = box_of(self.shown_key).y0 - 0.35 if len(self.shown_key) else room.y1
        head = label(f"{self.q_tokens[f.query]} →", SMALL, self.q_color(f.query))
        head.move_to([room.x0 + head.width / 2, top - head.height / 2, 0])
        below = Box(room.x0, room.y0, room.x1, head.get_bottom()[1] - 0.1)
        return VGroup(head, self.row_chart(below, (f.query, f.key)))

    def place_beside(self, mob, top: bool) -> None:
        """Put ``mob`` (the blocked cells' key, the followed pair's note) right of the weights in
        a wide frame (the key at the top, the note under it), else in the strip under them."""
        if self.side_panel:
            room = self.panel_room()
            if mob.width > room.width:
                mob.scale_to_fit_width(room.width)
            above = self.shown_key if not top and len(self.shown_key) else None
            if above is None:
                place(mob, room, "top-left")
            else:
                mob.next_to(above, DOWN, buff=0.3, aligned_edge=np.array([-1, 0, 0]))
            return
        line = self.foot
        if mob.width > line.width:
            mob.scale_to_fit_width(line.width)
        # its top under the weights' last row labels (a line of text may be taller than the
        # strip: it reaches into the gap above the caption, never up into the labels)
        top = min(line.y1 - 0.03, box_of(self.weights).y0 - 0.08)  # clear of the last row's label
        mob.move_to([line.x0 + mob.width / 2, top - mob.height / 2, 0])

    def panel_room(self) -> Box:
        """The content right of the weights, their row sums and colour key (a wide frame)."""
        if getattr(self, "_panel", None) is None:
            parts = [self.g_weights, *getattr(self, "sum_parts", ())]
            x0 = max(box_of(m).x1 for m in parts) + 0.6
            content = self.regions.content
            self._panel = Box(min(x0, content.x1 - 2.5), content.y0, content.x1, content.y1)
        return self._panel

    def follow_pair(self):
        """What the head does with the followed pair (a trained or asked head): the pair framed
        in the weights, its weight kept, and how much of the row the mask lets the query see
        (``attention_core.pair_row``), in words and the core's numbers."""
        p = self.pair
        q, k = self.q_tokens[p.query], self.k_tokens[p.key]
        w = self.num(p.weight, HeadRole("weights", self.h, p.query, p.key), 3)
        self.step(
            "pair",
            f"pair_{p.sight}",
            q=q,
            k=k,
            w=w.shown,
            n=p.before if p.sight == "before" else p.seen,
            does=self.pair_does(),
            lead=self.deed_lead(),
        )
        frame = self.weights.highlight(p.query, p.key)
        width = self.panel_room().width if self.side_panel else self.foot.width
        # on a grid of squares the pair's number: in the row's chart beside, else on the note
        note = self.sight_note(width, self.weights.style.squares and not self.side_panel)
        self.place_beside(note, top=False)
        # not on the note's line: in a corner
        self.gives_way = []
        weight = self.pair_weight(note) if hasattr(note, "pair") else VGroup()
        gone = [FadeOut(m) for m in self.gives_way if len(m)]
        chart = VGroup()
        if self.side_panel:  # the room under the note: the followed row, drawn large
            room = self.panel_room()
            room = Box(room.x0, room.y0, room.x1, box_of(note).y0 - 0.35)
            chart = self.row_chart(room)
        # in the strip under the weights the note takes the key's place (said in the step before)
        gone += [] if self.side_panel or not len(self.shown_key) else [FadeOut(self.shown_key)]
        gone += [FadeOut(self.shares)] if len(self.shares) else []  # drawn again under the note
        self.play(*gone, Create(frame), FadeIn(note, weight), FadeIn(chart), run_time=0.8)
        self.bring_to_front(*self.weights.badges, *self.weights.cells.values())  # over the frame
        self.hold()

    def row_chart(self, room: Box, cell=None) -> VGroup:
        """The followed query's row in ``room``: a bar per key it may see, as long as its
        weight (on the weights' colour scale), with the key's label and the weight; where not
        all fit, the strongest (the pair's key among them) and a line saying how many not."""
        from manim import Rectangle, SurroundingRectangle

        from scenes.mobjects.colour_bar import scale_fill

        head, theme = self.head, self.theme
        query, key = cell or (self.pair.query, self.pair.key)  # (the followed pair's)
        row = np.asarray(head.weights[query])
        mask = head.mask
        seen = [j for j in range(len(row)) if mask is None or mask[query, j]]
        # the rows on one baseline each (issue 38): a descender over an ascender comes within
        # 0.01 at this pitch, so the framed pair's row has FRAMED more room above and below
        pitch, framed = 0.33, FRAMED
        fit = max(2, int((room.height - pitch - 2 * framed) // pitch))
        keys = seen
        if len(seen) > fit:  # the strongest, the pair's key kept, in the row's order: fit
            # rows (fit - 1 and the key dropped one where the key was among the strongest)
            strongest = sorted(seen, key=lambda j: -row[j])[:fit]
            if key not in strongest:
                strongest = [*strongest[: fit - 1], key]
            keys = sorted(strongest)
        names = [label(self.k_tokens[j], SMALL, self.k_color(j)) for j in keys]
        nums = [self.num(row[j], HeadRole("weights", self.h, query, j), 3) for j in keys]
        name_w = max(m.width for m in names) + 0.15
        bar_w = max(room.width - name_w - max(m.width for m in nums) - 0.3, 0.5)
        lines = VGroup()
        for n, (j, name, num) in enumerate(zip(keys, names, nums)):
            y = room.y1 - pitch * (n + 0.5) - framed * ((j >= key) + (j > key))
            name.move_to([room.x0 + name_w - 0.15, y, 0], aligned_edge=np.array([1, 0, 0]))
            bar = Rectangle(width=max(row[j] * bar_w, 0.02), height=pitch * 0.62, stroke_width=0)
            bar.set_fill(scale_fill("weights", row[j], 1.0), 1)
            bar.move_to([room.x0 + name_w, y, 0], aligned_edge=np.array([-1, 0, 0]))
            num.next_to(bar, np.array([1, 0, 0]), buff=0.12)
            line = VGroup(name, bar, num)
            if j == key:
                line.add(SurroundingRectangle(line, color=theme.accent, buff=0.08, stroke_width=2))
            lines.add(line)
        left = self.kit.not_drawn(keys, len(seen), room.width)
        if len(left):
            left.next_to(lines, DOWN, buff=0.15, aligned_edge=np.array([-1, 0, 0]))
        return VGroup(lines, left)

    def sight_note(self, width: float, weight=False) -> VGroup:
        """The followed query's sight, its numbers from the core: "it₁ may see the 11 tokens
        before it, and itself" (with ``weight``, then "it₁ → baker 0.381"); flowed to ``width``
        (on two lines where the room is narrow)."""
        p, ink = self.pair, self.theme.accent
        q, k = self.q_tokens[p.query], self.k_tokens[p.key]
        template = self.say(f"sight_{p.sight}", q=q, k=k, n="{n}")
        field = "before" if p.sight == "before" else "seen"
        parts = []
        for n, piece in enumerate(template.split("{n}")):
            if n:
                role = HeadRole("pair_row", self.h, field)
                parts.append(Num(getattr(p, field), role, 0, SMALL, ink))
            if piece.strip():
                parts.append(label(piece.strip(), SMALL, ink))
        note = flow(parts, width, hbuff=0.1, vbuff=0.06)
        if not weight:
            return note
        q, k = (self.kit.fit_label(t, 1.6, SMALL) for t in (q, k))
        num = self.num(p.weight, HeadRole("weights", self.h, p.query, p.key), 3)
        pair = VGroup(label(f"{q} → {k}", SMALL, self.theme.text), num).arrange(buff=0.12)
        after = VGroup(label("·", SMALL, self.theme.muted), pair.copy()).arrange(buff=0.15)
        if note.width + 0.15 + after.width <= width and len(note) == 1:  # on the note's line
            return VGroup(note, after).arrange(buff=0.15)
        note.pair = pair  # for :meth:`pair_weight`
        return note

    def pair_weight(self, note) -> VGroup:
        """The followed pair's weight (``note.pair``, "it → soup 0.719") off the grid of squares
        (a badge on it hid rows of squares): in the corner left of the column numbers or right
        of them (on two lines where one is too wide), else under the placed sight ``note``."""
        pair, left = note.pair, np.array([-1, 0, 0])
        lines = VGroup(*(m.copy() for m in pair)).arrange(DOWN, aligned_edge=left, buff=0.04)
        title = [self.g_weights[0]]
        # under what is there (the title, the sums), else in the sums' place (said before)
        for there in (title + list(self.sum_parts), title):
            taken = [box_of(m) for m in there if len(m)]
            for c in self.corner_boxes(self.weights):
                top = min([c.y1, *(t.y0 - 0.08 for t in taken if t.overlaps(c))])
                corner = Box(c.x0, c.y0, c.x1, top)
                for mob in (pair, lines):
                    if mob.width <= corner.width and mob.height <= corner.height:
                        self.gives_way = [m for m in self.sum_parts if m not in there]
                        return place(mob, corner, "bottom-left")
        return pair.next_to(note, DOWN, buff=0.06, aligned_edge=left)
