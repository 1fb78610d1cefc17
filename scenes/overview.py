"""Overview: softmax(QKᵀ/√d_k)·V with each part lit while its step plays — the whole story in one
continuous video."""

from __future__ import annotations

import numpy as np
from manim import Create, ReplacementTransform, TransformFromCopy, VGroup
from manim.mobject.text.typst_mobject import MathTypst

import attention_core as ac
from scenes.base import ExplainerScene
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import place
from scenes.mobjects.matrix import LabelledMatrix, matrix_title
from scenes.mobjects.plane import VectorPlane, grow
from scenes.mobjects.text import label
from scenes.mobjects.theme import SMALL
from scenes.roles import plane_view_of, view_recipe

FORMULA = (
    # a lone letter in a {{ group }} would be set upright: an empty superscript keeps it italic
    '{{ "softmax" : sm }} ( ( {{ Q^"" : q }} {{ K^top : kt }} ) / '
    '{{ sqrt(d_k) : sc }} ) {{ V^"" : v }}'
)


@view_recipe("overview_out")
def outputs_view(trace):
    """The values and the outputs (convex mixes of them) in one view."""
    head = trace.heads[0]
    return np.vstack([head.V, head.output])


class Overview(ExplainerScene):
    """One video through every step, the formula's parts lit in turn."""

    def construct(self):
        ex, head, theme, tr = self.example, self.head, self.theme, self.trace
        top, body = self.regions.content.rows(1, 4, gap=0.25)
        formula = MathTypst(FORMULA, font_size=48, color=theme.muted)
        place(formula, top)
        # a narrow frame has room for two panels: the outputs' plane then takes the tokens' place
        narrow = body.width < 2.4 * body.height
        if narrow:
            left, mid = body.columns(1, 1.6, gap=0.3)
            panels = [left, mid, left]
        else:
            panels = body.columns(1, 1.25, 1, gap=0.3)

        # left: the tokens; right: values and outputs (both in 2-D views when d > 2)
        x_view = plane_view_of(tr, "X")
        x_plane_box, x_note_box = panels[0].rows(9, 1, gap=0.1)
        x_plane = VectorPlane(x_view.coords, x_plane_box, theme, ticks=False)
        q_colors = [self.q_color(i) for i in range(ex.n)]
        x_arrows = x_plane.arrows(x_view.coords, q_colors)
        x_labels = x_plane.tip_labels(x_view.coords, self.q_tokens, q_colors, x_plane_box)
        x_note = self.view_note(x_view, "X")
        if len(x_note):
            place(x_note, x_note_box, "left")
        x_title = (
            place(label(self.say("embeddings"), SMALL, theme.muted), x_note_box, "right")
            if not len(x_note)
            else VGroup()
        )

        kw = dict(row_colors=q_colors, col_colors=[self.k_color(j) for j in range(ex.n_keys)])
        mats = {
            "scores": LabelledMatrix.fitted(
                head.scores, ("scores", 0), theme, self.q_tokens, self.k_tokens, panels[1], **kw
            ),
            "scaled": LabelledMatrix.fitted(
                head.scaled, ("scaled", 0), theme, self.q_tokens, self.k_tokens, panels[1], **kw
            ),
            "masked": LabelledMatrix.fitted(
                head.masked, ("masked", 0), theme, self.q_tokens, self.k_tokens, panels[1], **kw
            ),
            "weights": LabelledMatrix.fitted(
                head.weights,
                ("weights", 0),
                theme,
                self.q_tokens,
                self.k_tokens,
                panels[1],
                digits=3,
                heat=True,
                **kw,
            ),
        }
        titles = {k: k for k in mats}
        groups = {
            k: place(
                VGroup(matrix_title(self.typeset(titles[k], SMALL, theme.muted), m, theme), m),
                panels[1],
            )
            for k, m in mats.items()
        }

        self.step("formula")
        self.play(
            FadeIn(formula),
            Create(x_plane.plane),
            *(grow(a) for a in x_arrows),
            FadeIn(x_labels),
            FadeIn(x_note),
            FadeIn(x_title),
            run_time=1.5,
        )
        self.hold()

        self.step("qk")
        self.light(formula, "q", "kt")
        self.play(FadeIn(groups["scores"]), run_time=1)
        self.hold()

        self.step("scale")
        self.light(formula, "sc")
        self.play(ReplacementTransform(groups["scores"], groups["scaled"]), run_time=1)
        before_softmax = groups["scaled"]
        if ac.mask_claim(head.mask).kind == "blocks":  # before softmax: −∞ where blocked
            self.step("masked_note")
            self.play(formula.animate.set_color(theme.muted), run_time=0.3)
            self.play(ReplacementTransform(groups["scaled"], groups["masked"]), run_time=1)
            before_softmax = groups["masked"]

        self.step("softmax")
        self.light(formula, "sm")
        self.play(ReplacementTransform(before_softmax, groups["weights"]), run_time=1)
        self.hold()

        self.step("values")
        self.light(formula, "v")
        if narrow:
            self.play(FadeOut(VGroup(x_plane.plane, x_arrows, x_labels, x_note, x_title)))
        out_view = plane_view_of(tr, "overview_out")
        B = out_view.basis
        o_plane_box, o_note_box = panels[2].rows(9, 1, gap=0.1)
        o_plane = VectorPlane(
            np.vstack([head.V @ B, head.output @ B]), o_plane_box, theme, ticks=False
        )
        v_arrows = VGroup(
            *(o_plane.arrow(v @ B, self.k_color(j), opacity=0.35) for j, v in enumerate(head.V))
        )
        # outputs in their own style, each labelled o(token): no token's colour on a derived vector
        o_arrows = o_plane.arrows(head.output @ B, [theme.output] * ex.n, stroke_width=4)
        o_labels = o_plane.tip_labels(
            head.output @ B, [f"o({t})" for t in self.q_tokens], [theme.output] * ex.n, o_plane_box
        )
        o_note = self.view_note(out_view, "overview_out")
        if len(o_note):
            place(o_note, o_note_box, "left")
        self.play(Create(o_plane.plane), FadeIn(v_arrows), FadeIn(o_note), run_time=0.8)
        # each output is gathered from the values it mixes: the value arrows flow into it
        self.play(
            *(TransformFromCopy(v_arrows, a) for a in o_arrows), FadeIn(o_labels), run_time=1.6
        )
        self.hold(1.8)

    def light(self, formula: MathTypst, *parts: str):
        """Dim the whole formula, then light ``parts`` in the accent colour."""
        self.play(formula.animate.set_color(self.theme.muted), run_time=0.2)
        self.play(
            *(formula.select(p).animate.set_color(self.theme.accent) for p in parts), run_time=0.5
        )
