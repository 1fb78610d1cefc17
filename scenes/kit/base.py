"""The base of every explainer scene: its example and trace, theme, title, captions and steps.

A *scene* is one video; a *step* is one section of it that ends on a still worth pausing on.
``step()`` opens a section and shows its caption; listeners registered in ``step_listeners`` are
called with the scene at the end of every step (stills, layout checks, caption timing).

A scene takes its example and one validated :class:`scenes.kit.look.Look` (language, theme, aspect,
font …). Without them it renders what the ``ATTN_*`` environment variables name
(:func:`scenes.kit.look.from_environment`), so plain ``manim render scenes/<module>.py <Scene>``
works.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from manim import Arrow, Scene, VGroup

import attention_core as ac
from scenes.kit import captions
from scenes.kit.drawing import Kit
from scenes.kit.look import Look, from_environment
from scenes.kit.narration import Narrated
from scenes.kit.roles import Head
from scenes.mobjects import fonts
from scenes.mobjects.fades import FadeIn, FadeOut, RemovesAfterPlay
from scenes.mobjects.layout import Box, place, regions
from scenes.mobjects.text import (
    Num,
    balanced_lines,
    caption_pages,
    distinct,
    ellipsize,
    label,
    text_width,
)
from scenes.mobjects.theme import CAPTION, SMALL, TITLE, Theme, get_theme
from scenes.mobjects.unimath import NO_BREAK, line_pieces

if TYPE_CHECKING:
    from manim import Animation, ManimColor, Mobject

    from scenes.mobjects.token_text import Token

STEP_PAUSE = 1.2  # seconds each step holds its final still
PICTURE_FIRST = 0.5  # seconds a step's new picture is seen before its caption comes
MOST_CAPTION_LINES = 3  # lines of one caption page at most, at every aspect


class ExplainerScene(Narrated, RemovesAfterPlay, Scene):
    """A scene that explains one part of attention for one example."""

    explains_one_head = True  # single-head scenes say which head of several they show

    def __init__(
        self,
        example: ac.Example | None = None,
        look: Look | None = None,
        sections: Callable[[int], bool] | None = None,
        **kwargs: Any,
    ) -> None:
        """``sections(i)`` says whether step ``i`` (from 0) is rendered; the others are run with
        animations skipped (a long scene rendered in parts by several processes)."""
        if example is None or look is None:
            example, env_look = from_environment(example)
            look = look or env_look
        self.example = example
        self.look = look
        self.trace = ac.trace_example(self.example)
        self.lang = look.lang
        self.theme: Theme = get_theme(look.theme)
        w, h = look.frame_size
        self.frame = Box(-w / 2, -h / 2, w / 2, h / 2)
        self.renders_section = sections or (lambda i: True)
        self.step_listeners: list = []
        self.page_listeners: list = []  # told of each caption page but a step's last
        self.kit = Kit(self)  # planes, matrices, bars and labels, built in this look
        self.steps: list[dict] = []  # key, caption, start, end (seconds)
        self._open_step: dict | None = None
        super().__init__(**kwargs)

    # -- names and words ------------------------------------------------------------------------
    @property
    def scene_name(self) -> str:
        return type(self).__name__

    def say(self, key: str, **values: Any) -> str:
        """A word or label in this scene's language, as plain text (math in Unicode forms)."""
        return captions.word(key, self.lang, **values)

    def typeset(
        self, key: str, size: float = SMALL, color: ManimColor | str | None = None, **values: Any
    ) -> Mobject:
        """A word or label on screen with its math typeset (Typst) and its values (labels,
        numbers) set as text: see :func:`scenes.mobjects.math.rich`."""
        from scenes.mobjects.math import rich

        return rich(captions.template(key, self.lang), size, color or self.theme.text, **values)

    def typeset_lines(
        self, key: str, size: float, color: ManimColor | str, width: float, **values: Any
    ) -> VGroup:
        """:meth:`typeset`, broken into lines between words where it is wider than ``width`` —
        never inside a formula, never between the letters of a word; shrunk only where one
        word or formula alone is wider."""
        from scenes.mobjects.math import rich
        from scenes.mobjects.unimath import plain

        mob = self.typeset(key, size, color, **values)
        if mob.width <= width:
            return mob
        text = captions.template(key, self.lang)
        if "$" not in text:
            lines = balanced_lines(text, width, size, max_lines=3)
        else:  # words and whole formulas ($…$ with what sticks to it), packed greedily
            lines, line = [], ""
            for word in re.findall(r"\$[^$]*\$\S*|\S+", text):
                wider = f"{line} {word}".strip()
                if line and text_width(plain(wider), size) > width:
                    lines.append(line)
                    wider = word
                line = wider
            lines.append(line)
        group = VGroup(*(rich(line, size, color, **values) for line in lines))
        group.arrange(direction=[0, -1, 0], aligned_edge=[-1, 0, 0], buff=0.06)
        if group.width > width:
            group.scale_to_fit_width(width)
        return group

    @property
    def h(self) -> Head:
        """The index of the head the single-head scenes explain (:attr:`head`): the index every
        number role of theirs carries (issue 39: roles hard-coding head 0 made the notes of
        ``head = 9`` quote head 1's numbers)."""
        return Head(self.example.head_index)

    @property
    def head(self) -> ac.AttentionTrace:
        """The head the single-head scenes explain: the one the example names (``head``), else
        the first."""
        return self.trace.attention

    def followed_query(self) -> ac.RowChoice:
        """The query a per-query step follows (DotProducts, Scaling): the followed pair's query
        (``attention_core.followed_choice``: asked, or showing a trained head's pattern), else
        the core's choice among those with a direction (a zero query, a padding token's, casts
        no shadow), the same at every aspect; a
        :class:`attention_core.readings.claims.RowChoice`."""
        import attention_core as ac

        Q = self.head.Q
        rows = [a for a in range(self.example.n) if ac.norm(Q[a]) > 0] or [0]
        return ac.followed_choice(self.trace, rows)

    def story_tokens(self, side: str) -> list[int]:
        """The tokens in the order a crowded plane draws them (attention_core.story_order):
        the followed one, then (queries) the rows that do what the head does, then its keys;
        the cast first (:meth:`cast_first`)."""
        import attention_core as ac

        pair, story = ac.followed_pair(self.trace), ac.head_story(self.trace)
        rows = tuple(i for i, _ in story.fits) if story is not None else ()
        return self.cast_first(ac.story_order(self.head.weights, pair.query, pair.key, side, rows))

    def cast_first(self, order: Iterable[int]) -> list[int]:
        """``order`` with the cast's tokens first, in the cast's order: a crowded plane that
        draws eight draws the cast, each in its colour, never a grey token (issue 38)."""
        order = [int(t) for t in order]
        if len(self.cast) == self.example.n:
            return order
        return [*(t for t in self.cast if t in order), *(t for t in order if t not in self.cast)]

    def story_inputs(self) -> list[int]:
        """The input tokens in the order a crowded plane of them draws them: the followed query,
        its key, then the keys it weighs most (Embeddings, Overview's X)."""
        import attention_core as ac

        if self.example.is_cross:  # the keys are another sequence's tokens: the queries' order
            return self.story_tokens("queries")
        pair = ac.followed_pair(self.trace)
        return self.cast_first(dict.fromkeys([pair.query, *self.story_tokens("keys")]))

    def head_does(self, choice: ac.RowChoice) -> str:
        """What the head does, in words, told of the row ``choice`` a per-query step follows
        (``attention_core.choice_story``: the story AttentionMatrix's reading tells): "sky₂ looks
        at green₁, the token after the earlier sky — an induction head"; "" where there is no
        story (a made-up example's row)."""
        import attention_core as ac

        s = ac.choice_story(self.trace, choice)
        return "" if s is None else self.story_does(s)

    def story_does(self, s: ac.HeadStory) -> str:
        """A head's story (``attention_core.HeadStory``) told of its pair in a phrase: "sky₂
        looks at green₁, the token after the earlier sky"; for an asked pair, its place in the
        row, or the head's habit it is — never the other rows that share its key as strongly
        (``pair_telling``: said once, in AttentionMatrix's reading, where they are framed)."""
        told = s.pair_telling
        asked = ("asked_top", "asked_lower", "asked_column")
        kind = s.habit or (told if told in asked else s.kind)
        e = self.k_tokens[s.earlier] if s.earlier is not None else ""
        nth = captions.ordinal(s.rank, self.lang)
        k = self.k_tokens[s.key] if s.habit else self.story_key(s)  # a habit: its one piece
        return self.say(f"does_{kind}", q=self.q_tokens[s.query], k=k, e=e, nth=nth)

    def story_key(self, s: ac.HeadStory | ac.FollowedPair) -> str:
        """The key of a head's story (or followed pair) as a caption names it: its label; a key
        word cut into pieces as the word and its pieces, "suitcase = suit + case"
        (``attention_core.pieces_text``: its weight is their sum)."""
        import attention_core as ac

        if len(s.pieces) == 1:  # the label itself, a Token: a caption names it (quoted, whole)
            return self.k_tokens[s.pieces[0]]
        return ac.pieces_text([self.k_tokens[j] for j in s.pieces])

    def pair_step_caption(self, p: ac.PairRow, shown: str, clear: bool = False) -> None:
        """The step "pair" of a scene at the scores (Projections, Scaling): what the head does
        with its followed pair ``p`` (``attention_core.PairRow``), its score ``shown`` as on
        screen, and whether that is the largest its query may see."""
        kind = "blocked" if p.sight == "blocked" else "top" if p.rank == 1 else "ranked"
        self.step(
            "pair",
            f"pair_{kind}",
            clear=clear,
            q=self.q_tokens[p.query],
            k=self.k_tokens[p.key],
            s=shown,
            does=self.pair_does(),
            lead=self.deed_lead(),
        )

    def deed_lead(self) -> str:
        """The lead of a step that tells the head's deed with its followed pair: "What this head
        does", or "This pair" where nothing more than the pair can be said (an asked pair that
        is not the head's habit nor a key many tokens look at; the strongest links it shares
        its key with are AttentionMatrix's to say)."""
        import attention_core as ac

        s = ac.head_story(self.trace)
        only_the_pair = (
            s is not None
            and s.kind == "asked"
            and s.habit is None
            and s.pair_telling != "asked_column"
            and self.resting_place() is None
        )
        return self.say("lead_pair" if only_the_pair else "lead_head")

    def resting_place(self):
        """The followed head's resting place (``summarise_head``: the first token, [CLS] or
        [SEP], where its rows put on average a quarter or more of their weight), as the
        summary of the head's rows; None where it has none."""
        from attention_core.readings.heads import summarise_head

        if getattr(self, "_rest_summary", False) is False:
            summary = summarise_head(self.head.weights, self.example.tokens)
            self._rest_summary = summary if summary.rest is not None else None
        return self._rest_summary

    def pair_does(self) -> str:
        """What the head does, told of its followed pair (``attention_core.head_story``, as
        AttentionMatrix's reading tells it): for an asked pair the head's resting place first,
        where it has one ("it parks a quarter or more of each row's weight on The, the first
        token, and links it₁ → trophy"), else "the one asked about"; "" where there is no story
        (a made-up example)."""
        import attention_core as ac

        s = ac.head_story(self.trace)
        if s is None:
            return ""
        if s.kind == "asked" and s.habit is None and len(s.pieces) > 1:  # the row's piece
            q, k = self.q_tokens[s.query], self.k_tokens[s.key]
            return self.say("pair_asked_piece", q=q, k=k, word=self.story_key(s))
        if s.kind == "asked" and s.habit is None:  # many tokens looking most at its key: so
            key = "pair_asked_column" if s.pair_telling == "asked_column" else "pair_asked"
            rest = self.resting_place() if key == "pair_asked" else None
            if rest is not None and rest.rest_key != s.key:  # the head's pattern, then the pair
                where = "last" if rest.rest == "sep" else "first"
                key = f"pair_asked_rest_{rest.share_words}_{where}"
                r = self.k_tokens[rest.rest_key]
                return self.say(key, q=self.q_tokens[s.query], k=self.k_tokens[s.key], r=r)
            return self.say(key, q=self.q_tokens[s.query], k=self.k_tokens[s.key])
        return self.story_does(s)

    @property
    def cast(self) -> tuple[int, ...]:
        """The tokens the story is about (``attention_core.story_cast``), in colour; every
        other token in the quiet tone."""
        if getattr(self, "_cast", None) is None:
            self._cast = ac.story_cast(self.trace)
        return self._cast

    def q_color(self, i: int) -> ManimColor:
        """A query token's colour: the cast's colour (by its place in the cast: the most
        distinct first), or the quiet tone outside the cast (issue 38: 23 colours in one
        frame could not be told apart)."""
        if len(self.cast) == self.example.n:  # every token is in the cast: its own colour
            return self.theme.token(i)
        return self.theme.token(self.cast.index(i)) if i in self.cast else self.theme.muted

    def k_color(self, j: int) -> ManimColor:
        """Keys of a second sequence (cross-attention) get colours of their own; in
        self-attention a key is its token's colour (:meth:`q_color`)."""
        if self.example.is_cross:
            return self.theme.token(j + self.example.n)
        return self.q_color(j)

    @property
    def q_tokens(self) -> list[str]:
        """The query labels as shown: repeated ones told apart (a₁, a₂)."""
        return distinct(self.example.tokens)

    @property
    def k_tokens(self) -> list[str]:
        """The key labels as shown (the source sequence's for cross-attention)."""
        return distinct(self.example.key_tokens)

    def token_list(self, tokens: Iterable[str | Token]) -> str:
        """The tokens joined by the language's separator; a token of punctuation alone in
        quotation marks (a list "big, ,, so" read as stray commas): ``captions.listed``."""
        return captions.listed(tokens, self.lang)

    # -- chrome ---------------------------------------------------------------------------------
    def setup(self) -> None:
        self.camera.background_color = self.theme.background
        # a square frame is narrow: its captions get one more line (3 at CAPTION, 4 at SMALL)
        self.caption_lines = 3 if self.frame.width <= self.frame.height * 1.01 else 2
        # never more than three lines at once (issue 38): a longer caption is shown in pages
        self.most_caption_lines = min(self.caption_lines + 1, MOST_CAPTION_LINES)
        self.regions = regions(self.frame, self.caption_lines)
        text = captions.title(self.scene_name, self.lang, typeset=True)
        if len(self.trace.heads) > 1 and self.explains_one_head:
            h, H = self.example.head_index + 1, len(self.trace.heads)
            text += "  ·  " + self.say("head_of", h=h, H=H)
        self.title_mob = self.fitted_title(text)
        place(self.title_mob, self.regions.title, "left")
        self.caption_mob, self._caption_due = VGroup(), False
        self.add(self.title_mob)

    def fitted_title(self, text: str) -> Mobject:
        """The title at the largest size that fits the title bar; in a square frame on two
        lines at the title size before any smaller (the title bar then taller, the content
        shorter: :mod:`scenes.kit.titles`); in a narrow frame, only the part before its colon
        (and "head 1 of 4", where it has one); at worst shortened with "…"."""
        from scenes.kit.titles import room_for, two_line_title
        from scenes.mobjects.math import rich
        from scenes.mobjects.unimath import plain

        width = self.regions.title.width
        square = self.frame.width <= self.frame.height * 1.01
        if square and text_width(plain(text), TITLE) > 0.95 * width:  # as the loop tests it
            two = two_line_title(text, width, TITLE, self.theme.text)
            if two is not None:
                self.regions = room_for(self.regions, two)
                return two
        base, sep, head = text.partition("  ·  ")
        short = base.replace("：", ":").split(":")[0].strip() + sep + head
        for candidate in (text, short):
            for size in (TITLE, CAPTION, SMALL):
                if text_width(plain(candidate), size) <= 0.95 * width:  # bold is wider
                    mob = rich(candidate, size, self.theme.text, weight="BOLD")
                    if mob.width <= width:
                        return mob
        return label(ellipsize(plain(short), width, SMALL), SMALL, self.theme.text, weight="BOLD")

    def caption_groups(self, text: str) -> list[tuple[str, VGroup]]:
        """The caption as pages, each (its text, its group in the bar): one page where the text
        fits the bar (:meth:`caption_group`), else whole sentences a page, shown in turn
        (:func:`caption_pages`)."""
        pages = caption_pages(text, self.regions.caption.width, SMALL, self.most_caption_lines)
        out, at = [], 0
        for page in pages:
            group, at = self.caption_group(page, text, at)
            out.append((page, group))
        return out

    def caption_group(self, page: str, text: str = "", at: int = 0) -> tuple[VGroup, int]:
        """A page of the caption in the bar: two lines at the caption size, else up to three
        smaller (in a square frame three at the caption size, else three smaller); its formulas
        typeset where ``text`` (the whole caption, a :class:`Laid`) says where they are, read
        from ``at``. Returns the group and where the page ended in ``text``."""
        from scenes.mobjects.math import stack_lines

        box = self.regions.caption
        size, buff, most = CAPTION, 0.1, self.caption_lines
        lines = balanced_lines(page, box.width, CAPTION, max_lines=99)
        if len(lines) > self.caption_lines:
            size, buff, most = SMALL, 0.04, self.most_caption_lines
            lines = balanced_lines(page, box.width, SMALL, max_lines=most)
        group, end = self._typeset_lines(lines, text or page, at, size)
        wide = max(line.width for line in group)
        # typeset wider than its Unicode form: broken a little narrower (smaller if it must)
        tries = [(size, buff, max(len(lines), most)), (SMALL, 0.04, self.most_caption_lines)]
        for size_, buff_, most_ in tries if wide > box.width else []:
            narrower = balanced_lines(page, box.width**2 / wide, size_, max_lines=99)
            if len(narrower) <= most_:
                again, end_ = self._typeset_lines(narrower, text or page, at, size_)
                if max(line.width for line in again) <= box.width:
                    group, end, size, buff = again, end_, size_, buff_
                    break
        for k, line in enumerate(group):  # still too wide: that line in its Unicode form
            if line.width > box.width:
                group.submobjects[k] = label(line.source_text, size, self.theme.text)
        group.arrange(direction=[0, -1, 0], buff=buff)
        if any(hasattr(line, "baseline") for line in group):  # formulas: baseline to baseline
            stack_lines(group, label("赢g", size).height + buff, buff)  # as plain text's lines
        return place(group, box, "center"), end

    def _typeset_lines(self, lines, text, at: int, size: float) -> tuple[VGroup, int]:
        """``lines`` of the caption ``text`` (from ``at``), their formulas typeset."""
        from scenes.mobjects.math import typeset_line

        pieces, end = line_pieces(lines, text, at)
        group = VGroup()
        for parts in pieces:  # a formula's no-break spaces are plain spaces on screen
            parts = [(t.replace(NO_BREAK, " "), src) for t, src in parts]
            group.add(typeset_line(parts, size, self.theme.text))
        return group, end

    def step(
        self, key: str, caption_key: str | None = None, clear: bool = False, **values: Any
    ) -> None:
        """Start step ``key``: a new section, and its caption in the bar at the bottom.

        ``clear`` fades out everything the previous step left (but the title), so each step ends
        on its full still and the next one starts afresh.
        """
        self._close_step()
        start = self.renderer.time
        index = len(self.steps)
        section = f"{index:03d}-{key}"  # the step's number: a split render joins by it
        if self.renders_section(index):
            self.next_section(section)
        else:
            self.next_section(section, skip_animations=True)
        which = (self.scene_name, caption_key or key, self.lang)
        text = captions.caption(*which, **values).strip()
        shown = captions.caption(*which, whole_formulas=True, **values)  # stripped: a Laid
        (first, new), *self._pages = self.caption_groups(shown)
        old = [self.caption_mob] if len(self.caption_mob) else []
        if clear:
            old += [
                m for m in self.mobjects if m is not self.title_mob and m is not self.caption_mob
            ]
        if old:  # the old caption leaves before the new one comes: one caption at a time
            self.play(*(FadeOut(m) for m in old), run_time=0.3)
        # the new caption follows its picture: it comes at the step's first hold (or its end),
        # after the step's animations and a moment of the new picture alone (issue 38: a
        # caption said 33.60 while the panel still showed 37.23)
        self.caption_mob, self._caption_due = new, True
        self._open_step = {"key": key, "caption": text, "start": start}
        self._page_text = text if not self._pages else first

    def _show_caption(self) -> None:
        """The open step's caption, once its picture has been seen for :data:`PICTURE_FIRST`."""
        if not self._caption_due:
            return
        self._caption_due = False
        from manim import config

        # on whole frames: the caption comes at the same frame whether the video is rendered
        # whole or split at its steps across processes (the subtitles are timed to it)
        self.wait_until(self.renderer.time + PICTURE_FIRST)
        fps = config.frame_rate
        self.play(FadeIn(self.caption_mob), run_time=max(1, round(0.3 * fps)) / fps)
        self._caption_shown = self._open_step["shown"] = self.renderer.time
        self.speak_page()  # narrated: the page is said as it comes (scenes/kit/narration.py)

    def play_all(self, animations: Iterable[Animation], **kwargs: Any) -> None:
        """Play ``animations`` together; with none (nothing of that kind to show), just pause."""
        animations = list(animations)
        if animations:
            self.play(*animations, **kwargs)
        else:
            self.wait(kwargs.get("run_time", 0.5))

    def hold(self, seconds: float = STEP_PAUSE) -> None:
        """Pause on the picture; the step's caption comes first where it is still due."""
        if self._caption_due:
            self._show_caption()
        else:
            self.wait(seconds)

    def _close_step(self) -> None:
        """End the open step, first holding its still until its caption can be read."""
        if self._open_step is None:
            return
        self._show_caption()
        self._wait_to_read()
        page_no = 1
        while self._pages:  # a caption of several pages: each read in turn, one at a time
            for listener in self.page_listeners:  # the page on screen, before the next comes
                listener(
                    self,
                    {"key": self._open_step["key"], "caption": self._page_text, "page": page_no},
                )
            page_no += 1
            self._page_text, page = self._pages.pop(0)
            self.play(FadeOut(self.caption_mob), run_time=0.3)
            self.play(FadeIn(page), run_time=0.3)
            self.caption_mob, self._caption_shown = page, self.renderer.time
            self.speak_page()
            self._wait_to_read()
        self._tip_labels_on_top()
        record = dict(self._open_step, end=self.renderer.time)
        self.steps.append(record)
        self._open_step = None
        for listener in self.step_listeners:
            listener(self, record)

    def _wait_to_read(self) -> None:
        """Hold until the caption page on screen can be read (narrated: said, and a breath),
        counted from when it was fully on screen, plus the next one's fade-out."""
        short = self.page_seconds() - (self.renderer.time - self._caption_shown)
        if short > 1e-3:
            self.wait_until(self.renderer.time + short)

    def wait_until(self, seconds: float) -> None:
        """Hold the picture until ``seconds`` (at least), ending on a whole frame, so a video
        split at its steps joins to the same timing. A wait on a still frame counts its frames
        rounding down (Manim: ``int(duration / dt)``), so a wait that came a frame short is
        made up by another."""
        from manim import config

        fps = config.frame_rate
        end = math.ceil(seconds * fps - 1e-6)
        frames = end - self.renderer.time * fps
        if frames > 1e-6:
            self.wait(frames / fps)
        short = round(end - self.renderer.time * fps)
        if short > 0:  # a frame short: one more
            self.wait(short / fps)

    def _tip_labels_on_top(self) -> None:
        """Arrow labels are drawn last, over every arrow and grid line (with their halo)."""
        tops = [
            top
            for top in self.mobjects
            if any(getattr(m, "is_tip_label", False) for m in top.get_family())
            and not any(isinstance(m, Arrow) for m in top.get_family())
        ]
        for top in tops:  # a plain reorder: later in the list is drawn on top
            self.mobjects.remove(top)
            self.mobjects.append(top)

    def render(self, *args: Any, **kwargs: Any) -> bool:
        """Render with the look's font (its installed fallback) for every text, and only then."""
        with fonts.using(self.look.font):
            return super().render(*args, **kwargs)

    def tear_down(self) -> None:
        self._close_step()
        super().tear_down()

    # -- numbers ----------------------------------------------------------------------------------
    def num(
        self,
        value: float,
        role: tuple,
        digits: int = 2,
        size: float | None = None,
        color: ManimColor | str | None = None,
        **kw: str,
    ) -> Num:
        from scenes.mobjects.theme import SMALL

        return Num(value, role, digits, size or SMALL, color or self.theme.text, **kw)
