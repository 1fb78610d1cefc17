"""Softmax: exp of each scaled score, the bars squeezed into the proportions of one whole, row by
row; then the same scores sharper (unscaled, multiplied) with Σ s(1 − s), and one d = 64 row
where scaling decides whether softmax saturates.

Masks are taught later (CausalMask): a made-up example's row is one the mask leaves whole, and
where a mask blocks keys, the rows step shows every row as attention uses it (blocked keys: no
share). A followed row the mask cuts (a trained causal head's) is shown as the head computes it,
masked, in every step: its blocked keys' scores are −∞ and get no share."""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, GrowFromEdge, Rectangle, ReplacementTransform, VGroup

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.mobjects.bars import anchored_row, leader_lines, masked_marker, score_row_panel
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import MARGIN, Box, box_of, flow, place
from scenes.mobjects.math import math
from scenes.mobjects.text import Num, ellipsize, label
from scenes.mobjects.theme import BODY, SMALL

EXP_PLAIN_LIMIT = 30.0  # beyond this, show e^(s − max s): the same proportions, no overflow
EXP_PLAIN_MAX = 1e5  # e^s from here on prints as 1.58e+11: show e^(s − max s) instead
GHOST_OPACITY = 0.3  # the e^s bars, once they have made the shares: still there, quiet
MIN_ROW = 0.22  # the least height of a row of the rows step (24 in one column were slivers)
COLUMN_GAP = 0.5  # between the columns of rows, where one column does not hold them all


def row_columns(n: int, height: float) -> tuple[int, float]:
    """(columns, row height) for ``n`` rows of shares in ``height``: one column where each row
    keeps at least :data:`MIN_ROW`, else as few columns side by side as let it (at most 3)."""
    for cols in (1, 2, 3):
        row_h = min(0.55, height / max(-(-n // cols), 1) - 0.15)
        if row_h >= MIN_ROW:
            break
    return cols, row_h


def sharpen_factors(d_k: int) -> list[tuple[str, float]]:
    """The multipliers of the side panel: scaled (×1), unscaled (×√d_k), then ×10 and ×100."""
    out = [("×1", 1.0)]
    if d_k > 1:
        out.append(("√d_k", float(np.sqrt(d_k))))
    out += [("×10", 10.0), ("×100", 100.0)]
    return out


class Softmax(ExplainerScene):
    """Scores become shares of one whole; sharper scores saturate."""

    def construct(self):
        head = self.head
        # the row shown before any mask: one that sees every key where there is one
        self.choice = ac.followed_choice(self.trace, before_mask=True)
        self.i = self.choice.row
        self.masked = bool(np.any(np.isneginf(head.masked)))
        # the row as the head computes it: masked where the mask cuts it (its weights are then
        # the head's, as every other scene shows them), else the scaled scores (no mask yet)
        self.cut = self.masked and self.choice.blocked > 0
        self.row = head.masked[self.i] if self.cut else head.scaled[self.i]
        self.sfx = "" if self.cut else "_scaled"  # the roles of that row: exp, sharpened, …
        self.keys = list(range(self.example.n_keys))
        self.colors = [self.k_color(j) for j in self.keys]
        # the keys labelled on their bars: every one, or (many keys) the followed key and the
        # keys the caption names, the core's choice; a blocked key gets the masked marker
        pair = ac.followed_pair(self.trace)
        key = pair.key if self.choice.kind in ("followed", "asked") else None
        self.labelled = ac.labelled_keys(ac.softmax(self.row), key)
        self.every_label = len(self.labelled.keys) == len(self.keys)
        self.exp_and_share()
        self.all_rows()
        self.sharper()
        self.row64()

    def exp_and_share(self):
        left = self.regions.content  # the whole width: the side panel comes later
        row = self.row
        # many keys: the share bar gets the room for every key's weight listed under it
        need = 1.0 + flow(self.weight_pairs(ac.softmax(row)), left.width, 0.3, 0.08).height
        for ratio in ((3, 2), (3, 2.4), (1, 1), (2, 3)):
            bars_box, shares_box = left.rows(*ratio, gap=0.3)
            if len(self.keys) <= 8 or not self.every_label or shares_box.height >= need:
                break
        bars, exp_labels = self.exponentials(row, left, bars_box, shares_box)
        self.shares(row, bars, exp_labels, shares_box)

    def exponentials(self, row, left: Box, bars_box: Box, shares_box: Box):
        """exp bars: one column per key, its score under it and e^s over it (the numbers left
        out where they would crowd). Returns the bars and what gives way to the shares: their
        e^s labels (and the note on e^(s − max))."""
        i, kind = self.i, self.choice.kind
        # e^s itself where its numbers stay short, else e^(s − max): the same proportions
        finite = row[np.isfinite(row)]  # a masked row's blocked keys are −∞: e^−∞ = 0
        top_s = float(np.max(finite))
        widest = Num(float(np.exp(top_s)), (), 2, SMALL).width if top_s < 30 else 9.9
        slot = bars_box.inset(0.1, 0.0).width / len(self.keys)  # as exp_columns lays them
        plain = (
            float(np.max(np.abs(finite))) <= EXP_PLAIN_LIMIT
            and float(np.exp(top_s)) < EXP_PLAIN_MAX  # every e^s readable, without an exponent
            and widest <= slot - 0.05
        )
        w = ac.softmax(row)
        top = int(np.argmax(w))
        claim = ac.exp_claim(row, i)  # what e^s gives each key: blocked keys get exactly 0
        self.step(
            "exp",
            caption_key="exp" if kind == "only" else f"exp_{kind}",
            q=self.q_tokens[i],
            does=self.head_does(self.choice),  # what the head does, as AttentionMatrix says
            top=self.num(w[top], (f"sharpened{self.sfx}", self.h, i, 1.0, top), 3).shown,
            alike=f"{ac.readings.claims.ALIKE:.2f}",
            shares=self.say(
                f"exp_shares_{claim.kind}{one(claim.blocked, claim.kind)}", n=claim.blocked
            ),
        )
        values = list(ac.exponentials(row, shift=not plain))
        bars, score_labels, exp_labels, key_labels = self.exp_columns(
            row, values, bars_box, ("exp_plain" if plain else "exp") + self.sfx
        )
        q = self.kit.fit_label(self.q_tokens[i], 2.5, BODY)
        head_txt = VGroup(
            label(f"q({q}):", BODY, self.q_color(i)),
            math("e^s" if plain else "e^(s - max)", BODY * 1.4, self.q_color(i)),
        ).arrange(buff=0.15)
        # shifted: say why (the largest score subtracted first, as softmax is computed), in the
        # room the shares take next
        note = VGroup()
        if not plain:
            note = self.typeset_lines("exp_shifted", SMALL, self.theme.muted, shares_box.width)
        blocked = claim.blocked
        masked = self.say(f"exp_masked_{claim.kind}{one(blocked)}", n=blocked) if blocked else ""
        notes = [*([note] if len(note) else []), self.key_notes(masked, shares_box.width)]
        note = VGroup(*(n for n in notes if len(n))).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        if len(note):
            place(note, shares_box, "top-left")
        self.exp_head = place(
            head_txt, Box(left.x0, bars_box.y1 - 0.45, left.x1, bars_box.y1), "left"
        )
        self.play(FadeIn(head_txt), FadeIn(key_labels), FadeIn(score_labels))
        self.play(*(GrowFromEdge(b, DOWN) for b in bars), FadeIn(exp_labels), run_time=1.2)
        self.play_all([FadeIn(note)] if len(note) else [], run_time=0.5)
        self.hold()
        # both give way to the shares; so do the few keys' labels, which the shares' replace
        gone = VGroup(exp_labels, note, *([] if self.every_label else [key_labels]))
        return bars, gone

    def exp_columns(self, row, values, bars_box: Box, exp_role: str):
        """(bars, score labels, e^s labels, key labels), one column per key: a blocked key's
        column holds the masked marker, not a bar (its e^s is 0). Every key labelled under
        its bar where the labels fit (wider ones on staggered rows), else the keys the core
        labels (:func:`attention_core.labelled_keys`) in one row, each under its own bar or
        led to it by a line; the numbers left out only where they would crowd."""
        theme, i = self.theme, self.i
        top = max(values) or 1.0
        plot = bars_box.inset(0.1, 0.0)
        slot = plot.width / len(self.keys)
        bar_w = min(0.9, slot * 0.6)
        stagger = any(label(t, SMALL).width >= slot - 0.05 for t in self.k_tokens)
        tiers = (self.label_tiers(slot) if stagger else 1) if self.every_label else 1
        lift = 0.35 * (tiers - 1) + (0.0 if self.every_label else 0.2)  # leaders' room
        score_labels = VGroup(
            *(
                self.num(
                    row[j], ("masked" if self.cut else "scaled", self.h, i, j), 2, color=theme.muted
                )
                for j in self.keys
            )
        )
        exp_labels = VGroup(
            *(
                self.num(v, (exp_role, self.h, i, j), 2, color=theme.text)
                for j, v in enumerate(values)
            )
        )
        crowded = any(lab.width > slot - 0.05 for lab in [*exp_labels, *score_labels])
        if crowded:  # many keys: numbers live in the share bar and the caption instead
            score_labels, exp_labels = VGroup(), VGroup()
        numbers = 0.0 if crowded else 0.35  # a row of scores under the bars, e^s over them
        base_y = plot.y0 + 0.4 + lift + numbers
        room = plot.height - 0.85 - lift - 2 * numbers  # less the keys and the heading
        bars = VGroup()
        for j, (v, c) in enumerate(zip(values, self.colors)):
            x = plot.x0 + (j + 0.5) * slot
            if np.isneginf(row[j]):  # blocked: the mask's marker, never a bar
                bar = masked_marker(bar_w, min(0.25, max(room, 0.1)), theme)
                bar.move_to([x, base_y + bar.height / 2, 0])
            else:
                h = max(room * v / top, 0.02)
                bar = Rectangle(
                    width=bar_w, height=h, fill_color=c, fill_opacity=0.9, stroke_width=0
                ).move_to([x, base_y + h / 2, 0])
            bars.add(bar)
            if not crowded:
                score_labels[j].move_to([x, plot.y0 + 0.5 + lift, 0])
                exp_labels[j].next_to(bar, UP, buff=0.08)
        key_labels = self.key_labels_under(plot, slot, tiers, base_y)
        self.marks = dict(enumerate(bars))  # what each key's label names (tests check it)
        return bars, score_labels, exp_labels, key_labels

    def key_labels_under(self, plot: Box, slot: float, tiers: int, base_y: float) -> VGroup:
        """The key labels under the bars: every one (staggered on ``tiers`` rows, shortened to
        their room), or the core's few in one row, each on its bar or led to it."""
        xs = [plot.x0 + (j + 0.5) * slot for j in self.keys]
        y = plot.y0 + 0.15
        if not self.every_label:
            keys = self.labelled.keys
            labs = [label(self.k_tokens[j], SMALL, self.colors[j]) for j in keys]
            for j, lab in zip(keys, labs):
                lab.key_index = j
            anchored_row(labs, [xs[j] for j in keys], y, plot.x0, plot.x1)
            lines = leader_lines(
                labs, [(xs[j], base_y) for j in keys], [self.colors[j] for j in keys]
            )
            return VGroup(*labs, lines)
        key_labels = VGroup()
        for j, c in enumerate(self.colors):
            text = self.k_tokens[j]
            if tiers > 1:
                text = self.kit.fit_label(text, tiers * slot - 0.1, SMALL)
            k_lab = label(text, SMALL, c).move_to([xs[j], y + 0.35 * (j % tiers), 0])
            # the first and last labels stay inside the plot (a long one at the edge was cut)
            k_lab.shift(RIGHT * max(0.0, plot.x0 - k_lab.get_left()[0]))
            k_lab.shift(LEFT * max(0.0, k_lab.get_right()[0] - plot.x1))
            key_labels.add(k_lab)
        return key_labels

    def key_notes(self, masked: str, width: float) -> VGroup:
        """What the picture of the row's keys leaves to words, muted, on one line of ``width``
        where they fit: ``masked`` (how many keys the mask blocks, where it does) and how many
        keys are left unlabelled."""
        out = [label(masked, SMALL, self.theme.muted)] if masked else []
        left = self.labelled.unlabelled
        if left and not self.every_label:
            key = "keys_unlabelled" if left > 1 else "keys_unlabelled_one"
            out.append(label(self.say(key, n=left), SMALL, self.theme.muted))
        return flow(out, width, hbuff=0.4, vbuff=0.08) if out else VGroup()

    def label_tiers(self, slot: float) -> int:
        """How many staggered rows the key labels under the bars take (two, or up to four
        where a short label, never shortened, is wider than two columns: 24 keys at 1:1), so
        that no two labels of one row meet."""
        for tiers in (2, 3, 4):
            fits = all(
                label(self.kit.fit_label(t, tiers * slot - 0.1, SMALL), SMALL).width
                <= tiers * slot - 0.05
                for t in self.k_tokens
            )
            if fits:
                return tiers
        return 4

    def shares(self, row, bars, exp_labels, shares_box: Box):
        """The e^s bars squeeze into the shares of one whole."""
        theme, i, keys = self.theme, self.i, self.keys
        w = ac.softmax(row)
        # a row that sees every key has the same weights with the mask: nothing to say
        key = "share_masked" if self.cut else "share"
        named = ac.named_weights(w)  # many keys: the caption names the largest few
        role = f"sharpened{self.sfx}"
        shown = [self.num(w[j], (role, self.h, i, 1.0, j), 3).shown for j in named.keys]
        if named.kind == "largest":  # "trophy 0.563": which key each weight is
            shown = [
                self.say("key_weight", k=self.k_tokens[j], w=n) for j, n in zip(named.keys, shown)
            ]
        self.step(
            "share",
            caption_key=key if named.kind == "all" else f"{key}_largest",
            q=self.q_tokens[i],
            weights=self.token_list(shown),  # a label quoted where punctuation, with its number
        )
        bar = self.kit.proportion_bar(
            w,
            self.colors,
            shares_box.width - 1.0,
            roles=[(f"sharpened{self.sfx}", self.h, i, 1.0, j) for j in keys],
            show_numbers=self.every_label,
        )
        total = VGroup(label("= 1", BODY, theme.text))
        # the core's few keys are labelled over (and under) their segments: room over the bar
        over = 0.0 if self.every_label else 0.45
        room = Box(shares_box.x0, shares_box.y0, shares_box.x1, shares_box.y1 - over)
        place(VGroup(bar, total).arrange(RIGHT, buff=0.2), room, "top")
        if not self.every_label:
            bar.numbers = self.segment_labels(w, bar, shares_box)
        listed = self.weights_list(w, bar, shares_box) if self.every_label else VGroup()
        note = VGroup()
        if len(listed):  # the list is the numbers: the bar keeps none of its own
            bar.remove(bar.numbers)
            bar.numbers = listed
        elif len(keys) > 1 and float(np.max(w)) > 1 - 1e-6:  # huge scores: say so, plainly
            note = label(
                ellipsize(self.say("saturated"), shares_box.width, SMALL), SMALL, theme.accent
            )
            note.next_to(bar, DOWN, buff=0.25).align_to(bar, LEFT)
        # each e^s bar squeezes into its share and stays, faint, above it (no blank half)
        heading = self.shares_heading()
        self.play(
            *(ReplacementTransform(bars[j].copy(), bar.parts[j]) for j in keys),
            *(b.animate.set_opacity(GHOST_OPACITY) for b in bars),
            FadeOut(exp_labels),
            FadeIn(bar.outline),
            ReplacementTransform(self.exp_head, heading),
            run_time=1.5,
        )
        self.play(FadeIn(bar.numbers), FadeIn(total), FadeIn(note))
        self.hold()

    def shares_heading(self) -> VGroup:
        """q(she): e^s / Σ e^s, in the place of the e^s heading: what the bar now shows."""
        shares = math("e^s \\/ inline(sum e^s)", BODY * 1.4, self.q_color(self.i))
        new = VGroup(self.exp_head[0].copy(), shares).arrange(buff=0.15)
        return new.align_to(self.exp_head, LEFT).align_to(self.exp_head, UP)

    def segment_labels(self, w, bar, shares_box: Box) -> VGroup:
        """ "trophy 0.563" for each key the core labels, over its segment of the bar (or under
        it, where one row over it is too narrow), led to its segment by a line where it has to
        move; under them, how many keys are masked and how many left unlabelled."""
        keys = self.labelled.keys
        pairs = self.weight_pairs(w)
        labs = [pairs[j] for j in keys]
        for j, lab in zip(keys, labs):
            lab.key_index = j
        self.marks = dict(enumerate(bar.parts))
        xs = [bar.parts[j].get_center()[0] for j in keys]
        x0, x1 = shares_box.x0, shares_box.x1
        top, bottom = bar.outline.get_top()[1], bar.outline.get_bottom()[1]
        over = list(range(len(keys)))
        if anchored_row(labs, xs, top + 0.3, x0, x1) is False:  # two rows: over and under
            by_x = sorted(over, key=lambda k: xs[k])
            over, under = by_x[::2], by_x[1::2]
            anchored_row([labs[k] for k in over], [xs[k] for k in over], top + 0.3, x0, x1)
            anchored_row([labs[k] for k in under], [xs[k] for k in under], bottom - 0.3, x0, x1)
        anchors = [(x, top if k in over else bottom) for k, x in enumerate(xs)]
        # a label over its own segment needs no line: one moved off it does
        tol = [max(0.08, bar.parts[j].width / 2 - 0.05) for j in keys]
        lines = leader_lines(labs, anchors, [self.colors[j] for j in keys], tol=tol)
        blocked = self.labelled.blocked if self.cut else 0
        masked = self.say(f"share_masked_keys{one(blocked)}", n=blocked) if blocked else ""
        notes = self.key_notes(masked, shares_box.width)
        out = VGroup(*labs, lines)
        if len(notes):
            notes.next_to(VGroup(bar.outline, *labs), DOWN, buff=0.2).align_to(bar, LEFT)
            out.add(notes)
        return out

    def weights_list(self, w, bar, shares_box: Box) -> VGroup:
        """Where the bar's parts are too narrow for some of their numbers (many keys): every
        key's weight listed under the bar, "when 0.001  students 0.000 …", each key in its
        colour — the numbers the caption names, all on screen. Empty when the bar holds them
        all, or the list does not fit below it."""
        if len(bar.numbers) == len(self.keys):
            return VGroup()
        listed = flow(self.weight_pairs(w), shares_box.width, hbuff=0.3, vbuff=0.08)
        listed.next_to(bar.outline, DOWN, buff=0.2).align_to(bar, LEFT)  # in its numbers' place
        if box_of(listed).y0 < shares_box.y0 - 1e-6 or listed.width > shares_box.width + 1e-6:
            return VGroup()
        return listed

    def rows_and_side(self):
        """The boxes of every row's bar and of the sharper panel beside them; in a narrow
        frame both the whole content, one step after the other (beside the rows, the panel's
        bars would be stubs)."""
        content = self.regions.content
        if self.narrow_frame:
            return content, content
        return content.columns(3, 2, gap=0.5)

    @property
    def narrow_frame(self) -> bool:
        content = self.regions.content
        return content.width < 2.2 * content.height  # 4:3 and 1:1

    def weight_pairs(self, w) -> list:
        """ "when 0.001": each key, in its colour, with its weight."""
        return [
            VGroup(
                label(self.kit.fit_label(self.k_tokens[j], 2.0, SMALL), SMALL, self.colors[j]),
                self.num(
                    w[j], (f"sharpened{self.sfx}", self.h, self.i, 1.0, j), 3, color=self.theme.text
                ),
            ).arrange(RIGHT, buff=0.1)
            for j in self.keys
        ]

    def all_rows(self):
        ex, head, theme, keys, colors = self.example, self.head, self.theme, self.keys, self.colors
        # with a mask, every row as attention uses it: the keys it blocks get no share
        blocks = ac.mask_claim(head.mask, head.weights.shape).kind == "blocks"
        self.step("rows", caption_key="rows_masked" if blocks else "rows", clear=True)
        weights = head.weights if blocks else ac.softmax(head.scaled)
        rows_box = self.rows_and_side()[0]
        n, n_keys = ex.n, ex.n_keys
        cols, row_h = row_columns(n, rows_box.height)
        short = [self.kit.fit_label(t, 2.2, SMALL) for t in self.q_tokens]
        tok_w = max(label(t, SMALL).width for t in short) + 0.25
        bar_width = (rows_box.width - (cols - 1) * COLUMN_GAP) / cols - tok_w - 0.2
        rows = VGroup()
        for a in range(n):
            b = self.kit.proportion_bar(
                weights[a],
                colors,
                bar_width,
                height=row_h * 0.7,
                roles=[
                    ("weights", self.h, a, j) if blocks else ("sharpened_scaled", self.h, a, 1.0, j)
                    for j in keys
                ],
                show_numbers=False,
            )
            t = label(short[a], SMALL, self.q_color(a))
            rows.add(VGroup(t, b).arrange(RIGHT, buff=0.2))
        # as far apart as the room allows: 12 labels at the smallest text size just fit a square;
        # more rows than a column holds readably (24) stand in columns side by side
        per = -(-n // cols)
        columns = [VGroup(*rows[c * per : (c + 1) * per]) for c in range(cols)]
        for column in columns:
            free = rows_box.height - sum(r.height for r in column)
            gap = min(0.15 + row_h * 0.3, free / max(len(column) - 1, 1))
            column.arrange(DOWN, aligned_edge=RIGHT, buff=gap)
        if cols > 1:
            VGroup(*columns).arrange(RIGHT, buff=COLUMN_GAP, aligned_edge=UP)
        place(rows, rows_box)
        one_hot = [
            self.q_tokens[a]
            for a in range(n)
            if n_keys > 1 and float(np.max(weights[a])) > 1 - 1e-6
        ]
        note = VGroup()
        if one_hot and rows.get_bottom()[1] - rows_box.y0 > 0.5:  # huge scores: say so, plainly
            text = self.say("saturated_rows", rows=self.token_list(one_hot))
            note = label(ellipsize(text, rows_box.width, SMALL), SMALL, theme.accent)
            note.next_to(rows, DOWN, buff=0.3).align_to(rows, LEFT)
        self.play(FadeIn(rows, lag_ratio=0.15), run_time=1.2)
        self.play_all([FadeIn(note)] if len(note) else [], run_time=0.5)
        self.hold()

    # -- sharper: the same scores multiplied, with Σ s(1 − s) --------------------------------
    def sharper(self):
        head, theme, i = self.head, self.theme, self.i
        side_box = self.rows_and_side()[1]
        factors = sharpen_factors(head.d_k)
        panel, gauges, shown = self.sharper_bars(factors, self.sharper_tags(factors), side_box)
        claim = ac.readings.claims.sharpening(self.row, head.d_k)
        self.step(
            "sharper",
            caption_key=f"sharper_{claim.kind}",
            clear=self.narrow_frame,  # the rows took the whole frame
            dk=self.num(head.d_k, ("d_k", self.h), 0).shown,
            sqrt=self.num(np.sqrt(head.d_k), ("sqrt_dk", self.h), 2).shown,
            g1=shown["×1"],
            graw=shown.get("√d_k", ""),
            g10=shown["×10"],
            g100=shown["×100"],
        )
        g_head = label("Σ s(1−s)", SMALL, theme.accent)
        room = min(2.5, max(0.9, side_box.width - g_head.width - 1.5))  # clear of Σ s(1−s)
        q = self.kit.fit_label(self.q_tokens[i], room, SMALL)
        heading = label(f"q({q})", SMALL, self.q_color(i))
        if head.d_k > 1:  # the d_k the caption names, after the row's name
            dk_value = self.num(head.d_k, ("d_k", self.h), 0, color=theme.muted)
            dk = VGroup(math("d_k =", SMALL, theme.muted), dk_value).arrange(buff=0.1)
        else:
            dk = VGroup()
        side = VGroup(heading, panel).arrange(DOWN, aligned_edge=LEFT, buff=0.2)
        place(side, Box(side_box.x0, side_box.y0, side_box.x1 - 0.9, side_box.y1), "left")
        for g, p in zip(gauges, panel):
            g.next_to(p, RIGHT, buff=0.2)
        g_head.next_to(gauges[0], UP, buff=0.2).align_to(gauges[0], LEFT)
        if g_head.get_right()[0] > self.frame.x1 - MARGIN:  # a narrow frame: flush right
            g_head.align_to(gauges[0], RIGHT)
        if heading.get_right()[0] > g_head.get_left()[0] - 0.15:  # a whole followed label:
            heading.next_to(g_head, UP, buff=0.12).align_to(panel, LEFT)  # a line of its own
        if len(dk):  # under the bars, right-aligned with their tags
            side.add(dk.next_to(panel, DOWN, buff=0.25).align_to(panel, LEFT))
        self.play(FadeIn(side, lag_ratio=0.2), run_time=1.5)
        self.play(FadeIn(g_head), *(FadeIn(g, shift=0.1 * LEFT) for g in gauges), run_time=1.2)
        self.hold()

    def sharper_tags(self, factors) -> list:
        """The name of each factor's row ("×1", "unscaled ×1.41", "×10", …)."""
        theme, tags = self.theme, []
        for name, f in factors:
            tag = label(name, SMALL, theme.text)
            if name == "√d_k":  # "unscaled ×1.41": the factor the caption names
                tag = VGroup(
                    label(self.say("raw"), SMALL, theme.text),
                    VGroup(
                        label("×", SMALL, theme.text), self.num(f, ("sqrt_dk", self.h), 2)
                    ).arrange(buff=0.04),
                ).arrange(buff=0.12)
            tags.append(tag)
        return tags

    def sharper_bars(self, factors, tags, side_box):
        """The followed row's weights with its scores multiplied by each factor, one bar each
        after its tag, and their Σ s(1 − s) gauges (placed later): (panel, gauges, the gauges'
        shown numbers by factor name)."""
        theme, i, keys, colors = self.theme, self.i, self.keys, self.colors
        panel, gauges, shown = VGroup(), [], {}
        gauge_w = self.num(0.0, (), 3).width
        # the bars take what the tags and the gauges (0.000, on their right) leave
        bar_w = side_box.width - max(t.width for t in tags) - gauge_w - 1.0
        if bar_w < 1.5 and len(tags[1]) == 2:  # a narrow frame: "unscaled" over "×1.41"
            tags[1].arrange(DOWN, aligned_edge=RIGHT, buff=0.05)
            bar_w = side_box.width - max(t.width for t in tags) - gauge_w - 1.0
        # the bars as tall as the room allows, 0.32–0.7 (thin, they left a 1:1 frame half blank)
        per_row = (side_box.height - 1.3) / len(factors)
        height = float(np.clip(per_row * 0.55, 0.32, 0.7))
        buff = float(np.clip(per_row - height, 0.3, 0.6))
        for tag, (name, f) in zip(tags, factors):
            s = ac.sharpened(self.row, f)
            b = self.kit.proportion_bar(
                s,
                colors,
                bar_w,
                height=height,
                roles=[(f"sharpened{self.sfx}", self.h, i, f, j) for j in keys],
                show_numbers=False,
            )
            role = (f"gradient_sum{self.sfx}", self.h, i, f)
            g = self.num(ac.saturation(s), role, 3, color=theme.accent)
            gauges.append(g)
            shown[name] = g.shown
            panel.add(VGroup(tag, b).arrange(RIGHT, buff=0.15))
        panel.arrange(DOWN, aligned_edge=RIGHT, buff=buff)
        return panel, gauges, shown

    # -- saturation: one d = 64 row, unscaled and ÷√64 -------------------------------------------
    def row64(self):
        claim = ac.saturation_claim(self.row, self.head.d_k)
        if claim.kind == "saturated":  # the followed row itself saturates: show it
            self.followed_saturation()
            return
        values, heading, panel, cbar = score_row_panel(self, self.regions.content)
        self.step("saturation", clear=True, **values)
        self.play(FadeIn(heading), FadeIn(cbar), FadeIn(panel[0]), run_time=1.2)
        self.play(FadeIn(panel[1]), run_time=1.2)
        self.hold(1.6)

    def followed_saturation(self):
        """The followed row's own shares, divided by √d_k and not (its scores × √d_k): each bar
        with its largest key labelled on its segment, and max and Σ s(1 − s) beside it."""
        head, theme, i = self.head, self.theme, self.i
        box = self.regions.content
        tags = {
            "scaled": math(f"div sqrt({head.d_k})", BODY * 1.3, theme.accent),
            "raw": label(self.say("raw"), BODY, theme.muted),
        }
        factors = {"scaled": 1.0, "raw": float(np.sqrt(head.d_k))}
        facts, values = (
            {},
            {"q": self.q_tokens[i], "dk": self.num(head.d_k, ("d_k", self.h), 0).shown},
        )
        for name, f in factors.items():
            s = ac.sharpened(self.row, f)
            top = int(np.argmax(s))
            big = self.num(s[top], (f"sharpened{self.sfx}", self.h, i, f, top), 3, color=theme.text)
            g = self.num(ac.saturation(s), (f"gradient_sum{self.sfx}", self.h, i, f), 3)
            g.set_color(theme.accent)
            facts[name] = VGroup(
                VGroup(label("max =", SMALL, theme.text), big).arrange(buff=0.1),
                VGroup(label("Σ s(1−s) =", SMALL, theme.accent), g).arrange(buff=0.1),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
            values[f"max{name}"], values[f"g{name}"] = big.shown, g.shown
        self.step("saturation_followed", clear=True, **values)
        tag_w = max(t.width for t in tags.values())
        bar_w = box.width - tag_w - max(f.width for f in facts.values()) - 1.0
        rows = VGroup()
        for name, f in factors.items():
            s = ac.sharpened(self.row, f)
            bar = self.kit.proportion_bar(
                s,
                self.colors,
                bar_w,
                roles=[(f"sharpened{self.sfx}", self.h, i, f, j) for j in self.keys],
                show_numbers=False,
            )
            top = int(np.argmax(s))
            key = label(self.k_tokens[top], SMALL, self.colors[top])
            key.next_to(bar.parts[top], UP, buff=0.12)
            tags[name].next_to(bar, LEFT, buff=0.3 + tag_w - tags[name].width)
            facts[name].next_to(bar, RIGHT, buff=0.3)
            rows.add(VGroup(tags[name], bar, key, facts[name]))
        rows.arrange(DOWN, buff=0.8, aligned_edge=LEFT)
        dk = VGroup(math("d_k =", SMALL, theme.muted), self.num(head.d_k, ("d_k", self.h), 0))
        heading = VGroup(
            label(f"q({self.q_tokens[i]})", BODY, self.q_color(i)), dk.arrange(buff=0.1)
        ).arrange(buff=0.5)
        place(VGroup(heading, rows).arrange(DOWN, aligned_edge=LEFT, buff=0.4), box)
        self.play(FadeIn(heading), FadeIn(rows[0]), run_time=1.2)
        self.play(FadeIn(rows[1]), run_time=1.2)
        self.hold(1.6)


def one(n: int, kind: str = "blocked") -> str:
    """The suffix of a caption key's singular form: "1 later key", not "1 later keys" (the
    keys that count masked keys: ``kind`` later or blocked)."""
    return "_one" if n == 1 and kind in ("later", "blocked") else ""
