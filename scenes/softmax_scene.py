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
from scenes.kit.roles import HeadRole
from scenes.mobjects.bars import masked_marker
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import Box, box_of, flow, place
from scenes.mobjects.math import math
from scenes.mobjects.text import Num, ellipsize, label
from scenes.mobjects.theme import BODY, SMALL
from scenes.parts.softmax_scene_labels import KeyLabels
from scenes.parts.softmax_scene_sharper import SharperSteps

EXP_PLAIN_LIMIT = 30.0  # beyond this, show e^(s − max s): the same proportions, no overflow
EXP_PLAIN_MAX = 1e5  # e^s from here on prints as 1.58e+11: show e^(s − max s) instead
GHOST_OPACITY = 0.3  # the e^s bars, once they have made the shares: still there, quiet
MIN_BARS = 0.6  # the least height of the tallest e^s bar kept over the shares (4:3, 1:1)
MIN_ROW = 0.22  # the least height of a row of the rows step (24 in one column were slivers)
TITLE_GAP = 0.2  # the least room between the title and the e^s heading under it
COLUMN_GAP = 0.5  # between the columns of rows, where one column does not hold them all


def row_columns(n: int, height: float) -> tuple[int, float]:
    """(columns, row height) for ``n`` rows of shares in ``height``: one column where each row
    keeps at least :data:`MIN_ROW`, else as few columns side by side as let it (at most 3)."""
    for cols in (1, 2, 3):
        row_h = min(0.55, height / max(-(-n // cols), 1) - 0.15)
        if row_h >= MIN_ROW:
            break
    return cols, row_h


class Softmax(KeyLabels, SharperSteps, ExplainerScene):
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
        self.labelled = self.story_labelled(ac.softmax(self.row), key)
        self.keep = self.keep_order(ac.softmax(self.row), key)  # where not all labels fit
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
            if not self.every_label:  # the few keys' labels on tiers over and under the bar,
                # reaching into the rows' gap; the e^s bars keep at least half the height
                need = self.share_labels_height(ac.softmax(row), shares_box.width - 1.0) - 0.3
                if ratio == (1, 1):
                    break
            if len(self.keys) <= 8 or shares_box.height >= need:
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
            top=self.num(w[top], HeadRole(f"sharpened{self.sfx}", self.h, i, 1.0, top), 3).shown,
            alike=f"{ac.readings.claims.ALIKE:.2f}",
            shares=self.say(
                f"exp_shares_{claim.kind}{one(claim.blocked, claim.kind)}", n=claim.blocked
            ),
        )
        values = list(ac.exponentials(row, shift=not plain))
        role = ("exp_plain" if plain else "exp") + self.sfx
        # in a narrow frame the bars first take the room the shares take next (issue 38: at
        # 1:1 and 4:3 the first still was half empty), and move up into their own as they come
        self.exp_moves = self.shares_layout(row, values, bars_box, role)
        q = self.kit.fit_label(self.q_tokens[i], 2.5, BODY)
        head_txt = VGroup(
            label(f"q({q}):", BODY, self.q_color(i)),
            math("e^s" if plain else "e^(s - max)", BODY * 1.4, self.q_color(i)),
        ).arrange(buff=0.15)
        note = self.exp_note(plain, claim, shares_box.width)
        big = self.exp_box(left, bars_box, note) if self.exp_moves else bars_box
        bars, score_labels, exp_labels, key_labels = self.exp_columns(row, values, big, role)
        if len(note):
            place(note, shares_box if big is bars_box else left, "top-left")
            if big is not bars_box:
                note.align_to(np.array([0.0, left.y0, 0.0]), DOWN)
        self.exp_head = self.under_top(
            place(head_txt, Box(left.x0, bars_box.y1 - 0.45, left.x1, bars_box.y1), "left")
        )
        self.play(FadeIn(head_txt), FadeIn(key_labels), FadeIn(score_labels))
        self.play(*(GrowFromEdge(b, DOWN) for b in bars), FadeIn(exp_labels), run_time=1.2)
        self.play_all([FadeIn(note)] if len(note) else [], run_time=0.5)
        self.hold()
        # both give way to the shares; so do the few keys' labels, which the shares' replace
        gone = VGroup(exp_labels, note, *([] if self.every_label else [key_labels]))
        if self.exp_moves:  # where they go: (the bars, their scores, their keys' labels)
            moved = (VGroup(*bars), score_labels, key_labels if self.every_label else VGroup())
            self.exp_moves = list(zip(moved, self.exp_moves))
        return bars, gone

    def exp_note(self, plain: bool, claim, width: float) -> VGroup:
        """Under the e^s bars, in the room the shares take next: where shifted, why (the
        largest score subtracted first, as softmax is computed); how many keys are masked, how
        many grey."""
        note = VGroup()
        if not plain:
            note = self.typeset_lines("exp_shifted", SMALL, self.theme.muted, width)
        blocked = claim.blocked
        masked = self.say(f"exp_masked_{claim.kind}{one(blocked)}", n=blocked) if blocked else ""
        notes = [*([note] if len(note) else []), self.key_notes(masked, width)]
        return VGroup(*(n for n in notes if len(n))).arrange(DOWN, aligned_edge=LEFT, buff=0.15)

    def shares_layout(self, row, values, bars_box: Box, role: str):
        """In a narrow frame (4:3, 1:1), the e^s bars as the shares step keeps them, faint
        over the share bar in ``bars_box``: (bars, scores, keys' labels); their keys' labels left
        out where they would leave the bars under :data:`MIN_BARS` (at the limits at 1:1, four
        tiers of labels left them 0.02 high; the shares' list names every key). None at 16:9."""
        if not self.narrow_frame and self.every_label:  # 16:9, every key labelled: as it was
            return None  # (few keys labelled, on a 21-token row the bars took the top third)
        small = self.exp_columns(row, values, bars_box, role, keys=self.every_label)
        if self.every_label and small[0].room < MIN_BARS:
            small = self.exp_columns(row, values, bars_box, role, keys=False)
        return [small[0], small[1], small[3]]

    @staticmethod
    def exp_box(left: Box, bars_box: Box, note) -> Box:
        """The e^s bars' box in a narrow frame: from their heading down to the note under them
        (at the foot of the content), the room the shares take next."""
        foot = left.y0 + (note.height + 0.3 if len(note) else 0.0)
        return Box(left.x0, min(foot, bars_box.y0), left.x1, bars_box.y1)

    def exp_columns(self, row, values, bars_box: Box, exp_role: str, keys: bool = True):
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
        tiers = (self.label_tiers(slot) if stagger else 1) if self.every_label and keys else 1
        lift = 0.35 * (tiers - 1)
        kind = "masked" if self.cut else "scaled"
        score_labels = VGroup(
            *(
                self.num(row[j], HeadRole(kind, self.h, i, j), 2, color=theme.muted)
                for j in self.keys
            )
        )
        exp_labels = VGroup(
            *(
                self.num(v, HeadRole(exp_role, self.h, i, j), 2, color=theme.text)
                for j, v in enumerate(values)
            )
        )
        crowded = any(lab.width > slot - 0.05 for lab in [*exp_labels, *score_labels])
        if crowded:  # many keys: numbers live in the share bar and the caption instead
            score_labels, exp_labels = VGroup(), VGroup()
        numbers = 0.0 if crowded else 0.35  # a row of scores under the bars, e^s over them
        few = VGroup()
        if not self.every_label and keys:  # the few keys' labels on stems, under the scores
            few, low = self.few_key_labels(plot, slot, numbers)  # (issue 38: 'The' over 3.95)
            lift = max(-low - numbers - 0.3, 0.0)
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
                score_labels[j].move_to([x, base_y - 0.25, 0])
                exp_labels[j].next_to(bar, UP, buff=0.08)
        key_labels = few.shift(UP * base_y)  # none without ``keys``: the shares' list names them
        if keys and self.every_label:
            key_labels = self.key_labels_under(plot, slot, tiers, base_y)
        self.marks = dict(enumerate(bars))  # what each key's label names (tests check it)
        bars.room = room  # the tallest bar's height (tests and the shares' layout read it)
        return bars, score_labels, exp_labels, key_labels

    def few_key_labels(self, plot: Box, slot: float, numbers: float = 0.0):
        """The labelled keys' labels under their bars (:meth:`KeyLabels.stemmed`), whole, each
        under its own bar or on a stem to it, for bars standing at y = 0, under the row of
        scores (``numbers`` high, 0 where there is none): (labels, lowest y)."""
        keys = self.labelled.keys
        labs = [label(self.k_tokens[j], SMALL, self.colors[j]) for j in keys]
        spans = [(plot.x0 + j * slot, plot.x0 + (j + 1) * slot) for j in keys]
        edges = (0.0, -numbers)
        return self.stemmed(labs, keys, spans, edges, plot.x0, plot.x1, ("down",))

    def key_labels_under(self, plot: Box, slot: float, tiers: int, base_y: float) -> VGroup:
        """Every key's label under its bar (staggered on ``tiers`` rows, shortened to their
        room)."""
        xs = [plot.x0 + (j + 0.5) * slot for j in self.keys]
        y = plot.y0 + 0.15
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
            key = "others_grey" if left > 1 else "others_grey_one"  # the cast is labelled
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
        shown = [self.num(w[j], HeadRole(role, self.h, i, 1.0, j), 3).shown for j in named.keys]
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
            roles=[HeadRole(f"sharpened{self.sfx}", self.h, i, 1.0, j) for j in keys],
            show_numbers=self.every_label,
        )
        total = VGroup(label("= 1", BODY, theme.text))
        # the core's few keys are labelled over (and under) their segments: room over the bar
        over = 0.0 if self.every_label else 0.45
        room = Box(shares_box.x0, shares_box.y0, shares_box.x1, shares_box.y1 - over)
        place(VGroup(bar, total).arrange(RIGHT, buff=0.2), room, "top")
        if not self.every_label:  # the labels over and under the bar, all in the box
            bar.numbers = self.segment_labels(w, bar, shares_box)
            whole, room = VGroup(bar, total, bar.numbers), shares_box
            if whole.height > room.height:  # into the gap over it
                room = Box(room.x0, room.y0, room.x1, room.y1 + 0.3)
            # taller still: up from the box's foot, over the faint e^s bars (never the caption)
            place(whole, room, "bottom" if whole.height > room.height else "center")
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
        self.clear_of = [heading, *(m for m in bar.numbers.get_family() if hasattr(m, "key_index"))]
        self.play(
            *(ReplacementTransform(bars[j].copy(), bar.parts[j]) for j in keys),
            *self.bars_to_their_room(bars),
            FadeOut(exp_labels),
            FadeIn(bar.outline),
            ReplacementTransform(self.exp_head, heading),
            run_time=1.5,
        )
        self.play(FadeIn(bar.numbers), FadeIn(total), FadeIn(note))
        self.hold()

    def bars_to_their_room(self, bars) -> list:
        """The e^s bars fading to :data:`GHOST_OPACITY`; in a narrow frame moving, with their
        scores and keys' labels, from the room the shares take into their own
        (:meth:`shares_layout`; labels with nowhere to go fade)."""
        if not self.exp_moves:
            return [b.animate.set_opacity(GHOST_OPACITY) for b in bars]
        out = []
        for k, (old, new) in enumerate(self.exp_moves):
            if k == 0:
                new.set_opacity(GHOST_OPACITY)
                self.ghosts_clear(new, [m for _, m in self.exp_moves[1:]])
                if self.every_label:  # their labels name the bars (else the shares' segments)
                    self.marks = dict(enumerate(new))
            if len(old) and len(new) == len(old):
                out.append(ReplacementTransform(old, new))
            elif len(old):
                out.append(FadeOut(old))
        return out

    def ghosts_clear(self, ghosts, riders) -> None:
        """The faint e^s bars kept over the shares (narrow frame) clear of the Σ heading and
        of the shares' labels (issue 38, a 22-token row at 1:1: the tallest bar reached into
        the heading, labels sat over bars and masked cells): raised (with ``riders``, their
        scores and keys' labels) over the labels they meet where 0.4 is left under the
        heading, all shortened alike to end under it, and any a label still covers faded out."""
        head = box_of(self.clear_of[0]).y0 - 0.1
        labels = [box_of(m) for m in self.clear_of[1:]]
        base = min(b.get_bottom()[1] for b in ghosts)
        hit = [lab.y1 + 0.1 for lab in labels if any(box_of(b).overlaps(lab, 0.05) for b in ghosts)]
        floor = max([base, *hit])
        if head - floor >= 0.4:
            for m in [ghosts, *riders]:
                m.shift(UP * (floor - base))
            base = floor
        tall = [b for b in ghosts if isinstance(b, Rectangle)]
        top = max((b.get_top()[1] for b in tall), default=base)
        if top > head > base + 0.1:
            for b in tall:
                b.stretch((head - base) / (top - base), 1, about_point=[0.0, base, 0.0])
        for b in ghosts:
            if any(box_of(b).overlaps(lab, pad=0.05) for lab in labels):
                b.set_opacity(0.0)

    def shares_heading(self) -> VGroup:
        """q(she): e^s / Σ e^s, in the place of the e^s heading: what the bar now shows."""
        shares = math("e^s \\/ inline(sum e^s)", BODY * 1.4, self.q_color(self.i))
        # q(…) stays where it was (centred on the taller Σ it sank onto the labels under it)
        shares.next_to(self.exp_head[0], RIGHT, buff=0.15)
        return self.under_top(VGroup(self.exp_head[0].copy(), shares))

    def under_top(self, heading):
        """``heading`` moved down where it reaches over the content's top or within
        :data:`TITLE_GAP` of the title (issue 38: at 1:1 the two-line title's "head 6 of 9"
        touched the Σ's "/" under it, 0.1 apart)."""
        top = min(self.regions.content.y1, box_of(self.title_mob).y0 - TITLE_GAP)
        over = box_of(heading).y1 - top
        return heading.shift(DOWN * over) if over > 0 else heading

    def segment_labels(self, w, bar, shares_box: Box) -> VGroup:
        """ "soup 0.719", the key whole, for each labelled key (:meth:`KeyLabels.story_labelled`):
        over its own segment, else on a stem over or under the bar (:meth:`KeyLabels.stemmed`;
        issue 38: packed in one row, each label sat over another key's segment); under them,
        how many keys are masked and how many others are grey."""
        keys = self.labelled.keys
        labs = [self.weight_pair(w, j, whole=True) for j in keys]
        self.marks = dict(enumerate(bar.parts))
        spans = [(bar.parts[j].get_left()[0], bar.parts[j].get_right()[0]) for j in keys]
        edges = (bar.outline.get_top()[1], bar.outline.get_bottom()[1])
        out, _ = self.stemmed(labs, keys, spans, edges, shares_box.x0, shares_box.x1)
        blocked = self.labelled.blocked if self.cut else 0
        masked = self.say(f"share_masked_keys{one(blocked)}", n=blocked) if blocked else ""
        notes = self.key_notes(masked, shares_box.width)
        if len(notes):
            notes.next_to(VGroup(bar.outline, out), DOWN, buff=0.2).align_to(bar, LEFT)
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
        return [self.weight_pair(w, j) for j in self.keys]

    def weight_pair(self, w, j: int, whole: bool = False) -> VGroup:
        """ "when 0.001": key ``j`` in its colour (``whole``: never shortened), its weight."""
        name = self.k_tokens[j] if whole else self.kit.fit_label(self.k_tokens[j], 2.0, SMALL)
        role = HeadRole(f"sharpened{self.sfx}", self.h, self.i, 1.0, j)
        return VGroup(
            label(name, SMALL, self.colors[j]), self.num(w[j], role, 3, color=self.theme.text)
        ).arrange(RIGHT, buff=0.1)

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
                    HeadRole("weights", self.h, a, j)
                    if blocks
                    else HeadRole("sharpened_scaled", self.h, a, 1.0, j)
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


def one(n: int, kind: str = "blocked") -> str:
    """The suffix of a caption key's singular form: "1 later key", not "1 later keys" (the
    keys that count masked keys: ``kind`` later or blocked)."""
    return "_one" if n == 1 and kind in ("later", "blocked") else ""
