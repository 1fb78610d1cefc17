"""Every word a scene shows or says, in Chinese and English: titles, step captions, labels.

One module a scene (its ``TITLE``, ``STEPS`` and ``WORDS``, both languages side by side for
translators) and ``common`` for the words several scenes share; this module joins them into
:data:`TITLES`, :data:`CAPTIONS` and :data:`WORDS` and words them (:func:`caption`, :func:`word`).

A caption is a template filled with numbers from the trace (already formatted) and token labels.
Labels are inserted as plain values into Pango ``Text``; nothing here is markup. No caption
repeats the source texts' errors (docs/design.md, "The numbers the source texts got wrong"): the numbers come from the core.
"""

from __future__ import annotations

from scenes.mobjects.unimath import NO_BREAK, plain

from . import (
    attention_matrix,
    causal_mask,
    common,
    cross_attention,
    dot_products,
    embeddings,
    encoder_block,
    head_gallery,
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


def default_lang(example) -> str:
    """zh when the example's labels or title use CJK characters, else en."""
    return "zh" if example.is_cjk else "en"


def reading_time(text: str, lang: str) -> float:
    """Seconds a viewer needs to read ``text``: 12 characters a second in English, 6 in Chinese
    (CJK characters at 6, the rest at 12), never under 2 s."""
    cjk = sum(1 for ch in text if ord(ch) > 0x2E7F and not ch.isspace())
    other = sum(1 for ch in text if ord(ch) <= 0x2E7F and not ch.isspace())
    spaces = sum(1 for ch in text if ch.isspace())
    return max(MIN_READ, cjk / ZH_RATE + (other + spaces) / EN_RATE)


def pick(pair: tuple[str, str], lang: str) -> str:
    return pair[LANGS.index(lang)]


def caption(scene: str, step: str, lang: str, whole_formulas: bool = False, **values) -> str:
    """The caption of ``step`` in ``scene``, filled with ``values`` (strings or numbers); its
    ``$…$`` formulas in Unicode forms (captions are plain text: they go to .srt and .vtt);
    ``whole_formulas``: with no-break spaces inside them, for breaking the caption into lines."""
    text = plain(pick(CAPTIONS[scene][step], lang), whole_formulas).format(**values)
    if not whole_formulas:
        return text
    # Σ s(1−s) whole too, and a pair "it₁ → trophy" (a review: zh lines broke at its arrow)
    return text.replace("Σ ", "Σ" + NO_BREAK).replace(" → ", f"{NO_BREAK}→{NO_BREAK}")


def word(key: str, lang: str, **values) -> str:
    """A word or label, filled in, its ``$…$`` math in Unicode forms."""
    return plain(pick(WORDS[key], lang)).format(**values)


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
