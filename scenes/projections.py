"""Projections: the three roles, then Q = X·W_q, K = X·W_k, V = X·W_v as linear maps of the
plane."""

from __future__ import annotations

import numpy as np
from manim import DOWN, ApplyMatrix, Create, RoundedRectangle, VGroup
from manim.mobject.text.typst_mobject import MathTypst

import attention_core as ac
from scenes.base import ExplainerScene
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import Box, place
from scenes.mobjects.matrix import LabelledMatrix, matrix_title
from scenes.mobjects.plane import VectorPlane, grow
from scenes.mobjects.text import label
from scenes.mobjects.theme import BODY
from scenes.roles import plane_view_of


def role_cards(scene: ExplainerScene, box: Box) -> VGroup:
    cards = VGroup()
    for role, desc, color in (
        ("query", "asks", scene.theme.token(0)),
        ("key", "answers", scene.theme.token(1)),
        ("value", "carries", scene.theme.token(2)),
    ):
        head = label(scene.say(role), BODY + 4, color, weight="BOLD")
        body = label(scene.say(desc), BODY, scene.theme.text)
        inner = VGroup(head, body).arrange(DOWN, buff=0.25)
        frame = RoundedRectangle(
            corner_radius=0.15,
            width=inner.width + 0.6,
            height=inner.height + 0.6,
            stroke_color=color,
            fill_color=scene.theme.panel,
            fill_opacity=1,
        )
        cards.add(VGroup(frame, inner.move_to(frame)))
    width = max(c.width for c in cards)
    for c in cards:
        c[0].stretch_to_fit_width(width)
    cards.arrange(buff=0.4)
    if cards.width > box.width:
        cards.arrange(DOWN, buff=0.3)
    return place(cards, box)


def rowvec_matrix(W: np.ndarray) -> np.ndarray:
    """Manim maps points as columns (p → M p); our vectors are rows (x → x W): M = Wᵀ."""
    return np.asarray(W, dtype=float).T


class Projections(ExplainerScene):
    """Query, key and value: three linear maps of the same embeddings."""

    def construct(self):
        ex = self.example
        content = self.regions.content
        self.step("roles")
        cards = role_cards(self, content)
        self.play(FadeIn(cards, lag_ratio=0.3), run_time=1.5)
        self.hold(2.0)

        w = ex.weights
        W_q, W_k, W_v = w.head(0, ex.heads)
        planar = ex.d_model == 2 and all(m.shape == (2, 2) for m in (W_q, W_k, W_v))
        if w.form == "identity" and ex.d_model == 2 and ex.heads == 1:
            self.identity_then_illustration()
        elif planar and not ex.is_cross:
            self.planar_maps({"q": W_q, "k": W_k, "v": W_v})
        else:
            self.viewed_maps()
        self.match_step()

    # -- d = 2 with identity weights: say so, then show what a learned W would do -------------
    def identity_then_illustration(self):
        ex, tr = self.example, self.trace
        left, right = self.regions.content.columns(3, 2)
        W = ac.illustrative_weights(2, ac.ILLUSTRATIVE_SEED)
        moved = tr.X @ W
        plane = VectorPlane(np.vstack([tr.X, moved]), left, self.theme, maps=[W])
        colors = [self.q_color(i) for i in range(ex.n)]
        arrows = plane.arrows(tr.X, colors)
        labels = plane.tip_labels(tr.X, ex.tokens, colors, left, plane.tick_labels)
        self.step("identity", clear=True)
        note = label(self.say("identity"), BODY, self.theme.accent)
        place(note, right.rows(1, 3)[0])
        table = LabelledMatrix.fitted(
            tr.attention.Q,
            ("Q", 0),
            self.theme,
            ex.tokens,
            ["q1", "q2"],
            right.rows(1, 3)[1],
            row_colors=colors,
        )
        head = matrix_title("Q = K = V = X", table, self.theme)
        side = place(VGroup(head, table), right.rows(1, 3)[1], "top")
        self.play(Create(plane.plane), FadeIn(plane.tick_labels), run_time=1)
        self.play(*(grow(a) for a in arrows), FadeIn(labels), FadeIn(note), FadeIn(side))
        self.hold()

        self.step("illustrative", seed=ac.ILLUSTRATIVE_SEED)
        w_table = LabelledMatrix.fitted(
            W,
            ("illustrative", ac.ILLUSTRATIVE_SEED),
            self.theme,
            ["", ""],
            ["", ""],
            right.rows(1, 3)[1],
        )
        w_head = matrix_title(
            self.say("illustrative", seed=ac.ILLUSTRATIVE_SEED), w_table, self.theme
        )
        w_side = place(VGroup(w_head, w_table), right.rows(1, 3)[1], "top")
        self.play(
            FadeOut(side),
            FadeOut(note),
            FadeOut(labels),
            FadeOut(plane.tick_labels),
            FadeIn(w_side),
        )
        M = rowvec_matrix(W)
        origin = plane.c2p(0, 0)
        self.play(
            ApplyMatrix(M, plane.plane, about_point=origin),
            ApplyMatrix(M, arrows, about_point=origin),
            run_time=2.5,
        )
        moved_labels = plane.tip_labels(moved, ex.tokens, colors, left)
        self.play(FadeIn(moved_labels))
        self.hold(1.5)

    # -- d = 2 with real weights: each map moves the grid -----------------------------------------
    def planar_maps(self, maps: dict):
        ex, tr = self.example, self.trace
        head = tr.attention
        left, right = self.regions.content.columns(3, 2)
        colors = [self.q_color(i) for i in range(ex.n)]
        results = {"q": head.Q, "k": head.K, "v": head.V}
        plane_pts = np.vstack([tr.X] + list(results.values()))
        plane = VectorPlane(plane_pts, left, self.theme, maps=list(maps.values()))
        origin = plane.c2p(0, 0)
        for key, W in maps.items():
            self.step(f"map_{key}", clear=True)
            grid = plane.plane.copy()
            arrows = plane.arrows(tr.X, colors)
            role = key.upper()
            top, bottom = right.rows(1, 1)
            table = LabelledMatrix.fitted(
                results[key],
                (role, 0),
                self.theme,
                ex.tokens,
                [f"{key}1", f"{key}2"],
                bottom,
                row_colors=colors,
            )
            w_table = LabelledMatrix.fitted(W, (f"W_{key}", 0), self.theme, ["", ""], ["", ""], top)
            w_side = place(VGroup(matrix_title(f"W_{key}", w_table, self.theme), w_table), top)
            side = place(
                VGroup(matrix_title(f"{role} = X·W_{key}", table, self.theme), table), bottom
            )
            self.play(FadeIn(grid), *(grow(a) for a in arrows), FadeIn(w_side), run_time=0.8)
            M = rowvec_matrix(W)
            self.play(
                ApplyMatrix(M, grid, about_point=origin),
                ApplyMatrix(M, arrows, about_point=origin),
                FadeIn(side),
                run_time=2,
            )
            self.hold()

    # -- d ≠ 2: three 2-D views --------------------------------------------------------------------
    def viewed_maps(self):
        ex, tr = self.example, self.trace
        head = tr.attention
        self.step("maps_nd", clear=True)
        boxes = self.regions.content.columns(1, 1, 1, gap=0.4)
        groups = VGroup()
        for box, (name, _values, tokens, color_of) in zip(
            boxes,
            (
                ("Q", head.Q, ex.tokens, self.q_color),
                ("K", head.K, ex.key_tokens, self.k_color),
                ("V", head.V, ex.key_tokens, self.k_color),
            ),
        ):
            view = plane_view_of(tr, name)
            title_box, plane_box, note_box = box.rows(1, 8, 1, gap=0.1)
            plane = VectorPlane(view.coords, plane_box, self.theme, ticks=False)
            colors = [color_of(i) for i in range(len(tokens))]
            arrows = plane.arrows(view.coords, colors)
            labels = plane.tip_labels(view.coords, tokens, colors, plane_box)
            heading = place(label(f"{name} = X·W_{name.lower()}", BODY, self.theme.text), title_box)
            note = self.view_note(view, name)
            if len(note):
                place(note, note_box)
            groups.add(VGroup(heading, plane.plane, arrows, labels, note))
        for g in groups:
            self.play(
                FadeIn(g[0]),
                Create(g[1]),
                *(grow(a) for a in g[2]),
                FadeIn(g[3]),
                FadeIn(g[4]),
                run_time=1,
            )
        self.hold(1.5)

    # -- the learnable match --------------------------------------------------------------------
    def match_step(self):
        ex, tr = self.example, self.trace
        head = tr.attention
        self.step("match", clear=True)
        formula = MathTypst(
            "q_i dot k_j = x_i W_q W_k^top x_j^top", font_size=48, color=self.theme.text
        )
        i, j = 0, min(1, ex.n_keys - 1)
        qi, kj = ex.tokens[i], ex.key_tokens[j]
        example_line = VGroup(
            label(f"q({qi}) · k({kj}) =", BODY, self.theme.text),
            self.num(head.scores[i, j], ("scores", 0, i, j), size=BODY, color=self.theme.accent),
        ).arrange(buff=0.15)
        group = VGroup(formula, example_line).arrange(DOWN, buff=0.6)
        place(group, self.regions.content)
        self.play(FadeIn(formula, shift=0.2 * DOWN))
        self.play(FadeIn(example_line))
        self.hold(1.8)
