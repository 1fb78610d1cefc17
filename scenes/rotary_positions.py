"""RotaryPositions: RoPE as rotation. One query and one key of a rotary head, drawn in the plane
of a frequency pair (a real head: a fast pair and the slow pair where the score lives, side by
side); each turns by its position times its pair's angle; their score; then both move by the same
shift — each turns further, the angle between them (an arc) and the score stay; last, whether the
head's score lives in a slow pair (content) or a fast one (position)."""

from __future__ import annotations

import math
from types import SimpleNamespace

from manim import DOWN, LEFT, RIGHT, UP, Arc, Circle, ReplacementTransform, VGroup

import attention_core as ac
from attention_core.readings.rotary_view import (
    angle_decimals,
    rotary_example,
    rotary_view,
    score_reading,
)
from scenes.kit.base import ExplainerScene
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import place
from scenes.mobjects.text import balanced_lines, fmt, label
from scenes.mobjects.theme import SMALL


class RotaryPositions(ExplainerScene):
    """A query and a key turned by their positions: only the offset between them matters."""

    def __init__(self, example=None, **kwargs):
        super().__init__(example, **kwargs)
        # an example without rotary positions (the registry does not offer it this scene) is
        # shown through a 2-D rotary stand-in, so the scene renders for any example
        if self.example.rotary_base is None:
            self.example = rotary_example(self.example)
            self.trace = ac.trace_example(self.example)

    def construct(self):
        self.lay_out()
        self.show_pair()
        self.show_turn()
        self.show_score()
        self.show_shift()
        if len(self.v.shown) > 1:
            self.show_reading()

    def lay_out(self):
        """The view of one query/key pair; one plane per shown pair (two side by side: a fast
        pair and a slow one), each around the origin; the numbers beside them (below them in a
        square frame), all built here so that nothing moves when a row appears."""
        self.v = v = rotary_view(self.trace)
        content = self.regions.content
        self.wide = content.width >= 1.6 * content.height
        if self.wide:
            self.plane_box, self.numbers_box = content.columns(5, 4, gap=0.4)
        else:
            self.plane_box, self.numbers_box = content.rows(1, 1, gap=0.2)
        if v.directions:  # a line or two under the planes: they show directions
            box = self.plane_box
            lines = balanced_lines(self.say("rope_directions"), box.width, SMALL, max_lines=2)
            self.note = VGroup(*(label(t, SMALL, self.theme.muted) for t in lines))
            self.note.arrange(DOWN, buff=0.08)
            tall = self.note.height + 0.05
            self.plane_box, note_box = box.rows(box.height - tall - 0.1, tall, gap=0.1)
            place(self.note, note_box, "center")
        boxes = self.plane_box.columns(*[1] * len(v.shown), gap=0.3)
        self.panels = [self.panel(p, box) for p, box in zip(v.shown, boxes, strict=True)]
        self.qc, self.kc = self.q_color(v.query), self.k_color(v.key)
        self.q_tok, self.k_tok = self.q_tokens[v.query], self.k_tokens[v.key]
        self.table = self.pair_table()
        self.score = self.num(v.score, ("rotary", "score"), 2, color=self.theme.accent)
        self.s_score = self.num(
            v.score_shifted, ("rotary", "score_shifted"), 2, color=self.theme.accent
        )
        whole = self.say("rope_score" if v.pairs > 1 else "rope_score_one", P=v.pairs)
        self.score_lines = VGroup(
            VGroup(label(whole, SMALL, self.theme.text), self.score).arrange(buff=0.12),
            VGroup(  # in the text's colour, as the line above (it had none: 1.11:1 contrast)
                label(self.say("rope_shifted", s=v.shift), SMALL, self.theme.text), self.s_score
            ).arrange(buff=0.12),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.24)
        # the reading's line, laid out now (shown last): beside the table in a square frame
        room = self.numbers_box.width - (0 if self.wide else self.table.width + 0.4)
        self.span = self.span_lines(room) if len(v.shown) > 1 else VGroup()
        self.span.next_to(self.score_lines, DOWN, aligned_edge=LEFT, buff=0.24)
        numbers = VGroup(self.table, VGroup(self.score_lines, self.span))
        numbers.arrange(DOWN, aligned_edge=LEFT, buff=0.4)
        if self.wide:
            place(numbers, self.numbers_box, "left")
        else:  # below the planes: side by side where they fit
            if numbers.height > self.numbers_box.height:
                numbers.arrange(RIGHT, aligned_edge=UP, buff=0.4)
            place(numbers, self.numbers_box, "center")

    def pair_table(self) -> VGroup:
        """Rows of the shown pairs' numbers (one column per pair): its name, ω per position,
        the query's turn m·ω, the key's n·ω, its part of the score. ``table.rows`` by name."""
        v, text = self.v, self.theme.text
        rows = {
            "pair": [label(self.say("rope_pair", i=t.pair + 1), SMALL, text) for t in v.shown],
            "omega": [
                self._deg(t.degrees, n, "degrees", t.decimals) for n, t in enumerate(v.shown)
            ],
            **self.angle_cells(""),
            **self.length_cells(),
            "term": [
                self.num(t.term, ("rotary_pair", n, "term"), 2) for n, t in enumerate(v.shown)
            ],
        }
        heads = {
            "pair": "",
            "omega": self.say("rope_omega"),
            "m": f"{v.m}·ω",
            "n": f"{v.n}·ω",
            "lengths": "|q|·|k|",
            "term": self.say("rope_term"),
        }  # the shift step turns the m and n rows into (m + s)·ω and (n + s)·ω
        colors = {"m": self.qc, "n": self.kc}
        cells = [[label(heads[r], SMALL, colors.get(r, text)), *rows[r]] for r in rows]
        table = VGroup(*[m for row in cells for m in row])
        table.arrange_in_grid(
            rows=len(cells),
            cols=len(cells[0]),
            buff=(0.25, 0.2),
            col_alignments="l" + "r" * len(v.shown),
        )
        table.rows = {r: VGroup(*cells[n]) for n, r in enumerate(rows)}
        return table

    def angle_cells(self, which: str) -> dict:
        """The m and n rows' angles for each shown pair: at the positions (``which`` "") or
        after the shift (``"_shifted"``)."""
        rows = {}
        for row, color in (("m", self.qc), ("n", self.kc)):
            field = f"angle_{row}{which}"
            rows[row] = [
                self._deg(getattr(t, field), n, field, angle_decimals(getattr(t, field)), color)
                for n, t in enumerate(self.v.shown)
            ]
        return rows

    def length_cells(self) -> dict:
        """Where the planes draw directions: each shown pair's |q|·|k| (turning keeps both
        lengths; its part of the score is |q|·|k|·cos of the arc)."""
        if not self.v.directions:
            return {}
        cells = [
            self.num(t.lengths, ("rotary_pair", n, "lengths"), 2)
            for n, t in enumerate(self.v.shown)
        ]
        return {"lengths": cells}

    def shifted_rows(self) -> dict:
        """The table's m and n rows after the shift, in their places: (m + s)·ω, (n + s)·ω."""
        v, out = self.v, {}
        for row, cells in self.angle_cells("_shifted").items():
            old = self.table.rows[row]
            at = v.m if row == "m" else v.n
            head = label(f"{at + v.shift}·ω", SMALL, self.qc if row == "m" else self.kc)
            new = VGroup(head.move_to(old[0], aligned_edge=LEFT), *cells)
            for cell, place_of in zip(cells, old[1:]):
                cell.move_to(place_of, aligned_edge=RIGHT)
            out[row] = new
        return out

    def panel(self, turn, box) -> SimpleNamespace:
        """One pair's plane in ``box`` under its heading: −reach … reach on both axes."""
        head_box, plane_box = box.rows(0.4, box.height - 0.5, gap=0.1)
        heading = self.say("rope_pair_heading", i=turn.pair + 1, P=self.v.pairs)
        r = 1.0 if self.v.directions else turn.reach  # directions: the unit circle
        plane = self.kit.plane([[r, r], [-r, -r]], plane_box, pad=0.08)
        if self.v.directions:
            ring = Circle(radius=plane.unit, color=self.theme.muted, stroke_width=2)
            plane.add(ring.move_to(plane.point([0, 0])))
        head = place(self.kit.label(heading, SMALL), head_box, "center")
        return SimpleNamespace(turn=turn, plane=plane, box=plane_box, heading=head, now=None)

    def drawn_at(self, panel, q, k) -> VGroup:
        """The query's and the key's arrows at ``q`` and ``k`` in ``panel``, the arc of the
        angle between them at the origin, and their tokens at the tips (where the planes draw
        directions, ``q`` and ``k`` are drawn to the unit circle)."""
        plane = panel.plane
        if self.v.directions:
            q, k = unit(q), unit(k)
        arrows = VGroup(plane.arrow(q, self.qc), plane.arrow(k, self.kc, outline=True))
        tokens, colors = [self.q_tok, self.k_tok], [self.qc, self.kc]
        tips = plane.tip_labels(
            [q, k], tokens, colors, panel.box, obstacles=list(plane.tick_labels)
        )
        reach = 1.0 if self.v.directions else panel.turn.reach
        return VGroup(arrows, angle_arc(plane, q, k, 0.45 * reach, self.theme), tips)

    def show_pair(self):
        """1. each pair's plane, the query and the key as they leave the projections, and the
        pair's angle per position."""
        v = self.v
        ids = {f"i{n}": p.pair + 1 for n, p in enumerate(v.shown)}
        key = "pairs_two" if len(v.shown) > 1 else ("pair_most" if v.pairs > 1 else "pair")
        self.step(key, q=self.q_tok, k=self.k_tok, i=v.pair + 1, P=v.pairs, **ids)
        planes = [FadeIn(x) for pn in self.panels for x in (pn.plane, pn.heading)]
        planes += [FadeIn(self.note)] if v.directions else []
        self.play(*planes, run_time=0.8)
        for pn in self.panels:
            pn.now = self.drawn_at(pn, pn.turn.q, pn.turn.k)
        self.play(*[FadeIn(pn.now) for pn in self.panels], run_time=1)
        rows = ["pair", "omega"] + (["lengths"] if v.directions else [])
        self.play(*[FadeIn(self.table.rows[r]) for r in rows])
        self.hold()

    def move_arrows(self, which: str):
        """Every panel's arrows, arc and tip labels turned to its ``which`` ("turned",
        "shifted") query and key."""
        moves = []
        for pn in self.panels:
            q, k = getattr(pn.turn, f"q_{which}"), getattr(pn.turn, f"k_{which}")
            old, pn.now = pn.now, self.drawn_at(pn, q, k)
            moves.append(ReplacementTransform(old, pn.now))
        self.play(*moves, run_time=2)

    def show_turn(self):
        """2. each turns by its position times its pair's ω."""
        v = self.v
        self.step("turn", q=self.q_tok, m=v.m, k=self.k_tok, n=v.n)
        self.move_arrows("turned")
        self.play(FadeIn(self.table.rows["m"]), FadeIn(self.table.rows["n"]))
        self.hold()

    def show_score(self):
        """3. their score: each shown pair's part, and the whole over every pair."""
        choice = self.followed_query()  # a trained or asked head's: the pair drawn here
        does = self.head_does(choice) if choice.row == self.v.query else ""
        key = "score_does" if does else "score"
        self.step("score", key, q=self.q_tok, k=self.k_tok, score=self.score.shown, does=does)
        self.play(FadeIn(self.table.rows["term"]), FadeIn(self.score_lines[0]))
        self.hold()

    def show_shift(self):
        """4. both move by s: each turns s·ω further, the angle between them (the arc) stays,
        so the score."""
        v = self.v
        self.step("shift", s=v.shift, score=self.s_score.shown)
        self.move_arrows("shifted")
        for row, new in self.shifted_rows().items():  # the angles the arrows now turn by
            self.play(ReplacementTransform(self.table.rows[row], new), run_time=0.6)
            self.table.rows[row] = new
        self.play(FadeIn(self.score_lines[1]))
        self.hold(1.5)

    def show_reading(self):
        """5. where this head's score lives: a slow pair (content) or a fast one (position)."""
        v = self.v
        main = next(t for t in v.shown if t.pair == v.pair)
        turn = fmt(main.degrees * v.span, angle_decimals(main.degrees * v.span))
        self.step(
            f"reading_{score_reading(v)}",
            i=v.pair + 1,
            w=fmt(main.degrees, main.decimals),
            L=v.span,
            t=turn,
        )
        self.play(FadeIn(self.span))  # laid out with the numbers, shown now
        self.hold(2)

    def span_lines(self, room: float) -> VGroup:
        """The reading's line: how far the pair where the score lives turns over the text."""
        v = self.v
        main = next(t for t in v.shown if t.pair == v.pair)
        turn = fmt(main.degrees * v.span, angle_decimals(main.degrees * v.span))
        text = self.say("rope_span", i=v.pair + 1, L=v.span, t=turn)
        lines = balanced_lines(text, room, SMALL, max_lines=2)
        span = VGroup(*(label(t, SMALL, self.theme.text) for t in lines))
        return span.arrange(DOWN, aligned_edge=LEFT, buff=0.08)

    def _deg(self, value: float, n: int, field: str, digits: int, color=None):
        """Shown pair ``n``'s angle ``field`` in degrees, with ``digits`` decimals."""
        role = ("rotary_pair", n, field)
        return self.num(value, role, digits, color=color or self.theme.accent, suffix="°")


def unit(v):
    """``v`` scaled to length 1 (a zero vector stays zero)."""
    length = math.hypot(float(v[0]), float(v[1]))
    return v if length == 0 else v / length


def angle_arc(plane, q, k, radius: float, theme) -> Arc:
    """The arc at ``plane``'s origin from ``k``'s direction to ``q``'s (the shorter way), of
    ``radius`` in the plane's units."""
    a_q, a_k = math.atan2(q[1], q[0]), math.atan2(k[1], k[0])
    sweep = (a_q - a_k + math.pi) % (2 * math.pi) - math.pi
    return Arc(
        radius=max(radius * plane.unit, 0.15),
        start_angle=a_k,
        angle=sweep if abs(sweep) > 1e-3 else 1e-3,
        arc_center=plane.point([0, 0]),
        color=theme.accent,
        stroke_width=4,
    )
