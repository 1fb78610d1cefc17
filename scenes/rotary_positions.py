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
        self.lay_out()
        self.show_pair()
        self.show_turn()
        self.show_score()
        self.show_shift()
        if self.v.pairs > 1:
            self.show_pairs()

    def lay_out(self):
        """The view of one query/key pair, the pair's plane on the left, the numbers' column on
        the right."""
        self.v = v = rotary_view(self.trace)
        content = self.regions.content
        self.plane_box, self.numbers_box = content.columns(5, 4, gap=0.4)
        pts = [v.q, v.k, v.q_turned, v.k_turned, v.q_shifted, v.k_shifted]
        self.pair_plane = self.kit.plane(pts, self.plane_box, pad=0.12)
        self.qc, self.kc = self.q_color(v.query), self.k_color(v.key)
        self.q_tok, self.k_tok = self.q_tokens[v.query], self.k_tokens[v.key]
        self.number_rows = VGroup()  # the numbers beside the plane, one line each

    def number_line(self, template: str, *nums, color=None):
        """A line of words and numbers added under the others beside the plane."""
        parts = VGroup(label(template, SMALL, color or self.theme.text), *nums)
        rows = self.number_rows
        rows.add(parts.arrange(buff=0.12))
        rows.arrange(DOWN, aligned_edge=LEFT, buff=0.28)
        place(rows, self.numbers_box, "left")
        return parts

    def arrows_at(self, q, k):
        """The query's and the key's arrows at ``q`` and ``k``, and their tokens at the tips."""
        plane = self.pair_plane
        arrows = (plane.arrow(q, self.qc), plane.arrow(k, self.kc, outline=True))
        return arrows, self.tips_at(q, k)

    def tips_at(self, q, k):
        """The query's and the key's tokens at the tips of arrows to ``q`` and ``k``."""
        tokens, colors = [self.q_tok, self.k_tok], [self.qc, self.kc]
        return self._tips(self.pair_plane, q, k, self.plane_box, tokens, colors)

    def show_pair(self):
        """1. the pair's plane, the query and the key as they leave the projections."""
        v, plane, line = self.v, self.pair_plane, self.number_line
        self.step(
            "pair",
            "pair_most" if v.pairs > 1 else None,
            q=self.q_tok,
            k=self.k_tok,
            i=v.pair + 1,
            P=v.pairs,
        )
        q_arrow = plane.arrow(v.q, self.qc)
        k_arrow = plane.arrow(v.k, self.kc, outline=True)
        self.play(FadeIn(plane.plane), FadeIn(plane.tick_labels), run_time=0.8)
        tips = self.tips_at(v.q, v.k)
        self.play(grow(q_arrow), grow(k_arrow), FadeIn(tips), run_time=1)
        self.arrows_now = (q_arrow, k_arrow), tips
        omega = line(
            self.say("rope_omega"),
            self.num(v.frequency, ("rotary", "frequency"), 3, color=self.theme.accent),
            label("rad =", SMALL, self.theme.text),
            self.num(v.degrees, ("rotary", "degrees"), 1, color=self.theme.accent, suffix="°"),
            label(self.say("rope_per_position"), SMALL, self.theme.text),
        )
        self.play(FadeIn(omega))
        self.hold()

    def move_arrows(self, q, k):
        """The arrows and their tip labels turned to ``q`` and ``k``."""
        (q_old, k_old), tips_old = self.arrows_now
        (q_new, k_new), tips_new = self.arrows_now = self.arrows_at(q, k)
        self.play(
            ReplacementTransform(q_old, q_new),
            ReplacementTransform(k_old, k_new),
            ReplacementTransform(tips_old, tips_new),
            run_time=1.5,
        )

    def show_turn(self):
        """2. each turns by its position times ω."""
        v, line, qc, kc = self.v, self.number_line, self.qc, self.kc
        self.step("turn", q=self.q_tok, m=v.m, k=self.k_tok, n=v.n)
        turns = VGroup(
            # the token names are at the arrow tips; the lines say query and key (any label fits)
            line(self.say("rope_query", m=v.m), self._deg(v.angle_m, "angle_m"), color=qc),
            line(self.say("rope_key", n=v.n), self._deg(v.angle_n, "angle_n"), color=kc),
        )
        self.move_arrows(v.q_turned, v.k_turned)
        self.play(FadeIn(turns))
        self.hold()

    def show_score(self):
        """3. their score: this pair's part, and the whole over every pair."""
        v, line = self.v, self.number_line
        score = self.num(v.score, ("rotary", "score"), 2, color=self.theme.accent)
        self.step("score", q=self.q_tok, k=self.k_tok, score=score.shown)
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

    def show_shift(self):
        """4. both move by s: each turns s·ω further, the angle between them stays, so the
        score."""
        v = self.v
        s_score = self.num(v.score_shifted, ("rotary", "score_shifted"), 2, color=self.theme.accent)
        self.step("shift", s=v.shift, score=s_score.shown)
        self.move_arrows(v.q_shifted, v.k_shifted)
        self.play(FadeIn(self.number_line(self.say("rope_shifted", s=v.shift), s_score)))
        self.hold(1.5)

    def show_pairs(self):
        """5. fast and slow pairs (a real head has many)."""
        v, line = self.v, self.number_line
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
