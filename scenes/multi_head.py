"""MultiHeadSplit: the split itself. Q = X·W_q, K and V as n × H·d_k matrices whose column blocks
are tinted by head; each head's blocks slide into that head's panel, its rows become the head's
q (solid) and k (outlined) arrows in its own plane, beside its own weights on the shared 0–1
scale; the head outputs slide into their columns of the concatenation, and W_O maps the product
back to d_model — or, in the per-head form of the NumPy walk-through (independent heads), the
concatenation is the output.

Heads that do not fit side by side are elided: the head with the strongest reading and one
head for each other reading are drawn, the others named in a line; of up to four heads over
more tokens than a plane names, the explained head's plane and weights are drawn with the
other heads' weights alone beside them; a one-head example says plainly that there is
nothing to split.

This module holds the scene and its sequence of steps; the steps themselves are in
``scenes/parts/multi_head_*.py`` (split, heads, mix, and the heads' blocks they share).
"""

from __future__ import annotations

from dataclasses import replace

from manim import Rectangle, VGroup

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import Box, place
from scenes.mobjects.math import math
from scenes.mobjects.text import label
from scenes.mobjects.theme import BODY, SMALL
from scenes.parts.multi_head_blocks import DIAGRAM_COLUMNS, HeadBlocks, head_tints, shown_heads
from scenes.parts.multi_head_diagram import DiagramSteps
from scenes.parts.multi_head_heads import HeadsStep
from scenes.parts.multi_head_mix import MixSteps
from scenes.parts.multi_head_split import SplitSteps


class MultiHeadSplit(SplitSteps, HeadsStep, MixSteps, DiagramSteps, HeadBlocks, ExplainerScene):
    """Several heads, each its own block of Q, K, V and its own subspace; concat; W_O."""

    explains_one_head = False

    def construct(self):
        self.head_blocks: dict[str, dict[int, Rectangle]] = {}
        if len(self.trace.heads) < 2:
            self.one_head()
            return
        # a line at the foot of the content for the widths each step's caption names (384 = 12
        # × 32): a 384-wide matrix drawn by colour, or squares, show their widths to no one;
        # small matrices of numbers show theirs in their column headers
        self.widths_mob = VGroup()
        maps = ac.linear_maps(self.trace)
        if self.example.n > 6 or maps.heads * maps.d_k > 8:
            content = self.regions.content
            self.widths_box = Box(content.x0, content.y0, content.x1, content.y0 + 0.32)
            self.regions = replace(
                self.regions, content=Box(content.x0, content.y0 + 0.42, content.x1, content.y1)
            )
        ex, tr = self.example, self.trace
        H, d_v = len(tr.heads), tr.heads[0].V.shape[1]
        self.tints = head_tints(self.theme)
        self.maps = ac.linear_maps(tr)  # Q = X W_q, K, V as the maps give them, blocks by head
        self.diagram = self.maps.heads * self.maps.d_k > DIAGRAM_COLUMNS  # shapes, not noise
        # the explained head (the one every other scene explains) first; of more heads than
        # fit, then the strongest reading's, then one per other reading
        self.explained = ex.head_index
        self.order = ac.rank_heads([h.weights for h in tr.heads], ex.tokens, self.explained)
        self.shown = shown_heads(H, self.regions.content.width, self.order)
        self.plan_heads()  # the heads step's panels decide which heads every step draws
        independent = ex.weights.form == "independent"
        fulls, bottom = self.project(independent)
        pieces = self.split_into_heads(fulls, bottom, independent)
        panels = self.attend_per_head(fulls, pieces)
        # -- the head outputs slide into the concatenation ----------------------------------------
        self.step("concat", H=H, w=H * d_v)
        self.concat_and_mix(tr.multihead, independent, panels)
        self.hold(1.0)

    def step(self, key: str, caption_key: str | None = None, clear: bool = False, **values):
        """A step, and under the content the widths its caption names (see :meth:`widths`)."""
        super().step(key, caption_key, clear, **values)
        if not hasattr(self, "widths_box"):
            return
        text = self.widths(key, caption_key or key)
        new = VGroup()
        if text:
            new = label(text, SMALL, self.theme.muted)
            if key == "mix":  # the shape of W_O
                new = VGroup(math("W_O :", SMALL, self.theme.muted), new).arrange(buff=0.12)
            room = self.widths_room()
            if new.width > room.width:  # the squares' key gives up its words for the line
                room = self.key_without_words()
            if new.width > room.width:  # no room: the caption alone says it
                new = VGroup()
            else:
                place(new, room)
        if len(self.widths_mob) or len(new):
            self.play(FadeOut(self.widths_mob), FadeIn(new), run_time=0.3)
        self.widths_mob = new

    def key_without_words(self) -> Box:
        """The key of Q's, K's and V's squares as its bar alone, at the right of the widths
        line (its words leave: the split's longer line said nothing once the key had taken its
        room); the room left for the line."""
        key = getattr(self, "value_key", VGroup())
        if hasattr(key, "words"):
            words, bar = key.words, key.bar
            right = self.widths_box.x1 - bar.width / 2
            self.play(FadeOut(words), bar.animate.set_x(right), run_time=0.3)
            self.value_key = VGroup(bar)
        return self.widths_room()

    def widths_room(self) -> Box:
        """The line under the content, less the key of Q's, K's and V's squares at its right
        while it is on screen."""
        key, box = getattr(self, "value_key", VGroup()), self.widths_box
        if not len(key):
            return box
        return Box(box.x0, box.y0, key.get_left()[0] - 0.3, box.y1)

    def widths(self, key: str, caption_key: str) -> str:
        """The widths of a step as one line ("384 = 12 × 32"), from the same quantities as its
        caption: the blocks of Q, K, V; the split of d_model; the concatenation; W_O — and in
        the heads' step, the heads left out ("heads 4–6, 8 not shown")."""
        ex, maps, tr = self.example, self.maps, self.trace
        if key == "heads":  # the heads without a panel, if any
            return self.not_shown()
        if key == "mix" and self.diagram:  # W_O's shape is under its block
            return ""
        H, G, d_k = maps.heads, maps.kv_heads, maps.d_k
        d_v = tr.heads[0].V.shape[1]
        out = ac.output_width(tr)
        say = {
            "project": ("widths_project", dict(H=H, d_k=d_k, w=H * d_k)),
            "project_grouped": ("widths_grouped", dict(H=H, G=G, d_k=d_k)),
            "split": ("widths_split", dict(d=ex.d_model, H=H, d_k=d_k)),
            "split_other": ("widths_other", dict(d=ex.d_model, H=H, d_k=d_k, w=H * d_k)),
            "split_grouped": ("widths_split_grouped", dict(H=H, G=G, g=maps.group_size)),
            "split_independent": ("widths_independent", dict(d=ex.d_model, H=H, d_k=d_k)),
            "concat": ("widths_concat", dict(H=H, d_v=d_v, w=H * d_v)),
            "mix": ("widths_mix", dict(w=H * d_v, d=out.width)),
            "mix_other": ("widths_mix", dict(w=H * d_v, d=out.width)),
        }.get(caption_key)
        return self.say(say[0], **say[1]) if say else ""

    # -- the one-head case ------------------------------------------------------------------------
    def one_head(self):
        self.step("one_head", d=self.example.d_model)
        note = self.typeset("mh_one_head", BODY, self.theme.muted)
        if note.width > self.regions.content.width:
            note.scale_to_fit_width(self.regions.content.width)
        place(note, self.regions.content)
        self.play(FadeIn(note), run_time=0.6)
