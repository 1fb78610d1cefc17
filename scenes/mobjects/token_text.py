"""How a caption names a token label, without Manim (the CLI's words use it too).

A :class:`Token` is a label as the scenes show it (``scenes.mobjects.text.distinct``). Wherever
a caption, note or word names one (``scenes.kit.captions``), one rule holds in both languages:
punctuation alone is quoted (:func:`quoted`: “。”, “,”), and for breaking into lines the label
is kept whole (:func:`whole`: no line break inside 猫¹, 11 because or 注意力机制).
"""

from __future__ import annotations

from scenes.mobjects.unimath import NO_BREAK

SCRIPTS = "₀₁₂₃₄₅₆₇₈₉⁰¹²³⁴⁵⁶⁷⁸⁹"  # a repeat's number (it₂), a byte piece's (猫¹)
WORD_JOINER = "\u2060"  # no line breaks beside it; dropped from the lines (see wrap_lines)


class Token(str):
    """A token label as the scenes show it: a caption that names it quotes it where it is
    punctuation alone and keeps it whole on one line (``scenes.kit.captions``)."""

    __slots__ = ()


def is_punctuation(label: str) -> bool:
    """A label of punctuation or symbols alone (``。``, ``,``, ``"``, ``,₂``): named bare in a
    sentence it reads as the sentence's own punctuation."""
    core = str(label).strip().rstrip(SCRIPTS)
    return bool(core) and not any(c.isalnum() for c in core)


def quoted(label: str) -> str:
    """A token label as a caption or note names it: in quotation marks where it is punctuation
    alone (“。” in Chinese, “,” in English: "每个分数原地变小，。框出的…" read as a typo)."""
    return f"“{label}”" if is_punctuation(label) else str(label)


def whole(label: str) -> str:
    """``label`` never split across lines: its spaces no-break spaces ("11 because"), word
    joiners between its Chinese characters (jieba would cut 注意力机制). Its sub- and
    superscripts stay with it by the line-breaking rules themselves
    (``scenes.mobjects.text.NO_START``)."""
    out = ""
    for c in str(label).replace(" ", NO_BREAK):
        if out and (_cjk(c) or _cjk(out[-1])) and NO_BREAK not in (c, out[-1]):
            out += WORD_JOINER
        out += c
    return out


def named(label: str) -> str:
    """A token label as a caption's layout text names it: :func:`quoted`, then :func:`whole`."""
    return whole(quoted(label))


def _cjk(c: str) -> bool:
    return ord(c) > 0x2E7F and not c.isspace()
