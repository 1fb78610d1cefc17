"""Embeddings: the tokens as arrows on a coordinate plane, each in its colour, labelled."""

from __future__ import annotations

import numpy as np
from manim import Create, LaggedStart, VGroup

import attention_core as ac
from scenes.base import ExplainerScene
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import place
from scenes.mobjects.matrix import LabelledMatrix, matrix_title
from scenes.mobjects.plane import VectorPlane, grow
from scenes.roles import plane_view_of


class Embeddings(ExplainerScene):
    """The example's tokens as vectors from the origin, with their coordinates beside."""

    def construct(self):
        ex, tr = self.example, self.trace
        left, right = self.regions.content.columns(3, 2)
        view = plane_view_of(tr, "X")
        coords = view.coords
        colors = [self.q_color(i) for i in range(ex.n)]

        note = self.view_note(view, "X")
        plane_box = left if not len(note) else left.rows(10, 1)[0]
        plane = VectorPlane(coords, plane_box, self.theme)
        if len(note):
            place(note, left.rows(10, 1)[1], "left")

        table = LabelledMatrix.fitted(
            tr.X,
            ("X",),
            self.theme,
            ex.tokens,
            [f"x{j + 1}" for j in range(ex.d_model)],
            right,
            row_colors=colors,
        )
        head = matrix_title(self.say("embeddings"), table, self.theme)
        side = VGroup(head, table)
        place(side, right, "center")

        self.step("plane")
        self.play(Create(plane.plane), FadeIn(plane.tick_labels), FadeIn(note), run_time=1.2)
        self.hold()

        self.step("tokens", tokens=self.token_list(ex.tokens))
        arrows = plane.arrows(coords, colors)
        labels = plane.tip_labels(
            coords, ex.tokens, colors, left, obstacles=list(plane.tick_labels) + list(note)
        )
        self.play(FadeIn(head), FadeIn(table.backgrounds), FadeIn(table.col_labels))
        self.play(
            LaggedStart(*(grow(a) for a in arrows), lag_ratio=0.3),
            LaggedStart(*(FadeIn(t) for t in labels), lag_ratio=0.3),
            LaggedStart(
                *(
                    FadeIn(VGroup(table.row_label_of[i], table.row_group(i)))
                    for i in table.shown_rows
                ),
                lag_ratio=0.3,
            ),
            FadeIn(table.ellipses),
            run_time=min(4, 1 + 0.4 * ex.n),
        )
        self.hold()

        self.step("compare")
        # the two tokens whose directions are closest, drawn brighter
        if ex.n > 1:
            i, j = _closest_pair(coords)
            others = [k for k in range(ex.n) if k not in (i, j)]
            if others:
                self.play(*(arrows[k].animate.set_opacity(0.25) for k in others), run_time=0.8)
        self.hold(1.5)


def _closest_pair(coords: np.ndarray):
    """The two arrows whose directions are closest (smallest angle; zero vectors skipped)."""
    best, pair = np.inf, (0, min(1, len(coords) - 1))
    for i in range(len(coords)):
        for j in range(i + 1, len(coords)):
            if ac.norm(coords[i]) == 0 or ac.norm(coords[j]) == 0:
                continue
            theta = ac.angle(coords[i], coords[j])
            if theta < best:
                best, pair = theta, (i, j)
    return pair
