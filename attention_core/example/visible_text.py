"""Text a viewer can see and read: which characters of a label are refused, and why.

Decided from Unicode's own data and from the fonts the videos draw with, never from a hand-kept
list of ranges:

- Unicode categories: control characters, line and paragraph separators, bidirectional controls
  (they reorder what is shown), other format characters (zero-width space, soft hyphen …),
  private-use and unassigned code points, and default-ignorable ones (drawn as nothing);
- the fonts: the font Pango would draw a character with is the first font in fontconfig's
  fallback order for :data:`LABEL_FONT` that has it — or, for a character shown as emoji
  (Unicode's ``Emoji_Presentation``, or followed by U+FE0F), the first for the family
  ``"emoji"``, as Pango asks. A character no font has, or whose font is a colour font (bitmap
  emoji without outlines, drawn blank in a video), cannot be drawn.

The fonts are asked once per process (``fc-match``, about 40 ms) and their coverage kept. Where
fontconfig's tools are missing, only the Unicode checks apply. Pure Python: no Manim, no Pango.
"""

from __future__ import annotations

import bisect
import subprocess
import unicodedata
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Literal

# the family every label is drawn in: scenes.mobjects.fonts.DEFAULT_FONT (a test keeps them equal)
LABEL_FONT = "Noto Sans CJK SC"
EMOJI_FAMILY = "emoji"  # the family Pango asks fontconfig for when a character is shown as emoji

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
VS15, VS16, KEYCAP = "\ufe0e", "\ufe0f", "\u20e3"


def char_name(c: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``: how a message names a character."""
    name = unicodedata.name(c, "")
    return f"U+{ord(c):04X}" + (f" {name}" if name else "")


@lru_cache(maxsize=1 << 16)  # labels repeat (a course of 60,000 examples reads in seconds)
def refusal(text: str, *, fonts: bool = True) -> str | None:
    """Why ``text`` cannot be shown as a label (the part of a message after the label), or None.

    Each character is checked in order (its category, then whether a font draws it); a text with
    no visible character at all (only spaces and invisible characters) is refused too.
    """
    for i, c in enumerate(text):
        why = _category_refusal(c) or (_font_refusal(text, i) if fonts else None)
        if why:
            return why
    if fonts and text.strip() and not any(_has_ink(text, i) for i in range(len(text))):
        names = ", ".join(dict.fromkeys(char_name(c) for c in text if not c.isspace()))
        return f"has no visible character ({names} is drawn blank); use a word a viewer can read"
    return None


def _category_refusal(c: str) -> str | None:
    cat = unicodedata.category(c)
    if cat in ("Cc", "Cs"):
        return "contains control characters (newline, tab …); remove them"
    if cat in ("Zl", "Zp"):
        return f"contains {char_name(c)}, which breaks the line; keep a label on one line"
    if c in BIDI_CONTROLS:
        return (
            f"contains {char_name(c)}, a bidirectional control that changes the order in which "
            "the label is shown; remove it"
        )
    if cat == "Cf":
        return f"contains {char_name(c)}, an invisible format character; remove it"
    if cat == "Co":
        return f"contains {char_name(c)}, a private-use character with no agreed glyph; remove it"
    if cat == "Cn":
        return f"contains {char_name(c)}, which is not an assigned Unicode character; remove it"
    if _is_default_ignorable(c):
        return f"contains {char_name(c)}, which is drawn as nothing; remove it"
    return None


def _is_default_ignorable(c: str) -> bool:
    import regex

    return regex.match(r"\p{Default_Ignorable_Code_Point}", c) is not None


def shown_as_emoji(text: str, i: int) -> bool:
    """True when the character at ``i`` is shown as emoji: ``Emoji_Presentation`` (unless
    U+FE0E follows), or an emoji character followed by U+FE0F or a keycap."""
    import regex

    c, nxt = text[i], text[i + 1 : i + 2]
    if nxt == VS15:
        return False
    if regex.match(r"\p{Emoji_Presentation}", c):
        return True
    return nxt in (VS16, KEYCAP) and regex.match(r"\p{Emoji}", c) is not None


def _font_refusal(text: str, i: int) -> str | None:
    c = text[i]
    if unicodedata.category(c) in ("Zs", "Mn", "Me"):
        return None  # spaces and combining marks: drawn with their neighbours
    emoji = shown_as_emoji(text, i)
    font = drawing_font(c, EMOJI_FAMILY if emoji else LABEL_FONT)
    if font is False:
        return None  # fontconfig is not available: the fonts cannot be asked
    if font is None:
        return (
            f"contains {char_name(c)}, which no installed font can draw; use a word instead "
            "(or install a font that has it)"
        )
    if font.color:
        return (
            "contains emoji, which the videos cannot draw (colour emoji have no outlines); "
            "use a word instead"
        )
    return None


def _has_ink(text: str, i: int) -> bool:
    """Whether the character at ``i`` leaves a mark: letters and digits do; a symbol drawn by a
    TrueType font is asked of the font's outline (U+2800 BRAILLE PATTERN BLANK has none);
    spaces and lone marks do not count."""
    c = text[i]
    cat = unicodedata.category(c)
    if cat[0] in "LN":
        return True
    if cat in ("Zs", "Mn", "Me") or cat[0] == "C":
        return False
    font = drawing_font(c, EMOJI_FAMILY if shown_as_emoji(text, i) else LABEL_FONT)
    return not font or font.outline_is_empty(c) is not True


@dataclass(frozen=True)
class Font:
    """One font of fontconfig's fallback order: its family, whether it is a colour font, its
    outline format and file, and the characters it has (fontconfig's charset: hex ranges such
    as ``20-7e a0``)."""

    family: str
    color: bool
    charset: str
    fontformat: str = ""
    file: str = ""
    index: int = 0

    @cached_property
    def _ranges(self) -> tuple[list[int], list[int]]:
        starts, ends = [], []
        for part in self.charset.split():
            a, _, b = part.partition("-")
            starts.append(int(a, 16))
            ends.append(int(b or a, 16))
        return starts, ends

    def has(self, c: str) -> bool:
        starts, ends = self._ranges
        k = bisect.bisect_right(starts, ord(c)) - 1
        return k >= 0 and ord(c) <= ends[k]

    def outline_is_empty(self, c: str) -> bool | None:
        """True when the font's glyph for ``c`` has no outline (drawn blank), False when it has
        one, None when it cannot be told (not a TrueType font, or the file cannot be read)."""
        if self.fontformat != "TrueType" or not self.file:
            return None
        return _empty_glyph(self.file, self.index, ord(c))


@lru_cache(maxsize=256)
def _empty_glyph(file: str, index: int, codepoint: int) -> bool | None:
    font = _truetype(file, index)
    if font is None or "glyf" not in font:
        return None
    name = font.getBestCmap().get(codepoint)
    if name is None:
        return None
    return font["glyf"][name].numberOfContours == 0


@lru_cache(maxsize=8)
def _truetype(file: str, index: int) -> Any:
    try:
        from fontTools.ttLib import TTFont

        return TTFont(file, fontNumber=index, lazy=True)
    except Exception:  # a font file fontTools cannot read: its glyphs cannot be told
        return None


def drawing_font(c: str, family: str) -> Font | Literal[False] | None:
    """The font Pango would draw ``c`` with when asked for ``family``: a :class:`Font`, None
    when no font has it, False when fontconfig cannot be asked."""
    fonts = fallback_order(family)
    if fonts is None:
        return False
    return next((f for f in fonts if f.has(c)), None)


@lru_cache(maxsize=8)
def fallback_order(family: str) -> tuple[Font, ...] | None:
    """fontconfig's fonts for ``family``, best first (``fc-match -s``), or None without it."""
    fmt = "%{color}|%{fontformat}|%{index}|%{family[0]}|%{file}|%{charset}\\n"
    try:
        done = subprocess.run(
            ["fc-match", "-s", "--format", fmt, family],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    fonts = []
    for line in done.stdout.splitlines():
        fields = line.split("|")
        if len(fields) < 6:
            continue
        color, fontformat, index, family = fields[:4]
        file, charset = "|".join(fields[4:-1]), fields[-1]
        is_color = color.strip().lower() == "true"
        number = int(index) if index.isdigit() else 0
        fonts.append(Font(family, is_color, charset, fontformat, file, number))
    return tuple(fonts) or None
