"""WeightedSum: each value vector shrunk by its weight, tip to tail, the resultant output inside
the convex hull of the values; compared with the token's own embedding."""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, Create, DashedLine, Polygon, ReplacementTransform, Transform, VGroup

import attention_core as ac
from scenes.base import ExplainerScene
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import place, place_labels
from scenes.mobjects.plane import VectorPlane, grow
from scenes.mobjects.text import ellipsize, label, vector_row
from scenes.mobjects.theme import BODY, SMALL
from scenes.roles import plane_view_of, view_recipe


@view_recipe("weighted_sum")
def weighted_sum_view(trace: ac.ExampleTrace) -> np.ndarray:
    """Query 0's plane: the values, the output, the chain's points and the token's own vector."""
    head = trace.heads[0]
    parts, starts = ac.tip_to_tail(head.weights[0], head.V)
    stack = [head.V, head.output[:1], starts + parts]
    if not trace.example.is_cross and head.V.shape[1] == trace.X.shape[1]:
        stack.append(trace.X[:1])
    return np.vstack(stack)


class WeightedSum(ExplainerScene):
    """output_i = Σ_j w_ij v_j, drawn as a chain of shrunk value vectors."""

    def construct(self):
        ex, head, theme = self.example, self.head, self.theme
        tr = self.trace
        i = 0
        left, right = self.regions.content.columns(3, 2)
        parts, starts = ac.tip_to_tail(head.weights[i], head.V)
        out = head.output[i]
        own = tr.X[i] if (not ex.is_cross and head.V.shape[1] == tr.X.shape[1]) else None
        # one 2-D view for everything drawn (exact when d_v = 2; linear, so the chain still adds)
        view = plane_view_of(tr, "weighted_sum")
        B = view.basis
        V2, out2, parts2, starts2 = head.V @ B, out @ B, parts @ B, starts @ B
        own2 = own @ B if own is not None else None
        note = self.view_note(view, "weighted_sum")
        plane_box = left if not len(note) else left.rows(10, 1)[0]
        if len(note):
            place(note, left.rows(10, 1)[1], "left")
        plane = VectorPlane(
            np.vstack(
                [V2, out2[None], np.zeros((1, 2))] + ([own2[None]] if own2 is not None else [])
            ),
            plane_box,
            theme,
        )
        colors = [self.k_color(j) for j in range(ex.n_keys)]

        self.step("values", q=self.q_tokens[i])
        arrows = plane.arrows(V2, colors)
        v_labels = plane.tip_labels(
            V2,
            [f"v({t})" for t in self.k_tokens],
            colors,
            plane_box,
            obstacles=list(plane.tick_labels) + list(note),
        )
        hull_pts = ac.convex_hull_2d(V2) if ex.n_keys >= 3 else V2
        hull = (
            Polygon(
                *[plane.point(p) for p in hull_pts],
                color=theme.muted,
                stroke_width=2,
                fill_color=theme.muted,
                fill_opacity=0.12,
            )
            if len(hull_pts) >= 3
            else VGroup()
        )
        weights_col = VGroup(
            *(
                VGroup(
                    self.num(
                        head.weights[i, j], ("weights", 0, i, j), 3, size=BODY, color=colors[j]
                    ),
                    label(f"× v({ellipsize(self.k_tokens[j], 2.2, BODY)})", BODY, colors[j]),
                ).arrange(buff=0.12)
                for j in range(ex.n_keys)
            )
        )
        weights_col.arrange(DOWN, aligned_edge=LEFT, buff=0.18)
        if weights_col.height > right.height * 0.6 or weights_col.width > right.width:
            weights_col = VGroup()  # many keys: the shares are in the AttentionMatrix scene
        w_head = label(f"q({ellipsize(self.q_tokens[i], 3.0, BODY)})", BODY, self.q_color(i))
        side = VGroup(w_head, weights_col).arrange(DOWN, aligned_edge=LEFT, buff=0.25)
        place(side, right, "top-left")
        self.play(Create(plane.plane), FadeIn(plane.tick_labels), FadeIn(note), run_time=0.8)
        self.play(
            *(grow(a) for a in arrows), FadeIn(v_labels), FadeIn(hull), FadeIn(side), run_time=1.2
        )
        self.hold()

        self.step("shrink")
        shrunk = VGroup(*(plane.arrow(p, c, stroke_width=6) for p, c in zip(parts2, colors)))
        self.play(
            *(a.animate.set_opacity(0.3) for a in arrows),
            *(ReplacementTransform(arrows[j].copy(), shrunk[j]) for j in range(ex.n_keys)),
            run_time=1.5,
        )
        self.hold()

        self.step("chain")
        chained = VGroup(
            *(
                plane.arrow(p, c, start=s, stroke_width=6)
                for p, s, c in zip(parts2, starts2, colors)
            )
        )
        result = plane.arrow(out2, theme.accent, stroke_width=8)
        out_nums = VGroup(
            *(
                self.num(out[c], ("output", 0, i, c), 2, size=BODY, color=theme.accent)
                for c in range(out.shape[0])
            )
        )
        out_vec = vector_row(out_nums, theme.accent)
        out_word = label(self.say("output") + " =", BODY, theme.accent)
        out_line = VGroup(out_word, out_vec).arrange(buff=0.15)
        if out_line.width > right.width:  # wide vectors go under the word, or stay in `numbers`
            out_line = VGroup(out_word, out_vec).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
            if out_vec.width > right.width:
                out_line = VGroup(out_word)
        out_line.next_to(side, DOWN, buff=0.4).align_to(side, LEFT)
        self.play(*(Transform(shrunk[j], chained[j]) for j in range(ex.n_keys)), run_time=1.6)
        self.play(grow(result), FadeIn(out_line), run_time=1)
        self.hold()

        if own2 is not None:
            self.step(
                "compare",
                q=self.q_tokens[i],
                moved=self.num(ac.norm(out - own), ("moved", 0, i), 2).shown,
                share=self.num(
                    ac.share_from_others(head.weights)[i] * 100, ("share_others_pct", 0, i), 0
                ).shown
                + " %",
            )
            own_arrow = DashedLine(
                plane.point([0, 0]), plane.point(own2), color=self.q_color(i), stroke_width=4
            )
            gap = DashedLine(plane.point(own2), plane.point(out2), color=theme.text, stroke_width=3)
            own_label = label(self.say("own"), SMALL, self.q_color(i))
            if not place_labels(
                [own_label],
                [plane.point(own2)],
                [plane.point(own2) - plane.point(out2)],
                plane_box,
                obstacles=list(v_labels) + list(plane.tick_labels) + list(note),
            )[0]:
                own_label = VGroup()
            facts = VGroup(
                VGroup(
                    label("|Δ| =", BODY, theme.text),
                    self.num(ac.norm(out - own), ("moved", 0, i), 2, size=BODY),
                ).arrange(buff=0.12),
                VGroup(
                    label("1 − w =", BODY, theme.text),
                    self.num(
                        ac.share_from_others(head.weights)[i] * 100,
                        ("share_others_pct", 0, i),
                        0,
                        size=BODY,
                        suffix=" %",
                    ),
                ).arrange(buff=0.12),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.18)
            facts.next_to(out_line, DOWN, buff=0.4).align_to(out_line, LEFT)
            self.play(Create(own_arrow), Create(gap), FadeIn(own_label), FadeIn(facts))
        else:
            self.step("compare", caption_key="compare_cross")
        self.hold(1.6)
