"""A starter scene to copy: the smallest scene that keeps every rule of the house.

It is not in the registry (so `attn-explain render` never shows it), but it renders:

    ATTN_LANG=en manim render -ql scenes/_template.py StarterScene

and `tests/test_starter_scene.py` runs it, so it stays true to the base scene and the kit. To
make a scene of your own, follow CONTRIBUTING.md's "How to add a scene": copy this file to
``scenes/<concept>.py``, rename the class, and give it its words in ``scenes/kit/captions/``.

What it shows — every token as an arrow, then each arrow's length |x| at its tip — is there to
show the contract, not to teach:

* ``self.step(key, **values)`` opens a step: ``key`` must be an entry of ``STEPS`` in
  ``scenes/kit/captions/starter.py`` and ``values`` fill that caption's ``{placeholders}``.
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

from manim import DOWN, RIGHT, LaggedStart, VGroup

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import place
from scenes.mobjects.plane import grow
from scenes.mobjects.theme import SMALL


class StarterScene(ExplainerScene):
    """Every token as an arrow from the origin, then the length of each arrow at its tip."""

    explains_one_head = False  # it draws the embeddings, not one head's vectors

    def construct(self):
        plane_box, self.list_box = self.regions.content.columns(3, 1)
        self.panel = self.kit.titled_plane(plane_box, "X", self.say("starter_heading"))
        self.show_tokens()
        self.show_lengths()

    def show_tokens(self):
        """Step 1: the plane, then each token's arrow and label."""
        panel, ex = self.panel, self.example
        self.step("tokens", n=ex.n)
        colors = [self.q_color(i) for i in range(ex.n)]
        self.arrows = panel.plane.arrows(panel.coords, colors)
        self.labels = panel.plane.tip_labels(panel.coords, self.q_tokens, colors, panel.box)
        self.play(FadeIn(panel))
        self.play(
            LaggedStart(*(grow(a) for a in self.arrows), lag_ratio=0.3),
            LaggedStart(*(FadeIn(t) for t in self.labels), lag_ratio=0.3),
            run_time=min(4, 1 + 0.4 * ex.n),
        )
        self.hold()

    def show_lengths(self):
        """Step 2: |x| of each token, listed beside the plane — numbers from the core (the role
        ``("norm_x", i)`` names which), each line in its token's colour."""
        self.step("lengths")
        lines = VGroup()
        for i, token in enumerate(self.q_tokens):
            colour = self.q_color(i)
            value = self.num(ac.norm(self.trace.X[i]), ("norm_x", i), color=colour)
            lines.add(VGroup(self.kit.label(token, SMALL, colour), value).arrange(RIGHT, buff=0.2))
        lines.arrange(DOWN, aligned_edge=[-1, 0, 0], buff=0.12)
        place(lines, self.list_box, "left")
        self.play(LaggedStart(*(FadeIn(line) for line in lines), lag_ratio=0.2), run_time=1)
        self.hold()
