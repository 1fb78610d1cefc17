"""MultiHeadSplit's third step: each head attends in its own plane. The rows of each head's Q
and K become its query (solid) and key (outlined) arrows, beside its weights on the one shared
0–1 scale (``attend_per_head``)."""

from __future__ import annotations

import numpy as np
from manim import LEFT, RIGHT, UP, Create, ReplacementTransform, VGroup

import attention_core as ac
from scenes.kit.views import plane_view_of
from scenes.mobjects.compact_grid import MIN_SQUARE, is_shaded
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import Box, box_of, place
from scenes.mobjects.plane import grow
from scenes.mobjects.text import label
from scenes.mobjects.theme import SMALL
from scenes.parts.multi_head_blocks import COMPACT, MAX_PANELS, MIN_HEAD, TITLE_ROOM, frame_cell

STRONGEST = 2  # the keys named beside the followed query: the ones it weighs most


class HeadsStep:
    """Each head's plane and weights (mixin of :class:`scenes.multi_head.MultiHeadSplit`)."""

    def attend_per_head(self, fulls, pieces) -> None:
        """Each head attends in its own plane: the rows of its Q and K become its arrows."""
        content = self.regions.content
        variant = "_grouped" * self.maps.shared + "_rotary" * self.maps.rotated
        body, key_row = content.rows(content.height - 0.75, 0.6, gap=0.15)
        panels = self.head_panels(body)
        self.panels = panels  # {head: its panel}: the labels each plane names, for the checks
        legend = self.legend_and_bar(key_row)
        # after the panels: the line under the content names the heads they leave out
        key, self.value_key = getattr(self, "value_key", VGroup()), VGroup()  # (its room)
        self.step("heads", "heads" + variant if variant else None)
        self.play(
            FadeOut(key),
            *(FadeOut(g) for g in fulls.values() if self.fulls_stay),
            *(FadeOut(pieces[h][0]) for h in pieces if not pieces[h][1]),  # a block diagram's
            *(FadeOut(pieces[h][0].title) for h in pieces if pieces[h][1]),
            *(FadeOut(pieces[h][0].frame) for h in pieces if hasattr(pieces[h][0], "frame")),
            *(FadeOut(m.frame_parts(), m.name_mob) for h in pieces for m in pieces[h][1].values()),
            *(
                FadeOut(m.numbers)
                for h in pieces
                for name, m in pieces[h][1].items()
                if name == "V" or h not in panels
            ),
            *(FadeOut(m.shaded) for h in pieces for m in pieces[h][1].values() if is_shaded(m)),
            *(FadeIn(p.title) for p in panels.values()),
            *(Create(p.plane.plane) for p in panels.values()),
            run_time=0.8,
        )
        self.play(*self.rows_into_arrows(pieces, panels), run_time=1.4)
        self.play(
            *(FadeIn(p.labels) for p in panels.values()),
            *(FadeIn(p.note) for p in panels.values()),
            *(FadeIn(p.pattern) for p in panels.values()),
            FadeIn(legend),
            run_time=1.0,
        )
        lead = panels[self.explained]  # the head every other scene explains: framed, its pair
        self.play(FadeIn(lead.frame), FadeIn(lead.cell), run_time=0.6)
        return panels

    def rows_into_arrows(self, pieces, panels) -> list:
        """Each row of a head's Q_h and K_h turns into its arrow (elided rows just leave)."""
        moves = []
        for h in self.shown:
            mats, p = pieces[h][1] if h in pieces else {}, panels[h]
            for name, arrows in (("Q", p.q_arrows), ("K", p.k_arrows)):
                piece = mats.get(name)
                for i, arrow in zip(arrows.index, arrows):
                    row = piece.row_group(i) if piece is not None else VGroup()
                    moves.append(ReplacementTransform(row, arrow) if len(row) else grow(arrow))
                if piece is not None:  # rows with no arrow: their numbers just leave
                    rest = [c for (i, _), c in piece.cells.items() if i not in arrows.index]
                    moves.extend(FadeOut(c) for c in rest)
        return moves

    def head_panels(self, body: Box) -> dict:
        """One panel per shown head: side by side, each plane beside or above its weights —
        or, where that would elide a weight, the panels one above the other; where nothing
        fits, fewer heads (the first and the last; of more than MAX_PANELS heads, the two that
        matter most). Sets ``self.shown`` to the heads drawn."""
        tried = []
        e = self.explained  # first in every choice
        every = [e, *(h for h in range(len(self.trace.heads)) if h != e)]
        fewer = [e, next(h for h in self.order if h != e)]
        choices = [self.shown, fewer, [e]]  # at last the explained head alone, the rest named
        if len(every) <= MAX_PANELS and self.shown != every:  # up to 4: all of them, in a grid
            choices.insert(0, every)
        choices = list(dict.fromkeys(tuple(c) for c in choices))
        for shown in choices:
            n = len(shown)
            grid = [b for row in body.rows(1, 1, gap=0.3) for b in row.columns(1, 1, gap=0.3)]
            layouts = [
                (body.columns(*([1] * n), gap=0.3), "columns", True),
                (body.columns(*([1] * n), gap=0.3), "rows", True),
                *([(grid[:n], "columns", True)] if n > 2 else []),  # two rows of two
                (body.rows(*([1] * n), gap=0.3), "columns", False),
            ]
            for boxes, inner, titled in layouts:
                panels = {
                    h: self.head_panel(h, b, inner, titled, shown) for b, h in zip(boxes, shown)
                }
                if all(p.complete for p in panels.values()):
                    self.shown = list(shown)
                    return panels
                tried.append((shown, panels))
        for shown, panels in tried:
            if all(p.fits for p in panels.values()):
                self.shown = list(shown)
                return panels
        shown, panels = tried[0]
        self.shown = list(shown)
        return panels

    def head_panel(self, h: int, box: Box, inner: str = "columns", titled: bool = True, drawn=None):
        """Head ``h``'s plane (q solid, k outlined, labelled) beside (``inner="columns"``) or
        above its weights; ``titled``: its name above, else in the weights' title (named among
        the heads ``drawn``)."""
        ex, theme = self.example, self.theme
        title = self.head_title(h, box.width, drawn=drawn)
        if titled:
            room = title.height + 0.08
            title_box, rest = box.rows(room, box.height - room - 0.1, gap=0.1)
            place(title, title_box, "left")
        else:
            rest = box
        if inner == "columns":
            plane_area, pat_box = rest.columns(1.15, 1, gap=0.25)
        else:
            plane_area, pat_box = rest.rows(1.1, 1, gap=0.2)
        plane, q_arrows, k_arrows, labels, note = self.head_plane(h, plane_area)
        p_title, pattern = self.head_weights(h, pat_box, titled)
        if not titled:
            title = VGroup()
        panel = VGroup(title, plane.plane, q_arrows, k_arrows, labels, note, p_title, pattern)
        panel.fits = pat_box.contains(box_of(VGroup(p_title, pattern)), tol=1e-3)
        readable = getattr(pattern, "cell_size", MIN_SQUARE) >= MIN_SQUARE  # squares, not specks
        large = min(pattern.width, pattern.height) >= MIN_HEAD  # a head a student can read
        panel.complete = (
            (len(pattern.shown_rows) == ex.n and len(pattern.shown_columns) == ex.n_keys)
            and panel.fits
            and readable
            and large
        )
        panel.title, panel.plane, panel.q_arrows, panel.k_arrows = title, plane, q_arrows, k_arrows
        panel.labels, panel.note, panel.pattern = labels, note, VGroup(p_title, pattern)
        panel.weights = pattern
        if h == self.explained:  # framed, its followed cell framed in its weights
            pair = self.followed(h)
            panel.cell = frame_cell(pattern, pair.query, pair.key, theme)
            panel.frame = self.explained_frame(VGroup(panel, panel.cell), buff=0.08)
        return panel

    def head_plane(self, h: int, plane_area: Box):
        """Head ``h``'s queries (solid) and keys (outlined), labelled, in its own plane, with the
        view note below: (plane, q arrows, k arrows, labels, note)."""
        ex = self.example
        view = plane_view_of(self.trace, ("queries_keys", h))
        note = self.kit.view_note(view, ("queries_keys", h))
        if len(note):
            plane_box, note_box = plane_area.rows(plane_area.height - 0.4, 0.3, gap=0.1)
            place(note, note_box, "left")
        else:
            plane_box = plane_area
        n = ex.n
        named = self.named_arrows(h)
        bounds = plane_box  # where the labels go; naming a few, the plane leaves them room
        keep = list(range(n + ex.n_keys)) if named is None else sorted(named)
        if named is not None:  # only the arrows it names, the plane fitted to them (all of a
            plane_box = plane_box.inset(0.2, min(0.35, plane_box.height / 5))  # trained layer's
        plane = self.kit.plane(view.coords[keep], plane_box, ticks=False)  # were a pile)
        q_colors = [self.q_color(i) for i in range(n)]
        k_colors = [self.k_color(j) for j in range(ex.n_keys)]
        texts = [f"q({t})" for t in self.q_tokens] + [f"k({t})" for t in self.k_tokens]
        if named is not None:  # a small plane: the token alone (solid: its query, outlined: key)
            texts = [*self.q_tokens, *self.k_tokens]
        colors = q_colors + k_colors
        q_arrows = VGroup(*(plane.arrow(view.coords[k], colors[k]) for k in keep if k < n))
        k_arrows = VGroup(
            *(plane.arrow(view.coords[k], colors[k], outline=True) for k in keep if k >= n)
        )
        q_arrows.index = [k for k in keep if k < n]
        k_arrows.index = [k - n for k in keep if k >= n]
        labels = plane.tip_labels(
            view.coords[keep], [texts[k] for k in keep], [colors[k] for k in keep], bounds
        )
        return plane, q_arrows, k_arrows, labels, note

    def named_arrows(self, h: int):
        """Of more than MAX_PANELS heads (a trained layer), the arrows of head ``h``'s plane
        that are labelled and drawn in full: the followed query (``followed_pair``) and the
        keys it weighs most — as indices into queries then keys; else None (all of them)."""
        if len(self.trace.heads) <= MAX_PANELS:
            return None
        pair = ac.followed_pair(self.trace, self.example, h)
        row = np.asarray(self.trace.heads[h].weights)[pair.query]
        keys = {pair.key, *(int(j) for j in np.argsort(-row, kind="stable")[:STRONGEST])}
        return {pair.query, *(self.example.n + j for j in keys)}

    def head_weights(self, h: int, pat_box: Box, titled: bool):
        """Head ``h``'s weights in ``pat_box`` with their title (the head's name in it when the
        panel has no title of its own): (title, matrix)."""
        ex, theme = self.example, self.theme
        pattern = self.kit.grid(
            self.trace.heads[h].weights,
            ("weights", h),
            self.q_tokens,
            self.k_tokens,
            pat_box,
            digits=2,
            heat="weights",
            scale="weights",
            colorbar=False,
            sizes=(25, 22),
            title_room=TITLE_ROOM,
            row_colors=[self.q_color(i) for i in range(ex.n)],
            col_colors=[self.k_color(j) for j in range(ex.n_keys)],
            cell_pad=COMPACT,
        )
        words = self.say("weights")
        if not titled:
            words = self.head_name(h) + "  " + words
        p_title = label(words, SMALL, theme.muted)
        if p_title.width > pat_box.width:  # narrow: the head's name alone (the bar says weights)
            short = self.say("mh_weights")
            if not titled:
                short = self.head_name(h) + "  " + short
            p_title = label(short, SMALL, theme.muted)
        p_title.next_to(pattern, UP, buff=0.12).align_to(pattern, LEFT)
        place(VGroup(p_title, pattern), pat_box, "top")
        return p_title, pattern

    def legend_and_bar(self, box: Box) -> VGroup:
        """'q —  k - -' (solid query, outlined key) and the one shared 0–1 weight bar."""
        theme = self.theme
        left, right = box.columns(1, 1, gap=0.4)
        probe = self.kit.plane([[1, 0]], Box(0, 0, 1, 1), ticks=False)
        items = VGroup()
        for text, outline in ((self.say("query"), False), (self.say("key"), True)):
            arrow = probe.arrow([0.6, 0], theme.text, outline=outline)
            t = label(text, SMALL, theme.text)
            items.add(VGroup(arrow, t).arrange(RIGHT, buff=0.12))
        missing = "" if hasattr(self, "widths_box") else self.not_shown()
        if missing:  # the heads without a panel, named (else in the line under the content)
            items.add(label(missing, SMALL, theme.muted))
        items.arrange(RIGHT, buff=0.5)
        if items.width > left.width and missing:  # no room: the heads left out before q and k
            items = VGroup(items[-1])
        place(items, left, "left")
        bar = self.kit.colour_bar("weights", width=min(3.0, right.width - 0.2))
        place(bar, right, "right")
        return VGroup(items, bar)
