"""CausalMask: the score matrix, the blocked cells set to −∞ (shown, not just said), the softmax of
each row over the allowed keys only, and the row sums still 1. The example's own mask is used
(causal, explicit or padding); an example without one gets a causal mask, and says so."""

from __future__ import annotations

import dataclasses

import numpy as np
from manim import UP, Arrow, ReplacementTransform, VGroup

import attention_core as ac
from scenes.base import ExplainerScene
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import MARGIN, Box, nudge_into, place
from scenes.mobjects.matrix import LabelledMatrix, matrix_title
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
        ex, head, theme = self.example, self.head, self.theme
        left, mid, right = self.regions.content.columns(5, 1, 5, gap=0.15)
        kw = dict(
            row_colors=[self.q_color(i) for i in range(ex.n)],
            col_colors=[self.k_color(j) for j in range(ex.n_keys)],
        )
        scaled = LabelledMatrix.fitted(
            head.scaled, ("scaled", 0), theme, ex.tokens, ex.key_tokens, left, **kw
        )
        masked = LabelledMatrix.fitted(
            head.masked, ("masked", 0), theme, ex.tokens, ex.key_tokens, left, **kw
        )
        weights = LabelledMatrix.fitted(
            head.weights,
            ("weights", 0),
            theme,
            ex.tokens,
            ex.key_tokens,
            Box(right.x0, right.y0, right.x1 - 1.0, right.y1),
            digits=3,
            heat=True,
            **kw,
        )
        g_scaled = place(VGroup(matrix_title(self.say("scaled"), scaled, theme), scaled), left)
        g_masked = place(VGroup(matrix_title(self.say("masked"), masked, theme), masked), left)
        g_weights = VGroup(matrix_title(self.say("weights"), weights, theme), weights)
        place(g_weights, Box(right.x0, right.y0, right.x1 - 1.0, right.y1), "left")
        for matrix in (masked, weights):  # blocked cells: dark (each matrix elides its own)
            for i, j in matrix.cells:
                if head.mask is not None and not head.mask[i, j]:
                    matrix.cell_rect(i, j).set_fill(theme.background)

        self.step("scores", kind=self.say(f"mask_{self.mask_kind}"))
        self.play(FadeIn(g_scaled), run_time=1)
        self.hold()

        self.step(
            "blocked" if head.mask is not None else "unmasked",
            kind=self.say(f"mask_{self.mask_kind}"),
        )
        if head.mask is not None:
            self.play(ReplacementTransform(g_scaled, g_masked), run_time=1.5)
        self.hold()

        self.step("softmax")
        arrow = Arrow([mid.x0, 0, 0], [mid.x1, 0, 0], color=theme.accent, buff=0.05)
        sums = VGroup(
            *(
                self.num(np.sum(head.weights[i]), ("rowsum", 0, i), 3, color=theme.accent)
                for i in weights.shown_rows
            )
        )
        weights.place_row_notes(sums, buff=0.2)
        sum_head = label(self.say("row_sum"), SMALL, theme.accent)
        sum_head.next_to(sums[0], UP, buff=0.25).align_to(sums[0], [-1, 0, 0])
        nudge_into(sum_head, self.frame.inset(MARGIN))
        self.play(FadeIn(arrow), FadeIn(g_weights), run_time=1.2)
        self.play(FadeIn(sums), FadeIn(sum_head))
        self.hold(1.8)
