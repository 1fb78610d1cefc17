"""Overview: softmax(QKᵀ/√d_k)·V with each part lit while its step plays — the whole story in one
continuous video."""

from __future__ import annotations

import itertools

import numpy as np
from manim import DOWN, LEFT, Create, ReplacementTransform, TransformFromCopy, VGroup
from manim.mobject.text.typst_mobject import MathTypst

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.kit.drawing import CAST_REACH
from scenes.kit.views import plane_view_of
from scenes.mobjects.elision import elide
from scenes.mobjects.fades import FadeIn, FadeOut, morph
from scenes.mobjects.layout import Box, place
from scenes.mobjects.matrix import matrix_title
from scenes.mobjects.plane import CROWDED, CROWDED_TOKENS, grow
from scenes.mobjects.text import ellipsize, label
from scenes.mobjects.theme import BODY, SMALL
from scenes.mobjects.tip_room import leader_line
from scenes.parts.weighted_sum_chain import all_head, best_spot, own_tip

CROWDED_OUTPUTS = 5  # the outputs drawn at most among more than CROWDED tokens
NOTE_BESIDE = 1.9  # a panel this many times as wide as tall: the tokens' note beside the plane
NOTE_WIDTH = 3.0  # its column ("2-D view: keeps 82 %", "16 others, grey")
WHOLE_ASPECT = 1.4  # a frame at most this wide for its height (1:1, 4:3) is :attr:`whole`
VALUES_SHARE = 0.55  # a square frame's values plane at most this share of the body's width
CAST_TIP = 0.2  # among many tokens, the cast's arrowheads at most this long
NAMED_WEIGHT = 0.1  # among many, a value named v(…) where the followed query weighs it this much
NAMED_MOST = 3  # and at most this many named (the followed key's first)
NAMED_STROKE = 3.0  # a named value's arrow this thick (the others thin and grey)
VALUE_REACH = 0.7  # a named value's label, with no spot nearer, at most this far from its tip
SAME_TIP = 0.3  # an output's tip this near a named value's: the two arrows one (v(essay), o(it))
OUTPUT_NEAR = 0.15  # each o(…) touches its tip or is joined to it by a line (issue 32)
FORMULA = (
    # a lone letter in a {{ group }} would be set upright: an empty superscript keeps it italic
    '{{ "softmax" : sm }} ( ( {{ Q^"" : q }} {{ K^top : kt }} ) / '
    '{{ sqrt(d_k) : sc }} ) {{ V^"" : v }}'
)


class Overview(ExplainerScene):
    """One video through every step, the formula's parts lit in turn."""

    def construct(self):
        many = max(self.example.n, self.example.n_keys) > 8
        # a square or 4:3 frame among many tokens: the matrices take the whole body while the
        # tokens' plane is away (issue 38: at 1:1 beside it they showed 1 row × 2 columns; at
        # 4:3 the plane in its column was a pile of arrowheads), nearer the formula; the values'
        # step brings back the followed row beside the outputs' plane
        self.whole = many and self.frame.width <= self.frame.height * WHOLE_ASPECT
        top, body = self.regions.content.rows(1, 4, gap=0.1 if self.whole else 0.25)
        self.formula = MathTypst(FORMULA, font_size=48, color=self.theme.muted)
        place(self.formula, top)
        # a narrow frame has room for two panels: the outputs' plane then takes the tokens' place;
        # so does a wide one with many tokens, for the matrices' columns, or with long names
        wide = many or self.long_names(body)
        self.narrow = body.width < 2.4 * body.height or wide
        if self.narrow:
            left, mid = body.columns(1, 2.2 if wide else 1.6, gap=0.3)
            panels = [left, mid, left]
        else:
            panels = body.columns(1, 1.25, 1, gap=0.3)
        self.show_tokens(panels[0], body)
        groups = self.matrices(body if self.whole else self.clear_of_note(panels[1]), self.whole)
        # among many, the values' step takes the whole body: the plane at its left, the followed
        # row's weights beside it (issue 38: at 16:9 and 4:3 a 2-unit plane in the tokens'
        # column, its arrows 15 px long, the row's weights wide beside it)
        self.sided = many
        if self.sided:
            panels[2] = self.values_side(body)
        self.score(groups)
        self.mix_values(panels[2])

    def values_side(self, body: Box) -> Box:
        """A square frame's values step (issue 38: its plane 1.7 units high in a 3.9-unit body,
        beside a row of weights in twice its width): the plane a square as high as ``body`` at
        its left (returned), the followed row's weights at the top of the column beside it
        (``self.row_weights``), the plane's notes under them (``self.values_note_box``)."""
        # as wide as the drawn vectors' spread asks (a flat fan: a square box had left the
        # plane 1.9 units high in a 4.3-unit body at 16:9)
        span = np.ptp(np.vstack([self.values_fitted()[2], np.zeros((1, 2))]), axis=0) + 1e-9
        flat = span[0] / max(span[1], 0.25 * span.max())
        side = min(body.height * max(flat, 1.0), VALUES_SHARE * body.width)
        plane, rest = body.columns(side, body.width - 0.3 - side, gap=0.3)
        # its numbers printed, no colour key (at 1:1 the notes under it had no room)
        self.row_weights = self.matrices(rest, kinds=("weights",), key=False)
        below = Box(rest.x0, rest.y0, rest.x1, rest.y1 - 0.2)  # clear of the formula's d_k
        top = place(self.row_weights["weights"], below, "top").get_bottom()[1] - 0.25
        self.values_note_box = Box(rest.x0, rest.y0, rest.x1, top)
        return plane

    def long_names(self, body: Box) -> bool:
        """Whether the followed pair's names, never shortened, leave the matrices' middle
        column of three too narrow: one named flat beside its row, one over its column (a
        12-character label of the only token squeezed its squares' colour key to 0.3 units, its
        ticks on each other)."""
        widest = max(
            label(str(t), SMALL, self.theme.text).width for t in self.kit.followed_labels()
        )
        return 2 * widest + 1.0 > (body.width - 0.6) * 1.25 / 3.25

    def show_tokens(self, panel: Box, body: Box):
        """The formula, and the tokens in their plane (a 2-D view when d > 2): drawn first in
        the whole ``body`` (issue 38: at 1:1 a corner of it, the rest empty until the scores
        came), set in ``panel`` as the scores come (:meth:`set_tokens_aside`)."""
        self.tokens_panel = self.tokens_in(panel)
        self.first_tokens = self.tokens_in(body)
        x_plane, x_arrows, x_labels, x_note = self.first_tokens
        self.step("formula")
        self.play(
            FadeIn(self.formula),
            Create(x_plane),
            *(grow(a) for a in x_arrows),
            FadeIn(x_labels),
            FadeIn(x_note),
            run_time=1.5,
        )
        self.hold()

    def set_tokens_aside(self) -> list:
        """The animations that take the first step's tokens out of the matrices' way: away
        where the matrices take the whole body, else shrunk into their panel."""
        if self.whole:
            return [FadeOut(self.first_tokens)]
        pairs = zip(self.first_tokens, self.tokens_panel)
        return [ReplacementTransform(a, b) for a, b in pairs]

    def tokens_in(self, panel: Box) -> VGroup:
        """The tokens' plane, arrows, labels and note in ``panel``: the note under the plane,
        or in a wide panel (the first step's body at 16:9 and 4:3) at its foot, left of the
        plane, which then has the panel's whole height."""
        theme = self.theme
        x_view = plane_view_of(self.trace, "X")
        order, crowded = self.story_inputs(), self.example.n > CROWDED
        # among many, under the plane: the view note, the others counted, a key to the cast
        # (a square frame among many: beside it or under it, whichever draws the plane larger:
        # trophy's flat fan of 24 arrows as wide as the frame, no knot of heads)
        beside = panel.width > NOTE_BESIDE * panel.height
        keyed = crowded and (self.whole or not beside)  # a key under the plane is weighed
        under = min(self.note_room(panel.width), 0.45 * panel.height) if keyed else 0.0
        if crowded and beside and self.whole:
            span = np.ptp(np.vstack([x_view.coords, np.zeros((1, 2))]), axis=0) + 1e-9
            wide = min((panel.width - NOTE_WIDTH - 0.2) / span[0], panel.height / span[1])
            beside = wide >= min(panel.width / span[0], (panel.height - 0.1 - under) / span[1])
        if crowded and not beside:
            x_plane_box, x_note_box = panel.rows(panel.height - 0.1 - under, under, gap=0.1)
        else:
            x_plane_box, x_note_box = panel.rows(*((4, 1) if crowded else (9, 1)), gap=0.1)
        if beside:  # the column left of the plane, the note at its foot (a key above it)
            top = panel.y1 if crowded else x_note_box.y1
            x_note_box = Box(panel.x0, panel.y0, panel.x0 + NOTE_WIDTH, top)
            x_plane_box = Box(x_note_box.x1 + 0.2, panel.y0, panel.x1, panel.y1)
        x_plane = self.kit.plane(x_view.coords, x_plane_box, ticks=False)
        q_colors = [self.q_color(i) for i in range(self.example.n)]
        # the view note, else the plane's name: where a line says how many are not drawn, it
        # goes under it (the name at the right had overlapped that line)
        x_note = self.kit.view_note(x_view, "X")
        if x_note.width > x_note_box.width:  # a narrow column: its short form, clear of the
            x_note = self.kit.view_note(x_view, "X", short=True)  # matrices beside it
        if not len(x_note):
            x_note = VGroup(label(self.say("embeddings"), SMALL, theme.muted))
        align = "bottom-left" if beside and crowded else "left"
        place(x_note, x_note_box, align)
        # clear of the note and the formula above; among many, the cast in colour, labelled at
        # their tips or named in a key under the note (issue 38: two of the eight in colour,
        # the others grey), the others thin and grey
        args = (x_plane, x_view.coords, self.q_tokens, q_colors)
        kw = dict(bounds=x_plane_box, align=align, obstacles=[self.formula])
        if crowded:  # slim, small heads: eight cast heads had piled up (issue 38, 16:9)
            kw.update(stroke_width=3, tip=CAST_TIP)
            _, x_arrows, grey, x_labels, x_note = self.keyed_cast(*args, x_note, x_note_box, **kw)
            x_arrows = VGroup(*grey, *x_arrows)
        else:
            _, x_arrows, x_labels, x_note = self.kit.story_arrows(
                *args, order, x_note, x_note_box, **kw
            )
        return VGroup(x_plane.plane, x_arrows, x_labels, x_note)

    def note_room(self, width: float) -> float:
        """The height under a plane of many tokens ``width`` wide for its note: the view note
        and the count of the others (two lines), and a key to the cast's colours
        (:meth:`Kit.cast_key`) where their labels find no room at their tips."""
        texts = [self.q_tokens[i] for i in self.cast]
        key = self.kit.cast_key(texts, [self.q_color(i) for i in self.cast], Box(0, 0, width, 1))
        return 0.6 + 0.08 + key.height

    def keyed_cast(self, plane, coords, texts, colors, note, box: Box, **kw):
        """:meth:`Kit.cast_arrows` of the cast, each in its colour: labelled at its own tip
        where every one finds a spot there, never two labels merged (issue 38: one label per
        arrow), else named in a key under ``note``."""
        out = self.kit.cast_arrows(plane, coords, texts, colors, self.cast, note, box, **kw)
        if not any(getattr(m, "tip_parts", None) for m in out[3].get_family()):
            return out
        keep, arrows, grey, _, note = out  # labels merged: the cast named in a key
        order = [i for i in self.cast if i in keep]
        key = self.kit.cast_key([texts[i] for i in order], [colors[i] for i in order], box)
        for arrow in arrows:
            arrow.wants_label, arrow.in_key = False, True
        both = VGroup(*([note] if len(note) else []), key)
        both.arrange(DOWN, aligned_edge=LEFT, buff=0.08)
        align = kw.get("align", "left")
        place(both, box, align if both.height <= box.height else "bottom-left")
        return keep, arrows, grey, key, note

    def unmerged(self, plane, coords, texts, colors, cast, *args, **kw):
        """:meth:`Kit.cast_arrows` with one label to each arrow: where tips close together
        would share one ("the₁, that₁, it" in the first step's large plane), the cast cut from
        its end until none do (issue 38: one label per arrow, never merged)."""
        tips, shafts = list(plane.tips), list(plane.shafts)
        for count in range(len(cast), 0, -1):
            plane.tips[:], plane.shafts[:] = tips, shafts
            out = self.kit.cast_arrows(plane, coords, texts, colors, cast[:count], *args, **kw)
            if not any(getattr(m, "tip_parts", None) for m in out[3].get_family()):
                break
        return out

    def clear_of_note(self, panel: Box) -> Box:
        """``panel`` less what the tokens' view note reaches into (a narrow frame): the matrices'
        row labels, kept whole, stay clear of it."""
        note = self.tokens_panel[3]
        edge = note.get_right()[0] + 0.2 if len(note) else panel.x0
        return panel if edge <= panel.x0 else Box(edge, panel.y0, panel.x1, panel.y1)

    def matrices(
        self, panel, cast=False, kinds=("scores", "scaled", "masked", "weights"), key=True
    ) -> dict:
        """The scores, scaled, masked and weight matrices (``kinds`` of them), each titled, all
        in ``panel``; among many tokens the followed row and its keys (:meth:`followed_row`),
        with the ``cast``'s rows as many as ``panel`` holds (the whole body, :attr:`whole`);
        without ``key``, the weights' colour key left out (their numbers are printed)."""
        head, theme, ex = self.head, self.theme, self.example
        followed = self.followed_query().row  # the query the scenes follow, and where its
        kw = dict(  # weight goes: never elided (its 0.985 had been, its row reading 0.00 …)
            row_colors=[self.q_color(i) for i in range(ex.n)],
            col_colors=[self.k_color(j) for j in range(ex.n_keys)],
            any_squares=True,  # too many cells for numbers: scores as squares too (area |s|)
            keep_rows=[followed],
            # and the largest weight of each row an elided matrix keeps (the first, the last):
            # a review saw tree₂'s row read 0.03 … 0.00, its 0.94 hidden
            keep_cols=list(
                dict.fromkeys(
                    [self.followed_key(followed)]
                    + [int(np.argmax(head.weights[i])) for i in (0, ex.n - 1)]
                )
            ),
            key_row=False,  # no room for one more row's largest weight
            # elided, the columns named (upright) where they fit: the outputs' plane, among
            # many, labels too few outputs to name the followed key on the last still
            name_columns=True,
        )

        many = max(ex.n, ex.n_keys) > 8
        rows, cols = self.matrix_names(followed, many)
        more = [i for i in self.cast if i != followed] if cast else []

        def fitted(values, role, digits, **extra):
            if many:  # the followed query's row (and the cast's), its keys named flat
                return self.followed_row(
                    values, role, rows, cols, panel, digits, more_rows=more, **extra, **kw
                )
            return self.kit.matrix_most(
                values, role, rows, cols, panel, digits=digits, **extra, **kw
            )

        made = {
            "scores": lambda: fitted(head.scores, ("scores", self.h), (2, 1)),
            "scaled": lambda: fitted(head.scaled, ("scaled", self.h), (2, 1)),
            "masked": lambda: fitted(head.masked, ("masked", self.h), (2, 1)),
            "weights": lambda: fitted(
                head.weights, ("weights", self.h), (3, 2), heat=True, colorbar=key
            ),
        }
        mats = {k: made[k]() for k in kinds}
        titles = {k: k for k in mats}
        return {
            k: place(
                VGroup(matrix_title(self.typeset(titles[k], SMALL, theme.muted), m, theme), m),
                panel,
            )
            for k, m in mats.items()
        }

    def matrix_names(self, followed: int, many: bool) -> tuple[list, list]:
        """The matrices' row and column names: among ``many`` tokens long labels shortened (a
        column more of numbers), never the followed pair's nor the cast's, as a row nor as a
        column (the masked step's blocked column is the followed query's own at-the-limits,
        once 'e…ns')."""
        rows, cols = self.q_tokens, self.k_tokens
        if not many:
            return rows, cols
        whole = {rows[followed], cols[self.followed_key(followed)]}
        if len(self.cast) < self.example.n:  # nor the cast's (issue 38: never shortened)
            whole |= {rows[i] for i in self.cast} | {cols[j] for j in self.cast}
        return tuple(
            [t if t in whole else ellipsize(t, 1.0, SMALL) for t in ts] for ts in (rows, cols)
        )

    def followed_row(self, values, role, rows, cols, panel: Box, digits, more_rows=(), **kw):
        """Among many tokens (issue 38: at 1:1 a 2 × 2 corner with upright names): the followed
        query's row alone (a ⋮ beside it), as many of its keys as ``panel``'s width holds — the
        followed key and the keys it weighs most first — named flat in two tiers, at the first
        of ``digits`` that shows the most columns. Masked scores keep a −∞ (the caption names
        them): the followed row's, else a row the mask blocks somewhere, shown too; then
        ``more_rows`` (the cast's), as many as ``panel``'s height holds."""
        followed = self.followed_query().row
        top = [int(j) for j in np.argsort(-self.head.weights[followed], kind="stable")]
        blocked = ~np.isfinite(np.asarray(values, dtype=float))
        extra = [] if blocked[followed].any() else [int(i) for i in np.flatnonzero(blocked.any(1))]
        row = extra[0] if extra else followed
        # its last blocked key: a causal row's is the last column, one slot fewer (the first had
        # no room beside the followed key at 1:1, a reviewer saw no −∞ under "blocked cells are −∞")
        cut = [int(j) for j in np.flatnonzero(blocked[row])][-1:]
        keep = list(dict.fromkeys([*kw.pop("keep_cols", ())[:1], *cut, *top]))
        for unused in ("name_columns", "any_squares", "key_row"):
            kw.pop(unused, None)
        best = made = None
        header = 0.45 + (0.6 if kw.get("heat") else 0.0)  # names, and the colour key
        for d in digits:
            probe = self.kit.matrix_at(
                values[[followed]], role, rows[:1], cols, size=SMALL, digits=d
            )
            # the row (and the blocked one) and a ⋮; with more rows, as many as the panel holds
            rows_room = (2.5 + len(extra[:1])) * probe.backgrounds[0].height
            for k in range(len(more_rows), -1, -1):
                kw["keep_rows"] = list(dict.fromkeys([followed, *extra[:1], *more_rows[:k]]))
                room = panel.height - 0.45 if k else rows_room + header
                m = self.kit.matrix_at(
                    values,
                    role,
                    rows,
                    cols,
                    size=SMALL,
                    digits=d,
                    tiers=2,
                    keep_cols=keep,
                    max_width=panel.width,
                    max_height=room,
                    last_column=False,
                    **kw,
                )
                kept = set(kw["keep_rows"]) <= set(m.shown_rows)
                if not k or kept and m.height + 0.45 <= panel.height:  # its title above it
                    break
            if best is None or len(m.shown_columns) > len(best.shown_columns):
                best, made = m, dict(kw, digits=d, max_height=room)

        def rebuild(keep_cols, row_labels):
            return self.kit.matrix_at(
                values,
                role,
                row_labels,
                cols,
                size=SMALL,
                tiers=2,
                keep_cols=keep_cols,
                max_width=panel.width,
                last_column=False,
                **made,
            )

        return self.cast_columns(best, rows, keep, 1 + len(cut), rebuild)

    def cast_columns(self, best, rows, keep, must: int, rebuild):
        """``best`` with the room it has used (issue 38: at 4:3 the followed row "she" kept
        The, old (0.002) and girl in 290 of 640 px, the cast's the (0.091) dropped): its row
        labels as narrow as its shown rows' (an elided "because" had widened them), and of
        the cast's columns those whose weights in the followed row sum the most, found among
        the elisions (:func:`elide`) of the slots it has, the first ``must`` of ``keep`` (the
        followed key, a blocked one) always."""
        if self.example.is_cross:
            return best
        followed, shown = self.followed_query().row, set(best.shown_rows)
        narrow = [t if i in shown else rows[followed] for i, t in enumerate(rows)]
        m = rebuild(keep, narrow)
        if set(m.shown_rows) != shown or len(m.shown_columns) < len(best.shown_columns):
            m, narrow = best, rows
        w = self.head.weights[followed]
        n = len(w)
        seqs = {s: elide(n, s, 1.0, keep, last=False) for s in range(2, n + 1)}
        fits = [s for s, q in seqs.items() if [j for j in q if j is not None] == m.shown_columns]
        if not fits:
            return m
        slots, head = max(fits), keep[:must]
        others = [j for j in self.cast if j not in head and 0 <= j < n]
        score, order = float(w[m.shown_columns].sum()), None
        for r in range(len(others), 0, -1):
            for chosen in itertools.combinations(others, r):
                seq = elide(n, slots, 1.0, [*head, *chosen], last=False)
                got = [j for j in seq if j is not None]
                if set(head) | set(chosen) <= set(got) and w[got].sum() > score + 1e-9:
                    score, order = float(w[got].sum()), [*head, *chosen]
        if order is None:
            return m
        again = rebuild(list(dict.fromkeys([*order, *keep])), narrow)
        return again if w[again.shown_columns].sum() > w[m.shown_columns].sum() else m

    def score(self, groups) -> None:
        """QKᵀ, ÷√d_k, the mask where there is one, softmax: each part lit in turn."""
        formula = self.formula
        self.step("qk")
        self.light(formula, "q", "kt")
        self.play(*self.set_tokens_aside(), FadeIn(groups["scores"]), run_time=1)
        self.hold()

        self.step("scale")
        self.light(formula, "sc")
        self.play(*self.morph(groups["scores"], groups["scaled"]), run_time=1)
        before_softmax = groups["scaled"]
        if ac.mask_claim(self.head.mask).kind == "blocks":  # before softmax: −∞ where blocked
            self.step("masked_note")
            self.play(formula.animate.set_color(self.theme.muted), run_time=0.3)
            self.play(*self.morph(groups["scaled"], groups["masked"]), run_time=1)
            before_softmax = groups["masked"]

        does = self.head_does(self.followed_query())  # a trained or asked head: what it does
        self.step("softmax", "softmax_story" if does else None, does=does)
        self.light(formula, "sm")
        self.play(*self.morph(before_softmax, groups["weights"]), run_time=1)
        self.weights_shown = groups["weights"]
        self.hold()

    @staticmethod
    def morph(a, b) -> list:
        """One matrix (title + matrix) turning into the next; an elided matrix of a real model's
        head (rows or columns left out, shaded squares against plain numbers) cannot be aligned
        piece by piece, so it cross-fades."""
        if len(getattr(a[1], "ellipses", ())) or len(getattr(b[1], "ellipses", ())):
            return [FadeOut(a), FadeIn(b)]
        return morph(a, b)

    def mix_values(self, panel) -> None:
        """·V: each output gathered from the values it mixes, in the values' plane."""
        head, ex = self.head, self.example
        self.step("values")
        self.light(self.formula, "v")
        crowded = ex.n > CROWDED
        if self.sided:  # the followed row's weights make room for the outputs' plane
            aside = [] if self.whole else [FadeOut(self.tokens_panel)]
            self.play(FadeOut(self.weights_shown), FadeIn(self.row_weights["weights"]), *aside)
        elif self.narrow:
            self.play(FadeOut(self.tokens_panel))
        out_view = plane_view_of(self.trace, "values_outputs")
        values, B, fitted = self.values_fitted()
        # under the plane: the faint arrows' key, the view note, what is not drawn (a line kept
        # for it: where not every output finds a label, some are not drawn at any size)
        lines = 2 + (not out_view.exact)
        if self.sided:  # the plane the whole panel, its notes beside it under the weights
            o_plane_box, room = panel, self.values_note_box
            o_note_box = room  # all the room under the weights (its 0.9 top let the notes
            # grow up into their colour key at 1:1)
        else:
            o_plane_box, o_note_box = panel.rows(
                panel.height - 0.3 * lines - 0.1, 0.3 * lines, gap=0.1
            )
        # (among many, padded more: room at the outputs' tips for their labels)
        o_plane = self.kit.plane(fitted, o_plane_box, ticks=False, pad=0.35 if crowded else 0.18)
        # every output drawn alike (white): a label touches its tip or has a line to it (a
        # review: o(blue₂) 0.31 from its tip, nearer another white arrow's)
        o_plane.near = OUTPUT_NEAR
        v_arrows = self.value_arrows(o_plane, B, sorted(values), crowded)
        self.values_drawn = VGroup(*v_arrows)  # (tests/room_checks.py: the arrows' size)
        o_note = self.values_note(out_view, o_note_box, len(values), crowded)
        o_arrows, o_labels, o_note = self.output_arrows(
            o_plane, head.output @ B, v_arrows, o_note, o_note_box, o_plane_box
        )
        if crowded:  # the cast's values named (a review: coloured arrows with no name)
            where = (o_plane_box, [self.formula, *o_labels, *o_note])
            v_labels = self.value_labels(o_plane, sorted(values), v_arrows, o_arrows, where)
            v_arrows = VGroup(*v_arrows, v_labels)
        self.play(Create(o_plane.plane), FadeIn(v_arrows), FadeIn(o_note), run_time=0.8)
        # each output gathers from copies of the values; the drawn arrows, where their labels
        # were placed, replace them (a Transform from twelve arrows left an output's arrowhead
        # 0.2 away from its label's leader line)
        gathering = [a.copy() for a in o_arrows]
        self.play(
            *(TransformFromCopy(v_arrows, g) for g in gathering), FadeIn(o_labels), run_time=1.6
        )
        self.remove(*gathering)
        self.add(o_arrows)
        self.hold(1.8)

    def values_fitted(self) -> tuple:
        """The values drawn, the values' plane's basis, and the 2-D points its plane is fitted
        to: among many, the values the followed query weighs most (24 faint arrows were a
        thicket) and the outputs it may draw (not the 16 others, which had shrunk the drawn
        arrows into a corner of it); else every value and output."""
        head, ex = self.head, self.example
        B = plane_view_of(self.trace, "values_outputs").basis
        crowded = ex.n > CROWDED
        values = self.story_tokens("keys")[:CROWDED_TOKENS] if crowded else range(ex.n_keys)
        outputs = self.output_cast() if crowded else list(range(ex.n))
        return values, B, np.vstack([head.V[list(values)] @ B, head.output[outputs] @ B])

    def value_arrows(self, o_plane, B, values: list, crowded: bool) -> VGroup:
        """The ``values``' arrows in their colours, faint; among many (``crowded``) thin, with
        small heads (the outputs' labels find room at their tips): the named values'
        (:meth:`named_values`) in their colours, a short one all head (:func:`all_head`: v(When)
        was a stub under the others' tails), the others grey (issue 38: coloured arrows with no
        name)."""
        V = self.head.V
        if not crowded:
            return VGroup(*(o_plane.arrow(V[j] @ B, self.k_color(j), opacity=0.35) for j in values))
        named = self.named_values(values)
        return VGroup(
            *(
                all_head(o_plane, V[j] @ B, self.k_color(j), NAMED_STROKE)
                if j in named
                else self.kit.thin_arrow(o_plane, V[j] @ B)
                for j in values
            )
        )

    def named_values(self, values) -> list[int]:
        """Among many, the values named v(token) in their colours: the followed pair's key, then
        the keys the followed query weighs at least :data:`NAMED_WEIGHT` (its output is mostly
        theirs), :data:`NAMED_MOST` at most, among the ``values`` drawn."""
        head, followed = self.head, self.followed_query().row
        w = head.weights[followed]
        first = self.followed_key(followed)
        by_weight = [int(j) for j in np.argsort(-w, kind="stable") if w[j] >= NAMED_WEIGHT]
        named = [j for j in dict.fromkeys([first, *by_weight]) if j in list(values)]
        return named[:NAMED_MOST]

    def value_labels(self, o_plane, values: list, v_arrows, o_arrows, where) -> VGroup:
        """The labels v(token) of the named values (:meth:`named_values`, drawn among
        ``v_arrows``), whole, in their colours, each beside its own tip, nearer it than any
        other arrow, clear of the other arrows' heads (the outputs' ``o_arrows`` among them:
        their triangles, :func:`head_marks`) and of every label (``where``: the bounds
        and what they keep clear of, the outputs' labels among it; the labels placed before it);
        issue 38, a review of he → farmer: at 1:1 every one was dropped, and at 16:9 v(When) sat
        far from its stub. Where one finds no such spot, in the small type; then, where an
        output's tip is within :data:`SAME_TIP` of its own (it → essay: o(it) ≈ 0.94 v(essay),
        the two arrows one), nearer its own tip than the others but that output, its colour
        telling it from the white output's o(…); then farther (:data:`VALUE_REACH`)."""
        from scenes.mobjects.layout import box_of
        from scenes.mobjects.plane import shaft_marks
        from scenes.parts.head_moved_labels import head_marks

        bounds, obstacles = where
        named = self.named_values(values)
        arrows = [(np.asarray(a.get_start())[:2], np.asarray(a.get_end())[:2]) for a in v_arrows]
        outs = [(np.asarray(a)[:2], np.asarray(b)[:2]) for a, b in o_plane.shafts]
        # every label stays an obstacle, even one over this value's tip (o(it) printed over
        # v(essay) where the obstacles over the tip were dropped with its own head)
        labels = [box_of(m) for m in obstacles]
        placed = []
        for j in named:
            k = list(values).index(j)
            tip = arrows[k][1]
            at_tip = Box(*tip, *tip)
            # clear of the other arrows' heads; of their shafts but where one crosses its tip
            lines = [e for n, e in enumerate([*arrows, *outs]) if n != k]
            heads = head_marks([a for n, a in enumerate([*v_arrows, o_arrows]) if n != k])
            marks = [m for m in shaft_marks(lines, half=0.04) if not m.contains(at_tip, tol=1e-6)]
            mine = [*heads, *marks, *labels, *(box_of(m) for m in placed)]
            # nearer its tip than a named value's or an output's (a grey one it keeps off)
            coloured = [e for n, e in enumerate(arrows) if n != k and values[n] in named]
            apart = [e for e in outs if np.hypot(*(e[1] - tip)) > SAME_TIP]
            tries = (
                (BODY, CAST_REACH, outs),
                (SMALL, CAST_REACH, outs),
                (SMALL, CAST_REACH, apart),
                (SMALL, VALUE_REACH, outs),
            )
            for size, reach, near in tries:
                mob = label(f"v({self.k_tokens[j]})", size, self.k_color(j))
                spot = best_spot(mob, tip, [*coloured, *near], mine, bounds, reach)
                if spot is not None:
                    mob.move_to(np.array([*spot, 0.0]))
                    own_tip(mob, tip)
                    placed.append(mob)
                    # farther than a label by its tip: a line of its colour to it
                    line = leader_line(box_of(mob), [*tip, 0.0], mob, CAST_REACH)
                    placed += [line] if line is not None else []
                    break
        return VGroup(*placed)

    def output_arrows(self, o_plane, coords, v_arrows, o_note, o_note_box, o_plane_box):
        """The outputs in their own style, each labelled o(token) (no token's colour on a
        derived vector); among many, the followed query's output and a few more, as many as are
        labelled at their tips (white arrows all alike: no key can name them), the others not
        drawn (at 1:1, white arrows and their leaders were a knot; grey, the 20-odd outputs'
        heads in one clump left no room at any tip). Returns (arrows, labels, note)."""
        ex = self.example
        args = (o_plane, coords, [f"o({t})" for t in self.q_tokens], [self.theme.output] * ex.n)
        kw = dict(bounds=o_plane_box, align="left", obstacles=[self.formula], stroke_width=4)
        if ex.n <= CROWDED:
            _, arrows, labels, note = self.kit.story_arrows(
                *args, self.story_tokens("queries"), o_note, o_note_box, **kw
            )
            return arrows, labels, note
        _, arrows, _, labels, note = self.unmerged(
            *args,
            self.output_cast(),
            o_note,
            o_note_box,
            key=False,
            grey=False,
            count_key="outputs_not_drawn",  # of the outputs (the values are counted above)
            marks=v_arrows,
            tip=CAST_TIP,  # heads no longer than the thin values' (o(he)'s had dwarfed them)
            **kw,
        )
        return arrows, labels, note

    def output_cast(self) -> list[int]:
        """Among many, the outputs that may be drawn: the followed pair's query first, then its
        key's, then the story's queries, :data:`CROWDED_OUTPUTS` at most."""
        pair = ac.followed_pair(self.trace)
        cast = list(dict.fromkeys([pair.query, pair.key, *self.story_tokens("queries")]))
        return cast[:CROWDED_OUTPUTS]

    def values_note(self, out_view, box: Box, drawn: int, crowded: bool = False) -> VGroup:
        """Under the values' plane, in ``box``: the faint arrows' key (a review: coloured arrows
        with no label), how many of the values are ``drawn`` where not all (among many, those
        grey: the named ones are in colour), above the view note."""
        n, ink = self.example.n_keys, self.theme.muted
        if crowded:
            grey = drawn - len(self.named_values(self.values_fitted()[0]))
            key = label(self.say("values_grey_some", k=grey, n=n), SMALL, ink)
        else:
            key = label(self.say("values_faint_some", k=drawn, n=n), SMALL, ink)
        if drawn >= n or key.width > box.width:  # all drawn, or no room to count them
            short = "values_grey" if crowded and drawn < n else "values_faint"
            key = label(self.say(short), SMALL, ink)
        view = self.kit.view_note(out_view, "values_outputs")
        note = VGroup(key, view).arrange(DOWN, aligned_edge=LEFT, buff=0.04) if len(view) else key
        return place(note, box, "left" if note.height <= box.height else "bottom-left")

    def light(self, formula: MathTypst, *parts: str):
        """Dim the whole formula, then light ``parts`` in the accent colour."""
        self.play(formula.animate.set_color(self.theme.muted), run_time=0.2)
        self.play(
            *(formula.select(p).animate.set_color(self.theme.accent) for p in parts), run_time=0.5
        )

    def followed_key(self, followed: int) -> int:
        """The key the followed query's pair names (attention_core.followed_pair), else the one
        it weighs most."""
        pair = ac.followed_pair(self.trace)
        return pair.key if pair.query == followed else int(np.argmax(self.head.weights[followed]))
