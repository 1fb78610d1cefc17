"""CrossAttention: queries from one sequence, keys and values from another (m ≠ n), the score and
weight matrices rectangular, each output a mix of the source's values."""

from __future__ import annotations

from manim import Create, ReplacementTransform, VGroup

from scenes.base import ExplainerScene
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import place
from scenes.mobjects.matrix import LabelledMatrix, matrix_title
from scenes.mobjects.plane import VectorPlane, grow
from scenes.mobjects.text import label
from scenes.mobjects.theme import SMALL
from scenes.roles import plane_view_of


class CrossAttention(ExplainerScene):
    """Two sequences: the queries ask, the other sequence answers and supplies the content."""

    def construct(self):
        ex, head, theme, tr = self.example, self.head, self.theme, self.trace
        left, mid, right = self.regions.content.columns(1, 1.3, 1, gap=0.35)
        q_colors = [self.q_color(i) for i in range(ex.n)]
        k_colors = [self.k_color(j) for j in range(ex.n_keys)]
        queries, sources = " ".join(ex.tokens), " ".join(ex.key_tokens)

        planes = []
        for box, name, tokens, colors, title in (
            (left, "Q", ex.tokens, q_colors, self.say("queries")),
            (right, "V", ex.key_tokens, k_colors, self.say("sources")),
        ):
            title_box, plane_box, note_box = box.rows(1, 8, 1, gap=0.1)
            view = plane_view_of(tr, name)
            plane = VectorPlane(view.coords, plane_box, theme, ticks=False)
            arrows = plane.arrows(view.coords, colors)
            labels = plane.tip_labels(view.coords, tokens, colors, plane_box)
            heading = place(label(f"{title}: {name}", SMALL, theme.text), title_box, "left")
            note = self.view_note(view, name)
            if len(note):
                place(note, note_box, "left")
            planes.append((plane, arrows, labels, heading, note))

        self.step(
            "sequences" if ex.is_cross else "same",
            caption_key=None,
            queries=queries,
            sources=sources,
        )
        for plane, arrows, labels, heading, note in planes:
            self.play(
                Create(plane.plane),
                *(grow(a) for a in arrows),
                FadeIn(labels),
                FadeIn(heading),
                FadeIn(note),
                run_time=1,
            )
        self.hold()

        kw = dict(row_colors=q_colors, col_colors=k_colors)
        scores = LabelledMatrix.fitted(
            head.scores, ("scores", 0), theme, ex.tokens, ex.key_tokens, mid, **kw
        )
        weights = LabelledMatrix.fitted(
            head.weights,
            ("weights", 0),
            theme,
            ex.tokens,
            ex.key_tokens,
            mid,
            digits=3,
            heat=True,
            **kw,
        )
        g_scores = place(VGroup(matrix_title(self.say("scores"), scores, theme), scores), mid)
        g_weights = place(VGroup(matrix_title(self.say("weights"), weights, theme), weights), mid)
        self.step("scores", m=ex.n, n=ex.n_keys)
        self.play(FadeIn(g_scores), run_time=1)
        self.hold()

        self.step("weights")
        self.play(ReplacementTransform(g_scores, g_weights), run_time=1.2)
        self.hold()

        self.step("outputs")
        plane, arrows, labels, heading, note = planes[1]  # the source's values
        basis = plane_view_of(tr, "V").basis  # outputs are convex mixes of V: same view
        o_arrows = VGroup(
            *(plane.arrow(o @ basis, col, stroke_width=7) for o, col in zip(head.output, q_colors))
        )
        self.play(
            *(a.animate.set_opacity(0.3) for a in arrows),
            *(grow(a) for a in o_arrows),
            run_time=1.2,
        )
        self.hold(1.6)
