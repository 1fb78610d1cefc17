"""PositionalEncoding: the sinusoidal waves by dimension, PE added to the embeddings as vector
addition, and the reason for it: without PE, shuffling the tokens only shuffles the outputs; with
PE it does not (the core checks it; both orders are shown)."""

from __future__ import annotations

import numpy as np
from manim import (
    DL,
    DOWN,
    LEFT,
    RIGHT,
    UL,
    UP,
    Create,
    DashedVMobject,
    GrowFromEdge,
    Line,
    Rectangle,
    VGroup,
    VMobject,
)

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import Box, box_of, flow, place
from scenes.mobjects.math import math
from scenes.mobjects.plane import grow
from scenes.mobjects.text import balanced_lines, label, text_width
from scenes.mobjects.theme import BODY, SMALL

WAVES = 4  # dimensions drawn as waves
STEP_TIP = 0.16  # among many tokens: the heads of E and of + PE, at most (the sums' as usual)


class PositionalEncoding(ExplainerScene):
    """Why attention needs positions, and how sinusoids supply them."""

    explains_one_head = False  # about the input, not about a head

    def construct(self):
        ex = self.example
        self.pe = ac.sinusoidal_positional_encoding(ex.n, ex.d_model)  # the codes added
        self.show_waves()
        self.add_as_vectors()
        if getattr(ex, "rotary_base", None) is not None:  # positions by rotation, not added
            self.step("order_rotary", clear=True)
            self.hold(1.6)
            return
        if ex.is_cross or ex.n < 2:
            self.step("order_none", clear=True)
            self.hold(1.6)
            return
        self.show_why_order()

    # each dimension in a style of its own: accent and muted, solid and dashed (token colours
    # are for tokens only)
    def wave_styles(self):
        theme = self.theme
        return [
            (theme.accent, False),
            (theme.accent, True),
            (theme.muted, False),
            (theme.muted, True),
        ]

    def wave_legend(self) -> VGroup:
        """One sample line and formula for each wave drawn."""
        d = self.example.d_model
        legend = VGroup()
        for i in range(min(WAVES, d)):
            color, dashed = self.wave_styles()[i]
            sample = Line([0, 0, 0], [0.5, 0, 0], color=color, stroke_width=4)
            if dashed:
                sample = DashedVMobject(sample, num_dashes=3)
            fn = "sin" if i % 2 == 0 else "cos"
            formula = math(
                f'"PE"_({i}) = {fn}("pos" \\/ 10000^({2 * (i // 2)} \\/ {d}))', BODY, color
            )
            legend.add(VGroup(sample, formula).arrange(buff=0.15))
        legend.arrange(buff=0.5)
        return legend

    def show_waves(self):
        """The waves, one per dimension, with each token's position marked on them."""
        ex, theme, content = self.example, self.theme, self.regions.content
        d, n = ex.d_model, ex.n
        self.step("waves", caption_key="waves_2d" if d == 2 else None, d=d)
        legend = self.wave_legend()
        plot_box, legend_box = content.rows(5, 1, gap=0.15)
        if legend.width > content.width:  # two formulas a line, or one, under the plot
            legend.arrange_in_grid(cols=2, buff=(0.5, 0.08), col_alignments="ll")
            if legend.width > content.width:
                legend.arrange(DOWN, aligned_edge=LEFT, buff=0.08)
            plot_box = Box(content.x0, content.y0 + legend.height + 0.15, content.x1, content.y1)
            legend_box = Box(content.x0, content.y0, content.x1, content.y0 + legend.height)
        span = max(2 * (n - 1), 6)  # a stretch of positions, the tokens at the first n
        if n > 12:  # 20-odd tokens: their positions get room for the cast's labels
            span = n + 2
        fine = np.linspace(0, span, 200)
        pe_fine = ac.positional_encoding_at(fine, d)  # (200, d)
        pe = self.pe
        x0, x1 = plot_box.x0 + 0.7, plot_box.x1 - 0.7  # room for a label centred at each end
        y_mid, amp = plot_box.center[1], plot_box.height * 0.42

        def to_screen(p, v):
            return np.array([x0 + (x1 - x0) * p / span, y_mid + amp * v, 0.0])

        axis = Line(to_screen(0, 0), to_screen(span, 0), color=theme.axis, stroke_width=2)
        waves, dots = VGroup(), VGroup()
        for i in range(min(WAVES, d)):
            color, dashed = self.wave_styles()[i]
            curve = VMobject(color=color, stroke_width=4)
            curve.set_points_smoothly([to_screen(p, v) for p, v in zip(fine, pe_fine[:, i])])
            waves.add(DashedVMobject(curve, num_dashes=60) if dashed else curve)
            for pos in range(n):
                dots.add(VGroup().add(self._dot(to_screen(pos, pe[pos, i]), color)))
        ticks = self.position_labels(to_screen, (x1 - x0) / span)
        if legend.width > legend_box.width:
            legend.arrange_in_grid(cols=2, buff=(0.5, 0.08))
        place(legend, legend_box)
        self.play(Create(axis), *(Create(w) for w in waves), FadeIn(legend), run_time=1.5)
        self.play(FadeIn(dots), FadeIn(ticks))
        self.hold()

    def position_labels(self, to_screen, gap: float) -> VGroup:
        """The tokens under the axis at their positions (``gap`` apart): each that fits its
        gap; among 20-odd tokens the cast's (:func:`attention_core.story_cast`, the story's
        first), each whole where it keeps clear of those already placed (issue 38: at 24
        tokens no position had a label)."""
        cast = ac.story_cast(self.trace)
        if len(cast) == self.example.n:  # every token its own colour: each where it fits
            whole = self.kit.followed_labels()
            kept = self.followed_row(gap, to_screen)  # the followed pair's first, whole
            for k, t in enumerate(self.q_tokens):
                text = self.position_label(k, min(gap - 0.1, 1.3), to_screen)
                clear = not any(box_of(text).overlaps(box_of(m), 0.12) for m in kept)
                if t not in whole and text.width < gap - 0.05 and clear:
                    kept.append(text)
            return VGroup(*kept)
        kept = []
        for k in cast:
            text = self.position_label(k, 1.3, to_screen)
            if not any(box_of(text).overlaps(box_of(t), 0.12) for t in kept):
                kept.append(text)
        return VGroup(*kept)

    def position_label(self, k: int, room: float, to_screen):
        """Token ``k``'s label under the axis at its position, shortened to ``room`` (the
        followed pair's whole, issue 38)."""
        mob = label(self.kit.fit_label(self.q_tokens[k], room, SMALL), SMALL, self.q_color(k))
        return mob.next_to(to_screen(k, -1.0), DOWN, buff=0.12)

    def followed_row(self, gap: float, to_screen) -> list:
        """The followed pair's labels under the axis, whole, on one line: each at its position,
        pushed right of the one before where they would meet, the row kept within the plot."""
        whole = self.kit.followed_labels()
        row = [
            self.position_label(k, gap - 0.1, to_screen)
            for k, t in enumerate(self.q_tokens)
            if t in whole
        ]
        for before, mob in zip(row, row[1:]):
            mob.shift(max(0.0, before.get_right()[0] + 0.15 - mob.get_left()[0]) * RIGHT)
        if row:
            x0, x1 = self.regions.content.x0, self.regions.content.x1
            over = max(0.0, row[-1].get_right()[0] - x1)
            VGroup(*row).shift((max(x0 - row[0].get_left()[0] + over, 0.0) - over) * RIGHT)
        return row

    def add_as_vectors(self):
        """PE added to each token's vector, tip to tail: every token where the story has them
        all (12 or fewer); among more (24) the cast (:func:`attention_core.story_cast`) in
        colour, labelled "when+PE", the others' sums as thin grey arrows, counted under the note
        (issue 38: 24 "…+PE" labels hid the plane)."""
        ex, theme, pe, n = self.example, self.theme, self.pe, self.example.n
        self.step("add", clear=True)
        X = ex.embeddings
        view = ac.plane_view(np.vstack([X, X + pe]))
        left, right = self.regions.content.columns(4, 1)
        plane = self.kit.plane(view, left)
        cast = sorted(ac.story_cast(self.trace))
        others = [i for i in range(n) if i not in cast]
        grey = VGroup(*(self.grey_arrow(plane, view.coords[n + i]) for i in others))
        colors = [self.q_color(i) for i in cast]
        # among many, the steps to the sums with small heads: a head is where a vector ends,
        # and only the sums' ends are the picture (issue 38: a pile of arrowheads)
        # and the steps in the text's colour, thin and half seen, not the grey of the others'
        small = dict(tip=STEP_TIP) if others else {}
        step = dict(color=theme.text, stroke_width=2, opacity=0.6) if others else {}
        base = plane.arrows(view.coords[cast], colors, **small)
        moved = VGroup(
            *(
                plane.arrow(
                    pe[i] @ view.basis,
                    **{"color": theme.muted, "stroke_width": 3, **step},
                    start=view.coords[i],
                    **small,
                )
                for i in cast
            )
        )
        summed = VGroup(
            *(plane.arrow(view.coords[n + i], c, stroke_width=6) for i, c in zip(cast, colors))
        )
        # the note right of the plane itself (a square frame's column of a fifth broke its
        # words one a line)
        x0 = min(right.x0, plane.plane.get_right()[0] + 0.3)
        note = self.add_note(view, len(others), Box(x0, right.y0, right.x1, right.y1))
        plane.whole = (*plane.whole, *(f"{t}+PE" for t in plane.whole))  # "token+PE" whole
        labels = plane.tip_labels(
            view.coords[[n + i for i in cast]],
            [f"{self.q_tokens[i]}+PE" for i in cast],
            colors,
            left,
            obstacles=[*plane.tick_labels, *note],
        )
        self.play(
            Create(plane.plane), FadeIn(plane.tick_labels), *(grow(a) for a in base), run_time=1
        )
        self.play(
            *(a.animate.set_opacity(0.35) for a in base), *(grow(a) for a in moved), run_time=1
        )
        shown = [*(grow(a) for a in grey), *(grow(a) for a in summed), FadeIn(labels)]
        self.play(*shown, FadeIn(note), run_time=1)
        self.hold()

    def grey_arrow(self, plane, v):
        """A token outside the cast: a thin grey arrow with a small head, to ``v`` (its tip and
        shaft kept clear of the cast's labels, as :meth:`VectorPlane.arrow`'s)."""
        from manim import Arrow

        a, b = plane.point([0, 0]), plane.point(v)
        plane.tips.append(b)
        plane.shafts.append((a, b))
        return Arrow(
            a,
            b,
            buff=0,
            color=self.theme.muted,
            stroke_width=1.5,
            tip_length=0.1,
            max_tip_length_to_length_ratio=0.3,
            stroke_opacity=0.6,
            fill_opacity=0.6,
        )

    def add_note(self, view, others: int, box) -> VGroup:
        """The plane's note in ``box``'s bottom left: what the 2-D view keeps (where it is not
        exact) and how many tokens are drawn grey ("16 others: x + PE, grey")."""
        theme, lines = self.theme, []
        if not view.exact:
            text = self.say("view_kept", kept=f"{view.kept * 100:.0f} %")
            lines += balanced_lines(text, box.width, SMALL, max_lines=3)  # between words
        if others:
            text = self.say("pe_others" if others > 1 else "pe_other", n=others)
            lines += balanced_lines(text, box.width, SMALL, max_lines=3)
        note = VGroup(*(label(line, SMALL, theme.muted) for line in lines))
        if len(note):
            note.arrange(DOWN, aligned_edge=LEFT, buff=0.04)
            place(note, box, "bottom-left")
        return note

    def show_why_order(self):
        """Why: shuffled tokens, without PE and with it (the core's order argument: where a
        causal mask already makes order matter, the argument is made with the mask off, and
        says so)."""
        theme, content = self.theme, self.regions.content
        check = ac.order_argument(self.example)  # a causal mask: the argument with it off
        off = "_mask_off" if check.mask_off else ""
        self.step("order", caption_key=f"order_{check.kind}{off}", clear=True)
        masked = self.example.mask_matrix is not None and not check.mask_off
        without_word = "only_moved"
        if check.changes_without:
            without_word = "changed_by_mask" if masked else "changed"
        with_word = "changed" if check.changes_with else "unchanged"
        heading = [label(self.say("mask_off"), BODY, theme.accent)] if check.mask_off else []
        rows = VGroup(
            *heading,
            self.order_line(check.perm, content.width),
            flow(
                [
                    label(self.say("without_pe"), BODY, theme.text),
                    self.num(
                        check.diff_without,
                        ("shuffle_diff", "without"),
                        3,
                        size=BODY,
                        color=theme.text,
                    ),
                    label(self.say(without_word), BODY, theme.text),
                ],
                content.width,
            ),
            flow(
                [
                    label(self.say("with_pe"), BODY, theme.text),
                    self.num(
                        check.diff_with, ("shuffle_diff", "with"), 3, size=BODY, color=theme.accent
                    ),
                    label(self.say(with_word), BODY, theme.accent),
                ],
                content.width,
            ),
        )
        bars = self.difference_bars(check, 0.8 * content.width)
        *top, without, with_pe = rows
        VGroup(*top, without, bars[1], with_pe, bars[2]).arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        for bar in bars[1:]:  # each bar's zero: a short upright line at its start
            zero = Line(bar.get_corner(UL) + 0.08 * UP, bar.get_corner(DL) + 0.08 * DOWN)
            bars[0].add(zero.set_stroke(self.theme.text, width=2))
        place(VGroup(rows, bars), content)
        self.play(FadeIn(rows, lag_ratio=0.3), run_time=1.5)
        self.play(Create(bars[0]), *(GrowFromEdge(b, LEFT) for b in bars[1:]), run_time=0.8)
        self.hold(1.8)

    def order_line(self, perm, width: float):
        """The two orders, or where they do not fit ``width`` (20-odd tokens) "the tokens in
        reverse order" and where the followed query and key go, each in its colour:
        "explanations 24 → 1   notes 12 → 13" (the last still keeps the story, issue 38)."""
        theme, tokens = self.theme, self.q_tokens
        line = f"{' '.join(tokens)}  →  {' '.join(tokens[p] for p in perm)}"
        if text_width(line, BODY) <= width - 0.5:
            return label(line, BODY, theme.text)
        pair, moved = ac.followed_pair(self.trace), []
        for i in dict.fromkeys((pair.query, pair.key)):  # each token with its move, unbroken
            to = list(perm).index(i)
            where = label(f"{i + 1} → {to + 1}", BODY, theme.text)
            moved.append(VGroup(label(tokens[i], BODY, self.q_color(i)), where).arrange(buff=0.15))
        colon = "：" if self.lang == "zh" else ":"
        return flow([label(self.say("reversed") + colon, BODY, theme.text), *moved], width)

    def difference_bars(self, check, full: float) -> VGroup:
        """The two largest differences as bars of ``full`` width at most, from one zero line
        (the last frame a lecturer pastes holds a picture): without PE (often nothing) and with
        it. Returns (zero lines, without, with): the bars to be placed, then their zeros."""
        theme = self.theme
        diffs = (check.diff_without, check.diff_with)
        top = max(max(diffs), 1e-12)
        bars = VGroup(VGroup())  # the zero lines, drawn once the bars are placed
        for diff, color in zip(diffs, (theme.muted, theme.accent)):
            bar = Rectangle(width=max(full * diff / top, 1e-3), height=0.22, stroke_width=0)
            bars.add(bar.set_fill(color, opacity=0.9))
        return bars

    def _dot(self, point, color):
        from manim import Dot

        return Dot(point, radius=0.06, color=color)
