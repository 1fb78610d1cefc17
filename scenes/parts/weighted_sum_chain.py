"""WeightedSum among twenty-odd keys: its values and its chain at real size (mixin of
:class:`scenes.weighted_sum.WeightedSum`).

Issue 38, a 22-token sentence at 1:1: eight values drawn from the origin knotted there, their
labels joined to them by leader lines, short ones hidden under longer ones' heads; and the chain
of twenty-odd weighted values was invisible, its links 0.02 long under the output's arrow.

- The values: the cast's (:func:`attention_core.story_cast`: the followed key's, the largest
  weights') in colour, each labelled at its own tip (:meth:`Kit.cast_arrows`), the others thin and
  grey and counted; a cast value whose head would sit within :data:`HEAD_GAP` of one already
  drawn, or whose label finds no spot, is thin in its colour (the list of weights beside the
  plane names it), and the shorter arrows are drawn over the longer.
- The chain: the terms long enough to see (:data:`MIN_LINK` on screen, the largest weight
  first) are links of their own in their colours, after one grey link of all the others;
  where some merge (and no residual follows, which needs the wide view) the
  plane is fitted to it and the values' hull, whole: the values fade with their labels.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, BackgroundRectangle, Polygon, ReplacementTransform, VGroup

from scenes.kit.roles import HeadRole
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.plane import grow

RATIO = 0.7  # a plane's shorter side at least this share of its longer (square_ish)
HEAD_GAP = 0.25  # two coloured values' arrowheads at least this far apart on screen
MIN_LINK = 0.3  # a chain link of its own at least this long on screen; shorter ones merge
TOLD_WEIGHT = 0.1  # a term weighed at least this much is a link of its own, named by its term
TERM_REACH = 0.45  # the followed key's term, naming its link of the chain, at most this far off
WEIGHT_REACH = 0.9  # and its weight at most this much farther
OWN_FIRST = 0.06  # a value's label at least this much nearer its own tip than another arrow
LEAD_REACH = 1.0  # the output's label, with no spot at its tip: its leader line at most this long
THIN_CAST = 0.9  # a cast value with no label at its tip: a thin arrow in its colour, this opaque
SHORT_HEAD = 0.24  # a cast value shorter than this on screen: all head, this long, its tip true
PLATE = 0.07  # a label over the plane: a plate of the background this far around its ink


def plated(mob, background):
    """``mob`` on a plate of ``background`` reaching :data:`PLATE` around it, one group placed
    as one: no line of the plane (the hull's edges, the axes, the grid) runs through its
    letters (issue 38: the hull's edge through "× v(trophy)" read "x \\(trophy)", the y axis
    through "o(explanations)")."""
    plate = BackgroundRectangle(mob, color=background, fill_opacity=1, buff=PLATE)
    plate.set_stroke(width=0)
    group = VGroup(plate, mob)
    group.source_text = getattr(mob, "source_text", "")
    group.plated_text = mob  # a tip label's text is the tip label (:func:`own_tip`)
    mob.tip_group = group  # its distance to its tip measured by the plate's box
    return group


def own_tip(mob, tip) -> None:
    """``mob`` (a label, or one :func:`plated`), placed, is its tip's label: it knows its tip
    (``tip_home``, an offset from its centre) and is drawn above the arrows; a plated label's
    text does and is too (the checks read a text, never its plate)."""
    text = getattr(mob, "plated_text", mob)
    for part in {id(mob): mob, id(text): text}.values():
        part.tip_home = np.array([*np.asarray(tip)[:2], 0.0]) - part.get_center()
    text.is_tip_label = True


def square_ish(points, box, least: float = 1.0) -> np.ndarray:
    """``points`` (k × 2, the origin among them) and two more, so that their range has at least
    ``least`` of ``box``'s height to width (and of its width to height), each side at least
    :data:`RATIO` of the other: a plane fitted to them fills ``box`` in both directions, never a
    strip (issue 38 at 1:1: a chain along x gave a
    plane of 3.15 × 0.89 in a 3.6 × 4.35 box)."""
    pts = np.vstack([np.asarray(points, dtype=float), np.zeros((1, 2))])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    span, mid = np.maximum(hi - lo, 1e-9), (lo + hi) / 2
    aspect = box.height / box.width  # the box's height to width
    want = np.array([span[1] / aspect, span[0] * aspect]) * least  # each side's least span
    want = np.maximum(want, RATIO * span[::-1])  # and never a strip, whatever the box
    half = np.maximum(span, want) / 2
    return np.vstack([pts, mid - half, mid + half])


def _gap(p, box) -> float:
    dx = max(box.x0 - p[0], 0.0, p[0] - box.x1)
    dy = max(box.y0 - p[1], 0.0, p[1] - box.y1)
    return float(np.hypot(dx, dy))


def _margin(box, tip, others) -> float:
    """How much nearer ``box`` is to ``tip`` than to any of the arrows ``others`` ((tail, tip)
    pairs: their heads and the outer 70 % of their shafts)."""
    ts = np.linspace(0.3, 1.0, 36)
    near = [min(_gap(a + t * (b - a), box) for t in ts) for a, b in others]
    return min(near, default=9.0) - _gap(tip, box)


def _candidates(mob, tip, obstacles, bounds, reach: float):
    """(distance from ``tip``, box, centre) of each spot for ``mob`` within ``reach`` of
    ``tip``, clear of ``obstacles`` and inside ``bounds``."""
    from scenes.mobjects.layout import Box

    w, h = mob.width, mob.height
    for dx in np.linspace(-(w / 2 + reach), w / 2 + reach, 25):
        for dy in np.linspace(-(h / 2 + reach), h / 2 + reach, 17):
            c = tip + np.array([dx, dy])
            box = Box(c[0] - w / 2, c[1] - h / 2, c[0] + w / 2, c[1] + h / 2)
            own = _gap(tip, box)
            if not 0.03 <= own <= reach or not bounds.contains(box, tol=1e-6):
                continue
            if not any(box.overlaps(o.inset(-0.03)) for o in obstacles):
                yield own, box, c


def best_spot(mob, tip, others, obstacles, bounds, reach: float):
    """The centre for ``mob`` within ``reach`` of ``tip`` that is nearest its tip among those
    at least :data:`OWN_FIRST` nearer it than any of ``others``, clear of ``obstacles`` and
    inside ``bounds``; None where there is none."""
    best = None
    for own, box, c in _candidates(mob, tip, obstacles, bounds, reach):
        margin = _margin(box, tip, others)
        if margin >= OWN_FIRST and (best is None or (own, -margin) < best[0]):
            best = ((own, -margin), c)
    return None if best is None else best[1]


def all_head(plane, v, colour, stroke_width: float, start=None):
    """A thin arrow of ``plane`` to ``v`` in ``colour``; where shorter than :data:`SHORT_HEAD` on
    screen, all head, that long, its point at ``v``'s tip (a value's stub seen, issue 38: v(When)
    in Overview among the others' tails)."""
    from manim import Arrow

    s = np.zeros(2) if start is None else np.asarray(start, dtype=float)
    tail, tip = plane.point(s), plane.point(s + np.asarray(v, dtype=float))
    length = float(np.linalg.norm(tip - tail))
    if SHORT_HEAD > length > 1e-6:
        tail = tip - (tip - tail) / length * SHORT_HEAD
        ratio, tip_length = 1.0, SHORT_HEAD
    else:
        ratio, tip_length = 0.3, 0.14
    return Arrow(
        tail,
        tip,
        buff=0,
        color=colour,
        stroke_width=stroke_width,
        tip_length=tip_length,
        max_tip_length_to_length_ratio=ratio,
    )


def free_spots(mob, tip, obstacles, bounds, least: float, reach: float) -> list:
    """The centres for ``mob`` from ``least`` to ``reach`` of ``tip``, clear of
    ``obstacles`` and inside ``bounds``, nearest first."""
    found = [(own, c) for own, _, c in _candidates(mob, tip, obstacles, bounds, reach)]
    return [c for own, c in sorted(found, key=lambda p: p[0]) if own >= least]


def _side(a, b, p) -> float:
    """Which side of the line a–b the point ``p`` lies on (−1, 0 or 1)."""
    return float(np.sign((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])))


def _ends(line):
    return np.asarray(line.get_start())[:2], np.asarray(line.get_end())[:2]


def _segments_cross(p, q, a, b) -> bool:
    """Whether the segments p–q and a–b cross."""

    def side(u, v, w) -> float:
        return float(np.sign((v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])))

    return side(p, q, a) != side(p, q, b) and side(a, b, p) != side(a, b, q)


class CrowdedChain:
    """WeightedSum's values and chain past 12 keys (mixin of
    :class:`scenes.weighted_sum.WeightedSum`)."""

    @property
    def one_to_one(self) -> bool:
        """Whether the frame is square (1:1: the content at most 1.6 times as wide as high)."""
        content = self.regions.content
        return content.width < 1.6 * content.height

    def clear_of_note(self, box):
        """``box`` less what the view's note (placed under it, two lines where long) reaches
        into it: a plane filling its box keeps its tick labels off the note."""
        from scenes.mobjects.layout import Box

        top = self.note.get_top()[1] + 0.1 if len(self.note) else box.y0
        return Box(box.x0, max(box.y0, min(top, box.y1 - 1.0)), box.x1, box.y1)

    @staticmethod
    def column_shares(content, square: bool, crowded: bool) -> tuple[float, float]:
        """The plane's column and the weights' (:meth:`Box.columns`): in a square frame half
        each (every key's weight listed), and past 12 keys (the cast's weights listed, the rest
        counted) the plane's as wide as the content is high, at most 56 % of it (issue 38:
        half the width made a strip of the plane); else 3 : 2."""
        if not square:
            return (3, 2)
        if not crowded:
            return (1, 1)
        left = min(content.height, 0.56 * content.width)
        return (left, content.width - 0.3 - left)

    def cast_values(self):
        """The values past 12 keys: the cast's in colour (the followed key's first, then by
        weight), apart by :data:`HEAD_GAP`, those that find a spot at their tips, in turn, each
        labelled there (issue 38 at 1:1: leader lines knotted); the rest of the cast thin in
        their colours (``self.v_thin``), named by the list of weights beside the plane; the
        others thin and grey, counted under the note. Where not even the first finds a spot,
        the arrows in colour are named by that list too. Returns (the indices labelled in
        colour, their arrows, the labels, the note); the thin arrows in ``self.v_grey``."""
        import attention_core as ac

        plane, w, seen = self.vplane, self.head.weights[self.i], set(self.seen)
        pair = ac.followed_pair(self.trace)
        first = [pair.key] if pair is not None and pair.query == self.i else []
        ranked = [*first, *sorted(self.cast, key=lambda j: -w[j])]
        cast, heads = [], []
        for j in (j for j in dict.fromkeys(ranked) if j in seen and j not in self.v_zero):
            tip = plane.point(self.V2[j])[:2]
            if all(np.linalg.norm(tip - h) >= HEAD_GAP for h in heads):
                cast.append(j)
                heads.append(tip)
        # the followed key always in colour, first (issue 38, trophy at 1:1: v(trophy) was
        # grey): where its tip has no spot, named in a key under the note (no leader lines)
        led = None
        if first and first[0] in cast and self.values_at_tips(first) is None:
            led = first[0]
        kept = [led] if led is not None else []
        for j in (j for j in cast if j not in kept):  # each in turn, kept where all still fit
            if self.values_at_tips([*kept, j], led=led) is not None:
                kept.append(j)
        drawn, arrows, grey, labels, note = self.values_at_tips(
            kept or cast[:1], keep=True, led=led
        )
        for j, a in zip(drawn, arrows):
            self.head_seen(a, j)
        if not kept:  # no label at its tip: the list beside the plane names them by colour
            labels = VGroup()
            for a in arrows:
                a.wants_label = False
        self.v_keyed = [led] if led is not None else []
        thin = dict(zip(self.others(drawn), grey))
        # the rest of the cast thin in their colours, named by the list beside (issue 38: did,
        # 0.126, grey in the plane and blue in the list); only the others grey, counted
        self.v_thin = [j for j in self.cast if j in thin and j in seen and j not in self.v_zero]
        for j in self.v_thin:
            thin[j].set_color(self.colors[j]).set_opacity(THIN_CAST)
        others = [j for j in self.others(drawn) if j in seen and j not in self.v_thin]
        note = self.recount(note, len(others))
        if led is not None:
            labels, note = self.followed_in_key(led, drawn, arrows, labels, note)
        self.v_grey = VGroup(*(thin[j] for j in self.others(drawn) if j in seen))
        return drawn, arrows, labels, note

    def head_seen(self, arrow, j: int) -> None:
        """Value ``j``'s ``arrow`` made all head, :data:`SHORT_HEAD` long, its point at the
        value's tip, where the value is shorter than that on screen (issue 38, trophy-24: the
        sink's v(The), 0.08 long, was a label with no arrow: its head 0.03 long at the origin,
        under the others' tails)."""
        from manim import Arrow

        plane = self.vplane
        tail, tip = plane.point(np.zeros(2)), plane.point(self.V2[j])
        length = float(np.linalg.norm(tip - tail))
        if not isinstance(arrow, Arrow) or length >= SHORT_HEAD or length < 1e-6:
            return
        start = tip - (tip - tail) / length * SHORT_HEAD
        head = Arrow(
            start,
            tip,
            buff=0,
            color=self.colors[j],
            stroke_width=5,
            tip_length=SHORT_HEAD,
            max_tip_length_to_length_ratio=1.0,
        )
        arrow.become(head)

    @property
    def v_zero(self) -> list[int]:
        """The keys whose value is too short to draw (nothing to colour nor label)."""
        unit = self.vplane.unit
        return [j for j in range(self.example.n_keys) if np.linalg.norm(self.V2[j]) * unit < 1e-3]

    def recount(self, note, grey: int):
        """``note`` (:meth:`Kit.cast_arrows`': the view note, then its count of the arrows not
        in colour) with that count made ``grey``, the values drawn grey (not the cast's thin
        ones in colour, nor the keys the mask hides, which are not drawn: "19 others, grey"
        had counted 12 of those), in the old line's place; no line where none is grey."""
        from scenes.mobjects.text import label
        from scenes.mobjects.theme import SMALL

        if not len(note) or note is self.note:  # no count line (every key in colour)
            return note
        line = note.submobjects[-1]
        if not grey:
            note.remove(line)
            return note
        key = "others_grey" if grey > 1 else "others_grey_one"
        new = label(self.say(key, n=grey), SMALL, self.theme.muted)
        note.submobjects[-1] = new.move_to(line).align_to(line, LEFT)
        return note

    def followed_in_key(self, led, drawn, arrows, labels, note):
        """The followed key's value ``led``, with no spot at its tip, named in a key under the
        note: a short arrow and v(token), whole, in its colour (:meth:`Kit.cast_key`: a cast's
        plane has no leader lines). Returns (the other labels, the note with the key)."""
        from scenes.mobjects.layout import place

        name, box = f"v({self.k_tokens[led]})", self.note_box
        arrow = arrows[list(drawn).index(led)]
        arrow.wants_label, arrow.in_key = False, True
        rest = VGroup(*(g for g in labels if getattr(g, "source_text", "") != name))
        key = self.kit.cast_key([name], [self.colors[led]], box)
        both = VGroup(*([note] if len(note) else []), key)
        both.arrange(DOWN, aligned_edge=LEFT, buff=0.08)
        place(both, box, "left" if both.height <= box.height else "bottom-left")
        return rest, both

    def others(self, drawn) -> list[int]:
        """The keys not in ``drawn``, in order (their grey arrows')."""
        return [j for j in range(self.example.n_keys) if j not in drawn]

    def values_at_tips(self, cast, keep: bool = False, led=None):
        """:meth:`Kit.cast_arrows` of the values ``cast``, each labelled at its own tip; None
        where one finds no spot there (``led``, the followed key's index: but for its label,
        which :meth:`followed_in_key` moves to a key). Only with ``keep``
        are the arrows kept in the plane's marks (and the try returned all the same)."""
        plane = self.vplane
        tips, shafts = list(plane.tips), list(plane.shafts)
        out = self.kit.cast_arrows(
            plane,
            self.V2,
            [f"v({t})" for t in self.k_tokens],
            self.colors,
            cast,
            self.note,
            self.note_box,
            align="left",
            bounds=self.plane_box,
            obstacles=list(plane.tick_labels),
            key=not keep and led is None,  # kept all the same: no key (the weights name them)
            least=len(cast),  # none cut: a try fails instead
        )
        # each label nearer its own tip than another arrow; the followed key's kept regardless
        failed = self.unmistaken(out[3], out[2]) - {f"v({self.k_tokens[cast[0]]})"}
        if keep:
            return out
        plane.tips[:], plane.shafts[:] = tips, shafts
        keyed = any(getattr(a, "in_key", False) for a in out[1])
        lines = [m for m in out[3].get_family() if getattr(m, "is_leader", False)]
        wanted = f"v({self.k_tokens[led]})" if led is not None else None
        astray = any(
            getattr(g, "source_text", "") != wanted
            for g in out[3]
            if any(getattr(m, "is_leader", False) for m in g.submobjects)
        )
        return None if keyed or failed or (lines and astray) else out

    def unmistaken(self, labels, grey, ahead=()) -> set:
        """Each value's label at its tip (no leader line) nearer another coloured arrow (its
        head or the outer 70 % of its shaft; a grey one, unlabelled, it only keeps off) than
        its own tip, less
        :data:`OWN_FIRST`, moved to the spot within :data:`CAST_REACH` of its tip that is
        farthest from the others for its distance from its own, clear of the plane's marks, the
        note and the other labels (issue 38 at 1:1: v(that₁) 0.23 from its tip sat 0.16 from
        soup's arrow, read as soup's). Returns the texts of those that find no such spot."""
        from scenes.kit.drawing import CAST_REACH
        from scenes.mobjects.layout import Box, box_of
        from scenes.mobjects.plane import shaft_marks

        plane = self.vplane
        ends = [(np.asarray(a)[:2], np.asarray(b)[:2]) for a, b in plane.shafts]  # coloured
        lines = [m for m in labels.get_family() if getattr(m, "is_leader", False)]
        led = {id(m) for g in labels if any(s in lines for s in g.submobjects) for m in g}
        mobs = [
            m
            for m in labels.get_family()
            if getattr(m, "tip_home", None) is not None and id(m) not in led  # lines name theirs
        ]
        heads = [Box(t[0] - 0.14, t[1] - 0.14, t[0] + 0.14, t[1] + 0.14) for t in plane.tips]
        marks = [*heads, *shaft_marks(plane.shafts), *self.kit.thin_marks(list(grey))]
        marks += shaft_marks([(m.get_start()[:2], m.get_end()[:2]) for m in lines]) + list(ahead)
        fixed = [*plane.tick_labels, *self.note]
        # every label keeps its room, a led one's too (random17: v(数据) moved onto it)
        named = [m for m in labels.get_family() if getattr(m, "is_tip_label", False)]
        failed = set()
        for mob in mobs:
            tip = (mob.get_center() + mob.tip_home)[:2]
            others = [(a, b) for a, b in ends if np.linalg.norm(b - tip) > 1e-3]
            taken = [
                box_of(m) for m in {id(m): m for m in [*mobs, *named]}.values() if m is not mob
            ]
            taken += [box_of(m) for m in fixed]
            if _margin(box_of(mob), tip, others) >= OWN_FIRST:
                continue
            spot = best_spot(mob, tip, others, [*marks, *taken], self.plane_box, CAST_REACH)
            if spot is None:
                failed.add(getattr(mob, "source_text", ""))
                continue
            mob.shift(np.array([*spot, 0.0]) - mob.get_center())
            mob.tip_home = np.array([*tip, 0.0]) - mob.get_center()
        return failed

    @staticmethod
    def lead_mistaken(labels, failed) -> None:
        """Each label of ``labels`` named in ``failed`` (:meth:`unmistaken` found it no spot
        nearer its own tip than another arrow) joined to its tip by a leader line, which names
        its arrow (issue 38, at-the-limits at 4:3 in Chinese: v(when) 0.40 below its tip sat
        0.25 from v(notes)' shaft)."""
        from scenes.mobjects.layout import box_of
        from scenes.mobjects.plane import _leader

        for k, mob in enumerate(list(labels.submobjects)):
            home = getattr(mob, "tip_home", None)
            if home is None or getattr(mob, "source_text", "") not in failed:
                continue
            line = _leader(box_of(mob), mob.get_center() + home, mob, 0.0)
            if line is not None:
                group = VGroup(mob, line)
                group.source_text = mob.source_text
                labels.submobjects[k] = group

    def output_unmistaken(self) -> None:
        """The output's label, at its tip with no leader line, nearer another arrow of the plane
        (a value, a link: its head or the outer 70 % of its shaft) than its own tip, less
        :data:`OWN_FIRST`, moved to the nearest spot within :data:`CAST_REACH` of its tip at
        least that much nearer it, clear of the arrows, the values' labels and the plane's marks
        (issue 38, minilm-painting at 1:1: o(they) 0.36 from its tip sat 0.25 from a link's
        head); where there is none it stays."""
        from scenes.kit.drawing import CAST_REACH
        from scenes.mobjects.layout import Box, box_of
        from scenes.mobjects.plane import NEAR, shaft_marks

        plane = self.vplane
        if len(self.o_tip) != 1 or not hasattr(self.o_tip[0], "plated_text"):
            return  # none, or led by its line: the line names its arrow
        mob, tip = self.o_tip[0], plane.point(self.out2)[:2]
        ends = [(np.asarray(a)[:2], np.asarray(b)[:2]) for a, b in plane.shafts]
        others = [(a, b) for a, b in ends if np.linalg.norm(b - tip) > 1e-3]
        if _margin(box_of(mob), tip, others) >= OWN_FIRST:
            return
        heads = [Box(*(t[:2] - 0.14), *(t[:2] + 0.14)) for t in plane.tips]
        thin = self.kit.thin_marks(list(self.v_grey)) if len(self.v_labels) and self.v_grey else []
        taken = [box_of(m) for m in [*self.v_labels, *self.obstacles]]
        marks = [*heads, *shaft_marks(plane.shafts), *thin, *taken]
        spot = best_spot(mob, tip, others, marks, self.label_box, CAST_REACH)
        if spot is not None:
            mob.shift(np.array([*spot, 0.0]) - mob.get_center())
            own_tip(mob, tip)
            return
        # none: the nearest spot a short leader line joins to its tip, across no arrow
        near = (NEAR if plane.near is None else plane.near) + 0.02
        for spot in free_spots(mob, tip, marks, self.label_box, near, LEAD_REACH):
            moved = mob.copy().move_to(np.array([*spot, 0.0]))
            led = plane.leadered(moved, np.array([*tip, 0.0]))
            own_tip(moved, tip)
            lines = [m for m in led.get_family() if getattr(m, "is_leader", False)]
            if not any(_segments_cross(*_ends(ln), a, b) for ln in lines for a, b in others):
                self.o_tip = VGroup(led)
                return

    def chain_marks_ahead(self) -> list:
        """Where the chain (as it was: every term a link) and the output will run, before they
        are drawn: boxes on their heads and along their shafts, for the values' labels to keep
        clear of."""
        from scenes.mobjects.layout import Box
        from scenes.mobjects.plane import shaft_marks

        plane = self.vplane
        ends = [(s, s + p) for s, p in zip(self.starts2, self.parts2)]
        ends = [(plane.point(a), plane.point(b)) for a, b in [*ends, (np.zeros(2), self.out2)]]
        ends = [(a, b) for a, b in ends if np.linalg.norm(b - a) > 1e-6]
        heads = [Box(*(b[:2] - 0.14), *(b[:2] + 0.14)) for _, b in ends]
        return heads + shaft_marks(ends)

    def value_arrows_in_order(self) -> list:
        """The values' arrows to grow: past 12 keys the grey first, then the coloured, the
        longer under the shorter (a short value's head is never hidden under a longer one's)."""
        if self.v_grey is None:
            return list(self.v_arrows)
        lengths = [np.linalg.norm(self.V2[j]) for j in self.v_drawn]
        coloured = [a for _, a in sorted(zip(lengths, self.v_arrows), key=lambda p: -p[0])]
        return [*self.v_grey, *coloured]

    def shrunk_arrow(self, j: int):
        """Value ``j`` shrunk by its weight: in its colour where drawn so, else thin (a cast
        value's in its colour, as it was drawn), the others grey."""
        plane = self.vplane
        if getattr(self, "v_grey", None) is None or j in self.v_drawn:
            return plane.arrow(self.parts2[j], self.colors[j], stroke_width=6)
        colour = self.colors[j] if j in getattr(self, "v_thin", ()) else None
        return self.kit.thin_arrow(plane, self.parts2[j], colour, opacity=0.8)

    def chain_links(self, unit: float) -> list[list[int]] | None:
        """The chain's links at ``unit`` scene units a data unit: every small term in one link
        from the origin (its head clear of the output's, which ends where the last link
        does), then, the largest weight first, each term of the cast (a token in colour: in the
        list beside the plane, if not among the values in colour) at least :data:`MIN_LINK`
        long; None where every term is a link of that length (the chain as it was)."""
        w, seen = self.head.weights[self.i], self.seen
        lengths = np.linalg.norm(self.parts2, axis=1) * unit
        if all(lengths[j] >= MIN_LINK for j in seen):
            return None
        muted = self.theme.muted
        told = self.told_terms()
        alone = [
            j
            for j in sorted(seen, key=lambda j: -w[j])
            if (lengths[j] >= MIN_LINK and self.colors[j] != muted) or j in told
        ]
        rest = [j for j in seen if j not in alone]
        return ([rest] if rest else []) + [[j] for j in alone]

    def told_terms(self) -> list[int]:
        """The terms the chain names, each a link of its own however short (issue 38, he →
        farmer: 0.299 × v(When), 0.07 long, was merged into the grey link, unseen): the
        followed pair's key where this row is its query, then the keys it weighs at least
        :data:`TOLD_WEIGHT`, largest first."""
        import attention_core as ac

        w, pair = self.head.weights[self.i], ac.followed_pair(self.trace)
        first = [pair.key] if pair is not None and pair.query == self.i else []
        heavy = [j for j in sorted(self.seen, key=lambda j: -w[j]) if w[j] >= TOLD_WEIGHT]
        zero = set(self.v_zero)
        return [j for j in dict.fromkeys([*first, *heavy]) if j not in zero]

    def zoomed_plane(self, links):
        """The plane fitted to the chain (the origin, each link's end, the output) and the
        values' hull, whole (issue 38, trophy-24: a plane zoomed to the chain cut the hull at
        its edges), in the value plane's box, where no residual follows; else None. The values
        and their labels fade in it: the chain's links and the hull are what it shows."""
        if self.own2 is not None:
            return None
        ends = np.cumsum([self.parts2[m].sum(axis=0) for m in links], axis=0)
        # the values' hull whole in it too (issue 38: cut by the plane's edge, trophy-24)
        pts = np.vstack([np.zeros((1, 2)), ends, self.out2[None], self.V2[self.seen]])
        # no values to label at its edges; at 1:1 as high as its box allows (never a strip)
        box = self.clear_of_note(self.plane_box)  # the note may have grown (the key in it)
        return self.kit.plane(square_ish(pts, box) if self.one_to_one else pts, box)

    def crowded_chain(self) -> bool:
        """The chain of merged links (:meth:`chain_links`), in a zoomed plane where it is small
        (:meth:`zoomed_plane`); False where every term is a link of its own (the chain as it
        was)."""
        links = self.chain_links(self.vplane.unit)
        if links is None:
            return False
        old, new = self.vplane, self.zoomed_plane(links)
        if new is not None:
            links = self.chain_links(new.unit) or [[j] for j in self.seen]
        plane = new or old
        plane.tips[:], plane.shafts[:] = self.value_marks if new is None else ([], [])
        start, arrows = np.zeros(2), []
        for members in links:
            part = self.parts2[members].sum(axis=0)
            colour = self.colors[members[0]] if len(members) == 1 else self.theme.muted
            link = plane.arrow(part, colour, start=start, stroke_width=6)
            if len(members) == 1 and np.linalg.norm(part) * plane.unit < SHORT_HEAD:
                link = all_head(plane, part, colour, 6, start=start)  # a told term, seen
            arrows.append(link)
            start = start + part
        anims = self.to_chain(links, arrows, old, new)
        self.play(*anims, run_time=1.6)
        self.remove(self.shrunk)  # the shrunk values are the links now
        self.shrunk = self.chain_arrows = VGroup(*arrows)
        # each term drawn as a link of its own, by its key (the followed key's is named)
        self.chain_links_drawn = {m[0]: a for m, a in zip(links, arrows) if len(m) == 1}
        return True

    def output_in_key(self, o_name: str) -> None:
        """Where the output's label found no spot at its tip nor on a short line (12 keys at
        1:1: o(explanations) had none), the output named in a key, a short arrow and its name in
        its colour, at the free spot of the content nearest its tip (``self.o_tip``)."""
        from scenes.mobjects.layout import box_of, free_spot

        if len(self.o_tip):
            return
        from scenes.mobjects.plane import shaft_marks

        key = self.kit.cast_key([o_name], [self.theme.output], self.label_box)
        family = [m for g in self.v_labels for m in g.get_family()]
        lines = [m for m in family if getattr(m, "is_leader", False)]
        texts = [m for m in family if getattr(m, "is_tip_label", False)]  # not their lines' box
        drawn = [*self.obstacles, *texts, *self.side, self.out_line]
        taken = [*self.chain_marks(), *(box_of(m) for m in drawn)]
        taken += shaft_marks([(m.get_start()[:2], m.get_end()[:2]) for m in lines])
        tip = self.vplane.point(self.out2)
        spot = free_spot(key, tip, self.regions.content, taken, gap=0.05, step=0.05)
        if spot is not None:
            self.o_tip = VGroup(key.move_to(spot))
            return
        # nowhere: the output's line beside the plane names it, a short arrow before its name
        from scenes.mobjects.plane import sample_arrow
        from scenes.mobjects.text import label
        from scenes.mobjects.theme import BODY

        word, colour = self.out_line[0], self.theme.output
        parts = (label(o_name, BODY, colour), label("=", BODY, colour))
        named = VGroup(sample_arrow(colour, length=0.3, stroke_width=3), *parts).arrange(buff=0.1)
        named.move_to(word).align_to(word, LEFT)
        if named.get_right()[0] <= self.side_box.x1:
            self.out_line.submobjects[0] = named

    def name_told_links(self) -> VGroup:
        """Each told term's link of the chain (:meth:`told_terms`), where it is a link of its
        own, named by its term beside it, "0.547 × v(farmer)", whole and in its colour, clear of
        the arrows and the labels (issue 38 at 1:1: the chain ran unnamed; he → farmer:
        0.299 × v(When) was unseen and unnamed); a term with no room within
        :data:`TERM_REACH` of its link is left out."""
        from scenes.mobjects.layout import box_of

        links = getattr(self, "chain_links_drawn", {})
        origin = np.asarray(self.vplane.point(np.zeros(2)))[:2]
        taken = [*self.chain_marks(), *(box_of(m) for m in [*self.obstacles, *self.o_tip])]
        named = []
        for j in (j for j in self.told_terms() if j in links):
            term = self.term_by_link(j, links[j], origin, taken)
            if term is not None:
                named.append(term)
                taken.append(box_of(term))
        return VGroup(*named)

    def term_by_link(self, j: int, arrow, origin, taken):
        """Key ``j``'s term, plated, beside its link ``arrow`` (off the side of the origin first:
        the output's arrow runs there), clear of ``taken``; None where there is no room."""
        from scenes.mobjects.text import label
        from scenes.mobjects.theme import BODY, SMALL

        a, b = np.asarray(arrow.get_start())[:2], np.asarray(arrow.get_end())[:2]
        # on one line, else the weight over "× v(…)" (its weight nearer the link)
        tries = [(BODY, False, 1), (BODY, True, 1), (SMALL, False, 1), (SMALL, True, 1)]
        for size, stacked, far in [*tries, (SMALL, False, 2), (SMALL, True, 2)]:
            term = VGroup(
                self.num(
                    self.head.weights[self.i, j],
                    HeadRole("weights", self.h, self.i, j),
                    3,
                    size=size,
                    color=self.colors[j],
                ),
                label(f"× v({self.k_tokens[j]})", size, self.colors[j]),
            )
            if stacked:
                term.arrange(DOWN, aligned_edge=LEFT, buff=0.06)
            else:
                term.arrange(buff=0.1)
            term = plated(term, self.theme.background)  # over the hull's edges and the axes
            found, along = [], [a + t * (b - a) for t in np.linspace(0.0, 1.0, 21)]
            for t in (0.5, 0.35, 0.65, 0.2, 0.8, 1.0):
                reach = far * TERM_REACH  # twice as far where no spot is nearer (a short link)
                found += free_spots(term, a + t * (b - a), taken, self.label_box, 0.05, reach)
            # its weight near the link too (at-the-limits at 16:9: "0.489" 1.9 from it, at the
            # far end of a long term)
            found = [c for c in found if self.weight_near(term, c, along, far)]
            away = [c for c in found if _side(a, b, c) != _side(a, b, origin)]
            if away or found:
                return term.move_to(np.array([*(away or found)[0], 0.0]))
        return None

    @staticmethod
    def weight_near(term, centre, along, far: float = 1) -> bool:
        """Whether, ``term`` (:func:`plated`) centred at ``centre``, its "× v(…)" lies within
        :data:`TERM_REACH` of a point of ``along`` (a link) and its weight within
        :data:`WEIGHT_REACH` more."""
        from scenes.mobjects.layout import Box, box_of

        d = np.asarray(centre)[:2] - term.get_center()[:2]
        gaps = []
        for part in term[1][:2]:
            b = box_of(part)
            box = Box(b.x0 + d[0], b.y0 + d[1], b.x1 + d[0], b.y1 + d[1])
            gaps.append(min(_gap(p, box) for p in along))
        return gaps[0] <= far * TERM_REACH + WEIGHT_REACH and gaps[1] <= far * TERM_REACH

    def to_chain(self, links, arrows, old, new) -> list:
        """The animations from the shrunk values to the chain's links (several merging into
        one), and, zooming, from the old plane to the new: the values and their labels fade,
        the hull is drawn whole in the new plane."""
        anims = [
            ReplacementTransform(VGroup(*(self.shrunk[j] for j in members)), arrow)
            for members, arrow in zip(links, arrows)
        ]
        gone = [j for j in range(self.example.n_keys) if not any(j in m for m in links)]
        anims += [FadeOut(self.shrunk[j]) for j in gone]
        if new is None:
            return anims
        hull = self.cut_hull(new)
        anims += [
            ReplacementTransform(old.plane, new.plane),
            FadeOut(old.tick_labels),
            FadeIn(new.tick_labels),
            FadeOut(VGroup(*self.v_arrows, *self.v_grey, *self.v_labels)),
        ]
        if len(self.hull) and len(hull):
            anims.append(ReplacementTransform(self.hull, hull))
        else:
            anims += [FadeOut(self.hull), FadeIn(hull)]
        self.hull, self.vplane, self.v_labels, self.v_named = hull, new, VGroup(), []
        self.obstacles = list(new.tick_labels) + list(self.note)
        self.value_marks = ([], [])
        return anims

    def cut_hull(self, plane):
        """The values' hull in ``plane`` (fitted to hold it whole: :meth:`zoomed_plane`; empty
        for fewer than 3 corners)."""
        import attention_core as ac

        seen = self.V2[self.seen]
        pts = ac.convex_hull_2d(seen) if len(seen) >= 3 else seen
        if len(pts) < 3:
            return VGroup()
        theme = self.theme
        return Polygon(
            *[plane.point(p) for p in pts],
            color=theme.muted,
            stroke_width=2,
            fill_color=theme.muted,
            fill_opacity=0.12,
        )

    def grow_value_arrows(self) -> list:
        """The values' arrows growing, in :meth:`value_arrows_in_order`."""
        return [grow(a) for a in self.value_arrows_in_order()]
