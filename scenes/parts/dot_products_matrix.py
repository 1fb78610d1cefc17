"""DotProducts' end: the whole score matrix beside the plane where the frame has room for both,
else in the whole frame and then the plane again (``row_again``), or an elided matrix with the
followed row's scores listed beside the plane; and the regrid that moves the worked numbers into
the whole matrix (mixin of :class:`scenes.dot_products.DotProducts`)."""

from __future__ import annotations

from manim import LEFT, UP, ReplacementTransform, Transform, VGroup

import attention_core as ac
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import Box, box_of, flow, place
from scenes.mobjects.text import label
from scenes.mobjects.theme import SMALL
from scenes.mobjects.unimath import NO_BREAK

SIDE_PLANE = 2.2  # a narrow frame's plane beside the whole matrix, at the end (its width)
MIN_SIDE_PLANE = 1.8  # and the least width it may have there
LISTED_KEYS = 4  # 1:1: the followed row's keys on the small plane and in the list


class MatrixSteps:
    """The matrix step's end (mixin of :class:`scenes.dot_products.DotProducts`)."""

    def move_plane(self, left: Box) -> None:
        """A narrow frame's last picture: the plane gives the whole matrix its room and comes
        back, smaller, in ``left`` beside it (for the followed query's keys, the still's)."""
        self.play(FadeOut(self.plane_parts), run_time=0.4)
        legend, note = self.set_plane(left)
        self.plane_parts = VGroup(self.plane.plane, self.plane.tick_labels, legend, note)
        self.play(FadeIn(self.plane_parts), run_time=0.6)

    def row_again(self, keys, per_cell: float) -> None:
        """The last step where the whole matrix took the frame (1:1): the plane again, half the
        content, the followed query with the story's keys, each score flying from its shadow
        into the list beside it — the scene's picture, in its last still."""
        content, i = self.regions.content, self.i
        left, right = content.columns(1, 1, gap=0.4)
        self.extra_cells = {}
        legend, note = self.set_plane(left)
        self.plane_parts = VGroup(self.plane.plane, self.plane.tick_labels, legend, note)
        entries, cols = self.score_entries(keys, right, fly=True)
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

    def whole_matrix(self):
        """The score matrix whole (numbers, else a grid of squares), whether it stands beside
        the plane, and the box the plane then moves to (None where it stays): in a wide frame
        in the room of the matrix and the arithmetic together, else in the whole content, the
        plane making way; in a narrow one right of a narrower plane (:data:`SIDE_PLANE`), the
        last still's picture. (None, False, None) where that elides it: the matrix stays as
        it is, beside the plane."""
        ex, content = self.example, self.regions.content
        side = Box(content.x0, content.y0, content.x0 + SIDE_PLANE, content.y1)
        # at last the whole content, the plane making way (it comes back in a step of its own)
        boxes = [
            (Box(side.x1 + 0.3, content.y0, content.x1, content.y1), True, side),
            (content, False, None),
        ]
        if self.wide:  # the matrix's room and the arithmetic's under it, first
            right = Box(self.mat_box.x0, self.work_box.y0, self.mat_box.x1, self.mat_box.y1)
            boxes.insert(0, (right, True, None))
        for box, beside, plane_box in boxes:
            grid = self.kit.matrix(
                self.head.scores,
                ("scores", self.h),
                self.q_tokens,
                self.k_tokens,
                box,
                row_colors=[self.q_color(a) for a in range(ex.n)],
                col_colors=[self.k_color(b) for b in range(ex.n_keys)],
                sizes=(28, 25, 22),
                any_squares=True,  # the worked numbers fly into their squares (no room for badges)
            )
            if len(grid.shown_rows) == ex.n and len(grid.shown_columns) == ex.n_keys:
                title = self.typeset("scores_typeset", SMALL, self.theme.muted)
                if grid.style.squares:  # no numbered headers: the shape the caption names
                    shape = label(f"{ex.n} × {ex.n_keys}", SMALL, self.theme.muted)
                    title = VGroup(title, shape).arrange(buff=0.2)
                title.next_to(grid, UP, buff=0.15).align_to(grid, LEFT)
                place(VGroup(title, grid), box, "top-right" if plane_box else "top")
                grid.title = title
                if plane_box is not None:  # the plane takes what the matrix leaves
                    x1 = box_of(VGroup(title, grid, grid.frame_parts())).x0 - 0.3
                    if x1 - content.x0 < MIN_SIDE_PLANE:
                        continue
                    plane_box = Box(content.x0, content.y0, x1, content.y1)
                return grid, beside, plane_box
        return None, False, None

    def score_list(self, keys, box: Box) -> list[int]:
        """Where the whole matrix has no room (an elided one beside the plane): in ``box`` the
        followed row's scores of the story's keys (:meth:`score_entries`), the worked ``keys``
        shown, the others waiting for their shadows. Returns those keys, in order."""
        entries, cols = self.score_entries(keys, box, fly=False)
        waiting = {id(m) for m in self.extra_cells.values()}  # their shadows bring them
        shown = VGroup(*(e if id(e[1]) not in waiting else e[0] for e in entries))
        self.play(FadeIn(shown), run_time=0.5)
        return cols

    def score_entries(self, keys, box: Box, fly: bool):
        """ "q(it₁) · k", then "k(trophy) 45.39 …" in ``box`` for the worked ``keys`` and the
        story's next (:func:`attention_core.story_order`: the followed key, then the
        heaviest), as many as fit, at most :data:`LISTED_KEYS`; each score that a shadow brings
        (all with ``fly``, else those not worked) a cell of ``self.extra_cells``. Returns
        (heading and entries, each (tag, number); the keys, in order)."""
        i, head = self.i, self.head
        key = self.pair_key[0] if self.pair_key else None
        story = ac.story_order(head.weights, i, key if key is not None else keys[0])
        wanted = [*keys, *(b for b in story if b not in keys)][:LISTED_KEYS]
        heading = label(f"q({self.q_tokens[i]}) · k", SMALL, self.q_color(i))
        entries, cols = [], []
        for b in wanted:  # the worked keys, then the story's, as many as the room holds
            num = self.num(head.scores[i, b], ("scores", self.h, i, b), color=self.theme.accent)
            tag = label(f"k({self.k_tokens[b]})", SMALL, self.k_color(b))
            tag.text = f"k({self.k_tokens[b]})"
            entry = VGroup(tag, num).arrange(buff=0.12)
            if flow([heading.copy(), *entries, entry], box.width, 0.4, 0.1).height > box.height:
                break
            entries.append(entry)
            cols.append(b)
            if fly or b not in keys:  # a worked key's number is in the matrix already
                self.extra_cells[i, b] = num
        place(flow([heading, *entries], box.width, hbuff=0.4, vbuff=0.1), box, "top-left")
        return [VGroup(heading, VGroup()), *entries], sorted(cols)

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
