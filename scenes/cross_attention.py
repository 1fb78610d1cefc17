"""CrossAttention: queries from one sequence, keys and values from another (m ≠ n). The queries
(solid) and the source's keys (outlined) share one plane; the score and weight matrices are
rectangular, the weights on the one fixed 0–1 scale; each output, in the output style and
labelled o(…), is the source's values mixed by its row of weights.

For a self-attention example the scene says plainly that it does not apply.
"""

from __future__ import annotations

from manim import Create, ReplacementTransform, TransformFromCopy, VGroup

from scenes.kit.base import ExplainerScene
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import place
from scenes.mobjects.matrix import matrix_title
from scenes.mobjects.plane import grow
from scenes.mobjects.text import label
from scenes.mobjects.theme import BODY


class CrossAttention(ExplainerScene):
    """Two sequences: the queries ask, the other sequence answers and supplies the content."""

    explains_one_head = False  # its title carries no head tag; a matrix says which head

    def construct(self):
        if not self.example.is_cross:
            self.not_cross()
            return
        content = self.regions.content
        if content.width >= 1.6 * content.height:
            left, mid, right = content.columns(1, 1.2, 1, gap=0.35)
        else:  # narrow: the two planes above, the matrix below
            upper, mid = content.rows(1, 1, gap=0.25)
            left, right = upper.columns(1, 1, gap=0.35)
        self.q_colors = [self.q_color(i) for i in range(self.example.n)]
        self.k_colors = [self.k_color(j) for j in range(self.example.n_keys)]
        self.show_sequences(left, right)
        self.score_every_pair(mid)
        self.mix_the_values()

    def not_cross(self):
        """A self-attention example: the scene says plainly that it does not apply."""
        self.step("same", queries=self.token_list(self.q_tokens))
        note = label(self.say("cross_not"), BODY, self.theme.muted)
        if note.width > self.regions.content.width:
            note.scale_to_fit_width(self.regions.content.width)
        place(note, self.regions.content)
        self.play(FadeIn(note), run_time=0.6)

    def show_sequences(self, left, right):
        """The two sequences: queries and the source's keys in one plane, its values in another."""
        m, n = self.example.n, self.example.n_keys
        q_colors, k_colors = self.q_colors, self.k_colors
        self.step(
            "sequences",
            queries=self.token_list(self.q_tokens),
            sources=self.token_list(self.k_tokens),
        )
        qk = self.kit.titled_plane(left, "queries_keys", self.say("cross_qk"))
        self.q_arrows = qk.plane.arrows(qk.coords[:m], q_colors)
        self.k_arrows = qk.plane.arrows(qk.coords[m:], k_colors, outline=True)
        qk_labels = qk.plane.tip_labels(
            qk.coords,
            [f"q({t})" for t in self.q_tokens] + [f"k({t})" for t in self.k_tokens],
            q_colors + k_colors,
            qk.box,
        )
        self.vo = vo = self.kit.titled_plane(right, "values_outputs", self.say("cross_vo"))
        self.v_arrows = vo.plane.arrows(vo.coords[:n], k_colors)
        o_labels_texts = [f"o({t})" for t in self.q_tokens]
        labels = vo.plane.tip_labels(
            vo.coords,
            [f"v({t})" for t in self.k_tokens] + o_labels_texts,
            k_colors + [self.theme.output] * m,
            vo.box,
        )
        v_labels = VGroup(*(lb for lb in labels if not lb.source_text.startswith("o(")))
        self.o_labels = VGroup(*(lb for lb in labels if lb.source_text.startswith("o(")))
        self.play(
            Create(qk.plane.plane),
            Create(vo.plane.plane),
            FadeIn(qk.heading),
            FadeIn(vo.heading),
            FadeIn(qk.note),
            FadeIn(vo.note),
            run_time=0.8,
        )
        self.play(*(grow(a) for a in self.q_arrows), run_time=0.8)
        self.play(*(grow(a) for a in [*self.k_arrows, *self.v_arrows]), run_time=0.8)
        self.play(FadeIn(VGroup(*(lb for lb in qk_labels))), FadeIn(v_labels), run_time=0.5)

    def score_every_pair(self, mid):
        """Every query scores every source token: an m × n matrix, then its weights."""
        head, theme, tr = self.head, self.theme, self.trace
        q_colors, k_colors = self.q_colors, self.k_colors
        scores = self.named_matrix(head.scores, "scores", mid, q_colors, k_colors, 2)
        weights = self.named_matrix(head.weights, "weights", mid, q_colors, k_colors, 3)
        suffix = (
            "  (" + self.say("head_of", h=1, H=len(tr.heads)) + ")" if len(tr.heads) > 1 else ""
        )
        g_scores = place(
            VGroup(matrix_title(self.say("scores") + suffix, scores, theme), scores), mid
        )
        g_weights = place(
            VGroup(matrix_title(self.say("weights") + suffix, weights, theme), weights), mid
        )
        self.step("scores", m=self.example.n, n=self.example.n_keys)
        self.play(FadeIn(g_scores[0]), FadeIn(scores.frame_parts()), run_time=0.6)
        self.play(
            *(
                TransformFromCopy(VGroup(self.q_arrows[i], self.k_arrows[j]), scores.mark(i, j))
                for i, j in scores.shown_cells
            ),
            run_time=1.4,
        )

        self.step("weights")
        self.play(ReplacementTransform(g_scores, g_weights), run_time=1.2)

    def mix_the_values(self):
        """Each output: the source's values mixed by the query's weights."""
        vo, v_arrows = self.vo, self.v_arrows
        self.step("outputs")
        o_coords = vo.coords[self.example.n_keys :]
        o_arrows = VGroup(*(vo.plane.arrow(c, self.theme.output, stroke_width=6) for c in o_coords))
        self.play(*(a.animate.set_opacity(0.35) for a in v_arrows), run_time=0.4)
        self.play(
            *(TransformFromCopy(v_arrows, o) for o in o_arrows),
            run_time=1.4,
        )
        self.play(FadeIn(self.o_labels), run_time=0.5)
        self.hold(1.0)

    def named_matrix(self, values, kind, box, q_colors, k_colors, digits):
        """The m × n matrix with the source tokens' names over its columns: cells widened until
        the names fit (rather than numbered, which would read as the queries' numbers)."""
        tried = []
        for pad in (None, 0.2, 0.3, 0.45, 0.6, 0.8):
            m = self.kit.matrix(
                values,
                (kind, self.h),
                self.q_tokens,
                self.k_tokens,
                box,
                digits=digits,
                heat=kind,
                title_room=0.9,
                row_colors=q_colors,
                col_colors=k_colors,
                sizes=(28, 25, 22),
                cell_pad=pad,
            )
            complete = m.shown_columns == list(range(values.shape[1])) and m.shown_rows == list(
                range(values.shape[0])
            )
            if complete and not m.indexed:
                return m
            tried.append((complete, m))
        complete = [m for ok, m in tried if ok]
        return complete[0] if complete else tried[0][1]
