"""WeightedSum: each value vector shrunk by its weight and moved tip to tail, the resultant
output o (in the output style) inside the convex hull of the values; then, as the residual
stream does, added back to the token's embedding: E + ΔE with ΔE = o."""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, Create, Dot, Polygon, ReplacementTransform, Transform, VGroup

import attention_core as ac
from scenes.base import ExplainerScene
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import place, place_labels
from scenes.mobjects.math import math
from scenes.mobjects.plane import VectorPlane, grow
from scenes.mobjects.text import ellipsize, label, vector_row
from scenes.mobjects.theme import BODY
from scenes.roles import plane_view_of, view_recipe


def _has_own(trace: ac.ExampleTrace) -> bool:
    """Whether the output can be added back to the query's own embedding (same space)."""
    return not trace.example.is_cross and trace.heads[0].V.shape[1] == trace.X.shape[1]


@view_recipe("weighted_sum")
def weighted_sum_view(trace: ac.ExampleTrace) -> np.ndarray:
    """The shown query's plane: the values, the output, the chain's points, and the token's own
    vector with the residual E + ΔE."""
    head = trace.heads[0]
    i = ac.head_demo_row(trace).row
    parts, starts = ac.tip_to_tail(head.weights[i], head.V)
    stack = [head.V, head.output[i : i + 1], starts + parts]
    if _has_own(trace):
        stack += [trace.X[i : i + 1], ac.residual(trace.X, head.output)[i : i + 1]]
    return np.vstack(stack)


class WeightedSum(ExplainerScene):
    """output_i = Σ_j w_ij v_j, drawn as a chain of shrunk value vectors."""

    def construct(self):
        ex, head, theme = self.example, self.head, self.theme
        tr = self.trace
        choice = ac.head_demo_row(tr)
        i = choice.row
        left, right = self.regions.content.columns(3, 2)
        parts, starts = ac.tip_to_tail(head.weights[i], head.V)
        out = head.output[i]
        own = tr.X[i] if _has_own(tr) else None
        new = ac.residual(tr.X, head.output)[i] if own is not None else None
        # one 2-D view for everything drawn (exact when d_v = 2; linear, so the chain still adds)
        view = plane_view_of(tr, "weighted_sum")
        B = view.basis
        V2, out2, parts2, starts2 = head.V @ B, out @ B, parts @ B, starts @ B
        own2 = own @ B if own is not None else None
        new2 = new @ B if new is not None else None
        note = self.view_note(view, "weighted_sum")
        plane_box = left if not len(note) else left.rows(10, 1)[0]
        if len(note):
            place(note, left.rows(10, 1)[1], "left")
        extra = [own2[None], new2[None]] if own2 is not None else []
        plane = VectorPlane(np.vstack([V2, out2[None], np.zeros((1, 2)), *extra]), plane_box, theme)
        colors = [self.k_color(j) for j in range(ex.n_keys)]
        q_name = ellipsize(self.q_tokens[i], 2.2, BODY)

        terms = ac.sum_terms(head, i)
        top = int(np.argmax(head.weights[i]))
        self.step(
            "values",
            caption_key=f"values_{choice.kind}",
            alike=f"{ac.claims.ALIKE:.2f}",
            q=self.q_tokens[i],
            top=self.num(head.weights[i, top], ("weights", 0, i, top), 3).shown,
            terms=self.say(f"terms_{terms.kind}", k=terms.allowed, b=terms.blocked),
        )
        arrows = plane.arrows(V2, colors)
        obstacles = list(plane.tick_labels) + list(note)
        v_labels = plane.tip_labels(
            V2, [f"v({t})" for t in self.k_tokens], colors, plane_box, obstacles=obstacles
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

        # -- each value shrinks by its weight, then moves tip to tail -----------------------------
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
        result = plane.arrow(out2, theme.output, stroke_width=7)
        o_name = f"o({q_name})"
        side_of = np.array([out2[1], -out2[0]])  # beside the output, away from the values
        # points along the drawn vectors, so that a label sits beside them, not on them
        along = [
            Dot(plane.point(a + t * (b - a)), radius=0.04).set_opacity(0)
            for a, b in [(s, s + p) for s, p in zip(starts2, parts2)]
            + [(np.zeros(2), out2)]
            + [(np.zeros(2), v) for v in V2]
            for t in np.linspace(0.15, 1.0, 8)
        ]
        o_tip = self.tag(
            plane,
            label(o_name, BODY, theme.output),
            out2,
            side_of,
            plane_box,
            obstacles + list(v_labels) + along,
        )
        out_nums = VGroup(
            *(
                self.num(out[c], ("output", 0, i, c), 2, size=BODY, color=theme.output)
                for c in range(out.shape[0])
            )
        )
        out_line = self.vector_line(o_name, out_nums, theme.output, right)
        out_line.next_to(side, DOWN, buff=0.4).align_to(side, LEFT)
        self.play(*(Transform(shrunk[j], chained[j]) for j in range(ex.n_keys)), run_time=1.6)
        self.play(grow(result), FadeIn(o_tip), FadeIn(out_line), run_time=1)
        self.hold()

        if own2 is None:
            if ex.is_cross:
                key = "compare_cross"
            elif len(tr.heads) > 1:
                key = "compare_heads"  # ΔE is the heads' outputs joined, not this one alone
            else:
                key = "compare_size"
            self.step("compare", caption_key=key)
            self.hold(1.6)
            return

        # -- the residual: E + ΔE, the output added tip to tail to the embedding ------------------
        share = ac.share_from_others(head.weights)[i] * 100
        pct = "%" if self.lang == "zh" else " %"  # 64%, as Chinese writes it; 64 % in English
        self.step(
            "residual",
            q=self.q_tokens[i],
            share=self.num(share, ("share_others_pct", 0, i), 0).shown + pct,
        )
        fade = [a.animate.set_opacity(0.15) for a in list(arrows) + list(shrunk)]
        fade.append(result.animate.set_opacity(0.35))
        own_arrow = plane.arrow(own2, self.q_color(i), stroke_width=6)
        e_tip = self.tag(
            plane,
            label(f"E({q_name})", BODY, self.q_color(i)),
            own2,
            side_of,
            plane_box,
            obstacles,
        )
        moved = plane.arrow(out2, theme.output, start=own2, stroke_width=7)
        d_tip = self.tag(
            plane,
            math("Delta E = o", BODY * 1.2, theme.output),
            own2 + out2 / 2,
            side_of,
            plane_box,
            obstacles + list(e_tip),
        )
        total = plane.arrow(new2, theme.accent, stroke_width=7)
        total_tip = self.tag(
            plane,
            math("E + Delta E", BODY * 1.2, theme.accent),
            new2,
            new2,
            plane_box,
            obstacles + list(e_tip) + list(d_tip),
        )
        new_nums = VGroup(
            *(
                self.num(new[c], ("residual", 0, i, c), 2, size=BODY, color=theme.accent)
                for c in range(new.shape[0])
            )
        )
        new_line = self.vector_line(None, new_nums, theme.accent, right)
        facts = VGroup(
            new_line,
            VGroup(
                label("1 − w =", BODY, theme.text),
                self.num(share, ("share_others_pct", 0, i), 0, size=BODY, suffix=pct),
            ).arrange(buff=0.12),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.25)
        facts.next_to(out_line, DOWN, buff=0.4).align_to(out_line, LEFT)
        if facts.get_bottom()[1] < self.regions.content.y0:  # a long column: the share alone
            facts = facts[1]
            facts.next_to(out_line, DOWN, buff=0.3).align_to(out_line, LEFT)
            if facts.get_bottom()[1] < self.regions.content.y0:
                facts = VGroup()  # no room: the caption says it
        self.play(
            *fade, FadeOut(v_labels), FadeOut(o_tip), grow(own_arrow), FadeIn(e_tip), run_time=1.2
        )
        self.play(ReplacementTransform(result.copy(), moved), FadeIn(d_tip), run_time=1.5)
        self.play(grow(total), FadeIn(total_tip), FadeIn(facts), run_time=1.2)
        self.hold(1.6)

    @staticmethod
    def tag(plane, mob, at, direction, box, obstacles):
        """``mob`` beside the plane point ``at`` (data coordinates), towards ``direction`` where
        free; an empty group where no spot is free (the colour still says which)."""
        ok = place_labels(
            [mob], [plane.point(at)], [np.array([*direction[:2], 0.0])], box, obstacles=obstacles
        )[0]
        return VGroup(mob) if ok else VGroup()

    def vector_line(self, name, nums, color, box):
        """'name = [a, b]' (or '= [a, b]' under E + ΔE), folded under the name when too wide;
        only the name when even the vector alone does not fit."""
        word = label(f"{name} =", BODY, color) if name else math("E + Delta E =", BODY * 1.2, color)
        vec = vector_row(nums, color)
        line = VGroup(word, vec).arrange(buff=0.15)
        if line.width > box.width:
            line = VGroup(word, vec).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
            if vec.width > box.width:
                line = VGroup(word)
        return line
