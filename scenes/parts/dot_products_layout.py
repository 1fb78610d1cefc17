"""DotProducts' layout: where the plane, the scores of the followed query and the arithmetic go
(mixin of :class:`scenes.dot_products.DotProducts`).

The worked keys are the story's (``attention_core.worked_keys``) at every aspect. Where the score
matrix shows them all beside the plane, their numbers fly into its cells; where it does not (a real
sentence of 20-odd tokens: an elided matrix keeps its first and last columns and few others), the
followed query's row of scores is a list of those keys, each number flying into its entry, and the
matrix comes whole at the matrix step. In a narrow frame (4:3, 1:1) the plane takes the left of
the content, its legend and note under it, and the scores and the arithmetic stack right of it
(issue 38: at 1:1 the plane was 80 px of a 720 px frame beside a third of the frame left empty).
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, UP, VGroup

import attention_core as ac
from scenes.mobjects.layout import Box, flow, place
from scenes.mobjects.plane import sample_arrow
from scenes.mobjects.text import balanced_lines, label
from scenes.mobjects.theme import SMALL

PLANE_SHARE = 0.54  # a narrow frame: the plane's column, of the content's width (at most square)


class LayoutSteps:
    """Where DotProducts' parts go (mixin of :class:`scenes.dot_products.DotProducts`)."""

    def lay_out_matrix(self):
        """The score matrix (with its title) where it shows the followed row and every worked
        key (``self.keys``): in a wide frame right of the plane, above the arithmetic (the plane
        giving up width until a small matrix is whole); in a narrow one right of the plane, in
        the room the arithmetic leaves under it. Elsewhere ``self.matrix`` is None and the
        followed row's scores are a list (:meth:`score_entries`). Returns the plane's box."""
        content = self.regions.content
        self.wide = content.width >= 1.6 * content.height
        if self.wide:
            for share in (1.0, 0.75, 0.55, 0.4):  # the plane as tall as the content
                side = min(content.height, 0.55 * content.width * share)
                left = Box(content.x0, content.y0, content.x0 + side, content.y1)
                right = Box(left.x1 + 0.4, content.y0, content.x1, content.y1)
                mat_box, work_box = right.rows(3, 2)
                matrix = self.score_matrix(mat_box)
                if matrix.whole or self.example.n > 4 or self.example.n_keys > 4:
                    break
        else:  # the arithmetic's height measured in the column it will have
            left, right = self.narrow_columns()
            self.work_box = right
            self.measured = {(self.i, j): self.work_lines(self.i, j, SMALL) for j in self.keys}
            need = max(w.height for w in self.measured.values()) + 0.2
            mat_box = Box(right.x0, min(right.y0 + need, right.y1 - 1.0), right.x1, right.y1)
            matrix = self.score_matrix(mat_box)
        shows = self.i in matrix.shown_rows and all(b in matrix.shown_columns for b in self.keys)
        self.mat_box, self.matrix = mat_box, matrix if shows else None
        top = self.place_scores(matrix, mat_box) - (0.3 if self.wide else 0.2)
        if not self.wide or self.matrix is None:  # the arithmetic right under the scores
            work_box = Box(right.x0, right.y0, right.x1, top)
        self.work_box = work_box
        return left

    def place_scores(self, matrix, box: Box) -> float:
        """The matrix with its title (where it shows the worked keys: ``self.matrix``), else the
        list of the followed row's scores, placed at the top of ``box``; returns their foot."""
        if self.matrix is None:
            self.m_title = VGroup()
            self.entries, self.listed = self.score_entries(self.keys, box, fly=True)
            return self.entries_group().get_bottom()[1]
        self.m_title = self.typeset("scores_typeset", SMALL, self.theme.muted)
        if not matrix.whole:  # elided: its shape, which the last caption names
            shape = label(f"{self.example.n} × {self.example.n_keys}", SMALL, self.theme.muted)
            self.m_title = VGroup(self.m_title, shape).arrange(buff=0.2)
        self.m_title.next_to(matrix, UP, buff=0.15).align_to(matrix, LEFT)
        return place(VGroup(self.m_title, matrix), box, "top").get_bottom()[1]

    def narrow_columns(self) -> tuple[Box, Box]:
        """A narrow frame's plane column (:data:`PLANE_SHARE` of the content, or its legend's
        width, at most square) and the column right of it."""
        content = self.regions.content
        side = PLANE_SHARE * content.width
        side = max(side, self.legend(side).width + 0.02)  # the legend on one line
        left = Box(content.x0, content.y0, content.x0 + min(side, content.height), content.y1)
        return left, Box(left.x1 + 0.3, content.y0, content.x1, content.y1)

    def score_matrix(self, box: Box):
        """The score matrix fitted to ``box``, keeping the followed query's row and the worked
        keys' columns."""
        return self.scores_in(
            box,
            sizes=(40, 36, 32, 28, 25, 22),
            keep_rows=[self.i],  # the query followed, wherever it is
            keep_cols=self.keys,  # and the keys it works (the story's)
            name_columns=True,  # elided, the keys still named by their tokens
        )

    def scores_in(self, box: Box, **options):
        """The head's scores, labelled and coloured by token, fitted to ``box`` (``Kit.matrix``
        with ``options``)."""
        ex = self.example
        return self.kit.matrix(
            self.head.scores,
            ("scores", self.h),
            self.q_tokens,
            self.k_tokens,
            box,
            row_colors=[self.q_color(a) for a in range(ex.n)],
            col_colors=[self.k_color(b) for b in range(ex.n_keys)],
            **options,
        )

    def set_plane(self, left: Box, tight: bool = False, square: bool = False):
        """The plane in ``left`` (``self.plane``, ``self.plane_box``) and under it its legend and
        note, their entries on lines of their own where one line is too wide (never over the
        matrix); ``tight`` (a narrow frame's plane column): the note in its short form where the
        long one takes two lines, and the plane all the height the two leave, its grid at least
        as wide as tall; ``square`` (the narrow column beside the whole matrix): its grid as tall
        as wide too, the room above a flat cloud's tips for their labels (issue 38: at 4:3 a
        22-token matrix left the plane 1.84 × 1.49, its labels parked under the x axis), and
        its note short too (the long one took two lines of the plane's height). Returns
        (legend, note), placed."""
        legend = self.legend(left.width)
        note = self.plane_note(left.width, tight or square)
        under = [legend, note] if legend.width <= left.width else [*legend, note]
        vbuff = 0.06 if tight else 0.1
        foot = flow([m.copy() for m in under], left.width, hbuff=0.4, vbuff=vbuff)
        plane_box, foot_box = left.rows(9, 1.4, gap=0.1)
        if tight:  # the plane takes all the foot leaves
            plane_box, foot_box = left.rows(left.height - foot.height - 0.1, foot.height, gap=0.1)
        elif foot.height > foot_box.height + 0.05:  # the foot takes the lines it needs
            plane_box, foot_box = left.rows(left.height - foot.height - 0.2, foot.height, gap=0.1)
        self.plane_box = plane_box
        points = self.all_points()
        if tight:  # a tall cloud (keys across q): the grid as wide as its column, q's way
            lo, hi = points.min(axis=0), points.max(axis=0)
            points = np.vstack([points, [lo[0] + max(hi - lo), 0.0]])
        if square:
            lo, hi = points.min(axis=0), points.max(axis=0)
            points = np.vstack([points, [0.0, lo[1] + max(hi - lo)]])
        self.plane = self.kit.plane(points, plane_box)
        place(flow(under, foot_box.width, hbuff=0.4, vbuff=vbuff), foot_box, "left")
        return legend, note

    def plane_note(self, width: float, short: bool) -> VGroup:
        """ "in the plane spanned by q and k (exact)" (nothing for d = 2) in ``width``: on the
        lines it needs, or (``short``, where it needs more than one) "the plane of q and k"."""
        if self.exact_2d:
            return VGroup()
        key = "pair_plane"
        if short and label(self.say(key), SMALL).width > width:
            key = "pair_plane_short"
        note = label(self.say(key), SMALL, self.theme.muted)
        if note.width > width:  # a narrow column: the note on two lines (or more)
            # first before its "(exact)", never inside "q and k" (issue 38, zh 4:3: "q 与" and
            # "k 的平面（精确）"); else at the middle word
            lines = note_lines(self.say(key))
            if len(lines) < 2 or label(lines[0], SMALL).width > width:
                words = self.say(key).split(" ")
                half = (len(words) + 1) // 2
                lines = [" ".join(part) for part in (words[:half], words[half:])]
            if max(label(t, SMALL).width for t in lines) > width:
                lines = balanced_lines(self.say(key), width, SMALL, max_lines=4)
            note = VGroup(*(label(t, SMALL, self.theme.muted) for t in lines)).arrange(
                DOWN, aligned_edge=LEFT, buff=0.06
            )
        return note

    def legend(self, width: float) -> VGroup:
        """ "→ query q", "⇢ key k (outlined)": each entry no wider than ``width`` (the key's
        without "(outlined)" where it would be; its hollow arrow says it)."""
        t = self.theme
        q = VGroup(
            sample_arrow(t.text, length=0.9), self.typeset("legend_q", SMALL, t.text)
        ).arrange(buff=0.12)
        for key in ("legend_k", "legend_k_short"):  # both on one line, if the short one does
            k = VGroup(
                sample_arrow(t.text, outline=True, length=0.9), self.typeset(key, SMALL, t.text)
            ).arrange(buff=0.12)
            if q.width + 0.35 + k.width <= width:
                break
        return VGroup(q, k).arrange(buff=0.35)

    def score_entries(self, keys, box: Box, fly: bool):
        """ "q(it₁) · k", then "k(trophy) 45.39 …" in ``box`` (:func:`score_table`) for the
        worked ``keys`` and (as many as fit, at most :data:`attention_core.WORKED_KEYS`) the
        story's next (:func:`attention_core.story_order`: the followed key, then the heaviest;
        never a key the mask blocks); each score that a shadow brings (all with ``fly``, else
        those not worked) a cell of ``self.extra_cells``. Returns (heading and entries, each
        (tag, number); the keys, in order)."""
        i, head = self.i, self.head
        key = self.pair_key[0] if self.pair_key else None
        story = ac.story_order(head.weights, i, key if key is not None else keys[0])
        seen = [b for b in story if head.mask is None or bool(head.mask[i, b])]
        wanted = [*keys, *(b for b in seen if b not in keys)][: max(len(keys), ac.WORKED_KEYS)]
        heading = label(f"q({self.q_tokens[i]}) · k", SMALL, self.q_color(i))
        entries = []
        for b in wanted:  # the worked keys, then the story's, as many as the room holds
            num = self.num(head.scores[i, b], ("scores", self.h, i, b), color=self.theme.accent)
            tag = label(f"k({self.k_tokens[b]})", SMALL, self.k_color(b))
            tag.text = f"k({self.k_tokens[b]})"
            entries.append(VGroup(tag, num).arrange(buff=0.12))
        while len(entries) > len(keys) and score_table(heading, entries, box.width).height > (
            box.height
        ):  # the worked keys' entries stay: their numbers fly there
            entries.pop()
        cols = wanted[: len(entries)]
        for b, entry in zip(cols, entries):
            if fly or b not in keys:  # a worked key's number is in the matrix already
                self.extra_cells[i, b] = entry[1]
        place(score_table(heading, entries, box.width), box, "top-left")
        return [VGroup(heading, VGroup()), *entries], sorted(cols)

    def entries_group(self) -> VGroup:
        """The list of the followed row's scores (:meth:`score_entries`), as placed."""
        return VGroup(*self.entries)


def note_lines(text: str) -> list[str]:
    """The plane's note as two lines, the second its parenthesis ("(exact)", "（精确）"); the
    note alone where it has none."""
    at = max(text.rfind(" ("), text.rfind("（"))
    if at <= 0:
        return [text]
    return [text[:at].rstrip(), text[at:].lstrip()]


def score_table(heading, entries, width: float) -> VGroup:
    """``heading`` and the ``entries`` (each "k(…) 12.34") in as many aligned columns as
    ``width`` holds: beside the heading where they make one line, else under it."""
    gap = 0.4
    col = max(e.width for e in entries)
    most = max(1, min(len(entries), int((width + gap) // (col + gap))))
    cols = -(-len(entries) // -(-len(entries) // most))  # as even as those rows allow: 2 × 2
    table = VGroup(*entries).arrange_in_grid(
        cols=cols, buff=(gap, 0.08), col_alignments="l" * cols, col_widths=[col] * cols
    )
    if cols == len(entries) and heading.width + gap + table.width <= width:
        return VGroup(heading, table).arrange(buff=gap)
    return VGroup(heading, table).arrange(DOWN, aligned_edge=LEFT, buff=0.1)
