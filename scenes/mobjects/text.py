"""Text on screen: every string goes through Pango ``Text`` (escaped), never markup or Typst.

:class:`Num` is a number shown on screen that remembers which trace value it shows (``role``), so
tests can check every number against the core.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata

import numpy as np
from manim import DOWN, LEFT, MarkupText, Mobject, Text, VGroup
from manim.mobject.text.text_mobject import TEXT_MOB_SCALE_FACTOR

from scenes.mobjects import fonts, text_cache
from scenes.mobjects.numfmt import fmt
from scenes.mobjects.text_line import LineMarkupText, LineText, OnLine, Strut, text_baseline
from scenes.mobjects.theme import BODY
from scenes.mobjects.token_text import (
    SCRIPTS,
    WORD_JOINER,
    Token,
    is_punctuation,
    named,
    quoted,
    shown,
    whole,
)

__all__ = [
    "label",
    "label_box",
    "Num",
    "wrap_lines",
    "fmt",
    "ellipsize",
    "fitted",
    "text_width",
    "Token",
    "quoted",
    "whole",
    "named",
    "shown",
    "Strut",
    "text_baseline",
    "label_reach",
]

SHORT_LABEL = 8  # a label of this many characters or fewer is never shortened with "…"


_PROTOTYPES: dict[tuple, Text] = {}


# a multiplication dot as Pango draws it: the CJK font sets U+00B7 (·) full width, a bullet
# "q(it) ・ k(soup)"; the dot operator ⋅ is the centred dot Typst's formulas show, and between
# two letters ("q(it)·k(soup)") it takes thin spaces, as Typst sets a binary operator
_TIGHT_DOT = re.compile(r"(?<=\S)·(?=\S)")
THIN = "\u2009"


def drawn(text: str) -> str:
    """``text`` as Pango is given it: each middle dot · the dot operator ⋅, with thin spaces
    where it stood between two characters."""
    return _TIGHT_DOT.sub(f"{THIN}⋅{THIN}", str(text)).replace("·", "⋅")


def _text(text: str, size: float, weight: str = "NORMAL") -> Text:
    """A copy of a cached Text: Pango + SVG parsing costs ~0.1 s a string, a copy far less."""
    return clone(_prototype(text, size, weight))


def _prototype(text: str, size: float, weight: str = "NORMAL") -> Text:
    """The cached Text of ``text`` (never to be changed: :func:`_text` hands out copies)."""
    font = fonts.active()
    text = drawn(text)
    key = (text, float(size), weight, font)
    if _latin_quotes(text, font) is not None:  # drawn so since issue 38 (not an older copy)
        key += (LATIN,)
    key += ("on its line",)  # placed by its line since issue 38 (not an older copy)
    proto = _PROTOTYPES.get(key)
    if proto is None:
        if len(_PROTOTYPES) > 4000:
            _PROTOTYPES.clear()
        proto = text_cache.load(key)  # from an earlier process: a loaded copy, ready to use
        if proto is None:
            proto = _lightened(_on_line(text, font, size, weight))
            text_cache.store(key, proto)
        _PROTOTYPES[key] = proto
    return proto


NO_WRAP = 1 << 15  # pixels: the widest layout Pango is given (see _pango)


def _pango(
    text: str,
    font: str,
    size: float,
    weight: str = "NORMAL",
    latin: bool | None = None,
    centred: bool = True,
):
    """Pango's drawing of ``text``, on one line. Manim gives Pango a layout as wide as the
    render's pixel width, so a long line made in a low-resolution process came out wrapped onto
    two lines — and was then cached for every other process (a caption line 7.5 units wide and
    two lines tall). Manim's ``Text`` draws nothing for right-to-left scripts (Arabic, Hebrew):
    those go through ``MarkupText`` with every character escaped, so the label is still drawn
    literally (``<b>`` stays four characters) and no markup is interpreted. ``latin=False``:
    quotation marks in ``font`` even where :func:`_latin_quotes` would set them in LATIN.
    ``centred=False``: left where Pango's layout puts it, for :func:`_on_line` to find its
    baseline."""
    from manim import config

    saved = config.pixel_width
    config.pixel_width = max(saved, NO_WRAP)
    style = {"font": font, "font_size": size, "weight": weight, "should_center": centred}
    try:
        if any(unicodedata.bidirectional(c) in ("R", "AL") for c in text):
            return MarkupText(html.escape(text), **style)
        marked = None if latin is False else _latin_quotes(text, font)
        if marked is not None:
            return MarkupText(marked, **style)
        return Text(text, **style)
    finally:
        config.pixel_width = saved


# A label's line (issue 38: "a", "gave", "," and "Apply" set by their ink's middle rode up and
# down in a row): as high as a CJK character, as deep as a "g" — a caption's line
# (``scenes.kit.base``) — whatever its own letters reach
LINE_REFERENCE = "赢g"


def _on_line(text: str, font: str, size: float, weight: str) -> Text:
    """Pango's drawing of ``text`` (:func:`_pango`) with its :class:`Strut`, centred on its ink
    as Manim centres a text, placed by its line (:class:`OnLine`).

    Manim turns and scales the text about the middle of its ink, which Pango's layout put at
    ``c``; the baseline, at the same place in every layout of one font and size, is found from
    an "H" so made (whose bottom is on it): it lies ``s·(c − c_H)`` further from the ink's
    middle than the H's bottom from the H's (``s``: Manim's text scale)."""
    mob = _pango(text, font, size, weight, centred=False)
    c = float(mob.get_center()[1])
    mob.center()
    if mob.family_members_with_points():  # a blank label has no line to sit on
        c_h, bottom, depth, height = _line(font, size, weight)
        base = bottom + TEXT_MOB_SCALE_FACTOR * (c - c_h)
        mob.add(Strut(0.0, 0.0, mob.width, base, depth, height))
        mob.__class__ = LineMarkupText if isinstance(mob, MarkupText) else LineText
    return mob


@functools.lru_cache(maxsize=512)
def _line(font: str, size: float, weight: str) -> tuple[float, float, float, float]:
    """For :func:`_on_line`: an uncentred "H"'s middle and its bottom below it, and the depth
    and height of :data:`LINE_REFERENCE` about the baseline."""
    h = _pango("H", font, size, weight, latin=False, centred=False)
    c_h = float(h.get_center()[1])
    bottom = float(h.get_bottom()[1]) - c_h
    ref = _pango(LINE_REFERENCE, font, size, weight, latin=False, centred=False)
    c = float(ref.get_center()[1])
    base = c + bottom + TEXT_MOB_SCALE_FACTOR * (c - c_h)
    return c_h, bottom, base - float(ref.get_bottom()[1]), float(ref.get_top()[1]) - base


LATIN = "Noto Sans"  # a punctuation label's quotation marks: proportional, at cap height
# a label alone (a row's number before it, k( ) around it): “,” with nothing else on its line
_QUOTED_LABEL = re.compile(r"^(\d+ )?[^\s“”]*“([^“”\s]+)”[^\s“”]*$")


def _latin_quotes(text: str, font: str) -> str | None:
    """A punctuation label drawn alone (“,” a table's row or column name, k(“.”) at a tip) as
    Pango markup, every character escaped, its quotation marks in :data:`LATIN`; None for
    any other text. The CJK font sets them full width, high above the mark they quote and an
    em from it, and a review read “,” in a table as torn over two lines (“ ” above, "," below
    in the next row); its Latin marks sit at the digits' height, beside the mark."""
    if font == LATIN or LATIN not in fonts.installed():
        return None
    m = _QUOTED_LABEL.match(text)
    if (m is None or not is_punctuation(m.group(2))) and not latin_run(text):
        return None
    span = f'<span font_family="{LATIN}">{{}}</span>'
    return "".join(span.format(c) if c in "“”" else html.escape(c) for c in text)


QUOTES = "“”‘’"
_QUOTED = re.compile(r"“[^“”]*”")


def latin_run(text: str) -> bool:
    """Whether ``text`` is a Latin line with quotation marks ("the head moved “it” toward
    “soup”", k( “,” )): no CJK character outside its quoted labels. Its marks are then set in
    :data:`LATIN` (issue 38: the CJK font's full-width marks left an em's gap in English
    captions); Chinese prose keeps its own full-width marks."""
    if not any(c in QUOTES for c in text):
        return False
    return not any(_cjk(c) for c in _QUOTED.sub("", text))


def _lightened(text: Text) -> Text:
    """Drop each glyph's parsed SVG path (used only while building it): every later copy,
    ours or an animation's, is then several times cheaper."""
    for part in text.get_family():
        if getattr(part, "path_obj", None) is not None:
            part.path_obj = None
    return text


_SHARED = frozenset({int, float, str, bool, type(None), tuple})  # kept as they are by clone


def clone(mob: Mobject, memo: dict | None = None) -> Mobject:
    """A copy of ``mob`` for a fresh mobject tree: its arrays, lists and dicts copied, its
    sub-mobjects cloned (each once), immutable values shared. Manim's ``copy`` deep-copies
    every attribute, which profiling showed to be the largest cost left in a stills run."""
    memo = {} if memo is None else memo
    if id(mob) in memo:
        return memo[id(mob)]
    new = object.__new__(type(mob))
    memo[id(mob)] = new
    state = new.__dict__
    for k, v in mob.__dict__.items():
        if type(v) in _SHARED:  # most of a glyph's attributes: no isinstance chain
            pass
        elif isinstance(v, np.ndarray):
            v = v.copy()
        elif isinstance(v, Mobject):
            v = clone(v, memo)
        elif isinstance(v, list):
            v = [clone(x, memo) if isinstance(x, Mobject) else x for x in v]
        elif isinstance(v, dict):
            v = dict(v)
        state[k] = v
    return new


def label(text: str, size: float = BODY, color=None, weight="NORMAL") -> Text:
    """A plain text mobject. ``Text`` does not interpret markup: ``<b>x</b>`` shows literally.
    A :class:`Token` of punctuation alone is drawn quoted, “.” (:func:`shown`)."""
    text = shown(text)
    mob = _text(text, size, weight)
    if color is not None:
        mob.set_color(color)
    mob.source_text = text
    return mob


def label_box(text: str, size: float = BODY, weight="NORMAL") -> tuple[float, float]:
    """``(width, height)`` of ``label(text, size)`` (its ink's: :class:`OnLine`), measured
    without making it: a copy of a text costs more than its measure, and laying out a grid of 24
    rows measured each of its labels a dozen times."""
    key = (shown(text), float(size), weight, fonts.active())
    box = _BOXES.get(key)
    if box is None:
        if len(_BOXES) > 20000:
            _BOXES.clear()
        proto = _prototype(key[0], size, weight)
        box = _BOXES[key] = (proto.width, proto.height)
    return box


_BOXES: dict[tuple, tuple[float, float]] = {}  # label_box's measures


def label_reach(text: str, size: float = BODY, weight="NORMAL") -> tuple[float, float]:
    """How far the ink of ``label(text, size)`` reaches below and above its baseline: two
    labels set one under the other on their lines (:class:`OnLine`) stay clear of each other
    when their baselines are the upper's reach below plus the lower's above apart."""
    return _reach(shown(text), float(size), weight, fonts.active())


@functools.lru_cache(maxsize=20000)
def _reach(text: str, size: float, weight: str, font: str) -> tuple[float, float]:
    mob = _prototype(text, size, weight)
    base = text_baseline(mob)
    ys = [m.points[:, 1] for m in mob.family_members_with_points()]
    if base is None or not ys:
        return 0.0, 0.0
    inked = np.concatenate(ys)
    return base - float(inked.min()), float(inked.max()) - base


class Num(OnLine, VGroup):
    """A number from the trace, shown rounded; ``role`` says where it comes from; placed by its
    line, as a label (:class:`OnLine`).

    ``role`` is a tuple such as ``("scores", head, i, j)``: see :mod:`scenes.kit.roles`. The text
    itself is the group's one member (a cached Pango ``Text``).
    """

    def __init__(
        self,
        value: float,
        role: tuple,
        digits: int = 2,
        size: float = BODY,
        color=None,
        prefix: str = "",
        suffix: str = "",
    ):
        self.value = float(value)
        self.role = role
        self.digits = digits
        self.shown = fmt(self.value, digits)
        self.source_text = prefix + self.shown + suffix
        super().__init__(label(self.source_text, size, color))

    @property
    def font_size(self) -> float:
        return self.submobjects[0].font_size


def wrap_lines(text: str, max_width: float, size: float, max_lines: int = 3) -> list[str]:
    """Break ``text`` into lines no wider than ``max_width`` (measured by Pango).

    Latin text breaks at spaces, Chinese between words, by the Chinese line-breaking rules
    (:func:`_break_units`); a token label made :func:`whole` is never split. The lines come
    without the word joiners that held a label together.
    """
    return [line.replace(WORD_JOINER, "") for line in _wrap(text, max_width, size, max_lines)]


def _wrap(text: str, max_width: float, size: float, max_lines: int) -> list[str]:
    """:func:`wrap_lines`, its word joiners kept (a page of a caption is wrapped again)."""

    def width(s):
        return text_width(s, size)

    if width(text) <= max_width:
        return [text]
    units = [part for unit in _break_units(text) for part in _too_wide(unit, max_width, size)]
    lines, current = [], ""
    for unit in units:
        trial = current + unit
        if current and width(trial.rstrip()) > max_width:
            lines.append(current.rstrip())
            current = unit.lstrip()
        else:
            current = trial
    if current.strip():
        lines.append(current.rstrip())
    if len(lines) > max_lines:
        rest = lines[max_lines - 1 :]
        last = rest[0]
        for line in rest[1:]:  # a space between words, none between CJK characters
            last += ("" if _cjk(last[-1]) or _cjk(line[0]) else " ") + line
        lines = lines[: max_lines - 1] + [last]
    return lines


def _too_wide(unit: str, max_width: float, size: float) -> list[str]:
    """A Chinese word wider than the line cut between its characters (a closing mark kept with
    the one before it); any other unit, a label or a formula, whole."""
    if text_width(unit, size) <= max_width or not all(_cjk(c) for c in unit):
        return [unit]
    parts: list[str] = []
    for c in unit:
        if parts and c in NO_START:
            parts[-1] += c
        else:
            parts.append(c)
    return parts


def balanced_lines(text: str, max_width: float, size: float, max_lines: int = 3) -> list[str]:
    """:func:`wrap_lines`, then as narrow as the same number of lines allows: the lines come out
    of even length, with no orphan word alone on the last one."""
    lines = wrap_lines(text, max_width, size, max_lines)
    if len(lines) < 2:
        return lines
    lo, hi = max_width * 0.4, max_width
    for _ in range(12):  # the narrowest width that still gives as many lines
        mid = (lo + hi) / 2
        if len(wrap_lines(text, mid, size, 99)) <= len(lines):
            hi = mid
        else:
            lo = mid
    return wrap_lines(text, hi, size, max_lines)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|(?<=[。！？；])")


def caption_pages(text: str, max_width: float, size: float, max_lines: int) -> list[str]:
    """``text`` as pages of at most ``max_lines`` lines of ``max_width`` at ``size``, shown one
    after the other: whole sentences together where they fit, a sentence too long for one page
    cut between lines (issue 38: a five-line caption crammed into four ran off both edges).
    One page when it fits."""

    def lines(t: str) -> list[str]:
        return _wrap(t, max_width, size, 99)

    if len(lines(text)) <= max_lines:
        return [text]
    pages, current = [], ""
    for sentence in (s for s in _sentences(text) if s.strip()):
        joined = _joined(current, sentence.strip())
        if current and len(lines(joined)) > max_lines:
            pages.append(current)
            current = sentence.strip()
        else:
            current = joined
    pages.append(current)
    out = []
    for page in pages:  # a sentence alone longer than a page: its lines in pages
        cut = lines(page)
        out += [_joined_lines(cut[k : k + max_lines]) for k in range(0, len(cut), max_lines)]
    return out


def _sentences(text: str) -> list[str]:
    """``text`` cut after each sentence's end (. ! ? before a space, 。！？；) — but not after a
    mark that is a token's label, in its quotation marks (“。”) or a formula's argument (q(。)):
    no page starts with ” or )."""
    out, start, depth = [], 0, 0
    for m in _SENTENCE_END.finditer(text):
        depth = text.count("(", 0, m.start()) - text.count(")", 0, m.start())
        if depth > 0 or text[m.end() : m.end() + 1] in NO_START:
            continue
        out.append(text[start : m.start()])
        start = m.end()
    return [*out, text[start:]]


def _joined(a: str, b: str) -> str:
    if not a:
        return b
    return a + ("" if _cjk(a[-1]) or _cjk(b[0]) else " ") + b


def _joined_lines(parts: list[str]) -> str:
    out = ""
    for part in parts:
        out = _joined(out, part)
    return out


def _measure(s: str, size: float, font: str, latin: bool = False) -> float:
    """The width of ``s`` as Pango sets it (remembered on disk by
    :mod:`scenes.mobjects.text_cache`); ``latin``: its quotation marks in :data:`LATIN`, as
    a Latin line draws them (:func:`latin_run`), else in ``font``."""
    s = drawn(s)
    key = f"{font}|{float(size)}|{s}" + (f"|{LATIN}" if latin else "")
    known = text_cache.widths()
    if key not in known:
        text_cache.remember_width(key, _pango(s, font, size, latin=latin).width)
    return known[key]


def _char_width(c: str, size: float, latin: bool = False) -> float:
    """The advance of ``c``: the width of "x c x" minus that of "xx" (ink widths cancel)."""
    return _advance(c, float(size), fonts.active(), latin and c in QUOTES)


@functools.lru_cache(maxsize=65536)
def _advance(c: str, size: float, font: str, latin: bool = False) -> float:
    wide = _measure("x" + c + "x", size, font, latin)
    return max(0.0, wide - _measure("xx", size, font))


def text_width(s: str, size: float) -> float:
    """Estimated width of ``s`` at ``size`` (sum of cached character advances, 4 % margin); a
    :class:`Token` as drawn (:func:`shown`), its dots as drawn (:func:`drawn`), the quotation
    marks of a Latin line in :data:`LATIN` (:func:`latin_run`)."""
    s = drawn(shown(s))
    latin = latin_run(s) and _latin_quotes(s, fonts.active()) is not None
    return 1.04 * sum(_char_width(c, size, latin) for c in s)


_WRAPPED = re.compile(r"^(.{0,3}\w\()(.+)(\))$")  # "o(", "× v(", "q(" … around a label


def ellipsize(s: str, max_width: float, size: float, prefix: str = "") -> str:
    """``s`` itself if it fits ``max_width`` or has at most :data:`SHORT_LABEL` characters (a
    short label is read whole: its place makes room for it, or it reaches a little past), else
    its start and its end around "…", as much of both as fits: labels that differ only at the
    end ("WWWWWWWWWW01", "…03") stay apart; in ``o(label)`` only the label is shortened.
    ``prefix`` (a row's number "3 ") is kept whole and counted in the width; only ``s`` is
    shortened."""
    if prefix:
        return prefix + ellipsize(s, max_width - text_width(prefix, size), size)
    s = shown(s)  # a Token as drawn, “.”
    if len(s) <= SHORT_LABEL or text_width(s, size) <= max_width:
        return s
    wrapped = _WRAPPED.match(s)  # o(label), × v(label): only the label is shortened
    if wrapped:
        head, inner, tail = wrapped.groups()
        room = max_width - text_width(head + tail, size)
        return head + ellipsize(inner, room, size) + tail
    for keep in range(len(s) - 1, 1, -1):
        tail = max(1, (keep + 1) // 2 if keep < 6 else min(keep // 2, 4 + (keep - 8) // 2))
        tail = min(tail, max(2, keep // 2))
        head = keep - tail
        short = s[:head].rstrip() + "…" + s[len(s) - tail :].lstrip()
        if text_width(short, size) <= max_width:
            return short
    return s[:1] + "…" + s[-1:]


def fitted(s: str, max_width: float, size: float) -> tuple[str, float]:
    """``s`` and the size to set it at in ``max_width``: the given size, else a smaller one down
    to the minimum (1/36 of the frame height), and only then shortened (:func:`ellipsize`)."""
    from scenes.mobjects.theme import MIN_FONT_SIZE

    for smaller in range(int(size), MIN_FONT_SIZE - 1, -1):
        if text_width(s, smaller) <= max_width:
            return s, float(smaller) if smaller != int(size) else size
    return ellipsize(s, max_width, MIN_FONT_SIZE), MIN_FONT_SIZE


_SUBSCRIPT_DIGITS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def distinct(labels) -> list[Token]:
    """Labels that repeat told apart by a subscript: a, a, b → a₁, a₂, b (a sentence often
    repeats a word; every table, plane and caption must still say which one)."""
    labels = [str(t) for t in labels]
    counts: dict[str, int] = {}
    for t in labels:
        counts[t] = counts.get(t, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for t in labels:
        if counts[t] > 1:
            seen[t] = seen.get(t, 0) + 1
            out.append(Token(t + str(seen[t]).translate(_SUBSCRIPT_DIGITS)))
        else:
            out.append(Token(t))
    return out


# Chinese line-breaking rules (kinsoku): no line starts with a closing mark, none ends with an
# opening one; CLOSERS end what they close (a line may break after one)
CLOSERS = "，。、；：）」』》〉】〕］｝！？”’,.;:!?"
# words jieba's dictionary does not keep whole (每个头上/方, 混合值/向量 were broken in captions)
DOMAIN_WORDS = ("上方", "值向量", "键向量", "查询向量", "词向量", "注意力", "色标", "前馈网络")
# the subject's terms, from the zh caption templates: a line never breaks inside one, and jieba
# prefers them to the common words they overlap (所有/权重/合起来, not 所有权/重合/起来)
GLOSSARY = (
    *DOMAIN_WORDS,
    *("权重", "查询", "向量", "分数", "词元", "键", "值", "点积", "缩放", "归一化"),
    *("掩码", "份额", "矩阵", "指数", "位置", "编码", "子空间", "多头"),
)
OPENERS = "（「『《〈【〔［｛“‘"
# never at a line's start: closing marks, a label's sub- or superscript (猫¹, it₂), a joiner
NO_START = frozenset(CLOSERS + ")]}" + SCRIPTS + "ᵀ" + WORD_JOINER + "\u00a0")
NO_END = frozenset(OPENERS + WORD_JOINER + "\u00a0")  # never at a line's end


def _cjk(c: str) -> bool:
    return ord(c) > 0x2E7F and not c.isspace()


def _combining(c: str) -> bool:
    return unicodedata.combining(c) > 0


def _words(run: str) -> list[str]:
    """A run of CJK characters cut into words by jieba (a maintained Chinese segmenter, loaded
    on first use): a line may break between two words, never inside one (先取/指数, not
    先取指/数)."""
    if len(run) < 2:
        return [run] if run else []
    return _segmenter().lcut(run, HMM=True)


@functools.cache
def _segmenter():
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)  # no "Building prefix dict…" on a user's terminal
    folder = text_cache.segmenter_cache_dir(getattr(jieba, "__version__", "0"))
    if folder is not None:  # not the temporary folder: a worker's is its own, so it was rebuilt
        jieba.dt.tmp_dir = str(folder)
    for word in GLOSSARY:  # terms of this subject its dictionary cuts or overlaps
        jieba.add_word(word, freq=100_000)  # above the common words it might join with
    return jieba


@functools.lru_cache(maxsize=4096)
def _break_units(text: str) -> tuple[str, ...]:
    """Break opportunities: Latin at spaces, Chinese between words (:func:`_words`) and after
    CJK punctuation — but never inside a formula's parentheses (w(早→好), q(早): a "(" right
    after a character; a parenthetical clause after a space breaks as usual), before a closing
    mark, or at a space beside a CJK character (0 到 1 stays on one line)."""
    units, word, run, depth = [], "", "", 0
    for k, c in enumerate(text):
        letter = _cjk(c) and c not in CLOSERS and not depth
        if run and not letter:  # a run of Chinese ends: its words are units
            units.extend(_words(run))
            run = ""
        if c == "(" and (depth or (k and not text[k - 1].isspace())):
            if not word and units and not text[k - 1].isspace():  # a formula after CJK: whole
                word = units.pop()
            depth += 1
        elif c == ")" and depth:
            depth -= 1
        if depth or c == ")" and word.count("(") > word.count(")"):
            word += c
        elif c in CLOSERS:
            word = _close(units, word, c)
        elif letter or c == " ":  # Chinese gathers into a run; a space ends a Latin word
            if word or c == " ":
                units.append(word + c * (c == " "))
                word = ""
            run += c * letter
        else:
            word += c
    units.extend(_words(run))
    return tuple(_glue_spaces([*units, word] if word else units))


def _close(units: list[str], word: str, c: str) -> str:
    """A closing mark stays with what it closes (no line starts with it); after a CJK mark
    (、，。) a line may break. Returns the word still open."""
    if word or not units:
        word += c
    else:
        units[-1] = units[-1].rstrip() + c
    if _cjk(c) and word:
        units.append(word)
        return ""
    return word


RELATIONS = frozenset("=≈≠≤≥<>")  # a lone sign between spaces: "a = b" is never split


def _glue_spaces(units: list[str]) -> list[str]:
    """Join units across a space that touches a CJK character: in Chinese text a space only sets
    off a number or a Latin word ("从 0 到 1"), which stays with its neighbours; and an opening
    mark (（「『) to what it opens; and an "a = b" (``=``, ``≈``, ``≤`` … between spaces) into one
    unit, so that no line breaks beside its sign. No unit starts with a closing mark, a
    sub- or superscript or a joiner (:data:`NO_START`), none ends with an opening mark
    (:data:`NO_END`): the Chinese line-breaking rules, and a label kept whole."""
    out: list[str] = []
    bind = False  # the unit before was a lone relation sign: this one joins it
    for u in units:
        sign = u.strip() in RELATIONS
        glued = out and (out[-1][-1] in NO_END or u[0] in NO_START or _combining(u[0]))
        if glued or out and (sign or bind):  # no line ends on an opening mark
            out[-1] += u
            bind = sign
            continue
        bind = sign
        if out and (out[-1].endswith(" ") or u.startswith(" ")):
            left, right = (out[-1].rstrip() or " ")[-1], (u.lstrip() or " ")[0]
            if _cjk(left) or _cjk(right):
                out[-1] += u
                continue
        out.append(u)
    return out


def vector_row(nums, color, size: float = BODY) -> VGroup:
    """Numbers shown as a row vector "[a, b, …]", commas on the baseline."""
    from manim import RIGHT

    nums = list(nums)
    body = VGroup(*nums).arrange(RIGHT, buff=0.32, aligned_edge=DOWN)
    commas = VGroup()
    for n in nums[:-1]:
        c = label(",", size, color)
        c.next_to(n, RIGHT, buff=0.04, aligned_edge=DOWN)  # on the line, as every label
        commas.add(c)
    left, right = label("[", size, color), label("]", size, color)
    left.next_to(body, LEFT, buff=0.08)
    right.next_to(body, RIGHT, buff=0.08)
    return VGroup(left, body, commas, right)
