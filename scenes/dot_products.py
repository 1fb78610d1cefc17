"""DotProducts: for one query at a time, the key's shadow on the query's direction, |q|·|k|·cos θ,
and the number landing in its cell of the score matrix; then the whole matrix."""

from __future__ import annotations

import math

import numpy as np
from manim import DOWN, LEFT, Arc, Create, DashedLine, Line, TransformFromCopy, VGroup

import attention_core as ac
from scenes.base import ExplainerScene
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import Box, flow, place
from scenes.mobjects.matrix import LabelledMatrix, matrix_title
from scenes.mobjects.plane import VectorPlane, grow
from scenes.mobjects.text import label
from scenes.mobjects.theme import BODY, SMALL

DETAILED_KEYS = 3  # keys of the first query drawn one by one; the rest fill in together


class DotProducts(ExplainerScene):
    """q·k = |q|·(the length of k's shadow on q) = |q||k|cos θ, cell by cell."""

    def construct(self):
        ex, head = self.example, self.head
        left, right = self.regions.content.columns(1, 1)
        n = ex.n_keys
        mat_box, work_box = right.rows(3, 2) if right.width > 5.5 else right.rows(1, 1)
        matrix = LabelledMatrix.fitted(
            head.scores,
            ("scores", 0),
            self.theme,
            ex.tokens,
            ex.key_tokens,
            mat_box,
            row_colors=[self.q_color(i) for i in range(ex.n)],
            col_colors=[self.k_color(j) for j in range(n)],
        )
        m_title = matrix_title(self.say("scores"), matrix, self.theme)
        place(VGroup(m_title, matrix), mat_box, "top")
        self.matrix = matrix
        self.add(m_title, matrix.frame_parts())
        exact_2d = head.d_k == 2
        i = 0
        keys = list(range(min(n, DETAILED_KEYS)))
        pair_mobs = VGroup()
        for j in keys:
            self.step(f"pair{j + 1}", caption_key="pair", **self.pair_values(i, j))
            if len(pair_mobs):
                self.play(*(FadeOut(m) for m in pair_mobs), run_time=0.4)
            pair_mobs = self.draw_pair(i, j, left, work_box, exact_2d)
            self.hold()
        rest = [
            (a, b)
            for a in range(ex.n)
            for b in range(n)
            if (a, b) not in {(i, j) for j in keys} and matrix.cell(a, b) is not None
        ]
        self.step("matrix", m=ex.n, n=n)
        self.play_all((FadeIn(matrix.cell(a, b)) for a, b in rest), run_time=1.2)
        self.hold(1.6)

    def pair_values(self, i, j) -> dict:
        head = self.head
        zero_q = ac.norm(head.Q[i]) == 0
        return {
            "q": f"q({self.q_tokens[i]})",
            "k": f"k({self.k_tokens[j]})",
            "shadow": self.num(0.0, ("scores", 0, i, j)).shown
            if zero_q
            else self.num(ac.scalar_projection(head.K[j], head.Q[i]), ("shadow", 0, i, j)).shown,
            "nq": self.num(ac.norm(head.Q[i]), ("norm_q", 0, i)).shown,
            "score": self.num(head.scores[i, j], ("scores", 0, i, j)).shown,
        }

    def draw_pair(self, i, j, box: Box, work_box: Box, exact_2d: bool) -> VGroup:
        head, theme = self.head, self.theme
        q, k = head.Q[i], head.K[j]
        degenerate = ac.norm(q) == 0 or ac.norm(k) == 0  # a zero vector has no angle
        if exact_2d:
            pq, pk = q, k
            pts = np.vstack([head.Q, head.K])
        elif degenerate:
            pq, pk = np.array([ac.norm(q), 0.0]), np.array([ac.norm(k), 0.0])
            pts = np.vstack([pq, pk])
        else:
            pp = ac.pair_plane(q, k)
            pq, pk = pp.q, pp.k
            pts = np.vstack([pq, pk])
        plane_box, note_box = box.rows(9, 1, gap=0.1)
        plane = VectorPlane(pts, plane_box, theme)
        qc, kc = self.q_color(i), self.k_color(j)
        qa, ka = plane.arrow(pq, qc), plane.arrow(pk, kc)
        foot = np.zeros(2) if ac.norm(pq) == 0 else ac.projection(pk, pq)  # k's shadow on q
        drop = DashedLine(plane.point(pk), plane.point(foot), color=theme.muted, stroke_width=3)
        shadow = Line(plane.point([0, 0]), plane.point(foot), color=theme.accent, stroke_width=9)
        origin = plane.point([0, 0])
        a_q, a_k = math.atan2(pq[1], pq[0]), math.atan2(pk[1], pk[0])
        sweep = (a_k - a_q + math.pi) % (2 * math.pi) - math.pi
        arc = (
            VGroup()
            if degenerate
            else Arc(
                radius=0.45,
                start_angle=a_q,
                angle=sweep,
                arc_center=origin,
                color=theme.text,
                stroke_width=3,
            )
        )
        theta = (
            VGroup()
            if degenerate
            else label("θ", SMALL, theme.text).move_to(
                origin + 0.75 * np.array([math.cos(a_q + sweep / 2), math.sin(a_q + sweep / 2), 0])
            )
        )
        labels = plane.tip_labels(
            [pq, pk],
            [f"q({self.q_tokens[i]})", f"k({self.k_tokens[j]})"],
            [qc, kc],
            plane_box,
            obstacles=list(plane.tick_labels) + [theta],
        )
        note = VGroup()
        if not exact_2d:
            note = place(label(self.say("pair_plane"), SMALL, theme.muted), note_box, "left")
        # the arithmetic, under the matrix
        nq = self.num(ac.norm(q), ("norm_q", 0, i), size=BODY)
        nk = self.num(ac.norm(k), ("norm_k", 0, j), size=BODY)
        if degenerate:
            cos = label("—", BODY, theme.muted)
            sh = self.num(0.0, ("scores", 0, i, j), size=BODY, color=theme.accent)
        else:
            cos = self.num(math.cos(ac.angle(q, k)), ("cos", 0, i, j), size=BODY)
            sh = self.num(
                ac.scalar_projection(k, q), ("shadow", 0, i, j), size=BODY, color=theme.accent
            )
        result = self.num(head.scores[i, j], ("scores", 0, i, j), size=BODY, color=theme.accent)
        w = work_box.width
        line1 = flow(
            [
                VGroup(label("|q| =", BODY, qc), nq).arrange(buff=0.12),
                VGroup(label("|k| =", BODY, kc), nk).arrange(buff=0.12),
                VGroup(label("cos θ =", BODY, theme.text), cos).arrange(buff=0.12),
            ],
            w,
            hbuff=0.45,
        )
        line2 = flow([label("|k| cos θ =", BODY, theme.text), sh], w, hbuff=0.12)
        line3 = flow([label("q·k = |q| · |k| cos θ =", BODY, theme.text), result], w, hbuff=0.12)
        work = VGroup(line1, line2, line3).arrange(DOWN, aligned_edge=LEFT, buff=0.22)
        place(work, work_box, "top-left")

        self.play(Create(plane.plane), FadeIn(plane.tick_labels), FadeIn(note), run_time=0.6)
        self.play(grow(qa), grow(ka), FadeIn(labels), run_time=0.8)
        self.play(Create(arc), FadeIn(theta), FadeIn(line1), run_time=0.7)
        self.play(Create(drop), Create(shadow), FadeIn(line2), run_time=0.9)
        self.play(FadeIn(line3), run_time=0.5)
        cell = self.matrix.cell(i, j)
        if cell is not None:
            self.play(TransformFromCopy(result, cell), run_time=0.8)
        return VGroup(
            plane.plane, plane.tick_labels, note, qa, ka, labels, drop, shadow, arc, theta, work
        )
