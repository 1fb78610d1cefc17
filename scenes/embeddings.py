"""Embeddings: the tokens as arrows on a coordinate plane, each in its colour, labelled, with its
coordinates read off the axes and the table beside."""

from __future__ import annotations

import math

import numpy as np
from manim import DOWN, LEFT, Arc, Create, DashedLine, LaggedStart, TransformFromCopy, VGroup

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.kit.views import plane_view_of
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import Box, place
from scenes.mobjects.math import math as typeset_math
from scenes.mobjects.matrix import matrix_title, typeset_headers
from scenes.mobjects.plane import CROWDED, CROWDED_TOKENS, grow
from scenes.mobjects.text import label
from scenes.mobjects.theme import SMALL


class Embeddings(ExplainerScene):
    """The example's tokens as vectors from the origin, with their coordinates beside."""

    explains_one_head = False

    def construct(self):
        content, self.pieces = self.kit.pieces_strip(self.regions.content)
        if content.width >= 1.6 * content.height:  # the plane as large as the height allows
            # many dimensions: the table gets more than half (8 as squares fit it at 4:3)
            # among many, flat data (a trained model's X, all one way) wants the width
            share = 0.55 if self.example.n > CROWDED else 0.42 if self.example.d_model > 4 else 0.6
            side = min(content.height, share * content.width)
            left = Box(content.x0, content.y0, content.x0 + side, content.y1)
            right = Box(left.x1 + 0.5, content.y0, content.x1, content.y1)
        elif self.example.n > CROWDED:  # a square frame, many tokens: the plane takes more
            left, right = content.columns(1.9, 1)  # (3.3 wide, its labels knotted; the table
            # shows one column of numbers at either width)
        else:  # many dimensions: the table gets more than half (8 as squares fit it at 4:3)
            left, right = content.columns(*((1, 1.2) if self.example.d_model > 4 else (3, 2)))
        self.view = plane_view_of(self.trace, "X")
        self.coords = self.view.coords
        self.colors = [self.q_color(i) for i in range(self.example.n)]
        self.show_plane(left, right)
        self.show_tokens()
        self.compare_directions()

    def show_plane(self, left, right):
        """The empty plane (the table of coordinates placed beside, for the next step)."""
        ex, tr = self.example, self.trace
        self.note = note = self.kit.view_note(self.view, "X")
        crowded = ex.n > CROWDED  # a line under the plane says how many are not drawn
        # among many, a key to the cast's colours may go under the plane: room for it
        self.plane_box, self.note_box = left.rows(*((2, 1) if crowded else (10, 1)))
        if not (len(note) or crowded):
            self.plane_box = left
        self.order = self.story_inputs()  # the followed query, its key, the keys it weighs most
        # every token is drawn (among many, the cast in colour, the others grey): fitted to all
        pad = 0.3 if crowded else 0.1  # among many, room at the tips for their labels
        self.vplane = plane = self.kit.plane(self.coords, self.plane_box, pad=pad)
        if len(note):
            place(note, self.note_box, "left")

        self.table = table = self.kit.matrix(
            tr.X,
            ("X",),
            self.q_tokens,
            [f"x{j + 1}" for j in range(ex.d_model)],
            right,
            row_colors=self.colors,
            sizes=(44, 40, 36, 32, 28, 25, 22),
            any_squares=True,  # too many numbers for the room: every one as a square
            # elided, the table keeps the story's tokens' rows (the followed query first)
            keep_rows=list(self.order[:CROWDED_TOKENS]) if crowded else self.pair_rows(),
        )
        typeset_headers(table, [f"x_{j + 1}" for j in range(ex.d_model)])
        self.table_head = matrix_title(self.table_heading(right.width), table, self.theme)
        place(VGroup(self.table_head, table), right, "center")

        q = ac.followed_pair(tr).query  # the first arrow: the followed query's
        self.step("plane", q=self.token_list([self.q_tokens[q]]))
        self.play(Create(plane.plane), FadeIn(plane.tick_labels), FadeIn(note), run_time=1.2)
        self.first = self.first_arrow(q)
        # its row of the table with it, in the table's frame (issue 38: a third of the frame,
        # then half of it, was empty until the table came): every row's name, its cells empty,
        # and the one token's numbers
        self.first_row = self.table_row(q)
        self.play(grow(self.first[0]), FadeIn(self.first[1]), FadeIn(self.first_row), run_time=0.8)
        if len(self.pieces):
            self.play(FadeIn(self.pieces), run_time=0.4)
        self.hold()

    def first_arrow(self, q: int) -> VGroup:
        """The followed query's arrow and its label at its tip, alone on the plane (the caption
        names it); the plane's tip room left as it was, for every token's arrows after."""
        plane = self.vplane
        tips, shafts = list(plane.tips), list(plane.shafts)
        arrow = plane.arrows(self.coords[[q]], [self.colors[q]])
        tip = plane.tip_labels(
            self.coords[[q]],
            [self.q_tokens[q]],
            [self.colors[q]],
            self.plane_box,
            obstacles=list(plane.tick_labels) + list(self.note),
            clear_axes=True,
        )
        plane.tips[:], plane.shafts[:] = tips, shafts
        return VGroup(arrow, tip)

    def table_heading(self, width: float) -> VGroup:
        """The table's title, and where the plane is a 2-D view (the caption names the vectors'
        width) the table's shape beside it, "22 × 576", or under it where ``width`` is narrow."""
        title = self.typeset("embeddings_typeset", SMALL, self.theme.muted)
        if self.view.exact:
            return title
        shape = label(f"{self.example.n} × {self.example.d_model}", SMALL, self.theme.muted)
        head = VGroup(title, shape).arrange(buff=0.2)
        if head.width > width:
            head.arrange(DOWN, aligned_edge=LEFT, buff=0.08)
        return head

    def table_row(self, i: int) -> VGroup:
        """The table's frame (title, column names, colour key, every row's name and ellipses;
        the cells' backgrounds where they are not coloured squares) and row ``i``'s numbers:
        only the frame where the table elides that row."""
        table = self.table
        squares = table.style.squares  # a square's colour is its number: not before its arrow
        backs = [] if squares else list(table.backgrounds)
        names = [table.row_label_of[k] for k in table.shown_rows]
        mine = [b for b in table.backgrounds if getattr(b, "cell_index", (None,))[0] == i]
        row = [*mine, table.row_group(i)] if i in table.shown_rows else []
        frame = [self.table_head, table.col_labels, table.colorbar, table.ellipses]
        return VGroup(*frame, *names, *backs, *row)

    def pair_rows(self) -> list[int]:
        """The followed query's and key's rows (the key's where it is a token of X): an elided
        table keeps them, the compare step names them."""
        pair = ac.followed_pair(self.trace)
        return list(dict.fromkeys([pair.query, *([] if self.example.is_cross else [pair.key])]))

    def show_tokens(self):
        """Each token an arrow from the origin, labelled, and its row of the table."""
        plane, table, coords, colors = self.vplane, self.table, self.coords, self.colors
        n = self.example.n  # many tokens: counted, not listed (a list ran the caption to pages)
        listed = {} if n > CROWDED else {"tokens": self.token_list(self.q_tokens)}
        key = "tokens_many" if n > CROWDED else "tokens"
        if not self.view.exact:  # a 2-D view of longer vectors: the caption says so, and how long
            key, listed = f"{key}_view", {**listed, "d": self.example.d_model}
        self.step("tokens", key, **listed)
        # every token where each finds a label near its arrow; among many, the story's few
        # (the followed query, the rows that do what the head does, its strongest keys)
        shown = self.note
        if self.example.n <= CROWDED:  # every token, each labelled where the plane has room
            self.drawn, arrows = list(range(self.example.n)), plane.arrows(coords, colors)
            labels = plane.tip_labels(
                coords,
                self.q_tokens,
                colors,
                self.plane_box,
                obstacles=list(plane.tick_labels) + list(shown),
                clear_axes=True,
            )
        else:  # the cast labelled at their tips, the others thin and grey, counted
            self.drawn, arrows, grey, labels, self.note = self.kit.cast_arrows(
                plane,
                coords,
                self.q_tokens,
                colors,
                self.cast,
                shown,
                self.note_box,
                align="left",
                bounds=self.plane_box,
                obstacles=list(plane.tick_labels),
                clear_axes=True,
            )
        self.arrows, self.labels = dict(zip(self.drawn, arrows)), labels
        self.grey = grey if n > CROWDED else VGroup()
        if n > CROWDED:
            arrows = VGroup(*grey, *arrows)  # the grey first: the cast is drawn over them
        shown = {id(m) for m in self.first_row.get_family()}  # with the first arrow
        frame = [table.backgrounds, table.col_labels, table.colorbar]  # squares: the key too
        self.play(*(FadeIn(self.unshown(m, shown)) for m in [self.table_head, *frame]))
        rows = [VGroup(table.row_label_of[i], table.row_group(i)) for i in table.shown_rows]
        self.play(
            LaggedStart(*(grow(a) for a in arrows), lag_ratio=0.3),
            LaggedStart(*(FadeIn(t) for t in labels), lag_ratio=0.3),
            LaggedStart(*(FadeIn(self.unshown(r, shown)) for r in rows), lag_ratio=0.3),
            FadeIn(self.unshown(table.ellipses, shown)),
            FadeIn(self.left_out(shown)),
            FadeOut(self.first),  # drawn again among the others
            run_time=min(4, 1 + 0.4 * len(self.drawn)),
        )
        self.read_coordinates(plane, coords, table, labels)
        self.hold()

    @classmethod
    def unshown(cls, mob, shown: set) -> VGroup:
        """The parts of ``mob`` none of whose family is among ``shown`` (ids), each as large
        as it can be (a text whole): what a fade brings in."""
        if id(mob) in shown:
            return VGroup()
        if not any(id(m) in shown for m in mob.get_family()):
            return VGroup(mob)
        return VGroup(*(p for sub in mob.submobjects for p in cls.unshown(sub, shown)))

    def left_out(self, shown) -> VGroup:
        """What the plane's note gained in :meth:`show_tokens` ("16 others not drawn"), beside
        the view note ``shown`` with the plane."""
        if self.note is shown:
            return VGroup()
        return VGroup(*(m for m in self.note if m is not shown))

    def compare_directions(self):
        """The followed query and key (``attention_core.followed_pair``) brighter, the others
        faint, the two labelled at their tips, the angle between them where the plane is exact;
        where there is no pair of two tokens of X to compare (a query that follows itself, a key
        of another sequence), the two tokens whose directions are closest."""
        pair, drawn = ac.followed_pair(self.trace), self.drawn
        if self.example.is_cross or pair.query == pair.key or pair.key not in drawn:
            self.step("compare")
            i, j = self.closest_drawn()
        else:
            i, j = pair.query, pair.key
            name = self.q_tokens
            self.step(
                "compare",
                "compare_pair",
                q=self.token_list([name[i]]),
                k=self.token_list([name[j]]),
            )
        self.compared = (i, j)
        if i == j:
            self.hold(1.5)
            return
        others = [k for k in drawn if k not in (i, j)]
        anims = [self.arrows[k].animate.set_opacity(0.15) for k in others]
        anims += [a.animate.set_opacity(0.15) for a in self.grey]
        labels = self.pair_labels(i, j) if pair.key == j and pair.query == i else VGroup()
        anims += [FadeIn(labels)] if len(labels) else []
        # the angle drawn only where the plane shows it truly (d = 2)
        arc = (
            self.angle_arc(self.vplane, self.coords[i], self.coords[j])
            if self.view.exact
            else VGroup()
        )
        anims += [Create(arc)] if len(arc) else []
        if anims:
            self.play(*anims, run_time=0.8)
        self.hold(1.5)

    def closest_drawn(self) -> tuple[int, int]:
        """Of the arrows drawn, the two whose directions are closest (long enough to be seen)."""
        drawn = self.drawn
        if len(drawn) < 2:
            return drawn[0], drawn[0]
        lengths = np.linalg.norm(self.coords[drawn], axis=1)  # in the view: to be seen
        visible = lengths >= 0.25 * max(float(lengths.max()), 1e-12)
        i, j = _closest_pair(self.trace.X[drawn], visible)  # true angles, in all d dimensions
        return drawn[i], drawn[j]

    def pair_labels(self, i: int, j: int) -> VGroup:
        """The followed pair's arrows brought to the front, whole, and (where their labels are
        not already at their tips: among many, a key names the cast) each labelled at its own
        tip, clear of the other's arrow only (every other arrow faint)."""
        plane = self.vplane
        self.bring_to_front(self.arrows[j], self.arrows[i])
        if not getattr(self.arrows[i], "in_key", False):
            return VGroup()
        tips, shafts = list(plane.tips), list(plane.shafts)
        plane.tips[:], plane.shafts[:] = [], []
        plane.arrows(self.coords[[i, j]], [self.colors[i], self.colors[j]])  # their room only
        labels = plane.tip_labels(
            self.coords[[i, j]],
            [self.q_tokens[i], self.q_tokens[j]],
            [self.colors[i], self.colors[j]],
            self.plane_box,
            obstacles=list(plane.tick_labels) + list(self.note) + list(self.labels),
            clear_axes=True,
        )
        plane.tips[:], plane.shafts[:] = tips, shafts
        return labels

    def read_coordinates(self, plane, coords, table, labels) -> None:
        """For d = 2: one token's coordinates fly from its row of the table to the axes, where
        dashed guides from its tip meet them."""
        tr = self.trace
        if tr.X.shape[1] != 2 or not len(coords):
            return
        norms = [ac.norm(c) if k in self.drawn else 0.0 for k, c in enumerate(coords)]
        i = int(np.argmax(norms))  # the longest arrow drawn: its guides are easiest to see
        if norms[i] == 0 or (i, 0) not in table.cells or (i, 1) not in table.cells:
            return
        x, y = coords[i]
        tip = plane.point([x, y])
        gx = DashedLine(tip, plane.point([x, 0]), color=self.q_color(i), stroke_width=2)
        gy = DashedLine(tip, plane.point([0, y]), color=self.q_color(i), stroke_width=2)
        nx = self.num(tr.X[i, 0], ("X", i, 0), color=self.q_color(i))
        ny = self.num(tr.X[i, 1], ("X", i, 1), color=self.q_color(i))
        nx.next_to(plane.point([x, 0]), DOWN if y >= 0 else -DOWN, buff=0.1)
        ny.next_to(plane.point([0, y]), LEFT if x >= 0 else -LEFT, buff=0.1)
        # keep them off the tick labels and the tip labels: hide the ticks they would cover
        from scenes.mobjects.layout import box_of

        covered = [
            t
            for t in plane.tick_labels
            if box_of(t).overlaps(box_of(nx), 0.05) or box_of(t).overlaps(box_of(ny), 0.05)
        ]
        for lab in labels:
            for n in (nx, ny):
                if box_of(lab).overlaps(box_of(n), 0.05):
                    return  # no room beside the axes: the table alone gives the coordinates
        self.play(
            Create(gx),
            Create(gy),
            *(t.animate.set_opacity(0) for t in covered),
            TransformFromCopy(table.cell(i, 0), nx),
            TransformFromCopy(table.cell(i, 1), ny),
            run_time=1.2,
        )
        for t in covered:
            plane.tick_labels.remove(t)
            self.remove(t)

    def angle_arc(self, plane, a, b) -> VGroup:
        if ac.norm(a) == 0 or ac.norm(b) == 0:
            return VGroup()
        a_a, a_b = math.atan2(a[1], a[0]), math.atan2(b[1], b[0])
        sweep = (a_b - a_a + math.pi) % (2 * math.pi) - math.pi
        if abs(sweep) < 1e-3:
            return VGroup()
        origin = plane.point([0, 0])
        arc = Arc(
            radius=0.6,
            start_angle=a_a,
            angle=sweep,
            arc_center=origin,
            color=self.theme.accent,
            stroke_width=4,
        )
        mid = a_a + sweep / 2
        theta = typeset_math("theta", SMALL, self.theme.accent)
        theta.move_to(origin + 0.95 * np.array([math.cos(mid), math.sin(mid), 0]))
        return VGroup(arc, theta)


def _closest_pair(coords: np.ndarray, visible=None, least: float = np.radians(0.5)):
    """The two arrows whose directions are closest (smallest angle, in all dimensions): of the
    pairs both ``visible`` (arrows long enough in the view to be seen) and apart by at least
    ``least`` (a repeated token's twin has the same direction: nothing to compare), else of all
    pairs; zero vectors skipped."""
    n = len(coords)
    visible = [True] * n if visible is None else list(visible)
    for strict in (True, False):
        best, pair = np.inf, None
        for i in range(n):
            for j in range(i + 1, n):
                if ac.norm(coords[i]) == 0 or ac.norm(coords[j]) == 0:
                    continue
                theta = ac.angle(coords[i], coords[j])
                if strict and (theta < least or not (visible[i] and visible[j])):
                    continue
                if theta < best:
                    best, pair = theta, (i, j)
        if pair is not None:
            return pair
    return (0, min(1, n - 1))
