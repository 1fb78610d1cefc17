"""HeadGallery's heads: which are drawn and in what order — the explained head (the one every
other scene explains) first and framed, named with its pair under the gallery; where a heatmap
would come out under :data:`~scenes.mobjects.heat_grid.MIN_HEAD` (120 px at 1080p) at any
aspect (in a square frame its captions two lines a page, the third line's room the heads'),
fewer heads, those that matter, the others named ("heads 4–6, 8 not shown"); and the title,
what the heads do together (:func:`attention_core.readings.head_groups.layer_reading`: "8 of 9
heads rest on the first token; 1 does something else", "each its own pattern" only where no
two read alike), where fewer are drawn the layer's count named and the heads drawn counted ("5
of the layer's 9 heads rest on the first token; 6 drawn")."""

from __future__ import annotations

from dataclasses import replace

from manim import DOWN, LEFT, UP, SurroundingRectangle, VGroup

import attention_core as ac
from attention_core.readings import head_kinds
from attention_core.readings.head_groups import layer_reading, on_sentence
from scenes.kit.titles import room_for
from scenes.mobjects.heat_grid import MIN_HEAD, spans
from scenes.mobjects.layout import Box, Regions, flow, place
from scenes.mobjects.numfmt import fmt
from scenes.mobjects.text import ellipsize, label, quoted, text_width, wrap_lines
from scenes.mobjects.theme import CAPTION, SMALL, TITLE
from scenes.mobjects.token_text import is_punctuation


def clauses(text: str) -> list[str]:
    """``text`` cut after each comma (a heading line too wide for the key's box)."""
    for mark in ("，", ", "):
        if mark in text:
            head, _, rest = text.partition(mark)
            return [head + mark.strip(), *clauses(rest)]
    return [text]


def sentence_heads(trace) -> list[tuple]:
    """Each head's (reading on this sentence, ``(pattern, score)`` where the model-level scores
    the example carries name another habit, else None): :func:`~attention_core.readings.
    head_groups.on_sentence` (issue 38: rows on the first token labelled "induction 0.89")."""
    ex = trace.example
    return [on_sentence(h.weights, ex.tokens, ac.example_head_scores(ex, i))
            for i, h in enumerate(trace.heads)]  # fmt: skip


SLIM_CAPTION = 0.86  # a square frame's caption bar: two lines a page (AttentionMatrix's too)
SCORE_MARK = "*"  # after the name of a head whose model-level score the caption says


class GalleryHeads:
    """The heads HeadGallery draws (mixin of :class:`scenes.head_gallery.HeadGallery`)."""

    def headline(self, readings, drawn: int | None = None) -> list[str]:
        """The title's wordings, longest first: what the layer's heads (``readings``, every
        head) do together, as :func:`~attention_core.readings.head_groups.layer_reading`
        decides it; then its first clause alone, for a narrow frame ("8 of 9 heads rest on the
        first token"). ``drawn`` (fewer heads on screen than the layer has): the layer's count
        said as the layer's, the heads drawn counted after it where that fits ("5 of the
        layer's 9 heads rest on the first token; 6 drawn": "5 of 9" over six heatmaps read as
        a count of the six; the line under the gallery names those not shown)."""
        layer = layer_reading(readings)
        g = layer.common
        what = self.place(g) if g.resting else self.phrase((g.pattern, g.key), self.lit_phrases)
        counts = dict(n=len(g.heads), H=layer.heads, G=len(layer.groups), what=what)
        fewer = drawn is not None and drawn < layer.heads
        tail = self.say("gallery_title_drawn", d=drawn) if fewer else ""
        layer_s = "_layer" if fewer else ""
        if layer.kind in ("each_own", "mixed"):
            text = self.say(f"gallery_title_{layer.kind}{layer_s}", **counts)
            return [text + tail, text]
        text = self.say(f"gallery_title_{layer.kind}_{g.verb}{layer_s}", **counts)
        span, sinks = self.rest_said(g) if g.resting else ("", "")
        m = layer.others
        others = (
            ""
            if layer.kind == "alike"
            else self.say("gallery_title_others" + ("_1" if m == 1 else ""), m=m)
        )
        return list(dict.fromkeys([
            text + span + sinks + others + tail, text + sinks + others + tail,
            text + others + tail, text + tail, text,
        ]))  # fmt: skip

    def place(self, group) -> str:
        """A resting group's place named with its token ("“When”, the first token", "[CLS]")."""
        token = self.q_tokens[group.key] if group.key is not None else ""
        return self.say(f"gallery_place_{group.pattern}", token=self.quote(token))

    def quote(self, token: str) -> str:
        """``token`` as a reading's words name it (in quotation marks)."""
        return named_token("{token}", token, self.lang)

    def rest_words(self) -> str:
        """The resting place's least share (``heads.REST_AT_LEAST``) in words, "a quarter": a
        caption's number must be on screen, and no card shows it."""
        rest = ac.readings.heads.REST_AT_LEAST
        assert rest == 0.25, rest  # (the words say a quarter)
        return self.say("rest_quarter")

    def rest_said(self, group) -> tuple[str, str]:
        """A resting group's averages (" (0.36–0.65 of a row on average)") and how many of its
        heads rest half their weight or more there ("; 3 of them as a sink (half or more)"; ""
        where none does), as :class:`~attention_core.readings.head_groups.HeadGroup` counts."""
        lo, hi = (fmt(v, 2) for v in group.span)
        span = self.say("gallery_title_span" + ("_1" if lo == hi else ""), lo=lo, hi=hi)
        k = group.sinks
        if not k:
            return span, ""
        return span, self.say(
            "gallery_title_sinks_all" if k == len(group.heads) else "gallery_title_sinks", k=k
        )

    def head_name(self, h: int) -> VGroup:
        """``head 4``, and where its model-level score names another habit than its rows show
        here, a mark after it ("head 4 *"): the score itself is said in the caption
        (:meth:`scores_said`), so that it takes no line of the panel (issue 38: a line of its
        own took a third of the thumbnails at 4:3)."""
        name = label(self.say("head_n", h=h + 1), SMALL, self.theme.text)
        if h not in getattr(self, "score_notes", {}):
            return VGroup(name)
        mark = label(SCORE_MARK, SMALL, self.theme.accent)
        return VGroup(name, mark).arrange(buff=0.08, aligned_edge=UP)

    def name_width(self) -> float:
        """The widest head name, its mark included where a head has one."""
        head = text_width(self.say("head_n", h=len(self.readings)), SMALL)
        marked = 0.08 + text_width(SCORE_MARK, SMALL) if getattr(self, "score_notes", {}) else 0
        return head + marked

    def scores_said(self, heads) -> str:
        """The caption's sentence on the marked heads among ``heads``: each model-level score
        named as a score, its heads after it ("induction score 0.89, 0.77, 0.63 (heads 4–6)"),
        or "" where none of them has one."""
        notes = getattr(self, "score_notes", {})
        marked = [h for h in sorted(heads) if h in notes]
        if not marked:
            return ""
        lang = "zh" if self.lang == "zh" else "en"
        words = head_kinds.words("name", lang)
        kinds = list(dict.fromkeys(notes[h][0] for h in marked))
        sep = self.say("tokens_list_sep")
        parts = []
        for kind in kinds:
            heads_k = [h for h in marked if notes[h][0] == kind]
            parts.append(self.say(
                "gallery_score_of" + ("_1" if len(heads_k) == 1 else ""),
                what=self.say("head_score_named", what=words[kind]),
                values=sep.join(fmt(notes[h][1], 2) for h in heads_k),
                heads=spans(heads_k),
            ))  # fmt: skip
        said = "; ".join(parts) if lang == "en" else "；".join(parts)
        return self.say("gallery_scores", mark=SCORE_MARK, scores=said[:1].upper() + said[1:])

    def retitle(self, readings, drawn: int | None = None, grow: bool = False) -> None:
        """The title bar says :meth:`headline` in plain text (a token it names never reaches
        markup), at the largest size that fits; in a narrow frame its first clause alone. With
        ``drawn`` (fewer heads drawn than the layer has) in a square frame, on two
        lines at the title size before a smaller one: ``grow`` makes the title bar as tall
        as they need (the content shorter), else they keep to it."""
        width = self.regions.title.width
        two = drawn is not None and self.frame.width <= self.frame.height * 1.01
        texts, mob = self.headline(readings, drawn), None
        # by wording, each at the largest size; on two lines: by size, two lines at the title
        # size before one smaller (a square frame, fewer heads drawn)
        tries = [(t, size, 1) for t in texts for size in (TITLE, CAPTION, SMALL)]
        if two:
            tries = [(t, TITLE, n) for n in (1, 2) for t in texts]
            tries += [(t, size, 1) for size in (CAPTION, SMALL) for t in texts]
        for text, size, lines in tries:
            if mob is None and lines == 2:
                mob = self.two_line_title(text, grow)
            elif mob is None and text_width(text, size) <= 0.95 * width:  # bold is wider
                mob = label(text, size, self.theme.text, weight="BOLD")
                mob = mob if mob.width <= width else None
        if mob is None:
            text = ellipsize(self.headline(readings, drawn)[-1], width, SMALL)
            mob = label(text, SMALL, self.theme.text, weight="BOLD")
        self.remove(self.title_mob)
        if grow:
            self.regions = room_for(self.regions, mob)
        self.title_mob = place(mob, self.regions.title, "left")
        self.add(self.title_mob)

    def two_line_title(self, text: str, grow: bool):
        """``text`` bold on two lines at the title size within the title bar's width (and,
        unless ``grow``, its height), or None."""
        box = self.regions.title
        lines = wrap_lines(text, 0.95 * box.width, TITLE, max_lines=2)
        if len(lines) > 2 or "".join(lines).replace(" ", "") != text.replace(" ", ""):
            return None
        mob = VGroup(*(label(t, TITLE, self.theme.text, weight="BOLD") for t in lines))
        mob.arrange(DOWN, aligned_edge=LEFT, buff=0.08)
        mob.source_text = " ".join(lines)
        if mob.width > box.width or (not grow and mob.height > box.height + 1e-6):
            return None
        return mob

    def slim_square(self) -> None:
        """In a square frame, captions of two lines a page in a bar of :data:`SLIM_CAPTION`
        (a longer caption read in pages, a sentence or two each), the content taller by the
        third line's room: there the heads are fewer, and each line is a head's height more."""
        if self.frame.width > self.frame.height * 1.01:
            return
        self.caption_lines, self.most_caption_lines = 2, 2
        standard = self.regions
        bottom = standard.caption.y0
        caption = Box(standard.caption.x0, bottom, standard.caption.x1, bottom + SLIM_CAPTION)
        content = Box(caption.x0, caption.y1 + 0.15, caption.x1, standard.content.y1)
        self.regions = Regions(standard.title, content, caption)

    def fewer_if_small(self, readings):
        """:meth:`build` with every head, the explained head first; where a heatmap comes out
        under :data:`MIN_HEAD` (120 px at 1080p) at any aspect, fewer heads — the explained
        head, then those that matter (:func:`attention_core.rank_heads`) — the others named
        under the gallery ("heads 4–6, 8 not shown"). The explained head is framed and named
        with its pair under the gallery."""
        H, e = len(readings), self.explained
        order = ac.rank_heads([h.weights for h in self.trace.heads], self.example.tokens, e)
        content = self.regions.content

        def attempt(count: int, noted: bool = True, grouped: bool = True):
            self.drawn = self.drawn_order(order[:count])
            self.grouped = grouped and self.maps.shared and count == H  # a row a key/value head
            note = self.explained_note(content.width) if noted else VGroup()
            built, note = self.build_noted(readings, note)
            large = min(p[1][0].width for p in built[0]) >= MIN_HEAD - 1e-6
            return large, built, note

        large, built, note = attempt(H, noted=False)  # drawn large, the head names its pair
        said = self.large_key and getattr(self, "pair_said", False)  # by the head drawn large
        if not (said and large):
            large, built, note = attempt(H)
        if not large and self.maps.shared:  # every head, without the room the groups' names
            large, built, note = attempt(H, grouped=False)  # and frames take
        self.every_head = large  # (for the checks: every head keeps MIN_HEAD, or not)
        if not large:  # at every aspect the most heads that keep MIN_HEAD (at least two)
            # the layer's count said so (its heads not all drawn), the bar as tall as the title
            # with a count of heads drawn needs (their number said once it is known)
            self.retitle(readings, H - 1, grow=True)
            content = self.regions.content
            for count in range(H - 1, 1, -1):  # (not by halving: 10 heads fit where 9 do not)
                large, built, note = attempt(count)
                if large:
                    break
        panels = built[0]
        if len(self.drawn) < H:  # the title counts the layer's heads: it says so, and the drawn
            self.retitle(readings, len(self.drawn))
        if len(note):
            place(note, Box(content.x0, content.y0, content.x1, content.y0 + note.height), "left")
        lead = next(p for p in panels if p.head == e)
        frame = SurroundingRectangle(
            lead, color=self.theme.accent, buff=0.06, stroke_width=4, corner_radius=0.06
        )
        pair = ac.followed_pair(self.trace, self.example, e)  # its followed cell framed too
        cell = self.framed_cell(lead[1][0], pair.query, pair.key)
        self.explained_mark, self.explained_cell = frame, cell
        # where its pair is said: under the gallery, leading the tokens in order, or heading
        # the head drawn large
        self.explained_line = note if len(note) else self.strip if self.noted else self.key_heading
        return panels, VGroup(built[1], frame, cell, note), built[2]

    def build_noted(self, readings, note: VGroup):
        """:meth:`build` and ``note`` (the explained head's line, if any) where it goes: leading
        the tokens in order along the gallery's bottom edge where the gallery has them (no line
        of its own), else under the gallery, room kept for it (then the note itself)."""
        self.noted = False
        if len(note):
            self.strip_note = self.note_text
            built = self.build(readings)
            self.strip_note = None
            if self.in_strip:
                self.noted = True
                return built, VGroup()
        return self.build_room(readings, note), note

    def build_room(self, readings, note: VGroup):
        """:meth:`build` with room kept under the gallery for ``note``."""
        content = self.regions.content
        room = note.height + 0.2 if len(note) else 0.0
        self.regions = replace(self.regions, content=Box(
            content.x0, content.y0 + room, content.x1, content.y1))  # fmt: skip
        built = self.build(readings)
        self.regions = replace(self.regions, content=content)
        return built

    def token_strip(self, content: Box) -> tuple[VGroup, Box]:
        """The tokens in order, each in its colour, along the gallery's bottom edge ("rows =
        queries, columns = keys, in order: …"), where a head drawn large would leave the others
        too small; and the box left for the gallery and the colour bar."""
        muted = self.theme.muted
        note = getattr(self, "strip_note", None)  # the explained head's line, leading it
        lead = [label(t, SMALL, muted) for t in self.note_parts(note)] if note else []
        head = [label(t, SMALL, muted) for t in clauses(self.say("heads_key_order"))]
        toks = [label(t, SMALL, self.q_color(i)) for i, t in enumerate(self.q_tokens)]
        strip = self.strip = flow([*lead, *head, *toks], content.width, hbuff=0.12, vbuff=0.06)
        place(strip, Box(content.x0, content.y0, content.x1, content.y0 + strip.height), "left")
        return strip, Box(content.x0, content.y0 + strip.height + 0.15, content.x1, content.y1)

    def note_parts(self, note: str) -> list[str]:
        """The explained head's line leading the tokens in order, in the pieces it may break
        between (after a comma or semicolon), ended by the language's semicolon."""
        sep = "；" if self.lang == "zh" else "; "
        pieces = [clauses(clause) for clause in note.split(sep)]
        return [
            p + (sep.strip() if k == len(c) - 1 else "") for c in pieces for k, p in enumerate(c)
        ]

    def framed_cell(self, grid, i: int, j: int) -> VGroup:
        """Cell (i, j) of a heatmap framed in the accent, a line of the background between."""
        rect = grid.cell_rect(i, j)
        halo = SurroundingRectangle(rect, color=self.theme.background, buff=0.0, stroke_width=5)
        frame = SurroundingRectangle(rect, color=self.theme.accent, buff=0.03, stroke_width=3)
        return VGroup(halo, frame)

    def drawn_order(self, heads) -> list[int]:
        """``heads`` in the order they are drawn: the explained head first, then by number —
        where query heads share key/value heads (all drawn), a row a group, the explained
        head's group first."""
        e = self.explained
        if self.maps.shared and len(heads) == len(self.trace.heads):
            groups = [self.maps.group(e)] + [
                g for g in range(self.maps.kv_heads) if g != self.maps.group(e)
            ]
            rows = [sorted(self.maps.members(g), key=lambda h: (h != e, h)) for g in groups]
            return [h for row in rows for h in row]
        return [e, *sorted(h for h in heads if h != e)]

    def explained_note(self, width: float) -> VGroup:
        """The line under the gallery: "framed: head 6, she → baker", and the heads not drawn."""
        e = self.explained
        pair = ac.followed_pair(self.trace, self.example, e)
        text = self.say(
            "gallery_explained", h=e + 1, q=self.q_tokens[pair.query], k=self.k_tokens[pair.key]
        )
        left = [h for h in range(len(self.trace.heads)) if h not in self.drawn]
        if left:
            key = "gallery_not_shown" if len(left) > 1 else "gallery_not_shown_one"
            text += ("；" if self.lang == "zh" else "; ") + self.say(key, heads=spans(left))
        self.note_text = text
        lines = wrap_lines(text, width, SMALL, max_lines=2)
        return VGroup(*(label(t, SMALL, self.theme.muted) for t in lines)).arrange(
            DOWN, aligned_edge=LEFT, buff=0.06
        )


def named_token(template: str, token: str, lang: str = "en") -> str:
    """A reading's words naming its token: in 「」 where the Chinese words set it off so, else
    a token of punctuation alone quoted (“,”), as every caption names one; in English words
    every token in quotation marks (issue 38: "split between the and the first token" read
    "the" as the sentence's own word), as :func:`~scenes.mobjects.token_text.quoted` marks it."""
    if "「{token}」" in template or not token:
        return template.format(token=token)
    if lang == "zh":
        return template.format(token=quoted(token))
    return template.format(token=quoted(token) if is_punctuation(token) else f"“{token}”")
