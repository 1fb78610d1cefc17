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
from manim import DOWN, LEFT, RIGHT, UP, Dot, ReplacementTransform, VGroup

import attention_core as ac
from attention_core.example.visible_text import refusal
from attention_core.readings import head_kinds
from scenes.kit.base import ExplainerScene
from scenes.kit.registry import BY_NAME
from scenes.kit.roles import moved_layer
from scenes.kit.views import moved_of, moved_parts, plane_view_of
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import Box, box_of, flow, place
from scenes.mobjects.plane import grow
from scenes.mobjects.text import Num, balanced_lines, ellipsize, label, text_baseline
from scenes.mobjects.theme import BODY, SMALL
from scenes.mobjects.token_text import Token, is_punctuation
from scenes.parts.head_moved_labels import (
    around,
    aspect_of,
    clear_labels,
    filling,
    heads_apart,
    lines_of,
    nearer_own,
    placed_labels,
    split_off,
)

OTHERS = ("moved_others", "moved_others_short")  # "+ 12 others", "+ 12": the rest's count
APART = 0.1  # ΔE's label from the terms' labels, more than the placement's own gap
WORDS_H, LINE_H = 1.45, 0.17  # 1:1: the readout's box under all (issue 38: its fourth line,
# "at layer 15 this readout says little", ran 0.13 below it, against the caption)
CLOSE = 0.8  # E's and E + ΔE's tips closer than this: each label kept on its own tip's side
BESIDE = 1.2  # how far beside the close-up a column of its labels may go (issue 38)
PICTURES = {"\n": "↵", "\r": "↵", "\t": "⇥"}  # white space as token_labels shows it; else ␣


def visible(text: str) -> str:
    """A token label as HeadMoved draws it (issue 41: a no-break space showed blank): where no
    character of it leaves a mark (white space, or characters drawn as nothing: zero-width and
    other format characters), each white space as its picture (␣, ↵, ⇥), the rest as U+XXXX;
    any other label as it is."""
    if refusal(text, fonts=False) is None and text.strip():
        return text
    return (
        "".join(
            PICTURES.get(c, "␣") if c.isspace() else c if c.isprintable() else f"U+{ord(c):04X}"
            for c in text
        )
        or "∅"
    )


def said(text: str) -> Token:
    """A token label as a caption names it (issue 38: "it leaves as …" read as a pronoun): in
    quotation marks, “it”, “‑ates”; punctuation alone as the captions quote it, “,”."""
    text = str(text)
    return Token(text if is_punctuation(text) else f"“{text}”")


def with_token(phrase: str, token: str) -> str:
    """A reading's phrase with its token: named as a token where the phrase is the token
    alone (the en "{token}": "attends mostly to “it”"), as it is inside the phrase's own
    marks (「it」)."""
    return phrase.format(token=said(token) if phrase.strip() == "{token}" else token)


def minus(text: str) -> str:
    """A number's text with the true minus sign: "−0.52", never an ASCII hyphen (issue 38)."""
    return text.replace("-", "−")


def halves(p, q, close: float = CLOSE, at: float = 0.5) -> tuple[list, list]:
    """Where tips ``p`` and ``q`` are closer than ``close``: the half of the plane on ``q``'s
    side (closed to ``p``'s label) and the half on ``p``'s (closed to ``q``'s), split halfway
    between them (``at``: 0 at ``p``, 1 at ``q``) across the way they lie apart (above and
    below, or left and right); else nothing closed."""
    d = np.asarray(q, dtype=float)[:2] - np.asarray(p, dtype=float)[:2]
    if np.linalg.norm(d) >= close:
        return [], []
    axis = int(abs(d[1]) >= abs(d[0]))  # 1: one above the other
    mid = float(np.asarray(p)[axis] + d[axis] * at)
    lo, hi = [-99.0, -99.0, 99.0, 99.0], [-99.0, -99.0, 99.0, 99.0]
    lo[axis + 2], hi[axis] = mid, mid  # lo: the half below (left of) mid, hi: above (right)
    low, high = Box(*lo), Box(*hi)
    return ([low], [high]) if d[axis] < 0 else ([high], [low])


WHOLE_LEAST = 0.75  # the whole plane's least height at 4:3 and 1:1, where the terms need room
ROW_GAP = 0.06  # between a term table's rows, ink to ink (0.04 read as touching at 480p)


def _reach(m) -> tuple[float, float]:
    """How far ``m``'s ink reaches below and above its baseline (its middle without one)."""
    b, line = box_of(m), text_baseline(m)
    line = (b.y0 + b.y1) / 2 if line is None else line
    return line - b.y0, b.y1 - line


def _table(rows, gap: float = 0.2):
    """``rows`` of cells (None: an empty cell) in columns, each left-aligned, row under row,
    each row's cells on one baseline (issue 38: placed by the middle of their ink, "farmer" and
    "gave" of the farmer sentence at 1:1 overlapped, and a name sat higher than its numbers),
    :data:`ROW_GAP` between one row's lowest ink and the next one's highest (issue 38: at 4:3
    "13.92" of sailor's row touched "2.86" of young's under it)."""
    widths = [max(r[c].width for r in rows if c < len(r) and r[c] is not None) for c in range(3)]
    top, out = 0.0, VGroup()
    for r in rows:
        reach = [_reach(m) for m in r if m is not None]
        base, x = top - max(u for _, u in reach), 0.0
        for c, m in enumerate(r):
            if m is not None:
                down, _ = _reach(m)
                m.shift([x - box_of(m).x0, base - (box_of(m).y0 + down), 0])
                out.add(m)
            x += widths[c] + gap
        top = base - max(d for d, _ in reach) - ROW_GAP
    return out


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
        planes (16:9), else as :meth:`square_boxes` fits the planes' own shapes."""
        tr = self.trace
        self.mv = mv = moved_of(tr)
        self.i, self.hh = mv.query, mv.head
        view = plane_view_of(tr, "head_moved")
        self.shown, self.rest = moved_parts(tr, mv)  # the largest terms drawn; the rest summed
        self.parts2 = view.coords  # the drawn terms, then the rest's sum
        B = view.basis
        self.E2, self.d2 = mv.E @ B, mv.delta @ B
        self.after2 = self.E2 + self.d2
        self.starts2 = np.vstack([np.zeros(2), np.cumsum(self.parts2, axis=0)[:-1]])
        self.note = self.kit.view_note(view, "head_moved", key="moved_view_kept")
        whole_pts = np.vstack([self.E2, self.after2])
        chain = np.vstack([self.starts2, self.starts2 + self.parts2])
        content, self.flush = self.regions.content, False
        if content.width < 2 * content.height:  # 4:3 and 1:1
            boxes = self.square_boxes(content, whole_pts, chain)
            whole, close, note_box, self.side_box, self.words_box = boxes
        else:
            planes, self.side_box = content.columns(3, 2)
            self.words_box = None
            rows = (10, 1) if len(self.note) else (1,)
            planes, *note_box = planes.rows(*rows, gap=0.1)
            note_box = note_box[0] if note_box else None
            whole, close = planes.columns(1, 1)
        if getattr(self, "norms", None) is None:
            self.norms = self.term_list(self.side_box.width)
        if note_box is not None and len(self.note):
            place(self.note, note_box, "left")
        self.whole = self.headed_plane(whole, "moved_whole", whole_pts)
        self.close = self.headed_plane(close, "moved_close", chain, self.flush)
        # the first step's plane: E alone, the content's size, until the terms come (issue 38)
        room = Box(content.x0, content.y0, content.x1, content.y1 - 0.5)
        self.first = self.headed_plane(
            self.regions.content, "moved_whole", filling(whole_pts, room)
        )
        self.q_name = visible(self.kit.fit_label(self.q_tokens[self.i], 2.2, BODY))
        self.colors = [self.k_color(j) for j in self.shown] + [self.theme.muted] * bool(self.rest)

    def square_boxes(self, content, whole_pts, chain):
        """4:3 and 1:1 (issue 41: the close-up was small there): the close-up, where the terms
        run, as a column the frame's height at the left when its points stand taller than wide,
        the whole plane, the note, the terms and the words at its right (1:1: the readout's
        words under all, the frame's width);
        else the two planes side by side over the words, each as wide as its points ask.
        Returns (whole, close, the note's box, the terms' box, the words' box: None where under
        the terms)."""
        aspect = [aspect_of(p) for p in (whole_pts, chain)]
        note_h = self.note.height + 0.1 if len(self.note) else 0.0
        words, wide = None, content.width > 9  # 4:3; 1:1: the words under all, full width
        if not wide and self.mv.readout is not None:  # a fourth line where it says little
            tall = WORDS_H + LINE_H * bool(self.mv.readout.says_little)
            content, words = content.rows(content.height - tall, tall, gap=0.15)
        if aspect[1] <= 1.0:
            width = ((content.height - 0.5) * aspect[1] + 0.3) / content.width
            width = float(np.clip(width, 0.28 if wide else 0.22, 0.45))
            close, right = content.columns(width, 1 - width, gap=0.35)
            self.flush = True  # the close-up at the column's left: its labels' room at its right
            self.norms = self.term_list(right.width)
            # the whole plane as tall as its shape asks, within what the terms and words leave
            left = right.height - note_h - self.norms.height - 0.4 - (0 if words else 1.45)
            tall = min(right.width / aspect[0] + 0.45, left)
            # at least 0.9, or what the terms leave down to WHOLE_LEAST (issue 38: a 6-row table
            # at 1:1 was pushed 0.16 out of its box, onto the readout's first line under it)
            least = min(0.9, max(left, WHOLE_LEAST))
            tall = float(np.clip(tall, least, (0.28 if wide else 0.4) * right.height))
            rest = right.height - tall - note_h - 0.2  # less the two gaps: the rows as asked
            whole, note_box, side = right.rows(tall, note_h or 1e-3, rest, gap=0.1)
            return whole, close, note_box, side, words
        self.norms = self.term_list(content.width)  # the terms, then the words, under both
        side = self.norms.height + 0.2 + (0.0 if words else 1.45 if self.mv.readout else 0.75)
        side = min(side, 0.5 * content.height)
        planes, side = content.rows(content.height - side - 0.3, side, gap=0.3)
        planes, note_box = planes.rows(planes.height - note_h, note_h or 1e-3, gap=0.05)
        share = aspect[0] / (aspect[0] + aspect[1])
        share = float(np.clip(share, 0.35, 0.5))  # the close-up at least half
        whole, close = planes.columns(share, 1 - share)
        return whole, close, note_box, side, words

    def headed_plane(self, box, heading: str, points, flush: bool = False):
        """A plane of ``points`` under its heading (``heading`` a word key); ``flush``: at its
        box's left, not centred (issue 38: at 1:1 the tall close-up's five labels had 0.9 of
        room at its right, their leader lines across its arrowheads)."""
        lines = balanced_lines(self.say(heading), box.width, SMALL, 2)
        head = VGroup(*(label(t, SMALL, self.theme.muted) for t in lines))
        head.arrange(DOWN, aligned_edge=LEFT, buff=0.04)
        title_box, plane_box = box.rows(head.height + 0.05, box.height - head.height - 0.15)
        place(head, title_box, "left")
        plane = self.kit.plane(points, plane_box, ticks=False)
        if flush:
            plane.shift((plane_box.x0 - plane.plane.get_left()[0]) * RIGHT)
        plane.heading, plane.box = head, plane_box
        return plane

    def show_token(self):
        """E: the token's own arrow (the residual stream entering the layer, or its input row)."""
        plane, mv = self.whole, self.mv
        self.step(
            "token",
            caption_key=f"token_{mv.source}",
            q=said(visible(str(self.q_tokens[self.i]))),
            does=self.does(),
        )
        colour = self.q_color(self.i)
        self.e_arrow = plane.arrow(self.E2, colour, stroke_width=6)
        # the arrows of the sum's step, made now: no label here may sit where they will be
        self.d_whole = plane.arrow(self.d2, self.theme.output, start=self.E2, stroke_width=6)
        self.total = plane.arrow(self.after2, self.theme.accent, stroke_width=6)
        self.d_close = self.close.arrow(self.d2, self.theme.output, stroke_width=9, opacity=0.5)
        first = self.first  # drawn first, the content's size; the terms' step sets it in place
        self.first_e = VGroup(first.arrow(self.E2, colour, stroke_width=8))
        self.first_e.add(clear_labels(first, [self.E2], [f"E({self.q_name})"], [colour], []))
        place(self.norms, self.side_box, "top-left")
        self.e_tip, self.after_tag = self.tip_names(plane, colour)
        if self.words_box is None:  # the words under the terms' table
            b, top = self.side_box, self.norms.get_bottom()[1] - 0.2
            self.words_box = Box(b.x0, b.y0, b.x1, top)
        self.play(FadeIn(self.first.plane), FadeIn(self.first.heading), run_time=0.8)
        self.play(grow(self.first_e[0]), FadeIn(self.first_e[1]), run_time=1)
        self.hold()

    def tip_names(self, plane, colour):
        """E's label and E + ΔE's (shown at the sum's step), each on its own tip's side of the
        other's where the two tips are close (:func:`halves`: issue 38, "E + ΔE" sat on E's
        arrowhead, placed a step after E's label, which had taken the spot past both tips);
        where that side has no room for it, anywhere clear."""
        texts, colours = [self.say("moved_after"), f"E({self.q_name})"], [self.theme.accent, colour]
        tips = [plane.point(self.after2), plane.point(self.E2)]
        off = halves(*tips)
        # first a gap from the other tip's arrowheads (issue 38: at 4:3 E(she) sat against ΔE's
        # head, read as its label), where the label stays nearer its own tip than the other: on
        # the far side of its own tip from the other (beside both it is neither's), else anywhere
        heads = (heads_apart([self.e_arrow]), heads_apart([self.d_whole, self.total]))
        sides = (halves(*tips, at=0.0)[0], halves(*tips, at=1.0)[1])
        room = around(plane.box, self.regions.content, 0.3)  # (1:1: the plane a thin strip)
        others = [*self.norms, *plane.heading, *self.close.heading, self.close.box]
        out = []
        for k, point in enumerate((self.after2, self.E2)):
            tries = [(off[k] + heads[k] + sides[k], True), (off[k] + heads[k], True)]
            for closed, gap in [*tries, (off[k], False), ([], False)]:
                near = [*self.note, *(m for group in out for m in group), *closed, *others]
                args = (plane, [point], texts[k : k + 1], colours[k : k + 1], near, room)
                tag = clear_labels(*args)
                if any(getattr(m, "is_tip_label", False) for m in tag.get_family()) and (
                    not gap or nearer_own(tag, tips[k], tips[1 - k])
                ):
                    break
            out.append(tag)
        return out[1], out[0]

    def set_in_place(self):
        """The first step's plane, E and its label, shrunk into their places beside the terms."""
        first, whole = self.first, self.whole
        pairs = [(first.plane, whole.plane), (first.heading, whole.heading)]
        pairs += [(self.first_e[0], self.e_arrow), (self.first_e[1], self.e_tip)]
        self.play(*(ReplacementTransform(a, b) for a, b in pairs), run_time=1)

    def term_list(self, width: float):
        """The drawn terms as a table, each in its key's colour: its weight αⱼ and its length
        ‖tⱼ‖ (issue 41: α was not shown), then the rest's count and length: the column's top
        (it fades in as the chain does)."""
        mv, h, i, muted = self.mv, self.hh, self.i, self.theme.muted
        self.alpha = np.asarray(self.trace.heads[h].weights)[i]
        rows = [[label(self.say("moved_terms_heading"), SMALL, muted)]]
        rows[0] += [label(t, SMALL, muted) for t in ("αⱼ", "‖tⱼ‖")]
        for j in self.shown:
            name = visible(self.kit.fit_label(self.k_tokens[j], 2.0, SMALL))
            rows.append(
                [
                    label(name, SMALL, self.k_color(j)),
                    self.num(self.alpha[j], ("weights", h, i, j), 2, size=SMALL),
                    self.num(mv.norms[j], ("moved_norm", h, i, j), 2, size=SMALL),
                ]
            )
        others = [label(self.say(k, n=len(self.rest)), SMALL, muted) for k in OTHERS]
        if self.rest:
            rest = ac.norm(mv.terms[self.rest].sum(axis=0))
            rows.append([others[0], None, self.num(rest, ("moved_rest_norm", h, i), 2, size=SMALL)])
        half = (len(rows) + 2) // 2  # the rows in two tables side by side, where they fit
        copy = [label(self.say("moved_terms_heading"), SMALL, muted)]
        copy += [label(t, SMALL, muted) for t in ("αⱼ", "‖tⱼ‖")]
        table = None  # two tables, the rest's count "+ 12" where "+ 12 others" is too wide (1:1)
        for name in others[: 1 + bool(self.rest)] if len(rows) > 3 else []:
            rows[-1][0] = name if self.rest else rows[-1][0]
            two = VGroup(_table(rows[:half]), _table([copy, *rows[half:]]))
            if two.arrange(buff=0.45, aligned_edge=UP).width <= width:
                table = two
                break
        if table is None:  # one table, the rest named whole
            rows[-1][0] = others[0] if self.rest else rows[-1][0]
            table = _table(rows)
        pieces = self.pieces_line(width)
        return VGroup(table, *pieces).arrange(DOWN, aligned_edge=LEFT, buff=0.08)

    def chain_terms(self):
        """At E's tip, enlarged: the largest terms tip to tail, each labelled in its key's colour;
        the rest in one muted arrow."""
        plane = self.close
        self.step("terms", caption_key="terms_w_o" if self.has_w_o else "terms_o")
        self.set_in_place()
        tip = Dot(plane.point(np.zeros(2)), radius=0.07, color=self.q_color(self.i))
        self.chain = VGroup(
            *(
                plane.arrow(p, c, start=s, stroke_width=5)
                for p, s, c in zip(self.parts2, self.starts2, self.colors)
            )
        )
        names = [visible(self.kit.fit_label(self.k_tokens[j], 2.0, SMALL)) for j in self.shown]
        if self.rest:
            names.append(self.say("moved_others_short", n=len(self.rest)))
        ends = self.starts2 + self.parts2
        room = around(plane.box, self.regions.content, 0.4)
        near = [*self.note, *self.norms, *self.whole.heading, *plane.heading, *self.e_tip]
        near += [*lines_of(self.whole), *([self.words_box] if self.words_box else [])]
        self.chain_names = names  # (each one drawn: tests/test_head_moved.py)
        arrows = [*self.chain, self.d_close]  # (their heads: issue 38)
        beside = around(plane.box, self.regions.content, BESIDE)
        args = (plane, ends, names, self.colors, near, room, arrows, beside)
        score, self.chain_tips = placed_labels(*args)
        d_score, self.d_tag = self.delta_tag()  # shown at the sum's step
        alone = tuple(a + b for a, b in zip(score[:3], d_score[:3]))
        if any(alone):  # ΔE's placed with the terms' (issue 38: at 1:1 its tip, in the chain's
            # middle, had no spot left whose leader line crossed no label or arrowhead)
            colours = [*self.colors, self.theme.output]
            args = (plane, [*ends, self.d2], [*names, "ΔE"], colours, *args[4:])
            joint, tips = placed_labels(*args)
            if joint[:3] < alone:
                self.chain_tips, self.d_tag = split_off(tips, "ΔE")
        # the 2-D note with the plane it describes (issue 41: it came a step early)
        shown = [FadeIn(plane.plane), FadeIn(plane.heading), FadeIn(tip), FadeIn(self.note)]
        self.play(*shown, run_time=0.8)
        self.play(
            *(grow(a) for a in self.chain),
            FadeIn(self.chain_tips),
            FadeIn(self.norms),
            run_time=1.6,
        )
        self.hold()

    def does(self) -> str:
        """What the head does, said once in the first step's caption (issue 41), as the core
        reads it (``attention_core.readings.moved_vector.head_does``: the model-level scores'
        name, its habit, the resting place a head sharp only by it parks its weight on, or its
        shape over all its rows and its followed row's where that differs), in the reading's own
        words (``readings.head_kinds``)."""
        from attention_core.readings.moved_vector import head_does

        ex, h = self.example, self.hh
        W = np.asarray(self.trace.heads[h].weights)
        if ex.is_cross or W.shape != (len(ex.tokens), len(ex.tokens)):
            return ""
        d = head_does(W, ex.tokens, self.i, ac.example_head_scores(ex, h))
        if d.kind == "score":  # the model's measure names it
            return self.say("moved_does_score", head=head_kinds.one_head(d.pattern, self.lang))
        if d.kind == "rest":  # (issue 38: "sharp over all its rows", split between The and the)
            r = said(visible(str(self.k_tokens[d.rest_key])))
            return self.say(f"moved_does_rest_{d.share}", r=r)
        phrase = head_kinds.words("phrase", self.lang)[d.pattern]
        phrase = with_token(phrase, visible(d.token or ""))
        if d.kind == "habit":
            return self.say("moved_does_habit", phrase=phrase)
        if d.row is None:  # (a split head: its two habits, said whole)
            return self.say("moved_does_shape", phrase=phrase)
        if d.row == "peaked":
            return self.say("moved_does_shape_peaked", phrase=phrase)
        row_words = head_kinds.words("phrase", self.lang)[d.row]
        return self.say("moved_does_shape_row", phrase=phrase, row=row_words)

    def pieces_line(self, width: float) -> list:
        """Where the followed key is one piece of a word (``key_pieces``): the word and its
        pieces, "waiter = wait + er", and that each piece adds a term of its own (issue 41)."""
        pair = ac.followed_pair(self.trace, head=self.hh)
        if len(pair.pieces) < 2:
            return []
        text = self.say("moved_pieces", word=self.story_key(pair))
        return [label(t, SMALL, self.theme.muted) for t in balanced_lines(text, width, SMALL, 2)]

    @property
    def has_w_o(self) -> bool:
        """Whether the terms go through W_Oʰ (a model's layer, a multi-head example's W_O)."""
        mh = self.trace.multihead
        return self.mv.source == "residual" or (mh is not None and mh.W_o is not None)

    def show_sum(self):
        """ΔE, the chain's sum (at E's tip, enlarged and in the whole), and E + ΔE."""
        self.step("sum", q=said(visible(str(self.q_tokens[self.i]))))
        d_close, d_whole, total = self.d_close, self.d_whole, self.total
        near = [*self.note, *self.e_tip]
        tags = self.after_tag or clear_labels(
            self.whole, [self.after2], [self.say("moved_after")], [self.theme.accent], near
        )
        # under the chain: a term as long as ΔE (an induction head's) stays seen
        d_close.set_z_index(-1)
        self.play(grow(d_close), FadeIn(self.d_tag))  # (placed with the terms': chain_terms)
        self.play(grow(d_whole), grow(total), FadeIn(tags), run_time=1)
        self.hold()

    def delta_tag(self):
        """ΔE's label clear of the terms' (:func:`placed_labels`: its score, the label)."""
        whole, close, theme = self.whole, self.close, self.theme
        # the terms' labels kept a line's gap from ΔE's (at 16:9 "ΔE" stood against "“,”")
        apart = [box_of(m).inset(-APART) for m in self.chain_tips]
        near = [*self.note, *apart, *self.norms, *whole.heading, *close.heading]
        near += [*self.e_tip, *lines_of(whole), *([self.words_box] if self.words_box else [])]
        near += [m for m in self.chain_tips.get_family() if getattr(m, "is_tip_label", False)]
        room = around(close.box, self.regions.content, 0.4)  # (its leader crossed ΔE at 4:3)
        arrows = [*self.chain, self.d_close]
        beside = around(close.box, self.regions.content, BESIDE)
        args = (close, [self.d2], ["ΔE"], [theme.output], near, room, arrows, beside)
        return placed_labels(*args)

    def show_words(self):
        """The readout in words (or one line saying why there is none / why it says little)."""
        r = self.mv.readout
        if r is None:
            self.step("words", caption_key="words_none")
            lines = self.muted_lines(self.say("moved_no_readout"))
            place(lines, self.words_box, "top-left")
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
            k=said(visible(str(self.k_tokens[self.mv.key]))),
            top=said(visible(r.pushed[0][0])),
            r0=self.rank_nums[0].shown,
            r1=self.rank_nums[1].shown,
            c=minus(self.change_num.shown),
        )
        self.play(FadeIn(words), run_time=1)
        self.hold()

    def readout_column(self, r):
        """Before → after, pushed up, the key's ranks and (where set) says-little, under the
        terms' list; the lists shortened (5, 3, 2, 1 tokens, then pushed up alone) until the
        column fits."""
        h, i, box = self.hh, self.i, self.words_box
        self.layer_num = self.num(moved_layer(self.trace), ("moved_layer",), 0, size=SMALL)
        self.rank_nums = [
            self.num(v, ("moved_key_rank", h, i, w), 0, size=SMALL, color=self.k_color(self.mv.key))
            for w, v in enumerate((r.key_rank_before, r.key_rank_after))
        ]
        colour = self.k_color(self.mv.key)
        self.change_num = self.signed(r.key_change, ("moved_key_change", h, i), 2, colour)
        room = box.height
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
        return place(col, box, "top-left")

    def top_line(self, heading: str, pairs, kind: str, top: int):
        """'E reads:' and its top tokens with their numbers, as many to a line as fit."""
        h, i, width = self.hh, self.i, self.words_box.width
        digits = 2 if kind == "moved_pushed" else 3
        entries = [
            VGroup(
                label(self.token_shown(t), SMALL, self.theme.text),
                self.signed(v, (kind, h, i, r), digits),
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
                    self.signed(pairs[0][1], (kind, h, i, 0), 3),
                ).arrange(buff=0.08)
            )
        return flow(parts, self.words_box.width, hbuff=0.15, vbuff=0.08)

    @staticmethod
    def token_shown(t: str) -> str:
        """A vocabulary token as the readout lists it: quoted as the captions quote a token,
        “‑ale”, “,” (issue 38: a bare "‑ale 2.23" read as a minus), white space as its picture
        (:func:`visible`)."""
        return f"“{visible(ellipsize(t, 1.6, SMALL))}”"

    def rank_line(self):
        """'baker: logit change −0.21, rank 41,282 → 40,547' in the key's colour: the change
        beside the rank (a rank can rise while the logit falls, the others falling more)."""
        j = self.mv.key
        colour = self.k_color(j)
        name = self.say(
            "moved_key_rank", k=visible(self.kit.fit_label(self.k_tokens[j], 1.6, SMALL))
        )
        comma, then = self.say("moved_key_rank_then").split("|")
        change = VGroup(self.change_num, label(comma, SMALL, colour)).arrange(buff=0.02)
        change[1].align_to(self.change_num, DOWN)
        ranks = VGroup(self.rank_nums[0], label("→", SMALL, colour), self.rank_nums[1])
        ranks.arrange(buff=0.1)  # "25,322 → 24,714" never broken at its arrow
        parts = [label(name, SMALL, colour), change, label(then, SMALL, colour), ranks]
        return flow(parts, self.words_box.width, hbuff=0.1)

    def little_line(self):
        """'at layer 19 this readout says little' (the layer a number from the example), its
        words after the number on lines of their own where the line would be too wide; where
        ΔE changed none of the top 5, that ('ΔE changes none of the top 5': E may read well)."""
        if self.mv.readout.says_little == "unchanged":
            return self.muted_lines(self.say("moved_unchanged"))
        before, after = self.say("moved_says_little", layer="{layer}").split("{layer}")
        muted, width = self.theme.muted, self.words_box.width
        first = VGroup(label(before.strip(), SMALL, muted), self.layer_num).arrange(buff=0.1)
        line = VGroup(first, label(after.strip(), SMALL, muted)).arrange(buff=0.1)
        if line.width <= width:
            return line
        rest = [label(t, SMALL, muted) for t in balanced_lines(after.strip(), width, SMALL, 3)]
        return VGroup(first, *rest).arrange(DOWN, aligned_edge=LEFT, buff=0.06)

    def signed(self, value, role, digits: int, color=None) -> Num:
        """A number of the readout in the small type, drawn with the true minus "−0.52"
        (:func:`minus`); its ``shown`` stays the project's rounding, for its role's check."""
        num = self.num(value, role, digits, size=SMALL, color=color)
        if "-" in num.source_text:
            text = label(minus(num.source_text), SMALL, color or self.theme.text)
            num.submobjects = [text.move_to(num[0])]
            num.source_text = text.source_text
        return num

    def muted_lines(self, text: str):
        """``text`` in the muted small type, on as many lines as the words' box needs."""
        width = self.words_box.width
        lines = balanced_lines(text, width, SMALL, 6)
        group = VGroup(*(label(t, SMALL, self.theme.muted) for t in lines))
        group.arrange(DOWN, aligned_edge=LEFT, buff=0.06)
        if group.width > width:
            group.scale_to_fit_width(width)
        return group
