"""The kit a scene draws with: planes, matrices, colour bars, proportion bars and labels, each
built in the scene's look (its theme; its language for the words a piece carries).

Every scene reaches these through ``self.kit`` (an :class:`ExplainerScene` makes one), never by
calling the drawing classes of ``scenes/mobjects`` itself: an option of the look that changes how
a kind of piece is drawn (say, a plane's grid) is read here, in one place, and so reaches every
piece of that kind in every scene (``tests/test_kit.py`` holds the scene modules to this).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from manim import DOWN, LEFT, VGroup

from scenes.mobjects.layout import RADII, Box, place
from scenes.mobjects.text import label
from scenes.mobjects.theme import SMALL

if TYPE_CHECKING:
    import numpy as np
    from manim import Arrow, ManimColor, Mobject, Scene, Text
    from numpy.typing import ArrayLike

    import attention_core as ac
    from scenes.kit.look import Look
    from scenes.mobjects.bars import ProportionBar
    from scenes.mobjects.matrix import ColorBar, LabelledMatrix
    from scenes.mobjects.plane import VectorPlane
    from scenes.mobjects.theme import Theme

    Color = ManimColor | str

# matrices of the explained head's queries × keys: each keeps the followed pair's row and column
QUERY_KEY_ROLES = ("scores", "scaled", "masked", "weights")
CAST_REACH = 0.4  # a cast label is looked for at most this far from its tip (Kit.cast_arrows)
CAST_MERGE = (0.0, 0.15, 0.3, 0.5)  # tips closer than this share one stack of labels, in turn


class Kit:
    """The drawing pieces of one scene, in its look (``scene.look``, ``scene.theme``)."""

    def __init__(self, scene: Scene) -> None:  # an ExplainerScene (base.py imports this module)
        self.scene = scene

    @property
    def theme(self) -> Theme:
        return self.scene.theme

    @property
    def look(self) -> Look:
        """The render's look (:class:`scenes.kit.look.Look`): what an option of how a kind of
        piece is drawn is read from, in that piece's method here."""
        return self.scene.look

    # -- planes ------------------------------------------------------------------------------------
    def plane(self, points: np.ndarray | ac.PlaneView, box: Box, **options: Any) -> VectorPlane:
        """The coordinate plane for ``points`` (an array of 2-D coordinates, or a view with
        ``coords``) inside ``box``. ``options`` are :class:`VectorPlane`'s own (pad, ticks,
        grid_opacity, maps)."""
        from scenes.mobjects.plane import VectorPlane

        coords = getattr(points, "coords", points)
        plane = VectorPlane(coords, box, self.theme, **options)
        plane.whole = self.followed_labels()  # never shortened on it (issue 38)
        return plane

    def followed_labels(self) -> tuple[str, ...]:
        """The followed query's and key's labels as the scene shows them (each piece of a key
        word cut into pieces too): shown whole wherever they are drawn, never with "…"."""
        import attention_core as ac

        scene = self.scene
        if not hasattr(self, "_followed"):
            self._followed = ac.followed_pair(scene.trace)
        pair = self._followed
        keys = [scene.k_tokens[j] for j in (pair.key, *pair.pieces)]
        return tuple(dict.fromkeys([scene.q_tokens[pair.query], *keys]))

    def view_note(
        self, view: ac.PlaneView, which: str, short: bool = False, key: str | None = None
    ) -> VGroup:
        """The plane's '2-D view: keeps 87 %' note in the scene's language (empty when exact);
        ``short``: '2-D: keeps 87 %' (a narrow column's); ``key``: a scene's own words for it
        (HeadMoved's '2-D: E, ΔE exact; terms keep 87 %'), with ``{kept}``."""
        from scenes.mobjects.plane import VectorPlane

        key = key or ("view_kept_short" if short else "view_kept")
        note = self.scene.say(key, kept="{kept}")
        return VectorPlane.view_note(view, which, note, self.theme)

    def not_drawn(
        self, drawn: Sequence[int], total: int, width: float, short: bool = False
    ) -> VGroup:
        """'16 others not drawn' (:meth:`VectorPlane.story_arrows` drew ``drawn`` of ``total``;
        ``short``: '16 not drawn', a narrow column's) in the muted small type, on two lines where
        ``width`` is narrow; empty when all are drawn."""
        from scenes.mobjects.text import balanced_lines

        left = total - len(drawn)
        if left <= 0:
            return VGroup()
        key = "not_drawn_short" if short else "not_drawn" if left > 1 else "not_drawn_one"
        words = self.scene.say(key, n=left)
        lines = balanced_lines(words, width, SMALL, max_lines=2)
        return VGroup(*(label(t, SMALL, self.theme.muted) for t in lines)).arrange(
            DOWN, aligned_edge=LEFT, buff=0.04
        )

    def story_arrows(
        self,
        plane: VectorPlane,
        coords: np.ndarray,
        texts: Sequence[str],
        colors: Sequence[Color],
        order: Sequence[int],
        note: VGroup,
        note_box: Box,
        align: str = "center",
        **kw: Any,
    ) -> tuple:
        """``plane``'s token arrows, each labelled (:meth:`VectorPlane.story_arrows`: where not
        every one finds a label, the first of ``order``, the followed token and its strongest
        keys, the rest not drawn), and ``note`` (the plane's note, placed in ``note_box``) with a
        line under it saying how many are not drawn; the labels keep clear of the note as it
        ends (placed by ``align``, as :func:`place`). ``kw``: the plane's (``obstacles``,
        ``merge``, ``outline`` …; ``most``: at most this many drawn; ``short``: the line in its
        short form, :meth:`not_drawn`). Returns (the indices drawn, the arrows, the labels, the
        note)."""
        tips, shafts = list(plane.tips), list(plane.shafts)
        obstacles, short = list(kw.pop("obstacles", ())), kw.pop("short", False)
        bounds, most = kw.pop("bounds"), kw.pop("most", None)
        drawn, arrows, labels = plane.story_arrows(
            coords, texts, colors, order, bounds, [*obstacles, *note], most, **kw
        )
        plain = note
        for _ in range(3):  # the count the line says is the count drawn clear of the line
            left_out = self.not_drawn(drawn, len(texts), note_box.width, short)
            if not len(left_out):
                return drawn, arrows, labels, note
            if len(plain):
                note = VGroup(plain, left_out).arrange(DOWN, aligned_edge=LEFT, buff=0.04)
            else:
                note = left_out
            # taller than its box (a narrow column): it grows up from the box's foot, into the
            # plane's room, where the labels keep clear of it
            place(note, note_box, align if note.height <= note_box.height else f"bottom-{align}")
            plane.tips[:], plane.shafts[:] = tips, shafts  # again, clear of the longer note
            said = len(drawn)
            drawn, arrows, labels = plane.story_arrows(
                coords, texts, colors, order, bounds, [*obstacles, *note], said, **kw
            )
            if len(drawn) == said:
                break
        return drawn, arrows, labels, note

    def cast_arrows(
        self,
        plane: VectorPlane,
        coords: np.ndarray,
        texts: Sequence[str],
        colors: Sequence[Color],
        cast: Sequence[int],
        note: VGroup,
        note_box: Box,
        **kw: Any,
    ) -> tuple:
        """Every token an arrow of ``plane`` (issue 38, at 20-odd tokens: labels knotted, or sat
        at another arrow's tip): the ``cast`` (the story's few, in its order:
        :func:`attention_core.story_cast`) in ``colors``, each labelled whole at its own tip —
        tips too close for two labels share one ("said, she"), no label looked for farther than
        :data:`CAST_REACH` from its tip — and every other token a thin grey arrow, unlabelled,
        no label on it, counted on a line under ``note`` ("15 others, grey"; ``grey=False``:
        not drawn, "15 others not drawn"), placed in ``note_box`` (``align``, as :func:`place`).
        Where the tips leave no room for every label: with ``key`` (the default) the cast is
        named in a key under the note (an arrow and its label in its colour), never by leader
        lines; without (white outputs, all alike), the cast is cut from its end, down to
        ``least`` (default 1), until every label finds its tip (the rest grey), leader lines
        only past that. ``kw``: ``bounds``, ``obstacles``, ``marks`` (thin arrows drawn
        elsewhere, kept clear like the grey), the arrows' ``stroke_width``, ``tip`` and
        ``outline``, the rest the labels' (:meth:`VectorPlane.tip_labels`). Returns (the
        indices drawn in colour, ascending; their arrows; the grey arrows; the labels, or the
        key; the note)."""
        import numpy as np

        coords, align = np.asarray(coords, dtype=float), kw.pop("align", "center")
        bounds, obstacles = kw.pop("bounds"), list(kw.pop("obstacles", ()))
        style = {k: kw.pop(k) for k in ("outline", "stroke_width", "tip") if k in kw}
        with_key, faint = kw.pop("key", True), list(kw.pop("marks", ()))
        drawn_grey, count_key = kw.pop("grey", True), kw.pop("count_key", None)
        cast = [int(i) for i in dict.fromkeys(cast) if 0 <= i < len(coords)]
        tips, shafts, plain = list(plane.tips), list(plane.shafts), note
        least = min(kw.pop("least", 1), len(cast))  # without a key, at least this many
        for count in [len(cast)] if with_key else range(len(cast), max(least, 1) - 1, -1):
            plane.tips[:], plane.shafts[:] = tips, shafts
            keep = sorted(cast[:count])
            others = [i for i in range(len(coords)) if i not in keep]
            grey = VGroup(*(self.thin_arrow(plane, coords[i]) for i in others if drawn_grey))
            note = self._grey_count(plain, len(others), note_box, align, drawn_grey, count_key)
            arrows = plane.arrows(coords[keep], [colors[i] for i in keep], **style)
            marks = self.thin_marks([*grey, *faint])
            where = (bounds, [*obstacles, *marks, *note])
            led, labels = self._cast_labels(plane, coords, keep, texts, colors, where, kw)
            if not led:
                return keep, arrows, grey, labels, note
        if with_key:  # no spot at every tip: a key under the plane names the cast by colour
            order = [i for i in cast if i in keep]
            labels = self.cast_key([texts[i] for i in order], [colors[i] for i in order], note_box)
            for arrow in arrows:
                arrow.wants_label, arrow.in_key = False, True
            both = VGroup(*([note] if len(note) else []), labels)
            both.arrange(DOWN, aligned_edge=LEFT, buff=0.08)
            place(both, note_box, align if both.height <= note_box.height else f"bottom-{align}")
        return keep, arrows, grey, labels, note

    def _grey_count(self, note, others: int, box: Box, align: str, grey: bool, key=None):
        """``note`` with a line under it, "15 others, grey" (not ``grey``: "15 others not
        drawn"; ``key``: its words, as "15 other outputs not drawn"), placed in ``box``."""
        if not others:
            return note
        key = key or ("others_grey" if grey else "not_drawn")
        key += "" if others > 1 else "_one"
        line = label(self.scene.say(key, n=others), SMALL, self.theme.muted)
        out = VGroup(*([note] if len(note) else []), line)
        out.arrange(DOWN, aligned_edge=LEFT, buff=0.04)
        return place(out, box, align if out.height <= box.height else f"bottom-{align}")

    @staticmethod
    def _cast_labels(plane, coords, keep, texts, colors, where, kw) -> tuple:
        """The labels of the arrows ``keep`` at their tips, none looked for farther than
        :data:`CAST_REACH`: apart, else tips close together sharing one place, their labels
        stacked one a line, each in its colour (never merged into one label); the try with the
        fewest leader lines and labels left out, and how many."""
        from scenes.mobjects.plane import NEAR

        bounds, obstacles = where
        near = min(CAST_REACH, NEAR if plane.near is None else plane.near)  # no leader line
        radii, plane.radii = plane.radii, [r for r in RADII if r <= near]
        best = None
        try:
            for merge in CAST_MERGE:
                labels = plane.tip_labels(
                    coords[keep],
                    [texts[i] for i in keep],
                    [colors[i] for i in keep],
                    bounds,
                    obstacles,
                    merge=merge,
                    **kw,
                )
                family = labels.get_family()  # a label left out counts as a leader line:
                led = sum(bool(getattr(m, "is_leader", False)) for m in family)  # not a success
                led += len(keep) - sum(bool(getattr(m, "is_tip_label", False)) for m in family)
                if best is None or led < best[0]:
                    best = (led, labels)
                if not led:
                    break
        finally:
            plane.radii = radii
        return best

    def cast_key(self, texts: Sequence[str], colors: Sequence[Color], box: Box) -> VGroup:
        """A key to a plane's colours: a short arrow and the token's label, whole, in its colour,
        in as many columns as ``box``'s width holds (the story's order, row by row)."""
        from scenes.mobjects.plane import sample_arrow

        entries = [
            VGroup(sample_arrow(c, length=0.3, stroke_width=3), label(t, SMALL, c)).arrange(
                buff=0.08
            )
            for t, c in zip(texts, colors)
        ]
        for cols in range(len(entries), 0, -1):
            key = VGroup(*entries).arrange_in_grid(
                cols=cols, buff=(0.25, 0.06), cell_alignment=LEFT
            )
            if key.width <= box.width or cols == 1:
                return key
        return VGroup()

    @staticmethod
    def thin_marks(thin: Iterable[Arrow]) -> list[Box]:
        """Small boxes on thin arrows' heads (:meth:`thin_arrow`) and along their shafts: no
        label sits on one (beside a grey head, a label would seem to name it)."""
        from scenes.mobjects.plane import shaft_marks

        ends = [(a.get_start(), a.get_end()) for a in thin]
        heads = [Box(b[0] - 0.07, b[1] - 0.07, b[0] + 0.07, b[1] + 0.07) for _, b in ends]
        return heads + shaft_marks(ends, half=0.03)

    def thin_arrow(
        self, plane: VectorPlane, v: ArrayLike, color: Color | None = None, opacity: float = 0.6
    ) -> Arrow:
        """A thin arrow of ``plane`` with a small head, grey unless ``color``: a token outside
        the cast, a faint value behind the outputs."""
        from manim import Arrow

        a, b = plane.point([0, 0]), plane.point(v)
        return Arrow(
            a,
            b,
            buff=0,
            color=color or self.theme.muted,
            stroke_width=1.5,
            tip_length=0.1,
            max_tip_length_to_length_ratio=0.3,
            stroke_opacity=opacity,
            fill_opacity=opacity,
        )

    def titled_plane(self, box: Box, which: str, heading: str) -> VGroup:
        """A plane in ``box`` for the view recipe ``which`` (see :mod:`scenes.kit.views`), its
        heading above and its view note below.

        The group holds the drawn parts (plane, heading, note); its attributes ``plane`` (the
        :class:`VectorPlane`, for arrows and labels), ``coords`` (the view's 2-D coordinates),
        ``box`` (the plane's own box), ``heading`` and ``note`` are for placing what goes on it.
        """
        from scenes.kit.views import plane_view_of

        title_box, plane_box, note_box = box.rows(0.45, box.height - 0.95, 0.3, gap=0.1)
        view = plane_view_of(self.scene.trace, which)
        plane = self.plane(view, plane_box, ticks=False)
        head = place(label(heading, SMALL, self.theme.text), title_box, "left")
        note = self.view_note(view, which)
        if len(note):
            place(note, note_box, "left")
        out = VGroup(plane.plane, head, note)
        out.plane, out.coords, out.box, out.heading, out.note = (
            plane,
            view.coords,
            plane_box,
            head,
            note,
        )
        return out

    # -- matrices and colour scales --------------------------------------------------------------
    def matrix(
        self,
        values: ArrayLike,
        role: tuple,
        row_labels: Sequence[str],
        col_labels: Sequence[str],
        box: Box,
        **options: Any,
    ) -> Mobject:
        """A labelled matrix that fits ``box`` (:meth:`LabelledMatrix.fitted`: numbers where
        they fit at the minimum text size, else a grid of squares). A matrix of the explained
        head's queries × keys never elides the followed pair's row or column
        (:meth:`keep_followed`)."""
        from scenes.mobjects.matrix import LabelledMatrix

        rows, cols = self.marked(row_labels), self.marked(col_labels)
        args = (values, role, self.theme, rows, cols, box)
        return LabelledMatrix.fitted(*args, **self.keep_followed(values, role, options))

    def fit_label(self, text: str, room: float, size: float) -> str:
        """``text`` shortened to ``room`` at ``size`` (:func:`scenes.mobjects.text.ellipsize`),
        the followed pair's labels whole: they are never shortened (issue 38)."""
        from scenes.mobjects.text import ellipsize
        from scenes.mobjects.token_text import shown

        return shown(text) if str(text) in self.followed_labels() else ellipsize(text, room, size)

    def marked(self, labels: Iterable[str]) -> list:
        """``labels`` with the followed pair's (:meth:`followed_labels`) marked
        :class:`~scenes.mobjects.token_text.Followed`: a matrix names them whole (issue 38)."""
        from scenes.mobjects.token_text import Followed, shown

        whole = set(map(str, self.followed_labels()))
        return [Followed(shown(t)) if isinstance(t, str) and str(t) in whole else t for t in labels]

    def keep_followed(self, values: ArrayLike, role: tuple, options: dict) -> dict:
        """``options`` with the followed pair's query first among ``keep_rows`` and its key
        (and each piece of a key word cut into pieces) first among ``keep_cols``, for a matrix
        of the explained head's queries × keys (role kinds :data:`QUERY_KEY_ROLES`): every scene
        talks about that pair, so no aspect may elide it (issue 44: CausalMask framed a cell
        whose column 1:1 had elided). In self-attention the key's own row is kept too, after
        the rest: a column labelled "11" is read by its row's label, "11 baker" (issue 38); not
        with ``key_row=False`` (Overview keeps each shown row's largest weight: no room for
        the key row's too)."""
        import numpy as np

        import attention_core as ac

        scene = self.scene
        if role[0] not in QUERY_KEY_ROLES or np.shape(values) != scene.head.weights.shape:
            return options
        if not hasattr(self, "_followed"):
            self._followed = ac.followed_pair(scene.trace)
        pair = self._followed
        options = dict(options)
        key_row = options.pop("key_row", True)
        rows = [pair.query, *options.get("keep_rows", ())]
        if key_row and not scene.example.is_cross:  # its label names the framed column
            rows.append(pair.key)
        cols = [pair.key, *pair.pieces, *options.get("keep_cols", ())]  # a key word: each piece
        return dict(options, keep_rows=rows, keep_cols=cols)

    def matrix_at(
        self,
        values: ArrayLike,
        role: tuple,
        row_labels: Sequence[str],
        col_labels: Sequence[str],
        **options: Any,
    ) -> LabelledMatrix:
        """A labelled matrix at the size ``options`` give (``size``, ``digits``, ``cell_pad``):
        for measuring how large a matrix would be before choosing a layout."""
        from scenes.mobjects.matrix import LabelledMatrix

        rows, cols = self.marked(row_labels), self.marked(col_labels)
        return LabelledMatrix(values, role, self.theme, rows, cols, **options)

    def matrix_most(
        self,
        values: ArrayLike,
        role: tuple,
        row_labels: Sequence[str],
        col_labels: Sequence[str],
        box: Box,
        **options: Any,
    ) -> Mobject:
        """:meth:`matrix` with the number of decimals (``digits``) that shows the most columns
        (:meth:`LabelledMatrix.fitted_most`)."""
        from scenes.mobjects.matrix import LabelledMatrix

        args = (values, role, self.theme, self.marked(row_labels), self.marked(col_labels), box)
        return LabelledMatrix.fitted_most(*args, **self.keep_followed(values, role, options))

    def colour_bar(self, scale: str = "weights", **options: Any) -> ColorBar:
        """The colour key of a scale: ``"weights"`` (the one fixed 0 → 1 scale) or ``"scores"``
        (:class:`ColorBar`)."""
        from scenes.mobjects.matrix import ColorBar

        return ColorBar(self.theme, scale, **options)

    # -- bars and labels ---------------------------------------------------------------------------
    def proportion_bar(
        self, shares: Sequence[float], colors: Sequence[Color], width: float, **options: Any
    ) -> ProportionBar:
        """Shares of one whole as one bar of coloured parts (:class:`ProportionBar`)."""
        from scenes.mobjects.bars import ProportionBar

        return ProportionBar(shares, colors, width, self.theme, **options)

    def label(
        self, text: str, size: float = SMALL, color: Color | None = None, **options: Any
    ) -> Text:
        """Plain text (Pango, escaped: token labels are safe), in the theme's text colour unless
        ``color`` is given."""
        return label(text, size, color or self.theme.text, **options)

    # -- grids -------------------------------------------------------------------------------------
    def grid(
        self,
        values: ArrayLike,
        role: tuple,
        row_labels: Sequence[str],
        col_labels: Sequence[str],
        box: Box,
        **options: Any,
    ) -> Mobject:
        """A matrix in ``box`` that never hides a row or a column: its numbers where all of them
        fit at the minimum text size, else a :class:`CompactGrid` of squares
        (:func:`scenes.mobjects.compact_grid.fitted_grid`; ``options``: ``scale``, ``limit``,
        ``compact_room`` and :class:`LabelledMatrix`'s own)."""
        from scenes.mobjects.compact_grid import fitted_grid

        rows, cols = self.marked(row_labels), self.marked(col_labels)
        return fitted_grid(values, role, self.theme, rows, cols, box, **options)

    # -- notes -------------------------------------------------------------------------------------
    def pieces_note(self, width: float) -> VGroup:
        """Once, where token labels are shown: what 猫¹ 猫² mean (one character the tokenizer
        cut into byte pieces), in the scene's language, on at most two lines of ``width``; empty
        when no label is a piece of a character."""
        from attention_core.models.token_labels import split_characters
        from scenes.mobjects.text import balanced_lines

        scene = self.scene
        cut = split_characters([*scene.example.tokens, *scene.example.key_tokens])
        if not cut:
            return VGroup()
        text = scene.say("byte_pieces", c=cut[0])
        lines = balanced_lines(text, width, SMALL, max_lines=2)
        note = VGroup(*(label(t, SMALL, self.theme.muted) for t in lines))
        return note.arrange(direction=[0, -1, 0], aligned_edge=[-1, 0, 0], buff=0.06)

    def pieces_strip(self, content: Box) -> tuple[Box, VGroup]:
        """``content`` less a strip at its foot holding :meth:`pieces_note` (placed there), and
        the note; ``content`` itself and an empty note where no label is a byte piece."""
        note = self.pieces_note(content.width)
        if not len(note):
            return content, note
        rest, strip = content.rows(content.height - note.height - 0.15, note.height, gap=0.15)
        place(note, strip, "left")
        return rest, note
