"""Scaling: ÷√d_k on the numbers, and why: q·k of random vectors has variance ≈ d, drawn on one
shared, ticked axis before and after; then one d = 64 row through softmax, unscaled and scaled."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Create,
    Line,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.kit.roles import HeadRole
from scenes.mobjects.bars import histogram, score_row_panel
from scenes.mobjects.blocked import blocked_look
from scenes.mobjects.elision import elided_sequence
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import Box, place
from scenes.mobjects.math import math
from scenes.mobjects.plane import nice_step
from scenes.mobjects.text import label
from scenes.mobjects.theme import BODY, SMALL

KINDS = ("scores", "scaled")  # the two matrices: before and after ÷√d_k
BINS = 24  # per histogram, over its own range: the scaled ones get bins of their own


def shared_axis(reach: float, x0: float, x1: float, y: float, theme) -> tuple[VGroup, callable]:
    """A horizontal axis from −reach to +reach between screen x0 and x1 at height y, with ticks
    at a nice step; returns (the axis, value → screen x)."""

    def to_x(v: float) -> float:
        return x0 + (v + reach) / (2 * reach) * (x1 - x0)

    step = nice_step(2 * reach)
    line = Line([x0, y, 0], [x1, y, 0], color=theme.axis, stroke_width=2)
    ticks = VGroup()
    for v in np.arange(-np.floor(reach / step) * step, reach + 1e-9, step):
        x = to_x(float(v))
        mark = Line([x, y, 0], [x, y - 0.1, 0], color=theme.axis, stroke_width=2)
        text = label(f"{v:g}".replace("-", "−"), SMALL, theme.muted).next_to(mark, DOWN, 0.06)
        ticks.add(VGroup(mark, text))
    return VGroup(line, ticks), to_x


def adjacent_runs(cols, shown) -> list[list[int]]:
    """``cols`` (sorted) in runs of columns side by side in a matrix showing ``shown``: one
    frame a run frames only the cells the caption names, never across an elided gap (a
    review: one frame ran over the "…" between columns 11 and 23)."""
    runs: list[list[int]] = []
    for j in cols:
        prev = runs[-1][-1] if runs else None
        if prev is not None and j == prev + 1 and shown.index(j) == shown.index(prev) + 1:
            runs[-1].append(j)
        else:
            runs.append([j])
    return runs


def slots_of(shown, count: int) -> int:
    """The slots an elided run of ``count`` rows (or columns) showing ``shown`` takes: one a
    row, one an ellipsis (:func:`scenes.mobjects.elision.elide`)."""
    gaps = sum(1 for a, b in zip([-1, *shown], shown) if b != a + 1)
    return len(shown) + gaps + (bool(shown) and shown[-1] != count - 1)


def packed(count: int, slots: int, wanted, last: bool = True) -> list[int]:
    """The most of ``wanted`` that fit ``slots`` with their ellipses, in its order, one that does
    not fit passed over for the next (issue 38: the cast's fifth, two slots from the others,
    kept its sixth, the neighbour of one kept, out; "chef" took the spare slot); ``last``: the
    last one shown whether wanted or not (:func:`scenes.mobjects.elision.elide`)."""
    keep: list[int] = []
    for k in dict.fromkeys(wanted):
        if elided_sequence(count, slots, [*keep, k], last) is not None:
            keep.append(k)
    return keep


class Scaling(ExplainerScene):
    """Divide the scores by √d_k, then see why: the variance of q·k grows with d."""

    explains_one_head = False

    def construct(self):
        self.divide()
        self.variance()
        self.saturation()
        self.back_to_pair()  # the last still keeps the story (issue 38): the pair, divided

    # -- ÷√d_k on this example's scores ----------------------------------------------------------
    def divide(self):
        head, h, accent = self.head, self.h, self.theme.accent
        sqrt = self.num(np.sqrt(head.d_k), HeadRole("sqrt_dk", h), size=BODY, color=accent)
        # the row the caption reads: the query DotProducts and Softmax follow (both matrices
        # keep it), and its first four cells on screen (a 12-token matrix shows some columns)
        choice = self.followed_query()
        self.row = row = choice.row
        pair = ac.followed_pair(self.trace)  # the key a trained or asked head's pair names
        self.pair_key = [pair.key] if choice.kind in ("followed", "asked") else []
        shown = self.division_layout(sqrt)
        raw, scaled = shown["raw"], shown["scaled"]
        # the cast's keys both matrices show, the followed pair's first (issue 38: among 22
        # tokens the first shown columns framed "chef" and "tasted", no part of the story)
        framed_in = (raw, scaled) if shown["side_by_side"] else (scaled,)  # in place: scaled
        cols = [j for j in self.story_keys() if all(j in m.shown_columns for m in framed_in)]
        if head.mask is not None:  # the keys the row may see (a blocked score is moot)
            seen = [j for j in cols if head.mask[row, j]]
            cols = seen or cols
        cols = sorted(cols[:4])
        self.framed = [(row, j) for j in cols]  # the cells the caption reads and the frames mark
        # the scores a mask will block, in its look before it is taught (a review: a framed 7.1
        # read beside a blocked 7.7 in the same row, nothing to tell them apart); said once
        shown["blocked"] = [blocked_look(m, head.mask, self.theme) for m in (raw, scaled)]
        self.division = shown
        key = "divide" if shown["side_by_side"] else "divide_in_place"
        fmt_row = self.say("tokens_list_sep").join
        self.step(
            "divide",
            f"{key}_masked" if len(shown["blocked"][1]) else key,
            sqrt=sqrt.shown,
            q=self.q_tokens[row],
            raw=fmt_row(
                self.num(head.scores[row, j], HeadRole("scores", h, row, j), raw.style.digits).shown
                for j in cols
            ),
            scaled=fmt_row(
                self.num(
                    head.scaled[row, j], HeadRole("scaled", h, row, j), scaled.style.digits
                ).shown
                for j in cols
            ),
        )
        self.show_division(**shown)
        marks = [
            SurroundingRectangle(
                VGroup(*(m.cell_rect(row, j) for j in run)),
                color=self.theme.accent,
                buff=0.04,
                stroke_width=3,
            )
            for m in framed_in
            for run in adjacent_runs(cols, m.shown_columns)  # a frame round each run of cells
        ]
        self.play(*(Create(m) for m in marks), run_time=0.6)
        self.hold()
        # the division as it stands, shown again at the end round the followed pair alone
        keep = {id(self.title_mob), id(self.caption_mob), *(id(m) for m in marks)}
        self.division_still = [m for m in self.mobjects if id(m) not in keep]
        self.scaled = scaled

    def story_keys(self) -> list[int]:
        """The keys the table keeps and frames, the followed pair's first: the cast's
        (``attention_core.story_cast``, in its order) among many tokens, else every key."""
        if len(self.cast) == self.example.n:  # every token is in the cast (or cross-attention)
            return list(dict.fromkeys([*self.pair_key, *range(self.example.n_keys)]))
        return list(dict.fromkeys([*self.pair_key, *self.cast]))

    def back_to_pair(self) -> None:
        """What the head does with its followed pair (a trained or asked head), as the last
        step: the division again, the pair's scaled score framed, and whether it is the largest
        its query may see (``attention_core.pair_row``); dividing by √d_k keeps that order. A
        made-up example's demo pair (no story to tell) is framed and named with its scaled score
        alone (issue 38: at-the-limits' last still was a random d = 64 row, no explanations →
        notes on it)."""
        pair, p, scaled = ac.followed_pair(self.trace), ac.pair_row(self.trace), self.scaled
        q, k = pair.query, pair.key
        if scaled.cell(q, k) is None:
            return
        s = self.num(self.head.scaled[q, k], HeadRole("scaled", self.h, q, k), scaled.style.digits)
        if p is None:  # a made-up example's demo row: no deed to tell; the pair and its number
            self.step(
                "pair", "pair_demo", clear=True, q=self.q_tokens[q], k=self.k_tokens[k], s=s.shown
            )
        else:
            self.pair_step_caption(p, s.shown, clear=True)
        self.play(*(FadeIn(m) for m in self.division_still), run_time=0.8)
        self.play(Create(scaled.highlight(q, k, stroke_width=6)), run_time=0.6)
        self.hold()

    def score_matrix(self, kind: str, box, title_room: float = 0.45, pack: bool = True):
        """The head's ``kind`` ("scores" or "scaled") fitted to ``box``: the followed query's
        row and the pair's key never elided, then as many of the cast's rows and columns as
        its slots hold (issue 38: "it", "soup", "that", "brought" were behind "…" at 1:1 and
        4:3, "chef" in a spare slot; ``pack=False``: the cast's first ones, for measuring);
        every row and column where all tokens are the cast."""
        ex = self.example
        cast = [] if len(self.cast) == ex.n else list(self.cast)
        kw = dict(
            row_colors=[self.q_color(i) for i in range(ex.n)],
            col_colors=[self.k_color(j) for j in range(ex.n_keys)],
            keep_rows=[self.row, *cast],
            keep_cols=self.story_keys() if cast else self.pair_key,
            title_room=title_room,
        )
        if cast:  # the last key only where the cast wants it (a slot more for the cast)
            kw["last_column"] = False
        args = (getattr(self.head, kind), (kind, self.h), self.q_tokens, self.k_tokens, box)
        m = self.kit.matrix_most(*args, **kw)
        if not cast or not pack:
            return m
        rows = packed(ex.n, slots_of(m.shown_rows, ex.n), kw["keep_rows"])
        cols = packed(ex.n_keys, slots_of(m.shown_columns, ex.n_keys), kw["keep_cols"], False)
        if set(rows) <= set(m.shown_rows) and set(cols) <= set(m.shown_columns):
            return m  # the cast's first ones were all it could hold
        more = dict(kw, keep_rows=rows, keep_cols=cols, digits=(m.style.digits,))
        return self.kit.matrix_most(*args, **more)

    def titled(self, key: str, mob, box) -> VGroup:
        """``mob`` under its title (the caption word ``key``), placed in ``box``."""
        title = self.typeset(key, SMALL, self.theme.muted)
        title.next_to(mob, UP, buff=0.15).align_to(mob, LEFT)
        return place(VGroup(title, mob), box)

    def division_layout(self, sqrt) -> dict:
        """The scores and the scaled scores, side by side where both fit whole, with ÷√d_k and
        an arrow between; else one place where the numbers will change, ÷√d_k on its title's
        line where it fits (the whole content's height: rows for the cast), else above it."""
        ex, theme, titled = self.example, self.theme, self.titled
        content = self.regions.content
        left, mid, right = content.columns(5, 2, 5, gap=0.2)

        def cells(pair):
            return min(len(m.shown_columns) * len(m.shown_rows) for m in pair)

        # side by side where both show as much as one matrix in the whole width would: the
        # numbers before and after stay on screen; else one matrix, each number changing in place
        top, body = content.rows(1, 6, gap=0.15)
        op = VGroup(math("div sqrt(d_k) =", BODY * 1.2, theme.accent), sqrt).arrange(buff=0.12)
        pair = [self.score_matrix(k, box, pack=False) for k, box in zip(KINDS, (left, right))]
        whole = cells(pair) == ex.n * ex.n_keys
        in_place, inline = None, False
        if not whole:
            room = op.height + 0.15
            in_place = [self.score_matrix(k, content, room) for k in KINDS]
            inline = self.op_on_title_line(op, titled("scaled", in_place[1], content), content)
            if not inline:
                in_place = [self.score_matrix(k, body) for k in KINDS]
        side_by_side = whole or cells(in_place) <= cells(pair)
        if side_by_side:
            if not whole:  # measured with the cast's first ones: now as many as fit
                pair = [self.score_matrix(k, box) for k, box in zip(KINDS, (left, right))]
            raw, scaled = pair
            raw_g, scaled_g = titled("scores", raw, left), titled("scaled", scaled, right)
            if op.width > mid.width:
                op = VGroup(math("div sqrt(d_k)", BODY * 1.2, theme.accent), sqrt).arrange(DOWN)
            arrow = Arrow([mid.x0, 0, 0], [mid.x1, 0, 0], color=theme.accent, buff=0.1)
            place(VGroup(op, arrow).arrange(DOWN, buff=0.2), mid)
        else:
            raw, scaled = in_place
            where = content if inline else body
            raw_g, scaled_g = titled("scores", raw, where), titled("scaled", scaled, where)
            arrow = VGroup()
            if inline:
                self.op_on_title_line(op, scaled_g, content)
            else:
                place(op, top)
        return dict(
            raw=raw,
            scaled=scaled,
            raw_g=raw_g,
            scaled_g=scaled_g,
            op=op,
            arrow=arrow,
            side_by_side=side_by_side,
        )

    @staticmethod
    def op_on_title_line(op, titled, content) -> bool:
        """Put ÷√d_k = 8.00 on the line of the matrix's title (``titled``: the title and the
        matrix), at the matrix's right or further right; False where it would touch the title
        or leave ``content``."""
        title, mob = titled
        x1 = min(content.x1, max(mob.get_right()[0], title.get_right()[0] + 0.4 + op.width))
        op.move_to([x1 - op.width / 2, title.get_center()[1], 0])
        return op.get_left()[0] >= title.get_right()[0] + 0.3 and op.get_top()[1] <= content.y1

    def show_division(self, raw, scaled, raw_g, scaled_g, op, arrow, side_by_side, blocked):
        """Each score divided by √d_k: flying into the scaled matrix, or changing in place
        (``blocked``: each matrix's diagonals over the cells a mask blocks)."""
        self.play(FadeIn(raw_g), FadeIn(blocked[0]))
        pairs = [(i, j) for (i, j) in raw.cells if scaled.cell(i, j) is not None]
        if side_by_side:
            self.play(
                FadeIn(op),
                FadeIn(arrow),
                FadeIn(scaled.frame_parts()),
                FadeIn(scaled_g[0]),
                FadeIn(blocked[1]),
            )
            self.play(
                *(TransformFromCopy(raw.cell(i, j), scaled.cell(i, j)) for i, j in pairs),
                run_time=1.5,
            )
            self.add(scaled.numbers)
        else:  # the same cells, each number divided where it stands
            self.play(FadeIn(op))
            self.play(
                ReplacementTransform(raw_g[0], scaled_g[0]),
                ReplacementTransform(blocked[0], blocked[1]),
                *(ReplacementTransform(raw.cell(i, j), scaled.cell(i, j)) for i, j in pairs),
                run_time=1.5,
            )
            self.remove(raw)
            self.add(scaled, blocked[1])  # the diagonals over the cells' opaque fill

    # -- why: the variance of q·k, before and after, on one axis -------------------------------
    def variance(self):
        res = ac.scaling_experiment()
        self.step(
            "variance",
            clear=True,
            **{
                f"v{r.d}": self.num(r.raw_variance, ("variance_raw", k), 1).shown
                for k, r in enumerate(res)
            },
        )
        axis, names, raw_hists, scaled_hists, facts_raw, facts_scaled = self.variance_lanes(res)
        self.play(FadeIn(axis), *(FadeIn(n) for n in names), run_time=0.8)
        self.play(
            *(FadeIn(h, shift=0.2 * UP) for h in raw_hists),
            *(FadeIn(f) for f in facts_raw),
            run_time=1.5,
        )
        self.hold(1.5)

        self.step(
            "scaled",
            **{
                f"s{r.d}": self.num(r.scaled_variance, ("variance_scaled", k), 2).shown
                for k, r in enumerate(res)
            },
        )
        for k in range(len(res)):  # keep each lane's baseline; only the bars squeeze
            scaled_hists[k].add_to_back(raw_hists[k][0].copy())
        self.play(
            *(ReplacementTransform(a, b) for a, b in zip(raw_hists, scaled_hists)),
            *(ReplacementTransform(a, b) for a, b in zip(facts_raw, facts_scaled)),
            run_time=2,
        )
        self.hold(1.5)

    def variance_fact(self, value, role, digits, color) -> VGroup:
        """'variance = 4.1'."""
        return VGroup(
            label(self.say("variance") + " =", SMALL, self.theme.text),
            self.num(value, role, digits, size=SMALL, color=color),
        ).arrange(buff=0.1)

    def variance_lanes(self, res):
        """One lane per d on one shared, ticked axis: its name, the histograms of q·k before
        and after ÷√d, and their variances."""
        theme, box = self.theme, self.regions.content
        names = [label(f"d = {r.d}", BODY, theme.text) for r in res]
        facts_raw = [
            self.variance_fact(r.raw_variance, ("variance_raw", k), 1, theme.muted)
            for k, r in enumerate(res)
        ]
        facts_scaled = [
            self.variance_fact(r.scaled_variance, ("variance_scaled", k), 2, theme.accent)
            for k, r in enumerate(res)
        ]
        name_w = max(n.width for n in names) + 0.25
        fact_w = max(f.width for f in facts_raw + facts_scaled) + 0.25
        x0, x1 = box.x0 + name_w, box.x1 - fact_w
        tick_room = 0.5
        rows = Box(x0, box.y0 + tick_room, x1, box.y1).rows(*([1] * len(res)), gap=0.15)
        reach = float(max(np.abs(r.raw).max() for r in res)) * 1.02
        axis, to_x = shared_axis(reach, x0, x1, box.y0 + tick_room, theme)
        raw_hists, scaled_hists = VGroup(), VGroup()
        for k, (r, lane) in enumerate(zip(res, rows)):
            for samples, color, out in (
                (r.raw, theme.muted, raw_hists),
                (r.scaled, theme.accent, scaled_hists),
            ):
                lo, hi = float(samples.min()), float(samples.max())
                edges = np.linspace(lo, hi, BINS + 1)
                h = histogram(samples, edges, to_x(hi) - to_x(lo), lane.height - 0.1, color, theme)
                h[0].set_opacity(0)  # the shared axis and the lanes' baselines are drawn once
                h.shift([to_x(lo) - h[0].get_left()[0], lane.y0 - h[0].get_y(), 0])
                out.add(h)
            base = Line([x0, lane.y0, 0], [x1, lane.y0, 0], color=theme.grid, stroke_width=1.5)
            names[k].next_to([x0, lane.y0 + 0.3, 0], LEFT, buff=0.2)
            facts_raw[k].next_to([x1, lane.y0 + 0.3, 0], RIGHT, buff=0.2)
            facts_scaled[k].move_to(facts_raw[k], aligned_edge=LEFT)
            raw_hists[k].add_to_back(base)
        return axis, names, raw_hists, scaled_hists, facts_raw, facts_scaled

    # -- one d = 64 row through softmax, unscaled and ÷√64 ---------------------------------------
    def saturation(self):
        values, heading, panel, cbar = score_row_panel(self, self.regions.content)
        self.step("softmax64", clear=True, **values)
        self.play(FadeIn(heading), FadeIn(cbar), run_time=0.6)
        raw_row, scaled_row = panel
        self.play(FadeIn(raw_row[0]), *(FadeIn(p) for p in raw_row[1]), run_time=1)
        self.play(FadeIn(raw_row[2]))
        self.play(
            FadeIn(scaled_row[0]),
            TransformFromCopy(raw_row[1], scaled_row[1]),
            run_time=1.5,
        )
        self.play(FadeIn(scaled_row[2]))
        self.hold(1.6)
