"""DotProducts' end: the whole score matrix beside the plane where the frame has room for both,
else in the whole frame and then the plane again (``row_again``); after a list of the followed
row's scores (a real sentence), the whole matrix taking the listed numbers into its cells
(``fill_from_list``); and the regrid that moves the worked numbers into the whole matrix (mixin
of :class:`scenes.dot_products.DotProducts`)."""

from __future__ import annotations

from manim import LEFT, RIGHT, UP, Create, ReplacementTransform, Transform, VGroup

import attention_core as ac
from scenes.mobjects.colour_bar import upright_bar_room
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.grid_labels import grid_of_squares
from scenes.mobjects.layout import Box, box_of, place
from scenes.mobjects.matrix import cells_alone_too_big
from scenes.mobjects.text import label
from scenes.mobjects.theme import SMALL
from scenes.mobjects.unimath import NO_BREAK
from scenes.parts.dot_products_layout import note_lines

SIDE_PLANE = 3.0  # a narrow frame's plane beside the whole matrix, at the end (its width)
MIN_SIDE_PLANE = 1.8  # and the least width it may have there
MAX_SIDE_SHARE = 0.4  # and the most, of the content's width, that its legend may ask for
SIDE_GAP = 0.2  # between that plane's column and the matrix
KEY_GAP = 0.5  # between the matrix's title and a colour key in its line
SIZES = (28, 25, 22)  # the whole matrix's text sizes, largest first
TITLE_ROOM = 0.45  # above it, for its title (LabelledMatrix.fitted's default)


class MatrixSteps:
    """The matrix step's end (mixin of :class:`scenes.dot_products.DotProducts`)."""

    def move_plane(self, left: Box) -> None:
        """A narrow frame's last picture: the plane gives the whole matrix its room and comes
        back, smaller, in ``left`` beside it (for the followed query's keys, the still's)."""
        self.play(FadeOut(self.plane_parts), run_time=0.4)
        legend, note = self.set_plane(left, square=True)
        self.plane_parts = VGroup(self.plane.plane, self.plane.tick_labels, legend, note)
        self.play(FadeIn(self.plane_parts), run_time=0.6)

    def row_again(self, keys, per_cell: float) -> None:
        """The last step where the whole matrix took the frame (1:1): the plane again, as in the
        first steps, the followed query with the story's keys, each score flying from its shadow
        into the list beside it — the scene's picture, in its last still."""
        i = self.i
        left, right = self.narrow_columns()
        self.extra_cells = {}
        entries, cols = self.score_entries(keys, right, fly=True)
        self.listed, self.again = cols, True  # the plane: for these keys alone
        legend, note = self.set_plane(left, tight=True)
        self.plane_parts = VGroup(self.plane.plane, self.plane.tick_labels, legend, note)
        sep = self.say("tokens_list_sep")
        self.step(
            "again",
            clear=True,
            q=f"q({self.q_tokens[i]})",
            # "k(猫) 0.38": a key and its score on one line (a no-break space, plain in subtitles)
            scores=sep.join(f"{e[0].text}{NO_BREAK}{e[1].shown}" for e in entries[1:]),
        )
        self.play(FadeIn(self.plane_parts), FadeIn(VGroup(*(e[0] for e in entries))), run_time=0.6)
        self.quick_row(i, cols, per_cell, None, last=True)
        self.hold(1.2)

    def fill_from_list(self, keys) -> None:
        """The matrix step where the first steps listed the followed row's scores: the whole
        matrix (:meth:`whole_matrix`) takes its room and the listed numbers move into their
        cells; beside the plane, two rows of the cast (:meth:`list_rows`) and the followed one
        come from their shadows (the still's: the followed query, its keys labelled), the rest at
        once; where the plane made way (1:1) it comes back with the list (:meth:`row_again`)."""
        ex, i = self.example, self.i
        self.step("matrix", m=ex.n, n=ex.n_keys)
        self.play(*(FadeOut(m) for m in self.pair.values() if len(m)), run_time=0.4)
        grid, beside, side = self.whole_matrix()
        if grid is None:  # not whole anywhere: elided, in the whole content
            grid, beside = self.elided_matrix(), False
        if side is not None:  # a narrow frame: the plane, smaller, beside the whole matrix
            self.flying = True
            self.move_plane(side)
        if not beside:
            self.play(FadeOut(self.plane_parts), run_time=0.4)
        self.regrid_from_list(grid)
        done = {(i, b) for b in self.listed}
        per_cell = 0.3
        if beside:
            todo = {a: list(self.listed) for a in self.list_rows()} | {i: []}
            per_cell = self.fly_rows(todo, self.listed, last_stays=True)
            done |= {(a, b) for a in todo for b in self.listed}
        self.rest_at_once(grid, done)
        self.hold(1.2)
        if not beside:  # the plane made way: it comes back, the still's
            self.row_again(keys, per_cell)

    def list_rows(self) -> list[int]:
        """The rows that come from their shadows at the matrix step after a list: two of the
        cast's queries (not the followed one, each with a direction)."""
        n, Q = self.example.n, self.head.Q
        return [a for a in self.cast if a != self.i and a < n and ac.norm(Q[a]) > 0][:2]

    def elided_matrix(self):
        """The score matrix fitted to the whole content, elided (the followed row and the
        listed keys kept), its title above it."""
        content = self.regions.content
        grid = self.score_matrix(content)
        title = self.typeset("scores_typeset", SMALL, self.theme.muted)
        shape = label(f"{self.example.n} × {self.example.n_keys}", SMALL, self.theme.muted)
        grid.title = VGroup(title, shape).arrange(buff=0.2)
        grid.title.next_to(grid, UP, buff=0.15).align_to(grid, LEFT)
        place(VGroup(grid.title, grid), content, "top")
        return grid

    def regrid_from_list(self, grid) -> None:
        """The whole matrix comes in and the list's numbers move into their cells."""
        i = self.i
        moves = []
        for b in self.listed:
            src, dst = self.extra_cells.get((i, b)), grid.mark(i, b)
            if src is not None and dst is not None:
                moves.append(ReplacementTransform(src, dst))
        self.matrix = grid
        self.row_mark_mob = self.row_mark(i)
        moved = {id(m.mobject) for m in moves}
        left = [e[1] for e in self.entries[1:] if id(e[1]) not in moved]  # no cell to go to
        self.play(
            FadeOut(VGroup(*(e[0] for e in self.entries), *left)),
            FadeIn(grid.frame_parts()),
            FadeIn(grid.title),
            run_time=0.6,
        )
        self.play(*moves, Create(self.row_mark_mob), run_time=0.6)
        self.bring_to_front(*(m.target_mobject for m in moves))
        self.extra_cells = {}
        self.m_title = grid.title

    def whole_matrix(self):
        """The score matrix whole (numbers, else a grid of squares), whether it stands beside
        the plane, and the box the plane then moves to (None where it stays): in a wide frame
        in the room of the matrix and the arithmetic together, else in the whole content, the
        plane making way; in a narrow one right of a narrower plane (:data:`SIDE_PLANE`), the
        last still's picture. (None, False, None) where that elides it: the matrix stays as
        it is, beside the plane."""
        content = self.regions.content
        need = min(max(SIDE_PLANE, self.foot_width()), MAX_SIDE_SHARE * content.width)
        side = Box(content.x0, content.y0, content.x0 + need, content.y1)
        beside_plane = Box(side.x1 + 0.3, content.y0, content.x1, content.y1)
        # (the box, beside the plane, the plane's box, the key flat in the title's line): the
        # flat key first beside the plane (the plane takes the width an upright key had: at
        # 4:3 the plane was 2.6 wide, its four keys' labels crowded), at last the whole
        # content, the plane making way (it comes back in a step of its own)
        tries = [(beside_plane, True, side, True), (beside_plane, True, side, False)]
        tries += [(content, False, None, False), (content, False, None, True)]
        if self.wide:  # the matrix's room and the arithmetic's under it, first
            right = Box(self.mat_box.x0, self.work_box.y0, self.mat_box.x1, self.mat_box.y1)
            tries.insert(0, (right, True, None, False))
        for box, beside, plane_box, flat in tries:
            grid = self.whole_grid(box, flat, "top-right" if plane_box else "top")
            if grid is None:
                continue
            if plane_box is not None:  # the plane takes what the matrix leaves
                x1 = box_of(VGroup(grid.title, grid, grid.frame_parts())).x0 - SIDE_GAP
                # the flat key only where the upright one fitted too: its width goes to the
                # plane, never a narrow plane where the whole content had room (24 tokens of
                # 12 characters at 4:3: the plane again, in a step of its own), and never
                # narrower than its legend and note ask (``need``: issue 38, a 1.9 plane)
                least = MIN_SIDE_PLANE + (self.upright_key_room(grid) if flat else 0.0)
                if x1 - content.x0 < max(least, need - 0.05):
                    continue
                plane_box = Box(content.x0, content.y0, x1, content.y1)
            return grid, beside, plane_box
        return None, False, None

    def foot_width(self) -> float:
        """The width the plane's legend and note take, each entry on a line of its own, the note
        (its short form) on one line but for its parenthesis: a side plane at least this wide
        keeps them whole (issue 38, zh 4:3: "q 与" and "k 的平面（精确）" on two lines, the
        plane 1.9 wide beside the 24 × 24 scores)."""
        widest = max(entry.width for entry in self.legend(0.0))  # its entries' shortest forms
        if self.exact_2d:
            return widest
        return max(widest, label(note_lines(self.say("pair_plane_short"))[0], SMALL).width)

    def may_be_whole(self, box: Box, flat: bool) -> bool:
        """Whether the score matrix may fit ``box`` whole, measured as
        :meth:`LabelledMatrix.fitted` does before it builds anything: its cells at the smallest
        size, or a grid of squares with every row and column labelled (less the title's room;
        ``flat``: without the upright key). Not so, the try is skipped: building the matrix to
        learn it, elided, cost a 24-token run a matrix of numbers a box."""
        values, (w, h) = self.head.scores, (box.width, box.height - TITLE_ROOM)
        if not cells_alone_too_big(values, SIZES[-1], {}, w, h):
            return True
        k = self.kit
        args = (values, ("scores", self.h), self.theme, k.marked(self.q_tokens))
        args += (k.marked(self.k_tokens),)
        return grid_of_squares(args, w, h, SIZES[-1], not flat, "scores") is not None

    def upright_key_room(self, grid) -> float:
        """The width an upright colour key and its gap take beside ``grid`` (a grid of
        squares)."""
        split = bool(grid.style.split or grid.style.stagger)
        return upright_bar_room(self.theme, grid.scale, grid.limit, split)

    def whole_grid(self, box: Box, flat: bool, align: str):
        """The score matrix whole in ``box`` (numbers, else a grid of squares) with its title
        (``grid.title``), placed (``align``); ``flat``: a grid of squares with its key in the
        title's line (:meth:`key_beside_title`). None where that elides it."""
        ex = self.example
        if not self.may_be_whole(box, flat):
            return None
        grid = self.scores_in(
            box,
            sizes=SIZES,
            any_squares=True,  # the worked numbers fly into their squares (no room for badges)
            **({"colorbar": False} if flat else {}),  # (placed with the title)
        )
        if len(grid.shown_rows) < ex.n or len(grid.shown_columns) < ex.n_keys:
            return None
        title = self.typeset("scores_typeset", SMALL, self.theme.muted)
        if grid.style.squares:  # no numbered headers: the shape the caption names
            shape = label(f"{ex.n} × {ex.n_keys}", SMALL, self.theme.muted)
            title = VGroup(title, shape).arrange(buff=0.2)
        title.next_to(grid, UP, buff=0.15).align_to(grid, LEFT)
        if flat and not self.key_beside_title(grid, title):
            return None
        place(VGroup(title, grid), box, align)
        grid.title = title
        return grid

    def key_beside_title(self, grid, title) -> bool:
        """A grid of squares built without its colour key (``colorbar=False``) given one, flat,
        in its title's line right of "scores QKᵀ 24 × 24" (:data:`KEY_GAP` after it), where the
        grid is wide enough for both and the frame has room above it for the key's values:
        the square frame's case, whose 24 rows named on both sides leave no width for an
        upright key (issue 38: at 1:1 the 24 × 24 scores ended elided to 3 × 3). Whether it
        did (the grid, whole, of squares)."""
        if not grid.whole or not grid.style.squares:
            return False
        room = box_of(VGroup(grid.backgrounds, grid.row_labels)).x1 - title.get_right()[0]
        width = min(2.4, room - KEY_GAP)
        if width < 1.2:  # too short for its three values
            return False
        bar = self.kit.colour_bar(grid.scale, limit=grid.limit, width=width)
        bar.next_to(title, RIGHT, buff=KEY_GAP).align_to(title, UP)
        # its values' ink clear of the columns' (their lines, placed on a baseline since 96ef81c,
        # set the ink 0.03 lower: at 1:1 the 21 × 21 scores ended elided to 3 × 3 again)
        if box_of(bar).y0 < box_of(grid.col_labels).y1 + 0.025:
            return False  # its values would sit on the columns' numbers
        grid.remove(grid.colorbar)
        grid.colorbar = bar
        grid.add(bar)
        return True

    def regrid(self, old, grid, cells) -> None:
        """The elided matrix gives way to the whole one; the numbers already in it (``cells``:
        keys of the chosen row, or (row, key) pairs) move over."""
        i = self.i
        moves = []
        for cell in cells:
            a, b = cell if isinstance(cell, tuple) else (i, cell)
            src, dst = old.cell(a, b), grid.mark(a, b)  # a number, or the square it becomes
            if src is not None and dst is not None:
                moves.append(ReplacementTransform(src, dst))
        self.matrix = grid
        self.play(
            FadeOut(old.frame_parts()),
            FadeOut(self.m_title),
            FadeIn(grid.frame_parts()),
            FadeIn(grid.title),
            Transform(self.row_mark_mob, self.row_mark(i)),
            run_time=0.6,
        )
        if moves:  # on the new cells, once they are drawn
            self.play(*moves, run_time=0.6)
            # a replacement keeps the old number's place in the drawing order, under the grid
            self.bring_to_front(*(m.target_mobject for m in moves))
        self.m_title = grid.title
