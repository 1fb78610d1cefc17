"""WeightedSum: each value vector shrunk by its weight and moved tip to tail, the resultant
output o (in the output style) inside the convex hull of the values; then, as the residual
stream does, added back to the token's embedding: E + ΔE with ΔE = o."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    Dot,
    Polygon,
    ReplacementTransform,
    Transform,
    VGroup,
)

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.kit.views import adds_back as _has_own
from scenes.kit.views import plane_view_of
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import Box, box_of, flow, place, place_labels
from scenes.mobjects.math import math
from scenes.mobjects.plane import CROWDED, CROWDED_TOKENS, grow, shaft_marks
from scenes.mobjects.text import balanced_lines, ellipsize, label, vector_row
from scenes.mobjects.theme import BODY, SMALL


class WeightedSum(ExplainerScene):
    """output_i = Σ_j w_ij v_j, drawn as a chain of shrunk value vectors."""

    def construct(self):
        self.lay_out_plane()
        self.show_values()
        self.shrink_values()
        self.chain_tip_to_tail()
        if self.own2 is None:
            self.compare()
        else:
            self.add_to_embedding()

    def lay_out_plane(self):
        """The shown query's row, its vectors in one 2-D view (exact when d_v = 2; linear, so
        the chain still adds), and the plane they are drawn on."""
        ex, head, tr = self.example, self.head, self.trace
        self.choice = ac.followed_choice(tr)  # the row followed, and what may be said of it
        self.i = i = self.choice.row
        content = self.regions.content
        # a square frame gives the side half: room for every key's weight
        square = content.width < 1.6 * content.height
        left, self.side_box = content.columns(*((1, 1) if square else (3, 2)))
        parts, starts = ac.tip_to_tail(head.weights[i], head.V)
        self.out = head.output[i]
        own = tr.X[i] if _has_own(tr) else None
        self.new = ac.residual(tr.X, head.output)[i] if own is not None else None
        view = plane_view_of(tr, "weighted_sum")
        B = view.basis
        self.V2, self.out2, self.parts2, self.starts2 = (
            head.V @ B,
            self.out @ B,
            parts @ B,
            starts @ B,
        )
        self.own2 = own @ B if own is not None else None
        self.new2 = self.new @ B if self.new is not None else None
        self.note = note = self.kit.view_note(view, "weighted_sum")
        self.plane_box = left if not len(note) else left.rows(10, 1)[0]
        self.note_box = left.rows(10, 1)[1]
        if len(note):
            place(note, self.note_box, "left")
        extra = [self.own2[None], self.new2[None]] if self.own2 is not None else []
        self.vplane = self.kit.plane(
            np.vstack([self.V2, self.out2[None], np.zeros((1, 2)), *extra]), self.plane_box
        )
        self.colors = [self.k_color(j) for j in range(ex.n_keys)]
        self.q_name = ellipsize(self.q_tokens[i], 2.2, BODY)

    def show_values(self):
        """The values as arrows in their convex hull, and the query's weight for each."""
        plane, colors, i = self.vplane, self.colors, self.i
        head, choice = self.head, self.choice
        terms = ac.sum_terms(head, i)
        top = int(np.argmax(head.weights[i]))
        self.step(
            "values",
            caption_key=f"values_{choice.kind}",
            alike=f"{ac.readings.claims.ALIKE:.2f}",
            q=self.q_tokens[i],
            does=self.head_does(choice),  # what the head does, as AttentionMatrix's reading says
            top=self.num(head.weights[i, top], ("weights", self.h, i, top), 3).shown,
            terms=self.say(f"terms_{terms.kind}", k=terms.allowed, b=terms.blocked),
        )
        # where not every value finds a label: the largest weights' (issue 32), and a line
        # saying how many are not drawn
        # a key the mask hides from the query adds nothing to its output: not drawn
        seen = set(self.seen)
        order = [
            j for j in self.cast_first(ac.story_order(head.weights, i, top, "keys")) if j in seen
        ]
        self.v_drawn, self.v_arrows, self.v_labels, self.note = self.kit.story_arrows(
            plane,
            self.V2,
            [f"v({t})" for t in self.k_tokens],
            colors,
            order,
            self.note,
            self.note_box,
            bounds=self.plane_box,
            align="left",
            obstacles=list(plane.tick_labels),
            # past 12 values the story's few (issue 38: 20 labelled values at 23 tokens)
            most=CROWDED_TOKENS if self.example.n_keys > CROWDED else None,
        )
        self.obstacles = list(plane.tick_labels) + list(self.note)
        hull = self.value_hull()
        w_head = label(f"q({ellipsize(self.q_tokens[i], 3.0, BODY)})", BODY, self.q_color(i))
        # below the weights come o = … (two lines at most) and, adding back, E + ΔE and its facts
        below = 1.25 if self.own2 is None else 0.38 * self.side_box.height
        weights_col = self.weights_column(self.side_box.height - w_head.height - 0.25 - below)
        self.side = VGroup(w_head, weights_col).arrange(DOWN, aligned_edge=LEFT, buff=0.25)
        place(self.side, self.side_box, "top-left")
        self.play(Create(plane.plane), FadeIn(plane.tick_labels), FadeIn(self.note), run_time=0.8)
        self.play(
            *(grow(a) for a in self.v_arrows),
            FadeIn(self.v_labels),
            FadeIn(hull),
            FadeIn(self.side),
            run_time=1.2,
        )
        self.hold()

    def value_hull(self):
        """The values' convex hull, where every output lies (empty for fewer than 3 corners)."""
        theme, plane = self.theme, self.vplane
        seen = self.V2[self.seen]  # the values the query may see: its output lies among them
        hull_pts = ac.convex_hull_2d(seen) if len(seen) >= 3 else seen
        if len(hull_pts) < 3:
            return VGroup()
        return Polygon(
            *[plane.point(p) for p in hull_pts],
            color=theme.muted,
            stroke_width=2,
            fill_color=theme.muted,
            fill_opacity=0.12,
        )

    def weights_column(self, room: float):
        """'w × v(token)' for every key, at the largest size that fits ``room`` (the side box
        less its heading): one column, else two; nothing where neither fits."""
        head, colors, i = self.head, self.colors, self.i
        right = self.side_box
        for size, columns in ((BODY, 1), (SMALL, 1), (SMALL, 2), (SMALL, 0), (SMALL, -1)):
            entries = [
                VGroup(
                    self.num(
                        head.weights[i, j], ("weights", self.h, i, j), 3, size=size, color=colors[j]
                    ),
                    label(f"× v({ellipsize(self.k_tokens[j], 2.2, size)})", size, colors[j]),
                ).arrange(buff=0.12)
                if columns >= 0
                else VGroup(  # the shortest form: "when 0.001", as Softmax lists them
                    label(ellipsize(self.k_tokens[j], 1.0, size), size, colors[j]),
                    self.num(head.weights[i, j], ("weights", self.h, i, j), 3, size=size),
                ).arrange(buff=0.1)
                for j in self.seen
            ] + self.blocked_line(size)
            if columns <= 0:  # as many to a line as fit
                cols = flow(entries, right.width, hbuff=0.25, vbuff=0.12)
                if cols.height <= room:
                    return cols
                continue
            per = -(-len(entries) // columns)
            cols = VGroup(
                *(
                    VGroup(*entries[k : k + per]).arrange(
                        DOWN, aligned_edge=LEFT, buff=0.18 if size == BODY else 0.12
                    )
                    for k in range(0, len(entries), per)
                )
            ).arrange(RIGHT, aligned_edge=UP, buff=0.35)
            if cols.height <= room and cols.width <= right.width:
                return cols
        return self.largest_weights(room)

    def largest_weights(self, room: float):
        """Where not every key's weight fits (12 keys at 1:1): the largest ones first, in the
        shortest form, as many as fit ``room`` with a line saying how many smaller ones are left
        (the caption's largest weight is always among them); nothing where not even one fits."""
        head, colors, i, n = self.head, self.colors, self.i, len(self.seen)
        order = sorted(self.seen, key=lambda j: -head.weights[i, j])
        for shown in range(n - 1, 0, -1):
            entries = [
                VGroup(
                    label(self.k_tokens[j], SMALL, colors[j]),
                    self.num(head.weights[i, j], ("weights", self.h, i, j), 3, size=SMALL),
                ).arrange(buff=0.1)
                for j in order[:shown]
            ]
            lines = balanced_lines(
                self.say("smaller_weights", n=n - shown), self.side_box.width, SMALL, max_lines=2
            )
            rest = [label(t, SMALL, self.theme.muted) for t in lines] + self.blocked_line(SMALL)
            col = VGroup(*entries, *rest).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
            if col.height <= room and col.width <= self.side_box.width:
                return col
        return VGroup()  # no room at all: the shares are in the AttentionMatrix scene

    @property
    def seen(self) -> list[int]:
        """The keys the followed row may see (all without a mask): the weights listed."""
        mask = self.head.mask
        return [j for j in range(self.example.n_keys) if mask is None or mask[self.i, j]]

    def blocked_line(self, size: float) -> list:
        """'the mask blocks 12 keys' under the listed weights, where it blocks some (their
        weights are 0: not listed); the number is the caption's (attention_core.sum_terms)."""
        blocked = ac.sum_terms(self.head, self.i).blocked
        if not blocked:
            return []
        return [
            label(
                self.say("mask_blocks_keys" if blocked > 1 else "mask_blocks_key", b=blocked),
                size,
                self.theme.muted,
            )
        ]

    def shrink_values(self):
        """Each value shrinks by its weight."""
        self.step("shrink")
        plane, arrows = self.vplane, self.v_arrows
        drawn = dict(zip(self.v_drawn, arrows))
        self.shrunk = VGroup(
            *(plane.arrow(p, c, stroke_width=6) for p, c in zip(self.parts2, self.colors))
        )
        self.play(
            *(a.animate.set_opacity(0.3) for a in arrows),
            *(  # a value not drawn (issue 32: no room for its label): its part just appears
                ReplacementTransform(drawn[j].copy(), self.shrunk[j])
                if j in drawn
                else FadeIn(self.shrunk[j])
                for j in range(self.example.n_keys)
            ),
            run_time=1.5,
        )
        self.hold()

    def chain_tip_to_tail(self):
        """The shrunk values move tip to tail; their sum is the output o."""
        self.step("chain")
        theme, plane, out2 = self.theme, self.vplane, self.out2
        chained = VGroup(
            *(
                plane.arrow(p, c, start=s, stroke_width=6)
                for p, s, c in zip(self.parts2, self.starts2, self.colors)
            )
        )
        self.result = plane.arrow(out2, theme.output, stroke_width=7)
        o_name = f"o({self.q_name})"
        self.side_of = np.array([out2[1], -out2[0]])  # beside the output, away from the values
        self.o_tip = self.tag(
            plane,
            label(o_name, BODY, theme.output),
            out2,
            self.side_of,
            self.plane_box,
            self.obstacles + list(self.v_labels) + self.points_along_chain(),
        )
        self.out_line = self.vector_line(
            o_name, self.out, ("output", self.h, self.i), theme.output, self.side_box
        )
        self.out_line.next_to(self.side, DOWN, buff=0.4).align_to(self.side, LEFT)
        covered = self.labels_under_chain()
        self.play(
            *(Transform(self.shrunk[j], chained[j]) for j in range(self.example.n_keys)),
            *(FadeOut(lb) for lb in covered),
            run_time=1.6,
        )
        self.v_labels = VGroup(*(lb for lb in self.v_labels if lb not in covered))
        self.play(grow(self.result), FadeIn(self.o_tip), FadeIn(self.out_line), run_time=1)
        self.hold()

    def labels_under_chain(self) -> list:
        """The value labels the chain (and the output) will run over: they leave as it forms,
        so no label sits on an arrow (the colours still say which value is which)."""
        plane = self.vplane
        segments = [(s, s + p) for s, p in zip(self.starts2, self.parts2)]
        segments.append((np.zeros(2), self.out2))
        ends = [(plane.point(a), plane.point(b)) for a, b in segments]
        marks = shaft_marks(ends) + [Box(*(b[:2] - 0.14), *(b[:2] + 0.14)) for _, b in ends]
        return [lb for lb in self.v_labels if any(box_of(lb).overlaps(m, 0.0) for m in marks)]

    def points_along_chain(self):
        """Invisible points along the drawn vectors, so that a label sits beside them, not on
        them."""
        plane, out2 = self.vplane, self.out2
        return [
            Dot(plane.point(a + t * (b - a)), radius=0.04).set_opacity(0)
            for a, b in [(s, s + p) for s, p in zip(self.starts2, self.parts2)]
            + [(np.zeros(2), out2)]
            + [(np.zeros(2), v) for v in self.V2]
            for t in np.linspace(0.15, 1.0, 8)
        ]

    def compare(self):
        """No residual to draw: the caption says why (another space, or several heads)."""
        if self.example.is_cross:
            key = "compare_cross"
        elif len(self.trace.heads) > 1:
            key = "compare_heads"  # ΔE is the heads' outputs joined, not this one alone
        else:
            key = "compare_size"
        self.step("compare", caption_key=key)
        self.hold(1.6)

    def add_to_embedding(self):
        """The residual: E + ΔE, the output added tip to tail to the embedding."""
        theme, plane, i = self.theme, self.vplane, self.i
        own2, out2, new2 = self.own2, self.out2, self.new2
        share = ac.share_from_others(self.head.weights)[i] * 100
        pct = "%" if self.lang == "zh" else " %"  # 64%, as Chinese writes it; 64 % in English
        self.step(
            "residual",
            q=self.q_tokens[i],
            share=self.num(share, ("share_others_pct", self.h, i), 0).shown + pct,
        )
        fade = [a.animate.set_opacity(0.15) for a in list(self.v_arrows) + list(self.shrunk)]
        fade.append(self.result.animate.set_opacity(0.35))
        own_arrow = plane.arrow(own2, self.q_color(i), stroke_width=6)
        moved = plane.arrow(out2, theme.output, start=own2, stroke_width=7)
        total = plane.arrow(new2, theme.accent, stroke_width=7)
        box, side_of = self.plane_box, self.side_of
        # no tag on the three arrows' shafts nor heads, nor on the head of the output's faint
        # arrow (it stays, at 0.35)
        ends = [(np.zeros(2), own2), (own2, new2), (np.zeros(2), new2)]
        ends = [(plane.point(a), plane.point(b)) for a, b in ends]
        heads = [plane.point(p) for p in (out2, new2)]
        obstacles = self.obstacles + shaft_marks(ends)
        obstacles += [Box(*(h[:2] - 0.14), *(h[:2] + 0.14)) for h in heads]
        e_tip = self.tag(
            plane, label(f"E({self.q_name})", BODY, self.q_color(i)), own2, side_of, box, obstacles
        )
        d_tip = self.tag(
            plane,
            math("Delta E = o", BODY * 1.2, theme.output),
            own2 + out2 / 2,
            side_of,
            box,
            obstacles + list(e_tip),
        )
        total_tip = self.tag(
            plane,
            math("E + Delta E", BODY * 1.2, theme.accent),
            new2,
            new2,
            box,
            obstacles + list(e_tip) + list(d_tip),
        )
        facts = self.residual_facts(share, pct)
        self.play(
            *fade,
            FadeOut(self.v_labels),
            FadeOut(self.o_tip),
            grow(own_arrow),
            FadeIn(e_tip),
            run_time=1.2,
        )
        self.play(ReplacementTransform(self.result.copy(), moved), FadeIn(d_tip), run_time=1.5)
        self.play(grow(total), FadeIn(total_tip), FadeIn(facts), run_time=1.2)
        self.hold(1.6)

    def residual_facts(self, share, pct):
        """E + ΔE's numbers and the share from other tokens, under the output's line (the share
        alone in a long column, nothing where even that does not fit)."""
        theme, i, new = self.theme, self.i, self.new
        new_line = self.vector_line(None, new, ("residual", self.h, i), theme.accent, self.side_box)
        facts = VGroup(
            new_line,
            VGroup(
                label("1 − w =", BODY, theme.text),
                self.num(share, ("share_others_pct", self.h, i), 0, size=BODY, suffix=pct),
            ).arrange(buff=0.12),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.25)
        out_line = self.out_line
        facts.next_to(out_line, DOWN, buff=0.4).align_to(out_line, LEFT)
        if facts.get_bottom()[1] < self.regions.content.y0:  # a long column: the share alone
            facts = facts[1]
            facts.next_to(out_line, DOWN, buff=0.3).align_to(out_line, LEFT)
            if facts.get_bottom()[1] < self.regions.content.y0:
                facts = VGroup()  # no room: the caption says it
        return facts

    @staticmethod
    def tag(plane, mob, at, direction, box, obstacles):
        """``mob`` beside the plane point ``at`` (data coordinates), towards ``direction`` where
        free, joined to it by a leader line where the nearest free spot is away from it (24
        tokens: o(it₁) sat 1.1 from its tip); an empty group where no spot is free (the colour
        still says which)."""
        anchor = plane.point(at)
        ok = place_labels(
            [mob], [anchor], [np.array([*direction[:2], 0.0])], box, obstacles=obstacles
        )[0]
        mob.is_tip_label = True  # above the arrows; checked against its own tip
        return VGroup(plane.leadered(mob, anchor)) if ok else VGroup()

    def vector_line(self, name, values, role, color, box):
        """'name = [a, b]' (or '= [a, b]' under E + ΔE), folded under the name when too wide;
        a long vector elided in the middle ([a, b, …, z]) until it fits, so the line always
        shows the vector's value. ``role`` + (c,) is the role of entry c."""
        word = label(f"{name} =", BODY, color) if name else math("E + Delta E =", BODY * 1.2, color)
        n = len(values)
        for keep in [n, *range(min(n - 2, 6), 0, -1)]:
            shown = list(range(n)) if keep == n else [*range(keep), n - 1]
            nums = [self.num(values[c], (*role, c), 2, size=BODY, color=color) for c in shown]
            if keep < n:
                nums.insert(keep, label("…", BODY, color))
            vec = vector_row(nums, color)
            line = VGroup(word, vec).arrange(buff=0.15)
            if line.width <= box.width:
                return line
            if vec.width <= box.width:
                return VGroup(word, vec).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
        vec.scale_to_fit_width(box.width)
        return VGroup(word, vec).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
