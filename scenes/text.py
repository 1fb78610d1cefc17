"""Text on screen: every string goes through Pango ``Text`` (escaped), never markup or Typst.

:class:`Num` is a number shown on screen that remembers which trace value it shows (``role``), so
tests can check every number against the core.
"""

from __future__ import annotations

from manim import DOWN, LEFT, Text, VGroup

from scenes import fonts
from scenes.numbers_report import fmt
from scenes.theme import BODY

__all__ = ["label", "Num", "wrap_lines", "fmt", "ellipsize", "text_width"]


_PROTOTYPES: dict[tuple, Text] = {}


def _text(text: str, size: float, weight: str = "NORMAL") -> Text:
    """A copy of a cached Text: Pango + SVG parsing costs ~0.1 s a string, a copy far less."""
    font = fonts.active()
    key = (text, float(size), weight, font)
    proto = _PROTOTYPES.get(key)
    if proto is None:
        if len(_PROTOTYPES) > 4000:
            _PROTOTYPES.clear()
        proto = _PROTOTYPES[key] = Text(text, font=font, font_size=size, weight=weight)
    return proto.copy()


def label(text: str, size: float = BODY, color=None, weight="NORMAL") -> Text:
    """A plain text mobject. ``Text`` does not interpret markup: ``<b>x</b>`` shows literally."""
    mob = _text(text, size, weight)
    if color is not None:
        mob.set_color(color)
    mob.source_text = text
    return mob


class Num(VGroup):
    """A number from the trace, shown rounded; ``role`` says where it comes from.

    ``role`` is a tuple such as ``("scores", head, i, j)``: see :mod:`scenes.roles`. The text
    itself is the group's one member (a cached Pango ``Text``).
    """

    def __init__(self, value: float, role: tuple, digits: int = 2, size: float = BODY,
                 color=None, prefix: str = "", suffix: str = ""):
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

    Latin text breaks at spaces, CJK between any two characters.
    """
    def width(s):
        return text_width(s, size)

    if width(text) <= max_width:
        return [text]
    units = _break_units(text)
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
        lines = lines[: max_lines - 1] + ["".join(lines[max_lines - 1:])]
    return lines


_CHAR_WIDTHS: dict[tuple[str, float, str], float] = {}


def _char_width(c: str, size: float) -> float:
    """The advance of ``c``: the width of "x c x" minus that of "xx" (ink widths cancel)."""
    font = fonts.active()
    key = (c, float(size), font)
    if key not in _CHAR_WIDTHS:
        base = ("xx", float(size), font)
        if base not in _CHAR_WIDTHS:
            _CHAR_WIDTHS[base] = Text("xx", font=font, font_size=size).width
        _CHAR_WIDTHS[key] = max(0.0, Text("x" + c + "x", font=font, font_size=size).width
                                - _CHAR_WIDTHS[base])
    return _CHAR_WIDTHS[key]


def text_width(s: str, size: float) -> float:
    """Estimated width of ``s`` at ``size`` (sum of cached character advances, 4 % margin)."""
    return 1.04 * sum(_char_width(c, size) for c in s)


def ellipsize(s: str, max_width: float, size: float) -> str:
    """``s`` itself if it fits ``max_width``, else its longest prefix that fits, plus "…"."""
    if text_width(s, size) <= max_width:
        return s
    for cut in range(len(s) - 1, 0, -1):
        short = s[:cut].rstrip() + "…"
        if text_width(short, size) <= max_width:
            return short
    return s[:1] + "…"


def _break_units(text: str) -> list[str]:
    units, word = [], ""
    for c in text:
        if ord(c) > 0x2E7F and not c.isspace():  # CJK and friends: a break anywhere
            if word:
                units.append(word)
                word = ""
            units.append(c)
        elif c == " ":
            units.append(word + c)
            word = ""
        else:
            word += c
    if word:
        units.append(word)
    return units


def vector_row(nums, color, size: float = BODY) -> VGroup:
    """Numbers shown as a row vector "[a, b, …]", commas on the baseline."""
    from manim import RIGHT

    nums = list(nums)
    body = VGroup(*nums).arrange(RIGHT, buff=0.32, aligned_edge=DOWN)
    commas = VGroup()
    for n in nums[:-1]:
        c = label(",", size, color)
        c.next_to(n, RIGHT, buff=0.04, aligned_edge=DOWN).shift(DOWN * c.height * 0.35)
        commas.add(c)
    left, right = label("[", size, color), label("]", size, color)
    left.next_to(body, LEFT, buff=0.08)
    right.next_to(body, RIGHT, buff=0.08)
    return VGroup(left, body, commas, right)
