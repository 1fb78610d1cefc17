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
from scenes.mobjects.heat_grid import edge_labels, edge_room
from scenes.mobjects.layout import Box, box_of, place
from scenes.mobjects.plane import CROWDED, grow
from scenes.mobjects.text import label
from scenes.mobjects.theme import SMALL
from scenes.parts.multi_head_blocks import COMPACT, MAX_PANELS, TITLE_ROOM, frame_cell

STRONGEST = 2  # the keys named beside the followed query: the ones it weighs most
LEAD = 1.6  # the explained head's panel, as wide as this many of the others' (a trained layer)
LABEL_ROOM = 0.4  # a grid of squares is narrower than its box by about this (its rows' room)
LARGER = 1.2  # … and its weights at least this much larger than theirs


class HeadsStep:
    """Each head's plane and weights (mixin of :class:`scenes.multi_head.MultiHeadSplit`)."""

    def plan_heads(self) -> None:
        """The heads' panels of the heads step, laid out before the split: the heads they draw
        (``self.shown``) are the ones every step draws, in one order."""
        content = self.regions.content
        self.heads_body, self.key_row = content.rows(content.height - 0.75, 0.6, gap=0.15)
        self.panels = self.head_panels(self.heads_body)  # {head: its panel} (for the checks)

    def attend_per_head(self, fulls, pieces) -> None:
        """Each head attends in its own plane: the rows of its Q and K become its arrows."""
        variant = "_grouped" * self.maps.shared + "_rotary" * self.maps.rotated
        panels, key_row = self.panels, self.key_row
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
            *(Create(p.plane.plane) for p in panels.values() if p.plane is not None),
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
        moves, grey = [], []
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
            grey.extend(grow(a) for a in p.grey)  # the others, thin and grey, under them
        return grey + moves

    def head_panels(self, body: Box) -> dict:
        """One panel per shown head: side by side, each plane beside or above its weights —
        or, where that would elide a weight, the panels one above the other; where nothing
        fits, fewer heads (the first and the last; of more than MAX_PANELS heads, the two that
        matter most). Of more than MAX_PANELS heads (a trained layer), the explained head is
        drawn larger first (its weights' followed rows and columns labelled), with as many of
        the others as keep their squares readable; of up to MAX_PANELS heads over more tokens
        than a plane names, the explained head's plane and weights with the others' weights
        alone beside them (:meth:`beside_layouts`). A layout is taken only where each plane
        names its cast at their tips. Sets ``self.shown`` to the heads drawn."""
        tried = []
        for shown, boxes, inner, titled in self.panel_layouts(body):
            if inner in ("lead", "beside"):  # the explained head larger: only where every
                make = self.lead_panels if inner == "lead" else self.beside_panels
                panels = make(shown, boxes)  # head is whole (no fallback)
                if panels is not None:
                    self.shown = list(shown)
                    return panels
                continue
            panels = {h: self.head_panel(h, b, inner, titled, shown) for b, h in zip(boxes, shown)}
            lone = len(shown) == 1 and any(all(p.whole for p in q.values()) for _, q in tried)
            if all(p.complete for p in panels.values()) and not lone:
                self.shown = list(shown)
                return panels
            tried.append((shown, panels))
        for whole in ("whole", "fits"):  # leader lines in a plane before the explained head alone
            for shown, panels in tried:
                if all(getattr(p, whole) for p in panels.values()):
                    self.shown = list(shown)
                    return panels
        shown, panels = tried[0]
        self.shown = list(shown)
        return panels

    def panel_layouts(self, body: Box):
        """The layouts :meth:`head_panels` tries, in order: (heads, boxes, inner, titled)."""
        e = self.explained  # first in every choice
        every = [e, *(h for h in range(len(self.trace.heads)) if h != e)]
        fewer = [e, next(h for h in self.order if h != e)]
        choices = [self.shown, fewer, [e]]  # at last the explained head alone, the rest named
        if len(every) <= MAX_PANELS and self.shown != every:  # up to 4: all of them, in a grid
            choices.insert(0, every)
        if len(every) <= MAX_PANELS and self.named_arrows(e) is not None:  # many tokens
            yield from self.beside_layouts(body, every)
        if len(every) > MAX_PANELS:  # a trained layer: the explained head larger, first, with
            ranked = [h for h in self.order if h in self.shown and h != e]  # those that matter
            for k in range(len(self.shown), 1, -1):  # most, as many as keep readable squares
                shown = [e, *sorted(ranked[: k - 1])]
                yield shown, body.columns(LEAD, *([1] * (k - 1)), gap=0.3), "lead", True
        for shown in dict.fromkeys(tuple(c) for c in choices):
            n = len(shown)
            grid = [b for row in body.rows(1, 1, gap=0.3) for b in row.columns(1, 1, gap=0.3)]
            yield shown, body.columns(*([1] * n), gap=0.3), "columns", True
            yield shown, body.columns(*([1] * n), gap=0.3), "rows", True
            if n > 2:  # two rows of two
                yield shown, grid[:n], "columns", True
            yield shown, body.rows(*([1] * n), gap=0.3), "columns", False

    def beside_layouts(self, body: Box, every: list[int]):
        """Of at most MAX_PANELS heads over more tokens than a plane names (issue 38: 24
        tokens, 4 heads, kept heads 1 and 3 at 16:9 and 4:3, their planes' names in a key):
        the explained head's plane and weights at the left, as wide as the body leaves, and at
        its right the others' weights alone, each at least as large as its squares and the
        least head read (:meth:`least_head`), in one row or a grid — all of them where they
        fit, else those that matter most (``self.order``), the rest named."""
        e, ex = self.explained, self.example
        least = max(self.least_head(), max(ex.n, ex.n_keys) * MIN_SQUARE) + 0.02
        title = label(self.head_name(every[-1]), SMALL, weight="BOLD").height + 0.2
        ranked = [h for h in self.order if h != e]
        for k in range(len(every) - 1, 0, -1):
            for rows in range(1, k + 1):
                cols = -(-k // rows)
                side = min((body.height - 0.3 * (rows - 1)) / rows - title, 1.2 * least)
                if side < least:
                    continue
                width = cols * (side + LABEL_ROOM) + 0.3 * (cols - 1)
                lead = Box(body.x0, body.y0, body.x1 - width - 0.45, body.y1)
                high = rows * (side + title) + 0.3 * (rows - 1)  # the grid, centred
                mid = (body.y0 + body.y1) / 2
                grid = Box(lead.x1 + 0.45, mid - high / 2, body.x1, mid + high / 2)
                cells = [c for r in grid.rows(*([1] * rows), gap=0.3) for c in r.columns(
                    *([1] * cols), gap=0.3)]  # fmt: skip
                yield [e, *sorted(ranked[:k])], [lead, *cells[:k]], "beside", True

    def beside_panels(self, shown, boxes):
        """The explained head's panel (its plane beside its weights) in ``boxes[0]`` and the
        other heads' weights alone in the rest, or None where one is not whole or the explained
        head's plane cannot name its cast at their tips."""
        e = self.explained
        panels = {h: self.weights_panel(h, b) for h, b in zip(shown[1:], boxes[1:])}
        if not all(p.complete for p in panels.values()):
            return None
        lead = self.head_panel(e, boxes[0], "columns", True, shown)
        if not lead.complete:
            return None
        return {e: lead, **panels}

    def weights_panel(self, h: int, box: Box):
        """Head ``h``'s weights alone under its name (beside the explained head's plane and
        weights): its rows' Q and K leave with no arrow; complete where every row and column
        is drawn in readable squares at least :meth:`least_head` on a side."""
        title = self.head_title(h, box.width)
        room = title.height + 0.12
        pattern = self.weights_grid(h, Box(box.x0, box.y0, box.x1, box.y1 - room), 0.02)
        title.next_to(pattern, UP, buff=0.12).align_to(pattern, LEFT)
        place(VGroup(title, pattern), box, "top")
        empty = VGroup()
        q_arrows, k_arrows = VGroup(), VGroup()
        q_arrows.index, k_arrows.index = [], []
        panel = VGroup(title, pattern)
        panel.title, panel.plane, panel.q_arrows, panel.k_arrows = title, None, q_arrows, k_arrows
        panel.labels, panel.note, panel.grey, panel.edges = empty, empty, empty, empty
        panel.pattern, panel.weights, panel.labelled = VGroup(pattern), pattern, True
        panel.fits = box.contains(box_of(panel), tol=1e-3)
        panel.complete = panel.whole = (
            len(pattern.shown_rows) == self.example.n
            and len(pattern.shown_columns) == self.example.n_keys
            and panel.fits
            and getattr(pattern, "cell_size", MIN_SQUARE) >= MIN_SQUARE
            and min(pattern.width, pattern.height) >= self.least_head() - 1e-6
        )
        return panel

    def lead_panels(self, shown, boxes):
        """The panels of ``shown`` in ``boxes`` (the explained head's the larger), each plane
        beside its weights, or None as soon as one is not whole (the others first: their
        narrower panels fail first, and each costs a grid of squares)."""
        e, panels = self.explained, {}
        for b, h in sorted(zip(boxes, shown), key=lambda bh: bh[1] == e):
            panels[h] = self.head_panel(h, b, "columns", True, shown)
            if not panels[h].complete:
                return None
        side = {h: min(p.weights.width, p.weights.height) for h, p in panels.items()}
        if any(side[e] < LARGER * side[h] for h in shown if h != e):  # the lead stands out
            return None  # (fewer heads, each then wider)
        return {h: panels[h] for h in shown}

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
        if inner == "columns":  # the explained head of a trained layer: its weights wider
            shares = (1, 1.15) if self.edge_tokens(h) is not None else (1.15, 1)  # (labelled)
            plane_area, pat_box = rest.columns(*shares, gap=0.25)
            least = self.note_width(h)  # the plane's notes never run into its weights
            if plane_area.width < least < rest.width / 2:
                plane_area = Box(rest.x0, rest.y0, rest.x0 + least, rest.y1)
                pat_box = Box(plane_area.x1 + 0.25, rest.y0, rest.x1, rest.y1)
        else:
            plane_area, pat_box = rest.rows(1.1, 1, gap=0.2)
        plane, q_arrows, k_arrows, labels, note, grey = self.head_plane(h, plane_area)
        p_title, pattern, edges = self.head_weights(h, pat_box, titled)
        if not titled:
            title = VGroup()
        weights = VGroup(p_title, pattern, edges)
        panel = VGroup(title, plane.plane, grey, q_arrows, k_arrows, labels, note, weights)
        panel.fits = pat_box.contains(box_of(weights), tol=1e-3)
        readable = getattr(pattern, "cell_size", MIN_SQUARE) >= MIN_SQUARE  # squares, not specks
        large = min(pattern.width, pattern.height) >= self.least_head() - 1e-6  # readable
        apart = not len(note) or box_of(note).x1 <= box.x1 - 0.1  # not run into the next one's
        panel.labelled = not getattr(labels, "led", 0)  # each label at its own tip
        named = sum(bool(getattr(m, "is_tip_label", False)) for m in labels.get_family())
        panel.whole = (  # … and where not, its labels led to their tips (none left out: at
            # 1:1 two heads' planes too narrow for "explanations" named neither query)
            named >= len(q_arrows) + len(k_arrows)
            and (len(pattern.shown_rows) == ex.n and len(pattern.shown_columns) == ex.n_keys)
            and panel.fits
            and readable
            and large
            and apart
        )
        panel.complete = panel.whole and panel.labelled
        panel.title, panel.plane, panel.q_arrows, panel.k_arrows = title, plane, q_arrows, k_arrows
        panel.labels, panel.note, panel.pattern, panel.grey = labels, note, weights, grey
        panel.weights, panel.edges = pattern, edges
        if h == self.explained:  # framed, its followed cell framed in its weights
            pair = self.followed(h)
            panel.cell = frame_cell(pattern, pair.query, pair.key, theme)
            panel.frame = self.explained_frame(VGroup(panel, panel.cell), buff=0.08)
        return panel

    def head_plane(self, h: int, plane_area: Box):
        """Head ``h``'s queries (solid) and keys (outlined), labelled, in its own plane, with the
        view note below: (plane, q arrows, k arrows, labels, note, grey arrows). Of many heads
        or tokens, the cast (:meth:`named_arrows`) whole, each labelled at its own tip, the
        plane fitted to them, every other arrow counted under the note, not drawn
        (:meth:`cast_plane`)."""
        ex, n = self.example, self.example.n
        view = plane_view_of(self.trace, ("queries_keys", h))
        note = self.kit.view_note(view, ("queries_keys", h))
        if note.width > plane_area.width:  # narrow: "2-D: keeps 84 %" (it ran into the weights)
            note = self.kit.view_note(view, ("queries_keys", h), short=True)
        colors = [self.q_color(i) for i in range(n)] + [self.k_color(j) for j in range(ex.n_keys)]
        texts = [f"q({t})" for t in self.q_tokens] + [f"k({t})" for t in self.k_tokens]
        named = self.named_arrows(h)
        if named is not None:  # a few in a plane: the cast, the rest counted
            return self.cast_plane(view.coords, texts, colors, named, note, plane_area)
        plane_box = plane_area
        if len(note):
            plane_box, note_box = plane_area.rows(plane_area.height - 0.4, 0.3, gap=0.1)
            place(note, note_box, "left")
        plane = self.kit.plane(view.coords, plane_box, ticks=False)
        q_arrows = VGroup(*(plane.arrow(view.coords[k], colors[k]) for k in range(n)))
        k_arrows = VGroup(
            *(plane.arrow(view.coords[k], colors[k], outline=True) for k in range(n, len(texts)))
        )
        q_arrows.index, k_arrows.index = list(range(n)), list(range(ex.n_keys))
        labels = plane.tip_labels(view.coords, texts, colors, plane_box)
        return plane, q_arrows, k_arrows, labels, note, VGroup()

    def cast_plane(self, coords, texts, colors, cast, note, area: Box):
        """The plane of a head's queries and keys in ``area``, fitted to its ``cast``
        (indices into queries then keys, the followed query first) drawn whole — query solid,
        keys outlined — each named at its own tip, none farther than the kit's reach (issue 38:
        a label set at the nearest free spot sat at another arrow's tip; 22 arrows from the
        origin made a pile of heads); where the tips leave no room for every name, the cast cut
        from its end down to the followed pair; every other arrow counted under ``note``, not
        drawn (issue 38, a review: 45 grey arrows, the plane fitted to them all, left the cast
        a pile of arrowheads in a plane 80 px tall). One label per arrow at its tip, or none: a
        key of the cast's colours named arrows away from their tips (the checks found them
        unlabelled); where even the followed pair's labels need leader lines, the labels'
        ``led`` says how many, and the layout gives the plane more room
        (:meth:`head_panels`). Returns (plane, q arrows, k arrows, labels, note, grey arrows:
        none)."""
        n, plain, kit, order = self.example.n, note, self.kit, list(dict.fromkeys(cast))
        bare = [t[2:-1] for t in texts]  # the token alone where it is named once, else q(…)
        names = [bare[k] for k in order]
        shown = [bare[k] if names.count(bare[k]) == 1 else texts[k] for k in range(len(texts))]
        below = 0.62  # the note and the count of the arrows not drawn
        plane_box, note_box = area.rows(area.height - below - 0.1, below, gap=0.1)
        inner = plane_box.inset(0.2, min(0.35, plane_box.height / 5))  # room for the labels
        # fitted to the cast alone, the others not drawn (issue 38: 45 grey arrows from the
        # origin, fitted to them all, left the cast a pile of arrowheads in a corner)
        plane = kit.plane(np.asarray(coords)[order], inner, ticks=False)
        tips, shafts = list(plane.tips), list(plane.shafts)
        for count in range(len(order), min(2, len(order)) - 1, -1):
            plane.tips[:], plane.shafts[:] = tips, shafts
            keep = sorted(order[:count])
            others = [k for k in range(len(texts)) if k not in keep]
            grey = VGroup()
            word = "not_drawn_short" if len(others) > 1 else "not_drawn"  # "20 not drawn"
            note = kit._grey_count(plain, len(others), note_box, "left", False, word)
            q_arrows = VGroup(*(plane.arrow(coords[k], colors[k]) for k in keep if k < n))
            k_arrows = VGroup(
                *(plane.arrow(coords[k], colors[k], outline=True) for k in keep if k >= n)
            )
            where = (plane_box, [*kit.thin_marks(grey), *note])
            led, labels = kit._cast_labels(plane, coords, keep, shown, colors, where, {})
            if not led:
                break
        labels.led = led
        for arrow in (*q_arrows, *k_arrows):
            arrow.wants_label = True  # (the checks look for its label)
        q_arrows.index = [k for k in keep if k < n]
        k_arrows.index = [k - n for k in keep if k >= n]
        return plane, q_arrows, k_arrows, labels, note, grey

    def note_width(self, h: int) -> float:
        """The width of head ``h``'s plane's notes (the view's, short, and the count of the
        arrows not drawn), or 0 where the plane draws every arrow (its note may run on)."""
        named = self.named_arrows(h)
        if named is None:
            return 0.0
        view = plane_view_of(self.trace, ("queries_keys", h))
        note = self.kit.view_note(view, ("queries_keys", h), short=True)
        others = self.example.n + self.example.n_keys - len(set(named))
        count = label(
            self.say("not_drawn_short" if others > 1 else "not_drawn_one", n=others), SMALL
        )
        return max(note.width, count.width) + 0.05

    def named_arrows(self, h: int):
        """Of more than MAX_PANELS heads (a trained layer), or of more tokens than a plane
        shows (:data:`CROWDED`), the arrows of head ``h``'s plane drawn in full and labelled:
        the followed query (``followed_pair``), its followed key, and the keys it weighs most
        — as indices into queries then keys, in that order; else None (all of them)."""
        if len(self.trace.heads) <= MAX_PANELS and self.example.n <= CROWDED:
            return None
        pair = ac.followed_pair(self.trace, self.example, h)
        return [pair.query, *(self.example.n + j for j in self.named_keys(h))]

    def named_keys(self, h: int) -> list[int]:
        """Head ``h``'s followed key, then the keys its followed query weighs most."""
        pair = ac.followed_pair(self.trace, self.example, h)
        row = np.asarray(self.trace.heads[h].weights)[pair.query]
        strongest = (int(j) for j in np.argsort(-row, kind="stable")[:STRONGEST])
        return list(dict.fromkeys([pair.key, *strongest]))

    def edge_tokens(self, h: int):
        """The rows and columns of head ``h``'s weights labelled at their edges (the explained
        head of a trained layer: its followed query's row and the columns of the keys its
        plane names), as :func:`scenes.mobjects.heat_grid.edge_labels` takes them; else None."""
        if h != self.explained or self.named_arrows(h) is None:
            return None
        q = ac.followed_pair(self.trace, self.example, h).query
        rows = [(q, (self.q_tokens[q], self.q_color(q)))]
        cols = [(j, (self.k_tokens[j], self.k_color(j))) for j in self.named_keys(h)]
        return rows, cols

    def head_weights(self, h: int, pat_box: Box, titled: bool):
        """Head ``h``'s weights in ``pat_box`` with their title (the head's name in it when the
        panel has no title of its own), the explained head's drawn as squares with its followed
        rows and columns labelled at their edges where its squares stay readable: (title,
        matrix, edge labels)."""
        theme, edges = self.theme, VGroup()
        pattern, tokens = None, self.edge_tokens(h)
        if tokens is not None:
            left, above = edge_room(*tokens)
            inner = Box(pat_box.x0 + left, pat_box.y0, pat_box.x1, pat_box.y1 - above)
            pattern = self.weights_grid(h, inner)
            if getattr(pattern, "compact", False) and pattern.cell_size >= MIN_SQUARE:
                rows = [] if len(pattern.row_labels) else tokens[0]  # rows labelled: columns
                edges = edge_labels(pattern, rows, tokens[1])
            else:
                pattern = None
        if pattern is None:
            pattern = self.weights_grid(h, pat_box)
        words = self.say("weights")
        if not titled:
            words = self.head_name(h) + "  " + words
        p_title = label(words, SMALL, theme.muted)
        if p_title.width > pat_box.width:  # narrow: the head's name alone (the bar says weights)
            short = self.say("mh_weights")
            if not titled:
                short = self.head_name(h) + "  " + short
            p_title = label(short, SMALL, theme.muted)
        body = VGroup(pattern, edges)
        p_title.next_to(body, UP, buff=0.12).align_to(body, LEFT)
        place(VGroup(p_title, pattern, edges), pat_box, "top")
        return p_title, pattern, edges

    def weights_grid(self, h: int, box: Box, title_room: float = TITLE_ROOM):
        """Head ``h``'s weights in ``box`` (``title_room`` above them for their title): numbers
        where they fit, else squares."""
        ex = self.example
        return self.kit.grid(
            self.trace.heads[h].weights,
            ("weights", h),
            self.q_tokens,
            self.k_tokens,
            box,
            digits=2,
            heat="weights",
            scale="weights",
            colorbar=False,
            sizes=(25, 22),
            title_room=title_room,
            row_colors=[self.q_color(i) for i in range(ex.n)],
            col_colors=[self.k_color(j) for j in range(ex.n_keys)],
            cell_pad=COMPACT,
        )

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
