"""Projections' three maps of a head whose q, k and v are not 2-D: Q = X W_q, K = X W_k and
V = X W_v each in a plane of its own (a 2-D view), its formula over it and its note under it
(mixin of :class:`scenes.projections.Projections`).

In a narrow frame (1:1: three columns of 2.3 units) each formula keeps a gap to its neighbours
(issue 38: "Q = XW_q + b_qK = XW_k + b_kV = …" ran into one line from edge to edge), the bias on
a line of its own where even the small type is too wide, and each note is short ("2-D: keeps
62 %", "15 not drawn": the long ones broke over four lines)."""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, Create, VGroup

import attention_core as ac
from scenes.kit.views import plane_view_of, view_stack
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import Box, flow, place
from scenes.mobjects.math import math as typeset_math
from scenes.mobjects.plane import CROWDED, CROWDED_TOKENS, grow
from scenes.mobjects.text import label
from scenes.mobjects.theme import BODY, SMALL

HEADING_GAP = 0.3  # at least this between two maps' formulas


class ViewedMaps:
    """Projections' maps in 2-D views (mixin of :class:`scenes.projections.Projections`)."""

    def bias_of(self, name: str) -> str:
        """ " + b_q" where role ``name``'s map has a bias (a trained MiniLM head), else ""."""
        b = getattr(self.example.weights, f"b_{name.lower()}", None)
        return f" + b_{name.lower()}" if b is not None else ""

    @property
    def biased(self) -> bool:
        """Whether q or k has a bias (a trained MiniLM head): Q = X W_q + b_q, not X W_q."""
        w = self.example.weights
        return w.b_q is not None or w.b_k is not None

    def viewed_maps(self):
        tr = self.trace
        rotary = ac.linear_maps(tr).rotated
        roles = ("Q", "K", "V")
        views = {name: plane_view_of(tr, name) for name in roles}
        dims = {name: view_stack(tr, name).shape[1] for name in roles}
        # every plane exact (a head's q, k, v of 2 dimensions): the caption says so, with the
        # width each plane's note shows; else each plane is a 2-D view, and its note says so
        exact = all(v.exact for v in views.values()) and set(dims.values()) in ({1}, {2})
        key = "maps_nd_exact" if exact else "maps_nd"
        key = f"{key}_rotary" if rotary else "maps_nd_biased" if self.biased else key
        self.step("maps_nd", key, clear=True, d=dims["Q"])
        boxes = self.regions.content.columns(1, 1, 1, gap=HEADING_GAP)
        headings = self.map_headings(roles, boxes[0].width)
        groups = VGroup()
        pair = ac.followed_pair(tr).query, ac.followed_pair(tr).key
        for box, name in zip(boxes, roles):
            d = dims[name] if exact else None
            groups.add(self.viewed_map(box, name, views[name], d, pair, headings[name]))
        self.map_groups = groups  # (heading, plane, arrows, labels, note) each
        for g in groups:
            self.play(
                FadeIn(g[0]),
                Create(g[1]),
                *(grow(a) for a in g[2]),
                FadeIn(g[3]),
                FadeIn(g[4]),
                run_time=1,
            )
        self.hold(1.5)

    def map_headings(self, roles, width: float) -> dict:
        """Each map's formula (Q = X W_q + b_q …), all at one size, each no wider than
        ``width``: on one line (at the body size, else the small one) where all fit, else the
        bias on a line of its own."""
        src = {name: "X" if name == "Q" or not self.example.is_cross else "X_s" for name in roles}
        for size, stacked in ((BODY, False), (SMALL, False), (SMALL, True)):
            heads = {}
            for name in roles:
                product = f"{name} = {src[name]} W_{name.lower()}"
                bias = self.bias_of(name)
                if not stacked or not bias:
                    heads[name] = typeset_math(product + bias, size, self.theme.text)
                    continue
                lines = [typeset_math(t, size, self.theme.text) for t in (product, bias)]
                heads[name] = VGroup(*lines).arrange(DOWN, buff=0.1)
                lines[1].align_to(lines[0], RIGHT)  # "+ b_q" under the end of its formula
            if max(h.width for h in heads.values()) <= width:
                break
        return heads

    def viewed_map(self, box: Box, name: str, view, exact_d, pair, heading) -> VGroup:
        """One map's plane in ``box``: its ``heading`` (Q = X W_q …), the tokens' arrows in the
        2-D ``view`` (the followed ``pair``'s story first) and the note under it; the plane
        drawn again over a taller note where the note (with a key naming the pair) outgrew its
        row (a review: the V plane's axis ran through "keeps 42 %", trophy-24 at 16:9)."""
        title_h = max((box.height - 0.2) / 10, heading.height + 0.05)  # 1 : 8 : 1, or taller
        title_box, rest = box.rows(title_h, box.height - title_h - 0.1, gap=0.1)
        note_h = (rest.height - 0.1) / 9
        drawn = self.map_in(rest.rows(8, 1, gap=0.1), title_box, name, view, exact_d, pair, heading)
        note_top = drawn[-1].get_top()[1] if len(drawn[-1]) else -np.inf
        if note_top <= rest.y0 + note_h + 1e-6:
            return drawn
        need = note_top - rest.y0 + 0.02
        boxes = rest.rows(rest.height - 0.1 - need, need, gap=0.1)
        return self.map_in(boxes, title_box, name, view, exact_d, pair, heading)

    def map_in(self, boxes, title_box: Box, name: str, view, exact_d, pair, heading) -> VGroup:
        """:meth:`viewed_map` with its plane and note in ``boxes`` (plane, note): (heading,
        plane, arrows, labels, note)."""
        tokens, color_of = (
            (self.q_tokens, self.q_color) if name == "Q" else (self.k_tokens, self.k_color)
        )
        plane_box, note_box = boxes
        colors = [color_of(i) for i in range(len(tokens))]
        order = self.cast_first(
            ac.story_order(self.head.weights, *pair, "queries" if name == "Q" else "keys")
        )
        # past 12 tokens, at most the story's eight in colour, every other token grey (a
        # review: three planes of 24 arrows each, labels on arrows, unreadable)
        most = CROWDED_TOKENS if len(tokens) > CROWDED else None
        plane = self.kit.plane(view.coords, plane_box, ticks=False, pad=0.1)
        heading = place(heading, title_box)
        short = self.note_is_long(view, name, note_box.width)
        note = self.map_note(view, name, exact_d, note_box, short)
        if most is not None:  # among many, the kit's rule (issue 38): Kit.cast_arrows
            cast = (list(dict.fromkeys([*pair, *order[:most]])), list(dict.fromkeys(pair)))
            where = (plane_box, note_box, [heading])
            found = self.cast_map(plane, view.coords, tokens, colors, cast, note, where, name)
            drawn, arrows, grey, labels, note = found
            return VGroup(heading, plane.plane, VGroup(*grey, *arrows), labels, note)
        # a label with no room in the plane's box may reach past it, clear of these; each
        # drawn arrow its own label (not "in,because,…"), else the story's arrows
        drawn, arrows, labels, note = self.kit.story_arrows(
            plane,
            view.coords,
            tokens,
            colors,
            order,
            note,
            note_box,
            bounds=plane_box,
            obstacles=[heading],
            clear_axes=True,
            outline=name == "K",
            short=short,
        )
        return VGroup(heading, plane.plane, arrows, labels, note)

    def cast_map(self, plane, coords, tokens, colors, cast, note, where, name):
        """A crowded map's arrows by the kit's rule (:meth:`Kit.cast_arrows`): the story's
        tokens (``cast[0]``, the followed pair first) each labelled at its own tip, clear of
        every other arrow, as many as find a spot there (cut from the end, the pair kept),
        every other token a thin grey arrow, counted; where even the pair's labels need leader
        lines, or one finds no spot, the pair alone in colour, named by a key under the plane
        where not at its tips (a review: "brought" and "the₂" set on the K arrows)."""
        tips, shafts = list(plane.tips), list(plane.shafts)
        plane_box, note_box, obstacles = where  # (the heading: no label on it)
        kw = dict(bounds=plane_box, obstacles=obstacles, clear_axes=True, outline=name == "K")
        story, pair = cast
        found = self.kit.cast_arrows(
            plane, coords, tokens, colors, story, note, note_box, key=False, least=2, **kw
        )
        leaders = any(getattr(m, "is_leader", False) for m in found[3].get_family())
        if all_named(found) and not leaders:
            return found
        plane.tips[:], plane.shafts[:] = tips, shafts
        found = self.kit.cast_arrows(plane, coords, tokens, colors, pair, note, note_box, **kw)
        if all_named(found):
            return found
        # a label with no spot at all (issue 38 at 1:1: q(explanations), 12 characters, in a
        # column 2.3 wide) was left out, its arrow in colour unnamed: the pair in the key
        keep, arrows, grey, _, note = found
        order = [i for i in pair if i in keep]
        key = self.kit.cast_key([tokens[i] for i in order], [colors[i] for i in order], note_box)
        for arrow in arrows:
            arrow.wants_label, arrow.in_key = False, True
        both = VGroup(*([note] if len(note) else []), key)
        both.arrange(DOWN, aligned_edge=LEFT, buff=0.08)
        place(both, note_box, "center" if both.height <= note_box.height else "bottom")
        return keep, arrows, grey, key, note

    def note_is_long(self, view, name: str, width: float) -> bool:
        """Whether the notes under a plane take their short forms: where the view's note, or a
        line saying how many tokens are not drawn, is wider than ``width``."""
        long = self.kit.view_note(view, name)
        count = self.say("not_drawn", n=len(self.q_tokens))
        return long.width > width or label(count, SMALL).width > width

    def map_note(self, view, name: str, exact_d, note_box: Box, short: bool = False) -> VGroup:
        """The note under a map's plane, placed in ``note_box``: what the 2-D view keeps (in its
        ``short`` form in a narrow column), or (``exact_d``: every plane exact) the head's width
        it shows whole; on two lines where it is still too wide."""
        note = self.kit.view_note(view, name, short)
        if not len(note) and exact_d is not None:  # the plane is the head's whole q, k or v
            note = VGroup(label(self.say("view_exact", d=exact_d), SMALL, self.theme.muted))
        if len(note):
            if note.width > note_box.width:  # a narrow column: the note on two lines
                note = flow(list(note.submobjects), note_box.width, hbuff=0.06, vbuff=0.04)
            place(note, note_box)
        return note


def all_named(found) -> bool:
    """Whether every arrow :meth:`Kit.cast_arrows` drew in colour (``found``) has its label,
    or the key names them: a label with no spot anywhere in the plane is left out."""
    keep, arrows, _, labels, _ = found
    if any(getattr(a, "in_key", False) for a in arrows):
        return True
    named = sum(bool(getattr(m, "is_tip_label", False)) for m in labels.get_family())
    return named >= len(keep)
