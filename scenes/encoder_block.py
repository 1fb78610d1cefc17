"""EncoderBlock: where attention sits — multi-head self-attention, the residual add (the attention
output added back to each token's vector, E + ΔE) and LayerNorm, the feed-forward network, the
second residual and LayerNorm, with the example's numbers (its own attention weights; the
feed-forward weights seeded and labelled illustrative — or, for a trained layer written with its
``block``, the model's own feed-forward, GELU, and LayerNorms: the model's own layer output).

What persists moves: X and A slide together into X + A, each row of it is normalised into H in
turn, H flows through the feed-forward network, H and F slide together, and LayerNorm gives Y.
The block needs d_model ≥ 4 (LayerNorm of a 2-D token leaves only ±1); for other examples the
scene says why it does not apply.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Create,
    Rectangle,
    TransformFromCopy,
    VGroup,
)

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.kit.registry import BY_NAME
from scenes.kit.views import plane_view_of
from scenes.mobjects.fades import FadeIn, FadeOut, Slide, carry, slide_into
from scenes.mobjects.layout import Box, box_of, place
from scenes.mobjects.math import math
from scenes.mobjects.matrix import LabelledMatrix, cells_alone_too_big
from scenes.mobjects.plane import grow
from scenes.mobjects.text import SHORT_LABEL, label, text_width
from scenes.mobjects.theme import BODY, SMALL

COMPACT = 0.08
MANY = 8  # past this many tokens the rows are elided and columns are scarce
LABEL_ROOM = 1.4  # among many, a row label's room: a long one shortened, "students" whole
FORMULA = 32  # Typst math sets small: formulas at the title size read like the labels
BAND_PAD = 0.04  # in a band: a cell's padding (the followed query's and key's rows both fit;
# the hidden layer's 16 columns, "0.0" after "0.0", keep the wider one apart)


class EncoderBlock(ExplainerScene):
    """X → A → H = LN(X + A) → F = FFN(H) → Y = LN(H + F)."""

    explains_one_head = False

    def construct(self):
        why = BY_NAME["EncoderBlock"].why_not(self.example)
        if why is not None:
            self.not_applicable()
            return
        self.encoder = ac.trace_encoder(self.example)
        ffn_slots = self.lay_out()
        self.size = self.band_size() if self.band else self.text_size(ffn_slots)
        X, A = self.show_attention()
        R, picture = self.add_attention_back(X, A)
        H = self.normalise_first(X, A, R, picture)
        F, hidden = self.feed_forward(R, H, ffn_slots)
        R2, picture = self.add_feed_forward_back(H, F, hidden)
        self.normalise_second(H, F, R2, picture)

    def lay_out(self):
        """Three slots for the matrices of a stage (``self.slots``), where E + ΔE is drawn as
        vectors (``self.picture``: wide frames, a few tokens); returns the feed-forward
        stage's slots (its hidden layer is wider)."""
        content = self.regions.content
        wide = content.width >= 12
        self.picture = None
        self.pair = None  # where a step of two matrices draws them (None: the first two slots)
        self.band = False  # the matrices in bands across the frame, each formula in its corner
        self.indent = 0.0  # in bands: the margin left of every band (the widest centred)
        self.last = None  # where the block's output is drawn (None: the pair's second box)
        if wide and self.example.n <= 5:
            top = min(2.5, 0.5 * content.height)
            upper, lower = content.rows(top, content.height - top - 0.2, gap=0.2)
            self.slots = upper.columns(1, 1, 1, gap=0.5)
            ffn_slots = upper.columns(1, 1.25, 1, gap=0.4)
            self.picture = lower.columns(1, 2, gap=0.5)[1]
        elif self.example.n > MANY:  # three bands across the frame, each matrix's formula in
            # its corner over the row labels: three slots side by side held one column of 8 at
            # 4:3 (two at 16:9) and a third of the frame stood empty (issue 38); a band holds
            # the followed query's row whole, the block's output (the last still) the key's too
            self.slots = ffn_slots = content.rows(1, 1, 1, gap=0.3)
            h, halves = self.slots[0].height / 2, content.rows(1, 1)
            self.pair = tuple(  # a step of two: a band's height, centred in each half (a matrix
                Box(b.x0, b.center[1] - h, b.x1, b.center[1] + h) for b in halves
            )  # built taller than a band would pass its band in the next step)
            self.last = halves[1]  # the block's output moves no more: the whole lower half
            self.band = True
            self.corner = math("X + A", FORMULA).width + 0.3  # a band's formula corner, least
        elif wide or self.example.n > 5:  # six to eight tokens: every row, in three slots
            self.slots = content.columns(1, 1, 1, gap=0.5)
            ffn_slots = content.columns(1, 1.25, 1, gap=0.4)
        else:  # two above, one below
            upper, lower = content.rows(1, 1, gap=0.3)
            left, right = upper.columns(1, 1, gap=0.4)
            self.slots = [left, right, lower.columns(1, 2, 1, gap=0.2)[1]]
            ffn_slots = [left, right, self.slots[2]]
        return ffn_slots

    def band_size(self) -> int:
        """In bands: the largest text size at which a band shows the followed query's row with
        every column (16:9 at the minimum size left a third of its width empty), else the
        minimum; sets ``self.indent``, the bands' margin left that centres the widest."""
        enc, pair = self.encoder, ac.followed_pair(self.trace)
        bands = (enc.X, enc.attention.output, enc.residual1, enc.norm1, enc.ff_out, enc.residual2)
        self.indent, band = 0.0, self.slots[0]
        for size in (28, 25, 22):
            self.size = size
            ms = [self.matrix(v, "probe", "X", band).matrix for v in bands]
            whole = all(
                pair.query in m.shown_rows and m.shown_columns == list(range(m.shape[1]))
                for m in ms
            )  # and the block's output keeps the followed key's row
            y = self.matrix(enc.output, "probe", "Y", self.last).matrix
            if whole and pair.key in y.shown_rows or size == 22:
                self.indent = max(0.0, (band.x1 - max(m.get_right()[0] for m in ms)) / 2)
                return size
        return 22

    def text_size(self, ffn_slots) -> int:
        """One text size for every matrix: the largest at which all fit."""
        enc, ex = self.encoder, self.example
        for size in (32, 28, 25):
            probes = (
                (enc.residual2, self.slots[0], 2),
                (enc.ff_relu, ffn_slots[1], 1),
                (enc.residual2, ffn_slots[2], 2),
            )
            if any(
                cells_alone_too_big(
                    v, size, {"digits": d, "cell_pad": COMPACT}, b.width, b.height - 0.6
                )
                for v, b, d in probes
            ):  # its cells alone overflow (a trained layer's 384 columns): nothing to build
                continue
            trial = [
                self.kit.matrix_at(
                    v,
                    (),
                    rows,
                    ["1"] * v.shape[1],
                    size=size,
                    digits=d,
                    cell_pad=COMPACT,
                )
                for v, rows, d in (
                    (enc.residual2, self.q_tokens, 2),
                    (enc.ff_relu, [""] * ex.n, 1),
                )
            ]
            room = [(self.slots[0], trial[0]), (ffn_slots[1], trial[1]), (ffn_slots[2], trial[0])]
            if all(m.width <= b.width and m.height + 0.6 <= b.height for b, m in room):
                return size
        return 22

    def show_attention(self):
        """A = MultiHead(X)."""
        enc = self.encoder
        self.step("attention")
        X = self.matrix(enc.X, "X", "X", self.slots[0])
        A = self.matrix(enc.attention.output, "attention", 'A = "MultiHead"(X)', self.slots[1])
        self.play(FadeIn(X), run_time=0.6)
        self.play(FadeIn(A.formula), run_time=0.4)
        self.play(*cells_into(X, A), run_time=1.2)
        return X, A

    def add_attention_back(self, X, A):
        """X + A: the attention output added back."""
        self.step("residual1")
        R = self.matrix(self.encoder.residual1, "residual1", "X + A", self.slots[2])
        self.add_together(X, A, R)
        picture = self.residual_picture("residual1", "E", "ΔE")
        return R, picture

    def normalise_first(self, X, A, R, picture):
        """H = LayerNorm(X + A), row by row."""
        self.step("norm1", "norm1_model" if self.own_block else None)
        self.play(FadeOut(X), FadeOut(A), FadeOut(picture), run_time=0.4)
        source, result = self.pair or self.slots[:2]
        self.slide_to(R, source)
        H = self.matrix(self.encoder.norm1, "norm1", 'H = "LayerNorm"(X + A)', result)
        self.normalise(R, H)
        return H

    @property
    def own_block(self) -> bool:
        """True for a trained layer's own feed-forward (GELU) and LayerNorms (its ``block``)."""
        return self.encoder.activation == "gelu"

    def feed_forward(self, R, H, ffn_slots):
        """F = ReLU(H W_1) W_2 (seeded), or a trained layer's own GELU(H W_1 + b_1) W_2 + b_2."""
        enc, own = self.encoder, self.own_block
        inner = '"GELU"(H W_1 + b_1)' if own else '"ReLU"(H W_1)'
        note_key = "ffn_model" if own else "ffn_seed"
        self.step("ffn", note_key if own else None, seed=ac.FFN_SEED)
        self.play(FadeOut(R), run_time=0.4)
        self.slide_to(H, ffn_slots[0])
        hidden = self.matrix(
            enc.ff_relu, "ff_relu", inner, ffn_slots[1], digits=1, labelled=self.band
        )  # in a band its row is named: no row above or beside it to read it by
        formula = f"F = {inner} W_2" + (" + b_2" if own else "")
        F = self.matrix(enc.ff_out, "ff_out", formula, ffn_slots[2])
        seed = label(self.say(note_key, seed=ac.FFN_SEED), SMALL, self.theme.muted)
        if seed.width > ffn_slots[1].width + 0.2 or self.band:  # the seed (or "own") alone
            seed = label(self.say(f"{note_key}_short", seed=ac.FFN_SEED), SMALL, self.theme.muted)
        seed.next_to(hidden, DOWN, buff=0.15).align_to(hidden, LEFT)  # the caption's seed, shown
        if self.band:  # in its band, right of the numbers: a column fewer where it needs one
            slot = ffn_slots[1]
            if hidden.get_right()[0] + 0.3 + seed.width > slot.x1:
                room = Box(slot.x0, slot.y0, slot.x1 - seed.width - 0.3, slot.y1)
                hidden = self.matrix(enc.ff_relu, "ff_relu", inner, room, digits=1)
            seed.next_to(hidden.matrix.backgrounds, RIGHT, buff=0.3)
        elif box_of(seed).y0 < ffn_slots[1].y0 - 0.3:  # the hidden layer gives it the room
            slot = ffn_slots[1]
            room = Box(slot.x0, slot.y0 + seed.height + 0.2, slot.x1, slot.y1)
            hidden = self.matrix(enc.ff_relu, "ff_relu", inner, room, digits=1, labelled=False)
            seed.next_to(hidden, DOWN, buff=0.15).align_to(hidden, LEFT)
        self.play(FadeIn(hidden.formula), FadeIn(seed), run_time=0.4)
        self.play(*cells_into(H, hidden), run_time=1.0)
        self.play(FadeIn(F.formula), run_time=0.4)
        self.play(*cells_into(hidden, F), run_time=1.0)
        self.seed_note = seed
        return F, hidden

    def add_feed_forward_back(self, H, F, hidden):
        """H + F: the feed-forward output added back."""
        self.step("residual2")
        self.play(FadeOut(hidden), FadeOut(self.seed_note), run_time=0.4)
        self.slide_to(H, self.slots[0])
        self.slide_to(F, self.slots[1])
        R2 = self.matrix(self.encoder.residual2, "residual2", "H + F", self.slots[2])
        self.add_together(H, F, R2)
        picture = self.residual_picture("residual2", "H", "F")
        return R2, picture

    def normalise_second(self, H, F, R2, picture):
        """Y = LayerNorm(H + F): the block's output."""
        trained = "norm2_trained" if self.example.source else None  # Y is not the model's
        self.step("norm2", "norm2_model" if self.own_block else trained)
        self.play(FadeOut(H), FadeOut(F), FadeOut(picture), run_time=0.4)
        source, result = self.pair or self.slots[:2]
        self.slide_to(R2, source)
        Y = self.matrix(
            self.encoder.output, "output", 'Y = "LayerNorm"(H + F)', self.last or result
        )
        self.normalise(R2, Y)
        self.hold(1.0)

    def residual_picture(self, which: str, base: str, delta: str) -> VGroup:
        """The residual as vectors for the first token: its vector, the change added at its tip
        (tip to tail), and the sum — E + ΔE — in the 2-D view of the vectors before and after."""
        if self.picture is None:
            return VGroup()
        ex, theme, i = self.example, self.theme, 0
        view = plane_view_of(self.trace, which)
        before, after = view.coords[i], view.coords[ex.n + i]
        change = after - before
        note = self.kit.view_note(view, which)
        plane_box = self.picture
        if len(note):
            plane_box, note_box = self.picture.rows(self.picture.height - 0.4, 0.3, gap=0.1)
            place(note, note_box, "left")
        plane = self.kit.plane(np.vstack([before, after]), plane_box, ticks=False)
        t = self.q_tokens[i]
        e = plane.arrow(before, self.q_color(i))
        d = plane.arrow(change, theme.output, start=before)
        total = plane.arrow(after, theme.accent, stroke_width=6)
        labels = plane.tip_labels(
            [before, before + change / 2, after],
            [f"{base}({t})", delta, f"{base} + {delta}"],
            [self.q_color(i), theme.output, theme.accent],
            plane_box,
        )
        self.play(Create(plane.plane), FadeIn(note), run_time=0.5)
        self.play(grow(e), run_time=0.5)
        self.play(grow(d), run_time=0.6)
        self.play(grow(total), FadeIn(labels), run_time=0.6)
        return VGroup(plane.plane, note, e, d, total, labels)

    # -- pieces ----------------------------------------------------------------------------------
    def not_applicable(self):
        ex = self.example
        key = "cross" if ex.is_cross else "narrow" if ex.d_model < 4 else "own_wo"
        self.step(key, d=ex.d_model)
        note = self.typeset("enc_" + key, BODY, self.theme.muted, d=ex.d_model)
        if note.width > self.regions.content.width:
            note.scale_to_fit_width(self.regions.content.width)
        place(note, self.regions.content)
        self.play(FadeIn(note), run_time=0.6)

    def row_texts(self, room: float) -> list[str]:
        """The row labels in ``room``: the tokens (a long one shortened), or, where a label of
        8 characters or fewer, or the followed pair's, has no room (a narrow frame), each
        token's index (#1, #2 … in its colour), never a short or followed label shortened."""
        tokens, whole = self.q_tokens, self.kit.followed_labels()
        if self.band:  # among many, the followed pair's whole (issue 38: "#24" for them)
            room = max([room, *(text_width(t, 22) for t in whole if t in tokens)])
        fits = [text_width(t, 22) <= room for t in tokens]
        if all(ok or (len(t) > SHORT_LABEL and t not in whole) for t, ok in zip(tokens, fits)):
            return [self.kit.fit_label(t, room, 22) for t in tokens]
        return [f"#{i + 1}" for i in range(len(tokens))]

    def matrix(self, values, name, formula, box: Box, digits=2, labelled=True):
        """The encoder trace's ``name`` as a matrix in ``box``, its formula typeset above (in a
        band, in the corner over its row labels)."""
        ex = self.example
        title = self.formula_title(formula, box)
        # a narrow slot keeps one column of numbers beside its labels (shortened to fit); among
        # many tokens a long label (not the followed pair's) shortened before a column is lost,
        # and a decimal less where it shows more columns (issue 38: 1 of 8 columns at 16:9,
        # each slot a third empty)
        room = max(0.8, box.width - 1.45)  # a column, its "…" and the gaps beside the labels
        many = ex.n > MANY
        rows = self.row_texts(min(room, LABEL_ROOM) if many else room) if labelled else [""] * ex.n
        grid, corner = box, 0.0
        if self.band:  # the formula in the corner over the row labels, as wide as "X + A" at
            # least: the matrices' columns line up band under band
            labels = max((text_width(t, self.size) for t in rows if t), default=0.0) + 0.2
            corner = max(labels, self.corner)
            grid = Box(box.x0 + self.indent + corner - labels, box.y0, box.x1, box.y1)
        best = None
        for d in (digits, 1) if many and digits > 1 else (digits,):
            m = self.kit.matrix(
                values,
                ("enc", name),
                rows,
                [str(j + 1) for j in range(values.shape[1])],
                grid,
                sizes=(self.size,) if self.band else (self.size, 22),
                title_room=0.0 if self.band else 0.6,
                digits=d,
                row_colors=[self.q_color(i) for i in range(ex.n)],
                cell_pad=BAND_PAD if self.band and values.shape[1] == ex.d_model else COMPACT,
                keep_rows=ac.story_cast(self.trace),  # 20-odd rows: the story's, the rest elided
            )
            if best is None or len(m.shown_columns) > len(best.shown_columns):
                best = m
        m = best
        if self.band:
            place(m, grid, "left")
            if title.width > corner - 0.15:
                title.scale_to_fit_width(corner - 0.15)
            x = box.x0 + self.indent + title.width / 2
            title.move_to([x, m.col_labels.get_center()[1], 0])
            group = VGroup(title, m)
        else:
            title.next_to(m, UP, buff=0.15).align_to(m, [-1, 0, 0])
            group = VGroup(title, m)
            place(group, box, "center")
        group.matrix, group.formula, group.numbers = m, title, m.numbers
        group.frame = m.frame_parts()
        return group

    def formula_title(self, formula: str, box: Box):
        """``formula`` typeset, or its name alone where it is much wider than its room (the
        caption has the formula), not a formula shrunk to a fraction of the others' size."""
        title = math(formula, FORMULA, self.theme.text)
        if "=" in formula and (self.band or title.width > 1.6 * box.width):  # (in a band: the
            title = math(formula.split("=")[0].strip(), FORMULA, self.theme.text)  # corner's)
        if title.width > box.width:
            title.scale_to_fit_width(box.width)
        return title

    def slide_to(self, group, box: Box):
        """Move a matrix (with its formula) to ``box``: the result of one stage feeds the next."""
        if self.band:  # its left edge (its formula's) at the bands' margin: columns line up
            box = Box(box.x0 + self.indent, box.y0, box.x1, box.y1)
        self.play(slide_into(group, box, "left" if self.band else "center"), run_time=0.8)

    def add_together(self, a, b, total):
        """``a`` and ``b`` slide together, cell onto cell, into ``total``."""
        self.play(FadeIn(total.frame), FadeIn(total.formula), run_time=0.4)
        moves = []
        ma, mb, mt = a.matrix, b.matrix, total.matrix
        for i, j in mt.shown_cells:
            cell = mt.mark(i, j)
            parts = [p for p in (ma.mark(i, j), mb.mark(i, j)) if p is not None]
            if parts:  # the two numbers slide onto their sum
                moves += [Slide(p.copy(), cell.get_center(), remover=True) for p in parts]
            moves.append(FadeIn(cell))
        self.play(*moves, run_time=1.4)

    def normalise(self, source, result):
        """LayerNorm row by row: each row of ``source`` lit, then carried into ``result``."""
        self.play(FadeIn(result.frame), FadeIn(result.formula), run_time=0.4)
        ms, mr = source.matrix, result.matrix
        rows, lights = [], []
        for i in mr.shown_rows:
            target = mr.row_group(i)
            if i not in ms.shown_rows:
                rows.append(FadeIn(target))
                continue
            light = _row_light(ms, i, self.theme)
            lights.append(light)
            rows.append(
                AnimationGroup(
                    FadeIn(light), AnimationGroup(*carry(ms.row_group(i), target)), lag_ratio=0.4
                )
            )
        self.play(AnimationGroup(*rows, lag_ratio=0.7), run_time=min(3.0, 0.7 * len(rows) + 0.6))
        if lights:
            self.play(*(FadeOut(x) for x in lights), run_time=0.3)


def cells_into(a, b) -> list:
    """Matrix ``a``'s cells move (and stretch, for a layer of another width: H into the
    feed-forward's hidden layer, and back) into matrix ``b``'s, and ``b``'s numbers appear in
    them. The cells are
    four-sided shapes, cheap to align; the numbers never go through a Transform."""
    m = b.matrix
    return [
        TransformFromCopy(a.matrix.backgrounds, m.backgrounds),
        FadeIn(VGroup(m.row_labels, m.col_labels, m.ellipses, m.colorbar), b.numbers),
    ]


def _row_light(m: LabelledMatrix, i: int, theme) -> Rectangle:
    boxes = [box_of(r) for r in m.backgrounds if r.cell_index[0] == i]
    x0, y0 = min(b.x0 for b in boxes), min(b.y0 for b in boxes)
    x1, y1 = max(b.x1 for b in boxes), max(b.y1 for b in boxes)
    rect = Rectangle(width=x1 - x0 + 0.08, height=y1 - y0 + 0.08, stroke_color=theme.accent)
    rect.set_stroke(width=3)
    rect.move_to([(x0 + x1) / 2, (y0 + y1) / 2, 0])
    return rect
