"""Softmax's last steps (mixin of :class:`scenes.softmax_scene.Softmax`): the followed row's
scores multiplied (scaled, unscaled, ×10, ×100) with Σ s(1 − s) beside each bar, then one row
where scaling decides whether softmax saturates (the followed row's own where it does, else the
core's seeded d = 64 row)."""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, VGroup

import attention_core as ac
from scenes.kit.roles import HeadRole
from scenes.mobjects.bars import score_row_panel
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.layout import MARGIN, Box, place
from scenes.mobjects.math import math
from scenes.mobjects.text import label
from scenes.mobjects.theme import BODY, SMALL


def sharpen_factors(d_k: int) -> list[tuple[str, float]]:
    """The multipliers of the side panel: scaled (×1), unscaled (×√d_k), then ×10 and ×100."""
    out = [("×1", 1.0)]
    if d_k > 1:
        out.append(("√d_k", float(np.sqrt(d_k))))
    out += [("×10", 10.0), ("×100", 100.0)]
    return out


class SharperSteps:
    """Softmax's sharper and saturation steps."""

    # -- sharper: the same scores multiplied, with Σ s(1 − s) --------------------------------
    def sharper(self):
        head, theme, i = self.head, self.theme, self.i
        side_box = self.rows_and_side()[1]
        factors = sharpen_factors(head.d_k)
        panel, gauges, shown = self.sharper_bars(factors, self.sharper_tags(factors), side_box)
        claim = ac.readings.claims.sharpening(self.row, head.d_k)
        self.step(
            "sharper",
            caption_key=f"sharper_{claim.kind}",
            clear=self.narrow_frame,  # the rows took the whole frame
            dk=self.num(head.d_k, HeadRole("d_k", self.h), 0).shown,
            sqrt=self.num(np.sqrt(head.d_k), HeadRole("sqrt_dk", self.h), 2).shown,
            g1=shown["×1"],
            graw=shown.get("√d_k", ""),
            g10=shown["×10"],
            g100=shown["×100"],
        )
        g_head = label("Σ s(1−s)", SMALL, theme.accent)
        room = min(2.5, max(0.9, side_box.width - g_head.width - 1.5))  # clear of Σ s(1−s)
        q = self.kit.fit_label(self.q_tokens[i], room, SMALL)
        heading = label(f"q({q})", SMALL, self.q_color(i))
        if head.d_k > 1:  # the d_k the caption names, after the row's name
            dk_value = self.num(head.d_k, HeadRole("d_k", self.h), 0, color=theme.muted)
            dk = VGroup(math("d_k =", SMALL, theme.muted), dk_value).arrange(buff=0.1)
        else:
            dk = VGroup()
        side = VGroup(heading, panel).arrange(DOWN, aligned_edge=LEFT, buff=0.2)
        place(side, Box(side_box.x0, side_box.y0, side_box.x1 - 0.9, side_box.y1), "left")
        for g, p in zip(gauges, panel):
            g.next_to(p, RIGHT, buff=0.2)
        g_head.next_to(gauges[0], UP, buff=0.2).align_to(gauges[0], LEFT)
        if g_head.get_right()[0] > self.frame.x1 - MARGIN:  # a narrow frame: flush right
            g_head.align_to(gauges[0], RIGHT)
        if heading.get_right()[0] > g_head.get_left()[0] - 0.15:  # a whole followed label:
            heading.next_to(g_head, UP, buff=0.12).align_to(panel, LEFT)  # a line of its own
        if len(dk):  # under the bars, right-aligned with their tags
            side.add(dk.next_to(panel, DOWN, buff=0.25).align_to(panel, LEFT))
        self.play(FadeIn(side, lag_ratio=0.2), run_time=1.5)
        self.play(FadeIn(g_head), *(FadeIn(g, shift=0.1 * LEFT) for g in gauges), run_time=1.2)
        self.hold()

    def sharper_tags(self, factors) -> list:
        """The name of each factor's row ("×1", "unscaled ×1.41", "×10", …)."""
        theme, tags = self.theme, []
        for name, f in factors:
            tag = label(name, SMALL, theme.text)
            if name == "√d_k":  # "unscaled ×1.41": the factor the caption names
                tag = VGroup(
                    label(self.say("raw"), SMALL, theme.text),
                    VGroup(
                        label("×", SMALL, theme.text), self.num(f, HeadRole("sqrt_dk", self.h), 2)
                    ).arrange(buff=0.04),
                ).arrange(buff=0.12)
            tags.append(tag)
        return tags

    def sharper_bars(self, factors, tags, side_box):
        """The followed row's weights with its scores multiplied by each factor, one bar each
        after its tag, and their Σ s(1 − s) gauges (placed later): (panel, gauges, the gauges'
        shown numbers by factor name)."""
        theme, i, keys, colors = self.theme, self.i, self.keys, self.colors
        panel, gauges, shown = VGroup(), [], {}
        gauge_w = self.num(0.0, (), 3).width
        # the bars take what the tags and the gauges (0.000, on their right) leave
        bar_w = side_box.width - max(t.width for t in tags) - gauge_w - 1.0
        if bar_w < 1.5 and len(tags[1]) == 2:  # a narrow frame: "unscaled" over "×1.41"
            tags[1].arrange(DOWN, aligned_edge=RIGHT, buff=0.05)
            bar_w = side_box.width - max(t.width for t in tags) - gauge_w - 1.0
        # the bars as tall as the room allows, 0.32–0.7 (thin, they left a 1:1 frame half blank)
        per_row = (side_box.height - 1.3) / len(factors)
        height = float(np.clip(per_row * 0.55, 0.32, 0.7))
        buff = float(np.clip(per_row - height, 0.3, 0.6))
        for tag, (name, f) in zip(tags, factors):
            s = ac.sharpened(self.row, f)
            b = self.kit.proportion_bar(
                s,
                colors,
                bar_w,
                height=height,
                roles=[HeadRole(f"sharpened{self.sfx}", self.h, i, f, j) for j in keys],
                show_numbers=False,
            )
            role = HeadRole(f"gradient_sum{self.sfx}", self.h, i, f)
            g = self.num(ac.saturation(s), role, 3, color=theme.accent)
            gauges.append(g)
            shown[name] = g.shown
            panel.add(VGroup(tag, b).arrange(RIGHT, buff=0.15))
        panel.arrange(DOWN, aligned_edge=RIGHT, buff=buff)
        return panel, gauges, shown

    # -- saturation: one d = 64 row, unscaled and ÷√64 -------------------------------------------
    def row64(self):
        claim = ac.saturation_claim(self.row, self.head.d_k)
        if claim.kind == "saturated":  # the followed row itself saturates: show it
            self.followed_saturation()
            return
        content = self.regions.content
        ours = self.followed_shares(content)  # at the top, the seeded row in the room under it
        rest = Box(content.x0, content.y0, content.x1, ours.get_bottom()[1] - 0.4)
        values, heading, panel, cbar = score_row_panel(self, rest)
        self.step("saturation", clear=True, **values)
        self.play(FadeIn(ours), FadeIn(heading), FadeIn(cbar), FadeIn(panel[0]), run_time=1.2)
        self.play(FadeIn(panel[1]), run_time=1.2)
        self.hold(1.6)

    def followed_shares(self, box: Box) -> VGroup:
        """The followed row's shares as the share step drew them (q(…): e^s / Σ e^s, its bar),
        its followed key (else its largest) named with its weight over its segment, in ``box``:
        over the seeded d = 64 row, the last still keeps the story (issue 38: at the limits it
        held a random row alone, without explanations → notes 0.489)."""
        i, theme = self.i, self.theme
        w = ac.softmax(self.row)
        pair = ac.followed_pair(self.trace)
        top = pair.key if pair is not None and pair.query == i else int(np.argmax(w))
        head = VGroup(
            label(f"q({self.kit.fit_label(self.q_tokens[i], 2.5, BODY)}):", BODY, self.q_color(i)),
            math("e^s \\/ inline(sum e^s)", BODY * 1.2, self.q_color(i)),
        ).arrange(buff=0.15)
        role = f"sharpened{self.sfx}"
        bar = self.kit.proportion_bar(
            w,
            self.colors,
            box.width - 1.0,
            roles=[HeadRole(role, self.h, i, 1.0, j) for j in self.keys],
            height=0.35,
            show_numbers=False,
        )
        weight = self.num(w[top], HeadRole(role, self.h, i, 1.0, top), 3, color=theme.text)
        named = VGroup(label(self.k_tokens[top], SMALL, self.colors[top]), weight).arrange(buff=0.1)
        named.next_to(bar.parts[top], UP, buff=0.1)
        group = VGroup(head, VGroup(bar, named)).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        named.next_to(bar.parts[top], UP, buff=0.1)
        named.shift(RIGHT * max(0.0, bar.get_left()[0] - named.get_left()[0]))
        named.shift(LEFT * max(0.0, named.get_right()[0] - bar.get_right()[0]))
        return place(group, box, "top-left")

    def followed_saturation(self):
        """The followed row's own shares, divided by √d_k and not (its scores × √d_k): each bar
        with its largest key labelled on its segment, and max and Σ s(1 − s) beside it."""
        head, theme, i = self.head, self.theme, self.i
        box = self.regions.content
        tags = {
            "scaled": math(f"div sqrt({head.d_k})", BODY * 1.3, theme.accent),
            "raw": label(self.say("raw"), BODY, theme.muted),
        }
        factors = {"scaled": 1.0, "raw": float(np.sqrt(head.d_k))}
        facts, values = self.saturation_facts(factors)
        self.step("saturation_followed", clear=True, **values)
        tag_w = max(t.width for t in tags.values())
        # a square or 4:3 frame: the facts on one line under each bar, the bars wide and tall
        # (beside them, a third of the frame stayed empty; issue 38)
        narrow = box.width < 2.2 * box.height
        if narrow:
            for f in facts.values():
                f.arrange(RIGHT, buff=0.5)
        side = 0.5 if narrow else max(f.width for f in facts.values()) + 1.0
        bar_w = box.width - tag_w - side
        rows = VGroup()
        for name, f in factors.items():
            s = ac.sharpened(self.row, f)
            bar = self.kit.proportion_bar(
                s,
                self.colors,
                bar_w,
                roles=[HeadRole(f"sharpened{self.sfx}", self.h, i, f, j) for j in self.keys],
                height=0.8 if narrow else 0.45,
                show_numbers=False,
            )
            top = int(np.argmax(s))
            key = label(self.k_tokens[top], SMALL, self.colors[top])
            key.next_to(bar.parts[top], UP, buff=0.12)
            tags[name].next_to(bar, LEFT, buff=0.3 + tag_w - tags[name].width)
            if narrow:
                facts[name].next_to(bar, DOWN, buff=0.2).align_to(bar, LEFT)
            else:
                facts[name].next_to(bar, RIGHT, buff=0.3)
            rows.add(VGroup(tags[name], bar, key, facts[name]))
        rows.arrange(DOWN, buff=0.8, aligned_edge=LEFT)
        if narrow:  # the rows spread over the height the heading leaves
            free = box.height - rows.height - 0.9
            rows.arrange(DOWN, buff=float(np.clip(0.8 + free / 2, 0.8, 1.6)), aligned_edge=LEFT)
        dk = VGroup(
            math("d_k =", SMALL, theme.muted), self.num(head.d_k, HeadRole("d_k", self.h), 0)
        )
        heading = VGroup(
            label(f"q({self.q_tokens[i]})", BODY, self.q_color(i)), dk.arrange(buff=0.1)
        ).arrange(buff=0.5)
        place(VGroup(heading, rows).arrange(DOWN, aligned_edge=LEFT, buff=0.4), box)
        self.play(FadeIn(heading), FadeIn(rows[0]), run_time=1.2)
        self.play(FadeIn(rows[1]), run_time=1.2)
        self.hold(1.6)

    def saturation_facts(self, factors: dict):
        """ "max = …" over "Σ s(1−s) = …" for each factor's bar, and the caption's values."""
        head, theme, i = self.head, self.theme, self.i
        facts = {}
        values = {"q": self.q_tokens[i], "dk": self.num(head.d_k, HeadRole("d_k", self.h), 0).shown}
        for name, f in factors.items():
            s = ac.sharpened(self.row, f)
            top = int(np.argmax(s))
            big = self.num(
                s[top], HeadRole(f"sharpened{self.sfx}", self.h, i, f, top), 3, color=theme.text
            )
            g = self.num(ac.saturation(s), HeadRole(f"gradient_sum{self.sfx}", self.h, i, f), 3)
            g.set_color(theme.accent)
            facts[name] = VGroup(
                VGroup(label("max =", SMALL, theme.text), big).arrange(buff=0.1),
                VGroup(label("Σ s(1−s) =", SMALL, theme.accent), g).arrange(buff=0.1),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
            values[f"max{name}"], values[f"g{name}"] = big.shown, g.shown
        return facts, values
