"""How a caption names a token label, without Manim (the CLI's words use it too).

A :class:`Token` is a label as the scenes show it (``scenes.mobjects.text.distinct``). Wherever
a token is named — a caption, a note, a word (``scenes.kit.captions``), a label on screen, bare
(a table's header, a tip's label) or as a formula's argument (k(…), q(…), o(…)) — one rule holds
in both languages: punctuation alone is quoted (:func:`quoted`: “。”, “,”, k(“.”)), and for
breaking into lines the label is kept whole (:func:`whole`: no line break inside 猫¹, 11 because
or 注意力机制). A Token formatted into a string (``f"k({token})"``) is quoted by itself, and
``scenes.mobjects.text.label`` draws a Token quoted (:func:`shown`); ``str(token)`` is the plain
label (for look-ups). The quotation marks are plain characters: no markup, and labels never
reach Typst.
"""

from __future__ import annotations

from scenes.mobjects.unimath import NO_BREAK

SCRIPTS = "₀₁₂₃₄₅₆₇₈₉⁰¹²³⁴⁵⁶⁷⁸⁹"  # a repeat's number (it₂), a byte piece's (猫¹)
WORD_JOINER = "\u2060"  # no line breaks beside it; dropped from the lines (see wrap_lines)


class Token(str):
    """A token label as the scenes show it: wherever it is named it is quoted where it is
    punctuation alone — formatted into a string (``f"k({t})"`` → k(“.”)), drawn
    (``scenes.mobjects.text.label``), in a caption (``scenes.kit.captions``, which also keeps it
    whole on one line). ``str(t)`` is the label itself."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return format(quoted(self), spec)


class Followed(str):
    """The followed query's or key's label as drawn (:func:`shown`; issue 38: "ex…ns" for the
    followed query "explanations"): whole wherever it is, never shortened with "…" — a
    matrix's row or column name (``scenes.mobjects.grid_labels.fit_label``) gives it room."""

    __slots__ = ()


def is_punctuation(label: str) -> bool:
    """A label of punctuation or symbols alone (``。``, ``,``, ``"``, ``,₂``): named bare in a
    sentence it reads as the sentence's own punctuation."""
    core = str(label).strip().rstrip(SCRIPTS)
    return bool(core) and not any(c.isalnum() for c in core)


def quoted(label: str) -> str:
    """A token label as a caption or note names it: in quotation marks where it is punctuation
    alone (“。” in Chinese, “,” in English: "每个分数原地变小，。框出的…" read as a typo)."""
    return f"“{str(label)}”" if is_punctuation(label) else str(label)


def shown(text) -> str:
    """``text`` as drawn: a :class:`Token` :func:`quoted` (a table's header “.”, a tip's
    label “,”), any other string as it is (a comma drawn as a comma)."""
    return quoted(text) if isinstance(text, Token) else str(text)


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
