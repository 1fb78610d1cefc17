"""RotaryPositions: RoPE as rotation. One query and one key of a rotary head, drawn in the plane
of one frequency pair; each turns by its position times the pair's angle; their score; then both
move by the same shift — each turns further, the angle between them and the score stay."""

from __future__ import annotations

from manim import DOWN, LEFT, ReplacementTransform, VGroup

import attention_core as ac
from attention_core.readings.rotary_view import rotary_example, rotary_view
from scenes.kit.base import ExplainerScene
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import place
from scenes.mobjects.plane import grow
from scenes.mobjects.text import label
from scenes.mobjects.theme import SMALL


class RotaryPositions(ExplainerScene):
    """A query and a key turned by their positions: only the offset between them matters."""

    def __init__(self, example=None, **kwargs):
        super().__init__(example, **kwargs)
        # an example without rotary positions (the registry does not offer it this scene) is
        # shown through a 2-D rotary stand-in, so the scene renders for any example
        if self.example.rotary_base is None:
            self.example = rotary_example(self.example)
            self.trace = ac.trace_example(self.example)

    def construct(self):
        v = rotary_view(self.trace)
        content = self.regions.content
        left, right = content.columns(5, 4, gap=0.4)
        pts = [v.q, v.k, v.q_turned, v.k_turned, v.q_shifted, v.k_shifted]
        plane = self.kit.plane(pts, left, pad=0.12)
        qc, kc = self.q_color(v.query), self.k_color(v.key)
        q_tok, k_tok = self.q_tokens[v.query], self.k_tokens[v.key]
        rows = VGroup()  # the numbers beside the plane, one line each

        def line(template: str, *nums, color=None):
            parts = VGroup(label(template, SMALL, color or self.theme.text), *nums)
            rows.add(parts.arrange(buff=0.12))
            rows.arrange(DOWN, aligned_edge=LEFT, buff=0.28)
            place(rows, right, "left")
            return parts

        # 1. the pair's plane, the query and the key as they leave the projections
        self.step(
            "pair", "pair_most" if v.pairs > 1 else None, q=q_tok, k=k_tok, i=v.pair + 1, P=v.pairs
        )
        q_arrow = plane.arrow(v.q, qc)
        k_arrow = plane.arrow(v.k, kc, outline=True)
        self.play(FadeIn(plane.plane), FadeIn(plane.tick_labels), run_time=0.8)
        toks, cols = [q_tok, k_tok], [qc, kc]
        tips = self._tips(plane, v.q, v.k, left, toks, cols)
        self.play(grow(q_arrow), grow(k_arrow), FadeIn(tips), run_time=1)
        omega = line(
            self.say("rope_omega"),
            self.num(v.frequency, ("rotary", "frequency"), 3, color=self.theme.accent),
            label("rad =", SMALL, self.theme.text),
            self.num(v.degrees, ("rotary", "degrees"), 1, color=self.theme.accent, suffix="°"),
            label(self.say("rope_per_position"), SMALL, self.theme.text),
        )
        self.play(FadeIn(omega))
        self.hold()

        # 2. each turns by its position times ω
        self.step("turn", q=q_tok, m=v.m, k=k_tok, n=v.n)
        turns = VGroup(
            # the token names are at the arrow tips; the lines say query and key (any label fits)
            line(self.say("rope_query", m=v.m), self._deg(v.angle_m, "angle_m"), color=qc),
            line(self.say("rope_key", n=v.n), self._deg(v.angle_n, "angle_n"), color=kc),
        )
        q1, k1 = plane.arrow(v.q_turned, qc), plane.arrow(v.k_turned, kc, outline=True)
        tips1 = self._tips(plane, v.q_turned, v.k_turned, left, toks, cols)
        self.play(
            ReplacementTransform(q_arrow, q1),
            ReplacementTransform(k_arrow, k1),
            ReplacementTransform(tips, tips1),
            run_time=1.5,
        )
        self.play(FadeIn(turns))
        self.hold()

        # 3. their score: this pair's part, and the whole over every pair
        score = self.num(v.score, ("rotary", "score"), 2, color=self.theme.accent)
        self.step("score", q=q_tok, k=k_tok, score=score.shown)
        self.play(
            FadeIn(
                VGroup(
                    line(self.say("rope_term"), self.num(v.term, ("rotary", "term"), 2)),
                    line(
                        self.say("rope_score" if v.pairs > 1 else "rope_score_one", P=v.pairs),
                        score,
                    ),
                )
            )
        )
        self.hold()

        # 4. both move by s: each turns s·ω further, the angle between them stays, so the score
        s_score = self.num(v.score_shifted, ("rotary", "score_shifted"), 2, color=self.theme.accent)
        self.step("shift", s=v.shift, score=s_score.shown)
        q2, k2 = plane.arrow(v.q_shifted, qc), plane.arrow(v.k_shifted, kc, outline=True)
        tips2 = self._tips(plane, v.q_shifted, v.k_shifted, left, toks, cols)
        self.play(
            ReplacementTransform(q1, q2),
            ReplacementTransform(k1, k2),
            ReplacementTransform(tips1, tips2),
            run_time=1.5,
        )
        self.play(FadeIn(line(self.say("rope_shifted", s=v.shift), s_score)))
        self.hold(1.5)

        # 5. fast and slow pairs (a real head has many)
        if v.pairs > 1:
            self.step("pairs", P=v.pairs)
            self.play(
                FadeIn(
                    VGroup(
                        line(
                            self.say("rope_fastest"),
                            self.num(v.fastest, ("rotary", "fastest"), 3),
                            label("rad", SMALL, self.theme.text),
                        ),
                        line(
                            self.say("rope_slowest"),
                            self.num(v.slowest, ("rotary", "slowest"), 6),
                            label("rad", SMALL, self.theme.text),
                        ),
                    )
                )
            )
            self.hold(1.5)

    def _deg(self, value: float, field: str):
        return self.num(value, ("rotary", field), 1, color=self.theme.accent, suffix="°")

    def _tips(self, plane, q, k, box, tokens, colors):
        """The two tokens' labels at their arrow tips."""
        return plane.tip_labels([q, k], tokens, colors, box, obstacles=list(plane.tick_labels))
