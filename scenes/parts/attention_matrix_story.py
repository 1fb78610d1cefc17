"""What AttentionMatrix says of the head before its pair (issue 40, issue 38): what the head's
rows show over all of them, framed (its habit, its resting place, its strongest links here:
``attention_core.readings.heads.summarise_head``), the kind of head the model-level scores
name where the example carries them, and the habit this sentence's rows show."""

from __future__ import annotations

from manim import Create, FadeOut, SurroundingRectangle, VGroup

import attention_core as ac
from attention_core.readings.heads import HeadSummary, summarise_head
from scenes.kit import captions

LINK_NAMES = 3  # the queries a link group names before "…" (every one of them is framed)


class AttentionMatrixStory:
    """The head's lead in AttentionMatrix's reading (a mixin of the scene)."""

    head_told = False  # whether the head step said what the head does (then the pair's caption
    # does not say it again)

    def head_summary(self) -> HeadSummary | None:
        """The core's summary of the head over all its rows, where the scene tells it: a
        trained or asked head's story, or a real-size matrix (many rows) of self-attention."""
        W = self.head.weights
        if self.example.is_cross or W.shape[0] != W.shape[1] or W.shape[0] < 2:
            return None
        if self.story is None and not self.many_rows():
            return None
        scores = ac.example_head_scores(self.example, self.h)
        return summarise_head(W, self.example.tokens, scores)

    def tell_head(self) -> list:
        """The step "head": what the head does over all its rows, before the reading of its
        pair, with the cells that show it framed (its habit's rows or its strongest links, and
        a resting place's column). Returns the animations that take the frames away (played
        with the reading's own frames); nothing where the scene does not tell it."""
        s = self.head_summary()
        if s is None:
            return []
        marks = VGroup(*self.head_cell_marks(s), *self.rest_column_mark(s))
        self.head_told = True
        self.step("head", **self.head_sentence(s))
        if len(marks):
            self.play(*(Create(m) for m in marks), run_time=0.8)
            self.bring_to_front(self.matrix.numbers)  # a cell's number over its frame
        self.hold()
        return [FadeOut(m) for m in marks]

    def head_cell_marks(self, s: HeadSummary) -> list:
        """A frame on each shown cell that shows the head's habit or its strongest links."""
        shown, matrix = set(self.matrix.shown_rows), self.matrix
        return [
            matrix.highlight(i, j)
            for i, j in dict.fromkeys(s.cells)
            if i in shown and matrix.cell_rect(i, j) is not None
        ]

    def rest_column_mark(self, s: HeadSummary) -> list:
        """One frame round the resting place's column (its shown cells), where one is named."""
        if s.rest_key is None:
            return []
        rects = [self.matrix.cell_rect(i, s.rest_key) for i in self.matrix.shown_rows]
        rects = [r for r in rects if r is not None]
        if not rects:
            return []
        colour = self.theme.text
        return [SurroundingRectangle(VGroup(*rects), color=colour, buff=0.02, stroke_width=2.5)]

    def head_sentence(self, s: HeadSummary) -> dict:
        """The "head" step's parts: ``lead``, the model's name for the head where its scores
        give one; ``said``, the rows' sentences, each the core's (``HeadSummary``) and short
        enough for a caption page of its own — the habit and its share, the resting place and
        its share, the strongest links (or that no row gives another token half its weight,
        and the rows' shape), and the key most rows weigh most."""
        from attention_core.readings.head_kinds import one_head, words

        lang = "zh" if self.lang == "zh" else "en"
        lead = ""
        if s.reading.score is not None:
            lead = self.say("story_head_model", name=one_head(s.reading.pattern, lang))
        said = []
        if s.habit is not None:
            phrase, key = words("lit", lang)[s.habit], s.rows.key
            token = self.q_tokens[key] if key is not None else ""
            said += [self.say("head_habit", phrase=phrase.format(token=token)),
                     self.say("head_habit_share")]  # fmt: skip
        if s.rest is not None:
            said += [self.say(f"head_rest_{s.rest}", token=self.k_tokens[s.rest_key]),
                     self.say(f"head_rest_{s.share_words}")]  # fmt: skip
        for n, g in enumerate(s.links):
            said.append(self.say("head_links_then" if n else "head_links", links=self.link(g)))
        if s.telling in ("none", "none_rest"):
            keys = self.token_list([self.k_tokens[j] for j in s.held])
            said.append(self.say(f"head_{s.telling}", keys=keys))
            if s.split is not None:  # not "diffuse" over a clear diagonal: the two habits
                said.append(self.say("head_split", phrase=words("phrase", lang)[s.rows.pattern]))
            elif s.telling == "none":  # (beside a resting place that holds half of each row,
                # "its weights are diffuse" read as a contradiction: its sentence says enough)
                said.append(self.say("head_shape", shape=self.say(f"head_shape_{s.shape}")))
        if s.top is not None:
            said.append(self.say("head_top", k=self.k_tokens[s.top]))
        return dict(lead=lead, said=joined(said))

    def link(self, g) -> captions.Phrase:
        """A link group as the caption names it: "did, not, fit … → trophy" (at most
        :data:`LINK_NAMES` queries, then "…"; every one of them framed)."""
        names = [self.q_tokens[i] for i in g.queries]
        more = len(names) > LINK_NAMES
        return self.say("head_link_more" if more else "head_link",
                        qs=self.token_list(names[:LINK_NAMES]), k=self.k_tokens[g.key])  # fmt: skip

    def head_habit(self, s) -> str:
        """What the model-level scores the example carries name the head ("Measured across the
        model …, this is an induction head."), then the head's habit in this sentence before an
        asked pair that is not it ("On average, half or more of this head's weight goes to the
        first token (attention sink)."); "" without either, or where the head step said what
        the head does already (:meth:`tell_head`): the core's reading (``read_head``), its
        words the reading's own (head_kinds)."""
        from attention_core.readings.head_kinds import one_head, words

        W, tokens = self.head.weights, self.example.tokens
        if W.shape[0] != W.shape[1] or getattr(self, "head_told", False):
            return ""
        lang = "zh" if self.lang == "zh" else "en"
        r = ac.read_head(W, tokens, ac.example_head_scores(self.example, self.h))
        lead = ""
        if r.score is not None:  # named by the model's measure: said first, then the rows
            lead = self.say("story_head_model", name=one_head(r.pattern, lang))
            r = r.here
        if s.kind != "asked" or s.habit is not None or not r.habitual:
            return lead
        phrase = words("phrase", lang)[r.pattern]
        token = self.q_tokens[r.key] if r.key is not None else ""
        return lead + self.say("story_head_habit", what=phrase.format(token=token))


def joined(parts, sep: str = "") -> captions.Phrase:
    """Phrases (or plain strings) joined as one :class:`~scenes.kit.captions.Phrase`, each
    part's layout kept (its labels whole)."""
    out = captions.Phrase(sep.join(str(p) for p in parts))
    out.layout = sep.join(getattr(p, "layout", str(p)) for p in parts)
    out.sources = tuple(x for p in parts for x in getattr(p, "sources", ()))
    return out
