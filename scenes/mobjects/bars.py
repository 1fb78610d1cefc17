"""Bars: a proportion bar (shares of one whole) and simple histograms."""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Line, Rectangle, VGroup

from scenes.mobjects.text import Num
from scenes.mobjects.theme import SMALL, Theme


class ProportionBar(VGroup):
    """One bar of ``width`` split into coloured parts in proportion to ``shares`` (sum 1).

    Each part large enough gets its share written under it (a :class:`Num` with ``roles[j]``);
    shares too narrow to label stay unlabelled (their value is in the matrix beside).

    Parameters
    ----------
    shares : array_like
        The parts of one whole (a row of softmax weights).
    colors : sequence of colours
        One per part.
    width : float
        The whole bar's width (scene units).
    theme : Theme
    roles : sequence of tuple, optional
        The role of each share's number; without roles no numbers are written.
    height : float
        The bar's height.
    digits : int
        Decimals of the numbers.
    show_numbers : bool
        False draws the bar alone (its numbers shown elsewhere).

    Examples
    --------
    .. code-block:: python

        from manim import Scene

        from scenes.mobjects.bars import ProportionBar
        from scenes.mobjects.theme import THEMES

        class SharesExample(Scene):
            def construct(self):
                theme = THEMES["dark"]
                shares = [0.6, 0.3, 0.1]
                colors = [theme.token(j) for j in range(3)]
                roles = [("weights", 0, 0, j) for j in range(3)]
                bar = ProportionBar(shares, colors, 6.0, theme, roles=roles)
                self.add(bar.move_to([0, 0, 0]))
    """

    def __init__(
        self,
        shares,
        colors,
        width: float,
        theme: Theme,
        roles=None,
        height=0.45,
        digits: int = 3,
        show_numbers: bool = True,
    ):
        super().__init__()
        shares = np.asarray(shares, dtype=float)
        self.parts = VGroup()
        self.numbers = VGroup()
        x = 0.0
        for j, (s, c) in enumerate(zip(shares, colors)):
            w = max(float(s) * width, 0.0)
            rect = Rectangle(
                width=max(w, 1e-4),
                height=height,
                stroke_width=1 if w > 0.02 else 0,
                stroke_color=theme.background,
                fill_color=c,
                fill_opacity=1,
            )
            rect.move_to([x + w / 2, 0, 0])
            self.parts.add(rect)
            if show_numbers and roles is not None:
                num = Num(s, roles[j], digits, SMALL, theme.text)
                num.next_to(rect, DOWN, buff=0.1)
                if num.width < w - 0.04 or (w > 0.02 and len(shares) == 1):
                    self.numbers.add(num)
            x += w
        self.outline = Rectangle(
            width=width, height=height, stroke_color=theme.text, stroke_width=2
        ).move_to([width / 2, 0, 0])
        self.add(self.parts, self.outline, self.numbers)


def histogram(samples, edges, width: float, height: float, color, theme: Theme, peak=None):
    """Bars of the sample counts over ``edges``, scaled so that ``peak`` counts fill ``height``."""
    counts, _ = np.histogram(samples, bins=edges)
    peak = peak or max(counts.max(), 1)
    bw = width / (len(edges) - 1)
    bars = VGroup()
    for b, c in enumerate(counts):
        h = height * c / peak
        if h <= 0:
            continue
        bars.add(
            Rectangle(
                width=bw * 0.92, height=h, stroke_width=0, fill_color=color, fill_opacity=0.9
            ).move_to([(b + 0.5) * bw, h / 2, 0])
        )
    base = Line([0, 0, 0], [width, 0, 0], color=theme.axis, stroke_width=2)
    return VGroup(base, bars)


def weight_rows(rows, width: float, theme: Theme, height: float = 0.4, gap: float = 0.35):
    """Rows of softmax weights drawn as proportion bars coloured on the fixed 0–1 weight scale
    (:func:`scenes.mobjects.theme.heat`), each with a tag on its left and facts on its right.

    Parameters
    ----------
    rows : sequence of (Mobject, array_like, sequence of tuple, Mobject)
        Per row: its tag, its weights, the weights' roles, and the facts shown right of it.
    width : float
        The width of every bar.
    theme : Theme
    height, gap : float
        A bar's height, and the space between rows.

    Returns
    -------
    VGroup
        One VGroup(tag, bar, facts) per row; the bars start at one x and the facts at another.

    Examples
    --------
    .. code-block:: python

        from manim import Scene

        from scenes.mobjects.bars import weight_rows
        from scenes.mobjects.text import label
        from scenes.mobjects.theme import THEMES

        class RowsExample(Scene):
            def construct(self):
                theme = THEMES["dark"]
                rows = [
                    (label("早", 26), [0.7, 0.3], [("weights", 0, 0, j) for j in range(2)],
                     label("max 0.70", 22)),
                    (label("好", 26), [0.4, 0.6], [("weights", 0, 1, j) for j in range(2)],
                     label("max 0.60", 22)),
                ]
                self.add(weight_rows(rows, 5.0, theme).move_to([0, 0, 0]))
    """

    out = VGroup()
    tag_w = max(r[0].width for r in rows)
    for tag, weights, roles, facts in rows:
        bar = _heat_bar(weights, roles, width, theme, height)
        tag.next_to(bar, LEFT, buff=0.25 + tag_w - tag.width)
        facts.next_to(bar, RIGHT, buff=0.3)
        out.add(VGroup(tag, bar, facts))
    out.arrange(DOWN, buff=gap, aligned_edge=LEFT)
    return out


def _heat_bar(weights, roles, width: float, theme: Theme, height: float) -> ProportionBar:
    """A row of weights as one proportion bar, each part coloured on the 0–1 weight scale."""
    from scenes.mobjects.theme import heat

    return ProportionBar(
        weights,
        [heat(float(w)) for w in weights],
        width,
        theme,
        roles=roles,
        height=height,
        show_numbers=False,
    )


def score_row_panel(scene, box):
    """The d = 64 row through softmax, unscaled and ÷√64 (the core's seeded row), as two weight
    bars on the fixed scale with max and Σ s(1−s) beside each: what the Scaling and Softmax
    scenes show. ``scene`` is the ExplainerScene (its numbers, words and theme).
    Returns (values for the caption, heading, the two rows, colour bar), laid out in ``box``."""
    import attention_core as ac
    from scenes.mobjects.layout import place
    from scenes.mobjects.matrix import ColorBar
    from scenes.mobjects.theme import BODY

    theme = scene.theme
    row = ac.random_score_row()
    n = row.raw.shape[0]
    stats = {which: _row_stats(scene, row, which) for which in ("raw", "scaled")}
    heading = scene.typeset("row64_heading", BODY, theme.text, n=n, d=row.d)
    tags = _row_tags(scene, row.d)
    fact_mobs = {w: _row_facts(theme, *stats[w][1:]) for w in ("raw", "scaled")}
    spare = (
        box.width - max(t.width for t in tags.values()) - max(f.width for f in fact_mobs.values())
    )
    bar_w = max(min(spare - 0.8, 7.0), 1.5)
    rows = [
        (tags[w], stats[w][0], [(f"row64_weight_{w}", j) for j in range(n)], fact_mobs[w])
        for w in ("raw", "scaled")
    ]
    # a square or 4:3 box: taller bars, farther apart (a third of a 1:1 frame stayed empty)
    tall = box.width < 2.2 * box.height
    panel = weight_rows(rows, bar_w, theme, height=0.8 if tall else 0.5, gap=0.6)
    cbar = ColorBar(theme, width=min(2.4, bar_w * 0.6))
    group = VGroup(heading, panel, cbar).arrange(DOWN, aligned_edge=LEFT, buff=0.45)
    if tall:  # the rows and the colour bar spread over the height left
        free = box.height - group.height
        buff = float(np.clip(0.6 + free / 3, 0.6, 1.4))
        panel.arrange(DOWN, buff=buff, aligned_edge=LEFT)
        group.arrange(DOWN, aligned_edge=LEFT, buff=float(np.clip(0.45 + free / 4, 0.45, 1.0)))
    place(group, box)
    values = dict(
        n=n,
        d=row.d,
        maxraw=stats["raw"][1].shown,
        graw=stats["raw"][2].shown,
        maxscaled=stats["scaled"][1].shown,
        gscaled=stats["scaled"][2].shown,
    )
    return values, heading, panel, cbar


def _row_stats(scene, row, which: str):
    """The softmax weights of the d = 64 row (``which``: "raw" or "scaled"), and its largest
    weight and Σ s(1 − s) as numbers on screen."""
    import attention_core as ac

    theme = scene.theme
    w = ac.softmax(row.raw if which == "raw" else row.scaled)
    largest = scene.num(w.max(), (f"row64_max_{which}",), 3, size=SMALL, color=theme.text)
    saturation = scene.num(
        ac.saturation(w), (f"row64_saturation_{which}",), 3, size=SMALL, color=theme.accent
    )
    return w, largest, saturation


def _row_tags(scene, d: int) -> dict:
    """The tags left of the two bars: "raw" and ÷√d."""
    from scenes.mobjects.math import math
    from scenes.mobjects.text import label
    from scenes.mobjects.theme import BODY

    return {
        "raw": label(scene.say("raw"), BODY, scene.theme.muted),
        "scaled": math(f"div sqrt({d})", BODY * 1.3, scene.theme.accent),
    }


def _row_facts(theme: Theme, largest, saturation) -> VGroup:
    """ "max = …" over "Σ s(1−s) = …", right of a bar."""
    from scenes.mobjects.text import label

    return VGroup(
        VGroup(label("max =", SMALL, theme.text), largest).arrange(buff=0.1, aligned_edge=DOWN),
        VGroup(label("Σ s(1−s) =", SMALL, theme.accent), saturation).arrange(
            buff=0.1, aligned_edge=DOWN
        ),
    ).arrange(DOWN, aligned_edge=LEFT, buff=0.12)


def masked_marker(width: float, height: float, theme: Theme) -> VGroup:
    """A blocked key where a bar would stand: the mask's look (the background, a muted outline,
    as CausalMask covers a blocked cell) crossed by one diagonal — no bar, its e^s is 0."""
    box = Rectangle(
        width=width,
        height=height,
        fill_color=theme.background,
        fill_opacity=0.75,
        stroke_color=theme.muted,
        stroke_width=2,
    )
    cross = Line(box.get_corner(DOWN + LEFT), box.get_corner(UP + RIGHT), stroke_width=2)
    return VGroup(box, cross.set_color(theme.muted))


def anchored_row(labels, xs, y: float, x0: float, x1: float, gap: float = 0.15):
    """Place ``labels`` in one row centred on height ``y``, each as near as the others let it
    to its anchor's x (``xs``), none overlapping, all within [x0, x1]. Returns the shift of
    each label's centre from its anchor (0 where it sits on it); False where the row is wider
    than [x0, x1]."""
    order = sorted(range(len(labels)), key=lambda k: xs[k])
    widths = [labels[k].width for k in order]
    if sum(widths) + gap * max(len(order) - 1, 0) > x1 - x0 + 1e-9:
        return False
    lefts = []
    for n, k in enumerate(order):  # left to right, each after the one before
        left = max(xs[k] - widths[n] / 2, x0, lefts[-1] + widths[n - 1] + gap if lefts else x0)
        lefts.append(left)
    for n in range(len(order) - 1, -1, -1):  # then back from the right edge
        limit = x1 if n == len(order) - 1 else lefts[n + 1] - gap
        lefts[n] = min(lefts[n], limit - widths[n])
    shifts = [0.0] * len(labels)
    for n, k in enumerate(order):
        labels[k].move_to([lefts[n] + widths[n] / 2, y, 0])
        shifts[k] = lefts[n] + widths[n] / 2 - xs[k]
    return shifts


def leader_lines(labels, anchors, colors, tol=0.08) -> VGroup:
    """A thin line from each label moved off its anchor (``anchors``: the point it names,
    on its bar or segment) by more than ``tol`` (one for all, or one per label) to that
    anchor, in the label's colour: from the label's edge that faces the anchor."""
    lines = VGroup()
    tols = list(tol) if isinstance(tol, (list, tuple)) else [tol] * len(labels)
    for lab, (ax, ay), c, t in zip(labels, anchors, colors, tols):
        if abs(lab.get_center()[0] - ax) <= t:
            continue
        below = lab.get_center()[1] < ay
        start = lab.get_top() if below else lab.get_bottom()
        line = Line(start, [ax, ay, 0], color=c, stroke_width=1.5)
        line.label = lab  # the label it leads from
        lines.add(line)
    return lines
