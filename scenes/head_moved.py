"""HeadMoved: what one head moved into the followed token (issue 41). E, the vector the token
carries into the head's layer, drawn as its arrow; the largest terms tⱼ = αⱼ · vⱼ · W_Oʰ tip to
tail from its tip, each in its key's colour (the rest summed into one arrow and counted); their
sum ΔE and E + ΔE, in the plane of E and ΔE (both exact there; the note says how much of the
terms the plane keeps). Then, for a model with an unembedding (SmolLM2), the words: the logit
lens of E and of E + ΔE, what ΔE pushes up, and the key's rank before → after — or, where the
core says the readout says little, one line saying so and no claim. Every number is the core's
(``attention_core.moved_vector``), the same as ``numbers --json``'s ``"moved"``."""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, Dot, VGroup

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.kit.registry import BY_NAME
from scenes.kit.roles import moved_layer
from scenes.kit.views import moved_of, moved_parts, plane_view_of
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import flow, place
from scenes.mobjects.plane import grow
from scenes.mobjects.text import balanced_lines, ellipsize, label
from scenes.mobjects.theme import BODY, SMALL
from scenes.mobjects.token_text import quoted


class HeadMoved(ExplainerScene):
    """E + ΔE with ΔE = Σⱼ αⱼ · vⱼ · W_Oʰ, tip to tail, read back in words where a model can."""

    def construct(self):
        if BY_NAME["HeadMoved"].why_not(self.example) is not None:
            self.not_applicable()
            return
        self.lay_out()
        self.show_token()
        self.chain_terms()
        self.show_sum()
        self.show_words()

    def not_applicable(self):
        """Where ΔE cannot be added to E (cross-attention, or widths that differ): one step
        saying why, its words on screen."""
        if self.example.is_cross:
            key, values = "not_cross", {}
        else:
            mv = moved_of(self.trace)
            key, values = "not_width", {"dv": mv.delta.shape[0], "d": mv.E.shape[0]}
        self.step(key, **values)
        lines = balanced_lines(self.say(f"moved_{key}", **values), self.regions.content.width, BODY)
        note = VGroup(*(label(t, BODY, self.theme.muted) for t in lines))
        place(note.arrange(DOWN, buff=0.1), self.regions.content)
        self.play(FadeIn(note), run_time=0.6)
        self.hold()

    def lay_out(self):
        """The moved vector, its two planes (all of E + ΔE, and E's tip enlarged, where the terms
        run: ΔE is often a tenth of E) in the plane of E and ΔE, and the box for words: beside the
        planes, or under them in a square frame."""
        tr = self.trace
        self.mv = mv = moved_of(tr)
        self.i, self.hh = mv.query, mv.head
        content = self.regions.content
        if content.width < 2 * content.height:  # 4:3 and 1:1: the words under the planes
            planes, self.side_box = content.rows(2.2, 3, gap=0.3)
        else:
            planes, self.side_box = content.columns(3, 2)
        view = plane_view_of(tr, "head_moved")
        self.shown, self.rest = moved_parts(tr, mv)  # the largest terms drawn; the rest summed
        self.parts2 = view.coords  # the drawn terms, then the rest's sum
        B = view.basis
        self.E2, self.d2 = mv.E @ B, mv.delta @ B
        self.after2 = self.E2 + self.d2
        self.starts2 = np.vstack([np.zeros(2), np.cumsum(self.parts2, axis=0)[:-1]])
        self.note = self.kit.view_note(view, "head_moved", key="moved_view_kept")
        rows = (10, 1) if len(self.note) else (1,)
        planes, *note_box = planes.rows(*rows, gap=0.1)
        if note_box:
            place(self.note, note_box[0], "left")
        whole, close = planes.columns(1, 1)
        self.whole = self.headed_plane(whole, "moved_whole", np.vstack([self.E2, self.after2]))
        chain = np.vstack([self.starts2, self.starts2 + self.parts2])
        self.close = self.headed_plane(close, "moved_close", chain)
        self.q_name = ellipsize(self.q_tokens[self.i], 2.2, BODY)
        self.colors = [self.k_color(j) for j in self.shown] + [self.theme.muted] * bool(self.rest)

    def headed_plane(self, box, heading: str, points):
        """A plane of ``points`` under its heading (``heading`` a word key)."""
        head = label(self.say(heading), SMALL, self.theme.muted)
        title_box, plane_box = box.rows(head.height + 0.05, box.height - head.height - 0.15)
        place(head, title_box, "left")
        plane = self.kit.plane(points, plane_box, ticks=False)
        plane.heading, plane.box = head, plane_box
        return plane

    def show_token(self):
        """E: the token's own arrow (the residual stream entering the layer, or its input row)."""
        plane, mv = self.whole, self.mv
        self.step("token", caption_key=f"token_{mv.source}", q=self.q_tokens[self.i])
        colour = self.q_color(self.i)
        self.e_arrow = plane.arrow(self.E2, colour, stroke_width=6)
        # the arrows of the sum's step, made now: no label here may sit where they will be
        self.d_whole = plane.arrow(self.d2, self.theme.output, start=self.E2, stroke_width=6)
        self.total = plane.arrow(self.after2, self.theme.accent, stroke_width=6)
        self.d_close = self.close.arrow(self.d2, self.theme.output, stroke_width=9, opacity=0.5)
        self.e_tip = plane.tip_labels(
            [self.E2], [f"E({self.q_name})"], [colour], plane.box, self.note
        )
        self.norms = self.term_list()
        place(self.norms, self.side_box, "top-left")
        self.play(FadeIn(plane.plane), FadeIn(plane.heading), FadeIn(self.note), run_time=0.8)
        self.play(grow(self.e_arrow), FadeIn(self.e_tip), run_time=1)
        self.hold()

    def term_list(self):
        """'‖tⱼ‖' for each drawn term in its key's colour, then the rest's count: the column's
        top (its lines fade in as the chain does)."""
        mv, h, i = self.mv, self.hh, self.i
        heading = label(self.say("moved_terms_heading"), SMALL, self.theme.muted)
        entries = [
            VGroup(
                label(ellipsize(self.k_tokens[j], 2.0, SMALL), SMALL, self.k_color(j)),
                self.num(mv.norms[j], ("moved_norm", h, i, j), 2, size=SMALL),
            ).arrange(buff=0.1)
            for j in self.shown
        ]
        if self.rest:
            entries.append(
                VGroup(
                    label(self.say("moved_others", n=len(self.rest)), SMALL, self.theme.muted),
                    self.num(
                        ac.norm(mv.terms[self.rest].sum(axis=0)),
                        ("moved_rest_norm", h, i),
                        2,
                        size=SMALL,
                    ),
                ).arrange(buff=0.1)
            )
        return flow([heading, *entries], self.side_box.width, hbuff=0.3, vbuff=0.1)

    def chain_terms(self):
        """At E's tip, enlarged: the largest terms tip to tail, each labelled in its key's colour;
        the rest in one muted arrow."""
        plane = self.close
        self.step("terms", caption_key="terms_w_o" if self.has_w_o else "terms_o")
        tip = Dot(plane.point(np.zeros(2)), radius=0.07, color=self.q_color(self.i))
        self.chain = VGroup(
            *(
                plane.arrow(p, c, start=s, stroke_width=5)
                for p, s, c in zip(self.parts2, self.starts2, self.colors)
            )
        )
        names = [ellipsize(self.k_tokens[j], 2.0, SMALL) for j in self.shown]
        if self.rest:
            names.append(self.say("moved_others_short", n=len(self.rest)))
        ends = self.starts2 + self.parts2
        self.chain_tips = plane.tip_labels(ends, names, self.colors, plane.box, self.note)
        self.play(FadeIn(plane.plane), FadeIn(plane.heading), FadeIn(tip), run_time=0.8)
        self.play(
            *(grow(a) for a in self.chain),
            FadeIn(self.chain_tips),
            FadeIn(self.norms),
            run_time=1.6,
        )
        self.hold()

    @property
    def has_w_o(self) -> bool:
        """Whether the terms go through W_Oʰ (a model's layer, a multi-head example's W_O)."""
        mh = self.trace.multihead
        return self.mv.source == "residual" or (mh is not None and mh.W_o is not None)

    def show_sum(self):
        """ΔE, the chain's sum (at E's tip, enlarged and in the whole), and E + ΔE."""
        whole, close, theme = self.whole, self.close, self.theme
        self.step("sum", q=self.q_tokens[self.i])
        d_close, d_whole, total = self.d_close, self.d_whole, self.total
        d_tag = close.tip_labels(
            [self.d2], ["ΔE"], [theme.output], close.box, [*self.note, *self.chain_tips]
        )
        tags = whole.tip_labels(
            [self.after2],
            [self.say("moved_after")],
            [theme.accent],
            whole.box,
            [*self.note, *self.e_tip],
        )
        d_close.set_z_index(
            -1
        )  # under the chain: a term as long as ΔE (an induction head's) stays seen
        self.play(grow(d_close), FadeIn(d_tag))
        self.play(grow(d_whole), grow(total), FadeIn(tags), run_time=1)
        self.hold()

    def show_words(self):
        """The readout in words (or one line saying why there is none / why it says little)."""
        r = self.mv.readout
        if r is None:
            self.step("words", caption_key="words_none")
            lines = self.muted_lines(self.say("moved_no_readout"))
            lines.next_to(self.norms, DOWN, buff=0.4).align_to(self.norms, LEFT)
            self.play(FadeIn(lines), run_time=0.8)
            self.hold()
            return
        words = self.readout_column(r)
        key = (
            f"words_{'unchanged' if r.says_little == 'unchanged' else 'little'}"
            if r.says_little
            else "words_copies"
            if r.key_pushed
            else "words_reads"
        )
        self.step(
            "words",
            caption_key=key,
            layer=self.layer_num.shown,
            k=self.k_tokens[self.mv.key],
            top=r.pushed[0][0],
            r0=self.rank_nums[0].shown,
            r1=self.rank_nums[1].shown,
            c=self.change_num.shown,
        )
        self.play(FadeIn(words), run_time=1)
        self.hold()

    def readout_column(self, r):
        """Before → after, pushed up, the key's ranks and (where set) says-little, under the
        terms' list; the lists shortened (5, 3, 2, 1 tokens, then pushed up alone) until the
        column fits."""
        h, i, box = self.hh, self.i, self.side_box
        self.layer_num = self.num(moved_layer(self.trace), ("moved_layer",), 0, size=SMALL)
        self.rank_nums = [
            self.num(v, ("moved_key_rank", h, i, w), 0, size=SMALL, color=self.k_color(self.mv.key))
            for w, v in enumerate((r.key_rank_before, r.key_rank_after))
        ]
        colour = self.k_color(self.mv.key)
        self.change_num = self.num(
            r.key_change, ("moved_key_change", h, i), 2, size=SMALL, color=colour
        )
        room = self.norms.get_bottom()[1] - 0.2 - box.y0
        # (tokens of E and of E + ΔE, on two lines or, 0, their first on one; tokens pushed up)
        tries = [(5, 5), (3, 3), (2, 2), (1, 2), (0, 2), (0, 1)]
        for top, pushed in tries:
            reads = [
                self.top_line("moved_reads_before", r.before, "moved_before", top),
                self.top_line("moved_reads_after", r.after, "moved_after_p", top),
            ]
            lines = [
                *(reads if top else [self.before_after_line(r)]),
                self.top_line("moved_pushes", r.pushed, "moved_pushed", pushed),
                self.rank_line(),
                *((self.little_line(),) if r.says_little else ()),
            ]
            col = VGroup(*lines).arrange(DOWN, aligned_edge=LEFT, buff=0.1)
            if col.height <= room and col.width <= box.width:
                break
        col.next_to(self.norms, DOWN, buff=0.2).align_to(self.norms, LEFT)
        return col

    def top_line(self, heading: str, pairs, kind: str, top: int):
        """'E reads:' and its top tokens with their numbers, as many to a line as fit."""
        h, i, width = self.hh, self.i, self.side_box.width
        digits = 2 if kind == "moved_pushed" else 3
        entries = [
            VGroup(
                label(self.token_shown(t), SMALL, self.theme.text),
                self.num(v, (kind, h, i, r), digits, size=SMALL),
            ).arrange(buff=0.08)
            for r, (t, v) in enumerate(pairs[:top])
        ]
        head = label(self.say(heading), SMALL, self.theme.muted)
        return flow([head, *entries], width, hbuff=0.22, vbuff=0.08)

    def before_after_line(self, r):
        """'E → E + ΔE: “,” 0.564 → “,” 0.464': each one's first token, where two lines of
        them do not fit."""
        h, i, text = self.hh, self.i, self.theme.text
        parts = [label(self.say("moved_reads_both"), SMALL, self.theme.muted)]
        for w, (kind, pairs) in enumerate((("moved_before", r.before), ("moved_after_p", r.after))):
            if w:
                parts.append(label("→", SMALL, text))
            parts.append(
                VGroup(
                    label(self.token_shown(pairs[0][0]), SMALL, text),
                    self.num(pairs[0][1], (kind, h, i, 0), 3, size=SMALL),
                ).arrange(buff=0.08)
            )
        return flow(parts, self.side_box.width, hbuff=0.15, vbuff=0.08)

    @staticmethod
    def token_shown(t: str) -> str:
        """A vocabulary token as the readout lists it: quoted where it is punctuation alone."""
        return quoted(ellipsize(t, 1.6, SMALL))

    def rank_line(self):
        """'baker: logit change −0.21, rank 41,282 → 40,547' in the key's colour: the change
        beside the rank (a rank can rise while the logit falls, the others falling more)."""
        j = self.mv.key
        colour = self.k_color(j)
        name = self.say("moved_key_rank", k=ellipsize(self.k_tokens[j], 1.6, SMALL))
        comma, then = self.say("moved_key_rank_then").split("|")
        change = VGroup(self.change_num, label(comma, SMALL, colour)).arrange(buff=0.02)
        change[1].align_to(self.change_num, DOWN)
        parts = [label(name, SMALL, colour), change, label(then, SMALL, colour), self.rank_nums[0]]
        parts += [label("→", SMALL, colour), self.rank_nums[1]]
        return flow(parts, self.side_box.width, hbuff=0.1)

    def little_line(self):
        """'at layer 19 this readout says little' (the layer a number from the example), its
        words after the number on lines of their own where the line would be too wide; where
        ΔE changed none of the top 5, that ('ΔE changes none of the top 5': E may read well)."""
        if self.mv.readout.says_little == "unchanged":
            return self.muted_lines(self.say("moved_unchanged"))
        before, after = self.say("moved_says_little", layer="{layer}").split("{layer}")
        muted, width = self.theme.muted, self.side_box.width
        first = VGroup(label(before.strip(), SMALL, muted), self.layer_num).arrange(buff=0.1)
        line = VGroup(first, label(after.strip(), SMALL, muted)).arrange(buff=0.1)
        if line.width <= width:
            return line
        rest = [label(t, SMALL, muted) for t in balanced_lines(after.strip(), width, SMALL, 3)]
        return VGroup(first, *rest).arrange(DOWN, aligned_edge=LEFT, buff=0.06)

    def muted_lines(self, text: str):
        """``text`` in the muted small type, on as many lines as the words' box needs."""
        width = self.side_box.width
        lines = balanced_lines(text, width, SMALL, 6)
        group = VGroup(*(label(t, SMALL, self.theme.muted) for t in lines))
        group.arrange(DOWN, aligned_edge=LEFT, buff=0.06)
        if group.width > width:
            group.scale_to_fit_width(width)
        return group
