"""A starter scene to copy: the smallest scene that keeps every rule of the house.

It is not in the registry (so `attn-explain render` never shows it), but it renders:

    ATTN_LANG=en manim render -ql scenes/_template.py StarterScene

and `tests/test_starter_scene.py` runs it, so it stays true to the base scene and the kit. To
make a scene of your own, follow CONTRIBUTING.md's "How to add a scene": copy this file to
``scenes/<concept>.py``, rename the class, and give it its words in ``scenes/kit/captions/``.

What it shows — every token as an arrow, then each arrow's length |x| — is there to show the
contract, not to teach; and how a scene handles a lecturer's 24 tokens: the story's few
(``self.cast``) in colour and named whole, the others grey and counted (``self.kit.cast_arrows``),
every list laid out in the room it has (:func:`in_columns`), nothing outside the frame.

* ``self.step(key, **values)`` opens a step: ``key`` must be an entry of ``STEPS`` in
  ``scenes/kit/captions/starter.py`` and ``values`` fill that caption's ``{placeholders}``;
  ``self.step(key, caption_key, **values)`` picks another of its captions (a crowded plane's).
  A number a caption names is on the step's still ("{others} others, grey" is under the plane):
  the checks of every registered scene fail on one that is not.
  The step holds its still until the caption can be read; the next step fades the caption out.
* Words that are not captions (headings, labels) come from ``captions.WORDS`` (this scene's in
  ``scenes/kit/captions/starter.py``) via ``self.say``
  (plain text) or ``self.typeset`` (math typeset with Typst; token labels are never typeset).
* Every number is a ``Num`` made with ``self.num(value, role)``: the role names where in the
  core the value comes from (``scenes/kit/roles.py``), and a test checks it against the core.
* Everything drawn comes from the kit, ``self.kit`` (``scenes/kit/drawing.py``), which builds it
  in the render's look: planes (``self.kit.titled_plane`` / ``self.kit.plane``) show a named view
  of the trace (``scenes/kit/views.py``) and say how much of a higher-dimensional example the 2-D
  view keeps; matrices, colour bars, proportion bars and labels likewise.
* Layout is computed from ``self.regions`` (title, content, caption bars of this frame), never
  placed by hand for one example.
"""

from __future__ import annotations

import math

from manim import DOWN, LEFT, RIGHT, LaggedStart, VGroup

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import Box, place
from scenes.mobjects.plane import CROWDED, grow
from scenes.mobjects.text import balanced_lines
from scenes.mobjects.theme import SMALL


class StarterScene(ExplainerScene):
    """Every token as an arrow from the origin, then the length of each arrow in colour."""

    explains_one_head = False  # it draws the embeddings, not one head's vectors

    def construct(self):
        content = self.regions.content
        if content.width >= 1.6 * content.height:  # 16:9 and 4:3: the list beside the plane
            plane_box, self.list_box = content.columns(3, 1)
        else:  # 1:1: a column beside the plane is too narrow for a label and its number
            plane_box, self.list_box = content.rows(2, 1, gap=0.2)
        self.panel = self.kit.titled_plane(plane_box, "X", self.say("starter_heading"))
        # the row under the plane (titled_plane's), where its note and the count of grey go
        self.note_box = Box(plane_box.x0, plane_box.y0, plane_box.x1, self.panel.box.y0 - 0.1)
        self.show_tokens()
        self.show_lengths()

    def show_tokens(self):
        """Step 1: the plane, then each token's arrow. A few tokens: each labelled at its tip.
        Many (past ``CROWDED``, a lecturer's 24): the story's cast (``self.cast``, the kit's
        rule) in colour and labelled whole, every other token a thin grey arrow, counted."""
        panel, ex = self.panel, self.example
        colors = [self.q_color(i) for i in range(ex.n)]  # the cast's colours; the rest muted
        if ex.n <= CROWDED:
            self.step("tokens")
            self.drawn = list(range(ex.n))
            arrows = panel.plane.arrows(panel.coords, colors)
            labels = panel.plane.tip_labels(panel.coords, self.q_tokens, colors, panel.box)
            count = VGroup()
        else:
            self.drawn, arrows, grey, labels, note = self.kit.cast_arrows(
                panel.plane, panel.coords, self.q_tokens, colors, self.cast, panel.note,
                self.note_box, align="left", bounds=panel.box,
            )  # fmt: skip
            # a number the caption names is on the still: "16 others, grey" under the plane
            self.step("tokens", "tokens_many", others=ex.n - len(self.drawn))
            arrows = VGroup(*grey, *arrows)  # the grey first: the cast is drawn over them
            count = (
                VGroup()
                if note is panel.note
                else VGroup(*(m for m in note if m is not panel.note))
            )
        self.play(FadeIn(panel))
        self.play(
            LaggedStart(*(grow(a) for a in arrows), lag_ratio=0.3),
            LaggedStart(*(FadeIn(t) for t in labels), lag_ratio=0.3),
            FadeIn(count),
            run_time=min(4, 1 + 0.4 * len(self.drawn)),
        )
        self.hold()

    def show_lengths(self):
        """Step 2: |x| of each token drawn in colour — numbers from the core (the role
        ``("norm_x", i)`` names which), each line in its token's colour, in as many columns
        as its box needs; the grey ones counted, not listed."""
        many = self.example.n > CROWDED
        self.step("lengths", "lengths_many" if many else None)
        lines = []
        for i in self.drawn:
            colour = self.q_color(i)
            value = self.num(ac.norm(self.trace.X[i]), ("norm_x", i), color=colour)
            name = self.kit.label(self.q_tokens[i], SMALL, colour)
            lines.append(VGroup(name, value).arrange(RIGHT, buff=0.2))
        left = self.example.n - len(self.drawn)
        said = self.say("starter_not_listed", n=left) if many and left else None
        table = in_columns(lines, self.list_box)
        if said is not None:  # the count under the columns, on lines as wide as the box
            width, muted = self.list_box.width, self.theme.muted
            count = [self.kit.label(t, SMALL, muted) for t in balanced_lines(said, width, SMALL)]
            table = VGroup(table, VGroup(*count).arrange(DOWN, aligned_edge=LEFT, buff=0.06))
            table.arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        place(table, self.list_box, "top-left")
        self.play(LaggedStart(*(FadeIn(line) for line in table), lag_ratio=0.2), run_time=1)
        self.hold()


def in_columns(lines, box: Box, gap: float = 0.4) -> VGroup:
    """``lines`` top to bottom in the fewest columns (left-aligned, ``gap`` apart) whose height
    leaves a line's room in ``box`` for a count under them, as many as its width holds: in a
    tall box (16:9, 4:3: beside the plane) one column; in a low wide one (1:1: under it), side by
    side."""

    def grid(cols: int) -> VGroup:
        rows = math.ceil(len(lines) / cols)
        return VGroup(*lines).arrange_in_grid(
            rows=rows, cols=cols, buff=(gap, 0.12), cell_alignment=LEFT, flow_order="dr"
        )

    fits = 1
    for cols in range(1, len(lines) + 1):
        table = grid(cols)
        if table.width > box.width:
            break
        fits = cols
        if table.height <= box.height - 0.45:
            return table
    return grid(fits)
