"""Captions typeset in both languages (issue 38, item 3), from a review of real 20–24-token
sentences: "Chinese at 4:3 with a line that starts with '、'", "a superscript torn from its
character across a line; a label torn from its number", "punctuation tokens unquoted
('每个分数原地变小，。框出的…' reads as a typo)", "byte pieces called 词".

Every caption template of every scene, in both languages, is filled with hostile token labels
(punctuation alone, labels with sub- and superscripts, a label with a space, 12-character
labels) and laid out as the caption bar lays it out (``ExplainerScene.caption_groups``: pages of
whole sentences, each page two lines at the caption size or up to one more smaller) at the
caption widths of 16:9, 4:3 and 1:1. No scene is rendered: text is measured from cached widths.
"""

from __future__ import annotations

import re
import string

import pytest

import attention_core as ac
from scenes.kit import captions
from scenes.kit.base import MOST_CAPTION_LINES
from scenes.kit.look import Look
from scenes.mobjects.layout import Box, regions
from scenes.mobjects.text import (
    WORD_JOINER,
    Token,
    _break_units,
    balanced_lines,
    caption_pages,
    distinct,
    quoted,
    text_width,
    wrap_lines,
)
from scenes.mobjects.theme import CAPTION, SMALL
from scenes.mobjects.unimath import NO_BREAK

# no line starts with a closing mark (kinsoku), none ends with an opening one
NO_LINE_START = "、，。；：！？）」』》〉】〕］｝”’,.;:!?)"
NO_LINE_END = "（「『《〈【〔［｛“‘("
SCRIPTS = "₀₁₂₃₄₅₆₇₈₉⁰¹²³⁴⁵⁶⁷⁸⁹"

# the labels a real sentence gives (SmolLM2's byte pieces, MiniLM's ##pieces, repeats told
# apart, punctuation tokens) and the longest a lecturer may write
HOSTILE = [
    ["。", "猫¹", "it₂"],
    ["、", "，₂", "11 because"],
    ["”", "（", "WWWWWWWWWW01"],
    [",", "注意力机制的查询向量在这里", "##erman"],
    ["猫²", "she", "」"],
]
PUNCTUATION = ["。", "、", "，₂", "”", "（", ",", "」"]
LABEL_KEYS = ("q", "k", "e", "o", "p", "word")  # a value that is one token's label
NUMBER = "0.381"


def _caption_box(aspect: str) -> tuple[float, int]:
    """The caption bar's width and its lines at the caption size, as ExplainerScene.setup."""
    w, h = Look.for_example(ac.PRESETS["zao-shang-hao"], aspect=aspect).frame_size
    frame = Box(-w / 2, -h / 2, w / 2, h / 2)
    lines = 3 if frame.width <= frame.height * 1.01 else 2
    return regions(frame, lines).caption.width, lines


ASPECTS = {aspect: _caption_box(aspect) for aspect in ("16:9", "4:3", "1:1")}


def _laid_out(layout: str, width: float, lines: int) -> list[list[str]]:
    """The caption's pages and their lines as ``ExplainerScene.caption_groups`` and
    ``caption_group`` lay them out, no-break spaces shown as spaces."""
    pages, most = [], min(lines + 1, MOST_CAPTION_LINES)
    for page in caption_pages(layout, width, SMALL, most):
        cut = balanced_lines(page, width, CAPTION, max_lines=99)
        if len(cut) > lines:
            cut = balanced_lines(page, width, SMALL, max_lines=most)
        pages.append([line.replace(NO_BREAK, " ") for line in cut])
    return pages


def _values(template: str, lang: str, labels: list[str]) -> dict:
    """Every placeholder of ``template`` filled: a token label for a label's key (in turn from
    ``labels``), the words scenes make of labels for theirs (a pair and its weight, a head's
    story, a list of tokens), a number for the rest."""
    names = [f for _, f, _, _ in string.Formatter().parse(template) if f]
    tokens = [Token(t) for t in labels]
    values, n = {}, 0
    for name in dict.fromkeys(names):
        if name in LABEL_KEYS:
            values[name] = tokens[n % len(tokens)]
            n += 1
        elif name == "kw":
            values[name] = captions.word("key_weight", lang, k=tokens[1], w=NUMBER)
        elif name == "does":
            values[name] = captions.word(
                "does_induction", lang, q=tokens[0], k=tokens[1], e=tokens[2]
            )
        elif name == "sym":  # a sentence after the reading
            values[name] = captions.word("symmetric_no", lang, a=NUMBER, b=NUMBER)
        elif name in ("tokens", "queries", "sources", "weights", "rows"):
            pairs = [captions.word("key_weight", lang, k=t, w=NUMBER) for t in tokens]
            values[name] = captions.listed(pairs if name == "weights" else tokens, lang)
        else:
            values[name] = NUMBER
    return values


def _templates():
    for scene, steps in captions.CAPTIONS.items():
        for step in steps:
            yield scene, step


def _problems(
    text: str, pages: list[list[str]], labels: list[str], pairs: list[str], most: int = 4
) -> list:
    """What a reader would see wrong in ``pages`` of the caption ``text``."""
    lines = [line for page in pages for line in page]
    problems = []
    if len(max(pages, key=len)) > most:
        problems.append(f"a page of {len(max(pages, key=len))} lines")
    flat = text.replace(" ", "")
    if "".join(lines).replace(" ", "") != flat:
        problems.append(f"the lines do not spell the caption: {lines}")
    for a, b in zip(lines, lines[1:]):
        if b.lstrip()[:1] in set(NO_LINE_START) or b.lstrip()[:1] in set(SCRIPTS):
            problems.append(f"a line starts with {b.lstrip()[:1]!r}: {a!r} / {b!r}")
        if a.rstrip()[-1:] in set(NO_LINE_END):
            problems.append(f"a line ends with {a.rstrip()[-1:]!r}: {a!r} / {b!r}")
    for whole in [quoted(t) for t in labels] + pairs:  # each label, and each "label 0.381"
        if sum(line.count(whole) for line in lines) != text.count(whole):
            problems.append(f"{whole!r} torn across lines: {lines}")
    return problems


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("aspect", list(ASPECTS))
def test_every_caption_with_hostile_labels_is_typeset_by_the_rules(lang, aspect):
    """Every caption template, filled with hostile labels, at the aspect's caption width: no
    line starts with a closing mark or a sub-/superscript, none ends with an opening mark, no
    label (nor "label 0.381" where a caption writes them together) is torn across lines, and
    each page has at most three lines (issue 38)."""
    width, lines = ASPECTS[aspect]
    problems = []
    for scene, step in _templates():
        template = captions.pick(captions.CAPTIONS[scene][step], lang)
        for labels in HOSTILE:
            values = _values(template, lang, labels)
            text = captions.caption(scene, step, lang, **values)
            layout = captions.caption(scene, step, lang, whole_formulas=True, **values)
            pairs = []
            for m in re.finditer(r"\{(\w+)\} \{(\w+)\}", template):
                left, right = values.get(m.group(1)), values.get(m.group(2))
                if isinstance(left, Token) and right == NUMBER:
                    pairs.append(f"{quoted(left)} {NUMBER}")
            if "kw" in values:
                pairs.append(f"{quoted(Token(labels[1]))} {NUMBER}")
            found = _problems(
                text, _laid_out(layout, width, lines), labels, pairs, MOST_CAPTION_LINES
            )
            problems += [f"{scene}/{step} {labels}: {p}" for p in found]
    assert not problems, "\n".join(problems[:12])


def _torn_units(layout: str, wholes: list[str]) -> list[str]:
    """Where ``layout`` may break (between :func:`_break_units`'s units) against the rules: a
    unit that starts with a closing mark or a sub-/superscript, one that ends with an opening
    mark, a break inside one of ``wholes`` (labels as a caption shows them)."""
    units = _break_units(layout)
    if "".join(units) != layout:
        return [f"the units do not spell the caption: {units}"]
    units = [u.replace(WORD_JOINER, "").replace(NO_BREAK, " ") for u in units]  # as shown
    layout = "".join(units)
    problems = []
    for a, b in zip(units, units[1:]):
        if b.lstrip()[:1] in set(NO_LINE_START + SCRIPTS) or a.rstrip()[-1:] in set(NO_LINE_END):
            problems.append(f"a break between {a!r} and {b!r}")
    cuts, at = set(), 0
    for unit in units[:-1]:
        at += len(unit)
        cuts.add(at)
    for w in wholes:
        for m in re.finditer(re.escape(w), layout):
            if any(m.start() < cut < m.end() for cut in cuts):
                problems.append(f"{w!r} may break: {units}")
    return problems


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_caption_may_break_inside_a_label_or_before_a_closing_mark(lang):
    """At any width: every caption template, filled with hostile labels, may break only where
    the rules allow — never before a closing mark or a sub-/superscript, never after an
    opening mark, never inside a label or between a label and the number written after it."""
    problems = []
    for scene, step in _templates():
        template = captions.pick(captions.CAPTIONS[scene][step], lang)
        for labels in HOSTILE:
            values = _values(template, lang, labels)
            layout = captions.caption(scene, step, lang, whole_formulas=True, **values)
            wholes = [quoted(t) for t in labels] + [f"{quoted(t)} {NUMBER}" for t in labels]
            problems += [f"{scene}/{step}: {p}" for p in _torn_units(layout, wholes)]
    assert not problems, "\n".join(problems[:12])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_punctuation_token_is_quoted_wherever_a_caption_names_it(lang):
    """Every caption and word that names a token: a punctuation token in quotation marks
    (“。” in Chinese, “,” in English) exactly where a plain label stands unquoted, as a
    formula's argument too, q(“。”), as the scenes draw k(“.”) (issue 38: one rule wherever a
    token is named); in a list of tokens too. A label with letters is never quoted."""
    missing = []
    tables = [(captions.CAPTIONS[s][k], s, k) for s, k in _templates()]
    tables += [(pair, None, key) for key, pair in captions.WORDS.items()]
    for pair, scene, key in tables:
        template = captions.pick(pair, lang)
        names = {f for _, f, _, _ in string.Formatter().parse(template) if f}
        if not names & set(LABEL_KEYS):
            continue
        for mark in PUNCTUATION:
            plain_values = _values(template, lang, ["LABEL"] * 3)
            marked = _values(template, lang, [mark] * 3)
            if scene is None:
                got, want = (captions.word(key, lang, **v) for v in (marked, plain_values))
            else:
                got, want = (
                    captions.caption(scene, key, lang, **v) for v in (marked, plain_values)
                )
            if got != want.replace("LABEL", f"“{mark}”"):
                missing.append(f"{scene}/{key}: {got!r}")
    assert not missing, "\n".join(missing[:10])
    assert captions.listed([Token("big"), Token(","), Token("so")], "en") == "big, “,”, so"
    assert captions.listed([Token("猫"), Token("。")], "zh") == "猫、“。”"
    assert quoted(Token("it₂")) == "it₂" and quoted("，₂") == "“，₂”"


def test_word_pieces_are_called_tokens_never_words():
    """Pieces of a word (猫¹ 猫², ##erman) are tokens: no caption, word on screen or title says
    词 or "word(s)" for a token; 词元 and token do (词向量, embedding, and 分词器, tokenizer, are
    other words)."""
    found = []
    pairs = [(f"{s}/{k}", p) for s, steps in captions.CAPTIONS.items() for k, p in steps.items()]
    pairs += list(captions.WORDS.items()) + list(captions.TITLES.items())
    from scenes import head_gallery  # its readings' words, in titles and the caption

    for table in ("PATTERN_WORDS", "SHORT_WORDS", "PATTERN_PHRASES", "LIT_PHRASES"):
        pairs += [(f"{table}/{k}", p) for k, p in getattr(head_gallery, table).items()]
    for key, (zh, en) in pairs:
        zh, en = (re.sub(r"\{\w+\}", "", t) for t in (zh, en))  # a placeholder's name: no word
        if re.search(r"(?<!分)词(?![元向])", zh):
            found.append(f"{key}: {zh}")
        if re.search(r"\bwords?\b", en) and "key word" not in en:
            found.append(f"{key}: {en}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_long_caption_comes_in_pages_of_whole_sentences(lang):
    """A caption too long for the bar (a 1:1 frame, real labels) is cut between sentences,
    each page within its lines, and the pages spell the caption; a label with a space stays
    whole on its page."""
    width, lines = ASPECTS["1:1"]
    labels = ["11 because", "查询向量", "。"]
    values = _values(
        captions.pick(captions.CAPTIONS["AttentionMatrix"]["story_asked_column"], lang),
        lang,
        labels,
    )
    text = captions.caption("AttentionMatrix", "story_asked_column", lang, **values)
    layout = captions.caption(
        "AttentionMatrix", "story_asked_column", lang, whole_formulas=True, **values
    )
    long = layout + (" " if lang == "en" else "") + layout
    pages = _laid_out(long, width, lines)
    assert len(pages) > 1, pages
    assert all(len(page) <= MOST_CAPTION_LINES for page in pages), pages
    spelled = "".join(line for page in pages for line in page).replace(" ", "")
    assert spelled == (text + text).replace(" ", "")
    assert all(p[-1].rstrip()[-1] in "。.)" for p in pages), pages  # whole sentences a page
    assert any("11 because" in line for page in pages for line in page)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_page_never_starts_inside_a_label_or_a_formula(lang):
    """A sentence's end inside a label is no end: a caption in pages is never cut after the
    。 of “。” (a page starting with ”) nor of q(。) (a page starting with ")")."""
    width, lines = ASPECTS["1:1"]
    names = ["。", "？", "!", "."]
    for step in ("pair_top", "pair_ranked"):
        template = captions.pick(captions.CAPTIONS["Projections"][step], lang)
        values = _values(template, lang, names)
        text = captions.caption("Projections", step, lang, **values)
        layout = captions.caption("Projections", step, lang, whole_formulas=True, **values)
        glue = " " if lang == "en" else ""
        pages = _laid_out(glue.join([layout] * 3), width, lines)
        assert len(pages) > 1, pages
        firsts = [page[0].lstrip()[:1] for page in pages]
        assert not set(firsts) & set(NO_LINE_START + SCRIPTS), pages
        assert not _problems(glue.join([text] * 3), pages, names, [], lines + 1), pages


def test_no_zh_caption_may_break_inside_a_term_of_the_glossary():
    """Issue 38: "所有权重合起来" broke as "所有权 / 重合起来" ("ownership / coincide"). Every zh
    caption template, filled with labels, may break only between words: never inside a term of
    the subject (权重, 注意力, 查询, 向量, 词元 …) where the caption writes it."""
    from scenes.mobjects.text import GLOSSARY

    terms = [t for t in GLOSSARY if len(t) > 1]
    problems = []
    for scene, step in _templates():
        template = captions.pick(captions.CAPTIONS[scene][step], "zh")
        for labels in (["it", "soup", "早"], HOSTILE[0]):
            values = _values(template, "zh", labels)
            layout = captions.caption(scene, step, "zh", whole_formulas=True, **values)
            found = [t for t in terms if t in layout]
            problems += [f"{scene}/{step}: {p}" for p in _torn_units(layout, found)]
    assert not problems, "\n".join(problems[:12])


def test_all_the_weights_together_is_never_read_as_ownership():
    """The review's line, at every width from 3 to 14 characters: 权重 whole on one line (jieba
    alone cuts 所有权/重合/起来); a word wider than the line alone is cut between characters."""
    text = "所有权重合起来正好是 1。"
    char = text_width("字", SMALL)
    for chars in range(3, 15):
        lines = wrap_lines(text, chars * char, SMALL, max_lines=99)
        assert "".join(lines).replace(" ", "") == text.replace(" ", ""), lines
        assert sum(line.count("权重") for line in lines) == 1, (chars, lines)
    lines = wrap_lines("注意力很强", 1.5 * char, SMALL, max_lines=99)
    assert all(text_width(line, SMALL) <= 1.5 * char for line in lines), lines


def test_the_rules_can_fail():
    """Without the rules a caption breaks as the review found: the checks see each fault."""
    text = "每个分数原地变小，。框出的猫¹和猫²是一个字的两个字节片段。"
    lines = ["每个分数原地变小", "，。框出的猫", "¹和猫²是一个字的两个字节片段。"]
    found = _problems(text, [lines], ["猫¹", "。"], [])
    assert any("starts with '，'" in p for p in found), found
    assert any("'猫¹' torn" in p for p in found), found
    # and the wrapping itself keeps them: at every width, no such line
    for width in (1.5, 2.0, 2.5, 3.0, 4.0):
        cut = wrap_lines(
            "每个分数原地变小，“。”框出的猫¹和猫²是一个字的两个字节片段。", width, SMALL, 99
        )
        assert not _problems(text.replace("，。", "，“。”"), [cut], ["猫¹", "猫²"], [], 99), cut


def test_scene_labels_are_tokens():
    """The scenes' labels (``distinct``) are Tokens, so every caption names them by one rule."""
    labels = distinct(["猫", "，", "猫"])
    assert labels == ["猫₁", "，", "猫₂"] and all(isinstance(t, Token) for t in labels)


@pytest.mark.parametrize("lang,aspect", [("zh", "4:3"), ("en", "1:1")])
def test_scenes_name_hostile_labels_by_the_rules(lang, aspect):
    """Through the scenes (steps run, no frames): Embeddings' list of tokens and Softmax's row
    name the punctuation tokens quoted and the byte pieces whole, and every line in the caption
    bar keeps the line-breaking rules, on each page of a caption shown in pages."""
    import numpy as np

    from scenes.kit.registry import find
    from scenes.pipeline.stills import run_steps

    tokens = ["猫¹", "猫²", "，", "。", "it", "it", "11 because", "、"]
    xy = np.random.default_rng(3).normal(size=(len(tokens), 2)).round(2).tolist()
    ex = ac.Example(title="hostile", tokens=tokens, embeddings=xy)
    look = Look.for_example(ex, lang=lang, aspect=aspect)
    problems, said = [], []
    for name in ("Embeddings", "Softmax"):

        def lines(s):
            return [m.source_text for m in s.caption_mob]

        pages = []  # a step's pages before its last (page 1, 2 …), then the step's own
        for st in run_steps(
            find(name).load(), ex, look=look, frames=False, snapshot=lines, pages=True
        ):
            pages.append(st.snapshot)
            if st.page is not None:
                continue
            said.append(st.caption)
            found = _problems(st.caption, pages, ["猫¹", "猫²", "，", "11 because"], [])
            problems += [f"{name}/{st.key}: {p}" for p in found]
            pages = []
    assert not problems, "\n".join(problems)
    listed = next(c for c in said if "11 because" in c)
    sep = "、" if lang == "zh" else ", "
    assert sep.join(["猫¹", "猫²", "“，”", "“。”", "it₁", "it₂", "11 because", "“、”"]) in listed
    assert any("“，”" in c for c in said[3:]), said  # Softmax's row: the query quoted


def test_speaker_notes_name_a_punctuation_token_quoted():
    """The notes' rows name tokens by the captions' rule: “。” in a sentence and in a formula,
    o(“。”)."""
    from scenes.outputs import notes

    ex = ac.Example(title="t", tokens=["。", "猫"], embeddings=[[1.0, 0.0], [0.0, 1.0]])
    tr = ac.trace_example(ex)
    assert notes._fill("share of {q} from the other tokens", "hq", (0, 0), tr) == (
        "share of “。” from the other tokens"
    )
    assert notes._fill("‖o({q})‖", "hq", (0, 0), tr) == "‖o(“。”)‖"
    assert notes._fill("{q} 来自其他词元的份额", "hq", (0, 1), tr, "zh") == "猫 来自其他词元的份额"


def test_a_punctuation_token_is_quoted_wherever_the_screen_names_it():
    """Issue 38 (a review at real size: "k(.)" on a plane, a column headed "." read as "·"): a
    Token is quoted where it is punctuation alone wherever it is named on screen — formatted
    into a label as the scenes write them (f"k({t})"), drawn bare (a tip's label), in a table's
    headers — by the captions' one rule; a label with letters never, a comma that is no token
    never; the quotation marks are plain characters (a Token "<" drawn literally, no markup)."""
    from scenes.mobjects.matrix import LabelledMatrix
    from scenes.mobjects.text import label
    from scenes.mobjects.theme import DARK

    dot, it, lt = Token("."), Token("it₂"), Token("<")
    assert f"k({dot})" == "k(“.”)" and f"q({it}) · k({Token('。')})" == "q(it₂) · k(“。”)"
    assert str(dot) == "." and dot == "."  # the label itself, for look-ups
    assert label(dot).source_text == "“.”" and label(it).source_text == "it₂"
    assert label(",").source_text == "," and label(lt).source_text == "“<”"
    tokens = distinct(["she", ".", "she", "<b>"])
    m = LabelledMatrix([[0.5] * 4] * 4, ("weights", 0), DARK, tokens, tokens)
    heads = {t.source_text for t in [*m.row_labels, *m.col_labels]}
    assert {"“.”", "she₁", "she₂", "<b>"} <= heads, heads


def test_a_multiplication_dot_is_drawn_centred_not_as_a_bullet():
    """Issue 38: "q(it) · k(soup)" in a caption showed a bullet — the CJK font sets the middle
    dot U+00B7 full width and heavy. Pango is given the dot operator ⋅ (as Typst's formulas
    show, with thin spaces where it stands between two characters), narrower than a plus; the
    text keeps its middle dot (subtitles, checks)."""
    from scenes.mobjects.text import drawn, label, text_width

    assert drawn("q(it) · k(soup)") == "q(it) ⋅ k(soup)"
    assert drawn("q(it)·k(soup)") == "q(it)\u2009⋅\u2009k(soup)"  # a thin space each side
    mob = label("q · k", CAPTION)
    assert mob.source_text == "q · k" and "⋅" in mob.text and "·" not in mob.text
    assert text_width("·", CAPTION) < text_width("+", CAPTION)
