"""CausalMask: the score matrix, the blocked cells set to −∞ (shown, not just said), the softmax of
each row over the allowed keys only, and the row sums still 1. The example's own mask is used
(causal, explicit or padding); an example without one gets a causal mask, and says so."""

from __future__ import annotations

import dataclasses

import numpy as np
from manim import DOWN, UP, Arrow, LaggedStart, ReplacementTransform, TransformFromCopy, VGroup

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import MARGIN, Box, nudge_into, place
from scenes.mobjects.matrix import matrix_title
from scenes.mobjects.text import label
from scenes.mobjects.theme import SMALL


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

    def construct(self):
        content = self.regions.content
        # a narrow frame (or many keys: a grid of squares each) shows one matrix at a time, the
        # scores turning into the weights
        self.narrow = narrow = content.width < 2.0 * content.height or self.example.n_keys > 8
        left, mid, right = (content,) * 3 if narrow else content.columns(5, 1, 5, gap=0.15)
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

    def build_matrices(self, left, right):
        """The scaled scores, the masked scores (where the first will turn into) and the
        weights, with their titles; and the cells the mask blocks."""
        ex, head, theme = self.example, self.head, self.theme
        kw = dict(
            row_colors=[self.q_color(i) for i in range(ex.n)],
            col_colors=[self.k_color(j) for j in range(ex.n_keys)],
        )
        rows, cols = self.q_tokens, self.k_tokens
        grid = dict(kw, any_squares=True)  # at many tokens, scores as squares (area = |score|)
        self.scaled = scaled = self.kit.matrix(head.scaled, ("scaled", 0), rows, cols, left, **grid)
        self.masked = masked = self.kit.matrix(head.masked, ("masked", 0), rows, cols, left, **grid)
        w_box = Box(right.x0, right.y0, right.x1 - 1.0, right.y1)  # the row sums in the last 1.0
        self.weights = weights = self.kit.matrix(
            head.weights, ("weights", 0), rows, cols, w_box, digits=3, heat=True, **kw
        )
        self.sums_once = False
        # every row and column where the sums are said once (24 at 1:1), and on a grid whose rows
        # are split between its sides (24 × "1.000" say nothing)
        if not weights.whole or weights.style.split:
            once = self.kit.matrix(
                head.weights, ("weights", 0), rows, cols, right, digits=3, heat=True, **kw
            )
            if once.whole:
                self.weights, self.sums_once, w_box = once, True, right
                weights = once
        self.t_scaled = matrix_title(self.typeset("scaled", SMALL, theme.muted), scaled, theme)
        self.t_masked = matrix_title(self.typeset("masked", SMALL, theme.muted), masked, theme)
        self.g_scaled = place(VGroup(self.t_scaled, scaled), left)
        place(VGroup(self.t_masked, masked), left)
        self.g_weights = VGroup(matrix_title(self.say("weights"), weights, theme), weights)
        place(self.g_weights, w_box, "left")
        self.blocked = (
            []
            if head.mask is None
            else [(i, j) for i, j in scaled.shown_cells if not head.mask[i, j]]
        )

    def lower_the_mask(self, kind):
        """The mask comes down over the cells a query may not see; under it each blocked score
        becomes −∞, the allowed ones stay."""
        theme, scaled, masked, blocked = self.theme, self.scaled, self.masked, self.blocked
        self.step("mask", kind=kind)
        cover = VGroup(
            *(
                scaled.cell_rect(i, j)
                .copy()
                .set_fill(theme.background, opacity=0.75)
                .set_stroke(theme.muted, width=2)
                for i, j in blocked
            )
        )
        self.play(FadeIn(cover, shift=0.5 * DOWN, lag_ratio=0.05), run_time=1.2)
        # the covered scores stay readable above the mask, in the muted colour
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
            run_time=1.4,
        )
        self.bring_to_front(*(masked.mark(*c) for c in both), *new)  # −∞ over the mask

    def row_sums(self):
        """Each shown row's sum beside it under a "row sum" heading (alternating between two
        columns where the grid's rows are split between its sides: 24 tokens); or, where only
        then every row and column fits (``self.sums_once``), "every row sums to 1.000" once
        on the title's line."""
        head, theme, weights = self.head, self.theme, self.weights
        rows = weights.shown_rows[:1] if self.sums_once else weights.shown_rows
        sums = VGroup(
            *(
                self.num(np.sum(head.weights[i]), ("rowsum", 0, i), 3, color=theme.accent)
                for i in rows
            )
        )
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
        if narrow:  # the scores leave room for the weights
            keep = (self.title_mob, self.caption_mob)
            self.play(
                *(FadeOut(m) for m in self.mobjects if m not in keep),
                FadeIn(self.g_weights[0]),
                FadeIn(weights.frame_parts()),
                run_time=0.8,
            )
            self.play(FadeIn(weights.numbers, lag_ratio=0.1), run_time=1.2)
        else:  # each row of scores turns into its row of shares
            source = self.masked if self.blocked else self.scaled
            self.play(
                FadeIn(arrow),
                FadeIn(self.g_weights[0]),
                FadeIn(weights.frame_parts()),
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
        self.play(FadeIn(sums, lag_ratio=0.1), FadeIn(sum_head))
