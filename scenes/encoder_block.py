"""EncoderBlock: where attention sits (text 001 §8) — multi-head self-attention, the residual add
and LayerNorm, the feed-forward network, the second residual and LayerNorm, with the example's
numbers (its own attention weights; the feed-forward weights seeded and labelled illustrative)."""

from __future__ import annotations

from manim import Arrow, VGroup

import attention_core as ac
from scenes.base import ExplainerScene
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import place
from scenes.mobjects.matrix import LabelledMatrix, matrix_title


class EncoderBlock(ExplainerScene):
    """X → A → H = LN(X + A) → F = FFN(H) → Y = LN(H + F)."""

    explains_one_head = False

    def construct(self):
        ex, theme = self.example, self.theme
        enc = ac.trace_encoder(ex)
        self.encoder = enc
        colors = [self.q_color(i) for i in range(ex.n)]

        def matrix(values, role, name, box):
            m = LabelledMatrix.fitted(
                values,
                role,
                theme,
                ex.tokens,
                [f"{name.lower()[0]}{j + 1}" for j in range(values.shape[1])],
                box,
                row_colors=colors,
            )
            return place(VGroup(matrix_title(name, m, theme), m), box)

        def row(items):
            """Matrices left to right with an arrow between each pair."""
            boxes = self.regions.content.columns(*([1] * len(items)), gap=0.7)
            mobs = [matrix(v, r, n, b) for (v, r, n), b in zip(items, boxes)]
            arrows = [
                Arrow(a.get_right(), b.get_left(), buff=0.15, color=theme.accent, stroke_width=4)
                for a, b in zip(mobs, mobs[1:])
            ]
            return mobs, arrows

        steps = [
            (
                "attention",
                [
                    (enc.X, ("enc", "X"), "X"),
                    (enc.attention.output, ("enc", "attention"), "A = MultiHead(X)"),
                ],
            ),
            (
                "add_norm1",
                [
                    (enc.residual1, ("enc", "residual1"), "X + A"),
                    (enc.norm1, ("enc", "norm1"), "H = LayerNorm"),
                ],
            ),
            (
                "ffn",
                [
                    (enc.ff_relu, ("enc", "ff_relu"), "ReLU(H·W_1)"),
                    (enc.ff_out, ("enc", "ff_out"), "F = ReLU(H·W_1)·W_2"),
                ],
            ),
            (
                "add_norm2",
                [
                    (enc.residual2, ("enc", "residual2"), "H + F"),
                    (enc.output, ("enc", "output"), "Y = LayerNorm"),
                ],
            ),
        ]
        for k, (key, items) in enumerate(steps):
            self.step(key, clear=k > 0, seed=ac.FFN_SEED)
            mobs, arrows = row(items)
            self.play(FadeIn(mobs[0]), run_time=0.8)
            for arrow, mob in zip(arrows, mobs[1:]):
                self.play(FadeIn(arrow), FadeIn(mob), run_time=0.9)
            self.hold()
