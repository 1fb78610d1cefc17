"""HeadGallery: every head of a layer as a small heatmap on the one 0–1 scale, each titled with its
number and its reading (the previous token, the next one, the first, [CLS], [SEP], itself, one
fixed token; without such a habit sharp or diffuse, by its rows' entropy) — the multi-head point
made with a trained model (`attn-explain from-model … --all-heads`) or any example with several
heads.

The readings come from :func:`attention_core.read_head` alone (one threshold: half the weight on
average), so the titles and the caption always agree. Token labels sit on the heatmaps' axes
where they fit at the smallest text size, else once on one head drawn large beside the gallery
(or, where that leaves the others too small, in order along the gallery's bottom edge)."""

from __future__ import annotations

import math

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    DashedVMobject,
    LaggedStart,
    Rectangle,
    SurroundingRectangle,
    VGroup,
)

import attention_core as ac
from attention_core.readings import head_kinds
from attention_core.readings.head_groups import group_heads, layer_reading, top_link
from scenes.kit import captions
from scenes.kit.base import ExplainerScene
from scenes.mobjects.fades import FadeIn
from scenes.mobjects.heat_grid import HeatGrid
from scenes.mobjects.layout import Box, place
from scenes.mobjects.text import caption_pages, ellipsize, label, text_width, wrap_lines
from scenes.mobjects.theme import SMALL
from scenes.parts.head_gallery_heads import GalleryHeads, clauses, named_token, sentence_heads

# a reading's words (zh, en), each reading's entry in attention_core.readings.head_kinds: in a
# title ("fixed" names its token), shorter for a narrow panel, in a sentence, and named a second
# time (no parenthesis)
PATTERN_WORDS = head_kinds.words("name", "both")
SHORT_WORDS = head_kinds.words("short", "both")
PATTERN_PHRASES = head_kinds.words("phrase", "both")
LIT_PHRASES = head_kinds.words("lit", "both")
LABEL_GAP = 0.06  # between a heatmap and its axis labels
REACH = 0.24  # how far a title of two lines may reach into the gaps (0.25) beside its panel
LEAST_SIDE = 0.5  # a small heatmap narrower than this (68 px at 1080p): no head drawn large
BESIDE = 0.15  # between a heatmap and its title beside it (a lit head's outline between them)
MARK_BUFF = 0.04  # a lit head's dashed outline round its heatmap
BESIDE_LEAD = 0.04  # between the lines of a title beside its heatmap (4 lines in a 160 px row)


def head_readings(trace: ac.ExampleTrace) -> list[ac.HeadReading]:
    """One reading per head: what it does on this sentence, its rows read by
    :func:`attention_core.read_head` with its one threshold (the model-level scores the example
    carries are said second, where they name another habit: :func:`score_notes`)."""
    return [r for r, _ in sentence_heads(trace)]


def _wrapped(text: str, width: float, most: int) -> list[str]:
    """``text`` broken to ``width`` (at most ``most`` lines); a split reading in Chinese
    ("前词元+首词元") only after its "+", never inside either habit's word."""
    if (
        "+" in text
        and text_width(text, SMALL) > width
        and any("\u4e00" <= c <= "\u9fff" for c in text)
    ):
        a, _, b = text.partition("+")
        return [a + "+", b]
    return wrap_lines(text, width, SMALL, max_lines=most)


def _units(text: str) -> list[str]:
    """The pieces a reading never breaks inside: words; in Chinese, a word of up to 4
    characters ("前一词元") or, in a longer one, the characters before a parenthesis and the
    parenthesis ("首词元", "（汇聚）")."""
    if any("\u4e00" <= c <= "\u9fff" for c in text):
        pieces = text.replace("（", "\n（").replace("+", "+\n").split("\n")
        return [q for p in pieces for q in ([p] if len(p) <= 4 else list(p))]
    return text.split()


def axis_labels(grid: HeatGrid, rows, cols, row_colors, col_colors, rotate: bool) -> VGroup:
    """Row labels left of ``grid``, column labels above it (with ``rotate``, those wider than a
    cell turned upright)."""
    out = VGroup()
    cell = grid.cell
    left, top = grid.get_left()[0], grid.get_top()[1]
    for i, (t, c) in enumerate(zip(rows, row_colors)):
        lab = label(t, SMALL, c)
        lab.move_to([left - LABEL_GAP - lab.width / 2, top - (i + 0.5) * cell, 0])
        out.add(lab)
    for j, (t, c) in enumerate(zip(cols, col_colors)):
        lab = label(t, SMALL, c)
        if rotate and lab.width > cell:  # turned only when too wide for its column
            lab.rotate(math.pi / 2)
        lab.move_to([left + (j + 0.5) * cell, top + LABEL_GAP + lab.height / 2, 0])
        out.add(lab)
    return out


class HeadGallery(GalleryHeads, ExplainerScene):
    """Many heads, many patterns: each head's weights and what it attends to."""

    explains_one_head = False
    lit_phrases = LIT_PHRASES

    def setup(self):
        super().setup()
        self.slim_square()  # a square frame: two caption lines a page, their room the heads'
        if not self.example.is_cross:  # the title: what the heads do together
            self.retitle(head_readings(self.trace))

    def construct(self):
        if self.example.is_cross:  # never rendered by default: it says so, if asked for
            self.step("cross")
            return
        readings = self.readings = head_readings(self.trace)
        self.score_notes = {h: s for h, (_, s) in enumerate(sentence_heads(self.trace)) if s}
        self.maps = ac.linear_maps(self.trace)  # which query heads share a key/value head
        self.explained = self.example.head_index  # the head every other scene explains
        panels, key, bar = self.fewer_if_small(readings)
        H = len(self.drawn)  # the heads on screen
        self.step(
            "gallery",
            "gallery_grouped" if self.grouped else None,
            H=H,
            G=self.maps.kv_heads,
            threshold=f"{ac.readings.heads.HABIT_AT_LEAST:.1f}",
            rest=self.rest_words(),
            scores=self.scores_said(self.drawn),
        )
        self.play(
            LaggedStart(*(FadeIn(p, shift=0.15 * DOWN) for p in panels), lag_ratio=0.08),
            FadeIn(key),
            FadeIn(bar),
            run_time=min(4.0, 1.0 + 0.25 * H),
        )
        # the heads on screen are counted: a caption never counts a head it does not show
        summary, common = self.summary([readings[h] for h in self.drawn])
        if not head_kinds.reading(common[0]).habitual:  # no head with a habit: nothing to outline
            self.reading_step("reading_none", summary)
            return
        # the group the title's classification outlines (core: LayerReading.outlined)
        lit = layer_reading(readings).outlined
        if lit is None or not set(lit.heads) & set(self.drawn):  # no head differs: no outline
            self.reading_step("reading_alike", summary)
            return
        self.reading_step("reading", summary, lit=self.phrase((lit.pattern, lit.key), LIT_PHRASES))
        # the heads with a clear pattern that differ from the rest are the point: they are lit
        # (dashed: the explained head's frame is solid), their heatmaps outlined close, inside
        # the gaps between panels (issue 38: round the whole panel, 0.14 out, at 1:1 an outline
        # crossed the explained head's frame and the next heatmap, and left the frame)
        marks = VGroup()
        for p in panels:
            if p.head in lit.heads:
                rim = SurroundingRectangle(
                    p[1][0], color=self.theme.accent, buff=MARK_BUFF, stroke_width=3
                )
                marks.add(DashedVMobject(rim, num_dashes=28))
                marks[-1].head = p.head
        self.lit_marks = marks
        self.play(LaggedStart(*(FadeIn(m) for m in marks), lag_ratio=0.1), run_time=1.2)

    # -- words ----------------------------------------------------------------------------------
    def token_name(self, reading: ac.HeadReading) -> str:
        return self.q_tokens[reading.key] if reading.key is not None else ""

    def phrase(self, group: tuple, phrases=PATTERN_PHRASES) -> str:
        pattern, key = group
        lang = 0 if self.lang == "zh" else 1
        token = self.q_tokens[key] if key is not None else ""
        return named_token(phrases[pattern][lang], token, self.lang)

    def summary(self, readings) -> tuple[list[str], tuple]:
        """The heads counted by reading (the most common first), a clause each, and the group to
        outline: the most common habit (not sharp or diffuse)."""
        groups = group_heads(readings)
        text = [self.group_said(g) for g in groups]
        order = [(g.pattern, g.key) for g in groups]
        common = next((g for g in order if head_kinds.reading(g[0]).habitual), order[0])
        return text, common

    def group_said(self, g) -> str:
        """A group counted: "2 attend to the previous token", "6 are diffuse", "9 rest on
        “When”, the first token (3 of them as a sink)"."""
        one = "_1" if len(g.heads) == 1 else ""
        if g.resting:
            k = g.sinks
            sinks = self.say("heads_rest_sinks", k=k) if 0 < k < len(g.heads) else ""
            return self.say("heads_rest" + one, n=len(g.heads), what=self.place(g)) + sinks
        verb = "heads_on" if g.habitual else "heads_are"
        return self.say(verb + one, n=len(g.heads), what=self.phrase((g.pattern, g.key)))

    def reading_step(self, caption_key: str, counts: list[str], **values) -> None:
        """The reading's step, its ``counts`` one sentence where every caption page then ends
        at a sentence's end, else in as few sentences as each fit a page (issue 38: at 1:1,
        two lines a page, "… 1 is split between the" ended a page)."""
        sep, end = self.say("tokens_list_sep"), "；" if self.lang == "zh" else ". "
        width, most = self.regions.caption.width, self.most_caption_lines

        def fits(text: str) -> bool:
            return len(wrap_lines(text, width, SMALL, max_lines=99)) <= most

        def paged(summary: str) -> bool:
            text = self.say_caption(caption_key, summary=summary, **values)
            pages = caption_pages(text, width, SMALL, most)
            return all(p.rstrip()[-1:] in ".!?。！？；" for p in pages)

        sentences = [counts[0]]
        lead = self.say_caption(caption_key, summary="\x00", **values).split("\x00")[0]
        for clause in counts[1:]:
            joined = sentences[-1] + sep + clause
            if fits((lead if len(sentences) == 1 else "") + joined):
                sentences[-1] = joined
            else:
                sentences.append(clause)
        summary = sep.join(counts) if paged(sep.join(counts)) else end.join(sentences)
        self.step("reading", caption_key=caption_key, summary=summary, **values)

    def say_caption(self, key: str, **values) -> str:
        """Step ``key``'s caption in this scene's language, as the caption bar shows it."""
        return captions.caption(self.scene_name, key, self.lang, whole_formulas=True, **values)

    # -- layout ---------------------------------------------------------------------------------
    def reading_block(self, h: int, reading: ac.HeadReading, lines: list[str], width: float):
        """The reading's ``lines`` under the head's name, its average (the weight the queries
        put on the habit's key) after its last line, or on a line of its own where that line
        has no room: the number follows the reading it measures, never the head's index ("3
        0.53" read as one label); a head without a habit has no key to average over, no
        number."""
        theme = self.theme
        parts = [label(t, SMALL, theme.muted) for t in lines]
        if reading.habitual:  # its average on this sentence
            mass = self.num(reading.mass, ("head_mass", h), 2, color=theme.accent)
            if self.mass_apart(lines, width):
                parts.append(mass)
            else:
                parts[-1] = VGroup(parts[-1], mass).arrange(buff=0.1, aligned_edge=DOWN)
        return parts

    @staticmethod
    def mass_apart(lines: list[str], width: float) -> bool:
        """Whether an average "0.00" goes on a line of its own after ``lines`` at ``width``."""
        return text_width(lines[-1], SMALL) + 0.1 + text_width("0.00", SMALL) > width

    def title_line(self, h: int, reading: ac.HeadReading, width: float) -> VGroup:
        """``head 3 → previous 0.98`` on one line where it fits, else ``head 3`` over the
        reading (its average after it) on up to two lines. The reading is never cut: it breaks
        between words, and only one of more than 8 characters is shortened (its short form,
        then "…") when a single word of it is wider than the panel."""
        word = self.reading_word(reading)
        name = self.head_name(h)
        if name.width + 0.12 + text_width(f"→ {word} 0.00", SMALL) + 0.3 <= width:
            parts = self.reading_block(h, reading, [f"→ {word}"], width)
            first = VGroup(name, *parts[:1]).arrange(buff=0.12)
            return VGroup(first, *parts[1:]).arrange(DOWN, buff=0.06)
        # lines under the first may reach into the gap between panels (0.25)
        lines = self.fewest(reading, self.reading_lines(reading, width + REACH), width + REACH)
        parts = self.reading_block(h, reading, lines, width + REACH)
        return VGroup(name, *parts).arrange(DOWN, buff=0.06)

    def reading_word(self, reading: ac.HeadReading, words=PATTERN_WORDS) -> str:
        """A head's reading in words: its pattern's, or for a head told by its resting place
        (no habit, :func:`~attention_core.readings.head_groups.tell_head`) "rests on “When”",
        short "rests" (a narrow panel: the title names the place)."""
        if reading.rests and words is SHORT_WORDS:
            return self.say("gallery_rests_short")
        if reading.rests:
            token = self.q_tokens[reading.key] if reading.key is not None else ""
            where = self.quote(token) if reading.pattern == "sink" else None
            where = where or self.say(f"gallery_place_{reading.pattern}", token="")
            return self.say("gallery_rests", token=where)
        lang = 0 if self.lang == "zh" else 1
        return named_token(words[reading.pattern][lang], self.token_name(reading), self.lang)

    def reading_lines(self, reading: ac.HeadReading, width: float) -> list[str]:
        """The reading in at most two lines of ``width``: whole, broken between words, its
        short form (only for a reading of more than 8 characters), or "…" as the last resort."""
        full = self.reading_word(reading)
        lines = _wrapped(full, width, 2)
        if all(text_width(t, SMALL) <= width for t in lines) or len(full) <= 8:
            return lines
        short = self.reading_word(reading, SHORT_WORDS)
        lines = wrap_lines(short, width, SMALL, max_lines=2)
        return [t if len(t) <= 8 else ellipsize(t, width, SMALL) for t in lines]

    def title_lines(self, width: float) -> int:
        """How many lines the tallest title takes in a panel ``width`` wide (as
        :meth:`title_line` lays them out; an average's width taken as "0.00")."""
        head = self.name_width() + 0.12
        wide = width + REACH
        if all(head + text_width(f"→ {self.reading_word(r)} 0.00", SMALL) + 0.3 <= width
               for r in self.readings):  # fmt: skip
            return 1
        return max(
            1 + len(t) + (r.habitual and self.mass_apart(t, wide))
            for r in self.readings
            for t in [self.fewest(r, self.reading_lines(r, wide), wide)]
        )

    def reading_room(self, readings, words=PATTERN_WORDS) -> float:
        """The narrowest panel every reading keeps whole in: its widest unbreakable word."""
        units = [w for r in readings for t in [self.reading_word(r, words)] for w in _units(t)]
        return max(text_width(w, SMALL) for w in units)

    def beside_words(self, reading: ac.HeadReading, width: float) -> list[str]:
        """A reading beside its heatmap, broken between words to ``width``: whole, or its short
        form where that takes fewer lines with its average ("first (sink)" on two lines:
        "sink")."""
        lines = _wrapped(self.reading_word(reading), width, 9)
        return self.fewest(reading, lines, width)

    def fewest(self, reading: ac.HeadReading, lines: list[str], width: float) -> list[str]:
        """``lines`` (a reading at ``width``), or its short form on one line where that takes
        fewer lines with the average after it."""
        short = self.reading_word(reading, SHORT_WORDS)
        if text_width(short, SMALL) > width:
            return lines
        apart = reading.habitual and self.mass_apart(lines, width)
        short_apart = reading.habitual and self.mass_apart([short], width)
        return [short] if 1 + short_apart < len(lines) + apart else lines

    def label_room(self):
        """(widest token label, tallest one plus a little air) at the smallest text size: a
        cell at least that tall keeps neighbouring labels apart."""
        widths = [text_width(t, SMALL) for t in self.q_tokens]
        heights = [label(t, SMALL).height for t in self.q_tokens + ["Ag"]]
        return max(widths), max(heights) + 0.02

    def labels_fit(self, box: Box, line_h: float) -> tuple[bool, bool, float]:
        """Whether the token labels fit on one panel's axes (and upright, turned), and the
        grid's side then."""
        n = self.example.n
        row_w, text_h = self.label_room()
        flat_side = min(box.width - row_w - LABEL_GAP, box.height - line_h - text_h - 0.2)
        if flat_side > 0 and flat_side / n >= max(text_h, row_w):
            return True, False, flat_side  # column labels as wide as the row labels: flat
        side = min(box.width - row_w - LABEL_GAP, box.height - line_h - row_w - 0.2)
        return side > 0 and side / n >= text_h, True, side

    def build(self, readings):
        """The panels (token labels on their axes where they fit, else on one head drawn large
        beside the gallery), that head (or nothing) and the colour bar."""
        H = len(self.drawn)
        content = self.regions.content
        grid_box, bar_box = content.rows(9, 1, gap=0.15)
        tags = self.group_tags()

        def heads_box(b: Box) -> Box:  # less a column for the key/value heads' names
            return Box(b.x0 + tags.width + 0.25, b.y0, b.x1, b.y1) if len(tags) else b

        above = self.panel_boxes(heads_box(grid_box), H, beside=False)
        panels = self.make_panels(readings, above, labelled=True)
        if panels is not None:  # the labels on every head's axes
            self.large_key = self.in_strip = False
            bar = self.kit.colour_bar("weights", width=min(4.0, bar_box.width))
            place(bar, bar_box)
            return panels, VGroup(self.group_frames(panels, tags)), bar
        # the labels once, on one head drawn large beside the gallery; where that leaves the
        # others too small (or the head drawn large would not fit), the tokens in order instead
        large, strip = self.featured_layout(readings, heads_box), None
        if large is None or large[1][0][1].width < LEAST_SIDE:
            strip = self.strip_layout(readings, heads_box)
            if large is None or strip[1][0][1].width >= 0.9 * large[1][0][1].width:
                large = strip
        self.large_key = large is not strip  # the explained head drawn large, with its pair
        self.in_strip = strip is not None and large is strip
        key, panels, bar, bar_box = large
        place(bar, bar_box)
        return panels, VGroup(key, self.group_frames(panels, tags)), bar

    def featured_layout(self, readings, heads_box):
        """(head drawn large, the panels, the colour bar, its box), or None where the head
        drawn large with its labels would be taller than the content area and the gap under
        it (24 tokens: it ran off the frame)."""
        key_box, grid_box = self.key_split(self.regions.content)  # the key: the full height
        key = self.key_grid(key_box, self.featured(readings))
        if key.height > self.regions.content.height + 0.2:
            return None
        room = key.get_bottom()[1] - key_box.y0 - 0.2  # under the key, in its column
        bar = self.kit.colour_bar("weights", width=min(4.0, key_box.width - 0.2))
        if room >= bar.height + 0.1 and key_box.width >= 2.0:  # the heads: the full height
            bar_box = Box(key_box.x0, key_box.y0, key_box.x1, key.get_bottom()[1] - 0.2)
        else:  # beside or under the gallery
            bar, grid_box, bar_box = self.bar_beside(grid_box)
        boxes = self.panel_boxes(heads_box(grid_box), len(self.drawn))
        return key, self.make_panels(readings, boxes, labelled=False), bar, bar_box

    def strip_layout(self, readings, heads_box):
        """(the tokens in order along the bottom edge, the panels, the colour bar, its box)."""
        strip, room = self.token_strip(self.regions.content)
        best = None
        for upright in (True, False):  # the colour bar where the heatmaps come out larger
            bar, grid_box, bar_box = self.bar_beside(room, upright)
            boxes = self.panel_boxes(heads_box(grid_box), len(self.drawn))
            if best is None or self.panel_side > best[0] + 1e-9:
                best = (self.panel_side, bar, boxes, bar_box)
        _, bar, boxes, bar_box = best
        return strip, self.make_panels(readings, boxes, labelled=False), bar, bar_box

    def bar_beside(self, box: Box, upright: bool | None = None):
        """The colour bar upright at the right of ``box`` where it is wide (its height goes to
        the heads; or as ``upright`` says), else lying under it in a row as tall as it is; and
        the boxes left for the gallery and the bar."""
        if upright if upright is not None else box.width >= 2.0 * box.height:
            bar = self.kit.colour_bar("weights", width=min(3.0, 0.8 * box.height), vertical=True)
            x = box.x1 - bar.width
            return bar, Box(box.x0, box.y0, x - 0.2, box.y1), Box(x, box.y0, box.x1, box.y1)
        bar = self.kit.colour_bar("weights", width=min(4.0, box.width - 0.2))
        y = box.y0 + bar.height
        return bar, Box(box.x0, y + 0.15, box.x1, box.y1), Box(box.x0, box.y0, box.x1, y)

    # -- grouped-query heads: one row a key/value head ----------------------------------------
    def group_tags(self) -> VGroup:
        """ "K/V 1", "K/V 2", …: one name a key/value head where query heads share them, else
        nothing."""
        if not self.grouped:
            return VGroup()
        order = dict.fromkeys(self.maps.group(h) for h in self.drawn)  # as the rows are drawn
        self.group_rows = list(order)
        names = (self.say("kv_head_n", g=g + 1) for g in self.group_rows)
        return VGroup(*(label(t, SMALL, self.theme.muted) for t in names))

    def group_frames(self, panels, tags: VGroup) -> VGroup:
        """A frame around each group's panels, its key/value head's name at its left."""
        out = VGroup()
        by_head = {p.head: p for p in panels}
        for g, tag in zip(getattr(self, "group_rows", []), tags):
            members = VGroup(*(by_head[h] for h in self.maps.members(g)))
            frame = SurroundingRectangle(
                members, color=self.theme.muted, buff=0.08, stroke_width=1.5, corner_radius=0.08
            )
            tag.next_to(frame, LEFT, buff=0.12)
            out.add(frame, tag)
        return out

    def make_panels(self, readings, layout: tuple[list[Box], bool], labelled: bool):
        """One panel per head: its title over its heatmap (or beside it, as ``layout`` says);
        ``labelled``: with the token labels on the axes, or None when they do not fit every
        panel at the smallest text size."""
        boxes, beside = layout
        if beside:
            return self.beside_panels(readings, boxes, beside)
        panels = VGroup()
        colors = [self.q_color(i) for i in range(self.example.n)]
        drawn = self.drawn
        lines = {h: self.title_line(h, readings[h], box.width) for h, box in zip(drawn, boxes)}
        line_h = max(line.height for line in lines.values())  # every heatmap the same size
        for h, box in zip(drawn, boxes):
            line = lines[h]
            side = max(0.3, min(box.width, box.height - line_h - 0.12))
            labels = VGroup()
            if labelled:
                fits, rotate, side = self.labels_fit(box, line.height)
                if not fits:
                    return None
            grid = HeatGrid(self.trace.heads[h].weights, side, self.theme)
            if labelled:
                labels = axis_labels(grid, self.q_tokens, self.q_tokens, colors, colors, rotate)
            # every title ends on one line, every heatmap starts on one
            room = Rectangle(width=line.width, height=line_h).set_opacity(0)
            line.move_to(room, aligned_edge=DOWN)
            panel = VGroup(VGroup(room, line), VGroup(grid, labels)).arrange(DOWN, buff=0.1)
            if labelled and (panel.width > box.width + 1e-6 or panel.height > box.height + 1e-6):
                return None  # it would be shrunk, and its labels with it
            panel.reading, panel.head = readings[h], h
            panels.add(place(panel, box, "top"))
        return panels

    def beside_panels(self, readings, boxes, width: float) -> VGroup:
        """One panel per head: its heatmap as tall as its row, its title at the heatmap's right
        (the number and average, then the reading broken between words), every title as wide
        as the widest so that the heatmaps line up in columns."""
        box = boxes[0]
        side = max(0.3, min(box.height, box.width - width - BESIDE))
        width = box.width - side - BESIDE
        titles = {h: self.title_block(h, readings[h], width) for h in self.drawn}
        wide = max(t.width for t in titles.values())
        # a word wider than ``width`` (never cut) takes from the heatmap, not from the next
        # column (issue 38: at 1:1 "previous" of head 1 ran into head 2's heatmap)
        side = max(0.3, min(side, box.width - wide - BESIDE))
        for h in self.drawn:  # its top link under its reading, where it fits beside the heatmap
            self.add_link(h, titles[h], box.width - side - BESIDE, side)  # (in its own box)
        panels = VGroup()
        for h, box in zip(self.drawn, boxes):
            grid = HeatGrid(self.trace.heads[h].weights, side, self.theme)
            room = Rectangle(width=wide, height=titles[h].height).set_opacity(0)
            titles[h].move_to(room, aligned_edge=LEFT)
            title = VGroup(room, titles[h]).next_to(grid, RIGHT, buff=BESIDE, aligned_edge=UP)
            panel = VGroup(title, VGroup(grid))
            panel.reading, panel.head = readings[h], h
            panels.add(place(panel, box, "top"))
        return panels

    def add_link(self, h: int, title: VGroup, width: float, height: float) -> None:
        """Head ``h``'s top link (:func:`~attention_core.readings.head_groups.top_link`, "to →
        tractor 0.96", as AttentionMatrix names it first) under ``title``, on one line or
        broken between words on two, where it fits within ``width`` and ``height`` (the
        heatmap's side); a group of queries too long for that, its heaviest link alone
        ("handed → student 0.95": a review found the explained head's card bare beside two
        cards with theirs); else nothing: the reading and its average come first."""
        link = top_link(self.trace.heads[h].weights, self.example.tokens)
        if link is None:
            return
        for shown in dict.fromkeys([link, link.heaviest()]):
            text = shown.text(self.q_tokens, most=2)
            lines = wrap_lines(text, width, SMALL, max_lines=2)
            if "".join(lines).replace(" ", "") != text.replace(" ", ""):
                continue  # cut: not legible whole
            block = VGroup(*(label(t, SMALL, self.theme.muted) for t in lines))
            block.arrange(DOWN, aligned_edge=LEFT, buff=BESIDE_LEAD)
            if block.width > width + 1e-6 or title.height + BESIDE_LEAD + block.height > height:
                continue
            block.next_to(title, DOWN, buff=BESIDE_LEAD, aligned_edge=LEFT)
            block.link_text = text
            title.add(block)
            return

    def title_block(self, h: int, reading: ac.HeadReading, width: float) -> VGroup:
        """A title beside its heatmap: ``head 3`` over the reading, broken between words to
        ``width`` (never cut: ``width`` is at least its widest word), its average after it."""
        name = self.head_name(h)
        parts = self.reading_block(h, reading, self.beside_words(reading, width), width)
        return VGroup(name, *parts).arrange(DOWN, buff=BESIDE_LEAD, aligned_edge=LEFT)

    def title_widths(self) -> list[float]:
        """The widths a title beside its heatmap may take: the narrowest (its name, its
        reading's widest word, an average), the one that keeps every short reading and its
        average on one line, and the one that keeps every reading and its average on one line
        (a low row: fewer lines)."""
        head = self.name_width()
        num = text_width("0.00", SMALL)
        narrow = max(head, num, self.reading_room(self.readings, SHORT_WORDS))
        whole = max(text_width(self.reading_word(r), SMALL) + 0.1 + num for r in self.readings)
        # each short reading with its average on a line (a score's name over its number)
        short = max(text_width(self.reading_word(r, SHORT_WORDS), SMALL) + 0.1 + num
                    for r in self.readings)  # fmt: skip
        return sorted({narrow, max(narrow, short), max(narrow, whole)})

    def beside_lines(self, width: float) -> int:
        """How many lines the tallest title beside a heatmap takes at ``width``."""
        return max(
            1 + len(t) + (r.habitual and self.mass_apart(t, width))
            for r in self.readings
            for t in [self.beside_words(r, width)]
        )

    def panel_boxes(self, grid_box: Box, H: int, beside=True) -> tuple[list[Box], float]:
        """H boxes in the columns × rows that give each heatmap the largest side while every
        reading stays whole, and the width of a title beside its heatmap (a few short lines:
        the rows are low), or 0 for titles above (up to three lines); where query heads share
        key/value heads, one row a group (``beside=False``: titles above only)."""
        line = label("Ag", SMALL).height + 0.06
        room = self.reading_room(self.readings)
        widths = self.title_widths() if beside else []
        lead = line - 0.06 + BESIDE_LEAD  # a title beside its heatmap: lines a little closer
        tall = {w: self.beside_lines(w) * lead - BESIDE_LEAD for w in widths}

        def gap(beside):  # a title beside its heatmap ends in the gap: 0.2 keeps it clear;
            return 0.2 if beside else 0.25  # titles above reach into it (REACH)

        def side(layout):
            cols, beside = layout
            rows = math.ceil(H / cols)
            col_w = (grid_box.width - gap(beside) * (cols - 1)) / cols
            row_h = (grid_box.height - 0.2 * (rows - 1)) / rows
            if beside:  # readings whole by construction; the title within its row and half
                # the gap under it (0.2: at 1:1, three rows of 9 heads kept 120 px)
                return tall[beside] <= row_h + 0.1, min(col_w - beside - BESIDE, row_h)
            title_h = self.title_lines(col_w) * line + 0.1
            whole = col_w + REACH >= room  # readings whole: first; then the largest heatmap
            return whole, min(col_w, row_h - title_h)

        counts = [self.maps.group_size] if self.grouped else range(1, H + 1)
        cols, beside = max(((c, b) for c in counts for b in (0.0, *widths)), key=side)
        self.panel_side = side((cols, beside))[1]  # a heatmap's side there
        rows = math.ceil(H / cols)
        col_boxes = grid_box.columns(*([1] * cols), gap=gap(beside))
        cell_h = (grid_box.height - 0.2 * (rows - 1)) / rows
        out = []
        for h in range(H):
            r, c = divmod(h, cols)
            top = grid_box.y1 - r * (cell_h + 0.2)
            out.append(Box(col_boxes[c].x0, top - cell_h, col_boxes[c].x1, top))
        return out, beside

    def key_head(self, width: float | None = None, cols="heads_key_cols", large="") -> VGroup:
        """The key's heading, "head 3 drawn large: rows = queries, columns = keys", in as few
        lines as fit ``width`` (broken after "large:", then between its parts, then after
        commas)."""
        rows, cols = self.say("heads_key_rows"), self.say(cols)
        sep = self.say("tokens_list_sep")
        glue = "" if large.endswith("：") else " "
        lead = [large] if large else []
        tries = [
            [f"{large}{glue}{rows}{sep}{cols}" if large else f"{rows}{sep}{cols}"],
            [f"{large}{glue}{rows}" if large else rows, cols],
            [*lead, f"{rows}{sep}{cols}"],
            [*lead, rows, cols],
            [*lead, rows, *clauses(cols)],
        ]
        if large and width:  # the explained head's name and pair: the whole heading broken
            whole = wrap_lines(f"{large}{glue}{rows}{sep}{cols}", width, SMALL, max_lines=4)
            wrapped = wrap_lines(large, width, SMALL, max_lines=3)
            tries += [whole, [*wrapped, rows, cols], [*wrapped, rows, *clauses(cols)]]
        fits = [t for t in tries if max(text_width(p, SMALL) for p in t) <= (width or 0.0)]
        parts = min(fits, key=len) if fits else tries[4]  # the fewest lines that fit
        lines = VGroup(*(label(p, SMALL, self.theme.muted) for p in parts))
        return lines.arrange(DOWN, aligned_edge=LEFT, buff=0.06)

    def key_split(self, grid_box: Box) -> tuple[Box, Box]:
        """Room for the head drawn large at the left: its cells at the smallest text's height,
        its row labels as wide as they are (at most 45 % of the width, unless shortened labels
        need more)."""
        n = self.example.n
        row_w, text_h = self.label_room()
        need = row_w + LABEL_GAP + n * text_h + 0.1
        least = text_width("a…b", SMALL) + LABEL_GAP + n * text_h + 0.1  # labels shortened
        # no wider than its labels and cells need: the heatmaps, not the key, are the point
        w = max(min(need, 0.45 * grid_box.width), least)
        heading = self.key_head(0.0, large=self.say("heads_key_large", h=99)).width
        w = min(max(w, heading + 0.05), 0.75 * grid_box.width)
        return Box(grid_box.x0, grid_box.y0, grid_box.x0 + w, grid_box.y1), Box(
            grid_box.x0 + w + 0.3, grid_box.y0, grid_box.x1, grid_box.y1
        )

    def featured(self, readings) -> int:
        """The head drawn large: the head the example names (``head``: the one every other
        scene explains), else the first of the group the reading outlines, else the one with
        the highest average."""
        return self.explained

    def key_grid(self, box: Box, h: int) -> VGroup:
        """Head ``h`` drawn large, every query (rows) and key (columns) labelled: how to read
        each small heatmap. Labels keep their distinct ends where room is short; where even that
        leaves no room above the cells, the columns are said to be the rows' tokens in order."""
        theme, n = self.theme, self.example.n
        weights = self.trace.heads[h].weights
        row_w, cell = self.label_room()
        shortest = text_width("a…b", SMALL)
        pair = ac.followed_pair(self.trace, self.example, h)  # the explained head: its pair,
        q, k = self.q_tokens[pair.query], self.k_tokens[pair.key]  # where it takes no line more
        large = self.say("heads_key_large_pair", h=h + 1, q=q, k=k)
        head = self.key_head(box.width, large=large)
        self.pair_said = True
        avail = box.height - head.height - 0.12  # below the head
        col_len = min(row_w, avail - n * cell - LABEL_GAP - 0.02)
        row_len = max(min(row_w, box.width - LABEL_GAP - n * cell), shortest)
        whole = max(text_width(t, SMALL) for t in (q, k))  # the pair's names are never cut
        row_len, col_len = max(row_len, whole), max(col_len, whole)
        rows = [self.kit.fit_label(t, row_len, SMALL) for t in self.q_tokens]
        colors = [self.q_color(i) for i in range(n)]
        if col_len >= shortest:
            side = min(box.width - row_len - LABEL_GAP, avail - col_len - LABEL_GAP - 0.02)
            side = min(side, 1.25 * n * cell)  # cells a little taller than a label, no more
            grid = HeatGrid(weights, max(side, n * cell), theme)
            cols = [self.kit.fit_label(t, col_len, SMALL) for t in self.q_tokens]
            labels = axis_labels(grid, rows, cols, colors, colors, rotate=True)
        else:
            head = self.key_head(box.width, "heads_key_same", large=large)
            side = min(box.width - row_len - LABEL_GAP, box.height - head.height - 0.12)
            grid = HeatGrid(weights, max(side, n * cell), theme)
            labels = axis_labels(grid, rows, [], colors, [], rotate=True)
        self.key_heading = head
        if h == self.explained:  # its followed cell framed, as in every scene
            labels.add(self.framed_cell(grid, pair.query, pair.key))
        body = VGroup(grid, labels)
        group = VGroup(head, body).arrange(DOWN, buff=0.12)
        head.align_to(body, LEFT)
        return place(group, box, "top-left")
