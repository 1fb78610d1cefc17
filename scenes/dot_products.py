"""DotProducts: for one query, each key's shadow on the query's direction, |q||k| cos θ, and the
number flying into its cell of the score matrix (or, where the matrix cannot show every key
worked, its entry in the query's row of scores); then every other cell from its own shadow. The
keys worked are the story's at every aspect (``attention_core.worked_keys``).

The plane persists: across the chosen query's keys only the key (and its shadow) moves; for
d > 2 each pair is drawn in the exact plane its q and k span (the query on the x axis, so it
stays put while the key turns).
"""

from __future__ import annotations

import math

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arc,
    Create,
    DashedLine,
    Dot,
    LaggedStart,
    Line,
    ReplacementTransform,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    VGroup,
)

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import Box, box_of, flow, place
from scenes.mobjects.math import math as typeset
from scenes.mobjects.plane import grow, shaft_marks
from scenes.mobjects.text import balanced_lines, fmt, label
from scenes.mobjects.theme import BODY, SMALL
from scenes.parts.dot_products_labels import KeyLabels, stacked_feet
from scenes.parts.dot_products_layout import LayoutSteps
from scenes.parts.dot_products_matrix import MatrixSteps

QUICK_BUDGET = 14.0  # seconds for all the other cells together (each still from its own shadow)
FOOT = 0.06  # the radius of a shadow's foot (a dot on q's line)


class DotProducts(KeyLabels, MatrixSteps, LayoutSteps, ExplainerScene):
    """q·k = |q|·(the length of k's shadow on q) = |q||k|cos θ, cell by cell."""

    def construct(self):
        self.exact_2d = self.head.d_k == 2
        self.extra_cells = {}  # scores shown outside the matrix (a list), by (row, key)
        self.flying = False  # whether the plane is for the rows flown at the matrix step
        self.again = False  # whether it is for the followed row alone again (the last step)
        self.measured = {}  # a pair's arithmetic built at the small size to measure it, by (i, j)
        self.choose_query()
        left = self.lay_out_matrix()
        # one plane for the whole scene: it covers every pair it will show; under it its legend
        legend, note = self.set_plane(left, tight=not self.wide)
        keys = self.show_query(legend, note)
        for step, j in enumerate(keys):
            new = self.pair_mobjects(self.i, j)  # its comparison said where it is on screen
            key = "pair_random" if len(new["random"]) else "pair"
            self.step(f"pair{step + 1}", caption_key=key, **self.pair_values(self.i, j))
            self.show_pair(self.i, j, new)
            self.hold()
        if self.matrix is None:
            self.fill_from_list(keys)
        else:
            self.fill_the_matrix(keys)

    def choose_query(self):
        """The query to follow: the core's most informative row among those that have a
        direction (a zero query, a padding token's, casts no shadow), and the keys to work in
        full (``attention_core.worked_keys``: the followed pair's key first, then the ones it
        weighs most, never one the mask blocks); the same at every aspect."""
        self.choice = self.followed_query()  # and what may be said of it
        self.i = i = self.choice.row
        pair = ac.followed_pair(self.trace)  # the key a trained or asked head's pair names
        self.pair_key = [pair.key] if self.choice.kind in ("followed", "asked") else []
        mask = self.head.mask
        seen = None if mask is None else np.asarray(mask, bool)[i]
        key = self.pair_key[0] if self.pair_key else None
        self.keys = list(ac.worked_keys(self.head.weights[i], key, seen))

    def show_query(self, legend, note):
        """The plane, the empty matrix (or list) and the chosen query's arrow; returns the keys
        to work in full."""
        head, matrix, i = self.head, self.matrix, self.i
        top = int(np.argmax(head.weights[i]))
        self.step(
            "query",
            caption_key=f"query_{self.choice.kind}",
            alike=f"{ac.readings.claims.ALIKE:.2f}",
            q=f"q({self.q_tokens[i]})",
            does=self.head_does(self.choice),  # what the head does, as AttentionMatrix says
            top=self.num(head.weights[i, top], ("weights", self.h, i, top)).shown,
        )
        if matrix is not None:
            self.add(self.m_title, matrix.frame_parts())
            self.row_mark_mob = row_mark = self.row_mark(i)
        else:  # the list of the followed row's scores: its keys, their numbers still to come
            self.row_mark_mob, row_mark = None, VGroup()
            self.add(VGroup(*(e[0] for e in self.entries)))
        keys = self.keys
        pq, _ = self.pair_coords(i, keys[0])
        q_arrow = self.plane.arrow(pq, self.q_color(i))
        q_label = self.plane.tip_labels(
            [pq],
            [f"q({self.q_tokens[i]})"],
            [self.q_color(i)],
            self.plane_box,
            self.plane.tick_labels,
            clear_axes=True,
        )
        self.plane_parts = VGroup(self.plane.plane, self.plane.tick_labels, legend, note)
        self.play(
            Create(self.plane.plane),
            FadeIn(self.plane.tick_labels),
            FadeIn(legend),
            FadeIn(note),
            *([Create(row_mark)] if len(row_mark) else []),
            run_time=1.0,
        )
        # the weight the caption names, on screen until the first pair's work takes its place
        self.top_note = flow(
            [
                *(  # of the marked row; its words on two lines in a narrow column
                    label(t, SMALL, self.q_color(i))
                    for t in balanced_lines(self.say("largest_weight"), self.work_box.width, SMALL)
                ),
                self.num(head.weights[i, top], ("weights", self.h, i, top), color=self.theme.muted),
            ],
            self.work_box.width,
            hbuff=0.12,
            vbuff=0.08,
        )
        place(self.top_note, self.work_box, "top-left")
        self.play(grow(q_arrow), FadeIn(q_label), FadeIn(self.top_note), run_time=0.8)
        self.pair = {"q": q_arrow, "labels": q_label}
        return keys

    def fill_the_matrix(self, keys):
        """Every other cell, each from its own shadow: zero queries (padding) first, the chosen
        query's row last, so the last still shows the followed query with every shown key, each
        labelled (its keys worked in full drawn again, their numbers already in place). Where the
        matrix was elided, the whole of it then takes the room the arithmetic leaves (a grid of
        squares where numbers no longer fit): a few rows from their shadows, the rest at once."""
        ex, old, i = self.example, self.matrix, self.i
        self.step("matrix", m=ex.n, n=ex.n_keys)
        self.play(*(FadeOut(m) for m in self.pair.values() if len(m)), run_time=0.4)
        rows, cols = list(old.shown_rows), list(old.shown_columns)
        others = [a for a in rows if a != i]
        others.sort(key=lambda a: ac.norm(self.head.Q[a]) > 0)
        flown = [*others, i] if i in rows else others  # the followed query last (the still's)
        whole = len(rows) == ex.n and len(cols) == ex.n_keys
        # a wide frame: the whole matrix where the arithmetic was, then rows from their shadows;
        # a narrow one: the shadows on the shown cells, then the whole matrix in the whole frame
        grid, beside, side = (None, False, None) if whole else self.whole_matrix()
        if grid is not None:
            flown = flown[:-1][-2:] + flown[-1:]  # two rows and the chosen one, from their shadows
            if beside:
                self.regrid(old, grid, keys)
            if side is not None:  # a narrow frame: the plane, smaller, beside the whole matrix
                self.move_plane(side)
        if side is not None:  # the small plane: the followed key and the strongest, labelled
            key = self.pair_key[0] if self.pair_key else None
            cols = sorted({*keys, *ac.labelled_keys(self.head.weights[i], key).keys})
        todo = {a: [b for b in cols if not (a == i and b in keys)] for a in flown}
        todo = {a: bs for a, bs in todo.items() if bs or a == i}  # the followed row always
        per_cell = self.fly_rows(todo, cols, last_stays=grid is None or beside)
        if grid is not None and not beside:
            self.play(FadeOut(self.plane_parts), run_time=0.4)
            done = {(a, b) for a, bs in todo.items() for b in bs} | {(i, b) for b in keys}
            self.regrid(old, grid, sorted(done))
        if grid is not None:  # every other cell at once, row by row
            done = {(a, b) for a, bs in todo.items() for b in bs} | {(i, b) for b in keys}
            self.rest_at_once(grid, done)
        self.hold(1.2)
        if grid is not None and not beside:  # the plane made way: it comes back, the still's
            self.row_again(keys, per_cell)

    def fly_rows(self, todo: dict, cols, last_stays: bool) -> float:
        """Each row of ``todo`` ({query: its keys still to fly}) from its shadows, the followed
        row with every key of ``cols`` drawn and (``last_stays``: the still's) staying; returns
        the time a cell took."""
        cells = sum(len(bs) for bs in todo.values())
        per_cell = max(0.12, min(0.5, QUICK_BUDGET / max(cells, 1)))
        for step, (a, bs) in enumerate(todo.items()):
            last = step == len(todo) - 1 and last_stays
            drawn = cols if a == self.i else bs  # the followed row: every shown key, worked or not
            self.quick_row(
                a, drawn, per_cell, self.row_mark_mob, last=last, done=set(drawn) - set(bs)
            )
        return per_cell

    def rest_at_once(self, grid, done) -> None:
        """Every cell of ``grid`` not in ``done`` at once, row by row."""
        rest = [
            VGroup(*(grid.mark(a, b) for b in grid.shown_columns if (a, b) not in done))
            for a in grid.shown_rows
        ]
        rest = [r for r in rest if len(r)]
        if rest:
            self.play(LaggedStart(*(FadeIn(r) for r in rest), lag_ratio=0.15), run_time=2.0)

    # -- what the plane must hold ----------------------------------------------------------------
    def pair_coords(self, a: int, b: int):
        """(q, k) of query a and key b as drawn: themselves for d = 2, else in their own plane."""
        head = self.head
        q, k = head.Q[a], head.K[b]
        if self.exact_2d:
            return np.asarray(q, float), np.asarray(k, float)
        if ac.norm(q) == 0 or ac.norm(k) == 0:  # a zero vector has no angle: both on the x axis
            return np.array([ac.norm(q), 0.0]), np.array([ac.norm(k), 0.0])
        pp = ac.pair_plane(q, k)
        return pp.q, pp.k

    def all_points(self) -> np.ndarray:
        """Every point the plane shows: the tips of each pair the scene works (the shown cells',
        or with a list the followed row's, and the rows flown at the matrix step where the plane
        stays for them: in a wide frame, or once it moves for them); at the last step (``again``)
        the followed row's listed keys alone. For d = 2 too: a plane for every query and key
        left the followed query and its four keys in a corner of it (issue 38, 24 tokens)."""
        if self.again:  # the last step: the followed row's listed keys alone
            rows, cols = [self.i], self.listed
        elif self.matrix is not None:
            rows, cols = self.matrix.shown_rows, self.matrix.shown_columns
        else:  # the followed row's keys, and where the plane stays for them the rows flown
            flown = self.list_rows() if self.wide or self.flying else []
            rows, cols = [*flown, self.i], self.listed
        pts = [np.zeros(2)]
        for a in rows:
            for b in cols:
                pts += list(self.pair_coords(a, b))
        return np.vstack(pts)

    def row_mark(self, a: int):
        cells = [self.matrix.cell_rect(a, b) for b in self.matrix.shown_columns]
        # a grid of squares has rows as tall as their labels: the frame goes round the cells
        label = [] if self.matrix.style.squares else [self.matrix.row_label_of[a]]
        row = VGroup(*label, *cells)
        return SurroundingRectangle(row, color=self.theme.accent, buff=0.04, stroke_width=3)

    def random_compared(self, i: int, j: int) -> dict:
        """For the first worked pair (the followed one) in d_k > 2 dimensions, its cos θ against
        random directions' (issue 38: cos θ = 0.14 between q(he) and k(farmer) looked small;
        in 64 dimensions random directions' spread is 0.125, so it is 1.1 of those): d, that
        spread (``attention_core.random_cos_spread``), cos θ and the ratio
        (``attention_core.cos_against_random``); empty elsewhere."""
        head = self.head
        q, k = head.Q[i], head.K[j]
        if self.exact_2d or j != self.keys[0] or ac.norm(q) == 0 or ac.norm(k) == 0:
            return {}
        d = int(head.d_k)
        return {
            "d": str(d),
            "spread": fmt(ac.random_cos_spread(d), 3),
            "cos": self.num(math.cos(ac.angle(q, k)), ("cos", self.h, i, j)).shown,
            "times": fmt(ac.cos_against_random(q, k), 1),
        }

    def pair_values(self, i, j) -> dict:
        head = self.head
        zero_q = ac.norm(head.Q[i]) == 0
        return self.random_compared(i, j) | {
            "q": f"q({self.q_tokens[i]})",
            "k": f"k({self.k_tokens[j]})",
            "shadow": self.num(0.0, ("scores", self.h, i, j)).shown
            if zero_q
            else self.num(
                ac.scalar_projection(head.K[j], head.Q[i]), ("shadow", self.h, i, j)
            ).shown,
            "nq": self.num(ac.norm(head.Q[i]), ("norm_q", self.h, i)).shown,
            "score": self.num(head.scores[i, j], ("scores", self.h, i, j)).shown,
        }

    # -- one pair, worked in full ----------------------------------------------------------------
    def pair_mobjects(self, i: int, j: int) -> dict:
        head, theme, plane = self.head, self.theme, self.plane
        q, k = head.Q[i], head.K[j]
        pq, pk = self.pair_coords(i, j)
        degenerate = ac.norm(q) == 0 or ac.norm(k) == 0
        qc, kc = self.q_color(i), self.k_color(j)
        origin = plane.point([0, 0])
        foot = np.zeros(2) if ac.norm(pq) == 0 else ac.projection(pk, pq)  # k's shadow on q
        drop = DashedLine(plane.point(pk), plane.point(foot), color=theme.muted, stroke_width=3)
        # the shadow runs beside q's line (on the side away from k), so q keeps its colour
        side = np.zeros(3)
        if ac.norm(pq) > 0:
            u = (plane.point(pq) - origin) / np.linalg.norm(plane.point(pq) - origin)
            n = np.array([-u[1], u[0], 0.0])
            side = -0.13 * n if np.dot(plane.point(pk) - origin, n) > 0 else 0.13 * n
        shadow = Line(origin + side, plane.point(foot) + side, color=theme.accent, stroke_width=7)
        arc, theta = (VGroup(), VGroup()) if degenerate else self.angle_mark(pq, pk)
        # the arrows first: the labels keep clear of k's hollow head (minilm-painting at 1:1:
        # k(painting) lay over it)
        q_arrow, k_arrow = plane.arrow(pq, qc), plane.arrow(pk, kc, outline=True)
        labels = plane.tip_labels(
            [pq, pk],
            [f"q({self.q_tokens[i]})", f"k({self.k_tokens[j]})"],
            [qc, kc],
            self.plane_box,
            obstacles=list(plane.tick_labels) + list(theta),
            clear_axes=True,
            merge=0.35,
        )
        work = self.placed_work(i, j)
        line1, line2, line3 = work
        result = work.result
        marks = [q_arrow, k_arrow, labels, arc, theta, drop, shadow, *plane.tick_labels]
        random = self.random_note(i, j, work, marks)
        return {
            "q": q_arrow,
            "k": k_arrow,
            "labels": labels,
            "arc": arc,
            "theta": theta,
            "drop": drop,
            "shadow": shadow,
            "line1": line1,
            "line2": line2,
            "line3": line3,
            "random": random,
            "result": result,
        }

    def placed_work(self, i: int, j: int):
        """The pair's three lines of arithmetic in the work box, at the body size where they
        fit with the comparison with random directions under them (:meth:`note_lines`), else
        at the small size, else at the size where they fit alone."""
        # a narrow frame measured the lines at the small size (:meth:`lay_out_matrix`): kept, and
        # the body size not built where, scaled up from them, it is surely too tall
        small = self.measured.pop((i, j), None)
        sizes = (BODY, SMALL)
        if small is not None and small.height * BODY / SMALL - 0.2 > self.work_box.height:
            sizes = (SMALL,)
        under = self.note_lines(i, j)  # the comparison under the arithmetic, where it fits
        room = self.work_box.height - (under.height + 0.2 if len(under) else 0.0)
        fits = []
        for size in sizes:
            work = small if small is not None and size == SMALL else self.work_lines(i, j, size)
            if work.height <= self.work_box.height and work.width <= self.work_box.width:
                fits.append(work)
                if work.height <= room:  # with the comparison under it
                    break
        work = next((w for w in fits if w.height <= room), fits[0] if fits else work)
        place(work, self.work_box, "top-left")
        return work

    def angle_mark(self, pq, pk):
        """The arc from q to k at the origin, and θ beside it."""
        theme, origin = self.theme, self.plane.point([0, 0])
        a_q, a_k = math.atan2(pq[1], pq[0]), math.atan2(pk[1], pk[0])
        sweep = (a_k - a_q + math.pi) % (2 * math.pi) - math.pi
        arc = Arc(
            radius=0.45,
            start_angle=a_q,
            angle=sweep if abs(sweep) > 1e-3 else 1e-3,
            arc_center=origin,
            color=theme.text,
            stroke_width=3,
        )
        mid = a_q + sweep / 2
        theta = typeset("theta", SMALL, theme.text).move_to(
            origin + 0.78 * np.array([math.cos(mid), math.sin(mid), 0])
        )
        return arc, theta

    def work_lines(self, i: int, j: int, BODY: float) -> VGroup:  # noqa: N803 (a size)
        """|q|, |k|, cos θ; the shadow |k| cos θ; q·k = |q| · |k| cos θ, with their numbers."""
        head, theme = self.head, self.theme
        q, k = head.Q[i], head.K[j]
        degenerate = ac.norm(q) == 0 or ac.norm(k) == 0
        qc, kc = self.q_color(i), self.k_color(j)
        nq = self.num(ac.norm(q), ("norm_q", self.h, i), size=BODY, color=qc)
        nk = self.num(ac.norm(k), ("norm_k", self.h, j), size=BODY, color=kc)
        if degenerate:
            cos = label("—", BODY, theme.muted)
            sh = self.num(0.0, ("scores", self.h, i, j), size=BODY, color=theme.accent)
        else:
            cos = self.num(math.cos(ac.angle(q, k)), ("cos", self.h, i, j), size=BODY)
            sh = self.num(
                ac.scalar_projection(k, q), ("shadow", self.h, i, j), size=BODY, color=theme.accent
            )
        result = self.num(
            head.scores[i, j], ("scores", self.h, i, j), size=BODY, color=theme.accent
        )
        w = self.work_box.width
        eq = VGroup  # a formula part and its number, side by side
        line1 = flow(
            [
                eq(typeset("|q| =", BODY, qc), nq).arrange(buff=0.12),
                eq(typeset("|k| =", BODY, kc), nk).arrange(buff=0.12),
                eq(typeset("cos theta =", BODY, theme.text), cos).arrange(buff=0.12),
            ],
            w,
            hbuff=0.45 if w > 4 else 0.3,
        )
        line2 = flow([typeset("|k| cos theta =", BODY, theme.accent), sh], w, hbuff=0.12)
        nq2 = self.num(ac.norm(q), ("norm_q", self.h, i), size=BODY, color=qc)
        sh2 = sh.copy()
        sh2.role = sh.role
        # the formula and its numbers each stay whole: a narrow frame breaks the line only
        # between them, before the "=" that carries on the next line, indented
        product = VGroup(typeset("=", BODY, theme.text), nq2, typeset("times", BODY, theme.text))
        product.add(sh2).arrange(buff=0.12)
        equals = VGroup(typeset("=", BODY, theme.text), result).arrange(buff=0.12)
        formula = typeset("q dot k = |q| dot |k| cos theta", BODY, theme.text)
        carry_on = VGroup(product, equals).arrange(buff=0.12)
        line3 = VGroup(formula, carry_on).arrange(buff=0.12)
        if line3.width > w:
            line3.arrange(DOWN, aligned_edge=LEFT, buff=0.12)
            carry_on.shift(0.4 * RIGHT)
        if carry_on.get_right()[0] - line3.get_left()[0] > w:  # a narrow column: "= 44.48" below
            carry_on.arrange(DOWN, aligned_edge=LEFT, buff=0.12)
            carry_on.next_to(formula, DOWN, buff=0.12, aligned_edge=LEFT).shift(0.4 * RIGHT)
        gap = 0.22 if w > 4 else 0.15  # a narrow column: its lines closer
        work = VGroup(line1, line2, line3).arrange(DOWN, aligned_edge=LEFT, buff=gap)
        work.result, work.gap = result, gap
        return work

    def note_lines(self, i: int, j: int) -> VGroup:
        """The comparison with random directions (:meth:`random_compared`) on lines of the
        work box's width; empty where there is none."""
        compared = self.random_compared(i, j)
        if not compared:
            return VGroup()
        words = self.say("random_cos", **compared)
        lines = balanced_lines(words, self.work_box.width, SMALL)
        return VGroup(*(label(t, SMALL, self.theme.muted) for t in lines)).arrange(
            DOWN, aligned_edge=LEFT, buff=0.06
        )

    def random_note(self, i: int, j: int, work, obstacles) -> VGroup:
        """The caption's comparison with random directions on its still (numbers a caption
        names are on screen): "random in 64 dimensions: cos θ ≈ ±0.125; this pair 1.1×" under
        the arithmetic where the work box has room, else at the plane's highest free spot clear
        of ``obstacles`` (mobjects: a narrow frame's column is full), else nothing (and the
        caption says nothing of it)."""
        compared = self.random_compared(i, j)
        if not compared:
            return VGroup()
        words, theme = self.say("random_cos", **compared), self.theme
        note = self.note_lines(i, j)
        note.next_to(work, DOWN, aligned_edge=LEFT, buff=work.gap)
        if box_of(note).y0 >= self.work_box.y0:
            return note
        box = self.plane_box
        taken = [  # each part's own box: a group's spans the room between its parts
            box_of(part).inset(-0.08) for m in obstacles for part in m.family_members_with_points()
        ]
        inner = box.inset(0.1)
        for share in (0.6, 0.8, 1.0):  # narrow lines first: they fit between the arrows
            lines = balanced_lines(words, share * inner.width, SMALL, max_lines=5)
            note = VGroup(*(label(t, SMALL, theme.muted) for t in lines))
            note.arrange(DOWN, aligned_edge=LEFT, buff=0.06)
            note.set_stroke(theme.background, width=5, background=True)
            w, h = note.width, note.height
            for y in np.arange(inner.y1 - h / 2, inner.y0 + h / 2, -0.1):  # the highest spot,
                for x in np.arange(inner.x1 - w / 2, inner.x0 + w / 2, -0.1):  # right first
                    spot = Box(x - w / 2, y - h / 2, x + w / 2, y + h / 2)
                    if not any(spot.overlaps(t) for t in taken):
                        return note.move_to([x, y, 0])
        return VGroup()

    def show_pair(self, i: int, j: int, new: dict) -> None:
        cell = self.extra_cells.get((i, j)) if self.matrix is None else self.matrix.cell(i, j)
        old = self.pair
        self.pair = {key: m for key, m in new.items() if key != "result"}
        if "k" not in old:  # the first pair: the key joins the query, then the explanation
            self.play(
                ReplacementTransform(old["q"], new["q"]),
                ReplacementTransform(old["labels"], new["labels"]),
                grow(new["k"]),
                FadeOut(self.top_note),
                run_time=0.9,
            )
            self.play(Create(new["arc"]), FadeIn(new["theta"]), FadeIn(new["line1"]), run_time=0.8)
            if len(new["random"]):  # how the pair's cos θ compares with random directions'
                self.play(FadeIn(new["random"]), run_time=0.4)
            self.play(
                Create(new["drop"]), Create(new["shadow"]), FadeIn(new["line2"]), run_time=1.0
            )
            self.play(FadeIn(new["line3"]), run_time=0.6)
        else:  # the plane stays; the key turns to the next one and its shadow follows
            moves = []
            for key in ("q", "k", "labels", "arc", "theta", "drop", "shadow", "random"):
                a, b = old[key], new[key]
                if len(a.family_members_with_points()) and len(b.family_members_with_points()):
                    moves.append(ReplacementTransform(a, b))
                else:
                    moves += [FadeOut(a), FadeIn(b)]
            self.play(*moves, run_time=1.2)
            self.play(
                ReplacementTransform(old["line1"], new["line1"]),
                ReplacementTransform(old["line2"], new["line2"]),
                ReplacementTransform(old["line3"], new["line3"]),
                run_time=0.8,
            )
        if cell is not None:
            self.play(TransformFromCopy(new["result"], cell), run_time=0.8)

    # -- the other cells: each number from its own shadow, quickly --------------------------------
    def quick_row(self, a: int, keys, per_cell: float, row_mark, last=False, done=()) -> None:
        """Query a's arrow, then for each key its outlined arrow, the drop to its shadow's foot on
        q's line, and the score flying from that foot into its cell (not for the keys ``done``,
        whose numbers are in place). Everything is drawn before the labels are placed, so that
        they keep clear of every arrow and foot: q's, and on the ``last`` row (the still's) every
        key's too."""
        plane = self.plane
        qc = self.q_color(a)
        pq0, _ = self.pair_coords(a, keys[0])
        q_arrow = plane.arrow(pq0, qc)
        group, flights = self.shadow_flights(a, keys, pq0, done)
        named = keys if last else []  # the still names every key it shows
        marks = list(plane.tick_labels) + [m for m in group if isinstance(m, Dot)]
        marks += shaft_marks([(m.get_start(), m.get_end()) for m in group if type(m) is Line])
        marks += drop_marks(group)
        # the keys' labels (as many as are placed each on its own side of the others' arrows,
        # the rest grey: :meth:`row_labels`) and q's
        q_label, shown = self.row_labels(a, pq0, named, marks)
        self.grey_unnamed(group, set(named) - set(shown))
        moves = [] if row_mark is None else [Transform(row_mark, self.row_mark(a))]
        first = [] if named else [FadeIn(q_label)]  # the keys' labels once their arrows are drawn
        self.play(grow(q_arrow), *first, *moves, run_time=max(0.3, 2 * per_cell))
        if flights:
            self.play(
                LaggedStart(*flights, lag_ratio=0.5),
                run_time=max(0.6, per_cell * (len(flights) + 1)),
            )
        if named:
            self.play(FadeIn(q_label), run_time=0.5)
        if not last:  # the last row stays: the still shows where its numbers came from
            self.play(
                FadeOut(group), FadeOut(q_arrow), FadeOut(q_label), run_time=max(0.2, per_cell)
            )

    def shown_cell(self, a: int, b: int):
        """Where query a's score for key b is shown: its entry in a list, or its cell."""
        cell = self.extra_cells.get((a, b))
        return self.matrix.mark(a, b) if cell is None else cell

    def shadow_flights(self, a: int, keys, pq0, done=()):
        """For query a: q's line as far as the feet reach, and per key its outlined arrow, the
        drop to its foot and the score flying into its cell (but for the keys ``done``). Returns
        (what is drawn, the animations)."""
        from manim import AnimationGroup, Succession

        head, theme, plane, qc = self.head, self.theme, self.plane, self.q_color(a)
        group = VGroup()
        flights = []
        if ac.norm(pq0) > 0:  # q's line, as far as the feet of the shadows reach
            ts = [0.0, 1.0] + [
                float(np.dot(self.pair_coords(a, b)[1], pq0) / np.dot(pq0, pq0)) for b in keys
            ]
            line = Line(
                plane.point(min(ts) * pq0),
                plane.point(max(ts) * pq0),
                color=qc,
                stroke_width=2,
                stroke_opacity=0.6,
            )
            group.add(line)
            flights.append(Create(line))
        drawn = [b for b in keys if self.shown_cell(a, b) is not None]
        feet = []
        for b in drawn:
            pq, pk = self.pair_coords(a, b)
            feet.append(np.zeros(2) if ac.norm(pq) == 0 else ac.projection(pk, pq))
        # feet that would lie on one another (or on the arrows' tails at the origin) stacked
        # off q's line on the side away from the keys, each its drop carried on to it
        tips = [plane.point(self.pair_coords(a, b)[1]) for b in drawn]
        spots = stacked_feet(plane, pq0, [plane.point(f) for f in feet], tips, FOOT)
        for b, spot in zip(drawn, spots):
            cell = self.shown_cell(a, b)
            pq, pk = self.pair_coords(a, b)
            k_arrow = plane.arrow(pk, self.k_color(b), outline=True, opacity=0.7)
            k_arrow.key_index = b  # greyed where the still leaves it unlabelled
            drop = DashedLine(plane.point(pk), spot, color=theme.muted, stroke_width=2)
            dot = Dot(spot, radius=FOOT, color=theme.accent)
            tag = self.num(head.scores[a, b], ("scores", self.h, a, b), color=theme.accent)
            tag.next_to(dot, DOWN if pq[1] >= 0 else UP, buff=0.08)
            group.add(k_arrow, drop, dot)
            shown = AnimationGroup(grow(k_arrow), Create(drop), FadeIn(dot))
            flights.append(shown if b in done else Succession(shown, TransformFromCopy(tag, cell)))
        return group, flights


def drop_marks(group) -> list:
    """Small boxes along each dashed drop of ``group`` (a key's tip down to its shadow's foot):
    no label on one either."""
    drops = [m for m in group if isinstance(m, DashedLine)]
    return shaft_marks([(m.get_start(), m.get_end()) for m in drops], half=0.03)
