"""HeadGallery: every head of a layer as a small heatmap on the one 0–1 scale, each with a
one-line reading computed from its weights (the previous token, the next one, [CLS], itself, or
spread) — the multi-head point made with a trained model (`attn-explain from-model … --all-heads`)
or any example with several heads."""

from __future__ import annotations

import math

from manim import DOWN, LaggedStart, Rectangle, SurroundingRectangle, VGroup

import attention_core as ac
from scenes.base import ExplainerScene
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import Box, place
from scenes.mobjects.matrix import ColorBar
from scenes.mobjects.text import label
from scenes.mobjects.theme import SMALL, heat

PATTERN_WORDS = {  # the reading's pattern in a few words (zh, en)
    "previous": ("前一个词", "previous"),
    "next": ("后一个词", "next"),
    "first": ("第一个词", "first"),
    "cls": ("[CLS]", "[CLS]"),
    "sep": ("[SEP]", "[SEP]"),
    "self": ("自己", "itself"),
    "spread": ("分散", "spread"),
}


PATTERN_PHRASES = {  # the same in a sentence (zh, en)
    **PATTERN_WORDS,
    "previous": ("前一个词", "the previous token"),
    "next": ("后一个词", "the next token"),
    "first": ("第一个词", "the first token"),
}
SPREAD_BELOW = 0.35  # a head whose strongest pattern holds less average weight is "spread"


def head_readings(trace: ac.ExampleTrace) -> list[ac.HeadReading]:
    """One reading per head, from its weights (and the tokens, for [CLS] and [SEP])."""
    tokens = trace.example.tokens
    return [ac.read_head(h.weights, tokens, SPREAD_BELOW) for h in trace.heads]


def strongest(reading: ac.HeadReading) -> str:
    """The pattern holding the most average weight (also for a spread head)."""
    return max(reading.masses, key=reading.masses.get)


class HeatGrid(VGroup):
    """A head's weights as coloured cells only (small multiples: the numbers are in the
    AttentionMatrix scene), on the fixed 0–1 scale."""

    def __init__(self, weights, size: float, theme):
        super().__init__()
        m, n = weights.shape
        cell = size / max(m, n)
        for i in range(m):
            for j in range(n):
                rect = Rectangle(
                    width=cell,
                    height=cell,
                    stroke_width=0.5,
                    stroke_color=theme.background,
                    fill_opacity=1,
                    fill_color=heat(float(weights[i, j])),
                )
                rect.move_to([(j + 0.5) * cell, -(i + 0.5) * cell, 0])
                self.add(rect)


class HeadGallery(ExplainerScene):
    """Many heads, many patterns: each head's weights and what it attends to."""

    explains_one_head = False

    def construct(self):
        tr, theme = self.trace, self.theme
        if self.example.is_cross:  # never rendered by default: it says so, if asked for
            self.step("cross")
            return
        H = len(tr.heads)
        readings = head_readings(tr)
        lang_index = 0 if self.lang == "zh" else 1
        content = self.regions.content
        grid_box, bar_box = content.rows(9, 1, gap=0.15)
        cols = max(1, min(H, round(math.sqrt(H * grid_box.width / grid_box.height))))
        rows = math.ceil(H / cols)
        col_boxes = grid_box.columns(*([1] * cols), gap=0.25)
        panels = VGroup()
        for h in range(H):
            r, c = divmod(h, cols)
            cb = col_boxes[c]
            cell_h = (grid_box.height - 0.2 * (rows - 1)) / rows
            top = grid_box.y1 - r * (cell_h + 0.2)
            box = Box(cb.x0, top - cell_h, cb.x1, top)
            reading = readings[h]
            # above each head: where it looks most, and the average weight it puts there
            word = "→ " + PATTERN_WORDS[strongest(reading)][lang_index]
            head_name = label(self.say("head_n", h=h + 1), SMALL, theme.text)
            mass = self.num(max(reading.masses.values()), ("head_mass", h), 2, color=theme.accent)
            line = VGroup(head_name, label(word, SMALL, theme.muted), mass).arrange(buff=0.12)
            if line.width > box.width:  # a narrow panel: the head's number alone
                number = label(f"{h + 1}", SMALL, theme.text)
                line = VGroup(number, label(word, SMALL, theme.muted), mass).arrange(buff=0.12)
            if line.width > box.width:
                line = VGroup(label(word, SMALL, theme.muted), mass).arrange(buff=0.12)
            side = max(0.3, min(box.width, box.height - line.height - 0.12))
            grid = HeatGrid(tr.heads[h].weights, side, theme)
            panel = VGroup(line, grid).arrange(DOWN, buff=0.1)
            panel.reading = reading
            panels.add(place(panel, box, "top"))
        bar = ColorBar(theme, "weights", width=min(4.0, bar_box.width))
        place(bar, bar_box)

        self.step("gallery", H=H)
        self.play(
            LaggedStart(*(FadeIn(p, shift=0.15 * DOWN) for p in panels), lag_ratio=0.08),
            FadeIn(bar),
            run_time=min(4.0, 1.0 + 0.25 * H),
        )

        # the heads grouped by what they do: the most common reading lit first
        counts: dict[str, int] = {}
        for r in readings:
            counts[r.pattern] = counts.get(r.pattern, 0) + 1
        order = sorted(counts, key=lambda p: -counts[p])
        sep = self.say("tokens_list_sep")
        summary = sep.join(
            self.say(
                ("heads_spread" if p == "spread" else "heads_on")
                + ("_1" if counts[p] == 1 else ""),
                n=counts[p],
                what=PATTERN_PHRASES[p][lang_index],
            )
            for p in order
        )
        lit = PATTERN_PHRASES[next((p for p in order if p != "spread"), order[0])][lang_index]
        self.step("reading", summary=summary, lit=lit)
        # the heads with a clear pattern are the point: the most common one is lit
        common = next((p for p in order if p != "spread"), order[0])
        marks = VGroup(
            *(
                SurroundingRectangle(p, color=theme.accent, buff=0.06, stroke_width=3)
                for p in panels
                if p.reading.pattern == common
            )
        )
        self.play(LaggedStart(*(FadeIn(m) for m in marks), lag_ratio=0.1), run_time=1.2)
