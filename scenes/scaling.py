"""Scaling: ÷√d_k on the numbers, and why: q·k of random vectors has variance ≈ d."""

from __future__ import annotations

import numpy as np
from manim import DOWN, UP, Arrow, ReplacementTransform, TransformFromCopy, VGroup

import attention_core as ac
from scenes.base import ExplainerScene
from scenes.mobjects.bars import histogram
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import place
from scenes.mobjects.matrix import LabelledMatrix, matrix_title
from scenes.mobjects.text import label
from scenes.mobjects.theme import BODY, SMALL


class Scaling(ExplainerScene):
    """Divide the scores by √d_k, then see why: the variance experiment of text 002."""

    def construct(self):
        ex, head = self.example, self.head
        left, mid, right = self.regions.content.columns(5, 2, 5, gap=0.2)
        kw = dict(
            row_colors=[self.q_color(i) for i in range(ex.n)],
            col_colors=[self.k_color(j) for j in range(ex.n_keys)],
        )
        raw = LabelledMatrix.fitted(
            head.scores, ("scores", 0), self.theme, ex.tokens, ex.key_tokens, left, **kw
        )
        scaled = LabelledMatrix.fitted(
            head.scaled, ("scaled", 0), self.theme, ex.tokens, ex.key_tokens, right, **kw
        )
        raw_g = place(VGroup(matrix_title(self.say("scores"), raw, self.theme), raw), left)
        scaled_g = place(
            VGroup(matrix_title(self.say("scaled"), scaled, self.theme), scaled), right
        )
        sqrt = self.num(np.sqrt(head.d_k), ("sqrt_dk", 0), size=BODY, color=self.theme.accent)
        op = VGroup(label("÷ √d_k", BODY, self.theme.accent), sqrt).arrange(DOWN, buff=0.15)
        arrow = Arrow([mid.x0, 0, 0], [mid.x1, 0, 0], color=self.theme.accent, buff=0.1)
        place(VGroup(op, arrow).arrange(DOWN, buff=0.2), mid)

        row = 0
        fmt_row = self.say("tokens_list_sep").join
        self.step(
            "divide",
            sqrt=sqrt.shown,
            q=ex.tokens[row],
            raw=fmt_row(
                self.num(v, ("scores", 0, row, j)).shown for j, v in enumerate(head.scores[row][:4])
            ),
            scaled=fmt_row(
                self.num(v, ("scaled", 0, row, j)).shown for j, v in enumerate(head.scaled[row][:4])
            ),
        )
        self.play(FadeIn(raw_g))
        self.play(FadeIn(op), FadeIn(arrow), FadeIn(scaled.frame_parts()), FadeIn(scaled_g[0]))
        self.play(
            *(
                TransformFromCopy(raw.cell(i, j), scaled.cell(i, j))
                for (i, j) in raw.cells
                if scaled.cell(i, j) is not None
            ),
            run_time=1.5,
        )
        self.add(scaled.numbers)
        self.hold()

        res = ac.scaling_experiment()
        self.step(
            "variance",
            clear=True,
            **{
                f"v{r.d}": self.num(r.raw_variance, ("variance_raw", k), 1).shown
                for k, r in enumerate(res)
            },
        )
        panels = self.regions.content.columns(*([1] * len(res)), gap=0.4)
        reach = max(np.abs(r.raw).max() for r in res)
        edges = np.linspace(-reach, reach, 41)
        peak = max(np.histogram(r.scaled, bins=edges)[0].max() for r in res)
        raw_groups, scaled_bars, var_labels, scaled_labels = [], [], [], []
        for k, (r, box) in enumerate(zip(res, panels)):
            top, plot, bottom = box.rows(1, 6, 2, gap=0.1)
            title = place(label(f"d = {r.d}", BODY, self.theme.text), top)
            h_raw = histogram(
                r.raw, edges, plot.width, plot.height, self.theme.token(0), self.theme, peak=peak
            )
            h_scaled = histogram(
                r.scaled, edges, plot.width, plot.height, self.theme.token(2), self.theme, peak=peak
            )
            place(h_raw, plot, "bottom")
            h_scaled.move_to(h_raw, aligned_edge=DOWN)
            v = VGroup(
                label(self.say("variance") + " =", SMALL, self.theme.text),
                self.num(
                    r.raw_variance, ("variance_raw", k), 1, size=SMALL, color=self.theme.token(0)
                ),
            ).arrange(buff=0.1)
            s = VGroup(
                label(self.say("variance") + " =", SMALL, self.theme.text),
                self.num(
                    r.scaled_variance,
                    ("variance_scaled", k),
                    2,
                    size=SMALL,
                    color=self.theme.token(2),
                ),
            ).arrange(buff=0.1)
            place(v, bottom, "top")
            s.move_to(v)
            raw_groups.append(VGroup(title, h_raw, v))
            scaled_bars.append(h_scaled)
            var_labels.append(v)
            scaled_labels.append(s)
        self.play(*(FadeIn(g, shift=0.2 * UP) for g in raw_groups), run_time=1.5)
        self.hold(1.5)

        self.step(
            "scaled",
            **{
                f"s{r.d}": self.num(r.scaled_variance, ("variance_scaled", k), 2).shown
                for k, r in enumerate(res)
            },
        )
        self.play(
            *(ReplacementTransform(g[1], h) for g, h in zip(raw_groups, scaled_bars)),
            *(ReplacementTransform(v, s) for v, s in zip(var_labels, scaled_labels)),
            run_time=2,
        )
        self.hold(1.5)
