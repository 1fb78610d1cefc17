"""RotaryPositions: RoPE as rotation. One query and one key of a rotary head, drawn in the plane
of a frequency pair (a real head: a fast pair and the slow pair where the score lives, side by
side); each turns by its position times its pair's angle; their score; then both move by the same
shift — each turns further, the angle between them (an arc) and the score stay; last, whether the
head's score lives in a slow pair (content) or a fast one (position)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
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
from scenes.mobjects.layout import Box, place
from scenes.mobjects.text import balanced_lines, fmt, label, text_width
from scenes.mobjects.theme import SMALL
from scenes.parts.dot_products_labels import labels_across

HEADING = 0.5  # a plane's heading, with its gap
# a square frame's numbers and headings set closer (issue 38, he → farmer at 1:1: the planes
# under them were 2.07 of a 7.5-wide content, a leader crossing the he arrow in one): the
# heading's room, the table's and the score lines' gaps between rows, the gap under the planes
SQUARE = {"heading": 0.42, "row": 0.07, "lines": 0.12, "under": 0.2}
ROOMY = {"heading": HEADING, "row": 0.14, "lines": 0.24, "under": 0.3}
PANEL_GAP = 0.45  # between two planes side by side
TICKS_FROM = 3.0  # a plane this large (with its tick labels) or larger has them: a smaller one
# gives their room (a quarter of it) to the turning arrows
NOTE_BESIDE = 2.5  # the directions note goes right of the planes where this much width is left


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
        pair and a slow one), each around the origin; the numbers (the table, the score lines,
        the reading's line) beside them or under them, whichever leaves the planes larger
        (issue 38: at 1:1 and 4:3 they were a fifth of the frame's width), all built here so
        that nothing moves when a row appears."""
        self.v = v = rotary_view(self.trace)
        square = self.frame.width <= self.frame.height * 1.01
        self.gaps = SQUARE if square else ROOMY
        self.qc, self.kc = self.q_color(v.query), self.k_color(v.key)
        self.q_tok, self.k_tok = self.q_tokens[v.query], self.k_tokens[v.key]
        self.table = self.pair_table()
        self.note = VGroup()
        _, where, self.plane_box, numbers_box = max(self.layouts(), key=lambda lay: lay[0])
        numbers = self.numbers_for(where, self.regions.content)  # each try moved the table
        self.score_lines, self.span = numbers.score_lines, numbers.span
        self.score, self.s_score = self.score_lines[0][1], self.score_lines[1][1]
        place(numbers, numbers_box, numbers.align)
        box = self.plane_box
        side = self.plane_side(box)
        self.beside = self.note_beside(box, side)  # the note right of the planes
        if v.directions:  # a line or two under the planes (room kept by plane_side)
            width = self.note_room(box, side) if self.beside else self.row_width(box, side)
            self.note = self.directions_note(width)
        boxes = self.panel_boxes()
        # "pair 25 of 32" wider than a small plane: every heading "pair 25/32", or "pair 25"
        self.heading_key = "rope_pair"
        for key in ("rope_pair_heading", "rope_pair_of"):
            heads = [self.say(key, i=t.pair + 1, P=v.pairs) for t in v.shown]
            if all(text_width(h, SMALL) <= b.width for h, b in zip(heads, boxes)):
                self.heading_key = key
                break
        self.panels = [self.panel(p, b) for p, b in zip(v.shown, boxes, strict=True)]
        planes = VGroup(*(pn.plane for pn in self.panels))
        if self.beside:
            self.note.next_to(planes, RIGHT, buff=0.3)
        elif v.directions:  # just under the planes, inside their box
            self.note.next_to(planes, DOWN, buff=0.1).set_x(planes.get_x())
            self.note.shift(RIGHT * max(0.0, box.x0 - self.note.get_left()[0]))
            self.note.shift(LEFT * max(0.0, self.note.get_right()[0] - box.x1))

    def layouts(self):
        """Each way to share the content between the planes and the numbers: (the planes' side,
        the way's name, their box, the numbers' box). Beside: the numbers in a column right
        of the planes; under: the table and the score lines side by side under them (or one
        above the other)."""
        content = self.regions.content
        for where in ("beside", "under", "under_stacked"):
            # 0.3 under the planes (was 0.4: a two-line title's lines set on their baselines,
            # 96ef81c, took 0.03 more of a square frame's height, and smollm2-baker's planes at
            # 1:1 fell to 24.7 % of the frame's width, under the real-sentence check's 25 %)
            gap = 0.4 if where == "beside" else self.gaps["under"]
            numbers = self.numbers_for(where, content)
            if where == "beside":
                room = content.width - numbers.width - gap
                planes = Box(content.x0, content.y0, content.x0 + room, content.y1)
                spot = Box(planes.x1 + gap, content.y0, content.x1, content.y1)
            else:
                room = content.height - numbers.height - gap
                planes = Box(content.x0, content.y1 - room, content.x1, content.y1)
                spot = Box(content.x0, content.y0, content.x1, planes.y0 - gap)
            if numbers.width > content.width + 1e-6 or room <= 1.0:
                continue
            yield self.plane_side(planes), where, planes, spot

    def numbers_for(self, where: str, content) -> VGroup:
        """The table, the score lines and the reading's line arranged for ``where`` (see
        :meth:`layouts`); the score lines in short words where the long ones are too wide."""
        table, v = self.table, self.v
        side = where == "under"  # the score lines beside the table
        room = content.width - table.width - 0.4 if side else max(table.width, 3.0)
        lines = self.score_block(room, short=False)
        if lines.width > room:
            lines = self.score_block(room, short=True)
        span = self.span_lines(room) if len(v.shown) > 1 else VGroup()
        span.next_to(lines, DOWN, aligned_edge=LEFT, buff=self.gaps["lines"])
        words = VGroup(lines, span)
        numbers = VGroup(table, words)
        if side:
            numbers.arrange(RIGHT, aligned_edge=UP, buff=0.4)
        else:
            numbers.arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        numbers.score_lines, numbers.span = lines, span
        numbers.align = "left" if where == "beside" else "top"
        return numbers

    def score_block(self, room: float, short: bool) -> VGroup:
        """ "score (32 pairs) = 43.15" and "both moved by 3 = 43.15", one above the other
        (``short``: "score =", "moved by 3 =": a narrow column's; the heading above each plane
        says how many pairs there are)."""
        v, text, accent = self.v, self.theme.text, self.theme.accent
        key = "rope_score" if v.pairs > 1 and not short else "rope_score_one"
        shifted = "rope_shifted_short" if short else "rope_shifted"
        score = self.num(v.score, ("rotary", "score"), 2, color=accent)
        moved = self.num(v.score_shifted, ("rotary", "score_shifted"), 2, color=accent)
        return VGroup(
            VGroup(label(self.say(key, P=v.pairs), SMALL, text), score).arrange(buff=0.12),
            VGroup(  # in the text's colour, as the line above (it had none: 1.11:1 contrast)
                label(self.say(shifted, s=v.shift), SMALL, text), moved
            ).arrange(buff=0.12),
        ).arrange(DOWN, aligned_edge=LEFT, buff=self.gaps["lines"])

    def plane_side(self, box) -> float:
        """How large each plane (with its tick labels) can be in ``box``, side by side under
        their headings (and a line under them where the planes draw directions)."""
        k = len(self.v.shown)
        heading = self.gaps["heading"]
        whole = side = min((box.width - PANEL_GAP * (k - 1)) / k, box.height - heading)
        if self.note_beside(box, side):  # the note right of the planes
            return side
        for _ in range(2 if self.v.directions else 0):  # the note as wide as the planes' row
            note = self.directions_note(self.row_width(box, side)).height + 0.1
            side = min((box.width - PANEL_GAP * (k - 1)) / k, box.height - heading - note)
        if self.v.directions:  # or beside planes a little smaller, where they are larger so
            wide = next(  # the narrowest column its lines keep to
                (
                    w
                    for w in np.arange(NOTE_BESIDE, box.width / 2, 0.05)
                    if self.directions_note(w).width <= w
                ),
                box.width,
            )
            beside = min(whole, (box.width - 0.3 - wide - PANEL_GAP * (k - 1)) / k)
            if beside > side and self.note_beside(box, beside):
                return beside
        return side

    def note_beside(self, box, side: float) -> bool:
        """Whether the directions note goes right of the planes: :data:`NOTE_BESIDE` left
        there, and its lines no wider than that (a square frame's closer headings gave the
        planes more of it: the note, wider than its room, pushed them off the frame's left)."""
        room = self.note_room(box, side)
        return room >= NOTE_BESIDE and self.directions_note(room).width <= room

    def note_room(self, box, side: float) -> float:
        """Where the planes draw directions, the width right of their row for the note (0 where
        they draw the vectors themselves)."""
        return box.width - self.row_width(box, side) - 0.3 if self.v.directions else 0.0

    def row_width(self, box, side: float) -> float:
        """The width of the planes side by side in ``box``, each ``side`` large."""
        k = len(self.v.shown)
        return min(box.width, k * side + PANEL_GAP * (k - 1))

    def directions_note(self, width: float) -> VGroup:
        """ "arrows: directions (unit circle); lengths in the table", on lines of ``width``."""
        lines = balanced_lines(self.say("rope_directions"), width, SMALL, max_lines=3)
        note = VGroup(*(label(t, SMALL, self.theme.muted) for t in lines))
        return note.arrange(DOWN, buff=0.08)

    def panel_boxes(self) -> list:
        """One box per shown pair, side by side in the middle of the planes' box, each as large
        as its plane and heading (the planes close together, not at the box's far ends)."""
        box, k = self.plane_box, len(self.v.shown)
        side = self.plane_side(box)
        width = self.row_width(box, side)
        both = width + (0.3 + self.note.width if self.beside else 0.0)  # the note beside them
        height = min(box.height, side + self.gaps["heading"])  # the headings just above them
        note = self.note.height + 0.1 if self.v.directions and not self.beside else 0.0
        (x, y), h = box.center[:2], height / 2
        y = min(y + note / 2, box.y1 - h)  # the note under them: the three centred together
        x0 = x - both / 2
        return Box(x0, y - h, x0 + width, y + h).columns(*[1] * k, gap=PANEL_GAP)

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
            buff=(0.25, self.gaps["row"]),
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
        heading = self.gaps["heading"]
        head_box, plane_box = box.rows(heading - 0.1, box.height - heading, gap=0.1)
        heading = self.say(self.heading_key, i=turn.pair + 1, P=self.v.pairs)
        r = 1.0 if self.v.directions else turn.reach  # directions: the unit circle
        ticks = min(plane_box.width, plane_box.height) >= TICKS_FROM
        plane = self.kit.plane([[r, r], [-r, -r]], plane_box, pad=0.08, ticks=ticks)
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
        tips = self.tip_labels_clear(plane, [q, k], panel.box)
        reach = 1.0 if self.v.directions else panel.turn.reach
        return VGroup(arrows, angle_arc(plane, q, k, 0.45 * reach, self.theme), tips)

    def tip_labels_clear(self, plane, coords, box) -> VGroup:
        """The query's and the key's tip labels, none across the other's arrow from its own
        tip (issue 38, he → farmer at 1:1: farmer's leader line crossed the he arrow, and at
        the slow pair "farmer" sat left of the he shaft, its own tip right of it): placed as
        ever, else clear of a band round each shaft (:data:`BANDS`, its last tenth by the tip
        left free for the label of that tip), the first placing with no label across."""
        origin = plane.point([0, 0])
        shafts = [(origin, plane.point(c)) for c in coords]
        tokens, colors = [self.q_tok, self.k_tok], [self.qc, self.kc]
        tips = VGroup()
        for half in BANDS:
            bands = [] if half == 0 else shaft_bands(shafts, half)
            obstacles = list(plane.tick_labels) + bands
            tips = plane.tip_labels(coords, tokens, colors, box, obstacles=obstacles)
            if not labels_across(tips, shafts):
                break
        return tips

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


BANDS = (0.0, 0.15, 0.3)  # RotaryPositions: the bands round the shafts its labels may try


def shaft_bands(shafts, half: float) -> list[Box]:
    """Boxes ``half`` either side of each shaft (tail, tip) on screen, along its first nine
    tenths: no label there, though one may sit by its own tip."""
    return [
        Box(p[0] - half, p[1] - half, p[0] + half, p[1] + half)
        for a, b in shafts
        for p in (a + t * (b - a) for t in np.linspace(0.0, 0.9, 10))
    ]


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
