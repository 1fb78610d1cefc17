"""MultiHeadSplit: d_model's coordinates split among the heads, each head attending in its own
subspace (its own q/k plane and attention pattern, side by side), the head outputs concatenated,
and W_O mixing them back to d_model — or text 000's form, concatenated without W_O."""

from __future__ import annotations

import numpy as np
from manim import DOWN, Create, VGroup

from scenes.base import ExplainerScene
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import place
from scenes.mobjects.matrix import LabelledMatrix, matrix_title
from scenes.mobjects.plane import VectorPlane, grow
from scenes.mobjects.text import label
from scenes.mobjects.theme import SMALL
from scenes.roles import plane_view_of, view_recipe

MAX_PANELS = 4  # heads drawn side by side; with more, the first three and the last


@view_recipe("head")
def head_view(trace, h: int):
    """Head ``h``'s queries and keys in one view."""
    return np.vstack([trace.heads[h].Q, trace.heads[h].K])


class MultiHeadSplit(ExplainerScene):
    """Several heads, each its own subspace; concat; W_O."""

    explains_one_head = False

    def construct(self):
        ex, tr, theme = self.example, self.trace, self.theme
        heads = tr.heads
        H = len(heads)
        shown = list(range(H)) if H <= MAX_PANELS else list(range(MAX_PANELS - 1)) + [H - 1]
        boxes = self.regions.content.columns(*([1] * len(shown)), gap=0.3)
        colors = [self.q_color(i) for i in range(ex.n)]
        k_colors = [self.k_color(j) for j in range(ex.n_keys)]
        head_color = [theme.token(h + 6) for h in range(H)]

        # -- the split: each head's slice of Q ---------------------------------------------------
        self.step(
            "split",
            caption_key="split_independent" if ex.weights.form == "independent" else "split",
            H=H,
            d=ex.d_model,
            d_k=heads[0].d_k,
        )
        q_groups = VGroup()
        for box, h in zip(boxes, shown):
            top = box.rows(1, 1, gap=0.3)[0]
            m = LabelledMatrix.fitted(
                heads[h].Q,
                ("Q", h),
                theme,
                ex.tokens,
                [f"q{j + 1}" for j in range(heads[h].d_k)],
                top,
                row_colors=colors,
            )
            title = matrix_title(self.say("head_n", h=h + 1) + " · Q", m, theme)
            title.set_color(head_color[h])
            q_groups.add(place(VGroup(title, m), top, "top"))
        self.play(FadeIn(q_groups, lag_ratio=0.2), run_time=1.2)
        self.hold()

        # -- each head: its own plane and its own pattern ------------------------------------------
        self.step("heads")
        panels = VGroup()
        for box, h in zip(boxes, shown):
            bottom = box.rows(1, 1, gap=0.3)[1]
            plane_box, pat_box = bottom.columns(1, 1, gap=0.15)
            view = plane_view_of(tr, ("head", h))
            n_q = ex.n
            plane = VectorPlane(view.coords, plane_box.rows(6, 1, gap=0.05)[0], theme, ticks=False)
            q_arrows = plane.arrows(view.coords[:n_q], colors)
            k_arrows = VGroup(
                *(
                    plane.arrow(c, col, stroke_width=3, opacity=0.6)
                    for c, col in zip(view.coords[n_q:], k_colors)
                )
            )
            note = self.view_note(view, ("head", h))
            if len(note):
                place(note, plane_box.rows(6, 1, gap=0.05)[1], "left")
            pattern = LabelledMatrix.fitted(
                heads[h].weights,
                ("weights", h),
                theme,
                [""] * ex.n,
                [""] * ex.n_keys,
                pat_box,
                digits=2,
                heat=True,
                sizes=(25, 22),
            )
            place(pattern, pat_box, "top")
            panels.add(VGroup(plane.plane, q_arrows, k_arrows, note, pattern))
        self.play(*(Create(p[0]) for p in panels), run_time=0.8)
        self.play(
            *(grow(a) for p in panels for a in list(p[1]) + list(p[2])),
            *(FadeIn(p[3]) for p in panels),
            *(FadeIn(p[4]) for p in panels),
            run_time=1.2,
        )
        self.hold()

        # -- concat, then W_O ----------------------------------------------------------------------
        mh = tr.multihead
        self.step("concat", clear=True)
        top, bottom = self.regions.content.rows(1, 1, gap=0.3)
        if mh is None:  # one head: nothing to concatenate
            cat = LabelledMatrix.fitted(
                tr.output,
                ("final",),
                theme,
                ex.tokens,
                [f"o{j + 1}" for j in range(tr.output.shape[1])],
                top,
                row_colors=colors,
            )
        else:
            cat = LabelledMatrix.fitted(
                mh.concat,
                ("concat",),
                theme,
                ex.tokens,
                [f"c{j + 1}" for j in range(mh.concat.shape[1])],
                top,
                row_colors=colors,
            )
            d_v = heads[0].V.shape[1]
            for j in cat.shown_columns:  # colour each column by the head it came from
                cat.col_labels[cat.shown_columns.index(j)].set_color(head_color[j // d_v])
        cat_g = place(VGroup(matrix_title(self.say("concat_title"), cat, theme), cat), top, "top")
        self.play(FadeIn(cat_g), run_time=1)
        self.hold()

        if mh is not None and mh.W_o is not None:
            self.step("mix")
            out = LabelledMatrix.fitted(
                mh.output,
                ("final",),
                theme,
                ex.tokens,
                [f"o{j + 1}" for j in range(mh.output.shape[1])],
                bottom,
                row_colors=colors,
            )
            out_g = place(
                VGroup(matrix_title(self.say("mixed_title"), out, theme), out), bottom, "top"
            )
            self.play(FadeIn(out_g, shift=0.2 * DOWN), run_time=1)
        else:
            self.step("no_mix")
            place(note := label(self.say("no_w_o"), SMALL, theme.muted), bottom, "top")
            self.play(FadeIn(note))
        self.hold(1.8)
