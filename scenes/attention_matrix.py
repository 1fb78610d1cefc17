"""AttentionMatrix: the weights as a heatmap with values, rows summing to 1, an honest reading
(which token each one attends to most; the matrix is not symmetric), and its n² cost."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    Create,
    DashedVMobject,
    LaggedStart,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

import attention_core as ac
from scenes.kit import captions
from scenes.kit.base import ExplainerScene
from scenes.kit.roles import HeadRole
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import Box, flow, place
from scenes.mobjects.math import rich
from scenes.mobjects.matrix import matrix_title
from scenes.mobjects.text import label
from scenes.mobjects.theme import BODY, SMALL
from scenes.parts.attention_matrix_layout import AttentionMatrixLayout
from scenes.parts.attention_matrix_story import AttentionMatrixStory

STAGGERED_SUMS = 2.0  # the room of two columns of row sums beside a grid of 24 rows
LONG_SEQUENCE = 512  # the comparison in the cost step (a typical context length of the texts)


# what the matrix honestly says: decided in the core (attention_core.readings.claims)
reading, comparable_pairs, self_first = (
    ac.readings.claims.matrix_reading,
    ac.readings.claims.comparable_pairs,
    ac.readings.claims.self_first,
)


def named_cells(other, pair) -> list[tuple[int, int]]:
    """The cells the reading's caption names: the row's largest weight and its own, and the
    asymmetric pair both ways."""
    cells = []
    if other is not None:
        i, j = other
        cells += [(i, j), (i, i)]
    if pair is not None:
        a, b = pair
        cells += [(a, b), (b, a)]
    return cells


class AttentionMatrix(AttentionMatrixLayout, AttentionMatrixStory, ExplainerScene):
    """The full weight matrix, read honestly, and what it costs."""

    def construct(self):
        self.content, self.pieces = self.kit.pieces_strip(self.regions.content)
        content = self.content
        # many keys in a narrow frame: the matrix takes the whole width, the cost comes after it
        self.alone = self.example.n_keys > 6 and content.width < 2.2 * content.height
        self.alone = self.alone or self.example.n_keys > 2 * 6  # 24 tokens: squares in two sides
        left, right = (content, content) if self.alone else content.split(3, 2, gap=0.5)
        self.show_heatmap(left)
        self.gather_row_sums()
        self.read_the_matrix()
        self.show_cost(right)

    def show_heatmap(self, left):
        """The weights as a heatmap with their values (and, placed now, the row sums)."""
        ex, head, theme = self.example, self.head, self.theme
        W = head.weights
        real = ex.padding if ex.padding is not None and not ex.is_cross else None
        other, pair = self.reading_of(W, real)
        self.story = ac.head_story(self.trace)  # what a trained or asked head does, or None
        named = self.reading_cells(other, pair)
        self.matrix = matrix = self.blocked(self.heatmap_beside_sums(left, W, named))
        if not self.alone and matrix.width + self.sums_room > left.width + 1e-6:
            # wider than its share (one column as wide as a long followed name): the whole room
            self.alone, left = True, self.content
            self.matrix = matrix = self.blocked(self.heatmap_beside_sums(left, W, named))
        if self.one_side:  # many rows, every one named on the left: the grid takes the height
            self.title, self.sums, self.sum_head = self.place_one_side(matrix, left)
            self.column_name = self.name_followed_column(matrix)
            self.block = VGroup(self.title, matrix, self.sums, self.sum_head)
            title = self.title
        elif self.sums_once:
            self.sums, self.sum_head = self.sum_said_once(matrix, W)
            sums, sum_head = self.sums, self.sum_head
        else:
            sums, sum_head = self.row_sums(matrix, W)
        if not self.one_side:
            self.title = title = matrix_title(self.say("weights"), matrix, theme)
            under = self.readout if self.readout_at == "under" else VGroup()
            self.block = VGroup(title, matrix, sums, sum_head, under)
            place(self.block, left)
        if self.readout_at == "heading":
            self.readout.move_to(title, aligned_edge=LEFT)
            # flowed to the content's width from its left: where the block stands further right,
            # the line ends at the content's right edge (it ran off the frame at 16:9)
            overrun = self.readout.get_right()[0] - self.regions.content.x1
            if overrun > 0:
                self.readout.shift(LEFT * overrun)

        masked = ac.mask_claim(head.mask, W.shape).kind == "blocks"
        self.step("heatmap", caption_key="heatmap_masked" if masked else "heatmap")
        parts = (matrix.frame_parts(), matrix.blocked_marks, getattr(self, "column_name", VGroup()))
        self.play(FadeIn(title), FadeIn(*parts), run_time=0.8)
        self.play(FadeIn(matrix.numbers, lag_ratio=0.05), run_time=1.2)
        if len(self.pieces):  # what 猫¹ 猫² mean, once
            self.play(FadeIn(self.pieces), run_time=0.4)
        self.hold()

    def heatmap_beside_sums(self, left, W, named):
        """:meth:`heatmap_matrix` with room for a column of row sums right of it; two columns
        (alternating) where the rows are split between the grid's sides (24 tokens); no column
        where only then every row and column fits (``self.sums_once``: the sum said once)."""
        self.sums_room, self.sums_once = 1.1, False  # the row sums' column right of the grid
        one_side = self.one_side_heatmap(left, W, named)  # many rows: named on the left
        if one_side is not None:
            return one_side
        matrix = self.heatmap_matrix(left, W, named)
        if matrix.style.split:  # 24 rows: 24 × "1.000" say nothing; the sum said once
            self.sums_room = 0.0
            once = self.heatmap_matrix(left, W, named)
            if once.whole:
                self.sums_once = True
                return once
            self.sums_room = 1.1
        if matrix.style.split and matrix.width + STAGGERED_SUMS > left.width:
            # rows closer than a sum is tall: the sums alternate between two columns
            self.sums_room = STAGGERED_SUMS
            matrix = self.heatmap_matrix(left, W, named)
        if not matrix.whole:  # a narrow frame: every row and column, the sum said once
            self.sums_room = 0.0
            once = self.heatmap_matrix(left, W, named)
            if once.whole:
                matrix, self.sums_once = once, True
            else:
                self.sums_room = 1.1
                matrix = self.heatmap_matrix(left, W, named)
        return matrix

    def row_sums(self, matrix, W):
        """Each shown row's sum beside it (alternating between two columns on a grid whose
        rows are split between its sides) under a "row sum" heading."""
        theme = self.theme
        self.sums = sums = VGroup(
            *(
                self.num(np.sum(W[i]), HeadRole("rowsum", self.h, i), 3, color=theme.accent)
                for i in matrix.shown_rows
            )
        )
        matrix.place_row_notes(sums, buff=0.25, stagger=matrix.style.split)
        self.sum_head = sum_head = label(self.say("row_sum"), SMALL, theme.accent)
        sum_head.next_to(sums[0], np.array([0, 1, 0]), buff=0.25)
        sum_head.align_to(sums[0], LEFT)
        return sums, sum_head

    def sum_said_once(self, matrix, W):
        """ "every row sums to 1.000" once under the grid (the first row's sum: every row's is
        the same), where no column beside the rows has room."""
        theme = self.theme
        sums = VGroup(self.num(np.sum(W[0]), HeadRole("rowsum", self.h, 0), 3, color=theme.accent))
        head = label(self.say("row_sum_each"), SMALL, theme.accent)
        VGroup(head, sums).arrange(buff=0.15)
        under = self.readout if self.readout_at == "under" else matrix.backgrounds
        VGroup(head, sums).next_to(under, DOWN, buff=0.15).align_to(matrix.backgrounds, LEFT)
        return sums, head

    def heatmap_matrix(self, left, W, named):
        """The weight matrix in ``left``: numbers where they fit, else a grid of squares with the
        named cells' numbers on a readout line (``self.readout``, at ``self.readout_at``) or on
        badges."""

        def fitted(room: float, named=()):  # the row sums go in the last part of ``left``
            box = Box(left.x0, left.y0 + room, left.x1 - self.sums_room, left.y1)
            return self.weights_matrix(box, named)

        # a grid of squares: the numbers the reading names go on a line of their own, each
        # with the cells it names (a number on a badge over the grid was read as its
        # neighbouring row's): at the reading step in the heading's place, where one line
        # holds them, else under the grid; on badges only where neither has room
        matrix = fitted(0.0)
        self.readout, self.readout_at = VGroup(), None
        # a key word cut into pieces: no cell shows its weight (the pieces' sum), a line does —
        # with every named number, or (where that line has no room) the word's alone, the
        # other named cells keeping theirs on the grid
        words = [c for c in named if c in self.word_cells()]
        tries = [(named, ())] if matrix.style.squares and named else []
        tries += [(words, [c for c in named if c not in words])] if words else []
        for cells, kept in tries:
            numbers_too = cells is words  # the word's line under a whole grid of numbers too
            content = self.regions.content
            line = self.readout_line(W, cells, content.x1 - left.x0)
            if len(line) == 1:
                matrix, self.readout, self.readout_at = fitted(0.0, kept), line, "heading"
                return matrix
            line = self.readout_line(W, cells, left.width - 1.1)
            under = fitted(line.height + 0.25, kept)
            if under.style.squares or (numbers_too and under.whole):
                matrix, self.readout, self.readout_at = under, line, "under"
                line.next_to(matrix.backgrounds, DOWN, buff=0.2)
                line.align_to(matrix.backgrounds, LEFT)
                return matrix
        if named:
            matrix = fitted(0.0, named)
        return matrix

    def weights_matrix(
        self, box: Box, named=(), title_room=0.45, reading=True, one_side=False, numbers=True
    ):
        """The weight matrix fitted to ``box`` (less ``title_room`` above it): numbers where they
        fit, else a grid of squares keeping the ``named`` cells' numbers (not ``numbers``: their
        rows and columns only, the numbers said on a line), their badges clear of the reading's
        frames (``reading``; after it, only the named cells are framed)."""
        ex = self.example
        matrix = self.kit.matrix(
            self.head.weights,
            ("weights", self.h),
            self.q_tokens,
            self.k_tokens,
            box,
            sizes=(40, 36, 32, 28, 25, 22),
            digits=3,
            heat=True,
            row_colors=[self.q_color(i) for i in range(ex.n)],
            col_colors=[self.k_color(j) for j in range(ex.n_keys)],
            keep_rows=[i for i, _ in named],  # the rows the reading names, never elided
            keep_cols=[j for _, j in named],
            named=named if numbers else (),
            framed=self.frame_candidates() if reading else named,
            title_room=title_room,
            **({"one_side": True} if one_side else {}),
            **({"colorbar": False} if getattr(self, "key_under", False) else {}),  # (placed after)
        )
        matrix.blocked_marks = None  # (given the blocked look once chosen: :meth:`blocked`)
        return matrix

    def readout_line(self, W, named, width: float, grouped=False) -> VGroup:
        """ "students → when 1.000 · students → students 0.000": each named cell's weight, on
        lines of ``width`` at most (``grouped``: a query named once for its keys in a row, "it
        → soup 0.719  that 0.084"); a cell of a key word cut into pieces (:meth:`word_cells`)
        as the word and its pieces' sum, "word → supercalifragilistic 0.877"."""
        theme, parts, words, last = self.theme, [], self.word_cells(), None
        for i, j in dict.fromkeys(named):
            key = ac.pieces_text([self.k_tokens[j]]) if (i, j) not in words else self.word()
            q, k = (self.kit.fit_label(t, 1.6, SMALL) for t in (self.q_tokens[i], key))
            name = label(k if grouped and i == last else f"{q} → {k}", SMALL, theme.muted)
            last = i
            value = (
                self.word_weight(i)
                if (i, j) in words
                else self.num(W[i, j], HeadRole("weights", self.h, i, j), 3)
            )
            parts.append(VGroup(name, value).arrange(buff=0.12))
        return flow(parts, width, hbuff=0.35 if grouped else 0.45)

    def word_cells(self) -> list[tuple[int, int]]:
        """The cells whose number is a key word's (the story's key cut into pieces): the query's
        and its peer's on the key; none for a key of one token."""
        s = self.story
        if s is None or len(s.pieces) < 2:
            return []
        return [(i, s.key) for i in (s.query, s.peer) if i is not None]

    def word(self) -> str:
        """The story's key word, as its pieces spell it ("supercalifragilistic")."""
        return self.story_key(self.story).partition(" = ")[0]

    def gather_row_sums(self):
        """Each row's shares gather into its sum."""
        matrix, sums = self.matrix, self.sums
        # the sum said once: every row gathers into a copy of it
        targets = [sums[0].copy() for _ in matrix.shown_rows] if self.sums_once else sums
        self.step("rows")
        if self.one_side and self.title_gives_way and len(self.title):  # the corner's sum
            self.play(FadeOut(self.title), run_time=0.3)
            self.title = VGroup()
        self.play(FadeIn(self.sum_head), run_time=0.4)
        self.play(
            LaggedStart(
                *(
                    TransformFromCopy(matrix.row_group(i), s)
                    for i, s in zip(matrix.shown_rows, targets)
                ),
                lag_ratio=0.3,
            ),
            run_time=min(3.0, 0.8 + 0.4 * len(sums)),
        )
        if self.sums_once:
            self.remove(*targets)
            self.add(sums)
        self.hold()

    def read_the_matrix(self):
        """Which key each row attends to most, and whether the matrix is symmetric."""
        ex, head = self.example, self.head
        W = head.weights
        real = ex.padding if ex.padding is not None and not ex.is_cross else None
        other, pair = self.reading_of(W, real)
        sym = self.symmetry_words(pair, real)
        self.marks = marks = [*self.row_maxima(), *self.pair_marks(pair), *self.named_marks()]
        gone = self.tell_head()  # what the head's rows show, framed (AttentionMatrixStory)
        if self.story is not None:
            self.tell_story(sym)
        elif ex.is_cross:
            self.step("reading", caption_key="reading_cross")
        elif other is not None:
            i, j = other
            self.step(
                "reading",
                caption_key="reading_other",
                q=self.q_tokens[i],
                k=self.k_tokens[j],
                a=self.num(W[i, j], HeadRole("weights", self.h, i, j), 3).shown,
                b=self.num(W[i, i], HeadRole("weights", self.h, i, i), 3).shown,
                sym=sym,
            )
        elif self_first(W, head.mask, real):
            self.step("reading", caption_key="reading_self", sym=sym)
        else:
            self.step("reading", caption_key="reading_even", sym=sym)
        heading = [FadeOut(self.title)] if self.readout_at == "heading" else []
        if self.readout_at == "corner":  # the corner's title and sum give it their place
            heading = [FadeOut(m) for m in (self.title, self.sums, self.sum_head) if len(m)]
        self.play_all(
            [*(Create(r) for r in marks), *heading, *gone, FadeIn(self.readout)], run_time=1
        )
        self.bring_to_front(self.matrix.numbers)  # a number kept on a grid of squares on top
        self.hold(1.8)

    def reading_of(self, W, real):
        """``(other, pair)`` of the core's reading (``matrix_reading``), the followed query's row
        read first where it says something: the row DotProducts, Softmax and WeightedSum follow."""
        prefer = ac.followed_pair(self.trace).query
        return reading(W, self.example.is_cross, self.head.mask, real, prefer=prefer)

    def symmetry_words(self, pair, real) -> str:
        """The caption's sentence on symmetry: the most asymmetric pair, where there is one."""
        ex, W = self.example, self.head.weights
        if pair is not None:
            a, b = pair
            return self.say(
                "symmetric_no",
                a=f"w({self.q_tokens[a]}→{self.k_tokens[b]}) = "
                + self.num(W[a, b], HeadRole("weights", self.h, a, b), 3).shown,
                b=f"w({self.q_tokens[b]}→{self.k_tokens[a]}) = "
                + self.num(W[b, a], HeadRole("weights", self.h, b, a), 3).shown,
            )
        if not ex.is_cross and comparable_pairs(self.head.mask, real):
            return self.say("symmetric_yes")
        return ""

    def pair_marks(self, pair) -> VGroup:
        """Dashed frames on the two cells of the most asymmetric pair (none without one)."""
        if pair is None:
            return VGroup()
        a, b = pair
        return VGroup(
            *(
                DashedVMobject(
                    SurroundingRectangle(rect, color=self.theme.text, buff=0.0, stroke_width=3),
                    num_dashes=16,
                )
                for rect in (self.matrix.cell_rect(a, b), self.matrix.cell_rect(b, a))
                if rect is not None
            )
        )

    def named_marks(self) -> VGroup:
        """On a grid of squares, a frame on each cell the readout names (not framed already)."""
        if not len(self.readout):
            return VGroup()
        W, matrix = self.head.weights, self.matrix
        real = self.example.padding if not self.example.is_cross else None
        other, pair = self.reading_of(W, real)
        framed = set(self.framed_cells())
        framed |= set(pair and [tuple(pair), tuple(pair[::-1])] or [])
        return VGroup(
            *(
                SurroundingRectangle(
                    matrix.cell_rect(i, j), color=self.theme.text, buff=0.0, stroke_width=2.5
                )
                for i, j in dict.fromkeys(self.reading_cells(other, pair))
                if (i, j) not in framed and matrix.cell_rect(i, j) is not None
            )
        )

    def row_maxima(self) -> VGroup:
        """A frame on each shown row's largest weight (with a head's story: on the cells of the
        rows that fit it, and on the pair it names)."""
        matrix = self.matrix
        return VGroup(
            *(
                matrix.highlight(i, j)  # visible on every cell colour
                for i, j in self.framed_cells()
                if matrix.cell_rect(i, j) is not None
            )
        )

    def show_cost(self, right):
        """The n² cost: cells for this example and for a long text, and the multiply-adds —
        beside the matrix, which stays on screen (the last frame is the one a lecturer pastes)."""
        ex, head = self.example, self.head
        self.step(
            "cost",
            cells=self.num(ex.n * ex.n_keys, ("cells",), 0).shown,
            work=self.num(ex.n * ex.n_keys * head.d_k, ("work",), 0).shown,
            cells512=f"{LONG_SEQUENCE**2:,}",
        )
        if self.alone:  # the matrix took the whole room: it makes room for the cost
            rows = self.shrink_beside_cost()
        else:
            rows = self.cost_rows(right.width)
            place(rows, right, "left")
            if self.readout_at == "heading":  # it may reach into the cost's room: the title
                title = self.pair_title(self.matrix)  # comes back with the followed pair
                self.play(FadeOut(self.readout), FadeIn(title), run_time=0.4)
                self.title = title
        self.cost_lines = rows  # (checked: clear of the followed pair's line)
        self.play(FadeIn(rows, lag_ratio=0.3), run_time=1.2)
        self.hold(1.6)

    def cost_rows(
        self, width: float, size: float = BODY, compact: bool = False, lead: bool = False
    ) -> VGroup:
        """n = 12 → 144 cells; n = 512 → 262,144 cells; n²dₖ = 288 multiply-adds: each on lines
        of ``width`` at most, or (``compact``) side by side where they fit, after the followed
        pair (:meth:`pair_line`) with ``lead``."""
        ex, head, theme = self.example, self.head, self.theme
        work = ex.n * ex.n_keys * head.d_k
        rows = [
            [
                label(f"n = {n_tokens}  →", size, theme.text),
                self.num(value, role, 0, size=size, color=theme.accent),
                label(self.say("cost_cells"), size, theme.muted),
            ]
            for n_tokens, value, role in (
                (ex.n, ex.n * ex.n_keys, ("cells",)),
                (LONG_SEQUENCE, LONG_SEQUENCE**2, ("cells_at", LONG_SEQUENCE)),
            )
        ]
        rows.append(
            [
                rich("$n^2 d_k$ =", size, theme.text),
                self.num(work, ("work",), 0, size=size, color=theme.accent),
                label(self.say("multiply_adds"), size, theme.muted),
            ]
        )
        if compact:  # tight lines: a 24-token grid leaves a square frame little room under it
            parts = [VGroup(*r).arrange(buff=0.15) for r in rows]
            lines = flow(parts, width, hbuff=0.45, vbuff=0.04)
            if lead:  # on a line of its own (beside "n = 24 → 576 cells" it read as one line)
                lines = VGroup(self.pair_line(), lines).arrange(DOWN, aligned_edge=LEFT, buff=0.04)
            lines.leads = lead  # the followed pair leads them
            return lines
        return VGroup(*(flow(r, width) for r in rows)).arrange(DOWN, aligned_edge=LEFT, buff=0.3)

    def cost_layouts(self):
        """Where the cost may go beside a matrix that fills a narrow frame, best first: (its
        lines, the matrix's room, the lines' room, whether the matrix keeps its title)."""
        content = self.content
        for share in (0.4, 0.3):  # beside the matrix
            rows = self.cost_rows(share * content.width)
            room = Box(content.x0, content.y0, content.x1 - rows.width - 0.5, content.y1)
            yield rows, room, Box(room.x1 + 0.5, content.y0, content.x1, content.y1), True
        tight = [(SMALL, True, 0.12, True), (SMALL, True, 0.12, False), (SMALL, True, 0.06, False)]
        if self.one_side:  # the pair in the corner over the row names first: leading the cost's
            tight[:2] = tight[1::-1]  # lines it read as one with them (trophy-24 at 1:1)
        for size, compact, gap, lead in ((BODY, False, 0.3, False), *tight):
            # no title line (compact): the followed pair leads the lines under the matrix, or
            # (no room for that line) its number stays on its framed cell
            rows = self.cost_rows(content.width, size, compact, lead=lead)
            room, spot = content.rows(content.height - rows.height - gap, rows.height, gap=gap)
            yield rows, room, spot, not compact

    def shrink_beside_cost(self) -> VGroup:
        """In a narrow frame the matrix filled the room: now it is fitted again beside the cost
        or above it, every row and column still on screen, with its colour key (the row sums
        and the reading's marks have been read); returns the cost's lines, placed."""
        best, tried = None, set()
        for rows, room, spot, titled in self.cost_layouts():
            # the followed pair named in words (a title or the lines' lead) unless only a
            # layout without that line shows every cell; then the most cells
            named = titled or getattr(rows, "leads", False)
            if (room, titled, named) in tried:  # the same grid again (two shares, one width)
                continue
            tried.add((room, titled, named))
            # its number in words: no badge over the grid
            matrix = self.cost_matrix(room, [self.followed_cell()], titled, named)
            named = named or hasattr(matrix, "pair_note")  # (in the corner over the row names)
            score = (matrix.whole, named, len(matrix.shown_cells))
            if best is None or score > best[0]:
                best = (score, rows, room, spot, matrix, titled)
            if matrix.whole and (named or not self.one_side):
                break
        _, rows, room, spot, matrix, titled = best
        self.blocked(matrix)
        # the title line keeps the followed pair (untitled, the pair leads the cost's lines)
        title = self.pair_title(matrix) if titled else getattr(matrix, "pair_note", VGroup())
        place(VGroup(title, matrix), room)
        place(rows, spot, "left")
        frame = self.pair_frame(matrix)
        sums = (self.sums, self.sum_head) if self.readout_at != "corner" else ()  # gone before
        gone = [m for m in (*sums, self.readout, *self.marks) if len(m)]
        if self.readout_at not in ("heading", "corner") and len(self.title):
            gone.append(self.title)  # (else it gave its place to the readout at the reading)
        shown = (matrix.frame_parts(), matrix.blocked_marks, matrix.numbers, title, frame)
        self.play(FadeOut(self.matrix, *gone), FadeIn(*shown), run_time=0.8)
        self.bring_to_front(matrix.numbers)
        self.matrix, self.title = matrix, title
        return rows

    def followed_cell(self) -> tuple[int, int]:
        """The cell the story is about: the head's story's pair, else the followed pair."""
        if self.story is not None:
            return self.story.query, self.story.key
        p = ac.followed_pair(self.trace)
        return p.query, p.key

    def pair_title(self, matrix) -> VGroup:
        """The matrix's title line at the cost step: "attention weights" and the followed
        pair with its weight ("she → baker 0.381"), or the pair alone where both do not fit
        (issue 38: the last still, the png a lecturer pastes, had lost the story)."""
        pair = self.pair_line()
        both = VGroup(label(self.say("weights"), SMALL, self.theme.muted), pair)
        both.arrange(buff=0.45)
        title = both if both.width <= matrix.width else pair
        return matrix_title(title, matrix, self.theme)

    def pair_line(self) -> VGroup:
        """ "she → baker 0.381": the followed pair and its weight, on one line."""
        return self.readout_line(self.head.weights, [self.followed_cell()], 99.0)

    def pair_frame(self, matrix) -> VGroup:
        """The followed pair's cell framed in ``matrix`` (its row and column are never
        elided)."""
        return matrix.highlight(*self.followed_cell())

    # -- a trained or asked head's story (attention_core.readings.followed.head_story) ----------
    def reading_cells(self, other, pair) -> list[tuple[int, int]]:
        """The cells the reading's caption names: the story's pair (with a story), else the
        plain reading's cells; and the asymmetric pair both ways."""
        s = self.story
        if s is None:
            return named_cells(other, pair)
        beside = [(s.query, s.other)] if s.telling in ("asked_top", "asked_lower") else []
        beside += (
            [(s.peer, s.key)] if s.telling in ("asked_column", "asked_linked", "asked_also") else []
        )
        return [(s.query, s.key), *beside, *named_cells(None, pair)]

    def framed_cells(self) -> list[tuple[int, int]]:
        """The cells framed at the reading: each shown row's largest weight, or with a story the
        rows that fit it and its pair."""
        shown = set(self.matrix.shown_rows)
        return [(i, j) for i, j in self.frame_candidates() if i in shown]

    def frame_candidates(self) -> list[tuple[int, int]]:
        """The cells the reading frames where their rows are shown: each row's largest weight,
        or with a story the rows that fit it and its pair."""
        s = getattr(self, "story", None)
        if s is None:
            return [(i, int(np.argmax(row))) for i, row in enumerate(self.head.weights)]
        return list(dict.fromkeys([(s.query, s.key), *s.fits]))

    def tell_story(self, sym: str) -> None:
        """The reading step's caption: what the head does, in its pair and its number."""
        s, W = self.story, self.head.weights
        o = s.other if s.other is not None else s.key
        w = self.word_weight(s.query).shown  # a key word cut into pieces: their sum
        pieces = len(s.pieces) > 1  # said once as "word = piece + piece: weight", then the word
        kw = self.say("word_weight" if pieces else "key_weight", k=self.story_key(s), w=w)
        self.step(
            "reading",
            caption_key=f"story_{s.telling if s.kind == 'asked' else s.kind}",
            q=self.q_tokens[s.query],
            k=self.word() if pieces else self.k_tokens[s.key],
            w=w,
            kw=kw,
            e=self.q_tokens[s.earlier] if s.earlier is not None else "",
            o=self.k_tokens[o],
            ow=self.num(W[s.query, o], HeadRole("weights", self.h, s.query, o), 3).shown,
            nth=captions.ordinal(s.rank, self.lang),
            p=self.q_tokens[s.peer] if s.peer is not None else "",
            pw=self.word_weight(s.peer).shown if s.peer is not None else "",
            does=self.story_does(s),
            sym=sym,
            habit=self.head_habit(s),
        )

    def word_weight(self, i: int):
        """The weight row ``i`` puts on the story's key, as a Num: its cell, or for a key word
        cut into pieces the pieces' sum (role ``word_weight``)."""
        s, W = self.story, self.head.weights
        if len(s.pieces) < 2:
            return self.num(W[i, s.key], HeadRole("weights", self.h, i, s.key), 3)
        return self.num(W[i, list(s.pieces)].sum(), HeadRole("word_weight", self.h, i), 3)
