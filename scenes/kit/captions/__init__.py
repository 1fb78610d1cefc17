"""Every word a scene shows or says, in Chinese and English: titles, step captions, labels.

One module a scene (its ``TITLE``, ``STEPS`` and ``WORDS``, both languages side by side for
translators) and ``common`` for the words several scenes share; this module joins them into
:data:`TITLES`, :data:`CAPTIONS` and :data:`WORDS` and words them (:func:`caption`, :func:`word`).

A caption is a template filled with numbers from the trace (already formatted) and token labels.
Labels are inserted as plain values into Pango ``Text``; nothing here is markup. No caption
repeats the source texts' errors (docs/design.md, "The numbers the source texts got wrong"): the numbers come from the core.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from scenes.mobjects.token_text import WORD_JOINER, Token, named, quoted
from scenes.mobjects.unimath import NO_BREAK, laid, plain

from . import (
    attention_matrix,
    causal_mask,
    common,
    cross_attention,
    dot_products,
    embeddings,
    encoder_block,
    head_gallery,
    head_moved,
    multi_head_split,
    overview,
    positional_encoding,
    projections,
    rotary_positions,
    scaling,
    softmax,
    starter,
    weighted_sum,
)

if TYPE_CHECKING:
    from attention_core import Example

LANGS = ("zh", "en")
EN_RATE = 12.0  # characters a second a viewer reads (docs/design.md, "Pictures": pacing)
ZH_RATE = 6.0
MIN_READ = 2.0

# the scenes' modules in teaching order (the starter scene first: it is the one to copy)
SCENE_MODULES = (
    starter,
    embeddings,
    projections,
    dot_products,
    scaling,
    softmax,
    weighted_sum,
    head_moved,
    attention_matrix,
    overview,
    head_gallery,
    causal_mask,
    multi_head_split,
    rotary_positions,
    positional_encoding,
    encoder_block,
    cross_attention,
)


def _joined(parts) -> dict:
    """The words of every module in one table; a key defined twice is an error, not a shadow."""
    out: dict = {}
    for part in parts:
        twice = out.keys() & part.keys()
        if twice:
            raise KeyError(f"captions: {sorted(twice)} defined twice")
        out.update(part)
    return out


TITLES = {m.SCENE: m.TITLE for m in SCENE_MODULES}
CAPTIONS = {m.SCENE: m.STEPS for m in SCENE_MODULES}
WORDS = _joined([common.WORDS, *(m.WORDS for m in SCENE_MODULES)])


def default_lang(example: Example) -> str:
    """zh when the example's labels or title use CJK characters, else en."""
    return "zh" if example.is_cjk else "en"


def reading_time(text: str, lang: str) -> float:
    """Seconds a viewer needs to read ``text``: 12 characters a second in English, 6 in Chinese
    (CJK characters at 6, the rest at 12), never under 2 s."""
    text = text.replace(WORD_JOINER, "")  # a label's joiners (a page's layout text) are unseen
    cjk = sum(1 for ch in text if ord(ch) > 0x2E7F and not ch.isspace())
    other = sum(1 for ch in text if ord(ch) <= 0x2E7F and not ch.isspace())
    spaces = sum(1 for ch in text if ch.isspace())
    return max(MIN_READ, cjk / ZH_RATE + (other + spaces) / EN_RATE)


def pick(pair: tuple[str, str], lang: str) -> str:
    return pair[LANGS.index(lang)]


class Phrase(str):
    """A word filled in (:func:`word`) that a caption may take as a value: ``layout`` is the
    same words with its token labels kept whole (:func:`_filled`), for breaking into lines,
    each of its formulas marked (:func:`~scenes.mobjects.unimath.plain`); ``sources``: their
    Typst sources, in order, so that a caption typesets a word's formula as its own (issue 38:
    "scores QKᵀ" taken into a caption was drawn in Unicode)."""

    layout: str
    sources: tuple = ()


_NUMBER = re.compile(r"[−-]?\d[\d.,]*%?")
_PLAIN_NUMBER = re.compile(r"[−-]?\d+(\.\d+)?")  # all a caption's formula may take
_NAMED_THEN = re.compile(r"\{(\w+)\} (?=\{(\w+)\})")


def _filled(template: str, values: dict, layout: bool) -> str:
    """``template`` filled with ``values``: a token label (a :class:`Token`) named as a caption
    names it, quoted where it is punctuation alone (“。”, “,”, and as a formula's argument
    q(“。”), as the scenes draw k(“.”): one rule for both languages and for every place a token
    is named); for the ``layout`` text, each label kept whole and with the number written after
    it ("she → baker 0.381": a review found a label torn from its number, 猫 from its ¹)."""
    shown = {}
    for k, v in values.items():
        if isinstance(v, Token):
            shown[k] = named(v) if layout else quoted(v)
        else:
            shown[k] = v.layout if layout and isinstance(v, Phrase) else v
    if not layout:
        return template.format(**shown)

    def glued(m):  # "{k} {w}": a label and its number on one line
        left, right = values.get(m.group(1)), values.get(m.group(2))
        number = isinstance(right, str | int | float) and _NUMBER.fullmatch(str(right))
        return m.group(0)[:-1] + (NO_BREAK if isinstance(left, Token) and number else " ")

    return _NAMED_THEN.sub(glued, template).format(**shown)


def filled(template: str, **values: Any) -> str:
    """A template of this project's words filled as a caption is (:func:`_filled`): a token
    label (a :class:`Token`) quoted where it is punctuation alone (the speaker notes' rows)."""
    return _filled(template, values, False)


def caption(scene: str, step: str, lang: str, whole_formulas: bool = False, **values: Any) -> str:
    """The caption of ``step`` in ``scene``, filled with ``values`` (strings or numbers; token
    labels as :class:`Token`, named as :func:`_filled` says); its ``$…$`` formulas in Unicode
    forms (captions are plain text: they go to .srt and .vtt); ``whole_formulas``: the layout
    text, with no-break spaces inside formulas and labels kept whole, for breaking the caption
    into lines: a :class:`~scenes.mobjects.unimath.Laid` that knows each formula's place and
    Typst source, for the caption bar to typeset it."""
    source = pick(CAPTIONS[scene][step], lang)
    template = plain(source, whole_formulas, marked=whole_formulas)
    text = _filled(template, values, whole_formulas)
    if not whole_formulas:  # a value's layout marks (a label made whole) are not subtitles
        return text.replace(WORD_JOINER, "").replace(NO_BREAK, " ")
    # Σ s(1−s) whole too, and a pair "it₁ → trophy" (a review: zh lines broke at its arrow)
    text = text.replace("Σ ", "Σ" + NO_BREAK).replace(" → ", f"{NO_BREAK}→{NO_BREAK}")
    return laid(text.strip(), _sources(source, values))


_FORMULA_OR_VALUE = re.compile(r"\$([^$]+)\$|\{(\w+)[^{}]*\}")


def _sources(template: str, values: dict) -> list:
    """The Typst source of each formula of ``template`` filled with ``values``, in the order
    they stand: its own (:func:`_typst`) and, where a value is a :class:`Phrase`, the
    phrase's (``sources``)."""
    out: list = []
    for m in _FORMULA_OR_VALUE.finditer(template):
        if m.group(1) is not None:
            out.append(_typst(m.group(1), values))
        elif isinstance(values.get(m.group(2)), Phrase):
            out.extend(values[m.group(2)].sources)
    return out


def _typst(formula: str, values: dict) -> str | None:
    """A caption's formula as Typst source, its placeholders filled; None (drawn in its Unicode
    form) where one would take anything but a number: only numbers ever reach Typst, never a
    token label or a phrase."""
    names = re.findall(r"\{(\w+)\}", formula)
    filled = {}
    for name in names:
        v = values.get(name)
        if isinstance(v, Token | Phrase) or not _PLAIN_NUMBER.fullmatch(str(v).strip()):
            return None
        filled[name] = str(v).strip().replace("−", "-")
    formula = re.sub(r"(?<!\\)/", r"\/", formula)  # a fraction on the line, as its Unicode
    return formula.format(**filled) if names else formula


def word(key: str, lang: str, **values: Any) -> str:
    """A word or label, filled in, its ``$…$`` math in Unicode forms; token labels named as in
    a caption (:func:`_filled`). A :class:`Phrase`: a caption that takes it keeps its labels
    whole."""
    source = pick(WORDS[key], lang)
    out = Phrase(_filled(plain(source), values, False))
    out.layout = _filled(plain(source, True, marked=True), values, True)
    out.sources = tuple(_sources(source, values))
    return out


def listed(items: Iterable[Any], lang: str) -> Phrase:
    """``items`` (token labels, words of :func:`word`, numbers) joined by the language's
    separator (、 or ", "), each label — any item but a word — named as a caption names it:
    "big, “,”, so"."""
    items = list(items)
    sep = word("tokens_list_sep", lang)
    out = Phrase(sep.join(str(t) if isinstance(t, Phrase) else quoted(t) for t in items))
    out.layout = sep.join(t.layout if isinstance(t, Phrase) else named(t) for t in items)
    out.sources = tuple(s for t in items if isinstance(t, Phrase) for s in t.sources)
    return out


def ordinal(rank: int, lang: str) -> str:
    """A rank in a row's weights, as a caption says it: 第2大 (zh), 2nd (en)."""
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return word("nth", lang, r=rank, suffix=suffix)


def template(key: str, lang: str) -> str:
    """A word or label's template with its ``$…$`` math kept, for typesetting on screen."""
    return pick(WORDS[key], lang)


def title(scene: str, lang: str, typeset: bool = False) -> str:
    """The scene's title: with its ``$…$`` math for the screen (``typeset``), else in Unicode."""
    text = pick(TITLES[scene], lang)
    return text if typeset else plain(text)
